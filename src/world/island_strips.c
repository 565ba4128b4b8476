/* skyisles world: the islands around a place and their airstrips, read from the island slots as
 * they stand (never a bake): the HUD's nearest strip, the approach lights and the landmarks'
 * night lights follow the islands the aircraft flies among, not the home island alone. */
#include "world/stream_internal.h"

#include <string.h>

/* Squared metres from (x, z) to island wi's field centre. */
static double centre_d2(const WorldIsland *wi, double x, double z) {
    double dx = (double)wi->ox + (double)wi->field->centre_x - x, dz = (double)wi->oz + (double)wi->field->centre_z - z;
    return dx * dx + dz * dz;
}

uint32_t world_islands_near(const World *w, double x, double z, WorldIsland *out, uint32_t max) {
    if (!max || !world_coord_usable(x, z)) return 0;
    uint32_t n = world_island_held(w, x, z, &out[0]) ? 1u : 0u, first = n;
    const int64_t m = w->isrc.cell_m;
    if (m <= 0) return n;   /* the home island alone */
    int64_t cx = world_island_cell(w, x), cz = world_island_cell(w, z);
    double d2[WORLD_NEAR_ISLANDS];
    for (int64_t dz = -1; dz <= 1; dz++)
        for (int64_t dx = -1; dx <= 1; dx++) {
            if ((!dx && !dz) || n >= max || n >= WORLD_NEAR_ISLANDS) continue;
            WorldIsland wi;
            if (!world_island_held(w, (double)((cx + dx) * m), (double)((cz + dz) * m), &wi)) continue;
            /* after the aircraft's own cell's island, the nearest first (insertion) */
            double d = centre_d2(&wi, x, z);
            uint32_t k = n;
            while (k > first && d2[k - 1] > d) {
                out[k] = out[k - 1];
                d2[k] = d2[k - 1];
                k--;
            }
            out[k] = wi;
            d2[k] = d;
            n++;
        }
    return n;
}

uint32_t world_strips_near(const World *w, double x, double z, WorldStrip *out, uint32_t max) {
    WorldIsland isl[WORLD_NEAR_ISLANDS];
    uint32_t ni = world_islands_near(w, x, z, isl, WORLD_NEAR_ISLANDS), n = 0;
    for (uint32_t i = 0; i < ni; i++)
        for (uint32_t k = 0; k < isl[i].field->n_strips && n < max; k++)
            if (world_island_strip(&isl[i], k, &out[n])) n++;
    return n;
}

bool world_islands_same(const WorldIsland *a, uint32_t na, const WorldIsland *b, uint32_t nb) {
    if (na != nb) return false;
    for (uint32_t i = 0; i < na; i++)
        if (a[i].cell_x != b[i].cell_x || a[i].cell_z != b[i].cell_z || a[i].field != b[i].field ||
            a[i].island != b[i].island || a[i].ox != b[i].ox || a[i].oz != b[i].oz || memcmp(&a[i].sea, &b[i].sea, sizeof a[i].sea))
            return false;
    return true;
}
