/* Tests for the noise fields themselves: output ranges, mean near zero and spread, no seams
 * at lattice and simplex borders (a Lipschitz bound across every crossing), the 32.32
 * coordinate helpers, FBM identities, and seed 001's sky value noise. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "noise/noise.h"
#include "noise/noise_internal.h"   /* white box: the integer skew, to find simplex borders */

typedef enum Fn { FN_SIMPLEX3, FN_SIMPLEX2, FN_PERLIN3, FN_RIDGE3, FN_FBM3, FN_FBM2, FN_RIDGE_FBM3, FN_COUNT } Fn;
static const char *const fn_names[FN_COUNT] = {"simplex3", "simplex2", "perlin3", "ridge3", "fbm3", "fbm2", "ridge_fbm3"};

static float eval(Fn fn, uint32_t seed, NoiseFx x, NoiseFx y, NoiseFx z) {
    switch (fn) {
    case FN_SIMPLEX3: return noise_simplex3(seed, x, y, z);
    case FN_SIMPLEX2: return noise_simplex2(seed, x, y);
    case FN_PERLIN3: return noise_perlin3(seed, x, y, z);
    case FN_RIDGE3: return noise_ridge3(seed, x, y, z);
    case FN_FBM3: return noise_fbm3(seed, NULL, x, y, z);
    case FN_FBM2: return noise_fbm2(seed, NULL, x, y);
    default: return noise_ridge_fbm3(seed, NULL, x, y, z);
    }
}

static void eval_row(Fn fn, uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z, float *out, int n) {
    switch (fn) {
    case FN_SIMPLEX3: noise_simplex3_row(seed, x0, dx, y, z, out, n); break;
    case FN_SIMPLEX2: noise_simplex2_row(seed, x0, dx, y, out, n); break;
    case FN_PERLIN3: noise_perlin3_row(seed, x0, dx, y, z, out, n); break;
    case FN_RIDGE3: noise_ridge3_row(seed, x0, dx, y, z, out, n); break;
    case FN_FBM3: noise_fbm3_row(seed, NULL, x0, dx, y, z, out, n); break;
    case FN_FBM2: noise_fbm2_row(seed, NULL, x0, dx, y, out, n); break;
    default: noise_ridge_fbm3_row(seed, NULL, x0, dx, y, z, out, n); break;
    }
}

static NoiseFx rand_fx(Rng *r, double span) { return noise_fx_from_double((rng_double01(r) - 0.5) * span); }

/* ---------------------------------------------------------------- range, mean, spread */
typedef struct Expect { double lo, hi, sd_min, sd_max, reach; } Expect;

static void check_distribution(Fn fn, Expect e) {
    Rng r;
    rng_seed(&r, 77 + (uint64_t)fn, 1);
    double sum = 0.0, sum2 = 0.0, mn = 1e9, mx = -1e9;
    long n = 0;
    float out[64];
    for (int row = 0; row < 12000; row++) {
        /* Rows at unrelated places, 1.37 cells apart along x: nearly independent samples. */
        NoiseFx x0 = rand_fx(&r, 1e6), y = rand_fx(&r, 1e6), z = rand_fx(&r, 1e6);
        eval_row(fn, rng_u32(&r), x0, noise_fx_from_double(1.37), y, z, out, 64);
        for (int i = 0; i < 64; i++) {
            double v = out[i];
            assert_true(isfinite(v));
            sum += v; sum2 += v * v;
            if (v < mn) mn = v;
            if (v > mx) mx = v;
            n++;
        }
    }
    double mean = sum / (double)n, sd = sqrt(sum2 / (double)n - mean * mean);
    printf("%-10s n=%ld min %.4f max %.4f mean %+.5f sd %.4f\n", fn_names[fn], n, mn, mx, mean, sd);
    assert_true(mn >= e.lo && mx <= e.hi);
    assert_true(sd >= e.sd_min && sd <= e.sd_max);
    /* Signed fields have a zero mean; the calibrated scale really uses the range. */
    if (e.lo < 0.0) {
        assert_true(fabs(mean) < 0.01);
        assert_true(mx >= e.reach && mn <= -e.reach);
    } else {
        assert_true(mx >= e.reach);
    }
}

static void test_simplex3_distribution(void **s) { (void)s; check_distribution(FN_SIMPLEX3, (Expect){-1, 1, 0.30, 0.50, 0.9}); }
static void test_simplex2_distribution(void **s) { (void)s; check_distribution(FN_SIMPLEX2, (Expect){-1, 1, 0.45, 0.65, 0.95}); }
static void test_perlin3_distribution(void **s) { (void)s; check_distribution(FN_PERLIN3, (Expect){-1, 1, 0.20, 0.32, 0.75}); }
static void test_ridge3_distribution(void **s) { (void)s; check_distribution(FN_RIDGE3, (Expect){0, 1, 0.15, 0.35, 0.999}); }
static void test_fbm3_distribution(void **s) { (void)s; check_distribution(FN_FBM3, (Expect){-1, 1, 0.15, 0.35, 0.6}); }
static void test_fbm2_distribution(void **s) { (void)s; check_distribution(FN_FBM2, (Expect){-1, 1, 0.25, 0.50, 0.7}); }

/* ---------------------------------------------------------------- seams */
/* Which lattice piece a point lies in: the (skewed) cell, plus the simplex inside it. */
static uint64_t piece_id(Fn fn, NoiseFx x, NoiseFx y, NoiseFx z) {
    if (fn == FN_PERLIN3)
        return hash_u32(noise_fx_hi((uint64_t)x)) ^ ((uint64_t)noise_fx_hi((uint64_t)y) << 20) ^
               ((uint64_t)noise_fx_hi((uint64_t)z) << 40);
    bool two_d = fn == FN_SIMPLEX2 || fn == FN_FBM2;
    uint32_t f = two_d ? NOISE_F2_FX : NOISE_F3_FX;
    uint64_t s = noise_skew_part((uint64_t)x, f) + noise_skew_part((uint64_t)y, f);
    if (!two_d) s += noise_skew_part((uint64_t)z, f);
    uint64_t sx = (uint64_t)x + s, sy = (uint64_t)y + s, sz = two_d ? 0 : (uint64_t)z + s;
    uint32_t fx = noise_fx_lo(sx) >> 8, fy = noise_fx_lo(sy) >> 8, fz = noise_fx_lo(sz) >> 8;
    uint64_t order = (uint64_t)(fx >= fy) | (uint64_t)(fy >= fz) << 1 | (uint64_t)(fx >= fz) << 2;
    return hash_u32(noise_fx_hi(sx)) ^ ((uint64_t)noise_fx_hi(sy) << 21) ^ ((uint64_t)noise_fx_hi(sz) << 42) ^
           (order << 61);
}

static void random_point(Rng *r, bool fbm, NoiseFx p[3]) {
    for (int a = 0; a < 3; a++) {
        switch (rng_below(r, 3)) {
        case 0: p[a] = rand_fx(r, 200.0); break;
        case 1: p[a] = noise_fx_mul_int(noise_fx_from_double(0.04), rng_range(r, -(1 << 24), 1 << 24)); break;
        default:
            /* Near 1.6e9 cells the skewed coordinates pass the 2^31-cell wrap of the hashes
             * (FBM octaves would leave the documented range there, so they stay near). */
            p[a] = fbm ? rand_fx(r, 1e6) : (NoiseFx)0x5fffffff * NOISE_FX_ONE + rand_fx(r, 8.0);
            break;
        }
    }
}

/* Steps of h = 2^-12 cell must stay within slope * h. Each trial walks from a random point
 * in coarse steps until the lattice piece changes, bisects down to the h-wide interval that
 * holds the border, and compares the two sides; a few plain steps follow. A seam (a corner
 * contribution that does not reach zero at a simplex face, a lattice mismatch at a cell
 * face) is a jump far above the bound. */
static void check_seams(Fn fn, double slope, int trials) {
    Rng r;
    rng_seed(&r, 1234 + (uint64_t)fn, 2);
    const NoiseFx h = (NoiseFx)1 << 20, coarse = (NoiseFx)1 << 28;
    const double bound = slope * noise_fx_to_double(h);
    bool fbm = fn == FN_FBM3 || fn == FN_FBM2 || fn == FN_RIDGE_FBM3;
    int axes = fn == FN_SIMPLEX2 || fn == FN_FBM2 ? 2 : 3;
    long crossings = 0, steps = 0;
    double worst = 0.0;
    for (int t = 0; t < trials; t++) {
        NoiseFx p[3];
        random_point(&r, fbm, p);
        int axis = (int)rng_below(&r, (uint32_t)axes);
        uint64_t id = piece_id(fn, p[0], p[1], p[2]);
        NoiseFx lo = p[axis], hi = lo;
        for (int i = 0; i < 64; i++) {
            hi += coarse;
            p[axis] = hi;
            if (piece_id(fn, p[0], p[1], p[2]) != id) break;
            lo = hi;
        }
        while (hi - lo > h) {   /* keep lo in the first piece, hi in the next */
            NoiseFx mid = lo + (hi - lo) / 2;
            p[axis] = mid;
            if (piece_id(fn, p[0], p[1], p[2]) == id) lo = mid;
            else hi = mid;
        }
        p[axis] = lo;
        float a = eval(fn, 5, p[0], p[1], p[2]);
        p[axis] = lo + h;
        float b = eval(fn, 5, p[0], p[1], p[2]);
        if (piece_id(fn, p[0], p[1], p[2]) != id) crossings++;
        for (int i = 0; i <= 8; i++) {
            double d = fabs((double)b - (double)a);
            if (d > worst) worst = d;
            if (d > bound)
                printf("  %s jump %.6f > %.6f at (%.6f, %.6f, %.6f)\n", fn_names[fn], d, bound,
                       noise_fx_to_double(p[0]), noise_fx_to_double(p[1]), noise_fx_to_double(p[2]));
            assert_true(d <= bound);
            steps++;
            a = b;
            p[axis] += h;
            b = eval(fn, 5, p[0], p[1], p[2]);
        }
    }
    printf("%-10s %ld steps of 2^-12 cell, %ld across borders, largest step %.6f (bound %.6f)\n", fn_names[fn],
           steps, crossings, worst, bound);
    assert_true(crossings >= trials * 9L / 10);
}

static void test_simplex3_no_seams(void **s) { (void)s; check_seams(FN_SIMPLEX3, 10.0, 20000); }
static void test_simplex2_no_seams(void **s) { (void)s; check_seams(FN_SIMPLEX2, 10.0, 20000); }
static void test_perlin3_no_seams(void **s) { (void)s; check_seams(FN_PERLIN3, 4.0, 20000); }
static void test_ridge3_no_seams(void **s) { (void)s; check_seams(FN_RIDGE3, 10.0, 20000); }
static void test_fbm3_no_seams(void **s) { (void)s; check_seams(FN_FBM3, 24.0, 5000); }
static void test_fbm2_no_seams(void **s) { (void)s; check_seams(FN_FBM2, 24.0, 5000); }

/* Across an integer cell face the two sides are one fraction unit (2^-24 cell) apart. */
static void test_cell_faces_are_continuous(void **state) {
    (void)state;
    Rng r;
    rng_seed(&r, 99, 4);
    const NoiseFx unit = 1 << 8;
    for (int i = 0; i < 20000; i++) {
        NoiseFx c = noise_fx_from_int(rng_range(&r, -(1 << 30), 1 << 30));
        NoiseFx y = rand_fx(&r, 1000.0), z = rand_fx(&r, 1000.0);
        for (int fn = FN_SIMPLEX3; fn <= FN_PERLIN3; fn++) {
            float a = eval((Fn)fn, 3, c - unit, y, z), b = eval((Fn)fn, 3, c, y, z);
            float a2 = eval((Fn)fn, 3, y, c - unit, z), b2 = eval((Fn)fn, 3, y, c, z);
            assert_true(fabsf(a - b) < 1e-5f);
            assert_true(fabsf(a2 - b2) < 1e-5f);
        }
    }
}

/* ---------------------------------------------------------------- seeds and identities */
static void test_seeds_give_different_fields(void **state) {
    (void)state;
    NoiseFx f = noise_fx_from_double(0.0371);
    int same = 0;
    for (int i = 0; i < 1000; i++) {
        NoiseFx x = noise_fx_mul_int(f, i), y = noise_fx_mul_int(f, 3 * i);
        float a = noise_simplex3(1, x, y, 0), b = noise_simplex3(2, x, y, 0);
        float c = noise_simplex3(1, x, y, 0);
        assert_memory_equal(&a, &c, sizeof a);   /* same seed, same bits */
        if (fabsf(a - b) < 1e-3f) same++;
    }
    assert_true(same < 50);
}

/* One octave of FBM is the plain noise; ridge is 1 - |n|. */
static void test_fbm_identities(void **state) {
    (void)state;
    Rng r;
    rng_seed(&r, 5, 5);
    NoiseFbm one = {1, 0.5f, 2.0f};
    for (int i = 0; i < 10000; i++) {
        NoiseFx x = rand_fx(&r, 1e5), y = rand_fx(&r, 1e5), z = rand_fx(&r, 1e5);
        uint32_t seed = rng_u32(&r);
        float s3 = noise_simplex3(seed, x, y, z), f3 = noise_fbm3(seed, &one, x, y, z);
        float s2 = noise_simplex2(seed, x, y), f2 = noise_fbm2(seed, &one, x, y);
        assert_memory_equal(&s3, &f3, sizeof s3);
        assert_memory_equal(&s2, &f2, sizeof s2);
        float rd = noise_ridge3(seed, x, y, z), expect = 1.0f - fabsf(s3);
        assert_memory_equal(&rd, &expect, sizeof rd);
        float rf = noise_ridge_fbm3(seed, NULL, x, y, z), fb = 1.0f - fabsf(noise_fbm3(seed, NULL, x, y, z));
        assert_memory_equal(&rf, &fb, sizeof rf);
    }
    /* NULL means the defaults; octave counts are clamped to 1..max. */
    NoiseFbm d = noise_fbm_default(), zero = {0, 0.5f, 2.0f}, many = {100, 0.5f, 2.0f}, max = {NOISE_FBM_MAX_OCTAVES, 0.5f, 2.0f};
    assert_int_equal(d.octaves, 5);
    NoiseFx x = noise_fx_from_double(12.34), y = noise_fx_from_double(-5.6);
    assert_true(noise_fbm3(9, NULL, x, y, x) == noise_fbm3(9, &d, x, y, x));
    assert_true(noise_fbm3(9, &zero, x, y, x) == noise_simplex3(9, x, y, x));
    assert_true(noise_fbm2(9, &many, x, y) == noise_fbm2(9, &max, x, y));
}

/* Octave scaling: the shift used for power-of-two lacunarities equals the fixed-point
 * product, and the portable 128-bit product matches the compiler's where it has one. */
static void test_octave_scaling(void **state) {
    (void)state;
    Rng r;
    rng_seed(&r, 6, 6);
    NoiseFbmPlan p2, p4, p187;
    NoiseFbm f2 = {8, 0.5f, 2.0f}, f4 = {8, 0.5f, 4.0f}, f187 = {8, 0.5f, 1.87f};
    noise_fbm_plan(&p2, 1, &f2);
    noise_fbm_plan(&p4, 1, &f4);
    noise_fbm_plan(&p187, 1, &f187);
    assert_int_equal(p2.shift[3], 3);
    assert_int_equal(p4.shift[3], 6);
    assert_int_equal(p187.shift[3], -1);
    assert_int_equal(p187.shift[0], 0);
    for (int i = 0; i < 100000; i++) {
        int64_t v = (int64_t)((uint64_t)rng_u32(&r) << 32 | rng_u32(&r)) >> rng_below(&r, 40);
        for (uint32_t k = 0; k < 8; k++) {
            assert_true((uint64_t)noise_octave_coord(&p2, k, v) == noise_fx_mul(v, p2.scale[k]));
            assert_true((uint64_t)noise_octave_coord(&p4, k, v) == noise_fx_mul(v, p4.scale[k]));
        }
#if defined(__SIZEOF_INT128__)
        int64_t b = (int64_t)((uint64_t)rng_u32(&r) << 32 | rng_u32(&r));
        __int128 prod = (__int128)v * (__int128)b;
        assert_true(noise_fx_mul(v, b) == (uint64_t)(prod >> 32));
#endif
    }
    /* 1.87^3 in 32.32 within a few units of the real value. */
    double l = (double)1.87f;
    assert_true(fabs(noise_fx_to_double(p187.scale[3]) - l * l * l) < 1e-8);
}

/* ---------------------------------------------------------------- coordinates */
static void test_fx_helpers(void **state) {
    (void)state;
    assert_true(noise_fx_from_double(1.0) == NOISE_FX_ONE);
    assert_true(noise_fx_from_double(-2.5) == -5 * (NOISE_FX_ONE / 2));
    assert_true(noise_fx_from_double(0.5 / 4294967296.0) == 1);        /* half a unit rounds away */
    assert_true(noise_fx_from_double(-0.5 / 4294967296.0) == -1);
    assert_true(noise_fx_from_double(0.49 / 4294967296.0) == 0);
    assert_true(noise_fx_from_double(1e30) == INT64_MAX);
    assert_true(noise_fx_from_double(-1e30) == INT64_MIN);
    assert_true(noise_fx_from_double(NAN) == 0);
    assert_true(noise_fx_from_double(INFINITY) == INT64_MAX);
    assert_true(noise_fx_from_int(-7) == -7 * NOISE_FX_ONE);
    assert_true(noise_fx_from_int(INT32_MIN) == (NoiseFx)INT32_MIN * NOISE_FX_ONE);
    assert_true(noise_fx_to_double(noise_fx_from_double(-123.25)) == -123.25);
    NoiseFx f = noise_fx_from_double(0.04);
    Rng r;
    rng_seed(&r, 8, 8);
    for (int i = 0; i < 100000; i++) {
        int32_t b = rng_range(&r, -(1 << 24), 1 << 24);
        NoiseFx m = noise_fx_mul_int(f, b);
        assert_true(m == f * (NoiseFx)b);
        assert_true(noise_fx_scale(f, (double)b) == m);   /* the collision query sees the same point */
    }
    /* Out of range products wrap instead of overflowing. */
    assert_true(noise_fx_mul_int(INT64_MAX, 2) == (NoiseFx)((uint64_t)INT64_MAX * 2u));
}

/* ---------------------------------------------------------------- sky value noise */
static float sky_hash_ref(float x, float y, float z) {
    float d = x * 12.9898f + y * 78.233f + z * 128.852f;
    float v = sinf(d) * 43758.5453f;
    return v - floorf(v);
}

static void test_sky_value_noise(void **state) {
    (void)state;
    Rng r;
    rng_seed(&r, 11, 11);
    /* At lattice points the value is seed 001's hash of the point. */
    for (int i = 0; i < 200; i++) {
        float x = (float)rng_range(&r, -500, 500), y = (float)rng_range(&r, -500, 500), z = (float)rng_range(&r, -500, 500);
        float v = noise_sky_value3(x, y, z), e = sky_hash_ref(x, y, z);
        assert_memory_equal(&v, &e, sizeof v);
    }
    double mn = 9, mx = -9, fmn = 9, fmx = -9;
    for (int i = 0; i < 200000; i++) {
        float x = (rng_float01(&r) - 0.5f) * 2000.0f, y = (rng_float01(&r) - 0.5f) * 2000.0f;
        float z = (rng_float01(&r) - 0.5f) * 2000.0f;
        float v = noise_sky_value3(x, y, z), f = noise_sky_fbm(x, y, z);
        mn = fmin(mn, v); mx = fmax(mx, v); fmn = fmin(fmn, f); fmx = fmax(fmx, f);
        /* smooth: a step of 1/256 cell moves the value little (fade slope <= 1.5) */
        float v2 = noise_sky_value3(x + 1.0f / 256.0f, y, z);
        assert_true(fabsf(v2 - v) < 1.5f * 4.0f / 256.0f);
    }
    printf("sky value [%.4f, %.4f], fbm [%.4f, %.4f]\n", mn, mx, fmn, fmx);
    assert_true(mn >= 0.0 && mx <= 1.0 && mn < 0.1 && mx > 0.9);
    assert_true(fmn >= 0.0 && fmx <= 0.96875 && fmx - fmn > 0.5);
}

static void test_sky_periodic_tiles(void **state) {
    (void)state;
    /* Points on a 1/16 grid: x and x + period are both exact, so the tiles match bit for bit. */
    for (int period = 1; period <= 64; period *= 4) {
        for (int i = 0; i < 4000; i++) {
            float x = (float)(i % 97) / 16.0f, y = (float)(i % 61) / 16.0f - 2.0f, z = (float)(i % 13) / 16.0f;
            float p = (float)period;
            float a = noise_sky_value3_periodic(x, y, z, period);
            float b = noise_sky_value3_periodic(x + p, y, z - 3.0f * p, period);
            assert_memory_equal(&a, &b, sizeof a);
            float fa = noise_sky_fbm_periodic(x, y, z, period), fb = noise_sky_fbm_periodic(x - p, y + 2.0f * p, z, period);
            assert_memory_equal(&fa, &fb, sizeof fa);
            assert_true(fa >= 0.0f && fa <= 0.96875f);
        }
    }
    /* Inside one tile, away from its last cell, the wrap changes nothing. */
    for (int i = 0; i < 1000; i++) {
        float x = (float)(i % 37) / 8.0f, y = (float)(i % 23) / 8.0f, z = (float)(i % 11) / 8.0f;
        float a = noise_sky_value3_periodic(x, y, z, 8), b = noise_sky_value3(x, y, z);
        if (x < 7.0f && y < 7.0f && z < 7.0f) assert_memory_equal(&a, &b, sizeof a);
    }
    /* period <= 0 means no wrap */
    assert_true(noise_sky_value3_periodic(3.3f, 4.4f, 5.5f, 0) == noise_sky_value3(3.3f, 4.4f, 5.5f));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fx_helpers),
        cmocka_unit_test(test_simplex3_distribution),
        cmocka_unit_test(test_simplex2_distribution),
        cmocka_unit_test(test_perlin3_distribution),
        cmocka_unit_test(test_ridge3_distribution),
        cmocka_unit_test(test_fbm3_distribution),
        cmocka_unit_test(test_fbm2_distribution),
        cmocka_unit_test(test_simplex3_no_seams),
        cmocka_unit_test(test_simplex2_no_seams),
        cmocka_unit_test(test_perlin3_no_seams),
        cmocka_unit_test(test_ridge3_no_seams),
        cmocka_unit_test(test_fbm3_no_seams),
        cmocka_unit_test(test_fbm2_no_seams),
        cmocka_unit_test(test_cell_faces_are_continuous),
        cmocka_unit_test(test_seeds_give_different_fields),
        cmocka_unit_test(test_fbm_identities),
        cmocka_unit_test(test_octave_scaling),
        cmocka_unit_test(test_sky_value_noise),
        cmocka_unit_test(test_sky_periodic_tiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
