/* Tests for Power off and Reboot on the boot-to-sim console: the game booted headless without
 * --boot-service has no such entries; with it the pause menu has Power off and Reboot before
 * Quit, Select on the title opens that menu, choosing Power off with the keys ends the game with
 * the power request, and the request runs `systemctl poweroff` (a stand-in program here). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <SDL2/SDL.h>

#include "game/game.h"

static Game g_game;
static char g_dir[256];

static void frames(int n) {
    for (int i = 0; i < n; i++) {
        PlatformEvents ev;
        platform_poll(g_game.platform, &ev);
        game_frame(&g_game, &ev, 1.0f / 60.0f);
    }
}

static void tap(SDL_Scancode sc) {
    SDL_Event e;
    SDL_zero(e);
    e.type = SDL_KEYDOWN;
    e.key.state = SDL_PRESSED;
    e.key.keysym.scancode = sc;
    SDL_PushEvent(&e);
    e.type = SDL_KEYUP;
    e.key.state = SDL_RELEASED;
    SDL_PushEvent(&e);
    frames(1);
}

static void boot(bool boot_service) {
    static GameOptions opt;
    bool exit_now;
    char *argv[] = {"skyisles", "--headless", "--config", g_dir, "--view-radius", "2", "--mem", "96",
                    boot_service ? "--boot-service" : NULL, NULL};
    assert_true(game_parse_args(boot_service ? 9 : 8, argv, &opt, &exit_now));
    SkyError err = {0};
    assert_true(game_boot(&g_game, &opt, &err));
}

static int menu_index(const char *label) {
    for (int i = 0; i < g_game.menu.count; i++)
        if (!strcmp(g_game.menu.items[i].label, label)) return i;
    return -1;
}

static void open_pause(void) {
    g_game.play.state = PLAY_FLY;
    tap(SDL_SCANCODE_ESCAPE);
    assert_int_equal(g_game.play.overlay, OVERLAY_MENU);
    assert_int_equal(g_game.menu.page, MENU_PAGE_PAUSE);
}

static void test_not_offered_elsewhere(void **state) {
    (void)state;
    boot(false);
    open_pause();
    assert_int_equal(menu_index("Power off"), -1);
    assert_int_equal(menu_index("Reboot"), -1);
    assert_true(menu_index("Quit") == g_game.menu.count - 1);
    game_shutdown(&g_game);
}

static void test_boot_service_menu_power_off(void **state) {
    (void)state;
    boot(true);
    open_pause();
    int off = menu_index("Power off"), rb = menu_index("Reboot"), quit = menu_index("Quit");
    printf("  pause menu: Power off %d, Reboot %d, Quit %d of %d\n", off, rb, quit, g_game.menu.count);
    assert_true(off >= 0 && rb == off + 1 && quit == g_game.menu.count - 1 && quit > rb);
    /* From Resume, up wraps to Quit; two more reach Power off (as the boot test scripts it). */
    for (int i = 0; i < 3; i++) tap(SDL_SCANCODE_UP);
    assert_int_equal(g_game.menu.sel, off);
    tap(SDL_SCANCODE_RETURN);
    assert_true(g_game.play.quit);
    assert_int_equal(g_game.play.power, MENU_CMD_POWEROFF);
    game_shutdown(&g_game);
}

/* The title: Select (H on a keyboard) opens the menu with the power entries; Resume returns. */
static void test_title_offers_power(void **state) {
    (void)state;
    boot(true);
    g_game.play.state = PLAY_START;
    g_game.play.overlay = OVERLAY_NONE;
    tap(SDL_SCANCODE_H);
    assert_int_equal(g_game.play.overlay, OVERLAY_MENU);
    assert_true(menu_index("Power off") >= 0);
    tap(SDL_SCANCODE_RETURN);   /* Resume: back to the title */
    assert_int_equal(g_game.play.overlay, OVERLAY_NONE);
    assert_int_equal(g_game.play.state, PLAY_START);
    game_shutdown(&g_game);
}

/* The request itself: systemctl's stand-in records its arguments; a failing one gives 1. */
static void test_power_act_runs_systemctl(void **state) {
    (void)state;
    char script[300], out[300], cmd[700];
    snprintf(script, sizeof script, "%s/systemctl", g_dir);
    snprintf(out, sizeof out, "%s/asked", g_dir);
    FILE *f = fopen(script, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\necho \"$@\" >> '%s'\n[ \"$1\" != reboot ] || exit 3\n", out);
    fclose(f);
    snprintf(cmd, sizeof cmd, "chmod +x '%s'", script);
    assert_int_equal(system(cmd), 0);
    setenv("SKYISLES_SYSTEMCTL", script, 1);
    assert_int_equal(power_act(MENU_CMD_POWEROFF), 0);
    assert_int_equal(power_act(MENU_CMD_REBOOT), 1);   /* the stand-in refuses a reboot */
    assert_int_equal(power_act(MENU_CMD_QUIT), 0);     /* nothing asked */
    f = fopen(out, "r");
    assert_non_null(f);
    char line[64] = "", line2[64] = "";
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(fgets(line2, sizeof line2, f));
    assert_null(fgets(cmd, sizeof cmd, f));
    fclose(f);
    assert_string_equal(line, "poweroff\n");
    assert_string_equal(line2, "reboot\n");
    setenv("SKYISLES_SYSTEMCTL", "/nonexistent/systemctl", 1);
    assert_int_equal(power_act(MENU_CMD_POWEROFF), 1);
    unsetenv("SKYISLES_SYSTEMCTL");
}

static int setup(void **state) {
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/skyisles_power_XXXXXX");
    if (!mkdtemp(g_dir)) return -1;
    setenv("SKYISLES_DATA_DIR", "assets", 1);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_not_offered_elsewhere),
        cmocka_unit_test(test_boot_service_menu_power_off),
        cmocka_unit_test(test_title_offers_power),
        cmocka_unit_test(test_power_act_runs_systemctl),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
