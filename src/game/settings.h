/* skyisles game settings: what a player chose (controls, bindings, display, flight, the world's
 * parameters, the last seed), described by the table in settings_table.h, kept in a YAML file in
 * the config folder, saved atomically. A damaged file never stops the game and loses nothing. */
#ifndef SKYISLES_GAME_SETTINGS_H
#define SKYISLES_GAME_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "input.h"
#include "render/render.h"
#include "settings_table.h"
#include "world/world.h"

#define SETTINGS_FILE "settings.yaml"
#define SETTINGS_PAD_FILE "gamecontrollerdb.txt"   /* the user's controller mappings, same folder */
#define SETTINGS_MAX_BYTES (256u << 10)

/* Quality: fixed presets for a class of hardware, or auto (the default): the high preset's values
 * as the ceiling, lowered while frames run late by the frame-time governor (governor.h), which
 * measures the device instead of guessing from its GPU's name. */
typedef enum GameQuality {
    GAME_QUALITY_LOW = 0, GAME_QUALITY_MEDIUM, GAME_QUALITY_HIGH, GAME_QUALITY_AUTO, GAME_QUALITY_COUNT
} GameQuality;
extern const char *const game_quality_names[GAME_QUALITY_COUNT];   /* "low", "medium", "high", "auto" */
const char *game_quality_name(GameQuality q);
/* "low"/"medium"/"high"/"auto" -> the quality; false for anything else. */
bool game_quality_parse(const char *s, GameQuality *out);

typedef enum GameCamera { GAME_CAMERA_CHASE = 0, GAME_CAMERA_COCKPIT } GameCamera;

typedef struct GameSettings {
    InputSettings input;
    GameQuality quality;
    bool quality_chosen;        /* false until a first start chose it (or the player did) */
    int auto_level;             /* where Quality auto settled last (governor steps); -1: not yet */
    int auto_skip;              /* the steps that bought nothing on this device then (gov_skip_mask) */
    int language;               /* Lang: the words the player reads (core's text tables) */
    bool language_chosen;       /* false until the player chose one: each start guesses from LANG */
    /* flight */
    float speed_limit;          /* m/s: the boost's top speed (one block = one metre) */
    bool collision;
    bool start_ground;          /* a new flight starts parked at the base camp (game.c), not in the air */
    int weather;                /* 0: changing; 1 + a WeatherKind: that kind everywhere (src/sim/weather.c) */
    bool hud;
    GameCamera camera;
    bool shot_hud;              /* screenshots show the HUD (screenshot.c) */
    /* the display's pacing and window (display.c) */
    int frame_cap;              /* index into the frame_cap row's names (30, 60, uncapped) */
    bool vsync, fullscreen;
    bool show_position;         /* the HUD's X, Y, Z lines (overlay.c) */
    /* sound (the Sound page; sound.c applies them each frame) */
    struct {
        float master, engine, wind, effects;   /* volumes 0..1 */
        bool mute;
        int device;             /* index into game_audio_device_names: 0 "default", then SDL's outputs */
        bool rumble;
        float rumble_strength;  /* 0..1 */
    } sound;
    /* the world's generation and live values as its parameter table lists them (the seed of the
     * world and home island last flown among them) */
    WorldParams world;
    /* the renderer's settings as its table lists them (the look, the HUD size); the boot plan
     * decides the create part */
    RenderSettings render;
    /* Storage for rows registered at run time by code that keeps no struct of its own here
     * (tests; a module's rows may point into its own fields instead). */
    _Alignas(8) unsigned char ext[128];
} GameSettings;

/* The Sound page's output devices: "default", then what sound.c found (SDL's outputs). */
#define GAME_AUDIO_DEVICES_MAX 17
int game_audio_device_names(const char *const **names);
/* Replaces the list after "default" (at most GAME_AUDIO_DEVICES_MAX - 1 names). */
void game_audio_devices_set(const char (*names)[128], int n);

/* Every row's default (the table), the world's own defaults, the default bindings. */
void settings_default(GameSettings *s);
/* Quality presets: display and world values for a class of hardware (low: VideoCore IV,
 * Mali-400, Pi Zero 2; medium: Pi 4, Mali-G31/G52; high: Pi 5, desktops; auto: high's values,
 * which the governor lowers where the frames need it). Marks the quality chosen. */
void game_quality_apply(GameSettings *s, GameQuality q);

/* Where settings live: `dir` when given (--config DIR), else $XDG_CONFIG_HOME/skyisles, else
 * $HOME/.config/skyisles. False when none can be named (no HOME). */
bool settings_dir(const char *dir, char *out, size_t n);

/* Reads DIR/settings.yaml over the defaults. A missing file is not an error (first start:
 * *found = false). A defect gives one line in `warning` (the file, the line, what; the first
 * defect only) and loses nothing else: a bad value keeps the rest; a file that does not parse
 * as YAML is read line by line, keeping every line that reads as `key: value` in its section.
 * *damaged (may be NULL) is true when the file exists and was not read cleanly: the first save
 * keeps it beside (settings_save_keeping). Never fails. */
void settings_load_file(GameSettings *s, const char *dir, bool *found, bool *damaged, char *warning, size_t warning_n);
void settings_load(GameSettings *s, const char *dir, bool *found, char *warning, size_t warning_n);
/* The same from text (fuzzing, tests); `name` is used in the warning. */
void settings_parse(GameSettings *s, const char *text, size_t len, const char *name, char *warning, size_t warning_n);
/* The events libyaml's parser reads from text before it passes the settings' nesting limit (32),
 * *line and *col where it passed it (0 when within it). */
size_t settings_depth_check(const char *text, size_t len, size_t *line, size_t *col);

/* Writes DIR/settings.yaml atomically: a temporary file beside it, flushed and synced, renamed
 * over the old one. On any failure (folder not writable, disk full) the old file is untouched,
 * the temporary one removed, and err holds one line. The folder is created if missing. */
bool settings_save(const GameSettings *s, const char *dir, SkyError *err);
/* settings_save, but first, when *damaged, the file there is kept as DIR/settings.yaml.damaged
 * (one log line says so) and *damaged cleared; when it cannot be kept, nothing is written. */
bool settings_save_keeping(const GameSettings *s, const char *dir, bool *damaged, SkyError *err);
#define SETTINGS_DAMAGED_FILE SETTINGS_FILE ".damaged"
/* The YAML text settings_save writes (tests); snprintf's return. */
size_t settings_format(const GameSettings *s, char *buf, size_t n);

#endif
