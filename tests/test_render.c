/* Render tests: fixed camera frames against reference images in tests/ref/ (sky only, terrain
 * from above, inside the abyss, with clouds), no GL error after any pass, the W8 formula, the
 * upload budget, culling, the PSX effects, the frame's stages and the shader-file failure lines.
 * SKYISLES_UPDATE_REFS=1 rewrites the references from this run. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform.h"
#include "render/render.h"
#include "support_gl/render_fixture.h"
#include "support/alloc_count.h"

#define W 160
#define H 120

static RenderFixture g_fx;
static uint8_t g_px[W * H * 4];

/* ---------------------------------------------------------------- a synthetic world */
/* 3 x 3 chunks of block terrain from a height function, built here so the references do not
 * move when the world generator is tuned: terraces, a valley floor at y = 2 (the abyss) and a
 * cloud slab over chunk (0, 0). Quads wind counter-clockwise seen from outside. */
#define TEST_CHUNKS 3
#define TEST_MAX_QUADS 12000
static WorldVertex g_verts[TEST_CHUNKS * TEST_CHUNKS][TEST_MAX_QUADS * 4];
static ChunkMesh g_mesh[TEST_CHUNKS * TEST_CHUNKS];
static uint32_t g_quads;

static int height_at(int x, int z) {
    double h = 18.0 + 10.0 * sin(x * 0.11) * cos(z * 0.09) + 5.0 * sin((x + z) * 0.23);
    if (x > 20 && x < 44 && z > 8 && z < 92) h = 2.0;   /* the valley: abyss floor */
    return (int)floor(h);
}

static void quad(WorldVertex *v, const int p[4][3], int normal, int ox, int oz, uint8_t r, uint8_t g, uint8_t b,
                 uint8_t a) {
    for (int i = 0; i < 4; i++) {
        v[i].x = (int16_t)(p[i][0] - ox);
        v[i].y = (int16_t)p[i][1];
        v[i].z = (int16_t)(p[i][2] - oz);
        v[i].normal = (uint8_t)normal;
        v[i].flags = 3;
        v[i].r = r;
        v[i].g = g;
        v[i].b = b;
        v[i].a = a;
    }
}

static uint32_t build_column_faces(WorldVertex *v, int x, int z, int ox, int oz) {
    uint32_t n = 0;
    int h = height_at(x, z);
    int j = (x * 7 + z * 13) % 5;
    bool floor_block = h <= 2;
    uint8_t gr = floor_block ? 12 : (uint8_t)(70 + j * 6), gg = floor_block ? 12 : (uint8_t)(120 + j * 5),
            gb = floor_block ? 16 : 50;
    int top[4][3] = {{x, h, z}, {x, h, z + 1}, {x + 1, h, z + 1}, {x + 1, h, z}};
    quad(&v[n], top, WORLD_NORMAL_PY, ox, oz, gr, gg, gb, 255);
    n += 4;
    /* unit wall quads down to each lower neighbour (no T-junctions, like the world's mesher) */
    static const int dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    static const int normals[4] = {WORLD_NORMAL_PX, WORLD_NORMAL_NX, WORLD_NORMAL_PZ, WORLD_NORMAL_NZ};
    for (int d = 0; d < 4; d++) {
        int nh = height_at(x + dirs[d][0], z + dirs[d][1]);
        for (int y0 = nh; y0 < h; y0++) {
            int y1 = y0 + 1;
            uint8_t shade = (uint8_t)((d < 2 ? 110 : 90) - (h - y0 > 6 ? 30 : 0));
            const int q[4][4][3] = {
                {{x + 1, y0, z}, {x + 1, y1, z}, {x + 1, y1, z + 1}, {x + 1, y0, z + 1}},
                {{x, y0, z}, {x, y0, z + 1}, {x, y1, z + 1}, {x, y1, z}},
                {{x, y0, z + 1}, {x + 1, y0, z + 1}, {x + 1, y1, z + 1}, {x, y1, z + 1}},
                {{x, y0, z}, {x, y1, z}, {x + 1, y1, z}, {x + 1, y0, z}},
            };
            quad(&v[n], q[d], normals[d], ox, oz, shade, (uint8_t)(shade * 3 / 4), (uint8_t)(shade / 2), 255);
            n += 4;
        }
    }
    return n;
}

static uint32_t build_cloud_box(WorldVertex *v, int x0, int x1, int y0, int y1, int z0, int z1) {
    const int f[6][4][3] = {
        {{x0, y1, z0}, {x0, y1, z1}, {x1, y1, z1}, {x1, y1, z0}},   /* +Y */
        {{x0, y0, z0}, {x1, y0, z0}, {x1, y0, z1}, {x0, y0, z1}},   /* -Y */
        {{x1, y0, z0}, {x1, y1, z0}, {x1, y1, z1}, {x1, y0, z1}},   /* +X */
        {{x0, y0, z0}, {x0, y0, z1}, {x0, y1, z1}, {x0, y1, z0}},   /* -X */
        {{x0, y0, z1}, {x1, y0, z1}, {x1, y1, z1}, {x0, y1, z1}},   /* +Z */
        {{x0, y0, z0}, {x0, y1, z0}, {x1, y1, z0}, {x1, y0, z0}},   /* -Z */
    };
    static const int normals[6] = {WORLD_NORMAL_PY, WORLD_NORMAL_NY, WORLD_NORMAL_PX, WORLD_NORMAL_NX,
                                   WORLD_NORMAL_PZ, WORLD_NORMAL_NZ};
    for (int i = 0; i < 6; i++) quad(&v[i * 4], f[i], normals[i], 0, 0, 245, 245, 250, 200);
    return 24;
}

static void build_test_world(void) {
    g_quads = 0;
    for (int cz = 0; cz < TEST_CHUNKS; cz++)
        for (int cx = 0; cx < TEST_CHUNKS; cx++) {
            int k = cz * TEST_CHUNKS + cx;
            ChunkMesh *m = &g_mesh[k];
            memset(m, 0, sizeof *m);
            m->cx = cx;
            m->cz = cz;
            uint32_t n = 0;
            for (int z = 0; z < CHUNK_SIZE; z++)
                for (int x = 0; x < CHUNK_SIZE; x++)
                    n += build_column_faces(&g_verts[k][n], cx * CHUNK_SIZE + x, cz * CHUNK_SIZE + z, cx * CHUNK_SIZE,
                                            cz * CHUNK_SIZE);
            assert_true(n <= TEST_MAX_QUADS * 4 - 24);
            /* two opaque parts (exercises concatenation), then one cloud part */
            uint32_t half = (n / 8) * 4;
            m->parts[0].verts = g_verts[k];
            m->parts[0].vert_count = half;
            m->parts[1].verts = g_verts[k] + half;
            m->parts[1].vert_count = n - half;
            m->opaque_parts = 2;
            if (cx == 0 && cz == 0) {
                uint32_t c = build_cloud_box(&g_verts[k][n], 2, 30, 38, 42, 4, 30);
                m->parts[2].verts = g_verts[k] + n;
                m->parts[2].vert_count = c;
                m->cloud_parts = 1;
            }
            g_quads += n / 4;
        }
}

static void load_test_world(void) {
    render_clear_terrain(g_fx.render);
    for (int i = 0; i < TEST_CHUNKS * TEST_CHUNKS; i++) assert_true(render_queue_mesh(g_fx.render, &g_mesh[i]));
    while (render_upload_pending(g_fx.render, NULL) > 0) {}
    assert_int_equal(render_stats(g_fx.render).chunks_resident, TEST_CHUNKS * TEST_CHUNKS);
}

/* ---------------------------------------------------------------- setup */
static void default_settings(RenderSettings *s) {
    render_settings_default(s);
    s->live.lines = 120;          /* low-res target = the 160x120 test window */
    s->create.max_chunks = 32;
}

static int setup(void **state) {
    RenderSettings s;
    default_settings(&s);
    if (render_fixture_setup(state, &g_fx, "skyisles test", W, H, 32u << 20, &s) != 0) return -1;
    build_test_world();
    return 0;
}

static RenderView view(double x, double y, double z, float yaw_deg, float pitch_deg, double t) {
    return render_fixture_view(x, y, z, yaw_deg, pitch_deg, t);
}

/* ---------------------------------------------------------------- reference images */
static void check_ref(const char *name) {
    assert_true(render_read_pixels(W, H, g_px));
    render_fixture_check_ref(name, W, H, g_px);
}

/* ---------------------------------------------------------------- tests */
static void test_atmosphere_is_w8(void **state) {
    (void)state;
    /* W8's ramp scaled to this world: from the bedrock (y 5) to the islands' undersides (y 60). */
    const float sky[3] = {0.6f, 0.8f, 1.0f};
    RenderAtmosphere a;
    render_atmosphere(60.0, sky, &a);   /* h = 1: clear sky, thin fog */
    assert_float_equal(a.h, 1.0f, 1e-6f);
    assert_float_equal(a.color[0], 0.6f, 1e-6f);
    assert_float_equal(a.fog_density, 0.005f, 1e-7f);
    render_atmosphere(500.0, sky, &a);
    assert_float_equal(a.h, 1.0f, 1e-6f);
    render_atmosphere(5.0, sky, &a);    /* h = 0: 0x050508, density 0.04 */
    assert_float_equal(a.color[0], 5.0f / 255.0f, 1e-6f);
    assert_float_equal(a.color[2], 8.0f / 255.0f, 1e-6f);
    assert_float_equal(a.fog_density, 0.04f, 1e-6f);
    render_atmosphere(-20.0, sky, &a);
    assert_float_equal(a.h, 0.0f, 1e-6f);
    render_atmosphere(32.5, sky, &a);   /* h = 0.5: halfway */
    assert_float_equal(a.h, 0.5f, 1e-6f);
    assert_float_equal(a.color[1], 0.8f + (5.0f / 255.0f - 0.8f) * 0.5f, 1e-6f);
    assert_float_equal(a.fog_density, 0.005f + 0.5f * 0.035f, 1e-6f);
    render_atmosphere(30.0, sky, &a);   /* 25 blocks up: the old 5..30 ramp's top, now still dim */
    assert_true(a.h < 0.5f);
}

static void test_ref_sky_only(void **state) {
    (void)state;
    render_clear_terrain(g_fx.render);
    RenderView v = view(0.0, 60.0, 0.0, 30.0f, 18.0f, 42.0);
    render_frame(g_fx.render, &v, W, H);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
    RenderStats s = render_stats(g_fx.render);
    assert_int_equal(s.low_w, W);
    assert_int_equal(s.low_h, H);
    check_ref("sky");
}

static void test_ref_terrain_from_above(void **state) {
    (void)state;
    load_test_world();
    RenderView v = view(48.0, 105.0, 130.0, 0.0f, -42.0f, 5.0);
    RenderInstance *a = render_view_add(&v, RENDER_MODEL_AIRCRAFT);
    a->x = 48.0;
    a->y = 98.0;
    a->z = 120.0;
    a->pitch = -0.2f;
    a->roll = 0.3f;
    render_frame(g_fx.render, &v, W, H);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
    RenderStats s = render_stats(g_fx.render);
    assert_true(s.chunks_visible > 0);
    assert_true(s.triangles > 1000);
    check_ref("terrain");
}

static void test_ref_inside_abyss(void **state) {
    (void)state;
    load_test_world();
    /* Down the valley at y = 6: h = 0.04, fog 0.0386, near-black 0x050508 atmosphere. */
    RenderView v = view(32.0, 6.0, 90.0, 0.0f, 4.0f, 5.0);
    render_frame(g_fx.render, &v, W, H);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
    check_ref("abyss");
    /* The background really is the abyss colour: the top row (sky dome) is near 0x050508. */
    const uint8_t *p = &g_px[(W / 2) * 4];
    assert_true(p[0] < 24 && p[1] < 24 && p[2] < 28);
}

static void test_ref_with_clouds(void **state) {
    (void)state;
    load_test_world();
    RenderView v = view(16.0, 50.0, 48.0, 0.0f, -18.0f, 5.0);
    render_frame(g_fx.render, &v, W, H);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
    check_ref("clouds");
    /* Clouds off: the frame changes (the slab is in view). */
    static uint8_t with[W * H * 4];
    memcpy(with, g_px, sizeof with);
    RenderSettings s = *render_settings(g_fx.render);
    s.live.draw_clouds = false;
    render_apply_settings(g_fx.render, &s);
    render_frame(g_fx.render, &v, W, H);
    assert_true(render_read_pixels(W, H, g_px));
    s.live.draw_clouds = true;
    render_apply_settings(g_fx.render, &s);
    long changed = 0;
    for (int i = 0; i < W * H; i++) changed += g_px[i * 4 + 1] != with[i * 4 + 1];
    assert_true(changed > W * H / 20);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
}

static void test_upload_budget_and_counters(void **state) {
    (void)state;
    render_clear_terrain(g_fx.render);
    RenderSettings s = *render_settings(g_fx.render);
    uint32_t keep = s.live.upload_meshes_per_frame;
    s.live.upload_meshes_per_frame = 4;
    render_apply_settings(g_fx.render, &s);
    for (int i = 0; i < TEST_CHUNKS * TEST_CHUNKS; i++) assert_true(render_queue_mesh(g_fx.render, &g_mesh[i]));
    assert_int_equal(render_stats(g_fx.render).pending_uploads, 9);
    assert_int_equal(render_upload_pending(g_fx.render, NULL), 4);
    assert_int_equal(render_stats(g_fx.render).uploads, 4);
    assert_int_equal(render_upload_pending(g_fx.render, NULL), 4);
    assert_int_equal(render_upload_pending(g_fx.render, NULL), 1);
    assert_int_equal(render_upload_pending(g_fx.render, NULL), 0);
    RenderStats st = render_stats(g_fx.render);
    assert_int_equal(st.chunks_resident, 9);
    uint64_t verts = 0;
    for (int i = 0; i < 9; i++)
        for (uint32_t p = 0; p < g_mesh[i].opaque_parts + g_mesh[i].cloud_parts; p++) verts += g_mesh[i].parts[p].vert_count;
    uint64_t with_all = st.gpu_bytes;
    render_drop_chunk(g_fx.render, 1, 1);
    st = render_stats(g_fx.render);
    assert_int_equal(st.chunks_resident, 8);
    uint64_t v11 = g_mesh[4].parts[0].vert_count + g_mesh[4].parts[1].vert_count;
    assert_int_equal(with_all - st.gpu_bytes, v11 * sizeof(WorldVertex));
    /* A chunk that goes before its upload is never uploaded. */
    render_clear_terrain(g_fx.render);
    assert_true(render_queue_mesh(g_fx.render, &g_mesh[0]));
    render_drop_chunk(g_fx.render, 0, 0);
    assert_int_equal(render_upload_pending(g_fx.render, NULL), 0);
    assert_int_equal(render_stats(g_fx.render).chunks_resident, 0);
    s.live.upload_meshes_per_frame = keep;
    render_apply_settings(g_fx.render, &s);
    assert_true(verts > 0);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
}

static void test_draw_counts_and_culling(void **state) {
    (void)state;
    load_test_world();
    /* Looking away from every chunk: all culled, only the dome and the upscale are drawn. */
    RenderView away = view(48.0, 60.0, -40.0, 0.0f, 0.0f, 0.0);
    render_frame(g_fx.render, &away, W, H);
    RenderStats s = render_stats(g_fx.render);
    assert_int_equal(s.chunks_visible, 0);
    assert_int_equal(s.chunks_culled, 9);
    assert_int_equal(s.draw_calls, 2);
    /* Looking at them from above: all chunks in view; walls facing away are skipped. */
    RenderView at = view(48.0, 200.0, 48.0, 0.0f, -89.0f, 0.0);
    render_frame(g_fx.render, &at, W, H);
    s = render_stats(g_fx.render);
    assert_int_equal(s.chunks_visible, 9);
    uint32_t fixed = 2 + 32 * 48 * 2;   /* blit + dome */
    assert_true(s.triangles - fixed < g_quads * 2 + 12);
    assert_true(s.triangles - fixed > (TEST_CHUNKS * TEST_CHUNKS * CHUNK_SIZE * CHUNK_SIZE + 1) * 2);   /* every top */
    assert_int_equal(render_gl_errors(g_fx.render), 0);
}

/* One cube of 6 quads, one per direction: only the faces turned towards the camera are drawn. */
static void test_faces_turned_away_are_skipped(void **state) {
    (void)state;
    static WorldVertex cube[24];
    const int x0 = 10, x1 = 12, y0 = 20, y1 = 22, z0 = 10, z1 = 12;
    const int f[6][4][3] = {
        {{x0, y1, z0}, {x0, y1, z1}, {x1, y1, z1}, {x1, y1, z0}},
        {{x0, y0, z0}, {x1, y0, z0}, {x1, y0, z1}, {x0, y0, z1}},
        {{x1, y0, z0}, {x1, y1, z0}, {x1, y1, z1}, {x1, y0, z1}},
        {{x0, y0, z0}, {x0, y0, z1}, {x0, y1, z1}, {x0, y1, z0}},
        {{x0, y0, z1}, {x1, y0, z1}, {x1, y1, z1}, {x0, y1, z1}},
        {{x0, y0, z0}, {x0, y1, z0}, {x1, y1, z0}, {x1, y0, z0}},
    };
    static const int normals[6] = {WORLD_NORMAL_PY, WORLD_NORMAL_NY, WORLD_NORMAL_PX, WORLD_NORMAL_NX,
                                   WORLD_NORMAL_PZ, WORLD_NORMAL_NZ};
    for (int i = 0; i < 6; i++) quad(&cube[i * 4], f[i], normals[i], 0, 0, 200, 100, 50, 255);
    static ChunkMesh m;
    memset(&m, 0, sizeof m);
    m.cx = 5;
    m.cz = -3;
    m.parts[0].verts = cube;
    m.parts[0].vert_count = 24;
    m.opaque_parts = 1;
    render_clear_terrain(g_fx.render);
    assert_true(render_queue_mesh(g_fx.render, &m));
    assert_int_equal(render_upload_pending(g_fx.render, NULL), 1);
    const double ox = 5 * CHUNK_SIZE, oz = -3 * CHUNK_SIZE;
    const uint32_t fixed = 2 + 32 * 48 * 2;
    /* From straight above: the top only. */
    RenderView v = view(ox + 11.0, 100.0, oz + 11.0, 0.0f, -89.0f, 0.0);
    render_frame(g_fx.render, &v, W, H);
    assert_int_equal(render_stats(g_fx.render).triangles - fixed, 2);
    /* From +X at mid height: the +X side only. */
    v = view(ox + 30.0, 21.0, oz + 11.0, -90.0f, 0.0f, 0.0);
    render_frame(g_fx.render, &v, W, H);
    assert_int_equal(render_stats(g_fx.render).chunks_visible, 1);
    assert_int_equal(render_stats(g_fx.render).triangles - fixed, 2);
    /* From -X, -Z, above: the -X, -Z and +Y faces. With runs never merged: three calls of one
     * face each (the pairs [-X,+X], [-Z,+Z], [-Y,+Y] each give one run). */
    RenderSettings st = *render_settings(g_fx.render);
    uint32_t keep = st.live.merge_gap_quads;
    st.live.merge_gap_quads = 0;
    render_apply_settings(g_fx.render, &st);
    v = view(ox + 2.0, 40.0, oz + 2.0, 135.0f, -30.0f, 0.0);
    render_frame(g_fx.render, &v, W, H);
    assert_int_equal(render_stats(g_fx.render).triangles - fixed, 6);
    assert_int_equal(render_stats(g_fx.render).draw_calls, 2 + 3);
    /* From below: -X, -Z and -Y. */
    v = view(ox + 2.0, 5.0, oz + 2.0, 135.0f, 45.0f, 0.0);
    render_frame(g_fx.render, &v, W, H);
    assert_int_equal(render_stats(g_fx.render).triangles - fixed, 6);
    assert_int_equal(render_stats(g_fx.render).draw_calls, 2 + 3);
    /* With the default merging the small gaps between runs are drawn too: one call spans the
     * first to the last face turned toward the camera. */
    st.live.merge_gap_quads = keep;
    render_apply_settings(g_fx.render, &st);
    render_frame(g_fx.render, &v, W, H);
    assert_int_equal(render_stats(g_fx.render).triangles - fixed, 10);   /* -X +X -Z +Z -Y */
    assert_int_equal(render_stats(g_fx.render).draw_calls, 3);           /* dome, cube, upscale */
    render_clear_terrain(g_fx.render);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
}

/* Inside one direction the faces are kept in plane order: from a camera between them, the tops
 * below it and the undersides above it are drawn, the others not (whole 10-block levels). */
static void test_faces_sorted_by_plane(void **state) {
    (void)state;
    static WorldVertex v[2 * 15 * 4];
    uint32_t n = 0;
    for (int k = 0; k < 15; k++) {
        int y = 5 + 10 * k;   /* one face per level: 5, 15, ..., 145 */
        const int top[4][3] = {{4, y, 4}, {4, y, 6}, {6, y, 6}, {6, y, 4}};
        const int bot[4][3] = {{8, y, 8}, {10, y, 8}, {10, y, 10}, {8, y, 10}};
        quad(&v[n], top, WORLD_NORMAL_PY, 0, 0, 90, 160, 60, 255);
        n += 4;
        quad(&v[n], bot, WORLD_NORMAL_NY, 0, 0, 90, 90, 100, 255);
        n += 4;
    }
    static ChunkMesh m;
    memset(&m, 0, sizeof m);
    m.cx = 2;
    m.cz = 2;
    m.parts[0].verts = v;
    m.parts[0].vert_count = n;
    m.opaque_parts = 1;
    render_clear_terrain(g_fx.render);
    assert_true(render_queue_mesh(g_fx.render, &m));
    assert_int_equal(render_upload_pending(g_fx.render, NULL), 1);
    RenderSettings st = *render_settings(g_fx.render);
    uint32_t keep = st.live.merge_gap_quads;
    st.live.merge_gap_quads = 0;
    render_apply_settings(g_fx.render, &st);
    const uint32_t fixed = 2 + 32 * 48 * 2;
    /* Camera at y = 72 looking along the column: tops at 5..65 face it (7), undersides at
     * 75..145 face it (8); the level 70..79 holds both kinds at 75: the top at 75 is drawn
     * edge-on-or-behind and the GPU culls it. */
    RenderView cv = view(2 * CHUNK_SIZE + 7.0, 72.0, 2 * CHUNK_SIZE + 40.0, 0.0f, 0.0f, 0.0);
    render_frame(g_fx.render, &cv, W, H);
    RenderStats s = render_stats(g_fx.render);
    assert_int_equal(s.chunks_visible, 1);
    assert_int_equal(s.triangles - fixed, 2 * (8 + 8));
    assert_int_equal(s.draw_calls, 2 + 1);   /* the y pair is one run: undersides' suffix + tops' prefix */
    /* From far above: every top, no underside. */
    cv = view(2 * CHUNK_SIZE + 7.0, 400.0, 2 * CHUNK_SIZE + 7.0, 0.0f, -89.0f, 0.0);
    render_frame(g_fx.render, &cv, W, H);
    assert_int_equal(render_stats(g_fx.render).triangles - fixed, 2 * 15);
    st.live.merge_gap_quads = keep;
    render_apply_settings(g_fx.render, &st);
    render_clear_terrain(g_fx.render);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
}

static bool on_15bit_grid(uint8_t v) {
    int k = (int)lrint(v * 31.0 / 255.0);
    return abs((int)lrint(k * 255.0 / 31.0) - (int)v) <= 1;
}

static void test_psx_effects_switch(void **state) {
    (void)state;
    load_test_world();
    RenderView v = view(48.0, 75.0, 110.0, 0.0f, -30.0f, 5.0);
    render_frame(g_fx.render, &v, W, H);
    assert_true(render_read_pixels(W, H, g_px));
    long off_grid = 0;
    for (int i = 0; i < W * H * 4; i++)
        if (i % 4 != 3 && !on_15bit_grid(g_px[i])) off_grid++;
    assert_int_equal(off_grid, 0);   /* 15-bit colour: every channel on the 5-bit grid */
    RenderSettings s = *render_settings(g_fx.render), keep = s;
    s.live.color15 = false;
    s.live.dither = false;
    render_apply_settings(g_fx.render, &s);
    render_frame(g_fx.render, &v, W, H);
    assert_true(render_read_pixels(W, H, g_px));
    for (int i = 0; i < W * H * 4; i++)
        if (i % 4 != 3 && !on_15bit_grid(g_px[i])) off_grid++;
    assert_true(off_grid > W * H / 4);   /* full colour: most of the gradient is between steps */
    /* 4:3 target on a wider window: pillarbox columns stay black. */
    s = keep;
    s.live.fixed_4_3 = true;
    s.live.lines = 90;
    render_apply_settings(g_fx.render, &s);
    render_frame(g_fx.render, &v, W, H);
    RenderStats st = render_stats(g_fx.render);
    assert_int_equal(st.low_w, 120);
    assert_int_equal(st.low_h, 90);
    assert_true(render_read_pixels(W, H, g_px));
    /* 120x90 at scale 1 in 160x120: 20 columns of border each side, 15 rows top and bottom */
    assert_int_equal(g_px[(60 * W + 5) * 4 + 0] + g_px[(60 * W + 5) * 4 + 1] + g_px[(60 * W + 5) * 4 + 2], 0);
    assert_int_equal(g_px[(5 * W + 80) * 4 + 0] + g_px[(5 * W + 80) * 4 + 1] + g_px[(5 * W + 80) * 4 + 2], 0);
    assert_true(g_px[(60 * W + 80) * 4 + 2] > 0);
    /* Vertex snapping on vs off moves edges. */
    s = keep;
    render_apply_settings(g_fx.render, &s);
    v.cam_x += 0.013;
    render_frame(g_fx.render, &v, W, H);
    static uint8_t snapped[W * H * 4];
    assert_true(render_read_pixels(W, H, snapped));
    s.live.snap = false;
    render_apply_settings(g_fx.render, &s);
    render_frame(g_fx.render, &v, W, H);
    assert_true(render_read_pixels(W, H, g_px));
    assert_true(memcmp(snapped, g_px, sizeof snapped) != 0);
    render_apply_settings(g_fx.render, &keep);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
}

static void test_aircraft_is_drawn(void **state) {
    (void)state;
    render_clear_terrain(g_fx.render);
    RenderView v = view(0.0, 60.0, 0.0, 0.0f, -8.0f, 0.0);
    render_frame(g_fx.render, &v, W, H);
    static uint8_t empty[W * H * 4];
    assert_true(render_read_pixels(W, H, empty));
    RenderInstance *a = render_view_add(&v, RENDER_MODEL_AIRCRAFT);
    a->z = -9.0;
    a->y = 57.5;
    render_frame(g_fx.render, &v, W, H);
    assert_true(render_read_pixels(W, H, g_px));
    long changed = 0, red = 0;
    for (int i = 0; i < W * H; i++) {
        if (memcmp(&g_px[i * 4], &empty[i * 4], 3) != 0) changed++;
        if (g_px[i * 4] > 150 && g_px[i * 4 + 1] < 90 && g_px[i * 4 + 2] < 90) red++;
    }
    assert_true(changed > 300);   /* a few percent of the frame */
    assert_true(red > 20);        /* the red body */
    assert_int_equal(render_stats(g_fx.render).draw_calls, 3);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
}

static void test_frame_stages_count_their_draws(void **state) {
    (void)state;
    /* Clouds over (0, 0), the aircraft in view: every stage but the (empty) HUD draws, the
     * dome and the upscale once, and the stages add up to the frame. */
    load_test_world();
    RenderView v = view(16.0, 50.0, 48.0, 0.0f, -18.0f, 5.0);
    RenderInstance *a = render_view_add(&v, RENDER_MODEL_AIRCRAFT);
    a->x = 16.0;
    a->y = 46.0;
    a->z = 38.0;
    render_frame(g_fx.render, &v, W, H);
    RenderStats s = render_stats(g_fx.render);
    uint32_t calls = 0, tris = 0;
    for (int k = 0; k < RENDER_STAGE_COUNT; k++) {
        printf("%-9s %3u calls %6u triangles\n", render_stage_name((RenderStage)k), s.stage_draw_calls[k],
               s.stage_triangles[k]);
        calls += s.stage_draw_calls[k];
        tris += s.stage_triangles[k];
    }
    assert_int_equal(calls, s.draw_calls);
    assert_int_equal(tris, s.triangles);
    assert_int_equal(s.stage_draw_calls[RENDER_STAGE_SKY], 1);
    assert_true(s.stage_draw_calls[RENDER_STAGE_TERRAIN] > 0);
    assert_int_equal(s.stage_draw_calls[RENDER_STAGE_AIRCRAFT], 1);
    assert_true(s.stage_draw_calls[RENDER_STAGE_CLOUDS] > 0);
    assert_int_equal(s.stage_draw_calls[RENDER_STAGE_HUD], 0);
    assert_int_equal(s.stage_draw_calls[RENDER_STAGE_PSX_BLIT], 1);
    /* The sky debug frame is the dome alone (then the upscale). */
    render_frame_sky_debug(g_fx.render, &v, W, H);
    s = render_stats(g_fx.render);
    assert_int_equal(s.draw_calls, 2);
    assert_int_equal(s.stage_draw_calls[RENDER_STAGE_SKY] + s.stage_draw_calls[RENDER_STAGE_PSX_BLIT], 2);
    assert_string_equal(render_stage_name(RENDER_STAGE_HUD), "hud");
    assert_int_equal(render_gl_errors(g_fx.render), 0);
}

/* After a first frame, frames with an upload each do not allocate. Two of them (a frame after
 * a frame, each with its own mesh): under qemu each takes seconds. */
static void test_frames_do_not_allocate(void **state) {
    (void)state;
    load_test_world();
    RenderView v = view(48.0, 75.0, 110.0, 10.0f, -30.0f, 5.0);
    render_frame(g_fx.render, &v, W, H);
    alloc_count_start();
    for (int i = 0; i < 2; i++) {
        v.time_s += 0.1;
        render_queue_mesh(g_fx.render, &g_mesh[i]);
        render_upload_pending(g_fx.render, NULL);
        render_frame(g_fx.render, &v, W, H);
    }
    assert_int_equal(alloc_count_stop(), 0);
}

static void test_missing_shader_is_one_clear_line(void **state) {
    (void)state;
    uint32_t errors_before = render_gl_errors(g_fx.render);
    char dir[] = "/tmp/skyisles-shaders-XXXXXX";
    assert_non_null(mkdtemp(dir));
    setenv("SKYISLES_SHADER_DIR", dir, 1);
    MemBudget mem;
    SkyError err = {0};
    assert_true(mem_budget_init(&mem, 8u << 20, &err));
    RenderSettings s;
    default_settings(&s);
    Renderer *r = render_create(&mem, &s, &err);
    assert_null(r);
    printf("message: %s\n", err.msg);
    assert_non_null(strstr(err.msg, "blit.vert is missing"));
    assert_non_null(strstr(err.msg, "SKYISLES_SHADER_DIR"));
    assert_null(strchr(err.msg, '\n'));

    /* A shader that does not compile names the file (its info log goes to stderr). The shared
     * prelude is one of the folder's files too: missing, it is named like any other. */
    char path[256];
    static const char *const names[] = {"blit.vert", "blit.frag", "sky.vert", "sky.frag", "prelude.glsl"};
    for (size_t i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (i == 4) {
            sky_error_clear(&err);
            r = render_create(&mem, &s, &err);
            assert_null(r);
            printf("message: %s\n", err.msg);
            assert_non_null(strstr(err.msg, "prelude.glsl is missing"));
        }
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        if (i == 4) fputs("// prelude: nothing shared in this test\n", f);
        else if (i == 3) fputs("#version 100\nprecision mediump float;\nvoid main() { gl_FragColor = vec4(1.0); }\n", f);
        else if (i == 2) fputs("#version 100\nattribute vec4 a_pos;\nvoid main() { gl_Position = a_pos * undefined_thing; }\n", f);
        else if (i == 0) fputs("#version 100\nattribute vec4 a_pos;\nvarying vec2 v_uv;\nvoid main() { v_uv = a_pos.xy; gl_Position = a_pos; }\n", f);
        else fputs("#version 100\nprecision mediump float;\nvarying vec2 v_uv;\nuniform sampler2D u_tex;\nvoid main() { gl_FragColor = texture2D(u_tex, v_uv); }\n", f);
        fclose(f);
    }
    sky_error_clear(&err);
    r = render_create(&mem, &s, &err);
    assert_null(r);
    printf("message: %s\n", err.msg);
    assert_non_null(strstr(err.msg, "sky.vert failed to compile"));
    for (size_t i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
    unsetenv("SKYISLES_SHADER_DIR");
    mem_budget_release(&mem);
    assert_int_equal(render_gl_errors(g_fx.render), errors_before);   /* failed builds leave no GL error */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_atmosphere_is_w8),
        cmocka_unit_test(test_ref_sky_only),
        cmocka_unit_test(test_ref_terrain_from_above),
        cmocka_unit_test(test_ref_inside_abyss),
        cmocka_unit_test(test_ref_with_clouds),
        cmocka_unit_test(test_upload_budget_and_counters),
        cmocka_unit_test(test_draw_counts_and_culling),
        cmocka_unit_test(test_faces_turned_away_are_skipped),
        cmocka_unit_test(test_faces_sorted_by_plane),
        cmocka_unit_test(test_psx_effects_switch),
        cmocka_unit_test(test_aircraft_is_drawn),
        cmocka_unit_test(test_frame_stages_count_their_draws),
        cmocka_unit_test(test_frames_do_not_allocate),
        cmocka_unit_test(test_missing_shader_is_one_clear_line),
    };
    return cmocka_run_group_tests(tests, setup, render_fixture_teardown);
}
