/* skyisles courses: the mode flown (tour.c), its restarts, the replays (recorded, played back,
 * the ghost's best run), the ghost and the attract loop. */
#ifndef SKYISLES_GAME_COURSES_H
#define SKYISLES_GAME_COURSES_H

#include <stdint.h>

#include "attract.h"
#include "delivery.h"
#include "ghost.h"
#include "replay.h"
#include "replay_store.h"
#include "tour.h"

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
} GameCourses;

#endif
