/* skyisles course: the course pilot. It tracks each leg's air path segment by segment (the
 * heading that closes on the segment's line within LEAD metres, so it lines up with a ring long
 * before it), stick and throttle as a pad gives them (FlightInput, through flight_step): bank to
 * turn, pitch for the climb angle, and a pull up when rock lies just ahead. A missed ring: it
 * flies out along the ring's axis as far as open air reaches, turns and comes back through it the
 * other way. Pieces shorter than a lattice step are passed over, never tracked. */
#include <math.h>
#include <string.h>

#include "course/course.h"
#include "sim/simmath.h"

#define LEAD 22.0                   /* metres along the line the heading aims ahead of the closest point */
#define LOOP_FAR 110.0              /* metres beyond a missed ring it turns back from, where the air
                                     * along the ring's axis allows (room to line up after the turn) */
#define LOOP_OUT 70.0               /* ... else this far, or 50 m, or COURSE_APPROACH */
#define LOOP_WIDTH 45.0             /* metres of air either side a turn back from LOOP_OUT or farther needs */
#define LOOP_CAPTURE 20.0
#define MISSED 4.0                  /* metres through a ring's plane that make it missed */
#define PROBE_EVERY 3u              /* steps between rock probes */
#define STUB (double)COURSE_GRID    /* metres: a shorter piece is not tracked */

static float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

static float wrap_pi(float a) {
    while (a > 3.14159265f) a -= 6.2831853f;
    while (a < -3.14159265f) a += 6.2831853f;
    return a;
}

void course_pilot_reset(CoursePilot *p, const CourseRun *r) {
    memset(p, 0, sizeof *p);
    const Course *c = r->course;
    p->ring = r->next;
    if (r->next < c->n_rings) p->point = c->rings[r->next].first_point;
    if (r->next > 0 && r->next <= c->n_rings) {
        const CourseRing *g = &c->rings[r->next - 1u];
        p->from = (CoursePoint){g->x, g->y, g->z};
    } else {
        p->from = (CoursePoint){c->start_x, c->start_y, c->start_z};
    }
}

/* The direction that closes on the line a -> b: LEAD metres along it from the closest point. */
static void track(const CoursePoint *a, const CoursePoint *b, const FlightState *f, double d[3]) {
    double u[3] = {b->x - a->x, b->y - a->y, b->z - a->z};
    double l = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    if (!(l > 1e-6)) u[0] = 0.0, u[1] = 0.0, u[2] = -1.0, l = 1.0;
    for (int i = 0; i < 3; i++) u[i] /= l;
    double t = (f->x - a->x) * u[0] + (f->y - a->y) * u[1] + (f->z - a->z) * u[2];
    double q[3] = {a->x + u[0] * t, a->y + u[1] * t, a->z + u[2] * t};
    d[0] = q[0] + u[0] * LEAD - f->x;
    d[1] = q[1] + u[1] * LEAD - f->y;
    d[2] = q[2] + u[2] * LEAD - f->z;
}

static double past(const CoursePoint *a, const CoursePoint *b, const FlightState *f) {
    return (f->x - b->x) * (b->x - a->x) + (f->y - b->y) * (b->y - a->y) + (f->z - b->z) * (b->z - a->z);
}

/* A piece shorter than a lattice step (the join of a searched path's last node to the ring's
 * approach point): its direction says nothing about the way on, so the pilot never tracks it. */
static bool stub(const CoursePoint *a, const CoursePoint *b) {
    double dx = b->x - a->x, dy = b->y - a->y, dz = b->z - a->z;
    return dx * dx + dy * dy + dz * dz < STUB * STUB;
}

/* A missed ring, from side `side` (+1: beyond it): the loop's turning point on the ring's axis,
 * the farthest of LOOP_FAR, LOOP_OUT and 50 m that open air reaches, else COURSE_APPROACH (the
 * air every ring's clearance proves): the way out and back stays in air the layout's test holds,
 * and a long way back lines the aircraft up with the ring after its wide turn. */
static void loop_begin(CoursePilot *p, const CourseRing *g, const World *w, int8_t side) {
    static const double reach[4] = {LOOP_FAR, LOOP_OUT, 50.0, COURSE_APPROACH};
    CoursePoint centre = {g->x, g->y, g->z};
    double lat[2] = {-g->nz, g->nx}, ll = sqrt(lat[0] * lat[0] + lat[1] * lat[1]);
    if (ll < 1e-6) lat[0] = 1.0, lat[1] = 0.0, ll = 1.0;
    p->loop = side;
    p->looped_out = false;
    p->loop_out = (float)COURSE_APPROACH;
    for (int i = 0; w && i < 3; i++) {
        CoursePoint out = {g->x + g->nx * reach[i] * side, g->y + g->ny * reach[i] * side, g->z + g->nz * reach[i] * side};
        if (!course_segment_open(w, &centre, &out)) continue;
        /* The turn back at the far points needs a turn's width of air either side. */
        bool room = true;
        for (int k = -1; i < 2 && room && k <= 1; k += 2) {
            CoursePoint q = {out.x + lat[0] / ll * LOOP_WIDTH * k, out.y, out.z + lat[1] / ll * LOOP_WIDTH * k};
            room = course_segment_open(w, &out, &q);
        }
        if (room) {
            p->loop_out = (float)reach[i];
            return;
        }
    }
    if (!w) p->loop_out = (float)LOOP_OUT;   /* no world to ask (a caller without one): as before */
}

/* A missed ring: out to the loop's turning point on the side the aircraft is, then back through it. */
static void loop_direction(CoursePilot *p, const CourseRing *g, const FlightState *f, const World *w, double d[3]) {
    CoursePoint centre = {g->x, g->y, g->z};
    double reach = (double)p->loop_out * p->loop;
    CoursePoint out = {g->x + g->nx * reach, g->y + g->ny * reach, g->z + g->nz * reach};
    double dx = out.x - f->x, dy = out.y - f->y, dz = out.z - f->z;
    if (!p->looped_out && dx * dx + dy * dy + dz * dz < LOOP_CAPTURE * LOOP_CAPTURE) p->looped_out = true;
    if (!p->looped_out) {
        d[0] = dx, d[1] = dy, d[2] = dz;
        return;
    }
    double side = (f->x - g->x) * g->nx + (f->y - g->y) * g->ny + (f->z - g->z) * g->nz;
    if (side * p->loop < -MISSED) {   /* through again and still not counted: round the other side */
        loop_begin(p, g, w, (int8_t)-p->loop);
        reach = (double)p->loop_out * p->loop;
        d[0] = g->x + g->nx * reach - f->x, d[1] = g->y + g->ny * reach - f->y, d[2] = g->z + g->nz * reach - f->z;
        return;
    }
    track(&out, &centre, f, d);
}

/* The direction to fly now, after moving on past the points it has reached. */
static void pilot_direction(CoursePilot *p, const Course *c, const FlightState *f, const World *w, double d[3]) {
    const CourseRing *g = &c->rings[p->ring];
    uint32_t last = g->first_point + g->n_points - 1u;
    if (p->loop) {
        loop_direction(p, g, f, w, d);
        return;
    }
    while (p->point < last && (past(&p->from, &c->points[p->point], f) > 0.0 || stub(&p->from, &c->points[p->point])))
        p->from = c->points[p->point++];
    double side = (f->x - g->x) * g->nx + (f->y - g->y) * g->ny + (f->z - g->z) * g->nz;
    if (p->point == last && side > MISSED) {
        loop_begin(p, g, w, 1);
        loop_direction(p, g, f, w, d);
        return;
    }
    track(&p->from, &c->points[p->point], f, d);
}

/* Rock, or a solid object (a tree, a landmark), within a second or so along a direction from
 * the aircraft. */
static bool rock_along(const FlightState *f, const World *w, float yaw, float pitch) {
    float cp = sm_cos(pitch), d[3] = {sm_sin(yaw) * cp, sm_sin(pitch), -sm_cos(yaw) * cp};
    for (int k = 1; k <= 4; k++) {
        double s = 7.0 * k, x = f->x + d[0] * s, y = f->y + d[1] * s, z = f->z + d[2] * s;
        if (world_solid_at(w, x, y, z) || !sim_clear_of_objects(w, x, y, z, 3.5)) return true;
    }
    return false;
}

/* With rock ahead, the way out: up, down, left or right of the nose (0.5 rad), the first clear
 * one in that order; pitch and yaw offsets in *dp, *dy. False when the nose is clear. */
static bool evade(const FlightState *f, const World *w, float *dp, float *dy) {
    static const float way[5][2] = {{0.0f, 0.0f}, {0.5f, 0.0f}, {-0.5f, 0.0f}, {0.0f, -0.6f}, {0.0f, 0.6f}};
    for (int i = 0; i < 5; i++)
        if (!rock_along(f, w, f->yaw + way[i][1], f->pitch + way[i][0])) {
            *dp = way[i][0], *dy = way[i][1];
            return i > 0;
        }
    *dp = 0.6f, *dy = 0.0f;
    return true;
}

void course_pilot_input(CoursePilot *p, const CourseRun *r, const FlightState *f, const FlightModel *m, const World *w,
                        FlightInput *out) {
    memset(out, 0, sizeof *out);
    const Course *c = r->course;
    if (r->next != p->ring) course_pilot_reset(p, r);
    if (r->finished || p->ring >= c->n_rings) return;
    double d[3];
    pilot_direction(p, c, f, w, d);
    double flat = sqrt(d[0] * d[0] + d[2] * d[2]);
    float want_yaw = sm_atan2((float)d[0], (float)-d[2]);
    float want_pitch = clampf(sm_atan2((float)d[1], (float)(flat > 1e-3 ? flat : 1e-3)), -0.85f, 0.85f);
    float yaw_err = wrap_pi(want_yaw - f->yaw);
    float want_roll = clampf(yaw_err * 2.5f, -1.2f, 1.2f);
    if (w && p->probe_tick++ % PROBE_EVERY == 0u) p->pull_up = evade(f, w, &p->evade_pitch, &p->evade_yaw);
    if (p->pull_up) {
        want_pitch = clampf(f->pitch + p->evade_pitch, -0.7f, 0.7f);
        want_roll = clampf(p->evade_yaw * 2.0f, -1.2f, 1.2f);
    }
    out->roll = clampf((want_roll - f->roll) * 3.0f, -1.0f, 1.0f);
    float cr = sm_cos(f->roll);
    out->pitch = clampf((want_pitch - f->pitch) * 3.0f / (cr > 0.5f ? cr : 0.5f), -1.0f, 1.0f);
    float thr = flight_throttle_for(m, COURSE_PILOT_SPEED);
    out->throttle = clampf((thr - f->throttle) * 8.0f, -1.0f, 1.0f);
}

uint32_t course_pilot_fly_step(CoursePilot *p, CourseRun *r, FlightState *f, const FlightModel *m, const World *w,
                               float dt) {
    FlightInput in;
    course_pilot_input(p, r, f, m, w, &in);
    FlightState before = *f;
    flight_step(f, &in, m, dt);
    /* The game's meeting with the world: the wheels, then the sweep (a crash puts f there). */
    SimGroundResult g;
    CollisionResult cr;
    bool hit = sim_meet_world(w, &before, f, dt, &g, &cr);
    if (hit) f->on_ground = false;
    uint32_t ev = course_run_step(r, f, before.x, before.y, before.z, hit, dt);
    if (ev & (COURSE_EVENT_RING | COURSE_EVENT_RESTART)) course_pilot_reset(p, r);
    return ev;
}

bool course_pilot_fly(const Course *c, const World *w, const FlightModel *m, double limit_s, CourseRun *run) {
    FlightState f;
    CoursePilot p;
    course_run_start(run, c, &f, COURSE_PILOT_SPEED);
    f.throttle = flight_throttle_for(m, COURSE_PILOT_SPEED);
    course_pilot_reset(&p, run);
    for (uint32_t i = 0; i < (uint32_t)(limit_s * 60.0) && !run->finished; i++)
        course_pilot_fly_step(&p, run, &f, m, w, 1.0f / 60.0f);
    return run->finished;
}
