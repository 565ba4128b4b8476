/* src/audio: the synth's shared inline building blocks (oscillator, noise, filters, approximations).
 * Only IEEE + - * / and conversions, no libm and no fused ops (-ffp-contract=off): the same bits on
 * x86 and aarch64. Internal to src/audio. */
#ifndef SKYISLES_AUDIO_DSP_H
#define SKYISLES_AUDIO_DSP_H

#include <stdint.h>

#include "core/core.h"

#define DSP_PI 3.14159265358979323846
#define DSP_SINE_BITS 11u
#define DSP_SINE_SIZE (1u << DSP_SINE_BITS)
#define DSP_SINE_FRAC_BITS (32u - DSP_SINE_BITS)

static inline float dsp_clamp(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }
static inline float dsp_clamp01(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }   /* NaN -> 0 */
static inline float dsp_smoothstep(float e0, float e1, float x) {
    float t = dsp_clamp01((x - e0) / (e1 - e0));
    return t * t * (3.0f - 2.0f * t);
}

/* sin(x) for |x| <= pi: folded to [-pi/2, pi/2], then Taylor to x^11 (error < 1e-7 there). */
static inline double dsp_sin(double x) {
    if (x > DSP_PI / 2) x = DSP_PI - x;
    else if (x < -DSP_PI / 2) x = -DSP_PI - x;
    double x2 = x * x;
    double p = -1.0 / 39916800.0;
    p = p * x2 + 1.0 / 362880.0;
    p = p * x2 - 1.0 / 5040.0;
    p = p * x2 + 1.0 / 120.0;
    p = p * x2 - 1.0 / 6.0;
    p = p * x2 + 1.0;
    return p * x;
}

/* tan(x) for 0 <= x < pi/2, as a ratio of the sines above. */
static inline double dsp_tan(double x) { return dsp_sin(x) / dsp_sin(DSP_PI / 2 - x); }

/* exp(x) for |x| < 80: x = k ln2 + r with |r| <= ln2/2, Taylor of e^r to r^10, 2^k by squaring. */
static inline double dsp_exp(double x) {
    const double ln2 = 0.69314718055994530942;
    int k = (int)(x / ln2 + (x >= 0 ? 0.5 : -0.5));
    double r = x - (double)k * ln2;
    double p = 1.0 / 3628800.0;
    static const double inv[] = {1.0 / 362880.0, 1.0 / 40320.0, 1.0 / 5040.0, 1.0 / 720.0, 1.0 / 120.0,
                                 1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0, 1.0};
    for (int i = 0; i < 10; i++) p = p * r + inv[i];
    double two = k >= 0 ? 2.0 : 0.5, scale = 1.0;
    for (int n = k >= 0 ? k : -k; n; n >>= 1, two *= two)
        if (n & 1) scale *= two;
    return p * scale;
}

/* Per-sample multiplier that decays by 1/e in tau seconds. */
static inline float dsp_decay(float tau_s, float rate) {
    return tau_s > 0.0f ? (float)dsp_exp(-1.0 / ((double)tau_s * (double)rate)) : 0.0f;
}
/* One-pole low-pass coefficient for a cutoff (per sample). */
static inline float dsp_onepole_coef(float hz, float rate) {
    return (float)(1.0 - dsp_exp(-2.0 * DSP_PI * (double)hz / (double)rate));
}
static inline float dsp_onepole(float *y, float a, float x) { return *y += a * (x - *y); }

/* Phase increment of a frequency for a 32-bit phase accumulator. */
static inline float dsp_phase_inc(float hz, float rate) { return hz / rate * 4294967296.0f; }
static inline uint32_t dsp_inc_u32(float inc) {
    return inc <= 0.0f ? 0u : (inc >= 4294967040.0f ? 4294967040u : (uint32_t)inc);
}

/* Table sine (DSP_SINE_SIZE + 1 entries, filled by audio_dsp_sine_fill), linear interpolation. */
static inline float dsp_sine(const float *table, uint32_t phase) {
    uint32_t i = phase >> DSP_SINE_FRAC_BITS;
    float frac = (float)(phase & ((1u << DSP_SINE_FRAC_BITS) - 1u)) * (1.0f / (float)(1u << DSP_SINE_FRAC_BITS));
    float a = table[i];
    return a + (table[i + 1] - a) * frac;
}

/* White noise in [-1, 1): Marsaglia's xorshift32, inline because it runs several times a sample
 * (core's PCG32 is a call); each voice has its own stream, seeded through splitmix64. */
typedef struct DspNoise { uint32_t s; } DspNoise;
static inline void dsp_noise_seed(DspNoise *n, uint64_t seed, uint64_t stream) {
    uint64_t st = seed ^ (stream * 0x9e3779b97f4a7c15ull);
    uint32_t v = (uint32_t)(splitmix64_next(&st) >> 32);
    n->s = v ? v : 0x6d2b79f5u;   /* xorshift's one forbidden state is 0 */
}
static inline float dsp_noise(DspNoise *n) {
    uint32_t x = n->s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    n->s = x;
    return (float)(int32_t)x * (1.0f / 2147483648.0f);
}

/* Tiny values that would decay into denormals (slow on some CPUs) become zero. */
static inline float dsp_flush(float x) { return (x > -1e-20f && x < 1e-20f) ? 0.0f : x; }

/* State-variable filter, topology-preserving form (Zavalishin): stable under per-block changes
 * of cutoff, one set of states gives low, band and high outputs. */
typedef struct DspSvf { float ic1, ic2; } DspSvf;
typedef struct DspSvfCoef { float k, a1, a2, a3; } DspSvfCoef;
typedef struct DspSvfOut { float low, band, high; } DspSvfOut;

static inline DspSvfCoef dsp_svf_coef(float hz, float q, float rate) {
    double f = (double)dsp_clamp(hz, 10.0f, 0.45f * rate);
    double g = dsp_tan(DSP_PI * f / (double)rate), k = 1.0 / (double)q;
    double a1 = 1.0 / (1.0 + g * (g + k));
    return (DspSvfCoef){(float)k, (float)a1, (float)(g * a1), (float)(g * g * a1)};
}
static inline DspSvfOut dsp_svf(DspSvf *s, const DspSvfCoef *c, float x) {
    float v3 = x - s->ic2;
    float v1 = c->a1 * s->ic1 + c->a2 * v3;
    float v2 = s->ic2 + c->a2 * s->ic1 + c->a3 * v3;
    s->ic1 = 2.0f * v1 - s->ic1;
    s->ic2 = 2.0f * v2 - s->ic2;
    return (DspSvfOut){v2, v1, x - c->k * v1 - v2};
}
static inline void dsp_svf_flush(DspSvf *s) { s->ic1 = dsp_flush(s->ic1); s->ic2 = dsp_flush(s->ic2); }

#endif
