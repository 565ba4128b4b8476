/* skyisles terrain uploads: the queue of meshes waiting for the GPU (a newer mesh replaces a
 * waiting one, a dropped chunk's is skipped) and each upload within the per-frame budget, into
 * the chunk's far tile or a slot of its own. */
#include "terrain_internal.h"

/* ---------------------------------------------------------------- queue */
static PendingMesh *find_pending(Terrain *t, int64_t cx, int64_t cz) {
    for (uint32_t i = 0; i < t->pending_count; i++) {
        PendingMesh *p = &t->pending[(t->pending_head + i) % t->cap];
        if (p->mesh && p->cx == cx && p->cz == cz) return p;
    }
    return NULL;
}

uint32_t terrain_queue_room(const Terrain *t) { return t->cap - t->pending_count; }

bool terrain_queue(Terrain *t, const ChunkMesh *m) {
    PendingMesh *p = find_pending(t, m->cx, m->cz);
    if (p) {   /* a newer mesh of a chunk still waiting replaces the old one */
        p->mesh = m;
        return true;
    }
    if (t->pending_count == t->cap) return false;
    p = &t->pending[(t->pending_head + t->pending_count) % t->cap];
    p->mesh = m;
    p->cx = m->cx;
    p->cz = m->cz;
    t->pending_count++;
    t->pending_live++;
    return true;
}

void terrain_drop(Terrain *t, int64_t cx, int64_t cz) {
    PendingMesh *p = find_pending(t, cx, cz);
    if (p) {
        p->mesh = NULL;
        t->pending_live--;
    }
    int32_t ri = terrain_find_chunk(t, cx, cz);
    if (ri >= 0) terrain_forget_chunk(t, ri);   /* a tile it leaves is rebuilt by terrain_flush_tiles */
}

/* ---------------------------------------------------------------- upload */
/* The chunk's own slot (a new one when it was in a tile or had none); false when none is free:
 * then the chunk is forgotten. */
static bool own_slot(Terrain *t, int32_t ri, const ChunkMesh *m) {
    ChunkRec *r = &t->chunks[ri];
    if (r->in_tile) terrain_leave_tile(t, ri);
    if (r->slot >= 0) return true;
    r->slot = terrain_slot_alloc(t);
    if (r->slot < 0) {
        t->dropped_no_slot++;
        terrain_forget_chunk(t, ri);
        return false;
    }
    t->slots[r->slot].cx = m->cx;
    t->slots[r->slot].cz = m->cz;
    t->slots[r->slot].span = 1;
    return true;
}

/* Uploads one mesh for its chunk. A chunk already resident keeps being drawn from its old
 * buffer until this call replaces it (a LOD change never leaves a frame without the chunk).
 * Far meshes join their 2x2 tile (rebuilt by terrain_flush_tiles); the rest get a slot. */
static bool upload(Terrain *t, const ChunkMesh *m, uint32_t *bytes_out) {
    *bytes_out = 0;
    int32_t ri = terrain_record_take(t, m->cx, m->cz);
    if (ri < 0) {
        t->dropped_no_slot++;
        return false;
    }
    uint8_t lod = (uint8_t)(m->lod <= WORLD_LOD_MAX ? m->lod : WORLD_LOD_MAX);
    t->chunks[ri].lod = lod;
    if (t->copy_blocks && (int)lod >= t->far_group_lod && terrain_tile_join(t, ri, m)) return true;
    if (!own_slot(t, ri, m)) return false;
    GpuChunk *c = &t->slots[t->chunks[ri].slot];
    c->lod = lod;
    Stager st;
    terrain_stage_begin(&st);
    terrain_stage_mesh(&st, m);
    if (!terrain_stage_layout(t, &st, c)) return false;
    terrain_stage_mesh(&st, m);
    *bytes_out = terrain_stage_upload(t, &st, c);
    return true;
}

uint32_t terrain_upload_pending(Terrain *t, World *release_to, uint32_t max_meshes, uint32_t max_bytes) {
    uint32_t done = 0, bytes = 0;
    while (t->pending_count > 0) {
        PendingMesh *p = &t->pending[t->pending_head];
        if (p->mesh) {
            if (done >= max_meshes || (done > 0 && bytes >= max_bytes)) break;
            uint32_t b = 0;
            if (upload(t, p->mesh, &b)) {
                done++;
                bytes += b;
            }
            if (release_to) world_release_mesh(release_to, p->cx, p->cz);
            p->mesh = NULL;
            t->pending_live--;
        }
        t->pending_head = (t->pending_head + 1) % t->cap;
        t->pending_count--;
    }
    bytes += terrain_flush_tiles(t);   /* tiles whose members changed or left, once each */
    t->last_uploads = done;
    t->last_upload_bytes = bytes;
    t->uploads_total += done;
    return done;
}
