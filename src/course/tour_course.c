/* skyisles course: laying the island tour. A ring floats over every named place of an island
 * (the home island or one of the archipelago's), above its landmark; the order is the shortest
 * closed route from the base along the island's path network (route.c), the base's ring closing
 * it; each leg is searched through air. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "course/course_int.h"
#include "sim/simmath.h"

#define TOUR_RADIUS 9.0f
#define TOUR_LIFTS 10               /* 6 m raises tried when a floating island hangs over a place */
#define PATH_INF 0xffffffffu

static uint32_t isqrt64(uint64_t v) {
    uint64_t r = 0, bit = 1ull << 62;
    while (bit > v) bit >>= 2;
    while (bit) {
        if (v >= r + bit) v -= r + bit, r = (r >> 1) + bit;
        else r >>= 1;
        bit >>= 2;
    }
    return (uint32_t)r;
}

/* Distances between sites along the path network (Dijkstra from each, grid units: integers
 * from the integer site grid, so every platform agrees). False when a site is off the network. */
static bool path_distances(const Island *isl, uint32_t *dist) {
    uint32_t n = isl->n_sites;
    for (uint32_t src = 0; src < n; src++) {
        uint32_t *d = &dist[src * n];
        uint8_t done[ISLAND_MAX_SITES] = {0};
        for (uint32_t i = 0; i < n; i++) d[i] = PATH_INF;
        d[src] = 0;
        for (uint32_t round = 0; round < n; round++) {
            uint32_t u = PATH_INF, best = PATH_INF;
            for (uint32_t i = 0; i < n; i++)
                if (!done[i] && d[i] < best) best = d[i], u = i;
            if (u == PATH_INF) return false;
            done[u] = 1;
            for (uint32_t e = 0; e < isl->n_edges; e++) {
                const IslandEdge *ed = &isl->edges[e];
                if (!ed->path || (ed->a != u && ed->b != u)) continue;
                uint32_t v = ed->a == u ? ed->b : ed->a;
                int64_t dx = isl->sites[ed->a].gx - isl->sites[ed->b].gx, dz = isl->sites[ed->a].gz - isl->sites[ed->b].gz;
                uint32_t len = isqrt64((uint64_t)(dx * dx + dz * dz));
                if (d[u] + len < d[v]) d[v] = d[u] + len;
            }
        }
    }
    return true;
}

/* Highest solid block top within 4 m of the column (a landmark's ground). */
static double ground_top(const World *w, double x, double z) {
    static const double offs[5][2] = {{0, 0}, {4, 0}, {-4, 0}, {0, 4}, {0, -4}};
    double top = (double)WORLD_Y_MIN;
    int32_t ymax = world_params(w)->gen.gen_y_max;
    for (int k = 0; k < 5; k++)
        for (int32_t y = ymax - 1; y > WORLD_Y_MIN; y--)
            if (world_solid_at(w, x + offs[k][0], (double)y + 0.5, z + offs[k][1])) {
                if ((double)y + 1.0 > top) top = (double)y + 1.0;
                break;
            }
    return top;
}

/* Ring i of the course at site `site`, floating over its landmark. */
static void place_ring(Course *c, uint32_t i, const World *w, const CourseIsland *at, const IslandCodex *cx,
                       const char *lang, uint32_t site) {
    CourseRing *r = &c->rings[i];
    memset(r, 0, sizeof *r);
    course_island_site(at, site, &r->x, &r->z);
    r->y = ground_top(w, r->x, r->z) + (double)WORLD_HOME_HEADROOM + (double)TOUR_RADIUS + COURSE_RING_CLEAR;
    r->radius = TOUR_RADIUS;
    r->kind = RING_PLACE;
    r->site = (int16_t)site;
    island_site_display_name(at->isl, cx, site, lang, r->name, sizeof r->name);
}

/* Each ring faces the way the tour arrives: level, from the previous ring (the base, where the
 * tour starts, for the first); each is raised until it has its clearance. False naming the
 * place when it cannot get it. */
static bool orient_rings(Course *c, const World *w, SkyError *err) {
    uint32_t n = c->n_rings;
    for (uint32_t i = 0; i < n; i++) {
        CourseRing *r = &c->rings[i];
        const CourseRing *p = &c->rings[(i + n - 1u) % n];
        CoursePoint a = {p->x, 0.0, p->z}, b = {r->x, 0.0, r->z};
        course_ring_normal(r, &a, &b);
        r->ny = 0.0f;
        int lift = 0;
        while (!course_ring_clear(w, r) && lift++ < TOUR_LIFTS) r->y += 6.0;
        if (lift > TOUR_LIFTS) {
            sky_error_set(err, SKY_ERR_INPUT,
                          "island tour: no clear air over %s for its ring (rock overhead up to %.0f m): try another seed",
                          r->name, r->y);
            return false;
        }
    }
    return true;
}

/* The tour starts at the base's ring heading for the first place; each leg through air. */
static bool lay_tour_legs(Course *c, const World *w, CourseWork *wk, SkyError *err) {
    const CourseRing *base = &c->rings[c->n_rings - 1u], *first = &c->rings[0];
    c->start_x = base->x;
    c->start_y = base->y;
    c->start_z = base->z;
    c->start_yaw = sm_atan2((float)(first->x - base->x), (float)-(first->z - base->z));
    c->n_points = 0;
    for (uint32_t k = 0; k < c->n_rings; k++) {
        if (course_work_stopped(wk)) {
            sky_error_set(err, SKY_ERR_INPUT, "island tour: stopped");
            return false;
        }
        if (!course_append_leg(wk, w, c, k)) {
            sky_error_set(err, SKY_ERR_INPUT,
                          "island tour: no way through the air from %s to %s: try another seed or fewer floating islands",
                          k ? c->rings[k - 1u].name : c->rings[c->n_rings - 1u].name, c->rings[k].name);
            return false;
        }
    }
    return true;
}

bool course_lay_tour(Course *c, const World *w, const CourseIsland *at, const IslandCodex *cx, const char *lang,
                     CourseWork *wk, SkyError *err) {
    const Island *isl = at ? at->isl : NULL;
    const IslandField *f = at ? at->field : NULL;
    memset(c, 0, sizeof *c);
    if (!f || !isl || isl->n_sites < 2 || isl->n_sites > COURSE_MAX_RINGS || isl->base >= isl->n_sites) {
        sky_error_set(err, SKY_ERR_INPUT, "island tour: this world has no home island with places: fly a sky course instead");
        return false;
    }
    uint32_t n = isl->n_sites;
    /* Places: the base first, then every other site in index order. */
    uint16_t place[COURSE_MAX_RINGS], order[COURSE_MAX_RINGS];
    place[0] = (uint16_t)isl->base;
    for (uint32_t i = 0, k = 1; i < n; i++)
        if (i != isl->base) place[k++] = (uint16_t)i;
    if (!path_distances(isl, wk->dist)) {
        sky_error_set(err, SKY_ERR_INPUT, "island tour: a place of the island is off its path network: the pack's island is damaged");
        return false;
    }
    uint32_t *pd = wk->dist + (size_t)n * n;   /* the matrix in place order, after the site matrix */
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) pd[i * n + j] = wk->dist[place[i] * n + place[j]];
    bool exact = false;
    uint32_t len = route_shortest_closed(wk, n, pd, order, &exact);
    c->kind = COURSE_TOUR;
    c->seed = world_params(w)->gen.seed;
    c->route_exact = exact ? 1 : 0;
    c->route_metres = (uint32_t)((double)len * (double)f->radius_m / (double)ISLAND_GRID_RADIUS + 0.5);
    c->n_rings = n;
    for (uint32_t i = 1; i < n; i++) place_ring(c, i - 1u, w, at, cx, lang, place[order[i]]);
    place_ring(c, n - 1u, w, at, cx, lang, isl->base);
    if (!orient_rings(c, w, err) || !lay_tour_legs(c, w, wk, err)) return false;
    course_count_kinds(c);
    course_make_id(c, "tour", island_hash(isl), world_params(w));
    return true;
}
