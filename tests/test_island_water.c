/* skyisles tests: an island's water (island/water.c): every lake's surface is flat and bounded
 * by ground, the lakeshore's lake lies at its jetty, the marsh holds pools, a crater may hold a
 * lake, the bowls are dug under the water and nowhere else, and the same bits on every run (a
 * golden of the game's seed, checked under qemu-aarch64 too). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "island/island.h"
#include "support/home_world.h"

#define GAME_SEED 20261129u
/* FNV-1a 64 of the game's seed's water levels and ground (dm, every cell). */
#define WATER_GOLDEN 0x00980b1d276d797cull

static int type_named(const IslandCodex *cx, const char *id) {
    for (uint32_t t = 0; t < cx->n_types; t++)
        if (strcmp(cx->types[t].id, id) == 0) return (int)t;
    return -1;
}

/* Is cell (i, j) on a falls' lip (within half its width and two cells of its middle)? */
static bool on_lip(const IslandField *f, uint32_t i, uint32_t j) {
    double half = 0.5 * f->size, x = ((double)i + 0.5 - half) * f->cell_meters, z = ((double)j + 0.5 - half) * f->cell_meters;
    for (uint32_t k = 0; k < f->n_falls; k++) {
        double dx = x - f->falls[k].x_m, dz = z - f->falls[k].z_m, reach = 0.5 * f->falls[k].width_m + 2.0 * f->cell_meters;
        if (dx * dx + dz * dz <= reach * reach) return true;
    }
    return false;
}

/* Every water cell: its 4 neighbours are water at the same level, ground at or above it, or off
 * the island on a falls' lip (where it pours over the edge). */
static uint32_t check_bounded(const IslandField *f) {
    uint32_t n = f->size, wet = 0;
    for (uint32_t j = 0; j < n; j++)
        for (uint32_t i = 0; i < n; i++) {
            size_t c = (size_t)j * n + i;
            uint16_t l = f->water_dm[c];
            if (!l) continue;
            wet++;
            assert_true(f->elevation_dm[c] < l);
            assert_true(f->type[c] != ISLAND_FIELD_OFF);
            assert_true(i > 0 && j > 0 && i + 1 < n && j + 1 < n);
            const size_t nb[4] = {c - 1, c + 1, c - n, c + n};
            for (int k = 0; k < 4; k++) {
                if (f->water_dm[nb[k]]) assert_int_equal(f->water_dm[nb[k]], l);
                else if (f->type[nb[k]] == ISLAND_FIELD_OFF) assert_true(on_lip(f, i, j));
                else assert_true(f->elevation_dm[nb[k]] >= l);
            }
        }
    return wet;
}

/* Metres from (x, z) to the nearest water cell's centre (1e9: none). */
static double water_distance(const IslandField *f, double x, double z) {
    double best = 1e9, half = 0.5 * f->size;
    for (uint32_t j = 0; j < f->size; j++)
        for (uint32_t i = 0; i < f->size; i++) {
            if (!f->water_dm[(size_t)j * f->size + i]) continue;
            double dx = ((double)i + 0.5 - half) * f->cell_meters - x, dz = ((double)j + 0.5 - half) * f->cell_meters - z;
            double d = sqrt(dx * dx + dz * dz);
            if (d < best) best = d;
        }
    return best;
}

static uint64_t water_hash(const IslandField *f) {
    uint64_t h = 0xcbf29ce484222325ull;
    size_t n = (size_t)f->size * f->size;
    for (size_t c = 0; c < n; c++) {
        uint16_t v[2] = {f->water_dm[c], f->elevation_dm[c]};
        const uint8_t *b = (const uint8_t *)v;
        for (int k = 0; k < 4; k++) h = (h ^ b[k]) * 0x100000001b3ull;
    }
    return h;
}

/* The game's seed: bounded, its lakeshore's jetty at the lake's shore, the marsh's pools; the
 * golden. */
static void test_game_seed_water(void **state) {
    (void)state;
    static HomeIsland h;
    SkyError err = {0};
    assert_true(home_island_make(&h, GAME_SEED, &err));
    const IslandField *f = &h.field;
    assert_non_null(f->water_dm);
    uint32_t wet = check_bounded(f);
    int lake = type_named(&h.cx, "lakeshore"), marsh = type_named(&h.cx, "marsh");
    uint32_t lakes = 0, marshes = 0;
    for (uint32_t k = 0; k < f->n_sites; k++) {
        double d = water_distance(f, f->sites[k].x_m, f->sites[k].z_m);
        if (f->sites[k].type == lake) {
            lakes++;
            assert_true(d < 2.0 + 2.0 * f->cell_meters);   /* the jetty stands at the shore */
        }
        if (f->sites[k].type == marsh) {
            marshes++;
            assert_true(d < 40.0);
        }
    }
    printf("game seed: %u water cells, %u lakeshores, %u marshes, %u falls, hash 0x%016llx\n", wet, lakes, marshes,
           f->n_falls, (unsigned long long)water_hash(f));
    /* a falls pours from its pool: the lip is water at the falls' top, its outside off the island */
    assert_true(f->n_falls > 0);
    for (uint32_t k = 0; k < f->n_falls; k++) {
        const IslandFieldFalls *fl = &f->falls[k];
        printf("  falls %u at %.1f, %.1f, outward %.2f, %.2f, %.1f m wide, from %.1f m\n", k, (double)fl->x_m,
               (double)fl->z_m, (double)fl->dir_x, (double)fl->dir_z, (double)fl->width_m, (double)fl->top_m);
        double half = 0.5 * f->size;
        size_t c = (size_t)floor(fl->z_m / f->cell_meters + half) * f->size + (size_t)floor(fl->x_m / f->cell_meters + half);
        double ox = fl->x_m + fl->dir_x * 3.0 * f->cell_meters, oz = fl->z_m + fl->dir_z * 3.0 * f->cell_meters;
        size_t o = (size_t)floor(oz / f->cell_meters + half) * f->size + (size_t)floor(ox / f->cell_meters + half);
        assert_true(f->water_dm[c] > 0);
        assert_true(fabsf(fl->top_m - (float)f->water_dm[c] * 0.1f) < 1e-3f);
        assert_int_equal(f->type[o], ISLAND_FIELD_OFF);
        assert_true(fl->width_m >= 2.0f * f->cell_meters);
    }
    assert_true(wet > 0);
    assert_true(lakes + marshes > 0);
    assert_true(water_hash(f) == WATER_GOLDEN);
    home_island_release(&h);
}

/* Seeds 1..24: every water body bounded; most lakeshores get their lake (a lake needs room: off
 * the strips, the other sites and the coast), and ground is lowered only under water. */
static void test_seeds_water(void **state) {
    (void)state;
    uint32_t lakes = 0, wet_lakes = 0, craters = 0, wet_craters = 0;
    for (uint64_t seed = 1; seed <= 24; seed++) {
        static HomeIsland h;
        SkyError err = {0};
        assert_true(home_island_make(&h, seed, &err));
        const IslandField *f = &h.field;
        check_bounded(f);
        int lake = type_named(&h.cx, "lakeshore"), crater = type_named(&h.cx, "crater");
        for (uint32_t k = 0; k < f->n_sites; k++) {
            double d = water_distance(f, f->sites[k].x_m, f->sites[k].z_m);
            if (f->sites[k].type == lake) lakes++, wet_lakes += d < 2.0 + 2.0 * f->cell_meters;
            if (f->sites[k].type == crater) craters++, wet_craters += d < 1.0;
        }
        home_island_release(&h);
    }
    printf("seeds 1..24: %u of %u lakeshores hold a lake, %u of %u craters a lake\n", wet_lakes, lakes, wet_craters,
           craters);
    assert_true(lakes > 0 && wet_lakes * 4 >= lakes * 3);
    assert_true(craters == 0 || wet_craters > 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game_seed_water),
        cmocka_unit_test(test_seeds_water),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
