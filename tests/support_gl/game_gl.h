/* Test support for the render tests that draw the real game: the game booted offscreen over a
 * config folder of its own (removed at the end), and one frame of its screens read back. In an
 * archive (the Makefile): only the tests that call it link the game through it. */
#ifndef SKYISLES_TEST_GAME_GL_H
#define SKYISLES_TEST_GAME_GL_H
#include <stdint.h>

#include "game/game.h"

typedef struct GameGlRun {
    GameOptions opt;   /* the parsed command line, kept for the game's life */
    char dir[256];     /* the config folder, /tmp/skyisles_NAME_XXXXXX */
} GameGlRun;

/* The HUD tests' world: view radius 2, no voxel or sky clouds, 96 MiB (the screens are the
 * subject, and the emulated run stays quick). */
#define GAME_GL_SMALL_WORLD "--view-radius", "2", "--no-clouds", "--no-sky-clouds", "--mem", "96"

/* Boots g offscreen in a window of `size` ("640x480") with --config a new folder named for the
 * test and the words after (NULL-ended); false with the reason on stderr. */
bool game_gl_boot_words(Game *g, GameGlRun *run, const char *name, const char *size, const char *const *words);
#define game_gl_boot(g, run, name, size, ...) \
    game_gl_boot_words(g, run, name, size, (const char *const[]){__VA_ARGS__, NULL})
/* Shuts g down and removes its folder: cmocka's teardown status. */
int game_gl_end(Game *g, GameGlRun *run);

/* The display size w x h, as the screens that follow are laid out for it. */
void game_gl_display(Game *g, int w, int h);
/* The overlay of the screen shown, one frame of the game and its display read back into out
 * (RGBA, top row first: the window's bottom-left w x h). */
void game_gl_read(Game *g, int w, int h, uint8_t *out);
#endif
