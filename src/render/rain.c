/* skyisles rain and lightning: the weather's rain as PSX-style line streaks in a box that wraps
 * around the camera (one buffer made at boot, one draw call of as many streaks as the rain asks),
 * the lightning's flash added over the whole frame for the few steps it lights, and the fog
 * banks' thicker fog. The weather itself is the sim's (src/sim/weather.c), read from the view. */
#include <math.h>
#include <string.h>

#include "render_internal.h"

#define RAIN_TRAIL_S 0.12f    /* a streak is the drop's path over this long */
#define FLASH_GAIN 0.3f       /* the flash's added light at its brightest */
#define FOG_BANK 0.02f        /* fog density a full fog bank adds (the view closes to about 60 m) */
#define FOG_RAIN 0.004f       /* and full rain */

bool rain_init(RainLayer *g, MemArena *scratch, SkyError *err) {
    memset(g, 0, sizeof *g);
    if (!gl_program(&g->prog, PROG_RAIN, scratch, err)) return false;
    g->u_viewproj = gl_uniform(&g->prog, "u_viewproj");
    g->u_offset = gl_uniform(&g->prog, "u_offset");
    g->u_streak = gl_uniform(&g->prog, "u_streak");
    g->u_box = gl_uniform(&g->prog, "u_box");
    g->u_flash = gl_uniform(&g->prog, "u_flash");
    g->u_color = gl_uniform(&g->prog, "u_color");
    size_t mark = scratch_mark(scratch);
    float *v = mem_arena_alloc(scratch, RAIN_STREAKS * 8u * sizeof(float), 16);
    if (!v) {
        sky_error_set(err, SKY_ERR_START, "render: no scratch for the rain's streaks");
        return false;
    }
    Rng rng;
    rng_seed(&rng, 0x7a1e5u, 1);   /* the same streaks every run: pictures and tests repeat */
    for (uint32_t i = 0; i < RAIN_STREAKS; i++) {
        float p[3] = {rng_float01(&rng), rng_float01(&rng), rng_float01(&rng)};
        for (int e = 0; e < 2; e++) {
            float *o = v + (size_t)i * 8u + (size_t)e * 4u;
            o[0] = p[0], o[1] = p[1], o[2] = p[2], o[3] = (float)e;
        }
    }
    static const float quad[8] = {-1.0f, -1.0f, 1.0f, -1.0f, -1.0f, 1.0f, 1.0f, 1.0f};
    glGenBuffers(1, &g->vbo);
    glGenBuffers(1, &g->flash_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, g->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(RAIN_STREAKS * 8u * sizeof(float)), v, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, g->flash_vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    scratch_release(scratch, mark);
    g->bytes = RAIN_STREAKS * 8u * (uint32_t)sizeof(float) + (uint32_t)sizeof quad;
    return true;
}

void rain_free(RainLayer *g) {
    if (g->vbo) glDeleteBuffers(1, &g->vbo);
    if (g->flash_vbo) glDeleteBuffers(1, &g->flash_vbo);
    gl_program_free(&g->prog);
    memset(g, 0, sizeof *g);
}

void rain_atmosphere(const WeatherState *w, RenderAtmosphere *atm) {
    atm->fog_density += w->fog * FOG_BANK + w->rain * FOG_RAIN;
    float k = w->flash * FLASH_GAIN;
    for (int i = 0; i < 3; i++) atm->color[i] += (1.0f - atm->color[i]) * k;
}

static void draw_buffer(GLuint vbo, GLenum mode, GLsizei count, RenderCounters *rc) {
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glEnableVertexAttribArray(ATTR_POS);
    glVertexAttribPointer(ATTR_POS, mode == GL_LINES ? 4 : 2, GL_FLOAT, GL_FALSE, 0, NULL);
    GL_TIMED(glDrawArrays(mode, 0, count));
    render_count_draw(rc, RENDER_STAGE_CLOUDS, mode == GL_LINES ? 0u : 2u);
    glDisableVertexAttribArray(ATTR_POS);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

/* The streaks: the box's wrap made in double (camera and time are large), drops falling and
 * drifting with the wind, tested against the depth the world wrote but not writing it. */
static void draw_streaks(RainLayer *g, const RenderFrame *f, RenderCounters *rc) {
    const RenderView *v = f->view;
    const WeatherState *w = &v->weather;
    GLsizei n = (GLsizei)lrintf((w->rain > 1.0f ? 1.0f : w->rain) * (float)RAIN_STREAKS);
    if (n <= 0) return;
    const double drift[3] = {w->wind[0], -RAIN_FALL, w->wind[1]}, cam[3] = {v->cam_x, v->cam_y, v->cam_z};
    float off[3];
    for (int a = 0; a < 3; a++) {
        double q = (drift[a] * v->time_s - cam[a]) / RAIN_BOX;
        off[a] = (float)(q - floor(q));
    }
    glUniform3f(g->u_offset, off[0], off[1], off[2]);
    glUniform3f(g->u_streak, -w->wind[0] * RAIN_TRAIL_S, RAIN_FALL * RAIN_TRAIL_S, -w->wind[1] * RAIN_TRAIL_S);
    glUniform1f(g->u_box, RAIN_BOX);
    glUniform1f(g->u_flash, 0.0f);
    glUniform4f(g->u_color, 0.72f, 0.76f, 0.84f, 0.45f + 0.35f * w->rain);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDepthMask(GL_FALSE);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    draw_buffer(g->vbo, GL_LINES, n * 2, rc);
    glDepthMask(GL_TRUE);
}

/* After the clouds, before the HUD: the streaks, then the flash added over everything. */
void rain_draw(RainLayer *g, const RenderFrame *f, RenderCounters *rc) {
    const WeatherState *w = &f->view->weather;
    if (w->rain <= 0.0f && w->flash <= 0.0f) return;
    glUseProgram(g->prog.id);
    psx_set_uniforms(&g->prog, &f->psx);
    glUniformMatrix4fv(g->u_viewproj, 1, GL_FALSE, f->viewproj);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    draw_streaks(g, f, rc);
    if (w->flash > 0.0f) {
        glDisable(GL_DEPTH_TEST);
        glUniform1f(g->u_flash, 1.0f);
        glUniform4f(g->u_color, 1.0f, 1.0f, 0.95f, w->flash * FLASH_GAIN);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE);
        draw_buffer(g->flash_vbo, GL_TRIANGLE_STRIP, 4, rc);
    }
    glDisable(GL_BLEND);
}
