/* skyisles course: the world's archipelago from the codex (archipelago.h). */
#include "course/archipelago.h"
#include "course/course.h"

#include <string.h>

static void site_of(void *ctx, int64_t cell_x, int64_t cell_z, WorldIslandSite *out) {
    const Archipelago *a = ctx;
    IslandCellSite cs;
    island_cell_site(a->cx, a->seed, cell_x, cell_z, &cs);
    out->has_island = cs.has_island;
    out->centre_x = cs.centre_x_m;
    out->centre_z = cs.centre_z_m;
    out->diameter_m = cs.diameter_m;
}

/* The island of the cell: generated from its own seed at its site's diameter, baked with its
 * coordinates in metres from the cell's centre (the world reads it so at any distance) into a
 * field of island_field_cells: the home island's metres per cell up to its cell count (a larger
 * island's cells are coarser: d / field_cells metres), so no bake costs more than the home
 * island's and one slot size serves every island; the home island's bake is field_cells exactly. */
static bool bake(void *ctx, int64_t cell_x, int64_t cell_z, MemArena *arena, IslandField *field, const void **island) {
    const Archipelago *a = ctx;
    IslandCellSite cs;
    island_cell_site(a->cx, a->seed, cell_x, cell_z, &cs);
    if (!cs.has_island) return false;
    Island *isl = mem_arena_alloc(arena, sizeof *isl, 64);
    if (!isl) return false;
    IslandParams ip = {.seed = cs.seed, .scope = a->scope, .site_count = 0, .diameter_m = cs.diameter_m};
    SkyError err = {0};
    if (!island_generate(isl, a->cx, &ip, arena, &err)) return false;
    int64_t m = (int64_t)island_codex_cell_m(a->cx);
    float ox = (float)(cs.centre_x_m - cell_x * m), oz = (float)(cs.centre_z_m - cell_z * m);
    if (!island_bake_field(field, isl, a->cx, island_field_cells(a->cx, a->scope, a->field_cells, cs.diameter_m), ox, oz,
                           arena, &err)) return false;
    if (island) *island = isl;
    return true;
}

bool archipelago_source(Archipelago *a, const IslandCodex *cx, uint32_t scope, uint64_t seed, uint32_t field_cells,
                        WorldIslandSource *out) {
    memset(out, 0, sizeof *out);
    memset(a, 0, sizeof *a);
    if (!island_codex_has_archipelago(cx) || scope >= cx->n_scopes || field_cells < 2) return false;
    a->cx = cx;
    a->seed = seed;
    a->scope = scope;
    a->field_cells = field_cells;
    a->work = island_work_bytes();
    /* any island's field: at most field_cells a side (island_field_bytes: the largest island's path grid too) */
    a->field = island_field_bytes(cx, scope, field_cells);
    out->ctx = a;
    out->cell_m = (int64_t)island_codex_cell_m(cx);
    /* the Island record, then the generator's work (handed back when it ends), then the field in
     * the same room */
    out->bake_bytes = sizeof(Island) + 64 + (a->work > a->field ? a->work : a->field) + 4096;
    out->site = site_of;
    out->bake = bake;
    return true;
}

void archipelago_island_name(const Archipelago *a, int64_t cell_x, int64_t cell_z, const char *lang, char *buf, size_t n) {
    island_cell_name(a->cx, a->seed, cell_x, cell_z, lang, buf, n);
}

int archipelago_site_at(const Island *isl, const IslandField *f, int64_t ox, int64_t oz, double x, double z) {
    if (!isl || !f || isl->n_sites == 0) return -1;
    double lx = x - (double)ox, lz = z - (double)oz;   /* metres of the field */
    uint8_t type = island_field_type_at(f, lx, lz);
    if (type == ISLAND_FIELD_OFF) return -1;
    /* The place is the field's type there: its nearest site of that type names it (a border
     * between two places is wavy, so the nearest site of all may be across it). */
    double px = lx - f->centre_x, pz = lz - f->centre_z, best = 0.0;
    int nearest = -1;
    for (uint32_t k = 0; k < isl->n_sites; k++) {
        if (isl->sites[k].type != type) continue;
        double dx = px - isl->sites[k].x_m, dz = pz - isl->sites[k].z_m, d = dx * dx + dz * dz;
        if (nearest < 0 || d < best) {
            best = d;
            nearest = (int)k;
        }
    }
    return nearest;
}

void course_island_home(const World *w, const Island *home, CourseIsland *out) {
    memset(out, 0, sizeof *out);
    out->isl = home;
    out->field = world_home(w);
    if (!out->field) out->isl = NULL;
}

bool course_island_at(World *w, const Island *home, double x, double z, CourseIsland *out) {
    WorldIsland wi;
    course_island_home(w, home, out);
    if (!world_island_at(w, x, z, &wi)) return false;
    if (wi.home) return out->isl != NULL;
    if (!wi.island || !wi.field) return false;
    *out = (CourseIsland){.isl = wi.island, .field = wi.field, .ox = wi.ox, .oz = wi.oz, .cell_x = wi.cell_x,
                          .cell_z = wi.cell_z};
    return true;
}

void course_island_site(const CourseIsland *at, uint32_t s, double *x, double *z) {
    *x = (double)at->ox + (double)at->field->centre_x + (double)at->isl->sites[s].x_m;
    *z = (double)at->oz + (double)at->field->centre_z + (double)at->isl->sites[s].z_m;
}
