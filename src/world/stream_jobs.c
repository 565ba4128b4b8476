/* skyisles world: the streamer's chunk jobs. What a worker runs (voxels and mesh into its own
 * scratch, the slow-CPU stretch), submission with a slab reserve, bounded collection on the main
 * thread (stale epochs and chunks out of reach dropped, LOD swaps and rebuilds installed in
 * place), the running averages the requests and the governor read, and the latency histogram. */
#include "world/stream_internal.h"

#include <math.h>
#include <string.h>
#include <time.h>

/* A job is over (installed, dropped or failed): its record, reserve and snapshot ref go back. */
static void job_finish_record(World *w, ChunkJob *j) {
    w->queued_s = w->queued_s > j->expect_s ? w->queued_s - j->expect_s : 0.0;
    mesh_free(&w->slabs, &j->mesh);
    w->reserve_slabs = w->reserve_slabs > j->expect ? w->reserve_slabs - j->expect : 0;
    if (w->gen_refs[j->gen_index]) w->gen_refs[j->gen_index]--;
    if (j->isl >= 0 && w->isl[j->isl].readers) w->isl[j->isl].readers--;
    mem_pool_free(&w->records, j);
    if (w->in_flight) w->in_flight--;
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

/* The slow-CPU bench's stretch: a job that started at t0 and took cpu_ns of CPU ends k times
 * that after it started (the worker sleeps the rest); the sleep's length. */
static uint64_t job_stretch(const World *w, uint64_t t0, uint64_t cpu_ns) {
    uint32_t kb = atomic_load_explicit(&w->stretch_bits, memory_order_relaxed);
    if (!kb) return 0;
    float k;
    memcpy(&k, &kb, sizeof k);
    uint64_t s0 = time_now_ns();
    sleep_until_ns(t0 + (uint64_t)((double)k * (double)cpu_ns));
    return time_now_ns() - s0;
}

static void chunk_job_run(JobDesc *jd, uint32_t worker, void *unused) {
    (void)unused;
    ChunkJob *j = jd->payload;
    World *w = j->w;
    uint32_t wi = worker < w->nworkers ? worker : 0;
    ChunkScratch *s = w->scratch[wi];
    uint64_t t0 = time_now_ns(), c0 = time_thread_cpu_ns();
    /* The snapshot with the island of the chunk's cell (its slot is held for this job). */
    const WorldGen *g = j->isl == ISL_AS_IS ? j->gen : isl_gen_view(w, j->gen, j->isl, j->cell_x, j->cell_z, &w->wgen[wi]);
    if (j->classic) gen_chunk_voxels(g, j->cx, j->cz, j->time_s, s);
    else gen_chunk_voxels_lod(g, j->cx, j->cz, j->time_s, j->lod, s);
    j->oom = !mesh_chunk(g, s, &w->slabs, &j->mesh, &j->counts);
    j->cpu_ns = time_thread_cpu_ns() - c0;
    j->stretch_ns = job_stretch(w, t0, j->cpu_ns);
    j->wall_ns = time_now_ns() - t0;
}

/* ---------------------------------------------------------------- island jobs */
static void island_job_run(JobDesc *jd, uint32_t worker, void *unused) {
    (void)worker;
    (void)unused;
    IslandJob *j = jd->payload;
    World *w = j->w;
    IslandSlot *s = &w->isl[j->slot];
    uint64_t t0 = time_now_ns(), c0 = time_thread_cpu_ns();
    mem_arena_reset(&s->arena);
    memset(&s->field, 0, sizeof s->field);
    s->island = NULL;
    j->ok = w->isrc.bake(w->isrc.ctx, j->cell_x, j->cell_z, &s->arena, &s->field, &s->island);
    j->cpu_ns = time_thread_cpu_ns() - c0;
    job_stretch(w, t0, j->cpu_ns);
    j->wall_ns = time_now_ns() - t0;
}

static void island_job_drop(JobDesc *jd) {
    IslandJob *j = jd->payload;
    j->w->isl[j->slot].state = ISL_FREE;
    j->w->st.island_dropped++;
}

bool stream_island_submit(World *w, uint32_t slot, int64_t cell_x, int64_t cell_z) {
    IslandSlot *s = &w->isl[slot];
    if (s->state == ISL_READY) w->st.island_evictions++;
    s->state = ISL_BAKING;
    s->cell_x = cell_x;
    s->cell_z = cell_z;
    s->readers = 0;
    IslandJob *j = &s->job;
    memset(j, 0, sizeof *j);
    j->w = w;
    j->slot = slot;
    j->cell_x = cell_x;
    j->cell_z = cell_z;
    JobDesc d = {island_job_run, island_job_drop, j, 0, 0, 0, 0};
    if (!jobs_submit(w->jobs, &d)) {
        s->state = ISL_FREE;
        return false;
    }
    return true;
}

/* A finished bake (main thread): installed when it is of this epoch, else its slot is free. */
static void island_job_collect(World *w, const JobDesc *d) {
    IslandJob *j = d->payload;
    IslandSlot *s = &w->isl[j->slot];
    w->st.island_bake_cpu_ns += j->cpu_ns;
    w->st.island_bake_wall_ns += j->wall_ns;
    if (d->epoch != w->epoch || !j->ok) {
        if (!j->ok) {
            memset(&s->field, 0, sizeof s->field);   /* the cell reads as open sky */
            if (w->st.island_failed++ == 0)
                log_warn("world: the island of cell (%lld, %lld) could not be baked: its cell stays open sky",
                         (long long)j->cell_x, (long long)j->cell_z);
        }
        if (d->epoch != w->epoch) {
            s->state = ISL_FREE;
            w->st.island_dropped++;
            return;
        }
    }
    w->st.island_bakes++;
    isl_install(w, j->slot);
}

static void chunk_job_drop(JobDesc *jd) {
    ChunkJob *j = jd->payload;
    j->w->st.dropped++;
    job_finish_record(j->w, j);
}

void stream_jobs_drain(World *w) {
    if (!w->jobs) return;
    JobDesc out[16];
    jobs_wait_idle(w->jobs);
    size_t n;
    while ((n = jobs_collect(w->jobs, out, 16)) > 0)
        for (size_t i = 0; i < n; i++) {
            if (out[i].run == island_job_run) {
                island_job_drop(&out[i]);
                continue;
            }
            w->st.dropped++;
            job_finish_record(w, out[i].payload);
        }
}

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

static void install_counts(World *w, const ChunkJob *j) {
    w->st.generated++;
    w->st.generated_lod[j->lod]++;
    if (j->counts.truncated) w->st.mesh_truncated++;
    uint32_t v = j->counts.opaque_verts + j->counts.cloud_verts;
    w->st.verts_total += v;
    w->st.verts_lod[j->lod] += v;
}

void stream_jobs_collect(World *w, const ViewGeom *g) {
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
            if (out[i].run == island_job_run) {
                island_job_collect(w, &out[i]);
                continue;
            }
            ChunkJob *j = out[i].payload;
            ChunkSlot *s = &w->slots[j->slot];
            bool mine = out[i].epoch == w->epoch && s->seq == j->seq && s->cx == j->cx && s->cz == j->cz &&
                        (s->state == SLOT_QUEUED || (s->state == SLOT_READY && s->busy));
            w->st.job_cpu_ns += j->cpu_ns;
            w->st.job_wall_ns += j->wall_ns;
            w->st.job_stretch_ns += j->stretch_ns;
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
                if (s->ready_pending) stream_event_withdraw(w, j->slot);
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
                if (!stream_evict_farthest(w, g, d)) stream_shrink_reach(w, d);
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
            stream_event_push(w, WORLD_EV_MESH_READY, s->cx, s->cz, &s->mesh, j->slot);
            job_finish_record(w, j);
        }
    }
}

/* Slabs a job at `lod` is expected to take: its LOD's running average, rounded up, plus one. */
uint32_t stream_job_expect(const World *w, int lod) { return (uint32_t)ceil(w->slabs_at_lod[lod]) + 1u; }

/* Requests chunk (cx, cz) at `lod` into slot idx. A slot that holds a mesh keeps it (READY,
 * busy) until the new one is collected, and the new mesh is built at the chunk's creation time
 * so its clouds stay where they were; otherwise the slot becomes QUEUED, created at time_s. */
bool stream_job_submit(World *w, uint32_t idx, int64_t cx, int64_t cz, int lod, double time_s, int32_t isl,
                       int64_t cell_x, int64_t cell_z) {
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
    j->isl = isl;
    j->cell_x = cell_x;
    j->cell_z = cell_z;
    j->classic = w->gov.lod_levels == 0;
    j->slot = idx;
    j->seq = ++w->next_seq;
    j->expect = stream_job_expect(w, lod);
    j->time_s = swap ? s->born_s : time_s;
    j->fresh = !swap;
    j->expect_s = w->job_s_lod[lod];
    JobDesc d = {chunk_job_run, chunk_job_drop, j, ((uint64_t)(uint32_t)cx << 32) | (uint32_t)cz, 0, 0, 0};
    if (!jobs_submit(w->jobs, &d)) {
        mem_pool_free(&w->records, j);
        return false;
    }
    w->gen_refs[w->cur_gen]++;
    if (isl >= 0) w->isl[isl].readers++;
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

void world_set_job_stretch(World *w, float k) {
    uint32_t b = 0;
    if (k > 1.0f && k < 1000.0f) memcpy(&b, &k, sizeof b);
    atomic_store_explicit(&w->stretch_bits, b, memory_order_relaxed);
}
