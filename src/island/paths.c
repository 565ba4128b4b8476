/* skyisles island: the path network (I10): MST of the Delaunay edges, then restoration of edges
 * whose detour exceeds the factor (ascending length, ties by index, judged against the growing
 * graph), travel minutes, and the base -> farthest round trip against the daily budget (I14). */
#include "island/island_int.h"

#include <math.h>

typedef struct Graph {
    uint32_t n;
    uint8_t *deg;          /* n */
    uint16_t *nb;          /* n x n neighbour lists */
    double *w;             /* n x n weights, parallel to nb */
    double *dist;          /* n */
    uint8_t *done;         /* n */
} Graph;

static void graph_add(Graph *g, uint32_t a, uint32_t b, double w) {
    g->nb[a * g->n + g->deg[a]] = (uint16_t)b;
    g->w[a * g->n + g->deg[a]++] = w;
    g->nb[b * g->n + g->deg[b]] = (uint16_t)a;
    g->w[b * g->n + g->deg[b]++] = w;
}

/* Dijkstra from src (O(n^2) selection: n is small). Stops once dst is settled or every open
 * distance exceeds `limit`. Returns the distance to dst (INFINITY when above limit/unreached). */
static double shortest(Graph *g, uint32_t src, uint32_t dst, double limit) {
    for (uint32_t i = 0; i < g->n; i++) {
        g->dist[i] = INFINITY;
        g->done[i] = 0;
    }
    g->dist[src] = 0.0;
    for (;;) {
        uint32_t u = UINT32_MAX;
        double best = INFINITY;
        for (uint32_t i = 0; i < g->n; i++)
            if (!g->done[i] && g->dist[i] < best) {
                best = g->dist[i];
                u = i;
            }
        if (u == UINT32_MAX || best > limit) return dst < g->n ? g->dist[dst] : INFINITY;
        if (u == dst) return best;
        g->done[u] = 1;
        for (uint32_t k = 0; k < g->deg[u]; k++) {
            uint32_t v = g->nb[u * g->n + k];
            double nd = best + g->w[u * g->n + k];
            if (nd < g->dist[v]) g->dist[v] = nd;
        }
    }
}

static int64_t edge_len2(const Island *isl, const IslandEdge *e) {
    int64_t dx = (int64_t)isl->sites[e->a].gx - isl->sites[e->b].gx;
    int64_t dz = (int64_t)isl->sites[e->a].gz - isl->sites[e->b].gz;
    return dx * dx + dz * dz;
}

/* Ascending exact squared length, ties by (a, b): a total order, so every platform agrees.
 * Insertion sort on precomputed keys: a few hundred edges, and no global state for qsort. */
static void sort_by_length(const Island *isl, uint16_t *order, int64_t *key, uint32_t m) {
    for (uint32_t i = 0; i < m; i++) key[i] = edge_len2(isl, &isl->edges[i]);
    for (uint32_t i = 1; i < m; i++) {
        uint16_t x = order[i];
        uint32_t j = i;
        while (j > 0) {
            uint16_t y = order[j - 1];
            bool before = key[x] < key[y] ||
                          (key[x] == key[y] && (isl->edges[x].a < isl->edges[y].a ||
                                                (isl->edges[x].a == isl->edges[y].a && isl->edges[x].b < isl->edges[y].b)));
            if (!before) break;
            order[j] = y;
            j--;
        }
        order[j] = x;
    }
}

static uint32_t find(uint16_t *parent, uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

static uint32_t edge_minutes(const IslandCodex *cx, const IslandScope *s, const Island *isl, const IslandEdge *e) {
    double cost = (double)(cx->types[isl->sites[e->a].type].move_cost_milli +
                           cx->types[isl->sites[e->b].type].move_cost_milli) / 2000.0;
    int32_t m = isl_round((double)e->length_m / (double)s->walk_m_per_hour * 60.0 * cost);
    return m < 1 ? 1 : m > 65535 ? 65535 : (uint32_t)m;
}

bool isl_build_paths(Island *isl, const IslandCodex *cx, const IslandScope *s, MemArena *work, SkyError *err) {
    const uint32_t n = isl->n_sites, m = isl->n_edges;
    size_t mark = work->used;
    Graph g = {.n = n};
    g.deg = mem_arena_alloc(work, n, 8);
    g.nb = mem_arena_alloc(work, sizeof(uint16_t) * n * n, 8);
    g.w = mem_arena_alloc(work, sizeof(double) * n * n, 8);
    g.dist = mem_arena_alloc(work, sizeof(double) * n, 8);
    g.done = mem_arena_alloc(work, n, 8);
    uint16_t *order = mem_arena_alloc(work, sizeof(uint16_t) * m, 8);
    uint16_t *parent = mem_arena_alloc(work, sizeof(uint16_t) * n, 8);
    int64_t *key = mem_arena_alloc(work, sizeof(int64_t) * m, 8);
    if (!g.deg || !g.nb || !g.w || !g.dist || !g.done || !order || !parent || !key) {
        work->used = mark;
        sky_error_set(err, SKY_ERR_GENERATE, "island: work arena too small for the paths of %u sites (need island_work_bytes())", n);
        return false;
    }
    memset(g.deg, 0, n);
    const double m_per_unit = (double)isl->diameter_m * 0.5 / ISLAND_GRID_RADIUS;
    for (uint32_t i = 0; i < m; i++) {
        isl->edges[i].length_m = (float)(sqrt((double)edge_len2(isl, &isl->edges[i])) * m_per_unit);
        isl->edges[i].path = 0;
        order[i] = (uint16_t)i;
    }
    sort_by_length(isl, order, key, m);

    /* Kruskal. */
    for (uint32_t i = 0; i < n; i++) parent[i] = (uint16_t)i;
    for (uint32_t k = 0; k < m; k++) {
        IslandEdge *e = &isl->edges[order[k]];
        uint32_t ra = find(parent, e->a), rb = find(parent, e->b);
        if (ra == rb) continue;
        parent[ra] = (uint16_t)rb;
        e->path = 1;
        graph_add(&g, e->a, e->b, e->length_m);
    }
    /* Restoration: shortest candidates first, each judged on the graph as it stands. An edge not
     * restored had detour <= factor then, and adding edges only shortens detours, so the final
     * network has no Delaunay neighbours whose detour exceeds the factor. */
    const double factor = (double)s->detour_factor_milli / 1000.0;
    for (uint32_t k = 0; k < m; k++) {
        IslandEdge *e = &isl->edges[order[k]];
        if (e->path) continue;
        double limit = factor * (double)e->length_m;
        if (shortest(&g, e->a, e->b, limit) > limit) {
            e->path = 2;
            graph_add(&g, e->a, e->b, e->length_m);
        }
    }
    isl->n_paths = 0;
    for (uint32_t i = 0; i < m; i++)
        if (isl->edges[i].path) {
            isl->edges[i].minutes = (uint16_t)edge_minutes(cx, s, isl, &isl->edges[i]);
            isl->n_paths++;
        } else {
            isl->edges[i].minutes = 0;
        }

    /* The base: the first site of the scope's base type (site 0 when the type is absent). */
    isl->base = 0;
    for (uint32_t i = 0; i < n; i++)
        if (isl->sites[i].type == s->base_type) {
            isl->base = i;
            break;
        }
    memset(g.deg, 0, n);
    for (uint32_t i = 0; i < m; i++)
        if (isl->edges[i].path) graph_add(&g, isl->edges[i].a, isl->edges[i].b, isl->edges[i].minutes);
    shortest(&g, isl->base, UINT32_MAX, INFINITY);
    double far = 0.0;
    isl->farthest = isl->base;
    for (uint32_t i = 0; i < n; i++)
        if (g.dist[i] > far) {
            far = g.dist[i];
            isl->farthest = i;
        }
    work->used = mark;
    if (far == INFINITY) {
        sky_error_set(err, SKY_ERR_GENERATE, "island: the path network is not connected (seed %llu)", (unsigned long long)isl->seed);
        return false;
    }
    isl->round_trip_minutes = 2u * (uint32_t)far;
    isl->daily_budget_minutes = s->outdoor_minutes - s->gathering_minutes;
    return true;
}
