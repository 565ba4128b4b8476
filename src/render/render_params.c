/* skyisles renderer settings table: every renderer setting once (live or fixed at creation, range,
 * default; for a player's setting its key, flag, menu label and help), and the defaults from it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

#define LIVE(f) .cls = RENDER_PARAM_LIVE, .offset = offsetof(RenderSettings, live.f)
#define CREATE(f) .cls = RENDER_PARAM_CREATE, .offset = offsetof(RenderSettings, create.f)

#define LOOK_ROW(ctype, field, ...) {LIVE(field), __VA_ARGS__},

/* THE table: the player's look (render.h), then the renderer's own rows. */
static const RenderParamDesc k_params[] = {
    RENDER_LOOK_ROWS(LOOK_ROW)
    /* the renderer's own: no key, flag or menu row */
    {.name = "sky_force_mediump", LIVE(sky_force_mediump), .type = RENDER_PT_BOOL, .max = 1, .def = 0, .step = 1,
     .help = "the dome's mediump path even where highp exists (--sky-mediump)"},
    {.name = "upload_meshes_per_frame", LIVE(upload_meshes_per_frame), .type = RENDER_PT_U32, .min = 1, .max = 4096,
     .def = 4, .step = 1, .help = "chunk meshes uploaded per frame at most"},
    {.name = "upload_bytes_per_frame", LIVE(upload_bytes_per_frame), .type = RENDER_PT_U32, .min = 0, .max = 1u << 30,
     .def = 1u << 20, .step = 1, .help = "vertex bytes uploaded per frame at most (one mesh always goes)"},
    {.name = "merge_gap_quads", LIVE(merge_gap_quads), .type = RENDER_PT_U32, .min = 0, .max = 1u << 20, .def = 192,
     .step = 1, .help = "face runs closer than this many quads drawn with one call"},
    {.name = "max_chunks", CREATE(max_chunks), .type = RENDER_PT_U32, .min = 16, .max = 1u << 20, .def = 1024, .step = 1,
     .help = "GPU chunk slots (render_chunks_for_radius)"},
    {.name = "far_group_lod", CREATE(far_group_lod), .type = RENDER_PT_INT, .min = 0, .max = WORLD_LOD_MAX + 1, .def = 2,
     .step = 1, .help = "chunks at this LOD or coarser drawn from shared 2x2 tiles (past the coarsest: never)"},
    {.name = "far_group_kib", CREATE(far_group_kib), .type = RENDER_PT_U32, .min = 0, .max = 1u << 22, .def = 0, .step = 1,
     .help = "KiB of CPU copies the far tiles are rebuilt from (0: by max_chunks)"},
    {.name = "hud_max_quads", CREATE(hud_max_quads), .type = RENDER_PT_U32, .min = 0, .max = 16383,
     .def = RENDER_HUD_QUADS_DEFAULT, .step = 1, .help = "HUD queue in quads (a glyph is 2 with its shadow)"},
};
#define NPARAMS (sizeof k_params / sizeof k_params[0])

size_t render_param_count(void) { return NPARAMS; }
const RenderParamDesc *render_param_at(size_t i) { return i < NPARAMS ? &k_params[i] : NULL; }

const RenderParamDesc *render_param_find(const char *name) {
    for (size_t i = 0; name && i < NPARAMS; i++)
        if (!strcmp(k_params[i].name, name)) return &k_params[i];
    return NULL;
}

double render_param_get(const RenderSettings *s, const RenderParamDesc *d) {
    const char *at = (const char *)s + d->offset;
    switch (d->type) {
    case RENDER_PT_BOOL: return *(const bool *)at ? 1.0 : 0.0;
    case RENDER_PT_U32: return *(const uint32_t *)at;
    case RENDER_PT_FLOAT: return *(const float *)at;
    default: return *(const int *)at;
    }
}

void render_param_set(RenderSettings *s, const RenderParamDesc *d, double v) {
    if (v != v) return;
    if (!(d->zero_off && v == 0.0)) v = v < d->min ? d->min : (v > d->max ? d->max : v);
    char *at = (char *)s + d->offset;
    switch (d->type) {
    case RENDER_PT_BOOL: *(bool *)at = v != 0.0; break;
    case RENDER_PT_U32: *(uint32_t *)at = (uint32_t)floor(v + 0.5); break;
    case RENDER_PT_FLOAT: *(float *)at = (float)v; break;
    default: *(int *)at = (int)floor(v + 0.5); break;
    }
}

void render_settings_default(RenderSettings *s) {
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < NPARAMS; i++) render_param_set(s, &k_params[i], k_params[i].def);
    const char *tint = getenv("SKYISLES_LOD_TINT");
    s->create.lod_tint = tint && tint[0] == '1';
    const float sky[3] = {0.62f, 0.77f, 0.90f}, zenith[3] = {0.24f, 0.45f, 0.78f}, cloud[3] = {0.97f, 0.97f, 1.0f};
    memcpy(s->live.sky_rgb, sky, sizeof sky);
    memcpy(s->live.zenith_rgb, zenith, sizeof zenith);
    memcpy(s->live.cloud_rgb, cloud, sizeof cloud);
}

uint32_t render_chunks_for_radius(int view_radius) {
    uint32_t side = (uint32_t)(2 * (view_radius < 0 ? 0 : view_radius) + 3);
    return side * side;
}
