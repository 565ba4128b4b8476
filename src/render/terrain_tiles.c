/* skyisles far tiles: chunks at the far LODs share one buffer per 2x2 tile, rebuilt from the CPU
 * copies of its members whenever one joins, changes or leaves (once per frame at most). */
#include "terrain_internal.h"

/* Quadrant of a tile (x + 2z) and its offset in blocks from the tile's corner. */
static int tile_quadrant(int64_t cx, int64_t cz) { return (int)(cx & 1) + 2 * (int)(cz & 1); }
static int quadrant_dx(int q) { return (q & 1) * CHUNK_SIZE; }
static int quadrant_dz(int q) { return (q >> 1) * CHUNK_SIZE; }

/* The tile of chunk (cx, cz): found, or a new slot (-1 when none is free). */
static int32_t tile_slot(Terrain *t, int64_t cx, int64_t cz) {
    int64_t tx = cx >> 1, tz = cz >> 1;   /* arithmetic shift (gcc, clang): floor division by 2 */
    int32_t si = terrain_find_tile(t, tx, tz);
    if (si < 0) {
        si = terrain_slot_alloc(t);
        if (si >= 0) {
            t->slots[si].tile = true;
            t->slots[si].span = 2;
            t->slots[si].cx = tx;
            t->slots[si].cz = tz;
        }
    }
    return si;
}

bool terrain_tile_join(Terrain *t, int32_t ri, const ChunkMesh *m) {
    ChunkRec *r = &t->chunks[ri];
    int32_t si = r->in_tile ? r->slot : tile_slot(t, m->cx, m->cz);
    if (si < 0) return false;
    int32_t first;
    uint32_t verts, opaque;
    /* The new copy is taken before the old one goes. */
    if (terrain_copy_take(t, m, &first, &verts, &opaque)) {
        terrain_copy_release(t, r);
        if (!r->in_tile && r->slot >= 0) terrain_slot_free(t, r->slot);   /* drawn from the tile from now */
        r->copy = first;
        r->copy_verts = verts;
        r->copy_opaque = opaque;
        r->in_tile = true;
        r->slot = si;
        t->slots[si].member[tile_quadrant(m->cx, m->cz)] = ri;
        t->slots[si].dirty = true;
        return true;
    }
    t->copy_fallbacks++;
    if (!r->in_tile) {
        bool empty = true;
        for (int q = 0; q < 4; q++) empty = empty && t->slots[si].member[q] < 0;
        if (empty) terrain_slot_free(t, si);
    }
    return false;
}

static void stage_copy(Terrain *t, Stager *st, const ChunkRec *r, int dx, int dz) {
    uint32_t left = r->copy_verts, done = 0;
    for (int32_t b = r->copy; b >= 0 && left; b = t->copy_next[b]) {
        uint32_t n = left < TERRAIN_COPY_VERTS ? left : TERRAIN_COPY_VERTS;
        const WorldVertex *v = &t->copy_mem[(size_t)b * TERRAIN_COPY_VERTS];
        /* The opaque/cloud boundary is a multiple of 4 and may fall inside a block. */
        uint32_t op = done < r->copy_opaque ? r->copy_opaque - done : 0;
        if (op > n) op = n;
        terrain_stage_quads(st, v, op, TERRAIN_OPAQUE, dx, dz);
        terrain_stage_quads(st, v + op, n - op, TERRAIN_CLOUDS, dx, dz);
        left -= n;
        done += n;
    }
}

/* Rebuilds a tile's buffer from its members' copies (frees the tile when none is left). */
static uint32_t tile_rebuild(Terrain *t, int32_t si) {
    GpuChunk *c = &t->slots[si];
    c->dirty = false;
    int members = 0, lod = WORLD_LOD_MAX;
    for (int q = 0; q < 4; q++)
        if (c->member[q] >= 0) {
            members++;
            if (t->chunks[c->member[q]].lod < lod) lod = t->chunks[c->member[q]].lod;
        }
    if (!members) {
        terrain_slot_free(t, si);
        return 0;
    }
    Stager st;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0) terrain_stage_begin(&st);
        else if (!terrain_stage_layout(t, &st, c)) return 0;
        for (int q = 0; q < 4; q++)
            if (c->member[q] >= 0) stage_copy(t, &st, &t->chunks[c->member[q]], quadrant_dx(q), quadrant_dz(q));
    }
    c->lod = (uint8_t)lod;
    t->tile_rebuilds++;
    return terrain_stage_upload(t, &st, c);
}

uint32_t terrain_flush_tiles(Terrain *t) {
    uint32_t bytes = 0;
    for (uint32_t i = 0; i < t->nslots; i++)
        if (t->slots[i].used && t->slots[i].tile && t->slots[i].dirty) bytes += tile_rebuild(t, (int32_t)i);
    return bytes;
}
