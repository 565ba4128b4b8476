/* Render tests for the sky dome (S1-S3): the GPU's FBM, read back per pixel, against the CPU
 * reference noise_sky_value3_periodic along the same view rays; drift with time; both paths. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cglm/cglm.h>

#include "noise/noise.h"
#include "platform.h"
#include "render/render.h"
#include "support_gl/render_fixture.h"

#define W 128
#define H 96

static RenderFixture g_fx;
static uint8_t g_px[W * H * 4];

static int setup(void **state) {
    /* straight to the screen (no PSX lines): read back exactly what the dome wrote */
    RenderSettings s = render_fixture_settings(0, 16);
    return render_fixture_setup(state, &g_fx, "skyisles test", W, H, 32u << 20, &s);
}

/* The CPU reference: n = fbm(rel * 0.002 + base), base the offset of camera and time (the
 * seed's cam * 0.002 + time * 0.02, y also moved by x and z: render_sky_base), 5 octaves of the
 * period-32 value noise, each octave's lattice wrapped (as the baked texture is). */
static double cpu_fbm_at(const double rel[3], double cx, double cy, double cz, double time_s) {
    double base[3];
    render_sky_base(cx, cy, cz, time_s, base);
    double sum = 0.0, amp = 0.5, freq = 1.0;
    for (int k = 0; k < RENDER_SKY_OCTAVES; k++, amp *= 0.5, freq *= 2.0) {
        float p[3];
        for (int a = 0; a < 3; a++) {
            double q = (rel[a] * RENDER_SKY_SCALE * RENDER_SKY_RADIUS + base[a]) * freq;
            q = fmod(q, (double)RENDER_SKY_PERIOD);
            if (q < 0) q += RENDER_SKY_PERIOD;
            p[a] = (float)q;
        }
        sum += amp * noise_sky_value3_periodic(p[0], p[1], p[2], RENDER_SKY_PERIOD);
    }
    return sum;
}

static double cpu_fbm(const double rel[3], const RenderView *v) {
    return cpu_fbm_at(rel, v->cam_x, v->cam_y, v->cam_z, v->time_s);
}

typedef struct DomeError {
    double mean, p99, max;
} DomeError;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Renders the raw FBM and compares every pixel with the CPU along the pixel's view ray. */
static DomeError compare_dome(const RenderView *v) {
    render_frame_sky_debug(g_fx.render, v, W, H);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
    assert_true(render_read_pixels(W, H, g_px));
    float vp[16];
    render_last_viewproj(g_fx.render, vp);
    mat4 m, inv;
    memcpy(m, vp, sizeof m);
    glm_mat4_inv(m, inv);
    static double err[W * H];
    double sum = 0.0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            /* read_pixels returns the top row first */
            vec4 ndc = {((float)x + 0.5f) / W * 2.0f - 1.0f, 1.0f - ((float)y + 0.5f) / H * 2.0f, 1.0f, 1.0f}, p;
            glm_mat4_mulv(inv, ndc, p);
            double d[3] = {p[0] / p[3], p[1] / p[3], p[2] / p[3]};
            double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            for (int a = 0; a < 3; a++) d[a] /= len;
            double gpu = g_px[(y * W + x) * 4] / 255.0;
            double e = fabs(gpu - cpu_fbm(d, v));
            err[y * W + x] = e;
            sum += e;
        }
    qsort(err, W * H, sizeof err[0], cmp_double);
    DomeError r = {sum / (W * H), err[(int)(0.99 * (W * H - 1))], err[W * H - 1]};
    printf("dome vs CPU (cam %.1f,%.1f,%.1f t=%.1f): mean %.4f p99 %.4f max %.4f\n", v->cam_x, v->cam_y, v->cam_z,
           v->time_s, r.mean, r.p99, r.max);
    return r;
}

static RenderView view(double x, double y, double z, float yaw_deg, float pitch_deg, double t) {
    return render_fixture_view(x, y, z, yaw_deg, pitch_deg, t);
}

/* Tolerance: the lattice is baked to 8 bits (<= 0.002 on the sum), the output is 8 bits, and
 * the dome is a tessellated sphere (chord vs ray: a few thousandths at the finest octave). */
#define DOME_MEAN_TOL 0.004
#define DOME_P99_TOL 0.012
#define DOME_MAX_TOL 0.03

static void assert_dome_matches(const RenderView *v) {
    DomeError e = compare_dome(v);
    assert_true(e.mean < DOME_MEAN_TOL);
    assert_true(e.p99 < DOME_P99_TOL);
    assert_true(e.max < DOME_MAX_TOL);
}

static void test_dome_matches_cpu_looking_up(void **state) {
    (void)state;
    RenderView v = view(0.0, 60.0, 0.0, 20.0f, 55.0f, 0.0);
    assert_dome_matches(&v);
}

static void test_dome_matches_cpu_far_from_origin(void **state) {
    (void)state;
    /* Large camera offsets and times: the per-octave split keeps the shader's numbers small. */
    RenderView v = view(123456.7, 90.0, -654321.2, 135.0f, 12.0f, 98765.4);
    assert_dome_matches(&v);
}

static void test_dome_matches_cpu_mediump_path(void **state) {
    (void)state;
    RenderSettings s = *render_settings(g_fx.render);
    s.live.sky_force_mediump = true;
    render_apply_settings(g_fx.render, &s);
    assert_false(render_stats(g_fx.render).sky_highp);
    RenderView v = view(-4321.0, 70.0, 987.0, -60.0f, 30.0f, 321.0);
    assert_dome_matches(&v);
    s.live.sky_force_mediump = false;
    render_apply_settings(g_fx.render, &s);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
}

static void test_dome_clouds_drift_with_time(void **state) {
    (void)state;
    static uint8_t a[W * H * 4];
    RenderView v = view(0.0, 60.0, 0.0, 0.0f, 40.0f, 10.0);
    render_frame_sky_debug(g_fx.render, &v, W, H);
    assert_true(render_read_pixels(W, H, a));
    v.time_s = 40.0;   /* 0.6 lattice units of drift at the first octave */
    render_frame_sky_debug(g_fx.render, &v, W, H);
    assert_true(render_read_pixels(W, H, g_px));
    double diff = 0.0;
    for (int i = 0; i < W * H; i++) diff += abs((int)a[i * 4] - (int)g_px[i * 4]);
    diff /= W * H;
    printf("mean change of n over 30 s: %.2f / 255\n", diff);
    assert_true(diff > 4.0);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
}

static void test_dome_offsets_split(void **state) {
    (void)state;
    float frac[15], cell[15];
    render_sky_offsets(1000.0, 50.0, -2000.0, 100.0, frac, cell);
    /* octave 0, x: 1000 * 0.002 + 100 * 0.02 = 4.0 -> cell 4, fraction 0 */
    assert_float_equal(frac[0], 0.0f, 1e-6f);
    assert_float_equal(cell[0], 4.0f, 0.0f);
    /* octave 0, z: -4 + 2 = -2 -> cell 30 (wrapped), fraction 0 */
    assert_float_equal(cell[2], 30.0f, 0.0f);
    /* octave 1, y: (0.1 + (1000 * 0.204123 - 2000 * 0.428457) * 0.002 + 2 * 1.618034) * 2
     * = 2.030486 * 2 = 4.060972 -> cell 4, fraction 0.060972 */
    assert_float_equal(cell[4], 4.0f, 0.0f);
    assert_float_equal(frac[4], 0.060972f, 1e-5f);
    for (int i = 0; i < 15; i++) {
        assert_true(frac[i] >= 0.0f && frac[i] < 1.0f);
        assert_true(cell[i] >= 0.0f && cell[i] < RENDER_SKY_PERIOD);
    }
}

/* The wrapped lattice repeats every 32 units: flying 16 km (32 / 0.002 m) along x or z, or
 * 1600 s of drift, once gave the same sky. Now the clouds there differ as much as anywhere. */
static void test_dome_clouds_never_repeat(void **state) {
    (void)state;
    const double period_m = RENDER_SKY_PERIOD / RENDER_SKY_SCALE, period_s = RENDER_SKY_PERIOD / RENDER_SKY_DRIFT;
    const double moves[5][4] = {{period_m, 0, 0, 0}, {0, 0, period_m, 0}, {0, 0, 0, period_s},
                                {2 * period_m, 0, 3 * period_m, 0}, {-5 * period_m, 0, 4 * period_m, 0}};
    for (int m = 0; m < 5; m++) {
        double diff = 0.0;
        int n = 0;
        for (int i = 0; i < 24; i++)
            for (int j = 1; j < 8; j++) {
                double az = i * 0.2618, el = j * 0.19;
                double rel[3] = {cos(el) * cos(az), sin(el), cos(el) * sin(az)};
                double a = cpu_fbm_at(rel, 500.0, 120.0, -300.0, 50.0);
                double b = cpu_fbm_at(rel, 500.0 + moves[m][0], 120.0 + moves[m][1], -300.0 + moves[m][2],
                                      50.0 + moves[m][3]);
                diff += fabs(a - b);
                n++;
            }
        printf("move %d: mean |n - n'| one period on = %.3f\n", m, diff / n);
        assert_true(diff / n > 0.03);   /* fbm values spread ~0.1 about their mean */
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dome_offsets_split),
        cmocka_unit_test(test_dome_matches_cpu_looking_up),
        cmocka_unit_test(test_dome_matches_cpu_far_from_origin),
        cmocka_unit_test(test_dome_matches_cpu_mediump_path),
        cmocka_unit_test(test_dome_clouds_drift_with_time),
        cmocka_unit_test(test_dome_clouds_never_repeat),
    };
    return cmocka_run_group_tests(tests, setup, render_fixture_teardown);
}
