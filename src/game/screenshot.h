/* skyisles screenshots: F12 (or L1 + R1 on a pad) saves the next frame as a PNG at the screen's
 * resolution into screenshots/ in the config folder, numbered (skyisles-0001.png, ...), with a
 * message on screen. The pixels are read and encoded in one buffer carved from the budget at
 * boot (no heap call), written to a temporary file and renamed: a full or read-only disk gives a
 * message and leaves nothing half-written. */
#ifndef SKYISLES_GAME_SCREENSHOT_H
#define SKYISLES_GAME_SCREENSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

typedef struct GameShot {
    uint8_t *buf;               /* carved at boot */
    size_t cap;
    int max_w, max_h;           /* the largest screen it holds */
    char dir[560];              /* CONFIG/screenshots ("" when there is no config folder) */
    uint32_t next;              /* the next number to try */
    bool pending;               /* asked for: the next frame drawn is saved */
    bool read_only;             /* the config folder cannot be written */
    uint32_t saved, failed;
    char last[640];             /* the last file saved */
} GameShot;

/* Carves the buffer for a w x h screen (at least 1920x1080 when the budget has room) and finds
 * the next free number. False (one line logged, screenshots off) when the budget cannot hold it. */
bool shot_boot(GameShot *s, MemBudget *mem, const char *config_dir, bool read_only, int w, int h);

#endif
