/* Render tests for objects and landmarks (C4): a forest and a landmark against reference images
 * in tests/ref/. The ground is synthetic (flat rock up to one height, built here), so the
 * references move only when the objects do: shapes, placement, flora or the mesher's box faces.
 * The objects are the world's own (gen_props and mesh_chunk on that ground).
 * SKYISLES_UPDATE_REFS=1 rewrites the references from this run. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/night_lights.h"
#include "platform.h"
#include "render/render.h"
#include "support_gl/render_fixture.h"
#include "world/world_internal.h"

#define W 160
#define H 120
#define N 3        /* 3 x 3 chunks */
#define GROUND 39  /* the synthetic ground's top block (see synthetic_voxels) */

static RenderFixture g_fx;
static MemBudget g_mem;
static MemPool g_slabs;
static ChunkScratch g_s;
_Static_assert((GROUND + 1 - WORLD_Y_MIN) % WORLD_CELL_Y == 0, "the ground is a whole number of cell layers");
static ChunkMesh g_mesh[N * N];
static IslandField g_field;
static uint8_t g_type[4] = {255, 255, 255, 255};   /* off the island everywhere: biome flora */

/* The synthetic ground: flat, its top block at y = 39, the top of the fifth layer of cells, so
 * the cell classes alone say what is solid (CELL_SURE below, nothing above): the bit rows and
 * the corner-grid samples past the apron agree, as they do in the world. */

static void synthetic_voxels(int32_t cx, int32_t cz) {
    memset(&g_s, 0, sizeof g_s);
    g_s.cx = cx;
    g_s.cz = cz;
    g_s.lod = 0;
    g_s.scale = 1;
    g_s.off = 0;
    g_s.n = CHUNK_SIZE;
    g_s.ny = WORLD_Y_MAX - WORLD_Y_MIN;
    g_s.y_top = WORLD_Y_MAX;
    g_s.nx = WG_NX0;
    for (int z = -1; z <= CHUNK_SIZE; z++)
        for (int x = -1; x <= CHUNK_SIZE; x++) {
            for (int y = WORLD_Y_MIN; y <= GROUND; y++) g_s.solid[y - WORLD_Y_MIN + 1][z + 1] |= 1ull << (x + 1);
            g_s.top[z + 1][x + 1] = (int16_t)(GROUND - WORLD_Y_MIN);
        }
    for (int yi = 0; yi < (GROUND + 1 - WORLD_Y_MIN) / WORLD_CELL_Y; yi++)
        for (int zi = 0; zi < WG_NX; zi++)
            for (int xi = 0; xi < WG_NX; xi++) g_s.cell_live[yi][zi][xi] = CELL_ROCK | CELL_SURE;
    for (int z = 0; z < CHUNK_SIZE; z++)
        for (int x = 0; x < CHUNK_SIZE; x++) {
            g_s.home_type[z][x] = ISLAND_FIELD_OFF;
            /* Temperate ground colours (the mesher blends the palettes by these weights). */
            for (int b = 0; b < BIOME_COUNT; b++) g_s.biome_w[z][x][b] = b == BIOME_TEMPERATE ? 1.0f : 0.0f;
        }
}

/* 3 x 3 chunks from (cx0, cz0) with the objects (and landmarks) of gen, meshed and uploaded. */
static uint32_t build_and_load(const WorldGen *g, int32_t cx0, int32_t cz0) {
    render_clear_terrain(g_fx.render);
    uint32_t objects = 0;
    for (int k = 0; k < N * N; k++) {
        mesh_free(&g_slabs, &g_mesh[k]);
        synthetic_voxels(cx0 + k % N, cz0 + k / N);
        gen_props(g, &g_s);
        objects += g_s.props.objects + g_s.props.landmarks;
        MeshCounts mc;
        assert_true(mesh_chunk(g, &g_s, &g_slabs, &g_mesh[k], &mc));
        assert_true(render_queue_mesh(g_fx.render, &g_mesh[k]));
    }
    while (render_upload_pending(g_fx.render, NULL) > 0) {}
    return objects;
}

static int setup(void **state) {
    (void)state;
    RenderSettings s;
    render_settings_default(&s);
    s.live.lines = 120;
    s.create.max_chunks = 32;
    if (!render_fixture_open(&g_fx, "skyisles props test", W, H, 32u << 20, &s)) return -1;
    SkyError err = {0};
    if (!mem_budget_init(&g_mem, (size_t)24 << 20, &err) ||
        !mem_pool_init(&g_slabs, &g_mem, "test slabs", sizeof(WorldVertex) * WORLD_SLAB_VERTS, 512))
        return -1;
    return 0;
}

static int teardown(void **state) {
    (void)state;
    for (int k = 0; k < N * N; k++) mesh_free(&g_slabs, &g_mesh[k]);
    mem_budget_release(&g_mem);
    render_fixture_close(&g_fx);
    return 0;
}

static void shot(const char *name, double x, double y, double z, float yaw, float pitch) {
    RenderView v = render_fixture_view(x, y, z, yaw, pitch, 5.0);
    static uint8_t px[W * H * 4];
    render_fixture_frame(&g_fx, &v, W, H, px);
    render_fixture_check_ref(name, W, H, px);
}

/* A forest: the default world's objects over 3 x 3 chunks of a temperate region. */
static void test_ref_forest(void **state) {
    (void)state;
    WorldParams p;
    world_params_default(&p);
    WorldGen g;
    gen_init(&g, &p.gen, NULL);
    uint32_t objects = build_and_load(&g, 0, 0);
    printf("forest: %u objects over %d chunks\n", objects, N * N);
    assert_true(objects > 20);
    shot("forest", 40.0, 52.0, 84.0, 0.0f, -16.0f);
}

/* One home-island site with a lighthouse in the middle chunk, objects off, loaded. */
static void load_lighthouse(void) {
    memset(&g_field, 0, sizeof g_field);
    g_field.size = 2;
    g_field.cell_meters = 1.0f;
    g_field.centre_x = 48.0f;
    g_field.centre_z = 48.0f;
    g_field.radius_m = 1.0f;
    g_field.elevation_top_m = 100.0f;
    static uint16_t elev[4];
    g_field.elevation_dm = elev;
    g_field.type = g_type;
    g_field.n_types = 1;
    g_field.type_landmark[0] = "lighthouse";
    g_field.n_sites = 1;
    g_field.sites[0].x_m = 0.5f;
    g_field.sites[0].z_m = 0.5f;
    WorldParams p;
    world_params_default(&p);
    p.gen.prop_density = 0.0f;
    WorldGen g;
    gen_init(&g, &p.gen, &g_field);
    assert_int_equal(g.isl.n_marks, 1);
    uint32_t objects = build_and_load(&g, 0, 0);
    assert_int_equal(objects, 1);
}

/* A landmark: the lighthouse against its reference image. */
static void test_ref_landmark(void **state) {
    (void)state;
    load_lighthouse();
    shot("landmark", 48.5, 50.0, 72.0, 0.0f, -4.0f);
}

static int luma(const uint8_t *p) { return (p[0] * 299 + p[1] * 587 + p[2] * 114) / 1000; }

/* The brightest pixel of the frame within r pixels of (cx, cy): its luminance and place. */
static int brightest_near(const uint8_t *px, int cx, int cy, int r, int *bx, int *by) {
    int best = -1;
    for (int y = cy - r; y <= cy + r; y++)
        for (int x = cx - r; x <= cx + r; x++) {
            if (x < 0 || y < 0 || x >= W || y >= H) continue;
            int l = luma(&px[(y * W + x) * 4]);
            if (l > best) best = l, *bx = x, *by = y;
        }
    return best;
}

/* At night the lighthouse's lamp (the game's night lights for the shape, at the block the world
 * put it on) is the brightest thing near it: the brightest pixel around the lighthouse is at the
 * lamp, far brighter than the same place without the lights. */
static void test_night_lamp_is_brightest(void **state) {
    (void)state;
    load_lighthouse();
    RenderSettings s = *render_settings(g_fx.render);
    s.live.time_mode = 1;   /* fixed */
    s.live.hour = 0.0f;
    render_apply_settings(g_fx.render, &s);
    GameLamp lamp;
    assert_true(game_lamp_at("lighthouse", 48, GROUND + 1, 48, &lamp));
    static uint8_t lit[W * H * 4], dark[W * H * 4];
    RenderView v = render_fixture_view(48.5, 50.0, 72.0, 0.0f, -4.0f, 5.0);
    render_frame(g_fx.render, &v, W, H);
    assert_true(render_read_pixels(W, H, dark));
    game_lamp_lights(&lamp, &v, 5.0);
    assert_true(v.light_count == 2);   /* the lamp and its beam */
    render_frame(g_fx.render, &v, W, H);
    assert_true(render_read_pixels(W, H, lit));
    assert_int_equal(render_gl_errors(g_fx.render), 0);
    /* The lamp on the screen (rows top first). */
    float vp[16];
    render_last_viewproj(g_fx.render, vp);
    float r[3] = {(float)(lamp.x - v.cam_x), (float)(lamp.y - v.cam_y), (float)(lamp.z - v.cam_z)};
    float cx = vp[0] * r[0] + vp[4] * r[1] + vp[8] * r[2] + vp[12], cy = vp[1] * r[0] + vp[5] * r[1] + vp[9] * r[2] + vp[13];
    float cw = vp[3] * r[0] + vp[7] * r[1] + vp[11] * r[2] + vp[15];
    int lx = (int)((cx / cw * 0.5f + 0.5f) * W), ly = (int)((0.5f - cy / cw * 0.5f) * H);
    int bx = 0, by = 0, dbx = 0, dby = 0;
    int best = brightest_near(lit, lx, ly, 30, &bx, &by), before = brightest_near(dark, lx, ly, 30, &dbx, &dby);
    printf("lamp at (%d, %d): brightest %d at (%d, %d); without the lights %d\n", lx, ly, best, bx, by, before);
    assert_true(abs(bx - lx) <= 3 && abs(by - ly) <= 3);
    assert_true(best > 200 && best > before + 100);
    s.live.time_mode = 0;
    s.live.hour = RENDER_HOUR_DEFAULT;
    render_apply_settings(g_fx.render, &s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ref_forest),
        cmocka_unit_test(test_ref_landmark),
        cmocka_unit_test(test_night_lamp_is_brightest),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
