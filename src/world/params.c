/* skyisles world: the parameter table (name, class, range, default and help of every setting,
 * read by the defaults, settings text, the panel and --help) and its readers. A leaf of the
 * generator: the snapshot built from these values is gen_init.c's. */
#include "world/world_internal.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEN(f) WORLD_PARAM_GEN, offsetof(WorldParams, gen.f)
#define LIVE(f) WORLD_PARAM_LIVE, offsetof(WorldParams, live.f)
#define CREATE(f) WORLD_PARAM_CREATE, offsetof(WorldParams, create.f)

/* THE parameter table: {name, class, type, where, min, max, default, help}. The defaults are the
 * shipped look; the ranges keep a world that works (docs/world.md, parameters). */
static const WorldParamDesc k_gen[] = {
    {"seed", GEN(seed), WORLD_PT_U64, 0, 18446744073709551615.0, 20261129, TX(WP_SEED_HELP), TX(WP_SEED), NULL, 1},
    /* W1-W3. The floor never opens at the defaults: at the lowest voxel centre (y = 0.5) bedrock
     * adds 4.5^2 * 2 = 40.5, and base_offset - base_amplitude - n3_amplitude + 40.5 - 0.5
     * = 10 - 14 - 35 + 40 = 1 > 0 for any noise value. */
    {"base_scale", GEN(base_scale), WORLD_PT_F64, 0.0005, 0.05, 0.0045, TX(WP_BASE_SCALE_HELP), TX(WP_BASE_SCALE), TX(UNIT_PER_BLOCK), 0.0005},
    {"base_amplitude", GEN(base_amplitude), WORLD_PT_F32, 0, 40, 14, TX(WP_BASE_AMP_HELP), TX(WP_BASE_AMP), TX(UNIT_BLOCKS), 0.5},
    {"base_offset", GEN(base_offset), WORLD_PT_F32, -20, 60, 10, TX(WP_BASE_OFFSET_HELP), TX(WP_BASE_OFFSET), TX(UNIT_BLOCKS), 1},
    {"base_octaves", GEN(base_octaves), WORLD_PT_U32, 1, 8, 4, TX(WP_BASE_OCT_HELP), TX(WP_BASE_OCT), TX(UNIT_OCTAVES), 1},
    {"n3_scale", GEN(n3_scale), WORLD_PT_F64, 0.002, 0.2, 0.03, TX(WP_N3_SCALE_HELP), TX(WP_N3_SCALE), TX(UNIT_PER_BLOCK), 0.002},
    {"n3_amplitude", GEN(n3_amplitude), WORLD_PT_F32, 0, 80, 35, TX(WP_N3_AMP_HELP), TX(WP_N3_AMP), TX(UNIT_BLOCKS), 0.5},
    {"n3_octaves", GEN(n3_octaves), WORLD_PT_U32, 1, 6, 2, TX(WP_N3_OCT_HELP), TX(WP_N3_OCT), TX(UNIT_OCTAVES), 1},
    {"n3_y_squash", GEN(n3_y_squash), WORLD_PT_F32, 0.25, 4, 1, TX(WP_N3_SQUASH_HELP), TX(WP_N3_SQUASH), TX(UNIT_TIMES), 0.05},
    {"bedrock_level", GEN(bedrock_level), WORLD_PT_F32, 0, 32, 5, TX(WP_BEDROCK_HELP), TX(WP_BEDROCK), TX(UNIT_BLOCKS), 1},
    {"bedrock_strength", GEN(bedrock_strength), WORLD_PT_F32, 0, 10, 2, TX(WP_BEDROCK_STR_HELP), TX(WP_BEDROCK_STR), NULL, 0.1},
    /* Floating continents: lenses centred near y = 104, domed tops, deep hanging undersides. */
    {"island_scale", GEN(island_scale), WORLD_PT_F64, 0.0005, 0.02, 0.0028, TX(WP_ISL_SCALE_HELP), TX(WP_ISL_SCALE), TX(UNIT_PER_BLOCK), 0.0002},
    {"island_threshold", GEN(island_threshold), WORLD_PT_F32, -0.5, 0.8, 0.08, TX(WP_ISL_THRESH_HELP), TX(WP_ISL_THRESH), NULL, 0.01},
    {"island_height", GEN(island_height), WORLD_PT_F32, 40, 140, 104, TX(WP_ISL_HEIGHT_HELP), TX(WP_ISL_HEIGHT), TX(UNIT_BLOCKS), 1},
    {"island_height_var", GEN(island_height_var), WORLD_PT_F32, 0, 40, 10, TX(WP_ISL_VAR_HELP), TX(WP_ISL_VAR), TX(UNIT_BLOCKS), 1},
    {"island_top", GEN(island_top), WORLD_PT_F32, 0, 48, 16, TX(WP_ISL_TOP_HELP), TX(WP_ISL_TOP), TX(UNIT_BLOCKS), 1},
    {"island_bottom", GEN(island_bottom), WORLD_PT_F32, 1, 96, 38, TX(WP_ISL_BOTTOM_HELP), TX(WP_ISL_BOTTOM), TX(UNIT_BLOCKS), 1},
    {"island_noise", GEN(island_noise), WORLD_PT_F32, 0, 24, 7, TX(WP_ISL_NOISE_HELP), TX(WP_ISL_NOISE), TX(UNIT_BLOCKS), 0.5},
    {"island_taper", GEN(island_taper), WORLD_PT_F32, 0.05, 2, 0.55, TX(WP_ISL_TAPER_HELP), TX(WP_ISL_TAPER), NULL, 0.05},
    {"snow_level", GEN(snow_level), WORLD_PT_F32, 0, 200, 128, TX(WP_SNOW_HELP), TX(WP_SNOW), TX(UNIT_BLOCKS), 1},
    /* Caves: tube tunnels by default; cheese (C1) and worm sheets (C2) are the seed's variants.
     * Each kind's own rows come from its entry in the cave table (caves.c). */
    {"cave_modes", GEN(cave_modes), WORLD_PT_U32, 0, (1u << WORLD_CAVE_KINDS_MAX) - 1u, WORLD_CAVES_TUBES,
     TX(WP_CAVE_MODES_HELP), TX(WP_CAVE_MODES), TX(UNIT_SUM), 1},
    {"cave_min_y", GEN(cave_min_y), WORLD_PT_F32, 0, 160, 8, TX(WP_CAVE_MIN_HELP), TX(WP_CAVE_MIN), TX(UNIT_BLOCKS), 1},
    /* W7: the cloud band sits between the abyss hills and the island undersides. */
    {"clouds", GEN(clouds), WORLD_PT_BOOL, 0, 1, 1, TX(WP_CLOUDS_HELP), TX(WP_CLOUDS), NULL, 1},
    {"cloud_centre", GEN(cloud_centre), WORLD_PT_F32, 0, 160, 68, TX(WP_CLOUD_CENTRE_HELP), TX(WP_CLOUD_CENTRE), TX(UNIT_BLOCKS), 1},
    {"cloud_range", GEN(cloud_range), WORLD_PT_F32, 1, 60, 14, TX(WP_CLOUD_RANGE_HELP), TX(WP_CLOUD_RANGE), TX(UNIT_BLOCKS), 1},
    {"cloud_scale", GEN(cloud_scale), WORLD_PT_F64, 0.002, 0.1, 0.014, TX(WP_CLOUD_SCALE_HELP), TX(WP_CLOUD_SCALE), TX(UNIT_PER_BLOCK), 0.001},
    {"cloud_octaves", GEN(cloud_octaves), WORLD_PT_U32, 1, 6, 3, TX(WP_CLOUD_OCT_HELP), TX(WP_CLOUD_OCT), TX(UNIT_OCTAVES), 1},
    {"cloud_threshold", GEN(cloud_threshold), WORLD_PT_F32, 0, 1, 0.16, TX(WP_CLOUD_THRESH_HELP), TX(WP_CLOUD_THRESH), NULL, 0.01},
    {"wind_speed", GEN(wind_speed), WORLD_PT_F32, 0, 400, 40, TX(WP_WIND_HELP), TX(WP_WIND), TX(UNIT_BLOCKS_S), 5},
    {"cloud_alpha", GEN(cloud_alpha), WORLD_PT_U8, 0, 255, 200, TX(WP_CLOUD_ALPHA_HELP), TX(WP_CLOUD_ALPHA), TX(UNIT_OF_255), 5},
    /* W6 */
    {"jitter_scale", GEN(jitter_scale), WORLD_PT_F64, 0.005, 1, 0.1, TX(WP_JITTER_SCALE_HELP), TX(WP_JITTER_SCALE), TX(UNIT_PER_BLOCK), 0.005},
    {"jitter_amount", GEN(jitter_amount), WORLD_PT_F32, 0, 0.5, 0.15, TX(WP_JITTER_HELP), TX(WP_JITTER), NULL, 0.01},
    {"biome_scale", GEN(biome_scale), WORLD_PT_F64, 0.0001, 0.01, 0.0006, TX(WP_BIOME_SCALE_HELP), TX(WP_BIOME_SCALE), TX(UNIT_PER_BLOCK), 0.0001},
    {"biome_blend", GEN(biome_blend), WORLD_PT_F32, 0.02, 0.4, 0.25, TX(WP_BIOME_BLEND_HELP), TX(WP_BIOME_BLEND), NULL, 0.01},
    {"ao_strength", GEN(ao_strength), WORLD_PT_F32, 0, 0.33, 0.16, TX(WP_AO_HELP), TX(WP_AO), NULL, 0.01},
    {"shade_floor", GEN(shade_floor), WORLD_PT_F32, 0, 1, 0.22, TX(WP_SHADE_FLOOR_HELP), TX(WP_SHADE_FLOOR), NULL, 0.01},
    {"home_sea_level", GEN(home_sea_level), WORLD_PT_F32, 40, 150, 84,
     TX(WP_SEA_HELP), TX(WP_SEA), TX(UNIT_BLOCKS), 1},
    {"prop_density", GEN(prop_density), WORLD_PT_F32, 0, 2, 1, TX(WP_PROPS_HELP), TX(WP_PROPS), TX(UNIT_TIMES), 0.05},
    {"gen_y_max", GEN(gen_y_max), WORLD_PT_I32, 8, WORLD_Y_MAX, WORLD_Y_MAX, TX(WP_YMAX_HELP), TX(WP_YMAX), TX(UNIT_BLOCKS), 8},
};

/* Streaming and memory: after the generation rows and the cave kinds' rows. */
static const WorldParamDesc k_stream[] = {

    {"view_radius", LIVE(view_radius), WORLD_PT_I32, WORLD_VIEW_RADIUS_MIN, WORLD_VIEW_RADIUS_MAX, 12,
     TX(WP_VIEW_HELP), TX(WP_VIEW), TX(UNIT_CHUNKS), 1},
    {"max_results_per_frame", LIVE(max_results_per_frame), WORLD_PT_U32, 1, 1024, 128, TX(WP_RESULTS_HELP), TX(WP_RESULTS), NULL, 1},
    {"ahead_bias", LIVE(ahead_bias), WORLD_PT_F32, 0, 16, 4, TX(WP_AHEAD_HELP), TX(WP_AHEAD), TX(UNIT_CHUNKS), 0.5},
    {"frustum_penalty", LIVE(frustum_penalty), WORLD_PT_F32, 0, 16, 3, TX(WP_FRUSTUM_HELP), TX(WP_FRUSTUM), TX(UNIT_CHUNKS), 0.5},
    {"lookahead_s", LIVE(lookahead_s), WORLD_PT_F32, 0, 2, 0.25, TX(WP_LOOKAHEAD_HELP), TX(WP_LOOKAHEAD), TX(UNIT_S), 0.05},
    /* LOD (chunk distances from the aircraft's chunk): full blocks on that chunk and its four
     * face neighbours, 2-block voxels out to 3 chunks, 4-block to 6, 8-block beyond. Tuned
     * against the Pi 4 budget of docs/render.md (<= 150k triangles, <= 200 draw calls). */
    {"lod_dist_1", LIVE(lod_dist[0]), WORLD_PT_F32, 0, 64, 1.2, TX(WP_LOD1_HELP), TX(WP_LOD1), TX(UNIT_CHUNKS), 0.1},
    {"lod_dist_2", LIVE(lod_dist[1]), WORLD_PT_F32, 0, 64, 3, TX(WP_LOD2_HELP), TX(WP_LOD2), TX(UNIT_CHUNKS), 0.5},
    {"lod_dist_3", LIVE(lod_dist[2]), WORLD_PT_F32, 0, 64, 6, TX(WP_LOD3_HELP), TX(WP_LOD3), TX(UNIT_CHUNKS), 0.5},
    {"lod_hysteresis", LIVE(lod_hysteresis), WORLD_PT_F32, 0, 0.45, 0.25, TX(WP_LOD_HYST_HELP), TX(WP_LOD_HYST), TX(UNIT_CHUNKS), 0.05},
    {"lod_refine_penalty", LIVE(lod_refine_penalty), WORLD_PT_F32, 0, 32, 6, TX(WP_LOD_REFINE_HELP), TX(WP_LOD_REFINE), TX(UNIT_CHUNKS), 0.5},
    {"lod_coarsen_penalty", LIVE(lod_coarsen_penalty), WORLD_PT_F32, 0, 32, 9, TX(WP_LOD_COARSEN_HELP), TX(WP_LOD_COARSEN), TX(UNIT_CHUNKS), 0.5},
    {"speed_reach_min", LIVE(speed_reach_min), WORLD_PT_I32, WORLD_VIEW_RADIUS_MIN, WORLD_VIEW_RADIUS_MAX, 4,
     TX(WP_REACH_MIN_HELP), TX(WP_REACH_MIN), TX(UNIT_CHUNKS), 1},

    {"view_radius_max", CREATE(view_radius_max), WORLD_PT_I32, 0, WORLD_VIEW_RADIUS_MAX, 0,
     TX(WP_RADIUS_MAX_HELP), TX(WP_RADIUS_MAX), TX(UNIT_CHUNKS), 1},
    {"max_in_flight", CREATE(max_in_flight), WORLD_PT_U32, 0, 4096, 0, TX(WP_IN_FLIGHT_HELP), TX(WP_IN_FLIGHT), NULL, 1},
    {"mesh_pool_mib", CREATE(mesh_pool_mib), WORLD_PT_U32, 0, 4096, 0, TX(WP_MESH_POOL_HELP), TX(WP_MESH_POOL), "MiB", 1},
    {"workers", CREATE(workers), WORLD_PT_U32, 0, 64, 0, TX(WP_WORKERS_HELP), TX(WP_WORKERS), NULL, 1},
};
#define NGEN (sizeof k_gen / sizeof k_gen[0])
#define NSTREAM (sizeof k_stream / sizeof k_stream[0])

size_t world_param_count(void) { return NGEN + cave_param_count() + NSTREAM; }

const WorldParamDesc *world_param_at(size_t i) {
    if (i < NGEN) return &k_gen[i];
    i -= NGEN;
    size_t nc = cave_param_count();
    if (i < nc) return cave_param_at(i);
    i -= nc;
    return i < NSTREAM ? &k_stream[i] : NULL;
}

const WorldParamDesc *world_param_find(const char *name) {
    for (size_t i = 0; name && i < world_param_count(); i++)
        if (!strcmp(world_param_at(i)->name, name)) return world_param_at(i);
    return NULL;
}

const char *world_param_class_name(WorldParamClass c) {
    return c == WORLD_PARAM_GEN ? "gen" : c == WORLD_PARAM_LIVE ? "live" : "create";
}

static bool is_integer(WorldParamType t) { return t != WORLD_PT_F32 && t != WORLD_PT_F64; }

double world_param_get(const WorldParams *p, const WorldParamDesc *d) {
    const char *at = (const char *)p + d->offset;
    switch (d->type) {
    case WORLD_PT_BOOL: return *(const bool *)at ? 1.0 : 0.0;
    case WORLD_PT_U8: return *(const uint8_t *)at;
    case WORLD_PT_I32: return *(const int32_t *)at;
    case WORLD_PT_U32: return *(const uint32_t *)at;
    case WORLD_PT_U64: return (double)*(const uint64_t *)at;
    case WORLD_PT_F32: return *(const float *)at;
    case WORLD_PT_F64: return *(const double *)at;
    }
    return 0.0;
}

void world_param_set(WorldParams *p, const WorldParamDesc *d, double v) {
    if (v != v) return;
    if (v < d->min) v = d->min;
    if (v > d->max) v = d->max;
    if (is_integer(d->type)) v = floor(v + 0.5);
    char *at = (char *)p + d->offset;
    switch (d->type) {
    case WORLD_PT_BOOL: *(bool *)at = v != 0.0; break;
    case WORLD_PT_U8: *(uint8_t *)at = (uint8_t)v; break;
    case WORLD_PT_I32: *(int32_t *)at = (int32_t)v; break;
    case WORLD_PT_U32: *(uint32_t *)at = (uint32_t)v; break;
    /* The top of the range, 2^64 as a double, does not convert: it means the largest seed. */
    case WORLD_PT_U64: *(uint64_t *)at = v >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)v; break;
    case WORLD_PT_F32: *(float *)at = (float)v; break;
    case WORLD_PT_F64: *(double *)at = v; break;
    }
}

bool world_param_parse(WorldParams *p, const char *assignment, SkyError *err) {
    const char *eq = assignment ? strchr(assignment, '=') : NULL;
    char name[64];
    size_t len = eq ? (size_t)(eq - assignment) : 0;
    if (!eq || len == 0 || len >= sizeof name) {
        sky_error_set(err, SKY_ERR_INPUT, "world parameter '%s': write name=value (names: skyisles --help)", assignment ? assignment : "");
        return false;
    }
    memcpy(name, assignment, len);
    name[len] = 0;
    const WorldParamDesc *d = world_param_find(name);
    if (!d) {
        sky_error_set(err, SKY_ERR_INPUT, "world parameter '%s' is unknown (names: skyisles --help)", name);
        return false;
    }
    const char *text = eq + 1;
    char *end = NULL;
    errno = 0;
    if (d->type == WORLD_PT_BOOL && (!strcmp(text, "true") || !strcmp(text, "false"))) {   /* YAML's spelling */
        world_param_set(p, d, text[0] == 't' ? 1.0 : 0.0);
        return true;
    }
    if (d->type == WORLD_PT_U64) {
        /* Seeds are exact: a double holds 53 bits only. */
        unsigned long long u = strtoull(text, &end, 0);
        if (*text && *text != '-' && end && !*end && errno == 0) {
            *(uint64_t *)((char *)p + d->offset) = (uint64_t)u;
            return true;
        }
    } else {
        double v = strtod(text, &end);
        bool whole = !is_integer(d->type) || v == floor(v);
        if (*text && end && !*end && errno == 0 && v >= d->min && v <= d->max && whole) {
            world_param_set(p, d, v);
            return true;
        }
    }
    if (d->type == WORLD_PT_U64)   /* the whole 64-bit range, not a double's rounding of it */
        sky_error_set(err, SKY_ERR_INPUT, "world parameter %s: '%s' is not a whole number in 0..%llu (decimal, or "
                      "hexadecimal after 0x)", d->name, text, (unsigned long long)UINT64_MAX);
    else
        sky_error_set(err, SKY_ERR_INPUT, "world parameter %s: '%s' is not %s in %g..%g", d->name, text,
                      is_integer(d->type) ? "a whole number" : "a number", d->min, d->max);
    return false;
}

/* Shortest decimal that reads back as the same value, so text settings round-trip exactly. */
static int format_real(double v, bool single, char *buf, size_t n) {
    char tmp[40];
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, v);
        double back = strtod(tmp, NULL);
        if (single ? (float)back == (float)v : back == v) break;
    }
    return snprintf(buf, n, "%s", tmp);
}

int world_param_format(const WorldParams *p, const WorldParamDesc *d, char *buf, size_t n) {
    const char *at = (const char *)p + d->offset;
    switch (d->type) {
    case WORLD_PT_U64: return snprintf(buf, n, "%llu", (unsigned long long)*(const uint64_t *)at);
    case WORLD_PT_F32: return format_real(*(const float *)at, true, buf, n);
    case WORLD_PT_F64: return format_real(*(const double *)at, false, buf, n);
    default: return snprintf(buf, n, "%.0f", world_param_get(p, d));
    }
}

bool world_param_equal(const WorldParams *a, const WorldParams *b, const WorldParamDesc *d) {
    static const size_t k_size[] = {sizeof(bool), 1, 4, 4, 8, 4, 8};
    return !memcmp((const char *)a + d->offset, (const char *)b + d->offset, k_size[d->type]);
}

void world_params_default(WorldParams *p) {
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < world_param_count(); i++) world_param_set(p, world_param_at(i), world_param_at(i)->def);
}

/* The presets' values, chosen with build/bench stream --device (docs/world-streaming.md, presets). */
typedef struct WorldPresetValues {
    const char *name;
    int32_t view_radius;
    float lod_dist[WORLD_LOD_MAX];
    int32_t speed_reach_min;
    uint32_t mesh_pool_mib, workers;
} WorldPresetValues;

static const WorldPresetValues k_presets[WORLD_PRESET_COUNT] = {
    [WORLD_PRESET_LOW] = {"low", 8, {1.2f, 2.5f, 4.0f}, 3, 0, 0},
    [WORLD_PRESET_MEDIUM] = {"medium", 12, {1.2f, 3.0f, 6.0f}, 4, 0, 0},
    [WORLD_PRESET_HIGH] = {"high", 14, {2.5f, 5.0f, 9.0f}, 6, 0, 0},
};

void world_params_preset(WorldParams *p, WorldPreset which) {
    if ((unsigned)which >= WORLD_PRESET_COUNT) which = WORLD_PRESET_MEDIUM;
    const WorldPresetValues *v = &k_presets[which];
    p->live.view_radius = v->view_radius;
    memcpy(p->live.lod_dist, v->lod_dist, sizeof p->live.lod_dist);
    p->live.speed_reach_min = v->speed_reach_min;
    p->create.view_radius_max = 0;
    p->create.mesh_pool_mib = v->mesh_pool_mib;
    p->create.workers = v->workers;
}

const char *world_preset_name(WorldPreset which) {
    return (unsigned)which < WORLD_PRESET_COUNT ? k_presets[which].name : "unknown";
}

/* The LOD thresholds in use: ascending, 0 ends the list, and each more than one chunk past the
 * previous (pulled out if closer) so face neighbours never differ by more than one LOD. */
int gen_lod_thresholds(const WorldLiveParams *p, float out[WORLD_LOD_MAX]) {
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

int world_lod_for_offset(const WorldLiveParams *p, int32_t dx, int32_t dz) {
    float d[WORLD_LOD_MAX];
    int n = gen_lod_thresholds(p, d), lod = 0;
    double d2 = (double)dx * dx + (double)dz * dz;
    while (lod < n && d2 >= (double)d[lod] * d[lod]) lod++;
    return lod;
}
