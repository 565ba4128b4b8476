/* skyisles biomes: temperature and humidity over the archipelago (C4, W6).
 *
 * Two 3-octave FBM fields over block columns, far lower in frequency than the islands, so one
 * biome spans several islands. Cold columns are snowy; hot ones are desert where dry and jungle
 * where wet; the rest temperate. Every split is a smoothstep over biome_blend field units, so
 * weights (and the palettes and vegetation chosen from them) change smoothly across a border. */
#include "world/world_internal.h"

static float smooth01(float e0, float e1, float x) {
    float t = (x - e0) / (e1 - e0);
    t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
    return t * t * (3.0f - 2.0f * t);
}

/* Thresholds in field units: colder than -0.22 is snowy, hotter than +0.22 is hot; a hot
 * column is desert below humidity 0 and jungle above it. FBM of three octaves mostly stays
 * within +-0.6, so each biome covers a fair share of the map. */
#define BIOME_COLD (-0.22f)
#define BIOME_HOT 0.22f
#define BIOME_WET 0.0f

void gen_biome_weights(const WorldGen *g, float temperature, float humidity, BiomeSample *out) {
    float h = 0.5f * g->p.biome_blend;
    float cold = smooth01(BIOME_COLD + h, BIOME_COLD - h, temperature);
    float hot = smooth01(BIOME_HOT - h, BIOME_HOT + h, temperature);
    float wet = smooth01(BIOME_WET - h, BIOME_WET + h, humidity);
    out->temperature = temperature;
    out->humidity = humidity;
    out->w[BIOME_SNOWY] = cold;
    out->w[BIOME_DESERT] = hot * (1.0f - wet);
    out->w[BIOME_JUNGLE] = hot * wet;
    float t = 1.0f - cold - hot;   /* the thresholds are apart by more than the blend */
    out->w[BIOME_TEMPERATE] = t > 0.0f ? t : 0.0f;
    float sum = 0.0f;
    for (int b = 0; b < BIOME_COUNT; b++) sum += out->w[b];
    WorldBiome best = BIOME_TEMPERATE;
    for (int b = 0; b < BIOME_COUNT; b++) {
        out->w[b] /= sum;
        if (out->w[b] > out->w[best]) best = (WorldBiome)b;
    }
    out->main = best;
}

void gen_biome_at(const WorldGen *g, int32_t bx, int32_t bz, BiomeSample *out) {
    NoiseFx x = noise_fx_mul_int(g->f_biome, bx), z = noise_fx_mul_int(g->f_biome, bz);
    float t = noise_fbm2(g->s_temp, &g->fb_biome, x, z);
    float u = noise_fbm2(g->s_humid, &g->fb_biome, x, z);
    gen_biome_weights(g, t, u, out);
}

void gen_biome_row(const WorldGen *g, int32_t bx0, int32_t step, int32_t bz, BiomeSample *out, int n) {
    float t[64], u[64];
    if (n > 64) n = 64;
    NoiseFx x0 = noise_fx_mul_int(g->f_biome, bx0), dx = noise_fx_mul_int(g->f_biome, step);
    NoiseFx z = noise_fx_mul_int(g->f_biome, bz);
    noise_fbm2_row(g->s_temp, &g->fb_biome, x0, dx, z, t, n);
    noise_fbm2_row(g->s_humid, &g->fb_biome, x0, dx, z, u, n);
    for (int i = 0; i < n; i++) gen_biome_weights(g, t[i], u[i], &out[i]);
}

const char *gen_biome_name(WorldBiome b) {
    switch (b) {
    case BIOME_TEMPERATE: return "temperate";
    case BIOME_SNOWY: return "snowy";
    case BIOME_DESERT: return "desert";
    case BIOME_JUNGLE: return "jungle";
    default: return "?";
    }
}
