/* Tests of the far islands' airstrips, with the real game booted headless (the built-in pack's
 * archipelago): on an island's strip about 2e9 m out and another about 1e12 m out a gentle
 * descent is a touchdown (sim_meet_world, as the game steps) that rolls and brakes to a stop, and
 * the height above the ground reads the strip 16 m below; over a far island the nearest strip the
 * HUD points to is that island's, its strips are the ones whose approach lights are drawn, and
 * its lit landmarks are among the night lights; --start-on ground with --start parks on the strip
 * nearest the place on its cell's island and stays there, and over a cell with no island it is
 * refused in one line. The islands are found from the world (cells with an island and strips),
 * not written down, so a change of the generator moves them, not the tests. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
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

static int setup(void **state) {
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/skyisles_farstrips_XXXXXX");
    if (!mkdtemp(g_dir)) return -1;
    TestArgs a = test_args("--headless", "--config", g_dir, "--mem", "128", "--view-radius", "2");
    return fixture_game_boot(&g_game, &g_opt, a) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    return fixture_game_end(&g_game, g_dir);
}

/* The first island with an airstrip (and, when lit, a lit landmark) among the cells east of
 * (x, z): baked now by the point query. */
static bool find_island(World *w, double x, double z, bool lit, WorldIsland *out) {
    const double m = (double)g_game.svc.home.isrc.cell_m;
    for (int k = 0; k < 64; k++) {
        double px = x + m * k;
        if (!world_island_at(w, px, z, out) || out->home || out->field->n_strips == 0) continue;
        if (!lit) return true;
        GameLamps l;
        memset(&l, 0, sizeof l);
        game_lamps_update(&l, w, out, 1);
        if (l.count > 0) return true;
    }
    return false;
}

/* Strip 0 of island wi, 5 m in from threshold a facing along it, the wheels on it. */
static FlightState parked_on(const WorldIsland *wi, WorldStrip *s) {
    assert_true(world_island_strip(wi, 0, s));
    FlightState f;
    flight_init(&f, s->ax + (double)s->dir_x * 5.0, (double)s->y + SIM_WHEEL_H, s->az + (double)s->dir_z * 5.0, s->yaw, 0.0f);
    return f;
}

/* A touchdown at 0.5 m/s of sink and the approach speed on the island's strip, then the brakes
 * held to a stop: the steps as the game flies them (flight_step, then sim_meet_world). */
static void land_on(World *w, const WorldIsland *wi, const char *what) {
    WorldStrip s;
    FlightState f = parked_on(wi, &s);
    FlightModel m;
    flight_model_default(&m);
    f.speed = SIM_APPROACH_SPEED;
    f.throttle = flight_throttle_for(&m, f.speed);
    f.pitch = -asinf(0.5f / f.speed);
    f.y += 0.1;
    /* The height above the ground 16 m over the strip. */
    FlightState over = f;
    over.y = (double)s.y + SIM_WHEEL_H + 16.0;
    double agl = sim_height_above_ground(w, &over, 60.0);
    FlightInput in = {0};
    SimGroundResult g = {0}, r;
    CollisionResult hit;
    bool crashed = false, touched = false;
    for (int i = 0; i < 30 * SIM_STEP_HZ && !crashed; i++) {
        FlightState before = f;
        if (touched) {
            in.brake = true;
            in.throttle = -1.0f;
        }
        flight_step(&f, &in, &m, SIM_STEP);
        crashed = sim_meet_world(w, &before, &f, SIM_STEP, &r, &hit);
        if (r.event != SIM_GROUND_NONE && !touched) g = r;
        touched |= r.event == SIM_GROUND_TOUCHDOWN;
    }
    printf("  %s: strip at %.1f, %.1f, %.1f; AGL %.2f m 16 m over it; %s%s at %.2f m/s of sink, %s at %.1f, %.1f, %.1f (%.1f m/s)\n",
           what, s.ax, (double)s.y, s.az, agl, g.event == SIM_GROUND_TOUCHDOWN ? "touchdown" : "crash ", g.why ? g.why : "",
           (double)g.sink, crashed ? "crashed" : (f.on_ground ? "rolling" : "flying"), f.x, f.y, f.z, (double)f.speed);
    /* the stopped state's bits: the same on x86 and under qemu-aarch64 (compare the logs' lines) */
    printf("  %s: stopped, state hash %016llx\n", what, (unsigned long long)flight_state_hash(&f, 0));
    assert_true(fabs(agl - 16.0) < 0.01);
    assert_int_equal(g.event, SIM_GROUND_TOUCHDOWN);
    assert_false(crashed);
    assert_true(f.on_ground && f.speed == 0.0f);
    assert_true(fabs(f.y - ((double)s.y + SIM_WHEEL_H)) < 1.01);
}

static void test_touchdown_far_out(void **state) {
    (void)state;
    World *w = g_game.svc.world;
    WorldIsland wi;
    assert_true(find_island(w, 2.02e9, -266.0, false, &wi));
    land_on(w, &wi, "2e9 m out");
    assert_true(find_island(w, 1e12, 1e12, false, &wi));
    land_on(w, &wi, "1e12 m out");
}

/* The game flown over a far island's strip: after its frames the islands around the aircraft
 * are that island's (and its neighbours'), the HUD's nearest strip is its, the approach lights
 * drawn are its strips, the night lights hold its lit landmarks. */
static void test_strips_and_lights_follow_the_island(void **state) {
    (void)state;
    Game *g = &g_game;
    World *w = g->svc.world;
    WorldIsland wi;
    assert_true(find_island(w, 1e12, 1e12, true, &wi));
    WorldStrip s;
    assert_true(world_island_strip(&wi, 0, &s));
    double x = 0.5 * (s.ax + s.bx), z = 0.5 * (s.az + s.bz);
    assert_true(game_fly_to(&g->cfg, &g->svc, &g->ses, &g->crs, x, 140.0, z));
    fixture_frames(g, 30, 1.0f / 60.0f);
    const GameNear *nr = &g->svc.home.near;
    assert_true(nr->n_islands >= 1);
    assert_true(nr->island[0].cell_x == wi.cell_x && nr->island[0].cell_z == wi.cell_z);
    GameStrip st;
    assert_true(game_near_strip(&g->svc.home, g->ses.flight.x, g->ses.flight.z, &st));
    double dx = st.x - g->ses.flight.x, dz = st.z - g->ses.flight.z, d = sqrt(dx * dx + dz * dz);
    printf("  over cell %lld, %lld: %u islands around, %u landing places; the nearest strip %.0f m away\n",
           (long long)wi.cell_x, (long long)wi.cell_z, nr->n_islands, nr->n_strips, d);
    assert_true(d < 1500.0);
    assert_true(world_island_cell(w, st.x) == wi.cell_x && world_island_cell(w, st.z) == wi.cell_z);
    /* The islands unchanged: nothing is found again (the figure is the frame's cost of asking). */
    uint32_t changes = nr->changes;
    double t0 = time_now_ms();
    for (int i = 0; i < 10000; i++) assert_false(game_near_update(&g->svc.home, w, g->ses.flight.x, g->ses.flight.z));
    printf("# game_near_update, the islands unchanged: %.3f us a call\n", (time_now_ms() - t0) * 1000.0 / 10000.0);
    assert_int_equal(nr->changes, changes);
    /* The approach lights: the island's strips, its base camp's first. */
    WorldStrip lit[RENDER_STRIPS_MAX];
    uint32_t n = game_near_lit_strips(&g->svc.home, lit, RENDER_STRIPS_MAX);
    printf("  approach lights at %u strips; the island has %u\n", n, wi.field->n_strips);
    assert_true(n >= 1 && n >= (wi.field->n_strips < RENDER_STRIPS_MAX ? wi.field->n_strips : RENDER_STRIPS_MAX));
    assert_true(fabs(lit[0].ax - s.ax) < 1e-6 && fabs(lit[0].az - s.az) < 1e-6);
    /* The night lights of the game's frame: the island's lit landmarks among them. */
    game_lamps_update(&g->svc.lamps, w, nr->island, nr->n_islands);
    uint32_t here = 0;
    for (uint32_t i = 0; i < g->svc.lamps.count; i++)
        here += world_island_cell(w, g->svc.lamps.lamp[i].x) == wi.cell_x && world_island_cell(w, g->svc.lamps.lamp[i].z) == wi.cell_z;
    printf("  night lights: %u, %u of them on the island\n", g->svc.lamps.count, here);
    assert_true(here > 0);
}

/* The home island at the origin keeps its strips for the HUD and the lights. */
static void test_home_strips_at_home(void **state) {
    (void)state;
    Game *g = &g_game;
    World *w = g->svc.world;
    assert_true(game_fly_to(&g->cfg, &g->svc, &g->ses, &g->crs, 0.0, 140.0, 0.0));
    fixture_frames(g, 10, 1.0f / 60.0f);
    WorldStrip lit[RENDER_STRIPS_MAX], home;
    uint32_t n = game_near_lit_strips(&g->svc.home, lit, RENDER_STRIPS_MAX);
    assert_true(world_strip(w, 0, &home));
    assert_true(n >= 1 && n <= world_strip_count(w));
    assert_true(lit[0].ax == home.ax && lit[0].az == home.az && lit[0].bx == home.bx && lit[0].bz == home.bz && lit[0].y == home.y);
    GameStrip st;
    assert_true(game_near_strip(&g->svc.home, 0.0, 0.0, &st));
    assert_true(world_island_cell(w, st.x) == 0 && world_island_cell(w, st.z) == 0);
}

/* The places the start tests ask for, found in the first game (a process holds one game at a
 * time): the far end of strip 0 of an island about 2e9 m out, that island's landing places, and a
 * cell with no island east of it. */
static char g_start[96], g_open_sky[96];
static double g_sx, g_sz;
static GameStrip g_places[GAME_STRIPS_MAX];
static int g_n_places;

static void test_find_start_places(void **state) {
    (void)state;
    World *w = g_game.svc.world;
    WorldIsland wi;
    assert_true(find_island(w, 2.02e9, -266.0, false, &wi));
    WorldStrip s;
    assert_true(world_island_strip(&wi, 0, &s));
    g_sx = s.bx, g_sz = s.bz;   /* another strip may be nearer than strip 0's middle */
    g_n_places = game_island_strips(&g_game.svc.home, &wi, g_places, GAME_STRIPS_MAX);
    const double m = (double)g_game.svc.home.isrc.cell_m;
    double ex = 2.02e9;
    WorldIsland none;
    while (world_island_at(w, ex, -266.0, &none)) ex += m;
    snprintf(g_start, sizeof g_start, "%.17g,100,%.17g", g_sx, g_sz);
    snprintf(g_open_sky, sizeof g_open_sky, "%.17g,100,-266", ex);
    assert_true(g_n_places >= 1);
}

/* Boots the game from words in a new config folder (g_dir); false with err's line when it
 * refuses. end_game shuts it down after the test, passed or not. */
static bool boot(TestArgs a, SkyError *err) {
    bool exit_now;
    assert_true(game_parse_args(a.argc, a.argv, &g_opt, &exit_now));
    return game_boot(&g_game, &g_opt, err);
}

static int new_dir(void **state) {
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/skyisles_farground_XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

/* --start-on ground with --start: parked on the strip of that cell's island nearest the place,
 * and four seconds later still there, not crashed. */
static void test_start_on_ground_far(void **state) {
    (void)state;
    assert_true(g_n_places >= 1);
    SkyError err = {0};
    if (!boot(test_args("--headless", "--config", g_dir, "--mem", "128", "--view-radius", "2", "--start-on", "ground", "--start",
                        g_start), &err))
        fail_msg("boot: %s", err.msg);
    Game *g = &g_game;
    FlightState p = g->ses.flight;
    int near = 0;   /* the landing place nearest the --start place */
    for (int i = 1; i < g_n_places; i++)
        if (hypot(g_places[i].x - g_sx, g_places[i].z - g_sz) < hypot(g_places[near].x - g_sx, g_places[near].z - g_sz)) near = i;
    const GameStrip *st = &g_places[near];
    double from_middle = hypot(p.x - st->x, p.z - st->z);
    printf("  parked at %.1f, %.1f, %.1f heading %.0f deg (%.0f m/s), %.0f m from the middle of strip %d of %d\n", p.x, p.y,
           p.z, (double)(p.yaw / SIM_DEG), (double)p.speed, from_middle, near, g_n_places);
    assert_true(p.on_ground && p.speed == 0.0f);
    assert_true(from_middle < 0.5 * (double)st->length + 0.01);
    assert_true(fabs(p.y - ((double)st->y + SIM_WHEEL_H)) < 1.01);
    PlayCtx c = game_play_ctx(&g->cfg, &g->svc, &g->ses, &g->crs);
    memset(g->svc.input.st.value, 0, sizeof g->svc.input.st.value);
    memset(g->svc.input.st.held, 0, sizeof g->svc.input.st.held);
    for (int i = 0; i < 4 * SIM_STEP_HZ; i++) play_step(&g->ses.play, &c);
    printf("  after 4 s: %.1f, %.1f, %.1f, on the wheels %d, %llu crashes\n", g->ses.flight.x, g->ses.flight.y,
           g->ses.flight.z, g->ses.flight.on_ground, (unsigned long long)g->ses.play.crashes);
    assert_true(g->ses.play.crashes == 0 && g->ses.flight.on_ground);
    assert_true(hypot(g->ses.flight.x - p.x, g->ses.flight.z - p.z) < 1.0);
}

/* The world waited for as the headless run waits (game_wait_world), then n frames with the hands
 * off: how many of them had a needed chunk ahead without a mesh (a hole in the world). */
static uint64_t void_frames_after_wait(Game *g, int n) {
    assert_true(game_wait_world(g, 60.0));
    memset(g->svc.input.st.value, 0, sizeof g->svc.input.st.value);
    memset(g->svc.input.st.held, 0, sizeof g->svc.input.st.held);
    uint64_t v0 = world_stats(g->svc.world).void_frames, voids = 0;
    for (int i = 0; i < n; i++) {
        fixture_frames(g, 1, 1.0f / 60.0f);
        uint64_t v = world_stats(g->svc.world).void_frames;
        voids += v > v0;
        v0 = v;
    }
    return voids;
}

/* --start-on ground, at the base camp and on a far island: once the world has filled, the first
 * seconds parked show no hole (the world filled around the camera behind the parked aircraft). */
static void test_ground_start_no_void(void **state) {
    (void)state;
    SkyError err = {0};
    if (!boot(test_args("--headless", "--config", g_dir, "--mem", "128", "--view-radius", "4", "--start-on", "ground"), &err))
        fail_msg("boot: %s", err.msg);
    uint64_t home = void_frames_after_wait(&g_game, 2 * SIM_STEP_HZ);
    printf("  parked at home %.1f, %.1f, %.1f: %llu void frames in 2 s\n", g_game.ses.flight.x, g_game.ses.flight.y,
           g_game.ses.flight.z, (unsigned long long)home);
    game_shutdown(&g_game);
    assert_true(g_n_places >= 1);
    if (!boot(test_args("--headless", "--config", g_dir, "--mem", "128", "--view-radius", "4", "--start-on", "ground", "--start",
                        g_start), &err))
        fail_msg("boot: %s", err.msg);
    uint64_t far = void_frames_after_wait(&g_game, 2 * SIM_STEP_HZ);
    printf("  parked far out at %.1f, %.1f, %.1f: %llu void frames in 2 s\n", g_game.ses.flight.x, g_game.ses.flight.y,
           g_game.ses.flight.z, (unsigned long long)far);
    assert_true(home == 0);
    assert_true(far == 0);
}

/* --start-on ground with --start over a cell with no island: refused, one line naming the option
 * and what to do. */
static void test_start_on_ground_open_sky(void **state) {
    (void)state;
    SkyError err = {0};
    bool ok = boot(test_args("--headless", "--config", g_dir, "--mem", "128", "--view-radius", "2", "--start-on", "ground",
                             "--start", g_open_sky), &err);
    printf("  over open sky at %s: %s\n", g_open_sky, err.msg);
    assert_false(ok);
    assert_int_equal(err.code, SKY_ERR_INPUT);
    assert_non_null(strstr(err.msg, "--start-on ground"));
    assert_non_null(strstr(err.msg, "no island"));
    assert_null(strchr(err.msg, '\n'));
}

int main(void) {
    const struct CMUnitTest flying[] = {
        cmocka_unit_test(test_touchdown_far_out),
        cmocka_unit_test(test_strips_and_lights_follow_the_island),
        cmocka_unit_test(test_home_strips_at_home),
        cmocka_unit_test(test_find_start_places),
    };
    /* each boots its own game, one at a time, after the first group's has ended */
    const struct CMUnitTest starting[] = {
        cmocka_unit_test_setup_teardown(test_start_on_ground_far, new_dir, teardown),
        cmocka_unit_test_setup_teardown(test_start_on_ground_open_sky, new_dir, teardown),
        cmocka_unit_test_setup_teardown(test_ground_start_no_void, new_dir, teardown),
    };
    int failed = cmocka_run_group_tests(flying, setup, teardown);
    return failed + cmocka_run_group_tests(starting, NULL, NULL);
}
