/* An island tour with a ghost in the game, end to end: the game booted headless with --autopilot
 * (the course pilot flies a course) and a settings folder; the pause menu's Island tour (its
 * action hands the game the mode's row, no request waits) starts the tour, the pilot flies it to its last ring, the results show, and the best time is kept
 * in best_times.txt and the run in replays/best-ID.skyr; a second run of the same tour flies that
 * run as the ghost, step for step with the course clock, where the first run flew at the same
 * step, and the HUD's gained/lost figure is the second run's ring time less the first's. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game/game.h"
#include "support/game_fixture.h"

/* A seed whose tour the course pilot flies without a crash (test_course_world's list), 20 rings. */
#define TOUR_SEED "88109"
#define FRAME_DT 0.25f                  /* 15 sim steps a frame: fewer world updates */
#define MAX_FRAMES 4000u                /* 1000 s of flight */
/* Under qemu-user (aarch64, some twenty times slower) the second run is flown for its first 40 s
 * only: the ghost and the gained/lost figure are checked there the same way. */
#if defined(__aarch64__)
#define RUN2_FRAMES 160u
#else
#define RUN2_FRAMES MAX_FRAMES
#endif

static Game g_game;
static char g_dir[256];
static PlatformEvents g_ev;

static int setup(void **state) {
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/skyisles_ghost_XXXXXX");
    if (!mkdtemp(g_dir)) return -1;
    static GameOptions opt;
    TestArgs args = test_args("--headless", "--autopilot", "--config", g_dir, "--seed", TOUR_SEED, "--mem", "128",
                              "--view-radius", "1");
    if (!fixture_game_boot(&g_game, &opt, args)) return -1;
    return 0;
}

static int teardown(void **state) {
    (void)state;
    return fixture_game_end(&g_game, g_dir);
}

/* The first run's aircraft at the end of each frame, by the course clock's steps (the ghost must
 * be there at the same step of the second run's clock). */
#define MAX_STEPS (MAX_FRAMES * 16u)
static struct { double x, y, z; bool set; } g_run1[MAX_STEPS];
static double g_run1_split[COURSE_MAX_RINGS];

/* One frame with key k pressed (and released after it). */
static void press(PlatformKey k) {
    g_ev.keys[0] = k;
    g_ev.key_count = 1;
    g_ev.held[k] = true;
    game_frame(&g_game, &g_ev, FRAME_DT);
    g_ev.key_count = 0;
    g_ev.held[k] = false;
}

/* The mode m chosen from the pause menu: P opens it, its row's item selected, Enter. The mode
 * starts in that frame (the menu closes, no step flown yet). */
static void choose_mode(const GameMode *m) {
    Game *g = &g_game;
    press(PKEY_P);
    assert_int_equal(g->ses.play.overlay, OVERLAY_MENU);
    g->ses.menu.sel = -1;
    for (int i = 0; i < g->ses.menu.count; i++)
        if (!strcmp(g->ses.menu.items[i].label, m->name)) g->ses.menu.sel = i;
    assert_true(g->ses.menu.sel >= 0);
    uint64_t steps = g->ses.play.steps;
    press(PKEY_ENTER);
    assert_int_equal(g->ses.play.overlay, OVERLAY_NONE);
    assert_ptr_equal(g->crs.tour.mode, m);
    assert_false(g->crs.tour.results);
    assert_int_equal(g->ses.play.steps, steps);
}

/* The island tour chosen from the menu and flown by frames of play to its results. */
static uint32_t fly_tour(bool first) {
    Game *g = &g_game;
    const GameMode *tour = mode_for_course(COURSE_TOUR);
    assert_non_null(tour);
    choose_mode(tour);   /* the results of a run before close with it */
    g->ses.play.step_acc = 0.0;   /* both runs' frames from a whole step: they meet at the same steps */
    uint32_t frames = 0, ghost_checked = 0, deltas = 0, ghost_frames = 0;
    uint32_t limit = first ? MAX_FRAMES : RUN2_FRAMES;
    for (; frames < limit && !g->crs.tour.results; frames++) {
        game_frame(g, &g_ev, FRAME_DT);
        assert_ptr_equal(g->crs.tour.mode, tour);
        uint32_t clock_steps = (uint32_t)(g->crs.tour.run.clock_s * SIM_STEP_HZ + 0.5);
        assert_true(clock_steps < MAX_STEPS);
        if (first) {
            g_run1[clock_steps].x = g->ses.flight.x, g_run1[clock_steps].y = g->ses.flight.y, g_run1[clock_steps].z = g->ses.flight.z;
            g_run1[clock_steps].set = true;
            continue;
        }
        /* The ghost: as many steps as the course's clock, where the first run was then. On the
         * frame the run finishes its clock stops at the finish step and the frame's later steps
         * go on without it: the run is over, the results show. */
        assert_true(g->crs.ghost.replay != NULL);
        if (g->crs.tour.results) break;
        if (g->crs.ghost.active) {
            ghost_frames++;
            assert_int_equal(ghost_steps(&g->crs.ghost), clock_steps);
            if (g_run1[clock_steps].set) {
                assert_true(g->crs.ghost.flight.x == g_run1[clock_steps].x && g->crs.ghost.flight.y == g_run1[clock_steps].y &&
                            g->crs.ghost.flight.z == g_run1[clock_steps].z);
                ghost_checked++;
            }
        }
        double delta;
        if (tour_split_delta(&g->crs.tour, &delta)) {
            uint32_t k = g->crs.tour.run.next - 1u;
            float ghost_t;
            assert_true(ghost_ring_time(&g->crs.ghost, k, &ghost_t) || k >= REPLAY_SPLITS_MAX);
            assert_true(delta == g->crs.tour.run.split_s[k] - (double)(float)g_run1_split[k]);
            deltas++;
        }
    }
    if (!first) {
        printf("  second run: the ghost flew %u frames, at the first run's place checked at %u, the gained/lost figure "
               "at %u\n", ghost_frames, ghost_checked, deltas);
        assert_true(ghost_frames > frames / 2);
        assert_true(ghost_checked + 2u >= ghost_frames);
        assert_true(deltas > 0);
    }
    return frames;
}

static void test_tour_with_ghost(void **state) {
    (void)state;
    Game *g = &g_game;
    /* Run one: no best yet, so no ghost. */
    uint32_t frames = fly_tour(true);
    const Course *c = g->crs.tour.course;
    printf("  run 1: %s, %u rings in %.2f s, %u crashes (%u frames)\n", c->id, c->n_rings, g->crs.tour.run.clock_s,
           g->crs.tour.run.crashes, frames);
    assert_true(g->crs.tour.results);
    assert_true(g->crs.tour.run.finished);
    assert_int_equal(g->crs.tour.run.next, c->n_rings);
    assert_true(g->crs.tour.new_best);
    for (uint32_t k = 0; k < c->n_rings; k++) g_run1_split[k] = g->crs.tour.run.split_s[k];
    double total1 = g->crs.tour.run.clock_s;
    /* The best time in best_times.txt, the run in replays/best-ID.skyr. */
    char path[600], line[4096];
    snprintf(path, sizeof path, "%s/%s", g_dir, TOUR_BEST_FILE);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    bool found = false;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, c->id, strlen(c->id))) {
            found = true;
            assert_true(strtod(line + strlen(c->id), NULL) > total1 - 0.001 && strtod(line + strlen(c->id), NULL) < total1 + 0.001);
        }
    fclose(f);
    assert_true(found);
    snprintf(path, sizeof path, "%s/replays/best-%s.skyr", g_dir, c->id);
    static Replay best;
    SkyError err = {0};
    assert_true(replay_init(&best, &g->svc.mem));
    if (!replay_load(&best, path, &err)) fail_msg("%s", err.msg);
    assert_string_equal(best.h.course, c->id);
    assert_true(best.h.course_time_s == total1);
    assert_int_equal(best.h.n_splits, c->n_rings < REPLAY_SPLITS_MAX ? c->n_rings : REPLAY_SPLITS_MAX);
    assert_true(best.h.steps >= (uint32_t)(total1 * SIM_STEP_HZ) - 1u);
    /* Run two: the same tour, the first run flies as the ghost. */
    frames = fly_tour(false);
    printf("  run 2: %.2f s (%u frames, ring %u of %u); ghost course time %.2f s\n", g->crs.tour.run.clock_s, frames,
           g->crs.tour.run.next, c->n_rings, ghost_course_time(&g->crs.ghost));
    assert_true(g->crs.tour.results || frames == RUN2_FRAMES);
    assert_true(ghost_course_time(&g->crs.ghost) == total1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tour_with_ghost),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
