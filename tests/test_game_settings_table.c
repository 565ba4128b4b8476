/* Tests for the game settings table (src/game/setting_table.c) and everything that reads it:
 * every row round-trips through the settings file; every row with a flag is in --help, parses at
 * both ends of its range and rejects one past each end in one line; every row with a page is on
 * that page and steps within its range; a row and a page registered here reach the file, the
 * flags, --help and the menu with no other file changing; float rows (game and world) step on
 * their decimal grid and the file keeps what the menu shows. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game/game.h"
#include "support/test_args.h"

static char g_text[64 << 10], g_out[128 << 10], g_err[8192];

/* The test-only row: a float kept in the settings' run-time storage, on a page of its own. */
#define TEST_WOBBLE_AT (offsetof(GameSettings, ext) + 8)
static const SettingDesc k_wobble = {
    .section = "testing", .key = "wobble", .flag = "--wobble", .page = "testing", .label = "Wobble", .unit = "Hz",
    .type = SETTING_FLOAT, .offset = TEST_WOBBLE_AT, .min = 0.5, .max = 12, .step = 0.25, .def = 2.5,
    .help = "a test-only row: how fast nothing wobbles", .changes = MENU_CHANGED_DISPLAY};
/* An enum whose names are known at run time only (as the audio devices are). */
#define TEST_DEVICE_AT (offsetof(GameSettings, ext) + 16)
static const char *g_devices[4];
static int g_device_count;
static int test_devices(const char *const **names) {
    *names = g_devices;
    return g_device_count;
}
static const SettingDesc k_device = {
    .section = "testing", .key = "device", .flag = "--device", .page = "testing", .label = "Device",
    .type = SETTING_ENUM, .offset = TEST_DEVICE_AT, .max = 3, .step = 1, .def = 0, .names_fn = test_devices,
    .help = "a test-only row: names filled at run time", .changes = MENU_CHANGED_DISPLAY};
static const MenuPageDesc k_test_page = {"testing", "Testing", NULL};
static const MenuActionDesc k_test_open = {.page = "pause", .label = "Testing", .open = "testing"};

static int setup(void **state) {
    (void)state;
    g_devices[0] = "default";
    g_devices[1] = "hdmi";
    g_devices[2] = "usb-headset";
    g_device_count = 3;
    /* The Sound page's output devices as SDL would list them on a Pi (HDMI and the jack), so the
     * device row has a value besides "default" to round-trip and step through. */
    static const char pi_outputs[2][128] = {"vc4-hdmi", "bcm2835 Headphones"};
    game_audio_devices_set(pi_outputs, 2);
    if (!setting_register(&k_wobble) || !setting_register(&k_device)) return -1;
    if (setting_register(&k_wobble)) return -1;   /* its key and flag are taken now */
    if (menu_page_register(&k_test_page) < 0 || !menu_action_register(&k_test_open)) return -1;
    return 0;
}

/* Runs game_parse_args with stdout and stderr captured; its result. */
static bool parse(const char *const *args, int n, GameOptions *o, bool *exit_now) {
    TestArgs a = test_args_n(args, n);
    fflush(stdout);
    fflush(stderr);
    FILE *out = tmpfile(), *err = tmpfile();
    int so = dup(1), se = dup(2);
    dup2(fileno(out), 1);
    dup2(fileno(err), 2);
    bool ok = game_parse_args(a.argc, a.argv, o, exit_now);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    rewind(out);
    rewind(err);
    g_out[fread(g_out, 1, sizeof g_out - 1, out)] = 0;
    g_err[fread(g_err, 1, sizeof g_err - 1, err)] = 0;
    fclose(out);
    fclose(err);
    return ok;
}

static int lines_in(const char *s) {
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* A value other than the default, inside the row's range. */
static void change_row(GameSettings *s, const SettingDesc *d) {
    if (d->type == SETTING_BINDING) input_rebind(&s->input, GA_MAP, BIND_KEY, PKEY_B, 1);
    else if (d->type == SETTING_BOOL) setting_set(s, d, d->def != 0.0 ? 0.0 : 1.0);
    else setting_set(s, d, d->def == d->max ? d->min : d->max);
}

static void test_every_row_round_trips(void **state) {
    (void)state;
    for (size_t i = 0; i < setting_count(); i++) {
        const SettingDesc *d = setting_at(i);
        GameSettings a, b, def;
        settings_default(&a);
        settings_default(&def);
        change_row(&a, d);
        size_t len = settings_format(&a, g_text, sizeof g_text);
        assert_true(len < sizeof g_text);
        settings_default(&b);
        char warn[320];
        settings_parse(&b, g_text, len, "settings.yaml", warn, sizeof warn);
        if (warn[0]) fail_msg("%s.%s: %s", d->section, d->key, warn);
        if (d->type == SETTING_BINDING) {
            assert_int_equal(b.input.bind_count, a.input.bind_count);   /* the same bindings: the text below */
        } else if (setting_get(&b, d) != setting_get(&a, d) || setting_get(&b, d) == setting_get(&def, d)) {
            fail_msg("%s.%s: wrote %g, read %g", d->section, d->key, setting_get(&a, d), setting_get(&b, d));
        }
        static char again[64 << 10];
        settings_format(&b, again, sizeof again);
        assert_string_equal(again, g_text);   /* and nothing else moved */
    }
    printf("  %zu rows round-trip through the file\n", setting_count());
}

/* Applies one flag through the command line and boot's settings step (no file). */
static bool flag_value(const SettingDesc *d, const char *v, double *out) {
    GameOptions o;
    bool exit_now;
    const char *args[3] = {"--headless", d->flag, v};
    if (!parse(args, v ? 3 : 2, &o, &exit_now)) return false;
    GameSettings s;
    game_settings_boot(&o, &s);
    *out = setting_get(&s, d);
    return true;
}

static void expect_rejected(const SettingDesc *d, const char *v) {
    double got;
    if (flag_value(d, v, &got)) fail_msg("%s %s was accepted", d->flag, v);
    if (lines_in(g_err) != 1 || !strstr(g_err, d->flag)) fail_msg("%s %s: not one line naming it: %s", d->flag, v, g_err);
}

static void test_every_flag(void **state) {
    (void)state;
    GameOptions o;
    bool exit_now;
    const char *help[] = {"--help"};
    assert_true(parse(help, 1, &o, &exit_now) && exit_now);
    static char helptext[sizeof g_out];
    memcpy(helptext, g_out, sizeof g_out);
    int flags = 0;
    for (size_t i = 0; i < setting_count(); i++) {
        const SettingDesc *d = setting_at(i);
        if (!d->flag) continue;
        flags++;
        char key[64], v[64];
        snprintf(key, sizeof key, "%s.%s", d->section, d->key);
        if (!strstr(helptext, d->flag) || !strstr(helptext, key)) fail_msg("--help does not list %s (%s)", d->flag, key);
        double got;
        if (d->type == SETTING_BOOL) {   /* a switch: --no-x off, any other on */
            assert_true(flag_value(d, NULL, &got));
            assert_true(got == (strncmp(d->flag, "--no-", 5) ? 1.0 : 0.0));
            continue;
        }
        if (d->type == SETTING_ENUM) {
            const char *const *names;
            int n = setting_names(d, &names);
            for (int k = 0; k < n; k++) {
                assert_true(flag_value(d, names[k], &got));
                assert_true(got == k);
            }
            expect_rejected(d, "no-such-name");
            continue;
        }
        double one = d->type == SETTING_INT ? 1.0 : d->step;
        const double ends[2] = {d->min, d->max}, past[2] = {d->min - one, d->max + one};
        for (int e = 0; e < 2; e++) {
            snprintf(v, sizeof v, "%.17g", ends[e]);
            if (!flag_value(d, v, &got) || fabs(got - ends[e]) > 1e-6 * fabs(ends[e]))
                fail_msg("%s %s: %s", d->flag, v, g_err);
            snprintf(v, sizeof v, "%.17g", past[e]);
            if (!((d->flags & SETTING_F_OFF) && past[e] == d->off)) expect_rejected(d, v);
        }
        expect_rejected(d, "banana");
    }
    printf("  %d flags: in --help, both ends parse, one past each end is refused in one line (e.g. %s)", flags, g_err);
    assert_true(flags >= 13);
}

/* --lang: an unknown language is one line naming the ones there are; a known one is chosen, kept
 * by the settings file and set at boot; without a choice an interactive start follows the
 * locale (LC_ALL, LC_MESSAGES, LANG) and keeps nothing, a repeatable run stays English. */
static void test_language_flag_file_and_locale(void **state) {
    (void)state;
    GameOptions o;
    bool exit_now;
    const char *bad[] = {"--lang", "jp"};
    assert_false(parse(bad, 2, &o, &exit_now));
    printf("  --lang jp: %s", g_err);
    assert_int_equal(lines_in(g_err), 1);
    assert_non_null(strstr(g_err, "--lang"));
    assert_non_null(strstr(g_err, "en or ja"));
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/skyisles_lang_XXXXXX");
    assert_non_null(mkdtemp(dir));
    const char *ja[] = {"--lang", "ja", "--config", dir};
    assert_true(parse(ja, 4, &o, &exit_now) && !exit_now);
    GameSettings s, back;
    unsetenv("LC_ALL");
    unsetenv("LC_MESSAGES");
    setenv("LANG", "en_US.UTF-8", 1);
    game_settings_boot(&o, &s);
    assert_int_equal(s.language, LANG_JA);
    assert_true(s.language_chosen);
    assert_int_equal(text_language(), LANG_JA);
    SkyError err = {0};
    assert_true(settings_save(&s, dir, &err));
    settings_default(&back);
    bool found;
    char warn[320];
    settings_load(&back, dir, &found, warn, sizeof warn);
    assert_true(found && back.language == LANG_JA && back.language_chosen);
    /* No choice made (a fresh folder): the locale decides, and nothing is kept. */
    char fresh[64];
    snprintf(fresh, sizeof fresh, "/tmp/skyisles_lang_XXXXXX");
    assert_non_null(mkdtemp(fresh));
    const char *plain[] = {"--config", fresh};
    assert_true(parse(plain, 2, &o, &exit_now));
    setenv("LANG", "ja_JP.UTF-8", 1);
    game_settings_boot(&o, &s);
    assert_true(s.language == LANG_JA && !s.language_chosen);
    assert_true(settings_save(&s, fresh, &err));
    settings_default(&back);
    settings_load(&back, fresh, &found, warn, sizeof warn);
    assert_false(back.language_chosen);
    setenv("LC_ALL", "C", 1);   /* LC_ALL over LANG */
    game_settings_boot(&o, &s);
    assert_int_equal(s.language, LANG_EN);
    const char *shot[] = {"--headless"};   /* repeatable: English whatever the locale */
    unsetenv("LC_ALL");
    assert_true(parse(shot, 1, &o, &exit_now));
    game_settings_boot(&o, &s);
    assert_int_equal(s.language, LANG_EN);
    unsetenv("LANG");
    text_set_language(LANG_EN);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", dir, fresh);
    assert_int_equal(system(cmd), 0);
}

static int find_item(const Menu *m, const SettingDesc *d) {
    for (int i = 0; i < m->count; i++)
        if (m->items[i].row == d) return i;
    return -1;
}

static void test_every_paged_row_is_on_its_page_and_steps_in_range(void **state) {
    (void)state;
    int paged = 0;
    for (size_t i = 0; i < setting_count(); i++) {
        const SettingDesc *d = setting_at(i);
        if (!d->page) continue;
        paged++;
        GameSettings s;
        settings_default(&s);
        Menu m;
        int page = menu_page_find(d->page);
        assert_true(page >= 0);
        menu_open(&m, &s, NULL, page);
        int k = find_item(&m, d);
        if (k < 0) fail_msg("%s.%s is not on the %s page", d->section, d->key, d->page);
        MenuItem *it = &m.items[k];
        if (d->type == SETTING_BINDING) continue;   /* one item per action; captured, not stepped */
        if (d->label) assert_string_equal(it->label, d->label);
        for (int dir = 1; dir >= -1; dir -= 2)
            for (int n = 0; n < 400; n++) {
                bool moved = menu_step(&m, it, dir, n % 7 == 3);
                double v = setting_get(&s, d);
                bool in = (v >= d->min && v <= d->max) || ((d->flags & SETTING_F_OFF) && v == d->off);
                if (!in) fail_msg("%s.%s stepped to %g, outside %g..%g", d->section, d->key, v, d->min, d->max);
                if (!moved && d->type != SETTING_BOOL) break;
            }
    }
    /* And every world row on the panel (the seed aside: its range is every 64-bit number). */
    GameSettings s;
    settings_default(&s);
    Menu m;
    menu_open(&m, &s, NULL, MENU_PAGE_PANEL);
    int world = 0;
    for (int i = 0; i < m.count; i++) {
        const WorldParamDesc *d = m.items[i].param;
        if (!d || d->type == WORLD_PT_U64) continue;
        world++;
        for (int dir = 1; dir >= -1; dir -= 2)
            for (int n = 0; n < 2000; n++) {
                bool moved = menu_step(&m, &m.items[i], dir, n % 5 == 2);
                double v = world_param_get(&s.world, d);
                /* A float row holds the float nearest its ends (0.8f is a hair above 0.8). */
                double lo = d->type == WORLD_PT_F32 ? (double)(float)d->min : d->min;
                double hi = d->type == WORLD_PT_F32 ? (double)(float)d->max : d->max;
                if (!(v >= lo && v <= hi)) fail_msg("%s stepped to %g, outside %g..%g", d->name, v, d->min, d->max);
                if (!moved && d->type != WORLD_PT_BOOL) break;
            }
    }
    printf("  %d rows on their pages and %d world rows on the panel, stepped end to end within range\n", paged, world);
}

/* The row registered in setup, everywhere: file, flag, --help, its page (opened from pause). */
static void test_registered_row_everywhere(void **state) {
    (void)state;
    GameSettings s;
    settings_default(&s);
    float *wobble = (float *)((char *)&s + TEST_WOBBLE_AT);
    assert_true(*wobble == 2.5f);
    *wobble = 7.75f;
    size_t len = settings_format(&s, g_text, sizeof g_text);
    assert_non_null(strstr(g_text, "\ntesting:\n  wobble: 7.75"));
    GameSettings back;
    settings_default(&back);
    char warn[320];
    settings_parse(&back, g_text, len, "settings.yaml", warn, sizeof warn);
    assert_string_equal(warn, "");
    assert_true(*(float *)((char *)&back + TEST_WOBBLE_AT) == 7.75f);
    GameOptions o;
    bool exit_now;
    const char *help[] = {"--help"};
    assert_true(parse(help, 1, &o, &exit_now));
    assert_non_null(strstr(g_out, "--wobble"));
    assert_non_null(strstr(g_out, "testing.wobble"));
    double got;
    assert_true(flag_value(&k_wobble, "11.5", &got) && got == 11.5);
    expect_rejected(&k_wobble, "12.25");
    Menu m;
    menu_open(&m, &s, NULL, MENU_PAGE_PAUSE);
    int open = -1;
    for (int i = 0; i < m.count; i++)
        if (!strcmp(m.items[i].label, "Testing")) open = i;
    assert_true(open >= 0 && open < m.count - 1);   /* Quit stays last */
    assert_string_equal(m.items[m.count - 1].label, "Quit");
    menu_open(&m, &s, NULL, menu_page_find("testing"));
    assert_string_equal(menu_title(&m), "Testing");
    int k = find_item(&m, setting_find("testing", "wobble"));
    assert_true(k >= 0);
    char v[64];
    menu_item_value(&m, &m.items[k], v, sizeof v);
    assert_string_equal(v, "7.75 Hz");
    /* The run-time enum: its names in the file, the flag and the menu. */
    const SettingDesc *dev = setting_find("testing", "device");
    assert_non_null(dev);
    assert_true(flag_value(dev, "usb-headset", &got) && got == 2);
    expect_rejected(dev, "speakers");
    setting_set(&s, dev, 1);
    settings_format(&s, g_text, sizeof g_text);
    assert_non_null(strstr(g_text, "\n  device: hdmi"));
    k = find_item(&m, dev);
    assert_true(k >= 0);
    assert_true(menu_step(&m, &m.items[k], 1, false));
    menu_item_value(&m, &m.items[k], v, sizeof v);
    assert_string_equal(v, "usb-headset");
    assert_false(menu_step(&m, &m.items[k], 1, false));   /* the last name */
}

/* N steps up then 2N down from the default: the menu shows default + k * step at the step's
 * precision, and the file holds exactly that number. */
static void check_saved(const char *key, const char *want, int decimals) {
    char needle[80];
    snprintf(needle, sizeof needle, "\n  %s: ", key);
    const char *at = strstr(g_text, needle);
    if (!at) fail_msg("%s not in the file", key);
    at += strlen(needle);
    char saved[40];
    sscanf(at, "%39s", saved);
    char again[48];
    snprintf(again, sizeof again, "%.*f", decimals, strtod(saved, NULL));
    const char *dot = strchr(saved, '.');
    if (strcmp(again, want) || (dot && (int)strlen(dot + 1) > decimals))
        fail_msg("%s: the menu shows %s, the file keeps %s", key, want, saved);
}

static void step_and_check(Menu *m, MenuItem *it, const char *key, double def, double step, double lo, double hi,
                           int decimals, const char *unit) {
    int up = (int)floor((hi - def) / step + 1e-9), down = (int)floor((def - lo) / step + 1e-9);
    int n = up < 15 ? up : 15;
    int k = 0;
    for (int pass = 0; pass < 2; pass++) {
        int dir = pass == 0 ? 1 : -1, count = pass == 0 ? n : n + (down < n ? down : n);
        for (int i = 0; i < count; i++) {
            menu_step(m, it, dir, false);
            k += dir;
            char want[64], shown[64];
            snprintf(want, sizeof want, "%.*f%s%s", decimals, def + k * step, unit ? " " : "", unit ? unit : "");
            menu_item_value(m, it, shown, sizeof shown);
            if (strcmp(shown, want)) fail_msg("%s after %d steps: shows %s, want %s", key, k, shown, want);
            settings_format(m->set, g_text, sizeof g_text);
            snprintf(want, sizeof want, "%.*f", decimals, def + k * step);
            check_saved(key, want, decimals);
        }
    }
}

static void test_float_rows_step_on_their_grid(void **state) {
    (void)state;
    int rows = 0;
    for (size_t i = 0; i < setting_count(); i++) {
        const SettingDesc *d = setting_at(i);
        if (d->type != SETTING_FLOAT || !d->page) continue;
        GameSettings s;
        settings_default(&s);
        Menu m;
        menu_open(&m, &s, NULL, menu_page_find(d->page));
        int k = find_item(&m, d);
        assert_true(k >= 0);
        step_and_check(&m, &m.items[k], d->key, d->def, d->step, d->min, d->max,
                       setting_decimals(d->step, d->def, d->min, d->max), d->unit);
        rows++;
    }
    GameSettings s;
    settings_default(&s);
    Menu m;
    menu_open(&m, &s, NULL, MENU_PAGE_PANEL);
    for (int i = 0; i < m.count; i++) {
        const WorldParamDesc *d = m.items[i].param;
        if (!d || (d->type != WORLD_PT_F32 && d->type != WORLD_PT_F64)) continue;
        settings_default(&s);
        step_and_check(&m, &m.items[i], d->name, d->def, menu_world_step(d), d->min, d->max, menu_world_decimals(d),
                       d->unit);
        rows++;
    }
    printf("  %d float rows (game and world) step and save on their decimal grid\n", rows);
    /* Fifteen steps up from 35 is a round number, in the menu and the file. */
    settings_default(&s);
    menu_open(&m, &s, NULL, MENU_PAGE_PANEL);
    for (int i = 0; i < m.count; i++)
        if (m.items[i].param && !strcmp(m.items[i].param->name, "n3_amplitude")) {
            for (int k = 0; k < 15; k++) menu_step(&m, &m.items[i], 1, false);
            char v[64];
            menu_item_value(&m, &m.items[i], v, sizeof v);
            printf("  n3_amplitude 35 + 15 steps: %s (%s)\n", v, m.items[i].label);
            assert_string_equal(v, "42.5 blocks");
            assert_true(s.world.gen.n3_amplitude == 42.5f);
        }
}

/* Every panel row speaks to players: a label that is not the file key, and a help line. */
static void test_panel_rows_have_words(void **state) {
    (void)state;
    GameSettings s;
    settings_default(&s);
    Menu m;
    menu_open(&m, &s, NULL, MENU_PAGE_PANEL);
    for (int i = 0; i < m.count; i++) {
        char help[200];
        menu_item_help(&m, &m.items[i], help, sizeof help);
        if (!help[0]) fail_msg("'%s' has no help line", m.items[i].label);
        if (m.items[i].param && !strcmp(m.items[i].label, m.items[i].param->name))
            fail_msg("'%s' shows the file key", m.items[i].label);
    }
    /* The view radius beyond what the running world holds: both, and when it takes effect. */
    WorldParams held = s.world;
    held.live.view_radius = 16;
    s.world.live.view_radius = 20;
    menu_open(&m, &s, &held, MENU_PAGE_PANEL);
    for (int i = 0; i < m.count; i++)
        if (m.items[i].param && !strcmp(m.items[i].param->name, "view_radius")) {
            char v[64], help[200];
            menu_item_value(&m, &m.items[i], v, sizeof v);
            menu_item_help(&m, &m.items[i], help, sizeof help);
            printf("  %s: %s -- %s\n", m.items[i].label, v, help);
            assert_string_equal(v, "20 chunks (16 now)");
            assert_non_null(strstr(help, "next start"));
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_row_round_trips),
        cmocka_unit_test(test_every_flag),
        cmocka_unit_test(test_language_flag_file_and_locale),
        cmocka_unit_test(test_every_paged_row_is_on_its_page_and_steps_in_range),
        cmocka_unit_test(test_registered_row_everywhere),
        cmocka_unit_test(test_float_rows_step_on_their_grid),
        cmocka_unit_test(test_panel_rows_have_words),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
