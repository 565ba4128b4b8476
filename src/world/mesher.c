/* skyisles world: the mesher's terrain pass. One quad per exposed face of the chunk's voxels at
 * its LOD (bit rows with a neighbour apron, LOD seam faces on borders), W6 colour and AO,
 * 12-byte vertices in fixed pool slabs. A layer at a time: its rows with faces are found first
 * (face masks by shifts and AND-NOTs over whole rows, kept as pair masks with the depth classes),
 * then its looks made and the rows' faces written in output order, the AO entry of each from its
 * front ring in the same rows. The per-chunk constants are mesh_ctx.c's. */
#include "world/mesh_terrain.h"

#include <string.h>

/* Light under a roof (some rock higher in the air cell's column): x 0.55. */
static const float k_roof_shade[2] = {1.0f, 0.55f};

/* The side looks' palettes (their materials as they are) for the band of block height by. */
static void look_band(MeshCtx *c, int by) {
    const int variant = 1 + mesh_band(by);
    static const uint8_t k_sides[4] = {WORLD_NORMAL_PX, WORLD_NORMAL_NX, WORLD_NORMAL_PZ, WORLD_NORMAL_NZ};
    for (int k = 0; k < 4; k++)
        for (int cls = 0; cls < 3; cls++) {
            FaceLook *L = &c->look[LOOK(k_sides[k], cls)];
            L->pal = (const float (*)[4])g_mesh_tab.pal[variant][L->fm];
            L->variant = (uint8_t)variant;
        }
    c->look_band = mesh_band(by);
}

/* The materials and home flags of the layer's looks, for the materials by depth class mat and
 * the home test, then their palettes (the tops' and bottoms' one variant, the sides' by the band
 * of block height by). */
static void look_materials(MeshCtx *c, int by, const uint8_t mat[3], bool home) {
    for (int n = 0; n < 6; n++)
        for (int cls = 0; cls < 3; cls++) {   /* (class 3 never: surface and stone exclude each other) */
            FaceLook *L = &c->look[LOOK(n, cls)];
            uint8_t fm = g_mesh_tab.face_mat[n][mat[cls]];
            L->pal = (const float (*)[4])g_mesh_tab.pal[0][fm];   /* (the sides': look_band) */
            L->blendable = (uint8_t)((BIOME_MATS >> fm) & 1u);
            L->fm = fm;
            L->home = home && cls == 1;
            L->variant = 0;
        }
    look_band(c, by);
}

/* The looks of layer Y (Y = -1: the floor's faces, abyss). Their materials, palettes and home
 * flags follow from the layer's materials, band and home test, the same for most layers in a
 * row: made again only when those change (look_key), the side looks' palettes when the band does
 * (look_band); the sides, light and packed corner always
 * (one copy per normal, its directions constants). */
static void layer_look(MeshCtx *c, int Y) {
    const WorldGen *g = c->g;
    const int by = gs_block_y(c->s, Y), sc = c->sc;
    bool abyss = Y < 0 || (float)by < g->p.bedrock_level;
    /* gen_surface_material: snow or grass by height, unless the home island may claim it. */
    uint8_t mat[3] = {abyss ? WORLD_MAT_ABYSS : WORLD_MAT_DIRT,
                      abyss ? WORLD_MAT_ABYSS : (float)by >= g->p.snow_level ? WORLD_MAT_SNOW : WORLD_MAT_GRASS,
                      abyss ? WORLD_MAT_ABYSS : WORLD_MAT_STONE};
    bool home = !abyss && g->isl.on && (float)by >= g->isl.sea - WORLD_HOME_FLOOR;
    c->homes = home;
    const uint32_t key = 1u << 31 | (uint32_t)home << 24 | (uint32_t)mat[0] << 16 | (uint32_t)mat[1] << 8 | mat[2];
    if (key != c->look_key) look_materials(c, by, mat, home);
    else if (mesh_band(by) != c->look_band) look_band(c, by);   /* the same materials in another band */
    c->look_key = key;
    const ChunkScratch *s = c->s;
    const int yi = Y + 1;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 6
#endif
    for (int n = 0; n < 6; n++) {
        const int8_t *N = k_n[n];
        LayerSide *sd = &c->side[n];
        sd->fy = Y + N[1];
        if (N[1]) {   /* +-Y: rows z-1..z+1 of the layer in front (none below the floor's layer -1) */
            sd->ring = s->solid[yi + N[1] < 0 ? 0 : yi + N[1]], sd->st = 1;
        } else if (N[2] && Y >= 0) {   /* +-Z: layers y-1..y+1 of the row in front (the floor has none) */
            sd->ring = &s->solid[yi - 1][1 + N[2]], sd->st = WV_ROW;
        } else {
            sd->ring = NULL, sd->st = 0;
        }
        /* Altitude, then a roof's shade, then the direction. */
        int ai = Y + N[1] + 1;
        float alt = c->alt[ai < 0 ? 0 : ai];   /* (the floor's layer -1 has top faces only) */
        float lit0 = alt * k_roof_shade[0] * k_dir_shade[n], lit1 = alt * k_roof_shade[1] * k_dir_shade[n];
        uint64_t p0 = pack_pos((N[0] > 0) * sc, WORLD_Y_MIN + (Y + (N[1] > 0)) * sc, (N[2] > 0) * sc, n);
#if defined(MESH_REFERENCE_COLOUR)
        const f32x4 l0 = f32x4_set1(lit0), l1 = f32x4_set1(lit1);
#else
        const float k0 = lit0 * MESH_COL_K, k1 = lit1 * MESH_COL_K;   /* face_colours' units; alpha's lane as it is */
        const f32x4 l0 = f32x4_set4(k0, k0, k0, 1.0f), l1 = f32x4_set4(k1, k1, k1, 1.0f);
#endif
        FaceLook *L = &c->look[LOOK(n, 0)];
        for (int cls = 0; cls < 3; cls++) {
            f32x4_store(L[cls].lit[0], l0);
            f32x4_store(L[cls].lit[1], l1);
            L[cls].p0 = p0 | (uint64_t)L[cls].fm << 58;
            L[cls].by = (int16_t)by;
        }
    }
}

/* The four vertices' colours of a face of lit colour rgb (in 1/64 units, MESH_COL_K) and AO
 * entry e: bytes r, g, b, 255 per vertex. With MESH_REFERENCE_COLOUR (tests only) the float
 * formula before the 16-bit steps, to_u8(lit colour * f_i), rgb then its plain lit colour. */
#if defined(MESH_REFERENCE_COLOUR)
static inline void face_colours(const MeshCtx *c, f32x4 rgb, uint32_t e, uint32_t cv[4]) {
    float v[4];
    f32x4_store(v, rgb);
    for (int i = 0; i < 4; i++) {
        float f = c->aof[(MESH_AO_INDEX(e) >> (2 * i)) & 3u];
        cv[i] = (uint32_t)to_u8(v[0] * f) | (uint32_t)to_u8(v[1] * f) << 8 | (uint32_t)to_u8(v[2] * f) << 16 | 255u << 24;
    }
}
#elif defined(SIMD_SSE2)
static inline __attribute__((always_inline)) __m128i face_colours(const MeshCtx *c, f32x4 rgb, uint32_t e) {
    const AoEntry *ae = ao_entry(c->aoe, e);
    /* Truncated, saturated to int16, no less than 0; twice (vertices 0-1 and 2-3 share it). */
    __m128i c32 = _mm_cvttps_epi32(rgb);
    __m128i c16 = _mm_max_epi16(_mm_packs_epi32(c32, c32), _mm_setzero_si128());
    const __m128i bias = _mm_set1_epi16(MESH_COL_BIAS);
    __m128i m01 = _mm_srli_epi16(_mm_add_epi16(_mm_mulhi_epu16(c16, _mm_load_si128((const __m128i *)(const void *)ae->q[0])), bias),
                                 MESH_COL_SHIFT);
    __m128i m23 = _mm_srli_epi16(_mm_add_epi16(_mm_mulhi_epu16(c16, _mm_load_si128((const __m128i *)(const void *)ae->q[1])), bias),
                                 MESH_COL_SHIFT);
    return _mm_packus_epi16(m01, m23);   /* bytes in vertex order (alpha: lane 3 saturates to 255) */
}
#elif defined(SIMD_NEON)
static inline __attribute__((always_inline)) void face_colours(const MeshCtx *c, f32x4 rgb, uint32_t e, uint32_t cv[4]) {
    const AoEntry *ae = ao_entry(c->aoe, e);
    int16x4_t s16 = vmax_s16(vqmovn_s32(vcvtq_s32_f32(rgb)), vdup_n_s16(0));   /* SSE2's packs and max */
    uint16x4_t c16 = vreinterpret_u16_s16(s16);
    uint16x8_t q0 = vld1q_u16(ae->q[0]), q1 = vld1q_u16(ae->q[1]);
    /* The high halves of the 32-bit products: pmulhuw's. */
    uint16x8_t m01 = vcombine_u16(vshrn_n_u32(vmull_u16(c16, vget_low_u16(q0)), 16), vshrn_n_u32(vmull_u16(c16, vget_high_u16(q0)), 16));
    uint16x8_t m23 = vcombine_u16(vshrn_n_u32(vmull_u16(c16, vget_low_u16(q1)), 16), vshrn_n_u32(vmull_u16(c16, vget_high_u16(q1)), 16));
    const uint16x8_t bias = vdupq_n_u16(MESH_COL_BIAS);
    m01 = vshrq_n_u16(vaddq_u16(m01, bias), MESH_COL_SHIFT);
    m23 = vshrq_n_u16(vaddq_u16(m23, bias), MESH_COL_SHIFT);
    uint8x16_t b = vcombine_u8(vqmovn_u16(m01), vqmovn_u16(m23));
    vst1q_u32(cv, vorrq_u32(vreinterpretq_u32_u8(b), vdupq_n_u32(0xff000000u)));
}
#else
static inline void face_colours(const MeshCtx *c, f32x4 rgb, uint32_t e, uint32_t cv[4]) {
    const AoEntry *ae = ao_entry(c->aoe, e);
    float v[4];
    f32x4_store(v, rgb);
    uint32_t c16[3];
    for (int k = 0; k < 3; k++) c16[k] = v[k] >= 32767.0f ? 32767u : v[k] > 0.0f ? (uint32_t)v[k] : 0u;   /* the vectors' steps */
    for (int i = 0; i < 4; i++) {
        uint32_t q = ae->q[i >> 1][(i & 1) * 4], px = 255u << 24;
        for (int k = 0; k < 3; k++) {
            uint32_t m = (((c16[k] * q) >> 16) + MESH_COL_BIAS) >> MESH_COL_SHIFT;
            px |= (m > 255u ? 255u : m) << (8 * k);
        }
        cv[i] = px;
    }
}
#endif

/* The four vertices of a face into q: lit colour rgb, AO entry e, corner offsets off (by the
 * entry's rotation), packed first corner p0 (position, normal, material flags). */
static inline __attribute__((always_inline)) void store_face(const MeshCtx *c, WorldVertex *restrict q, f32x4 rgb,
                                                             uint32_t e, const uint64_t *off, uint64_t p0) {
    const uint64_t *fl = ao_entry(c->aoe, e)->fl;
#if defined(MESH_PACKED) && defined(SIMD_SSE2) && !defined(MESH_REFERENCE_COLOUR)
    __m128i col = face_colours(c, rgb, e);
    /* Positions two per vector, then the 48 bytes as three stores: 32-bit lanes p0 = a b, p1 =
     * c d, p2 = e f, p3 = g h, colours k0-k3: [a b k0 c] [d k1 e f] [k2 g h k3]. */
    __m128i pv = _mm_set1_epi64x((long long)p0);
    __m128 p01 = _mm_castsi128_ps(_mm_add_epi64(pv, _mm_add_epi64(_mm_loadu_si128((const __m128i *)(const void *)off),
                                                                  _mm_loadu_si128((const __m128i *)(const void *)fl))));
    __m128 p23 = _mm_castsi128_ps(_mm_add_epi64(pv, _mm_add_epi64(_mm_loadu_si128((const __m128i *)(const void *)(off + 2)),
                                                                  _mm_loadu_si128((const __m128i *)(const void *)(fl + 2)))));
    __m128 k = _mm_castsi128_ps(col);
    __m128 t0 = _mm_shuffle_ps(k, p01, _MM_SHUFFLE(2, 2, 0, 0));    /* k0 k0 c c */
    __m128 t1 = _mm_shuffle_ps(p01, k, _MM_SHUFFLE(1, 1, 3, 3));    /* d d k1 k1 */
    __m128 t2 = _mm_shuffle_ps(k, p23, _MM_SHUFFLE(3, 2, 3, 2));    /* k2 k3 g h */
    float *d = (float *)(void *)q;
    _mm_storeu_ps(d, _mm_shuffle_ps(p01, t0, _MM_SHUFFLE(2, 1, 1, 0)));
    _mm_storeu_ps(d + 4, _mm_shuffle_ps(t1, p23, _MM_SHUFFLE(1, 0, 2, 0)));
    _mm_storeu_ps(d + 8, _mm_shuffle_ps(t2, t2, _MM_SHUFFLE(1, 3, 2, 0)));
#else
    uint32_t cv[4];
#if defined(SIMD_SSE2) && !defined(MESH_REFERENCE_COLOUR)
    _mm_storeu_si128((__m128i *)(void *)cv, face_colours(c, rgb, e));
#else
    face_colours(c, rgb, e, cv);
#endif
    for (int i = 0; i < 4; i++) store_vertex(&q[i], p0 + off[i] + fl[i], cv[i]);
#endif
}

/* One face (AO entry e, column col, look L, under a roof or not) through the writer: a slab or
 * part changes only between quads, as writer_quad would. */
static inline __attribute__((always_inline)) void emit_face(const MeshCtx *restrict c, SlabWriter *w, Span *sp,
                                                            const bool homes, uint32_t e, int col, const FaceLook *L,
                                                            uint32_t roof) {
    if (__builtin_expect(sp->q == sp->end, 0) && !span_next(w, sp)) {
        sp->lost++;
        return;
    }
    uint64_t p0 = L->p0 + c->colpos[col];
    f32x4 rgb;
    if (homes && __builtin_expect(L->home, 0)) {   /* (homes: the layer has a look the island may claim) */
        uint8_t fm = L->fm;
        rgb = mesh_home_colour(c, L, col, &fm);
        p0 ^= (uint64_t)(fm ^ L->fm) << 58;   /* a home-island surface's own material */
    } else {
        rgb = blend_colour(c, L->pal, col, c->blend[col] & L->blendable);
    }
    rgb = f32x4_mul(rgb, f32x4_load(L->lit[roof]));
    store_face(c, sp->q, rgb, e, ao_corner(L->corner, e), p0);
    sp->q += 4;
}

/* The rows a +-X face's 3x3 front ring reads (faces_x). With SSE2 the eight rows are pairs in four
 * vectors (ring bits 0-1, 2-3, 5-6, 7-8), built from the rows in registers, never through memory;
 * without, w[j] is pre-shifted left by j and gives ring bit j. */
typedef struct XRows {
#if defined(SIMD_SSE2)
    __m128i v[4];
#else
    uint64_t w[9];
#endif
} XRows;

/* The ring entry of a +-X face whose column in front is bit `front` of the rows. With SSE2 each
 * pair is shifted so that bit lands on its lane's sign (one shift for both lanes), the signs
 * gathered by movmskpd. */
static inline __attribute__((always_inline)) uint32_t xring_entry(const XRows *xr, int front) {
#if defined(SIMD_SSE2)
    const __m128i sh = _mm_cvtsi32_si128(63 - front);
    uint32_t m0 = (uint32_t)_mm_movemask_pd(_mm_castsi128_pd(_mm_sll_epi64(xr->v[0], sh)));
    uint32_t m1 = (uint32_t)_mm_movemask_pd(_mm_castsi128_pd(_mm_sll_epi64(xr->v[1], sh)));
    uint32_t m2 = (uint32_t)_mm_movemask_pd(_mm_castsi128_pd(_mm_sll_epi64(xr->v[2], sh)));
    uint32_t m3 = (uint32_t)_mm_movemask_pd(_mm_castsi128_pd(_mm_sll_epi64(xr->v[3], sh)));
    return m0 | m1 << 2 | m2 << 5 | m3 << 7;
#else
    uint32_t gm = 0;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 9
#endif
    for (int j = 0; j < 9; j++)
        if (j != 4) gm |= (uint32_t)(xr->w[j] >> front) & (1u << j);
    return gm;
#endif
}

/* The faces of masks ma (and mb when two: its bits after all of ma's), bit 32k + x a face of
 * side k (k + 2 for mb) of the layer's sides from side0 at column x of row z, written in order
 * from one loop: each one's AO entry from its 3x3 front ring (bit a * 3 + b: for +-Y and +-Z
 * three rows whose bits x-1..x+1 are a ring row; for +-X, xring, the column in front in layers
 * y-1..y+1 by rows z-1..z+1 from xr), its depth class from the surf0 (at
 * bit x + LOOK_SHIFT) and stone (at bit x + 1 + LOOK_SHIFT) masks, and whether rock higher in the column in front roofs
 * its air cell. One loop for +-Y and +-Z together ends a row's search once, not twice. */
static inline __attribute__((always_inline)) void face_run(const MeshCtx *restrict c, SlabWriter *w, Span *sp,
                                                           const bool xring, const bool two, const bool homes, uint64_t ma,
                                                           uint64_t mb, int side0, const XRows *xr, int z, uint64_t surf0,
                                                           uint64_t stone) {
    const int colz = z * CHUNK_SIZE, topz = z * WV_ROW;
    const LayerSide *sides = &c->side[side0];
    while (two ? (ma | mb) != 0 : ma != 0) {
        uint64_t cur = ma;
        int si = 0;
        if (two) {   /* (selects, not branches) */
            const bool ina = ma != 0;
            cur = ina ? ma : mb;
            si = ina ? 0 : 2;
        }
        const int i = __builtin_ctzll(cur), x = i & 31;
        const LayerSide *sd = &sides[si + (i >> 5)];
        const uint64_t rest = cur & (cur - 1);
        if (two) {
            const bool ina = si == 0;
            ma = ina ? rest : ma;
            mb = ina ? mb : rest;
        } else {
            ma = rest;
        }
        uint32_t gm;
        if (xring) {
            const int front = x + 2 - 2 * (i >> 5);   /* +X: x + 1, -X: x - 1 */
            gm = xring_entry(xr, front);
        } else {
            const uint64_t *r = sd->ring + z;
            const int st = sd->st;
            gm = ((uint32_t)(r[0] >> x) & 7u) | ((uint32_t)(r[st] >> x) & 7u) << 3 | ((uint32_t)(r[2 * st] >> x) & 7u) << 6;
        }
        /* The look of its depth class: the class's bits land on the look's byte offset. */
        const uint32_t cls = ((uint32_t)(surf0 >> x) & (1u << LOOK_SHIFT)) | ((uint32_t)(stone >> x) & (2u << LOOK_SHIFT));
        const FaceLook *L = (const FaceLook *)(const void *)((const char *)sd->look + cls);
        emit_face(c, w, sp, homes, sd->lut[gm], colz + x, L, (uint32_t)(sd->top[topz + x] > sd->fy));
    }
}

/* Both masks of a pair side by side: bit 32k + x for normal 2P + k, column x. */
static inline uint64_t pair_mask(uint64_t fa, uint64_t fb) { return fa >> 1 | (fb >> 1) << 32; }

/* +-X faces of row z of a layer, whose rows z-1..z+1 are l1[0..2] (l0 below, l2 above). Ring bit
 * j = layer a * 3 + row c (XRows; X faces are never on the floor's layer -1). The centre (j = 4) is left out: no AO corner reads it (ao_init), so
 * lut[gm] is the same without it. */
static inline __attribute__((always_inline)) void faces_x(const MeshCtx *restrict c, SlabWriter *w, Span *sp,
                                                              const bool homes, uint64_t pair, const uint64_t *l0,
                                                              const uint64_t *l1, const uint64_t *l2, int z, uint64_t surf0,
                                                              uint64_t stone) {
    _Static_assert(CHUNK_SIZE <= 32, "a pair's two masks share one word");
    XRows xr;
#if defined(SIMD_SSE2)
    const __m128i *p0 = (const __m128i *)(const void *)l0, *p2 = (const __m128i *)(const void *)(l2 + 1);
    xr.v[0] = _mm_loadu_si128(p0);
    xr.v[1] = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)(l0 + 2)),
                                 _mm_loadl_epi64((const __m128i *)(const void *)l1));
    xr.v[2] = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)(l1 + 2)),
                                 _mm_loadl_epi64((const __m128i *)(const void *)l2));
    xr.v[3] = _mm_loadu_si128(p2);
#else
    xr.w[0] = l0[0], xr.w[1] = l0[1] << 1, xr.w[2] = l0[2] << 2, xr.w[3] = l1[0] << 3, xr.w[4] = 0, xr.w[5] = l1[2] << 5;
    xr.w[6] = l2[0] << 6, xr.w[7] = l2[1] << 7, xr.w[8] = l2[2] << 8;
#endif
    face_run(c, w, sp, true, false, homes, pair, 0, 0, &xr, z, surf0, stone);
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

/* A layer's rows by z: their pair masks (pair_mask: +-X, +-Y, +-Z) and depth classes (surf0 at
 * bit x + LOOK_SHIFT, stone at bit x + 1 + LOOK_SHIFT: shifted right by x, the look's offset); `has`: bit z the row has faces (the others are not written). */
typedef struct LayerRows {
    uint64_t x[CHUNK_SIZE], y[CHUNK_SIZE], z[CHUNK_SIZE], surf0[CHUNK_SIZE], stone[CHUNK_SIZE];
    uint32_t has;
} LayerRows;

/* pair_mask of two rows at once. */
static inline Rows2 rows2_pair(Rows2 fa, Rows2 fb) { return rows2_or(ROWS2_SHR(fa, 1), ROWS2_SHL(ROWS2_SHR(fb, 1), 32)); }

/* The rows of layer Y with faces into lr. Without the LOD seams two rows at a time, a pair with no
 * rock passed over; with them a row at a time (seam_faces). */
static inline __attribute__((always_inline)) void layer_rows(const MeshCtx *ctx, ChunkScratch *s, const bool seams, int Y,
                                                             LayerRows *lr) {
    static const uint64_t k_no_row[WV_ROW];   /* above the top layer: air */
    const WorldGen *g = ctx->g;
    const int n = s->n, ny = s->ny, dl = gs_dirt_layers(s), yi = Y + 1;
    const uint64_t interior = ((1ull << n) - 1ull) << 1;
    const uint64_t *cur = s->solid[yi], *up = s->solid[yi + 1], *dn = s->solid[yi - 1];
    /* The layers above, for materials by depth: dl of them (gs_dirt_layers: at most four; air
     * above the top layer), then the layer itself, which takes nothing from its own rock. */
    const uint64_t *above[4];
    for (int k = 0; k < 4; k++) above[k] = k >= dl ? cur : Y + 1 + k < ny ? s->solid[yi + 1 + k] : k_no_row;
    uint32_t has = 0;
    if (seams) {
        for (int z = 0; z < n; z++) {
            uint64_t row = cur[z + 1], r = row & interior;
            if (!r) continue;
            /* Exposed faces: solid against anything not solid. */
            uint64_t f[6] = {r & ~(row >> 1), r & ~(row << 1), r & ~up[z + 1], r & ~dn[z + 1], r & ~cur[z + 2], r & ~cur[z]};
            if ((r & (2ull | (1ull << n))) || z == 0 || z == n - 1) seam_faces(g, s, Y, z, r, f);
            lr->x[z] = pair_mask(f[0], f[1]);
            lr->y[z] = pair_mask(f[2], f[3]);
            lr->z[z] = pair_mask(f[4], f[5]);
            lr->surf0[z] = (r & ~above[0][z + 1]) << (LOOK_SHIFT - 1);
            lr->stone[z] = (r & above[0][z + 1] & above[1][z + 1] & above[2][z + 1] & above[3][z + 1]) << LOOK_SHIFT;
            has |= (uint32_t)((lr->x[z] | lr->y[z] | lr->z[z]) != 0) << z;
        }
    } else {
        const Rows2 in = rows2_set1(interior);
        for (int z = 0; z < n; z += 2) {   /* (n is even: CHUNK_SIZE >> lod, at least 4) */
            if (!((cur[z + 1] | cur[z + 2]) & interior)) continue;
            const Rows2 row = rows2_load(cur + z + 1), r = rows2_and(row, in);
            /* Exposed faces: solid against anything not solid. */
            const Rows2 fx = rows2_pair(rows2_andnot(r, ROWS2_SHR(row, 1)), rows2_andnot(r, ROWS2_SHL(row, 1)));
            const Rows2 fy = rows2_pair(rows2_andnot(r, rows2_load(up + z + 1)), rows2_andnot(r, rows2_load(dn + z + 1)));
            const Rows2 fz = rows2_pair(rows2_andnot(r, rows2_load(cur + z + 2)), rows2_andnot(r, rows2_load(cur + z)));
            const Rows2 a0 = rows2_load(above[0] + z + 1);
            rows2_store(lr->x + z, fx);
            rows2_store(lr->y + z, fy);
            rows2_store(lr->z + z, fz);
            rows2_store(lr->surf0 + z, ROWS2_SHL(rows2_andnot(r, a0), LOOK_SHIFT - 1));
            rows2_store(lr->stone + z, ROWS2_SHL(rows2_and(rows2_and(rows2_and(r, a0), rows2_load(above[1] + z + 1)),
                                                           rows2_and(rows2_load(above[2] + z + 1), rows2_load(above[3] + z + 1))),
                                                 LOOK_SHIFT));
            has |= rows2_nonzero(rows2_or(rows2_or(fx, fy), fz)) << z;
        }
    }
    lr->has = has;
}

/* The faces of the rows of a layer (l: its rows from z = -1 of the layers below, at and above it). */
static inline __attribute__((always_inline)) void mesh_rows(const MeshCtx *restrict c, SlabWriter *w, Span *sp,
                                                            const bool homes, const LayerRows *lr, const uint64_t *const l[3]) {
    for (uint32_t m = lr->has; m; m &= m - 1) {
        const int z = __builtin_ctz(m);
        if (lr->x[z]) faces_x(c, w, sp, homes, lr->x[z], l[0] + z, l[1] + z, l[2] + z, z, lr->surf0[z], lr->stone[z]);
        if (lr->y[z] | lr->z[z])   /* +-Y, then +-Z */
            face_run(c, w, sp, false, true, homes, lr->y[z], lr->z[z], 2, NULL, z, lr->surf0[z], lr->stone[z]);
    }
}

/* The terrain faces of layer Y into sp: its rows with faces found, its looks made, then the faces
 * written row by row. */
static void mesh_layer(MeshCtx *ctx, ChunkScratch *s, int Y, SlabWriter *w, Span *sp) {
    LayerRows lr;
    if (s->seams) layer_rows(ctx, s, true, Y, &lr);
    else layer_rows(ctx, s, false, Y, &lr);
    if (!lr.has) return;
    layer_look(ctx, Y);
    const int yi = Y + 1;
    const uint64_t *const lay[3] = {s->solid[yi - 1], s->solid[yi], s->solid[yi + 1]};
    /* One copy of the loops for layers the home island may claim, one for the others. */
    if (ctx->homes) mesh_rows(ctx, w, sp, true, &lr, lay);
    else mesh_rows(ctx, w, sp, false, &lr, lay);
}

/* The floor: below WORLD_Y_MIN counts as solid, and bedrock makes block 0 solid, but a coarse
 * layer 0 samples block s/2, which can be air where the floor is thin. The floor's top face then
 * closes the column (at LOD 0 layer 0 is bedrock and this adds nothing): the top faces of a
 * layer -1 of abyss, into sp. */
static void mesh_floor(MeshCtx *ctx, const ChunkScratch *s, SlabWriter *w, Span *sp) {
    const int n = s->n;
    const uint64_t interior = ((1ull << n) - 1ull) << 1;
    bool looked = false;
    for (int z = 0; z < n; z++) {
        uint64_t open = ~s->solid[1][z + 1] & interior;
        if (!open) continue;
        if (!looked) layer_look(ctx, -1), looked = true;
        face_run(ctx, w, sp, false, false, false, pair_mask(open, 0), 0, 2, NULL, z, 0, 0);
    }
}

bool mesh_chunk(const WorldGen *g, ChunkScratch *s, MemPool *slabs, ChunkMesh *out, MeshCounts *counts) {
    memset(out, 0, sizeof *out);
    out->cx = s->cx;
    out->cz = s->cz;
    out->lod = (uint32_t)s->lod;
    MeshCounts mc = {0, 0, 0, false};
    SlabWriter w = {slabs, out, NULL, 0, NULL, &out->opaque_parts, false, false};
    const uint64_t interior = ((1ull << s->n) - 1ull) << 1;
    /* Opaque pass: solid voxels against anything not solid (air or cloud). Materials by
     * depth (gen_material) come from masks of the rows above. */
    /* Terrain faces come from a layer's own rock: none above the highest layer holding some. */
    int ytop = s->ny - 1;
    while (ytop >= 0 && !rows_any(s->solid[ytop + 1] + 1, s->n, interior)) ytop--;
    MeshCtx ctx;
    mesh_ctx_init(&ctx, g, s, ytop);
    /* Every terrain face through one span: those written (its quads) and those the pool or the
     * part table had no room for (lost). */
    Span sp = {0};
    for (int Y = 0; Y <= ytop; Y++) mesh_layer(&ctx, s, Y, &w, &sp);
    if (s->seams) mesh_floor(&ctx, s, &w, &sp);
    span_commit(&w, &sp);
    mc.faces += sp.quads + sp.lost;
    mc.faces += mesh_props(g, s, &w);
    /* Cloud pass: its own parts after the opaque ones. */
    w.part = NULL;
    w.pass_parts = &out->cloud_parts;
    mc.faces += mesh_clouds(g, s, &w, interior);
    mc.faces += mesh_water(g, s, &w);   /* translucent too: the lakes' surfaces */
    for (uint32_t i = 0; i < out->opaque_parts; i++) mc.opaque_verts += out->parts[i].vert_count;
    for (uint32_t i = 0; i < out->cloud_parts; i++) mc.cloud_verts += out->parts[out->opaque_parts + i].vert_count;
    mc.truncated = w.full;
    if (counts) *counts = mc;
    return !w.oom;
}
