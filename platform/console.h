/* skyisles console preflight (platform-internal): before SDL's KMSDRM driver starts on a console,
 * the DRM card and the input devices are checked (one line naming the group to join when they
 * cannot be opened) and the display card is chosen by its stable /dev/dri/by-path name.
 * Plain POSIX, no SDL: tests run it against a fake /dev and /sys tree. */
#ifndef SKYISLES_PLATFORM_CONSOLE_H
#define SKYISLES_PLATFORM_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct PlatformConsole {
    int card_index;        /* the card SDL should use (N of /dev/dri/cardN); -1: none chosen */
    char card[96];         /* its path, "" when none */
    char how[160];         /* why that card: "by-path platform-gpu-card, HDMI-A-1 connected" */
    char fatal[320];       /* why KMSDRM cannot work here and what to do; "" when it may */
    char warn[320];        /* what will be missing (GPU render node, input devices) and the fix */
} PlatformConsole;

/* Looks at DEV/dri, DEV/dri/by-path, DEV/input and SYS/class/drm (dev "/dev", sys "/sys" on a
 * real system). The card: SDL_KMSDRM_DEVICE_INDEX when set (checked to exist), else the by-path
 * card with a connected connector (then any connector, then the first by name), else the same
 * rule over DEV/dri/card*. Opens the chosen card read-write and the input devices read-only,
 * as SDL will, and closes them again. */
void platform_console_check(PlatformConsole *c, const char *dev, const char *sys);

/* The advice for a device that failed to open with errno err: "join the video group (...)" for
 * a permission problem (the group that owns the device), else the error text. */
void platform_console_access_hint(const char *path, int err, char *out, size_t n);

/* The battery's charge in percent from SYS/class/power_supply (sys "/sys" on a real system): the
 * first supply whose type is Battery and whose capacity reads 0..100; -1 when none.
 * *discharging: its status is Discharging. Called in flight every few seconds, so no heap call:
 * the folder is listed with getdents64 into a buffer on the stack (opendir allocates). */
int platform_battery_read(const char *sys, bool *discharging);

#endif
