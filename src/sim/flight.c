/* skyisles flight: the autopilot's fixed path, simple rate-based flight and the chase camera.
 * Pure and deterministic (fixed dt in, same poses out). */
#include <math.h>
#include <string.h>

#include "sim/sim.h"

#define CHASE_BACK 9.0f
#define CHASE_UP 2.6f
#define CHASE_PITCH -0.12f
#define PROP_RATE 40.0f   /* rad/s */

void flight_init(FlightState *f, double x, double y, double z, float yaw, float speed) {
    memset(f, 0, sizeof *f);
    f->x = x;
    f->y = y;
    f->z = z;
    f->yaw = f->yaw0 = yaw;
    f->speed = speed;
    f->cruise_y = y;
}

void flight_forward(const FlightState *f, float out[3]) {
    float cp = cosf(f->pitch);
    out[0] = sinf(f->yaw) * cp;
    out[1] = sinf(f->pitch);
    out[2] = -cosf(f->yaw) * cp;
}

void flight_idle(FlightState *f, float dt) {
    f->prop_angle = fmodf(f->prop_angle + PROP_RATE * dt, 6.2831853f);
    f->time_s += dt;
}

static void advance(FlightState *f, float dt) {
    float fwd[3];
    flight_forward(f, fwd);
    f->x += (double)(fwd[0] * f->speed * dt);
    f->y += (double)(fwd[1] * f->speed * dt);
    f->z += (double)(fwd[2] * f->speed * dt);
    flight_idle(f, dt);
}

#define CLEARANCE 9.0
#define PROBE_PERIOD 0.25f

/* Lowest altitude from `from` upwards, in 4 m steps, where the aircraft and its chase camera
 * are clear of solid at (x, z), with open air well above (so not a cave). */
static double clear_altitude(const World *w, double x, double z, double from) {
    static const double offsets[] = {-CLEARANCE, -3.0, 0.0, 5.0, 12.0, 20.0};
    double y = from;
    for (int i = 0; i < 40 && y < WORLD_Y_MAX + 10; i++, y += 4.0) {
        bool clear = true;
        for (size_t k = 0; k < sizeof offsets / sizeof offsets[0] && clear; k++)
            clear = !world_solid_at(w, x, y + offsets[k], z);
        if (clear) return y;
    }
    return y;
}

static void probe_terrain(FlightState *f, const World *w, double base_y) {
    /* Points 0..8 s ahead along the level heading. */
    double best = base_y;
    float sy = sinf(f->yaw), cy = cosf(f->yaw);
    for (int k = 0; k <= 8; k++) {
        double d = (double)(f->speed * (float)k);
        double y = clear_altitude(w, f->x + sy * d, f->z - cy * d, base_y);
        if (y > best) best = y;
    }
    f->avoid_y = best;
}

void flight_autopilot_start(FlightState *f, const World *w) {
    if (!w) return;
    /* Spawn in open air: lift the start (and the cruise altitude) above any rock there. */
    double y = clear_altitude(w, f->x, f->z, f->y);
    probe_terrain(f, w, y);   /* and above what lies ahead */
    if (f->avoid_y > y) y = f->avoid_y;
    f->cruise_y += y - f->y;
    f->y = y;
    f->probe_timer = PROBE_PERIOD;
}

void flight_autopilot_step(FlightState *f, float dt, const World *w) {
    double t = f->time_s;
    /* Heading: slow S-turns; the bank follows the turn rate (coordinated turn). */
    float yaw_rate = 0.16f * (float)sin(t * 0.11) + 0.05f * (float)sin(t * 0.037);
    f->yaw += yaw_rate * dt;
    f->roll = atanf(f->speed * yaw_rate / 9.81f);
    /* Altitude: a slow swell around cruise_y; pitch is the climb angle. */
    double target_y = f->cruise_y + 14.0 * sin(t * 0.07) + 6.0 * sin(t * 0.19);
    if (w) {
        f->probe_timer -= dt;
        if (f->probe_timer <= 0.0f) {
            f->probe_timer += PROBE_PERIOD;
            probe_terrain(f, w, target_y);
        }
        if (f->avoid_y > target_y) target_y = f->avoid_y;
    }
    float climb = (float)((target_y - f->y) * 0.8);
    float max_climb = f->speed * 0.6f;
    if (climb > max_climb) climb = max_climb;
    if (climb < -max_climb) climb = -max_climb;
    f->pitch = f->speed > 0.1f ? asinf(climb / f->speed) : 0.0f;
    advance(f, dt);
}

void flight_step(FlightState *f, const FlightInput *in, float dt) {
    f->pitch += in->pitch * 1.2f * dt;
    f->roll += in->roll * 2.0f * dt;
    f->yaw += (in->yaw * 0.6f + sinf(f->roll) * 0.9f) * dt;
    if (f->pitch > 1.4f) f->pitch = 1.4f;
    if (f->pitch < -1.4f) f->pitch = -1.4f;
    f->speed += (in->throttle * 60.0f - f->speed) * 0.5f * dt;
    advance(f, dt);
}

void camera_chase(const FlightState *f, CameraState *out) {
    /* Level chase: behind along the heading, above, pitched a little down; a share of the
     * aircraft's pitch and roll so manoeuvres read on screen. */
    float sy = sinf(f->yaw), cy = cosf(f->yaw);
    float pitch = f->pitch * 0.5f;
    out->x = f->x - (double)(sy * CHASE_BACK);
    out->z = f->z + (double)(cy * CHASE_BACK);
    out->y = f->y + CHASE_UP - (double)(sinf(pitch) * CHASE_BACK);
    out->yaw = f->yaw;
    out->pitch = pitch + CHASE_PITCH;
    out->roll = f->roll * 0.25f;
}

void flight_in_front_of(const CameraState *c, FlightState *f) {
    float sy = sinf(c->yaw), cy = cosf(c->yaw);
    float pitch = c->pitch - CHASE_PITCH;
    f->yaw = c->yaw;
    f->pitch = pitch * 2.0f;
    f->roll = c->roll * 4.0f;
    f->x = c->x + (double)(sy * CHASE_BACK);
    f->z = c->z - (double)(cy * CHASE_BACK);
    f->y = c->y - CHASE_UP + (double)(sinf(pitch) * CHASE_BACK);
}

void sim_world_view(const FlightState *f, const CameraState *c, float fov_y_rad, float aspect, WorldView *out) {
    float fwd[3];
    flight_forward(f, fwd);
    out->x = c->x;
    out->y = c->y;
    out->z = c->z;
    out->dir_x = fwd[0];
    out->dir_y = fwd[1];
    out->dir_z = fwd[2];
    out->speed = f->speed;
    out->fov_y_rad = fov_y_rad;
    out->aspect = aspect;
    out->time_s = f->time_s;
}
