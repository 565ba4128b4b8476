/* Tests for the game's screens as drawn (src/game/overlay.c over the renderer's HUD layer), with
 * the real game booted offscreen: the flight HUD at 480x320 and 640x480, the pause menu and the
 * island map against reference images; the HUD names the home-island place under the aircraft
 * (the exact glyphs of that name, where the HUD puts it); every screen stays inside the canvas
 * on every screen preset a handheld or a TV has, the ring courses' screens too. */
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
#include "support_gl/render_fixture.h"
#include "support_gl/game_gl.h"

#define WIN_W 640
#define WIN_H 480

static Game g_game;
static GameGlRun g_run;
static uint8_t g_a[WIN_W * WIN_H * 4], g_b[WIN_W * WIN_H * 4];

static int setup(void **state) {
    (void)state;
    if (!game_gl_boot(&g_game, &g_run, "overlay", "640x480", GAME_GL_SMALL_WORLD)) return -1;
    game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, "hud");
    game_wait_world(&g_game, 120.0);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    return game_gl_end(&g_game, &g_run);
}

/* One frame of a screen at a display size, read back (the window's bottom-left corner). */
static void shot(const char *show, int w, int h, uint8_t *out) {
    game_gl_display(&g_game, w, h);
    assert_true(game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, show));
    game_gl_read(&g_game, w, h, out);
}

static void test_hud_480x320_and_640x480(void **state) {
    (void)state;
    shot("hud", 480, 320, g_a);
    render_fixture_check_ref("overlay_hud_480x320", 480, 320, g_a);
    shot("hud", 640, 480, g_a);
    render_fixture_check_ref("overlay_hud_640x480", 640, 480, g_a);
    RenderStats rs = render_stats(g_game.svc.render);
    assert_true(rs.hud_quads > 40);   /* four lines of flight data and the place name */
    assert_int_equal(rs.hud_dropped, 0);
    assert_int_equal(rs.stage_draw_calls[RENDER_STAGE_HUD], 1);
}

static void test_pause_menu_and_map(void **state) {
    (void)state;
    shot("menu", 640, 480, g_a);
    render_fixture_check_ref("overlay_menu_640x480", 640, 480, g_a);
    shot("map", 640, 480, g_a);
    render_fixture_check_ref("overlay_map_640x480", 640, 480, g_a);
    g_game.ses.play.overlay = OVERLAY_NONE;
}

/* Over a known site, the bottom line of the HUD is that site's name: the frame with the HUD
 * equals, in that band, the same scene with only the expected name queued where the HUD puts
 * it; another site's name does not. */
/* The HUD keeps its place line between frames and makes it again when the place under the
 * aircraft changes: over each of a few sites (at least two names among them) and over open sky
 * it is the line game_place_line makes there. */
static void test_hud_place_line_follows_the_place(void **state) {
    (void)state;
    const GameHome *home = &g_game.svc.home;
    FlightState keep = g_game.ses.flight;
    char want[160], first[160] = "";
    int names = 0;
    for (uint32_t k = 0; k < home->island->n_sites && k < 6; k++) {
        g_game.ses.flight.x = home->field.centre_x + home->island->sites[k].x_m;
        g_game.ses.flight.z = home->field.centre_z + home->island->sites[k].z_m;
        shot("hud", 640, 480, g_a);
        bool ok = game_place_line(home, g_game.svc.world, g_game.ses.flight.x, g_game.ses.flight.z, want, sizeof want);
        assert_int_equal(g_game.ses.place_shown.ok, ok);
        if (!ok) continue;
        assert_string_equal(g_game.ses.place_shown.line, want);
        if (!first[0]) snprintf(first, sizeof first, "%s", want), names = 1;
        else if (names == 1 && strcmp(first, want) != 0) names = 2;
    }
    assert_int_equal(names, 2);
    g_game.ses.flight.x = home->field.centre_x + 0.5 * home->field.size * home->field.cell_meters + 300.0;   /* off the island */
    shot("hud", 640, 480, g_a);
    assert_false(game_place_line(home, g_game.svc.world, g_game.ses.flight.x, g_game.ses.flight.z, want, sizeof want));
    assert_false(g_game.ses.place_shown.ok);
    g_game.ses.flight = keep;
}

static void test_hud_names_the_place_below(void **state) {
    (void)state;
    const GameHome *home = &g_game.svc.home;
    const int w = 640, h = 480;
    uint32_t site = home->island->base;
    FlightState keep = g_game.ses.flight;
    g_game.ses.flight.x = home->field.centre_x + home->island->sites[site].x_m;
    g_game.ses.flight.z = home->field.centre_z + home->island->sites[site].z_m;
    assert_int_equal(game_home_site_at(home, g_game.ses.flight.x, g_game.ses.flight.z), (int)site);
    char place[64], name[160], other[160];
    game_home_site_name(home, site, place, sizeof place);
    /* The line names the place and its island ("Sandy Beach, Isle of ..."); another place of the
     * same island must not match it. */
    assert_true(game_place_line(home, g_game.svc.world, g_game.ses.flight.x, g_game.ses.flight.z, name, sizeof name));
    assert_true(strncmp(name, place, strlen(place)) == 0);
    game_home_site_name(home, site == 0 ? 1 : 0, other, sizeof other);
    snprintf(other + strlen(other), sizeof other - strlen(other), "%s", name + strlen(place));
    printf("  over site %u: '%s'\n", site, name);
    shot("hud", w, h, g_a);
    int cw, ch;
    render_hud_canvas(g_game.svc.render, w, h, &cw, &ch);
    int s = ch / 160 < 1 ? 1 : ch / 160;
    int lh = RENDER_HUD_LINE_H * s, y = ch - lh - 4 * s;
    /* The same scene, the HUD off, only the expected name queued. */
    for (int k = 0; k < 2; k++) {
        const char *t = k == 0 ? name : other;
        g_game.svc.disp_w = w;
        g_game.svc.disp_h = h;
        game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, "none");
        render_hud_text(g_game.svc.render, (cw - render_hud_text_width(g_game.svc.render, t, s)) / 2, y, s, 0xffffffffu, t);
        game_draw(&g_game);
        render_finish(g_game.svc.render);
        assert_true(render_read_pixels(w, h, g_b));
        g_game.cfg.set.hud = true;
        /* Rows of the display covering the name's band (the canvas is upscaled by h / ch). */
        int scale = h / ch, row0 = (h - ch * scale) / 2 + (y - s) * scale, row1 = row0 + (lh + 2 * s) * scale;
        size_t off = 0;
        for (int r = row0; r < row1 && r < h; r++)
            for (int c = 0; c < w; c++) {
                /* read-back rows are top first */
                const uint8_t *pa = &g_a[((size_t)r * w + c) * 4], *pb = &g_b[((size_t)r * w + c) * 4];
                if (abs(pa[0] - pb[0]) > 24 || abs(pa[1] - pb[1]) > 24 || abs(pa[2] - pb[2]) > 24) off++;
            }
        printf("  band against '%s': %zu pixels differ\n", t, off);
        if (k == 0) assert_true(off < 40);      /* the same glyphs (and a dither flip or two) */
        else assert_true(off > 200);            /* another name does not match */
    }
    g_game.ses.flight = keep;
}

/* The pause menu at a display size and HUD size with row `sel` selected, drawn and read back. */
static void menu_shot(int w, int h, int hud_size, int sel, uint8_t *out) {
    g_game.cfg.set.render.live.hud_size = hud_size;
    render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
    game_gl_display(&g_game, w, h);
    assert_true(game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, "menu"));
    g_game.ses.menu.sel = sel;
    game_gl_read(&g_game, w, h, out);
}

static bool near(const uint8_t *px, int r, int g, int b, int tol) {
    return abs(px[0] - r) <= tol && abs(px[1] - g) <= tol && abs(px[2] - b) <= tol;
}

/* What a menu frame shows: the arrows' colour (the overlay's highlight, which the pause page
 * uses only for its title, on the left) in the right half above and below the middle, and the
 * rows the selection bar (its colour over the opaque backdrop) spans most of. */
typedef struct MenuSeen {
    int marks_top, marks_bottom;
    int bar_rows, bar_first;
} MenuSeen;

static MenuSeen menu_seen(const uint8_t *img, int w, int h) {
    MenuSeen m = {0, 0, 0, -1};
    for (int r = 0; r < h; r++) {   /* read-back rows are top first */
        int bar = 0;
        for (int c = 0; c < w; c++) {
            const uint8_t *px = &img[((size_t)r * w + c) * 4];
            if (c >= w / 2 && near(px, 0xff, 0xd0, 0x60, 40)) {
                if (r < h / 2) m.marks_top++;
                else m.marks_bottom++;
            }
            if (near(px, 49, 77, 119, 16)) bar++;
        }
        if (bar > w / 2) {
            if (m.bar_first < 0) m.bar_first = r;
            m.bar_rows++;
        }
    }
    return m;
}

/* A page longer than the screen scrolls with its selection and marks the rows it hides: at
 * 480x320 with the large HUD the pause menu's last row (Quit) is drawn when selected, with the
 * mark above; its first row with the mark below. On a TV at the normal size all of it fits: no
 * mark (640x480, the test window's size, has the 240-line canvas a 1280x720 TV has). */
static void test_long_menu_scrolls_and_marks_more(void **state) {
    (void)state;
    int keep_size = g_game.cfg.set.render.live.hud_size;
    assert_true(game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, "menu"));
    int last = g_game.ses.menu.count - 1;
    assert_string_equal(g_game.ses.menu.items[last].label, "Quit");
    static const struct {
        int w, h, size, sel;
        bool above, below;
    } cases[] = {{480, 320, 2, -1, true, false}, {480, 320, 2, 0, false, true}, {640, 480, 1, -1, false, false},
                 {640, 480, 1, 0, false, false}};
    uint8_t *img = g_a;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int sel = cases[i].sel < 0 ? last : cases[i].sel;
        menu_shot(cases[i].w, cases[i].h, cases[i].size, sel, img);
        MenuSeen m = menu_seen(img, cases[i].w, cases[i].h);
        printf("  %dx%d HUD size %d, row %d selected: bar %d rows from %d, marks %d above / %d below the middle\n",
               cases[i].w, cases[i].h, cases[i].size, sel, m.bar_rows, m.bar_first, m.marks_top, m.marks_bottom);
        assert_true(m.bar_rows >= 4);   /* the selected row is on the screen */
        if (sel == last) assert_true(m.bar_first > cases[i].h / 2);
        else assert_true(m.bar_first < cases[i].h / 2);
        assert_true(cases[i].above ? m.marks_top > 20 : m.marks_top == 0);
        assert_true(cases[i].below ? m.marks_bottom > 20 : m.marks_bottom == 0);
    }
    g_game.cfg.set.render.live.hud_size = keep_size;
    render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
    g_game.ses.play.overlay = OVERLAY_NONE;
}

/* Every screen on every preset: the HUD queue's bounds inside the canvas, nothing dropped. The
 * deliveries at their fullest: stopped at the base (its board up) with its first job taken (the
 * board page says so above the offers, the HUD shows the job's line and the map its mark). */
static void test_screens_fit_every_preset(void **state) {
    (void)state;
    static const int sizes[][2] = {{480, 320}, {640, 480}, {720, 720}, {854, 480}, {1280, 720}};
    static const char *const screens[] = {"hud", "title", "menu", "panel", "controls", "display", "sound", "flyto", "map",
                                          "crash", "jobs", "job", "logbook"};
    Jobs *jobs = &g_game.crs.delivery.jobs;
    double bx, bz;
    jobs_site_pos(jobs, g_game.svc.home.island->base, &bx, &bz);
    for (int i = 0; i < 90; i++) jobs_step(jobs, bx, bz, 0.0f, true, SIM_STEP);
    assert_true(jobs->n_board > 0 && jobs_take(jobs, 0));
    int keep_size = g_game.cfg.set.render.live.hud_size;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int w = sizes[i][0], h = sizes[i][1], cw, ch;
        g_game.svc.disp_w = w;
        g_game.svc.disp_h = h;
        render_hud_canvas(g_game.svc.render, w, h, &cw, &ch);
        for (int hs = 0; hs <= 2; hs++) {   /* every HUD size: small, normal, large */
            g_game.cfg.set.render.live.hud_size = hs;
            render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
            for (size_t k = 0; k < sizeof screens / sizeof screens[0]; k++) {
                /* The layout is what is checked: queued, measured, then cleared without a draw (a
                 * frame per screen and size would make the emulated run crawl). */
                assert_true(game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, screens[k]));
                overlay_draw(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs);
                RenderHudBounds b = render_hud_bounds(g_game.svc.render);
                render_hud_clear(g_game.svc.render);
                if (b.x0 < 0 || b.y0 < 0 || b.x1 > cw || b.y1 > ch || b.dropped)
                    fail_msg("%s at %dx%d HUD size %d (canvas %dx%d): queued %d,%d..%d,%d, %u dropped", screens[k], w, h,
                             hs, cw, ch, b.x0, b.y0, b.x1, b.y1, b.dropped);
                assert_true(b.x1 > b.x0 && b.y1 > b.y0 && b.quads > 0);
            }
        }
        printf("  %dx%d: canvas %dx%d, %zu screens inside at 3 HUD sizes\n", w, h, cw, ch,
               sizeof screens / sizeof screens[0]);
    }
    g_game.cfg.set.render.live.hud_size = keep_size;
    render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
    jobs_reset(jobs);
    game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, "hud");
}

/* The flight's messages wrap to the screen: four long ones (the longest the game says) stay inside
 * the canvas on a 480x320 and a 720x720 screen at every HUD size (one line each ran off both
 * edges of a 480x320 screen). */
static void test_long_messages_wrap(void **state) {
    (void)state;
    static const int sizes[][2] = {{480, 320}, {720, 720}};
    int keep_size = g_game.cfg.set.render.live.hud_size;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (int hs = 0; hs <= 2; hs++) {
            int w = sizes[i][0], h = sizes[i][1], cw, ch;
            g_game.cfg.set.render.live.hud_size = hs;
            render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
            g_game.svc.disp_w = w;
            g_game.svc.disp_h = h;
            render_hud_canvas(g_game.svc.render, w, h, &cw, &ch);
            assert_true(game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, "hud"));
            play_message(&g_game.ses.play, 5.0f, "The saved spot is rock now: continuing in open air nearby");
            play_message(&g_game.ses.play, 5.0f, "Screenshot not saved: the screen grew past 1920x1080 since the start");
            play_message(&g_game.ses.play, 5.0f, "Xbox 360 Wireless Receiver Controller has no mapping: see the README");
            play_message(&g_game.ses.play, 5.0f, "Averyveryveryverylongwordwithnospacesinsideitatalltosplit");
            overlay_draw(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs);
            RenderHudBounds b = render_hud_bounds(g_game.svc.render);
            render_hud_clear(g_game.svc.render);
            if (b.x0 < 0 || b.y0 < 0 || b.x1 > cw || b.y1 > ch || b.dropped)
                fail_msg("messages at %dx%d HUD size %d (canvas %dx%d): queued %d,%d..%d,%d, %u dropped", w, h, hs, cw, ch,
                         b.x0, b.y0, b.x1, b.y1, b.dropped);
            for (int k = 0; k < PLAY_MESSAGES; k++) g_game.ses.play.msg[k].ttl = 0.0f;
        }
    }
    g_game.cfg.set.render.live.hud_size = keep_size;
    render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
}

/* The ring courses' screens (flying a course, its results) on the handheld and TV presets at
 * every HUD size: inside the canvas, nothing dropped (the results' summary line once ran off a
 * 480x320 screen's right edge). The course is laid and flown once; each size only draws. */
static void test_course_screens_fit(void **state) {
    (void)state;
    static const int sizes[][2] = {{480, 320}, {720, 720}, {640, 480}, {1280, 720}};
    static const char *const screens[] = {"sky", "results"};
    int keep_size = g_game.cfg.set.render.live.hud_size;
    for (size_t k = 0; k < sizeof screens / sizeof screens[0]; k++) {
        assert_true(game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, screens[k]));
        assert_true(tour_active(&g_game.crs.tour));
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            for (int hs = 0; hs <= 2; hs++) {
                int w = sizes[i][0], h = sizes[i][1], cw, ch;
                g_game.cfg.set.render.live.hud_size = hs;
                render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
                g_game.svc.disp_w = w;
                g_game.svc.disp_h = h;
                render_hud_canvas(g_game.svc.render, w, h, &cw, &ch);
                overlay_draw(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs);
                RenderHudBounds b = render_hud_bounds(g_game.svc.render);
                render_hud_clear(g_game.svc.render);
                if (b.x0 < 0 || b.y0 < 0 || b.x1 > cw || b.y1 > ch || b.dropped)
                    fail_msg("%s at %dx%d HUD size %d (canvas %dx%d): queued %d,%d..%d,%d, %u dropped", screens[k], w, h,
                             hs, cw, ch, b.x0, b.y0, b.x1, b.y1, b.dropped);
                assert_true(b.quads > 0);
            }
        }
        printf("  %s: inside at %zu sizes x 3 HUD sizes\n", screens[k], sizeof sizes / sizeof sizes[0]);
    }
    tour_end(&g_game.crs.tour);
    g_game.cfg.set.render.live.hud_size = keep_size;
    render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
    game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, "hud");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hud_480x320_and_640x480),
        cmocka_unit_test(test_pause_menu_and_map),
        cmocka_unit_test(test_hud_names_the_place_below),
        cmocka_unit_test(test_hud_place_line_follows_the_place),
        cmocka_unit_test(test_screens_fit_every_preset),
        cmocka_unit_test(test_long_menu_scrolls_and_marks_more),
        cmocka_unit_test(test_long_messages_wrap),
        cmocka_unit_test(test_course_screens_fit),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
