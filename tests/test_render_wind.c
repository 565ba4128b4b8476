/* Tests for the HUD's wind line as drawn, with the real game booted offscreen: low and slow (an
 * approach) the line is drawn right of the heading, inside the canvas, over no other HUD line,
 * at 480x320 and 640x480 at the normal and the large HUD size; fast, high or in still air it is
 * not drawn (under emulation checked at the normal HUD size). The camera looks into the sky, so
 * the frames under the HUD are the same. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game/game.h"
#include "support_gl/hud_box.h"
#include "support/emulated.h"
#include "support_gl/game_gl.h"

#define WIN_W 640
#define WIN_H 480

static Game g_game;
static GameGlRun g_run;
static uint8_t g_scene[WIN_W * WIN_H * 4], g_calm[WIN_W * WIN_H * 4], g_wind[WIN_W * WIN_H * 4];

static int setup(void **state) {
    (void)state;
    if (!game_gl_boot(&g_game, &g_run, "wind", "640x480", GAME_GL_SMALL_WORLD)) return -1;
    return 0;
}

static int teardown(void **state) {
    (void)state;
    return game_gl_end(&g_game, &g_run);
}

/* One frame at w x h: the aircraft at height y and speed, in a wind of `wind` m/s from the west
 * (blowing toward +x), HUD on or off; read back. */
static void shot(int w, int h, double y, float speed, float wind, bool hud, uint8_t *out) {
    game_gl_display(&g_game, w, h);
    assert_true(game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, "hud"));
    g_game.ses.flight.y = y;
    g_game.ses.flight.speed = speed;
    memset(&g_game.ses.weather, 0, sizeof g_game.ses.weather);
    g_game.ses.weather.wind[0] = wind;
    g_game.ses.weather.wind_speed = wind;
    g_game.cfg.set.hud = hud;
    g_game.ses.play.fps = 60.0f;
    g_game.ses.camera.pitch = 1.3f;   /* into the sky: the same scene under every HUD */
    game_gl_read(&g_game, w, h, out);
    g_game.cfg.set.hud = true;
}

/* Pixels the wind changes in the HUD at that height and speed (calm: the calm frame of that
 * height and speed is already in g_calm). */
static int wind_pixels(int w, int h, double y, float speed, float wind, bool calm) {
    if (!calm) shot(w, h, y, speed, 0.0f, true, g_calm);
    shot(w, h, y, speed, wind, true, g_wind);
    return hud_line_box(w, h, g_wind, g_calm).pixels;
}

static void check_size(int w, int h) {
    shot(w, h, 100.0, 30.0f, 0.0f, false, g_scene);
    for (int hud_size = 1; hud_size < 3; hud_size++) {
        g_game.cfg.set.render.live.hud_size = hud_size;
        render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
        shot(w, h, 100.0, 30.0f, 0.0f, true, g_calm);
        shot(w, h, 100.0, 30.0f, 12.0f, true, g_wind);
        HudBox b = hud_line_box(w, h, g_wind, g_calm);
        int others = b.x1 ? hud_differing_in(w, &b, g_calm, g_scene) : -1;
        printf("  %dx%d, HUD size %d: wind line at %d,%d..%d,%d, %d pixels, %d pixels of other lines in its box\n", w,
               h, hud_size, b.x0, b.y0, b.x1, b.y1, b.pixels, others);
        assert_true(b.pixels > 100);                  /* a line of glyphs */
        assert_true(b.x0 > w / 16 && b.y0 < h / 3);   /* right of the heading, at the top */
        assert_true((b.y1 - b.y0) * 12 < h);          /* one line tall */
        assert_int_equal(others, 0);                  /* over no other HUD line */
        assert_true(b.x1 < w);                        /* inside the canvas, its margin kept */
        /* still, fast or high: no line. Under emulation at the normal HUD size only (whether the
         * line is drawn does not depend on its size; natively both sizes). */
        if (hud_size > 1 && test_running_emulated()) continue;
        assert_int_equal(wind_pixels(w, h, 100.0, 30.0f, 1.0f, true), 0);   /* g_calm is this calm */
        assert_int_equal(wind_pixels(w, h, 100.0, 200.0f, 12.0f, false), 0);
        assert_int_equal(wind_pixels(w, h, 400.0, 30.0f, 12.0f, false), 0);
    }
    g_game.cfg.set.render.live.hud_size = 1;
    render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
}

static void test_wind_line_480x320(void **state) {
    (void)state;
    check_size(480, 320);
}

static void test_wind_line_640x480(void **state) {
    (void)state;
    check_size(640, 480);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wind_line_480x320),
        cmocka_unit_test(test_wind_line_640x480),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
