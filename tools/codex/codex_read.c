/* skyisles codex front end: the reading layer: errors at a node, interned strings, mapping and
 * scalar checks, references to declared axes, types and scopes. */
#include "codex/codex_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- plumbing */
bool cy_fail(CodexYaml *cy, uint32_t doc, const yaml_node_t *node, const char *fmt, ...) {
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t line = node ? node->start_mark.line + 1 : 1, col = node ? node->start_mark.column + 1 : 1;
    sky_error_set(cy->err, SKY_ERR_SOURCE, "%s:%zu:%zu: %s", cy->docs[doc].path, line, col, msg);
    return false;
}

const char *cy_intern(CodexYaml *cy, const char *s) {
    size_t n = strlen(s) + 1;
    if (!cy->blocks || cy->blocks->used + n > 65536) {
        CyBlock *b = malloc(sizeof *b + (n > 65536 ? n : 65536));
        if (!b) {
            sky_error_set(cy->err, SKY_ERR_NO_MEMORY, "codex: out of memory");
            return NULL;
        }
        b->next = cy->blocks;
        b->used = 0;
        cy->blocks = b;
    }
    char *p = cy->blocks->data + cy->blocks->used;
    memcpy(p, s, n);
    cy->blocks->used += n;
    return p;
}

yaml_node_t *cy_node(CodexYaml *cy, uint32_t doc, int index) {
    return yaml_document_get_node(&cy->docs[doc].doc, index);
}

const char *cy_scalar(const yaml_node_t *n) {
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static bool is_plain(const yaml_node_t *n) {
    return n && n->type == YAML_SCALAR_NODE && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

bool cy_check_map(CodexYaml *cy, uint32_t doc, yaml_node_t *node, const char *const *allowed, const char *what) {
    if (!node || node->type != YAML_MAPPING_NODE) return cy_fail(cy, doc, node, "%s must be a mapping", what);
    /* Bounds the duplicate-key scan below, which is quadratic in the key count. */
    if (node->data.mapping.pairs.top - node->data.mapping.pairs.start > CY_MAX_MAP_KEYS)
        return cy_fail(cy, doc, node, "%s: a mapping with more than %d keys", what, CY_MAX_MAP_KEYS);
    for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
        yaml_node_t *k = cy_node(cy, doc, p->key);
        const char *ks = cy_scalar(k);
        if (!ks) return cy_fail(cy, doc, k, "%s has a key that is not a plain word", what);
        if (allowed) {
            bool known = false;
            for (const char *const *a = allowed; *a && !known; a++) known = !strcmp(*a, ks);
            if (!known) {
                char list[160] = "";
                for (const char *const *a = allowed; *a; a++) {
                    if (strlen(list) + strlen(*a) + 3 >= sizeof list) break;
                    if (a != allowed) strcat(list, ", ");
                    strcat(list, *a);
                }
                return cy_fail(cy, doc, k, "unknown key '%s' in %s (expected one of: %s)", ks, what, list);
            }
        }
        for (yaml_node_pair_t *q = node->data.mapping.pairs.start; q < p; q++)
            if (!strcmp(cy_scalar(cy_node(cy, doc, q->key)), ks)) {
                yaml_node_t *first = cy_node(cy, doc, q->key);
                return cy_fail(cy, doc, k, "duplicate key '%s' in %s (first at line %zu)", ks, what,
                               first->start_mark.line + 1);
            }
    }
    return true;
}

yaml_node_t *cy_get(CodexYaml *cy, uint32_t doc, yaml_node_t *map, const char *key) {
    if (!map || map->type != YAML_MAPPING_NODE) return NULL;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        const char *ks = cy_scalar(cy_node(cy, doc, p->key));
        if (ks && !strcmp(ks, key)) return cy_node(cy, doc, p->value);
    }
    return NULL;
}

bool cy_require(CodexYaml *cy, uint32_t doc, yaml_node_t *map, const char *key, const char *what, yaml_node_t **out) {
    *out = cy_get(cy, doc, map, key);
    if (!*out) return cy_fail(cy, doc, map, "%s has no '%s'", what, key);
    return true;
}

bool cy_int(CodexYaml *cy, uint32_t doc, yaml_node_t *n, long lo, long hi, const char *what, int32_t *out) {
    const char *s = cy_scalar(n);
    char *end = NULL;
    long v = 0;
    if (is_plain(n) && *s) {
        bool hex = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) && s[2];
        v = strtol(hex ? s + 2 : s, &end, hex ? 16 : 10);   /* 0x for colours; 010 stays ten */
    }
    if (!end || *end || end == s) return cy_fail(cy, doc, n, "%s must be an integer, got '%s'", what, s ? s : "(not a scalar)");
    if (v < lo || v > hi) return cy_fail(cy, doc, n, "%s = %ld is out of range %ld..%ld", what, v, lo, hi);
    *out = (int32_t)v;
    return true;
}

bool cy_milli(CodexYaml *cy, uint32_t doc, yaml_node_t *n, long lo_milli, long hi_milli, const char *what,
              uint32_t *out) {
    const char *s = cy_scalar(n), *p = s;
    long whole = 0, frac = 0;
    int digits = 0, fdigits = 0;
    bool ok = is_plain(n);
    if (ok && *p == '+') p++;
    while (ok && *p >= '0' && *p <= '9' && digits < 9) whole = whole * 10 + (*p++ - '0'), digits++;
    if (ok && *p == '.') {
        p++;
        while (*p >= '0' && *p <= '9' && fdigits < 3) frac = frac * 10 + (*p++ - '0'), fdigits++;
        if (*p >= '0' && *p <= '9') return cy_fail(cy, doc, n, "%s '%s' has more than 3 decimals", what, s);
    }
    if (!ok || digits == 0 || *p) return cy_fail(cy, doc, n, "%s must be a non-negative number, got '%s'", what, s ? s : "(not a scalar)");
    while (fdigits < 3) frac *= 10, fdigits++;
    long v = whole * 1000 + frac;
    if (v < lo_milli || v > hi_milli)
        return cy_fail(cy, doc, n, "%s = %s is out of range %ld.%03ld..%ld.%03ld", what, s, lo_milli / 1000,
                       lo_milli % 1000, hi_milli / 1000, hi_milli % 1000);
    *out = (uint32_t)v;
    return true;
}

bool cy_bool(CodexYaml *cy, uint32_t doc, yaml_node_t *n, const char *what, uint8_t *out) {
    const char *s = cy_scalar(n);
    if (is_plain(n) && !strcmp(s, "true")) *out = 1;
    else if (is_plain(n) && !strcmp(s, "false")) *out = 0;
    else return cy_fail(cy, doc, n, "%s must be true or false, got '%s'", what, s ? s : "(not a scalar)");
    return true;
}

bool cy_text(CodexYaml *cy, uint32_t doc, yaml_node_t *n, const char *what, const char **out) {
    const char *s = cy_scalar(n);
    if (!s || !*s) return cy_fail(cy, doc, n, "%s must be a non-empty string", what);
    return (*out = cy_intern(cy, s)) != NULL;
}

bool cy_id(CodexYaml *cy, uint32_t doc, yaml_node_t *n, const char *what, const char **out) {
    const char *s = cy_scalar(n);
    if (!s || !*s || strlen(s) > 48) return cy_fail(cy, doc, n, "%s must be an id of 1..48 characters", what);
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
            return cy_fail(cy, doc, n, "%s '%s' may only use a-z, 0-9 and _", what, s);
    return (*out = cy_intern(cy, s)) != NULL;
}

static bool ref(CodexYaml *cy, uint32_t doc, yaml_node_t *n, const char *kind, uint32_t count,
                const char *(*name)(const IslandCodex *, uint32_t), uint8_t *out) {
    const char *s = cy_scalar(n);
    if (!s) return cy_fail(cy, doc, n, "expected the id of %s", kind);
    for (uint32_t i = 0; i < count; i++)
        if (!strcmp(name(&cy->cx, i), s)) {
            *out = (uint8_t)i;
            return true;
        }
    char list[120] = "";
    for (uint32_t i = 0; i < count && strlen(list) + strlen(name(&cy->cx, i)) + 8 < sizeof list; i++) {
        if (i) strcat(list, ", ");
        strcat(list, name(&cy->cx, i));
    }
    return cy_fail(cy, doc, n, "unknown %s '%s' (declared: %s)", kind, s, list);
}
static const char *axis_name(const IslandCodex *cx, uint32_t i) { return cx->axes[i].id; }
static const char *type_name(const IslandCodex *cx, uint32_t i) { return cx->types[i].id; }
static const char *scope_name(const IslandCodex *cx, uint32_t i) { return cx->scopes[i].id; }
bool cy_ref_axis(CodexYaml *cy, uint32_t doc, yaml_node_t *n, uint8_t *out) {
    return ref(cy, doc, n, "axis", cy->cx.n_axes, axis_name, out);
}
bool cy_ref_type(CodexYaml *cy, uint32_t doc, yaml_node_t *n, uint8_t *out) {
    return ref(cy, doc, n, "location type", cy->cx.n_types, type_name, out);
}
bool cy_ref_scope(CodexYaml *cy, uint32_t doc, yaml_node_t *n, uint8_t *out) {
    return ref(cy, doc, n, "generation scope", cy->cx.n_scopes, scope_name, out);
}
