/* skyisles entry point: command line, boot, and the chosen mode (run, screenshot, bench). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

static void usage(FILE *to) {
    fprintf(to,
            "usage: skyisles [options]\n"
            "Flies the autopilot over the home island and the endless floating islands around it.\n"
            "world and home island:\n"
            "  --seed S                seed of the world and the home island (default %u)\n"
            "  --pak FILE              codex pack to generate the home island from (default: built in)\n"
            "  --print-island          print the home island (sites, names) and the spawn, then exit; no window\n"
            "  --view-radius R         chunks around the camera (default 10)\n"
            "  --mem MB                memory budget in MiB, 16..65536 (default SKYISLES_MEM_MB or %u)\n"
            "  --mesh-pool MB          CPU chunk-mesh pool inside the budget, 2..4096 (default: sized by the world)\n"
            "display:\n"
            "  --size WxH              window / offscreen size (default 640x480 headless)\n"
            "  --fullscreen --no-vsync --headless\n"
            "  --lines N               PSX target lines: 240 (default), 360, 480; 0 = full resolution\n"
            "  --4:3                   4:3 PSX target, pillarboxed on wide screens\n"
            "  --no-snap --no-15bit --no-dither --no-fog --no-sky-clouds --no-clouds --no-aircraft\n"
            "  --sky-mediump           force the sky's mediump path\n"
            "screenshot and benchmark (offscreen):\n"
            "  --screenshot FILE.png   render offscreen and write a PNG, then exit\n"
            "  --frames N              frames simulated before the shot (default 1)\n"
            "  --camera x,y,z,yaw,pitch  fixed camera (degrees; yaw 0 looks along -z); default: the spawn\n"
            "  --time T                sky time in seconds at the first frame\n"
            "  --wait S                longest wait for terrain before a shot (default 60)\n"
            "  --bench-frames N        benchmark N frames on the autopilot path\n"
            "  --json                  benchmark report as JSON\n"
            "  --help                  this text\n"
            "environment: SKYISLES_MEM_MB (budget), SKYISLES_WORKERS (worker threads), SKYISLES_LOG (debug|info|warn|error|quiet)\n"
            "keys: 1 target lines, 2 snap, 3 15-bit colour, 4 dither, 5 fog, 6 sky clouds, 7 clouds, Esc quit\n"
            "exit status: 0 done, 1 no display or start-up failure, 2 bad option, pack or memory budget\n",
            GAME_DEFAULT_SEED, MEM_DEFAULT_BUDGET_MIB);
}

static bool parse_int(const char *s, int lo, int hi, int *out) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == 0 || *end || v < lo || v > hi) return false;
    *out = (int)v;
    return true;
}

static bool parse_double(const char *s, double lo, double hi, double *out) {
    char *end;
    double v = strtod(s, &end);
    if (*s == 0 || *end || !(v >= lo && v <= hi)) return false;
    *out = v;
    return true;
}

bool game_parse_args(int argc, char **argv, GameOptions *o, bool *exit_now) {
    memset(o, 0, sizeof *o);
    render_settings_default(&o->render);
    o->vsync = true;
    o->frames = 1;
    o->seed = GAME_DEFAULT_SEED;
    *exit_now = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_ARG()                                                              \
    do {                                                                        \
        if (!next) {                                                            \
            fprintf(stderr, "skyisles: %s needs a value (see --help)\n", a);    \
            return false;                                                       \
        }                                                                       \
        i++;                                                                    \
    } while (0)
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            *exit_now = true;
            return true;
        } else if (!strcmp(a, "--screenshot")) {
            NEED_ARG();
            o->screenshot = next;
        } else if (!strcmp(a, "--frames")) {
            NEED_ARG();
            if (!parse_int(next, 1, 1000000, &o->frames)) goto bad;
        } else if (!strcmp(a, "--seed")) {
            NEED_ARG();
            char *end;
            errno = 0;
            o->seed = strtoull(next, &end, 0);
            if (*end || !*next || *next == '-' || errno) goto bad;
        } else if (!strcmp(a, "--pak")) {
            NEED_ARG();
            if (!*next) goto bad;
            o->pak = next;
        } else if (!strcmp(a, "--mem")) {
            NEED_ARG();
            if (!parse_int(next, 16, 65536, &o->mem_mib)) {
                fprintf(stderr, "skyisles: --mem '%s': give the memory budget in MiB, 16..65536 (default %u)\n", next,
                        MEM_DEFAULT_BUDGET_MIB);
                return false;
            }
        } else if (!strcmp(a, "--mesh-pool")) {
            NEED_ARG();
            if (!parse_int(next, 2, 4096, &o->mesh_pool_mib)) goto bad;
        } else if (!strcmp(a, "--print-island")) {
            o->print_island = true;
        } else if (!strcmp(a, "--camera")) {
            NEED_ARG();
            if (sscanf(next, "%lf,%lf,%lf,%lf,%lf", &o->cam[0], &o->cam[1], &o->cam[2], &o->cam[3], &o->cam[4]) != 5)
                goto bad;
            o->camera_set = true;
        } else if (!strcmp(a, "--size")) {
            NEED_ARG();
            char tail;
            if (sscanf(next, "%dx%d%c", &o->width, &o->height, &tail) != 2 || o->width < 16 || o->height < 16 ||
                o->width > 8192 || o->height > 8192)
                goto bad;
        } else if (!strcmp(a, "--time")) {
            NEED_ARG();
            if (!parse_double(next, 0.0, 1e9, &o->time_s)) goto bad;
        } else if (!strcmp(a, "--bench-frames")) {
            NEED_ARG();
            if (!parse_int(next, 1, 1000000, &o->bench_frames)) goto bad;
        } else if (!strcmp(a, "--json")) {
            o->json = true;
        } else if (!strcmp(a, "--view-radius")) {
            NEED_ARG();
            if (!parse_int(next, 1, 64, &o->view_radius)) goto bad;
        } else if (!strcmp(a, "--wait")) {
            NEED_ARG();
            if (!parse_double(next, 0.001, 86400.0, &o->wait_s)) goto bad;
        } else if (!strcmp(a, "--lines")) {
            NEED_ARG();
            if (!parse_int(next, 0, RENDER_LINES_MAX, &o->render.lines)) goto bad;
        } else if (!strcmp(a, "--4:3")) {
            o->render.fixed_4_3 = true;
        } else if (!strcmp(a, "--no-snap")) {
            o->render.snap = false;
        } else if (!strcmp(a, "--no-15bit")) {
            o->render.color15 = false;
        } else if (!strcmp(a, "--no-dither")) {
            o->render.dither = false;
        } else if (!strcmp(a, "--no-fog")) {
            o->render.fog = false;
        } else if (!strcmp(a, "--no-sky-clouds")) {
            o->render.sky_clouds = false;
        } else if (!strcmp(a, "--no-clouds")) {
            o->render.draw_clouds = false;
        } else if (!strcmp(a, "--no-aircraft")) {
            o->no_aircraft = true;
        } else if (!strcmp(a, "--sky-mediump")) {
            o->render.sky_force_mediump = true;
        } else if (!strcmp(a, "--fullscreen")) {
            o->fullscreen = true;
        } else if (!strcmp(a, "--no-vsync")) {
            o->vsync = false;
        } else if (!strcmp(a, "--headless")) {
            o->headless = true;
        } else {
            fprintf(stderr, "skyisles: unknown option %s (see --help)\n", a);
            return false;
        }
        continue;
    bad:
        fprintf(stderr, "skyisles: bad value '%s' for %s (see --help)\n", next, a);
        return false;
#undef NEED_ARG
    }
    if (o->screenshot || o->bench_frames) {
        o->headless = true;
        o->vsync = false;
        if (o->width == 0) {
            o->width = 640;
            o->height = 480;
        }
    }
    return true;
}

int main(int argc, char **argv) {
    platform_signals_install();   /* before anything starts: a stop always ends in game_shutdown */
    GameOptions opt;
    bool exit_now;
    if (!game_parse_args(argc, argv, &opt, &exit_now)) return GAME_EXIT_BAD_INPUT;
    if (exit_now) return 0;
    static Game game;
    SkyError err = {0};
    if (!game_boot(&game, &opt, &err)) {
        fprintf(stderr, "%s\n", err.msg[0] ? err.msg : "skyisles: start-up failed");
        game_shutdown(&game);
        return err.code == SKY_ERR_INPUT ? GAME_EXIT_BAD_INPUT : GAME_EXIT_START_FAILED;
    }
    int rc;
    if (opt.print_island) {
        game_home_print(&game.home, &game.spawn, stdout);
        rc = 0;
    } else {
        rc = opt.screenshot ? game_screenshot(&game) : opt.bench_frames ? game_bench(&game) : game_run(&game);
    }
    uint32_t workers = game.jobs ? jobs_worker_count(game.jobs) : 0;
    game_shutdown(&game);
    int sig = platform_stop_signal();
    if (sig) {
        /* A stop asked for (systemd, a launcher, Ctrl-C) is a clean end, whatever the mode. */
        log_info("skyisles: stopped by %s: %u workers joined, shut down cleanly", platform_signal_name(sig), workers);
        rc = 0;
    }
    return rc;
}
