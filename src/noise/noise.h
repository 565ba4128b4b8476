/* skyisles noise: the one public header of src/noise.
 * Seedable gradient noise (simplex 2D/3D, Perlin 3D), FBM and ridge, single-point and
 * batched rows (NEON / SSE2 / AVX2 / scalar, bit-identical), plus the sky's value noise. */
#ifndef SKYISLES_NOISE_H
#define SKYISLES_NOISE_H

#include <stdbool.h>
#include <stdint.h>

/* ---------------------------------------------------------------- coordinates */
/* Noise-space coordinates are signed 32.32 fixed point: the high 32 bits are the lattice
 * cell, the low 32 bits the position inside it. Integer maths end to end, so there is no
 * float-to-int conversion to overflow and a batched row computes exactly the points the
 * single-point call sees.
 *
 * Any int64 value is a valid coordinate: a NoiseFx call is its wide call (NoiseWide, below)
 * at the sign-extended coordinate, so every function is defined and continuous everywhere; a
 * row runs on past 2^63 exactly. Coordinates past +-2^31 cells (the world's, far out) take the
 * wide calls. Inside a cell only the top 24 fraction bits are used (1/16777216 cell).
 * Typical use: freq = noise_fx_from_double(0.04); x = noise_fx_mul_int(freq, block_x). */
typedef int64_t NoiseFx;

#define NOISE_FX_ONE ((NoiseFx)1 << 32)

/* Round to nearest (halves away from zero), saturating at the int64 ends; NaN gives 0. */
static inline NoiseFx noise_fx_from_double(double v) {
    double s = v * 4294967296.0;
    if (!(s == s)) return 0;
    if (s >= 9223372036854775807.0) return INT64_MAX;     /* the literal is 2^63 */
    if (s <= -9223372036854775807.0) return INT64_MIN;
    int64_t t = (int64_t)s;                                 /* truncates toward zero */
    double r = s - (double)t;                               /* exact: |s| < 2^63 */
    if (r >= 0.5) t++;
    else if (r <= -0.5) t--;
    return t;
}

static inline NoiseFx noise_fx_from_int(int32_t v) { return (NoiseFx)v * NOISE_FX_ONE; }

static inline double noise_fx_to_double(NoiseFx v) { return (double)v * (1.0 / 4294967296.0); }

/* block * freq modulo 2^64: the low 64 bits of the exact product for any int64 block (a row's
 * step, or a coordinate within +-2^31 cells); noise_wide_mul_int gives the whole product. */
static inline NoiseFx noise_fx_mul_int(NoiseFx freq, int64_t block) {
    return (NoiseFx)((uint64_t)freq * (uint64_t)block);
}

/* pos * freq for a continuous position (the collision query): pos split into its floor (an
 * integer, taken exactly by noise_fx_mul_int) and its fraction in [0, 1) (rounded to the
 * nearest 2^-32 of freq * fraction). So at an integer pos it is noise_fx_mul_int(freq, pos)
 * exactly, at any distance, and the point query at a block corner sees the chunk generator's
 * value. NaN, infinities and |pos| >= 2^62 give 0. */
static inline NoiseFx noise_fx_scale(NoiseFx freq, double pos) {
    if (!(pos > -4611686018427387904.0 && pos < 4611686018427387904.0)) return 0;   /* 2^62 */
    int64_t whole = (int64_t)pos;                          /* truncates toward zero */
    if ((double)whole > pos) whole--;                      /* floor for negative fractions */
    double frac = pos - (double)whole;                     /* exact: both in the same binade or 0 */
    return (NoiseFx)((uint64_t)noise_fx_mul_int(freq, whole) +
                     (uint64_t)noise_fx_from_double(frac * noise_fx_to_double(freq)));
}

/* ---------------------------------------------------------------- wide coordinates */
/* A 128-bit 32.32 coordinate, hi * 2^64 + lo: the lattice without an edge. freq * block for
 * any int64 block is exact here (noise_wide_mul_int), so a field has no wrap a world reaches:
 * the _w calls below hash the whole cell (docs/noise.md "Wide coordinates"), and their value at
 * noise_wide_from_fx(x) is the NoiseFx call's value at x. Steps along a row stay NoiseFx. */
typedef struct NoiseWide {
    int64_t hi;
    uint64_t lo;
} NoiseWide;

static inline NoiseWide noise_wide_from_fx(NoiseFx v) {
    NoiseWide w = {v < 0 ? -1 : 0, (uint64_t)v};
    return w;
}

/* freq * block, exact (the full signed 128-bit product). */
static inline NoiseWide noise_wide_mul_int(NoiseFx freq, int64_t block) {
    __extension__ __int128 p = (__int128)freq * (__int128)block;   /* |p| < 2^126 */
    NoiseWide w = {(int64_t)(p >> 64), (uint64_t)p};
    return w;
}

/* w + d for a NoiseFx d, exact. */
static inline NoiseWide noise_wide_add(NoiseWide w, NoiseFx d) {
    __extension__ unsigned __int128 v = ((unsigned __int128)(uint64_t)w.hi << 64) | w.lo;
    v += (unsigned __int128)(__int128)d;
    NoiseWide r = {(int64_t)(uint64_t)(v >> 64), (uint64_t)v};
    return r;
}

/* ---------------------------------------------------------------- gradient noise */
/* Outputs are in [-1, 1] (clamped after a calibrated scale; the clamp is part of the
 * definition so every path returns the same bits). Different seeds give unrelated fields. */
float noise_simplex3(uint32_t seed, NoiseFx x, NoiseFx y, NoiseFx z);
float noise_simplex2(uint32_t seed, NoiseFx x, NoiseFx y);
float noise_perlin3(uint32_t seed, NoiseFx x, NoiseFx y, NoiseFx z);
/* Ridge / worm field: 1 - |simplex3|, in [0, 1] (seed 004's Perlin worms). */
float noise_ridge3(uint32_t seed, NoiseFx x, NoiseFx y, NoiseFx z);

/* ---------------------------------------------------------------- FBM */
/* Octave k samples simplex at coordinate * lacunarity^k with its own derived seed and
 * weight gain^k; the sum is divided by the sum of the weights, so the result is in [-1, 1].
 * Octave scaling is integer: lacunarity is turned into a 32.32 factor L; octave k uses
 * L_k = L_{k-1} * L (fixed-point product, floor) and coordinate * L_k (floor of the 128-bit
 * product >> 32). For a power of two (the default 2) this is an exact shift.
 * Octave coordinates are taken on the wide value (128 bits), so an octave has no edge either. */
typedef struct NoiseFbm {
    uint32_t octaves;    /* 1..NOISE_FBM_MAX_OCTAVES (0 is taken as 1, more as the max) */
    float gain;          /* amplitude ratio between octaves */
    float lacunarity;    /* frequency ratio between octaves */
} NoiseFbm;

#define NOISE_FBM_MAX_OCTAVES 16u
#define NOISE_FBM_DEFAULTS {5u, 0.5f, 2.0f}
static inline NoiseFbm noise_fbm_default(void) { NoiseFbm f = NOISE_FBM_DEFAULTS; return f; }

/* f may be NULL for the defaults. */
float noise_fbm3(uint32_t seed, const NoiseFbm *f, NoiseFx x, NoiseFx y, NoiseFx z);
float noise_fbm2(uint32_t seed, const NoiseFbm *f, NoiseFx x, NoiseFx y);
/* 1 - |fbm3|, in [0, 1]: worms with rough walls. */
float noise_ridge_fbm3(uint32_t seed, const NoiseFbm *f, NoiseFx x, NoiseFx y, NoiseFx z);

/* ---------------------------------------------------------------- batched rows */
/* out[i] = f(x0 + i*dx, y, z) for 0 <= i < n (x0 + i*dx in wrapping 64-bit arithmetic),
 * bit-identical to the single-point call on every path. n <= 0 does nothing.
 * Thread-safe; no allocation. */
void noise_simplex3_row(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z, float *out, int n);
void noise_simplex2_row(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, float *out, int n);
void noise_perlin3_row(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z, float *out, int n);
void noise_ridge3_row(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z, float *out, int n);
void noise_fbm3_row(uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z,
                    float *out, int n);
void noise_fbm2_row(uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y, float *out, int n);
void noise_ridge_fbm3_row(uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z,
                          float *out, int n);
/* Rows of a plane: out[r * stride + i] = f(x0 + i*dx, y, z0 + r*dz) for r < rows, each row
 * exactly its row call at z0 + r*dz (3D), or at y0 + r*dy (2D). The FBM plan (octave seeds,
 * weights, scales) is resolved once for all rows instead of once per row. */
void noise_fbm3_rows(uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z0, NoiseFx dz,
                     float *out, int stride, int n, int rows);
void noise_fbm2_rows(uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y0, NoiseFx dy, float *out,
                     int stride, int n, int rows);
/* Plain simplex2 rows of a plane: out[r * stride + i] = noise_simplex2(seed, x0 + i*dx, y0 + r*dy),
 * each row exactly its row call, lanes kept full across row ends. */
void noise_simplex2_rows(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y0, NoiseFx dy, float *out, int stride, int n,
                         int rows);
/* Simplex3 at n arbitrary points: out[i] = noise_simplex3(seed, x[i], y, z[i]) (the lanes are
 * packed full whatever rows the points come from). _points2: two seeds at the same points,
 * out_a for seed_a and out_b for seed_b, each exactly its single-seed value; the skew, cell
 * order and falloffs are computed once for both. */
void noise_simplex3_points(uint32_t seed, const NoiseFx *x, NoiseFx y, const NoiseFx *z, float *out, int n);
void noise_simplex3_points2(uint32_t seed_a, uint32_t seed_b, const NoiseFx *x, NoiseFx y, const NoiseFx *z,
                            float *out_a, float *out_b, int n);

/* ---------------------------------------------------------------- wide calls */
/* The calls above on wide coordinates (the world's: no edge a flight reaches). Each NoiseFx
 * call is its _w call at noise_wide_from_fx of its coordinates; rows step x by the NoiseFx dx
 * (and rows of a plane z or y by dz), points offset the wide origin (ox, oz) by x[i], z[i].
 * The batched calls are bit-identical to the single-point ones here too. */
float noise_simplex3_w(uint32_t seed, NoiseWide x, NoiseWide y, NoiseWide z);
float noise_simplex2_w(uint32_t seed, NoiseWide x, NoiseWide y);
float noise_perlin3_w(uint32_t seed, NoiseWide x, NoiseWide y, NoiseWide z);
float noise_fbm3_w(uint32_t seed, const NoiseFbm *f, NoiseWide x, NoiseWide y, NoiseWide z);
float noise_fbm2_w(uint32_t seed, const NoiseFbm *f, NoiseWide x, NoiseWide y);
void noise_simplex3_row_w(uint32_t seed, NoiseWide x0, NoiseFx dx, NoiseWide y, NoiseWide z, float *out, int n);
void noise_simplex2_row_w(uint32_t seed, NoiseWide x0, NoiseFx dx, NoiseWide y, float *out, int n);
void noise_fbm3_row_w(uint32_t seed, const NoiseFbm *f, NoiseWide x0, NoiseFx dx, NoiseWide y, NoiseWide z,
                      float *out, int n);
void noise_fbm2_row_w(uint32_t seed, const NoiseFbm *f, NoiseWide x0, NoiseFx dx, NoiseWide y, float *out, int n);
void noise_fbm3_rows_w(uint32_t seed, const NoiseFbm *f, NoiseWide x0, NoiseFx dx, NoiseWide y, NoiseWide z0,
                       NoiseFx dz, float *out, int stride, int n, int rows);
void noise_fbm2_rows_w(uint32_t seed, const NoiseFbm *f, NoiseWide x0, NoiseFx dx, NoiseWide y0, NoiseFx dy,
                       float *out, int stride, int n, int rows);
void noise_simplex2_rows_w(uint32_t seed, NoiseWide x0, NoiseFx dx, NoiseWide y0, NoiseFx dy, float *out, int stride,
                           int n, int rows);
void noise_simplex3_points_w(uint32_t seed, NoiseWide ox, NoiseWide y, NoiseWide oz, const NoiseFx *x,
                             const NoiseFx *z, float *out, int n);
void noise_simplex3_points2_w(uint32_t seed_a, uint32_t seed_b, NoiseWide ox, NoiseWide y, NoiseWide oz,
                              const NoiseFx *x, const NoiseFx *z, float *out_a, float *out_b, int n);
/* FBM3 at n arbitrary points: out[i] = noise_fbm3_w(seed, f, ox + x[i], y, oz + z[i]) (the lanes
 * packed full whatever rows the points come from, the plan resolved once). */
void noise_fbm3_points_w(uint32_t seed, const NoiseFbm *f, NoiseWide ox, NoiseWide y, NoiseWide oz,
                         const NoiseFx *x, const NoiseFx *z, float *out, int n);

/* ---------------------------------------------------------------- SIMD path */
typedef enum NoisePath {
    NOISE_PATH_AUTO = 0,   /* the best compiled and supported path */
    NOISE_PATH_SCALAR,     /* plain C, 4 lanes */
    NOISE_PATH_SSE2,
    NOISE_PATH_NEON,
    NOISE_PATH_AVX2,       /* 8 lanes, x86_64 with AVX2 at run time */
    NOISE_PATH_COUNT
} NoisePath;

/* "neon", "sse2", "avx2" or "scalar": the path the batched calls use now. */
const char *noise_simd_path(void);
const char *noise_path_name(NoisePath p);
/* Compiled in and supported by this CPU. */
bool noise_path_available(NoisePath p);
/* Tests and the bench switch paths; false (and no change) when unavailable. The default
 * is AUTO, or SKYISLES_NOISE_PATH=scalar|sse2|neon|avx2 when set. Safe to call while other
 * threads run batched calls (they finish on whichever path they started). */
bool noise_set_path(NoisePath p);
NoisePath noise_get_path(void);   /* resolved, never AUTO */

/* ---------------------------------------------------------------- sky value noise */
/* Seed 001's sky dome noise as a float CPU reference (bake source for the renderer):
 * hash(p) = fract(sin(dot(p, (12.9898, 78.233, 128.852))) * 43758.5453) on the integer
 * lattice, fade f*f*(3-2f), trilinear blend of the 8 corners. Uses sinf, so its bits may
 * differ between libm builds: it is not on any path that decides solid/air or layout.
 * Meant for |x|,|y|,|z| < 2^23. */
float noise_sky_value3(float x, float y, float z);                 /* [0, 1] */
/* 5 octaves, amplitude from 0.5 halving, frequency doubling: [0, 0.96875]. */
float noise_sky_fbm(float x, float y, float z);
/* The same with the lattice wrapped by `period` cells on every axis (period > 0), so a
 * tileable texture can be baked; period <= 0 means no wrap. */
float noise_sky_value3_periodic(float x, float y, float z, int period);
/* Octave k wraps with period << k, so the sum tiles with `period`. */
float noise_sky_fbm_periodic(float x, float y, float z, int period);

#endif
