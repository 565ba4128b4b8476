/* skyisles world: the mesher's flat-coloured passes: the objects' and landmarks' boxes (one
 * quad per visible box face, lit like the terrain, no per-vertex AO) and the clouds (cloud
 * voxels against air, faces gathered per plane and merged into rectangles). */
#include "world/mesh_internal.h"

#include <math.h>
#include <string.h>

#include "noise/simd.h"

static const float k_cloud_shade[6] = {0.92f, 0.88f, 1.0f, 0.78f, 0.9f, 0.86f};

/* Objects and landmarks (props.c): the chunk's clipped boxes as flat-coloured faces in the
 * opaque part, lit like the terrain (altitude light at the box's foot, direction shade; no
 * per-vertex AO: flags say open). */
/* Face n of the box [bl, bh) (a plane when the box is flat across n) as one quad of colour col. */
static bool box_face(SlabWriter *w, int n, const int bl[3], const int bh[3], uint32_t col, uint64_t flags) {
    WorldVertex *q = writer_quad(w);
    if (!q) return false;
    const int8_t *N = k_n[n], *U = k_u[n], *V = k_v[n];
    int p0[3], eu = 0, ev = 0;
    for (int k = 0; k < 3; k++) {
        p0[k] = N[k] > 0 ? bh[k] : bl[k];
        eu += U[k] * (bh[k] - bl[k]);
        ev += V[k] * (bh[k] - bl[k]);
    }
    store_quad(q, pack_pos(p0[0], p0[1], p0[2], n) | flags, pack_pos(U[0] * eu, U[1] * eu, U[2] * eu, 0),
               pack_pos(V[0] * ev, V[1] * ev, V[2] * ev, 0), col);
    return true;
}

uint32_t mesh_props(const WorldGen *g, const ChunkScratch *s, SlabWriter *w) {
    uint32_t faces = 0;
    for (uint32_t i = 0; i < s->props.nbox; i++) {
        const PropBox *b = &s->props.box[i];
        float alt = alt_light(g, (float)b->y0);
        const int bl[3] = {b->x0, b->y0, b->z0}, bh[3] = {b->x1, b->y1, b->z1};
        for (int n = 0; n < 6; n++) {
            if (!((b->faces >> n) & 1u)) continue;
            float light = alt * k_dir_shade[n] * (1.0f / 255.0f);
            uint32_t col = (uint32_t)to_u8((float)b->rgb[0] * light) | (uint32_t)to_u8((float)b->rgb[1] * light) << 8 |
                           (uint32_t)to_u8((float)b->rgb[2] * light) << 16 | 255u << 24;
            if (!box_face(w, n, bl, bh, col, (uint64_t)(3u | (uint32_t)b->mat << 2) << 56)) return faces;
            faces++;
        }
    }
    return faces;
}

/* The cloud pass's constants: the writer and its span, per normal the colour (flat per
 * direction), the packed corner of voxel (0, 0, 0) with the flags and the packed unit steps along
 * U and V, and the packed steps of one voxel along x, y and z (blocks per voxel). */
typedef struct CloudCtx {
    SlabWriter *w;
    Span sp;
    uint32_t col[6];
    uint64_t p0[6], u[6], v[6];
    uint64_t dx, dy, dz;
} CloudCtx;

static void cloud_ctx_init(CloudCtx *c, const WorldGen *g, SlabWriter *w, int sc) {
    c->w = w;
    c->sp = (Span){0};
    for (int n = 0; n < 6; n++) {
        const int8_t *N = k_n[n];
        uint32_t k = to_u8(0.97f * k_cloud_shade[n]), kb = to_u8(1.0f * k_cloud_shade[n]);
        c->col[n] = k | k << 8 | kb << 16 | (uint32_t)g->p.cloud_alpha << 24;
        c->p0[n] = pack_pos((N[0] > 0) * sc, WORLD_Y_MIN + (N[1] > 0) * sc, (N[2] > 0) * sc, n) |
                   (uint64_t)(3 | (WORLD_MAT_CLOUD << 2)) << 56;
        c->u[n] = pack_pos(k_u[n][0] * sc, k_u[n][1] * sc, k_u[n][2] * sc, 0);
        c->v[n] = pack_pos(k_v[n][0] * sc, k_v[n][1] * sc, k_v[n][2] * sc, 0);
    }
    c->dx = pack_pos(sc, 0, 0, 0), c->dy = pack_pos(0, sc, 0, 0), c->dz = pack_pos(0, 0, sc, 0);
}

/* One merged cloud quad: the box [x0, x0+ex) x [y0, y0+ey) x [z0, z0+ez) in voxels (y0 a layer
 * index), one voxel thick along the normal. Clouds are flat-coloured per direction, so
 * merging loses nothing. Its corner is p0[n] and a step per voxel along each axis (pack_pos's
 * fields: every one non-negative and within 16 bits, so they add without carries). */
static inline __attribute__((always_inline)) void emit_cloud_rect(CloudCtx *c, const int n, int x0, int y0, int z0,
                                                                  int ex, int ey, int ez) {
    const int8_t *U = k_u[n], *V = k_v[n];
    if (__builtin_expect(c->sp.q == c->sp.end, 0) && !span_next(c->w, &c->sp)) return;
    WorldVertex *q = c->sp.q;
    c->sp.q += 4;
    int eu = U[0] * ex + U[1] * ey + U[2] * ez;
    int ev = V[0] * ex + V[1] * ey + V[2] * ez;
    uint64_t p0 = c->p0[n] + (uint64_t)x0 * c->dx + (uint64_t)y0 * c->dy + (uint64_t)z0 * c->dz;
    store_quad(q, p0, c->u[n] * (uint64_t)eu, c->v[n] * (uint64_t)ev, c->col[n]);
}

/* Greedy rectangles over one plane of face bits: runs along the bits, grown over rows. Row r is
 * layer r0 + r for X and Z planes, row z for Y planes. Returns the faces (the rectangles' area:
 * they cover each face bit once). Four empty rows at a time are passed over with one compare. */
static inline __attribute__((always_inline)) uint32_t merge_plane(CloudCtx *c, const int n, int plane,
                                                                  uint32_t *rows, int nrows, int r0) {
    const u32x4 zero = u32x4_set1(0);
    uint32_t faces = 0;
    for (int r = 0; r < nrows; r++) {
        while (r + 4 <= nrows && u32x4_movemask(u32x4_cmpeq(u32x4_load(rows + r), zero)) == 15u) r += 4;
        if (r >= nrows) break;
        while (rows[r]) {
            int b0 = __builtin_ctz(rows[r]);
            uint32_t run = rows[r] >> b0;
            int len = (~run == 0u) ? 32 - b0 : __builtin_ctz(~run);
            uint32_t mask = (len >= 32 ? 0xffffffffu : ((1u << len) - 1u)) << b0;
            int h = 1;
            while (r + h < nrows && (rows[r + h] & mask) == mask) {
                rows[r + h] &= ~mask;
                h++;
            }
            rows[r] &= ~mask;
            faces += (uint32_t)(len * h);
            int yb = r0 + r;
            if (n == WORLD_NORMAL_PX || n == WORLD_NORMAL_NX) emit_cloud_rect(c, n, plane, yb, b0, 1, h, len);
            else if (n == WORLD_NORMAL_PY || n == WORLD_NORMAL_NY) emit_cloud_rect(c, n, b0, plane, r, len, 1, h);
            else emit_cloud_rect(c, n, b0, yb, plane, len, h, 1);
        }
    }
    return faces;
}

/* The planes of normal n with faces, in order (one copy per normal); `used`: a bit per plane
 * (a layer for Y planes, x or z for the others). Returns their faces. */
static inline __attribute__((always_inline)) uint32_t merge_normal(CloudCtx *c, ChunkScratch *s, const int n,
                                                                   int nv, int r0, int nr, const uint64_t used[3]) {
    uint32_t faces = 0;
    for (int k = 0; k < 3; k++)
        for (uint64_t m = used[k]; m; m &= m - 1) {
            int pl = k * 64 + __builtin_ctzll(m);
            if (n == WORLD_NORMAL_PY || n == WORLD_NORMAL_NY)
                faces += merge_plane(c, n, pl, &s->cplane[n][pl * CHUNK_SIZE], nv, 0);
            else
                faces += merge_plane(c, n, pl, &s->cplane[n][pl * WV_H + r0], nr, r0);
        }
    return faces;
}

/* Exposed-face masks of rows z1 and z1 + 1 of layer yi, f[normal][k] for row z1 + k: bit x+1 set
 * where the voxel has that face (every mask has the row's bits in interior only). */
static inline __attribute__((always_inline)) void row_faces2(const uint64_t (*rows)[WV_ROW], const uint64_t (*block)[WV_ROW],
                                                             int yi, int z1, uint64_t interior, uint64_t f[6][2]) {
    const Rows2 row = rows2_load(&rows[yi][z1]), r = rows2_and(row, rows2_set1(interior));
    /* A face shows where the neighbour is neither the same kind nor `block`. */
    const Rows2 occ = rows2_or(row, rows2_load(&block[yi][z1]));
#define OCC(y, z) rows2_or(rows2_load(&rows[y][z]), rows2_load(&block[y][z]))
    rows2_store(f[WORLD_NORMAL_PX], rows2_andnot(r, ROWS2_SHR(occ, 1)));
    rows2_store(f[WORLD_NORMAL_NX], rows2_andnot(r, ROWS2_SHL(occ, 1)));
    rows2_store(f[WORLD_NORMAL_PY], rows2_andnot(r, OCC(yi + 1, z1)));
    rows2_store(f[WORLD_NORMAL_NY], rows2_andnot(r, OCC(yi - 1, z1)));
    rows2_store(f[WORLD_NORMAL_PZ], rows2_andnot(r, OCC(yi, z1 + 1)));
    rows2_store(f[WORLD_NORMAL_NZ], rows2_andnot(r, OCC(yi, z1 - 1)));
#undef OCC
}

/* Row z of layer r's face masks (f[normal][k]: row_faces2's, k its row of the two) into the
 * planes: a Y plane's row is z, a Z plane's row r, both the row's bits as they are (their planes
 * were cleared, so an empty mask stores a zero);
 * an X plane's row r takes bit z for each x. used[n]: the Z and X planes with faces; yany: the
 * Y masks' bits over the layer (the caller marks its Y planes once). */
static inline __attribute__((always_inline)) void scatter_row(ChunkScratch *s, uint64_t used[6][3], const uint64_t (*f)[2],
                                                              int k, uint32_t yany[2], int r, int z) {
    for (int nn = WORLD_NORMAL_PY; nn <= WORLD_NORMAL_NY; nn++) {   /* plane y, row z, bits x */
        const uint32_t bits = (uint32_t)(f[nn][k] >> 1);
        s->cplane[nn][r * CHUNK_SIZE + z] = bits;
        yany[nn - WORLD_NORMAL_PY] |= bits;   /* (used[] once per layer: mesh_clouds) */
    }
    for (int nn = WORLD_NORMAL_PZ; nn <= WORLD_NORMAL_NZ; nn++) {   /* plane z, row y, bits x */
        const uint32_t bits = (uint32_t)(f[nn][k] >> 1);
        s->cplane[nn][z * WV_H + r] = bits;
        used[nn][0] |= (uint64_t)(bits != 0) << z;
    }
    for (int nn = WORLD_NORMAL_PX; nn <= WORLD_NORMAL_NX; nn++) {   /* plane x, row y, bits z */
        uint32_t bits = (uint32_t)(f[nn][k] >> 1);
        used[nn][0] |= bits;
        for (; bits; bits &= bits - 1) s->cplane[nn][__builtin_ctz(bits) * WV_H + r] |= 1u << z;
    }
}

/* The cloud pass of mesh_chunk: cloud voxels against air only (never a face inside rock or
 * cloud), faces gathered per plane and merged into rectangles. Returns the faces. */
uint32_t mesh_clouds(const WorldGen *g, ChunkScratch *s, SlabWriter *w, uint64_t interior) {
    const int n = s->n, ny = s->ny;
    uint32_t faces = 0;
    /* The layers with clouds first, so only their rows of the plane masks are cleared. */
    int ylo = ny, yhi = -1;
    for (int Y = 0; Y < ny && g->clouds; Y++) {
        /* The fill makes clouds only in layers of the band (their W7 weight positive). */
        if (!(gen_cloud_weight(g, (float)gs_block_y(s, Y) + 0.5f) > 0.0f)) continue;
        if (!rows_any(s->cloud[Y + 1] + 1, n, interior)) continue;
        if (ylo > Y) ylo = Y;
        yhi = Y;
    }
    if (yhi >= ylo) {
        int r0 = ylo, nr = yhi - ylo + 1;
        uint64_t used[6][3] = {{0}};   /* the planes with faces, per normal */
        _Static_assert(WV_H <= 192 && CHUNK_SIZE <= 192, "a plane's bit in used[]");
        for (int nn = 0; nn < 6; nn++) {
            if (nn == WORLD_NORMAL_PY || nn == WORLD_NORMAL_NY) {
                memset(&s->cplane[nn][r0 * CHUNK_SIZE], 0, sizeof(uint32_t) * CHUNK_SIZE * (size_t)nr);
            } else {
                for (int pl = 0; pl < n; pl++) memset(&s->cplane[nn][pl * WV_H + r0], 0, sizeof(uint32_t) * (size_t)nr);
            }
        }
        for (int Y = ylo; Y <= yhi; Y++) {
            int yi = Y + 1;
            uint32_t yany[2] = {0, 0};
            for (int z = 0; z < n; z += 2) {   /* two rows at a time (n is even) */
                const uint64_t c0 = s->cloud[yi][z + 1] & interior, c1 = s->cloud[yi][z + 2] & interior;
                if (!(c0 | c1)) continue;
                uint64_t f[6][2];
                row_faces2((const uint64_t (*)[WV_ROW])s->cloud, (const uint64_t (*)[WV_ROW])s->solid, yi, z + 1, interior,
                           f);
                if (c0) scatter_row(s, used, (const uint64_t (*)[2])f, 0, yany, Y, z);
                if (c1) scatter_row(s, used, (const uint64_t (*)[2])f, 1, yany, Y, z + 1);
            }
            used[WORLD_NORMAL_PY][Y >> 6] |= (uint64_t)(yany[0] != 0) << (Y & 63);
            used[WORLD_NORMAL_NY][Y >> 6] |= (uint64_t)(yany[1] != 0) << (Y & 63);
        }
        CloudCtx cc;
        cloud_ctx_init(&cc, g, w, s->scale);
        faces += merge_normal(&cc, s, 0, n, r0, nr, used[0]);
        faces += merge_normal(&cc, s, 1, n, r0, nr, used[1]);
        faces += merge_normal(&cc, s, 2, n, r0, nr, used[2]);
        faces += merge_normal(&cc, s, 3, n, r0, nr, used[3]);
        faces += merge_normal(&cc, s, 4, n, r0, nr, used[4]);
        faces += merge_normal(&cc, s, 5, n, r0, nr, used[5]);
        span_commit(w, &cc.sp);
    }
    return faces;
}

/* The water pass of mesh_chunk (WORLD_MAT_WATER): water is never meshed as voxels; only its
 * surface is drawn, one +Y face over every column whose water level (gen_home_water_y at the
 * column's sample) has its top water block and the block above not rock (world_water_at's test,
 * on this LOD's voxels), in the cloud parts (translucent). Runs along x at one level are one quad. */
#define WATER_RGBA (46u | 92u << 8 | 112u << 16 | 170u << 24)

static bool water_open(const ChunkScratch *s, int x, int z, int32_t level) {
    for (int32_t by = level - 1; by <= level; by++) {
        int32_t d = by - WORLD_Y_MIN;
        if (d < 0) return false;
        int32_t Y = d / s->scale;
        if (Y >= s->ny) continue;   /* above the chunk's layers: air */
        if ((s->solid[Y + 1][z + 1] >> (x + 1)) & 1u) return false;
    }
    return true;
}

/* The falls (IslandField.falls): where a column outside a falls' lip holds no water and its
 * neighbour inward holds the falls' water, a sheet hangs on the face between them, both sides
 * drawn, from the water's surface down to the first rock or cloud of the column (its lip's own
 * slope, FALLS_LIP blocks, aside) or FALLS_DROP blocks into the abyss, fading; spray where it
 * meets rock or cloud. Rows of FALLS_STEP blocks, so the shader moves bands down it per vertex. */
#define FALLS_DROP 160
#define FALLS_STEP 6
#define FALLS_LIP 8
#define FALLS_REACH 24     /* blocks from the lip's middle along its direction to look for the edge */
#define FALLS_RGB (196u | 222u << 8 | 236u << 16)
#define SPRAY_RGBA (236u | 242u << 8 | 248u << 16 | 150u << 24)

/* The first block under `top` (past the lip's slope) whose layer is rock or cloud in column (x, z): the
 * block above it, or INT32_MIN when none within FALLS_DROP. */
static int32_t falls_floor(const ChunkScratch *s, int x, int z, int32_t top) {
    int32_t lo = top - FALLS_DROP < WORLD_Y_MIN ? WORLD_Y_MIN : top - FALLS_DROP;
    for (int32_t by = top - 1 - FALLS_LIP; by >= lo; by--) {
        int32_t Y = (by - WORLD_Y_MIN) / s->scale;
        if (Y >= s->ny) continue;
        if ((((s->solid[Y + 1][z + 1] | s->cloud[Y + 1][z + 1]) >> (x + 1)) & 1u) != 0) return WORLD_Y_MIN + (Y + 1) * s->scale;
    }
    return INT32_MIN;
}

static uint32_t falls_column(const ChunkScratch *s, SlabWriter *w, int x, int z, int ax, int sg, int32_t top) {
    const int sc = s->scale, tx = ax == 0 ? 2 : 0;
    const uint64_t flags = (uint64_t)(3u | WORLD_MAT_WATER << 2) << 56;
    int32_t hit = falls_floor(s, x, z, top), bottom = hit == INT32_MIN ? top - FALLS_DROP : hit;
    if (bottom < WORLD_Y_MIN) bottom = WORLD_Y_MIN;
    const int cell[3] = {x * sc, 0, z * sc};
    int bl[3] = {cell[0], 0, cell[2]}, bh[3] = {cell[0] + sc, 0, cell[2] + sc};
    bl[ax] = bh[ax] = sg > 0 ? cell[ax] : cell[ax] + sc;   /* the face toward the water */
    const int n_out = ax == 0 ? (sg > 0 ? WORLD_NORMAL_PX : WORLD_NORMAL_NX) : (sg > 0 ? WORLD_NORMAL_PZ : WORLD_NORMAL_NZ);
    uint32_t faces = 0;
    for (int32_t y = top; y > bottom; y -= FALLS_STEP) {
        bh[1] = y;
        bl[1] = y - FALLS_STEP < bottom ? bottom : y - FALLS_STEP;
        /* fading as it falls when nothing stops it */
        uint32_t a = hit == INT32_MIN ? (uint32_t)(200 - 180 * (top - y) / FALLS_DROP) : 200u;
        uint32_t col = FALLS_RGB | a << 24;
        if (!box_face(w, n_out, bl, bh, col, flags) || !box_face(w, n_out ^ 1, bl, bh, col, flags)) return faces;
        faces += 2;
    }
    if (hit == INT32_MIN) return faces;
    /* spray: a low sheet of foam out from the foot and its outer face */
    int fl[3] = {bl[0], hit, bl[2]}, fh[3] = {bh[0], hit + 3, bh[2]};
    fl[tx] = bl[tx], fh[tx] = bh[tx];
    if (sg > 0) fh[ax] = fl[ax] + 3;
    else fl[ax] = fh[ax] - 3;
    fh[1] = hit + 1;
    if (!box_face(w, WORLD_NORMAL_PY, fl, fh, SPRAY_RGBA, flags)) return faces;
    fh[1] = hit + 3;
    if (!box_face(w, n_out, fl, fh, SPRAY_RGBA, flags)) return faces + 1;
    return faces + 2;
}

static uint32_t mesh_falls(const WorldGen *g, const ChunkScratch *s, SlabWriter *w) {
    const IslandField *h = g->isl.f;
    const int sc = s->scale, n = s->n;
    const int64_t x0 = s->cx * CHUNK_SIZE, z0 = s->cz * CHUNK_SIZE;
    const float ox = (float)g->isl.ox, oz = (float)g->isl.oz;   /* the island's origin in blocks */
    uint32_t faces = 0;
    for (uint32_t k = 0; k < h->n_falls; k++) {
        const IslandFieldFalls *fl = &h->falls[k];
        const float lx = ox + h->centre_x + fl->x_m, lz = oz + h->centre_z + fl->z_m, half = 0.5f * fl->width_m + 4.0f;
        const float ex = fabsf(fl->dir_x) >= fabsf(fl->dir_z) ? (float)FALLS_REACH : half;
        const float ez = fabsf(fl->dir_x) >= fabsf(fl->dir_z) ? half : (float)FALLS_REACH;
        if ((float)(x0 + CHUNK_SIZE) < lx - ex || (float)x0 > lx + ex || (float)(z0 + CHUNK_SIZE) < lz - ez ||
            (float)z0 > lz + ez)
            continue;
        const int ax = fabsf(fl->dir_x) >= fabsf(fl->dir_z) ? 0 : 2;
        const int sg = (ax == 0 ? fl->dir_x : fl->dir_z) > 0.0f ? 1 : -1;
        const int32_t top = (int32_t)floorf(g->isl.sea + fl->top_m + 0.5f);
        for (int z = 0; z < n; z++)
            for (int x = 0; x < n; x++) {
                int64_t bx = x0 + x * sc + s->off, bz = z0 + z * sc + s->off;
                if ((float)bx < lx - ex || (float)bx > lx + ex || (float)bz < lz - ez || (float)bz > lz + ez) continue;
                if (gen_home_water_y(g, bx, bz)) continue;
                int64_t ix = ax == 0 ? bx - sg * sc : bx, iz = ax == 2 ? bz - sg * sc : bz;
                if (gen_home_water_y(g, ix, iz) != top) continue;
                faces += falls_column(s, w, x, z, ax, sg, top);
            }
    }
    return faces;
}

/* The pools in caves (gen_cave_pools, LOD 0): a +Y face over each water block of a pool's top
 * layer, at its top, darker than a lake (AO level 1: no sky over it); runs along x one quad. */
#define POOL_RGBA (30u | 62u << 8 | 74u << 16 | 190u << 24)

static uint32_t mesh_pools(const ChunkScratch *s, SlabWriter *w) {
    const uint64_t flags = (uint64_t)(1u | WORLD_MAT_WATER << 2) << 56;
    uint32_t faces = 0;
    for (int r = 0; r < POOL_REGIONS; r++)
        for (int d = 0; d < WORLD_Y_MAX - WORLD_Y_MIN; d++) {
            if (!((s->pool_tops[r][d >> 6] >> (d & 63)) & 1u)) continue;
            const int x0 = (r % POOL_PER_ROW) * POOL_REGION, z0 = (r / POOL_PER_ROW) * POOL_REGION;
            for (int z = z0; z < z0 + POOL_REGION; z++) {
                uint32_t open = s->pool_mask[r][d][z - z0];
                while (open) {
                    int from = __builtin_ctz(open), run = __builtin_ctz(~(open >> from));
                    open &= ~(((1u << run) - 1u) << from);
                    WorldVertex *q = writer_quad(w);
                    if (!q) return faces;
                    store_quad(q, pack_pos(x0 + from, WORLD_Y_MIN + d + 1, z, WORLD_NORMAL_PY) | flags, pack_pos(0, 0, 1, 0),
                               pack_pos(run, 0, 0, 0), POOL_RGBA);
                    faces++;
                }
            }
        }
    return faces;
}

uint32_t mesh_water(const WorldGen *g, const ChunkScratch *s, SlabWriter *w) {
    uint32_t pools = s->pools ? mesh_pools(s, w) : 0;
    if (!g->isl.on || !g->isl.f->water_dm) return pools;
    uint32_t faces = pools + (g->isl.f->n_falls ? mesh_falls(g, s, w) : 0);
    const IslandField *h = g->isl.f;
    const float half = 0.5f * (float)h->size * h->cell_meters;
    const int64_t x0 = s->cx * CHUNK_SIZE, z0 = s->cz * CHUNK_SIZE;
    const float fx0 = (float)(x0 - g->isl.ox), fz0 = (float)(z0 - g->isl.oz);   /* from the island's origin */
    if (fx0 + (float)CHUNK_SIZE < h->centre_x - half || fx0 > h->centre_x + half ||
        fz0 + (float)CHUNK_SIZE < h->centre_z - half || fz0 > h->centre_z + half)
        return faces;
    const int sc = s->scale, n = s->n;
    const uint64_t flags = (uint64_t)(3u | WORLD_MAT_WATER << 2) << 56;
    for (int z = 0; z < n; z++) {
        int run = 0, from = 0;
        int32_t run_y = 0;
        for (int x = 0; x <= n; x++) {
            int32_t ly = 0;
            if (x < n) {
                ly = gen_home_water_y(g, x0 + x * sc + s->off, z0 + z * sc + s->off);
                if (ly && !water_open(s, x, z, ly)) ly = 0;
            }
            if (run && ly == run_y) {
                run++;
                continue;
            }
            if (run) {
                WorldVertex *q = writer_quad(w);
                if (!q) return faces;
                store_quad(q, pack_pos(from * sc, run_y, z * sc, WORLD_NORMAL_PY) | flags, pack_pos(0, 0, sc, 0),
                           pack_pos(run * sc, 0, 0, 0), WATER_RGBA);
                faces++;
            }
            run = ly ? 1 : 0;
            run_y = ly;
            from = x;
        }
    }
    return faces;
}
