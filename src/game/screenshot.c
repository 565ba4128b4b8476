/* skyisles screenshots: the request (F12, L1 + R1), the frame read back into the buffer carved at
 * boot, encoded and written atomically under the next number on the screenshots' thread, the
 * message when it is done. */
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

/* On the thread: the frame in buf encoded and saved under the next free number. */
static void save_job(GameShot *s) {
    uint64_t t0 = time_now_ns();
    int w = s->job_w, h = s->job_h;
    s->job_len = render_png_encode(s->buf, s->cap, w, h);
    struct stat st;
    for (int tries = 0; tries < 10000; tries++, s->next++) {
        snprintf(s->job_name, sizeof s->job_name, "skyisles-%04u.png", s->next);
        snprintf(s->job_path, sizeof s->job_path, "%s/%s", s->dir, s->job_name);
        if (stat(s->job_path, &st) != 0) break;   /* never over an earlier one */
    }
    SkyError err = {0};
    s->job_ok = s->job_len > 0 && save_file_atomic(s->dir, s->job_name, s->buf, s->job_len, "the screenshot", &err);
    snprintf(s->job_err, sizeof s->job_err, "%s", s->job_len == 0 ? "skyisles: screenshot: the frame could not be encoded" : err.msg);
    if (s->job_ok) s->next++;
    s->job_ms = (double)(time_now_ns() - t0) * 1e-6;
}

static void *shot_main(void *arg) {
    GameShot *s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (!s->quit && s->state != 1) pthread_cond_wait(&s->cv, &s->lock);
        if (s->state != 1) break;   /* quit, nothing left to save */
        pthread_mutex_unlock(&s->lock);
        save_job(s);
        pthread_mutex_lock(&s->lock);
        s->state = 2;
        pthread_cond_broadcast(&s->cv);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* Main thread: the thread's last save said (message, log line) once it is done. */
static void report(GameSession *ses) {
    GameShot *s = &ses->shot;
    if (!s->started) return;
    pthread_mutex_lock(&s->lock);
    int state = s->state;
    pthread_mutex_unlock(&s->lock);
    if (state != 2) return;
    if (!s->job_ok) {
        const char *why = s->job_len == 0                          ? "the frame could not be encoded"
                          : strstr(s->job_err, strerror(ENOSPC)) ? "the disk is full"
                          : strstr(s->job_err, strerror(EROFS))  ? "the disk is read-only"
                                                                 : "see the log";
        play_message(&ses->play, 5.0f, text_get(TEXT_MSG_SHOT_WHY), why);
        log_warn("%s", s->job_err);
        s->failed++;
    } else {
        s->saved++;
        snprintf(s->last, sizeof s->last, "%s", s->job_path);
        play_message(&ses->play, 3.0f, text_get(TEXT_MSG_SHOT_SAVED), s->job_name);
        log_info("skyisles: screenshot %dx%d saved to %s (%zu bytes; encoded and written in %.1f ms on its thread)",
                 s->job_w, s->job_h, s->job_path, s->job_len, s->job_ms);
    }
    pthread_mutex_lock(&s->lock);
    s->state = 0;
    pthread_mutex_unlock(&s->lock);
}

void game_shot_wait(GameSession *ses) {
    GameShot *s = &ses->shot;
    if (!s->started) return;
    pthread_mutex_lock(&s->lock);
    while (s->state == 1) pthread_cond_wait(&s->cv, &s->lock);
    pthread_mutex_unlock(&s->lock);
    report(ses);
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
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cv, NULL);
    s->started = game_thread_start(&s->thread, shot_main, s);
    if (!s->started) {
        pthread_cond_destroy(&s->cv);
        pthread_mutex_destroy(&s->lock);
        s->buf = NULL;
        log_warn("skyisles: the screenshots' thread could not start: screenshots are off");
        return false;
    }
    return true;
}

void shot_shutdown(GameShot *s) {
    if (!s->started) return;
    pthread_mutex_lock(&s->lock);
    s->quit = true;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->thread, NULL);   /* after the screenshot it was saving */
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->lock);
    s->started = false;
}

void game_shot_input(GameSession *ses, const InputState *in, const Renderer *render) {
    report(ses);
    if (!in->pressed[GA_SCREENSHOT] && !in->shot_combo) return;
    GameShot *s = &ses->shot;
    if (!s->buf || !render) play_message(&ses->play, 3.0f, "%s", text_get(TEXT_MSG_SHOTS_OFF));
    else if (!s->dir[0]) play_message(&ses->play, 4.0f, "%s", text_get(TEXT_MSG_SHOT_NO_DIR));
    else if (s->read_only) play_message(&ses->play, 4.0f, "%s", text_get(TEXT_MSG_SHOT_RO));
    else s->pending = true;
}

bool game_shot_hides_hud(const GameShot *s, const GameSettings *set) { return s->pending && !set->shot_hud; }

/* The drawn frame, before it is shown: read back (the GL call, on this thread) and handed to the
 * saving thread; while it still saves the last one, the request waits for the next frame. */
void game_shot_capture(GameSession *ses, int w, int h) {
    GameShot *s = &ses->shot;
    if (!s->pending) return;
    if (w > s->max_w || h > s->max_h || render_png_buffer_bytes(w, h) > s->cap) {
        s->pending = false;
        play_message(&ses->play, 4.0f, text_get(TEXT_MSG_SHOT_GREW), s->max_w, s->max_h);
        s->failed++;
        return;
    }
    pthread_mutex_lock(&s->lock);
    int state = s->state;
    pthread_mutex_unlock(&s->lock);
    if (state != 0) return;   /* the buffer is the thread's: the next frame */
    s->pending = false;
    if (!render_read_pixels(w, h, s->buf + render_png_input_offset(w, h))) {
        play_message(&ses->play, 5.0f, text_get(TEXT_MSG_SHOT_WHY), "the frame could not be read");
        log_warn("skyisles: screenshot: the frame could not be read back");
        s->failed++;
        return;
    }
    pthread_mutex_lock(&s->lock);
    s->job_w = w, s->job_h = h;
    s->state = 1;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->lock);
}
