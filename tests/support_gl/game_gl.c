/* Test support for the render tests: the game booted offscreen (see game_gl.h). */
#include "support_gl/game_gl.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/game_fixture.h"

bool game_gl_boot_words(Game *g, GameGlRun *run, const char *name, const char *size, const char *const *words) {
    snprintf(run->dir, sizeof run->dir, "/tmp/skyisles_%s_XXXXXX", name);
    if (!mkdtemp(run->dir)) {
        fprintf(stderr, "game_gl: no folder %s\n", run->dir);
        return false;
    }
    setenv("SDL_VIDEODRIVER", "offscreen", 1);
    TestArgs args = test_args("--offscreen", "--size", size, "--config", run->dir);
    for (int i = 0; words[i]; i++) test_args_add(&args, words[i]);
    return fixture_game_boot(g, &run->opt, args);
}

int game_gl_end(Game *g, GameGlRun *run) { return fixture_game_end(g, run->dir); }

void game_gl_display(Game *g, int w, int h) {
    g->svc.disp_w = w;
    g->svc.disp_h = h;
}

void game_gl_read(Game *g, int w, int h, uint8_t *out) {
    overlay_draw(&g->cfg, &g->svc, &g->ses, &g->crs);
    game_draw(g);
    render_finish(g->svc.render);
    assert_true(render_read_pixels(w, h, out));
}
