/* skyisles controller mappings as text (pure, no SDL): the lines of SDL_GAMECONTROLLERCONFIG, and
 * the database's line for a controller that has none of its own (same vendor and product). */
#ifndef SKYISLES_PAD_DB_H
#define SKYISLES_PAD_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PAD_DB_LINE_MAX 1024   /* a mapping line; longer ones are skipped */

/* Copies the line at s (up to '\n' or the end, '\r' dropped) into line, "" when it is empty or
 * longer than cap - 1; returns where the next line starts. */
const char *pad_db_next_line(const char *s, char *line, size_t cap);

/* One database line ("GUID,name,mapping...,platform:Linux,"): when it is a Linux mapping for
 * vendor/product (the GUID's little-endian fields) and better than `best` (the first such line,
 * or one whose name equals `name`), it becomes `best` (PAD_DB_LINE_MAX bytes, line ends dropped)
 * and *best_named says whether the name matched. */
void pad_db_consider(const char *line, uint16_t vendor, uint16_t product, const char *name, char *best,
                     bool *best_named);

/* `line` with its GUID replaced by guid (32 hex digits): false when it does not fit or line is
 * not a mapping line. */
bool pad_db_remap(const char *line, const char *guid, char *out, size_t n);

/* The name field of a mapping line. */
void pad_db_line_name(const char *line, char *out, size_t n);

#endif
