/* skyisles tests: the game booted from a command line and shut down with its config folder
 * removed, as the game tests' cmocka setups and teardowns do (header only, like emulated.h). */
#ifndef SKYISLES_TESTS_GAME_FIXTURE_H
#define SKYISLES_TESTS_GAME_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "game/game.h"
#include "support/test_args.h"

/* Parses the command line into *opt (kept by the caller for the game's life) and boots g; false,
 * with the boot's error on stderr, when either fails. */
static inline bool fixture_game_boot(Game *g, GameOptions *opt, TestArgs args) {
    bool exit_now;
    if (!game_parse_args(args.argc, args.argv, opt, &exit_now)) return false;
    SkyError err = {0};
    if (game_boot(g, opt, &err)) return true;
    fprintf(stderr, "boot: %s\n", err.msg);
    return false;
}

/* Shuts g down and removes dir: cmocka's teardown status (0 when the folder went). */
static inline int fixture_game_end(Game *g, const char *dir) {
    game_shutdown(g);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

#endif
