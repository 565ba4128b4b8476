/* skyisles noise: batched rows and SIMD path selection. Rows are cut into blocks whose
 * per-lane x words are prepared here; the kernels of the selected path do the rest. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "noise/noise_kernels.h"

/* ---------------------------------------------------------------- paths */
static const char *const path_names[NOISE_PATH_COUNT] = {"auto", "scalar", "sse2", "neon", "avx2"};
static _Atomic int current_path = NOISE_PATH_AUTO;   /* AUTO until first resolved */

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
    if (!path_kernels(p)) return false;
    atomic_store_explicit(&current_path, (int)p, memory_order_relaxed);
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
    const NoiseKernels *k = path_kernels(noise_get_path());
    return k ? k : noise_kernels_scalar();
}

/* ---------------------------------------------------------------- row driver */
#define BLOCK 256   /* lanes per block: a multiple of every path's width (4, 8) */

typedef enum RowFn { ROW_SIMPLEX3, ROW_SIMPLEX2, ROW_PERLIN3 } RowFn;

typedef struct RowBuf {
    uint32_t xhi[BLOCK], xlo[BLOCK];
    float v[BLOCK];
} RowBuf;

static int padded(int n, int lanes) { return (n + lanes - 1) / lanes * lanes; }

static void run_kernel(const NoiseKernels *k, RowFn fn, const NoiseKernelRow *r, RowBuf *b, int count) {
    int m = padded(count, k->lanes);
    for (int i = count; i < m; i++) { b->xhi[i] = b->xhi[count - 1]; b->xlo[i] = b->xlo[count - 1]; }
    NoiseKernelFn f = fn == ROW_SIMPLEX3 ? k->simplex3 : fn == ROW_SIMPLEX2 ? k->simplex2 : k->perlin3;
    f(r, b->xhi, b->xlo, b->v, m);
}

/* One octave's lanes: x0 + i*dx scaled like noise_octave_coord, for i in [start, start+count). */
static void fill_lanes(RowBuf *b, const NoiseFbmPlan *p, uint32_t k, uint64_t x0, uint64_t dx, int start, int count) {
    uint64_t x = x0 + (uint64_t)start * dx;
    if (!p || p->shift[k] == 0) {
        for (int i = 0; i < count; i++, x += dx) { b->xhi[i] = noise_fx_hi(x); b->xlo[i] = noise_fx_lo(x); }
    } else if (p->shift[k] > 0) {
        int s = p->shift[k];
        for (int i = 0; i < count; i++, x += dx) {
            uint64_t v = x << s;
            b->xhi[i] = noise_fx_hi(v); b->xlo[i] = noise_fx_lo(v);
        }
    } else {
        for (int i = 0; i < count; i++, x += dx) {
            uint64_t v = noise_fx_mul((int64_t)x, p->scale[k]);
            b->xhi[i] = noise_fx_hi(v); b->xlo[i] = noise_fx_lo(v);
        }
    }
}

static inline float clamp1(float v) {
    v = v < -1.0f ? -1.0f : v;
    return v > 1.0f ? 1.0f : v;
}

static inline float ridge(float v) { return 1.0f - (v < 0.0f ? -v : v); }

static void row_single(RowFn fn, uint32_t seed, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z, float *out, int n,
                       bool is_ridge) {
    if (n <= 0) return;
    const NoiseKernels *k = active_kernels();
    NoiseKernelRow r = {noise_seed_mix(seed), (uint64_t)y, (uint64_t)z, 1.0f, 0};
    RowBuf b;
    for (int start = 0; start < n; start += BLOCK) {
        int count = n - start < BLOCK ? n - start : BLOCK;
        fill_lanes(&b, NULL, 0, (uint64_t)x0, (uint64_t)dx, start, count);
        run_kernel(k, fn, &r, &b, count);
        if (is_ridge)
            for (int i = 0; i < count; i++) out[start + i] = ridge(b.v[i]);
        else
            memcpy(out + start, b.v, (size_t)count * sizeof(float));
    }
}

static void row_fbm(RowFn fn, uint32_t seed, const NoiseFbm *f, NoiseFx x0, NoiseFx dx, NoiseFx y, NoiseFx z,
                    float *out, int n, bool is_ridge) {
    if (n <= 0) return;
    const NoiseKernels *k = active_kernels();
    NoiseFbmPlan p;
    noise_fbm_plan(&p, seed, f);
    RowBuf b;
    for (int start = 0; start < n; start += BLOCK) {
        int count = n - start < BLOCK ? n - start : BLOCK;
        int m = padded(count, k->lanes);
        memset(b.v, 0, (size_t)m * sizeof(float));   /* acc = 0.0f, as in noise_fbm3 */
        for (uint32_t o = 0; o < p.octaves; o++) {
            NoiseKernelRow r = {p.seed_mix[o], (uint64_t)noise_octave_coord(&p, o, y),
                                (uint64_t)noise_octave_coord(&p, o, z), p.amp[o], 1};
            fill_lanes(&b, &p, o, (uint64_t)x0, (uint64_t)dx, start, count);
            run_kernel(k, fn, &r, &b, count);
        }
        for (int i = 0; i < count; i++) {
            float v = clamp1(b.v[i] * p.inv_norm);
            out[start + i] = is_ridge ? ridge(v) : v;
        }
    }
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
