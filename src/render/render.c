/* skyisles renderer: boot, settings, the abyss atmosphere (W8), the frame, a list of stages:
 * sky dome -> opaque terrain -> aircraft -> translucent clouds -> HUD layer -> PSX upscale, and
 * the HUD's public calls (the layer itself is hud.c and hud_map.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cglm/cglm.h>

#include "terrain.h"

#define NEAR_PLANE 1.0f
#define FAR_PLANE 1200.0f

struct Renderer {
    RenderSettings settings;
    MemArena scratch;       /* boot-time buffers, shader text, each upload's staging */
    GLuint quad_ibo;        /* the quad index pattern the terrain and the HUD draw with */
    uint32_t quad_ibo_bytes;
    PsxTarget psx;
    SkyDome sky;
    Terrain terrain;
    AircraftModel aircraft;
    RingsLayer rings;
    LightsLayer lights;
    PapiLayer papi;
    RainLayer rain;
    HudLayer hud;
    RenderCounters counters;
    float viewproj[16];
    uint32_t gl_error_count;
    int low_w, low_h;
    uint64_t driver_ns_frame, driver_ns_upload;
    GpuTimer gpu;           /* the frame's GPU time, where the driver has a timer query */
    bool one_in_flight;     /* a software rasteriser: each frame waits for the last one's pixels */
};

void render_atmosphere(double camera_y, const float sky_rgb[3], RenderAtmosphere *out) {
    double h = (camera_y - RENDER_ABYSS_Y0) / (RENDER_ABYSS_Y1 - RENDER_ABYSS_Y0);
    h = h < 0.0 ? 0.0 : (h > 1.0 ? 1.0 : h);
    const float abyss[3] = {RENDER_ABYSS_R, RENDER_ABYSS_G, RENDER_ABYSS_B};
    float t = (float)(1.0 - h);
    out->h = (float)h;
    out->abyss_mix = t;
    for (int i = 0; i < 3; i++) out->color[i] = sky_rgb[i] + (abyss[i] - sky_rgb[i]) * t;
    out->fog_density = 0.005f + t * 0.035f;
}

const char *render_stage_name(RenderStage s) {
    static const char *const NAMES[RENDER_STAGE_COUNT] = {"sky", "terrain", "aircraft", "clouds", "hud", "psx_blit"};
    return (unsigned)s < RENDER_STAGE_COUNT ? NAMES[s] : "?";
}

static size_t scratch_bytes(void) {
    size_t scratch = terrain_scratch_bytes();
    return scratch < RENDER_BOOT_SCRATCH_BYTES ? RENDER_BOOT_SCRATCH_BYTES : scratch;
}

/* Each carve as render_create and terrain_init/hud_init make it, with its worst alignment pad. */
size_t render_create_bytes(const RenderCreateParams *c) {
    size_t cap = c->max_chunks < 16 ? 16 : c->max_chunks, nslots = cap + cap / 4 + 8;
    size_t bytes = sizeof(Renderer) + 15 + scratch_bytes() + 63;
    bytes += sizeof(GpuChunk) * nslots + (sizeof(ChunkRec) + sizeof(PendingMesh)) * cap;
    bytes += (2 * sizeof(uint32_t) + sizeof(float)) * nslots + 6 * 15;
    size_t blocks = (terrain_copy_kib(c, (uint32_t)cap) << 10) / (TERRAIN_COPY_VERTS * sizeof(WorldVertex));
    if (blocks) bytes += blocks * (TERRAIN_COPY_VERTS * sizeof(WorldVertex) + sizeof(int32_t)) + 2 * 15;
    uint32_t quads = c->hud_max_quads ? c->hud_max_quads : RENDER_HUD_QUADS_DEFAULT;
    if (quads > RENDER_QUAD_INDEX_QUADS) quads = RENDER_QUAD_INDEX_QUADS;
    return bytes + sizeof(HudVertex) * 4 * quads + 15 + sizeof(uint32_t) * 2 * HUD_TEXTS_MAX + 15 + HUD_INK_BYTES + 15;
}

Renderer *render_create(MemBudget *mem, const RenderSettings *s, SkyError *err) {
    Renderer *r = mem_carve(mem, sizeof *r, 16);
    if (!r) {
        sky_error_set(err, SKY_ERR_START, "render: memory budget exhausted before the renderer");
        return NULL;
    }
    r->settings = *s;
    if (r->settings.create.max_chunks < 16) r->settings.create.max_chunks = 16;
    /* One scratch region serves boot and, after it, each upload's staging. */
    size_t scratch = scratch_bytes();
    if (!mem_arena_init(&r->scratch, mem, scratch)) {
        sky_error_set(err, SKY_ERR_START, "render: memory budget too small for %zu KiB of renderer scratch", scratch >> 10);
        return NULL;
    }
    while (glGetError() != GL_NO_ERROR) {}
    r->quad_ibo = gl_quad_indices(&r->scratch, &r->quad_ibo_bytes, err);
    if (!r->quad_ibo || !psx_init(&r->psx, &r->scratch, err) ||
        !sky_init(&r->sky, s->live.sky_force_mediump, &r->scratch, err) ||
        !terrain_init(&r->terrain, mem, &r->scratch, r->quad_ibo, &r->settings, err) ||
        !aircraft_init(&r->aircraft, &r->scratch, err) || !rings_init(&r->rings, &r->aircraft, err) ||
        !papi_init(&r->papi, &r->aircraft, err) ||
        !lights_init(&r->lights, &r->scratch, r->quad_ibo, err) ||
        !rain_init(&r->rain, &r->scratch, err) ||
        !hud_init(&r->hud, mem, &r->scratch, r->quad_ibo, s->create.hud_max_quads, &r->settings.live, err)) {
        render_destroy(r);
        return NULL;
    }
    /* What was carved (the tiles' copies as they came out), for render_settings. */
    terrain_carved(&r->terrain, &r->settings.create.far_group_lod, &r->settings.create.far_group_kib);
    const char *gpu = (const char *)glGetString(GL_RENDERER);
    r->one_in_flight = gpu && (strstr(gpu, "llvmpipe") || strstr(gpu, "softpipe") || strstr(gpu, "SwiftShader"));
    log_info("render: %s | %s; sky dome on its %s path", gpu ? gpu : "?",
             (const char *)glGetString(GL_VERSION), r->sky.highp ? "highp" : "mediump");
    return r;
}

const char *render_gpu_name(const Renderer *r) {
    (void)r;   /* one context per process: the current one */
    const char *s = (const char *)glGetString(GL_RENDERER);
    return s ? s : "";
}

bool render_gpu_timer_enable(Renderer *r, void *(*get_proc)(const char *name)) { return gpu_timer_enable(&r->gpu, get_proc); }
double render_gpu_ms(const Renderer *r) { return r->gpu.on ? r->gpu.ms : -1.0; }

void render_destroy(Renderer *r) {
    if (!r) return;
    gpu_timer_destroy(&r->gpu);
    hud_free(&r->hud);
    rings_free(&r->rings);
    lights_free(&r->lights);
    papi_free(&r->papi);
    rain_free(&r->rain);
    aircraft_free(&r->aircraft);
    terrain_free(&r->terrain);
    sky_free(&r->sky);
    psx_free(&r->psx);
    if (r->quad_ibo) glDeleteBuffers(1, &r->quad_ibo);
    r->quad_ibo = 0;
}

void render_apply_settings(Renderer *r, const RenderSettings *s) {
    const RenderLiveParams *l = &s->live;
    bool rebuild_sky = l->sky_force_mediump != r->settings.live.sky_force_mediump;
    r->settings.live = *l;   /* the create part stays what render_create carved */
    terrain_set_merge_gap(&r->terrain, l->merge_gap_quads);
    if (rebuild_sky) {
        SkyError err = {0};
        SkyDome fresh;
        if (sky_init(&fresh, l->sky_force_mediump, &r->scratch, &err)) {
            sky_free(&r->sky);
            r->sky = fresh;
        } else {
            log_error("%s", err.msg);
        }
    }
}

const RenderSettings *render_settings(const Renderer *r) { return &r->settings; }

/* ---------------------------------------------------------------- terrain feed */
bool render_queue_mesh(Renderer *r, const ChunkMesh *m) { return terrain_queue(&r->terrain, m); }
void render_drop_chunk(Renderer *r, int64_t cx, int64_t cz) {
    terrain_drop(&r->terrain, cx, cz);
    terrain_flush_tiles(&r->terrain);
}
void render_clear_terrain(Renderer *r) { terrain_clear(&r->terrain); }

uint32_t render_upload_pending(Renderer *r, World *release_to) {
    render_driver_ns = 0;
    uint32_t n = terrain_upload_pending(&r->terrain, release_to, r->settings.live.upload_meshes_per_frame,
                                        r->settings.live.upload_bytes_per_frame);
    r->gl_error_count += (uint32_t)gl_errors("terrain upload");
    r->driver_ns_upload = render_driver_ns;
    return n;
}

void render_sync_world(Renderer *r, World *w) {
    WorldEvent ev[64];
    const size_t batch = sizeof ev / sizeof ev[0];
    for (;;) {
        /* Take no more READY meshes than the queue can hold: the rest wait in the world. */
        uint32_t room = terrain_queue_room(&r->terrain);
        size_t max = room < batch ? room : batch;
        if (max == 0) break;
        size_t n = world_take_events(w, ev, max);
        for (size_t i = 0; i < n; i++) {
            if (ev[i].type == WORLD_EV_CHUNK_GONE) terrain_drop(&r->terrain, ev[i].cx, ev[i].cz);
            else if (ev[i].mesh && !terrain_queue(&r->terrain, ev[i].mesh))
                world_release_mesh(w, ev[i].cx, ev[i].cz);
        }
        if (n < max) break;
    }
    render_upload_pending(r, w);
}

/* ---------------------------------------------------------------- the frame */
static void low_res_size(const RenderLiveParams *s, int dw, int dh, int *lw, int *lh) {
    if (s->lines <= 0) { *lw = *lh = 0; return; }
    int lines = s->lines < 64 ? 64 : (s->lines > RENDER_LINES_MAX ? RENDER_LINES_MAX : s->lines);
    if (s->fixed_4_3) {
        *lh = lines;
        *lw = lines * 4 / 3;
        return;
    }
    /* An integer divisor of the display keeps every low-res pixel the same size on screen. */
    int scale = dh / lines;
    if (scale < 1) scale = 1;
    *lh = dh / scale;
    *lw = dw / scale;
}

static void camera_viewproj(const RenderView *v, float fov_deg, float aspect, float out[16]) {
    vec3 right, up, fwd;
    render_basis(v->yaw, v->pitch, v->roll, right, up, fwd);
    vec3 eye = {0.0f, 0.0f, 0.0f};
    mat4 view, proj, vp;
    glm_look(eye, fwd, up, view);
    glm_perspective(glm_rad(fov_deg), aspect, NEAR_PLANE, FAR_PLANE, proj);
    glm_mat4_mul(proj, view, vp);
    memcpy(out, vp, sizeof vp);
}

/* The frame's first step: atmosphere, the target (low-res or the display) bound and cleared,
 * the camera, and the PSX look every stage draws with. */
static void frame_begin(Renderer *r, RenderFrame *f, const RenderView *v, int dw, int dh, bool sky_debug) {
    const RenderSettings *st = &r->settings;
    memset(f, 0, sizeof *f);
    f->view = v;
    f->settings = st;
    f->disp_w = dw;
    f->disp_h = dh;
    f->sky_debug = sky_debug;
    render_sky_at(&st->live, render_sky_hour(&st->live, v->time_s), &f->sky);
    render_sky_weather(&f->sky, &v->weather);
    render_atmosphere(v->cam_y, f->sky.horizon, &f->atm);
    rain_atmosphere(&v->weather, &f->atm);   /* fog banks and the lightning's light */
    memset(&r->counters, 0, sizeof r->counters);
    render_driver_ns = 0;

    int lw, lh;
    low_res_size(&st->live, dw, dh, &lw, &lh);
    f->low_res = lw > 0 && psx_resize(&r->psx, lw, lh, st->live.color15);
    if (!f->low_res) {
        psx_resize(&r->psx, 0, 0, false);
        lw = dw;
        lh = dh;
    }
    f->target_w = r->low_w = lw;
    f->target_h = r->low_h = lh;
    glBindFramebuffer(GL_FRAMEBUFFER, f->low_res ? r->psx.fbo : 0);
    glDisable(GL_DITHER);   /* the shaders dither, in low-res pixels */
    glViewport(0, 0, lw, lh);
    glClearColor(f->atm.color[0], f->atm.color[1], f->atm.color[2], 1.0f);
    glDepthMask(GL_TRUE);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

    camera_viewproj(v, st->live.fov_y_deg, (float)lw / (float)lh, f->viewproj);
    memcpy(r->viewproj, f->viewproj, sizeof r->viewproj);
    psx_params(&st->live, &f->atm, lw, lh, &f->psx);
    psx_light(&f->sky, v->cam_y, &f->psx);
    lights_prepare(&r->lights, f);
}

static void frame_end(Renderer *r) {
    glUseProgram(0);
    r->driver_ns_frame = render_driver_ns;
    r->gl_error_count += (uint32_t)gl_errors("frame");
}

/* One frame, top to bottom. Every stage draws with the same RenderFrame (camera, atmosphere,
 * PSX look) and counts its own draw calls. */
static void frame(Renderer *r, const RenderView *v, int dw, int dh, bool sky_debug) {
    RenderFrame f;
    RenderCounters *rc = &r->counters;
    /* A software rasteriser queues frames where the swap waits for nothing (an offscreen pbuffer):
     * llvmpipe up to 64 of them, seconds of pixels unseen by the frame's measure, all paid by the
     * first draw that reads a target (the lines switched back to a low-res target). One frame in
     * flight, as a display's swap keeps it: the last one finished before this one's first command,
     * so the game's work between the two still runs beside its pixels. */
    if (r->one_in_flight) glFinish();
    frame_begin(r, &f, v, dw, dh, sky_debug);
    gpu_timer_begin(&r->gpu);
    sky_draw(&r->sky, &f, rc);                          /* first, behind everything, no depth */
    if (!sky_debug) {                                   /* the debug frame shows the dome alone */
        terrain_prepare(&r->terrain, &f, rc);           /* tiles rebuilt, culled, clouds ordered */
        terrain_draw_opaque(&r->terrain, &f, rc);
        aircraft_draw(&r->aircraft, &f, rc);            /* the view's instances */
        rings_draw(&r->rings, &f, rc);                  /* a course's rings, opaque */
        papi_draw(&r->papi, &f, rc);                  /* the airstrips' approach lights */
        lights_draw(&r->lights, &f, rc);                /* night lights, added over the opaque scene */
        terrain_draw_clouds(&r->terrain, &f, rc);       /* translucent, back to front, after all opaque */
        rain_draw(&r->rain, &f, rc);                    /* streaks, then the lightning's flash */
        hud_draw(&r->hud, &f, rc);                      /* text and menus, in PSX pixels */
    }
    psx_present(&r->psx, &f, rc);                       /* nearest upscale to the display */
    hud_frame_done(&r->hud);                            /* the queue was this frame's */
    gpu_timer_end(&r->gpu);
    frame_end(r);
}

void render_rings_set(Renderer *r, const RenderRing *rings, uint32_t n) { rings_set(&r->rings, rings, n); }
void render_strips_set(Renderer *r, const WorldStrip *strips, uint32_t n) { papi_set(&r->papi, strips, n); }
void render_rings_next(Renderer *r, uint32_t next, float pulse) { rings_next(&r->rings, next, pulse); }
void render_hud_arrow(Renderer *r, int x, int y, int size, float angle, uint32_t rgba) {
    rings_hud_arrow(&r->hud, (float)x, (float)y, (float)size, angle, rgba);
}

RenderLight *render_view_light(RenderView *v) {
    if (v->light_count >= RENDER_LIGHTS_MAX) return NULL;
    RenderLight *l = &v->lights[v->light_count++];
    memset(l, 0, sizeof *l);
    return l;
}

RenderInstance *render_view_add(RenderView *v, RenderModel model) {
    if (v->instance_count >= RENDER_INSTANCES_MAX) return NULL;
    RenderInstance *in = &v->instances[v->instance_count++];
    memset(in, 0, sizeof *in);
    in->model = model;
    for (int i = 0; i < 4; i++) in->tint[i] = 1.0f;
    return in;
}

void render_frame(Renderer *r, const RenderView *v, int dw, int dh) { frame(r, v, dw, dh, false); }
void render_frame_sky_debug(Renderer *r, const RenderView *v, int dw, int dh) { frame(r, v, dw, dh, true); }

/* ---------------------------------------------------------------- HUD layer */
void render_hud_canvas(const Renderer *r, int disp_w, int disp_h, int *w, int *h) {
    low_res_size(&r->settings.live, disp_w, disp_h, w, h);
    if (*w <= 0 || *h <= 0) {
        *w = disp_w;
        *h = disp_h;
    }
}

void render_hud_clear(Renderer *r) { hud_clear(&r->hud); }

RenderHudBounds render_hud_bounds(const Renderer *r) {
    float b[4];
    RenderHudBounds out = {0, 0, 0, 0, r->hud.quads, r->hud.dropped};
    if (!hud_bounds(&r->hud, b)) return out;
    out.x0 = (int)floorf(b[0]);
    out.y0 = (int)floorf(b[1]);
    out.x1 = (int)ceilf(b[2]);
    out.y1 = (int)ceilf(b[3]);
    return out;
}

void render_hud_box(Renderer *r, int x, int y, int w, int h, uint32_t rgba) {
    hud_box(&r->hud, (float)x, (float)y, (float)w, (float)h, rgba);
}

int render_hud_text_width(const Renderer *r, const char *text, int scale) {
    return hud_text_width(text, scale, hud_zoom(&r->hud));
}

float render_hud_zoom(const Renderer *r) { return hud_zoom(&r->hud); }

uint32_t render_hud_text_missing(const char *text) { return hud_text_missing(text); }

typedef struct BreakMeasure {
    int scale;
    float zoom;
} BreakMeasure;

static int break_measure(const char *s, size_t n, void *ctx) {
    const BreakMeasure *m = ctx;
    return hud_text_width_n(s, n, m->scale, m->zoom);
}

size_t render_hud_text_break(const Renderer *r, const char *text, int scale, int room) {
    BreakMeasure m = {scale, hud_zoom(&r->hud)};
    return text ? text_break(text, room, break_measure, &m) : 0;
}

uint32_t render_hud_text_count(const Renderer *r) { return r->hud.n_texts; }

uint32_t render_hud_text_pixels(const Renderer *r, uint32_t text, void (*put)(int x, int y, void *ctx), void *ctx) {
    return hud_text_pixels(&r->hud, text, put, ctx);
}

void render_hud_text(Renderer *r, int x, int y, int scale, uint32_t rgba, const char *text) {
    hud_text(&r->hud, x, y, scale, rgba, text);
}

bool render_map_set(Renderer *r, const IslandField *f, const Island *isl, const IslandCodex *cx, const char *lang,
                    SkyError *err) {
    return hud_map_set(&r->hud, f, isl, cx, lang, 0.0, 0.0, &r->scratch, err);
}

bool render_map_set_at(Renderer *r, const IslandField *f, const Island *isl, const IslandCodex *cx, const char *lang,
                       double ox, double oz, SkyError *err) {
    return hud_map_set(&r->hud, f, isl, cx, lang, ox, oz, &r->scratch, err);
}

void render_hud_world(Renderer *r, int x, int y, int w, int h, double centre_x, double centre_z, double span_m,
                      const RenderWorldIsle *isles, uint32_t n, double air_x, double air_z, float air_yaw) {
    hud_world_queue(&r->hud, x, y, w, h, centre_x, centre_z, span_m, isles, n, air_x, air_z, air_yaw);
}

void render_hud_map(Renderer *r, int x, int y, int w, int h, double air_x, double air_z, float air_yaw, int here) {
    hud_map_queue(&r->hud, x, y, w, h, air_x, air_z, air_yaw, here);
}

const RenderMapLabels *render_hud_map_labels(const Renderer *r) {
    return &r->hud.labels;
}

bool render_hud_map_point(const Renderer *r, int x, int y, int w, int h, double wx, double wz, int *px, int *py) {
    return hud_map_point(&r->hud, x, y, w, h, wx, wz, px, py);
}

void render_finish(Renderer *r) {
    (void)r;
    glFinish();
}

RenderStats render_stats(const Renderer *r) {
    RenderStats s;
    memset(&s, 0, sizeof s);
    TerrainStats ts;
    terrain_stats(&r->terrain, &ts);
    s.draw_calls = r->counters.draw_calls;
    s.triangles = r->counters.triangles;
    s.uploads = ts.last_uploads;
    s.upload_bytes = ts.last_upload_bytes;
    s.chunks_resident = ts.resident;
    s.chunks_visible = r->counters.chunks_visible;
    s.chunks_culled = r->counters.chunks_culled;
    s.pending_uploads = ts.pending_live;
    s.gpu_bytes = ts.gpu_bytes + r->quad_ibo_bytes + r->sky.bytes + r->aircraft.bytes + r->rings.bytes + r->lights.bytes + r->papi.bytes + r->rain.bytes + r->psx.target_bytes +
                  r->psx.quad_bytes + r->hud.bytes;
    s.uploads_total = ts.uploads_total;
    s.dropped_no_slot = ts.dropped_no_slot;
    s.low_w = r->low_w;
    s.low_h = r->low_h;
    s.sky_highp = r->sky.highp;
    s.driver_ms = (double)(r->driver_ns_frame + r->driver_ns_upload) / 1e6;
    s.gpu_buffers = ts.vbo_count;
    s.mesh_swaps = ts.mesh_swaps;
    s.hud_quads = r->hud.last_quads;
    s.hud_dropped = r->hud.last_dropped;
    for (int k = 0; k <= WORLD_LOD_MAX; k++) {
        s.chunks_visible_lod[k] = r->counters.chunks_visible_lod[k];
        s.triangles_lod[k] = r->counters.triangles_lod[k];
        s.chunks_resident_lod[k] = ts.resident_lod[k];
    }
    for (int k = 0; k < RENDER_STAGE_COUNT; k++) {
        s.stage_draw_calls[k] = r->counters.stage_draw_calls[k];
        s.stage_triangles[k] = r->counters.stage_triangles[k];
    }
    return s;
}

bool render_chunk_info(const Renderer *r, int64_t cx, int64_t cz, RenderChunkInfo *out) {
    return terrain_chunk_info(&r->terrain, cx, cz, out);
}

void render_last_viewproj(const Renderer *r, float out[16]) { memcpy(out, r->viewproj, sizeof r->viewproj); }

uint32_t render_gl_errors(Renderer *r) {
    r->gl_error_count += (uint32_t)gl_errors("query");
    return r->gl_error_count;
}
