/* skyisles jobs: the job board, the delivery state machine and the walk it is timed against
 * (jobs.h). Everything a step decides comes from the world seed, the count of boards drawn and
 * the flight's own steps, so a replayed flight draws and delivers the same jobs. */
#include "jobs.h"

#include "options.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The stream of the job boards (PCG32 sequence selector): its own, apart from every other draw. */
#define JOBS_STREAM 0x6a6f6273u   /* "jobs" */

void jobs_reset(Jobs *j) {
    const GameHome *home = j->home;
    World *world = j->world;
    uint64_t seed = j->seed;
    memset(j, 0, sizeof *j);
    j->home = home;
    j->world = world;
    j->seed = seed;
    j->stopped_at = -1;
    j->event_site = -1;
}

void jobs_init(Jobs *j, const GameHome *home, uint64_t seed) {
    j->home = home;
    j->world = NULL;
    j->seed = seed;
    jobs_reset(j);
}

void jobs_set_world(Jobs *j, World *w) { j->world = w; }

/* The home island as the jobs see it without a world. */
static void home_island(const Jobs *j, CourseIsland *at) {
    *at = (CourseIsland){.isl = j->home->island, .field = &j->home->field};
}

static bool is_home(const CourseIsland *at) { return at->cell_x == 0 && at->cell_z == 0; }

void jobs_site_pos(const Jobs *j, uint32_t site, double *x, double *z) {
    CourseIsland at;
    home_island(j, &at);
    course_island_site(&at, site, x, z);
}

static int strip_of(const IslandField *f, uint32_t site) {
    for (uint32_t k = 0; k < f->n_strips; k++)
        if (f->strips[k].site == site) return (int)k;
    return -1;
}

int jobs_strip_of(const Jobs *j, uint32_t site) { return strip_of(&j->home->field, site); }

/* Where a job to site s of island `at` goes: its strip's middle, or the site without one. */
static void dest_pos(const CourseIsland *at, uint32_t site, double *x, double *z) {
    const IslandField *f = at->field;
    int k = strip_of(f, site);
    if (k < 0) {
        course_island_site(at, site, x, z);
        return;
    }
    const IslandFieldStrip *st = &f->strips[k];
    *x = (double)at->ox + (double)f->centre_x + 0.5 * ((double)st->ax + (double)st->bx);
    *z = (double)at->oz + (double)f->centre_z + 0.5 * ((double)st->az + (double)st->bz);
}

void jobs_dest_pos(const Jobs *j, uint32_t site, double *x, double *z) {
    CourseIsland at;
    home_island(j, &at);
    dest_pos(&at, site, x, z);
}

int jobs_place_at(const Jobs *j, double x, double z, CourseIsland *at) {
    CourseIsland own;
    if (!at) at = &own;
    if (!j->home || !j->home->island) return -1;
    if (j->world && !course_island_at(j->world, j->home->island, x, z, at)) return -1;   /* open sky */
    if (!j->world) home_island(j, at);
    const IslandField *f = at->field;
    int k = island_field_strip_at(f, (float)(x - (double)at->ox), (float)(z - (double)at->oz), 0.0f, 2.0f);
    if (k >= 0 && f->strips[k].site < at->isl->n_sites) return f->strips[k].site;
    return archipelago_site_at(at->isl, f, at->ox, at->oz, x, z);
}

uint32_t jobs_walk_minutes(const Island *isl, uint32_t a, uint32_t b) {
    uint32_t dist[ISLAND_MAX_SITES];
    bool done[ISLAND_MAX_SITES];
    if (a >= isl->n_sites || b >= isl->n_sites) return UINT32_MAX;
    for (uint32_t i = 0; i < isl->n_sites; i++) dist[i] = UINT32_MAX, done[i] = false;
    dist[a] = 0;
    for (;;) {
        uint32_t u = UINT32_MAX;
        for (uint32_t i = 0; i < isl->n_sites; i++)
            if (!done[i] && dist[i] != UINT32_MAX && (u == UINT32_MAX || dist[i] < dist[u])) u = i;
        if (u == UINT32_MAX || u == b) return u == b ? dist[b] : UINT32_MAX;
        done[u] = true;
        for (uint32_t e = 0; e < isl->n_edges; e++) {
            const IslandEdge *ed = &isl->edges[e];
            if (!ed->path || (ed->a != u && ed->b != u)) continue;
            uint32_t v = ed->a == u ? ed->b : ed->a;
            if (!done[v] && dist[u] + ed->minutes < dist[v]) dist[v] = dist[u] + ed->minutes;
        }
    }
}

/* Can a job end at site s of island `to`: not the place it starts from (from < 0: another
 * island's), and a strip there when the island has any (a place without one may have no ground
 * to land on). */
static bool destination_ok(const CourseIsland *to, uint32_t s, int from) {
    return (int)s != from && (to->field->n_strips == 0 || strip_of(to->field, s) >= 0);
}

/* A cargo the place of type `type` has that some destination of `to` wants, and one of those
 * destinations (from: the site it leaves, -1 from another island). False when there is none. */
static bool draw_cargo(const Jobs *j, Rng *r, uint32_t type, const CourseIsland *to, int from, uint32_t *cargo,
                       uint32_t *dest) {
    const Island *isl = to->isl;
    const IslandCodex *cx = j->home->codex;
    uint32_t have[ISLAND_MAX_CARGO], n_have = 0, n_want = 0;
    uint16_t want[ISLAND_MAX_SITES];
    for (uint32_t c = 0; c < cx->n_cargo; c++) {
        if (!(cx->cargo[c].from_mask & (1u << type))) continue;
        bool any = false;
        for (uint32_t s = 0; s < isl->n_sites && !any; s++)
            any = destination_ok(to, s, from) && (cx->cargo[c].to_mask & (1u << isl->sites[s].type));
        if (any) have[n_have++] = c;
    }
    if (n_have == 0) return false;
    *cargo = have[rng_below(r, n_have)];
    for (uint32_t s = 0; s < isl->n_sites; s++)
        if (destination_ok(to, s, from) && (cx->cargo[*cargo].to_mask & (1u << isl->sites[s].type)))
            want[n_want++] = (uint16_t)s;
    *dest = want[rng_below(r, n_want)];
    return true;
}

/* An offer of a board at `site` of island `at` to another of its places. False when the place
 * has nothing to send. */
static bool draw_offer(Jobs *j, Rng *r, const CourseIsland *at, uint32_t site, JobOffer *o) {
    uint32_t cargo, to;
    if (!draw_cargo(j, r, at->isl->sites[site].type, at, (int)site, &cargo, &to)) return false;
    double fx, fz, tx, tz;
    dest_pos(at, site, &fx, &fz);
    dest_pos(at, to, &tx, &tz);
    *o = (JobOffer){.cargo = (uint8_t)cargo, .from = (uint16_t)site, .to = (uint16_t)to, .from_cx = at->cell_x,
                    .from_cz = at->cell_z, .to_cx = at->cell_x, .to_cz = at->cell_z,
                    .walk_minutes = jobs_walk_minutes(at->isl, site, to), .to_x = tx, .to_z = tz,
                    .distance_m = (float)sqrt((tx - fx) * (tx - fx) + (tz - fz) * (tz - fz))};
    course_island_site(at, to, &o->site_x, &o->site_z);
    if (!is_home(at)) island_site_display_name(at->isl, j->home->codex, to, GAME_LANG, o->to_name, sizeof o->to_name);
    return true;
}

/* An offer of a board at `site` of island `at` to a strip of a neighbouring cell's island (one of
 * the eight cells round it, drawn from the stream). Drawn last: the neighbour may be baked into the
 * point queries' slot, where `at` may have been (it is not read after). False when the world has
 * no archipelago or no neighbour takes the place's cargo. */
static bool draw_away(Jobs *j, Rng *r, const CourseIsland *at, uint32_t site, JobOffer *o) {
    const GameHome *h = j->home;
    if (!j->world || !h->archipelago) return false;
    int64_t cells[8][2];
    uint32_t n = 0;
    for (int64_t dz = -1; dz <= 1; dz++)
        for (int64_t dx = -1; dx <= 1; dx++) {
            int64_t cx = at->cell_x + dx, cz = at->cell_z + dz;
            IslandCellSite cs;
            if (!dx && !dz) continue;
            island_cell_site(h->codex, h->arch.seed, cx, cz, &cs);
            if (cs.has_island || (cx == 0 && cz == 0)) cells[n][0] = cx, cells[n++][1] = cz;
        }
    if (n == 0) return false;
    uint32_t type = at->isl->sites[site].type, pick = rng_below(r, n), cargo, to;
    int64_t from_cx = at->cell_x, from_cz = at->cell_z;
    double fx, fz, m = (double)island_codex_cell_m(h->codex);
    dest_pos(at, site, &fx, &fz);
    CourseIsland there;
    if (!course_island_at(j->world, h->island, (double)cells[pick][0] * m, (double)cells[pick][1] * m, &there) ||
        !draw_cargo(j, r, type, &there, -1, &cargo, &to))
        return false;
    memset(o, 0, sizeof *o);
    *o = (JobOffer){.cargo = (uint8_t)cargo, .from = (uint16_t)site, .to = (uint16_t)to, .from_cx = from_cx,
                    .from_cz = from_cz, .to_cx = there.cell_x, .to_cz = there.cell_z, .walk_minutes = UINT32_MAX};
    dest_pos(&there, to, &o->to_x, &o->to_z);
    course_island_site(&there, to, &o->site_x, &o->site_z);
    o->distance_m = (float)sqrt((o->to_x - fx) * (o->to_x - fx) + (o->to_z - fz) * (o->to_z - fz));
    char place[64], isle[64];
    island_site_display_name(there.isl, h->codex, to, GAME_LANG, place, sizeof place);
    archipelago_island_name(&h->arch, there.cell_x, there.cell_z, GAME_LANG, isle, sizeof isle);
    snprintf(o->to_name, sizeof o->to_name, text_get(TEXT_HUD_PLACE_ISLAND), place, isle);
    return true;
}

/* The board of a place: up to JOBS_BOARD_LOCAL different offers to places of its island from the
 * stream's next position (the stream of the island's cell: the home island's is the seed's own),
 * then one to a neighbouring island. */
static void draw_board(Jobs *j, const CourseIsland *at, uint32_t site) {
    Rng r;
    uint64_t cell = is_home(at) ? 0u
                                : ((uint64_t)at->cell_x * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)at->cell_z * 0xc2b2ae3d27d4eb4full);
    rng_seed(&r, j->seed ^ cell, ((uint64_t)JOBS_STREAM << 32) | j->drawn);
    j->drawn++;
    j->n_board = 0;
    for (int tries = 0; tries < 4 * JOBS_BOARD_LOCAL && j->n_board < JOBS_BOARD_LOCAL; tries++) {
        JobOffer o;
        if (!draw_offer(j, &r, at, site, &o)) break;   /* the place has nothing to send */
        bool dup = false;
        for (uint32_t k = 0; k < j->n_board; k++) dup |= j->board[k].cargo == o.cargo && j->board[k].to == o.to;
        if (!dup) j->board[j->n_board++] = o;
    }
    if (draw_away(j, &r, at, site, &j->board[j->n_board])) j->n_board++;
}

/* Stopped at a place: the job delivered when it is the destination, then the place's board. */
static uint32_t stopped(Jobs *j, int site, const CourseIsland *at) {
    uint32_t ev = JOB_EV_STOPPED;
    j->stopped_at = site;
    j->event_site = site;
    j->event_home = is_home(at);
    if (j->carrying && (uint32_t)site == j->job.to && at->cell_x == j->job.to_cx && at->cell_z == j->job.to_cz) {
        j->carrying = false;
        j->done = j->job;
        j->done_s = j->job_s;
        j->delivered++;
        ev |= JOB_EV_DELIVERED;
    }
    draw_board(j, at, (uint32_t)site);
    return ev;
}

uint32_t jobs_step(Jobs *j, double x, double z, float speed, bool on_ground, float dt) {
    uint32_t ev = 0;
    j->event_site = -1;
    if (!j->home || !j->home->island) return 0;
    if (j->carrying) j->job_s += dt;
    CourseIsland at;
    int site = on_ground ? jobs_place_at(j, x, z, &at) : -1;
    if (on_ground && !j->was_on_ground && site >= 0) {
        ev |= JOB_EV_TOUCHDOWN;
        j->event_site = site;
        j->event_home = is_home(&at);
    }
    j->was_on_ground = on_ground;
    if (!on_ground || !(speed < JOBS_STOP_SPEED)) {
        j->still_s = 0.0f;
        j->stopped_at = -1;
        j->n_board = 0;   /* the board stays at the place */
        return ev;
    }
    float before = j->still_s;
    j->still_s += dt;
    if (site >= 0 && before < JOBS_STOP_HOLD_S && j->still_s >= JOBS_STOP_HOLD_S) ev |= stopped(j, site, &at);
    return ev;
}

bool jobs_take(Jobs *j, uint32_t i) {
    if (i >= j->n_board) return false;
    const JobOffer *o = &j->board[i];
    if (j->carrying && j->job.cargo == o->cargo && j->job.from == o->from && j->job.to == o->to &&
        j->job.to_cx == o->to_cx && j->job.to_cz == o->to_cz && j->job.from_cx == o->from_cx &&
        j->job.from_cz == o->from_cz)
        return true;   /* taken already: its clock runs on */
    j->job = j->board[i];
    j->carrying = true;
    j->job_s = 0.0;
    return true;
}

void jobs_drop(Jobs *j) { j->carrying = false; }

void jobs_format_time(double s, char *buf, size_t n) {
    long t = s > 0.0 ? (long)(s + 0.5) : 0;
    if (t >= 3600) snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
}

void jobs_format_walk(uint32_t minutes, char *buf, size_t n) {
    if (minutes == UINT32_MAX) snprintf(buf, n, "%s", text_get(TEXT_JOB_NO_PATH));
    else if (minutes >= 60 && minutes % 60) snprintf(buf, n, text_get(TEXT_JOB_H_MIN), minutes / 60, minutes % 60);
    else if (minutes >= 60) snprintf(buf, n, text_get(TEXT_JOB_H), minutes / 60);
    else snprintf(buf, n, text_get(TEXT_JOB_MIN), minutes);
}

const char *jobs_cargo_name(const Jobs *j, uint32_t cargo) {
    const IslandCodex *cx = j->home->codex;
    if (cargo >= cx->n_cargo) return "?";
    char key[80];
    snprintf(key, sizeof key, "cargo.%s", cx->cargo[cargo].id);
    const char *t = island_codex_text(cx, text_lang_code(text_language()), key);
    return t ? t : cx->cargo[cargo].id;
}

void jobs_dest_name(const Jobs *j, const JobOffer *o, char *buf, size_t n) {
    if (o->to_name[0]) snprintf(buf, n, "%s", o->to_name);
    else game_home_site_name(j->home, o->to, buf, n);
}

void jobs_offer_label(const Jobs *j, const JobOffer *o, char *buf, size_t n) {
    char place[JOBS_NAME_MAX], walk[32];
    jobs_dest_name(j, o, place, sizeof place);
    if (o->walk_minutes == UINT32_MAX) {   /* another island: no walk */
        snprintf(buf, n, text_get(TEXT_JOB_OFFER), jobs_cargo_name(j, o->cargo), place);
        return;
    }
    jobs_format_walk(o->walk_minutes, walk, sizeof walk);
    snprintf(buf, n, text_get(TEXT_JOB_OFFER_LABEL), jobs_cargo_name(j, o->cargo), place, walk);
}

void jobs_delivered_line(const Jobs *j, char *buf, size_t n) {
    char t[32], walk[32];
    jobs_format_time(j->done_s, t, sizeof t);
    if (j->done.walk_minutes == UINT32_MAX) {   /* another island: no walk */
        snprintf(buf, n, text_get(TEXT_JOB_DELIVERED_AWAY), t);
        return;
    }
    jobs_format_walk(j->done.walk_minutes, walk, sizeof walk);
    snprintf(buf, n, text_get(TEXT_JOB_DELIVERED), t, walk);
}
