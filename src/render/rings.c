/* skyisles rings: a course's rings as low-poly PSX-style hoops (a square tube bent round in
 * RING_SEGMENTS pieces, flat shaded), every ring of the course in one vertex buffer drawn with
 * one call through the aircraft's program (the same snap, fog and dither), rings already passed
 * left out, the next one in its own colour, pulsing. Also the HUD's arrow toward it. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "aircraft_uniforms.h"
#include "render_internal.h"

#define RING_SEGMENTS 12
#define RING_SIDES 4
#define RING_VERTS (RING_SEGMENTS * RING_SIDES * 6)
#define RING_UNIT 16.0f                  /* vertex units per metre: +-2 km around the course origin */
#define RING_TUBE 0.8f                   /* half the tube's thickness, metres */

static const uint8_t COL_RING[3] = {70, 150, 230};
static const uint8_t COL_NEXT[3] = {255, 200, 40};

bool rings_init(RingsLayer *g, const AircraftModel *a, SkyError *err) {
    memset(g, 0, sizeof *g);
    /* The aircraft's program, shared: the same look, nothing compiled twice (the aircraft owns it). */
    g->prog = a->prog;
    g->u = a->u;
    glGenBuffers(1, &g->vbo);
    if (!g->vbo) {
        sky_error_set(err, SKY_ERR_START, "render: no GL buffer for the course rings");
        return false;
    }
    return true;
}

void rings_free(RingsLayer *g) {
    if (g->vbo) glDeleteBuffers(1, &g->vbo);
    memset(g, 0, sizeof *g);
}

/* Two unit vectors across the ring's plane. */
static void ring_axes(const RenderRing *r, float u[3], float v[3]) {
    float n[3] = {r->nx, r->ny, r->nz}, a[3] = {0.0f, 1.0f, 0.0f};
    if (fabsf(n[1]) > 0.9f) a[0] = 1.0f, a[1] = 0.0f;
    u[0] = n[1] * a[2] - n[2] * a[1];
    u[1] = n[2] * a[0] - n[0] * a[2];
    u[2] = n[0] * a[1] - n[1] * a[0];
    float l = sqrtf(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int i = 0; i < 3; i++) u[i] /= l;
    v[0] = n[1] * u[2] - n[2] * u[1];
    v[1] = n[2] * u[0] - n[0] * u[2];
    v[2] = n[0] * u[1] - n[1] * u[0];
}

static void put_vertex(ModelVertex *o, const float p[3], const float n[3], const uint8_t col[3]) {
    o->x = (int16_t)lrintf(p[0] * RING_UNIT);
    o->y = (int16_t)lrintf(p[1] * RING_UNIT);
    o->z = (int16_t)lrintf(p[2] * RING_UNIT);
    o->part = 0;
    o->nx = (int8_t)lrintf(n[0] * 127.0f);
    o->ny = (int8_t)lrintf(n[1] * 127.0f);
    o->nz = (int8_t)lrintf(n[2] * 127.0f);
    o->pad = 0;
    o->r = col[0], o->g = col[1], o->b = col[2], o->a = 255;
}

/* A point of the tube: around the ring at angle a, around the tube at corner k (0..3). */
static void tube_point(const float c[3], const float u[3], const float v[3], const float n[3], float radius, float a,
                       int k, float out[3]) {
    static const float side[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};   /* (radial, axial) */
    float ca = cosf(a), sa = sinf(a);
    float rad = radius + RING_TUBE + side[k & 3][0] * RING_TUBE, ax = side[k & 3][1] * RING_TUBE;
    for (int i = 0; i < 3; i++) out[i] = c[i] + (u[i] * ca + v[i] * sa) * rad + n[i] * ax;
}

/* One ring's RING_VERTS vertices, relative to the course origin; faces wound to face outward. */
static void build_ring(const RenderRing *r, const double origin[3], const uint8_t col[3], ModelVertex *out) {
    float u[3], v[3], n[3] = {r->nx, r->ny, r->nz};
    ring_axes(r, u, v);
    float c[3] = {(float)(r->x - origin[0]), (float)(r->y - origin[1]), (float)(r->z - origin[2])};
    float tube_mid = r->radius + RING_TUBE;
    uint32_t k = 0;
    for (int s = 0; s < RING_SEGMENTS; s++) {
        float a0 = 6.2831853f * (float)s / RING_SEGMENTS, a1 = 6.2831853f * (float)(s + 1) / RING_SEGMENTS;
        for (int e = 0; e < RING_SIDES; e++) {
            float q[4][3];
            tube_point(c, u, v, n, r->radius, a0, e, q[0]);
            tube_point(c, u, v, n, r->radius, a1, e, q[1]);
            tube_point(c, u, v, n, r->radius, a1, e + 1, q[2]);
            tube_point(c, u, v, n, r->radius, a0, e + 1, q[3]);
            float mid[3], out_dir[3], fn[3];
            for (int i = 0; i < 3; i++) mid[i] = 0.25f * (q[0][i] + q[1][i] + q[2][i] + q[3][i]);
            float am = 0.5f * (a0 + a1), cm = cosf(am), sm = sinf(am);
            for (int i = 0; i < 3; i++) out_dir[i] = mid[i] - (c[i] + (u[i] * cm + v[i] * sm) * tube_mid);
            float e1[3] = {q[1][0] - q[0][0], q[1][1] - q[0][1], q[1][2] - q[0][2]};
            float e2[3] = {q[2][0] - q[0][0], q[2][1] - q[0][1], q[2][2] - q[0][2]};
            fn[0] = e1[1] * e2[2] - e1[2] * e2[1];
            fn[1] = e1[2] * e2[0] - e1[0] * e2[2];
            fn[2] = e1[0] * e2[1] - e1[1] * e2[0];
            bool flip = fn[0] * out_dir[0] + fn[1] * out_dir[1] + fn[2] * out_dir[2] < 0.0f;
            float l = sqrtf(fn[0] * fn[0] + fn[1] * fn[1] + fn[2] * fn[2]);
            for (int i = 0; i < 3; i++) fn[i] = (flip ? -fn[i] : fn[i]) / (l > 0.0f ? l : 1.0f);
            static const int tri[6] = {0, 1, 2, 0, 2, 3}, tri_flip[6] = {0, 2, 1, 0, 3, 2};
            for (int t = 0; t < 6; t++) put_vertex(&out[k++], q[flip ? tri_flip[t] : tri[t]], fn, col);
        }
    }
}

void rings_set(RingsLayer *g, const RenderRing *rings, uint32_t n) {
    if (n > RENDER_RINGS_MAX) n = RENDER_RINGS_MAX;
    g->count = n;
    g->next = 0;
    g->marked = UINT32_MAX;
    if (n == 0) return;
    memcpy(g->rings, rings, n * sizeof *rings);
    g->origin[0] = rings[0].x, g->origin[1] = rings[0].y, g->origin[2] = rings[0].z;
    glBindBuffer(GL_ARRAY_BUFFER, g->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)n * RING_VERTS * sizeof(ModelVertex)), NULL, GL_DYNAMIC_DRAW);
    for (uint32_t i = 0; i < n; i++) {
        ModelVertex one[RING_VERTS];
        build_ring(&rings[i], g->origin, COL_RING, one);
        glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)((size_t)i * sizeof one), sizeof one, one);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    g->bytes = n * RING_VERTS * (uint32_t)sizeof(ModelVertex);
}

/* The next ring's colour, brightened by the pulse (0..1): only that ring's vertices are sent. */
static void mark_next(RingsLayer *g) {
    uint8_t col[3];
    float k = 0.7f + 0.3f * g->pulse;
    for (int i = 0; i < 3; i++) col[i] = (uint8_t)lrintf((float)COL_NEXT[i] * k);
    ModelVertex one[RING_VERTS];
    build_ring(&g->rings[g->next], g->origin, col, one);
    glBindBuffer(GL_ARRAY_BUFFER, g->vbo);
    glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)((size_t)g->next * sizeof one), sizeof one, one);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    g->marked = g->next;
}

void rings_next(RingsLayer *g, uint32_t next, float pulse) {
    g->next = next;
    g->pulse = pulse < 0.0f ? 0.0f : (pulse > 1.0f ? 1.0f : pulse);
}

void rings_draw(RingsLayer *g, const RenderFrame *f, RenderCounters *rc) {
    if (g->next >= g->count) return;
    mark_next(g);
    const RenderView *v = f->view;
    /* Vertex units to camera-relative metres. */
    float model[16];
    model_matrix_at(model, 1.0f / RING_UNIT * 256.0f, g->origin, v);
    /* Rings are markers, not part of the scene: the same light whatever the hour. */
    PsxParams look = f->psx;
    psx_fixed_light(&look, (const float[3]){0.38f, 0.85f, 0.36f}, 0.55f, 0.45f);
    aircraft_marker_use(&g->prog, &g->u, &look, f->viewproj, model);
    model_draw_arrays(g->vbo, (GLint)(g->next * RING_VERTS), (GLsizei)((g->count - g->next) * RING_VERTS), rc);
}

void rings_hud_arrow(HudLayer *h, float x, float y, float size, float angle, uint32_t rgba) {
    /* A dart pointing at `angle` (0 up the screen, + clockwise): tip, right barb, notch, left barb. */
    static const float shape[4][2] = {{0.0f, -1.0f}, {0.7f, 0.8f}, {0.0f, 0.35f}, {-0.7f, 0.8f}};
    float c = cosf(angle), s = sinf(angle), xy[4][2];
    for (int i = 0; i < 4; i++) {
        xy[i][0] = x + (shape[i][0] * c - shape[i][1] * s) * size;
        xy[i][1] = y + (shape[i][0] * s + shape[i][1] * c) * size;
    }
    hud_quad(h, xy, rgba);
}
