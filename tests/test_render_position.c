/* Tests for the HUD's position lines as drawn (Display -> Show position), with the real game
 * booted offscreen: off by default (nothing drawn); on, at 480x320 and 1280x720, at the normal and
 * the large HUD size, near the origin and at 10^12 m (the longest text), the lines are drawn
 * bottom left (pixels that differ from the HUD without them), three lines tall, and inside their
 * box the HUD without them has nothing but the scene: they overlap no other HUD line (the flight
 * data above, the frame rate and the battery at the right, the place name below). A ring course's
 * lines keep clear of the other HUD lines the same way, at 480x320 and 720x720. The camera looks
 * into the sky, so the frames under the HUD are the same and cheap. Under emulation the displays
 * larger than 480x320 are checked at the large HUD size only. */
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
#include "game/power.h"
#include "support_gl/hud_box.h"
#include "support/emulated.h"
#include "support_gl/game_gl.h"

#define WIN_W 1280
#define WIN_H 720

static Game g_game;
static GameGlRun g_run;
static uint8_t g_scene[WIN_W * WIN_H * 4], g_plain[WIN_W * WIN_H * 4], g_pos[WIN_W * WIN_H * 4];

static int g_pct = 80;
static int fake_battery(bool *discharging) {
    *discharging = true;
    return g_pct;   /* a battery line at the right, as on a handheld */
}

static int setup(void **state) {
    (void)state;
    if (!game_gl_boot(&g_game, &g_run, "position", "1280x720", GAME_GL_SMALL_WORLD)) return -1;
    power_set_battery_query(fake_battery);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    power_set_battery_query(NULL);
    return game_gl_end(&g_game, &g_run);
}

/* One frame at w x h with the HUD on or off and the position shown or not, read back. The
 * aircraft is over the home island's site at the origin's side (a place name at the bottom) or
 * far out at x. */
static void shot(int w, int h, double x, bool hud, bool position, uint8_t *out) {
    game_gl_display(&g_game, w, h);
    assert_true(game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, "hud"));
    g_game.ses.flight.x = x;
    g_game.ses.flight.z = x == 0.0 ? 0.0 : -x;
    g_game.cfg.set.hud = hud;
    g_game.cfg.set.show_position = position;
    g_game.ses.play.fps = 60.0f;
    g_game.ses.camera.pitch = 1.3f;   /* into the sky: the same scene under every HUD */
    game_gl_read(&g_game, w, h, out);
    g_game.cfg.set.hud = true;
    g_game.cfg.set.show_position = false;
}

typedef HudBox Box;

static Box line_box(int w, int h, const uint8_t *with, const uint8_t *without) {
    return hud_line_box(w, h, with, without);
}

/* Pixels inside the box where the HUD without the line differs from the scene: other lines. */
static int others_in(int w, const Box *b) { return hud_differing_in(w, b, g_plain, g_scene); }

/* The first HUD size a display's check draws: the normal one (1), or under emulation, for the
 * larger displays (the costliest frames there), only the large one (2), where the lines have the
 * least room; natively every display is checked at both sizes. */
static int first_hud_size(int w, int h) { return w * h > 480 * 320 && test_running_emulated() ? 2 : 1; }

static void check_size(int w, int h) {
    shot(w, h, 0.0, false, false, g_scene);
    for (int hud_size = first_hud_size(w, h); hud_size < 3; hud_size++) {
        g_game.cfg.set.render.live.hud_size = hud_size;
        render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
        int width[2] = {0, 0};
        for (int far = 0; far < 2; far++) {
            double x = far ? 1e12 + 0.1 : 0.0;
            shot(w, h, x, true, false, g_plain);
            shot(w, h, x, true, true, g_pos);
            Box b = line_box(w, h, g_pos, g_plain);
            int others = b.x1 ? others_in(w, &b) : -1;
            printf("  %dx%d, HUD size %d, x %.1f: lines at %d,%d..%d,%d, %d pixels, %d pixels of other lines in "
                   "their box\n", w, h, hud_size, x, b.x0, b.y0, b.x1, b.y1, b.pixels, others);
            assert_true(b.pixels > 150);                       /* three lines of glyphs */
            assert_true(b.x0 < w / 8 && b.y0 > h / 2);         /* bottom left */
            assert_true((b.y1 - b.y0) * 4 > h / 10);           /* more than one line tall */
            assert_int_equal(others, 0);                       /* over no other HUD line */
            assert_true(b.x1 < w);                             /* inside the canvas */
            width[far] = b.x1 - b.x0;
        }
        assert_true(width[1] > width[0]);   /* 1 000 000 000.000 km is longer than the metres */
    }
    g_game.cfg.set.render.live.hud_size = 1;
    render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
}

static void test_off_by_default(void **state) {
    (void)state;
    GameSettings def;
    settings_default(&def);
    assert_false(def.show_position);
    const SettingDesc *d = setting_find("display", "show_position");
    assert_non_null(d);
    assert_string_equal(d->page, "display");
    assert_false(g_game.cfg.set.show_position);
    shot(480, 320, 1e12, true, false, g_plain);
    g_game.cfg.set.show_position = false;
    game_gl_display(&g_game, 480, 320);
    game_gl_read(&g_game, 480, 320, g_pos);   /* the setting as booted: off */
    assert_int_equal(line_box(480, 320, g_pos, g_plain).pixels, 0);
}

static void test_position_lines_480x320(void **state) {
    (void)state;
    check_size(480, 320);
}

static void test_position_lines_1280x720(void **state) {
    (void)state;
    check_size(1280, 720);
}

/* A ring course's lines (the next ring's number, distance and name) keep clear of every other HUD
 * line: at 480x320 and 720x720, at the normal and the large HUD size, the pixels the course adds
 * between the arrow's foot and the clock's line (what differs from the same HUD with the course
 * hidden) have nothing of the flight data, the frame rate or the battery inside their box. They
 * once sat centred under the arrow, across the flight data's heading line. */
static void course_shot(int w, int h, bool hud, bool course, uint8_t *out) {
    game_gl_display(&g_game, w, h);
    g_game.cfg.set.hud = hud;
    tour_hide(&g_game.crs.tour, !course);
    g_game.ses.play.fps = 60.0f;
    g_game.ses.camera.pitch = 1.3f;   /* into the sky: the same scene under every HUD */
    game_gl_read(&g_game, w, h, out);
    g_game.cfg.set.hud = true;
    tour_hide(&g_game.crs.tour, false);
}

static void check_course_lines(int w, int h) {
    int cw, ch;
    render_hud_canvas(g_game.svc.render, w, h, &cw, &ch);
    int s = ch / 160 < 1 ? 1 : (ch / 160 > 4 ? 4 : ch / 160);   /* the overlay's text scale */
    course_shot(w, h, false, false, g_scene);
    /* normal and large: the small one has more room */
    for (int hud_size = first_hud_size(w, h); hud_size < 3; hud_size++) {
        g_game.cfg.set.render.live.hud_size = hud_size;
        render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
        int lh = (int)lroundf((float)(RENDER_HUD_LINE_H * s) * render_hud_zoom(g_game.svc.render));
        /* Canvas rows from under the arrow (its tip 19 scale pixels down) to above the clock. */
        int y0 = (19 * s + 1) * h / ch, y1 = (4 * s + 6 * lh) * h / ch;
        course_shot(w, h, true, false, g_plain);
        course_shot(w, h, true, true, g_pos);
        Box b = line_box(w, h, g_pos, g_plain);
        Box band = {w, h, 0, 0, 0, 0};
        for (int y = y0; y < y1; y++)
            for (int x = 0; x < w; x++) {
                size_t i = ((size_t)y * (size_t)w + (size_t)x) * 4;
                if (!hud_pixel_differs(&g_pos[i], &g_plain[i])) continue;
                band.pixels++;
                band.x0 = x < band.x0 ? x : band.x0;
                band.y0 = y < band.y0 ? y : band.y0;
                band.x1 = x + 1 > band.x1 ? x + 1 : band.x1;
                band.y1 = y + 1 > band.y1 ? y + 1 : band.y1;
            }
        int others = band.x1 ? others_in(w, &band) : -1;
        printf("  %dx%d, HUD size %d: course lines at %d,%d..%d,%d (%d pixels; all it adds %d), %d pixels of other "
               "lines in their box\n", w, h, hud_size, band.x0, band.y0, band.x1, band.y1, band.pixels, b.pixels, others);
        assert_true(band.pixels > 100);   /* two lines of glyphs */
        assert_int_equal(others, 0);      /* over no other HUD line */
    }
    g_game.cfg.set.render.live.hud_size = 1;
    render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
}

static void test_course_lines_clear_of_the_hud(void **state) {
    (void)state;
    g_game.svc.disp_w = 480;
    g_game.svc.disp_h = 320;
    assert_true(game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, "tour"));
    check_course_lines(480, 320);
    check_course_lines(720, 720);
    tour_end(&g_game.crs.tour);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_off_by_default),
        cmocka_unit_test(test_position_lines_480x320),
        cmocka_unit_test(test_position_lines_1280x720),
        cmocka_unit_test(test_course_lines_clear_of_the_hud),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
