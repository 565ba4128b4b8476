/* Every island is playable: the island tour and the deliveries on an island of the archipelago
 * more than 10^6 m from the origin (src/course/tour_course.c, src/game/jobs.c, delivery.c), in a
 * world without workers that bakes each island on the calling thread as a point query does:
 * the tour's rings are over that island's places with their names; a board there offers its own
 * places and one strip of a neighbouring island ("Harbour Strip, Isle of X"), the same board for
 * the same seed and island; a delivery to that other island taken parked on the far island's base
 * strip, flown there (a scripted cruise, then the autoland to its strip), is delivered on stopping
 * there and counted in the logbook without touching the home island's records. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "game/delivery.h"
#include "game/game.h"
#include "game/jobs.h"

#define FAR_M 1.0e6   /* the island searched for lies at least this far east */

static MemBudget g_mem;
static GameHome g_home;
static WorldParams g_p;
static World *g_w;
static MemArena g_arena;
static CourseWork *g_work;
static int64_t g_cx, g_cz;   /* the far island's cell */
static double g_cell;

/* The island of (cx, cz) as a course sees it (baked now into the world's point-query slot). */
static bool island_of(int64_t cx, int64_t cz, CourseIsland *at) {
    return course_island_at(g_w, g_home.island, (double)cx * g_cell, (double)cz * g_cell, at) && at->cell_x == cx &&
           at->cell_z == cz;
}

/* A neighbouring cell holds an island. */
static bool has_neighbour(int64_t cx, int64_t cz) {
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++) {
            WorldIslandSite s;
            g_home.isrc.site(g_home.isrc.ctx, cx + dx, cz + dz, &s);
            if ((dx || dz) && s.has_island) return true;
        }
    return false;
}

static int setup(void **state) {
    (void)state;
    SkyError err = {0};
    if (!mem_budget_init(&g_mem, (size_t)192 << 20, &err)) return -1;
    world_params_default(&g_p);
    g_p.live.view_radius = 3;
    g_p.create.mesh_pool_mib = 4;
    g_p.create.workers = 1;
    if (!game_home_boot(&g_home, &g_mem, NULL, g_p.gen.seed, &err) || !g_home.archipelago) {
        fprintf(stderr, "%s\n", err.msg[0] ? err.msg : "the built-in pack has no archipelago");
        return -1;
    }
    g_w = world_create(&g_mem, NULL, &g_p, &g_home.field, &err);
    if (!g_w || !world_set_islands(g_w, &g_mem, &g_home.isrc, 1, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    if (!mem_arena_init(&g_arena, &g_mem, course_work_bytes() + 256) || !(g_work = course_work_init(&g_arena))) return -1;
    g_cell = (double)g_home.isrc.cell_m;
    /* The first island east of 10^6 m with strips and a neighbour. */
    for (int64_t cx = (int64_t)ceil(FAR_M / g_cell); cx < (int64_t)ceil(FAR_M / g_cell) + 64; cx++) {
        WorldIslandSite s;
        g_home.isrc.site(g_home.isrc.ctx, cx, 0, &s);
        CourseIsland at;
        if (!s.has_island || !has_neighbour(cx, 0) || !island_of(cx, 0, &at) || at.field->n_strips == 0) continue;
        g_cx = cx;
        g_cz = 0;
        printf("  the far island: cell (%lld, %lld), %u places, %u strips, %.0f m east\n", (long long)cx, (long long)g_cz,
               at.isl->n_sites, at.field->n_strips, (double)cx * g_cell);
        return 0;
    }
    fprintf(stderr, "no island with strips and a neighbour east of 10^6 m\n");
    return -1;
}

static int teardown(void **state) {
    (void)state;
    world_destroy(g_w);
    mem_budget_release(&g_mem);
    return 0;
}

/* The tour of the far island: a ring over each of its places (the base's last), at the place,
 * named as the island names it, inside the island's cell; the course checks out in that world. */
static void test_tour_of_a_far_island(void **state) {
    (void)state;
    static Course c;
    CourseIsland at;
    SkyError err = {0};
    assert_true(island_of(g_cx, g_cz, &at));
    assert_true(at.ox > (int64_t)FAR_M - (int64_t)g_cell);
    if (!course_lay_tour(&c, g_w, &at, g_home.codex, "en", g_work, &err)) fail_msg("%s", err.msg);
    assert_true(island_of(g_cx, g_cz, &at));   /* the same slot: the island is the world's again */
    assert_int_equal(c.n_rings, at.isl->n_sites);
    assert_int_equal(c.rings[c.n_rings - 1].site, (int)at.isl->base);
    uint32_t seen[ISLAND_MAX_SITES] = {0};
    for (uint32_t i = 0; i < c.n_rings; i++) {
        const CourseRing *r = &c.rings[i];
        assert_true(r->site >= 0 && (uint32_t)r->site < at.isl->n_sites);
        seen[r->site]++;
        double x, z;
        char name[COURSE_NAME_MAX];
        course_island_site(&at, (uint32_t)r->site, &x, &z);
        assert_true(fabs(r->x - x) < 1e-6 && fabs(r->z - z) < 1e-6);
        assert_int_equal(world_island_cell(g_w, r->x), g_cx);
        assert_int_equal(world_island_cell(g_w, r->z), g_cz);
        island_site_display_name(at.isl, g_home.codex, (uint32_t)r->site, "en", name, sizeof name);
        assert_string_equal(r->name, name);
    }
    for (uint32_t s = 0; s < at.isl->n_sites; s++) assert_int_equal(seen[s], 1);
    assert_true(course_verify(&c, g_w, &err));
    /* not the home island's tour: another id */
    static Course home;
    CourseIsland h;
    course_island_home(g_w, g_home.island, &h);
    assert_true(course_lay_tour(&home, g_w, &h, g_home.codex, "en", g_work, &err));
    assert_string_not_equal(home.id, c.id);
    printf("  tour of cell (%lld, %lld): %u rings, %s, hash 0x%016llx; the home island's %s\n", (long long)g_cx,
           (long long)g_cz, c.n_rings, c.id, (unsigned long long)course_hash(&c), home.id);
}

/* The tour of an island 10^12 m out on both axes: laid and checked there (the air search keys its
 * lattice from the course's own place), its rings over that island's places. */
static void test_tour_at_1e12(void **state) {
    (void)state;
    static Course c;
    SkyError err = {0};
    for (int64_t cx = (int64_t)ceil(1e12 / g_cell), tried = 0; tried < 64; cx++, tried++) {
        WorldIslandSite s;
        g_home.isrc.site(g_home.isrc.ctx, cx, cx, &s);
        CourseIsland at;
        if (!s.has_island || !island_of(cx, cx, &at) || at.isl->n_sites < 2) continue;
        if (!course_lay_tour(&c, g_w, &at, g_home.codex, "en", g_work, &err)) fail_msg("%s", err.msg);
        assert_true(island_of(cx, cx, &at));
        assert_int_equal(c.n_rings, at.isl->n_sites);
        for (uint32_t i = 0; i < c.n_rings; i++) {
            double x, z;
            course_island_site(&at, (uint32_t)c.rings[i].site, &x, &z);
            assert_true(fabs(c.rings[i].x - x) < 1e-3 && fabs(c.rings[i].z - z) < 1e-3);
        }
        for (uint32_t p = 0; p < c.n_points; p++) {   /* every leg's air path stays in the island's cell */
            assert_int_equal(world_island_cell(g_w, c.points[p].x), cx);
            assert_int_equal(world_island_cell(g_w, c.points[p].z), cx);
        }
        assert_true(course_verify(&c, g_w, &err));
        printf("  tour of cell (%lld, %lld), %.3g m out: %u rings, %u air-path points, hash 0x%016llx\n", (long long)cx,
               (long long)cx, (double)cx * g_cell, c.n_rings, c.n_points, (unsigned long long)course_hash(&c));
        return;
    }
    fail_msg("no island near 10^12 m");
}

/* Ticks the cache idle with the aircraft at (x, z) until the tour is laid for it (true), or 120 s pass. */
static bool cache_laid(CourseCache *c, double x, double z, Course *out) {
    const GameMode *tour = mode_for_course(COURSE_TOUR);
    for (int i = 0; i < 12000; i++) {
        course_cache_tick(c, g_w, x, z, true);
        if (course_cache_take(c, tour, g_w, out)) return true;
        struct timespec ts = {0, 10 * 1000000L};
        nanosleep(&ts, NULL);
    }
    return false;
}

/* The courses laid ahead on their thread, in a world of its own with the archipelago: over the far
 * island the tour is that island's, the course laid here in the game's world bit for bit; back at
 * home the far island's tour does not fit and the home island's is laid. */
static void test_cache_lays_the_far_tour(void **state) {
    (void)state;
    static CourseCache c;
    static Course got, sync;
    CourseIsland at;
    SkyError err = {0};
    size_t used = g_mem.used;
    course_cache_boot(&c, &g_mem, g_w, g_home.island, g_home.codex, &g_home.isrc);
    assert_true(c.started);
    printf("  the courses' thread: %.2f MiB carved, %.2f MiB of it its world's archipelago (2 island slots)\n",
           (double)(g_mem.used - used) / 1048576.0, (double)world_islands_bytes(&g_home.isrc, 1, 1) / 1048576.0);
    assert_true(island_of(g_cx, g_cz, &at));
    double x = (double)at.ox + 100.0, z = (double)at.oz - 50.0;
    assert_true(cache_laid(&c, x, z, &got));
    assert_true(island_of(g_cx, g_cz, &at));
    assert_true(course_lay_tour(&sync, g_w, &at, g_home.codex, "en", g_work, &err));
    assert_string_equal(got.id, sync.id);
    assert_int_equal(got.n_rings, sync.n_rings);
    assert_int_equal(got.n_points, sync.n_points);
    assert_memory_equal(got.rings, sync.rings, got.n_rings * sizeof got.rings[0]);
    assert_memory_equal(got.points, sync.points, got.n_points * sizeof got.points[0]);
    course_cache_tick(&c, g_w, 0.0, 0.0, false);   /* at home, not idle: the far tour does not fit */
    assert_false(course_cache_take(&c, mode_for_course(COURSE_TOUR), g_w, &got));
    assert_true(cache_laid(&c, 0.0, 0.0, &got));
    CourseIsland home;
    course_island_home(g_w, g_home.island, &home);
    assert_true(course_lay_tour(&sync, g_w, &home, g_home.codex, "en", g_work, &err));
    assert_string_equal(got.id, sync.id);
    course_cache_shutdown(&c);
}

/* Steps of dt at one spot, on the ground and still: the events seen. */
static uint32_t stand(Jobs *j, double x, double z, float seconds) {
    uint32_t ev = 0;
    for (float t = 0.0f; t < seconds; t += SIM_STEP) ev |= jobs_step(j, x, z, 0.0f, true, SIM_STEP);
    return ev;
}

/* Stopped at the far island's base: its own places on the board, named as the island names them,
 * and one to a strip of a neighbouring cell's island, named with that island; the same board for
 * the same seed and island, another for another seed. */
static void test_board_of_a_far_island(void **state) {
    (void)state;
    static Jobs j, again, other;
    CourseIsland at;
    assert_true(island_of(g_cx, g_cz, &at));
    double bx, bz;
    course_island_site(&at, at.isl->base, &bx, &bz);
    jobs_init(&j, &g_home, g_p.gen.seed);
    jobs_set_world(&j, g_w);
    assert_true(stand(&j, bx, bz, 1.5f) & JOB_EV_STOPPED);
    assert_int_equal(j.stopped_at, (int)at.isl->base);
    assert_false(j.event_home);
    assert_true(j.n_board >= 2);
    uint32_t away = 0;
    for (uint32_t k = 0; k < j.n_board; k++) {
        const JobOffer *o = &j.board[k];
        char label[160], want[JOBS_NAME_MAX], isle[64];
        assert_int_equal(o->from, at.isl->base);
        assert_true(o->from_cx == g_cx && o->from_cz == g_cz);
        jobs_offer_label(&j, o, label, sizeof label);
        printf("  board: %s (%.1f km)\n", label, o->distance_m / 1000.0);
        CourseIsland to;
        assert_true(island_of(o->to_cx, o->to_cz, &to));
        assert_true(o->to < to.isl->n_sites);
        island_site_display_name(to.isl, g_home.codex, o->to, "en", want, sizeof want);
        assert_non_null(strstr(o->to_name, want));
        assert_non_null(strstr(label, want));
        double px, pz;   /* its place's dot on the map */
        course_island_site(&to, o->to, &px, &pz);
        assert_true(o->site_x == px && o->site_z == pz);
        bool strip = false;
        for (uint32_t s = 0; s < to.field->n_strips; s++) strip |= to.field->strips[s].site == o->to;
        assert_true(strip);
        if (o->to_cx == g_cx && o->to_cz == g_cz) {
            assert_true(o->to != o->from && o->walk_minutes != UINT32_MAX);
            continue;
        }
        away++;
        assert_true(llabs(o->to_cx - g_cx) <= 1 && llabs(o->to_cz - g_cz) <= 1);
        assert_int_equal(o->walk_minutes, UINT32_MAX);
        island_cell_name(g_home.codex, g_p.gen.seed, o->to_cx, o->to_cz, "en", isle, sizeof isle);
        snprintf(want + strlen(want), sizeof want - strlen(want), ", %s", isle);
        assert_string_equal(o->to_name, want);
        assert_int_equal(world_island_cell(g_w, o->to_x), o->to_cx);
        assert_int_equal(world_island_cell(g_w, o->to_z), o->to_cz);
        assert_true(o->distance_m > 1000.0f);
    }
    assert_int_equal(away, 1);
    assert_int_equal(j.board[j.n_board - 1].walk_minutes, UINT32_MAX);   /* the other island's offer last */
    jobs_init(&again, &g_home, g_p.gen.seed);
    jobs_set_world(&again, g_w);
    stand(&again, bx, bz, 1.5f);
    assert_int_equal(again.n_board, j.n_board);
    assert_memory_equal(again.board, j.board, sizeof j.board[0] * j.n_board);
    jobs_init(&other, &g_home, g_p.gen.seed + 1);
    jobs_set_world(&other, g_w);
    stand(&other, bx, bz, 1.5f);
    assert_false(other.n_board == j.n_board && !memcmp(other.board, j.board, sizeof j.board[0] * j.n_board));
}

/* One fixed step of the aircraft with input in: the flight model, the ground and collision, the
 * deliveries. False on a crash. */
static bool fly_step(GameDelivery *d, const FlightModel *m, FlightState *f, const FlightInput *in, uint32_t *ev) {
    FlightState before = *f;
    flight_step(f, in, m, SIM_STEP);
    SimGroundResult g;
    CollisionResult hit;
    if (sim_meet_world(g_w, &before, f, SIM_STEP, &g, &hit)) return false;
    if (g.event == SIM_GROUND_TOUCHDOWN) d->sink = g.sink;
    *ev |= game_delivery_step(d, &before, f, true, false);
    return true;
}

/* The strip of site `site` on the island of (x, z) in world coordinates. */
static bool strip_at(double x, double z, uint32_t site, WorldStrip *out) {
    WorldIsland wi;
    if (!world_island_at(g_w, x, z, &wi)) return false;
    for (uint32_t i = 0; i < wi.field->n_strips; i++)
        if (world_island_strip(&wi, i, out) && out->site == site) return true;
    return false;
}

/* Parked on the far island's base strip: the board up, the other island's job taken; a scripted
 * cruise to 250 m short of its strip on the glide path, the autoland down to a stop there, then
 * still: delivered (the job's time the flight's), counted in the logbook with no route of the home
 * island and no landing at a home island place; the other island landed on. */
static void test_delivery_to_another_island(void **state) {
    (void)state;
    static GameDelivery d;
    static GameConfig cfg;
    FlightModel m;
    flight_model_default(&m);
    memset(&cfg, 0, sizeof cfg);
    game_delivery_boot(&d, &cfg, &g_home, g_w, g_p.gen.seed, g_p.gen.home_sea_level);
    d.log.active = true;   /* recorded as a player's run records (never saved here) */
    CourseIsland at;
    assert_true(island_of(g_cx, g_cz, &at));
    WorldStrip base;
    assert_true(strip_at((double)at.ox, (double)at.oz, at.isl->base, &base));
    FlightState f;
    flight_init(&f, 0.5 * (base.ax + base.bx), (double)base.y + SIM_WHEEL_H, 0.5 * (base.az + base.bz), base.yaw, 0.0f);
    f.on_ground = true;
    f.throttle = 0.0f;
    FlightInput hold = {.brake = true};
    uint32_t ev = 0;
    for (int i = 0; i < (int)(1.5f * SIM_STEP_HZ); i++) assert_true(fly_step(&d, &m, &f, &hold, &ev));
    assert_true(ev & JOB_EV_STOPPED);
    assert_true(d.jobs.n_board >= 1);
    const JobOffer *o = &d.jobs.board[d.jobs.n_board - 1];
    assert_false(o->to_cx == g_cx && o->to_cz == g_cz);
    assert_true(jobs_take(&d.jobs, d.jobs.n_board - 1));
    const JobOffer *job = &d.jobs.job;
    WorldStrip dest;
    assert_true(strip_at(job->to_x, job->to_z, job->to, &dest));
    /* the touchdown point 10% down the run from threshold a; the approach 250 m before it */
    double aim = 0.1 * dest.length_m, from = 250.0;
    SimStrip s = {dest.ax + dest.dir_x * aim, dest.y, dest.az + dest.dir_z * aim, dest.yaw, dest.length_m - aim};
    double sx = s.x - dest.dir_x * from, sy = s.y + SIM_WHEEL_H + from * SIM_GLIDE_SLOPE, sz = s.z - dest.dir_z * from;
    /* the cruise: up off the strip, then along a straight line at 1000 m/s, 300 m above the
     * approach's start, and down onto it */
    double x0 = f.x, z0 = f.z, y0 = f.y + 300.0 + (sy > f.y ? sy - f.y : 0.0);
    double legs = sqrt((sx - x0) * (sx - x0) + (sz - z0) * (sz - z0));
    int n = (int)(legs / (1000.0 * SIM_STEP)) + 1;
    for (int i = 1; i <= n + 60; i++) {
        FlightState before = f;
        double k = i <= n ? (double)i / n : 1.0;
        flight_init(&f, x0 + (sx - x0) * k, i <= n ? y0 : y0 + (sy - y0) * (i - n) / 60.0, z0 + (sz - z0) * k, s.heading,
                    i <= n ? 1000.0f : SIM_APPROACH_SPEED);
        ev |= game_delivery_step(&d, &before, &f, true, false);
    }
    assert_true(d.jobs.carrying);
    f.throttle = flight_throttle_for(&m, SIM_APPROACH_SPEED);
    int steps = 0;
    for (; steps < 90 * SIM_STEP_HZ && !(f.on_ground && f.speed == 0.0f); steps++) {
        FlightInput in;
        sim_autoland_input(&s, &f, &m, &in);
        assert_true(fly_step(&d, &m, &f, &in, &ev));
    }
    assert_true(f.on_ground && f.speed == 0.0f);
    for (int i = 0; i < (int)(1.5f * SIM_STEP_HZ) && !(ev & JOB_EV_DELIVERED); i++) {
        FlightInput in;
        sim_autoland_input(&s, &f, &m, &in);
        assert_true(fly_step(&d, &m, &f, &in, &ev));
    }
    printf("  delivered to %s: %s (the landing's sink %.2f m/s)\n", d.jobs.done.to_name, d.notice, (double)d.sink);
    assert_true(ev & JOB_EV_DELIVERED);
    assert_false(d.jobs.carrying);
    assert_int_equal(d.jobs.delivered, 1);
    assert_true(d.jobs.done_s > legs / 1000.0);
    assert_non_null(strstr(d.notice, "delivered in"));
    assert_null(strstr(d.notice, "on foot"));   /* no walk between islands */
    assert_int_equal(d.log.deliveries, 1);
    assert_int_equal(d.log.n_routes, 0);     /* not a route of the home island */
    assert_int_equal(d.log.landings, 1);
    for (uint32_t k = 0; k < d.log.n_sites; k++) assert_int_equal(d.log.landed[k], 0);
    assert_true(d.log.islands_landed >= 1);
    const LogIsle *last = NULL;
    for (uint32_t k = 0; k < d.log.n_isles; k++)
        if (d.log.isles[k].cell_x == job->to_cx && d.log.isles[k].cell_z == job->to_cz) last = &d.log.isles[k];
    assert_non_null(last);
    assert_true(last->landed);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tour_of_a_far_island),
        cmocka_unit_test(test_tour_at_1e12),
        cmocka_unit_test(test_cache_lays_the_far_tour),
        cmocka_unit_test(test_board_of_a_far_island),
        cmocka_unit_test(test_delivery_to_another_island),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
