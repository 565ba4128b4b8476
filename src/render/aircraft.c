/* skyisles aircraft (W12): our own low-poly model packed from assets/models/aircraft.txt at
 * build time, drawn through the PSX path (snap, fog, 15-bit dither) with a spinning propeller,
 * once for each aircraft instance of the view (the player's, the ghost, others), tinted. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "aircraft_uniforms.h"
#include "render_internal.h"

bool aircraft_init(AircraftModel *m, MemArena *scratch, SkyError *err) {
    memset(m, 0, sizeof *m);
    if (!gl_program(&m->prog, PROG_AIRCRAFT, scratch, err)) return false;
    m->u = aircraft_uniforms(&m->prog);
    glGenBuffers(1, &m->vbo);
    glBindBuffer(GL_ARRAY_BUFFER, m->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(render_aircraft_vert_count * sizeof(ModelVertex)),
                 render_aircraft_verts, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    m->vert_count = (GLsizei)render_aircraft_vert_count;
    m->bytes = render_aircraft_vert_count * (uint32_t)sizeof(ModelVertex);
    if (gl_errors("aircraft init")) {
        sky_error_set(err, SKY_ERR_START, "render: GL error while uploading the aircraft");
        return false;
    }
    return true;
}

/* Model matrix: local x right, y up, -z nose, placed camera-relative. */
static void model_matrix(const RenderView *v, const RenderInstance *in, float out[16]) {
    float right[3], up[3], fwd[3];
    render_basis(in->yaw, in->pitch, in->roll, right, up, fwd);
    float t[3] = {(float)(in->x - v->cam_x), (float)(in->y - v->cam_y), (float)(in->z - v->cam_z)};
    for (int i = 0; i < 3; i++) {
        out[0 + i] = right[i];
        out[4 + i] = up[i];
        out[8 + i] = -fwd[i];
        out[12 + i] = t[i];
    }
    out[3] = out[7] = out[11] = 0.0f;
    out[15] = 1.0f;
}

/* The model's vertex layout bound from vbo (and unbound after). */
static void model_bind(GLuint vbo) {
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glEnableVertexAttribArray(ATTR_POS);
    glEnableVertexAttribArray(ATTR_NORMAL);
    glEnableVertexAttribArray(ATTR_COLOR);
    const GLsizei stride = sizeof(ModelVertex);
    glVertexAttribPointer(ATTR_POS, 4, GL_SHORT, GL_FALSE, stride, (const void *)offsetof(ModelVertex, x));
    glVertexAttribPointer(ATTR_NORMAL, 3, GL_BYTE, GL_TRUE, stride, (const void *)offsetof(ModelVertex, nx));
    glVertexAttribPointer(ATTR_COLOR, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, (const void *)offsetof(ModelVertex, r));
}

static void model_unbind(void) {
    glDisableVertexAttribArray(ATTR_POS);
    glDisableVertexAttribArray(ATTR_NORMAL);
    glDisableVertexAttribArray(ATTR_COLOR);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

static void model_depth_state(bool write) {
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDepthMask(write ? GL_TRUE : GL_FALSE);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
}

/* Opaque, depth-tested, back faces culled: `count` ModelVertex triangles of vbo from `first`
 * (the aircraft, a course's rings), counted at the aircraft's stage. */
void model_draw_arrays(GLuint vbo, GLint first, GLsizei count, RenderCounters *rc) {
    model_depth_state(true);
    glDisable(GL_BLEND);
    model_bind(vbo);
    GL_TIMED(glDrawArrays(GL_TRIANGLES, first, count));
    render_count_draw(rc, RENDER_STAGE_AIRCRAFT, (uint32_t)count / 3);
    model_unbind();
}

/* A translucent instance (the ghost): the same model in one draw call, blended by a constant
 * alpha (GLES2's blend colour, no other shader), depth-tested but not written, so opaque
 * instances and the world show through it. */
static void draw_translucent(AircraftModel *m, float alpha, RenderCounters *rc) {
    model_depth_state(false);
    glEnable(GL_BLEND);
    glBlendColor(0.0f, 0.0f, 0.0f, alpha);
    glBlendFunc(GL_CONSTANT_ALPHA, GL_ONE_MINUS_CONSTANT_ALPHA);
    model_bind(m->vbo);
    GL_TIMED(glDrawArrays(GL_TRIANGLES, 0, m->vert_count));
    render_count_draw(rc, RENDER_STAGE_AIRCRAFT, (uint32_t)m->vert_count / 3);
    model_unbind();
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
}

/* The view's aircraft instances of one kind: the opaque ones, or the translucent ones. */
static void draw_instances(AircraftModel *m, const RenderView *v, uint32_t n, bool translucent, RenderCounters *rc) {
    for (uint32_t i = 0; i < n; i++) {
        const RenderInstance *in = &v->instances[i];
        if (in->model != RENDER_MODEL_AIRCRAFT || in->tint[3] <= 0.0f || (in->tint[3] < 1.0f) != translucent)
            continue;
        float model[16];
        model_matrix(v, in, model);
        glUniformMatrix4fv(m->u.model, 1, GL_FALSE, model);
        glUniform2f(m->u.prop, cosf(in->prop_angle), sinf(in->prop_angle));
        glUniform3fv(m->u.tint, 1, in->tint);
        if (translucent) draw_translucent(m, in->tint[3], rc);
        else model_draw_arrays(m->vbo, 0, m->vert_count, rc);
    }
}

/* Opaque instances first, in list order, then the translucent ones over them. */
void aircraft_draw(AircraftModel *m, const RenderFrame *f, RenderCounters *rc) {
    const RenderView *v = f->view;
    uint32_t n = v->instance_count < RENDER_INSTANCES_MAX ? v->instance_count : RENDER_INSTANCES_MAX;
    if (!n) return;
    glUseProgram(m->prog.id);
    psx_set_uniforms(&m->prog, &f->psx);
    glUniformMatrix4fv(m->u.viewproj, 1, GL_FALSE, f->viewproj);
    glUniform3fv(m->u.prop_centre, 1, render_aircraft_prop_centre);
    draw_instances(m, v, n, false, rc);
    draw_instances(m, v, n, true, rc);
}

void aircraft_free(AircraftModel *m) {
    if (m->vbo) glDeleteBuffers(1, &m->vbo);
    gl_program_free(&m->prog);
    memset(m, 0, sizeof *m);
}
