/* skyisles island: the water of an island, after its ground is baked (island_bake_field calls it
 * last): a lake at each lakeshore's jetty, pools around each marsh, a lake in a crater's bowl, a
 * pool beside each cliff that crosses the coast and pours over the edge (a waterfall). Each water body is a disk with one flat surface: its level is the lowest ground of the ring just
 * outside the disk (the spill height), so ground bounds every lake (a falls' pool: ground or its lip); the disk's ground is dug below
 * that level where it is not already (a bowl, deepest at the centre). The sizes are codex props of
 * the location type, so a new type brings its own water. Only + - * / and sqrt (bit-exact on every
 * machine). */
#include "island/island_int.h"

#include <math.h>

#define WATER_SHORE_M 2.0      /* a lakeshore's site stands this far outside its lake's shore */
#define WATER_CLEAR_M 8.0      /* other sites and the coast stay this far from a water's edge */
#define WATER_STRIP_CLEAR_M 24.0  /* and the airstrips (their shoulders and approaches level) */
#define WATER_EDGE_DM 12       /* the dug bowl at its shore, below the surface */
#define WATER_DEEP_DM 40       /* and, more, at its centre */
#define WATER_RIM_N 32         /* points around a water's rim tested against the coast */
#define WATER_RIM_COS 0.98078528040323044913   /* cos and sin of 2 pi / 32 */
#define WATER_RIM_SIN 0.19509032201612826785
#define WATER_MIN_DM 20        /* no water whose level would be lower than this above sea level */

/* The eight directions a lake or a pool may lie in from its site, as unit vectors. */
static const double k_dirs[8][2] = {{1.0, 0.0},  {0.70710678118654752, 0.70710678118654752},
                                    {0.0, 1.0},  {-0.70710678118654752, 0.70710678118654752},
                                    {-1.0, 0.0}, {-0.70710678118654752, -0.70710678118654752},
                                    {0.0, -1.0}, {0.70710678118654752, -0.70710678118654752}};

typedef struct Water {
    IslandField *f;
    uint16_t *elev, *level;
    const Island *isl;
    double cell, radius;
    uint32_t n;
} Water;

static int32_t cell_of(const Water *w, double l) { return (int32_t)isl_floor((l + w->radius) / w->cell); }
static double centre_of(const Water *w, int32_t i) { return ((double)i + 0.5) * w->cell - w->radius; }

/* Does the disk of radius m at (x, z) lie inside the coast (the island's radius times
 * island_coast_frac in each direction)? Its centre and 32 points around its rim are tested: the
 * coast's bays are far wider than the gaps between them. */
static bool inside_coast(const Water *w, double x, double z, double m) {
    double px = x, pz = z, ux = 1.0, uz = 0.0;
    for (int k = 0; k <= WATER_RIM_N; k++) {
        double c = w->radius * island_coast_frac(w->isl, px, pz);
        if (px * px + pz * pz >= c * c) return false;
        px = x + m * ux, pz = z + m * uz;
        double vx = ux * WATER_RIM_COS - uz * WATER_RIM_SIN;   /* turn by a 32nd of a circle */
        uz = ux * WATER_RIM_SIN + uz * WATER_RIM_COS, ux = vx;
    }
    return true;
}

/* Can a water of radius r lie at (x, z) (metres from the centre)? On the island with room to the
 * coast (unless it is a falls' pool, which crosses it), no site but `own` near it (nor `own` inside
 * it), no water there yet, clear of the strips. */
static bool water_fits(const Water *w, double x, double z, double r, int own, bool falls) {
    if (!falls && !inside_coast(w, x, z, r + WATER_CLEAR_M)) return false;
    for (uint32_t k = 0; k < w->f->n_sites; k++) {
        double dx = (double)w->f->sites[k].x_m - x, dz = (double)w->f->sites[k].z_m - z;
        double keep = (int)k == own ? r + 1.0 : r + WATER_CLEAR_M;
        if (dx * dx + dz * dz < keep * keep) return false;
    }
    float reach = (float)(r + WATER_STRIP_CLEAR_M);
    for (uint32_t k = 0; k < w->f->n_strips; k++)
        if (island_field_strip_near(w->f, k, w->f->centre_x + (float)x, w->f->centre_z + (float)z, reach, reach))
            return false;
    int32_t i0 = cell_of(w, x - r - w->cell), i1 = cell_of(w, x + r + w->cell);
    int32_t j0 = cell_of(w, z - r - w->cell), j1 = cell_of(w, z + r + w->cell);
    if (i0 < 0 || j0 < 0 || i1 >= (int32_t)w->n || j1 >= (int32_t)w->n) return false;
    for (int32_t j = j0; j <= j1; j++)
        for (int32_t i = i0; i <= i1; i++) {
            size_t c = (size_t)j * w->n + (size_t)i;
            if ((!falls && w->f->type[c] == ISLAND_FIELD_OFF) || w->level[c]) return false;
        }
    return true;
}

/* The lowest ground of the ring of cells whose centres lie r..r + 1.5 cells from (x, z), on the
 * island (beyond its edge a falls' pool pours away). */
static uint32_t spill_dm(const Water *w, double x, double z, double r) {
    double r1 = r + 1.5 * w->cell;
    uint32_t lo = 65535;
    for (int32_t j = cell_of(w, z - r1); j <= cell_of(w, z + r1); j++)
        for (int32_t i = cell_of(w, x - r1); i <= cell_of(w, x + r1); i++) {
            double dx = centre_of(w, i) - x, dz = centre_of(w, j) - z, d2 = dx * dx + dz * dz;
            if (d2 < r * r || d2 >= r1 * r1) continue;
            if (w->f->type[(size_t)j * w->n + (size_t)i] == ISLAND_FIELD_OFF) continue;
            uint32_t e = w->elev[(size_t)j * w->n + (size_t)i];
            if (e < lo) lo = e;
        }
    return lo;
}

/* Fills the disk of radius r at (x, z) to `level` dm, digging a bowl where `dig`; the cells
 * whose ground stays at or above the level stay dry. */
static void water_fill(Water *w, double x, double z, double r, uint32_t level, bool dig) {
    for (int32_t j = cell_of(w, z - r); j <= cell_of(w, z + r); j++)
        for (int32_t i = cell_of(w, x - r); i <= cell_of(w, x + r); i++) {
            double dx = centre_of(w, i) - x, dz = centre_of(w, j) - z, q = (dx * dx + dz * dz) / (r * r);
            if (!(q < 1.0)) continue;
            size_t c = (size_t)j * w->n + (size_t)i;
            if (w->f->type[c] == ISLAND_FIELD_OFF) continue;
            if (dig) {
                uint32_t below = (uint32_t)WATER_EDGE_DM + (uint32_t)isl_round(WATER_DEEP_DM * (1.0 - q));
                uint32_t bed = level > below ? level - below : 0;
                if (w->elev[c] > bed) w->elev[c] = (uint16_t)bed;
            }
            if (w->elev[c] < level) w->level[c] = (uint16_t)level;
        }
}

/* A lake or a pool of radius r beside (sx, sz), site `own`: of the eight directions that fit,
 * the one whose centre (r + shore metres out) lies lowest, unless its spill lies too low (its ring
 * reaches a beach near the coast): then the next lowest. Its level is the spill height, no higher
 * than the site's ground less half a metre (the jetty stands above it). */
static bool water_beside(Water *w, double sx, double sz, double r, double shore, int own) {
    uint32_t site = 65535;
    int32_t si = cell_of(w, sx), sj = cell_of(w, sz);
    if (si >= 0 && sj >= 0 && si < (int32_t)w->n && sj < (int32_t)w->n) site = w->elev[(size_t)sj * w->n + (size_t)si];
    bool tried[8] = {false};
    for (;;) {
        int best = -1;
        uint32_t best_e = 0;
        for (int d = 0; d < 8; d++) {
            double x = sx + k_dirs[d][0] * (r + shore), z = sz + k_dirs[d][1] * (r + shore);
            if (tried[d] || !water_fits(w, x, z, r, own, false)) continue;
            uint32_t e = w->elev[(size_t)cell_of(w, z) * w->n + (size_t)cell_of(w, x)];
            if (best < 0 || e < best_e) best = d, best_e = e;
        }
        if (best < 0) return false;
        tried[best] = true;
        double x = sx + k_dirs[best][0] * (r + shore), z = sz + k_dirs[best][1] * (r + shore);
        uint32_t level = spill_dm(w, x, z, r);
        if (site < level + 5u) level = site > 5u ? site - 5u : 0u;
        if (level < WATER_MIN_DM) continue;
        water_fill(w, x, z, r, level, true);
        return true;
    }
}

/* A crater's lake: its bowl filled `pct` percent of the way from the bottom to the rim's lowest
 * point; nothing is dug (the bowl holds it). */
static void crater_lake(Water *w, double x, double z, double r, int32_t pct) {
    uint32_t rim = spill_dm(w, x, z, r * 0.9);
    uint32_t bottom = 65535;
    for (int32_t j = cell_of(w, z - r); j <= cell_of(w, z + r); j++)
        for (int32_t i = cell_of(w, x - r); i <= cell_of(w, x + r); i++) {
            if (i < 0 || j < 0 || i >= (int32_t)w->n || j >= (int32_t)w->n) return;
            double dx = centre_of(w, i) - x, dz = centre_of(w, j) - z;
            if (dx * dx + dz * dz >= 0.81 * r * r) continue;
            uint32_t e = w->elev[(size_t)j * w->n + (size_t)i];
            if (e < bottom) bottom = e;
        }
    if (rim == 65535 || bottom >= rim) return;
    uint32_t level = bottom + (uint32_t)((rim - bottom) * (uint32_t)pct / 100u);
    if (level > bottom && level >= WATER_MIN_DM) water_fill(w, x, z, r * 0.9, level, false);
}

static bool off_at(const Water *w, int32_t i, int32_t j) {
    return i < 0 || j < 0 || i >= (int32_t)w->n || j >= (int32_t)w->n || w->f->type[(size_t)j * w->n + (size_t)i] == ISLAND_FIELD_OFF;
}

/* Is cell (i, j) water at `level` beside a cell off the island (a falls' lip)? */
static bool is_lip(const Water *w, int32_t i, int32_t j, uint32_t level) {
    if (off_at(w, i, j) || w->level[(size_t)j * w->n + (size_t)i] != level) return false;
    return off_at(w, i - 1, j) || off_at(w, i + 1, j) || off_at(w, i, j - 1) || off_at(w, i, j + 1);
}

/* A falls' pool of radius r beside coast site (sx, sz): along the coast (either way, r + 12 m off
 * the site), moved outward until a third of the disk lies past the edge. Its lip (its cells beside
 * the edge) becomes the field's falls. */
static void falls_beside(Water *w, double sx, double sz, double r, int own) {
    double d = sqrt(sx * sx + sz * sz);
    if (!(d > 1.0) || w->f->n_falls >= ISLAND_FIELD_MAX_FALLS) return;
    double ux = sx / d, uz = sz / d;
    for (int side = 0; side < 2; side++) {
        double along = side ? -(r + 12.0) : r + 12.0;
        double bx = sx - uz * along, bz = sz + ux * along;
        for (double k = -2.0 * r; k <= w->radius - d + r; k += w->cell) {
            double x = bx + ux * k, z = bz + uz * k;
            int32_t ci = cell_of(w, x), cj = cell_of(w, z);
            if (off_at(w, ci, cj) || !off_at(w, cell_of(w, x + ux * 0.4 * r), cell_of(w, z + uz * 0.4 * r))) continue;
            if (!water_fits(w, x, z, r, own, true)) break;
            uint32_t level = spill_dm(w, x, z, r);
            if (level == 65535 || level < WATER_MIN_DM) break;
            water_fill(w, x, z, r, level, true);
            /* the lip: water cells beside a cell off the island */
            double sum_x = 0.0, sum_z = 0.0, lo = 1e30, hi = -1e30;
            uint32_t lips = 0;
            for (int32_t j = cell_of(w, z - r); j <= cell_of(w, z + r); j++)
                for (int32_t i = cell_of(w, x - r); i <= cell_of(w, x + r); i++) {
                    if (!is_lip(w, i, j, level)) continue;
                    double cx = centre_of(w, i), cz = centre_of(w, j), t = cz * ux - cx * uz;
                    sum_x += cx, sum_z += cz, lips++;
                    if (t < lo) lo = t;
                    if (t > hi) hi = t;
                }
            if (!lips) return;
            /* its middle: the lip cell nearest the lips' mean (a curved coast bends the lip, and
             * the mean itself may lie on dry ground or off the island) */
            double mx = sum_x / lips, mz = sum_z / lips, best = 1e30, lx = mx, lz = mz;
            for (int32_t j = cell_of(w, z - r); j <= cell_of(w, z + r); j++)
                for (int32_t i = cell_of(w, x - r); i <= cell_of(w, x + r); i++) {
                    if (!is_lip(w, i, j, level)) continue;
                    double cx = centre_of(w, i), cz = centre_of(w, j), d2 = (cx - mx) * (cx - mx) + (cz - mz) * (cz - mz);
                    if (d2 < best) best = d2, lx = cx, lz = cz;
                }
            IslandFieldFalls *fl = &w->f->falls[w->f->n_falls++];
            fl->x_m = (float)lx;
            fl->z_m = (float)lz;
            double ox = (double)fl->x_m - x, oz = (double)fl->z_m - z, ol = sqrt(ox * ox + oz * oz);
            fl->dir_x = (float)(ol > 0.0 ? ox / ol : ux);
            fl->dir_z = (float)(ol > 0.0 ? oz / ol : uz);
            fl->width_m = (float)(hi - lo + w->cell);
            fl->top_m = (float)level * 0.1f;
            return;
        }
    }
}

void isl_bake_water(IslandField *f, uint16_t *elev, uint16_t *level, const Island *isl, const IslandCodex *cx) {
    Water w = {f, elev, level, isl, (double)f->cell_meters, (double)f->radius_m, f->size};
    memset(level, 0, sizeof(uint16_t) * f->size * f->size);
    f->n_falls = 0;
    for (uint32_t k = 0; k < f->n_sites; k++) {
        const IslandSite *st = &isl->sites[k];
        double sx = (double)f->sites[k].x_m, sz = (double)f->sites[k].z_m;
        int32_t lake = 0, pools = 0, pool_r = 0, crater = 0, crater_r = 0, falls = 0;
        island_codex_prop(cx, st->type, -1, "lake_radius_m", &lake);
        island_codex_prop(cx, st->type, -1, "pools", &pools);
        island_codex_prop(cx, st->type, -1, "pool_radius_m", &pool_r);
        island_codex_prop(cx, st->type, -1, "crater_lake_pct", &crater);
        island_codex_prop(cx, st->type, -1, "crater_radius_m", &crater_r);
        island_codex_prop(cx, st->type, -1, "falls_radius_m", &falls);
        if (falls > 0) falls_beside(&w, sx, sz, (double)falls, (int)k);
        if (lake > 0) water_beside(&w, sx, sz, (double)lake, WATER_SHORE_M, (int)k);
        /* A marsh's pools start in a direction of its own (the island's seed and the site). */
        uint32_t turn = hash_u32((uint32_t)isl->seed ^ (uint32_t)(isl->seed >> 32) ^ (k * 0x9e3779b9u));
        for (int32_t p = 0; p < pools && pool_r > 0; p++) {
            double a = (double)((turn + (uint32_t)p * 3u) & 7u);
            const double *d = k_dirs[(int)a];
            double out = (double)pool_r * (1.5 + (double)p);
            water_beside(&w, sx + d[0] * out, sz + d[1] * out, (double)pool_r, 0.0, -1);
        }
        if (crater > 0 && crater_r > 0) crater_lake(&w, sx, sz, (double)crater_r, crater);
    }
}
