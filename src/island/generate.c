/* skyisles island: the pipeline in order (I2): placement, axes, guarantees and matching,
 * Delaunay, paths, naming; plus the island's golden hash. */
#include "island/island_int.h"

size_t island_work_bytes(void) {
    const size_t n = ISLAND_MAX_SITES, tri_cap = 4 * n + 16;
    size_t delaunay = tri_cap * (8 + 4 + 4) + 3 * 64;
    size_t paths = n + n * n * (2 + 8) + n * 8 + n + ISLAND_MAX_EDGES * (2 + 8) + n * 2 + 8 * 64;
    return (delaunay > paths ? delaunay : paths) + 4096;
}

bool island_generate(Island *isl, const IslandCodex *cx, const IslandParams *p, MemArena *work, SkyError *err) {
    if (!cx || cx->n_scopes == 0 || p->scope >= cx->n_scopes) {
        sky_error_set(err, SKY_ERR_GENERATE, "island: scope %u does not exist in the codex (%u scopes)", p->scope, cx ? cx->n_scopes : 0);
        return false;
    }
    if (p->site_count != 0 && (p->site_count < 3 || p->site_count > ISLAND_MAX_SITES)) {
        sky_error_set(err, SKY_ERR_GENERATE, "island: site count %u is outside 3..%d", p->site_count, ISLAND_MAX_SITES);
        return false;
    }
    if (p->diameter_m != 0 && (p->diameter_m < 10 || p->diameter_m > 100000)) {
        sky_error_set(err, SKY_ERR_GENERATE, "island: diameter %u m is outside 10..100000", p->diameter_m);
        return false;
    }
    const IslandScope *s = &cx->scopes[p->scope];
    memset(isl, 0, sizeof *isl);
    isl->seed = p->seed;
    isl->scope = p->scope;
    isl->diameter_m = p->diameter_m ? p->diameter_m : s->diameter_m;
    isl_coast_init(isl, cx);
    size_t mark = work->used;
    bool ok = isl_place_sites(isl, s, p->site_count, err);
    if (ok) {
        isl_sample_axes(isl, cx, s);
        isl_assign_types(isl, cx, p->scope);
        ok = isl_triangulate(isl, work, err) && isl_build_paths(isl, cx, s, work, err);
    }
    if (ok) isl_name_sites(isl, cx);
    work->used = mark;
    return ok;
}

uint64_t island_hash(const Island *isl) {
    uint64_t h = hash_fnv1a64(&isl->n_sites, sizeof isl->n_sites, 0);
    for (uint32_t i = 0; i < isl->n_sites; i++) {
        const IslandSite *s = &isl->sites[i];
        int32_t v[8 + ISLAND_MAX_AXES] = {s->gx, s->gz, s->type, s->variant, s->serial, s->guaranteed,
                                          s->guarantee_fallback, s->cap_overflow};
        for (uint32_t a = 0; a < ISLAND_MAX_AXES; a++) v[8 + a] = s->axis[a];
        h = hash_fnv1a64(v, sizeof v, h);
    }
    for (uint32_t t = 0; t < isl->n_tris; t++) h = hash_fnv1a64(isl->tris[t].v, sizeof isl->tris[t].v, h);
    for (uint32_t e = 0; e < isl->n_edges; e++) {
        uint32_t v[4] = {isl->edges[e].a, isl->edges[e].b, isl->edges[e].path, isl->edges[e].minutes};
        h = hash_fnv1a64(v, sizeof v, h);
    }
    uint32_t tail[3] = {isl->base, isl->farthest, isl->round_trip_minutes};
    return hash_fnv1a64(tail, sizeof tail, h);
}
