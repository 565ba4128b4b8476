/* Test support for the render tests: a headless (SDL offscreen + Mesa) platform and renderer
 * over a memory budget, opened and closed in one call each. */
#ifndef SKYISLES_TEST_RENDER_FIXTURE_H
#define SKYISLES_TEST_RENDER_FIXTURE_H
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "platform.h"
#include "render/render.h"

typedef struct RenderFixture {
    MemBudget mem;
    Platform *platform;
    Renderer *render;
} RenderFixture;

/* False with the reason on stderr when the budget, the offscreen context or the renderer fails. */
bool render_fixture_open(RenderFixture *f, const char *title, int w, int h, size_t budget_bytes,
                         const RenderSettings *settings);
void render_fixture_close(RenderFixture *f);

/* The settings a render test starts from: the defaults with `lines` PSX lines (0: straight to the
 * screen) and room for max_chunks terrain chunks. */
RenderSettings render_fixture_settings(int lines, uint32_t max_chunks);
/* As cmocka group setup and teardown: render_fixture_open's status (0 or -1) with f put in
 * *state, and render_fixture_close of the fixture in *state. */
int render_fixture_setup(void **state, RenderFixture *f, const char *title, int w, int h, size_t budget_bytes,
                         const RenderSettings *settings);
int render_fixture_teardown(void **state);
/* A world over the fixture's budget from p, its view radius 3 and its mesh pool 16 MiB (a test's
 * few chunks); NULL with the reason on stderr. */
World *render_fixture_world(RenderFixture *f, WorldParams *p);

/* One frame of v at w x h, no GL error, read back into out (RGBA, top row first). */
void render_fixture_frame(RenderFixture *f, const RenderView *v, int w, int h, uint8_t *out);

/* A camera at (x, y, z) looking by yaw/pitch in degrees, sky time t. */
RenderView render_fixture_view(double x, double y, double z, float yaw_deg, float pitch_deg, double t);

/* Reference images (tests/ref/NAME.png). Tolerance, chosen so llvmpipe and softpipe (qemu) both
 * pass while a real change fails: a pixel is "off" when a channel differs by more than 48 (six
 * 15-bit steps: one dither or rounding flip is 8); at most 2% of the pixels may be off, and the
 * mean channel difference must stay under 2.5. */
#define REF_PIXEL_DELTA 48
#define REF_MAX_OFF_PERCENT 2.0
#define REF_MAX_MEAN_DELTA 2.5
/* Compares a w x h RGBA frame (top row first) with tests/ref/NAME.png and fails the running
 * cmocka test when it is off (the frame is then saved as /tmp/skyisles-NAME.actual.png).
 * SKYISLES_UPDATE_REFS=1 writes the reference from the frame instead. */
void render_fixture_check_ref(const char *name, int w, int h, const uint8_t *rgba);

/* Compares two RGBA frames of npix pixels: returns the mean RGB channel delta and sets *off_pct
 * to the percentage of pixels whose worst channel differs by more than pixel_delta. */
double render_fixture_diff(const uint8_t *a, const uint8_t *b, int npix, int pixel_delta, double *off_pct);
#endif
