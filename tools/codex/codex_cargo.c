/* skyisles codex front end: cargo, what the places of each location type have (a job board there
 * offers it) and want (a job's destination). Every type named must be declared: a cargo that names
 * an unknown one is refused with file:line:column, the cargo and the name. */
#include "codex/codex_defs.h"

#include <stdio.h>
#include <string.h>

/* A non-empty list of declared location types, as a mask (bit t: type t), each named once. */
static bool type_list(CodexYaml *cy, uint32_t doc, yaml_node_t *v, const char *cargo, const char *key, uint32_t *mask) {
    if (v->type != YAML_SEQUENCE_NODE || v->data.sequence.items.top == v->data.sequence.items.start)
        return cy_fail(cy, doc, v, "cargo '%s': %s must be a non-empty list of location type ids", cargo, key);
    *mask = 0;
    for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
        yaml_node_t *n = cy_node(cy, doc, *it);
        uint8_t t;
        const char *name = cy_scalar(n);
        if (!name) return cy_fail(cy, doc, n, "cargo '%s': %s must list location type ids", cargo, key);
        if (island_codex_find_type(&cy->cx, name) < 0) {
            char list[160] = "";
            size_t used = 0;
            for (uint32_t i = 0; i < cy->cx.n_types && used + 2 < sizeof list; i++)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", cy->cx.types[i].id);
            if (used >= sizeof list) memcpy(list + sizeof list - 4, "...", 4);
            return cy_fail(cy, doc, n, "cargo '%s': unknown location type '%s' in %s (declared: %s)", cargo, name, key,
                           list);
        }
        if (!cy_ref_type(cy, doc, n, &t)) return false;
        if (*mask & (1u << t)) return cy_fail(cy, doc, n, "cargo '%s': %s names '%s' twice", cargo, key, name);
        *mask |= 1u << t;
    }
    return true;
}

static bool parse_one(CodexYaml *cy, const CyDef *d, IslandCargo *c) {
    static const char *const keys[] = {"from", "to", NULL};
    yaml_node_t *v;
    if (!cy_id(cy, d->doc, d->key, "cargo", &c->id) || !cy_check_map(cy, d->doc, d->value, keys, "a cargo"))
        return false;
    return cy_require(cy, d->doc, d->value, "from", "the cargo", &v) &&
           type_list(cy, d->doc, v, c->id, "from", &c->from_mask) &&
           cy_require(cy, d->doc, d->value, "to", "the cargo", &v) && type_list(cy, d->doc, v, c->id, "to", &c->to_mask);
}

bool cy_parse_cargo(CodexYaml *cy) {
    if (cy->n_cargo_defs > ISLAND_MAX_CARGO) {
        const CyDef *d = &cy->cargo_defs[ISLAND_MAX_CARGO];
        return cy_fail(cy, d->doc, d->key, "more than %d cargo entries: the pack format holds at most %d",
                       ISLAND_MAX_CARGO, ISLAND_MAX_CARGO);
    }
    for (uint32_t i = 0; i < cy->n_cargo_defs; i++)
        if (!parse_one(cy, &cy->cargo_defs[i], &cy->cx.cargo[i])) return false;
    cy->cx.n_cargo = cy->n_cargo_defs;
    return true;
}
