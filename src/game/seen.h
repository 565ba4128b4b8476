/* skyisles islands seen: the islands of the archipelago that came within the view during play,
 * in the order they were first seen, and which of them were landed on, for the world map and the
 * logbook's counts. A fixed table inside the struct (no heap): when it is full the oldest entry
 * gives way (the flight is far from it by then; the logbook's counts keep every island). */
#ifndef SKYISLES_GAME_SEEN_H
#define SKYISLES_GAME_SEEN_H

#include <stdbool.h>
#include <stdint.h>

#include "island/island.h"

#define SEEN_MAX 512
#define SEEN_VIEW_M 2000.0   /* the game's reach: an island whose coast may lie within 2 km is seen */

typedef struct SeenIsland {
    int64_t cell_x, cell_z;
    int64_t centre_x_m, centre_z_m;   /* world metres */
    uint32_t diameter_m;
    uint32_t order;                   /* the how-many-th island seen (from 1) */
    bool landed;
} SeenIsland;

typedef struct SeenTable {
    const IslandCodex *cx;            /* NULL: no archipelago, nothing is recorded */
    uint64_t seed;                    /* the world's */
    uint32_t n, next_order;
    uint32_t dropped;                 /* entries given way to newer ones */
    SeenIsland isles[SEEN_MAX];
} SeenTable;

/* An empty table for the archipelago of codex cx (NULL or a pack without one: stays empty). */
void seen_reset(SeenTable *t, const IslandCodex *cx, uint64_t seed);
/* Records every island whose coast may lie within radius_m of (x, z) (its centre within radius_m
 * plus half its diameter). Returns how many were new. */
uint32_t seen_update(SeenTable *t, double x, double z, double radius_m);
/* Marks the island of the cell holding (x, z) landed on (recording it if it was not seen yet):
 * its entry when that is its first landing, else NULL (NULL too when the cell has no island). */
const SeenIsland *seen_landed(SeenTable *t, double x, double z);
/* Records the island of cell (cell_x, cell_z) as seen before (the logbook's, at boot), landed on or
 * not; false when the cell has no island. */
bool seen_add(SeenTable *t, int64_t cell_x, int64_t cell_z, bool landed);
/* The entry of cell (cell_x, cell_z), or NULL. */
const SeenIsland *seen_find(const SeenTable *t, int64_t cell_x, int64_t cell_z);

#endif
