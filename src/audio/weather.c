/* src/audio: the weather's voice: rain on the airframe, a band of hiss with drops ticking on each
 * side, as loud as the weather's rain (the wind and ambience volume); and falling water, the roar
 * of a waterfall near the aircraft. Thunder is an event kind
 * (events.c) the game sends after a flash, late by the distance at the speed of sound. */
#include "audio/audio_internal.h"

#include <string.h>

#define RAIN_GAIN 0.16f
#define DROP_RATE 220.0f   /* drops a second on each side at full rain */

void audio_rain_init(AudioSynth *s, uint64_t seed) {
    memset(&s->rain, 0, sizeof s->rain);
    dsp_noise_seed(&s->rain.rng, seed, 7);
}

/* A weather voice's gain over the block: its smoothed parameter sp times gain, the wind volume and
 * the mode's flight gain, at the block's start (*g) and its step a sample (*dg). False, the block
 * silent, when it is 0 at both ends (dry, no falls near: the voice's state rests). */
static bool voice_gain(const AudioSynth *s, int sp, float gain, float *l, float *r, uint32_t n, float *g, float *dg) {
    float a = s->sm.a[sp] * gain * s->sm.a[SP_WIND] * s->sm.a[SP_FLIGHT_GAIN];
    float b = s->sm.b[sp] * gain * s->sm.b[SP_WIND] * s->sm.b[SP_FLIGHT_GAIN];
    if (a <= 0.0f && b <= 0.0f) {
        memset(l, 0, (size_t)n * sizeof *l);
        memset(r, 0, (size_t)n * sizeof *r);
        return false;
    }
    *g = a;
    *dg = (b - a) / (float)n;
    return true;
}

void audio_rain_render(AudioSynth *s, float *l, float *r, uint32_t n) {
    RainVoice *v = &s->rain;
    float g, dg;
    if (!voice_gain(s, SP_RAIN, RAIN_GAIN, l, r, n, &g, &dg)) return;
    DspSvfCoef c = dsp_svf_coef(2800.0f, 0.7f, s->frate);
    float p_drop = DROP_RATE * s->sm.b[SP_RAIN] / s->frate, decay = dsp_decay(0.004f, s->frate);
    for (uint32_t i = 0; i < n; i++) {
        float nl = dsp_noise(&v->rng), nr = dsp_noise(&v->rng);
        float u = 0.5f + 0.5f * dsp_noise(&v->rng);   /* 0..1: which side a drop falls on, if one does */
        if (u < p_drop) v->drop_env[0] = 1.0f;
        else if (u > 1.0f - p_drop) v->drop_env[1] = 1.0f;
        DspSvfOut ol = dsp_svf(&v->left, &c, nl), or_ = dsp_svf(&v->right, &c, nr);
        l[i] = (0.5f * ol.band + nl * v->drop_env[0]) * g;
        r[i] = (0.5f * or_.band + nr * v->drop_env[1]) * g;
        v->drop_env[0] *= decay;
        v->drop_env[1] *= decay;
        g += dg;
    }
    dsp_svf_flush(&v->left);
    dsp_svf_flush(&v->right);
    v->drop_env[0] = dsp_flush(v->drop_env[0]);
    v->drop_env[1] = dsp_flush(v->drop_env[1]);
}

/* ---------------------------------------------------------------- falling water */
#define FALLS_GAIN 0.22f

void audio_falls_init(AudioSynth *s, uint64_t seed) {
    memset(&s->falls, 0, sizeof s->falls);
    dsp_noise_seed(&s->falls.rng, seed, 11);
}

void audio_falls_render(AudioSynth *s, float *l, float *r, uint32_t n) {
    FallsVoice *v = &s->falls;
    float g, dg;
    if (!voice_gain(s, SP_FALLS, FALLS_GAIN, l, r, n, &g, &dg)) return;
    /* a low roar and a splash band; nearer, more of the splash */
    DspSvfCoef cl = dsp_svf_coef(320.0f, 0.6f, s->frate), cm = dsp_svf_coef(1900.0f, 0.9f, s->frate);
    float splash = 0.25f + 0.5f * s->sm.b[SP_FALLS];
    for (uint32_t i = 0; i < n; i++) {
        float nl = dsp_noise(&v->rng), nr = dsp_noise(&v->rng);
        DspSvfOut ll = dsp_svf(&v->low[0], &cl, nl), lr = dsp_svf(&v->low[1], &cl, nr);
        DspSvfOut ml = dsp_svf(&v->mid[0], &cm, nl), mr = dsp_svf(&v->mid[1], &cm, nr);
        l[i] = (ll.low + splash * ml.band) * g;
        r[i] = (lr.low + splash * mr.band) * g;
        g += dg;
    }
    for (int k = 0; k < 2; k++) {
        dsp_svf_flush(&v->low[k]);
        dsp_svf_flush(&v->mid[k]);
    }
}
