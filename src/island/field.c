/* skyisles island: bakes the home island into core's IslandField for the world: the ground in
 * metres above the island's sea level (the elevation axis field as stretched for this island,
 * shaped by the sites: the peak on top, coasts by their type, the crater), the underside depth,
 * the place (the type of the site whose cell, its borders moved by noise-driven waves, holds the
 * point) and its ground colour blended across borders, and the paths drawn on the ground.
 * Layout-grade maths only (+ - * /, sqrt on doubles and the deterministic sine), so every
 * platform bakes the same bits. */
#include "island/island_int.h"

#include <math.h>

_Static_assert(ISLAND_MAX_TYPES <= ISLAND_FIELD_MAX_TYPES, "the baked field carries a colour per type");
_Static_assert(ISLAND_FIELD_MAX_TYPES <= ISLAND_FIELD_OFF, "no type index may read as off-island");
_Static_assert(ISLAND_MAX_SITES <= ISLAND_FIELD_MAX_SITES, "the baked field carries every site");
_Static_assert(ISLAND_FIELD_MAX_TYPES <= 32, "a cell keeps the places near it in a 32-bit mask");

/* Shape constants, as fractions of the scope's sizes (I8: the look does not depend on scale). */
#define SHAPE_BODY 0.8          /* the elevation field carries 80% of the top ... */
#define SHAPE_PEAK 0.2          /* ... and a dome on the peak site the rest */
#define SHAPE_PEAK_R 0.4        /* dome radius, of the island radius */
#define SHAPE_PEAK_CONE 0.1     /* nothing rises above top - 0.1 x metres from the peak */
#define SHAPE_COAST_R0 0.70     /* the coast band: the ring sites' coast kinds take over ... */
#define SHAPE_COAST_R1 0.92     /* ... fully from here to the rim */
#define SHAPE_BEACH 0.35        /* a beach keeps this share of the field's height: low and flat */
#define SHAPE_KEEL 0.6          /* underside depth at the centre, of the top elevation */
#define CRATER_DEPTH 0.4        /* of the crater radius */
#define CRATER_RIM 0.12
#define PATH_HALF_WIDTH_M 1.6   /* paths are ~3 m wide */
#define PATH_RGB 0x9C8866u      /* packed earth */
#define SNOW_RGB 0xE9ECEFu      /* the summit's snow */
#define SNOW_FULL_M 12.0         /* snow covers the summit's place this far from its highest cell ... */
#define SNOW_ZERO_M 45.0        /* ... thinning to none here (a gentle ramp: no step a border has not) */
#define SNOW_EDGE_VAR_M 6.0     /* the snow's edge wanders in and out by this (noise) */
#define SNOW_EDGE_LEN_M 14.0
#define SNOW_BORDER_M 12.0       /* and thins out to none this near the place's border (its blend band) */
#define PATH_GRID_MAX 2048u     /* path bits per side at most (1 m cells up to a 2 km island) */
/* Borders between places. Each border of two sites (their bisector) is moved off its line along
 * it: a long noise bend, a sine of WAVE_LEN_M whose phase and amplitude drift with value noise,
 * and a shorter noise wobble, so no stretch of a border runs straight (a full wave within every
 * 32 m). The ground
 * colour blends across a border over a band whose half on each side comes from the colour of the
 * place across it: wide where the two colours are far apart, so the colour moves by at most
 * BORDER_STEP per channel a metre (a biome border's steepest steps are ~5), BORDER_MIN_M..
 * BORDER_MAX_M. Metres, so the look is the same at every cell size. */
#define BEND_AMP_M 8.0          /* a long noise bend first: no border keeps its straight line */
#define BEND_LEN_M 70.0
#define WAVE_AMP_M 4.0
#define WAVE_LEN_M 26.0
#define WAVE_AMP_VAR 0.15       /* the sine's amplitude varies by +-15% (noise) */
#define WAVE_FADE_M 10.0
#define WAVE_PHASE_M 60.0       /* the phase drifts by up to +-pi/2 over this */
#define WOBBLE_AMP_M 1.0
#define WOBBLE_LEN_M 9.0
#define BORDER_STEP 3.5
#define BORDER_MIN_M 4.0
#define BORDER_MAX_M 20.0
#define BORDER_MOVE_M (BEND_AMP_M + WAVE_AMP_M * (1.0 + WAVE_AMP_VAR) + WOBBLE_AMP_M)   /* the most a border moves */

/* Coast kinds, the codex prop `coast` of a location type (I1: data, no type is named here). */
enum { COAST_SHORE = 0, COAST_BEACH = 1, COAST_CLIFF = 2 };

static double smooth01(double e0, double e1, double x) {
    double t = (x - e0) / (e1 - e0);
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    return t * t * (3.0 - 2.0 * t);
}

static uint32_t path_grid_size(uint32_t diameter_m) {
    uint32_t n = diameter_m + 1u;
    n = (n + 7u) & ~7u;
    return n > PATH_GRID_MAX ? PATH_GRID_MAX : n;
}

/* What the bake needs per site, in metres from the island centre. */
typedef struct ShapeSite {
    double x, z, elev;
    int32_t coast;        /* ring sites: COAST_*; -1 inland */
    double crater_r;      /* > 0: a crater of this radius */
} ShapeSite;

typedef struct Shape {
    ShapeSite site[ISLAND_MAX_SITES];
    uint8_t ring[ISLAND_MAX_SITES], crater[ISLAND_MAX_SITES];   /* the coast and crater sites, in site order */
    uint32_t n, n_ring, n_crater;
    double radius, top, peak_x, peak_z, keel;
} Shape;

static void shape_init(Shape *sh, const Island *isl, const IslandCodex *cx, const IslandScope *s) {
    memset(sh, 0, sizeof *sh);
    sh->n = isl->n_sites;
    sh->radius = (double)isl->diameter_m * 0.5;
    sh->top = (double)s->elevation_top_m;
    sh->keel = SHAPE_KEEL * sh->top;
    uint32_t peak = 0;
    for (uint32_t i = 0; i < isl->n_sites; i++) {
        const IslandSite *st = &isl->sites[i];
        ShapeSite *p = &sh->site[i];
        /* Site metres from the grid, in double (x_m/z_m are floats of the same values). */
        p->x = (double)st->gx / ISLAND_GRID_RADIUS * sh->radius;
        p->z = (double)st->gz / ISLAND_GRID_RADIUS * sh->radius;
        p->elev = (double)st->elevation_m;
        int32_t v = COAST_SHORE;
        island_codex_prop(cx, st->type, -1, "coast", &v);
        p->coast = st->ring ? v : -1;
        int32_t cr = 0;
        island_codex_prop(cx, st->type, -1, "crater_radius_m", &cr);
        p->crater_r = cr > 0 ? (double)cr : 0.0;
        if (st->elevation_m > isl->sites[peak].elevation_m) peak = i;   /* the first highest site */
    }
    /* On a tie the site of the scope's first "highest elevation" guarantee is the peak (a crater
     * may share the top quantised height; it then keeps its bowl). */
    for (uint32_t g = 0; g < s->n_guarantees; g++) {
        const IslandGuarantee *gu = &s->guarantees[g];
        if (gu->axis != s->elevation_axis || gu->pick != ISLAND_PICK_MAX) continue;
        for (uint32_t i = 0; i < isl->n_sites; i++)
            if (isl->sites[i].type == gu->type && isl->sites[i].guaranteed &&
                isl->sites[i].elevation_m == isl->sites[peak].elevation_m) {
                peak = i;
                break;
            }
        break;
    }
    sh->peak_x = sh->site[peak].x;
    sh->peak_z = sh->site[peak].z;
    /* A crater stays clear of the peak, so the peak keeps its place on top. */
    for (uint32_t i = 0; i < sh->n; i++) {
        ShapeSite *p = &sh->site[i];
        if (p->crater_r <= 0.0 || i == peak) {
            p->crater_r = 0.0;
            continue;
        }
        double dx = p->x - sh->peak_x, dz = p->z - sh->peak_z, d = sqrt(dx * dx + dz * dz);
        if (p->crater_r > 0.45 * d) p->crater_r = 0.45 * d;
    }
    for (uint32_t i = 0; i < sh->n; i++) {
        if (sh->site[i].coast >= 0) sh->ring[sh->n_ring++] = (uint8_t)i;
        if (sh->site[i].crater_r > 0.0) sh->crater[sh->n_crater++] = (uint8_t)i;
    }
}

/* Ground height (metres above sea) and underside depth at (lx, lz) metres from the centre, with
 * the elevation axis at unit value t there and r = isl_coast_r there (1 on the coast); ring_dz2:
 * the row's (lz - z)^2 of each ring site. */
static void shape_at(const Shape *sh, const double *ring_dz2, double lx, double lz, double t, double r, double *ground,
                     double *under) {
    /* Body: the field, plus a dome on the peak so slopes rise to it. */
    double px = lx - sh->peak_x, pz = lz - sh->peak_z, dp2 = px * px + pz * pz;
    double rb = SHAPE_PEAK_R * sh->radius, q2 = dp2 / (rb * rb);
    double dome = q2 < 1.0 ? (1.0 - q2) * (1.0 - q2) : 0.0;
    double h = sh->top * (SHAPE_BODY * t + SHAPE_PEAK * dome);
    double keel = sh->keel * (0.3 + 0.7 * (1.0 - r));
    /* Coast: the ring sites' kinds, blended by inverse distance^8 (continuous, short where two meet). */
    double b = smooth01(SHAPE_COAST_R0, SHAPE_COAST_R1, r);
    if (b > 0.0) {
        double wsum = 0.0, hsum = 0.0, usum = 0.0;
        for (uint32_t r8 = 0; r8 < sh->n_ring; r8++) {
            const ShapeSite *p = &sh->site[sh->ring[r8]];
            double dx = lx - p->x, d2 = dx * dx + ring_dz2[r8] + 1.0;
            double w2 = 1.0 / (d2 * d2), w = w2 * w2;   /* 1 / d^8: a short blend where two coasts meet */
            double hc, uc;
            /* Undersides at the rim stay >= 12 m deep: the world interpolates the lens from
             * corners 8 blocks apart in y, and a thinner lens falls between them. */
            if (p->coast == COAST_BEACH) {          /* low and flat: the beach at sea level */
                hc = h * SHAPE_BEACH;
                uc = 0.34 * sh->keel;
            } else if (p->coast == COAST_CLIFF) {   /* the site's height to the rim, a deep wall */
                hc = h > p->elev ? h : p->elev;
                uc = 0.6 * sh->keel;
            } else {
                hc = h;
                uc = 0.42 * sh->keel;
            }
            wsum += w;
            hsum += w * hc;
            usum += w * uc;
        }
        if (wsum > 0.0) {
            h = h + (hsum / wsum - h) * b;
            keel = keel + (usum / wsum - keel) * b;
        }
    }
    /* Craters: a bowl inside a raised rim. */
    for (uint32_t c8 = 0; c8 < sh->n_crater; c8++) {
        const ShapeSite *p = &sh->site[sh->crater[c8]];
        double dx = lx - p->x, dz = lz - p->z, c2 = (dx * dx + dz * dz) / (p->crater_r * p->crater_r);
        if (c2 >= 2.25) continue;
        double q = sqrt(c2);
        double bowl = c2 < 1.0 ? (1.0 - c2) * (1.0 - c2) : 0.0;
        double e = (q - 1.0) / 0.5, rim = e * e < 1.0 ? (1.0 - e * e) * (1.0 - e * e) : 0.0;
        h += p->crater_r * (CRATER_RIM * rim - CRATER_DEPTH * bowl);
    }
    /* The peak is the top: everything else stays under a shallow cone around it. */
    double cap = sh->top - SHAPE_PEAK_CONE * sqrt(dp2);
    if (h > cap) h = cap;
    *ground = h < 0.0 ? 0.0 : h;
    *under = keel < 1.0 ? 1.0 : keel;
}

/* Largest channel difference of two colours 0xRRGGBB. */
static double rgb_apart(uint32_t a, uint32_t b) {
    double d = 0.0;
    for (int k = 0; k < 24; k += 8) {
        double c = (double)((a >> k) & 0xffu) - (double)((b >> k) & 0xffu);
        if (c < 0.0) c = -c;
        if (c > d) d = c;
    }
    return d;
}

/* Each type's half band: from the colours of the places it meets on this island (its sites'
 * Delaunay neighbours of another type), in metres. */
static void border_bands(const Island *isl, const uint32_t *type_rgb, uint32_t ntypes, double *band) {
    for (uint32_t t = 0; t < ntypes; t++) band[t] = BORDER_MIN_M;
    for (uint32_t e = 0; e < isl->n_edges; e++) {
        uint8_t a = isl->sites[isl->edges[e].a].type, b = isl->sites[isl->edges[e].b].type;
        if (a == b || a >= ntypes || b >= ntypes) continue;
        double h = rgb_apart(type_rgb[a], type_rgb[b]) / (2.0 * BORDER_STEP);
        h = h > BORDER_MAX_M ? BORDER_MAX_M : h;
        if (h > band[a]) band[a] = h;
        if (h > band[b]) band[b] = h;
    }
}

/* A border (the sites lo < hi) as the cells read it, from either side: its line's direction and
 * the rows of its noise (its long bend, and its wave: the sine with the drifting phase and
 * amplitude, and the short wobble). Kept in a small cache by the pair: the cells of one row and
 * the next meet the same borders again. */
typedef struct BorderWave {
    int32_t lo, hi;   /* -1: an empty slot */
    double tx, tz, phase0;
    IslNoiseRow bend[1], phase[1], amp[1], wobble[2];
} BorderWave;

#define BORDER_WAVE_SLOTS 64u

/* The nearest site a's border with site k. */
typedef struct BorderPair {
    double sep;    /* metres between the sites */
    double far;    /* d2k - d2a past this: the bisector lies beyond the band's reach (a safe margin) */
} BorderPair;

/* A nearest site a's borders: every other site, and the sites of other places, nearest first, so
 * a cell reads only those whose border can reach it. */
typedef struct NearList {
    uint32_t a, n_near, n_close, used;
    uint8_t near[ISLAND_MAX_SITES];     /* other places' sites */
    uint8_t close[ISLAND_MAX_SITES];    /* every other site */
    BorderPair pair[ISLAND_MAX_SITES];
} NearList;

#define BORDER_LISTS 8u

/* The bake's borders: the lists of the last few nearest sites (a row meets a few, and the next
 * row the same ones), the current one, and the borders' cache. */
typedef struct Borders {
    NearList list[BORDER_LISTS], *cur;
    uint32_t clock, seed;
    double lim_max;                     /* the farthest any place's band reaches past a bisector */
    double row_dz2[ISLAND_MAX_SITES];   /* the row's squared distances across to each site (borders_row) */
    BorderWave wave[BORDER_WAVE_SLOTS];
} Borders;

static size_t place_queue_bytes(uint32_t size);

size_t island_field_bytes(const IslandCodex *cx, uint32_t scope, uint32_t size) {
    size_t n = (size_t)size * size * 10 + 5 * 64;   /* the grids, the water's included */
    /* The bake's working set. */
    n += sizeof(Borders) + 64 + (size_t)size * 6 + 64 + 2 * (sizeof(double) * size + 64) + place_queue_bytes(size);
    if (scope < cx->n_scopes) {
        uint32_t d = cx->scopes[scope].diameter_m;
        if (cx->has_archipelago && cx->arch.diameter_max_m > d) d = cx->arch.diameter_max_m;
        size_t p = path_grid_size(d);
        n += p * p / 8 + 64;
    }
    return n;
}

uint32_t island_field_cells(const IslandCodex *cx, uint32_t scope, uint32_t home_cells, uint32_t diameter_m) {
    uint32_t home = scope < cx->n_scopes ? cx->scopes[scope].diameter_m : 0;
    uint64_t n = home ? ((uint64_t)home_cells * diameter_m + home / 2u) / home : home_cells;
    n = n > home_cells ? home_cells : n;
    return n < 2u ? 2u : n > ISLAND_FIELD_MAX_CELLS ? ISLAND_FIELD_MAX_CELLS : (uint32_t)n;
}

/* How far past a bisector a side can still come within `band` of its border: the most the bend
 * and the wave move it, and a margin for rounding. */
static double band_reach(double band) { return band + BORDER_MOVE_M + 1e-6; }

static void pair_init(BorderPair *p, const Shape *sh, uint32_t a, uint32_t k, double lim) {
    double sx = sh->site[k].x - sh->site[a].x, sz = sh->site[k].z - sh->site[a].z;
    p->sep = sqrt(sx * sx + sz * sz);
    /* (d2k - d2a) / (2 sep) > lim for sure past this, whatever the division's rounding. */
    p->far = lim * (2.0 * p->sep) * (1.0 + 1e-9);
}

/* Inserts site k into list[0..*n) kept in order of the pairs' sep. */
static void by_sep(uint8_t *list, uint32_t *n, const BorderPair *pair, uint32_t k) {
    uint32_t at = (*n)++;
    while (at > 0 && pair[list[at - 1]].sep > pair[k].sep) {
        list[at] = list[at - 1];
        at--;
    }
    list[at] = (uint8_t)k;
}

/* Empty lists and cache, and the widest band's reach. */
static void borders_init(Borders *bd, const double *band, uint32_t ntypes, uint32_t seed) {
    for (uint32_t q = 0; q < BORDER_LISTS; q++) bd->list[q].a = UINT32_MAX, bd->list[q].used = 0;
    bd->cur = &bd->list[0];
    bd->clock = 0;
    bd->seed = seed;
    for (uint32_t q = 0; q < BORDER_WAVE_SLOTS; q++) bd->wave[q].lo = bd->wave[q].hi = -1;
    bd->lim_max = 0.0;
    for (uint32_t t = 0; t < ntypes; t++)
        if (band_reach(band[t]) > bd->lim_max) bd->lim_max = band_reach(band[t]);
}

/* Makes site a's list the current one: kept, or set up in the least recently used one. */
static void borders_for(Borders *bd, const Shape *sh, const Island *isl, const double *band, uint32_t a) {
    NearList *nl = &bd->list[0];
    for (uint32_t q = 0; q < BORDER_LISTS && nl->a != a; q++)
        if (bd->list[q].a == a || bd->list[q].used < nl->used) nl = &bd->list[q];
    nl->used = ++bd->clock;
    bd->cur = nl;
    if (nl->a == a) return;
    nl->a = a;
    nl->n_near = nl->n_close = 0;
    for (uint32_t k = 0; k < sh->n; k++) {
        if (k == a) continue;
        uint8_t t = isl->sites[k].type;
        pair_init(&nl->pair[k], sh, a, k, band_reach(band[t]));
        by_sep(nl->close, &nl->n_close, nl->pair, k);
        if (t != isl->sites[a].type) by_sep(nl->near, &nl->n_near, nl->pair, k);
    }
}

/* Squared metres from (lx, the row's lz) to site k: dx^2 + dz^2, dz^2 the row's (borders_row). */
static double dist2(const Shape *sh, const Borders *bd, uint32_t k, double lx) {
    double dx = lx - sh->site[k].x;
    return dx * dx + bd->row_dz2[k];
}

/* The row at lz: each site's dz^2 for dist2. */
static void borders_row(Borders *bd, const Shape *sh, double lz) {
    for (uint32_t k = 0; k < sh->n; k++) {
        double dz = lz - sh->site[k].z;
        bd->row_dz2[k] = dz * dz;
    }
}

/* The nearest site to (lx, the row's lz) (the first of equals), its squared distance in d2[it] and the
 * distance in *rho. The last cell's nearest site holds unless a site within twice its distance
 * of the point is as near: a site k with |p - k| <= |p - a| lies within 2 |p - a| of a. */
static uint32_t nearest_site(const Shape *sh, const Island *isl, const double *band, Borders *bd, double lx,
                             double *d2, double *rho) {
    const NearList *nl = bd->cur;
    uint32_t a = nl->a;
    if (a < sh->n) {
        double d2a = dist2(sh, bd, a, lx), reach = 2.0 * (*rho = sqrt(d2a)) + 1e-3;
        bool held = true;
        for (uint32_t q = 0; q < nl->n_close && held; q++) {
            uint32_t k = nl->close[q];
            if (nl->pair[k].sep > reach) break;
            double d2k = dist2(sh, bd, k, lx);
            held = d2k > d2a || (d2k == d2a && k > a);
        }
        if (held) {
            d2[a] = d2a;
            return a;
        }
    }
    a = 0;
    for (uint32_t k = 0; k < sh->n; k++) {
        d2[k] = dist2(sh, bd, k, lx);
        if (d2[k] < d2[a]) a = k;
    }
    if (a != nl->a) borders_for(bd, sh, isl, band, a);
    *rho = sqrt(d2[a]);
    return a;
}

/* The border of sites lo < hi, from the cache or set up in its slot. */
static BorderWave *border_of(Borders *bd, const Shape *sh, uint32_t lo, uint32_t hi) {
    BorderWave *bw = &bd->wave[(lo * 61u + hi) % BORDER_WAVE_SLOTS];
    if (bw->lo == (int32_t)lo && bw->hi == (int32_t)hi) return bw;
    const uint32_t seed = bd->seed;
    uint32_t h = hash3_u32(seed, (int32_t)lo, (int32_t)hi, 7);
    double zrow = (double)(h >> 20) * 0.37;
    double sx = sh->site[hi].x - sh->site[lo].x, sz = sh->site[hi].z - sh->site[lo].z, sep = sqrt(sx * sx + sz * sz);
    /* Along the border: the direction across lo -> hi turned left, so both sides read one wave. */
    bw->lo = (int32_t)lo;
    bw->hi = (int32_t)hi;
    bw->tx = -sz / sep;
    bw->tz = sx / sep;
    bw->phase0 = (double)(h & 0xffffu) * (6.283185307179586 / 65536.0);
    isl_noise_rows_init(bw->bend, seed ^ 0x27d4eb2fu, zrow, 1);
    isl_noise_rows_init(bw->phase, seed, zrow, 1);
    isl_noise_rows_init(bw->amp, seed ^ 0x9e3779b9u, zrow, 1);
    isl_noise_rows_init(bw->wobble, seed ^ 0x5bd1e995u, zrow, 2);
    return bw;
}

/* The border's wave at s metres along it: amp * det_sin(arg) + wob, the sine's argument and the
 * rest from border_wave_parts (the bake reads a row's sines together). */
static double border_wave_parts(BorderWave *bw, double s, double *amp, double *wob) {
    double phase = bw->phase0 + 1.5707963267948966 * isl_noise_rows(bw->phase, s / WAVE_PHASE_M, 1);
    *amp = WAVE_AMP_M * (1.0 + WAVE_AMP_VAR * isl_noise_rows(bw->amp, s / WAVE_PHASE_M, 1));
    *wob = WOBBLE_AMP_M * isl_noise_rows(bw->wobble, s / WOBBLE_LEN_M, 2);
    return 6.283185307179586 / WAVE_LEN_M * s + phase;
}

static double border_wave(BorderWave *bw, double s) {
    double amp, wob, arg = border_wave_parts(bw, s, &amp, &wob);
    return amp * det_sin(arg) + wob;
}

/* One side of a cell's wavy border as border_side_begin leaves it: the distance across the
 * bisector (g), the bend and, where the wave counts, the place along the border (s) to read it
 * at. The bake reads a row's waves together (their long sine chains do not wait on each other). */
typedef struct SideRec {
    double e;                     /* the side, once known; while it waits, g */
    double bend, s, amp, wob;     /* amp, wob: the wave's parts but its sine (border_wave_parts) */
    uint8_t k, lo, hi, wave;      /* wave: the side waits for its border's wave at s; k == hi: a < k */
} SideRec;

/* How far the point lies on site a's side of its wavy border with site k (p: that pair; negative:
 * on k's), in metres across the bisector: the signed distance to it (from the squared distances
 * d2a, d2k) less the border's bend and wave at (lx, lz). The wave fades out over WAVE_FADE_M from
 * the border, so the blend's lines relax to the bend's away from it. Only a side under `band`
 * (k's place's) counts, so one that cannot come under it whatever its bend or wave is returned
 * without them (the bisector's distance, or without the wave). Begun here: r->e is the side
 * unless r->wave, when border_side_end finishes it with the wave at r->s. */
static void border_side_begin(SideRec *r, const BorderPair *p, Borders *bd, const Shape *sh, uint32_t a, uint32_t k,
                              double lx, double lz, double d2a, double d2k, double band) {
    r->wave = 0;
    r->k = (uint8_t)k;
    if (!(p->sep > 0.0)) {
        r->e = 1e9;
        return;
    }
    double g = (d2k - d2a) / (2.0 * p->sep);
    r->e = g;
    if (g > band_reach(band)) return;
    BorderWave *bw = border_of(bd, sh, a < k ? a : k, a < k ? k : a);
    double s = lx * bw->tx + lz * bw->tz, sign = a < k ? 1.0 : -1.0;
    double bend = BEND_AMP_M * isl_noise_rows(bw->bend, s / BEND_LEN_M, 1), e0 = g - sign * bend;
    r->e = e0;
    /* Farther from the bent line than the wave reaches plus its fade: the wave is faded out. */
    if ((e0 < 0.0 ? -e0 : e0) > WAVE_FADE_M + WAVE_AMP_M * (1.0 + WAVE_AMP_VAR) + WOBBLE_AMP_M) return;
    if (e0 > band + WAVE_AMP_M * (1.0 + WAVE_AMP_VAR) + WOBBLE_AMP_M + 1e-6) return;
    r->wave = 1;
    r->e = g;
    r->bend = bend;
    r->s = s;
    r->lo = (uint8_t)(a < k ? a : k);
    r->hi = (uint8_t)(a < k ? k : a);
}

/* The side with its border's wave at r->s (the border's slot may have held another since). */
static double border_side_end(const SideRec *r, double wave) {
    const double g = r->e, sign = r->k == r->hi ? 1.0 : -1.0;
    double e = g - sign * (r->bend + wave), fade = 1.0 - (e < 0.0 ? -e : e) / WAVE_FADE_M;
    return g - sign * (r->bend + (fade > 0.0 ? fade * wave : 0.0));
}

static double border_side(const BorderPair *p, Borders *bd, const Shape *sh, uint32_t a, uint32_t k, double lx,
                          double lz, double d2a, double d2k, double band) {
    SideRec r;
    border_side_begin(&r, p, bd, sh, a, k, lx, lz, d2a, d2k, band);
    if (!r.wave) return r.e;
    return border_side_end(&r, border_wave(border_of(bd, sh, r.lo, r.hi), r.s));
}

/* A side ek of place t within its band: the nearest of them is the place's distance. */
static uint32_t band_side(double *dt, uint32_t mask, uint32_t t, double ek) {
    if (!(mask >> t & 1u)) dt[t] = ek;
    else if (ek < dt[t]) dt[t] = ek;
    return mask | 1u << t;
}

/* The place at (lx, lz) metres from the centre: the type of the site whose wavy cell holds it
 * (*t1) and the ground colour there (*rgb): every place within its band weighted by how near its
 * border is (its share beta falls from 1/2 on the border to 0 at the band's edge; weight
 * beta / (1 - beta) against the own place's 1, so across a border of two the colour moves
 * linearly from one to the other). In two steps: place_begin takes the nearest site and begins
 * its sides (rec[0..return)); the row's waves are read; place_end finishes the cell. */
static uint32_t place_begin(const Shape *sh, const Island *isl, const double *band, Borders *bd, double lx, double lz,
                            uint8_t *site, SideRec *rec) {
    double d2[ISLAND_MAX_SITES];
    double rho;
    const uint32_t a = nearest_site(sh, isl, band, bd, lx, d2, &rho);
    /* The nearest site's cell, moved by its borders' waves: the most negative side wins (the
     * first site's of equals). Each side is wanted as far as the other place's band reaches: a
     * site k's bisector lies at least sep / 2 - |p - a| from the point, so the sites past `cut`
     * are out of reach, and so are all after them. */
    const NearList *nl = bd->cur;
    const double cut = 2.0 * (rho + bd->lim_max) + 1e-5;
    uint32_t n = 0;
    for (uint32_t q = 0; q < nl->n_near; q++) {
        uint32_t k = nl->near[q];
        const BorderPair *p = &nl->pair[k];
        if (p->sep > cut) break;
        d2[k] = dist2(sh, bd, k, lx);
        if (d2[k] - d2[a] > p->far) continue;   /* past its band's reach: no share of the colour */
        border_side_begin(&rec[n++], p, bd, sh, a, k, lx, lz, d2[a], d2[k], band[isl->sites[k].type]);
    }
    *site = (uint8_t)a;
    return n;
}

static void place_end(const Shape *sh, const Island *isl, const uint32_t *type_rgb, const double *band, Borders *bd,
                      double lx, double lz, uint32_t a, const SideRec *rec, uint32_t n, uint8_t *t1, uint8_t *rgb) {
    uint32_t w = a;
    double worst = 0.0;
    /* Each other place's nearest side, kept for the places within their band (mask): the nearest
     * site's sides, taken as they come, unless a wave gives the point away (then the winner's). */
    double dt[ISLAND_FIELD_MAX_TYPES];
    uint32_t mask = 0;
    for (uint32_t q = 0; q < n; q++) {
        const uint32_t k = rec[q].k;
        const uint8_t t = isl->sites[k].type;
        double e = rec[q].e;
        if (e < worst || (e == worst && w != a && k < w)) worst = e, w = k;
        double ek = e < 0.0 ? 0.0 : e;
        if (ek < band[t]) mask = band_side(dt, mask, t, ek);
    }
    const uint8_t tw = isl->sites[w].type;
    if (w != a) mask = 0;
    /* Across the winner's bisector with k the point lies at least (|p - k| - |p - w|) / 2 away:
     * a site farther than rw + 2 lim (a safe margin) is past its band's reach. */
    const double d2w = w != a ? dist2(sh, bd, w, lx) : 0.0, rw = w != a ? sqrt(d2w) : 0.0;
    for (uint32_t k = 0; w != a && k < sh->n; k++) {
        uint8_t t = isl->sites[k].type;
        if (t == tw) continue;
        double lim = band_reach(band[t]), reach = rw + 2.0 * lim + 1e-3;
        double d2k = dist2(sh, bd, k, lx);
        if (d2k > reach * reach) continue;
        BorderPair p;
        pair_init(&p, sh, w, k, lim);
        double ek = border_side(&p, bd, sh, w, k, lx, lz, d2w, d2k, band[t]);
        ek = ek < 0.0 ? 0.0 : ek;
        if (ek < band[t]) mask = band_side(dt, mask, t, ek);
    }
    *t1 = tw;
    if (!mask) {   /* the own place's colour alone: acc / 1, rounded, is each byte as it is */
        for (int c = 0; c < 3; c++) rgb[c] = (uint8_t)(type_rgb[tw] >> (16 - 8 * c));
        return;
    }
    double wsum = 1.0, acc[3];
    for (int c = 0; c < 3; c++) acc[c] = (double)((type_rgb[tw] >> (16 - 8 * c)) & 0xffu);
    for (uint32_t m = mask; m; m &= m - 1) {   /* in type order: the sums' rounding is the same */
        uint32_t t = (uint32_t)__builtin_ctz(m);
        double beta = 0.5 * (1.0 - dt[t] / band[t]), wt = beta / (1.0 - beta);
        wsum += wt;
        for (int c = 0; c < 3; c++) acc[c] += wt * (double)((type_rgb[t] >> (16 - 8 * c)) & 0xffu);
    }
    for (int c = 0; c < 3; c++) {
        int32_t v = isl_round(acc[c] / wsum);
        rgb[c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

/* A row's places, as far as the sides read so far: the cells begun (cell i, its nearest site
 * and its sides rec[first..first + n)), the sides waiting for their waves among them. */
typedef struct PlaceQueue {
    uint32_t n_cells, n_rec, cap_rec;
    uint16_t *cell_i;
    uint8_t *cell_a;
    uint32_t *cell_first;
    SideRec *rec;
    double *arg;   /* the waiting sides' sines */
} PlaceQueue;

#define PLACE_REC_PER_CELL 2u   /* sides kept per cell of a row (more: the row goes in parts) */

static size_t place_queue_bytes(uint32_t size) {
    return (sizeof(uint16_t) + sizeof(uint8_t) + sizeof(uint32_t)) * (size + 1u) + 5 * 64 +
           (sizeof(SideRec) + sizeof(double)) * (PLACE_REC_PER_CELL * (size_t)size + ISLAND_MAX_SITES);
}

static bool place_queue_init(PlaceQueue *pq, MemArena *mem, uint32_t size) {
    pq->n_cells = pq->n_rec = 0;
    pq->cap_rec = PLACE_REC_PER_CELL * size + ISLAND_MAX_SITES;
    pq->cell_i = mem_arena_alloc(mem, sizeof(uint16_t) * (size + 1u), 64);
    pq->cell_a = mem_arena_alloc(mem, size + 1u, 64);
    pq->cell_first = mem_arena_alloc(mem, sizeof(uint32_t) * (size + 1u), 64);
    pq->rec = mem_arena_alloc(mem, sizeof(SideRec) * pq->cap_rec, 64);
    pq->arg = mem_arena_alloc(mem, sizeof(double) * pq->cap_rec, 64);
    return pq->cell_i && pq->cell_a && pq->cell_first && pq->rec && pq->arg;
}

/* Reads the waiting sides' waves (one after another, none waits on the last) and finishes the
 * queued cells. */
typedef struct PlaceRow {
    const Shape *sh;
    const Island *isl;
    const uint32_t *type_rgb;
    const double *band;
    Borders *bd;
    double cell, radius_m, lz;
    uint8_t *type, *grgb;   /* the row's */
} PlaceRow;

static void place_flush(const PlaceRow *pr, PlaceQueue *pq) {
    /* The sines by themselves, in a run of their own: their long chains overlap there. */
    uint32_t n = 0;
    for (uint32_t q = 0; q < pq->n_rec; q++) {
        SideRec *r = &pq->rec[q];
        if (r->wave) pq->arg[n++] = border_wave_parts(border_of(pr->bd, pr->sh, r->lo, r->hi), r->s, &r->amp, &r->wob);
    }
    for (uint32_t q = 0; q < n; q++) pq->arg[q] = det_sin(pq->arg[q]);
    n = 0;
    for (uint32_t q = 0; q < pq->n_rec; q++) {
        SideRec *r = &pq->rec[q];
        if (r->wave) r->e = border_side_end(r, r->amp * pq->arg[n++] + r->wob);
    }
    pq->cell_first[pq->n_cells] = pq->n_rec;
    for (uint32_t c = 0; c < pq->n_cells; c++) {
        const uint32_t i = pq->cell_i[c], f0 = pq->cell_first[c];
        place_end(pr->sh, pr->isl, pr->type_rgb, pr->band, pr->bd, ((double)i + 0.5) * pr->cell - pr->radius_m, pr->lz,
                  pq->cell_a[c], &pq->rec[f0], pq->cell_first[c + 1] - f0, &pr->type[i], &pr->grgb[(size_t)i * 3]);
    }
    pq->n_cells = pq->n_rec = 0;
}

/* A row's places (urow < 0: off the disk). */
static void place_row(const PlaceRow *pr, PlaceQueue *pq, const double *urow, uint32_t size) {
    borders_row(pr->bd, pr->sh, pr->lz);
    for (uint32_t i = 0; i < size; i++) {
        if (urow[i] < 0.0) {
            pr->type[i] = ISLAND_FIELD_OFF;
            memset(&pr->grgb[(size_t)i * 3], 0, 3);
            continue;
        }
        if (pq->n_rec + pr->sh->n > pq->cap_rec) place_flush(pr, pq);   /* room for every side of a cell */
        pq->cell_i[pq->n_cells] = (uint16_t)i;
        pq->cell_first[pq->n_cells] = pq->n_rec;
        pq->n_rec += place_begin(pr->sh, pr->isl, pr->band, pr->bd, ((double)i + 0.5) * pr->cell - pr->radius_m, pr->lz,
                                 &pq->cell_a[pq->n_cells], &pq->rec[pq->n_rec]);
        pq->n_cells++;
    }
    place_flush(pr, pq);
}

/* Snow on the island's summit: around the peak (the site the shape puts on top), on the ground of its place only, the ground colour moves to SNOW_RGB (fully within
 * SNOW_FULL_M, none past SNOW_ZERO_M, the edge moved in and out by noise), before the smoothing
 * passes. Away from the place's borders, so a border's blend is as it was. */
static void snow_cap(uint8_t *rgb, const uint8_t *type, const Shape *sh, uint32_t n, double cell, double radius_m,
                     uint32_t seed) {
    const double tx = (sh->peak_x + radius_m) / cell - 0.5, tz = (sh->peak_z + radius_m) / cell - 0.5;
    if (!(tx >= 0.0 && tz >= 0.0 && tx < (double)n && tz < (double)n)) return;
    const uint8_t summit = type[(size_t)tz * n + (size_t)tx];
    if (summit == ISLAND_FIELD_OFF) return;
    for (uint32_t j = 0; j < n; j++)
        for (uint32_t i = 0; i < n; i++) {
            size_t c = (size_t)j * n + i;
            if (type[c] != summit) continue;
            double dx = ((double)i - tx) * cell, dz = ((double)j - tz) * cell, d = sqrt(dx * dx + dz * dz);
            if (d > SNOW_ZERO_M + SNOW_EDGE_VAR_M) continue;
            double wander = isl_layered_noise(seed, (double)i * cell / SNOW_EDGE_LEN_M, (double)j * cell / SNOW_EDGE_LEN_M, 2);
            double k = 1.0 - smooth01(SNOW_FULL_M, SNOW_ZERO_M, d + wander * SNOW_EDGE_VAR_M);
            if (k > 0.0) k *= smooth01(SNOW_BORDER_M, 2.0 * SNOW_BORDER_M, isl_field_border_distance(type, n, i, j, cell, 2.0 * SNOW_BORDER_M));
            for (int ch = 0; ch < 3; ch++) {
                double own = (double)rgb[c * 3 + (size_t)ch], snow = (double)((SNOW_RGB >> (16 - 8 * ch)) & 0xffu);
                int32_t v = isl_round(own + (snow - own) * k);
                rgb[c * 3 + (size_t)ch] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
}

/* Marks path cells within PATH_HALF_WIDTH_M of segment a-b (metres from the centre): per cell
 * line across the segment's major axis, the cells within reach of the segment's point there
 * (|slope| <= 1, so every cell of the capsule lies within w * sqrt(2) of it along the minor
 * axis), each tested exactly by its distance to the segment. */
static void draw_path(uint8_t *bits, uint32_t n, uint32_t stride, double cell, double radius, double ax, double az,
                      double bx, double bz) {
    const double half = 0.5 * (double)n, w = PATH_HALF_WIDTH_M, w2 = w * w;
    double dx = bx - ax, dz = bz - az, len2 = dx * dx + dz * dz;
    const bool xmajor = dx * dx >= dz * dz;
    double a0 = xmajor ? ax : az, a1 = xmajor ? az : ax, d0 = xmajor ? dx : dz, d1 = xmajor ? dz : dx;
    double lo = (d0 < 0.0 ? a0 + d0 : a0) - w, hi = (d0 < 0.0 ? a0 : a0 + d0) + w;
    int32_t i0 = (int32_t)isl_floor(lo / cell + half), i1 = (int32_t)isl_floor(hi / cell + half);
    int32_t reach = isl_round(1.5 * w / cell) + 1;
    for (int32_t i = i0; i <= i1; i++) {
        if (i < 0 || i >= (int32_t)n) continue;
        double pm = ((double)i + 0.5 - half) * cell;
        double t = d0 != 0.0 ? (pm - a0) / d0 : 0.0;
        t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
        int32_t c = (int32_t)isl_floor((a1 + d1 * t) / cell + half);
        for (int32_t j = c - reach; j <= c + reach; j++) {
            if (j < 0 || j >= (int32_t)n) continue;
            double pj = ((double)j + 0.5 - half) * cell;
            double px = xmajor ? pm : pj, pz = xmajor ? pj : pm;
            if (px * px + pz * pz > radius * radius) continue;
            /* Distance to the segment: project, clamp, compare squared. */
            double u = len2 > 0.0 ? ((px - ax) * dx + (pz - az) * dz) / len2 : 0.0;
            u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
            double ex = px - (ax + dx * u), ez = pz - (az + dz * u);
            int32_t ci = xmajor ? i : j, cj = xmajor ? j : i;
            if (ex * ex + ez * ez <= w2) bits[(size_t)cj * stride + ((uint32_t)ci >> 3)] |= (uint8_t)(1u << (ci & 7));
        }
    }
}

/* A row's ground and underside (decimetres) from its axis values (negative: off the disk) and its
 * coast distances (isl_coast_r of each cell). */
static void shape_row(const Shape *sh, const double *urow, const double *rrow, uint32_t size, double cell,
                      double radius_m, double lz, uint16_t *elev, uint16_t *under) {
    double ring_dz2[ISLAND_MAX_SITES];
    for (uint32_t r8 = 0; r8 < sh->n_ring; r8++) {
        double dz = lz - sh->site[sh->ring[r8]].z;
        ring_dz2[r8] = dz * dz;
    }
    for (uint32_t i = 0; i < size; i++) {
        if (urow[i] < 0.0) {
            elev[i] = under[i] = 0;
            continue;
        }
        double ground, depth;
        shape_at(sh, ring_dz2, ((double)i + 0.5) * cell - radius_m, lz, urow[i], rrow[i], &ground, &depth);
        int32_t dm = isl_round(ground * 10.0), ud = isl_round(depth * 10.0);
        elev[i] = (uint16_t)(dm < 0 ? 0 : dm > 65535 ? 65535 : dm);
        under[i] = (uint16_t)(ud < 0 ? 0 : ud > 65535 ? 65535 : ud);
    }
}

/* Paths (I10) on the ground: every path edge between its two sites. */
static void draw_paths(uint8_t *path, uint32_t pn, uint32_t pstride, double pcell, double radius_m, const Island *isl,
                       const Shape *sh) {
    memset(path, 0, (size_t)pstride * pn);
    for (uint32_t e = 0; e < isl->n_edges; e++) {
        const IslandEdge *ed = &isl->edges[e];
        if (!ed->path) continue;
        const ShapeSite *a = &sh->site[ed->a], *b = &sh->site[ed->b];
        draw_path(path, pn, pstride, pcell, radius_m, a->x, a->z, b->x, b->z);
    }
}

bool island_bake_field(IslandField *f, const Island *isl, const IslandCodex *cx, uint32_t size,
                       float centre_x, float centre_z, MemArena *mem, SkyError *err) {
    memset(f, 0, sizeof *f);
    if (size < 2 || size > ISLAND_FIELD_MAX_CELLS || isl->scope >= cx->n_scopes || isl->n_sites == 0 || isl->diameter_m == 0) {
        sky_error_set(err, SKY_ERR_GENERATE, "island field: size %u must be 2..%u and the island generated", size, ISLAND_FIELD_MAX_CELLS);
        return false;
    }
    const IslandScope *s = &cx->scopes[isl->scope];
    const uint32_t ea = s->elevation_axis;
    const IslandAxis *axis = &cx->axes[ea];
    const uint32_t pn = path_grid_size(isl->diameter_m), pstride = pn / 8;
    uint16_t *elev = mem_arena_alloc(mem, sizeof(uint16_t) * size * size, 64);
    uint16_t *under = elev ? mem_arena_alloc(mem, sizeof(uint16_t) * size * size, 64) : NULL;
    uint8_t *type = under ? mem_arena_alloc(mem, (size_t)size * size, 64) : NULL;
    uint8_t *grgb = type ? mem_arena_alloc(mem, (size_t)size * size * 3, 64) : NULL;
    uint8_t *path = grgb ? mem_arena_alloc(mem, (size_t)pstride * pn, 64) : NULL;
    uint16_t *water = path ? mem_arena_alloc(mem, sizeof(uint16_t) * size * size, 64) : NULL;
    /* The borders', the rows' and the blur's working sets go back to the arena when the bake ends. */
    const size_t kept = mem->used;
    Borders *bd = water ? mem_arena_alloc(mem, sizeof *bd, 64) : NULL;
    uint8_t *blur = bd ? mem_arena_alloc(mem, (size_t)size * 6, 64) : NULL;
    double *urow = blur ? mem_arena_alloc(mem, sizeof(double) * size, 64) : NULL;   /* the row's axis values */
    double *rrow = urow ? mem_arena_alloc(mem, sizeof(double) * size, 64) : NULL;   /* and coast distances */
    PlaceQueue pq;
    if (!rrow || !place_queue_init(&pq, mem, size)) {
        sky_error_set(err, SKY_ERR_GENERATE, "island field: %u x %u cells and paths need %zu bytes more than the arena has",
                      size, size, island_field_bytes(cx, isl->scope, size));
        return false;
    }
    Shape sh;
    shape_init(&sh, isl, cx, s);
    /* Ground colours come from the codex (prop ground_rgb), so a new type brings its own. */
    f->n_types = cx->n_types < ISLAND_FIELD_MAX_TYPES ? cx->n_types : ISLAND_FIELD_MAX_TYPES;
    for (uint32_t t = 0; t < f->n_types; t++) {
        int32_t rgb = 0x808080;
        island_codex_prop(cx, t, -1, "ground_rgb", &rgb);
        f->type_rgb[t] = (uint32_t)rgb & 0xffffffu;
        /* Landmark and flora names from the codex: the world looks them up in its tables. */
        f->type_landmark[t] = cx->types[t].landmark;
        f->type_flora[t] = cx->types[t].flora;
    }
    double band[ISLAND_FIELD_MAX_TYPES];
    border_bands(isl, f->type_rgb, f->n_types, band);
    const double radius_m = (double)isl->diameter_m * 0.5, cell = (double)isl->diameter_m / (double)size;
    const uint32_t wave_seed = (uint32_t)(isl->seed ^ (isl->seed >> 32)) ^ 0x8a5cd789u;
    borders_init(bd, band, f->n_types, wave_seed);
    IslAxisRows rows;
    /* Row by row, one step at a time over the row's cells (the axis, the shape, the place): each
     * step's cells do not wait on each other, so the processor overlaps their long chains. */
    for (uint32_t j = 0; j < size; j++) {
        const double lz = ((double)j + 0.5) * cell - radius_m, nz = lz / radius_m;
        const size_t c0 = (size_t)j * size;
        isl_axis_rows_init(&rows, axis, isl->axis_noise_seed[ea], nz);
        for (uint32_t i = 0; i < size; i++) {
            double nx = (((double)i + 0.5) * cell - radius_m) / radius_m;
            /* Past 1.004 radii (the farthest headland is at 1): off the island, its coast unread. */
            if (nx * nx + nz * nz > 1.008) {
                urow[i] = -1.0;
                continue;
            }
            double rc = isl_coast_r(isl, nx, nz);
            rrow[i] = rc;
            urow[i] = rc > 1.0 ? -1.0 : isl_axis_unit(isl, axis, ea, isl_axis_blend_row(&rows, axis, nx, rc));
        }
        shape_row(&sh, urow, rrow, size, cell, radius_m, lz, elev + c0, under + c0);
        const PlaceRow pr = {&sh, isl, f->type_rgb, band, bd, cell, radius_m, lz, type + c0, grgb + c0 * 3};
        place_row(&pr, &pq, urow, size);
    }
    f->n_strips = isl_lay_strips(f->strips, isl, elev, type, size, cell, radius_m);
    snow_cap(grgb, type, &sh, size, cell, radius_m, wave_seed ^ 0x51ab0c3du);
    for (int pass = 0; pass < 4; pass++) isl_field_blur_pass(grgb, type, size, pass & 1, blur);
    mem->used = kept;
    const double pcell = (double)isl->diameter_m / (double)pn;
    draw_paths(path, pn, pstride, pcell, radius_m, isl, &sh);
    f->size = size;
    f->cell_meters = (float)cell;
    f->centre_x = centre_x;
    f->centre_z = centre_z;
    f->radius_m = (float)radius_m;
    f->elevation_top_m = (float)s->elevation_top_m;
    f->elevation_dm = elev;
    f->under_dm = under;
    f->type = type;
    f->ground_rgb = grgb;
    f->path_bits = path;
    f->path_size = pn;
    f->path_stride = pstride;
    f->path_cell_m = (float)pcell;
    f->path_rgb = PATH_RGB;
    /* The sites, in metres from the centre: each gets its type's landmark. */
    f->n_sites = isl->n_sites < ISLAND_FIELD_MAX_SITES ? isl->n_sites : ISLAND_FIELD_MAX_SITES;
    for (uint32_t k = 0; k < f->n_sites; k++) {
        f->sites[k].x_m = isl->sites[k].x_m;
        f->sites[k].z_m = isl->sites[k].z_m;
        f->sites[k].type = isl->sites[k].type;
    }
    isl_bake_water(f, elev, water, isl, cx);
    f->water_dm = water;
    return true;
}
