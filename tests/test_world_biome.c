/* Tests for the biome fields: weights that are weights, rows equal to points, every biome
 * present over a wide area in a fair share, and borders that blend rather than cut. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "world/world_internal.h"

static WorldGen g_gen;

static int setup(void **state) {
    (void)state;
    WorldParams p;
    world_params_default(&p);
    gen_init(&g_gen, &p.gen, NULL);
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
    /* Rows read humidity only where a column is hot: rows of both kinds, still bit for bit. */
    int cool_rows = 0, hot_rows = 0;
    for (int r = 0; r < 60; r++) {
        BiomeSample row[16], pt;
        int32_t x0 = -30000 + r * 997, z = 25000 - r * 1009;
        gen_biome_row(&g_gen, x0, 8, z, row, 16);
        bool hot = false;
        for (int i = 0; i < 16; i++) {
            gen_biome_at(&g_gen, x0 + i * 8, z, &pt);
            assert_memory_equal(&row[i], &pt, sizeof pt);
            hot |= pt.w[BIOME_DESERT] > 0.0f || pt.w[BIOME_JUNGLE] > 0.0f;
        }
        hot_rows += hot;
        cool_rows += !hot;
    }
    printf("biome rows: %d with a hot column, %d without\n", hot_rows, cool_rows);
    assert_true(hot_rows > 0 && cool_rows > 0);
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

/* The chunk's per-column weights (gen_biome_chunk) are the field's: exact on the 8-block lattice,
 * within 2e-3 between its points, at every LOD's sample columns, and sum to 1. */
static void test_chunk_weights(void **state) {
    (void)state;
    static float w[CHUNK_SIZE][CHUNK_SIZE][BIOME_COUNT];
    static const int32_t chunks[][2] = {{0, 0}, {-40, 17}, {75, -120}, {-3001, 2999}, {400, 400}};
    float worst = 0.0f;
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++)
        for (int lod = 0; lod <= WORLD_LOD_MAX; lod++) {
            int sc = WORLD_LOD_SCALE(lod), off = WORLD_LOD_OFFSET(lod), n = CHUNK_SIZE / sc;
            int32_t bx0 = chunks[c][0] * CHUNK_SIZE, bz0 = chunks[c][1] * CHUNK_SIZE;
            gen_biome_chunk(&g_gen, bx0, bz0, sc, off, n, w);
            for (int z = 0; z < n; z++)
                for (int x = 0; x < n; x++) {
                    int px = x * sc + off, pz = z * sc + off;
                    BiomeSample pt;
                    gen_biome_at(&g_gen, bx0 + px, bz0 + pz, &pt);
                    float sum = 0.0f;
                    for (int b = 0; b < BIOME_COUNT; b++) {
                        float d = fabsf(w[z][x][b] - pt.w[b]);
                        if (px % GEN_BIOME_STEP == 0 && pz % GEN_BIOME_STEP == 0) assert_true(w[z][x][b] == pt.w[b]);
                        if (d > worst) worst = d;
                        sum += w[z][x][b];
                    }
                    assert_true(fabsf(sum - 1.0f) < 1e-4f);
                }
        }
    printf("    note: chunk weights vs the field: largest difference %.5f\n", worst);
    assert_true(worst < 2e-3f);
}

/* Palettes as the mesher paints them: a world of continuous island tops (coverage everywhere, no
 * caves, clouds, snow line or jitter), so a top face's brightest vertex (full light, no AO) is its
 * palette colour. Grass of each biome (temperate is the seed's r 0.3, g 0.5, b 0.2). */
static const uint8_t k_grass[BIOME_COUNT][3] = {
    [BIOME_TEMPERATE] = {77, 128, 51}, [BIOME_SNOWY] = {214, 222, 235}, [BIOME_DESERT] = {204, 158, 97},
    [BIOME_JUNGLE] = {33, 97, 31}};

typedef struct Flat { MemBudget mem; World *w; WorldParams p; } Flat;

static void flat_open(Flat *f) {
    SkyError err = {0};
    world_params_default(&f->p);
    f->p.gen.island_threshold = -0.5f;
    f->p.gen.cave_modes = 0;
    f->p.gen.clouds = false;
    f->p.gen.snow_level = 200.0f;
    f->p.gen.jitter_amount = 0.0f;
    f->p.live.view_radius = 1;
    f->p.create.mesh_pool_mib = 8;
    assert_true(mem_budget_init(&f->mem, (size_t)48 << 20, &err));
    f->w = world_create(&f->mem, NULL, &f->p, NULL, &err);
    assert_non_null(f->w);
}

static void flat_close(Flat *f) {
    world_destroy(f->w);
    mem_budget_release(&f->mem);
}

/* Top grass colour per column of chunk (cx, cz) at `lod` (coarse columns), -1 where none is lit
 * fully: col[z][x][0] = r or -1. */
static void top_colours(Flat *f, int32_t cx, int32_t cz, int lod, int col[CHUNK_SIZE][CHUNK_SIZE][3]) {
    for (int z = 0; z < CHUNK_SIZE; z++)
        for (int x = 0; x < CHUNK_SIZE; x++) col[z][x][0] = -1;
    ChunkMesh m;
    WorldBuildTiming t;
    assert_true(world_build_chunk_lod(f->w, cx, cz, lod, 0.0, &m, &t));
    int sc = WORLD_LOD_SCALE(lod), ymax[CHUNK_SIZE][CHUNK_SIZE];
    for (int z = 0; z < CHUNK_SIZE; z++)
        for (int x = 0; x < CHUNK_SIZE; x++) ymax[z][x] = -1;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < m.opaque_parts; i++)
            for (uint32_t q = 0; q < m.parts[i].vert_count; q += 4) {
                const WorldVertex *v = &m.parts[i].verts[q];
                if (v->normal != WORLD_NORMAL_PY || (v->flags >> 2) != WORLD_MAT_GRASS) continue;
                int x0 = v[0].x, z0 = v[0].z;
                for (int k = 1; k < 4; k++) {
                    if (v[k].x < x0) x0 = v[k].x;
                    if (v[k].z < z0) z0 = v[k].z;
                }
                int X = x0 / sc, Z = z0 / sc;
                if (X < 0 || Z < 0 || X >= CHUNK_SIZE / sc || Z >= CHUNK_SIZE / sc) continue;
                if (pass == 0) {   /* the column's highest top face: nothing above it shades it */
                    if (v->y > ymax[Z][X]) ymax[Z][X] = v->y;
                    continue;
                }
                if (v->y != ymax[Z][X] || v->y < 90) continue;
                for (int k = 0; k < 4; k++)
                    if ((v[k].flags & 3u) == 3u) {   /* no AO at this vertex: the colour itself */
                        col[Z][X][0] = v[k].r, col[Z][X][1] = v[k].g, col[Z][X][2] = v[k].b;
                        break;
                    }
            }
    world_free_mesh(f->w, &m);
}

static int nearest_palette(const int c[3], int *dist) {
    int best = 0, bd = 1 << 30;
    for (int b = 0; b < BIOME_COUNT; b++) {
        int d = 0;
        for (int k = 0; k < 3; k++) d += abs(c[k] - k_grass[b][k]);
        if (d < bd) bd = d, best = b;
    }
    *dist = bd;
    return best;
}

/* Every biome's palette shows over a wide area (LOD 3 chunks over 24 x 24 km). */
static void test_palettes_appear(void **state) {
    (void)state;
    Flat f;
    flat_open(&f);
    static int col[CHUNK_SIZE][CHUNK_SIZE][3];
    int exact[BIOME_COUNT] = {0}, tops = 0;
    for (int32_t cz = -384; cz < 384; cz += 24)
        for (int32_t cx = -384; cx < 384; cx += 24) {
            top_colours(&f, cx, cz, 3, col);
            for (int z = 0; z < 4; z++)
                for (int x = 0; x < 4; x++) {
                    if (col[z][x][0] < 0) continue;
                    tops++;
                    int d, b = nearest_palette(col[z][x], &d);
                    exact[b] += d <= 3;
                }
        }
    for (int b = 0; b < BIOME_COUNT; b++)
        printf("    note: %s grass palette on %d of %d lit tops\n", gen_biome_name((WorldBiome)b), exact[b], tops);
    for (int b = 0; b < BIOME_COUNT; b++) assert_true(exact[b] * 50 >= tops);   /* each at least 2% */
    flat_close(&f);
}

/* Across a border the grass changes from one palette to the other without a seam: neighbouring
 * columns differ by at most 12 per channel (a cut would jump by up to ~180), and the ends show
 * the two palettes exactly. */
static void test_border_blends(void **state) {
    (void)state;
    Flat f;
    flat_open(&f);
    /* A border along z = 16: two pure samples of different biomes, 32 blocks apart on a 32 grid. */
    int32_t xa = 0, xb = 0;
    WorldBiome ba = BIOME_TEMPERATE, bb = BIOME_TEMPERATE;
    bool found = false;
    for (int32_t z = 16; z < 20000 && !found; z += 1024) {
        BiomeSample prev = {0}, cur;
        int32_t xp = 0;
        bool have = false;
        for (int32_t x = 0; x < 20000 && !found; x += 32) {
            gen_biome_at(&g_gen, x, z, &cur);
            if (cur.w[cur.main] < 0.999f) continue;
            if (have && cur.main != prev.main && x - xp <= 640) {
                xa = xp, xb = x, ba = prev.main, bb = cur.main, found = true;
                f.p.gen.seed = f.p.gen.seed;   /* (the row z is kept below) */
                xa = xa - 64, xb = xb + 64;
                prev = cur;
                break;
            }
            prev = cur, xp = x, have = true;
        }
        if (found) {
            static int col[CHUNK_SIZE][CHUNK_SIZE][3];
            int32_t cz = z / CHUNK_SIZE, lz = z - cz * CHUNK_SIZE;
            int last[3] = {-1, -1, -1}, lastx = 0, worst = 0, pairs = 0, first_d = -1, last_d = -1, first_b = -1, last_b = -1;
            for (int32_t cx = xa / CHUNK_SIZE; cx <= xb / CHUNK_SIZE; cx++) {
                top_colours(&f, cx, cz, 0, col);
                for (int x = 0; x < CHUNK_SIZE; x++) {
                    const int *c = col[lz][x];
                    if (c[0] < 0) continue;
                    int gx = cx * CHUNK_SIZE + x, d, b = nearest_palette(c, &d);
                    if (first_d < 0) first_d = d, first_b = b;
                    last_d = d, last_b = b;
                    if (last[0] >= 0 && gx == lastx + 1) {
                        for (int k = 0; k < 3; k++)
                            if (abs(c[k] - last[k]) > worst) worst = abs(c[k] - last[k]);
                        pairs++;
                    }
                    memcpy(last, c, sizeof last);
                    lastx = gx;
                }
            }
            printf("    note: border %s -> %s along z %d, x %d..%d: %d neighbour pairs, largest step %d; ends %s (%d off), "
                   "%s (%d off)\n", gen_biome_name(ba), gen_biome_name(bb), z, xa, xb, pairs, worst,
                   first_b >= 0 ? gen_biome_name((WorldBiome)first_b) : "-", first_d,
                   last_b >= 0 ? gen_biome_name((WorldBiome)last_b) : "-", last_d);
            assert_true(pairs > 100);
            assert_true(worst <= 12);
            assert_int_equal(first_b, ba);
            assert_int_equal(last_b, bb);
            assert_true(first_d <= 3 && last_d <= 3);
        }
    }
    assert_true(found);
    flat_close(&f);
}

/* Chroma spread of rock side faces by strata band (three blocks each) in chunk (cx, cz): the
 * bands' mean chroma (r and g over r + g + b of the brightest vertex) spread between bands, and
 * the largest spread within one band. */
static void side_bands(Flat *f, int32_t cx, int32_t cz, int *nbands, double *between, double *within) {
    ChunkMesh m;
    WorldBuildTiming t;
    assert_true(world_build_chunk_lod(f->w, cx, cz, 0, 0.0, &m, &t));
    double sr[8] = {0}, sg[8] = {0}, lo[8][2], hi[8][2];
    int cnt[8] = {0};
    for (uint32_t i = 0; i < m.opaque_parts; i++)
        for (uint32_t q = 0; q < m.parts[i].vert_count; q += 4) {
            const WorldVertex *v = &m.parts[i].verts[q];
            int mat = v->flags >> 2;
            if (v->normal == WORLD_NORMAL_PY || v->normal == WORLD_NORMAL_NY) continue;
            if (mat != WORLD_MAT_CLIFF && mat != WORLD_MAT_DIRT && mat != WORLD_MAT_STONE) continue;
            const WorldVertex *br = &v[0];
            int y = v[0].y;
            for (int k = 1; k < 4; k++) {
                if (v[k].r + v[k].g + v[k].b > br->r + br->g + br->b) br = &v[k];
                if (v[k].y < y) y = v[k].y;
            }
            int sum = br->r + br->g + br->b;
            if (y < 90 || sum < 150) continue;   /* island rock in good light: chroma well defined */
            double cr = (double)br->r / sum, cg = (double)br->g / sum;
            int b = (y / 3) & 7;
            if (!cnt[b]) lo[b][0] = hi[b][0] = cr, lo[b][1] = hi[b][1] = cg;
            if (cr < lo[b][0]) lo[b][0] = cr;
            if (cr > hi[b][0]) hi[b][0] = cr;
            if (cg < lo[b][1]) lo[b][1] = cg;
            if (cg > hi[b][1]) hi[b][1] = cg;
            sr[b] += cr, sg[b] += cg, cnt[b]++;
        }
    world_free_mesh(f->w, &m);
    double mlo[2] = {1, 1}, mhi[2] = {0, 0};
    *nbands = 0, *within = 0.0;
    for (int b = 0; b < 8; b++) {
        if (cnt[b] < 4) continue;
        (*nbands)++;
        double c[2] = {sr[b] / cnt[b], sg[b] / cnt[b]};
        for (int k = 0; k < 2; k++) {
            if (c[k] < mlo[k]) mlo[k] = c[k];
            if (c[k] > mhi[k]) mhi[k] = c[k];
            if (hi[b][k] - lo[b][k] > *within) *within = hi[b][k] - lo[b][k];
        }
    }
    *between = mhi[0] - mlo[0] > mhi[1] - mlo[1] ? mhi[0] - mlo[0] : mhi[1] - mlo[1];
}

/* Desert mesas show banded strata on their rock faces: the side faces' hue changes from band to
 * band (three blocks each) and holds within a band; temperate rock has no bands. */
static void test_desert_strata(void **state) {
    (void)state;
    Flat f;
    flat_open(&f);
    int32_t desert[2] = {0, 0}, temperate[2] = {0, 0};
    bool have_d = false, have_t = false;
    for (int32_t z = 0; z < 40000 && !(have_d && have_t); z += 2048)
        for (int32_t x = -20000; x < 20000 && !(have_d && have_t); x += 512) {
            BiomeSample c[4];
            for (int k = 0; k < 4; k++) gen_biome_at(&g_gen, x + (k & 1) * 40 - 4, z + (k >> 1) * 40 - 4, &c[k]);
            bool pure_d = true, pure_t = true;
            for (int k = 0; k < 4; k++) {
                pure_d &= c[k].w[BIOME_DESERT] == 1.0f;
                pure_t &= c[k].w[BIOME_TEMPERATE] == 1.0f;
            }
            if (pure_d && !have_d) desert[0] = x / CHUNK_SIZE, desert[1] = z / CHUNK_SIZE, have_d = true;
            if (pure_t && !have_t) temperate[0] = x / CHUNK_SIZE, temperate[1] = z / CHUNK_SIZE, have_t = true;
        }
    assert_true(have_d && have_t);
    int nd, nt;
    double bd, wd, bt, wt;
    side_bands(&f, desert[0], desert[1], &nd, &bd, &wd);
    side_bands(&f, temperate[0], temperate[1], &nt, &bt, &wt);
    printf("    note: desert chunk %d,%d: %d bands, chroma spread %.3f between, %.3f within; temperate chunk %d,%d: "
           "%d bands, %.3f between, %.3f within\n", desert[0], desert[1], nd, bd, wd, temperate[0], temperate[1], nt, bt, wt);
    assert_true(nd >= 4 && nt >= 4);
    assert_true(bd >= 0.03 && wd <= 0.02);
    assert_true(bt <= 0.02);
    flat_close(&f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_weights),
        cmocka_unit_test(test_row_equals_point),
        cmocka_unit_test(test_coverage_and_blend),
        cmocka_unit_test(test_chunk_weights),
        cmocka_unit_test(test_palettes_appear),
        cmocka_unit_test(test_border_blends),
        cmocka_unit_test(test_desert_strata),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
