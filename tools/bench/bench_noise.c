/* skyisles bench: ns/sample of every noise function on every available path (single-point
 * and batched rows), with stb_perlin_noise3 / stb_perlin_fbm_noise3 as the reference. */
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

static volatile float sink;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Rows walk x inside a chunk-like volume; y and z change from row to row. */
static double run_rows(const Cfg *c, Fn fn, float *out) {
    double t[64];
    float acc = 0.0f;
    for (int r = 0; r < c->runs; r++) {
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
        t[r] = (double)(time_now_ns() - t0) / ((double)c->rows * c->row);
    }
    sink = acc;
    return median(t, c->runs);
}

static double run_points(const Cfg *c, Fn fn) {
    double t[64];
    float acc = 0.0f;
    for (int r = 0; r < c->runs; r++) {
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
        t[r] = (double)(time_now_ns() - t0) / ((double)c->rows * c->row);
    }
    sink = acc;
    return median(t, c->runs);
}

#if HAVE_STB
/* The same sample pattern through stb_perlin (float coordinates). */
static double run_stb(const Cfg *c, bool fbm) {
    double t[64];
    float acc = 0.0f, f = (float)noise_fx_to_double(c->freq);
    for (int r = 0; r < c->runs; r++) {
        uint64_t t0 = time_now_ns();
        for (int i = 0; i < c->rows; i++) {
            float y = f * (float)((i >> 3) & 63), z = f * (float)(i >> 9);
            for (int l = 0; l < c->row; l++) {
                float x = f * (float)(1000 + (i & 7) * c->row + l);
                if (fbm) acc += stb_perlin_fbm_noise3(x, y, z, c->fbm.lacunarity, c->fbm.gain, (int)c->fbm.octaves);
                else acc += stb_perlin_noise3(x, y, z, 0, 0, 0);
            }
        }
        t[r] = (double)(time_now_ns() - t0) / ((double)c->rows * c->row);
    }
    sink = acc;
    return median(t, c->runs);
}
#endif

static void usage(void) {
    fprintf(stderr, "usage: bench noise [--row N] [--samples N] [--runs N] [--freq F] [--octaves N] [--lacunarity L]\n");
}

int bench_noise(int argc, char **argv) {
    Cfg c = {.row = 256, .rows = 0, .runs = 7, .freq = noise_fx_from_double(0.0371), .fbm = noise_fbm_default()};
    long samples = 1L << 20;
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
    if (c.row < 1 || c.row > 65536 || c.runs < 1 || c.runs > 64 || samples < 1) { usage(); return 2; }
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

    double stb3 = 0.0, stbfbm = 0.0;
#if HAVE_STB
    stb3 = run_stb(&c, false);
    stbfbm = run_stb(&c, true);
    printf("{\"bench\":\"noise\",\"fn\":\"stb_perlin_noise3\",\"path\":\"reference\",\"ns_per_sample\":%.3f}\n", stb3);
    printf("{\"bench\":\"noise\",\"fn\":\"stb_perlin_fbm_noise3\",\"path\":\"reference\",\"octaves\":%u,\"ns_per_sample\":%.3f}\n",
           c.fbm.octaves, stbfbm);
#else
    printf("{\"bench\":\"noise\",\"note\":\"stb_perlin.h not found: no reference\"}\n");
#endif

    for (int f = 0; f < FN_COUNT; f++) {
        bool is_fbm = f == FN_FBM3 || f == FN_FBM2 || f == FN_RIDGE_FBM3;
        double ref = is_fbm ? stbfbm : stb3;
        const char *ref_name = is_fbm ? "stb_perlin_fbm_noise3" : "stb_perlin_noise3";
        double pt = run_points(&c, (Fn)f);
        printf("{\"bench\":\"noise\",\"fn\":\"%s\",\"path\":\"point\",\"lanes\":1,\"ns_per_sample\":%.3f", fn_names[f], pt);
        if (ref > 0.0) printf(",\"speedup_vs_%s\":%.2f", ref_name, ref / pt);
        printf("}\n");
        for (int p = NOISE_PATH_SCALAR; p < NOISE_PATH_COUNT; p++) {
            if (!noise_set_path((NoisePath)p)) continue;
            double ns = run_rows(&c, (Fn)f, out);
            printf("{\"bench\":\"noise\",\"fn\":\"%s\",\"path\":\"%s\",\"lanes\":%d,\"row\":%d,\"ns_per_sample\":%.3f",
                   fn_names[f], noise_path_name((NoisePath)p), p == NOISE_PATH_AVX2 ? 8 : 4, c.row, ns);
            if (ref > 0.0) printf(",\"speedup_vs_%s\":%.2f", ref_name, ref / ns);
            printf("}\n");
            fflush(stdout);
        }
        noise_set_path(initial);
    }
    free(out);
    return 0;
}
