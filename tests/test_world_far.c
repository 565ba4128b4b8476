/* Tests for a world without an edge: chunks at x and z = +-2^24, +-2^31 and
 * +-2^40 blocks and mixes of them are generated, look like the world 10^5 blocks out (solid share,
 * mean surface height, objects over 64 chunks), meet their neighbours and the point query at
 * their borders (also across block 0 and +-2^31, where the 32-bit corner maths used to wrap),
 * hash the same on every noise path and under qemu-aarch64; the collision and a restart work
 * there, and the streamer fills the view there; past WORLD_COORD_LIMIT the world is air. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "core/core.h"
#include "noise/noise.h"
#include "sim/sim.h"
#include "support/home_world.h"
#include "world/world.h"
#include "world/world_internal.h"

static ChunkScratch g_s, g_n;
static WorldGen g_gen;
static TestWorld g_tw;
static World *g_world;

#define P24 (INT64_C(1) << 24)
#define P31 (INT64_C(1) << 31)
#define P40 (INT64_C(1) << 40)

/* Far places in blocks: every sign of each distance, and mixes of distances. */
static const int64_t k_far[][2] = {
    {P24, P24},  {-P24, -P24}, {P24, -P24}, {-P24, P24}, {P31, P31},  {-P31, -P31}, {P31, -P31},  {-P31, P31},
    {P40, P40},  {-P40, -P40}, {P40, -P40}, {-P40, P40}, {P40, -P24}, {-P31, P40},  {P24, -P40},  {-P40, P31},
};
#define NFAR ((int)(sizeof k_far / sizeof k_far[0]))

static int setup(void **state) {
    (void)state;
    WorldParams *p = &g_tw.params;
    world_params_default(p);
    p->live.view_radius = 2;
    p->create.mesh_pool_mib = 8;
    gen_init(&g_gen, &p->gen, NULL);
    SkyError err = {0};
    if (!test_world_open(&g_tw, 48, NULL, NULL, &err)) return -1;
    g_world = g_tw.world;
    return 0;
}

static int teardown(void **state) {
    (void)state;
    test_world_close(&g_tw);
    return 0;
}

static int64_t chunk_of(int64_t block) { return floor_div64(block, CHUNK_SIZE); }

static bool point_solid(int64_t x, int y, int64_t z) {
    return gen_density_point(&g_gen, (double)x + 0.5, y + 0.5, (double)z + 0.5) > 0.0f;
}

/* Solid voxels of the chunk in s (interior), and those above the bedrock level. */
static uint32_t solid_count(const ChunkScratch *s, uint32_t *above_bedrock) {
    uint32_t n = 0, up = 0;
    for (int y = WORLD_Y_MIN; y < s->y_top; y++)
        for (int z = 0; z < CHUNK_SIZE; z++) {
            /* the row's interior bits (bit x + 1 is voxel x) */
            uint32_t k = (uint32_t)__builtin_popcountll((s->solid[y - WORLD_Y_MIN + 1][z + 1] >> 1) & 0xffffffffu);
            n += k;
            if ((float)y > g_gen.p.bedrock_level + 1.0f) up += k;
        }
    if (above_bedrock) *above_bedrock = up;
    return n;
}

/* ---------------------------------------------------------------- generated */
static void test_far_chunks_generated(void **state) {
    (void)state;
    for (int i = 0; i < NFAR; i++)
        for (int d = -1; d <= 0; d++) {   /* the chunks on both sides of the place */
            int64_t cx = chunk_of(k_far[i][0]) + d, cz = chunk_of(k_far[i][1]) + d;
            gen_chunk_voxels(&g_gen, cx, cz, 0.0, &g_s);
            uint32_t up, n = solid_count(&g_s, &up);
            if (d == 0)
                printf("# chunk %" PRId64 ", %" PRId64 ": %u solid, %u above the bedrock, %u objects\n", cx, cz, n, up,
                       g_s.props.objects);
            assert_true(up > 0);
            assert_true(n < (uint32_t)(CHUNK_SIZE * CHUNK_SIZE * (g_s.y_top - WORLD_Y_MIN)));
        }
}

/* Past the limit there is no world: air above WORLD_Y_MIN, rock below, and no streaming. */
static void test_beyond_limit_is_air(void **state) {
    (void)state;
    const double far = 2.0 * WORLD_COORD_LIMIT;
    assert_false(world_solid_at(g_world, far, 10.5, 0.5));
    assert_true(world_solid_at(g_world, far, -0.5, 0.5));
    assert_false(world_solid_at(g_world, 0.5, 10.5, -far));
    assert_false(world_solid_at(g_world, NAN, 10.5, 0.5));
    assert_false(world_solid_at(g_world, 0.5, 10.5, INFINITY));
    /* Just inside it the floor is there. */
    const double in = WORLD_COORD_LIMIT - 1024.0;
    assert_true(world_solid_at(g_world, in + 0.5, 1.5, -in + 0.5));
}

/* ---------------------------------------------------------------- statistics */
typedef struct FarStats { double solid_share, surface, objects; } FarStats;

/* 64 chunks on an 8 x 8 grid 211 chunks apart centred on (x, z): 6752 blocks, four wavelengths of
 * the biome fields (biome_scale 0.0006), the largest features, so each chunk samples a place of
 * its own rather than the same hill or biome. (64 chunks is a small sample: with other spacings a
 * sample's object count strays up to 20-35 % between two places near the origin too.) */
static void stats_at(int64_t x, int64_t z, FarStats *out) {
    const int64_t step = 211;
    double solid = 0.0, surface = 0.0, objects = 0.0, cols = 0.0;
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < 8; i++) {
            gen_chunk_voxels(&g_gen, chunk_of(x) + (i - 4) * step, chunk_of(z) + (j - 4) * step, 0.0, &g_s);
            solid += solid_count(&g_s, NULL);
            for (int c = 0; c < CHUNK_SIZE; c++)
                for (int r = 0; r < CHUNK_SIZE; r++) {
                    surface += g_s.top[c + 1][r + 1] * g_s.scale + WORLD_Y_MIN;
                    cols += 1.0;
                }
            for (uint32_t k = 0; k < g_s.props.nplaced; k++)
                objects += g_s.props.placed[k].own && !g_s.props.placed[k].landmark;
        }
    out->solid_share = solid / (cols * (g_s.y_top - WORLD_Y_MIN));
    out->surface = surface / cols;
    out->objects = objects;
}

/* Near the origin, two 64-chunk samples about 10^5 blocks out already differ by up to ~30 % in
 * solid share and object count and ~19 blocks in mean surface (the island and biome fields are
 * larger than a chunk, so 64 chunks are 64 draws of a spread-out quantity). So the far samples
 * are held against the spread of six near ones: each far statistic lies within the near
 * samples' range widened by 20 % (10 blocks for the mean surface); a far world that is empty,
 * solid, flat or without objects falls outside it. The ratio to the first near sample is printed
 * too. */
static void test_far_statistics_match(void **state) {
    (void)state;
    static const int64_t near[][2] = {{100000, -100000}, {-100000, 100000}, {100000, 100000},
                                      {-100000, -100000}, {141421, 0},      {0, -141421}};
    FarStats ref = {0, 0, 0}, lo = ref, hi = ref;
    for (size_t k = 0; k < sizeof near / sizeof near[0]; k++) {
        FarStats f;
        stats_at(near[k][0], near[k][1], &f);
        printf("# near %" PRId64 ", %" PRId64 ": solid %.4f, surface %.2f, objects %.0f\n", near[k][0], near[k][1],
               f.solid_share, f.surface, f.objects);
        if (k == 0) ref = lo = hi = f;
        lo.solid_share = fmin(lo.solid_share, f.solid_share), hi.solid_share = fmax(hi.solid_share, f.solid_share);
        lo.surface = fmin(lo.surface, f.surface), hi.surface = fmax(hi.surface, f.surface);
        lo.objects = fmin(lo.objects, f.objects), hi.objects = fmax(hi.objects, f.objects);
    }
    assert_true(lo.objects > 100.0 && lo.solid_share > 0.0);
    const int picks[] = {2, 7, 8, 15};   /* one of each distance, and a mix */
    for (size_t k = 0; k < sizeof picks / sizeof picks[0]; k++) {
        const int64_t *p = k_far[picks[k]];
        FarStats f;
        stats_at(p[0], p[1], &f);
        printf("# %" PRId64 ", %" PRId64 ": solid %.4f (%.3f), surface %.2f (%+.2f), objects %.0f (%.3f)\n", p[0], p[1],
               f.solid_share, f.solid_share / ref.solid_share, f.surface, f.surface - ref.surface, f.objects,
               f.objects / ref.objects);
        assert_true(f.solid_share >= 0.8 * lo.solid_share && f.solid_share <= 1.2 * hi.solid_share);
        assert_true(f.surface >= lo.surface - 10.0 && f.surface <= hi.surface + 10.0);
        assert_true(f.objects >= 0.8 * lo.objects && f.objects <= 1.2 * hi.objects);
    }
}

/* ---------------------------------------------------------------- seams */
/* Chunk a's apron column at x = 32 (dir 0) or z = 32 (dir 1) against its neighbour's first
 * interior one and the other way round, all of it; and against the point query every 5th height. */
static void check_seam(int64_t cx, int64_t cz, int dir) {
    gen_chunk_voxels(&g_gen, cx, cz, 0.0, &g_s);
    gen_chunk_voxels(&g_gen, cx + (dir == 0), cz + (dir == 1), 0.0, &g_n);
    const int64_t bx0 = cx * CHUNK_SIZE, bz0 = cz * CHUNK_SIZE;
    uint32_t solid = 0, queried = 0;
    for (int y = WORLD_Y_MIN; y < g_s.y_top; y++)
        for (int t = 0; t < CHUNK_SIZE; t++) {
            bool a_out = dir == 0 ? gs_solid(&g_s, CHUNK_SIZE, y, t) : gs_solid(&g_s, t, y, CHUNK_SIZE);
            bool b_in = dir == 0 ? gs_solid(&g_n, 0, y, t) : gs_solid(&g_n, t, y, 0);
            bool a_in = dir == 0 ? gs_solid(&g_s, CHUNK_SIZE - 1, y, t) : gs_solid(&g_s, t, y, CHUNK_SIZE - 1);
            bool b_out = dir == 0 ? gs_solid(&g_n, -1, y, t) : gs_solid(&g_n, t, y, -1);
            assert_int_equal(a_out, b_in);
            assert_int_equal(a_in, b_out);
            solid += a_out;
            if (y % 5 == 0) {
                int64_t x = dir == 0 ? bx0 + CHUNK_SIZE : bx0 + t, z = dir == 0 ? bz0 + t : bz0 + CHUNK_SIZE;
                assert_int_equal(point_solid(x, y, z), a_out);
                queried++;
            }
        }
    assert_true(solid > 0);
    assert_true(queried > 0);
}

static void test_far_seams(void **state) {
    (void)state;
    /* Across block 0 and across +-2^31 (the old int32 corner maths' wrap), then far places. */
    const int64_t at[][2] = {{-1, -1},           {chunk_of(P31) - 1, 5}, {-3, chunk_of(P31) - 1},
                             {chunk_of(-P31) - 1, chunk_of(-P31) - 1}, {chunk_of(P24), chunk_of(-P24)},
                             {chunk_of(P40) - 1, chunk_of(P40) - 1},   {chunk_of(-P40), chunk_of(P31) - 1},
                             {chunk_of(-P40) - 1, chunk_of(-P40)}};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
        for (int dir = 0; dir < 2; dir++) check_seam(at[i][0], at[i][1], dir);
}

/* The point query's noise coordinates at a far integer position are the chunk generator's. */
static void test_far_noise_coordinates(void **state) {
    (void)state;
    const NoiseFx f[] = {g_gen.f_n3, g_gen.f_base, g_gen.f_isl, g_gen.f_biome, noise_fx_from_double(0.1)};
    const int64_t b[] = {P24 + 3, -P31 - 7, P31, P40 + 12345, -P40 - 1, (INT64_C(1) << 42) - 1, -(INT64_C(1) << 42)};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        for (size_t k = 0; k < sizeof b / sizeof b[0]; k++) {
            assert_true(noise_fx_scale(f[i], (double)b[k]) == noise_fx_mul_int(f[i], b[k]));
            /* a row's lanes are the products of their own blocks */
            NoiseFx x0 = noise_fx_mul_int(f[i], b[k]), dx = noise_fx_mul_int(f[i], WORLD_CELL_XZ);
            assert_true((NoiseFx)((uint64_t)x0 + 7u * (uint64_t)dx) == noise_fx_mul_int(f[i], b[k] + 7 * WORLD_CELL_XZ));
        }
    /* Halfway into a block: floor plus fraction, the same as near the origin. */
    NoiseFx half = noise_fx_scale(g_gen.f_n3, (double)P40 + 0.5) - noise_fx_mul_int(g_gen.f_n3, P40);
    assert_true(half == noise_fx_scale(g_gen.f_n3, 0.5));
    NoiseFx neg = noise_fx_scale(g_gen.f_n3, -(double)P40 - 0.25) - noise_fx_mul_int(g_gen.f_n3, -P40 - 1);
    assert_true(neg == noise_fx_scale(g_gen.f_n3, 0.75));
    /* The wide cell folds to the 32-bit cell within +-2^31 and apart beyond. */
    assert_true(gen_wide_cell(-5) == (uint32_t)-5 && gen_wide_cell(INT32_MAX) == (uint32_t)INT32_MAX);
    assert_true(gen_wide_cell(INT32_MIN) == (uint32_t)INT32_MIN);
    assert_true(gen_wide_cell(P31) != gen_wide_cell(-P31));
    assert_true(gen_wide_cell(INT64_C(1) << 32) != gen_wide_cell(0));
}

/* ---------------------------------------------------------------- golden */
static uint64_t mesh_hash(const ChunkMesh *m, uint64_t h) {
    for (uint32_t i = 0; i < m->opaque_parts + m->cloud_parts; i++)
        h = hash_fnv1a64(m->parts[i].verts, m->parts[i].vert_count * sizeof(WorldVertex), h);
    return h;
}

static uint64_t far_hash(void) {
    uint64_t h = 0;
    for (int i = 0; i < NFAR; i++) {
        int64_t cx = chunk_of(k_far[i][0]), cz = chunk_of(k_far[i][1]);
        int lod = i % 4 == 3 ? 2 : -1;   /* classic LOD 0, and LOD 2 at a few */
        ChunkMesh m;
        assert_true(lod < 0 ? world_build_chunk(g_world, cx, cz, 0.0, &m, NULL)
                            : world_build_chunk_lod(g_world, cx, cz, lod, 0.0, &m, NULL));
        assert_true(m.opaque_parts > 0);
        assert_true(m.cx == cx && m.cz == cz);
        h = mesh_hash(&m, h);
        world_free_mesh(g_world, &m);
    }
    return h;
}

/* The same meshes on every noise path here and under qemu-aarch64. (Moved on purpose from
 * d31887e55c5510c8 when the noise took wide coordinates: these places lie past 2^31 noise cells,
 * where the 32-bit lattice wrapped and now each 2^32-cell band hashes apart; the near-origin
 * goldens, inside band 0, did not move.) */
static void test_golden_far_meshes(void **state) {
    (void)state;
    struct utsname u;
    uname(&u);
    NoisePath initial = noise_get_path();
    int paths = 0;
    for (int k = 0; k < NOISE_PATH_COUNT; k++) {
        if (k == NOISE_PATH_AUTO || !noise_set_path((NoisePath)k)) continue;
        uint64_t h = far_hash();
        printf("note: far chunk hash on %s (noise path %s): %016" PRIx64 "\n", u.machine, noise_simd_path(), h);
        /* (0xb697e7993222fe1e before a vertex's AO colour became 16-bit integer steps: the same
         * faces, positions, normals and flags, colours within 1; test_world_mesh.c
         * test_colour_steps_within_one, which meshes far chunks too) */
        /* (0xf3bf3c03f2b5335c before the pools in caves: their surfaces) */
        assert_int_equal(h, 0x7bc4d1a33935bba4ull);
        paths++;
    }
    noise_set_path(initial);
    int available = 0;
    for (int k = 0; k < NOISE_PATH_COUNT; k++) available += k != NOISE_PATH_AUTO && noise_path_available((NoisePath)k);
    assert_int_equal(paths, available);   /* every path this build has */
#if !defined(SKYISLES_SIMD_SCALAR)
    assert_true(paths >= 2);   /* plain C and the machine's vectors at least */
#endif
}

/* ---------------------------------------------------------------- collision and restart */
/* The highest solid block of the column from the chunk voxels (gen_chunk_voxels in g_s). */
static int column_top(int x, int z) { return g_s.top[z + 1][x + 1] + WORLD_Y_MIN; }

static void test_far_collision_and_restart(void **state) {
    (void)state;
    const int picks[] = {8, 13};
    int low_air = 0;   /* rows low enough under the generated top for the air sweep */
    for (size_t k = 0; k < sizeof picks / sizeof picks[0]; k++) {
        int64_t cx = chunk_of(k_far[picks[k]][0]), cz = chunk_of(k_far[picks[k]][1]);
        gen_chunk_voxels(&g_gen, cx, cz, 0.0, &g_s);
        double bx0 = (double)(cx * CHUNK_SIZE), bz0 = (double)(cz * CHUNK_SIZE);
        /* Straight down onto the ground at a column solid 8 blocks under its top (not an island's
         * thin rim), the first such from the chunk's centre: a crash at its top. */
        int cxl = -1, czl = -1;
        for (int d = 0; d < 16 && cxl < 0; d++)
            for (int q = -d; q <= d && cxl < 0; q++)
                for (int e = 0; e < 4 && cxl < 0; e++) {
                    int i = 16 + (e < 2 ? q : (e == 2 ? d : -d)), j = 16 + (e < 2 ? (e == 0 ? d : -d) : q);
                    if (i < 0 || j < 0 || i >= CHUNK_SIZE || j >= CHUNK_SIZE) continue;
                    int t = column_top(i, j), y = t;
                    while (y > t - 8 && y >= WORLD_Y_MIN && gs_solid(&g_s, i, y, j)) y--;
                    if (y == t - 8) cxl = i, czl = j;
                }
        assert_true(cxl >= 0);
        int top = column_top(cxl, czl);
        assert_true(top > WORLD_Y_MIN + 8);
        double x = bx0 + cxl + 0.5, z = bz0 + czl + 0.5;
        CollisionResult r;
        sim_collide(g_world, x, (double)g_s.y_top + 8.0, z, x, top - 4.0, z, &r);
        assert_true(r.hit);
        assert_true(r.y > top && r.y < top + 2.5 + SIM_HIT_RADIUS);
        /* A long diagonal sweep (a frame at far more than 1000 m/s) into it from the side too. */
        sim_collide(g_world, x - 40.0, top + 30.0, z - 40.0, x + 0.2, top - 3.0, z + 0.2, &r);
        assert_true(r.hit && r.t < 1.0);
        /* Along a row 20 blocks over its highest solid block (trees included): no crash. */
        int high = 0;
        for (int i = 0; i < CHUNK_SIZE; i++)
            if (column_top(i, 8) > high) high = column_top(i, 8);
        double y = high + 20.0;
        if (y < (double)g_s.y_top - 2.0) {
            sim_collide(g_world, bx0 + 0.5, y, bz0 + 8.5, bx0 + 31.5, y, bz0 + 8.5, &r);
            assert_false(r.hit);
            low_air++;
        }
        sim_collide(g_world, bx0 + 0.5, g_s.y_top + 4.0, bz0 + 0.5, bx0 + 31.5, g_s.y_top + 4.0, bz0 + 31.5, &r);
        assert_false(r.hit);
        /* A restart from inside the ground finds a clear place near it. */
        FlightState f;
        assert_true(sim_respawn_near(g_world, x, top - 3.0, z, 0.0f, &f));
        assert_true(sim_clear_box(g_world, f.x, f.y, f.z, SIM_RESPAWN_CLEARANCE));
        assert_true(fabs(f.x - x) < 512.0 && fabs(f.z - z) < 512.0);
        printf("# %" PRId64 ", %" PRId64 ": ground %d, restart at %+.1f, %.1f, %+.1f\n", cx, cz, top, f.x - x, f.y,
               f.z - z);
    }
    assert_true(low_air > 0);
}

/* The probe a sweep asks is the point query, far out too. */
static void test_far_probe_is_point_query(void **state) {
    (void)state;
    WorldProbe probe;
    world_probe_init(&probe, g_world);
    for (int i = 8; i < NFAR; i += 3) {
        int64_t bx0 = chunk_of(k_far[i][0]) * CHUNK_SIZE, bz0 = chunk_of(k_far[i][1]) * CHUNK_SIZE;
        for (int k = 0; k < 600; k++) {
            int64_t x = bx0 + (k * 7) % 37 - 2, z = bz0 + (k * 13) % 41 - 4;
            int y = (k * 29) % (WORLD_Y_MAX + 8) - 4;
            bool want = world_solid_at(g_world, (double)x + 0.5, y + 0.5, (double)z + 0.5);
            assert_int_equal(world_probe_solid(&probe, x, y, z), want);
        }
    }
}

/* The air along [a, b] for a box of half-size r, from the terrain alone (every 0.25 m). */
static bool terrain_clear(const double a[3], const double b[3], double r) {
    for (int i = 0; i <= 64; i++) {
        double t = i / 64.0, p[3];
        for (int k = 0; k < 3; k++) p[k] = a[k] + (b[k] - a[k]) * t;
        for (int c = 0; c < 8; c++)
            if (world_solid_at(g_world, floor(p[0] + ((c & 1) ? r : -r)) + 0.5, floor(p[1] + ((c & 2) ? r : -r)) + 0.5,
                               floor(p[2] + ((c & 4) ? r : -r)) + 0.5))
                return false;
    }
    return true;
}

typedef struct BoxList { WorldBox b[16]; uint32_t n; } BoxList;
static void box_of(void *ctx, int64_t x0, int64_t y0, int64_t z0, int64_t x1, int64_t y1, int64_t z1) {
    BoxList *l = ctx;
    if (l->n < 16) l->b[l->n++] = (WorldBox){x0, y0, z0, x1, y1, z1};
}

/* A tree or boulder the meshes place far out is a solid box the collision meets: the solid-object
 * query returns the mesh's boxes, and a flight into its trunk at 1000 m/s crashes at it. */
static void test_far_objects_are_solid(void **state) {
    (void)state;
    uint32_t checked = 0, flown = 0;
    for (int i = 0; i < NFAR && (checked < 40 || flown < 8); i++)   /* enough of them, in seconds under qemu */
        for (int d = 0; d < 3; d++) {
            gen_chunk_voxels(&g_gen, chunk_of(k_far[i][0]) + d * 5, chunk_of(k_far[i][1]), 0.0, &g_s);
            for (uint32_t k = 0; k < g_s.props.nplaced; k++) {
                const PropPlaced *p = &g_s.props.placed[k];
                BoxList l = {.n = 0};
                gen_prop_boxes(p, 0, box_of, &l);
                int64_t top = 0;
                for (uint32_t q = 0; q < l.n; q++) top = l.b[q].y1 - p->by > top ? l.b[q].y1 - p->by : top;
                if (!p->own || p->landmark || top < 3) continue;   /* brush under 3 blocks is not solid */
                WorldBox got[64];
                uint32_t n = world_solid_objects(g_world, p->bx - 2, p->by, p->bz - 2, p->bx + 2, p->by + (int32_t)top,
                                                 p->bz + 2, got, 64);
                for (uint32_t q = 0; q < l.n; q++) {
                    bool found = false;
                    for (uint32_t m = 0; m < n && !found; m++) found = !memcmp(&got[m], &l.b[q], sizeof(WorldBox));
                    assert_true(found);
                }
                checked++;
                if (flown >= 8) continue;
                double to[3] = {(double)p->bx + 0.5, p->by + 1.5, (double)p->bz + 0.5}, from[3] = {to[0] - 12.0, to[1], to[2]};
                double near[3] = {to[0] - 2.5, to[1], to[2]};
                if (!terrain_clear(from, near, SIM_HIT_RADIUS)) continue;
                WorldBox other[4];   /* nor another object on the way */
                if (world_solid_objects(g_world, (int64_t)floor(from[0]) - 1, p->by, p->bz - 1, (int64_t)floor(near[0]) + 1,
                                        p->by + 2, p->bz + 1, other, 4) > 0)
                    continue;
                CollisionResult r;
                sim_collide(g_world, from[0], from[1], from[2], to[0], to[1], to[2], &r);   /* one 1000 m/s frame: 16.7 m */
                assert_true(r.hit);
                if (!(fabs(r.x - to[0]) < 3.0)) fail_msg("hit %.2f m short of the trunk", to[0] - r.x);
                flown++;
            }
        }
    printf("# far objects: %u solid ones' boxes found, %u flown into\n", checked, flown);
    assert_true(checked > 10);
    assert_true(flown > 0);
}

/* ---------------------------------------------------------------- streaming */
/* The streamer fills the view radius around a camera far out, and again after a jump to the
 * other side of the world; the chunks it sends are the ones around the camera. */
static uint32_t stream_at(World *w, JobSystem *jobs, double x, double z) {
    WorldView v = {x, 90.0, z, 0.0f, 0.0f, -1.0f, 0.0f, 1.2f, 1.5f, 0.0};
    const int64_t ccx = chunk_of((int64_t)floor(x)), ccz = chunk_of((int64_t)floor(z));
    uint32_t ready = 0;
    for (int f = 0; f < 600; f++) {
        world_update(w, &v);
        WorldEvent ev[64];
        size_t n;
        while ((n = world_take_events(w, ev, 64)) > 0)
            for (size_t i = 0; i < n; i++) {
                if (ev[i].type != WORLD_EV_MESH_READY) continue;
                assert_true(llabs(ev[i].cx - ccx) <= 4 && llabs(ev[i].cz - ccz) <= 4);
                assert_true(ev[i].mesh->cx == ev[i].cx && ev[i].mesh->cz == ev[i].cz);
                world_release_mesh(w, ev[i].cx, ev[i].cz);
                ready++;
            }
        jobs_wait_idle(jobs);
        WorldStats st = world_stats(w);
        if (f > 4 && st.wanted > 0 && st.resident == st.wanted && st.in_flight == 0 && st.gov_level == 0) break;
    }
    WorldStats st = world_stats(w);
    printf("# streaming at %.0f, %.0f: %u resident of %u wanted, %u meshes sent\n", x, z, st.resident, st.wanted, ready);
    assert_true(st.wanted > 0);
    assert_int_equal(st.resident, st.wanted);
    assert_true(world_chunk_lod(w, ccx, ccz) >= 0);
    return st.resident;
}

static void test_far_streaming(void **state) {
    (void)state;
    MemBudget b;
    SkyError err = {0};
    assert_true(mem_budget_init(&b, (size_t)64 << 20, &err));
    JobsConfig jc = {1, 64, 0};
    JobSystem *jobs = jobs_create(&b, &jc, &err);
    assert_non_null(jobs);
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 3;
    p.create.mesh_pool_mib = 16;
    World *w = world_create(&b, jobs, &p, NULL, &err);
    if (!w) fail_msg("%s", err.msg);
    stream_at(w, jobs, (double)P40 + 100.5, -(double)P40 + 50.5);
    world_note_jump(w);
    stream_at(w, jobs, -(double)P31 - 20.0, (double)P40 - 3.0);
    world_destroy(w);
    jobs_destroy(jobs);
    mem_budget_release(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_far_chunks_generated),
        cmocka_unit_test(test_beyond_limit_is_air),
        cmocka_unit_test(test_far_statistics_match),
        cmocka_unit_test(test_far_seams),
        cmocka_unit_test(test_far_noise_coordinates),
        cmocka_unit_test(test_golden_far_meshes),
        cmocka_unit_test(test_far_collision_and_restart),
        cmocka_unit_test(test_far_probe_is_point_query),
        cmocka_unit_test(test_far_objects_are_solid),
        cmocka_unit_test(test_far_streaming),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
