/* skyisles world internals: the immutable generation snapshot, the per-worker chunk scratch
 * and the field helpers shared by the chunk generator and the point queries. */
#ifndef SKYISLES_WORLD_INTERNAL_H
#define SKYISLES_WORLD_INTERNAL_H

#include "noise/noise.h"
#include "noise/simd.h"
#include "world/world.h"

/* Fields sampled at coarse-grid corners and interpolated trilinearly per voxel: D and I
 * (terrain), K (clouds), then the noise fields of the active cave kinds (caves.c). */
#define WG_CAVE_FIELDS 6            /* cave fields of all active kinds together */
enum { WF_D, WF_I, WF_K, WF_CAVE, WF_COUNT = WF_CAVE + WG_CAVE_FIELDS };

#define WG_NX0 11                                    /* LOD 0, 1 corner columns per axis: x = -4 .. 36 */
#define WG_NX 12                                     /* LOD 2, 3 (samples up to x = 36): x = -4 .. 40 */
#define WG_NY ((WORLD_Y_MAX - WORLD_Y_MIN) / WORLD_CELL_Y + 1)
#define WV_H (WORLD_Y_MAX - WORLD_Y_MIN + 2)          /* voxel layers with the y apron */
#define WV_ROW WORLD_VOX_ROW                          /* 34 */
#define WV_LAYER (WV_ROW * WV_ROW)
#define WV_INDEX(x, y, z) ((((y) - WORLD_Y_MIN + 1) * WV_ROW + ((z) + 1)) * WV_ROW + ((x) + 1))

/* Noise units -> blocks for cave fields folded into the density by min(). */
#define WG_CAVE_K 64.0f
/* Cells whose corner bound is below -WG_MARGIN cannot hold a solid voxel (float slack). */
#define WG_MARGIN 0.01f

/* ---------------------------------------------------------------- cave kinds */
/* A cave kind is one entry of the cave table (caves.c, or registered): the noise fields it
 * samples at the corners, how it fills a row of them, its carve rule and its parameters. */
#define CAVE_KIND_FIELDS 3          /* noise fields one kind may sample */

typedef struct CaveField CaveField;
/* out[i] = the field at corner (x0 + i*dx, y, z) in noise coordinates, bit-identical to n = 1
 * at x0 + i*dx (the point query calls it with n = 1). */
typedef void (*CaveRowFn)(const CaveField *f, NoiseWide x0, NoiseFx dx, NoiseWide y, NoiseWide z, float *out, int n);

/* One cave noise field of an epoch, set up by its kind from the kind's parameters. */
struct CaveField {
    CaveRowFn row;
    uint32_t seed;              /* set by the world from the kind's seed stage */
    NoiseFx fx, fy;             /* frequency along x/z and along y */
    NoiseFbm fbm;               /* octaves of FBM rows */
};

typedef struct CaveKind {
    const char *name;
    uint32_t mode;              /* its bit in cave_modes; its parameters live in cave_params[bit index] */
    uint32_t nfields;           /* 1..CAVE_KIND_FIELDS */
    uint32_t seed_stage[CAVE_KIND_FIELDS];   /* field f's seed = gen_derive_seed(seed, stage) */
    /* Row fill: the fields' row function, frequencies and octaves from the parameters. */
    void (*setup)(const double *prm, CaveField *f);
    /* Carve rule: t[i] from the interpolated fields f[k][i], i < n (<= 16); air where t <= 0.
     * Folded into the density by min(), so t is in blocks (noise units * WG_CAVE_K). */
    void (*carve)(const float *prm, const float *const *f, float *t, int n);
    /* Bound (may be NULL): true when no values within [lo[k], hi[k]] can carve. */
    bool (*never_carves)(const float *prm, const float *lo, const float *hi);
    uint32_t nparams;           /* <= WORLD_CAVE_PARAMS_MAX */
    WorldParamDesc params[WORLD_CAVE_PARAMS_MAX];   /* rows of the parameter table (CAVE_PARAM) */
} CaveKind;

/* A carve rule's air on vectors: bit 4v + i where the rule gives t <= 0 from lane i of f[k][v],
 * v < nv <= 4, with the rule's float operations in its order (so the same bits). The built-in
 * kinds have one (caves.c); a registered kind's rule runs on the samples stored. */
typedef uint32_t (*CaveAir4Fn)(const float *prm, const f32x4 (*f)[4], int nv);
/* A bound on vectors: bit i where the kind's never_carves gives true for the ranges in lane i of
 * lo[k] and hi[k] (the same float operations and compares per lane). */
typedef uint32_t (*CaveNever4Fn)(const float *prm, const f32x4 *lo, const f32x4 *hi);

/* A parameter row of the cave kind with mode bit index `bit`, its i-th value (CAVE_PARAM_L: with
 * the panel's label, unit and step). */
#define CAVE_PARAM_L(bit, i, name, min, max, def, help, label, unit, step) \
    {name, WORLD_PARAM_GEN, offsetof(WorldParams, gen.cave_params[bit][i]), WORLD_PT_F64, min, max, def, help, label, unit, step}
#define CAVE_PARAM(bit, i, name, min, max, def, help) CAVE_PARAM_L(bit, i, name, min, max, def, help, NULL, NULL, 0)

/* Adds a kind to the table (boot time, before world_params_default and world_create, single
 * threaded; no allocation). False when its mode bit is not a single bit below
 * WORLD_CAVE_KINDS_MAX, already taken, or the entry is malformed. */
bool cave_kind_register(const CaveKind *k);
/* The kind with mode bit index `bit` (NULL when none). */
const CaveKind *cave_kind_at(uint32_t bit);
/* Rows of every registered kind's parameters, in bit order. */
size_t cave_param_count(void);
const WorldParamDesc *cave_param_at(size_t i);
/* Stock row fills for setup functions: simplex3 and FBM of it (f->fbm). */
void cave_row_simplex3(const CaveField *f, NoiseWide x0, NoiseFx dx, NoiseWide y, NoiseWide z, float *out, int n);
void cave_row_fbm3(const CaveField *f, NoiseWide x0, NoiseFx dx, NoiseWide y, NoiseWide z, float *out, int n);

/* An active kind of an epoch: its first field (WF_CAVE + field0) and its parameters as float. */
typedef struct CaveActive {
    const CaveKind *kind;
    CaveAir4Fn air4;            /* the kind's rule on vectors, NULL: none */
    CaveNever4Fn never4;        /* its bound on vectors, NULL: none (never_carves per lane) */
    uint32_t field0;
    float prm[WORLD_CAVE_PARAMS_MAX];
} CaveActive;

/* A home-island landmark in world blocks (props.c): its site's column and its shape. */
typedef struct GenLandmark { int64_t bx, bz; uint8_t shape; } GenLandmark;

/* An island as the field reads it: its baked field, its sea level, the flora set per location
 * type and its landmarks. Its field's coordinates are metres from (ox, oz), the centre of its cell
 * (0, 0 for the home island), so the field's floats stay small at any distance. */
typedef struct GenIsland {
    const IslandField *f;       /* not owned, NULL: none */
    bool on;                    /* a field is baked in */
    float sea;                  /* its sea level in blocks (elevation 0): home_sea_level, fitted */
    int64_t ox, oz;             /* the block its field's coordinates count from */
    int64_t core;               /* it acts within core blocks of (ox, oz) per axis (its cell less
                                   WORLD_ISLAND_EDGE); 0: everywhere (no archipelago) */
    int8_t flora[ISLAND_FIELD_MAX_TYPES];      /* flora set per location type, -1: the biome's */
    uint32_t n_marks;
    GenLandmark marks[ISLAND_FIELD_MAX_SITES];
} GenIsland;

/* The island of field f (NULL: none) counted from block (ox, oz), its sea level at `sea`
 * (world_home_sea): flora and landmarks resolved in the world's tables (props.c). */
void gen_island_init(GenIsland *gi, float sea, const IslandField *f, int64_t ox, int64_t oz);

/* Does the island act on column (X, Z): inside its cell's core (or no cells at all)? Every
 * column's island is its own cell's, so a chunk or a point that reads one snapshot for its whole
 * region sees the same values as another that reads the next cell's. */
static inline bool gen_island_owns(const GenIsland *gi, int64_t X, int64_t Z) {
    if (!gi->core) return true;
    int64_t dx = X - gi->ox, dz = Z - gi->oz;
    return dx >= -gi->core && dx < gi->core && dz >= -gi->core && dz < gi->core;
}

/* Immutable per-epoch snapshot: the parameters plus everything derived from them. */
typedef struct WorldGen {
    WorldGenParams p;
    uint32_t s_base, s_n3, s_isl, s_islh, s_cloud, s_jitter, s_temp, s_humid;
    NoiseFbm fb_base, fb_n3, fb_isl, fb_cloud, fb_biome;
    NoiseFx f_base, f_n3, f_n3y, f_isl, f_islh, f_cloud, f_jitter, f_biome;
    int32_t y_top;              /* generated top (exclusive) */
    bool clouds;
    float island_bottom_k;
    GenIsland isl;              /* the island of the region this snapshot builds (the home island, or the
                                   island of a chunk's cell in a job's copy: island_gen_for) */
    uint32_t ncaves, ncave_fields;
    CaveActive caves[WORLD_CAVE_KINDS_MAX];   /* kinds in cave_modes, in bit order */
    CaveField cave_fields[WG_CAVE_FIELDS];
    /* Objects and landmarks (props.c) */
    uint32_t s_props, s_pmap, s_pclus;
    NoiseFbm fb_pmap;
    NoiseFx f_pmap, f_pclus;
} WorldGen;

/* The snapshot of p (normalised) with the home island (NULL: none). */
void gen_init(WorldGen *g, const WorldGenParams *p, const IslandField *home);
uint32_t gen_derive_seed(uint64_t seed, uint32_t stage);
/* The active cave kinds of g->p.cave_modes (those whose fields fit WG_CAVE_FIELDS, in bit order). */
void gen_caves_init(WorldGen *g);
/* Cave field f (0..ncave_fields-1) at n corners x = X0 + 4i, y = Y, z = Z. */
void gen_cave_row(const WorldGen *g, uint32_t f, int64_t X0, int32_t Y, int64_t Z, float *out, int n);
/* Every active kind carves v[i] (i < n <= 16) with min() from the interpolated cave fields
 * fv[f][i]: a value that ends <= 0 is air. */
void gen_caves_carve(const WorldGen *g, const float *const *fv, float *v, int n);
/* Samples of rock (v > 0) that some active kind carves: bit 4v + i where a carve rule gives
 * t <= 0 from lane i of fv[f][v], the samples 4v..4v+3 of cave field f (v < nv <= 4). Folding
 * min(v, t) over the kinds leaves a rock value > 0 exactly where no kind gives t <= 0 (a NaN t
 * carves nothing, as min() keeps v), so this is gen_caves_carve's solid/air for rock samples
 * without their values. */
uint32_t gen_caves_air4(const WorldGen *g, const f32x4 (*fv)[4], int nv);
/* No active kind can carve anywhere a cell's cave fields stay within [lo[f], hi[f]]. */
bool gen_caves_never_carve(const WorldGen *g, const float *lo, const float *hi);
/* The same for four ranges at once: bit i where no kind can carve within lane i of lo[f], hi[f]. */
uint32_t gen_caves_never4(const WorldGen *g, const f32x4 *lo, const f32x4 *hi);
/* The LOD thresholds in use (ascending, each more than a chunk past the previous): how many. */
int gen_lod_thresholds(const WorldLiveParams *p, float out[WORLD_LOD_MAX]);

/* Column fields at a corner column (X, Z). */
typedef struct GenColumn {
    float base;         /* W2 baseHeight */
    float isl_s;        /* island coverage (> 0 inside) */
    float isl_c;        /* lens centre height */
    float home_top;     /* home island top and underside heights (home_on only) */
    float home_bottom;
    float home_rough;   /* the home surface's roughness: 1, 0 on an airstrip (level to the block) */
    int32_t home_on;
} GenColumn;

void gen_column_point(const WorldGen *g, int64_t X, int64_t Z, GenColumn *out);
/* Column fields from the raw noise values (shared by the row and the point paths). */
void gen_column_finish(const WorldGen *g, int64_t X, int64_t Z, float n_base, float n_isl, float n_islh,
                       GenColumn *out);
/* ---------------------------------------------------------------- biomes */
/* Biomes of the endless archipelago: two 2D fields over block columns, temperature and humidity
 * (FBM in [-1, 1]), choose a palette and vegetation. Weights change smoothly over biome_blend
 * field units, so borders blend instead of cutting; the abyss and clouds do not use them. */
typedef enum WorldBiome { BIOME_TEMPERATE, BIOME_SNOWY, BIOME_DESERT, BIOME_JUNGLE, BIOME_COUNT } WorldBiome;

typedef struct BiomeSample {
    float w[BIOME_COUNT];          /* weights, >= 0, summing to 1 */
    WorldBiome main;               /* the largest weight */
} BiomeSample;

/* The biome at block column (bx, bz) (deterministic: fixed-point noise coordinates). */
void gen_biome_at(const WorldGen *g, int64_t bx, int64_t bz, BiomeSample *out);
/* The biome of n columns bx0 + i*step, bz (same values as gen_biome_at; n <= 64). */
void gen_biome_row(const WorldGen *g, int64_t bx0, int32_t step, int64_t bz, BiomeSample *out, int n);
/* The biome of rows x n columns (bx0 + i*step, bz0 + r*step) into out[r * stride + i]: the
 * fields as one plane each (the values gen_biome_row's rows give), humidity only where some column
 * is hot (the weights elsewhere do not read it); n * rows <= GEN_BIOME_PLANE_MAX. */
#define GEN_BIOME_PLANE_MAX 144
void gen_biome_plane(const WorldGen *g, int64_t bx0, int64_t bz0, int32_t step, BiomeSample *out, int stride, int n,
                     int rows);
/* Weights from the two field values (shared by both calls and the tests). */
void gen_biome_weights(const WorldGen *g, float temperature, float humidity, BiomeSample *out);
const char *gen_biome_name(WorldBiome b);
/* Biome weights of a chunk's n x n sample columns (bx0 + x * scale + off, likewise z): the
 * lattice of gen_biome_row every GEN_BIOME_STEP blocks, interpolated bilinearly (exact on it). */
#define GEN_BIOME_STEP 8
void gen_biome_chunk(const WorldGen *g, int64_t bx0, int64_t bz0, int scale, int off, int n,
                     float out[CHUNK_SIZE][CHUNK_SIZE][BIOME_COUNT]);

/* Location type of the home island at a block column, ISLAND_FIELD_OFF when not on it,
 * WORLD_HOME_PATH on a path. */
#define WORLD_HOME_PATH 254u
/* ... and WORLD_HOME_STRIP on an airstrip (its marking: gen_home_strip_rgb). */
#define WORLD_HOME_STRIP 253u
uint8_t gen_home_type(const WorldGen *g, int64_t bx, int64_t bz);
/* The water surface's block height over block column (bx, bz) (the home field's water_dm at the
 * column's centre, rounded to whole blocks), 0: none. */
int32_t gen_home_water_y(const WorldGen *g, int64_t bx, int64_t bz);
/* The ground colour 0xRRGGBB of an airstrip's block (WORLD_HOME_STRIP): the light surface, its
 * centre dashes and threshold bars. */
uint32_t gen_home_strip_rgb(const WorldGen *g, int64_t bx, int64_t bz);
/* Is the corner cell whose lowest corner is (X0, Y0, Z0) under an airstrip: its four corner
 * columns on a strip's level ground and its heights reaching into the STRIP_SHIELD blocks under
 * the strip's surface? Caves carve nothing in such a cell, in the chunks (no CELL_CARVE) and at
 * a point alike, so no cave opens a strip. */
#define STRIP_SHIELD 8
bool gen_strip_shield(const WorldGen *g, int64_t X0, int32_t Y0, int64_t Z0);
/* Is block column (bx, bz) on an airstrip of the home island grown by `along` blocks past its
 * ends and `side` blocks to its sides? */
bool gen_home_near_strip(const WorldGen *g, int64_t bx, int64_t bz, float along, float side);
/* The ground colour 0xRRGGBB of a home-island column of type t (gen_home_type's, a place): the
 * field's blended colour interpolated between the cells around the block, so it changes block
 * by block across a border; the type's own colour where the field has none. */
uint32_t gen_home_rgb(const WorldGen *g, int64_t bx, int64_t bz, uint8_t t);

/* Corner values D (W1 without the y terms) and I (island lenses) from the corner's n3.
 * A lens is min(top - Y, (Y - bottom) * k): a domed top and a deep, gentler underside. */
static inline void gen_corner_dense(const WorldGen *g, const GenColumn *c, float Y, float n3,
                                    float *d_out, float *i_out) {
    *d_out = c->base + n3 * g->p.n3_amplitude;
    float top = c->isl_c + c->isl_s * g->p.island_top;
    float bottom = c->isl_c - c->isl_s * g->p.island_bottom;
    float up = top - Y, down = (Y - bottom) * g->island_bottom_k;
    float iv = (up < down ? up : down) + n3 * g->p.island_noise;
    if (c->home_on) {
        float hu = c->home_top - Y, hd = (Y - c->home_bottom) * g->island_bottom_k;
        float h = (hu < hd ? hu : hd) + n3 * (g->p.island_noise * 0.25f) * c->home_rough;
        if (h > iv) iv = h;
    }
    *i_out = iv;
}

/* a / b rounded towards minus infinity (b > 0): block to chunk or cell indices. */
static inline int32_t floor_div(int32_t a, int32_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
/* The same over int64 (world block, corner and chunk coordinates; |a| far below 2^62). */
static inline int64_t floor_div64(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* A cell index of any width folded to the 32 bits a cell hash takes: the low word, XORed with a
 * mix of the high part that is 0 for every index within +-2^31 (so the hashes there are those of
 * the 32-bit index), and a different word for each 2^32 block of cells beyond. */
static inline uint32_t gen_wide_cell(int64_t v) {
    int32_t lo = (int32_t)(uint32_t)(uint64_t)v;            /* sign-extended low word */
    int64_t hi = (v - (int64_t)lo) >> 32;                   /* exact; 0 iff v fits in int32 */
    /* hash_u32 is a bijection with hash_u32(0) = 0: the mix is 0 exactly for hi = 0 */
    return (uint32_t)lo ^ hash_u32((uint32_t)(uint64_t)hi ^ hash_u32((uint32_t)((uint64_t)hi >> 32)));
}
static inline float wlerp(float a, float b, float t) { return a + (b - a) * t; }

/* -y plus the bedrock term at height yc: what the terrain adds to the interpolated D. The cell
 * bounds (skipping, CELL_SURE) take it at the cell's extreme voxel centres. */
static inline float gen_lift(const WorldGen *g, float yc) {
    float lift = -yc;
    if (yc < g->p.bedrock_level) {
        float t = g->p.bedrock_level - yc;
        lift = lift + t * t * g->p.bedrock_strength;
    }
    return lift;
}

/* The one trilinear order: y on the four corner columns, then x, then z.
 * c[yi][zi][xi]. The chunk generator uses this same function per voxel. */
static inline float wtrilerp(const float c[2][2][2], float tx, float ty, float tz) {
    float y00 = wlerp(c[0][0][0], c[1][0][0], ty);
    float y10 = wlerp(c[0][0][1], c[1][0][1], ty);
    float y01 = wlerp(c[0][1][0], c[1][1][0], ty);
    float y11 = wlerp(c[0][1][1], c[1][1][1], ty);
    float x0 = wlerp(y00, y10, tx);
    float x1 = wlerp(y01, y11, tx);
    return wlerp(x0, x1, tz);
}

/* Terrain (W1 + W3 + islands) from the interpolated D and I at voxel-centre height yc. */
static inline float gen_terrain(const WorldGen *g, float d_interp, float i_interp, float yc) {
    float d = d_interp - yc;
    if (yc < g->p.bedrock_level) {
        float t = g->p.bedrock_level - yc;
        d = d + t * t * g->p.bedrock_strength;
    }
    float v = d > i_interp ? d : i_interp;
    if (yc > (float)WORLD_Y_MAX) {
        float cap = (float)WORLD_Y_MAX - yc;
        if (cap < v) v = cap;
    }
    return v;
}

/* Caves carve rock only, above cave_min_y so the floor stays whole. */
static inline bool gen_caves_apply(const WorldGen *g, float v, float yc) {
    return v > 0.0f && g->ncaves > 0 && yc >= g->p.cave_min_y;
}

/* W7 vertical weight 1 - (|y - c| / r)^2 (<= 0 outside the band). */
static inline float gen_cloud_weight(const WorldGen *g, float yc) {
    float d = (yc - g->p.cloud_centre) / g->p.cloud_range;
    return 1.0f - d * d;
}

#define WIND_SALT_DRIFT 0x2d1f7a55u   /* the clouds' drift knots */
/* Corner-cloud lattice noise at block corner (X + shift[0], Y, Z + shift[1]). */
float gen_cloud_corner(const WorldGen *g, const int64_t shift[2], int64_t X, int32_t Y, int64_t Z);

float gen_density_point(const WorldGen *g, double x, double y, double z);
/* gen_density_point at a point whose cell's D and I corners (gen_corner_dense of its lower and
 * upper layer, [layer][z][x]) the caller already has: the same value, without their noise. */
/* The corners of the cave fields of the cell a point query is in, when its caller keeps them:
 * fill writes c[f][layer][z][x] as gen_cave_row gives them (called only where caves may carve). */
typedef struct GenCaveCorners {
    void (*fill)(void *ctx, float c[WG_CAVE_FIELDS][2][2][2]);
    void *ctx;
} GenCaveCorners;
/* cc: NULL, or the cell's cave corners (GenCaveCorners). */
float gen_density_in_cell(const WorldGen *g, const float cd[2][2][2], const float ci[2][2][2], const GenCaveCorners *cc,
                          double x, double y, double z);
bool gen_cloud_point(const WorldGen *g, double time_s, double x, double y, double z);

/* ---------------------------------------------------------------- objects (props.c) */
#define PROP_CELL 4                  /* one candidate per 4 x 4 cell of blocks */
#define PROP_CELLS 12                /* candidate cells per axis a chunk considers (-2..9) */
#define PROP_R_MAX 2                 /* object footprint: |x|, |z| <= r <= 2 around its base */
#define PROP_LANDMARK_R 4            /* landmark footprint: |x|, |z| <= 4 */
#define PROP_SINK 8                  /* landmark boxes at the ground reach this far into it */
#define PROP_MAX_BOXES 1536
#define PROP_MAX_PLACED 512

typedef struct PropCand {
    int64_t bx, bz;                  /* base column, world blocks */
    uint32_t key;                    /* hard-core priority */
    uint8_t shape, r, alive, tint;
} PropCand;
/* A box to mesh, chunk-local blocks [x0, x1) x [y0, y1) x [z0, z1), clipped to the chunk. */
typedef struct PropBox {
    int16_t x0, y0, z0, x1, y1, z1;
    uint8_t rgb[3];
    uint8_t faces;                   /* bit n: face with normal n is drawn */
    uint8_t mat;                     /* WORLD_MAT_PROP or WORLD_MAT_LANDMARK */
} PropBox;
/* An object or landmark the chunk built (part of): base in world blocks. */
typedef struct PropPlaced {
    int64_t bx, bz;
    int32_t by;
    uint8_t shape;
    bool landmark;
    bool own;                        /* the base column lies in this chunk */
} PropPlaced;
typedef struct PropScratch {
    PropCand cand[PROP_CELLS][PROP_CELLS];
    PropBox box[PROP_MAX_BOXES];
    PropPlaced placed[PROP_MAX_PLACED];
    uint32_t nbox, nplaced, objects, landmarks;
} PropScratch;

/* Objects and landmarks of the chunk in s (after its voxels): s->props. */
struct ChunkScratch;
void gen_props(const WorldGen *g, struct ChunkScratch *s);
/* The candidate of world cell (ci, cj) (scalar noise; the chunk path computes the same in rows):
 * returns its acceptance probability x 65536 (before the hard core, landmarks and terrain). */
uint32_t gen_prop_cell(const WorldGen *g, int64_t ci, int64_t cj, PropCand *c);
/* Name of an object (landmark false) or landmark shape. */
const char *gen_prop_shape_name(int shape, bool landmark);
/* The boxes (world blocks, half-open) of a placed object at a LOD. */
void gen_prop_boxes(const PropPlaced *p, int lod,
                    void (*fn)(void *ctx, int64_t x0, int64_t y0, int64_t z0, int64_t x1, int64_t y1, int64_t z1),
                    void *ctx);

/* ---------------------------------------------------------------- pools in caves (pools.c) */
/* The world's columns in regions of POOL_REGION x POOL_REGION blocks (chunk-aligned: a chunk
 * holds 2 x 2). A layer's basin in a region: its blocks that are not rock, less those joined to
 * the region's outer ring of columns through such blocks of the layer. A run of layers lo..hi
 * holds water in their basins when: lo's basin has rock under it; each next layer's basin covers
 * the one below and lies over air only where that basin is (so every water block has rock or
 * water under it and at its sides, and water over it); hi's basin has air over it and, within
 * POOL_ROOF blocks above, rock (in a cave); the run is as long as the basins go on, at most
 * POOL_DEPTH_MAX layers, from lo at or above cave_min_y (at least 1) to hi at most
 * gen_pool_hi_max; and no column of the region holds a lake. docs/world.md, "Pools in caves". */
#define POOL_REGION 16
#define POOL_DEPTH_MAX 16
#define POOL_ROOF 10
#define POOL_PER_ROW (CHUNK_SIZE / POOL_REGION)
#define POOL_REGIONS (POOL_PER_ROW * POOL_PER_ROW)
typedef uint16_t PoolRow;   /* a region's row of blocks: bit x */
#define POOL_WORDS ((WORLD_Y_MAX - WORLD_Y_MIN + 63) / 64)
static inline int32_t gen_pool_lo(const WorldGen *g) {
    float m = g->p.cave_min_y;
    return m > (float)(WORLD_Y_MIN + 1) ? (m < (float)WORLD_Y_MAX ? (int32_t)m : WORLD_Y_MAX) : WORLD_Y_MIN + 1;
}
static inline int32_t gen_pool_hi_max(const WorldGen *g) { return g->y_top - 2 - POOL_ROOF; }

/* ---------------------------------------------------------------- chunk scratch */
/* cell_live bits */
#define CELL_ROCK 1u      /* terrain may be solid somewhere in the cell */
#define CELL_CLOUD 2u     /* the cell touches the cloud band */
#define CELL_SURE 4u      /* every voxel of the cell is solid, caves included (no sampling) */
#define CELL_CARVE 8u     /* a cave kind may carve somewhere in the cell */
#define CELL_FULL 16u     /* while marking: the terrain is rock at every voxel (before caves) */

/* Voxel arrays hold the chunk at its LOD: coarse voxel (X, Y, Z) at bit X + 1 of row
 * [Y + 1][Z + 1], X, Z in -1..n (apron), Y in -1..ny (layer 0 = solid below WORLD_Y_MIN). */
typedef struct ChunkScratch {
    GenColumn col[WG_NX][WG_NX];                     /* [zi][xi] */
    float corner[WF_COUNT][WG_NY][WG_NX][WG_NX];     /* [f][yi][zi][xi] */
    uint8_t cell_live[WG_NY][WG_NX][WG_NX];          /* CELL_* bits */
    uint16_t row_need[WG_NY][WG_NX];                 /* cave corners needed: bit xi of row [yi][zi] */
    uint8_t vox[WV_H * WV_LAYER];                    /* WorldMaterial per voxel, with apron */
    uint64_t solid[WV_H][WV_ROW];                    /* bit (x + 1) of row (y, z) */
    uint64_t cloud[WV_H][WV_ROW];
    int16_t top[WV_ROW][WV_ROW];                     /* highest solid layer Y per column, or -1 */
    int16_t row_top[WV_ROW];                         /* fill: highest bit row [Y + 1][z] it wrote rock into */
    float jitter[CHUNK_SIZE][CHUNK_SIZE];            /* W6 colour jitter per interior column */
    float biome_w[CHUNK_SIZE][CHUNK_SIZE][BIOME_COUNT];   /* biome weights per column (temperate on the home island) */
    uint8_t home_type[CHUNK_SIZE][CHUNK_SIZE];
    uint32_t home_rgb[CHUNK_SIZE][CHUNK_SIZE];       /* a place's ground colour 0xRRGGBB (gen_home_rgb) */
    uint32_t cplane[6][CHUNK_SIZE * WV_H];           /* mesher: cloud faces per plane for merging */
    int64_t cx, cz;                                  /* the chunk */
    int32_t y_top;                                   /* generated top in blocks */
    int32_t lod, scale, off;                         /* LOD n, s = 2^n, sample offset s/2 */
    int32_t n, ny;                                   /* coarse voxels per row, coarse layers */
    int32_t nx;                                      /* corner columns in use */
    bool seams;                                      /* mesher adds LOD seam faces on borders */
    uint32_t cells_total, cells_skipped;
    uint32_t seam_samples;                           /* field samples taken for seam faces */
    PropScratch props;                               /* objects and landmarks (props.c) */
    /* Pools in caves at LOD 0 (gen_cave_pools), region r = x / POOL_REGION + POOL_PER_ROW * (z / POOL_REGION): bit y - WORLD_Y_MIN
     * of pool_layers[r] where that layer holds water, in its blocks of pool_mask[r][y - WORLD_Y_MIN]
     * (row z % 16, bit x % 16; read only under a layer bit), of pool_tops[r] where it is a pool's
     * top layer. */
    uint64_t pool_layers[POOL_REGIONS][POOL_WORDS], pool_tops[POOL_REGIONS][POOL_WORDS];
    PoolRow pool_mask[POOL_REGIONS][WORLD_Y_MAX - WORLD_Y_MIN][POOL_REGION];
    bool pools;                                      /* some region holds a pool */
} ChunkScratch;

/* The pools of a chunk whose fill is done (pools.c): none at LOD > 0. */
void gen_cave_pools(const WorldGen *g, ChunkScratch *s);
/* Is chunk-local LOD-0 block (x, by, z) (x, z in 0..31) a pool's water? */
static inline bool gen_pool_water(const ChunkScratch *s, int x, int32_t by, int z) {
    if (!s->pools || s->lod != 0 || x < 0 || z < 0 || x >= CHUNK_SIZE || z >= CHUNK_SIZE || by < WORLD_Y_MIN ||
        by >= WORLD_Y_MAX)
        return false;
    int32_t d = by - WORLD_Y_MIN, r = x / POOL_REGION + POOL_PER_ROW * (z / POOL_REGION);
    return ((s->pool_layers[r][d >> 6] >> (d & 63)) & 1u) && ((s->pool_mask[r][d][z % POOL_REGION] >> (x % POOL_REGION)) & 1u);
}
/* The surface height of the water that holds point (x, y, z), a lake's (gen_home_water_y) or a
 * pool's, 0 where it is no water: the chunks' water (world_water_top). */
int32_t gen_water_top(const WorldGen *g, double x, double y, double z);
/* The surface over pool water block (bx, by, bz) read from its chunk's own pools (its LOD-0 fill
 * and gen_cave_pools, kept for the last few chunks), 0 where none: gen_water_top's answer for a
 * run deeper than its layers read from the field. */
int32_t gen_pool_top_chunk(const WorldGen *g, int64_t bx, int32_t by, int64_t bz);
/* D and I at corner (X, Y, Z) of corner column c (the point query's noise calls). */
void gen_corner_point(const WorldGen *g, const GenColumn *c, int64_t X, int32_t Y, int64_t Z, float *d_out, float *i_out);

/* Every cave field at the corners of corner layer yi that s->row_need asks for (the same values
 * as gen_cave_row over each row's run), the layer's points batched across rows. */
void gen_cave_layer(const WorldGen *g, ChunkScratch *s, int yi, int64_t X0, int64_t Z0, int nx);

static inline bool gs_solid(const ChunkScratch *s, int x, int y, int z) {
    return (s->solid[y - WORLD_Y_MIN + 1][z + 1] >> (x + 1)) & 1u;
}
static inline bool gs_cloud(const ChunkScratch *s, int x, int y, int z) {
    return (s->cloud[y - WORLD_Y_MIN + 1][z + 1] >> (x + 1)) & 1u;
}

/* Block height of coarse layer Y's sample (the voxel's own height at LOD 0). */
static inline int gs_block_y(const ChunkScratch *s, int Y) { return WORLD_Y_MIN + Y * s->scale + s->off; }

/* Coarse layers of rock above a voxel that make it stone rather than dirt: 4 blocks' worth. */
static inline int gs_dirt_layers(const ChunkScratch *s) { return s->scale >= 4 ? 1 : 4 / s->scale; }

/* The material of a surface voxel (air right above it); x, z coarse, by = block height. */
static inline uint8_t gen_surface_material(const WorldGen *g, const ChunkScratch *s, int x, int by, int z) {
    if (x >= 0 && z >= 0 && x < s->n && z < s->n && s->home_type[z][x] != ISLAND_FIELD_OFF &&
        (float)by >= g->isl.sea - WORLD_HOME_FLOOR)
        return WORLD_MAT_HOME;
    return (float)by >= g->p.snow_level ? WORLD_MAT_SNOW : WORLD_MAT_GRASS;
}

/* C3 / W6 material of a solid voxel (coarse X, layer Y, Z): abyss below bedrock level, then by
 * depth under the nearest air above: surface (grass, snow high up, home island), dirt, stone. */
static inline uint8_t gen_material(const WorldGen *g, const ChunkScratch *s, int x, int Y, int z) {
    int by = gs_block_y(s, Y);
    if ((float)by < g->p.bedrock_level) return WORLD_MAT_ABYSS;
    int depth = 0, dl = gs_dirt_layers(s);
    while (depth < dl) {
        int ya = Y + depth + 1;
        if (ya >= s->ny || !gs_solid(s, x, WORLD_Y_MIN + ya, z)) break;
        depth++;
    }
    if (depth == 0) return gen_surface_material(g, s, x, by, z);
    return depth < dl ? WORLD_MAT_DIRT : WORLD_MAT_STONE;
}

/* The fill alone, without objects (voxels.c): corners over nx columns, voxels, column tops,
 * colours. gen_chunk_voxels and gen_chunk_voxels_lod (chunk.c) place the objects on it. */
void gen_chunk_fill(const WorldGen *g, int64_t cx, int64_t cz, double time_s, int lod, int nx, bool lazy,
                    struct ChunkScratch *s);
/* Fills solid/cloud/top/jitter/home_type and the objects for chunk (cx, cz) created at time_s,
 * at LOD 0. */
void gen_chunk_voxels(const WorldGen *g, int64_t cx, int64_t cz, double time_s, ChunkScratch *s);
/* The same at LOD lod (0..WORLD_LOD_MAX) for the streamer: coarse voxels sampled from the
 * field (lod 0 gives gen_chunk_voxels' voxels), and s->seams set so the mesher adds the faces
 * a neighbour one LOD finer or coarser needs at the chunk border. */
void gen_chunk_voxels_lod(const WorldGen *g, int64_t cx, int64_t cz, double time_s, int lod, ChunkScratch *s);

/* Shared by both: columns, corner fields, cell classes (CELL_*), cave and cloud rows for nx
 * corner columns from x = z = -4. `lazy` (every chunk build) leaves out the n3 corners that touch
 * no cell that may hold rock whatever n3 is: the cell classes, and so every voxel, come out the
 * same; false fills every corner (the tests' comparison with the scalar calls). */
void gen_chunk_corners(const WorldGen *g, int64_t cx, int64_t cz, double time_s, int nx, bool lazy, ChunkScratch *s);
/* Smallest and largest of field f over the four corners of each corner column pair (yi and
 * yi + 1, zi and zi + 1), for every column of a row (lo or hi may be NULL): a cell's range is
 * that of its two columns (the cell classes and the fill). */
static inline void gen_column_range(const ChunkScratch *s, int f, int yi, int zi, float *lo, float *hi) {
    for (int xi = 0; xi < WG_NX; xi += 4) {
        const float *c0 = &s->corner[f][yi][zi][xi], *c1 = &s->corner[f][yi + 1][zi][xi];
        f32x4 a = f32x4_load(c0), b = f32x4_load(c0 + WG_NX), c = f32x4_load(c1), d = f32x4_load(c1 + WG_NX);
        if (lo) f32x4_store(lo + xi, f32x4_min(f32x4_min(a, b), f32x4_min(c, d)));
        if (hi) f32x4_store(hi + xi, f32x4_max(f32x4_max(a, b), f32x4_max(c, d)));
    }
}
/* Solidity of LOD-0 block (x, y, z) in chunk-local blocks (x, z in -4..4 * (nx - 1) - 1) from
 * the corners: the same float operations as the voxel fill and world_density_at. */
bool gen_sample_solid(const WorldGen *g, const ChunkScratch *s, int x, int y, int z);
/* Seam test for the coarse border face of voxel (layer Y, coarse t along the border) on
 * `normal` (one of +-X, +-Z): true when the neighbour is solid over the whole face at
 * LOD lod - 1 and lod + 1 (within 0..WORLD_LOD_MAX), so the face may be culled. The caller
 * has checked the neighbour at the chunk's own LOD (the apron). */
bool gen_seam_covered(const WorldGen *g, ChunkScratch *s, int normal, int Y, int t);

/* Voxel codes of the bit rows into s->vox (tests and tools only). */
void gen_fill_vox(const WorldGen *g, ChunkScratch *s);
/* After the fill (columns.c): the column tops from the bit rows, then the colour jitter, biome
 * weights and home-island types and colours of the sample columns. */
void gen_column_tops(ChunkScratch *s);
void gen_column_colours(const WorldGen *g, ChunkScratch *s);

/* Appends quads into slabs from `slabs`; false when the slab pool ran dry (the mesh then
 * holds what fitted; the caller frees it). A mesh beyond WORLD_MAX_MESH_PARTS parts is
 * truncated (counts->truncated) but still returned as usable. */
typedef struct MeshCounts { uint32_t faces, opaque_verts, cloud_verts; bool truncated; } MeshCounts;
bool mesh_chunk(const WorldGen *g, ChunkScratch *s, MemPool *slabs, ChunkMesh *out, MeshCounts *counts);
void mesh_free(MemPool *slabs, ChunkMesh *m);
/* Slabs a mesh holds (a part that continues the previous part's slab owns none). */
uint32_t mesh_slab_count(const MemPool *slabs, const ChunkMesh *m);

#endif
