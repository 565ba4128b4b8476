/* skyisles flight: the autopilot's fixed path, simple rate-based flight and the chase camera.
 * Pure and deterministic (fixed dt in, same poses out). */
#include <math.h>
#include <string.h>

#include "sim/sim.h"
#include "sim/simmath.h"

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
    float cp = sm_cos(f->pitch);
    out[0] = sm_sin(f->yaw) * cp;
    out[1] = sm_sin(f->pitch);
    out[2] = -sm_cos(f->yaw) * cp;
}

uint64_t flight_state_hash(const FlightState *f, uint64_t h) {
    const double d[4] = {f->x, f->y, f->z, f->time_s};
    const float v[7] = {f->yaw, f->pitch, f->roll, f->speed, f->throttle, f->boost, f->prop_angle};
    const uint8_t g = 1;
    h = hash_fnv1a64(d, sizeof d, h);
    h = hash_fnv1a64(v, sizeof v, h);
    /* Only a rolling aircraft hashes the wheels: a flight in the air keeps the hash it had. */
    return f->on_ground ? hash_fnv1a64(&g, sizeof g, h) : h;
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
#define OBJECT_AHEAD 3       /* seconds ahead the probes look for objects */
#define OBJECT_SIDE 4.0   /* metres either side of the probed path an object counts */

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

/* The altitude from y up that passes over the solid objects (trees, boulders, landmarks) along
 * the stretch (xa, za) -> (xb, zb): their tops plus CLEARANCE, box by box, then above rock again.
 * The rock probes' columns lie a second of flight apart, where a tree fits between two. */
static double over_objects(const World *w, double xa, double za, double xb, double zb, double y) {
    WorldBox box[8];
    double xl = (xa < xb ? xa : xb) - OBJECT_SIDE, xh = (xa > xb ? xa : xb) + OBJECT_SIDE;
    double zl = (za < zb ? za : zb) - OBJECT_SIDE, zh = (za > zb ? za : zb) + OBJECT_SIDE;
    for (int i = 0; i < 4; i++) {
        uint32_t n = world_solid_objects(w, (int64_t)floor(xl), (int64_t)floor(y - CLEARANCE), (int64_t)floor(zl),
                                         (int64_t)floor(xh), (int64_t)floor(y + OBJECT_SIDE), (int64_t)floor(zh), box, 8);
        if (n == 0) return y;
        double top = y + OBJECT_SIDE;   /* more boxes than written: at least over this slice */
        for (uint32_t k = 0; k < n && k < 8; k++)
            if ((double)box[k].y1 + CLEARANCE > top) top = (double)box[k].y1 + CLEARANCE;
        y = clear_altitude(w, xb, zb, top);
    }
    return y;
}

static void probe_terrain(FlightState *f, const World *w, double base_y) {
    /* Points 0..8 s ahead along the level heading, and the objects on the way between them. */
    double best = base_y, px = f->x, pz = f->z;
    float sy = sm_sin(f->yaw), cy = sm_cos(f->yaw);
    for (int k = 0; k <= 8; k++) {
        double d = (double)(f->speed * (float)k), x = f->x + sy * d, z = f->z - cy * d;
        double y = clear_altitude(w, x, z, base_y);
        if (k <= OBJECT_AHEAD) y = over_objects(w, px, pz, x, z, y);
        if (y > best) best = y;
        px = x, pz = z;
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

/* The autopilot's path: the turn rate of its slow S-turns at time t. */
static float path_yaw_rate(double t) { return 0.16f * (float)det_sin(t * 0.11) + 0.05f * (float)det_sin(t * 0.037); }

/* The altitude it aims for now: a slow swell around cruise_y, raised over whatever the probes
 * (every PROBE_PERIOD, up to 8 s ahead) found on the way. */
static double path_target_y(FlightState *f, const World *w, float dt) {
    double t = f->time_s;
    double target_y = f->cruise_y + 14.0 * det_sin(t * 0.07) + 6.0 * det_sin(t * 0.19);
    if (w) {
        f->probe_timer -= dt;
        if (f->probe_timer <= 0.0f) {
            f->probe_timer += PROBE_PERIOD;
            probe_terrain(f, w, target_y);
        }
        if (f->avoid_y > target_y) target_y = f->avoid_y;
    }
    return target_y;
}

/* The climb angle that heads for target_y (at most asin(0.6) either way). */
static float climb_pitch(const FlightState *f, double target_y) {
    float climb = (float)((target_y - f->y) * 0.8);
    float max_climb = f->speed * 0.6f;
    if (climb > max_climb) climb = max_climb;
    if (climb < -max_climb) climb = -max_climb;
    return f->speed > 0.1f ? sm_asin(climb / f->speed) : 0.0f;
}

void flight_autopilot_step(FlightState *f, float dt, const World *w) {
    /* Heading: the path's S-turns; the bank follows the turn rate (coordinated turn). */
    float yaw_rate = path_yaw_rate(f->time_s);
    f->yaw += yaw_rate * dt;
    f->roll = sm_atan(f->speed * yaw_rate / 9.81f);
    f->pitch = climb_pitch(f, path_target_y(f, w, dt));
    advance(f, dt);
}

#define AUTOPILOT_FAST 150.0f   /* m/s: above this the autopilot keeps over the world's top */

void flight_autopilot_input(FlightState *f, const World *w, float cruise_speed, bool boost, float dt, FlightInput *out) {
    memset(out, 0, sizeof *out);
    if (f->on_ground) {   /* parked or rolling: straight ahead at full throttle, off at the takeoff speed */
        out->throttle = 1.0f;
        out->pitch = 1.0f;
        return;
    }
    /* The same S-turns: the bank that turns at the path's rate, held by a proportional stick. */
    float sr = path_yaw_rate(f->time_s) / 1.1f;   /* the default model's bank_turn: sin(bank) * 1.1 rad/s */
    float want_roll = sm_asin(sr > 0.7f ? 0.7f : (sr < -0.7f ? -0.7f : sr));
    out->roll = (want_roll - f->roll) * 2.5f;
    double target_y = path_target_y(f, w, dt);
    const double over_top = WORLD_Y_MAX + 30.0;
    if ((boost || f->speed > AUTOPILOT_FAST) && target_y < over_top) target_y = over_top;
    out->boost = boost && f->y > WORLD_Y_MAX + 5.0;
    /* In a bank, pulling also turns: the pitch command is shared out over the bank. */
    out->pitch = (climb_pitch(f, target_y) - f->pitch) * 3.0f / (sm_cos(f->roll) > 0.5f ? sm_cos(f->roll) : 0.5f);
    out->throttle = cruise_speed > f->speed + 1.0f ? 1.0f : (cruise_speed < f->speed - 1.0f ? -1.0f : 0.0f);
    if (out->roll > 1.0f) out->roll = 1.0f;
    if (out->roll < -1.0f) out->roll = -1.0f;
    if (out->pitch > 1.0f) out->pitch = 1.0f;
    if (out->pitch < -1.0f) out->pitch = -1.0f;
}

void flight_model_default(FlightModel *m) {
    m->speed_min = 20.0f;
    m->speed_max = 140.0f;
    m->speed_limit = SIM_SPEED_LIMIT_DEFAULT;
    m->pitch_rate = 1.5f;
    m->roll_rate = 2.8f;
    m->yaw_rate = 0.6f;
    m->bank_turn = 1.1f;
    m->level_rate = 1.2f;
    m->throttle_rate = 0.6f;
}

float flight_throttle_for(const FlightModel *m, float speed) {
    float span = m->speed_max - m->speed_min;
    float t = span > 0.0f ? (speed - m->speed_min) / span : 0.0f;
    return t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
}

float flight_cruise_speed(const FlightModel *m, float throttle) {
    return m->speed_min + throttle * (m->speed_max - m->speed_min);
}

/* The aircraft's axes from its Euler angles: forward (the nose), up, right. */
static void basis(const FlightState *f, float fwd[3], float up[3], float right[3]) {
    float cy = sm_cos(f->yaw), sy = sm_sin(f->yaw), cp = sm_cos(f->pitch), sp = sm_sin(f->pitch);
    float cr = sm_cos(f->roll), sr = sm_sin(f->roll);
    float r0[3] = {cy, 0.0f, sy}, u0[3] = {-sy * sp, cp, cy * sp};
    fwd[0] = sy * cp;
    fwd[1] = sp;
    fwd[2] = -cy * cp;
    /* +roll banks right: the up axis leans toward the right wing. */
    for (int i = 0; i < 3; i++) {
        up[i] = u0[i] * cr + r0[i] * sr;
        right[i] = r0[i] * cr - u0[i] * sr;
    }
}

/* a, b <- a cos t + b sin t, b cos t - a sin t: a rotation in the plane of two axes. */
static void turn(float a[3], float b[3], float t) {
    float c = sm_cos(t), s = sm_sin(t);
    for (int i = 0; i < 3; i++) {
        float ai = a[i], bi = b[i];
        a[i] = ai * c + bi * s;
        b[i] = bi * c - ai * s;
    }
}

static void normalise(float v[3]) {
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0f) for (int i = 0; i < 3; i++) v[i] /= l;
}

static float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

static float wrap_pi(float a) {
    while (a > 3.14159265f) a -= 6.2831853f;
    while (a < -3.14159265f) a += 6.2831853f;
    return a;
}

float flight_stall_share(float speed) {
    return clampf((SIM_STALL_SPEED - speed) / SIM_STALL_SPAN, 0.0f, 1.0f);
}

bool flight_stall_warning(const FlightState *f) { return !f->on_ground && f->speed < SIM_STALL_WARN_SPEED; }

/* On the wheels: throttle, drag and brakes set the speed, the rudder (or the stick) steers,
 * level and nose-flat. False when the pilot pulls up fast enough to fly: the air step goes on. */
static bool ground_roll(FlightState *f, const FlightInput *in, const FlightModel *m, float dt) {
    f->throttle = clampf(f->throttle + clampf(in->throttle, -1.0f, 1.0f) * m->throttle_rate * dt, 0.0f, 1.0f);
    f->boost = clampf(f->boost - 1.5f * dt, 0.0f, 1.0f);   /* no boost on the wheels */
    if (f->speed >= SIM_TAKEOFF_SPEED && in->pitch > 0.2f) {
        f->on_ground = false;
        f->pitch = SIM_ROTATE_PITCH;   /* the rotation: the climb starts at once, over the next bump */
        return false;
    }
    /* A stopped aircraft cannot turn; the faster it rolls the gentler the nose wheel turns it. */
    float steer = clampf(in->yaw + in->roll, -1.0f, 1.0f);
    float grip = f->speed < 2.0f ? f->speed * 0.5f : 1.0f / (1.0f + (f->speed - 2.0f) * 0.06f);
    f->yaw = wrap_pi(f->yaw + steer * SIM_STEER_RATE * grip * dt);
    f->pitch = 0.0f;
    f->roll = 0.0f;
    f->speed += sim_ground_accel(f->speed, f->throttle, in->brake ? 1.0f : 0.0f) * dt;
    if (f->speed < 0.0f) f->speed = 0.0f;
    advance(f, dt);
    return true;
}

/* Speed in the air: the throttle picks a cruise speed, the boost pushes to the limit; gravity
 * along the path adds a little in a dive and takes some in a climb. Below the slow cruise the
 * engine pulls back gently (a steep climb at idle slows toward the stall). */
static void air_speed(FlightState *f, const FlightInput *in, const FlightModel *m, float climb, float dt) {
    f->throttle = clampf(f->throttle + clampf(in->throttle, -1.0f, 1.0f) * m->throttle_rate * dt, 0.0f, 1.0f);
    f->boost = clampf(f->boost + (in->boost ? 0.6f : -1.5f) * dt, 0.0f, 1.0f);
    float cruise = flight_cruise_speed(m, f->throttle);
    float limit = m->speed_limit > cruise ? m->speed_limit : cruise;
    float target = cruise + (limit - cruise) * f->boost * f->boost;
    /* Exponential toward the target, at least 30 m/s^2, so the boost arrives instead of creeping. */
    float gap = target - f->speed;
    /* Below the slow cruise the engine pulls back slowly and a climb costs the full weight: a
     * steep climb at idle bleeds into the stall. */
    float slow = clampf((m->speed_min - f->speed) / 5.0f, 0.0f, 1.0f);
    float step = gap * (1.0f - sm_exp(-dt / (gap < 0.0f ? 0.8f : 1.6f * (1.0f + 3.0f * slow))));
    float least = 30.0f * dt;
    if (fabsf(step) < least && (gap < 0.0f || f->speed >= m->speed_min))
        step = fabsf(gap) < least ? gap : (gap > 0.0f ? least : -least);
    f->speed += step - 9.81f * 0.5f * (1.0f + slow) * climb * dt;
    if (f->speed < 1.0f) f->speed = 1.0f;
    if (f->speed > limit * 1.05f) f->speed = limit * 1.05f;
}

/* The attitude from the turned axes: pitch, yaw (kept through the vertical) and roll. */
static void attitude(FlightState *f, const float fwd[3], const float up[3]) {
    f->pitch = sm_asin(clampf(fwd[1], -1.0f, 1.0f));
    if (fabsf(fwd[1]) < 0.9999f) f->yaw = sm_atan2(fwd[0], -fwd[2]);
    else f->yaw = sm_atan2(up[0] * (fwd[1] > 0 ? -1.0f : 1.0f), up[2] * (fwd[1] > 0 ? 1.0f : -1.0f));
    /* Roll: the angle of the up axis from the vertical plane through the nose. */
    float r0[3] = {sm_cos(f->yaw), 0.0f, sm_sin(f->yaw)};
    float u0[3] = {-sm_sin(f->yaw) * fwd[1], sm_cos(f->pitch), sm_cos(f->yaw) * fwd[1]};
    f->roll = sm_atan2(up[0] * r0[0] + up[2] * r0[2], up[0] * u0[0] + up[1] * u0[1] + up[2] * u0[2]);
}

void flight_step(FlightState *f, const FlightInput *in, const FlightModel *m, float dt) {
    if (!(dt > 0.0f)) return;
    if (f->on_ground && ground_roll(f, in, m, dt)) return;
    float fwd[3], up[3], right[3];
    basis(f, fwd, up, right);
    float pin = clampf(in->pitch, -1.0f, 1.0f), rin = clampf(in->roll, -1.0f, 1.0f), yin = clampf(in->yaw, -1.0f, 1.0f);
    /* At absurd speeds the same stick moves the nose less, or the world spins past. */
    float agility = clampf(160.0f / (f->speed > 1.0f ? f->speed : 1.0f), 0.35f, 1.0f);
    /* Stalled, the pull fades and the nose falls toward the ground until it points well down. */
    float stall = flight_stall_share(f->speed);
    if (pin > 0.0f) pin *= clampf(1.0f - 2.0f * stall, 0.0f, 1.0f);
    turn(fwd, up, pin * m->pitch_rate * agility * dt);           /* about the wings */
    if (stall > 0.0f && fwd[1] > -0.7f) turn(fwd, up, (up[1] >= 0.0f ? -1.0f : 1.0f) * stall * SIM_STALL_NOSE_RATE * dt);
    turn(up, right, rin * m->roll_rate * dt);                    /* about the nose */
    turn(fwd, right, yin * m->yaw_rate * agility * dt);          /* about the up axis */
    /* Bank-to-turn about the world vertical: the bank (right wing down: right.y < 0) turns the
     * nose toward the low wing; released, the bank levels out. */
    float bank = -right[1];
    float level = 1.0f - fabsf(fwd[1]);                            /* no heading to turn when vertical */
    float yaw_turn = bank * m->bank_turn * agility * level * dt;
    float cy = sm_cos(yaw_turn), sy = sm_sin(yaw_turn);
    float *axes[3] = {fwd, up, right};
    for (int k = 0; k < 3; k++) {
        float x = axes[k][0], z = axes[k][2];
        axes[k][0] = x * cy - z * sy;
        axes[k][2] = z * cy + x * sy;
    }
    if (fabsf(rin) < 0.05f && up[1] > 0.0f) turn(up, right, -bank * m->level_rate * level * dt);
    /* Keep the axes orthonormal (rounding drifts them over thousands of steps). */
    normalise(fwd);
    float d = up[0] * fwd[0] + up[1] * fwd[1] + up[2] * fwd[2];
    for (int i = 0; i < 3; i++) up[i] -= fwd[i] * d;
    normalise(up);
    attitude(f, fwd, up);
    air_speed(f, in, m, fwd[1], dt);
    advance(f, dt);
    /* The lift a stall lost: the aircraft sinks besides where the nose points. */
    if (stall > 0.0f) f->y -= (double)(stall * SIM_STALL_SINK * dt);
}

void camera_chase(const FlightState *f, CameraState *out) {
    /* Level chase: behind along the heading, above, pitched a little down; a share of the
     * aircraft's pitch and roll so manoeuvres read on screen. */
    float sy = sm_sin(f->yaw), cy = sm_cos(f->yaw);
    float pitch = f->pitch * 0.5f;
    out->x = f->x - (double)(sy * CHASE_BACK);
    out->z = f->z + (double)(cy * CHASE_BACK);
    out->y = f->y + CHASE_UP - (double)(sm_sin(pitch) * CHASE_BACK);
    out->yaw = f->yaw;
    out->pitch = pitch + CHASE_PITCH;
    out->roll = f->roll * 0.25f;
}

void camera_rig_reset(CameraRig *r, CameraMode mode) {
    memset(r, 0, sizeof *r);
    r->mode = mode;
}

void camera_rig_update(CameraRig *r, const FlightState *f, float dt, CameraState *out) {
    if (r->mode == CAMERA_COCKPIT) {
        /* At the nose, just above the canopy line; the aircraft itself is not drawn. */
        float fwd[3], up[3], right[3];
        basis(f, fwd, up, right);
        out->x = f->x + (double)(fwd[0] * 1.2f + up[0] * 0.6f);
        out->y = f->y + (double)(fwd[1] * 1.2f + up[1] * 0.6f);
        out->z = f->z + (double)(fwd[2] * 1.2f + up[2] * 0.6f);
        out->yaw = f->yaw;
        out->pitch = f->pitch;
        out->roll = f->roll;
        r->settled = false;
        return;
    }
    /* The chase orientation trails the aircraft's by a time constant; the camera is placed from
     * the aircraft's position each frame, so the lag is in angle only and speed cannot outrun it. */
    float k = r->settled && dt > 0.0f ? 1.0f - sm_exp(-dt / 0.18f) : 1.0f;
    r->yaw += wrap_pi(f->yaw - r->yaw) * k;
    r->yaw = wrap_pi(r->yaw);
    r->pitch += (f->pitch - r->pitch) * k;
    r->roll += wrap_pi(f->roll - r->roll) * k;
    r->settled = true;
    FlightState lagged = *f;
    lagged.yaw = r->yaw;
    lagged.pitch = r->pitch;
    lagged.roll = r->roll;
    camera_chase(&lagged, out);
}

void flight_in_front_of(const CameraState *c, FlightState *f) {
    float sy = sm_sin(c->yaw), cy = sm_cos(c->yaw);
    float pitch = c->pitch - CHASE_PITCH;
    f->yaw = c->yaw;
    f->pitch = pitch * 2.0f;
    f->roll = c->roll * 4.0f;
    f->x = c->x + (double)(sy * CHASE_BACK);
    f->z = c->z - (double)(cy * CHASE_BACK);
    f->y = c->y - CHASE_UP + (double)(sm_sin(pitch) * CHASE_BACK);
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
