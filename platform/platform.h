/* skyisles platform layer: window, OpenGL ES 2.0 context, events and presentation.
 * One interface, one backend per file (platform_sdl.c: SDL2 on KMSDRM / Wayland / X11 / offscreen). */
#ifndef SKYISLES_PLATFORM_H
#define SKYISLES_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

#include "core/core.h"

typedef struct PlatformConfig {
    const char *title;
    int width, height;   /* window / offscreen size; 0 = native mode (console) or 1280x720 (desktop) */
    bool headless;       /* SDL offscreen driver: screenshots, benchmarks, tests */
    bool fullscreen;     /* desktop fullscreen; a console (KMSDRM) is always fullscreen */
    bool vsync;
    bool no_video;       /* events and game controllers only: no window, no GL (headless sim runs) */
    /* Game controller mappings, applied in this order before any controller opens (a later
     * one wins for the same controller): pad_db (the bundled community database), pad_user_db
     * (the user's file in the config dir), then SDL_GAMECONTROLLERCONFIG_FILE and
     * SDL_GAMECONTROLLERCONFIG from the environment. A missing file is skipped (logged). */
    const char *pad_db;
    const char *pad_user_db;
} PlatformConfig;

/* Keys the game maps to actions; the platform never decides what they do. */
typedef enum PlatformKey {
    PKEY_NONE = 0,
    PKEY_ESCAPE, PKEY_SPACE, PKEY_ENTER, PKEY_TAB, PKEY_BACKSPACE,
    PKEY_UP, PKEY_DOWN, PKEY_LEFT, PKEY_RIGHT,
    PKEY_LSHIFT, PKEY_RSHIFT, PKEY_LCTRL, PKEY_RCTRL, PKEY_PAGEUP, PKEY_PAGEDOWN,
    PKEY_0, PKEY_1, PKEY_2, PKEY_3, PKEY_4, PKEY_5, PKEY_6, PKEY_7, PKEY_8, PKEY_9,
    PKEY_A, PKEY_B, PKEY_C, PKEY_D, PKEY_E, PKEY_F, PKEY_G, PKEY_H, PKEY_I, PKEY_J, PKEY_K, PKEY_L, PKEY_M,
    PKEY_N, PKEY_O, PKEY_P, PKEY_Q, PKEY_R, PKEY_S, PKEY_T, PKEY_U, PKEY_V, PKEY_W, PKEY_X, PKEY_Y, PKEY_Z,
    PKEY_F1, PKEY_F2, PKEY_F3, PKEY_F4, PKEY_F5, PKEY_F6, PKEY_F7, PKEY_F8, PKEY_F9, PKEY_F10, PKEY_F11, PKEY_F12,
    PKEY_MINUS, PKEY_EQUALS, PKEY_COMMA, PKEY_PERIOD,
    PKEY_LALT, PKEY_RALT,
    PKEY_COUNT
} PlatformKey;

/* Short key name ("W", "Left", "Esc") for settings files and menus; "" for PKEY_NONE. */
const char *platform_key_name(PlatformKey k);
/* The key of a name (case-insensitive), PKEY_NONE when unknown. */
PlatformKey platform_key_from_name(const char *name);

/* Game controller buttons and axes, by position on an Xbox-style pad (SDL GameController's
 * layout: A is the bottom face button, whatever its label). */
typedef enum PlatformPadButton {
    PPAD_A = 0, PPAD_B, PPAD_X, PPAD_Y, PPAD_BACK, PPAD_GUIDE, PPAD_START, PPAD_LSTICK, PPAD_RSTICK,
    PPAD_LSHOULDER, PPAD_RSHOULDER, PPAD_DPAD_UP, PPAD_DPAD_DOWN, PPAD_DPAD_LEFT, PPAD_DPAD_RIGHT,
    PPAD_BUTTON_COUNT
} PlatformPadButton;

typedef enum PlatformPadAxis {
    PPAD_LEFTX = 0, PPAD_LEFTY, PPAD_RIGHTX, PPAD_RIGHTY, PPAD_TRIGGER_LEFT, PPAD_TRIGGER_RIGHT,
    PPAD_AXIS_COUNT
} PlatformPadAxis;

const char *platform_pad_button_name(PlatformPadButton b);   /* "a", "start", "dpup" ... */
PlatformPadButton platform_pad_button_from_name(const char *name);   /* PPAD_BUTTON_COUNT when unknown */
const char *platform_pad_axis_name(PlatformPadAxis a);       /* "leftx", "righttrigger" ... */
PlatformPadAxis platform_pad_axis_from_name(const char *name);       /* PPAD_AXIS_COUNT when unknown */

#define PLATFORM_MAX_PADS 4
#define PLATFORM_MAX_KEY_EVENTS 16
#define PLATFORM_MAX_PAD_EVENTS 8

typedef enum PlatformPadEventType {
    PPAD_EV_ADDED,      /* a controller was opened (at start for those already plugged in, or hot-plugged) */
    PPAD_EV_REMOVED,    /* an open controller went away */
    PPAD_EV_UNMAPPED,   /* a joystick with no game controller mapping: not used, the name says which */
} PlatformPadEventType;

typedef struct PlatformPadEvent {
    PlatformPadEventType type;
    int32_t id;                    /* stable while the controller stays plugged in */
    char name[64];
    char guid[33];
} PlatformPadEvent;

/* An open controller as of this poll. Button presses that began and ended between two polls
 * still show in `pressed`. Stick axes are -1..1 (down and right positive), triggers 0..1, raw:
 * dead zones and curves are the game's. */
typedef struct PlatformPad {
    bool connected;
    int32_t id;
    uint32_t order;                /* 1, 2, ...: the order controllers appeared in */
    char name[64];
    uint32_t held;                 /* bit PlatformPadButton */
    uint32_t pressed;              /* went down since the last poll */
    float axis[PPAD_AXIS_COUNT];
} PlatformPad;

typedef struct PlatformEvents {
    bool quit;                     /* window closed, SIGINT, SIGTERM, ... */
    bool resized;                  /* drawable size changed */
    uint32_t key_count;            /* keys pressed this poll (in order) */
    PlatformKey keys[PLATFORM_MAX_KEY_EVENTS];
    uint32_t key_alt;              /* bit i: an Alt key was down when keys[i] went down (a quick
                                    * Alt+Enter is pressed and let go within one poll) */
    bool held[PKEY_COUNT];         /* keys down now */
    uint32_t pad_event_count;
    PlatformPadEvent pad_events[PLATFORM_MAX_PAD_EVENTS];
    PlatformPad pads[PLATFORM_MAX_PADS];
    bool audio_lost;               /* the open audio output device went away (SDL_AUDIODEVICEREMOVED) */
    bool audio_added;              /* an audio output device appeared (SDL_AUDIODEVICEADDED) */
} PlatformEvents;

typedef struct Platform Platform;

/* Opens the first video driver that gives an OpenGL ES 2.0 context (none with no_video), and
 * the game controller subsystem with the configured mappings. On failure err holds one line
 * naming every driver tried, why it failed and what to do. */
Platform *platform_create(const PlatformConfig *cfg, SkyError *err);
void platform_destroy(Platform *p);

/* Drains pending events into ev (cleared first). */
void platform_poll(Platform *p, PlatformEvents *ev);
void platform_drawable_size(const Platform *p, int *w, int *h);
void platform_swap(Platform *p);
/* A virtual game controller (SDL's, mapped as a standard pad) for soak runs and tests: with
 * handle < 0 plugs one in and returns its handle, else unplugs that one and returns -1. */
int platform_virtual_pad(Platform *p, int handle);
/* Display settings that change at run time: the swap interval (false when the driver cannot
 * wait for the refresh) and, on a desktop, fullscreen or a window (a console is always
 * fullscreen: false, nothing changes). */
bool platform_set_vsync(Platform *p, bool on);
bool platform_set_fullscreen(Platform *p, bool on);
bool platform_is_console(const Platform *p);
/* The battery's charge in percent where the system reports one (-1: none or not known);
 * *discharging: running on it. Reads /sys/class/power_supply with no heap call: call it every
 * few seconds, not every frame. */
int platform_battery(bool *discharging);
const char *platform_driver_name(const Platform *p);   /* "KMSDRM", "x11", "wayland", "offscreen", "none" */
bool platform_is_headless(const Platform *p);
/* The refresh rate of the window's display in Hz (0: not known, offscreen). */
int platform_refresh_hz(const Platform *p);
/* A GL entry point by name (an extension's), NULL when the driver has none: for the renderer,
 * which takes it as a plain function pointer and never sees SDL. */
void *platform_gl_proc(const char *name);

/* Rumble on every open controller that has it: low and high motor 0..1 for ms milliseconds (a
 * new call replaces the running one). Pads without rumble: nothing happens, nothing is logged. */
void platform_rumble(Platform *p, float low, float high, uint32_t ms);

/* ---------------------------------------------------------------- audio output (audio_sdl.c)
 * One output device per process. The callback runs on SDL's audio thread: it must not block,
 * allocate or touch the game. Headless runs never call these unless asked. */
typedef void (*PlatformAudioFn)(void *user, int16_t *out, uint32_t frames);
typedef struct PlatformAudioSpec {
    const char *device;      /* NULL or "" or "default": the system's default output */
    uint32_t rate;           /* wanted rate (the device may give another) */
    uint32_t channels;       /* 1 or 2 wanted */
    uint32_t frames;         /* buffer frames wanted (about 20 ms: 1024 at 48 kHz) */
    uint32_t max_rate;       /* the device's rate must be <= this, else SDL converts */
    PlatformAudioFn fn;
    void *user;
} PlatformAudioSpec;
typedef struct PlatformAudioGot {
    uint32_t rate, channels, frames;
    char device[128];        /* the name opened ("default" for the default) */
    char driver[32];         /* SDL's audio driver ("alsa", "pulseaudio", "dummy") */
} PlatformAudioGot;
/* Opens (and starts) the device: false with one line in why (no driver, no device, busy). */
bool platform_audio_open(const PlatformAudioSpec *spec, PlatformAudioGot *got, char *why, size_t why_n);
void platform_audio_close(void);
/* SDL's output device names (the audio subsystem starts on the first call): their count, at
 * most max, each copied into names[i] (cap bytes). */
int platform_audio_devices(char (*names)[128], int max);
/* Internal to the platform files: whether an SDL device id is the open output. */
bool platform_audio_is_open_id(uint32_t id);

/* Stop requests (platform/signals.c). platform_signals_install() goes first in main, before any
 * SDL call: SIGTERM, SIGINT and SIGHUP then only set a flag that platform_poll reports as quit
 * and that loops without polling check, so every stop leaves through the normal shutdown. */
void platform_signals_install(void);
int platform_stop_signal(void);                 /* the first stop signal received, 0 for none */
const char *platform_signal_name(int sig);      /* "SIGTERM", "SIGINT", "SIGHUP" */

#endif
