/* src/audio: the continuous voices (engine, wind, sonic boom, abyss and title ambience). Each reads
 * the smoothed parameters of the sub-block (start a[], end b[]) and ramps its gain across it. */
#include "audio/audio_internal.h"

#include <string.h>

#define ENGINE_HARMONICS 6

void audio_synth_init(AudioSynth *s, uint64_t seed) {
    memset(&s->engine, 0, sizeof s->engine);
    memset(&s->wind, 0, sizeof s->wind);
    memset(&s->boom, 0, sizeof s->boom);
    memset(&s->amb, 0, sizeof s->amb);
    /* One noise stream per voice: a voice's noise does not depend on which others run. */
    dsp_noise_seed(&s->engine.rng, seed, 1);
    dsp_noise_seed(&s->wind.rng, seed, 2);
    dsp_noise_seed(&s->boom.rng, seed, 3);
    dsp_noise_seed(&s->amb.rng, seed, 4);
    /* The title partials' slow swells start spread out, so they never all peak together. */
    for (int k = 0; k < 4; k++) s->amb.pad_lfo[k] = (uint32_t)k * 0x40000000u;
}

/* ---------------------------------------------------------------- engine */
/* Fundamental: 55 Hz at idle to 140 Hz at full throttle, a little higher with speed. */
static float engine_hz(const float *p) {
    return 55.0f + 85.0f * p[SP_THROTTLE] + 0.05f * dsp_clamp(p[SP_AIRSPEED], 0.0f, 500.0f);
}
/* Above the speed of sound the engine's own noise cannot reach ahead: heard muffled. */
static float engine_mach(const float *p) { return dsp_smoothstep(325.0f, 365.0f, p[SP_AIRSPEED]); }
static float engine_level(const float *p) {
    return (0.14f + 0.16f * p[SP_THROTTLE]) * (1.0f - 0.4f * engine_mach(p)) * p[SP_ENGINE] * p[SP_FLIGHT_GAIN];
}

void audio_engine_render(AudioSynth *s, float *out, uint32_t n) {
    EngineVoice *e = &s->engine;
    const float *pb = s->sm.b;
    float hz = engine_hz(pb), thr = pb[SP_THROTTLE], boost = pb[SP_BOOST];
    float inc1 = dsp_phase_inc(hz, s->frate), dinc = (inc1 - e->inc) / (float)n;
    /* Timbre: harmonic k has weight bright^(k-1) / k, so throttle opens the sound while the
     * fundamental stays the strongest partial; the sum is normalised to keep the level steady. */
    float bright = 0.2f + 0.55f * thr + 0.2f * boost, amp[ENGINE_HARMONICS], w = 1.0f, sum = 0.0f;
    for (int k = 0; k < ENGINE_HARMONICS; k++) {
        amp[k] = w / (float)(k + 1);
        sum += amp[k];
        w *= bright;
    }
    for (int k = 0; k < ENGINE_HARMONICS; k++) amp[k] *= 1.6f / (1.0f + sum);
    DspSvfCoef cband = dsp_svf_coef(3.0f * hz, 2.0f, s->frate);
    DspSvfCoef croar = dsp_svf_coef(500.0f + 600.0f * boost, 1.1f, s->frate);
    DspSvfCoef cmuff = dsp_svf_coef(7000.0f - 6650.0f * engine_mach(pb), 0.707f, s->frate);
    float noise_amt = 0.03f + 0.07f * thr, roar_amt = 1.8f * boost;
    float g = engine_level(s->sm.a), dg = (engine_level(pb) - g) / (float)n;
    for (uint32_t i = 0; i < n; i++) {
        e->inc += dinc;
        e->phase += dsp_inc_u32(e->inc);
        /* Harmonics by the recurrence sin((k+1)x) = 2 cos x sin kx - sin((k-1)x): two table reads
         * a sample instead of six. */
        float s1 = dsp_sine(s->sine, e->phase), c2 = 2.0f * dsp_sine(s->sine, e->phase + 0x40000000u);
        float sk = s1, skm = 0.0f, tone = amp[0] * s1;
        for (uint32_t k = 1; k < ENGINE_HARMONICS; k++) {
            float next = c2 * sk - skm;
            skm = sk;
            sk = next;
            tone += amp[k] * sk;
        }
        float nz = dsp_noise(&e->rng);
        float band = dsp_svf(&e->band, &cband, nz).band;
        e->brown = e->brown * 0.996f + nz * 0.04f;
        float roar = roar_amt > 0.0f ? roar_amt * (dsp_svf(&e->roar, &croar, nz).low + e->brown) : 0.0f;
        float y = dsp_svf(&e->muffle, &cmuff, tone + noise_amt * band + roar).low;
        out[i] = y * g;
        g += dg;
    }
    e->inc = inc1;
    dsp_svf_flush(&e->band);
    dsp_svf_flush(&e->roar);
    dsp_svf_flush(&e->muffle);
}

/* ---------------------------------------------------------------- wind */
/* The air past the aircraft: its airspeed, and the weather's wind heard as if it were 6x faster
 * (a 20 m/s storm wind roars like 120 m/s of flight), so a gale is heard even when flying slowly. */
static float wind_speed(const float *p) {
    return dsp_clamp((p[SP_AIRSPEED] + 6.0f * p[SP_AIR_WIND]) / AUDIO_SPEED_OF_SOUND, 0.0f, 1.3f);
}
static float wind_level(const float *p) {
    float v = wind_speed(p);
    return (0.012f + 0.42f * v * v) * (1.0f + 0.8f * p[SP_CLOUD]) * p[SP_WIND] * p[SP_FLIGHT_GAIN];
}

void audio_wind_render(AudioSynth *s, float *l, float *r, uint32_t n) {
    WindVoice *w = &s->wind;
    const float *pb = s->sm.b;
    float v = wind_speed(pb), near = pb[SP_NEAR];
    /* Brightness: the noise band opens with airspeed; a cloud adds hiss on top. */
    DspSvfCoef c = dsp_svf_coef(180.0f + 2600.0f * v + 600.0f * pb[SP_CLOUD], 0.9f, s->frate);
    float ab = dsp_onepole_coef(7.0f, s->frate), ar = dsp_onepole_coef(90.0f, s->frate);
    uint32_t gust_inc = dsp_inc_u32(dsp_phase_inc(0.21f, s->frate));
    float g = wind_level(s->sm.a), dg = (wind_level(pb) - g) / (float)n;
    float rumble_amt = near * (0.6f + v) * 6.0f;
    /* Away from rock (near 0 over the whole sub-block) the buffeting is skipped: it would add 0. */
    bool buffeting = near > 0.0f || s->sm.a[SP_NEAR] > 0.0f;
    for (uint32_t i = 0; i < n; i++) {
        float nl = dsp_noise(&w->rng), nr = dsp_noise(&w->rng), buffet = 0.0f, rumble = 0.0f;
        if (buffeting) {
            /* Buffeting: slow random gain swings (a 7 Hz low-passed noise) and a low rumble. */
            float nb = dsp_noise(&w->rng);
            buffet = dsp_clamp(dsp_onepole(&w->buffet, ab, nb) * 60.0f, -1.0f, 1.0f);
            rumble = dsp_onepole(&w->rumble_lp, ar, dsp_onepole(&w->rumble, ar, nb)) * rumble_amt;
        }
        float gust = 1.0f + 0.12f * dsp_sine(s->sine, w->gust_phase);
        w->gust_phase += gust_inc;
        float gain = g * gust * (1.0f + 0.85f * near * buffet);
        DspSvfOut ol = dsp_svf(&w->left, &c, nl), or_ = dsp_svf(&w->right, &c, nr);
        l[i] = (ol.low + 0.3f * ol.band + rumble) * gain;
        r[i] = (or_.low + 0.3f * or_.band + rumble) * gain;
        g += dg;
    }
    dsp_svf_flush(&w->left);
    dsp_svf_flush(&w->right);
    w->buffet = dsp_flush(w->buffet);
    w->rumble = dsp_flush(w->rumble);
    w->rumble_lp = dsp_flush(w->rumble_lp);
}

/* ---------------------------------------------------------------- sonic boom */
void audio_boom_trigger(AudioSynth *s) {
    BoomVoice *b = &s->boom;
    b->active = true;
    b->t = 0;
    b->rumble_env = 1.0f;
    atomic_fetch_add_explicit(&s->st_booms, 1u, memory_order_relaxed);
}

static float boom_level(const float *p) { return p[SP_EFFECTS] * p[SP_FLIGHT_GAIN]; }

void audio_boom_render(AudioSynth *s, float *out, uint32_t n) {
    BoomVoice *b = &s->boom;
    if (!b->active) {
        memset(out, 0, n * sizeof *out);
        return;
    }
    /* An N-wave: the bow shock jumps up, pressure falls linearly through zero, the tail shock
     * jumps back 0.1 s later; then a low rumble rolls off. */
    float dur = 0.1f * s->frate, as = dsp_onepole_coef(3500.0f, s->frate), al = dsp_onepole_coef(110.0f, s->frate);
    float dec = dsp_decay(0.6f, s->frate);
    float g = boom_level(s->sm.a), dg = (boom_level(s->sm.b) - g) / (float)n;
    for (uint32_t i = 0; i < n; i++) {
        float t = (float)b->t;
        float p = t < dur ? 0.8f * (1.0f - 2.0f * t / dur) : 0.0f;
        float shock = dsp_onepole(&b->soft, as, p);
        b->brown = b->brown * 0.998f + dsp_noise(&b->rng) * 0.05f;
        float rumble = dsp_onepole(&b->brown_lp, al, b->brown) * b->rumble_env * 2.5f;
        b->rumble_env *= dec;
        out[i] = (shock + rumble) * g;
        g += dg;
        if (b->t < UINT32_MAX) b->t++;
    }
    if ((float)b->t > dur && b->rumble_env < 1e-3f) {   /* -60 dB: done */
        b->active = false;
        b->soft = b->brown = b->brown_lp = 0.0f;
    }
}

/* ---------------------------------------------------------------- ambience */
static float abyss_level(const float *p) { return p[SP_DEPTH] * 0.18f * p[SP_WIND] * p[SP_FLIGHT_GAIN]; }
static float title_level(const float *p) { return p[SP_TITLE_GAIN] * 0.07f * p[SP_WIND]; }

static const float TITLE_HZ[4] = {110.0f, 164.81f, 220.0f, 277.18f};
static const float TITLE_LFO_HZ[4] = {0.05f, 0.07f, 0.09f, 0.11f};

/* The abyss bed: two channels of deep brown noise, a slowly beating 41 Hz drone, a slow swell. */
static void abyss_render(AudioSynth *s, float *l, float *r, uint32_t n) {
    AmbienceVoice *a = &s->amb;
    float g = abyss_level(s->sm.a), dg = (abyss_level(s->sm.b) - g) / (float)n;
    if (g == 0.0f && dg == 0.0f) {
        /* Silent (out of the abyss): costs nothing; the drones keep their phase. */
        memset(l, 0, n * sizeof *l);
        memset(r, 0, n * sizeof *r);
        a->drone_phase[0] += n * dsp_inc_u32(dsp_phase_inc(41.2f, s->frate));
        a->drone_phase[1] += n * dsp_inc_u32(dsp_phase_inc(41.9f, s->frate));
        a->swell_phase += n * dsp_inc_u32(dsp_phase_inc(0.06f, s->frate));
        return;
    }
    float alp = dsp_onepole_coef(80.0f, s->frate);
    uint32_t d0 = dsp_inc_u32(dsp_phase_inc(41.2f, s->frate)), d1 = dsp_inc_u32(dsp_phase_inc(41.9f, s->frate));
    uint32_t sw = dsp_inc_u32(dsp_phase_inc(0.06f, s->frate));
    for (uint32_t i = 0; i < n; i++) {
        float drone = 0.3f * (dsp_sine(s->sine, a->drone_phase[0]) + dsp_sine(s->sine, a->drone_phase[1]));
        float swell = 0.7f + 0.3f * dsp_sine(s->sine, a->swell_phase);
        a->drone_phase[0] += d0;
        a->drone_phase[1] += d1;
        a->swell_phase += sw;
        for (int c = 0; c < 2; c++) {
            a->brown[c] = a->brown[c] * 0.997f + dsp_noise(&a->rng) * 0.05f;
            dsp_onepole(&a->lp[c], alp, a->brown[c]);
        }
        l[i] = (a->lp[0] * 2.0f + drone) * swell * g;
        r[i] = (a->lp[1] * 2.0f + drone) * swell * g;
        g += dg;
    }
}

/* The title: an open A chord whose partials swell in and out on their own slow cycles. */
static void title_render(AudioSynth *s, float *l, float *r, uint32_t n) {
    AmbienceVoice *a = &s->amb;
    float g = title_level(s->sm.a), dg = (title_level(s->sm.b) - g) / (float)n;
    uint32_t inc[4], lfo[4];
    for (int k = 0; k < 4; k++) {
        inc[k] = dsp_inc_u32(dsp_phase_inc(TITLE_HZ[k], s->frate));
        lfo[k] = dsp_inc_u32(dsp_phase_inc(TITLE_LFO_HZ[k], s->frate));
    }
    if (g == 0.0f && dg == 0.0f) {
        /* Silent outside the title: the same phases as if it had run (wrapping adds). */
        for (int k = 0; k < 4; k++) a->pad_phase[k] += n * inc[k], a->pad_lfo[k] += n * lfo[k];
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        float side[2] = {0.0f, 0.0f};
        for (int k = 0; k < 4; k++) {
            float v = dsp_sine(s->sine, a->pad_phase[k]) * (0.5f + 0.5f * dsp_sine(s->sine, a->pad_lfo[k]));
            a->pad_phase[k] += inc[k];
            a->pad_lfo[k] += lfo[k];
            side[k & 1] += v * 0.7f;
            side[(k & 1) ^ 1] += v * 0.3f;
        }
        l[i] += side[0] * g;
        r[i] += side[1] * g;
        g += dg;
    }
}

void audio_ambience_render(AudioSynth *s, float *l, float *r, uint32_t n) {
    abyss_render(s, l, r, n);
    title_render(s, l, r, n);
}
