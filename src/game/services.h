/* skyisles services: what boot makes and shutdown ends (memory, the home island, the platform,
 * the job system, the world, the renderer, sound and input), lent to the parts that use them. */
#ifndef SKYISLES_GAME_SERVICES_H
#define SKYISLES_GAME_SERVICES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/core.h"
#include "course/archipelago.h"
#include "display.h"
#include "governor.h"
#include "input.h"
#include "island/island.h"
#include "night_lights.h"
#include "platform.h"
#include "render/render.h"
#include "sim/sim.h"
#include "sound.h"
#include "world/world.h"

/* Where the aircraft can land, for the HUD's nearest-strip arrow and a start on the ground: the
 * middle of a run (x, z), its heading (radians, the sim's yaw), its length (0: a place with no
 * strip) and its surface's height. */
typedef struct GameStrip {
    double x, z;
    float heading, length, y;
} GameStrip;
#define GAME_STRIPS_MAX 16

/* The islands around the aircraft (the island of its cell and its baked neighbours: the world's
 * world_islands_near) and their landing places, found again only when those islands change
 * (game_near_update, after each world_update): the HUD's nearest strip, the approach lights and
 * the night lights read them. */
#define GAME_NEAR_STRIPS (WORLD_NEAR_ISLANDS * ISLAND_FIELD_MAX_STRIPS)
typedef struct GameNear {
    bool ready;
    WorldGenParams gen;         /* the generation values they were found for */
    uint32_t n_islands, n_strips;
    WorldIsland island[WORLD_NEAR_ISLANDS];
    GameStrip strip[GAME_NEAR_STRIPS];   /* the islands' order (game_island_strips each) */
    uint32_t changes;           /* times they were found again */
} GameNear;

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
    bool archipelago;           /* the pack has one: the world's source of the other islands */
    Archipelago arch;
    WorldIslandSource isrc;
    GameNear near;              /* the islands around the aircraft and their strips */
} GameHome;

/* Pack (built-in when pak_path is NULL) -> island_generate(seed) -> island_bake_field centred on
 * the origin. False with one line in err (code SKY_ERR_INPUT) naming the file and the fix. */
bool game_home_boot(GameHome *h, MemBudget *mem, const char *pak_path, uint64_t seed, SkyError *err);
void game_home_log(const GameHome *h);
void game_home_site_name(const GameHome *h, uint32_t site, char *buf, size_t n);
/* --print-island: the island (sites, names, paths) and, when given, the spawn and its view. */
void game_home_print(const GameHome *h, const SimSpawn *spawn, FILE *out);
/* --print-island --start X,Y,Z: the island of the cell that holds (x, z) (its name, sites, paths
 * and strips), baked now if the world has not; false (one line) when the cell has none. */
bool game_island_print(const GameHome *h, World *w, double x, double z, FILE *out);
/* The home island site under (x, z), or -1 when off the island. */
int game_home_site_at(const GameHome *h, double x, double z);
/* The place and the island under (x, z) for the HUD ("Windmill Meadow, Isle of Ashgrove"), from
 * the islands the world holds (never baking one): false over the open sky. */
bool game_place_line(const GameHome *h, const World *w, double x, double z, char *buf, size_t n);
/* The landing places of the home island (at most max): the world's airstrips (the base camp's
 * first), or without any the base camp itself. Returns how many. */
int game_home_strips(const GameHome *h, const World *w, GameStrip *out, int max);
/* The landing places of island wi (at most max), as game_home_strips for the home island: its
 * airstrips (the base camp's first), or without any its base camp. Returns how many. */
int game_island_strips(const GameHome *h, const WorldIsland *wi, GameStrip *out, int max);
/* Finds the islands around (x, z) and their strips again when the islands the world holds there
 * changed (or the generation values): true then. Cheap when nothing changed (nine slot
 * look-ups). */
bool game_near_update(GameHome *h, const World *w, double x, double z);
/* The landing place nearest (x, z) among h->near's: false when none is held. */
bool game_near_strip(const GameHome *h, double x, double z, GameStrip *out);
/* The airstrips whose approach lights are drawn (at most max): h->near's islands' in their order
 * (the aircraft's island's first) as long as each lies within the renderer's reach of the first
 * (render_strips_set: 2 km). */
uint32_t game_near_lit_strips(const GameHome *h, WorldStrip *out, uint32_t max);

/* What each boot stage carved from the budget. */
typedef struct GameMemory {
    size_t home, jobs, world, world_mesh_pool, render, sound;
    size_t course_cache;        /* courses laid ahead: only carved where the budget has 8 MiB spare */
} GameMemory;

/* The boot's stages after the home island, in order (GameBootClock.stage_ms). */
enum { GAME_BOOT_WORLD, GAME_BOOT_WINDOW, GAME_BOOT_RENDER, GAME_BOOT_REST, GAME_BOOT_STAGES };
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
    /* The boot's stages after the home island (whose pack, generation and bake GameHome times):
     * wall ms and the main thread's CPU ms each. GAME_BOOT_WORLD: the job system, the plan, the
     * world created, the courses and the attract; WINDOW: the platform (SDL, the window and its GL
     * context); RENDER: the renderer and the island map; REST: sound and the start place. */
    double stage_ms[GAME_BOOT_STAGES], stage_cpu_ms[GAME_BOOT_STAGES];
    double stage_wall0, stage_cpu0;   /* wall and CPU ms as the current stage began */
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
    int map_lang;               /* the Lang the island map's names were set in */
    GameLamps lamps;            /* the landmarks' night lights, found for the world drawn */
    Sound sound;                /* the synth, its device, the --audio-out recording */
    Input input;
    PlatformEvents ev;          /* this frame's events */
    int disp_w, disp_h;         /* the display's size in pixels */
    FramePacer pacer;           /* the frame cap's schedule (display.c) */
    GameBootClock boot;         /* the boot's timeline */
    Governor gov;               /* Quality auto in an interactive run (govern.c); off elsewhere */
} GameServices;

#endif
