/* skyisles headless run (--headless): no window and no GL, the real sim, world streaming and
 * collision at a fixed 60 Hz step paced like real frames, with a report of what a long run must
 * show: crashes, void frames, pool high-water marks, heap use after boot, resident memory.
 * --soak adds what a console left on for hours meets: world rebuilds, view changes, a pad that
 * comes and goes, boosts to the top speed. */
#include <fcntl.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "game.h"

#define STEP SIM_STEP

/* Resident memory (VmRSS) in KiB from /proc with a stack buffer: reading it must not allocate. */
static long rss_kib(void) {
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char buf[128];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return 0;
    buf[n] = 0;
    long size = 0, resident = 0;
    if (sscanf(buf, "%ld %ld", &size, &resident) != 2) return 0;
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static size_t heap_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
#else
    /* glibc before 2.33 (the release build's Debian 11 sysroot, older handheld firmwares): the
     * int-sized form, exact while the heap stays under 2 GiB. */
    struct mallinfo mi = mallinfo();
    return (size_t)(unsigned)mi.uordblks + (size_t)(unsigned)mi.hblkhd;
#endif
}

static void sleep_until(double t_ms) {
    double now = time_now_ms();
    if (t_ms <= now) return;
    double d = (t_ms - now) / 1000.0;
    struct timespec ts = {(time_t)d, (long)((d - (double)(time_t)d) * 1e9)};
    nanosleep(&ts, NULL);
}

typedef struct Soak {
    uint64_t rng;
    double next_rebuild, next_view, next_pad, next_boost, boost_until;
    uint32_t rebuilds, view_changes, pad_cycles, boosts;
    bool pad_down;
    uint32_t baseline_slabs;                     /* slabs in use once the first world settled */
    uint32_t worst_slabs_after;
    bool have_baseline, check_pending;
    uint32_t rebuild_checks, rebuild_over;       /* rebuilds whose pools settled, and those above the baseline */
} Soak;

static double soak_rand(Soak *s) {
    return (double)(splitmix64_next(&s->rng) >> 11) * (1.0 / 9007199254740992.0);
}

/* A new look of the world when one is due at flight time t: a few generation values of wp moved
 * inside their ranges. True when wp changed (the caller applies it as the menu would). */
static bool soak_rebuild(Soak *s, WorldParams *wp, double t) {
    if (t < s->next_rebuild) return false;
    static const char *const names[] = {"base_amplitude", "n3_amplitude", "island_threshold", "island_height",
                                        "cloud_threshold", "base_scale", "n3_scale", "seed"};
    for (int k = 0; k < 3; k++) {
        const WorldParamDesc *d = world_param_find(names[(size_t)(soak_rand(s) * 8.0) % 8]);
        if (!d) continue;
        double lo = d->min, hi = d->max;
        if (d->type == WORLD_PT_U64) { lo = 1.0; hi = 1e9; }
        WorldParams def;
        world_params_default(&def);
        /* Around the default rather than anywhere: the soak is about the machinery, not odd looks. */
        double v = world_param_get(&def, d), span = (hi - lo) * 0.15;
        double x = v + (soak_rand(s) * 2.0 - 1.0) * span;
        world_param_set(wp, d, x < lo ? lo : (x > hi ? hi : x));
    }
    s->rebuilds++;
    s->check_pending = true;
    s->next_rebuild = t + 6.0 + soak_rand(s) * 6.0;
    return true;
}

/* A new view radius for wp when one is due at flight time t, up to what world w was sized for.
 * True when wp changed. */
static bool soak_view(Soak *s, WorldParams *wp, const World *w, double t) {
    if (t < s->next_view) return false;
    int r = 3 + (int)(soak_rand(s) * (double)(world_params(w)->create.view_radius_max - 2));
    wp->live.view_radius = world_clamp_view_radius(r);
    s->view_changes++;
    s->next_view = t + 4.0 + soak_rand(s) * 6.0;
    return true;
}

/* The rest of a soak's events for the flight time t (after its world changes): a pad plugged and
 * unplugged, boosts; then whether the pools came back to their baseline once a rebuild settled.
 * True while a boost is on. */
static bool soak_step(Soak *s, Platform *pf, const WorldStats *ws, double t, int *virtual_pad) {
    if (t >= s->next_pad) {
        *virtual_pad = platform_virtual_pad(pf, *virtual_pad);   /* plug or unplug */
        s->pad_cycles++;
        s->next_pad = t + 10.0 + soak_rand(s) * 10.0;
    }
    if (t >= s->next_boost) {
        s->boost_until = t + 12.0;   /* the climb above the world, then the boost */
        s->boosts++;
        s->next_boost = t + 25.0 + soak_rand(s) * 20.0;
    }
    bool boost = t < s->boost_until;
    /* Pools back at their baseline once a rebuild has settled: the first moment nothing is in
     * flight after it, the slabs in use (meshes not yet taken) are what they were before any
     * rebuild. A leak would show as a count that only grows. */
    if (ws->in_flight != 0) return boost;
    if (!s->have_baseline && t > 4.0) {
        s->baseline_slabs = ws->slabs_in_use;
        s->have_baseline = true;
    } else if (s->check_pending) {
        s->rebuild_checks++;
        if (ws->slabs_in_use > s->baseline_slabs) s->rebuild_over++;
        if (ws->slabs_in_use > s->worst_slabs_after) s->worst_slabs_after = ws->slabs_in_use;
        s->check_pending = false;
    }
    return boost;
}

/* What a headless run measured. */
typedef struct HeadlessRun {
    uint64_t frames, void_frames, void_frames_flying;
    long long heap_calls;                        /* after boot; -1 when not counted */
    size_t heap_use0, heap_use_max;
    long rss_first, rss_max, rss_last, rss_warm;
    double longest_ms, frame_sum_ms, wall_s, warmup_s;
    WorldStats ws0;
} HeadlessRun;

/* Memory once a second of frames: RSS and the heap in use. Warm: the pools' touched pages reach
 * their peak within the first minutes (the first boost, the widest view); growth counts from there. */
static void sample_memory(HeadlessRun *r, double t) {
    long rss = rss_kib();
    if (rss > r->rss_max) r->rss_max = rss;
    r->rss_last = rss;
    if (!r->rss_warm && t > r->warmup_s) r->rss_warm = rss;
    size_t h = heap_in_use();
    if (h > r->heap_use_max) r->heap_use_max = h;
}

static void report_json(const GameOptions *o, const GameSession *ses, const World *w, const HeadlessRun *r,
                        const Soak *soak) {
    const Play *p = &ses->play;
    WorldStats ws = world_stats(w);
    double growth = r->rss_warm ? (double)(r->rss_last - r->rss_warm) * 100.0 / (double)r->rss_warm : 0.0;
    const double M = 1.0 / 1048576.0;
    /* seconds: simulated time (the frames at the fixed step, what --seconds asks for); flight_seconds:
     * the part of it in the air or on the wheels (each crash's PLAY_CRASH_SECONDS screen left out). */
    printf("{\"mode\": \"%s\", \"seconds\": %.1f, \"flight_seconds\": %.1f, \"wall_seconds\": %.1f, "
           "\"frames\": %llu, \"autopilot\": %s,\n",
           o->soak ? "soak" : "headless", (double)r->frames * (double)STEP, p->flight_s, r->wall_s,
           (unsigned long long)r->frames, o->autopilot ? "true" : "false");
    printf(" \"crashes\": %llu, \"respawns\": %llu, \"void_frames\": %llu, \"void_frames_flying\": %llu,\n",
           (unsigned long long)p->crashes, (unsigned long long)p->respawns, (unsigned long long)r->void_frames,
           (unsigned long long)r->void_frames_flying);
    printf(" \"frame_ms\": {\"mean\": %.3f, \"longest\": %.3f},\n",
           r->frames ? r->frame_sum_ms / (double)r->frames : 0.0, r->longest_ms);
    printf(" \"collision_ms\": {\"mean\": %.4f, \"max\": %.4f, \"steps_max\": %u, \"blocks_max\": %u},\n",
           r->frames ? p->collide_ms_sum / (double)r->frames : 0.0, p->collide_ms_max, p->collide_steps_max,
           p->collide_blocks_max);
    printf(" \"speed_max\": %.1f, \"world\": {\"generated\": %llu, \"epoch_changes\": %u, \"reach\": %.2f, "
           "\"pool_evictions\": %llu, \"mesh_pool_failures\": %llu},\n",
           (double)ses->model.speed_limit, (unsigned long long)(ws.generated - r->ws0.generated),
           ws.epoch - r->ws0.epoch, (double)ws.reach, (unsigned long long)ws.pool_evictions,
           (unsigned long long)ws.mesh_pool_failures);
    printf(" \"pools\": {\"slabs\": %u, \"slabs_peak\": %u, \"records\": %u, \"records_peak\": %u},\n",
           ws.slabs_capacity, ws.slabs_peak, ws.records_capacity, ws.records_peak);
    printf(" \"heap_calls_after_boot\": %lld, \"heap_in_use_mib\": {\"boot\": %.2f, \"max\": %.2f},\n", r->heap_calls,
           (double)r->heap_use0 * M, (double)r->heap_use_max * M);
    printf(" \"rss_mib\": {\"first\": %.1f, \"warm\": %.1f, \"warmup_s\": %.0f, \"max\": %.1f, \"last\": %.1f, "
           "\"growth_after_warmup_pct\": %.2f}",
           (double)r->rss_first / 1024.0, (double)r->rss_warm / 1024.0, r->warmup_s, (double)r->rss_max / 1024.0,
           (double)r->rss_last / 1024.0, growth);
    if (o->soak)
        printf(",\n \"soak\": {\"rebuilds\": %u, \"view_changes\": %u, \"pad_cycles\": %u, \"boosts\": %u, "
               "\"pool_baseline_slabs\": %u, \"rebuilds_settled\": %u, \"rebuilds_above_baseline\": %u, "
               "\"worst_slabs_after_rebuild\": %u}",
               soak->rebuilds, soak->view_changes, soak->pad_cycles, soak->boosts, soak->baseline_slabs,
               soak->rebuild_checks, soak->rebuild_over, soak->worst_slabs_after);
    printf("}\n");
}

static void report_text(const Play *p, const HeadlessRun *r) {
    printf("headless %.0f s (%llu frames): %.0f s flown, %llu crashes, %llu void frames, longest frame %.2f ms,"
           " collision max %.3f ms, heap calls after boot %lld, RSS %.1f -> %.1f MiB (max %.1f)\n",
           (double)r->frames * (double)STEP, (unsigned long long)r->frames, p->flight_s, (unsigned long long)p->crashes,
           (unsigned long long)r->void_frames, r->longest_ms, p->collide_ms_max, r->heap_calls,
           (double)r->rss_first / 1024.0, (double)r->rss_last / 1024.0, (double)r->rss_max / 1024.0);
}

int game_headless(Game *g, uint64_t (*heap_calls)(void)) {
    if (g->cfg.opt.replay) return game_replay_headless(&g->cfg, &g->svc, &g->ses, &g->crs);
    if (g->cfg.opt.record_attract) return game_attract_record(&g->cfg, &g->svc, &g->ses, &g->crs);
    const Play *p = &g->ses.play;
    /* Loading, as the title screen does for a player: the view fills before the flight counts. */
    double wait0 = time_now_ms();
    game_wait_world(g, 60.0);
    g->svc.boot.wait_ms = time_now_ms() - wait0;
    log_info("skyisles: headless flight started%s", g->cfg.opt.soak ? " (soak)" : "");
    Soak soak;
    memset(&soak, 0, sizeof soak);
    soak.rng = world_params(g->svc.world)->gen.seed ^ 0x50a4ull;
    soak.next_rebuild = 8.0;
    soak.next_view = 5.0;
    soak.next_pad = 12.0;
    soak.next_boost = 20.0;
    HeadlessRun r;
    memset(&r, 0, sizeof r);
    double t0 = time_now_ms(), next_frame = t0;
    uint64_t heap0 = heap_calls ? heap_calls() : 0;
    r.heap_use0 = r.heap_use_max = heap_in_use();
    r.rss_first = r.rss_max = r.rss_last = rss_kib();
    r.ws0 = world_stats(g->svc.world);
    int virtual_pad = -1;
    double limit = g->cfg.opt.seconds > 0.0 ? g->cfg.opt.seconds : 1e18;
    r.warmup_s = limit / 3.0 < 300.0 ? limit / 3.0 : 300.0;
    /* --seconds counts simulated time, which passes every frame whatever the screen (a crash, a
     * pause for a lost pad), so a run always ends. */
    double last_frame = t0;
    while ((double)r.frames * (double)STEP < limit && !p->quit) {
        double f0 = time_now_ms();
        if (f0 - last_frame > PLAY_STALL_SECONDS * 1000.0) {
            /* Stopped or suspended: the sim steps one fixed step a frame, so nothing leaps. */
            log_info("skyisles: a %.1f s gap between frames (suspended, stopped or held in a debugger): the flight "
                     "goes on from where it was", (f0 - last_frame) / 1000.0);
            play_count_stall(&g->ses.play);
        }
        last_frame = f0;
        PlatformEvents ev;
        platform_poll(g->svc.platform, &ev);
        if (ev.quit) break;   /* SIGINT / SIGTERM: a clean exit */
        uint64_t v0 = world_stats(g->svc.world).void_frames;
        game_frame(g, &ev, STEP);
        game_boot_clock_frame(&g->svc, p, false);
        WorldStats ws = world_stats(g->svc.world);
        if (ws.void_frames > v0) {
            r.void_frames++;
            if (p->state == PLAY_FLY) r.void_frames_flying++;
        }
        r.frames++;
        if (g->cfg.opt.soak) {
            /* One change at a time, each applied as the menu applies it. */
            if (soak_rebuild(&soak, &g->cfg.set.world, p->flight_s)) game_apply_settings(&g->cfg, &g->svc, &g->ses, &g->crs, MENU_CHANGED_WORLD);
            if (soak_view(&soak, &g->cfg.set.world, g->svc.world, p->flight_s)) game_apply_settings(&g->cfg, &g->svc, &g->ses, &g->crs, MENU_CHANGED_WORLD);
            play_set_boost(&g->ses.play, soak_step(&soak, g->svc.platform, &ws, p->flight_s, &virtual_pad));
        }
        if (r.frames % 60 == 0) sample_memory(&r, p->flight_s);
        double ms = time_now_ms() - f0;
        r.frame_sum_ms += ms;
        if (ms > r.longest_ms && r.frames > 30) r.longest_ms = ms;
        next_frame += 1000.0 / 60.0;
        if (next_frame < time_now_ms() - 250.0) next_frame = time_now_ms();   /* behind: do not sprint */
        sleep_until(next_frame);
    }
    if (virtual_pad >= 0) platform_virtual_pad(g->svc.platform, virtual_pad);
    r.heap_calls = heap_calls ? (long long)(heap_calls() - heap0) : -1LL;
    int rc = game_replay_finish(&g->crs, &g->ses, &g->cfg.opt);
    r.wall_s = (time_now_ms() - t0) / 1000.0;
    if (g->cfg.opt.json) report_json(&g->cfg.opt, &g->ses, g->svc.world, &r, &soak);
    else report_text(&g->ses.play, &r);
    fflush(stdout);
    return rc;
}
