/* skyisles courses: the mode flown (tour.c), its restarts, the replays (recorded, played back,
 * the ghost's best run), the ghost and the attract loop. */
#ifndef SKYISLES_GAME_COURSES_H
#define SKYISLES_GAME_COURSES_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "attract.h"
#include "delivery.h"
#include "ghost.h"
#include "replay.h"
#include "replay_store.h"
#include "tour.h"

/* Courses laid ahead (course_cache.c): while the player sits in the pause menu or on the title, a
 * thread of its own lays each mode's course for the world as it is now (a world of its own with
 * the game's generation parameters, as the attract's preparation does), so starting a mode takes
 * the laid course instead of laying it in the frame (the sky course: hundreds of ms, seconds on a
 * Pi). A mode started before its course was laid for this world asks the thread for it (laid
 * next, idle or not) and begins when it is there: the frame never lays it. `state`, `want` and
 * the job under `lock`; a slot being laid belongs to the thread until it says done. */
#define COURSE_CACHE_SLOTS 4
typedef struct CourseCacheSlot {
    const GameMode *mode;       /* NULL: empty */
    uint64_t params;            /* course_params_hash of the world it was laid in */
    int64_t cell_x, cell_z;     /* the archipelago cell it was laid for (the tour's island: the
                                   aircraft's cell; (0, 0) for a course that is not an island's) */
    bool ok;                    /* laid (false: the layout failed there; laid in the frame, which says why) */
    Course *course;
} CourseCacheSlot;
typedef struct CourseCache {
    bool started;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cv;
    int state;                  /* 0 idle, 1 laying slot `job`, 2 done */
    bool quit;
    atomic_bool stop;           /* give the layout up (shutdown) */
    int job;
    World *world;               /* the thread's world */
    MemArena arena;
    CourseWork *work;
    const Island *island;
    const IslandCodex *codex;
    double at_x, at_z;          /* the aircraft at the last tick (main thread) */
    double job_x, job_z;        /* ... when the job was given: the tour's island is the one there */
    CourseCacheSlot slot[COURSE_CACHE_SLOTS];
    double job_ms;
    int want;                   /* the slot a mode's start waits for: laid first, idle or not (-1 none) */
    uint32_t laid, hits, misses;
} CourseCache;

typedef struct GameCourses {
    Tour tour;                  /* the mode flown (tour.c); Free flight: no course */
    uint64_t course_respawns;   /* play.respawns the course has restarted for */
    /* replays (replay_game.c): the flight being recorded, a --replay file, the ghost's best run */
    Replay rec, playback, ghost_run;
    ReplayMeta meta;
    ReplayStore store;
    Ghost ghost;
    Attract attract;            /* the attract mode's bundled replay (attract.c) */
    GameDelivery delivery;      /* jobs and the logbook (delivery.c) */
    CourseCache cache;          /* courses laid ahead, off the frame (course_cache.c) */
    const GameMode *pending;    /* a mode asked for whose course the cache's thread still lays */
} GameCourses;

#endif
