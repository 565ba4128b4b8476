/* skyisles tour: the game mode's course in the game. The pause menu or the title asks for a mode
 * (a row of the mode table) and the game starts it here: its course is laid into memory carved at
 * boot, flown with the clock running from the start to the last ring (through crashes, which
 * restart at the last ring passed), and its results and best times shown; the best run of each
 * course (by its id: seed, kind, parameters) is kept in a small file beside the settings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "savefile.h"
#include "tour.h"

#define COL_DIM 0xb8c8e0ffu
#define COL_HI 0xffd060ffu

/* The chosen mode a Start or OK on the title starts: one with a course (the title itself starts
 * free flight). */
const GameMode *tour_title_input(Tour *t, const InputState *in) {
    int n = (int)mode_count();
    if (in->pressed[GA_MENU_UP] || in->pressed[GA_MENU_LEFT]) t->title_choice = (t->title_choice + n - 1) % n;
    if (in->pressed[GA_MENU_DOWN] || in->pressed[GA_MENU_RIGHT]) t->title_choice = (t->title_choice + 1) % n;
    const GameMode *m = mode_at((size_t)t->title_choice);
    return (in->pressed[GA_PAUSE] || in->pressed[GA_MENU_OK]) && m && m->lay ? m : NULL;
}

/* The modes on one line (the chosen one marked), so the title's text stays off the aircraft; a
 * screen too narrow for the line shows the chosen mode alone between arrows. */
void tour_title_draw(const Tour *t, Renderer *r, int w, int y, int s) {
    char item[MODE_MAX][48];
    int n = (int)mode_count(), width[MODE_MAX], total = 0, gap = render_hud_text_width(r, "   ", s);
    for (int i = 0; i < n; i++) {
        snprintf(item[i], sizeof item[i], i == t->title_choice ? "> %s <" : "%s", text_tr(mode_at((size_t)i)->name));
        width[i] = render_hud_text_width(r, item[i], s);
        total += width[i] + (i ? gap : 0);
    }
    if (total > w - 2 * gap) {
        char one[64];
        snprintf(one, sizeof one, "< %s >", text_tr(mode_at((size_t)t->title_choice)->name));
        render_hud_text(r, (w - render_hud_text_width(r, one, s)) / 2, y, s, COL_HI, one);
        return;
    }
    int x = (w - total) / 2;
    for (int i = 0; i < n; i++) {
        render_hud_text(r, x, y, s, i == t->title_choice ? COL_HI : COL_DIM, item[i]);
        x += width[i] + gap;
    }
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
    /* The attract mode's run is not the player's; a mode may keep no best. */
    if (t->attract || !t->mode->keep_best) return;
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
    t->mode = mode_free();
    if (dir) snprintf(t->dir, sizeof t->dir, "%s", dir);
    load_best(t);
    mode_menu_register();
    return true;
}

bool tour_active(const Tour *t) { return t->mode && t->mode->lay && !t->hidden; }

void tour_end(Tour *t) {
    t->results = false;
    t->mode = mode_free();
}

void tour_hide(Tour *t, bool hidden) { t->hidden = hidden; }

bool tour_start(Tour *t, const GameMode *mode, const World *w, const CourseIsland *at, const IslandCodex *cx, FlightState *f,
                SkyError *err) {
    t->results = false;
    t->hidden = false;
    if (!mode) {   /* a role no row of the table takes (the bench's, the attract loop's) */
        sky_error_set(err, SKY_ERR_INPUT, "skyisles: no game mode for that: the mode table has no such row");
        t->mode = mode_free();
        return false;
    }
    if (!mode->lay) {
        t->mode = mode;
        return true;
    }
    if (!mode->lay(t->course, w, at, cx, t->work, err)) {
        t->mode = mode_free();
        return false;
    }
    return tour_start_laid(t, mode, f);
}

bool tour_start_laid(Tour *t, const GameMode *mode, FlightState *f) {
    t->results = false;
    t->hidden = false;
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
    if (!tour_active(t) || t->run.finished) return 0;
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
    if (!tour_active(t) || t->run.finished) return;
    t->run.crashes++;
    course_run_restart(&t->run, f);
    course_pilot_reset(&t->pilot, &t->run);
}

void tour_pilot_input(Tour *t, const FlightState *f, const FlightModel *m, const World *w, FlightInput *out) {
    memset(out, 0, sizeof *out);
    if (!tour_active(t) || t->run.finished) return;
    course_pilot_input(&t->pilot, &t->run, f, m, w, out);
}

void tour_attract_begin(Tour *t, Course *c, TourSaved *save) {
    *save = (TourSaved){.mode = t->mode, .course = t->course, .run = t->run, .pilot = t->pilot,
                        .results = t->results, .new_best = t->new_best, .best_of_course = t->best_of_course};
    t->course = c;
    t->mode = mode_for_course((CourseKind)c->kind);
    t->hidden = false;
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
    if (!tour_active(t)) return false;
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
    if (!tour_active(t)) return 0;
    uint32_t n = t->course->n_rings < cap ? t->course->n_rings : cap;
    for (uint32_t i = 0; i < n; i++) {
        const CourseRing *g = &t->course->rings[i];
        out[i] = (RenderRing){g->x, g->y, g->z, g->nx, g->ny, g->nz, g->radius};
    }
    return n;
}

/* ---------------------------------------------------------------- drawing */
bool tour_split_delta(const Tour *t, double *delta) {
    const CourseRun *run = &t->run;
    const TourBest *b = t->best_of_course >= 0 ? &t->best[t->best_of_course] : NULL;
    if (!tour_active(t) || t->results || !b || run->next == 0 || run->next > b->n) return false;
    *delta = run->split_s[run->next - 1u] - (double)b->split[run->next - 1u];
    return true;
}

void tour_draw(const Tour *t, Renderer *r, int w, int h, int s, const FlightState *f, const CameraState *cam) {
    if (!tour_active(t)) return;
    ModeDraw d = {.r = r, .w = w, .h = h, .s = s, .f = f, .cam = cam};
    d.has_delta = tour_split_delta(t, &d.delta);
    if (t->results) t->mode->results(t, &d);
    else if (!t->run.finished) t->mode->hud(t, &d);
}
