/* skyisles sky of a moment: the hour from the sim's time, the sun's and the moon's places, and
 * every colour the passes draw with, keyed by the sun's height. Pure arithmetic: no GL, so tests
 * and the sound can ask it. */
#include <math.h>
#include <string.h>

#include "render.h"

#define SUN_TILT 0.52359878   /* 30 degrees: the sun's path leans to the south (+z) */

/* The palette at one height of the sun (sin of its elevation). `day` rows take the settings'
 * sky colours for the zenith, the horizon and the clouds. `anti` lights the horizon opposite the
 * sun (the dawn's pink band). */
typedef struct SkyKey {
    float sun_y;
    bool day;
    float zenith[3], horizon[3], glow[3], cloud[3], light[3], ambient[3], anti[3];
    float night;
} SkyKey;

/* Night (the key light is the moon's) and day rows, shared by the morning's and the evening's
 * tables so the switch at noon and at midnight never shows. Day's light: faces straight at the
 * sun about 1, others ~0.7. */
#define KEY_NIGHT(y)                                                                                      \
    {y, false, {0.010f, 0.016f, 0.050f}, {0.030f, 0.045f, 0.100f}, {0, 0, 0}, {0.050f, 0.060f, 0.110f}, \
     {0.12f, 0.15f, 0.26f}, {0.16f, 0.20f, 0.34f}, {0, 0, 0}, 1.0f}
#define KEY_DAY(y, glow) {y, true, {0}, {0}, glow, {0}, {0.36f, 0.35f, 0.33f}, {0.70f, 0.71f, 0.74f}, {0, 0, 0}, 0.0f}
#define NKEYS 7
#define KEY_GLOW_HIGH {0.18f, 0.15f, 0.08f}
#define KEY_GLOW_NOON {0.12f, 0.10f, 0.05f}

/* Dawn: cool, a violet twilight, a rose sunrise with pink clouds and a lighter pink band on the
 * horizon opposite the sun, then a pale clear morning. */
static const SkyKey DAWN[NKEYS] = {
    KEY_NIGHT(-1.00f),
    KEY_NIGHT(-0.22f),
    {-0.08f, false, {0.070f, 0.080f, 0.240f}, {0.400f, 0.300f, 0.460f}, {0.30f, 0.12f, 0.26f}, {0.36f, 0.26f, 0.40f},
     {0.00f, 0.00f, 0.00f}, {0.28f, 0.26f, 0.42f}, {0.10f, 0.06f, 0.14f}, 0.6f},
    {0.00f, false, {0.220f, 0.300f, 0.580f}, {0.680f, 0.540f, 0.660f}, {0.62f, 0.24f, 0.40f}, {0.98f, 0.66f, 0.76f},
     {0.55f, 0.36f, 0.40f}, {0.46f, 0.42f, 0.54f}, {0.22f, 0.14f, 0.26f}, 0.15f},
    {0.16f, false, {0.280f, 0.460f, 0.800f}, {0.800f, 0.760f, 0.800f}, {0.34f, 0.18f, 0.24f}, {1.00f, 0.88f, 0.88f},
     {0.46f, 0.40f, 0.36f}, {0.62f, 0.62f, 0.68f}, {0.10f, 0.08f, 0.10f}, 0.0f},
    KEY_DAY(0.42f, KEY_GLOW_HIGH),
    KEY_DAY(1.00f, KEY_GLOW_NOON),
};

/* Dusk: warm, a golden hour of amber light and clouds, an orange sunset, a red twilight. */
static const SkyKey DUSK[NKEYS] = {
    KEY_NIGHT(-1.00f),
    KEY_NIGHT(-0.22f),
    {-0.08f, false, {0.070f, 0.070f, 0.200f}, {0.420f, 0.220f, 0.200f}, {0.50f, 0.16f, 0.04f}, {0.36f, 0.20f, 0.20f},
     {0.00f, 0.00f, 0.00f}, {0.28f, 0.24f, 0.34f}, {0.03f, 0.02f, 0.05f}, 0.6f},
    {0.00f, false, {0.200f, 0.260f, 0.500f}, {0.740f, 0.480f, 0.300f}, {0.95f, 0.42f, 0.06f}, {1.00f, 0.60f, 0.32f},
     {0.60f, 0.30f, 0.10f}, {0.46f, 0.38f, 0.40f}, {0.05f, 0.03f, 0.06f}, 0.15f},
    {0.16f, false, {0.270f, 0.420f, 0.720f}, {0.860f, 0.720f, 0.520f}, {0.55f, 0.30f, 0.05f}, {1.00f, 0.82f, 0.56f},
     {0.52f, 0.40f, 0.20f}, {0.62f, 0.58f, 0.58f}, {0.00f, 0.00f, 0.00f}, 0.0f},
    KEY_DAY(0.42f, KEY_GLOW_HIGH),
    KEY_DAY(1.00f, KEY_GLOW_NOON),
};

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
static SkyKey key_at(const RenderLiveParams *l, const SkyKey *keys, size_t i) {
    SkyKey k = keys[i];
    if (k.day) {
        memcpy(k.zenith, l->zenith_rgb, sizeof k.zenith);
        memcpy(k.horizon, l->sky_rgb, sizeof k.horizon);
        memcpy(k.cloud, l->cloud_rgb, sizeof k.cloud);
    }
    return k;
}

static void palette(const RenderLiveParams *l, const SkyKey *keys, float sun_y, RenderSky *o) {
    size_t i = 0;
    while (i + 2 < NKEYS && sun_y > keys[i + 1].sun_y) i++;
    SkyKey a = key_at(l, keys, i), b = key_at(l, keys, i + 1);
    float t = (sun_y - a.sun_y) / (b.sun_y - a.sun_y);
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    lerp3(o->zenith, a.zenith, b.zenith, t);
    lerp3(o->horizon, a.horizon, b.horizon, t);
    lerp3(o->glow, a.glow, b.glow, t);
    lerp3(o->cloud, a.cloud, b.cloud, t);
    lerp3(o->light_rgb, a.light, b.light, t);
    lerp3(o->ambient_rgb, a.ambient, b.ambient, t);
    lerp3(o->anti, a.anti, b.anti, t);
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
    /* Morning (the sun in the east, 00:00-12:00) has the dawn's palette, evening the dusk's. */
    palette(l, hour < 12.0 ? DAWN : DUSK, out->sun_dir[1], out);
    /* The key light follows the sun while it is up, the moon while it is down (its colour is 0
     * around the horizon, so the switch never shows). */
    memcpy(out->light_dir, out->sun_dir[1] >= 0.0f ? out->sun_dir : out->moon_dir, sizeof out->light_dir);
}

static float clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

static float luma(const float c[3]) { return 0.299f * c[0] + 0.587f * c[1] + 0.114f * c[2]; }

/* c toward a grey of its own brightness times `bright`, tinted, by `by`. */
static void to_grey(float c[3], const float tint[3], float bright, float by) {
    float g = luma(c) * bright;
    for (int i = 0; i < 3; i++) c[i] += (g * tint[i] - c[i]) * by;
}

void render_sky_weather(RenderSky *sky, const WeatherState *w) {
    static const float SLATE[3] = {0.94f, 0.98f, 1.06f}, MIST[3] = {0.97f, 0.99f, 1.02f};
    /* Clear and cloudy skies keep their colours; overcast, rain and storm close them over. */
    float over = clamp01((w->cover - 0.45f) / 0.45f);
    float gloom = 0.35f * over + 0.2f * w->rain + 0.15f * w->weight[WEATHER_STORM];
    float fog = clamp01((w->fog - 0.3f) / 0.7f);
    sky->cover = clamp01((w->cover - 0.1f) / 0.9f);
    to_grey(sky->zenith, SLATE, 0.8f * (1.0f - gloom), over);
    to_grey(sky->horizon, SLATE, 1.0f - gloom, over);
    to_grey(sky->cloud, SLATE, 0.75f * (1.0f - gloom), over);
    /* A fog bank: the whole dome and the fog one pale grey, as bright as the horizon was. */
    to_grey(sky->horizon, MIST, 1.05f, fog);
    for (int i = 0; i < 3; i++) {
        sky->zenith[i] += (sky->horizon[i] - sky->zenith[i]) * fog;
        sky->cloud[i] += (sky->horizon[i] - sky->cloud[i]) * fog;
        sky->glow[i] *= (1.0f - over) * (1.0f - 0.8f * fog);
        sky->anti[i] *= 1.0f - over;
        /* Under cover the sun's light is diffuse: less of it on faces turned to it, some of it
         * on every face, all of it dimmer as the cloud thickens. */
        float direct = sky->light_rgb[i];
        sky->light_rgb[i] = direct * (1.0f - 0.85f * over) * (1.0f - gloom);
        sky->ambient_rgb[i] = (sky->ambient_rgb[i] + direct * 0.3f * over) * (1.0f - 0.6f * gloom);
    }
}
