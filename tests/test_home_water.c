/* skyisles tests: the home island's water in the world: the chunks draw a lake's surface exactly
 * where the point query says its top water block has air above (one water definition for the
 * mesher and the collision), only as translucent +Y faces of WORLD_MAT_WATER at the level, at every
 * LOD; water is not rock; and a splash-down is a crash (slow: "splashed down", fast: into the
 * water too fast), the aircraft put on the surface. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "island/island.h"
#include "sim/sim.h"
#include "support/emulated.h"
#include "support/home_world.h"
#include "world/world.h"

#define GAME_SEED 20261129u

static HomeIsland g_home;
static TestWorld g_tw;
static int64_t g_x0, g_z0, g_x1, g_z1;   /* the blocks over the field's water cells */
static double g_wx, g_wz;                /* a column well inside a water body */
static uint32_t g_sheets;                /* falls quads met */

static int setup(void **state) {
    (void)state;
    SkyError err = {0};
    if (!home_island_make(&g_home, GAME_SEED, &err)) fail_msg("home island: %s", err.msg);
    world_params_default(&g_tw.params);
    g_tw.params.gen.seed = GAME_SEED;
    if (!test_world_open(&g_tw, 48, NULL, &g_home.field, &err)) fail_msg("world: %s", err.msg);
    const IslandField *f = &g_home.field;
    double half = 0.5 * f->size, cm = f->cell_meters;
    g_x0 = g_z0 = INT64_MAX, g_x1 = g_z1 = INT64_MIN;
    uint32_t best = 0;
    for (uint32_t j = 1; j + 1 < f->size; j++)
        for (uint32_t i = 1; i + 1 < f->size; i++) {
            size_t c = (size_t)j * f->size + i;
            if (!f->water_dm[c]) continue;
            int64_t bx0 = (int64_t)floor(((double)i - half) * cm), bz0 = (int64_t)floor(((double)j - half) * cm);
            if (bx0 < g_x0) g_x0 = bx0;
            if (bz0 < g_z0) g_z0 = bz0;
            if (bx0 + 3 > g_x1) g_x1 = bx0 + 3;
            if (bz0 + 3 > g_z1) g_z1 = bz0 + 3;
            /* the deepest cell: its 8 neighbours wet too */
            uint32_t around = 0;
            for (int dj = -1; dj <= 1; dj++)
                for (int di = -1; di <= 1; di++) around += f->water_dm[c + (size_t)(dj * (int)f->size + di)] != 0;
            uint32_t depth = around == 9 ? (uint32_t)(f->water_dm[c] - f->elevation_dm[c]) : 0;
            if (depth > best) {
                best = depth;
                g_wx = ((double)i + 0.5 - half) * cm;
                g_wz = ((double)j + 0.5 - half) * cm;
            }
        }
    if (g_x0 > g_x1 || best == 0) fail_msg("the game's seed has no water");
    return 0;
}

static int teardown(void **state) {
    (void)state;
    test_world_close(&g_tw);
    home_island_release(&g_home);
    return 0;
}

static int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* Does the column (x, z) of the point query hold a drawn surface: its top water block, air above? */
static int32_t point_surface(double x, double z) {
    int32_t l = world_water_level(g_tw.world, x, z);
    if (!l || !world_water_at(g_tw.world, x, (double)l - 0.5, z)) return 0;
    return world_solid_at(g_tw.world, floor(x) + 0.5, (double)l + 0.5, floor(z) + 0.5) ? 0 : l;
}

/* Every chunk over the water, LOD 0: the water quads' columns and levels against the point query. */
static void test_chunks_match_points(void **state) {
    (void)state;
    static int32_t drawn[CHUNK_SIZE][CHUNK_SIZE];
    uint32_t columns = 0, wet = 0;
    for (int64_t cz = floor_div(g_z0, CHUNK_SIZE); cz <= floor_div(g_z1, CHUNK_SIZE); cz++)
        for (int64_t cx = floor_div(g_x0, CHUNK_SIZE); cx <= floor_div(g_x1, CHUNK_SIZE); cx++) {
            ChunkMesh m = {0};
            WorldBuildTiming t;
            assert_true(world_build_chunk(g_tw.world, cx, cz, 0.0, &m, &t));
            memset(drawn, 0, sizeof drawn);
            for (uint32_t p = 0; p < m.opaque_parts + m.cloud_parts; p++)
                for (uint32_t v = 0; v < m.parts[p].vert_count; v += 4) {
                    const WorldVertex *q = &m.parts[p].verts[v];
                    if (q->flags >> 2 != WORLD_MAT_WATER) continue;
                    assert_true(p >= m.opaque_parts);   /* translucent: the cloud parts */
                    if (q->normal != WORLD_NORMAL_PY || q[2].y != q->y) {   /* a falls' sheet or spray */
                        g_sheets++;
                        continue;
                    }
                    /* a falls' spray lies flat where no water is (off the island, under its lip) */
                    double qx = (double)(cx * CHUNK_SIZE + q[0].x) + 0.5, qz = (double)(cz * CHUNK_SIZE + q[0].z) + 0.5;
                    if (q->a != 170 && world_water_level(g_tw.world, qx, qz) == 0) {
                        g_sheets++;
                        continue;
                    }
                    int x0 = q->x, x1 = q->x, z0 = q->z, z1 = q->z;
                    for (int k = 0; k < 4; k++) {
                        assert_int_equal(q[k].normal, WORLD_NORMAL_PY);
                        assert_int_equal(q[k].y, q[0].y);   /* flat */
                        if (q[k].x < x0) x0 = q[k].x;
                        if (q[k].x > x1) x1 = q[k].x;
                        if (q[k].z < z0) z0 = q[k].z;
                        if (q[k].z > z1) z1 = q[k].z;
                    }
                    for (int z = z0; z < z1; z++)
                        for (int x = x0; x < x1; x++) {
                            assert_int_equal(drawn[z][x], 0);   /* drawn once */
                            drawn[z][x] = q->y;
                        }
                }
            for (int z = 0; z < CHUNK_SIZE; z++)
                for (int x = 0; x < CHUNK_SIZE; x++) {
                    double px = (double)(cx * CHUNK_SIZE + x) + 0.5, pz = (double)(cz * CHUNK_SIZE + z) + 0.5;
                    int32_t want = point_surface(px, pz);
                    if (drawn[z][x] != want)
                        fail_msg("column %.1f,%.1f: chunk surface %d, point query %d", px, pz, drawn[z][x], want);
                    columns++;
                    wet += want != 0;
                }
            world_free_mesh(g_tw.world, &m);
        }
    printf("# chunks = points over %u columns, %u with a water surface; %u quads of falls and spray\n", columns, wet,
           g_sheets);
    assert_true(wet > 50);
    assert_true(g_sheets > 0);
}

/* Water is not rock, fills only below its level, and the coarse LODs draw it too. */
static void test_water_not_rock(void **state) {
    (void)state;
    int32_t l = world_water_level(g_tw.world, g_wx, g_wz);
    printf("# the deepest water at %.1f, %.1f: its surface at y %d\n", g_wx, g_wz, l);
    assert_true(l > 0);
    assert_true(world_water_at(g_tw.world, g_wx, (double)l - 0.5, g_wz));
    assert_false(world_solid_at(g_tw.world, g_wx, (double)l - 0.5, g_wz));
    assert_false(world_water_at(g_tw.world, g_wx, (double)l + 0.5, g_wz));
    assert_false(world_water_at(g_tw.world, g_wx + 2000.0, 10.0, g_wz));
    /* the bed under the water is rock, and not water */
    double y = (double)l - 0.5;
    while (!world_solid_at(g_tw.world, g_wx, y, g_wz)) y -= 1.0;
    assert_false(world_water_at(g_tw.world, g_wx, y, g_wz));
    assert_true(y < (double)l - 1.5);
    for (int lod = 1; lod <= WORLD_LOD_MAX; lod++) {
        ChunkMesh m = {0};
        WorldBuildTiming t;
        int64_t cx = (int64_t)floor(g_wx / CHUNK_SIZE), cz = (int64_t)floor(g_wz / CHUNK_SIZE);
        assert_true(world_build_chunk_lod(g_tw.world, cx, cz, lod, 0.0, &m, &t));
        uint32_t quads = 0;
        for (uint32_t p = m.opaque_parts; p < m.opaque_parts + m.cloud_parts; p++)
            for (uint32_t v = 0; v < m.parts[p].vert_count; v += 4) quads += m.parts[p].verts[v].flags >> 2 == WORLD_MAT_WATER;
        assert_true(quads > 0);
        world_free_mesh(g_tw.world, &m);
    }
}

/* The wheels into the lake: slow, a splash-down; fast, a crash into the water; both on its surface. */
static void test_splash_down_is_a_crash(void **state) {
    (void)state;
    int32_t l = world_water_level(g_tw.world, g_wx, g_wz);
    const struct { float speed; const char *why; } cases[] = {{20.0f, TX(TOUCH_WHY_SPLASH)}, {60.0f, TX(TOUCH_WHY_WATER_FAST)}};
    for (int k = 0; k < 2; k++) {
        FlightState before, f;
        flight_init(&before, g_wx, (double)l + SIM_WHEEL_H + 0.3, g_wz, 0.0f, cases[k].speed);
        f = before;
        f.y = (double)l + SIM_WHEEL_H - 0.4;   /* a skim: 0.7 m lower in a step */
        SimGroundResult g;
        CollisionResult hit;
        assert_true(sim_meet_world(g_tw.world, &before, &f, 1.0f / 60.0f, &g, &hit));
        assert_int_equal(g.event, SIM_GROUND_CRASH);
        assert_string_equal(g.why, cases[k].why);
        assert_true(fabs(f.y - ((double)l + SIM_WHEEL_H)) < 1e-9);
    }
    /* the same skim a few metres higher: nothing happens */
    FlightState before, f;
    flight_init(&before, g_wx, (double)l + SIM_WHEEL_H + 5.3, g_wz, 0.0f, 20.0f);
    f = before;
    f.y -= 0.7;
    SimGroundResult g;
    CollisionResult hit;
    assert_false(sim_meet_world(g_tw.world, &before, &f, 1.0f / 60.0f, &g, &hit));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chunks_match_points),
        cmocka_unit_test(test_water_not_rock),
        cmocka_unit_test(test_splash_down_is_a_crash),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
