/* skyisles noise: the interface between the row drivers (noise_rows.c) and the batched
 * kernels, one table per compiled path (plain C, NEON/SSE2, AVX2). */
#ifndef SKYISLES_NOISE_KERNELS_H
#define SKYISLES_NOISE_KERNELS_H

#include "noise/noise_internal.h"

/* Row constants; x comes per lane as x ^ 2^63 (x + 2^63 mod 2^64: unsigned, so the
 * kernels' 32x32->64 products need no sign fix). */
#define NOISE_FX_BIAS 0x8000000000000000ull

typedef struct NoiseKernelRow {
    uint32_t seed_mix;
    uint64_t x0u, dx;    /* lane i at (x0u + i*dx) when no x array is given; x0u biased */
    uint64_t y, z;       /* 32.32 coordinates, wrapped */
    float amp;           /* FBM octave weight */
    float inv_norm;      /* FBM 1 / sum of weights */
    int accumulate;      /* out = acc + amp * v, acc = out[i] (or 0.0f on the first octave) */
    int first_octave;
    int finish;          /* then v = clamp(v * inv_norm, -1, 1) (the last FBM octave) */
    int ridge;           /* then v = 1 - |v| */
    int shift;           /* plane kernels: lane coordinates << shift (0..62) before the bias */
} NoiseKernelRow;

/* n is a multiple of lanes; out (and xu when not NULL) hold n entries. */
typedef void (*NoiseKernelFn)(const NoiseKernelRow *r, const uint64_t *xu, float *out, int n);

/* A plane's lanes: x and w (z for simplex3, y for simplex2) per lane from arrays, unbiased,
 * shifted left by r->shift in the kernel and then biased like x; the row's y (3D) is a constant,
 * its z unused. n a multiple of lanes. */
typedef void (*NoiseKernelPlaneFn)(const NoiseKernelRow *r, const uint64_t *xu, const uint64_t *wu, float *out,
                                   int n);

/* One octave of a fused FBM row, its lanes carried as 32-bit words from vector to vector: with
 * x_u a lane's biased x and F the skew factor, the skewed coordinate X = x_u + cx + floor(x_u*F/2^32)
 * and the remainder r = x_u*F mod 2^32 make the 96-bit X*2^32 + r = (x_u + cx)*2^32 + x_u*F, a
 * linear function of x_u (so of the lane), and the same for Y and Z without the x_u*2^32 term.
 * Stepping a vector on adds a constant to each 96-bit value: the remainder word and each
 * fraction word take their constant plus the carry from below, and the carries out of the
 * fraction words (the cells' steps) move the corner hash base by PX, PY, PZ. The remainder and
 * fraction words are kept with their top bit flipped, so a carry is a signed compare. Lane l of the
 * first vector comes from the exact 128-bit products (noise_rows.c). */
#define NOISE_KERNEL_MAX_LANES 8
typedef struct NoiseKernelOctave {
    float amp;
    uint32_t r[NOISE_KERNEL_MAX_LANES];      /* remainder words ^ 2^31 */
    uint32_t fx[NOISE_KERNEL_MAX_LANES], fy[NOISE_KERNEL_MAX_LANES], fz[NOISE_KERNEL_MAX_LANES];   /* fraction words ^ 2^31 */
    uint32_t base[NOISE_KERNEL_MAX_LANES];   /* seed (the hash addition included) + cells * (PX, PY, PZ) */
    uint32_t k0, k1x, k1y, k1z;              /* a vector's step of the remainder and fraction words */
    uint32_t k2;                             /* and of the base, the cells' steps times PX, PY, PZ */
} NoiseKernelOctave;

/* Every octave of an FBM row at once: each vector of lanes runs through all the octaves before it
 * is stored (the sum in registers, in octave order: the bits of the octave-by-octave rows), then
 * the normalisation and, with ridge, 1 - |v|. The kernel leaves each octave's words at the
 * vector after the last (a tail call goes on from there). */
typedef struct NoiseKernelFbm {
    uint32_t octaves;
    float inv_norm;
    int ridge;
    NoiseKernelOctave o[NOISE_FBM_MAX_OCTAVES];
} NoiseKernelFbm;

typedef void (*NoiseKernelFbmFn)(NoiseKernelFbm *f, float *out, int n);

typedef struct NoiseKernels {
    const char *name;
    int lanes;
    NoiseKernelFn simplex3, simplex2, perlin3;
    NoiseKernelPlaneFn simplex3_plane, simplex2_plane;
    NoiseKernelFbmFn fbm3, fbm2;   /* fused FBM rows (3D: y and z constant; 2D: y constant); NULL: none */
    /* An octave's words at lanes x0u + l*dx (l < lanes) for the fused rows: the seed mix sm, the
     * skewed coordinates' row constants cx, cy, cz (2D: no z) and the skew factor f. */
    void (*fbm_words)(NoiseKernelOctave *q, uint32_t sm, uint64_t x0u, uint64_t dx, uint64_t cx, uint64_t cy,
                      uint64_t cz, uint32_t f, int two_d);
    /* simplex3 of two pre-mixed seeds at the same points (x, z per lane, unbiased; y constant). */
    void (*simplex3_pair)(uint32_t sma, uint32_t smb, uint64_t y, const uint64_t *xu, const uint64_t *wu,
                          float *outa, float *outb, int n);
} NoiseKernels;

/* The plain C kernels (always present). */
const NoiseKernels *noise_kernels_scalar(void);
/* NEON or SSE2 kernels; NULL when this target has neither (or SKYISLES_SIMD_SCALAR). */
const NoiseKernels *noise_kernels_simd(void);
/* 8-lane AVX2 kernels; NULL unless built for x86_64 with -mavx2 (the CPU check is separate). */
const NoiseKernels *noise_kernels_avx2(void);

#endif
