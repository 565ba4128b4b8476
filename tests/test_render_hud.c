/* HUD layer tests: the canvas size for each display, text glyphs landing on the exact pixels
 * queued (compared with stb_easy_font's own segments, not with the renderer's atlas) at 480x320
 * and 640x480 displays and on the smallest canvas, queue order, overflow counted, an empty or
 * cleared queue drawing nothing, and the island map of a real island: ground colours by type,
 * every site's dot where its metres put it, the aircraft's arrow and its clamp, a reference image,
 * no heap use per frame. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "island/island.h"
#include "render/render.h"
#include "support/alloc_count.h"
#include "support/home_world.h"
#include "support_gl/render_fixture.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include <stb/stb_easy_font.h>
#pragma GCC diagnostic pop

/* The window holds the largest display tested; smaller displays use its bottom-left corner,
 * which is where render_frame draws them and render_read_pixels reads them. */
#define WIN_W 640
#define WIN_H 480
#define QUEUE 1024           /* the HUD queue of this renderer (small: the overflow test fills it) */
#define TOL 8                /* one 15-bit step */

static RenderFixture g_fx;
static uint8_t g_bg[WIN_W * WIN_H * 4], g_px[WIN_W * WIN_H * 4];
static uint8_t g_mask[WIN_W * WIN_H];   /* per canvas pixel: what it must show */
enum { ANY = 0, GLYPH = 1, SHADOW = 2, BACKDROP_PX = 3 };   /* ANY: over the sky, not checked */
#define BACKDROP 0x212942ffu   /* on the 15-bit grid: the dither leaves it flat */
#define BACKDROP_RGB 0x21, 0x29, 0x42

static int setup(void **state) {
    RenderSettings s = render_fixture_settings(RENDER_LINES_DEFAULT, 16);
    s.create.hud_max_quads = QUEUE;
    return render_fixture_setup(state, &g_fx, "skyisles hud test", WIN_W, WIN_H, 24u << 20, &s);
}

static void set_lines(int lines) {
    RenderSettings s = *render_settings(g_fx.render);
    s.live.lines = lines;
    render_apply_settings(g_fx.render, &s);
}

/* ---------------------------------------------------------------- canvas and frames */
/* A display size, the canvas the HUD gets for it and where the upscale puts that canvas. */
typedef struct Canvas {
    int dw, dh, cw, ch, scale, ox, oy;
} Canvas;

static Canvas canvas_for(int dw, int dh) {
    Canvas c = {.dw = dw, .dh = dh};
    render_hud_canvas(g_fx.render, dw, dh, &c.cw, &c.ch);
    c.scale = dw / c.cw < dh / c.ch ? dw / c.cw : dh / c.ch;
    c.ox = (dw - c.cw * c.scale) / 2;
    c.oy = (dh - c.ch * c.scale) / 2;
    return c;
}

/* The display pixel at the middle of canvas pixel (x, y). */
static const uint8_t *at(const Canvas *c, const uint8_t *frame, int x, int y) {
    int col = c->ox + x * c->scale + c->scale / 2, row = c->oy + y * c->scale + c->scale / 2;
    return &frame[((size_t)row * (size_t)c->dw + (size_t)col) * 4];
}

/* One frame of sky (no terrain) with whatever is queued, read back. */
static void frame(const Canvas *c, uint8_t *out) {
    RenderView v = render_fixture_view(0.0, 60.0, 0.0, 30.0f, 18.0f, 42.0);
    render_frame(g_fx.render, &v, c->dw, c->dh);
    assert_true(render_read_pixels(c->dw, c->dh, out));
    assert_int_equal(render_gl_errors(g_fx.render), 0);
    RenderStats s = render_stats(g_fx.render);
    assert_int_equal(s.low_w, c->cw);   /* the canvas is the target the frame used */
    assert_int_equal(s.low_h, c->ch);
}

static bool near(const uint8_t *p, int r, int g, int b, int tol) {
    return abs(p[0] - r) <= tol && abs(p[1] - g) <= tol && abs(p[2] - b) <= tol;
}

/* ---------------------------------------------------------------- expected text */
/* Marks in g_mask where text at (x, y) puts glyph pixels (1) and shadow pixels (2), from
 * stb_easy_font's segments for each line, RENDER_HUD_LINE_H * scale apart. */
static int expect_text(const Canvas *c, int x, int y, int scale, const char *text) {
    static char quads[1 << 16];
    static int ink[WIN_W * WIN_H / 4][2];
    int n_ink = 0;
    char line[256];
    int row = 0;
    for (const char *p = text; *p; row++) {
        size_t len = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        p += len + (p[len] == '\n');
        int nq = stb_easy_font_print(0.0f, 0.0f, line, NULL, quads, (int)sizeof quads);
        for (int q = 0; q < nq; q++) {
            const float *v0 = (const float *)(quads + q * 64), *v2 = (const float *)(quads + q * 64 + 32);
            for (int gy = (int)v0[1] * scale; gy < (int)v2[1] * scale; gy++)
                for (int gx = (int)v0[0] * scale; gx < (int)v2[0] * scale; gx++) {
                    ink[n_ink][0] = x + gx;
                    ink[n_ink][1] = y + row * RENDER_HUD_LINE_H * scale + gy;
                    n_ink++;
                }
        }
    }
    for (int pass = 2; pass >= 1; pass--)   /* shadows first: a glyph pixel wins over a shadow */
        for (int i = 0; i < n_ink; i++) {
            int px = ink[i][0] + (pass == 2), py = ink[i][1] + (pass == 2);
            assert_true(px >= 0 && py >= 0 && px < c->cw && py < c->ch);   /* the text is inside the canvas */
            g_mask[py * c->cw + px] = (uint8_t)(pass == 2 ? SHADOW : GLYPH);
        }
    return n_ink;
}

/* Marks the pixels of a box that no glyph or shadow covers as BACKDROP_PX. */
static void expect_backdrop(const Canvas *c, int x0, int y0, int w, int h) {
    for (int y = y0; y < y0 + h; y++)
        for (int x = x0; x < x0 + w; x++)
            if (g_mask[y * c->cw + x] == ANY) g_mask[y * c->cw + x] = BACKDROP_PX;
}

/* Every canvas pixel: glyph pixels in the text colour, shadow pixels black, the backdrop where
 * nothing else is queued (the glyphs' transparent texels leave it as it was). */
static void check_mask(const Canvas *c, int r, int g, int b) {
    long bad = 0, glyphs = 0;
    for (int y = 0; y < c->ch; y++)
        for (int x = 0; x < c->cw; x++) {
            const uint8_t *p = at(c, g_px, x, y);
            uint8_t m = g_mask[y * c->cw + x];
            bool ok = m == GLYPH    ? near(p, r, g, b, TOL)
                      : m == SHADOW ? near(p, 0, 0, 0, TOL)
                      : m == BACKDROP_PX ? near(p, BACKDROP_RGB, TOL)
                                         : true;
            glyphs += m == GLYPH;
            if (!ok && bad++ < 5)
                print_error("canvas %dx%d pixel (%d, %d) kind %d: %d %d %d\n", c->cw, c->ch, x, y, m, p[0], p[1], p[2]);
        }
    assert_int_equal(bad, 0);
    assert_true(glyphs > 0);
}

static int glyph_count(const char *text) {
    int n = 0;
    for (const char *p = text; *p; p++) n += *p != ' ' && *p != '\n';
    return n;
}

/* Text in the corners and the middle of the canvas of one display size, at scales 1 and 2: every
 * glyph and shadow pixel where stb_easy_font puts it, one draw call. The top lines sit on an
 * opaque backdrop, where every other pixel must stay the backdrop's; the rest is over the sky. */
static void text_lands_where_queued(int dw, int dh, int lines) {
    set_lines(lines);
    Canvas c = canvas_for(dw, dh);
    memset(g_mask, 0, sizeof g_mask);
    const char *top = "HUD 0123 Speed: 88 m/s\nAltitude {jpqy} [ok]";
    const char *corner = "Wq!";
    const char *big = "Gg#";
    int bw = render_hud_text_width(g_fx.render, corner, 1), gw = render_hud_text_width(g_fx.render, big, 2);
    int glyphs = expect_text(&c, 2, 1, 1, top);
    expect_text(&c, c.cw - bw - 1, c.ch - RENDER_HUD_LINE_H, 1, corner);
    expect_text(&c, c.cw / 2 - gw / 2, c.ch / 2, 2, big);
    expect_backdrop(&c, 0, 0, c.cw, 2 * RENDER_HUD_LINE_H + 2);
    assert_true(glyphs > 100);
    render_hud_box(g_fx.render, 0, 0, c.cw, 2 * RENDER_HUD_LINE_H + 2, BACKDROP);
    render_hud_text(g_fx.render, 2, 1, 1, 0xffff00ffu, top);
    render_hud_text(g_fx.render, c.cw - bw - 1, c.ch - RENDER_HUD_LINE_H, 1, 0xffff00ffu, corner);
    render_hud_text(g_fx.render, c.cw / 2 - gw / 2, c.ch / 2, 2, 0xffff00ffu, big);
    frame(&c, g_px);
    check_mask(&c, 255, 255, 0);
    RenderStats s = render_stats(g_fx.render);
    int quads = 1 + 2 * (glyph_count(top) + glyph_count(corner) + glyph_count(big));
    assert_int_equal(s.hud_quads, quads);
    assert_int_equal(s.hud_dropped, 0);
    assert_int_equal(s.stage_draw_calls[RENDER_STAGE_HUD], 1);
    assert_int_equal(s.stage_triangles[RENDER_STAGE_HUD], 2 * quads);
    printf("note: display %dx%d: canvas %dx%d at %dx, %d HUD quads in 1 draw call\n", dw, dh, c.cw, c.ch, c.scale,
           quads);
}

/* ---------------------------------------------------------------- tests: text */
static void test_canvas_follows_the_target(void **state) {
    (void)state;
    static const int cases[][5] = {
        /* lines, display w, h, canvas w, h */
        {240, 480, 320, 480, 320}, {240, 640, 480, 320, 240}, {240, 720, 720, 240, 240},
        {240, 854, 480, 427, 240}, {240, 1280, 720, 426, 240}, {160, 480, 320, 240, 160},
        {480, 640, 480, 640, 480}, {0, 854, 480, 854, 480},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        set_lines(cases[i][0]);
        int w = 0, h = 0;
        render_hud_canvas(g_fx.render, cases[i][1], cases[i][2], &w, &h);
        assert_int_equal(w, cases[i][3]);
        assert_int_equal(h, cases[i][4]);
    }
    set_lines(RENDER_LINES_DEFAULT);
}

static void test_text_width(void **state) {
    (void)state;
    char line[] = "Mountain Peak (2)";
    assert_int_equal(render_hud_text_width(g_fx.render, line, 1), stb_easy_font_width(line));
    assert_int_equal(render_hud_text_width(g_fx.render, line, 3), 3 * stb_easy_font_width(line));
    char wide[] = "Wide line here";
    assert_int_equal(render_hud_text_width(g_fx.render, "ab\nWide line here\nc", 2), 2 * stb_easy_font_width(wide));
    assert_int_equal(render_hud_text_width(g_fx.render, "", 1), 0);
    assert_int_equal(render_hud_text_width(g_fx.render, NULL, 1), 0);
    assert_int_equal(render_hud_text_width(g_fx.render, "x", 9), 4 * render_hud_text_width(g_fx.render, "x", 1));   /* scale 1..4 */
    /* The font is ASCII: a UTF-8 letter draws as one '?'. */
    assert_int_equal(render_hud_text_width(g_fx.render, "Caf\xc3\xa9", 1), render_hud_text_width(g_fx.render, "Caf?", 1));
}

/* render_create_bytes bounds what render_create carved (a boot plans with it), closely. */
static void test_create_bytes_bound_the_renderer(void **state) {
    (void)state;
    size_t bound = render_create_bytes(&render_settings(g_fx.render)->create);
    printf("  renderer carved %zu bytes, bound %zu\n", g_fx.mem.used, bound);
    assert_true(g_fx.mem.used <= bound);
    assert_true(bound - g_fx.mem.used < 1024);
}

/* The HUD size is the renderer's own live setting: applied at once, every text scale times it. */
static void test_hud_size_is_the_renderers(void **state) {
    (void)state;
    const char *line = "SPD 120 m/s";
    int normal = render_hud_text_width(g_fx.render, line, 2);
    assert_true(render_hud_zoom(g_fx.render) == 1.0f);
    static const float factor[3] = {0.75f, 1.0f, 1.5f};
    RenderSettings s = *render_settings(g_fx.render);
    for (int z = 0; z < 3; z++) {
        s.live.hud_size = z;
        render_apply_settings(g_fx.render, &s);
        assert_true(render_hud_zoom(g_fx.render) == factor[z]);
        assert_int_equal(render_hud_text_width(g_fx.render, line, 2), (int)ceilf((float)normal * factor[z]));
        /* Queued glyphs span the same width the layout measured. */
        render_hud_clear(g_fx.render);
        render_hud_text(g_fx.render, 0, 0, 2, 0xffffffffu, line);
        RenderHudBounds b = render_hud_bounds(g_fx.render);
        assert_true(abs((b.x1 - 1) - render_hud_text_width(g_fx.render, line, 2)) <= 2);
        render_hud_clear(g_fx.render);
    }
    s.live.hud_size = 1;
    render_apply_settings(g_fx.render, &s);
    assert_int_equal(render_hud_text_width(g_fx.render, line, 2), normal);
}

static void test_text_at_480x320(void **state) {
    (void)state;
    text_lands_where_queued(480, 320, RENDER_LINES_DEFAULT);   /* canvas 480x320 at 1x */
}

static void test_text_at_640x480(void **state) {
    (void)state;
    text_lands_where_queued(640, 480, RENDER_LINES_DEFAULT);   /* canvas 320x240 at 2x */
}

static void test_text_on_the_smallest_canvas(void **state) {
    (void)state;
    text_lands_where_queued(480, 320, 160);   /* canvas 240x160 at 2x */
    set_lines(RENDER_LINES_DEFAULT);
}

/* The tests below need no particular size: a 128x96 display and canvas keeps them quick under
 * qemu, where the sky behind the HUD costs most of a frame. */
#define SMALL_W 128
#define SMALL_H 96

static Canvas small_canvas(void) {
    set_lines(SMALL_H);
    Canvas c = canvas_for(SMALL_W, SMALL_H);
    assert_int_equal(c.cw, SMALL_W);
    return c;
}

static void test_queue_order(void **state) {
    (void)state;
    Canvas c = small_canvas();
    /* Text, then an opaque box over it: the box's colour everywhere in it. And a translucent
     * box over an opaque one: half of it shows through. */
    render_hud_text(g_fx.render, 20, 20, 2, 0xffff00ffu, "Hidden");
    render_hud_box(g_fx.render, 10, 10, 100, 40, 0x2142b5ffu);
    render_hud_box(g_fx.render, 10, 60, 40, 30, BACKDROP);
    render_hud_box(g_fx.render, 20, 70, 40, 30, 0x00000080u);
    frame(&c, g_px);
    for (int y = 10; y < 50; y++)
        for (int x = 10; x < 110; x++) assert_true(near(at(&c, g_px, x, y), 0x21, 0x42, 0xb5, TOL));
    assert_true(near(at(&c, g_px, 15, 65), BACKDROP_RGB, TOL));
    assert_true(near(at(&c, g_px, 30, 80), 0x21 / 2, 0x29 / 2, 0x42 / 2, TOL));
    assert_int_equal(render_stats(g_fx.render).stage_draw_calls[RENDER_STAGE_HUD], 1);
    /* A box, then text on it: glyphs and shadow over the box, the box elsewhere. */
    memset(g_mask, 0, sizeof g_mask);
    expect_text(&c, 20, 20, 2, "Shown");
    render_hud_box(g_fx.render, 10, 10, 100, 40, 0x2142b5ffu);
    render_hud_text(g_fx.render, 20, 20, 2, 0xffff00ffu, "Shown");
    frame(&c, g_px);
    for (int y = 10; y < 50; y++)
        for (int x = 10; x < 110; x++) {
            uint8_t m = g_mask[y * c.cw + x];
            const uint8_t *p = at(&c, g_px, x, y);
            assert_true(m == GLYPH ? near(p, 255, 255, 0, TOL)
                                   : (m == SHADOW ? near(p, 0, 0, 0, TOL) : near(p, 0x21, 0x42, 0xb5, TOL)));
        }
}

static void test_overflow_is_counted(void **state) {
    (void)state;
    Canvas c = small_canvas();
    /* A box far off the canvas (beyond int16 quarter pixels: clamped, clipped), 999 boxes and
     * 100 glyphs (200 quads with their shadows) into a queue of 1024. */
    render_hud_box(g_fx.render, 30000, -30000, 70000, 70000, 0xffffffffu);
    for (int i = 1; i < 1000; i++) render_hud_box(g_fx.render, i % 120, i / 120 * 4, 2, 2, 0xffffffffu);
    char text[101];
    memset(text, 'A', 100);
    text[100] = 0;
    render_hud_text(g_fx.render, 0, 60, 1, 0xffffffffu, text);
    /* Far more than fits: dropped, never a crash. */
    static char huge[20000];
    for (size_t i = 0; i < sizeof huge - 1; i++) huge[i] = (char)(i % 97 == 0 ? '\n' : 32 + i % 95);
    render_hud_text(g_fx.render, -50, -30, 4, 0xff00ffffu, huge);
    frame(&c, g_px);
    RenderStats s = render_stats(g_fx.render);
    assert_int_equal(s.hud_quads, QUEUE);
    assert_true(s.hud_dropped >= 1200 - QUEUE + 2 * 19000);
    assert_int_equal(s.stage_draw_calls[RENDER_STAGE_HUD], 1);
    /* The next frame starts from an empty queue. */
    frame(&c, g_px);
    s = render_stats(g_fx.render);
    assert_int_equal(s.hud_quads, 0);
    assert_int_equal(s.hud_dropped, 0);
    assert_int_equal(s.stage_draw_calls[RENDER_STAGE_HUD], 0);
}

static void test_empty_queue_draws_nothing(void **state) {
    (void)state;
    Canvas c = small_canvas();
    frame(&c, g_bg);
    assert_int_equal(render_stats(g_fx.render).stage_draw_calls[RENDER_STAGE_HUD], 0);
    /* Queued, then cleared: the same frame, no HUD call. */
    render_hud_text(g_fx.render, 5, 5, 1, 0xffffffffu, "gone");
    render_hud_box(g_fx.render, 0, 0, 100, 100, 0xff0000ffu);
    render_hud_clear(g_fx.render);
    frame(&c, g_px);
    assert_int_equal(render_stats(g_fx.render).stage_draw_calls[RENDER_STAGE_HUD], 0);
    assert_memory_equal(g_px, g_bg, (size_t)c.dw * c.dh * 4);
    /* The sky debug frame does not draw the HUD, and empties its queue too. */
    render_hud_box(g_fx.render, 0, 0, 100, 100, 0xff0000ffu);
    RenderView v = render_fixture_view(0.0, 60.0, 0.0, 30.0f, 18.0f, 42.0);
    render_frame_sky_debug(g_fx.render, &v, c.dw, c.dh);
    assert_int_equal(render_stats(g_fx.render).stage_draw_calls[RENDER_STAGE_HUD], 0);
    frame(&c, g_px);
    assert_memory_equal(g_px, g_bg, (size_t)c.dw * c.dh * 4);
}

/* ---------------------------------------------------------------- the island map */
#define MAP_SEED 1
#define FIELD ((int)HOME_FIELD_CELLS)

static HomeIsland g_home;
static bool g_island_ready;

/* The home island as the game makes it (support/home_world.h), set on the map. */
static void home_island(void) {
    if (g_island_ready) return;
    SkyError err = {0};
    if (!home_island_make(&g_home, MAP_SEED, &err)) fail_msg("home island: %s", err.msg);
    assert_true(render_map_set(g_fx.render, &g_home.field, &g_home.isl, &g_home.cx, "en", &err));
    g_island_ready = true;
}

/* The map frame: the backdrop over the whole canvas, the map in a wide rectangle (so it is
 * letterboxed), the aircraft at (air_x, air_z). Canvas 240x160 (a 240x160 display at 1x). */
#define MAP_X 20
#define MAP_Y 4
#define MAP_W 200
#define MAP_H 152

static Canvas map_frame(double air_x, double air_z, float yaw_deg) {
    set_lines(160);
    Canvas c = canvas_for(240, 160);
    assert_int_equal(c.cw, 240);
    render_hud_box(g_fx.render, 0, 0, c.cw, c.ch, BACKDROP);
    render_hud_map(g_fx.render, MAP_X, MAP_Y, MAP_W, MAP_H, air_x, air_z, yaw_deg * (float)M_PI / 180.0f, -1);
    frame(&c, g_px);
    return c;
}

/* Where the map draws: the largest square of the rectangle, centred. */
static const int SIDE = MAP_H, SQ_X = MAP_X + (MAP_W - MAP_H) / 2, SQ_Y = MAP_Y;

/* The canvas pixel of world metres (x, z): the square spans the field, north up. */
static double map_px(double x) {
    return SQ_X + (x - g_home.field.centre_x + g_home.field.radius_m) / (2.0 * g_home.field.radius_m) * SIDE;
}
static double map_py(double z) {
    return SQ_Y + (z - g_home.field.centre_z + g_home.field.radius_m) / (2.0 * g_home.field.radius_m) * SIDE;
}

static bool is_arrow_red(const uint8_t *p) { return p[0] > 200 && p[1] < 110 && p[2] < 110; }

static void test_map_needs_an_island(void **state) {
    (void)state;
    IslandField empty;
    memset(&empty, 0, sizeof empty);
    Island none;
    memset(&none, 0, sizeof none);
    SkyError err = {0};
    assert_false(render_map_set(g_fx.render, &empty, &none, &g_home.cx, "en", &err));
    printf("message: %s\n", err.msg);
    assert_non_null(strstr(err.msg, "island map"));
    assert_int_equal(err.code, SKY_ERR_INPUT);
    assert_null(strchr(err.msg, '\n'));
    /* Nothing set yet: the map queues nothing. */
    render_hud_map(g_fx.render, 0, 0, 100, 100, 0.0, 0.0, 0.0f, -1);
    Canvas c = small_canvas();
    frame(&c, g_px);
    assert_int_equal(render_stats(g_fx.render).hud_quads, 0);
}

static void test_map_shows_the_island(void **state) {
    (void)state;
    home_island();
    const double ax = 300.0, az = -200.0;
    Canvas c = map_frame(ax, az, 90.0f);
    RenderStats s = render_stats(g_fx.render);
    assert_int_equal(s.stage_draw_calls[RENDER_STAGE_HUD], 1);   /* backdrop, map, names, arrow: one call */
    assert_int_equal(s.hud_dropped, 0);
    printf("note: map frame: %u HUD quads in 1 draw call, %u sites\n", s.hud_quads, g_home.isl.n_sites);

    /* The ground: on-island pixels in their cell's type colour, shaded (k * colour); the
     * corners of the square off the island show the backdrop. */
    long land = 0, land_ok = 0, sea = 0, sea_ok = 0;
    for (int y = SQ_Y; y < SQ_Y + SIDE; y++)
        for (int x = SQ_X; x < SQ_X + SIDE; x++) {
            int i = (int)((x - SQ_X + 0.5) * FIELD / SIDE), j = (int)((y - SQ_Y + 0.5) * FIELD / SIDE);
            uint8_t t = g_home.field.type[j * FIELD + i];
            const uint8_t *p = at(&c, g_px, x, y);
            if (t == ISLAND_FIELD_OFF) {
                sea++;
                sea_ok += near(p, BACKDROP_RGB, TOL);
                continue;
            }
            land++;
            double rgb[3] = {(g_home.field.type_rgb[t] >> 16) & 0xff, (g_home.field.type_rgb[t] >> 8) & 0xff,
                             g_home.field.type_rgb[t] & 0xff};
            double k = (p[0] * rgb[0] + p[1] * rgb[1] + p[2] * rgb[2]) /
                       (rgb[0] * rgb[0] + rgb[1] * rgb[1] + rgb[2] * rgb[2]);   /* the shade that fits best */
            bool ok = k > 0.15 && k < 1.3;
            for (int ch = 0; ch < 3; ch++) ok &= fabs(p[ch] - k * rgb[ch]) <= 20.0;
            land_ok += ok;
        }
    printf("note: map ground: %.1f%% of %ld land pixels in their type's colour, %.1f%% of %ld sea pixels clear\n",
           100.0 * land_ok / land, land, 100.0 * sea_ok / sea, sea);
    assert_true(land > 12000);   /* the island's coast, inside the map's disk: 14 625 pixels */
    assert_true(land_ok > land * 75 / 100);   /* the rest: paths, names, dots, the arrow (transposed: 37%) */
    assert_true(sea_ok > sea * 75 / 100);     /* names may reach over the sea */
    /* Outside the square, inside the rectangle: the backdrop, but for names reaching over. */
    long bar = 0, bar_ok = 0;
    for (int y = MAP_Y; y < MAP_Y + MAP_H; y++)
        for (int x = MAP_X; x < SQ_X; x++, bar++) bar_ok += near(at(&c, g_px, x, y), BACKDROP_RGB, TOL);
    assert_true(bar_ok > bar * 70 / 100);

    /* Every site's dot at its metres' pixel (the base's in gold), but under the arrow. */
    double cx = map_px(ax), cy = map_py(az), len = SIDE / 16.0;
    for (uint32_t k = 0; k < g_home.isl.n_sites; k++) {
        int x = (int)floor(map_px(g_home.isl.sites[k].x_m)), y = (int)floor(map_py(g_home.isl.sites[k].z_m));
        if (fabs(x - cx) < len && fabs(y - cy) < len) continue;
        const uint8_t *p = at(&c, g_px, x, y);
        bool ok = k == g_home.isl.base ? near(p, 255, 214, 41, TOL) : near(p, 255, 255, 255, TOL);
        if (!ok) print_error("site %u at (%d, %d): %d %d %d\n", k, x, y, p[0], p[1], p[2]);
        assert_true(ok);
    }

    /* The arrow at the aircraft, pointing east: its nose ahead of the centre, the notch behind. */
    assert_true(is_arrow_red(at(&c, g_px, (int)cx, (int)cy)));
    assert_true(is_arrow_red(at(&c, g_px, (int)(cx + 0.25 * len), (int)cy)));
    assert_false(is_arrow_red(at(&c, g_px, (int)(cx - 0.4 * len), (int)cy)));
    /* Heading north (yaw 0): up the map. This frame is the reference image too. */
    map_frame(ax, az, 0.0f);
    assert_true(is_arrow_red(at(&c, g_px, (int)cx, (int)(cy - 0.25 * len))));
    assert_false(is_arrow_red(at(&c, g_px, (int)cx, (int)(cy + 0.4 * len))));
    render_fixture_check_ref("hud_map", c.dw, c.dh, g_px);
}

static void test_map_arrow_clamped_outside_the_island(void **state) {
    (void)state;
    home_island();
    /* 5 km east of the island: the arrow on the rectangle's right edge, level with the centre. */
    Canvas c = map_frame(g_home.field.centre_x + 5000.0, g_home.field.centre_z, 180.0f);
    long red = 0, sx = 0, sy = 0;
    for (int y = 0; y < c.ch; y++)
        for (int x = 0; x < c.cw; x++) {
            if (!is_arrow_red(at(&c, g_px, x, y))) continue;
            assert_true(x >= MAP_X && x < MAP_X + MAP_W && y >= MAP_Y && y < MAP_Y + MAP_H);
            red++;
            sx += x;
            sy += y;
        }
    assert_true(red > 10);
    printf("note: clamped arrow: %ld pixels around (%.1f, %.1f)\n", red, (double)sx / red, (double)sy / red);
    assert_true((double)sx / red > MAP_X + MAP_W - 12.0);
    assert_true(fabs((double)sy / red - (MAP_Y + MAP_H / 2.0)) < 4.0);
}

static void test_hud_frames_do_not_allocate(void **state) {
    (void)state;
    home_island();
    Canvas c = small_canvas();
    RenderView v = render_fixture_view(0.0, 60.0, 0.0, 30.0f, 18.0f, 42.0);
    alloc_count_start();
    for (int i = 0; i < 2; i++) {
        render_hud_box(g_fx.render, 0, 0, 60, 22, 0x00000080u);
        render_hud_text(g_fx.render, 2, 2, 1, 0xffffffffu, "Speed 120\nAlt 300");
        render_hud_map(g_fx.render, 60, 30, 66, 66, 10.0 * i, 0.0, 0.3f * (float)i, -1);
        render_frame(g_fx.render, &v, c.dw, c.dh);
    }
    assert_int_equal(alloc_count_stop(), 0);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
}

/* Another island's map: its field's coordinates are metres from its cell's origin, so the same
 * field set at (ox, oz) puts each site's dot at the world position shifted by that much. */
static void test_map_of_an_island_elsewhere(void **state) {
    (void)state;
    home_island();
    const IslandSite *st = &g_home.isl.sites[g_home.isl.base];
    const double sx = g_home.field.centre_x + st->x_m, sz = g_home.field.centre_z + st->z_m;
    const double ox = 6144.0 * 1000000.0, oz = -6144.0 * 3.0;
    int hx, hy, fx, fy;
    assert_true(render_hud_map_point(g_fx.render, MAP_X, MAP_Y, MAP_W, MAP_H, sx, sz, &hx, &hy));
    SkyError err = {0};
    assert_true(render_map_set_at(g_fx.render, &g_home.field, &g_home.isl, &g_home.cx, "en", ox, oz, &err));
    assert_true(render_hud_map_point(g_fx.render, MAP_X, MAP_Y, MAP_W, MAP_H, ox + sx, oz + sz, &fx, &fy));
    assert_int_equal(fx, hx);
    assert_int_equal(fy, hy);
    /* The aircraft over it: its arrow where the base's dot is. */
    set_lines(160);
    Canvas c = canvas_for(240, 160);
    render_hud_box(g_fx.render, 0, 0, c.cw, c.ch, BACKDROP);
    render_hud_map(g_fx.render, MAP_X, MAP_Y, MAP_W, MAP_H, ox + sx, oz + sz, 0.0f, -1);
    frame(&c, g_px);
    assert_true(is_arrow_red(at(&c, g_px, fx, fy)));
    assert_true(render_map_set(g_fx.render, &g_home.field, &g_home.isl, &g_home.cx, "en", &err));   /* back home */
}

/* ---------------------------------------------------------------- the world map */
typedef struct TextBox { int x0, y0, x1, y1; } TextBox;
static void grow_box(int x, int y, void *ctx) {
    TextBox *b = ctx;
    b->x0 = x < b->x0 ? x : b->x0;
    b->y0 = y < b->y0 ? y : b->y0;
    b->x1 = x > b->x1 ? x : b->x1;
    b->y1 = y > b->y1 ? y : b->y1;
}

/* An island's square on the world map with its rim, inclusive pixels (at least 5 across), its
 * centre at pixel (px, py). */
static TextBox world_square_box(const RenderWorldIsle *is, double span, int px, int py) {
    double d = fmax(5.0, is->diameter_m / span * SIDE);
    double x0 = px + 0.5 - d * 0.5 - 1.0, y0 = py + 0.5 - d * 0.5 - 1.0;
    return (TextBox){(int)floor(x0), (int)floor(y0), (int)ceil(x0 + d + 2.0) - 1, (int)ceil(y0 + d + 2.0) - 1};
}

/* Three islands seen, one landed on (under the aircraft), one with a Japanese name: each square
 * where its centre falls (the landed one's gold mark on it), each name's text beside its island,
 * the arrow at the aircraft, all in the HUD's one draw call. */
static void test_world_map_draws_the_islands_seen(void **state) {
    (void)state;
    home_island();
    char ja[64];
    ja[0] = 0;   /* the first island east of the home island's, named in Japanese */
    for (int64_t cell = 1; cell < 64 && !ja[0]; cell++) island_cell_name(&g_home.cx, MAP_SEED, cell, 0, "ja", ja, sizeof ja);
    assert_true(ja[0] != 0);
    assert_true((unsigned char)ja[0] >= 0x80);   /* not the English name */
    assert_int_equal(render_hud_text_missing(ja), 0);   /* every character in the glyph atlas */
    const RenderWorldIsle isles[3] = {
        {0.0, 0.0, 800.0, true, true, "Home Island"},
        {7000.0, -4000.0, 1000.0, false, false, "Isle of Ashgrove"},
        {-5000.0, 5000.0, 600.0, false, false, ja},
    };
    const double span = 20000.0, air_x = 3000.0, air_z = 6000.0;
    set_lines(160);
    Canvas c = canvas_for(240, 160);
    render_hud_box(g_fx.render, 0, 0, c.cw, c.ch, BACKDROP);
    render_hud_world(g_fx.render, MAP_X, MAP_Y, MAP_W, MAP_H, 0.0, 0.0, span, isles, 3, air_x, air_z, 0.0f);
    /* The names, queued in order: the island under the aircraft's first. */
    assert_int_equal(render_hud_text_count(g_fx.render), 3);
    TextBox box[3];
    for (uint32_t i = 0; i < 3; i++) {
        box[i] = (TextBox){1 << 20, 1 << 20, -1, -1};
        assert_true(render_hud_text_pixels(g_fx.render, i, grow_box, &box[i]) > 20);
    }
    frame(&c, g_px);
    RenderStats st = render_stats(g_fx.render);
    assert_int_equal(st.stage_draw_calls[RENDER_STAGE_HUD], 1);
    assert_int_equal(st.hud_dropped, 0);
    printf("note: world map frame: %u HUD quads in 1 draw call, 3 islands\n", st.hud_quads);
    for (uint32_t i = 0; i < 3; i++) {
        int px, py;
        assert_true(render_hud_world_point(MAP_X, MAP_Y, MAP_W, MAP_H, 0.0, 0.0, span, isles[i].x, isles[i].z, &px, &py));
        /* The square spans the map: SIDE pixels for span metres, centred. */
        assert_true(abs(px - (SQ_X + SIDE / 2 + (int)floor(isles[i].x / span * SIDE))) <= 1);
        assert_true(abs(py - (SQ_Y + SIDE / 2 + (int)floor(isles[i].z / span * SIDE))) <= 1);
        const uint8_t *p = at(&c, g_px, px, py);
        bool ok = isles[i].landed ? near(p, 255, 214, 41, TOL) : near(p, 0x5a, 0x9c, 0x42, TOL);
        if (!ok) print_error("island %u at (%d, %d): %d %d %d\n", i, px, py, p[0], p[1], p[2]);
        assert_true(ok);
        /* Its name beside it: the text's box within a few pixels of the island's square's rim. */
        const TextBox *b = &box[i];
        TextBox sq = world_square_box(&isles[i], span, px, py);
        int dx = sq.x0 > b->x1 ? sq.x0 - b->x1 : (b->x0 > sq.x1 ? b->x0 - sq.x1 : 0);
        int dy = sq.y0 > b->y1 ? sq.y0 - b->y1 : (b->y0 > sq.y1 ? b->y0 - sq.y1 : 0);
        if (dx > 5 || dy > 5) print_error("name %u at %d..%d, %d..%d, island at (%d, %d)\n", i, b->x0, b->x1, b->y0, b->y1, px, py);
        assert_true(dx <= 5 && dy <= 5);
        assert_true(b->x0 >= SQ_X && b->x1 < SQ_X + SIDE && b->y0 >= SQ_Y && b->y1 < SQ_Y + SIDE);
    }
    /* Between the islands: the map's deep blue; the arrow at the aircraft. */
    assert_true(near(at(&c, g_px, SQ_X + 3, SQ_Y + 3), 0x10, 0x29, 0x4a, TOL));
    int ax, ay;
    assert_true(render_hud_world_point(MAP_X, MAP_Y, MAP_W, MAP_H, 0.0, 0.0, span, air_x, air_z, &ax, &ay));
    assert_true(is_arrow_red(at(&c, g_px, ax, ay)));
    /* Nothing for a span of 0 (and no island drawn off the square). */
    render_hud_world(g_fx.render, MAP_X, MAP_Y, MAP_W, MAP_H, 0.0, 0.0, 0.0, isles, 3, air_x, air_z, 0.0f);
    assert_int_equal(render_hud_bounds(g_fx.render).quads, 0);
}

/* ---------------------------------------------------------------- where the names go */
static bool boxes_meet(TextBox a, TextBox b) { return a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1; }
static TextBox label_box(const RenderMapBox *b) { return (TextBox){b->x, b->y, b->x + b->w - 1, b->y + b->h - 1}; }

typedef struct TextCheck {
    TextBox box;
    int16_t *owner;   /* the text on each canvas pixel, -1 none */
    int cw, ch, text, outside, shared;
} TextCheck;
static void check_pixel(int x, int y, void *ctx) {
    TextCheck *t = ctx;
    /* Its glyphs and their one-pixel shadow within the box the layout kept for it. */
    t->outside += x < t->box.x0 || x > t->box.x1 + 1 || y < t->box.y0 || y > t->box.y1 + 1;
    if (x < 0 || y < 0 || x >= t->cw || y >= t->ch) return;
    int16_t *o = &t->owner[y * t->cw + x];
    t->shared += *o >= 0 && *o != t->text;
    *o = (int16_t)t->text;
}

/* The names the map just queued (its only texts): each drawn inside the box it was laid out in,
 * no two sharing a pixel nor their boxes meeting, none meeting the arrow's box; then the frame,
 * one HUD draw call, where no name's pixel shows the arrow's red (drawn over them). Gives the
 * names' count. */
static uint32_t check_names(const Canvas *c) {
    static int16_t owner[240 * 160];
    const RenderMapLabels *l = render_hud_map_labels(g_fx.render);
    assert_int_equal(render_hud_text_count(g_fx.render), l->n);
    assert_true(c->cw * c->ch <= 240 * 160);
    memset(owner, 0xff, sizeof owner);
    TextBox arrow = label_box(&l->arrow);
    for (uint32_t i = 0; i < l->n; i++) {
        TextCheck t = {label_box(&l->box[i]), owner, c->cw, c->ch, (int)i, 0, 0};
        assert_true(render_hud_text_pixels(g_fx.render, i, check_pixel, &t) > 10);
        if (t.outside || t.shared) print_error("name %u: %d pixels outside its box, %d shared\n", i, t.outside, t.shared);
        assert_int_equal(t.outside, 0);
        assert_int_equal(t.shared, 0);
        assert_false(boxes_meet(t.box, arrow));
        for (uint32_t j = 0; j < i; j++) assert_false(boxes_meet(t.box, label_box(&l->box[j])));
    }
    frame(c, g_px);
    assert_int_equal(render_stats(g_fx.render).stage_draw_calls[RENDER_STAGE_HUD], 1);   /* map, names, arrow */
    for (int y = 0; y < c->ch; y++)
        for (int x = 0; x < c->cw; x++)
            if (owner[y * c->cw + x] >= 0) assert_false(is_arrow_red(at(c, g_px, x, y)));
    return l->n;
}

/* Whether the box meets strip k of the home island (its light bar and dark rim, as drawn). */
static bool box_on_strip(TextBox b, uint32_t k) {
    const IslandFieldStrip *st = &g_home.field.strips[k];
    double ax = map_px(st->ax), ay = map_py(st->az), bx = map_px(st->bx), by = map_py(st->bz);
    double half = fmax(2.0, st->width_m / (2.0 * g_home.field.radius_m) * SIDE) * 0.5 + 1.0;
    for (double t = 0.0; t <= 1.0; t += 0.005) {
        double x = ax + (bx - ax) * t, y = ay + (by - ay) * t;
        if (x + half >= b.x0 && x - half <= b.x1 + 1 && y + half >= b.y0 && y - half <= b.y1 + 1) return true;
    }
    return false;
}

/* The aircraft over each place of the home island in turn (heading a different way each time):
 * that place's name always drawn, beside its dot; the names clear of each other, of the arrow
 * and of the strips. */
static void test_map_names_keep_clear(void **state) {
    (void)state;
    home_island();
    set_lines(160);
    Canvas c = canvas_for(240, 160);
    uint32_t least = ~0u, total = 0;
    for (uint32_t k = 0; k < g_home.isl.n_sites; k++) {
        const double x = g_home.field.centre_x + g_home.isl.sites[k].x_m, z = g_home.field.centre_z + g_home.isl.sites[k].z_m;
        render_hud_box(g_fx.render, 0, 0, c.cw, c.ch, BACKDROP);
        render_hud_map(g_fx.render, MAP_X, MAP_Y, MAP_W, MAP_H, x, z, (float)(k * 0.7), (int)k);
        const RenderMapLabels *l = render_hud_map_labels(g_fx.render);
        int here = -1;
        for (uint32_t i = 0; i < l->n; i++) {
            if (l->owner[i] == k) here = (int)i;
            for (uint32_t s = 0; s < g_home.field.n_strips && s < ISLAND_FIELD_MAX_STRIPS; s++)
                assert_false(box_on_strip(label_box(&l->box[i]), s));
        }
        if (here < 0) print_error("the place under the aircraft, site %u, has no name\n", k);
        assert_int_equal(here, 0);   /* the first name queued */
        /* Beside its dot and the arrow over it: within two lines of them. */
        TextBox b = label_box(&l->box[here]), a = label_box(&l->arrow);
        int px = (int)floor(map_px(x)), py = (int)floor(map_py(z));
        TextBox near = {px < a.x0 ? px : a.x0, py < a.y0 ? py : a.y0, px > a.x1 ? px : a.x1, py > a.y1 ? py : a.y1};
        int dx = near.x0 > b.x1 ? near.x0 - b.x1 : (b.x0 > near.x1 ? b.x0 - near.x1 : 0);
        int dy = near.y0 > b.y1 ? near.y0 - b.y1 : (b.y0 > near.y1 ? b.y0 - near.y1 : 0);
        if (dx > 2 * RENDER_HUD_LINE_H || dy > 2 * RENDER_HUD_LINE_H)
            print_error("site %u at (%d, %d), arrow %d..%d, %d..%d: its name at %d..%d, %d..%d\n", k, px, py, a.x0, a.x1, a.y0,
                        a.y1, b.x0, b.x1, b.y0, b.y1);
        assert_true(dx <= 2 * RENDER_HUD_LINE_H && dy <= 2 * RENDER_HUD_LINE_H);
        uint32_t n = check_names(&c);
        least = n < least ? n : least;
        total += n;
    }
    printf("note: island map names at 240x160: %u to %.1f on average of %u places, the aircraft over each\n", least,
           (double)total / g_home.isl.n_sites, g_home.isl.n_sites);
    assert_true(least >= 4);
}

static TextBox join_boxes(TextBox a, TextBox b) {
    return (TextBox){a.x0 < b.x0 ? a.x0 : b.x0, a.y0 < b.y0 ? a.y0 : b.y0, a.x1 > b.x1 ? a.x1 : b.x1, a.y1 > b.y1 ? a.y1 : b.y1};
}

/* The squared gap between two inclusive boxes (0 when they meet). */
static long gap2(TextBox a, TextBox b) {
    long dx = a.x0 > b.x1 ? a.x0 - b.x1 - 1 : (b.x0 > a.x1 ? b.x0 - a.x1 - 1 : 0);
    long dy = a.y0 > b.y1 ? a.y0 - b.y1 - 1 : (b.y0 > a.y1 ? b.y0 - a.y1 - 1 : 0);
    return dx * dx + dy * dy;
}

/* Twenty islands dx by dz metres apart on a 20 km map, the aircraft over island 12: its name
 * drawn first, in gold, beside its square and the arrow over it; every other name drawn nearer
 * its own island's square than any other square (the one under the aircraft reaching to the
 * arrow), clear of the other names and the arrow. `crowded`: a map where the gaps are shorter
 * than the names, and the arrow covers the gaps round island 12: its name may lie nearer another
 * island then, the only one. Gives the names' count. */
static uint32_t world_names(double dx, double dz, bool crowded) {
    enum { N = 20 };
    static RenderWorldIsle isles[N];
    static char names[N][32];
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "Isle of No. %d", i);
        double jx = (double)((i * 37) % 11) * dx * 0.02, jz = (double)((i * 53) % 7) * dz * 0.03;
        isles[i] = (RenderWorldIsle){dx * ((i % 5) - 2) + jx, dz * ((i / 5) - 1.5) + jz, 400.0 + 60.0 * (i % 9),
                                     i == 3, i == 12, names[i]};
    }
    const double span = 20000.0;
    set_lines(160);
    Canvas c = canvas_for(240, 160);
    render_hud_box(g_fx.render, 0, 0, c.cw, c.ch, BACKDROP);
    render_hud_world(g_fx.render, MAP_X, MAP_Y, MAP_W, MAP_H, 0.0, 0.0, span, isles, N, isles[12].x + 150.0,
                     isles[12].z + 100.0, 1.0f);
    const RenderMapLabels *l = render_hud_map_labels(g_fx.render);
    TextBox sq[N];
    for (int i = 0; i < N; i++) {
        int px, py;
        assert_true(render_hud_world_point(MAP_X, MAP_Y, MAP_W, MAP_H, 0.0, 0.0, span, isles[i].x, isles[i].z, &px, &py));
        sq[i] = world_square_box(&isles[i], span, px, py);
    }
    sq[12] = join_boxes(sq[12], label_box(&l->arrow));
    assert_true(l->n > 0);
    assert_int_equal(l->owner[0], 12);   /* under the aircraft: first */
    for (uint32_t k = 0; k < l->n; k++) {
        TextBox b = label_box(&l->box[k]);
        long own = gap2(b, sq[l->owner[k]]);
        assert_true(own <= 4 * RENDER_HUD_LINE_H * RENDER_HUD_LINE_H);   /* beside its square: within two lines */
        if (crowded && l->owner[k] == 12) continue;
        for (int i = 0; i < N; i++) {
            if ((uint32_t)i == l->owner[k]) continue;
            if (gap2(b, sq[i]) <= own) print_error("the name of island %u is as near island %d's square\n", l->owner[k], i);
            assert_true(gap2(b, sq[i]) > own);
        }
    }
    return check_names(&c);
}

static void test_world_map_names_by_their_islands(void **state) {
    (void)state;
    uint32_t roomy = world_names(4500.0, 5000.0, false), crowded = world_names(2500.0, 3000.0, true);
    printf("note: world map names at 240x160: %u of 20 islands 4.5 x 5 km apart, %u of 20 2.5 x 3 km apart\n", roomy,
           crowded);
    assert_true(roomy >= 8);   /* measured: 9 and 5 */
    assert_true(crowded >= 4);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_canvas_follows_the_target),
        cmocka_unit_test(test_text_width), cmocka_unit_test(test_hud_size_is_the_renderers),
        cmocka_unit_test(test_create_bytes_bound_the_renderer),
        cmocka_unit_test(test_text_at_480x320),
        cmocka_unit_test(test_text_at_640x480),
        cmocka_unit_test(test_text_on_the_smallest_canvas),
        cmocka_unit_test(test_queue_order),
        cmocka_unit_test(test_overflow_is_counted),
        cmocka_unit_test(test_empty_queue_draws_nothing),
        cmocka_unit_test(test_map_needs_an_island),
        cmocka_unit_test(test_map_shows_the_island),
        cmocka_unit_test(test_map_arrow_clamped_outside_the_island),
        cmocka_unit_test(test_map_of_an_island_elsewhere),
        cmocka_unit_test(test_world_map_draws_the_islands_seen),
        cmocka_unit_test(test_map_names_keep_clear),
        cmocka_unit_test(test_world_map_names_by_their_islands),
        cmocka_unit_test(test_hud_frames_do_not_allocate),
    };
    int rc = cmocka_run_group_tests(tests, setup, render_fixture_teardown);
    if (g_island_ready) home_island_release(&g_home);
    return rc;
}
