/* Tests of the wheels (src/sim/ground.c) on the real ground of the home island of seed 1, its
 * base camp's airstrip: touchdowns at sink rates of 0.5, 2 and 5 m/s, banks of 0 and 20 degrees and
 * speeds near the stall roll or crash as the rules say; a 30-degree slope, a tree and the nose
 * first are crashes; the brakes stop within the landing run the model predicts; a takeoff run
 * leaves the ground within the run it predicts; a taxi throttle rolls at walking speed. The
 * flat ground is the world's own strip (no fake density). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "island/island.h"
#include "sim/sim.h"
#include "support/home_world.h"
#include "world/world.h"

static HomeIsland g_home;
static TestWorld g_tw;
static World *g_w;
static FlightState g_park;   /* parked at the start of the flattest run near the base camp */
static double g_run;         /* that run's metres */
static FlightModel g_m;

static int setup(void **state) {
    (void)state;
    SkyError err = {0};
    if (!home_island_make(&g_home, 1, &err)) fail_msg("home island: %s", err.msg);
    world_params_default(&g_tw.params);
    if (!test_world_open(&g_tw, 48, NULL, &g_home.field, &err)) fail_msg("world: %s", err.msg);
    g_w = g_tw.world;
    const IslandSite *base = &g_home.isl.sites[g_home.isl.base];
    double bx = (double)g_home.field.centre_x + (double)base->x_m, bz = (double)g_home.field.centre_z + (double)base->z_m;
    /* The base camp's airstrip (strip 0), 5 m in from its threshold a; without one the flat run a
     * start on the ground finds near the camp. */
    WorldStrip ws;
    if (world_strip_count(g_w) > 0 && world_strip(g_w, 0, &ws)) {
        flight_init(&g_park, ws.ax + (double)ws.dir_x * 5.0, (double)ws.y + SIM_WHEEL_H, ws.az + (double)ws.dir_z * 5.0,
                    ws.yaw, 0.0f);
        g_park.on_ground = true;
        g_run = (double)ws.length_m - 5.0;
    } else {
        g_run = sim_ground_start(g_w, bx, bz, 64.0, 120.0, &g_park);
    }
    printf("  base camp at %.1f, %.1f; parked at %.1f, %.1f, %.1f heading %.0f deg, %.0f m of flat run\n", bx, bz,
           g_park.x, g_park.y, g_park.z, (double)(g_park.yaw / SIM_DEG), g_run);
    flight_model_default(&g_m);
    return g_run < 0.0 ? -1 : 0;
}

static int teardown(void **state) {
    (void)state;
    test_world_close(&g_tw);
    home_island_release(&g_home);
    return 0;
}

/* Flies steps as the game does (flight_step, then the wheels and the sweep) until the wheels
 * touch, a crash, or `seconds` pass. The ground result of the step that touched (or crashed). */
static SimGroundResult fly_until(FlightState *f, const FlightInput *in, float seconds, bool stop_at_touch) {
    SimGroundResult g = {0};
    g.why = "";
    int n = (int)(seconds * SIM_STEP_HZ);
    for (int i = 0; i < n; i++) {
        FlightState before = *f;
        flight_step(f, in, &g_m, SIM_STEP);
        CollisionResult hit;
        SimGroundResult r;
        if (sim_meet_world(g_w, &before, f, SIM_STEP, &r, &hit)) return r;
        if (r.event == SIM_GROUND_TOUCHDOWN) {
            g = r;
            if (stop_at_touch) return g;
        }
    }
    return g;
}

/* Just above the parked spot's ground, heading along the run, descending at `sink` m/s with
 * `bank` degrees of bank at `speed`: the wheels touch within a few steps. */
static SimGroundResult approach(float sink, float bank_deg, float speed) {
    FlightState f = g_park;
    f.on_ground = false;
    f.speed = speed;
    f.throttle = flight_throttle_for(&g_m, speed);
    f.pitch = -asinf(sink / speed);
    f.roll = bank_deg * SIM_DEG;
    f.y = g_park.y + 0.1;
    FlightInput in = {0};
    in.roll = 0.0f;
    SimGroundResult g = fly_until(&f, &in, 2.0f, true);
    printf("  sink %.1f, bank %2.0f, %4.1f m/s: %s %s (%.2f m/s at the touch)\n", (double)sink, (double)bank_deg,
           (double)speed, g.event == SIM_GROUND_TOUCHDOWN ? "touchdown" : (g.event == SIM_GROUND_CRASH ? "crash" : "none"),
           g.event == SIM_GROUND_CRASH ? g.why : "", (double)g.sink);
    return g;
}

static void test_touchdown_rules(void **state) {
    (void)state;
    SimGroundResult g = approach(0.5f, 0.0f, 22.0f);
    assert_int_equal(g.event, SIM_GROUND_TOUCHDOWN);
    assert_int_equal(g.rating, SIM_TOUCH_SMOOTH);
    g = approach(2.0f, 0.0f, 22.0f);
    assert_int_equal(g.event, SIM_GROUND_TOUCHDOWN);
    assert_int_equal(g.rating, SIM_TOUCH_FIRM);
    g = approach(3.5f, 0.0f, 22.0f);
    assert_int_equal(g.event, SIM_GROUND_TOUCHDOWN);
    assert_int_equal(g.rating, SIM_TOUCH_HARD);
    g = approach(5.0f, 0.0f, 22.0f);
    assert_int_equal(g.event, SIM_GROUND_CRASH);
    assert_string_equal(g.why, "touched down too hard");
    /* A wing first: 20 degrees of bank at any sink. */
    g = approach(0.5f, 20.0f, 22.0f);
    assert_int_equal(g.event, SIM_GROUND_CRASH);
    assert_string_equal(g.why, "a wing first");
    g = approach(2.0f, 20.0f, 22.0f);
    assert_int_equal(g.event, SIM_GROUND_CRASH);
    /* Near the stall: just above it rolls; just below it the lost lift adds to the sink. */
    g = approach(0.5f, 0.0f, SIM_STALL_SPEED + 1.0f);
    assert_int_equal(g.event, SIM_GROUND_TOUCHDOWN);
    g = approach(0.5f, 0.0f, SIM_STALL_SPEED - 1.0f);
    assert_int_equal(g.event, SIM_GROUND_TOUCHDOWN);
    assert_true(g.sink > 0.5f + 0.2f * SIM_STALL_SINK);
    g = approach(0.5f, 0.0f, SIM_STALL_SPEED - SIM_STALL_SPAN);   /* a full stall: the sink of a hard crash */
    assert_int_equal(g.event, SIM_GROUND_CRASH);
    g = approach(0.5f, 0.0f, SIM_TOUCHDOWN_SPEED_MAX + 3.0f);
    assert_int_equal(g.event, SIM_GROUND_CRASH);
    assert_string_equal(g.why, "touched down too fast");
    /* The nose first: a steep nose-down touch at a sink the wheels would take. */
    FlightState f = g_park;
    f.on_ground = false;
    f.speed = 20.0f;
    f.pitch = -11.0f * SIM_DEG;
    f.y = g_park.y + 0.1;
    FlightInput none = {0};
    g = fly_until(&f, &none, 1.0f, true);
    assert_int_equal(g.event, SIM_GROUND_CRASH);
    assert_string_equal(g.why, "the nose first");
}

/* A spot where the ground rises three blocks over 5 m ahead along the heading: 31 degrees
 * uphill under the wheels. */
static bool find_slope(FlightState *out, double *deg) {
    for (double r = 8.0; r < 200.0; r += 4.0)
        for (int k = 0; k < 32; k++) {
            double a = (double)k * 0.19634954;
            FlightState f = g_park;
            f.x += r * cos(a);
            f.z += r * sin(a);
            f.on_ground = false;
            if (!sim_on_home(g_w, f.x, f.z)) continue;
            /* The ground here and 4 m ahead (the nose wheel to the mains) along heading yaw. */
            double top = f.y + 40.0;
            while (top > 0.0 && !world_solid_at(g_w, f.x, top, f.z)) top -= 1.0;
            double ax = f.x + 5.0 * sin((double)f.yaw), az = f.z - 5.0 * cos((double)f.yaw);
            double ahead = top + 6.0;
            while (ahead > top - 6.0 && !world_solid_at(g_w, ax, ahead, az)) ahead -= 1.0;
            double rise = ahead - top;
            if (rise != 3.0 || !sim_clear_of_objects(g_w, f.x, top + 3.0, f.z, 2.5)) continue;
            f.y = floor(top) + 1.0 + SIM_WHEEL_H + 0.1;
            *out = f;
            *deg = atan(rise / 5.0) * 57.29578;
            return true;
        }
    return false;
}

static void test_slope_tree_crash(void **state) {
    (void)state;
    FlightState f;
    double deg = 0.0;
    assert_true(find_slope(&f, &deg));
    f.speed = 20.0f;
    f.pitch = -asinf(0.5f / 20.0f);
    FlightInput none = {0};
    SimGroundResult g = fly_until(&f, &none, 1.0f, true);
    printf("  a %.0f-degree slope at 0.5 m/s sink: %s\n", deg, g.event == SIM_GROUND_CRASH ? g.why : "no crash");
    assert_int_equal(g.event, SIM_GROUND_CRASH);
    /* A tree: level at its trunk from 15 m off through open air, flying at it. */
    WorldBox box[64];
    int64_t x0 = (int64_t)g_park.x - 120, z0 = (int64_t)g_park.z - 120;
    uint32_t n = world_solid_objects(g_w, x0, WORLD_Y_MIN, z0, x0 + 240, WORLD_Y_MAX, z0 + 240, box, 64);
    bool flown = false;
    for (uint32_t i = 0; i < n && i < 64 && !flown; i++) {
        const WorldBox *t = &box[i];
        if (t->y1 - t->y0 < 4) continue;
        double cx = 0.5 * (double)(t->x0 + t->x1), cz = 0.5 * (double)(t->z0 + t->z1), cy = (double)t->y0 + 2.5;
        /* From the +z side (yaw 0 flies towards -z): a clear line up to 2 m short of the box. */
        bool clear = true;
        for (double d = 2.0; d <= 15.0 && clear; d += 1.0) clear = sim_clear_box(g_w, cx, cy, (double)t->z1 + d, 1.0);
        if (!clear) continue;
        flight_init(&f, cx, cy, (double)t->z1 + 15.0, 0.0f, 20.0f);
        f.throttle = flight_throttle_for(&g_m, 20.0f);
        g = fly_until(&f, &none, 2.0f, false);
        printf("  into the object at %.0f, %.0f, %.0f: %s at %.2f m from its box\n", cx, cy, cz,
               g.event == SIM_GROUND_CRASH ? g.why : "no crash", f.z - (double)t->z1);
        assert_int_equal(g.event, SIM_GROUND_CRASH);
        assert_string_equal(g.why, "flew into something");
        assert_true(f.z - (double)t->z1 < 1.0);
        flown = true;
    }
    assert_true(flown);
}

static void test_brakes_stop_within_prediction(void **state) {
    (void)state;
    const float v0 = SIM_APPROACH_SPEED;
    double predicted = sim_landing_run_m(v0);
    assert_true(g_run >= predicted);
    FlightState f = g_park;
    f.speed = v0;
    FlightInput in = {.brake = true};
    SimGroundResult g = fly_until(&f, &in, 30.0f, false);
    double d = sqrt((f.x - g_park.x) * (f.x - g_park.x) + (f.z - g_park.z) * (f.z - g_park.z));
    printf("  braking from %.0f m/s: stopped in %.1f m (predicted %.1f m)\n", (double)v0, d, predicted);
    assert_int_equal(g.event, SIM_GROUND_NONE);
    assert_true(f.on_ground && f.speed == 0.0f);
    assert_true(d <= predicted + 0.01 && d > 0.9 * predicted);
    /* Without the brakes the same roll runs on much farther. */
    f = g_park;
    f.speed = v0;
    FlightInput coast = {0};
    fly_until(&f, &coast, 3.0f, false);
    double c = sqrt((f.x - g_park.x) * (f.x - g_park.x) + (f.z - g_park.z) * (f.z - g_park.z));
    assert_true(f.speed > 5.0f && c > d);
}

static void test_takeoff_within_run(void **state) {
    (void)state;
    double predicted = sim_takeoff_run_m();
    FlightState f = g_park;
    f.throttle = 1.0f;
    FlightInput in = {.pitch = 0.6f};
    int steps = 0;
    while (f.on_ground && steps < 60 * SIM_STEP_HZ) {
        FlightState before = f;
        flight_step(&f, &in, &g_m, SIM_STEP);
        SimGroundResult g;
        CollisionResult hit;
        assert_false(sim_meet_world(g_w, &before, &f, SIM_STEP, &g, &hit));
        steps++;
    }
    double d = sqrt((f.x - g_park.x) * (f.x - g_park.x) + (f.z - g_park.z) * (f.z - g_park.z));
    printf("  takeoff: off the ground after %.1f m at %.1f m/s (predicted %.1f m, run %.0f m)\n", d, (double)f.speed,
           predicted, g_run);
    assert_false(f.on_ground);
    assert_true(d <= predicted + 0.5 && f.speed >= SIM_TAKEOFF_SPEED);
    /* And it climbs away (a bump of the ground may touch the wheels again: a touchdown, no
     * crash): three seconds later it is well above the ground. */
    double y0 = f.y;
    SimGroundResult g = fly_until(&f, &in, 3.0f, false);
    assert_int_not_equal(g.event, SIM_GROUND_CRASH);
    assert_true(f.y > y0 + 5.0 && !f.on_ground);
    /* Below the takeoff speed pulling up keeps the wheels on the ground. */
    f = g_park;
    f.speed = SIM_TAKEOFF_SPEED - 3.0f;
    FlightInput pull = {.pitch = 1.0f};
    flight_step(&f, &pull, &g_m, SIM_STEP);
    assert_true(f.on_ground && f.pitch == 0.0f);
}

static void test_taxi_and_steer(void **state) {
    (void)state;
    FlightState f = g_park;
    f.throttle = SIM_TAXI_THROTTLE;
    FlightInput in = {0};
    fly_until(&f, &in, 8.0f, false);
    printf("  taxi throttle: %.2f m/s after 8 s\n", (double)f.speed);
    assert_true(f.on_ground && f.speed > 1.0f && f.speed < 2.5f);
    float yaw0 = f.yaw;
    in.yaw = 1.0f;
    fly_until(&f, &in, 1.0f, false);
    assert_true(f.yaw > yaw0 + 0.2f || f.yaw < yaw0 - 5.0f);   /* turned right (or across the wrap) */
    /* Stopped, the rudder turns nothing. */
    FlightState s = g_park;
    fly_until(&s, &in, 1.0f, false);
    assert_true(s.yaw == g_park.yaw && s.speed == 0.0f);
}

/* The autoland (sim_autoland_input) onto the base strip, from 250 m out on its glide path (open
 * air beyond a strip's ends): a smooth or firm touchdown, stopped on the run; its final state hash is
 * the one recorded on x86_64, so the same program under qemu-aarch64 proves the same bits. */
#define AUTOLAND_HASH_X86 0x098326da52ff3740ull
static void test_autoland(void **state) {
    (void)state;
    /* det_sin/det_cos: the start's place is the same bits on every machine (libm's need not be). */
    double fx = det_sin((double)g_park.yaw), fz = -det_cos((double)g_park.yaw), aim = 0.1 * g_run, from = 250.0;
    SimStrip s = {g_park.x + fx * aim, g_park.y - SIM_WHEEL_H, g_park.z + fz * aim, g_park.yaw, g_run - aim};
    FlightState f;
    flight_init(&f, s.x - fx * from, s.y + SIM_WHEEL_H + from * SIM_GLIDE_SLOPE, s.z - fz * from, s.heading,
                SIM_APPROACH_SPEED);
    f.throttle = flight_throttle_for(&g_m, SIM_APPROACH_SPEED);
    SimGroundResult touch = {0};
    int steps = 0;
    for (; steps < 60 * SIM_STEP_HZ && !(f.on_ground && f.speed == 0.0f); steps++) {
        FlightInput in;
        sim_autoland_input(&s, &f, &g_m, &in);
        FlightState before = f;
        flight_step(&f, &in, &g_m, SIM_STEP);
        SimGroundResult g;
        CollisionResult hit;
        assert_false(sim_meet_world(g_w, &before, &f, SIM_STEP, &g, &hit));
        if (g.event == SIM_GROUND_TOUCHDOWN && touch.event == SIM_GROUND_NONE) touch = g;
    }
    double past = (f.x - s.x) * fx + (f.z - s.z) * fz;
    uint64_t h = flight_state_hash(&f, 0);
    printf("  autoland: touchdown %s at %.2f m/s, stopped %.1f m past the point after %d steps; hash 0x%016llx (%s)\n",
           touch.event ? (touch.rating == SIM_TOUCH_SMOOTH ? "smooth" : "firm or hard") : "none", (double)touch.sink, past,
           steps, (unsigned long long)h, SKYISLES_ARCH);
    assert_int_equal(touch.event, SIM_GROUND_TOUCHDOWN);
    assert_true(touch.rating != SIM_TOUCH_HARD);
    assert_true(f.on_ground && f.speed == 0.0f && past > 0.0 && past <= s.length);
    assert_true(h == AUTOLAND_HASH_X86);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_touchdown_rules),
        cmocka_unit_test(test_slope_tree_crash),
        cmocka_unit_test(test_brakes_stop_within_prediction),
        cmocka_unit_test(test_takeoff_within_run),
        cmocka_unit_test(test_taxi_and_steer),
        cmocka_unit_test(test_autoland),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
