/* skyisles world: the World's public face. Creation (everything carved at once), parameters and
 * epochs, the frame's update as a list of steps, stats and direct builds. The chunk table and
 * events are stream_slots.c's, the jobs stream_jobs.c's, what to ask for and the governor reach.c's. */
#include "world/stream_internal.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- creation */
static uint32_t workers_of(JobSystem *js) {
    uint32_t n = jobs_worker_count(js);
    return n ? n : 1;
}

/* Slabs a chunk may hold at each LOD in the headless worst case (every wanted chunk keeps its
 * CPU mesh). Measured means (bench chunk, full range): 13.8, 3.9, 1.3 and 1.0 slabs; rugged
 * regions reach ~2x at LOD 0 and 1. */
static const uint32_t k_slabs_at_lod[WORLD_LOD_MAX + 1] = {16, 6, 2, 1};

/* Slabs for every chunk within `r` (+ a lead of `lead` chunks in one direction) of the camera,
 * each at the LOD its distance asks for. */
static uint64_t resident_slabs(const WorldLiveParams *p, int32_t r, int32_t lead) {
    uint64_t n = 0;
    for (int32_t dz = -r; dz <= r; dz++)
        for (int32_t dx = -r; dx <= r + lead; dx++) {
            double a = dx, b = dz, rr = (double)r + 0.75;
            bool in0 = a * a + b * b <= rr * rr;
            bool in1 = (a - lead) * (a - lead) + b * b <= rr * rr;
            if (in0 || in1) n += k_slabs_at_lod[world_lod_for_offset(p, dx, dz)];
        }
    return n;
}

/* Live values as the world holds them: the view radius within what the table was sized for,
 * the LOD thresholds in use, the anchor slack below half a chunk. */
static void live_apply(World *w, const WorldLiveParams *p) {
    WorldLiveParams *l = &w->params.live;
    *l = *p;
    l->view_radius = world_clamp_view_radius(l->view_radius);
    if (l->view_radius > w->radius_max) l->view_radius = w->radius_max;
    if (!(l->lod_hysteresis >= 0.0f)) l->lod_hysteresis = 0.0f;
    if (l->lod_hysteresis > 0.45f) l->lod_hysteresis = 0.45f;
    if (l->speed_reach_min < WORLD_VIEW_RADIUS_MIN) l->speed_reach_min = WORLD_VIEW_RADIUS_MIN;
    stream_gov_configure(&w->gov, l, w->radius_max);
}

/* A pool's carves (mem_pool_init) with their worst alignment pads. */
static size_t pool_bytes(size_t block, uint64_t count) {
    block = (block + 15) & ~(size_t)15;
    return (size_t)count * (block + sizeof(uint32_t) + 1) + 63 + 15 + 15;
}

size_t world_create_bytes(const WorldParams *p, uint32_t workers, uint32_t slabs) {
    int32_t radius = world_clamp_view_radius(p->create.view_radius_max > 0 ? p->create.view_radius_max : p->live.view_radius);
    size_t table_w = (size_t)(2 * (radius + LOOKAHEAD_MAX + 2) + 2), nslots = table_w * table_w;
    size_t nworkers = workers ? workers : 1;
    uint32_t in_flight = p->create.max_in_flight ? p->create.max_in_flight : 48 * (uint32_t)nworkers + 16;
    size_t bytes = sizeof(World) + (sizeof(ChunkSlot) + 2 * sizeof(EventEntry)) * nslots + sizeof(uint32_t) * LAT_BINS;
    bytes += sizeof(ChunkScratch *) * nworkers + sizeof(ChunkScratch) * (nworkers + 1) + 63 * (nworkers + 5);
    bytes += pool_bytes(sizeof(ChunkJob), in_flight + 2u);
    return bytes + pool_bytes(sizeof(WorldVertex) * WORLD_SLAB_VERTS, slabs < 64 ? 64 : slabs);
}

uint64_t world_pool_fit(uint64_t want, size_t free_bytes) {
    /* WORLD_BUDGET_RESERVE_MIB stay for the others; a slab costs its vertices and its pool's
     * free-stack and live entries. */
    const size_t slab_bytes = sizeof(WorldVertex) * WORLD_SLAB_VERTS, keep = (size_t)WORLD_BUDGET_RESERVE_MIB << 20;
    uint64_t fit = free_bytes > keep ? (free_bytes - keep) / (slab_bytes + 8) : 0;
    return want < fit ? want : fit;
}

World *world_create_density_only(MemBudget *b, const World *like, SkyError *err) {
    WorldParams wp = *world_params(like);
    wp.live.view_radius = WORLD_VIEW_RADIUS_MIN;
    wp.create.view_radius_max = WORLD_VIEW_RADIUS_MIN;
    wp.create.max_in_flight = 1;
    wp.create.mesh_pool_mib = 1;
    wp.create.workers = 1;
    return world_create(b, NULL, &wp, world_home(like), err);
}

World *world_create(MemBudget *b, JobSystem *jobs, const WorldParams *p, const IslandField *home, SkyError *err) {
    WorldParams def;
    if (!p) {
        world_params_default(&def);
        p = &def;
    }
    size_t used0 = b->used;
    World *w = mem_carve(b, sizeof *w, 64);
    if (!w) goto short_budget;
    memset(w, 0, sizeof *w);
    w->budget = b;
    w->jobs = jobs;
    w->home = home;
    w->radius_max = world_clamp_view_radius(p->create.view_radius_max > 0 ? p->create.view_radius_max : p->live.view_radius);
    w->keep_half = w->radius_max + LOOKAHEAD_MAX + 2;
    w->table_w = (uint32_t)(2 * w->keep_half + 2);
    w->nworkers = jobs ? workers_of(jobs) : 1;
    /* Results are collected once per frame, so in-flight jobs bound chunks per frame. */
    /* Far LOD jobs take ~0.1 ms: a frame's worth per worker is dozens of them. */
    w->max_in_flight = p->create.max_in_flight ? p->create.max_in_flight : 48 * w->nworkers + 16;

    size_t nslots = (size_t)w->table_w * w->table_w;
    w->slots = mem_carve(b, sizeof(ChunkSlot) * nslots, 64);
    w->ev_cap = (uint32_t)(2 * nslots);
    w->events = mem_carve(b, sizeof(EventEntry) * w->ev_cap, 64);
    w->lat_hist = mem_carve(b, sizeof(uint32_t) * LAT_BINS, 64);
    w->scratch = mem_carve(b, sizeof(ChunkScratch *) * w->nworkers, 16);
    w->main_scratch = mem_carve(b, sizeof(ChunkScratch), 64);
    if (!w->slots || !w->events || !w->lat_hist || !w->scratch || !w->main_scratch) goto short_budget;
    for (uint32_t i = 0; i < w->nworkers; i++) {
        w->scratch[i] = mem_carve(b, sizeof(ChunkScratch), 64);
        if (!w->scratch[i]) goto short_budget;
    }
    if (!mem_pool_init(&w->records, b, "world job records", sizeof(ChunkJob), w->max_in_flight + 2)) goto short_budget;

    size_t slab_bytes = sizeof(WorldVertex) * WORLD_SLAB_VERTS;
    uint64_t want;
    if (p->create.mesh_pool_mib) {
        want = ((uint64_t)p->create.mesh_pool_mib << 20) / slab_bytes;
    } else {
        /* Headless worst case: every wanted chunk keeps its CPU mesh at the LOD its distance asks
         * for, x1.5 for chunks passed at speed that keep a finer mesh until their coarser one
         * comes (a renderer that calls world_release_mesh needs only the jobs in flight and the
         * meshes waiting for upload), plus a reserve for the jobs in flight (a few at LOD 0,
         * most far). */
        want = resident_slabs(&p->live, w->radius_max, LOOKAHEAD_MAX) * 3u / 2u + (uint64_t)w->max_in_flight * 4u + 64u;
    }
    /* The reach shrinks past what the pool holds. */
    uint64_t got = world_pool_fit(want, mem_budget_free(b));
    uint32_t nslabs = (uint32_t)got;
    w->st.pool_squeezed = got < want;
    if (nslabs < 64) nslabs = 64;   /* below this the budget is the problem: fail clearly */
    if (!mem_pool_init(&w->slabs, b, "world mesh slabs", slab_bytes, nslabs)) goto short_budget;

    for (size_t i = 0; i < nslots; i++) w->slots[i].state = SLOT_EMPTY;
    gen_init(&w->gens[0], &p->gen, home);
    w->cur_gen = 0;
    w->params.gen = w->gens[0].p;
    w->params.create = p->create;
    live_apply(w, &p->live);
    w->epoch = jobs ? jobs_epoch(jobs) : 1;
    w->slabs_per_chunk = 4.0;
    for (int k = 0; k <= WORLD_LOD_MAX; k++) w->slabs_at_lod[k] = k_slabs_at_lod[k];
    w->radius_eff = w->radius_max;
    w->fresh_latency_s = 0.05;
    /* Until measured: this machine class's job times (bench chunk, full range, LOD 0..3). */
    static const double k_job_s[WORLD_LOD_MAX + 1] = {0.6e-3, 0.3e-3, 0.2e-3, 0.15e-3};
    memcpy(w->job_s_lod, k_job_s, sizeof k_job_s);
    w->frame_dt_s = 1.0 / 60.0;
    w->last_time_s = NAN;
    w->st.bytes_carved = b->used - used0;
    return w;

short_budget:
    sky_error_set(err, SKY_ERR_START, "world: memory budget too small for view radius %d (%zu MiB free): raise --mem / SKYISLES_MEM_MB "
                  "or lower the view radius", p->live.view_radius, mem_budget_free(b) >> 20);
    return NULL;
}

void world_destroy(World *w) {
    if (!w) return;
    if (w->jobs) {
        jobs_new_epoch(w->jobs);   /* queued jobs are dropped (records returned) */
        stream_jobs_drain(w);
    }
    uint32_t nslots = w->table_w * w->table_w;
    for (uint32_t i = 0; i < nslots; i++) stream_slot_clear(w, i, false);
}

/* ---------------------------------------------------------------- parameters */
const WorldParams *world_params(const World *w) { return &w->params; }

const IslandField *world_home(const World *w) { return w->home; }

uint32_t world_strip_count(const World *w) { return w->home ? w->home->n_strips : 0; }

bool world_strip(const World *w, uint32_t i, WorldStrip *out) { return world_strip_of(&w->params.gen, w->home, i, out); }

/* Strip i of field f whose metres count from block (ox, oz), its sea at `sea`. */
static bool strip_of(const IslandField *f, float sea, int64_t ox, int64_t oz, uint32_t i, WorldStrip *out) {
    if (!f || i >= f->n_strips) return false;
    const IslandFieldStrip *s = &f->strips[i];
    out->ax = (double)ox + (double)f->centre_x + s->ax;
    out->az = (double)oz + (double)f->centre_z + s->az;
    out->bx = (double)ox + (double)f->centre_x + s->bx;
    out->bz = (double)oz + (double)f->centre_z + s->bz;
    out->y = sea + s->elev_m;
    out->dir_x = s->dir_x;
    out->dir_z = s->dir_z;
    out->yaw = s->yaw;
    out->length_m = s->length_m;
    out->width_m = s->width_m;
    out->relief_m = s->relief_m;
    out->site = s->site;
    out->base = s->base != 0;
    return true;
}

bool world_strip_of(const WorldGenParams *p, const IslandField *home, uint32_t i, WorldStrip *out) {
    return strip_of(home, home ? world_home_sea(p, home) : 0.0f, 0, 0, i, out);
}

bool world_island_strip(const WorldIsland *wi, uint32_t i, WorldStrip *out) {
    return strip_of(wi->field, wi->sea, wi->ox, wi->oz, i, out);
}

void world_set_gen_params(World *w, const WorldGenParams *p) {
    /* A free snapshot slot: not current and no job still reading it. */
    uint32_t slot = WORLD_GENS;
    if (w->jobs) w->epoch = jobs_new_epoch(w->jobs);   /* drops queued jobs: their refs go */
    else w->epoch++;
    for (int attempt = 0; attempt < 2 && slot == WORLD_GENS; attempt++) {
        for (uint32_t i = 0; i < WORLD_GENS; i++)
            if (i != w->cur_gen && w->gen_refs[i] == 0) { slot = i; break; }
        if (slot == WORLD_GENS) stream_jobs_drain(w);   /* rare: running jobs of several old epochs */
    }
    if (slot == WORLD_GENS) slot = (w->cur_gen + 1) % WORLD_GENS;   /* unreachable after a drain */
    gen_init(&w->gens[slot], p, w->home);
    w->gens[slot].isl.core = isl_core(w);
    w->cur_gen = slot;
    w->qvalid = false;
    w->params.gen = w->gens[slot].p;
    /* Chunks on screen keep their mesh, marked stale, until their rebuild in the new world
     * replaces it (nearest first, like new chunks): a change never opens a void. Nothing of the
     * old world goes out after the change: READY events not taken yet are withdrawn, and a chunk
     * whose mesh was never taken is simply requested again. */
    uint32_t nslots = w->table_w * w->table_w;
    for (uint32_t i = 0; i < nslots; i++) {
        ChunkSlot *s = &w->slots[i];
        if (s->state == SLOT_READY && s->ready_pending) {
            stream_event_withdraw(w, i);
            s->ready_pending = 0;
        }
        if (s->state == SLOT_READY && s->ready_taken) {
            s->busy = 0;
            if (!s->stale) w->st.stale++;
            s->stale = 1;
        } else {
            stream_slot_clear(w, i, false);
        }
    }
    w->main_vox_valid = false;
    w->st.epoch = w->epoch;
}

void world_set_home(World *w, const IslandField *home) {
    WorldGenParams p = w->params.gen;   /* the same field with the new island */
    w->home = home;
    world_set_gen_params(w, &p);
}

void world_set_live_params(World *w, const WorldLiveParams *p) { live_apply(w, p); }

/* Does p's field differ from the world's? Every generation value of the table (normalised
 * values compare as the world would make them). */
static bool gen_differs(const World *w, const WorldGenParams *p) {
    WorldGen g;
    gen_init(&g, p, NULL);
    WorldParams a, b;
    a.gen = g.p;
    b.gen = w->params.gen;
    for (size_t i = 0; i < world_param_count(); i++) {
        const WorldParamDesc *d = world_param_at(i);
        if (d->cls != WORLD_PARAM_GEN) continue;
        if (!world_param_equal(&a, &b, d)) return true;
    }
    return false;
}

void world_set_params(World *w, const WorldParams *p) {
    if (gen_differs(w, &p->gen)) world_set_gen_params(w, &p->gen);
    world_set_live_params(w, &p->live);
}

/* The snapshot a point reads: its cell's island (baked here if need be), the current one beyond
 * the generated world. The World is the caller's, mutable behind the const of the queries. */
static const WorldGen *point_gen(const World *w, double x, double z) {
    if (!world_coord_usable(x, z)) return &w->gens[w->cur_gen];
    return isl_gen_at((World *)w, (int64_t)floor(x), (int64_t)floor(z));
}

float world_density_at(const World *w, double x, double y, double z) {
    return gen_density_point(point_gen(w, x, z), x, y, z);
}

bool world_solid_at(const World *w, double x, double y, double z) { return world_density_at(w, x, y, z) > 0.0f; }

int32_t world_water_level(const World *w, double x, double z) {
    if (!world_coord_usable(x, z)) return 0;
    return gen_home_water_y(point_gen(w, x, z), (int64_t)floor(x), (int64_t)floor(z));
}

/* The block's centre decides, as for rock (world_solid_at): gen_water_top (pools.c). */
int32_t world_water_top(const World *w, double x, double y, double z) {
    if (!world_coord_usable(x, z)) return 0;
    return gen_water_top(point_gen(w, x, z), x, y, z);
}

bool world_water_at(const World *w, double x, double y, double z) { return world_water_top(w, x, y, z) != 0; }

/* ---------------------------------------------------------------- per frame */
/* The LOD anchor follows the camera's chunk with lod_hysteresis chunks of slack per axis. */
static void update_anchor(World *w, const ViewGeom *g) {
    const WorldLiveParams *p = &w->params.live;
    int64_t cx = (int64_t)floor(g->ccx), cz = (int64_t)floor(g->ccz);
    if (!w->anchor_valid) {
        w->anchor_x = cx;
        w->anchor_z = cz;
        w->anchor_valid = true;
        return;
    }
    double h = p->lod_hysteresis;
    if (g->ccx < w->anchor_x - h || g->ccx > w->anchor_x + 1 + h) w->anchor_x = cx;
    if (g->ccz < w->anchor_z - h || g->ccz > w->anchor_z + 1 + h) w->anchor_z = cz;
}

/* A usable view: no NaN or infinity, and inside the generated world (WORLD_COORD_LIMIT). */
static bool view_usable(const WorldView *v) { return world_coord_usable(v->x, v->z); }

/* The keep distance grows back (slowly) while the pool has room for a batch of jobs on top of
 * those in flight. */
static void regrow_keep(World *w) {
    MemPoolStats ps = mem_pool_stats(&w->slabs);
    double room = (double)(ps.capacity - ps.in_use);
    if (w->radius_eff < w->radius_max && room > w->reserve_slabs + 16.0 * (w->slabs_per_chunk + 1.0))
        w->radius_eff += 0.05;
}

/* The frame's time step (the governor's calm test allows a frame) and the last view. */
static void note_frame(World *w, const WorldView *v) {
    double dt = v->time_s - w->last_time_s;
    if (dt > 0.0 && dt < 1.0) w->frame_dt_s = dt < 1.0 / 240.0 ? 1.0 / 240.0 : dt;
    w->last_time_s = v->time_s;
    w->last_view = *v;
    w->have_view = true;
    w->st.frames++;
}

/* A chunk's offset from the LOD anchor, held in int32 (the anchor follows the camera, so the
 * chunks scanned lie a reach away; a far one still counts as far). */
static int32_t anchor_offset(int64_t d) { return d > INT32_MAX ? INT32_MAX : (d < -INT32_MAX ? -INT32_MAX : (int32_t)d); }

/* One frame's scan of the chunks around the camera. */
typedef struct FrameScan {
    const WorldLiveParams *p;
    bool pressed;               /* the governor holds generation back */
    uint8_t classic;            /* LOD off: classic LOD-0 meshes */
    uint64_t now;
    double lat;                 /* a request arrives a new chunk's usual latency, half again as slack */
    uint32_t wanted, voids;     /* chunks in the request range; needed, ahead and without a mesh */
    double margin;              /* least time by which a missing chunk arrives before its need */
    Pick picks[PICK_MAX];       /* a max-heap on score while scanning, then sorted best first */
    uint32_t npick, want_picks;
} FrameScan;

/* A chunk as the scan sees it: its slot, whether it holds this chunk, whether the chunk is in
 * the request range and ahead, and the travel before it is needed. */
typedef struct ScanChunk {
    const ChunkSlot *s;
    bool mine, in, ahead;
    double travel;
} ScanChunk;

/* Chunk (cx, cz)'s share of the frame's counts: wanted, void, and how early a missing chunk
 * arrives before it is needed on the current heading. */
static void scan_count(const ViewGeom *g, FrameScan *fs, int64_t cx, int64_t cz, ScanChunk *c) {
    double d = stream_dist_to(g->ccx, g->ccz, cx, cz);
    double a = (double)cx + 0.5 - g->ccx, b = (double)cz + 0.5 - g->ccz;
    c->ahead = (g->dx == 0.0 && g->dz == 0.0) || a * g->dx + b * g->dz > 0.0;
    bool missing = !(c->mine && c->s->state == SLOT_READY);
    /* Void: needed (inside the reach held - 1, ahead) and without any mesh. */
    if (missing && d <= g->need && c->ahead) fs->voids++;
    c->in = stream_in_range(g, cx, cz, 0.0);
    fs->wanted += c->in;
    c->travel = g->speed >= PRIORITY_MIN_SPEED && (c->in || c->mine) ? stream_travel_to_need(g, cx, cz) : INFINITY;
    if (missing && c->in && !isinf(c->travel)) {
        double arrive = fs->lat;
        if (c->mine) {
            double age = (double)(fs->now - c->s->req_ns) * 1e-9;
            arrive = fs->lat > age ? fs->lat - age : 0.0;
        }
        double m = c->travel / g->speed - arrive;
        if (m < fs->margin) fs->margin = m;
    }
}

/* The request score of chunk (cx, cz) at `lod`; false when it needs no job: chunks without a
 * mesh, stale ones, and those whose mesh is at another LOD than their distance asks for. A LOD
 * change never makes void, so it waits behind the new chunks ahead (lod_refine_penalty), and
 * one that only coarsens waits longest. */
static bool scan_score(const ViewGeom *g, const FrameScan *fs, int64_t cx, int64_t cz, const ScanChunk *c, int lod,
                       double *score) {
    const ChunkSlot *s = c->s;
    if (!c->mine || (s->state == SLOT_READY && !s->busy && s->stale)) {
        /* New, or the old world still shows here: rebuilt as soon as a new chunk would be. */
        if (!c->in) return false;
        *score = stream_priority(fs->p, g, cx, cz, c->travel);
        return true;
    }
    if (s->state != SLOT_READY || s->busy || ((int)s->lod == lod && s->classic == fs->classic)) return false;
    /* A LOD band change, or LOD switched on or off (seam faces come or go). Kept chunks (the
     * ring past the reach) are still drawn: they follow too, except that while the governor
     * holds generation back a chunk left behind keeps its finer mesh (coarsening only saves
     * memory, and it goes out of reach soon). */
    bool coarser = lod > (int)s->lod && s->classic == fs->classic;
    if (coarser && fs->pressed && !c->ahead) return false;
    *score = stream_priority(fs->p, g, cx, cz, c->travel) + (coarser ? fs->p->lod_coarsen_penalty : fs->p->lod_refine_penalty);
    return true;
}

/* Every chunk the camera or the lead point may want: the counts, and the best requests as
 * many as there are free job records (at most PICK_MAX). */
static void scan_wanted(World *w, const ViewGeom *g, FrameScan *fs) {
    fs->p = &w->params.live;
    fs->pressed = w->gov.level > 0;
    fs->classic = w->gov.lod_levels == 0;
    fs->now = time_now_ns();
    fs->lat = w->fresh_latency_s * 1.5;
    fs->wanted = fs->voids = 0;
    fs->margin = INFINITY;
    uint32_t free_slots = w->in_flight < w->max_in_flight ? w->max_in_flight - w->in_flight : 0;
    fs->npick = 0;
    fs->want_picks = free_slots < PICK_MAX ? free_slots : PICK_MAX;
    int64_t ccx = (int64_t)floor(g->ccx), ccz = (int64_t)floor(g->ccz);
    int32_t reach = g->radius + LOOKAHEAD_MAX + 1;   /* g->reach <= g->keep <= g->radius */
    for (int32_t dz = -reach; dz <= reach; dz++)
        for (int32_t dx = -reach; dx <= reach; dx++) {
            int64_t cx = ccx + dx, cz = ccz + dz;
            ScanChunk c;
            c.s = &w->slots[stream_slot_index(w, cx, cz)];
            c.mine = c.s->state != SLOT_EMPTY && c.s->cx == cx && c.s->cz == cz;
            scan_count(g, fs, cx, cz, &c);
            if (fs->want_picks == 0) continue;
            int lod = stream_gov_lod_at(&w->gov, anchor_offset(cx - w->anchor_x), anchor_offset(cz - w->anchor_z));
            double sc;
            if (!scan_score(g, fs, cx, cz, &c, lod, &sc)) continue;
            Pick pk = {cx, cz, (int8_t)lod, sc};
            if (fs->npick < fs->want_picks) stream_picks_push(fs->picks, &fs->npick, pk);
            else if (sc < fs->picks[0].score) stream_picks_replace_top(fs->picks, fs->npick, pk);
        }
    w->st.wanted = fs->wanted;
    w->st.void_chunks = fs->voids;
    if (fs->voids) w->st.void_frames++;
}

/* Seconds of work per worker the queue may hold: QUEUE_BUDGET_S, less in fast flight. */
static double queue_budget_s(const ViewGeom *g) {
    double budget = QUEUE_BUDGET_S;
    if (g->speed >= PRIORITY_MIN_SPEED) {
        double lead = stream_dist_to(g->ccx, g->ccz, (int64_t)floor(g->lx), (int64_t)floor(g->lz));
        double window = (lead + 1.0) / g->speed / 3.0;
        if (window < budget) budget = window > QUEUE_BUDGET_MIN_S ? window : QUEUE_BUDGET_MIN_S;
    }
    return budget;
}

/* A bake of cell's island on the workers unless one is under way or done; into a free slot or the
 * farthest one that no chunk job reads (never one nearer than this cell). */
static void request_island(World *w, const ViewGeom *g, int64_t cell_x, int64_t cell_z) {
    for (uint32_t i = 0; i + 1 < w->nisl; i++)
        if (w->isl[i].state != ISL_FREE && w->isl[i].cell_x == cell_x && w->isl[i].cell_z == cell_z) return;
    double bx = g->ccx * CHUNK_SIZE, bz = g->ccz * CHUNK_SIZE;
    int32_t k = isl_slot_for(w, cell_x, cell_z, bx, bz);
    if (k >= 0 && w->jobs) stream_island_submit(w, (uint32_t)k, cell_x, cell_z);
}

/* Islands before the chunks that need them: every cell with an island within the keep distance
 * and the next seconds of flight of the camera gets its bake, nearest first. */
#define ISLAND_LEAD_S 2.0
static void request_islands(World *w, const ViewGeom *g) {
    if (w->isrc.cell_m <= 0) return;
    double bx = g->ccx * CHUNK_SIZE, bz = g->ccz * CHUNK_SIZE;
    double r = (stream_keep(w) + LOOKAHEAD_MAX + 2) * CHUNK_SIZE + g->speed * CHUNK_SIZE * ISLAND_LEAD_S;
    if (r > 2.0 * (double)w->isrc.cell_m) r = 2.0 * (double)w->isrc.cell_m;
    const double m = (double)w->isrc.cell_m, half = 0.5 * m;
    int64_t x0 = isl_cell_of(w, (int64_t)floor(bx - r)), x1 = isl_cell_of(w, (int64_t)floor(bx + r));
    int64_t z0 = isl_cell_of(w, (int64_t)floor(bz - r)), z1 = isl_cell_of(w, (int64_t)floor(bz + r));
    struct { int64_t x, z; double d2; } want[25];
    uint32_t n = 0;
    for (int64_t cz = z0; cz <= z1; cz++)
        for (int64_t cx = x0; cx <= x1 && n < 25; cx++) {
            if (isl_for_cell(w, cx, cz) != ISL_WAIT) continue;
            /* distance from the camera to the cell's square */
            double ex = fabs(bx - (double)cx * m) - half, ez = fabs(bz - (double)cz * m) - half;
            ex = ex > 0.0 ? ex : 0.0;
            ez = ez > 0.0 ? ez : 0.0;
            double d2 = ex * ex + ez * ez;
            if (d2 > r * r) continue;
            uint32_t i = n++;
            for (; i > 0 && want[i - 1].d2 > d2; i--) want[i] = want[i - 1];
            want[i].x = cx;
            want[i].z = cz;
            want[i].d2 = d2;
        }
    for (uint32_t i = 0; i < n; i++) request_island(w, g, want[i].x, want[i].z);
}

/* Submits pick pk when the pool keeps a slab reserve for the jobs in flight and the queue has
 * room; false when this frame submits no more. */
static bool submit_pick(World *w, const ViewGeom *g, Pick pk, double queue_budget, double time_s) {
    MemPoolStats ps = mem_pool_stats(&w->slabs);
    double reserve = (double)w->reserve_slabs + stream_job_expect(w, pk.lod);
    double d = stream_dist_to(g->ccx, g->ccz, pk.cx, pk.cz);
    while ((double)(ps.capacity - ps.in_use) < reserve && stream_evict_farthest(w, g, d + 0.5))
        ps = mem_pool_stats(&w->slabs);
    if ((double)(ps.capacity - ps.in_use) < reserve) {
        stream_shrink_reach(w, d);   /* degrade: the pool holds less than the radius */
        return true;
    }
    /* Enough work queued (best first, so what waits is what matters least); a few jobs per
     * worker always go, so the measured times stay current. LOD swaps fill half the budget at
     * most: a new chunk never queues behind a full budget of them. */
    uint32_t idx = stream_slot_index(w, pk.cx, pk.cz);
    ChunkSlot *s = &w->slots[idx];
    bool swap = s->state == SLOT_READY && s->cx == pk.cx && s->cz == pk.cz;
    double budget = queue_budget * w->nworkers * (swap && !s->stale ? 0.5 : 1.0);
    if (w->queued_s > budget && w->in_flight >= 2 * w->nworkers) return swap;
    /* The island of the chunk's cell first: until it is baked the chunk waits (a bake goes out). */
    int64_t cell_x = 0, cell_z = 0;
    int32_t isl = ISL_AS_IS;
    if (w->isrc.cell_m > 0) {
        cell_x = isl_cell_of(w, pk.cx * CHUNK_SIZE + CHUNK_SIZE / 2);
        cell_z = isl_cell_of(w, pk.cz * CHUNK_SIZE + CHUNK_SIZE / 2);
        isl = isl_for_cell(w, cell_x, cell_z);
        if (isl == ISL_WAIT) {
            w->st.island_waits++;
            request_island(w, g, cell_x, cell_z);
            return true;
        }
    }
    if (!swap && s->state != SLOT_EMPTY) stream_slot_clear(w, idx, true);
    return stream_job_submit(w, idx, pk.cx, pk.cz, pk.lod, time_s, isl, cell_x, cell_z);
}

/* The frame's picks, best first, until the pool or the queue says enough. */
static void submit_picks(World *w, const ViewGeom *g, FrameScan *fs, double time_s) {
    stream_picks_sort(fs->picks, fs->npick);
    double queue_budget = queue_budget_s(g);
    for (uint32_t n = 0; n < fs->npick && w->jobs; n++)
        if (!submit_pick(w, g, fs->picks[n], queue_budget, time_s)) break;
}

void world_update(World *w, const WorldView *v) {
    if (!view_usable(v)) return;   /* a broken view is ignored */
    regrow_keep(w);
    ViewGeom g;
    stream_view_geom(&w->params.live, stream_keep(w), stream_reach(w), v, &g);
    note_frame(w, v);
    update_anchor(w, &g);
    stream_jobs_collect(w, &g);
    stream_evict_out_of_keep(w, &g);
    request_islands(w, &g);
    FrameScan fs;
    scan_wanted(w, &g, &fs);
    submit_picks(w, &g, &fs, v->time_s);
    /* The governor looks at what is still missing once this frame's requests are out. */
    /* Filled: nothing the flight needs is missing (no void ahead) and no missing chunk of the
     * request range will arrive late; what is still missing is on its way in time. */
    bool filled = fs.voids == 0 && fs.margin >= 0.0;
    stream_gov_update(&w->gov, &g, fs.voids, fs.margin, w->fresh_latency_s * 1.5 + w->frame_dt_s, filled);
}

void world_note_jump(World *w) {
    if (w) stream_gov_note_jump(&w->gov);
}

/* ---------------------------------------------------------------- stats & direct builds */
WorldStats world_stats(const World *w) {
    WorldStats s = w->st;
    MemPoolStats sp = mem_pool_stats((MemPool *)&w->slabs);
    MemPoolStats rp = mem_pool_stats((MemPool *)&w->records);
    s.epoch = w->epoch;
    s.in_flight = w->in_flight;
    s.slabs_capacity = sp.capacity;
    s.slabs_in_use = sp.in_use;
    s.slabs_peak = sp.peak;
    s.records_capacity = rp.capacity;
    s.records_peak = rp.peak;
    s.table_slots = w->table_w * w->table_w;
    /* What is streamed now: the view radius in use, or less while the pool holds less or the
     * governor pulls it in. */
    s.reach = (float)stream_reach(w);
    const StreamGovernor *gv = &w->gov;
    s.gov_level = (uint32_t)gv->level;
    s.gov_level_max = (uint32_t)gv->max;
    s.gov_level_peak = gv->level_peak;
    s.gov_lod_steps = (uint32_t)stream_gov_lod_steps(gv);
    s.gov_steps_up = gv->steps_up;
    s.gov_steps_down = gv->steps_down;
    s.gov_jumps = gv->jumps;
    s.gov_jumps_filled = gv->jumps_filled;
    s.gov_jump_frames = gv->jump_frames;
    for (int i = 0; i < WORLD_LOD_MAX; i++) s.lod_dist_in_force[i] = i < gv->lod_levels ? sqrtf(gv->lod_d2[i]) : 0.0f;
    s.fresh_latency_ms = (float)(w->fresh_latency_s * 1e3);
    s.islands_ready = s.islands_baking = 0;
    for (uint32_t i = 0; i + 1 < w->nisl; i++) {
        s.islands_ready += w->isl[i].state == ISL_READY;
        s.islands_baking += w->isl[i].state == ISL_BAKING;
    }
    s.lod_anchor_x = w->anchor_x;
    s.lod_anchor_z = w->anchor_z;
    return s;
}

void world_lod_anchor(const World *w, int64_t *ax, int64_t *az) {
    if (ax) *ax = w->anchor_x;
    if (az) *az = w->anchor_z;
}

/* The snapshot a chunk reads: its centre's cell's island (the main thread's point-query copy). */
static const WorldGen *chunk_gen(World *w, int64_t cx, int64_t cz) {
    return isl_gen_at(w, cx * CHUNK_SIZE + CHUNK_SIZE / 2, cz * CHUNK_SIZE + CHUNK_SIZE / 2);
}

static bool build_direct(World *w, int64_t cx, int64_t cz, int lod, double time_s, ChunkMesh *out, WorldBuildTiming *t) {
    const WorldGen *g = chunk_gen(w, cx, cz);
    uint64_t t0 = time_now_ns();
    if (lod < 0) gen_chunk_voxels(g, cx, cz, time_s, w->main_scratch);
    else gen_chunk_voxels_lod(g, cx, cz, time_s, lod > WORLD_LOD_MAX ? WORLD_LOD_MAX : lod, w->main_scratch);
    uint64_t t1 = time_now_ns();
    MeshCounts mc;
    bool ok = mesh_chunk(g, w->main_scratch, &w->slabs, out, &mc);
    uint64_t t2 = time_now_ns();
    out->epoch = w->epoch;
    w->main_vox_valid = false;
    if (t) {
        t->density_ms = (double)(t1 - t0) * 1e-6;
        t->mesh_ms = (double)(t2 - t1) * 1e-6;
        t->faces = mc.faces;
        t->opaque_verts = mc.opaque_verts;
        t->cloud_verts = mc.cloud_verts;
        t->cells_total = w->main_scratch->cells_total;
        t->cells_skipped = w->main_scratch->cells_skipped;
        t->out_of_slabs = !ok;
    }
    return ok;
}

bool world_build_chunk(World *w, int64_t cx, int64_t cz, double time_s, ChunkMesh *out, WorldBuildTiming *t) {
    return build_direct(w, cx, cz, -1, time_s, out, t);
}

bool world_build_chunk_lod(World *w, int64_t cx, int64_t cz, int lod, double time_s, ChunkMesh *out,
                           WorldBuildTiming *t) {
    return build_direct(w, cx, cz, lod < 0 ? 0 : lod, time_s, out, t);
}

void world_free_mesh(World *w, ChunkMesh *m) { mesh_free(&w->slabs, m); }

const uint8_t *world_debug_voxels(const World *w, int32_t *height_with_apron) {
    World *mw = (World *)w;
    const WorldGen *g = chunk_gen(mw, w->main_scratch->cx, w->main_scratch->cz);
    if (!mw->main_vox_valid) {
        gen_fill_vox(g, mw->main_scratch);
        mw->main_vox_valid = true;
    }
    if (height_with_apron) *height_with_apron = w->main_scratch->ny + 2;
    return w->main_scratch->vox;
}
