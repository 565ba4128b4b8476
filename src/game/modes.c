/* skyisles headless modes: --screenshot (fixed-step frames, wait for the world, PNG) and
 * --bench-frames (main-thread CPU per frame on a fixed flight path, JSON or text). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game.h"

#define STEP (1.0f / 60.0f)

int game_screenshot(Game *g) {
    int frames = g->cfg.opt.frames > 0 ? g->cfg.opt.frames : 1;
    PlatformEvents none;   /* a shot takes no input: the same frames on every machine */
    memset(&none, 0, sizeof none);
    for (int i = 0; i < frames; i++) {
        if (platform_stop_signal()) return 0;   /* main logs the stop */
        game_frame(g, &none, i == 0 ? 0.0f : STEP);
        if (i + 1 < frames) {
            game_draw(g);
            platform_swap(g->svc.platform);
        }
    }
    /* Terrain streams in on the workers: let it finish (time frozen) so a shot is repeatable. */
    game_wait_world(g, g->cfg.opt.wait_s > 0 ? g->cfg.opt.wait_s : 60.0);
    if (platform_stop_signal()) return 0;
    game_show(&g->cfg, &g->svc, &g->ses, &g->crs.tour, g->cfg.opt.show);
    if (g->ses.play.overlay == OVERLAY_MAP && g->ses.play.map_world)   /* --show worldmap: a flight's islands */
        game_delivery_stage_seen(&g->crs.delivery, g->ses.flight.x, g->ses.flight.z, 40000.0);
    overlay_draw(&g->cfg, &g->svc, &g->ses, &g->crs);
    game_draw(g);
    render_finish(g->svc.render);
    size_t bytes = (size_t)g->svc.disp_w * (size_t)g->svc.disp_h * 4;
    uint8_t *px = malloc(bytes);   /* once, for the shot: not on a frame path */
    if (!px) {
        fprintf(stderr, "skyisles: out of memory for a %dx%d screenshot\n", g->svc.disp_w, g->svc.disp_h);
        return 1;
    }
    SkyError err = {0};
    bool ok = render_read_pixels(g->svc.disp_w, g->svc.disp_h, px) &&
              render_write_png(g->cfg.opt.screenshot, g->svc.disp_w, g->svc.disp_h, px, &err);
    free(px);
    RenderStats rs = render_stats(g->svc.render);
    if (!ok) {
        fprintf(stderr, "%s\n", err.msg[0] ? err.msg : "skyisles: reading the frame back failed");
        return 1;
    }
    log_info("skyisles: wrote %s after %llu sim steps (%dx%d, low-res %dx%d, %u draw calls, %u triangles, %u chunks "
             "visible; camera %.1f,%.1f,%.1f yaw %.1f pitch %.1f)",
             g->cfg.opt.screenshot, (unsigned long long)g->ses.play.steps, g->svc.disp_w, g->svc.disp_h, rs.low_w, rs.low_h,
             rs.draw_calls, rs.triangles, rs.chunks_visible, g->ses.camera.x, g->ses.camera.y, g->ses.camera.z, g->ses.camera.yaw * 57.29578f,
             g->ses.camera.pitch * 57.29578f);
    return 0;
}

/* Resident memory from /proc (Linux): VmRSS now and VmHWM, the peak. 0 when unavailable. */
static void rss_kib(long *now, long *peak) {
    *now = *peak = 0;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "VmRSS:", 6)) *now = strtol(line + 6, NULL, 10);
        else if (!strncmp(line, "VmHWM:", 6)) *peak = strtol(line + 6, NULL, 10);
    }
    fclose(f);
}

static double thread_cpu_ms(void) { return (double)time_thread_cpu_ns() / 1e6; }

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : (x > y ? 1 : 0);
}

static double percentile(double *v, int n, double q) {
    int i = (int)(q * (n - 1) + 0.5);
    return v[i < 0 ? 0 : (i >= n ? n - 1 : i)];
}

/* What a bench measured: per-frame CPU, wall and own (outside GL) times, and the renderer's sums. */
typedef struct Bench {
    int n;
    double *cpu, *wall, *own, *frame, *sorted;   /* frame: start to the GPU's finish, all of it */
    const char *longest_phase;  /* what the longest frame was doing */
    int longest_i;
    uint32_t *calls;            /* draw calls of each frame (--bench-course) */
    bool course;                /* --bench-course: odd frames draw the rings, the course HUD and a ghost */
    uint32_t n_rings;
    uint64_t dc_sum, tri_sum, up_sum, vis_sum;
    uint32_t dc_max, tri_max, up_max;
    double render_ms_sum, gpu_wait_sum, driver_sum;
    double p50, p99, cmax, w50, w99, o50, o99, f50, f99, fmax;
    WorldStats ws0;
    Renderer *render;           /* whose counts each frame adds; it draws a course's rings */
    /* --bench-course: the parts its frames switch on and off */
    Tour *tour;
    Ghost *ghost;
    Replay *ghost_run;
} Bench;

/* The state a report prints beside the frames: the renderer's and the world's at the end, the
 * display size and the budget. */
typedef struct BenchEnd {
    RenderStats rs;
    WorldStats ws;
    const WorldParams *wp;
    int w, h;
    size_t mem_size, mem_free;
    GameMemory carved;
} BenchEnd;

/* --bench-course: the island tour laid (the aircraft keeps its path) with its rings uploaded; a
 * ghost drawn from the first replay buffer. False with a line when the tour cannot be laid. */
static bool bench_course_setup(Bench *b, GameCourses *crs, const GameServices *svc, const FlightState *flight) {
    FlightState scratch = *flight;
    SkyError err = {0};
    CourseIsland home;
    course_island_home(svc->world, svc->home.island, &home);
    if (!tour_start(&crs->tour, mode_bench(), svc->world, &home, svc->home.codex, &scratch, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return false;
    }
    static RenderRing rings[RENDER_RINGS_MAX];
    b->n_rings = tour_render_rings(&crs->tour, rings, RENDER_RINGS_MAX);
    render_rings_set(svc->render, rings, b->n_rings);
    crs->ghost_run.h.steps = 1;   /* drawn, never stepped: the bench poses it */
    b->tour = &crs->tour;
    b->ghost = &crs->ghost;
    b->ghost_run = &crs->ghost_run;
    return true;
}

/* Frame i's kind: odd frames with the course's rings, its HUD and a ghost 12 m to the right of
 * the aircraft and 8 m ahead (where a rival flies), even frames without; the same flight. */
static void bench_course_frame(const Bench *b, const FlightState *flight, int i) {
    bool on = (i & 1) != 0;
    tour_hide(b->tour, !on);
    render_rings_next(b->render, on ? 0u : b->n_rings, 1.0f);
    memset(b->ghost, 0, sizeof *b->ghost);
    if (!on) return;
    b->ghost->replay = b->ghost_run;
    FlightState f = *flight;
    float sy = (float)det_sin(f.yaw), cy = (float)det_cos(f.yaw);
    f.x += 12.0 * cy + 8.0 * sy;
    f.z += 12.0 * sy - 8.0 * cy;
    b->ghost->flight = f;
}

/* When a bench frame's measures began (thread CPU and wall ms) and where its drawing began (CPU). */
typedef struct BenchClock {
    double c0, w0, c1;
} BenchClock;

/* Frame i's end once it is drawn: the CPU and wall time taken, the GPU wait (swap + finish)
 * outside them, and the renderer's counts. */
static void bench_frame_end(Bench *b, const BenchClock *k, Platform *pf, const FlightState *flight, int i) {
    double c2 = thread_cpu_ms(), w2 = time_now_ms();
    if (b->course) bench_course_frame(b, flight, 0);   /* the next frame's steps fly free, as the even frames' */
    platform_swap(pf);
    render_finish(b->render);
    double w3 = time_now_ms();
    b->gpu_wait_sum += w3 - w2;
    b->frame[i] = w3 - k->w0;
    b->cpu[i] = c2 - k->c0;
    b->wall[i] = w2 - k->w0;
    b->render_ms_sum += c2 - k->c1;
    RenderStats rs = render_stats(b->render);
    b->own[i] = b->cpu[i] - rs.driver_ms > 0.0 ? b->cpu[i] - rs.driver_ms : 0.0;
    b->driver_sum += rs.driver_ms;
    b->dc_sum += rs.draw_calls;
    if (b->calls) b->calls[i] = rs.draw_calls;
    b->tri_sum += rs.triangles;
    b->up_sum += rs.uploads;
    b->vis_sum += rs.chunks_visible;
    if (rs.draw_calls > b->dc_max) b->dc_max = rs.draw_calls;
    if (rs.triangles > b->tri_max) b->tri_max = rs.triangles;
    if (rs.uploads > b->up_max) b->up_max = rs.uploads;
}

/* Sorts a copy of v into b->sorted for its percentiles. */
static void bench_sort(Bench *b, const double *v) {
    memcpy(b->sorted, v, (size_t)b->n * sizeof *b->sorted);
    qsort(b->sorted, (size_t)b->n, sizeof *b->sorted, cmp_double);
}

static void bench_percentiles(Bench *b) {
    int n = b->n;
    bench_sort(b, b->cpu);
    b->p50 = percentile(b->sorted, n, 0.50);
    b->p99 = percentile(b->sorted, n, 0.99);
    b->cmax = b->sorted[n - 1];
    bench_sort(b, b->wall);
    b->w50 = percentile(b->sorted, n, 0.50);
    b->w99 = percentile(b->sorted, n, 0.99);
    bench_sort(b, b->own);
    b->o50 = percentile(b->sorted, n, 0.50);
    b->o99 = percentile(b->sorted, n, 0.99);
    bench_sort(b, b->frame);
    b->f50 = percentile(b->sorted, n, 0.50);
    b->f99 = percentile(b->sorted, n, 0.99);
    b->fmax = b->sorted[n - 1];
}

static void bench_json(const BenchEnd *e, const Bench *b) {
    int n = b->n;
    const RenderStats rs = e->rs;
    const WorldStats ws = e->ws;
    const WorldParams *wp = e->wp;
    long rss_now, rss_peak;
    rss_kib(&rss_now, &rss_peak);
    const double M = 1.0 / 1048576.0;
    const GameMemory *cm = &e->carved;
    const double slab_mib = (double)(sizeof(WorldVertex) * WORLD_SLAB_VERTS) * M;
    printf("{\"frames\": %d, \"size\": [%d, %d], \"low_res\": [%d, %d], \"view_radius\": %d, \"seed\": %llu,\n", n,
           e->w, e->h, rs.low_w, rs.low_h, wp->live.view_radius, (unsigned long long)wp->gen.seed);
    printf(" \"frame_ms\": {\"p50\": %.3f, \"p99\": %.3f, \"max\": %.3f, \"max_frame\": %d, \"max_phase\": \"%s\"},\n",
           b->f50, b->f99, b->fmax, b->longest_i, b->longest_phase ? b->longest_phase : "flight");
    printf(" \"cpu_ms\": {\"p50\": %.3f, \"p99\": %.3f, \"max\": %.3f, \"render_mean\": %.3f},\n", b->p50, b->p99,
           b->cmax, b->render_ms_sum / n);
    printf(" \"cpu_ms_excl_gl_driver\": {\"p50\": %.3f, \"p99\": %.3f}, \"gl_driver_ms_mean\": %.3f,\n", b->o50, b->o99,
           b->driver_sum / n);
    printf(" \"wall_ms_excl_gpu_wait\": {\"p50\": %.3f, \"p99\": %.3f}, \"gpu_wait_ms_mean\": %.3f,\n", b->w50, b->w99,
           b->gpu_wait_sum / n);
    printf(" \"draw_calls\": {\"mean\": %.1f, \"max\": %u}, \"triangles\": {\"mean\": %.0f, \"max\": %u},\n",
           (double)b->dc_sum / n, b->dc_max, (double)b->tri_sum / n, b->tri_max);
    printf(" \"uploads_per_frame\": {\"mean\": %.2f, \"max\": %u}, \"chunks_visible_mean\": %.1f,\n",
           (double)b->up_sum / n, b->up_max, (double)b->vis_sum / n);
    printf(" \"chunks_resident\": %u, \"gpu_bytes\": %llu, \"world_void_frames\": %llu, \"world_generated\": %llu,\n",
           rs.chunks_resident, (unsigned long long)rs.gpu_bytes,
           (unsigned long long)(ws.void_frames - b->ws0.void_frames), (unsigned long long)(ws.generated - b->ws0.generated));
    printf(" \"memory_mib\": {\"budget\": %.1f, \"home_island\": %.2f, \"jobs\": %.2f, \"world\": %.2f, "
           "\"world_mesh_pool\": %.2f, \"renderer\": %.2f, \"free\": %.2f, \"rss\": %.1f, \"rss_peak\": %.1f},\n",
           (double)e->mem_size * M, (double)cm->home * M, (double)cm->jobs * M, (double)cm->world * M,
           (double)cm->world_mesh_pool * M, (double)cm->render * M, (double)e->mem_free * M,
           (double)rss_now / 1024.0, (double)rss_peak / 1024.0);
    printf(" \"world_mesh_pool\": {\"slabs_per_chunk_mean\": %.1f, \"slabs\": %u, \"peak_slabs\": %u, \"peak_mib\": %.2f, "
           "\"pool_evictions\": %llu, \"failures\": %llu, \"reach_shrinks\": %llu, \"reach\": %.2f},\n",
           ws.generated ? (double)ws.verts_total / (double)ws.generated / WORLD_SLAB_VERTS : 0.0, ws.slabs_capacity,
           ws.slabs_peak, (double)ws.slabs_peak * slab_mib, (unsigned long long)ws.pool_evictions,
           (unsigned long long)ws.mesh_pool_failures, (unsigned long long)ws.reach_shrinks, (double)ws.reach);
    printf(" \"boot_fill\": {\"void_frames\": %llu, \"pool_evictions\": %llu, \"generated\": %llu},\n",
           (unsigned long long)b->ws0.void_frames, (unsigned long long)b->ws0.pool_evictions,
           (unsigned long long)b->ws0.generated);
    printf(" \"budget\": {\"cpu_p50_ms\": 2.0, \"cpu_p99_ms\": 4.0, \"triangles\": 150000, \"draw_calls\": 200},\n");
    printf(" \"within_budget\": %s}\n",
           (b->o50 <= 2.0 && b->o99 <= 4.0 && b->tri_max <= 150000 && b->dc_max <= 200) ? "true" : "false");
}

static void bench_text(const BenchEnd *e, const Bench *b) {
    int n = b->n;
    const RenderStats rs = e->rs;
    const WorldStats ws = e->ws;
    long rss_now, rss_peak;
    rss_kib(&rss_now, &rss_peak);
    const double M = 1.0 / 1048576.0;
    const GameMemory *cm = &e->carved;
    const double slab_mib = (double)(sizeof(WorldVertex) * WORLD_SLAB_VERTS) * M;
    printf("bench %d frames at %dx%d (low-res %dx%d), view radius %d\n", n, e->w, e->h, rs.low_w, rs.low_h,
           e->wp->live.view_radius);
    printf("  frame ms (start to the GPU's finish): p50 %.3f  p99 %.3f  max %.3f (frame %d, %s)\n", b->f50, b->f99,
           b->fmax, b->longest_i, b->longest_phase ? b->longest_phase : "flight");
    printf("  main-thread CPU ms/frame: p50 %.3f  p99 %.3f  max %.3f (render %.3f mean)\n", b->p50, b->p99, b->cmax,
           b->render_ms_sum / n);
    printf("  excluding time inside GL calls: p50 %.3f  p99 %.3f (GL driver %.3f mean)\n", b->o50, b->o99,
           b->driver_sum / n);
    printf("  draw calls mean %.1f max %u; triangles mean %.0f max %u; uploads/frame mean %.2f max %u\n",
           (double)b->dc_sum / n, b->dc_max, (double)b->tri_sum / n, b->tri_max, (double)b->up_sum / n, b->up_max);
    printf("  GPU bytes %.2f MiB, chunks resident %u\n", (double)rs.gpu_bytes / 1048576.0, rs.chunks_resident);
    printf("  budget %.1f MiB: home island %.2f, jobs %.2f, world %.2f (mesh pool %.2f), renderer %.2f, free %.2f\n",
           (double)e->mem_size * M, (double)cm->home * M, (double)cm->jobs * M, (double)cm->world * M,
           (double)cm->world_mesh_pool * M, (double)cm->render * M, (double)e->mem_free * M);
    printf("  mesh pool: peak %u of %u slabs (%.2f MiB), %llu pool evictions, %llu failures, %llu reach shrinks; "
           "RSS %.1f MiB (peak %.1f)\n",
           ws.slabs_peak, ws.slabs_capacity, (double)ws.slabs_peak * slab_mib, (unsigned long long)ws.pool_evictions,
           (unsigned long long)ws.mesh_pool_failures, (unsigned long long)ws.reach_shrinks, (double)rss_now / 1024.0,
           (double)rss_peak / 1024.0);
}

/* The median of the frames of one kind (odd: with the course) of v, sorted in b->sorted. */
static double median_of(Bench *b, const double *v, int odd) {
    int m = 0;
    for (int i = odd; i < b->n; i += 2) b->sorted[m++] = v[i];
    if (m == 0) return 0.0;
    qsort(b->sorted, (size_t)m, sizeof *b->sorted, cmp_double);
    return b->sorted[m / 2];
}

/* --bench-course: both kinds of frame, interleaved in one run, side by side and their ratio. */
static void bench_course_report(Bench *b) {
    double cpu[2], wall[2], own[2], calls[2];
    uint32_t cmax[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        cpu[k] = median_of(b, b->cpu, k);
        wall[k] = median_of(b, b->wall, k);
        own[k] = median_of(b, b->own, k);
        uint64_t sum = 0;
        int m = 0;
        for (int i = k; i < b->n; i += 2, m++) {
            sum += b->calls[i];
            if (b->calls[i] > cmax[k]) cmax[k] = b->calls[i];
        }
        calls[k] = m ? (double)sum / m : 0.0;
    }
    printf("  course A/B (%d frames each, interleaved; B: %u rings, the course HUD and a ghost):\n", b->n / 2, b->n_rings);
    printf("    frame CPU ms median: without %.3f, with %.3f (ratio %.3f); excluding GL %.3f, %.3f (ratio %.3f)\n",
           cpu[0], cpu[1], cpu[0] > 0.0 ? cpu[1] / cpu[0] : 0.0, own[0], own[1], own[0] > 0.0 ? own[1] / own[0] : 0.0);
    printf("    frame wall ms median (excluding the GPU wait): without %.3f, with %.3f (ratio %.3f)\n", wall[0], wall[1],
           wall[0] > 0.0 ? wall[1] / wall[0] : 0.0);
    printf("    draw calls mean: without %.1f (max %u), with %.1f (max %u): %+.1f\n", calls[0], cmax[0], calls[1], cmax[1],
           calls[1] - calls[0]);
}

int game_bench(Game *g) {
    Bench b;
    memset(&b, 0, sizeof b);
    b.n = g->cfg.opt.bench_frames;
    /* Per-frame records are allocated once before the measured loop. */
    b.cpu = calloc((size_t)b.n, sizeof *b.cpu);
    b.wall = calloc((size_t)b.n, sizeof *b.wall);
    b.sorted = calloc((size_t)b.n, sizeof *b.sorted);
    b.own = calloc((size_t)b.n, sizeof *b.own);
    b.frame = calloc((size_t)b.n, sizeof *b.frame);
    b.course = g->cfg.opt.bench_course;
    b.render = g->svc.render;
    if (b.course) b.calls = calloc((size_t)b.n, sizeof *b.calls);
    int rc = 0;
    if (!b.cpu || !b.wall || !b.sorted || !b.own || !b.frame || (b.course && !b.calls)) {
        fprintf(stderr, "skyisles: out of memory for %d bench frames\n", b.n);
        rc = 1;
        goto out;
    }
    render_set_driver_timing(true);
    /* Start with the view filled, as a player would after the first seconds. */
    PlatformEvents none;
    memset(&none, 0, sizeof none);
    game_frame(g, &none, 0.0f);
    game_wait_world(g, 60.0);
    if (g->cfg.opt.show) game_show(&g->cfg, &g->svc, &g->ses, &g->crs.tour, g->cfg.opt.show);   /* --show tour|sky: the frames draw a course's rings */
    if (b.course && !bench_course_setup(&b, &g->crs, &g->svc, &g->ses.flight)) {
        rc = 1;
        goto out;
    }
    b.ws0 = world_stats(g->svc.world);   /* the measured frames' world counters start here */
    for (int i = 0; i < b.n; i++) {   /* the fixed path */
        BenchClock k = {0};
        k.c0 = thread_cpu_ms();
        k.w0 = time_now_ms();
        PlatformEvents ev;
        platform_poll(g->svc.platform, &ev);
        if (ev.quit) goto out;   /* stopped: no report from a cut-short run */
        game_frame(g, &ev, STEP);
        if (b.course) bench_course_frame(&b, &g->ses.flight, i);
        k.c1 = thread_cpu_ms();
        overlay_draw(&g->cfg, &g->svc, &g->ses, &g->crs);   /* the HUD costs what it costs in play */
        game_draw(g);
        const char *phase = game_frame_phase(&g->ses, &g->crs, false, false);   /* before the end hides the course */
        bench_frame_end(&b, &k, g->svc.platform, &g->ses.flight, i);
        if (b.frame[i] > b.frame[b.longest_i] || i == 0) b.longest_i = i, b.longest_phase = phase;
    }
    bench_percentiles(&b);
    BenchEnd e = {render_stats(g->svc.render), world_stats(g->svc.world), world_params(g->svc.world), g->svc.disp_w, g->svc.disp_h,
                  g->svc.mem.size, mem_budget_free(&g->svc.mem), g->svc.carved};
    if (g->cfg.opt.json) bench_json(&e, &b);
    else bench_text(&e, &b);
    if (b.course) bench_course_report(&b);
out:
    free(b.calls);
    free(b.cpu);
    free(b.wall);
    free(b.sorted);
    free(b.own);
    free(b.frame);
    return rc;
}
