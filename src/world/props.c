/* skyisles world: objects (C4) and home-island landmarks, placed in the chunk jobs after the
 * voxels and built into the chunk's opaque mesh as boxes (docs/world.md, "Objects and landmarks").
 *
 * Everything here is a table: shapes are lists of boxes, flora sets are weighted shape lists with
 * a density, landmarks are shapes looked up by the name the codex gives a location type.
 * Placement is a pure function of world block coordinates and the seed (integer hashes; the
 * density and cluster maps are the noise module's bit-identical fields, quantised before any
 * comparison), so every chunk that sees an object makes the same decision about it. */
#include "world/world_internal.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- palette */
enum {
    PC_TRUNK, PC_LEAF, PC_LEAF2, PC_CONIFER, PC_SNOW, PC_PALM, PC_JUNGLE, PC_BUSH, PC_ROCK, PC_ROCK2,
    PC_FLOWER_R, PC_FLOWER_Y, PC_CACTUS, PC_DEAD, PC_REED, PC_STONE, PC_WOOD, PC_THATCH, PC_WHITE, PC_RED,
    PC_DARK, PC_LAMP, PC_FIRE, PC_MOSS, PC_COUNT
};
static const uint8_t k_pal[PC_COUNT][3] = {
    [PC_TRUNK] = {92, 62, 38},     [PC_LEAF] = {58, 118, 40},    [PC_LEAF2] = {84, 140, 48},
    [PC_CONIFER] = {30, 84, 48},   [PC_SNOW] = {228, 234, 240},  [PC_PALM] = {92, 158, 56},
    [PC_JUNGLE] = {24, 108, 44},   [PC_BUSH] = {62, 122, 46},    [PC_ROCK] = {124, 122, 128},
    [PC_ROCK2] = {104, 96, 88},    [PC_FLOWER_R] = {214, 54, 60}, [PC_FLOWER_Y] = {236, 210, 60},
    [PC_CACTUS] = {74, 140, 70},   [PC_DEAD] = {120, 94, 60},    [PC_REED] = {150, 150, 80},
    [PC_STONE] = {140, 136, 126},  [PC_WOOD] = {132, 92, 52},    [PC_THATCH] = {190, 160, 90},
    [PC_WHITE] = {236, 232, 222},  [PC_RED] = {196, 44, 40},     [PC_DARK] = {50, 48, 52},
    [PC_LAMP] = {255, 232, 120},   [PC_FIRE] = {255, 132, 30},   [PC_MOSS] = {106, 128, 92},
};

/* ---------------------------------------------------------------- shapes */
/* A box [x0, x1) x [y0, y1) x [z0, z1) in blocks from the base (the first air block above the
 * ground at the object's column), with a palette colour. */
typedef struct ShapeBox { int8_t x0, y0, z0, x1, y1, z1; uint8_t col; } ShapeBox;
#define SHAPE_MAX_BOXES 12
typedef struct PropShape {
    const char *name;
    uint8_t r;          /* footprint: |x|, |z| <= r around the base column (objects: <= PROP_R_MAX) */
    uint8_t far;        /* boxes kept at LOD 1 and 2 (the first `far`; 0: dropped there) */
    uint8_t nbox;
    ShapeBox box[SHAPE_MAX_BOXES];
} PropShape;

enum {
    SH_CONIFER, SH_CONIFER_SNOW, SH_BROADLEAF, SH_BIRCH, SH_PALM, SH_JUNGLE, SH_BUSH, SH_ROCK, SH_BOULDER,
    SH_FLOWERS_R, SH_FLOWERS_Y, SH_CACTUS, SH_DEAD_BUSH, SH_REEDS, SH_OBJECT_COUNT
};

/* Objects. Box order matters: the first `far` boxes are the far shape. */
static const PropShape k_objects[SH_OBJECT_COUNT] = {
    [SH_CONIFER] = {"conifer", 1, 2, 3,
                    {{-1, 2, -1, 2, 6, 2, PC_CONIFER}, {0, 0, 0, 1, 2, 1, PC_TRUNK}, {0, 6, 0, 1, 9, 1, PC_CONIFER}}},
    [SH_CONIFER_SNOW] = {"snowy conifer", 1, 2, 4,
                         {{-1, 2, -1, 2, 5, 2, PC_CONIFER}, {0, 0, 0, 1, 2, 1, PC_TRUNK}, {-1, 5, -1, 2, 6, 2, PC_SNOW},
                          {0, 6, 0, 1, 9, 1, PC_SNOW}}},
    [SH_BROADLEAF] = {"broadleaf", 2, 2, 3,
                      {{-2, 3, -2, 3, 6, 3, PC_LEAF}, {0, 0, 0, 1, 3, 1, PC_TRUNK}, {-1, 6, -1, 2, 7, 2, PC_LEAF2}}},
    [SH_BIRCH] = {"birch", 1, 2, 3,
                  {{-1, 4, -1, 2, 7, 2, PC_LEAF2}, {0, 0, 0, 1, 4, 1, PC_WHITE}, {0, 7, 0, 1, 8, 1, PC_LEAF2}}},
    [SH_PALM] = {"palm", 2, 2, 5,
                 {{0, 0, 0, 1, 7, 1, PC_TRUNK}, {-2, 7, 0, 3, 8, 1, PC_PALM}, {0, 7, -2, 1, 8, 3, PC_PALM},
                  {-2, 6, -1, -1, 7, 0, PC_PALM}, {2, 6, 1, 3, 7, 2, PC_PALM}}},
    [SH_JUNGLE] = {"jungle tree", 2, 2, 4,
                   {{-2, 7, -2, 3, 9, 3, PC_JUNGLE}, {0, 0, 0, 1, 7, 1, PC_TRUNK}, {-1, 9, -1, 2, 10, 2, PC_LEAF},
                    {1, 4, 0, 3, 5, 1, PC_JUNGLE}}},
    [SH_BUSH] = {"bush", 1, 0, 2, {{0, 0, 0, 2, 1, 2, PC_BUSH}, {0, 1, 0, 1, 2, 1, PC_BUSH}}},
    [SH_ROCK] = {"rock", 1, 0, 2, {{0, 0, 0, 2, 1, 1, PC_ROCK}, {0, 0, 1, 1, 1, 2, PC_ROCK2}}},
    [SH_BOULDER] = {"boulder", 1, 1, 2, {{-1, 0, -1, 2, 2, 2, PC_ROCK}, {0, 2, -1, 2, 3, 1, PC_ROCK2}}},
    [SH_FLOWERS_R] = {"red flowers", 0, 0, 1, {{0, 0, 0, 1, 1, 1, PC_FLOWER_R}}},
    [SH_FLOWERS_Y] = {"yellow flowers", 0, 0, 1, {{0, 0, 0, 1, 1, 1, PC_FLOWER_Y}}},
    [SH_CACTUS] = {"cactus", 1, 1, 3,
                   {{0, 0, 0, 1, 4, 1, PC_CACTUS}, {-1, 1, 0, 0, 3, 1, PC_CACTUS}, {1, 2, 0, 2, 4, 1, PC_CACTUS}}},
    [SH_DEAD_BUSH] = {"dead bush", 1, 0, 3,
                      {{0, 0, 0, 1, 1, 1, PC_DEAD}, {-1, 1, 0, 0, 2, 1, PC_DEAD}, {1, 1, 0, 2, 2, 1, PC_DEAD}}},
    [SH_REEDS] = {"reeds", 0, 0, 1, {{0, 0, 0, 1, 2, 1, PC_REED}}},
};

/* Landmarks: one per home-island site, by its location type's `landmark` (assets/codex). All
 * within |x|, |z| <= PROP_LANDMARK_R; boxes that start at the ground are sunk PROP_SINK blocks
 * so a landmark never floats where coarse terrain sits lower. Every one reaches 9 m or more. */
static const PropShape k_landmarks[] = {
    {"hut", 3, 0, 7,
     {{-2, 0, -2, 3, 3, 3, PC_WOOD}, {-3, 3, -3, 4, 4, 4, PC_THATCH}, {-2, 4, -2, 3, 5, 3, PC_THATCH},
      {-1, 5, -1, 2, 6, 2, PC_THATCH}, {-3, 0, 3, -2, 10, 4, PC_TRUNK}, {-2, 8, 3, 1, 10, 4, PC_RED},
      {0, 0, 3, 1, 2, 4, PC_DARK}}},
    {"lighthouse", 2, 0, 7,
     {{-2, 0, -2, 3, 2, 3, PC_STONE}, {-1, 2, -1, 2, 5, 2, PC_WHITE}, {-1, 5, -1, 2, 8, 2, PC_RED},
      {-1, 8, -1, 2, 11, 2, PC_WHITE}, {-2, 11, -2, 3, 12, 3, PC_DARK}, {-1, 12, -1, 2, 14, 2, PC_LAMP},
      {0, 14, 0, 1, 15, 1, PC_RED}}},
    {"watchtower", 2, 0, 7,
     {{-2, 0, -2, -1, 8, -1, PC_WOOD}, {2, 0, -2, 3, 8, -1, PC_WOOD}, {-2, 0, 2, -1, 8, 3, PC_WOOD},
      {2, 0, 2, 3, 8, 3, PC_WOOD}, {-2, 8, -2, 3, 9, 3, PC_WOOD}, {0, 9, 0, 1, 11, 1, PC_TRUNK},
      {-2, 11, -2, 3, 12, 3, PC_THATCH}}},
    {"windmill", 4, 0, 5,
     {{-1, 0, -1, 2, 9, 2, PC_WHITE}, {-2, 9, -2, 3, 10, 3, PC_RED}, {-1, 10, -1, 2, 11, 2, PC_RED},
      {-4, 8, 2, 5, 9, 3, PC_WOOD}, {0, 4, 2, 1, 13, 3, PC_WOOD}}},
    {"totem", 2, 0, 5,
     {{0, 0, 0, 1, 10, 1, PC_WOOD}, {-1, 3, -1, 2, 5, 2, PC_RED}, {-1, 7, -1, 2, 8, 2, PC_FLOWER_Y},
      {-2, 8, 0, 3, 9, 1, PC_WOOD}, {-1, 0, -1, 2, 1, 2, PC_STONE}}},
    {"temple", 4, 0, 5,
     {{-4, 0, -4, 5, 2, 5, PC_MOSS}, {-3, 2, -3, 4, 4, 4, PC_MOSS}, {-2, 4, -2, 3, 6, 3, PC_STONE},
      {-1, 6, -1, 2, 9, 2, PC_STONE}, {0, 9, 0, 1, 10, 1, PC_FIRE}}},
    {"stilt_hut", 3, 0, 9,
     {{-2, 0, -2, -1, 3, -1, PC_TRUNK}, {2, 0, -2, 3, 3, -1, PC_TRUNK}, {-2, 0, 2, -1, 3, 3, PC_TRUNK},
      {2, 0, 2, 3, 3, 3, PC_TRUNK}, {-2, 3, -2, 3, 4, 3, PC_WOOD}, {-2, 4, -1, 3, 6, 2, PC_WOOD},
      {-3, 6, -3, 4, 7, 4, PC_THATCH}, {-2, 7, -2, 3, 8, 3, PC_THATCH}, {0, 8, 0, 1, 10, 1, PC_THATCH}}},
    {"standing_stones", 4, 0, 6,
     {{-4, 0, -1, -3, 6, 1, PC_STONE}, {4, 0, -1, 5, 6, 1, PC_STONE}, {-1, 0, -4, 1, 6, -3, PC_STONE},
      {-1, 0, 4, 1, 6, 5, PC_STONE}, {-4, 6, -1, 5, 7, 0, PC_ROCK}, {0, 0, 0, 1, 9, 1, PC_ROCK2}}},
    {"cairn", 3, 0, 5,
     {{-2, 0, -2, 3, 2, 3, PC_ROCK}, {-1, 2, -1, 2, 4, 2, PC_ROCK2}, {0, 4, 0, 1, 6, 1, PC_ROCK},
      {0, 6, 0, 1, 12, 1, PC_TRUNK}, {1, 10, 0, 4, 12, 1, PC_RED}}},
    {"beacon", 2, 0, 4,
     {{-1, 0, -1, 2, 7, 2, PC_STONE}, {-2, 7, -2, 3, 8, 3, PC_DARK}, {-1, 8, -1, 2, 10, 2, PC_FIRE},
      {0, 10, 0, 1, 11, 1, PC_LAMP}}},
    {"well", 3, 0, 6,
     {{-2, 0, -2, 3, 1, 3, PC_STONE}, {-2, 1, 0, -1, 5, 1, PC_WOOD}, {2, 1, 0, 3, 5, 1, PC_WOOD},
      {-3, 5, -1, 4, 6, 2, PC_THATCH}, {3, 0, 3, 4, 9, 4, PC_WOOD}, {1, 7, 3, 3, 9, 4, PC_WHITE}}},
    {"jetty", 4, 0, 6,
     {{-1, 0, -4, 2, 1, 5, PC_WOOD}, {-1, 1, 3, 2, 2, 4, PC_TRUNK}, {1, 1, 4, 2, 9, 5, PC_TRUNK},
      {1, 9, 4, 2, 10, 5, PC_LAMP}, {-3, 0, -4, -1, 4, -2, PC_WOOD}, {-3, 4, -4, -1, 5, -2, PC_THATCH}}},
};
#define LANDMARK_COUNT ((int)(sizeof k_landmarks / sizeof k_landmarks[0]))

/* ---------------------------------------------------------------- flora sets */
/* density: candidates accepted per 65536 where both maps are 1 (one candidate per 4 x 4 cell). */
typedef struct FloraSet {
    const char *name;
    uint32_t density;
    uint8_t n;
    struct { uint8_t shape, weight; } sp[6];
} FloraSet;

enum { FL_NONE, FL_TEMPERATE, FL_SNOWY, FL_DESERT, FL_JUNGLE };   /* the first entries, in this order */
static const FloraSet k_flora[] = {
    {"none", 0, 0, {{0, 0}}},
    {"temperate", 60000, 6,
     {{SH_BROADLEAF, 34}, {SH_CONIFER, 18}, {SH_BIRCH, 12}, {SH_BUSH, 18}, {SH_FLOWERS_R, 8}, {SH_ROCK, 10}}},
    {"snowy", 46000, 3, {{SH_CONIFER_SNOW, 64}, {SH_BOULDER, 18}, {SH_DEAD_BUSH, 18}}},
    {"desert", 24000, 4, {{SH_CACTUS, 40}, {SH_DEAD_BUSH, 34}, {SH_ROCK, 14}, {SH_BOULDER, 12}}},
    {"jungle", 65536, 5, {{SH_JUNGLE, 46}, {SH_PALM, 10}, {SH_BUSH, 30}, {SH_FLOWERS_R, 8}, {SH_FLOWERS_Y, 6}}},
    {"beach", 24000, 3, {{SH_PALM, 70}, {SH_ROCK, 15}, {SH_BUSH, 15}}},
    {"rocky", 30000, 3, {{SH_BOULDER, 40}, {SH_ROCK, 40}, {SH_BUSH, 20}}},
    {"meadow", 56000, 5, {{SH_FLOWERS_R, 26}, {SH_FLOWERS_Y, 26}, {SH_BUSH, 24}, {SH_BROADLEAF, 14}, {SH_BIRCH, 10}}},
    {"forest", 65536, 4, {{SH_BROADLEAF, 44}, {SH_CONIFER, 30}, {SH_BIRCH, 14}, {SH_BUSH, 12}}},
    {"marsh", 52000, 3, {{SH_REEDS, 60}, {SH_BUSH, 24}, {SH_DEAD_BUSH, 16}}},
    {"highland", 30000, 4, {{SH_CONIFER, 34}, {SH_BOULDER, 26}, {SH_ROCK, 20}, {SH_BUSH, 20}}},
    {"scrub", 30000, 4, {{SH_DEAD_BUSH, 40}, {SH_CACTUS, 24}, {SH_ROCK, 20}, {SH_BUSH, 16}}},
};
#define FLORA_COUNT ((int)(sizeof k_flora / sizeof k_flora[0]))
/* The flora of each biome away from the home island (WorldBiome order). */
static const uint8_t k_biome_flora[BIOME_COUNT] = {
    [BIOME_TEMPERATE] = FL_TEMPERATE, [BIOME_SNOWY] = FL_SNOWY, [BIOME_DESERT] = FL_DESERT, [BIOME_JUNGLE] = FL_JUNGLE};

int world_landmark_find(const char *name) {
    for (int i = 0; name && i < LANDMARK_COUNT; i++)
        if (!strcmp(k_landmarks[i].name, name)) return i;
    return -1;
}
const char *world_landmark_name(int i) { return i >= 0 && i < LANDMARK_COUNT ? k_landmarks[i].name : NULL; }
int world_flora_find(const char *name) {
    for (int i = 0; name && i < FLORA_COUNT; i++)
        if (!strcmp(k_flora[i].name, name)) return i;
    return -1;
}
const char *world_flora_name(int i) { return i >= 0 && i < FLORA_COUNT ? k_flora[i].name : NULL; }

const char *gen_prop_shape_name(int shape, bool landmark) {
    if (landmark) return shape >= 0 && shape < LANDMARK_COUNT ? k_landmarks[shape].name : "?";
    return shape >= 0 && shape < SH_OBJECT_COUNT ? k_objects[shape].name : "?";
}

/* ---------------------------------------------------------------- per-epoch setup */
/* The home island's flora per location type and its landmarks (seeds and noise: gen_init). */
void gen_props_init(WorldGen *g) {
    int8_t landmark[ISLAND_FIELD_MAX_TYPES];   /* landmark shape per type, -1: none */
    g->n_marks = 0;
    memset(g->home_flora, -1, sizeof g->home_flora);
    memset(landmark, -1, sizeof landmark);
    const IslandField *h = g->p.home;
    if (!g->home_on) return;
    for (uint32_t t = 0; t < h->n_types && t < ISLAND_FIELD_MAX_TYPES; t++) {
        g->home_flora[t] = (int8_t)world_flora_find(h->type_flora[t]);
        landmark[t] = (int8_t)world_landmark_find(h->type_landmark[t]);
    }
    /* Site positions to blocks: metres from the centre map one to one (floor of an exact sum). */
    for (uint32_t i = 0; i < h->n_sites && i < ISLAND_FIELD_MAX_SITES; i++) {
        const IslandFieldSite *st = &h->sites[i];
        if (st->type >= h->n_types || landmark[st->type] < 0) continue;
        GenLandmark *m = &g->marks[g->n_marks++];
        float fx = h->centre_x + st->x_m, fz = h->centre_z + st->z_m;
        m->bx = (int32_t)floorf(fx);
        m->bz = (int32_t)floorf(fz);
        m->shape = (uint8_t)landmark[st->type];
    }
}

/* ---------------------------------------------------------------- terrain queries */

/* Solidity of block (x, y, z), chunk-local, at the chunk's LOD: LOD 0 reads the bit rows inside
 * the apron and samples the corner grid beyond it (the same field, bit for bit); a coarse LOD
 * reads its coarse voxel. */
static bool blk_solid(const WorldGen *g, const ChunkScratch *s, int x, int y, int z) {
    if (y < WORLD_Y_MIN) return true;
    if (y >= s->y_top) return false;
    if (s->scale == 1) {
        if (x >= -1 && x <= CHUNK_SIZE && z >= -1 && z <= CHUNK_SIZE) return gs_solid(s, x, y, z);
        return gen_sample_solid(g, s, x, y, z);
    }
    int X = floor_div(x, s->scale), Z = floor_div(z, s->scale), Y = (y - WORLD_Y_MIN) / s->scale;
    if (Y >= s->ny || X < -1 || Z < -1 || X > s->n || Z > s->n) return false;
    return gs_solid(s, X, WORLD_Y_MIN + Y, Z);
}

/* Highest solid LOD-0 block of column (x, z) from the corner grid (x, z in -4..35), or -1. */
static int col_top_sampled(const WorldGen *g, const ChunkScratch *s, int x, int z) {
    int xi = (x + WORLD_CELL_XZ) >> 2, zi = (z + WORLD_CELL_XZ) >> 2;
    for (int y = s->y_top - 1; y >= WORLD_Y_MIN;) {
        int yi = (y - WORLD_Y_MIN) >> 3;
        if (!(s->cell_live[yi][zi][xi] & CELL_ROCK)) {   /* no rock anywhere in this cell */
            y = WORLD_Y_MIN + yi * WORLD_CELL_Y - 1;
            continue;
        }
        if (gen_sample_solid(g, s, x, y, z)) return y;
        y--;
    }
    return -1;
}

/* The ground an object at column (x, z) stands on: the highest solid block (LOD 0), or the top
 * block of the highest solid coarse voxel; -1 when the column is open to the floor. */
static int col_ground(const WorldGen *g, const ChunkScratch *s, int x, int z) {
    if (s->scale == 1) {
        if (x >= -1 && x <= CHUNK_SIZE && z >= -1 && z <= CHUNK_SIZE) {
            int t = s->top[z + 1][x + 1];
            return t < 0 ? -1 : WORLD_Y_MIN + t;
        }
        return col_top_sampled(g, s, x, z);
    }
    int X = floor_div(x, s->scale), Z = floor_div(z, s->scale);
    if (X < -1 || Z < -1 || X > s->n || Z > s->n) return -1;
    int t = s->top[Z + 1][X + 1];
    return t < 0 ? -1 : WORLD_Y_MIN + (t + 1) * s->scale - 1;
}

/* ---------------------------------------------------------------- candidates */
/* The cluster field's floor: below it a cell is in no clump (factor 0). */
#define PROP_CLUSTER_LO 0.25f

/* Candidates: one per PROP_CELL x PROP_CELL cell of world blocks, at a hashed offset in it.
 * Chunk-local cells -2..9 hold every candidate whose footprint can touch the chunk (bases -2..33)
 * and every candidate that can conflict with one of those (bases -6..37). */
#define PROP_CELL_FIRST (-2)

static inline bool cand_beats(const PropCand *a, const PropCand *b) {
    if (a->key != b->key) return a->key > b->key;
    if (a->bz != b->bz) return a->bz > b->bz;
    return a->bx > b->bx;
}

/* The flora set of a candidate: the home island's type where the base is on it, else a biome
 * drawn by its weights (quantised to 1/65536) with hash bits u, so borders dither. */
static int cand_flora(const WorldGen *g, const BiomeSample *b, int32_t bx, int32_t bz, uint32_t u) {
    if (g->home_on) {
        uint8_t t = gen_home_type(g, bx, bz);
        if (t == WORLD_HOME_PATH) return 0;   /* "none": paths stay clear */
        if (t != ISLAND_FIELD_OFF) {
            int f = t < ISLAND_FIELD_MAX_TYPES ? g->home_flora[t] : -1;
            if (f >= 0) return f;
        }
    }
    uint32_t acc = 0;
    for (int k = 0; k < BIOME_COUNT; k++) {
        acc += (uint32_t)(b->w[k] * 65536.0f);
        if (u < acc) return k_biome_flora[k];
    }
    return k_biome_flora[b->main];
}

/* Is the footprint [x - r, x + r] x [z - r, z + r] within a block of a landmark's footprint
 * (every landmark counts as |x|, |z| <= PROP_LANDMARK_R)? */
static bool near_landmark(const WorldGen *g, const int32_t *near, int nnear, int32_t x, int32_t z, int r) {
    const int32_t lr = PROP_LANDMARK_R + 1 + r;
    for (int i = 0; i < nnear; i++) {
        const GenLandmark *m = &g->marks[near[i]];
        if (x - m->bx <= lr && m->bx - x <= lr && z - m->bz <= lr && m->bz - z <= lr) return true;
    }
    return false;
}

/* The candidate of world cell (ci, cj) from the maps at its centre: its base, flora, shape and
 * whether the acceptance hash takes it (alive). Returns the acceptance probability x 65536. */
static uint32_t cell_candidate(const WorldGen *g, int32_t ci, int32_t cj, float mapv, float clusv, const BiomeSample *b,
                               PropCand *c) {
    uint32_t h = hash3_u32(g->s_props, ci, 0x51, cj);
    c->bx = ci * PROP_CELL + (int32_t)(h & 3u);
    c->bz = cj * PROP_CELL + (int32_t)((h >> 2) & 3u);
    c->alive = 0;
    c->shape = 0;
    c->r = 0;
    /* Density map in [0, 1]: 0.7 + 0.9 * fbm, clamped (thin and thick regions). Cluster field:
     * clumps where the simplex field is high, nothing where it is low. */
    float m = 0.7f + 0.9f * mapv;
    m = m < 0.0f ? 0.0f : (m > 1.0f ? 1.0f : m);
    float k = (clusv - PROP_CLUSTER_LO) * 5.0f;
    k = k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
    float p = m * k * g->p.prop_density;
    uint32_t pq = p <= 0.0f ? 0u : (p >= 1.0f ? 65536u : (uint32_t)(p * 65536.0f));
    if (!pq) return 0;   /* outside the clumps: nothing can be accepted, whatever the flora */
    const FloraSet *fs = &k_flora[cand_flora(g, b, c->bx, c->bz, (h >> 4) & 0xffffu)];
    uint32_t prob = (uint32_t)(((uint64_t)pq * fs->density) >> 16);
    uint32_t h2 = hash_u32(h ^ 0x6a09e667u);
    /* Accepted with probability density x m x k: an integer comparison of quantised values. */
    if (!fs->n || (h2 & 0xffffu) >= prob) return prob;
    uint32_t total = 0, pick = fs->sp[0].shape;
    for (int q = 0; q < fs->n; q++) total += fs->sp[q].weight;
    uint32_t u = (h2 >> 16) % total;
    for (int q = 0; q < fs->n; q++) {
        if (u < fs->sp[q].weight) {
            pick = fs->sp[q].shape;
            break;
        }
        u -= fs->sp[q].weight;
    }
    c->shape = (uint8_t)pick;
    c->r = k_objects[pick].r;
    c->key = hash_u32(h2 + 0x3c6ef372u);
    c->tint = (uint8_t)(h2 >> 24);
    c->alive = 1;
    return prob;
}

uint32_t gen_prop_cell(const WorldGen *g, int32_t ci, int32_t cj, PropCand *c) {
    int32_t xc = ci * PROP_CELL + 2, zc = cj * PROP_CELL + 2;
    float mapv = noise_fbm2(g->s_pmap, &g->fb_pmap, noise_fx_mul_int(g->f_pmap, xc), noise_fx_mul_int(g->f_pmap, zc));
    float clusv = noise_simplex2(g->s_pclus, noise_fx_mul_int(g->f_pclus, xc), noise_fx_mul_int(g->f_pclus, zc));
    BiomeSample b;
    gen_biome_at(g, xc, zc, &b);
    return cell_candidate(g, ci, cj, mapv, clusv, &b, c);
}

static void props_candidates(const WorldGen *g, ChunkScratch *s, const int32_t *near, int nnear) {
    PropScratch *ps = &s->props;
    const int32_t ci0 = s->cx * (CHUNK_SIZE / PROP_CELL) + PROP_CELL_FIRST, cj0 = s->cz * (CHUNK_SIZE / PROP_CELL) + PROP_CELL_FIRST;
    BiomeSample bio[PROP_CELLS];
    float map[PROP_CELLS], clus[PROP_CELLS];
    const NoiseFx mx0 = noise_fx_mul_int(g->f_pmap, ci0 * PROP_CELL + 2), mdx = noise_fx_mul_int(g->f_pmap, PROP_CELL);
    const NoiseFx cx0 = noise_fx_mul_int(g->f_pclus, ci0 * PROP_CELL + 2), cdx = noise_fx_mul_int(g->f_pclus, PROP_CELL);
    for (int j = 0; j < PROP_CELLS; j++) {
        int32_t cj = cj0 + j, zc = cj * PROP_CELL + 2;
        /* The maps at the cell centres, a row at a time (the same values as gen_prop_cell). */
        noise_simplex2_row(g->s_pclus, cx0, cdx, noise_fx_mul_int(g->f_pclus, zc), clus, PROP_CELLS);
        /* A row with no cell in a clump (cluster factor 0 everywhere: simplex <= PROP_CLUSTER_LO)
         * accepts nothing: its map and biome rows are not needed (the same decisions). */
        bool any = false;
        for (int i = 0; i < PROP_CELLS; i++) any |= clus[i] > PROP_CLUSTER_LO;
        if (!any) {
            for (int i = 0; i < PROP_CELLS; i++) ps->cand[j][i].alive = 0;
            continue;
        }
        noise_fbm2_row(g->s_pmap, &g->fb_pmap, mx0, mdx, noise_fx_mul_int(g->f_pmap, zc), map, PROP_CELLS);
        gen_biome_row(g, ci0 * PROP_CELL + 2, PROP_CELL, zc, bio, PROP_CELLS);
        for (int i = 0; i < PROP_CELLS; i++) {
            PropCand *c = &ps->cand[j][i];
            cell_candidate(g, ci0 + i, cj, map[i], clus[i], &bio[i], c);
            if (c->alive && nnear && near_landmark(g, near, nnear, c->bx, c->bz, c->r)) c->alive = 0;
        }
    }
}

/* ---------------------------------------------------------------- emission */
static void add_box(ChunkScratch *s, const ShapeBox *b, int32_t lx, int32_t by, int32_t lz, int sink, uint8_t tint,
                    uint8_t mat) {
    PropScratch *ps = &s->props;
    int x0 = lx + b->x0, x1 = lx + b->x1, z0 = lz + b->z0, z1 = lz + b->z1;
    int y0 = by + b->y0, y1 = by + b->y1;
    uint8_t faces = 0x3f;
    if (b->y0 == 0) {
        faces &= (uint8_t)~(1u << WORLD_NORMAL_NY);   /* stands on the ground: no bottom */
        y0 -= sink;
    }
    /* Clip to the chunk's columns; a face on a cut is inside the object (its neighbour's part). */
    if (x0 < 0) { x0 = 0; faces &= (uint8_t)~(1u << WORLD_NORMAL_NX); }
    if (z0 < 0) { z0 = 0; faces &= (uint8_t)~(1u << WORLD_NORMAL_NZ); }
    if (x1 > CHUNK_SIZE) { x1 = CHUNK_SIZE; faces &= (uint8_t)~(1u << WORLD_NORMAL_PX); }
    if (z1 > CHUNK_SIZE) { z1 = CHUNK_SIZE; faces &= (uint8_t)~(1u << WORLD_NORMAL_PZ); }
    if (y0 < WORLD_Y_MIN) y0 = WORLD_Y_MIN;
    if (y1 > WORLD_Y_MAX) y1 = WORLD_Y_MAX;
    if (x0 >= x1 || z0 >= z1 || y0 >= y1 || ps->nbox >= PROP_MAX_BOXES) return;
    PropBox *o = &ps->box[ps->nbox++];
    o->x0 = (int16_t)x0; o->x1 = (int16_t)x1;
    o->y0 = (int16_t)y0; o->y1 = (int16_t)y1;
    o->z0 = (int16_t)z0; o->z1 = (int16_t)z1;
    /* A per-object brightness of 88..100% keeps a forest from looking stamped. */
    uint32_t k = 225u + (tint & 31u);
    for (int c = 0; c < 3; c++) o->rgb[c] = (uint8_t)((k_pal[b->col][c] * k) >> 8);
    o->faces = faces;
    o->mat = mat;
}

static void record(ChunkScratch *s, int32_t bx, int32_t by, int32_t bz, uint8_t shape, bool landmark) {
    PropScratch *ps = &s->props;
    if (ps->nplaced >= PROP_MAX_PLACED) return;
    PropPlaced *p = &ps->placed[ps->nplaced++];
    p->bx = bx;
    p->by = by;
    p->bz = bz;
    p->shape = shape;
    p->landmark = landmark;
    int32_t lx = bx - s->cx * CHUNK_SIZE, lz = bz - s->cz * CHUNK_SIZE;
    p->own = lx >= 0 && lz >= 0 && lx < CHUNK_SIZE && lz < CHUNK_SIZE;
}

/* The terrain test of an object at chunk-local base column (lx, lz): ground under the base (and
 * under every box that starts at the ground), every block it takes is air. The boxes are the
 * shape's, or its far boxes at LOD 1 and 2. Returns the base height or -1. */
static int object_fits(const WorldGen *g, const ChunkScratch *s, const PropShape *sh, int nbox, int lx, int lz) {
    int gy = col_ground(g, s, lx, lz);
    if (gy < 0 || (float)gy < g->p.bedrock_level + 1.0f) return -1;   /* not on the abyss floor */
    int by = gy + 1;
    for (int b = 0; b < nbox; b++) {
        const ShapeBox *bb = &sh->box[b];
        if (by + bb->y1 > s->y_top) return -1;
        for (int z = lz + bb->z0; z < lz + bb->z1; z++)
            for (int x = lx + bb->x0; x < lx + bb->x1; x++) {
                if (bb->y0 == 0 && !blk_solid(g, s, x, by - 1, z)) return -1;
                for (int y = by + bb->y0; y < by + bb->y1; y++)
                    if (blk_solid(g, s, x, y, z)) return -1;
            }
    }
    return by;
}

void gen_props(const WorldGen *g, ChunkScratch *s) {
    PropScratch *ps = &s->props;
    ps->nbox = 0;
    ps->nplaced = 0;
    ps->objects = 0;
    ps->landmarks = 0;
    const int32_t bx0 = s->cx * CHUNK_SIZE, bz0 = s->cz * CHUNK_SIZE;
    /* Landmarks near the chunk: those whose footprint (plus a block, plus an object's reach)
     * can touch it. */
    int32_t near[ISLAND_FIELD_MAX_SITES];
    int nnear = 0;
    const int reach = PROP_LANDMARK_R + 2 + 2 * PROP_R_MAX + 4;
    for (uint32_t i = 0; i < g->n_marks; i++) {
        int32_t lx = g->marks[i].bx - bx0, lz = g->marks[i].bz - bz0;
        if (lx >= -reach && lz >= -reach && lx < CHUNK_SIZE + reach && lz < CHUNK_SIZE + reach) near[nnear++] = (int32_t)i;
    }
    /* Landmarks at every LOD, each chunk its part: the base is the LOD-0 ground at the site's
     * column, sampled from the corner grid, which every chunk the landmark touches covers. */
    for (int i = 0; i < nnear; i++) {
        const GenLandmark *m = &g->marks[near[i]];
        const PropShape *sh = &k_landmarks[m->shape];
        int32_t lx = m->bx - bx0, lz = m->bz - bz0;
        if (lx + PROP_LANDMARK_R < 0 || lz + PROP_LANDMARK_R < 0 || lx - PROP_LANDMARK_R >= CHUNK_SIZE ||
            lz - PROP_LANDMARK_R >= CHUNK_SIZE)
            continue;
        int gy = col_top_sampled(g, s, lx, lz);
        if (gy < 0) continue;
        for (int b = 0; b < sh->nbox; b++) add_box(s, &sh->box[b], lx, gy + 1, lz, PROP_SINK, 0xff, WORLD_MAT_LANDMARK);
        record(s, m->bx, gy + 1, m->bz, m->shape, true);
        ps->landmarks++;
    }
    /* Objects: not at LOD 3; at LOD 1 and 2 only shapes with a far form. */
    if (s->lod >= 3 || !(g->p.prop_density > 0.0f)) return;
    props_candidates(g, s, near, nnear);
    for (int j = 0; j < PROP_CELLS; j++)
        for (int i = 0; i < PROP_CELLS; i++) {
            PropCand *c = &ps->cand[j][i];
            if (!c->alive) continue;
            int32_t lx = c->bx - bx0, lz = c->bz - bz0, r = c->r;
            if (lx + r < 0 || lz + r < 0 || lx - r >= CHUNK_SIZE || lz - r >= CHUNK_SIZE) continue;
            const PropShape *sh = &k_objects[c->shape];
            int nbox = s->lod == 0 ? sh->nbox : sh->far;
            if (!nbox) continue;
            /* Hard core among candidates: the one with the highest key keeps a footprint. */
            bool beaten = false;
            for (int dj = -2; dj <= 2 && !beaten; dj++)
                for (int di = -2; di <= 2 && !beaten; di++) {
                    int jj = j + dj, ii = i + di;
                    if ((!di && !dj) || jj < 0 || ii < 0 || jj >= PROP_CELLS || ii >= PROP_CELLS) continue;
                    const PropCand *o = &ps->cand[jj][ii];
                    if (!o->alive) continue;
                    int32_t d = (int32_t)c->r + o->r;
                    int32_t ax = c->bx - o->bx, az = c->bz - o->bz;
                    if (ax <= d && -ax <= d && az <= d && -az <= d && cand_beats(o, c)) beaten = true;
                }
            if (beaten) continue;
            int by = object_fits(g, s, sh, nbox, lx, lz);
            if (by < 0) continue;
            for (int b = 0; b < nbox; b++) add_box(s, &sh->box[b], lx, by, lz, 0, c->tint, WORLD_MAT_PROP);
            record(s, c->bx, by, c->bz, c->shape, false);
            ps->objects++;
        }
}

/* Blocks of placed object p (world coordinates) at LOD lod: calls fn per box (tests). */
void gen_prop_boxes(const PropPlaced *p, int lod, void (*fn)(void *ctx, int32_t x0, int32_t y0, int32_t z0, int32_t x1,
                                                             int32_t y1, int32_t z1),
                    void *ctx) {
    const PropShape *sh = p->landmark ? &k_landmarks[p->shape] : &k_objects[p->shape];
    int nbox = p->landmark || lod == 0 ? sh->nbox : sh->far;
    for (int b = 0; b < nbox; b++) {
        const ShapeBox *bb = &sh->box[b];
        fn(ctx, p->bx + bb->x0, p->by + bb->y0, p->bz + bb->z0, p->bx + bb->x1, p->by + bb->y1, p->bz + bb->z1);
    }
}
