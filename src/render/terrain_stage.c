/* skyisles terrain staging: a slot's quads sorted by kind, face direction and plane level in the
 * renderer's scratch (the order the draw's face runs rely on), then into the slot's buffer. */
#include <string.h>

#include "terrain_internal.h"

/* Bucket order inside a kind: the direction pairs [-X, +X], [-Z, +Z], [-Y, +Y] (world normal codes). */
static const uint8_t BUCKET_NORMAL[TERRAIN_DIRS] = {WORLD_NORMAL_NX, WORLD_NORMAL_PX, WORLD_NORMAL_NZ,
                                                    WORLD_NORMAL_PZ, WORLD_NORMAL_NY, WORLD_NORMAL_PY};
static uint8_t bucket_of_normal(uint8_t n) {
    for (uint8_t b = 0; b < TERRAIN_DIRS; b++)
        if (BUCKET_NORMAL[b] == n) return b;
    return TERRAIN_DIRS - 1;
}

/* Level of a face plane (slot-local; y from WORLD_Y_MIN). */
static int level_of(int b, int plane) {
    int l = plane / terrain_level_step(b);
    return l < 0 ? 0 : (l >= TERRAIN_LEVELS ? TERRAIN_LEVELS - 1 : l);
}

size_t terrain_scratch_bytes(void) { return sizeof(WorldVertex) * TERRAIN_STAGING_VERTS; }

void terrain_stage_begin(Stager *st) {
    memset(st, 0, sizeof *st);
    for (int k = 0; k < TERRAIN_BUCKETS; k++) {
        st->pmin[k] = INT16_MAX;
        st->pmax[k] = INT16_MIN;
    }
    st->ymin = WORLD_Y_MAX;
    st->ymax = WORLD_Y_MIN;
}

/* The first pass: a quad counted in its bucket and level, its plane and heights in the bounds. */
static void count_quad(Stager *st, const WorldVertex *q, int k, int l, int plane) {
    st->count[k][l] += 4;
    if (plane < st->pmin[k]) st->pmin[k] = (int16_t)plane;
    if (plane > st->pmax[k]) st->pmax[k] = (int16_t)plane;
    for (int j = 0; j < 4; j++) {
        if (q[j].y < st->ymin) st->ymin = q[j].y;
        if (q[j].y > st->ymax) st->ymax = q[j].y;
    }
}

void terrain_stage_quads(Stager *st, const WorldVertex *v, uint32_t n, int kind, int dx, int dz) {
    for (uint32_t i = 0; i + 3 < n; i += 4) {
        const WorldVertex *q = &v[i];
        int b = bucket_of_normal(q->normal), k = kind + b;
        int plane = terrain_bucket_is_x(b) ? q->x + dx : (terrain_bucket_is_y(b) ? q->y - WORLD_Y_MIN : q->z + dz);
        int l = level_of(b, plane);
        if (!st->scatter) {
            count_quad(st, q, k, l, plane);
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

void terrain_stage_mesh(Stager *st, const ChunkMesh *m) {
    uint32_t np = m->opaque_parts + m->cloud_parts;
    if (np > WORLD_MAX_MESH_PARTS) np = WORLD_MAX_MESH_PARTS;
    for (uint32_t i = 0; i < np; i++)
        if (m->parts[i].verts)
            terrain_stage_quads(st, m->parts[i].verts, m->parts[i].vert_count,
                                i < m->opaque_parts ? TERRAIN_OPAQUE : TERRAIN_CLOUDS, 0, 0);
}

/* Offsets from the counts, and the staging buffer taken from scratch (terrain_stage_upload
 * gives it back). */
bool terrain_stage_layout(Terrain *t, Stager *st, GpuChunk *c) {
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
    if (run > TERRAIN_STAGING_VERTS) return false;   /* cannot happen: parts are bounded by the world */
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

uint32_t terrain_stage_upload(Terrain *t, Stager *st, GpuChunk *c) {
    uint32_t total = c->opaque_verts + c->cloud_verts;
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
