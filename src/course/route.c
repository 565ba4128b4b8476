/* skyisles course: the island tour's order. The shortest closed route from the base through
 * every place and back, on a full matrix of path-network distances: exact (Held-Karp dynamic
 * programming) for small islands, else nearest neighbour then 2-opt until no exchange shortens
 * it. Integer distances and fixed tie rules (lowest index wins), so every platform agrees. */
#include <string.h>

#include "course/course_int.h"

#define ROUTE_INF 0xffffffffu

static uint32_t add_sat(uint32_t a, uint32_t b) { return a > ROUTE_INF - b ? ROUTE_INF : a + b; }

/* Held-Karp over places 1..n-1 (bit p-1 of a subset is place p); place 0 is the base. */
static uint32_t route_exact(CourseWork *wk, uint32_t n, const uint32_t *dist, uint16_t *order) {
    uint32_t m = n - 1u, full = (1u << m) - 1u;
    uint32_t *dp = wk->dp;   /* dp[subset * m + last] */
    for (uint32_t s = 0; s <= full; s++)
        for (uint32_t l = 0; l < m; l++) dp[s * m + l] = ROUTE_INF;
    for (uint32_t l = 0; l < m; l++) dp[(1u << l) * m + l] = dist[0 * n + l + 1u];
    for (uint32_t s = 1; s <= full; s++)
        for (uint32_t l = 0; l < m; l++) {
            uint32_t here = dp[s * m + l];
            if (!(s >> l & 1u) || here == ROUTE_INF) continue;
            for (uint32_t x = 0; x < m; x++) {
                if (s >> x & 1u) continue;
                uint32_t t = s | 1u << x, v = add_sat(here, dist[(l + 1u) * n + x + 1u]);
                if (v < dp[t * m + x]) dp[t * m + x] = v;
            }
        }
    uint32_t best = ROUTE_INF, last = 0;
    for (uint32_t l = 0; l < m; l++) {
        uint32_t v = add_sat(dp[full * m + l], dist[(l + 1u) * n]);
        if (v < best) best = v, last = l;
    }
    /* Walk back: the predecessor whose cost plus the step gives the cell's cost (lowest first). */
    uint32_t s = full;
    for (uint32_t pos = n - 1u; pos >= 1u; pos--) {
        order[pos] = (uint16_t)(last + 1u);
        uint32_t prev_s = s & ~(1u << last);
        if (!prev_s) break;
        for (uint32_t p = 0; p < m; p++)
            if ((prev_s >> p & 1u) && dp[prev_s * m + p] != ROUTE_INF &&
                add_sat(dp[prev_s * m + p], dist[(p + 1u) * n + last + 1u]) == dp[s * m + last]) {
                last = p;
                break;
            }
        s = prev_s;
    }
    order[0] = 0;
    return best;
}

static uint32_t route_length(uint32_t n, const uint32_t *dist, const uint16_t *order) {
    uint32_t len = 0;
    for (uint32_t i = 0; i < n; i++) len = add_sat(len, dist[order[i] * n + order[(i + 1u) % n]]);
    return len;
}

static void route_nearest(uint32_t n, const uint32_t *dist, uint16_t *order) {
    uint8_t used[COURSE_MAX_RINGS] = {0};
    order[0] = 0;
    used[0] = 1;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t from = order[i - 1u], best = ROUTE_INF, pick = 0;
        for (uint32_t p = 1; p < n; p++)
            if (!used[p] && (dist[from * n + p] < best || pick == 0)) best = dist[from * n + p], pick = p;
        order[i] = (uint16_t)pick;
        used[pick] = 1;
    }
}

/* 2-opt: reverse order[i..j] whenever that shortens the closed route; first improvement in
 * index order, repeated until none is left (bounded, it always ends: every move shortens). */
static void route_two_opt(uint32_t n, const uint32_t *dist, uint16_t *order) {
    for (uint32_t pass = 0; pass < 1000u; pass++) {
        bool better = false;
        for (uint32_t i = 1; i + 1u < n; i++)
            for (uint32_t j = i + 1u; j < n; j++) {
                uint32_t a = order[i - 1u], b = order[i], c = order[j], d = order[(j + 1u) % n];
                uint64_t before = (uint64_t)dist[a * n + b] + dist[c * n + d];
                uint64_t after = (uint64_t)dist[a * n + c] + dist[b * n + d];
                if (after >= before) continue;
                for (uint32_t l = i, r = j; l < r; l++, r--) {
                    uint16_t t = order[l];
                    order[l] = order[r];
                    order[r] = t;
                }
                better = true;
            }
        if (!better) break;
    }
}

uint32_t route_shortest_closed(CourseWork *wk, uint32_t n, const uint32_t *dist, uint16_t *order, bool *exact) {
    if (n <= 1u) {
        order[0] = 0;
        *exact = true;
        return 0;
    }
    if (n <= COURSE_EXACT_PLACES) {
        *exact = true;
        return route_exact(wk, n, dist, order);
    }
    *exact = false;
    route_nearest(n, dist, order);
    route_two_opt(n, dist, order);
    return route_length(n, dist, order);
}
