/* Render tests for the airstrips' approach lights (PAPI): seen from 80 m out on the approach,
 * the four lights show all white above the glide path (5 degrees), two white and two red on it
 * (3 degrees: the red nearest the strip), all red below it (1.5 degrees), still both on the
 * path from 1 km out, and nothing from behind them; measured as the pixels the lights add to the
 * frame, in one draw call. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"
#include "render/render.h"
#include "support_gl/render_fixture.h"

#define W 320
#define H 240

static RenderFixture g_fx;
static uint8_t g_base[W * H * 4], g_px[W * H * 4];

/* A strip in the air, along +z from the origin at y 100 (nothing under it: only its lights). */
static const WorldStrip STRIP = {.ax = 0.0, .az = 0.0, .bx = 0.0, .bz = 200.0, .y = 100.0f, .dir_x = 0.0f, .dir_z = 1.0f,
                                 .yaw = 3.14159265f, .length_m = 200.0f, .width_m = 16.0f, .site = 0, .base = true};

static int setup(void **state) {
    RenderSettings s = render_fixture_settings(0, 16);
    s.live.fog = false;
    return render_fixture_setup(state, &g_fx, "skyisles papi test", W, H, 32u << 20, &s);
}

static uint32_t frame(const RenderView *v, uint8_t *px) {
    render_frame(g_fx.render, v, W, H);
    render_finish(g_fx.render);
    assert_true(render_read_pixels(W, H, px));
    return render_stats(g_fx.render).draw_calls;
}

typedef struct Seen { int white, red; double white_x, red_x; } Seen;

/* The eye `dist` m before the lights, `deg` degrees over them, looking down that angle along +z:
 * the pixels the lights change, white or red, and the mean column of each. */
static Seen look_from(double dist, double deg) {
    double lp[3];
    render_papi_light(&STRIP, 0, 0, lp);
    double y = lp[1] + dist * tan(deg * 3.14159265358979 / 180.0);
    RenderView v = render_fixture_view(lp[0] + 4.5, y, lp[2] - dist, 180.0f, (float)-deg, 0.0);
    render_strips_set(g_fx.render, NULL, 0);
    uint32_t calls = frame(&v, g_base);
    render_strips_set(g_fx.render, &STRIP, 1);
    assert_int_equal(frame(&v, g_px), calls + 1u);
    Seen s = {0};
    for (int i = 0; i < W * H; i++) {
        const uint8_t *a = &g_px[i * 4], *b = &g_base[i * 4];
        if (abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]) < 60) continue;
        if (a[0] > 170 && a[1] > 170 && a[2] > 150) s.white++, s.white_x += i % W;
        else if (a[0] > 140 && a[1] < 110 && a[2] < 110) s.red++, s.red_x += i % W;
    }
    if (s.white) s.white_x /= s.white;
    if (s.red) s.red_x /= s.red;
    printf("  %.0f m out, %.1f deg: %d white pixels (mean column %.1f), %d red (%.1f)\n", dist, deg, s.white, s.white_x, s.red, s.red_x);
    return s;
}

static Seen look(double deg) { return look_from(80.0, deg); }

static void test_colour_by_angle(void **state) {
    (void)state;
    Seen above = look(5.0), on = look(3.0), below = look(1.5);
    assert_true(above.white >= 8 && above.red == 0);
    assert_true(below.red >= 8 && below.white == 0);
    /* On the path: both, as many of each within a third, the red ones nearer the strip (it lies
     * left of the row in x; looking along +z, +x is to the left of the picture). */
    assert_true(on.white >= 4 && on.red >= 4);
    assert_true(on.white * 3 >= on.red * 2 && on.red * 3 >= on.white * 2);
    assert_true(on.red_x > on.white_x);
    /* From 1 km out (near the far plane) the lights still show, grown to a few pixels: both
     * colours on the path. */
    Seen far = look_from(1000.0, 3.0);
    assert_true(far.white >= 1 && far.red >= 1);
    assert_true(far.red_x > far.white_x);
}

static void test_rule_and_behind(void **state) {
    (void)state;
    /* The rule itself: light i turns white above its angle, the angles rising toward the strip. */
    double lp[3];
    for (int i = 0; i < RENDER_PAPI_LIGHTS; i++) {
        render_papi_light(&STRIP, 0, i, lp);
        double below = 2.4 + 0.333 * (RENDER_PAPI_LIGHTS - 1 - i), above = below + 0.2;
        double ey_lo = lp[1] + 100.0 * tan(below * 3.14159265358979 / 180.0);
        double ey_hi = lp[1] + 100.0 * tan(above * 3.14159265358979 / 180.0);
        assert_int_equal(render_papi_white(&STRIP, 0, i, lp[0], ey_lo, lp[2] - 100.0), 0);
        assert_int_equal(render_papi_white(&STRIP, 0, i, lp[0], ey_hi, lp[2] - 100.0), 1);
        /* From past the lights (over the strip), the lights of this end show nothing. */
        assert_int_equal(render_papi_white(&STRIP, 0, i, lp[0], ey_hi, lp[2] + 30.0), -1);
    }
    /* Seen from behind, nothing is drawn: the far end's lights face away too when looking back. */
    render_papi_light(&STRIP, 0, 0, lp);
    RenderView v = render_fixture_view(lp[0] + 4.5, lp[1] + 5.0, lp[2] + 80.0, 0.0f, -3.0f, 0.0);
    render_strips_set(g_fx.render, NULL, 0);
    frame(&v, g_base);
    render_strips_set(g_fx.render, &STRIP, 1);
    frame(&v, g_px);
    int changed = 0;
    for (int i = 0; i < W * H * 4; i++) changed += abs(g_px[i] - g_base[i]) > 20;
    assert_int_equal(changed, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_colour_by_angle),
        cmocka_unit_test(test_rule_and_behind),
    };
    return cmocka_run_group_tests(tests, setup, render_fixture_teardown);
}
