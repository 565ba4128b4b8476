/* skyisles frame times: a fixed histogram of the run's frames (no heap) for its p50 and p99, the
 * longest frame and the longest of the game's own work, each with the phase it was in, so a
 * hitch names its cause. */
#include <stdio.h>

#include "game.h"

const char *game_frame_phase(const GameSession *ses, const GameCourses *crs, bool rebuilt, bool shot) {
    const Play *p = &ses->play;
    if (shot) return "screenshot";
    if (rebuilt) return "rebuild";
    if (p->overlay == OVERLAY_MENU) return "menu";
    if (p->overlay == OVERLAY_MAP) return "map";
    if (p->demo) return "attract";
    if (p->state == PLAY_START) return "title";
    if (p->state == PLAY_CRASH) return "crash";
    if (tour_active(&crs->tour)) return "course";
    return "flight";
}

void frame_stats_add(FrameStats *s, const FrameSample *f) {
    int bin = (int)(f->frame_ms / FRAME_STATS_BIN_MS);
    s->hist[bin < 0 ? 0 : (bin >= FRAME_STATS_BINS ? FRAME_STATS_BINS - 1 : bin)]++;
    s->n++;
    if (f->frame_ms > s->longest.frame_ms) s->longest = *f;
    if (f->work_ms > s->longest_work.work_ms) s->longest_work = *f;
    int i = 0;
    while (i < s->n_phases && s->phase_worst[i].phase != f->phase) i++;   /* the phases are literals */
    if (i == s->n_phases && i < FRAME_STATS_PHASES) s->phase_worst[s->n_phases++] = *f;
    else if (i < s->n_phases && f->work_ms > s->phase_worst[i].work_ms) s->phase_worst[i] = *f;
}

double frame_stats_pct(const FrameStats *s, double q) {
    uint64_t want = (uint64_t)(q * (double)s->n), seen = 0;
    for (int i = 0; i < FRAME_STATS_BINS; i++) {
        seen += s->hist[i];
        if (seen > want) return (i + 0.5) * FRAME_STATS_BIN_MS;
    }
    return FRAME_STATS_BINS * FRAME_STATS_BIN_MS;
}

void frame_stats_log(const FrameStats *s) {
    if (!s->n) return;
    log_info("skyisles: %llu frames: p50 %.1f ms, p99 %.1f ms; longest %.1f ms (%s, %.1f ms of work, at %.1f s); "
             "longest work %.1f ms (%s, at %.1f s)", (unsigned long long)s->n, frame_stats_pct(s, 0.50),
             frame_stats_pct(s, 0.99), s->longest.frame_ms, s->longest.phase, s->longest.work_ms, s->longest.t_s,
             s->longest_work.work_ms, s->longest_work.phase, s->longest_work.t_s);
    char line[512];
    size_t len = 0;
    line[0] = 0;
    for (int i = 0; i < s->n_phases && len < sizeof line; i++) {
        int w = snprintf(line + len, sizeof line - len, "%s%s %.1f ms", i ? ", " : "", s->phase_worst[i].phase,
                         s->phase_worst[i].work_ms);
        if (w < 0) break;
        len += (size_t)w;
    }
    log_info("skyisles: longest work by phase: %s", line);
}
