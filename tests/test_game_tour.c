/* Tests for the game's courses (tour.c): a sky course flown by the course pilot ends
 * with the results and a best time kept beside the settings; a new boot reads it back; a slower
 * run does not replace it; a damaged best-times file is ignored (one line) and rewritten by the
 * next best run; the menu and the title offer the three modes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game/input.h"
#include "game/menu.h"
#include "game/tour.h"

static CourseHome g_home;
static MemBudget g_mem;
static Tour g_tour;
static char g_dir[64];

static int setup(void **state) {
    (void)state;
    SkyError err = {0};
    snprintf(g_dir, sizeof g_dir, "/tmp/skyisles-tour-XXXXXX");
    if (!mkdtemp(g_dir) || !course_home_open(&g_home, 5000, &err) || !mem_budget_init(&g_mem, (size_t)24 << 20, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    return 0;
}

static int teardown(void **state) {
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/%s", g_dir, TOUR_BEST_FILE);
    unlink(path);
    rmdir(g_dir);
    mem_budget_release(&g_mem);
    course_home_close(&g_home);
    return 0;
}

static void boot(void) {
    SkyError err = {0};
    g_mem.used = 0;   /* a fresh boot: the same budget carved again */
    assert_true(tour_boot(&g_tour, &g_mem, g_dir, &err));
}

static double fly_sky(void) {
    SkyError err = {0};
    FlightModel m;
    flight_model_default(&m);
    FlightState f;
    memset(&f, 0, sizeof f);
    assert_true(tour_start(&g_tour, TOUR_SKY, g_home.world, &g_home.island, &g_home.codex, &f, &err));
    assert_true(tour_fly_pilot(&g_tour, &f, &m, g_home.world, 600.0));
    assert_true(g_tour.results);
    return g_tour.run.clock_s;
}


static void test_menu_offers_modes(void **state) {
    (void)state;
    boot();
    int found = 0;
    Menu m;
    GameSettings s;
    memset(&s, 0, sizeof s);
    menu_open(&m, &s, NULL, MENU_PAGE_PAUSE);
    for (int i = 0; i < m.count; i++)
        found += !strcmp(m.items[i].label, "Free flight") + !strcmp(m.items[i].label, "Island tour") +
                 !strcmp(m.items[i].label, "Sky course");
    assert_int_equal(found, 3);
}

/* The title's choice: down twice picks the sky course, Start asks for it; on Free flight Start
 * asks for nothing (the title starts free flight as before). */
static void test_title_choice(void **state) {
    (void)state;
    boot();
    TourMode m;
    while (tour_take_request(&m)) {}
    InputState in;
    memset(&in, 0, sizeof in);
    in.pressed[GA_PAUSE] = true;
    tour_title_input(&g_tour, &in);
    assert_false(tour_take_request(&m));
    memset(&in, 0, sizeof in);
    in.pressed[GA_MENU_DOWN] = true;
    tour_title_input(&g_tour, &in);
    tour_title_input(&g_tour, &in);
    assert_false(tour_take_request(&m));
    memset(&in, 0, sizeof in);
    in.pressed[GA_MENU_OK] = true;
    tour_title_input(&g_tour, &in);
    assert_true(tour_take_request(&m));
    assert_int_equal(m, TOUR_SKY);
    memset(&in, 0, sizeof in);
    in.pressed[GA_MENU_UP] = true;
    tour_title_input(&g_tour, &in);
    assert_int_equal(g_tour.title_choice, TOUR_ISLAND);
}

static void test_best_kept_and_read(void **state) {
    (void)state;
    boot();
    assert_int_equal(g_tour.n_best, 0);
    double t = fly_sky();
    assert_true(g_tour.new_best);
    boot();   /* read back from the file */
    assert_int_equal(g_tour.n_best, 1);
    assert_string_equal(g_tour.best[0].id, g_tour.course->id);
    assert_true(g_tour.best[0].total > t - 0.01 && g_tour.best[0].total < t + 0.01);
    /* The same course again, flown the same way: not faster, so the best stays. */
    fly_sky();
    assert_false(g_tour.new_best);
    assert_int_equal(g_tour.n_best, 1);
}

static void test_damaged_file_ignored(void **state) {
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/%s", g_dir, TOUR_BEST_FILE);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("sky-4d-12345678 notanumber 1.0 2.0\n", fp);
    fclose(fp);
    boot();
    assert_int_equal(g_tour.n_best, 0);
    fly_sky();
    assert_true(g_tour.new_best);
    boot();
    assert_int_equal(g_tour.n_best, 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_menu_offers_modes),
        cmocka_unit_test(test_title_choice),
        cmocka_unit_test(test_best_kept_and_read),
        cmocka_unit_test(test_damaged_file_ignored),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
