/* skyisles game: options, boot (memory -> pack + home island -> jobs -> world -> platform ->
 * renderer) and the modes built on the main loop: interactive run, screenshot, benchmark. */
#ifndef SKYISLES_GAME_H
#define SKYISLES_GAME_H

#include <stdbool.h>
#include <stdint.h>

#include <stdio.h>

#include "core/core.h"
#include "input.h"
#include "island/island.h"
#include "platform.h"
#include "render/render.h"
#include "menu.h"
#include "continue.h"
#include "display.h"
#include "screenshot.h"
#include "play.h"
#include "power.h"
#include "ghost.h"
#include "attract.h"
#include "replay_store.h"
#include "settings.h"
#include "sim/sim.h"
#include "sound.h"
#include "tour.h"
#include "world/world.h"

/* Exit statuses: bad input (options, pack, memory budget: errors of code SKY_ERR_INPUT) and
 * everything else that stops a start (no display, no GL context). */
#define GAME_EXIT_BAD_INPUT 2
#define GAME_EXIT_START_FAILED 1
#define GAME_DEFAULT_SEED 20261129u     /* the world's and the home island's seed without --seed */
#define GAME_HOME_SCOPE "island"        /* the codex generation scope of the home island */
#define GAME_LANG "en"                  /* the language of place names */
#define GAME_HOME_FIELD 256u            /* IslandField cells per side (640 m island: 2.5 m cells) */
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
    size_t home, jobs, world, world_mesh_pool, render, sound;
} GameMemory;

typedef struct Game {
    GameOptions opt;
    GameSettings set;           /* as in effect now: the menus change it, the file keeps it */
    bool settings_dirty;
    MemBudget mem;
    GameMemory carved;
    GameHome home;
    SimSpawn spawn;
    Platform *platform;
    JobSystem *jobs;
    World *world;
    Renderer *render;           /* NULL in a headless run */
    Sound sound;                /* the synth, its device, the --audio-out recording */
    Input input;
    PlatformEvents ev;          /* this frame's events */
    Play play;
    Menu menu;
    FlightModel model;
    CameraRig rig;
    FlightState flight;
    CameraState camera;
    Tour tour;                  /* the course flown (tour.c); Free flight: none */
    uint64_t course_respawns;   /* play.respawns the course has restarted for */
    bool camera_fixed;
    int disp_w, disp_h;
    GameContinue cont;          /* the saved spot of this seed (continue.c) */
    GameShot shot;              /* F12 / L1+R1 screenshots (screenshot.c) */
    FramePacer pacer;           /* the frame cap's schedule (display.c) */
    bool config_read_only;      /* the config folder cannot be written: nothing is saved (said once at boot) */
    /* replays (replay_game.c): the flight being recorded, a --replay file, the ghost's best run */
    Replay rec, playback, ghost_run;
    ReplayMeta meta;
    ReplayStore store;
    Ghost ghost;
    Attract attract;            /* the attract mode's bundled replay (attract.c) */
} Game;

/* Boots every stage (with --print-island: budget, home island and a world without workers or
 * window, enough to choose the spawn; --headless: no window and no renderer). False with one
 * line in err; err->code says which exit status (main.c). */
bool game_boot(Game *g, const GameOptions *o, SkyError *err);
void game_shutdown(Game *g);

/* Applies the settings the menu changed (MENU_CHANGED_* bits) to the world, renderer, input and
 * flight model; marks them to be saved. */
void game_apply_settings(Game *g, unsigned changes);
/* Writes the settings file when something changed (interactive runs only). */
void game_save_settings(Game *g);
/* Continue (continue.c): the config folder checked and this seed's saved spot read (boot); the
 * aircraft put at the spot (the title's Continue); the spot written at quit when the player flew. */
void game_continue_boot(Game *g);
bool game_continue_flight(Game *g);   /* true: the camera changed (apply MENU_CHANGED_FLIGHT) */
void game_continue_quit(Game *g);
/* Jumps (jump.c): the aircraft put in open air near (x, y, z) metres, a recording and a course
 * ended first (false, with a message, when no open air is near: it stays); --start at boot
 * (after play_init; the spawn stays the home island's, where a restart with no safe place goes). */
bool game_fly_to(Game *g, double x, double y, double z);
/* Back to free flight: the course (or its results) ended, its ghost and rings gone. */
void game_course_end(Game *g);
void game_start_at(Game *g);
/* Screenshots (screenshot.c): the request from this frame's input; whether the frame being drawn
 * leaves the HUD out for it; the drawn frame saved (called before the swap). */
void game_shot_input(Game *g);
bool game_shot_hides_hud(const GameShot *s, const GameSettings *set);
void game_shot_capture(Game *g);
/* The display (display.c): vsync and fullscreen applied from the settings (the flags of this run
 * over them); F11 and Alt+Enter; the pacing (game_pace_frame, display.h). */
void game_display_apply(Platform *pf, const GameOptions *o, const GameSettings *s);
bool game_display_input(Game *g);   /* F11, Alt+Enter: true when the window setting changed */

/* One frame of play: input -> play state -> flight, collision -> world streaming -> uploads. Every
 * run goes through it: play, headless, shots and benches (the autopilot flying; with --camera the
 * camera held). */
void game_frame(Game *g, const PlatformEvents *ev, float dt);
void game_draw(Game *g);
/* Keeps feeding the world (time frozen) until nothing is in flight or pending, or timeout. */
bool game_wait_world(Game *g, double timeout_s);
/* Drains the world's events without a renderer (headless): every READY mesh is released as if
 * uploaded, so the mesh pool behaves as in a real run. */
void game_consume_world(World *w);
WorldView game_world_view(const Game *g);

/* The HUD, menus and map for this frame, queued into the renderer's HUD layer (overlay.c). */
void overlay_draw(Game *g);
/* The height of t's glyphs as the overlay draws them now (HUD canvas pixels; the canvas height in
 * *canvas_h): for tests of the HUD size. The HUD layer is left empty. */
int overlay_text_probe(Game *g, const char *t, int *canvas_h);
/* Puts the game in a screen for a screenshot: a name of the --show table (show.h: play's screens,
 * the menu's pages, the game modes' shots; NULL: the HUD). False for an unknown name. */
bool game_show(Game *g, const char *what);
/* The home island site under (x, z), or -1 when off the island. */
int game_home_site_at(const GameHome *h, double x, double z);

/* What play works on this frame: the game's own parts, lent. */
PlayCtx game_play_ctx(Game *g);
/* After each fixed step (PlayCtx.on_step, user the Game): a course's rings, clock and restarts. */
void game_course_step(void *user, const FlightState *before, bool flew);

/* ---------------------------------------------------------------- replays (replay_game.c) */
/* Carves the recorder and the ghost's buffer; with --replay loads the file and sets its world
 * parameters over the settings (before the world is built). False with one line in err. */
bool game_replay_boot(Game *g, SkyError *err);
/* After boot: the replays folder; with --replay the pack check and the replay's start state. */
bool game_replay_ready(Game *g, SkyError *err);
/* Before settings apply: a change of what the sim flies with ends the recording there. */
void game_replay_settings_changing(Game *g, unsigned changes);
void game_replay_settings_changed(Game *g);
/* After a frame of play: the ghost's steps, an ended recording kept. */
void game_replay_frame(Game *g, const PlayRequest *rq);
/* At the end of a run: the recording ended and kept (--record FILE: written there); with
 * --replay the verdict line. The run's exit status. */
int game_replay_finish(Game *g);
/* --headless --replay: every step unpaced, then the verdict. */
int game_replay_headless(Game *g);
/* The sim's state hash now (what a replay of this flight must end with). */
uint64_t game_sim_hash(const Game *g);
/* For courses: end the recording here (kept as a last flight; the next step starts a new one),
 * keep the recording so far as course_id's best run when faster (1 kept, 0 not, -1 failed: a
 * line logged), and start course_id's best run as the ghost (false with a line when none). */
bool game_replay_restart(Game *g);
int game_keep_best(Game *g, const char *course_id, double time_s, const float *splits, uint32_t n_splits);
bool game_ghost_start(Game *g, const char *course_id);

int game_run(Game *g);
int game_screenshot(Game *g);
int game_bench(Game *g);
/* heap_calls: the binary's count of heap calls (main.c's wrapper), NULL where none is linked. */
int game_headless(Game *g, uint64_t (*heap_calls)(void));

#endif
