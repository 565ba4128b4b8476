/* Tests for core text: every row has words in every language, TX addresses read as English and
 * turn into the current language, the language codes and the locale guess, UTF-8 decoding, line
 * breaking of Japanese (no spaces, no line starting with a stop), and the glyph table's order. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"

static void test_every_row_has_words(void **state) {
    (void)state;
    for (int l = 0; l < LANG_COUNT; l++)
        for (int i = 0; i < TEXT_COUNT; i++) {
            const char *s = text_get_lang((TextId)i, (Lang)l);
            if (!s || !s[0]) fail_msg("row %d has no %s words", i, text_lang_code((Lang)l));
        }
    assert_string_equal(text_get_lang(TEXT_MAP_TITLE, LANG_EN), "Island map");
    assert_string_equal(text_get_lang(TEXT_MAP_TITLE, LANG_JA), "島の地図");
}

static void test_tx_reads_english_and_translates(void **state) {
    (void)state;
    static const char *const row = TX(MAP_TITLE);   /* as a static table holds it */
    text_set_language(LANG_EN);
    assert_string_equal(row, "Island map");
    assert_ptr_equal(text_tr(row), row);
    assert_int_equal(text_id_of(row), TEXT_MAP_TITLE);
    text_set_language(LANG_JA);
    assert_string_equal(text_tr(row), "島の地図");
    assert_string_equal(text_get(TEXT_HUD_CRASHED), "墜落");
    /* A string outside the table, even with the same words, is left alone. */
    char copy[32];
    snprintf(copy, sizeof copy, "%s", row);
    assert_ptr_equal(text_tr(copy), copy);
    assert_int_equal(text_id_of(copy), TEXT_COUNT);
    assert_int_equal(text_id_of(row + 1), TEXT_COUNT);   /* inside a row, not its start */
    assert_ptr_equal(text_tr(NULL), NULL);
    /* Every row's English address maps back to its own id. */
    for (int i = 0; i < TEXT_COUNT; i++) assert_int_equal(text_id_of(text_get_lang((TextId)i, LANG_EN)), i);
    text_set_language(LANG_EN);
}

static void test_language_codes(void **state) {
    (void)state;
    Lang l = LANG_COUNT;
    assert_true(text_lang_parse("ja", &l));
    assert_int_equal(l, LANG_JA);
    assert_true(text_lang_parse("en", &l));
    assert_int_equal(l, LANG_EN);
    assert_false(text_lang_parse("jp", &l));
    assert_false(text_lang_parse("", &l));
    assert_false(text_lang_parse(NULL, &l));
    assert_string_equal(text_lang_code(LANG_JA), "ja");
    text_set_language((Lang)7);   /* out of range: English */
    assert_int_equal(text_language(), LANG_EN);
}

static void test_locale_guess(void **state) {
    (void)state;
    assert_int_equal(text_lang_guess(NULL, NULL, "ja_JP.UTF-8"), LANG_JA);
    assert_int_equal(text_lang_guess(NULL, NULL, "en_GB.UTF-8"), LANG_EN);
    assert_int_equal(text_lang_guess(NULL, NULL, NULL), LANG_EN);
    assert_int_equal(text_lang_guess(NULL, NULL, "C"), LANG_EN);
    /* LC_ALL over LC_MESSAGES over LANG, as setlocale reads them; an empty one does not count. */
    assert_int_equal(text_lang_guess("C", "ja_JP", "ja_JP"), LANG_EN);
    assert_int_equal(text_lang_guess("", "ja_JP.eucJP", "en_US"), LANG_JA);
    assert_int_equal(text_lang_guess("", "", "ja"), LANG_JA);
    assert_int_equal(text_lang_guess("ja_JP.UTF-8", "en_US", "en_US"), LANG_JA);
}

static void test_utf8(void **state) {
    (void)state;
    const char *p = "a\xc3\xa9\xe5\x9c\xb0\xf0\x9f\x98\x80\xff" "b";
    assert_int_equal(text_utf8_next(&p), 'a');
    assert_int_equal(text_utf8_next(&p), 0xe9);
    assert_int_equal(text_utf8_next(&p), 0x5730);
    assert_int_equal(text_utf8_next(&p), 0x1f600);
    assert_int_equal(text_utf8_next(&p), 0xfffd);   /* a stray byte: one replacement, then on */
    assert_int_equal(text_utf8_next(&p), 'b');
    assert_int_equal(*p, 0);
    const char *cut = "\xe5\x9c";   /* a sequence cut short by the end */
    assert_int_equal(text_utf8_next(&cut), 0xfffd);
    assert_true(text_cp_wide(0x3042) && text_cp_wide(0x5730) && text_cp_wide(0xff08));
    assert_false(text_cp_wide('a') || text_cp_wide(0xe9));
}

/* One unit per character: the breaking rules without a font. */
static int count_chars(const char *s, size_t n, void *ctx) {
    (void)ctx;
    int k = 0;
    for (const char *p = s; p < s + n;) {
        text_utf8_next(&p);
        k++;
    }
    return k;
}

static void test_break_japanese(void **state) {
    (void)state;
    /* No spaces: a break between any two wide characters. */
    const char *s = "島の地図を見る";
    assert_int_equal(text_break(s, 3, count_chars, NULL), strlen("島の地"));
    /* Never before a stop or a closing bracket: the line gives up a character instead. */
    const char *t = "飛行にもどる。次へ";
    size_t n = text_break(t, 6, count_chars, NULL);   /* "飛行にもどる" fits, "。" may not start the next */
    assert_int_equal(n, strlen("飛行にもど"));
    const char *u = "草原（第四）です";
    n = text_break(u, 3, count_chars, NULL);   /* not after an opening bracket */
    assert_int_equal(n, strlen("草原"));
    /* English breaks at its spaces; a text that fits is whole. */
    assert_int_equal(text_break("back to flying", 9, count_chars, NULL), strlen("back to"));
    assert_int_equal(text_break("short", 9, count_chars, NULL), 5);
    /* A word wider than the room is cut at a character, so a caller always moves on. */
    assert_int_equal(text_break("abcdefgh", 3, count_chars, NULL), 3);
    assert_int_equal(text_break("地図", 0, count_chars, NULL), strlen("地"));
    assert_int_equal(text_break("", 4, count_chars, NULL), 0);
}

static void test_glyphs_sorted_and_found(void **state) {
    (void)state;
    size_t n = text_glyph_count();
    assert_true(n > 100);   /* kana, the kanji of the tables and the codex, full-width forms */
    for (size_t i = 1; i < n; i++) assert_true(text_glyph_at(i - 1)->cp < text_glyph_at(i)->cp);
    for (size_t i = 0; i < n; i++) assert_true(text_glyph_at(i)->cp >= 0x80);   /* ASCII is the HUD's font */
    const TextGlyph *g = text_glyph_find(0x5730);   /* 地 */
    assert_non_null(g);
    int ink = 0;
    for (int y = 0; y < 8; y++) ink += __builtin_popcount(g->rows[y]);
    assert_true(ink > 10);
    assert_null(text_glyph_find('A'));
    assert_null(text_glyph_find(0x1f600));
    assert_int_equal(text_glyph_index(0x1f600), -1);
    assert_null(text_glyph_at(n));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_row_has_words),
        cmocka_unit_test(test_tx_reads_english_and_translates),
        cmocka_unit_test(test_language_codes),
        cmocka_unit_test(test_locale_guess),
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_break_japanese),
        cmocka_unit_test(test_glyphs_sorted_and_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
