/* skyisles terrain drawing: the slots culled against the view, the cloud slots ordered back to
 * front, and the opaque and cloud passes (per slot, only the face runs that can face the camera). */
#include <cglm/cglm.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "terrain_internal.h"

#define QUADS_PER_DRAW (WORLD_PART_MAX_VERTS / 4)   /* 16383: 16-bit indices */
_Static_assert(QUADS_PER_DRAW <= RENDER_QUAD_INDEX_QUADS, "a mesh part is drawn with the shared quad indices");
/* a_pos.w is the normal byte and the flags read as one short (bind_chunk_vertices). */
_Static_assert(offsetof(WorldVertex, normal) == 6 && offsetof(WorldVertex, flags) == 7, "a_pos.w is normal, flags");
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "a_pos.w reads the normal as the short's low byte");

/* ---------------------------------------------------------------- culling */
/* The slot's box, camera-relative, against the view-projection's six planes. */
static bool slot_in_view(const GpuChunk *c, const RenderView *v, vec4 planes[6]) {
    float size = (float)(CHUNK_SIZE * c->span);
    float x0 = (float)((double)c->cx * size - v->cam_x), z0 = (float)((double)c->cz * size - v->cam_z);
    vec3 box[2] = {{x0, (float)(c->y_min - v->cam_y) - 1.0f, z0},
                   {x0 + size, (float)(c->y_max - v->cam_y) + 1.0f, z0 + size}};
    return glm_aabb_frustum(box, planes);
}

/* Chunks the slot draws: one, or a tile's members. */
static uint32_t slot_chunks(const GpuChunk *c) {
    if (!c->tile) return 1;
    uint32_t n = 0;
    for (int q = 0; q < 4; q++) n += c->member[q] >= 0;
    return n;
}

/* Clouds blend: insertion sort by the slot centre's distance, farthest first. */
static void cloud_insert(Terrain *t, uint32_t si, const RenderView *v) {
    const GpuChunk *c = &t->slots[si];
    double half = CHUNK_SIZE * 0.5 * c->span;
    float dx = (float)(terrain_slot_origin_x(c) + half - v->cam_x);
    float dz = (float)(terrain_slot_origin_z(c) + half - v->cam_z);
    float d = dx * dx + dz * dz;
    uint32_t j = t->cloud_count++;
    while (j > 0 && t->cloud_dist[j - 1] < d) {
        t->cloud_dist[j] = t->cloud_dist[j - 1];
        t->cloud_order[j] = t->cloud_order[j - 1];
        j--;
    }
    t->cloud_dist[j] = d;
    t->cloud_order[j] = si;
}

void terrain_prepare(Terrain *t, const RenderFrame *f, RenderCounters *rc) {
    const RenderView *v = f->view;
    terrain_flush_tiles(t);
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
        uint32_t n = slot_chunks(c);
        if (!slot_in_view(c, v, planes)) {
            culled += n;
            continue;
        }
        t->visible[t->visible_count++] = i;
        visible += n;
        if (!c->tile) rc->chunks_visible_lod[c->lod] += 1;
        else
            for (int q = 0; q < 4; q++)
                if (c->member[q] >= 0) rc->chunks_visible_lod[t->chunks[c->member[q]].lod]++;
        if (c->cloud_verts && f->settings->live.draw_clouds) cloud_insert(t, i, v);
    }
    rc->chunks_visible = visible;
    rc->chunks_culled = culled;
}

/* ---------------------------------------------------------------- drawing */
static void bind_chunk_vertices(uint32_t first_vert) {
    const uint8_t *base = (const uint8_t *)0 + (size_t)first_vert * sizeof(WorldVertex);
    const GLsizei stride = sizeof(WorldVertex);
    /* x, y, z and a fourth short that is the normal byte plus 256 times the flags (little-endian):
     * the shader reads the face's normal from it, so the normal costs no attribute of its own and
     * no third pointer call per draw (a call that measurably costs the main thread per chunk). */
    glVertexAttribPointer(ATTR_POS, 4, GL_SHORT, GL_FALSE, stride, base + offsetof(WorldVertex, x));
    glVertexAttribPointer(ATTR_COLOR, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, base + offsetof(WorldVertex, r));
}

/* The quad in the shared indices a run starting at vertex `start` begins at. The vertex pointers
 * are set once per buffer (at vertex 0) and each run draws from its own place in the indices; only
 * a run past the 16-bit indices' reach sets them again, at its own first vertex. `*base` is where
 * they point in the bound buffer (UINT32_MAX: not set for it yet). */
static uint32_t run_quad(uint32_t *base, uint32_t start, uint32_t quads) {
    if (*base == UINT32_MAX || start < *base || (start - *base) % 4 ||
        (start - *base) / 4 + quads > RENDER_QUAD_INDEX_QUADS) {
        *base = start % 4 == 0 && start / 4 + quads <= RENDER_QUAD_INDEX_QUADS ? 0 : start;
        bind_chunk_vertices(*base);
    }
    return (start - *base) / 4;
}

/* Draws verts [first, first + count) of the bound buffer in batches of 16-bit indexable quads. */
static void draw_range(uint32_t *base, uint32_t first, uint32_t count, int lod, RenderStage stage,
                       RenderCounters *rc) {
    for (uint32_t done = 0; done < count;) {
        uint32_t quads = (count - done) / 4;
        if (quads > QUADS_PER_DRAW) quads = QUADS_PER_DRAW;
        if (!quads) break;
        size_t at = (size_t)run_quad(base, first + done, quads) * 6 * sizeof(GLushort);
        GL_TIMED(glDrawElements(GL_TRIANGLES, (GLsizei)(quads * 6), GL_UNSIGNED_SHORT, (const uint8_t *)0 + at));
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
    int bp = bm + 1, step = terrain_level_step(bm % TERRAIN_DIRS);
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
    const double cam[3] = {v->cam_x - terrain_slot_origin_x(c), v->cam_z - terrain_slot_origin_z(c),
                           v->cam_y - WORLD_Y_MIN};
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
    uint32_t base = UINT32_MAX;   /* the chunk's buffer was just bound */
    for (int i = 0; i < nr; i++) draw_range(&base, rs[i], re[i] - rs[i], c->lod, stage, rc);
}

/* Debug tint per LOD (colour, mix): 0 none, 1 yellow, 2 cyan, 3 magenta. */
static const float LOD_TINT[WORLD_LOD_MAX + 1][4] = {{1.0f, 1.0f, 1.0f, 0.0f}, {1.0f, 0.85f, 0.1f, 0.5f},
                                                     {0.1f, 0.8f, 1.0f, 0.5f}, {0.95f, 0.2f, 0.9f, 0.5f}};

static void set_offset(Terrain *t, const GpuChunk *c, const RenderView *v, bool tint) {
    glUniform3f(t->u_offset, (float)(terrain_slot_origin_x(c) - v->cam_x), (float)(0.0 - v->cam_y),
                (float)(terrain_slot_origin_z(c) - v->cam_z));
    glUniform4fv(t->u_tint, 1, LOD_TINT[tint ? c->lod : 0]);
}

/* Program, PSX look, camera and vertex layout shared by the opaque and cloud passes. */
static void pass_begin(Terrain *t, const RenderFrame *f) {
    glUseProgram(t->prog.id);
    psx_set_uniforms(&t->prog, &f->psx);
    glUniformMatrix4fv(t->u_viewproj, 1, GL_FALSE, f->viewproj);
    float face[6 * 3];
    psx_face_light(&f->psx, face);
    glUniform3fv(t->u_face_light, 6, face);
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
