/* skyisles course: the world's archipelago from the codex. The world knows no codex: this wires
 * the island pipeline to it as its island source (each cell's island from the codex's
 * archipelago data, generated and baked as the home island is) and names the islands. */
#ifndef SKYISLES_COURSE_ARCHIPELAGO_H
#define SKYISLES_COURSE_ARCHIPELAGO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "island/island.h"
#include "world/world.h"

typedef struct Archipelago {
    const IslandCodex *cx;
    uint64_t seed;              /* the world's */
    uint32_t scope;             /* the generation scope of every island (the home island's) */
    uint32_t field_cells;       /* the home island's field cells a side: no island's field has more */
    size_t work, field;
} Archipelago;

/* The source for the world (world_set_islands) of codex cx's archipelago for world seed `seed`;
 * false when the codex has none (an older pack: the home island alone). a must outlive the world. */
bool archipelago_source(Archipelago *a, const IslandCodex *cx, uint32_t scope, uint64_t seed, uint32_t field_cells,
                        WorldIslandSource *out);
/* The name of cell (cell_x, cell_z)'s island in lang ("Isle of ..."). */
void archipelago_island_name(const Archipelago *a, int64_t cell_x, int64_t cell_z, const char *lang, char *buf, size_t n);
/* The site of isl nearest (x, z) among those of the location type under it (field f, whose
 * metres count from (ox, oz)); -1 off the island. */
int archipelago_site_at(const Island *isl, const IslandField *f, int64_t ox, int64_t oz, double x, double z);

#endif
