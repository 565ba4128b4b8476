/* Tests for the island codex data path: YAML validation errors with file:line:column, pack
 * determinism and round trip, and corrupt packs that must fail with one clear line, never crash. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codex/codex_yaml.h"

static const char *const ASSETS[] = {
    "assets/codex/axes.yaml", "assets/codex/cargo.yaml", "assets/codex/location_types.yaml",
    "assets/codex/locale_en.yaml", "assets/codex/scopes.yaml", "assets/codex/archipelago.yaml",
};
#define N_ASSETS (sizeof ASSETS / sizeof ASSETS[0])

static IslandCodex g_cx, g_cx2;

/* The embedded default pack, copied so tests may damage it. */
static uint8_t *default_copy(size_t *len) {
    const void *d = island_pak_default(len);
    assert_non_null(d);
    assert_true(*len > ISLAND_PAK_HEADER_SIZE);
    uint8_t *c = malloc(*len);
    assert_non_null(c);
    memcpy(c, d, *len);
    return c;
}

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static void wr32(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24); }
static void reseal(uint8_t *d, size_t len) {
    uint64_t h = island_pak_checksum(d, len);
    wr32(d + 24, (uint32_t)h);
    wr32(d + 28, (uint32_t)(h >> 32));
}
/* Section table entry i: tag, offset, size, count. */
static uint8_t *sec_entry(uint8_t *d, int i) { return d + ISLAND_PAK_HEADER_SIZE + 16 * i; }
static uint8_t *sec_data(uint8_t *d, int i) { return d + rd32(sec_entry(d, i) + 4); }
enum { S_STRS, S_AXIS, S_TERM, S_TYPE, S_PREF, S_LIMT, S_PROP, S_VARI, S_SCOP, S_GUAR, S_TEXT, S_CARG, S_ARCH, S_ANML,
       S_ANMP, S_COUNT };

static void expect_fail(const uint8_t *d, size_t len, const char *needle) {
    SkyError err = {0};
    bool ok = island_pak_load(&g_cx, d, len, &err);
    if (ok || !strstr(err.msg, needle)) print_error("expected failure with '%s', got ok=%d '%s'\n", needle, ok, err.msg);
    assert_false(ok);
    assert_non_null(strstr(err.msg, needle));
    assert_null(strchr(err.msg, '\n'));   /* one line */
    assert_int_equal(g_cx.n_types, 0);    /* nothing half-decoded */
}

/* ---------------------------------------------------------------- YAML */
/* The assets and one more file; an archipelago file takes the place of the assets' one. */
static void expect_yaml_error(const char *extra, const char *expected_prefix) {
    const char *files[N_ASSETS + 1];
    size_t n = 0;
    for (size_t i = 0; i < N_ASSETS; i++)
        if (!strstr(extra, "/bad_arch_") || !strstr(ASSETS[i], "archipelago")) files[n++] = ASSETS[i];
    files[n++] = extra;
    CodexYaml *cy = codex_yaml_new();
    assert_non_null(cy);
    SkyError err = {0};
    bool ok = codex_yaml_load(cy, files, n, &err);
    if (ok || strncmp(err.msg, expected_prefix, strlen(expected_prefix)))
        print_error("expected '%s...', got ok=%d '%s'\n", expected_prefix, ok, err.msg);
    assert_false(ok);
    assert_int_equal(strncmp(err.msg, expected_prefix, strlen(expected_prefix)), 0);
    codex_yaml_free(cy);
}

static void test_yaml_syntax_error(void **state) {
    (void)state;
    expect_yaml_error("tests/data/island/syntax_error.yaml", "tests/data/island/syntax_error.yaml:7:5: YAML syntax error");
}
static void test_yaml_unknown_key(void **state) {
    (void)state;
    expect_yaml_error("tests/data/island/unknown_key.yaml",
                      "tests/data/island/unknown_key.yaml:7:30: unknown key 'tolerence' in an axis preference");
}
static void test_yaml_bad_reference(void **state) {
    (void)state;
    expect_yaml_error("tests/data/island/bad_reference.yaml",
                      "tests/data/island/bad_reference.yaml:7:7: unknown axis 'temperature'");
    expect_yaml_error("tests/data/island/bad_scope_ref.yaml",
                      "tests/data/island/bad_scope_ref.yaml:4:25: unknown generation scope 'cavern'");
}
static void test_yaml_out_of_range(void **state) {
    (void)state;
    expect_yaml_error("tests/data/island/out_of_range.yaml",
                      "tests/data/island/out_of_range.yaml:7:26: elevation.ideal (axis range) = 150 is out of range 0..100");
}
static void test_yaml_wrong_type_duplicate_unnamed(void **state) {
    (void)state;
    expect_yaml_error("tests/data/island/wrong_type.yaml",
                      "tests/data/island/wrong_type.yaml:5:16: move_cost must be a non-negative number, got 'slow'");
    expect_yaml_error("tests/data/island/duplicate_id.yaml",
                      "tests/data/island/duplicate_id.yaml:3:3: duplicate location type 'meadow' (first declared at assets/codex/location_types.yaml:");
    expect_yaml_error("tests/data/island/unnamed_type.yaml",
                      "assets/codex/locale_en.yaml:5:3: localisation 'en' has no name for location type 'tundra'");
    expect_yaml_error("tests/data/island/no_such_file.yaml", "tests/data/island/no_such_file.yaml:1:1: cannot open");
}

/* The shipped Japanese names every type and variant; a language that leaves names out fails
 * with the last one missing (the earlier ones go to stderr, a line each). */
static void test_yaml_japanese_names(void **state) {
    (void)state;
    const char *files[N_ASSETS + 1];
    for (size_t i = 0; i < N_ASSETS; i++) files[i] = ASSETS[i];
    files[N_ASSETS] = "assets/codex/locale_ja.yaml";
    CodexYaml *cy = codex_yaml_new();
    assert_non_null(cy);
    SkyError err = {0};
    if (!codex_yaml_load(cy, files, N_ASSETS + 1, &err)) fail_msg("%s", err.msg);
    codex_yaml_free(cy);
    expect_yaml_error("tests/data/island/ja_missing.yaml",
                      "tests/data/island/ja_missing.yaml:4:3: localisation 'ja' has no name for location type 'crater'");
}

/* Landmark and flora names must be in the world's tables; every type names its landmark. */
static void test_yaml_landmark_and_flora_names(void **state) {
    (void)state;
    expect_yaml_error("tests/data/island/bad_landmark.yaml",
                      "tests/data/island/bad_landmark.yaml:6:15: location type 'tundra': unknown landmark 'pagoda' "
                      "(known: hut, lighthouse, watchtower,");
    expect_yaml_error("tests/data/island/bad_flora.yaml",
                      "tests/data/island/bad_flora.yaml:7:12: location type 'tundra': unknown flora 'moss' (known: none, "
                      "temperate,");
    expect_yaml_error("tests/data/island/no_landmark.yaml", "tests/data/island/no_landmark.yaml:4:5: the location type has no 'landmark'");
}

/* Cargo names only declared location types (the refusal names the file, line, cargo and type),
 * and every language names every cargo. */
static void test_yaml_cargo_refusals(void **state) {
    (void)state;
    expect_yaml_error("tests/data/island/bad_cargo_type.yaml",
                      "tests/data/island/bad_cargo_type.yaml:5:18: cargo 'ice': unknown location type 'glacier' in to "
                      "(declared: sandy_beach, rocky_shore,");
    expect_yaml_error("tests/data/island/unnamed_cargo.yaml",
                      "assets/codex/locale_en.yaml:5:3: localisation 'en' has no name for cargo 'ice'");
}

/* The shipped cargo as the codex declares it: the examples of the design are there. */
/* The archipelago's values, each refused with its file, line, column and what to do. */
static void test_yaml_archipelago_refusals(void **state) {
    (void)state;
    expect_yaml_error("tests/data/island/bad_arch_cell.yaml",
                      "tests/data/island/bad_arch_cell.yaml:3:16: archipelago cell_meters: 2048 m holds no island of 1800 m "
                      "with its coast noise and 256 m to each edge: make it 2672 or more");
    expect_yaml_error("tests/data/island/bad_arch_range.yaml",
                      "tests/data/island/bad_arch_range.yaml:4:26: island_share_permille = 1200 is out of range 0..1000");
    expect_yaml_error("tests/data/island/bad_arch_octaves.yaml",
                      "tests/data/island/bad_arch_octaves.yaml:6:56: coast_noise octaves = 5 is out of range 1..4");
    expect_yaml_error("tests/data/island/bad_arch_few_names.yaml",
                      "tests/data/island/bad_arch_few_names.yaml:8:9: island names 'en': 6 first x 8 second words make 48 "
                      "names, fewer than the 49 cells");
    expect_yaml_error("tests/data/island/bad_arch_same_name.yaml",
                      "tests/data/island/bad_arch_same_name.yaml:8:5: island names 'en': 'Isle of Ashgrove' comes out twice");
    expect_yaml_error("tests/data/island/bad_arch_pattern.yaml",
                      "tests/data/island/bad_arch_pattern.yaml:9:19: island names 'ja': the pattern '島' must hold {name} once");
    /* Two files with an archipelago: the assets' and another. */
    const char *two[N_ASSETS + 1];
    for (size_t i = 0; i < N_ASSETS; i++) two[i] = ASSETS[i];
    two[N_ASSETS] = "tests/data/island/bad_arch_range.yaml";
    CodexYaml *cy = codex_yaml_new();
    SkyError err = {0};
    assert_false(codex_yaml_load(cy, two, N_ASSETS + 1, &err));
    assert_non_null(strstr(err.msg, "a second archipelago (first at "));
    codex_yaml_free(cy);
}

static void test_pack_cargo_content(void **state) {
    (void)state;
    size_t len;
    const void *d = island_pak_default(&len);
    SkyError err = {0};
    assert_true(island_pak_load(&g_cx, d, len, &err));
    assert_true(g_cx.n_cargo >= 3);
    const struct { const char *cargo, *from, *to; } want[] = {
        {"fish", "lakeshore", "meadow"}, {"flour", "meadow", "sandy_beach"}, {"post", "sandy_beach", "mountain_peak"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int c = island_codex_find_cargo(&g_cx, want[i].cargo);
        assert_true(c >= 0);
        assert_true(g_cx.cargo[c].from_mask & (1u << island_codex_find_type(&g_cx, want[i].from)));
        assert_true(g_cx.cargo[c].to_mask & (1u << island_codex_find_type(&g_cx, want[i].to)));
        char key[64];
        snprintf(key, sizeof key, "cargo.%s", want[i].cargo);
        assert_non_null(island_codex_text(&g_cx, "en", key));
    }
    assert_string_equal(island_codex_text(&g_cx, "en", "cargo.fish"), "Fish");
    /* Japanese: built into the game from locale_ja.yaml's cargo table, every cargo named */
    for (uint32_t c = 0; c < g_cx.n_cargo; c++) {
        char key[64];
        snprintf(key, sizeof key, "cargo.%s", g_cx.cargo[c].id);
        if (!island_codex_text(&g_cx, "ja", key)) fail_msg("no Japanese name for cargo '%s'", g_cx.cargo[c].id);
    }
    assert_string_equal(island_codex_text(&g_cx, "ja", "cargo.post"), "郵便");
    assert_int_equal(island_codex_find_cargo(&g_cx, "gold"), -1);
}

/* Shapes libyaml or the checks would take quadratic time over are refused at the limit, with
 * the position, before the time is spent. */
static void expect_text_error(const char *text, const char *expected) {
    CodexYaml *cy = codex_yaml_new();
    assert_non_null(cy);
    SkyError err = {0};
    const CodexSource src = {"shape.yaml", text, strlen(text)};
    assert_false(codex_yaml_load_sources(cy, &src, 1, &err));
    if (!strstr(err.msg, expected)) print_error("expected '%s', got '%s'\n", expected, err.msg);
    assert_non_null(strstr(err.msg, expected));
    codex_yaml_free(cy);
}

static void test_yaml_input_shape_limits(void **state) {
    (void)state;
    static char text[64 * 1024];
    size_t n = (size_t)snprintf(text, sizeof text, "axes: ");
    for (int i = 0; i < 40; i++) text[n++] = '[';
    for (int i = 0; i < 40; i++) text[n++] = ']';
    text[n] = 0;
    expect_text_error(text, "shape.yaml:1:38: nested more than 32 levels deep");
    n = (size_t)snprintf(text, sizeof text, "axes:\n");
    for (int i = 0; i < 300; i++) n += (size_t)snprintf(text + n, sizeof text - n, "  k%d: &a%d x\n", i, i);
    expect_text_error(text, "shape.yaml:258:9: more than 256 anchors");
    n = (size_t)snprintf(text, sizeof text, "axes:\n");
    for (int i = 0; i < 1100; i++) n += (size_t)snprintf(text + n, sizeof text - n, "  k%d: 1\n", i);
    expect_text_error(text, "shape.yaml:2:3: axis: a mapping with more than 1024 keys");
}

static bool same_str(const char *a, const char *b) { return a && b && !strcmp(a, b); }

/* Every decoded field of two codices, strings by content. */
static void assert_codex_equal(const IslandCodex *a, const IslandCodex *b) {
    assert_int_equal(a->n_axes, b->n_axes);
    assert_int_equal(a->n_types, b->n_types);
    assert_int_equal(a->n_scopes, b->n_scopes);
    assert_int_equal(a->n_variants, b->n_variants);
    assert_int_equal(a->n_props, b->n_props);
    assert_int_equal(a->n_texts, b->n_texts);
    for (uint32_t i = 0; i < a->n_axes; i++) {
        const IslandAxis *x = &a->axes[i], *y = &b->axes[i];
        assert_true(same_str(x->id, y->id));
        assert_true(x->min == y->min && x->max == y->max && x->stretch == y->stretch && x->n_terms == y->n_terms);
        assert_memory_equal(x->terms, y->terms, sizeof(IslandBlendTerm) * x->n_terms);
    }
    for (uint32_t i = 0; i < a->n_types; i++) {
        const IslandType *x = &a->types[i], *y = &b->types[i];
        assert_true(same_str(x->id, y->id));
        assert_true(x->move_cost_milli == y->move_cost_milli && x->scope_mask == y->scope_mask);
        assert_true(same_str(x->landmark, y->landmark) && same_str(x->flora, y->flora));
        assert_true(x->n_prefs == y->n_prefs && x->n_limits == y->n_limits && x->n_props == y->n_props &&
                    x->first_prop == y->first_prop && x->first_variant == y->first_variant &&
                    x->n_variants == y->n_variants);
        for (uint32_t k = 0; k < x->n_prefs; k++)
            assert_true(x->prefs[k].axis == y->prefs[k].axis && x->prefs[k].ideal == y->prefs[k].ideal &&
                        x->prefs[k].tolerance == y->prefs[k].tolerance && x->prefs[k].weight == y->prefs[k].weight);
        for (uint32_t k = 0; k < x->n_limits; k++)
            assert_true(x->limits[k].axis == y->limits[k].axis && x->limits[k].min == y->limits[k].min &&
                        x->limits[k].max == y->limits[k].max);
    }
    for (uint32_t i = 0; i < a->n_props; i++)
        assert_true(same_str(a->props[i].key, b->props[i].key) && a->props[i].value == b->props[i].value);
    for (uint32_t i = 0; i < a->n_variants; i++)
        assert_true(same_str(a->variants[i].id, b->variants[i].id) && a->variants[i].first_prop == b->variants[i].first_prop &&
                    a->variants[i].n_props == b->variants[i].n_props);
    for (uint32_t i = 0; i < a->n_scopes; i++) {
        IslandScope x = a->scopes[i], y = b->scopes[i];
        assert_true(same_str(x.id, y.id));
        x.id = y.id = NULL;
        assert_memory_equal(&x, &y, sizeof x);
    }
    assert_int_equal(a->n_cargo, b->n_cargo);
    for (uint32_t i = 0; i < a->n_cargo; i++)
        assert_true(same_str(a->cargo[i].id, b->cargo[i].id) && a->cargo[i].from_mask == b->cargo[i].from_mask &&
                    a->cargo[i].to_mask == b->cargo[i].to_mask);
    assert_int_equal(a->has_archipelago, b->has_archipelago);
    const IslandArchipelago *p = &a->arch, *q = &b->arch;
    assert_true(p->cell_m == q->cell_m && p->share_permille == q->share_permille && p->diameter_min_m == q->diameter_min_m &&
                p->diameter_max_m == q->diameter_max_m && p->coast_amplitude_milli == q->coast_amplitude_milli &&
                p->coast_frequency_milli == q->coast_frequency_milli && p->coast_octaves == q->coast_octaves);
    assert_true(p->n_langs == q->n_langs && p->n_parts == q->n_parts);
    for (uint32_t i = 0; i < p->n_parts; i++) assert_true(same_str(p->parts[i], q->parts[i]));
    for (uint32_t i = 0; i < p->n_langs; i++) {
        const IslandNameLang *x = &p->langs[i], *y = &q->langs[i];
        assert_true(same_str(x->lang, y->lang) && same_str(x->pattern, y->pattern) && same_str(x->home, y->home));
        assert_true(x->first_a == y->first_a && x->n_a == y->n_a && x->first_b == y->first_b && x->n_b == y->n_b);
    }
    for (uint32_t i = 0; i < a->n_texts; i++)
        assert_true(same_str(a->texts[i].lang, b->texts[i].lang) && same_str(a->texts[i].key, b->texts[i].key) &&
                    same_str(a->texts[i].text, b->texts[i].text));
}

static void test_pack_round_trip_and_determinism(void **state) {
    (void)state;
    CodexYaml *cy = codex_yaml_new();
    SkyError err = {0};
    /* Reverse argument order: the packer sorts paths, so the bytes cannot depend on it. */
    const char *rev[N_ASSETS];
    for (size_t i = 0; i < N_ASSETS; i++) rev[i] = ASSETS[N_ASSETS - 1 - i];
    assert_true(codex_yaml_load(cy, rev, N_ASSETS, &err));
    const IslandCodex *src = codex_yaml_codex(cy);
    assert_true(src->n_axes >= 4);
    assert_true(src->n_types >= 10);
    size_t len = island_pak_write(src, NULL, 0, &err);
    assert_true(len > 0);
    uint8_t *a = malloc(len), *b = malloc(len);
    assert_int_equal(island_pak_write(src, a, len, &err), len);
    assert_int_equal(island_pak_write(src, b, len, &err), len);
    assert_memory_equal(a, b, len);
    /* The embedded pack is exactly what the packer makes of the current assets. */
    size_t dlen = 0;
    const void *def = island_pak_default(&dlen);
    assert_int_equal(dlen, len);
    assert_memory_equal(def, a, len);
    assert_true(island_pak_load(&g_cx, a, len, &err));
    assert_codex_equal(src, &g_cx);
    free(a);
    free(b);
    codex_yaml_free(cy);
}

static void test_yaml_extension_file(void **state) {
    (void)state;
    const char *files[N_ASSETS + 1];
    for (size_t i = 0; i < N_ASSETS; i++) files[i] = ASSETS[i];
    files[N_ASSETS] = "tests/data/island/extension_type.yaml";
    CodexYaml *cy = codex_yaml_new();
    SkyError err = {0};
    assert_true(codex_yaml_load(cy, files, N_ASSETS + 1, &err));
    const IslandCodex *cx = codex_yaml_codex(cy);
    int tundra = island_codex_find_type(cx, "tundra");
    assert_true(tundra >= 0);
    assert_string_equal(island_codex_text(cx, "en", "type.tundra"), "Tundra");
    assert_string_equal(island_codex_text(cx, "fr", "variant.tundra.frost"), "Toundra givrée");
    assert_string_equal(island_codex_text(cx, "fr", "type.meadow"), "Prairie");
    size_t len = island_pak_write(cx, NULL, 0, &err);
    uint8_t *buf = malloc(len);
    assert_int_equal(island_pak_write(cx, buf, len, &err), len);
    assert_true(island_pak_load(&g_cx2, buf, len, &err));
    assert_codex_equal(cx, &g_cx2);
    free(buf);
    codex_yaml_free(cy);
}

/* ---------------------------------------------------------------- corrupt packs */
static void test_pack_truncated_everywhere(void **state) {
    (void)state;
    size_t len;
    uint8_t *d = default_copy(&len);
    SkyError err = {0};
    assert_true(island_pak_load(&g_cx, d, len, &err));
    /* Every section boundary, named, then every other length too. */
    for (int s = 0; s < S_COUNT; s++) {
        size_t off = rd32(sec_entry(d, s) + 4), end = off + rd32(sec_entry(d, s) + 8);
        expect_fail(d, off, "truncated");
        if (end < len) expect_fail(d, end, "truncated");
    }
    expect_fail(d, ISLAND_PAK_HEADER_SIZE - 1, "shorter than the 48-byte header");
    expect_fail(d, 0, "shorter than");
    for (size_t n = 0; n < len; n++) {
        uint8_t *cut = malloc(n ? n : 1);   /* exact-size buffer: ASan sees any read past it */
        memcpy(cut, d, n);
        assert_false(island_pak_load(&g_cx, cut, n, &err));
        free(cut);
    }
    expect_fail(NULL, 0, "no data");
    free(d);
}

static void test_pack_checksum_and_header(void **state) {
    (void)state;
    size_t len;
    uint8_t *d = default_copy(&len);
    d[24] ^= 0x40;
    expect_fail(d, len, "checksum mismatch");
    d[24] ^= 0x40;
    /* Any single flipped bit anywhere is caught. */
    for (size_t i = 0; i < len; i++) {
        d[i] ^= 0x10;
        SkyError err = {0};
        assert_false(island_pak_load(&g_cx, d, len, &err));
        d[i] ^= 0x10;
    }
    memcpy(d, "NOTAPACK", 8);
    expect_fail(d, len, "bad magic");
    free(d);
    d = default_copy(&len);
    wr32(d + 8, 2);   /* a version-2 pack (before cargo) is refused by name, and so is a newer one */
    reseal(d, len);
    expect_fail(d, len, "format version 2, this build reads versions 3..4: rebuild the pack with this build's build/pack");
    wr32(d + 8, 5);
    reseal(d, len);
    expect_fail(d, len, "format version 5, this build reads versions 3..4");
    wr32(d + 8, 3);   /* version 3 has 12 sections, this one 15 */
    reseal(d, len);
    expect_fail(d, len, "15 sections, version 3 has 12");
    free(d);
    d = default_copy(&len);
    uint8_t *big = calloc(1, len + 4);
    memcpy(big, d, len);
    expect_fail(big, len + 4, "followed by extra bytes");
    free(big);
    free(d);
}

typedef void (*Damage)(uint8_t *d);
static void damage_and_expect(Damage fn, const char *needle) {
    size_t len;
    uint8_t *d = default_copy(&len);
    fn(d);
    reseal(d, len);
    expect_fail(d, len, needle);
    free(d);
}
static void dmg_section_offset(uint8_t *d) { wr32(sec_entry(d, S_TYPE) + 4, 0x7ffffff0u); }
static void dmg_section_size(uint8_t *d) { wr32(sec_entry(d, S_PREF) + 8, rd32(sec_entry(d, S_PREF) + 8) - 4); }
static void dmg_section_count(uint8_t *d) { wr32(sec_entry(d, S_TEXT) + 12, 0x40000001u); }
static void dmg_section_tag(uint8_t *d) { memcpy(sec_entry(d, S_AXIS), "AXES", 4); }
static void dmg_section_misaligned(uint8_t *d) { wr32(sec_entry(d, S_AXIS) + 4, rd32(sec_entry(d, S_AXIS) + 4) + 2); }
static void dmg_string_offset(uint8_t *d) { wr32(sec_data(d, S_AXIS), 0x00ffffffu); }
static void dmg_type_first_pref(uint8_t *d) { wr32(sec_data(d, S_TYPE) + 12, 0xfffffff0u); }
static void dmg_type_pref_count(uint8_t *d) { wr32(sec_data(d, S_TYPE) + 16, 200); }
static void dmg_variant_range(uint8_t *d) { wr32(sec_data(d, S_TYPE) + 40, 0x10000); }
static void dmg_type_landmark_empty(uint8_t *d) { wr32(sec_data(d, S_TYPE) + 44, 0); }
static void dmg_type_landmark_offset(uint8_t *d) { wr32(sec_data(d, S_TYPE) + 44, 0x00ffffffu); }
static void dmg_type_flora_offset(uint8_t *d) { wr32(sec_data(d, S_TYPE) + 48, 0x00ffffffu); }
static void dmg_pref_axis(uint8_t *d) { wr32(sec_data(d, S_PREF), 200); }
static void dmg_term_kind(uint8_t *d) { wr32(sec_data(d, S_TERM), 9); }
static void dmg_scope_base(uint8_t *d) { wr32(sec_data(d, S_SCOP) + 15 * 4, 99); }
static void dmg_scope_guarantee(uint8_t *d) { wr32(sec_data(d, S_SCOP) + 17 * 4, 1000); }
static void dmg_guarantee_type(uint8_t *d) { wr32(sec_data(d, S_GUAR), 77); }
static void dmg_cargo_from(uint8_t *d) { wr32(sec_data(d, S_CARG) + 4, 0); }
static void dmg_cargo_to(uint8_t *d) { wr32(sec_data(d, S_CARG) + 8, 0x80000000u); }
static void dmg_cargo_twice(uint8_t *d) { wr32(sec_data(d, S_CARG) + 12, rd32(sec_data(d, S_CARG))); }
static void dmg_arch_cell(uint8_t *d) { wr32(sec_data(d, S_ARCH), 1000); }
static void dmg_arch_share(uint8_t *d) { wr32(sec_data(d, S_ARCH) + 4, 1001); }
static void dmg_arch_diameters(uint8_t *d) { wr32(sec_data(d, S_ARCH) + 8, rd32(sec_data(d, S_ARCH) + 12) + 1); }
static void dmg_arch_too_big(uint8_t *d) { wr32(sec_data(d, S_ARCH) + 12, 9000); }
static void dmg_arch_octaves(uint8_t *d) { wr32(sec_data(d, S_ARCH) + 24, 0); }
static void dmg_arch_amplitude(uint8_t *d) { wr32(sec_data(d, S_ARCH) + 16, 401); }
static void dmg_arch_frequency(uint8_t *d) { wr32(sec_data(d, S_ARCH) + 20, 999); }
static void dmg_arch_two(uint8_t *d) { wr32(sec_entry(d, S_ARCH) + 12, 2); }
static void dmg_names_range(uint8_t *d) { wr32(sec_data(d, S_ANML) + 16, 65); }
static void dmg_names_past(uint8_t *d) { wr32(sec_data(d, S_ANML) + 20, rd32(sec_entry(d, S_ANMP) + 12) - 2); }
static void dmg_names_few(uint8_t *d) { wr32(sec_data(d, S_ANML) + 16, 3); }
static void dmg_names_pattern(uint8_t *d) { wr32(sec_data(d, S_ANML) + 4, rd32(sec_data(d, S_ANML) + 8)); }
static void dmg_names_lang_twice(uint8_t *d) { wr32(sec_data(d, S_ANML) + 28, rd32(sec_data(d, S_ANML))); }
static void dmg_names_word_empty(uint8_t *d) { wr32(sec_data(d, S_ANMP), 0); }
static void dmg_names_without_arch(uint8_t *d) {   /* name records left when the archipelago is gone */
    uint8_t *e = sec_entry(d, S_ARCH);
    wr32(e + 8, 0);
    wr32(e + 12, 0);
    /* its 28 bytes now lie between ARCH and ANML, which the loader allows (sections need not touch) */
}
static void dmg_text_order(uint8_t *d) {
    uint8_t tmp[12], *t = sec_data(d, S_TEXT);
    memcpy(tmp, t, 12);
    memcpy(t, t + 12, 12);
    memcpy(t + 12, tmp, 12);
}
static void dmg_strs_unterminated(uint8_t *d) {
    uint8_t *e = sec_entry(d, S_STRS);
    d[rd32(e + 4) + rd32(e + 8) - 1] = 'x';
}

static void test_pack_out_of_range_fields(void **state) {
    (void)state;
    damage_and_expect(dmg_section_offset, "section TYPE at offset");
    damage_and_expect(dmg_section_size, "section PREF holds");
    damage_and_expect(dmg_section_count, "section TEXT holds");
    damage_and_expect(dmg_section_tag, "expected AXIS");
    damage_and_expect(dmg_section_misaligned, "section AXIS at offset");
    damage_and_expect(dmg_string_offset, "beyond the");
    damage_and_expect(dmg_type_first_pref, "location type 0 refers to PREF records");
    damage_and_expect(dmg_type_pref_count, "location type 0 refers to PREF records");
    damage_and_expect(dmg_variant_range, "location type 0 refers to VARI records");
    damage_and_expect(dmg_type_landmark_empty, "location type landmark of type 0 has an empty id");
    damage_and_expect(dmg_type_landmark_offset, "location type landmark of type 0 names string offset");
    damage_and_expect(dmg_type_flora_offset, "location type flora of type 0 names string offset");
    damage_and_expect(dmg_pref_axis, "axis preference 0 has axis = 200");
    damage_and_expect(dmg_term_kind, "generator term 0 has kind = 9");
    damage_and_expect(dmg_scope_base, "scope 0 has base type = 99");
    damage_and_expect(dmg_scope_guarantee, "scope 0 refers to GUAR records");
    damage_and_expect(dmg_guarantee_type, "guarantee 0 has location type = 77");
    damage_and_expect(dmg_text_order, "out of order");
    damage_and_expect(dmg_cargo_from, "cargo 0 has from mask = 0");
    damage_and_expect(dmg_cargo_to, "cargo 0 has to mask = 2147483648");
    damage_and_expect(dmg_cargo_twice, "cargo 'fish' appears twice");
    damage_and_expect(dmg_strs_unterminated, "does not end with a NUL");
    damage_and_expect(dmg_arch_cell, "archipelago cell_meters: 1000 is outside 2048..65536");
    damage_and_expect(dmg_arch_share, "archipelago island_share_permille: 1001 is outside 0..1000");
    damage_and_expect(dmg_arch_diameters, "archipelago diameter_meters: min 1201, max 1200");
    damage_and_expect(dmg_arch_too_big, "archipelago cell_meters: 6144 m holds no island of 9000 m");
    damage_and_expect(dmg_arch_octaves, "archipelago coast_noise octaves: 0 is outside 1..4");
    damage_and_expect(dmg_arch_amplitude, "archipelago coast_noise amplitude");
    damage_and_expect(dmg_arch_frequency, "archipelago coast_noise frequency");
    damage_and_expect(dmg_arch_two, "section ARCH holds 28 bytes, not 2 records");
    damage_and_expect(dmg_names_range, "island-name language 0 refers to ANMP records 0..+65");
    damage_and_expect(dmg_names_past, "island-name language 0 refers to ANMP records");
    damage_and_expect(dmg_names_few, "island-name language 0 has names (first x second) = 48");
    damage_and_expect(dmg_names_pattern, "island-name language 0 has {name} in its pattern = 0");
    damage_and_expect(dmg_names_lang_twice, "island names in 'en' appear twice");
    damage_and_expect(dmg_names_word_empty, "island-name word 0 has an empty id");
    damage_and_expect(dmg_names_without_arch, "archipelago 0 has name records without it");
}

/* Random resealed damage: the loader either refuses it cleanly or yields a codex the generator
 * survives (a pack that validates must be safe to use). */
static void test_pack_random_damage(void **state) {
    (void)state;
    size_t len;
    uint8_t *d = default_copy(&len);
    static uint8_t arena_buf[1 << 20];
    static Island isl;
    Rng r;
    rng_seed(&r, 2024, 7);
    uint32_t refused = 0, accepted = 0;
    for (int it = 0; it < 600; it++) {
        uint8_t *c = malloc(len);
        memcpy(c, d, len);
        uint32_t edits = 1 + rng_below(&r, 3);
        for (uint32_t e = 0; e < edits; e++) {
            size_t pos = ISLAND_PAK_HEADER_SIZE + rng_below(&r, (uint32_t)(len - ISLAND_PAK_HEADER_SIZE));
            c[pos] = (uint8_t)rng_u32(&r);
        }
        reseal(c, len);
        SkyError err = {0};
        if (island_pak_load(&g_cx, c, len, &err)) {
            MemArena work;
            mem_arena_init_buffer(&work, arena_buf, sizeof arena_buf);
            IslandParams p = {.seed = (uint64_t)it, .scope = 0};
            island_generate(&isl, &g_cx, &p, &work, &err);
            accepted++;
        } else {
            assert_true(err.msg[0] != 0);
            refused++;
        }
        free(c);
    }
    print_message("random resealed damage: %u refused, %u accepted (values still in range)\n", refused, accepted);
    assert_true(refused > 0);
    free(d);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_yaml_syntax_error),
        cmocka_unit_test(test_yaml_unknown_key),
        cmocka_unit_test(test_yaml_bad_reference),
        cmocka_unit_test(test_yaml_out_of_range),
        cmocka_unit_test(test_yaml_wrong_type_duplicate_unnamed), cmocka_unit_test(test_yaml_japanese_names),
        cmocka_unit_test(test_yaml_landmark_and_flora_names),
        cmocka_unit_test(test_yaml_input_shape_limits),
        cmocka_unit_test(test_yaml_cargo_refusals),
        cmocka_unit_test(test_pack_cargo_content),
        cmocka_unit_test(test_yaml_archipelago_refusals),
        cmocka_unit_test(test_pack_round_trip_and_determinism),
        cmocka_unit_test(test_yaml_extension_file),
        cmocka_unit_test(test_pack_truncated_everywhere),
        cmocka_unit_test(test_pack_checksum_and_header),
        cmocka_unit_test(test_pack_out_of_range_fields),
        cmocka_unit_test(test_pack_random_damage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
