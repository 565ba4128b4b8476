/* skyisles HUD layer: the frame's stage for text, boxes and the island map, drawn over the
 * finished scene in PSX pixels before the upscale. The game queues pieces; each becomes quads in
 * one fixed queue that one draw call empties, in order, through one atlas texture. */
#include <math.h>
#include <string.h>

#include "render_internal.h"

/* The font is stb_easy_font's (public domain): glyphs made of 1-pixel segments, 5 x 9 at most,
 * advances of 3..7 pixels. Its segments are rasterised once into the atlas, so a glyph costs one
 * textured quad instead of the 2..11 untextured quads stb_easy_font emits. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include <stb/stb_easy_font.h>
#pragma GCC diagnostic pop

#define GLYPH_W 5            /* ink box of every glyph, from its pen position */
#define GLYPH_H 9
#define CELL_W 8             /* atlas cells keep transparent texels between glyphs */
#define CELL_H 10
#define CELL_COLS 16
#define WHITE_U 128          /* an 8 x 8 white block: boxes, lines and the arrow sample its middle */
#define WHITE_SIZE 8
#define SCALE_MAX 4
#define WHITE_TEXEL 0xffffu      /* RGBA5551 opaque white (hud_texel(255, 255, 255, true)) */
#define WIDE_ROW 64              /* the non-ASCII glyphs' cells, from this row to the map's */
#define WIDE_CELL 9
#define WIDE_COLS (HUD_ATLAS_W / WIDE_CELL)
#define WIDE_MAX (WIDE_COLS * ((HUD_MAP_ROW - WIDE_ROW) / WIDE_CELL))   /* 588: tools/text/textgen.c checks it */

_Static_assert(RENDER_HUD_LINE_H >= GLYPH_H + 1, "a line holds the glyph and its shadow");
_Static_assert(CELL_COLS * CELL_W <= WHITE_U && (95 + CELL_COLS - 1) / CELL_COLS * CELL_H <= HUD_MAP_ROW,
               "the font, the white block and the map do not overlap in the atlas");

static void glyph_cell(int c, int *u, int *v) {
    int g = c - 32;
    *u = (g % CELL_COLS) * CELL_W;
    *v = (g / CELL_COLS) * CELL_H;
}

/* stb_easy_font's segments of every printable glyph, as opaque white texels of its cell. */
static void bake_font(uint16_t *atlas) {
    char quads[16 * 64];   /* 64 bytes per segment quad; the busiest glyph ('X') has 11 */
    for (int c = 33; c < 127; c++) {
        char s[2] = {(char)c, 0};
        int n = stb_easy_font_print(0.0f, 0.0f, s, NULL, quads, (int)sizeof quads);
        int cu, cv;
        glyph_cell(c, &cu, &cv);
        for (int q = 0; q < n; q++) {
            const float *v0 = (const float *)(quads + q * 64), *v2 = (const float *)(quads + q * 64 + 32);
            for (int y = (int)v0[1]; y < (int)v2[1] && y < GLYPH_H; y++)
                for (int x = (int)v0[0]; x < (int)v2[0] && x < GLYPH_W; x++)
                    atlas[(size_t)(cv + y) * HUD_ATLAS_W + (size_t)(cu + x)] = WHITE_TEXEL;
        }
    }
    for (int y = 0; y < WHITE_SIZE; y++)
        for (int x = 0; x < WHITE_SIZE; x++) atlas[(size_t)y * HUD_ATLAS_W + WHITE_U + (size_t)x] = WHITE_TEXEL;
}

/* The non-ASCII glyphs (core's Misaki 8x8 bitmaps, only those the text tables use), in 9x9 cells
 * under the ASCII font: a transparent texel between neighbours, whatever the sample rounds to. */
static void wide_cell(long i, int *u, int *v) {
    *u = (int)(i % WIDE_COLS) * WIDE_CELL;
    *v = WIDE_ROW + (int)(i / WIDE_COLS) * WIDE_CELL;
}

static void bake_wide(uint16_t *atlas) {
    for (size_t i = 0; i < text_glyph_count(); i++) {
        const TextGlyph *g = text_glyph_at(i);
        int cu, cv;
        wide_cell((long)i, &cu, &cv);
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 8; x++)
                if (g->rows[y] & (0x80u >> x)) atlas[(size_t)(cv + y) * HUD_ATLAS_W + (size_t)(cu + x)] = WHITE_TEXEL;
    }
}

/* Pixels a narrow non-ASCII glyph (not kana, kanji or full-width) advances: its ink and a gap. */
static int wide_advance(uint32_t cp, const TextGlyph *g) {
    if (text_cp_wide(cp)) return 8;
    int right = 0;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++)
            if ((g->rows[y] & (0x80u >> x)) && x + 1 > right) right = x + 1;
    return right < 2 ? 3 : right + 1;
}

bool hud_init(HudLayer *h, MemBudget *mem, MemArena *scratch, GLuint quad_ibo, uint32_t max_quads,
              const RenderLiveParams *live, SkyError *err) {
    memset(h, 0, sizeof *h);
    h->live = live;
    h->quad_ibo = quad_ibo;
    /* One draw call takes the whole queue: no more quads than the shared indices address. */
    h->cap = max_quads ? max_quads : RENDER_HUD_QUADS_DEFAULT;
    if (h->cap > RENDER_QUAD_INDEX_QUADS) h->cap = RENDER_QUAD_INDEX_QUADS;
    if (text_glyph_count() > WIDE_MAX) {
        sky_error_set(err, SKY_ERR_START, "render: the text tables use %zu non-ASCII glyphs, the HUD atlas holds %d",
                      text_glyph_count(), WIDE_MAX);
        return false;
    }
    h->verts = mem_carve(mem, sizeof(HudVertex) * 4 * h->cap, 16);
    h->text_span = mem_carve(mem, sizeof(uint32_t) * 2 * HUD_TEXTS_MAX, 16);
    h->ink = mem_carve(mem, HUD_INK_BYTES, 16);
    if (!h->verts || !h->text_span || !h->ink) {
        sky_error_set(err, SKY_ERR_START, "render: memory budget too small for a HUD queue of %u quads", h->cap);
        return false;
    }
    if (!gl_program(&h->prog, PROG_HUD, scratch, err)) return false;
    h->u_to_ndc = gl_uniform(&h->prog, "u_to_ndc");
    h->u_atlas = gl_uniform(&h->prog, "u_atlas");
    h->u_atlas_inv = gl_uniform(&h->prog, "u_atlas_inv");

    size_t mark = scratch_mark(scratch);
    uint16_t *atlas = mem_arena_alloc(scratch, sizeof(uint16_t) * HUD_ATLAS_W * HUD_ATLAS_H, 16);
    if (!atlas) {
        sky_error_set(err, SKY_ERR_START, "render: no scratch memory left for the HUD atlas");
        return false;
    }
    memset(atlas, 0, sizeof(uint16_t) * HUD_ATLAS_W * HUD_ATLAS_H);   /* transparent, map included */
    bake_font(atlas);
    bake_wide(atlas);
    memset(h->ink, 0, HUD_INK_BYTES);
    for (size_t t = 0; t < (size_t)HUD_ATLAS_W * HUD_MAP_ROW; t++)
        if (atlas[t]) h->ink[t >> 3] |= (uint8_t)(1u << (t & 7));
    h->atlas_tex = gl_texture_nearest();
    uint64_t t0 = time_now_ns();
    glPixelStorei(GL_UNPACK_ALIGNMENT, 2);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, HUD_ATLAS_W, HUD_ATLAS_H, 0, GL_RGBA, GL_UNSIGNED_SHORT_5_5_5_1, atlas);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glFinish();
    h->upload_ns = time_now_ns() - t0;
    glBindTexture(GL_TEXTURE_2D, 0);
    scratch_release(scratch, mark);
    glGenBuffers(1, &h->vbo);
    h->bytes = HUD_ATLAS_W * HUD_ATLAS_H * 2 + (uint32_t)sizeof(HudVertex) * 4 * h->cap;
    log_info("render: HUD atlas %dx%d (%zu glyphs besides ASCII) uploaded in %.0f us", HUD_ATLAS_W, HUD_ATLAS_H,
             text_glyph_count(), (double)h->upload_ns / 1000.0);
    if (gl_errors("hud init")) {
        sky_error_set(err, SKY_ERR_START, "render: GL error while creating the HUD atlas");
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- the queue */
static int16_t sub(float px) {
    float v = px * HUD_SUBPIXEL;
    v = v < -32768.0f ? -32768.0f : (v > 32767.0f ? 32767.0f : v);
    return (int16_t)lrintf(v);
}

/* Appends one quad (corners in order around it), or counts it as dropped when the queue is full. */
static void put_quad(HudLayer *h, const float xy[4][2], const uint16_t uv[4][2], uint32_t rgba) {
    if (h->quads >= h->cap) {
        h->dropped++;
        return;
    }
    HudVertex *v = &h->verts[(size_t)h->quads * 4];
    for (int i = 0; i < 4; i++) {
        v[i].x = sub(xy[i][0]);
        v[i].y = sub(xy[i][1]);
        v[i].u = uv[i][0];
        v[i].v = uv[i][1];
        v[i].r = (uint8_t)(rgba >> 24);
        v[i].g = (uint8_t)(rgba >> 16);
        v[i].b = (uint8_t)(rgba >> 8);
        v[i].a = (uint8_t)rgba;
    }
    h->quads++;
}

/* An axis-aligned rectangle of the atlas (texels u0..u1, v0..v1) onto one of the canvas. */
static void put_rect(HudLayer *h, float x, float y, float w, float hgt, int u0, int v0, int u1, int v1,
                     uint32_t rgba) {
    const float xy[4][2] = {{x, y}, {x + w, y}, {x + w, y + hgt}, {x, y + hgt}};
    const uint16_t uv[4][2] = {{(uint16_t)u0, (uint16_t)v0}, {(uint16_t)u1, (uint16_t)v0},
                               {(uint16_t)u1, (uint16_t)v1}, {(uint16_t)u0, (uint16_t)v1}};
    put_quad(h, xy, uv, rgba);
}

/* The middle of the white block: every texel around it is white, however the sample rounds. */
static const uint16_t WHITE_UV[4][2] = {{WHITE_U + WHITE_SIZE / 2, WHITE_SIZE / 2},
                                        {WHITE_U + WHITE_SIZE / 2, WHITE_SIZE / 2},
                                        {WHITE_U + WHITE_SIZE / 2, WHITE_SIZE / 2},
                                        {WHITE_U + WHITE_SIZE / 2, WHITE_SIZE / 2}};

void hud_quad(HudLayer *h, const float xy[4][2], uint32_t rgba) { put_quad(h, xy, WHITE_UV, rgba); }

void hud_box(HudLayer *h, float x, float y, float w, float hgt, uint32_t rgba) {
    if (w <= 0.0f || hgt <= 0.0f) return;
    const float xy[4][2] = {{x, y}, {x + w, y}, {x + w, y + hgt}, {x, y + hgt}};
    put_quad(h, xy, WHITE_UV, rgba);
}

void hud_atlas_map_quad(HudLayer *h, int x, int y, int side) {
    put_rect(h, (float)x, (float)y, (float)side, (float)side, 0, HUD_MAP_ROW, HUD_MAP_TEXELS,
             HUD_MAP_ROW + HUD_MAP_TEXELS, 0xffffffffu);
}

/* What one character of text draws: its atlas texels, size and advance (1/1 pixels at scale 1).
 * ASCII is stb_easy_font's; other characters the font's (core's table); a control character or
 * a character the font lacks draws as '?' (the coverage test keeps the tables free of those). */
typedef struct Glyph {
    int u, v, w, h, adv;
    bool ink;
} Glyph;

static void ascii_glyph(int c, Glyph *g) {
    glyph_cell(c, &g->u, &g->v);
    g->w = GLYPH_W;
    g->h = GLYPH_H;
    g->adv = stb_easy_font_charinfo[c - 32].advance & 15;
    g->ink = c != ' ';
}

static bool glyph_of(uint32_t cp, Glyph *g) {
    if (cp >= 32 && cp < 127) {
        ascii_glyph((int)cp, g);
        return true;
    }
    long i = cp >= 0x80 ? text_glyph_index(cp) : -1;
    if (i < 0) {
        ascii_glyph('?', g);
        return false;
    }
    wide_cell(i, &g->u, &g->v);
    g->w = g->h = 8;
    g->adv = wide_advance(cp, text_glyph_at((size_t)i));
    g->ink = cp != 0x3000;
    return true;
}

uint32_t hud_text_missing(const char *text) {
    for (const char *p = text ? text : ""; *p;) {
        uint32_t cp = text_utf8_next(&p);
        Glyph g;
        if (cp != '\n' && !glyph_of(cp, &g)) return cp;
    }
    return 0;
}

static int clamp_scale(int scale) { return scale < 1 ? 1 : (scale > SCALE_MAX ? SCALE_MAX : scale); }

/* The HUD size's factor. Japanese is never drawn below 1x: Misaki's 8x8 kanji lose strokes when
 * 8 pixels become 6, where ASCII's 5x9 segments stay readable. */
float hud_zoom(const HudLayer *h) {
    static const float k_zoom[3] = {0.75f, 1.0f, 1.5f};
    int size = h->live->hud_size;
    float z = size >= 0 && size < 3 ? k_zoom[size] : 1.0f;
    return text_language() == LANG_JA && z < 1.0f ? 1.0f : z;
}

/* The glyphs of text from pen (x, y), offset by (dx, dy) pixels, in one colour. */
static void put_glyphs(HudLayer *h, int x, int y, int dx, int dy, int scale, uint32_t rgba, const char *text) {
    float k = (float)scale * hud_zoom(h);
    float px = (float)x, py = (float)y;
    for (const char *p = text; *p;) {
        uint32_t cp = text_utf8_next(&p);
        if (cp == '\n') {
            px = (float)x;
            py += RENDER_HUD_LINE_H * k;
            continue;
        }
        Glyph g;
        glyph_of(cp, &g);
        if (g.ink)
            put_rect(h, px + (float)dx, py + (float)dy, (float)g.w * k, (float)g.h * k, g.u, g.v, g.u + g.w, g.v + g.h,
                     rgba);
        px += (float)g.adv * k;
    }
}

void hud_text(HudLayer *h, int x, int y, int scale, uint32_t rgba, const char *text) {
    if (!text) return;
    scale = clamp_scale(scale);
    uint32_t first = h->quads;
    /* Every shadow first, then every glyph: no shadow can fall on a glyph of the same text. */
    put_glyphs(h, x, y, 1, 1, scale, rgba & 0xffu, text);
    put_glyphs(h, x, y, 0, 0, scale, rgba, text);
    if (h->n_texts < HUD_TEXTS_MAX) {
        h->text_span[h->n_texts][0] = first;
        h->text_span[h->n_texts++][1] = h->quads;
    }
}

int hud_text_width(const char *text, int scale, float zoom) { return hud_text_width_n(text, text ? strlen(text) : 0, scale, zoom); }

int hud_text_width_n(const char *text, size_t n, int scale, float zoom) {
    if (!text) return 0;
    int widest = 0, line = 0;
    for (const char *p = text; p < text + n && *p;) {
        uint32_t cp = text_utf8_next(&p);
        if (cp == '\n') {
            widest = line > widest ? line : widest;
            line = 0;
            continue;
        }
        Glyph g;
        glyph_of(cp, &g);
        line += g.adv;
    }
    widest = line > widest ? line : widest;
    return (int)ceilf((float)widest * (float)clamp_scale(scale) * zoom);
}

void hud_clear(HudLayer *h) {
    h->quads = 0;
    h->n_texts = 0;
    h->dropped = 0;
}

static bool inked(const HudLayer *h, int u, int v) {
    if (u < 0 || v < 0 || u >= HUD_ATLAS_W || v >= HUD_MAP_ROW) return false;
    size_t t = (size_t)v * HUD_ATLAS_W + (size_t)u;
    return h->ink[t >> 3] >> (t & 7) & 1u;
}

/* The pixels of one glyph quad: those whose centre falls inside it and samples an inked texel
 * (nearest, as the GPU draws it). */
static uint32_t quad_pixels(const HudLayer *h, const HudVertex *v, void (*put)(int x, int y, void *ctx), void *ctx) {
    float x0 = (float)v[0].x / HUD_SUBPIXEL, y0 = (float)v[0].y / HUD_SUBPIXEL;
    float x1 = (float)v[2].x / HUD_SUBPIXEL, y1 = (float)v[2].y / HUD_SUBPIXEL;
    if (!(x1 > x0 && y1 > y0)) return 0;
    float du = (float)(v[2].u - v[0].u) / (x1 - x0), dv = (float)(v[2].v - v[0].v) / (y1 - y0);
    uint32_t n = 0;
    for (int y = (int)floorf(y0); (float)y + 0.5f < y1; y++) {
        if ((float)y + 0.5f < y0) continue;
        for (int x = (int)floorf(x0); (float)x + 0.5f < x1; x++) {
            if ((float)x + 0.5f < x0) continue;
            int u = v[0].u + (int)floorf(((float)x + 0.5f - x0) * du), t = v[0].v + (int)floorf(((float)y + 0.5f - y0) * dv);
            if (!inked(h, u, t)) continue;
            put(x, y, ctx);
            n++;
        }
    }
    return n;
}

uint32_t hud_text_pixels(const HudLayer *h, uint32_t i, void (*put)(int x, int y, void *ctx), void *ctx) {
    if (i >= h->n_texts) return 0;
    uint32_t n = 0;
    for (uint32_t q = h->text_span[i][0]; q < h->text_span[i][1]; q++) n += quad_pixels(h, &h->verts[(size_t)q * 4], put, ctx);
    return n;
}

bool hud_bounds(const HudLayer *h, float out[4]) {
    if (h->quads == 0) return false;
    int16_t x0 = INT16_MAX, y0 = INT16_MAX, x1 = INT16_MIN, y1 = INT16_MIN;
    for (size_t i = 0; i < (size_t)h->quads * 4; i++) {
        const HudVertex *v = &h->verts[i];
        if (v->x < x0) x0 = v->x;
        if (v->y < y0) y0 = v->y;
        if (v->x > x1) x1 = v->x;
        if (v->y > y1) y1 = v->y;
    }
    out[0] = (float)x0 / HUD_SUBPIXEL;
    out[1] = (float)y0 / HUD_SUBPIXEL;
    out[2] = (float)x1 / HUD_SUBPIXEL;
    out[3] = (float)y1 / HUD_SUBPIXEL;
    return true;
}

void hud_frame_done(HudLayer *h) {
    h->last_quads = h->quads;
    h->last_dropped = h->dropped;
    hud_clear(h);
}

/* ---------------------------------------------------------------- the stage */
/* What a HUD draw owes the frame: into the bound target at f->target_w x f->target_h (the
 * low-res pixels, so text is upscaled with the scene), depth test off, blended, through
 * psx_set_uniforms so its colours land on the same 15-bit grid, counted as RENDER_STAGE_HUD.
 * The whole queue is one draw call. With nothing queued it makes no GL call, so an empty HUD
 * leaves the frame as it was. */
void hud_draw(HudLayer *h, const RenderFrame *f, RenderCounters *rc) {
    if (h->quads == 0) return;
    glUseProgram(h->prog.id);
    psx_set_uniforms(&h->prog, &f->psx);
    glUniform2f(h->u_to_ndc, 2.0f / (float)(f->target_w * HUD_SUBPIXEL), -2.0f / (float)(f->target_h * HUD_SUBPIXEL));
    glUniform2f(h->u_atlas_inv, 1.0f / HUD_ATLAS_W, 1.0f / HUD_ATLAS_H);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, h->atlas_tex);
    glUniform1i(h->u_atlas, 0);
    glDisable(GL_DEPTH_TEST);
    glDepthMask(GL_FALSE);
    glDisable(GL_CULL_FACE);   /* the arrow and the lines are wound either way */
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glBindBuffer(GL_ARRAY_BUFFER, h->vbo);
    GL_TIMED(glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(HudVertex) * 4 * h->quads), h->verts, GL_STREAM_DRAW));
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, h->quad_ibo);
    glEnableVertexAttribArray(ATTR_POS);
    glEnableVertexAttribArray(ATTR_COLOR);
    glEnableVertexAttribArray(ATTR_UV);
    const GLsizei stride = sizeof(HudVertex);
    glVertexAttribPointer(ATTR_POS, 2, GL_SHORT, GL_FALSE, stride, (const void *)offsetof(HudVertex, x));
    glVertexAttribPointer(ATTR_UV, 2, GL_UNSIGNED_SHORT, GL_FALSE, stride, (const void *)offsetof(HudVertex, u));
    glVertexAttribPointer(ATTR_COLOR, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, (const void *)offsetof(HudVertex, r));
    GL_TIMED(glDrawElements(GL_TRIANGLES, (GLsizei)(h->quads * 6), GL_UNSIGNED_SHORT, (const void *)0));
    render_count_draw(rc, RENDER_STAGE_HUD, h->quads * 2);
    glDisableVertexAttribArray(ATTR_POS);
    glDisableVertexAttribArray(ATTR_COLOR);
    glDisableVertexAttribArray(ATTR_UV);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
}

void hud_free(HudLayer *h) {
    if (h->vbo) glDeleteBuffers(1, &h->vbo);
    if (h->atlas_tex) glDeleteTextures(1, &h->atlas_tex);
    gl_program_free(&h->prog);
    memset(h, 0, sizeof *h);
}
