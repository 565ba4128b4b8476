/* Render tests for the view's instances. The ghost (a course's best run drawn as a translucent
 * aircraft) is one more draw call than the frame without it, whether the player's aircraft is
 * drawn or not, and shows where it flies (pixels change there, not elsewhere). Every instance of
 * the list is drawn, once, tinted by its colour; translucent ones go over the opaque ones
 * whatever their place in the list; the list is fixed in size. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "platform.h"
#include "render/render.h"
#include "support_gl/render_fixture.h"

#define W 128
#define H 96

static RenderFixture g_fx;
static uint8_t g_px[W * H * 4], g_before[W * H * 4];

static int setup(void **state) {
    RenderSettings s = render_fixture_settings(0, 16);
    s.live.fog = false;
    return render_fixture_setup(state, &g_fx, "skyisles ghost test", W, H, 32u << 20, &s);
}

static uint32_t frame(const RenderView *v) {
    render_frame(g_fx.render, v, W, H);
    render_finish(g_fx.render);
    assert_true(render_read_pixels(W, H, g_px));
    return render_stats(g_fx.render).draw_calls;
}

/* Pixels that differ from g_before in a box (by more than 24 in some channel). */
static int changed_in(int x0, int y0, int x1, int y1) {
    int n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            for (int c = 0; c < 3; c++) {
                int d = (int)g_px[(y * W + x) * 4 + c] - (int)g_before[(y * W + x) * 4 + c];
                if (d > 24 || d < -24) {
                    n++;
                    break;
                }
            }
    return n;
}

/* An aircraft instance at (x, y, z), level, heading away from the camera. */
static RenderInstance *add_aircraft(RenderView *v, double x, double y, double z, float alpha) {
    RenderInstance *in = render_view_add(v, RENDER_MODEL_AIRCRAFT);
    assert_non_null(in);
    in->x = x, in->y = y, in->z = z;
    in->tint[3] = alpha;
    return in;
}

static void test_ghost_one_call(void **state) {
    (void)state;
    render_rings_set(g_fx.render, NULL, 0);
    for (int air = 0; air < 2; air++) {
        RenderView v = render_fixture_view(0.0, 100.0, 0.0, 0.0f, 0.0f, 0.0);
        if (air) add_aircraft(&v, 6.0, 98.0, -20.0, 1.0f);   /* right of the centre, 20 m ahead */
        uint32_t without = frame(&v);
        memcpy(g_before, g_px, sizeof g_px);
        /* The ghost left of the centre, 15 m ahead, heading away from the camera. */
        add_aircraft(&v, -4.0, 99.0, -15.0, RENDER_GHOST_ALPHA);
        uint32_t with = frame(&v);
        printf("  aircraft %s: %u draw calls, with the ghost %u; %d pixels changed left, %d right\n",
               air ? "drawn" : "hidden", without, with, changed_in(0, 0, W / 2 - 4, H), changed_in(W / 2 + 12, 0, W, H));
        assert_int_equal(with, without + 1u);
        assert_true(changed_in(0, 0, W / 2 - 4, H) > 20);
        assert_int_equal(changed_in(W / 2 + 12, 0, W, H), 0);
    }
}

/* A pixel of the aircraft's red body (red well above green and blue), on its lit faces and on
 * those turned from the sun (the sky's ambient light, 0.7 of them by day). */
static bool is_red(const uint8_t *p) { return p[0] > 110 && p[1] < 90 && p[2] < 90; }

/* Pixels of the aircraft's red body in the whole frame. */
static int red_pixels(void) {
    int n = 0;
    for (int i = 0; i < W * H; i++) n += is_red(&g_px[i * 4]);
    return n;
}

static void test_every_instance_drawn_tinted(void **state) {
    (void)state;
    render_rings_set(g_fx.render, NULL, 0);
    RenderView v = render_fixture_view(0.0, 100.0, 0.0, 0.0f, -8.0f, 0.0);
    uint32_t none = frame(&v);
    memcpy(g_before, g_px, sizeof g_px);
    /* Two aircraft, left and right of the centre: two calls, pixels on both sides. */
    add_aircraft(&v, -3.5, 97.5, -9.0, 1.0f);
    RenderInstance *right = add_aircraft(&v, 3.5, 97.5, -9.0, 1.0f);
    assert_int_equal(frame(&v), none + 2u);
    int left_px = changed_in(0, 0, W / 2, H), right_px = changed_in(W / 2, 0, W, H);
    printf("  two aircraft: %d pixels changed left, %d right, %d red\n", left_px, right_px, red_pixels());
    assert_true(left_px > 20 && right_px > 20);
    int red_both = red_pixels();
    assert_true(red_both > 20);
    /* The right one tinted blue: the same shape (it still covers the sky there), no red in it. */
    right->tint[0] = 0.1f, right->tint[1] = 0.3f, right->tint[2] = 1.0f;
    assert_int_equal(frame(&v), none + 2u);
    int right_tinted = changed_in(W / 2, 0, W, H), red_tinted = red_pixels();
    printf("  right one tinted blue: %d pixels changed right, %d red\n", right_tinted, red_tinted);
    assert_true(right_tinted > right_px / 2);
    assert_true(red_tinted < red_both * 2 / 3);
    for (int i = 0; i < W / 2 * H; i++) {
        int x = W / 2 + i % (W / 2), y = i / (W / 2);
        const uint8_t *p = &g_px[(y * W + x) * 4];
        assert_false(is_red(p));
    }
    /* Alpha 0 draws nothing. */
    right->tint[3] = 0.0f;
    assert_int_equal(frame(&v), none + 1u);
    assert_int_equal(changed_in(W / 2 + 4, 0, W, H), 0);
}

static void test_translucent_over_opaque_in_any_order(void **state) {
    (void)state;
    render_rings_set(g_fx.render, NULL, 0);
    /* The ghost in front of the aircraft, overlapping it: listed after it, then before it. */
    RenderView v = render_fixture_view(0.0, 100.0, 0.0, 0.0f, 0.0f, 0.0);
    add_aircraft(&v, 0.0, 98.0, -24.0, 1.0f);
    add_aircraft(&v, 1.0, 98.5, -16.0, RENDER_GHOST_ALPHA);
    frame(&v);
    memcpy(g_before, g_px, sizeof g_px);
    RenderView w = render_fixture_view(0.0, 100.0, 0.0, 0.0f, 0.0f, 0.0);
    add_aircraft(&w, 1.0, 98.5, -16.0, RENDER_GHOST_ALPHA);
    add_aircraft(&w, 0.0, 98.0, -24.0, 1.0f);
    frame(&w);
    assert_memory_equal(g_px, g_before, sizeof g_px);
}

static void test_list_is_fixed(void **state) {
    (void)state;
    RenderView v = render_fixture_view(0.0, 100.0, 0.0, 0.0f, 0.0f, 0.0);
    for (int i = 0; i < RENDER_INSTANCES_MAX; i++) {
        RenderInstance *in = render_view_add(&v, RENDER_MODEL_AIRCRAFT);
        assert_non_null(in);
        assert_true(in->tint[0] == 1.0f && in->tint[1] == 1.0f && in->tint[2] == 1.0f && in->tint[3] == 1.0f);
        in->x = (double)(i % 4) * 3.0 - 4.5, in->y = 96.0 + (double)(i / 4) * 2.0, in->z = -30.0;
    }
    assert_null(render_view_add(&v, RENDER_MODEL_AIRCRAFT));
    assert_int_equal(v.instance_count, RENDER_INSTANCES_MAX);
    RenderView empty = render_fixture_view(0.0, 100.0, 0.0, 0.0f, 0.0f, 0.0);
    uint32_t none = frame(&empty);
    assert_int_equal(frame(&v), none + RENDER_INSTANCES_MAX);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ghost_one_call),
        cmocka_unit_test(test_every_instance_drawn_tinted),
        cmocka_unit_test(test_translucent_over_opaque_in_any_order),
        cmocka_unit_test(test_list_is_fixed),
    };
    return cmocka_run_group_tests(tests, setup, render_fixture_teardown);
}
