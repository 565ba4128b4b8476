/* skyisles tour: Free flight, the Island tour and a Sky course in the game. The pause menu asks
 * for a mode (a request the game takes at its next frame); a course is laid into memory carved
 * at boot, flown with the clock running from the start to the last ring (through crashes, which
 * restart at the last ring passed), and its results and best times shown; the best run of each
 * course (by its id: seed, kind, parameters) is kept in a small file beside the settings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "savefile.h"
#include "settings.h"
#include "tour.h"
#include "menu.h"

#define COL_TEXT 0xffffffffu
#define COL_DIM 0xb8c8e0ffu
#define COL_HI 0xffd060ffu
#define COL_GOOD 0x70f090ffu
#define COL_BAD 0xff7060ffu
#define COL_PANEL 0x0c1422ffu   /* opaque: the HUD under it never shows through */

static int g_request = -1;

static unsigned ask_free(GameSettings *s) { (void)s; g_request = TOUR_FREE; return 0; }
static unsigned ask_island(GameSettings *s) { (void)s; g_request = TOUR_ISLAND; return 0; }
static unsigned ask_sky(GameSettings *s) { (void)s; g_request = TOUR_SKY; return 0; }

void tour_request(TourMode mode) { g_request = (int)mode; }

bool tour_take_request(TourMode *mode) {
    if (g_request < 0) return false;
    *mode = (TourMode)g_request;
    g_request = -1;
    return true;
}

static const char *const MODE_NAMES[3] = {"Free flight", "Island tour", "Sky course"};

void tour_title_input(Tour *t, const InputState *in) {
    if (in->pressed[GA_MENU_UP] || in->pressed[GA_MENU_LEFT]) t->title_choice = (t->title_choice + 2) % 3;
    if (in->pressed[GA_MENU_DOWN] || in->pressed[GA_MENU_RIGHT]) t->title_choice = (t->title_choice + 1) % 3;
    if ((in->pressed[GA_PAUSE] || in->pressed[GA_MENU_OK]) && t->title_choice != TOUR_FREE) g_request = t->title_choice;
}

/* The three modes on one line (the chosen one marked), so the title's text stays off the
 * aircraft; a screen too narrow for the line shows the chosen mode alone between arrows. */
void tour_title_draw(const Tour *t, Renderer *r, int w, int y, int s) {
    char item[3][48];
    int width[3], total = 0, gap = render_hud_text_width(r, "   ", s);
    for (int i = 0; i < 3; i++) {
        snprintf(item[i], sizeof item[i], i == t->title_choice ? "> %s <" : "%s", MODE_NAMES[i]);
        width[i] = render_hud_text_width(r, item[i], s);
        total += width[i] + (i ? gap : 0);
    }
    if (total > w - 2 * gap) {
        char one[64];
        snprintf(one, sizeof one, "< %s >", MODE_NAMES[t->title_choice]);
        render_hud_text(r, (w - render_hud_text_width(r, one, s)) / 2, y, s, COL_HI, one);
        return;
    }
    int x = (w - total) / 2;
    for (int i = 0; i < 3; i++) {
        render_hud_text(r, x, y, s, i == t->title_choice ? COL_HI : COL_DIM, item[i]);
        x += width[i] + gap;
    }
}

static void register_menu(void) {
    static bool done;
    if (done) return;
    done = true;
    static const MenuActionDesc actions[] = {
        {"pause", MODE_NAMES[TOUR_FREE], NULL, 0, ask_free, "fly anywhere, no rings, no clock"},
        {"pause", MODE_NAMES[TOUR_ISLAND], NULL, 0, ask_island, "a ring over every place of the home island, against the clock"},
        {"pause", MODE_NAMES[TOUR_SKY], NULL, 0, ask_sky, "rings through the floating islands of this seed, against the clock"},
    };
    for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++)
        if (!menu_action_register(&actions[i])) log_warn("skyisles: the menu is full: '%s' left out", actions[i].label);
}

/* ---------------------------------------------------------------- best times */
/* One line per course: "ID TOTAL SPLIT..." (seconds). A damaged file is named in one line and
 * ignored; the next best run writes a new one. */
static bool parse_best_line(char *line, TourBest *b) {
    char *save = NULL, *tok = strtok_r(line, " \t\r\n", &save);
    if (!tok || strlen(tok) >= sizeof b->id) return false;
    memset(b, 0, sizeof *b);
    strcpy(b->id, tok);
    tok = strtok_r(NULL, " \t\r\n", &save);
    char *end = NULL;
    b->total = tok ? strtod(tok, &end) : -1.0;
    if (!tok || *end || !(b->total > 0.0)) return false;
    while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
        double v = strtod(tok, &end);
        if (*end || !(v >= 0.0) || b->n >= COURSE_MAX_RINGS) return false;
        b->split[b->n++] = (float)v;
    }
    return b->n > 0;
}

static void load_best(Tour *t) {
    t->n_best = 0;
    if (!t->dir[0]) return;
    char path[600];
    snprintf(path, sizeof path, "%s/%s", t->dir, TOUR_BEST_FILE);
    FILE *fp = fopen(path, "r");
    if (!fp) return;   /* none yet */
    static char line[COURSE_MAX_RINGS * 12 + 128];
    uint32_t no = 0;
    while (fgets(line, sizeof line, fp)) {
        no++;
        if (line[0] == '#' || line[0] == '\n') continue;
        if (t->n_best >= TOUR_BEST_MAX || !strchr(line, '\n') || !parse_best_line(line, &t->best[t->n_best])) {
            log_warn("skyisles: %s line %u is damaged: the best times are ignored (the next best run writes them anew)",
                     path, no);
            t->n_best = 0;
            break;
        }
        t->n_best++;
    }
    fclose(fp);
}

static void save_best(const Tour *t) {
    if (!t->dir[0]) return;
    static char text[TOUR_BEST_MAX * (COURSE_MAX_RINGS * 12 + 80)];
    size_t len = (size_t)snprintf(text, sizeof text, "# skyisles best times: course id, total seconds, the clock at each ring\n");
    for (uint32_t i = 0; i < t->n_best && len < sizeof text; i++) {
        const TourBest *b = &t->best[i];
        len += (size_t)snprintf(text + len, sizeof text - len, "%s %.3f", b->id, b->total);
        for (uint32_t k = 0; k < b->n && len < sizeof text; k++)
            len += (size_t)snprintf(text + len, sizeof text - len, " %.3f", (double)b->split[k]);
        if (len < sizeof text) text[len++] = '\n';
    }
    SkyError err = {0};
    if (len >= sizeof text || !save_file_atomic(t->dir, TOUR_BEST_FILE, text, len, "best times", &err))
        log_warn("%s", err.msg[0] ? err.msg : "skyisles: the best times are too long to save");
}

static int find_best(const Tour *t, const char *id) {
    for (uint32_t i = 0; i < t->n_best; i++)
        if (!strcmp(t->best[i].id, id)) return (int)i;
    return -1;
}

/* A finished run: kept when it is the first or faster than the best. */
static void record_run(Tour *t) {
    if (t->attract) return;   /* the attract mode's run is not the player's */
    int i = t->best_of_course;
    t->new_best = i < 0 || t->run.clock_s < t->best[i].total;
    if (!t->new_best) return;
    if (i < 0) {
        /* Full: the oldest entry makes room (the file keeps the latest TOUR_BEST_MAX courses). */
        if (t->n_best == TOUR_BEST_MAX) memmove(&t->best[0], &t->best[1], (TOUR_BEST_MAX - 1) * sizeof t->best[0]), t->n_best--;
        i = (int)t->n_best++;
    }
    TourBest *b = &t->best[i];
    snprintf(b->id, sizeof b->id, "%s", t->course->id);
    b->n = t->course->n_rings;
    b->total = t->run.clock_s;
    for (uint32_t k = 0; k < b->n; k++) b->split[k] = (float)t->run.split_s[k];
    t->best_of_course = i;
    save_best(t);
}

/* ---------------------------------------------------------------- the run */
bool tour_boot(Tour *t, MemBudget *mem, const char *dir, SkyError *err) {
    memset(t, 0, sizeof *t);
    t->best_of_course = -1;
    size_t bytes = course_work_bytes() + sizeof(Course) + TOUR_BEST_MAX * sizeof(TourBest) + 256;
    if (!mem_arena_init(&t->arena, mem, bytes) || !(t->work = course_work_init(&t->arena)) ||
        !(t->course = mem_arena_alloc(&t->arena, sizeof *t->course, 64)) ||
        !(t->best = mem_arena_alloc(&t->arena, TOUR_BEST_MAX * sizeof(TourBest), 64))) {
        sky_error_set(err, SKY_ERR_INPUT, "skyisles: the memory budget is too small for the courses (%zu KiB): raise --mem MB",
                      bytes >> 10);
        return false;
    }
    if (dir) snprintf(t->dir, sizeof t->dir, "%s", dir);
    load_best(t);
    register_menu();
    return true;
}

bool tour_start(Tour *t, TourMode mode, const World *w, const Island *isl, const IslandCodex *cx, FlightState *f,
                SkyError *err) {
    t->results = false;
    if (mode == TOUR_FREE) {
        t->mode = TOUR_FREE;
        return true;
    }
    bool ok = mode == TOUR_ISLAND ? course_lay_tour(t->course, w, isl, cx, "en", t->work, err)
                                  : course_lay_sky(t->course, w, COURSE_SKY_DEFAULT, t->work, err);
    if (!ok) {
        t->mode = TOUR_FREE;
        return false;
    }
    t->mode = mode;
    float speed = f->speed > 20.0f ? f->speed : 40.0f;
    FlightState keep = *f;
    course_run_start(&t->run, t->course, f, speed);
    f->throttle = keep.throttle;
    f->time_s = keep.time_s;
    t->best_of_course = find_best(t, t->course->id);
    course_pilot_reset(&t->pilot, &t->run);
    char kinds[160];
    course_kinds_text(t->course, kinds, sizeof kinds);
    log_info("skyisles: course %s: %u rings (%s)", t->course->id, t->course->n_rings, kinds);
    return true;
}

uint32_t tour_frame(Tour *t, FlightState *f, double x0, double y0, double z0, bool moved, float dt) {
    if (t->mode == TOUR_FREE || t->run.finished) return 0;
    uint32_t ev = course_run_step(&t->run, f, x0, y0, z0, false, moved ? dt : 0.0f);
    if (!moved) t->run.clock_s += (double)dt;   /* a crash pause: no motion, the clock runs on */
    if (ev & COURSE_EVENT_FINISH) {
        t->results = true;
        record_run(t);
        if (!t->attract)
            log_info("skyisles: course %s done in %.2f s (%u crashes)%s", t->course->id, t->run.clock_s, t->run.crashes,
                 t->new_best ? ", a new best" : "");
    }
    return ev;
}

void tour_restart(Tour *t, FlightState *f) {
    if (t->mode == TOUR_FREE || t->run.finished) return;
    t->run.crashes++;
    course_run_restart(&t->run, f);
    course_pilot_reset(&t->pilot, &t->run);
}

void tour_pilot_input(Tour *t, const FlightState *f, const FlightModel *m, const World *w, FlightInput *out) {
    memset(out, 0, sizeof *out);
    if (t->mode == TOUR_FREE || t->run.finished) return;
    course_pilot_input(&t->pilot, &t->run, f, m, w, out);
}

void tour_attract_begin(Tour *t, Course *c, TourSaved *save) {
    *save = (TourSaved){.mode = t->mode, .course = t->course, .run = t->run, .pilot = t->pilot,
                        .results = t->results, .new_best = t->new_best, .best_of_course = t->best_of_course};
    t->course = c;
    t->mode = c->kind == COURSE_SKY ? TOUR_SKY : TOUR_ISLAND;
    t->attract = true;
    tour_attract_restart(t);
}

void tour_attract_restart(Tour *t) {
    /* The run as tour_start begins it; the aircraft is the replay's (its recorded start). */
    FlightState scratch;
    course_run_start(&t->run, t->course, &scratch, COURSE_PILOT_SPEED);
    course_pilot_reset(&t->pilot, &t->run);
    t->results = false;
    t->new_best = false;
    t->best_of_course = -1;
}

void tour_attract_end(Tour *t, const TourSaved *save) {
    t->mode = save->mode;
    t->course = save->course;
    t->run = save->run;
    t->pilot = save->pilot;
    t->results = save->results;
    t->new_best = save->new_best;
    t->best_of_course = save->best_of_course;
    t->attract = false;
}

bool tour_fly_pilot(Tour *t, FlightState *f, const FlightModel *m, const World *w, double limit_s) {
    if (t->mode == TOUR_FREE) return false;
    CoursePilot p;
    course_pilot_reset(&p, &t->run);
    for (uint32_t i = 0; i < (uint32_t)(limit_s * 60.0) && !t->run.finished; i++)
        if (course_pilot_fly_step(&p, &t->run, f, m, w, 1.0f / 60.0f) & COURSE_EVENT_FINISH) {
            t->results = true;
            record_run(t);
        }
    return t->run.finished;
}

uint32_t tour_render_rings(const Tour *t, RenderRing *out, uint32_t cap) {
    if (t->mode == TOUR_FREE) return 0;
    uint32_t n = t->course->n_rings < cap ? t->course->n_rings : cap;
    for (uint32_t i = 0; i < n; i++) {
        const CourseRing *g = &t->course->rings[i];
        out[i] = (RenderRing){g->x, g->y, g->z, g->nx, g->ny, g->nz, g->radius};
    }
    return n;
}

/* ---------------------------------------------------------------- drawing */
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

bool tour_split_delta(const Tour *t, double *delta) {
    const CourseRun *run = &t->run;
    const TourBest *b = t->best_of_course >= 0 ? &t->best[t->best_of_course] : NULL;
    if (t->mode == TOUR_FREE || t->results || !b || run->next == 0 || run->next > b->n) return false;
    *delta = run->split_s[run->next - 1u] - (double)b->split[run->next - 1u];
    return true;
}

static void draw_flying(const Tour *t, Renderer *r, int w, int s, const FlightState *f, const CameraState *cam) {
    const CourseRun *run = &t->run;
    const CourseRing *g = &t->course->rings[run->next];
    char line[96], clock[32];
    int lh = RENDER_HUD_LINE_H * s, y = 4 * s + 6 * lh;
    double dx = g->x - f->x, dy = g->y - f->y, dz = g->z - f->z;
    render_hud_arrow(r, w / 2, 4 * s + 8 * s, 7 * s, arrow_angle(cam, g), COL_HI);
    snprintf(line, sizeof line, "%u/%u %s  %.0f m", run->next + 1u, t->course->n_rings, g->name,
             sqrt(dx * dx + dy * dy + dz * dz));
    render_hud_text(r, (w - render_hud_text_width(r, line, s)) / 2, 4 * s + 17 * s, s, COL_TEXT, line);
    clock_text(run->clock_s, clock, sizeof clock);
    render_hud_text(r, 4 * s, y, s, COL_HI, clock);
    double delta;
    if (tour_split_delta(t, &delta)) {
        snprintf(line, sizeof line, "%+.2f", delta);
        render_hud_text(r, 4 * s + render_hud_text_width(r, clock, s) + 6 * s, y, s, delta <= 0.0 ? COL_GOOD : COL_BAD, line);
    }
}

/* The results: each place (ring) with its split and the best's, the total and the best. */
static void draw_results(const Tour *t, Renderer *r, int w, int h, int s) {
    const Course *c = t->course;
    const TourBest *b = t->best_of_course >= 0 ? &t->best[t->best_of_course] : NULL;
    int lh = RENDER_HUD_LINE_H * s, pad = 4 * s;
    render_hud_box(r, 0, 0, w, h, COL_PANEL);
    char line[160], a[32], bb[32];
    snprintf(line, sizeof line, "%s complete", c->kind == COURSE_TOUR ? "Island tour" : "Sky course");
    render_hud_text(r, pad, pad, s, COL_HI, line);
    int rows = (h - 2 * pad) / lh - 4, cols = (int)c->n_rings > rows ? 2 : 1;
    if (rows < 1) rows = 1;
    int colw = (w - 2 * pad) / cols;
    for (uint32_t i = 0; i < c->n_rings && (int)i < rows * cols; i++) {
        int x = pad + (int)(i / (uint32_t)rows) * colw, y = pad + (2 + (int)(i % (uint32_t)rows)) * lh;
        double prev = i ? t->run.split_s[i - 1] : 0.0;
        snprintf(a, sizeof a, "%.1f", t->run.split_s[i] - prev);
        char nm[24];
        snprintf(nm, sizeof nm, "%s", c->rings[i].name);
        render_hud_text(r, x, y, s, COL_TEXT, nm);
        int vx = x + colw - pad - render_hud_text_width(r, a, s);
        render_hud_text(r, vx, y, s, COL_TEXT, a);
        if (b && i < b->n) {
            snprintf(bb, sizeof bb, "%.1f", (double)b->split[i] - (i ? (double)b->split[i - 1] : 0.0));
            render_hud_text(r, vx - render_hud_text_width(r, "0000.0", s), y, s, COL_DIM, bb);
        }
    }
    clock_text(t->run.clock_s, a, sizeof a);
    clock_text(b ? b->total : t->run.clock_s, bb, sizeof bb);
    snprintf(line, sizeof line, "Total %s   Best %s%s   Crashes %u", a, bb, t->new_best ? "  NEW BEST" : "",
             t->run.crashes);
    render_hud_text(r, pad, h - 2 * lh - pad, s, t->new_best ? COL_GOOD : COL_TEXT, line);
    if (!t->attract) render_hud_text(r, pad, h - lh - pad, s, COL_DIM, "A/Enter: free flight   Start: menu");
}

void tour_draw(const Tour *t, Renderer *r, int w, int h, int s, const FlightState *f, const CameraState *cam) {
    if (t->mode == TOUR_FREE) return;
    if (t->results) draw_results(t, r, w, h, s);
    else if (!t->run.finished) draw_flying(t, r, w, s, f, cam);
}
