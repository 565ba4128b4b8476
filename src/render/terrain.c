/* skyisles terrain on the GPU: chunk meshes uploaded as they arrive (per-frame budget), one VBO
 * per near chunk and one per 2x2 tile of far chunks, in place replacement on a LOD change,
 * frustum culling, faces turned away skipped per plane, clouds back to front after the opaque
 * pass. All storage is carved at create. */
#include <cglm/cglm.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "terrain.h"

#define QUADS_PER_DRAW (WORLD_PART_MAX_VERTS / 4)   /* 16383: 16-bit indices */
_Static_assert(QUADS_PER_DRAW <= RENDER_QUAD_INDEX_QUADS, "a mesh part is drawn with the shared quad indices");
#define STAGING_VERTS (WORLD_MAX_MESH_PARTS * WORLD_SLAB_VERTS)

/* Bucket order inside a kind: the direction pairs [-X, +X], [-Z, +Z], [-Y, +Y] (world normal codes). */
static const uint8_t BUCKET_NORMAL[TERRAIN_DIRS] = {WORLD_NORMAL_NX, WORLD_NORMAL_PX, WORLD_NORMAL_NZ,
                                                    WORLD_NORMAL_PZ, WORLD_NORMAL_NY, WORLD_NORMAL_PY};
static uint8_t bucket_of_normal(uint8_t n) {
    for (uint8_t b = 0; b < TERRAIN_DIRS; b++)
        if (BUCKET_NORMAL[b] == n) return b;
    return TERRAIN_DIRS - 1;
}

/* Direction buckets of a kind (0..TERRAIN_DIRS-1) by the axis of their normal. */
static bool bucket_is_x(int b) { return b < TERRAIN_PAIR_Z; }
static bool bucket_is_y(int b) { return b >= TERRAIN_PAIR_Y; }

static int level_step(int b) { return bucket_is_y(b) ? TERRAIN_LEVEL_Y : TERRAIN_LEVEL_XZ; }

/* Quadrant of a tile (x + 2z) and its offset in blocks from the tile's corner. */
static int tile_quadrant(int64_t cx, int64_t cz) { return (int)(cx & 1) + 2 * (int)(cz & 1); }
static int quadrant_dx(int q) { return (q & 1) * CHUNK_SIZE; }
static int quadrant_dz(int q) { return (q >> 1) * CHUNK_SIZE; }

/* World x/z of a slot's corner (in double: chunk coordinates can be far from the origin). */
static double slot_origin_x(const GpuChunk *c) { return (double)c->cx * CHUNK_SIZE * c->span; }
static double slot_origin_z(const GpuChunk *c) { return (double)c->cz * CHUNK_SIZE * c->span; }

size_t terrain_scratch_bytes(void) { return sizeof(WorldVertex) * STAGING_VERTS; }

/* Level of a face plane (slot-local; y from WORLD_Y_MIN). */
static int level_of(int b, int plane) {
    int l = plane / level_step(b);
    return l < 0 ? 0 : (l >= TERRAIN_LEVELS ? TERRAIN_LEVELS - 1 : l);
}

bool terrain_init(Terrain *t, MemBudget *mem, MemArena *scratch, GLuint quad_ibo, const RenderSettings *s,
                  SkyError *err) {
    memset(t, 0, sizeof *t);
    t->scratch = scratch;
    uint32_t cap = s->create.max_chunks;
    t->cap = cap;
    t->nslots = cap + cap / 4 + 8;   /* chunk slots and tiles */
    /* The debug tint shows each chunk's own LOD: no tiles then. */
    t->far_group_lod = s->create.lod_tint ? WORLD_LOD_MAX + 1 : s->create.far_group_lod;
    t->merge_gap_quads = s->live.merge_gap_quads;
    t->slots = mem_carve(mem, sizeof(GpuChunk) * t->nslots, 16);
    t->chunks = mem_carve(mem, sizeof(ChunkRec) * cap, 16);
    t->pending = mem_carve(mem, sizeof(PendingMesh) * cap, 16);
    t->visible = mem_carve(mem, sizeof(uint32_t) * t->nslots, 16);
    t->cloud_order = mem_carve(mem, sizeof(uint32_t) * t->nslots, 16);
    t->cloud_dist = mem_carve(mem, sizeof(float) * t->nslots, 16);
    if (!t->slots || !t->chunks || !t->pending || !t->visible || !t->cloud_order || !t->cloud_dist) {
        sky_error_set(err, SKY_ERR_START, "render: memory budget too small for %u GPU chunk slots", cap);
        return false;
    }
    /* Far tiles are rebuilt from CPU copies of their members (a far mesh is ~5-20 KB). */
    if (t->far_group_lod >= 0 && t->far_group_lod <= WORLD_LOD_MAX) {
        size_t kib = s->create.far_group_kib ? s->create.far_group_kib : (size_t)cap * TERRAIN_COPY_KIB_PER_CHUNK;
        t->copy_blocks = (uint32_t)((kib << 10) / (TERRAIN_COPY_VERTS * sizeof(WorldVertex)));
        if (t->copy_blocks) {
            t->copy_mem = mem_carve(mem, (size_t)t->copy_blocks * TERRAIN_COPY_VERTS * sizeof(WorldVertex), 16);
            t->copy_next = mem_carve(mem, sizeof(int32_t) * t->copy_blocks, 16);
            if (!t->copy_mem || !t->copy_next) {
                sky_error_set(err, SKY_ERR_START, "render: memory budget too small for %zu KiB of far-tile copies", kib);
                return false;
            }
        }
    }
    for (uint32_t i = 0; i < t->copy_blocks; i++) t->copy_next[i] = i + 1 < t->copy_blocks ? (int32_t)i + 1 : -1;
    t->copy_free = t->copy_blocks ? 0 : -1;
    if (!gl_program(&t->prog, PROG_TERRAIN, scratch, err)) return false;
    t->u_viewproj = gl_uniform(&t->prog, "u_viewproj");
    t->u_offset = gl_uniform(&t->prog, "u_offset");
    t->u_tint = gl_uniform(&t->prog, "u_tint");

    t->ibo = quad_ibo;
    if (gl_errors("terrain init")) {
        sky_error_set(err, SKY_ERR_START, "render: GL error while creating the terrain buffers");
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- records and slots */
static int32_t find_chunk(const Terrain *t, int64_t cx, int64_t cz) {
    for (uint32_t i = 0; i < t->cap; i++)
        if (t->chunks[i].used && t->chunks[i].cx == cx && t->chunks[i].cz == cz) return (int32_t)i;
    return -1;
}

static int32_t find_tile(const Terrain *t, int64_t tx, int64_t tz) {
    for (uint32_t i = 0; i < t->nslots; i++)
        if (t->slots[i].used && t->slots[i].tile && t->slots[i].cx == tx && t->slots[i].cz == tz) return (int32_t)i;
    return -1;
}

static int32_t alloc_slot(Terrain *t) {
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

static void free_slot(Terrain *t, int32_t si) {
    GpuChunk *c = &t->slots[si];
    if (c->vbo) {
        glDeleteBuffers(1, &c->vbo);
        t->vbo_count--;
    }
    t->gpu_bytes -= c->bytes;
    memset(c, 0, sizeof *c);
}

static void copy_release(Terrain *t, ChunkRec *r) {
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

/* Copies a mesh's quads (opaque, then clouds) into a chain of blocks; false when short. */
static bool copy_take(Terrain *t, const ChunkMesh *m, int32_t *first, uint32_t *verts, uint32_t *opaque) {
    uint32_t np = m->opaque_parts + m->cloud_parts, total = 0, op = 0;
    if (np > WORLD_MAX_MESH_PARTS) np = WORLD_MAX_MESH_PARTS;
    for (uint32_t i = 0; i < np; i++) {
        uint32_t n = m->parts[i].verts ? m->parts[i].vert_count & ~3u : 0;
        total += n;
        if (i < m->opaque_parts) op += n;
    }
    uint32_t need = (total + TERRAIN_COPY_VERTS - 1) / TERRAIN_COPY_VERTS;
    if (need > t->copy_blocks - t->copy_used) return false;
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
    int32_t b = head;
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

/* ---------------------------------------------------------------- staging */
/* Two passes over the same quads: count per bucket and level, then scatter in that order. */
typedef struct Stager {
    uint32_t count[TERRAIN_BUCKETS][TERRAIN_LEVELS];
    uint32_t at[TERRAIN_BUCKETS][TERRAIN_LEVELS];
    int16_t pmin[TERRAIN_BUCKETS], pmax[TERRAIN_BUCKETS];
    int ymin, ymax;
    bool scatter;
    WorldVertex *dst;       /* in the renderer's scratch, from stage_layout to stage_upload */
    size_t scratch_mark;
} Stager;

static void stage_quads(Stager *st, const WorldVertex *v, uint32_t n, int kind, int dx, int dz) {
    for (uint32_t i = 0; i + 3 < n; i += 4) {
        const WorldVertex *q = &v[i];
        int b = bucket_of_normal(q->normal), k = kind + b;
        int plane = bucket_is_x(b) ? q->x + dx : (bucket_is_y(b) ? q->y - WORLD_Y_MIN : q->z + dz);
        int l = level_of(b, plane);
        if (!st->scatter) {
            st->count[k][l] += 4;
            if (plane < st->pmin[k]) st->pmin[k] = (int16_t)plane;
            if (plane > st->pmax[k]) st->pmax[k] = (int16_t)plane;
            for (int j = 0; j < 4; j++) {
                if (q[j].y < st->ymin) st->ymin = q[j].y;
                if (q[j].y > st->ymax) st->ymax = q[j].y;
            }
            continue;
        }
        WorldVertex *o = &st->dst[st->at[k][l]];
        memcpy(o, q, 4 * sizeof *o);
        if (dx || dz)
            for (int j = 0; j < 4; j++) {
                o[j].x = (int16_t)(o[j].x + dx);
                o[j].z = (int16_t)(o[j].z + dz);
            }
        st->at[k][l] += 4;
    }
}

static void stage_begin(Stager *st) {
    memset(st, 0, sizeof *st);
    for (int k = 0; k < TERRAIN_BUCKETS; k++) {
        st->pmin[k] = INT16_MAX;
        st->pmax[k] = INT16_MIN;
    }
    st->ymin = WORLD_Y_MAX;
    st->ymax = WORLD_Y_MIN;
}

/* Offsets from the counts, and the staging buffer taken from scratch (stage_upload gives it
 * back); false when the quads do not fit. */
static bool stage_layout(Terrain *t, Stager *st, GpuChunk *c) {
    uint32_t run = 0;
    for (int k = 0; k < TERRAIN_BUCKETS; k++)
        for (int l = 0; l < TERRAIN_LEVELS; l++) {
            c->off[k][l] = run;
            st->at[k][l] = run;
            run += st->count[k][l];
        }
    for (int k = 0; k < TERRAIN_BUCKETS; k++) {
        c->off[k][TERRAIN_LEVELS] = k + 1 < TERRAIN_BUCKETS ? c->off[k + 1][0] : run;
        c->plane_min[k] = st->pmin[k];
        c->plane_max[k] = st->pmax[k];
    }
    if (run > STAGING_VERTS) return false;   /* cannot happen: parts are bounded by the world */
    st->scratch_mark = scratch_mark(t->scratch);
    st->dst = mem_arena_alloc(t->scratch, sizeof(WorldVertex) * run, 16);
    if (!st->dst) {
        scratch_release(t->scratch, st->scratch_mark);
        return false;
    }
    c->opaque_verts = c->off[TERRAIN_CLOUDS][0];
    c->cloud_verts = run - c->off[TERRAIN_CLOUDS][0];
    c->y_min = (int16_t)(st->ymin <= st->ymax ? st->ymin : 0);
    c->y_max = (int16_t)(st->ymin <= st->ymax ? st->ymax : 0);
    st->scatter = true;
    return true;
}

/* The staged vertices into the slot's buffer (created, refilled or deleted); the staging
 * buffer goes back to scratch. */
static uint32_t stage_upload(Terrain *t, Stager *st, GpuChunk *c, uint32_t total) {
    t->gpu_bytes -= c->bytes;
    c->bytes = total * (uint32_t)sizeof(WorldVertex);
    if (c->bytes) {
        if (!c->vbo) {
            glGenBuffers(1, &c->vbo);
            t->vbo_count++;
        }
        glBindBuffer(GL_ARRAY_BUFFER, c->vbo);
        GL_TIMED(glBufferData(GL_ARRAY_BUFFER, c->bytes, st->dst, GL_STATIC_DRAW));
        glBindBuffer(GL_ARRAY_BUFFER, 0);
    } else if (c->vbo) {
        glDeleteBuffers(1, &c->vbo);
        c->vbo = 0;
        t->vbo_count--;
    }
    t->gpu_bytes += c->bytes;
    scratch_release(t->scratch, st->scratch_mark);
    st->dst = NULL;
    return c->bytes;
}

static void stage_mesh(Stager *st, const ChunkMesh *m) {
    uint32_t np = m->opaque_parts + m->cloud_parts;
    if (np > WORLD_MAX_MESH_PARTS) np = WORLD_MAX_MESH_PARTS;
    for (uint32_t i = 0; i < np; i++)
        if (m->parts[i].verts)
            stage_quads(st, m->parts[i].verts, m->parts[i].vert_count,
                        i < m->opaque_parts ? TERRAIN_OPAQUE : TERRAIN_CLOUDS, 0, 0);
}

static void stage_copy(Terrain *t, Stager *st, const ChunkRec *r, int dx, int dz) {
    uint32_t left = r->copy_verts, done = 0;
    for (int32_t b = r->copy; b >= 0 && left; b = t->copy_next[b]) {
        uint32_t n = left < TERRAIN_COPY_VERTS ? left : TERRAIN_COPY_VERTS;
        const WorldVertex *v = &t->copy_mem[(size_t)b * TERRAIN_COPY_VERTS];
        /* The opaque/cloud boundary is a multiple of 4 and may fall inside a block. */
        uint32_t op = done < r->copy_opaque ? r->copy_opaque - done : 0;
        if (op > n) op = n;
        stage_quads(st, v, op, TERRAIN_OPAQUE, dx, dz);
        stage_quads(st, v + op, n - op, TERRAIN_CLOUDS, dx, dz);
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
        free_slot(t, si);
        return 0;
    }
    Stager st;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0) stage_begin(&st);
        else if (!stage_layout(t, &st, c)) return 0;
        for (int q = 0; q < 4; q++)
            if (c->member[q] >= 0) stage_copy(t, &st, &t->chunks[c->member[q]], quadrant_dx(q), quadrant_dz(q));
    }
    c->lod = (uint8_t)lod;
    t->tile_rebuilds++;
    return stage_upload(t, &st, c, c->opaque_verts + c->cloud_verts);
}

uint32_t terrain_flush_tiles(Terrain *t) {
    uint32_t bytes = 0;
    for (uint32_t i = 0; i < t->nslots; i++)
        if (t->slots[i].used && t->slots[i].tile && t->slots[i].dirty) bytes += tile_rebuild(t, (int32_t)i);
    return bytes;
}

/* Takes chunk record r out of its tile (the tile is rebuilt later, dirty). */
static void leave_tile(Terrain *t, int32_t ri) {
    ChunkRec *r = &t->chunks[ri];
    GpuChunk *c = &t->slots[r->slot];
    for (int q = 0; q < 4; q++)
        if (c->member[q] == ri) c->member[q] = -1;
    c->dirty = true;
    copy_release(t, r);
    r->in_tile = false;
    r->slot = -1;
}

static void forget_chunk(Terrain *t, int32_t ri) {
    ChunkRec *r = &t->chunks[ri];
    if (r->in_tile) leave_tile(t, ri);
    else if (r->slot >= 0) free_slot(t, r->slot);
    memset(r, 0, sizeof *r);
    r->copy = -1;
    t->resident--;
}

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
    int32_t ri = find_chunk(t, cx, cz);
    if (ri >= 0) forget_chunk(t, ri);   /* a tile it leaves is rebuilt by terrain_flush_tiles */
}

/* ---------------------------------------------------------------- upload */
/* Uploads one mesh for its chunk. A chunk already resident keeps being drawn from its old
 * buffer until this call replaces it (a LOD change never leaves a frame without the chunk).
 * Far meshes join their 2x2 tile (rebuilt by terrain_flush_tiles); the rest get a slot. */
static bool upload(Terrain *t, const ChunkMesh *m, uint32_t *bytes_out) {
    *bytes_out = 0;
    int32_t ri = find_chunk(t, m->cx, m->cz);
    if (ri < 0) {
        for (uint32_t i = 0; i < t->cap && ri < 0; i++)
            if (!t->chunks[i].used) ri = (int32_t)i;
        if (ri < 0) {
            t->dropped_no_slot++;
            return false;
        }
        ChunkRec *r = &t->chunks[ri];
        memset(r, 0, sizeof *r);
        r->used = true;
        r->cx = m->cx;
        r->cz = m->cz;
        r->slot = -1;
        r->copy = -1;
        t->resident++;
    } else {
        t->mesh_swaps++;
    }
    ChunkRec *r = &t->chunks[ri];
    uint8_t lod = (uint8_t)(m->lod <= WORLD_LOD_MAX ? m->lod : WORLD_LOD_MAX);
    r->lod = lod;

    if (t->copy_blocks && (int)lod >= t->far_group_lod) {
        int64_t tx = m->cx >> 1, tz = m->cz >> 1;   /* arithmetic shift (gcc, clang): floor division by 2 */
        int32_t si = r->in_tile ? r->slot : find_tile(t, tx, tz);
        if (si < 0) {
            si = alloc_slot(t);
            if (si >= 0) {
                t->slots[si].tile = true;
                t->slots[si].span = 2;
                t->slots[si].cx = tx;
                t->slots[si].cz = tz;
            }
        }
        int32_t first;
        uint32_t verts, opaque;
        if (si >= 0) {
            /* The new copy is taken before the old one goes. */
            if (copy_take(t, m, &first, &verts, &opaque)) {
                copy_release(t, r);
                if (!r->in_tile && r->slot >= 0) free_slot(t, r->slot);   /* drawn from the tile from now */
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
                if (empty) free_slot(t, si);
            }
        }
    }
    /* A slot of its own. */
    if (r->in_tile) leave_tile(t, ri);
    if (r->slot < 0) {
        r->slot = alloc_slot(t);
        if (r->slot < 0) {
            t->dropped_no_slot++;
            forget_chunk(t, ri);
            return false;
        }
        t->slots[r->slot].cx = m->cx;
        t->slots[r->slot].cz = m->cz;
        t->slots[r->slot].span = 1;
    }
    GpuChunk *c = &t->slots[r->slot];
    c->lod = lod;
    Stager st;
    stage_begin(&st);
    stage_mesh(&st, m);
    if (!stage_layout(t, &st, c)) return false;
    stage_mesh(&st, m);
    *bytes_out = stage_upload(t, &st, c, c->opaque_verts + c->cloud_verts);
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

void terrain_clear(Terrain *t) {
    for (uint32_t i = 0; i < t->cap; i++)
        if (t->chunks[i].used) forget_chunk(t, (int32_t)i);
    for (uint32_t i = 0; i < t->nslots; i++)
        if (t->slots[i].used) free_slot(t, (int32_t)i);
    t->pending_head = t->pending_count = t->pending_live = 0;
}

/* ---------------------------------------------------------------- settings and stats */
void terrain_carved(const Terrain *t, int *far_group_lod, uint32_t *far_group_kib) {
    *far_group_lod = t->far_group_lod;
    *far_group_kib = (uint32_t)(((size_t)t->copy_blocks * TERRAIN_COPY_VERTS * sizeof(WorldVertex)) >> 10);
}

void terrain_set_merge_gap(Terrain *t, uint32_t quads) { t->merge_gap_quads = quads; }

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
    int32_t ri = find_chunk(t, cx, cz);
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

/* ---------------------------------------------------------------- culling */
void terrain_prepare(Terrain *t, const RenderFrame *f, RenderCounters *rc) {
    const RenderView *v = f->view;
    terrain_flush_tiles(t);
    /* Cull: slot boxes camera-relative against the view-projection's six planes. */
    vec4 planes[6];
    mat4 vp;
    memcpy(vp, f->viewproj, sizeof vp);
    glm_frustum_planes(vp, planes);
    t->visible_count = 0;
    t->cloud_count = 0;
    uint32_t culled = 0, visible = 0;
    for (uint32_t i = 0; i < t->nslots; i++) {
        const GpuChunk *c = &t->slots[i];
        if (!c->used || !c->bytes) continue;
        float size = (float)(CHUNK_SIZE * c->span);
        float x0 = (float)((double)c->cx * size - v->cam_x), z0 = (float)((double)c->cz * size - v->cam_z);
        vec3 box[2] = {{x0, (float)(c->y_min - v->cam_y) - 1.0f, z0},
                       {x0 + size, (float)(c->y_max - v->cam_y) + 1.0f, z0 + size}};
        uint32_t n = 1;
        if (c->tile) {
            n = 0;
            for (int q = 0; q < 4; q++) n += c->member[q] >= 0;
        }
        if (!glm_aabb_frustum(box, planes)) {
            culled += n;
            continue;
        }
        t->visible[t->visible_count++] = i;
        visible += n;
        if (!c->tile) rc->chunks_visible_lod[c->lod] += 1;
        else
            for (int q = 0; q < 4; q++)
                if (c->member[q] >= 0) rc->chunks_visible_lod[t->chunks[c->member[q]].lod]++;
        if (c->cloud_verts && f->settings->live.draw_clouds) {
            /* Clouds blend: insertion sort by the slot centre's distance, farthest first. */
            double half = CHUNK_SIZE * 0.5 * c->span;
            float dx = (float)(slot_origin_x(c) + half - v->cam_x);
            float dz = (float)(slot_origin_z(c) + half - v->cam_z);
            float d = dx * dx + dz * dz;
            uint32_t j = t->cloud_count++;
            while (j > 0 && t->cloud_dist[j - 1] < d) {
                t->cloud_dist[j] = t->cloud_dist[j - 1];
                t->cloud_order[j] = t->cloud_order[j - 1];
                j--;
            }
            t->cloud_dist[j] = d;
            t->cloud_order[j] = i;
        }
    }
    rc->chunks_visible = visible;
    rc->chunks_culled = culled;
}

/* ---------------------------------------------------------------- drawing */
static void bind_chunk_vertices(uint32_t first_vert) {
    const uint8_t *base = (const uint8_t *)0 + (size_t)first_vert * sizeof(WorldVertex);
    const GLsizei stride = sizeof(WorldVertex);
    glVertexAttribPointer(ATTR_POS, 3, GL_SHORT, GL_FALSE, stride, base + offsetof(WorldVertex, x));
    glVertexAttribPointer(ATTR_COLOR, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, base + offsetof(WorldVertex, r));
}

/* Draws verts [first, first + count) of the bound buffer in batches of 16-bit indexable quads. */
static void draw_range(uint32_t first, uint32_t count, int lod, RenderStage stage, RenderCounters *rc) {
    for (uint32_t done = 0; done < count;) {
        uint32_t quads = (count - done) / 4;
        if (quads > QUADS_PER_DRAW) quads = QUADS_PER_DRAW;
        if (!quads) break;
        bind_chunk_vertices(first + done);
        GL_TIMED(glDrawElements(GL_TRIANGLES, (GLsizei)(quads * 6), GL_UNSIGNED_SHORT, (const void *)0));
        render_count_draw(rc, stage, quads * 2);
        rc->triangles_lod[lod] += quads * 2;
        done += quads * 4;
    }
}

/* The faces of one direction pair (minus bucket bm, plus bucket bm + 1) turned toward a camera
 * at slot-local coordinate cam along their axis: minus faces at plane p face it when cam < p
 * (a suffix of the bucket's levels), plus faces when cam > p (a prefix). Whole levels are
 * kept, so the run may hold a few faces seen edge-on or from behind; the GPU culls those. */
static void pair_run(const GpuChunk *c, int bm, double cam, uint32_t *first, uint32_t *end) {
    int bp = bm + 1, step = level_step(bm % TERRAIN_DIRS);
    double lv = floor(cam / step);
    int lc = lv < 0.0 ? -1 : (lv >= TERRAIN_LEVELS ? TERRAIN_LEVELS : (int)lv);
    uint32_t mid = c->off[bp][0];
    uint32_t s = mid, e = mid;
    if (c->off[bm][TERRAIN_LEVELS] > c->off[bm][0] && cam < c->plane_max[bm])
        s = c->off[bm][lc < 0 ? 0 : (lc >= TERRAIN_LEVELS ? TERRAIN_LEVELS - 1 : lc)];
    if (c->off[bp][TERRAIN_LEVELS] > c->off[bp][0] && cam > c->plane_min[bp])
        e = c->off[bp][lc + 1 > TERRAIN_LEVELS ? TERRAIN_LEVELS : (lc + 1 < 0 ? 0 : lc + 1)];
    *first = s;
    *end = e;
}

/* Draws the faces of one kind (TERRAIN_OPAQUE or TERRAIN_CLOUDS) that can face the camera: up
 * to three runs (x, z and y pairs); runs closer than merge_gap_quads go out as one call. */
static void draw_kind(const Terrain *t, const GpuChunk *c, int kind, const RenderView *v, RenderStage stage,
                      RenderCounters *rc) {
    static const int PAIRS[3] = {TERRAIN_PAIR_X, TERRAIN_PAIR_Z, TERRAIN_PAIR_Y};
    const double cam[3] = {v->cam_x - slot_origin_x(c), v->cam_z - slot_origin_z(c), v->cam_y - WORLD_Y_MIN};
    uint32_t rs[3], re[3];
    int nr = 0;
    for (int p = 0; p < 3; p++) {
        uint32_t s, e;
        pair_run(c, kind + PAIRS[p], cam[p], &s, &e);
        if (e <= s) continue;
        if (nr > 0 && s - re[nr - 1] <= t->merge_gap_quads * 4) {
            re[nr - 1] = e;
            continue;
        }
        rs[nr] = s;
        re[nr] = e;
        nr++;
    }
    for (int i = 0; i < nr; i++) draw_range(rs[i], re[i] - rs[i], c->lod, stage, rc);
}

/* Debug tint per LOD (colour, mix): 0 none, 1 yellow, 2 cyan, 3 magenta. */
static const float LOD_TINT[WORLD_LOD_MAX + 1][4] = {{1.0f, 1.0f, 1.0f, 0.0f}, {1.0f, 0.85f, 0.1f, 0.5f},
                                                     {0.1f, 0.8f, 1.0f, 0.5f}, {0.95f, 0.2f, 0.9f, 0.5f}};

static void set_offset(Terrain *t, const GpuChunk *c, const RenderView *v, bool tint) {
    glUniform3f(t->u_offset, (float)(slot_origin_x(c) - v->cam_x), (float)(0.0 - v->cam_y),
                (float)(slot_origin_z(c) - v->cam_z));
    glUniform4fv(t->u_tint, 1, LOD_TINT[tint ? c->lod : 0]);
}

/* Program, PSX look, camera and vertex layout shared by the opaque and cloud passes. */
static void pass_begin(Terrain *t, const RenderFrame *f) {
    glUseProgram(t->prog.id);
    psx_set_uniforms(&t->prog, &f->psx);
    glUniformMatrix4fv(t->u_viewproj, 1, GL_FALSE, f->viewproj);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, t->ibo);
    glEnableVertexAttribArray(ATTR_POS);
    glEnableVertexAttribArray(ATTR_COLOR);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
}

static void pass_end(void) {
    glDisableVertexAttribArray(ATTR_POS);
    glDisableVertexAttribArray(ATTR_COLOR);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
}

void terrain_draw_opaque(Terrain *t, const RenderFrame *f, RenderCounters *rc) {
    pass_begin(t, f);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    for (uint32_t k = 0; k < t->visible_count; k++) {
        const GpuChunk *c = &t->slots[t->visible[k]];
        if (!c->opaque_verts) continue;
        glBindBuffer(GL_ARRAY_BUFFER, c->vbo);
        set_offset(t, c, f->view, f->settings->create.lod_tint);
        draw_kind(t, c, TERRAIN_OPAQUE, f->view, RENDER_STAGE_TERRAIN, rc);
    }
    pass_end();
}

void terrain_draw_clouds(Terrain *t, const RenderFrame *f, RenderCounters *rc) {
    if (!t->cloud_count) return;
    pass_begin(t, f);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);   /* translucent: tested against the scene, not written */
    for (uint32_t k = 0; k < t->cloud_count; k++) {
        const GpuChunk *c = &t->slots[t->cloud_order[k]];
        glBindBuffer(GL_ARRAY_BUFFER, c->vbo);
        set_offset(t, c, f->view, f->settings->create.lod_tint);
        draw_kind(t, c, TERRAIN_CLOUDS, f->view, RENDER_STAGE_CLOUDS, rc);
    }
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    pass_end();
}

void terrain_free(Terrain *t) {
    if (t->slots) terrain_clear(t);
    gl_program_free(&t->prog);
    t->ibo = 0;   /* the renderer's: it deletes it */
}
