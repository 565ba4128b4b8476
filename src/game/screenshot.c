/* skyisles screenshots: the request (F12, L1 + R1), the frame read back and encoded in the
 * buffer carved at boot, the numbered file written atomically, the message. */
#include "screenshot.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "game.h"
#include "savefile.h"

#define SHOT_MIN_W 1920
#define SHOT_MIN_H 1080

static uint32_t highest_number(const char *dir) {
    uint32_t top = 0;
    DIR *d = opendir(dir);   /* at boot: opendir's own allocation is before the frame path */
    if (!d) return 0;
    for (struct dirent *e; (e = readdir(d));) {
        unsigned n;
        char tail[8];
        if (sscanf(e->d_name, "skyisles-%u.%4s", &n, tail) == 2 && !strcmp(tail, "png") && n > top) top = n;
    }
    closedir(d);
    return top;
}

bool shot_boot(GameShot *s, MemBudget *mem, const char *config_dir, bool read_only, int w, int h) {
    memset(s, 0, sizeof *s);
    s->read_only = read_only;
    if (config_dir && config_dir[0]) snprintf(s->dir, sizeof s->dir, "%s/screenshots", config_dir);
    s->next = highest_number(s->dir) + 1;
    int bw = w > SHOT_MIN_W ? w : SHOT_MIN_W, bh = h > SHOT_MIN_H ? h : SHOT_MIN_H;
    size_t need = render_png_buffer_bytes(bw, bh);
    if (need + (8u << 20) > mem_budget_free(mem)) {   /* the screen's own size, when a Full HD one does not fit */
        bw = w, bh = h;
        need = render_png_buffer_bytes(bw, bh);
    }
    if (need + (4u << 20) > mem_budget_free(mem)) {
        log_warn("skyisles: no room in the budget for screenshots of %dx%d (%.1f MiB): they are off (raise --mem)", w, h,
                 (double)need / 1048576.0);
        return false;
    }
    s->buf = mem_carve(mem, need, 64);
    if (!s->buf) return false;
    s->cap = need;
    s->max_w = bw;
    s->max_h = bh;
    return true;
}

void game_shot_input(GameSession *ses, const InputState *in, const Renderer *render) {
    if (!in->pressed[GA_SCREENSHOT] && !in->shot_combo) return;
    GameShot *s = &ses->shot;
    if (!s->buf || !render) play_message(&ses->play, 3.0f, "%s", text_get(TEXT_MSG_SHOTS_OFF));
    else if (!s->dir[0]) play_message(&ses->play, 4.0f, "%s", text_get(TEXT_MSG_SHOT_NO_DIR));
    else if (s->read_only) play_message(&ses->play, 4.0f, "%s", text_get(TEXT_MSG_SHOT_RO));
    else s->pending = true;
}

bool game_shot_hides_hud(const GameShot *s, const GameSettings *set) { return s->pending && !set->shot_hud; }

/* The drawn frame, before it is shown: read back, encoded, saved under the next free number. */
void game_shot_capture(GameSession *ses, int w, int h) {
    GameShot *s = &ses->shot;
    if (!s->pending) return;
    s->pending = false;
    if (w > s->max_w || h > s->max_h || render_png_buffer_bytes(w, h) > s->cap) {
        play_message(&ses->play, 4.0f, text_get(TEXT_MSG_SHOT_GREW), s->max_w,
                     s->max_h);
        s->failed++;
        return;
    }
    size_t len = 0;
    if (render_read_pixels(w, h, s->buf + render_png_input_offset(w, h))) len = render_png_encode(s->buf, s->cap, w, h);
    char name[32], path[640];
    struct stat st;
    for (int tries = 0; tries < 10000; tries++, s->next++) {
        snprintf(name, sizeof name, "skyisles-%04u.png", s->next);
        snprintf(path, sizeof path, "%s/%s", s->dir, name);
        if (stat(path, &st) != 0) break;   /* never over an earlier one */
    }
    SkyError err = {0};
    if (len == 0 || !save_file_atomic(s->dir, name, s->buf, len, "the screenshot", &err)) {
        const char *why = len == 0                          ? "the frame could not be read"
                          : strstr(err.msg, strerror(ENOSPC)) ? "the disk is full"
                          : strstr(err.msg, strerror(EROFS))  ? "the disk is read-only"
                                                              : "see the log";
        play_message(&ses->play, 5.0f, text_get(TEXT_MSG_SHOT_WHY), why);
        log_warn("%s", len == 0 ? "skyisles: screenshot: the frame could not be read back" : err.msg);
        s->failed++;
        return;
    }
    s->next++;
    s->saved++;
    snprintf(s->last, sizeof s->last, "%s", path);
    play_message(&ses->play, 3.0f, text_get(TEXT_MSG_SHOT_SAVED), name);
    log_info("skyisles: screenshot %dx%d saved to %s (%zu bytes)", w, h, path, len);
}
