/* skyisles world internals of the streamer: the World record, its chunk slots, jobs and events,
 * and the calls between its files (stream.c -> stream_jobs.c -> stream_slots.c). What it asks
 * for each frame and the speed governor are reach.c's (reach.h): the World holds the governor,
 * only reach.c writes it. */
#ifndef SKYISLES_STREAM_INTERNAL_H
#define SKYISLES_STREAM_INTERNAL_H

#include <stdatomic.h>

#include "world/reach.h"

#define WORLD_GENS 4            /* parameter snapshots alive at once (old epochs drain) */
#define LAT_BINS 8192           /* latency histogram: 0.25 ms bins up to ~2 s */
#define LAT_BIN_MS 0.25
/* Work queued on the workers, at most: the job queue runs in order, so a deep queue makes every
 * new request wait behind older, lower priority ones. In fast flight at most a third of the time
 * between a new chunk's request and its need (the lead plus one chunk of travel), at least 8 ms. */
#define QUEUE_BUDGET_S 0.04
#define QUEUE_BUDGET_MIN_S 0.008

enum { SLOT_EMPTY = 0, SLOT_QUEUED, SLOT_READY };

typedef struct ChunkSlot {
    int64_t cx, cz;
    uint8_t state;
    uint8_t ready_pending;      /* READY event in the ring, not taken yet */
    uint8_t ready_taken;        /* the renderer has it: a GONE must follow */
    uint8_t lod;                /* READY: LOD of the mesh held */
    uint8_t classic;            /* READY: the mesh is classic LOD 0 (built with LOD off, no seam faces) */
    uint8_t busy;               /* READY: a job for another LOD is in flight (seq) */
    uint8_t stale;              /* READY: the mesh is of an older world (a generation change); it
                                   is drawn until the rebuild of this chunk replaces it */
    uint8_t job_lod;            /* LOD of the job in flight */
    uint32_t seq;               /* request number that owns the slot */
    uint32_t slabs;             /* slabs held by mesh */
    uint64_t req_ns;            /* QUEUED: when the request was submitted */
    double born_s;              /* view time of the request that created the chunk: its wind
                                   shift (W7), kept by every LOD swap of it */
    ChunkMesh mesh;
} ChunkSlot;

/* ---------------------------------------------------------------- island slots (islands.c) */
enum { ISL_FREE = 0, ISL_BAKING, ISL_READY };
/* What a chunk job reads of the archipelago: the snapshot as it is (the home island's cell, or no
 * archipelago), a cell without an island, or an island slot (>= 0). */
#define ISL_AS_IS (-1)
#define ISL_NONE (-2)
#define ISL_WAIT (-3)      /* its island is not baked yet: the chunk waits */
#define ISL_SITE_CACHE 256

typedef struct IslandJob {
    World *w;
    uint32_t slot;
    int64_t cell_x, cell_z;
    bool ok;
    uint64_t cpu_ns, wall_ns;
} IslandJob;

typedef struct IslandSlot {
    int64_t cell_x, cell_z;
    uint8_t state;              /* ISL_* */
    uint32_t readers;           /* chunk jobs in flight that read it: it is not given away */
    uint32_t serial;            /* bakes installed in it (point-query caches compare it) */
    MemArena arena;
    IslandField field;
    const void *island;
    GenIsland gi;               /* its sea at the current parameters; a job refits it to its own */
    IslandJob job;              /* ISL_BAKING: the bake on the workers */
} IslandSlot;

typedef struct IslandSiteEntry {
    int64_t cell_x, cell_z;
    bool used;
    WorldIslandSite site;
} IslandSiteEntry;

typedef struct ChunkJob {
    World *w;
    const WorldGen *gen;
    uint32_t gen_index;
    int64_t cx, cz;
    int lod;
    bool classic;               /* LOD off: the classic LOD-0 mesh, no seam faces */
    int32_t isl;                /* ISL_AS_IS, ISL_NONE or the island slot it reads (its cell's) */
    int64_t cell_x, cell_z;     /* the cell of the chunk's centre */
    uint32_t slot, seq;
    uint32_t expect;            /* slabs reserved for it */
    double time_s;
    bool oom;
    bool fresh;                 /* a new chunk (no mesh before): its latency feeds the governor */
    uint64_t cpu_ns, wall_ns;   /* the run's thread CPU time and wall time (stretch included) */
    uint64_t stretch_ns;        /* of wall_ns, the stretch's sleep */
    double expect_s;            /* its LOD's average run time when submitted */
    MeshCounts counts;
    ChunkMesh mesh;
} ChunkJob;

typedef struct EventEntry {
    WorldEvent ev;
    uint32_t slot;
    bool withdrawn;
} EventEntry;

struct World {
    MemBudget *budget;
    JobSystem *jobs;
    WorldParams params;         /* as in use: gen = the current snapshot's, live as applied */
    const IslandField *home;    /* the home island every new snapshot is built with (not owned) */
    WorldGen gens[WORLD_GENS];
    uint32_t gen_refs[WORLD_GENS];
    uint32_t cur_gen;
    uint32_t epoch;
    int32_t radius_max;         /* pools were sized for this */
    int32_t keep_half;          /* Chebyshev reach of kept chunks */
    uint32_t table_w;
    ChunkSlot *slots;
    MemPool slabs, records;
    uint32_t nworkers;
    ChunkScratch **scratch;     /* per worker */
    ChunkScratch *main_scratch; /* world_build_chunk, world_debug_voxels */
    bool main_vox_valid;
    EventEntry *events;
    uint32_t ev_cap, ev_head, ev_count;
    uint32_t *lat_hist;
    uint64_t lat_count;
    uint32_t next_seq;
    uint32_t in_flight, max_in_flight;
    double slabs_per_chunk;     /* running average over all LODs */
    double slabs_at_lod[WORLD_LOD_MAX + 1];   /* running average per LOD */
    uint32_t reserve_slabs;     /* slabs the jobs in flight are expected to take */
    double radius_eff;          /* view radius the mesh pool can hold now (<= the configured one) */
    WorldStats st;
    WorldView last_view;
    bool have_view;
    int64_t anchor_x, anchor_z;  /* LOD anchor chunk */
    bool anchor_valid;
    _Atomic uint32_t stretch_bits; /* job stretch factor as float bits (0: none) */
    StreamGovernor gov;         /* LOD thresholds in force and the reach: reach.c writes it */
    double fresh_latency_s;     /* running average of request-to-collect time of new chunks */
    double frame_dt_s, last_time_s;
    double job_s_lod[WORLD_LOD_MAX + 1];   /* running average run time (wall, stretch included) per LOD */
    double queued_s;            /* expected run time of the jobs in flight */
    /* the archipelago (islands.c): no source, cell_m 0 */
    WorldIslandSource isrc;
    uint32_t nisl;              /* island slots, the last one the point queries' own */
    IslandSlot *isl;
    IslandSiteEntry *sites;     /* cache of the source's sites, ISL_SITE_CACHE entries */
    WorldGen *wgen;             /* per worker (then the point queries'): a snapshot with a cell's island */
    int32_t qslot;              /* the point queries' snapshot: its slot (or ISL_NONE), gen and serial */
    int64_t qcell_x, qcell_z;
    uint32_t qgen, qserial;
    bool qvalid;
};

/* The slot of chunk (cx, cz): the table wraps around (a torus), so a chunk's slot never moves. */
static inline uint32_t stream_wrap_index(int64_t v, uint32_t w) {
    int64_t m = v % (int64_t)w;
    return (uint32_t)(m < 0 ? m + (int64_t)w : m);
}
static inline uint32_t stream_slot_index(const World *w, int64_t cx, int64_t cz) {
    return stream_wrap_index(cz, w->table_w) * w->table_w + stream_wrap_index(cx, w->table_w);
}

/* The distance chunks are kept to: the view radius, or less while the mesh pool holds less. */
static inline double stream_keep(const World *w) {
    double radius = w->params.live.view_radius;
    return w->radius_eff < radius ? w->radius_eff : radius;
}
/* The distance chunks are requested to: the keep distance, or less while the governor pulls in. */
static inline double stream_reach(const World *w) {
    double keep = stream_keep(w);
    return w->gov.reach < keep ? w->gov.reach : keep;
}

/* ---------------------------------------------------------------- stream_slots.c */
/* Queues a renderer event (the ring keeps the newest: the oldest is dropped and counted). */
void stream_event_push(World *w, WorldEventType type, int64_t cx, int64_t cz, const ChunkMesh *mesh, uint32_t slot);
/* Withdraws the READY events of slot that were not taken yet. */
void stream_event_withdraw(World *w, uint32_t slot);
/* Empties slot idx: its mesh back to the pool, a GONE when the renderer had it. */
void stream_slot_clear(World *w, uint32_t idx, bool count_evicted);
/* Evicts the resident chunk farthest from the camera if it is farther than `than`. */
bool stream_evict_farthest(World *w, const ViewGeom *g, double than);
/* The pool cannot hold chunks d away: the keep distance comes in below them. */
void stream_shrink_reach(World *w, double d);
/* Evicts (or forgets requests for) chunks out of the keep distance, with a chunk of slack. */
void stream_evict_out_of_keep(World *w, const ViewGeom *g);

/* ---------------------------------------------------------------- stream_jobs.c */
/* Waits for the running jobs and drops every result. */
void stream_jobs_drain(World *w);
/* Takes at most max_results_per_frame finished jobs and installs or drops each. */
void stream_jobs_collect(World *w, const ViewGeom *g);
/* Slabs a job at `lod` is expected to take. */
uint32_t stream_job_expect(const World *w, int lod);
/* Requests chunk (cx, cz) at `lod` into slot idx, reading island slot isl of its cell (ISL_AS_IS,
 * ISL_NONE or a READY slot, held until the job is over); false: no record or the queue refused. */
bool stream_job_submit(World *w, uint32_t idx, int64_t cx, int64_t cz, int lod, double time_s, int32_t isl,
                       int64_t cell_x, int64_t cell_z);
/* Bakes cell's island on the workers into slot (which becomes ISL_BAKING; false: the queue refused). */
bool stream_island_submit(World *w, uint32_t slot, int64_t cell_x, int64_t cell_z);

/* ---------------------------------------------------------------- islands.c */
/* The cell of block coordinate b (cell_m > 0). */
static inline int64_t isl_cell_of(const World *w, int64_t b) {
    return floor_div64(b + w->isrc.cell_m / 2, w->isrc.cell_m);
}
/* The source's site of a cell (cached). */
const WorldIslandSite *isl_site(World *w, int64_t cell_x, int64_t cell_z);
/* The READY slot holding cell's island, or -1. */
int32_t isl_find(const World *w, int64_t cell_x, int64_t cell_z);
/* The slot a bake of cell should go to: a free one, else the farthest from (bx, bz) with no
 * reader, not baking and farther than the cell; -1 when none. */
int32_t isl_slot_for(World *w, int64_t cell_x, int64_t cell_z, double bx, double bz);
/* Installs a finished bake into its slot (main thread): its landmarks and flora, READY. */
void isl_install(World *w, uint32_t slot);
/* What a chunk of cell (cell_x, cell_z) reads: ISL_AS_IS, ISL_NONE, a READY slot or ISL_WAIT. */
int32_t isl_for_cell(World *w, int64_t cell_x, int64_t cell_z);
/* The snapshot g with the island isl (ISL_AS_IS: g itself) into *out, which is returned. */
const WorldGen *isl_gen_view(const World *w, const WorldGen *g, int32_t isl, int64_t cell_x, int64_t cell_z,
                             WorldGen *out);
/* The current snapshot as a point at block (bx, bz) reads it, baking its island on this thread
 * when no slot has it yet (main thread). */
const WorldGen *isl_gen_at(World *w, int64_t bx, int64_t bz);
/* The half width of a cell's core, 0 without an archipelago. */
int64_t isl_core(const World *w);

#endif
