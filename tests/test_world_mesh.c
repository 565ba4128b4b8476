/* Tests for the mesher's home-island faces: the chunk golden holds the
 * archipelago's biomes, and this one the home island's (location-type colours, paths, the grey of
 * a type the field does not name, snow and grass beside them) at every LOD, classic and streamed,
 * the same bits on every platform and noise path, and chunks away from it at every LOD. The values
 * were the ones the mesher gave before the per-layer face list (07db4a4); the home island's moved
 * when the field gained its per-cell ground colours (blended borders, interpolated per block),
 * which this field now carries as a ramp across each square; both moved when a vertex's AO
 * colour became 16-bit integer steps (mesher.c face_colours), which test_colour_steps_within_one
 * proves the same faces, positions, normals and flags, every colour channel within 1 of the float
 * formula before. */
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
#include "noise/noise.h"
#include "support/emulated.h"
#include "world/world.h"

/* The mesher once more with the float colour formula before the 16-bit steps, as
 * mesh_chunk_reference (MESH_REFERENCE_COLOUR: to_u8(lit colour * AO factor) per channel). */
#define MESH_REFERENCE_COLOUR 1
#define mesh_chunk mesh_chunk_reference
#include "world/mesher.c"
#undef mesh_chunk
bool mesh_chunk(const WorldGen *g, ChunkScratch *s, MemPool *slabs, ChunkMesh *out, MeshCounts *counts);
#include "world/stream_internal.h"

/* The goldens of hash_meshes (test_golden_home_meshes). */
#define HOME_GOLDEN 0xebb959b45a48b7f4ull   /* 0x6208a2a58b52cd3c before the pools in caves */
#define AWAY_GOLDEN 0x1755bfdd36e96812ull

#define HOME_N 64
static uint16_t g_elev[HOME_N * HOME_N];
static uint8_t g_type[HOME_N * HOME_N];
static uint8_t g_rgb[HOME_N * HOME_N * 3];
#define PATH_N 128   /* path cells of 4 m */
static uint8_t g_path[PATH_N * PATH_N / 8];

/* A cone of an island with twelve location types in 8-cell squares (ten named, two not), a
 * ground colour per cell that ramps across each square (the blended borders' grid, interpolated
 * per block) and a path along one row. */
static void home_field(IslandField *f) {
    memset(f, 0, sizeof *f);
    f->size = HOME_N;
    f->cell_meters = 8.0f;
    f->centre_x = 40.0f;
    f->centre_z = -24.0f;
    f->radius_m = HOME_N * 8.0f * 0.5f;
    f->elevation_top_m = 100.0f;
    for (int j = 0; j < HOME_N; j++)
        for (int i = 0; i < HOME_N; i++) {
            double u = (i + 0.5) / HOME_N * 2.0 - 1.0, v = (j + 0.5) / HOME_N * 2.0 - 1.0, r = sqrt(u * u + v * v);
            g_elev[j * HOME_N + i] = r > 1.0 ? 0 : (uint16_t)((1.0 - r) * 1000.0);
            g_type[j * HOME_N + i] = r > 1.0 ? 255 : (uint8_t)((i / 8 + j / 8) % 12);
        }
    for (int i = 0; i < PATH_N; i++) g_path[(PATH_N / 2) * (PATH_N / 8) + i / 8] |= (uint8_t)(1u << (i % 8));
    f->elevation_dm = g_elev;
    f->type = g_type;
    f->path_bits = g_path;
    f->path_size = PATH_N;
    f->path_stride = PATH_N / 8;
    f->path_cell_m = 4.0f;
    f->path_rgb = 0x8a7048u;
    f->n_types = 10;
    for (uint32_t t = 0; t < f->n_types; t++) f->type_rgb[t] = 0x203040u + t * 0x0d0b07u;
    for (int c = 0; c < HOME_N * HOME_N; c++) {
        uint32_t rgb = g_type[c] < f->n_types ? f->type_rgb[g_type[c]] : 0x808080u;
        int ramp = (c % HOME_N) % 8 * 6;
        g_rgb[c * 3] = (uint8_t)(((rgb >> 16) & 0xffu) + (uint32_t)ramp);
        g_rgb[c * 3 + 1] = (uint8_t)((rgb >> 8) & 0xffu);
        g_rgb[c * 3 + 2] = (uint8_t)((rgb & 0xffu) + (uint32_t)(ramp / 2));
    }
    f->ground_rgb = g_rgb;
}

static uint64_t mesh_hash(const ChunkMesh *m, uint64_t h) {
    for (uint32_t i = 0; i < m->opaque_parts + m->cloud_parts; i++)
        h = hash_fnv1a64(m->parts[i].verts, m->parts[i].vert_count * sizeof(WorldVertex), h);
    return h;
}

/* The chunks over the island's centre and rim, classic and at LOD 0..3: home faces in every one,
 * and one hash of them all; then the same over hills, islands and caves away from it. */
static void hash_meshes(World *w, const IslandField *f, uint64_t *home_h, uint64_t *away_h) {
    int32_t hcx = (int32_t)floor(f->centre_x / CHUNK_SIZE), hcz = (int32_t)floor(f->centre_z / CHUNK_SIZE);
    *home_h = *away_h = 0;
    for (int lod = -1; lod <= WORLD_LOD_MAX; lod++)
        for (int c = 0; c < 6; c++) {
            ChunkMesh m;
            WorldBuildTiming t;
            int32_t cx = c < 3 ? hcx - 1 + c : 40 * c - 150, cz = c < 3 ? hcz - (c == 1) : 23 * c - 60;
            assert_true(lod < 0 ? world_build_chunk(w, cx, cz, 0.0, &m, &t) : world_build_chunk_lod(w, cx, cz, lod, 0.0, &m, &t));
            uint32_t home = 0;
            for (uint32_t i = 0; i < m.opaque_parts; i++)
                for (uint32_t k = 0; k < m.parts[i].vert_count; k += 4) home += (m.parts[i].verts[k].flags >> 2) == WORLD_MAT_HOME;
            assert_true(c < 3 ? home > 0 : home == 0);
            if (c < 3) *home_h = mesh_hash(&m, *home_h);
            else *away_h = mesh_hash(&m, *away_h);
            world_free_mesh(w, &m);
        }
}

/* A small world on the synthetic home field f, in budget b. */
static World *home_world(IslandField *f, MemBudget *b) {
    home_field(f);
    SkyError err = {0};
    assert_true(mem_budget_init(b, (size_t)48 << 20, &err));
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 2;
    p.create.mesh_pool_mib = 8;
    World *w = world_create(b, NULL, &p, f, &err);
    assert_non_null(w);
    return w;
}

static void test_golden_home_meshes(void **state) {
    (void)state;
    IslandField f;
    MemBudget b;
    World *w = home_world(&f, &b);
    struct utsname u;
    uname(&u);
    NoisePath initial = noise_get_path();
    int paths = 0;
    for (int k = 0; k < NOISE_PATH_COUNT; k++) {
        if (k == NOISE_PATH_AUTO || !noise_set_path((NoisePath)k)) continue;
        uint64_t home_h, away_h;
        hash_meshes(w, &f, &home_h, &away_h);
        printf("note: home-island mesh hash on %s (noise path %s): %016llx, away %016llx\n", u.machine, noise_simd_path(),
               (unsigned long long)home_h, (unsigned long long)away_h);
        /* (0x91a48bb22f9bc5f0 / 0xe9823f292e5c86ed before the 16-bit AO colour steps: the same
         * faces, colours within 1, test_colour_steps_within_one) */
        assert_int_equal(home_h, HOME_GOLDEN);
        assert_int_equal(away_h, AWAY_GOLDEN);
        paths++;
    }
    noise_set_path(initial);
    int available = 0;
    for (int k = 0; k < NOISE_PATH_COUNT; k++) available += k != NOISE_PATH_AUTO && noise_path_available((NoisePath)k);
    assert_int_equal(paths, available);   /* every path this build has */
#if !defined(SKYISLES_SIMD_SCALAR)
    assert_true(paths >= 2);   /* plain C and the machine's vectors at least */
#endif
    world_destroy(w);
    mem_budget_release(&b);
}

/* Both meshes of the chunk in the scratch: the same parts, vertex counts, positions, normals and
 * flags, and every colour channel within 1 (alpha the same); counts the channels that differ. */
static void compare_meshes(const ChunkMesh *a, const ChunkMesh *b, uint64_t *channels, uint64_t *differ, uint64_t *faces) {
    assert_int_equal(a->opaque_parts, b->opaque_parts);
    assert_int_equal(a->cloud_parts, b->cloud_parts);
    for (uint32_t i = 0; i < a->opaque_parts + a->cloud_parts; i++) {
        assert_int_equal(a->parts[i].vert_count, b->parts[i].vert_count);
        for (uint32_t k = 0; k < a->parts[i].vert_count; k++) {
            const WorldVertex *u = &a->parts[i].verts[k], *v = &b->parts[i].verts[k];
            assert_true(u->x == v->x && u->y == v->y && u->z == v->z && u->normal == v->normal && u->flags == v->flags);
            const int cu[3] = {u->r, u->g, u->b}, cv[3] = {v->r, v->g, v->b};
            for (int c = 0; c < 3; c++) {
                assert_true(abs(cu[c] - cv[c]) <= 1);
                *differ += cu[c] != cv[c];
            }
            assert_int_equal(u->a, v->a);
            *channels += 3;
        }
        if (i < a->opaque_parts) *faces += a->parts[i].vert_count / 4;
    }
}

/* The 16-bit AO colour steps against the float formula before them, over the home island's
 * chunks, 120 along a spiral (hills, islands, caves, clouds; every third of them under emulation,
 * where each chunk is meshed ten times slower) and four far ones, classic and at LOD 0..3, full
 * height: the same meshes but for colour channels within 1. */
static void test_colour_steps_within_one(void **state) {
    (void)state;
    IslandField f;
    MemBudget b;
    World *w = home_world(&f, &b);
    const WorldGen *g = &w->gens[w->cur_gen];
    ChunkScratch *s = w->main_scratch;
    int32_t hcx = (int32_t)floor(f.centre_x / CHUNK_SIZE), hcz = (int32_t)floor(f.centre_z / CHUNK_SIZE);
    uint64_t channels = 0, differ = 0, faces = 0;
    /* Far chunks too (blocks past 10^11 and 10^12 m, where the noise's wide lattice holds). */
    static const int64_t k_far[4][2] = {{3100000000LL, -2700000000LL}, {-31250000000LL, 1000000000LL},
                                        {40000000000LL, 40000000000LL}, {-123456789LL, -98765432101LL}};
    const bool emulated = test_running_emulated();
    for (int lod = -1; lod <= WORLD_LOD_MAX; lod++)
        for (int c = 0; c < 127; c++) {
            if (emulated && c >= 3 && c < 123 && (c - 3) % 3 != 0) continue;
            int64_t cx = hcx - 1 + c % 3, cz = hcz - (c % 3 == 1);
            if (c >= 123) {
                cx = k_far[c - 123][0], cz = k_far[c - 123][1];
            } else if (c >= 3) {   /* a square spiral, every third chunk */
                int x = 0, z = 0, dx = 1, dz = 0, len = 1, step = 0, turns = 0;
                for (int k = 0; k < c - 3; k++) {
                    x += dx, z += dz;
                    if (++step == len) {
                        int t = dx;
                        step = 0, dx = -dz, dz = t;
                        if (++turns % 2 == 0) len++;
                    }
                }
                cx = 3 * x, cz = 3 * z;
            }
            if (lod < 0) gen_chunk_voxels(g, cx, cz, 0.0, s);
            else gen_chunk_voxels_lod(g, cx, cz, 0.0, lod, s);
            ChunkMesh ma, mb;
            MeshCounts ca, cb;
            assert_true(mesh_chunk(g, s, &w->slabs, &ma, &ca));
            assert_true(mesh_chunk_reference(g, s, &w->slabs, &mb, &cb));
            assert_int_equal(ca.faces, cb.faces);
            compare_meshes(&ma, &mb, &channels, &differ, &faces);
            mesh_free(&w->slabs, &ma);
            mesh_free(&w->slabs, &mb);
        }
    w->main_vox_valid = false;
    printf("note: 16-bit AO colour steps against the float formula: %llu faces, %llu of %llu channels differ by 1 (%.4f%%)\n",
           (unsigned long long)faces, (unsigned long long)differ, (unsigned long long)channels, 100.0 * (double)differ / (double)channels);
    assert_true(faces > 100000);
    world_destroy(w);
    mem_budget_release(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_home_meshes),
        cmocka_unit_test(test_colour_steps_within_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
