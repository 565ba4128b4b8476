/* skyisles attract mode: idle on the title or in the pause menu (or --demo), the game plays a
 * bundled replay of the course pilot flying the default seed's sky course (rings, the course's
 * HUD, no ghost), again and again, until any input hands back what it interrupted, as it was.
 * Where the file is missing or damaged, or was recorded with another simulation, pack or world
 * (the player changed a world parameter), one line says so and the autopilot flies as before.
 * `skyisles --record-attract FILE` (make attract-replay) records the file; docs/replay.md. */
#ifndef SKYISLES_GAME_ATTRACT_H
#define SKYISLES_GAME_ATTRACT_H

#include <stdbool.h>
#include <stdint.h>

#include "ghost.h"
#include "play.h"
#include "replay.h"
#include "settings.h"
#include "tour.h"

/* Where the game looks for it (game_data_file: beside the game, SKYISLES_DATA_DIR, the install). */
#define ATTRACT_REPLAY_FILE "replays/attract-sky.skyr"
#define ATTRACT_WATCH_FRAMES 120u

typedef struct Attract {
    Replay run;                 /* the bundled replay (storage carved at boot) */
    Course *course;             /* its course, laid at the first attract that plays it */
    bool loaded;                /* the file parsed */
    bool laid;                  /* course holds the course of this world's parameters (laid_params) */
    uint64_t laid_params;       /* course_params_hash of the world it was laid in */
    bool verified;              /* the loaded replay flew its course unseen in that world */
    bool playing;               /* the replay flies now (the player's state kept below) */
    bool session;               /* this attract loop has begun (replay or autopilot) */
    char path[1024];            /* the file read ("" when none was found) */
    SkyError load_err;          /* why the file did not load */
    char why[400];              /* why it does not play, as last logged ("" none yet) */
    GameSettings set;           /* the settings the replay flies with (collision as recorded) */
    uint32_t loops;             /* times it has played to its end */
    /* The frames at the loop's start (the log's debug line): the longest gap between two frames'
     * attract_before_frame from the loop's first frame over ATTRACT_WATCH_FRAMES frames. */
    double watch_last_ms, watch_max_ms;
    uint32_t watch_frames;
    /* the player's state while the replay flies */
    FlightState flight;
    Play play;
    Ghost ghost;
    TourSaved tour;
    uint64_t course_respawns;
} Attract;

typedef struct Game Game;

/* Boot (runs with an attract loop: not headless, shots or benches): the bundled file found, its
 * bytes and its course carved, the file read (a missing or damaged file is noted, said at the
 * first attract). False with one line when the budget is short. */
bool attract_boot(Game *g, SkyError *err);
/* Reads another file as the attract's replay (tests; in a run that carved nothing for it at boot,
 * a headless one, its storage is carved from the budget first): false with the line in err. */
bool attract_load(Game *g, const char *path, SkyError *err);
/* Before a frame's steps: the attract loop just began -> the replay, when it fits this world,
 * takes over the flight, the course and the HUD; otherwise the line and the autopilot. */
void attract_before_frame(Game *g);
/* After a frame: any input ended the loop -> the player's flight, course and ghost back as they
 * were; the replay at its end -> again from its start. */
void attract_after_frame(Game *g);
bool attract_playing(const Game *g);
/* The replay fits this world and build (pack, simulation, parameters, course) and, flown once
 * unseen (once per world), passes every ring to its recorded state: false with why. */
bool attract_check(Game *g, SkyError *err);
/* --record-attract FILE: the course pilot flies this world's sky course in the game, unpaced, from
 * its start to its last ring; the recording (with the course's id and ring times) goes to FILE.
 * The exit status. */
int game_attract_record(Game *g);

#endif
