/* Render test for a flight far out (a world without an edge): the same view 2^40 blocks (1.1e12 m) out and
 * near the origin, each drawn twice 0.1 m apart. Chunk and camera positions are doubles and the
 * renderer forms its floats relative to the camera, so far out two frames 0.1 m apart differ no
 * more than near the origin (no jitter: a float of the absolute position would be 65536 m
 * coarse there), and neither frame is empty sky. The two places' terrain differs (more or less
 * ground in view, more or less detail), so each place's 0.1 m difference is taken relative to its
 * own 1 m difference: a position rounded far out shows as a ratio of 0 (stuck) or of 1 and more
 * (a jump). 160x120, 20 LOD-1 chunks a place (softpipe under qemu). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "platform.h"
#include "render/render.h"
#include "support_gl/render_fixture.h"
#include "world/world.h"

#define W 160
#define H 120
#define NCX 5
#define NCZ 4

static RenderFixture g_fx;
static World *g_world;
static ChunkMesh g_mesh[NCX * NCZ];
static uint8_t g_a[W * H * 4], g_b[W * H * 4], g_sky[W * H * 4];

static int setup(void **state) {
    (void)state;
    RenderSettings s;
    render_settings_default(&s);
    s.live.lines = 120;
    s.create.max_chunks = 64;
    if (!render_fixture_open(&g_fx, "skyisles far test", W, H, 96u << 20, &s)) return -1;
    WorldParams p;
    world_params_default(&p);
    p.gen.clouds = false;   /* terrain only: the clouds' wind would move between the two frames' places */
    g_world = render_fixture_world(&g_fx, &p);
    if (!g_world) return -1;
    return 0;
}

static void free_meshes(void) {
    for (int i = 0; i < NCX * NCZ; i++)
        if (g_mesh[i].opaque_parts + g_mesh[i].cloud_parts) world_free_mesh(g_world, &g_mesh[i]);
    memset(g_mesh, 0, sizeof g_mesh);
}

static int teardown(void **state) {
    (void)state;
    free_meshes();
    world_destroy(g_world);
    render_fixture_close(&g_fx);
    return 0;
}

static double sky_share(const uint8_t *px) {
    double off;
    render_fixture_diff(px, g_sky, W * H, 24, &off);
    return 100.0 - off;
}

/* The chunks at (cx0, cz0) .. (+NCX, +NCZ) drawn from above their near edge looking along +z,
 * at x, at x + 0.1 m and at x + 1 m: the mean channel delta of the second and of the third frame
 * against the first (*d1 the 1 m one). */
static double shift_delta(int64_t cx0, int64_t cz0, double *sky_pct, double *d1) {
    render_clear_terrain(g_fx.render);
    free_meshes();
    double bx = (double)(cx0 * CHUNK_SIZE) + NCX * CHUNK_SIZE / 2 + 0.3, bz = (double)(cz0 * CHUNK_SIZE) - 10.0;
    RenderView v = render_fixture_view(bx, 130.0, bz, 180.0f, -50.0f, 0.0);
    render_frame(g_fx.render, &v, W, H);
    assert_true(render_read_pixels(W, H, g_sky));   /* the same view with no terrain */
    for (int j = 0; j < NCZ; j++)
        for (int i = 0; i < NCX; i++) {
            ChunkMesh *m = &g_mesh[j * NCX + i];
            assert_true(world_build_chunk_lod(g_world, cx0 + i, cz0 + j, 1, 0.0, m, NULL));
            assert_true(render_queue_mesh(g_fx.render, m));
        }
    while (render_upload_pending(g_fx.render, NULL) > 0) {}
    render_frame(g_fx.render, &v, W, H);
    assert_true(render_read_pixels(W, H, g_a));
    RenderView v1 = v;
    v.cam_x += 0.1;
    render_frame(g_fx.render, &v, W, H);
    assert_true(render_read_pixels(W, H, g_b));
    double off, off1;
    double d = render_fixture_diff(g_a, g_b, W * H, 24, &off);
    v1.cam_x += 1.0;
    render_frame(g_fx.render, &v1, W, H);
    assert_true(render_read_pixels(W, H, g_b));
    *d1 = render_fixture_diff(g_a, g_b, W * H, 24, &off1);
    *sky_pct = sky_share(g_a);
    printf("# chunks from %" PRId64 ", %" PRId64 ": 0.1 m apart mean delta %.3f (%.2f%% of pixels off), 1 m apart %.3f"
           " (%.2f%%): ratio %.3f; %.1f%% sky\n",
           cx0, cz0, d, off, *d1, off1, *d1 > 0.0 ? d / *d1 : 0.0, *sky_pct);
    return d;
}

static void test_far_frames_do_not_jitter(void **state) {
    (void)state;
    const int64_t far = (INT64_C(1) << 40) / CHUNK_SIZE;
    double sky_near, sky_far, near1, far1;
    double near = shift_delta(90, -40, &sky_near, &near1);
    double d_far = shift_delta(far + 90, far - 40, &sky_far, &far1);
    /* Neither is empty sky: the terrain fills a good part of both. */
    assert_true(sky_near < 70.0);
    assert_true(sky_far < 70.0);
    /* Both move, and a 1 m step more than a 0.1 m one. */
    assert_true(near > 0.0 && d_far > 0.0);
    assert_true(near1 > near && far1 > d_far);
    /* A 0.1 m step moves the far frame, against its own 1 m step, no more than the near one (with
     * the slack of a dither flip per pixel) ... */
    double rn = near / near1, rf = d_far / far1;
    assert_true(rf <= rn * 1.5 + 0.05);
    /* ... and no less: a picture stuck between steps far out (positions rounded there) would show
     * no difference at all. */
    assert_true(rf >= rn * 0.25);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_far_frames_do_not_jitter),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
