/* skyisles world: chunk voxelisation. Batched noise rows on the coarse grid, provably empty
 * cells skipped, other voxels interpolated exactly as gen_density_point: bit rows with apron. */
#include "world/world_internal.h"

#include <string.h>

static const float k_txz[WORLD_CELL_XZ] = {0.125f, 0.375f, 0.625f, 0.875f};
static const float k_ty[WORLD_CELL_Y] = {0.0625f, 0.1875f, 0.3125f, 0.4375f, 0.5625f, 0.6875f, 0.8125f, 0.9375f};

static void fill_columns(const WorldGen *g, int32_t X0, int32_t Z0, int nx, ChunkScratch *s) {
    float nb[WG_NX], ni[WG_NX], nh[WG_NX];
    for (int zi = 0; zi < nx; zi++) {
        int32_t Z = Z0 + zi * WORLD_CELL_XZ;
        noise_fbm2_row(g->s_base, &g->fb_base, noise_fx_mul_int(g->f_base, X0), noise_fx_mul_int(g->f_base, WORLD_CELL_XZ),
                       noise_fx_mul_int(g->f_base, Z), nb, nx);
        noise_fbm2_row(g->s_isl, &g->fb_isl, noise_fx_mul_int(g->f_isl, X0), noise_fx_mul_int(g->f_isl, WORLD_CELL_XZ),
                       noise_fx_mul_int(g->f_isl, Z), ni, nx);
        noise_simplex2_row(g->s_islh, noise_fx_mul_int(g->f_islh, X0), noise_fx_mul_int(g->f_islh, WORLD_CELL_XZ),
                           noise_fx_mul_int(g->f_islh, Z), nh, nx);
        for (int xi = 0; xi < nx; xi++)
            gen_column_finish(g, X0 + xi * WORLD_CELL_XZ, Z, nb[xi], ni[xi], nh[xi], &s->col[zi][xi]);
    }
}

static float max8(const float c[2][2][2]) {
    float m = c[0][0][0];
    const float *p = &c[0][0][0];
    for (int i = 1; i < 8; i++)
        if (p[i] > m) m = p[i];
    return m;
}

/* Does any voxel centre of cell layer yi lie strictly inside the cloud band? */
static bool layer_in_band(const WorldGen *g, int yi) {
    if (!g->clouds) return false;
    float y0 = (float)(WORLD_Y_MIN + yi * WORLD_CELL_Y) + 0.5f;
    for (int j = 0; j < WORLD_CELL_Y; j++)
        if (gen_cloud_weight(g, y0 + (float)j) > 0.0f) return true;
    return false;
}

void gen_chunk_corners(const WorldGen *g, int32_t cx, int32_t cz, double time_s, int nx, ChunkScratch *s) {
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

    /* Terrain corners: one fbm3 row of nx corners per (y, z). */
    float n3[WG_NX];
    for (int yi = 0; yi < ny; yi++) {
        int32_t Y = WORLD_Y_MIN + yi * WORLD_CELL_Y;
        for (int zi = 0; zi < nx; zi++) {
            int32_t Z = Z0 + zi * WORLD_CELL_XZ;
            noise_fbm3_row(g->s_n3, &g->fb_n3, noise_fx_mul_int(g->f_n3, X0), dx_n3, noise_fx_mul_int(g->f_n3y, Y),
                           noise_fx_mul_int(g->f_n3, Z), n3, nx);
            for (int xi = 0; xi < nx; xi++)
                gen_corner_dense(g, &s->col[zi][xi], (float)Y, n3[xi], &s->corner[WF_D][yi][zi][xi],
                                 &s->corner[WF_I][yi][zi][xi]);
        }
    }

    /* Cell classification: rock is impossible where every corner bound is below zero
     * (interpolation never leaves the corners' range; -y and bedrock peak at the cell's
     * lowest voxel centre). */
    memset(s->row_need, 0, sizeof s->row_need);
    s->cells_total = (uint32_t)(ncy * (nx - 1) * (nx - 1));
    s->cells_skipped = 0;
    bool any_caves = g->ncaves > 0;
    for (int yi = 0; yi < ncy; yi++) {
        /* -y and bedrock peak at the cell's lowest voxel centre. */
        float lift = gen_lift(g, (float)(WORLD_Y_MIN + yi * WORLD_CELL_Y) + 0.5f);
        bool band = layer_in_band(g, yi);
        bool cave_layer = any_caves && (float)(WORLD_Y_MIN + (yi + 1) * WORLD_CELL_Y) > g->p.cave_min_y;
        for (int zi = 0; zi < nx - 1; zi++)
            for (int xi = 0; xi < nx - 1; xi++) {
                float c[2][2][2];
                gen_gather(s, WF_D, yi, zi, xi, c);
                float dmax = max8(c) + lift;
                gen_gather(s, WF_I, yi, zi, xi, c);
                float imax = max8(c);
                uint8_t live = 0;
                if (dmax > -WG_MARGIN || imax > -WG_MARGIN) live |= CELL_ROCK;
                if (band) live |= CELL_CLOUD;
                s->cell_live[yi][zi][xi] = live;
                if (!(live & CELL_ROCK)) s->cells_skipped++;
                if ((live & CELL_ROCK) && cave_layer) {
                    s->row_need[yi][zi] = s->row_need[yi][zi + 1] = 1;
                    s->row_need[yi + 1][zi] = s->row_need[yi + 1][zi + 1] = 1;
                }
            }
    }

    /* Cave fields only on corner rows that touch a cell that may hold rock. */
    for (int yi = 0; yi < ny; yi++) {
        int32_t Y = WORLD_Y_MIN + yi * WORLD_CELL_Y;
        for (int zi = 0; zi < nx; zi++) {
            if (!s->row_need[yi][zi]) continue;
            int32_t Z = Z0 + zi * WORLD_CELL_XZ;
            for (uint32_t f = 0; f < g->ncave_fields; f++) gen_cave_row(g, f, X0, Y, Z, s->corner[WF_CAVE + f][yi][zi], nx);
        }
    }

    /* W7 cloud corners on the layers around the band, wind-shifted by creation time. */
    if (g->clouds) {
        int64_t shift = gen_wind_shift(g, time_s);
        NoiseFx x0 = (NoiseFx)((uint64_t)noise_fx_mul_int(g->f_cloud, X0) + (uint64_t)g->f_cloud * (uint64_t)shift);
        NoiseFx dx = noise_fx_mul_int(g->f_cloud, WORLD_CELL_XZ);
        for (int yi = 0; yi < ny; yi++) {
            bool need = (yi < ncy && layer_in_band(g, yi)) || (yi > 0 && layer_in_band(g, yi - 1));
            if (!need) continue;
            int32_t Y = WORLD_Y_MIN + yi * WORLD_CELL_Y;
            for (int zi = 0; zi < nx; zi++)
                noise_fbm3_row(g->s_cloud, &g->fb_cloud, x0, dx, noise_fx_mul_int(g->f_cloud, Y),
                               noise_fx_mul_int(g->f_cloud, Z0 + zi * WORLD_CELL_XZ), s->corner[WF_K][yi][zi], nx);
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

/* A cell's corner fields, gathered once for all its samples. */
typedef struct CellCorners {
    uint8_t live;                          /* CELL_* bits */
    bool caves;                            /* the cave fields below are valid */
    float d[2][2][2], i[2][2][2], k[2][2][2];
    float cave[WG_CAVE_FIELDS][2][2][2];
} CellCorners;

static void cell_gather(const WorldGen *g, const ChunkScratch *s, int yi, int zi, int xi, CellCorners *cc) {
    cc->live = s->cell_live[yi][zi][xi];
    gen_gather(s, WF_D, yi, zi, xi, cc->d);
    gen_gather(s, WF_I, yi, zi, xi, cc->i);
    cc->caves = (cc->live & CELL_ROCK) && s->row_need[yi][zi];
    if (cc->caves)
        for (uint32_t f = 0; f < g->ncave_fields; f++) gen_gather(s, WF_CAVE + (int)f, yi, zi, xi, cc->cave[f]);
    if (cc->live & CELL_CLOUD) gen_gather(s, WF_K, yi, zi, xi, cc->k);
}

/* The values at (tx[i], ty, tz[k]) of a cell, out[k * nxs + i], with wtrilerp's operations (y on
 * the corner columns, then x, then z): shared intermediates, the same bits. */
static inline void cell_points(const float c[2][2][2], float ty, const float *tx, int nxs, const float *tz, int nzs,
                               float *out) {
    float y00 = wlerp(c[0][0][0], c[1][0][0], ty);
    float y10 = wlerp(c[0][0][1], c[1][0][1], ty);
    float y01 = wlerp(c[0][1][0], c[1][1][0], ty);
    float y11 = wlerp(c[0][1][1], c[1][1][1], ty);
    float x0[WORLD_CELL_XZ], x1[WORLD_CELL_XZ];
    for (int i = 0; i < nxs; i++) {
        x0[i] = wlerp(y00, y10, tx[i]);
        x1[i] = wlerp(y01, y11, tx[i]);
    }
    for (int k = 0; k < nzs; k++)
        for (int i = 0; i < nxs; i++) out[k * nxs + i] = wlerp(x0[i], x1[i], tz[k]);
}

/* THE solid/air (and cloud) decision of chunk samples: the samples (tx[i], ty, tz[k]) of one
 * cell at voxel-centre height yc, bit k * nxs + i of *solid and *cloud (nxs, nzs <= 4).
 * Terrain, then caves carving rock, then clouds in the air the terrain leaves. */
static inline __attribute__((always_inline)) void cell_layer(const WorldGen *g, const CellCorners *cc, float ty, float yc,
                                                             const float *tx, int nxs, const float *tz, int nzs,
                                                             uint32_t *solid_out, uint32_t *cloud_out) {
    const int np = nxs * nzs;
    uint32_t rock = 0, solid = 0, cloud = 0;
    if (cc->live & CELL_ROCK) {
        float dv[16], iv[16], v[16];
        cell_points(cc->d, ty, tx, nxs, tz, nzs, dv);
        cell_points(cc->i, ty, tx, nxs, tz, nzs, iv);
        for (int n = 0; n < np; n++) {
            v[n] = gen_terrain(g, dv[n], iv[n], yc);
            rock |= (uint32_t)(v[n] > 0.0f) << n;
        }
        solid = rock;
        if (rock && cc->caves && gen_caves_apply(g, 1.0f, yc)) {
            float fv[WG_CAVE_FIELDS][16];
            const float *fp[WG_CAVE_FIELDS];
            for (uint32_t f = 0; f < g->ncave_fields; f++) {
                cell_points(cc->cave[f], ty, tx, nxs, tz, nzs, fv[f]);
                fp[f] = fv[f];
            }
            gen_caves_carve(g, fp, v, np);
            for (int n = 0; n < np; n++)
                if (!(v[n] > 0.0f)) solid &= ~(1u << n);
        }
    }
    if (cloud_out && (cc->live & CELL_CLOUD)) {
        float w = gen_cloud_weight(g, yc);
        if (w > 0.0f) {
            float kv[16];
            cell_points(cc->k, ty, tx, nxs, tz, nzs, kv);
            for (int n = 0; n < np; n++)
                if (!((rock >> n) & 1u) && kv[n] * w > g->p.cloud_threshold) cloud |= 1u << n;
        }
    }
    *solid_out = solid;
    if (cloud_out) *cloud_out = cloud;
}

/* Every sample layer of one cell into the bit rows. */
static inline __attribute__((always_inline)) void fill_cell(const WorldGen *g, ChunkScratch *s, const CellCorners *cc,
                                                            const AxisSamples *ay, int yi, const float *tx, int nxs,
                                                            int X0, const float *tz, int nzs, const int16_t *zs) {
    const uint32_t rowmask = (1u << nxs) - 1u;
    for (int ky = 0; ky < ay->count[yi]; ky++) {
        int Y = ay->idx[ay->first[yi] + ky];
        float ty = ay->t[ay->first[yi] + ky], yc = (float)gs_block_y(s, Y) + 0.5f;
        uint32_t solid, cloud;
        cell_layer(g, cc, ty, yc, tx, nxs, tz, nzs, &solid, &cloud);
        if (!(solid | cloud)) continue;
        for (int k = 0; k < nzs; k++) {
            s->solid[Y + 1][zs[k] + 1] |= (uint64_t)((solid >> (k * nxs)) & rowmask) << (X0 + 1);
            s->cloud[Y + 1][zs[k] + 1] |= (uint64_t)((cloud >> (k * nxs)) & rowmask) << (X0 + 1);
        }
    }
}

/* Coarse voxels of the chunk at s->lod from the corner grid: bit rows with the apron. */
static void fill_voxels(const WorldGen *g, ChunkScratch *s) {
    const int lod = s->lod, n = s->n;
    AxisSamples ax, ay;
    axis_samples(-1, n, lod, WORLD_CELL_XZ, 2, k_txz, &ax);
    axis_samples(0, s->ny - 1, lod, 0, 3, k_ty, &ay);
    const uint64_t apron = (1ull << (n + 2)) - 1ull;
    memset(s->solid, 0, sizeof s->solid);
    memset(s->cloud, 0, sizeof s->cloud);
    for (int z = 0; z < n + 2; z++) s->solid[0][z] = apron;   /* solid below WORLD_Y_MIN */

    const int ncy = (g->y_top - WORLD_Y_MIN) / WORLD_CELL_Y;
    for (int yi = 0; yi < ncy; yi++) {
        if (!ay.count[yi]) continue;
        for (int zi = 0; zi < s->nx - 1; zi++) {
            int nzs = ax.count[zi];
            if (!nzs) continue;
            const float *tz = &ax.t[ax.first[zi]];
            const int16_t *zs = &ax.idx[ax.first[zi]];
            for (int xi = 0; xi < s->nx - 1; xi++) {
                int nxs = ax.count[xi];
                if (!nxs || !(s->cell_live[yi][zi][xi] & (CELL_ROCK | CELL_CLOUD))) continue;
                CellCorners cc;
                cell_gather(g, s, yi, zi, xi, &cc);
                const float *tx = &ax.t[ax.first[xi]];
                int X0 = ax.idx[ax.first[xi]];
                /* Whole LOD-0 cells get a copy with the sizes fixed, which the compiler unrolls. */
                if (nxs == WORLD_CELL_XZ && nzs == WORLD_CELL_XZ)
                    fill_cell(g, s, &cc, &ay, yi, tx, WORLD_CELL_XZ, X0, tz, WORLD_CELL_XZ, zs);
                else
                    fill_cell(g, s, &cc, &ay, yi, tx, nxs, X0, tz, nzs, zs);
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

/* W6 colour jitter and the home island's location types at the sample columns. */
static void column_colours(const WorldGen *g, ChunkScratch *s) {
    const int32_t bx0 = s->cx * CHUNK_SIZE, bz0 = s->cz * CHUNK_SIZE;
    const NoiseFx fj = g->f_jitter;
    for (int z = 0; z < s->n; z++) {
        int32_t bz = bz0 + z * s->scale + s->off;
        noise_simplex2_row(g->s_jitter, noise_fx_mul_int(fj, bx0 + s->off), noise_fx_mul_int(fj, s->scale),
                           noise_fx_mul_int(fj, bz), s->jitter[z], s->n);
        for (int x = 0; x < s->n; x++)
            s->home_type[z][x] = g->home_k > 0.0f ? gen_home_type(g, bx0 + x * s->scale + s->off, bz) : ISLAND_FIELD_OFF;
    }
}

/* The chunk at `lod` over nx corner columns: corners, voxels, column tops, colours. */
static void chunk_voxels(const WorldGen *g, int32_t cx, int32_t cz, double time_s, int lod, int nx, ChunkScratch *s) {
    gen_chunk_corners(g, cx, cz, time_s, nx, s);
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

void gen_chunk_voxels(const WorldGen *g, int32_t cx, int32_t cz, double time_s, ChunkScratch *s) {
    chunk_voxels(g, cx, cz, time_s, 0, WG_NX0, s);
    s->seams = false;
}

void gen_chunk_voxels_lod(const WorldGen *g, int32_t cx, int32_t cz, double time_s, int lod, ChunkScratch *s) {
    if (lod < 0) lod = 0;
    if (lod > WORLD_LOD_MAX) lod = WORLD_LOD_MAX;
    /* Samples reach block 32 + off, the seam samples of LOD + 1 block 32 + its offset: the
     * corner columns must cover the cell of the farthest. */
    int nx = (CHUNK_SIZE + WORLD_CELL_XZ + WORLD_LOD_OFFSET(lod < WORLD_LOD_MAX ? lod + 1 : lod)) / WORLD_CELL_XZ + 2;
    if (nx < WG_NX0) nx = WG_NX0;
    if (nx > WG_NX) nx = WG_NX;
    chunk_voxels(g, cx, cz, time_s, lod, nx, s);
    s->seams = true;
    gen_mark_sure(g, s);
}

/* ---------------------------------------------------------------- single blocks */
bool gen_sample_solid(const WorldGen *g, const ChunkScratch *s, int x, int y, int z) {
    if (y < WORLD_Y_MIN) return true;
    if (y >= s->y_top) return false;
    int xi = (x + WORLD_CELL_XZ) >> 2, zi = (z + WORLD_CELL_XZ) >> 2, yi = (y - WORLD_Y_MIN) >> 3;
    uint8_t live = s->cell_live[yi][zi][xi];
    if (!(live & CELL_ROCK)) return false;
    if (live & CELL_SURE) return true;
    CellCorners cc;
    cell_gather(g, s, yi, zi, xi, &cc);
    float tx = k_txz[(x + WORLD_CELL_XZ) & 3], tz = k_txz[(z + WORLD_CELL_XZ) & 3];
    uint32_t solid;
    cell_layer(g, &cc, k_ty[(y - WORLD_Y_MIN) & 7], (float)y + 0.5f, &tx, 1, &tz, 1, &solid, NULL);
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
