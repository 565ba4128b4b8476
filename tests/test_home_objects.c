/* Objects you can hit: the solid object boxes collision reads
 * (world_solid_objects) are the boxes the chunk jobs place and mesh at LOD 0; flying into a tree
 * trunk, a boulder and a home-island landmark crashes at 40 and 1000 m/s; flying between two
 * trees and through flowers does not; the spawn and a restart are clear of objects. The objects
 * are found from the chunk placement (gen_chunk_voxels' placed list) around the home island. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "island/island.h"
#include "sim/sim.h"
#include "support/home_world.h"
#include "world/props_internal.h"
#include "world/world.h"
#include "world/world_internal.h"

static HomeIsland g_home;
static ChunkScratch g_s;
static WorldGen g_gen;
static TestWorld g_tw;
static World *g_w;

/* The objects of the scanned chunks, from the chunk path, with their LOD-0 boxes. */
#define MAX_OBJ 4096
typedef struct Obj {
    PropPlaced p;
    bool solid;
} Obj;
static Obj g_obj[MAX_OBJ];
static uint32_t g_nobj;
#define MAX_REF 8192
static WorldBox g_ref[MAX_REF];   /* solid boxes of those objects (sunk landmark boxes as drawn) */
static uint32_t g_nref;

static const char *shape_name(const PropPlaced *p) { return gen_prop_shape_name(p->shape, p->landmark); }

static bool is_solid(const PropPlaced *p) {
    if (p->landmark) return true;
    const char *n = shape_name(p);
    static const char *const solid[] = {"conifer", "snowy conifer", "broadleaf", "birch", "palm", "jungle tree",
                                        "boulder", "cactus"};
    for (size_t i = 0; i < sizeof solid / sizeof solid[0]; i++)
        if (!strcmp(n, solid[i])) return true;
    return false;
}

static void add_ref(void *ctx, int64_t x0, int64_t y0, int64_t z0, int64_t x1, int64_t y1, int64_t z1) {
    const PropPlaced *p = ctx;
    /* A landmark's boxes at the ground reach PROP_SINK blocks into it, as the mesher draws them. */
    if (p->landmark && y0 == p->by) y0 -= PROP_SINK;
    if (g_nref < MAX_REF) g_ref[g_nref++] = (WorldBox){x0, y0, z0, x1, y1, z1};
}

static bool same_placed(const PropPlaced *a, const PropPlaced *b) {
    return a->bx == b->bx && a->by == b->by && a->bz == b->bz && a->shape == b->shape && a->landmark == b->landmark;
}

/* Chunks (cx, cz) in [c0, c1]^2: their objects (each once) into g_obj. */
static void scan_chunks(int32_t cx0, int32_t cx1, int32_t cz0, int32_t cz1) {
    for (int32_t cz = cz0; cz <= cz1; cz++)
        for (int32_t cx = cx0; cx <= cx1; cx++) {
            gen_chunk_voxels(&g_gen, cx, cz, 0.0, &g_s);
            for (uint32_t i = 0; i < g_s.props.nplaced; i++) {
                const PropPlaced *p = &g_s.props.placed[i];
                bool seen = false;
                for (uint32_t k = 0; k < g_nobj && !seen; k++) seen = same_placed(&g_obj[k].p, p);
                if (seen || g_nobj >= MAX_OBJ) continue;
                g_obj[g_nobj].p = *p;
                g_obj[g_nobj].solid = is_solid(p);
                if (g_obj[g_nobj].solid) gen_prop_boxes(p, 0, add_ref, &g_obj[g_nobj].p);
                g_nobj++;
            }
        }
}

#define SCAN_MARKS 12u

static int setup(void **state) {
    (void)state;
    SkyError err = {0};
    if (!home_island_make(&g_home, 1, &err)) fail_msg("home island: %s", err.msg);
    world_params_default(&g_tw.params);
    gen_init(&g_gen, &g_tw.params.gen, &g_home.field);
    if (!test_world_open(&g_tw, 48, NULL, &g_home.field, &err)) fail_msg("world: %s", err.msg);
    g_w = g_tw.world;
    /* The chunks round the first landmarks (3 x 3 each): the island's places with their flora. */
    assert_true(g_gen.isl.n_marks > 0);
    for (uint32_t i = 0; i < g_gen.isl.n_marks && i < SCAN_MARKS; i++) {
        int32_t cx = floor_div(g_gen.isl.marks[i].bx, CHUNK_SIZE), cz = floor_div(g_gen.isl.marks[i].bz, CHUNK_SIZE);
        scan_chunks(cx - 1, cx + 1, cz - 1, cz + 1);
    }
    uint32_t kinds[PROP_OBJECT_SHAPES] = {0};
    for (uint32_t i = 0; i < g_nobj; i++)
        if (!g_obj[i].p.landmark) kinds[g_obj[i].p.shape]++;
    printf("# %u objects round %u landmarks:", g_nobj, SCAN_MARKS);
    for (int k = 0; k < PROP_OBJECT_SHAPES; k++)
        if (kinds[k]) printf(" %s %u,", gen_prop_shape_name(k, false), kinds[k]);
    printf("\n");
    return 0;
}

static int teardown(void **state) {
    (void)state;
    test_world_close(&g_tw);
    home_island_release(&g_home);
    return 0;
}

static bool box_equal(const WorldBox *a, const WorldBox *b) {
    return a->x0 == b->x0 && a->y0 == b->y0 && a->z0 == b->z0 && a->x1 == b->x1 && a->y1 == b->y1 && a->z1 == b->z1;
}

/* Over the centre chunk of each scanned 3 x 3, world_solid_objects gives exactly the chunk
 * placement's solid boxes (no second definition: the same candidates, hard core and terrain). */
static uint32_t compare_chunk(int32_t mx, int32_t mz, uint32_t *objects) {
    int32_t x0 = mx * CHUNK_SIZE, z0 = mz * CHUNK_SIZE, x1 = x0 + CHUNK_SIZE - 1, z1 = z0 + CHUNK_SIZE - 1;
    static WorldBox got[2048];
    uint32_t n = world_solid_objects(g_w, x0, WORLD_Y_MIN, z0, x1, WORLD_Y_MAX, z1, got, 2048);
    assert_true(n <= 2048);
    uint32_t want = 0;
    for (uint32_t i = 0; i < g_nref; i++) {
        const WorldBox *r = &g_ref[i];
        if (!(r->x0 <= x1 && r->x1 > x0 && r->z0 <= z1 && r->z1 > z0)) continue;
        want++;
        bool found = false;
        for (uint32_t k = 0; k < n && !found; k++) found = box_equal(&got[k], r);
        if (!found) fail_msg("meshed box %d %d %d .. %d %d %d not among the solid boxes", r->x0, r->y0, r->z0, r->x1, r->y1, r->z1);
    }
    assert_int_equal(n, want);   /* and nothing else */
    for (uint32_t i = 0; i < g_nobj; i++)
        *objects += g_obj[i].solid && floor_div(g_obj[i].p.bx, CHUNK_SIZE) == mx && floor_div(g_obj[i].p.bz, CHUNK_SIZE) == mz;
    return n;
}

static void test_boxes_are_the_meshed_ones(void **state) {
    (void)state;
    uint32_t boxes = 0, objects = 0, chunks = 0;
    for (uint32_t m = 0; m < g_gen.isl.n_marks && m < SCAN_MARKS; m++, chunks++)
        boxes += compare_chunk(floor_div(g_gen.isl.marks[m].bx, CHUNK_SIZE), floor_div(g_gen.isl.marks[m].bz, CHUNK_SIZE), &objects);
    printf("# %u chunks: %u solid objects based there, %u boxes, all the meshed ones\n", chunks, objects, boxes);
    assert_true(objects >= 20);
}

/* Terrain along a path for an aircraft box: every block it overlaps is air. */
static bool terrain_clear(const double a[3], const double b[3]) {
    double d = 0.0, len = 0.0;
    for (int k = 0; k < 3; k++) len += (b[k] - a[k]) * (b[k] - a[k]);
    len = sqrt(len);
    for (d = 0.0; d <= len; d += 0.25) {
        double t = len > 0.0 ? d / len : 0.0, p[3];
        for (int k = 0; k < 3; k++) p[k] = a[k] + (b[k] - a[k]) * t;
        for (int64_t y = (int64_t)floor(p[1] - SIM_HIT_RADIUS); y <= (int64_t)floor(p[1] + SIM_HIT_RADIUS); y++)
            for (int64_t z = (int64_t)floor(p[2] - SIM_HIT_RADIUS); z <= (int64_t)floor(p[2] + SIM_HIT_RADIUS); z++)
                for (int64_t x = (int64_t)floor(p[0] - SIM_HIT_RADIUS); x <= (int64_t)floor(p[0] + SIM_HIT_RADIUS); x++)
                    if (world_solid_at(g_w, (double)x + 0.5, (double)y + 0.5, (double)z + 0.5)) return false;
    }
    return true;
}

/* Reference boxes (the chunk path's) that an aircraft box meets somewhere along a -> b. */
static bool ref_meets(const double a[3], const double b[3]) {
    double len = 0.0;
    for (int k = 0; k < 3; k++) len += (b[k] - a[k]) * (b[k] - a[k]);
    len = sqrt(len);
    for (double d = 0.0; d <= len; d += 0.25) {
        double t = len > 0.0 ? d / len : 0.0, p[3];
        for (int k = 0; k < 3; k++) p[k] = a[k] + (b[k] - a[k]) * t;
        int32_t lo[3], hi[3];
        for (int k = 0; k < 3; k++) {
            lo[k] = (int32_t)floor(p[k] - SIM_HIT_RADIUS);
            hi[k] = (int32_t)floor(p[k] + SIM_HIT_RADIUS);
        }
        for (uint32_t i = 0; i < g_nref; i++) {
            const WorldBox *r = &g_ref[i];
            if (lo[0] < r->x1 && hi[0] >= r->x0 && lo[1] < r->y1 && hi[1] >= r->y0 && lo[2] < r->z1 && hi[2] >= r->z0)
                return true;
        }
    }
    return false;
}

/* Frames of a flight at v m/s from a along a -> b and 6 m on: true when it crashed, *at where. */
static bool fly(const double a[3], const double b[3], double v, double at[3]) {
    double dir[3], len = 0.0;
    for (int k = 0; k < 3; k++) len += (b[k] - a[k]) * (b[k] - a[k]);
    len = sqrt(len);
    for (int k = 0; k < 3; k++) dir[k] = (b[k] - a[k]) / len;
    double p[3] = {a[0], a[1], a[2]}, step = v / SIM_STEP_HZ, done = 0.0;
    while (done < len + 6.0) {
        if (step > len + 6.0 - done) step = len + 6.0 - done;
        CollisionResult r;
        sim_collide(g_w, p[0], p[1], p[2], p[0] + dir[0] * step, p[1] + dir[1] * step, p[2] + dir[2] * step, &r);
        if (r.hit) {
            at[0] = r.x;
            at[1] = r.y;
            at[2] = r.z;
            return true;
        }
        for (int k = 0; k < 3; k++) p[k] += dir[k] * step;
        done += step;
    }
    return false;
}

/* An approach to target from 12 m out, level or descending, over open terrain, meeting no
 * other object on the way (by the chunk path's boxes) until 2.5 m short. */
static bool approach(const double target[3], double from[3]) {
    for (int e = 0; e < 3; e++)
        for (int h = 0; h < 16; h++) {
            double yaw = h * 0.39269908, up = e * 0.3;
            double dir[3] = {sin(yaw), -up, -cos(yaw)}, n = sqrt(1.0 + up * up);
            for (int k = 0; k < 3; k++) dir[k] /= n;
            double near[3];
            for (int k = 0; k < 3; k++) {
                from[k] = target[k] - dir[k] * 12.0;
                near[k] = target[k] - dir[k] * 2.5;
            }
            double past[3];
            for (int k = 0; k < 3; k++) past[k] = target[k] + dir[k] * 0.1;
            if (terrain_clear(from, past) && !ref_meets(from, near)) return true;
        }
    return false;
}

/* The kind's objects one by one until one has a clear approach; crashes there at both speeds. */
static void crash_into(const char *kind, bool landmark, double dy) {
    uint32_t tried = 0;
    for (uint32_t i = 0; i < g_nobj; i++) {
        const PropPlaced *p = &g_obj[i].p;
        if (p->landmark != landmark || (!landmark && strcmp(shape_name(p), kind))) continue;
        tried++;
        double target[3] = {p->bx + 0.5, p->by + dy, p->bz + 0.5}, from[3];
        if (!approach(target, from)) continue;
        for (int s = 0; s < 2; s++) {
            double v = s ? 1000.0 : 40.0, at[3];
            if (!fly(from, target, v, at)) fail_msg("%s at %d %d %d: flew through at %.0f m/s", shape_name(p), p->bx, p->by, p->bz, v);
            double dx = at[0] - target[0], dz = at[2] - target[2];
            double lim = landmark ? PROP_LANDMARK_R + 2.0 : 2.5;
            if (fabs(dx) > lim || fabs(dz) > lim) fail_msg("%s: stopped %.1f, %.1f m off it", shape_name(p), dx, dz);
        }
        printf("# %s at %" PRId64 " %d %" PRId64 ": crashes at 40 and 1000 m/s (%u tried)\n", shape_name(p), p->bx, p->by, p->bz, tried);
        return;
    }
    fail_msg("no %s with a clear approach among %u", kind, tried);
}

static void test_crash_into_tree_trunk(void **state) {
    (void)state;
    crash_into("broadleaf", false, 1.0);   /* trunk: blocks 0..2 above the base */
}
static void test_crash_into_conifer_trunk(void **state) {
    (void)state;
    crash_into("conifer", false, 1.0);
}
static void test_crash_into_boulder(void **state) {
    (void)state;
    crash_into("boulder", false, 0.8);
}
static void test_crash_into_landmark(void **state) {
    (void)state;
    crash_into(NULL, true, 3.5);
}

/* Through flowers at their height, and between two trees 3..10 m apart: no crash. */
static void test_no_crash_through_flowers(void **state) {
    (void)state;
    for (uint32_t i = 0; i < g_nobj; i++) {
        const PropPlaced *p = &g_obj[i].p;
        if (p->landmark || strstr(shape_name(p), "flowers") == NULL) continue;
        double target[3] = {p->bx + 0.5, p->by + 0.5, p->bz + 0.5}, from[3];
        for (int h = 0; h < 16; h++) {
            double yaw = h * 0.39269908, dir[3] = {sin(yaw), 0.0, -cos(yaw)}, to[3];
            for (int k = 0; k < 3; k++) {
                from[k] = target[k] - dir[k] * 12.0;
                to[k] = target[k] + dir[k] * 6.0;
            }
            if (!terrain_clear(from, to) || ref_meets(from, to)) continue;
            double at[3];
            assert_false(fly(from, target, 40.0, at));
            assert_false(fly(from, target, 1000.0, at));
            printf("# %s at %" PRId64 " %d %" PRId64 ": flown through\n", shape_name(p), p->bx, p->by, p->bz);
            return;
        }
    }
    fail_msg("no flowers with a clear line through them");
}

static void test_no_crash_between_trees(void **state) {
    (void)state;
    for (uint32_t i = 0; i < g_nobj; i++)
        for (uint32_t j = i + 1; j < g_nobj; j++) {
            const PropPlaced *a = &g_obj[i].p, *b = &g_obj[j].p;
            if (a->landmark || b->landmark || !g_obj[i].solid || !g_obj[j].solid || abs(a->by - b->by) > 1) continue;
            if (!strcmp(shape_name(a), "boulder") || !strcmp(shape_name(b), "boulder")) continue;
            double ex = b->bx - a->bx, ez = b->bz - a->bz, d = sqrt(ex * ex + ez * ez);
            if (d < 3.0 || d > 10.0) continue;
            /* Across the line between the trunks, through its midpoint, at trunk height. */
            double mid[3] = {(a->bx + b->bx) * 0.5 + 0.5, (a->by > b->by ? a->by : b->by) + 1.0, (a->bz + b->bz) * 0.5 + 0.5};
            double dir[3] = {-ez / d, 0.0, ex / d}, from[3], to[3];
            for (int k = 0; k < 3; k++) {
                from[k] = mid[k] - dir[k] * 5.0;
                to[k] = mid[k] + dir[k] * 6.0;
            }
            if (!terrain_clear(from, to) || ref_meets(from, to)) continue;
            double at[3];
            assert_false(fly(from, mid, 40.0, at));
            assert_false(fly(from, mid, 1000.0, at));
            printf("# between the %s at %" PRId64 " %" PRId64 " and the %s at %" PRId64 " %" PRId64 " (%.1f m apart): no crash\n", shape_name(a), a->bx, a->bz,
                   shape_name(b), b->bx, b->bz, d);
            return;
        }
    fail_msg("no two trees 3..10 m apart with a clear line between them");
}

/* The spawn is clear of every object; a restart from inside a tree trunk moves out of it. */
static void test_spawn_and_restart_clear(void **state) {
    (void)state;
    SimSpawn sp;
    sim_spawn_choose(g_w, 28.0f, 1.2f, 4.0f / 3.0f, 0.0, &sp);
    assert_true(sim_clear_of_objects(g_w, sp.flight.x, sp.flight.y, sp.flight.z, SIM_SPAWN_CLEARANCE));
    assert_true(sim_clear_of_objects(g_w, sp.camera.x, sp.camera.y, sp.camera.z, SIM_SPAWN_CLEARANCE));
    uint32_t restarts = 0;
    for (uint32_t i = 0; i < g_nobj && restarts < 3; i++) {
        const PropPlaced *p = &g_obj[i].p;
        if (!g_obj[i].solid || p->landmark || !strcmp(shape_name(p), "boulder")) continue;
        double x = p->bx + 0.5, y = p->by + 1.0, z = p->bz + 0.5;
        assert_false(sim_clear_box(g_w, x, y, z, SIM_HIT_RADIUS));   /* inside the trunk */
        FlightState f;
        memset(&f, 0, sizeof f);
        assert_true(sim_respawn_near(g_w, x, y, z, 0.0f, &f));
        assert_true(sim_clear_box(g_w, f.x, f.y, f.z, SIM_RESPAWN_CLEARANCE));
        assert_true(sim_clear_of_objects(g_w, f.x, f.y, f.z, SIM_RESPAWN_CLEARANCE));
        restarts++;
    }
    assert_int_equal(restarts, 3);
}

/* A position that is no place (NaN, infinite, beyond any block) is never called clear, the same
 * on every platform (the block cast of such a value is undefined in C). */
static void test_no_place_is_not_clear(void **state) {
    (void)state;
    const double bad[3] = {NAN, INFINITY, -1e300};
    for (int i = 0; i < 3; i++) {
        assert_false(sim_clear_box(g_w, bad[i], 80.0, 0.0, 2.0));
        assert_false(sim_clear_of_objects(g_w, 0.0, bad[i], 0.0, 2.0));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boxes_are_the_meshed_ones), cmocka_unit_test(test_no_place_is_not_clear), cmocka_unit_test(test_crash_into_tree_trunk),
        cmocka_unit_test(test_crash_into_conifer_trunk),  cmocka_unit_test(test_crash_into_boulder),
        cmocka_unit_test(test_crash_into_landmark),       cmocka_unit_test(test_no_crash_through_flowers),
        cmocka_unit_test(test_no_crash_between_trees),    cmocka_unit_test(test_spawn_and_restart_clear),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
