/* skyisles world: the mesher. One quad per exposed face of the chunk's voxels at its LOD (bit
 * rows with a neighbour apron, LOD seam faces on borders), W6 colour and AO, 12-byte vertices
 * in fixed pool slabs. */
#include "world/mesh_internal.h"

#include <pthread.h>
#include <string.h>

#include "noise/simd.h"

/* to_u8(v) for the four vertices of a quad, per channel vector: the same multiply, add and
 * truncation, and u32x4_pack_rgba's clamp to 0..255 is to_u8's: v <= 0 gives t <= 0.5, hence 0
 * or less; v >= 1 gives t >= 255.5, hence 255 or more; in between (uint8_t)t. (Colours stay
 * far inside the int32 range; a NaN would give 0 as to_u8 does.) */
static inline u32x4 to_u8x4_raw(f32x4 v) {
    return f32x4_to_i32_trunc(f32x4_add(f32x4_mul(v, f32x4_set1(255.0f)), f32x4_set1(0.5f)));
}

/* W6 base colours as base + jitter * k per channel (the seed's formulas: a channel without
 * jitter has k = 0, and c + j * 0 is c exactly). Home colours come from the field per column.
 * Four lanes per row (the fourth 0) so a face's colour is one vector. */
static const float k_mat_base[WORLD_MAT_COUNT][4] __attribute__((aligned(16))) = {
    [WORLD_MAT_GRASS] = {0.3f, 0.5f, 0.2f, 0.0f},   /* seed 000 */
    [WORLD_MAT_CLIFF] = {0.46f, 0.39f, 0.3f, 0.0f},
    [WORLD_MAT_DIRT] = {0.42f, 0.31f, 0.2f, 0.0f},
    [WORLD_MAT_STONE] = {0.47f, 0.46f, 0.5f, 0.0f},
    [WORLD_MAT_SNOW] = {0.9f, 0.93f, 0.97f, 0.0f},
    [WORLD_MAT_ABYSS] = {0.07f, 0.07f, 0.09f, 0.0f},   /* the abyss: near-black */
    [WORLD_MAT_AIR] = {0.07f, 0.07f, 0.09f, 0.0f},
    [WORLD_MAT_CLOUD] = {0.07f, 0.07f, 0.09f, 0.0f},
};
static const float k_mat_jit[WORLD_MAT_COUNT][4] __attribute__((aligned(16))) = {
    [WORLD_MAT_GRASS] = {1.0f, 1.0f, 0.0f, 0.0f},
    [WORLD_MAT_CLIFF] = {0.6f, 0.6f, 0.0f, 0.0f},
    [WORLD_MAT_DIRT] = {1.0f, 1.0f, 0.0f, 0.0f},
    [WORLD_MAT_STONE] = {0.5f, 0.5f, 0.5f, 0.0f},
    [WORLD_MAT_SNOW] = {0.3f, 0.3f, 0.0f, 0.0f},
    [WORLD_MAT_HOME] = {0.5f, 0.5f, 0.3f, 0.0f},
};

/* Biome palettes (W6, C4) for the materials of the archipelago's land; the abyss, clouds and the
 * home island keep theirs. Temperate is the table above, bit for bit (a column of weight 1 takes
 * it directly). The others: snowy whites and greys, desert ochre sand over red rock, jungle deep
 * greens over mossy rock. Colour and jitter factor both blend by the column's weights. Above the
 * snow line the desert's "snow" is pale sand (a mesa top, not a glacier). */
static const float k_bio_base[BIOME_COUNT][WORLD_MAT_COUNT][4] __attribute__((aligned(16))) = {
    [BIOME_SNOWY] = {[WORLD_MAT_GRASS] = {0.84f, 0.87f, 0.92f, 0.0f}, [WORLD_MAT_CLIFF] = {0.56f, 0.57f, 0.62f, 0.0f},
                     [WORLD_MAT_DIRT] = {0.5f, 0.5f, 0.54f, 0.0f}, [WORLD_MAT_STONE] = {0.44f, 0.45f, 0.5f, 0.0f},
                     [WORLD_MAT_SNOW] = {0.93f, 0.95f, 0.99f, 0.0f}},
    [BIOME_DESERT] = {[WORLD_MAT_GRASS] = {0.8f, 0.62f, 0.38f, 0.0f}, [WORLD_MAT_CLIFF] = {0.74f, 0.42f, 0.26f, 0.0f},
                      [WORLD_MAT_DIRT] = {0.7f, 0.44f, 0.27f, 0.0f}, [WORLD_MAT_STONE] = {0.62f, 0.38f, 0.26f, 0.0f},
                      [WORLD_MAT_SNOW] = {0.9f, 0.8f, 0.62f, 0.0f}},   /* high mesa tops: pale sand */
    [BIOME_JUNGLE] = {[WORLD_MAT_GRASS] = {0.13f, 0.38f, 0.12f, 0.0f}, [WORLD_MAT_CLIFF] = {0.32f, 0.34f, 0.2f, 0.0f},
                      [WORLD_MAT_DIRT] = {0.32f, 0.22f, 0.13f, 0.0f}, [WORLD_MAT_STONE] = {0.36f, 0.4f, 0.34f, 0.0f},
                      [WORLD_MAT_SNOW] = {0.9f, 0.93f, 0.97f, 0.0f}},
};
static const float k_bio_jit[BIOME_COUNT][WORLD_MAT_COUNT][4] __attribute__((aligned(16))) = {
    [BIOME_SNOWY] = {[WORLD_MAT_GRASS] = {0.3f, 0.3f, 0.3f, 0.0f}, [WORLD_MAT_CLIFF] = {0.4f, 0.4f, 0.4f, 0.0f},
                     [WORLD_MAT_DIRT] = {0.4f, 0.4f, 0.4f, 0.0f}, [WORLD_MAT_STONE] = {0.5f, 0.5f, 0.5f, 0.0f},
                     [WORLD_MAT_SNOW] = {0.2f, 0.2f, 0.2f, 0.0f}},
    [BIOME_DESERT] = {[WORLD_MAT_GRASS] = {0.6f, 0.5f, 0.3f, 0.0f}, [WORLD_MAT_CLIFF] = {0.4f, 0.3f, 0.2f, 0.0f},
                      [WORLD_MAT_DIRT] = {0.6f, 0.4f, 0.2f, 0.0f}, [WORLD_MAT_STONE] = {0.5f, 0.4f, 0.3f, 0.0f},
                      [WORLD_MAT_SNOW] = {0.3f, 0.3f, 0.0f, 0.0f}},
    [BIOME_JUNGLE] = {[WORLD_MAT_GRASS] = {0.6f, 1.0f, 0.3f, 0.0f}, [WORLD_MAT_CLIFF] = {0.6f, 0.6f, 0.3f, 0.0f},
                      [WORLD_MAT_DIRT] = {0.8f, 0.6f, 0.3f, 0.0f}, [WORLD_MAT_STONE] = {0.5f, 0.5f, 0.5f, 0.0f},
                      [WORLD_MAT_SNOW] = {0.3f, 0.3f, 0.0f, 0.0f}},
};
/* Desert mesas: the side faces of rock (cliff, dirt, stone) in bands of red and ochre strata,
 * three blocks each, by height (at any LOD the voxel's sample height). */
static const float k_strata[8][4] __attribute__((aligned(16))) = {
    {0.78f, 0.45f, 0.28f, 0.0f}, {0.86f, 0.62f, 0.4f, 0.0f}, {0.68f, 0.35f, 0.22f, 0.0f}, {0.88f, 0.72f, 0.5f, 0.0f},
    {0.74f, 0.41f, 0.3f, 0.0f},  {0.62f, 0.3f, 0.2f, 0.0f},  {0.84f, 0.56f, 0.34f, 0.0f}, {0.77f, 0.5f, 0.33f, 0.0f},
};
static inline int strata_band(int by) { return (by / 3) & 7; }
/* Materials the biomes colour (bit per material). */
#define BIOME_MATS ((1u << WORLD_MAT_GRASS) | (1u << WORLD_MAT_CLIFF) | (1u << WORLD_MAT_DIRT) | \
                    (1u << WORLD_MAT_STONE) | (1u << WORLD_MAT_SNOW))
#define STRATA_MATS ((1u << WORLD_MAT_CLIFF) | (1u << WORLD_MAT_DIRT) | (1u << WORLD_MAT_STONE))

/* Base + jitter of material fm under the column's biome weights w (strata on side faces). */
static inline f32x4 biome_colour(const float *w, uint8_t fm, int n, int by, float j) {
    f32x4 jv = f32x4_set1(j);
    f32x4 acc = f32x4_mul(f32x4_set1(w[BIOME_TEMPERATE]), f32x4_add(f32x4_load(k_mat_base[fm]), f32x4_mul(jv, f32x4_load(k_mat_jit[fm]))));
    for (int b = 1; b < BIOME_COUNT; b++) {
        if (!(w[b] > 0.0f)) continue;
        const float *base = k_bio_base[b][fm];
        if (b == BIOME_DESERT && n != WORLD_NORMAL_PY && n != WORLD_NORMAL_NY && ((STRATA_MATS >> fm) & 1u))
            base = k_strata[strata_band(by)];
        f32x4 c = f32x4_add(f32x4_load(base), f32x4_mul(jv, f32x4_load(k_bio_jit[b][fm])));
        acc = f32x4_add(acc, f32x4_mul(f32x4_set1(w[b]), c));
    }
    return acc;
}

/* The material a face shows: side faces of a surface voxel show exposed earth (the cliff
 * colour), undersides stone. As a table per normal, so a face looks it up without branches. */
static uint8_t face_material(uint8_t mat, int normal) {
    if (normal == WORLD_NORMAL_NY && mat != WORLD_MAT_ABYSS) return WORLD_MAT_STONE;
    if (normal != WORLD_NORMAL_PY && (mat == WORLD_MAT_GRASS || mat == WORLD_MAT_SNOW)) return WORLD_MAT_CLIFF;
    return mat;
}
static uint8_t k_face_mat[6][WORLD_MAT_COUNT];
/* Light under a roof (some rock higher in the air cell's column): x 0.55. */
static const float k_roof_shade[2] = {1.0f, 0.55f};

/* Per-vertex AO of a face from its 3x3 front ring (bit a * 3 + b, offsets -1..1; `transposed`
 * when (U, V) read it as G[dv][du]): for each corner k, two side neighbours and the corner one,
 * ao = s1 && s2 ? 0 : 3 - (s1 + s2 + c). The quad is rotated so its 0-2 diagonal joins the
 * brighter pair: vertex i is corner (i + rot) & 3. An entry holds vertex i's ao in bits
 * 2i..2i+1 and rot in bit 8. One table for every face, built once (with the face materials). */
static uint16_t g_ao_lut[2][512];
/* Vertex i's AO level as flag bits (bits 56-57 of a packed position) by the entry's low byte. */
static uint64_t g_ao_flags[256][4];
static pthread_once_t g_ao_once = PTHREAD_ONCE_INIT;

static void ao_lut_init(void) {
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
            uint32_t rot = ao[0] + ao[2] < ao[1] + ao[3] ? 1u : 0u, e = rot << 8;
            for (int i = 0; i < 4; i++) e |= ao[(i + rot) & 3] << (2 * i);
            g_ao_lut[tr][gm] = (uint16_t)e;
        }
    for (int e = 0; e < 256; e++)
        for (int i = 0; i < 4; i++) g_ao_flags[e][i] = (uint64_t)((e >> (2 * i)) & 3) << 56;
    for (int n = 0; n < 6; n++)
        for (int m = 0; m < WORLD_MAT_COUNT; m++) k_face_mat[n][m] = face_material((uint8_t)m, n);
}

/* Per-chunk constants of the opaque pass. */
typedef struct MeshCtx {
    const WorldGen *g;
    const ChunkScratch *s;
    SlabWriter *w;
    int sc;                    /* blocks per voxel edge (LOD scale) */
    float aof[4];              /* per-vertex AO factor by level */
    float aofv[256][4];
    float jit[CHUNK_SIZE][CHUNK_SIZE];   /* the colour jitter per column, times jitter_amount */
    uint32_t blend[CHUNK_SIZE];          /* per row, bit x: the column has more than the temperate biome */        /* the four vertices' AO factors by their levels (bits 2i..2i+1) */
    float alt[WV_H];           /* pseudo-AO altitude light per air-cell layer index */
    uint64_t corner[6][2][4];  /* packed position offsets (blocks) of vertex i for normal n and
                                  rotation r: corner (i + r) & 3 */
} MeshCtx;

static void mesh_ctx_init(MeshCtx *c, const WorldGen *g, const ChunkScratch *s, SlabWriter *w) {
    pthread_once(&g_ao_once, ao_lut_init);
    c->g = g;
    c->s = s;
    c->w = w;
    c->sc = s->scale;
    for (int k = 0; k < 4; k++) c->aof[k] = 1.0f - g->p.ao_strength * (float)(3 - k);
    for (int z = 0; z < s->n; z++) {
        uint32_t b = 0;
        for (int x = 0; x < s->n; x++) {
            c->jit[z][x] = s->jitter[z][x] * g->p.jitter_amount;
            b |= (uint32_t)(s->biome_w[z][x][BIOME_TEMPERATE] != 1.0f) << x;
        }
        c->blend[z] = b;
    }
    for (int e = 0; e < 256; e++)
        for (int i = 0; i < 4; i++) c->aofv[e][i] = c->aof[(e >> (2 * i)) & 3];
    for (int yi = 0; yi < WV_H; yi++) c->alt[yi] = alt_light(g, (float)gs_block_y(s, yi - 1));   /* the layer's sample height */
    for (int n = 0; n < 6; n++)
        for (int r = 0; r < 2; r++)
            for (int i = 0; i < 4; i++) {
                const int8_t *U = k_u[n], *V = k_v[n];
                int k = (i + r) & 3, cu = k_cu[k], cv = k_cv[k];
                c->corner[n][r][i] = pack_pos((cu * U[0] + cv * V[0]) * c->sc, (cu * U[1] + cv * V[1]) * c->sc,
                                              (cu * U[2] + cv * V[2]) * c->sc, 0);
            }
}

static inline uint32_t win3(uint64_t row, int x) { return (uint32_t)(row >> x) & 7u; }   /* bits x-1..x+1 */

/* The rows the front rings of row (layer index yi, row z1) read for normal n: for +-Y and +-Z
 * three rows whose bits x-1..x+1 are a ring row (G[a] = win3(r[a], x)); for +-X the 3x3 rows
 * (layers y-1..y+1 by rows z-1..z+1) at the bit of the column in front. Returns whether
 * (U, V) read the ring transposed. */
static inline bool ring_rows(const ChunkScratch *s, int n, int yi, int z1, uint64_t r[9]) {
    switch (n) {
    case WORLD_NORMAL_PY:
    case WORLD_NORMAL_NY: {          /* rows z-1..z+1 of the layer above/below, bits x-1..x+1 */
        int l = yi + (n == WORLD_NORMAL_PY ? 1 : -1);
        for (int a = 0; a < 3; a++) r[a] = s->solid[l][z1 - 1 + a];
        return n == WORLD_NORMAL_NY;
    }
    case WORLD_NORMAL_PZ:
    case WORLD_NORMAL_NZ: {          /* layers y-1..y+1 of the row in front, bits x-1..x+1 */
        int rz = z1 + (n == WORLD_NORMAL_PZ ? 1 : -1);
        for (int a = 0; a < 3; a++) r[a] = s->solid[yi - 1 + a][rz];
        return n == WORLD_NORMAL_PZ;
    }
    default:                         /* column x+-1: layers y-1..y+1 by rows z-1..z+1 */
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++) r[a * 3 + c] = s->solid[yi - 1 + a][z1 - 1 + c];
        return n == WORLD_NORMAL_NX;
    }
}

/* 3x3 occupancy in front of the face of voxel x (bit a * 3 + b, offsets -1..1). */
static inline uint32_t ring_code(int n, const uint64_t r[9], int x) {
    if (n == WORLD_NORMAL_PX || n == WORLD_NORMAL_NX) {
        int b = x + 1 + (n == WORLD_NORMAL_PX ? 1 : -1);
        uint32_t gm = 0;
        for (int j = 0; j < 9; j++) gm |= (uint32_t)((r[j] >> b) & 1u) << j;
        return gm;
    }
    return win3(r[0], x) | win3(r[1], x) << 3 | win3(r[2], x) << 6;
}

/* Face n of voxel (x, layer Y, z), coarse units, of face material fm, with front ring gm
 * (ring_code); lit[roof]: the light of the layer in front (altitude, then the shade under a
 * roof, then the direction), in the open (0) or under a roof (1). */
static inline __attribute__((always_inline)) void emit_face(const MeshCtx *c, int n, int x, int Y, int z, uint8_t fm,
                                                            uint32_t gm, bool transposed, const float lit[2]) {
    const ChunkScratch *s = c->s;
    const WorldGen *g = c->g;
    const int8_t *N = k_n[n];
    uint32_t ao = g_ao_lut[transposed][gm];
    /* Colour: base + jitter * k, then the light. */
    float j = c->jit[z][x];
    f32x4 base, rgb;
    if (((BIOME_MATS >> fm) & 1u) && ((c->blend[z] >> x) & 1u)) {
        rgb = biome_colour(s->biome_w[z][x], fm, n, gs_block_y(s, Y), j);
        goto lit;
    }
    if (fm == WORLD_MAT_HOME) {
        const IslandField *h = g->home;
        uint8_t type = s->home_type[z][x];
        uint32_t rgb = !h ? 0x808080u : type < h->n_types ? h->type_rgb[type] : type == WORLD_HOME_PATH ? h->path_rgb : 0x808080u;
        base = f32x4_set4((float)((rgb >> 16) & 0xffu) * (1.0f / 255.0f), (float)((rgb >> 8) & 0xffu) * (1.0f / 255.0f),
                          (float)(rgb & 0xffu) * (1.0f / 255.0f), 0.0f);
    } else {
        base = f32x4_load(k_mat_base[fm]);
    }
    rgb = f32x4_add(base, f32x4_mul(f32x4_set1(j), f32x4_load(k_mat_jit[fm])));
lit:;
    int fx = x + N[0], fy = Y + N[1], fz = z + N[2];
    rgb = f32x4_mul(rgb, f32x4_set1(lit[s->top[fz + 1][fx + 1] > fy]));
    WorldVertex *q = writer_quad(c->w);
    if (!q) return;
    /* The four vertices' colours at once: a vector per channel over the vertices. */
    f32x4 f = f32x4_load(c->aofv[ao & 0xffu]);
    u32x4 r8 = to_u8x4_raw(f32x4_mul(f32x4_dup(rgb, 0), f));
    u32x4 g8 = to_u8x4_raw(f32x4_mul(f32x4_dup(rgb, 1), f));
    u32x4 b8 = to_u8x4_raw(f32x4_mul(f32x4_dup(rgb, 2), f));
    uint32_t col[4];
    u32x4_store(col, u32x4_pack_rgba(r8, g8, b8, u32x4_set1(255u)));
    const uint64_t *off = c->corner[n][(ao >> 8) & 1u];
    int sc = c->sc;
    int bx = (x + (N[0] > 0)) * sc, by = WORLD_Y_MIN + (Y + (N[1] > 0)) * sc, bz = (z + (N[2] > 0)) * sc;
    uint64_t p0 = pack_pos(bx, by, bz, n) | (uint64_t)(fm << 2) << 56;
    const uint64_t *fl = g_ao_flags[ao & 0xffu];
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 4
#endif
    for (int i = 0; i < 4; i++) store_vertex(&q[i], p0 + off[i] + fl[i], col[i]);
}

/* What the faces of a row share: its layer, height, materials by depth (surface, dirt, stone;
 * the abyss below bedrock level) from the masks of the rows above. */
typedef struct RowLook {
    int Y, z, by;
    uint8_t fm[6][3];                        /* per normal the face material of a surface, dirt
                                                and stone voxel (all the abyss below bedrock) */
    bool home;                               /* the home island may claim the surface */
    float lit[6][2];                         /* per normal the light of the layer in front, in
                                                the open and under a roof (emit_face) */
    uint64_t surf, stone;
} RowLook;

/* The layer's part of a row's look (its rows then set z, surf and stone). */
static inline void layer_look(const MeshCtx *c, int Y, int by, RowLook *rl) {
    const WorldGen *g = c->g;
    bool abyss = (float)by < g->p.bedrock_level;
    rl->Y = Y;
    rl->by = by;
    /* gen_surface_material: snow or grass by height, unless the home island may claim it. */
    uint8_t surf = abyss ? WORLD_MAT_ABYSS : (float)by >= g->p.snow_level ? WORLD_MAT_SNOW : WORLD_MAT_GRASS;
    uint8_t dirt = abyss ? WORLD_MAT_ABYSS : WORLD_MAT_DIRT, stone = abyss ? WORLD_MAT_ABYSS : WORLD_MAT_STONE;
    rl->home = !abyss && g->home_on && (float)by >= g->home_sea - WORLD_HOME_FLOOR;
    for (int n = 0; n < 6; n++) {
        rl->fm[n][0] = k_face_mat[n][surf];
        rl->fm[n][1] = k_face_mat[n][dirt];
        rl->fm[n][2] = k_face_mat[n][stone];
        /* Altitude, then a roof's shade, then the direction. */
        float alt = c->alt[Y + k_n[n][1] + 1];
        rl->lit[n][0] = alt * k_roof_shade[0] * k_dir_shade[n];
        rl->lit[n][1] = alt * k_roof_shade[1] * k_dir_shade[n];
    }
}

/* The faces with normal n of row rl: the face material by the voxel's depth class. */
static inline __attribute__((always_inline)) uint32_t emit_row(const MeshCtx *c, const int n, uint64_t m,
                                                               const RowLook *rl) {
    uint32_t faces = 0;
    const int Y = rl->Y, z = rl->z;
    const uint8_t fm_surf = rl->fm[n][0], fm_dirt = rl->fm[n][1], fm_stone = rl->fm[n][2];
    const uint64_t surf = rl->surf, stone = rl->stone;
    uint64_t ring[9];
    bool tr = ring_rows(c->s, n, Y + 1, z + 1, ring);
    while (m) {
        int b = __builtin_ctzll(m);
        m &= m - 1;
        uint8_t fm = (surf >> b) & 1u ? fm_surf : (stone >> b) & 1u ? fm_stone : fm_dirt;
        if (rl->home && ((surf >> b) & 1u)) fm = k_face_mat[n][gen_surface_material(c->g, c->s, b - 1, rl->by, z)];
        emit_face(c, n, b - 1, Y, z, fm, ring_code(n, ring, b - 1), tr, rl->lit[n]);
        faces++;
    }
    return faces;
}

/* LOD seams: a border face the apron culled is kept where the neighbour, at a LOD one finer or
 * coarser than this chunk's, may be air over it (gen_seam_covered), and on every surface voxel
 * (a voxel with any exposed face): the T-junctions between voxel sizes can leave sub-pixel
 * gaps along a seam, and a face one voxel deep behind the edge fills them. Such a face is
 * hidden inside the neighbour when both are solid. */
static void seam_faces(const WorldGen *g, ChunkScratch *s, int Y, int z, uint64_t r, uint64_t f[6]) {
    const int n = s->n;
    const uint64_t lo = 2ull, hi = 1ull << n;
    uint64_t surf = f[0] | f[1] | f[2] | f[3] | f[4] | f[5];
    if ((r & lo) && !(f[WORLD_NORMAL_NX] & lo) &&
        ((surf & lo) || !gen_seam_covered(g, s, WORLD_NORMAL_NX, Y, z)))
        f[WORLD_NORMAL_NX] |= lo;
    if ((r & hi) && !(f[WORLD_NORMAL_PX] & hi) &&
        ((surf & hi) || !gen_seam_covered(g, s, WORLD_NORMAL_PX, Y, z)))
        f[WORLD_NORMAL_PX] |= hi;
    for (int side = 0; side < 2; side++) {
        int nz = side ? WORLD_NORMAL_PZ : WORLD_NORMAL_NZ;
        if (z != (side ? n - 1 : 0)) continue;
        uint64_t m = r & ~f[nz];
        f[nz] |= m & surf;
        m &= ~surf;
        while (m) {
            int b = __builtin_ctzll(m);
            m &= m - 1;
            if (!gen_seam_covered(g, s, nz, Y, b - 1)) f[nz] |= 1ull << b;
        }
    }
}

bool mesh_chunk(const WorldGen *g, ChunkScratch *s, MemPool *slabs, ChunkMesh *out, MeshCounts *counts) {
    memset(out, 0, sizeof *out);
    out->cx = s->cx;
    out->cz = s->cz;
    out->lod = (uint32_t)s->lod;
    MeshCounts mc = {0, 0, 0, false};
    SlabWriter w = {slabs, out, NULL, 0, NULL, &out->opaque_parts, false, false};
    const int n = s->n, ny = s->ny, dl = gs_dirt_layers(s);
    const uint64_t interior = ((1ull << n) - 1ull) << 1;
    /* Opaque pass: solid voxels against anything not solid (air or cloud). Materials by
     * depth (gen_material) come from masks of the rows above. */
    MeshCtx ctx;
    mesh_ctx_init(&ctx, g, s, &w);
    static const uint64_t k_no_row[WV_ROW];   /* above the top layer: air */
    for (int Y = 0; Y < ny; Y++) {
        int yi = Y + 1;
        const uint64_t *cur = s->solid[yi], *up = s->solid[yi + 1], *dn = s->solid[yi - 1];
        const uint64_t *above[4];   /* the layers above, for materials by depth */
        for (int k = 0; k < 4; k++) above[k] = Y + 1 + k < ny ? s->solid[yi + 1 + k] : k_no_row;
        RowLook rl;
        layer_look(&ctx, Y, gs_block_y(s, Y), &rl);
        for (int z = 0; z < n; z++) {
            uint64_t row = cur[z + 1], r = row & interior;
            if (!r) continue;
            /* Exposed faces: solid against anything not solid (row_faces with nothing blocking). */
            uint64_t f[6] = {r & ~(row >> 1), r & ~(row << 1), r & ~up[z + 1], r & ~dn[z + 1], r & ~cur[z + 2], r & ~cur[z]};
            if (s->seams && ((r & (2ull | (1ull << n))) || z == 0 || z == n - 1)) seam_faces(g, s, Y, z, r, f);
            uint64_t any = f[0] | f[1] | f[2] | f[3] | f[4] | f[5];
            if (!any) continue;
            uint64_t stone = r;
            for (int k = 0; k < dl; k++) stone &= above[k][z + 1];
            rl.z = z;
            rl.surf = r & ~above[0][z + 1];
            rl.stone = stone;
            /* One copy of the face loop per normal (n a constant in each). */
            if (f[0]) mc.faces += emit_row(&ctx, 0, f[0], &rl);
            if (f[1]) mc.faces += emit_row(&ctx, 1, f[1], &rl);
            if (f[2]) mc.faces += emit_row(&ctx, 2, f[2], &rl);
            if (f[3]) mc.faces += emit_row(&ctx, 3, f[3], &rl);
            if (f[4]) mc.faces += emit_row(&ctx, 4, f[4], &rl);
            if (f[5]) mc.faces += emit_row(&ctx, 5, f[5], &rl);
        }
    }
    /* The floor: below WORLD_Y_MIN counts as solid, and bedrock makes block 0 solid, but a
     * coarse layer 0 samples block s/2, which can be air where the floor is thin. The floor's
     * top face then closes the column (at LOD 0 layer 0 is bedrock and this adds nothing). */
    if (s->seams)
        for (int z = 0; z < n; z++) {
            uint64_t open = ~s->solid[1][z + 1] & interior;
            while (open) {
                int b = __builtin_ctzll(open);
                open &= open - 1;
                uint64_t ring[9];
                bool tr = ring_rows(s, WORLD_NORMAL_PY, 0, z + 1, ring);
                const float alt = ctx.alt[1];   /* the layer in front: Y = 0 */
                const float lit[2] = {alt * k_roof_shade[0] * k_dir_shade[WORLD_NORMAL_PY],
                                      alt * k_roof_shade[1] * k_dir_shade[WORLD_NORMAL_PY]};
                emit_face(&ctx, WORLD_NORMAL_PY, b - 1, -1, z, k_face_mat[WORLD_NORMAL_PY][WORLD_MAT_ABYSS],
                          ring_code(WORLD_NORMAL_PY, ring, b - 1), tr, lit);
                mc.faces++;
            }
        }
    mc.faces += mesh_props(g, s, &w);
    /* Cloud pass: its own parts after the opaque ones. */
    w.part = NULL;
    w.pass_parts = &out->cloud_parts;
    mc.faces += mesh_clouds(g, s, &w, interior);
    for (uint32_t i = 0; i < out->opaque_parts; i++) mc.opaque_verts += out->parts[i].vert_count;
    for (uint32_t i = 0; i < out->cloud_parts; i++) mc.cloud_verts += out->parts[out->opaque_parts + i].vert_count;
    mc.truncated = w.full;
    if (counts) *counts = mc;
    return !w.oom;
}
