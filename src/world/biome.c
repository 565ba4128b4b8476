/* skyisles biomes: temperature and humidity over the archipelago (C4, W6).
 *
 * Two 3-octave FBM fields over block columns, far lower in frequency than the islands, so one
 * biome spans several islands. Cold columns are snowy; hot ones are desert where dry and jungle
 * where wet; the rest temperate. Every split is a smoothstep over biome_blend field units, so
 * weights (and the palettes and vegetation chosen from them) change smoothly across a border. */
#include "world/world_internal.h"

#include <string.h>

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

void gen_biome_at(const WorldGen *g, int64_t bx, int64_t bz, BiomeSample *out) {
    NoiseWide x = noise_wide_mul_int(g->f_biome, bx), z = noise_wide_mul_int(g->f_biome, bz);
    float t = noise_fbm2_w(g->s_temp, &g->fb_biome, x, z);
    float u = noise_fbm2_w(g->s_humid, &g->fb_biome, x, z);
    gen_biome_weights(g, t, u, out);
}

/* Humidity only splits hot columns: where smooth01 leaves `hot` exactly 0 (temperature at or
 * below BIOME_HOT - h), desert and jungle are 0 * (1 - wet) and 0 * wet, +0 for every wet in
 * [0, 1], so those weights do not read it. */
static bool row_has_hot(const WorldGen *g, const float *t, int n) {
    float h = 0.5f * g->p.biome_blend;
    for (int i = 0; i < n; i++)
        if (!(smooth01(BIOME_HOT - h, BIOME_HOT + h, t[i]) == 0.0f)) return true;
    return false;
}

void gen_biome_row(const WorldGen *g, int64_t bx0, int32_t step, int64_t bz, BiomeSample *out, int n) {
    float t[64], u[64];
    if (n > 64) n = 64;
    if (n <= 0) return;
    NoiseWide x0 = noise_wide_mul_int(g->f_biome, bx0), z = noise_wide_mul_int(g->f_biome, bz);
    NoiseFx dx = noise_fx_mul_int(g->f_biome, step);
    noise_fbm2_row_w(g->s_temp, &g->fb_biome, x0, dx, z, t, n);
    if (row_has_hot(g, t, n)) noise_fbm2_row_w(g->s_humid, &g->fb_biome, x0, dx, z, u, n);
    else memset(u, 0, sizeof(float) * (size_t)n);
    for (int i = 0; i < n; i++) gen_biome_weights(g, t[i], u[i], &out[i]);
}

void gen_biome_plane(const WorldGen *g, int64_t bx0, int64_t bz0, int32_t step, BiomeSample *out, int stride, int n,
                     int rows) {
    float t[GEN_BIOME_PLANE_MAX], u[GEN_BIOME_PLANE_MAX];
    if (n <= 0 || rows <= 0 || n * rows > GEN_BIOME_PLANE_MAX) return;
    const NoiseWide x0 = noise_wide_mul_int(g->f_biome, bx0), z0 = noise_wide_mul_int(g->f_biome, bz0);
    const NoiseFx d = noise_fx_mul_int(g->f_biome, step);
    noise_fbm2_rows_w(g->s_temp, &g->fb_biome, x0, d, z0, d, t, n, n, rows);
    if (row_has_hot(g, t, n * rows)) noise_fbm2_rows_w(g->s_humid, &g->fb_biome, x0, d, z0, d, u, n, n, rows);
    else memset(u, 0, sizeof(float) * (size_t)(n * rows));
    for (int r = 0; r < rows; r++)
        for (int i = 0; i < n; i++) gen_biome_weights(g, t[r * n + i], u[r * n + i], &out[r * stride + i]);
}

/* The weights at the chunk's sample columns: the fields on a lattice of GEN_BIOME_STEP blocks
 * (world multiples of 8, so every chunk and LOD reads the same lattice values), the weights
 * interpolated bilinearly between them with a fixed order of float operations. The fields
 * change over thousands of blocks, so 8 blocks apart the lerp is within 1e-4 of a direct
 * sample; it is exact on the lattice (a lerp at t = 0 returns its first end). */
void gen_biome_chunk(const WorldGen *g, int64_t bx0, int64_t bz0, int scale, int off, int n,
                     float out[CHUNK_SIZE][CHUNK_SIZE][BIOME_COUNT]) {
    enum { L = CHUNK_SIZE / GEN_BIOME_STEP + 1 };
    BiomeSample lat[L][L];
    bool plain = true;
    gen_biome_plane(g, bx0, bz0, GEN_BIOME_STEP, &lat[0][0], L, L, L);
    for (int k = 0; k < L; k++)
        for (int i = 0; i < L; i++) plain &= lat[k][i].w[BIOME_TEMPERATE] == 1.0f;
    if (plain) {
        for (int z = 0; z < n; z++)
            for (int x = 0; x < n; x++) {
                float *w = out[z][x];
                w[BIOME_TEMPERATE] = 1.0f;
                for (int b = 1; b < BIOME_COUNT; b++) w[b] = 0.0f;
            }
        return;
    }
    /* The four biomes' weights as the lanes of one vector: per lane the same operations. The x
     * lerps of a lattice row pair are the same for every z between them, so they are taken once
     * per pair (u and v - u per column), then the z lerp per row. */
    _Static_assert(BIOME_COUNT == 4, "one vector holds a column's biome weights");
    int kxs[CHUNK_SIZE];
    f32x4 txs[CHUNK_SIZE], u[CHUNK_SIZE], dv[CHUNK_SIZE];
    for (int x = 0; x < n; x++) {
        int p = x * scale + off;
        kxs[x] = p / GEN_BIOME_STEP;
        txs[x] = f32x4_set1((float)(p % GEN_BIOME_STEP) * (1.0f / GEN_BIOME_STEP));
    }
    int kz_done = -1;
    for (int z = 0; z < n; z++) {
        int q = z * scale + off, kz = q / GEN_BIOME_STEP;
        const f32x4 tzv = f32x4_set1((float)(q % GEN_BIOME_STEP) * (1.0f / GEN_BIOME_STEP));
        if (kz != kz_done) {
            for (int x = 0; x < n; x++) {
                const BiomeSample *a = &lat[kz][kxs[x]], *b = a + 1, *c = &lat[kz + 1][kxs[x]], *d = c + 1;
                f32x4 wa = f32x4_load(a->w), wc = f32x4_load(c->w);
                f32x4 uu = f32x4_add(wa, f32x4_mul(f32x4_sub(f32x4_load(b->w), wa), txs[x]));
                f32x4 vv = f32x4_add(wc, f32x4_mul(f32x4_sub(f32x4_load(d->w), wc), txs[x]));
                u[x] = uu;
                dv[x] = f32x4_sub(vv, uu);
            }
            kz_done = kz;
        }
        for (int x = 0; x < n; x++) f32x4_store(out[z][x], f32x4_add(u[x], f32x4_mul(dv[x], tzv)));
    }
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
