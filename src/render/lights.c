/* skyisles night lights: the view's landmark lights and each aircraft's navigation lights,
 * gathered once a frame into a fixed list, scaled by the night; the nearest colour faces around
 * them (PsxParams' lamps, per vertex in the prelude) and every one is a glowing quad (a beam: a
 * long quad turning about its lamp) in one draw call from a buffer made at create. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "render_internal.h"

bool lights_init(LightsLayer *l, MemArena *scratch, GLuint quad_ibo, SkyError *err) {
    memset(l, 0, sizeof *l);
    if (!gl_program(&l->prog, PROG_GLOW, scratch, err)) return false;
    l->u_viewproj = gl_uniform(&l->prog, "u_viewproj");
    l->quad_ibo = quad_ibo;
    glGenBuffers(1, &l->vbo);
    glBindBuffer(GL_ARRAY_BUFFER, l->vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof l->verts, NULL, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    l->bytes = sizeof l->verts;
    if (gl_errors("lights init")) {
        sky_error_set(err, SKY_ERR_START, "render: GL error while making the night lights' buffer");
        return false;
    }
    return true;
}

/* The navigation lights of an aircraft (model metres: x right, y up, nose toward -z): red on
 * the left wingtip, green on the right, a white strobe on the tail flashing 0.1 s a second (from 0.5 s on). By day they show faintly. */
static void nav_lights(LightsLayer *l, const RenderInstance *in, double time_s) {
    static const float AT[3][3] = {{-3.25f, 0.13f, -0.65f}, {3.25f, 0.13f, -0.65f}, {0.0f, 0.30f, 2.58f}};
    static const float RGB[3][3] = {{1.0f, 0.12f, 0.08f}, {0.15f, 1.0f, 0.25f}, {1.0f, 1.0f, 1.0f}};
    float right[3], up[3], fwd[3];
    render_basis(in->yaw, in->pitch, in->roll, right, up, fwd);
    double phase = fmod(time_s, 1.0);
    bool strobe = phase >= 0.5 && phase < 0.6;
    for (int k = 0; k < 3 && l->count < LIGHTS_MAX; k++) {
        if (k == 2 && !strobe) continue;
        RenderLight *o = &l->list[l->count++];
        memset(o, 0, sizeof *o);
        o->x = in->x + right[0] * AT[k][0] + up[0] * AT[k][1] - fwd[0] * AT[k][2];
        o->y = in->y + right[1] * AT[k][0] + up[1] * AT[k][1] - fwd[1] * AT[k][2];
        o->z = in->z + right[2] * AT[k][0] + up[2] * AT[k][1] - fwd[2] * AT[k][2];
        memcpy(o->rgb, RGB[k], sizeof o->rgb);
        o->size = k == 2 ? 0.45f : 0.4f;
        o->day = 0.15f;
        o->reach = k == 2 ? 8.0f : 0.0f;
    }
}

/* The nearest lights with a reach, camera-relative, into the prelude's lamps (unused: reach 1,
 * colour 0). */
static void pick_lamps(const LightsLayer *l, const RenderView *v, PsxParams *psx) {
    float best[PSX_LAMPS];
    for (int i = 0; i < PSX_LAMPS; i++) {
        best[i] = 1e30f;
        memset(&psx->lamp[i], 0, sizeof psx->lamp[i]);
        psx->lamp[i].reach = 1.0f;
    }
    for (uint32_t k = 0; k < l->count; k++) {
        const RenderLight *o = &l->list[k];
        float rel[3] = {(float)(o->x - v->cam_x), (float)(o->y - v->cam_y), (float)(o->z - v->cam_z)};
        float d = rel[0] * rel[0] + rel[1] * rel[1] + rel[2] * rel[2];
        if (!(o->reach > 0.0f) || o->rgb[0] + o->rgb[1] + o->rgb[2] <= 0.0f) continue;
        int j = PSX_LAMPS - 1;
        if (d >= best[j]) continue;
        for (; j > 0 && best[j - 1] > d; j--) {   /* insertion: nearest first */
            best[j] = best[j - 1];
            psx->lamp[j] = psx->lamp[j - 1];
        }
        best[j] = d;
        memcpy(psx->lamp[j].pos, rel, sizeof rel);
        psx->lamp[j].reach = o->reach;
        memcpy(psx->lamp[j].rgb, o->rgb, sizeof psx->lamp[j].rgb);
    }
}

void lights_prepare(LightsLayer *l, RenderFrame *f) {
    const RenderView *v = f->view;
    l->count = 0;
    uint32_t nv = v->light_count < RENDER_LIGHTS_MAX ? v->light_count : RENDER_LIGHTS_MAX;
    for (uint32_t i = 0; i < nv; i++) l->list[l->count++] = v->lights[i];
    uint32_t ni = v->instance_count < RENDER_INSTANCES_MAX ? v->instance_count : RENDER_INSTANCES_MAX;
    for (uint32_t i = 0; i < ni; i++)
        if (v->instances[i].nav_lights && v->instances[i].tint[3] > 0.0f) nav_lights(l, &v->instances[i], v->time_s);
    /* Strength: the night's, never under the light's own by day; the sky debug frame has none. */
    uint32_t kept = 0;
    for (uint32_t k = 0; k < l->count; k++) {
        RenderLight o = l->list[k];
        float s = f->sky.night > o.day ? f->sky.night : o.day;
        if (s <= 0.02f || f->sky_debug) continue;
        for (int c = 0; c < 3; c++) o.rgb[c] *= s;
        l->list[kept++] = o;
    }
    l->count = kept;
    pick_lamps(l, v, &f->psx);
}

static void put_vertex(GlowVertex *gv, const float p[3], float u, float w, const float rgb[3]) {
    gv->x = p[0], gv->y = p[1], gv->z = p[2];
    gv->u = (int8_t)lrintf(u * 127.0f);
    gv->v = (int8_t)lrintf(w * 127.0f);
    gv->pad[0] = gv->pad[1] = 0;
    float m = rgb[0] > rgb[1] ? (rgb[0] > rgb[2] ? rgb[0] : rgb[2]) : (rgb[1] > rgb[2] ? rgb[1] : rgb[2]);
    float a = m > 1.0f ? 1.0f : m;   /* strength in alpha, the hue at full brightness */
    for (int c = 0; c < 3; c++) (&gv->r)[c] = (uint8_t)lrintf(m > 0.0f ? rgb[c] / m * 255.0f : 0.0f);
    gv->a = (uint8_t)lrintf(a * 255.0f);
}

/* One light's quad: a glow faces the camera (its right and up); a beam runs level from the lamp
 * along its yaw, as wide as the glow, turned about its length toward the camera. */
static void light_quad(GlowVertex *q, const RenderLight *o, const RenderView *v, const float right[3],
                       const float up[3]) {
    float c[3] = {(float)(o->x - v->cam_x), (float)(o->y - v->cam_y), (float)(o->z - v->cam_z)};
    float a[3], b[3], p[3];
    if (o->kind == RENDER_LIGHT_BEAM) {
        float d[3] = {sinf(o->yaw), 0.0f, -cosf(o->yaw)};   /* yaw 0 along -z, + to the right */
        /* across = d x (the view toward the lamp), normalised, times the beam's half width */
        float x = d[1] * c[2] - d[2] * c[1], y = d[2] * c[0] - d[0] * c[2], z = d[0] * c[1] - d[1] * c[0];
        float n = sqrtf(x * x + y * y + z * z);
        float w = n > 1e-6f ? 1.5f / n : 0.0f;
        for (int i = 0; i < 3; i++) {
            a[i] = (i == 0 ? x : (i == 1 ? y : z)) * w;
            b[i] = d[i] * o->size;
        }
        for (int k = 0; k < 4; k++) {
            float s = (k == 0 || k == 3) ? -1.0f : 1.0f, t = k >= 2 ? 1.0f : 0.0f;
            for (int i = 0; i < 3; i++) p[i] = c[i] + a[i] * s + b[i] * t;
            put_vertex(&q[k], p, s, t, o->rgb);
        }
        return;
    }
    /* A far glow keeps a few low-res pixels (about 0.012 rad at 240 lines): a lamp seen across
     * the island still shows. */
    static const float CORNER[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    float dist = sqrtf(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    float size = dist * 0.012f;
    if (size < o->size) size = o->size;
    /* Drawn a little toward the camera so the box the lamp sits in does not hide it. */
    float pull = 1.5f * o->size < 0.5f * dist ? 1.5f * o->size : 0.5f * dist;
    for (int i = 0; i < 3 && dist > 0.0f; i++) c[i] -= c[i] / dist * pull;
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < 3; i++) p[i] = c[i] + (right[i] * CORNER[k][0] + up[i] * CORNER[k][1]) * size;
        put_vertex(&q[k], p, CORNER[k][0], CORNER[k][1], o->rgb);
    }
}

static void glow_bind(void) {
    const GLsizei stride = sizeof(GlowVertex);
    glEnableVertexAttribArray(ATTR_POS);
    glEnableVertexAttribArray(ATTR_UV);
    glEnableVertexAttribArray(ATTR_COLOR);
    glVertexAttribPointer(ATTR_POS, 3, GL_FLOAT, GL_FALSE, stride, (const void *)offsetof(GlowVertex, x));
    glVertexAttribPointer(ATTR_UV, 2, GL_BYTE, GL_TRUE, stride, (const void *)offsetof(GlowVertex, u));
    glVertexAttribPointer(ATTR_COLOR, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, (const void *)offsetof(GlowVertex, r));
}

void lights_draw(LightsLayer *l, const RenderFrame *f, RenderCounters *rc) {
    if (!l->count) return;
    const RenderView *v = f->view;
    float right[3], up[3], fwd[3];
    render_basis(v->yaw, v->pitch, v->roll, right, up, fwd);
    for (uint32_t k = 0; k < l->count; k++) light_quad(&l->verts[k * 4], &l->list[k], v, right, up);
    glBindBuffer(GL_ARRAY_BUFFER, l->vbo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, l->quad_ibo);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(l->count * 4 * sizeof(GlowVertex)), l->verts);
    glUseProgram(l->prog.id);
    psx_set_uniforms(&l->prog, &f->psx);
    glUniformMatrix4fv(l->u_viewproj, 1, GL_FALSE, f->viewproj);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDepthMask(GL_FALSE);   /* added over the scene, tested against it, not written */
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
    glow_bind();
    GL_TIMED(glDrawElements(GL_TRIANGLES, (GLsizei)(l->count * 6), GL_UNSIGNED_SHORT, (const void *)0));
    render_count_draw(rc, RENDER_STAGE_AIRCRAFT, l->count * 2);
    glDisableVertexAttribArray(ATTR_POS);
    glDisableVertexAttribArray(ATTR_UV);
    glDisableVertexAttribArray(ATTR_COLOR);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    glDisable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_TRUE);
    glEnable(GL_CULL_FACE);
}

void lights_free(LightsLayer *l) {
    if (l->vbo) glDeleteBuffers(1, &l->vbo);
    gl_program_free(&l->prog);
    memset(l, 0, sizeof *l);
}
