/* Tests for the game's modes and courses (mode_table.c, tour.c, show.c): a sky course flown by the
 * course pilot ends with the results and a best time kept beside the settings; a new boot reads it
 * back; a slower run does not replace it; a damaged best-times file is ignored (one line) and
 * rewritten by the next best run; the menu and the title offer every row of the mode table, a
 * menu action hands over its row; a mode registered from outside (one row and its course layout)
 * is in the menu, the title, --show and --help, and is flown like the built-in ones. */
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
#include "game/show.h"
#include "game/tour.h"

/* A mode from outside: a short sky course of its own, the ring courses' HUD and results. */
static bool lay_laps(Course *c, const World *w, const CourseIsland *at, const IslandCodex *cx, CourseWork *work,
                     SkyError *err) {
    (void)at;
    (void)cx;
    return course_lay_sky(c, w, COURSE_SKY_MIN, work, err);
}

static const GameMode k_laps = {
    .name = "Test laps", .help = "four rings through the sky", .lay = lay_laps, .course = COURSE_SKY,
    .show = "laps", .show_help = "a ring of the test laps", .show_ring = 1, .show_back = 30.0, .show_up = 2.0,
    .hud = course_hud_draw, .results = course_results_draw, .keep_best = true};

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
    /* Before the first boot registers the menu: a row like the built-in ones. */
    return mode_register(&k_laps) ? 0 : -1;
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
    assert_true(tour_start(&g_tour, mode_for_course(COURSE_SKY), g_home.world, &g_home.at, &g_home.codex, &f, &err));
    assert_true(tour_fly_pilot(&g_tour, &f, &m, g_home.world, 600.0));
    assert_true(g_tour.results);
    return g_tour.run.clock_s;
}

/* The pause menu offers every row of the table, each once; OK on one hands the game its row. */
static void test_menu_offers_modes(void **state) {
    (void)state;
    boot();
    Menu m;
    GameSettings s;
    memset(&s, 0, sizeof s);
    assert_true(mode_count() >= 4);   /* the built-in rows and the registered one */
    for (size_t k = 0; k < mode_count(); k++) {
        menu_open(&m, &s, NULL, MENU_PAGE_PAUSE);
        int found = 0;
        for (int i = 0; i < m.count; i++)
            if (!strcmp(m.items[i].label, mode_at(k)->name)) found++, m.sel = i;
        assert_int_equal(found, 1);
        InputState in;
        memset(&in, 0, sizeof in);
        in.pressed[GA_MENU_OK] = true;
        PlatformEvents ev;
        memset(&ev, 0, sizeof ev);
        assert_int_equal(menu_update(&m, &in, &ev, 0.016f), MENU_CMD_MODE);
        assert_ptr_equal(mode_at((size_t)m.arg), mode_at(k));
    }
    assert_false(mode_register(&k_laps));   /* a name is one row */
}

/* The title's choice: down twice picks the third row, Start returns it; on the first row (no
 * course) Start returns none (the title starts free flight as before); up wraps round the table. */
static void test_title_choice(void **state) {
    (void)state;
    boot();
    InputState in;
    memset(&in, 0, sizeof in);
    in.pressed[GA_PAUSE] = true;
    assert_null(tour_title_input(&g_tour, &in));
    memset(&in, 0, sizeof in);
    in.pressed[GA_MENU_DOWN] = true;
    assert_null(tour_title_input(&g_tour, &in));
    assert_null(tour_title_input(&g_tour, &in));
    memset(&in, 0, sizeof in);
    in.pressed[GA_MENU_OK] = true;
    assert_ptr_equal(tour_title_input(&g_tour, &in), mode_at(2));
    memset(&in, 0, sizeof in);
    in.pressed[GA_MENU_UP] = true;
    tour_title_input(&g_tour, &in);
    tour_title_input(&g_tour, &in);
    tour_title_input(&g_tour, &in);
    assert_int_equal(g_tour.title_choice, (int)mode_count() - 1);
}

/* The registered mode: in --show and --help by its row's name, flown and ended like the others. */
static void test_registered_mode(void **state) {
    (void)state;
    boot();
    Show sh;
    assert_true(show_find("laps", &sh));
    assert_int_equal(sh.kind, SHOW_MODE);
    const GameMode *laps = sh.mode;
    assert_true(mode_index(laps) >= 3);
    assert_string_equal(laps->name, "Test laps");
    assert_false(show_find("laps-results", &sh));
    assert_true(show_find("results", &sh) && sh.results && sh.mode->lay);
    assert_true(show_find(NULL, &sh) && sh.kind == SHOW_HUD);
    static char help[2048];
    show_help_text(help, sizeof help);
    assert_non_null(strstr(help, "laps (a ring of the test laps)"));
    assert_non_null(strstr(help, "menu (the pause menu)"));
    SkyError err = {0};
    FlightState f;
    memset(&f, 0, sizeof f);
    assert_true(tour_start(&g_tour, laps, g_home.world, &g_home.at, &g_home.codex, &f, &err));
    assert_true(tour_active(&g_tour));
    assert_int_equal(g_tour.course->n_rings, COURSE_SKY_MIN);
    RenderRing rings[RENDER_RINGS_MAX];
    assert_int_equal(tour_render_rings(&g_tour, rings, RENDER_RINGS_MAX), COURSE_SKY_MIN);
    tour_hide(&g_tour, true);
    assert_false(tour_active(&g_tour));
    assert_int_equal(tour_render_rings(&g_tour, rings, RENDER_RINGS_MAX), 0);
    tour_hide(&g_tour, false);
    tour_end(&g_tour);
    assert_false(tour_active(&g_tour));
    assert_ptr_equal(g_tour.mode, mode_free());
    /* A role no row takes: one line, free flight. */
    assert_false(tour_start(&g_tour, NULL, g_home.world, &g_home.at, &g_home.codex, &f, &err));
    assert_non_null(strstr(err.msg, "no game mode"));
    assert_false(tour_active(&g_tour));
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
        cmocka_unit_test(test_registered_mode),
        cmocka_unit_test(test_best_kept_and_read),
        cmocka_unit_test(test_damaged_file_ignored),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
