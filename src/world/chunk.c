/* skyisles world: a chunk's voxels in the order its stages build on each other: the fill
 * (voxels.c: corners, voxels, column tops, colours), the pools in its caves (pools.c), then the
 * objects placed on that ground (props.c, which reads the fill). Above them, so none calls another
 * back. */
#include "world/world_internal.h"

void gen_chunk_voxels(const WorldGen *g, int64_t cx, int64_t cz, double time_s, ChunkScratch *s) {
    gen_chunk_fill(g, cx, cz, time_s, 0, WG_NX0, true, s);
    gen_cave_pools(g, s);
    gen_props(g, s);
    s->seams = false;
}

void gen_chunk_voxels_lod(const WorldGen *g, int64_t cx, int64_t cz, double time_s, int lod, ChunkScratch *s) {
    if (lod < 0) lod = 0;
    if (lod > WORLD_LOD_MAX) lod = WORLD_LOD_MAX;
    /* Samples reach block 32 + off, the seam samples of LOD + 1 block 32 + its offset: the
     * corner columns must cover the cell of the farthest. */
    int nx = (CHUNK_SIZE + WORLD_CELL_XZ + WORLD_LOD_OFFSET(lod < WORLD_LOD_MAX ? lod + 1 : lod)) / WORLD_CELL_XZ + 2;
    if (nx < WG_NX0) nx = WG_NX0;
    if (nx > WG_NX) nx = WG_NX;
    gen_chunk_fill(g, cx, cz, time_s, lod, nx, true, s);
    gen_cave_pools(g, s);
    gen_props(g, s);
    s->seams = true;
}
