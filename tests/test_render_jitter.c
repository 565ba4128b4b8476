/* Render test for "no jitter" far out (a world without an edge), with the real game booted offscreen: two
 * frames 0.1 m apart at 10^12 m differ no more than two frames 0.1 m apart near the origin, and
 * neither place is empty sky (ground in a good share of the picture, chunks drawn). The ground
 * differs between the places (bright snow and forest show a motion more than grey rock: the raw
 * mean pixel differences of 0.1 m ranged 0.8-4.5 over eight places from 3 km to 3e12 m), so each
 * place's 0.1 m difference is taken against its own 1 m difference: 0.16-0.19 at all eight. A
 * position that lost precision far out would move the picture in steps (a float's step at 10^12 m
 * is 65536 m): 0.1 m then changes either nothing or as much as 1 m.
 * At each place the camera looks down at ground found by the world's own point query; the
 * scene has no clouds and no aircraft, and its clock stands, so only the 0.1 m differs.
 * It needs a world that generates at 10^12 m (64-bit chunk coordinates): without one no ground
 * is found there and the test says so. */
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
#include "support_gl/game_gl.h"

#define W 320
#define H 240
#define FAR 1e12
#define STEP 0.1

static Game g_game;
static GameGlRun g_run;
static uint8_t g_a[W * H * 4], g_b[W * H * 4], g_c[W * H * 4], g_sky[W * H * 4];

static int setup(void **state) {
    (void)state;
    if (!game_gl_boot(&g_game, &g_run, "jitter", "320x240", "--view-radius", "3", "--no-clouds", "--no-sky-clouds",
                      "--no-aircraft", "--no-hud", "--mem", "128"))
        return -1;
    game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, "none");
    return 0;
}

static int teardown(void **state) {
    (void)state;
    return game_gl_end(&g_game, &g_run);
}

/* The top solid block of the column (x, z), or -1 when it is all air. */
static int top_of(double x, double z) {
    for (int y = WORLD_Y_MAX - 1; y >= WORLD_Y_MIN; y -= 2)
        if (world_solid_at(g_game.svc.world, x + 0.5, y + 0.5, z + 0.5)) return y;
    return -1;
}

/* Ground to look at from (x0, z0) on along +x: a column whose top is between 20 and 140 blocks
 * with open air 40 blocks over it and ground beside it. False when none within 4 km. */
static bool find_ground(double x0, double z0, double *gx, double *gy) {
    for (int k = 0; k < 500; k++) {
        double x = x0 + 8.0 * k;
        int t = top_of(x, z0);
        if (t < 20 || t > 140) continue;
        if (top_of(x + 16.0, z0) < 0 || top_of(x, z0 + 16.0) < 0 || top_of(x, z0 - 16.0) < 0) continue;
        if (!sim_clear_box(g_game.svc.world, x - 50.0, t + 30.0, z0, 3.0)) continue;
        *gx = x;
        *gy = t;
        return true;
    }
    return false;
}

/* The frame seen from the camera at (x, y, z) looking along +x and down, with the world waited for. */
static void frame_at(double x, double y, double z, uint8_t *out) {
    g_game.ses.camera.x = x;
    g_game.ses.camera.y = y;
    g_game.ses.camera.z = z;
    g_game.ses.camera.yaw = 90.0f * SIM_DEG;   /* along +x */
    g_game.ses.camera.pitch = -32.0f * SIM_DEG;
    g_game.ses.camera.roll = 0.0f;
    float t = (float)g_game.ses.flight.time_s;
    flight_init(&g_game.ses.flight, x, y, z, g_game.ses.camera.yaw, 1.0f);   /* the world streams along it */
    g_game.ses.flight.time_s = t;
    g_game.ses.play.prev_valid = false;
    game_wait_world(&g_game, 120.0);
    game_draw(&g_game);
    render_finish(g_game.svc.render);
    assert_true(render_read_pixels(W, H, out));
}

static double mean_abs_diff(const uint8_t *a, const uint8_t *b) {
    uint64_t sum = 0;
    for (size_t i = 0; i < (size_t)W * H * 4; i += 4)
        for (int c = 0; c < 3; c++) sum += (uint64_t)abs(a[i + c] - b[i + c]);
    return (double)sum / ((double)W * H * 3.0);
}

/* The share of the picture that is not the sky behind it (the same view with no terrain). */
static double ground_share(const uint8_t *frame) {
    size_t n = 0;
    for (size_t i = 0; i < (size_t)W * H * 4; i += 4)
        if (abs(frame[i] - g_sky[i]) > 24 || abs(frame[i + 1] - g_sky[i + 1]) > 24 || abs(frame[i + 2] - g_sky[i + 2]) > 24)
            n++;
    return (double)n / ((double)W * H);
}

typedef struct Place {
    double diff;        /* mean absolute pixel difference of the frames STEP apart */
    double diff_1m;     /* of the first and one 1 m on: what a motion shows on this ground */
    double share;       /* of the picture that is ground */
    uint32_t chunks;
} Place;

/* The frames STEP and 1 m apart at the ground found from (x0, z0), then the sky behind them. */
static Place measure(double x0, double z0, const char *name) {
    double gx = 0.0, gy = 0.0;
    if (!find_ground(x0, z0, &gx, &gy))
        fail_msg("no ground within 4 km of x %.17g, z %.17g (%s): the world is empty there (it needs 64-bit chunk "
                 "coordinates)", x0, z0, name);
    double cx = gx - 50.0, cy = gy + 30.0;
    frame_at(cx, cy, z0, g_a);
    Place p;
    p.chunks = render_stats(g_game.svc.render).chunks_visible;
    frame_at(cx + STEP, cy, z0, g_b);
    p.diff = mean_abs_diff(g_a, g_b);
    frame_at(cx + 1.0, cy, z0, g_c);
    p.diff_1m = mean_abs_diff(g_a, g_c);
    render_clear_terrain(g_game.svc.render);   /* the sky alone, from the same camera */
    game_draw(&g_game);
    render_finish(g_game.svc.render);
    assert_true(render_read_pixels(W, H, g_sky));
    p.share = ground_share(g_a);
    printf("  %s: camera %.17g, %.1f, %.17g over ground at %.0f: %u chunks drawn, ground %.0f%% of the picture, "
           "frames %.1f m apart differ by %.3f, 1 m apart by %.3f\n", name, cx, cy, z0, gy, p.chunks, p.share * 100.0,
           STEP, p.diff, p.diff_1m);
    return p;
}

static void test_no_jitter_far_out(void **state) {
    (void)state;
    Place near = measure(0.0, 0.0, "near the origin");
    Place far = measure(FAR, FAR, "at 10^12 m");
    /* Neither is empty sky. */
    assert_true(near.chunks > 0 && far.chunks > 0);
    assert_true(near.share > 0.2 && far.share > 0.2);
    /* No jitter: far out 0.1 m changes the picture no more, against what 1 m changes there,
     * than near the origin (a quarter's margin: the eight places spread 0.16-0.19), and not
     * much less either (a picture stuck between steps). */
    assert_true(near.diff_1m > 1.0 && far.diff_1m > 1.0);
    double rn = near.diff / near.diff_1m, rf = far.diff / far.diff_1m;
    printf("  0.1 m against 1 m: far %.3f, near %.3f (raw 0.1 m differences %.3f, %.3f)\n", rf, rn, far.diff, near.diff);
    assert_true(rf <= rn * 1.25);
    assert_true(rf >= rn * 0.5);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_jitter_far_out),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
