/* skyisles services: what boot makes and shutdown ends (memory, the home island, the platform,
 * the job system, the world, the renderer, sound and input), lent to the parts that use them. */
#ifndef SKYISLES_GAME_SERVICES_H
#define SKYISLES_GAME_SERVICES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/core.h"
#include "display.h"
#include "governor.h"
#include "input.h"
#include "island/island.h"
#include "platform.h"
#include "render/render.h"
#include "sim/sim.h"
#include "sound.h"
#include "world/world.h"

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
/* The home island site under (x, z), or -1 when off the island. */
int game_home_site_at(const GameHome *h, double x, double z);

/* What each boot stage carved from the budget. */
typedef struct GameMemory {
    size_t home, jobs, world, world_mesh_pool, render, sound;
} GameMemory;

/* The boot's timeline in ms of wall time since main began (0: not yet) and the main thread's CPU
 * time, which a shared machine's load moves much less: bench boot reads the line
 * game_boot_clock_frame logs. */
typedef struct GameBootClock {
    double start_ms;       /* time_now_ms() as main began */
    double ready_ms;       /* every boot stage stands */
    double wait_ms;        /* headless: the wait for the view to fill, before the flight counts */
    double first_step_ms;  /* the sim's first step done */
    double first_frame_ms; /* the first frame shown (swapped) */
    double cpu_ms;         /* the main thread's CPU time (from the process's start) at the last of those */
} GameBootClock;

typedef struct GameServices {
    MemBudget mem;
    GameMemory carved;          /* what each boot stage carved from the budget */
    GameHome home;
    SimSpawn spawn;             /* where a flight starts and a restart with no safe place goes */
    Platform *platform;
    JobSystem *jobs;
    World *world;
    Renderer *render;           /* NULL in a headless run */
    Sound sound;                /* the synth, its device, the --audio-out recording */
    Input input;
    PlatformEvents ev;          /* this frame's events */
    int disp_w, disp_h;         /* the display's size in pixels */
    FramePacer pacer;           /* the frame cap's schedule (display.c) */
    GameBootClock boot;         /* the boot's timeline */
    Governor gov;               /* Quality auto in an interactive run (govern.c); off elsewhere */
} GameServices;

#endif
