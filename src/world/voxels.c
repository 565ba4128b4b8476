/* skyisles world: chunk voxelisation at every LOD (the fill): voxels interpolated from the corner
 * grid (corners.c) exactly as gen_density_point, four samples per vector, whole layers settled
 * from bounds, into bit rows with apron (columns.c then takes the column tops and colours);
 * single-block samples. */
#include "world/world_internal.h"

#include <string.h>

#include "noise/simd.h"

/* A loop over a cell's z samples (at most WORLD_CELL_XZ): unrolled, so the whole-row copies run
 * without a counter and with their shifts and offsets constant. */
#if defined(__GNUC__) && !defined(__clang__)
#define UNROLL_Z _Pragma("GCC unroll 4")
#else
#define UNROLL_Z
#endif

static const float k_txz[WORLD_CELL_XZ] = {0.125f, 0.375f, 0.625f, 0.875f};
static const float k_ty[WORLD_CELL_Y] = {0.0625f, 0.1875f, 0.3125f, 0.4375f, 0.5625f, 0.6875f, 0.8125f, 0.9375f};

/* ---------------------------------------------------------------- voxel fill, every LOD */
/* The samples of one axis at a LOD: coarse index i samples block s*i + s/2, which lies in
 * corner cell c at offset o; per cell the indices in order and their interpolation weights. */
typedef struct AxisSamples {
    int16_t first[WG_NY], count[WG_NY];   /* per corner cell */
    int16_t idx[WV_H];                    /* coarse index */
    float t[WV_H];                        /* weight inside the cell */
} AxisSamples;

/* Coarse indices lo..hi; block b = s*i + off lies at b + base from the first corner, cells of
 * 2^cell_log blocks, weights w[offset]. */
static void axis_samples(int lo, int hi, int lod, int base, int cell_log, const float *w, AxisSamples *a) {
    memset(a->count, 0, sizeof a->count);
    int k = 0;
    for (int i = lo; i <= hi; i++) {
        int b = i * WORLD_LOD_SCALE(lod) + WORLD_LOD_OFFSET(lod) + base;
        int cell = b >> cell_log;
        if (a->count[cell] == 0) a->first[cell] = (int16_t)k;
        a->count[cell]++;
        a->idx[k] = (int16_t)i;
        a->t[k] = w[b & ((1 << cell_log) - 1)];
        k++;
    }
}

/* One field of a cell: its four corner columns (lanes z0x0, z0x1, z1x0, z1x1) at the bottom
 * corner layer and their rise to the top one (b - a of wlerp: the same for every sample layer). */
typedef struct CellField {
    f32x4 c0, dc;
} CellField;

static inline void field_gather(const ChunkScratch *s, int f, int yi, int zi, int xi, CellField *cf) {
    const float *lo0 = &s->corner[f][yi][zi][xi], *lo1 = &s->corner[f][yi][zi + 1][xi];
    const float *hi0 = &s->corner[f][yi + 1][zi][xi], *hi1 = &s->corner[f][yi + 1][zi + 1][xi];
    cf->c0 = f32x4_set4(lo0[0], lo0[1], lo1[0], lo1[1]);
    cf->dc = f32x4_sub(f32x4_set4(hi0[0], hi0[1], hi1[0], hi1[1]), cf->c0);
}

/* A field on the four corner columns of a cell at weight ty (wtrilerp's first step), and the
 * smallest and largest of them: every sample of the layer lies in that range (the x and z
 * steps interpolate between them), up to rounding, which the margins of the bounds cover. */
typedef struct LayerCols {
    f32x4 y;
    float lo, hi;
} LayerCols;

static inline void layer_cols(const CellField *cf, float ty, LayerCols *lc) {
    lc->y = f32x4_add(cf->c0, f32x4_mul(cf->dc, f32x4_set1(ty)));
    lc->lo = f32x4_hmin(lc->y);
    lc->hi = f32x4_hmax(lc->y);
}

/* The field at the samples (tx lanes, tz[k]) of a cell layer from its column values: wtrilerp's
 * x then z steps, 4 x samples per vector, row k of out per tz. Lanes past the cell's x samples
 * hold copies (masked off by the caller). */
static inline __attribute__((always_inline)) void field_x(f32x4 y, f32x4 tx, f32x4 *x0_out, f32x4 *dx_out) {
    f32x4 a = f32x4_dup(y, 0), b = f32x4_dup(y, 2);
    f32x4 x0 = f32x4_add(a, f32x4_mul(f32x4_sub(f32x4_dup(y, 1), a), tx));
    f32x4 x1 = f32x4_add(b, f32x4_mul(f32x4_sub(f32x4_dup(y, 3), b), tx));
    *x0_out = x0;
    *dx_out = f32x4_sub(x1, x0);
}

static inline __attribute__((always_inline)) void field_rows(const LayerCols *lc, f32x4 tx, const float *tz, int nzs,
                                                             f32x4 *out) {
    f32x4 x0, dx;
    field_x(lc->y, tx, &x0, &dx);
    UNROLL_Z
    for (int k = 0; k < nzs; k++) out[k] = f32x4_add(x0, f32x4_mul(dx, f32x4_set1(tz[k])));
}

/* A sample layer of the chunk: its height and what the field adds there. */
typedef struct SampleLayer {
    int16_t Y;          /* coarse layer */
    float ty, yc;       /* weight in the cell, voxel-centre height */
    float lift;         /* gen_lift(yc): -y and bedrock, for the bounds */
    float bed;          /* the bedrock term as gen_terrain adds it (0: none) */
    bool has_bed, cap;  /* yc below bedrock level; above WORLD_Y_MAX (capped) */
    bool caves;         /* caves may carve at this height */
    float cloud_w;      /* W7 vertical weight (<= 0: outside the band) */
} SampleLayer;

/* Coarse layer Y whose samples lie in block layer `by`, at weight ty in their cell. */
static void sample_layer(const WorldGen *g, int Y, int by, float ty, SampleLayer *L) {
    float yc = (float)by + 0.5f;
    L->Y = (int16_t)Y;
    L->ty = ty;
    L->yc = yc;
    L->lift = gen_lift(g, yc);
    L->has_bed = yc < g->p.bedrock_level;
    L->bed = 0.0f;
    if (L->has_bed) {
        float t = g->p.bedrock_level - yc;
        L->bed = t * t * g->p.bedrock_strength;
    }
    L->cap = yc > (float)WORLD_Y_MAX;
    L->caves = gen_caves_apply(g, 1.0f, yc);
    L->cloud_w = g->clouds ? gen_cloud_weight(g, yc) : 0.0f;
}

/* Everything the fill needs of one cell, gathered once for all its sample layers. */
typedef struct CellWork {
    uint8_t live;
    bool clouds;                     /* some sample layer's cloud bound may pass */
    uint32_t all;                    /* its samples of a layer: bit 4k + i (x sample i, z sample k) */
    int sh;                          /* bit of its first x sample in a row (X0 + 1) */
    uint64_t bits;                   /* its x samples' bits in a row */
    f32x4 tx;                        /* the x samples' weights (lanes past them hold copies) */
    CellField d, i, k;
    CellField cave[WG_CAVE_FIELDS];
    float dlo, dhi, ilo, ihi, khi;   /* the cell's corner ranges */
} CellWork;

/* Range of field f over each cell of corner row pair (yi, zi) (its 8 corners), cells 0..WG_NX - 2:
 * the corner columns' ranges over the 4 corners of their two rows and layers, then of two
 * neighbouring columns (min and max are exact: the same values as any other order). */
static inline void row_ranges(const ChunkScratch *s, int f, int yi, int zi, float *lo, float *hi) {
    float clo[WG_NX + 4], chi[WG_NX + 4];
    gen_column_range(s, f, yi, zi, clo, chi);
    clo[WG_NX] = clo[WG_NX - 1];
    chi[WG_NX] = chi[WG_NX - 1];
    for (int xi = 0; xi < WG_NX; xi += 4) {
        if (lo) f32x4_store(lo + xi, f32x4_min(f32x4_load(clo + xi), f32x4_load(clo + xi + 1)));
        f32x4_store(hi + xi, f32x4_max(f32x4_load(chi + xi), f32x4_load(chi + xi + 1)));
    }
}

/* Range of field f over the 8 corners of cell (yi, zi, xi). */
static inline void corner_range(const ChunkScratch *s, int f, int yi, int zi, int xi, float *lo, float *hi) {
    const float *a = &s->corner[f][yi][zi][xi], *b = &s->corner[f][yi][zi + 1][xi];
    const float *c = &s->corner[f][yi + 1][zi][xi], *d = &s->corner[f][yi + 1][zi + 1][xi];
    f32x4 p = f32x4_set4(a[0], a[1], b[0], b[1]), q = f32x4_set4(c[0], c[1], d[0], d[1]);
    *lo = f32x4_hmin(f32x4_min(p, q));
    *hi = f32x4_hmax(f32x4_max(p, q));
}

/* The cell ranges of one row of cells, for the fields its live cells read. */
typedef struct RowRanges {
    float dlo[WG_NX + 4], dhi[WG_NX + 4], ilo[WG_NX + 4], ihi[WG_NX + 4], khi[WG_NX + 4];
} RowRanges;

/* The fields of cell (yi, zi, xi) its classes need: D always where it may hold rock, I only where
 * the islands may be positive somewhere in it (elsewhere no layer reads I: i_none below), caves
 * where a kind may carve, K where its cloud bound may pass. Ranges from rr (NULL: computed). */
static inline __attribute__((always_inline)) void cell_fields(const WorldGen *g, const ChunkScratch *s, int yi, int zi,
                                                              int xi, bool clouds, const RowRanges *rr, CellWork *cw) {
    cw->live = s->cell_live[yi][zi][xi];
    if (cw->live & CELL_ROCK) {
        cw->dlo = rr->dlo[xi];
        cw->dhi = rr->dhi[xi];
        cw->ilo = rr->ilo[xi];
        cw->ihi = rr->ihi[xi];
        field_gather(s, WF_D, yi, zi, xi, &cw->d);
        /* A sample above WORLD_Y_MAX takes the capped path, which reads I whatever its range. */
        bool cap = WORLD_Y_MIN + yi * WORLD_CELL_Y + WORLD_CELL_Y > WORLD_Y_MAX;
        if (cw->ihi > -WG_MARGIN || cap) field_gather(s, WF_I, yi, zi, xi, &cw->i);
    }
    if (cw->live & CELL_CARVE)
        for (uint32_t f = 0; f < g->ncave_fields; f++) field_gather(s, WF_CAVE + (int)f, yi, zi, xi, &cw->cave[f]);
    cw->clouds = clouds && (cw->live & CELL_CLOUD);
    if (cw->clouds) {
        cw->khi = rr->khi[xi];
        field_gather(s, WF_K, yi, zi, xi, &cw->k);
    }
}

static void cell_work(const WorldGen *g, const ChunkScratch *s, int yi, int zi, int xi, bool clouds,
                      const RowRanges *rr, CellWork *cw) {
    RowRanges own;
    if (!rr) {
        /* A single cell (gen_sample_solid): its own 8 corners only. */
        if (s->cell_live[yi][zi][xi] & CELL_ROCK) {
            corner_range(s, WF_D, yi, zi, xi, &own.dlo[xi], &own.dhi[xi]);
            corner_range(s, WF_I, yi, zi, xi, &own.ilo[xi], &own.ihi[xi]);
        }
        rr = &own;
    }
    cell_fields(g, s, yi, zi, xi, clouds, rr, cw);
}

/* The packed sample bits (bit 4k + i) of a cell into its rows' words. */
static inline __attribute__((always_inline)) void put_bits(const CellWork *cw, uint32_t b, int nzs, uint64_t *acc) {
    if (b == cw->all) {
        UNROLL_Z
        for (int k = 0; k < nzs; k++) acc[k] |= cw->bits;
    } else if (b) {
        UNROLL_Z
        for (int k = 0; k < nzs; k++) acc[k] |= (uint64_t)((b >> (4 * k)) & 15u) << cw->sh;
    }
}

/* What the sample layers of a cell layer share, for deciding them together: per layer (bit l)
 * whether it lies above WORLD_Y_MAX (the capped path), whether caves may carve at its height and
 * whether it lies in the cloud band; and the weight ty, -y with bedrock (gen_lift) and the cloud
 * weight of each, 4 to a vector (lane l of vector h: layer 4h + l). */
typedef struct LayerSet {
    uint32_t mask, cap, caves, band;
    f32x4 ty[2], lift[2], cloud_w[2];
} LayerSet;

static void layer_set(const SampleLayer *layers, int nl, LayerSet *ls) {
    float lift[2 * 4] = {0}, ty[2 * 4] = {0}, cw[2 * 4] = {0};
    ls->mask = (1u << nl) - 1u;
    ls->cap = ls->caves = ls->band = 0;
    for (int l = 0; l < nl; l++) {
        lift[l] = layers[l].lift;
        ty[l] = layers[l].ty;
        cw[l] = layers[l].cloud_w;
        ls->cap |= (uint32_t)layers[l].cap << l;
        ls->caves |= (uint32_t)layers[l].caves << l;
        ls->band |= (uint32_t)(layers[l].cloud_w > 0.0f) << l;
    }
    for (int h = 0; h < 2; h++) {
        ls->lift[h] = f32x4_load(lift + 4 * h);
        ls->ty[h] = f32x4_load(ty + 4 * h);
        ls->cloud_w[h] = f32x4_load(cw + 4 * h);
    }
}

/* Layers (bit l) where x + lift_l > t: x plus each layer's lift, the same float sum as the scalar. */
static inline uint32_t lift_above(const LayerSet *ls, float x, float t) {
    const f32x4 xv = f32x4_set1(x), tv = f32x4_set1(t);
    return (u32x4_movemask(f32x4_cmpgt(f32x4_add(xv, ls->lift[0]), tv)) |
            u32x4_movemask(f32x4_cmpgt(f32x4_add(xv, ls->lift[1]), tv)) << 4) & ls->mask;
}

/* The smallest and largest of a field's four corner columns at every sample layer (lane l of
 * vector h: layer 4h + l): column j at layer l is c0_j + dc_j * ty_l, the value layer_cols puts
 * in its lane j, so the same ranges as layer_cols' lo and hi (min and max are exact). */
static inline void layer_ranges(const CellField *cf, const LayerSet *ls, f32x4 lo[2], f32x4 hi[2]) {
    const f32x4 a0 = f32x4_dup(cf->c0, 0), a1 = f32x4_dup(cf->c0, 1), a2 = f32x4_dup(cf->c0, 2), a3 = f32x4_dup(cf->c0, 3);
    const f32x4 d0 = f32x4_dup(cf->dc, 0), d1 = f32x4_dup(cf->dc, 1), d2 = f32x4_dup(cf->dc, 2), d3 = f32x4_dup(cf->dc, 3);
    for (int h = 0; h < 2; h++) {
        const f32x4 ty = ls->ty[h];
        f32x4 v0 = f32x4_add(a0, f32x4_mul(d0, ty)), v1 = f32x4_add(a1, f32x4_mul(d1, ty));
        f32x4 v2 = f32x4_add(a2, f32x4_mul(d2, ty)), v3 = f32x4_add(a3, f32x4_mul(d3, ty));
        lo[h] = f32x4_min(f32x4_min(v0, v1), f32x4_min(v2, v3));
        hi[h] = f32x4_max(f32x4_max(v0, v1), f32x4_max(v2, v3));
    }
}

/* Layers (bit l) where v_l (+ lift_l when lifted) > t, from per-layer values in two vectors. */
static inline uint32_t layers_above(const LayerSet *ls, const f32x4 v[2], bool lifted, float t) {
    const f32x4 tv = f32x4_set1(t);
    f32x4 a = v[0], b = v[1];
    if (lifted) a = f32x4_add(a, ls->lift[0]), b = f32x4_add(b, ls->lift[1]);
    return (u32x4_movemask(f32x4_cmpgt(a, tv)) | u32x4_movemask(f32x4_cmpgt(b, tv)) << 4) & ls->mask;
}

/* gen_terrain on a layer's rows of samples from their x-interpolated edges (field_rows' z step
 * per row): d - yc plus the bedrock term (bed: +0 above bedrock level, which changes no value
 * but a zero's sign, and no compare here tells those apart), max with I as d > i ? d : i, the
 * cap; bit 4k + i where the value is above zero. use_d, use_i and cap are constants where it is
 * inlined, so each case is its own loop without branches. */
static inline __attribute__((always_inline)) uint32_t rows_rock(f32x4 dx0, f32x4 ddx, f32x4 ix0, f32x4 idx,
                                                                const SampleLayer *L, const float *tz, int nzs,
                                                                bool use_d, bool use_i, bool cap) {
    const f32x4 yc = f32x4_set1(L->yc), bed = f32x4_set1(L->bed), zero = f32x4_set1(0.0f);
    const f32x4 capv = f32x4_set1((float)WORLD_Y_MAX - L->yc);
    uint32_t rock = 0;
    UNROLL_Z
    for (int k = 0; k < nzs; k++) {
        const f32x4 t = f32x4_set1(tz[k]);
        f32x4 v = use_i ? f32x4_add(ix0, f32x4_mul(idx, t)) : zero;
        if (use_d) {
            f32x4 d = f32x4_add(f32x4_sub(f32x4_add(dx0, f32x4_mul(ddx, t)), yc), bed);
            v = use_i ? f32x4_select(f32x4_cmpgt(d, v), d, v) : d;
        }
        if (cap) v = f32x4_select(f32x4_cmpgt(v, capv), capv, v);
        rock |= u32x4_movemask(f32x4_cmpgt(v, zero)) << (4 * k);
    }
    return rock;
}

/* The terrain's rock samples (bit 4k + i) of a layer the bounds left open, interpolated; d_none
 * and i_none: that term of max(D, I) cannot be positive anywhere in the layer (it drops out);
 * cap: the layer lies above WORLD_Y_MAX (a constant where inlined). */
static inline __attribute__((always_inline)) uint32_t layer_interp(const CellWork *cw, const SampleLayer *L,
                                                                   const float *tz, int nzs, bool d_none, bool i_none,
                                                                   bool cap) {
    if (d_none && i_none) return 0;
    /* field_rows' steps: x on the two z edges of the layer, then z per row inside the loop. */
    f32x4 dx0 = f32x4_set1(0.0f), ddx = dx0, ix0 = dx0, idx = dx0;
    if (!d_none) field_x(f32x4_add(cw->d.c0, f32x4_mul(cw->d.dc, f32x4_set1(L->ty))), cw->tx, &dx0, &ddx);
    if (!i_none) field_x(f32x4_add(cw->i.c0, f32x4_mul(cw->i.dc, f32x4_set1(L->ty))), cw->tx, &ix0, &idx);
    uint32_t rock;
    if (i_none) rock = rows_rock(dx0, ddx, ix0, idx, L, tz, nzs, true, false, cap);
    else if (d_none) rock = rows_rock(dx0, ddx, ix0, idx, L, tz, nzs, false, true, cap);
    else rock = rows_rock(dx0, ddx, ix0, idx, L, tz, nzs, true, true, cap);
    return rock & cw->all;
}

/* The terrain's rock samples of a layer above WORLD_Y_MAX (the capped path: no bound settles it;
 * a fill's samples never lie there, the point query's may). */
static uint32_t layer_capped(const CellWork *cw, const SampleLayer *L, const float *tz, int nzs) {
    return layer_interp(cw, L, tz, nzs, false, false, true);
}

/* Layers (bit l) among `layers` where some cave kind may carve: the kinds' bounds on each layer's
 * ranges of the cave fields' four corner columns (layer_ranges: the values layer_cols gives),
 * four layers at a time. */
static inline uint32_t carve_layers(const WorldGen *g, const CellWork *cw, const LayerSet *ls, uint32_t layers) {
    f32x4 lo[2][WG_CAVE_FIELDS], hi[2][WG_CAVE_FIELDS];
    for (uint32_t f = 0; f < g->ncave_fields; f++) {
        f32x4 l[2], h[2];
        layer_ranges(&cw->cave[f], ls, l, h);
        lo[0][f] = l[0], lo[1][f] = l[1], hi[0][f] = h[0], hi[1][f] = h[1];
    }
    uint32_t may = 0;
    for (int h = 0; h < 2; h++)
        if ((layers >> (4 * h)) & 15u) may |= (~gen_caves_never4(g, lo[h], hi[h]) & 15u) << (4 * h);
    return layers & may;
}

/* Rock samples `rock` of a layer where caves may carve (carve_layers), without those the carve
 * rules make air (gen_caves_air4, on the interpolated vectors). */
static inline __attribute__((always_inline)) uint32_t layer_carve(const WorldGen *g, const CellWork *cw,
                                                                  const SampleLayer *L, const float *tz, int nzs,
                                                                  uint32_t rock) {
    f32x4 fv[WG_CAVE_FIELDS][4];
    for (uint32_t f = 0; f < g->ncave_fields; f++) {
        LayerCols cc = {f32x4_add(cw->cave[f].c0, f32x4_mul(cw->cave[f].dc, f32x4_set1(L->ty))), 0.0f, 0.0f};
        field_rows(&cc, cw->tx, tz, nzs, fv[f]);
    }
    return rock & ~gen_caves_air4(g, (const f32x4(*)[4])fv, nzs);
}

/* Layers (bit l) of the band where the clouds' bounds may pass: the cell's largest K times the
 * layer's weight, then the largest of K's four corner columns at the layer times the weight, above
 * threshold - 1e-3 (the same products and compares as per layer, 4 layers to a vector). */
static inline uint32_t cloud_layers(const WorldGen *g, const CellWork *cw, const LayerSet *ls) {
    const f32x4 t = f32x4_set1(g->p.cloud_threshold - 1e-3f), khi = f32x4_set1(cw->khi);
    uint32_t may = (u32x4_movemask(f32x4_cmpgt(f32x4_mul(khi, ls->cloud_w[0]), t)) |
                    u32x4_movemask(f32x4_cmpgt(f32x4_mul(khi, ls->cloud_w[1]), t)) << 4) & ls->band;
    if (!may) return 0;
    f32x4 lo[2], hi[2];
    layer_ranges(&cw->k, ls, lo, hi);
    return may & (u32x4_movemask(f32x4_cmpgt(f32x4_mul(hi[0], ls->cloud_w[0]), t)) |
                  u32x4_movemask(f32x4_cmpgt(f32x4_mul(hi[1], ls->cloud_w[1]), t)) << 4);
}

/* Cloud samples of a layer the bounds let pass (cloud_layers), outside rock. */
static inline __attribute__((always_inline)) uint32_t layer_cloud(const WorldGen *g, const CellWork *cw,
                                                                  const SampleLayer *L, const float *tz, int nzs,
                                                                  uint32_t rock) {
    f32x4 x0, dx;
    field_x(f32x4_add(cw->k.c0, f32x4_mul(cw->k.dc, f32x4_set1(L->ty))), cw->tx, &x0, &dx);
    const f32x4 w = f32x4_set1(L->cloud_w), thr = f32x4_set1(g->p.cloud_threshold);
    uint32_t cloud = 0;
    UNROLL_Z
    for (int k = 0; k < nzs; k++) {
        f32x4 kv = f32x4_add(x0, f32x4_mul(dx, f32x4_set1(tz[k])));
        cloud |= u32x4_movemask(f32x4_cmpgt(f32x4_mul(kv, w), thr)) << (4 * k);
    }
    return cloud & cw->all & ~rock;
}

/* THE solid/air (and cloud) decision of chunk samples: the samples (tx lanes, tz[k], k < nzs) of
 * one cell at its sample layers, OR-ed into the row words acc[l][k] (solid) and cacc[l][k] (cloud;
 * NULL: none wanted). Terrain, then caves carving rock, then clouds in the air the terrain leaves.
 * Same float operations as gen_density_point (so the same bits). Where bounds settle a layer the
 * interpolation is skipped, which cannot change a bit (WG_MARGIN covers rounding): first the
 * cell's corner ranges, for all its layers at once (every rock layer, every air layer), then each
 * remaining layer's four corner columns. Returns the cloud bits seen. */
static inline __attribute__((always_inline)) uint32_t cell_layers(const WorldGen *g, const CellWork *cw,
                                                                  const SampleLayer *layers, const LayerSet *ls,
                                                                  const float *tz, int nzs,
                                                                  uint64_t (*acc)[WORLD_CELL_XZ],
                                                                  uint64_t (*cacc)[WORLD_CELL_XZ]) {
    uint32_t full = 0, none = ls->mask, work = 0, clouds = 0, dnone = 0, inone = 0;
    if (cw->live & CELL_ROCK) {
        /* Corner ranges: D - y (+ bedrock) above the margin at every sample, or I; both terms
         * at or below minus the margin everywhere. The capped layers take the per-layer path. */
        const bool i_none = !(cw->ihi > -WG_MARGIN);
        uint32_t ifull = cw->ilo > WG_MARGIN ? ls->mask : 0u, cell_inone = i_none ? ls->mask : 0u;
        uint32_t cell_dnone = ~lift_above(ls, cw->dhi, -WG_MARGIN) & ls->mask;
        full = (lift_above(ls, cw->dlo, WG_MARGIN) | ifull) & ~ls->cap;
        none = cell_dnone & cell_inone & ~ls->cap & ~full;
        uint32_t open = ls->mask & ~full & ~none & ~ls->cap;
        if (open) {
            /* The rest, every layer at once: the ranges of the four corner columns at the layer.
             * D's where the cell's range left it a chance (all rock, or it drops out), then I's
             * where the cell reads I and D did not make the layer rock. */
            f32x4 lo[2], hi[2];
            uint32_t dfull = 0;
            dnone = cell_dnone;
            if (open & ~cell_dnone) {
                layer_ranges(&cw->d, ls, lo, hi);
                dfull = layers_above(ls, lo, true, WG_MARGIN) & ~cell_dnone;
                dnone |= ~layers_above(ls, hi, true, -WG_MARGIN);
            }
            uint32_t ifull_l = 0;
            inone = ls->mask;
            if (!i_none && (open & ~dfull)) {
                layer_ranges(&cw->i, ls, lo, hi);
                ifull_l = layers_above(ls, lo, false, WG_MARGIN) & ~dfull;
                inone = ~layers_above(ls, hi, false, -WG_MARGIN);
            }
            uint32_t lfull = (dfull | ifull_l) & open, lnone = dnone & inone & open & ~lfull;
            full |= lfull;
            none |= lnone;
            open &= ~lfull & ~lnone;
        }
        work = open | (ls->mask & ls->cap);
    }
    const uint32_t carving = (cw->live & CELL_CARVE) ? ls->caves & (full | work) : 0u;
    const uint32_t carve = carving ? carve_layers(g, cw, ls, carving) : 0u;
    for (uint32_t m = full; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint32_t solid = (carve >> l) & 1u ? layer_carve(g, cw, &layers[l], tz, nzs, cw->all) : cw->all;
        put_bits(cw, solid, nzs, acc[l]);
    }
    const uint32_t cm = cacc && cw->clouds ? cloud_layers(g, cw, ls) : 0u;
    for (uint32_t m = work; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint32_t rock = (ls->cap >> l) & 1u ? layer_capped(cw, &layers[l], tz, nzs)
                                            : layer_interp(cw, &layers[l], tz, nzs, (dnone >> l) & 1u, (inone >> l) & 1u, false);
        uint32_t solid = rock && ((carve >> l) & 1u) ? layer_carve(g, cw, &layers[l], tz, nzs, rock) : rock;
        put_bits(cw, solid, nzs, acc[l]);
        if (((cm >> l) & 1u) && rock != cw->all) {
            uint32_t c = layer_cloud(g, cw, &layers[l], tz, nzs, rock);
            put_bits(cw, c, nzs, cacc[l]);
            clouds |= c;
        }
    }
    for (uint32_t m = cm & none; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint32_t c = layer_cloud(g, cw, &layers[l], tz, nzs, 0u);
        put_bits(cw, c, nzs, cacc[l]);
        clouds |= c;
    }
    return clouds;
}

/* Every sample layer of one row of cells (z samples zs) into the bit rows: cell after cell, the
 * bits gathered per layer and row and written once, with those of the row's proven solid cells. */
static inline __attribute__((always_inline)) void fill_row(const WorldGen *g, ChunkScratch *s, const CellWork *cws,
                                                           int ncw, uint64_t sure, const SampleLayer *layers,
                                                           const LayerSet *ls, int nl, const float *tz, int nzs,
                                                           const int16_t *zs) {
    uint64_t acc[WORLD_CELL_Y][WORLD_CELL_XZ], cacc[WORLD_CELL_Y][WORLD_CELL_XZ];
    uint32_t clouds = 0;
    for (int l = 0; l < nl; l++)
        UNROLL_Z
        for (int k = 0; k < nzs; k++) acc[l][k] = sure, cacc[l][k] = 0;
    for (int c = 0; c < ncw; c++) clouds |= cell_layers(g, &cws[c], layers, ls, tz, nzs, acc, cacc);
    for (int l = 0; l < nl; l++) {
        int yr = layers[l].Y + 1;
        UNROLL_Z
        for (int k = 0; k < nzs; k++) {
            s->solid[yr][zs[k] + 1] |= acc[l][k];
            /* Layers come in ascending order (cell layers, then their sample layers). */
            s->row_top[zs[k] + 1] = acc[l][k] ? (int16_t)yr : s->row_top[zs[k] + 1];
        }
        if (clouds)
            UNROLL_Z
            for (int k = 0; k < nzs; k++) s->cloud[yr][zs[k] + 1] |= cacc[l][k];
    }
}

/* The cloud weights of a cell layer's samples: the range of those inside the band (w > 0). */
typedef struct CloudBand { bool any; float wlo, whi; } CloudBand;

static CloudBand cloud_band(const SampleLayer *layers, int nl) {
    CloudBand b = {false, 0.0f, 0.0f};
    for (int l = 0; l < nl; l++) {
        float w = layers[l].cloud_w;
        if (!(w > 0.0f)) continue;
        if (!b.any || w < b.wlo) b.wlo = w;
        if (!b.any || w > b.whi) b.whi = w;
        b.any = true;
    }
    return b;
}

/* Can some layer of a cell with largest corner K khi pass the clouds' first bound (w > 0 and
 * khi * w > threshold - 1e-3)? khi * w is monotonic in w, so the band's end on khi's side. */
static inline bool cloud_may(const WorldGen *g, const CloudBand *b, float khi) {
    return b->any && khi * (khi >= 0.0f ? b->whi : b->wlo) > g->p.cloud_threshold - 1e-3f;
}

/* The cells of one row the fill visits: their work (cws) and the bits of the proven solid ones. */
static int row_cells(const WorldGen *g, const ChunkScratch *s, const AxisSamples *ax, int yi, int zi, int nzs,
                     const CloudBand *band, CellWork *cws, uint64_t *sure_out) {
    uint8_t any = 0;
    for (int xi = 0; xi < s->nx - 1; xi++) any |= s->cell_live[yi][zi][xi];
    *sure_out = 0;
    if (!(any & (CELL_ROCK | CELL_CLOUD))) return 0;
    RowRanges rr;
    if (any & CELL_ROCK) {
        row_ranges(s, WF_D, yi, zi, rr.dlo, rr.dhi);
        row_ranges(s, WF_I, yi, zi, rr.ilo, rr.ihi);
    }
    bool clouds = (any & CELL_CLOUD) && band->any;
    if (clouds) row_ranges(s, WF_K, yi, zi, NULL, rr.khi);
    int ncw = 0;
    uint64_t sure = 0;
    for (int xi = 0; xi < s->nx - 1; xi++) {
        int nxs = ax->count[xi];
        uint8_t live = s->cell_live[yi][zi][xi];
        if (!nxs || !(live & (CELL_ROCK | CELL_CLOUD))) continue;
        int X0 = ax->idx[ax->first[xi]];
        const uint32_t lanes = (1u << nxs) - 1u;
        if (live & CELL_SURE) {
            /* Proven solid at every sample: no interpolation. */
            sure |= (uint64_t)lanes << (X0 + 1);
            continue;
        }
        bool cl = clouds && (live & CELL_CLOUD) && cloud_may(g, band, rr.khi[xi]);
        if (!(live & CELL_ROCK) && !cl) continue;   /* air whose clouds cannot pass anywhere */
        CellWork *cw = &cws[ncw++];
        cell_fields(g, s, yi, zi, xi, cl, &rr, cw);
        cw->sh = X0 + 1;
        cw->bits = (uint64_t)lanes << (X0 + 1);
        cw->all = (lanes * 0x1111u) & (uint32_t)((1ull << (4 * nzs)) - 1u);   /* lanes in each of the nzs nibbles */
        const float *txp = &ax->t[ax->first[xi]];
        if (nxs == 4) {
            cw->tx = f32x4_load(txp);
        } else {
            float txl[4];
            for (int i = 0; i < 4; i++) txl[i] = txp[i < nxs ? i : 0];
            cw->tx = f32x4_load(txl);
        }
    }
    *sure_out = sure;
    return ncw;
}

/* Coarse voxels of the chunk at s->lod from the corner grid: bit rows with the apron. */
static void fill_voxels(const WorldGen *g, ChunkScratch *s) {
    const int lod = s->lod, n = s->n;
    AxisSamples ax, ay;
    axis_samples(-1, n, lod, WORLD_CELL_XZ, 2, k_txz, &ax);
    axis_samples(0, s->ny - 1, lod, 0, 3, k_ty, &ay);
    const uint64_t apron = (1ull << (n + 2)) - 1ull;
    /* Rows up to the top layer's (the mesher reads one above the top: none there). */
    size_t rows = (size_t)(s->ny + 2 < WV_H ? s->ny + 2 : WV_H);
    memset(s->solid, 0, rows * sizeof s->solid[0]);
    memset(s->cloud, 0, rows * sizeof s->cloud[0]);
    for (int z = 0; z < n + 2; z++) s->solid[0][z] = apron;   /* solid below WORLD_Y_MIN */
    for (int z = 0; z < WV_ROW; z++) s->row_top[z] = 0;

    const int ncy = (g->y_top - WORLD_Y_MIN) / WORLD_CELL_Y;
    for (int yi = 0; yi < ncy; yi++) {
        int nl = ay.count[yi];
        if (!nl) continue;
        SampleLayer layers[WORLD_CELL_Y];
        for (int l = 0; l < nl; l++) {
            int Y = ay.idx[ay.first[yi] + l];
            sample_layer(g, Y, gs_block_y(s, Y), ay.t[ay.first[yi] + l], &layers[l]);
        }
        const CloudBand band = cloud_band(layers, nl);
        LayerSet ls;
        layer_set(layers, nl, &ls);
        for (int zi = 0; zi < s->nx - 1; zi++) {
            int nzs = ax.count[zi];
            if (!nzs) continue;
            CellWork cws[WG_NX];
            uint64_t sure;
            int ncw = row_cells(g, s, &ax, yi, zi, nzs, &band, cws, &sure);
            if (!ncw && !sure) continue;
            const float *tz = &ax.t[ax.first[zi]];
            const int16_t *zs = &ax.idx[ax.first[zi]];
            /* Whole LOD-0 rows get a copy with the size fixed, which the compiler unrolls. */
            if (nzs == WORLD_CELL_XZ)
                fill_row(g, s, cws, ncw, sure, layers, &ls, nl, tz, WORLD_CELL_XZ, zs);
            else
                fill_row(g, s, cws, ncw, sure, layers, &ls, nl, tz, nzs, zs);
        }
    }
}

/* The chunk at `lod` over nx corner columns: corners, voxels, column tops, colours (the objects
 * come after, from chunk.c). */
void gen_chunk_fill(const WorldGen *g, int64_t cx, int64_t cz, double time_s, int lod, int nx, bool lazy,
                    ChunkScratch *s) {
    gen_chunk_corners(g, cx, cz, time_s, nx, lazy, s);
    s->lod = lod;
    s->scale = WORLD_LOD_SCALE(lod);
    s->off = WORLD_LOD_OFFSET(lod);
    s->n = CHUNK_SIZE / s->scale;
    s->ny = (g->y_top - WORLD_Y_MIN) / s->scale;
    s->seam_samples = 0;
    fill_voxels(g, s);
    gen_column_tops(s);
    gen_column_colours(g, s);
}

/* ---------------------------------------------------------------- single blocks */
bool gen_sample_solid(const WorldGen *g, const ChunkScratch *s, int x, int y, int z) {
    if (y < WORLD_Y_MIN) return true;
    if (y >= s->y_top) return false;
    int xi = (x + WORLD_CELL_XZ) >> 2, zi = (z + WORLD_CELL_XZ) >> 2, yi = (y - WORLD_Y_MIN) >> 3;
    uint8_t live = s->cell_live[yi][zi][xi];
    if (!(live & CELL_ROCK)) return false;
    if (live & CELL_SURE) return true;
    CellWork cw;
    cell_work(g, s, yi, zi, xi, false, NULL, &cw);
    cw.all = 1u;
    cw.sh = 0;
    cw.bits = 1u;
    cw.tx = f32x4_set1(k_txz[(x + WORLD_CELL_XZ) & 3]);
    SampleLayer L;
    sample_layer(g, y - WORLD_Y_MIN, y, k_ty[(y - WORLD_Y_MIN) & 7], &L);
    LayerSet ls;
    layer_set(&L, 1, &ls);
    float tz = k_txz[(z + WORLD_CELL_XZ) & 3];
    uint64_t solid[1][WORLD_CELL_XZ] = {{0}};
    cell_layers(g, &cw, &L, &ls, &tz, 1, solid, NULL);
    return solid[0][0] != 0;
}
