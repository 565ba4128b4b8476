/* skyisles night lights of the landmarks of the islands around the aircraft (night_lights.c):
 * found as those islands change, handed to each frame's view. */
#ifndef SKYISLES_GAME_NIGHT_LIGHTS_H
#define SKYISLES_GAME_NIGHT_LIGHTS_H

#include <stdbool.h>
#include <stdint.h>

#include "render/render.h"
#include "world/world.h"

#define GAME_LAMPS_MAX 64

typedef struct GameLamp {
    double x, y, z;             /* world metres */
    uint8_t look;               /* the landmark's kind of light */
} GameLamp;

typedef struct GameLamps {
    bool ready;
    uint32_t n_islands;         /* the islands the lamps were found for */
    WorldIsland island[WORLD_NEAR_ISLANDS];
    WorldGenParams gen;
    uint32_t count;
    GameLamp lamp[GAME_LAMPS_MAX];
} GameLamps;

/* Finds the lit landmarks' lamps of islands isl (n of them, the nearest first: the islands around
 * the aircraft, world_islands_near's) again when those islands or the generation changed (the
 * ground under each from the world: a few point queries per site, once). */
void game_lamps_update(GameLamps *l, const World *w, const WorldIsland *isl, uint32_t n);
/* Adds the lamps nearest the view's camera to its lights (the lighthouse's beam turned to the
 * sim's time). */
void game_lamps_view(const GameLamps *l, RenderView *v, double time_s);
/* The lamp of a landmark shape standing on block column (bx, bz) with its base at base_y (the
 * block above the ground); false when the shape carries no light. */
bool game_lamp_at(const char *landmark, int64_t bx, int base_y, int64_t bz, GameLamp *out);
/* Adds a lamp's lights to the view: its glow (a fire's flickering with the sim's time), and the
 * lighthouse's beam turned to it. */
void game_lamp_lights(const GameLamp *m, RenderView *v, double time_s);
/* The landmark lamp i belongs to ("lighthouse"), NULL past the end. */
const char *game_lamp_landmark(const GameLamps *l, uint32_t i);

#endif
