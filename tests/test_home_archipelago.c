/* skyisles tests: the archipelago in the world: islands of cells baked on the workers into the
 * slot pool, chunks of a cell that wait for its bake, the point query on a generated island, and
 * eviction that keeps the nearest. The source is the real generator on the built-in pack (every
 * island made as the home island is, each cell with its own seed and centre). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "island/island.h"
#include "support/alloc_count.h"
#include "support/home_world.h"
#include "world/stream_internal.h"
#include "world/world.h"
#include "support/world_view.h"

#define CELL_M 4096
#define FIELD 128u

typedef struct Source {
    IslandCodex cx;
    uint32_t scope;
    size_t work, field;
    atomic_int hold;          /* bakes wait while it is set (the gating test) */
    atomic_int bakes;
} Source;

static Source g_src;

static uint64_t cell_seed(int64_t x, int64_t z) {
    uint64_t s = (uint64_t)x * 0x9e3779b97f4a7c15ull ^ (uint64_t)z * 0xc2b2ae3d27d4eb4full ^ 0x5eed;
    return splitmix64_next(&s);
}

/* Every cell but those whose seed says otherwise holds an island near its centre. */
static void src_site(void *ctx, int64_t x, int64_t z, WorldIslandSite *out) {
    (void)ctx;
    uint64_t s = cell_seed(x, z);
    out->has_island = (s & 7u) != 0;
    out->centre_x = x * CELL_M + (int64_t)((s >> 8) % 401) - 200;
    out->centre_z = z * CELL_M + (int64_t)((s >> 20) % 401) - 200;
    out->diameter_m = 640;
}

static bool src_bake(void *ctx, int64_t x, int64_t z, MemArena *arena, IslandField *field, const void **island) {
    Source *src = ctx;
    while (atomic_load(&src->hold)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    WorldIslandSite site;
    src_site(ctx, x, z, &site);
    if (!site.has_island) return false;
    Island *isl = mem_arena_alloc(arena, sizeof *isl, 64);
    if (!isl) return false;
    IslandParams ip = {.seed = cell_seed(x, z), .scope = src->scope, .site_count = 0};
    SkyError err = {0};
    if (!island_generate(isl, &src->cx, &ip, arena, &err)) return false;
    float ox = (float)(site.centre_x - x * CELL_M), oz = (float)(site.centre_z - z * CELL_M);
    if (!island_bake_field(field, isl, &src->cx, FIELD, ox, oz, arena, &err)) return false;
    if (island) *island = isl;
    atomic_fetch_add(&src->bakes, 1);
    return true;
}

static WorldIslandSource source(void) {
    WorldIslandSource s = {&g_src, CELL_M, g_src.work + g_src.field + sizeof(Island) + 256, src_site, src_bake};
    return s;
}

static int setup(void **state) {
    (void)state;
    size_t len;
    const void *pak = island_pak_default(&len);
    SkyError err = {0};
    if (!island_pak_load(&g_src.cx, pak, len, &err)) fail_msg("%s", err.msg);
    int scope = island_codex_find_scope(&g_src.cx, "island");
    assert_true(scope >= 0);
    g_src.scope = (uint32_t)scope;
    g_src.work = island_work_bytes();
    g_src.field = island_field_bytes(&g_src.cx, g_src.scope, FIELD);
    return 0;
}

typedef struct Rig {
    MemBudget budget;
    JobSystem *jobs;
    World *world;
} Rig;

static void rig_up(Rig *r, uint32_t workers, uint32_t slots) {
    SkyError err = {0};
    assert_true(mem_budget_init(&r->budget, (size_t)160 << 20, &err));
    r->jobs = NULL;
    if (workers) {
        JobsConfig jc = {workers, 256, 0};
        r->jobs = jobs_create(&r->budget, &jc, &err);
        assert_non_null(r->jobs);
    }
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 6;
    r->world = world_create(&r->budget, r->jobs, &p, NULL, &err);
    if (!r->world) fail_msg("%s", err.msg);
    WorldIslandSource s = source();
    if (!world_set_islands(r->world, &r->budget, &s, slots, &err)) fail_msg("%s", err.msg);
}

static void rig_down(Rig *r) {
    world_destroy(r->world);
    if (r->jobs) jobs_destroy(r->jobs);
    mem_budget_release(&r->budget);
}

static WorldView view_at(double x, double z, double t, float speed) {
    return test_view_east(x, 110.0, z, t, speed);
}

/* The first cell along +x from cell 1 that holds an island, and its site. */
static int64_t island_cell(WorldIslandSite *site) {
    for (int64_t x = 1;; x++) {
        src_site(NULL, x, 0, site);
        if (site->has_island) return x;
    }
}

/* Chunks of a cell whose island is not baked yet are neither built nor handed out; once the bake
 * is in, they come, and their meshes are those of a direct build on the baked island. */
static void test_chunks_wait_for_their_island(void **state) {
    (void)state;
    Rig r;
    rig_up(&r, 2, 4);
    WorldIslandSite site;
    int64_t cx = island_cell(&site);
    double x = (double)site.centre_x, z = (double)site.centre_z;
    atomic_store(&g_src.hold, 1);
    WorldEvent ev[256];
    uint32_t ready = 0;
    for (int f = 0; f < 40; f++) {
        WorldView v = view_at(x, z, f / 60.0, 0.0f);
        world_update(r.world, &v);
        size_t n;
        while ((n = world_take_events(r.world, ev, 256)) > 0)
            for (size_t i = 0; i < n; i++)
                if (ev[i].type == WORLD_EV_MESH_READY) ready++;
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    WorldStats st = world_stats(r.world);
    assert_int_equal(ready, 0);            /* every chunk around lies in the island's cell */
    assert_true(st.island_waits > 0);
    assert_int_equal(st.island_bakes, 0);
    assert_int_equal(st.in_flight, 0);     /* no chunk job went out for them */
    atomic_store(&g_src.hold, 0);
    for (int f = 40; f < 400 && ready < 50; f++) {
        WorldView v = view_at(x, z, f / 60.0, 0.0f);
        world_update(r.world, &v);
        size_t n;
        while ((n = world_take_events(r.world, ev, 256)) > 0)
            for (size_t i = 0; i < n; i++) {
                if (ev[i].type != WORLD_EV_MESH_READY) continue;
                assert_int_equal(world_island_cell(r.world, ev[i].cx * CHUNK_SIZE + 16.0), cx);
                assert_true(isl_find(r.world, cx, 0) >= 0);   /* its island is baked */
                ready++;
            }
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    st = world_stats(r.world);
    assert_true(ready >= 50);
    assert_true(st.island_bakes >= 1);
    assert_int_equal(st.island_sync_bakes, 0);
    /* The island is there: the columns at its centre rise above its sea level. */
    WorldIsland wi;
    assert_true(world_island_at(r.world, x, z, &wi));
    assert_false(wi.home);
    assert_int_equal(wi.cell_x, cx);
    assert_true(world_density_at(r.world, x + 0.5, wi.sea + 0.5, z + 0.5) > 0.0f);
    rig_down(&r);
}

/* On a generated island the point query agrees with the chunks' voxels (one density definition),
 * and the point query that comes first bakes the island itself. */
static void test_collision_agrees_on_an_island(void **state) {
    (void)state;
    Rig r;
    rig_up(&r, 0, 2);
    WorldIslandSite site;
    island_cell(&site);
    double x = (double)site.centre_x, z = (double)site.centre_z;
    /* The first query of the cell bakes it here. */
    float d = world_density_at(r.world, x, 120.0, z);
    (void)d;
    assert_int_equal(world_stats(r.world).island_sync_bakes, 1);
    int64_t ccx = (int64_t)floor(x / CHUNK_SIZE), ccz = (int64_t)floor(z / CHUNK_SIZE);
    uint32_t checked = 0, solid = 0, high = 0;
    uint64_t rng = 12345;
    for (int64_t dz = -1; dz <= 1; dz++)
        for (int64_t dx = -1; dx <= 1; dx++) {
            ChunkMesh m;
            memset(&m, 0, sizeof m);
            assert_true(world_build_chunk(r.world, ccx + dx, ccz + dz, 0.0, &m, NULL));
            int32_t h;
            const uint8_t *vox = world_debug_voxels(r.world, &h);
            for (int k = 0; k < 600; k++) {
                int vx = (int)(splitmix64_next(&rng) % CHUNK_SIZE), vz = (int)(splitmix64_next(&rng) % CHUNK_SIZE);
                int vy = 60 + (int)(splitmix64_next(&rng) % 100);
                bool s = vox[WV_INDEX(vx, vy, vz)] != WORLD_MAT_AIR && vox[WV_INDEX(vx, vy, vz)] != WORLD_MAT_CLOUD;
                double px = (double)((ccx + dx) * CHUNK_SIZE + vx) + 0.5, pz = (double)((ccz + dz) * CHUNK_SIZE + vz) + 0.5;
                bool q = world_density_at(r.world, px, vy + 0.5, pz) > 0.0f;
                if (s != q) fail_msg("voxel (%.1f, %d, %.1f): chunk %d, point query %d", px, vy, pz, s, q);
                checked++;
                solid += s;
                high += s && vy >= 100;
            }
            world_free_mesh(r.world, &m);
        }
    assert_int_equal(checked, 9 * 600);
    assert_true(high > 100);   /* the island's ground stands there, up at its sea level */
    assert_int_equal(world_stats(r.world).island_sync_bakes, 1);   /* baked once */
    rig_down(&r);
}

/* The pool holds the nearest islands: after a flight along a row of cells, the slots hold the
 * cells nearest the aircraft, the farthest having been given away. No heap call on the way. */
static void test_eviction_keeps_the_nearest(void **state) {
    (void)state;
    Rig r;
    rig_up(&r, 2, 3);
    WorldEvent ev[256];
    alloc_count_start();
    double z = 0.0;
    int64_t last = 0;
    for (int f = 0; f < 900; f++) {
        double x = 2048.0 + f * 40.0;   /* 2,400 m/s at 60 Hz: a cell every 1.7 s */
        WorldView v = view_at(x, z, f / 60.0, 2400.0f);
        world_update(r.world, &v);
        while (world_take_events(r.world, ev, 256) > 0) {
        }
        last = world_island_cell(r.world, x);
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    /* settle where we are */
    for (int f = 900; f < 1100; f++) {
        WorldView v = view_at(2048.0 + 899 * 40.0, z, f / 60.0, 0.0f);
        world_update(r.world, &v);
        while (world_take_events(r.world, ev, 256) > 0) {
        }
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    assert_int_equal(alloc_count_stop(), 0);
    WorldStats st = world_stats(r.world);
    assert_true(st.island_bakes >= 6);
    assert_true(st.island_evictions >= 3);
    /* Every held island is within a cell of the aircraft's, the aircraft's own among them. */
    uint32_t held = 0;
    bool own = false;
    for (uint32_t i = 0; i + 1 < r.world->nisl; i++) {
        const IslandSlot *s = &r.world->isl[i];
        if (s->state != ISL_READY) continue;
        held++;
        assert_true(s->cell_x >= last - 1 && s->cell_x <= last + 1);
        own |= s->cell_x == last && s->cell_z == 0;
    }
    WorldIslandSite site;
    src_site(NULL, last, 0, &site);
    assert_true(held >= 1);
    if (site.has_island) assert_true(own);
    rig_down(&r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chunks_wait_for_their_island),
        cmocka_unit_test(test_collision_agrees_on_an_island),
        cmocka_unit_test(test_eviction_keeps_the_nearest),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
