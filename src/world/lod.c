/* skyisles world: level of detail beyond the voxels (voxels.c fills every LOD and marks the cells
 * proven solid): the field samples that decide seam faces on chunk borders. */
#include "world/world_internal.h"

#include <string.h>

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
