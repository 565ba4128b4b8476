/* skyisles core: the one public header of src/core.
 * Errors and logging, the boot-time memory budget (arenas + fixed pools),
 * the worker pool with epochs, PCG32/splitmix64 RNG and uint32 hashing, time.
 * Pure C11 + pthreads: no SDL, no GL. */
#ifndef SKYISLES_CORE_H
#define SKYISLES_CORE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------- errors */
/* What kind of failure an error is; the game turns it into its exit status (main.c). */
typedef enum SkyErrorCode {
    SKY_OK = 0,
    SKY_ERR_START = 1,      /* something could not start here: display, GL context, threads, reserving memory */
    SKY_ERR_INPUT = 2,      /* something the user gave is unusable: an option, a file, a pack, a budget too small */
    SKY_ERR_NO_MEMORY = 3,  /* the heap ran out in a build-time tool (the packer) */
    SKY_ERR_SOURCE = 4,     /* a codex YAML defect; the message starts with file:line:column */
    SKY_ERR_GENERATE = 5,   /* island generation cannot be done with this codex, scope or work memory */
} SkyErrorCode;

/* An error carries one human line: what failed and what to do about it. */
typedef struct SkyError {
    SkyErrorCode code;  /* SKY_OK = no error */
    char msg[256];
} SkyError;

/* code SKY_OK is taken as SKY_ERR_START: an error that is set is never "no error". */
void sky_error_set(SkyError *err, SkyErrorCode code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline bool sky_error_is_set(const SkyError *err) { return err && err->code != 0; }
static inline void sky_error_clear(SkyError *err) { if (err) { err->code = SKY_OK; err->msg[0] = 0; } }

/* ---------------------------------------------------------------- logging */
typedef enum LogLevel { LOG_DEBUG = 0, LOG_INFO, LOG_WARN, LOG_ERROR, LOG_QUIET } LogLevel;
/* Level from SKYISLES_LOG (debug|info|warn|error|quiet), default info. Thread-safe. */
void log_set_level(LogLevel level);
LogLevel log_get_level(void);
void log_msg(LogLevel level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_WARN, __VA_ARGS__)
#define log_error(...) log_msg(LOG_ERROR, __VA_ARGS__)

/* ---------------------------------------------------------------- time */
uint64_t time_now_ns(void);      /* monotonic */
double time_now_ms(void);
uint64_t time_thread_cpu_ns(void);   /* CPU time of the calling thread (0 where the clock is missing) */

/* ---------------------------------------------------------------- files */
/* Reads a whole file (boot time only: the buffer is malloc'd, the caller frees it).
 * NULL with a one-line error when missing, unreadable or larger than max_bytes. */
uint8_t *file_read_all(const char *path, size_t max_bytes, size_t *len, SkyError *err);
/* Writes all n bytes to fd (retrying short writes and EINTR): false on an error (errno says). */
bool file_write_all(int fd, const void *data, size_t n);
/* Ends an atomic write of tmp (open as fd; `written`: every byte went out): synced, closed and
 * renamed over path; on any failure tmp is removed and the old path kept. 0, or the errno. */
int file_commit(int fd, bool written, const char *tmp, const char *path);

/* ---------------------------------------------------------------- memory */
/* One budget, reserved once at boot; everything else is carved from it.
 * Carving is boot-time only (not thread-safe); pools are O(1) and thread-safe. */
#define MEM_DEFAULT_BUDGET_MIB 192u   /* fits a 1 GiB Pi 3/4 next to the GPU split */

typedef struct MemBudget {
    uint8_t *base;
    size_t size;
    size_t used;
    size_t carve_failures;
} MemBudget;

/* Budget in MiB from, in order: the explicit value (if > 0), SKYISLES_MEM_MB, the default. */
size_t mem_budget_mib_from_env(size_t explicit_mib);
bool mem_budget_init(MemBudget *b, size_t bytes, SkyError *err);
void mem_budget_release(MemBudget *b);
/* Returns zeroed memory aligned to `align` (power of two, >= 1), or NULL when the budget is spent. */
void *mem_carve(MemBudget *b, size_t bytes, size_t align);
static inline size_t mem_budget_free(const MemBudget *b) { return b->size - b->used; }
/* Boot only: forgets what was carved after the mark `used` (an earlier b->used), so a stage that
 * did not fit can try again smaller. The caller keeps no pointer into what it forgets. */
void mem_budget_rewind(MemBudget *b, size_t used);

/* Bump arena for scratch that is reset as a whole (per frame, per job). Not thread-safe. */
typedef struct MemArena {
    uint8_t *base;
    size_t size;
    size_t used;
    size_t peak;
    size_t failures;
} MemArena;

bool mem_arena_init(MemArena *a, MemBudget *b, size_t bytes);
void mem_arena_init_buffer(MemArena *a, void *buf, size_t bytes);
void *mem_arena_alloc(MemArena *a, size_t bytes, size_t align);   /* NULL when full */
static inline void mem_arena_reset(MemArena *a) { a->used = 0; }

/* Fixed-size block pool: a free-index stack behind a spinning lock. */
typedef struct MemPoolStats {
    uint32_t capacity, in_use, peak;
    uint64_t allocs, frees, failures;
} MemPoolStats;

typedef struct MemPool {
    const char *name;
    uint8_t *blocks;
    size_t block_size;      /* rounded up to 16 bytes */
    uint32_t capacity;
    uint32_t free_top;      /* number of entries on free_stack */
    uint32_t *free_stack;
    uint8_t *live;          /* 1 while handed out: catches double frees */
    MemPoolStats stats;
    volatile int lock;
} MemPool;

bool mem_pool_init(MemPool *p, MemBudget *b, const char *name, size_t block_size, uint32_t count);
void *mem_pool_alloc(MemPool *p);            /* NULL (and failures++) when exhausted */
void mem_pool_free(MemPool *p, void *block); /* NULL is ignored; a foreign or double free is logged */
uint32_t mem_pool_index(const MemPool *p, const void *block);
void *mem_pool_block(const MemPool *p, uint32_t index);
MemPoolStats mem_pool_stats(MemPool *p);
bool mem_pool_owns(const MemPool *p, const void *block);

/* ---------------------------------------------------------------- jobs */
/* Worker threads = online cores (SKYISLES_WORKERS overrides). Jobs are submitted with the
 * current epoch; jobs_new_epoch() drops every queued job, and results of older epochs are
 * dropped when drained. `drop` returns a job's buffers; it always runs on the thread that
 * calls jobs_submit/jobs_new_epoch/jobs_collect (the main thread). */
typedef struct JobDesc JobDesc;
typedef void (*JobRunFn)(JobDesc *job, uint32_t worker, void *scratch);
typedef void (*JobDropFn)(JobDesc *job);

struct JobDesc {
    JobRunFn run;
    JobDropFn drop;       /* may be NULL */
    void *payload;
    uint64_t user;        /* free for the submitter (e.g. a chunk key) */
    uint32_t epoch;       /* set by jobs_submit */
    uint64_t t_submit_ns; /* set by jobs_submit */
    uint64_t t_done_ns;   /* set when the run finished */
};

typedef struct JobsConfig {
    uint32_t workers;         /* 0: SKYISLES_WORKERS or online cores */
    uint32_t queue_capacity;  /* jobs waiting; 0: 256 */
    size_t scratch_bytes;     /* per-worker scratch carved from the budget; 0: none */
} JobsConfig;

typedef struct JobsStats {
    uint64_t submitted, completed, dropped_queued, dropped_stale, rejected_full;
    uint32_t queued, running, ready;   /* now */
    uint32_t workers, epoch;
} JobsStats;

typedef struct JobSystem JobSystem;

uint32_t jobs_default_workers(void);
JobSystem *jobs_create(MemBudget *b, const JobsConfig *cfg, SkyError *err);
/* False (and rejected_full++) when the queue is full: the caller keeps ownership. */
bool jobs_submit(JobSystem *js, const JobDesc *job);
/* Bumps the epoch and drops every queued job (their drop() runs here). Returns the new epoch. */
uint32_t jobs_new_epoch(JobSystem *js);
uint32_t jobs_epoch(const JobSystem *js);
/* Moves up to `max` finished jobs of the current epoch into out; stale ones are dropped. */
size_t jobs_collect(JobSystem *js, JobDesc *out, size_t max);
/* Blocks until nothing is queued or running (tests, rebuilds, shutdown paths). */
void jobs_wait_idle(JobSystem *js);
JobsStats jobs_stats(JobSystem *js);
uint32_t jobs_worker_count(const JobSystem *js);
/* Drops queued jobs, finishes running ones, joins every thread, drops undrained results.
 * jobs_stats() stays valid afterwards (the storage belongs to the budget). */
void jobs_destroy(JobSystem *js);

/* ---------------------------------------------------------------- rng & hash */
/* PCG32 (XSH RR), seeded through splitmix64: one independent stream per purpose. */
typedef struct Rng { uint64_t state, inc; } Rng;

uint64_t splitmix64_next(uint64_t *state);
void rng_seed(Rng *r, uint64_t seed, uint64_t stream);
void rng_seed_pcg(Rng *r, uint64_t init_state, uint64_t init_seq);  /* PCG's own seeding */
uint32_t rng_u32(Rng *r);
uint32_t rng_below(Rng *r, uint32_t bound);          /* unbiased, bound > 0 */
int32_t rng_range(Rng *r, int32_t lo, int32_t hi);   /* inclusive */
float rng_float01(Rng *r);                           /* [0,1), 24 bits */
double rng_double01(Rng *r);                         /* [0,1), 53 bits */

/* Well-mixed uint32 hashes for lattice noise and per-cell decisions. */
static inline uint32_t hash_u32(uint32_t x) {
    x ^= x >> 16; x *= 0x7feb352dU;
    x ^= x >> 15; x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}
static inline uint32_t hash3_u32(uint32_t seed, int32_t x, int32_t y, int32_t z) {
    uint32_t h = hash_u32(seed ^ 0x9e3779b9U);
    h = hash_u32(h ^ ((uint32_t)x * 0x8da6b343U));
    h = hash_u32(h ^ ((uint32_t)y * 0xd8163841U));
    h = hash_u32(h ^ ((uint32_t)z * 0xcb1ab31fU));
    return h;
}
uint64_t hash_fnv1a64(const void *data, size_t n, uint64_t h);   /* h = 0 to start */

/* ---------------------------------------------------------------- deterministic maths */
/* libm-free sin, cos, atan2, atan, asin and exp (detmath.c): IEEE basic operations and sqrt
 * only, so the same bits on every CPU and C library (island layout, flight, collision). Accurate
 * to about 1e-15 (angles within +-1e15 rad; NaN beyond). */
void det_sincos(double a, double *s, double *c);
double det_sin(double a);
double det_cos(double a);
double det_atan2(double y, double x);
double det_atan(double x);
double det_asin(double x);   /* NaN outside [-1, 1] */
double det_exp(double x);

/* ---------------------------------------------------------------- island field */
/* The home island as baked by src/island at boot, read by src/world to shape terrain.
 * Plain data in core so neither module depends on the other. One block = one metre. */
#define ISLAND_FIELD_MAX_TYPES 32
/* IslandField.type of a cell outside the island (a uint8 no location type index reaches). */
#define ISLAND_FIELD_OFF 255u
#define ISLAND_FIELD_MAX_SITES 128
/* A site of the island: position in metres from the island centre (one block per metre), type. */
typedef struct IslandFieldSite { float x_m, z_m; uint8_t type; } IslandFieldSite;
/* An airstrip of the island (island_bake_field): a flattened straight run of ground, its ends
 * open to the sky. Positions in metres from the field's centre; the strip runs from threshold
 * a to threshold b (either way round: a landing may use either end). */
#define ISLAND_FIELD_MAX_STRIPS 8
typedef struct IslandFieldStrip {
    float ax, az, bx, bz;      /* the centres of its two thresholds */
    float dir_x, dir_z;        /* unit vector from a to b */
    float length_m, width_m;
    float elev_m;              /* its surface, whole metres above the island's sea level */
    float relief_m;            /* the natural ground's height range under it before it was flattened */
    float yaw;                 /* heading from a to b as the flight model's yaw (0 = -z, pi/2 = +x) */
    uint8_t site;              /* the site (place) it serves */
    uint8_t base;              /* 1: the base camp's strip */
    uint8_t open;              /* 1: the ground past both ends stays under the approach surface */
} IslandFieldStrip;

/* A waterfall (island/water.c): a pool at the coast overflows the edge along its lip, a run of
 * its water cells beside cells off the island; the water falls from the lip into the abyss. */
#define ISLAND_FIELD_MAX_FALLS 8
typedef struct IslandFieldFalls {
    float x_m, z_m;            /* the lip's middle, metres from the field's centre */
    float dir_x, dir_z;        /* unit vector outward, over the edge */
    float width_m;             /* the lip's length across dir */
    float top_m;               /* the water's surface above the island's sea level */
} IslandFieldFalls;

typedef struct IslandField {
    uint32_t size;             /* cells per side (0 = no island) */
    float cell_meters;         /* metres per cell side */
    float centre_x, centre_z;  /* world position of the field's centre */
    float radius_m;            /* island radius */
    float elevation_top_m;     /* the scope's elevation_top_meters */
    const uint16_t *elevation_dm;  /* size*size, row-major (z rows), ground decimetres above the island's sea
                                      level (= blocks x 10 above the world's home_sea_level); 0 off-island */
    const uint16_t *under_dm;      /* size*size, underside depth below sea level in dm (NULL: the world's
                                      default keel) */
    const uint16_t *water_dm;      /* size*size, the water's surface in dm above sea level over the cell
                                      (lakes, pools: island/water.c); 0: dry; NULL: no water */
    const uint8_t *type;           /* size*size, the cell's place: location type index of its site (the nearest,
                                      past wavy borders: island_bake_field); ISLAND_FIELD_OFF off-island */
    /* size*size*3 (r, g, b per cell; NULL: each type's type_rgb): the ground colour, the type's
     * inside a place and blended into the next places' across a border (island_bake_field). */
    const uint8_t *ground_rgb;
    uint32_t n_types;              /* entries used in type_rgb */
    uint32_t type_rgb[ISLAND_FIELD_MAX_TYPES];  /* ground colour 0xRRGGBB per location type */
    /* Paths on the ground: one bit per path_cell_m square, path_size per side, centred like the
     * field (bit i of row j at byte j * path_stride + i / 8); NULL: no paths. */
    const uint8_t *path_bits;
    uint32_t path_size, path_stride;
    float path_cell_m;
    uint32_t path_rgb;             /* ground colour of a path, 0xRRGGBB */
    /* Per location type, names from the codex (they point into the pack): the landmark shape
     * every site of the type gets, and the flora set of its ground (NULL or "": the biome's). */
    const char *type_landmark[ISLAND_FIELD_MAX_TYPES];
    const char *type_flora[ISLAND_FIELD_MAX_TYPES];
    uint32_t n_sites;
    IslandFieldSite sites[ISLAND_FIELD_MAX_SITES];
    uint32_t n_strips;             /* the base camp's strip first (when the island has one) */
    IslandFieldStrip strips[ISLAND_FIELD_MAX_STRIPS];
    uint32_t n_falls;
    IslandFieldFalls falls[ISLAND_FIELD_MAX_FALLS];
} IslandField;

/* The type of the field's cell under (x, z) (world metres), ISLAND_FIELD_OFF outside the field
 * or on an empty one. The cell the world reads for that column (world/density.c). */
static inline uint8_t island_field_type_at(const IslandField *f, double x, double z) {
    if (f->size == 0 || !f->type || !(f->cell_meters > 0.0f)) return ISLAND_FIELD_OFF;
    double half = 0.5 * (double)f->size;
    double u = (x - (double)f->centre_x) / (double)f->cell_meters + half;
    double v = (z - (double)f->centre_z) / (double)f->cell_meters + half;
    if (!(u >= 0.0 && v >= 0.0 && u < (double)f->size && v < (double)f->size)) return ISLAND_FIELD_OFF;
    return f->type[(size_t)v * f->size + (size_t)u];
}

/* Is (x, z) (world metres) on the island: inside the field and on a cell with a type? */
static inline bool island_field_on(const IslandField *f, double x, double z) {
    return island_field_type_at(f, x, z) != ISLAND_FIELD_OFF;
}

/* Is (x, z) (world metres) on a path of the field? */
static inline bool island_field_path_at(const IslandField *f, float x, float z) {
    if (!f->path_bits || !(f->path_cell_m > 0.0f)) return false;
    float half = 0.5f * (float)f->path_size;
    float u = (x - f->centre_x) / f->path_cell_m + half, v = (z - f->centre_z) / f->path_cell_m + half;
    if (!(u >= 0.0f && v >= 0.0f && u < (float)f->path_size && v < (float)f->path_size)) return false;
    uint32_t i = (uint32_t)u, j = (uint32_t)v;
    return (f->path_bits[(size_t)j * f->path_stride + (i >> 3)] >> (i & 7u)) & 1u;
}

/* Is (x, z) (world metres) on strip k's rectangle grown by `along` metres past each end and
 * `side` metres on each side? The world's ground marking and its clear ground read this one test. */
static inline bool island_field_strip_near(const IslandField *f, uint32_t k, float x, float z, float along, float side) {
    const IslandFieldStrip *s = &f->strips[k];
    float px = x - f->centre_x - 0.5f * (s->ax + s->bx), pz = z - f->centre_z - 0.5f * (s->az + s->bz);
    float u = px * s->dir_x + pz * s->dir_z, v = pz * s->dir_x - px * s->dir_z;
    float ha = 0.5f * s->length_m + along, hs = 0.5f * s->width_m + side;
    return u >= -ha && u <= ha && v >= -hs && v <= hs;
}

/* The first strip whose grown rectangle holds (x, z), or -1. */
static inline int island_field_strip_at(const IslandField *f, float x, float z, float along, float side) {
    for (uint32_t k = 0; k < f->n_strips; k++)
        if (island_field_strip_near(f, k, x, z, along, side)) return (int)k;
    return -1;
}
/* ---------------------------------------------------------------- text */
/* Every string a player reads, one row each in text_rows.h (X(ID, "English")); the Japanese of
 * each row comes from assets/text/ja.yaml, turned into C at build time (tools/text/textgen.c),
 * with the 8x8 glyphs (Misaki) of every non-ASCII character the tables use. The settings file's
 * keys, the log and --help stay English. */
#include "core/text_rows.h"

typedef enum Lang { LANG_EN = 0, LANG_JA, LANG_COUNT } Lang;

#define TEXT_ENUM_ROW(id, en) TEXT_##id,
typedef enum TextId { TEXT_ROWS(TEXT_ENUM_ROW) TEXT_COUNT } TextId;
#undef TEXT_ENUM_ROW

/* The English rows as one object, a member per row: TX(ID) is the English string's address, a
 * constant that a static table (settings rows, menu items) can hold where it held a literal; it
 * reads as English wherever the table is printed (--help), and text_tr() turns it into the
 * current language where it is drawn. */
#define TEXT_FIELD_ROW(id, en) char id[sizeof(en)];
struct TextEnglish { TEXT_ROWS(TEXT_FIELD_ROW) };
#undef TEXT_FIELD_ROW
extern const struct TextEnglish text_english;
#define TX(ID) (text_english.ID)

const char *text_get(TextId id);            /* the row in the current language */
const char *text_get_lang(TextId id, Lang lang);
/* s itself, unless it is a row's English (TX(ID) or text_get in English): then that row now. */
const char *text_tr(const char *s);
/* The row whose English s is (by address), or TEXT_COUNT. */
TextId text_id_of(const char *s);
void text_set_language(Lang lang);          /* boot, the settings row, the title (any thread may read it) */
Lang text_language(void);
const char *text_lang_code(Lang lang);      /* "en", "ja" (the settings file's and --lang's words) */
bool text_lang_parse(const char *code, Lang *out);
/* The language a first start guesses from LC_ALL, LC_MESSAGES, LANG (the first one set wins, as
 * setlocale reads them): "ja..." gives Japanese, anything else English. Any may be NULL. */
Lang text_lang_guess(const char *lc_all, const char *lc_messages, const char *lang);

/* UTF-8: the code point at *p, *p moved past it (a malformed byte reads as U+FFFD, one byte). */
uint32_t text_utf8_next(const char **p);
/* East Asian wide characters (kana, kanji, full-width forms), where a line may break. */
bool text_cp_wide(uint32_t cp);
/* The length in bytes of the first line of s that fits `room` for measure(): at the last space,
 * or between two wide characters but never before closing punctuation (、。）」) nor after
 * opening punctuation (（「); a word longer than room is cut at a character. 0 only for "". */
size_t text_break(const char *s, int room, int (*measure)(const char *s, size_t n, void *ctx), void *ctx);

/* A codex name built into the game ("type.meadow", "variant.meadow.raspberry", "ordinal.4",
 * "serial_pattern": island_codex_text's keys) in a language whose names are not in the pack
 * (Japanese: assets/codex/locale_ja.yaml), or NULL. */
const char *text_codex(const char *lang, const char *key);

/* The bitmap font of the non-ASCII characters (ASCII keeps the HUD's own font): 8 rows of 8
 * pixels (bit 7 = leftmost), sorted by code point. */
typedef struct TextGlyph {
    uint32_t cp;
    uint8_t rows[8];
} TextGlyph;
size_t text_glyph_count(void);
const TextGlyph *text_glyph_at(size_t i);
const TextGlyph *text_glyph_find(uint32_t cp);     /* NULL when the font lacks it */
long text_glyph_index(uint32_t cp);                /* its index, or -1 */

#endif
