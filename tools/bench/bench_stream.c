/* skyisles bench `stream`: a headless autopilot flight paced at 60 Hz driving world_update.
 * JSON: void frames, chunk latency, chunks generated/dropped, pool high-water marks, memory,
 * LOD swaps and meshes per LOD, the reach held and the speed governor. --slowdown K (or
 * --device) stretches every chunk job to K times its CPU time: a CPU K times slower, with
 * several simulated workers sharing the real cores (each sleeps (K-1)/K of its jobs). --islands
 * flies the island route (east from the home island over one island per column of cells) with the
 * built-in pack's archipelago: islands crossed, bakes per second and their cost, chunks handed out
 * before their island's bake; --route flies the same route over the home island alone (today). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "course/archipelago.h"
#include "island/island.h"
#include "world/world.h"

typedef struct StreamOpts {
    double speed, seconds;
    int view, workers;          /* view 0: the preset's */
    int pool_mib;               /* world mesh pool; 0 = the preset's (the world's own sizing) */
    bool release;
    bool quiet;
    double slowdown;            /* every job takes this many times its CPU time (1: as measured) */
    WorldPreset preset;
    const char *device;         /* the device preset named, or "native" */
    bool islands;               /* the home island and the archipelago of the built-in pack */
    bool route;                 /* the island route and the home island, without the archipelago ("today") */
} StreamOpts;

/* Simulated devices: per-core speed of this machine's x86 core (AVX2 noise path) over the
 * device's core on its NEON path, four cores each (docs/world-streaming.md, devices), and the quality
 * preset each runs. */
typedef struct Device {
    const char *name;
    double slowdown;
    int workers;
    WorldPreset preset;
} Device;
static const Device k_devices[] = {
    {"pi4", 5.0, 4, WORLD_PRESET_MEDIUM},        /* Cortex-A72 @ 1.5-1.8 GHz */
    {"handheld", 12.0, 4, WORLD_PRESET_LOW},     /* Cortex-A35 @ 1.5 GHz (RK3326), A53 @ 1.4 GHz */
    {"pizero2", 15.0, 4, WORLD_PRESET_LOW},      /* Cortex-A53 @ 1 GHz (RP3A0) */
};

typedef struct StreamResult {
    uint64_t void_frames, frames, late_frames;
    uint32_t max_void;
    double lat_p50, lat_p99, update_p50, update_p99, fill_s;
    double update_cpu_p50, update_cpu_p99;   /* the main thread's CPU time in world_update */
    double reach_min, reach_sum;        /* the reach held, over the flight's frames */
    uint64_t degraded_frames, lod_frames, shrunk_frames;   /* governor above 0, LOD steps only, reach in */
    WorldStats ws;
    long rss_kib, hwm_kib;
    size_t budget_used;
    uint32_t islands_crossed;           /* cells with an island the flight entered */
    uint64_t chunks_before_bake;        /* READY chunks whose cell's island was not baked (must be 0) */
    size_t islands_bytes;               /* the island slots' carve (world_islands_bytes) */
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

/* The island route: from the home island east, over the centre of one island per column of cells
 * (the nearest row with one, within two cells of the line), heading straight from one to the next. */
#define ROUTE_MAX 64
#define ROUTE_TURN 0.5          /* rad/s: an aircraft's turn, not a jump of the view */
#define ROUTE_PASS 800.0        /* m: an island this near is passed, the next one is aimed at */
typedef struct Route {
    double x[ROUTE_MAX], z[ROUTE_MAX];
    uint32_t n, next;
    double heading;
} Route;

static void route_plan(Route *r, const WorldIslandSource *src) {
    r->n = 1;
    r->next = 1;
    r->x[0] = r->z[0] = 0.0;
    for (int64_t k = 1; r->n < ROUTE_MAX && k < 4 * ROUTE_MAX; k++) {
        static const int64_t rows[] = {0, -1, 1, -2, 2};
        for (int i = 0; i < 5; i++) {
            WorldIslandSite site;
            src->site(src->ctx, k, rows[i], &site);
            if (!site.has_island) continue;
            r->x[r->n] = (double)site.centre_x;
            r->z[r->n] = (double)site.centre_z;
            r->n++;
            break;
        }
    }
}

/* Toward the route's next island at speed, turning at ROUTE_TURN, just over the islands' peaks. */
static void route_fly(Route *r, double t, double speed, double *x, double *y, double *z, WorldView *v) {
    double dx = r->x[r->next] - *x, dz = r->z[r->next] - *z;
    if (dx * dx + dz * dz < ROUTE_PASS * ROUTE_PASS && r->next + 1 < r->n) {
        r->next++;
        dx = r->x[r->next] - *x;
        dz = r->z[r->next] - *z;
    }
    double want = atan2(dz, dx), turn = remainder(want - r->heading, 2.0 * M_PI), step = ROUTE_TURN / 60.0;
    r->heading += turn > step ? step : turn < -step ? -step : turn;
    v->dir_x = (float)cos(r->heading);
    v->dir_z = (float)sin(r->heading);
    v->dir_y = 0.0f;
    *x += v->dir_x * speed / 60.0;
    *z += v->dir_z * speed / 60.0;
    *y = 150.0 + 8.0 * sin(t * 0.4);   /* just over the islands' peaks */
}

/* Takes the frame's events; counts READY chunks whose island was not baked. */
static uint64_t drain_events(World *w, bool release) {
    WorldEvent ev[128];
    size_t n;
    uint64_t early = 0;
    while ((n = world_take_events(w, ev, 128)) > 0)
        for (size_t i = 0; i < n; i++) {
            if (ev[i].type != WORLD_EV_MESH_READY) continue;
            double bx = (double)(ev[i].cx * CHUNK_SIZE + CHUNK_SIZE / 2), bz = (double)(ev[i].cz * CHUNK_SIZE + CHUNK_SIZE / 2);
            early += !world_island_ready(w, world_island_cell(w, bx), world_island_cell(w, bz));
            if (release) world_release_mesh(w, ev[i].cx, ev[i].cz);
        }
    return early;
}

/* The built-in pack's home island for the world's seed and its archipelago, in the budget. */
typedef struct BenchIslands {
    IslandCodex cx;
    Island home;
    IslandField field;
    Archipelago arch;
    WorldIslandSource src;
} BenchIslands;

static bool islands_boot(BenchIslands *bi, MemBudget *b, uint64_t seed, SkyError *err) {
    size_t len;
    const void *pak = island_pak_default(&len);
    if (!island_pak_load(&bi->cx, pak, len, err)) return false;
    int scope = island_codex_find_scope(&bi->cx, "island");
    if (scope < 0) {
        sky_error_set(err, SKY_ERR_INPUT, "bench stream: the built-in pack has no 'island' scope");
        return false;
    }
    size_t work = island_work_bytes(), field = island_field_bytes(&bi->cx, (uint32_t)scope, 256);
    MemArena a;
    if (!mem_arena_init(&a, b, work + field + 4096)) {
        sky_error_set(err, SKY_ERR_INPUT, "bench stream: the budget holds no home island");
        return false;
    }
    IslandParams ip = {.seed = seed, .scope = (uint32_t)scope, .site_count = 0};
    if (!island_generate(&bi->home, &bi->cx, &ip, &a, err) ||
        !island_bake_field(&bi->field, &bi->home, &bi->cx, 256, 0.0f, 0.0f, &a, err))
        return false;
    if (!archipelago_source(&bi->arch, &bi->cx, (uint32_t)scope, seed, 256, &bi->src)) {
        sky_error_set(err, SKY_ERR_INPUT, "bench stream: the built-in pack has no archipelago");
        return false;
    }
    return true;
}

static int fly(const StreamOpts *o, StreamResult *r) {
    memset(r, 0, sizeof *r);
    MemBudget b;
    SkyError err = {0};
    if (!mem_budget_init(&b, mem_budget_mib_from_env(0) << 20, &err)) { fprintf(stderr, "bench stream: %s\n", err.msg); return 1; }
    JobsConfig jc = {(uint32_t)o->workers, 512, 0};
    JobSystem *js = jobs_create(&b, &jc, &err);
    if (!js) { fprintf(stderr, "bench stream: %s\n", err.msg); mem_budget_release(&b); return 1; }
    WorldParams p;
    world_params_default(&p);
    world_params_preset(&p, o->preset);
    if (o->view > 0) p.live.view_radius = o->view;
    if (o->pool_mib > 0) p.create.mesh_pool_mib = (uint32_t)o->pool_mib;
    static BenchIslands bi;
    bool home = o->islands || o->route;
    if (home && !islands_boot(&bi, &b, p.gen.seed, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        jobs_destroy(js);
        mem_budget_release(&b);
        return 1;
    }
    World *w = world_create(&b, js, &p, home ? &bi.field : NULL, &err);
    if (w && o->islands && !world_set_islands(w, &b, &bi.src, 0, &err)) {
        world_destroy(w);
        w = NULL;
    }
    if (!w) { fprintf(stderr, "bench stream: %s\n", err.msg); jobs_destroy(js); mem_budget_release(&b); return 1; }
    world_set_job_stretch(w, (float)o->slowdown);
    r->budget_used = b.used;
    r->islands_bytes = o->islands ? world_islands_bytes(&bi.src, 0, (uint32_t)o->workers) : 0;
    r->reach_min = 1e9;

    double x = 0.0, y = 95.0, z = 0.0;
    WorldView v;
    memset(&v, 0, sizeof v);
    v.fov_y_rad = 1.1f;
    v.aspect = 16.0f / 9.0f;
    const uint64_t frame_ns = 1000000000ull / 60;

    /* Boot: hold still until the radius is filled (the game shows its loading state); then the
     * flight accelerates to its speed over the first second (a standing start at thousands of
     * m/s would jump more than a chunk on its first frame, past anything a world can have
     * loaded). */
    v.speed = 0.0f;
    uint64_t t0 = time_now_ns(), next = t0;
    autopilot(0.0, 0.0, &x, &y, &z, &v);
    v.x = x; v.y = y; v.z = z;
    for (int f = 0; f < 60 * 30; f++) {
        world_update(w, &v);
        r->chunks_before_bake += drain_events(w, o->release);
        WorldStats s = world_stats(w);
        if (s.void_chunks == 0 && s.in_flight == 0) break;
        next += frame_ns;
        sleep_until(next);
    }
    r->fill_s = (double)(time_now_ns() - t0) * 1e-9;

    long frames = (long)(o->seconds * 60.0);
    static Route route;
    if (home) {
        route_plan(&route, &bi.src);
        route.heading = atan2(route.z[1], route.x[1]);
    }
    int64_t last_x = 0, last_z = 0;
    double *upd = calloc((size_t)frames, sizeof(double)), *upd_cpu = calloc((size_t)frames, sizeof(double));
    next = time_now_ns();
    for (long f = 0; f < frames; f++) {
        double t = (double)f / 60.0;
        double speed = o->speed * (t < 1.0 ? t : 1.0);
        v.speed = (float)speed;
        if (home) route_fly(&route, t, speed, &x, &y, &z, &v);
        else autopilot(t, speed, &x, &y, &z, &v);
        v.x = x; v.y = y; v.z = z;
        v.time_s = r->fill_s + t;
        uint64_t a = time_now_ns(), ac = time_thread_cpu_ns();
        world_update(w, &v);
        upd[f] = (double)(time_now_ns() - a) * 1e-6;
        upd_cpu[f] = (double)(time_thread_cpu_ns() - ac) * 1e-6;
        r->chunks_before_bake += drain_events(w, o->release);
        if (home) {
            int64_t cx = (int64_t)floor((x + 0.5 * (double)bi.src.cell_m) / (double)bi.src.cell_m);
            int64_t cz = (int64_t)floor((z + 0.5 * (double)bi.src.cell_m) / (double)bi.src.cell_m);
            if (cx != last_x || cz != last_z) {
                WorldIslandSite site;
                bi.src.site(bi.src.ctx, cx, cz, &site);
                r->islands_crossed += site.has_island;
                last_x = cx;
                last_z = cz;
            }
        }
        WorldStats s = world_stats(w);
        if (s.void_chunks) r->void_frames++;
        if (s.void_chunks > r->max_void) r->max_void = s.void_chunks;
        if (s.reach < r->reach_min) r->reach_min = s.reach;
        r->reach_sum += s.reach;
        if (s.gov_level > 0) r->degraded_frames++;
        if (s.gov_level > 0 && s.gov_level <= s.gov_lod_steps) r->lod_frames++;
        if (s.gov_level > s.gov_lod_steps) r->shrunk_frames++;
        r->frames++;
        next += frame_ns;
        if (time_now_ns() > next) r->late_frames++;
        sleep_until(next);
    }
    qsort(upd, (size_t)frames, sizeof *upd, cmp_double);
    r->update_p50 = frames ? upd[frames / 2] : 0.0;
    r->update_p99 = frames ? upd[(long)((frames - 1) * 0.99)] : 0.0;
    free(upd);
    qsort(upd_cpu, (size_t)frames, sizeof *upd_cpu, cmp_double);
    r->update_cpu_p50 = frames ? upd_cpu[frames / 2] : 0.0;
    r->update_cpu_p99 = frames ? upd_cpu[(long)((frames - 1) * 0.99)] : 0.0;
    free(upd_cpu);
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
    printf("{\"bench\":\"stream\",\"device\":\"%s\",\"slowdown\":%.1f,\"preset\":\"%s\",", o->device, o->slowdown,
           world_preset_name(o->preset));
    printf("\"speed\":%.0f,\"view\":%d,\"seconds\":%.1f,\"workers\":%d,\"release\":%s,"
           "\"void_frames\":%llu,\"frames\":%llu,\"max_void_chunks\":%u,\"late_frames\":%llu,\"fill_s\":%.2f,\n"
           " \"chunk_latency_ms\":{\"p50\":%.2f,\"p99\":%.2f},\"update_ms\":{\"p50\":%.3f,\"p99\":%.3f},\"update_cpu_ms\":{\"p50\":%.3f,\"p99\":%.3f},\n"
           " \"chunks\":{\"requested\":%llu,\"generated\":%llu,\"dropped\":%llu,\"evicted\":%llu,\"pool_evictions\":%llu,"
           "\"pool_failures\":%llu,\"resident\":%u,\"avg_verts\":%.0f},\n"
           " \"pools\":{\"slabs_peak\":%u,\"slabs_capacity\":%u,\"slab_bytes\":%zu,\"records_peak\":%u,\"records_capacity\":%u,"
           "\"reach\":%.2f},\n"
           " \"memory\":{\"world_carved_mib\":%.1f,\"budget_used_mib\":%.1f,\"rss_mib\":%.1f,\"rss_peak_mib\":%.1f},\n",
           o->speed, o->view, o->seconds, o->workers, o->release ? "true" : "false", (unsigned long long)r->void_frames,
           (unsigned long long)r->frames, r->max_void, (unsigned long long)r->late_frames, r->fill_s, r->lat_p50,
           r->lat_p99, r->update_p50, r->update_p99, r->update_cpu_p50, r->update_cpu_p99, (unsigned long long)s->requested, (unsigned long long)s->generated,
           (unsigned long long)s->dropped, (unsigned long long)s->evicted, (unsigned long long)s->pool_evictions,
           (unsigned long long)s->mesh_pool_failures, s->resident,
           s->generated ? (double)s->verts_total / (double)s->generated : 0.0, s->slabs_peak, s->slabs_capacity,
           sizeof(WorldVertex) * WORLD_SLAB_VERTS, s->records_peak, s->records_capacity, s->reach,
           (double)s->bytes_carved / 1048576.0, (double)r->budget_used / 1048576.0, r->rss_kib / 1024.0,
           r->hwm_kib / 1024.0);
    printf(" \"reach\":{\"min\":%.2f,\"mean\":%.2f,\"end\":%.2f},\"governor\":{\"peak\":%u,\"max\":%u,\"lod_steps\":%u,"
           "\"steps_up\":%llu,\"steps_down\":%llu,\"frames_degraded\":%llu,\"frames_lod_only\":%llu,\"frames_reach_in\":%llu,"
           "\"lod_dist_end\":[%.2f,%.2f,%.2f],\"fresh_latency_ms\":%.1f},\n",
           r->reach_min, r->frames ? r->reach_sum / (double)r->frames : 0.0, s->reach, s->gov_level_peak, s->gov_level_max,
           s->gov_lod_steps, (unsigned long long)s->gov_steps_up, (unsigned long long)s->gov_steps_down,
           (unsigned long long)r->degraded_frames, (unsigned long long)r->lod_frames, (unsigned long long)r->shrunk_frames,
           s->lod_dist_in_force[0], s->lod_dist_in_force[1], s->lod_dist_in_force[2], s->fresh_latency_ms);
    printf(" \"jobs\":{\"timed\":%llu,\"cpu_ms_mean\":%.3f,\"wall_ms_mean\":%.3f,\"wall_over_cpu\":%.2f},\n",
           (unsigned long long)s->jobs_timed, s->jobs_timed ? (double)s->job_cpu_ns * 1e-6 / (double)s->jobs_timed : 0.0,
           s->jobs_timed ? (double)s->job_wall_ns * 1e-6 / (double)s->jobs_timed : 0.0,
           s->job_cpu_ns ? (double)s->job_wall_ns / (double)s->job_cpu_ns : 0.0);
    double bakes = (double)s->island_bakes;
    printf(" \"islands\":{\"on\":%s,\"crossed\":%u,\"bakes\":%llu,\"bakes_per_s\":%.2f,\"bake_cpu_ms_mean\":%.2f,"
           "\"bake_wall_ms_mean\":%.2f,\"sync_bakes\":%llu,\"evictions\":%llu,\"chunk_waits\":%llu,\"chunks_before_bake\":%llu,"
           "\"slots_mib\":%.2f},\n",
           o->islands ? "true" : "false", r->islands_crossed, (unsigned long long)s->island_bakes,
           r->frames ? bakes * 60.0 / (double)r->frames : 0.0, bakes > 0 ? (double)s->island_bake_cpu_ns * 1e-6 / bakes : 0.0,
           bakes > 0 ? (double)s->island_bake_wall_ns * 1e-6 / bakes : 0.0, (unsigned long long)s->island_sync_bakes,
           (unsigned long long)s->island_evictions, (unsigned long long)s->island_waits,
           (unsigned long long)r->chunks_before_bake, (double)r->islands_bytes / 1048576.0);
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

static int usage(void) {
    fprintf(stderr, "usage: bench stream [--speed M_PER_S] [--view CHUNKS] [--seconds S] [--workers W] [--release] "
                    "[--pool MIB] [--sweep] [--slowdown K] [--preset low|medium|high] [--device pi4|handheld|pizero2] [--islands] [--route]\n");
    return 2;
}

int bench_stream(int argc, char **argv) {
    StreamOpts o = {1000.0, 10.0, 0, 2, 0, false, false, 1.0, WORLD_PRESET_MEDIUM, "native", false, false};
    bool sweep = false, workers_set = false, preset_set = false;
    const Device *dev = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--speed") && i + 1 < argc) o.speed = atof(argv[++i]);
        else if (!strcmp(argv[i], "--view") && i + 1 < argc) o.view = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) o.seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--workers") && i + 1 < argc) { o.workers = atoi(argv[++i]); workers_set = true; }
        else if (!strcmp(argv[i], "--release")) o.release = true;
        else if (!strcmp(argv[i], "--pool") && i + 1 < argc) o.pool_mib = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--sweep")) sweep = true;
        else if (!strcmp(argv[i], "--islands")) o.islands = true;
        else if (!strcmp(argv[i], "--route")) o.route = true;
        else if (!strcmp(argv[i], "--slowdown") && i + 1 < argc) o.slowdown = atof(argv[++i]);
        else if (!strcmp(argv[i], "--preset") && i + 1 < argc) {
            const char *name = argv[++i];
            int k = 0;
            while (k < WORLD_PRESET_COUNT && strcmp(world_preset_name((WorldPreset)k), name)) k++;
            if (k == WORLD_PRESET_COUNT) return usage();
            o.preset = (WorldPreset)k;
            preset_set = true;
        } else if (!strcmp(argv[i], "--device") && i + 1 < argc) {
            const char *name = argv[++i];
            dev = NULL;
            for (size_t k = 0; k < sizeof k_devices / sizeof k_devices[0]; k++)
                if (!strcmp(k_devices[k].name, name)) dev = &k_devices[k];
            if (!dev) return usage();
        } else {
            return usage();
        }
    }
    if (dev) {
        /* The device's slowdown, workers and preset, unless given explicitly. */
        o.device = dev->name;
        o.slowdown = dev->slowdown;
        if (!workers_set) o.workers = dev->workers;
        if (!preset_set) o.preset = dev->preset;
    }
    if (o.slowdown < 1.0) o.slowdown = 1.0;
    if (o.view < 0) o.view = 0;
    if (o.workers < 1) o.workers = 1;
    if (o.seconds < 1.0) o.seconds = 1.0;
    if (o.view == 0) {
        WorldParams p;
        world_params_default(&p);
        world_params_preset(&p, o.preset);
        o.view = p.live.view_radius;
    }
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
    printf("{\"bench\":\"stream_sweep\",\"device\":\"%s\",\"slowdown\":%.1f,\"preset\":\"%s\",\"view\":%d,\"workers\":%d,"
           "\"seconds\":%.1f,\"max_clean_speed\":%.0f}\n",
           o.device, o.slowdown, world_preset_name(o.preset), o.view, o.workers, o.seconds, best);
    return 0;
}
