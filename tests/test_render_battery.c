/* Tests for the HUD's battery line as drawn, with the real game booted offscreen at 1280x720 and
 * a made-up battery behind power.c's query: at 480x320 and 1280x720 the line at 80% on the
 * battery is drawn, at the normal and the large HUD size (pixels that differ from the HUD without it, top right, in the dim colour),
 * at 10% it is the warning (the warning's red), and where either is drawn the HUD without it
 * has nothing but the scene (it overlaps no other HUD line: the frame rate above it, the flight
 * data at the left). On mains nothing is drawn. The camera looks into the sky, so the frames
 * under the HUD are the same and cheap. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game/game.h"
#include "game/power.h"
#include "support_gl/hud_box.h"
#include "support_gl/game_gl.h"

#define WIN_W 1280
#define WIN_H 720

static Game g_game;
static GameGlRun g_run;
/* The scene alone, the HUD without the battery, with it at 80% and at 10%. */
static uint8_t g_scene[WIN_W * WIN_H * 4], g_plain[WIN_W * WIN_H * 4], g_bat[WIN_W * WIN_H * 4];

static int g_pct;
static bool g_discharging;
static int fake_battery(bool *discharging) {
    *discharging = g_discharging;
    return g_pct;
}

static int setup(void **state) {
    (void)state;
    if (!game_gl_boot(&g_game, &g_run, "battery", "1280x720", GAME_GL_SMALL_WORLD)) return -1;
    game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, "hud");
    return 0;
}

static int teardown(void **state) {
    (void)state;
    power_set_battery_query(NULL);
    return game_gl_end(&g_game, &g_run);
}

/* One frame at w x h with the battery at pct (-1: none), the HUD on or off, read back. */
static void shot(int w, int h, int pct, bool discharging, bool hud, uint8_t *out) {
    g_pct = pct;
    g_discharging = discharging;
    power_set_battery_query(fake_battery);
    game_gl_display(&g_game, w, h);
    assert_true(game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, "hud"));
    g_game.cfg.set.hud = hud;
    g_game.ses.play.fps = 60.0f;   /* the frame-rate line above the battery's, as in flight */
    /* The camera looks up into the sky (no terrain, no aircraft in view): the HUD is the subject,
     * every frame draws the same scene, and the emulated run stays quick. */
    g_game.ses.camera.pitch = 1.3f;
    game_gl_read(&g_game, w, h, out);
    g_game.cfg.set.hud = true;
}

typedef HudBox Box;

static Box line_box(int w, int h, const uint8_t *with, const uint8_t *without) {
    return hud_line_box(w, h, with, without);
}

/* Pixels inside the box where the HUD without the line differs from the scene: other lines. */
static int others_in(int w, const Box *b) { return hud_differing_in(w, b, g_plain, g_scene); }

/* At w x h, the HUD at its normal and its large size (the large one is the tight fit). */
static void check_size(int w, int h) {
    shot(w, h, -1, false, false, g_scene);
    for (int hud_size = 1; hud_size < 3; hud_size++) {
        g_game.cfg.set.render.live.hud_size = hud_size;
        render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
        shot(w, h, -1, false, true, g_plain);
        static const struct { int pct; bool low; } cases[] = {{80, false}, {10, true}};
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            shot(w, h, cases[k].pct, true, true, g_bat);
            Box b = line_box(w, h, g_bat, g_plain);
            int others = b.x1 ? others_in(w, &b) : -1;
            printf("  %dx%d, HUD size %d, %d%%: line at %d,%d..%d,%d, %d pixels (%d red), %d pixels of other lines in "
                   "its box\n", w, h, hud_size, cases[k].pct, b.x0, b.y0, b.x1, b.y1, b.pixels, b.reddish, others);
            /* Drawn: a line of glyphs, about 7 or more glyphs a few display pixels each. */
            assert_true(b.pixels > 60);
            /* Top right: in the right half, the top fifth of the screen. */
            assert_true(b.x0 > w / 2 && b.y1 < h / 5);
            assert_int_equal(others, 0);
            if (cases[k].low) assert_true(b.reddish * 2 > b.pixels);   /* the warning's colour */
            else assert_true(b.reddish * 10 < b.pixels);               /* the level's dim colour */
        }
    }
    g_game.cfg.set.render.live.hud_size = 1;
    render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
}

static void test_battery_line_480x320(void **state) {
    (void)state;
    check_size(480, 320);
    shot(480, 320, -1, false, true, g_plain);
    shot(480, 320, 80, false, true, g_bat);   /* on mains: nothing */
    Box none = line_box(480, 320, g_bat, g_plain);
    assert_int_equal(none.pixels, 0);
}

static void test_battery_line_1280x720(void **state) {
    (void)state;
    check_size(1280, 720);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_battery_line_480x320),
        cmocka_unit_test(test_battery_line_1280x720),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
