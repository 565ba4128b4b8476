/* skyisles course: laying a sky course. Candidate spots on a lattice around the home island are
 * kept where THE density leaves room for a ring; from the start, each next ring is the best
 * spot 80-200 m on (rings of a kind the course lacks first: tunnel, gap, overhang, cloud, then
 * open air; ties by the seed's hash), going round the island anticlockwise (each ring 12 to
 * 50 degrees on, seen from above; where none is left, sharper turns) so a course is a lap that stays where the spots are, accepted only when its ring has clearance and the leg to
 * it is connected through air. Integer scores and fixed orders: the same course everywhere. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "course/course_int.h"
#include "sim/simmath.h"

#define SKY_RADIUS 8.0f
#define SKY_SPAN 464                /* metres either side of the home island's centre */
#define SKY_ORBIT_MIN 140.0         /* metres from the centre a ring keeps at least ... */
#define SKY_ORBIT_MAX 430.0         /* ... and at most */
#define SKY_STEP 32
#define SKY_Y_LO 32
#define SKY_Y_STEP 10
#define SKY_PROBE_FAR 255u
#define SKY_UNPROBED 254u
#define SKY_PROBE_MAX 28            /* metres a probe looks for rock above and below ... */
#define SKY_GAP_WIDE 40             /* ... and either side */
#define SKY_TUNNEL_WIDE 20          /* rock this close either side, above and below: a tunnel */
#define SKY_LEG_MIN 80.0
#define SKY_LEG_MAX 200.0
#define SKY_SPREAD 50.0             /* metres a ring keeps from every earlier ring and the start */
#define SKY_TRIES 10                /* best candidates tried per ring */
#define SKY_SAMPLE 48               /* candidates classified per ring */

/* Metres to the first rock from (x, y, z) along (dx, dy, dz) within `far`, SKY_PROBE_FAR when
 * none is near. */
static uint8_t probe_to(const World *w, double x, double y, double z, double dx, double dy, double dz, int far) {
    for (int d = 4; d <= far; d += 4)
        if (world_solid_at(w, x + dx * d, y + dy * d, z + dz * d)) return (uint8_t)d;
    return (uint8_t)SKY_PROBE_FAR;
}

static uint8_t probe(const World *w, double x, double y, double z, double dx, double dy, double dz) {
    return probe_to(w, x, y, z, dx, dy, dz, SKY_PROBE_MAX);
}

static void gather_candidates(CourseWork *wk, const World *w, double cx, double cz, uint64_t seed) {
    int32_t ytop = world_params(w)->gen.gen_y_max + 10;
    double room = (double)SKY_RADIUS + COURSE_RING_CLEAR;
    wk->n_cand = 0;
    for (int32_t y = SKY_Y_LO; y <= ytop && !course_work_stopped(wk); y += SKY_Y_STEP)
        for (int32_t gz = -SKY_SPAN; gz <= SKY_SPAN; gz += SKY_STEP)
            for (int32_t gx = -SKY_SPAN; gx <= SKY_SPAN; gx += SKY_STEP) {
                double x = cx + gx, z = cz + gz;
                if (wk->n_cand >= SKY_CAND_MAX || world_solid_at(w, x, y, z)) continue;
                if (world_solid_at(w, x + room, y, z) || world_solid_at(w, x - room, y, z) ||
                    world_solid_at(w, x, y + room, z) || world_solid_at(w, x, y - room, z) ||
                    world_solid_at(w, x, y, z + room) || world_solid_at(w, x, y, z - room))
                    continue;
                SkyCandidate *k = &wk->cand[wk->n_cand++];
                k->x = (float)x, k->y = (float)y, k->z = (float)z;
                k->up = k->down = SKY_UNPROBED;   /* probed when first classified */
                k->used = 0;
                k->tie = hash3_u32((uint32_t)seed ^ (uint32_t)(seed >> 32), gx, y, gz);
            }
}

/* The kind of a ring at k flown through along n: a tunnel with rock close all round, a gap
 * between rock on both sides of the flight (level, within SKY_GAP_WIDE) or above and below, an
 * overhang with rock above and open air below, a cloud bank beside it, else open air. */
static RingKind classify(const World *w, SkyCandidate *k, const float n[3]) {
    if (k->up == SKY_UNPROBED) {
        k->up = probe(w, k->x, k->y, k->z, 0, 1, 0);
        k->down = probe(w, k->x, k->y, k->z, 0, -1, 0);
    }
    double px = -n[2], pz = n[0], l = sqrt(px * px + pz * pz);
    if (l < 1e-6) px = 1.0, pz = 0.0, l = 1.0;
    px /= l, pz /= l;
    uint8_t left = probe_to(w, k->x, k->y, k->z, -px, 0, -pz, SKY_GAP_WIDE);
    uint8_t right = probe_to(w, k->x, k->y, k->z, px, 0, pz, SKY_GAP_WIDE);
    bool sides = left != SKY_PROBE_FAR && right != SKY_PROBE_FAR;
    bool up = k->up != SKY_PROBE_FAR, down = k->down != SKY_PROBE_FAR;
    if (sides && up && down && left <= SKY_TUNNEL_WIDE && right <= SKY_TUNNEL_WIDE) return RING_TUNNEL;
    if (sides || (up && down)) return RING_GAP;
    if (up) return RING_OVERHANG;
    const WorldGenParams *g = &world_params(w)->gen;
    for (int d = 0; d <= 12; d += 6)
        if (world_cloud_at_params(g, 0.0, k->x + px * d, k->y, k->z + pz * d) ||
            world_cloud_at_params(g, 0.0, k->x - px * d, k->y, k->z - pz * d))
            return RING_CLOUD;
    return RING_OPEN;
}

/* The way a leg from a to k flies, its climb held within 0.35 of level. */
static void leg_normal(const CoursePoint *a, const SkyCandidate *k, float n[3]) {
    double d[3] = {k->x - a->x, k->y - a->y, k->z - a->z};
    double flat = sqrt(d[0] * d[0] + d[2] * d[2]);
    if (d[1] > 0.35 * flat) d[1] = 0.35 * flat;
    if (d[1] < -0.35 * flat) d[1] = -0.35 * flat;
    double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int i = 0; i < 3; i++) n[i] = (float)(d[i] / l);
}

/* k lies 12 to 50 degrees anticlockwise (seen from above: from +x toward -z) round the centre
 * from `from`, SKY_ORBIT_MIN to SKY_ORBIT_MAX from it. */
static bool orbit_step(const double centre[2], const CoursePoint *from, const SkyCandidate *k, bool relax) {
    double ax = from->x - centre[0], az = from->z - centre[1], bx = k->x - centre[0], bz = k->z - centre[1];
    double la = sqrt(ax * ax + az * az), lb = sqrt(bx * bx + bz * bz);
    if (lb < SKY_ORBIT_MIN || lb > SKY_ORBIT_MAX) return false;
    if (la < 1.0) return true;
    double cross = ax * bz - az * bx, dot = (ax * bx + az * bz) / (la * lb);
    if (relax) return cross < 0.0 && dot >= 0.5;            /* 0 to 60 */
    return cross < 0.0 && dot <= 0.9781 && dot >= 0.6428;   /* cos 12, cos 50 */
}

typedef struct Pick { uint32_t score, tie, index; uint8_t kind; float n[3]; } Pick;

static bool pick_better(const Pick *a, const Pick *b) {
    return a->score != b->score ? a->score > b->score : (a->tie != b->tie ? a->tie > b->tie : a->index < b->index);
}

static bool far_from_course(const Course *c, const SkyCandidate *k) {
    double s = SKY_SPREAD * SKY_SPREAD;
    double dx = k->x - c->start_x, dy = k->y - c->start_y, dz = k->z - c->start_z;
    if (dx * dx + dy * dy + dz * dz < s) return false;
    for (uint32_t i = 0; i < c->n_rings; i++) {
        dx = k->x - c->rings[i].x, dy = k->y - c->rings[i].y, dz = k->z - c->rings[i].z;
        if (dx * dx + dy * dy + dz * dz < s) return false;
    }
    return true;
}

/* Keeps `p` in the best-first list picks[0..*n) of at most cap entries. */
static void keep_best(Pick *picks, uint32_t *n, uint32_t cap, const Pick *p) {
    uint32_t at = *n < cap ? (*n)++ : cap;
    if (at == cap && !pick_better(p, &picks[cap - 1u])) return;
    if (at == cap) at = cap - 1u;
    while (at > 0 && pick_better(p, &picks[at - 1u])) picks[at] = picks[at - 1u], at--;
    picks[at] = *p;
}

/* The SKY_TRIES best candidates for the ring after `from` (heading `ahead`), best first: of the
 * spots 80-200 m on that keep the lap going, the SKY_SAMPLE the seed's hash ranks first are
 * classified (the rest would cost density probes and add little choice), and scored by kind. */
static uint32_t best_picks(CourseWork *wk, const World *w, const Course *c, const CoursePoint *from, const float ahead[3],
                           const double centre[2], bool relax, Pick *picks) {
    static const uint32_t value[RING_KIND_COUNT] = {0, 1, 3, 4, 2, 5};
    Pick sample[SKY_SAMPLE];
    uint32_t ns = 0, n = 0;
    for (uint32_t i = 0; i < wk->n_cand; i++) {
        SkyCandidate *k = &wk->cand[i];
        double dx = k->x - from->x, dy = k->y - from->y, dz = k->z - from->z;
        double d2 = dx * dx + dy * dy + dz * dz;
        if (k->used || d2 < SKY_LEG_MIN * SKY_LEG_MIN || d2 > SKY_LEG_MAX * SKY_LEG_MAX || !far_from_course(c, k)) continue;
        /* Turns of at most 45 degrees (60 when relaxed). */
        if (dx * ahead[0] + dy * ahead[1] + dz * ahead[2] < (relax ? 0.5 : 0.7) * sqrt(d2)) continue;
        if (!orbit_step(centre, from, k, relax) || dy * dy > 0.1225 * (dx * dx + dz * dz)) continue;   /* climbs within 0.35 */
        Pick p = {.index = i, .tie = k->tie, .score = 0};
        keep_best(sample, &ns, SKY_SAMPLE, &p);
    }
    for (uint32_t s = 0; s < ns; s++) {
        Pick p = sample[s];
        SkyCandidate *k = &wk->cand[p.index];
        leg_normal(from, k, p.n);
        p.kind = (uint8_t)classify(w, k, p.n);
        uint32_t seen = 3u * c->kind_count[p.kind];
        p.score = 20u + value[p.kind] - (seen < 20u ? seen : 20u);
        keep_best(picks, &n, SKY_TRIES, &p);
    }
    return n;
}

/* Lays ring c->n_rings from the best candidate whose ring is clear and whose leg is connected. */
static bool lay_next_ring(CourseWork *wk, const World *w, Course *c, float ahead[3], const double centre[2], bool relax) {
    CoursePoint from = {c->start_x, c->start_y, c->start_z};
    if (c->n_rings) from = (CoursePoint){c->rings[c->n_rings - 1u].x, c->rings[c->n_rings - 1u].y, c->rings[c->n_rings - 1u].z};
    Pick picks[SKY_TRIES];
    uint32_t n = best_picks(wk, w, c, &from, ahead, centre, relax, picks);
    for (uint32_t t = 0; t < n && !course_work_stopped(wk); t++) {
        SkyCandidate *k = &wk->cand[picks[t].index];
        CourseRing *r = &c->rings[c->n_rings];
        memset(r, 0, sizeof *r);
        r->x = k->x, r->y = k->y, r->z = k->z;
        r->nx = picks[t].n[0], r->ny = picks[t].n[1], r->nz = picks[t].n[2];
        r->radius = SKY_RADIUS;
        r->kind = picks[t].kind;
        r->site = -1;
        k->used = 1;   /* tried: never again, whether it is laid or not */
        if (!course_ring_clear(w, r) || !course_append_leg(wk, w, c, c->n_rings)) continue;
        if (!course_leg_flyable(c, c->n_rings)) {
            c->n_points = r->first_point;   /* connected, but too steep or twisting for a course */
            continue;
        }
        snprintf(r->name, sizeof r->name, "%s %u", course_ring_kind_name((RingKind)r->kind), c->n_rings + 1u);
        r->name[0] = (char)(r->name[0] - 'a' + 'A');
        for (int i = 0; i < 3; i++) ahead[i] = picks[t].n[i];
        c->n_rings++;
        c->kinds |= 1u << r->kind;
        c->kind_count[r->kind]++;
        return true;
    }
    return false;
}

/* The start: the open spot nearest a point off the home island's coast, facing its centre. */
static void choose_start(CourseWork *wk, Course *c, double cx, double cz, double radius) {
    double sx = cx, sy = 120.0, sz = cz + radius + 60.0, best = 1e30;
    uint32_t pick = 0;
    for (uint32_t i = 0; i < wk->n_cand; i++) {
        const SkyCandidate *k = &wk->cand[i];
        double d = (k->x - sx) * (k->x - sx) + (k->y - sy) * (k->y - sy) + (k->z - sz) * (k->z - sz);
        if (d < best) best = d, pick = i;
    }
    c->start_x = wk->cand[pick].x, c->start_y = wk->cand[pick].y, c->start_z = wk->cand[pick].z;
    wk->cand[pick].used = 1;
}

/* Given up (course_work_stop_when): no course. */
static bool stopped(Course *c, SkyError *err) {
    sky_error_set(err, SKY_ERR_INPUT, "sky course for seed %llu: stopped", (unsigned long long)c->seed);
    c->n_rings = 0;
    c->id[0] = 0;
    return false;
}

bool course_lay_sky(Course *c, const World *w, uint32_t rings, CourseWork *wk, SkyError *err) {
    memset(c, 0, sizeof *c);
    const IslandField *f = world_home(w);
    double cx = f && f->size ? f->centre_x : 0.0, cz = f && f->size ? f->centre_z : 0.0;
    double radius = f && f->size ? f->radius_m : 0.0;
    if (rings < COURSE_SKY_MIN) rings = COURSE_SKY_MIN;
    if (rings > COURSE_SKY_MAX) rings = COURSE_SKY_MAX;
    c->kind = COURSE_SKY;
    c->seed = world_params(w)->gen.seed;
    air_cache_reset(wk, w, true);
    gather_candidates(wk, w, cx, cz, c->seed);
    if (course_work_stopped(wk)) return stopped(c, err);
    if (wk->n_cand == 0) {
        sky_error_set(err, SKY_ERR_INPUT, "sky course for seed %llu: no open air around the home island: try another seed",
                      (unsigned long long)c->seed);
        return false;
    }
    choose_start(wk, c, cx, cz, radius);
    /* The start lies south (+z) of the centre: anticlockwise from above heads east (+x). */
    float ahead[3] = {1.0f, 0.0f, 0.0f};
    double centre[2] = {cx, cz};
    /* Where the lap's rules find no next ring, the relaxed ones (sharper turns, any step round). */
    while (c->n_rings < rings &&
           (lay_next_ring(wk, w, c, ahead, centre, false) || lay_next_ring(wk, w, c, ahead, centre, true))) {}
    if (course_work_stopped(wk)) return stopped(c, err);
    if (c->n_rings < COURSE_SKY_MIN) {
        sky_error_set(err, SKY_ERR_INPUT,
                      "sky course for seed %llu: only %u rings could be joined through air (at least %u needed): try another "
                      "seed or fewer floating islands",
                      (unsigned long long)c->seed, c->n_rings, COURSE_SKY_MIN);
        return false;
    }
    const CourseRing *first = &c->rings[0];
    c->start_yaw = sm_atan2((float)(first->x - c->start_x), (float)-(first->z - c->start_z));
    course_count_kinds(c);
    course_make_id(c, "sky", rings, world_params(w));
    return true;
}
