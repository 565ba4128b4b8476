/* skyisles command line: the settings file first (interactive runs, or any run given --config),
 * then every option on top of it; --help lists the options and the world's parameter table. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

static void usage(FILE *to) {
    fprintf(to,
            "usage: skyisles [options]\n"
            "Fly over the home island and the endless floating islands around it (a controller or the keyboard).\n"
            "what to run:\n"
            "  (nothing)               play: the start screen, then fly; settings from the config folder\n"
            "  --autopilot             the autopilot flies (any mode)\n"
            "  --demo                  attract mode: the autopilot flies until a button is pressed\n"
            "  --headless              no window and no GL: the sim, the world and collision at a fixed 60 Hz\n"
            "  --seconds N             stop after N seconds of flight (with --headless: of simulated flight)\n"
            "  --soak                  with --headless: also rebuild the world, change the view, unplug the pad and boost now and then\n"
            "  --json                  report (headless run, benchmark) as JSON\n"
            "  --print-island          print the home island (sites, names) and the spawn, then exit; no window\n"
            "  --screenshot FILE.png   render offscreen and write a PNG, then exit\n"
            "  --bench-frames N        benchmark N frames on the autopilot path (offscreen)\n"
            "settings:\n"
            "  --config DIR            settings folder (default $XDG_CONFIG_HOME/skyisles or ~/.config/skyisles);\n"
            "                          screenshots, benchmarks and headless runs read it only when given\n"
            "world and home island:\n"
            "  --seed S                seed of the world and the home island (default: the last one flown, first %u)\n"
            "  --pak FILE              codex pack to generate the home island from (default: built in)\n"
            "  --quality Q             low, medium or high: view radius, LOD bands, lines, cloud blending\n"
            "                          (a first start picks one for the GPU and cores, then keeps it)\n"
            "  --view-radius R         chunks around the camera, %d..%d (the same as --world view_radius=R)\n"
            "  --world NAME=VALUE      set a world parameter (listed below; repeatable)\n"
            "  --mem MB                memory budget in MiB, 16..65536 (default SKYISLES_MEM_MB or %u)\n"
            "  --mesh-pool MB          CPU chunk-mesh pool inside the budget, 2..4096 (default: sized by the world)\n"
            "flight:\n"
            "  --speed-limit M         the boost's top speed in m/s, 40..5000 (default 1000; one block = one metre)\n"
            "  --no-collision          fly through rock\n"
            "display:\n"
            "  --size WxH              window / offscreen size (default 640x480 offscreen)\n"
            "  --fullscreen --no-vsync --offscreen (SDL's offscreen GL: no display needed)\n"
            "  --lines N               PSX target lines: 240 (default), 360, 480; 0 = full resolution\n"
            "  --4:3                   4:3 PSX target, pillarboxed on wide screens\n"
            "  --no-snap --no-15bit --no-dither --no-fog --no-sky-clouds --no-clouds --no-aircraft --no-hud\n"
            "  --sky-mediump           force the sky's mediump path\n"
            "screenshot and benchmark:\n"
            "  --frames N              frames simulated before the shot (default 1)\n"
            "  --camera x,y,z,yaw,pitch  fixed camera (degrees; yaw 0 looks along -z); default: the spawn\n"
            "  --time T                sky time in seconds at the first frame\n"
            "  --wait S                longest wait for terrain before a shot (default 60)\n"
            "  --show WHAT             what the shot shows over the scene: hud (default), none, title, menu,\n"
            "                          panel, controls, display, map, crash\n"
            "  --help                  this text\n"
            "environment: SKYISLES_MEM_MB (budget), SKYISLES_WORKERS (worker threads), SKYISLES_LOG (debug|info|warn|error|quiet),\n"
            "  SKYISLES_DATA_DIR (data files), SDL_GAMECONTROLLERCONFIG / SDL_GAMECONTROLLERCONFIG_FILE (controller mappings)\n"
            "controls: see the README (pad: left stick fly, triggers throttle, A boost, Y camera, X map, Start pause,\n"
            "  Back+Start quit; keys: W/S pitch, A/D roll, Q/E yaw, Shift/Ctrl throttle, Space boost, C camera, M map, Esc pause)\n"
            "exit status: 0 done, 1 no display or start-up failure, 2 bad option, pack or memory budget\n",
            GAME_DEFAULT_SEED, WORLD_VIEW_RADIUS_MIN, WORLD_VIEW_RADIUS_MAX, MEM_DEFAULT_BUDGET_MIB);
    /* The world's own table: the same names, ranges and defaults a settings file uses. */
    WorldParams def;
    world_params_default(&def);
    fprintf(to, "world parameters (--world NAME=VALUE, the settings file's world: section and the pause menu's panel):\n"
                "name, cost of a change (gen: the world is rebuilt, live: at once, create: at start only), range, default, meaning\n");
    for (size_t i = 0; i < world_param_count(); i++) {
        const WorldParamDesc *d = world_param_at(i);
        char dv[32], range[48];
        world_param_format(&def, d, dv, sizeof dv);
        if (d->type == WORLD_PT_U64) snprintf(range, sizeof range, "any");
        else snprintf(range, sizeof range, "%g..%g", d->min, d->max);
        fprintf(to, "  %-22s %-6s %-13s %-9s %s\n", d->name, world_param_class_name(d->cls), range, dv, d->help);
    }
}

static bool parse_int(const char *s, int lo, int hi, int *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*s == 0 || *end || errno || v < lo || v > hi) return false;
    *out = (int)v;
    return true;
}

static bool parse_double(const char *s, double lo, double hi, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*s == 0 || *end || errno || !(v >= lo && v <= hi)) return false;
    *out = v;
    return true;
}

/* What the settings file may decide for this run: interactive play reads it; a run that must be
 * repeatable (shots, benches, headless) only when --config names one. */
static void prescan(int argc, char **argv, GameOptions *o) {
    bool repeatable = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--config") && i + 1 < argc) o->config = argv[++i];
        else if (!strcmp(a, "--screenshot") || !strcmp(a, "--bench-frames") || !strcmp(a, "--headless") ||
                 !strcmp(a, "--print-island"))
            repeatable = true;
    }
    o->use_settings = o->config != NULL || !repeatable;
}

bool game_parse_args(int argc, char **argv, GameOptions *o, bool *exit_now) {
    memset(o, 0, sizeof *o);
    o->vsync = true;
    o->frames = 1;
    *exit_now = false;
    settings_default(&o->set);
    o->set.world.gen.seed = GAME_DEFAULT_SEED;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            *exit_now = true;
            return true;
        }
    prescan(argc, argv, o);
    if (o->use_settings) {
        if (settings_dir(o->config, o->config_dir, sizeof o->config_dir))
            settings_load(&o->set, o->config_dir, &o->settings_found, o->settings_warning, sizeof o->settings_warning);
        else
            snprintf(o->settings_warning, sizeof o->settings_warning,
                     "skyisles: no config folder (HOME is not set): settings are not kept; give --config DIR");
    }
    GameSettings *s = &o->set;
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
        if (!strcmp(a, "--screenshot")) {
            NEED_ARG();
            o->screenshot = next;
        } else if (!strcmp(a, "--config")) {
            NEED_ARG();
            if (!*next) goto bad;
        } else if (!strcmp(a, "--frames")) {
            NEED_ARG();
            if (!parse_int(next, 1, 1000000, &o->frames)) goto bad;
        } else if (!strcmp(a, "--seed")) {
            NEED_ARG();
            char *end;
            errno = 0;
            unsigned long long seed = strtoull(next, &end, 0);
            if (*end || !*next || *next == '-' || errno) goto bad;
            s->world.gen.seed = seed;
            o->seed_given = true;
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
            char tail;
            if (sscanf(next, "%lf,%lf,%lf,%lf,%lf%c", &o->cam[0], &o->cam[1], &o->cam[2], &o->cam[3], &o->cam[4], &tail) != 5)
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
        } else if (!strcmp(a, "--seconds")) {
            NEED_ARG();
            if (!parse_double(next, 0.001, 1e7, &o->seconds)) goto bad;
        } else if (!strcmp(a, "--quality")) {
            NEED_ARG();
            GameQuality q;
            if (!game_quality_parse(next, &q)) goto bad;
            game_quality_apply(s, q);
        } else if (!strcmp(a, "--view-radius")) {
            NEED_ARG();
            o->quality_by_hand = true;
            int r;
            if (!parse_int(next, WORLD_VIEW_RADIUS_MIN, WORLD_VIEW_RADIUS_MAX, &r)) goto bad;
            s->world.live.view_radius = r;
        } else if (!strcmp(a, "--world")) {
            NEED_ARG();
            o->quality_by_hand = true;
            SkyError err = {0};
            if (!world_param_parse(&s->world, next, &err)) {
                fprintf(stderr, "skyisles: --world: %s\n", err.msg);
                return false;
            }
            if (!strncmp(next, "seed=", 5)) o->seed_given = true;
        } else if (!strcmp(a, "--speed-limit")) {
            NEED_ARG();
            double v;
            if (!parse_double(next, 40.0, 5000.0, &v)) goto bad;
            s->speed_limit = (float)v;
        } else if (!strcmp(a, "--no-collision")) {
            s->collision = false;
        } else if (!strcmp(a, "--wait")) {
            NEED_ARG();
            if (!parse_double(next, 0.001, 86400.0, &o->wait_s)) goto bad;
        } else if (!strcmp(a, "--lines")) {
            NEED_ARG();
            o->quality_by_hand = true;
            if (!parse_int(next, 0, RENDER_LINES_MAX, &s->lines)) goto bad;
        } else if (!strcmp(a, "--4:3")) {
            s->fixed_4_3 = true;
        } else if (!strcmp(a, "--no-snap")) {
            s->snap = false;
        } else if (!strcmp(a, "--no-15bit")) {
            s->color15 = false;
        } else if (!strcmp(a, "--no-dither")) {
            s->dither = false;
        } else if (!strcmp(a, "--no-fog")) {
            s->fog = false;
        } else if (!strcmp(a, "--no-sky-clouds")) {
            o->quality_by_hand = true;   /* the guess would turn it back on */
            s->sky_clouds = false;
        } else if (!strcmp(a, "--no-clouds")) {
            o->quality_by_hand = true;
            s->clouds = false;
        } else if (!strcmp(a, "--no-hud")) {
            s->hud = false;
        } else if (!strcmp(a, "--no-aircraft")) {
            o->no_aircraft = true;
        } else if (!strcmp(a, "--sky-mediump")) {
            o->sky_mediump = true;
        } else if (!strcmp(a, "--fullscreen")) {
            o->fullscreen = true;
        } else if (!strcmp(a, "--no-vsync")) {
            o->vsync = false;
        } else if (!strcmp(a, "--offscreen")) {
            o->offscreen = true;
        } else if (!strcmp(a, "--headless")) {
            o->headless = true;
        } else if (!strcmp(a, "--autopilot")) {
            o->autopilot = true;
        } else if (!strcmp(a, "--show")) {
            NEED_ARG();
            static const char *const shows[] = {"hud", "none", "title", "menu", "panel", "controls", "display", "map", "crash"};
            bool known = false;
            for (size_t k = 0; k < sizeof shows / sizeof shows[0]; k++) known = known || !strcmp(next, shows[k]);
            if (!known) goto bad;
            o->show = next;
        } else if (!strcmp(a, "--demo")) {
            o->demo = true;
        } else if (!strcmp(a, "--soak")) {
            o->soak = true;
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
    if (o->soak && !o->headless) {
        fprintf(stderr, "skyisles: --soak runs with --headless (see --help)\n");
        return false;
    }
    if (o->screenshot || o->bench_frames) {
        o->offscreen = true;
        o->vsync = false;
        if (o->width == 0) {
            o->width = 640;
            o->height = 480;
        }
    }
    return true;
}
