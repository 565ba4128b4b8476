/* skyisles codex front end: reads and validates the codex YAML (assets/codex, one file or many) into
 * an IslandCodex. Build-time tools and tests only (libyaml): the game and src/island never link it. */
#ifndef SKYISLES_CODEX_YAML_H
#define SKYISLES_CODEX_YAML_H

#include "island/island.h"

typedef struct CodexYaml CodexYaml;

CodexYaml *codex_yaml_new(void);   /* NULL when out of memory */
void codex_yaml_free(CodexYaml *cy);
/* Loads and validates the files as one codex (not thread-safe: tool-side, uses static scratch). Files are read in byte order of their paths, so
 * declaration order (type order, tie-breaks) does not depend on the argument order.
 * On the first defect: false, err = "file:line:column: message". */
bool codex_yaml_load(CodexYaml *cy, const char *const *paths, size_t n_paths, SkyError *err);
/* YAML text already in memory, named as its file would be (messages say name:line:column, and
 * sources are read in byte order of their names). */
typedef struct CodexSource { const char *name; const char *text; size_t len; } CodexSource;
/* codex_yaml_load on texts in memory: the same reading, checks and messages as from files (the
 * fuzzer and tests feed it without a file system round trip). The texts need only last the call. */
bool codex_yaml_load_sources(CodexYaml *cy, const CodexSource *src, size_t n_src, SkyError *err);
/* The codex after a successful load; strings live as long as cy. */
const IslandCodex *codex_yaml_codex(const CodexYaml *cy);

#endif
