/* Render tests for the ghost: a course's best run drawn as a translucent aircraft is
 * one more draw call than the frame without it, whether the player's aircraft is drawn or not,
 * and it shows where it flies (pixels change there, not elsewhere). */
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
    (void)state;
    RenderSettings s;
    render_settings_default(&s);
    s.lines = 0;
    s.fog = false;
    s.max_chunks = 16;
    return render_fixture_open(&g_fx, "skyisles ghost test", W, H, 32u << 20, &s) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    render_fixture_close(&g_fx);
    return 0;
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

static void test_ghost_one_call(void **state) {
    (void)state;
    render_rings_set(g_fx.render, NULL, 0);
    RenderView v = render_fixture_view(0.0, 100.0, 0.0, 0.0f, 0.0f, 0.0);
    for (int air = 0; air < 2; air++) {
        v.aircraft_visible = air != 0;
        v.air_x = 6.0, v.air_y = 98.0, v.air_z = -20.0;   /* right of the centre, 20 m ahead */
        v.ghost_visible = false;
        uint32_t without = frame(&v);
        memcpy(g_before, g_px, sizeof g_px);
        /* The ghost left of the centre, 15 m ahead, heading away from the camera. */
        v.ghost_visible = true;
        v.ghost_x = -4.0, v.ghost_y = 99.0, v.ghost_z = -15.0;
        v.ghost_yaw = 0.0f, v.ghost_pitch = 0.0f, v.ghost_roll = 0.0f;
        uint32_t with = frame(&v);
        printf("  aircraft %s: %u draw calls, with the ghost %u; %d pixels changed left, %d right\n",
               air ? "drawn" : "hidden", without, with, changed_in(0, 0, W / 2 - 4, H), changed_in(W / 2 + 12, 0, W, H));
        assert_int_equal(with, without + 1u);
        assert_true(changed_in(0, 0, W / 2 - 4, H) > 20);
        assert_int_equal(changed_in(W / 2 + 12, 0, W, H), 0);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ghost_one_call),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
