/* Landmarks end to end: the codex names one per location type, the pack carries it, the baked
 * IslandField holds the sites, and the world builds each site's landmark into the chunks it
 * stands in, on the terrain, within a block of its position, tall, with no object inside it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "island/island.h"
#include "support/alloc_count.h"
#include "support/emulated.h"
#include "support/home_world.h"
#include "world/world.h"
#include "world/world_internal.h"

static HomeIsland g_home;

/* The home island for seed, in place of the last one (no world may still stand on that). */
static void home(uint64_t seed) {
    SkyError err = {0};
    home_island_release(&g_home);
    if (!home_island_make(&g_home, seed, &err)) fail_msg("home island: %s", err.msg);
}

static int32_t floor_i(float v) { return (int32_t)floorf(v); }

/* Every type of the default codex names a landmark and a flora set the world has, and the baked
 * field carries the names and every site. */
static void test_codex_names_and_field(void **state) {
    (void)state;
    home(1);
    for (uint32_t t = 0; t < g_home.cx.n_types; t++) {
        assert_true(world_landmark_find(g_home.cx.types[t].landmark) >= 0);
        assert_true(!g_home.cx.types[t].flora[0] || world_flora_find(g_home.cx.types[t].flora) >= 0);
        assert_string_equal(g_home.field.type_landmark[t], g_home.cx.types[t].landmark);
    }
    assert_int_equal(g_home.field.n_sites, g_home.isl.n_sites);
    for (uint32_t i = 0; i < g_home.isl.n_sites; i++) {
        assert_true(g_home.field.sites[i].x_m == g_home.isl.sites[i].x_m && g_home.field.sites[i].z_m == g_home.isl.sites[i].z_m);
        assert_int_equal(g_home.field.sites[i].type, g_home.isl.sites[i].type);
    }
}

typedef struct Seen {
    int32_t lx0, lx1, lz0, lz1, ly0, ly1;   /* landmark vertex bounds, world blocks */
    uint32_t verts, prop_inside;
} Seen;

/* The landmark vertices of a chunk's mesh around a site, and object vertices inside its square. */
static void scan(const ChunkMesh *m, int32_t sx, int32_t sz, Seen *s) {
    for (uint32_t p = 0; p < m->opaque_parts; p++)
        for (uint32_t k = 0; k < m->parts[p].vert_count; k++) {
            const WorldVertex *v = &m->parts[p].verts[k];
            int32_t x = m->cx * CHUNK_SIZE + v->x, z = m->cz * CHUNK_SIZE + v->z;
            uint8_t mat = v->flags >> 2;
            bool near = x >= sx - 6 && x <= sx + 7 && z >= sz - 6 && z <= sz + 7;
            if (mat == WORLD_MAT_LANDMARK && near) {
                if (!s->verts || x < s->lx0) s->lx0 = x;
                if (!s->verts || x > s->lx1) s->lx1 = x;
                if (!s->verts || z < s->lz0) s->lz0 = z;
                if (!s->verts || z > s->lz1) s->lz1 = z;
                if (!s->verts || v->y < s->ly0) s->ly0 = v->y;
                if (!s->verts || v->y > s->ly1) s->ly1 = v->y;
                s->verts++;
            }
            /* Object faces never lie strictly inside a landmark's square (|x|, |z| <= 4). */
            if (mat == WORLD_MAT_PROP && x > sx - 4 && x < sx + 5 && z > sz - 4 && z < sz + 5) s->prop_inside++;
        }
}

/* Each site's landmark: built by every chunk it touches (each its part, at any LOD), centred on
 * the site within a block, standing on the terrain (its foot in the ground, its top at least 9
 * blocks above the ground at the site), and no object inside it. Three islands natively, the
 * first under emulation (some hundred chunks an island). */
static void test_every_site_has_its_landmark(void **state) {
    (void)state;
    MemBudget b;
    SkyError err = {0};
    assert_true(mem_budget_init(&b, (size_t)96 << 20, &err));
    uint32_t sites = 0, chunks = 0;
    const uint64_t seeds = test_running_emulated() ? 1 : 3;
    for (uint64_t seed = 1; seed <= seeds; seed++) {
        home(seed);
        WorldParams p;
        world_params_default(&p);
        p.live.view_radius = 2;
        p.create.mesh_pool_mib = 24;
        World *w = world_create(&b, NULL, &p, &g_home.field, &err);
        assert_non_null(w);
        for (uint32_t i = 0; i < g_home.isl.n_sites; i++) {
            int32_t sx = floor_i(g_home.field.centre_x + g_home.isl.sites[i].x_m), sz = floor_i(g_home.field.centre_z + g_home.isl.sites[i].z_m);
            int lod = (int)(i % 4);
            Seen s = {0};
            /* Every chunk the landmark may reach (its square, |x|, |z| <= 4). */
            int32_t cx0 = floor_div(sx - 4, CHUNK_SIZE), cx1 = floor_div(sx + 4, CHUNK_SIZE);
            int32_t cz0 = floor_div(sz - 4, CHUNK_SIZE), cz1 = floor_div(sz + 4, CHUNK_SIZE);
            for (int32_t cz = cz0; cz <= cz1; cz++)
                for (int32_t cx = cx0; cx <= cx1; cx++) {
                    ChunkMesh m;
                    assert_true(world_build_chunk_lod(w, cx, cz, lod, 0.0, &m, NULL));
                    scan(&m, sx, sz, &s);
                    world_free_mesh(w, &m);
                    chunks++;
                }
            /* The ground at the site: the highest solid block of its column. */
            int32_t ground = -1;
            for (int32_t y = WORLD_Y_MAX - 1; y >= WORLD_Y_MIN && ground < 0; y--)
                if (world_solid_at(w, sx + 0.5, y + 0.5, sz + 0.5)) ground = y;
            if (!s.verts) fail_msg("seed %llu site %u (%s) at (%d, %d): no landmark", (unsigned long long)seed, i,
                                   g_home.cx.types[g_home.isl.sites[i].type].id, sx, sz);
            double mx = 0.5 * (s.lx0 + s.lx1), mz = 0.5 * (s.lz0 + s.lz1);
            if (mx < sx - 1.0 || mx > sx + 2.0 || mz < sz - 1.0 || mz > sz + 2.0)
                fail_msg("site %u at (%d, %d): landmark centred at (%.1f, %.1f)", i, sx, sz, mx, mz);
            assert_true(ground >= 0);
            assert_true(s.ly0 <= ground + 1);            /* stands in or on the ground, never above it */
            assert_true(s.ly1 >= ground + 1 + 9);        /* visible from afar */
            assert_int_equal(s.prop_inside, 0);
            sites++;
        }
        world_destroy(w);
    }
    printf("%u sites over %u islands: every one has its landmark (%u chunk builds)\n", sites, (unsigned)seeds, chunks);
    assert_true(sites >= 20 * seeds);   /* the shipped scope's 20 sites or more each */
    mem_budget_release(&b);
}

/* Flora by location type on the home island: palms, rocks and bushes on sandy beaches, nothing
 * on cliffs, craters and paths, trees in jungles and forests; and building chunks with landmarks and
 * home flora takes no heap call. */
static ChunkScratch g_s;

static void test_home_flora_by_type(void **state) {
    (void)state;
    home(1);
    WorldParams p;
    world_params_default(&p);
    static WorldGen g;
    gen_init(&g, &p.gen, &g_home.field);
    uint32_t beach = 0, jungle_trees = 0, chunks = 0;
    alloc_count_start();
    for (uint32_t i = 0; i < g_home.isl.n_sites; i++) {
        int32_t sx = floor_i(g_home.field.centre_x + g_home.isl.sites[i].x_m), sz = floor_i(g_home.field.centre_z + g_home.isl.sites[i].z_m);
        /* The site's chunk and its four neighbours. */
        for (int d = 0; d < 5; d++) {
            int32_t cx = floor_div(sx, CHUNK_SIZE) + (d == 1) - (d == 2), cz = floor_div(sz, CHUNK_SIZE) + (d == 3) - (d == 4);
            gen_chunk_voxels(&g, cx, cz, 0.0, &g_s);
            chunks++;
            for (uint32_t k = 0; k < g_s.props.nplaced; k++) {
                const PropPlaced *o = &g_s.props.placed[k];
                if (o->landmark || !o->own) continue;
                uint8_t t = gen_home_type(&g, o->bx, o->bz);
                if (t == ISLAND_FIELD_OFF) continue;
                if (t == WORLD_HOME_PATH)
                    fail_msg("a %s at (%d, %d) on a path", gen_prop_shape_name(o->shape, false), o->bx, o->bz);
                const char *type = g_home.cx.types[t].id, *shape = gen_prop_shape_name(o->shape, false);
                if (!strcmp(type, "cliff") || !strcmp(type, "crater"))
                    fail_msg("a %s at (%d, %d) on %s ground", shape, o->bx, o->bz, type);
                if (!strcmp(type, "sandy_beach")) {
                    assert_true(!strcmp(shape, "palm") || !strcmp(shape, "rock") || !strcmp(shape, "bush"));
                    beach++;
                }
                if (!strcmp(type, "jungle"))
                    jungle_trees += !strcmp(shape, "jungle tree") || !strcmp(shape, "palm");
            }
        }
    }
    uint64_t allocs = alloc_count_stop();
    printf("%u chunks around the sites: %u objects on sandy beaches, %u jungle trees; %llu heap calls\n", chunks, beach,
           jungle_trees, (unsigned long long)allocs);
    assert_true(beach > 0 && jungle_trees > 0);
    assert_int_equal(allocs, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_codex_names_and_field),
        cmocka_unit_test(test_every_site_has_its_landmark),
        cmocka_unit_test(test_home_flora_by_type),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
