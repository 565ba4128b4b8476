/* Tests for replays, the fixed step and the ghost (src/game/replay*.c, ghost.c, play.c's
 * play_step): the real game booted headless in this process. A two-minute flight (the autopilot,
 * then stick that dives it into rock, then the autopilot again, then a stirred stick) replays to
 * the state hash it was recorded with, that hash is the one recorded on x86_64 and its file is the
 * committed x86 file byte for byte (on every architecture); the replay
 * committed in tests/data/replay (recorded on x86_64) flies to its hash here, on whatever
 * architecture this runs; the step does not depend on the frame rate; damaged, foreign and
 * mismatched files each get one line and no flight; the ghost at step N is the replay at step N. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game/game.h"
#include "support/game_fixture.h"

/* The two-minute flight's end, recorded on x86_64 (gcc, glibc). */
#define FLIGHT_HASH_X86 0x62284f47fbaab9eeull
#define FLIGHT_STEPS (120 * SIM_STEP_HZ)
#define COMMITTED "tests/data/replay/x86-two-minutes.skyr"

/* Under qemu-aarch64 (some ten times slower than native) the two-minute flight is recorded (its
 * hash the x86 one) and its file must be the committed x86 file byte for byte, which the next
 * test replays on this architecture to the same hash: so flying the recording back once more is
 * left to the native and sanitizer runs. The frame-rate and ghost cases fly a quarter and a fifth
 * as many steps there: the same assertions on shorter flights. */
#if defined(__aarch64__)
#define REPLAY_OWN_FILE 0
#define RATE_STEPS 150u
#define GHOST_STEPS 300u
#else
#define REPLAY_OWN_FILE 1
#define RATE_STEPS 600u
#define GHOST_STEPS 1500u
#endif

static Game g_game;
static char g_dir[256];

static bool boot(const char *replay) {
    static GameOptions opt;
    bool exit_now;
    TestArgs a = test_args("--headless", "--config", g_dir, "--mem", "128", "--view-radius", "2",
                           replay ? "--replay" : NULL, replay);
    if (!game_parse_args(a.argc, a.argv, &opt, &exit_now)) return false;
    SkyError err = {0};
    if (!game_boot(&g_game, &opt, &err)) {
        fprintf(stderr, "boot: %s\n", err.msg);
        game_shutdown(&g_game);
        return false;
    }
    return true;
}

static int setup(void **state) {
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/skyisles_replay_XXXXXX");
    if (!mkdtemp(g_dir)) return -1;
    return boot(NULL) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    return fixture_game_end(&g_game, g_dir);
}

/* Who flies at step i of the scripted flight, and the stick when the pilot does. */
static void script(Game *g, PlayCtx *c, int i, Rng *r) {
    InputState *in = &g->svc.input.st;
    memset(in->value, 0, sizeof in->value);
    double t = (double)i / SIM_STEP_HZ;
    c->autopilot = t < 25.0 || (t >= 40.0 && t < 80.0);
    if (t >= 25.0 && t < 40.0) in->value[GA_PITCH] = -0.7f;   /* nose down, into whatever is below */
    if (t >= 80.0) {
        in->value[GA_PITCH] = (float)((i / 20) % 7 - 3) * 0.25f;
        in->value[GA_ROLL] = rng_float01(r) - 0.5f;
        in->value[GA_THROTTLE_UP] = (i / 90) % 2 ? 1.0f : 0.0f;
    }
}

/* Records the scripted flight into g->rec and returns its end hash. */
static uint64_t record_flight(Game *g) {
    PlayCtx c = game_play_ctx(&g->cfg, &g->svc, &g->ses, &g->crs);
    Rng r;
    rng_seed(&r, 19, 7);
    for (int i = 0; i < FLIGHT_STEPS; i++) {
        script(g, &c, i, &r);
        play_step(&g->ses.play, &c);
    }
    replay_end(&g->crs.rec, game_sim_hash(&g->ses, &g->crs.rec, g->cfg.opt.replay != NULL), g->ses.play.crashes, 0);
    return g->crs.rec.h.end_hash;
}

/* Flies replay rp from its start in a play of its own for `steps` steps (all: -1); its hash. */
static uint64_t fly_replay(Game *g, Replay *rp, int steps, uint64_t *crashes) {
    static Play p;
    static FlightState f;
    static CameraRig rig;
    static CameraState cam;
    memset(&p, 0, sizeof p);
    play_init(&p, &rp->h.start.flight, true, false);
    play_replay_restore(&p, &f, &rp->h.start);
    replay_rewind(rp);
    GameSettings set = g->cfg.set;
    set.collision = (rp->h.flags & REPLAY_F_COLLISION) != 0;
    PlayCtx c = game_play_ctx(&g->cfg, &g->svc, &g->ses, &g->crs);
    c.flight = &f, c.rig = &rig, c.camera = &cam, c.rec = NULL, c.replay = rp, c.set = &set, c.model = &rp->h.model;
    for (int i = 0; (steps < 0 || i < steps) && !p.replay_done; i++) play_step(&p, &c);
    if (crashes) *crashes = p.crashes;
    return play_sim_hash(&p, &f, 0, 0);
}

static void test_two_minute_flight_replays(void **state) {
    (void)state;
    Game *g = &g_game;
    uint64_t h = record_flight(g);
    printf("  recorded %u steps in %u runs, %u crashes, end hash 0x%016llx (%s)\n", g->crs.rec.h.steps, g->crs.rec.h.runs,
           g->crs.rec.h.crashes, (unsigned long long)h, SKYISLES_ARCH);
    assert_int_equal(g->crs.rec.h.steps, FLIGHT_STEPS);
    assert_true(g->crs.rec.h.crashes >= 1);
    char path[400];
    snprintf(path, sizeof path, "%s/flight.skyr", g_dir);
    SkyError err = {0};
    assert_true(replay_save(&g->crs.rec, path, &err));
    const char *keep = getenv("SKYISLES_KEEP_REPLAY");   /* how tests/data/replay's file was made */
    if (keep) assert_true(replay_save(&g->crs.rec, keep, &err));
    assert_true(h == FLIGHT_HASH_X86);
    /* The same flight makes the same file on every architecture: the committed x86 one. */
    size_t mine_len = 0, x86_len = 0;
    uint8_t *mine = file_read_all(path, REPLAY_FILE_MAX, &mine_len, &err);
    uint8_t *x86 = file_read_all(COMMITTED, REPLAY_FILE_MAX, &x86_len, &err);
    assert_non_null(mine);
    assert_non_null(x86);
    printf("  %s: %zu bytes, %s the committed x86 file\n", path, mine_len,
           mine_len == x86_len && !memcmp(mine, x86, x86_len) ? "the same as" : "NOT the same as");
    assert_int_equal(mine_len, x86_len);
    assert_memory_equal(mine, x86, x86_len);
    free(mine);
    free(x86);
    if (!REPLAY_OWN_FILE) return;
    assert_true(replay_load(&g->crs.ghost_run, path, &err));
    uint64_t crashes = 0;
    uint64_t again = fly_replay(g, &g->crs.ghost_run, -1, &crashes);
    printf("  replayed: %llu crashes, hash 0x%016llx\n", (unsigned long long)crashes, (unsigned long long)again);
    assert_true(again == h);
    assert_int_equal(crashes, g->crs.rec.h.crashes);
}

static void test_committed_x86_replay(void **state) {
    (void)state;
    Game *g = &g_game;
    SkyError err = {0};
    if (!replay_load(&g->crs.ghost_run, COMMITTED, &err)) fprintf(stderr, "%s\n", err.msg);
    assert_int_equal(g->crs.ghost_run.mode, REPLAY_LOADED);
    assert_true(replay_check(&g->crs.ghost_run, g->crs.meta.pack_checksum, g->crs.meta.gen, COMMITTED, &err));
    uint64_t crashes = 0, h = fly_replay(g, &g->crs.ghost_run, -1, &crashes);
    printf("  %s on %s: %u steps, %llu crashes, hash 0x%016llx (recorded 0x%016llx)\n", COMMITTED, SKYISLES_ARCH,
           g->crs.ghost_run.h.steps, (unsigned long long)crashes, (unsigned long long)h,
           (unsigned long long)g->crs.ghost_run.h.end_hash);
    assert_true(h == g->crs.ghost_run.h.end_hash);
    assert_true(h == FLIGHT_HASH_X86);
    assert_true(crashes >= 1);
}

/* Frames of dt at a time until the play has run at least `steps` steps (*ran: how many): the
 * state hash then. */
static uint64_t fly_frames(float dt, uint64_t steps, uint64_t *ran) {
    Game *g = &g_game;
    static Play p;
    static FlightState f;
    static CameraRig rig;
    static CameraState cam;
    f = g->svc.spawn.flight;
    play_init(&p, &f, true, false);
    camera_rig_reset(&rig, CAMERA_CHASE);
    PlayCtx c = game_play_ctx(&g->cfg, &g->svc, &g->ses, &g->crs);
    c.flight = &f, c.rig = &rig, c.camera = &cam, c.rec = NULL, c.replay = NULL, c.autopilot = true;
    InputState in;
    memset(&in, 0, sizeof in);
    c.in = &in;
    while (p.steps < steps) {
        play_frame(&p, &c, dt);
        assert_true(p.step_acc < (double)SIM_STEP);
    }
    *ran = p.steps;
    return play_sim_hash(&p, &f, 0, 0);
}

static void test_step_independent_of_frame_rate(void **state) {
    (void)state;
    /* Each rate flies some whole number of steps; 60 frames a second (one step a frame) flown to
     * the same step must be in the same state. 10 frames a second (the 0.1 s cap) steps 5 or 6
     * times a frame, 0.0123 s is never a whole number of steps. */
    static const float rates[] = {0.1f, 1.0f / 30.0f, 1.0f / 144.0f, 0.0123f};
    for (size_t k = 0; k < sizeof rates / sizeof rates[0]; k++) {
        uint64_t n, n60;
        uint64_t h = fly_frames(rates[k], RATE_STEPS, &n);
        uint64_t ref = fly_frames(1.0f / 60.0f, n, &n60);
        printf("  %.1f frames/s: %llu steps, %016llx; at 60 frames/s: %016llx\n", 1.0 / rates[k], (unsigned long long)n,
               (unsigned long long)h, (unsigned long long)ref);
        assert_int_equal(n60, n);
        assert_true(h == ref);
    }
}

/* The file at path with one byte changed, or cut, or a field patched and the checksum made good. */
static size_t g_len;
static uint8_t *load_bytes(const char *path) {
    SkyError err = {0};
    return file_read_all(path, REPLAY_FILE_MAX, &g_len, &err);
}

static void fix_checksum(uint8_t *d, size_t len) {
    uint64_t h = hash_fnv1a64(d, len - 8, 0);
    for (int i = 0; i < 8; i++) d[len - 8 + i] = (uint8_t)(h >> (8 * i));
}

static void expect_line(bool ok, const SkyError *err, const char *needle) {
    printf("  -> %s\n", err->msg);
    assert_false(ok);
    assert_non_null(strstr(err->msg, needle));
    assert_null(strchr(err->msg, '\n'));
}

static void test_bad_files(void **state) {
    (void)state;
    Game *g = &g_game;
    Replay *r = &g->crs.ghost_run;
    uint8_t *d = load_bytes(COMMITTED);
    assert_non_null(d);
    SkyError err = {0};
    static uint8_t copy[REPLAY_FILE_MAX];
    memcpy(copy, d, g_len);
    copy[g_len / 2] ^= 0x40;
    expect_line(replay_parse(r, copy, g_len, &err), &err, "damaged (checksum");
    memcpy(copy, d, g_len);
    expect_line(replay_parse(r, copy, g_len - 100, &err), &err, "damaged");
    expect_line(replay_parse(r, copy, 5, &err), &err, "not a skyisles replay");
    copy[8] = 9;   /* format version 9 */
    fix_checksum(copy, g_len);
    expect_line(replay_parse(r, copy, g_len, &err), &err, "format version 9");
    memcpy(copy, d, g_len);
    copy[12] = 77;   /* simulation version 77 */
    fix_checksum(copy, g_len);
    assert_true(replay_parse(r, copy, g_len, &err));
    expect_line(replay_check(r, g->crs.meta.pack_checksum, g->crs.meta.gen, "x", &err), &err, "simulation version 77");
    assert_true(replay_parse(r, d, g_len, &err));
    expect_line(replay_check(r, g->crs.meta.pack_checksum ^ 1, g->crs.meta.gen, "x", &err), &err, "another pack");
    WorldGenParams other = *g->crs.meta.gen;
    other.seed++;
    expect_line(replay_check(r, g->crs.meta.pack_checksum, &other, "x", &err), &err, "other world parameters");
    /* A parameter this build does not know: the text and both checksums made good. */
    memcpy(copy, d, g_len);
    memcpy(copy + REPLAY_FIXED_BYTES, "zzzz", 4);
    uint32_t plen = copy[538] | (uint32_t)copy[539] << 8;
    uint64_t ph = hash_fnv1a64(copy + REPLAY_FIXED_BYTES, plen, 0);
    for (int i = 0; i < 8; i++) copy[32 + i] = (uint8_t)(ph >> (8 * i));
    fix_checksum(copy, g_len);
    assert_true(replay_parse(r, copy, g_len, &err));
    WorldParams wp = *world_params(g->svc.world);
    expect_line(replay_apply_params(r, &wp, "x", &err), &err, "not one this build knows");
    free(d);
    /* --replay with a damaged file: the boot stops with the line, nothing flies. */
    char path[400];
    snprintf(path, sizeof path, "%s/damaged.skyr", g_dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite("SKYRPLY\x1a", 1, 8, f);
    fclose(f);
    static Game other_game;
    static GameOptions opt;
    bool exit_now;
    TestArgs a = test_args("--headless", "--mem", "128", "--replay", path);
    assert_true(game_parse_args(a.argc, a.argv, &opt, &exit_now));
    assert_false(game_boot(&other_game, &opt, &err));
    printf("  --replay damaged: %s\n", err.msg);
    assert_int_equal(err.code, SKY_ERR_INPUT);
    game_shutdown(&other_game);
}

static void test_ghost_is_the_replay(void **state) {
    (void)state;
    Game *g = &g_game;
    /* The flight so far kept as a course's best run, then flown as the ghost. */
    float splits[3] = {10.0f, 20.5f, 31.0f};
    assert_int_equal(game_keep_best(&g->crs, &g->ses, &g->cfg.opt, "test-course", 120.0, splits, 3), 1);
    assert_int_equal(game_keep_best(&g->crs, &g->ses, &g->cfg.opt, "test-course", 130.0, splits, 3), 0);   /* slower: not kept */
    assert_true(game_ghost_start(&g->crs, "test-course"));
    assert_false(game_ghost_start(&g->crs, "no-such-course"));
    assert_true(game_ghost_start(&g->crs, "test-course"));
    PlayCtx c = game_play_ctx(&g->cfg, &g->svc, &g->ses, &g->crs);
    const uint32_t n = GHOST_STEPS;
    ghost_step(&g->crs.ghost, &c, n);
    assert_int_equal(ghost_steps(&g->crs.ghost), n);
    uint64_t ghost = play_sim_hash(&g->crs.ghost.play, &g->crs.ghost.flight, 0, 0);
    static Replay same;
    SkyError err = {0};
    char path[400];
    snprintf(path, sizeof path, "%s/replays/best-test-course.skyr", g_dir);
    assert_true(replay_init(&same, &g->svc.mem));
    assert_true(replay_load(&same, path, &err));
    uint64_t direct = fly_replay(g, &same, (int)n, NULL);
    printf("  ghost at step %u: %016llx, the replay at step %u: %016llx\n", n, (unsigned long long)ghost, n,
           (unsigned long long)direct);
    assert_true(ghost == direct);
    float t;
    assert_true(ghost_ring_time(&g->crs.ghost, 1, &t));
    assert_true(t == 20.5f);
    assert_false(ghost_ring_time(&g->crs.ghost, 3, &t));
    assert_true(ghost_course_time(&g->crs.ghost) == 120.0);
    FlightState v;
    assert_true(ghost_view(&g->crs.ghost, 0.0, &v));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_minute_flight_replays),
        cmocka_unit_test(test_committed_x86_replay),
        cmocka_unit_test(test_step_independent_of_frame_rate),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_ghost_is_the_replay),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
