/* skyisles jobs: the job board, the delivery state machine and the walk it is timed against
 * (jobs.h). Everything a step decides comes from the world seed, the count of boards drawn and
 * the flight's own steps, so a replayed flight draws and delivers the same jobs. */
#include "jobs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The stream of the job boards (PCG32 sequence selector): its own, apart from every other draw. */
#define JOBS_STREAM 0x6a6f6273u   /* "jobs" */

void jobs_reset(Jobs *j) {
    const GameHome *home = j->home;
    uint64_t seed = j->seed;
    memset(j, 0, sizeof *j);
    j->home = home;
    j->seed = seed;
    j->stopped_at = -1;
    j->event_site = -1;
}

void jobs_init(Jobs *j, const GameHome *home, uint64_t seed) {
    j->home = home;
    j->seed = seed;
    jobs_reset(j);
}

void jobs_site_pos(const Jobs *j, uint32_t site, double *x, double *z) {
    const IslandSite *s = &j->home->island->sites[site];
    *x = (double)j->home->field.centre_x + (double)s->x_m;
    *z = (double)j->home->field.centre_z + (double)s->z_m;
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

/* Offer k of a board at `site`: a cargo the place has, to a place (not this one) that wants it. */
static bool draw_offer(Jobs *j, Rng *r, uint32_t site, JobOffer *o) {
    const Island *isl = j->home->island;
    const IslandCodex *cx = j->home->codex;
    uint32_t type = isl->sites[site].type, have[ISLAND_MAX_CARGO], n_have = 0;
    uint16_t want[ISLAND_MAX_SITES];
    for (uint32_t c = 0; c < cx->n_cargo; c++)
        if (cx->cargo[c].from_mask & (1u << type)) have[n_have++] = c;
    if (n_have == 0) return false;
    uint32_t cargo = have[rng_below(r, n_have)], n_want = 0;
    for (uint32_t s = 0; s < isl->n_sites; s++)
        if (s != site && (cx->cargo[cargo].to_mask & (1u << isl->sites[s].type))) want[n_want++] = (uint16_t)s;
    if (n_want == 0) return false;
    uint32_t to = want[rng_below(r, n_want)];
    double fx, fz, tx, tz;
    jobs_site_pos(j, site, &fx, &fz);
    jobs_site_pos(j, to, &tx, &tz);
    *o = (JobOffer){.cargo = (uint8_t)cargo, .from = (uint16_t)site, .to = (uint16_t)to,
                    .walk_minutes = jobs_walk_minutes(isl, site, to),
                    .distance_m = (float)sqrt((tx - fx) * (tx - fx) + (tz - fz) * (tz - fz))};
    return true;
}

/* The board of a place: up to JOBS_BOARD_MAX different offers from the stream's next position. */
static void draw_board(Jobs *j, uint32_t site) {
    Rng r;
    rng_seed(&r, j->seed, ((uint64_t)JOBS_STREAM << 32) | j->drawn);
    j->drawn++;
    j->n_board = 0;
    for (int tries = 0; tries < 4 * JOBS_BOARD_MAX && j->n_board < JOBS_BOARD_MAX; tries++) {
        JobOffer o;
        if (!draw_offer(j, &r, site, &o)) return;   /* the place has nothing to send */
        bool dup = false;
        for (uint32_t k = 0; k < j->n_board; k++) dup |= j->board[k].cargo == o.cargo && j->board[k].to == o.to;
        if (!dup) j->board[j->n_board++] = o;
    }
}

/* Stopped at a place: the job delivered when it is the destination, then the place's board. */
static uint32_t stopped(Jobs *j, int site) {
    uint32_t ev = JOB_EV_STOPPED;
    j->stopped_at = site;
    j->event_site = site;
    if (j->carrying && (uint32_t)site == j->job.to) {
        j->carrying = false;
        j->done = j->job;
        j->done_s = j->job_s;
        j->delivered++;
        ev |= JOB_EV_DELIVERED;
    }
    draw_board(j, (uint32_t)site);
    return ev;
}

uint32_t jobs_step(Jobs *j, double x, double z, float speed, bool on_ground, float dt) {
    uint32_t ev = 0;
    j->event_site = -1;
    if (!j->home || !j->home->island) return 0;
    if (j->carrying) j->job_s += dt;
    int site = on_ground ? game_home_site_at(j->home, x, z) : -1;
    if (on_ground && !j->was_on_ground && site >= 0) {
        ev |= JOB_EV_TOUCHDOWN;
        j->event_site = site;
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
    if (site >= 0 && before < JOBS_STOP_HOLD_S && j->still_s >= JOBS_STOP_HOLD_S) ev |= stopped(j, site);
    return ev;
}

bool jobs_take(Jobs *j, uint32_t i) {
    if (i >= j->n_board) return false;
    const JobOffer *o = &j->board[i];
    if (j->carrying && j->job.cargo == o->cargo && j->job.from == o->from && j->job.to == o->to)
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
    if (minutes == UINT32_MAX) snprintf(buf, n, "no path on foot");
    else if (minutes >= 60 && minutes % 60) snprintf(buf, n, "%u h %u min", minutes / 60, minutes % 60);
    else if (minutes >= 60) snprintf(buf, n, "%u h", minutes / 60);
    else snprintf(buf, n, "%u min", minutes);
}

const char *jobs_cargo_name(const Jobs *j, uint32_t cargo) {
    const IslandCodex *cx = j->home->codex;
    if (cargo >= cx->n_cargo) return "?";
    char key[80];
    snprintf(key, sizeof key, "cargo.%s", cx->cargo[cargo].id);
    const char *t = island_codex_text(cx, "en", key);
    return t ? t : cx->cargo[cargo].id;
}

void jobs_offer_label(const Jobs *j, const JobOffer *o, char *buf, size_t n) {
    char place[64], walk[32];
    game_home_site_name(j->home, o->to, place, sizeof place);
    jobs_format_walk(o->walk_minutes, walk, sizeof walk);
    snprintf(buf, n, "%s to %s: on foot %s", jobs_cargo_name(j, o->cargo), place, walk);
}

void jobs_delivered_line(const Jobs *j, char *buf, size_t n) {
    char t[32], walk[32];
    jobs_format_time(j->done_s, t, sizeof t);
    jobs_format_walk(j->done.walk_minutes, walk, sizeof walk);
    snprintf(buf, n, "delivered in %s; on foot %s", t, walk);
}
