/* skyisles options: what a run was asked for on its command line (GameOptions), and the game's
 * configuration as in effect (GameConfig: the options, the settings, whether they are kept). */
#ifndef SKYISLES_GAME_OPTIONS_H
#define SKYISLES_GAME_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "settings.h"
#include "settings_table.h"
#include "world/world.h"

/* Exit statuses: bad input (options, pack, memory budget: errors of code SKY_ERR_INPUT) and
 * everything else that stops a start (no display, no GL context). */
#define GAME_EXIT_BAD_INPUT 2
#define GAME_EXIT_START_FAILED 1
#define GAME_DEFAULT_SEED 20261129u     /* the world's and the home island's seed without --seed */
#define GAME_HOME_SCOPE "island"        /* the codex generation scope of the home island */
#define GAME_LANG text_lang_code(text_language())   /* place names: the player's language */
#define GAME_HOME_FIELD 256u            /* IslandField cells per side (640 m island: 2.5 m cells) */
#define GAME_ISLAND_SLOTS_MIN 2u        /* the fewest archipelago island slots a small budget keeps */
/* The game's chunk-mesh pool: the renderer releases each CPU mesh after upload, so only meshes
 * in flight or waiting for upload hold slabs (about 350 slabs, 8 MiB, at view radius 10). */
#define GAME_MESH_POOL_MIB 16u
/* The view radius the world's tables are sized for, so the panel can raise it in flight. */
#define GAME_VIEW_RADIUS_MAX 16

typedef struct GameOptions {
    /* what to run */
    const char *screenshot;     /* --screenshot FILE.png */
    int frames;                 /* --frames N: frames simulated before the shot */
    int bench_frames;           /* --bench-frames N */
    bool bench_course;          /* --bench-course: every other bench frame with a course's rings and a ghost */
    bool json;
    bool print_island;          /* --print-island: home island summary on stdout, no window */
    bool headless;              /* --headless: no window, no GL: sim, world and collision at 60 Hz */
    bool offscreen;             /* --offscreen (implied by shots and benches): SDL's offscreen GL */
    bool autopilot, demo, soak;
    bool boot_service;          /* --boot-service: run by the boot-to-sim unit (Power off, Reboot in the menus) */
    double seconds;             /* --seconds N: stop after N seconds of flight (0: until quit) */
    /* settings */
    const char *config;         /* --config DIR */
    bool use_settings;          /* the settings file was read and will be saved */
    char config_dir[512];       /* where it lives ("" when none) */
    bool settings_found;
    bool settings_damaged;      /* it was not read cleanly: the first save keeps it beside */
    char settings_warning[320]; /* one line about a damaged file, logged at boot */
    bool seed_given;            /* --seed / --world seed=: this run's seed becomes the last one */
    bool quality_by_hand;       /* --view-radius, --world, --lines, --no-clouds, --no-sky-clouds: no first-start guess (--quality chooses) */
    /* What the command line set, in its order: boot applies it over the settings file. */
    struct {
        const SettingDesc *row;         /* a game setting's flag, or */
        const WorldParamDesc *param;    /* a world parameter (--seed, --view-radius, --world) */
        const char *value;              /* as given (a switch: NULL) */
    } cli[64];
    int cli_count;
    /* Rows only this run sets (--time-of-day, --weather: for shots and tests): a save keeps the
     * file's value of a row the player did not change since. */
    struct {
        const SettingDesc *row;
        double file, run;
    } run_only[4];
    int run_only_count;
    bool writes_nothing;        /* a shot, a bench or --print-island: nothing written in the config folder */
    /* world, memory, view */
    const char *pak;            /* --pak FILE: codex pack instead of the built-in one */
    int mem_mib;                /* --mem MB: memory budget; 0 = SKYISLES_MEM_MB or the default */
    int mesh_pool_mib;          /* --mesh-pool MB: the world's CPU mesh pool; 0 = the game's */
    bool start_set;             /* --start X,Y,Z: the flight starts near there (metres) */
    double start[3];
    bool camera_set;            /* --camera x,y,z,yaw,pitch (degrees) */
    double cam[5];
    int width, height;          /* --size WxH */
    double time_s;              /* --time T: sky/cloud time at frame 0 */
    double wait_s;              /* --wait S: longest wait for the world before a shot */
    bool no_aircraft, fullscreen, vsync, sky_mediump;
    const char *show;           /* --show: what a screenshot shows over the scene (hud, title, menu, ...) */
    /* sound */
    bool audio;                 /* --audio: open the output device in a headless, shot or bench run too */
    const char *audio_out;      /* --audio-out FILE.wav: record the run's sound, render it at the end */
    /* replays */
    const char *replay;         /* --replay FILE: fly a recorded flight again (headless: unpaced) */
    const char *record;         /* --record FILE: the run's first flight is written there at the end */
    const char *ghost;          /* --ghost FILE: a replay flown beside the aircraft (shots, tests) */
    const char *record_attract; /* --record-attract FILE: the course pilot's sky course recorded (attract.c) */
} GameOptions;

/* A data file that is not built in (e.g. "controllers/gamecontrollerdb.txt"): SKYISLES_DATA_DIR,
 * then assets/ beside the binary or its parent, then ../share/skyisles. False when not found. */
bool game_data_file(const char *rel, char *out, size_t n);

/* Parses argv into what to run and what the command line set (nothing is read from disk);
 * false (one line printed) on bad input, *exit_now on --help. */
bool game_parse_args(int argc, char **argv, GameOptions *o, bool *exit_now);
/* --help: the run options, the game's settings table and the world's parameter table. */
void game_print_help(FILE *to);
/* The settings of this run: the table's defaults, then the settings file (when the run uses
 * one: o's config fields say what was found), then what the command line set. Boot calls it. */
void game_settings_boot(GameOptions *o, GameSettings *s);
/* s with the rows only this run set (--time-of-day, --weather) back to the file's values: what a save keeps. */
void game_settings_to_keep(const GameOptions *o, GameSettings *s);

/* The run's configuration: what was asked for, the settings in effect and whether they are kept. */
typedef struct GameConfig {
    GameOptions opt;
    GameSettings set;           /* as in effect now: the menus change it, the file keeps it */
    bool settings_dirty;
    bool config_read_only;      /* the config folder cannot be written: nothing is saved (said once at boot) */
} GameConfig;

#endif
