/* skyisles world: the slabs a mesh is written into: a new part or slab when the current one is
 * full, the count of a mesh's slabs and their release. */
#include "world/mesh_internal.h"

/* A part with room for a quad (a new slab when the current one is full), or false. */
static bool writer_room(SlabWriter *w) {
    if (w->oom || w->full) return false;
    bool room = w->slab && w->fill + 4 <= WORLD_SLAB_VERTS;
    if (!w->part || !room) {
        uint32_t np = w->m->opaque_parts + w->m->cloud_parts;
        if (np >= WORLD_MAX_MESH_PARTS) { w->full = true; return false; }
        if (!room) {
            WorldVertex *slab = mem_pool_alloc(w->pool);
            if (!slab) { w->oom = true; return false; }
            w->slab = slab;
            w->fill = 0;
        }
        w->part = &w->m->parts[np];
        w->part->verts = w->slab + w->fill;
        w->part->vert_count = 0;
        (*w->pass_parts)++;
    }
    return true;
}

/* The slow path of writer_quad (mesh_internal.h). */
WorldVertex *mesh_writer_slow(SlabWriter *w) {
    if (!writer_room(w)) return NULL;
    WorldVertex *q = w->slab + w->fill;
    w->fill += 4;
    w->part->vert_count += 4;
    return q;
}

WorldVertex *mesh_writer_span(SlabWriter *w, uint32_t *quads) {
    if (!writer_room(w)) return NULL;
    *quads = (WORLD_SLAB_VERTS - w->fill) / 4;
    return w->slab + w->fill;
}

uint32_t mesh_slab_count(const MemPool *slabs, const ChunkMesh *m) {
    uint32_t np = m->opaque_parts + m->cloud_parts, k = 0;
    for (uint32_t i = 0; i < np && i < WORLD_MAX_MESH_PARTS; i++)
        if (m->parts[i].verts && mem_pool_owns(slabs, m->parts[i].verts)) k++;
    return k;
}

void mesh_free(MemPool *slabs, ChunkMesh *m) {
    uint32_t np = m->opaque_parts + m->cloud_parts;
    for (uint32_t i = 0; i < np && i < WORLD_MAX_MESH_PARTS; i++) {
        /* A part that continues a slab (the first cloud part) owns no slab of its own. */
        if (m->parts[i].verts && mem_pool_owns(slabs, m->parts[i].verts)) mem_pool_free(slabs, (void *)m->parts[i].verts);
        m->parts[i].verts = NULL;
        m->parts[i].vert_count = 0;
    }
    m->opaque_parts = m->cloud_parts = 0;
}
