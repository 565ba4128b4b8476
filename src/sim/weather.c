/* skyisles weather: the kinds of weather over the ground plane and the sim's clock, the wind with
 * its gusts and shake, and lightning. Pure and deterministic: uint32 hashes of the seed, the cell
 * and the period, IEEE basic operations, floor, sqrt and detmath (no libm transcendental), so a
 * place and a step give the same bits on every machine and in every replay. */
#include <math.h>
#include <string.h>

#include "sim/sim.h"

#define SALT_KIND 0x57ea7e31u
#define SALT_GUST 0x6a57b10cu
#define SALT_TURB 0x7ab0ca11u
#define SALT_STRIKE 0x11647a1bu
#define GUST_STEPS 90u     /* a gust rises and falls over about 1.5 s */
#define TURB_STEPS 10u     /* the shake changes every sixth of a second */
/* The voxel clouds' drift turns at the weather's period (world.h), so a front and the clouds
 * change course together. */
_Static_assert(WEATHER_PERIOD_STEPS == (unsigned)(WORLD_WIND_KNOT_S * SIM_STEP_HZ),
               "WORLD_WIND_KNOT_S is the weather's period");
#define STRIKE_WINDOW 100u /* at most one strike per window of steps */

typedef struct KindLook {
    const char *name;
    uint32_t share;         /* percent of cell-periods that draw it */
    float cover, rain, fog;
    float wind;             /* m/s mean wind */
    float turbulence;       /* 0..1 */
    float strikes;          /* chance of a strike per window at full weight */
} KindLook;

static const KindLook KINDS[WEATHER_KINDS] = {
    {"clear", 30, 0.10f, 0.0f, 0.0f, 3.0f, 0.0f, 0.0f},
    {"cloudy", 25, 0.45f, 0.0f, 0.0f, 5.0f, 0.05f, 0.0f},
    {"overcast", 15, 0.85f, 0.0f, 0.15f, 7.0f, 0.1f, 0.0f},
    {"rain", 12, 0.95f, 0.7f, 0.3f, 9.0f, 0.3f, 0.0f},
    {"storm", 8, 1.0f, 1.0f, 0.45f, 14.0f, 1.0f, 0.5f},
    {"fog", 10, 0.6f, 0.0f, 1.0f, 1.5f, 0.0f, 0.0f},
};

/* A flash's light over its steps: a bright strike, a dip, a second stroke, then fading. */
static const float FLASH_CURVE[WEATHER_FLASH_STEPS] = {1.0f, 0.55f, 0.9f, 0.7f, 0.35f, 0.2f, 0.1f, 0.05f};

const char *weather_kind_name(int kind) { return kind >= 0 && kind < WEATHER_KINDS ? KINDS[kind].name : NULL; }

int weather_kind_parse(const char *name) {
    if (!name) return -2;
    if (strcmp(name, "changing") == 0) return WEATHER_CHANGING;
    for (int k = 0; k < WEATHER_KINDS; k++)
        if (strcmp(name, KINDS[k].name) == 0) return k;
    return -2;
}

uint64_t weather_step_of(double time_s) { return time_s > 0.0 ? (uint64_t)(time_s * SIM_STEP_HZ + 0.5) : 0u; }

static float unit16(uint32_t h) { return (float)(h & 0xffffu) / 65536.0f; }
static float smooth(float t) { return t * t * (3.0f - 2.0f * t); }

/* A fresh world starts fair: the cells about the spawn (the home island stands at the origin)
 * draw clear or cloudy for their first WEATHER_FAIR_PERIODS periods, so a new player's first
 * minutes are dry; the weather drawn after them blends in over the period that follows. */
static bool fair_start(int32_t cx, int32_t cz, uint64_t period) {
    return period < WEATHER_FAIR_PERIODS && cx >= -WEATHER_FAIR_CELLS && cx < WEATHER_FAIR_CELLS &&
           cz >= -WEATHER_FAIR_CELLS && cz < WEATHER_FAIR_CELLS;
}

static WeatherKind cell_kind(uint32_t s, int32_t cx, int32_t cz, uint64_t period) {
    uint32_t h = hash3_u32(s ^ SALT_KIND, cx, cz, (int32_t)(uint32_t)period), r = h % 100u;
    WeatherKind kind = WEATHER_CLEAR;
    for (int k = 0; k < WEATHER_KINDS; k++) {
        if (r < KINDS[k].share) {
            kind = (WeatherKind)k;
            break;
        }
        r -= KINDS[k].share;
    }
    /* Fair cells keep a drawn clear or cloudy; any other kind draws again between the two. */
    if (kind > WEATHER_CLOUDY && fair_start(cx, cz, period))
        kind = (h >> 16) % (KINDS[WEATHER_CLEAR].share + KINDS[WEATHER_CLOUDY].share) < KINDS[WEATHER_CLEAR].share
                   ? WEATHER_CLEAR
                   : WEATHER_CLOUDY;
    return kind;
}

/* The cell's wind direction: the world's prevailing wind (world_prevailing_wind, which the voxel
 * clouds drift along) turned up to +-57 degrees per cell and period. */
static void cell_dir(uint32_t s, double prevail, int32_t cx, int32_t cz, uint64_t period, float out[2]) {
    double a = prevail + ((double)unit16(hash3_u32(s ^ WORLD_WIND_SALT_DIR, cx, cz, (int32_t)(uint32_t)period)) - 0.5) * 2.0;
    double sn, cs;
    det_sincos(a, &sn, &cs);
    out[0] = (float)cs;
    out[1] = (float)sn;
}

/* Value noise over steps in [0, 1): hashed knots every `period` steps, smoothstepped between. */
static float step_noise(uint32_t s, uint32_t salt, uint64_t step, uint32_t period) {
    uint64_t k = step / period;
    float t = smooth((float)(step % period) / (float)period);
    float a = unit16(hash3_u32(s ^ salt, (int32_t)(uint32_t)k, (int32_t)(uint32_t)(k >> 32), 0));
    float b = unit16(hash3_u32(s ^ salt, (int32_t)(uint32_t)(k + 1), (int32_t)(uint32_t)((k + 1) >> 32), 0));
    return a + (b - a) * t;
}

/* The kinds' weights and the mean wind: four cells by two periods, each sample's kind and
 * direction weighted bilinearly in space and by a smoothstep in time. */
static void blend_cells(uint64_t seed, int fixed_kind, double x, double z, uint64_t step, WeatherState *out) {
    uint32_t s = world_seed32(seed);
    double prevail = world_prevailing_wind(seed);
    double gx = x / WEATHER_CELL - 0.5, gz = z / WEATHER_CELL - 0.5;
    double fx0 = floor(gx), fz0 = floor(gz);
    float fx = smooth((float)(gx - fx0)), fz = smooth((float)(gz - fz0));
    uint64_t period = step / WEATHER_PERIOD_STEPS;
    float ft = smooth((float)(step % WEATHER_PERIOD_STEPS) / (float)WEATHER_PERIOD_STEPS);
    for (int i = 0; i < 8; i++) {
        int dx = i & 1, dz = (i >> 1) & 1, dt = i >> 2;
        int32_t cx = (int32_t)fx0 + dx, cz = (int32_t)fz0 + dz;
        float w = (dx ? fx : 1.0f - fx) * (dz ? fz : 1.0f - fz) * (dt ? ft : 1.0f - ft);
        WeatherKind k = fixed_kind >= 0 ? (WeatherKind)fixed_kind : cell_kind(s, cx, cz, period + (uint64_t)dt);
        float dir[2];
        cell_dir(s, prevail, cx, cz, period + (uint64_t)dt, dir);
        out->weight[k] += w;
        out->wind[0] += w * KINDS[k].wind * dir[0];
        out->wind[1] += w * KINDS[k].wind * dir[1];
    }
}

/* Cover, rain, fog and turbulence from the weights; the heaviest kind. */
static void blend_looks(WeatherState *out) {
    float best = -1.0f;
    for (int k = 0; k < WEATHER_KINDS; k++) {
        float w = out->weight[k];
        out->cover += w * KINDS[k].cover;
        out->rain += w * KINDS[k].rain;
        out->fog += w * KINDS[k].fog;
        out->turbulence += w * KINDS[k].turbulence;
        if (w > best) {
            best = w;
            out->kind = (WeatherKind)k;
        }
    }
}

/* The gust along the wind and the shake, both value noise over the steps. */
static void gusts(uint32_t s, uint64_t step, WeatherState *out) {
    float wx = out->wind[0], wz = out->wind[1];
    float len = sqrtf(wx * wx + wz * wz);
    out->wind_speed = len;
    out->gust = (0.25f * len + 6.0f * out->turbulence) * step_noise(s, SALT_GUST, step, GUST_STEPS);
    if (len > 1e-6f) {
        out->wind[0] += wx / len * out->gust;
        out->wind[1] += wz / len * out->gust;
    }
    static const float AXIS[3] = {5.0f, 3.0f, 5.0f};   /* m/s at full turbulence; less up and down */
    for (uint32_t a = 0; a < 3; a++) {
        float n = step_noise(s, SALT_TURB + a * 0x9e3779b9u, step, TURB_STEPS) * 2.0f - 1.0f;
        out->shake[a] = n;
        out->turb[a] = n * out->turbulence * AXIS[a];
    }
}

/* A strike of window `wi`, if that window has one where the storm's weight is `storm`. */
static bool strike_in(uint32_t s, uint64_t wi, float storm, uint64_t *start) {
    uint32_t h = hash3_u32(s ^ SALT_STRIKE, (int32_t)(uint32_t)wi, (int32_t)(uint32_t)(wi >> 32), 0);
    if (unit16(h) >= storm * KINDS[WEATHER_STORM].strikes) return false;
    *start = wi * STRIKE_WINDOW + (h >> 16) % (STRIKE_WINDOW - WEATHER_FLASH_STEPS);
    return true;
}

/* Lightning where a storm is: a strike within 3 km, placed around the 256 m square of (x, z) so
 * it holds still while the aircraft moves through its flash. */
static void lightning(uint32_t s, double x, double z, uint64_t step, WeatherState *out) {
    float storm = out->weight[WEATHER_STORM];
    uint64_t wi = step / STRIKE_WINDOW, start = 0;
    bool found = false;
    for (uint64_t back = 0; back < 2 && back <= wi && !found; back++)
        found = strike_in(s, wi - back, storm, &start) && step >= start && step - start < WEATHER_FLASH_STEPS;
    if (!found) return;
    uint64_t id = start / STRIKE_WINDOW;
    uint32_t h = hash3_u32(s ^ SALT_STRIKE, (int32_t)(uint32_t)id, (int32_t)(uint32_t)(id >> 32), 1);
    double sn, cs;
    det_sincos((double)unit16(h) * 6.283185307179586, &sn, &cs);
    double dist = 400.0 + (double)((h >> 16) % 2600u);
    out->flash_x = floor(x / 256.0) * 256.0 + cs * dist;
    out->flash_z = floor(z / 256.0) * 256.0 + sn * dist;
    double dx = out->flash_x - x, dz = out->flash_z - z;
    out->flash_dist = (float)sqrt(dx * dx + dz * dz);
    out->flash_id = (uint32_t)id + 1u;
    out->flash_age = (uint32_t)(step - start);
    out->flash = FLASH_CURVE[out->flash_age];
}

void weather_eval(uint64_t seed, int fixed_kind, double x, double z, uint64_t step, WeatherState *out) {
    memset(out, 0, sizeof *out);
    if (fixed_kind >= WEATHER_KINDS) fixed_kind = WEATHER_CHANGING;
    uint32_t s = world_seed32(seed);
    blend_cells(seed, fixed_kind, x, z, step, out);
    blend_looks(out);
    gusts(s, step, out);
    lightning(s, x, z, step, out);
}

uint64_t weather_state_hash(const WeatherState *w, uint64_t h) {
    const float f[] = {w->cover, w->rain, w->fog, w->wind[0], w->wind[1], w->wind_speed, w->gust, w->turbulence,
                       w->turb[0], w->turb[1], w->turb[2], w->flash, w->flash_dist};
    const uint32_t u[] = {(uint32_t)w->kind, w->flash_id, w->flash_age};
    const double d[] = {w->flash_x, w->flash_z};
    h = hash_fnv1a64(w->weight, sizeof w->weight, h);
    h = hash_fnv1a64(f, sizeof f, h);
    h = hash_fnv1a64(u, sizeof u, h);
    return hash_fnv1a64(d, sizeof d, h);
}
