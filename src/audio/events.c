/* src/audio: event sounds. Each kind is data (tones in sequence, a noise burst, a falling thump);
 * a small pool of voices plays them, the oldest is taken over when all are busy. */
#include "audio/audio_internal.h"

#include <string.h>

static const AudioEventKind BUILTIN[AUDIO_EVENT_BUILTIN_COUNT] = {
    [AUDIO_EVENT_CRASH] = {.name = "crash", .level = 1.0f, .echo_send = 0.6f,
                           .noise_level = 0.9f, .noise_decay_s = 0.3f, .noise_lp_hz = 2500.0f,
                           .thump_level = 1.0f, .thump_hz_start = 95.0f, .thump_hz_end = 32.0f, .thump_decay_s = 0.3f},
    [AUDIO_EVENT_RESTART] = {.name = "restart", .level = 0.35f, .echo_send = 0.3f,
                             .notes = {{392.0f, 0.0f, 0.09f}, {523.25f, 0.09f, 0.09f}, {783.99f, 0.18f, 0.22f}}},
    [AUDIO_EVENT_MENU_MOVE] = {.name = "menu_move", .level = 0.22f, .notes = {{880.0f, 0.0f, 0.035f}}},
    [AUDIO_EVENT_MENU_CONFIRM] = {.name = "menu_confirm", .level = 0.28f,
                                  .notes = {{659.25f, 0.0f, 0.05f}, {987.77f, 0.05f, 0.09f}}},
    [AUDIO_EVENT_MENU_BACK] = {.name = "menu_back", .level = 0.28f,
                               .notes = {{659.25f, 0.0f, 0.05f}, {440.0f, 0.05f, 0.09f}}},
    [AUDIO_EVENT_PAD_PLUGGED] = {.name = "pad_plugged", .level = 0.28f,
                                 .notes = {{523.25f, 0.0f, 0.06f}, {659.25f, 0.06f, 0.06f}, {783.99f, 0.12f, 0.12f}}},
    [AUDIO_EVENT_PAD_UNPLUGGED] = {.name = "pad_unplugged", .level = 0.28f,
                                   .notes = {{783.99f, 0.0f, 0.06f}, {659.25f, 0.06f, 0.06f}, {523.25f, 0.12f, 0.12f}}},
    [AUDIO_EVENT_BOOM] = {.name = "boom", .boom = true},
    [AUDIO_EVENT_RING] = {.name = "ring", .level = 0.3f, .echo_send = 0.4f,
                          .notes = {{1318.5f, 0.0f, 0.05f}, {1760.0f, 0.05f, 0.3f}}},
    [AUDIO_EVENT_IMPULSE] = {.name = "impulse", .level = 1.0f, .echo_send = 1.0f, .impulse = true},
    [AUDIO_EVENT_TOUCHDOWN] = {.name = "touchdown", .level = 0.6f, .echo_send = 0.2f,
                               .noise_level = 0.35f, .noise_decay_s = 0.06f, .noise_lp_hz = 3000.0f,
                               .thump_level = 0.7f, .thump_hz_start = 80.0f, .thump_hz_end = 40.0f, .thump_decay_s = 0.18f},
    [AUDIO_EVENT_TOUCHDOWN_HARD] = {.name = "touchdown_hard", .level = 0.9f, .echo_send = 0.3f,
                                    .noise_level = 0.6f, .noise_decay_s = 0.12f, .noise_lp_hz = 2000.0f,
                                    .thump_level = 1.0f, .thump_hz_start = 70.0f, .thump_hz_end = 28.0f, .thump_decay_s = 0.3f},
    [AUDIO_EVENT_TYRE] = {.name = "tyre", .level = 0.3f, .noise_level = 0.25f, .noise_decay_s = 0.03f, .noise_lp_hz = 400.0f,
                          .thump_level = 0.2f, .thump_hz_start = 60.0f, .thump_hz_end = 45.0f, .thump_decay_s = 0.04f},
    [AUDIO_EVENT_BRAKE] = {.name = "brake", .level = 0.22f, .noise_level = 0.3f, .noise_decay_s = 0.08f, .noise_lp_hz = 5000.0f},
    [AUDIO_EVENT_STALL_HORN] = {.name = "stall_horn", .level = 0.3f, .notes = {{523.25f, 0.0f, 0.22f}}},
    /* Thunder: a dark noise roll of a few seconds over a very low falling thump. */
    [AUDIO_EVENT_THUNDER] = {.name = "thunder", .level = 0.9f, .echo_send = 0.5f,
                             .noise_level = 1.0f, .noise_decay_s = 1.6f, .noise_lp_hz = 260.0f,
                             .thump_level = 0.8f, .thump_hz_start = 48.0f, .thump_hz_end = 22.0f, .thump_decay_s = 1.2f},
};

const AudioEventKind *audio_event_builtin(int id) {
    return id >= 0 && id < AUDIO_EVENT_BUILTIN_COUNT ? &BUILTIN[id] : NULL;
}

int audio_event_builtin_find(const char *name) {
    for (int i = 0; i < AUDIO_EVENT_BUILTIN_COUNT; i++)
        if (!strcmp(BUILTIN[i].name, name)) return i;
    return -1;
}

void audio_events_init(AudioSynth *s) {
    memcpy(s->kinds, BUILTIN, sizeof BUILTIN);
    s->n_kinds = AUDIO_EVENT_BUILTIN_COUNT;
}

void audio_events_reset(AudioSynth *s, uint64_t seed) {
    memset(s->ev, 0, sizeof s->ev);
    for (uint32_t i = 0; i < AUDIO_EVENT_VOICES; i++) s->ev[i].kind = -1;
    dsp_noise_seed(&s->event_rng, seed, 5);
}

static uint32_t kind_length(const AudioEventKind *k, float rate) {
    if (k->impulse) return 1;
    float end = 0.0f;
    for (int i = 0; i < AUDIO_EVENT_NOTES; i++)
        if (k->notes[i].hz > 0.0f && k->notes[i].start_s + k->notes[i].dur_s > end)
            end = k->notes[i].start_s + k->notes[i].dur_s;
    if (k->noise_level > 0.0f && 6.0f * k->noise_decay_s > end) end = 6.0f * k->noise_decay_s;
    if (k->thump_level > 0.0f && 6.0f * k->thump_decay_s > end) end = 6.0f * k->thump_decay_s;
    return (uint32_t)(dsp_clamp(end, 0.0f, 10.0f) * rate) + 1u;
}

void audio_events_trigger(AudioSynth *s, int id, float arg) {
    const AudioEventKind *k = &s->kinds[id];
    if (k->boom) {
        audio_boom_trigger(s);
        return;
    }
    EventVoice *v = &s->ev[0];
    for (uint32_t i = 0; i < AUDIO_EVENT_VOICES; i++) {
        if (s->ev[i].kind < 0) { v = &s->ev[i]; break; }
        if (s->ev[i].age > v->age) v = &s->ev[i];
    }
    memset(v, 0, sizeof *v);
    v->kind = id;
    v->length = kind_length(k, s->frate);
    v->pitch = arg > 0.0f ? dsp_clamp(arg, 0.25f, 4.0f) : 1.0f;
    v->note = -1;
    v->noise_env = k->noise_level;
    v->noise_mul = dsp_decay(k->noise_decay_s, s->frate);
    v->noise_a = dsp_onepole_coef(k->noise_lp_hz > 0.0f ? k->noise_lp_hz : 4000.0f, s->frate);
    v->thump_env = k->thump_level;
    v->thump_mul = dsp_decay(k->thump_decay_s, s->frate);
    v->thump_inc = dsp_phase_inc(k->thump_hz_start * v->pitch, s->frate);
    /* The thump's pitch falls exponentially toward its end frequency, twice as fast as it fades. */
    v->thump_glide = dsp_decay(0.5f * k->thump_decay_s, s->frate);
}

/* Tones: the note whose window holds this sample, retro timbre (a few harmonics), fast decay. */
static float event_tone(AudioSynth *s, EventVoice *v, const AudioEventKind *k) {
    float t = (float)v->age / s->frate;
    int next = v->note + 1;
    if (next < AUDIO_EVENT_NOTES && k->notes[next].hz > 0.0f && t >= k->notes[next].start_s) {
        v->note = next;
        v->phase = 0;
        v->note_env = 1.0f;
        v->note_mul = dsp_decay(k->notes[next].dur_s * 0.25f, s->frate);
    }
    if (v->note < 0) return 0.0f;
    const AudioNote *nt = &k->notes[v->note];
    if (t >= nt->start_s + nt->dur_s) return 0.0f;
    uint32_t ph = v->phase;
    v->phase += dsp_inc_u32(dsp_phase_inc(nt->hz * v->pitch, s->frate));
    float x = dsp_sine(s->sine, ph) + 0.25f * dsp_sine(s->sine, ph * 2u) + 0.12f * dsp_sine(s->sine, ph * 3u);
    x *= v->note_env;
    v->note_env *= v->note_mul;
    return x;
}

static float event_sample(AudioSynth *s, EventVoice *v, const AudioEventKind *k, float thump_end_inc) {
    if (k->impulse) return v->age == 0 ? 1.0f : 0.0f;
    float x = 0.0f;
    if (k->notes[0].hz > 0.0f) x += event_tone(s, v, k);
    if (v->noise_env > 1e-5f) {
        x += dsp_onepole(&v->noise_lp, v->noise_a, dsp_noise(&s->event_rng)) * v->noise_env * 1.6f;
        v->noise_env *= v->noise_mul;
    }
    if (v->thump_env > 1e-5f) {
        x += dsp_sine(s->sine, v->thump_phase) * v->thump_env;
        v->thump_phase += dsp_inc_u32(v->thump_inc);
        v->thump_inc = thump_end_inc + (v->thump_inc - thump_end_inc) * v->thump_glide;
        v->thump_env *= v->thump_mul;
    }
    return x;
}

void audio_events_render(AudioSynth *s, float *out, float *send, uint32_t n) {
    memset(out, 0, n * sizeof *out);
    memset(send, 0, n * sizeof *send);
    float g0 = s->sm.a[SP_EFFECTS], dg = (s->sm.b[SP_EFFECTS] - g0) / (float)n;
    for (uint32_t j = 0; j < AUDIO_EVENT_VOICES; j++) {
        EventVoice *v = &s->ev[j];
        if (v->kind < 0) continue;
        const AudioEventKind *k = &s->kinds[v->kind];
        float thump_end = dsp_phase_inc(k->thump_hz_end * v->pitch, s->frate);
        float g = g0;
        for (uint32_t i = 0; i < n && v->age < v->length; i++, v->age++) {
            float x = event_sample(s, v, k, thump_end) * k->level * g;
            out[i] += x;
            send[i] += x * k->echo_send;
            g += dg;
        }
        if (v->age >= v->length) v->kind = -1;
    }
}
