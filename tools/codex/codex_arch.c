/* skyisles codex front end: the archipelago (cells, the odds and sizes of their islands, the
 * coast noise, the island names per language). Values are checked with file:line:column; the
 * names of every language are checked to be distinct, so no two islands of a window can share one. */
#include "codex/codex_defs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool word_list(CodexYaml *cy, uint32_t doc, yaml_node_t *map, const char *key, const char *lang,
                      uint16_t *first, uint16_t *count) {
    IslandArchipelago *a = &cy->cx.arch;
    yaml_node_t *v;
    char what[64];
    snprintf(what, sizeof what, "island names '%s'", lang);
    if (!cy_require(cy, doc, map, key, what, &v)) return false;
    size_t n = v->type == YAML_SEQUENCE_NODE ? (size_t)(v->data.sequence.items.top - v->data.sequence.items.start) : 0;
    if (n == 0 || n > ISLAND_MAX_NAME_LIST)
        return cy_fail(cy, doc, v, "island names '%s': %s must be a list of 1..%d words", lang, key, ISLAND_MAX_NAME_LIST);
    if (a->n_parts + n > ISLAND_MAX_NAME_PARTS)
        return cy_fail(cy, doc, v, "island names: more than %d words in all languages", ISLAND_MAX_NAME_PARTS);
    *first = (uint16_t)a->n_parts;
    *count = (uint16_t)n;
    for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
        snprintf(what, sizeof what, "island names '%s': a word of %s", lang, key);
        if (!cy_text(cy, doc, cy_node(cy, doc, *it), what, &a->parts[a->n_parts++])) return false;
    }
    return true;
}

/* The full name of word pair i in language l, as island_cell_name writes it. */
static void full_name(const IslandArchipelago *a, const IslandNameLang *l, uint32_t i, char *buf, size_t n) {
    const char *at = strstr(l->pattern, "{name}");
    snprintf(buf, n, "%.*s%s%s%s", (int)(at - l->pattern), l->pattern, a->parts[l->first_a + i % l->n_a],
             a->parts[l->first_b + i / l->n_a], at + 6);
}

static int cmp_str(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* Every pair's name distinct from the others and from the home island's. */
static bool names_distinct(CodexYaml *cy, uint32_t doc, yaml_node_t *at, const IslandNameLang *l) {
    const IslandArchipelago *a = &cy->cx.arch;
    uint32_t n = (uint32_t)l->n_a * l->n_b;
    char **all = calloc(n + 1u, sizeof *all);
    char *text = calloc(n + 1u, 256);
    if (!all || !text) {
        free(all);
        free(text);
        sky_error_set(cy->err, SKY_ERR_NO_MEMORY, "codex: out of memory");
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        all[i] = text + (size_t)i * 256;
        full_name(a, l, i, all[i], 256);
    }
    all[n] = text + (size_t)n * 256;
    snprintf(all[n], 256, "%s", l->home);
    qsort(all, n + 1u, sizeof *all, cmp_str);
    bool ok = true;
    for (uint32_t i = 1; ok && i <= n; i++)
        if (!strcmp(all[i - 1], all[i]))
            ok = cy_fail(cy, doc, at, "island names '%s': '%s' comes out twice (two word pairs, or a pair and the home island, "
                                      "make the same name): change a word", l->lang, all[i]);
    free(all);
    free(text);
    return ok;
}

static bool parse_names(CodexYaml *cy, uint32_t doc, yaml_node_t *names) {
    static const char *const keys[] = {"pattern", "home", "first", "second", NULL};
    IslandArchipelago *a = &cy->cx.arch;
    if (!cy_check_map(cy, doc, names, NULL, "the island names")) return false;
    size_t nl = (size_t)(names->data.mapping.pairs.top - names->data.mapping.pairs.start);
    if (nl == 0 || nl > ISLAND_MAX_NAME_LANGS)
        return cy_fail(cy, doc, names, "the island names need 1..%d languages, en first", ISLAND_MAX_NAME_LANGS);
    for (yaml_node_pair_t *p = names->data.mapping.pairs.start; p < names->data.mapping.pairs.top; p++) {
        yaml_node_t *k = cy_node(cy, doc, p->key), *v = cy_node(cy, doc, p->value), *x;
        IslandNameLang *l = &a->langs[a->n_langs];
        if (!cy_id(cy, doc, k, "an island-name language", &l->lang)) return false;
        if (a->n_langs == 0 && strcmp(l->lang, "en"))
            return cy_fail(cy, doc, k, "the island names start with en (the names of a language without its own), not '%s'", l->lang);
        char what[64];
        snprintf(what, sizeof what, "island names '%s'", l->lang);
        if (!cy_check_map(cy, doc, v, keys, what) || !cy_require(cy, doc, v, "pattern", what, &x) ||
            !cy_text(cy, doc, x, "the island-name pattern", &l->pattern))
            return false;
        const char *at = strstr(l->pattern, "{name}");
        if (!at || strstr(at + 1, "{name}"))
            return cy_fail(cy, doc, x, "island names '%s': the pattern '%s' must hold {name} once", l->lang, l->pattern);
        if (!cy_require(cy, doc, v, "home", what, &x) || !cy_text(cy, doc, x, "the home island's name", &l->home) ||
            !word_list(cy, doc, v, "first", l->lang, &l->first_a, &l->n_a) ||
            !word_list(cy, doc, v, "second", l->lang, &l->first_b, &l->n_b))
            return false;
        if ((uint32_t)l->n_a * l->n_b < ISLAND_NAME_WINDOW * ISLAND_NAME_WINDOW)
            return cy_fail(cy, doc, v, "island names '%s': %u first x %u second words make %u names, fewer than the %d cells "
                                       "of a window that never repeats one: add words", l->lang, l->n_a, l->n_b,
                           (unsigned)l->n_a * l->n_b, ISLAND_NAME_WINDOW * ISLAND_NAME_WINDOW);
        a->n_langs++;
        if (!names_distinct(cy, doc, k, l)) return false;
    }
    return true;
}

bool cy_parse_archipelago(CodexYaml *cy) {
    static const char *const keys[] = {"cell_meters", "island_share_permille", "diameter_meters", "coast_noise", "names", NULL};
    static const char *const dkeys[] = {"min", "max", NULL}, *const ckeys[] = {"amplitude", "frequency", "octaves", NULL};
    const CyDef *d = &cy->arch_def;
    if (!d->value) return true;
    IslandArchipelago *a = &cy->cx.arch;
    uint32_t doc = d->doc;
    yaml_node_t *m = d->value, *v, *x;
    int32_t i;
    if (!cy_check_map(cy, doc, m, keys, "the archipelago")) return false;
    if (!cy_require(cy, doc, m, "cell_meters", "the archipelago", &v) || !cy_int(cy, doc, v, 2048, 65536, "cell_meters", &i))
        return false;
    a->cell_m = (uint32_t)i;
    yaml_node_t *cell = v;
    if (!cy_require(cy, doc, m, "island_share_permille", "the archipelago", &v) ||
        !cy_int(cy, doc, v, 0, 1000, "island_share_permille", &i))
        return false;
    a->share_permille = (uint32_t)i;
    if (!cy_require(cy, doc, m, "diameter_meters", "the archipelago", &v) ||
        !cy_check_map(cy, doc, v, dkeys, "diameter_meters") || !cy_require(cy, doc, v, "min", "diameter_meters", &x) ||
        !cy_int(cy, doc, x, 100, 16000, "diameter_meters min", &i))
        return false;
    a->diameter_min_m = (uint32_t)i;
    if (!cy_require(cy, doc, v, "max", "diameter_meters", &x) ||
        !cy_int(cy, doc, x, a->diameter_min_m, 16000, "diameter_meters max", &i))
        return false;
    a->diameter_max_m = (uint32_t)i;
    if (!cy_require(cy, doc, m, "coast_noise", "the archipelago", &v) || !cy_check_map(cy, doc, v, ckeys, "coast_noise") ||
        !cy_require(cy, doc, v, "amplitude", "coast_noise", &x) ||
        !cy_milli(cy, doc, x, 0, 400, "coast_noise amplitude", &a->coast_amplitude_milli) ||
        !cy_require(cy, doc, v, "frequency", "coast_noise", &x) ||
        !cy_milli(cy, doc, x, 1000, 16000, "coast_noise frequency", &a->coast_frequency_milli) ||
        !cy_require(cy, doc, v, "octaves", "coast_noise", &x) || !cy_int(cy, doc, x, 1, 4, "coast_noise octaves", &i))
        return false;
    a->coast_octaves = (uint32_t)i;
    char why[160];
    const char *field = island_archipelago_check(a, &cy->cx, why, sizeof why);
    if (field) return cy_fail(cy, doc, cell, "archipelago %s: %s", field, why);
    if (!cy_require(cy, doc, m, "names", "the archipelago", &v) || !parse_names(cy, doc, v)) return false;
    cy->cx.has_archipelago = true;
    return true;
}
