/* skyisles noise internals: the constants and integer helpers that define the fields,
 * shared by the single-point code (noise.c) and every batched kernel (kernels.inc). */
#ifndef SKYISLES_NOISE_INTERNAL_H
#define SKYISLES_NOISE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/core.h"
#include "noise/noise.h"

/* Lattice hashing: h = mix(seed) + i*PX + j*PY + k*PZ (mod 2^32), then a finaliser of two
 * 16x16-bit multiplies (one instruction each on SSE2/NEON/AVX2, where a 32-bit multiply
 * costs six on SSE2); the gradient is picked from the top bits. The per-axis products are
 * computed once per cell and a neighbour corner adds P, so a corner costs an add and the
 * finaliser. The sum is linear, so the hashes repeat along lattice vectors with
 * a*PX + b*PY + c*PZ = 0 mod 2^32: 1566 cells at the shortest (steeply vertical), over 9000
 * within 4 cells of height (see docs/noise.md). */
#define NOISE_PX 0x8da6b343u
#define NOISE_PY 0xd8163841u
#define NOISE_PZ 0xcb1ab31fu
#define NOISE_HM1 0x9e3779b9u   /* two 16-bit odd factors each */
#define NOISE_HM2 0x85ebca6bu

/* Skew factors as 0.32 fractions. 3D: F = 1/3, G = 1/6.  2D: F = (sqrt(3)-1)/2, G = (3-sqrt(3))/6. The skew is done in
 * integers; only the small in-cell offsets are floats. */
#define NOISE_F3_FX 0x55555555u   /* round(2^32 / 3) */
#define NOISE_F2_FX 0x5db3d742u   /* round(2^32 * 0.36602540378443865) */
#define NOISE_G3 0.16666667f
#define NOISE_G3X2 0.33333334f
#define NOISE_G2 0.21132487f
#define NOISE_G2X2M1 (-0.57735026f)   /* 2G - 1 */

/* Kernel radius r^2 = 0.5 (a corner's contribution reaches zero at the far faces of every
 * simplex it belongs to: no seams). Contributions with t <= T_MIN are dropped so every
 * intermediate stays a normal float: flush-to-zero hardware then gives the same bits. */
#define NOISE_T_MIN (1.0f / 65536.0f)

/* Output scales, calibrated so the observed extremes land just inside [-1, 1]
 * (raw maxima found by hill-climbing: 0.0130072, 0.0221089, 1.0358). */
#define NOISE_SIMPLEX3_SCALE 76.8f
#define NOISE_SIMPLEX2_SCALE 45.2f
#define NOISE_PERLIN3_SCALE 0.965f

#define NOISE_FRAC_SCALE (1.0f / 16777216.0f)

static inline uint32_t noise_seed_mix(uint32_t seed) {
    uint32_t x = seed ^ 0x9e3779b9u;
    x ^= x >> 16; x *= 0x7feb352du;
    x ^= x >> 15; x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* Each 16-bit half times the matching half of m, modulo 2^16. */
static inline uint32_t noise_mul16(uint32_t a, uint32_t m) {
    uint32_t lo = ((a & 0xffffu) * (m & 0xffffu)) & 0xffffu;
    uint32_t hi = ((a >> 16) * (m >> 16)) & 0xffffu;
    return (hi << 16) | lo;
}

/* Folds the high half into the low one, multiplies, folds the low half back into the high
 * one, multiplies again: the top bits depend on every input bit. */
static inline uint32_t noise_hash_finish(uint32_t h) {
    h = noise_mul16(h ^ (h >> 16), NOISE_HM1);
    h ^= h << 16;
    return noise_mul16(h, NOISE_HM2);
}

/* High (cell) and low (fraction) words of a coordinate. */
static inline uint32_t noise_fx_hi(uint64_t v) { return (uint32_t)(v >> 32); }
static inline uint32_t noise_fx_lo(uint64_t v) { return (uint32_t)v; }
static inline float noise_frac_float(uint32_t lo) { return (float)(int32_t)(lo >> 8) * NOISE_FRAC_SCALE; }

/* floor(v * f / 2^32) for a signed 32.32 v and a 0.32 fraction f < 2^31, modulo 2^64:
 * hi*f is a signed 32x32 product, lo*f an unsigned one of which the high word is kept. */
static inline uint64_t noise_skew_part(uint64_t v, uint32_t f) {
    int32_t hi = (int32_t)noise_fx_hi(v);
    uint32_t lo = noise_fx_lo(v);
    return (uint64_t)((int64_t)hi * (int64_t)f) + (((uint64_t)lo * f) >> 32);
}

/* floor(a * b / 2^32) of the full 128-bit signed product, modulo 2^64 (portable, no int128). */
static inline uint64_t noise_fx_mul(int64_t a, int64_t b) {
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    uint64_t a0 = ua & 0xffffffffu, a1 = ua >> 32, b0 = ub & 0xffffffffu, b1 = ub >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    uint64_t lo = (p00 & 0xffffffffu) | (mid << 32);
    uint64_t hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    if (a < 0) hi -= ub;     /* two's complement correction of the high half */
    if (b < 0) hi -= ua;
    return (hi << 32) | (lo >> 32);
}

/* The resolved octave plan of an FBM: seeds, weights, integer frequency factors. */
typedef struct NoiseFbmPlan {
    uint32_t octaves;
    uint32_t seed_mix[NOISE_FBM_MAX_OCTAVES];
    float amp[NOISE_FBM_MAX_OCTAVES];
    int64_t scale[NOISE_FBM_MAX_OCTAVES];   /* L_k, 32.32 */
    int shift[NOISE_FBM_MAX_OCTAVES];       /* k*m when L = 2^m exactly, else -1 */
    float inv_norm;                         /* 1 / sum(amp) */
} NoiseFbmPlan;

void noise_fbm_plan(NoiseFbmPlan *p, uint32_t seed, const NoiseFbm *f);
/* The same plan from a small per-thread cache of the last ones asked for. The pointer is valid
 * until this thread's next call: a miss replaces the oldest entry, which may be the one a hit
 * just returned. */
const NoiseFbmPlan *noise_fbm_plan_cached(uint32_t seed, const NoiseFbm *f);

static inline int64_t noise_octave_coord(const NoiseFbmPlan *p, uint32_t k, int64_t v) {
    if (p->shift[k] >= 0) return (int64_t)((uint64_t)v << p->shift[k]);
    return (int64_t)noise_fx_mul(v, p->scale[k]);
}

/* Single-point cores on a pre-mixed seed (the batched kernels match these bit for bit), on
 * coordinates relative to their frame (the low 64 bits of the wide value, see below). The
 * corner (a, b, c), a cell offset of 0 or 1 per axis, hashes base + offset + add[a | b<<1 | c<<2]
 * (2D: add[a | b<<1]); add NULL is all zeros. */
float noise_simplex3_core(uint32_t sm, uint64_t x, uint64_t y, uint64_t z, const uint32_t *add);
float noise_simplex2_core(uint32_t sm, uint64_t x, uint64_t y, const uint32_t *add);
float noise_perlin3_core(uint32_t sm, uint64_t x, uint64_t y, uint64_t z, const uint32_t *add);

/* ---------------------------------------------------------------- wide lattice */
/* A wide coordinate X (128-bit 32.32) is handed to the 64-bit cores and kernels as its low 64
 * bits x = X - m * 2^64 (m the axis's frame, the wrap count), and what the frames leave out is
 * put back into the hash:
 * - the skew: simplex's skewed cells of the true coordinates are the frame-relative ones plus
 *   D = F * (m_x + m_y + m_z) cells on every axis (2^64 * F / 2^32 is a whole number of cells),
 *   so every corner's hash gains D * (PX + PY + PZ) (2D: D * (PX + PY); Perlin has no skew);
 * - the cells past 32 bits: a skewed (Perlin: plain) cell I lies in the band
 *   b = (I + 2^31) >> 32, and every corner hash gains q(axis, b), a mixed function of the band
 *   with q(axis, 0) = 0. Near the origin (|cells| < 2^31) m and b are 0: the hashes of before.
 * The linear lattice sum is taken modulo 2^32 and a band spans exactly 2^32 cells, so the field
 * is the same function of the true cell on both sides of every frame and band edge (no seam),
 * and a cell repeats only when its band does (q is a 64-bit mix: no repeat a flight reaches). */
__extension__ typedef __int128 NoiseI128;

static inline NoiseI128 noise_wide_i128(NoiseWide w) { return (NoiseI128)(((unsigned __int128)(uint64_t)w.hi << 64) | w.lo); }
static inline NoiseWide noise_wide_of_i128(NoiseI128 v) {
    NoiseWide w = {(int64_t)(v >> 64), (uint64_t)v};
    return w;
}

typedef enum NoiseLattice { NOISE_LAT_SIMPLEX3, NOISE_LAT_SIMPLEX2, NOISE_LAT_PERLIN3 } NoiseLattice;

/* One point's frame: its frame-relative coordinates and the hash additions of its corners. */
typedef struct NoisePointFrame {
    uint64_t x, y, z;
    uint32_t add[8];
} NoisePointFrame;

void noise_point_frame(NoiseLattice lat, NoiseI128 x, NoiseI128 y, NoiseI128 z, NoisePointFrame *f);

/* The hash addition that a whole batch shares, when it shares one: lo and hi are the batch's
 * extreme points (every lattice's cells grow with each coordinate, so the extremes bound
 * every point between them). False when the points span a frame edge on an axis or a band
 * edge (counting the +1 corners): such a batch (one in about 2^22 chunk rows per axis) is
 * computed point by point. */
bool noise_batch_add(NoiseLattice lat, const NoiseI128 lo[3], const NoiseI128 hi[3], uint32_t *add);

/* floor(v * L / 2^32) of a wide v and a 32.32 factor (an FBM octave's scale). */
static inline NoiseI128 noise_wide_scale_by(NoiseI128 v, int64_t l) {
    /* The product modulo 2^128 (unsigned, so a product past it wraps instead of overflowing):
     * exact for every coordinate a world reaches; beyond, a value modulo 2^96 cells. */
    return (NoiseI128)((unsigned __int128)v * (unsigned __int128)(NoiseI128)l) >> 32;
}
static inline NoiseI128 noise_octave_wide(const NoiseFbmPlan *p, uint32_t k, NoiseI128 v) {
    if (p->shift[k] >= 0) return (NoiseI128)((unsigned __int128)v << p->shift[k]);
    return noise_wide_scale_by(v, p->scale[k]);
}

#endif
