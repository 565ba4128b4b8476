/* Tests for objects (C4) in the chunk jobs: deterministic placement (a golden hash, the same on
 * every platform), objects on solid ground and only in air (the point density), no overlaps, the
 * same decision in every chunk an object touches, density following the probability map,
 * clustering (Clark-Evans), the LOD rule, meshes, no heap calls. Landmarks on the home island are
 * tested with the island pipeline in test_island_landmarks. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "core/core.h"
#include "support/alloc_count.h"
#include "world/world.h"
#include "world/world_internal.h"

static ChunkScratch g_s, g_s2;
static WorldGen g_gen;

static int setup(void **state) {
    (void)state;
    WorldParams p;
    world_params_default(&p);
    gen_init(&g_gen, &p.gen, NULL);
    return 0;
}

static void chunk(ChunkScratch *s, int32_t cx, int32_t cz, int lod) {
    if (lod < 0) gen_chunk_voxels(&g_gen, cx, cz, 0.0, s);
    else gen_chunk_voxels_lod(&g_gen, cx, cz, 0.0, lod, s);
}

static bool solid_at(int32_t x, int32_t y, int32_t z) {
    return gen_density_point(&g_gen, x + 0.5, y + 0.5, z + 0.5) > 0.0f;
}

/* Chunks over hills, islands and far away. */
static const int32_t k_chunks[][2] = {{0, 0}, {1, 0}, {-3, 2}, {5, -7}, {-12, -4}, {20, 9}, {-31, 17}, {64, -64},
                                      {-250, 333}, {1000, 77}, {-4097, -900}, {123457, -98765}, {7, 7}, {-2, -9}};
#define NCHUNKS ((int)(sizeof k_chunks / sizeof k_chunks[0]))

static uint64_t placed_hash(const ChunkScratch *s, uint64_t h) {
    for (uint32_t i = 0; i < s->props.nplaced; i++) {
        const PropPlaced *p = &s->props.placed[i];
        int32_t v[5] = {p->bx, p->by, p->bz, p->shape, p->landmark};
        h = hash_fnv1a64(v, sizeof v, h);
    }
    return h;
}

/* Same placements on x86_64 (every noise path) and under qemu-aarch64. */
static void test_golden_placements(void **state) {
    (void)state;
    uint64_t h = 0;
    uint32_t objects = 0;
    for (int lod = -1; lod <= 2; lod++)
        for (int c = 0; c < NCHUNKS; c++) {
            chunk(&g_s, k_chunks[c][0], k_chunks[c][1], lod);
            h = placed_hash(&g_s, h);
            objects += g_s.props.objects;
        }
    struct utsname u;
    uname(&u);
    printf("note: object placement hash on %s (noise path %s): %016llx, %u objects\n", u.machine, noise_simd_path(),
           (unsigned long long)h, objects);
    assert_true(objects > 100);
    assert_int_equal(h, 0x94387d17883d9ff5ull);
}

typedef struct BoxCheck {
    uint32_t blocks, bad_air, bad_ground;
    int32_t by;
    bool ground_box;
} BoxCheck;

static void check_box(void *ctx, int64_t x0, int64_t y0, int64_t z0, int64_t x1, int64_t y1, int64_t z1) {
    BoxCheck *bc = ctx;
    for (int32_t z = z0; z < z1; z++)
        for (int32_t x = x0; x < x1; x++) {
            if (y0 == bc->by && !solid_at(x, y0 - 1, z)) bc->bad_ground++;
            for (int32_t y = y0; y < y1; y++) {
                bc->blocks++;
                if (solid_at(x, y, z)) bc->bad_air++;
            }
        }
}

/* Every object stands on solid ground (the block under its base and under every box at the
 * ground is solid in THE field) and takes only air (never rock, never a cave wall). */
static void test_objects_on_ground_in_air(void **state) {
    (void)state;
    uint32_t objects = 0, blocks = 0;
    for (int c = 0; c < NCHUNKS; c++) {
        chunk(&g_s, k_chunks[c][0], k_chunks[c][1], -1);
        for (uint32_t i = 0; i < g_s.props.nplaced; i++) {
            const PropPlaced *p = &g_s.props.placed[i];
            if (p->landmark) continue;
            assert_true(solid_at(p->bx, p->by - 1, p->bz));
            assert_false(solid_at(p->bx, p->by, p->bz));
            BoxCheck bc = {0, 0, 0, p->by, false};
            gen_prop_boxes(p, 0, check_box, &bc);
            if (bc.bad_air || bc.bad_ground)
                fail_msg("object %d at (%d,%d,%d): %u of %u blocks solid, %u ground columns open", p->shape, p->bx, p->by,
                         p->bz, bc.bad_air, bc.blocks, bc.bad_ground);
            objects++;
            blocks += bc.blocks;
        }
    }
    printf("%u objects, %u blocks checked against the point density\n", objects, blocks);
    assert_true(objects > 60);
}

/* No two objects share a column (footprints are disjoint, so no block either); an object that
 * crosses a chunk border is the same object, on the same ground, in both chunks. */
typedef struct Foot { int32_t x0, z0, x1, z1; } Foot;
static void foot_box(void *ctx, int64_t x0, int64_t y0, int64_t z0, int64_t x1, int64_t y1, int64_t z1) {
    (void)y0;
    (void)y1;
    Foot *f = ctx;
    if (x0 < f->x0) f->x0 = x0;
    if (z0 < f->z0) f->z0 = z0;
    if (x1 > f->x1) f->x1 = x1;
    if (z1 > f->z1) f->z1 = z1;
}
static Foot footprint(const PropPlaced *p) {
    Foot f = {INT32_MAX, INT32_MAX, INT32_MIN, INT32_MIN};
    gen_prop_boxes(p, 0, foot_box, &f);
    return f;
}

static void test_no_overlap_and_borders_agree(void **state) {
    (void)state;
    uint32_t crossing = 0, pairs = 0;
    for (int c = 0; c < NCHUNKS; c++) {
        int32_t cx = k_chunks[c][0], cz = k_chunks[c][1];
        chunk(&g_s, cx, cz, -1);
        for (uint32_t i = 0; i < g_s.props.nplaced; i++)
            for (uint32_t j = i + 1; j < g_s.props.nplaced; j++) {
                Foot a = footprint(&g_s.props.placed[i]), b = footprint(&g_s.props.placed[j]);
                pairs++;
                if (a.x0 < b.x1 && b.x0 < a.x1 && a.z0 < b.z1 && b.z0 < a.z1)
                    fail_msg("chunk (%d,%d): objects %u and %u overlap", cx, cz, i, j);
            }
        /* The +X and +Z neighbours see the objects that cross into them, on the same ground. */
        for (int side = 0; side < 2; side++) {
            chunk(&g_s2, cx + (side == 0), cz + (side == 1), -1);
            for (uint32_t i = 0; i < g_s.props.nplaced; i++) {
                const PropPlaced *p = &g_s.props.placed[i];
                Foot f = footprint(p);
                int32_t nx0 = (cx + (side == 0)) * CHUNK_SIZE, nz0 = (cz + (side == 1)) * CHUNK_SIZE;
                bool touches = f.x1 > nx0 && f.x0 < nx0 + CHUNK_SIZE && f.z1 > nz0 && f.z0 < nz0 + CHUNK_SIZE;
                bool found = false;
                for (uint32_t j = 0; j < g_s2.props.nplaced && !found; j++) {
                    const PropPlaced *q = &g_s2.props.placed[j];
                    found = q->bx == p->bx && q->bz == p->bz && q->by == p->by && q->shape == p->shape;
                }
                if (touches != found)
                    fail_msg("object %d at (%d,%d,%d) %s chunk (%d,%d) but %s there", p->shape, p->bx, p->by, p->bz,
                             touches ? "reaches" : "does not reach", cx + (side == 0), cz + (side == 1),
                             found ? "is" : "is not");
                crossing += touches;
            }
        }
    }
    printf("%u object pairs disjoint, %u objects cross a border and agree\n", pairs, crossing);
    assert_true(crossing > 5);
}

/* Owned objects (base in the chunk) of a block of chunks at LOD 0. */
#define REGION 8
#define MAX_PTS 20000
static int32_t g_px[MAX_PTS], g_pz[MAX_PTS];

static uint32_t region_objects(int32_t cx0, int32_t cz0, int n) {
    uint32_t k = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            chunk(&g_s, cx0 + i, cz0 + j, -1);
            for (uint32_t q = 0; q < g_s.props.nplaced; q++) {
                const PropPlaced *p = &g_s.props.placed[q];
                if (!p->own || p->landmark || k >= MAX_PTS) continue;
                g_px[k] = p->bx;
                g_pz[k] = p->bz;
                k++;
            }
        }
    return k;
}

/* Clark-Evans ratio: mean nearest-neighbour distance over that of a Poisson scatter of the same
 * density (0.5 / sqrt(density)); points within `edge` of the border only as neighbours. */
static double clark_evans(const int32_t *px, const int32_t *pz, uint32_t n, double x0, double z0, double size,
                          double edge) {
    double sum = 0.0;
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (px[i] < x0 + edge || pz[i] < z0 + edge || px[i] >= x0 + size - edge || pz[i] >= z0 + size - edge) continue;
        double best = 1e30;
        for (uint32_t j = 0; j < n; j++) {
            if (j == i) continue;
            double dx = px[j] - px[i], dz = pz[j] - pz[i], d = dx * dx + dz * dz;
            if (d < best) best = d;
        }
        sum += sqrt(best);
        m++;
    }
    double density = (double)n / (size * size);
    return (sum / m) / (0.5 / sqrt(density));
}

/* Clustering: the objects' Clark-Evans ratio is clearly below 1, while a uniform scatter of as
 * many points over the same square, measured the same way, is near 1. */
static void test_clustered(void **state) {
    (void)state;
    double best_r = 0.0;
    const int32_t regions[][2] = {{0, 0}, {-40, 24}};
    for (int r = 0; r < 2; r++) {
        int32_t cx0 = regions[r][0], cz0 = regions[r][1];
        uint32_t n = region_objects(cx0, cz0, REGION);
        double size = REGION * CHUNK_SIZE;
        double ce = clark_evans(g_px, g_pz, n, (double)cx0 * CHUNK_SIZE, (double)cz0 * CHUNK_SIZE, size, 12.0);
        static int32_t ux[MAX_PTS], uz[MAX_PTS];
        Rng rng;
        rng_seed(&rng, 99, (uint64_t)r);
        for (uint32_t i = 0; i < n; i++) {
            ux[i] = cx0 * CHUNK_SIZE + (int32_t)rng_range(&rng, 0, (int32_t)size - 1);
            uz[i] = cz0 * CHUNK_SIZE + (int32_t)rng_range(&rng, 0, (int32_t)size - 1);
        }
        double cu = clark_evans(ux, uz, n, (double)cx0 * CHUNK_SIZE, (double)cz0 * CHUNK_SIZE, size, 12.0);
        /* Standard error of R for a Poisson scatter of n points: 0.5227 / sqrt(n). */
        double z = (ce - 1.0) / (0.5227 / sqrt((double)n));
        printf("region (%d,%d) %dx%d chunks: %u objects (%.1f per chunk), Clark-Evans R = %.3f (z = %.1f; uniform "
               "scatter %.3f)\n", cx0, cz0, REGION, REGION, n, (double)n / (REGION * REGION), ce, z, cu);
        assert_true(n > 200);
        assert_true(cu > 0.9 && cu < 1.1);
        assert_true(ce < 0.9 && z < -3.0);
        best_r = ce > best_r ? ce : best_r;
    }
    printf("largest Clark-Evans ratio %.3f\n", best_r);
}

/* The object density follows the probability map: over the cells of a large region, binned by
 * their acceptance probability, the share of cells holding an object rises with the probability,
 * zero-probability cells hold none, and the shares correlate with the probabilities. */
static void test_density_follows_map(void **state) {
    (void)state;
    const int32_t cx0 = 10, cz0 = -30, n = REGION;
    uint32_t k = region_objects(cx0, cz0, n);
    enum { BINS = 5 };
    uint32_t cells[BINS] = {0}, hits[BINS] = {0};
    double sp = 0, sh = 0, spp = 0, shh = 0, sph = 0;
    uint32_t ncell = 0;
    const int32_t per = n * CHUNK_SIZE / PROP_CELL;
    for (int32_t j = 0; j < per; j++)
        for (int32_t i = 0; i < per; i++) {
            int32_t ci = cx0 * (CHUNK_SIZE / PROP_CELL) + i, cj = cz0 * (CHUNK_SIZE / PROP_CELL) + j;
            PropCand c;
            uint32_t prob = gen_prop_cell(&g_gen, ci, cj, &c);
            bool hit = false;
            for (uint32_t q = 0; q < k && !hit; q++) hit = g_px[q] == c.bx && g_pz[q] == c.bz;
            /* An object stands only on an accepted candidate. */
            if (hit) assert_true(c.alive);
            int b = prob == 0 ? 0 : 1 + (int)((uint64_t)prob * (BINS - 1) / 65537u);
            cells[b]++;
            hits[b] += hit;
            double x = prob / 65536.0, y = hit;
            sp += x; sh += y; spp += x * x; shh += y * y; sph += x * y;
            ncell++;
        }
    double cov = sph / ncell - (sp / ncell) * (sh / ncell);
    double corr = cov / sqrt((spp / ncell - (sp / ncell) * (sp / ncell)) * (shh / ncell - (sh / ncell) * (sh / ncell)));
    printf("%u cells, %u objects; by probability bin (0, then quarters):", ncell, k);
    for (int b = 0; b < BINS; b++) printf(" %u/%u", hits[b], cells[b]);
    printf("; correlation %.3f\n", corr);
    assert_int_equal(hits[0], 0);
    double prev = 0.0;
    for (int b = 1; b < BINS; b++) {
        if (cells[b] < 40) continue;
        double share = (double)hits[b] / cells[b];
        assert_true(share >= prev);
        prev = share;
    }
    assert_true(corr > 0.3);
}

/* LOD rule: LOD 1 and 2 keep the objects that have a far form (trees, boulders, cacti) with
 * their far boxes, LOD 3 none; landmarks at every LOD. The 2D decisions are shared, so each
 * coarse object is an accepted candidate of the same cell. */
static void test_lod_rule(void **state) {
    (void)state;
    uint32_t per_lod[4] = {0}, boxes[4] = {0};
    for (int c = 0; c < NCHUNKS; c++)
        for (int lod = 0; lod <= 3; lod++) {
            chunk(&g_s, k_chunks[c][0], k_chunks[c][1], lod);
            per_lod[lod] += g_s.props.objects;
            boxes[lod] += g_s.props.nbox;
            for (uint32_t i = 0; i < g_s.props.nplaced; i++) {
                const PropPlaced *p = &g_s.props.placed[i];
                if (p->landmark) continue;
                assert_true(lod < 3);
                PropCand cand;
                gen_prop_cell(&g_gen, (p->bx - (p->bx & 3)) / PROP_CELL, (p->bz - (p->bz & 3)) / PROP_CELL, &cand);
                assert_true(cand.alive && cand.bx == p->bx && cand.bz == p->bz && cand.shape == p->shape);
            }
        }
    printf("objects by LOD %u %u %u %u, boxes %u %u %u %u\n", per_lod[0], per_lod[1], per_lod[2], per_lod[3], boxes[0],
           boxes[1], boxes[2], boxes[3]);
    assert_true(per_lod[1] > 0 && per_lod[1] < per_lod[0]);
    assert_true(per_lod[2] > 0);
    assert_int_equal(per_lod[3], 0);
}

/* The mesh carries the objects in its opaque part, flagged WORLD_MAT_PROP, inside the chunk's
 * columns; prop_density 0 removes exactly them. */
static void test_mesh_and_switch(void **state) {
    (void)state;
    MemBudget b;
    SkyError err = {0};
    assert_true(mem_budget_init(&b, (size_t)64 << 20, &err));
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 2;
    p.create.mesh_pool_mib = 16;
    World *w = world_create(&b, NULL, &p, NULL, &err);
    assert_non_null(w);
    uint32_t prop_verts = 0, terrain_verts = 0, with_props = 0, without = 0;
    for (int c = 0; c < 6; c++) {
        ChunkMesh m;
        assert_true(world_build_chunk(w, k_chunks[c][0], k_chunks[c][1], 0.0, &m, NULL));
        for (uint32_t i = 0; i < m.opaque_parts; i++)
            for (uint32_t v = 0; v < m.parts[i].vert_count; v++) {
                const WorldVertex *q = &m.parts[i].verts[v];
                if ((q->flags >> 2) == WORLD_MAT_PROP) {
                    prop_verts++;
                    assert_true(q->x >= 0 && q->x <= CHUNK_SIZE && q->z >= 0 && q->z <= CHUNK_SIZE);
                    assert_int_equal(q->a, 255);
                } else {
                    terrain_verts++;
                }
            }
        for (uint32_t i = 0; i < m.cloud_parts; i++)
            for (uint32_t v = 0; v < m.parts[m.opaque_parts + i].vert_count; v++)
                assert_int_not_equal(m.parts[m.opaque_parts + i].verts[v].flags >> 2, WORLD_MAT_PROP);
        with_props += m.opaque_parts;
        world_free_mesh(w, &m);
    }
    WorldParams off = p;
    off.gen.prop_density = 0.0f;
    world_set_params(w, &off);
    uint32_t terrain_off = 0;
    for (int c = 0; c < 6; c++) {
        ChunkMesh m;
        assert_true(world_build_chunk(w, k_chunks[c][0], k_chunks[c][1], 0.0, &m, NULL));
        for (uint32_t i = 0; i < m.opaque_parts; i++) {
            terrain_off += m.parts[i].vert_count;
            for (uint32_t v = 0; v < m.parts[i].vert_count; v++)
                assert_int_not_equal(m.parts[i].verts[v].flags >> 2, WORLD_MAT_PROP);
        }
        without += m.opaque_parts;
        world_free_mesh(w, &m);
    }
    printf("6 chunks: %u terrain + %u object vertices (%.1f%%); opaque parts %u with objects, %u without\n", terrain_verts,
           prop_verts, 100.0 * prop_verts / terrain_verts, with_props, without);
    assert_true(prop_verts > 0);
    assert_int_equal(terrain_off, terrain_verts);
    world_destroy(w);
    mem_budget_release(&b);
}

/* M3: placing and meshing objects takes no heap call. */
static void test_no_heap(void **state) {
    (void)state;
    uint32_t objects = 0;
    alloc_count_start();
    for (int i = 0; i < 60; i++) {
        chunk(&g_s, (i % 10) - 5, (i / 10) - 3, i % 3);
        objects += g_s.props.objects;
    }
    uint64_t allocs = alloc_count_stop();
    printf("60 chunks, %u objects, %llu heap calls\n", objects, (unsigned long long)allocs);
    assert_true(objects > 0);
    assert_int_equal(allocs, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_placements),
        cmocka_unit_test(test_objects_on_ground_in_air),
        cmocka_unit_test(test_no_overlap_and_borders_agree),
        cmocka_unit_test(test_clustered),
        cmocka_unit_test(test_density_follows_map),
        cmocka_unit_test(test_lod_rule),
        cmocka_unit_test(test_mesh_and_switch),
        cmocka_unit_test(test_no_heap),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
