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
#define BLOCK 256    /* lanes per x array (non power-of-two lacunarity only) */
#define MAX_LANES 8

typedef enum RowFn { ROW_SIMPLEX3, ROW_SIMPLEX2, ROW_PERLIN3 } RowFn;

static NoiseKernelFn kernel_fn(const NoiseKernels *k, RowFn fn) {
    return fn == ROW_SIMPLEX3 ? k->simplex3 : fn == ROW_SIMPLEX2 ? k->simplex2 : k->perlin3;
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

/* One octave (or a plain row): out = v, or out += amp * v when r->accumulate. */
static void run_octave(const NoiseKernels *k, RowFn fn, NoiseKernelRow *r, const NoiseFbmPlan *p, uint32_t o,
                       uint64_t x0, uint64_t dx, float *out, int n) {
    NoiseKernelFn f = kernel_fn(k, fn);
    int shift = p ? p->shift[o] : 0;
    if (shift >= 0) {
        /* (x0 + i*dx) << s = (x0 << s) + i*(dx << s) modulo 2^64: still a stepped row. */
        r->x0u = (x0 << shift) ^ NOISE_FX_BIAS;
        r->dx = dx << shift;
        run_lanes(f, k->lanes, r, NULL, out, n);
        return;
    }
    uint64_t xu[BLOCK];
    for (int start = 0; start < n; start += BLOCK) {
        int count = n - start < BLOCK ? n - start : BLOCK;
        uint64_t x = x0 + (uint64_t)start * dx;
        for (int i = 0; i < count; i++, x += dx) xu[i] = noise_fx_mul((int64_t)x, p->scale[o]) ^ NOISE_FX_BIAS;
        run_lanes(f, k->lanes, r, xu, out + start, count);
    }
}

static void row_single(RowFn fn, uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z, float *out, int n,
                       bool is_ridge) {
    if (n <= 0) return;
    NoiseKernelRow r = {.seed_mix = noise_seed_mix(seed), .y = (uint64_t)y, .z = (uint64_t)z, .ridge = is_ridge};
    run_octave(active_kernels(), fn, &r, NULL, 0, (uint64_t)x0, (uint64_t)dx, out, n);
}

/* A plane's points in batches of up to BLOCK, lanes kept full across row ends: point p is
 * column p % n of row p / n, its x and row coordinate (z in 3D, y in 2D) per lane, every
 * octave accumulated in a packed buffer, then copied out row by row. The vector past the last
 * point repeats it (computed, not written). */
static void plane_fbm(const NoiseKernels *k, bool two_d, const NoiseFbmPlan *p, NoiseFx x0, NoiseFx dx, NoiseFx y,
                      NoiseFx z0, NoiseFx dz, float *out, int stride, int n, int rows, bool is_ridge, bool plain) {
    NoiseKernelPlaneFn f = two_d ? k->simplex2_plane : k->simplex3_plane;
    uint64_t xs[BLOCK + MAX_LANES], ws[BLOCK + MAX_LANES], xu[BLOCK + MAX_LANES], wu[BLOCK + MAX_LANES];
    float acc[BLOCK + MAX_LANES];
    int total = n * rows;
    for (int start = 0; start < total; start += BLOCK) {
        int count = total - start < BLOCK ? total - start : BLOCK;
        int padded = (count + k->lanes - 1) / k->lanes * k->lanes;
        int col = start % n, row = start / n;
        for (int i = 0; i < count; i++) {
            xs[i] = (uint64_t)x0 + (uint64_t)col * (uint64_t)dx;
            ws[i] = (uint64_t)z0 + (uint64_t)row * (uint64_t)dz;
            if (++col == n) col = 0, row++;
        }
        for (int i = count; i < padded; i++) xs[i] = xs[count - 1], ws[i] = ws[count - 1];
        for (uint32_t o = 0; o < p->octaves; o++) {
            bool last = o + 1 == p->octaves;
            int shift = p->shift[o];
            const uint64_t *xo = xs, *wo = ws;
            if (shift < 0) {   /* other lacunarities: the octave's coordinates per lane */
                for (int i = 0; i < padded; i++) {
                    xu[i] = noise_fx_mul((int64_t)xs[i], p->scale[o]);
                    wu[i] = noise_fx_mul((int64_t)ws[i], p->scale[o]);
                }
                xo = xu, wo = wu, shift = 0;
            }
            NoiseKernelRow r = {.seed_mix = p->seed_mix[o], .y = two_d ? 0 : (uint64_t)noise_octave_coord(p, o, y),
                                .amp = p->amp[o], .inv_norm = p->inv_norm, .accumulate = !plain,
                                .first_octave = o == 0, .finish = last && !plain, .ridge = last && is_ridge,
                                .shift = shift};
            f(&r, xo, wo, acc, padded);
        }
        for (int i = 0; i < count;) {   /* copy out row by row */
            int q = start + i, c0 = q % n, len = n - c0 < count - i ? n - c0 : count - i;
            memcpy(out + (ptrdiff_t)(q / n) * stride + c0, acc + i, (size_t)len * sizeof(float));
            i += len;
        }
    }
}

/* `rows` rows of an FBM, row r at z0 + r*dz (2D: at y0 + r*dz), on one plan. */
static void rows_fbm(RowFn fn, uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z0,
                     NoiseFx dz, float *out, int stride, int n, int rows, bool is_ridge) {
    if (n <= 0 || rows <= 0) return;
    const NoiseKernels *k = active_kernels();
    NoiseFbmPlan p;
    noise_fbm_plan(&p, seed, f);
    bool two_d = fn == ROW_SIMPLEX2;
    /* Rows whose ends leave lanes empty share vectors (a row of 11 takes 16 AVX2 lanes alone). */
    if (rows > 1 && n % k->lanes != 0) {
        plane_fbm(k, two_d, &p, x0, dx, y, z0, dz, out, stride, n, rows, is_ridge, false);
        return;
    }
    for (int rr = 0; rr < rows; rr++) {
        NoiseFx step = (NoiseFx)((uint64_t)z0 + (uint64_t)rr * (uint64_t)dz);
        NoiseFx ry = two_d ? step : y, rz = two_d ? 0 : step;
        float *o_row = out + (ptrdiff_t)rr * stride;
        for (uint32_t o = 0; o < p.octaves; o++) {
            bool last = o + 1 == p.octaves;
            NoiseKernelRow r = {.seed_mix = p.seed_mix[o], .y = (uint64_t)noise_octave_coord(&p, o, ry),
                                .z = (uint64_t)noise_octave_coord(&p, o, rz), .amp = p.amp[o], .inv_norm = p.inv_norm,
                                .accumulate = 1, .first_octave = o == 0, .finish = last, .ridge = last && is_ridge};
            run_octave(k, fn, &r, &p, o, (uint64_t)x0, (uint64_t)dx, o_row, n);
        }
    }
}

static void row_fbm(RowFn fn, uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z,
                    float *out, int n, bool is_ridge) {
    rows_fbm(fn, seed, f, x0, dx, fn == ROW_SIMPLEX2 ? 0 : y, fn == ROW_SIMPLEX2 ? y : z, 0, out, 0, n, 1, is_ridge);
}

/* ---------------------------------------------------------------- public rows */
void noise_simplex3_row(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z, float *out, int n) {
    row_single(ROW_SIMPLEX3, seed, x0, dx, y, z, out, n, false);
}

void noise_simplex2_row(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, float *out, int n) {
    row_single(ROW_SIMPLEX2, seed, x0, dx, y, 0, out, n, false);
}

void noise_perlin3_row(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z, float *out, int n) {
    row_single(ROW_PERLIN3, seed, x0, dx, y, z, out, n, false);
}

void noise_ridge3_row(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z, float *out, int n) {
    row_single(ROW_SIMPLEX3, seed, x0, dx, y, z, out, n, true);
}

void noise_fbm3_row(uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z,
                    float *out, int n) {
    row_fbm(ROW_SIMPLEX3, seed, f, x0, dx, y, z, out, n, false);
}

void noise_fbm2_row(uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y, float *out, int n) {
    row_fbm(ROW_SIMPLEX2, seed, f, x0, dx, y, 0, out, n, false);
}

void noise_ridge_fbm3_row(uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z,
                          float *out, int n) {
    row_fbm(ROW_SIMPLEX3, seed, f, x0, dx, y, z, out, n, true);
}

/* Points (x[i], y, z[i]) in batches, the vector past the last point repeating it. With out_b,
 * seed_b's values at the same points too (the pair kernel). */
static void points_simplex3(uint32_t seed, uint32_t seed_b, const NoiseFx *x, NoiseFx y, const NoiseFx *z, float *out,
                            float *out_b, int n) {
    const NoiseKernels *k = active_kernels();
    uint64_t xu[BLOCK + MAX_LANES], wu[BLOCK + MAX_LANES];
    float va[BLOCK + MAX_LANES], vb[BLOCK + MAX_LANES];
    NoiseKernelRow r = {.seed_mix = noise_seed_mix(seed), .y = (uint64_t)y};
    uint32_t smb = noise_seed_mix(seed_b);
    for (int start = 0; start < n; start += BLOCK) {
        int count = n - start < BLOCK ? n - start : BLOCK;
        int padded = (count + k->lanes - 1) / k->lanes * k->lanes;
        for (int i = 0; i < padded; i++) {
            int q = start + (i < count ? i : count - 1);
            xu[i] = (uint64_t)x[q];
            wu[i] = (uint64_t)z[q];
        }
        if (out_b) {
            k->simplex3_pair(r.seed_mix, smb, r.y, xu, wu, va, vb, padded);
            memcpy(out_b + start, vb, (size_t)count * sizeof(float));
        } else {
            k->simplex3_plane(&r, xu, wu, va, padded);
        }
        memcpy(out + start, va, (size_t)count * sizeof(float));
    }
}

void noise_simplex3_points(uint32_t seed, const NoiseFx *x, NoiseFx y, const NoiseFx *z, float *out, int n) {
    points_simplex3(seed, 0, x, y, z, out, NULL, n);
}

void noise_simplex3_points2(uint32_t seed_a, uint32_t seed_b, const NoiseFx *x, NoiseFx y, const NoiseFx *z,
                            float *out_a, float *out_b, int n) {
    points_simplex3(seed_a, seed_b, x, y, z, out_a, out_b, n);
}

void noise_simplex2_rows(uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y0, NoiseFx dy, float *out, int stride, int n,
                         int rows) {
    if (n <= 0 || rows <= 0) return;
    const NoiseKernels *k = active_kernels();
    if (rows == 1 || n % k->lanes == 0) {
        for (int r = 0; r < rows; r++)
            row_single(ROW_SIMPLEX2, seed, x0, dx, (NoiseFx)((uint64_t)y0 + (uint64_t)r * (uint64_t)dy), 0,
                       out + (ptrdiff_t)r * stride, n, false);
        return;
    }
    NoiseFbm one = NOISE_FBM_DEFAULTS;
    one.octaves = 1;
    NoiseFbmPlan p;
    noise_fbm_plan(&p, seed, &one);   /* one octave: the seed itself, no scaling */
    plane_fbm(k, true, &p, x0, dx, 0, y0, dy, out, stride, n, rows, false, true);
}

void noise_fbm3_rows(uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z0, NoiseFx dz,
                     float *out, int stride, int n, int rows) {
    rows_fbm(ROW_SIMPLEX3, seed, f, x0, dx, y, z0, dz, out, stride, n, rows, false);
}

void noise_fbm2_rows(uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y0, NoiseFx dy, float *out,
                     int stride, int n, int rows) {
    rows_fbm(ROW_SIMPLEX2, seed, f, x0, dx, 0, y0, dy, out, stride, n, rows, false);
}
