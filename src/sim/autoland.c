/* skyisles sim: the autoland, a pilot like the autopilot (stick, throttle, brakes through
 * flight_step): a straight-in approach down a 3-degree glide path, a flare, the roll-out. */
#include <math.h>
#include <string.h>

#include "sim/sim.h"
#include "sim/simmath.h"

static float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

static float wrap_pi(float a) {
    while (a > 3.14159265f) a -= 6.2831853f;
    while (a < -3.14159265f) a += 6.2831853f;
    return a;
}

void sim_autoland_input(const SimStrip *s, const FlightState *f, const FlightModel *m, FlightInput *out) {
    memset(out, 0, sizeof *out);
    /* Along the run (d: metres past the touchdown point) and across it (e: right of the line). */
    double fx = det_sin((double)s->heading), fz = -det_cos((double)s->heading);
    double dx = f->x - s->x, dz = f->z - s->z;
    float d = (float)(dx * fx + dz * fz), e = (float)(dx * -fz + dz * fx);
    /* The heading that closes on the centreline, at most 30 degrees across it. */
    float want_yaw = s->heading - clampf(e * 0.04f, -0.5f, 0.5f);
    float herr = wrap_pi(want_yaw - f->yaw);
    if (f->on_ground) {
        out->throttle = -1.0f;
        out->brake = true;
        out->yaw = clampf(herr * 4.0f, -1.0f, 1.0f);
        return;
    }
    /* Bank toward the heading wanted; the stick holds that bank. */
    float want_roll = clampf(herr * 2.0f, -0.45f, 0.45f);
    out->roll = clampf((want_roll - f->roll) * 2.5f, -1.0f, 1.0f);
    /* The glide path's height over the touchdown point's ground, the climb rate that follows it,
     * and in the flare a sink that eases off with the height. */
    float h = (float)(f->y - SIM_WHEEL_H - s->y);
    float path = -d * SIM_GLIDE_SLOPE;
    float vs = -f->speed * SIM_GLIDE_SLOPE + (path - h) * 0.4f;
    if (h < SIM_FLARE_H) vs = -0.4f - 0.7f * h;   /* the glide's sink at the flare's top, 0.4 m/s at the ground */
    float sp = f->speed > 1.0f ? f->speed : 1.0f;
    float want_pitch = sm_asin(clampf(vs / sp, -0.3f, 0.3f));
    float cr = sm_cos(f->roll);
    out->pitch = clampf((want_pitch - f->pitch) * 3.0f / (cr > 0.5f ? cr : 0.5f), -1.0f, 1.0f);
    float thr = flight_throttle_for(m, SIM_APPROACH_SPEED);
    out->throttle = clampf((thr - f->throttle) * 8.0f, -1.0f, 1.0f);
}
