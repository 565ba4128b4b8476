/* skyisles tests: the islands seen (src/game/seen.c): a flight east at 1000 m/s over several
 * islands records each once, in the order they came into view, without a heap call; a full table
 * gives its oldest entries way; a landing marks its island once. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "game/seen.h"
#include "support/alloc_count.h"

static IslandCodex g_cx;
static SeenTable g_t;   /* 512 entries: static, as the game's lives in its session */

static int setup(void **state) {
    (void)state;
    size_t len;
    const void *pak = island_pak_default(&len);
    SkyError err = {0};
    if (!island_pak_load(&g_cx, pak, len, &err)) fail_msg("%s", err.msg);
    assert_true(island_codex_has_archipelago(&g_cx));
    return 0;
}

/* Is the island of cell (cx, cz) within reach of (x, z)? The test's own reading of "seen". */
static bool in_reach(int64_t cx, int64_t cz, double x, double z, double r) {
    IslandCellSite s;
    island_cell_site(&g_cx, 7, cx, cz, &s);
    if (!s.has_island) return false;
    double dx = (double)s.centre_x_m - x, dz = (double)s.centre_z_m - z, reach = r + 0.5 * s.diameter_m;
    return dx * dx + dz * dz <= reach * reach;
}

static void test_flight_east_records_in_order(void **state) {
    (void)state;
    seen_reset(&g_t, &g_cx, 7);
    const double r = 2400.0, dt = 1.0 / 30.0, z = 300.0;
    const int64_t cell = (int64_t)island_codex_cell_m(&g_cx);
    int64_t expect[64][2];
    uint32_t n_expect = 0;
    alloc_count_start();
    for (double x = 0.0; x < 12.0 * (double)cell; x += 1000.0 * dt) {
        /* Every cell near the path, scanned wide: those in reach now and not listed yet are next. */
        int64_t c0 = x / (double)cell - 3, zc = 0;
        for (int64_t cz = zc - 2; cz <= zc + 2; cz++)
            for (int64_t cx = c0; cx <= c0 + 6; cx++) {
                if (!in_reach(cx, cz, x, z, r)) continue;
                bool listed = false;
                for (uint32_t k = 0; k < n_expect; k++) listed |= expect[k][0] == cx && expect[k][1] == cz;
                if (!listed && n_expect < 64) {
                    expect[n_expect][0] = cx;
                    expect[n_expect][1] = cz;
                    n_expect++;
                }
            }
        seen_update(&g_t, x, z, r);
    }
    assert_int_equal(alloc_count_stop(), 0);
    assert_true(n_expect >= 4);   /* several islands along 12 cells */
    assert_int_equal(g_t.n, n_expect);
    for (uint32_t k = 0; k < n_expect; k++) {
        const SeenIsland *e = seen_find(&g_t, expect[k][0], expect[k][1]);
        assert_non_null(e);
        assert_int_equal(e->order, k + 1);   /* seen order: the order they came into reach */
        assert_false(e->landed);
    }
    for (uint32_t i = 0; i < g_t.n; i++)   /* no duplicates */
        for (uint32_t j = i + 1; j < g_t.n; j++)
            assert_false(g_t.isles[i].cell_x == g_t.isles[j].cell_x && g_t.isles[i].cell_z == g_t.isles[j].cell_z);
    /* Flying the same path again adds nothing. */
    for (double x = 0.0; x < 12.0 * (double)cell; x += 500.0) assert_int_equal(seen_update(&g_t, x, z, r), 0);
}

static void test_full_table_keeps_the_newest(void **state) {
    (void)state;
    seen_reset(&g_t, &g_cx, 7);
    const double cell = (double)island_codex_cell_m(&g_cx);
    alloc_count_start();
    for (double x = 0.0; g_t.dropped < 40 && x < 4000.0 * cell; x += cell) seen_update(&g_t, x, 0.0, 1.5 * cell);
    assert_int_equal(alloc_count_stop(), 0);
    assert_int_equal(g_t.n, SEEN_MAX);
    uint32_t lo = UINT32_MAX;
    for (uint32_t i = 0; i < g_t.n; i++) lo = g_t.isles[i].order < lo ? g_t.isles[i].order : lo;
    assert_int_equal(lo, g_t.next_order - SEEN_MAX + 1);
    assert_int_equal(g_t.next_order, SEEN_MAX + g_t.dropped);
}

static void test_landing_marks_once(void **state) {
    (void)state;
    seen_reset(&g_t, &g_cx, 7);
    assert_non_null(seen_landed(&g_t, 10.0, -20.0));    /* the home island, cell (0, 0) */
    assert_null(seen_landed(&g_t, 30.0, 5.0));
    const SeenIsland *e = seen_find(&g_t, 0, 0);
    assert_non_null(e);
    assert_true(e->landed);
    assert_int_equal(g_t.n, 1);
    /* Without an archipelago nothing is recorded. */
    seen_reset(&g_t, NULL, 7);
    assert_int_equal(seen_update(&g_t, 0.0, 0.0, 5000.0), 0);
    assert_null(seen_landed(&g_t, 0.0, 0.0));
    assert_false(seen_add(&g_t, 0, 0, true));
    /* The logbook's islands of earlier runs: added as seen (landed or not), counted once. */
    seen_reset(&g_t, &g_cx, 7);
    assert_true(seen_add(&g_t, 0, 0, true));
    assert_true(seen_add(&g_t, 0, 0, false));
    assert_int_equal(g_t.n, 1);
    assert_true(seen_find(&g_t, 0, 0)->landed);
    assert_null(seen_landed(&g_t, 0.0, 0.0));   /* landed on before: not a first landing */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flight_east_records_in_order),
        cmocka_unit_test(test_full_table_keeps_the_newest),
        cmocka_unit_test(test_landing_marks_once),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
