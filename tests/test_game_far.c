/* Tests for getting far (the game's side of a world without an edge), with the real game booted headless:
 * --start X,Y,Z parses 1e12 and names itself and the form in one line when bad, and starts the
 * flight there; the pause menu's Fly to page, driven by a pad's D-pad and A alone and by typed
 * keys, reaches X = 10^12 m and Z = -10^12 m and moves the aircraft there (the world told of the
 * jump); Backspace while typing deletes a digit instead of leaving the page; the Continue file
 * and a replay's header keep a position at 1e12 + 0.1 bit for bit through save and load; the
 * position's text reads at that distance. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <SDL2/SDL.h>

#include "game/game.h"
#include "support/game_fixture.h"
#include "support/game_input.h"

#define FAR 1e12
#define START_X 1000000000000.1   /* 1e12 + 0.1 */
#define START_Z -2500.0

static Game g_game;
static char g_dir[256];
static const float DT = 1.0f / 60.0f;

static void frames(int n) { fixture_frames(&g_game, n, DT); }
static void frame(void) { frames(1); }

static int setup(void **state) {
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/skyisles_far_XXXXXX");
    if (!mkdtemp(g_dir)) return -1;
    setenv("SKYISLES_DATA_DIR", "assets", 1);
    static GameOptions opt;
    TestArgs args = test_args("--headless", "--config", g_dir, "--view-radius", "2", "--mem", "96", "--start",
                              "1000000000000.1,90,-2500");
    if (!fixture_game_boot(&g_game, &opt, args)) return -1;
    return 0;
}

static int teardown(void **state) {
    (void)state;
    return fixture_game_end(&g_game, g_dir);
}

/* game_parse_args on one --start value: its result, and the line it printed on stderr. */
static bool parse_start(const char *value, const char *also, char *line, size_t n) {
    char err_path[300];
    snprintf(err_path, sizeof err_path, "%s/stderr.txt", g_dir);
    fflush(stderr);
    int saved = dup(2);
    FILE *f = fopen(err_path, "w+");
    assert_non_null(f);
    dup2(fileno(f), 2);
    TestArgs a = test_args("--headless", "--start", value, also, "1,2,3,0,0");
    static GameOptions o;
    bool exit_now;
    bool ok = game_parse_args(a.argc, a.argv, &o, &exit_now);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(f);
    line[0] = 0;
    if (!fgets(line, (int)n, f)) line[0] = 0;
    fclose(f);
    return ok;
}

static void test_start_option(void **state) {
    (void)state;
    char line[400];
    static GameOptions o;
    bool exit_now;
    TestArgs a = test_args("--headless", "--start", "1e12,80.5,-1000000000000");
    assert_true(game_parse_args(a.argc, a.argv, &o, &exit_now));
    assert_true(o.start_set);
    assert_true(o.start[0] == 1e12 && o.start[1] == 80.5 && o.start[2] == -1e12);
    static const char *const bad[] = {"1e12,80", "1e12,80,0,4", "a,b,c", "1e16,80,0", "0,80,-5e12", "nan,80,0", "1e12;80;0", "",
                                      "1e12,,0", "inf,0,0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_false(parse_start(bad[i], NULL, line, sizeof line));
        printf("  --start '%s' -> %s", bad[i], line);
        assert_non_null(strstr(line, "--start"));
        assert_non_null(strstr(line, "X,Y,Z"));
        assert_non_null(strchr(line, '\n'));   /* one line */
    }
    assert_false(parse_start("1,2,3", "--camera", line, sizeof line));
    printf("  --start with --camera -> %s", line);
    assert_non_null(strstr(line, "--camera"));
    /* A replay or a recorded course flies from its own start: --start with them is one line too. */
    assert_false(parse_start("1,2,3", "--replay", line, sizeof line));
    printf("  --start with --replay -> %s", line);
    assert_non_null(strstr(line, "--replay"));
    assert_false(parse_start("1,2,3", "--record-attract", line, sizeof line));
    assert_non_null(strstr(line, "--record-attract"));
}

/* The boot's --start: the flight starts in open air near 1e12 + 0.1 (the restart search moves
 * it at most 68 m sideways), the home spawn stays where restarts with no safe place go, and the
 * title offers no Continue. */
static void test_start_boot(void **state) {
    (void)state;
    const FlightState *f = &g_game.ses.flight;
    printf("  --start 1000000000000.1,90,-2500: flight at %.17g, %.17g, %.17g\n", f->x, f->y, f->z);
    assert_true(fabs(f->x - START_X) <= 68.0 && fabs(f->z - START_Z) <= 68.0);
    assert_true(f->y >= 90.0 - 1e-9);
    assert_true(fabs(g_game.svc.spawn.flight.x) < 1e4);
    assert_false(g_game.ses.cont.have);
    assert_true(sim_clear_box(g_game.svc.world, f->x, f->y, f->z, SIM_RESPAWN_CLEARANCE));
}

/* ---------------------------------------------------------------- the Fly to page */
typedef FixturePad Pad;

static Pad plug(void) {
    Pad p = fixture_pad_plug();
    frames(2);
    return p;
}

static void unplug(Pad *p) {
    fixture_pad_unplug(p);
    frames(2);
}

/* A press and release, a frame each. */
static void button(Pad *p, int b) {
    SDL_JoystickSetVirtualButton(p->js, b, 1);
    frame();
    SDL_JoystickSetVirtualButton(p->js, b, 0);
    frame();
}

static void key(SDL_Scancode sc) {
    fixture_key(sc);
    frame();
}

static int item_with(const char *label) {
    for (int i = 0; i < g_game.ses.menu.count; i++)
        if (!strcmp(g_game.ses.menu.items[i].label, label)) return i;
    return -1;
}

static int coord_row(FlyToRow row) {
    for (int i = 0; i < g_game.ses.menu.count; i++)
        if (g_game.ses.menu.items[i].kind == MENU_COORD && g_game.ses.menu.items[i].id == (int)row) return i;
    return -1;
}

/* D-pad down or up until the selection is at index `to`. */
static void select_item(Pad *p, int to) {
    assert_true(to >= 0);
    for (int guard = 0; g_game.ses.menu.sel != to && guard < 64; guard++)
        button(p, g_game.ses.menu.sel < to ? SDL_CONTROLLER_BUTTON_DPAD_DOWN : SDL_CONTROLLER_BUTTON_DPAD_UP);
    assert_int_equal(g_game.ses.menu.sel, to);
}

static void value_of(int item, char *buf, size_t n) { menu_item_value(&g_game.ses.menu, &g_game.ses.menu.items[item], buf, n); }

static void test_fly_to_with_pad_and_keys(void **state) {
    (void)state;
    /* From near the home island, flying. */
    flight_init(&g_game.ses.flight, 40.0, 110.0, 300.0, 0.0f, 40.0f);
    g_game.ses.play.state = PLAY_FLY;
    g_game.ses.play.overlay = OVERLAY_NONE;
    Pad p = plug();
    button(&p, SDL_CONTROLLER_BUTTON_START);
    assert_int_equal(g_game.ses.play.overlay, OVERLAY_MENU);
    select_item(&p, item_with("Fly to"));
    button(&p, SDL_CONTROLLER_BUTTON_A);
    assert_int_equal(g_game.ses.menu.page, MENU_PAGE_FLYTO);
    char v[128];
    /* The page opens on where the aircraft is. */
    value_of(coord_row(FLYTO_X), v, sizeof v);
    printf("  X on opening: %s\n", v);
    assert_string_equal(v, "40 m");
    /* Pad alone: X to 0 (A), the step to 10^12 (right nine times from 1 km), X one step right. */
    select_item(&p, coord_row(FLYTO_X));
    button(&p, SDL_CONTROLLER_BUTTON_A);
    select_item(&p, coord_row(FLYTO_STEP));
    for (int i = 0; i < 9; i++) button(&p, SDL_CONTROLLER_BUTTON_DPAD_RIGHT);
    value_of(coord_row(FLYTO_STEP), v, sizeof v);
    printf("  step: %s\n", v);
    assert_string_equal(v, "1e12 m");
    select_item(&p, coord_row(FLYTO_X));
    button(&p, SDL_CONTROLLER_BUTTON_DPAD_RIGHT);
    value_of(coord_row(FLYTO_X), v, sizeof v);
    printf("  X: %s\n", v);
    assert_string_equal(v, "1 000 000 000 000 m");
    assert_true(g_game.ses.menu.fly.pos[FLYTO_X] == FAR);
    /* Keys: Z typed as 1000000000000 and its sign; a stray digit taken back with Backspace (which
     * stays on the page); a digit that would pass GAME_POS_MAX (4e12) is not taken. */
    select_item(&p, coord_row(FLYTO_Z));
    key(SDL_SCANCODE_1);
    for (int i = 0; i < 11; i++) key(SDL_SCANCODE_0);
    key(SDL_SCANCODE_7);
    key(SDL_SCANCODE_BACKSPACE);
    key(SDL_SCANCODE_0);
    key(SDL_SCANCODE_5);   /* 1e13 + 5: past the farthest place, refused */
    assert_int_equal(g_game.ses.menu.page, MENU_PAGE_FLYTO);
    key(SDL_SCANCODE_MINUS);
    value_of(coord_row(FLYTO_Z), v, sizeof v);
    printf("  Z typed: %s\n", v);
    assert_string_equal(v, "-1 000 000 000 000 m_");
    assert_true(g_game.ses.menu.fly.pos[FLYTO_Z] == -FAR);
    /* Fly there: the aircraft goes, the menu closes, the world hears of the jump. */
    uint64_t jumps = world_stats(g_game.svc.world).gov_jumps;
    select_item(&p, item_with("Fly there"));
    button(&p, SDL_CONTROLLER_BUTTON_A);
    const FlightState *f = &g_game.ses.flight;
    printf("  flew to %.17g, %.17g, %.17g (jumps %llu -> %llu)\n", f->x, f->y, f->z, (unsigned long long)jumps,
           (unsigned long long)world_stats(g_game.svc.world).gov_jumps);
    assert_int_equal(g_game.ses.play.overlay, OVERLAY_NONE);
    assert_true(fabs(f->x - FAR) <= 68.0 && fabs(f->z + FAR) <= 68.0);
    assert_true(world_stats(g_game.svc.world).gov_jumps > jumps);
    assert_true(fabs(g_game.ses.camera.x - f->x) < 100.0 && fabs(g_game.ses.camera.z - f->z) < 100.0);   /* the camera cut there */
    assert_true(fabs(g_game.ses.play.safe_x - f->x) < 1.0);   /* and a crash restarts out here */
    /* It flies on from there: no crash, still far out. */
    frames(60);
    assert_true(fabs(f->x - FAR) < 1000.0);
    assert_int_equal(g_game.ses.play.crashes, 0);
    unplug(&p);
}

/* ---------------------------------------------------------------- what is kept of a position */
static void test_continue_keeps_1e12_exactly(void **state) {
    (void)state;
    FlightState f;
    flight_init(&f, START_X, 80.123456789012, -START_X, 1.0f, 40.0f);
    char text[1024];
    ContinueSpot s = {.seed = 7, .x = f.x, .y = f.y, .z = f.z, .yaw = f.yaw, .speed = f.speed};
    snprintf(s.mode, sizeof s.mode, "free");
    continue_format(&s, text, sizeof text);
    ContinueSpot back;
    assert_true(continue_parse(text, &back));
    assert_true(back.x == s.x && back.y == s.y && back.z == s.z);
    /* Through the file: written, then read as the next start reads it. */
    GameContinue c;
    continue_init(&c, g_dir, 7, true);
    assert_true(continue_save(&c, &f, GAME_CAMERA_CHASE, "free"));
    GameContinue again;
    continue_init(&again, g_dir, 7, true);
    assert_true(again.have);
    printf("  saved %.17g, %.17g, %.17g; read %.17g, %.17g, %.17g\n", f.x, f.y, f.z, again.spot.x, again.spot.y,
           again.spot.z);
    assert_true(again.spot.x == f.x && again.spot.y == f.y && again.spot.z == f.z);
    assert_true(again.spot.x != 1e12);   /* the tenth is there */
    /* Past the farthest coordinate the game takes, the file is no saved flight. */
    s.x = 2e15;
    continue_format(&s, text, sizeof text);
    assert_false(continue_parse(text, &back));
    /* A hand-edited file with a value no flight has, or junk after a number, is no saved flight
     * either (a NaN attitude or an infinite speed would fly the aircraft to NaN). */
    s.x = f.x;
    continue_format(&s, text, sizeof text);
    assert_true(continue_parse(text, &back));
    static const char *const bad[][2] = {
        {"pitch_deg: ", "pitch_deg: nan\n#"}, {"roll_deg: ", "roll_deg: inf\n#"}, {"heading_deg: ", "heading_deg: 1e9\n#"},
        {"speed: ", "speed: inf\n#"},         {"speed: ", "speed: -5\n#"},       {"throttle: ", "throttle: nan\n#"},
        {"throttle: ", "throttle: 2\n#"},     {"position: ", "position: 1, 90, 2 junk\n#"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char edited[1200];
        const char *at = strstr(text, bad[i][0]);
        assert_non_null(at);
        snprintf(edited, sizeof edited, "%.*s%s%s", (int)(at - text), text, bad[i][1], at);
        if (continue_parse(edited, &back)) fail_msg("accepted: %s", bad[i][1]);
    }
    /* A height past the world's layer continues at the layer's top, in the world. */
    FlightState far = f, got = f;
    int camera = 0;
    bool moved = false;
    GameContinue hi = again;
    hi.spot.y = 1e9;
    assert_true(continue_restore(&hi, g_game.svc.world, &far, &got, &camera, &moved));
    printf("  saved height 1e9: continued at %.1f\n", got.y);
    assert_true(got.y <= (double)WORLD_Y_MAX);
}

static void test_replay_keeps_1e12_exactly(void **state) {
    (void)state;
    static Replay rec, back;
    assert_true(replay_init(&rec, &g_game.svc.mem));
    assert_true(replay_init(&back, &g_game.svc.mem));
    ReplayStart s;
    memset(&s, 0, sizeof s);
    flight_init(&s.flight, START_X, 95.5, -START_X, 0.5f, 40.0f);
    s.flight.cruise_y = 95.5;
    s.safe_x = START_X - 0.2;
    s.safe_y = 95.5;
    s.safe_z = -START_X;
    s.safe_valid = true;
    s.state = PLAY_FLY;
    replay_begin(&rec, &g_game.crs.meta, &s, 0, 0);
    ReplayInput q = {0};
    for (int i = 0; i < 30; i++) assert_true(replay_record(&rec, &q));
    replay_end(&rec, 0x1234, 0, 0);
    char path[400];
    snprintf(path, sizeof path, "%s/far.skyr", g_dir);
    SkyError err = {0};
    assert_true(replay_save(&rec, path, &err));
    if (!replay_load(&back, path, &err)) fail_msg("%s", err.msg);
    const ReplayStart *b = &back.h.start;
    printf("  replay start %.17g, %.17g, %.17g -> %.17g, %.17g, %.17g\n", s.flight.x, s.flight.y, s.flight.z,
           b->flight.x, b->flight.y, b->flight.z);
    assert_true(b->flight.x == s.flight.x && b->flight.y == s.flight.y && b->flight.z == s.flight.z);
    assert_true(b->safe_x == s.safe_x && b->safe_z == s.safe_z);
    assert_int_equal(back.h.steps, 30);
}

/* The HUD's and the menu's text of a position. */
static void test_position_text(void **state) {
    (void)state;
    static const struct { double v; const char *text; } cases[] = {
        {0.0, "0.0 m"}, {-0.01, "0.0 m"}, {123.45, "123.5 m"}, {-9999.94, "-9999.9 m"}, {12345.6, "12.346 km"},
        {START_X, "1 000 000 000.000 km"}, {-1e12 - 1.0, "-1 000 000 000.001 km"}, {1e15, "1 000 000 000 000.000 km"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char t[64];
        flyto_metres_text(cases[i].v, t, sizeof t);
        printf("  %.17g -> %s\n", cases[i].v, t);
        assert_string_equal(t, cases[i].text);
    }
    /* The pad's step stops at the farthest coordinate, and typing past it is refused. */
    FlyTo t;
    flyto_here(&t, 0.0, 80.0, 0.0);
    for (int i = 0; i < 3; i++) flyto_step(&t, FLYTO_STEP, 1, true);
    assert_int_equal(t.exp, FLYTO_EXP_MAX);
    for (int i = 0; i < 5; i++) flyto_step(&t, FLYTO_X, 1, false);
    assert_true(t.pos[FLYTO_X] == GAME_POS_MAX);
    flyto_key(&t, FLYTO_Z, PKEY_9);
    for (int i = 0; i < 20; i++) flyto_key(&t, FLYTO_Z, PKEY_9);
    assert_true(t.pos[FLYTO_Z] == 999999999999.0);   /* 12 nines: a 13th would pass 4e12 */
    flyto_step(&t, FLYTO_Y, 1, true);
    flyto_step(&t, FLYTO_Y, 1, true);
    assert_true(t.pos[FLYTO_Y] <= (double)WORLD_Y_MAX);   /* the height stays in the world */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_option),
        cmocka_unit_test(test_start_boot),
        cmocka_unit_test(test_fly_to_with_pad_and_keys),
        cmocka_unit_test(test_continue_keeps_1e12_exactly),
        cmocka_unit_test(test_replay_keeps_1e12_exactly),
        cmocka_unit_test(test_position_text),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
