/* skyisles display pacing: the frame cap's schedule, pure (tests drive it with their own clock). */
#ifndef SKYISLES_GAME_DISPLAY_H
#define SKYISLES_GAME_DISPLAY_H

#include <stdint.h>

#include "settings.h"

typedef struct FramePacer {
    uint64_t next_ns;           /* when the next frame is due (0: not started) */
} FramePacer;

/* The frame cap's rate as its settings row names it: 30, 60, or 0 (uncapped). */
int game_frame_cap_fps(const GameSettings *s);
/* How long to wait at now_ns for a steady fps (0 when due or uncapped); a frame more than a
 * period late starts the schedule again. */
uint64_t pacer_wait_ns(FramePacer *p, int fps, uint64_t now_ns);
/* Sleeps until the frame cap's next frame is due (once after each swap); a stop signal ends the wait. */
void game_pace_frame(FramePacer *p, const GameSettings *s);

#endif
