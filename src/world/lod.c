/* skyisles world: level-of-detail voxels. Coarse voxels sampled from the same corner grid with
 * the same float operations as LOD 0, and the field samples that decide seam faces at borders. */
#include "world/world_internal.h"

#include <string.h>

static const float k_txz[WORLD_CELL_XZ] = {0.125f, 0.375f, 0.625f, 0.875f};
static const float k_ty[WORLD_CELL_Y] = {0.0625f, 0.1875f, 0.3125f, 0.4375f, 0.5625f, 0.6875f, 0.8125f, 0.9375f};

static void gather(const ChunkScratch *s, int f, int yi, int zi, int xi, float c[2][2][2]) {
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            c[a][b][0] = s->corner[f][yi + a][zi + b][xi];
            c[a][b][1] = s->corner[f][yi + a][zi + b][xi + 1];
        }
}

/* ---------------------------------------------------------------- single blocks */
bool gen_sample_solid(const WorldGen *g, const ChunkScratch *s, int x, int y, int z) {
    if (y < WORLD_Y_MIN) return true;
    if (y >= s->y_top) return false;
    int xi = (x + WORLD_CELL_XZ) >> 2, zi = (z + WORLD_CELL_XZ) >> 2, yi = (y - WORLD_Y_MIN) >> 3;
    uint8_t live = s->cell_live[yi][zi][xi];
    if (!(live & CELL_ROCK)) return false;
    if (live & CELL_SURE) return true;
    float tx = k_txz[(x + WORLD_CELL_XZ) & 3], tz = k_txz[(z + WORLD_CELL_XZ) & 3];
    float ty = k_ty[(y - WORLD_Y_MIN) & 7], yc = (float)y + 0.5f;
    float c[2][2][2];
    gather(s, WF_D, yi, zi, xi, c);
    float d = wtrilerp(c, tx, ty, tz);
    gather(s, WF_I, yi, zi, xi, c);
    float v = gen_terrain(g, d, wtrilerp(c, tx, ty, tz), yc);
    if (!(v > 0.0f)) return false;
    if (!gen_caves_apply(g, v, yc)) return true;
    float fa = 0.0f, fb = 0.0f, fc = 0.0f, fw = 0.0f;
    if (g->tubes) {
        gather(s, WF_A, yi, zi, xi, c);
        fa = wtrilerp(c, tx, ty, tz);
        gather(s, WF_B, yi, zi, xi, c);
        fb = wtrilerp(c, tx, ty, tz);
    }
    if (g->cheese) { gather(s, WF_C, yi, zi, xi, c); fc = wtrilerp(c, tx, ty, tz); }
    if (g->worms) { gather(s, WF_W, yi, zi, xi, c); fw = wtrilerp(c, tx, ty, tz); }
    return gen_carve(g, v, fa, fb, fc, fw) > 0.0f;
}

static void minmax8(const float c[2][2][2], float *lo, float *hi) {
    const float *p = &c[0][0][0];
    float a = p[0], b = p[0];
    for (int i = 1; i < 8; i++) {
        if (p[i] < a) a = p[i];
        if (p[i] > b) b = p[i];
    }
    *lo = a;
    *hi = b;
}

/* CELL_SURE where the corner bounds prove every voxel solid: interpolation stays inside the
 * corners' range, -y and bedrock are smallest at the cell's top voxel centre, and a cave field
 * that stays clear of its carving range cannot carve. Only a shortcut for seam sampling: a
 * cell left unmarked is sampled exactly. */
static void mark_sure(const WorldGen *g, ChunkScratch *s) {
    const int ncy = (s->y_top - WORLD_Y_MIN) / WORLD_CELL_Y;
    const float m = 1e-3f;
    for (int yi = 0; yi < ncy; yi++) {
        float yt = (float)(WORLD_Y_MIN + yi * WORLD_CELL_Y + WORLD_CELL_Y - 1) + 0.5f;
        float lift = -yt;
        if (yt < g->p.bedrock_level) {
            float t = g->p.bedrock_level - yt;
            lift = lift + t * t * g->p.bedrock_strength;
        }
        bool carve_layer = (g->tubes || g->cheese || g->worms) && yt >= g->p.cave_min_y;
        for (int zi = 0; zi < s->nx - 1; zi++)
            for (int xi = 0; xi < s->nx - 1; xi++) {
                uint8_t *live = &s->cell_live[yi][zi][xi];
                if (!(*live & CELL_ROCK)) continue;
                float c[2][2][2], dlo, dhi, ilo, ihi;
                gather(s, WF_D, yi, zi, xi, c);
                minmax8(c, &dlo, &dhi);
                gather(s, WF_I, yi, zi, xi, c);
                minmax8(c, &ilo, &ihi);
                if (!(dlo + lift > WG_MARGIN || ilo > WG_MARGIN)) continue;
                bool sure = true;
                if (carve_layer) {
                    float lo, hi;
                    if (g->tubes) {
                        float r = g->p.tube_radius * 1.01f + m;
                        gather(s, WF_A, yi, zi, xi, c);
                        minmax8(c, &lo, &hi);
                        bool clear = lo > r || hi < -r;
                        if (!clear) {
                            gather(s, WF_B, yi, zi, xi, c);
                            minmax8(c, &lo, &hi);
                            clear = lo > r || hi < -r;
                        }
                        sure = sure && clear;
                    }
                    if (sure && g->cheese) {
                        gather(s, WF_C, yi, zi, xi, c);
                        minmax8(c, &lo, &hi);
                        sure = hi < g->p.cheese_threshold - m;
                    }
                    if (sure && g->worms) {
                        gather(s, WF_W, yi, zi, xi, c);
                        minmax8(c, &lo, &hi);
                        float k = 1.0f - g->p.worm_threshold + m;
                        sure = lo > k || hi < -k;
                    }
                }
                if (sure) *live |= CELL_SURE;
            }
    }
}

/* ---------------------------------------------------------------- seams */
/* Block coordinate (chunk-local) of the sample of coarse index i at LOD m. */
static inline int sample_at(int m, int i) { return i * WORLD_LOD_SCALE(m) + WORLD_LOD_OFFSET(m); }

static inline int floor_div_pow2(int v, int m) { return v >= 0 ? v >> m : -((-v + WORLD_LOD_SCALE(m) - 1) >> m); }

/* Is the neighbour's border layer at LOD m solid over the block rectangle [y0, y0 + n) x
 * [t0, t0 + n) of the plane? Its voxels there sample the block column just across the border. */
static bool neighbour_solid(const WorldGen *g, ChunkScratch *s, int normal, int m, int y0, int t0, int nb) {
    int across;
    if (normal == WORLD_NORMAL_PX || normal == WORLD_NORMAL_PZ) across = CHUNK_SIZE + WORLD_LOD_OFFSET(m);
    else across = -WORLD_LOD_SCALE(m) + WORLD_LOD_OFFSET(m);
    int ya = floor_div_pow2(y0 - WORLD_Y_MIN, m), yb = floor_div_pow2(y0 - WORLD_Y_MIN + nb - 1, m);
    int ta = floor_div_pow2(t0, m), tb = floor_div_pow2(t0 + nb - 1, m);
    for (int Y = ya; Y <= yb; Y++)
        for (int T = ta; T <= tb; T++) {
            int y = WORLD_Y_MIN + sample_at(m, Y), t = sample_at(m, T);
            s->seam_samples++;
            bool solid = (normal == WORLD_NORMAL_PX || normal == WORLD_NORMAL_NX) ? gen_sample_solid(g, s, across, y, t)
                                                                                 : gen_sample_solid(g, s, t, y, across);
            if (!solid) return false;
        }
    return true;
}

bool gen_seam_covered(const WorldGen *g, ChunkScratch *s, int normal, int Y, int t) {
    int n = s->lod, sc = s->scale;
    int y0 = WORLD_Y_MIN + Y * sc, t0 = t * sc;
    if (n > 0 && !neighbour_solid(g, s, normal, n - 1, y0, t0, sc)) return false;
    if (n < WORLD_LOD_MAX && !neighbour_solid(g, s, normal, n + 1, y0, t0, sc)) return false;
    return true;
}

/* ---------------------------------------------------------------- coarse voxels */
/* The samples of one axis: for coarse index i (-1..n), block b = s*i + off falls in corner
 * cell (b + 4) / 4 at offset (b + 4) % 4. Lists per cell, in index order. */
typedef struct AxisSamples {
    int8_t first[WG_NX], count[WG_NX];
    int8_t idx[CHUNK_SIZE + 2], ofs[CHUNK_SIZE + 2];
} AxisSamples;

static void axis_samples(int lod, int n, AxisSamples *a) {
    memset(a, 0, sizeof *a);
    int k = 0;
    for (int i = -1; i <= n; i++) {
        int b = sample_at(lod, i) + WORLD_CELL_XZ;
        int cell = b >> 2;
        if (a->count[cell] == 0) a->first[cell] = (int8_t)k;
        a->count[cell]++;
        a->idx[k] = (int8_t)i;
        a->ofs[k] = (int8_t)(b & 3);
        k++;
    }
}

void gen_chunk_voxels_lod(const WorldGen *g, int32_t cx, int32_t cz, double time_s, int lod, ChunkScratch *s) {
    if (lod <= 0) {
        gen_chunk_voxels(g, cx, cz, time_s, s);
        s->seams = true;
        mark_sure(g, s);
        return;
    }
    if (lod > WORLD_LOD_MAX) lod = WORLD_LOD_MAX;
    const int sc = WORLD_LOD_SCALE(lod), off = WORLD_LOD_OFFSET(lod);
    const int n = CHUNK_SIZE / sc, ny = (g->y_top - WORLD_Y_MIN) / sc;
    const int32_t bx0 = cx * CHUNK_SIZE, bz0 = cz * CHUNK_SIZE;
    /* Samples reach block 32 + off, the seam samples of LOD + 1 block 32 + its offset: the
     * corner columns must cover the cell of the farthest. */
    int nx = (CHUNK_SIZE + WORLD_CELL_XZ + WORLD_LOD_OFFSET(lod < WORLD_LOD_MAX ? lod + 1 : lod)) / WORLD_CELL_XZ + 2;
    if (nx < WG_NX0) nx = WG_NX0;
    if (nx > WG_NX) nx = WG_NX;
    gen_chunk_corners(g, cx, cz, time_s, nx, s);
    s->lod = lod;
    s->scale = sc;
    s->off = off;
    s->n = n;
    s->ny = ny;
    s->seams = true;
    s->seam_samples = 0;

    AxisSamples ax;
    axis_samples(lod, n, &ax);
    const uint64_t apron = (1ull << (n + 2)) - 1ull;
    memset(s->solid, 0, sizeof s->solid);
    memset(s->cloud, 0, sizeof s->cloud);
    for (int z = 0; z < n + 2; z++) s->solid[0][z] = apron;

    const int ncy = (g->y_top - WORLD_Y_MIN) / WORLD_CELL_Y;
    for (int yi = 0; yi < ncy; yi++) {
        /* Coarse layers whose sample lies in this cell layer. */
        int Ya = (yi * WORLD_CELL_Y - off + sc - 1) / sc, Yb = (yi * WORLD_CELL_Y + WORLD_CELL_Y - 1 - off) / sc;
        if (yi * WORLD_CELL_Y - off < 0) Ya = 0;
        if (Yb >= ny) Yb = ny - 1;
        if (Ya > Yb) continue;
        for (int zi = 0; zi < nx - 1; zi++) {
            if (!ax.count[zi]) continue;
            for (int xi = 0; xi < nx - 1; xi++) {
                if (!ax.count[xi]) continue;
                uint8_t live = s->cell_live[yi][zi][xi];
                if (!(live & (CELL_ROCK | CELL_CLOUD))) continue;
                float cd[2][2][2], ci[2][2][2], ca[2][2][2], cb[2][2][2], cc[2][2][2], cw[2][2][2], ck[2][2][2];
                gather(s, WF_D, yi, zi, xi, cd);
                gather(s, WF_I, yi, zi, xi, ci);
                bool cave_cell = (live & CELL_ROCK) && s->row_need[yi][zi];
                if (cave_cell) {
                    if (g->tubes) { gather(s, WF_A, yi, zi, xi, ca); gather(s, WF_B, yi, zi, xi, cb); }
                    if (g->cheese) gather(s, WF_C, yi, zi, xi, cc);
                    if (g->worms) gather(s, WF_W, yi, zi, xi, cw);
                }
                if (live & CELL_CLOUD) gather(s, WF_K, yi, zi, xi, ck);
                for (int Y = Ya; Y <= Yb; Y++) {
                    int y = WORLD_Y_MIN + sample_at(lod, Y);
                    float ty = k_ty[(y - WORLD_Y_MIN) & 7], yc = (float)y + 0.5f;
                    float w = (live & CELL_CLOUD) ? gen_cloud_weight(g, yc) : 0.0f;
                    for (int kz = 0; kz < ax.count[zi]; kz++) {
                        int Z = ax.idx[ax.first[zi] + kz];
                        float tz = k_txz[ax.ofs[ax.first[zi] + kz]];
                        uint64_t srow = 0, crow = 0;
                        for (int kx = 0; kx < ax.count[xi]; kx++) {
                            int X = ax.idx[ax.first[xi] + kx];
                            float tx = k_txz[ax.ofs[ax.first[xi] + kx]];
                            bool rock = false, solid = false;
                            if (live & CELL_ROCK) {
                                float v = gen_terrain(g, wtrilerp(cd, tx, ty, tz), wtrilerp(ci, tx, ty, tz), yc);
                                rock = v > 0.0f;
                                solid = rock;
                                if (rock && cave_cell && gen_caves_apply(g, v, yc)) {
                                    float fa = 0.0f, fb = 0.0f, fc = 0.0f, fw = 0.0f;
                                    if (g->tubes) { fa = wtrilerp(ca, tx, ty, tz); fb = wtrilerp(cb, tx, ty, tz); }
                                    if (g->cheese) fc = wtrilerp(cc, tx, ty, tz);
                                    if (g->worms) fw = wtrilerp(cw, tx, ty, tz);
                                    solid = gen_carve(g, v, fa, fb, fc, fw) > 0.0f;
                                }
                            }
                            if (solid) srow |= 1ull << (X + 1);
                            else if (!rock && w > 0.0f && wtrilerp(ck, tx, ty, tz) * w > g->p.cloud_threshold)
                                crow |= 1ull << (X + 1);
                        }
                        s->solid[Y + 1][Z + 1] |= srow;
                        s->cloud[Y + 1][Z + 1] |= crow;
                    }
                }
            }
        }
    }

    /* Highest solid coarse layer per column (pseudo-AO sky occlusion). */
    uint64_t seen[WV_ROW];
    memset(seen, 0, sizeof seen);
    for (int z = 0; z < WV_ROW; z++)
        for (int x = 0; x < WV_ROW; x++) s->top[z][x] = -1;
    for (int Y = ny - 1; Y >= 0; Y--) {
        const uint64_t *row = s->solid[Y + 1];
        for (int z = 0; z < n + 2; z++) {
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

    /* W6 jitter and home island types at the sample columns. */
    NoiseFx fj = g->f_jitter;
    for (int z = 0; z < n; z++) {
        int bz = bz0 + sample_at(lod, z);
        noise_simplex2_row(g->s_jitter, noise_fx_mul_int(fj, bx0 + off), noise_fx_mul_int(fj, sc), noise_fx_mul_int(fj, bz),
                           s->jitter[z], n);
        for (int x = 0; x < n; x++)
            s->home_type[z][x] = g->home_k > 0.0f ? gen_home_type(g, bx0 + sample_at(lod, x), bz) : ISLAND_FIELD_OFF;
    }
    mark_sure(g, s);
}
