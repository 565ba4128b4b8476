/* Tests for the biome fields: weights that are weights, rows equal to points, every biome
 * present over a wide area in a fair share, and borders that blend rather than cut. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "world/world_internal.h"

static WorldGen g_gen;

static int setup(void **state) {
    (void)state;
    WorldParams p;
    world_params_default(&p);
    gen_init(&g_gen, &p.gen);
    return 0;
}

/* Weights are in [0, 1], sum to 1, and main is the largest; far cold is snowy, hot and dry is
 * desert, hot and wet is jungle, mild is temperate. */
static void test_weights(void **state) {
    (void)state;
    BiomeSample s;
    for (float t = -1.0f; t <= 1.0f; t += 0.01f)
        for (float h = -1.0f; h <= 1.0f; h += 0.05f) {
            gen_biome_weights(&g_gen, t, h, &s);
            float sum = 0.0f;
            for (int b = 0; b < BIOME_COUNT; b++) {
                assert_true(s.w[b] >= 0.0f && s.w[b] <= 1.0f);
                assert_true(s.w[b] <= s.w[s.main]);
                sum += s.w[b];
            }
            assert_true(fabsf(sum - 1.0f) < 1e-5f);
        }
    gen_biome_weights(&g_gen, -0.8f, 0.0f, &s);
    assert_int_equal(s.main, BIOME_SNOWY);
    gen_biome_weights(&g_gen, 0.8f, -0.5f, &s);
    assert_int_equal(s.main, BIOME_DESERT);
    gen_biome_weights(&g_gen, 0.8f, 0.5f, &s);
    assert_int_equal(s.main, BIOME_JUNGLE);
    gen_biome_weights(&g_gen, 0.0f, 0.3f, &s);
    assert_int_equal(s.main, BIOME_TEMPERATE);
    assert_true(s.w[BIOME_TEMPERATE] > 0.999f);
}

/* A row gives the point query's values bit for bit, at any step and origin (negative too). */
static void test_row_equals_point(void **state) {
    (void)state;
    static const int32_t origins[][2] = {{0, 0}, {-5000, 777}, {123457, -98765}, {-1, -1}};
    static const int32_t steps[] = {1, 4, 37};
    for (size_t o = 0; o < sizeof origins / sizeof origins[0]; o++)
        for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
            BiomeSample row[64], pt;
            gen_biome_row(&g_gen, origins[o][0], steps[k], origins[o][1], row, 64);
            for (int i = 0; i < 64; i++) {
                gen_biome_at(&g_gen, origins[o][0] + i * steps[k], origins[o][1], &pt);
                assert_memory_equal(&row[i], &pt, sizeof pt);
            }
        }
}

/* Over 40 x 40 km every biome is the main one somewhere, none takes more than two thirds,
 * and between columns 8 blocks apart no weight jumps by more than 0.35 (a cut would jump by 1);
 * blended columns (no weight above 0.9) exist. */
static void test_coverage_and_blend(void **state) {
    (void)state;
    int count[BIOME_COUNT] = {0}, n = 0, blended = 0;
    float worst = 0.0f;
    for (int32_t z = -20000; z < 20000; z += 200) {
        BiomeSample row[64];
        for (int32_t x0 = -20000; x0 < 20000; x0 += 64 * 200) {
            gen_biome_row(&g_gen, x0, 200, z, row, 64);
            for (int i = 0; i < 64 && x0 + i * 200 < 20000; i++) {
                count[row[i].main]++;
                n++;
                BiomeSample next;
                gen_biome_at(&g_gen, x0 + i * 200 + 8, z, &next);
                float mx = 0.0f;
                for (int b = 0; b < BIOME_COUNT; b++) {
                    float d = fabsf(next.w[b] - row[i].w[b]);
                    if (d > worst) worst = d;
                    if (row[i].w[b] > mx) mx = row[i].w[b];
                }
                if (mx < 0.9f) blended++;
            }
        }
    }
    for (int b = 0; b < BIOME_COUNT; b++) {
        printf("    note: %s %.1f%% of %d columns\n", gen_biome_name((WorldBiome)b), 100.0 * count[b] / n, n);
        assert_true(count[b] * 20 > n);       /* more than 5% */
        assert_true(count[b] * 3 < n * 2);    /* less than two thirds */
    }
    printf("    note: largest weight change over 8 blocks %.3f; %d blended columns\n", worst, blended);
    assert_true(worst < 0.35f);
    assert_true(blended > 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_weights),
        cmocka_unit_test(test_row_equals_point),
        cmocka_unit_test(test_coverage_and_blend),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
