/* skyisles island: the one public header of src/island.
 * The packed codex (axes, location types, scopes, localisation) and the boot-time island generator. */
#ifndef SKYISLES_ISLAND_H
#define SKYISLES_ISLAND_H

#include "core/core.h"

/* ---------------------------------------------------------------- limits */
/* Capacities of the decoded codex and of one island. The packer rejects data beyond them. */
#define ISLAND_MAX_AXES 8
#define ISLAND_MAX_BLEND 4            /* generator terms per axis */
#define ISLAND_MAX_TYPES 32
#define ISLAND_MAX_SCOPES 4
#define ISLAND_MAX_GUARANTEES 8       /* per scope */
#define ISLAND_MAX_GUARANTEE_SLOTS 16 /* sum of counts per scope */
#define ISLAND_MAX_VARIANTS 256       /* all types together */
#define ISLAND_MAX_PROPS 512          /* base props + variant overrides, all types */
#define ISLAND_MAX_TEXTS 1024         /* localisation entries, all languages */
#define ISLAND_MAX_CARGO 32           /* cargo kinds (deliveries between places) */
#define ISLAND_MAX_NAME_LANGS 4       /* languages of the archipelago's island names */
#define ISLAND_MAX_NAME_PARTS 512     /* island-name words, all languages and both lists together */
#define ISLAND_MAX_NAME_LIST 64       /* words in one list (first or second) of one language */
#define ISLAND_MAX_SITES 128
#define ISLAND_PAK_MAX_BYTES (4u << 20)  /* a pack larger than this is refused before reading */
#define ISLAND_MAX_TRIS (2 * ISLAND_MAX_SITES)
#define ISLAND_MAX_EDGES (3 * ISLAND_MAX_SITES)

/* Site positions live on an integer grid where the island radius is ISLAND_GRID_RADIUS units
 * (a 2 km island: one unit = 1 dm). Layout is scale-free; metres come from diameter_meters.
 * Delaunay predicates are exact in int64 for |coordinate| <= ISLAND_GRID_LIMIT. */
#define ISLAND_GRID_RADIUS 10000
#define ISLAND_GRID_LIMIT 14000

#define ISLAND_PAK_VERSION 4u
#define ISLAND_PAK_VERSION_OLDEST 3u  /* version 3: the same without the archipelago (read as none) */
#define ISLAND_PAK_HEADER_SIZE 48u

/* ---------------------------------------------------------------- codex */
typedef enum IslandGenKind { ISLAND_GEN_DISTANCE_FIELD = 1, ISLAND_GEN_LAYERED_NOISE = 2 } IslandGenKind;
typedef enum IslandReference { ISLAND_REF_EDGE = 0, ISLAND_REF_CENTRE = 1 } IslandReference;
typedef enum IslandPick { ISLAND_PICK_MAX = 0, ISLAND_PICK_MIN = 1 } IslandPick;

typedef struct IslandBlendTerm {
    uint8_t kind;              /* IslandGenKind */
    uint8_t reference;         /* distance_field: IslandReference */
    uint8_t octaves;           /* layered_noise: 1..8 */
    uint32_t weight;           /* > 0 */
    uint32_t frequency_milli;  /* layered_noise: cycles per island radius, x1000 */
    uint32_t seed_offset;
} IslandBlendTerm;

typedef struct IslandAxis {
    const char *id;
    int32_t min, max;          /* integer range, min < max */
    uint8_t stretch;           /* stretch_sites_to_range */
    uint8_t n_terms;
    IslandBlendTerm terms[ISLAND_MAX_BLEND];
} IslandAxis;

typedef struct IslandPref { uint8_t axis; int32_t ideal; uint32_t tolerance; uint32_t weight; } IslandPref;
typedef struct IslandLimit { uint8_t axis; int32_t min, max; } IslandLimit;   /* inclusive */
typedef struct IslandProp { const char *key; int32_t value; } IslandProp;
typedef struct IslandVariant { const char *id; uint16_t first_prop, n_props; } IslandVariant;

typedef struct IslandType {
    const char *id;
    uint32_t move_cost_milli;  /* 1000 = walking speed of the scope */
    uint32_t scope_mask;       /* bit s: applicable to scope s */
    uint8_t n_prefs, n_limits;
    IslandPref prefs[ISLAND_MAX_AXES];
    IslandLimit limits[ISLAND_MAX_AXES];
    uint16_t first_prop, n_props;        /* base props in IslandCodex.props */
    uint16_t first_variant, n_variants;  /* in IslandCodex.variants; their props override the base */
    const char *landmark;      /* landmark shape every site of the type gets (never empty) */
    const char *flora;         /* flora set of its ground ("": the biome's) */
} IslandType;

typedef struct IslandGuarantee { uint8_t type, axis, pick, count; } IslandGuarantee;

typedef struct IslandScope {
    const char *id;
    uint32_t diameter_m, elevation_top_m, walk_m_per_hour;
    uint32_t site_min, site_max;
    int32_t coast_band;
    uint8_t hull_coast;
    uint32_t max_sites_per_type;
    uint32_t crowding_penalty_milli;     /* 300 = each placed site of a type adds 30% */
    uint32_t detour_factor_milli;        /* extra_edge_detour_factor x1000 */
    uint32_t outdoor_minutes, gathering_minutes;   /* daily budget = outdoor - gathering */
    uint8_t elevation_axis, coast_axis, base_type, fallback_type;
    uint8_t n_guarantees;
    IslandGuarantee guarantees[ISLAND_MAX_GUARANTEES];
} IslandScope;

/* A cargo the game's jobs carry: bit t of from_mask: places of type t have it (a job board
 * there offers it); bit t of to_mask: places of type t want it (the job's destination). */
typedef struct IslandCargo { const char *id; uint32_t from_mask, to_mask; } IslandCargo;

/* Localisation entry. Keys: "type.<type>", "variant.<type>.<variant>", "ordinal.<n>", "serial_pattern",
 * "cargo.<cargo>". */
typedef struct IslandText { const char *lang, *key, *text; } IslandText;

/* The archipelago (docs/island.md#the-archipelago): the world is cut into square cells of
 * cell_m; cell (0, 0), centred on the origin, holds the home island; another cell holds an
 * island with share_permille / 1000 odds, of a diameter in [diameter_min_m, diameter_max_m]. The
 * coast noise bends every island's outline (amplitude: share of the radius, frequency: cycles
 * per turn). Island names: per language, pattern ("Isle of {name}"), the home island's name, and
 * two word lists whose concatenations ("Ash" + "grove") are the {name}s. */
#define ISLAND_NAME_WINDOW 7          /* names never repeat within 7 x 7 cells */
#define ISLAND_DEFAULT_CELL_M 6144u   /* the cell size of a pack without an archipelago */
typedef struct IslandNameLang {
    const char *lang, *pattern, *home;
    uint16_t first_a, n_a, first_b, n_b;   /* the two lists in IslandArchipelago.parts */
} IslandNameLang;

typedef struct IslandArchipelago {
    uint32_t cell_m;                       /* 2048..65536 */
    uint32_t share_permille;               /* 0..1000 */
    uint32_t diameter_min_m, diameter_max_m;
    uint32_t coast_amplitude_milli;        /* 0..400: share of the radius */
    uint32_t coast_frequency_milli;        /* 1000..16000: cycles of the first octave per turn */
    uint32_t coast_octaves;                /* 1..4 */
    uint32_t n_langs, n_parts;
    IslandNameLang langs[ISLAND_MAX_NAME_LANGS];
    const char *parts[ISLAND_MAX_NAME_PARTS];
} IslandArchipelago;

/* A decoded pack. Strings point into the pack bytes, which must outlive the codex. */
typedef struct IslandCodex {
    uint32_t version;
    uint64_t checksum;
    uint32_t n_axes, n_types, n_scopes, n_variants, n_props, n_texts;
    IslandAxis axes[ISLAND_MAX_AXES];
    IslandType types[ISLAND_MAX_TYPES];
    IslandScope scopes[ISLAND_MAX_SCOPES];
    IslandVariant variants[ISLAND_MAX_VARIANTS];
    IslandProp props[ISLAND_MAX_PROPS];
    IslandText texts[ISLAND_MAX_TEXTS];  /* sorted by (lang, key), unique */
    uint32_t n_cargo;
    IslandCargo cargo[ISLAND_MAX_CARGO]; /* in declaration order (files in path order) */
    bool has_archipelago;                /* false: a pack without one (version 3, or no section) */
    IslandArchipelago arch;
} IslandCodex;

/* Validates magic, version, size, checksum, the section table and every offset, count, index
 * and value, then decodes. False with one line in err for any defect; never reads out of bounds. */
bool island_pak_load(IslandCodex *cx, const void *data, size_t len, SkyError *err);
/* The pack embedded in this binary (NULL, *len = 0 when none is linked in). */
const void *island_pak_default(size_t *len);
/* FNV-1a 64 of the pack with its checksum field read as zero (what the header must hold). */
uint64_t island_pak_checksum(const void *data, size_t len);
/* Serialises a codex to the pack format. Returns the byte count (which may exceed cap, then
 * nothing is complete: call again with a larger buffer), 0 on error. Deterministic. */
size_t island_pak_write(const IslandCodex *cx, uint8_t *out, size_t cap, SkyError *err);

int island_codex_find_axis(const IslandCodex *cx, const char *id);    /* -1 when absent */
int island_codex_find_type(const IslandCodex *cx, const char *id);
int island_codex_find_scope(const IslandCodex *cx, const char *id);
int island_codex_find_cargo(const IslandCodex *cx, const char *id);
/* Localised text for key in lang: the pack's, else one built into the game (core's text_codex:
 * Japanese), NULL when missing. */
const char *island_codex_text(const IslandCodex *cx, const char *lang, const char *key);
/* Property of a type as resolved for a variant (variant < 0: the base). False when undeclared. */
bool island_codex_prop(const IslandCodex *cx, uint32_t type, int variant, const char *key, int32_t *value);

/* ---------------------------------------------------------------- the archipelago */
typedef struct IslandCellSite {
    bool has_island;
    uint64_t seed;                 /* the island's generator seed */
    int64_t centre_x_m, centre_z_m;   /* world metres */
    uint32_t diameter_m;
} IslandCellSite;

/* The archipelago's values against their ranges and each other (every island, its coast noise
 * and 256 m to spare, inside a cell; the home island's scope too): NULL when they hold, else the
 * field's YAML name with why it fails. The loader and the packer share it. */
const char *island_archipelago_check(const IslandArchipelago *a, const IslandCodex *cx, char *why, size_t n);
/* False for a pack without the archipelago: then the home island is the world's only island. */
bool island_codex_has_archipelago(const IslandCodex *cx);
/* The cell size in metres (ISLAND_DEFAULT_CELL_M without an archipelago). Cell (i, j) spans
 * [(i - 1/2) cell, (i + 1/2) cell) in x and z. */
uint32_t island_codex_cell_m(const IslandCodex *cx);
/* The cell holding world metre x (floor((x + cell/2) / cell)), for any int64 x. */
int64_t island_cell_of(const IslandCodex *cx, int64_t x_m);
/* The island of a cell. Pure and deterministic (integer hashing only). Cell (0, 0): the home
 * island (seed world_seed, centre (0, 0), the "island" scope's diameter). Others: an island with
 * the codex's odds, its centre jittered so its coast (noise included) stays 256 m or more clear
 * of the cell's edges. */
void island_cell_site(const IslandCodex *cx, uint64_t world_seed, int64_t cell_x, int64_t cell_z, IslandCellSite *out);
/* The display name of a cell's island in lang ("Isle of Ashgrove"; the home island's own name),
 * "" for a cell without one. No two cells within ISLAND_NAME_WINDOW x ISLAND_NAME_WINDOW share a
 * name. A language the codex does not name islands in reads as the first one (English). */
void island_cell_name(const IslandCodex *cx, uint64_t world_seed, int64_t cell_x, int64_t cell_z, const char *lang,
                      char *buf, size_t n);

/* ---------------------------------------------------------------- generation */
typedef struct IslandParams {
    uint64_t seed;
    uint32_t scope;        /* index into codex scopes */
    uint32_t site_count;   /* 0: drawn from the scope's range; else forced (3..ISLAND_MAX_SITES) */
    uint32_t diameter_m;   /* 0: the scope's; else this island's (10..100000: an archipelago cell's) */
} IslandParams;

typedef struct IslandSite {
    int32_t gx, gz;                    /* grid position (ISLAND_GRID_RADIUS = island radius) */
    float x_m, z_m;                    /* metres from the island centre */
    float elevation_m;
    int16_t axis[ISLAND_MAX_AXES];     /* quantised axis values */
    uint8_t type;
    uint8_t ring;                      /* 1: outer ring site */
    uint8_t guaranteed;                /* 1: placed by a guarantee */
    uint8_t guarantee_fallback;        /* 1: that guarantee had no admissible site left */
    uint8_t fallback;                  /* 1: no type was admissible, the scope's fallback type */
    uint8_t cap_overflow;              /* 1: placed beyond max_sites_per_type */
    int16_t variant;                   /* -1: none */
    uint16_t serial;                   /* 0: none, else the ordinal in the name */
} IslandSite;

typedef struct IslandTri { uint16_t v[3]; } IslandTri;   /* counter-clockwise in (x, z) */

typedef struct IslandEdge {
    uint16_t a, b;                     /* a < b */
    uint8_t path;                      /* 0: Delaunay only, 1: MST path, 2: restored detour path */
    uint16_t minutes;                  /* walking time (paths only) */
    float length_m;
} IslandEdge;

#define ISLAND_COAST_N 512   /* coast samples around an island (by the diamond angle) */

typedef struct Island {
    uint64_t seed;
    uint32_t scope;
    uint32_t diameter_m;                       /* metres across (the params' or the scope's) */
    uint32_t n_sites, n_ring, n_tris, n_edges, n_paths;
    IslandSite sites[ISLAND_MAX_SITES];
    IslandTri tris[ISLAND_MAX_TRIS];           /* sorted, smallest index first in each */
    IslandEdge edges[ISLAND_MAX_EDGES];        /* every Delaunay edge, sorted by (a, b) */
    double axis_lo[ISLAND_MAX_AXES], axis_hi[ISLAND_MAX_AXES];  /* blend span before stretching */
    uint32_t axis_noise_seed[ISLAND_MAX_AXES][ISLAND_MAX_BLEND];
    uint32_t base, farthest;                   /* site indices */
    uint32_t round_trip_minutes, daily_budget_minutes;
    uint32_t cap_overflows, cap_excess_max, guarantee_fallbacks, fallbacks;
    uint32_t type_count[ISLAND_MAX_TYPES];
    float coast[ISLAND_COAST_N + 1];           /* the coast's fraction of the radius by direction */
} Island;

/* Arena bytes island_generate needs for its work buffers (all returned before it ends). */
size_t island_work_bytes(void);
/* Runs the whole pipeline (I2-I13). Deterministic: same codex + params, same island, on every
 * platform. Work buffers come from `work` (reset to its entry level on return). */
bool island_generate(Island *isl, const IslandCodex *cx, const IslandParams *p, MemArena *work, SkyError *err);
/* Where the coast lies in direction (dx, dz) from the centre, as a fraction of the radius
 * (1 - 2 x the codex's coast amplitude .. 1): no island is a disk. Any (dx, dz) scale. */
double island_coast_frac(const Island *isl, double dx, double dz);
/* FNV-1a 64 over every generated decision: the golden hash of an island. */
uint64_t island_hash(const Island *isl);

/* Name of a site as ids ("meadow", "meadow.raspberry", "meadow#4") and as display text. */
void island_site_name_id(const Island *isl, const IslandCodex *cx, uint32_t site, char *buf, size_t n);
void island_site_display_name(const Island *isl, const IslandCodex *cx, uint32_t site, const char *lang,
                              char *buf, size_t n);

#define ISLAND_FIELD_MAX_CELLS 4096u   /* a field's most cells a side */
/* Bakes the core IslandField (size x size cells over the island's diameter, centred at
 * centre_x/centre_z): ground in metres above the island's sea level (the elevation axis field
 * shaped by the sites: the highest site on top, coasts by the types' `coast` prop, craters by
 * `crater_radius_m`), underside depth, the place of each cell (its site's type, the borders
 * between types moved by waves) and its ground colour blended across borders, the paths as 1 m
 * ground bits.
 * The grids come from `mem` and live as long as it does. */
bool island_bake_field(IslandField *f, const Island *isl, const IslandCodex *cx, uint32_t size,
                       float centre_x, float centre_z, MemArena *mem, SkyError *err);
/* Arena bytes island_bake_field takes for a field of size x size cells of scope `scope`: enough
 * for any island of the scope and, with an archipelago, of its largest diameter. */
size_t island_field_bytes(const IslandCodex *cx, uint32_t scope, uint32_t size);
/* The field's cells a side for an island of diameter_m of scope `scope` whose own island (the
 * scope's diameter) bakes home_cells a side: the scope's metres per cell, at most home_cells
 * cells (a smaller island as fine as the home island, a larger one home_cells cells of
 * diameter_m / home_cells metres), so no bake has more cells than the home island's and one
 * arena size (island_field_bytes at home_cells) holds any island. At least 2. */
uint32_t island_field_cells(const IslandCodex *cx, uint32_t scope, uint32_t home_cells, uint32_t diameter_m);

/* ---------------------------------------------------------------- building blocks (tests) */
typedef struct IslandPoint { int32_t x, z; } IslandPoint;

/* Exact predicates for |coordinates| <= ISLAND_GRID_LIMIT. >0: c left of a->b / d inside (a,b,c) ccw. */
int64_t island_orient2d(IslandPoint a, IslandPoint b, IslandPoint c);
int64_t island_incircle(IslandPoint a, IslandPoint b, IslandPoint c, IslandPoint d);
/* Delaunay triangulation of n distinct points, not all collinear. Returns the triangle count
 * (ccw, canonical order) or 0 with err set. */
uint32_t island_delaunay(const IslandPoint *pts, uint32_t n, IslandTri *tris, uint32_t cap, MemArena *work,
                         SkyError *err);

/* Guarantee assignment (I7): slot s prefers sites in order[s*n_sites ...] (best first);
 * adm[s*n_sites + site] = 1 when the site meets the slot's hard limits. Assigns a distinct site
 * to every slot, admissible for as many slots as possible, earlier slots winning ties.
 * site_of[s] receives the site, fell_back[s] = 1 when it is inadmissible. False unless
 * n_slots <= n_sites, n_slots <= ISLAND_MAX_GUARANTEE_SLOTS and n_sites <= ISLAND_MAX_SITES. */
bool island_assign_guarantees(uint32_t n_slots, uint32_t n_sites, const uint8_t *adm, const uint16_t *order,
                              uint16_t *site_of, uint8_t *fell_back);

#endif
