/* skyisles sky of a moment: the hour from the sim's time, the sun's and the moon's places, and
 * every colour the passes draw with, keyed by the sun's height. Pure arithmetic: no GL, so tests
 * and the sound can ask it. */
#include <math.h>
#include <string.h>

#include "render.h"

#define SUN_TILT 0.52359878   /* 30 degrees: the sun's path leans to the south (+z) */

/* The palette at one height of the sun (sin of its elevation). `day` rows take the settings'
 * sky colours for the zenith, the horizon and the clouds. */
typedef struct SkyKey {
    float sun_y;
    bool day;
    float zenith[3], horizon[3], glow[3], cloud[3], light[3], ambient[3];
    float night;
} SkyKey;

/* Night (the key light is the moon's), twilight, sunrise/sunset, golden hour, day. Day's light is
 * the renderer's look before the sky moved: faces straight at the sun about 1, others ~0.7. */
static const SkyKey KEYS[] = {
    {-1.00f, false, {0.010f, 0.016f, 0.050f}, {0.030f, 0.045f, 0.100f}, {0, 0, 0}, {0.050f, 0.060f, 0.110f},
     {0.12f, 0.15f, 0.26f}, {0.16f, 0.20f, 0.34f}, 1.0f},
    {-0.22f, false, {0.010f, 0.016f, 0.050f}, {0.030f, 0.045f, 0.100f}, {0, 0, 0}, {0.050f, 0.060f, 0.110f},
     {0.12f, 0.15f, 0.26f}, {0.16f, 0.20f, 0.34f}, 1.0f},
    {-0.08f, false, {0.060f, 0.080f, 0.220f}, {0.360f, 0.230f, 0.300f}, {0.40f, 0.14f, 0.06f}, {0.32f, 0.22f, 0.30f},
     {0.00f, 0.00f, 0.00f}, {0.26f, 0.26f, 0.40f}, 0.6f},
    {0.00f, false, {0.200f, 0.290f, 0.540f}, {0.660f, 0.500f, 0.480f}, {0.85f, 0.36f, 0.08f}, {1.00f, 0.62f, 0.44f},
     {0.55f, 0.28f, 0.12f}, {0.44f, 0.38f, 0.46f}, 0.15f},
    {0.16f, false, {0.270f, 0.440f, 0.760f}, {0.800f, 0.720f, 0.620f}, {0.45f, 0.25f, 0.06f}, {1.00f, 0.86f, 0.70f},
     {0.48f, 0.38f, 0.24f}, {0.62f, 0.60f, 0.64f}, 0.0f},
    {0.42f, true, {0}, {0}, {0.18f, 0.15f, 0.08f}, {0}, {0.36f, 0.35f, 0.33f}, {0.70f, 0.71f, 0.74f}, 0.0f},
    {1.00f, true, {0}, {0}, {0.12f, 0.10f, 0.05f}, {0}, {0.36f, 0.35f, 0.33f}, {0.70f, 0.71f, 0.74f}, 0.0f},
};
#define NKEYS (sizeof KEYS / sizeof KEYS[0])

double render_sky_hour(const RenderLiveParams *l, double time_s) {
    double h = l->hour;
    if (l->time_mode == 0 && l->day_minutes > 0.0f) h += time_s / (l->day_minutes * 60.0) * 24.0;
    h = fmod(h, 24.0);
    return h < 0.0 ? h + 24.0 : h;
}

static void lerp3(float out[3], const float a[3], const float b[3], float t) {
    for (int i = 0; i < 3; i++) out[i] = a[i] + (b[i] - a[i]) * t;
}

/* A key's colours with the day rows' sky colours filled in from the settings. */
static SkyKey key_at(const RenderLiveParams *l, size_t i) {
    SkyKey k = KEYS[i];
    if (k.day) {
        memcpy(k.zenith, l->zenith_rgb, sizeof k.zenith);
        memcpy(k.horizon, l->sky_rgb, sizeof k.horizon);
        memcpy(k.cloud, l->cloud_rgb, sizeof k.cloud);
    }
    return k;
}

static void palette(const RenderLiveParams *l, float sun_y, RenderSky *o) {
    size_t i = 0;
    while (i + 2 < NKEYS && sun_y > KEYS[i + 1].sun_y) i++;
    SkyKey a = key_at(l, i), b = key_at(l, i + 1);
    float t = (sun_y - a.sun_y) / (b.sun_y - a.sun_y);
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    lerp3(o->zenith, a.zenith, b.zenith, t);
    lerp3(o->horizon, a.horizon, b.horizon, t);
    lerp3(o->glow, a.glow, b.glow, t);
    lerp3(o->cloud, a.cloud, b.cloud, t);
    lerp3(o->light_rgb, a.light, b.light, t);
    lerp3(o->ambient_rgb, a.ambient, b.ambient, t);
    o->night = a.night + (b.night - a.night) * t;
}

void render_sky_at(const RenderLiveParams *l, double hour, RenderSky *out) {
    memset(out, 0, sizeof *out);
    out->hour = (float)hour;
    /* The sun's angle along its path: 0 at 06:00 in the east, a half turn at 18:00 in the west. */
    double a = (hour - 6.0) / 24.0 * 2.0 * M_PI;
    double up = sin(a);
    out->sun_dir[0] = (float)cos(a);
    out->sun_dir[1] = (float)(up * cos(SUN_TILT));
    out->sun_dir[2] = (float)(up * sin(SUN_TILT));
    for (int i = 0; i < 3; i++) out->moon_dir[i] = -out->sun_dir[i];
    palette(l, out->sun_dir[1], out);
    /* The key light follows the sun while it is up, the moon while it is down (its colour is 0
     * around the horizon, so the switch never shows). */
    memcpy(out->light_dir, out->sun_dir[1] >= 0.0f ? out->sun_dir : out->moon_dir, sizeof out->light_dir);
}
