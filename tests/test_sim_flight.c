/* Tests for the pilot's flight model and cameras (src/sim/flight.c): each control does what its
 * name says, the bank turns the aircraft and levels out, speeds span a slow cruise to the
 * absurd boost, nothing drifts or turns NaN under any input, the chase camera keeps up at speed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "sim/sim.h"

static const float DT = 1.0f / 60.0f;

static void fly(FlightState *f, const FlightInput *in, const FlightModel *m, float seconds) {
    int n = (int)(seconds / DT + 0.5f);
    for (int i = 0; i < n; i++) flight_step(f, in, m, DT);
}

static void start(FlightState *f, const FlightModel *m, float speed) {
    flight_init(f, 0.0, 100.0, 0.0, 0.0f, speed);
    f->throttle = flight_throttle_for(m, speed);
}

static void test_pitch_up_climbs_down_dives(void **state) {
    (void)state;
    FlightModel m;
    flight_model_default(&m);
    FlightState f;
    start(&f, &m, 40.0f);
    FlightInput in = {.pitch = 1.0f};
    fly(&f, &in, &m, 0.5f);
    in.pitch = 0.0f;
    fly(&f, &in, &m, 2.0f);
    printf("  pitch up: %.1f m after 2.5 s (pitch %.1f deg)\n", f.y - 100.0, f.pitch / SIM_DEG);
    assert_true(f.pitch > 0.3f);
    assert_true(f.y > 130.0);
    start(&f, &m, 40.0f);
    in.pitch = -1.0f;
    fly(&f, &in, &m, 0.5f);
    in.pitch = 0.0f;
    fly(&f, &in, &m, 2.0f);
    assert_true(f.pitch < -0.3f);
    assert_true(f.y < 70.0);
}

static void test_bank_turns_and_levels(void **state) {
    (void)state;
    FlightModel m;
    flight_model_default(&m);
    FlightState f;
    start(&f, &m, 40.0f);
    FlightInput in = {.roll = 1.0f};
    fly(&f, &in, &m, 0.3f);
    assert_true(f.roll > 0.5f);   /* right wing down */
    in.roll = 0.0f;
    float yaw0 = f.yaw;
    fly(&f, &in, &m, 1.0f);
    printf("  bank right: heading %+.1f deg in 1 s, roll %.1f deg left\n", (f.yaw - yaw0) / SIM_DEG, f.roll / SIM_DEG);
    assert_true(f.yaw > yaw0 + 0.2f);   /* turned right */
    fly(&f, &in, &m, 5.0f);
    assert_true(fabsf(f.roll) < 0.05f);   /* the released bank levelled out */
    float yaw1 = f.yaw;
    fly(&f, &in, &m, 2.0f);
    assert_true(fabsf(f.yaw - yaw1) < 0.05f);   /* level: straight on */
    /* Rudder alone turns too, the other way when reversed. */
    start(&f, &m, 40.0f);
    in.yaw = -1.0f;
    fly(&f, &in, &m, 1.0f);
    assert_true(f.yaw < -0.2f);
}

static void test_throttle_and_boost(void **state) {
    (void)state;
    FlightModel m;
    flight_model_default(&m);
    FlightState f;
    start(&f, &m, 20.0f);
    FlightInput in = {0};
    fly(&f, &in, &m, 3.0f);
    assert_float_equal(f.speed, m.speed_min, 1.0);   /* throttle 0: the slow cruise */
    in.throttle = 1.0f;
    fly(&f, &in, &m, 4.0f);
    in.throttle = 0.0f;
    fly(&f, &in, &m, 8.0f);
    printf("  throttle up 4 s: %.1f m/s (throttle %.2f)\n", f.speed, f.throttle);
    assert_true(f.throttle > 0.99f);
    assert_float_equal(f.speed, m.speed_max, 2.0);
    in.boost = true;
    fly(&f, &in, &m, 12.0f);
    printf("  boost 12 s: %.0f m/s (limit %.0f)\n", f.speed, m.speed_limit);
    assert_true(f.speed >= 1000.0f && f.speed <= m.speed_limit * 1.05f);
    in.boost = false;
    fly(&f, &in, &m, 8.0f);
    assert_float_equal(f.speed, m.speed_max, 3.0);
    /* Throttle down all the way in a climb: the speed bleeds away, the stall drops the nose and
     * the dive brings the slow cruise back. */
    in.throttle = -1.0f;
    in.pitch = 1.0f;
    fly(&f, &in, &m, 1.0f);
    in.pitch = 0.0f;
    fly(&f, &in, &m, 10.0f);
    assert_true(f.speed >= m.speed_min - 1.0f);
}

static uint32_t lcg(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static void test_random_input_stays_sane(void **state) {
    (void)state;
    FlightModel m;
    flight_model_default(&m);
    FlightState f;
    start(&f, &m, 40.0f);
    uint32_t seed = 77;
    FlightInput in = {0};
    for (int i = 0; i < 60 * 600; i++) {   /* ten minutes of a very confused pilot */
        if (i % 20 == 0) {
            in.pitch = (float)(lcg(&seed) % 2001) / 1000.0f - 1.0f;
            in.roll = (float)(lcg(&seed) % 2001) / 1000.0f - 1.0f;
            in.yaw = (float)(lcg(&seed) % 2001) / 1000.0f - 1.0f;
            in.throttle = (float)(lcg(&seed) % 2001) / 1000.0f - 1.0f;
            in.boost = lcg(&seed) % 4 == 0;
        }
        flight_step(&f, &in, &m, DT);
        assert_true(isfinite(f.x) && isfinite(f.y) && isfinite(f.z));
        assert_true(isfinite(f.yaw) && isfinite(f.pitch) && isfinite(f.roll) && isfinite(f.speed));
        assert_true(f.pitch >= -1.5708f && f.pitch <= 1.5708f);
        assert_true(f.speed >= 1.0f && f.speed <= m.speed_limit * 1.05f);
    }
    /* The axes stay orthonormal: the nose from the angles moves the aircraft as the speed says. */
    FlightState g = f;
    FlightInput none = {0};
    flight_step(&g, &none, &m, DT);
    double moved = sqrt((g.x - f.x) * (g.x - f.x) + (g.y - f.y) * (g.y - f.y) + (g.z - f.z) * (g.z - f.z));
    double sink = (double)(flight_stall_share(f.speed) * SIM_STALL_SINK * DT);   /* a stall sinks besides */
    assert_float_equal(moved, g.speed * DT, g.speed * DT * 0.01 + sink);
}

static void test_loop_and_roll_over(void **state) {
    (void)state;
    FlightModel m;
    flight_model_default(&m);
    FlightState f;
    start(&f, &m, 60.0f);
    FlightInput in = {.pitch = 1.0f};
    /* A full loop: the nose goes up, over the top and back to level. */
    float max_pitch = 0.0f;
    bool inverted = false;
    for (int i = 0; i < 60 * 10; i++) {
        flight_step(&f, &in, &m, DT);
        if (f.pitch > max_pitch) max_pitch = f.pitch;
        if (fabsf(f.roll) > 2.5f) inverted = true;
    }
    assert_true(max_pitch > 1.4f);
    assert_true(inverted);   /* over the top the aircraft was upside down */
}

static void test_chase_camera_keeps_up(void **state) {
    (void)state;
    FlightModel m;
    flight_model_default(&m);
    FlightState f;
    start(&f, &m, 40.0f);
    f.boost = 1.0f;
    f.speed = 1000.0f;
    CameraRig rig;
    camera_rig_reset(&rig, CAMERA_CHASE);
    CameraState cam;
    FlightInput in = {.boost = true, .roll = 0.4f};
    for (int i = 0; i < 600; i++) {
        flight_step(&f, &in, &m, DT);
        camera_rig_update(&rig, &f, DT, &cam);
        double d = sqrt((cam.x - f.x) * (cam.x - f.x) + (cam.y - f.y) * (cam.y - f.y) + (cam.z - f.z) * (cam.z - f.z));
        assert_true(d < 15.0);   /* at 1000 m/s the camera stays right behind */
    }
    /* Smoothing: a sudden heading change reaches the camera over a few frames, not at once. */
    camera_rig_reset(&rig, CAMERA_CHASE);
    start(&f, &m, 40.0f);
    camera_rig_update(&rig, &f, DT, &cam);
    f.yaw = 1.0f;
    camera_rig_update(&rig, &f, DT, &cam);
    assert_true(cam.yaw > 0.01f && cam.yaw < 0.5f);
    for (int i = 0; i < 120; i++) camera_rig_update(&rig, &f, DT, &cam);
    assert_float_equal(cam.yaw, 1.0f, 1e-3);
    /* Cockpit: at the nose, looking where the aircraft looks. */
    camera_rig_reset(&rig, CAMERA_COCKPIT);
    camera_rig_update(&rig, &f, DT, &cam);
    assert_float_equal(cam.yaw, f.yaw, 1e-6);
    assert_float_equal(cam.pitch, f.pitch, 1e-6);
    double d = sqrt((cam.x - f.x) * (cam.x - f.x) + (cam.y - f.y) * (cam.y - f.y) + (cam.z - f.z) * (cam.z - f.z));
    assert_true(d < 2.0);
}

/* The runs the model predicts lie between what its strongest and weakest acceleration over the
 * run would give (v^2 / 2a, plus a step), and the strip length covers both with its margin. */
static void test_runs_predicted(void **state) {
    (void)state;
    const float v = SIM_TAKEOFF_SPEED;
    float a_start = sim_ground_accel(0.0f, 1.0f, 0.0f), a_end = sim_ground_accel(v, 1.0f, 0.0f);
    double to = sim_takeoff_run_m();
    printf("  takeoff run %.1f m, landing run from %.0f m/s %.1f m, strip %.1f m\n", to, (double)SIM_APPROACH_SPEED,
           sim_landing_run_m(SIM_APPROACH_SPEED), sim_strip_length_m());
    assert_true(a_start > a_end && a_end > 0.0f);
    assert_true(to >= (double)(v * v / (2.0f * a_start)) && to <= (double)(v * v / (2.0f * a_end) + v * SIM_STEP));
    const float u = SIM_APPROACH_SPEED;
    float b_start = -sim_ground_accel(u, 0.0f, 1.0f), b_end = -sim_ground_accel(0.01f, 0.0f, 1.0f);
    double land = sim_landing_run_m(u);
    assert_true(land >= (double)(u * u / (2.0f * b_start)) - (double)(u * SIM_STEP) && land <= (double)(u * u / (2.0f * b_end)));
    assert_true(sim_landing_run_m(30.0f) > land && sim_landing_run_m(0.0f) == 0.0);
    double strip = sim_strip_length_m();
    assert_true(strip >= (double)SIM_STRIP_MARGIN * to - 1e-9 && strip >= (double)SIM_STRIP_MARGIN * land - 1e-9);
    /* Stopped, drag and brakes hold the aircraft; a taxi throttle rolls at walking speed. */
    assert_true(sim_ground_accel(0.0f, 0.0f, 1.0f) == 0.0f);
    assert_true(sim_ground_accel(1.0f, SIM_TAXI_THROTTLE, 0.0f) > 0.0f && sim_ground_accel(2.5f, SIM_TAXI_THROTTLE, 0.0f) < 0.0f);
}

/* Below the stall speed, hands off and the throttle closed, the aircraft loses height and the
 * nose drops, until the dive has the speed back; at the slow cruise it holds its height. */
static void test_stall_loses_height(void **state) {
    (void)state;
    FlightModel m;
    flight_model_default(&m);
    FlightState f;
    start(&f, &m, SIM_STALL_SPEED - 3.0f);
    f.throttle = 0.0f;
    assert_true(flight_stall_warning(&f) && flight_stall_share(f.speed) > 0.5f);
    FlightInput pull = {.pitch = 1.0f};   /* even pulling back */
    float lowest = 0.0f;
    for (int i = 0; i < SIM_STEP_HZ; i++) {
        flight_step(&f, &pull, &m, DT);
        if (f.pitch < lowest) lowest = f.pitch;
    }
    printf("  stalled: %.1f m lost in 1 s, the nose down to %.0f deg, %.1f m/s\n", 100.0 - f.y,
           (double)(lowest / SIM_DEG), (double)f.speed);
    assert_true(f.y < 97.0 && lowest < -5.0f * SIM_DEG);
    FlightInput none = {0};
    fly(&f, &none, &m, 5.0f);
    printf("  hands off 5 s: %.1f m/s, pitch %.0f deg\n", (double)f.speed, (double)(f.pitch / SIM_DEG));
    assert_true(f.speed >= SIM_STALL_SPEED);
    fly(&f, &none, &m, 15.0f);
    assert_true(!flight_stall_warning(&f));
    start(&f, &m, m.speed_min);
    fly(&f, &none, &m, 3.0f);
    assert_true(fabs(f.y - 100.0) < 0.01 && !flight_stall_warning(&f));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pitch_up_climbs_down_dives), cmocka_unit_test(test_bank_turns_and_levels),
        cmocka_unit_test(test_throttle_and_boost),          cmocka_unit_test(test_random_input_stays_sane),
        cmocka_unit_test(test_loop_and_roll_over),          cmocka_unit_test(test_chase_camera_keeps_up),
        cmocka_unit_test(test_runs_predicted),              cmocka_unit_test(test_stall_loses_height),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
