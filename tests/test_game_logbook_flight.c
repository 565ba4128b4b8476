/* The logbook in the game (src/game/delivery.c): the game booted headless with a config folder and
 * the logbook read as a player's run reads it; the player's flight through game_frame is recorded
 * (a flight, its time, distance, top speed, a landmark passed close), written when the settings
 * are and read back the same; randomly corrupted copies of the file read at boot never stop the
 * game's frames and are kept beside byte for byte while a new logbook is written. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "support/game_fixture.h"
#include "support/game_input.h"

static Game g_game;
static char g_dir[256], g_path[400];
static uint8_t g_file[LOGBOOK_MAX_BYTES], g_back[LOGBOOK_MAX_BYTES];
static size_t g_file_len;

static int setup(void **state) {
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/skyisles_logflight_XXXXXX");
    if (!mkdtemp(g_dir)) return -1;
    static GameOptions opt;
    TestArgs args = test_args("--headless", "--config", g_dir, "--view-radius", "3", "--mem", "96");
    if (!fixture_game_boot(&g_game, &opt, args)) return -1;
    char name[64];
    logbook_file_name(g_game.crs.delivery.log.seed, name, sizeof name);
    snprintf(g_path, sizeof g_path, "%s/%s", g_dir, name);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    return fixture_game_end(&g_game, g_dir);
}

static Logbook *book(void) { return &g_game.crs.delivery.log; }

/* The logbook as a player's run reads it at boot (a headless run keeps none of its own). */
static void read_logbook(void) { logbook_load(book(), g_dir, book()->seed, g_game.svc.home.island->n_sites); }

/* From the title into the player's flight at the spawn, straight and level. */
static void fly_from_title(int frames) {
    g_game.ses.play.state = PLAY_START;
    fixture_frames(&g_game, 1, 1.0f / 60.0f);
    g_game.ses.flight = g_game.svc.spawn.flight;
    g_game.ses.flight.throttle = flight_throttle_for(&g_game.ses.model, g_game.ses.flight.speed);
    g_game.ses.play.state = PLAY_FLY;
    g_game.ses.play.overlay = OVERLAY_NONE;
    g_game.ses.play.demo = false;
    g_game.cfg.set.collision = false;   /* the spawn heads for the island: no crash's pause in the way */
    fixture_frames(&g_game, frames, 1.0f / 60.0f);
}

static size_t read_back(const char *path, uint8_t *buf) {
    FILE *f = fopen(path, "rb");
    if (!f) return (size_t)-1;
    size_t n = fread(buf, 1, LOGBOOK_MAX_BYTES, f);
    fclose(f);
    return n;
}

static void test_flight_recorded_and_saved(void **state) {
    (void)state;
    assert_false(book()->active);   /* --headless keeps none */
    read_logbook();
    assert_true(book()->active);
    uint64_t steps0 = g_game.ses.play.steps;
    fly_from_title(600);
    double flown = (double)(g_game.ses.play.steps - steps0 - 1) * SIM_STEP;   /* the title's step not */
    printf("  10 s: %u flights, %.2f s, %.0f m, top %.0f m/s\n", book()->flights, book()->flight_s, book()->distance_m,
           (double)book()->top_speed);
    assert_int_equal(book()->flights, 1);
    assert_true(book()->flight_s > flown - 1e-3 && book()->flight_s < flown + 1e-3 && flown > 9.5);
    assert_true(book()->distance_m > 9.0 * g_game.svc.spawn.flight.speed);
    assert_true(book()->top_speed >= g_game.svc.spawn.flight.speed - 1.0f);
    /* low over the base's landmark: passed close once */
    double x, z;
    jobs_site_pos(&g_game.crs.delivery.jobs, g_game.svc.home.island->base, &x, &z);
    FlightState *f = &g_game.ses.flight;
    f->x = x, f->z = z + 30.0, f->y = g_game.crs.delivery.sea_y + g_game.svc.home.island->sites[g_game.svc.home.island->base].elevation_m + 25.0;
    f->yaw = 0.0f, f->pitch = 0.0f, f->roll = 0.0f;
    fixture_frames(&g_game, 60, 1.0f / 60.0f);
    assert_int_equal(book()->passed[g_game.svc.home.island->base], 1);
    /* written with the settings, read back the same */
    assert_true(book()->dirty);
    game_delivery_save(&g_game.crs.delivery, &g_game.cfg);
    assert_false(book()->dirty);
    g_file_len = read_back(g_path, g_file);
    assert_true(g_file_len != (size_t)-1 && g_file_len > 100);
    Logbook saved = *book();
    read_logbook();
    assert_int_equal(book()->flights, saved.flights);
    assert_int_equal(book()->passed[g_game.svc.home.island->base], 1);
    assert_true(book()->distance_m > saved.distance_m - 0.1 && book()->distance_m < saved.distance_m + 0.1);
    /* a new flight from the title counts as the second */
    fly_from_title(30);
    assert_int_equal(book()->flights, 2);
}

static void test_damaged_files_in_game(void **state) {
    (void)state;
    static uint8_t bad[LOGBOOK_MAX_BYTES];
    char kept[500];
    snprintf(kept, sizeof kept, "%s.damaged", g_path);
    Rng r;
    rng_seed(&r, 77, 1);
    int set_aside = 0;
    for (int it = 0; it < 40; it++) {
        unlink(kept);
        memcpy(bad, g_file, g_file_len);
        size_t len = it % 4 == 0 ? rng_below(&r, (uint32_t)g_file_len) : g_file_len;
        for (uint32_t e = 0, m = it % 4 ? 1 + rng_below(&r, 4) : 0; e < m; e++) bad[rng_below(&r, (uint32_t)len)] = (uint8_t)rng_u32(&r);
        FILE *fp = fopen(g_path, "wb");
        assert_non_null(fp);
        assert_int_equal(fwrite(bad, 1, len, fp), len);
        fclose(fp);
        read_logbook();
        fly_from_title(20);   /* the game runs on */
        game_delivery_save(&g_game.crs.delivery, &g_game.cfg);
        size_t k = read_back(kept, g_back);
        if (k == (size_t)-1) {
            assert_true(book()->keep_file);   /* a newer version: left as it was */
            assert_int_equal(read_back(g_path, g_back), len);
            assert_memory_equal(g_back, bad, len);
            continue;
        }
        set_aside++;
        assert_int_equal(k, len);
        assert_memory_equal(g_back, bad, len);
        assert_int_equal(book()->flights, 1);   /* a new logbook, this flight in it, written */
        assert_true(read_back(g_path, g_back) != (size_t)-1);
    }
    printf("  40 corrupted logbooks read by the game: %d set aside, the rest left alone as newer\n", set_aside);
    assert_true(set_aside >= 36);
}

/* East at 1000 m/s through the game's frames: every island the seen table records is in the
 * logbook once, in the same order; the map control opens the island map, steps out to the world
 * map, and closes it. */
static void test_islands_discovered_in_game(void **state) {
    (void)state;
    unlink(g_path);
    read_logbook();   /* a first run on the seed, as at boot: no island seen yet */
    seen_reset(&g_game.crs.delivery.seen, g_game.svc.home.codex, book()->seed);
    assert_true(g_game.svc.home.archipelago);
    fly_from_title(1);
    FlightState *f = &g_game.ses.flight;
    f->y = 400.0, f->yaw = 1.5707963f, f->pitch = 0.0f, f->roll = 0.0f;
    const double cell = (double)island_codex_cell_m(g_game.svc.home.codex);
    for (int i = 0; i < 60 * 40; i++) {   /* 40 s: 40 km, over six cells and more */
        f->x += 1000.0 / 60.0;
        f->y = 400.0;
        fixture_frames(&g_game, 1, 1.0f / 60.0f);
    }
    const SeenTable *t = &g_game.crs.delivery.seen;
    printf("  40 km east: %u islands seen, %u in the logbook\n", t->n, book()->islands_seen);
    assert_true(f->x > 6.0 * cell);
    assert_true(t->n >= 2);   /* the home island and one more at least */
    assert_int_equal(book()->islands_seen, t->n);
    assert_int_equal(book()->n_isles, t->n);
    for (uint32_t k = 0; k < book()->n_isles; k++) {
        const SeenIsland *e = seen_find(t, book()->isles[k].cell_x, book()->isles[k].cell_z);
        assert_non_null(e);
        assert_int_equal(e->order, k + 1);
    }
    /* The map control: the island map, the world map, closed. */
    g_game.ses.play.overlay = OVERLAY_NONE;
    fixture_key(SDL_SCANCODE_M);
    fixture_frames(&g_game, 1, 1.0f / 60.0f);
    assert_int_equal(g_game.ses.play.overlay, OVERLAY_MAP);
    assert_false(g_game.ses.play.map_world);
    fixture_key(SDL_SCANCODE_M);
    fixture_frames(&g_game, 1, 1.0f / 60.0f);
    assert_int_equal(g_game.ses.play.overlay, OVERLAY_MAP);
    assert_true(g_game.ses.play.map_world);
    fixture_key(SDL_SCANCODE_M);
    fixture_frames(&g_game, 1, 1.0f / 60.0f);
    assert_int_equal(g_game.ses.play.overlay, OVERLAY_NONE);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flight_recorded_and_saved),
        cmocka_unit_test(test_damaged_files_in_game),
        cmocka_unit_test(test_islands_discovered_in_game),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
