/* skyisles noise: the batched kernels on the plain C 4-lane set (the reference every SIMD
 * path is compared against, and the path on targets without NEON or SSE2). */
#define SKYISLES_SIMD_SCALAR 1
#include "noise/simd.h"

#define VF f32x4
#define VU u32x4
#define VW w64x4
#define F_(op) f32x4_##op
#define U_(op) u32x4_##op
#define W_(op) w64x4_##op
#define KSELECT1 0        /* a select is one instruction */
#define KLOOKUP 0         /* no 8-entry lookup in one instruction */
#define KGRAD_TABLE 0
#define KLANES 4
#define KNAME "scalar"
#define KFN(name) kscalar_##name
#include "noise/kernels.inc"

const NoiseKernels *noise_kernels_scalar(void) { return &kscalar_table; }
