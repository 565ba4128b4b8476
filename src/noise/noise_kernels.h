/* skyisles noise: the interface between the row drivers (noise_rows.c) and the batched
 * kernels, one table per compiled path (plain C, NEON/SSE2, AVX2). */
#ifndef SKYISLES_NOISE_KERNELS_H
#define SKYISLES_NOISE_KERNELS_H

#include "noise/noise_internal.h"

/* Row constants; x comes per lane as high/low words. */
typedef struct NoiseKernelRow {
    uint32_t seed_mix;
    uint64_t y, z;       /* 32.32 coordinates, wrapped */
    float amp;           /* FBM octave weight when accumulating */
    int accumulate;      /* 0: out = v; 1: out = out + amp * v */
} NoiseKernelRow;

/* n is a multiple of lanes; xhi/xlo/out hold n entries. */
typedef void (*NoiseKernelFn)(const NoiseKernelRow *r, const uint32_t *xhi, const uint32_t *xlo, float *out, int n);

typedef struct NoiseKernels {
    const char *name;
    int lanes;
    NoiseKernelFn simplex3, simplex2, perlin3;
} NoiseKernels;

/* The plain C kernels (always present). */
const NoiseKernels *noise_kernels_scalar(void);
/* NEON or SSE2 kernels; NULL when this target has neither (or SKYISLES_SIMD_SCALAR). */
const NoiseKernels *noise_kernels_simd(void);
/* 8-lane AVX2 kernels; NULL unless built for x86_64 with -mavx2 (the CPU check is separate). */
const NoiseKernels *noise_kernels_avx2(void);

#endif
