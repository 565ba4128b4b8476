/* skyisles text generator (a build-machine tool): reads the Japanese rows (assets/text/ja.yaml,
 * id: string) against the row list of src/core/text_rows.h, and writes C with those rows and the
 * 8x8 glyphs, rasterised from the Misaki TrueType font, of every non-ASCII character that the
 * rows (both languages), the extra YAML files given (the codex's Japanese names) and the serial
 * numbers use. Fails with file:line: id and what is wrong when a row is missing, unknown,
 * repeated, or changes the printf conversions, or when the font lacks a character.
 *
 * The codex's Japanese names (the extra file, assets/codex/locale_ja.yaml) are written as the
 * game's built-in names (key, text), sorted by key.
 *
 * usage: textgen OUT.c FONT.ttf ja.yaml [codex_ja.yaml ...] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define STB_TRUETYPE_IMPLEMENTATION
#define STBTT_STATIC
#include <stb/stb_truetype.h>
#pragma GCC diagnostic pop

#include "core/text_rows.h"

#define ROW_ID(id, en) #id,
#define ROW_EN(id, en) en,
static const char *const k_ids[] = {TEXT_ROWS(ROW_ID)};
static const char *const k_en[] = {TEXT_ROWS(ROW_EN)};
#define N_ROWS (sizeof k_ids / sizeof k_ids[0])

/* The codex's built-in Japanese names (key, text), as island_codex_text keys them. */
#define MAX_PAIRS 512
static char *g_pair_key[MAX_PAIRS], *g_pair_text[MAX_PAIRS];
static size_t g_npairs;

/* Characters island names are numbered with (「草原（第四）」, full-width digits past ten). */
static const char k_serial[] = "第（）一二三四五六七八九十百千〇０１２３４５６７８９・";

#define MAX_CP 8192
/* The HUD atlas's room for these glyphs (src/render/hud.c: WIDE_MAX, 28 x 21 cells of 9 x 9):
 * more fails here, at build time, rather than at the game's boot. */
#define ATLAS_GLYPHS_MAX 588
static char *g_ja[N_ROWS];
static unsigned g_ja_line[N_ROWS];
static uint32_t g_cps[MAX_CP];
static char g_cp_where[MAX_CP][256];   /* where a character was first seen, for the font error */
static size_t g_ncp;
static int g_fail;

static uint32_t utf8_next(const unsigned char **p) {
    const unsigned char *s = *p;
    uint32_t c = s[0];
    int n = c < 0x80 ? 0 : c < 0xe0 ? 1 : c < 0xf0 ? 2 : 3;
    uint32_t cp = n == 0 ? c : c & (0x3fu >> n);
    for (int i = 1; i <= n && s[i]; i++) cp = cp << 6 | (s[i] & 0x3fu);
    for (int i = 0; i <= n && **p; i++) (*p)++;
    return cp;
}

static void want_chars(const char *s, const char *where) {
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        uint32_t cp = utf8_next(&p);
        if (cp < 0x80) continue;
        size_t i = 0;
        while (i < g_ncp && g_cps[i] != cp) i++;
        if (i < g_ncp) continue;
        if (g_ncp == MAX_CP) {
            fprintf(stderr, "textgen: more than %d distinct characters\n", MAX_CP);
            exit(1);
        }
        snprintf(g_cp_where[g_ncp], sizeof g_cp_where[0], "%s", where);
        g_cps[g_ncp++] = cp;
    }
}

/* The printf conversions of s, as their letters ("fs" for "%4.0f %s"); %% counts as '%'. */
static void conversions(const char *s, char *out, size_t n) {
    size_t k = 0;
    for (const char *p = s; *p; p++) {
        if (*p != '%') continue;
        p++;
        while (*p && strchr("0123456789.-+ #l", *p)) p++;
        if (!*p) break;
        if (k + 1 < n) out[k++] = *p;
    }
    out[k] = 0;
}

static long row_of(const char *id) {
    for (size_t i = 0; i < N_ROWS; i++)
        if (!strcmp(k_ids[i], id)) return (long)i;
    return -1;
}

static void take_row(const char *path, unsigned line, const char *id, const char *val) {
    long r = row_of(id);
    if (r < 0) {
        fprintf(stderr, "%s:%u: %s: not a row of src/core/text_rows.h (add it there, or remove it here)\n", path, line, id);
        g_fail = 1;
        return;
    }
    if (g_ja[r]) {
        fprintf(stderr, "%s:%u: %s: given twice (first on line %u)\n", path, line, id, g_ja_line[r]);
        g_fail = 1;
        return;
    }
    char a[32], b[32];
    conversions(k_en[r], a, sizeof a);
    conversions(val, b, sizeof b);
    if (strcmp(a, b)) {
        fprintf(stderr, "%s:%u: %s: printf conversions \"%s\" where the English has \"%s\"\n", path, line, id, b, a);
        g_fail = 1;
    }
    if (!*val) {
        fprintf(stderr, "%s:%u: %s: empty (every row needs words)\n", path, line, id);
        g_fail = 1;
    }
    g_ja[r] = strdup(val);
    g_ja_line[r] = line;
}

/* Reads a YAML file's scalars: with rows, the top-level mapping's keys and values are rows; else
 * every scalar's characters are wanted. Returns the last line. */
static unsigned read_yaml(const char *path, int rows) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open (the text tables are part of the source tree)\n", path);
        exit(1);
    }
    yaml_parser_t ps;
    yaml_parser_initialize(&ps);
    yaml_parser_set_input_file(&ps, f);
    int depth = 0, done = 0;
    char key[128] = "";
    unsigned last = 0;
    while (!done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&ps, &ev)) {
            fprintf(stderr, "%s:%zu: YAML: %s\n", path, ps.problem_mark.line + 1, ps.problem ? ps.problem : "syntax error");
            exit(1);
        }
        last = (unsigned)ev.end_mark.line + 1;
        if (ev.type == YAML_MAPPING_START_EVENT || ev.type == YAML_SEQUENCE_START_EVENT) depth++;
        if (ev.type == YAML_MAPPING_END_EVENT || ev.type == YAML_SEQUENCE_END_EVENT) depth--;
        if (ev.type == YAML_SCALAR_EVENT) {
            const char *v = (const char *)ev.data.scalar.value;
            char where[256];
            snprintf(where, sizeof where, "%s:%zu", path, ev.start_mark.line + 1);
            if (rows && depth == 1 && !key[0]) snprintf(key, sizeof key, "%s", v);
            else if (rows && depth == 1) {
                snprintf(where, sizeof where, "%s:%zu: %s", path, ev.start_mark.line + 1, key);
                take_row(path, (unsigned)ev.start_mark.line + 1, key, v);
                key[0] = 0;
            }
            want_chars(v, where);
        }
        done = ev.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&ps);
    fclose(f);
    return last;
}

static void put_string(FILE *o, const char *s);

static void add_pair(const char *key, const char *text) {
    if (g_npairs == MAX_PAIRS) {
        fprintf(stderr, "textgen: more than %d codex names\n", MAX_PAIRS);
        exit(1);
    }
    g_pair_key[g_npairs] = strdup(key);
    g_pair_text[g_npairs++] = strdup(text);
}

static yaml_node_t *map_get(yaml_document_t *d, yaml_node_t *m, const char *key) {
    if (!m || m->type != YAML_MAPPING_NODE) return NULL;
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(d, p->key);
        if (k && k->type == YAML_SCALAR_NODE && !strcmp((const char *)k->data.scalar.value, key))
            return yaml_document_get_node(d, p->value);
    }
    return NULL;
}

static const char *scalar(yaml_node_t *n) { return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL; }

/* One location type's name and its variants' ("type.meadow", "variant.meadow.raspberry"). */
static void codex_type(yaml_document_t *d, const char *tid, yaml_node_t *tv) {
    char key[160];
    snprintf(key, sizeof key, "type.%s", tid);
    if (scalar(map_get(d, tv, "name"))) add_pair(key, scalar(map_get(d, tv, "name")));
    yaml_node_t *vars = map_get(d, tv, "variants");
    if (!vars || vars->type != YAML_MAPPING_NODE) return;
    for (yaml_node_pair_t *q = vars->data.mapping.pairs.start; q < vars->data.mapping.pairs.top; q++) {
        const char *vid = scalar(yaml_document_get_node(d, q->key)), *vt = scalar(yaml_document_get_node(d, q->value));
        snprintf(key, sizeof key, "variant.%s.%s", tid, vid ? vid : "");
        if (vid && vt) add_pair(key, vt);
    }
}

/* The codex's Japanese localisation (localisation: ja: {cargo, location_types, serial}): its names become
 * the game's built-in ones; the packer checks the file against the codex (mk/text.mk). */
static void read_codex(const char *path) {
    FILE *f = fopen(path, "rb");
    yaml_parser_t ps;
    yaml_document_t d;
    yaml_parser_initialize(&ps);
    if (f) yaml_parser_set_input_file(&ps, f);
    if (!f || !yaml_parser_load(&ps, &d)) {
        fprintf(stderr, "%s: cannot read (YAML: %s)\n", path, ps.problem ? ps.problem : "no file");
        exit(1);
    }
    yaml_node_t *root = yaml_document_get_root_node(&d);
    if (!map_get(&d, root, "localisation") && map_get(&d, root, "archipelago")) {
        /* the island names: packed in every language, only their characters are needed here */
        yaml_document_delete(&d);
        yaml_parser_delete(&ps);
        fclose(f);
        return;
    }
    yaml_node_t *ja = map_get(&d, map_get(&d, root, "localisation"), "ja");
    yaml_node_t *lt = map_get(&d, ja, "location_types"), *se = map_get(&d, ja, "serial");
    if (!lt || lt->type != YAML_MAPPING_NODE || !se) {
        fprintf(stderr, "%s:1: localisation: ja: needs location_types and serial\n", path);
        exit(1);
    }
    for (yaml_node_pair_t *p = lt->data.mapping.pairs.start; p < lt->data.mapping.pairs.top; p++) {
        const char *tid = scalar(yaml_document_get_node(&d, p->key));
        if (tid) codex_type(&d, tid, yaml_document_get_node(&d, p->value));
    }
    yaml_node_t *cg = map_get(&d, ja, "cargo");   /* the job board's cargo names ("cargo.post") */
    for (yaml_node_pair_t *p = cg && cg->type == YAML_MAPPING_NODE ? cg->data.mapping.pairs.start : NULL;
         p && p < cg->data.mapping.pairs.top; p++) {
        const char *cid = scalar(yaml_document_get_node(&d, p->key)), *ct = scalar(yaml_document_get_node(&d, p->value));
        char key[160];
        snprintf(key, sizeof key, "cargo.%s", cid ? cid : "");
        if (cid && ct) add_pair(key, ct);
    }
    if (scalar(map_get(&d, se, "pattern"))) add_pair("serial_pattern", scalar(map_get(&d, se, "pattern")));
    yaml_node_t *ord = map_get(&d, se, "ordinals");
    int n = 0;
    for (yaml_node_item_t *it = ord && ord->type == YAML_SEQUENCE_NODE ? ord->data.sequence.items.start : NULL;
         it && it < ord->data.sequence.items.top; it++) {
        char key[32];
        snprintf(key, sizeof key, "ordinal.%d", ++n);
        if (scalar(yaml_document_get_node(&d, *it))) add_pair(key, scalar(yaml_document_get_node(&d, *it)));
    }
    yaml_document_delete(&d);
    yaml_parser_delete(&ps);
    fclose(f);
}

static int cmp_pair(const void *a, const void *b) { return strcmp(g_pair_key[*(const size_t *)a], g_pair_key[*(const size_t *)b]); }

static void write_pairs(FILE *o) {
    static size_t idx[MAX_PAIRS];
    for (size_t i = 0; i < g_npairs; i++) idx[i] = i;
    qsort(idx, g_npairs, sizeof idx[0], cmp_pair);
    fprintf(o, "\nconst TextPair text_codex_ja[] = {\n");
    for (size_t i = 0; i < g_npairs; i++) {
        fprintf(o, "    {\"%s\", ", g_pair_key[idx[i]]);
        put_string(o, g_pair_text[idx[i]]);
        fprintf(o, "},\n");
    }
    fprintf(o, "};\nconst size_t text_codex_ja_count = %zu;\n", g_npairs);
}

static void put_string(FILE *o, const char *s) {
    fputc('"', o);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(o, "\\%c", *p);
        else if (*p >= 0x20 && *p < 0x7f) fputc(*p, o);
        else fprintf(o, "\\%03o", *p);
    }
    fputc('"', o);
}

static int cmp_cp(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* One glyph as 8 rows of 8 bits: Misaki's outlines are whole pixels at 8 pixels to the em, the
 * ascent 6 of them, so the rasterised coverage is 0 or full and its box sits in the 8x8 cell. */
static int raster(const stbtt_fontinfo *fi, uint32_t cp, uint8_t rows[8]) {
    memset(rows, 0, 8);
    if (!stbtt_FindGlyphIndex(fi, (int)cp)) return 0;
    float sc = stbtt_ScaleForMappingEmToPixels(fi, 8.0f);
    int w = 0, h = 0, xo = 0, yo = 0;
    unsigned char *bm = stbtt_GetCodepointBitmap(fi, sc, sc, (int)cp, &w, &h, &xo, &yo);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int cx = x + xo, cy = y + yo + 6;
            if (bm[y * w + x] > 127 && cx >= 0 && cx < 8 && cy >= 0 && cy < 8) rows[cy] |= (uint8_t)(0x80u >> cx);
        }
    stbtt_FreeBitmap(bm, NULL);
    return 1;
}

static unsigned char *read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open the font (Debian: apt-get install fonts-misaki, or make deps)\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)n);
    if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) exit(1);
    fclose(f);
    return b;
}

static void write_out(const char *out, const stbtt_fontinfo *fi) {
    FILE *o = fopen(out, "w");
    if (!o) {
        fprintf(stderr, "%s: cannot write\n", out);
        exit(1);
    }
    fprintf(o, "/* Generated by tools/text/textgen.c from assets/text/ja.yaml and the Misaki font: do not edit. */\n");
    fprintf(o, "#include \"core/text_data.h\"\n\nconst char *const text_ja_rows[TEXT_COUNT] = {\n");
    for (size_t i = 0; i < N_ROWS; i++) {
        fprintf(o, "    [TEXT_%s] = ", k_ids[i]);
        put_string(o, g_ja[i]);
        fprintf(o, ",\n");
    }
    fprintf(o, "};\n\nconst TextGlyph text_font[] = {\n");
    for (size_t i = 0; i < g_ncp; i++) {
        uint8_t r[8];
        raster(fi, g_cps[i], r);
        fprintf(o, "    {0x%04xu, {0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x}},\n", g_cps[i], r[0], r[1],
                r[2], r[3], r[4], r[5], r[6], r[7]);
    }
    fprintf(o, "};\nconst size_t text_font_count = %zu;\n", g_ncp);
    write_pairs(o);
    if (fclose(o)) exit(1);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: textgen OUT.c FONT.ttf ja.yaml [extra.yaml ...]\n");
        return 2;
    }
    for (size_t i = 0; i < N_ROWS; i++) want_chars(k_en[i], "src/core/text_rows.h");
    want_chars(k_serial, "tools/text/textgen.c (serial numbers)");
    unsigned last = read_yaml(argv[3], 1);
    for (size_t i = 0; i < N_ROWS; i++)
        if (!g_ja[i]) {
            fprintf(stderr, "%s:%u: %s: missing (every row of src/core/text_rows.h needs its Japanese)\n", argv[3], last, k_ids[i]);
            g_fail = 1;
        }
    for (int a = 4; a < argc; a++) {
        read_yaml(argv[a], 0);
        read_codex(argv[a]);
    }
    unsigned char *ttf = read_all(argv[2]);
    stbtt_fontinfo fi;
    if (!stbtt_InitFont(&fi, ttf, 0)) {
        fprintf(stderr, "%s: not a TrueType font\n", argv[2]);
        return 1;
    }
    for (size_t i = 0; i < g_ncp; i++)
        if (!stbtt_FindGlyphIndex(&fi, (int)g_cps[i])) {
            fprintf(stderr, "%s: character U+%04X is not in the font %s\n", g_cp_where[i], g_cps[i], argv[2]);
            g_fail = 1;
        }
    if (g_ncp > ATLAS_GLYPHS_MAX) {
        fprintf(stderr, "%s: the text tables use %zu characters besides ASCII, the HUD atlas holds %d: use fewer kanji "
                        "or make room in src/render/hud.c (WIDE_ROW, WIDE_CELL)\n", argv[3], g_ncp, ATLAS_GLYPHS_MAX);
        g_fail = 1;
    }
    if (g_fail) return 1;
    /* Sorted for the lookup; the where-strings are only needed for the errors above. */
    qsort(g_cps, g_ncp, sizeof g_cps[0], cmp_cp);
    write_out(argv[1], &fi);
    return 0;
}
