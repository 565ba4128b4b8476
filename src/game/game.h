/* skyisles game: options, boot (memory -> pack + home island -> jobs -> world -> platform ->
 * renderer) and the modes built on the main loop: interactive run, screenshot, benchmark. */
#ifndef SKYISLES_GAME_H
#define SKYISLES_GAME_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "courses.h"
#include "options.h"
#include "services.h"
#include "session.h"

/* The game: its configuration and its three parts. Boot, the frame and shutdown see it whole;
 * every other function takes the parts it uses. */
typedef struct Game {
    GameConfig cfg;
    GameServices svc;
    GameSession ses;
    GameCourses crs;
} Game;

/* Boots every stage (with --print-island: budget, home island and a world without workers or
 * window, enough to choose the spawn; --headless: no window and no renderer). False with one
 * line in err; err->code says which exit status (main.c). */
bool game_boot(Game *g, const GameOptions *o, SkyError *err);
void game_shutdown(Game *g);

/* Applies the settings the menu changed (MENU_CHANGED_* bits) to the world, renderer, input and
 * flight model; marks them to be saved. */
void game_apply_settings(GameConfig *cfg, GameServices *svc, GameSession *ses, GameCourses *crs, unsigned changes);
/* Writes the settings file when something changed (interactive runs only). */
void game_save_settings(GameConfig *cfg);
/* Continue (continue.c): the config folder checked and this seed's saved spot read (boot); the
 * aircraft put at the spot (the title's Continue); the spot written at quit when the player flew. */
void game_continue_boot(GameConfig *cfg, GameContinue *cont, const World *w);
/* true: the camera changed (apply MENU_CHANGED_FLIGHT) */
bool game_continue_flight(GameSession *ses, GameSettings *set, const World *w, const SimSpawn *spawn);
void game_continue_quit(GameSession *ses, const GameConfig *cfg);
/* Jumps (jump.c): the aircraft put in open air near (x, y, z) metres, a recording and a course
 * ended first (false, with a message, when no open air is near: it stays); --start at boot
 * (after play_init; the spawn stays the home island's, where a restart with no safe place goes). */
bool game_fly_to(GameConfig *cfg, GameServices *svc, GameSession *ses, GameCourses *crs, double x, double y, double z);
/* Back to free flight: the course (or its results) ended, its ghost and rings gone. */
void game_course_end(GameCourses *crs, Renderer *render);
void game_start_at(GameConfig *cfg, GameServices *svc, GameSession *ses, GameCourses *crs);
/* Screenshots (screenshot.c): the request from this frame's input (and the last one's result
 * said, once its thread is done); whether the frame being drawn leaves the HUD out for it; the
 * drawn frame read back and handed to the saving thread (called before the swap); waiting for
 * that thread and saying its result (the tests, which look at the file at once). */
void game_shot_input(GameSession *ses, const InputState *in, const Renderer *render);
bool game_shot_hides_hud(const GameShot *s, const GameSettings *set);
void game_shot_capture(GameSession *ses, int w, int h);
void game_shot_wait(GameSession *ses);
/* The display (display.c): vsync and fullscreen applied from the settings (the flags of this run
 * over them); F11 and Alt+Enter; the pacing (game_pace_frame, display.h). */
void game_display_apply(Platform *pf, const GameOptions *o, const GameSettings *s);
/* F11, Alt+Enter: true when the window setting changed */
bool game_display_input(GameConfig *cfg, PlatformEvents *ev, Platform *pf, GameSession *ses);

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
WorldView game_world_view(const GameConfig *cfg, const GameServices *svc, const GameSession *ses);

/* The HUD, menus and map for this frame, queued into the renderer's HUD layer (overlay.c); only
 * the menu is written (the world's values in effect, shown beside the player's). */
void overlay_draw(const GameConfig *cfg, const GameServices *svc, GameSession *ses, const GameCourses *crs);
/* The height of t's glyphs as the overlay draws them now on r for a disp_w x disp_h display (HUD
 * canvas pixels; the canvas height in *canvas_h): for tests of the HUD size. The HUD layer is
 * left empty. */
int overlay_text_probe(Renderer *r, int disp_w, int disp_h, const char *t, int *canvas_h);
/* Puts the game in a screen for a screenshot: a name of the --show table (show.h: play's screens,
 * the menu's pages, the game modes' shots; NULL: the HUD). False for an unknown name. */
bool game_show(GameConfig *cfg, GameServices *svc, GameSession *ses, Tour *t, const char *what);

/* What play works on this frame: the game's own parts, lent. */
PlayCtx game_play_ctx(GameConfig *cfg, GameServices *svc, GameSession *ses, GameCourses *crs);
/* What a course's step works on (PlayCtx.step_user), lent for one call of play. */
typedef struct GameCourseStep {
    GameCourses *crs;
    GameSession *ses;
    Sound *sound;
    const GameOptions *opt;
} GameCourseStep;
/* After each fixed step (PlayCtx.on_step, user a GameCourseStep): a course's rings, clock and
 * restarts. */
void game_course_step(void *user, const FlightState *before, bool flew);

/* ---------------------------------------------------------------- replays (replay_game.c) */
/* Carves the recorder and the ghost's buffer; with --replay loads the file and sets its world
 * parameters over the settings (before the world is built). False with one line in err. */
bool game_replay_boot(GameCourses *crs, MemBudget *mem, const char *replay, WorldParams *world, SkyError *err);
/* After boot: the replays folder; with --replay the pack check and the replay's start state. */
bool game_replay_ready(GameCourses *crs, GameSession *ses, GameConfig *cfg, const GameServices *svc, SkyError *err);
/* Before settings apply: a change of what the sim flies with ends the recording there. */
void game_replay_settings_changing(GameCourses *crs, const GameSession *ses, const GameConfig *cfg, unsigned changes);
void game_replay_settings_changed(GameCourses *crs, GameSession *ses, const GameServices *svc, const GameSettings *set);
/* After a frame of play: the ghost's steps, an ended recording kept. */
void game_replay_frame(GameConfig *cfg, GameServices *svc, GameSession *ses, GameCourses *crs, const PlayRequest *rq);
/* At the end of a run: the recording ended and kept (--record FILE: written there); with
 * --replay the verdict line. The run's exit status. */
int game_replay_finish(GameCourses *crs, const GameSession *ses, const GameOptions *o);
/* --headless --replay: every step unpaced, then the verdict. */
int game_replay_headless(GameConfig *cfg, GameServices *svc, GameSession *ses, GameCourses *crs);
/* The sim's state hash now (what a replay of this flight must end with): rec the recorder, whose
 * counts at its start are taken off unless a --replay file flies (replaying). */
uint64_t game_sim_hash(const GameSession *ses, const Replay *rec, bool replaying);
/* For courses: end the recording here (kept as a last flight; the next step starts a new one),
 * keep the recording so far as course_id's best run when faster (1 kept, 0 not, -1 failed: a
 * line logged), and start course_id's best run as the ghost (false with a line when none). */
bool game_replay_restart(GameCourses *crs, const GameSession *ses, const GameOptions *o);
int game_keep_best(GameCourses *crs, const GameSession *ses, const GameOptions *o, const char *course_id, double time_s,
                   const float *splits, uint32_t n_splits);
bool game_ghost_start(GameCourses *crs, const char *course_id);

/* The boot's timeline after a frame: the first sim step and the first frame shown are stamped
 * once (frame_shown: this frame was swapped to the screen), and the line bench boot reads is
 * logged when the run's first frame (headless: its first step) is done. */
void game_boot_clock_frame(GameServices *svc, const Play *p, bool frame_shown);
/* ---------------------------------------------------------------- Quality auto (govern.c) */
/* The governor started for an interactive run when the quality is auto (elsewhere it stays off
 * and the chosen values are the ones in effect): its target the frame cap's period (uncapped:
 * the display's refresh), its start the saved settle point (none: the first start's probe). */
void game_gov_start(GameConfig *cfg, GameServices *svc);
/* After the player changed settings: the ladder rebuilt under the new values, on or off with the
 * quality, the target from the cap. */
void game_gov_settings_changed(const GameConfig *cfg, GameServices *svc);
/* The renderer's and the world's live values in effect: the chosen ones, lowered by the governor. */
void game_gov_render_live(const GameServices *svc, const GameSettings *s, RenderLiveParams *out);
void game_gov_world_live(const GameServices *svc, const GameSettings *s, WorldLiveParams *out);
/* One frame measured: a change applied to the renderer and the world at once; once settled, the
 * level kept as the next start's (the settings marked to be saved). */
void game_gov_frame(GameConfig *cfg, GameServices *svc, const GovFrame *f, double dt_s);

/* Courses laid ahead (course_cache.c, courses.h): carved and started after boot's other stages
 * (interactive runs; a short budget leaves it off); each frame a finished layout taken and, idle
 * in the pause menu or on the title, the next mode's course laid for the world now and the
 * aircraft's place (x, z: the tour is of the island of its cell); a mode's start takes its laid
 * course when it fits the world and that cell (true: copied to out). src: the archipelago the
 * thread's world holds too (NULL: none), so a tour over a far island is laid over that island. */
/* A thread of the game's own (the courses', the screenshots'): stop signals stay the main thread's. */
bool game_thread_start(pthread_t *t, void *(*fn)(void *), void *arg);
void course_cache_boot(CourseCache *c, MemBudget *mem, const World *world, const Island *isl, const IslandCodex *cx,
                       const WorldIslandSource *src);
void course_cache_tick(CourseCache *c, const World *world, double x, double z, bool idle);
bool course_cache_take(CourseCache *c, const GameMode *m, const World *world, Course *out);
/* A mode's start waits for its course: the thread lays it next, idle or not (false: the cache is
 * off or lays no course for m). Ready: 1 laid for this world (take it), 0 not yet, -1 the layout
 * failed there or the cache cannot lay it (lay it in the frame, which says why). */
bool course_cache_ask(CourseCache *c, const GameMode *m);
int course_cache_ready(CourseCache *c, const GameMode *m, const World *world);
void course_cache_shutdown(CourseCache *c);

/* A game mode from its start (the menu's or the title's choice): its course laid, the recording
 * started there, the best run beside. */
void game_start_mode(Game *g, const GameMode *m);
/* --soak in a window (soak_run.c): what a long session meets, on a 90 s cycle of run time: a
 * course, a screenshot, a world rebuild, the map, the pause menu left idle into the attract loop
 * and out again; by the game's own inputs where it has them (keys injected into the frame's
 * events), each logged. */
typedef struct GameSoak {
    int done;                   /* events of the current cycle done */
    uint32_t cycle;
    uint32_t courses, shots, rebuilds, maps, attracts;
    uint32_t saves, pads, audio;
    uint32_t stray_menus;       /* pause menus a stall (or the pad unplugged) opened, closed again */
    double last_close;
    int pad;                    /* the virtual controller plugged in (platform_virtual_pad), -1 none */
} GameSoak;
/* What the soak asks the game to do this frame besides the keys: a mode started, settings applied;
 * `event` names the frame's phase when it is one the phases do not tell (a settings save, a pad). */
typedef struct GameSoakAsk {
    const GameMode *mode;
    unsigned apply;             /* MENU_CHANGED_* */
    const char *event;
} GameSoakAsk;
GameSoakAsk game_soak_frame(Game *g, GameSoak *s, PlatformEvents *ev, double run_s);
void game_soak_log(const GameSoak *s);

/* ---------------------------------------------------------------- frame times (frames.c) */
/* What a frame was doing, for a long frame's cause: "screenshot", "rebuild" (the world's epoch
 * changed), "menu", "map", "attract", "title", "crash", "course" or "flight". */
const char *game_frame_phase(const GameSession *ses, const GameCourses *crs, bool rebuilt, bool shot);
#define FRAME_STATS_BIN_MS 0.5
#define FRAME_STATS_BINS 2000   /* up to 1 s; longer frames count in the last bin */
typedef struct FrameSample {
    double frame_ms;            /* from the frame's start to the next's */
    double work_ms;             /* the game's own work: the main thread's CPU time in the frame */
    double t_s;                 /* when, in the run */
    const char *phase;
} FrameSample;
#define FRAME_STATS_PHASES 16
typedef struct FrameStats {
    uint32_t hist[FRAME_STATS_BINS];
    uint64_t n;
    FrameSample longest, longest_work;
    FrameSample phase_worst[FRAME_STATS_PHASES];   /* the longest work of each phase seen */
    int n_phases;
} FrameStats;
void frame_stats_add(FrameStats *s, const FrameSample *f);
double frame_stats_pct(const FrameStats *s, double q);   /* the bin's middle, ms */
void frame_stats_log(const FrameStats *s);

int game_run(Game *g);
int game_screenshot(Game *g);
int game_bench(Game *g);
/* heap_calls: the binary's count of heap calls (main.c's wrapper), NULL where none is linked. */
int game_headless(Game *g, uint64_t (*heap_calls)(void));

/* flight.start = ground (park.c): the aircraft parked at the start of a strip (the one nearest
 * --start on its cell's island, or the base camp's); false when the setting is air or no place was
 * found. The check refuses --start-on ground over a cell without an island, before any window. */
bool game_park_at_base(const GameConfig *cfg, GameServices *svc, GameSession *ses);
bool game_start_ground_check(const GameConfig *cfg, World *w, SkyError *err);

#endif
