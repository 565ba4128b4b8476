/* skyisles world: chunk voxelisation. Batched noise rows on the coarse grid, provably empty
 * cells skipped, other voxels interpolated exactly as gen_density_point: bit rows with apron. */
#include "world/world_internal.h"

#include <string.h>

#include "noise/simd.h"

static const float k_txz[WORLD_CELL_XZ] = {0.125f, 0.375f, 0.625f, 0.875f};
static const float k_ty[WORLD_CELL_Y] = {0.0625f, 0.1875f, 0.3125f, 0.4375f, 0.5625f, 0.6875f, 0.8125f, 0.9375f};

static void fill_columns(const WorldGen *g, int32_t X0, int32_t Z0, int nx, ChunkScratch *s) {
    float nb[WG_NX][WG_NX], ni[WG_NX][WG_NX], nh[WG_NX];
    const NoiseFx step = WORLD_CELL_XZ;
    noise_fbm2_rows(g->s_base, &g->fb_base, noise_fx_mul_int(g->f_base, X0), noise_fx_mul_int(g->f_base, step),
                    noise_fx_mul_int(g->f_base, Z0), noise_fx_mul_int(g->f_base, step), &nb[0][0], WG_NX, nx, nx);
    noise_fbm2_rows(g->s_isl, &g->fb_isl, noise_fx_mul_int(g->f_isl, X0), noise_fx_mul_int(g->f_isl, step),
                    noise_fx_mul_int(g->f_isl, Z0), noise_fx_mul_int(g->f_isl, step), &ni[0][0], WG_NX, nx, nx);
    for (int zi = 0; zi < nx; zi++) {
        int32_t Z = Z0 + zi * WORLD_CELL_XZ;
        noise_simplex2_row(g->s_islh, noise_fx_mul_int(g->f_islh, X0), noise_fx_mul_int(g->f_islh, WORLD_CELL_XZ),
                           noise_fx_mul_int(g->f_islh, Z), nh, nx);
        for (int xi = 0; xi < nx; xi++)
            gen_column_finish(g, X0 + xi * WORLD_CELL_XZ, Z, nb[zi][xi], ni[zi][xi], nh[xi], &s->col[zi][xi]);
    }
}

/* The column values gen_corner_dense reads, one array per value over a row of columns (lanes
 * past nx hold zeros): what the lenses need is fixed per column, only Y and n3 vary. */
typedef struct ColumnRows {
    float base[WG_NX][WG_NX], top[WG_NX][WG_NX], bottom[WG_NX][WG_NX];
    float home_top[WG_NX][WG_NX], home_bottom[WG_NX][WG_NX];
    uint32_t home_on[WG_NX][WG_NX];   /* all ones where the home island lens applies */
    bool any_home;
} ColumnRows;

static void column_rows(const WorldGen *g, const ChunkScratch *s, int nx, ColumnRows *cr) {
    memset(cr, 0, sizeof *cr);
    for (int zi = 0; zi < nx; zi++)
        for (int xi = 0; xi < nx; xi++) {
            const GenColumn *c = &s->col[zi][xi];
            cr->base[zi][xi] = c->base;
            cr->top[zi][xi] = c->isl_c + c->isl_s * g->p.island_top;
            cr->bottom[zi][xi] = c->isl_c - c->isl_s * g->p.island_bottom;
            cr->home_top[zi][xi] = c->home_top;
            cr->home_bottom[zi][xi] = c->home_bottom;
            cr->home_on[zi][xi] = c->home_on ? 0xffffffffu : 0u;
            cr->any_home |= c->home_on != 0;
        }
}

/* gen_corner_dense for a row of corners at height Y, 4 lanes at a time: the same operations
 * ((a < b ? a : b) as a select on b > a, the home lens kept where it is higher). */
static void corner_row(const WorldGen *g, const ColumnRows *cr, int zi, float Y, const float *n3, float *d_out,
                       float *i_out) {
    const f32x4 yv = f32x4_set1(Y), amp = f32x4_set1(g->p.n3_amplitude), k = f32x4_set1(g->island_bottom_k);
    const f32x4 noise = f32x4_set1(g->p.island_noise), hnoise = f32x4_set1(g->p.island_noise * 0.25f);
    for (int xi = 0; xi < WG_NX; xi += 4) {
        f32x4 n = f32x4_load(n3 + xi);
        f32x4_store(d_out + xi, f32x4_add(f32x4_load(&cr->base[zi][xi]), f32x4_mul(n, amp)));
        f32x4 up = f32x4_sub(f32x4_load(&cr->top[zi][xi]), yv);
        f32x4 down = f32x4_mul(f32x4_sub(yv, f32x4_load(&cr->bottom[zi][xi])), k);
        f32x4 iv = f32x4_add(f32x4_select(f32x4_cmpgt(down, up), up, down), f32x4_mul(n, noise));
        if (cr->any_home) {
            f32x4 hu = f32x4_sub(f32x4_load(&cr->home_top[zi][xi]), yv);
            f32x4 hd = f32x4_mul(f32x4_sub(yv, f32x4_load(&cr->home_bottom[zi][xi])), k);
            f32x4 h = f32x4_add(f32x4_select(f32x4_cmpgt(hd, hu), hu, hd), f32x4_mul(n, hnoise));
            u32x4 on = u32x4_and(u32x4_load(&cr->home_on[zi][xi]), f32x4_cmpgt(h, iv));
            iv = f32x4_select(on, h, iv);
        }
        f32x4_store(i_out + xi, iv);
    }
}

/* Does any voxel centre of cell layer yi lie strictly inside the cloud band? */
static bool layer_in_band(const WorldGen *g, int yi) {
    if (!g->clouds) return false;
    float y0 = (float)(WORLD_Y_MIN + yi * WORLD_CELL_Y) + 0.5f;
    for (int j = 0; j < WORLD_CELL_Y; j++)
        if (gen_cloud_weight(g, y0 + (float)j) > 0.0f) return true;
    return false;
}

/* Smallest and largest of field f over the four corners of each corner column pair (yi and
 * yi + 1, zi and zi + 1), for every column of a row: a cell's range is that of its two. */
static inline void column_range(const ChunkScratch *s, int f, int yi, int zi, float *lo, float *hi) {
    for (int xi = 0; xi < WG_NX; xi += 4) {
        const float *c0 = &s->corner[f][yi][zi][xi], *c1 = &s->corner[f][yi + 1][zi][xi];
        f32x4 a = f32x4_load(c0), b = f32x4_load(c0 + WG_NX), c = f32x4_load(c1), d = f32x4_load(c1 + WG_NX);
        if (lo) f32x4_store(lo + xi, f32x4_min(f32x4_min(a, b), f32x4_min(c, d)));
        if (hi) f32x4_store(hi + xi, f32x4_max(f32x4_max(a, b), f32x4_max(c, d)));
    }
}

static inline float min2(float a, float b) { return a < b ? a : b; }
static inline float max2(float a, float b) { return a > b ? a : b; }

/* Cells the corner bounds settle, among those that may hold rock: CELL_CARVE where a cave kind
 * may carve (some voxel centre at or above cave_min_y, and the cave fields' corner range reaches
 * a carving value), CELL_SURE where every voxel is rock (CELL_FULL, from the classification)
 * and nothing carves it. Interpolation stays inside the corners' range (up to rounding, which
 * the margins cover). The voxel fill skips SURE cells and the cave fields outside CARVE cells;
 * the seam test answers SURE cells without sampling. */
static void mark_cells(const WorldGen *g, ChunkScratch *s, int ncy, int nx) {
    for (int yi = 0; yi < ncy; yi++) {
        float yt = (float)(WORLD_Y_MIN + yi * WORLD_CELL_Y + WORLD_CELL_Y - 1) + 0.5f;
        bool carve_layer = g->ncaves > 0 && yt >= g->p.cave_min_y;
        for (int zi = 0; zi < nx - 1; zi++) {
            uint8_t *row = s->cell_live[yi][zi];
            if (!carve_layer) {
                for (int xi = 0; xi < nx - 1; xi++)
                    if (row[xi] & CELL_FULL) row[xi] = (uint8_t)((row[xi] & ~CELL_FULL) | CELL_SURE);
                continue;
            }
            uint32_t rock = 0;
            for (int xi = 0; xi < nx - 1; xi++) rock |= row[xi] & CELL_ROCK;
            if (!rock) continue;
            float clo[WG_CAVE_FIELDS][WG_NX + 4], chi[WG_CAVE_FIELDS][WG_NX + 4];
            for (uint32_t f = 0; f < g->ncave_fields; f++) column_range(s, WF_CAVE + (int)f, yi, zi, clo[f], chi[f]);
            for (int xi = 0; xi < nx - 1; xi++) {
                uint8_t live = row[xi];
                if (!(live & CELL_ROCK)) continue;
                float lo[WG_CAVE_FIELDS], hi[WG_CAVE_FIELDS];
                for (uint32_t f = 0; f < g->ncave_fields; f++) {
                    lo[f] = min2(clo[f][xi], clo[f][xi + 1]);
                    hi[f] = max2(chi[f][xi], chi[f][xi + 1]);
                }
                if (!gen_caves_never_carve(g, lo, hi)) live |= CELL_CARVE;
                else if (live & CELL_FULL) live |= CELL_SURE;
                row[xi] = (uint8_t)(live & ~CELL_FULL);
            }
        }
    }
}

/* Which cells may hold rock whatever n3 is (|n3| <= 1), as bit masks over cell layers per cell
 * column [zi][xi]. D = base + n3 * amplitude is largest at n3 = +-1 and the same at every height;
 * a lens is min(top - Y, (Y - bottom) * k) + n3 * noise, above -WG_MARGIN only strictly between
 * bottom - (|noise| + margin) / k and top + |noise| + margin (a block of slack each side covers
 * the float rounding). A cell whose corners all lie outside every such range of its four
 * columns, and whose D bound plus -y and bedrock at its lowest voxel centre is below -WG_MARGIN,
 * is not live under the exact classification either (its bounds are never smaller), so its n3
 * corners are not needed. */
static void corner_bounds(const WorldGen *g, const ColumnRows *cr, int nx, int ncy,
                          uint32_t maybe[WG_NX][WG_NX]) {
    uint32_t imask[WG_NX][WG_NX];
    float dub[WG_NX][WG_NX];
    const float amp = g->p.n3_amplitude, k = g->island_bottom_k, m = WG_MARGIN;
    const float noise = g->p.island_noise < 0.0f ? -g->p.island_noise : g->p.island_noise;
    const float hnoise = noise * 0.25f;
    const uint32_t layers = ncy + 1 >= 32 ? 0xffffffffu : (1u << (ncy + 1)) - 1u;
    for (int zi = 0; zi < nx; zi++)
        for (int xi = 0; xi < nx; xi++) {
            float b = cr->base[zi][xi], hi = b + amp, lo = b + -amp;
            dub[zi][xi] = hi > lo ? hi : lo;
            /* Corner layers strictly inside the lens ranges of this column. */
            uint32_t mk = 0;
            for (int lens = 0; lens < (cr->home_on[zi][xi] ? 2 : 1); lens++) {
                float top = lens ? cr->home_top[zi][xi] : cr->top[zi][xi];
                float bot = lens ? cr->home_bottom[zi][xi] : cr->bottom[zi][xi];
                float n = lens ? hnoise : noise;
                float ylo = bot - (n + m) / k - 1.0f, yhi = top + n + m + 1.0f;
                for (int yi = 0; yi <= ncy; yi++) {
                    float Y = (float)(WORLD_Y_MIN + yi * WORLD_CELL_Y);
                    if (Y > ylo && Y < yhi) mk |= 1u << yi;
                }
            }
            imask[zi][xi] = mk & layers;
        }
    float lift[WG_NY];
    for (int yi = 0; yi < ncy; yi++) lift[yi] = gen_lift(g, (float)(WORLD_Y_MIN + yi * WORLD_CELL_Y) + 0.5f);
    for (int zi = 0; zi < nx - 1; zi++)
        for (int xi = 0; xi < nx - 1; xi++) {
            uint32_t corners = imask[zi][xi] | imask[zi][xi + 1] | imask[zi + 1][xi] | imask[zi + 1][xi + 1];
            uint32_t mb = corners | corners >> 1;   /* cell yi: corner layer yi or yi + 1 */
            float d = max2(max2(dub[zi][xi], dub[zi][xi + 1]), max2(dub[zi + 1][xi], dub[zi + 1][xi + 1]));
            for (int yi = 0; yi < ncy; yi++)
                if (d + lift[yi] > -m) mb |= 1u << yi;
            maybe[zi][xi] = mb & (layers >> 1);
        }
}

/* The cell classes (CELL_ROCK, CELL_FULL, the cloud band) and the cave rows they need.
 * Rock is impossible where every corner bound is below zero
 * (interpolation never leaves the corners' range; -y and bedrock peak at the cell's
 * lowest voxel centre). The largest of a cell's 8 corners: the largest of the four
 * corners of each corner column pair, then of two neighbouring ones. Only cells that may
 * hold rock whatever n3 is are looked at (their corners are all there). */
static void classify_cells(const WorldGen *g, ChunkScratch *s, uint32_t maybe[WG_NX][WG_NX], int ncy, int nx) {
    memset(s->row_need, 0, sizeof s->row_need);
    s->cells_total = (uint32_t)(ncy * (nx - 1) * (nx - 1));
    s->cells_skipped = 0;
    bool any_caves = g->ncaves > 0;
    for (int yi = 0; yi < ncy; yi++) {
        /* -y and bedrock peak at the cell's lowest voxel centre. */
        float lift = gen_lift(g, (float)(WORLD_Y_MIN + yi * WORLD_CELL_Y) + 0.5f);
        uint8_t band = layer_in_band(g, yi) ? CELL_CLOUD : 0;
        bool cave_layer = any_caves && (float)(WORLD_Y_MIN + (yi + 1) * WORLD_CELL_Y) > g->p.cave_min_y;
        /* Every voxel is rock where the lowest corner bound at the top voxel centre is above zero. */
        float yt = (float)(WORLD_Y_MIN + yi * WORLD_CELL_Y + WORLD_CELL_Y - 1) + 0.5f;
        float lift_top = gen_lift(g, yt);
        bool can_full = yt <= (float)WORLD_Y_MAX;
        for (int zi = 0; zi < nx - 1; zi++) {
            uint32_t row_maybe = 0;
            for (int xi = 0; xi < nx - 1; xi++) row_maybe |= maybe[zi][xi] >> yi & 1u;
            if (!row_maybe) {
                for (int xi = 0; xi < nx - 1; xi++) s->cell_live[yi][zi][xi] = band;
                s->cells_skipped += (uint32_t)(nx - 1);
                continue;
            }
            float dhi[WG_NX + 4], ihi[WG_NX + 4], dlo[WG_NX + 4], ilo[WG_NX + 4];
            column_range(s, WF_D, yi, zi, dlo, dhi);
            column_range(s, WF_I, yi, zi, ilo, ihi);
            for (int xi = 0; xi < nx - 1; xi++) {
                float dmax = max2(dhi[xi], dhi[xi + 1]) + lift;
                float imax = max2(ihi[xi], ihi[xi + 1]);
                uint8_t live = band;
                if ((maybe[zi][xi] >> yi & 1u) && (dmax > -WG_MARGIN || imax > -WG_MARGIN)) {
                    live |= CELL_ROCK;
                    if (can_full && (min2(dlo[xi], dlo[xi + 1]) + lift_top > WG_MARGIN || min2(ilo[xi], ilo[xi + 1]) > WG_MARGIN))
                        live |= CELL_FULL;
                }
                s->cell_live[yi][zi][xi] = live;
                if (!(live & CELL_ROCK)) {
                    s->cells_skipped++;
                } else if (cave_layer) {
                    s->row_need[yi][zi] = s->row_need[yi][zi + 1] = 1;
                    s->row_need[yi + 1][zi] = s->row_need[yi + 1][zi + 1] = 1;
                }
            }
        }
    }
}

void gen_chunk_corners(const WorldGen *g, int32_t cx, int32_t cz, double time_s, int nx, bool lazy, ChunkScratch *s) {
    const int32_t bx0 = cx * CHUNK_SIZE, bz0 = cz * CHUNK_SIZE;
    const int32_t X0 = bx0 - WORLD_CELL_XZ, Z0 = bz0 - WORLD_CELL_XZ;
    const int ncy = (g->y_top - WORLD_Y_MIN) / WORLD_CELL_Y;   /* cell layers */
    const int ny = ncy + 1;                                    /* corner layers */
    const NoiseFx dx_n3 = noise_fx_mul_int(g->f_n3, WORLD_CELL_XZ);
    s->cx = cx;
    s->cz = cz;
    s->y_top = g->y_top;
    s->nx = nx;

    fill_columns(g, X0, Z0, nx, s);
    ColumnRows cr;
    column_rows(g, s, nx, &cr);

    /* Cells that may hold rock whatever n3 is, and the corner rows they need (lazy: the
     * streamer's builds; the classic build fills every corner). */
    uint32_t maybe[WG_NX][WG_NX];
    uint32_t row_layers[WG_NX];   /* per corner row zi: the corner layers needed */
    for (int zi = 0; zi < nx; zi++) row_layers[zi] = 0xffffffffu;
    if (lazy) {
        corner_bounds(g, &cr, nx, ncy, maybe);
        for (int zi = 0; zi < nx; zi++) row_layers[zi] = 0;
        for (int zi = 0; zi < nx - 1; zi++)
            for (int xi = 0; xi < nx - 1; xi++) {
                uint32_t need = maybe[zi][xi] | maybe[zi][xi] << 1;
                row_layers[zi] |= need;
                row_layers[zi + 1] |= need;
            }
    } else {
        for (int zi = 0; zi < nx - 1; zi++)
            for (int xi = 0; xi < nx - 1; xi++) maybe[zi][xi] = 0xffffffffu;
    }

    /* Terrain corners: fbm3 rows of nx corners per (y, z), the rows of a layer on one plan. */
    float n3[WG_NX][WG_NX];
    memset(n3, 0, sizeof n3);
    for (int yi = 0; yi < ny; yi++) {
        int zlo = 0, zhi = nx - 1;
        while (zlo < nx && !((row_layers[zlo] >> yi) & 1u)) zlo++;
        while (zhi >= zlo && !((row_layers[zhi] >> yi) & 1u)) zhi--;
        if (zlo > zhi) continue;
        int32_t Y = WORLD_Y_MIN + yi * WORLD_CELL_Y;
        noise_fbm3_rows(g->s_n3, &g->fb_n3, noise_fx_mul_int(g->f_n3, X0), dx_n3, noise_fx_mul_int(g->f_n3y, Y),
                        noise_fx_mul_int(g->f_n3, Z0 + zlo * WORLD_CELL_XZ), dx_n3, &n3[zlo][0], WG_NX, nx, zhi - zlo + 1);
        for (int zi = zlo; zi <= zhi; zi++)
            corner_row(g, &cr, zi, (float)Y, n3[zi], s->corner[WF_D][yi][zi], s->corner[WF_I][yi][zi]);
    }

    classify_cells(g, s, maybe, ncy, nx);

    /* Cave fields only on corner rows that touch a cell that may hold rock. */
    for (int yi = 0; yi < ny; yi++) {
        int32_t Y = WORLD_Y_MIN + yi * WORLD_CELL_Y;
        for (int zi = 0; zi < nx; zi++) {
            if (!s->row_need[yi][zi]) continue;
            int32_t Z = Z0 + zi * WORLD_CELL_XZ;
            for (uint32_t f = 0; f < g->ncave_fields; f++) gen_cave_row(g, f, X0, Y, Z, s->corner[WF_CAVE + f][yi][zi], nx);
        }
    }

    mark_cells(g, s, ncy, nx);

    /* W7 cloud corners on the layers around the band, wind-shifted by creation time. */
    if (g->clouds) {
        int64_t shift = gen_wind_shift(g, time_s);
        NoiseFx x0 = (NoiseFx)((uint64_t)noise_fx_mul_int(g->f_cloud, X0) + (uint64_t)g->f_cloud * (uint64_t)shift);
        NoiseFx dx = noise_fx_mul_int(g->f_cloud, WORLD_CELL_XZ);
        for (int yi = 0; yi < ny; yi++) {
            bool need = (yi < ncy && layer_in_band(g, yi)) || (yi > 0 && layer_in_band(g, yi - 1));
            if (!need) continue;
            int32_t Y = WORLD_Y_MIN + yi * WORLD_CELL_Y;
            noise_fbm3_rows(g->s_cloud, &g->fb_cloud, x0, dx, noise_fx_mul_int(g->f_cloud, Y), noise_fx_mul_int(g->f_cloud, Z0),
                            dx, s->corner[WF_K][yi][0], WG_NX, nx, nx);
        }
    }
}

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
static inline __attribute__((always_inline)) void field_rows(const LayerCols *lc, f32x4 tx, const float *tz, int nzs,
                                                             f32x4 *out) {
    f32x4 a = f32x4_dup(lc->y, 0), b = f32x4_dup(lc->y, 2);
    f32x4 x0 = f32x4_add(a, f32x4_mul(f32x4_sub(f32x4_dup(lc->y, 1), a), tx));
    f32x4 x1 = f32x4_add(b, f32x4_mul(f32x4_sub(f32x4_dup(lc->y, 3), b), tx));
    f32x4 dx = f32x4_sub(x1, x0);
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
    CellField d, i, k;
    CellField cave[WG_CAVE_FIELDS];
    float dlo, dhi, ilo, ihi, khi;   /* the cell's corner ranges */
} CellWork;

/* Gathers field f of a cell and, when lo/hi are given, its 8 corners' range. */
static inline void field_gather_range(const ChunkScratch *s, int f, int yi, int zi, int xi, CellField *cf, float *lo,
                                      float *hi) {
    field_gather(s, f, yi, zi, xi, cf);
    const float *t0 = &s->corner[f][yi + 1][zi][xi], *t1 = &s->corner[f][yi + 1][zi + 1][xi];
    f32x4 top = f32x4_set4(t0[0], t0[1], t1[0], t1[1]);
    if (lo) *lo = f32x4_hmin(f32x4_min(cf->c0, top));
    if (hi) *hi = f32x4_hmax(f32x4_max(cf->c0, top));
}

static void cell_work(const WorldGen *g, const ChunkScratch *s, int yi, int zi, int xi, bool clouds, CellWork *cw) {
    cw->live = s->cell_live[yi][zi][xi];
    if (cw->live & CELL_ROCK) {
        field_gather_range(s, WF_D, yi, zi, xi, &cw->d, &cw->dlo, &cw->dhi);
        field_gather_range(s, WF_I, yi, zi, xi, &cw->i, &cw->ilo, &cw->ihi);
    }
    if (cw->live & CELL_CARVE)
        for (uint32_t f = 0; f < g->ncave_fields; f++) field_gather(s, WF_CAVE + (int)f, yi, zi, xi, &cw->cave[f]);
    if (clouds && (cw->live & CELL_CLOUD)) field_gather_range(s, WF_K, yi, zi, xi, &cw->k, NULL, &cw->khi);
}

/* THE solid/air (and cloud) decision of chunk samples: the samples (tx lanes < nxs, tz[k], k <
 * nzs) of one cell at sample layer L, bit 4k + i of *solid and *cloud. Terrain, then caves
 * carving rock, then clouds in the air the terrain leaves. Same float operations as
 * gen_density_point (so the same bits). Where bounds settle a layer the interpolation is
 * skipped, which cannot change a bit (WG_MARGIN covers rounding): first the cell's corner
 * ranges, then the layer's four corner columns. A term that cannot be positive anywhere in the
 * layer drops out of max(D, I) (v > 0 is then the other term > 0). */
static inline __attribute__((always_inline)) void cell_layer(const WorldGen *g, const CellWork *cw,
                                                             const SampleLayer *L, f32x4 tx, uint32_t lanes,
                                                             const float *tz, int nzs, uint32_t *solid_out,
                                                             uint32_t *cloud_out) {
    uint32_t all = 0;
    for (int k = 0; k < nzs; k++) all |= lanes << (4 * k);
    uint32_t rock = 0, solid = 0, cloud = 0;
    if (cw->live & CELL_ROCK) {
        const float lift = L->lift;
        /* d_none: D - y (+ bedrock) <= 0 at every sample; i_none: I <= 0 at every sample. */
        bool d_none = !(cw->dhi + lift > -WG_MARGIN), i_none = !(cw->ihi > -WG_MARGIN);
        bool full = !L->cap && (cw->dlo + lift > WG_MARGIN || cw->ilo > WG_MARGIN);
        if (L->cap) d_none = i_none = false;   /* above WORLD_Y_MAX: the capped path */
        LayerCols dc = {f32x4_set1(0.0f), 0.0f, 0.0f}, ic = dc;
        if (!full && !(d_none && i_none)) {
            if (!d_none) {
                layer_cols(&cw->d, L->ty, &dc);
                if (!L->cap) {
                    d_none = !(dc.hi + lift > -WG_MARGIN);
                    full = dc.lo + lift > WG_MARGIN;
                }
            }
            if (!i_none && !full) {
                layer_cols(&cw->i, L->ty, &ic);
                if (!L->cap) {
                    i_none = !(ic.hi > -WG_MARGIN);
                    full = ic.lo > WG_MARGIN;
                }
            }
        }
        if (full) {
            rock = all;   /* every sample is rock */
        } else if (!(d_none && i_none)) {
            f32x4 dv[4], iv[4];
            if (!d_none) field_rows(&dc, tx, tz, nzs, dv);
            if (!i_none) field_rows(&ic, tx, tz, nzs, iv);
            const f32x4 yc = f32x4_set1(L->yc), bed = f32x4_set1(L->bed), zero = f32x4_set1(0.0f);
            for (int k = 0; k < nzs; k++) {
                /* gen_terrain: d - yc (+ bedrock), max with I as d > i ? d : i, the cap. */
                f32x4 v;
                if (!d_none) {
                    f32x4 d = f32x4_sub(dv[k], yc);
                    if (L->has_bed) d = f32x4_add(d, bed);
                    v = i_none ? d : f32x4_select(f32x4_cmpgt(d, iv[k]), d, iv[k]);
                } else {
                    v = iv[k];
                }
                if (L->cap) {
                    f32x4 cap = f32x4_set1((float)WORLD_Y_MAX - L->yc);
                    v = f32x4_select(f32x4_cmpgt(v, cap), cap, v);
                }
                rock |= u32x4_movemask(f32x4_cmpgt(v, zero)) << (4 * k);
            }
            rock &= all;
        }
        solid = rock;
        if (rock && (cw->live & CELL_CARVE) && L->caves) {
            LayerCols cc[WG_CAVE_FIELDS];
            float lo[WG_CAVE_FIELDS], hi[WG_CAVE_FIELDS];
            for (uint32_t f = 0; f < g->ncave_fields; f++) {
                layer_cols(&cw->cave[f], L->ty, &cc[f]);
                lo[f] = cc[f].lo;
                hi[f] = cc[f].hi;
            }
            /* The cell's bound said a kind may carve; this layer's often says not. */
            if (!gen_caves_never_carve(g, lo, hi)) {
                float fv[WG_CAVE_FIELDS][16];
                const float *fp[WG_CAVE_FIELDS];
                for (uint32_t f = 0; f < g->ncave_fields; f++) {
                    f32x4 r[4];
                    field_rows(&cc[f], tx, tz, nzs, r);
                    for (int k = 0; k < nzs; k++) f32x4_store(&fv[f][4 * k], r[k]);
                    fp[f] = fv[f];
                }
                solid &= ~gen_caves_air(g, fp, 4 * nzs);
            }
        }
    }
    /* Clouds only where the layer's largest K could pass the threshold at this weight. */
    if (cloud_out && (cw->live & CELL_CLOUD) && rock != all && L->cloud_w > 0.0f &&
        cw->khi * L->cloud_w > g->p.cloud_threshold - 1e-3f) {
        LayerCols kc;
        layer_cols(&cw->k, L->ty, &kc);
        if (kc.hi * L->cloud_w > g->p.cloud_threshold - 1e-3f) {
            f32x4 kv[4];
            field_rows(&kc, tx, tz, nzs, kv);
            const f32x4 w = f32x4_set1(L->cloud_w), thr = f32x4_set1(g->p.cloud_threshold);
            for (int k = 0; k < nzs; k++) cloud |= u32x4_movemask(f32x4_cmpgt(f32x4_mul(kv[k], w), thr)) << (4 * k);
            cloud &= all & ~rock;
        }
    }
    *solid_out = solid;
    if (cloud_out) *cloud_out = cloud;
}

/* Every sample layer of one cell into the bit rows. */
static inline __attribute__((always_inline)) void fill_cell(const WorldGen *g, ChunkScratch *s, const CellWork *cw,
                                                            const SampleLayer *layers, int nl, f32x4 tx, int nxs,
                                                            int X0, const float *tz, int nzs, const int16_t *zs) {
    const uint32_t lanes = (1u << nxs) - 1u;
    for (int l = 0; l < nl; l++) {
        uint32_t solid, cloud;
        cell_layer(g, cw, &layers[l], tx, lanes, tz, nzs, &solid, &cloud);
        if (!(solid | cloud)) continue;
        int yr = layers[l].Y + 1;
        for (int k = 0; k < nzs; k++) s->solid[yr][zs[k] + 1] |= (uint64_t)((solid >> (4 * k)) & 15u) << (X0 + 1);
        if (cloud)
            for (int k = 0; k < nzs; k++) s->cloud[yr][zs[k] + 1] |= (uint64_t)((cloud >> (4 * k)) & 15u) << (X0 + 1);
    }
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

    const int ncy = (g->y_top - WORLD_Y_MIN) / WORLD_CELL_Y;
    for (int yi = 0; yi < ncy; yi++) {
        int nl = ay.count[yi];
        if (!nl) continue;
        SampleLayer layers[WORLD_CELL_Y];
        for (int l = 0; l < nl; l++) {
            int Y = ay.idx[ay.first[yi] + l];
            sample_layer(g, Y, gs_block_y(s, Y), ay.t[ay.first[yi] + l], &layers[l]);
        }
        for (int zi = 0; zi < s->nx - 1; zi++) {
            int nzs = ax.count[zi];
            if (!nzs) continue;
            const float *tz = &ax.t[ax.first[zi]];
            const int16_t *zs = &ax.idx[ax.first[zi]];
            for (int xi = 0; xi < s->nx - 1; xi++) {
                int nxs = ax.count[xi];
                uint8_t live = s->cell_live[yi][zi][xi];
                if (!nxs || !(live & (CELL_ROCK | CELL_CLOUD))) continue;
                int X0 = ax.idx[ax.first[xi]];
                if (live & CELL_SURE) {
                    /* Proven solid at every sample: no interpolation. */
                    uint64_t bits = (uint64_t)((1u << nxs) - 1u) << (X0 + 1);
                    for (int l = 0; l < nl; l++)
                        for (int k = 0; k < nzs; k++) s->solid[layers[l].Y + 1][zs[k] + 1] |= bits;
                    continue;
                }
                CellWork cw;
                cell_work(g, s, yi, zi, xi, true, &cw);
                const float *txp = &ax.t[ax.first[xi]];
                float txl[4];
                for (int i = 0; i < 4; i++) txl[i] = txp[i < nxs ? i : 0];
                f32x4 tx = f32x4_load(txl);
                /* Whole LOD-0 cells get a copy with the sizes fixed, which the compiler unrolls. */
                if (nxs == WORLD_CELL_XZ && nzs == WORLD_CELL_XZ)
                    fill_cell(g, s, &cw, layers, nl, tx, WORLD_CELL_XZ, X0, tz, WORLD_CELL_XZ, zs);
                else
                    fill_cell(g, s, &cw, layers, nl, tx, nxs, X0, tz, nzs, zs);
            }
        }
    }
}

/* Highest solid coarse layer per column (the pseudo-AO's sky occlusion). */
static void column_tops(ChunkScratch *s) {
    uint64_t seen[WV_ROW];
    memset(seen, 0, sizeof seen);
    for (int z = 0; z < WV_ROW; z++)
        for (int x = 0; x < WV_ROW; x++) s->top[z][x] = -1;
    for (int Y = s->ny - 1; Y >= 0; Y--) {
        const uint64_t *row = s->solid[Y + 1];
        for (int z = 0; z < s->n + 2; z++) {
            uint64_t nb = row[z] & ~seen[z];
            if (!nb) continue;
            seen[z] |= nb;
            while (nb) {
                int b = __builtin_ctzll(nb);
                nb &= nb - 1;
                s->top[z][b] = (int16_t)Y;
            }
        }
    }
}

/* W6 colour jitter, biome weights and the home island's location types at the sample columns.
 * The home island keeps its own colours: its columns count as temperate. */
static void column_colours(const WorldGen *g, ChunkScratch *s) {
    const int32_t bx0 = s->cx * CHUNK_SIZE, bz0 = s->cz * CHUNK_SIZE;
    const NoiseFx fj = g->f_jitter;
    gen_biome_chunk(g, bx0, bz0, s->scale, s->off, s->n, s->biome_w);
    for (int z = 0; z < s->n; z++) {
        int32_t bz = bz0 + z * s->scale + s->off;
        noise_simplex2_row(g->s_jitter, noise_fx_mul_int(fj, bx0 + s->off), noise_fx_mul_int(fj, s->scale),
                           noise_fx_mul_int(fj, bz), s->jitter[z], s->n);
        for (int x = 0; x < s->n; x++) {
            uint8_t t = g->home_on ? gen_home_type(g, bx0 + x * s->scale + s->off, bz) : ISLAND_FIELD_OFF;
            s->home_type[z][x] = t;
            if (t != ISLAND_FIELD_OFF) {
                float *w = s->biome_w[z][x];
                w[BIOME_TEMPERATE] = 1.0f;
                for (int b = 1; b < BIOME_COUNT; b++) w[b] = 0.0f;
            }
        }
    }
}

/* The chunk at `lod` over nx corner columns: corners, voxels, column tops, colours (the objects
 * come after, from chunk.c). */
void gen_chunk_fill(const WorldGen *g, int32_t cx, int32_t cz, double time_s, int lod, int nx, bool lazy,
                    ChunkScratch *s) {
    gen_chunk_corners(g, cx, cz, time_s, nx, lazy, s);
    s->lod = lod;
    s->scale = WORLD_LOD_SCALE(lod);
    s->off = WORLD_LOD_OFFSET(lod);
    s->n = CHUNK_SIZE / s->scale;
    s->ny = (g->y_top - WORLD_Y_MIN) / s->scale;
    s->seam_samples = 0;
    fill_voxels(g, s);
    column_tops(s);
    column_colours(g, s);
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
    cell_work(g, s, yi, zi, xi, false, &cw);
    SampleLayer L;
    sample_layer(g, y - WORLD_Y_MIN, y, k_ty[(y - WORLD_Y_MIN) & 7], &L);
    float tz = k_txz[(z + WORLD_CELL_XZ) & 3];
    uint32_t solid;
    cell_layer(g, &cw, &L, f32x4_set1(k_txz[(x + WORLD_CELL_XZ) & 3]), 1u, &tz, 1, &solid, NULL);
    return solid != 0;
}

/* Voxel codes (WorldMaterial) for tests and tools, from the bit rows (coarse at LOD > 0:
 * layer Y at index y = WORLD_Y_MIN + Y). */
void gen_fill_vox(const WorldGen *g, ChunkScratch *s) {
    (void)g;
    memset(s->vox, 0, sizeof s->vox);
    for (int Y = -1; Y <= s->ny && Y < WV_H - 1; Y++)
        for (int z = -1; z <= s->n; z++)
            for (int x = -1; x <= s->n; x++) {
                int yi = Y + 1;
                uint64_t bit = 1ull << (x + 1);
                uint8_t m = WORLD_MAT_AIR;
                if (s->solid[yi][z + 1] & bit) m = gen_material(g, s, x, Y, z);
                else if (s->cloud[yi][z + 1] & bit) m = WORLD_MAT_CLOUD;
                s->vox[WV_INDEX(x, WORLD_Y_MIN + Y, z)] = m;
            }
}
