/* skyisles world: the solid objects (trees, boulders, cacti, landmarks) as boxes for collision
 * (docs/world-objects.md, "Objects and landmarks"). The placement is props.c's: its candidates
 * (gen_prop_cell), hard core (gen_prop_beats) and landmark rule (gen_prop_near_landmark); the
 * terrain test a chunk asks of its voxels is asked here of THE field by point queries, so the
 * boxes are the boxes the LOD-0 mesher draws (tests/test_home_objects.c compares them). */
#include "world/props_internal.h"
#include "world/stream_internal.h"
#include "world/world_internal.h"

#include <stddef.h>
#include <string.h>

/* Cell columns (4 x 4 blocks) whose corner values a query keeps: a conservative "no rock can be
 * here" per 4 x 8 x 4 cell skips the point queries of open air. */
#define SQ_COLS 32
#define SQ_LAYERS (WORLD_Y_MAX / WORLD_CELL_Y + 1)
#define SQ_CANDS 64

typedef struct SqColumn {
    int64_t X, Z;
    bool used;
    uint32_t have, known, maybe;   /* bit k: corner layer k computed; cell layer k classified, may hold rock */
    GenColumn col[2][2];
    float cd[SQ_LAYERS][2][2], ci[SQ_LAYERS][2][2];
} SqColumn;

typedef struct SqCand {
    int64_t ci, cj;
    bool used;
    PropCand c;   /* alive as the chunk path leaves it (landmark rule applied) */
} SqCand;

typedef struct SolidQuery {
    const WorldGen *g;
    const World *w;             /* a probe's world: each query reads its cell's snapshot */
    int64_t cell_x, cell_z;     /* the cell of the snapshot g */
    SqColumn col[SQ_COLS];
    SqCand cand[SQ_CANDS];
} SolidQuery;

static SqColumn *sq_column(SolidQuery *q, int64_t X, int64_t Z) {
    uint32_t h = ((uint32_t)(X >> 2) * 0x9e3779b1u ^ (uint32_t)(Z >> 2) * 0x85ebca77u) >> 27;
    SqColumn *c = &q->col[h % SQ_COLS];
    if (c->used && c->X == X && c->Z == Z) return c;
    c->used = true;
    c->X = X;
    c->Z = Z;
    c->have = c->known = c->maybe = 0;
    for (int zi = 0; zi < 2; zi++)
        for (int xi = 0; xi < 2; xi++) gen_column_point(q->g, X + xi * WORLD_CELL_XZ, Z + zi * WORLD_CELL_XZ, &c->col[zi][xi]);
    return c;
}

/* The corner values of layer k as the point query computes them (same calls, same inputs). */
static void sq_corner_layer(const WorldGen *g, SqColumn *c, int k) {
    if (c->have & (1u << k)) return;
    int32_t Y = WORLD_Y_MIN + k * WORLD_CELL_Y;
    for (int zi = 0; zi < 2; zi++)
        for (int xi = 0; xi < 2; xi++) {
            int64_t X = c->X + xi * WORLD_CELL_XZ, Z = c->Z + zi * WORLD_CELL_XZ;
            float n3 = noise_fbm3_w(g->s_n3, &g->fb_n3, noise_wide_mul_int(g->f_n3, X), noise_wide_mul_int(g->f_n3y, Y),
                                    noise_wide_mul_int(g->f_n3, Z));
            gen_corner_dense(g, &c->col[zi][xi], (float)Y, n3, &c->cd[k][zi][xi], &c->ci[k][zi][xi]);
        }
    c->have |= 1u << k;
}

/* May cell layer k hold rock? The terrain is max(D + lift(y), I) with D and I trilinear in the
 * corners (so within their range, up to rounding: the margin) and lift falling with y; caves
 * only carve. False only when no block of the cell can be solid. */
static bool sq_cell_maybe(const WorldGen *g, SqColumn *c, int k) {
    if (c->known & (1u << k)) return (c->maybe >> k) & 1u;
    sq_corner_layer(g, c, k);
    sq_corner_layer(g, c, k + 1);
    float md = c->cd[k][0][0], mi = c->ci[k][0][0];
    bool odd = false;
    for (int l = k; l <= k + 1; l++)
        for (int zi = 0; zi < 2; zi++)
            for (int xi = 0; xi < 2; xi++) {
                float d = c->cd[l][zi][xi], i = c->ci[l][zi][xi];
                odd |= d != d || i != i;
                if (d > md) md = d;
                if (i > mi) mi = i;
            }
    const float m = WG_MARGIN;
    float lift = gen_lift(g, (float)(WORLD_Y_MIN + k * WORLD_CELL_Y) + 0.5f);
    bool maybe = odd || !(md + lift < -m && mi < -m);
    c->known |= 1u << k;
    if (maybe) c->maybe |= 1u << k;
    return maybe;
}

/* The field at block (x, y, z)'s centre in cell layer k of column c, from the corners
 * sq_cell_maybe has just computed (the point query's, without their noise again). */
static float sq_density(const WorldGen *g, const SqColumn *c, int k, int64_t x, int32_t y, int64_t z) {
    return gen_density_in_cell(g, &c->cd[k], &c->ci[k], NULL, (double)x + 0.5,
                               (double)y + 0.5, (double)z + 0.5);
}

/* Block (x, y, z) as the chunk voxels have it: solid below WORLD_Y_MIN, air from the generated top. */
static bool sq_solid(SolidQuery *q, int64_t x, int32_t y, int64_t z) {
    if (y < WORLD_Y_MIN) return true;
    if (y >= q->g->y_top) return false;
    SqColumn *c = sq_column(q, floor_div64(x, WORLD_CELL_XZ) * WORLD_CELL_XZ, floor_div64(z, WORLD_CELL_XZ) * WORLD_CELL_XZ);
    int k = (y - WORLD_Y_MIN) / WORLD_CELL_Y;
    if (!sq_cell_maybe(q->g, c, k)) return false;
    return sq_density(q->g, c, k, x, y, z) > 0.0f;
}

#define SQ_NONE INT32_MIN

/* The highest solid block of column (x, z) within [lo, hi] (clipped to the generated range), or SQ_NONE. */
static int32_t sq_top_in(SolidQuery *q, int64_t x, int64_t z, int32_t lo, int32_t hi) {
    if (hi >= q->g->y_top) hi = q->g->y_top - 1;
    if (lo < WORLD_Y_MIN) lo = WORLD_Y_MIN;
    SqColumn *c = sq_column(q, floor_div64(x, WORLD_CELL_XZ) * WORLD_CELL_XZ, floor_div64(z, WORLD_CELL_XZ) * WORLD_CELL_XZ);
    for (int32_t y = hi; y >= lo;) {
        int k = (y - WORLD_Y_MIN) / WORLD_CELL_Y;
        if (!sq_cell_maybe(q->g, c, k)) {
            y = WORLD_Y_MIN + k * WORLD_CELL_Y - 1;
            continue;
        }
        if (sq_density(q->g, c, k, x, y, z) > 0.0f) return y;
        y--;
    }
    return SQ_NONE;
}

/* ---------------------------------------------------------------- objects */
/* The objects one collides with: those reaching 3 blocks or more (trees, boulders, cacti); the
 * lower ones (flowers, reeds, bushes, small rocks) are brush an aircraft flies through. */
#define SOLID_MIN_HEIGHT 3

static int shape_top(const PropShape *sh) {
    int t = 0;
    for (int b = 0; b < sh->nbox; b++)
        if (sh->box[b].y1 > t) t = sh->box[b].y1;
    return t;
}

/* Candidate of cell (ci, cj) as the chunk path leaves it: landmark rule applied. */
static const PropCand *sq_cand(SolidQuery *q, int64_t ci, int64_t cj) {
    uint32_t h = ((uint32_t)ci * 0x9e3779b1u ^ (uint32_t)cj * 0x85ebca77u) >> 26;
    SqCand *e = &q->cand[h % SQ_CANDS];
    if (e->used && e->ci == ci && e->cj == cj) return &e->c;
    e->used = true;
    e->ci = ci;
    e->cj = cj;
    gen_prop_cell(q->g, ci, cj, &e->c);
    if (e->c.alive && q->g->isl.n_marks) {
        int32_t all[ISLAND_FIELD_MAX_SITES];
        for (uint32_t i = 0; i < q->g->isl.n_marks; i++) all[i] = (int32_t)i;
        if (gen_prop_near_landmark(q->g, all, (int)q->g->isl.n_marks, e->c.bx, e->c.bz, e->c.r)) e->c.alive = 0;
    }
    return &e->c;
}

/* props.c's hard core: a neighbour whose footprint meets c's and whose key wins takes it. Cells
 * two apart hold bases at least 2 * PROP_CELL - (PROP_CELL - 1) = 5 blocks apart, more than two
 * footprints reach (2 * PROP_R_MAX), so the ring of eight neighbours decides. */
_Static_assert(2 * PROP_R_MAX < PROP_CELL + 1, "the hard core's neighbour ring");
static bool sq_beaten(SolidQuery *q, int64_t ci, int64_t cj, const PropCand *c) {
    PropCand me = *c;
    for (int dj = -1; dj <= 1; dj++)
        for (int di = -1; di <= 1; di++) {
            if (!di && !dj) continue;
            const PropCand *o = sq_cand(q, ci + di, cj + dj);
            if (!o->alive) continue;
            if (gen_prop_takes(o, &me)) return true;
        }
    return false;
}

/* props.c's terrain rule at LOD 0 (gen_prop_fits) asked of the field. */
static bool sq_fit_solid(void *ctx, int64_t x, int32_t y, int64_t z) { return sq_solid(ctx, x, y, z); }
static bool sq_fits(SolidQuery *q, const PropShape *sh, int64_t bx, int32_t by, int64_t bz) {
    return gen_prop_fits(sh, sh->nbox, bx, by, bz, q->g->y_top, sq_fit_solid, q);
}

typedef struct SqOut {
    int64_t x0, y0, z0, x1, y1, z1;   /* the query, inclusive blocks (y clipped near the world's range) */
    WorldBox *out;
    uint32_t max, n;
} SqOut;

static bool box_meets(const SqOut *o, int64_t x0, int64_t y0, int64_t z0, int64_t x1, int64_t y1, int64_t z1) {
    return x0 <= o->x1 && x1 > o->x0 && y0 <= o->y1 && y1 > o->y0 && z0 <= o->z1 && z1 > o->z0;
}

/* The boxes of a shape standing at base (bx, by, bz) that meet the query (sink: how far boxes at
 * the ground reach into it, as the mesher draws them). */
static bool emit_shape(SqOut *o, const PropShape *sh, int64_t bx, int32_t by, int64_t bz, int sink, bool test_only) {
    bool any = false;
    for (int b = 0; b < sh->nbox; b++) {
        const ShapeBox *bb = &sh->box[b];
        int32_t y0 = by + bb->y0 - (bb->y0 == 0 ? sink : 0);
        int64_t x0 = bx + bb->x0, x1 = bx + bb->x1, z0 = bz + bb->z0, z1 = bz + bb->z1;
        int32_t y1 = by + bb->y1;
        if (!box_meets(o, x0, y0, z0, x1, y1, z1)) continue;
        any = true;
        if (test_only) return true;
        if (o->n < o->max) o->out[o->n] = (WorldBox){x0, y0, z0, x1, y1, z1};
        o->n++;
    }
    return any;
}

static void sq_landmarks(SolidQuery *q, SqOut *o) {
    const WorldGen *g = q->g;
    for (uint32_t i = 0; i < g->isl.n_marks; i++) {
        const GenLandmark *m = &g->isl.marks[i];
        if (m->bx + PROP_LANDMARK_R < o->x0 || m->bx - PROP_LANDMARK_R > o->x1 || m->bz + PROP_LANDMARK_R < o->z0 ||
            m->bz - PROP_LANDMARK_R > o->z1)
            continue;
        int32_t gy = sq_top_in(q, m->bx, m->bz, WORLD_Y_MIN, g->y_top - 1);
        if (gy == SQ_NONE) continue;
        emit_shape(o, &prop_landmarks[m->shape], m->bx, gy + 1, m->bz, PROP_SINK, false);
    }
}

static void sq_object(SolidQuery *q, SqOut *o, int64_t ci, int64_t cj, const PropCand *c) {
    const WorldGen *g = q->g;
    const PropShape *sh = &prop_objects[c->shape];
    int top = shape_top(sh);
    if (top < SOLID_MIN_HEIGHT) return;
    /* Only a ground in [y0 - top, y1 - 1] puts a box into the query's heights. */
    int32_t lo = (int32_t)o->y0 - top, hi = (int32_t)o->y1 - 1;   /* y clipped by sq_objects */
    if (lo < 0) lo = 0;
    int32_t gy = sq_top_in(q, c->bx, c->bz, lo, hi);
    if (gy == SQ_NONE || (float)gy < g->p.bedrock_level + 1.0f) return;
    if (!emit_shape(o, sh, c->bx, gy + 1, c->bz, 0, true)) return;
    if (sq_beaten(q, ci, cj, c)) return;
    /* The ground is the column's highest solid block: nothing solid above the window. */
    if (hi + 1 < g->y_top && sq_top_in(q, c->bx, c->bz, hi + 1, g->y_top - 1) != SQ_NONE) return;
    if (!sq_fits(q, sh, c->bx, gy + 1, c->bz)) return;
    emit_shape(o, sh, c->bx, gy + 1, c->bz, 0, false);
}

static void sq_init(SolidQuery *q, const WorldGen *g) {
    q->g = g;
    q->w = NULL;
    for (int i = 0; i < SQ_COLS; i++) q->col[i].used = false;
    for (int i = 0; i < SQ_CANDS; i++) q->cand[i].used = false;
}

static uint32_t sq_objects(SolidQuery *qp, int64_t x0, int64_t y0, int64_t z0, int64_t x1, int64_t y1, int64_t z1,
                           WorldBox *out, uint32_t max) {
    const WorldGen *g = qp->g;
    if (x1 < x0 || y1 < y0 || z1 < z0 || y1 < WORLD_Y_MIN - PROP_SINK || y0 >= g->y_top + WORLD_HOME_HEADROOM) return 0;
    /* Every box lies in [WORLD_Y_MIN - PROP_SINK, y_top + WORLD_HOME_HEADROOM): clipping the
     * query's heights to a little beyond keeps the same boxes, and y in int32 */
    if (y0 < WORLD_Y_MIN - PROP_SINK - 1) y0 = WORLD_Y_MIN - PROP_SINK - 1;
    if (y1 > g->y_top + 2 * (int64_t)WORLD_HOME_HEADROOM) y1 = g->y_top + 2 * (int64_t)WORLD_HOME_HEADROOM;
    SqOut o = {x0, y0, z0, x1, y1, z1, out, max, 0};
#define q (*qp)
    sq_landmarks(&q, &o);
    if (!(g->p.prop_density > 0.0f)) return o.n;
    /* Candidates whose footprint (|x|, |z| <= PROP_R_MAX round the base) can meet the columns. */
    int64_t ci0 = floor_div64(x0 - PROP_R_MAX, PROP_CELL), ci1 = floor_div64(x1 + PROP_R_MAX, PROP_CELL);
    int64_t cj0 = floor_div64(z0 - PROP_R_MAX, PROP_CELL), cj1 = floor_div64(z1 + PROP_R_MAX, PROP_CELL);
    for (int64_t cj = cj0; cj <= cj1; cj++)
        for (int64_t ci = ci0; ci <= ci1; ci++) {
            const PropCand *c = sq_cand(&q, ci, cj);
            if (!c->alive) continue;
            PropCand cc = *c;
            if (cc.bx + cc.r < x0 || cc.bx - cc.r > x1 || cc.bz + cc.r < z0 || cc.bz - cc.r > z1) continue;
            sq_object(&q, &o, ci, cj, &cc);
        }
#undef q
    return o.n;
}

uint32_t gen_solid_objects(const WorldGen *g, int64_t x0, int64_t y0, int64_t z0, int64_t x1, int64_t y1, int64_t z1,
                           WorldBox *out, uint32_t max) {
    SolidQuery q;
    sq_init(&q, g);
    return sq_objects(&q, x0, y0, z0, x1, y1, z1, out, max);
}

uint32_t world_solid_objects(const World *w, int64_t x0, int64_t y0, int64_t z0, int64_t x1, int64_t y1, int64_t z1,
                             WorldBox *out, uint32_t max) {
    return gen_solid_objects(isl_gen_at((World *)w, x0 / 2 + x1 / 2, z0 / 2 + z1 / 2), x0, y0, z0, x1, y1, z1, out, max);
}

/* ---------------------------------------------------------------- probes */
_Static_assert(sizeof(SolidQuery) <= WORLD_PROBE_BYTES, "WORLD_PROBE_BYTES in world.h");
_Static_assert(_Alignof(SolidQuery) <= _Alignof(max_align_t), "WorldProbe's alignment");

void world_probe_init(WorldProbe *p, const World *w) {
    SolidQuery *q = (SolidQuery *)(void *)p->opaque;
    sq_init(q, &w->gens[w->cur_gen]);
    q->w = w;
    q->cell_x = q->cell_z = 0;
}

/* A probe's query at block column (bx, bz) reads that column's cell's snapshot: the caches start
 * again when it differs from the last one's. */
static SolidQuery *probe_at(WorldProbe *p, int64_t bx, int64_t bz) {
    SolidQuery *q = (SolidQuery *)(void *)p->opaque;
    if (!q->w || !world_coord_usable((double)bx, (double)bz)) return q;
    const World *w = q->w;
    int64_t cx = w->isrc.cell_m > 0 ? isl_cell_of(w, bx) : 0, cz = w->isrc.cell_m > 0 ? isl_cell_of(w, bz) : 0;
    const WorldGen *g = isl_gen_at((World *)w, bx, bz);
    if (g != q->g || cx != q->cell_x || cz != q->cell_z) {
        sq_init(q, g);
        q->w = w;
        q->cell_x = cx;
        q->cell_z = cz;
    }
    return q;
}

bool world_probe_solid(WorldProbe *p, int64_t bx, int64_t by, int64_t bz) {
    SolidQuery *q = probe_at(p, bx, bz);
    const double x = (double)bx + 0.5, y = (double)by + 0.5, z = (double)bz + 0.5;
    /* The cell bounds cover the generated heights of the whole world (WORLD_COORD_LIMIT); above,
     * below and beyond it the point query alone. */
    if (by < WORLD_Y_MIN || by >= q->g->y_top || !world_coord_usable(x, z)) return gen_density_point(q->g, x, y, z) > 0.0f;
    return sq_solid(q, bx, (int32_t)by, bz);
}

uint32_t world_probe_objects(WorldProbe *p, int64_t x0, int64_t y0, int64_t z0, int64_t x1, int64_t y1, int64_t z1,
                             WorldBox *out, uint32_t max) {
    return sq_objects(probe_at(p, x0 / 2 + x1 / 2, z0 / 2 + z1 / 2), x0, y0, z0, x1, y1, z1, out, max);
}
