/* skyisles codex front end: the reading layer every part of it builds on: the loader's state,
 * node access, and scalar and reference checks that fail with file:line:column. */
#ifndef SKYISLES_CODEX_READ_H
#define SKYISLES_CODEX_READ_H

#include "codex/codex_yaml.h"

#include <yaml.h>

#define CY_MAX_FILES 64
#define CY_MAX_DEFS 64
/* Input shape limits, far above any codex (5 levels, no anchors, a few dozen keys per mapping),
 * that keep libyaml and the checks below linear in the file size. */
#define CY_MAX_DEPTH 32
#define CY_MAX_ANCHORS 256
#define CY_MAX_MAP_KEYS 1024
#define CY_STR_(x) #x
#define CY_STR(x) CY_STR_(x)

/* One source: a file (text NULL: read from path) or YAML text in memory named path. */
typedef struct CyDoc { char *path; const char *text; size_t len; yaml_document_t doc; bool loaded; } CyDoc;
typedef struct CyDef { uint32_t doc; yaml_node_t *key, *value; } CyDef;
typedef struct CyBlock { struct CyBlock *next; size_t used; char data[]; } CyBlock;

struct CodexYaml {
    IslandCodex cx;
    CyDoc docs[CY_MAX_FILES];
    uint32_t n_docs;
    CyDef axis_defs[CY_MAX_DEFS], type_defs[CY_MAX_DEFS], scope_defs[CY_MAX_DEFS], locale_defs[CY_MAX_DEFS];
    CyDef cargo_defs[CY_MAX_DEFS];
    uint32_t n_axis_defs, n_type_defs, n_scope_defs, n_locale_defs, n_cargo_defs;
    CyDef arch_def;   /* the archipelago mapping (value NULL: none) */
    CyBlock *blocks;
    SkyError *err;
};

/* Errors: "file:line:column: message" at a node. Always returns false. */
bool cy_fail(CodexYaml *cy, uint32_t doc, const yaml_node_t *node, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
const char *cy_intern(CodexYaml *cy, const char *s);   /* NULL (and err) when out of memory */
yaml_node_t *cy_node(CodexYaml *cy, uint32_t doc, int index);
const char *cy_scalar(const yaml_node_t *n);            /* NULL unless a scalar */

/* A mapping whose keys are all scalars from `allowed` (NULL-terminated), each at most once. */
bool cy_check_map(CodexYaml *cy, uint32_t doc, yaml_node_t *node, const char *const *allowed, const char *what);
yaml_node_t *cy_get(CodexYaml *cy, uint32_t doc, yaml_node_t *map, const char *key);
bool cy_require(CodexYaml *cy, uint32_t doc, yaml_node_t *map, const char *key, const char *what, yaml_node_t **out);

bool cy_int(CodexYaml *cy, uint32_t doc, yaml_node_t *n, long lo, long hi, const char *what, int32_t *out);
/* Decimal with at most 3 fractional digits, as thousandths. */
bool cy_milli(CodexYaml *cy, uint32_t doc, yaml_node_t *n, long lo_milli, long hi_milli, const char *what,
              uint32_t *out);
bool cy_bool(CodexYaml *cy, uint32_t doc, yaml_node_t *n, const char *what, uint8_t *out);
bool cy_text(CodexYaml *cy, uint32_t doc, yaml_node_t *n, const char *what, const char **out);
/* An id: [a-z0-9_]+, used in localisation keys. */
bool cy_id(CodexYaml *cy, uint32_t doc, yaml_node_t *n, const char *what, const char **out);
/* A reference to a declared axis / type / scope: the index, or an error naming what exists. */
bool cy_ref_axis(CodexYaml *cy, uint32_t doc, yaml_node_t *n, uint8_t *out);
bool cy_ref_type(CodexYaml *cy, uint32_t doc, yaml_node_t *n, uint8_t *out);
bool cy_ref_scope(CodexYaml *cy, uint32_t doc, yaml_node_t *n, uint8_t *out);

#endif
