/* skyisles world: pools in caves (seed 004's underground lakes). A region's runs of layers that
 * hold water are found by one rule on the region's layers of "not rock" bits (world_internal.h,
 * POOL_REGION): the chunk reads the bits from its LOD-0 fill, the point query (gen_water_top,
 * collision) from the field at the same blocks, so both see the same water. */
#include "world/world_internal.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#define PR POOL_REGION
#define PF_N (PR / WORLD_CELL_XZ + 1)    /* corner columns per axis of a region */
#define RING_BITS ((PoolRow)(1u | 1u << (PR - 1)))
#define ROW_ALL ((PoolRow)((1u << PR) - 1u))

/* ---------------------------------------------------------------- the rule on a region's layers */
/* a[z] bit x: block (x, z) of the region is not rock. The basin of a layer: its air less what
 * reaches the region's outer ring through air of the layer (a flood over the rows). */
/* o grown along the row through a's runs both ways (doubling steps; o within a). */
static PoolRow row_fill(PoolRow o, PoolRow a) {
    PoolRow l = a, r = a;
    for (int k = 1; k < PR; k <<= 1) {
        o |= (PoolRow)((o << k) & l) | ((o >> k) & r);
        l &= (PoolRow)(l << k);
        r &= r >> k;
    }
    return o;
}

static bool layer_basin(const PoolRow *a, PoolRow *bc) {
    PoolRow o[PR], any = 0;
    for (int z = 0; z < PR; z++) any |= a[z];
    if (!any) {
        memset(bc, 0, sizeof(PoolRow) * PR);
        return false;
    }
    for (int z = 0; z < PR; z++) {
        PoolRow seed = a[z] & (z == 0 || z == PR - 1 ? ROW_ALL : RING_BITS);
        o[z] = seed ? row_fill(seed, a[z]) : 0;
    }
    /* Down the rows and back up until nothing grows; a row grows only by air touching the
     * neighbour row's reached air that it has not reached (its reached air is already filled). */
    for (bool grew = true; grew;) {
        grew = false;
        for (int z = 1; z < PR; z++) {
            PoolRow add = o[z - 1] & a[z] & (PoolRow)~o[z];
            if (add) o[z] = row_fill(o[z] | add, a[z]), grew = true;
        }
        for (int z = PR - 2; z >= 0; z--) {
            PoolRow add = o[z + 1] & a[z] & (PoolRow)~o[z];
            if (add) o[z] = row_fill(o[z] | add, a[z]), grew = true;
        }
    }
    any = 0;
    for (int z = 0; z < PR; z++) bc[z] = a[z] & (PoolRow)~o[z], any |= bc[z];
    return any != 0;
}

/* Water in basin bc over the layer below (air a0, basin b0) goes on up: b0 lies under bc, and bc
 * over air of the layer below only where b0 is. */
static bool basin_goes_on(const PoolRow *b0, const PoolRow *a0, const PoolRow *bc) {
    PoolRow bad = 0;
    for (int z = 0; z < PR; z++) bad |= (PoolRow)((b0[z] & ~bc[z]) | (bc[z] & a0[z] & ~b0[z]));
    return bad == 0;
}

/* A run starts at basin bc over air a0 below: none of it over air. */
static bool basin_starts(const PoolRow *bc, const PoolRow *a0) {
    PoolRow o = 0, any = 0;
    for (int z = 0; z < PR; z++) o |= bc[z] & a0[z], any |= bc[z];
    return any && !o;
}

/* The top layer's basin under air (a1 above) and every surface block roofed by rock in `rock`. */
static bool surface_ok(const PoolRow *bc, const PoolRow *a1, const PoolRow *rock) {
    PoolRow o = 0;
    for (int z = 0; z < PR; z++) o |= bc[z] & (PoolRow)(~a1[z] | ~rock[z]);
    return o == 0;
}

/* Does some column of the region (first block X0, Z0) hold a lake? Then it holds no pool. */
static bool region_has_lake(const WorldGen *g, int64_t X0, int64_t Z0) {
    if (!g->isl.on || !g->isl.f->water_dm) return false;
    for (int z = 0; z < PR; z++)
        for (int x = 0; x < PR; x++)
            if (gen_home_water_y(g, X0 + x, Z0 + z)) return true;
    return false;
}

/* ---------------------------------------------------------------- a chunk's pools */
static void chunk_layer(const ChunkScratch *s, int r, int32_t y, PoolRow a[PR]) {
    const uint64_t *rows = &s->solid[y - WORLD_Y_MIN + 1][(r / POOL_PER_ROW) * PR + 1];
    const int sh = 1 + (r % POOL_PER_ROW) * PR;
    for (int z = 0; z < PR; z++) a[z] = (PoolRow)~(rows[z] >> sh) & ROW_ALL;
}

/* Rock over the region within POOL_ROOF layers above t (the chunk's rows). */
static void chunk_roof(const ChunkScratch *s, int r, int32_t t, PoolRow rock[PR]) {
    PoolRow a[PR];
    memset(rock, 0, sizeof(PoolRow) * PR);
    for (int32_t y = t + 1; y <= t + POOL_ROOF; y++) {
        chunk_layer(s, r, y, a);
        for (int z = 0; z < PR; z++) rock[z] |= (PoolRow)~a[z];
    }
}

static void set_bit(uint64_t *w, int32_t y) { w[(y - WORLD_Y_MIN) >> 6] |= 1ull << ((y - WORLD_Y_MIN) & 63); }

/* The run lo..t of region r holds water: its bits, unless too deep, open or under a lake. */
static void chunk_emit(const WorldGen *g, ChunkScratch *s, int r, int32_t b, int32_t t, const PoolRow *bc,
                       const PoolRow *a1) {
    PoolRow rock[PR];
    chunk_roof(s, r, t, rock);
    int64_t X0 = s->cx * CHUNK_SIZE + (r % POOL_PER_ROW) * PR, Z0 = s->cz * CHUNK_SIZE + (r / POOL_PER_ROW) * PR;
    if (t - b + 1 > POOL_DEPTH_MAX || !surface_ok(bc, a1, rock) || region_has_lake(g, X0, Z0)) return;
    for (int32_t k = b; k <= t; k++) set_bit(s->pool_layers[r], k);
    set_bit(s->pool_tops[r], t);
    s->pools = true;
}

/* One region's runs, bottom up: a run starts at a basin with rock under it and goes on while the
 * next layer's basin takes it on (basin_goes_on); its last layer is the surface. */
static void chunk_region(const WorldGen *g, ChunkScratch *s, int r) {
    const int32_t lo = gen_pool_lo(g), hi_max = gen_pool_hi_max(g);
    /* Over the region's highest rock every layer is air to its ring: no basin, no run. */
    int32_t top = -1;
    int16_t tops[PR][PR];
    for (int z = 0; z < PR; z++)
        for (int x = 0; x < PR; x++) {
            int32_t t = tops[z][x] = s->top[(r / POOL_PER_ROW) * PR + z + 1][(r % POOL_PER_ROW) * PR + x + 1];
            top = t > top ? t : top;
        }
    const int32_t hi = WORLD_Y_MIN + top + 1 < hi_max + 1 ? WORLD_Y_MIN + top + 1 : hi_max + 1;
    if (hi_max < lo || hi <= lo) return;
    PoolRow A[2][PR], B[2][PR];   /* air and basin of layers y - 1, y */
    chunk_layer(s, r, lo - 1, A[0]);
    bool run = false;
    int32_t b = 0;
    for (int32_t y = lo; y <= hi; y++) {
        chunk_layer(s, r, y, A[1]);
        /* Out of a run, a basin matters only where it may start a pool: air over rock inside the
         * ring, with rock somewhere over it (a surface block's roof is over its column). */
        PoolRow k = 0;
        for (int z = 1; z < PR - 1 && !run; z++)
            for (PoolRow c = A[1][z] & (PoolRow)~A[0][z] & (PoolRow)~RING_BITS; c; c &= c - 1)
                k |= (PoolRow)(tops[z][__builtin_ctz(c)] > y - WORLD_Y_MIN);
        if (!run && !k) {
            memcpy(A[0], A[1], sizeof A[0]);
            continue;
        }
        layer_basin(A[1], B[1]);
        if (run && !basin_goes_on(B[0], A[0], B[1])) {
            run = false;
            chunk_emit(g, s, r, b, y - 1, B[0], A[1]);
        }
        if (!run && y <= hi_max && basin_starts(B[1], A[0])) run = true, b = y;
        if (run) memcpy(s->pool_mask[r][y - WORLD_Y_MIN], B[1], sizeof B[1]);   /* kept if the run holds */
        memcpy(A[0], A[1], sizeof A[0]);
        memcpy(B[0], B[1], sizeof B[0]);
    }
}

void gen_cave_pools(const WorldGen *g, ChunkScratch *s) {
    memset(s->pool_layers, 0, sizeof s->pool_layers);
    memset(s->pool_tops, 0, sizeof s->pool_tops);
    s->pools = false;
    if (s->lod != 0) return;
    for (int r = 0; r < POOL_REGIONS; r++) chunk_region(g, s, r);
}

/* ---------------------------------------------------------------- the point query */
/* The point query walks the same rule over the region's layers from the field, each block's
 * value world_density_at's (its cells' corners kept): first what the block needs alone (air, rock
 * under and over its column, its layer's basin followed out from it), which answers in open sky
 * and in most cave air; then only the layers and blocks the rule reads (the run's layers and the
 * one over it whole, under the run's first layer and over its surface the basin's blocks alone).
 * A run that needs more than PF_FULL_MAX whole layers is read from its chunk's own pools instead
 * (gen_cave_pools over its LOD-0 fill), kept for the last PQ_KEEP chunks so read. */
#define PF_FULL_MAX 3
#define PF_ASK_CHUNK (-1)
#define PQ_KEEP 4

typedef struct PoolField {
    const WorldGen *g;
    int64_t X0, Z0;
    int xi, zi, k;                               /* the cell whose cave corners fill() gives */
    uint32_t have_col;                           /* bit zi * PF_N + xi */
    uint8_t have[WG_NY][PF_N][PF_N];             /* 1: D and I, 2: the cave fields */
    GenColumn col[PF_N][PF_N];
    float cd[WG_NY][PF_N][PF_N], ci[WG_NY][PF_N][PF_N];
    float cv[WG_CAVE_FIELDS][WG_NY][PF_N][PF_N];
    int mxi, mzi, mk;                            /* the cell last gathered (mk -1: none) */
    bool mcave;                                  /* its cave corners gathered too */
    float md[2][2][2], mi[2][2][2], mc[WG_CAVE_FIELDS][2][2][2];
    uint32_t full;                               /* layers computed whole */
    uint64_t have_layer[POOL_WORDS], have_basin[POOL_WORDS];
    PoolRow known[WORLD_Y_MAX - WORLD_Y_MIN][PR];   /* a layer's blocks computed (under its have_layer bit) */
    PoolRow layer[WORLD_Y_MAX - WORLD_Y_MIN][PR], basin[WORLD_Y_MAX - WORLD_Y_MIN][PR];
} PoolField;

static void pf_corner(PoolField *p, int k, int zi, int xi, uint8_t want) {
    const WorldGen *g = p->g;
    if ((p->have[k][zi][xi] & want) == want) return;
    int64_t X = p->X0 + xi * WORLD_CELL_XZ, Z = p->Z0 + zi * WORLD_CELL_XZ;
    int32_t Y = WORLD_Y_MIN + k * WORLD_CELL_Y;
    uint32_t bit = 1u << (zi * PF_N + xi);
    if (!(p->have_col & bit)) gen_column_point(g, X, Z, &p->col[zi][xi]);
    p->have_col |= bit;
    if (want & 1 && !(p->have[k][zi][xi] & 1)) gen_corner_point(g, &p->col[zi][xi], X, Y, Z, &p->cd[k][zi][xi], &p->ci[k][zi][xi]);
    if (want & 2 && !(p->have[k][zi][xi] & 2))
        for (uint32_t f = 0; f < g->ncave_fields; f++) gen_cave_row(g, f, X, Y, Z, &p->cv[f][k][zi][xi], 1);
    p->have[k][zi][xi] |= want;
}

static void pf_caves(void *ctx, float c[WG_CAVE_FIELDS][2][2][2]) {
    PoolField *p = ctx;
    if (!p->mcave) {
        for (int n = 0; n < 8; n++) pf_corner(p, p->k + (n >> 2), p->zi + ((n >> 1) & 1), p->xi + (n & 1), 2);
        for (uint32_t f = 0; f < p->g->ncave_fields; f++)
            for (int n = 0; n < 8; n++)
                p->mc[f][n >> 2][(n >> 1) & 1][n & 1] = p->cv[f][p->k + (n >> 2)][p->zi + ((n >> 1) & 1)][p->xi + (n & 1)];
        p->mcave = true;
    }
    memcpy(c, p->mc, sizeof p->mc[0] * p->g->ncave_fields);
}

/* Is region block (x, by, z) rock? The field at its centre, as world_density_at computes it. */
static bool pf_solid(PoolField *p, int x, int32_t by, int z) {
    if (by < WORLD_Y_MIN) return true;
    p->xi = x / WORLD_CELL_XZ, p->zi = z / WORLD_CELL_XZ, p->k = (by - WORLD_Y_MIN) / WORLD_CELL_Y;
    if (p->xi != p->mxi || p->zi != p->mzi || p->k != p->mk) {   /* a cell's blocks come in runs */
        for (int n = 0; n < 8; n++) {
            int k = p->k + (n >> 2), zi = p->zi + ((n >> 1) & 1), xi = p->xi + (n & 1);
            pf_corner(p, k, zi, xi, 1);
            p->md[n >> 2][(n >> 1) & 1][n & 1] = p->cd[k][zi][xi];
            p->mi[n >> 2][(n >> 1) & 1][n & 1] = p->ci[k][zi][xi];
        }
        p->mxi = p->xi, p->mzi = p->zi, p->mk = p->k, p->mcave = false;
    }
    const GenCaveCorners cc = {pf_caves, p};
    return gen_density_in_cell(p->g, p->md, p->mi, &cc, (double)(p->X0 + x) + 0.5, (double)by + 0.5,
                               (double)(p->Z0 + z) + 0.5) > 0.0f;
}

/* Necessary for water at (x, by, z): rock under it within POOL_DEPTH_MAX blocks and over it
 * within the deepest pool's top plus POOL_ROOF (a flight in the open needs no region). */
static bool pf_column_may(PoolField *p, int x, int32_t by, int z, int32_t hi_max) {
    int32_t y = by - 1;
    while (y >= by - POOL_DEPTH_MAX && !pf_solid(p, x, y, z)) y--;
    if (y < by - POOL_DEPTH_MAX) return false;
    int32_t top = by + POOL_DEPTH_MAX - 1 < hi_max ? by + POOL_DEPTH_MAX - 1 : hi_max;
    for (y = by + 1; y <= top + POOL_ROOF; y++)
        if (pf_solid(p, x, y, z)) return true;
    return false;
}

/* Necessary for water at air block (x, by, z): its layer's basin holds it (no path through the
 * layer's air to the region's outer ring), followed from the block out: a block in a tube meets
 * the ring after a few steps, one in a pool fills its basin's few blocks. */
static bool pf_in_basin(PoolField *p, int x, int32_t by, int z) {
    PoolRow seen[PR] = {0};
    uint8_t stack[PR * PR];
    int n = 0;
    seen[z] = (PoolRow)(1u << x);
    stack[n++] = (uint8_t)(z * PR + x);
    while (n) {
        const int at = stack[--n], cx = at % PR, cz = at / PR;
        if (cx == 0 || cz == 0 || cx == PR - 1 || cz == PR - 1) return false;
        static const int8_t d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (int k = 0; k < 4; k++) {
            const int nx = cx + d[k][0], nz = cz + d[k][1];
            if ((seen[nz] >> nx) & 1u) continue;
            seen[nz] |= (PoolRow)(1u << nx);
            if (!pf_solid(p, nx, by, nz)) stack[n++] = (uint8_t)(nz * PR + nx);
        }
    }
    return true;
}

/* Layer y's air bits at least where m has bits (the rest as far as computed before). */
static const PoolRow *pf_air(PoolField *p, int32_t y, const PoolRow *m) {
    const int32_t d = y - WORLD_Y_MIN;
    PoolRow *a = p->layer[d], *k = p->known[d];
    if (!((p->have_layer[d >> 6] >> (d & 63)) & 1u)) {
        memset(k, 0, sizeof p->known[d]);
        memset(a, 0, sizeof p->layer[d]);
        p->have_layer[d >> 6] |= 1ull << (d & 63);
    }
    for (int z = 0; z < PR; z++)
        for (PoolRow want = m[z] & (PoolRow)~k[z]; want; want &= (PoolRow)(want - 1)) {
            const int x = __builtin_ctz(want);
            a[z] |= (PoolRow)(!pf_solid(p, x, y, z) << x);
        }
    for (int z = 0; z < PR; z++) k[z] |= m[z];
    return a;
}

static const PoolRow k_all[PR] = {ROW_ALL, ROW_ALL, ROW_ALL, ROW_ALL, ROW_ALL, ROW_ALL, ROW_ALL, ROW_ALL,
                                  ROW_ALL, ROW_ALL, ROW_ALL, ROW_ALL, ROW_ALL, ROW_ALL, ROW_ALL, ROW_ALL};

static const PoolRow *pf_layer(PoolField *p, int32_t y) {
    const int32_t d = y - WORLD_Y_MIN;
    bool was = (p->have_layer[d >> 6] >> (d & 63)) & 1u && !memcmp(p->known[d], k_all, sizeof k_all);
    p->full += !was;
    return pf_air(p, y, k_all);
}

static const PoolRow *pf_basin(PoolField *p, int32_t y) {
    int32_t d = y - WORLD_Y_MIN;
    PoolRow *bc = p->basin[d];
    if ((p->have_basin[d >> 6] >> (d & 63)) & 1u) return bc;
    layer_basin(pf_layer(p, y), bc);
    p->have_basin[d >> 6] |= 1ull << (d & 63);
    return bc;
}

/* The run through layer by (its basin holds the block): its first layer, or INT32_MIN when none
 * (PF_ASK_CHUNK past PF_FULL_MAX whole layers).
 * A run starts at a basin over no air: the layer under it is read at the basin's blocks alone. */
static int32_t pf_run_start(PoolField *p, int32_t by, int32_t lo) {
    for (int32_t k = by;; k--) {
        if (by - k + 1 > POOL_DEPTH_MAX) return INT32_MIN;
        if (p->full > PF_FULL_MAX) return PF_ASK_CHUNK;
        const PoolRow *bc = pf_basin(p, k);
        if (basin_starts(bc, pf_air(p, k - 1, bc))) return k;
        if (k - 1 < lo || !basin_goes_on(pf_basin(p, k - 1), pf_layer(p, k - 1), pf_basin(p, k))) return INT32_MIN;
    }
}

/* Rock within POOL_ROOF layers over t at the surface's blocks bc (elsewhere no matter): each
 * column walked up to its first rock. */
static void pf_roof(PoolField *p, int32_t t, const PoolRow *bc, PoolRow rock[PR]) {
    for (int z = 0; z < PR; z++) {
        rock[z] = 0;
        for (PoolRow c = bc[z]; c; c &= (PoolRow)(c - 1)) {
            const int x = __builtin_ctz(c);
            for (int32_t k = t + 1; k <= t + POOL_ROOF; k++)
                if (pf_solid(p, x, k, z)) {
                    rock[z] |= (PoolRow)(1u << x);
                    break;
                }
        }
    }
}

/* A chunk's pools as gen_cave_pools left them, and the snapshot they were built from (the whole
 * WorldGen compared: an island slot's snapshot may be replaced in place). */
typedef struct PoolChunk {
    WorldGen g;
    int64_t cx, cz;
    uint32_t used;                               /* 0: empty; else when last asked */
    uint64_t layers[POOL_REGIONS][POOL_WORDS], tops[POOL_REGIONS][POOL_WORDS];
    PoolRow mask[POOL_REGIONS][WORLD_Y_MAX - WORLD_Y_MIN][PR];
} PoolChunk;

/* Fixed memory, one lock: collision asks from the game's thread and the course threads. */
static struct {
    pthread_mutex_t lock;
    uint32_t clock;
    PoolChunk keep[PQ_KEEP];
    WorldGen g;                                  /* the one built from, its clouds off */
    ChunkScratch s;
} g_pq = {.lock = PTHREAD_MUTEX_INITIALIZER};

static PoolChunk *pq_find(const WorldGen *g, int64_t cx, int64_t cz) {
    for (int i = 0; i < PQ_KEEP; i++) {
        PoolChunk *c = &g_pq.keep[i];
        if (c->used && c->cx == cx && c->cz == cz && !memcmp(&c->g, g, sizeof *g)) return c;
    }
    return NULL;
}

/* Build chunk (cx, cz)'s pools into the least recently asked place. */
static PoolChunk *pq_build(const WorldGen *g, int64_t cx, int64_t cz) {
    PoolChunk *c = &g_pq.keep[0];
    for (int i = 1; i < PQ_KEEP; i++)
        if (g_pq.keep[i].used < c->used) c = &g_pq.keep[i];
    ChunkScratch *s = &g_pq.s;
    g_pq.g = *g;   /* the pools read rock alone: no clouds to fill */
    g_pq.g.clouds = false;
    gen_chunk_fill(&g_pq.g, cx, cz, 0.0, 0, WG_NX0, true, s);
    gen_cave_pools(&g_pq.g, s);
    memcpy(&c->g, g, sizeof *g);
    c->cx = cx, c->cz = cz;
    memcpy(c->layers, s->pool_layers, sizeof c->layers);
    memcpy(c->tops, s->pool_tops, sizeof c->tops);
    if (s->pools) memcpy(c->mask, s->pool_mask, sizeof c->mask);
    return c;
}

/* The surface over chunk block (x, by, z) (x, z in 0..31) in c's pools, 0 where none. */
static int32_t pq_answer(const PoolChunk *c, int x, int32_t by, int z) {
    const int r = x / PR + POOL_PER_ROW * (z / PR);
    const int32_t d = by - WORLD_Y_MIN;
    if (!((c->layers[r][d >> 6] >> (d & 63)) & 1u) || !((c->mask[r][d][z % PR] >> (x % PR)) & 1u)) return 0;
    for (int32_t k = d; k < WORLD_Y_MAX - WORLD_Y_MIN; k++)   /* the run's top: its first top bit up */
        if ((c->tops[r][k >> 6] >> (k & 63)) & 1u) return WORLD_Y_MIN + k + 1;
    return 0;
}

/* The rule on the region's field at air block (x, by, z) that may be water: its surface, 0, or
 * PF_ASK_CHUNK when the run needs more than PF_FULL_MAX whole layers (a deep pool or air pocket). */
static int32_t pf_pool_top(PoolField *p, int x, int32_t by, int z, int32_t lo, int32_t hi_max) {
    if (!((pf_basin(p, by)[z] >> x) & 1u)) return 0;
    int32_t b = pf_run_start(p, by, lo), t = by;
    if (b == INT32_MIN || b == PF_ASK_CHUNK) return b == PF_ASK_CHUNK ? PF_ASK_CHUNK : 0;
    for (;;) {
        if (t - b + 1 > POOL_DEPTH_MAX) return 0;
        if (p->full > PF_FULL_MAX) return PF_ASK_CHUNK;
        if (!basin_goes_on(pf_basin(p, t), pf_layer(p, t), pf_basin(p, t + 1))) break;
        if (t + 1 == hi_max + 1) return 0;   /* the run goes on past the highest top */
        t++;
    }
    const PoolRow *bc = pf_basin(p, t);
    PoolRow rock[PR];
    pf_roof(p, t, bc, rock);
    if (!surface_ok(bc, pf_layer(p, t + 1), rock) || region_has_lake(p->g, p->X0, p->Z0)) return 0;
    return t + 1;
}

int32_t gen_pool_top_chunk(const WorldGen *g, int64_t bx, int32_t by, int64_t bz) {
    if (by < WORLD_Y_MIN || by >= WORLD_Y_MAX) return 0;
    const int64_t cx = floor_div64(bx, CHUNK_SIZE), cz = floor_div64(bz, CHUNK_SIZE);
    pthread_mutex_lock(&g_pq.lock);
    PoolChunk *c = pq_find(g, cx, cz);
    if (!c) c = pq_build(g, cx, cz);
    c->used = ++g_pq.clock;
    const int32_t top = pq_answer(c, (int)(bx - cx * CHUNK_SIZE), by, (int)(bz - cz * CHUNK_SIZE));
    pthread_mutex_unlock(&g_pq.lock);
    return top;
}

static int32_t pool_top(const WorldGen *g, int64_t bx, double y, int64_t bz) {
    const int32_t lo = gen_pool_lo(g), hi_max = gen_pool_hi_max(g);
    if (!(y >= (double)lo && y < (double)(hi_max + 1))) return 0;
    const int32_t by = (int32_t)floor(y);
    PoolField p;   /* only its have-bits cleared: the values are written before they are read */
    p.g = g;
    p.have_col = 0;
    p.full = 0;
    p.mk = -1;
    memset(p.have, 0, sizeof p.have);
    memset(p.have_layer, 0, sizeof p.have_layer);
    memset(p.have_basin, 0, sizeof p.have_basin);
    p.X0 = floor_div64(bx, PR) * PR;
    p.Z0 = floor_div64(bz, PR) * PR;
    const int x = (int)(bx - p.X0), z = (int)(bz - p.Z0);
    if (pf_solid(&p, x, by, z) || !pf_column_may(&p, x, by, z, hi_max) || !pf_in_basin(&p, x, by, z)) return 0;
    const int32_t top = pf_pool_top(&p, x, by, z, lo, hi_max);
    return top == PF_ASK_CHUNK ? gen_pool_top_chunk(g, bx, by, bz) : top;
}

int32_t gen_water_top(const WorldGen *g, double x, double y, double z) {
    int64_t bx = (int64_t)floor(x), bz = (int64_t)floor(z);
    int32_t level = gen_home_water_y(g, bx, bz);
    if (level) {   /* a lake's column: its region holds no pool */
        if (!(y < (double)level) || !(y >= (double)(level - WORLD_WATER_DEPTH_MAX))) return 0;
        return gen_density_point(g, floor(x) + 0.5, floor(y) + 0.5, floor(z) + 0.5) > 0.0f ? 0 : level;
    }
    return pool_top(g, bx, y, bz);
}
