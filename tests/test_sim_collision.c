/* Tests for collision (src/sim/collision.c) on the real world with its default parameters:
 * flying into a cliff crashes just before the rock, the restart is in open air near the crash,
 * no speed passes a one-block wall from any angle, flying along a cave tunnel's axis does not
 * crash, and open air never reports a hit. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "sim/sim.h"
#include "support/alloc_count.h"
#include "world/world.h"

static MemBudget g_budget;
static World *g_world;

static int setup(void **state) {
    (void)state;
    SkyError err = {0};
    if (!mem_budget_init(&g_budget, (size_t)48 << 20, &err)) return -1;
    g_world = world_create(&g_budget, NULL, NULL, NULL, &err);
    if (!g_world) {
        fprintf(stderr, "world_create: %s\n", err.msg);
        return -1;
    }
    return 0;
}

static int teardown(void **state) {
    (void)state;
    world_destroy(g_world);
    mem_budget_release(&g_budget);
    return 0;
}

static bool solid_block(double bx, double by, double bz) { return world_solid_at(g_world, bx + 0.5, by + 0.5, bz + 0.5); }

/* Every block of the cube of half-size r around the point has density <= 0 at its centre. */
static bool box_is_air(double x, double y, double z, double r) {
    for (double by = floor(y - r); by <= floor(y + r); by++)
        for (double bz = floor(z - r); bz <= floor(z + r); bz++)
            for (double bx = floor(x - r); bx <= floor(x + r); bx++)
                if (world_density_at(g_world, bx + 0.5, by + 0.5, bz + 0.5) > 0.0f) return false;
    return true;
}

/* box_is_air over many overlapping boxes, each block's density asked once: an open-addressed
 * table of the blocks seen (the answer is the same as box_is_air's, only cheaper). */
enum { MEMO_SLOTS = 4096 };
typedef struct BlockMemo {
    int32_t key[MEMO_SLOTS][3];
    uint8_t state[MEMO_SLOTS];   /* 0 empty, 1 air, 2 rock */
    uint32_t used;
} BlockMemo;

static void memo_clear(BlockMemo *m) {
    memset(m->state, 0, sizeof m->state);
    m->used = 0;
}

static bool memo_block_is_air(BlockMemo *m, double bx, double by, double bz) {
    int32_t k[3] = {(int32_t)bx, (int32_t)by, (int32_t)bz};
    uint32_t h = ((uint32_t)k[0] * 73856093u ^ (uint32_t)k[1] * 19349663u ^ (uint32_t)k[2] * 83492791u) % MEMO_SLOTS;
    for (uint32_t probe = 0; probe < MEMO_SLOTS; probe++, h = (h + 1) % MEMO_SLOTS) {
        if (m->state[h] == 0) break;
        if (memcmp(m->key[h], k, sizeof k) == 0) return m->state[h] == 1;
    }
    bool air = !(world_density_at(g_world, bx + 0.5, by + 0.5, bz + 0.5) > 0.0f);
    if (m->used < MEMO_SLOTS / 2) {   /* keep the table sparse; past that, just ask */
        memcpy(m->key[h], k, sizeof k);
        m->state[h] = air ? 1 : 2;
        m->used++;
    }
    return air;
}

static bool box_is_air_memo(BlockMemo *m, double x, double y, double z, double r) {
    for (double by = floor(y - r); by <= floor(y + r); by++)
        for (double bz = floor(z - r); bz <= floor(z + r); bz++)
            for (double bx = floor(x - r); bx <= floor(x + r); bx++)
                if (!memo_block_is_air(m, bx, by, bz)) return false;
    return true;
}

/* A rock face met flying level along +x at height y from x0 (in open air): its first solid x. */
static bool find_face(double x0, double y, double z, double *face) {
    for (double x = x0; x < x0 + 3000.0; x += 1.0)
        if (solid_block(floor(x), floor(y), floor(z))) {
            *face = floor(x);
            return true;
        }
    return false;
}

static void test_cliff_crash_and_respawn(void **state) {
    (void)state;
    int found = 0;
    for (int k = 0; k < 40 && found < 6; k++) {
        double y = 40.0 + 3.0 * k, z = 17.0 + 53.0 * k, x0 = -400.0 + 7.0 * k;
        if (!box_is_air(x0, y, z, 1.0)) continue;
        double face;
        if (!find_face(x0, y, z, &face)) continue;
        found++;
        /* One frame at 60 Hz flying 120 m/s toward the face, from 1 m short of it. */
        CollisionResult r;
        sim_collide(g_world, face - 1.0, y + 0.5, z + 0.5, face + 1.0, y + 0.5, z + 0.5, &r);
        assert_true(r.hit);
        assert_true(r.x < face - SIM_HIT_RADIUS + 1e-9);   /* stopped in the air before the rock */
        assert_true(r.x > face - 1.0 - 1e-9);
        assert_true(box_is_air(r.x, r.y, r.z, SIM_HIT_RADIUS));
        /* A long frame (an absurd speed) from far away stops at the same face. */
        sim_collide(g_world, face - 16.0, y + 0.5, z + 0.5, face + 60.0, y + 0.5, z + 0.5, &r);
        assert_true(r.hit);
        assert_true(r.x > face - 1.0 && r.x < face);
        /* The restart: open air around it (a box of SIM_RESPAWN_CLEARANCE), near the crash. */
        FlightState f;
        flight_init(&f, r.x, r.y, r.z, 1.5707963f, 80.0f);
        assert_true(sim_respawn_near(g_world, r.x, r.y, r.z, 1.5707963f, &f));
        double d = sqrt((f.x - r.x) * (f.x - r.x) + (f.y - r.y) * (f.y - r.y) + (f.z - r.z) * (f.z - r.z));
        printf("  face at x %.0f (y %.0f, z %.0f): hit %.2f m short; restart %.0f m away at %.0f, %.0f, %.0f\n", face, y,
               z, face - r.x, d, f.x, f.y, f.z);
        assert_true(box_is_air(f.x, f.y, f.z, SIM_RESPAWN_CLEARANCE));
        assert_true(d < 160.0);
        assert_true(f.speed == 80.0f);
        /* and a way out: straight ahead is clear for a while */
        CollisionResult ahead;
        sim_collide(g_world, f.x, f.y, f.z, f.x + sin(f.yaw) * 40.0, f.y, f.z - cos(f.yaw) * 40.0, &ahead);
        assert_false(ahead.hit);
    }
    assert_true(found >= 4);
}

/* Blocks that are a wall one block thick along some axis: solid, with air on both sides. */
typedef struct Wall { double x, y, z; int axis; } Wall;

/* The block is a one-block wall along some axis: that axis (the first), else -1. */
static int wall_axis(int bx, int by, int bz) {
    static const int dirs[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    if (!solid_block(bx, by, bz)) return -1;
    for (int a = 0; a < 3; a++) {
        const int *d = dirs[a];
        if (!solid_block(bx + d[0], by + d[1], bz + d[2]) && !solid_block(bx - d[0], by - d[1], bz - d[2])) return a;
    }
    return -1;
}

/* Where the scan below found its 64 walls on the default world: a start list, each block checked
 * as a scanned block is (so a stale entry is only skipped), the scan then going on for any that
 * are missing. Finding them took the scan some 290 000 density queries (15 s of the program's
 * 75 under qemu); a world change that moves them only makes the test slower again, and the
 * note below says how many came from the list. */
static const int16_t k_wall_starts[][3] = {
    {88, 104, -300}, {176, 58, -297}, {132, 64, -297}, {110, 74, -297}, {143, 20, -285}, {176, 26, -285}, {132, 80, -285},
    {44, 14, -282},  {132, 82, -279}, {165, 22, -276}, {99, 96, -258},  {121, 96, -255}, {121, 14, -240}, {132, 16, -231},
    {44, 22, -225},  {198, 32, -225}, {143, 80, -219}, {132, 100, -219}, {165, 12, -207}, {121, 16, -135}, {11, 20, -120},
    {187, 28, -108}, {77, 24, -93},   {187, 26, -69},  {88, 112, -60},  {132, 10, -42},  {198, 18, -27},  {99, 104, -3},
    {33, 12, 3},     {22, 76, 9},     {0, 76, 12},     {77, 12, 24},    {99, 112, 24},   {66, 28, 27},    {110, 72, 30},
    {176, 112, 33},  {110, 118, 33},  {0, 48, 36},     {187, 116, 36},  {110, 120, 36},  {11, 30, 39},    {154, 20, 48},
    {198, 18, 51},   {154, 28, 51},   {99, 136, 54},   {44, 56, 60},    {55, 20, 66},    {99, 12, 69},    {132, 88, 69},
    {143, 30, 75},   {187, 80, 93},   {99, 60, 96},    {88, 16, 99},    {66, 26, 99},    {22, 38, 99},    {44, 134, 102},
    {88, 36, 105},   {187, 116, 108}, {55, 136, 108},  {110, 10, 111},  {132, 84, 111},  {99, 134, 111},  {154, 18, 114},
    {110, 128, 114},
};

static bool wall_listed(const Wall *w, int n, int bx, int by, int bz) {
    for (int i = 0; i < n; i++)
        if (w[i].x == bx && w[i].y == by && w[i].z == bz) return true;
    return false;
}

static uint32_t lcg(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static double unit(uint32_t *s) { return (double)(lcg(s) & 0xffff) / 65536.0; }

static void test_no_tunnelling_through_one_block_walls(void **state) {
    (void)state;
    static Wall walls[64];
    int n = 0;
    for (size_t i = 0; i < sizeof k_wall_starts / sizeof k_wall_starts[0] && n < 64; i++) {
        int bx = k_wall_starts[i][0], by = k_wall_starts[i][1], bz = k_wall_starts[i][2];
        int a = wall_axis(bx, by, bz);
        if (a >= 0 && !wall_listed(walls, n, bx, by, bz)) walls[n++] = (Wall){bx, by, bz, a};
    }
    int listed = n;
    for (int bz = -300; bz < 300 && n < 64; bz += 3)
        for (int by = 10; by < 150 && n < 64; by += 2)
            for (int bx = 0; bx < 200 && n < 64; bx += 11) {
                if (wall_listed(walls, listed, bx, by, bz)) continue;
                int a = wall_axis(bx, by, bz);
                if (a >= 0) walls[n++] = (Wall){bx, by, bz, a};
            }
    printf("  %d one-block walls found (%d from the start list)\n", n, listed);
    if (listed < n)
        printf("note: test_sim_collision: %d of %d walls were not in k_wall_starts (the world changed): the scan found "
               "them, slower; list the new ones there\n", n - listed, n);
    assert_true(n >= 32);
    uint32_t seed = 1234;
    int sweeps = 0;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 40; k++) {
            /* A random point inside the block, a random direction crossing the wall's axis. */
            double p[3] = {walls[i].x + 0.05 + 0.9 * unit(&seed), walls[i].y + 0.05 + 0.9 * unit(&seed),
                           walls[i].z + 0.05 + 0.9 * unit(&seed)};
            double d[3] = {unit(&seed) * 2.0 - 1.0, unit(&seed) * 2.0 - 1.0, unit(&seed) * 2.0 - 1.0};
            d[walls[i].axis] = (d[walls[i].axis] < 0 ? -1.0 : 1.0) * (0.2 + fabs(d[walls[i].axis]));
            double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            /* 1000 m/s at 60 Hz: 16.7 m per frame, the wall in the middle of it. */
            double h = 1000.0 / 60.0 / 2.0 / l;
            CollisionResult r;
            sim_collide(g_world, p[0] - d[0] * h, p[1] - d[1] * h, p[2] - d[2] * h, p[0] + d[0] * h, p[1] + d[1] * h,
                        p[2] + d[2] * h, &r);
            if (!r.hit) fail_msg("passed the wall block %.0f,%.0f,%.0f", walls[i].x, walls[i].y, walls[i].z);
            sweeps++;
        }
    }
    printf("  %d sweeps at 1000 m/s through them: every one hit\n", sweeps);
}

/* Every block within a cube of half-size 0.6 around each point of the segment (0.25 m apart) is
 * air by its centre's density (the collision's own definition of rock), and it has a roof: rock
 * straight above within 12 m at its start, middle and end (a cave, not open sky). */
static bool tunnel_segment(const double a[3], const double d[3], double len) {
    for (double s = len; s > 0.0; s -= 4.0)   /* cheap first: a few points on the axis */
        if (solid_block(floor(a[0] + d[0] * s), floor(a[1] + d[1] * s), floor(a[2] + d[2] * s))) return false;
    /* The boxes of neighbouring points share most of their blocks: each block is asked once. */
    static BlockMemo memo;
    memo_clear(&memo);
    for (double s = 0.0; s <= len; s += 0.25) {
        if (!box_is_air_memo(&memo, a[0] + d[0] * s, a[1] + d[1] * s, a[2] + d[2] * s, 0.6)) return false;
    }
    for (int k = 0; k < 3; k++) {
        double s = len * 0.5 * k, x = a[0] + d[0] * s, y = a[1] + d[1] * s, z = a[2] + d[2] * s;
        bool roof = false;
        for (double by = floor(y) + 2.0; by <= floor(y) + 12.0 && !roof; by++) roof = solid_block(floor(x), by, floor(z));
        if (!roof) return false;
    }
    return true;
}

/* Where the scan below found its six stretches on the default world: a start list, each point
 * tried exactly as a scanned point is (so a stale entry is only skipped), the scan then going on
 * for any that are missing. Finding the six took the scan some 400 000 points (under qemu most of
 * a minute); a world change that moves the tunnels only makes the test slower again, and the
 * note below says how many came from the list. */
static const int16_t k_tunnel_starts[][3] = {
    {-402, 95, -600}, {264, 80, -546}, {-294, 86, -384}, {-249, 74, -285}, {174, 83, 201}, {-492, 92, 309},
};

enum { TUNNELS_WANTED = 6 };
typedef struct TunnelRun {
    const World *solid;   /* the same world without caves */
    int32_t at[TUNNELS_WANTED][3];
    int found, shifted_hits;
} TunnelRun;

static const double k_tunnel_len = 16.0;

/* Flies a stretch found at a along d: frame by frame at cruise and at 1000 m/s (never a hit),
 * then the same flight climbing 12 m into the roof (counted in shifted_hits). */
static void fly_stretch(TunnelRun *t, const double a[3], const double d[3]) {
    const double len = k_tunnel_len;
    CollisionResult r;
    for (double s = 0.0; s < len; s += 40.0 / 60.0) {   /* 40 m/s, one frame a sweep */
        double e = s + 40.0 / 60.0 > len ? len : s + 40.0 / 60.0;
        sim_collide(g_world, a[0] + d[0] * s, a[1] + d[1] * s, a[2] + d[2] * s, a[0] + d[0] * e, a[1] + d[1] * e,
                    a[2] + d[2] * e, &r);
        if (r.hit) fail_msg("cruise crashed in the tunnel at %.1f,%.1f,%.1f", r.x, r.y, r.z);
    }
    for (double s = 0.0; s < len; s += 1000.0 / 60.0) {   /* 1000 m/s */
        double e = s + 1000.0 / 60.0 > len ? len : s + 1000.0 / 60.0;
        sim_collide(g_world, a[0] + d[0] * s, a[1] + d[1] * s, a[2] + d[2] * s, a[0] + d[0] * e, a[1] + d[1] * e,
                    a[2] + d[2] * e, &r);
        if (r.hit) fail_msg("1000 m/s crashed in the tunnel at %.1f,%.1f,%.1f", r.x, r.y, r.z);
    }
    /* The same flight 12 m up, into the roof, hits: the sweep is not blind here. */
    sim_collide(g_world, a[0], a[1], a[2], a[0] + d[0] * len, a[1] + 12.0, a[2] + d[2] * len, &r);
    t->shifted_hits += r.hit;
}

/* A stretch starting at block (bx, by, bz), if there is one: a new stretch of tunnel (24 m from
 * the ones found), carved (air here that is rock in the world without caves, that world asked
 * first: most of the box is sky there, and its query is the cheaper one), straight for 16 m in
 * one of 48 directions and mostly through rock without caves. Found: recorded and flown. */
static void try_stretch(TunnelRun *t, int bx, int by, int bz) {
    for (int q = 0; q < t->found; q++)
        if (abs(bx - t->at[q][0]) < 24 && abs(by - t->at[q][1]) < 24 && abs(bz - t->at[q][2]) < 24) return;
    if (!world_solid_at(t->solid, bx + 0.5, by + 0.5, bz + 0.5) || solid_block(bx, by, bz)) return;
    const double len = k_tunnel_len;
    for (int k = 0; k < 48; k++) {
        double yaw = (k % 16) * (2.0 * M_PI / 16.0), pitch = (k / 16 - 1) * 0.3;
        double d[3] = {cos(yaw) * cos(pitch), sin(pitch), sin(yaw) * cos(pitch)};
        double a[3] = {bx + 0.5, by + 0.5, bz + 0.5};
        if (!tunnel_segment(a, d, len)) continue;
        int rock = 0, pts = 0;
        for (double s = 0.0; s <= len; s += 1.0, pts++)
            rock += world_solid_at(t->solid, a[0] + d[0] * s, a[1] + d[1] * s, a[2] + d[2] * s);
        if (rock * 2 < pts) continue;   /* mostly open air anyway: not a tunnel */
        t->at[t->found][0] = bx, t->at[t->found][1] = by, t->at[t->found][2] = bz;
        t->found++;
        fly_stretch(t, a, d);
        return;
    }
}

/* Straight stretches of the default world's cave tunnels (16 m of air 0.6 m around the axis,
 * the hit box's 0.35 m and a margin, under a roof, through what is rock in the same world without caves), flown along their axis at cruise (frame by frame at 60 Hz) and at
 * 1000 m/s, each from a different stretch of tunnel (24 m apart): the sweep never reports a hit,
 * and the same flight climbing into the roof does. */
static void test_cave_tunnel_axis_does_not_crash(void **state) {
    (void)state;
    /* The same world without caves: where the tunnels were carved is rock there. */
    MemBudget mb;
    SkyError err = {0};
    assert_true(mem_budget_init(&mb, (size_t)48 << 20, &err));
    WorldParams np;
    world_params_default(&np);
    np.gen.cave_modes = WORLD_CAVES_NONE;
    World *solid = world_create(&mb, NULL, &np, NULL, &err);
    assert_non_null(solid);
    static TunnelRun t;
    memset(&t, 0, sizeof t);
    t.solid = solid;
    for (size_t i = 0; i < sizeof k_tunnel_starts / sizeof k_tunnel_starts[0] && t.found < TUNNELS_WANTED; i++)
        try_stretch(&t, k_tunnel_starts[i][0], k_tunnel_starts[i][1], k_tunnel_starts[i][2]);
    int listed = t.found;
    for (int bz = -600; bz < 600 && t.found < TUNNELS_WANTED; bz += 9)
        for (int by = 20; by < 110 && t.found < TUNNELS_WANTED; by += 3)
            for (int bx = -600; bx < 600 && t.found < TUNNELS_WANTED; bx += 9) try_stretch(&t, bx, by, bz);
    printf("  %d straight tunnel stretches of %.0f m (%d from the start list) flown along their axis: no crash; %d of "
           "them hit climbing into the roof\n", t.found, k_tunnel_len, listed, t.shifted_hits);
    if (listed < t.found)
        printf("note: test_sim_collision: %d of %d tunnel stretches were not in k_tunnel_starts (the world changed): "
               "the scan found them, slower; list the new ones there\n", t.found - listed, t.found);
    world_destroy(solid);
    mem_budget_release(&mb);
    assert_true(t.found >= TUNNELS_WANTED);
    assert_int_equal(t.shifted_hits, t.found);
}

static void test_open_air_never_hits_and_no_heap(void **state) {
    (void)state;
    /* High above everything (the world's top is air) a sweep in any direction is clear. */
    alloc_count_start();
    CollisionResult r;
    for (int k = 0; k < 50; k++) {
        double a = k * 0.7, y = WORLD_Y_MAX + 10.0;
        sim_collide(g_world, 100.0 * k, y, -50.0 * k, 100.0 * k + cos(a) * 16.0, y + sin(a) * 3.0, -50.0 * k + sin(a) * 16.0, &r);
        assert_false(r.hit);
        assert_true(r.t == 1.0);
        assert_true(r.steps >= 33);   /* 16 m in half-block steps */
    }
    /* Below the abyss floor everything is solid. */
    sim_collide(g_world, 0.0, -5.0, 0.0, 1.0, -5.0, 0.0, &r);
    assert_true(r.hit);
    assert_int_equal(alloc_count_stop(), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cliff_crash_and_respawn),
        cmocka_unit_test(test_no_tunnelling_through_one_block_walls),
        cmocka_unit_test(test_cave_tunnel_axis_does_not_crash),
        cmocka_unit_test(test_open_air_never_hits_and_no_heap),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
