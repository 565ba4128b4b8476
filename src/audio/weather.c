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

static float rain_level(const float *p) { return p[SP_RAIN] * RAIN_GAIN * p[SP_WIND] * p[SP_FLIGHT_GAIN]; }

void audio_rain_render(AudioSynth *s, float *l, float *r, uint32_t n) {
    RainVoice *v = &s->rain;
    float g = rain_level(s->sm.a), g1 = rain_level(s->sm.b);
    if (g <= 0.0f && g1 <= 0.0f) {   /* dry: nothing to add, the state rests */
        memset(l, 0, (size_t)n * sizeof *l);
        memset(r, 0, (size_t)n * sizeof *r);
        return;
    }
    float dg = (g1 - g) / (float)n;
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

static float falls_level(const float *p) { return p[SP_FALLS] * FALLS_GAIN * p[SP_WIND] * p[SP_FLIGHT_GAIN]; }

void audio_falls_render(AudioSynth *s, float *l, float *r, uint32_t n) {
    FallsVoice *v = &s->falls;
    float g = falls_level(s->sm.a), g1 = falls_level(s->sm.b);
    if (g <= 0.0f && g1 <= 0.0f) {   /* none near: nothing to add, the state rests */
        memset(l, 0, (size_t)n * sizeof *l);
        memset(r, 0, (size_t)n * sizeof *r);
        return;
    }
    float dg = (g1 - g) / (float)n;
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
