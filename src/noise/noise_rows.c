/* skyisles noise: batched rows and SIMD path selection. Rows step x in the kernels (also
 * FBM octaves with a power-of-two lacunarity); other lacunarities get per-lane x arrays. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "noise/noise_kernels.h"

/* ---------------------------------------------------------------- paths */
static const char *const path_names[NOISE_PATH_COUNT] = {"auto", "scalar", "sse2", "neon", "avx2"};
static _Atomic int current_path = NOISE_PATH_AUTO;   /* AUTO until first resolved */
/* The resolved path's table, so a row call costs one load. Path and table are stored
 * separately; a reader that sees one new and one old value still computes the same bits
 * (every path does). */
static const NoiseKernels *_Atomic current_table = NULL;

const char *noise_path_name(NoisePath p) {
    return ((int)p >= 0 && p < NOISE_PATH_COUNT) ? path_names[p] : "unknown";
}

static bool cpu_has_avx2(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
#else
    return false;
#endif
}

static const NoiseKernels *path_kernels(NoisePath p) {
    const NoiseKernels *k;
    switch (p) {
    case NOISE_PATH_SCALAR: return noise_kernels_scalar();
    case NOISE_PATH_SSE2:
    case NOISE_PATH_NEON:
        k = noise_kernels_simd();
        return (k && strcmp(k->name, noise_path_name(p)) == 0) ? k : NULL;
    case NOISE_PATH_AVX2:
        k = noise_kernels_avx2();
        return (k && cpu_has_avx2()) ? k : NULL;
    default: return NULL;
    }
}

bool noise_path_available(NoisePath p) {
    return p == NOISE_PATH_AUTO || path_kernels(p) != NULL;
}

static NoisePath best_path(void) {
    if (path_kernels(NOISE_PATH_AVX2)) return NOISE_PATH_AVX2;
    if (path_kernels(NOISE_PATH_NEON)) return NOISE_PATH_NEON;
    if (path_kernels(NOISE_PATH_SSE2)) return NOISE_PATH_SSE2;
    return NOISE_PATH_SCALAR;
}

static NoisePath default_path(void) {
    const char *env = getenv("SKYISLES_NOISE_PATH");
    if (env && *env) {
        for (int p = NOISE_PATH_SCALAR; p < NOISE_PATH_COUNT; p++)
            if (strcmp(env, path_names[p]) == 0 && path_kernels((NoisePath)p)) return (NoisePath)p;
    }
    return best_path();
}

bool noise_set_path(NoisePath p) {
    if (p == NOISE_PATH_AUTO) p = default_path();
    const NoiseKernels *k = path_kernels(p);
    if (!k) return false;
    atomic_store_explicit(&current_path, (int)p, memory_order_relaxed);
    atomic_store_explicit(&current_table, k, memory_order_release);
    return true;
}

NoisePath noise_get_path(void) {
    int p = atomic_load_explicit(&current_path, memory_order_relaxed);
    if (p == NOISE_PATH_AUTO) {
        /* Every thread resolves to the same answer, so a race here is harmless. */
        p = (int)default_path();
        int expected = NOISE_PATH_AUTO;
        atomic_compare_exchange_strong_explicit(&current_path, &expected, p, memory_order_relaxed,
                                                memory_order_relaxed);
        p = atomic_load_explicit(&current_path, memory_order_relaxed);
    }
    return (NoisePath)p;
}

const char *noise_simd_path(void) { return noise_path_name(noise_get_path()); }

static const NoiseKernels *active_kernels(void) {
    const NoiseKernels *k = atomic_load_explicit(&current_table, memory_order_acquire);
    if (k) return k;
    k = path_kernels(noise_get_path());
    if (!k) k = noise_kernels_scalar();
    const NoiseKernels *expected = NULL;
    atomic_compare_exchange_strong_explicit(&current_table, &expected, k, memory_order_acq_rel, memory_order_acquire);
    return k;
}

/* ---------------------------------------------------------------- row driver */
#define BLOCK 256    /* lanes per x array (non power-of-two lacunarity, planes, points) */
#define MAX_LANES 8

typedef enum RowFn { ROW_SIMPLEX3, ROW_SIMPLEX2, ROW_PERLIN3 } RowFn;

static NoiseKernelFn kernel_fn(const NoiseKernels *k, RowFn fn) {
    return fn == ROW_SIMPLEX3 ? k->simplex3 : fn == ROW_SIMPLEX2 ? k->simplex2 : k->perlin3;
}

static NoiseLattice row_lattice(RowFn fn) {
    return fn == ROW_SIMPLEX3 ? NOISE_LAT_SIMPLEX3 : fn == ROW_SIMPLEX2 ? NOISE_LAT_SIMPLEX2 : NOISE_LAT_PERLIN3;
}

static inline float clamp1f(float v) {
    v = v < -1.0f ? -1.0f : v;
    return v > 1.0f ? 1.0f : v;
}

/* The kernels' output steps on one value (KLOOP's order): what a point computed on its own
 * (a batch across a frame or band edge) goes through. */
static float out_step(const NoiseKernelRow *r, float prev, float v) {
    if (r->accumulate) v = (r->first_octave ? 0.0f : prev) + r->amp * v;
    if (r->finish) v = clamp1f(v * r->inv_norm);
    if (r->ridge) v = 1.0f - (v < 0.0f ? -v : v);
    return v;
}

/* One point on its own frame: the single-point core on lattice `lat`. */
static float point_value(NoiseLattice lat, uint32_t sm, NoiseI128 x, NoiseI128 y, NoiseI128 z) {
    NoisePointFrame f;
    noise_point_frame(lat, x, y, z, &f);
    if (lat == NOISE_LAT_SIMPLEX3) return noise_simplex3_core(sm, f.x, f.y, f.z, f.add);
    if (lat == NOISE_LAT_SIMPLEX2) return noise_simplex2_core(sm, f.x, f.y, f.add);
    return noise_perlin3_core(sm, f.x, f.y, f.z, f.add);
}

/* Runs a kernel over n lanes of out: whole vectors in place, the tail through a small
 * buffer so nothing past out[n-1] is touched. xu is NULL for a stepped row. */
static void run_lanes(NoiseKernelFn f, int lanes, NoiseKernelRow *r, const uint64_t *xu, float *out, int n) {
    int whole = n - n % lanes;
    if (whole > 0) f(r, xu, out, whole);
    int rest = n - whole;
    if (rest == 0) return;
    float tail[MAX_LANES];
    uint64_t xt[MAX_LANES];
    NoiseKernelRow rt = *r;
    if (xu) {
        for (int i = 0; i < lanes; i++) xt[i] = xu[whole + (i < rest ? i : rest - 1)];
    } else {
        rt.x0u = r->x0u + (uint64_t)whole * r->dx;
    }
    bool reads_out = r->accumulate && !r->first_octave;
    for (int i = 0; i < lanes; i++) tail[i] = reads_out && i < rest ? out[whole + i] : 0.0f;
    f(&rt, xu ? xt : NULL, tail, lanes);
    memcpy(out + whole, tail, (size_t)rest * sizeof(float));
}

/* The lattice coordinates of one octave (p NULL: the plain noise). */
static inline NoiseI128 octave_of(const NoiseFbmPlan *p, uint32_t o, NoiseI128 v) {
    return p ? noise_octave_wide(p, o, v) : v;
}

/* One octave (or a plain row) of n lanes at x0 + i*dx, y, z (wide, before the octave's
 * scaling): out = v, or out += amp * v when r->accumulate. r->seed_mix is the octave's. */
static void run_octave(const NoiseKernels *k, RowFn fn, NoiseKernelRow *r, const NoiseFbmPlan *p, uint32_t o,
                       NoiseI128 x0, int64_t dx, NoiseI128 y, NoiseI128 z, float *out, int n) {
    NoiseLattice lat = row_lattice(fn);
    NoiseI128 yo = octave_of(p, o, y), zo = octave_of(p, o, z);
    NoiseI128 first = octave_of(p, o, x0), last = octave_of(p, o, x0 + (NoiseI128)dx * (n - 1));
    NoiseI128 lo[3] = {first < last ? first : last, yo, zo}, hi[3] = {first < last ? last : first, yo, zo};
    uint32_t add, sm = r->seed_mix;
    if (!noise_batch_add(lat, lo, hi, &add)) {   /* across a frame or band edge: point by point */
        for (int i = 0; i < n; i++)
            out[i] = out_step(r, out[i], point_value(lat, sm, octave_of(p, o, x0 + (NoiseI128)dx * i), yo, zo));
        return;
    }
    NoiseKernelFn f = kernel_fn(k, fn);
    r->seed_mix = sm + add;
    r->y = (uint64_t)yo;
    r->z = (uint64_t)zo;
    int shift = p ? p->shift[o] : 0;
    if (shift >= 0) {
        /* (x0 + i*dx) << s = (x0 << s) + i*(dx << s) modulo 2^64: still a stepped row. */
        r->x0u = (uint64_t)first ^ NOISE_FX_BIAS;
        r->dx = (uint64_t)dx << shift;
        run_lanes(f, k->lanes, r, NULL, out, n);
    } else {
        uint64_t xu[BLOCK];
        for (int start = 0; start < n; start += BLOCK) {
            int count = n - start < BLOCK ? n - start : BLOCK;
            for (int i = 0; i < count; i++)
                xu[i] = (uint64_t)noise_octave_wide(p, o, x0 + (NoiseI128)dx * (start + i)) ^ NOISE_FX_BIAS;
            run_lanes(f, k->lanes, r, xu, out + start, count);
        }
    }
    r->seed_mix = sm;
}

/* One octave's words for the fused kernel (see NoiseKernelOctave): lane l of the first vector at
 * x_u = x0u + l*dx (the kernels' fbm_words), and a vector's step (lanes * dx, the true step: the
 * kernel steps only rows of two vectors or more, whose lanes share a frame) in the 96-bit values.
 * The row constants are the plain kernels' (simplex3, simplex2). False when a fraction word's step
 * is 2^32 - 1 (its carry in would wrap it): that row goes octave by octave. */
static bool fbm_words_setup(const NoiseKernels *k, bool two_d, NoiseKernelOctave *q, uint32_t sm, uint64_t x0u,
                            uint64_t dx, NoiseI128 dx_true, uint64_t y, uint64_t z) {
    const uint32_t f = two_d ? NOISE_F2_FX : NOISE_F3_FX;
    uint64_t c = noise_skew_part(y, f) + (two_d ? 0 : noise_skew_part(z, f)) - ((uint64_t)f << 31);
    k->fbm_words(q, sm, x0u, dx, c + NOISE_FX_BIAS, y + c, z + c, f, two_d);
    unsigned __int128 step = (unsigned __int128)dx_true * (unsigned)k->lanes, d = step * f, dxw = d + (step << 32);
    q->k0 = (uint32_t)d;
    q->k1x = (uint32_t)(dxw >> 32);
    q->k1y = q->k1z = (uint32_t)(d >> 32);
    q->k2 = (uint32_t)(dxw >> 64) * NOISE_PX + (uint32_t)(d >> 64) * NOISE_PY + (two_d ? 0 : (uint32_t)(d >> 64) * NOISE_PZ);
    return q->k1x != 0xffffffffu && q->k1y != 0xffffffffu;
}

/* A row's octaves for the fused kernel, each octave's frame and band set up once: false when an
 * octave needs the octave-by-octave path (lanes across a frame or band edge, or a lacunarity
 * that is not a power of two, whose lanes are not a stepped row). */
static bool fbm_row_setup(const NoiseKernels *k, RowFn fn, const NoiseFbmPlan *p, NoiseI128 x0, int64_t dx, NoiseI128 y,
                          NoiseI128 z, int n, bool is_ridge, NoiseKernelFbm *kf) {
    NoiseLattice lat = row_lattice(fn);
    for (uint32_t o = 0; o < p->octaves; o++) {
        int shift = p->shift[o];
        if (shift < 0) return false;
        NoiseI128 yo = octave_of(p, o, y), zo = octave_of(p, o, z);
        NoiseI128 first = octave_of(p, o, x0), last = octave_of(p, o, x0 + (NoiseI128)dx * (n - 1));
        NoiseI128 lo[3] = {first < last ? first : last, yo, zo}, hi[3] = {first < last ? last : first, yo, zo};
        uint32_t add;
        if (!noise_batch_add(lat, lo, hi, &add)) return false;
        NoiseKernelOctave *q = &kf->o[o];
        q->amp = p->amp[o];
        if (!fbm_words_setup(k, fn == ROW_SIMPLEX2, q, p->seed_mix[o] + add, (uint64_t)first ^ NOISE_FX_BIAS,
                             (uint64_t)dx << shift, (NoiseI128)dx * ((NoiseI128)1 << shift), (uint64_t)yo,
                             (uint64_t)zo))
            return false;
    }
    kf->octaves = p->octaves;
    kf->inv_norm = p->inv_norm;
    kf->ridge = is_ridge;
    return true;
}

/* The fused kernel over n lanes: whole vectors in place, the tail (the words left at the vector
 * after the last) through a small buffer. */
static void fbm_row_fused(const NoiseKernels *k, RowFn fn, NoiseKernelFbm *kf, float *out, int n) {
    NoiseKernelFbmFn f = fn == ROW_SIMPLEX3 ? k->fbm3 : k->fbm2;
    int whole = n - n % k->lanes;
    if (whole > 0) f(kf, out, whole);
    if (whole == n) return;
    float tail[MAX_LANES];
    f(kf, tail, k->lanes);
    memcpy(out + whole, tail, (size_t)(n - whole) * sizeof(float));
}

static void row_single(RowFn fn, uint32_t seed, NoiseWide x0, NoiseFx dx, NoiseWide y, NoiseWide z, float *out, int n,
                       bool is_ridge) {
    if (n <= 0) return;
    NoiseKernelRow r = {.seed_mix = noise_seed_mix(seed), .ridge = is_ridge};
    run_octave(active_kernels(), fn, &r, NULL, 0, noise_wide_i128(x0), dx, noise_wide_i128(y),
               fn == ROW_SIMPLEX2 ? 0 : noise_wide_i128(z), out, n);
}

/* A plane's points in batches of up to BLOCK, lanes kept full across row ends: point p is
 * column p % n of row p / n, its x and row coordinate (z in 3D, y in 2D) per lane, every
 * octave accumulated in a packed buffer, then copied out row by row. The vector past the last
 * point repeats it (computed, not written). */
typedef struct Plane {
    bool two_d;
    NoiseI128 x0, y, w0;    /* w: z in 3D, y in 2D */
    int64_t dx, dw;
    int n, rows;
} Plane;

/* A batch of lanes with x and w (z in 3D, y in 2D) per lane: a plane's block or a set of points.
 * at() gives lane q's wide coordinates before the octave's scaling; the extremes bound every
 * lane (an octave's scaling keeps the order). */
typedef struct Lanes {
    bool two_d;
    NoiseI128 y;                        /* the row constant (3D) */
    NoiseI128 xlo, xhi, wlo, whi;
    void (*at)(const void *ctx, int q, NoiseI128 *x, NoiseI128 *w);
    const void *ctx;
    int total;                          /* lanes in all: the padded ones repeat the last */
} Lanes;

/* One octave over lanes start .. start + padded of a batch (xs, ws hold their low 64 bits). */
static void lanes_octave(const NoiseKernels *k, const Lanes *ln, const NoiseFbmPlan *p, uint32_t o, NoiseKernelRow *r,
                         const uint64_t *xs, const uint64_t *ws, int start, int padded, float *acc) {
    NoiseLattice lat = ln->two_d ? NOISE_LAT_SIMPLEX2 : NOISE_LAT_SIMPLEX3;
    NoiseI128 yo = octave_of(p, o, ln->y);
    NoiseI128 xlo = octave_of(p, o, ln->xlo), xhi = octave_of(p, o, ln->xhi);
    NoiseI128 wlo = octave_of(p, o, ln->wlo), whi = octave_of(p, o, ln->whi);
    NoiseI128 lo[3] = {xlo, wlo, 0}, hi[3] = {xhi, whi, 0};
    if (!ln->two_d) lo[1] = hi[1] = yo, lo[2] = wlo, hi[2] = whi;
    uint32_t add, sm = r->seed_mix;
    bool whole = noise_batch_add(lat, lo, hi, &add);
    int shift = p->shift[o];
    uint64_t xu[BLOCK + MAX_LANES], wu[BLOCK + MAX_LANES];
    const uint64_t *xo = xs, *wo = ws;
    if (!whole || shift < 0) {   /* across a frame or band edge, or another lacunarity: per lane */
        for (int i = 0; i < padded; i++) {
            NoiseI128 bx, bw;
            ln->at(ln->ctx, start + i < ln->total ? start + i : ln->total - 1, &bx, &bw);
            NoiseI128 px = octave_of(p, o, bx), pw = octave_of(p, o, bw);
            if (whole) {
                xu[i] = (uint64_t)px, wu[i] = (uint64_t)pw;
                continue;
            }
            float v = ln->two_d ? point_value(lat, sm, px, pw, 0) : point_value(lat, sm, px, yo, pw);
            acc[i] = out_step(r, acc[i], v);
        }
        if (!whole) return;
        xo = xu, wo = wu, shift = 0;
    }
    r->seed_mix = sm + add;
    r->y = ln->two_d ? 0 : (uint64_t)yo;
    r->shift = shift;
    (ln->two_d ? k->simplex2_plane : k->simplex3_plane)(r, xo, wo, acc, padded);
    r->seed_mix = sm;
}

static void plane_at(const void *ctx, int q, NoiseI128 *x, NoiseI128 *w) {
    const Plane *pl = ctx;
    *x = pl->x0 + (NoiseI128)pl->dx * (q % pl->n);
    *w = pl->w0 + (NoiseI128)pl->dw * (q / pl->n);
}

static void plane_fbm(const NoiseKernels *k, const Plane *pl, const NoiseFbmPlan *p, float *out, int stride,
                      bool is_ridge, bool plain) {
    uint64_t xs[BLOCK + MAX_LANES], ws[BLOCK + MAX_LANES];
    float acc[BLOCK + MAX_LANES];
    int n = pl->n, total = n * pl->rows;
    NoiseI128 xa = pl->x0, xb = pl->x0 + (NoiseI128)pl->dx * (n - 1);
    NoiseI128 wa = pl->w0, wb = pl->w0 + (NoiseI128)pl->dw * (pl->rows - 1);
    const Lanes ln = {pl->two_d, pl->y, xa < xb ? xa : xb, xa < xb ? xb : xa, wa < wb ? wa : wb, wa < wb ? wb : wa,
                      plane_at, pl, total};
    for (int start = 0; start < total; start += BLOCK) {
        int count = total - start < BLOCK ? total - start : BLOCK;
        int padded = (count + k->lanes - 1) / k->lanes * k->lanes;
        int col = start % n, row = start / n;
        for (int i = 0; i < count; col = 0, row++) {   /* a row's run of columns at a time */
            int len = n - col < count - i ? n - col : count - i;
            uint64_t x = (uint64_t)pl->x0 + (uint64_t)col * (uint64_t)pl->dx;
            uint64_t w = (uint64_t)pl->w0 + (uint64_t)row * (uint64_t)pl->dw;
            for (int j = 0; j < len; j++, x += (uint64_t)pl->dx) xs[i + j] = x, ws[i + j] = w;
            i += len;
        }
        for (int i = count; i < padded; i++) xs[i] = xs[count - 1], ws[i] = ws[count - 1];
        for (uint32_t o = 0; o < p->octaves; o++) {
            bool last = o + 1 == p->octaves;
            NoiseKernelRow r = {.seed_mix = p->seed_mix[o], .amp = p->amp[o], .inv_norm = p->inv_norm,
                                .accumulate = !plain, .first_octave = o == 0, .finish = last && !plain,
                                .ridge = last && is_ridge};
            lanes_octave(k, &ln, p, o, &r, xs, ws, start, padded, acc);
        }
        for (int i = 0; i < count;) {   /* copy out row by row */
            int q = start + i, c0 = q % n, len = n - c0 < count - i ? n - c0 : count - i;
            memcpy(out + (ptrdiff_t)(q / n) * stride + c0, acc + i, (size_t)len * sizeof(float));
            i += len;
        }
    }
}

/* `rows` rows of an FBM, row r at z0 + r*dz (2D: at y0 + r*dz), on one plan. */
static void rows_fbm(RowFn fn, uint32_t seed, const NoiseFbm *f, NoiseWide x0, NoiseFx dx, NoiseWide y, NoiseWide z0,
                     NoiseFx dz, float *out, int stride, int n, int rows, bool is_ridge) {
    if (n <= 0 || rows <= 0) return;
    const NoiseKernels *k = active_kernels();
    const NoiseFbmPlan *p = noise_fbm_plan_cached(seed, f);
    bool two_d = fn == ROW_SIMPLEX2;
    NoiseI128 vx = noise_wide_i128(x0), vy = noise_wide_i128(y), vz = noise_wide_i128(z0);
    /* Rows whose ends leave lanes empty share vectors (a row of 11 takes 16 AVX2 lanes alone). */
    if (rows > 1 && n % k->lanes != 0) {
        Plane pl = {two_d, vx, vy, vz, dx, dz, n, rows};
        plane_fbm(k, &pl, p, out, stride, is_ridge, false);
        return;
    }
    for (int rr = 0; rr < rows; rr++) {
        NoiseI128 step = vz + (NoiseI128)dz * rr;
        NoiseI128 ry = two_d ? step : vy, rz = two_d ? 0 : step;
        float *o_row = out + (ptrdiff_t)rr * stride;
        NoiseKernelFbm kf;
        if (k->fbm3 && fbm_row_setup(k, fn, p, vx, dx, ry, rz, n, is_ridge, &kf)) {
            fbm_row_fused(k, fn, &kf, o_row, n);
            continue;
        }
        for (uint32_t o = 0; o < p->octaves; o++) {
            bool last = o + 1 == p->octaves;
            NoiseKernelRow r = {.seed_mix = p->seed_mix[o], .amp = p->amp[o], .inv_norm = p->inv_norm,
                                .accumulate = 1, .first_octave = o == 0, .finish = last, .ridge = last && is_ridge};
            run_octave(k, fn, &r, p, o, vx, dx, ry, rz, o_row, n);
        }
    }
}

static void row_fbm(RowFn fn, uint32_t seed, const NoiseFbm *f, NoiseWide x0, NoiseFx dx, NoiseWide y, NoiseWide z,
                    float *out, int n, bool is_ridge) {
    NoiseWide zero = {0, 0};
    rows_fbm(fn, seed, f, x0, dx, fn == ROW_SIMPLEX2 ? zero : y, fn == ROW_SIMPLEX2 ? y : z, 0, out, 0, n, 1, is_ridge);
}

/* ---------------------------------------------------------------- public rows */
#define W(v) noise_wide_from_fx(v)

void noise_simplex3_row_w(uint32_t seed, NoiseWide x0, NoiseFx dx, NoiseWide y, NoiseWide z, float *out, int n) {
    row_single(ROW_SIMPLEX3, seed, x0, dx, y, z, out, n, false);
}

void noise_simplex2_row_w(uint32_t seed, NoiseWide x0, NoiseFx dx, NoiseWide y, float *out, int n) {
    row_single(ROW_SIMPLEX2, seed, x0, dx, y, W(0), out, n, false);
}

void noise_fbm3_row_w(uint32_t seed, const NoiseFbm *f, NoiseWide x0, NoiseFx dx, NoiseWide y, NoiseWide z,
                      float *out, int n) {
    row_fbm(ROW_SIMPLEX3, seed, f, x0, dx, y, z, out, n, false);
}

void noise_fbm2_row_w(uint32_t seed, const NoiseFbm *f, NoiseWide x0, NoiseFx dx, NoiseWide y, float *out, int n) {
    row_fbm(ROW_SIMPLEX2, seed, f, x0, dx, y, W(0), out, n, false);
}

void noise_simplex3_row(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z, float *out, int n) {
    row_single(ROW_SIMPLEX3, seed, W(x0), dx, W(y), W(z), out, n, false);
}

void noise_simplex2_row(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, float *out, int n) {
    row_single(ROW_SIMPLEX2, seed, W(x0), dx, W(y), W(0), out, n, false);
}

void noise_perlin3_row(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z, float *out, int n) {
    row_single(ROW_PERLIN3, seed, W(x0), dx, W(y), W(z), out, n, false);
}

void noise_ridge3_row(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z, float *out, int n) {
    row_single(ROW_SIMPLEX3, seed, W(x0), dx, W(y), W(z), out, n, true);
}

void noise_fbm3_row(uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z,
                    float *out, int n) {
    row_fbm(ROW_SIMPLEX3, seed, f, W(x0), dx, W(y), W(z), out, n, false);
}

void noise_fbm2_row(uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y, float *out, int n) {
    row_fbm(ROW_SIMPLEX2, seed, f, W(x0), dx, W(y), W(0), out, n, false);
}

void noise_ridge_fbm3_row(uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z,
                          float *out, int n) {
    row_fbm(ROW_SIMPLEX3, seed, f, W(x0), dx, W(y), W(z), out, n, true);
}

/* Points (ox + x[i], y, oz + z[i]) in batches, the vector past the last point repeating it.
 * With out_b, seed_b's values at the same points too (the pair kernel). */
static void points_simplex3(uint32_t seed, uint32_t seed_b, NoiseWide ox, NoiseWide y, NoiseWide oz, const NoiseFx *x,
                            const NoiseFx *z, float *out, float *out_b, int n) {
    if (n <= 0) return;
    const NoiseKernels *k = active_kernels();
    uint64_t xu[BLOCK + MAX_LANES], wu[BLOCK + MAX_LANES];
    float va[BLOCK + MAX_LANES], vb[BLOCK + MAX_LANES];
    uint32_t sma = noise_seed_mix(seed), smb = noise_seed_mix(seed_b), add;
    NoiseI128 vx = noise_wide_i128(ox), vy = noise_wide_i128(y), vz = noise_wide_i128(oz);
    NoiseFx xmin = x[0], xmax = x[0], zmin = z[0], zmax = z[0];
    for (int i = 1; i < n; i++) {
        xmin = x[i] < xmin ? x[i] : xmin, xmax = x[i] > xmax ? x[i] : xmax;
        zmin = z[i] < zmin ? z[i] : zmin, zmax = z[i] > zmax ? z[i] : zmax;
    }
    NoiseI128 lo[3] = {vx + xmin, vy, vz + zmin}, hi[3] = {vx + xmax, vy, vz + zmax};
    if (!noise_batch_add(NOISE_LAT_SIMPLEX3, lo, hi, &add)) {   /* across a frame or band edge */
        for (int i = 0; i < n; i++) {
            out[i] = point_value(NOISE_LAT_SIMPLEX3, sma, vx + x[i], vy, vz + z[i]);
            if (out_b) out_b[i] = point_value(NOISE_LAT_SIMPLEX3, smb, vx + x[i], vy, vz + z[i]);
        }
        return;
    }
    NoiseKernelRow r = {.seed_mix = sma + add, .y = (uint64_t)vy};
    for (int start = 0; start < n; start += BLOCK) {
        int count = n - start < BLOCK ? n - start : BLOCK;
        int padded = (count + k->lanes - 1) / k->lanes * k->lanes;
        for (int i = 0; i < padded; i++) {
            int q = start + (i < count ? i : count - 1);
            xu[i] = ox.lo + (uint64_t)x[q];
            wu[i] = oz.lo + (uint64_t)z[q];
        }
        if (out_b) {
            k->simplex3_pair(r.seed_mix, smb + add, r.y, xu, wu, va, vb, padded);
            memcpy(out_b + start, vb, (size_t)count * sizeof(float));
        } else {
            k->simplex3_plane(&r, xu, wu, va, padded);
        }
        memcpy(out + start, va, (size_t)count * sizeof(float));
    }
}

void noise_simplex3_points_w(uint32_t seed, NoiseWide ox, NoiseWide y, NoiseWide oz, const NoiseFx *x,
                             const NoiseFx *z, float *out, int n) {
    points_simplex3(seed, 0, ox, y, oz, x, z, out, NULL, n);
}

void noise_simplex3_points2_w(uint32_t seed_a, uint32_t seed_b, NoiseWide ox, NoiseWide y, NoiseWide oz,
                              const NoiseFx *x, const NoiseFx *z, float *out_a, float *out_b, int n) {
    points_simplex3(seed_a, seed_b, ox, y, oz, x, z, out_a, out_b, n);
}

void noise_simplex3_points(uint32_t seed, const NoiseFx *x, NoiseFx y, const NoiseFx *z, float *out, int n) {
    points_simplex3(seed, 0, W(0), W(y), W(0), x, z, out, NULL, n);
}

void noise_simplex3_points2(uint32_t seed_a, uint32_t seed_b, const NoiseFx *x, NoiseFx y, const NoiseFx *z,
                            float *out_a, float *out_b, int n) {
    points_simplex3(seed_a, seed_b, W(0), W(y), W(0), x, z, out_a, out_b, n);
}

/* FBM3 at points (ox + x[i], y, oz + z[i]): plane_fbm's octaves on arrays of points, the batch
 * bounds from the points' extremes. */
typedef struct Points {
    NoiseI128 ox, oz;
    const NoiseFx *x, *z;
} Points;

static void points_at(const void *ctx, int q, NoiseI128 *x, NoiseI128 *w) {
    const Points *pt = ctx;
    *x = pt->ox + pt->x[q];
    *w = pt->oz + pt->z[q];
}

void noise_fbm3_points_w(uint32_t seed, const NoiseFbm *f, NoiseWide ox, NoiseWide y, NoiseWide oz,
                         const NoiseFx *x, const NoiseFx *z, float *out, int n) {
    if (n <= 0) return;
    const NoiseKernels *k = active_kernels();
    const NoiseFbmPlan *p = noise_fbm_plan_cached(seed, f);
    const Points pt = {noise_wide_i128(ox), noise_wide_i128(oz), x, z};
    NoiseFx xmin = x[0], xmax = x[0], zmin = z[0], zmax = z[0];
    for (int i = 1; i < n; i++) {
        xmin = x[i] < xmin ? x[i] : xmin, xmax = x[i] > xmax ? x[i] : xmax;
        zmin = z[i] < zmin ? z[i] : zmin, zmax = z[i] > zmax ? z[i] : zmax;
    }
    const Lanes ln = {false, noise_wide_i128(y), pt.ox + xmin, pt.ox + xmax, pt.oz + zmin, pt.oz + zmax,
                      points_at, &pt, n};
    uint64_t xs[BLOCK + MAX_LANES], ws[BLOCK + MAX_LANES];
    float acc[BLOCK + MAX_LANES];
    for (int start = 0; start < n; start += BLOCK) {
        int count = n - start < BLOCK ? n - start : BLOCK;
        int padded = (count + k->lanes - 1) / k->lanes * k->lanes;
        for (int i = 0; i < padded; i++) {
            int q = start + (i < count ? i : count - 1);
            xs[i] = ox.lo + (uint64_t)x[q];
            ws[i] = oz.lo + (uint64_t)z[q];
        }
        for (uint32_t o = 0; o < p->octaves; o++) {
            NoiseKernelRow r = {.seed_mix = p->seed_mix[o], .amp = p->amp[o], .inv_norm = p->inv_norm,
                                .accumulate = 1, .first_octave = o == 0, .finish = o + 1 == p->octaves};
            lanes_octave(k, &ln, p, o, &r, xs, ws, start, padded, acc);
        }
        memcpy(out + start, acc, (size_t)count * sizeof(float));
    }
}

void noise_simplex2_rows_w(uint32_t seed, NoiseWide x0, NoiseFx dx, NoiseWide y0, NoiseFx dy, float *out, int stride,
                           int n, int rows) {
    if (n <= 0 || rows <= 0) return;
    const NoiseKernels *k = active_kernels();
    if (rows == 1 || n % k->lanes == 0) {
        for (int r = 0; r < rows; r++)
            row_single(ROW_SIMPLEX2, seed, x0, dx, noise_wide_of_i128(noise_wide_i128(y0) + (NoiseI128)dy * r), W(0),
                       out + (ptrdiff_t)r * stride, n, false);
        return;
    }
    NoiseFbm one = NOISE_FBM_DEFAULTS;
    one.octaves = 1;
    NoiseFbmPlan p;
    noise_fbm_plan(&p, seed, &one);   /* one octave: the seed itself, no scaling */
    Plane pl = {true, noise_wide_i128(x0), 0, noise_wide_i128(y0), dx, dy, n, rows};
    plane_fbm(k, &pl, &p, out, stride, false, true);
}

void noise_simplex2_rows(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y0, NoiseFx dy, float *out, int stride, int n,
                         int rows) {
    noise_simplex2_rows_w(seed, W(x0), dx, W(y0), dy, out, stride, n, rows);
}

void noise_fbm3_rows_w(uint32_t seed, const NoiseFbm *f, NoiseWide x0, NoiseFx dx, NoiseWide y, NoiseWide z0,
                       NoiseFx dz, float *out, int stride, int n, int rows) {
    rows_fbm(ROW_SIMPLEX3, seed, f, x0, dx, y, z0, dz, out, stride, n, rows, false);
}

void noise_fbm2_rows_w(uint32_t seed, const NoiseFbm *f, NoiseWide x0, NoiseFx dx, NoiseWide y0, NoiseFx dy,
                       float *out, int stride, int n, int rows) {
    rows_fbm(ROW_SIMPLEX2, seed, f, x0, dx, W(0), y0, dy, out, stride, n, rows, false);
}

void noise_fbm3_rows(uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z0, NoiseFx dz,
                     float *out, int stride, int n, int rows) {
    rows_fbm(ROW_SIMPLEX3, seed, f, W(x0), dx, W(y), W(z0), dz, out, stride, n, rows, false);
}

void noise_fbm2_rows(uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y0, NoiseFx dy, float *out,
                     int stride, int n, int rows) {
    rows_fbm(ROW_SIMPLEX2, seed, f, W(x0), dx, W(0), W(y0), dy, out, stride, n, rows, false);
}
