/* skyisles audio: the one public header of src/audio, a pure synthesiser (no SDL, no heap).
 * The main thread publishes parameter snapshots and events; the audio side (SDL's callback in the
 * game, a loop in the offline renderer) turns them into int16 blocks, bit-identical on every CPU. */
#ifndef SKYISLES_AUDIO_H
#define SKYISLES_AUDIO_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

#define AUDIO_RATE_DEFAULT 48000u
#define AUDIO_RATE_MIN 8000u
#define AUDIO_RATE_MAX 96000u
#define AUDIO_SPEED_OF_SOUND 343.0f   /* m/s: an upward crossing makes one boom */
#define AUDIO_BOOM_REARM 330.0f       /* m/s: below this the boom is armed again (hysteresis) */

/* What the player is doing: sets how loud the flight is against the menu / title sounds. */
typedef enum AudioMode {
    AUDIO_MODE_FLIGHT = 0,
    AUDIO_MODE_PAUSED,    /* flight sounds fade to a low bed, menu blips play */
    AUDIO_MODE_ATTRACT,   /* the demo flight, at a lower level */
    AUDIO_MODE_TITLE,     /* no flight; a quiet ambience of its own */
    AUDIO_MODE_COUNT
} AudioMode;

/* One snapshot of everything the synth follows; the main thread publishes one per frame. Units are
 * what the game has at hand; every 0..1 factor is clamped by the synth. */
typedef struct AudioParams {
    float throttle;      /* 0..1 */
    float airspeed;      /* m/s; 343 is the speed of sound */
    float boost;         /* 0..1: the boost's roar */
    float cloud;         /* 0..1: cloud density at the aircraft */
    float terrain_near;  /* 0..1: rock close around the aircraft (buffeting) */
    float enclosure;     /* 0..1: open air 0, overhang ~0.4, tunnel ~0.9 (echo) */
    float depth;         /* 0..1: how deep in the abyss (the low ambience) */
    AudioMode mode;
    /* Volumes 0..1 (the settings); wind also scales the abyss and title ambience. */
    float master, engine, wind, effects;
    bool mute;           /* digital silence (after a 10 ms fade) */
    float rain;          /* 0..1: the weather's rain at the aircraft (the rain voice) */
    float air_wind;      /* m/s: the weather's wind (the wind voice follows it as well as the airspeed) */
    float falls;         /* 0..1: a waterfall near the aircraft (the falls voice: its roar grows as one nears) */
} AudioParams;

/* Idle flight, every volume at 1, not muted. */
AudioParams audio_params_default(void);

/* Voices, for rendering one alone (AudioConfig.voice_mask). */
enum {
    AUDIO_VOICE_ENGINE = 1u << 0,
    AUDIO_VOICE_WIND = 1u << 1,
    AUDIO_VOICE_BOOM = 1u << 2,
    AUDIO_VOICE_ECHO = 1u << 3,      /* the wet signal of the echo on engine, wind and events */
    AUDIO_VOICE_AMBIENCE = 1u << 4,  /* abyss bed and title ambience */
    AUDIO_VOICE_EVENTS = 1u << 5,    /* crash, menu blips, pads, rings, thunder ... */
    AUDIO_VOICE_RAIN = 1u << 6,      /* rain on the airframe */
    AUDIO_VOICE_FALLS = 1u << 7,     /* falling water nearby */
    AUDIO_VOICE_ALL = 0xffu,
};
/* "engine" -> AUDIO_VOICE_ENGINE ... "all"; 0 for an unknown name. */
uint32_t audio_voice_from_name(const char *name);

/* Event kinds. The built-in ones; audio_event_kind_add appends more (the tour's rings use RING
 * with a pitch factor as the argument). */
typedef enum AudioEventId {
    AUDIO_EVENT_CRASH = 0,     /* noise burst + thump */
    AUDIO_EVENT_RESTART,
    AUDIO_EVENT_MENU_MOVE,
    AUDIO_EVENT_MENU_CONFIRM,
    AUDIO_EVENT_MENU_BACK,
    AUDIO_EVENT_PAD_PLUGGED,
    AUDIO_EVENT_PAD_UNPLUGGED,
    AUDIO_EVENT_BOOM,          /* forces a sonic boom (booms normally come from the airspeed) */
    AUDIO_EVENT_RING,          /* a chime; arg = pitch factor (0 = 1) */
    AUDIO_EVENT_IMPULSE,       /* one unit sample: measurements (the echo's impulse response) */
    AUDIO_EVENT_TOUCHDOWN,     /* the wheels meet the ground: a thump and a tyre chirp; arg = pitch factor */
    AUDIO_EVENT_TOUCHDOWN_HARD,/* a hard one: a deeper, louder thump */
    AUDIO_EVENT_TYRE,          /* one tick of the tyres rolling over the ground (repeated by speed) */
    AUDIO_EVENT_BRAKE,         /* one breath of the brakes' hiss (repeated while they bite) */
    AUDIO_EVENT_STALL_HORN,    /* one beep of the stall warning (repeated while it lasts) */
    AUDIO_EVENT_THUNDER,       /* a long low roll; arg = pitch factor (0 = 1; distant thunder lower), sent late by distance */
    AUDIO_EVENT_BUILTIN_COUNT
} AudioEventId;

#define AUDIO_EVENT_KINDS_MAX 32
#define AUDIO_EVENT_NOTES 4

/* An event sound as data: up to four tones in sequence, a noise burst, a falling thump. */
typedef struct AudioNote { float hz, start_s, dur_s; } AudioNote;  /* hz 0: unused */
typedef struct AudioEventKind {
    const char *name;
    float level;         /* 0..1 */
    float echo_send;     /* how much goes into the echo (a crash in a tunnel rings) */
    AudioNote notes[AUDIO_EVENT_NOTES];
    float noise_level, noise_decay_s, noise_lp_hz;
    float thump_level, thump_hz_start, thump_hz_end, thump_decay_s;
    bool impulse;        /* a single unit sample instead of the above */
    bool boom;           /* triggers the boom voice instead of the above */
} AudioEventKind;

/* The built-in kind of an id (NULL past the built-ins); the id of a built-in name, -1 if none. */
const AudioEventKind *audio_event_builtin(int id);
int audio_event_builtin_find(const char *name);

/* ------------------------------------------------------------------ handover */
/* Parameters: a lock-free triple buffer. The producer always overwrites its own back slot and
 * swaps it in; the consumer takes the newest whole snapshot, never a torn one, never waits. */
typedef struct AudioHandover {
    AudioParams slot[3];
    _Alignas(64) atomic_uint middle;   /* slot index | AUDIO_HANDOVER_FRESH */
    _Alignas(64) unsigned back;        /* producer's */
    _Alignas(64) unsigned front;       /* consumer's */
} AudioHandover;

void audio_handover_init(AudioHandover *h, const AudioParams *first);
void audio_handover_publish(AudioHandover *h, const AudioParams *p);          /* producer */
/* Consumer: true and *out = the newest snapshot when one arrived since the last call. */
bool audio_handover_consume(AudioHandover *h, AudioParams *out);

/* Events: a single-producer single-consumer ring of messages. */
#define AUDIO_EVENT_RING_SIZE 64u   /* power of two */
typedef struct AudioEventMsg { uint16_t id; float arg; } AudioEventMsg;
typedef struct AudioEventRing {
    AudioEventMsg msg[AUDIO_EVENT_RING_SIZE];
    _Alignas(64) atomic_uint head;     /* written by the producer */
    _Alignas(64) atomic_uint tail;     /* written by the consumer */
    atomic_uint dropped;               /* pushes that found the ring full */
} AudioEventRing;

void audio_ring_init(AudioEventRing *r);
bool audio_ring_push(AudioEventRing *r, AudioEventMsg m);    /* producer; false when full */
bool audio_ring_pop(AudioEventRing *r, AudioEventMsg *m);    /* consumer; false when empty */

/* ------------------------------------------------------------------ synth */
/* Zero means default (sokol style): a caller fills what it changes. */
typedef struct AudioConfig {
    uint32_t rate;         /* 0: 48000; AUDIO_RATE_MIN..AUDIO_RATE_MAX */
    uint32_t channels;     /* 0: 2; 1 (mono) or 2 (interleaved stereo) */
    uint32_t voice_mask;   /* 0: AUDIO_VOICE_ALL */
    uint32_t block_frames; /* frames per block of a trace render; 0: rate / 100 (10 ms) */
    uint32_t stale_ms;     /* a block asked for with no snapshot newer than this is an underrun; 0: 50 */
    uint64_t seed;         /* noise streams; 0: a fixed default */
    uint32_t max_rate;     /* the highest rate audio_reconfigure may switch to; 0: max(rate, 48000) */
} AudioConfig;

typedef struct AudioStats {
    uint32_t blocks;          /* render calls */
    uint32_t snapshots;       /* parameter snapshots taken */
    uint32_t underruns;       /* blocks rendered on parameters older than stale_ms */
    uint32_t events;          /* events played */
    uint32_t events_dropped;  /* the ring was full, or an unknown id */
    uint32_t booms;           /* sonic booms so far (the game's rumble polls this) */
} AudioStats;

typedef struct AudioSynth AudioSynth;

/* Bytes audio_create carves from a budget for this config (0 for a bad config). */
size_t audio_memory_bytes(const AudioConfig *cfg);
/* Boot time: everything carved from the budget; NULL with a one-line error. */
AudioSynth *audio_create(MemBudget *b, const AudioConfig *cfg, SkyError *err);
/* A new output format (a device came back with another rate or channel count), only while the
 * audio side is stopped (no render call running). The voices start afresh; the event kinds, voice
 * mask, stats and handover stay. False with a one-line error past max_rate or for a bad format. */
bool audio_reconfigure(AudioSynth *s, uint32_t rate, uint32_t channels, SkyError *err);
uint32_t audio_rate(const AudioSynth *s);
uint32_t audio_channels(const AudioSynth *s);
uint32_t audio_block_frames(const AudioSynth *s);
/* Boot time, before the audio side starts: a new event kind; its id, or -1 when the table is full.
 * The kind is copied; its name must outlive the synth. */
int audio_event_kind_add(AudioSynth *s, const AudioEventKind *kind);

/* Main thread (the one producer). */
void audio_publish(AudioSynth *s, const AudioParams *p);
bool audio_event(AudioSynth *s, int id, float arg);   /* false when dropped */
AudioStats audio_stats(const AudioSynth *s);

/* Audio side (the one consumer): `frames` frames of interleaved int16 into out. No heap, no lock,
 * no libm; parameters ramp inside the block so nothing clicks. */
void audio_mixer_render(AudioSynth *s, int16_t *out, uint32_t frames);

/* ------------------------------------------------------------------ traces */
/* A recorded run of the synth's inputs: parameter keys (linearly interpolated between keys; a
 * recording has one per block), events and volume changes, each sorted by time. Storage is the
 * caller's. Text form: docs/audio.md. */
typedef struct AudioTraceKey { double t; AudioParams p; } AudioTraceKey;   /* p's volumes unused */
typedef struct AudioTraceEvent { double t; uint16_t id; float arg; } AudioTraceEvent;
typedef struct AudioTraceVolume { double t; float master, engine, wind, effects; bool mute; } AudioTraceVolume;
typedef struct AudioTrace {
    uint32_t rate, block_frames;   /* the recording's (0: not given) */
    double end_t;                  /* render up to here (0: the last key's time) */
    AudioTraceKey *keys;
    AudioTraceEvent *events;
    AudioTraceVolume *volumes;
    uint32_t n_keys, n_events, n_volumes;
    uint32_t cap_keys, cap_events, cap_volumes;
} AudioTrace;

void audio_trace_init(AudioTrace *t, AudioTraceKey *keys, uint32_t cap_keys, AudioTraceEvent *events,
                      uint32_t cap_events, AudioTraceVolume *volumes, uint32_t cap_volumes);
/* Append (false when full or out of time order). */
bool audio_trace_add_key(AudioTrace *t, double time, const AudioParams *p);
bool audio_trace_add_event(AudioTrace *t, double time, int id, float arg);
bool audio_trace_add_volume(AudioTrace *t, const AudioTraceVolume *v);
/* Parses the text form; a defect is one line "name:line: what". Appends to t. */
bool audio_trace_parse(AudioTrace *t, const char *text, size_t len, const char *name, SkyError *err);
/* The text form (what audio_trace_parse reads back to the same inputs: floats and times printed
 * to round-trip), keys, events and volume lines merged by time. format works like snprintf:
 * the length it needs, at most cap - 1 bytes written and NUL-terminated. */
size_t audio_trace_format(const AudioTrace *t, char *buf, size_t cap);
bool audio_trace_save(const AudioTrace *t, const char *path, SkyError *err);
/* The inputs at a time: keys interpolated, the volume change in force. */
void audio_trace_params_at(const AudioTrace *t, double time, AudioParams *out);
double audio_trace_end(const AudioTrace *t);
/* Frames a render of the trace makes at this rate and block size (whole blocks). */
size_t audio_trace_frames(const AudioTrace *t, uint32_t rate, uint32_t block_frames);
/* Renders the trace block by block (publish, events, render) into out (frames * channels
 * samples); returns the frames written (stops at max_frames). No heap call. */
size_t audio_render_trace(AudioSynth *s, const AudioTrace *t, int16_t *out, size_t max_frames);

/* ------------------------------------------------------------------ WAV */
#define AUDIO_WAV_HEADER_BYTES 44u
/* The 44-byte RIFF/WAVE header of 16-bit PCM, every field little-endian byte by byte. */
void audio_wav_header(uint8_t out[AUDIO_WAV_HEADER_BYTES], uint32_t rate, uint32_t channels, size_t frames);
bool audio_wav_write(const char *path, const int16_t *samples, size_t frames, uint32_t channels, uint32_t rate,
                     SkyError *err);
/* FNV-1a 64 of the samples as little-endian bytes (the WAV's data chunk): the golden of a render. */
uint64_t audio_samples_hash(const int16_t *samples, size_t count);

#endif
