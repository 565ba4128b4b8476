/* Test support for the render tests: headless platform + renderer (see render_fixture.h). */
#include "support_gl/render_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool render_fixture_open(RenderFixture *f, const char *title, int w, int h, size_t budget_bytes,
                         const RenderSettings *settings) {
    memset(f, 0, sizeof *f);
    setenv("SDL_VIDEODRIVER", "offscreen", 1);
    SkyError err = {0};
    if (!mem_budget_init(&f->mem, budget_bytes, &err)) goto fail;
    PlatformConfig pc = {title, w, h, true, false, false};
    f->platform = platform_create(&pc, &err);
    if (!f->platform) goto fail;
    f->render = render_create(&f->mem, settings, &err);
    if (!f->render) goto fail;
    return true;
fail:
    fprintf(stderr, "%s\n", err.msg);
    return false;
}

void render_fixture_close(RenderFixture *f) {
    if (f->render) render_destroy(f->render);
    if (f->platform) platform_destroy(f->platform);
    mem_budget_release(&f->mem);
    memset(f, 0, sizeof *f);
}
