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
} PlatformConfig;

/* Keys the game maps to actions; the platform never decides what they do. */
typedef enum PlatformKey {
    PKEY_NONE = 0,
    PKEY_ESCAPE, PKEY_SPACE, PKEY_ENTER, PKEY_TAB,
    PKEY_UP, PKEY_DOWN, PKEY_LEFT, PKEY_RIGHT,
    PKEY_1, PKEY_2, PKEY_3, PKEY_4, PKEY_5, PKEY_6, PKEY_7, PKEY_8, PKEY_9,
    PKEY_F1, PKEY_F2, PKEY_F3, PKEY_F12,
    PKEY_COUNT
} PlatformKey;

#define PLATFORM_MAX_KEY_EVENTS 16

typedef struct PlatformEvents {
    bool quit;                     /* window closed, SIGINT, ... */
    bool resized;                  /* drawable size changed */
    uint32_t key_count;            /* keys pressed this poll (in order) */
    PlatformKey keys[PLATFORM_MAX_KEY_EVENTS];
    bool held[PKEY_COUNT];         /* keys down now */
} PlatformEvents;

typedef struct Platform Platform;

/* Opens the first video driver that gives an OpenGL ES 2.0 context. On failure err holds one
 * line naming every driver tried, why it failed and what to do. */
Platform *platform_create(const PlatformConfig *cfg, SkyError *err);
void platform_destroy(Platform *p);

/* Drains pending events into ev (cleared first). */
void platform_poll(Platform *p, PlatformEvents *ev);
void platform_drawable_size(const Platform *p, int *w, int *h);
void platform_swap(Platform *p);
const char *platform_driver_name(const Platform *p);   /* "KMSDRM", "x11", "wayland", "offscreen" */
bool platform_is_headless(const Platform *p);

#endif
