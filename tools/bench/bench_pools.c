/* skyisles bench `pools`: what the point query of the water (world_water_top, asked by the
 * collision every sim step) costs in open sky, in cave air near the pools and in a pool's water.
 * The default world's chunks from (-4, -4) give the pools; each case's points run through its
 * chunks in turn (every query a first one in its chunk when more chunks hold pools than a query
 * keeps), then a pool's block asked again and again (a sim step's repeat). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "world/world.h"

#define PB_SAMPLE 8
#define PB_CHUNKS 16          /* chunks with pools used */
#define PB_PER_CHUNK 24       /* points per chunk and case */
#define PB_H (WORLD_Y_MAX - WORLD_Y_MIN)
#define PB_VI(x, y, z) ((((y) - WORLD_Y_MIN + 1) * WORLD_VOX_ROW + ((z) + 1)) * WORLD_VOX_ROW + ((x) + 1))

typedef struct PbPoint { double x, y, z; } PbPoint;

static int pb_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Air (not rock, not water) with rock within 3 blocks under it and within 10 over it. */
static int g_pb_lo;   /* the lowest layer a pool may hold (cave_min_y) */

static bool pb_cave_air(const uint8_t *v, int x, int y, int z) {
    if (y < g_pb_lo || y >= WORLD_Y_MAX - 11) return false;
    if (v[PB_VI(x, y, z)] >= WORLD_MAT_ABYSS || v[PB_VI(x, y, z)] == WORLD_MAT_WATER) return false;
    bool under = false, over = false;
    for (int k = 1; k <= 3; k++) under |= v[PB_VI(x, y - k, z)] >= WORLD_MAT_ABYSS;
    for (int k = 1; k <= 10; k++) over |= v[PB_VI(x, y + k, z)] >= WORLD_MAT_ABYSS;
    return under && over;
}

/* Each chunk's points of a case, up to PB_PER_CHUNK, spread over its blocks. */
static uint32_t pb_collect(const uint8_t *v, int64_t cx, int64_t cz, bool water, PbPoint *out) {
    uint32_t n = 0, seen = 0;
    for (int y = WORLD_Y_MIN; y < WORLD_Y_MAX - 1; y++)
        for (int z = 0; z < CHUNK_SIZE; z++)
            for (int x = 0; x < CHUNK_SIZE; x++) {
                bool want = water ? v[PB_VI(x, y, z)] == WORLD_MAT_WATER : pb_cave_air(v, x, y, z);
                if (!want || (!water && (seen++ % 7) != 0) || n == PB_PER_CHUNK) continue;
                out[n++] = (PbPoint){(double)(cx * CHUNK_SIZE + x) + 0.5, (double)y + 0.25, (double)(cz * CHUNK_SIZE + z) + 0.5};
            }
    return n;
}

/* The points taken chunk by chunk in turn: every query in another chunk than the one before. */
static void pb_run(const World *w, const char *name, PbPoint pts[][PB_PER_CHUNK], const uint32_t *np, uint32_t nc,
                   double *us) {
    uint32_t n = 0, hits = 0;
    for (uint32_t k = 0; k < PB_PER_CHUNK; k++)
        for (uint32_t c = 0; c < nc; c++) {
            if (k >= np[c]) continue;
            uint64_t t0 = time_now_ns();
            hits += world_water_top(w, pts[c][k].x, pts[c][k].y, pts[c][k].z) != 0;
            us[n++] = (double)(time_now_ns() - t0) * 1e-3;
        }
    if (!n) {
        printf("{\"bench\": \"pools\", \"case\": \"%s\", \"points\": 0}\n", name);
        return;
    }
    qsort(us, n, sizeof *us, pb_cmp);
    printf("{\"bench\": \"pools\", \"case\": \"%s\", \"points\": %u, \"chunks\": %u, \"water\": %u, "
           "\"us\": {\"p50\": %.2f, \"p90\": %.2f, \"max\": %.2f}}\n",
           name, n, nc, hits, us[n / 2], us[(n * 9) / 10], us[n - 1]);
}

int bench_pools(int argc, char **argv) {
    if (argc > 1) {
        fprintf(stderr, "bench pools: unknown option %s (usage: bench pools)\n", argv[1]);
        return 2;
    }
    MemBudget b;
    SkyError err = {0};
    if (!mem_budget_init(&b, (size_t)48 << 20, &err)) {
        fprintf(stderr, "bench pools: %s\n", err.msg);
        return 1;
    }
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 2;
    p.create.mesh_pool_mib = 16;
    World *w = world_create(&b, NULL, &p, NULL, &err);
    g_pb_lo = (int)p.gen.cave_min_y > WORLD_Y_MIN + 4 ? (int)p.gen.cave_min_y : WORLD_Y_MIN + 4;
    static PbPoint water[PB_CHUNKS][PB_PER_CHUNK], cave[PB_CHUNKS][PB_PER_CHUNK], sky[PB_CHUNKS][PB_PER_CHUNK];
    static uint32_t nw[PB_CHUNKS], ncv[PB_CHUNKS], ns[PB_CHUNKS];
    static double us[PB_CHUNKS * PB_PER_CHUNK];
    if (!w) {
        fprintf(stderr, "bench pools: %s\n", err.msg);
        return 1;
    }
    uint32_t nc = 0;
    for (int64_t cz = -4; cz < -4 + PB_SAMPLE && nc < PB_CHUNKS; cz++)
        for (int64_t cx = -4; cx < -4 + PB_SAMPLE && nc < PB_CHUNKS; cx++) {
            ChunkMesh m = {0};
            WorldBuildTiming t;
            if (!world_build_chunk(w, cx, cz, 0.0, &m, &t)) continue;
            int32_t hh = 0;
            const uint8_t *v = world_debug_voxels(w, &hh);
            nw[nc] = pb_collect(v, cx, cz, true, water[nc]);
            if (nw[nc]) ncv[nc] = pb_collect(v, cx, cz, false, cave[nc]), nc++;
            world_free_mesh(w, &m);
        }
    /* Sky: 40..120 high over the whole sample, where the field is air. */
    for (uint32_t c = 0; c < PB_CHUNKS; c++)
        for (uint32_t k = 0; k < PB_PER_CHUNK; k++) {
            uint32_t i = c * PB_PER_CHUNK + k;
            PbPoint q = {-128.0 + fmod(i * 37.77, 256.0), 40.0 + fmod(i * 3.1, 80.0), -128.0 + fmod(i * 91.3, 256.0)};
            if (world_solid_at(w, q.x, q.y, q.z)) continue;
            sky[c][ns[c]++] = q;
        }
    pb_run(w, "open_sky", sky, ns, PB_CHUNKS, us);
    pb_run(w, "cave_air", cave, ncv, nc, us);
    pb_run(w, "pool_water", water, nw, nc, us);
    /* The same pool block asked again (a sim step's repeat over its flight's few blocks). */
    uint32_t n = 0;
    for (uint32_t c = 0; c < nc && n < PB_PER_CHUNK * PB_CHUNKS; c++)
        for (int r = 0; r < 16; r++) {
            uint64_t t0 = time_now_ns();
            (void)world_water_top(w, water[c][0].x, water[c][0].y, water[c][0].z);
            us[n++] = (double)(time_now_ns() - t0) * 1e-3;
        }
    if (n) {
        qsort(us, n, sizeof *us, pb_cmp);
        printf("{\"bench\": \"pools\", \"case\": \"pool_water_again\", \"points\": %u, \"us\": {\"p50\": %.2f, \"p90\": %.2f, "
               "\"max\": %.2f}}\n",
               n, us[n / 2], us[(n * 9) / 10], us[n - 1]);
    }
    world_destroy(w);
    mem_budget_release(&b);
    return 0;
}
