/* Tests for courses laid ahead (src/game/course_cache.c): nothing is laid while the player is not
 * idle; idle, every mode's course is laid on the cache's thread, and a mode's start takes it: the
 * same course (id, rings, air path) as laying it in the frame; after a world change the laid
 * course no longer fits (a start lays it in the frame), and idle again it is laid for the new
 * world; shutdown joins the thread. A mode started before its course was laid asks for it: laid
 * next on the thread while not idle (nothing else is), ready for this world only, the same
 * course as the frame's layout; a mode without a course is not asked. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include <time.h>

#include "game/game.h"

static CourseHome g_home;
static MemBudget g_mem;
static Course g_sync, g_got;

static int setup(void **state) {
    (void)state;
    SkyError err = {0};
    if (!course_home_open(&g_home, 5000, &err) || !mem_budget_init(&g_mem, (size_t)32 << 20, &err)) return -1;
    return 0;
}

static int teardown(void **state) {
    (void)state;
    mem_budget_release(&g_mem);
    course_home_close(&g_home);
    return 0;
}

/* Ticks idle until m's course is laid for the world now (true), or 120 s pass. */
static bool wait_laid(CourseCache *c, const GameMode *m) {
    for (int i = 0; i < 12000; i++) {
        course_cache_tick(c, g_home.world, 0.0, 0.0, true);
        if (course_cache_take(c, m, g_home.world, &g_got)) return true;
        struct timespec ts = {0, 10 * 1000000L};
        nanosleep(&ts, NULL);
    }
    return false;
}

static void assert_same_course(const Course *a, const Course *b) {
    assert_string_equal(a->id, b->id);
    assert_int_equal(a->n_rings, b->n_rings);
    assert_int_equal(a->n_points, b->n_points);
    assert_memory_equal(a->rings, b->rings, a->n_rings * sizeof a->rings[0]);
    assert_memory_equal(a->points, b->points, a->n_points * sizeof a->points[0]);
}

static void test_laid_ahead_when_idle(void **state) {
    (void)state;
    static CourseCache c;
    const GameMode *sky = mode_for_course(COURSE_SKY), *tour = mode_for_course(COURSE_TOUR);
    assert_non_null(sky);
    assert_non_null(tour);
    course_cache_boot(&c, &g_mem, g_home.world, &g_home.island, &g_home.codex, NULL);
    assert_true(c.started);
    for (int i = 0; i < 20; i++) course_cache_tick(&c, g_home.world, 0.0, 0.0, false);   /* not idle: nothing laid */
    assert_int_equal(c.state, 0);
    assert_false(course_cache_take(&c, sky, g_home.world, &g_got));
    assert_true(wait_laid(&c, sky));
    SkyError err = {0};
    assert_true(sky->lay(&g_sync, g_home.world, &g_home.at, &g_home.codex, g_home.work, &err));
    assert_same_course(&g_got, &g_sync);
    assert_true(wait_laid(&c, tour));
    assert_true(tour->lay(&g_sync, g_home.world, &g_home.at, &g_home.codex, g_home.work, &err));
    assert_same_course(&g_got, &g_sync);

    WorldGenParams gen = world_params(g_home.world)->gen;   /* another world: the laid one no longer fits */
    gen.seed += 1;
    world_set_gen_params(g_home.world, &gen);
    assert_false(course_cache_take(&c, sky, g_home.world, &g_got));
    assert_true(wait_laid(&c, sky));
    assert_true(sky->lay(&g_sync, g_home.world, &g_home.at, &g_home.codex, g_home.work, &err));
    assert_same_course(&g_got, &g_sync);
    assert_true(c.hits >= 3 && c.laid >= 3);
    course_cache_shutdown(&c);
    assert_false(c.started);
}

/* Ticks not idle until m's course is ready for the world now (1), failed (-1), or 120 s pass (0). */
static int wait_asked(CourseCache *c, const GameMode *m) {
    for (int i = 0; i < 12000; i++) {
        course_cache_tick(c, g_home.world, 0.0, 0.0, false);
        int r = course_cache_ready(c, m, g_home.world);
        if (r != 0) return r;
        struct timespec ts = {0, 10 * 1000000L};
        nanosleep(&ts, NULL);
    }
    return 0;
}

static void test_asked_when_not_idle(void **state) {
    (void)state;
    static CourseCache c;
    const GameMode *sky = mode_for_course(COURSE_SKY), *tour = mode_for_course(COURSE_TOUR);
    course_cache_boot(&c, &g_mem, g_home.world, &g_home.island, &g_home.codex, NULL);
    assert_true(c.started);
    assert_false(course_cache_ask(&c, mode_free()));   /* no course to lay */
    assert_int_equal(course_cache_ready(&c, mode_free(), g_home.world), -1);
    assert_int_equal(course_cache_ready(&c, tour, g_home.world), 0);   /* not laid, not asked */
    assert_true(course_cache_ask(&c, tour));
    assert_int_equal(wait_asked(&c, tour), 1);
    assert_int_equal(course_cache_ready(&c, sky, g_home.world), 0);    /* only the one asked for */
    assert_true(course_cache_take(&c, tour, g_home.world, &g_got));
    SkyError err = {0};
    assert_true(tour->lay(&g_sync, g_home.world, &g_home.at, &g_home.codex, g_home.work, &err));
    assert_same_course(&g_got, &g_sync);
    WorldGenParams gen = world_params(g_home.world)->gen;   /* a rebuild while the start waits */
    gen.seed += 7;
    world_set_gen_params(g_home.world, &gen);
    assert_int_equal(course_cache_ready(&c, tour, g_home.world), 0);
    assert_true(course_cache_ask(&c, tour));
    assert_int_equal(wait_asked(&c, tour), 1);
    assert_true(course_cache_take(&c, tour, g_home.world, &g_got));
    assert_true(tour->lay(&g_sync, g_home.world, &g_home.at, &g_home.codex, g_home.work, &err));
    assert_same_course(&g_got, &g_sync);
    course_cache_shutdown(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_laid_ahead_when_idle),
        cmocka_unit_test(test_asked_when_not_idle),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
