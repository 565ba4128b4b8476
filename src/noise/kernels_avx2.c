/* skyisles noise: the batched kernels on 8 AVX2 lanes (x86_64; this file is built with
 * -mavx2 and only called after a run-time CPU check). Elsewhere it offers nothing. */
#include "noise/simd.h"

#if !defined(SIMD_HAVE_AVX2)
#include "noise/noise_kernels.h"
const NoiseKernels *noise_kernels_avx2(void) { return NULL; }
#else
#define VF f32x8
#define VU u32x8
#define VW w64x8
#define F_(op) f32x8_##op
#define U_(op) u32x8_##op
#define W_(op) w64x8_##op
#define KSELECT1 1        /* a select is one instruction */
#define KLOOKUP 1         /* an 8-entry table lookup is one instruction (vpermd, vpermps) */
#define KGRAD_TABLE 1     /* grad3 by 16-byte tables (vpshufb) */
#define KLANES 8
#define KNAME "avx2"
#define KFN(name) kavx2_##name
#include "noise/kernels.inc"

const NoiseKernels *noise_kernels_avx2(void) { return &kavx2_table; }
#endif
