/* src/audio internal: the synth's state (one struct carved from the budget) and the calls between
 * its files. Calls run downward: render.c -> mixer.c -> synth.c / events.c / echo.c -> dsp.h. */
#ifndef SKYISLES_AUDIO_INTERNAL_H
#define SKYISLES_AUDIO_INTERNAL_H

#include "audio/audio.h"
#include "audio/dsp.h"

/* Voices work in sub-blocks: parameters are smoothed once per sub-block and ramp inside it. */
#define AUDIO_SUB 64u
#define AUDIO_EVENT_VOICES 8u
#define AUDIO_FDN_LINES 4u
#define AUDIO_MUTE_FADE_S 0.010f

/* Smoothed parameters: index into AudioSmooth's arrays. */
enum {
    SP_THROTTLE, SP_AIRSPEED, SP_BOOST, SP_CLOUD, SP_NEAR, SP_ENCLOSURE, SP_DEPTH, SP_RAIN, SP_AIR_WIND, SP_FALLS,
    SP_MASTER, SP_ENGINE, SP_WIND, SP_EFFECTS,
    SP_FLIGHT_GAIN,   /* from the mode: how loud the flight voices are */
    SP_TITLE_GAIN,    /* from the mode: the title ambience */
    SP_COUNT
};

/* Per sub-block: a value went from a (start) to b (end). */
typedef struct AudioSmooth {
    float target[SP_COUNT], a[SP_COUNT], b[SP_COUNT];
    float coef[SP_COUNT];   /* one-pole step per sub-block */
} AudioSmooth;

typedef struct EngineVoice {
    uint32_t phase;
    float inc;              /* phase increment at the end of the last sub-block */
    float level;
    DspNoise rng;
    DspSvf band, roar, muffle;
    float brown;
} EngineVoice;

typedef struct WindVoice {
    DspNoise rng;
    DspSvf left, right;
    float buffet, rumble, rumble_lp;   /* one-pole states */
    uint32_t gust_phase;
    float level;
} WindVoice;

typedef struct RainVoice {
    DspNoise rng;
    DspSvf left, right;
    float drop_env[2];      /* the last drop's decay on each side */
} RainVoice;

typedef struct FallsVoice {
    DspNoise rng;
    DspSvf low[2], mid[2];  /* per side: the roar's body and its splash */
} FallsVoice;

typedef struct BoomVoice {
    bool active;
    uint32_t t;             /* samples since the shock */
    float rumble_env, brown, brown_lp, soft;
    DspNoise rng;
} BoomVoice;

typedef struct AmbienceVoice {
    DspNoise rng;
    float brown[2], lp[2];
    uint32_t drone_phase[2], swell_phase, pad_phase[4], pad_lfo[4];
} AmbienceVoice;

typedef struct EventVoice {
    int kind;               /* -1: free */
    uint32_t age, length;
    float pitch;
    uint32_t phase;
    int note;               /* the note sounding, -1 before the first */
    float note_env, note_mul;
    float noise_env, noise_mul, noise_a, noise_lp;
    float thump_env, thump_mul, thump_inc, thump_glide;
    uint32_t thump_phase;
} EventVoice;

typedef struct EchoState {
    float *line[AUDIO_FDN_LINES];
    uint32_t len[AUDIO_FDN_LINES], pos[AUDIO_FDN_LINES];
    float damp[AUDIO_FDN_LINES];
    float damp_a;
    bool idle;              /* wet level 0: not run, lines cleared */
} EchoState;

/* Limiter: a stereo-linked peak follower, then a soft knee that never reaches full scale. */
typedef struct Limiter { float env, attack, release; } Limiter;

struct AudioSynth {
    uint32_t rate, channels, mask, block_frames, stale_frames;
    uint32_t block_req, stale_ms;   /* as configured (0: per rate) */
    uint64_t seed;
    float *echo_buf;                /* carved for max_rate */
    uint32_t max_rate;
    float frate;
    AudioHandover handover;
    AudioEventRing ring;
    AudioParams params;          /* the newest snapshot taken (audio side) */
    bool primed;                 /* a first snapshot was taken: smoothing starts from it */
    uint32_t since_snapshot;     /* frames rendered since the last new snapshot */
    bool boom_armed;
    AudioSmooth sm;
    float mute_gain, mute_step;
    float sine[DSP_SINE_SIZE + 1];
    EngineVoice engine;
    WindVoice wind;
    RainVoice rain;
    FallsVoice falls;
    BoomVoice boom;
    AmbienceVoice amb;
    EventVoice ev[AUDIO_EVENT_VOICES];
    DspNoise event_rng;
    AudioEventKind kinds[AUDIO_EVENT_KINDS_MAX];
    int n_kinds;
    EchoState echo;
    Limiter lim;
    /* Written by the audio side, read by the main thread. */
    atomic_uint st_blocks, st_snapshots, st_underruns, st_events, st_booms;
    /* Sub-block buses. */
    float bus_l[AUDIO_SUB], bus_r[AUDIO_SUB], send[AUDIO_SUB];
    float tmp_l[AUDIO_SUB], tmp_r[AUDIO_SUB], tmp_send[AUDIO_SUB];
};

/* dsp.c */
void audio_dsp_sine_fill(float *table);

/* synth.c: continuous voices; each writes n samples (gains applied). */
void audio_synth_init(AudioSynth *s, uint64_t seed);
void audio_engine_render(AudioSynth *s, float *out, uint32_t n);
void audio_wind_render(AudioSynth *s, float *l, float *r, uint32_t n);
/* weather.c: rain on the airframe (hiss and drops), louder with the rain. */
void audio_rain_init(AudioSynth *s, uint64_t seed);
void audio_rain_render(AudioSynth *s, float *l, float *r, uint32_t n);
/* weather.c too: falling water, a roar of low and mid noise, louder as a waterfall nears. */
void audio_falls_init(AudioSynth *s, uint64_t seed);
void audio_falls_render(AudioSynth *s, float *l, float *r, uint32_t n);
void audio_boom_trigger(AudioSynth *s);
void audio_boom_render(AudioSynth *s, float *out, uint32_t n);
void audio_ambience_render(AudioSynth *s, float *l, float *r, uint32_t n);

/* events.c: the event voice pool. */
void audio_events_init(AudioSynth *s);                 /* the kind table */
void audio_events_reset(AudioSynth *s, uint64_t seed);  /* every voice free */
void audio_events_trigger(AudioSynth *s, int kind, float arg);
/* Mono output into out, the echo send into send (both overwritten). */
void audio_events_render(AudioSynth *s, float *out, float *send, uint32_t n);

/* echo.c: a four-line feedback delay network in fixed buffers. */
size_t audio_echo_floats(uint32_t rate);
void audio_echo_init(EchoState *e, float *buf, uint32_t rate);
/* Adds the wet signal of `in` to l/r (its gain ramps from wet0 to wet1). With both 0 (open air)
 * the network does not run: it is cleared once, so the next cave starts from silence. */
void audio_echo_render(EchoState *e, const float *in, float *l, float *r, uint32_t n, float fb, float wet0,
                       float wet1);

#endif
