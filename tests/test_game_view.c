/* Tests for the player's value beside the value in effect (src/game/menu.c, game.c's
 * game_apply_settings): the real game booted headless; a view radius above what the running
 * world was sized for is kept as the player's (never written back), shown beside the held value,
 * saved, and in effect after a restart, where the world is sized for it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game/game.h"
#include "support/test_args.h"

static Game g_game;
static char g_dir[256];

static bool boot(const char *view_radius) {
    static GameOptions opt;
    bool exit_now;
    TestArgs a = test_args("--headless", "--config", g_dir, "--mem", "128", view_radius ? "--view-radius" : NULL, view_radius);
    if (!game_parse_args(a.argc, a.argv, &opt, &exit_now)) return false;
    SkyError err = {0};
    if (!game_boot(&g_game, &opt, &err)) {
        fprintf(stderr, "boot: %s\n", err.msg);
        return false;
    }
    return true;
}

static int setup(void **state) {
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/skyisles_view_XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int panel_row(const Menu *m, const char *name) {
    for (int i = 0; i < m->count; i++)
        if (m->items[i].param && !strcmp(m->items[i].param->name, name)) return i;
    return -1;
}

static void test_view_radius_beyond_the_world(void **state) {
    (void)state;
    assert_true(boot("3"));
    int sized = world_params(g_game.svc.world)->create.view_radius_max;
    printf("  first start: view radius 3, the world sized for %d\n", sized);
    assert_int_equal(sized, GAME_VIEW_RADIUS_MAX);
    /* The panel, as a player reaches it: the view radius stepped past what the world holds. */
    menu_open(&g_game.ses.menu, &g_game.cfg.set, world_params(g_game.svc.world), MENU_PAGE_PANEL);
    int k = panel_row(&g_game.ses.menu, "view_radius");
    assert_true(k >= 0);
    MenuItem *it = &g_game.ses.menu.items[k];
    int want = sized + 4;
    while (g_game.cfg.set.world.live.view_radius < want) {
        assert_true(menu_step(&g_game.ses.menu, it, 1, false));
        game_apply_settings(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs, it->changes);
    }
    assert_int_equal(g_game.cfg.set.world.live.view_radius, want);           /* the player's value, kept */
    assert_int_equal(world_params(g_game.svc.world)->live.view_radius, sized);   /* what the world holds */
    char v[64], help[200];
    menu_item_value(&g_game.ses.menu, it, v, sizeof v);
    menu_item_help(&g_game.ses.menu, it, help, sizeof help);
    printf("  %s: %s -- %s\n", it->label, v, help);
    char shown[64];
    snprintf(shown, sizeof shown, "%d chunks (%d now)", want, sized);
    assert_string_equal(v, shown);
    assert_non_null(strstr(help, "next start"));
    game_save_settings(&g_game.cfg);
    game_shutdown(&g_game);
    /* In the file as the player chose it. */
    GameSettings saved;
    settings_default(&saved);
    bool found;
    char warn[320];
    settings_load(&saved, g_dir, &found, warn, sizeof warn);
    assert_true(found);
    assert_string_equal(warn, "");
    assert_int_equal(saved.world.live.view_radius, want);
    /* The next start (no --view-radius): the world is sized for it and holds it. */
    assert_true(boot(NULL));
    printf("  restart: view radius %d, the world sized for %d\n", world_params(g_game.svc.world)->live.view_radius,
           world_params(g_game.svc.world)->create.view_radius_max);
    assert_int_equal(world_params(g_game.svc.world)->live.view_radius, want);
    assert_true(world_params(g_game.svc.world)->create.view_radius_max >= want);
    menu_open(&g_game.ses.menu, &g_game.cfg.set, world_params(g_game.svc.world), MENU_PAGE_PANEL);
    it = &g_game.ses.menu.items[panel_row(&g_game.ses.menu, "view_radius")];
    menu_item_value(&g_game.ses.menu, it, v, sizeof v);
    snprintf(shown, sizeof shown, "%d chunks", want);
    assert_string_equal(v, shown);   /* nothing held back any more */
    game_shutdown(&g_game);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_view_radius_beyond_the_world),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
