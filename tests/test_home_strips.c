/* Airstrips of the home island: the base camp has one on the game's seed and on many others;
 * each is level in the baked field and in the world's blocks (solid under its surface, no cave
 * opening it, air above), clear of every object (the collision's boxes and the chunks' placed
 * objects), its approach beyond both ends open air along a 3-degree glide path, marked on the
 * ground (surface and paint), built by the chunks as the point query sees it, and the same bits on every run and platform (a golden of the
 * game's seed, checked under qemu-aarch64 too). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "island/island.h"
#include "support/emulated.h"
#include "support/home_world.h"
#include "world/props_internal.h"
#include "world/world.h"
#include "world/world_internal.h"

#define GAME_SEED 20261129u
/* FNV-1a 64 of the game's seed's strips (every field of IslandFieldStrip, as bits). */
#define STRIPS_GOLDEN 0xbeb7caf3b506940bull
#define GLIDE_TAN 0.0524078   /* tan(3 degrees) */
#define APPROACH_M 1500.0

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t strips_hash(const IslandField *f) {
    uint64_t h = fnv(0xcbf29ce484222325ull, &f->n_strips, sizeof f->n_strips);
    for (uint32_t k = 0; k < f->n_strips; k++) {
        const IslandFieldStrip *s = &f->strips[k];
        const float v[] = {s->ax, s->az, s->bx, s->bz, s->dir_x, s->dir_z, s->length_m, s->width_m, s->elev_m,
                           s->relief_m, s->yaw};
        h = fnv(h, v, sizeof v);
        h = fnv(h, &s->site, 1);
        h = fnv(h, &s->base, 1);
    }
    return h;
}

/* Cell of the field under (x, z) metres from its centre. */
static size_t field_cell(const IslandField *f, double x, double z) {
    double half = 0.5 * f->size;
    return (size_t)floor(z / f->cell_meters + half) * f->size + (size_t)floor(x / f->cell_meters + half);
}

/* The field's checks of one island: a base strip first, every strip level on the island, apart
 * from the others, its lane clear of every site (landmark). */
static void check_field(const HomeIsland *h, uint32_t *relief_max_dm) {
    const IslandField *f = &h->field;
    assert_true(f->n_strips >= 1 && f->n_strips <= ISLAND_FIELD_MAX_STRIPS);
    assert_true(f->strips[0].base);
    assert_int_equal(f->strips[0].site, h->isl.base);
    for (uint32_t k = 0; k < f->n_strips; k++) {
        const IslandFieldStrip *s = &f->strips[k];
        assert_true(k == 0 || !s->base);
        assert_true(s->open);   /* every strip's approaches clear, the base's too */
        assert_true(s->length_m >= 200.0f && s->width_m >= 16.0f);
        assert_float_equal(s->elev_m, floorf(s->elev_m), 0.0f);
        uint32_t r = (uint32_t)(s->relief_m * 10.0f + 0.5f);
        if (r > *relief_max_dm) *relief_max_dm = r;
        for (double u = 0.0; u <= s->length_m; u += 1.0)
            for (double v = -0.5 * s->width_m; v <= 0.5 * s->width_m; v += 1.0) {
                double x = s->ax + s->dir_x * u - s->dir_z * v, z = s->az + s->dir_z * u + s->dir_x * v;
                size_t c = field_cell(f, x, z);
                assert_int_not_equal(f->type[c], ISLAND_FIELD_OFF);
                assert_int_equal(f->elevation_dm[c], (uint16_t)(s->elev_m * 10.0f));
                for (uint32_t o = 0; o < f->n_strips; o++)
                    assert_true(o == k || !island_field_strip_near(f, o, (float)x, (float)z, 10.0f, 10.0f));
            }
        for (uint32_t i = 0; i < f->n_sites; i++) {
            double x = f->sites[i].x_m - s->ax, z = f->sites[i].z_m - s->az;
            assert_true(fabs(z * s->dir_x - x * s->dir_z) > 0.5 * s->width_m + PROP_LANDMARK_R);
        }
    }
}

static void test_base_strip_on_many_seeds(void **state) {
    (void)state;
    uint32_t seeds = test_running_emulated() ? 6 : 60, strips = 0, relief = 0;
    for (uint32_t seed = 1; seed <= seeds; seed++) {
        static HomeIsland h;
        SkyError err = {0};
        if (!home_island_make(&h, seed, &err)) fail_msg("seed %u: %s", seed, err.msg);
        check_field(&h, &relief);
        strips += h.field.n_strips;
        home_island_release(&h);
    }
    printf("# seeds 1..%u: a base strip on every one, %u strips in all, natural relief levelled at most %.1f m\n", seeds,
           strips, relief * 0.1);
}

static HomeIsland g_home;
static TestWorld g_tw;
static WorldGen g_gen;
static ChunkScratch g_s;

static int setup(void **state) {
    (void)state;
    SkyError err = {0};
    if (!home_island_make(&g_home, GAME_SEED, &err)) fail_msg("home island: %s", err.msg);
    world_params_default(&g_tw.params);
    g_tw.params.gen.seed = GAME_SEED;
    gen_init(&g_gen, &g_tw.params.gen, &g_home.field);
    if (!test_world_open(&g_tw, 48, NULL, &g_home.field, &err)) fail_msg("world: %s", err.msg);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    test_world_close(&g_tw);
    home_island_release(&g_home);
    return 0;
}

static void test_game_seed_golden(void **state) {
    (void)state;
    uint32_t relief = 0;
    check_field(&g_home, &relief);
    uint64_t h = strips_hash(&g_home.field);
    static HomeIsland again;
    SkyError err = {0};
    assert_true(home_island_make(&again, GAME_SEED, &err));
    assert_true(strips_hash(&again.field) == h);   /* the same bits twice */
    home_island_release(&again);
    for (uint32_t k = 0; k < g_home.field.n_strips; k++) {
        WorldStrip s;
        assert_true(world_strip(g_tw.world, k, &s));
        printf("# strip %u%s: site %u, %.1f,%.1f -> %.1f,%.1f, y %.0f, relief %.1f m\n", k, s.base ? " (base)" : "", s.site,
               s.ax, s.az, s.bx, s.bz, s.y, s.relief_m);
    }
    assert_int_equal(world_strip_count(g_tw.world), g_home.field.n_strips);
    WorldStrip none;
    assert_false(world_strip(g_tw.world, g_home.field.n_strips, &none));
    if (h != STRIPS_GOLDEN) fail_msg("strips hash %016" PRIx64 ", golden %016llx", h, STRIPS_GOLDEN);
}

/* Every block column of the strip: solid for 4 blocks under its surface (no cave opens it), air
 * for 8 above (nothing stands on it). */
static void check_level(const WorldStrip *s) {
    for (double u = 0.5; u < s->length_m; u += 1.0)
        for (double v = -0.5 * s->width_m + 0.5; v < 0.5 * s->width_m; v += 1.0) {
            double x = s->ax + s->dir_x * u - s->dir_z * v, z = s->az + s->dir_z * u + s->dir_x * v;
            for (int d = 1; d <= 4; d++)
                if (!world_solid_at(g_tw.world, x, s->y - d + 0.5, z)) fail_msg("strip: air %d under %.1f,%.1f", d, x, z);
            for (int d = 0; d < 8; d++)
                if (world_solid_at(g_tw.world, x, s->y + d + 0.5, z)) fail_msg("strip: rock %d over %.1f,%.1f", d, x, z);
        }
}

/* No solid object box of the collision meets the strip's rectangle. */
static void check_no_objects(const WorldStrip *s) {
    double xs[4], zs[4];
    for (int c = 0; c < 4; c++) {
        double u = (c & 1) ? s->length_m : 0.0, v = (c & 2) ? 0.5 * s->width_m : -0.5 * s->width_m;
        xs[c] = s->ax + s->dir_x * u - s->dir_z * v;
        zs[c] = s->az + s->dir_z * u + s->dir_x * v;
    }
    int64_t x0 = (int64_t)floor(fmin(fmin(xs[0], xs[1]), fmin(xs[2], xs[3]))), x1 = (int64_t)ceil(fmax(fmax(xs[0], xs[1]), fmax(xs[2], xs[3])));
    int64_t z0 = (int64_t)floor(fmin(fmin(zs[0], zs[1]), fmin(zs[2], zs[3]))), z1 = (int64_t)ceil(fmax(fmax(zs[0], zs[1]), fmax(zs[2], zs[3])));
    static WorldBox box[4096];
    uint32_t n = world_solid_objects(g_tw.world, x0, (int64_t)s->y - 4, z0, x1, (int64_t)s->y + 40, z1, box, 4096);
    assert_true(n <= 4096);
    for (uint32_t i = 0; i < n; i++)
        for (int64_t bz = box[i].z0; bz < box[i].z1; bz++)
            for (int64_t bx = box[i].x0; bx < box[i].x1; bx++) {
                double px = bx + 0.5 - s->ax, pz = bz + 0.5 - s->az;
                double u = px * s->dir_x + pz * s->dir_z, v = pz * s->dir_x - px * s->dir_z;
                if (u >= -1.0 && u <= s->length_m + 1.0 && fabs(v) <= 0.5 * s->width_m + 1.0)
                    fail_msg("object box at %" PRId64 ",%" PRId64 " on the strip", bx, bz);
            }
}

/* Along a 3-degree glide path from a metre over each threshold out to APPROACH_M, on the centre
 * line and both edges: air, and no object. */
static void check_approach(const WorldStrip *s) {
    for (int end = 0; end < 2; end++) {
        double tx = end ? s->bx : s->ax, tz = end ? s->bz : s->az, out = end ? 1.0 : -1.0;
        for (double d = 0.0; d <= APPROACH_M; d += 4.0)
            for (int lane = -1; lane <= 1; lane++) {
                double x = tx + out * s->dir_x * d - s->dir_z * lane * 0.5 * s->width_m;
                double z = tz + out * s->dir_z * d + s->dir_x * lane * 0.5 * s->width_m;
                double y = s->y + 1.0 + d * GLIDE_TAN;
                if (world_solid_at(g_tw.world, x, y, z))
                    fail_msg("approach %d of the strip: rock at %.0f m out (%.1f, %.1f, %.1f)", end, d, x, y, z);
                WorldBox b[4];
                if (world_solid_objects(g_tw.world, (int64_t)floor(x), (int64_t)floor(y), (int64_t)floor(z),
                                        (int64_t)floor(x), (int64_t)floor(y), (int64_t)floor(z), b, 4))
                    fail_msg("approach %d of the strip: an object at %.0f m out", end, d);
            }
    }
}

static void test_strips_level_clear_open(void **state) {
    (void)state;
    uint32_t n = world_strip_count(g_tw.world);
    for (uint32_t k = 0; k < n; k++) {
        WorldStrip s;
        assert_true(world_strip(g_tw.world, k, &s));
        check_level(&s);
        check_no_objects(&s);
        check_approach(&s);
    }
    printf("# %u strips level, clear and open at both ends\n", n);
}

/* The chunks' placed objects (what is drawn, small ones too) keep off the base strip, and its
 * blocks are marked: the surface and the paint, both. */
static void test_base_strip_drawn_clear_and_marked(void **state) {
    (void)state;
    WorldStrip s;
    assert_true(world_strip(g_tw.world, 0, &s));
    uint32_t surface = 0, paint = 0, placed = 0;
    int32_t c0x = floor_div((int64_t)floor(fmin(s.ax, s.bx)) - 8, CHUNK_SIZE), c1x = floor_div((int64_t)ceil(fmax(s.ax, s.bx)) + 8, CHUNK_SIZE);
    int32_t c0z = floor_div((int64_t)floor(fmin(s.az, s.bz)) - 8, CHUNK_SIZE), c1z = floor_div((int64_t)ceil(fmax(s.az, s.bz)) + 8, CHUNK_SIZE);
    for (int32_t cz = c0z; cz <= c1z; cz++)
        for (int32_t cx = c0x; cx <= c1x; cx++) {
            gen_chunk_voxels(&g_gen, cx, cz, 0.0, &g_s);
            placed += g_s.props.nplaced;
            for (uint32_t i = 0; i < g_s.props.nplaced; i++) {
                const PropPlaced *p = &g_s.props.placed[i];
                if (gen_home_near_strip(&g_gen, p->bx, p->bz, 0.0f, (float)PROP_R_MAX))
                    fail_msg("%s at %" PRId64 ",%" PRId64 " on the strip", gen_prop_shape_name(p->shape, p->landmark), p->bx, p->bz);
            }
        }
    for (double u = 0.5; u < s.length_m; u += 1.0)
        for (double v = -0.5 * s.width_m + 0.5; v < 0.5 * s.width_m; v += 1.0) {
            int64_t bx = (int64_t)floor(s.ax + s.dir_x * u - s.dir_z * v), bz = (int64_t)floor(s.az + s.dir_z * u + s.dir_x * v);
            if (gen_home_type(&g_gen, bx, bz) != WORLD_HOME_STRIP) continue;
            uint32_t rgb = gen_home_strip_rgb(&g_gen, bx, bz);
            paint += rgb == 0xECECE4u;
            surface += rgb == 0x9E9C94u;
        }
    printf("# base strip: %u objects placed in its chunks, none on it; %u surface and %u painted blocks\n", placed,
           surface, paint);
    assert_true(placed > 0);
    assert_true(paint > 200 && surface > 5 * paint);
}

/* The chunks build the strips as the point query sees them (one density, caves shielded alike):
 * over every chunk a strip crosses (the base strip's alone under emulation), every block column of the strip from 12 under its surface to
 * 3 over, and the same around its edges. */
static void test_chunks_match_points(void **state) {
    (void)state;
    uint32_t n = 0, solid = 0, strips = test_running_emulated() ? 1 : world_strip_count(g_tw.world);
    for (uint32_t k = 0; k < strips; k++) {
        WorldStrip s;
        assert_true(world_strip(g_tw.world, k, &s));
        int32_t last_cx = INT32_MIN, last_cz = INT32_MIN;
        ChunkMesh m = {0};
        bool built = false;
        for (double u = 0.5; u < s.length_m; u += 4.0)
            for (double v = -0.5 * s.width_m - 6.5; v <= 0.5 * s.width_m + 6.5; v += 1.0) {
                double x = s.ax + s.dir_x * u - s.dir_z * v, z = s.az + s.dir_z * u + s.dir_x * v;
                int32_t cx = (int32_t)floor(x / CHUNK_SIZE), cz = (int32_t)floor(z / CHUNK_SIZE);
                if (cx != last_cx || cz != last_cz) {
                    WorldBuildTiming t;
                    if (built) world_free_mesh(g_tw.world, &m);
                    assert_true(world_build_chunk(g_tw.world, cx, cz, 0.0, &m, &t));
                    built = true;
                    last_cx = cx, last_cz = cz;
                }
                const uint8_t *vox = world_debug_voxels(g_tw.world, NULL);
                int lx = (int)floor(x) - cx * CHUNK_SIZE, lz = (int)floor(z) - cz * CHUNK_SIZE;
                for (int y = (int)s.y - 12; y < (int)s.y + 3; y++) {
                    bool want = world_solid_at(g_tw.world, floor(x) + 0.5, y + 0.5, floor(z) + 0.5);
                    bool got = vox[((y - WORLD_Y_MIN + 1) * WORLD_VOX_ROW + (lz + 1)) * WORLD_VOX_ROW + (lx + 1)] >= WORLD_MAT_ABYSS;
                    if (got != want) fail_msg("strip %u: block %d,%d,%d: chunk %d, point %d", k, (int)floor(x), y, (int)floor(z), got, want);
                    n++;
                    solid += got;
                }
            }
        if (built) world_free_mesh(g_tw.world, &m);
    }
    printf("# chunks = points at %u blocks of the strips and their edges (%u solid)\n", n, solid);
    assert_true(solid > n / 2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base_strip_on_many_seeds),
        cmocka_unit_test(test_game_seed_golden),
        cmocka_unit_test(test_strips_level_clear_open),
        cmocka_unit_test(test_base_strip_drawn_clear_and_marked),
        cmocka_unit_test(test_chunks_match_points),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
