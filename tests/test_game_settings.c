/* Tests for the settings file (src/game/settings.c): a round trip keeps every value, a damaged,
 * truncated or garbage file gives one warning line and keeps what it can (never a crash), a bad
 * value keeps the rest, and a save that fails half-way (a full disk) leaves the old file intact. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "game/display.h"
#include "game/settings.h"

static char g_dir[256];
static char g_text[64 << 10];

static int setup(void **state) {
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/skyisles_settings_XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static bool same(const GameSettings *a, const GameSettings *b) {
    char ta[64 << 10], tb[64 << 10];
    settings_format(a, ta, sizeof ta);
    settings_format(b, tb, sizeof tb);
    return strcmp(ta, tb) == 0;
}

static void changed_settings(GameSettings *s) {
    settings_default(s);
    s->input.invert_pitch = true;
    s->input.nintendo = true;
    s->input.dead_zone = 0.23f;
    s->input.curve = 2.2f;
    input_rebind(&s->input, GA_BOOST, BIND_KEY, PKEY_B, 1);
    input_rebind(&s->input, GA_PITCH, BIND_PAD_AXIS, PPAD_RIGHTY, 1);
    s->render.live.lines = 360;
    s->render.live.dither = false;
    s->render.live.fog = false;
    s->render.live.fov_y_deg = 85.0f;
    s->quality = GAME_QUALITY_LOW;
    s->quality_chosen = true;
    s->speed_limit = 2400.0f;
    s->collision = false;
    s->camera = GAME_CAMERA_COCKPIT;
    s->world.gen.seed = 123456789012345ull;
    s->world.gen.base_amplitude = 21.5f;
    s->world.live.view_radius = 7;
    s->world.gen.clouds = false;
}

/* The qualities by name, and auto: the high preset's values as the ceiling the governor lowers
 * from, the default of a fresh settings file, with no settle point yet. */
static void test_quality_names(void **state) {
    (void)state;
    GameQuality q;
    assert_true(game_quality_parse("high", &q) && q == GAME_QUALITY_HIGH);
    assert_true(game_quality_parse("auto", &q) && q == GAME_QUALITY_AUTO);
    assert_false(game_quality_parse("ultra", &q));
    assert_false(game_quality_parse(NULL, &q));
    GameSettings a, h;
    settings_default(&a);
    assert_int_equal(a.quality, GAME_QUALITY_AUTO);
    assert_int_equal(a.auto_level, -1);
    settings_default(&h);
    game_quality_apply(&a, GAME_QUALITY_AUTO);
    game_quality_apply(&h, GAME_QUALITY_HIGH);
    assert_int_equal(a.quality, GAME_QUALITY_AUTO);
    assert_int_equal(a.render.live.lines, h.render.live.lines);
    assert_int_equal(a.world.live.view_radius, h.world.live.view_radius);
    assert_memory_equal(a.world.live.lod_dist, h.world.live.lod_dist, sizeof a.world.live.lod_dist);
}

static void test_round_trip(void **state) {
    (void)state;
    GameSettings a, b;
    changed_settings(&a);
    SkyError err = {0};
    assert_true(settings_save(&a, g_dir, &err));
    settings_default(&b);
    bool found;
    char warn[320];
    settings_load(&b, g_dir, &found, warn, sizeof warn);
    assert_true(found);
    if (warn[0]) fail_msg("unexpected warning: %s", warn);
    assert_true(same(&a, &b));
    assert_true(b.input.invert_pitch && b.input.nintendo && b.input.dead_zone == 0.23f && b.input.curve == 2.2f);
    assert_int_equal(b.render.live.lines, 360);
    assert_true(b.world.gen.seed == 123456789012345ull);
    assert_true(b.world.gen.base_amplitude == 21.5f);
    assert_int_equal(b.world.live.view_radius, 7);
    assert_true(b.speed_limit == 2400.0f && !b.collision && b.camera == GAME_CAMERA_COCKPIT);
    assert_true(b.quality == GAME_QUALITY_LOW && b.quality_chosen);
    /* The rebinds survived: Space no longer boosts, B does. */
    bool space = false, key_b = false;
    for (uint32_t i = 0; i < b.input.bind_count; i++) {
        if (b.input.binds[i].action != GA_BOOST || b.input.binds[i].kind != BIND_KEY) continue;
        if (b.input.binds[i].code == PKEY_SPACE) space = true;
        if (b.input.binds[i].code == PKEY_B) key_b = true;
    }
    assert_false(space);
    assert_true(key_b);
    /* No temporary file left behind. */
    char tmp[400];
    snprintf(tmp, sizeof tmp, "%s/%s.tmp", g_dir, SETTINGS_FILE);
    assert_int_equal(access(tmp, F_OK), -1);
}

static void test_missing_file_is_first_start(void **state) {
    (void)state;
    GameSettings s, d;
    settings_default(&s);
    settings_default(&d);
    bool found = true;
    char warn[320];
    char dir[300];
    snprintf(dir, sizeof dir, "%s/none", g_dir);
    settings_load(&s, dir, &found, warn, sizeof warn);
    assert_false(found);
    assert_string_equal(warn, "");
    assert_true(same(&s, &d));
}

/* Damaged files: every one gives exactly one line, starting "skyisles: settings"; what the
 * damage left readable is kept (the truncated file's values above the cut), the rest defaults. */
static void test_damaged_files(void **state) {
    (void)state;
    GameSettings good;
    changed_settings(&good);
    size_t len = settings_format(&good, g_text, sizeof g_text);
    static const char garbage[] = "\x7f" "ELF\x01\x02\x00\xff\xfe garbage {[ ::: ";
    struct {
        const char *what;
        const char *text;
        size_t len;
    } cases[] = {
        {"truncated mid-flow", g_text, 0},
        {"binary garbage", garbage, sizeof garbage - 1},
        {"empty", "", 0},
        {"a list at the top", "- 1\n- 2\n", 0},
        {"a scalar", "hello", 0},
        {"tab-indented", "display:\n\tlines: 240\n", 0},
        {"unterminated quote", "controls:\n  layout: \"xbox\n", 0},
    };
    for (size_t i = 2; i < sizeof cases / sizeof cases[0]; i++) cases[i].len = strlen(cases[i].text);
    /* Cut inside the bindings' flow list: the YAML does not close. */
    const char *cut = strstr(g_text, "[\"key S+\"");
    assert_non_null(cut);
    cases[0].len = (size_t)(cut - g_text) + 5;
    (void)len;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        GameSettings s, d;
        settings_default(&s);
        settings_default(&d);
        char warn[320];
        settings_parse(&s, cases[i].text, cases[i].len, "settings.yaml", warn, sizeof warn);
        printf("  %s: %s\n", cases[i].what, warn);
        if (!warn[0]) fail_msg("%s: no warning", cases[i].what);
        assert_null(strchr(warn, '\n'));
        assert_true(!strncmp(warn, "skyisles: settings", 18));
        assert_non_null(strstr(warn, "default"));
        if (i == 0) {
            /* Cut in the bindings: every value above the cut is kept, the rest are defaults. */
            assert_true(s.input.invert_pitch && s.input.nintendo && s.input.dead_zone == 0.23f && s.input.curve == 2.2f);
            assert_int_equal(s.render.live.lines, 240);
            assert_true(s.speed_limit == d.speed_limit);
        } else {
            assert_true(same(&s, &d));
        }
    }
}

/* A bad value is named in the warning; the rest of the file still counts. */
static void test_bad_value_keeps_the_rest(void **state) {
    (void)state;
    const char *text = "display:\n  lines: 9000\n  dither: false\nflight:\n  speed_limit: 1500\n  camera: upside\n"
                       "world:\n  view_radius: 5\n  no_such_knob: 3\n";
    GameSettings s;
    settings_default(&s);
    char warn[320];
    settings_parse(&s, text, strlen(text), "settings.yaml", warn, sizeof warn);
    printf("  %s\n", warn);
    assert_non_null(strstr(warn, "settings.yaml:2"));
    assert_non_null(strstr(warn, "display.lines"));
    assert_non_null(strstr(warn, "(and 2 more values not right in the file)"));   /* camera, no_such_knob */
    assert_int_equal(s.render.live.lines, 240);          /* the default for the bad value */
    assert_false(s.render.live.dither);                  /* the rest kept */
    assert_true(s.speed_limit == 1500.0f);
    assert_int_equal(s.camera, GAME_CAMERA_CHASE);
    assert_int_equal(s.world.live.view_radius, 5);
}

static void read_file(const char *path, char *buf, size_t cap, size_t *len) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    *len = fread(buf, 1, cap, f);
    fclose(f);
}

/* A full disk while saving: the write fails part-way (a file size limit makes write() fail as
 * ENOSPC would), the old file is byte-identical and no temporary file is left. Run in a child
 * so the limit does not outlive the test. */
static void test_failed_save_keeps_old_file(void **state) {
    (void)state;
    GameSettings a, b;
    settings_default(&a);
    SkyError err = {0};
    assert_true(settings_save(&a, g_dir, &err));
    char path[400], tmp[420];
    snprintf(path, sizeof path, "%s/%s", g_dir, SETTINGS_FILE);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    static char before[64 << 10], after[64 << 10];
    size_t nb, na;
    read_file(path, before, sizeof before, &nb);
    changed_settings(&b);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {1024, 1024};   /* the new file stops growing at 1 KiB */
        setrlimit(RLIMIT_FSIZE, &rl);
        SkyError e = {0};
        bool ok = settings_save(&b, g_dir, &e);
        printf("  save under a full disk: %s\n", ok ? "succeeded?!" : e.msg);
        fflush(stdout);
        _exit(ok ? 1 : (strstr(e.msg, "previous file is kept") ? 0 : 2));
    }
    int status = 0;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    read_file(path, after, sizeof after, &na);
    assert_int_equal(na, nb);
    assert_memory_equal(before, after, nb);
    assert_int_equal(access(tmp, F_OK), -1);
    /* A folder that cannot be written: one line, nothing changed. */
    if (geteuid() != 0) {
        chmod(g_dir, 0500);
        SkyError e = {0};
        assert_false(settings_save(&b, g_dir, &e));
        assert_null(strchr(e.msg, '\n'));
        chmod(g_dir, 0700);
    }
}

/* The renderer's look rows are display rows of the game's table, in the renderer's order at their
 * group's place (the picture after the quality preset, the HUD size before show_position); their
 * values live in GameSettings.render; a preset's rows say so. */
static void test_render_rows_are_display_rows(void **state) {
    (void)state;
    size_t prev = 0, found = 0;
    for (size_t i = 0; i < render_param_count(); i++) {
        const RenderParamDesc *p = render_param_at(i);
        const SettingDesc *d = setting_find("display", p->name);
        if (p->group == RENDER_GROUP_NONE) {
            assert_null(d);
            continue;
        }
        assert_non_null(d);
        found++;
        size_t at = 0;
        while (setting_at(at) != d) at++;
        assert_true(at > prev);   /* the renderer's order */
        prev = at;
        assert_int_equal(d->offset, offsetof(GameSettings, render) + p->offset);
        assert_string_equal(d->page, "display");
        assert_true(d->changes == MENU_CHANGED_DISPLAY);
        assert_ptr_equal(d->flag, p->flag);
        assert_ptr_equal(d->help, p->help);
        bool preset = !strcmp(p->name, "lines") || !strcmp(p->name, "sky_clouds") || !strcmp(p->name, "clouds");
        assert_int_equal((d->flags & SETTING_F_PRESET) != 0, preset);
        assert_int_equal((d->flags & SETTING_F_OFF) != 0, p->zero_off);
    }
    assert_true(found >= 10);
    const SettingDesc *hud = setting_find("display", "hud_size"), *pos = setting_find("display", "show_position");
    assert_ptr_equal(setting_at(1 + (size_t)(hud - setting_at(0))), pos);
    assert_string_equal(setting_at((size_t)(setting_find("display", "lines") - setting_at(0)) - 1)->key, "quality");
    GameSettings s;
    settings_default(&s);
    assert_int_equal(s.render.live.hud_size, 1);
    char why[200];
    assert_true(setting_parse(&s, hud, "large", why, sizeof why));
    assert_int_equal(s.render.live.hud_size, 2);
}

/* The frame cap's rates are its row's names: 30, 60, uncapped (none). */
static void test_frame_cap_rates_are_the_rows(void **state) {
    (void)state;
    GameSettings s;
    settings_default(&s);
    const SettingDesc *d = setting_find("display", "frame_cap");
    static const int want[] = {30, 60, 0};
    const char *const *names;
    assert_int_equal(setting_names(d, &names), 3);
    for (int i = 0; i < 3; i++) {
        char why[200];
        assert_true(setting_parse(&s, d, names[i], why, sizeof why));
        assert_int_equal(game_frame_cap_fps(&s), want[i]);
    }
    s.frame_cap = 7;   /* out of the row's range: uncapped */
    assert_int_equal(game_frame_cap_fps(&s), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quality_names),
        cmocka_unit_test(test_round_trip),        cmocka_unit_test(test_missing_file_is_first_start),
        cmocka_unit_test(test_damaged_files),     cmocka_unit_test(test_bad_value_keeps_the_rest),
        cmocka_unit_test(test_failed_save_keeps_old_file),
        cmocka_unit_test(test_render_rows_are_display_rows), cmocka_unit_test(test_frame_cap_rates_are_the_rows),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
