/* bench jobs: worker-pool throughput and submit-to-complete latency for 1..N workers.
 * Prints one JSON line. Jobs do a fixed small amount of integer work (about 1 us). */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

static void run_work(JobDesc *job, uint32_t worker, void *scratch) {
    (void)worker;
    (void)scratch;
    uint32_t h = (uint32_t)job->user;
    for (int i = 0; i < 200; i++) h = hash_u32(h + (uint32_t)i);
    job->user = h;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

typedef struct Result { uint32_t workers; double jobs_per_s, load_p50_us, load_p99_us, idle_p50_us, idle_p99_us; } Result;

static bool measure(uint32_t workers, uint32_t njobs, uint64_t *lat, Result *out) {
    MemBudget b;
    SkyError err = {0};
    if (!mem_budget_init(&b, 4u << 20, &err)) return false;
    JobSystem *js = jobs_create(&b, &(JobsConfig){.workers = workers, .queue_capacity = 256}, &err);
    if (!js) {
        fprintf(stderr, "bench jobs: %s\n", err.msg);
        mem_budget_release(&b);
        return false;
    }
    JobDesc done[128];
    /* Throughput with the queue kept full; latency here includes queueing. */
    uint32_t next = 0, got = 0;
    uint64_t t0 = time_now_ns();
    while (got < njobs) {
        while (next < njobs && jobs_submit(js, &(JobDesc){.run = run_work, .user = next})) next++;
        size_t n = jobs_collect(js, done, 128);
        for (size_t i = 0; i < n; i++) lat[got + i] = done[i].t_done_ns - done[i].t_submit_ns;
        got += (uint32_t)n;
        if (!n) sched_yield();
    }
    uint64_t t1 = time_now_ns();
    qsort(lat, njobs, sizeof lat[0], cmp_u64);
    out->workers = workers;
    out->jobs_per_s = (double)njobs / ((double)(t1 - t0) / 1e9);
    out->load_p50_us = (double)lat[njobs / 2] / 1e3;
    out->load_p99_us = (double)lat[(size_t)njobs * 99 / 100] / 1e3;
    /* Unloaded latency: one job at a time, from submit to the worker finishing it. */
    uint32_t nidle = 2000;
    for (uint32_t i = 0; i < nidle; i++) {
        jobs_submit(js, &(JobDesc){.run = run_work, .user = i});
        size_t n;
        while ((n = jobs_collect(js, done, 1)) == 0) sched_yield();
        lat[i] = done[0].t_done_ns - done[0].t_submit_ns;
    }
    qsort(lat, nidle, sizeof lat[0], cmp_u64);
    out->idle_p50_us = (double)lat[nidle / 2] / 1e3;
    out->idle_p99_us = (double)lat[(size_t)nidle * 99 / 100] / 1e3;
    jobs_destroy(js);
    mem_budget_release(&b);
    return true;
}

int bench_jobs(int argc, char **argv) {
    uint32_t njobs = 200000, maxw = jobs_default_workers() * 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--jobs") && i + 1 < argc) njobs = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--max-workers") && i + 1 < argc) maxw = (uint32_t)strtoul(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: bench jobs [--jobs N] [--max-workers W]\n");
            return 2;
        }
    }
    if (njobs < 2000) njobs = 2000;
    if (maxw < 1) maxw = 1;
    uint64_t *lat = malloc(sizeof(uint64_t) * njobs);
    if (!lat) return 1;
    printf("{\"bench\":\"jobs\",\"jobs\":%u,\"cores\":%u,\"work_per_job\":\"200 hashes\",\"runs\":[", njobs,
           jobs_default_workers());
    for (uint32_t w = 1; w <= maxw; w++) {
        Result r;
        if (!measure(w, njobs, lat, &r)) { free(lat); return 1; }
        printf("%s{\"workers\":%u,\"jobs_per_s\":%.0f,\"latency_loaded_us\":{\"p50\":%.1f,\"p99\":%.1f},"
               "\"latency_idle_us\":{\"p50\":%.1f,\"p99\":%.1f}}",
               w > 1 ? "," : "", w, r.jobs_per_s, r.load_p50_us, r.load_p99_us, r.idle_p50_us, r.idle_p99_us);
        fflush(stdout);
    }
    printf("]}\n");
    free(lat);
    return 0;
}
