/* skyisles world: the one public header of src/world (pure C, no SDL/GL).
 * Density field (terrain, floating islands, caves, clouds, bedrock), chunk meshes, streaming. */
#ifndef SKYISLES_WORLD_H
#define SKYISLES_WORLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

/* ---------------------------------------------------------------- geometry */
/* One block = one metre. A chunk is 32 x 32 columns over the whole vertical range
 * [WORLD_Y_MIN, WORLD_Y_MAX): abyss floor and bedrock at the bottom, hills, the cloud band,
 * and floating islands up to ~150. Below WORLD_Y_MIN counts as solid, above WORLD_Y_MAX as air. */
#define CHUNK_SIZE 32
#define WORLD_Y_MIN 0
#define WORLD_Y_MAX 160

/* Horizontal coordinates: block, corner and chunk coordinates are int64 (chunk = floor(block /
 * CHUNK_SIZE)), positions double. The world is generated out to |x|, |z| < WORLD_COORD_LIMIT
 * blocks (2^42, 4.4e12 m: 28 years of flight at 5000 m/s), where a double still resolves
 * 2^-10 block (under a millimetre); past it, and at NaN or infinite positions, the point query
 * answers air (solid below WORLD_Y_MIN) and the streamer requests nothing (docs/world.md,
 * coordinates). Every integer product of coordinates stays far inside int64 there. */
#define WORLD_COORD_LIMIT 4398046511104.0
static inline bool world_coord_usable(double x, double z) {
    return x > -WORLD_COORD_LIMIT && x < WORLD_COORD_LIMIT && z > -WORLD_COORD_LIMIT && z < WORLD_COORD_LIMIT;
}
/* A height held in the world's layer, 8 m over its floor at the least: where a search for open
 * air starts (a restart near a place given, a Fly to, a Continue). */
static inline double world_height_clamp(double y) {
    return y < WORLD_Y_MIN + 8.0 ? WORLD_Y_MIN + 8.0 : y > WORLD_Y_MAX ? WORLD_Y_MAX : y;
}

/* Coarse density grid: corners every 4 blocks in x/z and 8 in y, trilinear in between
 * (the interpolated field IS the field: world_density_at computes the same interpolation). */
#define WORLD_CELL_XZ 4
#define WORLD_CELL_Y 8

/* Level of detail. A LOD-n mesh is built from coarse voxels of s x s x s blocks, s = 2^n
 * (n <= WORLD_LOD_MAX), sampled from THE field: coarse voxel (X, Y, Z) is solid exactly where
 * block (s*X + s/2, s*Y + s/2, s*Z + s/2) is solid at LOD 0, i.e. where the density at that
 * block's centre is > 0 (for n = 0 the block itself). Vertex positions stay in blocks. */
#define WORLD_LOD_MAX 3
#define WORLD_LOD_SCALE(n) (1 << (n))
#define WORLD_LOD_OFFSET(n) (WORLD_LOD_SCALE(n) >> 1)

/* Packed vertex, 12 bytes. x, z: chunk-local corner coordinates 0..32; y: absolute block height.
 * normal: 0..5 = +X, -X, +Y, -Y, +Z, -Z. r, g, b: colour with per-vertex AO, pseudo-AO and the
 * directional shade baked in. a: 255 for terrain, cloud opacity for clouds.
 * flags: bits 0-1 per-vertex AO level (3 = open, 0 = fully occluded), bits 2-7 material id. */
typedef struct WorldVertex {
    int16_t x, y, z;
    uint8_t normal;
    uint8_t flags;
    uint8_t r, g, b, a;
} WorldVertex;
_Static_assert(sizeof(WorldVertex) == 12, "WorldVertex must stay 12 bytes");

enum { WORLD_NORMAL_PX = 0, WORLD_NORMAL_NX, WORLD_NORMAL_PY, WORLD_NORMAL_NY, WORLD_NORMAL_PZ, WORLD_NORMAL_NZ };

/* Materials (vertex flags >> 2, and the voxel codes of world_debug_voxels). */
typedef enum WorldMaterial {
    WORLD_MAT_AIR = 0,
    WORLD_MAT_CLOUD = 1,
    WORLD_MAT_ABYSS,      /* bedrock and the abyss floor: near-black */
    WORLD_MAT_STONE,
    WORLD_MAT_DIRT,
    WORLD_MAT_GRASS,
    WORLD_MAT_CLIFF,      /* steep grass: exposed earth */
    WORLD_MAT_SNOW,       /* island tops above snow_level */
    WORLD_MAT_HOME,       /* home island surface; colour by the IslandField type */
    WORLD_MAT_PROP,       /* objects (trees, bushes, rocks...): mesh only, never a voxel */
    WORLD_MAT_LANDMARK,   /* home-island landmarks: mesh only */
    WORLD_MAT_WATER,      /* lakes and pools: only their surface is meshed (cloud parts), never rock */
    WORLD_MAT_COUNT
} WorldMaterial;

/* Quads: 4 consecutive vertices, drawn with ONE shared 16-bit index pattern per quad
 * {0,1,2, 0,2,3} (+4 per quad). The mesher orders each quad's vertices counter-clockwise seen
 * from outside the solid and rotates them so the 0-2 diagonal is the AO-correct one.
 * Because every quad is independent, a renderer may concatenate parts into one buffer and
 * draw up to WORLD_PART_MAX_VERTS vertices with one call. */
#define WORLD_PART_MAX_VERTS 65532u
#define WORLD_SLAB_VERTS 2048u          /* vertices per pool slab = per part (multiple of 4) */
#define WORLD_MAX_MESH_PARTS 96u        /* => at most 196,608 vertices per chunk */

typedef struct ChunkMeshPart {
    const WorldVertex *verts;
    uint32_t vert_count;
} ChunkMeshPart;

typedef struct ChunkMesh {
    int64_t cx, cz;                              /* chunk coordinates (blocks / CHUNK_SIZE, floor) */
    uint32_t epoch;
    uint32_t opaque_parts, cloud_parts;
    uint32_t lod;                                /* 0..WORLD_LOD_MAX (0 in zeroed meshes) */
    ChunkMeshPart parts[WORLD_MAX_MESH_PARTS];   /* opaque first, then clouds (the first cloud
                                                    part may continue the last opaque slab) */
} ChunkMesh;

/* ---------------------------------------------------------------- parameters */
/* Cave kinds: bits of WorldGenParams.cave_modes. Each is one entry of the cave table
 * (src/world/caves.c: its noise fields, carve rule and parameter rows); a kind's parameters
 * live in cave_params[index of its bit]. */
typedef enum WorldCaveMode {
    WORLD_CAVES_NONE = 0,
    WORLD_CAVES_CHEESE = 1,   /* C1: air where simplex3(p * cheese_scale) > cheese_threshold */
    WORLD_CAVES_WORMS = 2,    /* C2: air where 1 - |simplex3(p * worm_scale)| > worm_threshold (sheets) */
    WORLD_CAVES_TUBES = 4,    /* two fields near zero at once: a^2 + b^2 < r^2 (tube tunnels) */
    WORLD_CAVES_ROUGH = 8,    /* C2 with FBM on the worm field: worms with rough walls */
} WorldCaveMode;
#define WORLD_CAVE_KINDS_MAX 8      /* cave mode bits (built-in kinds and registered ones) */
#define WORLD_CAVE_PARAMS_MAX 4     /* parameters per cave kind */

/* Parameters come in three classes, by what a change costs:
 * - generation (WorldGenParams): the field itself. A change is a new world: new epoch, queued
 *   jobs dropped, every chunk rebuilt (W5).
 * - live (WorldLiveParams): how the world streams what it has. Applied at once: no rebuild, no
 *   epoch change, loaded chunks kept; a LOD band change moves chunks through the LOD swaps.
 * - creation (WorldCreateParams): sizes of what world_create carves; read there only.
 * Every settable value is described once in the parameter table below (name, class, range,
 * default, help), which world_params_default, settings files, the panel and --help read. */
typedef struct WorldGenParams {
    uint64_t seed;

    /* W1-W2: density = -y + baseHeight(x,z) + n3(x,y,z) * n3_amplitude */
    double base_scale;          /* 2D FBM sample scale */
    float base_amplitude;       /* baseHeight = base_offset + fbm2 * base_amplitude */
    float base_offset;
    uint32_t base_octaves;
    double n3_scale;            /* 3D noise frequency (seed: 0.04) */
    float n3_amplitude;         /* seed: 35 */
    uint32_t n3_octaves;
    float n3_y_squash;          /* y frequency factor (< 1: taller features) */
    /* W3: below bedrock_level density += (bedrock_level - y)^2 * bedrock_strength */
    float bedrock_level;
    float bedrock_strength;

    /* Floating islands: lens-shaped bodies joined to the W1 field by max(). */
    double island_scale;        /* 2D coverage noise scale */
    float island_threshold;     /* coverage noise above this => island */
    float island_height;        /* lens centre height */
    float island_height_var;    /* +- variation of the centre */
    float island_top;           /* dome height over the centre at full coverage */
    float island_bottom;        /* depth of the hanging underside at full coverage */
    float island_noise;         /* amplitude of n3 roughness on islands */
    float island_taper;         /* underside density slope (< 1: rougher, hanging undersides) */
    float snow_level;           /* surfaces above this are snow */

    /* C1-C3: caves (WorldCaveMode bits), carved with min() above cave_min_y */
    uint32_t cave_modes;
    float cave_min_y;
    double cave_params[WORLD_CAVE_KINDS_MAX][WORLD_CAVE_PARAMS_MAX];   /* per kind: its table rows */

    /* W7: clouds */
    bool clouds;
    float cloud_centre, cloud_range;
    double cloud_scale;
    uint32_t cloud_octaves;
    float cloud_threshold;
    float wind_speed;           /* blocks per second of creation time (seed: 40) */
    uint8_t cloud_alpha;

    /* W6: colour */
    double jitter_scale;        /* seed: 0.1 */
    float jitter_amount;        /* seed: 0.15 */
    float ao_strength;          /* per-vertex AO darkening per occluder (0..0.33) */
    /* Biomes: temperature and humidity fields over x, z (biome.c) */
    double biome_scale;         /* frequency of both fields (1/blocks) */
    float biome_blend;          /* width of a border in field units (0.02..0.4) */
    float shade_floor;          /* pseudo-AO brightness at the abyss floor (0..1) */
    float prop_density;         /* objects (C4): scale of the acceptance probability (0: none) */

    float home_sea_level;       /* height of the home island's sea level (elevation 0); one block per
                                   metre above it, lowered if the peak would pass gen_y_max -
                                   WORLD_HOME_HEADROOM */

    int32_t gen_y_max;          /* generated top (<= WORLD_Y_MAX, rounded up to a multiple of 8) */
} WorldGenParams;

/* The view radius a world can stream: world_clamp_view_radius keeps any request inside it. */
#define WORLD_VIEW_RADIUS_MIN 1
#define WORLD_VIEW_RADIUS_MAX 64
static inline int32_t world_clamp_view_radius(int32_t r) {
    return r < WORLD_VIEW_RADIUS_MIN ? WORLD_VIEW_RADIUS_MIN : (r > WORLD_VIEW_RADIUS_MAX ? WORLD_VIEW_RADIUS_MAX : r);
}

typedef struct WorldLiveParams {
    int32_t view_radius;        /* chunks; held at most at the creation's view_radius_max */
    uint32_t max_results_per_frame;
    float ahead_bias;           /* chunks of priority bonus straight ahead */
    float frustum_penalty;      /* chunks of priority penalty outside the view cone */
    float lookahead_s;          /* prefetch ahead of the aircraft: seconds of flight */

    /* Level of detail by distance: a chunk whose centre lies d chunks from the centre of the LOD
     * anchor chunk gets LOD n = the number of lod_dist[i] <= d (lod_dist ascending; 0 ends the
     * list, so all zeros = every chunk at classic LOD 0 without seam faces). The anchor is the
     * camera's chunk, followed with lod_hysteresis chunks of slack per axis so a camera on a
     * chunk border does not flip LODs. Consecutive lod_dist are kept more than one chunk apart:
     * face neighbours then never differ by more than one LOD, which the seam faces of both
     * sides cover (docs/world-meshes.md, seams). */
    float lod_dist[WORLD_LOD_MAX];
    float lod_hysteresis;       /* chunks */
    float lod_refine_penalty;   /* chunks of priority penalty for a LOD change toward finer: a
                                   chunk that has a mesh waits behind new chunks ahead */
    float lod_coarsen_penalty;  /* and toward coarser (behind the camera, only saves memory) */
    /* Speed governor: when generation falls behind the flight, the world first coarsens the far
     * LOD bands, then pulls the reach in, a chunk at a time down to this (chunks; the view radius
     * or more: never), and gives it back when generation keeps up again. */
    int32_t speed_reach_min;
} WorldLiveParams;

typedef struct WorldCreateParams {
    int32_t view_radius_max;    /* radius the table and pool are sized for; 0: the view radius */
    uint32_t max_in_flight;     /* jobs submitted but not collected (0: 48 per worker + 16) */
    uint32_t mesh_pool_mib;     /* CPU mesh slabs; 0 = sized from the view radius and the LOD mix.
                                   Either way at most the budget minus WORLD_BUDGET_RESERVE_MIB */
    uint32_t workers;           /* chunk worker threads for whoever starts the job system (the world
                                   takes the JobSystem it is given); 0: one per online core */
} WorldCreateParams;

typedef struct WorldParams {
    WorldGenParams gen;
    WorldLiveParams live;
    WorldCreateParams create;
} WorldParams;

/* MiB world_create leaves free in the budget for the others (renderer, island, game): the mesh
 * pool is capped so that this much stays; WorldStats.pool_squeezed says when it was. */
#define WORLD_BUDGET_RESERVE_MIB 24u

/* Every value of the table at its default: the shipped look. */
void world_params_default(WorldParams *p);

/* Quality presets: the streaming values of a class of hardware (docs/world-streaming.md, presets).
 * MEDIUM is the defaults (a Pi 4 at view radius 10); LOW keeps a handheld (4 x Cortex-A35/A53)
 * or a Pi Zero 2 free of void at 1,000 m/s; HIGH is for desktops. The world looks the same at
 * every level: only streaming and creation values change. */
typedef enum WorldPreset { WORLD_PRESET_LOW, WORLD_PRESET_MEDIUM, WORLD_PRESET_HIGH, WORLD_PRESET_COUNT } WorldPreset;
/* Writes the preset's values into p: view radius and its maximum, LOD bands, the speed
 * governor's reach floor, mesh pool and workers. Every other value is left as it is. */
void world_params_preset(WorldParams *p, WorldPreset which);
const char *world_preset_name(WorldPreset which);   /* "low", "medium", "high" ("unknown") */

/* ---------------------------------------------------------------- the parameter table */
typedef enum WorldParamClass {
    WORLD_PARAM_GEN,      /* new epoch and a rebuild */
    WORLD_PARAM_LIVE,     /* applied at once, chunks kept */
    WORLD_PARAM_CREATE,   /* world_create only */
} WorldParamClass;

typedef enum WorldParamType {
    WORLD_PT_BOOL, WORLD_PT_U8, WORLD_PT_I32, WORLD_PT_U32, WORLD_PT_U64, WORLD_PT_F32, WORLD_PT_F64
} WorldParamType;

/* One settable value. Any value in [min, max] gives a world that works (maybe slow or odd,
 * never a crash, a NaN or a hang); integer types take whole numbers only. */
typedef struct WorldParamDesc {
    const char *name;           /* lower_snake, unique: the key in settings files and --world */
    WorldParamClass cls;
    size_t offset;              /* of the value in WorldParams */
    WorldParamType type;
    double min, max, def;
    const char *help;           /* one line */
    /* For the panel: a player's words for it, its unit, and its step (a decimal grid around the
     * default; 0: a hundredth of the range on a 1-2-5 grid, 1 for whole numbers). */
    const char *label;
    const char *unit;
    double step;
} WorldParamDesc;

size_t world_param_count(void);
const WorldParamDesc *world_param_at(size_t i);          /* NULL past the end */
const WorldParamDesc *world_param_find(const char *name); /* NULL when unknown */
const char *world_param_class_name(WorldParamClass c);   /* "gen", "live", "create" */
/* The value as a double (a seed beyond 2^53 rounds: world_param_format is exact). */
double world_param_get(const WorldParams *p, const WorldParamDesc *d);
/* Stores v clamped to [min, max] (integers rounded to nearest); NaN leaves the value. */
void world_param_set(WorldParams *p, const WorldParamDesc *d, double v);
/* "name=value" as in a settings file or on the command line: false with err naming the
 * parameter and its range when the name is unknown or the value is not a number in range. */
bool world_param_parse(WorldParams *p, const char *assignment, SkyError *err);
/* The value as text (exact for integers, shortest round trip for floats); snprintf's return. */
int world_param_format(const WorldParams *p, const WorldParamDesc *d, char *buf, size_t n);
/* Same stored bits (a change of this value is a change of the world's parameters). */
bool world_param_equal(const WorldParams *a, const WorldParams *b, const WorldParamDesc *d);

/* ---------------------------------------------------------------- the field */
/* THE density (W1-W3 + islands + caves) at a point: solid where > 0. The *_params queries know
 * no home island (world_density_at has the world's).
 * Chunk voxels are solid exactly where the density at the voxel centre (x+0.5, y+0.5, z+0.5)
 * is > 0. Thread-safe and allocation-free; cost ~1-2 us. */
float world_density_at_params(const WorldGenParams *p, double x, double y, double z);
bool world_solid_at_params(const WorldGenParams *p, double x, double y, double z);
/* Cloud presence (not solid) for a chunk created at time_s (the field read at the place less the
 * clouds' drift by then, world_cloud_shift). */
bool world_cloud_at_params(const WorldGenParams *p, double time_s, double x, double y, double z);
/* The world's prevailing wind, an angle in radians from +x toward +z (where it blows to), from
 * the seed alone: the voxel clouds drift along it and the weather's cells turn their winds about
 * it (sim weather). */
double world_prevailing_wind(uint64_t seed);
/* The 64-bit seed folded to the 32 bits the wind's hashes take (the prevailing wind, the clouds'
 * drift knots, the weather's cells), and the salt of the wind's direction: the prevailing wind's
 * hash, and the weather's cells' turn about it. */
static inline uint32_t world_seed32(uint64_t seed) { return (uint32_t)seed ^ (uint32_t)(seed >> 32); }
#define WORLD_WIND_SALT_DIR 0x0d12ec70u
/* The voxel clouds' drift in blocks (x, z) by sim time time_s: wind_speed blocks a second along
 * the prevailing wind, turning and changing pace every WORLD_WIND_KNOT_S (the weather's period)
 * as hashed knots up to half a knot's run off the straight line lead it; 0 at time 0. A pure
 * function of the seed and the time (detmath: the same bits on every machine). */
#define WORLD_WIND_KNOT_S 240.0
void world_cloud_drift(const WorldGenParams *p, double time_s, double out[2]);
/* Blocks the cloud field is read off by for a chunk created at time_s: -drift, floored to whole
 * cells (WORLD_CELL_XZ), so the clouds move as they are rather than resampled. */
void world_cloud_shift(const WorldGenParams *p, double time_s, int64_t out[2]);

/* ---------------------------------------------------------------- the world */
typedef struct World World;

typedef struct WorldView {
    double x, y, z;
    float dir_x, dir_y, dir_z;   /* unit flight/view direction */
    float speed;                 /* m/s */
    float fov_y_rad, aspect;
    double time_s;
} WorldView;

/* All chunk memory (mesh slabs, job records, per-worker scratch, the chunk table) is carved
 * from `b` here, sized by p->create (and the view radius). The world expects to be the only user
 * of `jobs`' results (it collects every finished job). Returns NULL with err set when the budget
 * is short. p may be NULL for the defaults. `home` is the home island baked by src/island, or
 * NULL for none: data, not a setting, so it is no parameter; the world reads it (never owns
 * it), and it must outlive the world or its replacement by world_set_home. */
World *world_create(MemBudget *b, JobSystem *jobs, const WorldParams *p, const IslandField *home, SkyError *err);
/* A minimal world with like's parameters and home island, for a thread that only asks its
 * density (no jobs, the smallest chunk table and mesh pool), carved from `b`; NULL with err. */
World *world_create_density_only(MemBudget *b, const World *like, SkyError *err);
/* At most the bytes world_create carves for p beside a job system of `workers` workers (0: none)
 * with a mesh pool of `slabs` slabs (at least 64, as world_create): a boot plans its budget with
 * it before anything is created. */
size_t world_create_bytes(const WorldParams *p, uint32_t workers, uint32_t slabs);
/* The slabs of a mesh pool asked for `want` slabs that world_create carves when free_bytes are
 * left beside its tables: want, or fewer to leave WORLD_BUDGET_RESERVE_MIB (before its floor of
 * 64 slabs). */
uint64_t world_pool_fit(uint64_t want, size_t free_bytes);
/* Waits for running jobs of this world, drops their results. Memory stays in the budget. */
void world_destroy(World *w);

/* A terrain change: new epoch, queued jobs dropped, finished old results discarded, the world
 * rebuilds around the camera, nearest first. A chunk with a mesh keeps it (WorldStats.stale)
 * until its rebuild replaces it with a READY event, so the old world stays on screen meanwhile;
 * chunks out of reach go as usual. */
void world_set_gen_params(World *w, const WorldGenParams *p);
/* Applied at once: the view radius (held at the creation's view_radius_max), priorities,
 * lookahead, results per frame, LOD bands. Loaded chunks stay; out of reach ones go at the next
 * world_update, chunks whose LOD band changed are swapped as in flight. No epoch change. */
void world_set_live_params(World *w, const WorldLiveParams *p);
/* Both, by cost: a rebuild only when a generation value differs from the world's. p->create
 * is ignored (creation only); the home island stays the world's. */
void world_set_params(World *w, const WorldParams *p);
/* The world's parameters as in use (generation values as normalised, the view radius as held). */
const WorldParams *world_params(const World *w);
/* The home island the world is built with (NULL: none). */
const IslandField *world_home(const World *w);
/* Another home island (or NULL): a new world, as a generation change (new epoch, rebuild). */
void world_set_home(World *w, const IslandField *home);

/* An airstrip of the home island in world coordinates (blocks = metres): a level run from
 * threshold a to threshold b, landable either way. The base camp's strip is index 0 when the
 * island has one. No object stands on it, and the approach beyond each end is open air. */
typedef struct WorldStrip {
    double ax, az, bx, bz;   /* the centres of its thresholds */
    float y;                 /* its surface: the top of its ground blocks */
    float dir_x, dir_z;      /* unit vector from a to b */
    float yaw;               /* FlightState.yaw of a run from a to b (b to a: yaw + pi) */
    float length_m, width_m;
    float relief_m;          /* the natural ground's height range it was levelled from */
    uint32_t site;           /* the place (site index of the island) it serves */
    bool base;               /* the base camp's strip */
} WorldStrip;
/* How many airstrips the home island has (0 without one). */
uint32_t world_strip_count(const World *w);
/* Strip i (i < world_strip_count); false for another i. */
bool world_strip(const World *w, uint32_t i, WorldStrip *out);
/* The same for a field and the generation values a world would be built from (no world needed). */
bool world_strip_of(const WorldGenParams *p, const IslandField *home, uint32_t i, WorldStrip *out);

/* Once per frame on the main thread: collect at most max_results_per_frame finished chunks,
 * evict chunks out of range, submit new requests by priority. Never allocates. */
void world_update(World *w, const WorldView *v);

float world_density_at(const World *w, double x, double y, double z);
bool world_solid_at(const World *w, double x, double y, double z);
/* Water (the islands' lakes and pools, island/water.c): the surface's height in blocks over
 * column (x, z), or 0 where the column holds none; water fills the blocks below it that are not
 * rock, down to WORLD_WATER_DEPTH_MAX blocks. The mesher draws a surface where that block column's
 * top water block has air above (world_water_at's test). Pools in caves (docs/world.md): the
 * basins of 16 x 16-block regions that hold water, a column's pool not in world_water_level.
 * world_water_top: the surface height of the water (a lake's or a pool's) that holds (x, y, z),
 * 0 where it is no water, the chunks' water block for block; world_water_at: is it water? */
#define WORLD_WATER_DEPTH_MAX 24
int32_t world_water_level(const World *w, double x, double z);
int32_t world_water_top(const World *w, double x, double y, double z);
bool world_water_at(const World *w, double x, double y, double z);

/* Objects and landmarks (src/world/props.c): the shape tables a codex names. The index of a
 * landmark shape or a flora set by name, -1 when there is none; names by index (NULL past the
 * end). Location types name their landmark and flora in assets/codex (docs/island.md). */
int world_landmark_find(const char *name);
const char *world_landmark_name(int i);
int world_flora_find(const char *name);
const char *world_flora_name(int i);

/* The solid objects (src/world/props_solid.c): boxes in world blocks, half-open
 * [x0, x1) x [y0, y1) x [z0, z1), of the trees, boulders, cacti and landmarks the placement puts
 * where they meet the blocks [x0, x1] x [y0, y1] x [z0, z1] (inclusive): the boxes the LOD-0 mesh
 * draws (landmark boxes at the ground with their sunk part). Flowers, reeds, bushes and small
 * rocks (objects under 3 blocks) are not solid. Writes at most max, returns how many there are.
 * Deterministic, allocation-free, thread-safe; cost grows with the objects near the ground in
 * the box (the terrain is asked only where it can hold rock). */
typedef struct WorldBox { int64_t x0, y0, z0, x1, y1, z1; } WorldBox;
uint32_t world_solid_objects(const World *w, int64_t x0, int64_t y0, int64_t z0, int64_t x1, int64_t y1, int64_t z1,
                             WorldBox *out, uint32_t max);
/* A probe of the field for one sweep (a frame's collision): world_probe_solid is
 * world_solid_at(bx + 0.5, by + 0.5, bz + 0.5), bit for bit, but keeps per 4 x 8 x 4 cell a
 * bound that answers open air without the point query; world_probe_objects is
 * world_solid_objects sharing it. On the stack (no heap); valid while w's parameters stay. */
#define WORLD_PROBE_BYTES 32768
typedef struct WorldProbe { _Alignas(max_align_t) unsigned char opaque[WORLD_PROBE_BYTES]; } WorldProbe;
void world_probe_init(WorldProbe *p, const World *w);
bool world_probe_solid(WorldProbe *p, int64_t bx, int64_t by, int64_t bz);
uint32_t world_probe_objects(WorldProbe *p, int64_t x0, int64_t y0, int64_t z0, int64_t x1, int64_t y1, int64_t z1,
                             WorldBox *out, uint32_t max);

/* Benches and tests: every chunk job then takes k times its CPU time (the worker sleeps the
 * rest after the work), as on a CPU k times slower; k <= 1 turns it off (the default: the job
 * then only reads the clocks). Any thread, any time; jobs started later see it. */
void world_set_job_stretch(World *w, float k);

/* The view jumped (a respawn, a camera moved by hand): the chunks now missing around it are the
 * jump's backlog, so the speed governor does not read them as generation falling behind and
 * keeps its level until the new place has filled (no chunk void ahead, none of the request range
 * arriving late: what is still missing comes in time); a flight faster than the jobs then still
 * steps it in.
 * WORLD_GOV_JUMP_HOLD_MAX_FRAMES bounds the hold only against a world that never fills. Main
 * thread, before the next world_update. */
void world_note_jump(World *w);
#define WORLD_GOV_JUMP_HOLD_MAX_FRAMES 3600u   /* 60 s at 60 Hz */

/* The home island's sea level in blocks (elevation 0; one metre of elevation = one block above
 * it): p's home_sea_level, lowered when home's peak would not fit under p's gen_y_max less
 * WORLD_HOME_HEADROOM (the tallest landmark, 15 blocks, stands on the peak with one to spare). Its ground never
 * lies below WORLD_HOME_FLOOR blocks under it, so surfaces above that on its columns are its. */
float world_home_sea(const WorldGenParams *p, const IslandField *home);
#define WORLD_HOME_FLOOR 4.0f
#define WORLD_HOME_HEADROOM 16.0f

/* LOD for a chunk (dx, dz) chunks from the anchor chunk under p's lod_dist. */
int world_lod_for_offset(const WorldLiveParams *p, int32_t dx, int32_t dz);
/* LOD of the mesh the world holds for chunk (cx, cz), or -1 when it has none (void). */
int world_chunk_lod(const World *w, int64_t cx, int64_t cz);
/* The LOD anchor chunk of the last world_update. */
void world_lod_anchor(const World *w, int64_t *ax, int64_t *az);

/* ---------------------------------------------------------------- events */
typedef enum WorldEventType { WORLD_EV_MESH_READY, WORLD_EV_CHUNK_GONE } WorldEventType;
typedef struct WorldEvent {
    WorldEventType type;
    int64_t cx, cz;
    const ChunkMesh *mesh;   /* READY only; NULL for GONE */
} WorldEvent;

/* Drains up to `max` events in order. A READY mesh (and its vertex memory) stays valid until
 * the chunk's GONE event has been taken, or until world_release_mesh() for it. A READY that
 * was not taken yet when its chunk goes is withdrawn (no GONE follows it). If nobody drains
 * events the ring keeps the newest and counts events_lost (headless users may ignore events).
 * A chunk changing LOD gets a second READY (no GONE in between): the consumer replaces the
 * chunk's old mesh with the new one and shows the old one until then. The ChunkMesh pointer
 * is the same for every READY of a chunk; its content is the newest mesh. Every mesh of a
 * chunk is built at the view time of its first request, so its clouds (W7's wind shift) stay
 * put across LOD changes; a chunk evicted and requested again is a new chunk with a new time. */
size_t world_take_events(World *w, WorldEvent *out, size_t max);
/* The renderer uploaded the chunk: its CPU vertex slabs go back to the pool now. The ChunkMesh
 * stays (parts emptied, vert_count 0) and the chunk stays resident until its GONE event. */
void world_release_mesh(World *w, int64_t cx, int64_t cz);

/* ---------------------------------------------------------------- stats */
typedef struct WorldStats {
    uint32_t epoch;
    uint32_t resident;          /* chunks with a mesh (ready) */
    uint32_t in_flight;         /* submitted, not yet collected */
    uint32_t wanted;            /* chunks in range this frame */
    uint32_t void_chunks;       /* this frame: inside reach-1, ahead, needed but not ready */
    uint64_t void_frames;       /* frames with void_chunks > 0 */
    uint64_t frames;
    uint64_t requested, generated, dropped, evicted;
    uint64_t pool_evictions;    /* evictions forced by a low mesh pool */
    uint64_t mesh_pool_failures;/* jobs that ran out of slabs (chunk re-requested later) */
    uint64_t events_lost;
    uint64_t mesh_truncated;    /* meshes over WORLD_MAX_MESH_PARTS slabs (kept, cut short) */
    uint64_t reach_shrinks;     /* times the pool pulled the streaming reach in */
    /* Speed governor: level 0 the configured world, 1..gov_lod_steps far LOD bands coarsened,
     * each level beyond one chunk less reach (down to speed_reach_min). */
    uint32_t gov_level, gov_level_max, gov_level_peak, gov_lod_steps;
    uint64_t gov_steps_up, gov_steps_down;
    uint64_t gov_jumps, gov_jumps_filled;   /* world_note_jump calls; holds ended by the place filling */
    uint32_t gov_jump_frames;   /* frames the hold after a jump has lasted, 0 when none holds */
    float lod_dist_in_force[WORLD_LOD_MAX];   /* the LOD thresholds after the governor (chunks) */
    float fresh_latency_ms;     /* running average request-to-collect time of new chunks */
    uint64_t jobs_timed;        /* jobs collected, with their run times summed: */
    uint64_t job_cpu_ns;        /* thread CPU time of the work */
    uint64_t job_wall_ns;       /* wall time from start to end (the stretch's sleep included) */
    uint64_t job_stretch_ns;    /* of that, the stretch's sleep (world_set_job_stretch) */
    uint32_t stale;             /* chunks still showing an older world after a generation change */
    uint64_t stale_replaced;    /* stale meshes replaced by their rebuild */
    bool pool_squeezed;         /* the budget held the mesh pool below what was asked for (at
                                   creation, to leave WORLD_BUDGET_RESERVE_MIB): less reach */
    float reach;                /* chunks requested out to this radius now: the view radius, or less
                                   while the pool or the speed governor holds it in. Void counts
                                   within reach - 1 ahead */
    uint32_t slabs_capacity, slabs_in_use, slabs_peak;
    uint32_t records_capacity, records_peak;
    uint32_t table_slots;
    size_t bytes_carved;        /* everything world_create took from the budget */
    uint64_t verts_total;       /* vertices of generated meshes (for averages) */
    uint32_t resident_lod[WORLD_LOD_MAX + 1];   /* chunks with a mesh, by the mesh's LOD */
    uint64_t lod_requests;      /* jobs that rebuild a chunk that has a mesh at another LOD */
    uint64_t lod_swaps;         /* meshes replaced by a mesh of another LOD */
    uint64_t generated_lod[WORLD_LOD_MAX + 1];
    uint64_t verts_lod[WORLD_LOD_MAX + 1];
    int64_t lod_anchor_x, lod_anchor_z;
    /* the archipelago (world_set_islands) */
    uint64_t island_bakes;      /* islands baked on the workers and installed */
    uint64_t island_bake_cpu_ns;   /* their thread CPU time */
    uint64_t island_bake_wall_ns;  /* their wall time (the stretch included) */
    uint64_t island_sync_bakes; /* baked on the calling thread by a point query (collision) */
    uint64_t island_evictions;  /* slots given to a nearer island */
    uint64_t island_waits;      /* chunk requests held back until their island was baked */
    uint64_t island_dropped;    /* bakes of an older epoch or an island no longer wanted */
    uint64_t island_failed;     /* bakes the source refused for a cell its site gives an island */
    uint32_t islands_ready;     /* slots holding a baked island now */
    uint32_t islands_baking;    /* bakes on the workers now (not counted in in_flight) */
} WorldStats;

WorldStats world_stats(const World *w);

/* ---------------------------------------------------------------- the archipelago */
/* Beyond the home island the world is divided into square cells of cell_m blocks: cell (i, j)
 * holds the blocks within cell_m / 2 of (i * cell_m, j * cell_m), so cell (0, 0) is centred on
 * the origin and holds the home island. A cell's island is made by the source (src/game wires
 * the island generator: the world knows no codex), generated and baked on the workers into a
 * fixed pool of island slots (docs/world-streaming.md, "Islands"). An island's influence (its
 * lens, the clearing of the world's own rocks around it, its strips' approach corridors) ends
 * WORLD_ISLAND_EDGE blocks inside its cell's edge, so no column ever reads two islands. */
#define WORLD_ISLAND_EDGE 48
#define WORLD_ISLAND_SLOTS 8        /* the default pool: the nearest islands */
typedef struct WorldIslandSite {
    bool has_island;
    int64_t centre_x, centre_z;     /* world blocks */
    uint32_t diameter_m;
} WorldIslandSite;
typedef struct WorldIslandSource {
    void *ctx;
    int64_t cell_m;                 /* cell width in blocks (even, >= 1024) */
    size_t bake_bytes;              /* the arena one bake needs (the generator's work and the field) */
    /* The island of cell (cell_x, cell_z); a pure function, called from any thread. */
    void (*site)(void *ctx, int64_t cell_x, int64_t cell_z, WorldIslandSite *out);
    /* Generates and bakes that island into *field from arena (reset before), its coordinates in
     * metres from the cell's centre; *island (optional) the generator's record for names. Called
     * on a worker (or the main thread for a point query); false: no island. */
    bool (*bake)(void *ctx, int64_t cell_x, int64_t cell_z, MemArena *arena, IslandField *field, const void **island);
} WorldIslandSource;
/* Bytes world_set_islands carves for `slots` slots (the memory plan counts them). */
size_t world_islands_bytes(const WorldIslandSource *src, uint32_t slots, uint32_t workers);
/* Boot only, before the first world_update: gives the world its archipelago, carving `slots`
 * island slots (0: WORLD_ISLAND_SLOTS) plus one for point queries from the budget. A NULL source
 * or cell_m 0 keeps the home island alone. False with err when the budget is short or the source
 * is unusable. */
bool world_set_islands(World *w, MemBudget *b, const WorldIslandSource *src, uint32_t slots, SkyError *err);
/* The cell holding world block coordinate v (0 without an archipelago). */
int64_t world_island_cell(const World *w, double v);
typedef struct WorldIsland {
    int64_t cell_x, cell_z;
    const IslandField *field;       /* its coordinates are metres from (ox, oz) */
    const void *island;             /* the source's record (NULL for the home island) */
    int64_t ox, oz;
    float sea;                      /* its sea level in blocks */
    bool home;
} WorldIsland;
/* The island of the cell holding (x, z), baked now on the calling (main) thread when no slot has
 * it yet; false when the cell has none. Valid until the next world_update. */
bool world_island_at(World *w, double x, double z, WorldIsland *out);
/* The same without baking: false also when the cell's island is not baked yet (the HUD's line
 * asks every frame and never stalls the frame). */
bool world_island_held(const World *w, double x, double z, WorldIsland *out);
/* Is the island of cell (cell_x, cell_z) baked in a slot the chunks read (true for a cell without
 * one and for the home island's)? The streamer hands out no chunk of a cell before it is. */
bool world_island_ready(const World *w, int64_t cell_x, int64_t cell_z);
/* Airstrip i of that island (i < wi->field->n_strips) in world coordinates, as world_strip. */
bool world_island_strip(const WorldIsland *wi, uint32_t i, WorldStrip *out);
/* The islands around (x, z) (island_strips.c), as the slots hold them now (never baking one, as
 * world_island_held): the island of the cell holding it first, then those of its 8 neighbour
 * cells, the nearest (field centre) first; without an archipelago the home island alone. At most
 * max; valid until the next world_update. */
#define WORLD_NEAR_ISLANDS 9
uint32_t world_islands_near(const World *w, double x, double z, WorldIsland *out, uint32_t max);
/* The airstrips of those islands in world coordinates, in that order (each island's base camp's
 * first): at most max. */
uint32_t world_strips_near(const World *w, double x, double z, WorldStrip *out, uint32_t max);
/* The same islands in both lists (cells, fields, records, origins, sea levels): a cache of what
 * they hold (strips, lamps) is still good. */
bool world_islands_same(const WorldIsland *a, uint32_t na, const WorldIsland *b, uint32_t nb);
/* Request-to-ready latency percentile in ms (q in [0,1]) over every generated chunk. */
double world_latency_ms(const World *w, double q);

/* ---------------------------------------------------------------- direct building */
/* Synchronous chunk build on the calling thread with the world's own main-thread scratch and
 * slab pool (tests, benches, tools). The mesh holds slabs until world_free_mesh(). */
typedef struct WorldBuildTiming {
    double density_ms, mesh_ms;
    uint32_t faces, opaque_verts, cloud_verts;
    uint32_t cells_total, cells_skipped;
    bool out_of_slabs;
} WorldBuildTiming;

bool world_build_chunk(World *w, int64_t cx, int64_t cz, double time_s, ChunkMesh *out, WorldBuildTiming *t);
/* The streamer's mesh of a chunk at LOD `lod` (0..WORLD_LOD_MAX): coarse voxels, plus seam
 * faces on the chunk border so a neighbour one LOD finer or coarser leaves no hole (for lod 0
 * this is world_build_chunk's mesh plus those border faces). world_debug_voxels then returns
 * the coarse voxels (x, z in -1..32/s, y in -1..gen_y_max/s, same index formula). */
bool world_build_chunk_lod(World *w, int64_t cx, int64_t cz, int lod, double time_s, ChunkMesh *out,
                           WorldBuildTiming *t);
void world_free_mesh(World *w, ChunkMesh *m);

/* The voxels of the last world_build_chunk (main-thread scratch), with a one-voxel apron:
 * index = ((y - WORLD_Y_MIN + 1) * WORLD_VOX_ROW + (z + 1)) * WORLD_VOX_ROW + (x + 1) for
 * x, z in -1..32 and y in WORLD_Y_MIN-1..gen_y_max; codes are WorldMaterial values. */
#define WORLD_VOX_ROW (CHUNK_SIZE + 2)
const uint8_t *world_debug_voxels(const World *w, int32_t *height_with_apron);

#endif
