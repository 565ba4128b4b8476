/* skyisles island: location types for sites: guarantees by bipartite maximum matching with
 * declaration-order priority (I7), then nearest-neighbour matching with hard limits, the
 * crowding penalty and the per-type cap (I4, I6), then the fallback (I5). */
#include "island/island_int.h"

#include <math.h>

bool isl_admissible(const IslandCodex *cx, uint32_t type, uint32_t scope, const int16_t *axis) {
    const IslandType *t = &cx->types[type];
    if (!(t->scope_mask & (1u << scope))) return false;
    for (uint32_t l = 0; l < t->n_limits; l++) {
        int32_t v = axis[t->limits[l].axis];
        if (v < t->limits[l].min || v > t->limits[l].max) return false;
    }
    return true;
}

/* ---------------------------------------------------------------- guarantees */
typedef struct Matcher {
    uint32_t n_slots, n_sites;
    const uint8_t *adm;
    const uint8_t *taken;           /* sites fixed to earlier slots */
    int16_t owner[ISLAND_MAX_SITES];  /* slot matched to a site, -1 */
    uint8_t seen[ISLAND_MAX_SITES];
} Matcher;

static bool augment(Matcher *m, uint32_t slot) {
    for (uint32_t site = 0; site < m->n_sites; site++) {
        if (!m->adm[slot * m->n_sites + site] || m->taken[site] || m->seen[site]) continue;
        m->seen[site] = 1;
        if (m->owner[site] < 0 || augment(m, (uint32_t)m->owner[site])) {
            m->owner[site] = (int16_t)slot;
            return true;
        }
    }
    return false;
}

/* Size of a maximum matching of slots [first, n_slots) to the sites not taken (Kuhn). */
static uint32_t max_matching(Matcher *m, uint32_t first) {
    uint32_t size = 0;
    for (uint32_t i = 0; i < m->n_sites; i++) m->owner[i] = -1;
    for (uint32_t s = first; s < m->n_slots; s++) {
        memset(m->seen, 0, m->n_sites);
        if (augment(m, s)) size++;
    }
    return size;
}

bool island_assign_guarantees(uint32_t n_slots, uint32_t n_sites, const uint8_t *adm, const uint16_t *order,
                              uint16_t *site_of, uint8_t *fell_back) {
    if (n_slots > ISLAND_MAX_GUARANTEE_SLOTS || n_sites > ISLAND_MAX_SITES || n_slots > n_sites) return false;
    uint8_t taken[ISLAND_MAX_SITES] = {0}, deferred[ISLAND_MAX_GUARANTEE_SLOTS] = {0};
    Matcher m = {.n_slots = n_slots, .n_sites = n_sites, .adm = adm, .taken = taken};
    /* The most slots any assignment can serve admissibly; every fixing below keeps it reachable. */
    const uint32_t best = max_matching(&m, 0);
    uint32_t fixed = 0;
    for (uint32_t s = 0; s < n_slots; s++) {
        bool placed = false;
        for (uint32_t k = 0; k < n_sites && !placed; k++) {
            uint32_t site = order[s * n_sites + k];
            if (!adm[s * n_sites + site] || taken[site]) continue;
            taken[site] = 1;
            if (fixed + 1 + max_matching(&m, s + 1) == best) {
                site_of[s] = (uint16_t)site;
                fell_back[s] = 0;
                fixed++;
                placed = true;
            } else {
                taken[site] = 0;
            }
        }
        deferred[s] = !placed;   /* unmatched in every maximum matching that keeps the earlier choices */
    }
    /* Only a guarantee with no admissible site left takes an inadmissible one: its best free site. */
    for (uint32_t s = 0; s < n_slots; s++) {
        if (!deferred[s]) continue;
        for (uint32_t k = 0; k < n_sites; k++) {
            uint32_t site = order[s * n_sites + k];
            if (taken[site]) continue;
            taken[site] = 1;
            site_of[s] = (uint16_t)site;
            fell_back[s] = 1;
            break;
        }
    }
    return true;
}

static void run_guarantees(Island *isl, const IslandCodex *cx, uint32_t scope) {
    const IslandScope *s = &cx->scopes[scope];
    const uint32_t n = isl->n_sites;
    uint8_t adm[ISLAND_MAX_GUARANTEE_SLOTS * ISLAND_MAX_SITES] = {0};
    uint16_t order[ISLAND_MAX_GUARANTEE_SLOTS * ISLAND_MAX_SITES] = {0};
    uint16_t site_of[ISLAND_MAX_GUARANTEE_SLOTS];
    uint8_t fell_back[ISLAND_MAX_GUARANTEE_SLOTS], slot_type[ISLAND_MAX_GUARANTEE_SLOTS];
    uint32_t slots = 0;
    for (uint32_t g = 0; g < s->n_guarantees; g++) {
        const IslandGuarantee *q = &s->guarantees[g];
        for (uint32_t c = 0; c < q->count && slots < ISLAND_MAX_GUARANTEE_SLOTS && slots < n; c++, slots++) {
            uint16_t *o = &order[slots * n];
            /* Pick side first, ties by site index: insertion sort keeps it stable. */
            for (uint32_t i = 0; i < n; i++) {
                uint32_t j = i;
                int32_t v = isl->sites[i].axis[q->axis];
                while (j > 0) {
                    int32_t w = isl->sites[o[j - 1]].axis[q->axis];
                    if (q->pick == ISLAND_PICK_MAX ? w >= v : w <= v) break;
                    o[j] = o[j - 1];
                    j--;
                }
                o[j] = (uint16_t)i;
            }
            for (uint32_t i = 0; i < n; i++) adm[slots * n + i] = isl_admissible(cx, q->type, scope, isl->sites[i].axis);
            slot_type[slots] = q->type;
        }
    }
    if (!island_assign_guarantees(slots, n, adm, order, site_of, fell_back)) return;
    for (uint32_t k = 0; k < slots; k++) {
        IslandSite *site = &isl->sites[site_of[k]];
        site->type = slot_type[k];
        site->guaranteed = 1;
        site->guarantee_fallback = fell_back[k];
        isl->guarantee_fallbacks += fell_back[k];
        isl->type_count[slot_type[k]]++;
    }
}

/* ---------------------------------------------------------------- matching */
/* D(type, site) over the axes the type mentions only (I4). */
static double type_distance(const IslandType *t, const int16_t *axis) {
    double num = 0.0, den = 0.0;
    for (uint32_t i = 0; i < t->n_prefs; i++) {
        const IslandPref *p = &t->prefs[i];
        double d = (double)(axis[p->axis] - p->ideal) / (double)p->tolerance;
        num = num + (double)p->weight * d * d;
        den = den + (double)p->weight;
    }
    return sqrt(num / den);
}

void isl_assign_types(Island *isl, const IslandCodex *cx, uint32_t scope) {
    const IslandScope *s = &cx->scopes[scope];
    const double growth = 1.0 + (double)s->crowding_penalty_milli / 1000.0;
    const uint32_t cap = s->max_sites_per_type;
    run_guarantees(isl, cx, scope);
    for (uint32_t i = 0; i < isl->n_sites; i++) {
        IslandSite *site = &isl->sites[i];
        if (site->guaranteed) continue;
        int best = -1;
        uint32_t best_over = 0;
        double best_score = 0.0;
        for (uint32_t t = 0; t < cx->n_types; t++) {
            if (!isl_admissible(cx, t, scope, site->axis)) continue;
            uint32_t count = isl->type_count[t];
            /* Soft approach to the cap; past it only as an escape hatch, least over first. */
            uint32_t over = count >= cap ? count - cap + 1 : 0;
            double score = type_distance(&cx->types[t], site->axis);
            for (uint32_t k = 0; k < count; k++) score = score * growth;
            if (best < 0 || over < best_over || (over == best_over && score < best_score)) {
                best = (int)t;
                best_over = over;
                best_score = score;
            }
        }
        if (best < 0) {
            site->type = s->fallback_type;
            site->fallback = 1;
            isl->fallbacks++;
        } else {
            site->type = (uint8_t)best;
            if (best_over > 0) {
                site->cap_overflow = 1;
                isl->cap_overflows++;
            }
        }
        isl->type_count[site->type]++;
    }
    for (uint32_t t = 0; t < cx->n_types; t++)
        if (isl->type_count[t] > cap && isl->type_count[t] - cap > isl->cap_excess_max)
            isl->cap_excess_max = isl->type_count[t] - cap;
}
