/* skyisles play: the screens (title, flight, crash and restart, pause menu, island map, attract
 * mode) and what the controller coming and going does to them. Play takes what it uses (PlayCtx)
 * and hands back what the game must do (PlayRequest): it never calls into the game. */
#ifndef SKYISLES_GAME_PLAY_H
#define SKYISLES_GAME_PLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "input.h"
#include "menu.h"
#include "platform.h"
#include "replay.h"
#include "settings.h"
#include "show.h"
#include "sim/sim.h"
#include "world/world.h"

typedef enum PlayState {
    PLAY_START = 0,     /* the title over the world; the autopilot flies behind it */
    PLAY_FLY,           /* the player (or --autopilot) flies */
    PLAY_CRASH,         /* a short stop after a hit, then a restart near the last safe place */
} PlayState;

typedef enum PlayOverlay { OVERLAY_NONE = 0, OVERLAY_MENU, OVERLAY_MAP } PlayOverlay;

#define PLAY_MESSAGES 4
#define PLAY_CRASH_SECONDS 2.0f
#define PLAY_TOUCH_SECONDS 4.0f        /* a touchdown's rating stays on the HUD this long */
#define PLAY_DEMO_IDLE_SECONDS 30.0f   /* idle on the start screen or in the pause menu: attract mode */
#define PLAY_STALL_SECONDS 0.5          /* a longer gap between frames (suspend, SIGSTOP, a debugger) pauses */

typedef struct PlayMessage {
    char text[96];
    float ttl;
} PlayMessage;

typedef struct Play {
    PlayState state;
    PlayOverlay overlay;
    PlayOverlay map_return;     /* what closing the map returns to */
    bool map_world;             /* the map steps out to the world map (the map control again) */
    bool world_map;             /* there is one (the pack has an archipelago): set after play_init */
    bool demo;                  /* attract mode: the bundled replay (or the autopilot) flies until any input */
    bool autopilot_boost;       /* the autopilot is asked to boost (soak runs) */
    bool paused_for_pad;        /* paused because the driving controller went away */
    bool quit;
    int power;                  /* MENU_CMD_POWEROFF / MENU_CMD_REBOOT: what follows the quit (power.c) */
    float crash_timer, idle_s;
    const char *crash_why;      /* what the last crash was ("hit the ground", "a wing first", ...) */
    /* the wheels: the last touchdown (its rating on the HUD for touch_timer seconds), brakes held */
    SimGroundResult touch;
    float touch_timer;
    uint64_t touchdowns;
    bool brake;
    /* the last place the aircraft flew in open air: restarts go near it */
    double safe_x, safe_y, safe_z;
    float safe_yaw, safe_timer;
    bool safe_valid;
    PlayMessage msg[PLAY_MESSAGES];
    char pad_notice[96];        /* shown while paused for a controller */
    uint64_t crashes, respawns, frames;
    double flight_s;            /* seconds flown (not paused) */
    float fps;
    uint32_t fps_frames;
    double fps_t0;
    /* collision cost per frame (the sweep of the frame's motion) */
    double collide_ms_last, collide_ms_max, collide_ms_sum;
    uint32_t collide_steps_max, collide_blocks_max;
    /* the fixed step: frame time not yet stepped, steps run, the state before the last step
     * (drawing interpolates between it and the current one) */
    double step_acc;
    uint64_t steps;
    FlightState prev;
    bool prev_valid;
    bool quiet;                 /* a ghost's play: no log lines */
    bool replay_done;           /* the replay played back has no steps left */
    uint32_t stalls;            /* gaps longer than PLAY_STALL_SECONDS */
} Play;

/* What play works on, lent by the game for one call. */
typedef struct PlayCtx {
    World *world;               /* collision and restarts query its density */
    FlightState *flight;
    const FlightModel *model;
    CameraRig *rig;
    CameraState *camera;
    const SimSpawn *spawn;      /* where a restart with no safe place goes */
    const InputState *in;       /* this frame's actions */
    const PlatformEvents *ev;   /* this frame's raw presses (binding capture) */
    Menu *menu;
    GameSettings *set;          /* collision, camera and HUD are read and toggled here */
    bool autopilot;             /* --autopilot, shots and benches: the autopilot flies on every screen */
    bool camera_held;           /* --camera: the camera stays where it was put, the aircraft hangs in front of it */
    bool demo_start;            /* --demo: the attract loop hands back to the title */
    bool boot_service;          /* --boot-service: Select on the title opens the menu (Power off, Reboot) */
    bool can_continue;          /* a saved spot of this seed: the title's Start continues there */
    Replay *rec;                /* records the flight's steps (NULL: none) */
    const ReplayMeta *meta;     /* what a recording is stamped with */
    Replay *replay;             /* plays these inputs back instead of any pilot (NULL: none) */
    /* Called after every fixed step (a course's rings are crossed at the sim's step, as the
     * collision sweeps it): the state before the step, and whether the aircraft flew it (false:
     * the pause after a crash). NULL: none. */
    void (*on_step)(void *user, const FlightState *before, bool flew);
    void *step_user;
    /* Flies instead of the player and the autopilot (a course's pilot), NULL: none. It flies
     * this context's flight with its model through its world. */
    void (*pilot)(void *user, const struct PlayCtx *c, FlightInput *out);
    void *pilot_user;
} PlayCtx;

/* What a frame of play asks of the game, done in this order. */
typedef struct PlayRequest {
    unsigned apply;             /* MENU_CHANGED_* to apply (the menu or a button changed a setting) */
    bool dirty;                 /* a setting changed that needs no applying (the HUD toggle): keep it */
    bool save;                  /* an overlay closed: write the settings file if anything changed */
    bool resume_saved;          /* the title's Continue: put the aircraft at the saved spot */
    bool fly_to;                /* the pause menu's Fly to: move the aircraft to fly_pos (play_jump) */
    double fly_pos[3];
    bool start_mode;            /* the pause menu's choice of a game mode: start row `mode` of the mode table */
    int mode;
    uint32_t steps;             /* fixed sim steps run this frame (a ghost runs as many) */
} PlayRequest;

/* A touchdown rating's word: "smooth", "firm", "hard". */
const char *play_touch_name(SimTouchRating r);
/* Starts at the title (a player), flying (fly_at_once: --autopilot, headless, shots, benches,
 * a fixed camera) or in the attract loop (demo). */
void play_init(Play *p, const FlightState *flight, bool fly_at_once, bool demo);
/* Is there a world map (the pack has an archipelago)? The map control then steps out to it. */
void play_world_map(Play *p, bool has);
PlayRequest play_frame(Play *p, const PlayCtx *c, float dt);
void play_message(Play *p, float ttl, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* One fixed step (SIM_STEP) of the sim: the input of whoever flies (or the replay's), quantised
 * and recorded, the flight model and collision, or the crash's pause and restart. */
void play_step(Play *p, const PlayCtx *c);
/* The aircraft to draw: between the state before the last step and the current one, by the
 * frame time not yet stepped. */
void play_view_flight(const Play *p, const FlightState *cur, FlightState *out);
/* A gap of gap_s seconds between frames: in flight the pause menu opens (the game waits where it
 * was); on the title or in the attract loop the time is dropped. */
void play_stall(Play *p, const PlayCtx *c, double gap_s);
/* The sim's state as a replay starts it, and back. */
void play_replay_start(const Play *p, const FlightState *f, ReplayStart *out);
void play_replay_restore(Play *p, FlightState *f, const ReplayStart *s);
/* The hash a replay must end with: the flight's state, the screen, the restart place, and the
 * crashes and restarts since (crashes0, respawns0). */
uint64_t play_sim_hash(const Play *p, const FlightState *f, uint64_t crashes0, uint64_t respawns0);
/* Puts the aircraft in open air near (x, y, z) as a restart finds it (sim_respawn_near; y held in
 * the world's height range), keeping its speed and throttle; the restart place goes with it, the
 * world is told of the jump and the camera cuts. False (nothing moved) when no open air is near. */
bool play_jump(Play *p, const PlayCtx *c, double x, double y, double z);
/* play_jump in two: the open air near (x, y, z) into *to (false: none), then the aircraft put
 * there (so a caller can end what the jump ends only once the place is found). */
bool play_jump_find(const PlayCtx *c, double x, double y, double z, FlightState *to);
void play_jump_to(Play *p, const PlayCtx *c, const FlightState *to);
/* A restart near the last safe place, else at the spawn, at cruise speed. */
void play_respawn(Play *p, const PlayCtx *c);
/* The transitions the game asks for from outside a frame (play.c is the only writer of Play). */
/* A course starts: the overlays closed, flying, the attract loop over. */
void play_enter_flight(Play *p);
/* The aircraft was put at f by the game (a Continue): the restart place goes with it. */
void play_set_safe(Play *p, const FlightState *f);
/* The world was rebuilt: the last safe place may be rock now (a restart goes to the spawn). */
void play_forget_safe(Play *p);
/* The aircraft may have been moved: the next drawn frame is a cut, nothing between. */
void play_cut(Play *p);
void play_set_boost(Play *p, bool boost);
void play_set_quiet(Play *p, bool quiet);
/* A gap between frames that the caller steps over (headless: one fixed step a frame). */
void play_count_stall(Play *p);
/* A replay from its first step again (the attract loop's): its start state, nothing unstepped. */
void play_replay_again(Play *p, FlightState *f, const ReplayStart *s);
/* The attract loop keeps the player's play at its start and puts it back at its end; what went
 * on meanwhile stays (the quit asked for, frame counts, messages, stalls), the loop is over and
 * to_title (--demo) hands back the title. */
void play_keep(const Play *p, Play *kept);
void play_put_back(Play *p, const Play *kept, bool to_title);
/* play_view_flight with the unstepped time given (a ghost drawn at the player's). */
void play_view_flight_at(const Play *p, double step_acc, const FlightState *cur, FlightState *out);
/* Puts play in a screen for a screenshot (a row of the --show table; a mode's shot flies with the
 * HUD); `held` is what the world holds now (shown beside the player's values). False for a menu
 * page that is not there. */
bool play_show(Play *p, Menu *menu, GameSettings *set, const WorldParams *held, const Show *what);

#endif
