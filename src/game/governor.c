/* skyisles frame-time governor: the ladder below the player's values and the control loop that
 * walks it (governor.h). Decisions are made per window of frames, never per frame; every change
 * is followed by a hold, a step up needs room that lasts, and a step up that proves too much
 * (late again at once) doubles the wait before the next. */
#include "governor.h"

#include <stdio.h>
#include <string.h>

const char *const gov_knob_names[GOV_KNOB_COUNT] = {"lines", "clouds", "lod", "radius"};

double gov_frame_cost(const GovFrame *f) {
    double c = f->cpu_ms;
    if (f->gpu_ms > c) c = f->gpu_ms;
    /* A swap that waits for the display is no measure of work where a timer gives the GPU's time. */
    if ((!f->swap_waits || f->gpu_ms < 0.0) && f->swap_ms > c) c = f->swap_ms;
    return c;
}

static void add_step(Governor *g, GovKnob k, int value) {
    if (g->n_steps >= GOV_STEPS_MAX) return;
    GovStep *s = &g->steps[g->n_steps++];
    s->knob = k;
    s->value = value;
    s->no_gain = false;
    s->tried = false;
}

/* The ladder, cheapest loss first: PSX lines (full resolution first: where it is the cheaper
 * way, measured), cloud blending, far LOD bands, view radius. */
static void build_ladder(Governor *g, const GovLook *c) {
    static const int lines[] = {480, 360, 240};
    g->n_steps = 0;
    if (c->lines != 0) add_step(g, GOV_LINES, 0);
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        if (c->lines == 0 || lines[i] < c->lines) add_step(g, GOV_LINES, lines[i]);
    if (c->clouds) add_step(g, GOV_CLOUDS, 0);
    if (c->lod_dist[0] > 0.0f) {
        add_step(g, GOV_LOD, 75);
        add_step(g, GOV_LOD, 50);
    }
    int floor = c->view_radius < 6 ? c->view_radius : 6;
    for (int r = c->view_radius - 2; r > floor; r -= 2) add_step(g, GOV_RADIUS, r);
    if (c->view_radius > floor) add_step(g, GOV_RADIUS, floor);
}

static void reset_loop(Governor *g) {
    g->win_t = g->win_sum = 0.0;
    g->win_n = 0;
    g->room_s = 0.0;
    g->last_change_t = g->settled_t = g->t;
    g->last_up_t = -1e9;
    g->up_hold_s = g->probe ? GOV_UP_HOLD_S / 3.0 : GOV_UP_HOLD_S;
    g->pending_arrival = g->arrive_step = -1;
    g->confirming = false;
    g->skip_windows = g->busy_waits = g->late_windows = 0;
    g->win_busy = false;
    for (int i = 0; i <= GOV_STEPS_MAX; i++) g->cost_left[i] = g->cost_arrived[i] = 0.0;
}

void gov_init(Governor *g, const GovLook *chosen, double target_ms, int start_level, bool probe) {
    memset(g, 0, sizeof *g);
    g->on = true;
    g->probe = probe;
    g->target_ms = target_ms;
    build_ladder(g, chosen);
    g->level = start_level < 0 ? 0 : (start_level > g->n_steps ? g->n_steps : start_level);
    reset_loop(g);
}

void gov_restore(Governor *g, uint32_t skip) {
    for (int i = 0; i < g->n_steps && i < GOV_SKIP_BITS; i++) {
        g->steps[i].no_gain = (skip >> i) & 1u;
        g->steps[i].tried = g->steps[i].no_gain;   /* a kept one is measured again when a move brings it in */
    }
}

uint32_t gov_skip_mask(const Governor *g) {
    uint32_t m = 0;
    for (int i = 0; i < g->n_steps && i < GOV_SKIP_BITS; i++)
        if (g->steps[i].no_gain) m |= 1u << i;
    return m;
}

void gov_rebuild(Governor *g, const GovLook *chosen) {
    GovStep old[GOV_STEPS_MAX];
    int n_old = g->n_steps;
    memcpy(old, g->steps, sizeof old);
    build_ladder(g, chosen);
    for (int i = 0; i < g->n_steps; i++)   /* what proved useless stays so */
        for (int j = 0; j < n_old; j++)
            if (old[j].knob == g->steps[i].knob && old[j].value == g->steps[i].value) {
                g->steps[i].no_gain = old[j].no_gain;
                g->steps[i].tried = old[j].tried;
            }
    if (g->level > g->n_steps) g->level = g->n_steps;
    reset_loop(g);
}

void gov_set_target(Governor *g, double target_ms) {
    if (g->target_ms == target_ms) return;
    g->target_ms = target_ms;
    reset_loop(g);
}

/* The step of the lines in force at a level (the last one below it not set aside), -1: the chosen
 * lines. */
static int lines_in_force(const Governor *g, int level) {
    int s = -1;
    for (int i = 0; i < level; i++)
        if (g->steps[i].knob == GOV_LINES && !g->steps[i].no_gain) s = i;
    return s;
}

/* A change from `from` to the level now: held after; where the lines in effect changed, the first
 * window after the hold is let pass (a new target's first frames cost what a switch costs: buffers
 * made, the driver's caches filled, not what the target does). */
static void changed(Governor *g, int from) {
    g->changes++;
    g->last_change_t = g->settled_t = g->t;
    g->room_s = 0.0;
    g->busy_waits = g->late_windows = 0;
    if (lines_in_force(g, from) != lines_in_force(g, g->level)) g->skip_windows = 1;
}

static void set_aside(Governor *g, int s) {
    g->steps[s].no_gain = true;
    g->no_gain_marks++;
}

/* A window measured after a step of the lines (the other knobs only take work away: a cost that
 * rose after them is the world's streaming catching up, not the step). The step's window (B) no
 * cheaper than the one before it (A): it buys nothing here and is set aside (a lower target where
 * the low-res target and its upscale cost more than the pixels they save, as on a software
 * rasteriser; full resolution on a GPU that fills pixels). B cheaper: back to the level before
 * for a window (A again); kept only where B is cheaper than that too, so a falling cost (the
 * world streaming in at boot) does not keep a costlier step, nor a rising one. */
static bool arrived(Governor *g, double m) {
    int l = g->level, s = g->arrive_step, from = g->arrive_from_level;
    g->pending_arrival = g->arrive_step = -1;
    if (g->confirming) {
        g->confirming = false;
        g->steps[s].tried = true;
        if (g->trial_cost < m * GOV_GAIN) {   /* cheaper than both: kept, back to it */
            if (from < g->trial_level) g->cost_left[from] = m;
            g->cost_arrived[g->trial_level] = g->trial_cost;
            g->level = g->trial_level;
        } else {
            set_aside(g, s);
            g->cost_arrived[l] = m;
        }
        changed(g, l);
        return true;
    }
    g->cost_arrived[l] = m;
    if (s < 0 || g->steps[s].knob != GOV_LINES || g->steps[s].no_gain || !(g->arrive_from > 0.0)) return false;
    if (m < g->arrive_from * GOV_GAIN) {   /* looks cheaper: measure the level before it again */
        g->confirming = true;
        g->trial_level = l;
        g->trial_cost = m;
        g->cost_arrived[l] = 0.0;
        g->level = from;
        g->pending_arrival = from;
        g->arrive_step = s;
        g->arrive_from_level = from;
        changed(g, l);
        return true;
    }
    g->steps[s].tried = true;
    set_aside(g, s);
    g->cost_arrived[l] = 0.0;
    while (g->level > 0 && g->steps[g->level - 1].no_gain) g->level--;   /* the same values: the lowest such level */
    changed(g, l);
    return true;
}

static bool step_down(Governor *g, double m) {
    int k = 1, from = g->level;
    if (g->probe) k = m > 2.0 * g->target_ms ? 3 : (m > 1.5 * g->target_ms ? 2 : 1);
    /* Late right after a step up: that step did not fit; wait longer before the next one. */
    if (g->last_up_t > g->last_change_t - 1e-9 && g->t - g->last_up_t <= GOV_HOLD_S + 3.0 * GOV_WINDOW_S) {
        g->up_hold_s = g->up_hold_s * 2.0 > GOV_UP_HOLD_MAX_S ? GOV_UP_HOLD_MAX_S : g->up_hold_s * 2.0;
        g->bounces++;
    }
    g->cost_left[g->level] = m;
    g->arrive_from = m;
    bool alone = k == 1;
    for (int i = 0; i < k && g->level < g->n_steps; i++) {
        g->level++;
        while (g->level < g->n_steps && g->steps[g->level - 1].no_gain) g->level++;   /* buys nothing: past it */
        const GovStep *s = &g->steps[g->level - 1];
        if (s->knob == GOV_LINES && !s->tried && !s->no_gain) {   /* a step of the lines is measured alone */
            alone = i == 0;
            break;
        }
    }
    g->pending_arrival = alone ? g->level : -1;
    g->arrive_step = alone ? g->level - 1 : -1;
    g->arrive_from_level = from;
    g->downs++;
    changed(g, from);
    return true;
}

/* Room: the frame fits well below the target and the level above is predicted to fit, from the
 * gain its step showed on the way down (unknown: only with much room). */
static bool step_up(Governor *g, double m) {
    int j = g->level - 1, from = g->level;
    while (j > 0 && g->steps[j].no_gain) j--;
    while (j > 0 && g->steps[j - 1].no_gain) j--;   /* levels that differ by set-aside steps look the same */
    double gain = (g->cost_left[j] > 0.0 && g->cost_arrived[j + 1] > 0.0) ? g->cost_left[j] / g->cost_arrived[j + 1] : 0.0;
    bool fits = gain > 0.0 ? m * gain < g->target_ms * 0.95 : m < g->target_ms * 0.6;
    if (!fits) {
        g->room_s = 0.0;
        return false;
    }
    g->room_s += GOV_WINDOW_S;
    if (g->room_s + 1e-9 < g->up_hold_s) return false;
    /* A step up that brings in a step of the lines not measured yet (full resolution, passed on
     * the way down several steps at once or begun below from a saved point) measures it as the
     * way down does: against the cost here. */
    int s = lines_in_force(g, j);
    bool measure = s >= 0 && !g->steps[s].tried && s != lines_in_force(g, g->level);
    g->pending_arrival = measure ? j : -1;
    g->arrive_step = measure ? s : -1;
    g->arrive_from = m;
    g->arrive_from_level = from;
    g->level = j;
    g->last_up_t = g->t;
    g->ups++;
    changed(g, from);
    return true;
}

bool gov_settled(const Governor *g) { return g->on && g->t - g->settled_t >= GOV_SETTLED_S; }

static bool decide(Governor *g, double m, bool busy) {
    double hold = g->probe ? GOV_HOLD_S / 2.0 : GOV_HOLD_S;
    if (g->t - g->last_change_t + 1e-9 < hold) return false;
    if (g->skip_windows > 0) {
        g->skip_windows--;
        return false;
    }
    bool measuring = g->pending_arrival == g->level && g->arrive_step >= 0;
    /* A step of the lines is measured once the world has settled (the boot's streaming costs
     * frames whichever lines are drawn), waiting a few windows at most. */
    if (measuring && busy && g->busy_waits < GOV_BUSY_WAIT) {
        g->busy_waits++;
        return false;
    }
    if (g->pending_arrival == g->level && arrived(g, m)) return true;
    /* Late: one window over; once settled, one far over or two in a row (one window's noise at a
     * level that sits near the target is no reason to leave it). */
    g->late_windows = m > g->target_ms * GOV_LATE ? g->late_windows + 1 : 0;
    bool late = g->late_windows >= (gov_settled(g) && m < g->target_ms * GOV_FAR_LATE ? 2 : 1);
    if (late && g->level < g->n_steps) return step_down(g, m);
    if (g->late_windows) return false;
    if (m < g->target_ms * GOV_ROOM && g->level > 0) return step_up(g, m);
    g->room_s = 0.0;
    return false;
}

bool gov_frame(Governor *g, const GovFrame *f, double dt_s) {
    if (!g->on) return false;
    g->t += dt_s;
    g->win_t += dt_s;
    g->win_sum += gov_frame_cost(f);
    g->win_n++;
    g->win_busy = g->win_busy || f->busy;
    if (g->win_t + 1e-9 < GOV_WINDOW_S) return false;
    double m = g->win_sum / g->win_n;
    bool busy = g->win_busy;
    g->win_t = g->win_sum = 0.0;
    g->win_n = 0;
    g->win_busy = false;
    g->last_mean = m;
    return decide(g, m, busy);
}

void gov_effective(const Governor *g, const GovLook *chosen, GovLook *out) {
    *out = *chosen;
    for (int i = 0; g->on && i < g->level; i++) {
        const GovStep *s = &g->steps[i];
        if (s->no_gain) continue;
        switch (s->knob) {
        case GOV_LINES: out->lines = s->value; break;
        case GOV_CLOUDS: out->clouds = false; break;
        case GOV_LOD:
            for (int k = 0; k < WORLD_LOD_MAX; k++) out->lod_dist[k] = chosen->lod_dist[k] * (float)s->value / 100.0f;
            break;
        case GOV_RADIUS: out->view_radius = s->value; break;
        default: break;
        }
    }
}

int gov_describe(const Governor *g, char *buf, size_t n) {
    int last[GOV_KNOB_COUNT] = {-1, -1, -1, -1};
    for (int i = 0; g->on && i < g->level; i++)
        if (!g->steps[i].no_gain) last[g->steps[i].knob] = g->steps[i].value;
    size_t len = 0;
    buf[0] = 0;
    for (int k = 0; k < GOV_KNOB_COUNT && len < n; k++) {
        if (last[k] < 0) continue;
        const char *sep = len ? ", " : "";
        int w = k == GOV_CLOUDS                    ? snprintf(buf + len, n - len, "%sclouds off", sep)
                : k == GOV_LINES && last[k] == 0 ? snprintf(buf + len, n - len, "%slines full", sep)
                                                 : snprintf(buf + len, n - len, "%s%s %d%s", sep, gov_knob_names[k], last[k],
                                                            k == GOV_LOD ? "%" : "");
        if (w < 0) break;
        len += (size_t)w;
    }
    if (!len) return snprintf(buf, n, "none");
    return (int)len;
}

void frame_clock_own(FrameClock *c) { c->own_left = FRAME_OWN_FRAMES; }

float frame_clock_dt(FrameClock *c, double gap_s, double stall_s, bool *stall) {
    if (c->frame++ == 0) c->typical = gap_s < 1.0 ? gap_s : 1.0;
    bool own = c->own_left > 0 && gap_s < FRAME_OWN_GAP_MAX_S;
    if (c->own_left > 0) c->own_left--;
    *stall = !own && c->frame > 3 && gap_s > stall_s && gap_s > 4.0 * c->typical;
    if (!own) c->typical = 0.9 * c->typical + 0.1 * (gap_s < 1.0 ? gap_s : 1.0);   /* a rebuild is not the machine's pace */
    if (*stall) return 0.0f;
    return gap_s > 0.1 ? 0.1f : (float)gap_s;
}
