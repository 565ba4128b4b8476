/* Tests for noise determinism: golden checksums of every function (single points and rows on
 * every compiled path) that must be identical natively and under qemu-aarch64. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "core/core.h"
#include "noise/noise.h"

typedef enum Fn { FN_SIMPLEX3, FN_SIMPLEX2, FN_PERLIN3, FN_RIDGE3, FN_FBM3, FN_FBM2, FN_RIDGE_FBM3, FN_COUNT } Fn;
static const char *const fn_names[FN_COUNT] = {"simplex3", "simplex2", "perlin3", "ridge3", "fbm3", "fbm2", "ridge_fbm3"};

/* FNV-1a of the output bits over a fixed sample set: rows near the origin at a world
 * frequency, rows around +-2^24 blocks, raw 64-bit coordinates, FBM with lacunarity 2 and 1.87. */
#define GOLDEN_ROWS 96
#define GOLDEN_LEN 67

typedef struct GoldenRow {
    uint32_t seed;
    NoiseFx x0, dx, y, z;
    NoiseFbm fbm;
} GoldenRow;

static GoldenRow golden_row(int i) {
    Rng r;
    rng_seed(&r, 2024, (uint64_t)i);
    GoldenRow g;
    NoiseFx f = noise_fx_from_double(0.0371);
    g.seed = rng_u32(&r);
    switch (i % 3) {
    case 0:
        g.x0 = noise_fx_mul_int(f, rng_range(&r, -1000, 1000));
        g.y = noise_fx_mul_int(f, rng_range(&r, -64, 64));
        g.z = noise_fx_mul_int(f, rng_range(&r, -1000, 1000));
        g.dx = f;
        break;
    case 1:
        g.x0 = noise_fx_mul_int(f, rng_range(&r, (1 << 24) - 40, 1 << 24) * (rng_below(&r, 2) ? 1 : -1));
        g.y = noise_fx_mul_int(f, rng_range(&r, 0, 200));
        g.z = noise_fx_mul_int(f, -(1 << 24) + rng_range(&r, 0, 100));
        g.dx = -f;
        break;
    default:
        g.x0 = (NoiseFx)((uint64_t)rng_u32(&r) << 32 | rng_u32(&r));
        g.y = (NoiseFx)((uint64_t)rng_u32(&r) << 32 | rng_u32(&r));
        g.z = -(NoiseFx)rng_u32(&r) * 977;
        g.dx = (NoiseFx)rng_u32(&r) << 3;
        break;
    }
    g.fbm.octaves = 5;
    g.fbm.gain = 0.5f;
    g.fbm.lacunarity = (i % 4 == 3) ? 1.87f : 2.0f;
    if (i % 3 == 2) {   /* FBM octaves stay in the documented range */
        g.x0 /= 64;
        g.y /= 64;
        g.dx /= 64;
    }
    return g;
}

static void fill_row(Fn fn, const GoldenRow *g, float *out) {
    switch (fn) {
    case FN_SIMPLEX3: noise_simplex3_row(g->seed, g->x0, g->dx, g->y, g->z, out, GOLDEN_LEN); break;
    case FN_SIMPLEX2: noise_simplex2_row(g->seed, g->x0, g->dx, g->y, out, GOLDEN_LEN); break;
    case FN_PERLIN3: noise_perlin3_row(g->seed, g->x0, g->dx, g->y, g->z, out, GOLDEN_LEN); break;
    case FN_RIDGE3: noise_ridge3_row(g->seed, g->x0, g->dx, g->y, g->z, out, GOLDEN_LEN); break;
    case FN_FBM3: noise_fbm3_row(g->seed, &g->fbm, g->x0, g->dx, g->y, g->z, out, GOLDEN_LEN); break;
    case FN_FBM2: noise_fbm2_row(g->seed, &g->fbm, g->x0, g->dx, g->y, out, GOLDEN_LEN); break;
    default: noise_ridge_fbm3_row(g->seed, &g->fbm, g->x0, g->dx, g->y, g->z, out, GOLDEN_LEN); break;
    }
}

static void fill_points(Fn fn, const GoldenRow *g, float *out) {
    for (int i = 0; i < GOLDEN_LEN; i++) {
        NoiseFx x = (NoiseFx)((uint64_t)g->x0 + (uint64_t)i * (uint64_t)g->dx);
        switch (fn) {
        case FN_SIMPLEX3: out[i] = noise_simplex3(g->seed, x, g->y, g->z); break;
        case FN_SIMPLEX2: out[i] = noise_simplex2(g->seed, x, g->y); break;
        case FN_PERLIN3: out[i] = noise_perlin3(g->seed, x, g->y, g->z); break;
        case FN_RIDGE3: out[i] = noise_ridge3(g->seed, x, g->y, g->z); break;
        case FN_FBM3: out[i] = noise_fbm3(g->seed, &g->fbm, x, g->y, g->z); break;
        case FN_FBM2: out[i] = noise_fbm2(g->seed, &g->fbm, x, g->y); break;
        default: out[i] = noise_ridge_fbm3(g->seed, &g->fbm, x, g->y, g->z); break;
        }
    }
}

static uint64_t checksum(Fn fn, bool rows) {
    uint64_t h = 0;
    float out[GOLDEN_LEN];
    for (int i = 0; i < GOLDEN_ROWS; i++) {
        GoldenRow g = golden_row(i);
        if (rows) fill_row(fn, &g, out);
        else fill_points(fn, &g, out);
        h = hash_fnv1a64(out, sizeof out, h);
    }
    return h;
}

/* The expected checksums: the definition of the fields. A change here is a change of every
 * world generated from a seed; it must be deliberate. */
static const uint64_t golden[FN_COUNT] = {
    0x7385d6313a062fdfull,   /* simplex3 */
    0xec61d130ce01373eull,   /* simplex2 */
    0xd093de9cd9a1fbd2ull,   /* perlin3 */
    0xa68b41896359d092ull,   /* ridge3 */
    0x6cb21c3fe925aac0ull,   /* fbm3 */
    0x0770b551ff1688c1ull,   /* fbm2 */
    0x8e11929715ee2c1dull,   /* ridge_fbm3 */
};

static void test_golden_checksums(void **state) {
    (void)state;
    struct utsname u;
    uname(&u);
    printf("note: noise golden checksums on %s (uname -m), noise path %s\n", u.machine, noise_simd_path());
    NoisePath initial = noise_get_path();
    int bad = 0;
    for (int f = 0; f < FN_COUNT; f++) {
        uint64_t pts = checksum((Fn)f, false);
        printf("  %-10s point  %016llx%s\n", fn_names[f], (unsigned long long)pts, pts == golden[f] ? "" : "  MISMATCH");
        bad += pts != golden[f];
        for (int p = NOISE_PATH_SCALAR; p < NOISE_PATH_COUNT; p++) {
            if (!noise_set_path((NoisePath)p)) continue;
            uint64_t h = checksum((Fn)f, true);
            printf("  %-10s %-6s %016llx%s\n", fn_names[f], noise_path_name((NoisePath)p), (unsigned long long)h,
                   h == golden[f] ? "" : "  MISMATCH");
            bad += h != golden[f];
        }
        noise_set_path(initial);
    }
    assert_int_equal(bad, 0);
}

/* Spot values, readable in a log: the same numbers on every platform. */
static void test_spot_values(void **state) {
    (void)state;
    NoiseFx f = noise_fx_from_double(0.04);
    float a = noise_simplex3(1, noise_fx_mul_int(f, 100), noise_fx_mul_int(f, 40), noise_fx_mul_int(f, -250));
    float b = noise_fbm2(1, NULL, noise_fx_mul_int(f, -(1 << 24)), noise_fx_mul_int(f, 1 << 24));
    float c = noise_perlin3(42, noise_fx_from_double(0.5), noise_fx_from_double(0.25), noise_fx_from_double(0.125));
    uint32_t ab, bb, cb;
    memcpy(&ab, &a, 4);
    memcpy(&bb, &b, 4);
    memcpy(&cb, &c, 4);
    printf("simplex3(1, 4, 1.6, -10) = %.9g [%08x]\nfbm2(1, -2^24*0.04, 2^24*0.04) = %.9g [%08x]\n"
           "perlin3(42, .5, .25, .125) = %.9g [%08x]\n",
           (double)a, ab, (double)b, bb, (double)c, cb);
    assert_true(ab == 0x3deeafe5u && bb == 0x3e4fc516u && cb == 0xbde04dfdu);
    /* Lattice points of gradient noise are zero. */
    assert_true(noise_perlin3(3, noise_fx_from_int(5), noise_fx_from_int(-7), noise_fx_from_int(9)) == 0.0f);
    assert_true(noise_simplex3(3, 0, 0, 0) == 0.0f);
    assert_true(noise_simplex2(3, 0, 0) == 0.0f);
}

/* The sky's value noise uses sinf: printed for the log, not asserted across platforms. */
static void test_sky_checksum_printed(void **state) {
    (void)state;
    uint64_t h = 0;
    for (int i = 0; i < 4096; i++) {
        float v = noise_sky_fbm((float)(i % 64) * 0.37f, (float)(i / 64) * 0.21f, 3.5f);
        h = hash_fnv1a64(&v, sizeof v, h);
        assert_true(v >= 0.0f && v <= 0.96875f);
    }
    printf("sky fbm checksum (libm-dependent, informational): %016llx\n", (unsigned long long)h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_checksums),
        cmocka_unit_test(test_spot_values),
        cmocka_unit_test(test_sky_checksum_printed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
