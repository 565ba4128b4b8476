/* Tests of a flight on the wheels in the game (flight.start = ground, src/game/game.c and
 * play.c): the aircraft starts parked at the base camp; a pilot's taxi, brakes (the brake
 * binding, held), steering and takeoff are recorded, the recording keeps the start on the wheels
 * and the brakes, and flies back from its file to the same state hash; parked, the place's job
 * board opens and the logbook counts no landing. */
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
#include "support/game_input.h"

static Game g_game;
static GameOptions g_opt;
static char g_dir[256];
static FlightState g_parked;   /* where the boot parked the aircraft */

static int setup(void **state) {
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/skyisles_ground_XXXXXX");
    if (!mkdtemp(g_dir)) return -1;
    TestArgs a = test_args("--headless", "--config", g_dir, "--mem", "128", "--view-radius", "2", "--start-on", "ground");
    if (!fixture_game_boot(&g_game, &g_opt, a)) return -1;
    g_parked = g_game.ses.flight;
    return 0;
}

static int teardown(void **state) {
    (void)state;
    return fixture_game_end(&g_game, g_dir);
}

#define STEPS (16 * SIM_STEP_HZ)

/* The pilot at step i (f: the aircraft): taxi with a little throttle and some rudder, brake to
 * a stop, then full throttle and a pull on the wheels once at the takeoff speed: a takeoff. */
static void script(InputState *in, int i, const FlightState *f) {
    memset(in->value, 0, sizeof in->value);
    memset(in->held, 0, sizeof in->held);
    double t = (double)i / SIM_STEP_HZ;
    if (t < 4.0) {
        in->value[GA_THROTTLE_UP] = t < 0.3 ? 1.0f : 0.0f;   /* a taxi throttle */
        in->value[GA_YAW] = t > 2.0 && t < 2.5 ? 0.2f : (t > 2.5 && t < 3.0 ? -0.2f : 0.0f);
    } else if (t < 7.0) {
        in->held[GA_BRAKE] = true;
        in->value[GA_THROTTLE_DOWN] = 1.0f;
    } else {
        in->value[GA_THROTTLE_UP] = 1.0f;
        if (f->on_ground && f->speed >= SIM_TAKEOFF_SPEED) in->value[GA_PITCH] = 1.0f;
    }
}

static void test_parked_taxi_brake_takeoff_replayed(void **state) {
    (void)state;
    Game *g = &g_game;
    FlightState start = g->ses.flight;
    printf("  parked at %.1f, %.1f, %.1f: on the wheels %d, %.1f m/s\n", start.x, start.y, start.z, start.on_ground,
           (double)start.speed);
    assert_true(start.on_ground && start.speed == 0.0f && start.throttle == 0.0f);
    PlayCtx c = game_play_ctx(&g->cfg, &g->svc, &g->ses, &g->crs);
    InputState *in = &g->svc.input.st;
    float taxi = 0.0f, braked = 99.0f;
    bool flew = false;
    for (int i = 0; i < STEPS; i++) {
        script(in, i, &g->ses.flight);
        play_step(&g->ses.play, &c);
        if (i == 4 * SIM_STEP_HZ - 1) taxi = g->ses.flight.speed;
        if (i == 7 * SIM_STEP_HZ - 1) braked = g->ses.flight.speed;
        flew |= !g->ses.flight.on_ground;
    }
    printf("  taxi %.2f m/s, braked to %.2f m/s, off the ground %d, %.0f m/s at the end, %llu crashes\n", (double)taxi,
           (double)braked, flew, (double)g->ses.flight.speed, (unsigned long long)g->ses.play.crashes);
    assert_true(taxi > 0.5f && taxi < 3.0f);
    assert_true(braked == 0.0f);
    assert_true(flew && !g->ses.flight.on_ground);
    assert_int_equal(g->ses.play.crashes, 0);
    Replay *rec = &g->crs.rec;
    replay_end(rec, game_sim_hash(&g->ses, rec, false), g->ses.play.crashes, 0);
    assert_true(rec->h.start.flight.on_ground);
    char path[400];
    snprintf(path, sizeof path, "%s/ground.skyr", g_dir);
    SkyError err = {0};
    assert_true(replay_save(rec, path, &err));
    /* From the file: the start on the wheels and the brakes fly back to the same state. */
    Replay *rp = &g->crs.ghost_run;
    assert_true(replay_load(rp, path, &err));
    assert_true(rp->h.start.flight.on_ground);
    static Play p;
    static FlightState f;
    static CameraRig rig;
    static CameraState cam;
    memset(&p, 0, sizeof p);
    play_init(&p, &rp->h.start.flight, true, false);
    play_replay_restore(&p, &f, &rp->h.start);
    replay_rewind(rp);
    PlayCtx r = game_play_ctx(&g->cfg, &g->svc, &g->ses, &g->crs);
    r.flight = &f, r.rig = &rig, r.camera = &cam, r.rec = NULL, r.replay = rp, r.model = &rp->h.model;
    while (!p.replay_done) play_step(&p, &r);
    uint64_t h = play_sim_hash(&p, &f, 0, 0);
    printf("  replayed %u steps: hash 0x%016llx (recorded 0x%016llx)\n", rp->h.steps, (unsigned long long)h,
           (unsigned long long)rp->h.end_hash);
    assert_true(h == rp->h.end_hash);
}

/* Parked and still through the game's frames: the job board of the place it stands at opens
 * (stopped for a second), and a start on the wheels is no landing in the logbook; a touchdown
 * from the air there is one, with its sink. */
static void test_parked_is_stopped_not_landed(void **state) {
    (void)state;
    Game *g = &g_game;
    Logbook *lb = &g->crs.delivery.log;
    logbook_load(lb, g_dir, lb->seed, g->svc.home.island->n_sites);   /* --headless keeps none: read one */
    assert_true(lb->active);
    g->ses.flight = g_parked;
    g->ses.play.state = PLAY_FLY;
    g->ses.play.overlay = OVERLAY_NONE;
    g->ses.play.demo = false;
    fixture_frames(g, 2 * SIM_STEP_HZ, 1.0f / 60.0f);
    const GameDelivery *d = &g->crs.delivery;
    uint32_t landed = 0;
    for (uint32_t s = 0; s < d->log.n_sites; s++) landed += d->log.landed[s];
    printf("  parked 2 s: on the wheels %d, %.2f m/s, stopped at site %d, landings %u, best sink %.2f\n",
           g->ses.flight.on_ground, (double)g->ses.flight.speed, d->jobs.stopped_at, landed, (double)d->log.best_sink);
    assert_true(g->ses.flight.on_ground && g->ses.flight.speed == 0.0f);
    assert_true(d->jobs.stopped_at >= 0);
    assert_int_equal(landed, 0);
    assert_true(d->log.best_sink < 0.0f);
    /* Just above the same ground, sinking 0.5 m/s at the approach speed: a landing. */
    FlightState f = g_parked;
    f.on_ground = false;
    f.speed = SIM_APPROACH_SPEED;
    f.pitch = -0.5f / SIM_APPROACH_SPEED;
    f.y += 0.2;
    g->ses.flight = f;
    fixture_frames(g, SIM_STEP_HZ, 1.0f / 60.0f);
    printf("  touchdown: %u landings, best sink %.2f m/s, rated %s\n", d->log.landings, (double)d->log.best_sink,
           play_touch_name(g->ses.play.touch.rating));
    assert_int_equal(d->log.landings, 1);
    assert_true(d->log.best_sink > 0.3f && d->log.best_sink < 0.7f);
    assert_true(g->ses.play.touchdowns >= 1 && g->ses.play.touch.rating == SIM_TOUCH_SMOOTH);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parked_taxi_brake_takeoff_replayed),
        cmocka_unit_test(test_parked_is_stopped_not_landed),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
