/* skyisles sim: the ground roll's arithmetic: its acceleration (flight_step rolls with it) and
 * the runs it predicts (a strip's length comes from them). Pure float arithmetic at the fixed
 * step: the same on every machine. */
#include "sim/sim.h"

float sim_ground_accel(float speed, float throttle, float brake) {
    float a = SIM_GROUND_THRUST * throttle - SIM_ROLL_DRAG - SIM_ROLL_DRAG_K * speed - SIM_BRAKE_DECEL * brake;
    /* Drag and brakes hold a stopped aircraft, they never push it backwards. */
    if (speed <= 0.0f && a < 0.0f) a = 0.0f;
    return a;
}

/* One step of the roll's speed as flight_step takes it: never below a standstill. */
static float roll_speed(float speed, float throttle, float brake) {
    float v = speed + sim_ground_accel(speed, throttle, brake) * SIM_STEP;
    return v > 0.0f ? v : 0.0f;
}

double sim_takeoff_run_m(void) {
    float v = 0.0f;
    double d = 0.0;
    for (int i = 0; i < 60 * SIM_STEP_HZ && v < SIM_TAKEOFF_SPEED; i++) {
        v = roll_speed(v, 1.0f, 0.0f);
        d += (double)(v * SIM_STEP);
    }
    return d;
}

double sim_landing_run_m(float touchdown_speed) {
    float v = touchdown_speed > 0.0f ? touchdown_speed : 0.0f;
    double d = 0.0;
    for (int i = 0; i < 120 * SIM_STEP_HZ && v > 0.0f; i++) {
        v = roll_speed(v, 0.0f, 1.0f);
        d += (double)(v * SIM_STEP);
    }
    return d;
}

double sim_strip_length_m(void) {
    double to = sim_takeoff_run_m(), land = sim_landing_run_m(SIM_APPROACH_SPEED);
    return (double)SIM_STRIP_MARGIN * (to > land ? to : land);
}
