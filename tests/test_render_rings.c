/* Render tests for a course's rings: the whole course is one draw call, a ring in
 * front of the camera covers pixels in the next ring's colour where it stands and leaves its
 * opening clear, rings before the next are not drawn, and the HUD's arrow is one quad. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "platform.h"
#include "render/render.h"
#include "support_gl/render_fixture.h"

#define W 128
#define H 96

static RenderFixture g_fx;
static uint8_t g_px[W * H * 4];

static int setup(void **state) {
    RenderSettings s = render_fixture_settings(0, 16);
    s.live.fog = false;
    return render_fixture_setup(state, &g_fx, "skyisles rings test", W, H, 32u << 20, &s);
}

/* Pixels of the next ring's colour (yellow: red and green high, blue low) in a box. */
static int yellow_in(int x0, int y0, int x1, int y1) {
    int n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            const uint8_t *p = &g_px[(y * W + x) * 4];   /* top row first */
            n += p[0] > 120 && p[1] > 90 && p[2] < 80;
        }
    return n;
}

static uint32_t frame(const RenderView *v) {
    render_frame(g_fx.render, v, W, H);
    render_finish(g_fx.render);
    assert_true(render_read_pixels(W, H, g_px));
    return render_stats(g_fx.render).draw_calls;
}

static void test_rings_one_call(void **state) {
    (void)state;
    RenderView v = render_fixture_view(0.0, 100.0, 0.0, 0.0f, 0.0f, 0.0);
    render_rings_set(g_fx.render, NULL, 0);
    uint32_t none = frame(&v);
    assert_int_equal(yellow_in(0, 0, W, H), 0);
    /* Three rings ahead along -z; the first faces the camera 30 m away. */
    RenderRing rings[3] = {{0, 100, -30, 0, 0, 1, 6}, {20, 100, -80, 0, 0, 1, 6}, {-20, 110, -130, 0, 0, 1, 6}};
    render_rings_set(g_fx.render, rings, 3);
    render_rings_next(g_fx.render, 0, 1.0f);
    assert_int_equal(frame(&v), none + 1u);
    /* The rim shows left and right of the centre; the opening in the middle is clear. */
    assert_true(yellow_in(0, H / 4, W / 2 - 8, 3 * H / 4) > 10);
    assert_true(yellow_in(W / 2 + 8, H / 4, W, 3 * H / 4) > 10);
    assert_int_equal(yellow_in(W / 2 - 4, H / 2 - 4, W / 2 + 4, H / 2 + 4), 0);
    /* Past the first: it is gone (no yellow left of the centre), the second (right, 80 m on) is
     * the next one now, and the rest is still one call. */
    render_rings_next(g_fx.render, 1, 1.0f);
    assert_int_equal(frame(&v), none + 1u);
    assert_int_equal(yellow_in(0, 0, W / 2 - 2, H), 0);
    assert_true(yellow_in(W / 2 + 2, 0, W, H) > 4);
    /* Past the last: nothing to draw. */
    render_rings_next(g_fx.render, 3, 1.0f);
    assert_int_equal(frame(&v), none);
}

static void test_arrow_is_one_quad(void **state) {
    (void)state;
    render_hud_clear(g_fx.render);
    render_hud_arrow(g_fx.render, 40, 30, 8, 0.7f, 0xffd060ffu);
    RenderHudBounds b = render_hud_bounds(g_fx.render);
    assert_int_equal(b.quads, 1);
    assert_true(b.x0 >= 30 && b.x1 <= 50 && b.y0 >= 20 && b.y1 <= 40);
    render_hud_clear(g_fx.render);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rings_one_call),
        cmocka_unit_test(test_arrow_is_one_quad),
    };
    return cmocka_run_group_tests(tests, setup, render_fixture_teardown);
}
