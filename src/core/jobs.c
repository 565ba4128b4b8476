/* skyisles core: the worker pool. One thread per online core, a fixed-capacity FIFO,
 * epochs that invalidate queued and in-flight work, and a completion ring drained by the
 * main thread. All storage is carved from the memory budget at creation. */
#include "core/core.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct JobRing {
    JobDesc *items;
    uint32_t cap, head, count;
} JobRing;

struct JobSystem {
    pthread_mutex_t lock;
    pthread_cond_t work_cv;   /* workers wait for jobs */
    pthread_cond_t idle_cv;   /* jobs_wait_idle waits for quiet */
    JobRing queue;            /* submitted, not started */
    JobRing ready;            /* finished, current epoch */
    JobRing stale;            /* finished, older epoch: dropped on the main thread */
    uint32_t running;
    uint32_t epoch;
    bool quit;
    uint32_t nworkers;
    pthread_t *threads;
    uint8_t **scratch;
    struct WorkerArg { JobSystem *js; uint32_t index; } *args;
    JobsStats stats;
};

static bool ring_push(JobRing *r, const JobDesc *j) {
    if (r->count == r->cap) return false;
    r->items[(r->head + r->count) % r->cap] = *j;
    r->count++;
    return true;
}

static bool ring_pop(JobRing *r, JobDesc *out) {
    if (r->count == 0) return false;
    *out = r->items[r->head];
    r->head = (r->head + 1) % r->cap;
    r->count--;
    return true;
}

uint32_t jobs_default_workers(void) {
    const char *e = getenv("SKYISLES_WORKERS");
    if (e && *e) {
        char *end = NULL;
        long v = strtol(e, &end, 10);
        if (end && *end == 0 && v >= 1 && v <= 64) return (uint32_t)v;
        log_warn("SKYISLES_WORKERS='%s' is not a count between 1 and 64; using the core count", e);
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    if (n > 64) n = 64;
    return (uint32_t)n;
}

static void *worker_main(void *argp) {
    struct WorkerArg *arg = argp;
    JobSystem *js = arg->js;
    void *scratch = js->scratch ? js->scratch[arg->index] : NULL;
    pthread_mutex_lock(&js->lock);
    for (;;) {
        while (js->queue.count == 0 && !js->quit) pthread_cond_wait(&js->work_cv, &js->lock);
        if (js->quit) break;
        JobDesc job;
        ring_pop(&js->queue, &job);
        js->running++;
        pthread_mutex_unlock(&js->lock);

        job.run(&job, arg->index, scratch);
        job.t_done_ns = time_now_ns();

        pthread_mutex_lock(&js->lock);
        js->running--;
        js->stats.completed++;
        /* Capacity of both rings covers every outstanding job, so these pushes cannot fail. */
        if (job.epoch == js->epoch) ring_push(&js->ready, &job);
        else ring_push(&js->stale, &job);
        if (js->queue.count == 0 && js->running == 0) pthread_cond_broadcast(&js->idle_cv);
    }
    pthread_mutex_unlock(&js->lock);
    return NULL;
}

JobSystem *jobs_create(MemBudget *b, const JobsConfig *cfg, SkyError *err) {
    JobsConfig c = cfg ? *cfg : (JobsConfig){0};
    if (c.workers == 0) c.workers = jobs_default_workers();
    if (c.queue_capacity == 0) c.queue_capacity = 256;
    uint32_t ring_cap = c.queue_capacity + c.workers;

    JobSystem *js = mem_carve(b, sizeof *js, 64);
    JobDesc *q = mem_carve(b, sizeof(JobDesc) * c.queue_capacity, 64);
    JobDesc *r = mem_carve(b, sizeof(JobDesc) * ring_cap, 64);
    JobDesc *s = mem_carve(b, sizeof(JobDesc) * ring_cap, 64);
    pthread_t *th = mem_carve(b, sizeof(pthread_t) * c.workers, 16);
    struct WorkerArg *args = mem_carve(b, sizeof(*args) * c.workers, 16);
    uint8_t **scr = c.scratch_bytes ? mem_carve(b, sizeof(uint8_t *) * c.workers, 16) : NULL;
    bool ok = js && q && r && s && th && args && (!c.scratch_bytes || scr);
    for (uint32_t i = 0; ok && scr && i < c.workers; i++) {
        scr[i] = mem_carve(b, c.scratch_bytes, 64);
        ok = scr[i] != NULL;
    }
    if (!ok) {
        sky_error_set(err, SKY_ERR_START, "memory budget too small for %u workers with %zu KiB scratch each: raise --mem / SKYISLES_MEM_MB",
                      c.workers, c.scratch_bytes >> 10);
        return NULL;
    }
    memset(js, 0, sizeof *js);
    pthread_mutex_init(&js->lock, NULL);
    pthread_cond_init(&js->work_cv, NULL);
    pthread_cond_init(&js->idle_cv, NULL);
    js->queue = (JobRing){q, c.queue_capacity, 0, 0};
    js->ready = (JobRing){r, ring_cap, 0, 0};
    js->stale = (JobRing){s, ring_cap, 0, 0};
    js->epoch = 1;
    js->threads = th;
    js->args = args;
    js->scratch = scr;
    for (uint32_t i = 0; i < c.workers; i++) {
        args[i] = (struct WorkerArg){js, i};
        if (pthread_create(&th[i], NULL, worker_main, &args[i]) != 0) {
            sky_error_set(err, SKY_ERR_START, "cannot start worker thread %u of %u: lower SKYISLES_WORKERS", i + 1, c.workers);
            js->nworkers = i;
            jobs_destroy(js);
            return NULL;
        }
        js->nworkers = i + 1;
    }
    return js;
}

uint32_t jobs_worker_count(const JobSystem *js) { return js->nworkers; }

bool jobs_submit(JobSystem *js, const JobDesc *job) {
    pthread_mutex_lock(&js->lock);
    uint32_t outstanding = js->queue.count + js->running + js->ready.count + js->stale.count;
    if (js->quit || js->queue.count == js->queue.cap || outstanding >= js->ready.cap) {
        js->stats.rejected_full++;
        pthread_mutex_unlock(&js->lock);
        return false;
    }
    JobDesc j = *job;
    j.epoch = js->epoch;
    j.t_submit_ns = time_now_ns();
    j.t_done_ns = 0;
    ring_push(&js->queue, &j);
    js->stats.submitted++;
    pthread_cond_signal(&js->work_cv);
    pthread_mutex_unlock(&js->lock);
    return true;
}

/* Pops one job of `r` under the lock and drops it outside the lock; returns false when empty. */
static bool drop_one(JobSystem *js, JobRing *r, uint64_t *counter) {
    JobDesc j;
    pthread_mutex_lock(&js->lock);
    bool got = ring_pop(r, &j);
    if (got) (*counter)++;
    pthread_mutex_unlock(&js->lock);
    if (got && j.drop) j.drop(&j);
    return got;
}

uint32_t jobs_new_epoch(JobSystem *js) {
    pthread_mutex_lock(&js->lock);
    uint32_t e = ++js->epoch;
    /* Finished-but-undrained results are now stale too. */
    JobDesc j;
    while (ring_pop(&js->ready, &j)) ring_push(&js->stale, &j);
    pthread_mutex_unlock(&js->lock);
    while (drop_one(js, &js->queue, &js->stats.dropped_queued)) {}
    while (drop_one(js, &js->stale, &js->stats.dropped_stale)) {}
    return e;
}

uint32_t jobs_epoch(const JobSystem *js) { return __atomic_load_n(&js->epoch, __ATOMIC_RELAXED); }

size_t jobs_collect(JobSystem *js, JobDesc *out, size_t max) {
    while (drop_one(js, &js->stale, &js->stats.dropped_stale)) {}
    size_t n = 0;
    pthread_mutex_lock(&js->lock);
    while (n < max && ring_pop(&js->ready, &out[n])) n++;
    pthread_mutex_unlock(&js->lock);
    return n;
}

void jobs_wait_idle(JobSystem *js) {
    pthread_mutex_lock(&js->lock);
    while (js->queue.count != 0 || js->running != 0) pthread_cond_wait(&js->idle_cv, &js->lock);
    pthread_mutex_unlock(&js->lock);
}

JobsStats jobs_stats(JobSystem *js) {
    pthread_mutex_lock(&js->lock);
    JobsStats s = js->stats;
    s.queued = js->queue.count;
    s.running = js->running;
    s.ready = js->ready.count;
    s.workers = js->nworkers;
    s.epoch = js->epoch;
    pthread_mutex_unlock(&js->lock);
    return s;
}

void jobs_destroy(JobSystem *js) {
    if (!js) return;
    while (drop_one(js, &js->queue, &js->stats.dropped_queued)) {}
    pthread_mutex_lock(&js->lock);
    js->quit = true;
    pthread_cond_broadcast(&js->work_cv);
    pthread_mutex_unlock(&js->lock);
    for (uint32_t i = 0; i < js->nworkers; i++) pthread_join(js->threads[i], NULL);
    js->nworkers = 0;
    /* Jobs still queued after quit (none are submitted after it) and all results are dropped. */
    while (drop_one(js, &js->queue, &js->stats.dropped_queued)) {}
    while (drop_one(js, &js->stale, &js->stats.dropped_stale)) {}
    while (drop_one(js, &js->ready, &js->stats.dropped_stale)) {}
    /* The lock and condition variables stay initialised (they own no resources on the
     * platforms we run on) so jobs_stats() still reads the final counters. */
}
