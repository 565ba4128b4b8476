/* Tests for the island Delaunay triangulation: exact predicates against 128-bit arithmetic, and
 * validity (empty circumcircles, 2n-2-h triangles, hull edges) on random, degenerate and island sets. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "island/island.h"

typedef __int128 i128;

static uint8_t g_arena_buf[1 << 20];
static IslandTri g_tris[4 * ISLAND_MAX_SITES];

static i128 ref_orient(IslandPoint a, IslandPoint b, IslandPoint c) {
    return (i128)((int64_t)b.x - a.x) * ((int64_t)c.z - a.z) - (i128)((int64_t)b.z - a.z) * ((int64_t)c.x - a.x);
}
/* Incircle from the 4x4 lifted determinant, independently of the library's formula. */
static i128 ref_incircle(IslandPoint a, IslandPoint b, IslandPoint c, IslandPoint d) {
    i128 ax = a.x - d.x, az = a.z - d.z, bx = b.x - d.x, bz = b.z - d.z, cx = c.x - d.x, cz = c.z - d.z;
    i128 al = ax * ax + az * az, bl = bx * bx + bz * bz, cl = cx * cx + cz * cz;
    return ax * (bz * cl - bl * cz) - az * (bx * cl - bl * cx) + al * (bx * cz - bz * cx);
}
static int sgn(i128 v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }
static int sgn64(int64_t v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }

static void test_predicates_exact(void **state) {
    (void)state;
    IslandPoint a = {0, 0}, b = {10, 0}, c = {10, 10}, d = {0, 10};
    assert_true(island_orient2d(a, b, c) > 0);
    assert_true(island_orient2d(a, c, b) < 0);
    assert_int_equal(island_incircle(a, b, c, d), 0);          /* cocircular square */
    assert_true(island_incircle(a, b, c, (IslandPoint){5, 5}) > 0);
    assert_true(island_incircle(a, b, c, (IslandPoint){20, 20}) < 0);
    Rng r;
    rng_seed(&r, 99, 1);
    const int L = ISLAND_GRID_LIMIT;
    for (int i = 0; i < 200000; i++) {
        IslandPoint p[4];
        for (int k = 0; k < 4; k++) {
            /* Half the draws at the extremes of the exact range, where overflow would show. */
            if (i & 1) p[k] = (IslandPoint){rng_range(&r, 0, 1) ? L : -L, rng_range(&r, -L, L)};
            else p[k] = (IslandPoint){rng_range(&r, -L, L), rng_range(&r, -L, L)};
            if (i % 7 == 0) p[k].x = p[k].x / 1000 * 1000, p[k].z = p[k].z / 1000 * 1000;   /* ties */
        }
        assert_int_equal(sgn64(island_orient2d(p[0], p[1], p[2])), sgn(ref_orient(p[0], p[1], p[2])));
        assert_int_equal(sgn64(island_incircle(p[0], p[1], p[2], p[3])), sgn(ref_incircle(p[0], p[1], p[2], p[3])));
    }
}

/* ---------------------------------------------------------------- validity */
static int cmp_pt_idx(const void *x, const void *y, const IslandPoint *p) {
    const IslandPoint a = p[*(const uint16_t *)x], b = p[*(const uint16_t *)y];
    if (a.x != b.x) return a.x < b.x ? -1 : 1;
    return a.z < b.z ? -1 : a.z > b.z;
}
static const IslandPoint *g_pts;
static int cmp_pt(const void *x, const void *y) { return cmp_pt_idx(x, y, g_pts); }

static bool has_edge(const IslandTri *t, uint32_t nt, uint16_t u, uint16_t v) {
    for (uint32_t i = 0; i < nt; i++)
        for (int e = 0; e < 3; e++) {
            uint16_t a = t[i].v[e], b = t[i].v[(e + 1) % 3];
            if ((a == u && b == v) || (a == v && b == u)) return true;
        }
    return false;
}

/* Validates a triangulation of pts from scratch; returns the hull point count. */
static uint32_t check_delaunay(const IslandPoint *pts, uint32_t n, const IslandTri *t, uint32_t nt) {
    /* Strict convex hull (monotone chain), then every point on a hull segment. */
    uint16_t idx[ISLAND_MAX_SITES * 4], hull[ISLAND_MAX_SITES * 4 + 2];
    for (uint32_t i = 0; i < n; i++) idx[i] = (uint16_t)i;
    g_pts = pts;
    qsort(idx, n, sizeof idx[0], cmp_pt);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        while (k >= 2 && ref_orient(pts[hull[k - 2]], pts[hull[k - 1]], pts[idx[i]]) <= 0) k--;
        hull[k++] = idx[i];
    }
    for (uint32_t i = n - 1, lo = k + 1; i-- > 0;) {
        while (k >= lo && ref_orient(pts[hull[k - 2]], pts[hull[k - 1]], pts[idx[i]]) <= 0) k--;
        hull[k++] = idx[i];
    }
    k--;   /* the first point closes the loop */
    uint32_t h = 0;
    uint8_t on_hull[ISLAND_MAX_SITES * 4] = {0};
    for (uint32_t s = 0; s < k; s++) {
        IslandPoint A = pts[hull[s]], B = pts[hull[(s + 1) % k]];
        /* Points on segment AB, ordered along it: consecutive ones must be triangulation edges. */
        uint16_t seg[ISLAND_MAX_SITES * 4];
        int64_t par[ISLAND_MAX_SITES * 4];
        uint32_t m = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (ref_orient(A, B, pts[i]) != 0) continue;
            int64_t tpar = ((int64_t)pts[i].x - A.x) * (B.x - A.x) + ((int64_t)pts[i].z - A.z) * (B.z - A.z);
            int64_t len2 = ((int64_t)B.x - A.x) * (B.x - A.x) + ((int64_t)B.z - A.z) * (B.z - A.z);
            if (tpar < 0 || tpar > len2) continue;
            uint32_t j = m++;
            while (j > 0 && par[j - 1] > tpar) seg[j] = seg[j - 1], par[j] = par[j - 1], j--;
            seg[j] = (uint16_t)i;
            par[j] = tpar;
        }
        for (uint32_t j = 0; j + 1 < m; j++) assert_true(has_edge(t, nt, seg[j], seg[j + 1]));
        for (uint32_t j = 0; j < m; j++)
            if (!on_hull[seg[j]]) on_hull[seg[j]] = 1, h++;
    }
    assert_int_equal(nt, 2 * n - 2 - h);
    for (uint32_t i = 0; i < nt; i++) {
        IslandPoint a = pts[t[i].v[0]], b = pts[t[i].v[1]], c = pts[t[i].v[2]];
        assert_true(ref_orient(a, b, c) > 0);                           /* ccw, not degenerate */
        for (uint32_t p = 0; p < n; p++) assert_true(ref_incircle(a, b, c, pts[p]) <= 0);   /* empty circle */
        /* Each directed edge once: no overlapping triangles. */
        for (int e = 0; e < 3; e++)
            for (uint32_t j = i + 1; j < nt; j++)
                for (int f = 0; f < 3; f++)
                    assert_false(t[i].v[e] == t[j].v[f] && t[i].v[(e + 1) % 3] == t[j].v[(f + 1) % 3]);
    }
    return h;
}

static uint32_t triangulate(const IslandPoint *pts, uint32_t n) {
    MemArena work;
    mem_arena_init_buffer(&work, g_arena_buf, sizeof g_arena_buf);
    SkyError err = {0};
    uint32_t nt = island_delaunay(pts, n, g_tris, 4 * ISLAND_MAX_SITES, &work, &err);
    if (!nt) print_error("delaunay failed: %s\n", err.msg);
    assert_true(nt > 0);
    assert_int_equal(work.used, 0);   /* work returned */
    return nt;
}

static void test_random_and_degenerate_sets(void **state) {
    (void)state;
    Rng r;
    rng_seed(&r, 5, 2);
    IslandPoint pts[ISLAND_MAX_SITES];
    for (int round = 0; round < 300; round++) {
        uint32_t n = 3 + rng_below(&r, ISLAND_MAX_SITES - 3), m = 0;
        int spread = round % 3 == 0 ? 6 : 10000;   /* a coarse lattice: collinear and cocircular everywhere */
        while (m < n) {
            IslandPoint p = {rng_range(&r, -spread, spread), rng_range(&r, -spread, spread)};
            if (round % 3 == 0) p.x *= 1000, p.z *= 1000;
            bool dup = false;
            for (uint32_t j = 0; j < m && !dup; j++) dup = pts[j].x == p.x && pts[j].z == p.z;
            if (!dup) pts[m++] = p;
        }
        bool all_collinear = true;
        for (uint32_t j = 2; j < n && all_collinear; j++) all_collinear = ref_orient(pts[0], pts[1], pts[j]) == 0;
        if (all_collinear) continue;
        check_delaunay(pts, n, g_tris, triangulate(pts, n));
    }
    /* A full 9x9 lattice: every square cocircular, 32 hull points collinear in fours. */
    uint32_t n = 0;
    for (int x = 0; x < 9; x++)
        for (int z = 0; z < 9; z++) pts[n++] = (IslandPoint){x * 1000 - 4000, z * 1000 - 4000};
    uint32_t h = check_delaunay(pts, n, g_tris, triangulate(pts, n));
    assert_int_equal(h, 32);
}

static void test_bad_inputs(void **state) {
    (void)state;
    MemArena work;
    mem_arena_init_buffer(&work, g_arena_buf, sizeof g_arena_buf);
    SkyError err = {0};
    IslandPoint line[4] = {{0, 0}, {1, 1}, {2, 2}, {5, 5}};
    assert_int_equal(island_delaunay(line, 4, g_tris, 16, &work, &err), 0);
    assert_non_null(strstr(err.msg, "on one line"));
    IslandPoint dup[4] = {{0, 0}, {100, 0}, {0, 100}, {100, 0}};
    assert_int_equal(island_delaunay(dup, 4, g_tris, 16, &work, &err), 0);
    assert_non_null(strstr(err.msg, "duplicates"));
    IslandPoint far[3] = {{0, 0}, {ISLAND_GRID_LIMIT + 1, 0}, {0, 5}};
    assert_int_equal(island_delaunay(far, 3, g_tris, 16, &work, &err), 0);
    assert_non_null(strstr(err.msg, "exact grid limit"));
    IslandPoint ok[4] = {{0, 0}, {100, 0}, {0, 100}, {100, 100}};
    MemArena tiny;
    static uint8_t tiny_buf[64];
    mem_arena_init_buffer(&tiny, tiny_buf, sizeof tiny_buf);
    assert_int_equal(island_delaunay(ok, 4, g_tris, 16, &tiny, &err), 0);
    assert_non_null(strstr(err.msg, "work arena too small"));
    assert_int_equal(island_delaunay(ok, 4, g_tris, 1, &work, &err), 0);
    assert_non_null(strstr(err.msg, "more than 1 triangles"));
    assert_int_equal(work.used, 0);
}

/* The Must-show property over 500 generated islands (default count) and 100 at 60 sites. */
static void test_islands_are_delaunay(void **state) {
    (void)state;
    static IslandCodex cx;
    static Island isl;
    size_t len = 0;
    const void *pak = island_pak_default(&len);
    SkyError err = {0};
    assert_true(island_pak_load(&cx, pak, len, &err));
    MemArena work;
    mem_arena_init_buffer(&work, g_arena_buf, sizeof g_arena_buf);
    IslandPoint pts[ISLAND_MAX_SITES];
    uint32_t hull_min = 1000, hull_max = 0;
    for (uint32_t s = 1; s <= 600; s++) {
        IslandParams p = {.seed = s, .site_count = s > 500 ? 60 : 0};
        assert_true(island_generate(&isl, &cx, &p, &work, &err));
        for (uint32_t i = 0; i < isl.n_sites; i++) pts[i] = (IslandPoint){isl.sites[i].gx, isl.sites[i].gz};
        uint32_t h = check_delaunay(pts, isl.n_sites, isl.tris, isl.n_tris);
        if (h < hull_min) hull_min = h;
        if (h > hull_max) hull_max = h;
        /* The edge list is exactly the triangulation's edges. */
        assert_int_equal(isl.n_edges, 3 * isl.n_sites - 3 - h);
        for (uint32_t e = 0; e < isl.n_edges; e++) assert_true(has_edge(isl.tris, isl.n_tris, isl.edges[e].a, isl.edges[e].b));
    }
    print_message("600 islands triangulated: hull sizes %u..%u\n", hull_min, hull_max);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_predicates_exact),
        cmocka_unit_test(test_random_and_degenerate_sets),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_islands_are_delaunay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
