/* Render tests for the weather's picture (src/render/rain.c): rain streaks are present in rain
 * and absent in clear weather (pixels against the same view without weather), one draw call; a
 * lightning strike lights the frame for the steps of its flash and the frame is back after. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "sim/sim.h"
#include "support_gl/render_fixture.h"

#define W 160
#define H 120
#define SEED 20261129ULL

static RenderFixture g_fx;
static uint8_t g_base[W * H * 4], g_px[W * H * 4];

static int setup(void **state) {
    RenderSettings s = render_fixture_settings(RENDER_LINES_DEFAULT, 16);
    return render_fixture_setup(state, &g_fx, "skyisles test", W, H, 32u << 20, &s);
}

static RenderStats draw(const RenderView *v, uint8_t *out) {
    render_fixture_frame(&g_fx, v, W, H, out);
    return render_stats(g_fx.render);
}

/* Pixels where two frames differ by more than 6 in some channel (a streak over the sky, not dither: the same frame repeats to the bit). */
static int differing(const uint8_t *a, const uint8_t *b) {
    int n = 0;
    for (int i = 0; i < W * H; i++) {
        const uint8_t *p = a + (size_t)i * 4, *q = b + (size_t)i * 4;
        if (abs(p[0] - q[0]) > 6 || abs(p[1] - q[1]) > 6 || abs(p[2] - q[2]) > 6) n++;
    }
    return n;
}

static double mean_light(const uint8_t *a) {
    double s = 0.0;
    for (int i = 0; i < W * H; i++) s += a[(size_t)i * 4] + a[(size_t)i * 4 + 1] + a[(size_t)i * 4 + 2];
    return s / (3.0 * W * H);
}

static void test_rain_present_in_rain_absent_in_clear(void **state) {
    (void)state;
    RenderView v = render_fixture_view(0.0, 150.0, 0.0, 30.0f, -10.0f, 12.5);
    RenderStats none = draw(&v, g_base);
    weather_eval(SEED, WEATHER_CLEAR, v.cam_x, v.cam_z, weather_step_of(v.time_s), &v.weather);
    RenderStats clear = draw(&v, g_px);
    int clear_diff = differing(g_base, g_px);
    weather_eval(SEED, WEATHER_RAIN, v.cam_x, v.cam_z, weather_step_of(v.time_s), &v.weather);
    v.weather.fog = 0.0f;   /* the streaks alone: the rain's own fog stays */
    RenderStats rain = draw(&v, g_px);
    int rain_diff = differing(g_base, g_px);
    printf("  clear: %d pixels differ, %u draw calls; rain %.2f: %d pixels differ, %u draw calls (none: %u)\n",
           clear_diff, clear.draw_calls, (double)v.weather.rain, rain_diff, rain.draw_calls, none.draw_calls);
    assert_int_equal(clear_diff, 0);
    assert_int_equal(clear.draw_calls, none.draw_calls);
    assert_true(rain_diff > W * H / 100);
    assert_int_equal(rain.draw_calls, none.draw_calls + 1);
    /* the streaks fall: a second later other pixels are streaks */
    memcpy(g_base, g_px, sizeof g_px);
    v.time_s += 1.0;
    draw(&v, g_px);
    assert_true(differing(g_base, g_px) > W * H / 200);
}

/* The first strike of a storm: the frames of its WEATHER_FLASH_STEPS steps are brighter than the
 * step before it (the first by far), and the step after its last is back to that. */
static void test_lightning_lights_a_few_frames(void **state) {
    (void)state;
    WeatherState w;
    uint64_t start = 0;
    for (uint64_t s = 1; s < 60000 && !start; s++) {
        weather_eval(SEED, WEATHER_STORM, 0.0, 0.0, s, &w);
        if (w.flash_id && w.flash_age == 0) start = s;
    }
    assert_true(start > 0);
    RenderView v = render_fixture_view(0.0, 150.0, 0.0, 30.0f, 0.0f, 12.5);
    double light[WEATHER_FLASH_STEPS + 2];
    for (uint32_t i = 0; i < WEATHER_FLASH_STEPS + 2; i++) {
        weather_eval(SEED, WEATHER_STORM, 0.0, 0.0, start - 1 + i, &v.weather);
        v.weather.rain = 0.0f;   /* the flash alone (the time is held: the sky does not drift) */
        draw(&v, g_px);
        light[i] = mean_light(g_px);
        printf("  step %+d: flash %.2f, mean light %.1f\n", (int)i - 1, (double)v.weather.flash, light[i]);
    }
    assert_true(light[1] > light[0] + 15.0);
    int lit = 0;
    for (uint32_t i = 1; i <= WEATHER_FLASH_STEPS; i++) lit += light[i] > light[0] + 3.0;
    assert_true(lit >= 3);
    assert_true(fabs(light[WEATHER_FLASH_STEPS + 1] - light[0]) < 0.5);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rain_present_in_rain_absent_in_clear),
        cmocka_unit_test(test_lightning_lights_a_few_frames),
    };
    return cmocka_run_group_tests(tests, setup, render_fixture_teardown);
}
