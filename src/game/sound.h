/* skyisles game sound: the synth (src/audio) in the game: the output device through the platform
 * (opened, lost, retried), the parameters probed from the flight and the field once a frame, the
 * game's events, rumble, and the --audio-out recording rendered offline at the end. */
#ifndef SKYISLES_GAME_SOUND_H
#define SKYISLES_GAME_SOUND_H

#include <stdbool.h>
#include <stdint.h>

#include "audio/audio.h"
#include "core/core.h"
#include "platform.h"
#include "sim/sim.h"
#include "world/world.h"

struct GameSettings;

#define SOUND_RATE 48000u
#define SOUND_BUFFER_FRAMES 1024u     /* ~21 ms at 48 kHz */
#define SOUND_RETRY_SECONDS 2.0f      /* a lost or missing device is tried again this often */
#define SOUND_RECORD_SECONDS_MAX 900.0
#define SOUND_ENCLOSURE_RAYS 14       /* 6 axes + 8 diagonals around the aircraft */
#define SOUND_RAYS_PER_FRAME 1        /* the probes are spread over frames (cost cap) */

/* Where the device comes from: the platform's SDL device, or a test's stand-in (the seam that
 * lets a test remove a device and bring it back, which SDL's dummy driver cannot). */
typedef struct SoundBackend {
    bool (*open)(void *ctx, const PlatformAudioSpec *spec, PlatformAudioGot *got, char *why, size_t why_n);
    void (*close)(void *ctx);
    int (*devices)(void *ctx, char (*names)[128], int max);
    void (*rumble)(void *ctx, float low, float high, uint32_t ms);
    void *ctx;
} SoundBackend;
/* The platform's device and pads (p may be NULL: no rumble). */
SoundBackend sound_backend_platform(Platform *p);

typedef struct SoundSetup {
    bool device;                  /* open an output device (interactive runs, or --audio) */
    const char *record_path;      /* --audio-out FILE.wav: record and render at the end */
    double record_seconds;        /* how long the recording may get (its memory is carved now) */
    const SoundBackend *backend;  /* NULL: sound_backend_platform(platform) */
    Platform *platform;
} SoundSetup;

/* The game's events (bits for sound_frame; sound_event takes any AudioEventId). */
enum {
    SOUND_EV_CRASH = 1u << 0,
    SOUND_EV_RESTART = 1u << 1,
    SOUND_EV_MENU_MOVE = 1u << 2,
    SOUND_EV_MENU_CONFIRM = 1u << 3,
    SOUND_EV_MENU_BACK = 1u << 4,
    SOUND_EV_PAD_PLUGGED = 1u << 5,
    SOUND_EV_PAD_UNPLUGGED = 1u << 6,
};

/* What one frame hands the sound. */
typedef struct SoundInput {
    const FlightState *flight;
    const World *world;           /* the field the probes sample (the collision field) */
    AudioMode mode;
    unsigned events;              /* SOUND_EV_* this frame */
    bool device_lost, device_added;   /* the platform's audio events this frame */
    bool boost_held;              /* the pilot (or autopilot) asks for boost: rumble on its start */
    /* the wheels: touchdowns so far and the last one's rating (SimTouchRating) and sink, the
     * brakes held, the stall warning on */
    uint64_t touchdowns;
    int touch_rating;
    float touch_sink;
    bool brake, stall;
    const WeatherState *weather;  /* the frame's weather (rain, wind, lightning); NULL: calm and dry */
} SoundInput;

/* What the field probes found (sound_probe: pure, on the main thread). */
/* 0..1: how near the aircraft at (x, y, z) is to the home island's nearest waterfall (the falls
 * voice's level): 1 at its sheet, 0 from SOUND_FALLS_HEAR_M (220 m) away. */
float sound_falls_near(const World *w, double x, double y, double z);

typedef struct SoundProbe {
    float ray_hit[SOUND_ENCLOSURE_RAYS];   /* distance to rock along each ray, 0: none within reach */
    uint32_t next_ray;
    bool cloud_in[3];                      /* the cloud 6 m below, at and above the aircraft */
    uint32_t next_cloud;
    float cloud, terrain_near, enclosure, depth;
} SoundProbe;

#define SOUND_THUNDER_MAX 4       /* rolls on their way at once (a storm strikes every few seconds) */
typedef struct Sound {
    AudioSynth *synth;            /* NULL: no sound in this run */
    SoundBackend be;
    bool want_device;
    bool open;                    /* the device runs */
    float retry_s;                /* until the next try to open */
    bool warned;                  /* one warning per outage */
    PlatformAudioGot got;
    char want_name[128];          /* the device the settings ask for ("default") */
    uint32_t reopens, losses;
    AudioParams params;           /* the last snapshot published */
    SoundProbe probe;
    double probe_ms_last, probe_ms_max, probe_ms_sum;
    uint64_t frames;
    /* rumble */
    uint32_t booms_seen;
    float boost_prev, buffet_timer;
    uint32_t rumbles;
    /* the wheels and the stall: touchdowns already heard, time to the next tick of each */
    uint64_t touchdowns_seen;
    float tyre_timer, brake_timer, horn_timer;
    /* --audio-out */
    bool recording, record_full;
    char record_path[512];
    AudioTrace trace;
    double t;                     /* seconds of frames fed */
    AudioTraceVolume vol_last;
    bool vol_any;
    /* thunder: each strike seen once, heard its distance / WEATHER_SOUND_SPEED later */
    uint32_t thunder_seen;
    float thunder_in[SOUND_THUNDER_MAX], thunder_pitch[SOUND_THUNDER_MAX];   /* > 0: seconds to go */
} Sound;

/* Boot time: the synth (and the recording) carved from the budget, the device opened when
 * asked (a failure is one warning line: the game runs silent and retries). Nothing is done and
 * true is returned when the run wants neither a device nor a recording. False only when the
 * budget cannot hold the synth (err). The device list is refreshed (set's device choice kept by
 * name). */
bool sound_boot(Sound *s, MemBudget *mem, const SoundSetup *setup, struct GameSettings *set, SkyError *err);
void sound_shutdown(Sound *s);
/* Once a frame on the main thread: probes, parameters, events, rumble, the device's health (a
 * device appearing refreshes the device list, which may renumber set's device choice). */
void sound_frame(Sound *s, const SoundInput *in, struct GameSettings *set, float dt);
/* Any event (the tour's rings: AUDIO_EVENT_RING with a pitch factor); main thread only. */
void sound_event(Sound *s, int id, float arg);
/* The settings changed (the Sound page): the output device follows at once. */
void sound_apply_settings(Sound *s, const struct GameSettings *set);
/* --audio-out: renders the recording to its WAV (once, at the end). False with one line. */
bool sound_finish(Sound *s, SkyError *err);

/* The probes of one frame: SOUND_RAYS_PER_FRAME rays of the enclosure ring, one of the three cloud
 * samples at the aircraft, the depth from W8's abyss factor. Pure: the world's density and cloud queries. */
void sound_probe(SoundProbe *pr, const World *w, const FlightState *f);
/* W8's abyss factor at an altitude (1 deep in the abyss, 0 in the open sky): the renderer's. */
float sound_depth_at(double y);

/* The Sound page's device row (game_audio_device_names): "default", then SDL's outputs; a chosen
 * device that is absent stays listed, so the choice is kept. Boot and hot-plug call it. */
void sound_devices_refresh(const SoundBackend *be, struct GameSettings *set);
/* Before the settings file is read: the device it names joins the list (so it reads back). */
void sound_devices_prepare(const char *config_dir);

#endif
