/* skyisles island: codex YAML reading: documents, scalar checks with file:line:column errors,
 * the top level, axes and the localisation table. Types and scopes are in codex_yaml_defs.c. */
#include "island/codex_yaml_int.h"

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

/* ---------------------------------------------------------------- files and top level */
static bool load_doc(CodexYaml *cy, uint32_t i) {
    CyDoc *d = &cy->docs[i];
    FILE *f = fopen(d->path, "rb");
    if (!f) {
        sky_error_set(cy->err, SKY_ERR_SOURCE, "%s:1:1: cannot open the file: check the path", d->path);
        return false;
    }
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    bool ok = yaml_parser_load(&parser, &d->doc) != 0;
    if (!ok) {
        const yaml_mark_t *m = parser.problem ? &parser.problem_mark : &parser.mark;
        sky_error_set(cy->err, SKY_ERR_SOURCE, "%s:%zu:%zu: YAML syntax error: %s%s%s", d->path, m->line + 1, m->column + 1,
                      parser.problem ? parser.problem : "unreadable", parser.context ? " " : "",
                      parser.context ? parser.context : "");
    }
    yaml_parser_delete(&parser);
    fclose(f);
    d->loaded = ok;
    return ok;
}

static bool collect(CodexYaml *cy, uint32_t doc, yaml_node_t *map, CyDef *defs, uint32_t *n, const char *what,
                    bool merge) {
    if (!cy_check_map(cy, doc, map, NULL, what)) return false;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = cy_node(cy, doc, p->key);
        for (uint32_t j = 0; j < *n && !merge; j++)
            if (!strcmp(cy_scalar(defs[j].key), cy_scalar(k)))
                return cy_fail(cy, doc, k, "duplicate %s '%s' (first declared at %s:%zu:%zu)", what, cy_scalar(k),
                               cy->docs[defs[j].doc].path, defs[j].key->start_mark.line + 1,
                               defs[j].key->start_mark.column + 1);
        if (*n >= CY_MAX_DEFS) return cy_fail(cy, doc, k, "too many %s entries (limit %d)", what, CY_MAX_DEFS);
        defs[(*n)++] = (CyDef){doc, k, cy_node(cy, doc, p->value)};
    }
    return true;
}

static bool read_top(CodexYaml *cy, uint32_t doc) {
    static const char *const keys[] = {"axes", "generation_scopes", "location_types", "localisation", NULL};
    yaml_node_t *root = yaml_document_get_root_node(&cy->docs[doc].doc);
    if (!root) return cy_fail(cy, doc, NULL, "the file is empty: expected a mapping with %s", "axes, generation_scopes, location_types or localisation");
    if (!cy_check_map(cy, doc, root, keys, "the top level")) return false;
    yaml_node_t *n;
    if ((n = cy_get(cy, doc, root, "axes")) && !collect(cy, doc, n, cy->axis_defs, &cy->n_axis_defs, "axis", false)) return false;
    if ((n = cy_get(cy, doc, root, "location_types")) &&
        !collect(cy, doc, n, cy->type_defs, &cy->n_type_defs, "location type", false))
        return false;
    if ((n = cy_get(cy, doc, root, "generation_scopes")) &&
        !collect(cy, doc, n, cy->scope_defs, &cy->n_scope_defs, "generation scope", false))
        return false;
    if ((n = cy_get(cy, doc, root, "localisation")) &&
        !collect(cy, doc, n, cy->locale_defs, &cy->n_locale_defs, "localisation language", true))
        return false;
    return true;
}

/* Ids first, so references may point forward and across files. */
static bool register_ids(CodexYaml *cy) {
    const struct { CyDef *defs; uint32_t n, cap; const char *what; } kinds[3] = {
        {cy->axis_defs, cy->n_axis_defs, ISLAND_MAX_AXES, "axis"},
        {cy->type_defs, cy->n_type_defs, ISLAND_MAX_TYPES, "location type"},
        {cy->scope_defs, cy->n_scope_defs, ISLAND_MAX_SCOPES, "generation scope"},
    };
    for (int k = 0; k < 3; k++) {
        if (kinds[k].n == 0) {
            sky_error_set(cy->err, SKY_ERR_SOURCE, "%s:1:1: the codex declares no %s: add one", cy->docs[0].path, kinds[k].what);
            return false;
        }
        if (kinds[k].n > kinds[k].cap)
            return cy_fail(cy, kinds[k].defs[kinds[k].cap].doc, kinds[k].defs[kinds[k].cap].key,
                           "more than %u %s entries: the pack format holds at most %u", kinds[k].cap, kinds[k].what,
                           kinds[k].cap);
        for (uint32_t i = 0; i < kinds[k].n; i++) {
            const char *id;
            if (!cy_id(cy, kinds[k].defs[i].doc, kinds[k].defs[i].key, kinds[k].what, &id)) return false;
            if (k == 0) cy->cx.axes[i].id = id;
            else if (k == 1) cy->cx.types[i].id = id;
            else cy->cx.scopes[i].id = id;
        }
    }
    cy->cx.n_axes = cy->n_axis_defs;
    cy->cx.n_types = cy->n_type_defs;
    cy->cx.n_scopes = cy->n_scope_defs;
    return true;
}

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

/* ---------------------------------------------------------------- localisation */
typedef struct TextSrc { uint32_t doc; yaml_node_t *node; } TextSrc;

static bool add_text(CodexYaml *cy, TextSrc *src, const char *lang, const char *key, uint32_t doc, yaml_node_t *n) {
    IslandCodex *cx = &cy->cx;
    if (cx->n_texts >= ISLAND_MAX_TEXTS) return cy_fail(cy, doc, n, "more than %d localisation texts", ISLAND_MAX_TEXTS);
    IslandText *t = &cx->texts[cx->n_texts];
    t->lang = lang;
    if (!(t->key = cy_intern(cy, key)) || !cy_text(cy, doc, n, key, &t->text)) return false;
    src[cx->n_texts++] = (TextSrc){doc, n};
    return true;
}

/* A language may be spread over several files (a file adding a type names it too); each type
 * is named once per language and the serial pattern given once. */
typedef struct LangState { const char *lang; uint32_t named; bool serial; uint32_t doc; yaml_node_t *node; } LangState;
#define CY_MAX_LANGS 8

static bool parse_serial(CodexYaml *cy, uint32_t doc, yaml_node_t *se, const char *lang, TextSrc *src) {
    static const char *const serial_keys[] = {"pattern", "ordinals", NULL};
    char key[32];
    yaml_node_t *v;
    if (!cy_check_map(cy, doc, se, serial_keys, "serial") || !cy_require(cy, doc, se, "pattern", "serial", &v) ||
        !add_text(cy, src, lang, "serial_pattern", doc, v))
        return false;
    if (!strstr(cy->cx.texts[cy->cx.n_texts - 1].text, "{type}"))
        return cy_fail(cy, doc, v, "serial pattern must contain {type}");
    if (!cy_require(cy, doc, se, "ordinals", "serial", &v)) return false;
    if (v->type != YAML_SEQUENCE_NODE) return cy_fail(cy, doc, v, "ordinals must be a list of words");
    int n = 0;
    for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
        snprintf(key, sizeof key, "ordinal.%d", ++n);
        if (!add_text(cy, src, lang, key, doc, cy_node(cy, doc, *it))) return false;
    }
    return true;
}

static bool parse_locale(CodexYaml *cy, const CyDef *d, TextSrc *src, LangState *langs, uint32_t *n_langs) {
    static const char *const keys[] = {"location_types", "serial", NULL};
    static const char *const type_keys[] = {"name", "variants", NULL};
    IslandCodex *cx = &cy->cx;
    uint32_t doc = d->doc;
    const char *lang;
    char key[160];
    yaml_node_t *lt, *se, *v;
    if (!cy_id(cy, doc, d->key, "language", &lang) || !cy_check_map(cy, doc, d->value, keys, "a localisation"))
        return false;
    LangState *ls = NULL;
    for (uint32_t i = 0; i < *n_langs; i++)
        if (!strcmp(langs[i].lang, lang)) ls = &langs[i];
    if (!ls) {
        if (*n_langs >= CY_MAX_LANGS) return cy_fail(cy, doc, d->key, "more than %d languages", CY_MAX_LANGS);
        ls = &langs[(*n_langs)++];
        *ls = (LangState){.lang = lang, .doc = doc, .node = d->key};
    }
    if ((se = cy_get(cy, doc, d->value, "serial"))) {
        if (ls->serial) return cy_fail(cy, doc, se, "localisation '%s' gives its serial pattern twice", lang);
        ls->serial = true;
        if (!parse_serial(cy, doc, se, lang, src)) return false;
    }
    if (!(lt = cy_get(cy, doc, d->value, "location_types"))) return true;
    if (!cy_check_map(cy, doc, lt, NULL, "location_types")) return false;
    for (yaml_node_pair_t *p = lt->data.mapping.pairs.start; p < lt->data.mapping.pairs.top; p++) {
        yaml_node_t *k = cy_node(cy, doc, p->key), *val = cy_node(cy, doc, p->value);
        uint8_t ti;
        if (!cy_ref_type(cy, doc, k, &ti) || !cy_check_map(cy, doc, val, type_keys, "a localised location type") ||
            !cy_require(cy, doc, val, "name", "the localised location type", &v))
            return false;
        const IslandType *t = &cx->types[ti];
        if (ls->named & (1u << ti)) return cy_fail(cy, doc, k, "localisation '%s' names '%s' twice", lang, t->id);
        ls->named |= 1u << ti;
        snprintf(key, sizeof key, "type.%s", t->id);
        if (!add_text(cy, src, lang, key, doc, v)) return false;
        yaml_node_t *vars = cy_get(cy, doc, val, "variants");
        uint32_t seen = 0;
        if (vars) {
            if (!cy_check_map(cy, doc, vars, NULL, "variants")) return false;
            for (yaml_node_pair_t *q = vars->data.mapping.pairs.start; q < vars->data.mapping.pairs.top; q++) {
                yaml_node_t *vk = cy_node(cy, doc, q->key);
                uint32_t vi = 0;
                while (vi < t->n_variants && strcmp(cx->variants[t->first_variant + vi].id, cy_scalar(vk))) vi++;
                if (vi == t->n_variants)
                    return cy_fail(cy, doc, vk, "location type '%s' has no variant '%s'", t->id, cy_scalar(vk));
                snprintf(key, sizeof key, "variant.%s.%s", t->id, cy_scalar(vk));
                if (!add_text(cy, src, lang, key, doc, cy_node(cy, doc, q->value))) return false;
                seen++;
            }
        }
        if (seen != t->n_variants)
            return cy_fail(cy, doc, k, "localisation '%s' names %u of the %u variants of '%s': name them all", lang, seen,
                           t->n_variants, t->id);
    }
    return true;
}

static bool check_langs(CodexYaml *cy, const LangState *langs, uint32_t n_langs) {
    for (uint32_t l = 0; l < n_langs; l++) {
        const LangState *ls = &langs[l];
        for (uint32_t i = 0; i < cy->cx.n_types; i++)
            if (!(ls->named & (1u << i)))
                return cy_fail(cy, ls->doc, ls->node, "localisation '%s' has no name for location type '%s': add it to a localisation table",
                               ls->lang, cy->cx.types[i].id);
        if (!ls->serial)
            return cy_fail(cy, ls->doc, ls->node, "localisation '%s' has no serial: {pattern, ordinals}", ls->lang);
    }
    return true;
}

static const IslandText *g_sort_texts;
static int cmp_text_idx(const void *a, const void *b) {
    const IslandText *x = &g_sort_texts[*(const uint32_t *)a], *y = &g_sort_texts[*(const uint32_t *)b];
    int c = strcmp(x->lang, y->lang);
    return c ? c : strcmp(x->key, y->key);
}

/* Names are what the player reads: within a language, no two places may share one. */
static bool finish_texts(CodexYaml *cy, TextSrc *src) {
    IslandCodex *cx = &cy->cx;
    static uint32_t idx[ISLAND_MAX_TEXTS];
    static IslandText sorted[ISLAND_MAX_TEXTS];
    for (uint32_t i = 0; i < cx->n_texts; i++) idx[i] = i;
    for (uint32_t i = 0; i < cx->n_texts; i++) {
        const IslandText *t = &cx->texts[i];
        if (strncmp(t->key, "type.", 5) && strncmp(t->key, "variant.", 8)) continue;
        for (uint32_t j = 0; j < i; j++) {
            const IslandText *u = &cx->texts[j];
            if (strcmp(u->lang, t->lang) || strcmp(u->text, t->text) ||
                (strncmp(u->key, "type.", 5) && strncmp(u->key, "variant.", 8)))
                continue;
            return cy_fail(cy, src[i].doc, src[i].node, "display name '%s' is already used by %s (%s:%zu): names must be unique",
                           t->text, u->key, cy->docs[src[j].doc].path, src[j].node->start_mark.line + 1);
        }
    }
    g_sort_texts = cx->texts;
    qsort(idx, cx->n_texts, sizeof idx[0], cmp_text_idx);
    for (uint32_t i = 0; i < cx->n_texts; i++) sorted[i] = cx->texts[idx[i]];
    memcpy(cx->texts, sorted, sizeof(IslandText) * cx->n_texts);
    return true;
}

/* ---------------------------------------------------------------- entry points */
CodexYaml *codex_yaml_new(void) { return calloc(1, sizeof(CodexYaml)); }

static void release(CodexYaml *cy) {
    for (uint32_t i = 0; i < cy->n_docs; i++) {
        if (cy->docs[i].loaded) yaml_document_delete(&cy->docs[i].doc);
        free(cy->docs[i].path);
    }
    cy->n_docs = 0;
}

void codex_yaml_free(CodexYaml *cy) {
    if (!cy) return;
    release(cy);
    while (cy->blocks) {
        CyBlock *n = cy->blocks->next;
        free(cy->blocks);
        cy->blocks = n;
    }
    free(cy);
}

const IslandCodex *codex_yaml_codex(const CodexYaml *cy) { return &cy->cx; }

static int cmp_path(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

bool codex_yaml_load(CodexYaml *cy, const char *const *paths, size_t n_paths, SkyError *err) {
    static TextSrc src[ISLAND_MAX_TEXTS];
    CyBlock *blocks = cy->blocks;
    memset(cy, 0, sizeof *cy);
    cy->blocks = blocks;
    cy->err = err;
    if (n_paths == 0 || n_paths > CY_MAX_FILES) {
        sky_error_set(err, SKY_ERR_SOURCE, "codex: %zu files given, expected 1..%d YAML files", n_paths, CY_MAX_FILES);
        return false;
    }
    for (size_t i = 0; i < n_paths; i++) {
        if (!(cy->docs[i].path = strdup(paths[i]))) {
            sky_error_set(err, SKY_ERR_NO_MEMORY, "codex: out of memory");
            cy->n_docs = (uint32_t)i;
            release(cy);
            return false;
        }
    }
    cy->n_docs = (uint32_t)n_paths;
    for (uint32_t i = 0; i < cy->n_docs; i++) cy->docs[i].loaded = false;
    qsort(cy->docs, n_paths, sizeof cy->docs[0], cmp_path);
    bool ok = true;
    for (uint32_t i = 0; ok && i < cy->n_docs; i++) ok = load_doc(cy, i) && read_top(cy, i);
    ok = ok && register_ids(cy);
    for (uint32_t i = 0; ok && i < cy->n_axis_defs; i++) ok = parse_axis(cy, &cy->axis_defs[i], &cy->cx.axes[i]);
    ok = ok && cy_parse_types(cy) && cy_parse_scopes(cy);
    if (ok && cy->n_locale_defs == 0) {
        sky_error_set(err, SKY_ERR_SOURCE, "%s:1:1: the codex has no localisation: add a 'localisation: {en: ...}' table",
                      cy->docs[0].path);
        ok = false;
    }
    LangState langs[CY_MAX_LANGS];
    uint32_t n_langs = 0;
    for (uint32_t i = 0; ok && i < cy->n_locale_defs; i++) ok = parse_locale(cy, &cy->locale_defs[i], src, langs, &n_langs);
    ok = ok && check_langs(cy, langs, n_langs) && finish_texts(cy, src);
    release(cy);
    if (!ok) memset(&cy->cx, 0, sizeof cy->cx);
    return ok;
}
