/* skyisles replays: a flight as the flight inputs of each fixed sim step (after dead zone and
 * curve, quantised), with what it needs to fly again the same way: the seed, the world's
 * generation parameters, the pack's checksum, the simulation version, the flight model and the
 * sim's state at the first step. Stored run-length coded in memory carved at boot; the file
 * format is docs/replay.md. Pure: no SDL, no GL, no heap (the loader is fuzzed). */
#ifndef SKYISLES_GAME_REPLAY_H
#define SKYISLES_GAME_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "sim/sim.h"
#include "world/world.h"

#define REPLAY_FORMAT_VERSION 1u
#define REPLAY_STEP_HZ 60u
#define REPLAY_MAX_STEPS (30u * 60u * REPLAY_STEP_HZ)   /* 30 minutes of flight */
#define REPLAY_RUN_BYTES 11u                             /* u16 count, 4 x i16 axes, u8 buttons */
#define REPLAY_PARAMS_MAX 4096u                          /* the generation parameters as text */
#define REPLAY_ID_MAX 48u                                /* a course id, NUL included */
#define REPLAY_SPLITS_MAX 64u                            /* ring times kept with a best run */
#define REPLAY_FIXED_BYTES 576u                          /* the header before the parameter text */
#define REPLAY_OFF_COURSE_TIME 222u                      /* where the header keeps the course time */
#define REPLAY_FILE_MAX (REPLAY_FIXED_BYTES + REPLAY_PARAMS_MAX + REPLAY_MAX_STEPS * REPLAY_RUN_BYTES + 8u)

enum {
    REPLAY_F_COLLISION = 1u << 0,   /* collision was on */
    REPLAY_F_TRUNCATED = 1u << 1,   /* the flight went on past REPLAY_MAX_STEPS: this is its first part */
    REPLAY_F_PARAMS_CHANGED = 1u << 2, /* a world parameter changed: the recording ended there */
};
/* Bits 8-11: the weather setting flown (GameSettings.weather: 0 changing, 1 + a WeatherKind), so
 * the flight replays in the same wind; a recording from before weather reads 0, changing. */
#define REPLAY_F_WEATHER_SHIFT 8u
#define REPLAY_F_WEATHER_MASK (0xfu << REPLAY_F_WEATHER_SHIFT)
static inline uint32_t replay_weather_flags(int weather) {
    return ((uint32_t)weather << REPLAY_F_WEATHER_SHIFT) & REPLAY_F_WEATHER_MASK;
}
static inline int replay_flags_weather(uint32_t flags) {
    int w = (int)((flags & REPLAY_F_WEATHER_MASK) >> REPLAY_F_WEATHER_SHIFT);
    return w <= WEATHER_KINDS ? w : 0;
}

/* The sim's state at the first step: the aircraft and what the restart logic carries. */
typedef struct ReplayStart {
    FlightState flight;
    double safe_x, safe_y, safe_z;
    float safe_yaw, safe_timer, crash_timer;
    uint8_t state;          /* PlayState */
    bool safe_valid;
} ReplayStart;

/* One step's inputs, quantised: what the sim reads, on every platform the same. */
typedef struct ReplayInput {
    int16_t pitch, roll, yaw, throttle;   /* -32767..32767 for -1..1 */
    uint8_t boost;          /* the buttons: REPLAY_BTN_* */
} ReplayInput;
enum { REPLAY_BTN_BOOST = 1u << 0, REPLAY_BTN_BRAKE = 1u << 1 };

typedef struct ReplayHeader {
    uint32_t format, sim_version;
    uint64_t seed, pack_checksum, params_checksum;
    uint32_t steps, runs, flags, crashes;
    uint64_t end_hash;                  /* play_sim_hash after the last step */
    FlightModel model;
    ReplayStart start;
    double course_time_s;               /* a course's time (0: free flight) */
    uint32_t n_splits;
    float splits[REPLAY_SPLITS_MAX];    /* seconds at each ring */
    char course[REPLAY_ID_MAX];         /* "" for free flight */
    uint32_t params_len;
    char params[REPLAY_PARAMS_MAX];     /* "name=value\n" for every generation parameter */
} ReplayHeader;

typedef enum ReplayMode { REPLAY_IDLE = 0, REPLAY_RECORDING, REPLAY_ENDED, REPLAY_LOADED } ReplayMode;

typedef struct Replay {
    ReplayMode mode;
    ReplayHeader h;
    uint8_t *runs;          /* h.runs records of REPLAY_RUN_BYTES, carved at boot */
    size_t cap;             /* bytes at runs: REPLAY_FILE_MAX (a file is read in place) */
    /* playback */
    uint32_t at_run, at_in_run, step;
    /* recording: the counts at the first step (the hash counts from there) */
    uint64_t crashes0, respawns0;
} Replay;

/* What a recording names its world and build by. */
typedef struct ReplayMeta {
    uint64_t seed, pack_checksum;
    uint32_t flags;
    FlightModel model;
    const WorldGenParams *gen;   /* through the parameter table: every generation parameter */
} ReplayMeta;

/* Carves the run storage (REPLAY_FILE_MAX bytes) from the budget: false when it does not fit. */
bool replay_init(Replay *r, MemBudget *mem);
/* Quantises a step's input in place (the sim flies the quantised value, live and replayed). */
void replay_quantise(FlightInput *fi, ReplayInput *q);
void replay_dequantise(const ReplayInput *q, FlightInput *fi);
/* The generation parameters as the header keeps them, and their checksum. */
uint32_t replay_params_text(const WorldGenParams *gen, char *out, size_t n);
/* Starts recording at the state given. */
void replay_begin(Replay *r, const ReplayMeta *m, const ReplayStart *s, uint64_t crashes, uint64_t respawns);
/* Appends one step: false when the recording is full (it ends, REPLAY_F_TRUNCATED). */
bool replay_record(Replay *r, const ReplayInput *q);
/* Ends a recording: the final hash and crash count since its start; `flags` are added. */
void replay_end(Replay *r, uint64_t end_hash, uint64_t crashes, uint32_t flags);

/* Playback from the start: the next step's input, false after the last step. */
void replay_rewind(Replay *r);
bool replay_next(Replay *r, FlightInput *fi);

/* The file: header, parameter text, runs, FNV-1a 64 of everything before it (docs/replay.md). */
size_t replay_header_encode(const Replay *r, uint8_t *out, size_t n);   /* 0 when n is short */
uint64_t replay_file_checksum(const Replay *r, const uint8_t *head, size_t head_len);
/* Parses a whole file held at r->runs (len bytes, read there in place; the runs are moved to the
 * front): false with one line in err naming the defect and what to do. Never reads past len. */
bool replay_parse_in_place(Replay *r, size_t len, SkyError *err);
/* Copies data into r's storage and parses it (the fuzz target's way in). */
bool replay_parse(Replay *r, const uint8_t *data, size_t len, SkyError *err);
/* The recording fits this world and build: same pack, same simulation, and (when gen is given)
 * the same generation parameters; false with one line saying which and what to do. */
bool replay_check(const Replay *r, uint64_t pack_checksum, const WorldGenParams *gen, const char *what, SkyError *err);
/* Sets the generation parameters a replay names (for --replay): false when one is unknown here. */
bool replay_apply_params(const Replay *r, WorldParams *wp, const char *what, SkyError *err);

#endif
