/* skyisles world: the terrain pass's per-chunk constants (mesh_terrain.h): the AO entries of a
 * thread, a chunk's columns (biome blend bits, jitter, packed corners), the altitude light, the
 * corner offsets and the looks' fixed parts; and the home island's surface colours. */
#include "world/mesh_terrain.h"

#include <string.h>

/* A thread's AO entries (AoEntry), for the AO strength they were made for. */
typedef struct AoTable {
    AoEntry e[256] __attribute__((aligned(16)));
    float strength;
    bool ok;
} AoTable;
static _Thread_local AoTable t_aos;

static const AoEntry *ao_entries(const float aof[4], float strength) {
    AoTable *t = &t_aos;
    if (!t->ok || memcmp(&t->strength, &strength, sizeof strength)) {
        uint16_t q[4];
        for (int k = 0; k < 4; k++) {
            float fq = aof[k] * 65536.0f;
            q[k] = (uint16_t)(fq >= 65535.0f ? 65535 : fq > 0.0f ? (int)(fq + 0.5f) : 0);
        }
        for (int e = 0; e < 256; e++)
            for (int i = 0; i < 4; i++) {
                t->e[e].fl[i] = g_mesh_tab.ao_flags[e][i];
                for (int l = 0; l < 4; l++) t->e[e].q[i >> 1][(i & 1) * 4 + l] = l == 3 ? 65535 : q[(e >> (2 * i)) & 3];
            }
        t->strength = strength;
        t->ok = true;
    }
    return t->e;
}

/* A column's blend bits and other biome by its weights' key (bits 1-3: biome b has weight, bit 0:
 * the temperate biome has less than all): with bit 0 the biomes of weight, bit 0, and BLEND_ONE
 * with one biome besides temperate (k_other_of: which); without it none (no blend). */
#define BLEND_OF(k) ((k) & 1u ? ((k) & 14u) | 1u | ((k) == 3u || (k) == 5u || (k) == 9u ? BLEND_ONE : 0u) : 0u)
#define OTHER_OF(k) (((k) & 14u) == 2u ? 1u : ((k) & 14u) == 4u ? 2u : ((k) & 14u) == 8u ? 3u : 0u)
#define BLEND_ROW(F, k) F(k), F(k + 1u), F(k + 2u), F(k + 3u)
static const uint8_t k_blend_of[16] = {BLEND_ROW(BLEND_OF, 0u), BLEND_ROW(BLEND_OF, 4u), BLEND_ROW(BLEND_OF, 8u),
                                       BLEND_ROW(BLEND_OF, 12u)};
static const uint8_t k_other_of[16] = {BLEND_ROW(OTHER_OF, 0u), BLEND_ROW(OTHER_OF, 4u), BLEND_ROW(OTHER_OF, 8u),
                                       BLEND_ROW(OTHER_OF, 12u)};

/* The columns' jitter, packed corners and blend bits, the AO factors and entries, the altitude
 * light by layer and the corner offsets by normal and rotation. */
static void ctx_constants(MeshCtx *c, const WorldGen *g, const ChunkScratch *s, int ytop) {
    mesh_tables_init();
    c->g = g;
    c->s = s;
    c->sc = s->scale;
    const f32x4 zero = f32x4_set1(0.0f), jav = f32x4_set1(g->p.jitter_amount);
    c->ew = (const float (*)[BIOME_COUNT])s->biome_w;   /* read in blended columns, for the biomes of bm */
    _Static_assert(CHUNK_SIZE / (1 << WORLD_LOD_MAX) % 4 == 0, "a row's columns come four at a time");
    for (int z = 0; z < s->n; z++) {
        const uint64_t zpos = pack_pos(0, 0, z * c->sc, 0);
        for (int x = 0; x < s->n; x += 4) {
            const int i = z * CHUNK_SIZE + x;
            f32x4_store(&c->jit[i], f32x4_mul(f32x4_load(&s->jitter[z][x]), jav));
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 4
#endif
            for (int j = 0; j < 4; j++) {
                const float *w = s->biome_w[z][x + j];
                c->colpos[i + j] = zpos | (uint64_t)(uint16_t)((x + j) * c->sc);
                /* Bits 1-3: the other biomes with weight; bit 0: the temperate one has less than all. */
                uint32_t w0;   /* (1.0f has one bit pattern: the bits differ exactly when the value does) */
                memcpy(&w0, &w[BIOME_TEMPERATE], sizeof w0);
                uint32_t k = (u32x4_movemask(f32x4_cmpgt(f32x4_load(w), zero)) & 14u) | (uint32_t)(w0 != 0x3f800000u);
                c->blend[i + j] = k_blend_of[k];
                c->other[i + j] = k_other_of[k];
            }
        }
    }
    for (int k = 0; k < 4; k++) c->aof[k] = 1.0f - g->p.ao_strength * (float)(3 - k);
    c->aoe = ao_entries(c->aof, g->p.ao_strength);
    /* The meshed layers' sample heights, to the one above the highest (a top face's air cell). */
    const int nalt = ytop + 3 < s->ny + 2 ? ytop + 3 : s->ny + 2;
    for (int yi = 0; yi < nalt; yi++) c->alt[yi] = alt_light(g, (float)gs_block_y(s, yi - 1));
    for (int n = 0; n < 6; n++)
        for (int r = 0; r < 2; r++)
            for (int i = 0; i < 4; i++) {
                const int8_t *U = k_u[n], *V = k_v[n];
                int k = (i + r) & 3, cu = k_cu[k], cv = k_cv[k];
                c->corner[n][r][i] = pack_pos((cu * U[0] + cv * V[0]) * c->sc, (cu * U[1] + cv * V[1]) * c->sc,
                                              (cu * U[2] + cv * V[2]) * c->sc, 0);
            }
}

/* What the looks and sides of every layer share (mesh_ctx_init): the sides' AO tables, column
 * tops and looks, the looks' corners and normals; none made yet. */
static void looks_init(MeshCtx *c) {
    for (int n = 0; n < 6; n++) {
        const int8_t *N = k_n[n];
        LayerSide *sd = &c->side[n];
        sd->lut = g_mesh_tab.ao_lut[n == WORLD_NORMAL_NX || n == WORLD_NORMAL_NY || n == WORLD_NORMAL_PZ];
        sd->top = c->s->top[1 + N[2]] + 1 + N[0];
        sd->look = &c->look[LOOK(n, 0)];
        for (int cls = 0; cls < 4; cls++) {
            c->look[LOOK(n, cls)].corner = c->corner[n];
            c->look[LOOK(n, cls)].n = (uint8_t)n;
        }
    }
    c->look_key = 0;
}

void mesh_ctx_init(MeshCtx *c, const WorldGen *g, const ChunkScratch *s, int ytop) {
    ctx_constants(c, g, s, ytop);
    looks_init(c);
}

/* A home-island layer's surface face: the material the island gives the column (its location
 * type's colour for WORLD_MAT_HOME), else as the rest. */
f32x4 mesh_home_colour(const MeshCtx *c, const FaceLook *L, int col, uint8_t *fm_out) {
    const ChunkScratch *s = c->s;
    int x = col % CHUNK_SIZE, z = col / CHUNK_SIZE;
    uint8_t fm = g_mesh_tab.face_mat[L->n][gen_surface_material(c->g, s, x, L->by, z)];
    *fm_out = fm;
    const float (*P)[4] = (const float (*)[4])g_mesh_tab.pal[L->variant][fm];
    if (fm != WORLD_MAT_HOME) return blend_colour(c, P, col, c->blend[col] && ((BIOME_MATS >> fm) & 1u));
    const IslandField *h = c->g->isl.f;
    uint8_t type = s->home_type[z][x];   /* a place: its ground colour, blended across its borders */
    uint32_t rgb = !h                                                ? 0x808080u
                   : type < h->n_types || type == WORLD_HOME_STRIP ? s->home_rgb[z][x]
                   : type == WORLD_HOME_PATH                       ? h->path_rgb
                                                                   : 0x808080u;
    f32x4 base = f32x4_set4((float)((rgb >> 16) & 0xffu) * (1.0f / 255.0f), (float)((rgb >> 8) & 0xffu) * (1.0f / 255.0f),
                            (float)(rgb & 0xffu) * (1.0f / 255.0f), MESH_ALPHA_BASE);
    return f32x4_add(base, f32x4_mul(f32x4_set1(c->jit[col]), f32x4_load(P[4])));
}
