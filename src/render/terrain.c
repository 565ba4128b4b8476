/* skyisles terrain on the GPU: chunk meshes uploaded as they arrive (per-frame budget), one
 * VBO per chunk (opaque quads, then cloud quads), per-chunk frustum culling, clouds sorted
 * back to front and blended after the opaque pass. All storage is carved at create. */
#include <cglm/cglm.h>
#include <string.h>

#include "render_internal.h"

#define QUADS_PER_DRAW (WORLD_PART_MAX_VERTS / 4)   /* 16383: 16-bit indices */
#define STAGING_VERTS (WORLD_MAX_MESH_PARTS * WORLD_SLAB_VERTS)

/* Bucket order: -X, -Z, +Y, +X, +Z, -Y (world normal codes), chosen so the usual visible
 * sets of a chunk seen from above (+Y with one of +-X and one of +-Z) are mostly one run. */
static const uint8_t BUCKET_NORMAL[6] = {WORLD_NORMAL_NX, WORLD_NORMAL_NZ, WORLD_NORMAL_PY,
                                         WORLD_NORMAL_PX, WORLD_NORMAL_PZ, WORLD_NORMAL_NY};
static uint8_t bucket_of_normal(uint8_t n) {
    for (uint8_t b = 0; b < 6; b++)
        if (BUCKET_NORMAL[b] == n) return b;
    return 2;
}

bool terrain_init(Terrain *t, MemBudget *mem, uint32_t max_chunks, SkyError *err) {
    memset(t, 0, sizeof *t);
    t->cap = max_chunks;
    t->slots = mem_carve(mem, sizeof(GpuChunk) * max_chunks, 16);
    t->pending = mem_carve(mem, sizeof(PendingMesh) * max_chunks, 16);
    t->visible = mem_carve(mem, sizeof(uint32_t) * max_chunks, 16);
    t->cloud_order = mem_carve(mem, sizeof(uint32_t) * max_chunks, 16);
    t->cloud_dist = mem_carve(mem, sizeof(float) * max_chunks, 16);
    t->staging = mem_carve(mem, sizeof(WorldVertex) * STAGING_VERTS, 16);
    if (!t->slots || !t->pending || !t->visible || !t->cloud_order || !t->cloud_dist || !t->staging) {
        sky_error_set(err, 1, "render: memory budget too small for %u GPU chunk slots", max_chunks);
        return false;
    }
    t->prog = gl_program("terrain.vert", "terrain.frag", NULL, err);
    if (!t->prog) return false;
    t->u_viewproj = gl_uniform(t->prog, "u_viewproj");
    t->u_offset = gl_uniform(t->prog, "u_offset");
    t->u_snap = gl_uniform(t->prog, "u_snap");
    t->u_fog_density = gl_uniform(t->prog, "u_fog_density");
    t->u_fog_color = gl_uniform(t->prog, "u_fog_color");
    t->u_levels = gl_uniform(t->prog, "u_levels");
    t->u_dither = gl_uniform(t->prog, "u_dither");

    /* One index buffer for every quad: {0,1,2, 0,2,3} + 4 per quad. Built once at boot. */
    static uint16_t idx[QUADS_PER_DRAW * 6];
    for (uint32_t q = 0; q < QUADS_PER_DRAW; q++) {
        uint16_t b = (uint16_t)(q * 4);
        uint16_t *o = &idx[q * 6];
        o[0] = b; o[1] = (uint16_t)(b + 1); o[2] = (uint16_t)(b + 2);
        o[3] = b; o[4] = (uint16_t)(b + 2); o[5] = (uint16_t)(b + 3);
    }
    glGenBuffers(1, &t->ibo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, t->ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    t->ibo_bytes = sizeof idx;
    if (gl_errors("terrain init")) {
        sky_error_set(err, 1, "render: GL error while creating the terrain buffers");
        return false;
    }
    return true;
}

static GpuChunk *find_slot(Terrain *t, int32_t cx, int32_t cz) {
    for (uint32_t i = 0; i < t->cap; i++)
        if (t->slots[i].used && t->slots[i].cx == cx && t->slots[i].cz == cz) return &t->slots[i];
    return NULL;
}

static void free_slot(Terrain *t, GpuChunk *c) {
    if (c->vbo) glDeleteBuffers(1, &c->vbo);
    t->gpu_bytes -= c->bytes;
    t->resident--;
    memset(c, 0, sizeof *c);
}

static PendingMesh *find_pending(Terrain *t, int32_t cx, int32_t cz) {
    for (uint32_t i = 0; i < t->pending_count; i++) {
        PendingMesh *p = &t->pending[(t->pending_head + i) % t->cap];
        if (p->mesh && p->cx == cx && p->cz == cz) return p;
    }
    return NULL;
}

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

void terrain_drop(Terrain *t, int32_t cx, int32_t cz) {
    PendingMesh *p = find_pending(t, cx, cz);
    if (p) {
        p->mesh = NULL;
        t->pending_live--;
    }
    GpuChunk *c = find_slot(t, cx, cz);
    if (c) free_slot(t, c);
}

/* Uploads one mesh into its chunk's slot (reused when the chunk is already resident). */
static bool upload(Terrain *t, const ChunkMesh *m, uint32_t *bytes_out) {
    uint32_t nparts = m->opaque_parts + m->cloud_parts;
    if (nparts > WORLD_MAX_MESH_PARTS) nparts = WORLD_MAX_MESH_PARTS;
    GpuChunk *c = find_slot(t, m->cx, m->cz);
    if (!c) {
        for (uint32_t i = 0; i < t->cap && !c; i++)
            if (!t->slots[i].used) c = &t->slots[i];
        if (!c) {
            t->dropped_no_slot++;
            return false;
        }
        c->used = true;
        c->cx = m->cx;
        c->cz = m->cz;
        t->resident++;
    }
    t->gpu_bytes -= c->bytes;
    /* Regroup the quads by kind (opaque, cloud) and face direction into the staging copy. */
    uint32_t count[TERRAIN_BUCKETS] = {0};
    int ymin = WORLD_Y_MAX, ymax = WORLD_Y_MIN;
    for (int k = 0; k < TERRAIN_BUCKETS; k++) {
        c->plane_min[k] = INT16_MAX;
        c->plane_max[k] = INT16_MIN;
    }
    for (uint32_t i = 0; i < nparts; i++) {
        const ChunkMeshPart *part = &m->parts[i];
        if (!part->verts) continue;
        uint32_t kind = i < m->opaque_parts ? 0 : 6;
        for (uint32_t v = 0; v + 3 < part->vert_count; v += 4) {
            const WorldVertex *q = &part->verts[v];
            uint32_t k = kind + bucket_of_normal(q->normal);
            count[k] += 4;
            int axis = q->normal < 2 ? q->x : (q->normal < 4 ? q->y : q->z);
            if (axis < c->plane_min[k]) c->plane_min[k] = (int16_t)axis;
            if (axis > c->plane_max[k]) c->plane_max[k] = (int16_t)axis;
            for (int j = 0; j < 4; j++) {
                if (q[j].y < ymin) ymin = q[j].y;
                if (q[j].y > ymax) ymax = q[j].y;
            }
        }
    }
    c->first[0] = 0;
    for (int k = 0; k < TERRAIN_BUCKETS; k++) c->first[k + 1] = c->first[k] + count[k];
    uint32_t total = c->first[TERRAIN_BUCKETS];
    if (total > STAGING_VERTS) total = 0;   /* cannot happen: parts are bounded by the world */
    uint32_t at[TERRAIN_BUCKETS];
    memcpy(at, c->first, sizeof at);
    for (uint32_t i = 0; i < nparts && total; i++) {
        const ChunkMeshPart *part = &m->parts[i];
        if (!part->verts) continue;
        uint32_t kind = i < m->opaque_parts ? 0 : 6;
        for (uint32_t v = 0; v + 3 < part->vert_count; v += 4) {
            uint32_t k = kind + bucket_of_normal(part->verts[v].normal);
            memcpy(&t->staging[at[k]], &part->verts[v], 4 * sizeof(WorldVertex));
            at[k] += 4;
        }
    }
    c->opaque_verts = total ? c->first[6] : 0;
    c->cloud_verts = total ? total - c->first[6] : 0;
    c->bytes = total * (uint32_t)sizeof(WorldVertex);
    if (c->bytes) {
        if (!c->vbo) glGenBuffers(1, &c->vbo);
        glBindBuffer(GL_ARRAY_BUFFER, c->vbo);
        GL_TIMED(glBufferData(GL_ARRAY_BUFFER, c->bytes, t->staging, GL_STATIC_DRAW));
        glBindBuffer(GL_ARRAY_BUFFER, 0);
    } else if (c->vbo) {
        glDeleteBuffers(1, &c->vbo);
        c->vbo = 0;
    }
    c->y_min = (int16_t)(ymin <= ymax ? ymin : 0);
    c->y_max = (int16_t)(ymin <= ymax ? ymax : 0);
    t->gpu_bytes += c->bytes;
    *bytes_out = c->bytes;
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
    t->last_uploads = done;
    t->last_upload_bytes = bytes;
    t->uploads_total += done;
    return done;
}

void terrain_clear(Terrain *t) {
    for (uint32_t i = 0; i < t->cap; i++)
        if (t->slots[i].used) free_slot(t, &t->slots[i]);
    t->pending_head = t->pending_count = t->pending_live = 0;
}

static void bind_chunk_vertices(uint32_t first_vert) {
    const uint8_t *base = (const uint8_t *)0 + (size_t)first_vert * sizeof(WorldVertex);
    glVertexAttribPointer(ATTR_POS, 3, GL_SHORT, GL_FALSE, sizeof(WorldVertex), base);
    glVertexAttribPointer(ATTR_COLOR, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(WorldVertex), base + 8);
}

/* Draws verts [first, first + count) of the bound chunk in batches of 16-bit indexable quads. */
static void draw_range(Terrain *t, uint32_t first, uint32_t count, RenderCounters *rc) {
    for (uint32_t done = 0; done < count;) {
        uint32_t quads = (count - done) / 4;
        if (quads > QUADS_PER_DRAW) quads = QUADS_PER_DRAW;
        if (!quads) break;
        bind_chunk_vertices(first + done);
        GL_TIMED(glDrawElements(GL_TRIANGLES, (GLsizei)(quads * 6), GL_UNSIGNED_SHORT, (const void *)0));
        rc->draw_calls++;
        rc->triangles += quads * 2;
        done += quads * 4;
    }
    (void)t;
}

/* Visible buckets of one kind (0 opaque, 6 clouds) as a bit mask in bucket order: a face with
 * normal +X at plane x faces the camera only when the camera is beyond it (x > plane). */
static uint32_t bucket_mask(const GpuChunk *c, int kind, const RenderView *v) {
    double ox = (double)c->cx * CHUNK_SIZE, oz = (double)c->cz * CHUNK_SIZE;
    uint32_t mask = 0;
    for (int b = 0; b < 6; b++) {
        int k = kind + b;
        if (c->first[k + 1] == c->first[k]) continue;
        bool vis;
        switch (BUCKET_NORMAL[b]) {
        case WORLD_NORMAL_PX: vis = v->cam_x > ox + c->plane_min[k]; break;
        case WORLD_NORMAL_NX: vis = v->cam_x < ox + c->plane_max[k]; break;
        case WORLD_NORMAL_PY: vis = v->cam_y > c->plane_min[k]; break;
        case WORLD_NORMAL_NY: vis = v->cam_y < c->plane_max[k]; break;
        case WORLD_NORMAL_PZ: vis = v->cam_z > oz + c->plane_min[k]; break;
        default: vis = v->cam_z < oz + c->plane_max[k]; break;
        }
        if (vis) mask |= 1u << b;
    }
    return mask;
}

/* Draws the visible buckets of one kind with ONE call spanning the first to the last visible
 * bucket (a hidden bucket in between is left to back-face culling): the draw-call count stays
 * one per chunk and kind, and the usual visible sets are contiguous in the bucket order. */
static void draw_buckets(Terrain *t, const GpuChunk *c, int kind, const RenderView *v, RenderCounters *rc) {
    uint32_t mask = bucket_mask(c, kind, v);
    if (!mask) return;
    int b = __builtin_ctz(mask), e = 32 - __builtin_clz(mask);
    uint32_t first = c->first[kind + b], last = c->first[kind + e];
    draw_range(t, first, last - first, rc);
}

static void set_offset(Terrain *t, const GpuChunk *c, const RenderView *v) {
    glUniform3f(t->u_offset, (float)((double)c->cx * CHUNK_SIZE - v->cam_x), (float)(0.0 - v->cam_y),
                (float)((double)c->cz * CHUNK_SIZE - v->cam_z));
}

void terrain_draw(Terrain *t, const float viewproj[16], const RenderView *v, const TerrainDrawParams *dp,
                  RenderCounters *rc) {
    /* Cull: chunk boxes camera-relative against the view-projection's six planes. */
    vec4 planes[6];
    mat4 vp;
    memcpy(vp, viewproj, sizeof vp);
    glm_frustum_planes(vp, planes);
    t->visible_count = 0;
    uint32_t culled = 0;
    for (uint32_t i = 0; i < t->cap; i++) {
        const GpuChunk *c = &t->slots[i];
        if (!c->used || !c->bytes) continue;
        float x0 = (float)((double)c->cx * CHUNK_SIZE - v->cam_x), z0 = (float)((double)c->cz * CHUNK_SIZE - v->cam_z);
        vec3 box[2] = {{x0, (float)(c->y_min - v->cam_y) - 1.0f, z0},
                       {x0 + CHUNK_SIZE, (float)(c->y_max - v->cam_y) + 1.0f, z0 + CHUNK_SIZE}};
        if (glm_aabb_frustum(box, planes)) t->visible[t->visible_count++] = i;
        else culled++;
    }
    rc->chunks_visible = t->visible_count;
    rc->chunks_culled = culled;

    glUseProgram(t->prog);
    glUniformMatrix4fv(t->u_viewproj, 1, GL_FALSE, viewproj);
    glUniform2fv(t->u_snap, 1, dp->snap);
    glUniform1f(t->u_fog_density, dp->fog_density);
    glUniform3fv(t->u_fog_color, 1, dp->fog_color);
    glUniform1f(t->u_levels, dp->levels);
    glUniform1f(t->u_dither, dp->dither);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, t->ibo);
    glEnableVertexAttribArray(ATTR_POS);
    glEnableVertexAttribArray(ATTR_COLOR);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDepthMask(GL_TRUE);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glDisable(GL_BLEND);

    uint32_t clouds = 0;
    for (uint32_t k = 0; k < t->visible_count; k++) {
        const GpuChunk *c = &t->slots[t->visible[k]];
        if (c->cloud_verts && dp->clouds) {
            float dx = (float)((double)c->cx * CHUNK_SIZE + 16.0 - v->cam_x);
            float dz = (float)((double)c->cz * CHUNK_SIZE + 16.0 - v->cam_z);
            /* insertion sort, farthest first */
            float d = dx * dx + dz * dz;
            uint32_t j = clouds++;
            while (j > 0 && t->cloud_dist[j - 1] < d) {
                t->cloud_dist[j] = t->cloud_dist[j - 1];
                t->cloud_order[j] = t->cloud_order[j - 1];
                j--;
            }
            t->cloud_dist[j] = d;
            t->cloud_order[j] = t->visible[k];
        }
        if (!c->opaque_verts) continue;
        glBindBuffer(GL_ARRAY_BUFFER, c->vbo);
        set_offset(t, c, v);
        draw_buckets(t, c, 0, v, rc);
    }
    if (dp->before_clouds) dp->before_clouds(dp->before_clouds_ctx);
    if (clouds) {
        glUseProgram(t->prog);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, t->ibo);
        glEnableVertexAttribArray(ATTR_POS);
        glEnableVertexAttribArray(ATTR_COLOR);
        glEnable(GL_DEPTH_TEST);
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glDepthMask(GL_FALSE);
        for (uint32_t k = 0; k < clouds; k++) {
            const GpuChunk *c = &t->slots[t->cloud_order[k]];
            glBindBuffer(GL_ARRAY_BUFFER, c->vbo);
            set_offset(t, c, v);
            draw_buckets(t, c, 6, v, rc);
        }
        glDepthMask(GL_TRUE);
        glDisable(GL_BLEND);
    }
    glDisableVertexAttribArray(ATTR_POS);
    glDisableVertexAttribArray(ATTR_COLOR);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
}

void terrain_free(Terrain *t) {
    if (t->slots) terrain_clear(t);
    if (t->ibo) glDeleteBuffers(1, &t->ibo);
    if (t->prog) glDeleteProgram(t->prog);
    t->ibo = t->prog = 0;
}
