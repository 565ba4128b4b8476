/* skyisles course: what every course shares: ring kinds, the clearance test of a ring, the
 * crossing of a ring's disc by the aircraft's swept motion, legs, and the hashes that name a
 * course (its id) and prove it is the same on every platform. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "course/course_int.h"

const char *course_ring_kind_name(RingKind k) {
    static const char *names[RING_KIND_COUNT] = {"place", "open", "overhang", "gap", "cloud", "tunnel"};
    return (unsigned)k < RING_KIND_COUNT ? names[k] : "unknown";
}

/* Two unit vectors across the ring's plane. */
static void ring_basis(const CourseRing *r, double u[3], double v[3]) {
    double n[3] = {r->nx, r->ny, r->nz};
    double a[3] = {0.0, 1.0, 0.0};
    if (fabs(n[1]) > 0.9) a[0] = 1.0, a[1] = 0.0;
    u[0] = n[1] * a[2] - n[2] * a[1];
    u[1] = n[2] * a[0] - n[0] * a[2];
    u[2] = n[0] * a[1] - n[1] * a[0];
    double l = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int i = 0; i < 3; i++) u[i] /= l;
    v[0] = n[1] * u[2] - n[2] * u[1];
    v[1] = n[2] * u[0] - n[0] * u[2];
    v[2] = n[0] * u[1] - n[1] * u[0];
}

bool course_ring_clear(const World *w, const CourseRing *r) {
    double u[3], v[3];
    ring_basis(r, u, v);
    double big = (double)r->radius + COURSE_RING_CLEAR;
    int steps = (int)ceil(big / 2.0);
    for (int b = -steps; b <= steps; b++)
        for (int a = -steps; a <= steps; a++) {
            double da = 2.0 * a, db = 2.0 * b;
            if (da * da + db * db > big * big) continue;
            if (world_solid_at(w, r->x + u[0] * da + v[0] * db, r->y + u[1] * da + v[1] * db, r->z + u[2] * da + v[2] * db))
                return false;
        }
    /* Trees, boulders and landmarks are solid too (the collision's own test of them). */
    if (!sim_clear_of_objects(w, r->x, r->y, r->z, big)) return false;
    CoursePoint in = {r->x - r->nx * COURSE_APPROACH, r->y - r->ny * COURSE_APPROACH, r->z - r->nz * COURSE_APPROACH};
    CoursePoint out = {r->x + r->nx * COURSE_APPROACH, r->y + r->ny * COURSE_APPROACH, r->z + r->nz * COURSE_APPROACH};
    return course_segment_open(w, &in, &out);
}

bool course_ring_crossed(const CourseRing *r, double x0, double y0, double z0, double x1, double y1, double z1) {
    double n[3] = {r->nx, r->ny, r->nz};
    double d0 = (x0 - r->x) * n[0] + (y0 - r->y) * n[1] + (z0 - r->z) * n[2];
    double d1 = (x1 - r->x) * n[0] + (y1 - r->y) * n[1] + (z1 - r->z) * n[2];
    /* A crossing: the plane lies between the two ends (touching it at the end of a step counts,
     * at its start not, so one crossing is never counted twice). */
    if (!((d0 < 0.0 && d1 >= 0.0) || (d0 > 0.0 && d1 <= 0.0))) return false;
    double t = d0 / (d0 - d1);
    double qx = x0 + (x1 - x0) * t - r->x, qy = y0 + (y1 - y0) * t - r->y, qz = z0 + (z1 - z0) * t - r->z;
    double inner = (double)r->radius - SIM_HIT_RADIUS;
    return qx * qx + qy * qy + qz * qz <= inner * inner;
}

void course_ring_normal(CourseRing *r, const CoursePoint *from, const CoursePoint *to) {
    double dx = to->x - from->x, dy = to->y - from->y, dz = to->z - from->z;
    double l = sqrt(dx * dx + dy * dy + dz * dz);
    if (!(l > 1e-6)) dx = 0.0, dy = 0.0, dz = -1.0, l = 1.0;
    r->nx = (float)(dx / l);
    r->ny = (float)(dy / l);
    r->nz = (float)(dz / l);
}

void course_count_kinds(Course *c) {
    c->kinds = 0;
    memset(c->kind_count, 0, sizeof c->kind_count);
    for (uint32_t i = 0; i < c->n_rings; i++) {
        c->kinds |= 1u << c->rings[i].kind;
        c->kind_count[c->rings[i].kind]++;
    }
}

static uint64_t fnv_double(uint64_t h, double v) {
    if (v == 0.0) v = 0.0;   /* -0 and +0 are the same place */
    return hash_fnv1a64(&v, sizeof v, h);
}

uint64_t course_hash(const Course *c) {
    uint64_t h = hash_fnv1a64(&c->kind, 1, 0);
    h = hash_fnv1a64(&c->seed, sizeof c->seed, h);
    h = fnv_double(fnv_double(fnv_double(h, c->start_x), c->start_y), c->start_z);
    for (uint32_t i = 0; i < c->n_rings; i++) {
        const CourseRing *r = &c->rings[i];
        h = fnv_double(fnv_double(fnv_double(h, r->x), r->y), r->z);
        h = fnv_double(fnv_double(fnv_double(h, r->nx), r->ny), r->nz);
        h = fnv_double(h, r->radius);
        h = hash_fnv1a64(&r->kind, 1, h);
        h = hash_fnv1a64(r->name, strlen(r->name), h);
        h = hash_fnv1a64(&r->n_points, sizeof r->n_points, h);
    }
    for (uint32_t i = 0; i < c->n_points; i++)
        h = fnv_double(fnv_double(fnv_double(h, c->points[i].x), c->points[i].y), c->points[i].z);
    return h;
}

uint64_t course_params_hash(const WorldParams *p) {
    uint64_t h = 0;
    for (size_t i = 0; i < world_param_count(); i++) {
        const WorldParamDesc *d = world_param_at(i);
        if (d->cls != WORLD_PARAM_GEN) continue;
        h = fnv_double(hash_fnv1a64(d->name, strlen(d->name), h), world_param_get(p, d));
    }
    return h;
}

/* Appends leg k: from the previous ring's centre (the start for the first) through air to ring
 * k's approach, then its centre. False (points unchanged) when no air joins them. */
bool course_append_leg(CourseWork *wk, const World *w, Course *c, uint32_t k) {
    CourseRing *r = &c->rings[k];
    uint32_t keep = c->n_points;
    CoursePoint from = {c->start_x, c->start_y, c->start_z};
    if (k > 0) from = (CoursePoint){c->rings[k - 1u].x, c->rings[k - 1u].y, c->rings[k - 1u].z};
    CoursePoint entry = {r->x - r->nx * COURSE_APPROACH, r->y - r->ny * COURSE_APPROACH, r->z - r->nz * COURSE_APPROACH};
    CoursePoint centre = {r->x, r->y, r->z};
    if (!air_path_append(wk, w, c, &from, &entry) || c->n_points >= COURSE_MAX_POINTS) {
        c->n_points = keep;
        return false;
    }
    c->points[c->n_points++] = centre;
    r->first_point = keep;
    r->n_points = c->n_points - keep;
    return true;
}

/* A leg the aircraft can fly: no piece steeper than COURSE_MAX_SLOPE (a little over for the
 * lattice's own steps), no bend sharper than 60 degrees between pieces. */
bool course_leg_flyable(const Course *c, uint32_t k) {
    const CourseRing *r = &c->rings[k];
    CoursePoint prev = {c->start_x, c->start_y, c->start_z};
    if (k > 0) prev = (CoursePoint){c->rings[k - 1u].x, c->rings[k - 1u].y, c->rings[k - 1u].z};
    double last[3] = {0.0, 0.0, 0.0};
    for (uint32_t i = 0; i < r->n_points; i++) {
        const CoursePoint *q = &c->points[r->first_point + i];
        double d[3] = {q->x - prev.x, q->y - prev.y, q->z - prev.z};
        double flat2 = d[0] * d[0] + d[2] * d[2], l = sqrt(flat2 + d[1] * d[1]);
        if (l < 1e-6) continue;
        if (d[1] * d[1] > 0.5 * flat2 + 1.0) return false;   /* slope over 0.7 */
        for (int j = 0; j < 3; j++) d[j] /= l;
        if (i > 0 && d[0] * last[0] + d[1] * last[1] + d[2] * last[2] < 0.5) return false;
        for (int j = 0; j < 3; j++) last[j] = d[j];
        prev = *q;
    }
    return true;
}

void course_make_id(Course *c, const char *what, uint64_t extra, const WorldParams *p) {
    uint64_t h = course_params_hash(p) ^ (extra * 0x9e3779b97f4a7c15ull);
    snprintf(c->id, sizeof c->id, "%s-%llx-%08x", what, (unsigned long long)c->seed, (unsigned)(h ^ (h >> 32)));
}

bool course_verify(const Course *c, const World *w, SkyError *err) {
    uint32_t kinds = 0;
    for (uint32_t i = 0; i < c->n_rings; i++) {
        const CourseRing *r = &c->rings[i];
        kinds |= 1u << r->kind;
        if (!course_ring_clear(w, r)) {
            sky_error_set(err, SKY_ERR_INPUT, "course %s: ring %u (%s) has rock within its clearance", c->id, i + 1u, r->name);
            return false;
        }
        CoursePoint prev = {c->start_x, c->start_y, c->start_z};
        if (i) prev = (CoursePoint){c->rings[i - 1u].x, c->rings[i - 1u].y, c->rings[i - 1u].z};
        for (uint32_t k = 0; k < r->n_points; k++) {
            const CoursePoint *q = &c->points[r->first_point + k];
            if (!course_segment_open(w, &prev, q)) {
                sky_error_set(err, SKY_ERR_INPUT, "course %s: the leg to ring %u (%s) is not open air", c->id, i + 1u, r->name);
                return false;
            }
            prev = *q;
        }
        if (r->n_points == 0 || prev.x != r->x || prev.y != r->y || prev.z != r->z) {
            sky_error_set(err, SKY_ERR_INPUT, "course %s: the leg to ring %u (%s) does not end at it", c->id, i + 1u, r->name);
            return false;
        }
    }
    if (kinds != c->kinds) {
        sky_error_set(err, SKY_ERR_INPUT, "course %s: the kinds it reports are not the kinds of its rings", c->id);
        return false;
    }
    return true;
}

int course_kinds_text(const Course *c, char *buf, size_t n) {
    int len = 0;
    buf[0] = 0;
    for (int k = 0; k < RING_KIND_COUNT; k++) {
        if (!c->kind_count[k]) continue;
        int w = snprintf(buf + len, n - (size_t)len, "%s%s %u", len ? ", " : "", course_ring_kind_name((RingKind)k),
                         c->kind_count[k]);
        if (w < 0 || (size_t)(len + w) >= n) return len;
        len += w;
    }
    if (c->kind == COURSE_SKY)
        for (int k = RING_OPEN; k < RING_KIND_COUNT; k++) {
            if (c->kind_count[k]) continue;
            int w = snprintf(buf + len, n - (size_t)len, "; no %s", course_ring_kind_name((RingKind)k));
            if (w < 0 || (size_t)(len + w) >= n) return len;
            len += w;
        }
    return len;
}
