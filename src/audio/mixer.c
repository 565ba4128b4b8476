/* src/audio: the synth's life cycle and the audio side's render call: take the newest snapshot and
 * the queued events, smooth the parameters per sub-block, run the voices, mix, echo, limit, int16. */
#include "audio/audio_internal.h"

#include <string.h>

/* How loud the flight voices and the title ambience are in each mode. */
static const float MODE_FLIGHT_GAIN[AUDIO_MODE_COUNT] = {1.0f, 0.16f, 0.5f, 0.0f};
static const float MODE_TITLE_GAIN[AUDIO_MODE_COUNT] = {0.0f, 0.0f, 0.0f, 1.0f};
/* Smoothing time constants (s): fast for volumes, slow for mode fades and the places' beds. */
static const float SMOOTH_TAU[SP_COUNT] = {
    [SP_THROTTLE] = 0.04f, [SP_AIRSPEED] = 0.04f, [SP_BOOST] = 0.05f, [SP_CLOUD] = 0.1f,
    [SP_NEAR] = 0.08f, [SP_ENCLOSURE] = 0.1f, [SP_DEPTH] = 0.25f, [SP_RAIN] = 0.5f, [SP_AIR_WIND] = 0.3f, [SP_FALLS] = 0.3f, [SP_MASTER] = 0.02f,
    [SP_ENGINE] = 0.02f, [SP_WIND] = 0.02f, [SP_EFFECTS] = 0.02f, [SP_FLIGHT_GAIN] = 0.25f,
    [SP_TITLE_GAIN] = 0.4f,
};
#define LIMIT_THRESHOLD 0.6f
#define KNEE 0.6f
#define CEILING 0.95f

AudioParams audio_params_default(void) {
    return (AudioParams){.throttle = 0.3f, .airspeed = 60.0f, .mode = AUDIO_MODE_FLIGHT,
                         .master = 1.0f, .engine = 1.0f, .wind = 1.0f, .effects = 1.0f};
}

uint32_t audio_voice_from_name(const char *name) {
    static const struct { const char *name; uint32_t bit; } names[] = {
        {"engine", AUDIO_VOICE_ENGINE}, {"wind", AUDIO_VOICE_WIND}, {"boom", AUDIO_VOICE_BOOM},
        {"echo", AUDIO_VOICE_ECHO}, {"ambience", AUDIO_VOICE_AMBIENCE}, {"events", AUDIO_VOICE_EVENTS}, {"rain", AUDIO_VOICE_RAIN},
        {"falls", AUDIO_VOICE_FALLS},
        {"all", AUDIO_VOICE_ALL},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(name, names[i].name)) return names[i].bit;
    return 0;
}

static bool format_ok(uint32_t rate, uint32_t channels) {
    return rate >= AUDIO_RATE_MIN && rate <= AUDIO_RATE_MAX && channels >= 1 && channels <= 2;
}

static bool config_resolve(const AudioConfig *in, AudioConfig *c) {
    *c = in ? *in : (AudioConfig){0};
    if (!c->rate) c->rate = AUDIO_RATE_DEFAULT;
    if (!c->channels) c->channels = 2;
    if (!c->voice_mask) c->voice_mask = AUDIO_VOICE_ALL;
    if (!c->stale_ms) c->stale_ms = 50;
    if (!c->seed) c->seed = 0x5eed50f7a1e5ull;
    if (!c->max_rate) c->max_rate = c->rate > AUDIO_RATE_DEFAULT ? c->rate : AUDIO_RATE_DEFAULT;
    return format_ok(c->rate, c->channels) && c->max_rate >= c->rate && c->max_rate <= AUDIO_RATE_MAX;
}

size_t audio_memory_bytes(const AudioConfig *cfg) {
    AudioConfig c;
    if (!config_resolve(cfg, &c)) return 0;
    return sizeof(AudioSynth) + 64u + audio_echo_floats(c.max_rate) * sizeof(float) + 64u;
}

/* Everything that depends on the output format, from scratch: the state a render starts from. */
static void synth_setup(AudioSynth *s, uint32_t rate, uint32_t channels) {
    s->rate = rate;
    s->frate = (float)rate;
    s->channels = channels;
    s->block_frames = s->block_req ? s->block_req : rate / 100u;
    s->stale_frames = (uint32_t)((uint64_t)rate * s->stale_ms / 1000u);
    s->params = audio_params_default();
    s->primed = false;
    s->since_snapshot = 0;
    s->boom_armed = false;
    memset(&s->sm, 0, sizeof s->sm);
    for (int i = 0; i < SP_COUNT; i++)
        s->sm.coef[i] = (float)(1.0 - dsp_exp(-(double)AUDIO_SUB / ((double)SMOOTH_TAU[i] * (double)rate)));
    s->mute_gain = 0.0f;
    s->mute_step = 1.0f / (AUDIO_MUTE_FADE_S * s->frate);
    s->lim = (Limiter){.attack = dsp_onepole_coef(160.0f, s->frate),   /* ~1 ms */
                       .release = dsp_onepole_coef(1.0f, s->frate)};   /* ~160 ms */
    audio_synth_init(s, s->seed);
    audio_rain_init(s, s->seed);
    audio_falls_init(s, s->seed);
    audio_events_reset(s, s->seed);
    audio_echo_init(&s->echo, s->echo_buf, rate);
}

AudioSynth *audio_create(MemBudget *b, const AudioConfig *cfg, SkyError *err) {
    AudioConfig c;
    if (!config_resolve(cfg, &c)) {
        sky_error_set(err, SKY_ERR_INPUT, "audio: unsupported output (rate %u Hz, %u channels): use %u..%u Hz, 1 or 2 channels",
                      c.rate, c.channels, AUDIO_RATE_MIN, AUDIO_RATE_MAX);
        return NULL;
    }
    AudioSynth *s = mem_carve(b, sizeof *s, 64);
    size_t cap = audio_echo_floats(c.max_rate);
    float *echo = s ? mem_carve(b, cap * sizeof(float), 64) : NULL;
    if (!echo) {
        sky_error_set(err, SKY_ERR_START, "audio: the memory budget has no %zu bytes left for the synth: raise SKYISLES_MEM_MB",
                      audio_memory_bytes(&c));
        return NULL;
    }
    memset(s, 0, sizeof *s);
    s->mask = c.voice_mask & AUDIO_VOICE_ALL;
    s->block_req = c.block_frames;
    s->stale_ms = c.stale_ms;
    s->seed = c.seed;
    s->echo_buf = echo;
    s->max_rate = c.max_rate;
    AudioParams first = audio_params_default();
    audio_handover_init(&s->handover, &first);
    audio_ring_init(&s->ring);
    audio_dsp_sine_fill(s->sine);
    audio_events_init(s);
    atomic_init(&s->st_blocks, 0u);
    atomic_init(&s->st_snapshots, 0u);
    atomic_init(&s->st_underruns, 0u);
    atomic_init(&s->st_events, 0u);
    atomic_init(&s->st_booms, 0u);
    synth_setup(s, c.rate, c.channels);
    return s;
}

bool audio_reconfigure(AudioSynth *s, uint32_t rate, uint32_t channels, SkyError *err) {
    if (!format_ok(rate, channels) || rate > s->max_rate) {
        sky_error_set(err, SKY_ERR_INPUT, "audio: cannot switch to %u Hz, %u channels: this synth takes %u..%u Hz "
                      "(AudioConfig.max_rate), 1 or 2 channels", rate, channels, AUDIO_RATE_MIN, s->max_rate);
        return false;
    }
    synth_setup(s, rate, channels);
    return true;
}

uint32_t audio_rate(const AudioSynth *s) { return s->rate; }
uint32_t audio_channels(const AudioSynth *s) { return s->channels; }
uint32_t audio_block_frames(const AudioSynth *s) { return s->block_frames; }

int audio_event_kind_add(AudioSynth *s, const AudioEventKind *kind) {
    if (s->n_kinds >= AUDIO_EVENT_KINDS_MAX || !kind) return -1;
    s->kinds[s->n_kinds] = *kind;
    return s->n_kinds++;
}

void audio_publish(AudioSynth *s, const AudioParams *p) { audio_handover_publish(&s->handover, p); }

bool audio_event(AudioSynth *s, int id, float arg) {
    if (id < 0 || id >= s->n_kinds) {
        atomic_fetch_add_explicit(&s->ring.dropped, 1u, memory_order_relaxed);
        return false;
    }
    return audio_ring_push(&s->ring, (AudioEventMsg){(uint16_t)id, arg});
}

AudioStats audio_stats(const AudioSynth *s) {
    AudioSynth *m = (AudioSynth *)s;   /* atomic loads take non-const pointers in C11 */
    return (AudioStats){
        .blocks = atomic_load_explicit(&m->st_blocks, memory_order_relaxed),
        .snapshots = atomic_load_explicit(&m->st_snapshots, memory_order_relaxed),
        .underruns = atomic_load_explicit(&m->st_underruns, memory_order_relaxed),
        .events = atomic_load_explicit(&m->st_events, memory_order_relaxed),
        .events_dropped = atomic_load_explicit(&m->ring.dropped, memory_order_relaxed),
        .booms = atomic_load_explicit(&m->st_booms, memory_order_relaxed),
    };
}

/* ---------------------------------------------------------------- audio side */
static void params_targets(AudioSynth *s, const AudioParams *p) {
    float *t = s->sm.target;
    t[SP_THROTTLE] = dsp_clamp01(p->throttle);
    t[SP_AIRSPEED] = dsp_clamp(p->airspeed, 0.0f, 2000.0f);
    if (!(p->airspeed >= 0.0f)) t[SP_AIRSPEED] = 0.0f;   /* NaN passes the clamp: 0 */
    t[SP_BOOST] = dsp_clamp01(p->boost);
    t[SP_CLOUD] = dsp_clamp01(p->cloud);
    t[SP_NEAR] = dsp_clamp01(p->terrain_near);
    t[SP_ENCLOSURE] = dsp_clamp01(p->enclosure);
    t[SP_DEPTH] = dsp_clamp01(p->depth);
    t[SP_RAIN] = dsp_clamp01(p->rain);
    t[SP_FALLS] = dsp_clamp01(p->falls);
    t[SP_AIR_WIND] = dsp_clamp(p->air_wind, 0.0f, 60.0f);
    if (!(p->air_wind >= 0.0f)) t[SP_AIR_WIND] = 0.0f;   /* NaN passes the clamp: 0 */
    t[SP_MASTER] = dsp_clamp01(p->master);
    t[SP_ENGINE] = dsp_clamp01(p->engine);
    t[SP_WIND] = dsp_clamp01(p->wind);
    t[SP_EFFECTS] = dsp_clamp01(p->effects);
    unsigned mode = (unsigned)p->mode < AUDIO_MODE_COUNT ? (unsigned)p->mode : AUDIO_MODE_FLIGHT;
    t[SP_FLIGHT_GAIN] = MODE_FLIGHT_GAIN[mode];
    t[SP_TITLE_GAIN] = MODE_TITLE_GAIN[mode];
}

/* The boom is decided here, from the airspeed of each snapshot: an upward crossing of the speed
 * of sound fires once, and only a drop below the re-arm speed allows the next. */
static void boom_detect(AudioSynth *s, float v, bool first) {
    if (first) s->boom_armed = !(v >= AUDIO_SPEED_OF_SOUND);
    else if (s->boom_armed && v >= AUDIO_SPEED_OF_SOUND) {
        s->boom_armed = false;
        audio_boom_trigger(s);
    } else if (!s->boom_armed && v < AUDIO_BOOM_REARM)
        s->boom_armed = true;
}

static void take_snapshot(AudioSynth *s, uint32_t frames) {
    AudioParams p;
    if (audio_handover_consume(&s->handover, &p)) {
        s->params = p;
        params_targets(s, &p);
        boom_detect(s, s->sm.target[SP_AIRSPEED], !s->primed);
        if (!s->primed) {
            /* The first snapshot is taken as it is: nothing to ramp from. */
            memcpy(s->sm.a, s->sm.target, sizeof s->sm.a);
            memcpy(s->sm.b, s->sm.target, sizeof s->sm.b);
            s->mute_gain = p.mute ? 0.0f : 1.0f;
            s->engine.inc = dsp_phase_inc(55.0f, s->frate);
            s->primed = true;
        }
        s->since_snapshot = 0;
        atomic_fetch_add_explicit(&s->st_snapshots, 1u, memory_order_relaxed);
    } else if (s->primed && s->since_snapshot >= s->stale_frames) {
        /* The producer is late: keep the last parameters (the ramps simply settle on them). */
        atomic_fetch_add_explicit(&s->st_underruns, 1u, memory_order_relaxed);
    }
    s->since_snapshot = s->since_snapshot > UINT32_MAX - frames ? UINT32_MAX : s->since_snapshot + frames;
}

static void take_events(AudioSynth *s) {
    AudioEventMsg m;
    while (audio_ring_pop(&s->ring, &m)) {
        if (m.id >= s->n_kinds) continue;   /* audio_event checked it; a stray message is ignored */
        audio_events_trigger(s, m.id, m.arg);
        atomic_fetch_add_explicit(&s->st_events, 1u, memory_order_relaxed);
    }
}

static void smooth_step(AudioSmooth *m) {
    for (int i = 0; i < SP_COUNT; i++) {
        m->a[i] = m->b[i];
        m->b[i] += (m->target[i] - m->b[i]) * m->coef[i];
    }
}

static float soft_knee(float x) {
    float ax = x < 0.0f ? -x : x;
    if (!(ax > KNEE)) return x == x ? x : 0.0f;
    /* Slope 1 at the knee, approaching the ceiling and never reaching it (an infinite input gives
     * 1 / inf = 0, so exactly the ceiling, still below full scale). */
    float t = (ax - KNEE) / (CEILING - KNEE);
    float y = KNEE + (CEILING - KNEE) * (1.0f - 1.0f / (1.0f + t));
    return x < 0.0f ? -y : y;
}

static int16_t to_i16(float y) {
    float v = y * 32767.0f;
    return (int16_t)(int32_t)(v + (v >= 0.0f ? 0.5f : -0.5f));
}

/* Master gain, the limiter and the conversion of one sub-block. */
static void master_out(AudioSynth *s, int16_t *out, uint32_t n) {
    float m_end = s->mute_gain + (s->params.mute ? -s->mute_step : s->mute_step) * (float)n;
    m_end = dsp_clamp01(m_end);
    float g = s->sm.a[SP_MASTER] * s->mute_gain, g1 = s->sm.b[SP_MASTER] * m_end, dg = (g1 - g) / (float)n;
    bool silent = s->mute_gain == 0.0f && m_end == 0.0f;
    s->mute_gain = m_end;
    if (silent) {
        memset(out, 0, (size_t)n * s->channels * sizeof *out);
        return;
    }
    Limiter *lim = &s->lim;
    for (uint32_t i = 0; i < n; i++, g += dg) {
        float l = s->bus_l[i] * g, r = s->bus_r[i] * g;
        if (s->channels == 1) l = r = 0.5f * (l + r);
        float al = l < 0.0f ? -l : l, ar = r < 0.0f ? -r : r, peak = al > ar ? al : ar;
        lim->env += (peak - lim->env) * (peak > lim->env ? lim->attack : lim->release);
        lim->env = dsp_flush(lim->env);
        float lg = lim->env > LIMIT_THRESHOLD ? LIMIT_THRESHOLD / lim->env : 1.0f;
        if (s->channels == 1) {
            out[i] = to_i16(soft_knee(l * lg));
        } else {
            out[2 * i] = to_i16(soft_knee(l * lg));
            out[2 * i + 1] = to_i16(soft_knee(r * lg));
        }
    }
}

static void bus_add(AudioSynth *s, uint32_t voice, const float *l, const float *r, uint32_t n) {
    if (!(s->mask & voice)) return;
    for (uint32_t i = 0; i < n; i++) {
        s->bus_l[i] += l[i];
        s->bus_r[i] += r[i];
    }
}

/* One sub-block. The echo send takes engine, wind, boom and events whether or not they are
 * heard, so the echo can be rendered alone. */
static void mix_sub(AudioSynth *s, int16_t *out, uint32_t n) {
    smooth_step(&s->sm);
    memset(s->bus_l, 0, sizeof s->bus_l);
    memset(s->bus_r, 0, sizeof s->bus_r);
    audio_engine_render(s, s->tmp_l, n);
    bus_add(s, AUDIO_VOICE_ENGINE, s->tmp_l, s->tmp_l, n);
    for (uint32_t i = 0; i < n; i++) s->send[i] = s->tmp_l[i];
    audio_wind_render(s, s->tmp_l, s->tmp_r, n);
    bus_add(s, AUDIO_VOICE_WIND, s->tmp_l, s->tmp_r, n);
    for (uint32_t i = 0; i < n; i++) s->send[i] += 0.5f * (s->tmp_l[i] + s->tmp_r[i]);
    audio_rain_render(s, s->tmp_l, s->tmp_r, n);
    bus_add(s, AUDIO_VOICE_RAIN, s->tmp_l, s->tmp_r, n);
    audio_falls_render(s, s->tmp_l, s->tmp_r, n);
    bus_add(s, AUDIO_VOICE_FALLS, s->tmp_l, s->tmp_r, n);
    audio_boom_render(s, s->tmp_l, n);
    bus_add(s, AUDIO_VOICE_BOOM, s->tmp_l, s->tmp_l, n);
    for (uint32_t i = 0; i < n; i++) s->send[i] += 0.5f * s->tmp_l[i];
    memset(s->tmp_l, 0, sizeof s->tmp_l);
    memset(s->tmp_r, 0, sizeof s->tmp_r);
    audio_ambience_render(s, s->tmp_l, s->tmp_r, n);
    bus_add(s, AUDIO_VOICE_AMBIENCE, s->tmp_l, s->tmp_r, n);
    audio_events_render(s, s->tmp_l, s->tmp_send, n);
    bus_add(s, AUDIO_VOICE_EVENTS, s->tmp_l, s->tmp_l, n);
    for (uint32_t i = 0; i < n; i++) s->send[i] += s->tmp_send[i];
    memset(s->tmp_l, 0, sizeof s->tmp_l);
    memset(s->tmp_r, 0, sizeof s->tmp_r);
    float fb = 0.3f + 0.5f * s->sm.b[SP_ENCLOSURE];
    audio_echo_render(&s->echo, s->send, s->tmp_l, s->tmp_r, n, fb, 0.9f * s->sm.a[SP_ENCLOSURE],
                      0.9f * s->sm.b[SP_ENCLOSURE]);
    bus_add(s, AUDIO_VOICE_ECHO, s->tmp_l, s->tmp_r, n);
    master_out(s, out, n);
}

void audio_mixer_render(AudioSynth *s, int16_t *out, uint32_t frames) {
    atomic_fetch_add_explicit(&s->st_blocks, 1u, memory_order_relaxed);
    take_snapshot(s, frames);
    if (!s->primed) {
        /* Nothing published yet: silence, not a guess at the flight. */
        memset(out, 0, (size_t)frames * s->channels * sizeof *out);
        return;
    }
    take_events(s);
    for (uint32_t off = 0; off < frames;) {
        uint32_t n = frames - off < AUDIO_SUB ? frames - off : AUDIO_SUB;
        mix_sub(s, out + (size_t)off * s->channels, n);
        off += n;
    }
}
