/* skyisles SIMD: one set of 4-lane float/uint32 operations compiled to NEON (aarch64,
 * 32-bit ARM with NEON), SSE2 (x86) or plain C, plus an 8-lane AVX2 set when built with -mavx2.
 *
 * Every operation is a plain IEEE op or an exact integer op, so a kernel written once on
 * these names gives the same bits on every path as long as the operation sequence is the
 * same (the build uses -ffp-contract=off: no fused multiply-add, no -ffast-math).
 * Masks are all-ones / all-zero lanes. SSE2 lacks a 32-bit multiply-low: mullo emulates it
 * with two 32x32->64 products. mul16 multiplies the two 16-bit halves of each lane
 * separately (low 16 bits of each product): one instruction on every target. w64x4 holds
 * the same 4 lanes as uint64 (two registers) for exact 32.32 fixed-point steps: add, shift
 * right by 32, low word times a 32-bit constant (full product), split into u32x4 words, and
 * hi32_mul (low 32 bits of high word * constant, done the cheapest way per target).
 * f32x4_to_i32_trunc is floor for the non-negative values it is meant for. u32x4_movemask
 * gathers the lanes of a mask into bits 0-3 of an integer; cmpgt_s compares the lanes as signed
 * int32 (cmplt as unsigned); u32x4_pack_rgba clamps four signed lanes
 * to 0..255 and interleaves them as the bytes of each lane; f32x4_set4 puts a, b, c, d in lanes 0-3;
 * f32x4_dup(v, i) copies lane i (a constant) to every lane; f32x4_hmin/hmax give the smallest /
 * largest lane (exact for finite lanes).
 * -DSKYISLES_SIMD_SCALAR forces the plain C set. SIMD_NAME is "neon", "sse2" or "scalar";
 * SIMD_LANES is 4. */
#ifndef SKYISLES_SIMD_H
#define SKYISLES_SIMD_H

#include <stdint.h>
#include <string.h>

#if !defined(SKYISLES_SIMD_SCALAR) && (defined(__ARM_NEON) || defined(__ARM_NEON__))
#define SIMD_NEON 1
#define SIMD_NAME "neon"
#include <arm_neon.h>
#elif !defined(SKYISLES_SIMD_SCALAR) && (defined(__SSE2__) || defined(_M_X64))
#define SIMD_SSE2 1
#define SIMD_NAME "sse2"
#include <emmintrin.h>
#else
#define SIMD_SCALAR 1
#define SIMD_NAME "scalar"
#endif

#define SIMD_LANES 4
#define SIMD_SIGN 0x80000000u

/* ================================================================ NEON */
#if defined(SIMD_NEON)
typedef float32x4_t f32x4;
typedef uint32x4_t u32x4;

static inline f32x4 f32x4_set1(float v) { return vdupq_n_f32(v); }
static inline f32x4 f32x4_set4(float a, float b, float c, float d) { f32x4 r = {a, b, c, d}; return r; }
/* Lane i of v in every lane (i a constant). */
#define f32x4_dup(v, i) ((i) < 2 ? vdupq_lane_f32(vget_low_f32(v), (i) & 1) : vdupq_lane_f32(vget_high_f32(v), (i) & 1))
/* The smallest / largest lane (exact for finite lanes, whatever the order). */
static inline float f32x4_hmin(f32x4 v) {
    float32x2_t m = vpmin_f32(vget_low_f32(v), vget_high_f32(v));
    return vget_lane_f32(vpmin_f32(m, m), 0);
}
static inline float f32x4_hmax(f32x4 v) {
    float32x2_t m = vpmax_f32(vget_low_f32(v), vget_high_f32(v));
    return vget_lane_f32(vpmax_f32(m, m), 0);
}
static inline f32x4 f32x4_load(const float *p) { return vld1q_f32(p); }
static inline void f32x4_store(float *p, f32x4 v) { vst1q_f32(p, v); }
static inline f32x4 f32x4_add(f32x4 a, f32x4 b) { return vaddq_f32(a, b); }
static inline f32x4 f32x4_sub(f32x4 a, f32x4 b) { return vsubq_f32(a, b); }
static inline f32x4 f32x4_mul(f32x4 a, f32x4 b) { return vmulq_f32(a, b); }
static inline f32x4 f32x4_min(f32x4 a, f32x4 b) { return vminq_f32(a, b); }
static inline f32x4 f32x4_max(f32x4 a, f32x4 b) { return vmaxq_f32(a, b); }
static inline u32x4 f32x4_cmpgt(f32x4 a, f32x4 b) { return vcgtq_f32(a, b); }
static inline u32x4 f32x4_cmpge(f32x4 a, f32x4 b) { return vcgeq_f32(a, b); }
static inline f32x4 f32x4_and_mask(f32x4 a, u32x4 m) { return vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_f32(a), m)); }
static inline f32x4 f32x4_xor_bits(f32x4 a, u32x4 b) { return vreinterpretq_f32_u32(veorq_u32(vreinterpretq_u32_f32(a), b)); }
static inline f32x4 f32x4_select(u32x4 m, f32x4 a, f32x4 b) { return vbslq_f32(m, a, b); }
static inline f32x4 f32x4_abs(f32x4 a) { return vabsq_f32(a); }
static inline f32x4 f32x4_from_i32(u32x4 a) { return vcvtq_f32_s32(vreinterpretq_s32_u32(a)); }
static inline u32x4 f32x4_to_i32_trunc(f32x4 a) { return vreinterpretq_u32_s32(vcvtq_s32_f32(a)); }

static inline u32x4 u32x4_set1(uint32_t v) { return vdupq_n_u32(v); }
static inline u32x4 u32x4_load(const uint32_t *p) { return vld1q_u32(p); }
static inline void u32x4_store(uint32_t *p, u32x4 v) { vst1q_u32(p, v); }
static inline u32x4 u32x4_add(u32x4 a, u32x4 b) { return vaddq_u32(a, b); }
static inline u32x4 u32x4_sub(u32x4 a, u32x4 b) { return vsubq_u32(a, b); }
static inline u32x4 u32x4_and(u32x4 a, u32x4 b) { return vandq_u32(a, b); }
static inline u32x4 u32x4_or(u32x4 a, u32x4 b) { return vorrq_u32(a, b); }
static inline u32x4 u32x4_xor(u32x4 a, u32x4 b) { return veorq_u32(a, b); }
static inline u32x4 u32x4_andnot(u32x4 a, u32x4 b) { return vbicq_u32(b, a); }   /* ~a & b */
#define u32x4_shl(a, n) vshlq_n_u32((a), (n))
#define u32x4_shr(a, n) vshrq_n_u32((a), (n))
#define u32x4_sar(a, n) vreinterpretq_u32_s32(vshrq_n_s32(vreinterpretq_s32_u32(a), (n)))
static inline u32x4 u32x4_mullo(u32x4 a, u32x4 b) { return vmulq_u32(a, b); }
static inline u32x4 u32x4_mul16(u32x4 a, u32x4 b) {
    return vreinterpretq_u32_u16(vmulq_u16(vreinterpretq_u16_u32(a), vreinterpretq_u16_u32(b)));
}
static inline u32x4 u32x4_mulhi(u32x4 a, u32x4 b) {
    uint64x2_t lo = vmull_u32(vget_low_u32(a), vget_low_u32(b));
    uint64x2_t hi = vmull_u32(vget_high_u32(a), vget_high_u32(b));
    return vcombine_u32(vshrn_n_u64(lo, 32), vshrn_n_u64(hi, 32));
}
static inline u32x4 u32x4_cmpeq(u32x4 a, u32x4 b) { return vceqq_u32(a, b); }
static inline u32x4 u32x4_cmplt(u32x4 a, u32x4 b) { return vcltq_u32(a, b); }   /* unsigned */
static inline u32x4 u32x4_cmpgt_s(u32x4 a, u32x4 b) { return vcgtq_s32(vreinterpretq_s32_u32(a), vreinterpretq_s32_u32(b)); }
static inline u32x4 u32x4_select(u32x4 m, u32x4 a, u32x4 b) { return vbslq_u32(m, a, b); }
/* Bit l set where lane l of the mask m is set. */
/* Lane i of r, g, b, a (signed, each clamped to 0..255) as the bytes of lane i, r lowest. */
static inline u32x4 u32x4_pack_rgba(u32x4 r, u32x4 g, u32x4 b, u32x4 a) {
    uint16x4_t r16 = vqmovun_s32(vreinterpretq_s32_u32(r)), g16 = vqmovun_s32(vreinterpretq_s32_u32(g));
    uint16x4_t b16 = vqmovun_s32(vreinterpretq_s32_u32(b)), a16 = vqmovun_s32(vreinterpretq_s32_u32(a));
    uint8x8_t rb = vqmovn_u16(vcombine_u16(r16, b16)), ga = vqmovn_u16(vcombine_u16(g16, a16));
    uint8x8x2_t z = vzip_u8(rb, ga);   /* r0 g0 r1 g1 r2 g2 r3 g3 | b0 a0 b1 a1 ... */
    uint16x4x2_t w = vzip_u16(vreinterpret_u16_u8(z.val[0]), vreinterpret_u16_u8(z.val[1]));
    return vreinterpretq_u32_u16(vcombine_u16(w.val[0], w.val[1]));
}
static inline uint32_t u32x4_movemask(u32x4 m) {
    const uint32_t w[4] = {1u, 2u, 4u, 8u};
    uint32x4_t b = vandq_u32(m, vld1q_u32(w));
#if defined(__aarch64__)
    return vaddvq_u32(b);
#else
    uint32x2_t h = vadd_u32(vget_low_u32(b), vget_high_u32(b));
    return vget_lane_u32(vpadd_u32(h, h), 0);
#endif
}

/* 4 lanes of uint64 (two registers) for the exact fixed-point skew. */
typedef struct w64x4 { uint64x2_t a, b; } w64x4;
static inline w64x4 w64x4_load(const uint64_t *p) { w64x4 r = {vld1q_u64(p), vld1q_u64(p + 2)}; return r; }
static inline w64x4 w64x4_set1(uint64_t v) { w64x4 r = {vdupq_n_u64(v), vdupq_n_u64(v)}; return r; }
static inline w64x4 w64x4_add(w64x4 x, w64x4 y) { w64x4 r = {vaddq_u64(x.a, y.a), vaddq_u64(x.b, y.b)}; return r; }
static inline w64x4 w64x4_shr32(w64x4 x) { w64x4 r = {vshrq_n_u64(x.a, 32), vshrq_n_u64(x.b, 32)}; return r; }
/* Each lane shifted left by s (0..63). */
static inline w64x4 w64x4_shl(w64x4 x, int s) {
    int64x2_t c = vdupq_n_s64(s);
    w64x4 r = {vshlq_u64(x.a, c), vshlq_u64(x.b, c)};
    return r;
}
/* (low 32 bits of each lane) * f, the full 64-bit product */
static inline w64x4 w64x4_mul32(w64x4 x, uint32_t f) {
    uint32x2_t fv = vdup_n_u32(f);
    w64x4 r = {vmull_u32(vmovn_u64(x.a), fv), vmull_u32(vmovn_u64(x.b), fv)};
    return r;
}
static inline u32x4 w64x4_hi32(w64x4 x) { return vcombine_u32(vshrn_n_u64(x.a, 32), vshrn_n_u64(x.b, 32)); }
static inline u32x4 w64x4_lo32(w64x4 x) { return vcombine_u32(vmovn_u64(x.a), vmovn_u64(x.b)); }
/* low 32 bits of (high word * f) */
static inline u32x4 w64x4_hi32_mul(w64x4 x, uint32_t f) { return vmulq_u32(w64x4_hi32(x), vdupq_n_u32(f)); }

/* ================================================================ SSE2 */
#elif defined(SIMD_SSE2)
typedef __m128 f32x4;
typedef __m128i u32x4;

static inline f32x4 f32x4_set1(float v) { return _mm_set1_ps(v); }
static inline f32x4 f32x4_set4(float a, float b, float c, float d) { return _mm_setr_ps(a, b, c, d); }
#define f32x4_dup(v, i) _mm_shuffle_ps((v), (v), _MM_SHUFFLE((i), (i), (i), (i)))
static inline float f32x4_hmin(f32x4 v) {
    __m128 m = _mm_min_ps(v, _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 0, 3, 2)));
    return _mm_cvtss_f32(_mm_min_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(2, 3, 0, 1))));
}
static inline float f32x4_hmax(f32x4 v) {
    __m128 m = _mm_max_ps(v, _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 0, 3, 2)));
    return _mm_cvtss_f32(_mm_max_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(2, 3, 0, 1))));
}
static inline f32x4 f32x4_load(const float *p) { return _mm_loadu_ps(p); }
static inline void f32x4_store(float *p, f32x4 v) { _mm_storeu_ps(p, v); }
static inline f32x4 f32x4_add(f32x4 a, f32x4 b) { return _mm_add_ps(a, b); }
static inline f32x4 f32x4_sub(f32x4 a, f32x4 b) { return _mm_sub_ps(a, b); }
static inline f32x4 f32x4_mul(f32x4 a, f32x4 b) { return _mm_mul_ps(a, b); }
static inline f32x4 f32x4_min(f32x4 a, f32x4 b) { return _mm_min_ps(a, b); }
static inline f32x4 f32x4_max(f32x4 a, f32x4 b) { return _mm_max_ps(a, b); }
static inline u32x4 f32x4_cmpgt(f32x4 a, f32x4 b) { return _mm_castps_si128(_mm_cmpgt_ps(a, b)); }
static inline u32x4 f32x4_cmpge(f32x4 a, f32x4 b) { return _mm_castps_si128(_mm_cmpge_ps(a, b)); }
static inline f32x4 f32x4_and_mask(f32x4 a, u32x4 m) { return _mm_and_ps(a, _mm_castsi128_ps(m)); }
static inline f32x4 f32x4_xor_bits(f32x4 a, u32x4 b) { return _mm_xor_ps(a, _mm_castsi128_ps(b)); }
static inline f32x4 f32x4_select(u32x4 m, f32x4 a, f32x4 b) {
    __m128 mf = _mm_castsi128_ps(m);
    return _mm_or_ps(_mm_and_ps(mf, a), _mm_andnot_ps(mf, b));
}
static inline f32x4 f32x4_abs(f32x4 a) { return _mm_and_ps(a, _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff))); }
static inline f32x4 f32x4_from_i32(u32x4 a) { return _mm_cvtepi32_ps(a); }
static inline u32x4 f32x4_to_i32_trunc(f32x4 a) { return _mm_cvttps_epi32(a); }

static inline u32x4 u32x4_set1(uint32_t v) { return _mm_set1_epi32((int)v); }
static inline u32x4 u32x4_load(const uint32_t *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }
static inline void u32x4_store(uint32_t *p, u32x4 v) { _mm_storeu_si128((__m128i *)(void *)p, v); }
static inline u32x4 u32x4_add(u32x4 a, u32x4 b) { return _mm_add_epi32(a, b); }
static inline u32x4 u32x4_sub(u32x4 a, u32x4 b) { return _mm_sub_epi32(a, b); }
static inline u32x4 u32x4_and(u32x4 a, u32x4 b) { return _mm_and_si128(a, b); }
static inline u32x4 u32x4_or(u32x4 a, u32x4 b) { return _mm_or_si128(a, b); }
static inline u32x4 u32x4_xor(u32x4 a, u32x4 b) { return _mm_xor_si128(a, b); }
static inline u32x4 u32x4_andnot(u32x4 a, u32x4 b) { return _mm_andnot_si128(a, b); }   /* ~a & b */
#define u32x4_shl(a, n) _mm_slli_epi32((a), (n))
#define u32x4_shr(a, n) _mm_srli_epi32((a), (n))
#define u32x4_sar(a, n) _mm_srai_epi32((a), (n))
/* SSE2 has no 32-bit multiply-low: two 32x32->64 products on the even and odd lanes. */
static inline u32x4 u32x4_mullo(u32x4 a, u32x4 b) {
    __m128i even = _mm_mul_epu32(a, b);
    __m128i odd = _mm_mul_epu32(_mm_srli_epi64(a, 32), _mm_srli_epi64(b, 32));
    return _mm_unpacklo_epi32(_mm_shuffle_epi32(even, _MM_SHUFFLE(0, 0, 2, 0)),
                              _mm_shuffle_epi32(odd, _MM_SHUFFLE(0, 0, 2, 0)));
}
static inline u32x4 u32x4_mul16(u32x4 a, u32x4 b) { return _mm_mullo_epi16(a, b); }
static inline u32x4 u32x4_mulhi(u32x4 a, u32x4 b) {
    __m128i even = _mm_mul_epu32(a, b);
    __m128i odd = _mm_mul_epu32(_mm_srli_epi64(a, 32), _mm_srli_epi64(b, 32));
    return _mm_or_si128(_mm_srli_epi64(even, 32), _mm_and_si128(odd, _mm_set_epi32(-1, 0, -1, 0)));
}
static inline u32x4 u32x4_cmpeq(u32x4 a, u32x4 b) { return _mm_cmpeq_epi32(a, b); }
static inline u32x4 u32x4_cmplt(u32x4 a, u32x4 b) {   /* unsigned, through the sign bias */
    __m128i s = _mm_set1_epi32((int)SIMD_SIGN);
    return _mm_cmplt_epi32(_mm_xor_si128(a, s), _mm_xor_si128(b, s));
}
static inline u32x4 u32x4_cmpgt_s(u32x4 a, u32x4 b) { return _mm_cmpgt_epi32(a, b); }
static inline u32x4 u32x4_select(u32x4 m, u32x4 a, u32x4 b) {
    return _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b));
}
static inline uint32_t u32x4_movemask(u32x4 m) { return (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(m)); }
static inline u32x4 u32x4_pack_rgba(u32x4 r, u32x4 g, u32x4 b, u32x4 a) {
    __m128i x = _mm_packus_epi16(_mm_packs_epi32(r, b), _mm_packs_epi32(g, a));   /* r0-3 b0-3 g0-3 a0-3 */
    __m128i t = _mm_unpacklo_epi8(x, _mm_srli_si128(x, 8));                       /* r0 g0 r1 g1 .. b0 a0 .. */
    return _mm_unpacklo_epi16(t, _mm_srli_si128(t, 8));
}

typedef struct w64x4 { __m128i a, b; } w64x4;
static inline w64x4 w64x4_load(const uint64_t *p) {
    w64x4 r = {_mm_loadu_si128((const __m128i *)(const void *)p), _mm_loadu_si128((const __m128i *)(const void *)(p + 2))};
    return r;
}
static inline w64x4 w64x4_set1(uint64_t v) { w64x4 r = {_mm_set1_epi64x((long long)v), _mm_set1_epi64x((long long)v)}; return r; }
static inline w64x4 w64x4_add(w64x4 x, w64x4 y) { w64x4 r = {_mm_add_epi64(x.a, y.a), _mm_add_epi64(x.b, y.b)}; return r; }
static inline w64x4 w64x4_shr32(w64x4 x) { w64x4 r = {_mm_srli_epi64(x.a, 32), _mm_srli_epi64(x.b, 32)}; return r; }
static inline w64x4 w64x4_shl(w64x4 x, int s) {
    __m128i c = _mm_cvtsi32_si128(s);
    w64x4 r = {_mm_sll_epi64(x.a, c), _mm_sll_epi64(x.b, c)};
    return r;
}
static inline w64x4 w64x4_mul32(w64x4 x, uint32_t f) {
    __m128i fv = _mm_set1_epi32((int)f);
    w64x4 r = {_mm_mul_epu32(x.a, fv), _mm_mul_epu32(x.b, fv)};
    return r;
}
static inline u32x4 w64x4_hi32(w64x4 x) {
    return _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(x.a), _mm_castsi128_ps(x.b), _MM_SHUFFLE(3, 1, 3, 1)));
}
static inline u32x4 w64x4_lo32(w64x4 x) {
    return _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(x.a), _mm_castsi128_ps(x.b), _MM_SHUFFLE(2, 0, 2, 0)));
}
/* low 32 bits of (high word * f): two 32x32->64 products beat the emulated multiply-low. */
static inline u32x4 w64x4_hi32_mul(w64x4 x, uint32_t f) { return w64x4_lo32(w64x4_mul32(w64x4_shr32(x), f)); }

/* ================================================================ plain C */
#else
typedef struct f32x4 { float v[4]; } f32x4;
typedef struct u32x4 { uint32_t v[4]; } u32x4;

#define SIMD_MAP_F(expr) f32x4 r; for (int l = 0; l < 4; l++) r.v[l] = (expr); return r
#define SIMD_MAP_U(expr) u32x4 r; for (int l = 0; l < 4; l++) r.v[l] = (expr); return r
static inline float simd_f_bits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t simd_u_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static inline f32x4 f32x4_set1(float v) { SIMD_MAP_F(v); }
static inline f32x4 f32x4_set4(float a, float b, float c, float d) { f32x4 r = {{a, b, c, d}}; return r; }
#define f32x4_dup(a, i) f32x4_set1((a).v[(i)])
static inline float f32x4_hmin(f32x4 v) {
    float a = v.v[0] < v.v[1] ? v.v[0] : v.v[1], b = v.v[2] < v.v[3] ? v.v[2] : v.v[3];
    return a < b ? a : b;
}
static inline float f32x4_hmax(f32x4 v) {
    float a = v.v[0] > v.v[1] ? v.v[0] : v.v[1], b = v.v[2] > v.v[3] ? v.v[2] : v.v[3];
    return a > b ? a : b;
}
static inline f32x4 f32x4_load(const float *p) { SIMD_MAP_F(p[l]); }
static inline void f32x4_store(float *p, f32x4 v) { for (int l = 0; l < 4; l++) p[l] = v.v[l]; }
static inline f32x4 f32x4_add(f32x4 a, f32x4 b) { SIMD_MAP_F(a.v[l] + b.v[l]); }
static inline f32x4 f32x4_sub(f32x4 a, f32x4 b) { SIMD_MAP_F(a.v[l] - b.v[l]); }
static inline f32x4 f32x4_mul(f32x4 a, f32x4 b) { SIMD_MAP_F(a.v[l] * b.v[l]); }
static inline f32x4 f32x4_min(f32x4 a, f32x4 b) { SIMD_MAP_F(a.v[l] < b.v[l] ? a.v[l] : b.v[l]); }
static inline f32x4 f32x4_max(f32x4 a, f32x4 b) { SIMD_MAP_F(a.v[l] > b.v[l] ? a.v[l] : b.v[l]); }
static inline u32x4 f32x4_cmpgt(f32x4 a, f32x4 b) { SIMD_MAP_U(a.v[l] > b.v[l] ? 0xffffffffu : 0u); }
static inline u32x4 f32x4_cmpge(f32x4 a, f32x4 b) { SIMD_MAP_U(a.v[l] >= b.v[l] ? 0xffffffffu : 0u); }
static inline f32x4 f32x4_and_mask(f32x4 a, u32x4 m) { SIMD_MAP_F(simd_f_bits(simd_u_bits(a.v[l]) & m.v[l])); }
static inline f32x4 f32x4_xor_bits(f32x4 a, u32x4 b) { SIMD_MAP_F(simd_f_bits(simd_u_bits(a.v[l]) ^ b.v[l])); }
static inline f32x4 f32x4_select(u32x4 m, f32x4 a, f32x4 b) { SIMD_MAP_F(m.v[l] ? a.v[l] : b.v[l]); }
static inline f32x4 f32x4_abs(f32x4 a) { SIMD_MAP_F(simd_f_bits(simd_u_bits(a.v[l]) & 0x7fffffffu)); }
static inline f32x4 f32x4_from_i32(u32x4 a) { SIMD_MAP_F((float)(int32_t)a.v[l]); }
/* Saturating like NEON (a NaN gives 0), so no lane converts out of range. */
static inline int32_t simd_trunc_i32(float v) {
    if (!(v == v)) return 0;
    if (v >= 2147483648.0f) return INT32_MAX;
    if (v < -2147483648.0f) return INT32_MIN;
    return (int32_t)v;
}
static inline u32x4 f32x4_to_i32_trunc(f32x4 a) { SIMD_MAP_U((uint32_t)simd_trunc_i32(a.v[l])); }

static inline u32x4 u32x4_set1(uint32_t v) { SIMD_MAP_U(v); }
static inline u32x4 u32x4_load(const uint32_t *p) { SIMD_MAP_U(p[l]); }
static inline void u32x4_store(uint32_t *p, u32x4 v) { for (int l = 0; l < 4; l++) p[l] = v.v[l]; }
static inline u32x4 u32x4_add(u32x4 a, u32x4 b) { SIMD_MAP_U(a.v[l] + b.v[l]); }
static inline u32x4 u32x4_sub(u32x4 a, u32x4 b) { SIMD_MAP_U(a.v[l] - b.v[l]); }
static inline u32x4 u32x4_and(u32x4 a, u32x4 b) { SIMD_MAP_U(a.v[l] & b.v[l]); }
static inline u32x4 u32x4_or(u32x4 a, u32x4 b) { SIMD_MAP_U(a.v[l] | b.v[l]); }
static inline u32x4 u32x4_xor(u32x4 a, u32x4 b) { SIMD_MAP_U(a.v[l] ^ b.v[l]); }
static inline u32x4 u32x4_andnot(u32x4 a, u32x4 b) { SIMD_MAP_U(~a.v[l] & b.v[l]); }
static inline u32x4 simd_scalar_shl(u32x4 a, int n) { SIMD_MAP_U(a.v[l] << n); }
static inline u32x4 simd_scalar_shr(u32x4 a, int n) { SIMD_MAP_U(a.v[l] >> n); }
/* Arithmetic shift without shifting a negative number: flip, shift, flip. */
static inline u32x4 simd_scalar_sar(u32x4 a, int n) {
    SIMD_MAP_U((a.v[l] & SIMD_SIGN) ? ~(~a.v[l] >> n) : a.v[l] >> n);
}
#define u32x4_shl(a, n) simd_scalar_shl((a), (n))
#define u32x4_shr(a, n) simd_scalar_shr((a), (n))
#define u32x4_sar(a, n) simd_scalar_sar((a), (n))
static inline u32x4 u32x4_mullo(u32x4 a, u32x4 b) { SIMD_MAP_U(a.v[l] * b.v[l]); }
static inline uint32_t simd_mul16(uint32_t a, uint32_t b) {
    uint32_t lo = ((a & 0xffffu) * (b & 0xffffu)) & 0xffffu;
    uint32_t hi = ((a >> 16) * (b >> 16)) & 0xffffu;
    return (hi << 16) | lo;
}
static inline u32x4 u32x4_mul16(u32x4 a, u32x4 b) { SIMD_MAP_U(simd_mul16(a.v[l], b.v[l])); }
static inline u32x4 u32x4_mulhi(u32x4 a, u32x4 b) { SIMD_MAP_U((uint32_t)(((uint64_t)a.v[l] * b.v[l]) >> 32)); }
static inline u32x4 u32x4_cmpeq(u32x4 a, u32x4 b) { SIMD_MAP_U(a.v[l] == b.v[l] ? 0xffffffffu : 0u); }
static inline u32x4 u32x4_cmplt(u32x4 a, u32x4 b) { SIMD_MAP_U(a.v[l] < b.v[l] ? 0xffffffffu : 0u); }
static inline u32x4 u32x4_cmpgt_s(u32x4 a, u32x4 b) { SIMD_MAP_U((int32_t)a.v[l] > (int32_t)b.v[l] ? 0xffffffffu : 0u); }
static inline u32x4 u32x4_select(u32x4 m, u32x4 a, u32x4 b) { SIMD_MAP_U((m.v[l] & a.v[l]) | (~m.v[l] & b.v[l])); }
static inline uint32_t u32x4_movemask(u32x4 m) {
    uint32_t r = 0;
    for (int l = 0; l < 4; l++) r |= (m.v[l] >> 31) << l;
    return r;
}
static inline uint32_t simd_clamp_u8(uint32_t v) {
    int32_t s = (int32_t)v;
    return s < 0 ? 0u : (s > 255 ? 255u : (uint32_t)s);
}
static inline u32x4 u32x4_pack_rgba(u32x4 cr, u32x4 cg, u32x4 cb, u32x4 ca) {
    SIMD_MAP_U(simd_clamp_u8(cr.v[l]) | simd_clamp_u8(cg.v[l]) << 8 | simd_clamp_u8(cb.v[l]) << 16 |
               simd_clamp_u8(ca.v[l]) << 24);
}

typedef struct w64x4 { uint64_t v[4]; } w64x4;
#define SIMD_MAP_W(expr) w64x4 r; for (int l = 0; l < 4; l++) r.v[l] = (expr); return r
static inline w64x4 w64x4_load(const uint64_t *p) { SIMD_MAP_W(p[l]); }
static inline w64x4 w64x4_set1(uint64_t v) { SIMD_MAP_W(v); }
static inline w64x4 w64x4_add(w64x4 x, w64x4 y) { SIMD_MAP_W(x.v[l] + y.v[l]); }
static inline w64x4 w64x4_shr32(w64x4 x) { SIMD_MAP_W(x.v[l] >> 32); }
static inline w64x4 w64x4_shl(w64x4 x, int s) { SIMD_MAP_W(x.v[l] << s); }
static inline w64x4 w64x4_mul32(w64x4 x, uint32_t f) { SIMD_MAP_W((x.v[l] & 0xffffffffu) * (uint64_t)f); }
static inline u32x4 w64x4_hi32(w64x4 x) { SIMD_MAP_U((uint32_t)(x.v[l] >> 32)); }
static inline u32x4 w64x4_lo32(w64x4 x) { SIMD_MAP_U((uint32_t)x.v[l]); }
static inline u32x4 w64x4_hi32_mul(w64x4 x, uint32_t f) { SIMD_MAP_U((uint32_t)(x.v[l] >> 32) * f); }
#endif

/* Every 4-lane set: the words of a w64x4 come out in lane order, so the raw words (see the AVX2
 * set) are the plain ones; a select by the sign bit of each lane of m is a select on the
 * arithmetic-shifted mask. */
#define w64x4_hi32_raw(x) w64x4_hi32(x)
#define w64x4_lo32_raw(x) w64x4_lo32(x)
#define w64x4_hi32_mul_raw(x, f) w64x4_hi32_mul((x), (f))
static inline f32x4 f32x4_from_raw(f32x4 v) { return v; }
static inline f32x4 f32x4_select_sign(u32x4 m, f32x4 a, f32x4 b) { return f32x4_select(u32x4_sar(m, 31), a, b); }

/* ================================================================ AVX2, 8 lanes */
/* Only in translation units built with -mavx2 (files named *_avx2.c); same semantics. */
#if defined(__AVX2__) && !defined(SKYISLES_SIMD_SCALAR)
#include <immintrin.h>
#define SIMD_HAVE_AVX2 1
typedef __m256 f32x8;
typedef __m256i u32x8;

static inline f32x8 f32x8_set1(float v) { return _mm256_set1_ps(v); }
static inline f32x8 f32x8_load(const float *p) { return _mm256_loadu_ps(p); }
static inline void f32x8_store(float *p, f32x8 v) { _mm256_storeu_ps(p, v); }
static inline f32x8 f32x8_add(f32x8 a, f32x8 b) { return _mm256_add_ps(a, b); }
static inline f32x8 f32x8_sub(f32x8 a, f32x8 b) { return _mm256_sub_ps(a, b); }
static inline f32x8 f32x8_mul(f32x8 a, f32x8 b) { return _mm256_mul_ps(a, b); }
static inline f32x8 f32x8_min(f32x8 a, f32x8 b) { return _mm256_min_ps(a, b); }
static inline f32x8 f32x8_max(f32x8 a, f32x8 b) { return _mm256_max_ps(a, b); }
static inline u32x8 f32x8_cmpgt(f32x8 a, f32x8 b) { return _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_GT_OQ)); }
static inline u32x8 f32x8_cmpge(f32x8 a, f32x8 b) { return _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_GE_OQ)); }
static inline f32x8 f32x8_and_mask(f32x8 a, u32x8 m) { return _mm256_and_ps(a, _mm256_castsi256_ps(m)); }
static inline f32x8 f32x8_xor_bits(f32x8 a, u32x8 b) { return _mm256_xor_ps(a, _mm256_castsi256_ps(b)); }
static inline f32x8 f32x8_select(u32x8 m, f32x8 a, f32x8 b) { return _mm256_blendv_ps(b, a, _mm256_castsi256_ps(m)); }
static inline f32x8 f32x8_abs(f32x8 a) { return _mm256_and_ps(a, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff))); }
static inline f32x8 f32x8_from_i32(u32x8 a) { return _mm256_cvtepi32_ps(a); }
static inline u32x8 f32x8_to_i32_trunc(f32x8 a) { return _mm256_cvttps_epi32(a); }

static inline u32x8 u32x8_set1(uint32_t v) { return _mm256_set1_epi32((int)v); }
static inline u32x8 u32x8_load(const uint32_t *p) { return _mm256_loadu_si256((const __m256i *)(const void *)p); }
static inline void u32x8_store(uint32_t *p, u32x8 v) { _mm256_storeu_si256((__m256i *)(void *)p, v); }
static inline u32x8 u32x8_add(u32x8 a, u32x8 b) { return _mm256_add_epi32(a, b); }
static inline u32x8 u32x8_sub(u32x8 a, u32x8 b) { return _mm256_sub_epi32(a, b); }
static inline u32x8 u32x8_and(u32x8 a, u32x8 b) { return _mm256_and_si256(a, b); }
static inline u32x8 u32x8_or(u32x8 a, u32x8 b) { return _mm256_or_si256(a, b); }
static inline u32x8 u32x8_xor(u32x8 a, u32x8 b) { return _mm256_xor_si256(a, b); }
static inline u32x8 u32x8_andnot(u32x8 a, u32x8 b) { return _mm256_andnot_si256(a, b); }
#define u32x8_shl(a, n) _mm256_slli_epi32((a), (n))
#define u32x8_shr(a, n) _mm256_srli_epi32((a), (n))
#define u32x8_sar(a, n) _mm256_srai_epi32((a), (n))
static inline u32x8 u32x8_mullo(u32x8 a, u32x8 b) { return _mm256_mullo_epi32(a, b); }
static inline u32x8 u32x8_mul16(u32x8 a, u32x8 b) { return _mm256_mullo_epi16(a, b); }
static inline u32x8 u32x8_mulhi(u32x8 a, u32x8 b) {
    __m256i even = _mm256_mul_epu32(a, b);
    __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32));
    return _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xaa);
}
static inline u32x8 u32x8_cmpeq(u32x8 a, u32x8 b) { return _mm256_cmpeq_epi32(a, b); }
static inline u32x8 u32x8_cmplt(u32x8 a, u32x8 b) {
    __m256i s = _mm256_set1_epi32((int)SIMD_SIGN);
    return _mm256_cmpgt_epi32(_mm256_xor_si256(b, s), _mm256_xor_si256(a, s));
}
static inline u32x8 u32x8_cmpgt_s(u32x8 a, u32x8 b) { return _mm256_cmpgt_epi32(a, b); }
static inline u32x8 u32x8_select(u32x8 m, u32x8 a, u32x8 b) { return _mm256_blendv_epi8(b, a, m); }

typedef struct w64x8 { __m256i a, b; } w64x8;
static inline w64x8 w64x8_load(const uint64_t *p) {
    w64x8 r = {_mm256_loadu_si256((const __m256i *)(const void *)p), _mm256_loadu_si256((const __m256i *)(const void *)(p + 4))};
    return r;
}
static inline w64x8 w64x8_set1(uint64_t v) { w64x8 r = {_mm256_set1_epi64x((long long)v), _mm256_set1_epi64x((long long)v)}; return r; }
static inline w64x8 w64x8_add(w64x8 x, w64x8 y) { w64x8 r = {_mm256_add_epi64(x.a, y.a), _mm256_add_epi64(x.b, y.b)}; return r; }
static inline w64x8 w64x8_shr32(w64x8 x) { w64x8 r = {_mm256_srli_epi64(x.a, 32), _mm256_srli_epi64(x.b, 32)}; return r; }
static inline w64x8 w64x8_shl(w64x8 x, int s) {
    __m128i c = _mm_cvtsi32_si128(s);
    w64x8 r = {_mm256_sll_epi64(x.a, c), _mm256_sll_epi64(x.b, c)};
    return r;
}
static inline w64x8 w64x8_mul32(w64x8 x, uint32_t f) {
    __m256i fv = _mm256_set1_epi32((int)f);
    w64x8 r = {_mm256_mul_epu32(x.a, fv), _mm256_mul_epu32(x.b, fv)};
    return r;
}
/* shuffle_ps works inside 128-bit halves; the 64-bit permute puts the lanes back in order. */
static inline u32x8 w64x8_hi32(w64x8 x) {
    __m256 s = _mm256_shuffle_ps(_mm256_castsi256_ps(x.a), _mm256_castsi256_ps(x.b), _MM_SHUFFLE(3, 1, 3, 1));
    return _mm256_permute4x64_epi64(_mm256_castps_si256(s), _MM_SHUFFLE(3, 1, 2, 0));
}
static inline u32x8 w64x8_lo32(w64x8 x) {
    __m256 s = _mm256_shuffle_ps(_mm256_castsi256_ps(x.a), _mm256_castsi256_ps(x.b), _MM_SHUFFLE(2, 0, 2, 0));
    return _mm256_permute4x64_epi64(_mm256_castps_si256(s), _MM_SHUFFLE(3, 1, 2, 0));
}
static inline u32x8 w64x8_hi32_mul(w64x8 x, uint32_t f) { return _mm256_mullo_epi32(w64x8_hi32(x), _mm256_set1_epi32((int)f)); }
/* The words without the lane permute: lanes in the order 0 1 4 5 2 3 6 7. A kernel whose every
 * per-lane value comes from such words works in that order throughout and puts its result back
 * in lane order once (f32x8_from_raw): one permute instead of one per word vector. */
static inline u32x8 w64x8_hi32_raw(w64x8 x) {
    return _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(x.a), _mm256_castsi256_ps(x.b), _MM_SHUFFLE(3, 1, 3, 1)));
}
static inline u32x8 w64x8_lo32_raw(w64x8 x) {
    return _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(x.a), _mm256_castsi256_ps(x.b), _MM_SHUFFLE(2, 0, 2, 0)));
}
static inline u32x8 w64x8_hi32_mul_raw(w64x8 x, uint32_t f) { return _mm256_mullo_epi32(w64x8_hi32_raw(x), _mm256_set1_epi32((int)f)); }
static inline f32x8 f32x8_from_raw(f32x8 v) {
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(v), _MM_SHUFFLE(3, 1, 2, 0)));
}
/* Entry idx & 7 of an 8-entry table, lane by lane (one permute). */
static inline u32x8 u32x8_lookup8(const uint32_t *t, u32x8 idx) {
    return _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(const void *)t), idx);
}
static inline f32x8 f32x8_lookup8(const float *t, u32x8 idx) { return _mm256_permutevar8x32_ps(_mm256_loadu_ps(t), idx); }
/* Byte b of each 128-bit half from a 16-byte table (t: the table twice, 32 bytes) at the low 4 bits
 * of byte b of idx, 0 where that byte's top bit is set (one vpshufb). */
static inline u32x8 u32x8_table16(const uint8_t *t, u32x8 idx) {
    return _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(const void *)t), idx);
}
/* The low byte of each lane in all four of its bytes. */
static inline u32x8 u32x8_spread_byte0(u32x8 v) {
    return _mm256_shuffle_epi8(v, _mm256_setr_epi8(0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12,
                                                   0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12));
}
/* Selects a where the sign bit of m is set (blendv reads only that bit). */
static inline f32x8 f32x8_select_sign(u32x8 m, f32x8 a, f32x8 b) { return _mm256_blendv_ps(b, a, _mm256_castsi256_ps(m)); }
#endif

#endif
