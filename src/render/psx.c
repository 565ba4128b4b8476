/* skyisles PSX look: the low-res target the scene renders into (colour texture + depth), and the
 * nearest-neighbour upscale to the screen at the largest integer scale (letterbox/pillarbox).
 * The parameters every pass draws with are psx_params.c. */
#include <string.h>

#include "render_internal.h"

/* ---------------------------------------------------------------- target and upscale */
bool psx_init(PsxTarget *t, MemArena *scratch, SkyError *err) {
    memset(t, 0, sizeof *t);
    if (!gl_program(&t->blit, PROG_BLIT, scratch, err)) return false;
    t->u_tex = gl_uniform(&t->blit, "u_tex");
    static const float quad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
    glGenBuffers(1, &t->quad_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, t->quad_vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    t->quad_bytes = sizeof quad;
    return true;
}

static void free_target(PsxTarget *t) {
    if (t->fbo) glDeleteFramebuffers(1, &t->fbo);
    if (t->color_tex) glDeleteTextures(1, &t->color_tex);
    if (t->depth_rb) glDeleteRenderbuffers(1, &t->depth_rb);
    t->fbo = t->color_tex = t->depth_rb = 0;
    t->w = t->h = 0;
    t->target_bytes = 0;
}

/* 24-bit depth where OES_depth24 exists (far islands z-fight less), else the guaranteed 16. */
static GLenum depth_format(uint32_t *bytes) {
    const char *ext = (const char *)glGetString(GL_EXTENSIONS);
    bool d24 = ext && strstr(ext, "GL_OES_depth24");
    *bytes = d24 ? 4 : 2;
    return d24 ? 0x81A6 /* GL_DEPTH_COMPONENT24_OES */ : GL_DEPTH_COMPONENT16;
}

static bool make_target(PsxTarget *t, int w, int h, GLenum format, GLenum type, uint32_t bpp) {
    t->color_tex = gl_texture_nearest();
    glTexImage2D(GL_TEXTURE_2D, 0, (GLint)format, w, h, 0, format, type, NULL);
    glGenRenderbuffers(1, &t->depth_rb);
    glBindRenderbuffer(GL_RENDERBUFFER, t->depth_rb);
    uint32_t depth_bytes;
    glRenderbufferStorage(GL_RENDERBUFFER, depth_format(&depth_bytes), w, h);
    glGenFramebuffers(1, &t->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, t->fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t->color_tex, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, t->depth_rb);
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    while (glGetError() != GL_NO_ERROR) {}
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        free_target(t);
        return false;
    }
    t->w = w;
    t->h = h;
    t->target_bytes = (uint32_t)(w * h) * (bpp + depth_bytes);
    return true;
}

bool psx_resize(PsxTarget *t, int w, int h, bool rgb15) {
    if (t->fbo && t->w == w && t->h == h && t->rgb15 == rgb15) return true;
    free_target(t);
    t->rgb15 = rgb15;
    if (w <= 0 || h <= 0) return true;
    /* 15-bit colour: an RGBA5551 target, so blended clouds land on the 5-bit grid as the
     * PSX's 15-bit framebuffer did. Otherwise (or if refused) RGBA8, then RGB565. */
    if (rgb15 && make_target(t, w, h, GL_RGBA, GL_UNSIGNED_SHORT_5_5_5_1, 2)) return true;
    if (make_target(t, w, h, GL_RGBA, GL_UNSIGNED_BYTE, 4)) return true;
    log_warn("render: RGBA8 low-res target refused, using RGB565");
    if (make_target(t, w, h, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, 2)) return true;
    log_error("render: no low-res target of %dx%d; rendering at display size", w, h);
    return false;
}

void psx_present(PsxTarget *t, const RenderFrame *f, RenderCounters *rc) {
    if (!f->low_res) return;   /* the scene went straight to the display */
    int dw = f->disp_w, dh = f->disp_h;
    /* Largest integer scale that fits; below 1x a fractional one. The rest is black border. */
    int s = dw / t->w < dh / t->h ? dw / t->w : dh / t->h;
    int w, h;
    if (s >= 1) {
        w = t->w * s;
        h = t->h * s;
    } else {
        float k = (float)dw / (float)t->w < (float)dh / (float)t->h ? (float)dw / (float)t->w
                                                                  : (float)dh / (float)t->h;
        w = (int)((float)t->w * k);
        h = (int)((float)t->h * k);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, dw, dh);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glViewport((dw - w) / 2, (dh - h) / 2, w, h);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);
    glUseProgram(t->blit.id);
    psx_set_uniforms(&t->blit, &f->psx);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, t->color_tex);
    glUniform1i(t->u_tex, 0);
    glBindBuffer(GL_ARRAY_BUFFER, t->quad_vbo);
    glEnableVertexAttribArray(ATTR_POS);
    glVertexAttribPointer(ATTR_POS, 2, GL_FLOAT, GL_FALSE, 0, (const void *)0);
    GL_TIMED(glDrawArrays(GL_TRIANGLES, 0, 6));
    render_count_draw(rc, RENDER_STAGE_PSX_BLIT, 2);
    glDisableVertexAttribArray(ATTR_POS);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
}

void psx_free(PsxTarget *t) {
    free_target(t);
    if (t->quad_vbo) glDeleteBuffers(1, &t->quad_vbo);
    gl_program_free(&t->blit);
    memset(t, 0, sizeof *t);
}
