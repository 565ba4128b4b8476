/* skyisles text: what the build-time text generator (tools/text/textgen.c) writes for core's
 * text.c: the Japanese rows and the glyphs of every non-ASCII character the tables use. */
#ifndef SKYISLES_CORE_TEXT_DATA_H
#define SKYISLES_CORE_TEXT_DATA_H

#include "core/core.h"

extern const char *const text_ja_rows[TEXT_COUNT];
extern const TextGlyph text_font[];       /* sorted by code point */
extern const size_t text_font_count;
typedef struct TextPair {
    const char *key, *text;
} TextPair;
extern const TextPair text_codex_ja[];    /* the codex's Japanese names, sorted by key */
extern const size_t text_codex_ja_count;

#endif
