/* skyisles world: the chunk's coarse corner grid (every 4 blocks in x/z, 8 in y): batched noise
 * rows for the terrain, island, cave and cloud fields, and the cell classes from their ranges
 * (may hold rock, proven solid, caves may carve) that tell the fill (voxels.c) what to skip. */
#include "world/world_internal.h"

#include <string.h>

#include "noise/simd.h"

static void fill_columns(const WorldGen *g, int64_t X0, int64_t Z0, int nx, ChunkScratch *s) {
    float nb[WG_NX][WG_NX], ni[WG_NX][WG_NX], nh[WG_NX][WG_NX];
    const NoiseFx step = WORLD_CELL_XZ;
    noise_fbm2_rows_w(g->s_base, &g->fb_base, noise_wide_mul_int(g->f_base, X0), noise_fx_mul_int(g->f_base, step),
                      noise_wide_mul_int(g->f_base, Z0), noise_fx_mul_int(g->f_base, step), &nb[0][0], WG_NX, nx, nx);
    noise_fbm2_rows_w(g->s_isl, &g->fb_isl, noise_wide_mul_int(g->f_isl, X0), noise_fx_mul_int(g->f_isl, step),
                      noise_wide_mul_int(g->f_isl, Z0), noise_fx_mul_int(g->f_isl, step), &ni[0][0], WG_NX, nx, nx);
    noise_simplex2_rows_w(g->s_islh, noise_wide_mul_int(g->f_islh, X0), noise_fx_mul_int(g->f_islh, step),
                          noise_wide_mul_int(g->f_islh, Z0), noise_fx_mul_int(g->f_islh, step), &nh[0][0], WG_NX, nx,
                          nx);
    for (int zi = 0; zi < nx; zi++) {
        int64_t Z = Z0 + zi * WORLD_CELL_XZ;
        for (int xi = 0; xi < nx; xi++)
            gen_column_finish(g, X0 + xi * WORLD_CELL_XZ, Z, nb[zi][xi], ni[zi][xi], nh[zi][xi], &s->col[zi][xi]);
    }
}

/* The column values gen_corner_dense reads, one array per value over a row of columns (lanes
 * past nx hold zeros): what the lenses need is fixed per column, only Y and n3 vary. */
typedef struct ColumnRows {
    float base[WG_NX][WG_NX], top[WG_NX][WG_NX], bottom[WG_NX][WG_NX];
    float home_top[WG_NX][WG_NX], home_bottom[WG_NX][WG_NX], home_rough[WG_NX][WG_NX];
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
            cr->home_rough[zi][xi] = c->home_rough;
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
            f32x4 rough = f32x4_mul(f32x4_mul(n, hnoise), f32x4_load(&cr->home_rough[zi][xi]));
            f32x4 h = f32x4_add(f32x4_select(f32x4_cmpgt(hd, hu), hu, hd), rough);
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

/* The cell layers (bit yi, yi < ncy) layer_in_band says lie in the band. */
static uint32_t band_layers(const WorldGen *g, int ncy) {
    uint32_t band = 0;
    for (int yi = 0; yi < ncy; yi++) band |= (uint32_t)layer_in_band(g, yi) << yi;
    return band;
}

static inline float min2(float a, float b) { return a < b ? a : b; }
static inline float max2(float a, float b) { return a > b ? a : b; }

/* Cells the corner bounds settle, among those that may hold rock: CELL_CARVE where a cave kind
 * may carve (some voxel centre at or above cave_min_y, and the cave fields' corner range reaches
 * a carving value), CELL_SURE where every voxel is rock (CELL_FULL, from the classification)
 * and nothing carves it. Interpolation stays inside the corners' range (up to rounding, which
 * the margins cover). The voxel fill skips SURE cells and the cave fields outside CARVE cells;
 * the seam test answers SURE cells without sampling. */
static void mark_cells(const WorldGen *g, ChunkScratch *s, const uint16_t rocks[WG_NY][WG_NX], int ncy, int nx,
                       int64_t X0, int64_t Z0) {
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
            uint32_t rock = rocks[yi][zi];   /* the cells classify_cells gave CELL_ROCK */
            if (!rock) continue;
            /* The cells' cave ranges four at a time (lane i: cell xi + i, from its two columns). */
            float clo[WG_CAVE_FIELDS][WG_NX + 4], chi[WG_CAVE_FIELDS][WG_NX + 4];
            for (uint32_t f = 0; f < g->ncave_fields; f++) {
                gen_column_range(s, WF_CAVE + (int)f, yi, zi, clo[f], chi[f]);
                clo[f][WG_NX] = clo[f][WG_NX - 1], chi[f][WG_NX] = chi[f][WG_NX - 1];
            }
            for (int x0 = 0; x0 < nx - 1; x0 += 4) {
                if (!((rock >> x0) & 15u)) continue;
                f32x4 lo[WG_CAVE_FIELDS], hi[WG_CAVE_FIELDS];
                for (uint32_t f = 0; f < g->ncave_fields; f++) {
                    lo[f] = f32x4_min(f32x4_load(clo[f] + x0), f32x4_load(clo[f] + x0 + 1));
                    hi[f] = f32x4_max(f32x4_load(chi[f] + x0), f32x4_load(chi[f] + x0 + 1));
                }
                uint32_t never = gen_caves_never4(g, lo, hi);
                for (int xi = x0; xi < x0 + 4 && xi < nx - 1; xi++) {
                    uint8_t live = row[xi];
                    if (!(live & CELL_ROCK)) continue;
                    if (!((never >> (xi - x0)) & 1u) &&
                        !gen_strip_shield(g, X0 + xi * WORLD_CELL_XZ, WORLD_Y_MIN + yi * WORLD_CELL_Y, Z0 + zi * WORLD_CELL_XZ))
                        live |= CELL_CARVE;
                    else if (live & CELL_FULL) live |= CELL_SURE;
                    row[xi] = (uint8_t)(live & ~CELL_FULL);
                }
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
    enum { NV = (WG_NY + 3) / 4 };   /* corner (and cell) layers, 4 to a vector */
    uint32_t imask[WG_NX][WG_NX];
    float dub[WG_NX][WG_NX];
    const float amp = g->p.n3_amplitude, k = g->island_bottom_k, m = WG_MARGIN;
    const float noise = g->p.island_noise < 0.0f ? -g->p.island_noise : g->p.island_noise;
    const float hnoise = noise * 0.25f;
    const uint32_t layers = ncy + 1 >= 32 ? 0xffffffffu : (1u << (ncy + 1)) - 1u;
    float ys[NV * 4], lift[NV * 4];
    for (int yi = 0; yi < NV * 4; yi++) {
        ys[yi] = (float)(WORLD_Y_MIN + yi * WORLD_CELL_Y);
        lift[yi] = yi < ncy ? gen_lift(g, (float)(WORLD_Y_MIN + yi * WORLD_CELL_Y) + 0.5f) : 0.0f;
    }
    for (int zi = 0; zi < nx; zi++)
        for (int xi = 0; xi < nx; xi++) {
            float b = cr->base[zi][xi], hi = b + amp, lo = b + -amp;
            dub[zi][xi] = hi > lo ? hi : lo;
            /* Corner layers strictly inside the lens ranges of this column (4 heights a compare). */
            uint32_t mk = 0;
            for (int lens = 0; lens < (cr->home_on[zi][xi] ? 2 : 1); lens++) {
                float top = lens ? cr->home_top[zi][xi] : cr->top[zi][xi];
                float bot = lens ? cr->home_bottom[zi][xi] : cr->bottom[zi][xi];
                float n = lens ? hnoise : noise;
                const f32x4 ylo = f32x4_set1(bot - (n + m) / k - 1.0f), yhi = f32x4_set1(top + n + m + 1.0f);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
                for (int v = 0; v < NV; v++) {
                    f32x4 y = f32x4_load(ys + 4 * v);
                    mk |= u32x4_movemask(u32x4_and(f32x4_cmpgt(y, ylo), f32x4_cmpgt(yhi, y))) << (4 * v);
                }
            }
            imask[zi][xi] = mk & layers;
        }
    const f32x4 nm = f32x4_set1(-m);
    for (int zi = 0; zi < nx - 1; zi++)
        for (int xi = 0; xi < nx - 1; xi++) {
            uint32_t corners = imask[zi][xi] | imask[zi][xi + 1] | imask[zi + 1][xi] | imask[zi + 1][xi + 1];
            uint32_t mb = corners | corners >> 1;   /* cell yi: corner layer yi or yi + 1 */
            const f32x4 d = f32x4_set1(max2(max2(dub[zi][xi], dub[zi][xi + 1]), max2(dub[zi + 1][xi], dub[zi + 1][xi + 1])));
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
            for (int v = 0; v < NV; v++)   /* cell layers where d plus -y and bedrock passes -m */
                mb |= u32x4_movemask(f32x4_cmpgt(f32x4_add(d, f32x4_load(lift + 4 * v)), nm)) << (4 * v);
            maybe[zi][xi] = mb & (layers >> 1);
        }
}

/* The cell classes (CELL_ROCK, CELL_FULL, the cloud band) and the cave rows they need.
 * Rock is impossible where every corner bound is below zero
 * (interpolation never leaves the corners' range; -y and bedrock peak at the cell's
 * lowest voxel centre). The largest of a cell's 8 corners: the largest of the four
 * corners of each corner column pair, then of two neighbouring ones. Only cells that may
 * hold rock whatever n3 is are looked at (their corners are all there). */
static void classify_cells(const WorldGen *g, ChunkScratch *s, uint32_t maybe[WG_NX][WG_NX], uint32_t bands, int ncy,
                           int nx, uint16_t rocks[WG_NY][WG_NX]) {
    memset(s->row_need, 0, sizeof s->row_need);
    s->cells_total = (uint32_t)(ncy * (nx - 1) * (nx - 1));
    s->cells_skipped = 0;
    bool any_caves = g->ncaves > 0;
    /* The cells that may hold rock whatever n3 is, as a mask over the cells of each row. */
    uint32_t rows[WG_NY][WG_NX];
    memset(rows, 0, sizeof rows);
    /* (maybe is all ones in the classic build, which fills every corner: only the ncy cell layers.) */
    const uint32_t layers = ncy >= 32 ? 0xffffffffu : (1u << ncy) - 1u;
    for (int zi = 0; zi < nx - 1; zi++)
        for (int xi = 0; xi < nx - 1; xi++)
            for (uint32_t mb = maybe[zi][xi] & layers; mb; mb &= mb - 1) rows[__builtin_ctz(mb)][zi] |= 1u << xi;
    const uint32_t cells = (1u << (nx - 1)) - 1u;
    const f32x4 pm = f32x4_set1(WG_MARGIN), nm = f32x4_set1(-WG_MARGIN);
    for (int yi = 0; yi < ncy; yi++) {
        /* -y and bedrock peak at the cell's lowest voxel centre. */
        const f32x4 lift = f32x4_set1(gen_lift(g, (float)(WORLD_Y_MIN + yi * WORLD_CELL_Y) + 0.5f));
        uint8_t band = (bands >> yi) & 1u ? CELL_CLOUD : 0;
        bool cave_layer = any_caves && (float)(WORLD_Y_MIN + (yi + 1) * WORLD_CELL_Y) > g->p.cave_min_y;
        /* Every voxel is rock where the lowest corner bound at the top voxel centre is above zero. */
        float yt = (float)(WORLD_Y_MIN + yi * WORLD_CELL_Y + WORLD_CELL_Y - 1) + 0.5f;
        const f32x4 lift_top = f32x4_set1(gen_lift(g, yt));
        bool can_full = yt <= (float)WORLD_Y_MAX;
        for (int zi = 0; zi < nx - 1; zi++) {
            uint8_t *row = s->cell_live[yi][zi];
            rocks[yi][zi] = 0;
            if (!rows[yi][zi]) {
                for (int xi = 0; xi < nx - 1; xi++) row[xi] = band;
                s->cells_skipped += (uint32_t)(nx - 1);
                continue;
            }
            /* A cell's range is that of its two corner columns: four cells a vector. */
            float dhi[WG_NX + 4], ihi[WG_NX + 4], dlo[WG_NX + 4], ilo[WG_NX + 4];
            gen_column_range(s, WF_D, yi, zi, dlo, dhi);
            gen_column_range(s, WF_I, yi, zi, ilo, ihi);
            dhi[WG_NX] = dhi[WG_NX - 1], ihi[WG_NX] = ihi[WG_NX - 1], dlo[WG_NX] = dlo[WG_NX - 1], ilo[WG_NX] = ilo[WG_NX - 1];
            uint32_t rock = 0, full = 0;
            for (int x0 = 0; x0 < nx - 1; x0 += 4) {
                f32x4 dmax = f32x4_add(f32x4_max(f32x4_load(dhi + x0), f32x4_load(dhi + x0 + 1)), lift);
                f32x4 imax = f32x4_max(f32x4_load(ihi + x0), f32x4_load(ihi + x0 + 1));
                f32x4 dmin = f32x4_add(f32x4_min(f32x4_load(dlo + x0), f32x4_load(dlo + x0 + 1)), lift_top);
                f32x4 imin = f32x4_min(f32x4_load(ilo + x0), f32x4_load(ilo + x0 + 1));
                rock |= u32x4_movemask(u32x4_or(f32x4_cmpgt(dmax, nm), f32x4_cmpgt(imax, nm))) << x0;
                full |= u32x4_movemask(u32x4_or(f32x4_cmpgt(dmin, pm), f32x4_cmpgt(imin, pm))) << x0;
            }
            rock &= rows[yi][zi] & cells;
            full = can_full ? full & rock : 0u;
            rocks[yi][zi] = (uint16_t)rock;
            for (int xi = 0; xi < nx - 1; xi++)
                row[xi] = (uint8_t)(band | ((rock >> xi) & 1u ? CELL_ROCK : 0u) | ((full >> xi) & 1u ? CELL_FULL : 0u));
            s->cells_skipped += (uint32_t)(nx - 1 - __builtin_popcount(rock));
            if (cave_layer && rock) {
                uint16_t pairs = (uint16_t)(rock | rock << 1);   /* the cells' corner columns xi, xi + 1 */
                s->row_need[yi][zi] |= pairs;
                s->row_need[yi][zi + 1] |= pairs;
                s->row_need[yi + 1][zi] |= pairs;
                s->row_need[yi + 1][zi + 1] |= pairs;
            }
        }
    }
}

void gen_chunk_corners(const WorldGen *g, int64_t cx, int64_t cz, double time_s, int nx, bool lazy, ChunkScratch *s) {
    const int64_t bx0 = cx * CHUNK_SIZE, bz0 = cz * CHUNK_SIZE;
    const int64_t X0 = bx0 - WORLD_CELL_XZ, Z0 = bz0 - WORLD_CELL_XZ;
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
    uint32_t col_layers[WG_NX];   /* per corner column xi: the same */
    for (int i = 0; i < nx; i++) row_layers[i] = col_layers[i] = 0xffffffffu;
    if (lazy) {
        corner_bounds(g, &cr, nx, ncy, maybe);
        for (int i = 0; i < nx; i++) row_layers[i] = col_layers[i] = 0;
        for (int zi = 0; zi < nx - 1; zi++)
            for (int xi = 0; xi < nx - 1; xi++) {
                uint32_t need = maybe[zi][xi] | maybe[zi][xi] << 1;
                row_layers[zi] |= need;
                row_layers[zi + 1] |= need;
                col_layers[xi] |= need;
                col_layers[xi + 1] |= need;
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
        /* The columns from the first needed to the last (lane i is the field at x0 + i*dx). */
        int xlo = 0, xhi = nx - 1;
        while (!((col_layers[xlo] >> yi) & 1u)) xlo++;
        while (!((col_layers[xhi] >> yi) & 1u)) xhi--;
        int32_t Y = WORLD_Y_MIN + yi * WORLD_CELL_Y;
        noise_fbm3_rows_w(g->s_n3, &g->fb_n3, noise_wide_mul_int(g->f_n3, X0 + xlo * WORLD_CELL_XZ), dx_n3,
                          noise_wide_mul_int(g->f_n3y, Y), noise_wide_mul_int(g->f_n3, Z0 + zlo * WORLD_CELL_XZ), dx_n3,
                          &n3[zlo][xlo], WG_NX, xhi - xlo + 1, zhi - zlo + 1);
        for (int zi = zlo; zi <= zhi; zi++)
            corner_row(g, &cr, zi, (float)Y, n3[zi], s->corner[WF_D][yi][zi], s->corner[WF_I][yi][zi]);
    }

    const uint32_t bands = band_layers(g, ncy);
    uint16_t rocks[WG_NY][WG_NX];   /* per cell row [yi][zi]: bit xi for a CELL_ROCK cell */
    classify_cells(g, s, maybe, bands, ncy, nx, rocks);

    /* Cave fields only at the corners of cells that may hold rock: per corner row, the run of
     * columns from the first such corner to the last (lane i of a row is the field at x0 + i*dx,
     * so a row started later holds the same values). */
    for (int yi = 0; yi < ny; yi++) gen_cave_layer(g, s, yi, X0, Z0, nx);

    mark_cells(g, s, rocks, ncy, nx, X0, Z0);

    /* W7 cloud corners on the layers around the band, wind-shifted by creation time. */
    if (g->clouds) {
        int64_t shift[2];
        world_cloud_shift(&g->p, time_s, shift);
        NoiseWide x0 = noise_wide_mul_int(g->f_cloud, X0 + shift[0]);   /* |shift| <= 1e15: no overflow */
        NoiseFx dx = noise_fx_mul_int(g->f_cloud, WORLD_CELL_XZ);
        for (int yi = 0; yi < ny; yi++) {
            bool need = ((bands | bands << 1) >> yi) & 1u;   /* a corner layer of a band cell layer */
            if (!need) continue;
            int32_t Y = WORLD_Y_MIN + yi * WORLD_CELL_Y;
            noise_fbm3_rows_w(g->s_cloud, &g->fb_cloud, x0, dx, noise_wide_mul_int(g->f_cloud, Y), noise_wide_mul_int(g->f_cloud, Z0 + shift[1]),
                            dx, s->corner[WF_K][yi][0], WG_NX, nx, nx);
        }
    }
}
