/* skyisles bench `chunk`: ms per chunk on one thread for density (terrain, islands, caves,
 * clouds), meshing and their total, at a 32x32x64 slab and at the full vertical range, and
 * the streamer's meshes per LOD (coarse voxels plus seam faces). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "noise/noise.h"
#include "world/world.h"

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(double *v, int n, double q) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    int i = (int)(q * (n - 1) + 0.5);
    return v[i < 0 ? 0 : (i >= n ? n - 1 : i)];
}

/* Chunk coordinates along a square spiral from the origin: varied terrain, reproducible. */
static void spiral(int i, int32_t *cx, int32_t *cz) {
    int x = 0, z = 0, dx = 1, dz = 0, len = 1, step = 0, turns = 0;
    for (int k = 0; k < i; k++) {
        x += dx; z += dz;
        if (++step == len) {
            step = 0;
            int t = dx; dx = -dz; dz = t;
            if (++turns % 2 == 0) len++;
        }
    }
    *cx = x * 3;
    *cz = z * 3;
}

/* lod < 0: world_build_chunk (classic LOD 0); else world_build_chunk_lod. */
static int run(const char *label, int y_max, int n, int warm, uint32_t caves, bool clouds, int lod) {
    MemBudget b;
    SkyError err = {0};
    if (!mem_budget_init(&b, (size_t)64 << 20, &err)) { fprintf(stderr, "bench chunk: %s\n", err.msg); return 1; }
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 2;
    p.gen.gen_y_max = y_max;
    p.gen.cave_modes = caves;
    p.gen.clouds = clouds;
    p.create.mesh_pool_mib = 16;
    World *w = world_create(&b, NULL, &p, NULL, &err);
    if (!w) { fprintf(stderr, "bench chunk: %s\n", err.msg); mem_budget_release(&b); return 1; }
    double *dens = calloc((size_t)n, sizeof(double)), *mesh = calloc((size_t)n, sizeof(double)),
           *tot = calloc((size_t)n, sizeof(double)), *per_face = calloc((size_t)n, sizeof(double));
    double faces = 0, verts = 0, cverts = 0, skipped = 0, maxv = 0, slabs = 0;
    for (int i = -warm; i < n; i++) {
        int32_t cx, cz;
        spiral(i < 0 ? -i : i, &cx, &cz);
        ChunkMesh m;
        WorldBuildTiming t;
        WorldStats s0 = world_stats(w);
        if (lod < 0) world_build_chunk(w, cx, cz, 12.5, &m, &t);
        else world_build_chunk_lod(w, cx, cz, lod, 12.5, &m, &t);
        WorldStats s1 = world_stats(w);
        world_free_mesh(w, &m);
        if (i < 0) continue;
        slabs += s1.slabs_in_use - s0.slabs_in_use;
        dens[i] = t.density_ms;
        mesh[i] = t.mesh_ms;
        tot[i] = t.density_ms + t.mesh_ms;
        /* Mesh time per visible face, every face counted before any merging (clouds' too). */
        per_face[i] = t.faces ? t.mesh_ms * 1e6 / (double)t.faces : 0.0;
        faces += t.faces;
        verts += t.opaque_verts;
        cverts += t.cloud_verts;
        if (t.opaque_verts + t.cloud_verts > maxv) maxv = t.opaque_verts + t.cloud_verts;
        skipped += t.cells_total ? (double)t.cells_skipped / t.cells_total : 0.0;
    }
    printf("{\"bench\":\"chunk\",\"slab\":\"%s\",\"lod\":%d,\"y_range\":[%d,%d],\"chunks\":%d,\"caves\":%u,"
           "\"clouds\":%s,\"noise_path\":\"%s\",\n"
           " \"density_ms\":{\"median\":%.4f,\"p99\":%.4f},\"mesh_ms\":{\"median\":%.4f,\"p99\":%.4f},"
           "\"total_ms\":{\"median\":%.4f,\"p99\":%.4f},\"mesh_ns_per_face\":{\"median\":%.2f},\n"
           " \"faces_per_chunk\":%.0f,\"opaque_verts_per_chunk\":%.0f,\"cloud_verts_per_chunk\":%.0f,"
           "\"max_verts\":%.0f,\"bytes_per_chunk\":%.0f,\"slabs_per_chunk\":%.2f,\"cells_skipped\":%.3f}\n",
           label, lod, WORLD_Y_MIN, y_max, n, caves, clouds ? "true" : "false", noise_simd_path(), pct(dens, n, 0.5),
           pct(dens, n, 0.99), pct(mesh, n, 0.5), pct(mesh, n, 0.99), pct(tot, n, 0.5), pct(tot, n, 0.99), pct(per_face, n, 0.5),
           faces / n, verts / n, cverts / n, maxv, (verts + cverts) / n * sizeof(WorldVertex), slabs / n, skipped / n);
    free(dens);
    free(mesh);
    free(tot);
    free(per_face);
    world_destroy(w);
    mem_budget_release(&b);
    return 0;
}

int bench_chunk(int argc, char **argv) {
    int n = 300, only = 0;
    bool lods = true;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--chunks") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--slab64")) only = 64;
        else if (!strcmp(argv[i], "--full")) only = WORLD_Y_MAX;
        else if (!strcmp(argv[i], "--no-lod")) lods = false;
        else {
            fprintf(stderr, "usage: bench chunk [--chunks N] [--slab64|--full] [--no-lod]\n");
            return 2;
        }
    }
    if (n < 10) n = 10;
    int rc = 0;
    if (!only || only == 64) rc |= run("32x32x64", 64, n, 20, WORLD_CAVES_TUBES, true, -1);
    if (!only || only == WORLD_Y_MAX) rc |= run("full", WORLD_Y_MAX, n, 20, WORLD_CAVES_TUBES, true, -1);
    /* The streamer's meshes: LOD 0 with seam faces, then the coarse LODs. */
    for (int lod = 0; lods && lod <= WORLD_LOD_MAX; lod++)
        rc |= run("full", WORLD_Y_MAX, n, 20, WORLD_CAVES_TUBES, true, lod);
    return rc;
}
