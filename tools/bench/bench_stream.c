/* skyisles bench `stream`: a headless autopilot flight paced at 60 Hz driving world_update.
 * JSON: void frames, chunk latency, chunks generated/dropped, pool high-water marks, memory,
 * LOD swaps and meshes per LOD. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "world/world.h"

typedef struct StreamOpts {
    double speed, seconds;
    int view, workers;
    int pool_mib;               /* world mesh pool; 0 = the world's own sizing */
    bool release;
    bool quiet;
} StreamOpts;

typedef struct StreamResult {
    uint64_t void_frames, frames, late_frames;
    uint32_t max_void;
    double lat_p50, lat_p99, update_p50, update_p99, fill_s;
    WorldStats ws;
    long rss_kib, hwm_kib;
    size_t budget_used;
} StreamResult;

static long proc_status_kib(const char *key) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long v = -1;
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, kl)) { v = strtol(line + kl, NULL, 10); break; }
    fclose(f);
    return v;
}

static void sleep_until(uint64_t t_ns) {
    uint64_t now = time_now_ns();
    if (t_ns <= now) return;
    uint64_t d = t_ns - now;
    struct timespec ts = {(time_t)(d / 1000000000u), (long)(d % 1000000000u)};
    nanosleep(&ts, NULL);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The fixed autopilot: a slow weave in heading and altitude through the island layer. */
static void autopilot(double t, double speed, double *x, double *y, double *z, WorldView *v) {
    double heading = 0.6 * sin(t * 0.25);
    v->dir_x = (float)cos(heading);
    v->dir_y = 0.0f;
    v->dir_z = (float)sin(heading);
    *x += v->dir_x * speed / 60.0;
    *z += v->dir_z * speed / 60.0;
    *y = 95.0 + 30.0 * sin(t * 0.4);
}

static void drain_events(World *w, bool release) {
    WorldEvent ev[128];
    size_t n;
    while ((n = world_take_events(w, ev, 128)) > 0)
        if (release)
            for (size_t i = 0; i < n; i++)
                if (ev[i].type == WORLD_EV_MESH_READY) world_release_mesh(w, ev[i].cx, ev[i].cz);
}

static int fly(const StreamOpts *o, StreamResult *r) {
    memset(r, 0, sizeof *r);
    MemBudget b;
    SkyError err = {0};
    if (!mem_budget_init(&b, mem_budget_mib_from_env(0) << 20, &err)) { fprintf(stderr, "bench stream: %s\n", err.msg); return 1; }
    JobsConfig jc = {(uint32_t)o->workers, 256, 0};
    JobSystem *js = jobs_create(&b, &jc, &err);
    if (!js) { fprintf(stderr, "bench stream: %s\n", err.msg); mem_budget_release(&b); return 1; }
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = o->view;
    p.create.mesh_pool_mib = (uint32_t)o->pool_mib;
    World *w = world_create(&b, js, &p, &err);
    if (!w) { fprintf(stderr, "bench stream: %s\n", err.msg); jobs_destroy(js); mem_budget_release(&b); return 1; }
    r->budget_used = b.used;

    double x = 0.0, y = 95.0, z = 0.0;
    WorldView v;
    memset(&v, 0, sizeof v);
    v.fov_y_rad = 1.1f;
    v.aspect = 16.0f / 9.0f;
    v.speed = (float)o->speed;
    const uint64_t frame_ns = 1000000000ull / 60;

    /* Boot: hold still until the radius is filled (the game shows its loading state). */
    uint64_t t0 = time_now_ns(), next = t0;
    autopilot(0.0, 0.0, &x, &y, &z, &v);
    v.x = x; v.y = y; v.z = z;
    for (int f = 0; f < 60 * 30; f++) {
        world_update(w, &v);
        drain_events(w, o->release);
        WorldStats s = world_stats(w);
        if (s.void_chunks == 0 && s.in_flight == 0) break;
        next += frame_ns;
        sleep_until(next);
    }
    r->fill_s = (double)(time_now_ns() - t0) * 1e-9;

    long frames = (long)(o->seconds * 60.0);
    double *upd = calloc((size_t)frames, sizeof(double));
    next = time_now_ns();
    for (long f = 0; f < frames; f++) {
        double t = (double)f / 60.0;
        autopilot(t, o->speed, &x, &y, &z, &v);
        v.x = x; v.y = y; v.z = z;
        v.time_s = r->fill_s + t;
        uint64_t a = time_now_ns();
        world_update(w, &v);
        drain_events(w, o->release);
        upd[f] = (double)(time_now_ns() - a) * 1e-6;
        WorldStats s = world_stats(w);
        if (s.void_chunks) r->void_frames++;
        if (s.void_chunks > r->max_void) r->max_void = s.void_chunks;
        r->frames++;
        next += frame_ns;
        if (time_now_ns() > next) r->late_frames++;
        sleep_until(next);
    }
    qsort(upd, (size_t)frames, sizeof *upd, cmp_double);
    r->update_p50 = frames ? upd[frames / 2] : 0.0;
    r->update_p99 = frames ? upd[(long)((frames - 1) * 0.99)] : 0.0;
    free(upd);
    r->ws = world_stats(w);
    r->lat_p50 = world_latency_ms(w, 0.5);
    r->lat_p99 = world_latency_ms(w, 0.99);
    r->rss_kib = proc_status_kib("VmRSS:");
    r->hwm_kib = proc_status_kib("VmHWM:");
    world_destroy(w);
    jobs_destroy(js);
    mem_budget_release(&b);
    return 0;
}

static void print_result(const StreamOpts *o, const StreamResult *r) {
    const WorldStats *s = &r->ws;
    printf("{\"bench\":\"stream\",\"speed\":%.0f,\"view\":%d,\"seconds\":%.1f,\"workers\":%d,\"release\":%s,"
           "\"void_frames\":%llu,\"frames\":%llu,\"max_void_chunks\":%u,\"late_frames\":%llu,\"fill_s\":%.2f,\n"
           " \"chunk_latency_ms\":{\"p50\":%.2f,\"p99\":%.2f},\"update_ms\":{\"p50\":%.3f,\"p99\":%.3f},\n"
           " \"chunks\":{\"requested\":%llu,\"generated\":%llu,\"dropped\":%llu,\"evicted\":%llu,\"pool_evictions\":%llu,"
           "\"pool_failures\":%llu,\"resident\":%u,\"avg_verts\":%.0f},\n"
           " \"pools\":{\"slabs_peak\":%u,\"slabs_capacity\":%u,\"slab_bytes\":%zu,\"records_peak\":%u,\"records_capacity\":%u,"
           "\"reach\":%.2f},\n"
           " \"memory\":{\"world_carved_mib\":%.1f,\"budget_used_mib\":%.1f,\"rss_mib\":%.1f,\"rss_peak_mib\":%.1f},\n",
           o->speed, o->view, o->seconds, o->workers, o->release ? "true" : "false", (unsigned long long)r->void_frames,
           (unsigned long long)r->frames, r->max_void, (unsigned long long)r->late_frames, r->fill_s, r->lat_p50,
           r->lat_p99, r->update_p50, r->update_p99, (unsigned long long)s->requested, (unsigned long long)s->generated,
           (unsigned long long)s->dropped, (unsigned long long)s->evicted, (unsigned long long)s->pool_evictions,
           (unsigned long long)s->mesh_pool_failures, s->resident,
           s->generated ? (double)s->verts_total / (double)s->generated : 0.0, s->slabs_peak, s->slabs_capacity,
           sizeof(WorldVertex) * WORLD_SLAB_VERTS, s->records_peak, s->records_capacity, s->reach,
           (double)s->bytes_carved / 1048576.0, (double)r->budget_used / 1048576.0, r->rss_kib / 1024.0,
           r->hwm_kib / 1024.0);
    printf(" \"lod\":{\"swaps\":%llu,\"swap_requests\":%llu,\"resident\":[%u,%u,%u,%u],\"generated\":[%llu,%llu,%llu,%llu],"
           "\"avg_verts\":[%.0f,%.0f,%.0f,%.0f]}}\n",
           (unsigned long long)s->lod_swaps, (unsigned long long)s->lod_requests, s->resident_lod[0], s->resident_lod[1],
           s->resident_lod[2], s->resident_lod[3], (unsigned long long)s->generated_lod[0],
           (unsigned long long)s->generated_lod[1], (unsigned long long)s->generated_lod[2],
           (unsigned long long)s->generated_lod[3],
           s->generated_lod[0] ? (double)s->verts_lod[0] / (double)s->generated_lod[0] : 0.0,
           s->generated_lod[1] ? (double)s->verts_lod[1] / (double)s->generated_lod[1] : 0.0,
           s->generated_lod[2] ? (double)s->verts_lod[2] / (double)s->generated_lod[2] : 0.0,
           s->generated_lod[3] ? (double)s->verts_lod[3] / (double)s->generated_lod[3] : 0.0);
    fflush(stdout);
}

int bench_stream(int argc, char **argv) {
    StreamOpts o = {1000.0, 10.0, 10, 2, 0, false, false};
    bool sweep = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--speed") && i + 1 < argc) o.speed = atof(argv[++i]);
        else if (!strcmp(argv[i], "--view") && i + 1 < argc) o.view = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) o.seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--workers") && i + 1 < argc) o.workers = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--release")) o.release = true;
        else if (!strcmp(argv[i], "--pool") && i + 1 < argc) o.pool_mib = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--sweep")) sweep = true;
        else {
            fprintf(stderr, "usage: bench stream [--speed M_PER_S] [--view CHUNKS] [--seconds S] [--workers W] "
                            "[--release] [--pool MIB] [--sweep]\n");
            return 2;
        }
    }
    if (o.view < 1) o.view = 1;
    if (o.workers < 1) o.workers = 1;
    if (o.seconds < 1.0) o.seconds = 1.0;
    StreamResult r;
    if (!sweep) {
        if (fly(&o, &r)) return 1;
        print_result(&o, &r);
        return 0;
    }
    /* Highest speed with no void frame: climb until one appears, then report the last clean one. */
    static const double speeds[] = {250, 500, 750, 1000, 1250, 1500, 2000, 2500, 3000, 4000, 5000, 6000, 8000};
    double best = 0.0;
    for (size_t i = 0; i < sizeof speeds / sizeof speeds[0]; i++) {
        o.speed = speeds[i];
        if (fly(&o, &r)) return 1;
        print_result(&o, &r);
        if (r.void_frames) break;
        best = speeds[i];
    }
    printf("{\"bench\":\"stream_sweep\",\"view\":%d,\"workers\":%d,\"seconds\":%.1f,\"max_clean_speed\":%.0f}\n", o.view,
           o.workers, o.seconds, best);
    return 0;
}
