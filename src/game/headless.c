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

#define STEP (1.0f / 60.0f)

/* Heap calls made by skyisles's own code, when the binary is linked with the counting wrapper
 * (main.c); absent in programs that are not. */
uint64_t game_heap_calls(void) __attribute__((weak));

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

/* A new look of the world: a few generation values moved inside their ranges. */
static void soak_rebuild(Game *g, Soak *s) {
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
        world_param_set(&g->set.world, d, x < lo ? lo : (x > hi ? hi : x));
    }
    game_apply_settings(g, MENU_CHANGED_WORLD);
    s->rebuilds++;
}

int game_headless(Game *g) {
    Play *p = &g->play;
    /* Loading, as the title screen does for a player: the view fills before the flight counts. */
    game_wait_world(g, 60.0);
    log_info("skyisles: headless flight started%s", g->opt.soak ? " (soak)" : "");
    Soak soak;
    memset(&soak, 0, sizeof soak);
    soak.rng = world_params(g->world)->gen.seed ^ 0x50a4ull;
    double t0 = time_now_ms(), next_frame = t0;
    uint64_t heap0 = game_heap_calls ? game_heap_calls() : 0;
    size_t heap_use0 = heap_in_use(), heap_use_max = heap_use0;
    long rss_first = rss_kib(), rss_max = rss_first, rss_last = rss_first, rss_warm = 0;
    double longest_ms = 0.0, frame_sum_ms = 0.0;
    uint64_t frames = 0, void_frames = 0, void_frames_flying = 0;
    WorldStats ws0 = world_stats(g->world);
    int virtual_pad = -1;
    double limit = g->opt.seconds > 0.0 ? g->opt.seconds : 1e18;
    double warmup_s = limit / 3.0 < 300.0 ? limit / 3.0 : 300.0;
    soak.next_rebuild = 8.0;
    soak.next_view = 5.0;
    soak.next_pad = 12.0;
    soak.next_boost = 20.0;
    while (p->flight_s < limit && !p->quit) {
        double f0 = time_now_ms();
        PlatformEvents ev;
        platform_poll(g->platform, &ev);
        if (ev.quit) break;   /* SIGINT / SIGTERM: a clean exit */
        uint64_t v0 = world_stats(g->world).void_frames;
        game_frame(g, &ev, STEP);
        WorldStats ws = world_stats(g->world);
        if (ws.void_frames > v0) {
            void_frames++;
            if (p->state == PLAY_FLY) void_frames_flying++;
        }
        frames++;
        double t = p->flight_s;
        if (g->opt.soak) {
            if (t >= soak.next_rebuild) {
                soak_rebuild(g, &soak);
                soak.check_pending = true;
                soak.next_rebuild = t + 6.0 + soak_rand(&soak) * 6.0;
            }
            if (t >= soak.next_view) {
                int r = 3 + (int)(soak_rand(&soak) * (double)(world_params(g->world)->create.view_radius_max - 2));
                g->set.world.live.view_radius = world_clamp_view_radius(r);
                game_apply_settings(g, MENU_CHANGED_WORLD);
                soak.view_changes++;
                soak.next_view = t + 4.0 + soak_rand(&soak) * 6.0;
            }
            if (t >= soak.next_pad) {
                virtual_pad = platform_virtual_pad(g->platform, virtual_pad);   /* plug or unplug */
                soak.pad_cycles++;
                soak.next_pad = t + 10.0 + soak_rand(&soak) * 10.0;
            }
            if (t >= soak.next_boost) {
                soak.boost_until = t + 12.0;   /* the climb above the world, then the boost */
                soak.boosts++;
                soak.next_boost = t + 25.0 + soak_rand(&soak) * 20.0;
            }
            p->autopilot_boost = t < soak.boost_until;
            /* Pools back at their baseline once a rebuild has settled: the first moment nothing is
             * in flight after it, the slabs in use (meshes not yet taken) are what they were
             * before any rebuild. A leak would show as a count that only grows. */
            if (ws.in_flight == 0) {
                if (!soak.have_baseline && t > 4.0) {
                    soak.baseline_slabs = ws.slabs_in_use;
                    soak.have_baseline = true;
                } else if (soak.check_pending) {
                    soak.rebuild_checks++;
                    if (ws.slabs_in_use > soak.baseline_slabs) soak.rebuild_over++;
                    if (ws.slabs_in_use > soak.worst_slabs_after) soak.worst_slabs_after = ws.slabs_in_use;
                    soak.check_pending = false;
                }
            }
        }
        if (frames % 60 == 0) {
            long r = rss_kib();
            if (r > rss_max) rss_max = r;
            rss_last = r;
            /* Warm: the pools' touched pages reach their peak within the first minutes (the first
             * boost, the widest view); growth is counted from there. */
            if (!rss_warm && t > warmup_s) rss_warm = r;
            size_t h = heap_in_use();
            if (h > heap_use_max) heap_use_max = h;
        }
        double ms = time_now_ms() - f0;
        frame_sum_ms += ms;
        if (ms > longest_ms && frames > 30) longest_ms = ms;
        next_frame += 1000.0 / 60.0;
        if (next_frame < time_now_ms() - 250.0) next_frame = time_now_ms();   /* behind: do not sprint */
        sleep_until(next_frame);
    }
    if (virtual_pad >= 0) platform_virtual_pad(g->platform, virtual_pad);
    WorldStats ws = world_stats(g->world);
    uint64_t heap_calls = game_heap_calls ? game_heap_calls() - heap0 : 0;
    double wall_s = (time_now_ms() - t0) / 1000.0;
    double growth = rss_warm ? (double)(rss_last - rss_warm) * 100.0 / (double)rss_warm : 0.0;
    const double M = 1.0 / 1048576.0;
    if (g->opt.json) {
        printf("{\"mode\": \"%s\", \"seconds\": %.1f, \"wall_seconds\": %.1f, \"frames\": %llu, \"autopilot\": %s,\n",
               g->opt.soak ? "soak" : "headless", p->flight_s, wall_s, (unsigned long long)frames,
               g->opt.autopilot ? "true" : "false");
        printf(" \"crashes\": %llu, \"respawns\": %llu, \"void_frames\": %llu, \"void_frames_flying\": %llu,\n",
               (unsigned long long)p->crashes, (unsigned long long)p->respawns, (unsigned long long)void_frames,
               (unsigned long long)void_frames_flying);
        printf(" \"frame_ms\": {\"mean\": %.3f, \"longest\": %.3f},\n", frames ? frame_sum_ms / (double)frames : 0.0,
               longest_ms);
        printf(" \"collision_ms\": {\"mean\": %.4f, \"max\": %.4f, \"steps_max\": %u, \"blocks_max\": %u},\n",
               frames ? p->collide_ms_sum / (double)frames : 0.0, p->collide_ms_max, p->collide_steps_max,
               p->collide_blocks_max);
        printf(" \"speed_max\": %.1f, \"world\": {\"generated\": %llu, \"epoch_changes\": %u, \"reach\": %.2f, "
               "\"pool_evictions\": %llu, \"mesh_pool_failures\": %llu},\n",
               (double)g->model.speed_limit, (unsigned long long)(ws.generated - ws0.generated), ws.epoch - ws0.epoch,
               (double)ws.reach, (unsigned long long)ws.pool_evictions, (unsigned long long)ws.mesh_pool_failures);
        printf(" \"pools\": {\"slabs\": %u, \"slabs_peak\": %u, \"records\": %u, \"records_peak\": %u},\n",
               ws.slabs_capacity, ws.slabs_peak, ws.records_capacity, ws.records_peak);
        printf(" \"heap_calls_after_boot\": %lld, \"heap_in_use_mib\": {\"boot\": %.2f, \"max\": %.2f},\n",
               game_heap_calls ? (long long)heap_calls : -1LL, (double)heap_use0 * M, (double)heap_use_max * M);
        printf(" \"rss_mib\": {\"first\": %.1f, \"warm\": %.1f, \"warmup_s\": %.0f, \"max\": %.1f, \"last\": %.1f, \"growth_after_warmup_pct\": %.2f}",
               (double)rss_first / 1024.0, (double)rss_warm / 1024.0, warmup_s, (double)rss_max / 1024.0, (double)rss_last / 1024.0,
               growth);
        if (g->opt.soak)
            printf(",\n \"soak\": {\"rebuilds\": %u, \"view_changes\": %u, \"pad_cycles\": %u, \"boosts\": %u, "
                   "\"pool_baseline_slabs\": %u, \"rebuilds_settled\": %u, \"rebuilds_above_baseline\": %u, "
                   "\"worst_slabs_after_rebuild\": %u}",
                   soak.rebuilds, soak.view_changes, soak.pad_cycles, soak.boosts, soak.baseline_slabs,
                   soak.rebuild_checks, soak.rebuild_over, soak.worst_slabs_after);
        printf("}\n");
    } else {
        printf("headless %.0f s (%llu frames): %llu crashes, %llu void frames, longest frame %.2f ms, collision max %.3f ms,"
               " heap calls after boot %lld, RSS %.1f -> %.1f MiB (max %.1f)\n",
               p->flight_s, (unsigned long long)frames, (unsigned long long)p->crashes, (unsigned long long)void_frames,
               longest_ms, p->collide_ms_max, game_heap_calls ? (long long)heap_calls : -1LL,
               (double)rss_first / 1024.0, (double)rss_last / 1024.0, (double)rss_max / 1024.0);
    }
    fflush(stdout);
    return 0;
}
