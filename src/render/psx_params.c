/* skyisles PSX look: the parameters every pass draws with (PsxParams) and their uniforms in the
 * shared prelude. A leaf of the renderer: GL calls only, so every program loader can use it. */
#include <stddef.h>
#include <string.h>

#include "render_internal.h"

/* The prelude's uniforms (shaders_es2/prelude.glsl) and where each lives in PsxParams. */
static const struct {
    const char *name;
    int floats, count;
    size_t offset;
} PSX_UNIFORMS[PSX_UNIFORM_COUNT] = {
    {"u_snap", 2, 1, offsetof(PsxParams, snap)},
    {"u_fog_density", 1, 1, offsetof(PsxParams, fog_density)},
    {"u_fog_color", 3, 1, offsetof(PsxParams, fog_color)},
    {"u_levels", 1, 1, offsetof(PsxParams, levels)},
    {"u_dither", 1, 1, offsetof(PsxParams, dither)},
    {"u_light", 4, 3, offsetof(PsxParams, light)},
    {"u_lamps", 4, 2 * PSX_LAMPS, offsetof(PsxParams, lamp)},
};

void psx_params(const RenderLiveParams *s, const RenderAtmosphere *a, int target_w, int target_h, PsxParams *out) {
    memset(out, 0, sizeof *out);
    out->snap[0] = s->snap ? (float)target_w * 0.5f : 0.0f;
    out->snap[1] = s->snap ? (float)target_h * 0.5f : 0.0f;
    out->fog_density = s->fog ? a->fog_density : 0.0f;
    memcpy(out->fog_color, a->color, sizeof out->fog_color);
    out->levels = s->color15 ? PSX_LEVELS_15BIT : 0.0f;
    out->dither = s->dither ? 1.0f : 0.0f;
}

void psx_light(const RenderSky *sky, double cam_y, PsxParams *out) {
    memcpy(out->light.dir, sky->light_dir, sizeof out->light.dir);
    memcpy(out->light.rgb, sky->light_rgb, sizeof out->light.rgb);
    memcpy(out->light.ambient, sky->ambient_rgb, sizeof out->light.ambient);
    /* The light falls off below the islands' undersides toward the abyss floor along W8's ramp:
     * ramp(rel_y) = (cam_y + rel_y - Y0) / (Y1 - Y0), as a * rel_y + b so the shader only sees
     * camera-relative heights (psx_light in the prelude). */
    double span = RENDER_ABYSS_Y1 - RENDER_ABYSS_Y0;
    out->light.ramp_a = (float)(1.0 / span);
    out->light.ramp_b = (float)((cam_y - RENDER_ABYSS_Y0) / span);
}

void psx_face_light(const PsxParams *p, float out[6 * 3]) {
    /* WorldVertex normals in their order: +x, -x, +y, -y, +z, -z. */
    for (int n = 0; n < 6; n++) {
        float d = p->light.dir[n / 2] * (n % 2 ? -1.0f : 1.0f);
        if (d < 0.0f) d = 0.0f;
        for (int c = 0; c < 3; c++) out[n * 3 + c] = p->light.ambient[c] + p->light.rgb[c] * d;
    }
}

void psx_find_uniforms(GLuint prog, GLint loc[PSX_UNIFORM_COUNT]) {
    /* A program that does not call a prelude function has its uniforms inactive (-1). */
    for (int i = 0; i < PSX_UNIFORM_COUNT; i++) loc[i] = glGetUniformLocation(prog, PSX_UNIFORMS[i].name);
}

void psx_set_uniforms(const GlProgram *p, const PsxParams *psx) {
    for (int i = 0; i < PSX_UNIFORM_COUNT; i++) {
        GLint loc = p->psx[i];
        if (loc < 0) continue;
        const float *v = (const float *)((const char *)psx + PSX_UNIFORMS[i].offset);
        GLsizei n = PSX_UNIFORMS[i].count;
        switch (PSX_UNIFORMS[i].floats) {
        case 1: glUniform1fv(loc, n, v); break;
        case 2: glUniform2fv(loc, n, v); break;
        case 3: glUniform3fv(loc, n, v); break;
        default: glUniform4fv(loc, n, v); break;
        }
    }
}


void psx_fixed_light(PsxParams *p, const float dir[3], float key, float ambient) {
    for (int i = 0; i < 3; i++) {
        p->light.dir[i] = dir[i];
        p->light.rgb[i] = key;
        p->light.ambient[i] = ambient;
    }
    p->light.ramp_a = 0.0f;
    p->light.ramp_b = 1.0f;
}

void model_matrix_at(float m[16], float scale, const double origin[3], const RenderView *v) {
    memset(m, 0, 16 * sizeof *m);
    m[0] = m[5] = m[10] = scale;
    m[12] = (float)(origin[0] - v->cam_x);
    m[13] = (float)(origin[1] - v->cam_y);
    m[14] = (float)(origin[2] - v->cam_z);
    m[15] = 1.0f;
}
