/* Tests for the world field and meshes: voxels equal the point density, borders, floor, clouds,
 * mesh format and limits, colour, home island, golden hashes, no heap after init. */
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
#include "support/home_world.h"
#include "world/world.h"
#include "world/world_internal.h"

typedef TestWorld Fixture;

static Fixture g_fx;

static int setup(void **state) {
    SkyError err = {0};
    world_params_default(&g_fx.params);
    g_fx.params.live.view_radius = 3;
    g_fx.params.create.mesh_pool_mib = 24;
    if (!test_world_open(&g_fx, 96, NULL, NULL, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    *state = &g_fx;
    return 0;
}

static int teardown(void **state) {
    (void)state;
    test_world_close(&g_fx);
    return 0;
}

static uint8_t vox_at(const uint8_t *v, int x, int y, int z) { return v[WV_INDEX(x, y, z)]; }
static bool is_solid_code(uint8_t c) { return c >= WORLD_MAT_ABYSS; }

/* Chunks spread over terrain of every kind, including far from the origin. */
static const int32_t k_chunks[][2] = {{0, 0},   {1, 0},     {-3, 2},     {5, -7},     {-12, -4},   {20, 9},
                                      {-31, 17}, {64, -64}, {-250, 333}, {1000, 77}, {-4097, -900}, {123457, -98765}};
#define NCHUNKS ((int)(sizeof k_chunks / sizeof k_chunks[0]))

static void build(World *w, int32_t cx, int32_t cz, double t, ChunkMesh *m) {
    WorldBuildTiming tm;
    assert_true(world_build_chunk(w, cx, cz, t, m, &tm));
}

/* Every voxel's solidity equals density > 0 at its centre (and clouds equal the cloud query). */
static void test_voxels_match_point_density(void **state) {
    Fixture *fx = *state;
    Rng r;
    rng_seed(&r, 7, 1);
    uint32_t checked = 0, solid = 0, clouds = 0;
    for (int c = 0; c < NCHUNKS; c++) {
        ChunkMesh m;
        double t = 3.25 * c;
        build(fx->world, k_chunks[c][0], k_chunks[c][1], t, &m);
        int32_t h;
        const uint8_t *v = world_debug_voxels(fx->world, &h);
        assert_int_equal(h, WORLD_Y_MAX - WORLD_Y_MIN + 2);
        for (int i = 0; i < 1000; i++) {
            int x = rng_range(&r, -1, CHUNK_SIZE), z = rng_range(&r, -1, CHUNK_SIZE);
            /* Half the samples near surfaces: the bands where rock and air meet. */
            int y = (i & 1) ? rng_range(&r, WORLD_Y_MIN, WORLD_Y_MAX - 1) : rng_range(&r, 0, 140);
            double wx = (double)k_chunks[c][0] * CHUNK_SIZE + x + 0.5, wy = y + 0.5,
                   wz = (double)k_chunks[c][1] * CHUNK_SIZE + z + 0.5;
            uint8_t code = vox_at(v, x, y, z);
            bool want = world_density_at(fx->world, wx, wy, wz) > 0.0f;
            if (is_solid_code(code) != want)
                fail_msg("chunk (%d,%d) voxel (%d,%d,%d): voxel %s, density %s", k_chunks[c][0], k_chunks[c][1], x, y, z,
                         is_solid_code(code) ? "solid" : "air", want ? "solid" : "air");
            bool cl = world_cloud_at_params(&world_params(fx->world)->gen, t, wx, wy, wz);
            if ((code == WORLD_MAT_CLOUD) != cl)
                fail_msg("chunk (%d,%d) voxel (%d,%d,%d): cloud voxel %d, cloud query %d", k_chunks[c][0], k_chunks[c][1], x,
                         y, z, code == WORLD_MAT_CLOUD, cl);
            checked++;
            solid += want;
            clouds += cl;
        }
        world_free_mesh(fx->world, &m);
    }
    printf("voxels checked %u: %u solid, %u cloud\n", checked, solid, clouds);
    assert_true(solid > checked / 10 && solid < checked * 9 / 10);
    assert_true(clouds > 0);
}

/* The coarse corners from batched rows equal the scalar noise calls bit for bit. */
static void test_rows_equal_scalar_corners(void **state) {
    (void)state;
    static ChunkScratch s;
    WorldGen g;
    WorldParams p;
    world_params_default(&p);
    p.gen.cave_modes = WORLD_CAVES_TUBES | WORLD_CAVES_CHEESE | WORLD_CAVES_WORMS | WORLD_CAVES_ROUGH;
    gen_init(&g, &p.gen, NULL);
    assert_int_equal(g.ncave_fields, 5);
    uint32_t compared = 0;
    for (int c = 0; c < 4; c++) {
        int32_t cx = k_chunks[c * 3][0], cz = k_chunks[c * 3][1];
        gen_chunk_corners(&g, cx, cz, 0.0, WG_NX0, false, &s);   /* every corner (not lazy) */
        int32_t X0 = cx * CHUNK_SIZE - WORLD_CELL_XZ, Z0 = cz * CHUNK_SIZE - WORLD_CELL_XZ;
        for (int zi = 0; zi < WG_NX0; zi++)
            for (int xi = 0; xi < WG_NX0; xi++) {
                GenColumn col;
                int32_t X = X0 + xi * WORLD_CELL_XZ, Z = Z0 + zi * WORLD_CELL_XZ;
                gen_column_point(&g, X, Z, &col);
                assert_memory_equal(&col, &s.col[zi][xi], sizeof col);
                for (int yi = 0; yi < WG_NY; yi++) {
                    int32_t Y = WORLD_Y_MIN + yi * WORLD_CELL_Y;
                    float n3 = noise_fbm3(g.s_n3, &g.fb_n3, noise_fx_mul_int(g.f_n3, X), noise_fx_mul_int(g.f_n3y, Y),
                                          noise_fx_mul_int(g.f_n3, Z));
                    float d, i;
                    gen_corner_dense(&g, &col, (float)Y, n3, &d, &i);
                    assert_memory_equal(&d, &s.corner[WF_D][yi][zi][xi], sizeof d);
                    assert_memory_equal(&i, &s.corner[WF_I][yi][zi][xi], sizeof i);
                    if ((s.row_need[yi][zi] >> xi) & 1u)
                        for (uint32_t f = 0; f < g.ncave_fields; f++) {
                            const CaveField *cf = &g.cave_fields[f];
                            NoiseFx px = noise_fx_mul_int(cf->fx, X), py = noise_fx_mul_int(cf->fy, Y),
                                    pz = noise_fx_mul_int(cf->fx, Z);
                            float a = cf->row == cave_row_fbm3 ? noise_fbm3(cf->seed, &cf->fbm, px, py, pz)
                                                               : noise_simplex3(cf->seed, px, py, pz);
                            assert_memory_equal(&a, &s.corner[WF_CAVE + f][yi][zi][xi], sizeof a);
                        }
                    compared++;
                }
            }
    }
    assert_true(compared > 4000);
}

/* The lazy corner grid (n3 rows only where a cell may hold rock whatever n3 is, cave and n3 rows
 * only over the columns their cells need) fills the same voxels, clouds and column tops as every
 * corner, at every LOD. */
static void test_lazy_corners_same_voxels(void **state) {
    (void)state;
    static ChunkScratch s;
    static uint64_t solid[WV_H][WV_ROW], cloud[WV_H][WV_ROW];
    static int16_t top[WV_ROW][WV_ROW];
    WorldGen g;
    WorldParams p;
    world_params_default(&p);
    p.gen.cave_modes = WORLD_CAVES_TUBES | WORLD_CAVES_CHEESE | WORLD_CAVES_WORMS;
    gen_init(&g, &p.gen, NULL);
    uint32_t rows_lazy = 0, rows_full = 0;
    for (int c = 0; c < NCHUNKS; c += 2)
        for (int lod = 0; lod <= WORLD_LOD_MAX; lod++) {
            int nx = lod >= 2 ? WG_NX : WG_NX0;
            gen_chunk_fill(&g, k_chunks[c][0], k_chunks[c][1], 2.0, lod, nx, false, &s);
            memcpy(solid, s.solid, sizeof solid);
            memcpy(cloud, s.cloud, sizeof cloud);
            memcpy(top, s.top, sizeof top);
            for (int yi = 0; yi < WG_NY; yi++)
                for (int zi = 0; zi < WG_NX; zi++) rows_full += (uint32_t)__builtin_popcount(s.row_need[yi][zi]);
            gen_chunk_fill(&g, k_chunks[c][0], k_chunks[c][1], 2.0, lod, nx, true, &s);
            for (int yi = 0; yi < WG_NY; yi++)
                for (int zi = 0; zi < WG_NX; zi++) rows_lazy += (uint32_t)__builtin_popcount(s.row_need[yi][zi]);
            size_t n = (size_t)(s.ny + 2);
            assert_memory_equal(solid, s.solid, n * sizeof solid[0]);
            assert_memory_equal(cloud, s.cloud, n * sizeof cloud[0]);
            assert_memory_equal(top, s.top, sizeof top);
        }
    /* The same cells take caves either way: the lazy grid leaves out no corner a cell reads. */
    assert_int_equal(rows_lazy, rows_full);
}

/* Voxel faces on the plane shared by two chunks: exactly one where solidity differs, none
 * elsewhere (objects are boxes, not voxels: test_world_props checks them across borders). */
static uint32_t count_plane_faces(const ChunkMesh *m, int normal, int axis_value, bool along_x, uint8_t *grid) {
    uint32_t n = 0;
    for (uint32_t p = 0; p < m->opaque_parts; p++)
        for (uint32_t k = 0; k < m->parts[p].vert_count; k += 4) {
            const WorldVertex *q = &m->parts[p].verts[k];
            if (q->normal != normal || (q->flags >> 2) == WORLD_MAT_PROP || (q->flags >> 2) == WORLD_MAT_LANDMARK) continue;
            int a = along_x ? q[0].x : q[0].z;
            if (a != axis_value) continue;
            int miny = q[0].y, minw = along_x ? q[0].z : q[0].x;
            for (int i = 1; i < 4; i++) {
                if (q[i].y < miny) miny = q[i].y;
                int wv = along_x ? q[i].z : q[i].x;
                if (wv < minw) minw = wv;
            }
            grid[(miny - WORLD_Y_MIN) * CHUNK_SIZE + minw]++;
            n++;
        }
    return n;
}

static void test_chunk_borders_agree(void **state) {
    Fixture *fx = *state;
    static uint8_t va[WV_H * WV_LAYER], vb[WV_H * WV_LAYER];
    static uint8_t faces[(WORLD_Y_MAX - WORLD_Y_MIN) * CHUNK_SIZE];
    const int pairs[][4] = {{0, 0, 1, 0}, {-3, 2, -2, 2}, {5, -7, 5, -6}, {-250, 333, -250, 334}, {1000, 77, 1001, 77}};
    uint32_t border_faces = 0;
    for (size_t pi = 0; pi < sizeof pairs / sizeof pairs[0]; pi++) {
        bool along_x = pairs[pi][0] != pairs[pi][2];
        ChunkMesh ma, mb;
        build(fx->world, pairs[pi][0], pairs[pi][1], 0.0, &ma);
        memcpy(va, world_debug_voxels(fx->world, NULL), sizeof va);
        build(fx->world, pairs[pi][2], pairs[pi][3], 0.0, &mb);
        memcpy(vb, world_debug_voxels(fx->world, NULL), sizeof vb);
        memset(faces, 0, sizeof faces);
        /* A's +side faces lie on its plane 32, B's -side faces on its plane 0. */
        uint32_t fa = count_plane_faces(&ma, along_x ? WORLD_NORMAL_PX : WORLD_NORMAL_PZ, CHUNK_SIZE, along_x, faces);
        uint32_t fb = count_plane_faces(&mb, along_x ? WORLD_NORMAL_NX : WORLD_NORMAL_NZ, 0, along_x, faces);
        for (int y = WORLD_Y_MIN; y < WORLD_Y_MAX; y++)
            for (int t = 0; t < CHUNK_SIZE; t++) {
                int ax = along_x ? CHUNK_SIZE - 1 : t, az = along_x ? t : CHUNK_SIZE - 1;
                int bx = along_x ? 0 : t, bz = along_x ? t : 0;
                /* Each chunk's apron holds the neighbour's voxels. */
                bool a_in = is_solid_code(vox_at(va, ax, y, az)), b_in = is_solid_code(vox_at(vb, bx, y, bz));
                assert_int_equal(is_solid_code(vox_at(va, along_x ? CHUNK_SIZE : t, y, along_x ? t : CHUNK_SIZE)), b_in);
                assert_int_equal(is_solid_code(vox_at(vb, along_x ? -1 : t, y, along_x ? t : -1)), a_in);
                uint8_t want = a_in != b_in ? 1 : 0;
                if (faces[(y - WORLD_Y_MIN) * CHUNK_SIZE + t] != want)
                    fail_msg("pair %zu y %d t %d: %u faces, want %u", pi, y, t, faces[(y - WORLD_Y_MIN) * CHUNK_SIZE + t], want);
            }
        border_faces += fa + fb;
        world_free_mesh(fx->world, &ma);
        world_free_mesh(fx->world, &mb);
    }
    printf("border faces checked: %u\n", border_faces);
    assert_true(border_faces > 50);
}

/* W3: the lowest layers are solid everywhere sampled, near and far. */
static void test_no_floor_hole(void **state) {
    Fixture *fx = *state;
    for (int c = 0; c < NCHUNKS; c++) {
        ChunkMesh m;
        build(fx->world, k_chunks[c][0], k_chunks[c][1], 0.0, &m);
        const uint8_t *v = world_debug_voxels(fx->world, NULL);
        for (int z = -1; z <= CHUNK_SIZE; z++)
            for (int x = -1; x <= CHUNK_SIZE; x++)
                for (int y = WORLD_Y_MIN; y < WORLD_Y_MIN + 2; y++) assert_int_equal(vox_at(v, x, y, z), WORLD_MAT_ABYSS);
        /* No face ever points down from the floor layer. */
        for (uint32_t p = 0; p < m.opaque_parts; p++)
            for (uint32_t k = 0; k < m.parts[p].vert_count; k++)
                if (m.parts[p].verts[k].normal == WORLD_NORMAL_NY) assert_true(m.parts[p].verts[k].y > WORLD_Y_MIN);
        world_free_mesh(fx->world, &m);
    }
    Rng r;
    rng_seed(&r, 11, 2);
    for (int i = 0; i < 3000; i++) {
        double x = (rng_double01(&r) - 0.5) * 8e6, z = (rng_double01(&r) - 0.5) * 8e6;
        assert_true(world_density_at(fx->world, x, WORLD_Y_MIN + 0.5, z) > 0.0f);
        assert_true(world_density_at(fx->world, x, WORLD_Y_MIN + 1.5, z) > 0.0f);
    }
}

/* W7: cloud voxels only inside the band, never in rock, never in carved caves. */
static void test_clouds_in_band_not_in_rock(void **state) {
    Fixture *fx = *state;
    const WorldParams *p = world_params(fx->world);
    uint32_t clouds = 0, in_band_air = 0;
    for (int c = 0; c < NCHUNKS; c++) {
        ChunkMesh m;
        double t = 17.0 * c;
        build(fx->world, k_chunks[c][0], k_chunks[c][1], t, &m);
        const uint8_t *v = world_debug_voxels(fx->world, NULL);
        for (int y = WORLD_Y_MIN; y < WORLD_Y_MAX; y++) {
            float d = ((float)y + 0.5f - p->gen.cloud_centre) / p->gen.cloud_range;
            bool band = 1.0f - d * d > 0.0f;
            for (int z = 0; z < CHUNK_SIZE; z++)
                for (int x = 0; x < CHUNK_SIZE; x++) {
                    uint8_t code = vox_at(v, x, y, z);
                    if (band && code == WORLD_MAT_AIR) in_band_air++;
                    if (code != WORLD_MAT_CLOUD) continue;
                    clouds++;
                    if (!band) fail_msg("cloud voxel at y %d outside the band", y);
                }
        }
        /* Cloud quads live in the cloud parts only, with the cloud alpha (the other translucent
         * quads there: the pools' water). */
        for (uint32_t i = m.opaque_parts; i < m.opaque_parts + m.cloud_parts; i++)
            for (uint32_t k = 0; k < m.parts[i].vert_count; k++) {
                if (m.parts[i].verts[k].flags >> 2 == WORLD_MAT_WATER) continue;
                assert_int_equal(m.parts[i].verts[k].a, p->gen.cloud_alpha);
                assert_int_equal(m.parts[i].verts[k].flags >> 2, WORLD_MAT_CLOUD);
            }
        for (uint32_t i = 0; i < m.opaque_parts; i++)
            for (uint32_t k = 0; k < m.parts[i].vert_count; k++) assert_int_equal(m.parts[i].verts[k].a, 255);
        world_free_mesh(fx->world, &m);
    }
    /* Every point that is rock (before or after caves) is not cloud, over random probes. */
    Rng r;
    rng_seed(&r, 5, 3);
    uint32_t rock_probes = 0;
    for (int i = 0; i < 4000; i++) {
        double x = (rng_double01(&r) - 0.5) * 20000, z = (rng_double01(&r) - 0.5) * 20000;
        double y = p->gen.cloud_centre - p->gen.cloud_range + rng_double01(&r) * 2 * p->gen.cloud_range;
        if (world_density_at(fx->world, x, y, z) > 0.0f) {
            rock_probes++;
            assert_false(world_cloud_at_params(&p->gen, 40.0, x, y, z));
        }
    }
    printf("cloud voxels %u of %u band air voxels; rock probes in band %u\n", clouds, in_band_air, rock_probes);
    assert_true(clouds > 100);
    assert_true(rock_probes > 10);
}

/* Wind: a chunk created later sees the cloud field carried by the drift: the later chunk's cloud
 * at x + (drift's whole blocks between) is the earlier one's at x, along both axes. */
static void test_wind_shift(void **state) {
    Fixture *fx = *state;
    /* Caves off: a point carved out of rock is never cloud, which would blur the comparison. */
    WorldParams p = *world_params(fx->world);
    p.gen.cave_modes = WORLD_CAVES_NONE;
    int64_t s0[2], s1[2];
    world_cloud_shift(&p.gen, 0.0, s0);
    world_cloud_shift(&p.gen, 10.0, s1);
    assert_true(s0[0] == 0 && s0[1] == 0);   /* a fresh world's clouds where the field puts them */
    double mx = (double)(s0[0] - s1[0]), mz = (double)(s0[1] - s1[1]);
    Rng r;
    rng_seed(&r, 9, 4);
    uint32_t same = 0, tried = 0, cloudy = 0;
    for (int i = 0; i < 4000 && tried < 400; i++) {
        double x = (rng_double01(&r) - 0.5) * 5000, z = (rng_double01(&r) - 0.5) * 5000;
        double y = p.gen.cloud_centre + (rng_double01(&r) - 0.5) * p.gen.cloud_range;
        if (world_density_at_params(&p.gen, x, y, z) > 0.0f || world_density_at_params(&p.gen, x + mx, y, z + mz) > 0.0f) continue;
        tried++;
        bool later = world_cloud_at_params(&p.gen, 10.0, x + mx, y, z + mz), now = world_cloud_at_params(&p.gen, 0.0, x, y, z);
        same += later == now;
        cloudy += now;
    }
    printf("wind: 10 s moves the clouds %.0f, %.0f blocks; %u of %u air probes agree, %u cloudy\n", mx, mz, same, tried,
           cloudy);
    assert_int_equal(same, tried);
    assert_true(tried > 100 && cloudy > 5);
    /* 10 s at 40 blocks/s is about 400 blocks (this seed's knots run 15..56 blocks/s): past 100,
     * the probes compare places the clouds really moved between. */
    assert_true(mx * mx + mz * mz > 100.0 * 100.0);
}

/* The drift follows the world's prevailing wind (the weather's): an hour of it runs within 30
 * degrees of that direction at about wind_speed blocks a second, while knot by knot its direction
 * and pace change; the same seed and time give the same drift, another seed another. */
static void test_cloud_drift_follows_the_wind(void **state) {
    Fixture *fx = *state;
    WorldGenParams g = world_params(fx->world)->gen;
    double pc, ps, d[2], e[2];
    det_sincos(world_prevailing_wind(g.seed), &ps, &pc);
    world_cloud_drift(&g, 3600.0, d);
    double along = d[0] * pc + d[1] * ps, across = -d[0] * ps + d[1] * pc;
    printf("drift over an hour: %.0f along the prevailing wind, %.0f across (%.0f blocks/s)\n", along, across,
           along / 3600.0);
    assert_true(along > 0.8 * g.wind_speed * 3600.0 && along < 1.2 * g.wind_speed * 3600.0);
    assert_true(fabs(across) < along * 0.58);
    double vmin = 1e30, vmax = 0.0, amin = 1e30, amax = -1e30;
    for (int k = 0; k < 15; k++) {
        double t = (k + 0.5) * WORLD_WIND_KNOT_S;
        world_cloud_drift(&g, t, d);
        world_cloud_drift(&g, t + 1.0, e);
        double vx = e[0] - d[0], vz = e[1] - d[1], v = sqrt(vx * vx + vz * vz);
        double ang = atan2(-vx * ps + vz * pc, vx * pc + vz * ps);
        vmin = v < vmin ? v : vmin, vmax = v > vmax ? v : vmax;
        amin = ang < amin ? ang : amin, amax = ang > amax ? ang : amax;
    }
    printf("knots: %.1f..%.1f blocks/s, %.0f..%.0f degrees off the prevailing wind\n", vmin, vmax, amin * 57.3, amax * 57.3);
    assert_true(vmax > vmin * 1.3 && amax - amin > 0.3);
    world_cloud_drift(&g, 1234.5, d);
    world_cloud_drift(&g, 1234.5, e);
    assert_true(d[0] == e[0] && d[1] == e[1]);
    g.seed++;
    world_cloud_drift(&g, 1234.5, e);
    assert_true(d[0] != e[0] || d[1] != e[1]);
}

/* Mesh format: part limits, quads whole, CCW winding, AO-correct diagonal, coordinates. */
static void test_mesh_format(void **state) {
    Fixture *fx = *state;
    uint64_t quads = 0, flipped = 0;
    for (int c = 0; c < NCHUNKS; c++) {
        ChunkMesh m;
        build(fx->world, k_chunks[c][0], k_chunks[c][1], 0.0, &m);
        assert_true(m.opaque_parts + m.cloud_parts <= WORLD_MAX_MESH_PARTS);
        for (uint32_t i = 0; i < m.opaque_parts + m.cloud_parts; i++) {
            const ChunkMeshPart *pt = &m.parts[i];
            assert_true(pt->vert_count <= WORLD_PART_MAX_VERTS && pt->vert_count <= WORLD_SLAB_VERTS);
            assert_int_equal(pt->vert_count % 4, 0);
            assert_true(pt->vert_count > 0);
            for (uint32_t k = 0; k < pt->vert_count; k += 4) {
                const WorldVertex *q = &pt->verts[k];
                int ax = q[1].x - q[0].x, ay = q[1].y - q[0].y, az = q[1].z - q[0].z;
                int bx = q[2].x - q[0].x, by = q[2].y - q[0].y, bz = q[2].z - q[0].z;
                int n[3] = {ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx};
                static const int want[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
                for (int a = 0; a < 4; a++) {
                    assert_int_equal(q[a].normal, q[0].normal);
                    assert_true(q[a].x >= 0 && q[a].x <= CHUNK_SIZE && q[a].z >= 0 && q[a].z <= CHUNK_SIZE);
                    assert_true(q[a].y >= WORLD_Y_MIN && q[a].y <= WORLD_Y_MAX);
                }
                for (int a = 0; a < 3; a++) {
                    int wv = want[q[0].normal][a];
                    assert_true(wv == 0 ? n[a] == 0 : (n[a] * wv > 0));   /* CCW from outside */
                }
                if (i < m.opaque_parts) {
                    int ao[4];
                    for (int a = 0; a < 4; a++) ao[a] = q[a].flags & 3;
                    assert_true(ao[0] + ao[2] >= ao[1] + ao[3]);   /* the 0-2 diagonal is the bright one */
                    if (ao[0] + ao[2] != ao[1] + ao[3]) flipped++;
                }
                quads++;
            }
        }
        world_free_mesh(fx->world, &m);
    }
    printf("quads %llu, with uneven AO %llu\n", (unsigned long long)quads, (unsigned long long)flipped);
    assert_true(flipped > 100);
}

/* W6: the abyss floor is near-black; island undersides darker than tops; jitter varies colour. */
static void test_colour(void **state) {
    Fixture *fx = *state;
    double sum[6] = {0}, cnt[6] = {0};
    uint32_t abyss_max = 0, grass = 0;
    uint8_t gmin = 255, gmax = 0;
    for (int c = 0; c < NCHUNKS; c++) {
        ChunkMesh m;
        build(fx->world, k_chunks[c][0], k_chunks[c][1], 0.0, &m);
        for (uint32_t i = 0; i < m.opaque_parts; i++)
            for (uint32_t k = 0; k < m.parts[i].vert_count; k++) {
                const WorldVertex *v = &m.parts[i].verts[k];
                uint32_t bright = (uint32_t)v->r + v->g + v->b;
                if ((v->flags >> 2) == WORLD_MAT_ABYSS && bright > abyss_max) abyss_max = bright;
                if (v->y > 80) { sum[v->normal] += bright; cnt[v->normal]++; }
                if ((v->flags >> 2) == WORLD_MAT_GRASS && v->normal == WORLD_NORMAL_PY && (v->flags & 3) == 3 && v->y > 90) {
                    grass++;
                    if (v->g < gmin) gmin = v->g;
                    if (v->g > gmax) gmax = v->g;
                }
            }
        world_free_mesh(fx->world, &m);
    }
    double top = sum[WORLD_NORMAL_PY] / cnt[WORLD_NORMAL_PY], under = sum[WORLD_NORMAL_NY] / cnt[WORLD_NORMAL_NY];
    printf("high tops %.1f, undersides %.1f, abyss max %u, open grass g %u..%u over %u verts\n", top, under, abyss_max,
           gmin, gmax, grass);
    assert_true(cnt[WORLD_NORMAL_NY] > 100 && under < top * 0.5);
    assert_true(abyss_max < 3 * 40);
    assert_true(grass > 100 && gmax - gmin > 20);
}

static uint64_t mesh_hash(const ChunkMesh *m, uint64_t h) {
    for (uint32_t i = 0; i < m->opaque_parts + m->cloud_parts; i++)
        h = hash_fnv1a64(m->parts[i].verts, m->parts[i].vert_count * sizeof(WorldVertex), h);
    return h;
}

/* Same bits on every platform and SIMD path. */
static void test_golden_chunks(void **state) {
    Fixture *fx = *state;
    uint64_t h = 0;
    for (int c = 0; c < NCHUNKS; c += 2) {
        ChunkMesh m;
        build(fx->world, k_chunks[c][0], k_chunks[c][1], 21.5, &m);
        h = mesh_hash(&m, h);
        h = hash_fnv1a64(world_debug_voxels(fx->world, NULL), WV_H * WV_LAYER, h);
        world_free_mesh(fx->world, &m);
    }
    float d = world_density_at(fx->world, 1234.25, 77.5, -987.75);
    h = hash_fnv1a64(&d, sizeof d, h);
    struct utsname u;
    uname(&u);
    printf("note: world golden chunk hash on %s (noise path %s): %016llx\n", u.machine, noise_simd_path(), (unsigned long long)h);
    /* The hash covers the meshes' colours (16-bit AO steps) and the clouds of the chunks built at
     * 21.5 s (where world_cloud_drift has carried them): either moves it. */
    /* (0xd9bc7ef1b0521465 before the pools in caves: their water blocks and surfaces) */
    assert_int_equal(h, 0xfe749541024c31a2ull);
}

/* M3: after init, generating and meshing 1,000 chunks calls malloc zero times. */
static void test_no_heap_after_init(void **state) {
    Fixture *fx = *state;
    uint64_t verts = 0;
    alloc_count_start();
    for (int i = 0; i < 1000; i++) {
        ChunkMesh m;
        WorldBuildTiming t;
        world_build_chunk(fx->world, (i % 40) - 20, (i / 40) - 12, (double)i * 0.1, &m, &t);
        verts += t.opaque_verts + t.cloud_verts;
        world_free_mesh(fx->world, &m);
    }
    uint64_t allocs = alloc_count_stop();
    printf("1000 chunks, %llu vertices, %llu heap calls\n", (unsigned long long)verts, (unsigned long long)allocs);
    assert_int_equal(allocs, 0);
    assert_true(verts > 1000000);
}


/* The exposed faces of chunk s's interior voxels, one neighbour test each (no seams, clouds or
 * objects): what mesh_chunk counts. */
static uint32_t exposed_faces(const ChunkScratch *s) {
#define SOLID(yi, zi, xi) ((s->solid[yi][zi] >> (xi)) & 1u)
    uint32_t n = 0;
    for (int yi = 1; yi <= s->ny; yi++)
        for (int zi = 1; zi <= s->n; zi++)
            for (int xi = 1; xi <= s->n; xi++)
                if (SOLID(yi, zi, xi))
                    n += (uint32_t)(!SOLID(yi, zi, xi + 1) + !SOLID(yi, zi, xi - 1) + !SOLID(yi + 1, zi, xi) +
                                    !SOLID(yi - 1, zi, xi) + !SOLID(yi, zi + 1, xi) + !SOLID(yi, zi - 1, xi));
#undef SOLID
    return n;
}

/* Mesh limits: a checkerboard (6 faces per voxel) overflows the part table and comes back
 * truncated but usable; a dry slab pool reports failure and frees cleanly. Either way every
 * exposed face is counted, written or not. */
static void test_mesh_limits(void **state) {
    (void)state;
    static ChunkScratch s;
    WorldGen g;
    WorldParams p;
    world_params_default(&p);
    gen_init(&g, &p.gen, NULL);
    memset(&s, 0, sizeof s);
    s.y_top = WORLD_Y_MAX;
    s.scale = 1;                            /* LOD 0 */
    s.n = CHUNK_SIZE;
    s.ny = WORLD_Y_MAX - WORLD_Y_MIN;
    for (int z = 0; z < WV_ROW; z++) s.solid[0][z] = (1ull << WV_ROW) - 1;
    for (int y = WORLD_Y_MIN; y < WORLD_Y_MAX; y++)
        for (int z = -1; z <= CHUNK_SIZE; z++)
            s.solid[y - WORLD_Y_MIN + 1][z + 1] = ((y + z) & 1 ? 0x5555555555555555ull : 0xaaaaaaaaaaaaaaaaull) &
                                                   ((1ull << WV_ROW) - 1);
    for (int z = 0; z < CHUNK_SIZE; z++)
        for (int x = 0; x < CHUNK_SIZE; x++) s.home_type[z][x] = 255;
    MemBudget b;
    SkyError err = {0};
    assert_true(mem_budget_init(&b, (size_t)8 << 20, &err));
    MemPool pool;
    assert_true(mem_pool_init(&pool, &b, "test slabs", sizeof(WorldVertex) * WORLD_SLAB_VERTS, WORLD_MAX_MESH_PARTS + 4));
    ChunkMesh m;
    MeshCounts mc;
    assert_true(mesh_chunk(&g, &s, &pool, &m, &mc));
    assert_true(mc.truncated);
    const uint32_t exposed = exposed_faces(&s);
    assert_true(exposed > WORLD_MAX_MESH_PARTS * WORLD_SLAB_VERTS / 4);   /* more than fit */
    assert_int_equal(mc.faces, exposed);
    assert_int_equal(m.opaque_parts + m.cloud_parts, WORLD_MAX_MESH_PARTS);
    for (uint32_t i = 0; i < m.opaque_parts; i++) assert_int_equal(m.parts[i].vert_count, WORLD_SLAB_VERTS);
    mesh_free(&pool, &m);
    assert_int_equal(mem_pool_stats(&pool).in_use, 0);

    MemPool tiny;
    assert_true(mem_pool_init(&tiny, &b, "tiny slabs", sizeof(WorldVertex) * WORLD_SLAB_VERTS, 3));
    assert_false(mesh_chunk(&g, &s, &tiny, &m, &mc));
    assert_false(mc.truncated);
    assert_int_equal(mc.faces, exposed);
    assert_int_equal(m.opaque_parts, 3);
    mesh_free(&tiny, &m);
    assert_int_equal(mem_pool_stats(&tiny).in_use, 0);
    mem_budget_release(&b);
}

/* The optional home island: a baked IslandField lifts a lens whose top follows its elevation,
 * coloured by location type; the field and the chunks still agree; far away nothing changes. */
#define HOME_N 64
static uint16_t g_home_elev[HOME_N * HOME_N];
static uint8_t g_home_type[HOME_N * HOME_N];

static void test_home_island(void **state) {
    (void)state;
    IslandField f;
    memset(&f, 0, sizeof f);
    f.size = HOME_N;
    f.cell_meters = 8.0f;
    f.centre_x = 40.0f;
    f.centre_z = -24.0f;
    f.radius_m = HOME_N * 8.0f * 0.5f;
    f.elevation_top_m = 100.0f;
    for (int j = 0; j < HOME_N; j++)
        for (int i = 0; i < HOME_N; i++) {
            double u = (i + 0.5) / HOME_N * 2.0 - 1.0, v = (j + 0.5) / HOME_N * 2.0 - 1.0, r = sqrt(u * u + v * v);
            g_home_elev[j * HOME_N + i] = r > 1.0 ? 0 : (uint16_t)((1.0 - r) * 1000.0);
            g_home_type[j * HOME_N + i] = r > 1.0 ? 255 : (uint8_t)((i / 8 + j / 8) % 10);
        }
    f.elevation_dm = g_home_elev;
    f.type = g_home_type;
    /* Ground colours from the field (the codex's ground_rgb): even types red, odd types blue. */
    f.n_types = 10;
    for (uint32_t t = 0; t < f.n_types; t++) f.type_rgb[t] = (t & 1u) ? 0x3030C0u : 0xC03030u;

    MemBudget b;
    SkyError err = {0};
    assert_true(mem_budget_init(&b, (size_t)48 << 20, &err));
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 2;
    p.create.mesh_pool_mib = 8;
    World *w = world_create(&b, NULL, &p, &f, &err);
    assert_non_null(w);

    /* The chunk at the island centre: a high top over the centre, HOME faces of several types. */
    int32_t hcx = (int32_t)floor(f.centre_x / CHUNK_SIZE), hcz = (int32_t)floor(f.centre_z / CHUNK_SIZE);
    ChunkMesh m;
    build(w, hcx, hcz, 0.0, &m);
    const uint8_t *v = world_debug_voxels(w, NULL);
    int lx = (int)f.centre_x - hcx * CHUNK_SIZE, lz = (int)f.centre_z - hcz * CHUNK_SIZE;
    int top = -1;
    for (int y = WORLD_Y_MAX - 1; y >= WORLD_Y_MIN && top < 0; y--)
        if (is_solid_code(vox_at(v, lx, y, lz))) top = y;
    /* Real units: the centre's 100 m over the sea level (lowered so a 100 m peak fits). */
    float want_top = world_home_sea(&p.gen, &f) + 100.0f;
    assert_true(world_home_sea(&p.gen, &f) + f.elevation_top_m <= WORLD_Y_MAX - 4);
    uint32_t home_faces = 0;
    uint8_t seen_r[256] = {0};
    uint32_t colours = 0, reddish = 0, bluish = 0;
    for (uint32_t i = 0; i < m.opaque_parts; i++)
        for (uint32_t k = 0; k < m.parts[i].vert_count; k += 4) {
            const WorldVertex *q = &m.parts[i].verts[k];
            if ((q->flags >> 2) != WORLD_MAT_HOME) continue;
            home_faces++;
            if (!seen_r[q->r]++) colours++;
            reddish += 2 * q->r > 3 * q->b;   /* shading scales channels alike: compare ratios */
            bluish += 2 * q->b > 3 * q->r;
        }
    printf("home top %d (want ~%.0f), home faces %u, distinct reds %u, red %u, blue %u\n", top, want_top, home_faces,
           colours, reddish, bluish);
    assert_true(top >= (int)want_top - 6 && top <= (int)want_top + 6);
    assert_true(home_faces > 200 && colours > 3);
    /* Both field colours show, and every home face takes one of them. */
    assert_true(reddish > 20 && bluish > 20);
    assert_int_equal(reddish + bluish, home_faces);
    world_free_mesh(w, &m);

    /* Voxels equal the point density with the home island in the field. */
    Rng r;
    rng_seed(&r, 13, 5);
    for (int c = 0; c < 4; c++) {
        int32_t cx = hcx + (c & 1) * 3 - 1, cz = hcz + (c >> 1) * 3 - 1;
        build(w, cx, cz, 0.0, &m);
        v = world_debug_voxels(w, NULL);
        for (int i = 0; i < 600; i++) {
            int x = rng_range(&r, -1, CHUNK_SIZE), z = rng_range(&r, -1, CHUNK_SIZE), y = rng_range(&r, 60, 140);
            bool want = world_density_at(w, cx * CHUNK_SIZE + x + 0.5, y + 0.5, cz * CHUNK_SIZE + z + 0.5) > 0.0f;
            assert_int_equal(is_solid_code(vox_at(v, x, y, z)), want);
        }
        world_free_mesh(w, &m);
    }
    /* Far from the island the field is the plain one, bit for bit. */
    WorldParams plain = p;   /* the same values: the by-parameters query knows no home island */
    for (int i = 0; i < 500; i++) {
        double x = 3000.0 + rng_double01(&r) * 2000.0, z = rng_double01(&r) * 2000.0, y = rng_double01(&r) * 150.0;
        float a = world_density_at(w, x, y, z), bb = world_density_at_params(&plain.gen, x, y, z);
        assert_memory_equal(&a, &bb, sizeof a);
    }
    world_destroy(w);
    mem_budget_release(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_voxels_match_point_density),
        cmocka_unit_test(test_rows_equal_scalar_corners),
        cmocka_unit_test(test_lazy_corners_same_voxels),
        cmocka_unit_test(test_chunk_borders_agree),
        cmocka_unit_test(test_no_floor_hole),
        cmocka_unit_test(test_clouds_in_band_not_in_rock),
        cmocka_unit_test(test_wind_shift),
        cmocka_unit_test(test_cloud_drift_follows_the_wind),
        cmocka_unit_test(test_mesh_format),
        cmocka_unit_test(test_colour),
        cmocka_unit_test(test_mesh_limits),
        cmocka_unit_test(test_home_island),
        cmocka_unit_test(test_golden_chunks),
        cmocka_unit_test(test_no_heap_after_init),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
