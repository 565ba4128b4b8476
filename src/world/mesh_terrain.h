/* skyisles world: what the terrain pass's files share (mesher.c the faces, mesh_ctx.c its per-chunk
 * constants): a chunk's constants and a layer's looks and sides, the AO entries, the units of the
 * 16-bit colour steps, and the biome blend of a face's colour, inline in the face loop. */
#ifndef SKYISLES_MESH_TERRAIN_H
#define SKYISLES_MESH_TERRAIN_H

#include "world/mesh_internal.h"

#include "noise/simd.h"

/* Materials the biomes colour (bit per material). */
#define BIOME_MATS ((1u << WORLD_MAT_GRASS) | (1u << WORLD_MAT_CLIFF) | (1u << WORLD_MAT_DIRT) | \
                    (1u << WORLD_MAT_STONE) | (1u << WORLD_MAT_SNOW))

/* What a face of normal n and depth class cls (0 dirt, 1 surface, 2 stone) of a layer shares
 * with the others: its light in the open and under a roof, the palette of its material (side
 * faces show the desert strata of the layer's band), the packed corner of voxel x = z = 0 with
 * the material flags, the corner offsets by rotation. */
typedef struct FaceLook {
    float lit[2][4];
    const float (*pal)[4];
    uint64_t p0;
    const uint64_t (*corner)[4];
    uint8_t blendable;    /* 1: the biomes colour the material */
    uint8_t fm, home;     /* home: the home island may claim this surface */
    uint8_t n, variant;   /* the normal, the palette variant */
    int16_t by;           /* the layer's block height */
} FaceLook;
#define LOOK_SHIFT 6   /* log2 of a look's size */
_Static_assert(sizeof(FaceLook) == 1u << LOOK_SHIFT, "a look is 64 bytes: a shift indexes it");
_Static_assert(WORLD_Y_MAX <= INT16_MAX, "a look's height fits its int16");
#define LOOK(n, cls) ((n) * 4 + (cls))

/* What a face of normal n of a layer reads, by its row z and column x: its ring rows (+-Y,
 * +-Z) at ring + z, + st and + 2 st, the column tops of the row in front at top + z * WV_ROW + x
 * (top starts at the column in front of x = 0), the layer in front fy, its AO table ((U, V)
 * read the ring transposed for -X, -Y and +Z) and its looks. */
typedef struct LayerSide {
    const uint64_t *ring;
    const int16_t *top;
    const uint16_t *lut;
    const FaceLook *look;
    int st, fy;
    uint64_t pad[3];
} LayerSide;
_Static_assert(sizeof(LayerSide) == 64, "a side is 64 bytes: a shift indexes it");

/* Per AO entry (its low byte): the four vertices' AO flag bits (g_mesh_tab.ao_flags) and their
 * AO fractions, vertices 0-1 and 2-3 each in the four channel lanes of a 16-bit vector (alpha's
 * lane 65535: the palettes' alpha lane saturates to 255, MESH_ALPHA_BASE). Per
 * thread, built again only when the AO strength changes (a world of other parameters), not per
 * chunk. */
typedef struct AoEntry {
    uint64_t fl[4];
    uint16_t q[2][8];
} AoEntry;
_Static_assert(sizeof(AoEntry) == 1u << MESH_AO_SHIFT, "an AO entry is 64 bytes: MESH_AO_SHIFT");
_Static_assert(sizeof(uint64_t[4]) == MESH_AO_ROT, "a rotation's corner offsets are MESH_AO_ROT bytes");

/* The AoEntry of LUT entry e in table aoe, and the corner offsets of its rotation in corner
 * (MESH_AO_*: byte offsets, one AND each). */
static inline const AoEntry *ao_entry(const AoEntry *aoe, uint32_t e) {
    return (const AoEntry *)(const void *)((const char *)aoe + (e & (0xffu << MESH_AO_SHIFT)));
}
static inline const uint64_t *ao_corner(const uint64_t (*corner)[4], uint32_t e) {
    return (const uint64_t *)(const void *)((const char *)corner + (e & MESH_AO_ROT));
}

/* Per-chunk constants of the opaque pass. */
typedef struct MeshCtx {
    const WorldGen *g;
    const ChunkScratch *s;
    int sc;                              /* blocks per voxel edge (LOD scale) */
    const AoEntry *aoe;                  /* by AO entry (its low byte): flags and AO fractions */
    float aof[4];                        /* the AO factor by level */
    /* Per column z * 32 + x: the biome weights, the colour jitter times its amount, the packed x
     * and z of the column's corner (blocks), and the blend's bits: bit 0 the column has more than
     * the temperate biome, bit b biome b has weight (the W6 blend adds only those), BLEND_ONE. */
    const float (*ew)[BIOME_COUNT];      /* s->biome_w by column */
    float jit[CHUNK_SIZE * CHUNK_SIZE];
    uint64_t colpos[CHUNK_SIZE * CHUNK_SIZE];
    uint8_t blend[CHUNK_SIZE * CHUNK_SIZE];
    uint8_t other[CHUNK_SIZE * CHUNK_SIZE];   /* with BLEND_ONE: the one biome besides temperate */
    float alt[WV_H];                     /* pseudo-AO altitude light per air-cell layer index (to ytop + 2) */
    uint64_t corner[6][2][4];            /* packed position offsets (blocks) of vertex i for normal n and
                                            rotation r: corner (i + r) & 3 */
    FaceLook look[6 * 4];                /* the layer's looks by LOOK(n, cls) */
    LayerSide side[6];                   /* the layer's sides by normal */
    bool homes;                          /* the home island may claim the layer's surface faces */
    uint32_t look_key;                   /* what the looks' materials were made for (0: none) */
    int look_band;                       /* the band their side palettes were made for */
} MeshCtx;

_Static_assert(CHUNK_SIZE == 32, "a column is z * 32 + x");
#define BLEND_ONE 16u   /* MeshCtx.blend: one biome has weight besides temperate (MeshCtx.other) */
_Static_assert(BIOME_COUNT == 4 && BIOME_TEMPERATE == 0, "blend bits 1-3 are the other biomes");

/* A face's colour in 1/64 units: its light carries 255 * 64 (layer_look), so the lit colour
 * truncated is a channel's 0..255 value times 64 (saturated at 32767, 0 below zero); a vertex's
 * AO factor is a 16-bit fraction q = f * 65536 (65535 for 1), and the vertex's channel is
 * ((c * q >> 16) + 33) >> 6, clamped to 255: within 0.02 of c / 64 * f + 0.5 before it is
 * truncated, so within 1 of to_u8(lit colour * f) (tests/test_world_mesh.c). Integer steps, the
 * same bits on SSE2, NEON and plain C. */
#define MESH_COL_SHIFT 6
#define MESH_COL_K (255.0f * (float)(1 << MESH_COL_SHIFT))
#define MESH_COL_BIAS ((1 << (MESH_COL_SHIFT - 1)) + 1)   /* a half, and the truncations' mean */


/* The colour of a face in column col, of palette P, before its light: the temperate base +
 * jitter * factor, or in a column of more biomes every biome's of weight, weighted (the W6 blend's
 * operations in its order). */
static inline f32x4 blend_colour(const MeshCtx *c, const float (*P)[4], int col, bool blended) {
    f32x4 jv = f32x4_set1(c->jit[col]);
    if (blended) {
        f32x4 w = f32x4_load(c->ew[col]);
        f32x4 acc = f32x4_mul(f32x4_dup(w, 0), f32x4_add(f32x4_load(P[0]), f32x4_mul(jv, f32x4_load(P[4]))));
        const uint32_t bm = c->blend[col];   /* bit b: biome b has weight */
        if (__builtin_expect(bm & BLEND_ONE, 1)) {   /* one biome more (most blended columns): no tests per biome */
            const int b = c->other[col];
            return f32x4_add(acc, f32x4_mul(f32x4_set1(c->ew[col][b]), f32x4_add(f32x4_load(P[b]), f32x4_mul(jv, f32x4_load(P[4 + b])))));
        }
        if (bm & 2u) acc = f32x4_add(acc, f32x4_mul(f32x4_dup(w, 1), f32x4_add(f32x4_load(P[1]), f32x4_mul(jv, f32x4_load(P[5])))));
        if (bm & 4u) acc = f32x4_add(acc, f32x4_mul(f32x4_dup(w, 2), f32x4_add(f32x4_load(P[2]), f32x4_mul(jv, f32x4_load(P[6])))));
        if (bm & 8u) acc = f32x4_add(acc, f32x4_mul(f32x4_dup(w, 3), f32x4_add(f32x4_load(P[3]), f32x4_mul(jv, f32x4_load(P[7])))));
        return acc;
    }
    return f32x4_add(f32x4_load(P[0]), f32x4_mul(jv, f32x4_load(P[4])));
}

/* The pass's per-chunk constants of chunk s (its columns' blend, jitter and corners, the AO
 * entries, the altitude light of layers -1..ytop + 1, the looks' corners and normals; no look made
 * yet), for layers up to ytop (the highest holding rock). */
void mesh_ctx_init(MeshCtx *c, const WorldGen *g, const ChunkScratch *s, int ytop);
/* A home-island layer's surface face of look L in column col: its colour before the light, and
 * in *fm_out its face material. */
f32x4 mesh_home_colour(const MeshCtx *c, const FaceLook *L, int col, uint8_t *fm_out);

#endif
