/* skyisles island: site count and placement (I9) and axis sampling with stretch and
 * quantisation (I3, I8). Positions are integers on the island grid. */
#include "island/island_int.h"

#define ISL_TWO_PI 6.28318530717958647692
#define MITCHELL_CANDIDATES 12
#define INLAND_LIMIT (ISLAND_GRID_RADIUS * 3 / 4)   /* inland sites stay within 75% of the radius */

static int64_t dist2(int32_t ax, int32_t az, int32_t bx, int32_t bz) {
    int64_t dx = (int64_t)ax - bx, dz = (int64_t)az - bz;
    return dx * dx + dz * dz;
}

/* A point uniform by area inland (within 75% of the coast's distance in its direction):
 * rejection from the bounding square. */
static void inland_candidate(const Island *isl, Rng *r, int32_t *x, int32_t *z) {
    const double lim2 = (double)INLAND_LIMIT * INLAND_LIMIT;
    double c;
    do {
        *x = rng_range(r, -INLAND_LIMIT, INLAND_LIMIT);
        *z = rng_range(r, -INLAND_LIMIT, INLAND_LIMIT);
        c = island_coast_frac(isl, (double)*x, (double)*z);
    } while ((double)dist2(*x, *z, 0, 0) > lim2 * c * c);
}

bool isl_place_sites(Island *isl, const IslandScope *s, uint32_t forced_count, SkyError *err) {
    Rng r;
    rng_seed(&r, isl->seed, ISL_STREAM_PLACE);
    uint32_t n, expected2;   /* expected count x2, to keep (min + max) / 2 exact */
    if (forced_count) {
        n = forced_count;
        expected2 = 2 * forced_count;
    } else {
        n = (uint32_t)rng_range(&r, (int32_t)s->site_min, (int32_t)s->site_max);
        expected2 = s->site_min + s->site_max;
    }
    /* Ring: about 35% of the expected count, 4..7: enough to surround, not so many that coast dominates. */
    uint32_t ring = (expected2 * 35 + 100) / 200;
    ring = ring < 4 ? 4 : ring > 7 ? 7 : ring;
    if (ring > n) ring = n;
    isl->n_sites = n;
    isl->n_ring = ring;

    double theta0 = ISL_TWO_PI * rng_double01(&r), step = ISL_TWO_PI / (double)ring;
    for (uint32_t k = 0; k < ring; k++) {
        double jitter = 0.5 * (rng_double01(&r) - 0.5);                  /* +-25% of the spacing */
        double radius = (0.85 + 0.10 * rng_double01(&r)) * ISLAND_GRID_RADIUS;
        double sn, cs;
        isl_sincos(theta0 + step * ((double)k + jitter), &sn, &cs);
        radius *= island_coast_frac(isl, cs, sn);   /* the ring follows the coast into its bays */
        isl->sites[k].gx = isl_round(radius * cs);
        isl->sites[k].gz = isl_round(radius * sn);
        isl->sites[k].ring = 1;
    }
    /* Inland: Mitchell's best candidate, so the count is exact and spacing even. */
    for (uint32_t i = ring; i < n; i++) {
        int64_t best_d = -1;
        int32_t bx = 0, bz = 0;
        for (uint32_t c = 0; c < MITCHELL_CANDIDATES || best_d <= 0; c++) {
            if (c > 4096) {
                sky_error_set(err, SKY_ERR_GENERATE, "island: no free spot for site %u of %u (seed %llu)", i, n,
                              (unsigned long long)isl->seed);
                return false;
            }
            int32_t x, z;
            inland_candidate(isl, &r, &x, &z);
            int64_t d = INT64_MAX;
            for (uint32_t j = 0; j < i; j++) {
                int64_t e = dist2(x, z, isl->sites[j].gx, isl->sites[j].gz);
                if (e < d) d = e;
            }
            if (d > best_d) {
                best_d = d;
                bx = x;
                bz = z;
            }
        }
        isl->sites[i].gx = bx;
        isl->sites[i].gz = bz;
    }
    double m_per_unit = (double)isl->diameter_m * 0.5 / ISLAND_GRID_RADIUS;
    for (uint32_t i = 0; i < n; i++) {
        isl->sites[i].x_m = (float)(isl->sites[i].gx * m_per_unit);
        isl->sites[i].z_m = (float)(isl->sites[i].gz * m_per_unit);
        isl->sites[i].variant = -1;
    }
    return true;
}

void isl_sample_axes(Island *isl, const IslandCodex *cx, const IslandScope *s) {
    Rng r;
    rng_seed(&r, isl->seed, ISL_STREAM_AXES);
    double blend[ISLAND_MAX_SITES];
    for (uint32_t a = 0; a < cx->n_axes; a++) {
        const IslandAxis *ax = &cx->axes[a];
        for (uint32_t t = 0; t < ax->n_terms; t++)
            isl->axis_noise_seed[a][t] = rng_u32(&r) + ax->terms[t].seed_offset * 0x9e3779b9u;
        double lo = 2.0, hi = -1.0;
        for (uint32_t i = 0; i < isl->n_sites; i++) {
            double nx = (double)isl->sites[i].gx / ISLAND_GRID_RADIUS, nz = (double)isl->sites[i].gz / ISLAND_GRID_RADIUS;
            blend[i] = isl_axis_blend(ax, isl->axis_noise_seed[a], nx, nz, isl_coast_r(isl, nx, nz));
            if (blend[i] < lo) lo = blend[i];
            if (blend[i] > hi) hi = blend[i];
        }
        isl->axis_lo[a] = lo;
        isl->axis_hi[a] = hi;
        for (uint32_t i = 0; i < isl->n_sites; i++) {
            double u = isl_axis_unit(isl, ax, a, blend[i]);
            int32_t v = isl_round((double)ax->min + u * (double)(ax->max - ax->min));
            isl->sites[i].axis[a] = (int16_t)(v < ax->min ? ax->min : v > ax->max ? ax->max : v);
        }
    }
    /* hull_coast: the ring is the coast by construction, whatever the noise says. */
    if (s->hull_coast)
        for (uint32_t i = 0; i < isl->n_ring; i++)
            if (isl->sites[i].axis[s->coast_axis] > s->coast_band) isl->sites[i].axis[s->coast_axis] = (int16_t)s->coast_band;
    const IslandAxis *ea = &cx->axes[s->elevation_axis];
    for (uint32_t i = 0; i < isl->n_sites; i++)
        isl->sites[i].elevation_m = (float)((double)(isl->sites[i].axis[s->elevation_axis] - ea->min) /
                                            (double)(ea->max - ea->min) * (double)s->elevation_top_m);
}
