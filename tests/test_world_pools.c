/* Tests for the pools in caves (src/world/pools.c, seed 004's underground lakes): chunks of the
 * default world hold pools; every pool's surface is flat; every water block has rock or water
 * under it and at its sides and water or air over it; the point query (world_water_top, what
 * collision asks) gives the chunks' water block for block, and so does its read of a deep run
 * (gen_pool_top_chunk); the mesh draws each pool's surface once
 * at its level; a splash-down in one is a crash; and the same bits on every machine (a golden of
 * the materials of the chunks that hold pools, checked under qemu-aarch64 too). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "sim/sim.h"
#include "support/emulated.h"
#include "world/world.h"
#include "world/world_internal.h"

#define SAMPLE 8              /* SAMPLE x SAMPLE chunks from (X0, Z0) */
#define SX0 (-4)
#define SZ0 (-4)
#define H (WORLD_Y_MAX - WORLD_Y_MIN)
#define VI(x, y, z) ((((y) - WORLD_Y_MIN + 1) * WORLD_VOX_ROW + ((z) + 1)) * WORLD_VOX_ROW + ((x) + 1))
/* FNV-1a 64 of the materials (interior, every layer) of the first GOLDEN_CHUNKS chunks of the
 * sample that hold pools, in sample order. */
#define GOLDEN_CHUNKS 3
#define POOLS_GOLDEN 0x6481baf4967cd348ull

static MemBudget g_budget;
static World *g_world;
static WorldGen g_gen;        /* the world's field (no islands), for the deep runs' chunk reading */
static uint8_t g_vox[WORLD_VOX_ROW * WORLD_VOX_ROW * (H + 2)];
static int32_t g_comp[CHUNK_SIZE][H][CHUNK_SIZE];

typedef struct PoolsSeen {
    uint32_t pools, water, chunks_with, surfaces, points;
    int64_t first_x, first_z;     /* a water block's column (world) */
    int32_t first_top;
    uint64_t hash;
    uint32_t hashed;
} PoolsSeen;
static PoolsSeen g_seen;

static int setup(void **state) {
    (void)state;
    SkyError err = {0};
    if (!mem_budget_init(&g_budget, (size_t)48 << 20, &err)) return -1;
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 2;
    p.create.mesh_pool_mib = 16;
    g_world = world_create(&g_budget, NULL, &p, NULL, &err);
    gen_init(&g_gen, &p.gen, NULL);
    return g_world ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    world_destroy(g_world);
    mem_budget_release(&g_budget);
    return 0;
}

static bool is_water(int x, int y, int z) { return g_vox[VI(x, y, z)] == WORLD_MAT_WATER; }
static bool is_rock(int x, int y, int z) {
    return y < WORLD_Y_MIN || (g_vox[VI(x, y, z)] >= WORLD_MAT_ABYSS && g_vox[VI(x, y, z)] != WORLD_MAT_WATER);
}

/* Every water block: rock or water under it and at its four sides, water or air over it. */
static uint32_t check_bounded(void) {
    uint32_t water = 0;
    for (int y = WORLD_Y_MIN; y < WORLD_Y_MAX - 1; y++)
        for (int z = 0; z < CHUNK_SIZE; z++)
            for (int x = 0; x < CHUNK_SIZE; x++) {
                if (!is_water(x, y, z)) continue;
                water++;
                static const int d[5][3] = {{0, -1, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}};
                for (int k = 0; k < 5; k++) {
                    int nx = x + d[k][0], ny = y + d[k][1], nz = z + d[k][2];
                    if (!(is_rock(nx, ny, nz) || is_water(nx, ny, nz)))
                        fail_msg("water at %d,%d,%d has air or cloud next to it (%d,%d,%d)", x, y, z, nx, ny, nz);
                }
                assert_false(is_rock(x, y + 1, z));
            }
    return water;
}

/* Pools are the water's connected parts (faces): each one's top blocks (air over them) all at
 * one height. Returns how many. */
static uint32_t check_flat(void) {
    static int32_t stack[CHUNK_SIZE * H * CHUNK_SIZE][3];
    memset(g_comp, 0xff, sizeof g_comp);
    uint32_t n = 0;
    for (int y = WORLD_Y_MIN; y < WORLD_Y_MAX - 1; y++)
        for (int z = 0; z < CHUNK_SIZE; z++)
            for (int x = 0; x < CHUNK_SIZE; x++) {
                if (!is_water(x, y, z) || g_comp[z][y][x] >= 0) continue;
                int32_t top = -1, sp = 0;
                g_comp[z][y][x] = (int32_t)n;
                stack[sp][0] = x, stack[sp][1] = y, stack[sp][2] = z, sp++;
                while (sp) {
                    sp--;
                    int cx = stack[sp][0], cy = stack[sp][1], cz = stack[sp][2];
                    if (!is_water(cx, cy + 1, cz)) {
                        if (top < 0) top = cy;
                        if (top != cy) fail_msg("pool %u: surfaces at %d and %d", n, top, cy);
                    }
                    static const int d[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
                    for (int k = 0; k < 6; k++) {
                        int nx = cx + d[k][0], ny = cy + d[k][1], nz = cz + d[k][2];
                        if (nx < 0 || nz < 0 || nx >= CHUNK_SIZE || nz >= CHUNK_SIZE || ny < WORLD_Y_MIN || ny >= WORLD_Y_MAX)
                            continue;
                        if (!is_water(nx, ny, nz) || g_comp[nz][ny][nx] >= 0) continue;
                        g_comp[nz][ny][nx] = (int32_t)n;
                        stack[sp][0] = nx, stack[sp][1] = ny, stack[sp][2] = nz, sp++;
                    }
                }
                n++;
            }
    return n;
}

/* The surface a pool block of column (x, z) at y lies under: the first block up that is not water. */
static int32_t surface_over(int x, int y, int z) {
    while (is_water(x, y, z)) y++;
    return y;
}

/* world_water_top at every water block and at the air around the pools (within 2 blocks) and at
 * every 37th other air block: the chunk's water, block for block. */
static void check_points(int64_t cx, int64_t cz) {
    for (int y = WORLD_Y_MIN; y < WORLD_Y_MAX - 1; y++)
        for (int z = 0; z < CHUNK_SIZE; z++)
            for (int x = 0; x < CHUNK_SIZE; x++) {
                if (is_rock(x, y, z)) continue;
                bool wet = is_water(x, y, z), near = wet;
                for (int d = -2; d <= 2 && !near; d++)
                    near = is_water(x + d < 0 ? 0 : x + d > 31 ? 31 : x + d, y, z) ||
                           is_water(x, y + d < 0 ? 0 : y + d, z) || is_water(x, y, z + d < 0 ? 0 : z + d > 31 ? 31 : z + d);
                if (!near && (uint32_t)(x * 7 + y * 13 + z * 29) % 37u) continue;
                double px = (double)(cx * CHUNK_SIZE + x) + 0.5, pz = (double)(cz * CHUNK_SIZE + z) + 0.5;
                int32_t want = wet ? surface_over(x, y, z) : 0;
                int32_t got = world_water_top(g_world, px, (double)y + 0.25, pz);
                if (got != want) fail_msg("block %.1f,%d,%.1f: chunk water top %d, point query %d", px, y, pz, want, got);
                /* A deep run's answer (the chunk's pools, read again by the point query) is the same. */
                got = gen_pool_top_chunk(&g_gen, cx * CHUNK_SIZE + x, y, cz * CHUNK_SIZE + z);
                if (got != want) fail_msg("block %.1f,%d,%.1f: chunk water top %d, deep run's read %d", px, y, pz, want, got);
                g_seen.points++;
            }
}

/* The LOD-0 mesh's water quads: flat +Y faces over the pools' surface blocks, each drawn once. */
static uint32_t check_mesh(const ChunkMesh *m) {
    static int32_t drawn[CHUNK_SIZE][CHUNK_SIZE];
    memset(drawn, 0, sizeof drawn);
    uint32_t quads = 0;
    for (uint32_t p = 0; p < m->opaque_parts + m->cloud_parts; p++)
        for (uint32_t v = 0; v < m->parts[p].vert_count; v += 4) {
            const WorldVertex *q = &m->parts[p].verts[v];
            if (q->flags >> 2 != WORLD_MAT_WATER) continue;
            assert_true(p >= m->opaque_parts);
            int x0 = q->x, x1 = q->x, z0 = q->z, z1 = q->z;
            for (int k = 0; k < 4; k++) {
                assert_int_equal(q[k].normal, WORLD_NORMAL_PY);
                assert_int_equal(q[k].y, q->y);
                x0 = q[k].x < x0 ? q[k].x : x0, x1 = q[k].x > x1 ? q[k].x : x1;
                z0 = q[k].z < z0 ? q[k].z : z0, z1 = q[k].z > z1 ? q[k].z : z1;
            }
            for (int z = z0; z < z1; z++)
                for (int x = x0; x < x1; x++) {
                    assert_int_equal(drawn[z][x], 0);
                    drawn[z][x] = q->y;
                }
            quads++;
        }
    uint32_t surfaces = 0;
    for (int z = 0; z < CHUNK_SIZE; z++)
        for (int x = 0; x < CHUNK_SIZE; x++) {
            int32_t want = 0;
            for (int y = WORLD_Y_MAX - 2; y >= WORLD_Y_MIN && !want; y--)
                if (is_water(x, y, z)) want = y + 1;
            if (drawn[z][x] != want) fail_msg("column %d,%d: surface drawn at %d, water's top %d", x, z, drawn[z][x], want);
            surfaces += want != 0;
        }
    return surfaces;
}

static void hash_chunk(void) {
    for (int y = WORLD_Y_MIN; y < WORLD_Y_MAX; y++)
        for (int z = 0; z < CHUNK_SIZE; z++)
            for (int x = 0; x < CHUNK_SIZE; x++) g_seen.hash = (g_seen.hash ^ g_vox[VI(x, y, z)]) * 0x100000001b3ull;
}

static void test_pools_in_sample(void **state) {
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    g_seen.hash = 0xcbf29ce484222325ull;
    for (int64_t cz = SZ0; cz < SZ0 + SAMPLE; cz++)
        for (int64_t cx = SX0; cx < SX0 + SAMPLE; cx++) {
            ChunkMesh m = {0};
            WorldBuildTiming t;
            assert_true(world_build_chunk(g_world, cx, cz, 0.0, &m, &t));
            int32_t hh = 0;
            memcpy(g_vox, world_debug_voxels(g_world, &hh), sizeof g_vox);
            uint32_t water = check_bounded(), pools = check_flat();
            g_seen.surfaces += check_mesh(&m);
            world_free_mesh(g_world, &m);
            if (!water) continue;
            g_seen.water += water;
            g_seen.pools += pools;
            g_seen.chunks_with++;
            if (!test_running_emulated() || g_seen.chunks_with <= GOLDEN_CHUNKS) check_points(cx, cz);
            if (g_seen.hashed < GOLDEN_CHUNKS) hash_chunk(), g_seen.hashed++;
            if (!g_seen.first_top)
                for (int z = 0; z < CHUNK_SIZE && !g_seen.first_top; z++)
                    for (int x = 0; x < CHUNK_SIZE && !g_seen.first_top; x++)
                        for (int y = WORLD_Y_MIN; y < WORLD_Y_MAX - 1 && !g_seen.first_top; y++)
                            if (is_water(x, y, z))
                                g_seen.first_x = cx * CHUNK_SIZE + x, g_seen.first_z = cz * CHUNK_SIZE + z,
                                g_seen.first_top = surface_over(x, y, z);
        }
    printf("# %d chunks: %u with pools, %u pools, %u water blocks, %u surface columns; %u point queries agree; "
           "golden 0x%016llx\n",
           SAMPLE * SAMPLE, g_seen.chunks_with, g_seen.pools, g_seen.water, g_seen.surfaces, g_seen.points,
           (unsigned long long)g_seen.hash);
    assert_true(g_seen.pools > 0);
    assert_true(g_seen.hashed == GOLDEN_CHUNKS);
    assert_true(g_seen.hash == POOLS_GOLDEN);
}

/* The wheels into a cave pool: a splash-down, the aircraft on the pool's surface; above it, nothing. */
static void test_splash_down_in_a_pool(void **state) {
    (void)state;
    assert_true(g_seen.first_top > 0);
    double x = (double)g_seen.first_x + 0.5, z = (double)g_seen.first_z + 0.5, l = (double)g_seen.first_top;
    assert_int_equal(world_water_top(g_world, x, l - 0.5, z), g_seen.first_top);
    assert_true(world_water_at(g_world, x, l - 0.5, z));
    assert_false(world_water_at(g_world, x, l + 0.5, z));
    assert_int_equal(world_water_level(g_world, x, z), 0);   /* no lake's column */
    FlightState before, f;
    flight_init(&before, x, l + SIM_WHEEL_H + 0.3, z, 0.0f, 20.0f);
    f = before;
    f.y = l + SIM_WHEEL_H - 0.4;
    SimGroundResult g;
    CollisionResult hit;
    assert_true(sim_meet_world(g_world, &before, &f, 1.0f / 60.0f, &g, &hit));
    assert_int_equal(g.event, SIM_GROUND_CRASH);
    assert_string_equal(g.why, TX(TOUCH_WHY_SPLASH));
    assert_true(fabs(f.y - (l + SIM_WHEEL_H)) < 1e-9);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pools_in_sample),
        cmocka_unit_test(test_splash_down_in_a_pool),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
