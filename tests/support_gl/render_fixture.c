/* Test support for the render tests: headless platform + renderer (see render_fixture.h). */
#include "support_gl/render_fixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool render_fixture_open(RenderFixture *f, const char *title, int w, int h, size_t budget_bytes,
                         const RenderSettings *settings) {
    memset(f, 0, sizeof *f);
    setenv("SDL_VIDEODRIVER", "offscreen", 1);
    SkyError err = {0};
    if (!mem_budget_init(&f->mem, budget_bytes, &err)) goto fail;
    PlatformConfig pc = {.title = title, .width = w, .height = h, .headless = true};
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

RenderView render_fixture_view(double x, double y, double z, float yaw_deg, float pitch_deg, double t) {
    RenderView v;
    memset(&v, 0, sizeof v);
    v.cam_x = x;
    v.cam_y = y;
    v.cam_z = z;
    v.yaw = yaw_deg * (float)M_PI / 180.0f;
    v.pitch = pitch_deg * (float)M_PI / 180.0f;
    v.time_s = t;
    return v;
}

double render_fixture_diff(const uint8_t *a, const uint8_t *b, int npix, int pixel_delta, double *off_pct) {
    long off = 0;
    double sum = 0.0;
    for (int i = 0; i < npix; i++) {
        int worst = 0;
        for (int k = 0; k < 3; k++) {
            int d = abs((int)a[i * 4 + k] - (int)b[i * 4 + k]);
            sum += d;
            if (d > worst) worst = d;
        }
        off += worst > pixel_delta;
    }
    *off_pct = 100.0 * (double)off / npix;
    return sum / ((double)npix * 3.0);
}
