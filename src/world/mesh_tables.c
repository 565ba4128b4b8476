/* skyisles world: the terrain pass's tables, built once: W6 and biome palettes laid out per face
 * material (every biome's base and jitter factor side by side, desert strata folded in per
 * height band), the per-vertex AO entries of a 3x3 front ring and their flag bits, and the face
 * material of a voxel material per normal. */
#include "world/mesh_internal.h"

#include <pthread.h>

/* W6 base colours as base + jitter * k per channel (the seed's formulas: a channel without
 * jitter has k = 0, and c + j * 0 is c exactly). Home colours come from the field per column. */
static const float k_mat_base[WORLD_MAT_COUNT][3] = {
    [WORLD_MAT_GRASS] = {0.3f, 0.5f, 0.2f},   /* seed 000 */
    [WORLD_MAT_CLIFF] = {0.46f, 0.39f, 0.3f},
    [WORLD_MAT_DIRT] = {0.42f, 0.31f, 0.2f},
    [WORLD_MAT_STONE] = {0.47f, 0.46f, 0.5f},
    [WORLD_MAT_SNOW] = {0.9f, 0.93f, 0.97f},
    [WORLD_MAT_ABYSS] = {0.07f, 0.07f, 0.09f},   /* the abyss: near-black */
    [WORLD_MAT_AIR] = {0.07f, 0.07f, 0.09f},
    [WORLD_MAT_CLOUD] = {0.07f, 0.07f, 0.09f},
};
static const float k_mat_jit[WORLD_MAT_COUNT][3] = {
    [WORLD_MAT_GRASS] = {1.0f, 1.0f, 0.0f},
    [WORLD_MAT_CLIFF] = {0.6f, 0.6f, 0.0f},
    [WORLD_MAT_DIRT] = {1.0f, 1.0f, 0.0f},
    [WORLD_MAT_STONE] = {0.5f, 0.5f, 0.5f},
    [WORLD_MAT_SNOW] = {0.3f, 0.3f, 0.0f},
    [WORLD_MAT_HOME] = {0.5f, 0.5f, 0.3f},
};

/* Biome palettes (W6, C4) for the materials of the archipelago's land; the abyss, clouds and the
 * home island keep theirs. Temperate is the table above, bit for bit (a column of weight 1 takes
 * it directly). The others: snowy whites and greys, desert ochre sand over red rock, jungle deep
 * greens over mossy rock. Colour and jitter factor both blend by the column's weights. Above the
 * snow line the desert's "snow" is pale sand (a mesa top, not a glacier). */
static const float k_bio_base[BIOME_COUNT][WORLD_MAT_COUNT][3] = {
    [BIOME_SNOWY] = {[WORLD_MAT_GRASS] = {0.84f, 0.87f, 0.92f}, [WORLD_MAT_CLIFF] = {0.56f, 0.57f, 0.62f},
                     [WORLD_MAT_DIRT] = {0.5f, 0.5f, 0.54f}, [WORLD_MAT_STONE] = {0.44f, 0.45f, 0.5f},
                     [WORLD_MAT_SNOW] = {0.93f, 0.95f, 0.99f}},
    [BIOME_DESERT] = {[WORLD_MAT_GRASS] = {0.8f, 0.62f, 0.38f}, [WORLD_MAT_CLIFF] = {0.74f, 0.42f, 0.26f},
                      [WORLD_MAT_DIRT] = {0.7f, 0.44f, 0.27f}, [WORLD_MAT_STONE] = {0.62f, 0.38f, 0.26f},
                      [WORLD_MAT_SNOW] = {0.9f, 0.8f, 0.62f}},   /* high mesa tops: pale sand */
    [BIOME_JUNGLE] = {[WORLD_MAT_GRASS] = {0.13f, 0.38f, 0.12f}, [WORLD_MAT_CLIFF] = {0.32f, 0.34f, 0.2f},
                      [WORLD_MAT_DIRT] = {0.32f, 0.22f, 0.13f}, [WORLD_MAT_STONE] = {0.36f, 0.4f, 0.34f},
                      [WORLD_MAT_SNOW] = {0.9f, 0.93f, 0.97f}},
};
static const float k_bio_jit[BIOME_COUNT][WORLD_MAT_COUNT][3] = {
    [BIOME_SNOWY] = {[WORLD_MAT_GRASS] = {0.3f, 0.3f, 0.3f}, [WORLD_MAT_CLIFF] = {0.4f, 0.4f, 0.4f},
                     [WORLD_MAT_DIRT] = {0.4f, 0.4f, 0.4f}, [WORLD_MAT_STONE] = {0.5f, 0.5f, 0.5f},
                     [WORLD_MAT_SNOW] = {0.2f, 0.2f, 0.2f}},
    [BIOME_DESERT] = {[WORLD_MAT_GRASS] = {0.6f, 0.5f, 0.3f}, [WORLD_MAT_CLIFF] = {0.4f, 0.3f, 0.2f},
                      [WORLD_MAT_DIRT] = {0.6f, 0.4f, 0.2f}, [WORLD_MAT_STONE] = {0.5f, 0.4f, 0.3f},
                      [WORLD_MAT_SNOW] = {0.3f, 0.3f, 0.0f}},
    [BIOME_JUNGLE] = {[WORLD_MAT_GRASS] = {0.6f, 1.0f, 0.3f}, [WORLD_MAT_CLIFF] = {0.6f, 0.6f, 0.3f},
                      [WORLD_MAT_DIRT] = {0.8f, 0.6f, 0.3f}, [WORLD_MAT_STONE] = {0.5f, 0.5f, 0.5f},
                      [WORLD_MAT_SNOW] = {0.3f, 0.3f, 0.0f}},
};
/* Desert mesas: the side faces of rock (cliff, dirt, stone) in bands of red and ochre strata,
 * three blocks each, by height (at any LOD the voxel's sample height). */
static const float k_strata[MESH_BANDS][3] = {
    {0.78f, 0.45f, 0.28f}, {0.86f, 0.62f, 0.4f}, {0.68f, 0.35f, 0.22f}, {0.88f, 0.72f, 0.5f},
    {0.74f, 0.41f, 0.3f},  {0.62f, 0.3f, 0.2f},  {0.84f, 0.56f, 0.34f}, {0.77f, 0.5f, 0.33f},
};
#define STRATA_MATS ((1u << WORLD_MAT_CLIFF) | (1u << WORLD_MAT_DIRT) | (1u << WORLD_MAT_STONE))

/* The material a face shows: side faces of a surface voxel show exposed earth (the cliff
 * colour), undersides stone. */
static uint8_t face_material(uint8_t mat, int normal) {
    if (normal == WORLD_NORMAL_NY && mat != WORLD_MAT_ABYSS) return WORLD_MAT_STONE;
    if (normal != WORLD_NORMAL_PY && (mat == WORLD_MAT_GRASS || mat == WORLD_MAT_SNOW)) return WORLD_MAT_CLIFF;
    return mat;
}

MeshTables g_mesh_tab;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

/* Per-vertex AO of a face from its 3x3 front ring (bit a * 3 + b, offsets -1..1; `transposed`
 * when (U, V) read it as G[dv][du]): for each corner k, two side neighbours and the corner one,
 * ao = s1 && s2 ? 0 : 3 - (s1 + s2 + c). The quad is rotated so its 0-2 diagonal joins the
 * brighter pair: vertex i is corner (i + rot) & 3. An entry holds vertex i's ao in bits
 * 2i..2i+1 of its index (MESH_AO_SHIFT up) and rot as MESH_AO_ROT. */
static void ao_init(MeshTables *t) {
    for (int tr = 0; tr < 2; tr++)
        for (uint32_t gm = 0; gm < 512; gm++) {
#define OCC(du, dv) (tr ? ((gm >> (((dv) + 1) * 3 + (du) + 1)) & 1u) : ((gm >> (((du) + 1) * 3 + (dv) + 1)) & 1u))
            uint32_t ao[4];
            for (int k = 0; k < 4; k++) {
                int du = k_cu[k] ? 1 : -1, dv = k_cv[k] ? 1 : -1;
                uint32_t s1 = OCC(du, 0), s2 = OCC(0, dv), cn = OCC(du, dv);
                ao[k] = (s1 && s2) ? 0 : 3 - (s1 + s2 + cn);
            }
#undef OCC
            uint32_t rot = ao[0] + ao[2] < ao[1] + ao[3] ? 1u : 0u, e = 0;
            for (int i = 0; i < 4; i++) e |= ao[(i + rot) & 3] << (2 * i);
            t->ao_lut[tr][gm] = (uint16_t)(e << MESH_AO_SHIFT | rot * MESH_AO_ROT);
        }
    for (int e = 0; e < 256; e++)
        for (int i = 0; i < 4; i++) t->ao_flags[e][i] = (uint64_t)((e >> (2 * i)) & 3) << 56;
}

/* The palette of face material fm in variant v (0: top and bottom faces, 1 + band: side faces,
 * whose desert rock shows the strata): biome b's base in row b, its jitter factor in row 4 + b.
 * Temperate is the W6 table; the home island's base is per column (the mesher's). */
static void pal_init(MeshTables *t) {
    for (int v = 0; v < 1 + MESH_BANDS; v++)
        for (int fm = 0; fm < WORLD_MAT_COUNT; fm++) {
            float(*p)[4] = t->pal[v][fm];
            memset(p, 0, sizeof t->pal[v][fm]);
            for (int c = 0; c < 3; c++) {
                p[BIOME_TEMPERATE][c] = k_mat_base[fm][c];
                p[4 + BIOME_TEMPERATE][c] = k_mat_jit[fm][c];
                for (int b = 1; b < BIOME_COUNT; b++) {
                    bool strata = b == BIOME_DESERT && v > 0 && ((STRATA_MATS >> fm) & 1u);
                    p[b][c] = strata ? k_strata[v - 1][c] : k_bio_base[b][fm][c];
                    p[4 + b][c] = k_bio_jit[b][fm][c];
                }
            }
            /* Alpha: every base's lane 3 is far above 32767 (the biome weights sum to 1), so the
             * mesher's 16-bit colour steps saturate it to 255 with no mask of their own. */
            for (int b = 0; b < BIOME_COUNT; b++) p[b][3] = MESH_ALPHA_BASE;
        }
}

static void tables_init(void) {
    MeshTables *t = &g_mesh_tab;
    ao_init(t);
    pal_init(t);
    for (int n = 0; n < 6; n++)
        for (int m = 0; m < WORLD_MAT_COUNT; m++) t->face_mat[n][m] = face_material((uint8_t)m, n);
}

void mesh_tables_init(void) { pthread_once(&g_once, tables_init); }
