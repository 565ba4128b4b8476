/* skyisles approach lights: a PAPI at each end of every airstrip, four lights in a row beside the
 * aim point that each show white when the eye is above its transition angle and red below (as
 * real PAPI lights: on a 3-degree glide path two white and two red, the red nearest the strip).
 * Cheap PSX quads through the aircraft's program, turned to the camera and grown with distance so
 * they read from far out; rebuilt each frame (a few hundred vertices) since their colours follow
 * the eye. */
#include <math.h>
#include <string.h>

#include "aircraft_uniforms.h"
#include "render_internal.h"

#define PAPI_AIM_M 40.0f      /* past the threshold: where a 3-degree path from 2 m over it meets the strip */
#define PAPI_SIDE_M 4.0f      /* the first light this far out from the strip's edge (left of the landing) */
#define PAPI_GAP_M 3.0f       /* between lights */
#define PAPI_HALF_M 0.75f     /* a light's half size close up ... */
#define PAPI_PIXELS 3.0f      /* ... and never under this many target pixels across, far off */
#define PAPI_UNIT 16.0f       /* vertex units per metre: +-2 km around the first strip */
#define PAPI_RANGE_M 1200.0   /* the camera's far plane (render.c): nothing past it is drawn */

/* Transition angles (tangents) from the light nearest the strip out: 3 deg 30', 3 deg 10',
 * 2 deg 50', 2 deg 30' (the real system's, around a 3-degree path). */
static const float PAPI_TAN[RENDER_PAPI_LIGHTS] = {0.0611626f, 0.0553251f, 0.0494948f, 0.0436609f};
static const uint8_t PAPI_WHITE[3] = {255, 250, 235}, PAPI_RED[3] = {235, 30, 25};

bool papi_init(PapiLayer *g, const AircraftModel *a, SkyError *err) {
    memset(g, 0, sizeof *g);
    g->prog = a->prog;   /* the aircraft's program: the same snap and fog, nothing compiled twice */
    g->u = a->u;
    glGenBuffers(1, &g->vbo);
    if (!g->vbo) {
        sky_error_set(err, SKY_ERR_START, "render: no GL buffer for the approach lights");
        return false;
    }
    glBindBuffer(GL_ARRAY_BUFFER, g->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)sizeof g->verts, NULL, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    g->bytes = (uint32_t)sizeof g->verts;
    return true;
}

void papi_free(PapiLayer *g) {
    if (g->vbo) glDeleteBuffers(1, &g->vbo);
    memset(g, 0, sizeof *g);
}

void papi_set(PapiLayer *g, const WorldStrip *strips, uint32_t n) {
    g->count = n > RENDER_STRIPS_MAX ? RENDER_STRIPS_MAX : n;
    if (g->count) memcpy(g->strips, strips, g->count * sizeof *strips);
}

void render_papi_light(const WorldStrip *s, int end, int light, double out[3]) {
    /* Landing from end a runs along dir; from end b against it. The row stands on the left. */
    double fx = end ? -s->dir_x : s->dir_x, fz = end ? -s->dir_z : s->dir_z;
    double tx = end ? s->bx : s->ax, tz = end ? s->bz : s->az;
    double lx = fz, lz = -fx;   /* left of the landing direction, seen from above with +y up */
    double side = 0.5 * s->width_m + PAPI_SIDE_M + PAPI_GAP_M * light;
    out[0] = tx + fx * PAPI_AIM_M + lx * side;
    out[1] = s->y + PAPI_HALF_M;
    out[2] = tz + fz * PAPI_AIM_M + lz * side;
}

int render_papi_white(const WorldStrip *s, int end, int light, double ex, double ey, double ez) {
    double p[3];
    render_papi_light(s, end, light, p);
    double dx = ex - p[0], dz = ez - p[2], d = sqrt(dx * dx + dz * dz);
    double fx = end ? -s->dir_x : s->dir_x, fz = end ? -s->dir_z : s->dir_z;
    if (dx * fx + dz * fz >= 0.0) return -1;   /* behind the lights: their beams face the approach */
    return ey - p[1] > d * PAPI_TAN[light] ? 1 : 0;
}

/* One light's quad (two triangles), turned to the eye about the vertical, relative to origin. */
static void light_quad(ModelVertex *o, const double p[3], const double origin[3], const float eye[3], float half,
                       const uint8_t col[3]) {
    float cx = (float)(p[0] - origin[0]), cy = (float)(p[1] - origin[1]), cz = (float)(p[2] - origin[2]);
    float vx = eye[0] - cx, vz = eye[2] - cz, l = sqrtf(vx * vx + vz * vz);
    /* the eye's right (counter-clockwise as it sees the quad: the front the aircraft's culling keeps) */
    float rx = l > 0.0f ? vz / l : 1.0f, rz = l > 0.0f ? -vx / l : 0.0f;
    const float c[4][2] = {{-1.0f, -1.0f}, {1.0f, -1.0f}, {1.0f, 1.0f}, {-1.0f, 1.0f}};
    static const int tri[6] = {0, 1, 2, 0, 2, 3};
    for (int t = 0; t < 6; t++) {
        const float *k = c[tri[t]];
        ModelVertex *v = &o[t];
        v->x = (int16_t)lrintf((cx + rx * half * k[0]) * PAPI_UNIT);
        v->y = (int16_t)lrintf((cy + half * k[1]) * PAPI_UNIT);
        v->z = (int16_t)lrintf((cz + rz * half * k[0]) * PAPI_UNIT);
        v->part = 0;
        v->nx = 0, v->ny = 127, v->nz = 0;   /* lit straight on (the light straight down): full colour */
        v->pad = 0;
        v->r = col[0], v->g = col[1], v->b = col[2], v->a = 255;
    }
}

void papi_draw(PapiLayer *g, const RenderFrame *f, RenderCounters *rc) {
    if (!g->count) return;
    const RenderView *v = f->view;
    const double origin[3] = {g->strips[0].ax, g->strips[0].y, g->strips[0].az};
    const float eye[3] = {(float)(v->cam_x - origin[0]), (float)(v->cam_y - origin[1]), (float)(v->cam_z - origin[2])};
    /* Metres per target pixel at one metre away: the quads keep PAPI_PIXELS across at any range. */
    float px = 2.0f * tanf(0.5f * f->settings->live.fov_y_deg * 0.0174532925f) / (float)(f->target_h > 0 ? f->target_h : 1);
    uint32_t n = 0;
    for (uint32_t k = 0; k < g->count; k++)
        for (int end = 0; end < 2; end++)
            for (int i = 0; i < RENDER_PAPI_LIGHTS; i++) {
                int white = render_papi_white(&g->strips[k], end, i, v->cam_x, v->cam_y, v->cam_z);
                if (white < 0) continue;
                double p[3];
                render_papi_light(&g->strips[k], end, i, p);
                double dx = v->cam_x - p[0], dy = v->cam_y - p[1], dz = v->cam_z - p[2];
                double dist = sqrt(dx * dx + dy * dy + dz * dz);
                if (!(dist < PAPI_RANGE_M)) continue;
                float half = 0.5f * PAPI_PIXELS * px * (float)dist;
                light_quad(&g->verts[n], p, origin, eye, half > PAPI_HALF_M ? half : PAPI_HALF_M,
                           white ? PAPI_WHITE : PAPI_RED);
                n += 6;
            }
    g->drawn = n / 6;
    if (!n) return;
    glBindBuffer(GL_ARRAY_BUFFER, g->vbo);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(n * sizeof(ModelVertex)), g->verts);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    float model[16];
    model_matrix_at(model, 1.0f / PAPI_UNIT * 256.0f, origin, v);
    /* Lamps, not lit faces: full colour at any hour (a light straight down on their upward normals). */
    PsxParams look = f->psx;
    psx_fixed_light(&look, (const float[3]){0.0f, 1.0f, 0.0f}, 1.0f, 0.0f);
    aircraft_marker_use(&g->prog, &g->u, &look, f->viewproj, model);
    model_draw_arrays(g->vbo, 0, (GLsizei)n, rc);
}
