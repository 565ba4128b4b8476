/* skyisles terrain residency: which chunks are on the GPU and where (chunk records, draw slots,
 * the CPU copy blocks a far chunk keeps for its tile), and what the renderer reads about them. */
#include <string.h>

#include "terrain_internal.h"

bool terrain_copies_init(Terrain *t, MemBudget *mem, const RenderSettings *s, SkyError *err) {
    size_t kib = terrain_copy_kib(&s->create, t->cap);
    t->copy_blocks = (uint32_t)((kib << 10) / (TERRAIN_COPY_VERTS * sizeof(WorldVertex)));
    if (t->copy_blocks) {
        t->copy_mem = mem_carve(mem, (size_t)t->copy_blocks * TERRAIN_COPY_VERTS * sizeof(WorldVertex), 16);
        t->copy_next = mem_carve(mem, sizeof(int32_t) * t->copy_blocks, 16);
        if (!t->copy_mem || !t->copy_next) {
            sky_error_set(err, SKY_ERR_START, "render: memory budget too small for %zu KiB of far-tile copies", kib);
            return false;
        }
    }
    for (uint32_t i = 0; i < t->copy_blocks; i++) t->copy_next[i] = i + 1 < t->copy_blocks ? (int32_t)i + 1 : -1;
    t->copy_free = t->copy_blocks ? 0 : -1;
    return true;
}

/* ---------------------------------------------------------------- records and slots */
int32_t terrain_find_chunk(const Terrain *t, int64_t cx, int64_t cz) {
    for (uint32_t i = 0; i < t->cap; i++)
        if (t->chunks[i].used && t->chunks[i].cx == cx && t->chunks[i].cz == cz) return (int32_t)i;
    return -1;
}

int32_t terrain_find_tile(const Terrain *t, int64_t tx, int64_t tz) {
    for (uint32_t i = 0; i < t->nslots; i++)
        if (t->slots[i].used && t->slots[i].tile && t->slots[i].cx == tx && t->slots[i].cz == tz) return (int32_t)i;
    return -1;
}

int32_t terrain_record_take(Terrain *t, int64_t cx, int64_t cz) {
    int32_t ri = terrain_find_chunk(t, cx, cz);
    if (ri >= 0) {
        t->mesh_swaps++;
        return ri;
    }
    for (uint32_t i = 0; i < t->cap && ri < 0; i++)
        if (!t->chunks[i].used) ri = (int32_t)i;
    if (ri < 0) return -1;
    ChunkRec *r = &t->chunks[ri];
    memset(r, 0, sizeof *r);
    r->used = true;
    r->cx = cx;
    r->cz = cz;
    r->slot = -1;
    r->copy = -1;
    t->resident++;
    return ri;
}

int32_t terrain_slot_alloc(Terrain *t) {
    for (uint32_t i = 0; i < t->nslots; i++)
        if (!t->slots[i].used) {
            GpuChunk *c = &t->slots[i];
            memset(c, 0, sizeof *c);
            c->used = true;
            for (int k = 0; k < 4; k++) c->member[k] = -1;
            return (int32_t)i;
        }
    return -1;
}

void terrain_slot_free(Terrain *t, int32_t si) {
    GpuChunk *c = &t->slots[si];
    if (c->vbo) {
        glDeleteBuffers(1, &c->vbo);
        t->vbo_count--;
    }
    t->gpu_bytes -= c->bytes;
    memset(c, 0, sizeof *c);
}

/* ---------------------------------------------------------------- far-tile copies */
void terrain_copy_release(Terrain *t, ChunkRec *r) {
    int32_t b = r->copy;
    while (b >= 0) {
        int32_t next = t->copy_next[b];
        t->copy_next[b] = t->copy_free;
        t->copy_free = b;
        t->copy_used--;
        b = next;
    }
    r->copy = -1;
    r->copy_verts = r->copy_opaque = 0;
}

/* Vertices of whole quads in the mesh's parts: all of them, and the opaque ones. */
static uint32_t mesh_parts(const ChunkMesh *m, uint32_t *total, uint32_t *opaque) {
    uint32_t np = m->opaque_parts + m->cloud_parts;
    if (np > WORLD_MAX_MESH_PARTS) np = WORLD_MAX_MESH_PARTS;
    *total = *opaque = 0;
    for (uint32_t i = 0; i < np; i++) {
        uint32_t n = m->parts[i].verts ? m->parts[i].vert_count & ~3u : 0;
        *total += n;
        if (i < m->opaque_parts) *opaque += n;
    }
    return np;
}

/* A chain of `need` blocks off the free list; returns its first block. */
static int32_t copy_chain(Terrain *t, uint32_t need) {
    int32_t head = -1, tail = -1;
    for (uint32_t k = 0; k < need; k++) {
        int32_t b = t->copy_free;
        t->copy_free = t->copy_next[b];
        t->copy_next[b] = -1;
        if (tail >= 0) t->copy_next[tail] = b;
        else head = b;
        tail = b;
        t->copy_used++;
    }
    if (t->copy_used > t->copy_peak) t->copy_peak = t->copy_used;
    return head;
}

bool terrain_copy_take(Terrain *t, const ChunkMesh *m, int32_t *first, uint32_t *verts, uint32_t *opaque) {
    uint32_t total, op, np = mesh_parts(m, &total, &op);
    uint32_t need = (total + TERRAIN_COPY_VERTS - 1) / TERRAIN_COPY_VERTS;
    if (need > t->copy_blocks - t->copy_used) return false;
    int32_t head = copy_chain(t, need), b = head;
    uint32_t fill = 0;
    for (uint32_t i = 0; i < np; i++) {
        const WorldVertex *v = m->parts[i].verts;
        uint32_t n = v ? m->parts[i].vert_count & ~3u : 0;
        while (n) {
            if (fill == TERRAIN_COPY_VERTS) {
                b = t->copy_next[b];
                fill = 0;
            }
            uint32_t k = TERRAIN_COPY_VERTS - fill < n ? TERRAIN_COPY_VERTS - fill : n;
            memcpy(&t->copy_mem[(size_t)b * TERRAIN_COPY_VERTS + fill], v, k * sizeof(WorldVertex));
            v += k;
            n -= k;
            fill += k;
        }
    }
    *first = head;
    *verts = total;
    *opaque = op;
    return true;
}

/* ---------------------------------------------------------------- leaving */
void terrain_leave_tile(Terrain *t, int32_t ri) {
    ChunkRec *r = &t->chunks[ri];
    GpuChunk *c = &t->slots[r->slot];
    for (int q = 0; q < 4; q++)
        if (c->member[q] == ri) c->member[q] = -1;
    c->dirty = true;
    terrain_copy_release(t, r);
    r->in_tile = false;
    r->slot = -1;
}

void terrain_forget_chunk(Terrain *t, int32_t ri) {
    ChunkRec *r = &t->chunks[ri];
    if (r->in_tile) terrain_leave_tile(t, ri);
    else if (r->slot >= 0) terrain_slot_free(t, r->slot);
    memset(r, 0, sizeof *r);
    r->copy = -1;
    t->resident--;
}

void terrain_clear(Terrain *t) {
    for (uint32_t i = 0; i < t->cap; i++)
        if (t->chunks[i].used) terrain_forget_chunk(t, (int32_t)i);
    for (uint32_t i = 0; i < t->nslots; i++)
        if (t->slots[i].used) terrain_slot_free(t, (int32_t)i);
    t->pending_head = t->pending_count = t->pending_live = 0;
}

/* ---------------------------------------------------------------- what the renderer reads */
void terrain_stats(const Terrain *t, TerrainStats *out) {
    memset(out, 0, sizeof *out);
    out->resident = t->resident;
    out->pending_live = t->pending_live;
    out->vbo_count = t->vbo_count;
    out->last_uploads = t->last_uploads;
    out->last_upload_bytes = t->last_upload_bytes;
    out->gpu_bytes = t->gpu_bytes;
    out->uploads_total = t->uploads_total;
    out->dropped_no_slot = t->dropped_no_slot;
    out->mesh_swaps = t->mesh_swaps;
    for (uint32_t i = 0; i < t->cap; i++)
        if (t->chunks[i].used) out->resident_lod[t->chunks[i].lod]++;
}

bool terrain_chunk_info(const Terrain *t, int64_t cx, int64_t cz, RenderChunkInfo *out) {
    int32_t ri = terrain_find_chunk(t, cx, cz);
    if (ri < 0) return false;
    const ChunkRec *r = &t->chunks[ri];
    if (out) {
        out->lod = r->lod;
        out->in_tile = r->in_tile;
        out->vertices = 0;
        if (r->in_tile) out->vertices = r->copy_verts;
        else if (r->slot >= 0) out->vertices = t->slots[r->slot].opaque_verts + t->slots[r->slot].cloud_verts;
    }
    return true;
}
