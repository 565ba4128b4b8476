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

/* The line height the overlay uses (the player's HUD size included), so rows line up with it. */
static int line_h(const ModeDraw *d) { return (int)lroundf((float)(RENDER_HUD_LINE_H * d->s) * render_hud_zoom(d->r)); }

/* Cuts t (in place) until it fits `room` pixels, a "." marking the cut ("Clover." rather than
 * "Clover ."). */
static void fit(Renderer *r, int s, char *t, int room) {
    size_t len = strlen(t);
    char cut[160];
    if (render_hud_text_width(r, t, s) <= room || len + 1 > sizeof cut) return;
    for (size_t keep = len - 1; keep >= 1; keep--) {
        size_t k = keep;
        while (k > 1 && t[k - 1] == ' ') k--;
        memcpy(cut, t, k);
        memcpy(cut + k, ".", 2);
        if (render_hud_text_width(r, cut, s) <= room || keep == 1) {
            memcpy(t, cut, k + 2);
            return;
        }
    }
}

/* The arrow to the next ring, top centre; the ring's number, distance and name right-aligned under
 * the frame rate and the battery (rows 0 and 1 of the overlay's right column), clear of the flight
 * data on the left whatever the screen's width; the clock and the split under the flight data. */
void course_hud_draw(const Tour *t, const ModeDraw *d) {
    Renderer *r = d->r;
    int w = d->w, s = d->s, lh = line_h(d), pad = 4 * s;
    const FlightState *f = d->f;
    const CourseRun *run = &t->run;
    const CourseRing *g = &t->course->rings[run->next];
    char line[96], clock[32];
    double dx = g->x - f->x, dy = g->y - f->y, dz = g->z - f->z;
    render_hud_arrow(r, w / 2, pad + 8 * s, 7 * s, arrow_angle(d->cam, g), COL_HI);
    /* The flight data's widest line (overlay.c: the throttle's, BOOST beside it a space's width
     * on) and a gap: what the right column leaves alone. */
    int room = w - 2 * pad - render_hud_text_width(r, "THR 100% BOOST", s) - 6 * s;
    snprintf(line, sizeof line, "%u/%u  %.0f m", run->next + 1u, t->course->n_rings, sqrt(dx * dx + dy * dy + dz * dz));
    fit(r, s, line, room);
    render_hud_text(r, w - pad - render_hud_text_width(r, line, s), pad + 2 * lh, s, COL_TEXT, line);
    snprintf(line, sizeof line, "%s", g->name);
    fit(r, s, line, room);
    render_hud_text(r, w - pad - render_hud_text_width(r, line, s), pad + 3 * lh, s, COL_TEXT, line);
    clock_text(run->clock_s, clock, sizeof clock);
    int y = pad + 6 * lh;
    render_hud_text(r, pad, y, s, COL_HI, clock);
    if (d->has_delta) {
        snprintf(line, sizeof line, "%+.2f", d->delta);
        render_hud_text(r, pad + render_hud_text_width(r, clock, s) + 6 * s, y, s, d->delta <= 0.0 ? COL_GOOD : COL_BAD, line);
    }
}

/* One place of the results at x, y in a column colw wide: the name (cut to what is left), the best
 * run's split (dim) and this run's, right-aligned. */
static void result_row(const Tour *t, const TourBest *b, uint32_t i, Renderer *r, int s, int x, int y, int colw) {
    char a[32], bb[32], nm[48];
    double prev = i ? t->run.split_s[i - 1] : 0.0;
    snprintf(a, sizeof a, "%.1f", t->run.split_s[i] - prev);
    int gap = 6 * s, right = x + colw - 10 * s;   /* clear of the next column's names */
    int vx = right - render_hud_text_width(r, a, s);
    render_hud_text(r, vx, y, s, COL_TEXT, a);
    int name_end = right - render_hud_text_width(r, "000.0", s) - gap;
    if (b && i < b->n) {
        snprintf(bb, sizeof bb, "%.1f", (double)b->split[i] - (i ? (double)b->split[i - 1] : 0.0));
        int bx = name_end - render_hud_text_width(r, bb, s);
        render_hud_text(r, bx, y, s, COL_DIM, bb);
        name_end -= render_hud_text_width(r, "000.0", s) + gap;
    }
    snprintf(nm, sizeof nm, "%s", t->course->rings[i].name);
    fit(r, s, nm, name_end - x);
    if (render_hud_text_width(r, nm, s) <= name_end - x) render_hud_text(r, x, y, s, COL_TEXT, nm);
}

/* src appended to the string in dst (n bytes), cut where dst is full. */
static void append(char *dst, size_t n, const char *src) {
    size_t len = strlen(dst), k = strlen(src);
    if (k > n - 1 - len) k = n - 1 - len;
    memcpy(dst + len, src, k);
    dst[len + k] = 0;
}

/* The summary under the places: the total, the best and the crashes, as many to a line as the
 * width takes (one line on a TV, two or three on a handheld with the large HUD). Returns the
 * lines used; draws them only when y >= 0. */
static int summary(const Tour *t, const TourBest *b, Renderer *r, int s, int x, int y, int room, int lh) {
    char part[3][48], a[32], line[160] = "";
    clock_text(t->run.clock_s, a, sizeof a);
    snprintf(part[0], sizeof part[0], "Total %s", a);
    clock_text(b ? b->total : t->run.clock_s, a, sizeof a);
    snprintf(part[1], sizeof part[1], "Best %s%s", a, t->new_best ? "  NEW BEST" : "");
    snprintf(part[2], sizeof part[2], "Crashes %u", t->run.crashes);
    int lines = 0;
    for (int i = 0; i < 3; i++) {
        char next[sizeof line];
        memcpy(next, line, sizeof next);
        if (next[0]) append(next, sizeof next, "   ");
        append(next, sizeof next, part[i]);
        if (line[0] && render_hud_text_width(r, next, s) > room) {   /* this part starts a new line */
            if (y >= 0) render_hud_text(r, x, y + lines * lh, s, t->new_best ? COL_GOOD : COL_TEXT, line);
            lines++;
            next[0] = 0;
            append(next, sizeof next, part[i]);
        }
        memcpy(line, next, sizeof line);
    }
    if (y >= 0) render_hud_text(r, x, y + lines * lh, s, t->new_best ? COL_GOOD : COL_TEXT, line);
    return lines + 1;
}

/* The results: each place (ring) with its split and the best's, in as many columns as the screen
 * needs (up to three; where even they cannot hold every place, the last cell says how many more
 * there are), the summary, the way on. */
void course_results_draw(const Tour *t, const ModeDraw *d) {
    Renderer *r = d->r;
    int w = d->w, h = d->h, s = d->s, lh = line_h(d), pad = 4 * s;
    const Course *c = t->course;
    const TourBest *b = t->best_of_course >= 0 ? &t->best[t->best_of_course] : NULL;
    render_hud_box(r, 0, 0, w, h, COL_PANEL);
    char line[160];
    snprintf(line, sizeof line, "%s complete", t->mode->name);
    fit(r, s, line, w - 2 * pad);
    render_hud_text(r, pad, pad, s, COL_HI, line);
    int lines = summary(t, b, r, s, pad, -1, w - 2 * pad, lh);
    /* The title and a blank line above the places; the summary and the hint under them. */
    int rows = (h - 2 * pad) / lh - 3 - lines;
    if (rows < 1) rows = 1;
    int n = (int)c->n_rings, cols = (n + rows - 1) / rows;
    if (cols < 1) cols = 1;
    if (cols > 3) cols = 3;
    int balanced = (n + cols - 1) / cols;   /* the columns as even as they go */
    if (balanced < rows) rows = balanced;
    int colw = (w - 2 * pad) / cols, shown = n <= rows * cols ? n : rows * cols - 1;
    /* The best run's column only where it leaves a name room for a few letters. */
    int num = render_hud_text_width(r, "000.0", s) + 6 * s;
    const TourBest *bcol = colw - 10 * s - 2 * num >= render_hud_text_width(r, "Abcd.", s) ? b : NULL;
    for (int i = 0; i < shown; i++)
        result_row(t, bcol, (uint32_t)i, r, s, pad + (i / rows) * colw, pad + (2 + i % rows) * lh, colw);
    if (shown < n) {
        snprintf(line, sizeof line, "+%d more", n - shown);
        render_hud_text(r, pad + (shown / rows) * colw, pad + (2 + shown % rows) * lh, s, COL_DIM, line);
    }
    summary(t, b, r, s, pad, h - pad - (lines + 1) * lh, w - 2 * pad, lh);
    const char *hint = "A/Enter: free flight   Start: menu";
    if (render_hud_text_width(r, hint, s) > w - 2 * pad) hint = "A: fly   Start: menu";
    if (!t->attract) render_hud_text(r, pad, h - lh - pad, s, COL_DIM, hint);
}
