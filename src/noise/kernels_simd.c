/* skyisles noise: the batched kernels on the native 4-lane set (NEON on ARM, SSE2 on x86).
 * On a target with neither this unit offers nothing and the plain C kernels are used. */
#include "noise/simd.h"

#if defined(SIMD_SCALAR)
#include "noise/noise_kernels.h"
const NoiseKernels *noise_kernels_simd(void) { return NULL; }
#else
#define VF f32x4
#define VU u32x4
#define VW w64x4
#define F_(op) f32x4_##op
#define U_(op) u32x4_##op
#define W_(op) w64x4_##op
#if defined(SIMD_NEON)
#define KSELECT1 1        /* a select is one instruction (bsl) */
#else
#define KSELECT1 0        /* SSE2: and, andnot, or */
#endif
#define KLOOKUP 0         /* no 8-entry lookup in one instruction */
#define KGRAD_TABLE 0
#define KLANES 4
#define KNAME SIMD_NAME
#define KFN(name) ksimd_##name
#include "noise/kernels.inc"

const NoiseKernels *noise_kernels_simd(void) { return &ksimd_table; }
#endif
