/* skyisles ring courses: the HUD while a course of rings is flown (the arrow to the next ring, its
 * name and distance, the clock, the split against the best run) and its results screen; the modes
 * with a course of rings (mode_table.c) draw with these. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tour.h"

#define COL_TEXT 0xffffffffu
#define COL_DIM 0xb8c8e0ffu
#define COL_HI 0xffd060ffu
#define COL_GOOD 0x70f090ffu
#define COL_BAD 0xff7060ffu
#define COL_PANEL 0x0c1422ffu   /* opaque: the HUD under it never shows through */

static void clock_text(double s, char *buf, size_t n) {
    int m = (int)(s / 60.0);
    snprintf(buf, n, "%d:%05.2f", m, s - 60.0 * m);
}

/* The next ring's direction on screen: 0 up, + clockwise (the camera's roll left out). */
static float arrow_angle(const CameraState *cam, const CourseRing *g) {
    float cy = cosf(cam->yaw), sy = sinf(cam->yaw), cp = cosf(cam->pitch), sp = sinf(cam->pitch);
    double d[3] = {g->x - cam->x, g->y - cam->y, g->z - cam->z};
    double right = d[0] * cy + d[2] * sy;
    double up = -d[0] * sy * sp + d[1] * cp + d[2] * cy * sp;
    double fwd = d[0] * sy * cp + d[1] * sp - d[2] * cy * cp;
    if (fwd < 0.0 && fabs(right) < 1e-3) right = 1e-3;   /* straight behind: point to a side */
    return (float)atan2(right, fwd < 0.0 ? -fabs(up) - fabs(right) : up);
}

/* A ring's name as the player reads it: a place's (laid in the player's language), or a sky
 * course ring's kind in this language and its number (the course keeps English ids). */
static void ring_name(const Course *c, uint32_t i, char *buf, size_t n) {
    static const TextId k_kind[RING_KIND_COUNT] = {TEXT_COUNT, TEXT_RING_OPEN, TEXT_RING_OVERHANG, TEXT_RING_GAP,
                                                   TEXT_RING_CLOUD, TEXT_RING_TUNNEL};
    const CourseRing *r = &c->rings[i];
    if (r->kind == RING_PLACE || (unsigned)r->kind >= RING_KIND_COUNT) snprintf(buf, n, "%s", r->name);
    else snprintf(buf, n, "%s %u", text_get(k_kind[r->kind]), i + 1u);
}

/* Cuts a name (at a character) until it fits room pixels. */
static void cut_name(Renderer *r, char *nm, int room, int s) {
    size_t len = strlen(nm);
    while (len > 0 && render_hud_text_width(r, nm, s) > room) {
        do len--;
        while (len > 0 && ((unsigned char)nm[len] & 0xc0) == 0x80);
        nm[len] = 0;
    }
}

void course_hud_draw(const Tour *t, const ModeDraw *d) {
    Renderer *r = d->r;
    int w = d->w, s = d->s;
    const FlightState *f = d->f;
    const CourseRun *run = &t->run;
    const CourseRing *g = &t->course->rings[run->next];
    char line[96], clock[32];
    int lh = (int)lroundf((float)(RENDER_HUD_LINE_H * s) * render_hud_zoom(r)), y = 4 * s + 6 * lh;   /* as the HUD's lines */
    double dx = g->x - f->x, dy = g->y - f->y, dz = g->z - f->z;
    render_hud_arrow(r, w / 2, 4 * s + 8 * s, 7 * s, arrow_angle(d->cam, g), COL_HI);
    char name[COURSE_NAME_MAX];
    ring_name(t->course, run->next, name, sizeof name);
    snprintf(line, sizeof line, "%u/%u %s  %.0f m", run->next + 1u, t->course->n_rings, name,
             sqrt(dx * dx + dy * dy + dz * dz));
    /* Under the flight data (five lines at most, top left), the line above the clock: centred
     * under the arrow it met that data on a narrow screen. */
    render_hud_text(r, 4 * s, y - lh, s, COL_TEXT, line);
    clock_text(run->clock_s, clock, sizeof clock);
    render_hud_text(r, 4 * s, y, s, COL_HI, clock);
    if (d->has_delta) {
        snprintf(line, sizeof line, "%+.2f", d->delta);
        render_hud_text(r, 4 * s + render_hud_text_width(r, clock, s) + 6 * s, y, s, d->delta <= 0.0 ? COL_GOOD : COL_BAD, line);
    }
}

/* Breaks text into lines of at most room pixels (at spaces, or between Japanese characters):
 * the number of lines, at most max. */
static int wrap(Renderer *r, int s, const char *text, int room, char (*lines)[96], int max) {
    int n = 0;
    while (*text && n < max) {
        size_t len = render_hud_text_break(r, text, s, room);
        snprintf(lines[n++], sizeof lines[0], "%.*s", (int)len, text);
        text += len;
        while (*text == ' ') text++;
    }
    return n;
}

/* The results: each place (ring) with its split and the best's, the total and the best. */
void course_results_draw(const Tour *t, const ModeDraw *d) {
    Renderer *r = d->r;
    int w = d->w, h = d->h, s = d->s;
    const Course *c = t->course;
    const TourBest *b = t->best_of_course >= 0 ? &t->best[t->best_of_course] : NULL;
    int lh = (int)lroundf((float)(RENDER_HUD_LINE_H * s) * render_hud_zoom(r)), pad = 4 * s;   /* at the HUD size */
    render_hud_box(r, 0, 0, w, h, COL_PANEL);
    char line[160], a[32], bb[32];
    snprintf(line, sizeof line, text_get(TEXT_COURSE_COMPLETE), text_tr(t->mode->name));
    render_hud_text(r, pad, pad, s, COL_HI, line);
    /* The footer first: the total (wrapped where a narrow screen cannot hold it) and the hint. */
    char total[160], foot[3][96];
    clock_text(t->run.clock_s, a, sizeof a);
    clock_text(b ? b->total : t->run.clock_s, bb, sizeof bb);
    snprintf(total, sizeof total, text_get(TEXT_COURSE_TOTAL), a, bb, t->new_best ? text_get(TEXT_COURSE_NEW_BEST) : "",
             t->run.crashes);
    int nfoot = wrap(r, s, total, w - 2 * pad, foot, 3);
    for (int i = 0; i < nfoot; i++)
        render_hud_text(r, pad, h - (nfoot + 1 - i) * lh - pad, s, t->new_best ? COL_GOOD : COL_TEXT, foot[i]);
    int rows = (h - 2 * pad) / lh - 3 - nfoot, cols = (int)c->n_rings > rows ? 2 : 1;
    if (rows < 1) rows = 1;
    int colw = (w - 2 * pad) / cols;
    for (uint32_t i = 0; i < c->n_rings && (int)i < rows * cols; i++) {
        int x = pad + (int)(i / (uint32_t)rows) * colw, y = pad + (2 + (int)(i % (uint32_t)rows)) * lh;
        double prev = i ? t->run.split_s[i - 1] : 0.0;
        snprintf(a, sizeof a, "%.1f", t->run.split_s[i] - prev);
        char nm[COURSE_NAME_MAX];
        ring_name(c, i, nm, sizeof nm);
        cut_name(r, nm, colw - pad - 2 * render_hud_text_width(r, "0000.0", s), s);
        render_hud_text(r, x, y, s, COL_TEXT, nm);
        int vx = x + colw - pad - render_hud_text_width(r, a, s);
        render_hud_text(r, vx, y, s, COL_TEXT, a);
        if (b && i < b->n) {
            snprintf(bb, sizeof bb, "%.1f", (double)b->split[i] - (i ? (double)b->split[i - 1] : 0.0));
            render_hud_text(r, vx - render_hud_text_width(r, "0000.0", s), y, s, COL_DIM, bb);
        }
    }
    const char *hint = text_get(TEXT_COURSE_RESULTS_HINT);
    if (render_hud_text_width(r, hint, s) > w - 2 * pad) hint = text_get(TEXT_COURSE_RESULTS_HINT_SHORT);
    if (!t->attract) render_hud_text(r, pad, h - lh - pad, s, COL_DIM, hint);
}
