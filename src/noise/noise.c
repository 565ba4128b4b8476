/* skyisles noise: single-point reference implementations and FBM plans. The batched
 * kernels (kernels.inc) repeat these float operations in the same order. */
#include <string.h>

#include "noise/noise_internal.h"

/* ---------------------------------------------------------------- bit helpers */
/* Selections work on the float bits with all-ones/zero masks, exactly like the SIMD
 * kernels (and without data-dependent branches). Flipping the sign bit is negation. */
static inline uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }
static inline float bitsf(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }
static inline uint32_t mask_of(uint32_t cond) { return 0u - cond; }   /* cond is 0 or 1 */
static inline float fsel(uint32_t m, float a, float b) { return bitsf((fbits(a) & m) | (fbits(b) & ~m)); }
static inline float fflip(float a, uint32_t sign) { return bitsf(fbits(a) ^ (sign & 0x80000000u)); }

/* ---------------------------------------------------------------- gradients */
/* Perlin's improved set, 16 entries over the 12 cube edges, from the top nibble b = h >> 28:
 * u = b < 8 ? x : y;  v = b < 4 ? y : (b == 12 || b == 14 ? x : z);  signs from bits 0, 1. */
static inline float grad3(uint32_t h, float x, float y, float z) {
    float u = fsel(mask_of(h >> 31), y, x);
    uint32_t use_y = mask_of((h & 0xc0000000u) == 0u);
    uint32_t use_x = mask_of((h & 0xd0000000u) == 0xc0000000u);
    float v = fsel(use_y, y, fsel(use_x, x, z));
    return fflip(u, h << 3) + fflip(v, h << 2);
}

/* 8 directions (+-1, +-2) and (+-2, +-1) from the top 3 bits: b & 4 swaps, bits 0, 1 sign. */
static inline float grad2(uint32_t h, float x, float y) {
    uint32_t swap = mask_of(h >> 31);
    float u = fsel(swap, y, x);
    float v = fsel(swap, x, y);
    v = v + v;
    return fflip(u, h << 2) + fflip(v, h << 1);
}

static inline float clamp1(float v) {
    v = v < -1.0f ? -1.0f : v;
    return v > 1.0f ? 1.0f : v;
}

static inline float simplex3_corner(uint32_t h, float x, float y, float z) {
    float t = 0.5f - x * x - y * y - z * z;
    float t2 = t * t;
    float t4 = t2 * t2;
    float n = t4 * grad3(h, x, y, z);
    return bitsf(fbits(n) & mask_of(t > NOISE_T_MIN));
}

static inline float simplex2_corner(uint32_t h, float x, float y) {
    float t = 0.5f - x * x - y * y;
    float t2 = t * t;
    float t4 = t2 * t2;
    float n = t4 * grad2(h, x, y);
    return bitsf(fbits(n) & mask_of(t > NOISE_T_MIN));
}

/* ---------------------------------------------------------------- simplex 3D */
static const uint32_t no_add[8];

float noise_simplex3_core(uint32_t sm, uint64_t x, uint64_t y, uint64_t z, const uint32_t *add) {
    if (!add) add = no_add;
    /* Skew into the cubic lattice in integers: X' = x + F(x+y+z), one part per axis. */
    uint64_t s = noise_skew_part(x, NOISE_F3_FX) + noise_skew_part(y, NOISE_F3_FX) + noise_skew_part(z, NOISE_F3_FX);
    uint64_t sx = x + s, sy = y + s, sz = z + s;
    uint32_t i = noise_fx_hi(sx), j = noise_fx_hi(sy), k = noise_fx_hi(sz);
    float fx = noise_frac_float(noise_fx_lo(sx));
    float fy = noise_frac_float(noise_fx_lo(sy));
    float fz = noise_frac_float(noise_fx_lo(sz));

    /* Which of the six simplices of the cell: order of the skewed fractions. */
    uint32_t cxy = fx >= fy, cyz = fy >= fz, cxz = fx >= fz;
    uint32_t i1 = cxy & cxz, j1 = (cxy ^ 1u) & cyz, k1 = (cxz ^ 1u) & (cyz ^ 1u);
    uint32_t i2 = cxy | cxz, j2 = (cxy ^ 1u) | cyz, k2 = (cxz ^ 1u) | (cyz ^ 1u);

    /* Unskewed offsets to the four corners, from the in-cell fractions only. */
    float g = (fx + fy + fz) * NOISE_G3;
    float x0 = fx - g, y0 = fy - g, z0 = fz - g;
    float x1 = x0 - (float)i1 + NOISE_G3, y1 = y0 - (float)j1 + NOISE_G3, z1 = z0 - (float)k1 + NOISE_G3;
    float x2 = x0 - (float)i2 + NOISE_G3X2, y2 = y0 - (float)j2 + NOISE_G3X2, z2 = z0 - (float)k2 + NOISE_G3X2;
    float x3 = x0 - 0.5f, y3 = y0 - 0.5f, z3 = z0 - 0.5f;

    /* Corner hash inputs: seed + i*PX + j*PY + k*PZ, so a neighbour corner adds P. */
    uint32_t base = sm + i * NOISE_PX + j * NOISE_PY + k * NOISE_PZ;
    uint32_t h0 = noise_hash_finish(base + add[0]);
    uint32_t h1 = noise_hash_finish(base + (i1 * NOISE_PX | j1 * NOISE_PY | k1 * NOISE_PZ) + add[i1 | j1 << 1 | k1 << 2]);
    uint32_t h2 = noise_hash_finish(base + (i2 * NOISE_PX + j2 * NOISE_PY + k2 * NOISE_PZ) + add[i2 | j2 << 1 | k2 << 2]);
    uint32_t h3 = noise_hash_finish(base + (NOISE_PX + NOISE_PY + NOISE_PZ) + add[7]);

    float n0 = simplex3_corner(h0, x0, y0, z0);
    float n1 = simplex3_corner(h1, x1, y1, z1);
    float n2 = simplex3_corner(h2, x2, y2, z2);
    float n3 = simplex3_corner(h3, x3, y3, z3);
    return clamp1((n0 + n1 + n2 + n3) * NOISE_SIMPLEX3_SCALE);
}

/* ---------------------------------------------------------------- simplex 2D */
float noise_simplex2_core(uint32_t sm, uint64_t x, uint64_t y, const uint32_t *add) {
    if (!add) add = no_add;
    uint64_t s = noise_skew_part(x, NOISE_F2_FX) + noise_skew_part(y, NOISE_F2_FX);
    uint64_t sx = x + s, sy = y + s;
    uint32_t i = noise_fx_hi(sx), j = noise_fx_hi(sy);
    float fx = noise_frac_float(noise_fx_lo(sx));
    float fy = noise_frac_float(noise_fx_lo(sy));

    uint32_t i1 = fx >= fy, j1 = i1 ^ 1u;
    float g = (fx + fy) * NOISE_G2;
    float x0 = fx - g, y0 = fy - g;
    float x1 = x0 - (float)i1 + NOISE_G2, y1 = y0 - (float)j1 + NOISE_G2;
    float x2 = x0 + NOISE_G2X2M1, y2 = y0 + NOISE_G2X2M1;

    uint32_t base = sm + i * NOISE_PX + j * NOISE_PY;
    uint32_t h0 = noise_hash_finish(base + add[0]);
    uint32_t h1 = noise_hash_finish(base + (i1 ? NOISE_PX : NOISE_PY) + add[i1 | j1 << 1]);
    uint32_t h2 = noise_hash_finish(base + (NOISE_PX + NOISE_PY) + add[3]);

    float n0 = simplex2_corner(h0, x0, y0);
    float n1 = simplex2_corner(h1, x1, y1);
    float n2 = simplex2_corner(h2, x2, y2);
    return clamp1((n0 + n1 + n2) * NOISE_SIMPLEX2_SCALE);
}

/* ---------------------------------------------------------------- Perlin 3D */
static inline float fade5(float t) { return t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f); }
static inline float lerpf(float t, float a, float b) { return a + t * (b - a); }

float noise_perlin3_core(uint32_t sm, uint64_t x, uint64_t y, uint64_t z, const uint32_t *add) {
    if (!add) add = no_add;
    uint32_t i = noise_fx_hi(x), j = noise_fx_hi(y), k = noise_fx_hi(z);
    float fx = noise_frac_float(noise_fx_lo(x));
    float fy = noise_frac_float(noise_fx_lo(y));
    float fz = noise_frac_float(noise_fx_lo(z));
    float gx = fx - 1.0f, gy = fy - 1.0f, gz = fz - 1.0f;
    float u = fade5(fx), v = fade5(fy), w = fade5(fz);

    uint32_t ip0 = i * NOISE_PX, ip1 = ip0 + NOISE_PX;
    uint32_t a0 = sm + j * NOISE_PY + k * NOISE_PZ;   /* corner (0,0,0); then +PY, +PZ */
    uint32_t a1 = a0 + NOISE_PY, a2 = a0 + NOISE_PZ, a3 = a0 + NOISE_PY + NOISE_PZ;

    float n000 = grad3(noise_hash_finish(a0 + ip0 + add[0]), fx, fy, fz);
    float n100 = grad3(noise_hash_finish(a0 + ip1 + add[1]), gx, fy, fz);
    float n010 = grad3(noise_hash_finish(a1 + ip0 + add[2]), fx, gy, fz);
    float n110 = grad3(noise_hash_finish(a1 + ip1 + add[3]), gx, gy, fz);
    float n001 = grad3(noise_hash_finish(a2 + ip0 + add[4]), fx, fy, gz);
    float n101 = grad3(noise_hash_finish(a2 + ip1 + add[5]), gx, fy, gz);
    float n011 = grad3(noise_hash_finish(a3 + ip0 + add[6]), fx, gy, gz);
    float n111 = grad3(noise_hash_finish(a3 + ip1 + add[7]), gx, gy, gz);

    float x00 = lerpf(u, n000, n100), x10 = lerpf(u, n010, n110);
    float x01 = lerpf(u, n001, n101), x11 = lerpf(u, n011, n111);
    float y0 = lerpf(v, x00, x10), y1 = lerpf(v, x01, x11);
    return clamp1(lerpf(w, y0, y1) * NOISE_PERLIN3_SCALE);
}

/* ---------------------------------------------------------------- wide frames */
static inline NoiseI128 i128_one_shl(int k) { return (NoiseI128)((unsigned __int128)1 << k); }

/* floor(v * f / 2^32) for a 0.32 fraction f (the skew part of one axis). */
static inline NoiseI128 wide_skew(NoiseI128 v, uint32_t f) {
    return (NoiseI128)((unsigned __int128)v * (unsigned __int128)f) >> 32;
}

static inline int64_t wide_frame(NoiseI128 v) { return (int64_t)((v + i128_one_shl(63)) >> 64); }
static inline int64_t wide_band(NoiseI128 cell) { return (int64_t)((cell + i128_one_shl(31)) >> 32); }

/* q(axis, band): 0 for band 0, else a 64-bit mix of the band and the axis. */
static inline uint32_t band_add(int axis, int64_t b) {
    if (b == 0) return 0u;
    uint64_t v = (uint64_t)b * 0x9e3779b97f4a7c15ull + (uint64_t)(axis + 1) * 0xd1b54a32d192ed03ull;
    v ^= v >> 31; v *= 0xbf58476d1ce4e5b9ull;
    v ^= v >> 27; v *= 0x94d049bb133111ebull;
    v ^= v >> 31;
    return (uint32_t)v;
}

typedef struct LatInfo {
    int axes;
    uint32_t f;          /* skew fraction, 0 for Perlin */
    uint32_t psum;       /* PX + PY (+ PZ) */
} LatInfo;

static LatInfo lat_info(NoiseLattice lat) {
    LatInfo li = {3, NOISE_F3_FX, NOISE_PX + NOISE_PY + NOISE_PZ};
    if (lat == NOISE_LAT_SIMPLEX2) li.axes = 2, li.f = NOISE_F2_FX, li.psum = NOISE_PX + NOISE_PY;
    if (lat == NOISE_LAT_PERLIN3) li.f = 0;
    return li;
}

/* The true lattice cells of a point (skewed for simplex) and the skew's hash addition
 * D * (sum of P) of its frames. */
static uint32_t lattice_cells(const LatInfo *li, const NoiseI128 v[3], NoiseI128 cell[3]) {
    NoiseI128 s = 0;
    uint64_t msum = 0;
    for (int a = 0; a < li->axes; a++) {
        if (li->f) s += wide_skew(v[a], li->f);
        msum += (uint64_t)wide_frame(v[a]);
    }
    for (int a = 0; a < li->axes; a++) cell[a] = (v[a] + s) >> 32;
    return (uint32_t)(li->f * (uint32_t)msum) * li->psum;
}

/* |v| < 2^61 (2^29 cells): frame 0, and a skewed cell stays below 2^29 * (1 + 3F) < 2^31 - 1 on
 * every axis, so its band and its +1 corner's are 0: nothing to add (the world near the origin). */
static inline bool near_origin(NoiseI128 v) {
    return (unsigned __int128)(v + i128_one_shl(61)) < ((unsigned __int128)1 << 62);
}

void noise_point_frame(NoiseLattice lat, NoiseI128 x, NoiseI128 y, NoiseI128 z, NoisePointFrame *f) {
    if (near_origin(x) && near_origin(y) && near_origin(z)) {
        f->x = (uint64_t)x, f->y = (uint64_t)y, f->z = lat == NOISE_LAT_SIMPLEX2 ? 0u : (uint64_t)z;
        memset(f->add, 0, sizeof f->add);
        return;
    }
    LatInfo li = lat_info(lat);
    NoiseI128 v[3] = {x, y, z}, cell[3] = {0, 0, 0};
    uint32_t d = lattice_cells(&li, v, cell);
    f->x = (uint64_t)x, f->y = (uint64_t)y, f->z = li.axes == 3 ? (uint64_t)z : 0u;
    uint32_t q[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    for (int a = 0; a < li.axes; a++) {
        int64_t b = wide_band(cell[a]);
        q[a][0] = band_add(a, b);
        /* The +1 corner leaves the band only from its last cell. */
        q[a][1] = (uint32_t)cell[a] == 0x7fffffffu ? band_add(a, b + 1) : q[a][0];
    }
    for (int c = 0; c < 8; c++)
        f->add[c] = d + q[0][c & 1] + q[1][(c >> 1) & 1] + q[2][(c >> 2) & 1];
}

bool noise_batch_add(NoiseLattice lat, const NoiseI128 lo[3], const NoiseI128 hi[3], uint32_t *add) {
    if (near_origin(lo[0]) && near_origin(lo[1]) && near_origin(lo[2]) && near_origin(hi[0]) && near_origin(hi[1]) &&
        near_origin(hi[2])) {
        *add = 0u;
        return true;
    }
    LatInfo li = lat_info(lat);
    NoiseI128 clo[3] = {0, 0, 0}, chi[3] = {0, 0, 0};
    uint32_t d = lattice_cells(&li, lo, clo);
    lattice_cells(&li, hi, chi);
    uint32_t sum = d;
    for (int a = 0; a < li.axes; a++) {
        if (wide_frame(lo[a]) != wide_frame(hi[a])) return false;
        int64_t b = wide_band(clo[a]);
        if (wide_band(chi[a] + 1) != b) return false;
        sum += band_add(a, b);
    }
    *add = sum;
    return true;
}

/* ---------------------------------------------------------------- public single-point */
static float simplex3_at(uint32_t sm, NoiseI128 x, NoiseI128 y, NoiseI128 z) {
    NoisePointFrame f;
    noise_point_frame(NOISE_LAT_SIMPLEX3, x, y, z, &f);
    return noise_simplex3_core(sm, f.x, f.y, f.z, f.add);
}

static float simplex2_at(uint32_t sm, NoiseI128 x, NoiseI128 y) {
    NoisePointFrame f;
    noise_point_frame(NOISE_LAT_SIMPLEX2, x, y, 0, &f);
    return noise_simplex2_core(sm, f.x, f.y, f.add);
}

float noise_simplex3_w(uint32_t seed, NoiseWide x, NoiseWide y, NoiseWide z) {
    return simplex3_at(noise_seed_mix(seed), noise_wide_i128(x), noise_wide_i128(y), noise_wide_i128(z));
}

float noise_simplex2_w(uint32_t seed, NoiseWide x, NoiseWide y) {
    return simplex2_at(noise_seed_mix(seed), noise_wide_i128(x), noise_wide_i128(y));
}

float noise_perlin3_w(uint32_t seed, NoiseWide x, NoiseWide y, NoiseWide z) {
    NoisePointFrame f;
    noise_point_frame(NOISE_LAT_PERLIN3, noise_wide_i128(x), noise_wide_i128(y), noise_wide_i128(z), &f);
    return noise_perlin3_core(noise_seed_mix(seed), f.x, f.y, f.z, f.add);
}

float noise_simplex3(uint32_t seed, NoiseFx x, NoiseFx y, NoiseFx z) {
    return noise_simplex3_w(seed, noise_wide_from_fx(x), noise_wide_from_fx(y), noise_wide_from_fx(z));
}

float noise_simplex2(uint32_t seed, NoiseFx x, NoiseFx y) {
    return noise_simplex2_w(seed, noise_wide_from_fx(x), noise_wide_from_fx(y));
}

float noise_perlin3(uint32_t seed, NoiseFx x, NoiseFx y, NoiseFx z) {
    return noise_perlin3_w(seed, noise_wide_from_fx(x), noise_wide_from_fx(y), noise_wide_from_fx(z));
}

float noise_ridge3(uint32_t seed, NoiseFx x, NoiseFx y, NoiseFx z) {
    float n = noise_simplex3(seed, x, y, z);
    return 1.0f - (n < 0.0f ? -n : n);
}

/* ---------------------------------------------------------------- FBM */
void noise_fbm_plan(NoiseFbmPlan *p, uint32_t seed, const NoiseFbm *f) {
    NoiseFbm d = noise_fbm_default();
    if (!f) f = &d;
    uint32_t oct = f->octaves;
    if (oct < 1u) oct = 1u;
    if (oct > NOISE_FBM_MAX_OCTAVES) oct = NOISE_FBM_MAX_OCTAVES;
    p->octaves = oct;

    int64_t lac = noise_fx_from_double((double)f->lacunarity);
    int m = -1;   /* lacunarity == 2^m exactly, 1 <= m <= 30 */
    uint64_t whole = (uint64_t)lac >> 32;
    if (lac > 0 && ((uint64_t)lac & 0xffffffffu) == 0 && whole >= 2u && whole <= (1u << 30) && !(whole & (whole - 1u)))
        m = __builtin_ctzll(whole);

    float amp = 1.0f, sum = 0.0f;
    int64_t scale = NOISE_FX_ONE;
    for (uint32_t k = 0; k < oct; k++) {
        /* Octave 0 keeps the caller's seed, so fbm with one octave is the plain noise. */
        uint32_t s = k == 0 ? seed : hash_u32(seed + k * 0x9e3779b9u);
        p->seed_mix[k] = noise_seed_mix(s);
        p->amp[k] = amp;
        p->scale[k] = scale;
        p->shift[k] = k == 0 ? 0 : (m > 0 && (int)k * m < 63) ? (int)k * m : -1;
        sum = sum + amp;
        amp = amp * f->gain;
        scale = (int64_t)noise_fx_mul(scale, lac);
    }
    p->inv_norm = sum != 0.0f ? 1.0f / sum : 0.0f;
}

static inline float fbm_finish(const NoiseFbmPlan *p, float acc) { return clamp1(acc * p->inv_norm); }

/* The plans a thread asked for last: a point's FBM and a row's are asked for again and again with
 * the same few seeds and settings (the world's fields), and a plan's set-up (the octaves' seeds and
 * factors) costs more than an octave. Four per thread, the oldest replaced; a plan is a pure
 * function of its key, so a cached one is the same plan. */
#define PLAN_CACHE 4
typedef struct PlanEntry {
    bool used;
    uint32_t seed, octaves, gain, lacunarity;   /* the key (the floats' bits) */
    NoiseFbmPlan p;
} PlanEntry;
static _Thread_local PlanEntry plan_cache[PLAN_CACHE];
static _Thread_local uint32_t plan_next;

const NoiseFbmPlan *noise_fbm_plan_cached(uint32_t seed, const NoiseFbm *f) {
    NoiseFbm d = noise_fbm_default();
    if (!f) f = &d;
    uint32_t gain = fbits(f->gain), lac = fbits(f->lacunarity);
    for (int i = 0; i < PLAN_CACHE; i++) {
        const PlanEntry *e = &plan_cache[i];
        if (e->used && e->seed == seed && e->octaves == f->octaves && e->gain == gain && e->lacunarity == lac)
            return &e->p;
    }
    PlanEntry *e = &plan_cache[plan_next++ % PLAN_CACHE];
    noise_fbm_plan(&e->p, seed, f);
    e->used = true;
    e->seed = seed, e->octaves = f->octaves, e->gain = gain, e->lacunarity = lac;
    return &e->p;
}

float noise_fbm3_w(uint32_t seed, const NoiseFbm *f, NoiseWide x, NoiseWide y, NoiseWide z) {
    const NoiseFbmPlan *p = noise_fbm_plan_cached(seed, f);
    NoiseI128 vx = noise_wide_i128(x), vy = noise_wide_i128(y), vz = noise_wide_i128(z);
    float acc = 0.0f;
    for (uint32_t k = 0; k < p->octaves; k++) {
        float n = simplex3_at(p->seed_mix[k], noise_octave_wide(p, k, vx), noise_octave_wide(p, k, vy),
                              noise_octave_wide(p, k, vz));
        acc = acc + p->amp[k] * n;
    }
    return fbm_finish(p, acc);
}

float noise_fbm2_w(uint32_t seed, const NoiseFbm *f, NoiseWide x, NoiseWide y) {
    const NoiseFbmPlan *p = noise_fbm_plan_cached(seed, f);
    NoiseI128 vx = noise_wide_i128(x), vy = noise_wide_i128(y);
    float acc = 0.0f;
    for (uint32_t k = 0; k < p->octaves; k++) {
        float n = simplex2_at(p->seed_mix[k], noise_octave_wide(p, k, vx), noise_octave_wide(p, k, vy));
        acc = acc + p->amp[k] * n;
    }
    return fbm_finish(p, acc);
}

float noise_fbm3(uint32_t seed, const NoiseFbm *f, NoiseFx x, NoiseFx y, NoiseFx z) {
    return noise_fbm3_w(seed, f, noise_wide_from_fx(x), noise_wide_from_fx(y), noise_wide_from_fx(z));
}

float noise_fbm2(uint32_t seed, const NoiseFbm *f, NoiseFx x, NoiseFx y) {
    return noise_fbm2_w(seed, f, noise_wide_from_fx(x), noise_wide_from_fx(y));
}

float noise_ridge_fbm3(uint32_t seed, const NoiseFbm *f, NoiseFx x, NoiseFx y, NoiseFx z) {
    float n = noise_fbm3(seed, f, x, y, z);
    return 1.0f - (n < 0.0f ? -n : n);
}
