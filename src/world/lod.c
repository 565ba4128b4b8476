/* skyisles world: level of detail beyond the voxels (voxels.c fills every LOD): the cells proven
 * solid, and the field samples that decide seam faces on chunk borders. */
#include "world/world_internal.h"

#include <string.h>

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
void gen_mark_sure(const WorldGen *g, ChunkScratch *s) {
    const int ncy = (s->y_top - WORLD_Y_MIN) / WORLD_CELL_Y;
    for (int yi = 0; yi < ncy; yi++) {
        float yt = (float)(WORLD_Y_MIN + yi * WORLD_CELL_Y + WORLD_CELL_Y - 1) + 0.5f;
        float lift = gen_lift(g, yt);
        bool carve_layer = g->ncaves > 0 && yt >= g->p.cave_min_y;
        for (int zi = 0; zi < s->nx - 1; zi++)
            for (int xi = 0; xi < s->nx - 1; xi++) {
                uint8_t *live = &s->cell_live[yi][zi][xi];
                if (!(*live & CELL_ROCK)) continue;
                float c[2][2][2], dlo, dhi, ilo, ihi;
                gen_gather(s, WF_D, yi, zi, xi, c);
                minmax8(c, &dlo, &dhi);
                gen_gather(s, WF_I, yi, zi, xi, c);
                minmax8(c, &ilo, &ihi);
                if (!(dlo + lift > WG_MARGIN || ilo > WG_MARGIN)) continue;
                bool sure = true;
                if (carve_layer) {
                    float lo[WG_CAVE_FIELDS], hi[WG_CAVE_FIELDS];
                    for (uint32_t f = 0; f < g->ncave_fields; f++) {
                        gen_gather(s, WF_CAVE + (int)f, yi, zi, xi, c);
                        minmax8(c, &lo[f], &hi[f]);
                    }
                    sure = gen_caves_never_carve(g, lo, hi);
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
