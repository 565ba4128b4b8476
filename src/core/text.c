/* skyisles core text: the rows in the current language, English rows by address (TX), the
 * locale guess, UTF-8 decoding, line breaking for text without spaces, and the glyph lookup. */
#include "core/text_data.h"

#include <string.h>

#define TEXT_INIT_ROW(id, en) en,
const struct TextEnglish text_english = {TEXT_ROWS(TEXT_INIT_ROW)};
#undef TEXT_INIT_ROW

#define TEXT_OFFSET_ROW(id, en) offsetof(struct TextEnglish, id),
static const size_t k_offset[TEXT_COUNT] = {TEXT_ROWS(TEXT_OFFSET_ROW)};
#undef TEXT_OFFSET_ROW

/* Read by the attract preparation thread (place names) while the title may change it: atomic. */
static int g_lang = LANG_EN;

const char *text_get_lang(TextId id, Lang lang) {
    if ((unsigned)id >= TEXT_COUNT) return "";
    if (lang == LANG_JA) return text_ja_rows[id];
    return (const char *)&text_english + k_offset[id];
}

const char *text_get(TextId id) { return text_get_lang(id, text_language()); }

TextId text_id_of(const char *s) {
    const char *base = (const char *)&text_english;
    if (!s || s < base || s >= base + sizeof text_english) return TEXT_COUNT;
    size_t off = (size_t)(s - base);
    size_t lo = 0, hi = TEXT_COUNT;   /* the offsets rise with the rows: the last one <= off */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (k_offset[mid] <= off) lo = mid;
        else hi = mid;
    }
    return k_offset[lo] == off ? (TextId)lo : TEXT_COUNT;
}

const char *text_tr(const char *s) {
    TextId id = text_id_of(s);
    return id == TEXT_COUNT ? s : text_get(id);
}

void text_set_language(Lang lang) { __atomic_store_n(&g_lang, (unsigned)lang < LANG_COUNT ? (int)lang : LANG_EN, __ATOMIC_RELAXED); }
Lang text_language(void) { return (Lang)__atomic_load_n(&g_lang, __ATOMIC_RELAXED); }

static const char *const k_codes[LANG_COUNT] = {"en", "ja"};

const char *text_lang_code(Lang lang) { return (unsigned)lang < LANG_COUNT ? k_codes[lang] : "en"; }

bool text_lang_parse(const char *code, Lang *out) {
    for (int i = 0; code && i < LANG_COUNT; i++)
        if (!strcmp(code, k_codes[i])) {
            *out = (Lang)i;
            return true;
        }
    return false;
}

Lang text_lang_guess(const char *lc_all, const char *lc_messages, const char *lang) {
    const char *v = lc_all && *lc_all ? lc_all : (lc_messages && *lc_messages ? lc_messages : lang);
    return v && !strncmp(v, "ja", 2) ? LANG_JA : LANG_EN;
}

/* ---------------------------------------------------------------- UTF-8 and breaking */
uint32_t text_utf8_next(const char **p) {
    const unsigned char *s = (const unsigned char *)*p;
    uint32_t c = s[0];
    int n = c < 0x80 ? 0 : (c >= 0xc2 && c < 0xe0) ? 1 : (c >= 0xe0 && c < 0xf0) ? 2 : (c >= 0xf0 && c < 0xf5) ? 3 : -1;
    if (n < 0) {
        *p += 1;
        return 0xfffdu;
    }
    uint32_t cp = n == 0 ? c : c & (0x3fu >> n);
    for (int i = 1; i <= n; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            *p += 1;
            return 0xfffdu;
        }
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    *p += n + 1;
    return cp;
}

bool text_cp_wide(uint32_t cp) {
    return (cp >= 0x2e80 && cp < 0xa000) || (cp >= 0xf900 && cp < 0xfb00) || (cp >= 0xff00 && cp < 0xff61) ||
           (cp >= 0xffe0 && cp < 0xffe7);
}

/* Characters a line may not start with (closing brackets, stops, small kana, the long vowel). */
static bool no_start(uint32_t cp) {
    static const uint32_t k[] = {0x3001, 0x3002, 0xff0c, 0xff0e, 0xff09, 0x300d, 0x300f, 0x3011, 0xff01, 0xff1f,
                                 0xff1a, 0x30fc, 0x30fb, 0x3005, 0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063,
                                 0x3083, 0x3085, 0x3087, 0x30a1, 0x30a3, 0x30a5, 0x30a7, 0x30a9, 0x30c3, 0x30e3,
                                 0x30e5, 0x30e7, ')', ',', '.', ':', '!', '?'};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (k[i] == cp) return true;
    return false;
}

/* Characters a line may not end with (opening brackets). */
static bool no_end(uint32_t cp) { return cp == 0xff08 || cp == 0x300c || cp == 0x300e || cp == 0x3010 || cp == '('; }

/* May a line end between a (before) and b (after)? A space is a break (the space goes). */
static bool may_break(uint32_t a, uint32_t b) {
    if (no_start(b) || no_end(a)) return false;
    return text_cp_wide(a) || text_cp_wide(b);
}

size_t text_break(const char *s, int room, int (*measure)(const char *s, size_t n, void *ctx), void *ctx) {
    size_t len = strlen(s);
    if (measure(s, len, ctx) <= room) return len;
    size_t best = 0, last_cut = 0;   /* best: the last allowed break that fits; last_cut: any char */
    uint32_t prev = 0;
    for (const char *p = s; *p;) {
        const char *at = p;
        uint32_t cp = text_utf8_next(&p);
        size_t n = (size_t)(at - s);
        if (n > 0 && (cp == ' ' || may_break(prev, cp)) && measure(s, n, ctx) <= room) best = n;
        if (measure(s, (size_t)(p - s), ctx) > room) break;
        last_cut = (size_t)(p - s);
        prev = cp;
    }
    if (best) return best;
    if (last_cut) return last_cut;
    const char *one = s;   /* not even one character fits: it goes alone, so a caller moves on */
    text_utf8_next(&one);
    return (size_t)(one - s);
}

/* ---------------------------------------------------------------- built-in codex names */
const char *text_codex(const char *lang, const char *key) {
    if (!lang || !key || strcmp(lang, "ja")) return NULL;
    size_t lo = 0, hi = text_codex_ja_count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(text_codex_ja[mid].key, key);
        if (c == 0) return text_codex_ja[mid].text;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* ---------------------------------------------------------------- glyphs */
size_t text_glyph_count(void) { return text_font_count; }
const TextGlyph *text_glyph_at(size_t i) { return i < text_font_count ? &text_font[i] : NULL; }

long text_glyph_index(uint32_t cp) {
    size_t lo = 0, hi = text_font_count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (text_font[mid].cp < cp) lo = mid + 1;
        else hi = mid;
    }
    return lo < text_font_count && text_font[lo].cp == cp ? (long)lo : -1;
}

const TextGlyph *text_glyph_find(uint32_t cp) {
    long i = text_glyph_index(cp);
    return i < 0 ? NULL : &text_font[i];
}
