/* skyisles island: internals shared by the pipeline stages (not for other modules).
 * Only + - * / and sqrt on layout decisions: IEEE-exact, so x86 and aarch64 agree bit for bit. */
#ifndef SKYISLES_ISLAND_INT_H
#define SKYISLES_ISLAND_INT_H

#include "island/island.h"

#include <math.h>
#include <string.h>

/* One PCG32 stream per stage, so changing one stage's draws leaves the others alone. */
enum { ISL_STREAM_PLACE = 0x5150, ISL_STREAM_AXES = 0xa7e5, ISL_STREAM_NAMES = 0x4a3e, ISL_STREAM_COAST = 0xc0a5 };

/* Inline: the bake rounds a few times a cell. */
static inline int64_t isl_floor(double x) {
    int64_t i = (int64_t)x;
    return (double)i > x ? i - 1 : i;
}
static inline int32_t isl_round(double x) {   /* half away from zero */
    return (int32_t)(x < 0 ? -isl_floor(-x + 0.5) : isl_floor(x + 0.5));
}
void isl_sincos(double a, double *s, double *c);    /* polynomial, |error| < 1e-15 for |a| < 100 */
/* Layered value noise in [-1, 1] at (x, z), octaves layers doubling the frequency. */
double isl_layered_noise(uint32_t seed, double x, double z, uint32_t octaves);
/* One layer of value noise along a row of fixed z: the same bits as that layer of
 * isl_layered_noise, with the row's lattice values kept while x stays in one lattice cell (the
 * borders read their noise along a row each, cell after cell). */
typedef struct IslNoiseRow {
    uint32_t seed;
    int32_t iz, ix;
    bool valid;
    double v, a, b, c, d, ba, dc;   /* the lattice corners of cell ix, and the steps across it */
} IslNoiseRow;
/* rows[0..octaves) for isl_layered_noise(seed, ., z, octaves). */
void isl_noise_rows_init(IslNoiseRow *rows, uint32_t seed, double z, uint32_t octaves);
void isl_noise_row_fill(IslNoiseRow *r, int32_t ix);   /* the corners of lattice cell ix */
/* The noise's fade curve (the one value noise uses everywhere). */
static inline double isl_fade(double t) { return t * t * t * (t * (t * 6.0 - 15.0) + 10.0); }
/* Inline, as the bake reads a few rows a cell: value noise of the row's seed at (x, z). */
static inline double isl_noise_row(IslNoiseRow *r, double x) {
    int64_t x0 = isl_floor(x);
    double u = isl_fade(x - (double)x0);
    int32_t ix = (int32_t)x0;
    if (!r->valid || ix != r->ix) isl_noise_row_fill(r, ix);
    double top = r->a + r->ba * u, bottom = r->c + r->dc * u;
    return top + (bottom - top) * r->v;
}
/* isl_layered_noise(seed, x, z, octaves) of the rows' seed and z. */
static inline double isl_noise_rows(IslNoiseRow *rows, double x, uint32_t octaves) {
    if (octaves == 1) return 0.0 + isl_noise_row(rows, x);   /* (0 + 1 * v) / 1: v, its -0 made +0 */
    double sum = 0.0, amp = 1.0, norm = 0.0, f = 1.0;
    for (uint32_t o = 0; o < octaves; o++) {
        sum = sum + amp * isl_noise_row(&rows[o], x * f);
        norm = norm + amp;
        amp = amp * 0.5;
        f = f * 2.0;
    }
    return sum / norm;
}
/* The distance from the centre as a share of the coast's there: 1 on the coast (the generator's
 * distance fields read it, so bays and headlands shape the ground). (nx, nz): radius = 1. */
static inline double isl_coast_r(const Island *isl, double nx, double nz) {
    return sqrt(nx * nx + nz * nz) / island_coast_frac(isl, nx, nz);   /* IEEE sqrt: correctly rounded */
}
/* An axis blend in [0, 1] at normalised position (nx, nz) (island radius = 1), r = isl_coast_r. */
double isl_axis_blend(const IslandAxis *a, const uint32_t *term_seeds, double nx, double nz, double r);
/* An axis's noise rows at one nz: isl_axis_blend along a row of cells, the same bits. */
typedef struct IslAxisRows {
    IslNoiseRow row[ISLAND_MAX_BLEND][8];   /* per term, per octave (the pack allows 1..8) */
    double freq[ISLAND_MAX_BLEND];          /* each term's frequency, as axis_blend divides it out */
    double nz;
} IslAxisRows;
void isl_axis_rows_init(IslAxisRows *rows, const IslandAxis *a, const uint32_t *term_seeds, double nz);
double isl_axis_blend_row(IslAxisRows *rows, const IslandAxis *a, double nx, double r);   /* isl_axis_blend(a, ., nx, nz, r) */
/* The blend value -> [0, 1] of the axis range after the island's stretch. */
static inline double isl_axis_unit(const Island *isl, const IslandAxis *a, uint32_t axis, double blend) {
    double t = blend;
    if (a->stretch) {
        double span = isl->axis_hi[axis] - isl->axis_lo[axis];
        t = span > 1e-12 ? (blend - isl->axis_lo[axis]) / span : 0.5;
    }
    return t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
}

/* Stages of island_generate, in pipeline order. The coast first: the sites follow it. */
void isl_coast_init(Island *isl, const IslandCodex *cx);
bool isl_place_sites(Island *isl, const IslandScope *s, uint32_t forced_count, SkyError *err);
void isl_sample_axes(Island *isl, const IslandCodex *cx, const IslandScope *s);
bool isl_admissible(const IslandCodex *cx, uint32_t type, uint32_t scope, const int16_t *axis);
void isl_assign_types(Island *isl, const IslandCodex *cx, uint32_t scope);
bool isl_triangulate(Island *isl, MemArena *work, SkyError *err);
bool isl_build_paths(Island *isl, const IslandCodex *cx, const IslandScope *s, MemArena *work, SkyError *err);
void isl_name_sites(Island *isl, const IslandCodex *cx);
/* The island's airstrips (strips.c), the base camp's first: chosen on the baked ground (elev,
 * type: size x size cells of `cell` metres) and levelled into elev. Returns how many. */
/* The island's water (water.c), into level (size*size dm, 0: dry), digging elev where a basin
 * needs it; reads f's sites, strips and types (island_bake_field's last step). */
void isl_bake_water(IslandField *f, uint16_t *elev, uint16_t *level, const Island *isl, const IslandCodex *cx);
/* One [1 2 1] / 4 pass over a field's ground colours along rows (dir 0) or columns (dir 1), in
 * place; cells off the island are left out (field_grid.c). buf: 6 n bytes. */
void isl_field_blur_pass(uint8_t *rgb, const uint8_t *type, uint32_t n, int dir, uint8_t *buf);
/* Metres from cell (i, j) of an n x n type grid to the nearest cell of another type, up to reach. */
double isl_field_border_distance(const uint8_t *type, uint32_t n, uint32_t i, uint32_t j, double cell, double reach);
uint32_t isl_lay_strips(IslandFieldStrip *out, const Island *isl, uint16_t *elev, const uint8_t *type, uint32_t size,
                        double cell, double radius_m);

#endif
