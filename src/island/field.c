/* skyisles island: bakes the home island into core's IslandField for the world: elevation from
 * the scope's elevation axis field (as stretched for this island), type of the nearest site. */
#include "island/island_int.h"

_Static_assert(ISLAND_MAX_TYPES <= ISLAND_FIELD_MAX_TYPES, "the baked field carries a colour per type");
_Static_assert(ISLAND_FIELD_MAX_TYPES <= ISLAND_FIELD_OFF, "no type index may read as off-island");
_Static_assert(ISLAND_MAX_SITES <= ISLAND_FIELD_MAX_SITES, "the baked field carries every site");

bool island_bake_field(IslandField *f, const Island *isl, const IslandCodex *cx, uint32_t size,
                       float centre_x, float centre_z, MemArena *mem, SkyError *err) {
    memset(f, 0, sizeof *f);
    if (size < 2 || size > 4096 || isl->scope >= cx->n_scopes || isl->n_sites == 0) {
        sky_error_set(err, SKY_ERR_GENERATE, "island field: size %u must be 2..4096 and the island generated", size);
        return false;
    }
    const IslandScope *s = &cx->scopes[isl->scope];
    const uint32_t ea = s->elevation_axis;
    const IslandAxis *axis = &cx->axes[ea];
    uint16_t *elev = mem_arena_alloc(mem, sizeof(uint16_t) * size * size, 64);
    uint8_t *type = mem_arena_alloc(mem, (size_t)size * size, 64);
    if (!elev || !type) {
        sky_error_set(err, SKY_ERR_GENERATE, "island field: %u x %u cells need %zu bytes more than the arena has", size, size,
                      (size_t)size * size * 3);
        return false;
    }
    const double radius_m = (double)s->diameter_m * 0.5, cell = (double)s->diameter_m / (double)size;
    for (uint32_t j = 0; j < size; j++)
        for (uint32_t i = 0; i < size; i++) {
            double lx = ((double)i + 0.5) * cell - radius_m, lz = ((double)j + 0.5) * cell - radius_m;
            double nx = lx / radius_m, nz = lz / radius_m;
            size_t c = (size_t)j * size + i;
            if (nx * nx + nz * nz > 1.0) {
                elev[c] = 0;
                type[c] = ISLAND_FIELD_OFF;
                continue;
            }
            double u = isl_axis_unit(isl, axis, ea, isl_axis_blend(axis, isl->axis_noise_seed[ea], nx, nz));
            int32_t dm = isl_round(u * (double)s->elevation_top_m * 10.0);
            elev[c] = (uint16_t)(dm < 0 ? 0 : dm > 65535 ? 65535 : dm);
            double gx = nx * ISLAND_GRID_RADIUS, gz = nz * ISLAND_GRID_RADIUS, best = 0.0;
            uint32_t nearest = 0;
            for (uint32_t k = 0; k < isl->n_sites; k++) {
                double dx = gx - isl->sites[k].gx, dz = gz - isl->sites[k].gz, d = dx * dx + dz * dz;
                if (k == 0 || d < best) {
                    best = d;
                    nearest = k;
                }
            }
            type[c] = isl->sites[nearest].type;
        }
    f->size = size;
    f->cell_meters = (float)cell;
    f->centre_x = centre_x;
    f->centre_z = centre_z;
    f->radius_m = (float)radius_m;
    f->elevation_top_m = (float)s->elevation_top_m;
    f->elevation_dm = elev;
    f->type = type;
    /* Ground colours come from the codex (prop ground_rgb), so a new type brings its own. */
    f->n_types = cx->n_types < ISLAND_FIELD_MAX_TYPES ? cx->n_types : ISLAND_FIELD_MAX_TYPES;
    for (uint32_t t = 0; t < f->n_types; t++) {
        int32_t rgb = 0x808080;
        island_codex_prop(cx, t, -1, "ground_rgb", &rgb);
        f->type_rgb[t] = (uint32_t)rgb & 0xffffffu;
        /* Landmark and flora names from the codex: the world looks them up in its tables. */
        f->type_landmark[t] = cx->types[t].landmark;
        f->type_flora[t] = cx->types[t].flora;
    }
    /* The sites, in metres from the centre: each gets its type's landmark. */
    f->n_sites = isl->n_sites < ISLAND_FIELD_MAX_SITES ? isl->n_sites : ISLAND_FIELD_MAX_SITES;
    for (uint32_t k = 0; k < f->n_sites; k++) {
        f->sites[k].x_m = isl->sites[k].x_m;
        f->sites[k].z_m = isl->sites[k].z_m;
        f->sites[k].type = isl->sites[k].type;
    }
    return true;
}
