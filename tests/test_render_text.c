/* Tests for the game's words as drawn, in English and Japanese, with the real game booted
 * offscreen. Coverage: every row of the text table in every language, and every codex name (each
 * location type, variant, ordinal and the serial pattern) in both, has a glyph for each character
 * (a failure names the row or the name and the character). Fit: every menu page (each row
 * selected in turn, so each help line is drawn), the title, the flight HUD with every line it
 * can show, the map, the crash screen and the course screens, in both languages, at 480x320,
 * 640x480, 720x720, 1280x720 and 1920x1080 with each HUD size: every glyph as drawn (its quad and its
 * shadow's) inside the screen, and no two texts with a drawn pixel in common. */
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
#include "game/power.h"
#include "support_gl/game_gl.h"

#define ROW_NAME(id, en) #id,
static const char *const k_row_names[TEXT_COUNT] = {TEXT_ROWS(ROW_NAME)};

static Game g_game;
static GameGlRun g_run;
static uint16_t g_label[1280 * 720];   /* which text drew each canvas pixel (0: none) */

static int fake_battery(bool *discharging) {
    *discharging = true;
    return 10;   /* the warning: the longest battery line */
}

static int setup(void **state) {
    (void)state;
    return game_gl_boot(&g_game, &g_run, "text", "640x480", GAME_GL_SMALL_WORLD) ? 0 : -1;
}

/* The language as the Display page's row sets it (the map's names follow). */
static void set_language(Lang l) {
    const SettingDesc *d = setting_find("display", "language");
    assert_non_null(d);
    setting_set(&g_game.cfg.set, d, (double)l);
    d->on_change(&g_game.cfg.set);
    game_apply_settings(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs, d->changes);
    assert_int_equal(text_language(), l);
}

static int teardown(void **state) {
    (void)state;
    power_set_battery_query(NULL);
    set_language(LANG_EN);
    return game_gl_end(&g_game, &g_run);
}

static void expect_glyphs(const char *what, const char *lang, const char *text) {
    uint32_t cp = render_hud_text_missing(text);
    if (cp) fail_msg("%s (%s) '%s': no glyph for U+%04X", what, lang, text, cp);
}

static void test_every_string_has_its_glyphs(void **state) {
    (void)state;
    for (int l = 0; l < LANG_COUNT; l++)
        for (int i = 0; i < TEXT_COUNT; i++) expect_glyphs(k_row_names[i], text_lang_code((Lang)l), text_get_lang((TextId)i, (Lang)l));
    /* The check finds what it is for: a character outside the font is named. */
    assert_int_equal(render_hud_text_missing("ok \xf0\x9f\x98\x80"), 0x1f600);
    assert_int_equal(render_hud_text_missing("\xe5\x9c\xb0\xe5\x9b\xb3 map"), 0);
}

static void test_every_codex_name_has_its_glyphs(void **state) {
    (void)state;
    const IslandCodex *cx = g_game.svc.home.codex;
    char key[160], what[200];
    int names = 0;
    for (int l = 0; l < LANG_COUNT; l++) {
        const char *lang = text_lang_code((Lang)l);
        for (uint32_t t = 0; t < cx->n_types; t++) {
            const IslandType *ty = &cx->types[t];
            for (int v = -1; v < (int)ty->n_variants; v++) {
                if (v < 0) snprintf(key, sizeof key, "type.%s", ty->id);
                else snprintf(key, sizeof key, "variant.%s.%s", ty->id, cx->variants[ty->first_variant + (uint32_t)v].id);
                const char *name = island_codex_text(cx, lang, key);
                if (!name) fail_msg("codex name %s (%s) is missing", key, lang);
                snprintf(what, sizeof what, "codex name %s", key);
                expect_glyphs(what, lang, name);
                names++;
            }
        }
        for (int k = 0; k <= 12; k++) {
            if (k == 0) snprintf(key, sizeof key, "serial_pattern");
            else snprintf(key, sizeof key, "ordinal.%d", k);
            const char *name = island_codex_text(cx, lang, key);
            if (!name) fail_msg("codex text %s (%s) is missing", key, lang);
            expect_glyphs(key, lang, name);
        }
        /* The home island's names as the game builds them (type, variant or serial). */
        const Island *isl = g_game.svc.home.island;
        for (uint32_t s = 0; s < isl->n_sites; s++) {
            char name[96];
            island_site_display_name(isl, cx, s, lang, name, sizeof name);
            expect_glyphs("home island site", lang, name);
        }
    }
    printf("  %d type and variant names in %d languages\n", names / LANG_COUNT, LANG_COUNT);
    assert_true(names >= 2 * 40);
}

typedef struct Config {
    int w, h, hud_size;
    Lang lang;
    const char *screen;
    int sel;
} Config;

/* What a text's pixels are checked against: the canvas, the texts before it. */
typedef struct Check {
    const Config *c;
    int cw, ch;
    uint32_t text;
} Check;

static void put_pixel(int x, int y, void *ctx) {
    const Check *k = ctx;
    const Config *c = k->c;
    if (x < 0 || y < 0 || x >= k->cw || y >= k->ch)
        fail_msg("%s (%s, row %d) at %dx%d, HUD size %d: text %u draws pixel %d,%d, outside the %dx%d canvas", c->screen,
                 text_lang_code(c->lang), c->sel, c->w, c->h, c->hud_size, k->text, x, y, k->cw, k->ch);
    uint16_t *px = &g_label[(size_t)y * (size_t)k->cw + (size_t)x];
    if (*px && *px != k->text + 1)
        fail_msg("%s (%s, row %d) at %dx%d, HUD size %d: texts %u and %u both draw pixel %d,%d", c->screen,
                 text_lang_code(c->lang), c->sel, c->w, c->h, c->hud_size, *px - 1u, k->text, x, y);
    *px = (uint16_t)(k->text + 1);
}

/* The texts queued now: every pixel they draw inside the canvas, none drawn by two of them. */
static void check_queue(const Config *c) {
    Renderer *r = g_game.svc.render;
    Check k = {c, 0, 0, 0};
    render_hud_canvas(r, c->w, c->h, &k.cw, &k.ch);
    assert_true(k.cw * k.ch <= (int)(sizeof g_label / sizeof g_label[0]));
    memset(g_label, 0, sizeof(uint16_t) * (size_t)k.cw * (size_t)k.ch);
    uint32_t n = render_hud_text_count(r), drawn = 0;
    assert_true(n > 0 && n < 65535);
    for (k.text = 0; k.text < n; k.text++) drawn += render_hud_text_pixels(r, k.text, put_pixel, &k);
    assert_true(drawn > 20 * n);   /* every text is drawn: a few glyphs of tens of pixels */
    RenderHudBounds b = render_hud_bounds(r);
    assert_int_equal(b.dropped, 0);
    render_hud_clear(r);
}

/* Every line the flight HUD can show at once: boost, collision off, the frame rate, the battery's
 * warning, the place below, and the position (pass 0) or a message (pass 1): on a 480x320 screen
 * with the large HUD the two do not fit together (ten lines of text in all). */
static void full_hud(int pass) {
    g_game.cfg.set.show_position = pass == 0;
    g_game.cfg.set.collision = false;
    g_game.ses.flight.boost = 1.0f;
    g_game.ses.play.fps = 60.0f;
    power_set_battery_query(fake_battery);
    if (pass == 1) play_message(&g_game.ses.play, 30.0f, text_get(TEXT_MSG_PAD_NO_MAPPING), "Retro Controller");
}

static int check_screen(Config *c) {
    int checked = 0, passes = strcmp(c->screen, "hud") ? 1 : 2;
    for (int pass = 0; pass < passes; pass++) {
        assert_true(game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, c->screen));
        if (passes == 2) full_hud(pass);
        if (!strcmp(c->screen, "worldmap"))   /* as --show worldmap: the islands of a survey flight */
            game_delivery_stage_seen(&g_game.crs.delivery, g_game.ses.flight.x, g_game.ses.flight.z, 40000.0);
        c->sel = -1;
        overlay_draw(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs);
        check_queue(c);
        checked++;
    }
    g_game.cfg.set.show_position = false;
    g_game.cfg.set.collision = true;
    for (int i = 0; i < PLAY_MESSAGES; i++) g_game.ses.play.msg[i].ttl = 0.0f;   /* the HUD's only */
    return checked;
}

/* Every menu page, each of its rows selected in turn (its help line drawn). */
static int check_pages(Config *c) {
    int checked = 0;
    for (int page = 0; page < menu_page_count(); page++) {
        assert_true(game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, "menu"));
        menu_open(&g_game.ses.menu, &g_game.cfg.set, NULL, page);
        c->screen = menu_page_at(page)->name;
        for (c->sel = 0; c->sel < g_game.ses.menu.count; c->sel++) {
            g_game.ses.menu.sel = c->sel;
            overlay_draw(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs);
            check_queue(c);
            checked++;
        }
    }
    return checked;
}

static const int k_sizes[][2] = {{480, 320}, {640, 480}, {720, 720}, {1280, 720}, {1920, 1080}};
#define N_SIZES (sizeof k_sizes / sizeof k_sizes[0])

static void set_size(int i, int hud_size) {
    g_game.cfg.set.render.live.hud_size = hud_size;
    render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
    g_game.svc.disp_w = k_sizes[i][0];
    g_game.svc.disp_h = k_sizes[i][1];
}

/* The course screens (a ring of the tour, a sky course, the results), each laid once and drawn at
 * every size (laying a course is the slow part). */
static int check_courses(Lang l) {
    static const char *const courses[] = {"tour", "sky", "results"};
    int checked = 0;
    for (size_t k = 0; k < sizeof courses / sizeof courses[0]; k++) {
        assert_true(game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, courses[k]));
        for (size_t i = 0; i < N_SIZES; i++)
            for (int hs = 0; hs < 3; hs++) {
                set_size((int)i, hs);
                Config c = {k_sizes[i][0], k_sizes[i][1], hs, l, courses[k], -1};
                overlay_draw(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs);
                check_queue(&c);
                checked++;
            }
        game_course_end(&g_game.crs, g_game.svc.render);
    }
    return checked;
}

static void test_screens_fit_in_both_languages(void **state) {
    (void)state;
    static const int (*sizes)[2] = k_sizes;
    static const char *const screens[] = {"hud", "title", "map", "worldmap", "crash"};
    int keep_size = g_game.cfg.set.render.live.hud_size, checked = 0;
    for (int l = 0; l < LANG_COUNT; l++) {
        set_language((Lang)l);
        checked += check_courses((Lang)l);
        for (size_t i = 0; i < N_SIZES; i++)
            for (int hs = 0; hs < 3; hs++) {
                set_size((int)i, hs);
                Config c = {sizes[i][0], sizes[i][1], hs, (Lang)l, NULL, -1};
                for (size_t k = 0; k < sizeof screens / sizeof screens[0]; k++) {
                    c.screen = screens[k];
                    checked += check_screen(&c);
                }
                checked += check_pages(&c);
            }
    }
    printf("  %d screens and menu rows checked in %d languages\n", checked, LANG_COUNT);
    power_set_battery_query(NULL);
    set_language(LANG_EN);
    g_game.cfg.set.render.live.hud_size = keep_size;
    render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
    game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, "hud");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_string_has_its_glyphs),
        cmocka_unit_test(test_every_codex_name_has_its_glyphs),
        cmocka_unit_test(test_screens_fit_in_both_languages),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
