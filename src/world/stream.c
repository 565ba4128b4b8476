/* skyisles world: the World. Toroidal chunk table, priority requests on the worker pool by
 * time to reach (what to ask for, and the speed governor, are reach.c's), LOD by distance with
 * old meshes kept until their replacement, bounded collection, eviction, epochs, renderer events,
 * counters; all carved at creation. */
#include "world/stream_internal.h"

#include <math.h>
#include <string.h>
#include <time.h>

static inline uint32_t wrap_index(int32_t v, uint32_t w) {
    int32_t m = v % (int32_t)w;
    return (uint32_t)(m < 0 ? m + (int32_t)w : m);
}
static uint32_t slot_index(const World *w, int32_t cx, int32_t cz) {
    return wrap_index(cz, w->table_w) * w->table_w + wrap_index(cx, w->table_w);
}

/* ---------------------------------------------------------------- events */
static void event_push(World *w, WorldEventType type, int32_t cx, int32_t cz, const ChunkMesh *mesh, uint32_t slot) {
    if (w->ev_count == w->ev_cap) {
        EventEntry *old = &w->events[w->ev_head];
        if (!old->withdrawn && old->ev.type == WORLD_EV_MESH_READY) {
            ChunkSlot *s = &w->slots[old->slot];
            s->ready_pending = 0;
            s->ready_taken = 1;   /* lost, but a GONE will still close it */
        }
        w->ev_head = (w->ev_head + 1) % w->ev_cap;
        w->ev_count--;
        w->st.events_lost++;
    }
    EventEntry *e = &w->events[(w->ev_head + w->ev_count) % w->ev_cap];
    e->ev.type = type;
    e->ev.cx = cx;
    e->ev.cz = cz;
    e->ev.mesh = mesh;
    e->slot = slot;
    e->withdrawn = false;
    w->ev_count++;
}

static void event_withdraw_ready(World *w, uint32_t slot) {
    for (uint32_t i = 0; i < w->ev_count; i++) {
        EventEntry *e = &w->events[(w->ev_head + i) % w->ev_cap];
        if (e->slot == slot && !e->withdrawn && e->ev.type == WORLD_EV_MESH_READY) e->withdrawn = true;
    }
}

size_t world_take_events(World *w, WorldEvent *out, size_t max) {
    size_t n = 0;
    while (n < max && w->ev_count > 0) {
        EventEntry *e = &w->events[w->ev_head];
        w->ev_head = (w->ev_head + 1) % w->ev_cap;
        w->ev_count--;
        if (e->withdrawn) continue;
        if (e->ev.type == WORLD_EV_MESH_READY) {
            ChunkSlot *s = &w->slots[e->slot];
            s->ready_pending = 0;
            s->ready_taken = 1;
        }
        out[n++] = e->ev;
    }
    return n;
}

/* ---------------------------------------------------------------- slots */
static void slot_clear(World *w, uint32_t idx, bool count_evicted) {
    ChunkSlot *s = &w->slots[idx];
    if (s->state == SLOT_READY) {
        if (s->ready_pending) event_withdraw_ready(w, idx);
        if (s->ready_taken) event_push(w, WORLD_EV_CHUNK_GONE, s->cx, s->cz, NULL, idx);
        mesh_free(&w->slabs, &s->mesh);
        if (count_evicted) w->st.evicted++;
        if (w->st.resident) w->st.resident--;
        if (w->st.resident_lod[s->lod]) w->st.resident_lod[s->lod]--;
    }
    if (s->stale && w->st.stale) w->st.stale--;
    s->stale = 0;
    s->state = SLOT_EMPTY;
    s->ready_pending = s->ready_taken = 0;
    s->busy = 0;
    s->slabs = 0;
}

void world_release_mesh(World *w, int32_t cx, int32_t cz) {
    uint32_t idx = slot_index(w, cx, cz);
    ChunkSlot *s = &w->slots[idx];
    if (s->state != SLOT_READY || s->cx != cx || s->cz != cz) return;
    /* The consumer uploaded what the mesh holds now. A READY for this content still in the
     * ring (a LOD swap after the consumer queued the chunk) would hand it an emptied mesh. */
    if (s->ready_pending) {
        event_withdraw_ready(w, idx);
        s->ready_pending = 0;
        s->ready_taken = 1;
    }
    mesh_free(&w->slabs, &s->mesh);
    s->slabs = 0;
}

/* ---------------------------------------------------------------- jobs */
static void job_finish_record(World *w, ChunkJob *j) {
    w->queued_s = w->queued_s > j->expect_s ? w->queued_s - j->expect_s : 0.0;
    mesh_free(&w->slabs, &j->mesh);
    w->reserve_slabs = w->reserve_slabs > j->expect ? w->reserve_slabs - j->expect : 0;
    if (w->gen_refs[j->gen_index]) w->gen_refs[j->gen_index]--;
    mem_pool_free(&w->records, j);
    if (w->in_flight) w->in_flight--;
}

static uint64_t thread_cpu_ns(void) {
    struct timespec t;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0;
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Sleeps the calling worker until time_now_ns() reaches t (interrupted sleeps resume). */
static void sleep_until_ns(uint64_t t) {
    for (;;) {
        uint64_t now = time_now_ns();
        if (now >= t) return;
        uint64_t d = t - now;
        struct timespec ts = {(time_t)(d / 1000000000u), (long)(d % 1000000000u)};
        nanosleep(&ts, NULL);
    }
}

static void chunk_job_run(JobDesc *jd, uint32_t worker, void *unused) {
    (void)unused;
    ChunkJob *j = jd->payload;
    World *w = j->w;
    ChunkScratch *s = w->scratch[worker < w->nworkers ? worker : 0];
    uint32_t kb = atomic_load_explicit(&w->stretch_bits, memory_order_relaxed);
    uint64_t t0 = time_now_ns(), c0 = thread_cpu_ns();
    if (j->classic) gen_chunk_voxels(j->gen, j->cx, j->cz, j->time_s, s);
    else gen_chunk_voxels_lod(j->gen, j->cx, j->cz, j->time_s, j->lod, s);
    j->oom = !mesh_chunk(j->gen, s, &w->slabs, &j->mesh, &j->counts);
    j->cpu_ns = thread_cpu_ns() - c0;
    if (kb) {
        /* A CPU k times slower: the job ends k times its CPU time after it started. */
        float k;
        memcpy(&k, &kb, sizeof k);
        sleep_until_ns(t0 + (uint64_t)((double)k * (double)j->cpu_ns));
    }
    j->wall_ns = time_now_ns() - t0;
}

static void chunk_job_drop(JobDesc *jd) {
    ChunkJob *j = jd->payload;
    j->w->st.dropped++;
    job_finish_record(j->w, j);
}

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
    /* WORLD_BUDGET_RESERVE_MIB stay for the others; the reach shrinks past what the pool holds. */
    size_t free_b = mem_budget_free(b), keep = (size_t)WORLD_BUDGET_RESERVE_MIB << 20;
    uint64_t fit = free_b > keep ? (free_b - keep) / (slab_bytes + 8) : 0;
    uint32_t nslabs = (uint32_t)(want < fit ? want : fit);
    w->st.pool_squeezed = want > fit;
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

static void drain_all(World *w) {
    if (!w->jobs) return;
    JobDesc out[16];
    jobs_wait_idle(w->jobs);
    size_t n;
    while ((n = jobs_collect(w->jobs, out, 16)) > 0)
        for (size_t i = 0; i < n; i++) {
            w->st.dropped++;
            job_finish_record(w, out[i].payload);
        }
}

void world_destroy(World *w) {
    if (!w) return;
    if (w->jobs) {
        jobs_new_epoch(w->jobs);   /* queued jobs are dropped (records returned) */
        drain_all(w);
    }
    uint32_t nslots = w->table_w * w->table_w;
    for (uint32_t i = 0; i < nslots; i++) slot_clear(w, i, false);
}

/* ---------------------------------------------------------------- parameters */
const WorldParams *world_params(const World *w) { return &w->params; }

const IslandField *world_home(const World *w) { return w->home; }

void world_set_gen_params(World *w, const WorldGenParams *p) {
    /* A free snapshot slot: not current and no job still reading it. */
    uint32_t slot = WORLD_GENS;
    if (w->jobs) w->epoch = jobs_new_epoch(w->jobs);   /* drops queued jobs: their refs go */
    else w->epoch++;
    for (int attempt = 0; attempt < 2 && slot == WORLD_GENS; attempt++) {
        for (uint32_t i = 0; i < WORLD_GENS; i++)
            if (i != w->cur_gen && w->gen_refs[i] == 0) { slot = i; break; }
        if (slot == WORLD_GENS) drain_all(w);   /* rare: running jobs of several old epochs */
    }
    if (slot == WORLD_GENS) slot = (w->cur_gen + 1) % WORLD_GENS;   /* unreachable after a drain */
    gen_init(&w->gens[slot], p, w->home);
    w->cur_gen = slot;
    w->params.gen = w->gens[slot].p;
    /* Chunks on screen keep their mesh, marked stale, until their rebuild in the new world
     * replaces it (nearest first, like new chunks): a change never opens a void. Nothing of the
     * old world goes out after the change: READY events not taken yet are withdrawn, and a chunk
     * whose mesh was never taken is simply requested again. */
    uint32_t nslots = w->table_w * w->table_w;
    for (uint32_t i = 0; i < nslots; i++) {
        ChunkSlot *s = &w->slots[i];
        if (s->state == SLOT_READY && s->ready_pending) {
            event_withdraw_ready(w, i);
            s->ready_pending = 0;
        }
        if (s->state == SLOT_READY && s->ready_taken) {
            s->busy = 0;
            if (!s->stale) w->st.stale++;
            s->stale = 1;
        } else {
            slot_clear(w, i, false);
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

float world_density_at(const World *w, double x, double y, double z) {
    return gen_density_point(&w->gens[w->cur_gen], x, y, z);
}

bool world_solid_at(const World *w, double x, double y, double z) { return world_density_at(w, x, y, z) > 0.0f; }

/* ---------------------------------------------------------------- per frame */
static void record_latency(World *w, uint64_t submit_ns, uint64_t now_ns) {
    double ms = (double)(now_ns - submit_ns) * 1e-6;
    uint32_t bin = (uint32_t)(ms / LAT_BIN_MS);
    if (bin >= LAT_BINS) bin = LAT_BINS - 1;
    w->lat_hist[bin]++;
    w->lat_count++;
}

double world_latency_ms(const World *w, double q) {
    if (w->lat_count == 0) return 0.0;
    uint64_t target = (uint64_t)(q * (double)(w->lat_count - 1));
    uint64_t acc = 0;
    for (uint32_t i = 0; i < LAT_BINS; i++) {
        acc += w->lat_hist[i];
        if (acc > target) return (i + 0.5) * LAT_BIN_MS;
    }
    return LAT_BINS * LAT_BIN_MS;
}

/* Evicts the resident chunk farthest from the camera if it is farther than `than`. */
static bool evict_farthest(World *w, const ViewGeom *g, double than) {
    uint32_t nslots = w->table_w * w->table_w, best = UINT32_MAX;
    double bd = than;
    for (uint32_t i = 0; i < nslots; i++) {
        ChunkSlot *s = &w->slots[i];
        if (s->state != SLOT_READY || s->slabs == 0) continue;
        double d = stream_dist_to(g->ccx, g->ccz, s->cx, s->cz);
        if (d > bd) { bd = d; best = i; }
    }
    if (best == UINT32_MAX) return false;
    slot_clear(w, best, true);
    w->st.pool_evictions++;
    return true;
}

/* The pool cannot hold chunks this far: pull the reach in below them (M3: lower the view
 * distance rather than fail). It grows back while the pool has room. */
static void shrink_reach(World *w, double d) {
    double r = d - 0.25;
    if (r < 1.5) r = 1.5;
    if (r < w->radius_eff) {
        w->radius_eff = r;
        w->st.reach_shrinks++;
    }
}

static void install_counts(World *w, const ChunkJob *j) {
    w->st.generated++;
    w->st.generated_lod[j->lod]++;
    if (j->counts.truncated) w->st.mesh_truncated++;
    uint32_t v = j->counts.opaque_verts + j->counts.cloud_verts;
    w->st.verts_total += v;
    w->st.verts_lod[j->lod] += v;
}

static void collect(World *w, const ViewGeom *g) {
    if (!w->jobs) return;
    const WorldLiveParams *p = &w->params.live;
    uint32_t max = p->max_results_per_frame ? p->max_results_per_frame : 1;
    JobDesc out[64];
    uint64_t now = time_now_ns();
    while (max > 0) {
        size_t n = jobs_collect(w->jobs, out, max < 64 ? max : 64);
        if (n == 0) break;
        max -= (uint32_t)n;
        for (size_t i = 0; i < n; i++) {
            ChunkJob *j = out[i].payload;
            ChunkSlot *s = &w->slots[j->slot];
            bool mine = out[i].epoch == w->epoch && s->seq == j->seq && s->cx == j->cx && s->cz == j->cz &&
                        (s->state == SLOT_QUEUED || (s->state == SLOT_READY && s->busy));
            w->st.job_cpu_ns += j->cpu_ns;
            w->st.job_wall_ns += j->wall_ns;
            w->st.jobs_timed++;
            if (j->wall_ns) w->job_s_lod[j->lod] = w->job_s_lod[j->lod] * 0.95 + (double)j->wall_ns * 1e-9 * 0.05;
            if (!mine || !stream_in_keep(g, j->cx, j->cz, 1.0)) {
                if (mine) s->busy = 0;
                if (mine && s->state == SLOT_QUEUED) s->state = SLOT_EMPTY;
                w->st.dropped++;
                job_finish_record(w, j);
                continue;
            }
            if (s->state == SLOT_READY) {
                /* A LOD swap: the old mesh stays until this one is installed in its place. */
                s->busy = 0;
                if (j->oom || (!s->stale && (int)s->lod == j->lod && s->classic == j->classic)) {
                    if (j->oom) w->st.mesh_pool_failures++;
                    else w->st.dropped++;
                    job_finish_record(w, j);
                    continue;
                }
                if (s->ready_pending) event_withdraw_ready(w, j->slot);
                mesh_free(&w->slabs, &s->mesh);
                if (w->st.resident_lod[s->lod]) w->st.resident_lod[s->lod]--;
                if (s->stale) {
                    s->stale = 0;
                    if (w->st.stale) w->st.stale--;
                    w->st.stale_replaced++;
                } else {
                    w->st.lod_swaps++;
                }
            } else if (j->oom) {
                /* Out of slabs: this chunk waits; farther chunks make room for it. */
                w->st.mesh_pool_failures++;
                s->state = SLOT_EMPTY;
                job_finish_record(w, j);
                double d = stream_dist_to(g->ccx, g->ccz, s->cx, s->cz);
                if (!evict_farthest(w, g, d)) shrink_reach(w, d);
                continue;
            } else {
                s->state = SLOT_READY;
                s->ready_taken = 0;
                w->st.resident++;
            }
            s->mesh = j->mesh;
            s->mesh.epoch = w->epoch;
            s->lod = (uint8_t)j->lod;
            s->classic = j->classic;
            s->slabs = mesh_slab_count(&w->slabs, &j->mesh);
            memset(&j->mesh, 0, sizeof j->mesh);   /* ownership moved to the slot */
            s->ready_pending = 1;
            w->st.resident_lod[s->lod]++;
            install_counts(w, j);
            w->slabs_per_chunk = w->slabs_per_chunk * 0.98 + (double)s->slabs * 0.02;
            w->slabs_at_lod[s->lod] = w->slabs_at_lod[s->lod] * 0.95 + (double)s->slabs * 0.05;
            record_latency(w, out[i].t_submit_ns, now);
            if (j->fresh) {
                double lat = (double)(now - out[i].t_submit_ns) * 1e-9;
                w->fresh_latency_s = w->fresh_latency_s * 0.9 + lat * 0.1;
            }
            event_push(w, WORLD_EV_MESH_READY, s->cx, s->cz, &s->mesh, j->slot);
            job_finish_record(w, j);
        }
    }
}

/* Slabs a job at `lod` is expected to take: its LOD's running average, rounded up, plus one. */
static uint32_t job_expect(const World *w, int lod) { return (uint32_t)ceil(w->slabs_at_lod[lod]) + 1u; }

/* Requests chunk (cx, cz) at `lod` into slot idx. A slot that holds a mesh keeps it (READY,
 * busy) until the new one is collected, and the new mesh is built at the chunk's creation time
 * so its clouds stay where they were; otherwise the slot becomes QUEUED, created at time_s. */
static bool submit(World *w, uint32_t idx, int32_t cx, int32_t cz, int lod, double time_s) {
    ChunkSlot *s = &w->slots[idx];
    bool swap = s->state == SLOT_READY && s->cx == cx && s->cz == cz;
    ChunkJob *j = mem_pool_alloc(&w->records);
    if (!j) return false;
    memset(j, 0, sizeof *j);
    j->w = w;
    j->gen_index = w->cur_gen;
    j->gen = &w->gens[w->cur_gen];
    j->cx = cx;
    j->cz = cz;
    j->lod = lod;
    j->classic = w->gov.lod_levels == 0;
    j->slot = idx;
    j->seq = ++w->next_seq;
    j->expect = job_expect(w, lod);
    j->time_s = swap ? s->born_s : time_s;
    j->fresh = !swap;
    j->expect_s = w->job_s_lod[lod];
    JobDesc d = {chunk_job_run, chunk_job_drop, j, ((uint64_t)(uint32_t)cx << 32) | (uint32_t)cz, 0, 0, 0};
    if (!jobs_submit(w->jobs, &d)) {
        mem_pool_free(&w->records, j);
        return false;
    }
    w->gen_refs[w->cur_gen]++;
    w->in_flight++;
    w->queued_s += j->expect_s;
    w->reserve_slabs += j->expect;
    s->seq = j->seq;
    s->job_lod = (uint8_t)lod;
    if (swap) {
        s->busy = 1;
        w->st.lod_requests++;
    } else {
        s->cx = cx;
        s->cz = cz;
        s->born_s = time_s;
        s->req_ns = time_now_ns();
        s->state = SLOT_QUEUED;
        s->ready_pending = s->ready_taken = 0;
        s->busy = 0;
    }
    w->st.requested++;
    return true;
}

/* The LOD anchor follows the camera's chunk with lod_hysteresis chunks of slack per axis. */
static void update_anchor(World *w, const ViewGeom *g) {
    const WorldLiveParams *p = &w->params.live;
    int32_t cx = (int32_t)floor(g->ccx), cz = (int32_t)floor(g->ccz);
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

void world_set_job_stretch(World *w, float k) {
    uint32_t b = 0;
    if (k > 1.0f && k < 1000.0f) memcpy(&b, &k, sizeof b);
    atomic_store_explicit(&w->stretch_bits, b, memory_order_relaxed);
}

void world_update(World *w, const WorldView *v) {
    /* A broken view (NaN, or beyond the +-2^24-block range chunk maths is exact in) is ignored. */
    const double lim = 16777216.0;
    if (!(v->x > -lim && v->x < lim && v->z > -lim && v->z < lim)) return;
    ViewGeom g;
    MemPoolStats ps0 = mem_pool_stats(&w->slabs);
    double room = (double)(ps0.capacity - ps0.in_use);
    /* Grow back (slowly) while the pool has room for a batch of jobs on top of those in flight. */
    if (w->radius_eff < w->radius_max && room > w->reserve_slabs + 16.0 * (w->slabs_per_chunk + 1.0))
        w->radius_eff += 0.05;
    stream_view_geom(&w->params.live, stream_keep(w), stream_reach(w), v, &g);
    const WorldLiveParams *p = &w->params.live;
    double dt = v->time_s - w->last_time_s;
    if (dt > 0.0 && dt < 1.0) w->frame_dt_s = dt < 1.0 / 240.0 ? 1.0 / 240.0 : dt;
    w->last_time_s = v->time_s;
    w->last_view = *v;
    w->have_view = true;
    w->st.frames++;
    update_anchor(w, &g);

    collect(w, &g);

    /* Evict (or forget requests for) chunks out of reach, with one chunk of hysteresis. */
    uint32_t nslots = w->table_w * w->table_w;
    for (uint32_t i = 0; i < nslots; i++) {
        ChunkSlot *s = &w->slots[i];
        if (s->state == SLOT_EMPTY || stream_in_keep(&g, s->cx, s->cz, 1.0)) continue;
        slot_clear(w, i, s->state == SLOT_READY);
    }

    /* Wanted chunks: count the void ahead and pick the best requests: chunks without a mesh,
     * and chunks whose mesh is at another LOD than their distance asks for. A LOD change never
     * makes void, so it waits behind the new chunks ahead (lod_refine_penalty), and one that
     * only coarsens waits longest. */
    int32_t ccx = (int32_t)floor(g.ccx), ccz = (int32_t)floor(g.ccz);
    int32_t reach = g.radius + LOOKAHEAD_MAX + 1;   /* g.reach <= g.keep <= g.radius */
    uint32_t wanted = 0, voids = 0;
    const bool pressed = w->gov.level > 0;
    const uint64_t now = time_now_ns();
    const double lat = w->fresh_latency_s * 1.5;
    double margin = INFINITY;
    uint32_t free_slots = w->in_flight < w->max_in_flight ? w->max_in_flight - w->in_flight : 0;
    Pick picks[PICK_MAX];
    uint32_t npick = 0, want_picks = free_slots < PICK_MAX ? free_slots : PICK_MAX;
    const uint8_t classic = w->gov.lod_levels == 0;
    for (int32_t dz = -reach; dz <= reach; dz++)
        for (int32_t dx = -reach; dx <= reach; dx++) {
            int32_t cx = ccx + dx, cz = ccz + dz;
            uint32_t idx = slot_index(w, cx, cz);
            ChunkSlot *s = &w->slots[idx];
            bool mine = s->state != SLOT_EMPTY && s->cx == cx && s->cz == cz;
            double d = stream_dist_to(g.ccx, g.ccz, cx, cz);
            double a = (double)cx + 0.5 - g.ccx, b = (double)cz + 0.5 - g.ccz;
            bool ahead = (g.dx == 0.0 && g.dz == 0.0) || a * g.dx + b * g.dz > 0.0;
            /* Void: needed (inside the reach held - 1, ahead) and without any mesh. */
            if (!(mine && s->state == SLOT_READY) && d <= g.need && ahead) voids++;
            bool in = stream_in_range(&g, cx, cz, 0.0);
            wanted += in;
            bool missing = !(mine && s->state == SLOT_READY);
            double travel = g.speed >= PRIORITY_MIN_SPEED && (in || mine) ? stream_travel_to_need(&g, cx, cz) : INFINITY;
            if (missing && in && !isinf(travel)) {
                double arrive = lat;
                if (mine) {
                    double age = (double)(now - s->req_ns) * 1e-9;
                    arrive = lat > age ? lat - age : 0.0;
                }
                double m = travel / g.speed - arrive;
                if (m < margin) margin = m;
            }

            if (want_picks == 0) continue;
            int lod = stream_gov_lod_at(&w->gov, cx - w->anchor_x, cz - w->anchor_z);
            double sc;
            if (!mine) {
                if (!in) continue;
                sc = stream_priority(p, &g, cx, cz, travel);
            } else if (s->state == SLOT_READY && !s->busy && s->stale) {
                /* The old world still shows here: rebuilt as soon as a new chunk would be. */
                if (!in) continue;
                sc = stream_priority(p, &g, cx, cz, travel);
            } else if (s->state == SLOT_READY && !s->busy && ((int)s->lod != lod || s->classic != classic)) {
                /* A LOD band change, or LOD switched on or off (seam faces come or go). Kept
                 * chunks (the ring past the reach) are still drawn: they follow too, except that
                 * while the governor holds generation back a chunk left behind keeps its finer
                 * mesh (coarsening only saves memory, and it goes out of reach soon). */
                bool coarser = lod > (int)s->lod && s->classic == classic;
                if (coarser && pressed && !ahead) continue;
                sc = stream_priority(p, &g, cx, cz, travel) + (coarser ? p->lod_coarsen_penalty : p->lod_refine_penalty);
            } else {
                continue;
            }
            Pick pk = {cx, cz, (int8_t)lod, sc};
            if (npick < want_picks) stream_picks_push(picks, &npick, pk);
            else if (sc < picks[0].score) stream_picks_replace_top(picks, npick, pk);
        }
    w->st.wanted = wanted;
    w->st.void_chunks = voids;
    if (voids) w->st.void_frames++;

    /* Submit best first; keep a slab reserve for the jobs in flight. */
    stream_picks_sort(picks, npick);
    double queue_budget = QUEUE_BUDGET_S;
    if (g.speed >= PRIORITY_MIN_SPEED) {
        double lead = stream_dist_to(g.ccx, g.ccz, (int32_t)floor(g.lx), (int32_t)floor(g.lz));
        double window = (lead + 1.0) / g.speed / 3.0;
        if (window < queue_budget) queue_budget = window > QUEUE_BUDGET_MIN_S ? window : QUEUE_BUDGET_MIN_S;
    }
    for (uint32_t n = 0; n < npick && w->jobs; n++) {
        Pick pk = picks[n];
        int32_t tx = pk.cx, tz = pk.cz;
        int tl = pk.lod;

        MemPoolStats ps = mem_pool_stats(&w->slabs);
        double reserve = (double)w->reserve_slabs + job_expect(w, tl);
        double d = stream_dist_to(g.ccx, g.ccz, tx, tz);
        while ((double)(ps.capacity - ps.in_use) < reserve && evict_farthest(w, &g, d + 0.5))
            ps = mem_pool_stats(&w->slabs);
        if ((double)(ps.capacity - ps.in_use) < reserve) {
            shrink_reach(w, d);   /* degrade: the pool holds less than the radius */
            continue;
        }
        /* Enough work queued (best first, so what waits is what matters least); a few jobs per
         * worker always go, so the measured times stay current. LOD swaps fill half the budget
         * at most: a new chunk never queues behind a full budget of them. */
        uint32_t idx = slot_index(w, tx, tz);
        ChunkSlot *s = &w->slots[idx];
        bool swap = s->state == SLOT_READY && s->cx == tx && s->cz == tz;
        double budget = queue_budget * w->nworkers * (swap && !s->stale ? 0.5 : 1.0);
        if (w->queued_s > budget && w->in_flight >= 2 * w->nworkers) {
            if (swap) continue;
            break;
        }
        if (!swap && s->state != SLOT_EMPTY) slot_clear(w, idx, true);
        if (!submit(w, idx, tx, tz, tl, v->time_s)) break;
    }
    /* The governor looks at what is still missing once this frame's requests are out. */
    stream_gov_update(&w->gov, &g, voids, margin, w->fresh_latency_s * 1.5 + w->frame_dt_s);
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
    for (int i = 0; i < WORLD_LOD_MAX; i++) s.lod_dist_in_force[i] = i < gv->lod_levels ? sqrtf(gv->lod_d2[i]) : 0.0f;
    s.fresh_latency_ms = (float)(w->fresh_latency_s * 1e3);
    s.lod_anchor_x = w->anchor_x;
    s.lod_anchor_z = w->anchor_z;
    return s;
}

int world_chunk_lod(const World *w, int32_t cx, int32_t cz) {
    const ChunkSlot *s = &w->slots[slot_index(w, cx, cz)];
    if (s->state != SLOT_READY || s->cx != cx || s->cz != cz) return -1;
    return s->lod;
}

void world_lod_anchor(const World *w, int32_t *ax, int32_t *az) {
    if (ax) *ax = w->anchor_x;
    if (az) *az = w->anchor_z;
}

static bool build_direct(World *w, int32_t cx, int32_t cz, int lod, double time_s, ChunkMesh *out, WorldBuildTiming *t) {
    const WorldGen *g = &w->gens[w->cur_gen];
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

bool world_build_chunk(World *w, int32_t cx, int32_t cz, double time_s, ChunkMesh *out, WorldBuildTiming *t) {
    return build_direct(w, cx, cz, -1, time_s, out, t);
}

bool world_build_chunk_lod(World *w, int32_t cx, int32_t cz, int lod, double time_s, ChunkMesh *out,
                           WorldBuildTiming *t) {
    return build_direct(w, cx, cz, lod < 0 ? 0 : lod, time_s, out, t);
}

void world_free_mesh(World *w, ChunkMesh *m) { mesh_free(&w->slabs, m); }

const uint8_t *world_debug_voxels(const World *w, int32_t *height_with_apron) {
    World *mw = (World *)w;
    const WorldGen *g = &w->gens[w->cur_gen];
    if (!mw->main_vox_valid) {
        gen_fill_vox(g, mw->main_scratch);
        mw->main_vox_valid = true;
    }
    if (height_with_apron) *height_with_apron = w->main_scratch->ny + 2;
    return w->main_scratch->vox;
}
