/* skyisles PSX look: the parameters every pass draws with (PsxParams) and their uniforms in the
 * shared prelude. A leaf of the renderer: GL calls only, so every program loader can use it. */
#include <stddef.h>
#include <string.h>

#include "render_internal.h"

/* The prelude's uniforms (shaders_es2/prelude.glsl) and where each lives in PsxParams. */
static const struct {
    const char *name;
    int floats;
    size_t offset;
} PSX_UNIFORMS[PSX_UNIFORM_COUNT] = {
    {"u_snap", 2, offsetof(PsxParams, snap)},
    {"u_fog_density", 1, offsetof(PsxParams, fog_density)},
    {"u_fog_color", 3, offsetof(PsxParams, fog_color)},
    {"u_levels", 1, offsetof(PsxParams, levels)},
    {"u_dither", 1, offsetof(PsxParams, dither)},
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

void psx_find_uniforms(GLuint prog, GLint loc[PSX_UNIFORM_COUNT]) {
    /* A program that does not call a prelude function has its uniforms inactive (-1). */
    for (int i = 0; i < PSX_UNIFORM_COUNT; i++) loc[i] = glGetUniformLocation(prog, PSX_UNIFORMS[i].name);
}

void psx_set_uniforms(const GlProgram *p, const PsxParams *psx) {
    for (int i = 0; i < PSX_UNIFORM_COUNT; i++) {
        GLint loc = p->psx[i];
        if (loc < 0) continue;
        const float *v = (const float *)((const char *)psx + PSX_UNIFORMS[i].offset);
        switch (PSX_UNIFORMS[i].floats) {
        case 1: glUniform1fv(loc, 1, v); break;
        case 2: glUniform2fv(loc, 1, v); break;
        case 3: glUniform3fv(loc, 1, v); break;
        default: glUniform4fv(loc, 1, v); break;
        }
    }
}

