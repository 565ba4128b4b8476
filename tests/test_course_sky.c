/* Tests for sky courses (issue 19) and the platform check of both kinds: for a handful of seeds
 * every ring sits in air with its clearance, every piece of every leg is open air (THE density,
 * world_solid_at), the kinds the course reports are the kinds of its rings, the course pilot
 * completes it; laying it again gives the same course; and the course hashes of a tour and a sky
 * course are constants recorded on x86_64, which qemu-aarch64 must reproduce. The 100-seed
 * figures are `build/bench courses`. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "course/course_int.h"

static CourseHome g_home;
static Course g_course;

/* Under qemu-user only the hashes run (they carry the platform check): the flights are x86's. */
#define SKY_SEEDS 4u

/* Recorded on x86_64 (see the file comment): seed 20261129, the game's default. */
#define HASH_SEED 20261129u
#define TOUR_HASH 0xa67dba35be1c2f7bull
#define SKY_HASH 0xa8fe5200915ebf4dull

static int setup(void **state) {
    (void)state;
    SkyError err = {0};
    if (!course_home_open(&g_home, HASH_SEED, &err)) {
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

static void check_in_air(const Course *c, const World *w) {
    SkyError err = {0};
    bool ok = course_verify(c, w, &err);
    if (!ok) fprintf(stderr, "%s\n", err.msg);
    assert_true(ok);
    /* And the verification can fail: the same course with a ring moved into rock. */
    static Course moved;
    moved = *c;
    moved.rings[0].y = (double)WORLD_Y_MIN + 1.0;
    assert_false(course_verify(&moved, w, &err));
}

#if !defined(__aarch64__)
static Course g_again;

static bool pilot_completes(const Course *c, double limit_s, double *time_s) {
    FlightModel m;
    flight_model_default(&m);
    FlightState f;
    CoursePilot p;
    CourseRun run;
    course_run_start(&run, c, &f, COURSE_PILOT_SPEED);
    f.throttle = flight_throttle_for(&m, COURSE_PILOT_SPEED);
    course_pilot_reset(&p, &run);
    for (uint32_t i = 0; i < (uint32_t)(limit_s * 60.0) && !run.finished; i++)
        course_pilot_fly_step(&p, &run, &f, &m, g_home.world, 1.0f / 60.0f);
    *time_s = run.clock_s;
    return run.finished;
}

static void test_sky_courses(void **state) {
    (void)state;
    uint32_t done = 0;
    for (uint32_t s = 0; s < SKY_SEEDS; s++) {
        SkyError err = {0};
        uint64_t seed = 5000u + s * 104729u;
        assert_true(course_home_seed(&g_home, seed, &err));
        bool laid = course_lay_sky(&g_course, g_home.world, COURSE_SKY_DEFAULT, g_home.work, &err);
        if (!laid) fprintf(stderr, "seed %llu: %s\n", (unsigned long long)seed, err.msg);
        assert_true(laid);
        assert_true(g_course.n_rings >= COURSE_SKY_MIN);
        check_in_air(&g_course, g_home.world);
        assert_true(course_lay_sky(&g_again, g_home.world, COURSE_SKY_DEFAULT, g_home.work, &err));
        assert_true(course_hash(&g_again) == course_hash(&g_course));
        assert_string_equal(g_again.id, g_course.id);
        double t = 0.0;
        bool ok = pilot_completes(&g_course, 600.0, &t);
        printf("  seed %llu: %u rings (open %u, overhang %u, gap %u, cloud %u, tunnel %u), pilot %s in %.1f s\n",
               (unsigned long long)seed, g_course.n_rings, g_course.kind_count[RING_OPEN], g_course.kind_count[RING_OVERHANG],
               g_course.kind_count[RING_GAP], g_course.kind_count[RING_CLOUD], g_course.kind_count[RING_TUNNEL],
               ok ? "done" : "NOT done", t);
        done += ok;
    }
    assert_int_equal(done, SKY_SEEDS);
}
#endif

/* The tour's rings are in air too, and both kinds hash to the recorded constants. */
static void test_course_hashes(void **state) {
    (void)state;
    SkyError err = {0};
    assert_true(course_home_seed(&g_home, HASH_SEED, &err));
    assert_true(course_lay_tour(&g_course, g_home.world, &g_home.island, &g_home.codex, "en", g_home.work, &err));
    check_in_air(&g_course, g_home.world);
    uint64_t tour = course_hash(&g_course);
    assert_true(course_lay_sky(&g_course, g_home.world, COURSE_SKY_DEFAULT, g_home.work, &err));
    uint64_t sky = course_hash(&g_course);
    printf("  seed %u: tour 0x%016llx, sky 0x%016llx\n", HASH_SEED, (unsigned long long)tour, (unsigned long long)sky);
    assert_true(tour == TOUR_HASH);
    assert_true(sky == SKY_HASH);
}

int main(void) {
    const struct CMUnitTest tests[] = {
#if !defined(__aarch64__)
        cmocka_unit_test(test_sky_courses),
#endif
        cmocka_unit_test(test_course_hashes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
