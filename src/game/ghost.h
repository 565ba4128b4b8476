/* skyisles ghost: a course's best run (a replay) flown again beside the player, one sim step for
 * each of the player's (lockstep with the course clock), through the same play_step as the
 * player, so its crashes and times are the recorded ones. The HUD asks it for its time at a ring. */
#ifndef SKYISLES_GAME_GHOST_H
#define SKYISLES_GAME_GHOST_H

#include "course/course.h"
#include "play.h"

typedef struct Ghost {
    Replay *replay;             /* the best run it flies (loaded; NULL: no ghost) */
    Play play;                  /* its own screen state: crashes, restarts */
    FlightState flight;
    CameraRig rig;              /* unused by drawing; play_step's restarts reset it */
    CameraState camera;
    bool active;                /* flying: started and steps left */
    /* A course's best run restarts at its last ring passed after a crash, as the player's run
     * did when it was recorded (the game's course step): the ghost keeps its own run of the
     * course to put it there, else it would restart near its last safe place and drift. */
    CourseRun run;
    bool on_course;
    uint64_t respawns;
} Ghost;

/* Starts the ghost at its replay's first step (r loaded, e.g. by replay_load_best). */
void ghost_start(Ghost *g, Replay *r);
void ghost_stop(Ghost *g);
/* The ghost flies course c: its crashes restart it at its last ring passed (call after ghost_start). */
void ghost_course(Ghost *g, const Course *c);
/* The ring the ghost flies to next (its course run's), 0 without a course. */
uint32_t ghost_next_ring(const Ghost *g);
/* n steps in the world and model of `like` (the player's context): its input is the replay's. */
void ghost_step(Ghost *g, const PlayCtx *like, uint32_t n);
/* The ghost's aircraft to draw (false when there is none), interpolated by the player's unstepped
 * time (Play.step_acc), as the player's aircraft is. */
bool ghost_view(const Ghost *g, double step_acc, FlightState *out);
/* Steps flown, and seconds since its start. */
uint32_t ghost_steps(const Ghost *g);
double ghost_time(const Ghost *g);
/* The best run's time at ring k (its recorded split): false past its splits or without a ghost. */
bool ghost_ring_time(const Ghost *g, uint32_t ring, float *seconds);
/* The best run's whole course time (0 without a ghost). */
double ghost_course_time(const Ghost *g);

#endif
