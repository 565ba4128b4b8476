/* Tests for the wide lattice (noise_*_w): no seam where a coordinate leaves its 64-bit frame
 * or a cell its 2^32-cell band, no repeat at the periods the 32-bit lattice had, the wide
 * calls at sign-extended coordinates equal to the NoiseFx ones, and rows far out equal to
 * their points on every path. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "noise/noise.h"

__extension__ typedef __int128 I128;
static I128 i128_of(NoiseWide w) { return (I128)(((unsigned __int128)(uint64_t)w.hi << 64) | w.lo); }
static NoiseWide wide_of(I128 v) {
    NoiseWide w = {(int64_t)(v >> 64), (uint64_t)v};
    return w;
}
static I128 cells(double c) { return (I128)(c * 4294967296.0); }   /* c cells as 32.32, |c| < 2^60 */
static I128 cells_i(int64_t c) { return (I128)c * ((I128)1 << 32); }

typedef enum Fn { FN_SIMPLEX3, FN_SIMPLEX2, FN_PERLIN3, FN_FBM3, FN_FBM2, FN_COUNT } Fn;
static const char *const fn_names[FN_COUNT] = {"simplex3", "simplex2", "perlin3", "fbm3", "fbm2"};

static float eval(Fn fn, uint32_t seed, I128 x, I128 y, I128 z) {
    NoiseWide wx = wide_of(x), wy = wide_of(y), wz = wide_of(z);
    switch (fn) {
    case FN_SIMPLEX3: return noise_simplex3_w(seed, wx, wy, wz);
    case FN_SIMPLEX2: return noise_simplex2_w(seed, wx, wy);
    case FN_PERLIN3: return noise_perlin3_w(seed, wx, wy, wz);
    case FN_FBM3: return noise_fbm3_w(seed, NULL, wx, wy, wz);
    default: return noise_fbm2_w(seed, NULL, wx, wy);
    }
}

/* The largest step between neighbours along a segment of `steps` samples 2^-10 cells apart
 * starting at p, moving along axis `axis` (3: all three at once). */
static double max_step(Fn fn, uint32_t seed, const I128 p[3], int axis, int steps) {
    const I128 d = (I128)1 << 22;   /* 2^-10 cell */
    double worst = 0.0;
    float prev = eval(fn, seed, p[0], p[1], p[2]);
    for (int i = 1; i <= steps; i++) {
        I128 q[3] = {p[0], p[1], p[2]};
        for (int a = 0; a < 3; a++)
            if (axis == a || axis == 3) q[a] += d * i;
        float v = eval(fn, seed, q[0], q[1], q[2]);
        double s = fabs((double)v - (double)prev);
        if (s > worst) worst = s;
        prev = v;
    }
    return worst;
}

/* The bound: the largest neighbour step over segments near the origin. */
static double control_bound(Fn fn) {
    Rng r;
    rng_seed(&r, 0xb0u + (uint64_t)fn, 2);
    double worst = 0.0;
    for (int it = 0; it < 96; it++) {
        I128 p[3] = {cells((rng_double01(&r) - 0.5) * 1e5), cells((rng_double01(&r) - 0.5) * 1e5),
                     cells((rng_double01(&r) - 0.5) * 1e5)};
        double s = max_step(fn, 7u + (uint32_t)it, p, it % 4, 4096);
        if (s > worst) worst = s;
    }
    return worst;
}

/* Segments 4 cells long (2048 steps either side) centred on the places where the 32-bit lattice
 * jumped or repeated: coordinates crossing an odd multiple of 2^31 cells (the frame edges of a
 * 64-bit value), skewed cells crossing 2^31 + k * 2^32 (the band edges), on each axis and
 * diagonally, up to 2^46 cells out (a world's 2^42 blocks at its finest octave). */
static void test_no_seam_at_frame_and_band_edges(void **state) {
    (void)state;
    for (int fn = 0; fn < FN_COUNT; fn++) {
        double bound = control_bound((Fn)fn);
        double worst = 0.0;
        int segments = 0;
        static const int64_t ks[] = {0, 1, -1, 2, -3, 1000, -77777, 1 << 14};
        for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
            int64_t edge = (2 * ks[ki] + 1) * ((int64_t)1 << 31);   /* cells */
            for (int axis = 0; axis < 4; axis++) {
                int ax = axis == 3 ? 0 : axis;
                if (fn == FN_SIMPLEX2 || fn == FN_FBM2) {
                    if (ax == 2) continue;
                }
                /* Frame edge of the plain coordinate on axis ax. */
                I128 p[3] = {cells(0.3), cells(-0.45), cells(0.61)};
                p[ax] = cells_i(edge) - cells(2.0);
                if (axis == 3) p[1] = p[2] = p[0];
                double s = max_step((Fn)fn, 11u, p, axis, 4096);
                worst = s > worst ? s : worst;
                segments++;
                /* Band edge of the skewed cell: along x with y, z at 0.2 cells, the simplex
                 * skewed x cell is about x * 4/3 (3D) or x * (1 + 2 * 0.366) (2D); put the segment
                 * where it crosses `edge`. Perlin's band edge is its frame edge. */
                if (fn == FN_PERLIN3 || axis != 0) continue;
                double k = fn == FN_SIMPLEX2 || fn == FN_FBM2 ? 1.7320508075688772 : 4.0 / 3.0;
                I128 q[3] = {cells((double)edge / k) - cells(2.0), cells(0.2), cells(0.2)};
                s = max_step((Fn)fn, 11u, q, 0, 4096);
                worst = s > worst ? s : worst;
                segments++;
            }
        }
        printf("%-9s %d segments across frame and band edges: largest neighbour step %.5f, near the origin %.5f\n",
               fn_names[fn], segments, worst, bound);
        assert_true(bound > 0.0);
        assert_true(worst <= 1.25 * bound);
    }
}

/* The 32-bit lattice repeated every 2^32 cells (Perlin, and simplex along its skewed axes:
 * 3 * 2^32 cells along x); the wide one does not: the field there is unrelated. */
static void test_no_repeat_at_old_periods(void **state) {
    (void)state;
    static const I128 shifts_cells[] = {(I128)1 << 32, (I128)3 << 32, (I128)1 << 40};
    for (int fn = 0; fn < FN_COUNT; fn++) {
        for (size_t si = 0; si < sizeof shifts_cells / sizeof shifts_cells[0]; si++) {
            Rng r;
            rng_seed(&r, 0x9e71u + (uint64_t)fn * 16u + si, 4);
            double diff = 0.0;
            int n = 2000;
            for (int i = 0; i < n; i++) {
                I128 x = cells((rng_double01(&r) - 0.5) * 1e6), y = cells((rng_double01(&r) - 0.5) * 1e6);
                I128 z = cells((rng_double01(&r) - 0.5) * 1e6);
                float a = eval((Fn)fn, 5u, x, y, z), b = eval((Fn)fn, 5u, x + (shifts_cells[si] << 32), y, z);
                diff += fabs((double)a - (double)b);
            }
            diff /= n;
            printf("%-9s shifted 2^%.1f cells along x: mean |difference| %.3f\n", fn_names[fn],
                   log2((double)shifts_cells[si]), diff);
            assert_true(diff > 0.08);
        }
    }
}

/* Near the origin the wide calls are the NoiseFx calls (the world's goldens stay): every
 * function at sign-extended coordinates, bit for bit. */
static void test_sign_extended_is_plain(void **state) {
    (void)state;
    Rng r;
    rng_seed(&r, 0x51u, 6);
    for (int i = 0; i < 20000; i++) {
        NoiseFx x = (NoiseFx)((uint64_t)rng_u32(&r) << 32 | rng_u32(&r)) >> 8;
        NoiseFx y = (NoiseFx)((uint64_t)rng_u32(&r) << 32 | rng_u32(&r)) >> 8;
        NoiseFx z = (NoiseFx)((uint64_t)rng_u32(&r) << 32 | rng_u32(&r)) >> 8;
        uint32_t s = rng_u32(&r);
        NoiseWide wx = noise_wide_from_fx(x), wy = noise_wide_from_fx(y), wz = noise_wide_from_fx(z);
        float a[5] = {noise_simplex3(s, x, y, z), noise_simplex2(s, x, y), noise_perlin3(s, x, y, z),
                      noise_fbm3(s, NULL, x, y, z), noise_fbm2(s, NULL, x, y)};
        float b[5] = {noise_simplex3_w(s, wx, wy, wz), noise_simplex2_w(s, wx, wy), noise_perlin3_w(s, wx, wy, wz),
                      noise_fbm3_w(s, NULL, wx, wy, wz), noise_fbm2_w(s, NULL, wx, wy)};
        assert_memory_equal(a, b, sizeof a);
    }
}

/* The wide helpers: freq * block exact for any int64 block, additions carrying. */
static void test_wide_helpers(void **state) {
    (void)state;
    NoiseFx f = noise_fx_from_double(0.0371);
    static const int64_t blocks[] = {0, 1, -1, 1234567, -((int64_t)1 << 42), (int64_t)1 << 42, INT64_MAX, INT64_MIN};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
        NoiseWide w = noise_wide_mul_int(f, blocks[i]);
        assert_true(i128_of(w) == (I128)f * (I128)blocks[i]);
        assert_true(w.lo == (uint64_t)noise_fx_mul_int(f, blocks[i]));
        NoiseWide a = noise_wide_add(w, -f), b = noise_wide_add(w, INT64_MAX);
        assert_true(i128_of(a) == i128_of(w) - f);
        assert_true(i128_of(b) == i128_of(w) + INT64_MAX);
    }
    assert_true(i128_of(noise_wide_from_fx(-5)) == -5);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wide_helpers),
        cmocka_unit_test(test_sign_extended_is_plain),
        cmocka_unit_test(test_no_seam_at_frame_and_band_edges),
        cmocka_unit_test(test_no_repeat_at_old_periods),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
