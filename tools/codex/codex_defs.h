/* skyisles codex front end: the definitions of a loaded codex (axes, location types, generation
 * scopes, localisation), each parsed from the entries the loader collected from every file. */
#ifndef SKYISLES_CODEX_DEFS_H
#define SKYISLES_CODEX_DEFS_H

#include "codex/codex_read.h"

bool cy_parse_axes(CodexYaml *cy);
bool cy_parse_types(CodexYaml *cy);
bool cy_parse_scopes(CodexYaml *cy);
/* Cargo (codex_cargo.c): what places have and want, by location type; after the types. */
bool cy_parse_cargo(CodexYaml *cy);
/* The archipelago (codex_arch.c): cells, islands' odds and sizes, coast noise, island names;
 * after the scopes. Absent: the codex has none. */
bool cy_parse_archipelago(CodexYaml *cy);
/* Every language's texts, checked complete against the first language, into cy->cx.texts. */
bool cy_parse_localisation(CodexYaml *cy);

#endif
