/* skyisles bench: ns/sample of every noise function on every available path (single-point
 * and batched rows), with stb_perlin_noise3 / stb_perlin_fbm_noise3 as the reference,
 * measured in alternating runs so the ratios hold up on a shared machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "core/core.h"
#include "noise/noise.h"

#if defined(__has_include)
#if __has_include(<stb/stb_perlin.h>)
#define STB_PERLIN_IMPLEMENTATION
#include <stb/stb_perlin.h>
#define HAVE_STB 1
#endif
#endif

typedef enum Fn { FN_SIMPLEX3, FN_SIMPLEX2, FN_PERLIN3, FN_RIDGE3, FN_FBM3, FN_FBM2, FN_RIDGE_FBM3, FN_COUNT } Fn;
static const char *const fn_names[FN_COUNT] = {"simplex3", "simplex2", "perlin3", "ridge3", "fbm3", "fbm2", "ridge_fbm3"};

typedef struct Cfg {
    int row;        /* lanes per row call */
    int rows;       /* rows per run */
    int runs;
    NoiseFx freq;
    NoiseFbm fbm;
} Cfg;

#define MAX_RUNS 255

static volatile float sink;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* One run of rows walking x inside a chunk-like volume; y and z change from row to row. */
static double run_rows(const Cfg *c, Fn fn, float *out) {
    float acc = 0.0f;
    {
        uint64_t t0 = time_now_ns();
        for (int i = 0; i < c->rows; i++) {
            NoiseFx x0 = noise_fx_mul_int(c->freq, 1000 + (i & 7) * c->row);
            NoiseFx y = noise_fx_mul_int(c->freq, (i >> 3) & 63), z = noise_fx_mul_int(c->freq, i >> 9);
            switch (fn) {
            case FN_SIMPLEX3: noise_simplex3_row(7, x0, c->freq, y, z, out, c->row); break;
            case FN_SIMPLEX2: noise_simplex2_row(7, x0, c->freq, y, out, c->row); break;
            case FN_PERLIN3: noise_perlin3_row(7, x0, c->freq, y, z, out, c->row); break;
            case FN_RIDGE3: noise_ridge3_row(7, x0, c->freq, y, z, out, c->row); break;
            case FN_FBM3: noise_fbm3_row(7, &c->fbm, x0, c->freq, y, z, out, c->row); break;
            case FN_FBM2: noise_fbm2_row(7, &c->fbm, x0, c->freq, y, out, c->row); break;
            case FN_RIDGE_FBM3: noise_ridge_fbm3_row(7, &c->fbm, x0, c->freq, y, z, out, c->row); break;
            default: break;
            }
            acc += out[i % c->row];
        }
        sink = acc;
        return (double)(time_now_ns() - t0) / ((double)c->rows * c->row);
    }
}

/* One run of the same points through the single-point calls. */
static double run_points(const Cfg *c, Fn fn, float *out) {
    (void)out;
    float acc = 0.0f;
    {
        uint64_t t0 = time_now_ns();
        for (int i = 0; i < c->rows; i++) {
            NoiseFx y = noise_fx_mul_int(c->freq, (i >> 3) & 63), z = noise_fx_mul_int(c->freq, i >> 9);
            for (int l = 0; l < c->row; l++) {
                NoiseFx x = noise_fx_mul_int(c->freq, 1000 + (i & 7) * c->row + l);
                switch (fn) {
                case FN_SIMPLEX3: acc += noise_simplex3(7, x, y, z); break;
                case FN_SIMPLEX2: acc += noise_simplex2(7, x, y); break;
                case FN_PERLIN3: acc += noise_perlin3(7, x, y, z); break;
                case FN_RIDGE3: acc += noise_ridge3(7, x, y, z); break;
                case FN_FBM3: acc += noise_fbm3(7, &c->fbm, x, y, z); break;
                case FN_FBM2: acc += noise_fbm2(7, &c->fbm, x, y); break;
                case FN_RIDGE_FBM3: acc += noise_ridge_fbm3(7, &c->fbm, x, y, z); break;
                default: break;
                }
            }
        }
        sink = acc;
        return (double)(time_now_ns() - t0) / ((double)c->rows * c->row);
    }
}

#if HAVE_STB
/* One run of the same sample pattern through stb_perlin (float coordinates). */
static double run_stb(const Cfg *c, bool fbm) {
    float acc = 0.0f, f = (float)noise_fx_to_double(c->freq);
    {
        uint64_t t0 = time_now_ns();
        for (int i = 0; i < c->rows; i++) {
            float y = f * (float)((i >> 3) & 63), z = f * (float)(i >> 9);
            for (int l = 0; l < c->row; l++) {
                float x = f * (float)(1000 + (i & 7) * c->row + l);
                if (fbm) acc += stb_perlin_fbm_noise3(x, y, z, c->fbm.lacunarity, c->fbm.gain, (int)c->fbm.octaves);
                else acc += stb_perlin_noise3(x, y, z, 0, 0, 0);
            }
        }
        sink = acc;
        return (double)(time_now_ns() - t0) / ((double)c->rows * c->row);
    }
}
#else
static double run_stb(const Cfg *c, bool fbm) { (void)c; (void)fbm; return 0.0; }
#endif

typedef double (*RunFn)(const Cfg *c, Fn fn, float *out);

typedef struct Result { double ns, ns_best, ref_ns, ref_best, ratio_paired; } Result;

/* Many short runs, each right after a run of the reference: on a shared machine the best
 * runs of both are the uncontended costs (their ratio is the headline speedup), the medians
 * are what a busy machine sees, and the median of the paired ratios cross-checks. */
static Result measure(const Cfg *c, RunFn run, Fn fn, bool fbm_ref, float *out) {
    double t[MAX_RUNS], ref[MAX_RUNS], ratio[MAX_RUNS];
    for (int r = 0; r < c->runs; r++) {
        ref[r] = run_stb(c, fbm_ref);
        t[r] = run(c, fn, out);
        ratio[r] = ref[r] > 0.0 ? ref[r] / t[r] : 0.0;
    }
    Result res;
    res.ns = median(t, c->runs);
    res.ns_best = t[0];   /* median() sorted the runs */
    res.ref_ns = median(ref, c->runs);
    res.ref_best = ref[0];
    res.ratio_paired = median(ratio, c->runs);
    return res;
}

static void usage(void) {
    fprintf(stderr, "usage: bench noise [--row N] [--samples N per run] [--runs N] [--freq F] [--octaves N] [--lacunarity L]\n");
}

int bench_noise(int argc, char **argv) {
    Cfg c = {.row = 256, .rows = 0, .runs = 41, .freq = noise_fx_from_double(0.0371), .fbm = noise_fbm_default()};
    long samples = 1L << 14;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) { usage(); return 2; }
        if (!strcmp(a, "--row")) c.row = atoi(v);
        else if (!strcmp(a, "--samples")) samples = atol(v);
        else if (!strcmp(a, "--runs")) c.runs = atoi(v);
        else if (!strcmp(a, "--freq")) c.freq = noise_fx_from_double(atof(v));
        else if (!strcmp(a, "--octaves")) c.fbm.octaves = (uint32_t)atoi(v);
        else if (!strcmp(a, "--lacunarity")) c.fbm.lacunarity = (float)atof(v);
        else { usage(); return 2; }
        i++;
    }
    if (c.row < 1 || c.row > 65536 || c.runs < 1 || c.runs > MAX_RUNS || samples < 1) { usage(); return 2; }
    c.rows = (int)((samples + c.row - 1) / c.row);
    float *out = malloc((size_t)c.row * sizeof(float));
    if (!out) return 1;

    struct utsname u;
    uname(&u);
    NoisePath initial = noise_get_path();
    printf("{\"bench\":\"noise\",\"machine\":\"%s\",\"default_path\":\"%s\",\"row\":%d,\"samples\":%ld,\"runs\":%d,"
           "\"octaves\":%u,\"lacunarity\":%g,\"gain\":%g}\n",
           u.machine, noise_path_name(initial), c.row, (long)c.rows * c.row, c.runs, c.fbm.octaves,
           (double)c.fbm.lacunarity, (double)c.fbm.gain);

#if HAVE_STB
    {
        double t3[MAX_RUNS], tf[MAX_RUNS];
        for (int r = 0; r < c.runs; r++) {
            t3[r] = run_stb(&c, false);
            tf[r] = run_stb(&c, true);
        }
        printf("{\"bench\":\"noise\",\"fn\":\"stb_perlin_noise3\",\"path\":\"reference\",\"ns_per_sample\":%.3f}\n",
               median(t3, c.runs));
        printf("{\"bench\":\"noise\",\"fn\":\"stb_perlin_fbm_noise3\",\"path\":\"reference\",\"octaves\":%u,"
               "\"ns_per_sample\":%.3f}\n", c.fbm.octaves, median(tf, c.runs));
    }
#else
    printf("{\"bench\":\"noise\",\"note\":\"stb_perlin.h not found: no reference\"}\n");
#endif

    for (int f = 0; f < FN_COUNT; f++) {
        bool is_fbm = f == FN_FBM3 || f == FN_FBM2 || f == FN_RIDGE_FBM3;
        const char *ref_name = is_fbm ? "stb_perlin_fbm_noise3" : "stb_perlin_noise3";
        for (int p = NOISE_PATH_AUTO; p < NOISE_PATH_COUNT; p++) {
            /* AUTO stands for the single-point calls here. */
            if (p != NOISE_PATH_AUTO && !noise_set_path((NoisePath)p)) continue;
            Result res = measure(&c, p == NOISE_PATH_AUTO ? run_points : run_rows, (Fn)f, is_fbm, out);
            printf("{\"bench\":\"noise\",\"fn\":\"%s\",\"path\":\"%s\",\"lanes\":%d,\"row\":%d,"
                   "\"ns_per_sample\":%.3f,\"ns_best\":%.3f",
                   fn_names[f], p == NOISE_PATH_AUTO ? "point" : noise_path_name((NoisePath)p),
                   p == NOISE_PATH_AUTO ? 1 : p == NOISE_PATH_AVX2 ? 8 : 4, p == NOISE_PATH_AUTO ? 1 : c.row, res.ns,
                   res.ns_best);
            if (res.ref_best > 0.0)
                printf(",\"ref\":\"%s\",\"ref_ns\":%.3f,\"ref_best\":%.3f,\"speedup\":%.2f,\"speedup_paired_median\":%.2f",
                       ref_name, res.ref_ns, res.ref_best, res.ref_best / res.ns_best, res.ratio_paired);
            printf("}\n");
            fflush(stdout);
        }
        noise_set_path(initial);
    }
    free(out);
    return 0;
}
