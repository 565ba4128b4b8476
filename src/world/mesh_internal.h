/* skyisles world: what the mesher's files share (mesher.c and mesh_ctx.c the terrain faces,
 * mesh_flat.c the objects' boxes and the merged clouds, mesh_writer.c the slabs): the face frames,
 * the slab writer's fast path and spans, the packed vertex stores and the bit rows two at a time,
 * inline so every pass keeps them in its loop. */
#ifndef SKYISLES_MESH_INTERNAL_H
#define SKYISLES_MESH_INTERNAL_H

#include <string.h>

#include "world/world_internal.h"

#include "noise/simd.h"

/* Per normal: the normal, then tangents U, V with cross(U, V) = N, so the corner order
 * (0,0) (1,0) (1,1) (0,1) in (U, V) is counter-clockwise seen from outside. */
static const int8_t k_n[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
static const int8_t k_u[6][3] = {{0, 1, 0}, {0, 0, 1}, {0, 0, 1}, {1, 0, 0}, {1, 0, 0}, {0, 1, 0}};
static const int8_t k_v[6][3] = {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}, {0, 0, 1}, {0, 1, 0}, {1, 0, 0}};
static const uint8_t k_cu[4] = {0, 1, 1, 0}, k_cv[4] = {0, 0, 1, 1};
/* Directional shade per normal: sun from above, a little from +X. */
static const float k_dir_shade[6] = {0.82f, 0.74f, 1.0f, 0.5f, 0.68f, 0.62f};

/* An AO entry as the face loop uses it: its index (bits 2i..2i+1 vertex i's AO level) times 64,
 * the byte offset of its 64-byte AoEntry, and its rotation as 32, the byte offset of the rotated
 * corners' four packed offsets; an address each with one AND. */
#define MESH_AO_SHIFT 6
#define MESH_AO_ROT 32u
#define MESH_AO_INDEX(e) (((e) >> MESH_AO_SHIFT) & 0xffu)

/* The terrain pass's tables (mesh_tables.c), built once by mesh_tables_init. */
#define MESH_BANDS 8   /* desert strata: bands of three blocks by height, repeating */
typedef struct MeshTables {
    uint16_t ao_lut[2][512];      /* AO entry of a 3x3 front ring (plain, transposed): MESH_AO_* */
    uint64_t ao_flags[256][4];    /* vertex i's AO level as flag bits 56-57, by the entry's low byte */
    uint8_t face_mat[6][WORLD_MAT_COUNT];   /* the material a face of normal n shows */
    /* [variant: 0 top/bottom, 1 + band: sides][face material][base of biome b, then jitter
     * factor of biome b][r, g, b, 0] */
    float pal[1 + MESH_BANDS][WORLD_MAT_COUNT][8][4] __attribute__((aligned(16)));
} MeshTables;
extern MeshTables g_mesh_tab;
void mesh_tables_init(void);
#define MESH_ALPHA_BASE 65536.0f   /* a palette base's lane 3 (alpha, see pal_init) */
static inline int mesh_band(int by) { return (by / 3) & (MESH_BANDS - 1); }

/* Parts live in slabs; a new pass (the clouds) starts a new part, in the room left in the
 * current slab when there is some, so a small mesh fits one slab. */
typedef struct SlabWriter {
    MemPool *pool;
    ChunkMesh *m;
    WorldVertex *slab;     /* current slab */
    uint32_t fill;         /* vertices used in it */
    ChunkMeshPart *part;   /* current part of this pass (NULL: the next quad starts one) */
    uint32_t *pass_parts;
    bool oom;          /* the slab pool ran dry: the mesh is incomplete */
    bool full;         /* the part table is full: the mesh is truncated but usable */
} SlabWriter;
/* A new part or slab (or the end: NULL when the pool ran dry or the part table is full). */
WorldVertex *mesh_writer_slow(SlabWriter *w);

/* The room left in the current part's slab (starting a part or slab when there is none), as a
 * pointer and a count of quads; NULL when the pool ran dry or the part table is full. Quads
 * written there are committed with writer_commit; the layout is writer_quad's. */
WorldVertex *mesh_writer_span(SlabWriter *w, uint32_t *quads);
static inline void writer_commit(SlabWriter *w, uint32_t quads) {
    w->fill += 4 * quads;
    w->part->vert_count += 4 * quads;
}

/* A pass's room for quads, written in order: the next quad, the end of the span and its start
 * (dead: the pool ran dry or the part table is full; the pass's other faces are counted only, in
 * lost); quads: those committed so far. */
typedef struct Span {
    WorldVertex *q, *end, *start;
    bool dead;
    uint32_t quads, lost;
} Span;

/* The quads written into the span so far, committed to the writer. */
static inline void span_commit(SlabWriter *w, Span *sp) {
    if (sp->q != sp->start) {
        const uint32_t quads = (uint32_t)((sp->q - sp->start) / 4);
        writer_commit(w, quads);
        sp->quads += quads;
        sp->start = sp->q;
    }
}

/* A full span committed and the next one started (a slab or part changes only between quads, as
 * writer_quad would); false when there is none. */
static inline bool span_next(SlabWriter *w, Span *sp) {
    if (sp->dead) return false;
    span_commit(w, sp);
    uint32_t quads;
    sp->q = sp->start = sp->end = mesh_writer_span(w, &quads);
    if (!sp->q) {
        sp->dead = true;
        return false;
    }
    sp->end = sp->q + 4 * quads;
    return true;
}

/* Room for one more quad in the current part's slab is the common case. */
static inline WorldVertex *writer_quad(SlabWriter *w) {
    if (w->part && w->fill + 4 <= WORLD_SLAB_VERTS) {
        WorldVertex *q = w->slab + w->fill;
        w->fill += 4;
        w->part->vert_count += 4;
        return q;
    }
    return mesh_writer_slow(w);
}

static inline uint8_t to_u8(float v) {
    if (!(v > 0.0f)) return 0;
    if (v >= 1.0f) return 255;
    return (uint8_t)(v * 255.0f + 0.5f);
}

/* Vertices are written as one 64-bit word (x, y, z, normal, flags) and one 32-bit word (r, g,
 * b, a): the WorldVertex layout on a little-endian target. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define MESH_PACKED 1
#endif
_Static_assert(WORLD_Y_MIN >= 0, "packed vertex fields must stay non-negative");

static inline uint64_t pack_pos(int x, int y, int z, int normal) {
    return (uint64_t)(uint16_t)x | (uint64_t)(uint16_t)y << 16 | (uint64_t)(uint16_t)z << 32 | (uint64_t)normal << 48;
}

/* p: x, y, z, normal, flags as pack_pos (flags in bits 56-63); col: r, g, b, a from bit 0. */
static inline void store_vertex(WorldVertex *v, uint64_t p, uint32_t col) {
#if defined(MESH_PACKED)
    memcpy(v, &p, 8);
    memcpy((uint8_t *)v + 8, &col, 4);
#else
    v->x = (int16_t)(p & 0xffffu);
    v->y = (int16_t)((p >> 16) & 0xffffu);
    v->z = (int16_t)((p >> 32) & 0xffffu);
    v->normal = (uint8_t)((p >> 48) & 0xffu);
    v->flags = (uint8_t)(p >> 56);
    v->r = (uint8_t)(col & 0xffu);
    v->g = (uint8_t)((col >> 8) & 0xffu);
    v->b = (uint8_t)((col >> 16) & 0xffu);
    v->a = (uint8_t)(col >> 24);
#endif
}

/* A flat-coloured quad: corners p0, p0 + du, p0 + du + dv, p0 + dv (packed positions and
 * flags; the steps along U and V are packed too, every field non-negative, so they add without
 * carries). */
static inline __attribute__((always_inline)) void store_quad(WorldVertex *q, uint64_t p0, uint64_t du, uint64_t dv,
                                                             uint32_t col) {
    store_vertex(&q[0], p0, col);
    store_vertex(&q[1], p0 + du, col);
    store_vertex(&q[2], p0 + du + dv, col);
    store_vertex(&q[3], p0 + dv, col);
}

/* Two rows' bits side by side (rows z and z + 1 of a layer), for the face masks of both at once:
 * with SSE2 one vector (pandn is a & ~b in one instruction), elsewhere a pair of words. On aarch64
 * the pair keeps the work in the integer registers, where the rows' bits are tested and shifted
 * next, with no moves out of NEON (under qemu-user the pair was 1-2% faster per face). */
#if defined(SIMD_SSE2)
typedef __m128i Rows2;
static inline Rows2 rows2_load(const uint64_t *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }
static inline void rows2_store(uint64_t *p, Rows2 v) { _mm_storeu_si128((__m128i *)(void *)p, v); }
static inline Rows2 rows2_and(Rows2 a, Rows2 b) { return _mm_and_si128(a, b); }
static inline Rows2 rows2_andnot(Rows2 a, Rows2 b) { return _mm_andnot_si128(b, a); }   /* a & ~b */
static inline Rows2 rows2_or(Rows2 a, Rows2 b) { return _mm_or_si128(a, b); }
static inline Rows2 rows2_set1(uint64_t v) { return _mm_set1_epi64x((long long)v); }
#define ROWS2_SHR(a, k) _mm_srli_epi64((a), (k))
#define ROWS2_SHL(a, k) _mm_slli_epi64((a), (k))
/* Bit k: row k of the two has a bit set. */
static inline uint32_t rows2_nonzero(Rows2 a) {
    __m128i z = _mm_cmpeq_epi32(a, _mm_setzero_si128());
    z = _mm_and_si128(z, _mm_shuffle_epi32(z, _MM_SHUFFLE(2, 3, 0, 1)));
    return 3u & ~(uint32_t)_mm_movemask_pd(_mm_castsi128_pd(z));
}
#else
typedef struct Rows2 { uint64_t a, b; } Rows2;
static inline Rows2 rows2_load(const uint64_t *p) { Rows2 r = {p[0], p[1]}; return r; }
static inline void rows2_store(uint64_t *p, Rows2 v) { p[0] = v.a, p[1] = v.b; }
static inline Rows2 rows2_and(Rows2 a, Rows2 b) { Rows2 r = {a.a & b.a, a.b & b.b}; return r; }
static inline Rows2 rows2_andnot(Rows2 a, Rows2 b) { Rows2 r = {a.a & ~b.a, a.b & ~b.b}; return r; }
static inline Rows2 rows2_or(Rows2 a, Rows2 b) { Rows2 r = {a.a | b.a, a.b | b.b}; return r; }
static inline Rows2 rows2_set1(uint64_t v) { Rows2 r = {v, v}; return r; }
static inline Rows2 rows2_shr(Rows2 a, int k) { Rows2 r = {a.a >> k, a.b >> k}; return r; }
static inline Rows2 rows2_shl(Rows2 a, int k) { Rows2 r = {a.a << k, a.b << k}; return r; }
#define ROWS2_SHR(a, k) rows2_shr((a), (k))
#define ROWS2_SHL(a, k) rows2_shl((a), (k))
static inline uint32_t rows2_nonzero(Rows2 a) { return (uint32_t)(a.a != 0) | (uint32_t)(a.b != 0) << 1; }
#endif

/* Whether rows[0..n-1] (n even) have a bit of mask set: ORed two rows at a time. */
static inline bool rows_any(const uint64_t *rows, int n, uint64_t mask) {
    Rows2 any = rows2_load(rows);
    for (int z = 2; z < n; z += 2) any = rows2_or(any, rows2_load(rows + z));
    return rows2_nonzero(rows2_and(any, rows2_set1(mask))) != 0;
}

/* Pseudo-AO by altitude (W6): shade_floor at bedrock level rising to 1 at the cloud band's foot. */
static inline float alt_light(const WorldGen *g, float y) {
    float lo = g->p.bedrock_level, hi = g->p.cloud_centre - g->p.cloud_range;
    float t = hi > lo ? (y - lo) / (hi - lo) : 1.0f;
    if (t < 0.0f) t = 0.0f;
    if (t > 1.0f) t = 1.0f;
    return g->p.shade_floor + (1.0f - g->p.shade_floor) * t;
}

/* The flat-coloured passes (mesh_flat.c): the objects' boxes in the opaque part, then the cloud
 * voxels' faces merged into rectangles in their own parts. Each returns its faces. */
uint32_t mesh_props(const WorldGen *g, const ChunkScratch *s, SlabWriter *w);
uint32_t mesh_clouds(const WorldGen *g, ChunkScratch *s, SlabWriter *w, uint64_t interior);
uint32_t mesh_water(const WorldGen *g, const ChunkScratch *s, SlabWriter *w);

#endif
