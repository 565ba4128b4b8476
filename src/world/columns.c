/* skyisles world: what a chunk's fill leaves per column once its voxels stand (voxels.c): the
 * highest rock layer of each column (the pseudo-AO's sky occlusion), the colour jitter, biome
 * weights and home-island types and colours at the sample columns; and the voxel-code view of the
 * bit rows for tests and tools. */
#include "world/world_internal.h"

#include <string.h>

/* Highest solid coarse layer per column (the pseudo-AO's sky occlusion). */
void gen_column_tops(ChunkScratch *s) {
    const int nz = s->n + 2;
    const uint64_t full = (1ull << nz) - 1ull;
    for (int z = 0; z < WV_ROW; z++)
        for (int x = 0; x < WV_ROW; x++) s->top[z][x] = -1;
    /* Row by row from the top down, each row ending once all its columns met rock (near the
     * surface for most rows), from the highest layer the fill wrote rock into in that row. */
    for (int z = 0; z < nz; z++) {
        uint64_t open = full;
        int16_t *top = s->top[z];
        for (int Y = s->row_top[z] - 1; Y >= 0 && open; Y--) {
            uint64_t hit = s->solid[Y + 1][z] & open;
            if (!hit) continue;
            open &= ~hit;
            while (hit) {
                top[__builtin_ctzll(hit)] = (int16_t)Y;
                hit &= hit - 1;
            }
        }
    }
}

/* W6 colour jitter, biome weights and the home island's location types at the sample columns.
 * The home island keeps its own colours: its columns count as temperate. */
void gen_column_colours(const WorldGen *g, ChunkScratch *s) {
    const int64_t bx0 = s->cx * CHUNK_SIZE, bz0 = s->cz * CHUNK_SIZE;
    const NoiseFx fj = g->f_jitter;
    gen_biome_chunk(g, bx0, bz0, s->scale, s->off, s->n, s->biome_w);
    /* The jitter's rows as one call (row z at bz0 + z * scale + off: the row calls' values). */
    noise_simplex2_rows_w(g->s_jitter, noise_wide_mul_int(fj, bx0 + s->off), noise_fx_mul_int(fj, s->scale),
                          noise_wide_mul_int(fj, bz0 + s->off), noise_fx_mul_int(fj, s->scale), &s->jitter[0][0], CHUNK_SIZE,
                          s->n, s->n);
    if (!g->isl.on) {   /* no home island: every column off it, its weights the biomes' */
        memset(s->home_type, ISLAND_FIELD_OFF, sizeof s->home_type);
        memset(s->home_rgb, 0, sizeof s->home_rgb);
        return;
    }
    for (int z = 0; z < s->n; z++) {
        int64_t bz = bz0 + z * s->scale + s->off;
        for (int x = 0; x < s->n; x++) {
            uint8_t t = gen_home_type(g, bx0 + x * s->scale + s->off, bz);
            s->home_type[z][x] = t;
            int64_t bx = bx0 + x * s->scale + s->off;
            s->home_rgb[z][x] = t < ISLAND_FIELD_MAX_TYPES ? gen_home_rgb(g, bx, bz, t)
                                : t == WORLD_HOME_STRIP   ? gen_home_strip_rgb(g, bx, bz)
                                                          : 0u;
            if (t != ISLAND_FIELD_OFF) {
                float *w = s->biome_w[z][x];
                w[BIOME_TEMPERATE] = 1.0f;
                for (int b = 1; b < BIOME_COUNT; b++) w[b] = 0.0f;
            }
        }
    }
}

/* Voxel codes (WorldMaterial) for tests and tools, from the bit rows (coarse at LOD > 0:
 * layer Y at index y = WORLD_Y_MIN + Y); a pool's blocks are water. */
void gen_fill_vox(const WorldGen *g, ChunkScratch *s) {
    (void)g;
    memset(s->vox, 0, sizeof s->vox);
    for (int Y = -1; Y <= s->ny && Y < WV_H - 1; Y++)
        for (int z = -1; z <= s->n; z++)
            for (int x = -1; x <= s->n; x++) {
                int yi = Y + 1;
                uint64_t bit = 1ull << (x + 1);
                uint8_t m = WORLD_MAT_AIR;
                if (s->solid[yi][z + 1] & bit) m = gen_material(g, s, x, Y, z);
                else if (gen_pool_water(s, x, WORLD_Y_MIN + Y, z)) m = WORLD_MAT_WATER;   /* LOD 0 only */
                else if (s->cloud[yi][z + 1] & bit) m = WORLD_MAT_CLOUD;
                s->vox[WV_INDEX(x, WORLD_Y_MIN + Y, z)] = m;
            }
}
