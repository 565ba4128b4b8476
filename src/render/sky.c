/* skyisles sky dome (S1-S3): camera-centred radius-500 sphere drawn from inside, first.
 * Its FBM lattice is baked at boot from the CPU reference noise into a small RGBA atlas. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "noise/noise.h"
#include "render_internal.h"

#define DOME_STACKS 32
#define DOME_SLICES 48

/* Bakes the period-RENDER_SKY_PERIOD lattice: texel (x, y) of slice z holds the corners
 * (x,y), (x+1,y), (x,y+1), (x+1,y+1) of that slice, wrapped, as 8-bit values. The lattice and
 * the texels are boot-time scratch. */
static bool bake_lattice(SkyDome *s, MemArena *scratch) {
    enum { P = RENDER_SKY_PERIOD, W = RENDER_SKY_ATLAS_W, H = RENDER_SKY_ATLAS_H };
    size_t mark = scratch_mark(scratch);
    uint8_t *texels = mem_arena_alloc(scratch, (size_t)W * H * 4, 16);
    uint8_t(*lattice)[P][P] = mem_arena_alloc(scratch, (size_t)P * P * P, 16);
    if (!texels || !lattice) {
        scratch_release(scratch, mark);
        return false;
    }
    for (int z = 0; z < P; z++)
        for (int y = 0; y < P; y++)
            for (int x = 0; x < P; x++) {
                float v = noise_sky_value3_periodic((float)x, (float)y, (float)z, P);
                lattice[z][y][x] = (uint8_t)lrintf(v * 255.0f);
            }
    for (int z = 0; z < P; z++) {
        int ox = (z % RENDER_SKY_ATLAS_COLS) * P, oy = (z / RENDER_SKY_ATLAS_COLS) * P;
        for (int y = 0; y < P; y++)
            for (int x = 0; x < P; x++) {
                uint8_t *t = &texels[((oy + y) * W + ox + x) * 4];
                int x1 = (x + 1) % P, y1 = (y + 1) % P;
                t[0] = lattice[z][y][x];
                t[1] = lattice[z][y][x1];
                t[2] = lattice[z][y1][x];
                t[3] = lattice[z][y1][x1];
            }
    }
    s->lattice_tex = gl_texture_nearest();
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glBindTexture(GL_TEXTURE_2D, 0);
    scratch_release(scratch, mark);
    s->bytes += (uint32_t)W * H * 4;
    return true;
}

/* The unit sphere's vertices and indices, built in boot-time scratch and uploaded. */
static bool build_sphere(SkyDome *s, MemArena *scratch) {
    enum { NV = (DOME_STACKS + 1) * (DOME_SLICES + 1), NI = DOME_STACKS * DOME_SLICES * 6 };
    size_t mark = scratch_mark(scratch);
    float *verts = mem_arena_alloc(scratch, sizeof(float) * NV * 3, 16);
    uint16_t *idx = mem_arena_alloc(scratch, sizeof(uint16_t) * NI, 16);
    if (!verts || !idx) {
        scratch_release(scratch, mark);
        return false;
    }
    int v = 0;
    for (int i = 0; i <= DOME_STACKS; i++) {
        double lat = M_PI * ((double)i / DOME_STACKS - 0.5);
        for (int j = 0; j <= DOME_SLICES; j++) {
            double lon = 2.0 * M_PI * (double)j / DOME_SLICES;
            verts[v++] = (float)(cos(lat) * cos(lon));
            verts[v++] = (float)sin(lat);
            verts[v++] = (float)(cos(lat) * sin(lon));
        }
    }
    int n = 0;
    for (int i = 0; i < DOME_STACKS; i++)
        for (int j = 0; j < DOME_SLICES; j++) {
            uint16_t a = (uint16_t)(i * (DOME_SLICES + 1) + j), b = (uint16_t)(a + DOME_SLICES + 1);
            /* Counter-clockwise seen from outside: the camera inside sees back faces (S1). */
            idx[n++] = a; idx[n++] = (uint16_t)(b + 1); idx[n++] = (uint16_t)(a + 1);
            idx[n++] = a; idx[n++] = b; idx[n++] = (uint16_t)(b + 1);
        }
    glGenBuffers(1, &s->vbo);
    glBindBuffer(GL_ARRAY_BUFFER, s->vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof(float) * NV * 3, verts, GL_STATIC_DRAW);
    glGenBuffers(1, &s->ibo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, s->ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(uint16_t) * NI, idx, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    scratch_release(scratch, mark);
    s->index_count = NI;
    s->bytes += (uint32_t)(sizeof(float) * NV * 3 + sizeof(uint16_t) * NI);
    return true;
}

bool sky_init(SkyDome *s, bool force_mediump, MemArena *scratch, SkyError *err) {
    memset(s, 0, sizeof *s);
    if (!gl_program(&s->prog, force_mediump ? PROG_SKY_MEDIUMP : PROG_SKY, scratch, err)) return false;
    GLint range[2] = {0, 0}, precision = 0;
    glGetShaderPrecisionFormat(GL_FRAGMENT_SHADER, GL_HIGH_FLOAT, range, &precision);
    s->highp = !force_mediump && precision > 0;
    s->u_viewproj = gl_uniform(&s->prog, "u_viewproj");
    s->u_radius = gl_uniform(&s->prog, "u_radius");
    s->u_scale = gl_uniform(&s->prog, "u_scale");
    s->u_lattice = gl_uniform(&s->prog, "u_lattice");
    s->u_lattice_inv = gl_uniform(&s->prog, "u_lattice_inv");
    s->u_frac = gl_uniform(&s->prog, "u_frac");
    s->u_cell = gl_uniform(&s->prog, "u_cell");
    s->u_zenith = gl_uniform(&s->prog, "u_zenith");
    s->u_horizon = gl_uniform(&s->prog, "u_horizon");
    s->u_below = gl_uniform(&s->prog, "u_below");
    s->u_cloud_color = gl_uniform(&s->prog, "u_cloud_color");
    s->u_cloud_amount = gl_uniform(&s->prog, "u_cloud_amount");
    s->u_sun = gl_uniform(&s->prog, "u_sun");
    s->u_moon = gl_uniform(&s->prog, "u_moon");
    s->u_glow = gl_uniform(&s->prog, "u_glow");
    s->u_night = gl_uniform(&s->prog, "u_night");
    s->u_anti = gl_uniform(&s->prog, "u_anti");
    s->u_cover = gl_uniform(&s->prog, "u_cover");
    s->u_abyss = gl_uniform(&s->prog, "u_abyss");
    s->u_abyss_mix = gl_uniform(&s->prog, "u_abyss_mix");
    s->u_debug = gl_uniform(&s->prog, "u_debug_fbm");
    if (!bake_lattice(s, scratch) || !build_sphere(s, scratch)) {
        sky_error_set(err, SKY_ERR_START, "render: no scratch memory left to build the sky dome");
        return false;
    }
    if (gl_errors("sky init")) {
        sky_error_set(err, SKY_ERR_START, "render: GL error while building the sky dome");
        return false;
    }
    return true;
}

void render_sky_base(double cam_x, double cam_y, double cam_z, double time_s, double out[3]) {
    out[0] = cam_x * RENDER_SKY_SCALE + time_s * RENDER_SKY_DRIFT;
    out[1] = (cam_y + cam_x * RENDER_SKY_MORPH_X + cam_z * RENDER_SKY_MORPH_Z) * RENDER_SKY_SCALE +
             time_s * RENDER_SKY_DRIFT * RENDER_SKY_DRIFT_Y;
    out[2] = cam_z * RENDER_SKY_SCALE + time_s * RENDER_SKY_DRIFT;
}

void render_sky_offsets(double cam_x, double cam_y, double cam_z, double time_s, float frac[RENDER_SKY_OCTAVES * 3],
                        float cell[RENDER_SKY_OCTAVES * 3]) {
    double base[3];
    render_sky_base(cam_x, cam_y, cam_z, time_s, base);
    double freq = 1.0;
    for (int k = 0; k < RENDER_SKY_OCTAVES; k++, freq *= 2.0)
        for (int a = 0; a < 3; a++) {
            double q = base[a] * freq, whole = floor(q);
            double c = fmod(whole, (double)RENDER_SKY_PERIOD);
            if (c < 0) c += RENDER_SKY_PERIOD;
            frac[k * 3 + a] = (float)(q - whole);
            cell[k * 3 + a] = (float)c;
        }
}

void sky_draw(SkyDome *s, const RenderFrame *f, RenderCounters *rc) {
    const RenderView *v = f->view;
    const RenderSettings *st = f->settings;
    float frac[RENDER_SKY_OCTAVES * 3], cell[RENDER_SKY_OCTAVES * 3];
    render_sky_offsets(v->cam_x, v->cam_y, v->cam_z, v->time_s, frac, cell);
    glUseProgram(s->prog.id);
    psx_set_uniforms(&s->prog, &f->psx);
    glUniformMatrix4fv(s->u_viewproj, 1, GL_FALSE, f->viewproj);
    glUniform1f(s->u_radius, RENDER_SKY_RADIUS);
    glUniform1f(s->u_scale, RENDER_SKY_SCALE);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, s->lattice_tex);
    glUniform1i(s->u_lattice, 0);
    glUniform2f(s->u_lattice_inv, 1.0f / RENDER_SKY_ATLAS_W, 1.0f / RENDER_SKY_ATLAS_H);
    glUniform3fv(s->u_frac, RENDER_SKY_OCTAVES, frac);
    glUniform3fv(s->u_cell, RENDER_SKY_OCTAVES, cell);
    const RenderSky *sky = &f->sky;
    glUniform3fv(s->u_zenith, 1, sky->zenith);
    glUniform3fv(s->u_horizon, 1, sky->horizon);
    glUniform3fv(s->u_below, 1, sky->horizon);
    glUniform3fv(s->u_cloud_color, 1, sky->cloud);
    glUniform3fv(s->u_sun, 1, sky->sun_dir);
    glUniform3fv(s->u_moon, 1, sky->moon_dir);
    glUniform3fv(s->u_glow, 1, sky->glow);
    glUniform1f(s->u_night, sky->night);
    glUniform3fv(s->u_anti, 1, sky->anti);
    glUniform1f(s->u_cover, sky->cover);
    glUniform1f(s->u_cloud_amount, st->live.sky_clouds ? 1.0f : 0.0f);
    glUniform3f(s->u_abyss, RENDER_ABYSS_R, RENDER_ABYSS_G, RENDER_ABYSS_B);
    glUniform1f(s->u_abyss_mix, f->atm.abyss_mix);
    glUniform1f(s->u_debug, f->sky_debug ? 1.0f : 0.0f);   /* its output comes before the PSX colour */

    glDisable(GL_DEPTH_TEST);
    glDepthMask(GL_FALSE);
    glDisable(GL_BLEND);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_FRONT);   /* from inside the sphere only its back faces face the camera */
    glBindBuffer(GL_ARRAY_BUFFER, s->vbo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, s->ibo);
    glEnableVertexAttribArray(ATTR_POS);
    glVertexAttribPointer(ATTR_POS, 3, GL_FLOAT, GL_FALSE, 12, (const void *)0);
    GL_TIMED(glDrawElements(GL_TRIANGLES, s->index_count, GL_UNSIGNED_SHORT, (const void *)0));
    render_count_draw(rc, RENDER_STAGE_SKY, (uint32_t)s->index_count / 3);
    glDisableVertexAttribArray(ATTR_POS);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    glCullFace(GL_BACK);
    glDepthMask(GL_TRUE);
}

void sky_free(SkyDome *s) {
    if (s->vbo) glDeleteBuffers(1, &s->vbo);
    if (s->ibo) glDeleteBuffers(1, &s->ibo);
    if (s->lattice_tex) glDeleteTextures(1, &s->lattice_tex);
    gl_program_free(&s->prog);
    memset(s, 0, sizeof *s);
}
