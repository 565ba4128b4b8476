/* skyisles noise: batched rows and SIMD path selection. (First cut: rows loop over the
 * single-point code; the SIMD kernels replace the loops.) */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "noise/noise_internal.h"

static const char *const path_names[NOISE_PATH_COUNT] = {"auto", "scalar", "sse2", "neon", "avx2"};
static _Atomic int current_path = NOISE_PATH_AUTO;

const char *noise_path_name(NoisePath p) {
    return (p >= 0 && p < NOISE_PATH_COUNT) ? path_names[p] : "unknown";
}

bool noise_path_available(NoisePath p) { return p == NOISE_PATH_AUTO || p == NOISE_PATH_SCALAR; }

bool noise_set_path(NoisePath p) {
    if (!noise_path_available(p)) return false;
    atomic_store(&current_path, p == NOISE_PATH_AUTO ? NOISE_PATH_SCALAR : p);
    return true;
}

NoisePath noise_get_path(void) { return NOISE_PATH_SCALAR; }
const char *noise_simd_path(void) { return noise_path_name(noise_get_path()); }

#define LANE_X(i) ((uint64_t)x0 + (uint64_t)(i) * (uint64_t)dx)

void noise_simplex3_row(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z, float *out, int n) {
    uint32_t sm = noise_seed_mix(seed);
    for (int i = 0; i < n; i++) out[i] = noise_simplex3_core(sm, LANE_X(i), (uint64_t)y, (uint64_t)z);
}

void noise_simplex2_row(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, float *out, int n) {
    uint32_t sm = noise_seed_mix(seed);
    for (int i = 0; i < n; i++) out[i] = noise_simplex2_core(sm, LANE_X(i), (uint64_t)y);
}

void noise_perlin3_row(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z, float *out, int n) {
    uint32_t sm = noise_seed_mix(seed);
    for (int i = 0; i < n; i++) out[i] = noise_perlin3_core(sm, LANE_X(i), (uint64_t)y, (uint64_t)z);
}

void noise_ridge3_row(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z, float *out, int n) {
    for (int i = 0; i < n; i++) out[i] = noise_ridge3(seed, (NoiseFx)LANE_X(i), y, z);
}

void noise_fbm3_row(uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z,
                    float *out, int n) {
    for (int i = 0; i < n; i++) out[i] = noise_fbm3(seed, f, (NoiseFx)LANE_X(i), y, z);
}

void noise_fbm2_row(uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y, float *out, int n) {
    for (int i = 0; i < n; i++) out[i] = noise_fbm2(seed, f, (NoiseFx)LANE_X(i), y);
}

void noise_ridge_fbm3_row(uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z,
                          float *out, int n) {
    for (int i = 0; i < n; i++) out[i] = noise_ridge_fbm3(seed, f, (NoiseFx)LANE_X(i), y, z);
}
