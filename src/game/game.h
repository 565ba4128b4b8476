/* skyisles game: options, boot (memory -> pack + home island -> jobs -> world -> platform ->
 * renderer) and the modes built on the main loop: interactive run, screenshot, benchmark. */
#ifndef SKYISLES_GAME_H
#define SKYISLES_GAME_H

#include <stdbool.h>
#include <stdint.h>

#include <stdio.h>

#include "core/core.h"
#include "island/island.h"
#include "platform.h"
#include "render/render.h"
#include "sim/sim.h"
#include "world/world.h"

/* Exit statuses: bad input (options, pack, memory budget: errors of code SKY_ERR_INPUT) and
 * everything else that stops a start (no display, no GL context). */
#define GAME_EXIT_BAD_INPUT 2
#define GAME_EXIT_START_FAILED 1
#define GAME_DEFAULT_SEED 20261129u     /* the world's and the home island's seed without --seed */
#define GAME_HOME_SCOPE "island"        /* the codex generation scope of the home island */
#define GAME_HOME_FIELD 256u            /* IslandField cells per side (1800 m island: ~7 m cells) */
/* The game's chunk-mesh pool: the renderer releases each CPU mesh after upload, so only meshes
 * in flight or waiting for upload hold slabs (about 350 slabs, 8 MiB, at view radius 10). */
#define GAME_MESH_POOL_MIB 16u
#define GAME_MAX_WORLD_SETS 64          /* --world options on one command line */

typedef struct GameOptions {
    const char *screenshot;     /* --screenshot FILE.png */
    int frames;                 /* --frames N: frames simulated before the shot */
    uint64_t seed;              /* --seed S: world and home island (GAME_DEFAULT_SEED) */
    const char *pak;            /* --pak FILE: codex pack instead of the built-in one */
    int mem_mib;                /* --mem MB: memory budget; 0 = SKYISLES_MEM_MB or the default */
    int mesh_pool_mib;          /* --mesh-pool MB: the world's CPU mesh pool; 0 = the world's own sizing */
    bool print_island;          /* --print-island: home island summary on stdout, no window */
    bool camera_set;            /* --camera x,y,z,yaw,pitch (degrees) */
    double cam[5];
    int width, height;          /* --size WxH */
    int bench_frames;           /* --bench-frames N */
    bool json;
    double time_s;              /* --time T: sky/cloud time at frame 0 */
    int view_radius;            /* --view-radius R (chunks); 0 = world default */
    const char *world_sets[GAME_MAX_WORLD_SETS];   /* --world name=value, in order */
    int n_world_sets;
    double wait_s;              /* --wait S: longest wait for the world before a shot */
    bool no_aircraft, fullscreen, vsync, headless;
    RenderSettings render;
} GameOptions;

/* A data file that is not built in (e.g. "controllers/gamecontrollerdb.txt"): SKYISLES_DATA_DIR,
 * then assets/ beside the binary or its parent, then ../share/skyisles. False when not found. */
bool game_data_file(const char *rel, char *out, size_t n);

/* Parses argv; false (message printed) on bad input, *exit_now on --help. */
bool game_parse_args(int argc, char **argv, GameOptions *o, bool *exit_now);

/* The home island as booted: codex, island and the field the world shapes it from, all in
 * the budget. */
typedef struct GameHome {
    const char *pak_name;       /* the --pak path or "built-in" */
    size_t pak_bytes;
    IslandCodex *codex;
    Island *island;
    MemArena arena;             /* generator work, then the baked field */
    IslandField field;
    double load_ms, gen_ms, bake_ms;
    size_t work_peak, carved;
} GameHome;

/* Pack (built-in when pak_path is NULL) -> island_generate(seed) -> island_bake_field centred on
 * the origin. False with one line in err (code SKY_ERR_INPUT) naming the file and the fix. */
bool game_home_boot(GameHome *h, MemBudget *mem, const char *pak_path, uint64_t seed, SkyError *err);
void game_home_log(const GameHome *h);
void game_home_site_name(const GameHome *h, uint32_t site, char *buf, size_t n);
/* --print-island: the island (sites, names, paths) and, when given, the spawn and its view. */
void game_home_print(const GameHome *h, const SimSpawn *spawn, FILE *out);

/* What each boot stage carved from the budget. */
typedef struct GameMemory {
    size_t home, jobs, world, world_mesh_pool, render;
} GameMemory;

typedef struct Game {
    GameOptions opt;
    MemBudget mem;
    GameMemory carved;
    GameHome home;
    SimSpawn spawn;
    Platform *platform;
    JobSystem *jobs;
    World *world;
    Renderer *render;
    FlightState flight;
    CameraState camera;
    bool camera_fixed;
    int disp_w, disp_h;
} Game;

/* Boots every stage (with --print-island: budget, home island and a world without workers or
 * window, enough to choose the spawn). False with one line in err; err->code says which exit status (main.c). */
bool game_boot(Game *g, const GameOptions *o, SkyError *err);
void game_shutdown(Game *g);

/* One frame: sim (fixed dt when > 0, else wall clock), world, uploads, draw. No swap. */
void game_update(Game *g, float dt);
void game_draw(Game *g);
/* Keeps feeding the world (time frozen) until nothing is in flight or pending, or timeout. */
bool game_wait_world(Game *g, double timeout_s);

int game_run(Game *g);
int game_screenshot(Game *g);
int game_bench(Game *g);

#endif
