/* Tests for damaged settings files (src/game/settings.c): a file broken at its last line keeps
 * every value above it, one broken in the middle keeps the lines on both sides, a file damaged
 * anywhere is kept beside as settings.yaml.damaged before the first save writes a new one, and
 * 200 randomly corrupted copies of a full file (a seeded PRNG) never crash, always load values in
 * range, and never lose the damaged original; a file nested deeper than 32 levels is refused at the
 * limit. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game/settings.h"

static char g_dir[256];
static char g_full[64 << 10], g_bad[(64 << 10) + 512], g_back[64 << 10];
static size_t g_full_len;

static void full_settings(GameSettings *s) {
    settings_default(s);
    s->input.invert_pitch = true;
    s->input.nintendo = true;
    s->input.dead_zone = 0.25f;
    input_rebind(&s->input, GA_BOOST, BIND_KEY, PKEY_B, 1);
    s->render.live.lines = 480;
    s->render.live.fog = false;
    s->render.live.fov_y_deg = 95.0f;
    s->quality = GAME_QUALITY_HIGH;
    s->quality_chosen = true;
    s->speed_limit = 1800.0f;
    s->camera = GAME_CAMERA_COCKPIT;
    s->world.gen.seed = 987654321ull;
    s->world.gen.n3_amplitude = 42.5f;
    s->world.live.view_radius = 20;
    s->world.gen.gen_y_max = 152;
    s->world.live.speed_reach_min = 6;   /* the last line of the file */
}

static int setup(void **state) {
    (void)state;
    log_set_level(LOG_ERROR);   /* one "kept beside" line per corrupted copy is not the subject */
    snprintf(g_dir, sizeof g_dir, "/tmp/skyisles_damage_XXXXXX");
    if (!mkdtemp(g_dir)) return -1;
    GameSettings s;
    full_settings(&s);
    g_full_len = settings_format(&s, g_full, sizeof g_full);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *name, const char *text, size_t len) {
    char path[400];
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
}

/* The file's bytes, or (size_t)-1 when it is not there. */
static size_t read_back(const char *name, char *buf, size_t cap) {
    char path[400];
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) return (size_t)-1;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

/* The lines of a's file text that differ from b's (the values a reader lost). */
static int lines_differing(const GameSettings *a, const GameSettings *b, char *first, size_t n) {
    static char ta[64 << 10], tb[64 << 10];
    settings_format(a, ta, sizeof ta);
    settings_format(b, tb, sizeof tb);
    int diff = 0;
    first[0] = 0;
    char *sa = ta, *sb = tb;
    while (*sa || *sb) {
        char *ea = strchr(sa, '\n'), *eb = strchr(sb, '\n');
        size_t la = ea ? (size_t)(ea - sa) : strlen(sa), lb = eb ? (size_t)(eb - sb) : strlen(sb);
        if (la != lb || memcmp(sa, sb, la)) {
            if (!diff++) snprintf(first, n, "%.*s / %.*s", (int)la, sa, (int)lb, sb);
        }
        sa += la + (ea ? 1 : 0);
        sb += lb + (eb ? 1 : 0);
    }
    return diff;
}

static void test_broken_last_line_keeps_everything_above(void **state) {
    (void)state;
    /* The last line's value turned into an unclosed flow list: libyaml stops there. */
    memcpy(g_bad, g_full, g_full_len);
    size_t len = g_full_len;
    while (len > 0 && g_bad[len - 1] == '\n') len--;
    while (len > 0 && g_bad[len - 1] != ' ') len--;
    len += (size_t)sprintf(g_bad + len, "[6, \"\n");
    GameSettings want, got;
    full_settings(&want);
    want.world.live.speed_reach_min = 4;   /* the broken value only: its default */
    settings_default(&got);
    char warn[320], first[400];
    settings_parse(&got, g_bad, len, "settings.yaml", warn, sizeof warn);
    printf("  %s\n", warn);
    assert_non_null(strstr(warn, "damaged"));
    assert_null(strchr(warn, '\n'));
    int lost = lines_differing(&got, &want, first, sizeof first);
    if (lost) fail_msg("%d values lost above the damage (first: %s)", lost, first);
}

static void test_broken_middle_line_keeps_both_sides(void **state) {
    (void)state;
    /* A line in the display section made into YAML nonsense: the lines after it still read. */
    const char *at = strstr(g_full, "  fov: ");
    assert_non_null(at);
    size_t head = (size_t)(at - g_full);
    memcpy(g_bad, g_full, head);
    size_t len = head + (size_t)sprintf(g_bad + head, "  fov: {[: \"95\n");
    const char *eol = strchr(at, '\n');
    memcpy(g_bad + len, eol + 1, g_full_len - (size_t)(eol + 1 - g_full));
    len += g_full_len - (size_t)(eol + 1 - g_full);
    GameSettings want, got;
    full_settings(&want);
    want.render.live.fov_y_deg = 70.0f;
    settings_default(&got);
    char warn[320], first[400];
    settings_parse(&got, g_bad, len, "settings.yaml", warn, sizeof warn);
    printf("  %s\n", warn);
    int lost = lines_differing(&got, &want, first, sizeof first);
    if (lost) fail_msg("%d values lost around the damage (first: %s)", lost, first);
}

/* Damaged, loaded, saved: the damaged bytes sit beside the new file, which reads cleanly. */
static void load_and_save(const char *text, size_t len, bool *was_damaged) {
    char path[400];
    snprintf(path, sizeof path, "%s/%s", g_dir, SETTINGS_DAMAGED_FILE);
    unlink(path);
    write_file(SETTINGS_FILE, text, len);
    GameSettings s;
    settings_default(&s);
    bool found, damaged;
    char warn[320];
    settings_load_file(&s, g_dir, &found, &damaged, warn, sizeof warn);
    assert_true(found);
    assert_null(strchr(warn, '\n'));
    assert_true(damaged == (warn[0] != 0));
    /* Every value in range, whatever the damage. */
    for (size_t i = 0; i < setting_count(); i++) {
        const SettingDesc *d = setting_at(i);
        double v = setting_get(&s, d);
        if (d->type != SETTING_BINDING && !((v >= d->min && v <= d->max) || ((d->flags & SETTING_F_OFF) && v == d->off)))
            fail_msg("%s.%s loaded as %g", d->section, d->key, v);
    }
    *was_damaged = damaged;
    SkyError err = {0};
    assert_true(settings_save_keeping(&s, g_dir, &damaged, &err));
    assert_false(damaged);
    size_t kept = read_back(SETTINGS_DAMAGED_FILE, g_back, sizeof g_back);
    if (*was_damaged) {
        assert_int_equal(kept, len);
        assert_memory_equal(g_back, text, len);
    } else {
        assert_true(kept == (size_t)-1);   /* a clean file is not copied */
    }
    GameSettings again;
    settings_default(&again);
    settings_load_file(&again, g_dir, &found, &damaged, warn, sizeof warn);
    if (damaged) fail_msg("the new file does not read cleanly: %s", warn);
}

static void test_damaged_file_kept_beside_before_the_first_save(void **state) {
    (void)state;
    bool damaged;
    const char *cut = strstr(g_full, "[\"key S+\"");
    assert_non_null(cut);
    load_and_save(g_full, (size_t)(cut - g_full) + 5, &damaged);   /* cut mid-list */
    assert_true(damaged);
    load_and_save("display:\n  lines: 9000\n", 23, &damaged);       /* a bad value is a damage too */
    assert_true(damaged);
    load_and_save(g_full, g_full_len, &damaged);                     /* a clean file: nothing beside */
    assert_false(damaged);
}

/* A line of 60000 opening brackets: libyaml's loader (quadratic in the nesting) would take
 * minutes and the line reader read the line again. The event parser stops at the 33rd level, the
 * file is refused in one line, the settings stay the defaults and the file is kept beside. */
static void test_deep_nesting_refused_at_the_limit(void **state) {
    (void)state;
    static char deep[60003];
    memcpy(deep, "a: ", 3);
    memset(deep + 3, '[', sizeof deep - 3);
    size_t line, col, events = settings_depth_check(deep, sizeof deep, &line, &col);
    printf("  %zu events read, refused at %zu:%zu\n", events, line, col);
    assert_true(events < 40);   /* stream, document, mapping, key, then one event a level */
    assert_int_equal(line, 1);
    assert_true(col > 30 && col < 40);
    GameSettings got, want;
    settings_default(&got);
    settings_default(&want);
    char warn[320], first[400];
    settings_parse(&got, deep, sizeof deep, "settings.yaml", warn, sizeof warn);
    printf("  %s\n", warn);
    assert_non_null(strstr(warn, "nested more than 32 levels deep"));
    assert_int_equal(lines_differing(&got, &want, first, sizeof first), 0);
    bool damaged;
    load_and_save(deep, sizeof deep, &damaged);
    assert_true(damaged);
    /* the settings' own nesting (a binding's list in a section) is within the limit */
    settings_depth_check(g_full, g_full_len, &line, &col);
    assert_int_equal(line, 0);
}

/* xorshift64*: the corruption is the same on every run and machine. */
static uint64_t g_rng = 0x5eed5e77196a11ull;
static uint32_t rnd(uint32_t n) {
    g_rng ^= g_rng >> 12;
    g_rng ^= g_rng << 25;
    g_rng ^= g_rng >> 27;
    return (uint32_t)((g_rng * 0x2545f4914f6cdd1dull) >> 32) % n;
}

static size_t corrupt(char *buf, size_t len) {
    static const char junk[] = "\0\t\n\r:#[]{}\"'-? &*!|>%@`\x7f\xff";
    int edits = 1 + (int)rnd(4);
    for (int e = 0; e < edits && len > 0; e++) {
        size_t at = rnd((uint32_t)len);
        switch (rnd(5)) {
        case 0: buf[at] = junk[rnd(sizeof junk - 1)]; break;                        /* one byte */
        case 1: buf[at] = (char)rnd(256); break;
        case 2: len = at; break;                                                    /* truncated */
        case 3: {                                                                   /* a span gone */
            size_t n = 1 + rnd(64);
            if (at + n > len) n = len - at;
            memmove(buf + at, buf + at + n, len - at - n);
            len -= n;
            break;
        }
        default: {                                                                  /* junk inserted */
            size_t n = 1 + rnd(16);
            memmove(buf + at + n, buf + at, len - at);
            for (size_t i = 0; i < n; i++) buf[at + i] = junk[rnd(sizeof junk - 1)];
            len += n;
        }
        }
    }
    return len;
}

static void test_random_corruptions(void **state) {
    (void)state;
    int damaged_n = 0;
    for (int i = 0; i < 200; i++) {
        memcpy(g_bad, g_full, g_full_len);
        size_t len = corrupt(g_bad, g_full_len);
        bool damaged;
        load_and_save(g_bad, len, &damaged);
        damaged_n += damaged;
    }
    printf("  200 corrupted copies: %d read as damaged and kept beside, none crashed\n", damaged_n);
    assert_true(damaged_n > 150);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_broken_last_line_keeps_everything_above),
        cmocka_unit_test(test_broken_middle_line_keeps_both_sides),
        cmocka_unit_test(test_damaged_file_kept_beside_before_the_first_save),
        cmocka_unit_test(test_deep_nesting_refused_at_the_limit),
        cmocka_unit_test(test_random_corruptions),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
