/* skyisles islands seen: see seen.h. */
#include "seen.h"

#include <math.h>
#include <string.h>

void seen_reset(SeenTable *t, const IslandCodex *cx, uint64_t seed) {
    memset(t, 0, sizeof *t);
    t->cx = cx && island_codex_has_archipelago(cx) ? cx : NULL;
    t->seed = seed;
}

const SeenIsland *seen_find(const SeenTable *t, int64_t cell_x, int64_t cell_z) {
    for (uint32_t i = 0; i < t->n; i++)
        if (t->isles[i].cell_x == cell_x && t->isles[i].cell_z == cell_z) return &t->isles[i];
    return NULL;
}

/* The entry for a cell with an island, added when new (the oldest entry gives way when full). */
static SeenIsland *record(SeenTable *t, int64_t cx, int64_t cz, const IslandCellSite *s, bool *added) {
    *added = false;
    SeenIsland *e = (SeenIsland *)seen_find(t, cx, cz);
    if (e) return e;
    if (t->n == SEEN_MAX) {
        uint32_t oldest = 0;
        for (uint32_t i = 1; i < t->n; i++)
            if (t->isles[i].order < t->isles[oldest].order) oldest = i;
        t->isles[oldest] = t->isles[--t->n];   /* the table's order is not the seen order */
        t->dropped++;
    }
    e = &t->isles[t->n++];
    *e = (SeenIsland){cx, cz, s->centre_x_m, s->centre_z_m, s->diameter_m, ++t->next_order, false};
    *added = true;
    return e;
}

uint32_t seen_update(SeenTable *t, double x, double z, double radius_m) {
    if (!t->cx || !(radius_m >= 0.0) || !isfinite(x) || !isfinite(z)) return 0;
    /* Cells of at least 1024 m: a view of a few km touches a handful. */
    int64_t c0x = island_cell_of(t->cx, (int64_t)floor(x - radius_m)), c1x = island_cell_of(t->cx, (int64_t)floor(x + radius_m));
    int64_t c0z = island_cell_of(t->cx, (int64_t)floor(z - radius_m)), c1z = island_cell_of(t->cx, (int64_t)floor(z + radius_m));
    uint32_t added_n = 0;
    for (int64_t cz = c0z; cz <= c1z && cz - c0z < 8; cz++)
        for (int64_t cx = c0x; cx <= c1x && cx - c0x < 8; cx++) {
            if (seen_find(t, cx, cz)) continue;
            IslandCellSite s;
            island_cell_site(t->cx, t->seed, cx, cz, &s);
            if (!s.has_island) continue;
            double dx = (double)s.centre_x_m - x, dz = (double)s.centre_z_m - z, reach = radius_m + 0.5 * s.diameter_m;
            if (dx * dx + dz * dz > reach * reach) continue;
            bool added;
            record(t, cx, cz, &s, &added);
            added_n += added;
        }
    return added_n;
}

const SeenIsland *seen_landed(SeenTable *t, double x, double z) {
    if (!t->cx || !isfinite(x) || !isfinite(z)) return NULL;
    int64_t cx = island_cell_of(t->cx, (int64_t)floor(x)), cz = island_cell_of(t->cx, (int64_t)floor(z));
    IslandCellSite s;
    island_cell_site(t->cx, t->seed, cx, cz, &s);
    if (!s.has_island) return NULL;
    bool added;
    SeenIsland *e = record(t, cx, cz, &s, &added);
    if (e->landed) return NULL;
    e->landed = true;
    return e;
}

bool seen_add(SeenTable *t, int64_t cell_x, int64_t cell_z, bool landed) {
    if (!t->cx) return false;
    IslandCellSite s;
    island_cell_site(t->cx, t->seed, cell_x, cell_z, &s);
    if (!s.has_island) return false;
    bool added;
    SeenIsland *e = record(t, cell_x, cell_z, &s, &added);
    e->landed |= landed;
    return true;
}
