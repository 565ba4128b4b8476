/* Tests for batched noise rows: every function, on every compiled path, gives the same bits
 * as the single-point call on >= 1M pseudo-random points (negative, large, wrapped, tails). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "core/core.h"
#include "noise/noise.h"
#include "support/emulated.h"

#define MAX_ROW 300
/* >= 1M points per function natively; sanitizer builds (which are there to catch UB and bad
 * accesses, at 20-30x the cost) and emulated runs (qemu-user, some ten times slower: the same
 * rows of every length and kind, in a quarter of the number) walk 250k. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#define POINTS_PER_FN_BUILD 250000L
#else
#define POINTS_PER_FN_BUILD 1000000L
#endif
#define POINTS_PER_FN (test_running_emulated() ? 250000L : POINTS_PER_FN_BUILD)

typedef enum Fn { FN_SIMPLEX3, FN_SIMPLEX2, FN_PERLIN3, FN_RIDGE3, FN_FBM3, FN_FBM2, FN_RIDGE_FBM3, FN_COUNT } Fn;
static const char *const fn_names[FN_COUNT] = {"simplex3", "simplex2", "perlin3", "ridge3", "fbm3", "fbm2", "ridge_fbm3"};

typedef struct RowCase {
    uint32_t seed;
    NoiseFx x0, dx, y, z;
    NoiseWide wx0, wy, wz;   /* x0, y, z, and for a third of the rows a frame far out */
    NoiseFbm fbm;
    int n;
} RowCase;

__extension__ typedef __int128 I128;
static I128 i128_of(NoiseWide w) { return (I128)(((unsigned __int128)(uint64_t)w.hi << 64) | w.lo); }
static NoiseWide wide_of(I128 v) {
    NoiseWide w = {(int64_t)(v >> 64), (uint64_t)v};
    return w;
}

/* x0, y, z as wide coordinates: sign-extended, or moved by a random whole number of 2^64
 * units (frames up to 2^40 out, and the cells past 2^31 that their bands hash). */
static NoiseWide random_wide(Rng *r, NoiseFx v) {
    NoiseWide w = noise_wide_from_fx(v);
    if (rng_below(r, 3) == 0) w.hi += (int64_t)rng_range(r, -(1 << 20), 1 << 20) * ((int64_t)1 << rng_below(r, 21));
    return w;
}

/* Coordinates of every kind: near the origin, around +-2^24 blocks at world frequencies,
 * with fractional steps, negative steps, and raw 64-bit values (wrapping lattice). */
static NoiseFx random_coord(Rng *r, bool for_fbm) {
    uint32_t kind = rng_below(r, 6);
    switch (kind) {
    case 0: return noise_fx_mul_int(noise_fx_from_double(0.04), rng_range(r, -100000, 100000));
    case 1: {
        int32_t block = rng_range(r, -(1 << 24), 1 << 24);
        return noise_fx_mul_int(noise_fx_from_double(0.01 + 0.09 * rng_double01(r)), block);
    }
    case 2: return (NoiseFx)((uint64_t)rng_u32(r) << 32 | rng_u32(r)) >> (for_fbm ? 12 : 0);
    case 3: return (NoiseFx)(int32_t)rng_u32(r) * (for_fbm ? 16 : 4096);
    case 4: return noise_fx_from_double((rng_double01(r) - 0.5) * 64.0);
    default: return -(NoiseFx)rng_u32(r) * (NoiseFx)rng_below(r, 4096);
    }
}

static NoiseFx random_step(Rng *r) {
    switch (rng_below(r, 5)) {
    case 0: return noise_fx_from_double(0.04);
    case 1: return noise_fx_from_double(-0.0371);
    case 2: return (NoiseFx)rng_u32(r) >> rng_below(r, 24);
    case 3: return -(NoiseFx)(rng_u32(r) >> 4);
    default: return (NoiseFx)((uint64_t)rng_u32(r) << 24);
    }
}

static void random_case(Rng *r, Fn fn, RowCase *c) {
    bool fbm = fn == FN_FBM3 || fn == FN_FBM2 || fn == FN_RIDGE_FBM3;
    c->seed = rng_u32(r);
    c->x0 = random_coord(r, fbm);
    c->dx = random_step(r);
    c->y = random_coord(r, fbm);
    c->z = random_coord(r, fbm);
    c->n = 1 + (int)rng_below(r, MAX_ROW);
    c->wx0 = random_wide(r, c->x0), c->wy = random_wide(r, c->y), c->wz = random_wide(r, c->z);
    /* Functions with no wide call take the plain coordinates. */
    if (fn == FN_PERLIN3 || fn == FN_RIDGE3 || fn == FN_RIDGE_FBM3)
        c->wx0 = noise_wide_from_fx(c->x0), c->wy = noise_wide_from_fx(c->y), c->wz = noise_wide_from_fx(c->z);
    static const float lacunarities[] = {2.0f, 2.0f, 2.0f, 4.0f, 1.87f, 2.5f, 3.0f, 0.5f};
    c->fbm.octaves = 1 + rng_below(r, 7);
    c->fbm.gain = 0.3f + 0.4f * rng_float01(r);
    c->fbm.lacunarity = lacunarities[rng_below(r, 8)];
}

static float unridge(float n) { return 1.0f - (n < 0.0f ? -n : n); }

/* The reference: the single-point wide call at lane i's true coordinate x0 + i*dx (a row
 * keeps going across the 2^63 edge of its 64-bit value: the next frame). */
static float point(Fn fn, const RowCase *c, int i) {
    NoiseWide x = wide_of(i128_of(c->wx0) + (I128)c->dx * i);
    switch (fn) {
    case FN_SIMPLEX3: return noise_simplex3_w(c->seed, x, c->wy, c->wz);
    case FN_SIMPLEX2: return noise_simplex2_w(c->seed, x, c->wy);
    case FN_PERLIN3: return noise_perlin3_w(c->seed, x, c->wy, c->wz);
    case FN_RIDGE3: return unridge(noise_simplex3_w(c->seed, x, c->wy, c->wz));
    case FN_FBM3: return noise_fbm3_w(c->seed, &c->fbm, x, c->wy, c->wz);
    case FN_FBM2: return noise_fbm2_w(c->seed, &c->fbm, x, c->wy);
    default: return unridge(noise_fbm3_w(c->seed, &c->fbm, x, c->wy, c->wz));
    }
}

static void row(Fn fn, const RowCase *c, float *out) {
    switch (fn) {
    case FN_SIMPLEX3: noise_simplex3_row_w(c->seed, c->wx0, c->dx, c->wy, c->wz, out, c->n); break;
    case FN_SIMPLEX2: noise_simplex2_row_w(c->seed, c->wx0, c->dx, c->wy, out, c->n); break;
    case FN_PERLIN3: noise_perlin3_row(c->seed, c->x0, c->dx, c->y, c->z, out, c->n); break;
    case FN_RIDGE3: noise_ridge3_row(c->seed, c->x0, c->dx, c->y, c->z, out, c->n); break;
    case FN_FBM3: noise_fbm3_row_w(c->seed, &c->fbm, c->wx0, c->dx, c->wy, c->wz, out, c->n); break;
    case FN_FBM2: noise_fbm2_row_w(c->seed, &c->fbm, c->wx0, c->dx, c->wy, out, c->n); break;
    default: noise_ridge_fbm3_row(c->seed, &c->fbm, c->x0, c->dx, c->y, c->z, out, c->n); break;
    }
}

static int available_paths(NoisePath *paths) {
    int count = 0;
    for (int p = NOISE_PATH_SCALAR; p < NOISE_PATH_COUNT; p++)
        if (noise_path_available((NoisePath)p)) paths[count++] = (NoisePath)p;
    return count;
}

/* One function: reference points once, then the row on each path, compared as bits.
 * The guard word after the row catches writes past out[n-1]. */
static void check_function(Fn fn) {
    NoisePath paths[NOISE_PATH_COUNT];
    int npaths = available_paths(paths);
    NoisePath initial = noise_get_path();
    Rng r;
    rng_seed(&r, 0x5eed0000u + (uint64_t)fn, 3);
    float ref[MAX_ROW], out[MAX_ROW + 1];
    long points = 0, mismatches[NOISE_PATH_COUNT] = {0};
    long rows = 0;
    while (points < POINTS_PER_FN) {
        RowCase c;
        random_case(&r, fn, &c);
        for (int i = 0; i < c.n; i++) ref[i] = point(fn, &c, i);
        for (int k = 0; k < npaths; k++) {
            assert_true(noise_set_path(paths[k]));
            const float guard = 12345.0f;
            out[c.n] = guard;
            row(fn, &c, out);
            assert_memory_equal(&out[c.n], &guard, sizeof guard);
            if (memcmp(ref, out, (size_t)c.n * sizeof(float)) != 0) {
                for (int i = 0; i < c.n; i++) {
                    if (memcmp(&ref[i], &out[i], sizeof(float)) == 0) continue;
                    if (mismatches[paths[k]]++ < 3)
                        printf("  %s on %s: lane %d of %d: point %.9g, row %.9g\n", fn_names[fn],
                               noise_path_name(paths[k]), i, c.n, (double)ref[i], (double)out[i]);
                }
            }
        }
        points += c.n;
        rows++;
    }
    noise_set_path(initial);
    printf("%-10s %ld points in %ld rows on", fn_names[fn], points, rows);
    for (int k = 0; k < npaths; k++) printf(" %s", noise_path_name(paths[k]));
    printf("\n");
    for (int k = 0; k < npaths; k++) assert_int_equal(mismatches[paths[k]], 0);
}

static void test_paths(void **state) {
    (void)state;
    struct utsname u;
    uname(&u);
    NoisePath paths[NOISE_PATH_COUNT];
    int n = available_paths(paths);
    printf("noise path %s (uname -m: %s, built for %s); compiled paths:", noise_simd_path(), u.machine, SKYISLES_ARCH);
    for (int i = 0; i < n; i++) printf(" %s", noise_path_name(paths[i]));
    printf("\n");
    assert_true(noise_path_available(NOISE_PATH_SCALAR));
#if defined(SKYISLES_SIMD_SCALAR)
    assert_string_equal(noise_simd_path(), "scalar");
#elif defined(__aarch64__) || defined(__ARM_NEON)
    assert_true(noise_path_available(NOISE_PATH_NEON));
    assert_string_equal(noise_simd_path(), "neon");
#elif defined(__x86_64__)
    assert_true(noise_path_available(NOISE_PATH_SSE2));
    assert_false(noise_path_available(NOISE_PATH_NEON));
    assert_true(strcmp(noise_simd_path(), "sse2") == 0 || strcmp(noise_simd_path(), "avx2") == 0);
#endif
    assert_true(n >= 1);
}

static void test_simplex3_rows(void **state) { (void)state; check_function(FN_SIMPLEX3); }
static void test_simplex2_rows(void **state) { (void)state; check_function(FN_SIMPLEX2); }
static void test_perlin3_rows(void **state) { (void)state; check_function(FN_PERLIN3); }
static void test_ridge3_rows(void **state) { (void)state; check_function(FN_RIDGE3); }
static void test_fbm3_rows(void **state) { (void)state; check_function(FN_FBM3); }
static void test_fbm2_rows(void **state) { (void)state; check_function(FN_FBM2); }
static void test_ridge_fbm3_rows(void **state) { (void)state; check_function(FN_RIDGE_FBM3); }

/* Row lengths 0..40 at one start: every tail length on every path, and n <= 0 writes nothing. */
static void test_row_lengths_and_empty(void **state) {
    (void)state;
    NoisePath paths[NOISE_PATH_COUNT];
    int npaths = available_paths(paths);
    NoisePath initial = noise_get_path();
    NoiseFx f = noise_fx_from_double(0.173);
    for (int k = 0; k < npaths; k++) {
        assert_true(noise_set_path(paths[k]));
        for (int n = 0; n <= 40; n++) {
            float out[41];
            for (int i = 0; i < 41; i++) out[i] = -7.0f;
            noise_simplex3_row(9, noise_fx_from_int(-3), f, f, f, out, n);
            for (int i = 0; i < n; i++) {
                float p = noise_simplex3(9, noise_fx_from_int(-3) + f * i, f, f);
                assert_memory_equal(&out[i], &p, sizeof p);
            }
            for (int i = n; i < 41; i++) assert_true(out[i] == -7.0f);
        }
        float out = -7.0f;
        noise_fbm3_row(1, NULL, 0, f, 0, 0, &out, 0);
        noise_perlin3_row(1, 0, f, 0, 0, &out, -5);
        assert_true(out == -7.0f);
    }
    noise_set_path(initial);
}

/* Plane calls (rows on one FBM plan, and plain simplex2 planes): row r equals the row call at z0 + r*dz (3D) or
 * y0 + r*dy (2D) bit for bit, on every path; the stride leaves the gaps between rows alone. */
static void test_plane_rows(void **state) {
    (void)state;
    NoisePath paths[NOISE_PATH_COUNT];
    int npaths = available_paths(paths);
    NoisePath initial = noise_get_path();
    Rng r;
    rng_seed(&r, 0x91a7e, 5);
    enum { MAXN = 37, MAXR = 13, STRIDE = 40 };
    static float plane[MAXR * STRIDE], one[MAXN];
    long compared = 0;
    for (int it = 0; it < 300; it++) {
        RowCase c;
        random_case(&r, it & 1 ? FN_FBM2 : FN_FBM3, &c);
        int n = 1 + (int)rng_below(&r, MAXN), rows = 1 + (int)rng_below(&r, MAXR);
        NoiseFx dz = random_step(&r);
        assert_true(noise_set_path(paths[it % npaths]));
        for (int i = 0; i < MAXR * STRIDE; i++) plane[i] = -7.0f;
        if (it & 1) noise_fbm2_rows_w(c.seed, &c.fbm, c.wx0, c.dx, c.wy, dz, plane, STRIDE, n, rows);
        else noise_fbm3_rows_w(c.seed, &c.fbm, c.wx0, c.dx, c.wy, c.wz, dz, plane, STRIDE, n, rows);
        for (int k = 0; k < rows; k++) {
            NoiseWide at = wide_of(i128_of(it & 1 ? c.wy : c.wz) + (I128)dz * k);
            if (it & 1) noise_fbm2_row_w(c.seed, &c.fbm, c.wx0, c.dx, at, one, n);
            else noise_fbm3_row_w(c.seed, &c.fbm, c.wx0, c.dx, c.wy, at, one, n);
            assert_memory_equal(&plane[k * STRIDE], one, (size_t)n * sizeof(float));
            for (int i = n; i < STRIDE; i++) assert_true(plane[k * STRIDE + i] == -7.0f);
            compared += n;
        }
        /* The plain simplex2 plane: each row its row call. */
        for (int i = 0; i < MAXR * STRIDE; i++) plane[i] = -7.0f;
        noise_simplex2_rows_w(c.seed, c.wx0, c.dx, c.wy, dz, plane, STRIDE, n, rows);
        for (int k = 0; k < rows; k++) {
            noise_simplex2_row_w(c.seed, c.wx0, c.dx, wide_of(i128_of(c.wy) + (I128)dz * k), one, n);
            assert_memory_equal(&plane[k * STRIDE], one, (size_t)n * sizeof(float));
            for (int i = n; i < STRIDE; i++) assert_true(plane[k * STRIDE + i] == -7.0f);
            compared += n;
        }
        /* The NoiseFx plane is the wide plane at the sign-extended coordinates. */
        noise_fbm3_rows(c.seed, &c.fbm, c.x0, c.dx, c.y, c.z, dz, plane, STRIDE, n, rows);
        noise_fbm3_row_w(c.seed, &c.fbm, noise_wide_from_fx(c.x0), c.dx, noise_wide_from_fx(c.y),
                         noise_wide_from_fx(c.z), one, n);
        assert_memory_equal(plane, one, (size_t)n * sizeof(float));
    }
    noise_set_path(initial);
    printf("plane rows: %ld points equal to their row calls\n", compared);
    assert_true(compared > 10000);
}

/* Point batches: noise_simplex3_points and _points2 equal the single-point call at every point
 * on every path (random points, counts across the batch size, a guard past the end), and the
 * pair's two outputs are each their own seed's field (not swapped, not equal). */
static void test_points(void **state) {
    (void)state;
    NoisePath paths[NOISE_PATH_COUNT];
    int npaths = available_paths(paths);
    NoisePath initial = noise_get_path();
    Rng r;
    rng_seed(&r, 0x5017, 9);
    enum { MAXP = 600 };
    static NoiseFx xs[MAXP], zs[MAXP];
    static float a[MAXP + 1], b[MAXP + 1];
    long compared = 0, differ = 0;
    for (int it = 0; it < 240; it++) {
        int n = it < 40 ? it : 1 + (int)rng_below(&r, MAXP);
        uint32_t sa = rng_u32(&r), sb = it % 7 == 0 ? sa + 1 : rng_u32(&r);
        NoiseFx y = random_coord(&r, false);
        /* Half the batches: a wide origin (often far out) and offsets within a few hundred cells,
         * the world's chunk-sized batches that the kernels take whole. */
        bool wide = (it & 2) != 0;
        NoiseWide ox = random_wide(&r, random_coord(&r, false)), oz = random_wide(&r, random_coord(&r, false));
        NoiseWide wy = random_wide(&r, y);
        if (!wide) ox = oz = noise_wide_from_fx(0), wy = noise_wide_from_fx(y);
        for (int i = 0; i < n; i++) {
            xs[i] = random_coord(&r, false), zs[i] = random_coord(&r, false);
            if (wide) xs[i] >>= 24, zs[i] >>= 24;
        }
        assert_true(noise_set_path(paths[it % npaths]));
        a[n] = b[n] = -7.0f;
        if (it & 1) {
            if (wide) noise_simplex3_points2_w(sa, sb, ox, wy, oz, xs, zs, a, b, n);
            else noise_simplex3_points2(sa, sb, xs, y, zs, a, b, n);
        } else if (wide) {
            noise_simplex3_points_w(sa, ox, wy, oz, xs, zs, a, n);
            noise_simplex3_points_w(sb, ox, wy, oz, xs, zs, b, n);
        } else {
            noise_simplex3_points(sa, xs, y, zs, a, n);
            noise_simplex3_points(sb, xs, y, zs, b, n);
        }
        assert_true(a[n] == -7.0f && b[n] == -7.0f);
        for (int i = 0; i < n; i++) {
            NoiseWide px = wide_of(i128_of(ox) + xs[i]), pz = wide_of(i128_of(oz) + zs[i]);
            float ea = noise_simplex3_w(sa, px, wy, pz), eb = noise_simplex3_w(sb, px, wy, pz);
            assert_memory_equal(&a[i], &ea, sizeof ea);
            assert_memory_equal(&b[i], &eb, sizeof eb);
            differ += ea != eb;
            compared += 2;
        }
    }
    noise_set_path(initial);
    printf("points: %ld values equal to single-point calls, %ld pairs differing by seed\n", compared, differ);
    assert_true(compared > 100000);
    assert_true(differ > compared / 4);
}

/* FBM3 point batches: noise_fbm3_points_w equals noise_fbm3_w at every point on every path
 * (random octaves and lacunarities, wide origins often far out, offsets small like a chunk's or
 * raw, counts across the batch size, a guard past the end). */
static void test_fbm3_points(void **state) {
    (void)state;
    NoisePath paths[NOISE_PATH_COUNT];
    int npaths = available_paths(paths);
    NoisePath initial = noise_get_path();
    Rng r;
    rng_seed(&r, 0xfb3, 11);
    enum { MAXP = 600 };
    static NoiseFx xs[MAXP], zs[MAXP];
    static float a[MAXP + 1];
    long compared = 0;
    for (int it = 0; it < 160; it++) {
        RowCase c;
        random_case(&r, FN_FBM3, &c);
        int n = it < 40 ? it : 1 + (int)rng_below(&r, MAXP);
        bool small = (it & 2) != 0;   /* offsets within a few hundred cells (the world's) */
        for (int i = 0; i < n; i++) {
            xs[i] = random_coord(&r, true), zs[i] = random_coord(&r, true);
            if (small) xs[i] >>= 24, zs[i] >>= 24;
        }
        assert_true(noise_set_path(paths[it % npaths]));
        a[n] = -7.0f;
        noise_fbm3_points_w(c.seed, &c.fbm, c.wx0, c.wy, c.wz, xs, zs, a, n);
        assert_true(a[n] == -7.0f);
        for (int i = 0; i < n; i++) {
            NoiseWide px = wide_of(i128_of(c.wx0) + xs[i]), pz = wide_of(i128_of(c.wz) + zs[i]);
            float e = noise_fbm3_w(c.seed, &c.fbm, px, c.wy, pz);
            assert_memory_equal(&a[i], &e, sizeof e);
            compared++;
        }
    }
    noise_set_path(initial);
    printf("fbm3 points: %ld values equal to single-point calls\n", compared);
    assert_true(compared > 30000);
}

/* The smallest positive step dx whose vector step (lanes * dx) puts the fused rows' fraction word
 * at 2^32 - 1 - e: the y/z word takes bits 32..63 of lanes*dx*f, x's of lanes*dx*(f + 2^32) (see
 * noise_kernels.h); f a skew factor. The product may pass 2^64 a few times (a step of a few cells). */
static int64_t carry_step(int lanes, uint32_t f, bool x_word, uint32_t e) {
    unsigned __int128 g = (unsigned __int128)lanes * ((uint64_t)f + (x_word ? (1ull << 32) : 0));
    for (unsigned k = 0;; k++) {
        unsigned __int128 lo = ((unsigned __int128)k << 64) + ((unsigned __int128)(0xffffffffu - e) << 32);
        unsigned __int128 dx = (lo + g - 1) / g;
        if (dx * g < lo + ((unsigned __int128)1 << 32)) return (int64_t)dx;
    }
}

/* FBM rows at the steps whose fraction word steps by 2^32 - 1 (a carry in would wrap it: such a
 * row goes octave by octave), 2^32 - 2 and 2^32 - 3 (the fused words' largest steps), for 4 and 8
 * lanes, both skew factors and both words, and at the step -1 (a tiny negative step's words are
 * all ones too): every lane equal to its single-point call on every path. */
static void test_fbm_carry_steps(void **state) {
    (void)state;
    NoisePath paths[NOISE_PATH_COUNT];
    int npaths = available_paths(paths);
    NoisePath initial = noise_get_path();
    const uint32_t skew[2] = {0x55555555u, 0x5db3d742u};   /* simplex3's F, simplex2's */
    enum { N = 70 };
    float row_out[N], ref[N];
    NoiseFbm fbm = NOISE_FBM_DEFAULTS;
    fbm.octaves = 3;
    long compared = 0;
    for (int lanes = 4; lanes <= 8; lanes += 4)
        for (int two_d = 0; two_d < 2; two_d++)
            for (int xw = 0; xw < 2; xw++)
                for (uint32_t e = 0; e < 4; e++) {
                    int64_t dx = e == 3 ? -1 : carry_step(lanes, skew[two_d], xw, e);
                    NoiseWide x0 = noise_wide_from_fx(noise_fx_from_double(-3.7 + e)), y = noise_wide_from_fx(911);
                    NoiseWide z = noise_wide_from_fx(noise_fx_from_double(5.25));
                    for (int i = 0; i < N; i++) {
                        NoiseWide x = wide_of(i128_of(x0) + (I128)dx * i);
                        ref[i] = two_d ? noise_fbm2_w(77, &fbm, x, y) : noise_fbm3_w(77, &fbm, x, y, z);
                    }
                    for (int k = 0; k < npaths; k++) {
                        assert_true(noise_set_path(paths[k]));
                        if (two_d) noise_fbm2_row_w(77, &fbm, x0, dx, y, row_out, N);
                        else noise_fbm3_row_w(77, &fbm, x0, dx, y, z, row_out, N);
                        assert_memory_equal(row_out, ref, sizeof ref);
                        compared += N;
                    }
                }
    noise_set_path(initial);
    printf("fbm carry steps: %ld values equal to single-point calls\n", compared);
    assert_true(compared >= 32 * N);
}

/* Switching to a path that is not compiled in (or not supported) is refused. */
static void test_path_switching(void **state) {
    (void)state;
    NoisePath initial = noise_get_path();
    assert_true(initial != NOISE_PATH_AUTO);
#if defined(__x86_64__)
    assert_false(noise_set_path(NOISE_PATH_NEON));
#elif defined(__aarch64__)
    assert_false(noise_set_path(NOISE_PATH_SSE2));
    assert_false(noise_set_path(NOISE_PATH_AVX2));
#endif
    assert_int_equal(noise_get_path(), initial);
    assert_true(noise_set_path(NOISE_PATH_SCALAR));
    assert_string_equal(noise_simd_path(), "scalar");
    assert_true(noise_set_path(NOISE_PATH_AUTO));
    assert_int_equal(noise_get_path(), initial);
    assert_false(noise_set_path((NoisePath)99));
    assert_string_equal(noise_path_name((NoisePath)99), "unknown");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_path_switching),
        cmocka_unit_test(test_row_lengths_and_empty),
        cmocka_unit_test(test_plane_rows),
        cmocka_unit_test(test_points),
        cmocka_unit_test(test_fbm3_points),
        cmocka_unit_test(test_fbm_carry_steps),
        cmocka_unit_test(test_simplex3_rows),
        cmocka_unit_test(test_simplex2_rows),
        cmocka_unit_test(test_perlin3_rows),
        cmocka_unit_test(test_ridge3_rows),
        cmocka_unit_test(test_fbm3_rows),
        cmocka_unit_test(test_fbm2_rows),
        cmocka_unit_test(test_ridge_fbm3_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
