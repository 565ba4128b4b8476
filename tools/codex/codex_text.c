/* skyisles codex front end: the localisation table: names per language, serial-number patterns,
 * every language complete, texts sorted by key for the pack. */
#include "codex/codex_defs.h"

#include <stdio.h>
#include <stdlib.h>

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
typedef struct LangState { const char *lang; uint32_t named, cargo_named; bool serial; uint32_t doc; yaml_node_t *node; } LangState;
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

/* cargo: {id: name, ...}: the names of the declared cargo, each once per language. */
static bool parse_cargo_names(CodexYaml *cy, uint32_t doc, yaml_node_t *cn, LangState *ls, TextSrc *src) {
    char key[80];
    if (!cy_check_map(cy, doc, cn, NULL, "cargo names")) return false;
    for (yaml_node_pair_t *p = cn->data.mapping.pairs.start; p < cn->data.mapping.pairs.top; p++) {
        yaml_node_t *k = cy_node(cy, doc, p->key);
        int c = island_codex_find_cargo(&cy->cx, cy_scalar(k));
        if (c < 0) return cy_fail(cy, doc, k, "localisation '%s' names cargo '%s', which no file declares", ls->lang, cy_scalar(k));
        if (ls->cargo_named & (1u << c)) return cy_fail(cy, doc, k, "localisation '%s' names cargo '%s' twice", ls->lang, cy_scalar(k));
        ls->cargo_named |= 1u << c;
        snprintf(key, sizeof key, "cargo.%s", cy->cx.cargo[c].id);
        if (!add_text(cy, src, ls->lang, key, doc, cy_node(cy, doc, p->value))) return false;
    }
    return true;
}

static bool parse_locale(CodexYaml *cy, const CyDef *d, TextSrc *src, LangState *langs, uint32_t *n_langs) {
    static const char *const keys[] = {"location_types", "serial", "cargo", NULL};
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
    if ((se = cy_get(cy, doc, d->value, "cargo")) && !parse_cargo_names(cy, doc, se, ls, src)) return false;
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
        for (uint32_t i = 0; i < cy->cx.n_cargo; i++)
            if (!(ls->cargo_named & (1u << i)))
                return cy_fail(cy, ls->doc, ls->node, "localisation '%s' has no name for cargo '%s': add it under cargo:",
                               ls->lang, cy->cx.cargo[i].id);
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

bool cy_parse_localisation(CodexYaml *cy) {
    static TextSrc src[ISLAND_MAX_TEXTS];   /* the node of every text, for errors (tool side: one load at a time) */
    if (cy->n_locale_defs == 0) {
        sky_error_set(cy->err, SKY_ERR_SOURCE, "%s:1:1: the codex has no localisation: add a 'localisation: {en: ...}' table",
                      cy->docs[0].path);
        return false;
    }
    LangState langs[CY_MAX_LANGS];
    uint32_t n_langs = 0;
    for (uint32_t i = 0; i < cy->n_locale_defs; i++)
        if (!parse_locale(cy, &cy->locale_defs[i], src, langs, &n_langs)) return false;
    return check_langs(cy, langs, n_langs) && finish_texts(cy, src);
}
