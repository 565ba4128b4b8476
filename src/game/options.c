/* skyisles command line: a table of what-to-run options, the settings table's flags and the
 * world's parameters; parsing only records what was set (boot reads the settings file, then
 * applies it); --help prints all three tables. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game.h"
#include "show.h"

typedef enum OptKind { OPT_ON, OPT_OFF, OPT_TEXT, OPT_INT, OPT_REAL, OPT_CUSTOM } OptKind;

typedef struct RunOpt RunOpt;
struct RunOpt {
    const char *flag, *arg;     /* "--frames", "N" (NULL: a switch) */
    const char *group, *help;
    OptKind kind;
    size_t off;                 /* of the bool, string, int or double in GameOptions */
    double lo, hi;
    bool (*custom)(GameOptions *o, const struct RunOpt *r, const char *v);
};

#define AT(f) offsetof(GameOptions, f)

static bool cli_world(GameOptions *o, const char *flag, const char *name, const char *v);

static bool opt_seed(GameOptions *o, const RunOpt *r, const char *v) {
    o->seed_given = true;
    return cli_world(o, r->flag, "seed", v);
}

static bool opt_view_radius(GameOptions *o, const RunOpt *r, const char *v) {
    o->quality_by_hand = true;
    return cli_world(o, r->flag, "view_radius", v);
}

static bool opt_world(GameOptions *o, const RunOpt *r, const char *v) {
    o->quality_by_hand = true;
    if (!strncmp(v, "seed=", 5)) o->seed_given = true;
    return cli_world(o, r->flag, NULL, v);
}

static bool opt_mem(GameOptions *o, const RunOpt *r, const char *v) {
    char *end;
    errno = 0;
    long mb = strtol(v, &end, 10);
    if (!*v || *end || errno || mb < r->lo || mb > r->hi) {
        fprintf(stderr, "skyisles: %s '%s': give the memory budget in MiB, %g..%g (default %u)\n", r->flag, v, r->lo,
                r->hi, MEM_DEFAULT_BUDGET_MIB);
        return false;
    }
    o->mem_mib = (int)mb;
    return true;
}

static bool opt_camera(GameOptions *o, const RunOpt *r, const char *v) {
    (void)r;
    char tail;
    o->camera_set = true;
    return sscanf(v, "%lf,%lf,%lf,%lf,%lf%c", &o->cam[0], &o->cam[1], &o->cam[2], &o->cam[3], &o->cam[4], &tail) == 5;
}

/* --start X,Y,Z: three finite numbers in metres (1e12 as well as 1000000000000), none past
 * GAME_POS_MAX; the one line names the option and the form. */
static bool opt_start(GameOptions *o, const RunOpt *r, const char *v) {
    const char *p = v;
    for (int i = 0; i < 3; i++) {
        char *end;
        errno = 0;
        double x = strtod(p, &end);
        bool sep = i < 2 ? *end == ',' : *end == 0;
        if (end == p || !sep || errno || !(x >= -GAME_POS_MAX && x <= GAME_POS_MAX)) {
            fprintf(stderr, "skyisles: %s '%s': give X,Y,Z in metres, three numbers within +-4e12 (e.g. %s 1e12,80,0)\n",
                    r->flag, v, r->flag);
            return false;
        }
        o->start[i] = x;
        p = end + 1;
    }
    o->start_set = true;
    return true;
}

static bool opt_size(GameOptions *o, const RunOpt *r, const char *v) {
    (void)r;
    char tail;
    return sscanf(v, "%dx%d%c", &o->width, &o->height, &tail) == 2 && o->width >= 16 && o->height >= 16 &&
           o->width <= 8192 && o->height <= 8192;
}

static bool cli_setting(GameOptions *o, const SettingDesc *d, const char *flag, const char *v);

/* --time-of-day HH[:MM]: the time held at that hour (the display rows time = fixed, hour = HH +
 * MM / 60, on the hour row's quarter-hour grid). */
static bool opt_time_of_day(GameOptions *o, const RunOpt *r, const char *v) {
    static char hour[16];   /* argument parsing runs once, on the main thread: kept for boot */
    /* digits only: sscanf's %d would also take "12: 5" and "12:+5" */
    size_t h_len = strspn(v, "0123456789"), m_len = v[h_len] == ':' ? strspn(v + h_len + 1, "0123456789") : 0;
    bool ok = h_len >= 1 && h_len <= 2 && (v[h_len] == 0 || (m_len == 2 && v[h_len + 3] == 0));
    int hh = ok ? atoi(v) : -1, mm = ok && v[h_len] ? atoi(v + h_len + 1) : 0;
    if (!ok || hh < 0 || hh > 23 || mm < 0 || mm > 59) {
        fprintf(stderr, "skyisles: %s '%s': give the hour as HH or HH:MM, 00:00..23:59 (e.g. %s 18:30)\n", r->flag, v,
                r->flag);
        return false;
    }
    snprintf(hour, sizeof hour, "%.2f", hh + floor(mm / 15.0) * 0.25);
    return cli_setting(o, setting_find("display", "time"), r->flag, "fixed") &&
           cli_setting(o, setting_find("display", "hour"), r->flag, hour);
}

static bool opt_show(GameOptions *o, const RunOpt *r, const char *v) {
    (void)r;
    Show s;
    if (!show_find(v, &s)) return false;
    o->show = v;
    return true;
}

/* The options that are not settings: what to run, where, and for how long. */
static const RunOpt k_opts[] = {
    {"--autopilot", NULL, "run", "the autopilot flies (any mode)", OPT_ON, AT(autopilot), 0, 0, NULL},
    {"--demo", NULL, "run", "attract mode: the bundled sky course replay (else the autopilot) flies until a button is pressed", OPT_ON, AT(demo), 0, 0, NULL},
    {"--headless", NULL, "run", "no window and no GL: the sim, the world and collision at a fixed 60 Hz", OPT_ON,
     AT(headless), 0, 0, NULL},
    {"--seconds", "N", "run", "stop after N seconds of the run, paused or not (with --headless: of simulated time)", OPT_REAL,
     AT(seconds), 0.001, 1e7, NULL},
    {"--soak", NULL, "run", "with --headless: also rebuild the world, change the view, unplug the pad and boost now and "
     "then; in a window: every 90 s a course, a screenshot, a rebuild, the map, the pause menu and its attract loop",
     OPT_ON, AT(soak), 0, 0, NULL},
    {"--boot-service", NULL, "run", "run by the boot-to-sim unit: the title and pause menu offer Power off and Reboot",
     OPT_ON, AT(boot_service), 0, 0, NULL},
    {"--replay", "FILE", "run", "fly a recorded flight (replays/*.skyr) again exactly; with --headless as fast as it runs, "
     "then say whether it ended as recorded", OPT_TEXT, AT(replay), 0, 0, NULL},
    {"--ghost", "FILE", "run", "fly the replay FILE beside the aircraft as the translucent ghost (recorded in this world)",
     OPT_TEXT, AT(ghost), 0, 0, NULL},
    {"--record", "FILE", "run", "write the run's first flight as a replay to FILE at the end", OPT_TEXT, AT(record), 0, 0,
     NULL},
    {"--record-attract", "FILE", "run", "the course pilot flies the sky course (headless, unpaced) and its recording goes to "
     "FILE: the attract mode's replay (make attract-replay)", OPT_TEXT, AT(record_attract), 0, 0, NULL},
    {"--json", NULL, "run", "report (headless run, benchmark) as JSON", OPT_ON, AT(json), 0, 0, NULL},
    {"--print-island", NULL, "run", "print the island of --start's cell (else the home island: sites, names, "
     "strips) and the spawn, then exit; no window", OPT_ON, AT(print_island), 0, 0, NULL},
    {"--screenshot", "FILE.png", "run", "render offscreen and write a PNG, then exit", OPT_TEXT, AT(screenshot), 0, 0, NULL},
    {"--bench-frames", "N", "run", "benchmark N frames on the autopilot path (offscreen)", OPT_INT, AT(bench_frames), 1,
     1e6, NULL},
    {"--bench-course", NULL, "run", "with --bench-frames: every other frame draws the island tour's rings, its HUD and a "
     "ghost beside the aircraft; both kinds of frame reported, with the ratio", OPT_ON, AT(bench_course), 0, 0, NULL},
    {"--audio", NULL, "run", "open the audio output device in a headless, screenshot or benchmark run too", OPT_ON,
     AT(audio), 0, 0, NULL},
    {"--audio-out", "FILE.wav", "run", "record the run's sound (parameters and events) and render it to a WAV at the end",
     OPT_TEXT, AT(audio_out), 0, 0, NULL},
    {"--config", "DIR", "settings", "settings folder (default $XDG_CONFIG_HOME/skyisles or ~/.config/skyisles); "
     "screenshots, benchmarks and headless runs read it only when given", OPT_TEXT, AT(config), 0, 0, NULL},
    {"--start", "X,Y,Z", "world", "start the flight at X,Y,Z metres (e.g. 1e12,80,0), in open air found near it as a "
     "restart finds it; the title offers no Continue", OPT_CUSTOM, 0, 0, 0, opt_start},
    {"--seed", "S", "world", "seed of the world and the home island (default: the last one flown)", OPT_CUSTOM, 0, 0, 0,
     opt_seed},
    {"--pak", "FILE", "world", "codex pack to generate the home island from (default: built in)", OPT_TEXT, AT(pak), 0, 0,
     NULL},
    {"--view-radius", "R", "world", "chunks around the camera (the same as --world view_radius=R)", OPT_CUSTOM, 0, 0, 0,
     opt_view_radius},
    {"--world", "NAME=VALUE", "world", "set a world parameter (listed below; repeatable)", OPT_CUSTOM, 0, 0, 0, opt_world},
    {"--mem", "MB", "world", "memory budget in MiB (default SKYISLES_MEM_MB or the built-in one)", OPT_CUSTOM, 0, 16,
     65536, opt_mem},
    {"--mesh-pool", "MB", "world", "CPU chunk-mesh pool inside the budget (default: sized by the world)", OPT_INT,
     AT(mesh_pool_mib), 2, 4096, NULL},
    {"--size", "WxH", "display", "window / offscreen size (default 640x480 offscreen)", OPT_CUSTOM, 0, 0, 0, opt_size},
    {"--fullscreen", NULL, "display", "fill the screen", OPT_ON, AT(fullscreen), 0, 0, NULL},
    {"--no-vsync", NULL, "display", "do not wait for the display's refresh", OPT_OFF, AT(vsync), 0, 0, NULL},
    {"--offscreen", NULL, "display", "SDL's offscreen GL: no display needed", OPT_ON, AT(offscreen), 0, 0, NULL},
    {"--no-aircraft", NULL, "display", "do not draw the aircraft", OPT_ON, AT(no_aircraft), 0, 0, NULL},
    {"--sky-mediump", NULL, "display", "force the sky's mediump path", OPT_ON, AT(sky_mediump), 0, 0, NULL},
    {"--frames", "N", "shot", "frames simulated before the shot (default 1)", OPT_INT, AT(frames), 1, 1e6, NULL},
    {"--camera", "x,y,z,yaw,pitch", "shot", "fixed camera (degrees; yaw 0 looks along -z); default: the spawn", OPT_CUSTOM,
     0, 0, 0, opt_camera},
    {"--time", "T", "shot", "sky time in seconds at the first frame", OPT_REAL, AT(time_s), 0, 1e9, NULL},
    {"--time-of-day", "HH[:MM]", "shot", "hold the time of day at this hour (display: time fixed, hour HH:MM to the "
     "quarter hour; this run only, not saved)", OPT_CUSTOM, 0, 0, 0, opt_time_of_day},
    {"--wait", "S", "shot", "longest wait for terrain before a shot (default 60)", OPT_REAL, AT(wait_s), 0.001, 86400, NULL},
    {"--show", "WHAT", "shot", "what the shot shows over the scene:", OPT_CUSTOM, 0, 0, 0, opt_show},
};
#define NOPTS (sizeof k_opts / sizeof k_opts[0])

/* ---------------------------------------------------------------- --help */
static void print_run_options(FILE *to, const char *group, const char *title) {
    fprintf(to, "%s:\n", title);
    for (size_t i = 0; i < NOPTS; i++) {
        const RunOpt *r = &k_opts[i];
        if (strcmp(r->group, group)) continue;
        char left[48];
        snprintf(left, sizeof left, "%s%s%s", r->flag, r->arg ? " " : "", r->arg ? r->arg : "");
        char shows[1024] = "";
        if (r->custom == opt_show) show_help_text(shows, sizeof shows);   /* the shots' table */
        if (r->hi > r->lo) fprintf(to, "  %-24s %s, %.15g..%.15g\n", left, r->help, r->lo, r->hi);
        else fprintf(to, "  %-24s %s%s%s\n", left, r->help, shows[0] ? " " : "", shows);
    }
}

static void print_settings(FILE *to) {
    fprintf(to, "game settings (the settings file's sections, the pause menu's pages; flags where they have one):\n"
                "  flag, section.key, range, default, meaning\n");
    for (size_t i = 0; i < setting_count(); i++) {
        const SettingDesc *d = setting_at(i);
        char left[48], key[48], range[96], def[32];
        bool sw = d->type == SETTING_BOOL;
        snprintf(left, sizeof left, "%s%s", d->flag ? d->flag : "-", d->flag && !sw ? " V" : "");
        snprintf(key, sizeof key, "%s.%s", d->section, d->key);
        setting_range_text(d, range, sizeof range);
        setting_default_text(d, def, sizeof def);
        fprintf(to, "  %-18s %-22s %-18s %-8s %s%s%s%s\n", left, key, range, def, d->help, d->unit ? " (" : "",
                d->unit ? d->unit : "", d->unit ? ")" : "");
    }
}

static void print_world(FILE *to) {
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

void game_print_help(FILE *to) {
    fprintf(to, "usage: skyisles [options]\n"
                "Fly over the home island and the endless floating islands around it (a controller or the keyboard).\n"
                "With no options: the start screen, then fly; settings from the config folder.\n");
    print_run_options(to, "run", "what to run");
    print_run_options(to, "settings", "settings");
    print_run_options(to, "world", "world and home island");
    print_run_options(to, "display", "display");
    print_run_options(to, "shot", "screenshot and benchmark");
    fprintf(to, "  --help                   this text\n");
    print_settings(to);
    print_world(to);
    fprintf(to,
            "first seed %u; view radius %d..%d; default memory budget %u MiB\n"
            "environment: SKYISLES_MEM_MB (budget), SKYISLES_WORKERS (worker threads), SKYISLES_LOG (debug|info|warn|error|quiet),\n"
            "  SKYISLES_DATA_DIR (data files), SDL_GAMECONTROLLERCONFIG / SDL_GAMECONTROLLERCONFIG_FILE (controller mappings)\n"
            "controls: see the README (pad: left stick fly, triggers throttle, A boost, Y camera, X map, Start pause,\n"
            "  Back+Start quit; keys: W/S pitch, A/D roll, Q/E yaw, Shift/Ctrl throttle, Space boost, C camera, M map, Esc pause)\n"
            "exit status: 0 done, 1 no display or start-up failure, 2 bad option, pack or memory budget\n",
            GAME_DEFAULT_SEED, WORLD_VIEW_RADIUS_MIN, WORLD_VIEW_RADIUS_MAX, MEM_DEFAULT_BUDGET_MIB);
}

/* ---------------------------------------------------------------- parsing */
static bool cli_add(GameOptions *o, const char *flag, const SettingDesc *row, const WorldParamDesc *param, const char *v) {
    if (o->cli_count >= (int)(sizeof o->cli / sizeof o->cli[0])) {
        fprintf(stderr, "skyisles: too many settings on the command line at %s (at most %zu)\n", flag,
                sizeof o->cli / sizeof o->cli[0]);
        return false;
    }
    o->cli[o->cli_count].row = row;
    o->cli[o->cli_count].param = param;
    o->cli[o->cli_count].value = v;
    o->cli_count++;
    return true;
}

/* A world parameter from the command line: checked now (on scratch values), applied at boot. */
static bool cli_world(GameOptions *o, const char *flag, const char *name, const char *v) {
    char assign[256];
    if ((size_t)snprintf(assign, sizeof assign, name ? "%s=%s" : "%.0s%s", name ? name : "", v) >= sizeof assign) {
        fprintf(stderr, "skyisles: %s '%.40s...': too long (see --help)\n", flag, v);
        return false;
    }
    static WorldParams scratch;   /* argument parsing runs once, on the main thread */
    SkyError err = {0};
    if (!world_param_parse(&scratch, assign, &err)) {
        fprintf(stderr, "skyisles: %s: %s\n", flag, err.msg);
        return false;
    }
    const char *eq = strchr(assign, '=');
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)(eq - assign), assign);
    const WorldParamDesc *d = world_param_find(key);
    return cli_add(o, flag, NULL, d, name ? v : v + (eq - assign) + 1);
}

static bool cli_setting(GameOptions *o, const SettingDesc *d, const char *flag, const char *v) {
    static GameSettings scratch;   /* argument parsing runs once, on the main thread */
    char why[200];
    if (v && !setting_parse(&scratch, d, v, why, sizeof why)) {
        fprintf(stderr, "skyisles: %s '%s': %s (see --help)\n", flag, v, why);
        return false;
    }
    if (d->flags & SETTING_F_PRESET) o->quality_by_hand = true;   /* the guess would undo it */
    return cli_add(o, flag, d, NULL, v);
}

static bool run_opt(GameOptions *o, const RunOpt *r, const char *v) {
    char *at = (char *)o + r->off, *end = NULL;
    errno = 0;
    double x = v ? strtod(v, &end) : 0.0;
    bool number = v && *v && end && !*end && errno == 0 && x >= r->lo && x <= r->hi;
    switch (r->kind) {
    case OPT_ON: *(bool *)at = true; return true;
    case OPT_OFF: *(bool *)at = false; return true;
    case OPT_TEXT: *(const char **)at = v; return *v != 0;
    case OPT_INT: if (number && x == (double)(int)x) *(int *)at = (int)x; return number && x == (double)(int)x;
    case OPT_REAL: if (number) *(double *)at = x; return number;
    case OPT_CUSTOM: return r->custom(o, r, v);
    }
    return false;
}

/* One option at argv[*i]; false (one line printed) when it is bad. */
static bool parse_one(GameOptions *o, int argc, char **argv, int *i) {
    const char *a = argv[*i];
    const RunOpt *r = NULL;
    for (size_t k = 0; k < NOPTS && !r; k++)
        if (!strcmp(a, k_opts[k].flag)) r = &k_opts[k];
    const SettingDesc *d = r ? NULL : setting_find_flag(a);
    if (!r && !d) {
        fprintf(stderr, "skyisles: unknown option %s (see --help)\n", a);
        return false;
    }
    bool takes = r ? r->arg != NULL : d->type != SETTING_BOOL;
    const char *v = NULL;
    if (takes) {
        if (*i + 1 >= argc) {
            fprintf(stderr, "skyisles: %s needs a value (see --help)\n", a);
            return false;
        }
        v = argv[++*i];
    }
    if (d) return cli_setting(o, d, a, v);
    if (run_opt(o, r, v)) return true;
    if (r->kind != OPT_CUSTOM || r->custom == opt_camera || r->custom == opt_size || r->custom == opt_show)
        fprintf(stderr, "skyisles: bad value '%s' for %s (see --help)\n", v ? v : "", a);
    return false;
}

static bool paths_usable(const GameOptions *o);

bool game_parse_args(int argc, char **argv, GameOptions *o, bool *exit_now) {
    memset(o, 0, sizeof *o);
    o->vsync = true;
    o->frames = 1;
    *exit_now = false;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            game_print_help(stdout);
            *exit_now = true;
            return true;
        }
    for (int i = 1; i < argc; i++)
        if (!parse_one(o, argc, argv, &i)) return false;
    if (o->soak && (o->screenshot || o->bench_frames)) {
        fprintf(stderr, "skyisles: --soak runs with --headless or in a window, not with --screenshot or --bench-frames\n");
        return false;
    }
    if ((o->headless || o->record_attract) && (o->screenshot || o->bench_frames)) {
        fprintf(stderr, "skyisles: %s draws no frames: give --screenshot or --bench-frames without it\n",
                o->record_attract ? "--record-attract (headless)" : "--headless");
        return false;
    }
    if (o->start_set && o->camera_set) {
        fprintf(stderr, "skyisles: --start and --camera both place the view: give one of them (see --help)\n");
        return false;
    }
    if (o->start_set && (o->replay || o->record_attract)) {
        fprintf(stderr, "skyisles: --start and %s: a replay flies from where it was recorded, a course from its start; "
                        "give one of them (see --help)\n", o->replay ? "--replay" : "--record-attract");
        return false;
    }
    if (o->record_attract) o->headless = true;
    if (!paths_usable(o)) return false;
    /* The settings file decides for interactive play; a run that must be repeatable (shots,
     * benches, headless) reads one only when --config names it. */
    bool repeatable = o->screenshot || o->bench_frames || o->headless || o->print_island || o->replay;
    o->writes_nothing = o->screenshot || o->bench_frames || o->print_island;
    o->use_settings = o->config != NULL || !repeatable;
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

/* Folders the run will need, checked before the boot spends time: the screenshot's folder (a
 * shot renders for seconds before it writes) and SKYISLES_DATA_DIR (else ignored silently). */
static bool paths_usable(const GameOptions *o) {
    const char *data = getenv("SKYISLES_DATA_DIR");
    struct stat st;
    if (data && *data && (stat(data, &st) != 0 || !S_ISDIR(st.st_mode))) {
        fprintf(stderr, "skyisles: SKYISLES_DATA_DIR '%s' is not a folder: give the folder holding the data files "
                "(assets/), or unset it\n", data);
        return false;
    }
    if (!o->screenshot) return true;
    char dir[1024];
    const char *slash = strrchr(o->screenshot, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - o->screenshot) + (slash == o->screenshot) : 1,
             slash ? o->screenshot : ".");
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK) != 0) {
        fprintf(stderr, "skyisles: --screenshot '%s': the folder %s %s: give a path in a writable folder\n",
                o->screenshot, dir, stat(dir, &st) != 0 ? "does not exist" : "is not a writable folder");
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- at boot */
void game_settings_boot(GameOptions *o, GameSettings *s) {
    settings_default(s);
    if (o->use_settings) {
        if (settings_dir(o->config, o->config_dir, sizeof o->config_dir))
            settings_load_file(s, o->config_dir, &o->settings_found, &o->settings_damaged, o->settings_warning,
                               sizeof o->settings_warning);
        else
            snprintf(o->settings_warning, sizeof o->settings_warning,
                     "skyisles: no config folder (HOME is not set): settings are not kept; give --config DIR");
    }
    /* The command line over the file, in its order (checked when parsed: these cannot fail). */
    for (int i = 0; i < o->cli_count; i++) {
        const SettingDesc *d = o->cli[i].row;
        const char *v = o->cli[i].value;
        if (d) {
            char why[200];
            bool run_only = !strcmp(d->section, "flight") ? !strcmp(d->key, "weather")
                            : !strcmp(d->section, "display") && (!strcmp(d->key, "time") || !strcmp(d->key, "hour"));
            if (run_only && o->run_only_count < (int)(sizeof o->run_only / sizeof o->run_only[0])) {
                o->run_only[o->run_only_count].row = d;
                o->run_only[o->run_only_count++].file = setting_get(s, d);
            }
            if (v) setting_parse(s, d, v, why, sizeof why);
            else setting_set(s, d, strncmp(d->flag, "--no-", 5) ? 1.0 : 0.0);
            if (d->on_change) d->on_change(s);
        } else {
            char assign[256];
            SkyError err = {0};
            snprintf(assign, sizeof assign, "%s=%s", o->cli[i].param->name, v);
            world_param_parse(&s->world, assign, &err);
        }
    }
    for (int i = 0; i < o->run_only_count; i++) o->run_only[i].run = setting_get(s, o->run_only[i].row);
    s->render.live.sky_force_mediump = o->sky_mediump;   /* a flag for this run, not a setting kept */
    /* Until the player picks one (the title, the Display page, --lang), an interactive start
     * follows the system's locale; a repeatable run (shots, headless) is English unless told. */
    if (!s->language_chosen && o->use_settings)
        s->language = (int)text_lang_guess(getenv("LC_ALL"), getenv("LC_MESSAGES"), getenv("LANG"));
    text_set_language((Lang)s->language);
}

void game_settings_to_keep(const GameOptions *o, GameSettings *s) {
    /* last first: a row given twice goes back to the value the file had */
    for (int i = o->run_only_count - 1; i >= 0; i--)
        if (setting_get(s, o->run_only[i].row) == o->run_only[i].run) setting_set(s, o->run_only[i].row, o->run_only[i].file);
}
