/* Tests for the weather model (src/sim/weather.c) and the wind on the aircraft (src/sim/wind.c):
 * a place and a step give the same weather twice and a golden hash over a grid of places and
 * steps (the same under qemu-aarch64), the kinds change over place and time with smooth blends,
 * a fixed kind holds everywhere, storms strike lightning that lights a few steps and clear
 * weather never does, the released aircraft drifts by exactly the model's wind, gusts never
 * push it through rock (collision sweeps the whole step), the air shakes harder by rock, and a
 * minute of the autopilot through a storm hashes to a golden (the same under qemu-aarch64). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "sim/sim.h"
#include "world/world.h"

#define SEED 0x5eedULL

/* The golden: weather_state_hash over a 16 x 16 grid of places 1.5 km apart at six steps. A change
 * to the model moves it on purpose (say which and why in the commit). */
#define GRID_GOLDEN 0x3665d818b7a70d3cULL

static uint64_t grid_hash(int fixed_kind) {
    static const uint64_t steps[] = {0, 1, 7777, 123456, 1000003, 987654321};
    uint64_t h = 0;
    for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++)
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 16; j++) {
                WeatherState w;
                weather_eval(SEED, fixed_kind, -12000.0 + 1500.0 * i, -12000.0 + 1500.0 * j, steps[s], &w);
                h = weather_state_hash(&w, h);
            }
    return h;
}

static void test_same_twice_and_golden(void **state) {
    (void)state;
    WeatherState a, b;
    weather_eval(SEED, WEATHER_CHANGING, 1234.5, -9876.25, 424242, &a);
    weather_eval(SEED, WEATHER_CHANGING, 1234.5, -9876.25, 424242, &b);
    assert_int_equal(weather_state_hash(&a, 0), weather_state_hash(&b, 0));
    uint64_t h = grid_hash(WEATHER_CHANGING);
    printf("  grid hash %016llx\n", (unsigned long long)h);
    assert_int_equal(h, grid_hash(WEATHER_CHANGING));
    assert_int_equal(h, GRID_GOLDEN);
    /* another seed is other weather */
    weather_eval(SEED + 1, WEATHER_CHANGING, 1234.5, -9876.25, 424242, &b);
    assert_int_not_equal(weather_state_hash(&a, 0), weather_state_hash(&b, 0));
}

static void check_ranges(const WeatherState *w) {
    float sum = 0.0f;
    for (int k = 0; k < WEATHER_KINDS; k++) {
        assert_true(w->weight[k] >= 0.0f);
        sum += w->weight[k];
    }
    assert_true(fabsf(sum - 1.0f) < 1e-4f);
    assert_true(w->cover >= 0.0f && w->cover <= 1.0f);
    assert_true(w->rain >= 0.0f && w->rain <= 1.0f);
    assert_true(w->fog >= 0.0f && w->fog <= 1.0f);
    assert_true(w->flash >= 0.0f && w->flash <= 1.0f);
    assert_true(w->wind_speed >= 0.0f && w->wind_speed < 20.0f);
}

static void test_changes_over_place_and_time(void **state) {
    (void)state;
    int seen[WEATHER_KINDS] = {0};
    for (int i = 0; i < 40; i++)
        for (int j = 0; j < 40; j++) {
            WeatherState w;
            weather_eval(SEED, WEATHER_CHANGING, 4096.0 * i, 4096.0 * j, 5000, &w);
            check_ranges(&w);
            seen[w.kind]++;
        }
    for (int k = 0; k < WEATHER_KINDS; k++) {
        printf("  %-8s %4d of 1600 places\n", weather_kind_name(k), seen[k]);
        assert_true(seen[k] > 0);
    }
    /* one place over an hour of steps: the kind changes, and no step jumps (the blends are smooth) */
    WeatherState prev, w;
    weather_eval(SEED, WEATHER_CHANGING, 300.0, 700.0, 0, &prev);
    int changes = 0;
    for (uint64_t s = 1; s < 60u * 60u * 60u; s += 1) {
        weather_eval(SEED, WEATHER_CHANGING, 300.0, 700.0, s, &w);
        check_ranges(&w);
        assert_true(fabsf(w.cover - prev.cover) < 0.001f);
        assert_true(fabsf(w.fog - prev.fog) < 0.001f);
        changes += w.kind != prev.kind;
        prev = w;
    }
    printf("  one place over an hour: %d changes of kind\n", changes);
    assert_true(changes >= 3);
}

/* A fresh world starts fair about the spawn: for the first four minutes, over 64 seeds, every place
 * within 4 km of the origin (the home island and its spawn) is clear or cloudy, dry and without
 * lightning; the same places a quarter of an hour later see every kind again. Far from the
 * origin the first minutes may rain, and a fixed kind still holds at the spawn. */
static void test_fair_start_at_the_spawn(void **state) {
    (void)state;
    int later[WEATHER_KINDS] = {0}, far_wet = 0;
    for (uint64_t seed = 1; seed <= 64; seed++)
        for (int i = -4; i <= 4; i++)
            for (int j = -4; j <= 4; j++) {
                double x = 1000.0 * i, z = 1000.0 * j;
                for (uint64_t step = 0; step <= (WEATHER_FAIR_PERIODS - 1u) * WEATHER_PERIOD_STEPS; step += 997u) {
                    WeatherState w;
                    weather_eval(seed, WEATHER_CHANGING, x, z, step, &w);
                    for (int k = WEATHER_OVERCAST; k < WEATHER_KINDS; k++) assert_true(w.weight[k] == 0.0f);
                    assert_true(w.rain == 0.0f && w.flash == 0.0f);
                    if (step < WEATHER_PERIOD_STEPS) {
                        weather_eval(seed, WEATHER_CHANGING, x + 40000.0, z, step, &w);
                        far_wet += w.rain > 0.0f;
                    }
                }
                WeatherState w;
                weather_eval(seed, WEATHER_CHANGING, x, z, 15u * 60u * SIM_STEP_HZ, &w);
                later[w.kind]++;
            }
    printf("  first minutes far away: %d wet samples; a quarter hour on at the spawn:", far_wet);
    for (int k = 0; k < WEATHER_KINDS; k++) printf(" %s %d", weather_kind_name(k), later[k]);
    printf("\n");
    assert_true(far_wet > 0);
    for (int k = 0; k < WEATHER_KINDS; k++) assert_true(later[k] > 0);
    WeatherState w;
    weather_eval(SEED, WEATHER_STORM, 0.0, 360.0, 0, &w);
    assert_true(w.kind == WEATHER_STORM && w.rain == 1.0f);
}

static void test_fixed_kind_and_names(void **state) {
    (void)state;
    for (int k = 0; k < WEATHER_KINDS; k++) {
        assert_int_equal(weather_kind_parse(weather_kind_name(k)), k);
        WeatherState w;
        weather_eval(SEED, k, -5000.0 * k, 777.0, 99999u * (uint64_t)k, &w);
        check_ranges(&w);
        assert_int_equal(w.kind, k);
        assert_true(w.weight[k] > 0.9999f);
    }
    assert_int_equal(weather_kind_parse("changing"), WEATHER_CHANGING);
    assert_int_equal(weather_kind_parse("snow"), -2);
    assert_null(weather_kind_name(WEATHER_KINDS));
    assert_int_equal(weather_step_of(0.0), 0);
    assert_int_equal(weather_step_of(600 * (double)SIM_STEP), 600);
}

/* Storms strike: each flash lights WEATHER_FLASH_STEPS consecutive steps, its thunder's delay is
 * its distance at the speed of sound; clear weather never flashes. */
static void test_lightning(void **state) {
    (void)state;
    uint32_t strikes = 0, lit = 0, last_id = 0;
    for (uint64_t s = 0; s < 60u * 120u; s++) {
        WeatherState w, c;
        weather_eval(SEED, WEATHER_STORM, 100.0, 100.0, s, &w);
        weather_eval(SEED, WEATHER_CLEAR, 100.0, 100.0, s, &c);
        assert_true(c.flash == 0.0f && c.flash_id == 0);
        if (w.flash_id == 0) continue;
        lit++;
        assert_true(w.flash > 0.0f);
        assert_true(w.flash_dist >= 300.0f && w.flash_dist < 3500.0f);
        if (w.flash_id != last_id) {
            strikes++;
            assert_int_equal(w.flash_age, 0);
            assert_true(w.flash == 1.0f);
        }
        last_id = w.flash_id;
    }
    printf("  two minutes of storm: %u strikes, %u lit steps\n", strikes, lit);
    assert_true(strikes >= 20);
    assert_int_equal(lit, strikes * WEATHER_FLASH_STEPS);
}

/* With the stick released, the aircraft with the wind ends where the one without it does plus
 * the model's wind summed over the steps (no shake in clear weather: the same flight otherwise). */
static void test_wind_moves_aircraft(void **state) {
    (void)state;
    FlightModel m;
    flight_model_default(&m);
    FlightState calm, windy;
    flight_init(&calm, 500.0, 120.0, -800.0, 0.3f, 40.0f);
    windy = calm;
    FlightInput in = {0};
    double ex = 0.0, ez = 0.0;
    for (int i = 0; i < 600; i++) {
        WeatherState w;
        weather_eval(SEED, WEATHER_CLEAR, windy.x, windy.z, weather_step_of(windy.time_s), &w);
        assert_true(w.wind_speed > 1.0f);
        flight_step(&calm, &in, &m, SIM_STEP);
        flight_step(&windy, &in, &m, SIM_STEP);
        sim_wind_apply(&windy, &w, SIM_STEP);
        ex += (double)(w.wind[0] * SIM_STEP);
        ez += (double)(w.wind[1] * SIM_STEP);
    }
    printf("  10 s released in clear weather: drift %.2f, %.2f m\n", windy.x - calm.x, windy.z - calm.z);
    assert_true(fabs(ex) + fabs(ez) > 10.0);
    assert_true(fabs((windy.x - calm.x) - ex) < 1e-3);
    assert_true(fabs((windy.z - calm.z) - ez) < 1e-3);
    assert_true(windy.y == calm.y);
}

/* Beside the rock the aircraft met, the probes find rock and the wind's shake grows by exactly
 * the cliff share times the wind; far above every island they find none and nothing changes. */
static void cliff_shake(const World *world, double x, double y, double z) {
    WeatherState w, near;
    weather_eval(SEED, WEATHER_CLOUDY, x, z, 4321, &w);
    float cliff = sim_wind_cliff(world, x, y, z);
    assert_true(cliff > 0.0f && cliff <= 1.0f);
    near = w;
    sim_wind_cliff_shake(&near, cliff);
    static const float axis[3] = {1.0f, 0.35f, 1.0f};
    for (int a = 0; a < 3; a++)
        assert_true(fabsf(near.turb[a] - w.turb[a] - w.shake[a] * cliff * 0.5f * w.wind_speed * axis[a]) < 1e-5f);
    assert_true(fabsf(near.turb[0]) + fabsf(near.turb[2]) > fabsf(w.turb[0]) + fabsf(w.turb[2]));
    assert_true(sim_wind_cliff(world, x, WORLD_Y_MAX + 40.0, z) == 0.0f);
    /* in flight: a jolt every SIM_CLIFF_EVERY steps worth the steps between, nothing on the others */
    FlightState f;
    flight_init(&f, x, y, z, 0.0f, 30.0f);
    WeatherState j = w, k = w;
    sim_wind_near_rock(world, &f, 4321, &j);
    assert_memory_equal(&j, &w, sizeof w);
    sim_wind_near_rock(world, &f, 4320, &j);
    sim_wind_cliff_shake(&k, cliff * (float)SIM_CLIFF_EVERY);
    assert_memory_equal(&j, &k, sizeof k);
}

/* The world the rock tests fly in (the default seed's), over its own budget. */
static World *rock_world(MemBudget *budget) {
    SkyError err = {0};
    assert_true(mem_budget_init(budget, (size_t)48 << 20, &err));
    World *world = world_create(budget, NULL, NULL, NULL, &err);
    assert_non_null(world);
    return world;
}

/* The wind a step flies in, from the flight before and after the step. */
typedef void (*StepWind)(const World *world, const FlightState *before, const FlightState *after, WeatherState *w);

/* One step as play.c steps a flight in weather: the flight model, the wind on the aircraft, and
 * the collision sweep over the step's whole motion (*r: where it hit, if it did). */
static void weather_step(const World *world, FlightState *f, const FlightInput *in, const FlightModel *m,
                         StepWind wind_of, WeatherState *w, CollisionResult *r) {
    FlightState before = *f;
    flight_step(f, in, m, SIM_STEP);
    wind_of(world, &before, f, w);
    sim_wind_apply(f, w, SIM_STEP);
    sim_collide(world, before.x, before.y, before.z, f->x, f->y, f->z, r);
}

/* The storm where the step starts, its gusts and turbulence ten times the model's, blowing toward
 * +x (where the aircraft heads). */
static void storm_gusts_x10(const World *world, const FlightState *before, const FlightState *after,
                            WeatherState *w) {
    (void)world, (void)after;
    weather_eval(SEED, WEATHER_STORM, before->x, before->z, weather_step_of(before->time_s), w);
    w->wind[0] = 10.0f * (w->wind_speed + w->gust);
    w->wind[1] = 0.0f;
    for (int a = 0; a < 3; a++) w->turb[a] *= 10.0f;
}

/* Storm gusts ten times the model's, blowing the aircraft at cliffs: the sweep over each step's
 * whole motion (flight and wind) stops it in air every time. */
static void test_gusts_never_through_rock(void **state) {
    (void)state;
    MemBudget budget;
    World *world = rock_world(&budget);
    FlightModel m;
    flight_model_default(&m);
    FlightInput in = {0};
    int hits = 0;
    for (int k = 0; k < 24; k++) {
        FlightState f;
        flight_init(&f, -400.0 + 7.0 * k, 40.0 + 3.0 * k, 17.0 + 53.0 * k, 1.5707963f, m.speed_min);
        if (!sim_clear_box(world, f.x, f.y, f.z, 1.0)) continue;
        for (int i = 0; i < 1200; i++) {
            WeatherState w;
            CollisionResult r;
            weather_step(world, &f, &in, &m, storm_gusts_x10, &w, &r);
            if (r.hit) {
                assert_true(sim_clear_box(world, r.x, r.y, r.z, SIM_HIT_RADIUS));
                hits++;
                cliff_shake(world, r.x, r.y, r.z);
                break;
            }
            assert_true(sim_clear_box(world, f.x, f.y, f.z, SIM_HIT_RADIUS));
        }
    }
    printf("  %d storm flights blown into rock, each stopped in air\n", hits);
    assert_true(hits >= 4);
    world_destroy(world);
    mem_budget_release(&budget);
}

/* A minute of the autopilot flown through a storm's wind (gusts, shake, rock jolts) with the
 * collision sweep, as play.c steps it: the flight's hash is the golden, natively and under
 * qemu-aarch64 (the same bits on both). */
#define STORM_FLIGHT_GOLDEN 0x34c6ade440aed84cULL

/* The storm where the step ends, with the jolts of the rock beside it. */
static void storm_near_rock(const World *world, const FlightState *before, const FlightState *after,
                            WeatherState *w) {
    (void)before;
    uint64_t step = weather_step_of(after->time_s);
    weather_eval(SEED, WEATHER_STORM, after->x, after->z, step, w);
    sim_wind_near_rock(world, after, step, w);
}

static void test_storm_flight_golden(void **state) {
    (void)state;
    MemBudget budget;
    World *world = rock_world(&budget);
    FlightModel m;
    flight_model_default(&m);
    FlightState f;
    flight_init(&f, 0.0, 120.0, 300.0, 0.0f, 40.0f);
    flight_autopilot_start(&f, world);
    uint32_t hits = 0;
    double drift = 0.0;
    for (int i = 0; i < 3600; i++) {
        FlightInput in;
        flight_autopilot_input(&f, world, 40.0f, false, SIM_STEP, &in);
        WeatherState w;
        CollisionResult r;
        weather_step(world, &f, &in, &m, storm_near_rock, &w, &r);
        drift += sqrt((double)(w.wind[0] * w.wind[0] + w.wind[1] * w.wind[1])) * SIM_STEP;
        if (r.hit) {
            f.x = r.x, f.y = r.y, f.z = r.z;
            f.speed = m.speed_min;
            hits++;
        }
    }
    uint64_t h = flight_state_hash(&f, 0);
    printf("  a minute in a storm: carried %.0f m by the wind, %u hits, ends at %.1f, %.1f, %.1f, hash %016llx\n", drift,
           hits, f.x, f.y, f.z, (unsigned long long)h);
    assert_true(drift > 300.0);
    assert_int_equal(h, STORM_FLIGHT_GOLDEN);
    world_destroy(world);
    mem_budget_release(&budget);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_twice_and_golden),
        cmocka_unit_test(test_changes_over_place_and_time),
        cmocka_unit_test(test_fair_start_at_the_spawn),
        cmocka_unit_test(test_fixed_kind_and_names),
        cmocka_unit_test(test_lightning),
        cmocka_unit_test(test_wind_moves_aircraft),
        cmocka_unit_test(test_gusts_never_through_rock),
        cmocka_unit_test(test_storm_flight_golden),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
