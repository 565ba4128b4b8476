/* Tests for the cave styles (C1-C3), measured on air components carved out of solid rock:
 * tube tunnels form long connected networks, the seed's cheese caves isolated bubbles; worms
 * with rough walls; and a cave kind added from this file alone through the cave table. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "noise/noise.h"
#include "support/alloc_count.h"
#include "support/emulated.h"
#include "world/world.h"
#include "world/world_internal.h"

#define RC 3                          /* region: RC x RC chunks */
#define RX (RC * CHUNK_SIZE)          /* 96 */
#define RY0 8                         /* caves start at cave_min_y */
#define RY 64
#define RIDX(x, y, z) (((size_t)(y) * RX + (size_t)(z)) * RX + (size_t)(x))

static uint8_t g_air[RX * RX * RY];
static int32_t g_comp[RX * RX * RY];
static uint32_t g_stack[RX * RX * RY];

typedef struct CaveStats {
    uint32_t air, components, largest, largest_extent;
    double frac_long;     /* share of air in components spanning >= 48 blocks */
    double frac_small;    /* share of components with extent < 16 */
    uint32_t median_extent;
} CaveStats;

/* Solid everywhere (huge base height), no islands or clouds: only the caves carve. */
static void cave_params(WorldParams *p, uint32_t modes) {
    world_params_default(p);
    p->gen.base_offset = 600.0f;
    p->gen.clouds = false;
    p->gen.cave_modes = modes;
    p->live.view_radius = 2;
    p->create.mesh_pool_mib = 8;
}

/* Returns the heap calls made from world_create to world_destroy (the budget is the only one). */
static uint64_t fill_region(uint32_t modes, const WorldParams *base) {
    MemBudget b;
    SkyError err = {0};
    assert_true(mem_budget_init(&b, (size_t)32 << 20, &err));
    WorldParams p = *base;
    (void)modes;
    alloc_count_start();
    World *w = world_create(&b, NULL, &p, NULL, &err);
    assert_non_null(w);
    for (int cz = 0; cz < RC; cz++)
        for (int cx = 0; cx < RC; cx++) {
            ChunkMesh m;
            WorldBuildTiming t;
            assert_true(world_build_chunk(w, cx + 40, cz - 17, 0.0, &m, &t));
            world_free_mesh(w, &m);
            const uint8_t *v = world_debug_voxels(w, NULL);
            for (int y = 0; y < RY; y++)
                for (int z = 0; z < CHUNK_SIZE; z++)
                    for (int x = 0; x < CHUNK_SIZE; x++)
                        g_air[RIDX(cx * CHUNK_SIZE + x, y, cz * CHUNK_SIZE + z)] =
                            v[WV_INDEX(x, RY0 + y, z)] < WORLD_MAT_ABYSS;
        }
    world_destroy(w);
    uint64_t allocs = alloc_count_stop();
    mem_budget_release(&b);
    return allocs;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void measure(CaveStats *st) {
    static uint32_t extents[RX * RX * RY / 2 + 1];
    memset(st, 0, sizeof *st);
    memset(g_comp, 0xff, sizeof g_comp);
    uint64_t long_air = 0;
    uint32_t small = 0;
    for (size_t start = 0; start < sizeof g_air; start++) {
        if (!g_air[start]) continue;
        st->air++;
        if (g_comp[start] >= 0) continue;
        int32_t id = (int32_t)st->components++;
        uint32_t sp = 0, size = 0;
        int lo[3] = {RX, RY, RX}, hi[3] = {-1, -1, -1};
        g_stack[sp++] = (uint32_t)start;
        g_comp[start] = id;
        while (sp) {
            uint32_t i = g_stack[--sp];
            int x = (int)(i % RX), z = (int)((i / RX) % RX), y = (int)(i / (RX * RX));
            int c[3] = {x, y, z};
            for (int a = 0; a < 3; a++) {
                if (c[a] < lo[a]) lo[a] = c[a];
                if (c[a] > hi[a]) hi[a] = c[a];
            }
            size++;
            static const int d[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
            for (int k = 0; k < 6; k++) {
                int nx = x + d[k][0], ny = y + d[k][1], nz = z + d[k][2];
                if (nx < 0 || ny < 0 || nz < 0 || nx >= RX || ny >= RY || nz >= RX) continue;
                size_t j = RIDX(nx, ny, nz);
                if (!g_air[j] || g_comp[j] >= 0) continue;
                g_comp[j] = id;
                g_stack[sp++] = (uint32_t)j;
            }
        }
        uint32_t ext = 0;
        for (int a = 0; a < 3; a++)
            if ((uint32_t)(hi[a] - lo[a] + 1) > ext) ext = (uint32_t)(hi[a] - lo[a] + 1);
        if (id < (int32_t)(sizeof extents / sizeof extents[0])) extents[id] = ext;
        if (size > st->largest) st->largest = size;
        if (ext > st->largest_extent) st->largest_extent = ext;
        if (ext >= 48) long_air += size;
        if (ext < 16) small++;
    }
    uint32_t n = st->components < sizeof extents / sizeof extents[0] ? st->components : sizeof extents / sizeof extents[0];
    qsort(extents, n, sizeof extents[0], cmp_u32);
    st->median_extent = n ? extents[n / 2] : 0;
    st->frac_long = st->air ? (double)long_air / st->air : 0.0;
    st->frac_small = st->components ? (double)small / st->components : 0.0;
}

static void report(const char *name, const CaveStats *s) {
    printf("%-7s air %6.2f%%  components %5u  largest %6u voxels / extent %3u  median extent %3u  "
           "air in long (>=48) %5.1f%%  small (<16) components %5.1f%%\n",
           name, 100.0 * s->air / (RX * RX * RY), s->components, s->largest, s->largest_extent, s->median_extent,
           100.0 * s->frac_long, 100.0 * s->frac_small);
}

static void test_tubes_are_long_networks(void **state) {
    (void)state;
    WorldParams p;
    cave_params(&p, WORLD_CAVES_TUBES);
    fill_region(WORLD_CAVES_TUBES, &p);
    CaveStats s;
    measure(&s);
    report("tubes", &s);
    assert_true(s.air > 2000);
    assert_true(s.largest_extent >= 80);   /* a tunnel crosses most of the 96-block region */
    assert_true(s.frac_long > 0.6);        /* most tunnel air belongs to long networks */
}

static void test_cheese_are_isolated_bubbles(void **state) {
    (void)state;
    WorldParams p;
    cave_params(&p, WORLD_CAVES_CHEESE);
    fill_region(WORLD_CAVES_CHEESE, &p);
    CaveStats s;
    measure(&s);
    report("cheese", &s);
    assert_true(s.air > 2000);
    assert_true(s.components >= 20);
    assert_true(s.largest_extent < 48);    /* no bubble reaches across half the region */
    assert_true(s.frac_long < 0.05);
}

/* Compared head to head with the same air budget: tubes connect, cheese does not. */
static void test_tubes_vs_cheese(void **state) {
    (void)state;
    WorldParams p;
    CaveStats t, c;
    cave_params(&p, WORLD_CAVES_TUBES);
    fill_region(WORLD_CAVES_TUBES, &p);
    measure(&t);
    cave_params(&p, WORLD_CAVES_CHEESE);
    fill_region(WORLD_CAVES_CHEESE, &p);
    measure(&c);
    double t_per = (double)t.air / t.components, c_per = (double)c.air / c.components;
    printf("air per component: tubes %.0f, cheese %.0f\n", t_per, c_per);
    assert_true(t.largest_extent > 2 * c.largest_extent);
    assert_true(t.frac_long > c.frac_long + 0.5);
}

/* The seed's worms (1 - |n| > 0.9) carve wide sheet-like caverns, connected as well. */
static void test_worm_sheets(void **state) {
    (void)state;
    WorldParams p;
    cave_params(&p, WORLD_CAVES_WORMS);
    fill_region(WORLD_CAVES_WORMS, &p);
    CaveStats s;
    measure(&s);
    report("worms", &s);
    assert_true(s.air > 2000);
    assert_true(s.largest_extent >= 80);
}

/* Boundary faces between air and rock inside the region, per air voxel: rough walls have more. */
static double surface_per_air(void) {
    uint64_t faces = 0, air = 0;
    for (int y = 0; y < RY; y++)
        for (int z = 0; z < RX; z++)
            for (int x = 0; x < RX; x++) {
                if (!g_air[RIDX(x, y, z)]) continue;
                air++;
                if (x + 1 < RX) faces += !g_air[RIDX(x + 1, y, z)];
                if (x > 0) faces += !g_air[RIDX(x - 1, y, z)];
                if (y + 1 < RY) faces += !g_air[RIDX(x, y + 1, z)];
                if (y > 0) faces += !g_air[RIDX(x, y - 1, z)];
                if (z + 1 < RX) faces += !g_air[RIDX(x, y, z + 1)];
                if (z > 0) faces += !g_air[RIDX(x, y, z - 1)];
            }
    return air ? (double)faces / (double)air : 0.0;
}

static uint64_t region_hash(void) { return hash_fnv1a64(g_air, sizeof g_air, 0); }

static void set_param(WorldParams *p, const char *name, double v) {
    const WorldParamDesc *d = world_param_find(name);
    assert_non_null(d);
    world_param_set(p, d, v);
}

/* C2's rough walls (FBM on the worm field), one entry of the cave table: with one octave it is
 * the worms' field itself, with more the same caverns get rough walls; deterministic on every
 * noise path. */
static void test_rough_worm_walls(void **state) {
    (void)state;
    WorldParams p;
    cave_params(&p, WORLD_CAVES_WORMS);
    fill_region(0, &p);
    CaveStats worms;
    measure(&worms);
    double worm_surface = surface_per_air();
    uint64_t worm_hash = region_hash();
    static uint8_t worm_air[RX * RX * RY];   /* kept for the overlap below: no second worm fill */
    memcpy(worm_air, g_air, sizeof g_air);

    cave_params(&p, WORLD_CAVES_ROUGH);
    set_param(&p, "rough_octaves", 1);
    set_param(&p, "rough_threshold", 0.9);
    fill_region(0, &p);
    assert_int_equal(region_hash(), worm_hash);   /* octave 0 of the FBM is the worm field */

    cave_params(&p, WORLD_CAVES_ROUGH);
    fill_region(0, &p);
    CaveStats rough;
    measure(&rough);
    double rough_surface = surface_per_air();
    uint64_t h = region_hash();
    /* Overlap with the worms: the same caverns, reshaped. */
    uint64_t both = 0, either = 0;
    for (size_t i = 0; i < sizeof g_air; i++) {
        both += worm_air[i] && g_air[i];
        either += worm_air[i] || g_air[i];
    }
    report("worms", &worms);
    report("rough", &rough);
    printf("air faces per air voxel: worms %.3f, rough %.3f; shared air %.0f%% of either\n", worm_surface, rough_surface,
           100.0 * (double)both / (double)either);
    assert_true(h != worm_hash);
    /* About the worms' air at the defaults, with more wall around it. */
    assert_true(rough.air > worms.air * 8 / 10 && rough.air < worms.air * 12 / 10);
    assert_true(rough_surface > worm_surface * 1.15);
    assert_true((double)both / (double)either > 0.2);

    /* Deterministic: again, and on the plain C noise path. */
    cave_params(&p, WORLD_CAVES_ROUGH);
    fill_region(0, &p);
    assert_int_equal(region_hash(), h);
    NoisePath path = noise_get_path();
    assert_true(noise_set_path(NOISE_PATH_SCALAR));
    fill_region(0, &p);
    noise_set_path(path);
    assert_int_equal(region_hash(), h);
}

/* ---------------------------------------------------------------- a kind from this file */
/* Vertical shafts: a simplex field sampled with no y frequency is the same at every height, so
 * where it is high the air is a column. Nothing in src/world knows about it. */
#define SHAFT_BIT 6
static void shaft_setup(const double *prm, CaveField *f) {
    f->row = cave_row_simplex3;
    f->fx = noise_fx_from_double(prm[0]);
    f->fy = 0;
}

static void shaft_carve(const float *prm, const float *const *f, float *t, int n) {
    for (int i = 0; i < n; i++) t[i] = (prm[1] - f[0][i]) * WG_CAVE_K;
}

static const CaveKind k_shafts = {
    "shafts", 1u << SHAFT_BIT, 1, {40}, shaft_setup, shaft_carve, NULL, 2,
    {CAVE_PARAM(SHAFT_BIT, 0, "shaft_scale", 0.01, 0.2, 0.06, "test shafts: noise frequency (1/blocks)"),
     CAVE_PARAM(SHAFT_BIT, 1, "shaft_threshold", 0, 1, 0.55, "test shafts: air where the noise exceeds this")}};

/* Its rows name another kind's parameter slots: refused. */
static const CaveKind k_misfiled = {
    "misfiled", 1u << 7, 1, {41}, shaft_setup, shaft_carve, NULL, 1,
    {CAVE_PARAM(SHAFT_BIT, 0, "misfiled_scale", 0.01, 0.2, 0.06, "misfiled")}};

static void test_cave_kind_from_a_table_entry(void **state) {
    (void)state;
    size_t rows0 = world_param_count();
    assert_true(cave_kind_register(&k_shafts));
    assert_false(cave_kind_register(&k_shafts));     /* its bit is taken now */
    assert_false(cave_kind_register(&k_misfiled));
    assert_int_equal(world_param_count(), rows0 + 2);
    assert_ptr_equal(cave_kind_at(SHAFT_BIT), &k_shafts);
    WorldParams p;
    cave_params(&p, 1u << SHAFT_BIT);
    assert_true(p.gen.cave_params[SHAFT_BIT][1] == 0.55);   /* its defaults come with it */
    SkyError err = {0};
    assert_true(world_param_parse(&p, "shaft_threshold=0.5", &err));

    /* Fixed memory: the whole world, chunks included, without a heap call. */
    assert_int_equal(fill_region(0, &p), 0);
    CaveStats st;
    measure(&st);
    report("shafts", &st);
    assert_true(st.air > 2000);
    /* Every carved voxel is part of a column through the whole region's height. */
    uint64_t columns = 0;
    for (int z = 0; z < RX; z++)
        for (int x = 0; x < RX; x++) {
            int n = 0;
            for (int y = 0; y < RY; y++) n += g_air[RIDX(x, y, z)];
            assert_true(n == 0 || n == RY);
            columns += n == RY;
        }
    printf("shafts: %llu air columns of %d\n", (unsigned long long)columns, RX * RX);
    assert_true(columns > 100);

    /* The point query carves with the same entry: chunks and collision agree. */
    MemBudget b;
    assert_true(mem_budget_init(&b, (size_t)32 << 20, &err));
    World *w = world_create(&b, NULL, &p, NULL, &err);
    assert_non_null(w);
    ChunkMesh m;
    WorldBuildTiming t;
    assert_true(world_build_chunk(w, 3, -2, 0.0, &m, &t));
    world_free_mesh(w, &m);
    const uint8_t *v = world_debug_voxels(w, NULL);
    uint32_t air = 0;
    for (int y = RY0; y < RY0 + RY; y += 3)
        for (int z = 0; z < CHUNK_SIZE; z++)
            for (int x = 0; x < CHUNK_SIZE; x++) {
                bool solid = v[WV_INDEX(x, y, z)] >= WORLD_MAT_ABYSS;
                air += !solid;
                assert_int_equal(solid, world_density_at(w, 3 * CHUNK_SIZE + x + 0.5, y + 0.5, -2 * CHUNK_SIZE + z + 0.5) > 0.0f);
            }
    assert_true(air > 100);
    world_destroy(w);
    mem_budget_release(&b);
}

/* C3: cave mouths open on the surface; the floor below cave_min_y is never carved. */
static void test_cave_mouths_and_floor(void **state) {
    (void)state;
    MemBudget b;
    SkyError err = {0};
    assert_true(mem_budget_init(&b, (size_t)32 << 20, &err));
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 2;
    p.create.mesh_pool_mib = 8;
    World *w = world_create(&b, NULL, &p, NULL, &err);
    assert_non_null(w);
    WorldParams nocave = p;
    nocave.gen.cave_modes = WORLD_CAVES_NONE;
    uint32_t mouths = 0, carved = 0;
    /* 12 x 12 chunks natively; emulated (qemu-user, 23 s for all of them) every other chunk of
     * the same area each way, a quarter of the builds: natively 5367 carved and 244 mouths,
     * ten times the bounds, so a quarter still clears them. */
    int step = test_running_emulated() ? 2 : 1;
    for (int cz = -6; cz < 6; cz += step)
        for (int cx = -6; cx < 6; cx += step) {
            ChunkMesh m;
            WorldBuildTiming t;
            assert_true(world_build_chunk(w, cx, cz, 0.0, &m, &t));
            world_free_mesh(w, &m);
            const uint8_t *v = world_debug_voxels(w, NULL);
            for (int z = 1; z < CHUNK_SIZE; z += 5)
                for (int x = 2; x < CHUNK_SIZE; x += 5)
                    for (int y = WORLD_Y_MIN; y < WORLD_Y_MAX - 1; y++) {
                        bool air = v[WV_INDEX(x, y, z)] < WORLD_MAT_ABYSS;
                        if (!air) continue;
                        double wx = cx * CHUNK_SIZE + x + 0.5, wz = cz * CHUNK_SIZE + z + 0.5;
                        if (world_density_at_params(&nocave.gen, wx, y + 0.5, wz) <= 0.0f) continue;
                        carved++;   /* air only because a cave carved it */
                        assert_true((float)y + 0.5f >= p.gen.cave_min_y);
                        /* A mouth: carved air right under open sky (terrain air above it). */
                        bool above_open = v[WV_INDEX(x, y + 1, z)] < WORLD_MAT_ABYSS &&
                                          world_density_at_params(&nocave.gen, wx, y + 1.5, wz) <= 0.0f;
                        mouths += above_open;
                    }
        }
    printf("carved voxels sampled %u, mouths opening on the surface %u\n", carved, mouths);
    world_destroy(w);
    mem_budget_release(&b);
    assert_true(carved > 500);
    assert_true(mouths > 20);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tubes_are_long_networks),
        cmocka_unit_test(test_cheese_are_isolated_bubbles),
        cmocka_unit_test(test_tubes_vs_cheese),
        cmocka_unit_test(test_worm_sheets),
        cmocka_unit_test(test_cave_mouths_and_floor),
        cmocka_unit_test(test_rough_worm_walls),
        cmocka_unit_test(test_cave_kind_from_a_table_entry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
