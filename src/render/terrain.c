/* skyisles terrain on the GPU: its storage carved at create, its program, and the settings it
 * was carved with. The work is in the other terrain files: residency (terrain_slots.c), staging
 * (terrain_stage.c), far tiles (terrain_tiles.c), uploads (terrain_upload.c), cull and draw
 * (terrain_draw.c). */
#include <string.h>

#include "terrain_internal.h"

/* Records, slots, the upload ring and the per-frame lists, all for max_chunks chunks. */
static bool carve_records(Terrain *t, MemBudget *mem, uint32_t cap, SkyError *err) {
    t->cap = cap;
    t->nslots = cap + cap / 4 + 8;   /* chunk slots and tiles */
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
    return true;
}

bool terrain_init(Terrain *t, MemBudget *mem, MemArena *scratch, GLuint quad_ibo, const RenderSettings *s,
                  SkyError *err) {
    memset(t, 0, sizeof *t);
    t->scratch = scratch;
    t->far_group_lod = terrain_far_lod(&s->create);
    t->merge_gap_quads = s->live.merge_gap_quads;
    if (!carve_records(t, mem, s->create.max_chunks, err) || !terrain_copies_init(t, mem, s, err)) return false;
    if (!gl_program(&t->prog, PROG_TERRAIN, scratch, err)) return false;
    t->u_viewproj = gl_uniform(&t->prog, "u_viewproj");
    t->u_offset = gl_uniform(&t->prog, "u_offset");
    t->u_tint = gl_uniform(&t->prog, "u_tint");
    t->u_face_light = gl_uniform(&t->prog, "u_face_light");
    t->u_water = gl_uniform(&t->prog, "u_water");

    t->ibo = quad_ibo;
    if (gl_errors("terrain init")) {
        sky_error_set(err, SKY_ERR_START, "render: GL error while creating the terrain buffers");
        return false;
    }
    return true;
}

void terrain_carved(const Terrain *t, int *far_group_lod, uint32_t *far_group_kib) {
    *far_group_lod = t->far_group_lod;
    *far_group_kib = (uint32_t)(((size_t)t->copy_blocks * TERRAIN_COPY_VERTS * sizeof(WorldVertex)) >> 10);
}

void terrain_set_merge_gap(Terrain *t, uint32_t quads) { t->merge_gap_quads = quads; }

void terrain_free(Terrain *t) {
    if (t->slots) terrain_clear(t);
    gl_program_free(&t->prog);
    t->ibo = 0;   /* the renderer's: it deletes it */
}
