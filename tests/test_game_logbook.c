/* Tests for the pilot's logbook (src/game/logbook.c): what it records, a save and a load giving
 * back the same logbook, a file cut or edited anywhere found damaged, randomly corrupted copies
 * (a seeded PRNG) that never crash and never lose the old file (it is set aside byte for byte and
 * a new logbook begins), a newer version's file left untouched by loads and saves, and a version-1
 * file (before the archipelago's island counts) read with its islands at 0. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game/logbook.h"

#define SEED 4242ull
#define SITES 23u

static char g_dir[256], g_path[400];
static char g_text[LOGBOOK_MAX_BYTES], g_back[LOGBOOK_MAX_BYTES + 1];
static Logbook g_a, g_b;

static int setup(void **state) {
    (void)state;
    log_set_level(LOG_ERROR);
    snprintf(g_dir, sizeof g_dir, "/tmp/skyisles_logbook_XXXXXX");
    if (!mkdtemp(g_dir)) return -1;
    char name[64];
    logbook_file_name(SEED, name, sizeof name);
    snprintf(g_path, sizeof g_path, "%s/%s", g_dir, name);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void clean_dir(void) {
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -f '%s'/*", g_dir);
    assert_int_equal(system(cmd), 0);
}

static size_t read_back(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return (size_t)-1;
    size_t n = fread(g_back, 1, sizeof g_back, f);
    fclose(f);
    return n;
}

static void write_file(const char *path, const void *d, size_t n) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(d, 1, n, f), n);
    fclose(f);
}

/* A logbook with something in every record. */
static void full_logbook(Logbook *lb) {
    logbook_reset(lb, SEED, SITES);
    lb->active = true;
    logbook_flight_start(lb);
    for (int i = 0; i < 600; i++) logbook_step(lb, 1.0f / 60.0f, 3.5, 200.0f + (float)i);   /* through 343 once */
    logbook_step(lb, 1.0f / 60.0f, 2000.0, 100.0f);   /* a jump: not flown */
    logbook_touchdown(lb, 4, 1.25f);
    logbook_touchdown(lb, 4, 0.5f);
    logbook_touchdown(lb, 9, 2.0f);
    logbook_near(lb, 7);
    logbook_near(lb, 7);   /* still the same pass */
    logbook_near(lb, -1);
    logbook_near(lb, 7);
    logbook_near(lb, 2);
    assert_true(logbook_delivered(lb, 0, 5, 161.2));
    assert_false(logbook_delivered(lb, 0, 5, 170.0));
    assert_true(logbook_delivered(lb, 0, 5, 150.0));
    assert_true(logbook_delivered(lb, 5, 0, 99.0));
    assert_true(logbook_island(lb, 0, 0, true));
    assert_true(logbook_island(lb, 1, -1, false));
    assert_true(logbook_island(lb, -40000000000ll, 7, false));
    assert_false(logbook_island(lb, 1, -1, false));   /* seen again: counted once */
    assert_true(logbook_island(lb, 1, -1, true));     /* landed on at last */
    assert_false(logbook_island(lb, 0, 0, true));
}

static void test_records(void **state) {
    (void)state;
    Logbook *lb = &g_a;
    full_logbook(lb);
    assert_int_equal(lb->flights, 1);
    assert_int_equal(lb->booms, 1);
    assert_true(lb->flight_s > 10.0 && lb->flight_s < 10.1);
    assert_true(lb->distance_m > 2099.0 && lb->distance_m < 2101.0);
    assert_true(lb->top_speed >= 799.0f);
    assert_int_equal(lb->landings, 3);
    assert_int_equal(lb->landed[4], 2);
    assert_true(lb->best_sink == 0.5f);
    assert_int_equal(lb->passed[7], 2);
    assert_int_equal(lb->passed[2], 1);
    assert_int_equal(lb->deliveries, 4);
    const LogRoute *r = logbook_route(lb, 0, 5);
    assert_non_null(r);
    assert_int_equal(r->count, 3);
    assert_int_equal(r->best_ms, 150000);
    assert_null(logbook_route(lb, 5, 9));
    assert_int_equal(lb->islands_seen, 3);
    assert_int_equal(lb->islands_landed, 2);
    assert_int_equal(lb->n_isles, 3);
    /* an inactive logbook (a headless run, the attract loop) records nothing */
    logbook_reset(&g_b, SEED, SITES);
    logbook_flight_start(&g_b);
    logbook_step(&g_b, 1.0f, 10.0, 50.0f);
    assert_false(logbook_delivered(&g_b, 0, 1, 5.0));
    assert_false(logbook_island(&g_b, 4, 4, true));
    assert_int_equal(g_b.flights + g_b.deliveries + g_b.islands_seen + g_b.islands_landed, 0);
    assert_false(g_b.dirty);
    /* More islands than it keeps: each counted, the oldest given way. */
    logbook_reset(&g_b, SEED, SITES);
    g_b.active = true;
    for (int64_t i = 0; i < 600; i++) assert_true(logbook_island(&g_b, i, -i, false));
    assert_int_equal(g_b.islands_seen, 600);
    assert_int_equal(g_b.n_isles, LOGBOOK_MAX_ISLES);
    assert_true(g_b.isles[0].cell_x == 600 - LOGBOOK_MAX_ISLES && g_b.isles[LOGBOOK_MAX_ISLES - 1].cell_x == 599);
    size_t n = logbook_format(&g_b, g_text, sizeof g_text);
    assert_true(n < sizeof g_text);
    printf("  a logbook with %u islands: %zu bytes\n", LOGBOOK_MAX_ISLES, n);
}

static void test_save_and_load(void **state) {
    (void)state;
    clean_dir();
    SkyError err = {0};
    logbook_load(&g_a, g_dir, SEED, SITES);   /* none yet: a new, active logbook */
    assert_true(g_a.active);
    assert_false(g_a.keep_file);
    full_logbook(&g_a);
    assert_true(logbook_save(&g_a, g_dir, &err));
    assert_false(g_a.dirty);
    logbook_load(&g_b, g_dir, SEED, SITES);
    assert_true(g_b.active);
    assert_int_equal(g_b.flights, 1);
    assert_int_equal(g_b.booms, 1);
    assert_int_equal(g_b.landed[4], 2);
    assert_int_equal(g_b.passed[7], 2);
    assert_true(g_b.best_sink == 0.5f);
    assert_int_equal(g_b.n_routes, 2);
    assert_int_equal(logbook_route(&g_b, 0, 5)->best_ms, 150000);
    assert_true(g_b.flight_s > 10.0 && g_b.flight_s < 10.1);
    assert_int_equal(g_b.islands_seen, 3);
    assert_int_equal(g_b.islands_landed, 2);
    assert_int_equal(g_b.n_isles, 3);
    assert_true(g_b.isles[2].cell_x == -40000000000ll && g_b.isles[2].cell_z == 7 && !g_b.isles[2].landed);
    assert_true(g_b.isles[1].cell_x == 1 && g_b.isles[1].cell_z == -1 && g_b.isles[1].landed);
    /* the same text again */
    size_t n1 = logbook_format(&g_a, g_text, sizeof g_text), n2 = read_back(g_path);
    assert_int_equal(n1, n2);
    assert_memory_equal(g_text, g_back, n1);
    /* another seed's file is not this one's; another island's places are dropped, its totals kept */
    char why[160];
    assert_int_equal(logbook_parse(&g_b, g_text, n1, SEED + 1, SITES, why, sizeof why), 0);
    assert_non_null(strstr(why, "another seed"));
    assert_int_equal(logbook_parse(&g_b, g_text, n1, SEED, SITES + 1, why, sizeof why), 1);
    assert_int_equal(g_b.flights, 1);
    assert_int_equal(g_b.landed[4] + g_b.n_routes, 0);
    /* nothing changed: no write */
    assert_true(logbook_save(&g_b, g_dir, &err));
}

/* Every cut and every flipped byte is found (the last line checks the rest). */
static void test_cut_or_edited(void **state) {
    (void)state;
    full_logbook(&g_a);
    size_t n = logbook_format(&g_a, g_text, sizeof g_text);
    char why[160];
    for (size_t k = 0; k < n - 1; k++) assert_int_equal(logbook_parse(&g_b, g_text, k, SEED, SITES, why, sizeof why), 0);
    int found = 0;
    for (size_t k = 0; k < n; k++) {
        char was = g_text[k];
        g_text[k] = (char)(was ^ 0x04);
        int r = logbook_parse(&g_b, g_text, n, SEED, SITES, why, sizeof why);
        found += r == 0;
        assert_int_not_equal(r, 1);   /* 0 damaged, or -1: the version digit became a newer one */
        g_text[k] = was;
    }
    printf("  %d of %zu flipped bytes found damaged, the rest read as a newer version\n", found, n);
    assert_true(found >= (int)n - 1);
}

/* Random corruption: never a crash, the damaged file set aside byte for byte, a new logbook. */
static void test_random_corruption(void **state) {
    (void)state;
    full_logbook(&g_a);
    size_t n = logbook_format(&g_a, g_text, sizeof g_text);
    static char bad[LOGBOOK_MAX_BYTES];
    Rng r;
    rng_seed(&r, 34, 3);
    int damaged = 0;
    for (int it = 0; it < 200; it++) {
        clean_dir();
        memcpy(bad, g_text, n);
        size_t len = n;
        uint32_t kind = rng_below(&r, 3);
        if (kind == 0) len = rng_below(&r, (uint32_t)n);                        /* cut */
        for (uint32_t e = 0, m = 1 + rng_below(&r, 6); kind && e < m; e++)      /* bytes changed */
            bad[rng_below(&r, (uint32_t)len)] = (char)rng_u32(&r);
        write_file(g_path, bad, len);
        logbook_load(&g_b, g_dir, SEED, SITES);
        assert_true(g_b.active);
        char kept[500];
        snprintf(kept, sizeof kept, "%s.damaged", g_path);
        size_t k = read_back(kept);
        if (k != (size_t)-1) {
            damaged++;
            assert_int_equal(k, len);   /* never lost: the old file beside, as it was */
            assert_memory_equal(g_back, bad, len);
            assert_int_equal(access(g_path, F_OK), -1);
            assert_int_equal(g_b.flights, 0);   /* a new logbook */
            SkyError err = {0};
            logbook_flight_start(&g_b);
            assert_true(logbook_save(&g_b, g_dir, &err));
            assert_int_equal(read_back(kept), len);   /* the save leaves it */
        } else {
            assert_int_equal(read_back(g_path), len);   /* left as it is (its version digit became a newer one) */
            assert_true(g_b.keep_file);
        }
        assert_true(g_b.n_routes <= LOGBOOK_MAX_ROUTES && g_b.n_sites == SITES);
    }
    printf("  200 corrupted copies: %d set aside as damaged\n", damaged);
    assert_true(damaged > 150);
    /* a second damaged file does not replace the first one set aside */
    clean_dir();
    write_file(g_path, "one", 3);
    logbook_load(&g_b, g_dir, SEED, SITES);
    write_file(g_path, "two", 3);
    logbook_load(&g_b, g_dir, SEED, SITES);
    char kept[500];
    snprintf(kept, sizeof kept, "%s.damaged", g_path);
    assert_int_equal(read_back(kept), 3);
    assert_memory_equal(g_back, "one", 3);
    snprintf(kept, sizeof kept, "%s.damaged-2", g_path);
    assert_int_equal(read_back(kept), 3);
    assert_memory_equal(g_back, "two", 3);
}

/* A newer version's logbook: kept as it is, never written over; this run records in memory. */
static void test_newer_version_untouched(void **state) {
    (void)state;
    clean_dir();
    const char *newer = "skyisles-logbook 3\nseed 4242\nsomething_new 1 2 3\nend 0\n";
    write_file(g_path, newer, strlen(newer));
    logbook_load(&g_b, g_dir, SEED, SITES);
    assert_true(g_b.active);
    assert_true(g_b.keep_file);
    logbook_flight_start(&g_b);
    assert_true(g_b.dirty);
    SkyError err = {0};
    assert_true(logbook_save(&g_b, g_dir, &err));
    assert_int_equal(read_back(g_path), strlen(newer));
    assert_memory_equal(g_back, newer, strlen(newer));
    char kept[500];
    snprintf(kept, sizeof kept, "%s.damaged", g_path);
    assert_int_equal(access(kept, F_OK), -1);
}

/* A version-1 file (before the island counts) loads: its records as written, no island yet; the
 * next save writes the current version with the counts, which reads back. */
static void test_version_1_loads(void **state) {
    (void)state;
    clean_dir();
    char old[400];
    int n = snprintf(old, sizeof old, "skyisles-logbook 1\nseed 4242\nsites 23\nflights 2\nlandings 1\ndeliveries 0\n"
                                      "booms 0\nflight_s 61.500\ndistance_m 9000.0\ntop_speed 120.00\nbest_sink 0.750\n"
                                      "landed 4 1\n");
    snprintf(old + n, sizeof old - (size_t)n, "end %016llx\n", (unsigned long long)hash_fnv1a64(old, (size_t)n, 0));
    write_file(g_path, old, strlen(old));
    logbook_load(&g_b, g_dir, SEED, SITES);
    assert_true(g_b.active);
    assert_false(g_b.keep_file);
    assert_int_equal(g_b.flights, 2);
    assert_int_equal(g_b.landed[4], 1);
    assert_int_equal(g_b.islands_seen + g_b.islands_landed, 0);
    char kept[500];
    snprintf(kept, sizeof kept, "%s.damaged", g_path);
    assert_int_equal(access(kept, F_OK), -1);   /* not set aside */
    assert_true(logbook_island(&g_b, 3, 2, true));
    assert_true(logbook_island(&g_b, 3, 3, false));
    SkyError err = {0};
    assert_true(logbook_save(&g_b, g_dir, &err));
    size_t len = read_back(g_path);
    assert_true(len < sizeof g_back);
    g_back[len] = 0;
    assert_non_null(strstr(g_back, "skyisles-logbook 2\n"));
    logbook_load(&g_a, g_dir, SEED, SITES);
    assert_int_equal(g_a.flights, 2);
    assert_int_equal(g_a.islands_seen, 2);
    assert_int_equal(g_a.islands_landed, 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_records),
        cmocka_unit_test(test_save_and_load),
        cmocka_unit_test(test_cut_or_edited),
        cmocka_unit_test(test_random_corruption),
        cmocka_unit_test(test_newer_version_untouched),
        cmocka_unit_test(test_version_1_loads),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
