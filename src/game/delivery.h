/* skyisles deliveries and the logbook in the game: the jobs (jobs.c) and the logbook (logbook.c)
 * fed from the sim's fixed steps, saved with the settings, shown on the HUD, the map and two
 * pause-menu pages (the job board, the logbook: logbook_page.c). Free flight and every mode carry
 * jobs: a delivery lays no course, so it needs no mode row of its own. */
#ifndef SKYISLES_GAME_DELIVERY_H
#define SKYISLES_GAME_DELIVERY_H

#include <stdbool.h>

#include "jobs.h"
#include "logbook.h"
#include "seen.h"
#include "options.h"
#include "render/render.h"
#include "sim/sim.h"

#define DELIVERY_NOTICE_S 8.0f   /* how long "delivered in 2:41; on foot ..." stays up (a play message) */

typedef struct GameDelivery {
    Jobs jobs;
    Logbook log;
    SeenTable seen;              /* the archipelago's islands seen this run (the world map's) */
    bool in_flight;              /* the player's flight is under way (its start counted) */
    float sink;                  /* m/s downward over the last airborne step, or the sim's touchdown sink */
    uint64_t touchdowns_seen;    /* Play.touchdowns when the sim's sink was last taken */
    float sea_y;                 /* the home island's sea level, world metres (its ground is on it) */
    bool staged;                 /* --show jobs: a board put up at the base that the shot's steps leave */
    char notice[112];            /* the last delivery's line (course_step shows it as a message) */
} GameDelivery;

/* The flight model's wheels on the ground (FlightState.on_ground: rolling or parked). */
bool delivery_on_ground(const FlightState *f);
/* Boot: the jobs on the home island of the seed and the islands of world w (NULL: the home island
 * alone); the logbook read from the config folder when the
 * run is the player's (interactive, not --autopilot or --headless, the folder writable); the two
 * pause-menu pages registered. sea_y: the home island's sea level (world metres). */
void game_delivery_boot(GameDelivery *d, const GameConfig *cfg, const GameHome *home, World *w, uint64_t seed,
                        float sea_y);
/* After each fixed step: flew (not a crash's pause), title (the title or the attract loop: not the
 * player's flight; the next step of one is a new flight). A crash keeps the job and the flight.
 * The step's JOB_EV_* bits. */
uint32_t game_delivery_step(GameDelivery *d, const FlightState *before, const FlightState *f, bool flew, bool title);
/* --show worldmap: the islands a survey flight from (x, z) would see recorded as seen (three legs
 * of `metres` east and west, a cell apart), the island it starts on as landed on (the logbook is
 * not touched). */
void game_delivery_stage_seen(GameDelivery *d, double x, double z, double metres);
/* The logbook written (when it changed): the moments the settings are saved. */
void game_delivery_save(GameDelivery *d, const GameConfig *cfg);
/* HUD: the job's arrow, destination and distance (as much as fits the screen), the board's prompt. */
void delivery_hud_draw(const GameDelivery *d, Renderer *r, int w, int h, int s, int lh, const FlightState *f,
                       const CameraState *cam);
/* On the island map of cell (cell_x, cell_z) (drawn into the rectangle render_hud_map got): the
 * home island's places landed at on its map, the job's destination on its island's. */
void delivery_map_draw(const GameDelivery *d, Renderer *r, int x, int y, int w, int h, int64_t cell_x, int64_t cell_z);
/* The pages (logbook_page.c): "jobs" (the board) and "logbook", and their pause-menu entries. */
void delivery_pages_register(GameDelivery *d);

#endif
