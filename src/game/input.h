/* skyisles game input: what the player wants (GameAction), read through one binding table from
 * the keyboard and the active game controller. Pure logic over PlatformEvents: no SDL here. */
#ifndef SKYISLES_GAME_INPUT_H
#define SKYISLES_GAME_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "platform.h"

typedef enum GameAction {
    /* Flight axes, -1..1: + pitch is nose up (stick pulled back), + roll banks right, + yaw turns right. */
    GA_PITCH = 0,
    GA_ROLL,
    GA_YAW,
    /* Analogue 0..1 (a trigger) or 0/1 (a key): throttle moves up or down while held. */
    GA_THROTTLE_UP,
    GA_THROTTLE_DOWN,
    GA_BOOST,           /* held: push toward the speed limit */
    GA_BRAKE,           /* held: the wheel brakes on the ground */
    GA_CAMERA,          /* chase / cockpit */
    GA_MAP,             /* island map */
    GA_PAUSE,           /* pause menu (Start, Esc) */
    GA_SELECT,          /* Back/Select: HUD on/off; with GA_PAUSE held together, quit */
    GA_SCREENSHOT,      /* a PNG of the screen (F12; on a pad L1 + R1 together: InputState.shot_combo) */
    GA_MENU_UP,
    GA_MENU_DOWN,
    GA_MENU_LEFT,
    GA_MENU_RIGHT,
    GA_MENU_OK,
    GA_MENU_BACK,
    GA_COUNT
} GameAction;

/* Is the action an axis (signed sum of its bindings) rather than a button? */
static inline bool game_action_is_axis(GameAction a) { return a <= GA_YAW; }
const char *game_action_name(GameAction a);          /* "pitch", "throttle_up", ... (settings keys) */
const char *game_action_label(GameAction a);         /* "Pitch", "Throttle up", ... (menus) */
GameAction game_action_from_name(const char *name);  /* GA_COUNT when unknown */

typedef enum BindKind {
    BIND_NONE = 0,
    BIND_KEY,           /* code: PlatformKey */
    BIND_PAD_BUTTON,    /* code: PlatformPadButton (by position; see InputSettings.nintendo) */
    BIND_PAD_AXIS,      /* code: PlatformPadAxis; sign picks the half of a stick that counts */
} BindKind;

typedef struct InputBind {
    uint8_t action;     /* GameAction */
    uint8_t kind;       /* BindKind */
    uint8_t code;
    int8_t sign;        /* +1 / -1: the direction this input pushes an axis action (or the stick half) */
} InputBind;

#define INPUT_MAX_BINDS 96

/* Stick shaping's defaults and the ranges input_apply_settings holds them to (the settings
 * table's rows use the same). */
#define INPUT_DEAD_ZONE_DEFAULT 0.15f
#define INPUT_DEAD_ZONE_MAX 0.5f
#define INPUT_CURVE_DEFAULT 1.6f
#define INPUT_CURVE_MIN 1.0f
#define INPUT_CURVE_MAX 3.0f
/* Pad buttons bound to pitch, roll or yaw (the d-pad on a stickless handheld) ramp up to full
 * deflection over this many seconds while held and centre at once when let go. */
#define INPUT_BUTTON_RAMP_DEFAULT 0.4f
#define INPUT_BUTTON_RAMP_MAX 2.0f

typedef struct InputSettings {
    float dead_zone;            /* stick radius that reads as centred, 0..0.5 */
    float curve;                /* response exponent past the dead zone, 1 (linear) .. 3 */
    float button_ramp;          /* seconds a pad button on a flight axis takes to full deflection, 0: at once */
    bool invert_pitch;          /* stick forward = nose up */
    bool nintendo;              /* confirm on the right face button (A/B and X/Y swap places) */
    uint32_t bind_count;
    InputBind binds[INPUT_MAX_BINDS];
} InputSettings;

void input_settings_default(InputSettings *s);
/* The default bindings of one action (keeps the others). */
void input_reset_action(InputSettings *s, GameAction a);
/* Replaces action a's bindings of `kind` with one binding (a rebind from the menu). */
void input_rebind(InputSettings *s, GameAction a, BindKind kind, uint8_t code, int8_t sign);
/* "Key W", "Pad a", "Pad lefty+" ... one binding as text (settings files, menus). */
void input_bind_text(const InputBind *b, char *buf, size_t n);
/* Parses input_bind_text's form for action a; false when it is not one. */
bool input_bind_parse(GameAction a, const char *text, InputBind *out);

/* What happened to controllers this frame, for the game's messages and pause rule. */
typedef enum InputPadChange {
    INPUT_PAD_NONE = 0,
    INPUT_PAD_FOUND,        /* a controller now drives the aircraft (first one, or a re-plug) */
    INPUT_PAD_LOST,         /* the driving controller was unplugged (no other took over) */
    INPUT_PAD_SWITCHED,     /* it was unplugged and another plugged-in one took over */
    INPUT_PAD_UNMAPPED,     /* a joystick without a mapping was plugged in (not used) */
} InputPadChange;

typedef struct InputState {
    float value[GA_COUNT];      /* axes -1..1, buttons 0..1 */
    bool held[GA_COUNT];        /* value >= 0.5 (axes: |value| >= 0.5) */
    bool pressed[GA_COUNT];     /* went down this frame (key/button press edges are never lost) */
    bool any_pressed;           /* any key or pad button went down (idle timers, demo mode) */
    bool quit_combo;            /* Back/Select + Start held together (handheld quit) */
    bool shot_combo;            /* L1 + R1 pressed together (a screenshot; clear of PortMaster's Select/Guide hotkeys) */
    InputPadChange pad_change;
    char pad_name[64];          /* the controller the change is about */
    int32_t active_pad;         /* id of the controller that drives, -1 none */
    bool pad_connected;         /* a controller drives now */
} InputState;

typedef struct Input {
    InputSettings set;
    InputState st;
    int32_t active_id;
    uint32_t prev_pad_held;
    bool prev_held[GA_COUNT];
    float ramp[GA_YAW + 1];     /* the flight axes' pad-button deflection so far, -1..1 */
} Input;

void input_init(Input *in, const InputSettings *s);
void input_apply_settings(Input *in, const InputSettings *s);
/* One frame of dt seconds: keyboard and the active controller through the bindings into in->st
 * (dt paces the pad buttons' ramp on the flight axes). */
void input_update_dt(Input *in, const PlatformEvents *ev, float dt);
/* input_update_dt with a 60 Hz frame. */
void input_update(Input *in, const PlatformEvents *ev);
/* Stick shaping: radial dead zone and response curve applied to a stick (x, y) in place. */
void input_shape_stick(float *x, float *y, float dead_zone, float curve);

#endif
