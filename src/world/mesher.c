/* skyisles world: the mesher. One quad per exposed face of the chunk's voxels at its LOD (bit
 * rows with a neighbour apron, LOD seam faces on borders), W6 colour and AO, 12-byte vertices
 * in fixed pool slabs. */
#include "world/world_internal.h"

#include <string.h>

/* Per normal: the normal, then tangents U, V with cross(U, V) = N, so the corner order
 * (0,0) (1,0) (1,1) (0,1) in (U, V) is counter-clockwise seen from outside. */
static const int8_t k_n[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
static const int8_t k_u[6][3] = {{0, 1, 0}, {0, 0, 1}, {0, 0, 1}, {1, 0, 0}, {1, 0, 0}, {0, 1, 0}};
static const int8_t k_v[6][3] = {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}, {0, 0, 1}, {0, 1, 0}, {1, 0, 0}};
static const uint8_t k_cu[4] = {0, 1, 1, 0}, k_cv[4] = {0, 0, 1, 1};
/* Directional shade per normal: sun from above, a little from +X. */
static const float k_dir_shade[6] = {0.82f, 0.74f, 1.0f, 0.5f, 0.68f, 0.62f};
static const float k_cloud_shade[6] = {0.92f, 0.88f, 1.0f, 0.78f, 0.9f, 0.86f};

/* Home island ground colour of a location type: the codex's ground_rgb, baked into the field. */
static void home_rgb(const IslandField *h, uint8_t type, float c[3]) {
    uint32_t rgb = h && type < h->n_types ? h->type_rgb[type] : 0x808080u;
    c[0] = (float)((rgb >> 16) & 0xffu) * (1.0f / 255.0f);
    c[1] = (float)((rgb >> 8) & 0xffu) * (1.0f / 255.0f);
    c[2] = (float)(rgb & 0xffu) * (1.0f / 255.0f);
}

/* Parts live in slabs; a new pass (the clouds) starts a new part, in the room left in the
 * current slab when there is some, so a small mesh fits one slab. */
typedef struct SlabWriter {
    MemPool *pool;
    ChunkMesh *m;
    WorldVertex *slab;     /* current slab */
    uint32_t fill;         /* vertices used in it */
    ChunkMeshPart *part;   /* current part of this pass (NULL: the next quad starts one) */
    uint32_t *pass_parts;
    bool oom;          /* the slab pool ran dry: the mesh is incomplete */
    bool full;         /* the part table is full: the mesh is truncated but usable */
} SlabWriter;

static WorldVertex *writer_quad(SlabWriter *w) {
    if (w->oom || w->full) return NULL;
    bool room = w->slab && w->fill + 4 <= WORLD_SLAB_VERTS;
    if (!w->part || !room) {
        uint32_t np = w->m->opaque_parts + w->m->cloud_parts;
        if (np >= WORLD_MAX_MESH_PARTS) { w->full = true; return NULL; }
        if (!room) {
            WorldVertex *slab = mem_pool_alloc(w->pool);
            if (!slab) { w->oom = true; return NULL; }
            w->slab = slab;
            w->fill = 0;
        }
        w->part = &w->m->parts[np];
        w->part->verts = w->slab + w->fill;
        w->part->vert_count = 0;
        (*w->pass_parts)++;
    }
    WorldVertex *q = w->slab + w->fill;
    w->fill += 4;
    w->part->vert_count += 4;
    return q;
}

static inline uint8_t to_u8(float v) {
    if (!(v > 0.0f)) return 0;
    if (v >= 1.0f) return 255;
    return (uint8_t)(v * 255.0f + 0.5f);
}

static void material_rgb(const WorldGen *g, const ChunkScratch *s, uint8_t mat, int normal, int x, int z, float rgb[3],
                         uint8_t *face_mat) {
    float j = s->jitter[z][x] * g->p.jitter_amount;
    /* Side faces of a surface voxel show exposed earth (the cliff colour); undersides stone. */
    if (normal == WORLD_NORMAL_NY && mat != WORLD_MAT_ABYSS) mat = WORLD_MAT_STONE;
    else if (normal != WORLD_NORMAL_PY && (mat == WORLD_MAT_GRASS || mat == WORLD_MAT_SNOW)) mat = WORLD_MAT_CLIFF;
    *face_mat = mat;
    switch (mat) {
    case WORLD_MAT_GRASS: rgb[0] = 0.3f + j; rgb[1] = 0.5f + j; rgb[2] = 0.2f; break;   /* seed 000 */
    case WORLD_MAT_CLIFF: rgb[0] = 0.46f + j * 0.6f; rgb[1] = 0.39f + j * 0.6f; rgb[2] = 0.3f; break;
    case WORLD_MAT_DIRT: rgb[0] = 0.42f + j; rgb[1] = 0.31f + j; rgb[2] = 0.2f; break;
    case WORLD_MAT_STONE: rgb[0] = 0.47f + j * 0.5f; rgb[1] = 0.46f + j * 0.5f; rgb[2] = 0.5f + j * 0.5f; break;
    case WORLD_MAT_SNOW: rgb[0] = 0.9f + j * 0.3f; rgb[1] = 0.93f + j * 0.3f; rgb[2] = 0.97f; break;
    case WORLD_MAT_HOME: {
        float c[3];
        home_rgb(g->p.home, s->home_type[z][x], c);
        rgb[0] = c[0] + j * 0.5f; rgb[1] = c[1] + j * 0.5f; rgb[2] = c[2] + j * 0.3f;
        break;
    }
    default: rgb[0] = 0.07f; rgb[1] = 0.07f; rgb[2] = 0.09f; break;   /* the abyss: near-black */
    }
}

/* Per-chunk constants of the opaque pass. */
typedef struct MeshCtx {
    const WorldGen *g;
    const ChunkScratch *s;
    SlabWriter *w;
    int sc;                    /* blocks per voxel edge (LOD scale) */
    float aof[4];              /* per-vertex AO factor by level */
    float alt[WV_H];           /* pseudo-AO altitude light per air-cell layer index */
} MeshCtx;

/* Pseudo-AO: brightness rises with altitude above the abyss floor; air under a roof (some
 * rock higher in its column) is in shadow, which darkens island undersides and caves. */
static void mesh_ctx_init(MeshCtx *c, const WorldGen *g, const ChunkScratch *s, SlabWriter *w) {
    c->g = g;
    c->s = s;
    c->w = w;
    c->sc = s->scale;
    for (int k = 0; k < 4; k++) c->aof[k] = 1.0f - g->p.ao_strength * (float)(3 - k);
    float lo = g->p.bedrock_level, hi = g->p.cloud_centre - g->p.cloud_range;
    for (int yi = 0; yi < WV_H; yi++) {
        float ay = (float)gs_block_y(s, yi - 1);   /* the layer's sample height */
        float t = hi > lo ? (ay - lo) / (hi - lo) : 1.0f;
        if (t < 0.0f) t = 0.0f;
        if (t > 1.0f) t = 1.0f;
        c->alt[yi] = g->p.shade_floor + (1.0f - g->p.shade_floor) * t;
    }
}

static inline uint32_t win3(uint64_t row, int x) { return (uint32_t)(row >> x) & 7u; }   /* bits x-1..x+1 */

/* 3x3 occupancy in front of a face as G[a][b] (bit a * 3 + b, offsets -1..1), and whether
 * (U, V) read it transposed: occ(du, dv) = transposed ? G[dv][du] : G[du][dv]. */
static uint32_t front_ring(const ChunkScratch *s, int n, int x, int yi, int z1, bool *transposed) {
    uint32_t gm = 0;
    switch (n) {
    case WORLD_NORMAL_PY:
    case WORLD_NORMAL_NY: {          /* rows z-1..z+1 of the layer above/below, bits x-1..x+1 */
        int l = yi + (n == WORLD_NORMAL_PY ? 1 : -1);
        for (int a = 0; a < 3; a++) gm |= win3(s->solid[l][z1 - 1 + a], x) << (a * 3);
        *transposed = n == WORLD_NORMAL_NY;
        break;
    }
    case WORLD_NORMAL_PZ:
    case WORLD_NORMAL_NZ: {          /* layers y-1..y+1 of the row in front, bits x-1..x+1 */
        int r = z1 + (n == WORLD_NORMAL_PZ ? 1 : -1);
        for (int a = 0; a < 3; a++) gm |= win3(s->solid[yi - 1 + a][r], x) << (a * 3);
        *transposed = n == WORLD_NORMAL_PZ;
        break;
    }
    default: {                       /* column x+-1: layers y-1..y+1 by rows z-1..z+1 */
        int b = x + 1 + (n == WORLD_NORMAL_PX ? 1 : -1);
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++) gm |= (uint32_t)((s->solid[yi - 1 + a][z1 - 1 + c] >> b) & 1u) << (a * 3 + c);
        *transposed = n == WORLD_NORMAL_NX;
        break;
    }
    }
    return gm;
}

/* Face n of voxel (x, layer Y, z), coarse units. */
static void emit_face(const MeshCtx *c, int n, int x, int Y, int z, uint8_t mat) {
    const ChunkScratch *s = c->s;
    const int8_t *N = k_n[n], *U = k_u[n], *V = k_v[n];
    int yi = Y + 1;
    bool tr;
    uint32_t gm = front_ring(s, n, x, yi, z + 1, &tr);
#define OCC(du, dv) (tr ? ((gm >> (((dv) + 1) * 3 + (du) + 1)) & 1u) : ((gm >> (((du) + 1) * 3 + (dv) + 1)) & 1u))
    uint8_t ao[4];
    for (int k = 0; k < 4; k++) {
        int du = k_cu[k] ? 1 : -1, dv = k_cv[k] ? 1 : -1;
        uint32_t s1 = OCC(du, 0), s2 = OCC(0, dv), cn = OCC(du, dv);
        ao[k] = (uint8_t)((s1 && s2) ? 0 : 3 - (s1 + s2 + cn));
    }
#undef OCC
    float rgb[3];
    uint8_t fm;
    material_rgb(c->g, s, mat, n, x, z, rgb, &fm);
    int fx = x + N[0], fy = Y + N[1], fz = z + N[2];
    float light = c->alt[fy + 1];
    if (s->top[fz + 1][fx + 1] > fy) light *= 0.55f;
    light *= k_dir_shade[n];
    rgb[0] *= light;
    rgb[1] *= light;
    rgb[2] *= light;
    WorldVertex *q = writer_quad(c->w);
    if (!q) return;
    /* Rotate so the 0-2 diagonal joins the brighter pair (no AO streak across the quad). */
    int rot = (ao[0] + ao[2] < ao[1] + ao[3]) ? 1 : 0;
    int bx = x + (N[0] > 0), by = Y + (N[1] > 0), bz = z + (N[2] > 0), sc = c->sc;
    for (int i = 0; i < 4; i++) {
        int k = (i + rot) & 3;
        int cu = k_cu[k], cv = k_cv[k];
        float f = c->aof[ao[k]];
        WorldVertex *v = &q[i];
        v->x = (int16_t)((bx + cu * U[0] + cv * V[0]) * sc);
        v->y = (int16_t)(WORLD_Y_MIN + (by + cu * U[1] + cv * V[1]) * sc);
        v->z = (int16_t)((bz + cu * U[2] + cv * V[2]) * sc);
        v->normal = (uint8_t)n;
        v->flags = (uint8_t)(ao[k] | (fm << 2));
        v->r = to_u8(rgb[0] * f);
        v->g = to_u8(rgb[1] * f);
        v->b = to_u8(rgb[2] * f);
        v->a = 255;
    }
}

/* One merged cloud quad: the box [x0, x0+ex) x [y0, y0+ey) x [z0, z0+ez) in voxels (y0 a layer
 * index), one voxel thick along the normal. Clouds are flat-coloured per direction, so
 * merging loses nothing. */
static void emit_cloud_rect(const WorldGen *g, SlabWriter *w, int sc, int n, int x0, int y0, int z0, int ex, int ey,
                            int ez) {
    const int8_t *N = k_n[n], *U = k_u[n], *V = k_v[n];
    WorldVertex *q = writer_quad(w);
    if (!q) return;
    int ext[3] = {ex, ey, ez};
    int eu = U[0] * ext[0] + U[1] * ext[1] + U[2] * ext[2];
    int ev = V[0] * ext[0] + V[1] * ext[1] + V[2] * ext[2];
    uint8_t c = to_u8(0.97f * k_cloud_shade[n]);
    uint8_t cb = to_u8(1.0f * k_cloud_shade[n]);
    int bx = x0 + (N[0] > 0), by = y0 + (N[1] > 0), bz = z0 + (N[2] > 0);
    for (int k = 0; k < 4; k++) {
        WorldVertex *v = &q[k];
        int du = k_cu[k] * eu, dv = k_cv[k] * ev;
        v->x = (int16_t)((bx + du * U[0] + dv * V[0]) * sc);
        v->y = (int16_t)(WORLD_Y_MIN + (by + du * U[1] + dv * V[1]) * sc);
        v->z = (int16_t)((bz + du * U[2] + dv * V[2]) * sc);
        v->normal = (uint8_t)n;
        v->flags = (uint8_t)(3 | (WORLD_MAT_CLOUD << 2));
        v->r = c;
        v->g = c;
        v->b = cb;
        v->a = g->p.cloud_alpha;
    }
}

/* Greedy rectangles over one plane of face bits: runs along the bits, grown over rows. */
static uint32_t merge_plane(const WorldGen *g, SlabWriter *w, int sc, int n, int plane, uint32_t *rows, int nrows) {
    uint32_t quads = 0;
    for (int r = 0; r < nrows; r++) {
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
            int yb = r;   /* rows are layers for X and Z planes */
            if (n == WORLD_NORMAL_PX || n == WORLD_NORMAL_NX) emit_cloud_rect(g, w, sc, n, plane, yb, b0, 1, h, len);
            else if (n == WORLD_NORMAL_PY || n == WORLD_NORMAL_NY) emit_cloud_rect(g, w, sc, n, b0, plane, r, len, 1, h);
            else emit_cloud_rect(g, w, sc, n, b0, yb, plane, len, h, 1);
            quads++;
        }
    }
    return quads;
}

/* Exposed-face masks of row (y, z): bit x+1 set where the voxel has that face. */
static void row_faces(const uint64_t (*rows)[WV_ROW], const uint64_t (*block)[WV_ROW], int yi, int z1, uint64_t interior,
                      uint64_t f[6]) {
    uint64_t r = rows[yi][z1];
    uint64_t b = block[yi][z1];
    /* A face shows where the neighbour is neither the same kind nor `block`. */
    uint64_t occ = r | b;
    f[WORLD_NORMAL_PX] = r & ~(occ >> 1);
    f[WORLD_NORMAL_NX] = r & ~(occ << 1);
    f[WORLD_NORMAL_PY] = r & ~(rows[yi + 1][z1] | block[yi + 1][z1]);
    f[WORLD_NORMAL_NY] = r & ~(rows[yi - 1][z1] | block[yi - 1][z1]);
    f[WORLD_NORMAL_PZ] = r & ~(rows[yi][z1 + 1] | block[yi][z1 + 1]);
    f[WORLD_NORMAL_NZ] = r & ~(rows[yi][z1 - 1] | block[yi][z1 - 1]);
    for (int n = 0; n < 6; n++) f[n] &= interior;
}

/* LOD seams: a border face the apron culled is kept where the neighbour, at a LOD one finer or
 * coarser than this chunk's, may be air over it (gen_seam_covered), and on every surface voxel
 * (a voxel with any exposed face): the T-junctions between voxel sizes can leave sub-pixel
 * gaps along a seam, and a face one voxel deep behind the edge fills them. Such a face is
 * hidden inside the neighbour when both are solid. */
static void seam_faces(const WorldGen *g, ChunkScratch *s, int Y, int z, uint64_t r, uint64_t f[6]) {
    const int n = s->n;
    const uint64_t lo = 2ull, hi = 1ull << n;
    uint64_t surf = f[0] | f[1] | f[2] | f[3] | f[4] | f[5];
    if ((r & lo) && !(f[WORLD_NORMAL_NX] & lo) &&
        ((surf & lo) || !gen_seam_covered(g, s, WORLD_NORMAL_NX, Y, z)))
        f[WORLD_NORMAL_NX] |= lo;
    if ((r & hi) && !(f[WORLD_NORMAL_PX] & hi) &&
        ((surf & hi) || !gen_seam_covered(g, s, WORLD_NORMAL_PX, Y, z)))
        f[WORLD_NORMAL_PX] |= hi;
    for (int side = 0; side < 2; side++) {
        int nz = side ? WORLD_NORMAL_PZ : WORLD_NORMAL_NZ;
        if (z != (side ? n - 1 : 0)) continue;
        uint64_t m = r & ~f[nz];
        f[nz] |= m & surf;
        m &= ~surf;
        while (m) {
            int b = __builtin_ctzll(m);
            m &= m - 1;
            if (!gen_seam_covered(g, s, nz, Y, b - 1)) f[nz] |= 1ull << b;
        }
    }
}

bool mesh_chunk(const WorldGen *g, ChunkScratch *s, MemPool *slabs, ChunkMesh *out, MeshCounts *counts) {
    memset(out, 0, sizeof *out);
    out->cx = s->cx;
    out->cz = s->cz;
    out->lod = (uint32_t)s->lod;
    MeshCounts mc = {0, 0, 0, false};
    SlabWriter w = {slabs, out, NULL, 0, NULL, &out->opaque_parts, false, false};
    const int n = s->n, ny = s->ny, sc = s->scale, dl = gs_dirt_layers(s);
    const uint64_t interior = ((1ull << n) - 1ull) << 1;
    /* Opaque pass: solid voxels against anything not solid (air or cloud). Materials by
     * depth (gen_material) come from masks of the rows above. */
    static const uint64_t zero_rows[WV_H][WV_ROW];
    MeshCtx ctx;
    mesh_ctx_init(&ctx, g, s, &w);
    for (int Y = 0; Y < ny; Y++) {
        int yi = Y + 1, by = gs_block_y(s, Y);
        bool abyss = (float)by < g->p.bedrock_level;
        for (int z = 0; z < n; z++) {
            uint64_t r = s->solid[yi][z + 1] & interior;
            if (!r) continue;
            uint64_t f[6];
            row_faces((const uint64_t (*)[WV_ROW])s->solid, zero_rows, yi, z + 1, interior, f);
            if (s->seams && ((r & (2ull | (1ull << n))) || z == 0 || z == n - 1)) seam_faces(g, s, Y, z, r, f);
            uint64_t any = f[0] | f[1] | f[2] | f[3] | f[4] | f[5];
            if (!any) continue;
            uint64_t above[4];
            for (int k = 0; k < 4; k++) above[k] = Y + 1 + k < ny ? s->solid[yi + 1 + k][z + 1] : 0;
            uint64_t surf = r & ~above[0];
            uint64_t stone = r;
            for (int k = 0; k < dl; k++) stone &= above[k];
            for (int nn = 0; nn < 6; nn++) {
                uint64_t m = f[nn];
                while (m) {
                    int b = __builtin_ctzll(m);
                    m &= m - 1;
                    uint64_t bit = 1ull << b;
                    uint8_t mat;
                    if (abyss) mat = WORLD_MAT_ABYSS;
                    else if (surf & bit) mat = gen_surface_material(g, s, b - 1, by, z);
                    else mat = (stone & bit) ? WORLD_MAT_STONE : WORLD_MAT_DIRT;
                    emit_face(&ctx, nn, b - 1, Y, z, mat);
                    mc.faces++;
                }
            }
        }
    }
    /* The floor: below WORLD_Y_MIN counts as solid, and bedrock makes block 0 solid, but a
     * coarse layer 0 samples block s/2, which can be air where the floor is thin. The floor's
     * top face then closes the column (at LOD 0 layer 0 is bedrock and this adds nothing). */
    if (s->seams)
        for (int z = 0; z < n; z++) {
            uint64_t open = ~s->solid[1][z + 1] & interior;
            while (open) {
                int b = __builtin_ctzll(open);
                open &= open - 1;
                emit_face(&ctx, WORLD_NORMAL_PY, b - 1, -1, z, WORLD_MAT_ABYSS);
                mc.faces++;
            }
        }
    /* Cloud pass: cloud voxels against air only (never a face inside rock or cloud), faces
     * gathered per plane and merged into rectangles. */
    w.part = NULL;
    w.pass_parts = &out->cloud_parts;
    int ylo = ny, yhi = -1;
    for (int Y = 0; Y < ny; Y++) {
        int yi = Y + 1;
        for (int z = 0; z < n; z++) {
            if (!(s->cloud[yi][z + 1] & interior)) continue;
            if (ylo > Y) {
                ylo = Y;
                memset(s->cplane, 0, sizeof s->cplane);
            }
            yhi = Y;
            uint64_t f[6];
            row_faces((const uint64_t (*)[WV_ROW])s->cloud, (const uint64_t (*)[WV_ROW])s->solid, yi, z + 1, interior, f);
            int r = Y;
            for (int nn = 0; nn < 6; nn++) {
                uint32_t bits = (uint32_t)(f[nn] >> 1);
                if (!bits) continue;
                if (nn == WORLD_NORMAL_PY || nn == WORLD_NORMAL_NY) {
                    s->cplane[nn][r * CHUNK_SIZE + z] = bits;            /* plane y, row z, bits x */
                } else if (nn == WORLD_NORMAL_PZ || nn == WORLD_NORMAL_NZ) {
                    s->cplane[nn][z * WV_H + r] = bits;                  /* plane z, row y, bits x */
                } else {
                    while (bits) {                                       /* plane x, row y, bits z */
                        int x = __builtin_ctz(bits);
                        bits &= bits - 1;
                        s->cplane[nn][x * WV_H + r] |= 1u << z;
                    }
                }
                mc.faces += (uint32_t)__builtin_popcount((uint32_t)(f[nn] >> 1));
            }
        }
    }
    if (yhi >= ylo) {
        int r0 = ylo, nr = yhi - ylo + 1;
        for (int nn = 0; nn < 6; nn++) {
            if (nn == WORLD_NORMAL_PY || nn == WORLD_NORMAL_NY) {
                for (int r = r0; r < r0 + nr; r++)
                    merge_plane(g, &w, sc, nn, r, &s->cplane[nn][r * CHUNK_SIZE], n);
            } else {
                for (int pl = 0; pl < n; pl++) {
                    uint32_t *rows = &s->cplane[nn][pl * WV_H];
                    /* rows r0..r0+nr-1; merge_plane counts rows from layer 0, so pass the base. */
                    merge_plane(g, &w, sc, nn, pl, rows, r0 + nr);
                }
            }
        }
    }
    for (uint32_t i = 0; i < out->opaque_parts; i++) mc.opaque_verts += out->parts[i].vert_count;
    for (uint32_t i = 0; i < out->cloud_parts; i++) mc.cloud_verts += out->parts[out->opaque_parts + i].vert_count;
    mc.truncated = w.full;
    if (counts) *counts = mc;
    return !w.oom;
}

uint32_t mesh_slab_count(const MemPool *slabs, const ChunkMesh *m) {
    uint32_t np = m->opaque_parts + m->cloud_parts, k = 0;
    for (uint32_t i = 0; i < np && i < WORLD_MAX_MESH_PARTS; i++)
        if (m->parts[i].verts && mem_pool_owns(slabs, m->parts[i].verts)) k++;
    return k;
}

void mesh_free(MemPool *slabs, ChunkMesh *m) {
    uint32_t np = m->opaque_parts + m->cloud_parts;
    for (uint32_t i = 0; i < np && i < WORLD_MAX_MESH_PARTS; i++) {
        /* A part that continues a slab (the first cloud part) owns no slab of its own. */
        if (m->parts[i].verts && mem_pool_owns(slabs, m->parts[i].verts)) mem_pool_free(slabs, (void *)m->parts[i].verts);
        m->parts[i].verts = NULL;
        m->parts[i].vert_count = 0;
    }
    m->opaque_parts = m->cloud_parts = 0;
}
