/* Tests for the attract mode (src/game/attract.c): the game booted headless in this
 * process. The bundled replay (assets/replays/attract-sky.skyr) fits this build and world, plays
 * to its end on the current sim through the game's own steps, passing every ring of its course
 * at the recorded times and ending at the recorded state hash; it loops; the end of the loop
 * puts the player's flight and course back. A missing, damaged or foreign file gets one line and
 * the autopilot flies instead (once per reason). The replay's preparation (its course laid, the
 * replay flown unseen) runs on the attract's own thread, kicked a few seconds into the idle: the
 * frame that begins the loop does none of it, the replay starts once it has finished, a world
 * change during it leaves no stale course, a stop signal during it ends it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game/game.h"
#include "support/game_fixture.h"

#define BUNDLED "assets/replays/attract-sky.skyr"
#define RERECORD "re-record it with `make attract-replay` (docs/replay.md)"

static Game g_game;
static char g_dir[256];

static int setup(void **state) {
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/skyisles_attract_XXXXXX");
    if (!mkdtemp(g_dir)) return -1;
    static GameOptions opt;
    TestArgs args = test_args("--headless", "--mem", "128", "--view-radius", "2");
    if (!fixture_game_boot(&g_game, &opt, args)) return -1;
    return 0;
}

static int teardown(void **state) {
    (void)state;
    return fixture_game_end(&g_game, g_dir);
}

/* The attract's calls with the parts of the test's game, as game.c makes them. */
static void before_frame(Game *g) { attract_before_frame(&g->crs, &g->ses, &g->svc, &g->cfg.set); }

static void after_frame(Game *g) { attract_after_frame(&g->crs, &g->ses, g->svc.render, g->cfg.opt.demo); }

static bool load(Game *g, const char *path, SkyError *err) {
    return attract_load(&g->crs.attract, &g->svc.mem, g->svc.world, path, err);
}

static bool check(Game *g, SkyError *err) {
    return attract_check(&g->crs.attract, &g->svc, &g->cfg.set, g->ses.play.frames, err);
}

/* stderr of fn() (the log) into buf. */
static void capture_log(void (*fn)(Game *), char *buf, size_t n) {
    fflush(stderr);
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    fn(&g_game);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t k = fread(buf, 1, n - 1, tmp);
    buf[k] = 0;
    fclose(tmp);
}

static uint32_t lines_with(const char *log, const char *needle) {
    uint32_t n = 0;
    for (const char *p = log; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

/* The attract loop begins (as play begins it after 30 s idle) and its first frame is set up;
 * while its replay is being prepared the next frames wait for it (here at once). */
static void attract_on(Game *g) {
    g->ses.play.demo = true;
    before_frame(g);
    if (g->crs.attract.waiting) {
        attract_prep_wait(&g->crs.attract);
        before_frame(g);
    }
}

/* One frame of the game with no input. */
static void frame(Game *g) {
    PlatformEvents ev;
    memset(&ev, 0, sizeof ev);
    game_frame(g, &ev, 1.0f / 60.0f);
}

/* Any input: play ends the loop, the game puts back what it interrupted. */
static void attract_off(Game *g) {
    g->ses.play.demo = false;
    after_frame(g);
}

/* The player as the title left them: free flight at the spawn. */
static void player_at_spawn(Game *g) {
    g->ses.flight = g->svc.spawn.flight;
    g->ses.play.state = PLAY_START;
    g->ses.play.overlay = OVERLAY_NONE;
    tour_end(&g->crs.tour);
}

static void test_bundled_replay_flies_its_course(void **state) {
    (void)state;
    Game *g = &g_game;
    SkyError err = {0};
    if (!load(g, BUNDLED, &err) || !check(g, &err))
        fail_msg("the bundled attract replay does not fit this build: %s; %s", err.msg, RERECORD);
    player_at_spawn(g);
    FlightState player = g->ses.flight;
    attract_on(g);
    assert_true(attract_playing(&g->crs.attract));
    const Replay *r = &g->crs.attract.run;
    const Course *c = g->crs.tour.course;
    assert_ptr_equal(c, g->crs.attract.course);
    assert_string_equal(c->id, r->h.course);
    assert_false(g->crs.ghost.active);   /* ghost-free */
    uint64_t crashes0 = g->ses.play.crashes, respawns0 = g->ses.play.respawns;
    /* Through the game's own steps and course step, as a frame of play runs them. */
    PlayCtx ctx = game_play_ctx(&g->cfg, &g->svc, &g->ses, &g->crs);
    assert_ptr_equal(ctx.replay, r);
    assert_null(ctx.rec);
    GameCourseStep step = {&g->crs, &g->ses, &g->svc.sound, &g->cfg.opt};
    ctx.on_step = game_course_step;
    ctx.step_user = &step;
    uint32_t steps = 0;
    while (!g->ses.play.replay_done && steps <= r->h.steps) {
        play_step(&g->ses.play, &ctx);
        steps++;
    }
    uint64_t h = play_sim_hash(&g->ses.play, &g->ses.flight, crashes0, respawns0);
    printf("  %s: %u steps, course %s, %u/%u rings in %.2f s (recorded %.2f s), hash %016llx (recorded %016llx)\n",
           BUNDLED, r->step, c->id, g->crs.tour.run.next, c->n_rings, g->crs.tour.run.clock_s, r->h.course_time_s,
           (unsigned long long)h, (unsigned long long)r->h.end_hash);
    if (!g->crs.tour.run.finished || g->crs.tour.run.next != c->n_rings)
        fail_msg("the bundled attract replay passed %u of %u rings on this sim: %s", g->crs.tour.run.next, c->n_rings, RERECORD);
    if (h != r->h.end_hash) fail_msg("the bundled attract replay ends at another state on this sim: %s", RERECORD);
    for (uint32_t k = 0; k < c->n_rings && k < r->h.n_splits; k++)
        assert_true((float)g->crs.tour.run.split_s[k] == r->h.splits[k]);
    assert_true(g->crs.tour.results);   /* the results show, but no best is kept for the attract's run */
    assert_int_equal(g->crs.tour.n_best, 0);
    /* At its end it plays again from its start. */
    after_frame(g);
    assert_int_equal(g->crs.attract.loops, 1);
    assert_true(attract_playing(&g->crs.attract));
    assert_false(g->ses.play.replay_done);
    assert_int_equal(g->crs.tour.run.next, 0);
    assert_false(g->crs.tour.results);
    assert_true(g->ses.flight.x == r->h.start.flight.x && g->ses.flight.z == r->h.start.flight.z);
    for (int i = 0; i < 120; i++) play_step(&g->ses.play, &ctx);
    /* Any input: the player's flight and free flight back as they were. */
    attract_off(g);
    assert_false(attract_playing(&g->crs.attract));
    assert_false(tour_active(&g->crs.tour));
    assert_true(g->crs.tour.course != g->crs.attract.course);
    assert_int_equal(g->ses.play.state, PLAY_START);
    assert_false(g->ses.play.demo);
    assert_memory_equal(&g->ses.flight, &player, sizeof player);
}

static const char *g_line = "the attract mode's replay does not play";

/* The loop begun with a file that does not play: one line, the autopilot flies the player's
 * aircraft as before. */
static void falls_back(const char *what, const char *needle) {
    Game *g = &g_game;
    player_at_spawn(g);
    static char log[8192];
    capture_log(attract_on, log, sizeof log);
    printf("  %s: %s", what, log);
    assert_false(attract_playing(&g->crs.attract));
    assert_int_equal(lines_with(log, g_line), 1);
    assert_non_null(strstr(log, needle));
    assert_int_equal(lines_with(log, "\n"), 1);
    PlayCtx ctx = game_play_ctx(&g->cfg, &g->svc, &g->ses, &g->crs);
    assert_null(ctx.replay);
    double x = g->ses.flight.x, z = g->ses.flight.z;
    for (int i = 0; i < 60; i++) play_step(&g->ses.play, &ctx);
    assert_true((g->ses.flight.x - x) * (g->ses.flight.x - x) + (g->ses.flight.z - z) * (g->ses.flight.z - z) > 100.0);
    attract_off(g);
    /* The next loop with the same file: no second line. */
    capture_log(attract_on, log, sizeof log);
    assert_int_equal(lines_with(log, g_line), 0);
    attract_off(g);
}

static void test_missing_file(void **state) {
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/none.skyr", g_dir);
    SkyError err = {0};
    assert_false(load(&g_game, path, &err));
    falls_back("missing", "cannot");
}

static void write_file(const char *path, const uint8_t *d, size_t n) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(d, 1, n, f), n);
    fclose(f);
}

static uint8_t *read_bundled(size_t *len) {
    SkyError err = {0};
    uint8_t *d = file_read_all(BUNDLED, REPLAY_FILE_MAX, len, &err);
    if (!d) fail_msg("%s", err.msg);
    return d;
}

static void test_damaged_file(void **state) {
    (void)state;
    size_t len;
    uint8_t *d = read_bundled(&len);
    d[len / 2] ^= 0x20;
    char path[400];
    snprintf(path, sizeof path, "%s/damaged.skyr", g_dir);
    write_file(path, d, len);
    free(d);
    SkyError err = {0};
    assert_false(load(&g_game, path, &err));
    falls_back("damaged", "damaged");
}

static void test_other_sim_version(void **state) {
    (void)state;
    size_t len;
    uint8_t *d = read_bundled(&len);
    d[12] = (uint8_t)(SIM_VERSION + 1u);   /* another simulation version, the checksum made good */
    uint64_t h = hash_fnv1a64(d, len - 8, 0);
    for (int i = 0; i < 8; i++) d[len - 8 + i] = (uint8_t)(h >> (8 * i));
    char path[400];
    snprintf(path, sizeof path, "%s/other-sim.skyr", g_dir);
    write_file(path, d, len);
    free(d);
    SkyError err = {0};
    assert_true(load(&g_game, path, &err));
    falls_back("another simulation", "simulation version");
}

/* Inputs changed (the checksum made good): a file that fits every stamp but flies differently is
 * caught by the unseen flight before anything is shown. */
static void test_desynchronised_file(void **state) {
    (void)state;
    size_t len;
    uint8_t *d = read_bundled(&len);
    size_t at = len - 8 - 11 * 40 + 3;   /* a pitch value of a run forty runs from the end */
    d[at] ^= 0x7f;
    uint64_t h = hash_fnv1a64(d, len - 8, 0);
    for (int i = 0; i < 8; i++) d[len - 8 + i] = (uint8_t)(h >> (8 * i));
    char path[400];
    snprintf(path, sizeof path, "%s/desync.skyr", g_dir);
    write_file(path, d, len);
    free(d);
    SkyError err = {0};
    assert_true(load(&g_game, path, &err));
    falls_back("desynchronised", "flies differently");
}

/* The player changed a world parameter: the bundled file is of another world. */
static void test_other_world(void **state) {
    (void)state;
    Game *g = &g_game;
    SkyError err = {0};
    assert_true(load(g, BUNDLED, &err));
    uint64_t seed = g->cfg.set.world.gen.seed;
    g->cfg.set.world.gen.seed = seed + 1u;
    game_apply_settings(&g->cfg, &g->svc, &g->ses, &g->crs, MENU_CHANGED_WORLD);
    falls_back("other world", "other world parameters");
    g->cfg.set.world.gen.seed = seed;
    game_apply_settings(&g->cfg, &g->svc, &g->ses, &g->crs, MENU_CHANGED_WORLD);
    /* Back in its world it fits again (its course as laid before: no new layout). */
    SkyError again = {0};
    assert_true(replay_check(&g->crs.attract.run, g->svc.home.codex->checksum, &world_params(g->svc.world)->gen, BUNDLED, &again));
}

/* The bundled file read afresh: nothing prepared for it yet (its course laid or not). */
static void load_fresh(Game *g) {
    SkyError err = {0};
    if (!load(g, BUNDLED, &err)) fail_msg("%s", err.msg);
    assert_false(g->crs.attract.prepared);
    assert_true(g->crs.attract.prep.started);
}

/* Idle on the title: the preparation is kicked a few seconds in, on its own thread; the loop at
 * 30 s begins with the autopilot while it runs (the frame that begins it lays nothing and flies
 * nothing unseen); once it has finished the replay takes over; the end of the loop puts back the
 * player's flight as the loop found it. */
static void test_preparation_off_the_frame(void **state) {
    (void)state;
    Game *g = &g_game;
    load_fresh(g);
    g->crs.attract.laid = false;   /* the whole preparation: the course laid too */
    const AttractPrep *p = &g->crs.attract.prep;
    uint32_t lays = p->lays, flights = p->flights, runs = p->runs;
    player_at_spawn(g);
    attract_prep_hold(&g->crs.attract, true);   /* the thread takes the job and waits: "during" the preparation */
    g->ses.play.idle_s = ATTRACT_PREP_IDLE_SECONDS - 0.1f;
    frame(g);
    assert_false(attract_prep_running(&g->crs.attract));   /* not yet */
    for (int i = 0; i < 10 && !attract_prep_running(&g->crs.attract); i++) frame(g);
    assert_true(attract_prep_running(&g->crs.attract));   /* kicked a few seconds into the idle */
    assert_true(g->ses.play.idle_s > ATTRACT_PREP_IDLE_SECONDS);
    assert_false(g->ses.play.demo);
    uint64_t kicked = g->crs.attract.kick_frame;
    /* The loop begins while the preparation runs: the autopilot flies, nothing is laid or flown on
     * this thread. */
    g->ses.play.idle_s = PLAY_DEMO_IDLE_SECONDS - 0.05f;
    for (int i = 0; i < 10 && !g->ses.play.demo; i++) frame(g);
    assert_true(g->ses.play.demo);
    FlightState player = g->ses.flight;
    frame(g);   /* the frame that begins the loop */
    assert_true(g->crs.attract.session);
    assert_true(g->crs.attract.waiting);
    assert_false(attract_playing(&g->crs.attract));
    assert_true(attract_holds_player(&g->crs.attract));
    assert_int_equal(p->lays, lays);
    assert_int_equal(p->flights, flights);
    for (int i = 0; i < 60; i++) frame(g);
    double dx = g->ses.flight.x - player.x, dz = g->ses.flight.z - player.z;
    assert_true(dx * dx + dz * dz > 100.0);   /* the autopilot flew meanwhile */
    assert_false(attract_playing(&g->crs.attract));
    /* Released: the replay begins at the first frame after the preparation has finished. */
    attract_prep_hold(&g->crs.attract, false);
    attract_prep_wait(&g->crs.attract);
    assert_false(attract_playing(&g->crs.attract));
    frame(g);
    assert_true(attract_playing(&g->crs.attract));
    printf("  preparation kicked at frame %llu, taken at frame %llu (%.1f ms on its thread), replay from frame %llu\n",
           (unsigned long long)kicked, (unsigned long long)g->crs.attract.ready_frame, p->ms,
           (unsigned long long)g->crs.attract.begin_frame);
    assert_int_equal(p->runs, runs + 1u);
    assert_int_equal(p->lays, lays + 1u);
    assert_int_equal(p->flights, flights + 1u);
    assert_int_equal(p->on_main, 0);   /* none of it on the game's main thread */
    assert_true(g->crs.attract.ready_frame > kicked);
    assert_true(g->crs.attract.begin_frame == g->crs.attract.ready_frame);
    assert_string_equal(g->crs.tour.course->id, g->crs.attract.run.h.course);
    assert_ptr_equal(game_play_ctx(&g->cfg, &g->svc, &g->ses, &g->crs).replay, &g->crs.attract.run);
    /* Any input: the player's flight back as the loop found it (the autopilot's flight dropped). */
    attract_off(g);
    assert_false(attract_playing(&g->crs.attract));
    assert_false(attract_holds_player(&g->crs.attract));
    assert_int_equal(g->ses.play.state, PLAY_START);
    assert_memory_equal(&g->ses.flight, &player, sizeof player);
    /* The next loop in the same world: prepared already, no new work. */
    attract_on(g);
    assert_true(attract_playing(&g->crs.attract));
    assert_int_equal(p->runs, runs + 1u);
    attract_off(g);
}

/* A world parameter changed while the preparation runs: it is given up, its course is never
 * used; back in the bundled file's world a new preparation lays the course of that world. */
static void test_world_change_during_preparation(void **state) {
    (void)state;
    Game *g = &g_game;
    load_fresh(g);
    g->crs.attract.laid = false;   /* the change comes while the course is being laid */
    const AttractPrep *p = &g->crs.attract.prep;
    uint32_t lays = p->lays, flights = p->flights;
    player_at_spawn(g);
    attract_prep_hold(&g->crs.attract, true);
    g->ses.play.demo = true;
    before_frame(g);
    assert_true(g->crs.attract.waiting);
    assert_true(attract_prep_running(&g->crs.attract));
    uint64_t seed = g->cfg.set.world.gen.seed;
    g->cfg.set.world.gen.seed = seed + 1u;
    game_apply_settings(&g->cfg, &g->svc, &g->ses, &g->crs, MENU_CHANGED_WORLD);
    attract_prep_hold(&g->crs.attract, false);
    attract_prep_wait(&g->crs.attract);
    static char log[8192];
    capture_log(before_frame, log, sizeof log);
    printf("  changed during the preparation: %s", log);
    assert_true(p->given_up);
    assert_false(g->crs.attract.prepared);   /* no verdict from the stale run */
    assert_false(g->crs.attract.laid);       /* and no course */
    assert_int_equal(p->lays, lays + 1u);
    assert_int_equal(p->flights, flights);   /* given up before the unseen flight */
    assert_false(attract_playing(&g->crs.attract));
    assert_int_equal(lines_with(log, "other world parameters"), 1);
    attract_off(g);
    g->cfg.set.world.gen.seed = seed;
    game_apply_settings(&g->cfg, &g->svc, &g->ses, &g->crs, MENU_CHANGED_WORLD);
    attract_on(g);
    assert_true(attract_playing(&g->crs.attract));
    assert_true(g->crs.attract.laid);
    assert_int_equal(g->crs.attract.laid_params, course_params_hash(world_params(g->svc.world)));
    assert_string_equal(g->crs.attract.course->id, g->crs.attract.run.h.course);
    assert_int_equal(p->flights, flights + 1u);
    assert_int_equal(p->on_main, 0);   /* laid and flown off the game's main thread */
    attract_off(g);
}

static bool prep_busy(Game *g) {
    pthread_mutex_lock(&g->crs.attract.prep.lock);
    bool busy = g->crs.attract.prep.busy;
    pthread_mutex_unlock(&g->crs.attract.prep.lock);
    return busy;
}

/* A stop signal while the thread is at the work: the game's loop ends and its shutdown gives the
 * preparation up and joins the thread (no verdict, no unseen flight after it). Last: the
 * signal's flag stays for the process. */
static void test_stop_signal_during_preparation(void **state) {
    (void)state;
    Game *g = &g_game;
    load_fresh(g);
    const AttractPrep *p = &g->crs.attract.prep;
    uint32_t runs = p->runs;
    player_at_spawn(g);
    g->ses.play.demo = true;
    before_frame(g);
    assert_true(g->crs.attract.waiting);
    for (int i = 0; i < 100000 && !prep_busy(g) && attract_prep_running(&g->crs.attract); i++) usleep(10);
    raise(SIGTERM);
    assert_int_equal(platform_stop_signal(), SIGTERM);   /* the game's loop ends: its shutdown */
    assert_true(prep_busy(g));   /* at the work (some 0.2 s of it natively) */
    uint64_t t0 = time_now_ns();
    attract_shutdown(&g->crs.attract);
    printf("  stop signal during the preparation: given up and joined in %.2f ms\n", (double)(time_now_ns() - t0) * 1e-6);
    assert_false(g->crs.attract.prep.started);
    assert_int_equal(p->runs, runs + 1u);
    assert_true(p->given_up);   /* stopped before its end */
    before_frame(g);   /* nothing to take from a joined thread */
    assert_false(attract_playing(&g->crs.attract));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bundled_replay_flies_its_course),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_damaged_file),
        cmocka_unit_test(test_other_sim_version),
        cmocka_unit_test(test_desynchronised_file),
        cmocka_unit_test(test_other_world),
        cmocka_unit_test(test_preparation_off_the_frame),
        cmocka_unit_test(test_world_change_during_preparation),
        cmocka_unit_test(test_stop_signal_during_preparation),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
