/* skyisles world: parameter defaults (the shipped look) and the per-epoch generation
 * snapshot (seeds and fixed-point frequencies derived once from the parameters). */
#include "world/world_internal.h"

#include <string.h>

void world_params_default(WorldParams *p) {
    memset(p, 0, sizeof *p);
    p->seed = 20261129u;

    /* Abyss floor and its hills. The floor can never open: at the lowest voxel centre
     * (y = 0.5) bedrock adds 4.5^2 * 2 = 40.5, and base_offset - base_amplitude
     * - n3_amplitude + 40.5 - 0.5 = 10 - 14 - 35 + 40 = 1 > 0 for any noise value. */
    p->base_scale = 0.0045;
    p->base_amplitude = 14.0f;
    p->base_offset = 10.0f;
    p->base_octaves = 4;
    p->n3_scale = 0.03;
    p->n3_amplitude = 35.0f;
    p->n3_octaves = 2;
    p->n3_y_squash = 1.0f;
    p->bedrock_level = 5.0f;
    p->bedrock_strength = 2.0f;

    /* Floating continents: lenses centred near y = 104, domed tops, deep hanging undersides. */
    p->island_scale = 0.0028;
    p->island_threshold = 0.08f;
    p->island_height = 104.0f;
    p->island_height_var = 10.0f;
    p->island_top = 16.0f;
    p->island_bottom = 38.0f;
    p->island_noise = 7.0f;
    p->island_taper = 0.55f;
    p->snow_level = 128.0f;

    /* Tube tunnels by default; cheese (C1) and worm sheets (C2) are the seed's variants. */
    p->cave_modes = WORLD_CAVES_TUBES;
    p->cheese_scale = 0.05;
    p->cheese_threshold = 0.4f;
    p->worm_scale = 0.03;
    p->worm_threshold = 0.9f;
    p->tube_scale = 0.018;
    p->tube_radius = 0.085f;
    p->tube_y_squash = 1.6f;
    p->cave_min_y = 8.0f;

    /* W7: the cloud band sits between the abyss hills and the island undersides. */
    p->clouds = true;
    p->cloud_centre = 68.0f;
    p->cloud_range = 14.0f;
    p->cloud_scale = 0.014;
    p->cloud_octaves = 3;
    p->cloud_threshold = 0.16f;
    p->wind_speed = 40.0f;
    p->cloud_alpha = 200;

    /* W6 */
    p->jitter_scale = 0.1;
    p->jitter_amount = 0.15f;
    p->ao_strength = 0.16f;
    p->shade_floor = 0.22f;

    p->home = NULL;
    p->home_height = 24.0f;

    p->view_radius = 10;
    p->max_results_per_frame = 128;
    p->max_in_flight = 0;          /* 0: 48 per worker + 16 */
    p->ahead_bias = 4.0f;
    p->frustum_penalty = 3.0f;
    p->lookahead_s = 0.25f;
    p->gen_y_max = WORLD_Y_MAX;
    p->mesh_pool_mib = 0;

    /* LOD (chunk distances from the aircraft's chunk): full blocks on that chunk and its four
     * face neighbours, 2-block voxels out to 3 chunks, 4-block to 6, 8-block beyond. Tuned
     * against the Pi 4 budget of docs/render.md (<= 150k triangles, <= 200 draw calls). */
    p->lod_dist[0] = 1.2f;
    p->lod_dist[1] = 3.0f;
    p->lod_dist[2] = 6.0f;
    p->lod_hysteresis = 0.25f;
    p->lod_refine_penalty = 6.0f;
    p->lod_coarsen_penalty = 9.0f;
}

static uint32_t derive_seed(uint64_t seed, uint32_t stage) {
    uint64_t s = seed ^ ((uint64_t)stage * 0x9e3779b97f4a7c15ull);
    return (uint32_t)(splitmix64_next(&s) >> 32);
}

static NoiseFbm fbm_of(uint32_t octaves) {
    NoiseFbm f = noise_fbm_default();
    f.octaves = octaves ? octaves : 1;
    return f;
}

/* The LOD thresholds in use: ascending, 0 ends the list, and each more than one chunk past the
 * previous (pulled out if closer) so face neighbours never differ by more than one LOD. */
static int lod_thresholds(const WorldParams *p, float out[WORLD_LOD_MAX]) {
    int n = 0;
    float prev = 0.0f;
    for (int i = 0; i < WORLD_LOD_MAX; i++) {
        float d = p->lod_dist[i];
        if (!(d > 0.0f) || !(d < 1e6f)) break;
        if (n > 0 && d < prev + 1.01f) d = prev + 1.01f;
        out[n++] = d;
        prev = d;
    }
    return n;
}

void gen_init(WorldGen *g, const WorldParams *p) {
    memset(g, 0, sizeof *g);
    g->p = *p;
    WorldParams *q = &g->p;
    if (q->gen_y_max <= WORLD_Y_MIN || q->gen_y_max > WORLD_Y_MAX) q->gen_y_max = WORLD_Y_MAX;
    q->gen_y_max = WORLD_Y_MIN + ((q->gen_y_max - WORLD_Y_MIN + WORLD_CELL_Y - 1) / WORLD_CELL_Y) * WORLD_CELL_Y;
    if (q->gen_y_max > WORLD_Y_MAX) q->gen_y_max = WORLD_Y_MAX;
    g->y_top = q->gen_y_max;
    if (q->cloud_range < 1.0f) q->cloud_range = 1.0f;
    if (q->island_bottom < 1.0f) q->island_bottom = 1.0f;

    g->s_base = derive_seed(q->seed, 1);
    g->s_n3 = derive_seed(q->seed, 2);
    g->s_isl = derive_seed(q->seed, 3);
    g->s_islh = derive_seed(q->seed, 4);
    g->s_cheese = derive_seed(q->seed, 5);
    g->s_worm = derive_seed(q->seed, 6);
    g->s_tube_a = derive_seed(q->seed, 7);
    g->s_tube_b = derive_seed(q->seed, 8);
    g->s_cloud = derive_seed(q->seed, 9);
    g->s_jitter = derive_seed(q->seed, 10);

    g->fb_base = fbm_of(q->base_octaves);
    g->fb_n3 = fbm_of(q->n3_octaves);
    g->fb_isl = fbm_of(3);
    g->fb_cloud = fbm_of(q->cloud_octaves);

    g->f_base = noise_fx_from_double(q->base_scale);
    g->f_n3 = noise_fx_from_double(q->n3_scale);
    g->f_n3y = noise_fx_from_double(q->n3_scale * (double)q->n3_y_squash);
    g->f_isl = noise_fx_from_double(q->island_scale);
    g->f_islh = noise_fx_from_double(q->island_scale * 1.7);
    g->f_cheese = noise_fx_from_double(q->cheese_scale);
    g->f_worm = noise_fx_from_double(q->worm_scale);
    g->f_tube = noise_fx_from_double(q->tube_scale);
    g->f_tube_y = noise_fx_from_double(q->tube_scale * (double)q->tube_y_squash);
    g->f_cloud = noise_fx_from_double(q->cloud_scale);
    g->f_jitter = noise_fx_from_double(q->jitter_scale);

    g->tubes = (q->cave_modes & WORLD_CAVES_TUBES) != 0;
    g->cheese = (q->cave_modes & WORLD_CAVES_CHEESE) != 0;
    g->worms = (q->cave_modes & WORLD_CAVES_WORMS) != 0;
    g->clouds = q->clouds;
    g->tube_r2 = q->tube_radius * q->tube_radius;
    g->island_bottom_k = q->island_taper > 0.05f ? q->island_taper : 0.05f;
    g->home_k = 0.0f;
    if (q->home && q->home->size > 0 && q->home->elevation_top_m > 0.0f)
        g->home_k = q->home_height / q->home->elevation_top_m;
    float d[WORLD_LOD_MAX];
    g->lod_levels = lod_thresholds(q, d);
    for (int i = 0; i < g->lod_levels; i++) g->lod_d2[i] = d[i] * d[i];
    if (!(q->lod_hysteresis >= 0.0f)) q->lod_hysteresis = 0.0f;
    if (q->lod_hysteresis > 0.45f) q->lod_hysteresis = 0.45f;
}

int world_lod_for_offset(const WorldParams *p, int32_t dx, int32_t dz) {
    float d[WORLD_LOD_MAX];
    int n = lod_thresholds(p, d), lod = 0;
    double d2 = (double)dx * dx + (double)dz * dz;
    while (lod < n && d2 >= (double)d[lod] * d[lod]) lod++;
    return lod;
}
