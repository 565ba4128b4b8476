/* Tests for the island tour (issue 19): the route is the shortest closed one (the exact search
 * against every order of a small island, 2-opt never longer than nearest neighbour), every ring
 * floats in air over its place, and the course pilot flies the tour of 20 seeds through flight_step,
 * passing every ring in order, and records a time. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "course/course_int.h"

static CourseHome g_home;
static Course g_course;

#if defined(__aarch64__)
#define TOUR_SEEDS 1u      /* under qemu-user: the same code, one seed (the x86 run flies all 20) */
#else
#define TOUR_SEEDS 20u
#endif

static int setup(void **state) {
    (void)state;
    SkyError err = {0};
    if (!course_home_open(&g_home, 1, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    return 0;
}

static int teardown(void **state) {
    (void)state;
    course_home_close(&g_home);
    return 0;
}

/* Flies the course with the pilot at 60 Hz for at most limit_s; returns the run's clock. */
static double fly(const Course *c, CourseRun *run, double limit_s) {
    FlightModel m;
    flight_model_default(&m);
    FlightState f;
    CoursePilot p;
    course_run_start(run, c, &f, COURSE_PILOT_SPEED);
    f.throttle = flight_throttle_for(&m, COURSE_PILOT_SPEED);
    course_pilot_reset(&p, run);
    uint32_t steps = (uint32_t)(limit_s * 60.0);
    uint32_t order_ok = 1;
    for (uint32_t i = 0; i < steps && !run->finished; i++) {
        uint32_t before = run->next;
        uint32_t ev = course_pilot_fly_step(&p, run, &f, &m, g_home.world, 1.0f / 60.0f);
        if ((ev & COURSE_EVENT_RING) && run->next != before + 1u) order_ok = 0;
    }
    assert_true(order_ok);
    return run->clock_s;
}

static void test_tour_pilot_20_seeds(void **state) {
    (void)state;
    uint32_t done = 0;
    for (uint32_t s = 0; s < TOUR_SEEDS; s++) {
        SkyError err = {0};
        uint64_t seed = 1000u + s * 7919u;
        assert_true(course_home_seed(&g_home, seed, &err));
        bool laid = course_lay_tour(&g_course, g_home.world, &g_home.island, &g_home.codex, "en", g_home.work, &err);
        if (!laid) fprintf(stderr, "seed %llu: %s\n", (unsigned long long)seed, err.msg);
        assert_true(laid);
        assert_int_equal(g_course.n_rings, g_home.island.n_sites);
        assert_int_equal(g_course.rings[g_course.n_rings - 1u].site, (int)g_home.island.base);
        CourseRun run;
        double t = fly(&g_course, &run, 900.0);
        printf("  seed %llu: %u rings, route %u m, %s, time %.1f s, %u crashes%s\n", (unsigned long long)seed,
               g_course.n_rings, g_course.route_metres, g_course.route_exact ? "exact" : "2-opt", t, run.crashes,
               run.finished ? "" : " (NOT FINISHED)");
        if (!run.finished) printf("    stuck before ring %u (%s)\n", run.next, g_course.rings[run.next].name);
        done += run.finished;
    }
    assert_int_equal(done, TOUR_SEEDS);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tour_pilot_20_seeds),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
