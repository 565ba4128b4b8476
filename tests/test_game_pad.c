/* Tests for the game as a controller drives it: the real game booted headless (no window, no
 * GL) with SDL's virtual joystick plugged in, pressed and unplugged. Pitch-up climbs, the
 * throttle changes speed, Back+Start quits, unplugging pauses and re-plugging resumes, a
 * mapping from the bundled database is applied to a pad with a known GUID, the keyboard works
 * beside the pad, and the aircraft crashes into a cliff (restarting in open air) unless
 * collision is off; the d-pad alone flies it (stickless handhelds). */
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

static Game g_game;
static char g_dir[256];
static const float DT = 1.0f / 60.0f;

static void frames(int n) { fixture_frames(&g_game, n, DT); }
static void frame(void) { frames(1); }

static int setup(void **state) {
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/skyisles_pad_XXXXXX");
    if (!mkdtemp(g_dir)) return -1;
    setenv("SKYISLES_DATA_DIR", "assets", 1);   /* the bundled controller database, from the repository */
    static GameOptions opt;
    TestArgs args = test_args("--headless", "--config", g_dir, "--view-radius", "3", "--mem", "96");
    if (!fixture_game_boot(&g_game, &opt, args)) return -1;
    return 0;
}

static int teardown(void **state) {
    (void)state;
    return fixture_game_end(&g_game, g_dir);
}

typedef FixturePad Pad;

/* A standard pad SDL maps itself (a virtual joystick of the game controller type). */
static Pad plug_standard(void) { return fixture_pad_plug(); }

static void unplug(Pad *p) { fixture_pad_unplug(p); }

/* Back in the air at the spawn, flying straight and level under the player's control. */
static void restart_flight(void) {
    g_game.ses.flight = g_game.svc.spawn.flight;
    g_game.ses.flight.throttle = flight_throttle_for(&g_game.ses.model, g_game.ses.flight.speed);
    g_game.ses.play.state = PLAY_FLY;
    g_game.ses.play.overlay = OVERLAY_NONE;
    g_game.ses.play.demo = false;
    g_game.cfg.set.collision = true;
    /* The camera goes with the aircraft at once (as after a respawn): the world streams around
     * the camera, so a wait for the world must not wait around the previous test's place. */
    g_game.ses.rig.settled = false;
    camera_rig_update(&g_game.ses.rig, &g_game.ses.flight, 0.0f, &g_game.ses.camera);
}

static void test_pitch_up_and_throttle(void **state) {
    (void)state;
    Pad p = plug_standard();
    frames(2);
    assert_int_equal(g_game.svc.input.st.active_pad >= 0, 1);
    assert_true(g_game.svc.input.st.pad_connected);
    restart_flight();
    double y0 = g_game.ses.flight.y;
    /* Stick pulled back (down): nose up, the aircraft climbs. */
    SDL_JoystickSetVirtualAxis(p.js, SDL_CONTROLLER_AXIS_LEFTY, 32767);
    frames(30);
    SDL_JoystickSetVirtualAxis(p.js, SDL_CONTROLLER_AXIS_LEFTY, 0);
    frames(90);
    printf("  stick back 0.5 s: climbed %.1f m (pitch %.1f deg)\n", g_game.ses.flight.y - y0, g_game.ses.flight.pitch / SIM_DEG);
    assert_true(g_game.ses.flight.y > y0 + 15.0);
    assert_int_equal(g_game.ses.play.crashes, 0);
    /* Right trigger: the throttle goes up and the speed follows; left trigger brings it down. */
    restart_flight();
    float v0 = g_game.ses.flight.speed;
    SDL_JoystickSetVirtualAxis(p.js, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 32767);
    frames(120);
    SDL_JoystickSetVirtualAxis(p.js, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 0);
    frames(60);
    float v1 = g_game.ses.flight.speed;
    printf("  right trigger 2 s: %.0f -> %.0f m/s (throttle %.2f)\n", v0, v1, g_game.ses.flight.throttle);
    assert_true(v1 > v0 + 30.0f);
    SDL_JoystickSetVirtualAxis(p.js, SDL_CONTROLLER_AXIS_TRIGGERLEFT, 32767);
    frames(240);
    SDL_JoystickSetVirtualAxis(p.js, SDL_CONTROLLER_AXIS_TRIGGERLEFT, 0);
    frames(120);
    assert_true(g_game.ses.flight.speed < v1 - 30.0f);
    unplug(&p);
    frames(2);
}

static void test_unplug_pauses_replug_resumes(void **state) {
    (void)state;
    Pad p = plug_standard();
    frames(2);
    restart_flight();
    frames(5);
    unplug(&p);
    frames(2);
    assert_int_equal(g_game.ses.play.overlay, OVERLAY_MENU);
    assert_true(g_game.ses.play.paused_for_pad);
    assert_non_null(strstr(g_game.ses.play.pad_notice, "disconnected"));
    /* Paused: the aircraft does not move. */
    double x = g_game.ses.flight.x, z = g_game.ses.flight.z;
    frames(30);
    assert_true(g_game.ses.flight.x == x && g_game.ses.flight.z == z);
    p = plug_standard();
    frames(2);
    assert_int_equal(g_game.ses.play.overlay, OVERLAY_NONE);
    assert_false(g_game.ses.play.paused_for_pad);
    frames(10);
    assert_true(g_game.ses.flight.x != x || g_game.ses.flight.z != z);   /* flying again */
    unplug(&p);
    frames(2);
}

static void test_back_start_quits(void **state) {
    (void)state;
    Pad p = plug_standard();
    frames(2);
    restart_flight();
    g_game.ses.play.quit = false;
    SDL_JoystickSetVirtualButton(p.js, SDL_CONTROLLER_BUTTON_BACK, 1);
    frames(2);
    assert_false(g_game.ses.play.quit);   /* Back alone: the HUD switch */
    SDL_JoystickSetVirtualButton(p.js, SDL_CONTROLLER_BUTTON_START, 1);
    frames(2);
    assert_true(g_game.ses.play.quit);
    SDL_JoystickSetVirtualButton(p.js, SDL_CONTROLLER_BUTTON_BACK, 0);
    SDL_JoystickSetVirtualButton(p.js, SDL_CONTROLLER_BUTTON_START, 0);
    g_game.ses.play.quit = false;
    unplug(&p);
    frames(2);
}

/* A joystick SDL cannot map by itself, with the vendor and product of a handheld the bundled
 * database knows: the database's mapping is applied (its name, its Start on raw button 11). */
static void test_database_mapping_applied(void **state) {
    (void)state;
    SDL_VirtualJoystickDesc d;
    SDL_zero(d);
    d.version = SDL_VIRTUAL_JOYSTICK_DESC_VERSION;
    d.type = SDL_JOYSTICK_TYPE_UNKNOWN;
    d.naxes = 6;
    d.nbuttons = 15;
    d.nhats = 1;
    d.vendor_id = 0x1008;
    d.product_id = 0x01e5;
    d.name = "Anbernic Handheld";
    int index = SDL_JoystickAttachVirtualEx(&d);
    assert_true(index >= 0);
    char guid[33];
    SDL_JoystickGetGUIDString(SDL_JoystickGetDeviceGUID(index), guid, sizeof guid);
    assert_string_equal(guid, "ff000c0e08100000e501000000007600");   /* the known GUID */
    SDL_Joystick *js = SDL_JoystickOpen(index);
    assert_non_null(js);
    frames(2);
    assert_true(g_game.svc.input.st.pad_connected);
    char *mapping = SDL_GameControllerMappingForDeviceIndex(index);
    assert_non_null(mapping);
    printf("  mapping applied: %.90s...\n", mapping);
    assert_non_null(strstr(mapping, "Anbernic Handheld"));
    assert_non_null(strstr(mapping, "start:b11"));
    SDL_free(mapping);
    /* Raw button 11 is Start: it pauses. */
    restart_flight();
    SDL_JoystickSetVirtualButton(js, 11, 1);
    frames(2);
    SDL_JoystickSetVirtualButton(js, 11, 0);
    frames(2);
    assert_int_equal(g_game.ses.play.overlay, OVERLAY_MENU);
    SDL_JoystickClose(js);
    SDL_JoystickDetachVirtual(index);
    frames(2);
    g_game.ses.play.overlay = OVERLAY_NONE;
}

static void press_key(SDL_Scancode sc, bool down) {
    SDL_Event e;
    SDL_zero(e);
    e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
    e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
    e.key.keysym.scancode = sc;
    SDL_PushEvent(&e);
}

static void test_keyboard_beside_the_pad(void **state) {
    (void)state;
    Pad p = plug_standard();
    frames(2);
    restart_flight();
    double y0 = g_game.ses.flight.y;
    press_key(SDL_SCANCODE_W, true);   /* push: nose down */
    frames(30);
    press_key(SDL_SCANCODE_W, false);
    frames(30);
    assert_true(g_game.ses.flight.y < y0 - 5.0);
    /* Esc pauses, Esc again resumes. */
    press_key(SDL_SCANCODE_ESCAPE, true);
    press_key(SDL_SCANCODE_ESCAPE, false);
    frames(1);
    assert_int_equal(g_game.ses.play.overlay, OVERLAY_MENU);
    press_key(SDL_SCANCODE_ESCAPE, true);
    press_key(SDL_SCANCODE_ESCAPE, false);
    frames(1);
    assert_int_equal(g_game.ses.play.overlay, OVERLAY_NONE);
    unplug(&p);
    frames(2);
}

/* A rock face ahead along +x from a clear start: its first solid block's x. */
static bool find_face(double *x0, double *y, double *z, double *face) {
    for (int k = 0; k < 60; k++) {
        double sy = 40.0 + 3.0 * k, sz = 17.0 + 53.0 * k, sx = -400.0 + 7.0 * k;
        if (!sim_clear_box(g_game.svc.world, sx, sy, sz, SIM_RESPAWN_CLEARANCE)) continue;
        for (double x = sx; x < sx + 2000.0; x += 1.0)
            if (world_solid_at(g_game.svc.world, floor(x) + 0.5, floor(sy) + 0.5, floor(sz) + 0.5)) {
                if (x - sx < 80.0) break;   /* room to fly at it */
                *x0 = x - 60.0;
                *y = floor(sy) + 0.5;
                *z = floor(sz) + 0.5;
                *face = floor(x);
                return true;
            }
    }
    return false;
}

static void aim_at_face(double x0, double y, double z, float speed) {
    restart_flight();
    flight_init(&g_game.ses.flight, x0, y, z, 3.14159265f / 2.0f, speed);   /* yaw +90: along +x */
    g_game.ses.flight.throttle = flight_throttle_for(&g_game.ses.model, speed);
    g_game.ses.play.safe_x = x0;
    g_game.ses.play.safe_y = y;
    g_game.ses.play.safe_z = z;
    g_game.ses.play.safe_yaw = 3.14159265f / 2.0f;
    g_game.cfg.set.weather = 1 + WEATHER_FOG;   /* the stillest air (1.5 m/s): it flies at the face, not past it */
}

static bool box_is_air(double x, double y, double z, double r) {
    for (double by = floor(y - r); by <= floor(y + r); by++)
        for (double bz = floor(z - r); bz <= floor(z + r); bz++)
            for (double bx = floor(x - r); bx <= floor(x + r); bx++)
                if (world_density_at(g_game.svc.world, bx + 0.5, by + 0.5, bz + 0.5) > 0.0f) return false;
    return true;
}

static void test_cliff_crash_restart_and_collision_off(void **state) {
    (void)state;
    double x0 = 0.0, y = 0.0, z = 0.0, face = 0.0;
    assert_true(find_face(&x0, &y, &z, &face));
    aim_at_face(x0, y, z, 60.0f);
    uint64_t crashes = g_game.ses.play.crashes;
    for (int i = 0; i < 180 && g_game.ses.play.state != PLAY_CRASH; i++) frame();
    assert_int_equal(g_game.ses.play.state, PLAY_CRASH);
    assert_int_equal(g_game.ses.play.crashes, crashes + 1);
    assert_true(g_game.ses.flight.speed == 0.0f);          /* W9: speed to zero */
    assert_true(g_game.ses.flight.x < face && g_game.ses.flight.x > face - 2.0);
    frames((int)(PLAY_CRASH_SECONDS * 60.0f) + 2);
    assert_int_equal(g_game.ses.play.state, PLAY_FLY);
    double d = fabs(g_game.ses.flight.x - face) + fabs(g_game.ses.flight.z - z);
    printf("  crash at x %.1f (face %.0f); restart %.0f, %.0f, %.0f (%.0f m from the crash)\n", face - 0.5, face,
           g_game.ses.flight.x, g_game.ses.flight.y, g_game.ses.flight.z, d);
    assert_true(box_is_air(g_game.ses.flight.x, g_game.ses.flight.y, g_game.ses.flight.z, SIM_RESPAWN_CLEARANCE));
    assert_true(g_game.ses.flight.speed >= g_game.ses.model.speed_min);
    /* Collision off: the same approach passes through the rock. */
    aim_at_face(x0, y, z, 60.0f);
    g_game.cfg.set.collision = false;
    crashes = g_game.ses.play.crashes;
    frames(120);
    assert_int_equal(g_game.ses.play.crashes, crashes);
    assert_true(g_game.ses.flight.x > face + 20.0);
    g_game.cfg.set.collision = true;
}

static void tap(SDL_Scancode sc) {
    press_key(sc, true);
    press_key(sc, false);
    frames(1);
}

/* A panel row by its world parameter's name (the label is the player's wording). */
static int panel_index(const char *name) {
    for (int i = 0; i < g_game.ses.menu.count; i++)
        if (g_game.ses.menu.items[i].param && !strcmp(g_game.ses.menu.items[i].param->name, name)) return i;
    return -1;
}

/* The parameter panel (W11), driven by keys as a player would: a generation value rebuilds at
 * once (new epoch) with the old world still drawn until the new chunks replace it; the view
 * radius applies at once with no new epoch; leaving the menu saves the settings. */
static void test_panel_changes(void **state) {
    (void)state;
    restart_flight();
    assert_true(game_wait_world(&g_game, 120.0));
    tap(SDL_SCANCODE_ESCAPE);
    assert_int_equal(g_game.ses.play.overlay, OVERLAY_MENU);
    assert_int_equal(g_game.ses.menu.page, MENU_PAGE_PAUSE);
    tap(SDL_SCANCODE_DOWN);
    tap(SDL_SCANCODE_RETURN);
    assert_int_equal(g_game.ses.menu.page, MENU_PAGE_PANEL);
    /* down to the view radius, one step right */
    int vr = panel_index("view_radius");
    assert_true(vr > 0);
    for (int i = 0; i < vr; i++) tap(SDL_SCANCODE_DOWN);
    assert_int_equal(g_game.ses.menu.sel, vr);
    WorldStats w0 = world_stats(g_game.svc.world);
    int r0 = world_params(g_game.svc.world)->live.view_radius;
    tap(SDL_SCANCODE_RIGHT);
    assert_int_equal(world_params(g_game.svc.world)->live.view_radius, r0 + 1);
    WorldStats w1 = world_stats(g_game.svc.world);
    printf("  view radius %d -> %d: epoch %u -> %u, chunks %u -> %u, stale %u\n", r0, r0 + 1, w0.epoch, w1.epoch,
           w0.resident, w1.resident, w1.stale);
    assert_int_equal(w1.epoch, w0.epoch);       /* no rebuild */
    assert_int_equal(w1.stale, 0);
    assert_true(w1.resident >= w0.resident);    /* nothing dropped */
    assert_true(game_wait_world(&g_game, 120.0));   /* the wider ring streams in */
    frames(1);
    assert_int_equal(world_stats(g_game.svc.world).void_chunks, 0);
    /* up to a generation value: the world's epoch moves, its chunks stay on screen as stale */
    int ba = panel_index("base_amplitude");
    assert_true(ba >= 0 && ba < vr);
    for (int i = vr; i > ba; i--) tap(SDL_SCANCODE_UP);
    float a0 = world_params(g_game.svc.world)->gen.base_amplitude;
    tap(SDL_SCANCODE_RIGHT);
    WorldStats w2 = world_stats(g_game.svc.world);
    assert_true(world_params(g_game.svc.world)->gen.base_amplitude > a0);
    assert_true(w2.epoch > w1.epoch);
    assert_true(w2.stale > 0);
    assert_int_equal(w2.void_chunks, 0);
    /* Back out: resume, and the settings file holds the new values. */
    tap(SDL_SCANCODE_ESCAPE);
    assert_int_equal(g_game.ses.menu.page, MENU_PAGE_PAUSE);
    tap(SDL_SCANCODE_ESCAPE);
    assert_int_equal(g_game.ses.play.overlay, OVERLAY_NONE);
    GameSettings saved;
    settings_default(&saved);
    bool found;
    char warn[320];
    settings_load(&saved, g_dir, &found, warn, sizeof warn);
    assert_true(found);
    assert_string_equal(warn, "");
    assert_int_equal(saved.world.live.view_radius, r0 + 1);
    assert_true(saved.world.gen.base_amplitude == world_params(g_game.svc.world)->gen.base_amplitude);
}

/* Attract mode: left alone on the title, the game flies itself and says so; a key hands the
 * title back. */
static void test_attract_mode(void **state) {
    (void)state;
    restart_flight();
    g_game.ses.play.state = PLAY_START;
    g_game.ses.play.idle_s = 0.0f;
    frames((int)(PLAY_DEMO_IDLE_SECONDS * 60.0f) - 30);
    assert_false(g_game.ses.play.demo);
    frames(60);
    assert_true(g_game.ses.play.demo);
    double x = g_game.ses.flight.x, z = g_game.ses.flight.z;
    frames(60);
    assert_true(fabs(g_game.ses.flight.x - x) + fabs(g_game.ses.flight.z - z) > 20.0);   /* the autopilot flies */
    tap(SDL_SCANCODE_SPACE);
    assert_false(g_game.ses.play.demo);
    assert_int_equal(g_game.ses.play.state, PLAY_START);
    tap(SDL_SCANCODE_RETURN);   /* and from the title into flight */
    assert_int_equal(g_game.ses.play.state, PLAY_FLY);
}

static void dpad(Pad *p, int button, bool down) { SDL_JoystickSetVirtualButton(p->js, button, down ? 1 : 0); }

static float wrap_angle(float a) {
    while (a > 3.14159265f) a -= 6.2831853f;
    while (a < -3.14159265f) a += 6.2831853f;
    return a;
}

/* One frame of a d-pad-only pilot steering for (tx, ty, tz): bank toward the bearing (up to 35
 * degrees), nose toward the height, each by pressing or letting go of a d-pad direction. */
static void dpad_pilot_frame(Pad *p, double tx, double ty, double tz) {
    const FlightState *f = &g_game.ses.flight;
    double dx = tx - f->x, dz = tz - f->z, dist = sqrt(dx * dx + dz * dz);
    float err = wrap_angle((float)atan2(dx, -dz) - f->yaw);
    float want_roll = err * 1.5f > 0.6f ? 0.6f : err * 1.5f < -0.6f ? -0.6f : err * 1.5f;
    float want_pitch = (float)atan2(ty - f->y, dist > 1.0 ? dist : 1.0);
    dpad(p, SDL_CONTROLLER_BUTTON_DPAD_RIGHT, f->roll < want_roll - 0.05f);
    dpad(p, SDL_CONTROLLER_BUTTON_DPAD_LEFT, f->roll > want_roll + 0.05f);
    dpad(p, SDL_CONTROLLER_BUTTON_DPAD_DOWN, f->pitch < want_pitch - 0.03f);
    dpad(p, SDL_CONTROLLER_BUTTON_DPAD_UP, f->pitch > want_pitch + 0.03f);
    frame();
}

/* A handheld without sticks (RG35XX, TrimUI Brick): the d-pad alone climbs, turns and reaches a
 * point 60 degrees off the nose, the sticks never touched. */
static void test_dpad_only_flight(void **state) {
    (void)state;
    Pad p = plug_standard();
    frames(2);
    restart_flight();
    g_game.cfg.set.collision = false;   /* the controls are under test, not the island's shape */
    double y0 = g_game.ses.flight.y;
    dpad(&p, SDL_CONTROLLER_BUTTON_DPAD_DOWN, true);   /* down: nose up, as the stick pulled back */
    frames(45);
    assert_true(g_game.svc.input.st.value[GA_PITCH] > 0.99f);   /* ramped to full deflection */
    dpad(&p, SDL_CONTROLLER_BUTTON_DPAD_DOWN, false);
    frames(1);
    assert_true(g_game.svc.input.st.value[GA_PITCH] == 0.0f);   /* let go: centred at once */
    frames(60);
    printf("  d-pad down 0.75 s: climbed %.1f m\n", g_game.ses.flight.y - y0);
    assert_true(g_game.ses.flight.y > y0 + 10.0);
    float yaw0 = g_game.ses.flight.yaw;
    dpad(&p, SDL_CONTROLLER_BUTTON_DPAD_RIGHT, true);
    frames(30);
    dpad(&p, SDL_CONTROLLER_BUTTON_DPAD_RIGHT, false);
    frames(120);
    float turned = wrap_angle(g_game.ses.flight.yaw - yaw0) / SIM_DEG;
    printf("  d-pad right 0.5 s: turned %.1f deg, bank now %.1f deg\n", turned, g_game.ses.flight.roll / SIM_DEG);
    assert_true(turned > 10.0f);
    /* A point 400 m away, 60 degrees right of the nose and 30 m up. */
    const FlightState *f = &g_game.ses.flight;
    float b = f->yaw + 60.0f * SIM_DEG;
    double tx = f->x + 400.0 * sin(b), ty = f->y + 30.0, tz = f->z - 400.0 * cos(b), best = 1e9;
    int i = 0;
    for (; i < 60 * 30 && best > 15.0; i++) {
        dpad_pilot_frame(&p, tx, ty, tz);
        double dx = f->x - tx, dy = f->y - ty, dz = f->z - tz, d = sqrt(dx * dx + dy * dy + dz * dz);
        if (d < best) best = d;
    }
    printf("  d-pad pilot: %.1f m from the point after %.1f s\n", best, i / 60.0);
    assert_true(best <= 15.0);
    for (int bt = SDL_CONTROLLER_BUTTON_DPAD_UP; bt <= SDL_CONTROLLER_BUTTON_DPAD_RIGHT; bt++) dpad(&p, bt, false);
    g_game.cfg.set.collision = true;
    unplug(&p);
    frames(2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pitch_up_and_throttle),
        cmocka_unit_test(test_unplug_pauses_replug_resumes),
        cmocka_unit_test(test_back_start_quits),
        cmocka_unit_test(test_database_mapping_applied),
        cmocka_unit_test(test_keyboard_beside_the_pad),
        cmocka_unit_test(test_cliff_crash_restart_and_collision_off),
        cmocka_unit_test(test_panel_changes),
        cmocka_unit_test(test_attract_mode),
        cmocka_unit_test(test_dpad_only_flight),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
