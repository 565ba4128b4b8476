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

/* --merge: how much greedy merging could take away without a visible change. A face is a unit
 * quad of the opaque pass whose four vertices carry one colour and one flags byte (AO level and
 * material: a uniform face, so its AO rotation is 0 and no interpolation runs across it); two
 * faces can merge when they are uniform, coplanar (same normal and plane) and side by side with
 * the same colour and flags. Counted per chunk, then summed: faces with a neighbour to merge
 * with, and the quads a greedy rectangle merge would leave (every other face stays one quad). */
typedef struct MergeFace {
    uint64_t key;   /* normal, plane, b, a (the two in-plane axes), 12 bits each from bit 0 */
    uint32_t rgba;
    uint8_t flags, used;
} MergeFace;
typedef struct MergeStats { double faces, uniform, mergeable, greedy_quads; } MergeStats;

static int cmp_face(const void *a, const void *b) {
    uint64_t x = ((const MergeFace *)a)->key, y = ((const MergeFace *)b)->key;
    return x < y ? -1 : x > y;
}

static uint64_t face_key(int n, int plane, int a, int b) {
    return (uint64_t)n << 36 | (uint64_t)(plane & 4095) << 24 | (uint64_t)(b & 4095) << 12 | (uint64_t)(a & 4095);
}

static MergeFace *find_face(MergeFace *f, size_t nf, uint64_t key) {
    MergeFace k = {key, 0, 0, 0};
    return bsearch(&k, f, nf, sizeof *f, cmp_face);
}

static bool same_look(const MergeFace *a, const MergeFace *b) { return b && !b->used && a->rgba == b->rgba && a->flags == b->flags; }

static void merge_count(const ChunkMesh *m, MergeFace *f, size_t cap, MergeStats *st) {
    size_t nf = 0;
    for (uint32_t p = 0; p < m->opaque_parts; p++)
        for (uint32_t q = 0; q + 4 <= m->parts[p].vert_count; q += 4) {
            const WorldVertex *v = &m->parts[p].verts[q];
            int c[3] = {v[0].x, v[0].y, v[0].z}, lo[3] = {c[0], c[1], c[2]}, hi[3] = {c[0], c[1], c[2]};
            bool uni = true;
            for (int i = 1; i < 4; i++) {
                int d[3] = {v[i].x, v[i].y, v[i].z};
                for (int k = 0; k < 3; k++) lo[k] = d[k] < lo[k] ? d[k] : lo[k], hi[k] = d[k] > hi[k] ? d[k] : hi[k];
                uni = uni && !memcmp(&v[i].flags, &v[0].flags, 5);
            }
            int ax = v[0].normal / 2, a0 = ax == 0 ? 1 : 0, b0 = ax == 2 ? 1 : 2;
            bool unit = hi[ax] == lo[ax] && hi[a0] - lo[a0] == 1 && hi[b0] - lo[b0] == 1;
            if (!unit) continue;   /* an object's box: not a voxel face */
            st->faces++;
            if (!uni || nf == cap) { st->greedy_quads++; continue; }
            st->uniform++;
            MergeFace *e = &f[nf++];
            e->key = face_key(v[0].normal, lo[ax] + 8, lo[a0] + 8, lo[b0] + 8);
            memcpy(&e->rgba, &v[0].r, 4);
            e->flags = v[0].flags;
            e->used = 0;
        }
    qsort(f, nf, sizeof *f, cmp_face);
    for (size_t i = 0; i < nf; i++) {   /* a neighbour of the same look on any side */
        uint64_t k = f[i].key;
        const uint64_t da = 1, db = 1ull << 12;
        MergeFace *nb[4] = {find_face(f, nf, k + da), find_face(f, nf, k - da), find_face(f, nf, k + db), find_face(f, nf, k - db)};
        bool any = false;
        for (int j = 0; j < 4; j++) any = any || same_look(&f[i], nb[j]);
        st->mergeable += any;
    }
    for (size_t i = 0; i < nf; i++) {   /* greedy rectangles: widest run along a, then rows along b */
        if (f[i].used) continue;
        int w = 1, h = 1;
        f[i].used = 1;
        for (MergeFace *e; (e = find_face(f, nf, f[i].key + (uint64_t)w)) && same_look(&f[i], e); w++) e->used = 1;
        for (;; h++) {
            uint64_t row = f[i].key + ((uint64_t)h << 12);
            int k = 0;
            while (k < w && same_look(&f[i], find_face(f, nf, row + (uint64_t)k))) k++;
            if (k < w) break;
            for (k = 0; k < w; k++) find_face(f, nf, row + (uint64_t)k)->used = 1;
        }
        st->greedy_quads++;
    }
}

/* lod < 0: world_build_chunk (classic LOD 0); else world_build_chunk_lod. */
static bool g_merge;   /* --merge: count what greedy merging could take away */
static bool g_hash;    /* --hash: an FNV-1a hash of every mesh's vertices, parts in order */

static uint64_t mesh_hash(uint64_t h, const ChunkMesh *m) {
    for (uint32_t p = 0; p < m->opaque_parts + m->cloud_parts; p++) {
        h = hash_fnv1a64(m->parts[p].verts, (size_t)m->parts[p].vert_count * sizeof(WorldVertex), h);
        h = (h ^ m->parts[p].vert_count) * 0x100000001b3ull;
    }
    return h;
}

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
    const size_t mcap = (size_t)1 << 17;
    MergeFace *mf = g_merge ? calloc(mcap, sizeof *mf) : NULL;
    MergeStats ms = {0, 0, 0, 0};
    uint64_t hash = 0xcbf29ce484222325ull;
    for (int i = -warm; i < n; i++) {
        int32_t cx, cz;
        spiral(i < 0 ? -i : i, &cx, &cz);
        ChunkMesh m;
        WorldBuildTiming t;
        WorldStats s0 = world_stats(w);
        if (lod < 0) world_build_chunk(w, cx, cz, 12.5, &m, &t);
        else world_build_chunk_lod(w, cx, cz, lod, 12.5, &m, &t);
        WorldStats s1 = world_stats(w);
        if (mf && i >= 0) merge_count(&m, mf, mcap, &ms);
        if (g_hash && i >= 0) hash = mesh_hash(hash, &m);
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
    if (g_hash) printf("{\"bench\":\"chunk_hash\",\"slab\":\"%s\",\"lod\":%d,\"chunks\":%d,\"mesh_hash\":\"%016llx\"}\n", label, lod, n,
                       (unsigned long long)hash);
    if (mf)
        printf("{\"bench\":\"chunk_merge\",\"slab\":\"%s\",\"lod\":%d,\"chunks\":%d,\"voxel_faces_per_chunk\":%.0f,"
               "\"uniform_share\":%.3f,\"mergeable_share\":%.3f,\"greedy_quads_per_chunk\":%.0f,\"greedy_quad_ratio\":%.3f}\n",
               label, lod, n, ms.faces / n, ms.uniform / ms.faces, ms.mergeable / ms.faces, ms.greedy_quads / n,
               ms.greedy_quads / ms.faces);
    free(mf);
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
        else if (!strcmp(argv[i], "--merge")) g_merge = true;
        else if (!strcmp(argv[i], "--hash")) g_hash = true;
        else {
            fprintf(stderr, "usage: bench chunk [--chunks N] [--slab64|--full] [--no-lod] [--merge] [--hash]\n");
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
