/* skyisles game: options, boot (memory -> platform -> jobs -> world -> renderer) and the
 * modes built on the main loop: interactive run, screenshot, benchmark. */
#ifndef SKYISLES_GAME_H
#define SKYISLES_GAME_H

#include <stdbool.h>
#include <stdint.h>

#include "core/core.h"
#include "platform.h"
#include "render/render.h"
#include "sim/sim.h"
#include "world/world.h"

typedef struct GameOptions {
    const char *screenshot;     /* --screenshot FILE.png */
    int frames;                 /* --frames N: frames simulated before the shot */
    uint64_t seed;
    bool seed_set;
    bool camera_set;            /* --camera x,y,z,yaw,pitch (degrees) */
    double cam[5];
    int width, height;          /* --size WxH */
    int bench_frames;           /* --bench-frames N */
    bool json;
    double time_s;              /* --time T: sky/cloud time at frame 0 */
    int view_radius;            /* --view-radius R (chunks); 0 = world default */
    double wait_s;              /* --wait S: longest wait for the world before a shot */
    bool no_aircraft, fullscreen, vsync, headless;
    RenderSettings render;
} GameOptions;

/* Parses argv; false (message printed) on bad input, *exit_now on --help. */
bool game_parse_args(int argc, char **argv, GameOptions *o, bool *exit_now);

typedef struct Game {
    GameOptions opt;
    MemBudget mem;
    Platform *platform;
    JobSystem *jobs;
    World *world;
    Renderer *render;
    FlightState flight;
    CameraState camera;
    bool camera_fixed;
    int disp_w, disp_h;
} Game;

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
