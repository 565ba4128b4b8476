/* Render test for water (WORLD_MAT_WATER, the terrain program's water branch): the game seed's
 * crater lake seen from above, three ways from one world (world_set_home): its field as baked,
 * the same field with the lake bed painted red, and the same field without water. Over the lake
 * the frame differs from the one without water (the surface is drawn) and from the red bed's
 * (the bed shows through it: translucent); away from the lake nothing changes. The water's
 * surface moves (two frames a few seconds apart differ over the lake) and nothing else does. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "support/home_world.h"
#include "support_gl/render_fixture.h"
#include "world/world.h"

#define W 160
#define H 120
#define GAME_SEED 20261129u
#define NC 3   /* chunks a side around the lake, LOD 1 */

static RenderFixture g_fx;
static HomeIsland g_home;
static World *g_world;
static IslandField g_red, g_dry;
static uint8_t g_red_rgb[256 * 256 * 3];
static ChunkMesh g_mesh[NC * NC];
static uint8_t g_a[W * H * 4], g_b[W * H * 4], g_c[W * H * 4], g_d[W * H * 4];
static uint8_t g_wet[W * H];   /* 1: the pixel looks down onto a water column */
static double g_wx, g_wz;
static int32_t g_level;

static int setup(void **state) {
    (void)state;
    RenderSettings s;
    render_settings_default(&s);
    s.live.lines = 120;
    s.live.time_mode = 1;   /* the hour held: only the water moves with the time */
    s.create.max_chunks = 32;
    if (!render_fixture_open(&g_fx, "skyisles water test", W, H, 96u << 20, &s)) return -1;
    SkyError err = {0};
    if (!home_island_make(&g_home, GAME_SEED, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    const IslandField *f = &g_home.field;
    if (f->size * f->size * 3 > sizeof g_red_rgb) return -1;
    /* the largest water's middle: the water cell with the most water within 15 m (a lake fills
     * the view from above, a small pool would not) */
    uint32_t best = 0;
    size_t n = (size_t)f->size * f->size;
    const int32_t reach = (int32_t)(15.0f / f->cell_meters), sz = (int32_t)f->size;
    for (size_t c = 0; c < n; c++) {
        if (!f->water_dm[c]) continue;
        int32_t ci = (int32_t)(c % f->size), cj = (int32_t)(c / f->size);
        uint32_t around = 0;
        for (int32_t j = cj - reach; j <= cj + reach; j++)
            for (int32_t i = ci - reach; i <= ci + reach; i++)
                around += i >= 0 && j >= 0 && i < sz && j < sz && f->water_dm[(size_t)j * f->size + (size_t)i];
        if (around > best) {
            best = around;
            g_wx = ((double)ci + 0.5 - 0.5 * f->size) * f->cell_meters;
            g_wz = ((double)cj + 0.5 - 0.5 * f->size) * f->cell_meters;
        }
    }
    printf("  the lake at %.1f, %.1f: %u water cells within 15 m\n", g_wx, g_wz, best);
    g_red = *f;
    memcpy(g_red_rgb, f->ground_rgb, n * 3);
    for (size_t c = 0; c < n; c++)
        if (f->water_dm[c]) g_red_rgb[c * 3] = 255, g_red_rgb[c * 3 + 1] = 0, g_red_rgb[c * 3 + 2] = 0;
    g_red.ground_rgb = g_red_rgb;
    g_dry = *f;
    g_dry.water_dm = NULL;
    WorldParams p;
    world_params_default(&p);
    p.gen.seed = GAME_SEED;
    p.gen.clouds = false;
    p.gen.cave_modes = 0;
    p.live.view_radius = 3;
    p.create.mesh_pool_mib = 16;
    g_world = world_create(&g_fx.mem, NULL, &p, f, &err);
    if (!g_world) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    g_level = world_water_level(g_world, g_wx, g_wz);
    return best > 0 && g_level > 0 ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    for (int i = 0; i < NC * NC; i++)
        if (g_mesh[i].opaque_parts + g_mesh[i].cloud_parts) world_free_mesh(g_world, &g_mesh[i]);
    world_destroy(g_world);
    home_island_release(&g_home);
    render_fixture_close(&g_fx);
    return 0;
}

/* The chunks around (x, z) built on `home`, uploaded, and a frame of view v. */
static void frame_at(const IslandField *home, double x, double z, const RenderView *v, uint8_t *out) {
    world_set_home(g_world, home);
    render_clear_terrain(g_fx.render);
    int64_t cx0 = (int64_t)floor(x / CHUNK_SIZE) - NC / 2, cz0 = (int64_t)floor(z / CHUNK_SIZE) - NC / 2;
    for (int j = 0; j < NC; j++)
        for (int i = 0; i < NC; i++) {
            WorldBuildTiming tm;
            ChunkMesh *m = &g_mesh[j * NC + i];
            if (m->opaque_parts + m->cloud_parts) world_free_mesh(g_world, m);
            assert_true(world_build_chunk_lod(g_world, cx0 + i, cz0 + j, 1, 0.0, m, &tm));
            assert_true(render_queue_mesh(g_fx.render, m));
        }
    while (render_upload_pending(g_fx.render, NULL) > 0) {}
    render_frame(g_fx.render, v, W, H);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
    assert_true(render_read_pixels(W, H, out));
}

/* The lake from above at time t. */
static void frame_of(const IslandField *home, double t, uint8_t *out) {
    RenderView v = render_fixture_view(g_wx, (double)g_level + 45.0, g_wz + 20.0, 0.0f, -65.0f, t);
    frame_at(home, g_wx, g_wz, &v, out);
}

static int channel_delta(const uint8_t *a, const uint8_t *b, int i) {
    int d = 0;
    for (int k = 0; k < 3; k++) {
        int e = abs(a[i * 4 + k] - b[i * 4 + k]);
        if (e > d) d = e;
    }
    return d;
}

static void test_lake_is_translucent(void **state) {
    (void)state;
    frame_of(&g_home.field, 0.0, g_a);
    frame_of(&g_red, 0.0, g_b);
    frame_of(&g_dry, 0.0, g_c);
    /* The lake's pixels are those the water changes; through most of them the red bed shows. */
    int wet = 0, shows = 0;
    for (int i = 0; i < W * H; i++) {
        g_wet[i] = channel_delta(g_a, g_c, i) > 8;
        wet += g_wet[i];
        if (g_wet[i]) shows += channel_delta(g_a, g_b, i) > 24;
    }
    printf("  %d pixels show the water, through %d of them its red bed\n", wet, shows);
    assert_true(wet > W * H / 20);
    assert_true(shows > wet * 2 / 3);   /* the rest: the crater's beacon standing in the lake, its far shore */
}

static void test_surface_moves(void **state) {
    (void)state;
    frame_of(&g_home.field, 0.0, g_a);
    frame_of(&g_home.field, 2.5, g_b);
    int wet_moved = 0, dry_moved = 0, wet = 0;
    for (int i = 0; i < W * H; i++) {
        bool moved = channel_delta(g_a, g_b, i) > 0;
        if (g_wet[i]) wet++, wet_moved += moved;
        else dry_moved += moved;
    }
    printf("  2.5 s later: %d of %d lake pixels changed, %d others\n", wet_moved, wet, dry_moved);
    assert_true(wet_moved > wet / 10);
    assert_true(dry_moved < W * H / 200);
}

/* The first falls from outside the island, level with its lip, at time t. */
static void falls_frame(const IslandField *home, double t, uint8_t *out) {
    const IslandFieldFalls *fl = &g_home.field.falls[0];
    double top = world_home_sea(&world_params(g_world)->gen, &g_home.field) + fl->top_m;
    double cx = fl->x_m + fl->dir_x * 60.0, cz = fl->z_m + fl->dir_z * 60.0;
    float yaw = (float)(atan2(-fl->dir_x, fl->dir_z) * 57.29577951308232);
    RenderView v = render_fixture_view(cx, top - 12.0, cz, yaw, -10.0f, t);
    frame_at(home, fl->x_m, fl->z_m, &v, out);
}

/* A waterfall animates: two frames half a second apart differ on it and nowhere else (but where
 * the same frames without water differ too: the sky's drift). */
static void test_falls_animates(void **state) {
    (void)state;
    assert_true(g_home.field.n_falls > 0);
    falls_frame(&g_home.field, 0.0, g_a);
    falls_frame(&g_home.field, 0.5, g_b);
    falls_frame(&g_dry, 0.0, g_c);
    falls_frame(&g_dry, 0.5, g_d);
    int falls = 0, moved = 0, moved_off = 0, sky = 0;
    for (int i = 0; i < W * H; i++) {
        bool water = channel_delta(g_a, g_c, i) > 8, m = channel_delta(g_a, g_b, i) > 0;
        bool dry_moved = channel_delta(g_c, g_d, i) > 0;
        falls += water;
        sky += dry_moved;
        if (water) moved += m;
        else if (!dry_moved) moved_off += m;
    }
    printf("  (%d pixels of the frame without water change: the sky)\n", sky);
    printf("  falls: %d pixels of water, %d of them changed in 0.5 s, %d others\n", falls, moved, moved_off);
    assert_true(falls > W * H / 50);
    assert_true(moved > falls / 5);
    assert_true(moved_off < W * H / 200);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lake_is_translucent),
        cmocka_unit_test(test_surface_moves),
        cmocka_unit_test(test_falls_animates),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
