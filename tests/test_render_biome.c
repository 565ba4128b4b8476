/* Render test for biome palettes (W6, C4): a border between the desert and its neighbour drawn
 * from the air against a reference image (160x120, 20 LOD-1 chunks: small enough for softpipe
 * under qemu). The world is one of continuous island tops (coverage everywhere, no caves or
 * clouds) so the border, not the terrain's gaps, fills the frame: ochre sand and banded red
 * strata on one side, the neighbour's palette on the other, blended in between. */
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
#include "world/world_internal.h"

#define W 160
#define H 120
#define NCX 5
#define NCZ 4

static RenderFixture g_fx;
static World *g_world;
static WorldParams g_p;
static ChunkMesh g_mesh[NCX * NCZ];
static uint8_t g_px[W * H * 4];

static int setup(void **state) {
    (void)state;
    RenderSettings s;
    render_settings_default(&s);
    s.live.lines = 120;
    s.create.max_chunks = 64;
    if (!render_fixture_open(&g_fx, "skyisles biome test", W, H, 96u << 20, &s)) return -1;
    world_params_default(&g_p);
    g_p.gen.island_threshold = -0.5f;
    g_p.gen.cave_modes = 0;
    g_p.gen.clouds = false;
    g_p.gen.snow_level = 200.0f;   /* the border's palettes, not the snow line */
    g_world = render_fixture_world(&g_fx, &g_p);
    if (!g_world) return -1;
    return 0;
}

static int teardown(void **state) {
    (void)state;
    for (int i = 0; i < NCX * NCZ; i++)
        if (g_mesh[i].opaque_parts + g_mesh[i].cloud_parts) world_free_mesh(g_world, &g_mesh[i]);
    world_destroy(g_world);
    render_fixture_close(&g_fx);
    return 0;
}

/* The first place along rows z = 16 + 1024k where a pure desert sample and a pure sample of
 * another biome lie at most 256 blocks apart (32-block steps): x of the border's middle. */
static bool find_desert_border(int32_t *bx, int32_t *bz, WorldBiome *other) {
    WorldGen g;
    gen_init(&g, &g_p.gen, NULL);
    for (int32_t z = 16; z < 40000; z += 1024) {
        BiomeSample prev = {0}, cur;
        int32_t xp = 0;
        bool have = false;
        for (int32_t x = -20000; x < 20000; x += 32) {
            gen_biome_at(&g, x, z, &cur);
            if (cur.w[cur.main] < 0.999f) continue;
            if (have && cur.main != prev.main && x - xp <= 256 &&
                (cur.main == BIOME_DESERT || prev.main == BIOME_DESERT)) {
                *bx = (x + xp) / 2;
                *bz = z;
                *other = cur.main == BIOME_DESERT ? prev.main : cur.main;
                return true;
            }
            prev = cur, xp = x, have = true;
        }
    }
    return false;
}

static void test_ref_desert_border(void **state) {
    (void)state;
    int32_t bx = 0, bz = 0;
    WorldBiome other = BIOME_TEMPERATE;
    assert_true(find_desert_border(&bx, &bz, &other));
    printf("desert / %s border at x %d, z %d\n", gen_biome_name(other), bx, bz);
    int32_t cx0 = (int32_t)floor(bx / (double)CHUNK_SIZE) - NCX / 2, cz0 = (int32_t)floor(bz / (double)CHUNK_SIZE) - 1;
    render_clear_terrain(g_fx.render);
    for (int j = 0; j < NCZ; j++)
        for (int i = 0; i < NCX; i++) {
            WorldBuildTiming t;
            ChunkMesh *m = &g_mesh[j * NCX + i];
            assert_true(world_build_chunk_lod(g_world, cx0 + i, cz0 + j, 1, 0.0, m, &t));
            assert_true(render_queue_mesh(g_fx.render, m));
        }
    while (render_upload_pending(g_fx.render, NULL) > 0) {}
    /* Above the border's near end, looking along +z and down over it. */
    RenderView v = render_fixture_view(bx + 0.5, 200.0, cz0 * CHUNK_SIZE - 10.0, 180.0f, -40.0f, 0.0);
    render_frame(g_fx.render, &v, W, H);
    assert_true(render_read_pixels(W, H, g_px));
    /* Both palettes are in the frame: ochre/red desert pixels (r well above b) on one side and
     * green ones on the other (the border found is with the temperate biome). */
    assert_int_equal(other, BIOME_TEMPERATE);
    uint32_t desert = 0, rest = 0;
    for (int i = 0; i < W * H; i++) {
        int r = g_px[i * 4], g = g_px[i * 4 + 1], b = g_px[i * 4 + 2];
        if (r > b + 50 && r > g + 15) desert++;
        else if (g > r + 10 && g > b + 10) rest++;   /* the temperate or jungle greens */
    }
    printf("desert-coloured pixels %u, others %u of %d\n", desert, rest, W * H);
    render_fixture_check_ref("biome_border", W, H, g_px);
    assert_true(desert > W * H / 10 && rest > W * H / 10);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ref_desert_border),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
