/* skyisles Continue: where a flight left off (position, heading, attitude, speed, camera, mode),
 * kept per seed in the config folder as continue-SEED.txt, written at quit and at most every
 * CONTINUE_SAVE_SECONDS in flight (never per frame: SD cards wear), atomically. The title offers
 * it; a saved spot the world has since filled with rock resumes at the nearest open air. */
#ifndef SKYISLES_GAME_CONTINUE_H
#define SKYISLES_GAME_CONTINUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"
#include "world/world.h"

#define CONTINUE_SAVE_SECONDS 30.0f
#define CONTINUE_SPEED_MAX 1e4f   /* m/s: twice the boost's top speed; a file past it is no saved flight */
/* Metres: the farthest coordinate the game takes (--start, the pause menu's Fly to) and keeps
 * (Continue, replays): inside the generated world (WORLD_COORD_LIMIT, 2^42 blocks, 4.398e12 m)
 * by more than any view radius, so what is around a place given is always ground and sky, never
 * the empty air past the world's end. A double still holds 1/1000 m there; no flight gets near
 * it (5000 m/s for a year is 1.6e11 m). */
#define GAME_POS_MAX 4e12
_Static_assert(GAME_POS_MAX + 1e6 < WORLD_COORD_LIMIT, "a place the game takes has the world around it");

typedef struct ContinueSpot {
    uint64_t seed;
    double x, y, z;
    float yaw, pitch, roll;     /* radians */
    float speed, throttle;
    int camera;                 /* GameCamera */
    char mode[16];              /* "free": free flight (the only mode so far) */
} ContinueSpot;

typedef struct GameContinue {
    bool enabled;               /* a config folder that can be written */
    char dir[512];
    uint64_t seed;
    bool have;                  /* a spot for this seed was read or saved */
    ContinueSpot spot;
    float since_save;           /* seconds flown since the last write */
    uint32_t writes;            /* files written this run (tests, the report) */
} GameContinue;

/* Reads DIR/continue-SEED.txt when there (dir "" or enabled false: nothing is read or written). */
void continue_init(GameContinue *c, const char *dir, uint64_t seed, bool enabled);
/* The spot of this flight, written now. False (one line logged) when it could not be. */
bool continue_save(GameContinue *c, const FlightState *f, int camera, const char *mode);
/* Once a frame while the player flies: writes when CONTINUE_SAVE_SECONDS have been flown since
 * the last write. */
void continue_tick(GameContinue *c, const FlightState *f, int camera, bool flying, float dt);
/* Puts the aircraft at the saved spot (keeping f's time); when that spot is rock now, at the
 * nearest open air (sim_respawn_near), else the spawn's flight `fallback`. *moved says the spot
 * was not clear. False when there is no spot. */
bool continue_restore(const GameContinue *c, const World *w, const FlightState *fallback, FlightState *f, int *camera,
                      bool *moved);
/* The file's text, and its reading (false when it is not one). The position is written with 17
 * significant digits: it reads back as the same doubles at any distance (1e12 + 0.1 too). */
size_t continue_format(const ContinueSpot *s, char *buf, size_t n);
bool continue_parse(const char *text, ContinueSpot *out);

#endif
