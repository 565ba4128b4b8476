/* skyisles codex front end: axes (generator blends), location types (preferences, hard limits,
 * props, variants) and generation scopes (sizes, counts, guarantees), with cross-reference and
 * range checks. */
#include "codex/codex_defs.h"

#include <stdio.h>

#include "world/world.h"

/* ---------------------------------------------------------------- axes */
static bool parse_term(CodexYaml *cy, uint32_t doc, yaml_node_t *n, IslandBlendTerm *t) {
    static const char *const df_keys[] = {"type", "reference", "weight", NULL};
    static const char *const ln_keys[] = {"type", "octaves", "frequency", "seed_offset", "weight", NULL};
    yaml_node_t *v;
    int32_t i;
    if (!cy_require(cy, doc, n, "type", "a generator term", &v)) return false;
    const char *kind = cy_scalar(v);
    if (kind && !strcmp(kind, "distance_field")) {
        t->kind = ISLAND_GEN_DISTANCE_FIELD;
        if (!cy_check_map(cy, doc, n, df_keys, "a distance_field term")) return false;
        if (!cy_require(cy, doc, n, "reference", "a distance_field term", &v)) return false;
        const char *r = cy_scalar(v);
        if (r && !strcmp(r, "edge")) t->reference = ISLAND_REF_EDGE;
        else if (r && !strcmp(r, "centre")) t->reference = ISLAND_REF_CENTRE;
        else return cy_fail(cy, doc, v, "reference must be edge or centre, got '%s'", r ? r : "(not a scalar)");
    } else if (kind && !strcmp(kind, "layered_noise")) {
        t->kind = ISLAND_GEN_LAYERED_NOISE;
        if (!cy_check_map(cy, doc, n, ln_keys, "a layered_noise term")) return false;
        if (!cy_require(cy, doc, n, "octaves", "a layered_noise term", &v) || !cy_int(cy, doc, v, 1, 8, "octaves", &i))
            return false;
        t->octaves = (uint8_t)i;
        if (!cy_require(cy, doc, n, "frequency", "a layered_noise term", &v) ||
            !cy_milli(cy, doc, v, 1, 1000000, "frequency", &t->frequency_milli))
            return false;
        if ((v = cy_get(cy, doc, n, "seed_offset"))) {
            if (!cy_int(cy, doc, v, 0, 1000000000, "seed_offset", &i)) return false;
            t->seed_offset = (uint32_t)i;
        }
    } else {
        return cy_fail(cy, doc, v, "unknown generator type '%s' (expected distance_field or layered_noise)",
                       kind ? kind : "(not a scalar)");
    }
    if (!cy_require(cy, doc, n, "weight", "a generator term", &v) || !cy_int(cy, doc, v, 1, 1000000, "weight", &i))
        return false;
    t->weight = (uint32_t)i;
    return true;
}

static bool parse_axis(CodexYaml *cy, const CyDef *d, IslandAxis *a) {
    static const char *const keys[] = {"range", "stretch_sites_to_range", "generator", NULL};
    static const char *const range_keys[] = {"min", "max", NULL};
    static const char *const gen_keys[] = {"blend", NULL};
    uint32_t doc = d->doc;
    yaml_node_t *v, *w;
    if (!cy_check_map(cy, doc, d->value, keys, "an axis")) return false;
    if (!cy_require(cy, doc, d->value, "range", "the axis", &v) || !cy_check_map(cy, doc, v, range_keys, "range") ||
        !cy_require(cy, doc, v, "min", "range", &w) || !cy_int(cy, doc, w, -10000, 10000, "range.min", &a->min) ||
        !cy_require(cy, doc, v, "max", "range", &w) || !cy_int(cy, doc, w, -10000, 10000, "range.max", &a->max))
        return false;
    if (a->min >= a->max) return cy_fail(cy, doc, w, "range.max %d must be above range.min %d", a->max, a->min);
    if ((v = cy_get(cy, doc, d->value, "stretch_sites_to_range")) && !cy_bool(cy, doc, v, "stretch_sites_to_range", &a->stretch))
        return false;
    if (!cy_require(cy, doc, d->value, "generator", "the axis", &v) || !cy_check_map(cy, doc, v, gen_keys, "generator") ||
        !cy_require(cy, doc, v, "blend", "generator", &w))
        return false;
    if (w->type != YAML_SEQUENCE_NODE || w->data.sequence.items.top == w->data.sequence.items.start)
        return cy_fail(cy, doc, w, "blend must be a non-empty list of generator terms");
    for (yaml_node_item_t *it = w->data.sequence.items.start; it < w->data.sequence.items.top; it++) {
        yaml_node_t *t = cy_node(cy, doc, *it);
        if (a->n_terms >= ISLAND_MAX_BLEND)
            return cy_fail(cy, doc, t, "more than %d generator terms in one blend", ISLAND_MAX_BLEND);
        if (!cy_check_map(cy, doc, t, NULL, "a generator term") || !parse_term(cy, doc, t, &a->terms[a->n_terms++]))
            return false;
    }
    return true;
}

bool cy_parse_axes(CodexYaml *cy) {
    for (uint32_t i = 0; i < cy->n_axis_defs; i++)
        if (!parse_axis(cy, &cy->axis_defs[i], &cy->cx.axes[i])) return false;
    return true;
}

/* ---------------------------------------------------------------- location types */
static bool parse_prefs(CodexYaml *cy, uint32_t doc, yaml_node_t *n, IslandType *t) {
    static const char *const keys[] = {"ideal", "tolerance", "weight", NULL};
    if (!cy_check_map(cy, doc, n, NULL, "axis_preferences")) return false;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = cy_node(cy, doc, p->key), *val = cy_node(cy, doc, p->value), *v;
        IslandPref *pr = &t->prefs[t->n_prefs];
        int32_t i;
        if (!cy_ref_axis(cy, doc, k, &pr->axis) || !cy_check_map(cy, doc, val, keys, "an axis preference")) return false;
        const IslandAxis *a = &cy->cx.axes[pr->axis];
        char what[80];
        snprintf(what, sizeof what, "%s.ideal (axis range)", a->id);
        if (!cy_require(cy, doc, val, "ideal", "the axis preference", &v) ||
            !cy_int(cy, doc, v, a->min, a->max, what, &pr->ideal) ||
            !cy_require(cy, doc, val, "tolerance", "the axis preference", &v) ||
            !cy_int(cy, doc, v, 1, 100000, "tolerance", &i))
            return false;
        pr->tolerance = (uint32_t)i;
        if (!cy_require(cy, doc, val, "weight", "the axis preference", &v) || !cy_int(cy, doc, v, 1, 1000000, "weight", &i))
            return false;
        pr->weight = (uint32_t)i;
        t->n_prefs++;
    }
    return true;
}

static bool parse_limits(CodexYaml *cy, uint32_t doc, yaml_node_t *n, IslandType *t) {
    static const char *const keys[] = {"min", "max", NULL};
    if (!cy_check_map(cy, doc, n, NULL, "hard_limits")) return false;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = cy_node(cy, doc, p->key), *val = cy_node(cy, doc, p->value), *v;
        IslandLimit *l = &t->limits[t->n_limits];
        if (!cy_ref_axis(cy, doc, k, &l->axis) || !cy_check_map(cy, doc, val, keys, "a hard limit")) return false;
        const IslandAxis *a = &cy->cx.axes[l->axis];
        l->min = a->min;
        l->max = a->max;
        if (!cy_get(cy, doc, val, "min") && !cy_get(cy, doc, val, "max"))
            return cy_fail(cy, doc, val, "a hard limit needs min, max or both");
        char what[80];
        snprintf(what, sizeof what, "%s.min (axis range)", a->id);
        if ((v = cy_get(cy, doc, val, "min")) && !cy_int(cy, doc, v, a->min, a->max, what, &l->min)) return false;
        snprintf(what, sizeof what, "%s.max (axis range)", a->id);
        if ((v = cy_get(cy, doc, val, "max")) && !cy_int(cy, doc, v, a->min, a->max, what, &l->max)) return false;
        if (l->min > l->max) return cy_fail(cy, doc, val, "hard limit min %d is above max %d", l->min, l->max);
        t->n_limits++;
    }
    return true;
}

static bool add_prop(CodexYaml *cy, uint32_t doc, yaml_node_t *k, yaml_node_t *v) {
    IslandCodex *cx = &cy->cx;
    if (cx->n_props >= ISLAND_MAX_PROPS) return cy_fail(cy, doc, k, "more than %d props in the codex", ISLAND_MAX_PROPS);
    IslandProp *p = &cx->props[cx->n_props];
    if (!cy_id(cy, doc, k, "prop", &p->key) || !cy_int(cy, doc, v, -1000000000, 1000000000, p->key, &p->value))
        return false;
    cx->n_props++;
    return true;
}

static bool parse_variants(CodexYaml *cy, uint32_t doc, yaml_node_t *n, IslandType *t) {
    static const char *const keys[] = {"id", "props", NULL};
    IslandCodex *cx = &cy->cx;
    if (n->type != YAML_SEQUENCE_NODE) return cy_fail(cy, doc, n, "variants must be a list of {id, props}");
    t->first_variant = (uint16_t)cx->n_variants;
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        yaml_node_t *vn = cy_node(cy, doc, *it), *v;
        if (cx->n_variants >= ISLAND_MAX_VARIANTS)
            return cy_fail(cy, doc, vn, "more than %d variants in the codex", ISLAND_MAX_VARIANTS);
        IslandVariant *var = &cx->variants[cx->n_variants];
        if (!cy_check_map(cy, doc, vn, keys, "a variant") || !cy_require(cy, doc, vn, "id", "the variant", &v) ||
            !cy_id(cy, doc, v, "variant id", &var->id))
            return false;
        for (uint32_t j = t->first_variant; j < cx->n_variants; j++)
            if (!strcmp(cx->variants[j].id, var->id))
                return cy_fail(cy, doc, v, "duplicate variant '%s' in location type '%s'", var->id, t->id);
        var->first_prop = (uint16_t)cx->n_props;
        if ((v = cy_get(cy, doc, vn, "props"))) {
            if (!cy_check_map(cy, doc, v, NULL, "variant props")) return false;
            for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
                yaml_node_t *k = cy_node(cy, doc, p->key);
                bool declared = false;
                for (uint32_t j = 0; j < t->n_props; j++) declared |= !strcmp(cx->props[t->first_prop + j].key, cy_scalar(k));
                if (!declared)
                    return cy_fail(cy, doc, k, "variant '%s' overrides prop '%s', which location type '%s' does not declare",
                                   var->id, cy_scalar(k), t->id);
                if (!add_prop(cy, doc, k, cy_node(cy, doc, p->value))) return false;
            }
        }
        var->n_props = (uint16_t)(cx->n_props - var->first_prop);
        cx->n_variants++;
        t->n_variants++;
    }
    return true;
}

/* A name from one of the world's shape tables (landmarks, flora sets): unknown names fail with
 * the type, the name and the names there are. */
static bool world_name(CodexYaml *cy, uint32_t doc, yaml_node_t *v, const IslandType *t, const char *what,
                       int (*find)(const char *), const char *(*name_at)(int), const char **out) {
    const char *name = cy_scalar(v);
    if (!name || !name[0]) return cy_fail(cy, doc, v, "location type '%s': %s must be a name", t->id, what);
    if (find(name) < 0) {
        char list[120] = "";
        size_t used = 0;
        for (int i = 0; name_at(i) && used + 2 < sizeof list; i++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", name_at(i));
        if (used >= sizeof list) memcpy(list + sizeof list - 4, "...", 4);
        return cy_fail(cy, doc, v, "location type '%s': unknown %s '%s' (known: %s)", t->id, what, name, list);
    }
    *out = cy_intern(cy, name);
    return *out != NULL;
}

static bool parse_type(CodexYaml *cy, const CyDef *d, IslandType *t) {
    static const char *const keys[] = {"applicable_scopes", "move_cost", "axis_preferences", "hard_limits",
                                       "props", "variants", "landmark", "flora", NULL};
    IslandCodex *cx = &cy->cx;
    uint32_t doc = d->doc;
    yaml_node_t *n = d->value, *v;
    if (!cy_check_map(cy, doc, n, keys, "a location type")) return false;
    if (!cy_require(cy, doc, n, "applicable_scopes", "the location type", &v)) return false;
    if (v->type != YAML_SEQUENCE_NODE || v->data.sequence.items.top == v->data.sequence.items.start)
        return cy_fail(cy, doc, v, "applicable_scopes must be a non-empty list of scope ids");
    for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
        uint8_t s;
        if (!cy_ref_scope(cy, doc, cy_node(cy, doc, *it), &s)) return false;
        t->scope_mask |= 1u << s;
    }
    if (!cy_require(cy, doc, n, "move_cost", "the location type", &v) ||
        !cy_milli(cy, doc, v, 1, 100000, "move_cost", &t->move_cost_milli))
        return false;
    if (!cy_require(cy, doc, n, "axis_preferences", "the location type", &v) || !parse_prefs(cy, doc, v, t)) return false;
    if (t->n_prefs == 0) return cy_fail(cy, doc, v, "location type '%s' prefers no axis: name at least one", t->id);
    if ((v = cy_get(cy, doc, n, "hard_limits")) && !parse_limits(cy, doc, v, t)) return false;
    t->first_prop = (uint16_t)cx->n_props;
    if ((v = cy_get(cy, doc, n, "props"))) {
        if (!cy_check_map(cy, doc, v, NULL, "props")) return false;
        for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++)
            if (!add_prop(cy, doc, cy_node(cy, doc, p->key), cy_node(cy, doc, p->value))) return false;
    }
    t->n_props = (uint16_t)(cx->n_props - t->first_prop);
    if ((v = cy_get(cy, doc, n, "variants")) && !parse_variants(cy, doc, v, t)) return false;
    /* Every site of the type gets this landmark; its ground grows this flora (default: the biome's). */
    if (!cy_require(cy, doc, n, "landmark", "the location type", &v) ||
        !world_name(cy, doc, v, t, "landmark", world_landmark_find, world_landmark_name, &t->landmark))
        return false;
    t->flora = "";
    if ((v = cy_get(cy, doc, n, "flora")) &&
        !world_name(cy, doc, v, t, "flora", world_flora_find, world_flora_name, &t->flora))
        return false;
    return true;
}

bool cy_parse_types(CodexYaml *cy) {
    for (uint32_t i = 0; i < cy->n_type_defs; i++)
        if (!parse_type(cy, &cy->type_defs[i], &cy->cx.types[i])) return false;
    return true;
}

/* ---------------------------------------------------------------- scopes */
static bool scope_uint(CodexYaml *cy, uint32_t doc, yaml_node_t *map, const char *key, long lo, long hi, uint32_t *out) {
    yaml_node_t *v;
    int32_t i;
    if (!cy_require(cy, doc, map, key, "the generation scope", &v) || !cy_int(cy, doc, v, lo, hi, key, &i)) return false;
    *out = (uint32_t)i;
    return true;
}

static bool type_in_scope(CodexYaml *cy, uint32_t doc, yaml_node_t *n, uint32_t scope, uint8_t *type) {
    if (!cy_ref_type(cy, doc, n, type)) return false;
    if (!(cy->cx.types[*type].scope_mask & (1u << scope)))
        return cy_fail(cy, doc, n, "location type '%s' does not list scope '%s' in applicable_scopes",
                       cy->cx.types[*type].id, cy->cx.scopes[scope].id);
    return true;
}

static bool parse_guarantees(CodexYaml *cy, uint32_t doc, yaml_node_t *n, uint32_t si, IslandScope *s) {
    static const char *const keys[] = {"location_type", "axis", "pick", "count", NULL};
    if (n->type != YAML_SEQUENCE_NODE) return cy_fail(cy, doc, n, "guarantees must be a list");
    uint32_t slots = 0;
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        yaml_node_t *g = cy_node(cy, doc, *it), *v;
        if (s->n_guarantees >= ISLAND_MAX_GUARANTEES)
            return cy_fail(cy, doc, g, "more than %d guarantees in one scope", ISLAND_MAX_GUARANTEES);
        IslandGuarantee *q = &s->guarantees[s->n_guarantees];
        int32_t count;
        if (!cy_check_map(cy, doc, g, keys, "a guarantee") ||
            !cy_require(cy, doc, g, "location_type", "the guarantee", &v) || !type_in_scope(cy, doc, v, si, &q->type) ||
            !cy_require(cy, doc, g, "axis", "the guarantee", &v) || !cy_ref_axis(cy, doc, v, &q->axis) ||
            !cy_require(cy, doc, g, "pick", "the guarantee", &v))
            return false;
        const char *pick = cy_scalar(v);
        if (pick && !strcmp(pick, "max")) q->pick = ISLAND_PICK_MAX;
        else if (pick && !strcmp(pick, "min")) q->pick = ISLAND_PICK_MIN;
        else return cy_fail(cy, doc, v, "pick must be max or min, got '%s'", pick ? pick : "(not a scalar)");
        if (!cy_require(cy, doc, g, "count", "the guarantee", &v) ||
            !cy_int(cy, doc, v, 1, ISLAND_MAX_GUARANTEE_SLOTS, "count", &count))
            return false;
        q->count = (uint8_t)count;
        slots += (uint32_t)count;
        if (slots > ISLAND_MAX_GUARANTEE_SLOTS || slots > s->site_min)
            return cy_fail(cy, doc, v, "guarantees ask for %u sites, more than site_count.min %u (or the limit %d)", slots,
                           s->site_min, ISLAND_MAX_GUARANTEE_SLOTS);
        s->n_guarantees++;
    }
    return true;
}

static bool parse_scope(CodexYaml *cy, const CyDef *d, uint32_t si, IslandScope *s) {
    static const char *const keys[] = {
        "diameter_meters", "elevation_top_meters", "walk_meters_per_hour", "site_count", "coast_band", "hull_coast",
        "max_sites_per_type", "crowding_penalty", "extra_edge_detour_factor", "daily_budget", "elevation_axis",
        "coast_axis", "base_location_type", "fallback_location_type", "guarantees", NULL};
    static const char *const count_keys[] = {"min", "max", NULL};
    static const char *const budget_keys[] = {"outdoor_minutes", "gathering_minutes", NULL};
    uint32_t doc = d->doc;
    yaml_node_t *n = d->value, *v, *w;
    int32_t i;
    if (!cy_check_map(cy, doc, n, keys, "a generation scope") ||
        !scope_uint(cy, doc, n, "diameter_meters", 10, 100000, &s->diameter_m) ||
        !scope_uint(cy, doc, n, "elevation_top_meters", 1, 6000, &s->elevation_top_m) ||
        !scope_uint(cy, doc, n, "walk_meters_per_hour", 1, 100000, &s->walk_m_per_hour) ||
        !scope_uint(cy, doc, n, "max_sites_per_type", 1, ISLAND_MAX_SITES, &s->max_sites_per_type))
        return false;
    if (!cy_require(cy, doc, n, "site_count", "the generation scope", &v) ||
        !cy_check_map(cy, doc, v, count_keys, "site_count") || !cy_require(cy, doc, v, "min", "site_count", &w) ||
        !cy_int(cy, doc, w, 3, ISLAND_MAX_SITES, "site_count.min", &i))
        return false;
    s->site_min = (uint32_t)i;
    if (!cy_require(cy, doc, v, "max", "site_count", &w) || !cy_int(cy, doc, w, i, ISLAND_MAX_SITES, "site_count.max", &i))
        return false;
    s->site_max = (uint32_t)i;
    if (!cy_require(cy, doc, n, "elevation_axis", "the generation scope", &v) || !cy_ref_axis(cy, doc, v, &s->elevation_axis) ||
        !cy_require(cy, doc, n, "coast_axis", "the generation scope", &v) || !cy_ref_axis(cy, doc, v, &s->coast_axis))
        return false;
    const IslandAxis *ca = &cy->cx.axes[s->coast_axis];
    if (!cy_require(cy, doc, n, "coast_band", "the generation scope", &v) ||
        !cy_int(cy, doc, v, ca->min, ca->max, "coast_band (the coast axis range)", &s->coast_band) ||
        !cy_require(cy, doc, n, "hull_coast", "the generation scope", &v) || !cy_bool(cy, doc, v, "hull_coast", &s->hull_coast) ||
        !cy_require(cy, doc, n, "crowding_penalty", "the generation scope", &v) ||
        !cy_milli(cy, doc, v, 0, 100000, "crowding_penalty", &s->crowding_penalty_milli) ||
        !cy_require(cy, doc, n, "extra_edge_detour_factor", "the generation scope", &v) ||
        !cy_milli(cy, doc, v, 1000, 100000, "extra_edge_detour_factor", &s->detour_factor_milli))
        return false;
    if (!cy_require(cy, doc, n, "daily_budget", "the generation scope", &v) ||
        !cy_check_map(cy, doc, v, budget_keys, "daily_budget") ||
        !cy_require(cy, doc, v, "outdoor_minutes", "daily_budget", &w) || !cy_int(cy, doc, w, 1, 10000, "outdoor_minutes", &i))
        return false;
    s->outdoor_minutes = (uint32_t)i;
    if (!cy_require(cy, doc, v, "gathering_minutes", "daily_budget", &w) ||
        !cy_int(cy, doc, w, 0, (long)s->outdoor_minutes - 1, "gathering_minutes (below outdoor_minutes)", &i))
        return false;
    s->gathering_minutes = (uint32_t)i;
    if (!cy_require(cy, doc, n, "base_location_type", "the generation scope", &v) ||
        !type_in_scope(cy, doc, v, si, &s->base_type) ||
        !cy_require(cy, doc, n, "fallback_location_type", "the generation scope", &v) ||
        !type_in_scope(cy, doc, v, si, &s->fallback_type))
        return false;
    if ((v = cy_get(cy, doc, n, "guarantees")) && !parse_guarantees(cy, doc, v, si, s)) return false;
    return true;
}

bool cy_parse_scopes(CodexYaml *cy) {
    for (uint32_t i = 0; i < cy->n_scope_defs; i++)
        if (!parse_scope(cy, &cy->scope_defs[i], i, &cy->cx.scopes[i])) return false;
    return true;
}
