/* skyisles terrain internals shared by the terrain files of src/render (the renderer itself uses
 * terrain.h only): bucket and tile geometry, and what each file offers the others. */
#ifndef SKYISLES_RENDER_TERRAIN_INTERNAL_H
#define SKYISLES_RENDER_TERRAIN_INTERNAL_H

#include "terrain.h"

/* The most vertices one slot's buffer is staged with (every part of a mesh at its fullest). */
#define TERRAIN_STAGING_VERTS (WORLD_MAX_MESH_PARTS * WORLD_SLAB_VERTS)

/* Direction buckets of a kind (0..TERRAIN_DIRS-1) by the axis of their normal. */
static inline bool terrain_bucket_is_x(int b) { return b < TERRAIN_PAIR_Z; }
static inline bool terrain_bucket_is_y(int b) { return b >= TERRAIN_PAIR_Y; }
/* Blocks per level along a bucket's normal. */
static inline int terrain_level_step(int b) { return terrain_bucket_is_y(b) ? TERRAIN_LEVEL_Y : TERRAIN_LEVEL_XZ; }

/* World x/z of a slot's corner (in double: chunk coordinates can be far from the origin). */
static inline double terrain_slot_origin_x(const GpuChunk *c) { return (double)c->cx * CHUNK_SIZE * c->span; }
static inline double terrain_slot_origin_z(const GpuChunk *c) { return (double)c->cz * CHUNK_SIZE * c->span; }

/* ---------------------------------------------------------------- slots and residency (terrain_slots.c)
 * Chunk records, draw slots and the CPU copy blocks a far chunk keeps for its tile. */
/* The far-tile copy pool, carved from the budget (none when far chunks never share tiles). */
bool terrain_copies_init(Terrain *t, MemBudget *mem, const RenderSettings *s, SkyError *err);
int32_t terrain_find_chunk(const Terrain *t, int64_t cx, int64_t cz);
int32_t terrain_find_tile(const Terrain *t, int64_t tx, int64_t tz);
/* The chunk's record, a new one when it has none (counted resident); -1 when all are taken. */
int32_t terrain_record_take(Terrain *t, int64_t cx, int64_t cz);
int32_t terrain_slot_alloc(Terrain *t);
void terrain_slot_free(Terrain *t, int32_t si);
/* Copies a mesh's quads (opaque, then clouds) into a chain of blocks; false when short. */
bool terrain_copy_take(Terrain *t, const ChunkMesh *m, int32_t *first, uint32_t *verts, uint32_t *opaque);
void terrain_copy_release(Terrain *t, ChunkRec *r);
/* Takes chunk record ri out of its tile (the tile is rebuilt later, dirty). */
void terrain_leave_tile(Terrain *t, int32_t ri);
/* The chunk is no longer resident: its slot freed or its tile left, its record emptied. */
void terrain_forget_chunk(Terrain *t, int32_t ri);

/* ---------------------------------------------------------------- staging (terrain_stage.c)
 * A slot's quads in bucket and level order: two passes over the same quads, the first counts
 * per bucket and level (terrain_stage_begin, then the quads), terrain_stage_layout turns the
 * counts into offsets and takes the staging buffer from scratch, the second pass scatters the
 * same quads, terrain_stage_upload fills the slot's buffer and gives the scratch back. */
typedef struct Stager {
    uint32_t count[TERRAIN_BUCKETS][TERRAIN_LEVELS];
    uint32_t at[TERRAIN_BUCKETS][TERRAIN_LEVELS];
    int16_t pmin[TERRAIN_BUCKETS], pmax[TERRAIN_BUCKETS];
    int ymin, ymax;
    bool scatter;
    WorldVertex *dst;       /* in the renderer's scratch, from the layout to the upload */
    size_t scratch_mark;
} Stager;

void terrain_stage_begin(Stager *st);
/* n vertices of quads of one kind, moved by (dx, dz) blocks (a tile's quadrant). */
void terrain_stage_quads(Stager *st, const WorldVertex *v, uint32_t n, int kind, int dx, int dz);
void terrain_stage_mesh(Stager *st, const ChunkMesh *m);
/* False when the quads do not fit the scratch. */
bool terrain_stage_layout(Terrain *t, Stager *st, GpuChunk *c);
/* The slot's buffer created, refilled or deleted; returns its bytes. */
uint32_t terrain_stage_upload(Terrain *t, Stager *st, GpuChunk *c);

/* ---------------------------------------------------------------- far tiles (terrain_tiles.c) */
/* A far chunk's mesh copied into its 2x2 tile (made when missing; rebuilt by
 * terrain_flush_tiles). False when there is no slot or copy room: then the chunk is not in a
 * tile and takes a slot of its own. */
bool terrain_tile_join(Terrain *t, int32_t ri, const ChunkMesh *m);

#endif
