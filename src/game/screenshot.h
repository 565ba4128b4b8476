/* skyisles screenshots: F12 (or L1 + R1 on a pad) saves the next frame as a PNG at the screen's
 * resolution into screenshots/ in the config folder, numbered (skyisles-0001.png, ...), with a
 * message on screen. The frame's pixels are read into one buffer carved from the budget at boot
 * (no heap call); the PNG encode and the write (a temporary file renamed: a full or read-only
 * disk gives a message and leaves nothing half-written) run on a thread of the screenshots' own,
 * off the frame (a 1280x720 encode takes tens of ms); the message and the log line come on the
 * frame after it is done. A request while the thread still saves the last one waits for it. */
#ifndef SKYISLES_GAME_SCREENSHOT_H
#define SKYISLES_GAME_SCREENSHOT_H

#include <pthread.h>
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
    /* the saving thread: `state` under `lock` (0 free, 1 saving the frame in buf, 2 done, to be
     * reported); the job's fields belong to the thread while saving */
    bool started;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cv;
    int state;
    bool quit;
    int job_w, job_h;
    size_t job_len;             /* the PNG's bytes (0: the encode failed) */
    bool job_ok;
    char job_name[32], job_path[640], job_err[320];
    double job_ms;              /* the encode and the write, on the thread */
} GameShot;

/* Carves the buffer for a w x h screen (at least 1920x1080 when the budget has room) and finds
 * the next free number. False (one line logged, screenshots off) when the budget cannot hold it. */
bool shot_boot(GameShot *s, MemBudget *mem, const char *config_dir, bool read_only, int w, int h);
/* The saving thread joined, after the screenshot it saves (one taken just before quitting is
 * written). */
void shot_shutdown(GameShot *s);

#endif
