/* skyisles world: objects (C4) and home-island landmarks, placed in the chunk jobs after the
 * voxels and built into the chunk's opaque mesh as boxes (docs/world-objects.md, "Objects and landmarks").
 *
 * The shapes, flora sets and landmarks are tables (prop_shapes.c). Placement is a pure function of world block coordinates and the seed (integer hashes; the
 * density and cluster maps are the noise module's bit-identical fields, quantised before any
 * comparison), so every chunk that sees an object makes the same decision about it. */
#include "world/props_internal.h"
#include "world/world_internal.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- per-epoch setup */
/* An island's flora per location type and its landmarks. */
void gen_island_init(GenIsland *gi, float sea, const IslandField *h, int64_t ox, int64_t oz) {
    int8_t landmark[ISLAND_FIELD_MAX_TYPES];   /* landmark shape per type, -1: none */
    memset(gi, 0, sizeof *gi);
    gi->f = h;
    gi->on = h && h->size > 0 && h->elevation_dm && h->type;
    gi->sea = sea;
    gi->ox = ox;
    gi->oz = oz;
    memset(gi->flora, -1, sizeof gi->flora);
    memset(landmark, -1, sizeof landmark);
    if (!gi->on) return;
    for (uint32_t t = 0; t < h->n_types && t < ISLAND_FIELD_MAX_TYPES; t++) {
        gi->flora[t] = (int8_t)world_flora_find(h->type_flora[t]);
        landmark[t] = (int8_t)world_landmark_find(h->type_landmark[t]);
    }
    /* Site positions to blocks: metres from the centre map one to one (floor of an exact sum). */
    for (uint32_t i = 0; i < h->n_sites && i < ISLAND_FIELD_MAX_SITES; i++) {
        const IslandFieldSite *st = &h->sites[i];
        if (st->type >= h->n_types || landmark[st->type] < 0) continue;
        GenLandmark *m = &gi->marks[gi->n_marks++];
        float fx = h->centre_x + st->x_m, fz = h->centre_z + st->z_m;
        m->bx = ox + (int64_t)floorf(fx);
        m->bz = oz + (int64_t)floorf(fz);
        m->shape = (uint8_t)landmark[st->type];
    }
}

/* ---------------------------------------------------------------- terrain queries */

/* Solidity of block (x, y, z), chunk-local, at the chunk's LOD: LOD 0 reads the bit rows inside
 * the apron and samples the corner grid beyond it (the same field, bit for bit); a coarse LOD
 * reads its coarse voxel. */
static bool blk_solid(const WorldGen *g, const ChunkScratch *s, int x, int y, int z) {
    if (y < WORLD_Y_MIN) return true;
    if (y >= s->y_top) return false;
    if (s->scale == 1) {
        if (x >= -1 && x <= CHUNK_SIZE && z >= -1 && z <= CHUNK_SIZE) return gs_solid(s, x, y, z);
        return gen_sample_solid(g, s, x, y, z);
    }
    int X = floor_div(x, s->scale), Z = floor_div(z, s->scale), Y = (y - WORLD_Y_MIN) / s->scale;
    if (Y >= s->ny || X < -1 || Z < -1 || X > s->n || Z > s->n) return false;
    return gs_solid(s, X, WORLD_Y_MIN + Y, Z);
}

/* Highest solid LOD-0 block of column (x, z) from the corner grid (x, z in -4..35), or -1. */
static int col_top_sampled(const WorldGen *g, const ChunkScratch *s, int x, int z) {
    int xi = (x + WORLD_CELL_XZ) >> 2, zi = (z + WORLD_CELL_XZ) >> 2;
    for (int y = s->y_top - 1; y >= WORLD_Y_MIN;) {
        int yi = (y - WORLD_Y_MIN) >> 3;
        if (!(s->cell_live[yi][zi][xi] & CELL_ROCK)) {   /* no rock anywhere in this cell */
            y = WORLD_Y_MIN + yi * WORLD_CELL_Y - 1;
            continue;
        }
        if (gen_sample_solid(g, s, x, y, z)) return y;
        y--;
    }
    return -1;
}

/* The ground an object at column (x, z) stands on: the highest solid block (LOD 0), or the top
 * block of the highest solid coarse voxel; -1 when the column is open to the floor. */
static int col_ground(const WorldGen *g, const ChunkScratch *s, int x, int z) {
    if (s->scale == 1) {
        if (x >= -1 && x <= CHUNK_SIZE && z >= -1 && z <= CHUNK_SIZE) {
            int t = s->top[z + 1][x + 1];
            return t < 0 ? -1 : WORLD_Y_MIN + t;
        }
        return col_top_sampled(g, s, x, z);
    }
    int X = floor_div(x, s->scale), Z = floor_div(z, s->scale);
    if (X < -1 || Z < -1 || X > s->n || Z > s->n) return -1;
    int t = s->top[Z + 1][X + 1];
    return t < 0 ? -1 : WORLD_Y_MIN + (t + 1) * s->scale - 1;
}

/* ---------------------------------------------------------------- candidates */
/* The cluster field's floor: below it a cell is in no clump (factor 0). */
#define PROP_CLUSTER_LO 0.25f

/* Candidates: one per PROP_CELL x PROP_CELL cell of world blocks, at a hashed offset in it.
 * Chunk-local cells -2..9 hold every candidate whose footprint can touch the chunk (bases -2..33)
 * and every candidate that can conflict with one of those (bases -6..37). */
#define PROP_CELL_FIRST (-2)

/* The flora set of a candidate: the home island's type where the base is on it, else a biome
 * drawn by its weights (quantised to 1/65536) with hash bits u, so borders dither. */
static int cand_flora(const WorldGen *g, const BiomeSample *b, int64_t bx, int64_t bz, uint32_t u) {
    if (g->isl.on) {
        uint8_t t = gen_home_type(g, bx, bz);
        if (t == WORLD_HOME_PATH) return 0;   /* "none": paths stay clear */
        /* and airstrips with a metre more than any footprint reaches (a footprint turned against
         * the strip reaches 2.83 blocks), and their approach lanes across the island (a tree under
         * a 3-degree glide path would meet the aircraft) */
        if (gen_home_near_strip(g, bx, bz, 2.0f * g->isl.f->radius_m, (float)(PROP_R_MAX + 2))) return 0;
        if (gen_home_water_y(g, bx, bz)) return 0;   /* nor in a lake */
        if (t != ISLAND_FIELD_OFF) {
            int f = t < ISLAND_FIELD_MAX_TYPES ? g->isl.flora[t] : -1;
            if (f >= 0) return f;
        }
    }
    uint32_t acc = 0;
    for (int k = 0; k < BIOME_COUNT; k++) {
        acc += (uint32_t)(b->w[k] * 65536.0f);
        if (u < acc) return prop_biome_flora[k];
    }
    return prop_biome_flora[b->main];
}

/* Is the footprint [x - r, x + r] x [z - r, z + r] within a block of a landmark's footprint
 * (every landmark counts as |x|, |z| <= PROP_LANDMARK_R)? */
bool gen_prop_near_landmark(const WorldGen *g, const int32_t *near, int nnear, int64_t x, int64_t z, int r) {
    const int64_t lr = PROP_LANDMARK_R + 1 + r;
    for (int i = 0; i < nnear; i++) {
        const GenLandmark *m = &g->isl.marks[near[i]];
        if (x - m->bx <= lr && m->bx - x <= lr && z - m->bz <= lr && m->bz - z <= lr) return true;
    }
    return false;
}

/* The candidate of world cell (ci, cj) from the maps at its centre: its base, flora, shape and
 * whether the acceptance hash takes it (alive). Returns the acceptance probability x 65536. */
/* The maps' acceptance factor x 65536 at a cell centre, before the flora: 0 accepts nothing. */
static uint32_t cell_maps(const WorldGen *g, float mapv, float clusv) {
    /* Density map in [0, 1]: 0.7 + 0.9 * fbm, clamped (thin and thick regions). Cluster field:
     * clumps where the simplex field is high, nothing where it is low. */
    float m = 0.7f + 0.9f * mapv;
    m = m < 0.0f ? 0.0f : (m > 1.0f ? 1.0f : m);
    float k = (clusv - PROP_CLUSTER_LO) * 5.0f;
    k = k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
    float p = m * k * g->p.prop_density;
    return p <= 0.0f ? 0u : (p >= 1.0f ? 65536u : (uint32_t)(p * 65536.0f));
}

/* The hash of cell (ci, cj) its candidate is drawn from: the wide cell folded (gen_wide_cell),
 * within +-2^31 cells the 32-bit cell's own hash. */
static inline uint32_t cell_hash(const WorldGen *g, int64_t ci, int64_t cj) {
    return hash3_u32(g->s_props, (int32_t)gen_wide_cell(ci), 0x51, (int32_t)gen_wide_cell(cj));
}

/* The acceptance hash of a cell's candidate (from its cell_hash). */
static inline uint32_t cell_accept_hash(uint32_t h) { return hash_u32(h ^ 0x6a09e667u); }

/* The candidate of cell (ci, cj), hash h (cell_hash), with maps factor pq (cell_maps); b is read
 * only when pq > 0. */
static uint32_t cell_candidate(const WorldGen *g, int64_t ci, int64_t cj, uint32_t h, uint32_t pq, const BiomeSample *b,
                               PropCand *c) {
    c->bx = ci * PROP_CELL + (int64_t)(h & 3u);
    c->bz = cj * PROP_CELL + (int64_t)((h >> 2) & 3u);
    c->alive = 0;
    c->shape = 0;
    c->r = 0;
    if (!pq) return 0;   /* outside the clumps: nothing can be accepted, whatever the flora */
    const FloraSet *fs = &prop_flora[cand_flora(g, b, c->bx, c->bz, (h >> 4) & 0xffffu)];
    uint32_t prob = (uint32_t)(((uint64_t)pq * fs->density) >> 16);
    uint32_t h2 = cell_accept_hash(h);
    /* Accepted with probability density x m x k: an integer comparison of quantised values. */
    if (!fs->n || (h2 & 0xffffu) >= prob) return prob;
    uint32_t total = 0, pick = fs->sp[0].shape;
    for (int q = 0; q < fs->n; q++) total += fs->sp[q].weight;
    uint32_t u = (h2 >> 16) % total;
    for (int q = 0; q < fs->n; q++) {
        if (u < fs->sp[q].weight) {
            pick = fs->sp[q].shape;
            break;
        }
        u -= fs->sp[q].weight;
    }
    c->shape = (uint8_t)pick;
    c->r = prop_objects[pick].r;
    c->key = hash_u32(h2 + 0x3c6ef372u);
    c->tint = (uint8_t)(h2 >> 24);
    c->alive = 1;
    return prob;
}

uint32_t gen_prop_cell(const WorldGen *g, int64_t ci, int64_t cj, PropCand *c) {
    int64_t xc = ci * PROP_CELL + 2, zc = cj * PROP_CELL + 2;
    float mapv = noise_fbm2_w(g->s_pmap, &g->fb_pmap, noise_wide_mul_int(g->f_pmap, xc), noise_wide_mul_int(g->f_pmap, zc));
    float clusv = noise_simplex2_w(g->s_pclus, noise_wide_mul_int(g->f_pclus, xc), noise_wide_mul_int(g->f_pclus, zc));
    uint32_t pq = cell_maps(g, mapv, clusv);
    BiomeSample b;
    if (pq) gen_biome_at(g, xc, zc, &b);
    return cell_candidate(g, ci, cj, cell_hash(g, ci, cj), pq, &b, c);
}

/* The maps at the candidate cells' centres (the same values as gen_prop_cell): the cluster
 * field as one plane, the density map as one plane over the rows and columns that hold a clump
 * cell (cluster factor 0, simplex <= PROP_CLUSTER_LO, accepts nothing; lane i of a row is the
 * field at x0 + i*dx, so a plane holds the row calls' values). The runs [lo[j], hi[j]] of each
 * row's clump cells (lo > hi: none). */
static void props_maps(const WorldGen *g, int64_t ci0, int64_t cj0, float clus[PROP_CELLS][PROP_CELLS],
                       float map[PROP_CELLS][PROP_CELLS], int *lo, int *hi) {
    noise_simplex2_rows_w(g->s_pclus, noise_wide_mul_int(g->f_pclus, ci0 * PROP_CELL + 2), noise_fx_mul_int(g->f_pclus, PROP_CELL),
                          noise_wide_mul_int(g->f_pclus, cj0 * PROP_CELL + 2), noise_fx_mul_int(g->f_pclus, PROP_CELL),
                          &clus[0][0], PROP_CELLS, PROP_CELLS, PROP_CELLS);
    int xlo = PROP_CELLS, xhi = -1, jlo = PROP_CELLS, jhi = -1;
    for (int j = 0; j < PROP_CELLS; j++) {
        int l = 0, h = PROP_CELLS - 1;
        while (l <= h && !(clus[j][l] > PROP_CLUSTER_LO)) l++;
        while (h >= l && !(clus[j][h] > PROP_CLUSTER_LO)) h--;
        lo[j] = l, hi[j] = h;
        if (l > h) continue;
        xlo = l < xlo ? l : xlo, xhi = h > xhi ? h : xhi;
        jlo = j < jlo ? j : jlo, jhi = j;
    }
    if (jlo > jhi) return;
    noise_fbm2_rows_w(g->s_pmap, &g->fb_pmap, noise_wide_mul_int(g->f_pmap, (ci0 + xlo) * PROP_CELL + 2),
                      noise_fx_mul_int(g->f_pmap, PROP_CELL), noise_wide_mul_int(g->f_pmap, (cj0 + jlo) * PROP_CELL + 2),
                      noise_fx_mul_int(g->f_pmap, PROP_CELL), &map[jlo][xlo], PROP_CELLS, xhi - xlo + 1, jhi - jlo + 1);
}

static void props_candidates(const WorldGen *g, ChunkScratch *s, const int32_t *near, int nnear) {
    PropScratch *ps = &s->props;
    const int64_t ci0 = s->cx * (CHUNK_SIZE / PROP_CELL) + PROP_CELL_FIRST, cj0 = s->cz * (CHUNK_SIZE / PROP_CELL) + PROP_CELL_FIRST;
    BiomeSample bio[PROP_CELLS][PROP_CELLS];
    float map[PROP_CELLS][PROP_CELLS], clus[PROP_CELLS][PROP_CELLS];
    int rlo[PROP_CELLS], rhi[PROP_CELLS];
    props_maps(g, ci0, cj0, clus, map, rlo, rhi);
    uint32_t dmax = 0;   /* the densest flora set's density */
    for (int f = 0; f < prop_flora_count; f++) dmax = prop_flora[f].density > dmax ? prop_flora[f].density : dmax;
    uint32_t pq[PROP_CELLS][PROP_CELLS] = {{0}}, h[PROP_CELLS][PROP_CELLS];
    int xlo = PROP_CELLS, xhi = -1, jlo = PROP_CELLS, jhi = -1;
    for (int j = 0; j < PROP_CELLS; j++) {
        int lo = rlo[j], hi = rhi[j];
        for (int i = lo; i <= hi; i++) {
            pq[j][i] = clus[j][i] > PROP_CLUSTER_LO ? cell_maps(g, map[j][i], clus[j][i]) : 0u;
            /* A candidate is accepted when its hash's low 16 bits fall below pq times its flora's
             * density (>> 16); where they reach pq times the densest flora's, no flora the biome
             * could give takes it, so the biome is not read there. */
            if (pq[j][i]) {
                h[j][i] = cell_hash(g, ci0 + i, cj0 + j);
                if ((cell_accept_hash(h[j][i]) & 0xffffu) >= (uint32_t)(((uint64_t)pq[j][i] * dmax) >> 16)) pq[j][i] = 0;
            }
        }
        while (lo <= hi && !pq[j][lo]) lo++;
        while (hi >= lo && !pq[j][hi]) hi--;
        if (lo > hi) continue;
        xlo = lo < xlo ? lo : xlo, xhi = hi > xhi ? hi : xhi;
        jlo = j < jlo ? j : jlo, jhi = j;
    }
    /* The biome over the cells the maps and hashes leave a chance, as one plane (its values are
     * the point query's at the cell centres). */
    if (jlo <= jhi)
        gen_biome_plane(g, (ci0 + xlo) * PROP_CELL + 2, (cj0 + jlo) * PROP_CELL + 2, PROP_CELL, &bio[jlo][xlo], PROP_CELLS,
                        xhi - xlo + 1, jhi - jlo + 1);
    for (int j = 0; j < PROP_CELLS; j++)
        for (int i = 0; i < PROP_CELLS; i++) {
            PropCand *c = &ps->cand[j][i];
            c->alive = 0;   /* a cell the maps leave no chance takes no part (its hash is not needed) */
            if (pq[j][i]) cell_candidate(g, ci0 + i, cj0 + j, h[j][i], pq[j][i], &bio[j][i], c);
            if (c->alive && nnear && gen_prop_near_landmark(g, near, nnear, c->bx, c->bz, c->r)) c->alive = 0;
        }
}

/* ---------------------------------------------------------------- emission */
static void add_box(ChunkScratch *s, const ShapeBox *b, int32_t lx, int32_t by, int32_t lz, int sink, uint8_t tint,
                    uint8_t mat) {
    PropScratch *ps = &s->props;
    int x0 = lx + b->x0, x1 = lx + b->x1, z0 = lz + b->z0, z1 = lz + b->z1;
    int y0 = by + b->y0, y1 = by + b->y1;
    uint8_t faces = 0x3f;
    if (b->y0 == 0) {
        faces &= (uint8_t)~(1u << WORLD_NORMAL_NY);   /* stands on the ground: no bottom */
        y0 -= sink;
    }
    /* Clip to the chunk's columns; a face on a cut is inside the object (its neighbour's part). */
    if (x0 < 0) { x0 = 0; faces &= (uint8_t)~(1u << WORLD_NORMAL_NX); }
    if (z0 < 0) { z0 = 0; faces &= (uint8_t)~(1u << WORLD_NORMAL_NZ); }
    if (x1 > CHUNK_SIZE) { x1 = CHUNK_SIZE; faces &= (uint8_t)~(1u << WORLD_NORMAL_PX); }
    if (z1 > CHUNK_SIZE) { z1 = CHUNK_SIZE; faces &= (uint8_t)~(1u << WORLD_NORMAL_PZ); }
    if (y0 < WORLD_Y_MIN) y0 = WORLD_Y_MIN;
    if (y1 > WORLD_Y_MAX) y1 = WORLD_Y_MAX;
    if (x0 >= x1 || z0 >= z1 || y0 >= y1 || ps->nbox >= PROP_MAX_BOXES) return;
    PropBox *o = &ps->box[ps->nbox++];
    o->x0 = (int16_t)x0; o->x1 = (int16_t)x1;
    o->y0 = (int16_t)y0; o->y1 = (int16_t)y1;
    o->z0 = (int16_t)z0; o->z1 = (int16_t)z1;
    /* A per-object brightness of 88..100% keeps a forest from looking stamped. */
    uint32_t k = 225u + (tint & 31u);
    for (int c = 0; c < 3; c++) o->rgb[c] = (uint8_t)((prop_palette[b->col][c] * k) >> 8);
    o->faces = faces;
    o->mat = mat;
}

static void record(ChunkScratch *s, int64_t bx, int32_t by, int64_t bz, uint8_t shape, bool landmark) {
    PropScratch *ps = &s->props;
    if (ps->nplaced >= PROP_MAX_PLACED) return;
    PropPlaced *p = &ps->placed[ps->nplaced++];
    p->bx = bx;
    p->by = by;
    p->bz = bz;
    p->shape = shape;
    p->landmark = landmark;
    int64_t lx = bx - s->cx * CHUNK_SIZE, lz = bz - s->cz * CHUNK_SIZE;
    p->own = lx >= 0 && lz >= 0 && lx < CHUNK_SIZE && lz < CHUNK_SIZE;
}

/* The terrain test of an object at chunk-local base column (lx, lz): ground under the base (and
 * under every box that starts at the ground), every block it takes is air. The boxes are the
 * shape's, or its far boxes at LOD 1 and 2. Returns the base height or -1. */
typedef struct FitCtx { const WorldGen *g; const ChunkScratch *s; } FitCtx;
static bool fit_solid(void *ctx, int64_t x, int32_t y, int64_t z) {   /* chunk-local: small */
    const FitCtx *f = ctx;
    return blk_solid(f->g, f->s, (int)x, y, (int)z);
}

static int object_fits(const WorldGen *g, const ChunkScratch *s, const PropShape *sh, int nbox, int lx, int lz) {
    int gy = col_ground(g, s, lx, lz);
    if (gy < 0 || (float)gy < g->p.bedrock_level + 1.0f) return -1;   /* not on the abyss floor */
    FitCtx f = {g, s};
    return gen_prop_fits(sh, nbox, lx, gy + 1, lz, s->y_top, fit_solid, &f) ? gy + 1 : -1;
}

_Static_assert(2 * PROP_R_MAX < PROP_CELL + 1, "the hard core's neighbour ring");
_Static_assert(PROP_CELLS * PROP_CELLS <= GEN_BIOME_PLANE_MAX, "the candidates' biome plane");
void gen_props(const WorldGen *g, ChunkScratch *s) {
    PropScratch *ps = &s->props;
    ps->nbox = 0;
    ps->nplaced = 0;
    ps->objects = 0;
    ps->landmarks = 0;
    const int64_t bx0 = s->cx * CHUNK_SIZE, bz0 = s->cz * CHUNK_SIZE;
    /* Landmarks near the chunk: those whose footprint (plus a block, plus an object's reach)
     * can touch it. */
    int32_t near[ISLAND_FIELD_MAX_SITES];
    int nnear = 0;
    const int reach = PROP_LANDMARK_R + 2 + 2 * PROP_R_MAX + 4;
    for (uint32_t i = 0; i < g->isl.n_marks; i++) {
        int64_t lx = g->isl.marks[i].bx - bx0, lz = g->isl.marks[i].bz - bz0;
        if (lx >= -reach && lz >= -reach && lx < CHUNK_SIZE + reach && lz < CHUNK_SIZE + reach) near[nnear++] = (int32_t)i;
    }
    /* Landmarks at every LOD, each chunk its part: the base is the LOD-0 ground at the site's
     * column, sampled from the corner grid, which every chunk the landmark touches covers. */
    for (int i = 0; i < nnear; i++) {
        const GenLandmark *m = &g->isl.marks[near[i]];
        const PropShape *sh = &prop_landmarks[m->shape];
        int32_t lx = (int32_t)(m->bx - bx0), lz = (int32_t)(m->bz - bz0);   /* near: small */
        if (lx + PROP_LANDMARK_R < 0 || lz + PROP_LANDMARK_R < 0 || lx - PROP_LANDMARK_R >= CHUNK_SIZE ||
            lz - PROP_LANDMARK_R >= CHUNK_SIZE)
            continue;
        int gy = col_top_sampled(g, s, lx, lz);
        if (gy < 0) continue;
        for (int b = 0; b < sh->nbox; b++) add_box(s, &sh->box[b], lx, gy + 1, lz, PROP_SINK, 0xff, WORLD_MAT_LANDMARK);
        record(s, m->bx, gy + 1, m->bz, m->shape, true);
        ps->landmarks++;
    }
    /* Objects: not at LOD 3; at LOD 1 and 2 only shapes with a far form. */
    if (s->lod >= 3 || !(g->p.prop_density > 0.0f)) return;
    props_candidates(g, s, near, nnear);
    for (int j = 0; j < PROP_CELLS; j++)
        for (int i = 0; i < PROP_CELLS; i++) {
            PropCand *c = &ps->cand[j][i];
            if (!c->alive) continue;
            int32_t lx = (int32_t)(c->bx - bx0), lz = (int32_t)(c->bz - bz0), r = c->r;   /* cells -2..9: small */
            if (lx + r < 0 || lz + r < 0 || lx - r >= CHUNK_SIZE || lz - r >= CHUNK_SIZE) continue;
            const PropShape *sh = &prop_objects[c->shape];
            int nbox = s->lod == 0 ? sh->nbox : sh->far;
            if (!nbox) continue;
            /* Hard core among candidates: the one with the highest key keeps a footprint. Cells two
             * apart hold bases at least 2 * PROP_CELL - (PROP_CELL - 1) = 5 blocks apart, more than
             * two footprints reach (2 * PROP_R_MAX): the ring of eight neighbours decides (as the
             * collision's object query, props_solid.c). */
            bool beaten = false;
            for (int dj = -1; dj <= 1 && !beaten; dj++)
                for (int di = -1; di <= 1 && !beaten; di++) {
                    int jj = j + dj, ii = i + di;
                    if ((!di && !dj) || jj < 0 || ii < 0 || jj >= PROP_CELLS || ii >= PROP_CELLS) continue;
                    const PropCand *o = &ps->cand[jj][ii];
                    if (!o->alive) continue;
                    if (gen_prop_takes(o, c)) beaten = true;
                }
            if (beaten) continue;
            int by = object_fits(g, s, sh, nbox, lx, lz);
            if (by < 0) continue;
            for (int b = 0; b < nbox; b++) add_box(s, &sh->box[b], lx, by, lz, 0, c->tint, WORLD_MAT_PROP);
            record(s, c->bx, by, c->bz, c->shape, false);
            ps->objects++;
        }
}

/* Blocks of placed object p (world coordinates) at LOD lod: calls fn per box (tests). */
void gen_prop_boxes(const PropPlaced *p, int lod, void (*fn)(void *ctx, int64_t x0, int64_t y0, int64_t z0, int64_t x1,
                                                             int64_t y1, int64_t z1),
                    void *ctx) {
    const PropShape *sh = p->landmark ? &prop_landmarks[p->shape] : &prop_objects[p->shape];
    int nbox = p->landmark || lod == 0 ? sh->nbox : sh->far;
    for (int b = 0; b < nbox; b++) {
        const ShapeBox *bb = &sh->box[b];
        fn(ctx, p->bx + bb->x0, p->by + bb->y0, p->bz + bb->z0, p->bx + bb->x1, p->by + bb->y1, p->bz + bb->z1);
    }
}
