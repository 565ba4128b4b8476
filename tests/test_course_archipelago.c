/* skyisles tests: the archipelago from the codex as the world streams it (src/course/archipelago.c):
 * a flight over several islands names each in turn (the island under the aircraft and its place),
 * each island's strips lie on it, and the names never repeat along the way; each cell's island is
 * generated at its site's diameter and baked with no more cells than the home island, inside its
 * cell's core. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "course/archipelago.h"
#include "island/island.h"
#include "world/world.h"
#include "support/world_view.h"

static IslandCodex g_cx;
static uint32_t g_scope;

static int setup(void **state) {
    (void)state;
    size_t len;
    const void *pak = island_pak_default(&len);
    SkyError err = {0};
    if (!island_pak_load(&g_cx, pak, len, &err)) fail_msg("%s", err.msg);
    int scope = island_codex_find_scope(&g_cx, "island");
    assert_true(scope >= 0);
    g_scope = (uint32_t)scope;
    return 0;
}

static WorldView view_at(double x, double z, double t, float speed) {
    return test_view_east(x, 150.0, z, t, speed);
}

/* East from the home island at 1000 m/s: over each island's base camp the world holds its island,
 * the place under the aircraft is a site of that island, and the island's name is the cell's, new
 * along the way. */
static void test_flight_names_each_island(void **state) {
    (void)state;
    MemBudget b;
    SkyError err = {0};
    assert_true(mem_budget_init(&b, (size_t)160 << 20, &err));
    JobsConfig jc = {2, 256, 0};
    JobSystem *js = jobs_create(&b, &jc, &err);
    assert_non_null(js);
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 6;
    World *w = world_create(&b, js, &p, NULL, &err);
    assert_non_null(w);
    Archipelago arch;
    WorldIslandSource src;
    assert_true(archipelago_source(&arch, &g_cx, g_scope, p.gen.seed, 128, &src));
    assert_true(world_set_islands(w, &b, &src, 0, &err));

    const double cell = (double)src.cell_m;
    char names[8][64];
    uint32_t named = 0;
    double t = 0.0;
    for (int64_t k = 1; named < 4 && k < 40; k++) {
        WorldIslandSite site;
        src.site(src.ctx, k, 0, &site);
        if (!site.has_island) continue;
        /* fly there (1000 m/s at 60 Hz) along z = the site's, then over its base */
        double x0 = (double)(k - 1) * cell, z = (double)site.centre_z;
        for (double x = x0; x < (double)site.centre_x; x += 1000.0 / 60.0, t += 1.0 / 60.0) {
            WorldView v = view_at(x, z, t, 1000.0f);
            world_update(w, &v);
            WorldEvent ev[128];
            while (world_take_events(w, ev, 128) > 0) {
            }
        }
        WorldIsland wi;
        for (int f = 0; f < 600 && !world_island_held(w, (double)site.centre_x, z, &wi); f++) {
            WorldView v = view_at((double)site.centre_x, z, t += 1.0 / 60.0, 0.0f);
            world_update(w, &v);
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
        }
        assert_true(world_island_held(w, (double)site.centre_x, z, &wi));
        assert_int_equal(wi.cell_x, k);
        assert_false(wi.home);
        const Island *isl = wi.island;
        assert_non_null(isl);
        /* over the base camp: the place is a site of this island */
        WorldStrip st;
        assert_true(wi.field->n_strips >= 1);
        assert_true(world_island_strip(&wi, 0, &st));
        double sx = 0.5 * (st.ax + st.bx), sz = 0.5 * (st.az + st.bz);
        assert_int_equal(world_island_cell(w, sx), k);   /* its strip lies in its cell */
        int site_i = archipelago_site_at(isl, wi.field, wi.ox, wi.oz, sx, sz);
        assert_true(site_i >= 0 && (uint32_t)site_i < isl->n_sites);
        char place[64];
        island_site_display_name(isl, &g_cx, (uint32_t)site_i, "en", place, sizeof place);
        assert_true(place[0] != 0);
        archipelago_island_name(&arch, wi.cell_x, wi.cell_z, "en", names[named], sizeof names[named]);
        assert_true(names[named][0] != 0);
        for (uint32_t i = 0; i < named; i++)
            if (!strcmp(names[i], names[named])) fail_msg("island %u and %u both named %s", i, named, names[i]);
        print_message("    note: cell %lld: %s, %s\n", (long long)k, place, names[named]);
        named++;
    }
    assert_int_equal(named, 4);
    WorldStats s = world_stats(w);
    print_message("    note: %llu bakes, %.1f ms CPU each, %llu on the point queries' thread\n",
                  (unsigned long long)s.island_bakes, s.island_bakes ? (double)s.island_bake_cpu_ns * 1e-6 / (double)s.island_bakes : 0.0,
                  (unsigned long long)s.island_sync_bakes);
    world_destroy(w);
    jobs_destroy(js);
    mem_budget_release(&b);
}

/* The farthest centre of an on-island cell from the field's centre, in metres. */
static double land_reach(const IslandField *f) {
    double best = 0.0, half = 0.5 * (double)f->size;
    for (uint32_t j = 0; j < f->size; j++)
        for (uint32_t i = 0; i < f->size; i++) {
            if (f->type[(size_t)j * f->size + i] == ISLAND_FIELD_OFF) continue;
            double dx = ((double)i + 0.5 - half) * f->cell_meters, dz = ((double)j + 0.5 - half) * f->cell_meters;
            double d = sqrt(dx * dx + dz * dz);
            if (d > best) best = d;
        }
    return best;
}

/* Bakes cell (cx, cz)'s island into a fresh arena of the source's bake size. */
static void bake_cell(const WorldIslandSource *src, int64_t cx, int64_t cz, MemBudget *b, MemArena *ar, IslandField *f,
                      const Island **isl) {
    assert_true(mem_arena_init(ar, b, src->bake_bytes));
    const void *out = NULL;
    assert_true(src->bake(src->ctx, cx, cz, ar, f, &out));
    *isl = out;
}

/* Two cells' islands of different diameters: each generated and baked at its own diameter, its
 * field as wide as the island, the smaller at the home island's metres per cell, the larger on
 * the home island's cells a side (coarser cells: diameter / cells), its land reaching its radius,
 * so coasts are in proportion; the origin's cell bakes the home island's field as before; every
 * island's field stays inside its cell's core and one slot's arena holds any island's bake. */
static void test_islands_on_one_grid(void **state) {
    (void)state;
    const uint32_t home_cells = 128;
    Archipelago arch;
    WorldIslandSource src;
    assert_true(archipelago_source(&arch, &g_cx, g_scope, 20261129u, home_cells, &src));
    const double home_d = (double)g_cx.scopes[g_scope].diameter_m, home_cell_m = home_d / home_cells;
    int64_t small = 0, large = 0;
    uint32_t d_small = 0, d_large = 0;
    for (int64_t k = 1; k < 200; k++) {
        WorldIslandSite site;
        src.site(src.ctx, k, -k, &site);
        if (!site.has_island) continue;
        if (!d_small || site.diameter_m < d_small) small = k, d_small = site.diameter_m;
        if (site.diameter_m > d_large) large = k, d_large = site.diameter_m;
    }
    assert_true(d_large >= d_small + 400);
    MemBudget b;
    SkyError err = {0};
    assert_true(mem_budget_init(&b, src.bake_bytes * 3 + ((size_t)1 << 20), &err));
    MemArena ar[3];
    IslandField f[3];
    const Island *isl[3];
    const int64_t cells[3] = {0, small, large};
    const uint32_t diam[3] = {(uint32_t)home_d, d_small, d_large};
    double reach[3];
    for (int i = 0; i < 3; i++) {
        bake_cell(&src, cells[i], -cells[i], &b, &ar[i], &f[i], &isl[i]);
        assert_int_equal(isl[i]->diameter_m, diam[i]);
        double extent = (double)f[i].size * (double)f[i].cell_meters;
        assert_true(fabs(extent - (double)diam[i]) < 0.01);           /* the field spans the island */
        /* no more cells than the home island's, none finer than its */
        assert_int_equal(f[i].size, island_field_cells(&g_cx, g_scope, home_cells, diam[i]));
        assert_true(f[i].size <= home_cells);
        const double cell_m = (double)f[i].cell_meters;
        assert_true(cell_m >= 0.99 * home_cell_m);
        if (diam[i] < home_d) assert_true(fabs(cell_m - home_cell_m) < 0.02 * home_cell_m);
        else assert_int_equal(f[i].size, home_cells);
        assert_true(fabs(2.0 * (double)f[i].radius_m - (double)diam[i]) < 0.01);
        reach[i] = land_reach(&f[i]);
        assert_true(reach[i] <= 0.5 * (double)diam[i] && reach[i] >= 0.5 * (double)diam[i] - 3.0 * cell_m);
        /* inside the cell's core: the field's square, wherever in the cell, short of the edge */
        double core = 0.5 * (double)src.cell_m - WORLD_ISLAND_EDGE, half = 0.5 * extent;
        assert_true(fabs((double)f[i].centre_x) + half <= core && fabs((double)f[i].centre_z) + half <= core);
        print_message("    note: cell (%lld, %lld): %u m, %u x %u cells of %.3f m, land to %.1f m\n", (long long)cells[i],
                      (long long)-cells[i], diam[i], f[i].size, f[i].size, (double)f[i].cell_meters, reach[i]);
    }
    double ratio = (double)d_large / (double)d_small;
    assert_true(fabs(reach[2] / reach[1] - ratio) < 0.03 * ratio);
    mem_budget_release(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_islands_on_one_grid),
        cmocka_unit_test(test_flight_names_each_island),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
