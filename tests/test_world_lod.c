/* Tests for world level of detail: coarse voxels follow the documented sampling of the field,
 * LOD meshes and their scale, seams between LODs leave no hole, LOD selection and the anchor's
 * hysteresis, golden hashes of LOD meshes, no heap while building them, pool sizing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "core/core.h"
#include "support/alloc_count.h"
#include "support/emulated.h"
#include "support/home_world.h"
#include "world/world.h"
#include "world/world_internal.h"

static TestWorld g_tw;
static World *g_world;

static int setup(void **state) {
    (void)state;
    SkyError err = {0};
    world_params_default(&g_tw.params);
    g_tw.params.live.view_radius = 3;
    g_tw.params.create.mesh_pool_mib = 24;
    if (!test_world_open(&g_tw, 64, NULL, NULL, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    g_world = g_tw.world;
    return 0;
}

static int teardown(void **state) {
    (void)state;
    test_world_close(&g_tw);
    return 0;
}

static bool is_solid_code(uint8_t c) { return c >= WORLD_MAT_ABYSS; }
static uint8_t vox_at(const uint8_t *v, int x, int y, int z) { return v[WV_INDEX(x, y, z)]; }

static const int32_t k_chunks[][2] = {{0, 0}, {1, 0}, {-3, 2}, {5, -7}, {20, 9}, {-31, 17},
                                      {64, -64}, {-250, 333}, {1000, 77}, {123457, -98765}};
#define NCHUNKS ((int)(sizeof k_chunks / sizeof k_chunks[0]))

static void build_lod(int32_t cx, int32_t cz, int lod, double t, ChunkMesh *m) {
    WorldBuildTiming tm;
    assert_true(world_build_chunk_lod(g_world, cx, cz, lod, t, m, &tm));
    assert_int_equal(m->lod, (uint32_t)lod);
}

/* ---------------------------------------------------------------- sampling */
/* Coarse voxel (X, Y, Z) at LOD n is solid exactly where the field is > 0 at the centre of block
 * (s*X + s/2, s*Y + s/2, s*Z + s/2), and is that block's LOD-0 voxel; clouds likewise. */
static void test_coarse_voxels_follow_the_sampling(void **state) {
    (void)state;
    static uint8_t fine[WV_H * WV_LAYER];
    Rng r;
    rng_seed(&r, 21, 1);
    uint32_t checked = 0, solid = 0, clouds = 0, vs_fine = 0;
    for (int c = 0; c < NCHUNKS; c++) {
        int32_t cx = k_chunks[c][0], cz = k_chunks[c][1];
        double t = 2.5 * c;
        ChunkMesh m;
        build_lod(cx, cz, 0, t, &m);
        memcpy(fine, world_debug_voxels(g_world, NULL), sizeof fine);
        world_free_mesh(g_world, &m);
        for (int lod = 1; lod <= WORLD_LOD_MAX; lod++) {
            int s = WORLD_LOD_SCALE(lod), o = WORLD_LOD_OFFSET(lod), n = CHUNK_SIZE / s, ny = WORLD_Y_MAX / s;
            build_lod(cx, cz, lod, t, &m);
            int32_t h;
            const uint8_t *v = world_debug_voxels(g_world, &h);
            assert_int_equal(h, ny + 2);
            for (int i = 0; i < 400; i++) {
                int X = rng_range(&r, -1, n), Z = rng_range(&r, -1, n), Y = rng_range(&r, 0, ny - 1);
                int bx = s * X + o, by = s * Y + o, bz = s * Z + o;
                double wx = (double)cx * CHUNK_SIZE + bx + 0.5, wy = WORLD_Y_MIN + by + 0.5, wz = (double)cz * CHUNK_SIZE + bz + 0.5;
                uint8_t code = vox_at(v, X, WORLD_Y_MIN + Y, Z);
                bool want = world_density_at(g_world, wx, wy, wz) > 0.0f;
                if (is_solid_code(code) != want)
                    fail_msg("chunk (%d,%d) lod %d voxel (%d,%d,%d): %s, field at block (%d,%d,%d) %s", cx, cz, lod, X, Y, Z,
                             is_solid_code(code) ? "solid" : "air", bx, by, bz, want ? "solid" : "air");
                bool cl = world_cloud_at_params(&world_params(g_world)->gen, t, wx, wy, wz);
                assert_int_equal(code == WORLD_MAT_CLOUD, cl);
                if (bx >= -1 && bx <= CHUNK_SIZE && bz >= -1 && bz <= CHUNK_SIZE) {
                    uint8_t f = vox_at(fine, bx, WORLD_Y_MIN + by, bz);
                    assert_int_equal(is_solid_code(f), is_solid_code(code));
                    assert_int_equal(f == WORLD_MAT_CLOUD, code == WORLD_MAT_CLOUD);
                    vs_fine++;
                }
                checked++;
                solid += want;
                clouds += cl;
            }
            world_free_mesh(g_world, &m);
        }
    }
    printf("coarse voxels checked %u (%u against LOD-0 voxels): %u solid, %u cloud\n", checked, vs_fine, solid, clouds);
    assert_true(solid > checked / 10 && solid < checked * 9 / 10);
    assert_true(clouds > 10 && vs_fine > checked / 2);
}

/* ---------------------------------------------------------------- meshes */
/* Objects and landmarks are boxes in blocks at every LOD, not coarse voxels (test_world_props). */
static bool is_object(const WorldVertex *q) {
    return (q->flags >> 2) == WORLD_MAT_PROP || (q->flags >> 2) == WORLD_MAT_LANDMARK;
}

/* A LOD-n mesh: s x s faces on the coarse grid, wound outward, in block units, smaller (object
 * faces: flat, inside the chunk's columns, on block corners). */
static void test_lod_meshes_are_coarse(void **state) {
    (void)state;
    uint64_t verts[WORLD_LOD_MAX + 1] = {0};
    for (int c = 0; c < NCHUNKS; c++)
        for (int lod = 0; lod <= WORLD_LOD_MAX; lod++) {
            ChunkMesh m;
            build_lod(k_chunks[c][0], k_chunks[c][1], lod, 0.0, &m);
            int s = WORLD_LOD_SCALE(lod);
            for (uint32_t i = 0; i < m.opaque_parts + m.cloud_parts; i++)
                for (uint32_t k = 0; k < m.parts[i].vert_count; k += 4) {
                    const WorldVertex *q = &m.parts[i].verts[k];
                    int mn[3] = {q[0].x, q[0].y, q[0].z}, mx[3] = {q[0].x, q[0].y, q[0].z};
                    bool obj = is_object(q);
                    if (obj) assert_true(i < m.opaque_parts);
                    for (int a = 0; a < 4; a++) {
                        int p[3] = {q[a].x, q[a].y - WORLD_Y_MIN, q[a].z};
                        for (int d = 0; d < 3 && !obj; d++) assert_int_equal(p[d] % s, 0);
                        assert_true(q[a].x >= 0 && q[a].x <= CHUNK_SIZE && q[a].z >= 0 && q[a].z <= CHUNK_SIZE);
                        assert_true(q[a].y >= WORLD_Y_MIN && q[a].y <= WORLD_Y_MAX);
                        assert_int_equal(q[a].normal, q[0].normal);
                        int pv[3] = {q[a].x, q[a].y, q[a].z};
                        for (int d = 0; d < 3; d++) {
                            if (pv[d] < mn[d]) mn[d] = pv[d];
                            if (pv[d] > mx[d]) mx[d] = pv[d];
                        }
                    }
                    int axis = q[0].normal / 2;   /* 0 x, 1 y, 2 z */
                    assert_int_equal(mx[axis] - mn[axis], 0);
                    if (i < m.opaque_parts && !obj)   /* opaque faces are one voxel; cloud faces merged */
                        for (int d = 0; d < 3; d++)
                            if (d != axis) assert_int_equal(mx[d] - mn[d], s);
                    int ax = q[1].x - q[0].x, ay = q[1].y - q[0].y, az = q[1].z - q[0].z;
                    int bx = q[2].x - q[0].x, by = q[2].y - q[0].y, bz = q[2].z - q[0].z;
                    int nrm[3] = {ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx};
                    static const int want[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
                    for (int d = 0; d < 3; d++) {
                        int wv = want[q[0].normal][d];
                        assert_true(wv == 0 ? nrm[d] == 0 : nrm[d] * wv > 0);
                    }
                    verts[lod] += 4;
                }
            world_free_mesh(g_world, &m);
        }
    printf("vertices per chunk by LOD: %.0f %.0f %.0f %.0f\n", verts[0] / (double)NCHUNKS, verts[1] / (double)NCHUNKS,
           verts[2] / (double)NCHUNKS, verts[3] / (double)NCHUNKS);
    for (int lod = 1; lod <= WORLD_LOD_MAX; lod++) assert_true(verts[lod] * 2 < verts[lod - 1]);
}

typedef struct Quad { WorldVertex v[4]; } Quad;
static int cmp_quad(const void *a, const void *b) { return memcmp(a, b, sizeof(Quad)); }

static uint32_t collect_quads(const ChunkMesh *m, Quad *out, uint32_t cap, bool clouds) {
    uint32_t n = 0;
    uint32_t a = clouds ? m->opaque_parts : 0, b = clouds ? m->opaque_parts + m->cloud_parts : m->opaque_parts;
    for (uint32_t i = a; i < b; i++)
        for (uint32_t k = 0; k + 3 < m->parts[i].vert_count && n < cap; k += 4) memcpy(&out[n++], &m->parts[i].verts[k], sizeof(Quad));
    return n;
}

static bool outward_border_face(const Quad *q) {
    const WorldVertex *v = &q->v[0];
    return (v->normal == WORLD_NORMAL_NX && v->x == 0) || (v->normal == WORLD_NORMAL_PX && v->x == CHUNK_SIZE) ||
           (v->normal == WORLD_NORMAL_NZ && v->z == 0) || (v->normal == WORLD_NORMAL_PZ && v->z == CHUNK_SIZE);
}

/* The streamer's LOD-0 mesh is world_build_chunk's (same voxels, every quad) plus outward faces
 * on the chunk border only; the clouds are identical. */
static void test_lod0_adds_border_faces_only(void **state) {
    (void)state;
    enum { CAP = 40000 };
    static Quad qa[CAP], qb[CAP];
    static uint8_t va[WV_H * WV_LAYER];
    uint32_t extra_total = 0;
    for (int c = 0; c < NCHUNKS; c += 2) {
        ChunkMesh a, b;
        WorldBuildTiming tm;
        assert_true(world_build_chunk(g_world, k_chunks[c][0], k_chunks[c][1], 1.0, &a, &tm));
        memcpy(va, world_debug_voxels(g_world, NULL), sizeof va);
        build_lod(k_chunks[c][0], k_chunks[c][1], 0, 1.0, &b);
        assert_memory_equal(va, world_debug_voxels(g_world, NULL), sizeof va);
        for (int clouds = 0; clouds < 2; clouds++) {
            uint32_t na = collect_quads(&a, qa, CAP, clouds), nb = collect_quads(&b, qb, CAP, clouds);
            assert_true(na < CAP && nb < CAP);
            if (clouds) {
                assert_int_equal(na, nb);
                assert_memory_equal(qa, qb, na * sizeof(Quad));
                continue;
            }
            qsort(qa, na, sizeof(Quad), cmp_quad);
            qsort(qb, nb, sizeof(Quad), cmp_quad);
            uint32_t i = 0, extra = 0;
            for (uint32_t j = 0; j < nb; j++) {
                if (i < na && cmp_quad(&qa[i], &qb[j]) == 0) { i++; continue; }
                assert_true(outward_border_face(&qb[j]));
                extra++;
            }
            assert_int_equal(i, na);   /* every classic quad is there */
            extra_total += extra;
        }
        world_free_mesh(g_world, &a);
        world_free_mesh(g_world, &b);
    }
    printf("LOD-0 seam faces over %d chunks: %u\n", (NCHUNKS + 1) / 2, extra_total);
    assert_true(extra_total > 0);
}

/* Seen from straight above, no column of any LOD mesh is open: the world is solid below
 * WORLD_Y_MIN, so every column has a top face (coarse samples can miss a thin floor). 144 chunks
 * at every LOD natively; under emulation (some 700 builds there take most of a minute) every
 * other one of them, a checkerboard over the same spread. */
static void test_every_column_has_a_top(void **state) {
    (void)state;
    static uint8_t cov[CHUNK_SIZE][CHUNK_SIZE];
    uint32_t floor_faces = 0, chunks = 0;
    const bool emulated = test_running_emulated();
    for (int cz = -6; cz < 6; cz++)
        for (int cx = -6; cx < 6; cx++)
            for (int lod = 0; lod <= WORLD_LOD_MAX && !(emulated && ((cx ^ cz) & 1)); lod++) {
                ChunkMesh m;
                build_lod(cx * 7 + 3, cz * 5 - 1, lod, 0.0, &m);
                memset(cov, 0, sizeof cov);
                for (uint32_t i = 0; i < m.opaque_parts; i++)
                    for (uint32_t k = 0; k < m.parts[i].vert_count; k += 4) {
                        const WorldVertex *q = &m.parts[i].verts[k];
                        if (q->normal != WORLD_NORMAL_PY) continue;
                        floor_faces += q->y == WORLD_Y_MIN;
                        int x0 = q[0].x, x1 = q[0].x, z0 = q[0].z, z1 = q[0].z;
                        for (int a = 1; a < 4; a++) {
                            if (q[a].x < x0) x0 = q[a].x;
                            if (q[a].x > x1) x1 = q[a].x;
                            if (q[a].z < z0) z0 = q[a].z;
                            if (q[a].z > z1) z1 = q[a].z;
                        }
                        for (int z = z0; z < z1; z++)
                            for (int x = x0; x < x1; x++) cov[z][x] = 1;
                    }
                for (int z = 0; z < CHUNK_SIZE; z++)
                    for (int x = 0; x < CHUNK_SIZE; x++)
                        if (!cov[z][x]) fail_msg("chunk (%d,%d) lod %d: column (%d,%d) has no top face", cx * 7 + 3, cz * 5 - 1, lod, x, z);
                world_free_mesh(g_world, &m);
                chunks++;
            }
    printf("%u chunk meshes covered from above; %u floor faces close thin coarse floors\n", chunks, floor_faces);
    assert_true(floor_faces > 0);
}

/* ---------------------------------------------------------------- seams */
/* Coverage of one chunk's faces on a border plane, on the block grid [y][t]. */
static void plane_cover(const ChunkMesh *m, int normal, int plane, bool along_x, uint8_t *cover, uint8_t bit) {
    for (uint32_t p = 0; p < m->opaque_parts; p++)
        for (uint32_t k = 0; k + 3 < m->parts[p].vert_count; k += 4) {
            const WorldVertex *q = &m->parts[p].verts[k];
            if (q->normal != normal || is_object(q)) continue;
            if ((along_x ? q->x : q->z) != plane) continue;
            int y0 = q[0].y, y1 = q[0].y, t0 = along_x ? q[0].z : q[0].x, t1 = t0;
            for (int i = 1; i < 4; i++) {
                int t = along_x ? q[i].z : q[i].x;
                if (q[i].y < y0) y0 = q[i].y;
                if (q[i].y > y1) y1 = q[i].y;
                if (t < t0) t0 = t;
                if (t > t1) t1 = t;
            }
            for (int y = y0; y < y1; y++)
                for (int t = t0; t < t1; t++) cover[(y - WORLD_Y_MIN) * CHUNK_SIZE + t] |= bit;
        }
}

/* Is the chunk solid at block (y, t) of its border column on the shared plane? */
static bool side_solid(const uint8_t *v, int lod, bool plus_side, bool along_x, int y, int t) {
    int s = WORLD_LOD_SCALE(lod), n = CHUNK_SIZE / s;
    int c = plus_side ? n - 1 : 0, Y = (y - WORLD_Y_MIN) / s, T = t / s;
    return is_solid_code(along_x ? vox_at(v, c, WORLD_Y_MIN + Y, T) : vox_at(v, T, WORLD_Y_MIN + Y, c));
}

static bool side_top(const uint8_t *v, int lod, bool plus_side, bool along_x, int y, int t) {
    int s = WORLD_LOD_SCALE(lod), n = CHUNK_SIZE / s, ny = WORLD_Y_MAX / s;
    int c = plus_side ? n - 1 : 0, Y = (y - WORLD_Y_MIN) / s, T = t / s;
    if (Y + 1 >= ny) return true;
    return !is_solid_code(along_x ? vox_at(v, c, WORLD_Y_MIN + Y + 1, T) : vox_at(v, T, WORLD_Y_MIN + Y + 1, c));
}

/* Two neighbours at LODs differing by at most one: wherever exactly one side is solid on their
 * shared plane, that side has a face there (no view through to the sky), and under every
 * top surface at the border each side keeps its face (it fills the T-junction gaps between
 * voxel sizes). Faces on the plane belong to solid voxels only. */
static void test_seams_leave_no_hole(void **state) {
    (void)state;
    static uint8_t va[WV_H * WV_LAYER], vb[WV_H * WV_LAYER];
    static uint8_t cover[(WORLD_Y_MAX - WORLD_Y_MIN) * CHUNK_SIZE];
    static const int pairs[][4] = {{0, 0, 1, 0}, {5, -7, 5, -6}, {20, 9, 21, 9}, {-250, 333, -250, 334}, {1000, 77, 1001, 77}};
    static const int lods[][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {1, 2}, {2, 1}, {2, 2}, {2, 3}, {3, 2}, {3, 3}};
    uint64_t open_cells = 0, hidden_faces = 0, checked = 0;
    for (size_t pi = 0; pi < sizeof pairs / sizeof pairs[0]; pi++)
        for (size_t li = 0; li < sizeof lods / sizeof lods[0]; li++) {
            bool along_x = pairs[pi][0] != pairs[pi][2];
            int la = lods[li][0], lb = lods[li][1];
            ChunkMesh ma, mb;
            build_lod(pairs[pi][0], pairs[pi][1], la, 0.0, &ma);
            memcpy(va, world_debug_voxels(g_world, NULL), sizeof va);
            build_lod(pairs[pi][2], pairs[pi][3], lb, 0.0, &mb);
            memcpy(vb, world_debug_voxels(g_world, NULL), sizeof vb);
            memset(cover, 0, sizeof cover);
            plane_cover(&ma, along_x ? WORLD_NORMAL_PX : WORLD_NORMAL_PZ, CHUNK_SIZE, along_x, cover, 1);
            plane_cover(&mb, along_x ? WORLD_NORMAL_NX : WORLD_NORMAL_NZ, 0, along_x, cover, 2);
            for (int y = WORLD_Y_MIN; y < WORLD_Y_MAX; y++)
                for (int t = 0; t < CHUNK_SIZE; t++) {
                    bool sa = side_solid(va, la, true, along_x, y, t), sb = side_solid(vb, lb, false, along_x, y, t);
                    uint8_t cv = cover[(y - WORLD_Y_MIN) * CHUNK_SIZE + t];
                    if (sa && !sb && !(cv & 1))
                        fail_msg("pair %zu lods %d|%d: hole at y %d t %d (A solid, no face)", pi, la, lb, y, t);
                    if (sb && !sa && !(cv & 2))
                        fail_msg("pair %zu lods %d|%d: hole at y %d t %d (B solid, no face)", pi, la, lb, y, t);
                    if ((cv & 1) && !sa) fail_msg("pair %zu lods %d|%d: A face over air at y %d t %d", pi, la, lb, y, t);
                    if ((cv & 2) && !sb) fail_msg("pair %zu lods %d|%d: B face over air at y %d t %d", pi, la, lb, y, t);
                    if (sa && side_top(va, la, true, along_x, y, t)) assert_true(cv & 1);
                    if (sb && side_top(vb, lb, false, along_x, y, t)) assert_true(cv & 2);
                    open_cells += sa != sb;
                    hidden_faces += sa && sb && cv;
                    checked++;
                }
            world_free_mesh(g_world, &ma);
            world_free_mesh(g_world, &mb);
        }
    printf("seam cells %llu: %llu with one side solid (all faced), %llu faces hidden between solids\n",
           (unsigned long long)checked, (unsigned long long)open_cells, (unsigned long long)hidden_faces);
    assert_true(open_cells > 1000);
}

/* ---------------------------------------------------------------- selection */
static void test_lod_by_distance(void **state) {
    (void)state;
    WorldParams p;
    world_params_default(&p);
    /* Defaults: 1.2, 3, 6 chunks. */
    assert_int_equal(world_lod_for_offset(&p.live, 0, 0), 0);
    assert_int_equal(world_lod_for_offset(&p.live, 1, 0), 0);
    assert_int_equal(world_lod_for_offset(&p.live, 0, -1), 0);
    assert_int_equal(world_lod_for_offset(&p.live, 1, 1), 1);
    assert_int_equal(world_lod_for_offset(&p.live, 2, 2), 1);
    assert_int_equal(world_lod_for_offset(&p.live, 3, 0), 2);
    assert_int_equal(world_lod_for_offset(&p.live, -4, 4), 2);
    assert_int_equal(world_lod_for_offset(&p.live, 0, 6), 3);
    assert_int_equal(world_lod_for_offset(&p.live, 10, -3), 3);
    /* Any thresholds: never finer farther out, and face neighbours at most one LOD apart
     * (thresholds closer than a chunk are pulled apart). */
    const float sets[][3] = {{1.2f, 3.0f, 6.0f}, {2.0f, 4.0f, 8.0f}, {2.0f, 2.5f, 2.7f}, {0.5f, 0.6f, 0.7f}, {3.0f, 0.0f, 9.0f}};
    for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
        memcpy(p.live.lod_dist, sets[k], sizeof sets[k]);
        for (int dz = -14; dz <= 14; dz++)
            for (int dx = -14; dx <= 14; dx++) {
                int l = world_lod_for_offset(&p.live, dx, dz);
                assert_true(l >= 0 && l <= WORLD_LOD_MAX);
                if (k == 4) assert_true(l <= 1);   /* a 0 ends the list */
                int nx = world_lod_for_offset(&p.live, dx + 1, dz), nz = world_lod_for_offset(&p.live, dx, dz + 1);
                assert_true(abs(l - nx) <= 1 && abs(l - nz) <= 1);
                if (dx >= 0) assert_true(nx >= l);
                if (dz >= 0) assert_true(nz >= l);
            }
    }
    memset(p.live.lod_dist, 0, sizeof p.live.lod_dist);
    assert_int_equal(world_lod_for_offset(&p.live, 9, 9), 0);   /* LOD off */
}

static WorldView view_at(double x, double z) {
    WorldView v;
    memset(&v, 0, sizeof v);
    v.x = x;
    v.y = 100.0;
    v.z = z;
    v.dir_x = 1.0f;
    v.fov_y_rad = 1.1f;
    v.aspect = 1.5f;
    return v;
}

/* The anchor follows the camera's chunk with lod_hysteresis chunks of slack: a camera going
 * back and forth across a chunk border moves it once, not on every crossing. */
static void test_anchor_hysteresis(void **state) {
    (void)state;
    const double h = world_params(g_world)->live.lod_hysteresis * CHUNK_SIZE;   /* blocks */
    assert_true(h > 4.0);
    int64_t ax, az;
    WorldView v = view_at(16.0, 16.0);
    world_update(g_world, &v);
    world_lod_anchor(g_world, &ax, &az);
    assert_int_equal(ax, 0);
    assert_int_equal(az, 0);
    v = view_at(CHUNK_SIZE + h - 1.0, 16.0);   /* in chunk 1, within the slack */
    world_update(g_world, &v);
    world_lod_anchor(g_world, &ax, &az);
    assert_int_equal(ax, 0);
    v = view_at(CHUNK_SIZE + h + 1.0, 16.0);   /* past it */
    world_update(g_world, &v);
    world_lod_anchor(g_world, &ax, &az);
    assert_int_equal(ax, 1);
    v = view_at(CHUNK_SIZE - h + 1.0, -h + 1.0);   /* back into chunk 0, within the slack; z too */
    world_update(g_world, &v);
    world_lod_anchor(g_world, &ax, &az);
    assert_int_equal(ax, 1);
    assert_int_equal(az, 0);
    uint32_t moves = 0;
    int32_t last = ax;
    for (int i = 0; i < 200; i++) {   /* wobbling on the border */
        v = view_at(CHUNK_SIZE + ((i & 1) ? 1.0 : -1.0) * (h - 1.0) * (i % 7) / 6.0, 16.0);
        world_update(g_world, &v);
        world_lod_anchor(g_world, &ax, &az);
        moves += ax != last;
        last = ax;
    }
    assert_int_equal(moves, 0);
    v = view_at(-h - 1.0, 16.0);
    world_update(g_world, &v);
    world_lod_anchor(g_world, &ax, &az);
    assert_int_equal(ax, -1);
    WorldStats s = world_stats(g_world);
    assert_int_equal(s.lod_anchor_x, -1);
}

/* ---------------------------------------------------------------- golden, heap, memory */
static uint64_t mesh_hash(const ChunkMesh *m, uint64_t h) {
    for (uint32_t i = 0; i < m->opaque_parts + m->cloud_parts; i++)
        h = hash_fnv1a64(m->parts[i].verts, m->parts[i].vert_count * sizeof(WorldVertex), h);
    return h;
}

/* Same bits on every platform and SIMD path, at every LOD. */
static void test_golden_lod_chunks(void **state) {
    (void)state;
    uint64_t h = 0;
    for (int c = 0; c < NCHUNKS; c += 3)
        for (int lod = 0; lod <= WORLD_LOD_MAX; lod++) {
            ChunkMesh m;
            build_lod(k_chunks[c][0], k_chunks[c][1], lod, 21.5, &m);
            h = mesh_hash(&m, h);
            h = hash_fnv1a64(world_debug_voxels(g_world, NULL), WV_H * WV_LAYER, h);
            world_free_mesh(g_world, &m);
        }
    struct utsname u;
    uname(&u);
    printf("world LOD golden on %s (noise path %s): %016llx\n", u.machine, noise_simd_path(), (unsigned long long)h);
    /* The hash covers the meshes' colours (16-bit AO steps) and their clouds (world_cloud_drift):
     * either moves it. */
    /* (0x689e4f1e70aad6ad before the pools in caves: their water at LOD 0) */
    assert_int_equal(h, 0x097c5cae8c600944ull);
}

/* M3: building LOD chunks calls malloc zero times. */
static void test_no_heap_building_lods(void **state) {
    (void)state;
    uint64_t verts = 0;
    alloc_count_start();
    for (int i = 0; i < 400; i++) {
        ChunkMesh m;
        WorldBuildTiming t;
        world_build_chunk_lod(g_world, (i % 20) - 10, (i / 20) - 10, i & 3, (double)i * 0.1, &m, &t);
        verts += t.opaque_verts + t.cloud_verts;
        world_free_mesh(g_world, &m);
    }
    uint64_t allocs = alloc_count_stop();
    printf("400 LOD chunks, %llu vertices, %llu heap calls\n", (unsigned long long)verts, (unsigned long long)allocs);
    assert_int_equal(allocs, 0);
    assert_true(verts > 100000);
}

/* M3: the mesh pool is sized by the view radius and the LOD mix: far less than every chunk at
 * LOD 0, and it grows with the radius. */
static void test_pool_sized_by_lod_mix(void **state) {
    (void)state;
    uint32_t cap[3];
    for (int k = 0; k < 3; k++) {
        MemBudget b;
        SkyError err = {0};
        assert_true(mem_budget_init(&b, (size_t)400 << 20, &err));
        WorldParams p;
        world_params_default(&p);
        p.live.view_radius = k == 2 ? 10 : 6 + 4 * k;
        if (k == 2) memset(p.live.lod_dist, 0, sizeof p.live.lod_dist);   /* LOD off */
        World *w = world_create(&b, NULL, &p, NULL, &err);
        assert_non_null(w);
        WorldStats s = world_stats(w);
        cap[k] = s.slabs_capacity;
        printf("radius %d, LOD %s: %u slabs (%.1f MiB), world carved %.1f MiB\n", p.live.view_radius, k == 2 ? "off" : "on",
               s.slabs_capacity, s.slabs_capacity * 24.0 / 1024.0, (double)s.bytes_carved / 1048576.0);
        world_destroy(w);
        mem_budget_release(&b);
    }
    assert_true(cap[0] < cap[1]);
    assert_true(cap[1] * 4 < cap[2]);
    assert_true(cap[1] * sizeof(WorldVertex) * WORLD_SLAB_VERTS < ((size_t)32 << 20));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coarse_voxels_follow_the_sampling),
        cmocka_unit_test(test_lod_meshes_are_coarse),
        cmocka_unit_test(test_lod0_adds_border_faces_only),
        cmocka_unit_test(test_every_column_has_a_top),
        cmocka_unit_test(test_seams_leave_no_hole),
        cmocka_unit_test(test_lod_by_distance),
        cmocka_unit_test(test_anchor_hysteresis),
        cmocka_unit_test(test_golden_lod_chunks),
        cmocka_unit_test(test_no_heap_building_lods),
        cmocka_unit_test(test_pool_sized_by_lod_mix),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
