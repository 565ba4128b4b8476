/* skyisles world: chunk voxelisation. Batched noise rows on the coarse grid, provably empty
 * cells skipped, other voxels interpolated exactly as gen_density_point: bit rows with apron. */
#include "world/world_internal.h"

#include <string.h>

#define APRON_BITS ((1ull << WV_ROW) - 1ull)

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

/* The 16 voxel values of one y level of a cell, in wtrilerp's order (y on the corner
 * columns, then x, then z) and so bit-identical to it: out[k * 4 + i], z offset k, x offset i. */
static inline void cell_level(const float c[2][2][2], float ty, float out[16]) {
    float y00 = wlerp(c[0][0][0], c[1][0][0], ty);
    float y10 = wlerp(c[0][0][1], c[1][0][1], ty);
    float y01 = wlerp(c[0][1][0], c[1][1][0], ty);
    float y11 = wlerp(c[0][1][1], c[1][1][1], ty);
    float x0[4], x1[4];
    for (int i = 0; i < 4; i++) {
        x0[i] = wlerp(y00, y10, k_txz[i]);
        x1[i] = wlerp(y01, y11, k_txz[i]);
    }
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 4; i++) out[k * 4 + i] = wlerp(x0[i], x1[i], k_txz[k]);
}

static float max8(const float c[2][2][2]) {
    float m = c[0][0][0];
    const float *p = &c[0][0][0];
    for (int i = 1; i < 8; i++)
        if (p[i] > m) m = p[i];
    return m;
}

static void gather(const ChunkScratch *s, int f, int yi, int zi, int xi, float c[2][2][2]) {
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            c[a][b][0] = s->corner[f][yi + a][zi + b][xi];
            c[a][b][1] = s->corner[f][yi + a][zi + b][xi + 1];
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
    bool any_caves = g->tubes || g->cheese || g->worms;
    for (int yi = 0; yi < ncy; yi++) {
        float yb = (float)(WORLD_Y_MIN + yi * WORLD_CELL_Y) + 0.5f;
        float lift = -yb;
        if (yb < g->p.bedrock_level) {
            float t = g->p.bedrock_level - yb;
            lift = lift + t * t * g->p.bedrock_strength;
        }
        bool band = layer_in_band(g, yi);
        bool cave_layer = any_caves && (float)(WORLD_Y_MIN + (yi + 1) * WORLD_CELL_Y) > g->p.cave_min_y;
        for (int zi = 0; zi < nx - 1; zi++)
            for (int xi = 0; xi < nx - 1; xi++) {
                float c[2][2][2];
                gather(s, WF_D, yi, zi, xi, c);
                float dmax = max8(c) + lift;
                gather(s, WF_I, yi, zi, xi, c);
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
            if (g->tubes) {
                NoiseFx x0 = noise_fx_mul_int(g->f_tube, X0), dx = noise_fx_mul_int(g->f_tube, WORLD_CELL_XZ);
                NoiseFx py = noise_fx_mul_int(g->f_tube_y, Y), pz = noise_fx_mul_int(g->f_tube, Z);
                noise_simplex3_row(g->s_tube_a, x0, dx, py, pz, s->corner[WF_A][yi][zi], nx);
                noise_simplex3_row(g->s_tube_b, x0, dx, py, pz, s->corner[WF_B][yi][zi], nx);
            }
            if (g->cheese)
                noise_simplex3_row(g->s_cheese, noise_fx_mul_int(g->f_cheese, X0),
                                   noise_fx_mul_int(g->f_cheese, WORLD_CELL_XZ), noise_fx_mul_int(g->f_cheese, Y),
                                   noise_fx_mul_int(g->f_cheese, Z), s->corner[WF_C][yi][zi], nx);
            if (g->worms)
                noise_simplex3_row(g->s_worm, noise_fx_mul_int(g->f_worm, X0), noise_fx_mul_int(g->f_worm, WORLD_CELL_XZ),
                                   noise_fx_mul_int(g->f_worm, Y), noise_fx_mul_int(g->f_worm, Z),
                                   s->corner[WF_W][yi][zi], nx);
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

void gen_chunk_voxels(const WorldGen *g, int32_t cx, int32_t cz, double time_s, ChunkScratch *s) {
    const int32_t bx0 = cx * CHUNK_SIZE, bz0 = cz * CHUNK_SIZE;
    const int ncy = (g->y_top - WORLD_Y_MIN) / WORLD_CELL_Y;   /* cell layers */
    gen_chunk_corners(g, cx, cz, time_s, WG_NX0, s);
    s->lod = 0;
    s->scale = 1;
    s->off = 0;
    s->n = CHUNK_SIZE;
    s->ny = g->y_top - WORLD_Y_MIN;
    s->seams = false;
    s->seam_samples = 0;


    /* Voxels. Layer 0 of the arrays is the solid apron below WORLD_Y_MIN. */
    memset(s->solid, 0, sizeof s->solid);
    memset(s->cloud, 0, sizeof s->cloud);
    for (int z = 0; z < WV_ROW; z++) s->solid[0][z] = APRON_BITS;
    for (int yi = 0; yi < ncy; yi++) {
        int32_t Yb = WORLD_Y_MIN + yi * WORLD_CELL_Y;
        for (int zi = 0; zi < WG_NX0 - 1; zi++) {
            int lz0 = (zi - 1) * WORLD_CELL_XZ;
            for (int xi = 0; xi < WG_NX0 - 1; xi++) {
                uint8_t live = s->cell_live[yi][zi][xi];
                if (!live) continue;
                int shift = (xi - 1) * WORLD_CELL_XZ + 1;   /* bit of the cell's first x */
                float cd[2][2][2], ci[2][2][2], ca[2][2][2], cb[2][2][2], cc[2][2][2], cw[2][2][2], ck[2][2][2];
                gather(s, WF_D, yi, zi, xi, cd);
                gather(s, WF_I, yi, zi, xi, ci);
                bool cave_cell = (live & 1) && s->row_need[yi][zi];
                if (cave_cell) {
                    if (g->tubes) { gather(s, WF_A, yi, zi, xi, ca); gather(s, WF_B, yi, zi, xi, cb); }
                    if (g->cheese) gather(s, WF_C, yi, zi, xi, cc);
                    if (g->worms) gather(s, WF_W, yi, zi, xi, cw);
                }
                if (live & 2) gather(s, WF_K, yi, zi, xi, ck);
                for (int j = 0; j < WORLD_CELL_Y; j++) {
                    int32_t y = Yb + j;
                    float yc = (float)y + 0.5f;
                    float ty = k_ty[j];
                    uint32_t rock = 0, solid = 0, cloud = 0;
                    if (live & 1) {
                        float dv[16], iv[16], v[16];
                        cell_level(cd, ty, dv);
                        cell_level(ci, ty, iv);
                        for (int n = 0; n < 16; n++) {
                            v[n] = gen_terrain(g, dv[n], iv[n], yc);
                            rock |= (uint32_t)(v[n] > 0.0f) << n;
                        }
                        solid = rock;
                        if (rock && cave_cell && gen_caves_apply(g, 1.0f, yc)) {
                            float av[16] = {0}, bv[16] = {0}, cv[16] = {0}, wv[16] = {0};
                            if (g->tubes) { cell_level(ca, ty, av); cell_level(cb, ty, bv); }
                            if (g->cheese) cell_level(cc, ty, cv);
                            if (g->worms) cell_level(cw, ty, wv);
                            for (int n = 0; n < 16; n++)
                                if ((rock >> n) & 1u)
                                    if (!(gen_carve(g, v[n], av[n], bv[n], cv[n], wv[n]) > 0.0f)) solid &= ~(1u << n);
                        }
                    }
                    if (live & 2) {
                        float w = gen_cloud_weight(g, yc);
                        if (w > 0.0f) {
                            float kv[16];
                            cell_level(ck, ty, kv);
                            for (int n = 0; n < 16; n++)
                                if (!((rock >> n) & 1u) && kv[n] * w > g->p.cloud_threshold) cloud |= 1u << n;
                        }
                    }
                    if (!(solid | cloud)) continue;
                    uint64_t *srow = s->solid[y - WORLD_Y_MIN + 1];
                    uint64_t *crow = s->cloud[y - WORLD_Y_MIN + 1];
                    for (int k = 0; k < WORLD_CELL_XZ; k++) {
                        int lz = lz0 + k;
                        if (lz < -1 || lz > CHUNK_SIZE) continue;
                        uint64_t sn = (solid >> (k * 4)) & 15u, cn = (cloud >> (k * 4)) & 15u;
                        if (shift >= 0) { sn <<= shift; cn <<= shift; }
                        else { sn >>= -shift; cn >>= -shift; }
                        srow[lz + 1] |= sn & APRON_BITS;
                        crow[lz + 1] |= cn & APRON_BITS;
                    }
                }
            }
        }
    }

    /* Highest solid voxel per column (sky occlusion for the pseudo-AO). */
    uint64_t seen[WV_ROW];
    memset(seen, 0, sizeof seen);
    for (int z = 0; z < WV_ROW; z++)
        for (int x = 0; x < WV_ROW; x++) s->top[z][x] = -1;
    for (int y = g->y_top - 1; y >= WORLD_Y_MIN; y--) {
        const uint64_t *row = s->solid[y - WORLD_Y_MIN + 1];
        for (int z = 0; z < WV_ROW; z++) {
            uint64_t nb = row[z] & ~seen[z];
            if (!nb) continue;
            seen[z] |= nb;
            while (nb) {
                int b = __builtin_ctzll(nb);
                nb &= nb - 1;
                s->top[z][b] = (int16_t)(y - WORLD_Y_MIN);
            }
        }
    }

    /* W6 colour jitter per interior column, and the home island's location types. */
    NoiseFx fj = g->f_jitter;
    for (int z = 0; z < CHUNK_SIZE; z++) {
        noise_simplex2_row(g->s_jitter, noise_fx_mul_int(fj, bx0), noise_fx_mul_int(fj, 1), noise_fx_mul_int(fj, bz0 + z),
                           s->jitter[z], CHUNK_SIZE);
        for (int x = 0; x < CHUNK_SIZE; x++)
            s->home_type[z][x] = g->home_k > 0.0f ? gen_home_type(g, bx0 + x, bz0 + z) : ISLAND_FIELD_OFF;
    }
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
