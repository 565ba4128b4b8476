/* skyisles codex front end: the files and the top level (every file read, its entries collected,
 * ids registered so references may point forward and across files), then the definitions. */
#include "codex/codex_defs.h"

#include <stdio.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- files and top level */
static void set_input(yaml_parser_t *parser, const CyDoc *d, FILE *f) {
    if (f) yaml_parser_set_input_file(parser, f);
    else yaml_parser_set_input_string(parser, (const unsigned char *)d->text, d->len);
}

/* libyaml takes time quadratic in the nesting depth of flow collections (its scanner walks every
 * open level per token) and in the anchor count (each alias looks anchors up in a list): a few
 * hundred kilobytes stall it for seconds. Its event stream, which stops at the first excess, is
 * checked against limits far above what a codex uses before the document is loaded. */
static bool shape_ok(CodexYaml *cy, const CyDoc *d, FILE *f) {
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    set_input(&parser, d, f);
    uint32_t depth = 0, anchors = 0;
    bool ok = true, done = false;
    while (ok && !done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) break;   /* a syntax error: the load reports it */
        const yaml_char_t *anchor = ev.type == YAML_SCALAR_EVENT           ? ev.data.scalar.anchor
                                    : ev.type == YAML_SEQUENCE_START_EVENT ? ev.data.sequence_start.anchor
                                    : ev.type == YAML_MAPPING_START_EVENT  ? ev.data.mapping_start.anchor
                                                                           : NULL;
        if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) depth++;
        if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT) depth--;
        if (anchor) anchors++;
        if (depth > CY_MAX_DEPTH || anchors > CY_MAX_ANCHORS) {
            sky_error_set(cy->err, SKY_ERR_SOURCE, "%s:%zu:%zu: %s: a codex file needs far fewer", d->path,
                          ev.start_mark.line + 1, ev.start_mark.column + 1,
                          depth > CY_MAX_DEPTH ? "nested more than " CY_STR(CY_MAX_DEPTH) " levels deep"
                                               : "more than " CY_STR(CY_MAX_ANCHORS) " anchors (&name)");
            ok = false;
        }
        done = ev.type == YAML_DOCUMENT_END_EVENT || ev.type == YAML_STREAM_END_EVENT;   /* the load reads one document */
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    if (f) rewind(f);
    return ok;
}

static bool load_doc(CodexYaml *cy, uint32_t i) {
    CyDoc *d = &cy->docs[i];
    FILE *f = NULL;
    if (!d->text && !(f = fopen(d->path, "rb"))) {
        sky_error_set(cy->err, SKY_ERR_SOURCE, "%s:1:1: cannot open the file: check the path", d->path);
        return false;
    }
    if (!shape_ok(cy, d, f)) {
        if (f) fclose(f);
        return false;
    }
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    set_input(&parser, d, f);
    bool ok = yaml_parser_load(&parser, &d->doc) != 0;
    if (!ok) {
        const yaml_mark_t *m = parser.problem ? &parser.problem_mark : &parser.mark;
        sky_error_set(cy->err, SKY_ERR_SOURCE, "%s:%zu:%zu: YAML syntax error: %s%s%s", d->path, m->line + 1, m->column + 1,
                      parser.problem ? parser.problem : "unreadable", parser.context ? " " : "",
                      parser.context ? parser.context : "");
    }
    yaml_parser_delete(&parser);
    if (f) fclose(f);
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
    static const char *const keys[] = {"axes", "generation_scopes", "location_types", "localisation", "cargo",
                                       "archipelago", NULL};
    yaml_node_t *root = yaml_document_get_root_node(&cy->docs[doc].doc);
    if (!root) return cy_fail(cy, doc, NULL, "the file is empty: expected a mapping with %s", "axes, generation_scopes, location_types, localisation or cargo");
    if (!cy_check_map(cy, doc, root, keys, "the top level")) return false;
    yaml_node_t *n;
    if ((n = cy_get(cy, doc, root, "axes")) && !collect(cy, doc, n, cy->axis_defs, &cy->n_axis_defs, "axis", false)) return false;
    if ((n = cy_get(cy, doc, root, "location_types")) &&
        !collect(cy, doc, n, cy->type_defs, &cy->n_type_defs, "location type", false))
        return false;
    if ((n = cy_get(cy, doc, root, "generation_scopes")) &&
        !collect(cy, doc, n, cy->scope_defs, &cy->n_scope_defs, "generation scope", false))
        return false;
    if ((n = cy_get(cy, doc, root, "cargo")) && !collect(cy, doc, n, cy->cargo_defs, &cy->n_cargo_defs, "cargo", false))
        return false;
    if ((n = cy_get(cy, doc, root, "archipelago"))) {
        if (cy->arch_def.value)
            return cy_fail(cy, doc, cy_node(cy, doc, root->data.mapping.pairs.start->key), "a second archipelago (first at %s:%zu)",
                           cy->docs[cy->arch_def.doc].path, cy->arch_def.value->start_mark.line + 1);
        cy->arch_def = (CyDef){doc, NULL, n};
    }
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

/* Files and in-memory texts share everything from here: a source with text NULL is read from its path. */
static bool load_sources(CodexYaml *cy, const CodexSource *src, size_t n_src, SkyError *err) {
    CyBlock *blocks = cy->blocks;
    memset(cy, 0, sizeof *cy);
    cy->blocks = blocks;
    cy->err = err;
    if (n_src == 0 || n_src > CY_MAX_FILES) {
        sky_error_set(err, SKY_ERR_SOURCE, "codex: %zu files given, expected 1..%d YAML files", n_src, CY_MAX_FILES);
        return false;
    }
    for (size_t i = 0; i < n_src; i++) {
        if (!(cy->docs[i].path = strdup(src[i].name))) {
            sky_error_set(err, SKY_ERR_NO_MEMORY, "codex: out of memory");
            cy->n_docs = (uint32_t)i;
            release(cy);
            return false;
        }
        cy->docs[i].text = src[i].text;
        cy->docs[i].len = src[i].len;
    }
    cy->n_docs = (uint32_t)n_src;
    for (uint32_t i = 0; i < cy->n_docs; i++) cy->docs[i].loaded = false;
    qsort(cy->docs, n_src, sizeof cy->docs[0], cmp_path);
    bool ok = true;
    for (uint32_t i = 0; ok && i < cy->n_docs; i++) ok = load_doc(cy, i) && read_top(cy, i);
    ok = ok && register_ids(cy);
    ok = ok && cy_parse_axes(cy) && cy_parse_types(cy) && cy_parse_scopes(cy) && cy_parse_cargo(cy) && cy_parse_archipelago(cy) &&
         cy_parse_localisation(cy);
    release(cy);
    if (!ok) memset(&cy->cx, 0, sizeof cy->cx);
    return ok;
}

bool codex_yaml_load(CodexYaml *cy, const char *const *paths, size_t n_paths, SkyError *err) {
    CodexSource src[CY_MAX_FILES];
    for (size_t i = 0; i < n_paths && i < CY_MAX_FILES; i++) src[i] = (CodexSource){paths[i], NULL, 0};
    return load_sources(cy, src, n_paths, err);
}

bool codex_yaml_load_sources(CodexYaml *cy, const CodexSource *src, size_t n_src, SkyError *err) {
    CodexSource mem[CY_MAX_FILES];
    for (size_t i = 0; i < n_src && i < CY_MAX_FILES; i++)   /* text NULL would mean "a file" below */
        mem[i] = (CodexSource){src[i].name, src[i].text ? src[i].text : "", src[i].text ? src[i].len : 0};
    return load_sources(cy, mem, n_src, err);
}
