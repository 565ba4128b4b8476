/* skyisles island: the coastline. No island is a disk: the coast lies at a fraction c of the
 * radius that changes with the direction from the centre, from layered value noise read around a
 * circle (bays and headlands), between 1 - 2 x amplitude (the deepest bay) and 1 (the farthest
 * headland: the field's disk still holds the whole island). Directions are read by the diamond
 * angle (divisions only) into a table made once per island: the same bits on every platform, and
 * a few operations a cell for the bake. */
#include "island/island_int.h"

#include <math.h>

/* Coast noise without an archipelago in the pack: the shipped codex's values. */
#define COAST_DEFAULT_AMP_MILLI 120u
#define COAST_DEFAULT_FREQ_MILLI 3000u
#define COAST_DEFAULT_OCTAVES 2u
#define ISL_PI 3.14159265358979323846

/* The diamond angle of (dx, dz) in [0, 4): monotonic in the true angle, one division. */
static double diamond(double dx, double dz) {
    if (dz >= 0.0) return dx >= 0.0 ? dz / (dx + dz) : 1.0 + -dx / (-dx + dz);
    return dx < 0.0 ? 2.0 + -dz / (-dx - dz) : 3.0 + dx / (dx - dz);
}

/* The unit direction of diamond angle a. */
static void undiamond(double a, double *ux, double *uz) {
    int q = (int)a;
    double t = a - (double)q, x, z;
    switch (q & 3) {
    case 0: x = 1.0 - t, z = t; break;
    case 1: x = -t, z = 1.0 - t; break;
    case 2: x = -(1.0 - t), z = -t; break;
    default: x = t, z = -(1.0 - t); break;
    }
    double len = sqrt(x * x + z * z);
    *ux = x / len;
    *uz = z / len;
}

void isl_coast_init(Island *isl, const IslandCodex *cx) {
    uint32_t amp = COAST_DEFAULT_AMP_MILLI, freq = COAST_DEFAULT_FREQ_MILLI, oct = COAST_DEFAULT_OCTAVES;
    if (cx->has_archipelago) {
        amp = cx->arch.coast_amplitude_milli;
        freq = cx->arch.coast_frequency_milli;
        oct = cx->arch.coast_octaves;
    }
    Rng r;
    rng_seed(&r, isl->seed, ISL_STREAM_COAST);
    const uint32_t seed = rng_u32(&r);
    /* Value noise has about one rise and fall per two lattice units: a circle of radius f / pi
     * has f of them around it. */
    const double rho = (double)freq / 1000.0 / ISL_PI;
    double n[ISLAND_COAST_N], lo = 2.0, hi = -2.0;
    for (uint32_t k = 0; k < ISLAND_COAST_N; k++) {
        double ux, uz;
        undiamond(4.0 * (double)k / (double)ISLAND_COAST_N, &ux, &uz);
        n[k] = isl_layered_noise(seed, rho * ux, rho * uz, oct);
        if (n[k] < lo) lo = n[k];
        if (n[k] > hi) hi = n[k];
    }
    /* The deepest bay at 1 - 2 amp, the farthest headland at 1, whatever the noise's own range. */
    const double a2 = 2.0 * (double)amp / 1000.0, span = hi - lo;
    for (uint32_t k = 0; k < ISLAND_COAST_N; k++) {
        double d = span > 1e-9 ? (hi - n[k]) / span : 0.0;
        isl->coast[k] = (float)(1.0 - a2 * d * d);   /* squared: broad headlands, bays cut into them */
    }
    isl->coast[ISLAND_COAST_N] = isl->coast[0];
}

double island_coast_frac(const Island *isl, double dx, double dz) {
    if (dx == 0.0 && dz == 0.0) return (double)isl->coast[0];
    double a = diamond(dx, dz) * ((double)ISLAND_COAST_N / 4.0);
    int64_t k = isl_floor(a);
    if (k < 0) k = 0;
    if (k >= ISLAND_COAST_N) k = ISLAND_COAST_N - 1;
    double t = a - (double)k, c0 = (double)isl->coast[k], c1 = (double)isl->coast[k + 1];
    return c0 + (c1 - c0) * t;
}
