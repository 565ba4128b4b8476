/* skyisles island: deterministic maths for layout decisions: rounding, sin/cos (core's polynomial),
 * hashed value noise and the axis generator blend. No libm: the same bits on every platform. */
#include "island/island_int.h"

#include <math.h>

/* The shared deterministic sin/cos (src/core/detmath.c): the same series this file had. */
void isl_sincos(double a, double *s, double *c) { det_sincos(a, s, c); }

static double lattice(uint32_t seed, int32_t x, int32_t z) {
    return (double)(hash3_u32(seed, x, z, 0) >> 8) * (2.0 / 16777216.0) - 1.0;
}

static double value_noise(uint32_t seed, double x, double z) {
    int64_t x0 = isl_floor(x), z0 = isl_floor(z);
    double u = isl_fade(x - (double)x0), v = isl_fade(z - (double)z0);
    int32_t ix = (int32_t)x0, iz = (int32_t)z0;
    double a = lattice(seed, ix, iz), b = lattice(seed, ix + 1, iz);
    double c = lattice(seed, ix, iz + 1), d = lattice(seed, ix + 1, iz + 1);
    double top = a + (b - a) * u, bottom = c + (d - c) * u;
    return top + (bottom - top) * v;
}

double isl_layered_noise(uint32_t seed, double x, double z, uint32_t octaves) {
    double sum = 0.0, amp = 1.0, norm = 0.0, f = 1.0;
    for (uint32_t o = 0; o < octaves; o++) {
        sum = sum + amp * value_noise(seed + o * 0x9e3779b9u, x * f, z * f);
        norm = norm + amp;
        amp = amp * 0.5;
        f = f * 2.0;
    }
    return sum / norm;
}

void isl_noise_rows_init(IslNoiseRow *rows, uint32_t seed, double z, uint32_t octaves) {
    double f = 1.0;
    for (uint32_t o = 0; o < octaves; o++) {
        IslNoiseRow *r = &rows[o];
        double zf = z * f;
        int64_t z0 = isl_floor(zf);
        r->seed = seed + o * 0x9e3779b9u;
        r->iz = (int32_t)z0;
        r->v = isl_fade(zf - (double)z0);
        r->valid = false;
        f = f * 2.0;
    }
}

void isl_noise_row_fill(IslNoiseRow *r, int32_t ix) {
    const uint32_t sd = r->seed;
    const int32_t iz = r->iz;
    /* A step to the next lattice cell keeps the shared corner values. */
    if (r->valid && ix == r->ix + 1) {
        r->a = r->b;
        r->c = r->d;
        r->b = lattice(sd, ix + 1, iz);
        r->d = lattice(sd, ix + 1, iz + 1);
    } else if (r->valid && ix == r->ix - 1) {
        r->b = r->a;
        r->d = r->c;
        r->a = lattice(sd, ix, iz);
        r->c = lattice(sd, ix, iz + 1);
    } else {
        r->a = lattice(sd, ix, iz);
        r->b = lattice(sd, ix + 1, iz);
        r->c = lattice(sd, ix, iz + 1);
        r->d = lattice(sd, ix + 1, iz + 1);
    }
    r->ix = ix;
    r->valid = true;
    r->ba = r->b - r->a;
    r->dc = r->d - r->c;
}

/* The blend at (nx, nz); the noise terms from `rows` (set up for this nz) when given. */
static double axis_blend(const IslandAxis *a, const uint32_t *term_seeds, IslAxisRows *rows, double nx, double nz) {
    double r = sqrt(nx * nx + nz * nz);   /* IEEE sqrt: correctly rounded everywhere */
    if (r > 1.0) r = 1.0;
    double sum = 0.0, wsum = 0.0;
    for (uint32_t t = 0; t < a->n_terms; t++) {
        const IslandBlendTerm *b = &a->terms[t];
        double v;
        if (b->kind == ISLAND_GEN_DISTANCE_FIELD) {
            v = b->reference == ISLAND_REF_EDGE ? 1.0 - r : r;
        } else {
            double f = rows ? rows->freq[t] : (double)b->frequency_milli / 1000.0;
            double n = rows ? isl_noise_rows(rows->row[t], nx * f, b->octaves)
                            : isl_layered_noise(term_seeds[t], nx * f, nz * f, b->octaves);
            v = 0.5 * (n + 1.0);
        }
        sum = sum + (double)b->weight * v;
        wsum = wsum + (double)b->weight;
    }
    return sum / wsum;
}

double isl_axis_blend(const IslandAxis *a, const uint32_t *term_seeds, double nx, double nz) {
    return axis_blend(a, term_seeds, NULL, nx, nz);
}

void isl_axis_rows_init(IslAxisRows *rows, const IslandAxis *a, const uint32_t *term_seeds, double nz) {
    for (uint32_t t = 0; t < a->n_terms; t++) {
        const IslandBlendTerm *b = &a->terms[t];
        rows->freq[t] = (double)b->frequency_milli / 1000.0;
        if (b->kind != ISLAND_GEN_DISTANCE_FIELD) isl_noise_rows_init(rows->row[t], term_seeds[t], nz * rows->freq[t], b->octaves);
    }
    rows->nz = nz;
}

double isl_axis_blend_row(IslAxisRows *rows, const IslandAxis *a, double nx) {
    return axis_blend(a, NULL, rows, nx, rows->nz);
}

