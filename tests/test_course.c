/* Tests for the course module's pure parts: a ring counts when the aircraft's swept
 * motion passes through its disc (a 1000 m/s step counts, a pass beside it or a flight round it
 * does not, a step ending on the plane counts once); the closed route is the shortest (the exact
 * search against every order, 2-opt never longer than nearest neighbour); a run keeps a missed
 * ring next, and a crash restarts at the last ring passed with the clock running on. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "course/course_int.h"

static CourseRing ring_at(double x, double y, double z, float nx, float ny, float nz, float radius) {
    CourseRing r;
    memset(&r, 0, sizeof r);
    r.x = x, r.y = y, r.z = z;
    r.nx = nx, r.ny = ny, r.nz = nz;
    r.radius = radius;
    return r;
}

/* One 60 Hz step at 1000 m/s is 16.7 m: the ring is passed inside one step. */
static void test_fast_pass_counts(void **state) {
    (void)state;
    CourseRing r = ring_at(0, 100, 0, 0, 0, -1, 8);
    double step = 1000.0 / 60.0;
    assert_true(course_ring_crossed(&r, 1.0, 101.0, 5.0, 1.0, 101.0, 5.0 - step));
    /* Backwards through it counts too (a ring is a hole, either way). */
    assert_true(course_ring_crossed(&r, 0.0, 100.0, -5.0, 0.0, 100.0, -5.0 + step));
    /* The same step beside the ring, just outside the rim less the box: not through. */
    double beside = 8.0 - SIM_HIT_RADIUS + 0.05;
    assert_false(course_ring_crossed(&r, beside, 100.0, 5.0, beside, 100.0, 5.0 - step));
    assert_true(course_ring_crossed(&r, beside - 0.1, 100.0, 5.0, beside - 0.1, 100.0, 5.0 - step));
    /* Not reaching the plane: no count. */
    assert_false(course_ring_crossed(&r, 0.0, 100.0, 20.0, 0.0, 100.0, 1.0));
}

/* The aircraft itself at 1000 m/s (boost, the default model's limit), stepped by flight_step at
 * 60 Hz through a ring 300 m ahead: counted once, at the step that carries it through. */
static void test_boosted_flight_counts(void **state) {
    (void)state;
    static Course c;
    memset(&c, 0, sizeof c);
    c.n_rings = 1;
    c.start_y = 100.0;
    c.rings[0] = ring_at(0, 100, -300, 0, 0, -1, 6);
    FlightModel m;
    flight_model_default(&m);
    CourseRun r;
    FlightState f;
    course_run_start(&r, &c, &f, 1000.0f);
    f.boost = 1.0f;
    FlightInput in = {.boost = true};
    uint32_t rings = 0, step_of_ring = 0;
    for (uint32_t i = 0; i < 60; i++) {
        double x0 = f.x, y0 = f.y, z0 = f.z;
        flight_step(&f, &in, &m, 1.0f / 60.0f);
        assert_true(f.speed > 990.0f);
        if (course_run_step(&r, &f, x0, y0, z0, false, 1.0f / 60.0f) & COURSE_EVENT_RING) rings++, step_of_ring = i;
    }
    assert_int_equal(rings, 1);
    assert_int_equal(step_of_ring, 17);   /* 300 m at 16.7 m a step: the 18th step */
    assert_true(r.finished);
}

/* A step ending exactly on the plane counts, and the next step (starting there) does not again. */
static void test_plane_touch_counts_once(void **state) {
    (void)state;
    CourseRing r = ring_at(10, 50, 10, 1, 0, 0, 6);
    assert_true(course_ring_crossed(&r, 5.0, 50.0, 10.0, 10.0, 50.0, 10.0));
    assert_false(course_ring_crossed(&r, 10.0, 50.0, 10.0, 15.0, 50.0, 10.0));
}

/* A flight round the ring: a circle of twice its radius about its centre in 200 small steps,
 * crossing its plane twice, both times outside the rim. */
static void test_flight_round_does_not_count(void **state) {
    (void)state;
    CourseRing r = ring_at(0, 80, 0, 0, 0, -1, 8);
    uint32_t crossings = 0;
    for (int i = 0; i < 200; i++) {
        double a0 = 6.2831853 * i / 200.0, a1 = 6.2831853 * (i + 1) / 200.0;
        /* The circle lies in the x-z plane: it crosses the ring's plane (z = 0) at x = +-16. */
        crossings += course_ring_crossed(&r, 16.0 * sin(a0), 80.0, 16.0 * cos(a0), 16.0 * sin(a1), 80.0, 16.0 * cos(a1));
    }
    assert_int_equal(crossings, 0);
    /* The same circle through the ring's opening (radius 4 about a point 4 m to the side): counted
     * each time it goes through. */
    for (int i = 0; i < 200; i++) {
        double a0 = 6.2831853 * i / 200.0, a1 = 6.2831853 * (i + 1) / 200.0;
        crossings += course_ring_crossed(&r, 4.0 * sin(a0), 80.0, 4.0 * cos(a0), 4.0 * sin(a1), 80.0, 4.0 * cos(a1));
    }
    assert_int_equal(crossings, 2);
}

/* Work memory for the route tests. */
static uint8_t g_arena[(size_t)8 << 20];
static CourseWork *work(void) {
    static CourseWork *wk;
    if (!wk) {
        MemArena a;
        assert_true(course_work_bytes() <= sizeof g_arena);
        mem_arena_init_buffer(&a, g_arena, sizeof g_arena);
        wk = course_work_init(&a);
    }
    assert_non_null(wk);
    return wk;
}

static uint32_t closed_length(uint32_t n, const uint32_t *d, const uint16_t *order) {
    uint32_t len = 0;
    for (uint32_t i = 0; i < n; i++) len += d[order[i] * n + order[(i + 1) % n]];
    return len;
}

/* Every order of places 1..n-1 by Heap's algorithm: the shortest closed length. */
static uint32_t brute_force(uint32_t n, const uint32_t *d) {
    uint16_t o[16];
    uint32_t c[16] = {0}, best;
    for (uint32_t i = 0; i < n; i++) o[i] = (uint16_t)i;
    best = closed_length(n, d, o);
    uint32_t m = n - 1, i = 0;
    while (i < m) {
        if (c[i] < i) {
            uint32_t a = (i % 2 == 0) ? 0 : c[i];
            uint16_t t = o[1 + a];
            o[1 + a] = o[1 + i];
            o[1 + i] = t;
            uint32_t len = closed_length(n, d, o);
            if (len < best) best = len;
            c[i]++;
            i = 0;
        } else {
            c[i] = 0;
            i++;
        }
    }
    return best;
}

/* Shortest-path-like distances: points on a grid with a metric from a seeded generator. */
static void random_matrix(uint32_t n, uint64_t seed, uint32_t *d) {
    Rng r;
    rng_seed(&r, seed, 19);
    int32_t x[COURSE_MAX_RINGS], z[COURSE_MAX_RINGS];
    for (uint32_t i = 0; i < n; i++) x[i] = rng_range(&r, 0, 1000), z[i] = rng_range(&r, 0, 1000);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) d[i * n + j] = (uint32_t)(abs(x[i] - x[j]) + abs(z[i] - z[j]));
}

static void test_route_exact_is_shortest(void **state) {
    (void)state;
    uint32_t d[10 * 10];
    for (uint64_t s = 0; s < 12; s++) {
        uint32_t n = 4 + (uint32_t)(s % 6);   /* 4..9 places: every order is checkable */
        random_matrix(n, s, d);
        uint16_t order[16];
        bool exact = false;
        uint32_t len = route_shortest_closed(work(), n, d, order, &exact);
        assert_true(exact);
        assert_int_equal(order[0], 0);
        uint8_t seen[16] = {0};
        for (uint32_t i = 0; i < n; i++) seen[order[i]]++;
        for (uint32_t i = 0; i < n; i++) assert_int_equal(seen[i], 1);
        assert_int_equal(len, closed_length(n, d, order));
        assert_int_equal(len, brute_force(n, d));
    }
}

/* Beyond the exact size: a tour of every place, no longer than the nearest-neighbour tour it
 * starts from, and no 2-opt move left that would shorten it. */
static void test_route_two_opt(void **state) {
    (void)state;
    static uint32_t d[40 * 40];
    uint32_t n = 40;
    random_matrix(n, 99, d);
    uint16_t order[40];
    bool exact = true;
    uint32_t len = route_shortest_closed(work(), n, d, order, &exact);
    assert_false(exact);
    assert_int_equal(len, closed_length(n, d, order));
    /* Nearest neighbour from 0. */
    uint16_t nn[40];
    uint8_t used[40] = {0};
    nn[0] = 0, used[0] = 1;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t best = 0xffffffffu, pick = 0;
        for (uint32_t p = 1; p < n; p++)
            if (!used[p] && d[nn[i - 1] * n + p] < best) best = d[nn[i - 1] * n + p], pick = p;
        nn[i] = (uint16_t)pick, used[pick] = 1;
    }
    assert_true(len <= closed_length(n, d, nn));
    for (uint32_t i = 1; i + 1 < n; i++)
        for (uint32_t j = i + 1; j < n; j++) {
            uint32_t a = order[i - 1], b = order[i], c = order[j], e = order[(j + 1) % n];
            assert_true(d[a * n + c] + d[b * n + e] >= d[a * n + b] + d[c * n + e]);
        }
}

/* A course of two rings in a row along -z, for the run tests, and a run of it started. */
static Course g_two;
static void two_rings(CourseRun *r, FlightState *f) {
    Course *c = &g_two;
    memset(c, 0, sizeof *c);
    c->n_rings = 2;
    c->start_x = 0, c->start_y = 100, c->start_z = 0;
    c->start_yaw = 0.0f;
    c->rings[0] = ring_at(0, 100, -50, 0, 0, -1, 8);
    c->rings[1] = ring_at(0, 100, -100, 0, 0, -1, 8);
    course_run_start(r, c, f, 30.0f);
}

static void test_run_missed_ring_stays_next(void **state) {
    (void)state;
    CourseRun r;
    FlightState f;
    two_rings(&r, &f);
    assert_int_equal(r.next, 0);
    /* Beside ring 0 (20 m off), then through where ring 1 is: ring 1 is not next, nothing counts. */
    f.x = 20.0, f.z = -45.0;
    assert_int_equal(course_run_step(&r, &f, 20.0, 100.0, -55.0, false, 0.5f), 0u);
    f.x = 0.0, f.z = -105.0;
    assert_int_equal(course_run_step(&r, &f, 0.0, 100.0, -95.0, false, 0.5f), 0u);
    assert_int_equal(r.next, 0);
    /* Through ring 0 at last, then ring 1: both count, in order, and the run ends. */
    f.z = -55.0;
    assert_int_equal(course_run_step(&r, &f, 0.0, 100.0, -45.0, false, 0.5f), COURSE_EVENT_RING);
    f.z = -105.0;
    assert_int_equal(course_run_step(&r, &f, 0.0, 100.0, -95.0, false, 0.5f), COURSE_EVENT_RING | COURSE_EVENT_FINISH);
    assert_true(r.finished);
    assert_true(fabs(r.split_s[0] - 1.5) < 1e-9 && fabs(r.split_s[1] - 2.0) < 1e-9);
    assert_true(fabs(r.clock_s - 2.0) < 1e-9);
}

static void test_run_crash_restarts_at_last_ring(void **state) {
    (void)state;
    CourseRun r;
    FlightState f;
    two_rings(&r, &f);
    /* A crash before any ring: back at the start. */
    f.x = 30.0, f.z = -20.0;
    assert_int_equal(course_run_step(&r, &f, 30.0, 100.0, -10.0, true, 1.0f), COURSE_EVENT_RESTART);
    assert_true(f.x == 0.0 && f.z == 0.0 && f.y == 100.0);
    f.z = -55.0;
    course_run_step(&r, &f, 0.0, 100.0, -45.0, false, 1.0f);
    assert_int_equal(r.next, 1);
    /* A crash after ring 0: at ring 0, heading through it (-z: yaw 0), the clock running on. */
    f.x = 40.0, f.z = -80.0, f.yaw = 2.0f;
    assert_int_equal(course_run_step(&r, &f, 40.0, 100.0, -70.0, true, 1.0f), COURSE_EVENT_RESTART);
    assert_true(f.x == 0.0 && f.z == -50.0 && fabsf(f.yaw) < 1e-6f);
    assert_int_equal(r.crashes, 2);
    assert_int_equal(r.next, 1);
    assert_true(fabs(r.clock_s - 3.0) < 1e-9);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_pass_counts),
        cmocka_unit_test(test_plane_touch_counts_once),
        cmocka_unit_test(test_boosted_flight_counts),
        cmocka_unit_test(test_flight_round_does_not_count),
        cmocka_unit_test(test_route_exact_is_shortest),
        cmocka_unit_test(test_route_two_opt),
        cmocka_unit_test(test_run_missed_ring_stays_next),
        cmocka_unit_test(test_run_crash_restarts_at_last_ring),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
