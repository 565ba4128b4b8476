/* The free-flight autopilot (flight_autopilot_input, as play.c flies it: the flight step, the
 * changing weather's wind, then the wheels and the collision sweep) flies over the solid objects
 * on its way, not only over rock: from seconds before each place the README's 600 s headless run
 * on the default world once flew into a tree, it flies on without a crash. Native only: the
 * flights ask the world's density and objects every step, slow under qemu-aarch64. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/core.h"
#include "sim/sim.h"
#include "support/emulated.h"
#include "world/world.h"

#define FLY_S 12.0     /* seconds it flies */

/* The old autopilot's flight 6 s before each crash of that run: place, heading, pitch, roll, speed,
 * throttle, sim time (the S-turns and the swell follow it), cruise altitude, the path's yaw, the
 * probes' clear altitude and timer; to the bit, as the run flew them. */
typedef struct OldFlight {
    double x, y, z;
    float yaw, pitch, roll, speed, throttle;
    double t, cruise_y;
    float yaw0;
    double avoid_y;
    float probe_timer;
} OldFlight;

static const OldFlight BEFORE_CRASH[] = {
    {0x1.8402bd41435abp+10, 0x1.f9ae9febe9744p+6, 0x1.3e58a5e4639p+10,
     -0x1.6282f8p+1f, -0x1.8abap-4f, 0x1.2b24ccp-3f, 0x1.40101cp+5f, 0x1.555556p-3f,
     0x1.23999a98cp+6, 0x1.fp+6, 0x0p+0f, 0x1.e2d1956758b29p+6, 0x1.5559e4p-4f},
    {0x1.f34983e8ad92bp+10, 0x1.1b18004a424a2p+7, 0x1.47661079e584p+10,
     -0x1.2777b8p-4f, 0x1.0487f4p-5f, 0x1.f9cb54p-7f, 0x1.3ffaaep+5f, 0x1.555556p-3f,
     0x1.d93334d14p+6, 0x1.f4af689028b44p+6, -0x1.cb307ap+1f, 0x1.1e9a3c45bd0dap+7, 0x1.999bfp-4f},
    {0x1.71cc58199e976p+11, 0x1.04ebfe418ecb4p+7, 0x1.4050a5fcffd4p+10,
     0x1.5b8384p-6f, 0x1.d979eap-5f, -0x1.14ae8ap-4f, 0x1.3ff654p+5f, 0x1.555556p-3f,
     0x1.4d5ddf019p+7, 0x1.1a84662248b7ep+7, 0x1.c91984p+0f, 0x1.0f395361c2d74p+7, 0x1.dde064p-4f},
    {0x1.e011ea4e45b8p+10, 0x1.11dc46278deacp+7, 0x1.2ad0ea22f9b2p+11,
     -0x1.0b59f6p+1f, -0x1.899192p-9f, 0x1.1541f4p-3f, 0x1.40008p+5f, 0x1.555556p-3f,
     0x1.dce66807bp+7, 0x1.1d1e74e0315d4p+7, 0x1.6f2c68p+0f, 0x1.1171af620adbfp+7, 0x1.dddfdcp-3f},
};

static void start_before(const OldFlight *o, FlightState *f) {
    flight_init(f, o->x, o->y, o->z, o->yaw, o->speed);
    f->pitch = o->pitch, f->roll = o->roll, f->throttle = o->throttle;
    f->time_s = o->t, f->cruise_y = o->cruise_y, f->yaw0 = o->yaw0;
    f->avoid_y = o->avoid_y, f->probe_timer = o->probe_timer;
}

/* Flies the autopilot from f for FLY_S; true when it met rock, an object or water. */
static bool flies_into_something(const World *world, const FlightModel *m, FlightState *f) {
    uint64_t seed = world_params(world)->gen.seed;
    for (int i = 0; i < (int)(FLY_S * SIM_STEP_HZ); i++) {
        FlightInput in;
        flight_autopilot_input(f, world, 40.0f, false, SIM_STEP, &in);
        FlightState before = *f;
        flight_step(f, &in, m, SIM_STEP);
        WeatherState w;
        uint64_t step = weather_step_of(f->time_s);
        weather_eval(seed, -1, f->x, f->z, step, &w);
        sim_wind_near_rock(world, f, step, &w);
        sim_wind_apply(f, &w, SIM_STEP);
        SimGroundResult g;
        CollisionResult r;
        if (sim_meet_world(world, &before, f, SIM_STEP, &g, &r)) {
            printf("  hit at %.1f, %.1f, %.1f (%s)\n", f->x, f->y, f->z, g.why);
            return true;
        }
    }
    return false;
}

static void test_flies_over_the_trees_it_met(void **state) {
    (void)state;
    if (test_running_emulated()) {
        printf("  skipped under emulation (native only)\n");
        return;
    }
    MemBudget budget;
    SkyError err = {0};
    assert_true(mem_budget_init(&budget, (size_t)48 << 20, &err));
    World *world = world_create(&budget, NULL, NULL, NULL, &err);
    assert_non_null(world);
    FlightModel m;
    flight_model_default(&m);
    int crashes = 0;
    for (size_t i = 0; i < sizeof BEFORE_CRASH / sizeof BEFORE_CRASH[0]; i++) {
        FlightState f;
        start_before(&BEFORE_CRASH[i], &f);
        bool hit = flies_into_something(world, &m, &f);
        printf("  6 s before old crash %zu (%.0f, %.0f, %.0f): %s\n", i + 1, BEFORE_CRASH[i].x, BEFORE_CRASH[i].y,
               BEFORE_CRASH[i].z, hit ? "crashed" : "flew on");
        crashes += hit;
    }
    assert_int_equal(crashes, 0);
    world_destroy(world);
    mem_budget_release(&budget);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flies_over_the_trees_it_met),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
