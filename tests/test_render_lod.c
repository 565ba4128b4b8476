/* Render tests for level of detail: a chunk's mesh replaced in place on a LOD change (never a
 * frame without it, no buffer leaked), far chunks drawn from 2x2 tiles (fewer calls, the same
 * picture), and a streamed flight whose chunks never vanish from the GPU between READY and GONE. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"
#include "render/render.h"
#include "support_gl/render_fixture.h"

/* 80x60 (the PSX target 60 lines): every check here counts buffers, draw calls, vertices and
 * triangles, or compares two frames of the same size, none a reference image; under qemu a
 * frame of a quarter of the pixels costs two thirds of the program's time of 160x120. */
#define W 80
#define H 60

static RenderFixture g_fx;
static World *g_world;
static uint64_t g_base_bytes;   /* GPU bytes with no terrain */

static void settings(RenderSettings *s, int far_group_lod) {
    render_settings_default(s);
    s->live.lines = 60;
    s->create.max_chunks = 96;
    s->create.far_group_lod = far_group_lod;
}

static int setup(void **state) {
    (void)state;
    RenderSettings s;
    settings(&s, 2);
    if (!render_fixture_open(&g_fx, "skyisles lod test", W, H, 96u << 20, &s)) return -1;
    WorldParams p;
    world_params_default(&p);
    g_world = render_fixture_world(&g_fx, &p);
    if (!g_world) return -1;
    RenderView v;
    memset(&v, 0, sizeof v);
    render_frame(g_fx.render, &v, W, H);   /* creates the PSX target: counted from here on */
    g_base_bytes = render_stats(g_fx.render).gpu_bytes;
    return 0;
}

static int teardown(void **state) {
    (void)state;
    world_destroy(g_world);
    render_fixture_close(&g_fx);
    return 0;
}

static RenderView view(double x, double y, double z, float yaw_deg, float pitch_deg) {
    return render_fixture_view(x, y, z, yaw_deg, pitch_deg, 0.0);
}

static uint32_t mesh_verts(const ChunkMesh *m) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->opaque_parts + m->cloud_parts; i++) n += m->parts[i].vert_count;
    return n;
}

static void build(int32_t cx, int32_t cz, int lod, ChunkMesh *m) {
    WorldBuildTiming t;
    assert_true(world_build_chunk_lod(g_world, cx, cz, lod, 0.0, m, &t));
}

/* A chunk swapping LOD back and forth: between the READY and the upload the old mesh is drawn;
 * after it the new one, from the same buffer; no buffer is leaked; the far LOD moves into a
 * tile and back without a frame lost. The sequence 0, 1, 2, 1, 0, 2 holds every one of the six
 * changes once; two rounds of it (the second on buffers the first one freed) are the test: each
 * step draws two frames, which under qemu take about a second each. */
enum { SWAP_STEPS = 12 };
static void test_lod_swap_in_place(void **state) {
    (void)state;
    static ChunkMesh m[3];
    for (int k = 0; k < 3; k++) build(0, 0, k, &m[k]);
    render_clear_terrain(g_fx.render);
    RenderView v = view(16.0, 150.0, 60.0, 0.0f, -50.0f);
    int shown = -1;
    uint64_t swaps0 = render_stats(g_fx.render).mesh_swaps;
    for (int step = 0; step < SWAP_STEPS; step++) {
        int next = step % 3 == 2 ? 2 : step % 2;   /* 0, 1, 2, 1, 0, 2, ... */
        assert_true(render_queue_mesh(g_fx.render, &m[next]));
        if (shown >= 0) {
            /* Queued, not uploaded: the old mesh is still drawn. */
            RenderChunkInfo ci;
            assert_true(render_chunk_info(g_fx.render, 0, 0, &ci));
            assert_int_equal(ci.lod, shown);
            render_frame(g_fx.render, &v, W, H);
            assert_true(render_stats(g_fx.render).triangles_lod[shown] > 0);
        }
        assert_int_equal(render_upload_pending(g_fx.render, NULL), 1);
        RenderChunkInfo ci;
        assert_true(render_chunk_info(g_fx.render, 0, 0, &ci));
        assert_int_equal(ci.lod, next);
        assert_int_equal(ci.in_tile, next >= 2);
        assert_int_equal(ci.vertices, mesh_verts(&m[next]));
        RenderStats s = render_stats(g_fx.render);
        assert_int_equal(s.chunks_resident, 1);
        assert_int_equal(s.gpu_buffers, 1);   /* its own buffer, or its tile's */
        assert_int_equal(s.gpu_bytes - g_base_bytes, (uint64_t)mesh_verts(&m[next]) * sizeof(WorldVertex));
        render_frame(g_fx.render, &v, W, H);
        assert_true(render_stats(g_fx.render).triangles_lod[next] > 0);
        shown = next;
    }
    assert_int_equal(render_stats(g_fx.render).mesh_swaps - swaps0, SWAP_STEPS - 1);
    render_drop_chunk(g_fx.render, 0, 0);
    RenderStats s = render_stats(g_fx.render);
    assert_int_equal(s.chunks_resident, 0);
    assert_int_equal(s.gpu_buffers, 0);
    assert_int_equal(s.gpu_bytes, g_base_bytes);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
    for (int k = 0; k < 3; k++) world_free_mesh(g_world, &m[k]);
}

static double frame_diff(const uint8_t *a, const uint8_t *b, double *off_pct) {
    return render_fixture_diff(a, b, W * H, 48, off_pct);
}

/* Far chunks share one buffer per 2x2 tile: fewer buffers and draw calls, the same picture;
 * a member that gets finer leaves its tile, an emptied tile is freed. */
static void test_far_tiles(void **state) {
    (void)state;
    static const int32_t cs[][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {2, 0}, {-1, 0}, {-1, 1}, {3, 1}};
    enum { N = sizeof cs / sizeof cs[0] };
    static ChunkMesh m[N], fine;
    static uint8_t px_tiles[W * H * 4], px_single[W * H * 4];
    for (int i = 0; i < N; i++) build(cs[i][0], cs[i][1], 2 + (i & 1), &m[i]);
    build(0, 0, 1, &fine);
    RenderView v = view(32.0, 190.0, 150.0, 0.0f, -50.0f);

    RenderSettings s1;
    settings(&s1, WORLD_LOD_MAX + 1);   /* a renderer without tiles, for comparison */
    SkyError err = {0};
    Renderer *single = render_create(&g_fx.mem, &s1, &err);
    assert_non_null(single);
    render_frame(single, &v, W, H);
    uint64_t single_base = render_stats(single).gpu_bytes, sum = 0;
    for (int i = 0; i < N; i++) sum += (uint64_t)mesh_verts(&m[i]) * sizeof(WorldVertex);
    for (int i = 0; i < N; i++) assert_true(render_queue_mesh(single, &m[i]));
    while (render_upload_pending(single, NULL) > 0) {}
    render_frame(single, &v, W, H);
    RenderStats ss = render_stats(single);
    assert_true(render_read_pixels(W, H, px_single));

    render_clear_terrain(g_fx.render);
    for (int i = 0; i < N; i++) assert_true(render_queue_mesh(g_fx.render, &m[i]));
    while (render_upload_pending(g_fx.render, NULL) > 0) {}
    render_frame(g_fx.render, &v, W, H);
    RenderStats st = render_stats(g_fx.render);
    assert_true(render_read_pixels(W, H, px_tiles));
    double off;
    double mean = frame_diff(px_tiles, px_single, &off);
    printf("%d far chunks: %u buffers / %u draw calls in tiles, %u / %u one by one; frames differ in %.2f%% "
           "of pixels (mean %.2f)\n",
           N, st.gpu_buffers, st.draw_calls, ss.gpu_buffers, ss.draw_calls, off, mean);
    assert_int_equal(ss.gpu_buffers, N);
    assert_int_equal(st.gpu_buffers, 3);   /* tiles (0,0), (1,0) and (-1,0) in tile units */
    assert_int_equal(st.chunks_resident, N);
    assert_int_equal(st.chunks_visible, ss.chunks_visible);
    assert_true(st.draw_calls < ss.draw_calls);
    assert_int_equal(st.gpu_bytes - g_base_bytes, sum);   /* the same vertices, fewer buffers */
    assert_int_equal(ss.gpu_bytes - single_base, sum);
    assert_true(off < 0.5 && mean < 1.0);
    for (int i = 0; i < N; i++) {
        RenderChunkInfo ci;
        assert_true(render_chunk_info(g_fx.render, cs[i][0], cs[i][1], &ci));
        assert_true(ci.in_tile);
        assert_int_equal(ci.vertices, mesh_verts(&m[i]));
    }
    render_destroy(single);

    /* (0, 0) gets finer: its own buffer; its tile keeps the other three. */
    assert_true(render_queue_mesh(g_fx.render, &fine));
    assert_int_equal(render_upload_pending(g_fx.render, NULL), 1);
    RenderChunkInfo ci;
    assert_true(render_chunk_info(g_fx.render, 0, 0, &ci));
    assert_false(ci.in_tile);
    assert_int_equal(ci.lod, 1);
    assert_int_equal(render_stats(g_fx.render).gpu_buffers, 4);
    render_frame(g_fx.render, &v, W, H);
    assert_int_equal(render_stats(g_fx.render).chunks_visible, st.chunks_visible);
    /* Emptying a tile frees its buffer. */
    render_drop_chunk(g_fx.render, 1, 0);
    render_drop_chunk(g_fx.render, 0, 1);
    render_drop_chunk(g_fx.render, 1, 1);
    assert_int_equal(render_stats(g_fx.render).gpu_buffers, 3);
    render_clear_terrain(g_fx.render);
    RenderStats e = render_stats(g_fx.render);
    assert_int_equal(e.gpu_buffers, 0);
    assert_int_equal(e.gpu_bytes, g_base_bytes);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
    for (int i = 0; i < N; i++) world_free_mesh(g_world, &m[i]);
    world_free_mesh(g_world, &fine);
}

/* ---------------------------------------------------------------- a streamed flight */
#define MAX_HELD 1024
typedef struct Held {
    int32_t cx[MAX_HELD], cz[MAX_HELD];
    bool uploaded[MAX_HELD];
    uint32_t n;
} Held;

static int held_find(const Held *h, int32_t cx, int32_t cz) {
    for (uint32_t i = 0; i < h->n; i++)
        if (h->cx[i] == cx && h->cz[i] == cz) return (int)i;
    return -1;
}

/* The game's loop with the events handled here (as render_sync_world does): while flying across
 * LOD bands, a chunk once on the GPU stays there, with vertices, until its GONE; the buffers
 * are exactly one per chunk drawn alone plus one per tile. */
static void test_streamed_lods_never_vanish(void **state) {
    (void)state;
    SkyError err = {0};
    MemBudget b;
    assert_true(mem_budget_init(&b, 64u << 20, &err));
    JobsConfig jc = {2, 64, 0};
    JobSystem *js = jobs_create(&b, &jc, &err);
    assert_non_null(js);
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 4;
    World *w = world_create(&b, js, &p, NULL, &err);
    assert_non_null(w);
    render_clear_terrain(g_fx.render);
    static Held h;
    memset(&h, 0, sizeof h);
    double x = 0.0;
    uint64_t checks = 0;
    uint32_t tiles_max = 0;
    for (int f = 0; f < 90; f++) {
        x += 9.0;
        WorldView wv;
        memset(&wv, 0, sizeof wv);
        wv.x = x;
        wv.y = 100.0;
        wv.z = 10.0 * sin(f * 0.05);
        wv.dir_x = 1.0f;
        wv.speed = 540.0f;
        wv.fov_y_rad = 1.2f;
        wv.aspect = 4.0f / 3.0f;
        wv.time_s = f / 60.0;
        world_update(w, &wv);
        WorldEvent ev[64];
        size_t n;
        while ((n = world_take_events(w, ev, 64)) > 0)
            for (size_t i = 0; i < n; i++) {
                int at = held_find(&h, ev[i].cx, ev[i].cz);
                if (ev[i].type == WORLD_EV_CHUNK_GONE) {
                    render_drop_chunk(g_fx.render, ev[i].cx, ev[i].cz);
                    assert_true(at >= 0);
                    h.n--;
                    h.cx[at] = h.cx[h.n];
                    h.cz[at] = h.cz[h.n];
                    h.uploaded[at] = h.uploaded[h.n];
                } else {
                    assert_true(render_queue_mesh(g_fx.render, ev[i].mesh));
                    if (at < 0) {
                        assert_true(h.n < MAX_HELD);
                        h.cx[h.n] = ev[i].cx;
                        h.cz[h.n] = ev[i].cz;
                        h.uploaded[h.n] = false;
                        h.n++;
                    }
                }
            }
        render_upload_pending(g_fx.render, w);
        uint32_t alone = 0, tiles = 0;
        static int32_t tile_x[MAX_HELD], tile_z[MAX_HELD];
        for (uint32_t i = 0; i < h.n; i++) {
            RenderChunkInfo ci;
            bool on = render_chunk_info(g_fx.render, h.cx[i], h.cz[i], &ci);
            if (h.uploaded[i] && !on) fail_msg("frame %d: chunk (%d,%d) left the GPU without a GONE", f, h.cx[i], h.cz[i]);
            if (!on) continue;
            h.uploaded[i] = true;
            assert_true(ci.vertices > 0);
            checks++;
            if (!ci.in_tile) {
                alone++;
                continue;
            }
            int32_t tx = h.cx[i] >> 1, tz = h.cz[i] >> 1;
            bool seen = false;
            for (uint32_t k = 0; k < tiles && !seen; k++) seen = tile_x[k] == tx && tile_z[k] == tz;
            if (!seen) {
                tile_x[tiles] = tx;
                tile_z[tiles] = tz;
                tiles++;
            }
        }
        RenderStats rs = render_stats(g_fx.render);
        assert_int_equal(rs.gpu_buffers, alone + tiles);
        if (tiles > tiles_max) tiles_max = tiles;
        if (f % 15 == 14) {
            RenderView v = view(x - 40.0, 130.0, 0.0, 90.0f, -20.0f);
            render_frame(g_fx.render, &v, W, H);
        }
        if (f % 2 == 1) jobs_wait_idle(js);
    }
    WorldStats ws = world_stats(w);
    RenderStats rs = render_stats(g_fx.render);
    printf("flight: %llu resident-chunk checks, %llu world LOD swaps, %llu GPU mesh swaps, up to %u tiles, "
           "%u buffers at the end\n",
           (unsigned long long)checks, (unsigned long long)ws.lod_swaps, (unsigned long long)rs.mesh_swaps, tiles_max,
           rs.gpu_buffers);
    assert_true(ws.lod_swaps > 10 && rs.mesh_swaps > 10 && tiles_max > 4);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
    world_destroy(w);
    jobs_destroy(js);
    render_clear_terrain(g_fx.render);
    rs = render_stats(g_fx.render);
    assert_int_equal(rs.gpu_buffers, 0);
    assert_int_equal(rs.gpu_bytes, g_base_bytes);
    mem_budget_release(&b);
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lod_swap_in_place),
        cmocka_unit_test(test_far_tiles),
        cmocka_unit_test(test_streamed_lods_never_vanish),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
