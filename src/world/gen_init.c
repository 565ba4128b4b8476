/* skyisles world: the per-epoch generation snapshot (WorldGen) from the generation parameters
 * and the home island: every seed stage, the fixed-point frequencies, the active cave kinds and
 * the home island's tables, plus the point queries that build a snapshot of their own. */
#include "world/world_internal.h"

#include <math.h>
#include <string.h>

uint32_t gen_derive_seed(uint64_t seed, uint32_t stage) {
    uint64_t s = seed ^ ((uint64_t)stage * 0x9e3779b97f4a7c15ull);
    return (uint32_t)(splitmix64_next(&s) >> 32);
}

static NoiseFbm fbm_of(uint32_t octaves) {
    NoiseFbm f = noise_fbm_default();
    f.octaves = octaves ? octaves : 1;
    return f;
}

/* The generated top: in range, rounded up to whole coarse cells. */
static int32_t gen_top_of(int32_t top) {
    if (top <= WORLD_Y_MIN || top > WORLD_Y_MAX) top = WORLD_Y_MAX;
    top = WORLD_Y_MIN + ((top - WORLD_Y_MIN + WORLD_CELL_Y - 1) / WORLD_CELL_Y) * WORLD_CELL_Y;
    return top > WORLD_Y_MAX ? WORLD_Y_MAX : top;
}

/* Values the field could not use (an empty cloud band, a flat underside) held where it can. */
static void gen_normalise(WorldGenParams *q) {
    q->gen_y_max = gen_top_of(q->gen_y_max);
    if (q->cloud_range < 1.0f) q->cloud_range = 1.0f;
    if (q->island_bottom < 1.0f) q->island_bottom = 1.0f;
    if (q->biome_blend < 0.02f) q->biome_blend = 0.02f;
}

/* Every seed of the snapshot: one stage per noise field, so a new field never moves another. */
static void gen_seeds(WorldGen *g) {
    uint64_t seed = g->p.seed;
    g->s_base = gen_derive_seed(seed, 1);
    g->s_n3 = gen_derive_seed(seed, 2);
    g->s_isl = gen_derive_seed(seed, 3);
    g->s_islh = gen_derive_seed(seed, 4);
    /* Stages 5-8 and beyond: the cave kinds' fields (their entries name them, gen_cave_seeds). */
    g->s_cloud = gen_derive_seed(seed, 9);
    g->s_jitter = gen_derive_seed(seed, 10);
    g->s_temp = gen_derive_seed(seed, 11);
    g->s_humid = gen_derive_seed(seed, 12);
    g->s_props = gen_derive_seed(seed, 13);   /* objects (props.c): candidates, */
    g->s_pmap = gen_derive_seed(seed, 14);    /* probability map, */
    g->s_pclus = gen_derive_seed(seed, 15);   /* cluster field */
}

/* Octaves and fixed-point frequencies of the fields (noise coordinates are exact integers). */
static void gen_frequencies(WorldGen *g) {
    const WorldGenParams *q = &g->p;
    g->fb_base = fbm_of(q->base_octaves);
    g->fb_n3 = fbm_of(q->n3_octaves);
    g->fb_isl = fbm_of(3);
    g->fb_cloud = fbm_of(q->cloud_octaves);
    g->fb_pmap = fbm_of(2);
    g->fb_biome = fbm_of(3);

    g->f_base = noise_fx_from_double(q->base_scale);
    g->f_n3 = noise_fx_from_double(q->n3_scale);
    g->f_n3y = noise_fx_from_double(q->n3_scale * (double)q->n3_y_squash);
    g->f_isl = noise_fx_from_double(q->island_scale);
    g->f_islh = noise_fx_from_double(q->island_scale * 1.7);
    g->f_cloud = noise_fx_from_double(q->cloud_scale);
    g->f_jitter = noise_fx_from_double(q->jitter_scale);
    g->f_pmap = noise_fx_from_double(1.0 / 320.0);
    g->f_pclus = noise_fx_from_double(1.0 / 32.0);
    g->f_biome = noise_fx_from_double(q->biome_scale);
}

/* The active cave kinds' fields take the seed stages their table entries name. */
static void gen_cave_seeds(WorldGen *g) {
    for (uint32_t k = 0; k < g->ncaves; k++) {
        const CaveActive *a = &g->caves[k];
        for (uint32_t i = 0; i < a->kind->nfields; i++)
            g->cave_fields[a->field0 + i].seed = gen_derive_seed(g->p.seed, a->kind->seed_stage[i]);
    }
}

void gen_init(WorldGen *g, const WorldGenParams *p, const IslandField *home) {
    memset(g, 0, sizeof *g);
    g->p = *p;
    gen_normalise(&g->p);
    g->y_top = g->p.gen_y_max;
    gen_seeds(g);
    gen_frequencies(g);
    g->clouds = g->p.clouds;
    gen_caves_init(g);
    gen_cave_seeds(g);
    g->island_bottom_k = g->p.island_taper > 0.05f ? g->p.island_taper : 0.05f;
    gen_island_init(&g->isl, world_home_sea(&g->p, home), home, 0, 0);
}

/* The home island in real units: one metre of elevation is one block over its sea level, which
 * comes down when the peak and the landmark on it would not fit under the generated top. */
float world_home_sea(const WorldGenParams *p, const IslandField *home) {
    float sea = p->home_sea_level;
    if (!home || home->size == 0) return sea;
    float room = (float)gen_top_of(p->gen_y_max) - WORLD_HOME_HEADROOM - home->elevation_top_m;
    return sea > room ? room : sea;
}

/* ---------------------------------------------------------------- point queries by parameters */
float world_density_at_params(const WorldGenParams *p, double x, double y, double z) {
    WorldGen g;
    gen_init(&g, p, NULL);
    return gen_density_point(&g, x, y, z);
}

bool world_solid_at_params(const WorldGenParams *p, double x, double y, double z) {
    return world_density_at_params(p, x, y, z) > 0.0f;
}

bool world_cloud_at_params(const WorldGenParams *p, double time_s, double x, double y, double z) {
    WorldGen g;
    gen_init(&g, p, NULL);
    return gen_cloud_point(&g, time_s, x, y, z);
}
