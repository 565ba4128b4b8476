/* Test support for the render tests: headless platform + renderer (see render_fixture.h). */
#include "support_gl/render_fixture.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb/stb_image.h>
#pragma GCC diagnostic pop

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

RenderSettings render_fixture_settings(int lines, uint32_t max_chunks) {
    RenderSettings s;
    render_settings_default(&s);
    s.live.lines = lines;
    s.create.max_chunks = max_chunks;
    return s;
}

int render_fixture_setup(void **state, RenderFixture *f, const char *title, int w, int h, size_t budget_bytes,
                         const RenderSettings *settings) {
    if (!render_fixture_open(f, title, w, h, budget_bytes, settings)) return -1;
    *state = f;
    return 0;
}

int render_fixture_teardown(void **state) {
    if (*state) render_fixture_close(*state);
    return 0;
}

World *render_fixture_world(RenderFixture *f, WorldParams *p) {
    p->live.view_radius = 3;
    p->create.mesh_pool_mib = 16;
    SkyError err = {0};
    World *w = world_create(&f->mem, NULL, p, NULL, &err);
    if (!w) fprintf(stderr, "%s\n", err.msg);
    return w;
}

void render_fixture_frame(RenderFixture *f, const RenderView *v, int w, int h, uint8_t *out) {
    render_frame(f->render, v, w, h);
    assert_int_equal(render_gl_errors(f->render), 0);
    assert_true(render_read_pixels(w, h, out));
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

static void ref_path(const char *name, char *out, size_t cap) {
    /* tests/ref beside the sources: from the repo root, or relative to the test binary. */
    snprintf(out, cap, "tests/ref/%s.png", name);
    struct stat st;
    if (stat("tests/ref", &st) == 0) return;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    snprintf(out, cap, "%s/../../tests/ref/%s.png", exe, name);
}

void render_fixture_check_ref(const char *name, int w, int h, const uint8_t *rgba) {
    char path[PATH_MAX + 64];
    ref_path(name, path, sizeof path);
    const char *update = getenv("SKYISLES_UPDATE_REFS");
    SkyError err = {0};
    if (update && strcmp(update, "1") == 0) {
        assert_true(render_write_png(path, w, h, rgba, &err));
        printf("reference %s written\n", path);
        return;
    }
    int rw = 0, rh = 0, c = 0;
    uint8_t *ref = stbi_load(path, &rw, &rh, &c, 4);
    if (!ref) fail_msg("missing reference %s: run with SKYISLES_UPDATE_REFS=1 to create it", path);
    assert_int_equal(rw, w);
    assert_int_equal(rh, h);
    double off_pct;
    double mean = render_fixture_diff(rgba, ref, w * h, REF_PIXEL_DELTA, &off_pct);
    stbi_image_free(ref);
    printf("%s: %.2f%% pixels off (> %d), mean delta %.2f\n", name, off_pct, REF_PIXEL_DELTA, mean);
    if (off_pct > REF_MAX_OFF_PERCENT || mean > REF_MAX_MEAN_DELTA) {
        char actual[PATH_MAX + 64];
        snprintf(actual, sizeof actual, "/tmp/skyisles-%s.actual.png", name);
        render_write_png(actual, w, h, rgba, &err);
        fail_msg("%s differs from %s (actual frame saved as %s)", name, path, actual);
    }
}
