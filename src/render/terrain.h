/* skyisles terrain on the GPU (internal to src/render): chunk buffers, far tiles, the upload
 * queue and the opaque and cloud passes. The renderer uses the functions below only; the
 * records are laid out here for the terrain files (terrain_*.c, terrain_internal.h). */
#ifndef SKYISLES_RENDER_TERRAIN_H
#define SKYISLES_RENDER_TERRAIN_H

#include "render_internal.h"

/* Quads are stored by kind (opaque, then clouds) and inside each kind by face direction in the
 * pairs [-X, +X], [-Z, +Z], [-Y, +Y], and inside each direction by plane (TERRAIN_LEVELS slabs
 * along the normal axis). Faces turned toward the camera are a suffix of the minus bucket and
 * a prefix of the plus bucket: one contiguous run per pair, three per kind at most. */
#define TERRAIN_DIRS 6                          /* buckets per kind */
#define TERRAIN_BUCKETS (2 * TERRAIN_DIRS)
enum { TERRAIN_OPAQUE = 0, TERRAIN_CLOUDS = TERRAIN_DIRS };   /* first bucket of each kind */
enum { TERRAIN_PAIR_X = 0, TERRAIN_PAIR_Z = 2, TERRAIN_PAIR_Y = 4 };   /* minus bucket of each pair, in a kind */
#define TERRAIN_LEVELS 16
#define TERRAIN_LEVEL_XZ 4      /* blocks per level along x and z (tiles span 64) */
#define TERRAIN_LEVEL_Y 10      /* blocks per level along y */

/* Far tiles are rebuilt from CPU copies of their members, in blocks of this many vertices;
 * by default TERRAIN_COPY_KIB_PER_CHUNK per chunk slot (a far mesh is ~5-20 KB). */
#define TERRAIN_COPY_VERTS 512u
#define TERRAIN_COPY_KIB_PER_CHUNK 12u

/* What c carves, in one place for terrain_init and render_create_bytes: the LOD from which chunks
 * share tiles (the debug tint shows each chunk's own LOD: never), and the KiB of tile copies for
 * cap chunk slots (0: no tiles). */
static inline int terrain_far_lod(const RenderCreateParams *c) { return c->lod_tint ? WORLD_LOD_MAX + 1 : c->far_group_lod; }
static inline size_t terrain_copy_kib(const RenderCreateParams *c, uint32_t cap) {
    int lod = terrain_far_lod(c);
    if (lod < 0 || lod > WORLD_LOD_MAX) return 0;
    return c->far_group_kib ? c->far_group_kib : (size_t)cap * TERRAIN_COPY_KIB_PER_CHUNK;
}

/* A draw slot: one chunk's buffer, or a tile of 2 x 2 far chunks sharing one buffer. */
typedef struct GpuChunk {
    int64_t cx, cz;                       /* chunk (tile: its even corner chunk) */
    bool used, tile, dirty;
    uint8_t span;                         /* chunks per side: 1, or 2 for a tile */
    uint8_t lod;                          /* the chunk's LOD (tile: its finest member's) */
    GLuint vbo;
    uint32_t opaque_verts, cloud_verts;   /* opaque quads first in the VBO, then cloud quads */
    uint32_t off[TERRAIN_BUCKETS][TERRAIN_LEVELS + 1];   /* vertex offset per bucket and level */
    int16_t plane_min[TERRAIN_BUCKETS], plane_max[TERRAIN_BUCKETS];   /* along the normal, slot-local */
    uint32_t bytes;
    int16_t y_min, y_max;
    int32_t member[4];                    /* tile: chunk record per quadrant (x + 2z), -1 none */
} GpuChunk;

/* A resident chunk: drawn from its own slot, or (far LODs) from a tile built from its copy. */
typedef struct ChunkRec {
    int64_t cx, cz;
    bool used, in_tile;
    uint8_t lod;
    int32_t slot;                 /* its own slot or its tile's */
    int32_t copy;                 /* first CPU copy block, -1 none (chained by copy_next) */
    uint32_t copy_verts, copy_opaque;
} ChunkRec;

typedef struct PendingMesh {
    const ChunkMesh *mesh;   /* NULL once dropped (its chunk went before upload) */
    int64_t cx, cz;
} PendingMesh;

typedef struct Terrain {
    GpuChunk *slots;                /* chunk slots and tile slots */
    uint32_t nslots;
    ChunkRec *chunks;
    uint32_t cap, resident;         /* chunk records (max_chunks), resident chunks */
    PendingMesh *pending;           /* ring of cap entries */
    MemArena *scratch;              /* the renderer's: each upload stages its vertices there */
    uint32_t pending_head, pending_count, pending_live;
    uint32_t *visible, visible_count;
    uint32_t *cloud_order, cloud_count;   /* visible slots with clouds, farthest first */
    float *cloud_dist;
    WorldVertex *copy_mem;          /* far-tile CPU copies: blocks of TERRAIN_COPY_VERTS */
    int32_t *copy_next;
    int32_t copy_free;
    uint32_t copy_blocks, copy_used, copy_peak;
    int far_group_lod;
    uint32_t merge_gap_quads;
    GlProgram prog;
    GLuint ibo;                     /* the renderer's shared quad indices (not owned) */
    GLint u_viewproj, u_offset, u_tint, u_face_light, u_water;
    uint64_t gpu_bytes;             /* chunk vertex buffers */
    uint32_t last_uploads, last_upload_bytes;
    uint64_t uploads_total, dropped_no_slot, mesh_swaps, tile_rebuilds, copy_fallbacks;
    uint32_t vbo_count;             /* live chunk vertex buffers */
} Terrain;

/* What the renderer reports about the terrain (RenderStats). */
typedef struct TerrainStats {
    uint32_t resident, pending_live, vbo_count;
    uint32_t last_uploads, last_upload_bytes;
    uint64_t gpu_bytes;             /* chunk vertex buffers */
    uint64_t uploads_total, dropped_no_slot, mesh_swaps;
    uint32_t resident_lod[WORLD_LOD_MAX + 1];
} TerrainStats;

/* Bytes of scratch one upload stages at most (the renderer sizes its arena with it). */
size_t terrain_scratch_bytes(void);

/* quad_ibo: the renderer's shared quad index buffer (gl_quad_indices), drawn with, not owned. */
bool terrain_init(Terrain *t, MemBudget *mem, MemArena *scratch, GLuint quad_ibo, const RenderSettings *s,
                  SkyError *err);
void terrain_free(Terrain *t);

bool terrain_queue(Terrain *t, const ChunkMesh *m);
/* Meshes the upload queue can still take. */
uint32_t terrain_queue_room(const Terrain *t);
void terrain_drop(Terrain *t, int64_t cx, int64_t cz);
/* Rebuilds the far tiles whose members changed or left; returns the bytes uploaded. */
uint32_t terrain_flush_tiles(Terrain *t);
uint32_t terrain_upload_pending(Terrain *t, World *release_to, uint32_t max_meshes, uint32_t max_bytes);
void terrain_clear(Terrain *t);

/* Settings fixed at init (tiles and their copies are carved once): the LOD from which chunks
 * share tiles and the KiB of tile copies. */
void terrain_carved(const Terrain *t, int *far_group_lod, uint32_t *far_group_kib);
void terrain_set_merge_gap(Terrain *t, uint32_t quads);

/* The frame: rebuild changed tiles, cull the slots and order the cloud slots back to front;
 * then the opaque pass and, after the aircraft, the blended cloud pass. */
void terrain_prepare(Terrain *t, const RenderFrame *f, RenderCounters *rc);
void terrain_draw_opaque(Terrain *t, const RenderFrame *f, RenderCounters *rc);
void terrain_draw_clouds(Terrain *t, const RenderFrame *f, RenderCounters *rc);

void terrain_stats(const Terrain *t, TerrainStats *out);
bool terrain_chunk_info(const Terrain *t, int64_t cx, int64_t cz, RenderChunkInfo *out);

#endif
