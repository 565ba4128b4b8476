/* skyisles deliveries and the logbook in the game (delivery.h): fed from the sim's fixed steps,
 * so a replayed flight takes, flies and delivers the same jobs; saved with the settings. */
#include "delivery.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define COL_TEXT 0xffffffffu
#define COL_HI 0xffd060ffu
#define COL_GOOD 0x70f090ffu
#define COL_RIM 0x0c1422ffu

bool delivery_on_ground(const FlightState *f) { return f->on_ground; }

/* --show jobs: the board as if the aircraft had stopped at the base (job: its first job taken and
 * flying); --show logbook: the config
 * folder's logbook, read and never written, recording the shot's flight. */
static void stage_show(GameDelivery *d, const GameConfig *cfg, const GameHome *home) {
    const char *show = cfg->opt.show;
    if (show && (!strcmp(show, "jobs") || !strcmp(show, "job"))) {
        double x, z;
        jobs_site_pos(&d->jobs, home->island->base, &x, &z);
        for (int i = 0; i <= (int)(JOBS_STOP_HOLD_S * SIM_STEP_HZ) + 1; i++) jobs_step(&d->jobs, x, z, 0.0f, true, SIM_STEP);
        if (show[3] == 0) {   /* "job": taken, flying away */
            jobs_take(&d->jobs, 0);
            d->jobs.n_board = 0;
        }
        d->staged = true;
    } else if (show && !strcmp(show, "logbook")) {
        if (cfg->opt.use_settings && cfg->opt.config_dir[0])
            logbook_read(&d->log, cfg->opt.config_dir, d->log.seed, home->island->n_sites);
        d->log.active = true;
        d->log.keep_file = true;
    }
}

void game_delivery_boot(GameDelivery *d, const GameConfig *cfg, const GameHome *home, World *w, uint64_t seed,
                        float sea_y) {
    const GameOptions *o = &cfg->opt;
    memset(d, 0, sizeof *d);
    d->sea_y = sea_y;
    jobs_init(&d->jobs, home, seed);
    jobs_set_world(&d->jobs, w);
    logbook_reset(&d->log, seed, home->island ? home->island->n_sites : 0);
    seen_reset(&d->seen, home->archipelago ? home->codex : NULL, seed);
    bool players = o->use_settings && o->config_dir[0] && !cfg->config_read_only && !o->screenshot &&
                   !o->bench_frames && !o->print_island && !o->headless && !o->autopilot && !o->replay &&
                   !o->record_attract;
    if (players && home->island) logbook_load(&d->log, o->config_dir, seed, home->island->n_sites);
    for (uint32_t i = 0; i < d->log.n_isles; i++)   /* the world map shows the islands of earlier runs too */
        seen_add(&d->seen, d->log.isles[i].cell_x, d->log.isles[i].cell_z, d->log.isles[i].landed);
    if (home->island) stage_show(d, cfg, home);
    delivery_pages_register(d);
}

/* The ground's height at (x, z): the field's cell (decimetres) on the home island's sea level. */
static double ground_y(const GameHome *home, double sea_y, double x, double z) {
    const IslandField *fl = &home->field;
    if (fl->size == 0 || !fl->elevation_dm || !(fl->cell_meters > 0.0f)) return sea_y;
    double half = 0.5 * (double)fl->size;
    double u = (x - (double)fl->centre_x) / (double)fl->cell_meters + half;
    double v = (z - (double)fl->centre_z) / (double)fl->cell_meters + half;
    if (!(u >= 0.0 && v >= 0.0 && u < (double)fl->size && v < (double)fl->size)) return sea_y;
    return sea_y + 0.1 * (double)fl->elevation_dm[(size_t)v * fl->size + (size_t)u];
}

/* The landmark the aircraft passes close to: the nearest site within reach, -1 when none. */
static int landmark_near(const GameHome *home, double sea_y, const FlightState *f) {
    const Island *isl = home->island;
    int best = -1;
    double best_d2 = (double)LOGBOOK_NEAR_M * LOGBOOK_NEAR_M;
    for (uint32_t s = 0; s < isl->n_sites; s++) {
        double dx = f->x - (home->field.centre_x + isl->sites[s].x_m), dz = f->z - (home->field.centre_z + isl->sites[s].z_m);
        double d2 = dx * dx + dz * dz;
        if (d2 <= best_d2) best_d2 = d2, best = (int)s;
    }
    if (best < 0) return -1;
    /* the site's ground: its cell of the field, on the home island's sea level */
    double ground = ground_y(home, sea_y, f->x, f->z);
    return f->y - ground <= LOGBOOK_NEAR_UP_M ? best : -1;
}

static void delivered(GameDelivery *d) {
    Jobs *j = &d->jobs;
    /* a route of the home island keeps its best time; a delivery elsewhere is counted alone */
    bool home = !j->done.from_cx && !j->done.from_cz && !j->done.to_cx && !j->done.to_cz;
    bool best = logbook_delivered(&d->log, home ? j->done.from : UINT32_MAX, home ? j->done.to : UINT32_MAX, j->done_s);
    char line[96];
    jobs_delivered_line(j, line, sizeof line);
    snprintf(d->notice, sizeof d->notice, "%s %s%s", jobs_cargo_name(j, j->done.cargo), line,
             best && d->log.active ? " - best time" : "");
    log_info("skyisles: %s", d->notice);
}

uint32_t game_delivery_step(GameDelivery *d, const FlightState *before, const FlightState *f, bool flew, bool title) {
    if (title || d->staged) {
        d->in_flight = false;
        return 0;
    }
    if (!flew || !d->jobs.home || !d->jobs.home->island) return 0;   /* a crash's pause: nothing flown */
    if (!d->in_flight) {   /* the player's flight begins: a new one in the logbook, the jobs' stream from its start */
        d->in_flight = true;
        jobs_reset(&d->jobs);
        logbook_flight_start(&d->log);
    }
    double dx = f->x - before->x, dy = f->y - before->y, dz = f->z - before->z;
    double moved = sqrt(dx * dx + dy * dy + dz * dz);
    bool ground = delivery_on_ground(f);
    logbook_step(&d->log, SIM_STEP, moved, f->speed);
    uint32_t ev = jobs_step(&d->jobs, f->x, f->z, (float)(moved / SIM_STEP), ground, SIM_STEP);
    /* A landing is the wheels meeting the ground from the air, sinking: not a flight that starts
     * parked, nor a bump just after the wheels left. */
    uint32_t first_new = d->seen.next_order;
    if (seen_update(&d->seen, f->x, f->z, SEEN_VIEW_M) > 0)   /* the new ones are numbered after the last */
        for (uint32_t i = 0; i < d->seen.n; i++)
            if (d->seen.isles[i].order > first_new) logbook_island(&d->log, d->seen.isles[i].cell_x, d->seen.isles[i].cell_z, false);
    if ((ev & JOB_EV_TOUCHDOWN) && !delivery_on_ground(before) && d->sink > 0.0f) {
        logbook_touchdown(&d->log, d->jobs.event_home ? d->jobs.event_site : -1, d->sink);
        const SeenIsland *e = seen_landed(&d->seen, f->x, f->z);
        if (e) logbook_island(&d->log, e->cell_x, e->cell_z, true);
    }
    if (ev & JOB_EV_DELIVERED) delivered(d);
    if (!ground) d->sink = (float)(-dy / SIM_STEP);
    logbook_near(&d->log, ground ? -1 : landmark_near(d->jobs.home, d->sea_y, f));
    return ev;
}

void game_delivery_stage_seen(GameDelivery *d, double x, double z, double metres) {
    seen_landed(&d->seen, x, z);
    if (!d->seen.cx) return;
    double cell = (double)island_codex_cell_m(d->seen.cx);
    for (int leg = 0; leg < 3; leg++)   /* a survey: out east, a cell south and back west, a cell north and out east */
        for (double e = 0.0; e <= metres; e += 250.0)
            seen_update(&d->seen, x + (leg == 1 ? metres - e : e), z + (leg == 0 ? 0.0 : leg == 1 ? cell : -cell), SEEN_VIEW_M);
}

void game_delivery_save(GameDelivery *d, const GameConfig *cfg) {
    if (!d->log.active || d->log.keep_file || !d->log.dirty || cfg->config_read_only) return;
    SkyError err = {0};
    if (!logbook_save(&d->log, cfg->opt.config_dir, &err)) {
        log_warn("%s", err.msg);
        d->log.keep_file = true;   /* one warning, not one per save */
    }
}

/* ---------------------------------------------------------------- HUD and map */
/* The destination's direction on screen: 0 up, + clockwise (as the ring courses' arrow). */
static float arrow_angle(const CameraState *cam, double tx, double ty, double tz) {
    float cy = cosf(cam->yaw), sy = sinf(cam->yaw), cp = cosf(cam->pitch), sp = sinf(cam->pitch);
    double v[3] = {tx - cam->x, ty - cam->y, tz - cam->z};
    double right = v[0] * cy + v[2] * sy;
    double up = -v[0] * sy * sp + v[1] * cp + v[2] * cy * sp;
    double fwd = v[0] * sy * cp + v[1] * sp - v[2] * cy * cp;
    if (fwd < 0.0 && fabs(right) < 1e-3) right = 1e-3;
    return (float)atan2(right, fwd < 0.0 ? -fabs(up) - fabs(right) : up);
}

static void text_centre(Renderer *r, int w, int y, int s, uint32_t col, const char *t) {
    render_hud_text(r, (w - render_hud_text_width(r, t, s)) / 2, y, s, col, t);
}

void delivery_hud_draw(const GameDelivery *d, Renderer *r, int w, int h, int s, int lh, const FlightState *f,
                       const CameraState *cam) {
    const Jobs *j = &d->jobs;
    char line[3][160], place[JOBS_NAME_MAX];
    int y = h - 4 * lh, room = w - 2 * 4 * s - 16 * s;   /* the screen less its margins and the arrow */
    if (j->carrying) {
        double tx = j->job.to_x, tz = j->job.to_z;
        double km = sqrt((tx - f->x) * (tx - f->x) + (tz - f->z) * (tz - f->z)) / 1000.0;
        jobs_dest_name(j, &j->job, place, sizeof place);
        /* the longest that fits: cargo, place and distance; the place and distance; the distance */
        snprintf(line[0], sizeof line[0], text_get(TEXT_JOB_HUD_LONG), jobs_cargo_name(j, j->job.cargo), place, km);
        snprintf(line[1], sizeof line[1], "%s  %.1f km", place, km);
        snprintf(line[2], sizeof line[2], "%.1f km", km);
        int k = 0;
        while (k < 2 && render_hud_text_width(r, line[k], s) > room) k++;
        int tw = render_hud_text_width(r, line[k], s);
        render_hud_arrow(r, (w - tw) / 2 - 8 * s, y + lh / 2 - s, 5 * s, arrow_angle(cam, tx, f->y, tz), COL_HI);
        text_centre(r, w, y, s, COL_HI, line[k]);
    } else if (j->n_board > 0) {
        const char *t = render_hud_text_width(r, text_get(TEXT_JOB_BOARD_HERE), s) <= room
                            ? text_get(TEXT_JOB_BOARD_HERE) : text_get(TEXT_JOB_BOARD_SHORT);
        text_centre(r, w, y, s, COL_TEXT, t);
    }
}

void delivery_map_draw(const GameDelivery *d, Renderer *r, int x, int y, int w, int h, int64_t cell_x, int64_t cell_z) {
    const Jobs *j = &d->jobs;
    if (!j->home || !j->home->island) return;
    bool home = cell_x == 0 && cell_z == 0;   /* the logbook's places are the home island's */
    for (uint32_t s = 0; home && s < j->home->island->n_sites && s < d->log.n_sites; s++) {
        if (!d->log.landed[s]) continue;   /* landed at: a ring round its dot */
        double wx, wz;
        int px, py;
        jobs_site_pos(j, s, &wx, &wz);
        if (!render_hud_map_point(r, x, y, w, h, wx, wz, &px, &py)) return;
        render_hud_box(r, px - 4, py - 4, 9, 2, COL_GOOD);
        render_hud_box(r, px - 4, py + 3, 9, 2, COL_GOOD);
        render_hud_box(r, px - 4, py - 2, 2, 5, COL_GOOD);
        render_hud_box(r, px + 3, py - 2, 2, 5, COL_GOOD);
    }
    int px, py;
    if (!j->carrying || j->job.to_cx != cell_x || j->job.to_cz != cell_z) return;   /* on another island's map */
    double wx = j->job.site_x, wz = j->job.site_z;   /* its place's dot */
    if (!render_hud_map_point(r, x, y, w, h, wx, wz, &px, &py)) return;
    render_hud_box(r, px - 4, py - 4, 9, 9, COL_RIM);   /* no wider than the ring: the place's name starts 4 px right */
    render_hud_box(r, px - 3, py - 3, 7, 7, COL_HI);
    render_hud_box(r, px - 1, py - 1, 3, 3, COL_RIM);
}
