/* skyisles attract mode: idle on the title or in the pause menu (or --demo), the game plays a
 * bundled replay of the course pilot flying the default seed's sky course (rings, the course's
 * HUD, no ghost), again and again, until any input hands back what it interrupted, as it was.
 * Where the file is missing or damaged, or was recorded with another simulation, pack or world
 * (the player changed a world parameter), one line says so and the autopilot flies as before.
 * `skyisles --record-attract FILE` (make attract-replay) records the file; docs/replay.md. */
#ifndef SKYISLES_GAME_ATTRACT_H
#define SKYISLES_GAME_ATTRACT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ghost.h"
#include "play.h"
#include "replay.h"
#include "settings.h"
#include "tour.h"

/* Where the game looks for it (game_data_file: beside the game, SKYISLES_DATA_DIR, the install). */
#define ATTRACT_REPLAY_FILE "replays/attract-sky.skyr"
#define ATTRACT_WATCH_FRAMES 120u
/* Idle this long on the title or in the pause menu (well before PLAY_DEMO_IDLE_SECONDS), or at
 * --demo's start, the replay's preparation (its course laid, the replay flown unseen) begins on
 * the attract's own thread, so no frame does that work (320 + 47 ms on a desktop, ~2 s on a Pi 4). */
#define ATTRACT_PREP_IDLE_SECONDS 5.0f

/* The preparation's thread (attract_prep.c), started at boot with its own memory: a world of its
 * own (the game world's generation parameters copied at each kick: nothing the main thread
 * changes is read), the layout's work memory, and the unseen flight's ghost. `state` and `quit`
 * under `lock`; what the thread reads and writes (the job, the course, the replay's cursor, the
 * result) belongs to the thread from the kick until it says DONE, to the main thread otherwise. */
enum { ATTRACT_PREP_IDLE, ATTRACT_PREP_RUNNING, ATTRACT_PREP_DONE };
typedef struct AttractPrep {
    bool started;               /* the thread runs (joined by attract_shutdown) */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cv;
    int state;                  /* ATTRACT_PREP_* */
    bool quit;
    bool hold;                  /* tests: the thread waits before the work (attract_prep_hold) */
    bool busy;                  /* the thread is at the work (not waiting) */
    atomic_bool stop;           /* give the running preparation up (a world change, shutdown) */
    World *world;               /* the thread's world */
    MemArena arena;
    CourseWork *work;
    Ghost probe;                /* the unseen flight */
    /* the job (set at the kick) */
    uint64_t params;            /* course_params_hash of the world it prepares for */
    PlayCtx ctx;                /* the unseen flight's context: the thread's world and copies */
    GameSettings set;
    SimSpawn spawn;
    InputState in;              /* no input */
    const Island *island;       /* the home island (a tour's replay): read only after boot */
    const IslandCodex *codex;
    /* the result */
    bool ok;
    bool given_up;              /* stopped before its end: no verdict */
    SkyError err;
    double ms;                  /* the work's time on the thread */
    /* what was done (tests): preparations run, layouts, unseen flights, and any layout or flight
     * done on the thread that started the preparation's (the game's main thread: never) */
    uint32_t runs, lays, flights, on_main;
    pthread_t main_thread;      /* the thread that started it */
} AttractPrep;

typedef struct Attract {
    Replay run;                 /* the bundled replay (storage carved at boot) */
    Course *course;             /* its course, laid at the first attract that plays it */
    bool loaded;                /* the file parsed */
    bool laid;                  /* course holds the course of this world's parameters (laid_params) */
    uint64_t laid_params;       /* course_params_hash of the world it was laid in */
    bool verified;              /* the loaded replay flew its course unseen in that world */
    bool prepared;              /* a preparation finished for this file in world prepared_params: */
    uint64_t prepared_params;   /* verified says whether it fits, prep_why why not */
    SkyError prep_why;
    bool waiting;               /* this loop waits for the preparation (the autopilot flies) */
    bool decided;               /* this loop does not play the replay (said once per reason) */
    bool kept;                  /* the player's state below kept at this loop's start */
    uint64_t kick_frame, ready_frame, begin_frame;   /* play.frames at the last kick, result, start */
    AttractPrep prep;
    bool playing;               /* the replay flies now (the player's state kept below) */
    bool session;               /* this attract loop has begun (replay or autopilot) */
    char path[1024];            /* the file read ("" when none was found) */
    SkyError load_err;          /* why the file did not load */
    char why[400];              /* why it does not play, as last logged ("" none yet) */
    GameSettings set;           /* the settings the replay flies with (collision as recorded) */
    uint32_t loops;             /* times it has played to its end */
    /* The frames at the loop's start (the log's debug line): the longest gap between two frames'
     * attract_before_frame from the loop's first frame over ATTRACT_WATCH_FRAMES frames. */
    double watch_last_ms, watch_max_ms, watch_own_ms;
    uint32_t watch_frames;
    /* the player's state while the loop flies (the replay or the autopilot) */
    FlightState flight;
    Play play;
    Ghost ghost;
    TourSaved tour;
    uint64_t course_respawns;
} Attract;

typedef struct GameConfig GameConfig;
typedef struct GameOptions GameOptions;
typedef struct GameServices GameServices;
typedef struct GameSession GameSession;
typedef struct GameCourses GameCourses;

/* Boot (runs with an attract loop: not headless, shots or benches): the bundled file found, its
 * bytes and its course carved, the file read (a missing or damaged file is noted, said at the
 * first attract). False with one line when the budget is short. */
bool attract_boot(Attract *a, const GameOptions *o, MemBudget *mem, const World *world, SkyError *err);
/* Reads another file as the attract's replay (tests; in a run that carved nothing for it at boot,
 * a headless one, its storage is carved from the budget first): false with the line in err. */
bool attract_load(Attract *a, MemBudget *mem, const World *world, const char *path, SkyError *err);
/* Before a frame's steps: a finished preparation taken; idle a few seconds (or in the loop) with
 * none for this world, one kicked; the attract loop begun and the replay prepared and fitting this
 * world -> it takes over the flight, the course and the HUD; while it is being prepared the
 * autopilot flies; when it does not fit, the line and the autopilot. */
void attract_before_frame(GameCourses *crs, GameSession *ses, const GameServices *svc, const GameSettings *set);
/* After a frame: any input ended the loop -> the player's flight, course and ghost back as they
 * were (demo: the run's --demo, which hands back the title); the replay at its end -> again from
 * its start. */
void attract_after_frame(GameCourses *crs, GameSession *ses, Renderer *render, bool demo);
bool attract_playing(const Attract *a);
/* The loop flies the autopilot in the player's place (the replay being prepared, or not fitting):
 * the player's state is kept aside and put back at its end, so the game's frame neither records
 * these steps nor runs the player's course with them. */
bool attract_holds_player(const Attract *a);
/* The replay fits this world and build (pack, simulation, parameters, course) and, flown once
 * unseen (once per world), passes every ring to its recorded state: false with why. Waits for
 * the preparation when this world has none yet (tests and tools; frames never wait). frame: play's
 * frame count now (noted at a kick). */
bool attract_check(Attract *a, const GameServices *svc, const GameSettings *set, uint64_t frame, SkyError *err);
/* A world parameter changed: a preparation running for the old one is given up (its result,
 * of another world, is never used). */
void attract_world_changed(Attract *a);
/* The preparation's thread stopped and joined (game_shutdown, before the world goes). */
void attract_shutdown(Attract *a);

/* The preparation (attract_prep.c; attract.c's only callee there). Start: its memory carved from
 * the budget (false when short) and its thread started (when it cannot be, prep.started stays
 * false and the loop flies the autopilot with a line saying so). Kick: when idle and none is running, the
 * job for the game's world now, whose course_params_hash the caller gives (false: it runs or waits
 * for a taking). Take: a finished one's
 * result into the attract (true). Wait: until none runs. Hold (tests): the thread waits before
 * the work until released. */
bool attract_prep_start(Attract *a, MemBudget *mem, const World *world);
bool attract_prep_kick(Attract *a, const GameServices *svc, const GameSettings *set, uint64_t params);
bool attract_prep_take(Attract *a);
void attract_prep_wait(Attract *a);
void attract_prep_hold(Attract *a, bool hold);
bool attract_prep_running(Attract *a);
void attract_prep_stop(Attract *a);   /* the thread ended and joined */
/* --record-attract FILE: the course pilot flies this world's sky course in the game, unpaced, from
 * its start to its last ring; the recording (with the course's id and ring times) goes to FILE.
 * The exit status. */
int game_attract_record(GameConfig *cfg, GameServices *svc, GameSession *ses, GameCourses *crs);

#endif
