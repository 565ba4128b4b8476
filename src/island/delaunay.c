/* skyisles island: Delaunay triangulation by Bowyer-Watson insertion with a ghost vertex for the
 * hull and exact int64 predicates (docs/island.md: why the bounds hold). Sites are few (<= 128),
 * so conflicts are found by scanning every triangle: O(n^2), simple and obviously complete. */
#include "island/island_int.h"

#include <stdlib.h>

#define GHOST 0xffffu

int64_t island_orient2d(IslandPoint a, IslandPoint b, IslandPoint c) {
    int64_t abx = (int64_t)b.x - a.x, abz = (int64_t)b.z - a.z;
    int64_t acx = (int64_t)c.x - a.x, acz = (int64_t)c.z - a.z;
    return abx * acz - abz * acx;
}

/* |coords| <= L gives |differences| <= 2L, lifts and cross terms <= 8L^2, each product <= 64L^4,
 * the sum <= 192L^4: below 2^63 for L = ISLAND_GRID_LIMIT (14000). */
int64_t island_incircle(IslandPoint a, IslandPoint b, IslandPoint c, IslandPoint d) {
    int64_t adx = (int64_t)a.x - d.x, adz = (int64_t)a.z - d.z;
    int64_t bdx = (int64_t)b.x - d.x, bdz = (int64_t)b.z - d.z;
    int64_t cdx = (int64_t)c.x - d.x, cdz = (int64_t)c.z - d.z;
    int64_t alift = adx * adx + adz * adz, blift = bdx * bdx + bdz * bdz, clift = cdx * cdx + cdz * cdz;
    return alift * (bdx * cdz - cdx * bdz) + blift * (cdx * adz - adx * cdz) + clift * (adx * bdz - bdx * adz);
}

typedef struct Tri { uint16_t v[3]; uint8_t alive; } Tri;

typedef struct Dt {
    const IslandPoint *p;
    Tri *t;
    uint32_t n_t, cap;
    uint32_t *conflict;
    uint16_t (*boundary)[2];
} Dt;

/* Is p inside the open circumcircle? A ghost triangle (a, b, GHOST) has the open half-plane left
 * of a->b (outside the hull) plus the open segment ab as its "circle". */
static bool in_conflict(const Dt *d, const Tri *t, IslandPoint p) {
    IslandPoint a = d->p[t->v[0]], b = d->p[t->v[1]];
    if (t->v[2] != GHOST) return island_incircle(a, b, d->p[t->v[2]], p) > 0;
    int64_t o = island_orient2d(a, b, p);
    if (o != 0) return o > 0;
    int64_t dot_a = ((int64_t)p.x - a.x) * ((int64_t)b.x - a.x) + ((int64_t)p.z - a.z) * ((int64_t)b.z - a.z);
    int64_t dot_b = ((int64_t)p.x - b.x) * ((int64_t)a.x - b.x) + ((int64_t)p.z - b.z) * ((int64_t)a.z - b.z);
    return dot_a > 0 && dot_b > 0;
}

static bool add_tri(Dt *d, uint16_t a, uint16_t b, uint16_t c) {
    /* Keep the ghost last; rotation keeps the orientation. */
    if (a == GHOST) { uint16_t x = a; a = b; b = c; c = x; }
    else if (b == GHOST) { uint16_t x = c; c = b; b = a; a = x; }
    for (uint32_t i = 0; i < d->n_t; i++)
        if (!d->t[i].alive) {
            d->t[i] = (Tri){{a, b, c}, 1};
            return true;
        }
    if (d->n_t >= d->cap) return false;
    d->t[d->n_t++] = (Tri){{a, b, c}, 1};
    return true;
}

static bool insert(Dt *d, uint16_t pi, SkyError *err) {
    IslandPoint p = d->p[pi];
    uint32_t nc = 0;
    for (uint32_t i = 0; i < d->n_t; i++)
        if (d->t[i].alive && in_conflict(d, &d->t[i], p)) d->conflict[nc++] = i;
    if (nc == 0) {
        sky_error_set(err, SKY_ERR_GENERATE, "island: site %u (%d, %d) duplicates another site", pi, p.x, p.z);
        return false;
    }
    /* The cavity's boundary: edges of conflict triangles whose twin is not in conflict. */
    uint32_t nb = 0;
    for (uint32_t i = 0; i < nc; i++) {
        const Tri *t = &d->t[d->conflict[i]];
        for (int e = 0; e < 3; e++) {
            uint16_t u = t->v[e], v = t->v[(e + 1) % 3];
            bool shared = false;
            for (uint32_t j = 0; j < nc && !shared; j++) {
                const Tri *s = &d->t[d->conflict[j]];
                for (int f = 0; f < 3 && !shared; f++) shared = s->v[f] == v && s->v[(f + 1) % 3] == u;
            }
            if (!shared) {
                d->boundary[nb][0] = u;
                d->boundary[nb][1] = v;
                nb++;
            }
        }
    }
    for (uint32_t i = 0; i < nc; i++) d->t[d->conflict[i]].alive = 0;
    for (uint32_t i = 0; i < nb; i++)
        if (!add_tri(d, d->boundary[i][0], d->boundary[i][1], pi)) {
            sky_error_set(err, SKY_ERR_GENERATE, "island: Delaunay triangle store full at site %u", pi);
            return false;
        }
    return true;
}

static int cmp_tri(const void *x, const void *y) {
    const IslandTri *a = x, *b = y;
    for (int i = 0; i < 3; i++)
        if (a->v[i] != b->v[i]) return a->v[i] < b->v[i] ? -1 : 1;
    return 0;
}

uint32_t island_delaunay(const IslandPoint *pts, uint32_t n, IslandTri *tris, uint32_t cap, MemArena *work,
                         SkyError *err) {
    if (n < 3 || n >= GHOST) {
        sky_error_set(err, SKY_ERR_GENERATE, "island: %u sites cannot be triangulated (need 3..%u)", n, GHOST - 1);
        return 0;
    }
    for (uint32_t i = 0; i < n; i++)
        if (pts[i].x < -ISLAND_GRID_LIMIT || pts[i].x > ISLAND_GRID_LIMIT || pts[i].z < -ISLAND_GRID_LIMIT ||
            pts[i].z > ISLAND_GRID_LIMIT) {
            sky_error_set(err, SKY_ERR_GENERATE, "island: site %u (%d, %d) lies beyond the exact grid limit %d", i, pts[i].x, pts[i].z,
                          ISLAND_GRID_LIMIT);
            return 0;
        }
    size_t mark = work->used;
    Dt d = {.p = pts, .cap = 4 * n + 16};
    d.t = mem_arena_alloc(work, sizeof(Tri) * d.cap, 8);
    d.conflict = mem_arena_alloc(work, sizeof(uint32_t) * d.cap, 8);
    d.boundary = mem_arena_alloc(work, sizeof(uint16_t[2]) * (d.cap + 3), 8);
    if (!d.t || !d.conflict || !d.boundary) {
        work->used = mark;
        sky_error_set(err, SKY_ERR_GENERATE, "island: work arena too small for the triangulation of %u sites", n);
        return 0;
    }
    /* Seed triangle: site 0, the first site elsewhere, the first one off their line. */
    uint32_t b = 1, c;
    while (b < n && pts[b].x == pts[0].x && pts[b].z == pts[0].z) b++;
    for (c = b + 1; c < n && island_orient2d(pts[0], pts[b], pts[c]) == 0; c++) {}
    if (c >= n) {
        work->used = mark;
        sky_error_set(err, SKY_ERR_GENERATE, "island: all %u sites lie on one line", n);
        return 0;
    }
    uint16_t v0 = 0, v1 = (uint16_t)b, v2 = (uint16_t)c;
    if (island_orient2d(pts[v0], pts[v1], pts[v2]) < 0) { uint16_t x = v1; v1 = v2; v2 = x; }
    add_tri(&d, v0, v1, v2);
    add_tri(&d, v1, v0, GHOST);
    add_tri(&d, v2, v1, GHOST);
    add_tri(&d, v0, v2, GHOST);
    for (uint32_t i = 1; i < n; i++) {
        if (i == b || i == c) continue;
        if (!insert(&d, (uint16_t)i, err)) {
            work->used = mark;
            return 0;
        }
    }
    uint32_t count = 0, hull = 0;
    for (uint32_t i = 0; i < d.n_t; i++) {
        if (!d.t[i].alive) continue;
        if (d.t[i].v[2] == GHOST) { hull++; continue; }
        if (count >= cap) {
            work->used = mark;
            sky_error_set(err, SKY_ERR_GENERATE, "island: more than %u triangles", cap);
            return 0;
        }
        /* Canonical: smallest index first (a rotation), then sorted: insertion order does not show. */
        const uint16_t *v = d.t[i].v;
        int r = v[0] < v[1] ? (v[0] < v[2] ? 0 : 2) : (v[1] < v[2] ? 1 : 2);
        for (int k = 0; k < 3; k++) tris[count].v[k] = v[(r + k) % 3];
        count++;
    }
    work->used = mark;
    if (count != 2 * n - 2 - hull) {
        sky_error_set(err, SKY_ERR_GENERATE, "island: triangulation has %u triangles, expected 2n-2-h = %u", count, 2 * n - 2 - hull);
        return 0;
    }
    qsort(tris, count, sizeof tris[0], cmp_tri);
    return count;
}

static int cmp_edge(const void *x, const void *y) {
    const IslandEdge *a = x, *b = y;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : a->b > b->b;
}

bool isl_triangulate(Island *isl, MemArena *work, SkyError *err) {
    IslandPoint pts[ISLAND_MAX_SITES];
    for (uint32_t i = 0; i < isl->n_sites; i++) pts[i] = (IslandPoint){isl->sites[i].gx, isl->sites[i].gz};
    isl->n_tris = island_delaunay(pts, isl->n_sites, isl->tris, ISLAND_MAX_TRIS, work, err);
    if (!isl->n_tris) return false;
    /* Every edge once: from each triangle the edges whose first index is the smaller, plus hull
     * edges (no twin) in the other direction; simplest is collect all, sort, drop repeats. */
    IslandEdge all[3 * ISLAND_MAX_TRIS];
    uint32_t m = 0;
    for (uint32_t t = 0; t < isl->n_tris; t++)
        for (int e = 0; e < 3; e++) {
            uint16_t u = isl->tris[t].v[e], v = isl->tris[t].v[(e + 1) % 3];
            all[m++] = (IslandEdge){.a = u < v ? u : v, .b = u < v ? v : u};
        }
    qsort(all, m, sizeof all[0], cmp_edge);
    isl->n_edges = 0;
    for (uint32_t i = 0; i < m; i++)
        if (i == 0 || cmp_edge(&all[i], &all[i - 1]) != 0) {
            if (isl->n_edges >= ISLAND_MAX_EDGES) {
                sky_error_set(err, SKY_ERR_GENERATE, "island: more than %d Delaunay edges", ISLAND_MAX_EDGES);
                return false;
            }
            isl->edges[isl->n_edges++] = all[i];
        }
    return true;
}
