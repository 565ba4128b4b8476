/* skyisles island: airstrips. The base camp gets the flattest straight run of ground beside its
 * site whose ends are open to the sky; every other place flat enough for a landing gets one too
 * (up to ISLAND_FIELD_MAX_STRIPS). The chosen runs are flattened into the baked elevation grid,
 * so the world builds them level. Layout-grade maths only (+ - * /, the deterministic sine). */
#include "island/island_int.h"

/* The design run. The flight model's longer ground run (takeoff or landing, from touchdown speed
 * to a stop) is about STRIP_RUN_M; the strip gives it 1.8 times that. The sim's own figures
 * (sim_takeoff_run_m / sim_landing_run_m) take this constant's place once they exist. */
#define STRIP_RUN_M 110.0
#define STRIP_LENGTH_M 200.0
#define STRIP_WIDTH_M 16.0
/* Level ground beyond the marked surface: the world interpolates its ground between columns four
 * blocks apart, so the flat reaches past the edges to keep every block of the surface level. */
#define STRIP_PAD_M 6.0
#define STRIP_SHOULDER_M 16.0  /* from level back to the natural ground */
#define STRIP_LANDMARK_M 6.0   /* a landmark's footprint (4 blocks) and a block, kept off the strip */
#define STRIP_FLAT_M 8.0       /* a place's natural relief under a strip at most this (the base: any) */
#define STRIP_HEADINGS 16      /* headings tried over half a turn */
#define STRIP_STEP_M 5.0       /* sample spacing along and across */
/* The approach corridors: ground beyond each end stays at or under the strip's level for
 * STRIP_SEE_M (a pilot on the glide path sees the whole strip, no lip hides its near end), then
 * under a 2-degree surface (the glide path is 3; the world adds no roughness for 50 m past the
 * ends, and past that the 1-degree gap covers its 1.75 m). */
#define STRIP_SEE_M 100.0
#define STRIP_CLIMB 0.035
#define STRIP_CLIMB_TOL_M 0.0
#define STRIP_RAISE_M 4.0      /* a strip may stand this far over its ground's mean to clear its ends */

_Static_assert(STRIP_LENGTH_M > STRIP_RUN_M * 1.5, "the strip leaves margin over the model's ground run");

typedef struct StripGrid {
    uint16_t *elev;
    const uint8_t *type;
    uint32_t size;
    double cell, radius;
    double inv_cell;   /* 1 / cell: grid_dm's quick cell index, checked against the division's */
} StripGrid;

typedef struct StripCand {
    double cx, cz, dx, dz;     /* centre and unit direction */
    double angle;              /* of the direction from +x toward +z */
    int32_t elev_dm, relief_dm;
    int32_t raise_dm;          /* over the ground's mean, so the approaches clear */
} StripCand;

/* isl_floor(x / cell + half): the product by 1 / cell is within a few units in the last place of
 * the quotient, so it floors the same unless it lies that near a whole number (then: divide). */
static int64_t grid_index(const StripGrid *g, double x, double half) {
    double y = x * g->inv_cell + half;
    int64_t i = isl_floor(y);
    double f = y - (double)i;
    return f > 1e-9 && f < 1.0 - 1e-9 && y < 1e6 && y > -1e6 ? i : isl_floor(x / g->cell + half);
}

/* Ground (dm) at (x, z) metres from the centre, -1 off the island. */
static int32_t grid_dm(const StripGrid *g, double x, double z) {
    double half = 0.5 * (double)g->size;
    int64_t i = grid_index(g, x, half), j = grid_index(g, z, half);
    if (i < 0 || j < 0 || i >= (int64_t)g->size || j >= (int64_t)g->size) return -1;
    size_t c = (size_t)j * g->size + (size_t)i;
    return g->type[c] == ISLAND_FIELD_OFF ? -1 : (int32_t)g->elev[c];
}

/* Is (x, z) within the candidate's rectangle grown by margin? */
static bool cand_near(const StripCand *c, double x, double z, double margin) {
    double px = x - c->cx, pz = z - c->cz;
    double along = px * c->dx + pz * c->dz, side = pz * c->dx - px * c->dz;
    double ha = 0.5 * STRIP_LENGTH_M + margin, hs = 0.5 * STRIP_WIDTH_M + margin;
    return along >= -ha && along <= ha && side >= -hs && side <= hs;
}

/* Height and relief of the ground under the candidate (pad included); false when any of it is
 * off the island or its relief passes limit_dm (< 0: no limit). */
static bool cand_ground(const StripGrid *g, StripCand *c, int32_t limit_dm) {
    const double ha = 0.5 * STRIP_LENGTH_M + STRIP_PAD_M, hs = 0.5 * STRIP_WIDTH_M + STRIP_PAD_M;
    int32_t lo = 1 << 30, hi = -1;
    int64_t sum = 0, n = 0;
    for (double u = -ha; u <= ha + 1e-9; u += STRIP_STEP_M)
        for (double v = -hs; v <= hs + 1e-9; v += 0.5 * hs) {
            int32_t dm = grid_dm(g, c->cx + c->dx * u - c->dz * v, c->cz + c->dz * u + c->dx * v);
            if (dm < 0) return false;
            lo = dm < lo ? dm : lo;
            hi = dm > hi ? dm : hi;
            if (limit_dm >= 0 && hi - lo > limit_dm) return false;
            sum += dm;
            n++;
        }
    c->relief_dm = hi - lo;
    c->elev_dm = isl_round((double)sum / (double)n / 10.0) * 10;
    return true;
}

/* Do the approach corridors beyond both ends stay under the climb surface, to the island's rim?
 * The strip may be raised by up to STRIP_RAISE_M over its ground's mean for that (an embankment). */
static bool cand_open_ends(const StripGrid *g, StripCand *c) {
    int32_t need = c->elev_dm;
    for (int end = -1; end <= 1; end += 2) {
        for (int lane = -1; lane <= 1; lane++) {
            double v = 0.5 * STRIP_WIDTH_M * lane;
            for (double e = STRIP_PAD_M; e < 2.0 * g->radius; e += STRIP_STEP_M) {
                double u = end * (0.5 * STRIP_LENGTH_M + e);
                int32_t dm = grid_dm(g, c->cx + c->dx * u - c->dz * v, c->cz + c->dz * u + c->dx * v);
                if (dm < 0) break;   /* past the rim: open air (the world keeps the corridor clear) */
                double climb = e > STRIP_SEE_M ? STRIP_CLIMB * (e - STRIP_SEE_M) : 0.0;
                int32_t over = dm - isl_round(10.0 * (STRIP_CLIMB_TOL_M + climb));
                if (over - c->elev_dm > (int32_t)(STRIP_RAISE_M * 10.0)) return false;   /* past any raise */
                need = over > need ? over : need;
            }
        }
    }
    need = (need + 9) / 10 * 10;   /* whole metres */
    if (need - c->elev_dm > (int32_t)(STRIP_RAISE_M * 10.0)) return false;
    c->raise_dm = need - c->elev_dm;
    c->elev_dm = need;
    return true;
}

/* Is the candidate clear of the strips already laid (and their shoulders), and are it and its
 * approach lanes across the island clear of every landmark? */
static bool cand_clear(const StripCand *c, const Island *isl, double radius, const StripCand *laid, uint32_t n_laid) {
    for (uint32_t k = 0; k < isl->n_sites; k++) {
        double x = (double)isl->sites[k].gx / ISLAND_GRID_RADIUS * radius - c->cx;
        double z = (double)isl->sites[k].gz / ISLAND_GRID_RADIUS * radius - c->cz;
        double side = z * c->dx - x * c->dz;
        if ((side < 0.0 ? -side : side) <= 0.5 * STRIP_WIDTH_M + STRIP_PAD_M + STRIP_LANDMARK_M) return false;
    }
    const double hs = 0.5 * STRIP_WIDTH_M + STRIP_PAD_M + STRIP_SHOULDER_M;
    for (uint32_t k = 0; k < n_laid; k++)
        for (double u = -0.5 * STRIP_LENGTH_M - STRIP_PAD_M; u <= 0.5 * STRIP_LENGTH_M + STRIP_PAD_M + 1e-9; u += STRIP_STEP_M)
            for (int lane = -1; lane <= 1; lane++) {
                double x = c->cx + c->dx * u - c->dz * hs * lane, z = c->cz + c->dz * u + c->dx * hs * lane;
                if (cand_near(&laid[k], x, z, STRIP_PAD_M + 2.0 * STRIP_SHOULDER_M)) return false;
            }
    return true;
}

/* The best strip beside site k: the least relief over every heading and offset that is on the
 * island, clear and open at both ends (max_relief_dm < 0: any relief). False when none. */
static bool best_for_site(const StripGrid *g, const Island *isl, uint32_t k, int32_t max_relief_dm, bool need_open,
                          bool wide, const StripCand *laid, uint32_t n_laid, StripCand *best) {
    const double sx = (double)isl->sites[k].gx / ISLAND_GRID_RADIUS * g->radius;
    const double sz = (double)isl->sites[k].gz / ISLAND_GRID_RADIUS * g->radius;
    const double side = 0.5 * STRIP_WIDTH_M + STRIP_PAD_M + STRIP_LANDMARK_M + 1.0;
    /* The base looks wider (more headings, offsets across and along): it must have a strip. */
    const int headings = wide ? 2 * STRIP_HEADINGS : STRIP_HEADINGS, sides = wide ? 3 : 1, alongs = wide ? 7 : 3;
    bool found = false;
    for (int h = 0; h < headings; h++) {
        double sn, cs;
        const double angle = 3.14159265358979323846 * (double)h / headings;
        isl_sincos(angle, &sn, &cs);
        for (int o = 0; o < 2 * sides * alongs; o++) {
            double lat = ((o & 1) ? -side : side) * (1.0 + 0.7 * (double)((o >> 1) % sides));
            double t = 0.125 * STRIP_LENGTH_M * (double)((o / (2 * sides) + 1) / 2) * ((o / (2 * sides)) & 1 ? 1.0 : -1.0);
            StripCand c = {.cx = sx - sn * lat + cs * t, .cz = sz + cs * lat + sn * t, .dx = cs, .dz = sn, .angle = angle};
            if (!cand_clear(&c, isl, g->radius, laid, n_laid)) continue;
            /* Only a candidate that can beat the best so far is measured to the end. */
            int32_t limit = found ? best->relief_dm + best->raise_dm - 1 : max_relief_dm;
            if (max_relief_dm >= 0 && limit > max_relief_dm) limit = max_relief_dm;
            if (found && limit < 0) continue;
            if (!cand_ground(g, &c, limit)) continue;
            if (need_open && !cand_open_ends(g, &c)) continue;
            if (found && c.relief_dm + c.raise_dm >= best->relief_dm + best->raise_dm) continue;
            *best = c;
            found = true;
        }
    }
    return found;
}

/* Level the strip's ground (pad included) and ease the shoulders back to the natural ground. */
static void flatten(StripGrid *g, const StripCand *c) {
    const double ha = 0.5 * STRIP_LENGTH_M + STRIP_PAD_M, hs = 0.5 * STRIP_WIDTH_M + STRIP_PAD_M;
    const double reach = ha + STRIP_SHOULDER_M, half = 0.5 * (double)g->size;
    int64_t i0 = isl_floor((c->cx - reach) / g->cell + half), i1 = isl_floor((c->cx + reach) / g->cell + half);
    int64_t j0 = isl_floor((c->cz - reach) / g->cell + half), j1 = isl_floor((c->cz + reach) / g->cell + half);
    for (int64_t j = j0 < 0 ? 0 : j0; j <= j1 && j < (int64_t)g->size; j++)
        for (int64_t i = i0 < 0 ? 0 : i0; i <= i1 && i < (int64_t)g->size; i++) {
            size_t cell = (size_t)j * g->size + (size_t)i;
            if (g->type[cell] == ISLAND_FIELD_OFF) continue;
            double px = ((double)i + 0.5 - half) * g->cell - c->cx, pz = ((double)j + 0.5 - half) * g->cell - c->cz;
            double ea = px * c->dx + pz * c->dz, es = pz * c->dx - px * c->dz;
            ea = (ea < 0.0 ? -ea : ea) - ha;
            es = (es < 0.0 ? -es : es) - hs;
            double d = ea > es ? ea : es;
            if (d >= STRIP_SHOULDER_M) continue;
            double w = d <= 0.0 ? 0.0 : d / STRIP_SHOULDER_M, nat = (double)g->elev[cell];
            w = w * w * (3.0 - 2.0 * w);
            int32_t dm = isl_round((double)c->elev_dm + (nat - (double)c->elev_dm) * w);
            g->elev[cell] = (uint16_t)(dm < 0 ? 0 : dm > 65535 ? 65535 : dm);
        }
}

static void strip_out(IslandFieldStrip *s, const StripCand *c, uint32_t site, bool base, bool open) {
    const double h = 0.5 * STRIP_LENGTH_M;
    s->ax = (float)(c->cx - c->dx * h);
    s->az = (float)(c->cz - c->dz * h);
    s->bx = (float)(c->cx + c->dx * h);
    s->bz = (float)(c->cz + c->dz * h);
    s->dir_x = (float)c->dx;
    s->dir_z = (float)c->dz;
    s->length_m = (float)STRIP_LENGTH_M;
    s->width_m = (float)STRIP_WIDTH_M;
    s->elev_m = (float)(c->elev_dm / 10);
    s->relief_m = (float)c->relief_dm * 0.1f;
    /* The flight model flies along (sin yaw, -cos yaw): yaw = angle + pi/2. */
    s->yaw = (float)(c->angle + 0.5 * 3.14159265358979323846);
    s->site = (uint8_t)site;
    s->base = base;
    s->open = open;
}

uint32_t isl_lay_strips(IslandFieldStrip *out, const Island *isl, uint16_t *elev, const uint8_t *type, uint32_t size,
                        double cell, double radius_m) {
    StripGrid g = {elev, type, size, cell, radius_m, 1.0 / cell};
    StripCand laid[ISLAND_FIELD_MAX_STRIPS] = {{0}};
    uint32_t n = 0;
    /* The base first: whatever its relief (it is levelled), open ends if any heading has them. */
    if (isl->base < isl->n_sites) {
        bool open = best_for_site(&g, isl, isl->base, -1, true, true, laid, n, &laid[n]);
        if (open || best_for_site(&g, isl, isl->base, -1, false, true, laid, n, &laid[n])) {
            strip_out(&out[n], &laid[n], isl->base, true, open);
            n++;
        }
    }
    for (uint32_t k = 0; k < isl->n_sites && n < ISLAND_FIELD_MAX_STRIPS; k++) {
        if (k == isl->base) continue;
        if (!best_for_site(&g, isl, k, (int32_t)(STRIP_FLAT_M * 10.0), true, false, laid, n, &laid[n])) continue;
        strip_out(&out[n], &laid[n], k, false, true);
        n++;
    }
    /* Levelled after every choice, so each was judged on the natural ground. */
    for (uint32_t k = 0; k < n; k++) flatten(&g, &laid[k]);
    return n;
}
