/* Tests for the archipelago (src/island/archipelago.c): the cells' islands and names from the
 * packed codex. Determinism (a golden over 64 x 64 cells), the share of cells with an island, no
 * name twice within any 7 x 7 cells, cells at +-2^24, 2^31, 2^40 and 10^12 m (their islands baked:
 * strips and a golden of their fields), the origin's cell as
 * the home island, and a pack without the archipelago (made without the section, and as version 3). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codex/codex_yaml.h"
#include "support/emulated.h"

/* The 64 x 64 cells around the origin (sites and English names) with the shipped codex, seed 1. */
#define BLOCK_GOLDEN 0x19c4746e1ab90141ull
/* The islands nearest +-2^24, +-2^31 and +-2^40 blocks on both axes, generated and baked as the
 * world bakes them (island_field_cells of the home island's FAR_FIELD_CELLS): their decisions,
 * fields and strips. */
#define FAR_GOLDEN 0xf628b2105364bf0aull
#define FAR_FIELD_CELLS 256u   /* the game's home island's field a side (GAME_HOME_FIELD) */
#define HOME_SEED 20261129u

static IslandCodex g_cx, g_old;

static void load_default(IslandCodex *cx) {
    size_t len;
    const void *d = island_pak_default(&len);
    SkyError err = {0};
    assert_true(island_pak_load(cx, d, len, &err));
}

static uint64_t fnv(uint64_t h, const void *p, size_t n) { return hash_fnv1a64(p, n, h); }

static uint64_t site_hash(uint64_t h, const IslandCellSite *s) {
    uint8_t has = s->has_island;
    h = fnv(h, &has, 1);
    h = fnv(h, &s->seed, sizeof s->seed);
    h = fnv(h, &s->centre_x_m, sizeof s->centre_x_m);
    h = fnv(h, &s->centre_z_m, sizeof s->centre_z_m);
    return fnv(h, &s->diameter_m, sizeof s->diameter_m);
}

/* Every island sits in its cell with its coast's reach and 256 m to every edge. */
static void assert_site_in_cell(const IslandCodex *cx, int64_t i, int64_t j, const IslandCellSite *s) {
    if (!s->has_island) return;
    const IslandArchipelago *a = &cx->arch;
    int64_t c = island_codex_cell_m(cx);
    int64_t reach = ((int64_t)s->diameter_m * (1000 + a->coast_amplitude_milli) + 1999) / 2000;
    assert_true(s->diameter_m >= a->diameter_min_m && s->diameter_m <= a->diameter_max_m);
    int64_t dx = s->centre_x_m - i * c, dz = s->centre_z_m - j * c;
    if (llabs(dx) + reach + 256 > c / 2 || llabs(dz) + reach + 256 > c / 2)
        fail_msg("cell (%lld, %lld): island %lld, %lld m off the cell's centre, reach %lld", (long long)i, (long long)j,
                 (long long)dx, (long long)dz, (long long)reach);
    assert_int_equal(island_cell_of(cx, s->centre_x_m), i);
    assert_int_equal(island_cell_of(cx, s->centre_z_m), j);
}

static void test_block_golden_and_share(void **state) {
    (void)state;
    assert_true(island_codex_has_archipelago(&g_cx));
    assert_int_equal(island_codex_cell_m(&g_cx), 6144);
    uint64_t h = 0xcbf29ce484222325ull;
    char name[128];
    for (int64_t j = -32; j < 32; j++)
        for (int64_t i = -32; i < 32; i++) {
            IslandCellSite s, again;
            island_cell_site(&g_cx, 1, i, j, &s);
            island_cell_site(&g_cx, 1, i, j, &again);
            assert_memory_equal(&s, &again, sizeof s);
            assert_site_in_cell(&g_cx, i, j, &s);
            h = site_hash(h, &s);
            island_cell_name(&g_cx, 1, i, j, "en", name, sizeof name);
            assert_true(s.has_island == (name[0] != 0));
            h = fnv(h, name, strlen(name) + 1);
        }
    print_message("64 x 64 cells, seed 1: hash %016llx\n", (unsigned long long)h);
    if (h != BLOCK_GOLDEN) fail_msg("block hash %016llx, golden %016llx", (unsigned long long)h, BLOCK_GOLDEN);
    /* The share: 200 x 200 cells of three seeds, within 3 per 1000 of the codex's (sd ~1.4). */
    for (uint64_t seed = 1; seed <= 3; seed++) {
        uint32_t with = 0, n = 0;
        for (int64_t j = 1000; j < 1200; j++)
            for (int64_t i = -100; i < 100; i++, n++) {
                IslandCellSite s;
                island_cell_site(&g_cx, seed * 77, i, j, &s);
                with += s.has_island;
            }
        double permille = 1000.0 * with / n;
        print_message("seed %llu: %.1f cells with an island per 1000 (codex %u)\n", (unsigned long long)seed * 77, permille,
                      g_cx.arch.share_permille);
        assert_true(permille > g_cx.arch.share_permille - 7.0 && permille < g_cx.arch.share_permille + 7.0);
    }
}

/* No two islands within any 7 x 7 cells share a name (English or Japanese), over a 64 x 64 block
 * at the origin and one 10^12 m out; names differ across the block's windows too, mostly. */
static void names_unique_in_block(uint64_t seed, int64_t i0, int64_t j0, const char *lang, uint32_t *distinct) {
    enum { N = 64 };
    static char names[N][N][96];
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) island_cell_name(&g_cx, seed, i0 + i, j0 + j, lang, names[j][i], sizeof names[j][i]);
    uint32_t pairs = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            if (!names[j][i][0]) continue;
            for (int dj = 0; dj < ISLAND_NAME_WINDOW && j + dj < N; dj++)
                for (int di = -(ISLAND_NAME_WINDOW - 1); di < ISLAND_NAME_WINDOW; di++) {
                    if ((dj == 0 && di <= 0) || i + di < 0 || i + di >= N || !names[j + dj][i + di][0]) continue;
                    pairs++;
                    if (!strcmp(names[j][i], names[j + dj][i + di]))
                        fail_msg("'%s' at cells (%lld, %lld) and (%lld, %lld)", names[j][i], (long long)(i0 + i),
                                 (long long)(j0 + j), (long long)(i0 + i + di), (long long)(j0 + j + dj));
                }
        }
    assert_true(pairs > 10000);
    /* How many different names the whole block uses (natively: under emulation only the windows). */
    *distinct = 0;
    if (test_running_emulated()) return;
    static char *list[N * N];
    uint32_t n = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            if (names[j][i][0]) list[n++] = names[j][i];
    uint32_t d = 0;
    for (uint32_t a = 0; a < n; a++) {
        bool seen = false;
        for (uint32_t b = 0; b < a && !seen; b++) seen = !strcmp(list[a], list[b]);
        d += !seen;
    }
    *distinct = d;
    print_message("%s names, seed %llu, 64 x 64 cells from (%lld, %lld): %u islands, %u different names, %u pairs within "
                  "7 x 7 cells all different\n", lang, (unsigned long long)seed, (long long)i0, (long long)j0, n, d, pairs);
}

static void test_names_never_repeat_nearby(void **state) {
    (void)state;
    uint32_t d;
    const int64_t far = 1000000000000ll / 6144;
    names_unique_in_block(1, -32, -32, "en", &d);
    assert_true(test_running_emulated() || d > 300);   /* most of the 384 English names show up somewhere */
    names_unique_in_block(HOME_SEED, far, -far, "en", &d);
    names_unique_in_block(1, -32, -32, "ja", &d);
    assert_true(test_running_emulated() || d > 150);
    names_unique_in_block(HOME_SEED, -far, far, "ja", &d);
    char en[96], ja[96];
    island_cell_name(&g_cx, 1, 0, 0, "en", en, sizeof en);
    island_cell_name(&g_cx, 1, 0, 0, "ja", ja, sizeof ja);
    assert_string_equal(en, "Home Island");
    assert_string_equal(ja, "ふるさとの島");
    island_cell_name(&g_cx, 1, 0, 0, "fr", en, sizeof en);   /* a language without names reads as English */
    assert_string_equal(en, "Home Island");
    /* Every Japanese name's character is in the game's glyph table (the HUD draws it). */
    for (int64_t i = 1; i < 400; i++) {
        island_cell_name(&g_cx, 5, i, 3, "ja", ja, sizeof ja);
        for (const char *p = ja; *p;) {
            uint32_t cp = text_utf8_next(&p);
            if (cp >= 0x80 && !text_glyph_find(cp)) fail_msg("'%s': U+%04X has no glyph", ja, cp);
        }
    }
    /* A short buffer cuts the name and still ends it. */
    char small[6];
    island_cell_name(&g_cx, 1, 0, 0, "en", small, sizeof small);
    assert_string_equal(small, "Home ");
}

static void test_far_cells(void **state) {
    (void)state;
    const int64_t places[] = {1ll << 24, -(1ll << 24), 1ll << 31, -(1ll << 31), 1ll << 40, -(1ll << 40),
                              1000000000000ll, -1000000000000ll};
    char name[96];
    uint32_t islands = 0;
    for (size_t a = 0; a < sizeof places / sizeof places[0]; a++)
        for (size_t b = 0; b < sizeof places / sizeof places[0]; b++) {
            int64_t ci = island_cell_of(&g_cx, places[a]), cj = island_cell_of(&g_cx, places[b]);
            int64_t c = island_codex_cell_m(&g_cx);
            assert_true(places[a] >= ci * c - c / 2 && places[a] < ci * c + c / 2);
            for (int64_t dj = -2; dj <= 2; dj++)
                for (int64_t di = -2; di <= 2; di++) {
                    IslandCellSite s;
                    island_cell_site(&g_cx, HOME_SEED, ci + di, cj + dj, &s);
                    assert_site_in_cell(&g_cx, ci + di, cj + dj, &s);
                    island_cell_name(&g_cx, HOME_SEED, ci + di, cj + dj, "en", name, sizeof name);
                    assert_true(s.has_island == (strncmp(name, "Isle of ", 8) == 0 && strlen(name) > 10));
                    islands += s.has_island;
                }
        }
    print_message("cells around +-2^24, 2^31, 2^40, 10^12 m: %u islands of %u cells\n", islands, 64u * 25u);
    assert_true(islands > 400 && islands < 720);
    /* Cell of a metre, both sides of a boundary and of the origin. */
    assert_int_equal(island_cell_of(&g_cx, 3071), 0);
    assert_int_equal(island_cell_of(&g_cx, 3072), 1);
    assert_int_equal(island_cell_of(&g_cx, -3072), 0);
    assert_int_equal(island_cell_of(&g_cx, -3073), -1);
}

static uint64_t field_hash(uint64_t h, const IslandField *f) {
    size_t n = (size_t)f->size * f->size;
    h = fnv(h, f->elevation_dm, n * 2);
    h = fnv(h, f->under_dm, n * 2);
    h = fnv(h, f->water_dm, n * 2);
    h = fnv(h, f->type, n);
    h = fnv(h, f->ground_rgb, n * 3);
    h = fnv(h, f->path_bits, (size_t)f->path_stride * f->path_size);
    for (uint32_t k = 0; k < f->n_strips; k++) {
        const IslandFieldStrip *st = &f->strips[k];
        float v[11] = {st->ax, st->az, st->bx, st->bz, st->dir_x, st->dir_z, st->length_m, st->width_m, st->elev_m,
                       st->relief_m, st->yaw};
        uint8_t b[3] = {st->site, st->base, st->open};
        h = fnv(h, v, sizeof v);
        h = fnv(h, b, sizeof b);
    }
    return h;
}

/* The island nearest each of +-2^24, +-2^31 and +-2^40 blocks (the first cell with one in the
 * 5 x 5 around the place's, on the x axis and on the z axis) generates with a name, bakes as the
 * world bakes it with a base strip on its land, and gives the same bits on every platform (one
 * golden over all twelve, under qemu-aarch64 too). */
static void test_far_islands_bake_with_strips(void **state) {
    (void)state;
    static uint8_t buf[8 << 20];
    static Island isl;
    int scope = island_codex_find_scope(&g_cx, "island");
    assert_true(scope >= 0);
    const int64_t places[] = {1ll << 24, -(1ll << 24), 1ll << 31, -(1ll << 31), 1ll << 40, -(1ll << 40)};
    uint64_t h = 0xcbf29ce484222325ull;
    uint32_t baked = 0;
    for (size_t a = 0; a < 12; a++) {
        int64_t at = island_cell_of(&g_cx, places[a % 6]);
        int64_t ci = a < 6 ? at : 0, cj = a < 6 ? 0 : at;
        IslandCellSite site = {0};
        for (int64_t k = 0; k < 25 && !site.has_island; k++) island_cell_site(&g_cx, HOME_SEED, ci + k % 5 - 2, cj + k / 5 - 2, &site);
        assert_true(site.has_island);
        ci = island_cell_of(&g_cx, site.centre_x_m);
        cj = island_cell_of(&g_cx, site.centre_z_m);
        char name[96];
        island_cell_name(&g_cx, HOME_SEED, ci, cj, "en", name, sizeof name);
        assert_true(strncmp(name, "Isle of ", 8) == 0 && strlen(name) > 10);
        MemArena mem;
        SkyError err = {0};
        mem_arena_init_buffer(&mem, buf, island_field_bytes(&g_cx, (uint32_t)scope, FAR_FIELD_CELLS) + island_work_bytes());
        IslandParams p = {.seed = site.seed, .scope = (uint32_t)scope, .diameter_m = site.diameter_m};
        assert_true(island_generate(&isl, &g_cx, &p, &mem, &err));
        int64_t c = island_codex_cell_m(&g_cx);
        IslandField f;
        uint32_t cells = island_field_cells(&g_cx, (uint32_t)scope, FAR_FIELD_CELLS, site.diameter_m);
        assert_true(cells <= FAR_FIELD_CELLS);
        if (!island_bake_field(&f, &isl, &g_cx, cells, (float)(site.centre_x_m - ci * c),
                               (float)(site.centre_z_m - cj * c), &mem, &err))
            fail_msg("cell (%lld, %lld): %s", (long long)ci, (long long)cj, err.msg);
        if (f.n_strips < 1 || !f.strips[0].base) fail_msg("%s (cell %lld, %lld): no base strip", name, (long long)ci, (long long)cj);
        /* the base strip's middle is on the island's land */
        const IslandFieldStrip *st = &f.strips[0];
        assert_true(island_field_type_at(&f, (double)f.centre_x + 0.5 * (double)(st->ax + st->bx),
                                         (double)f.centre_z + 0.5 * (double)(st->az + st->bz)) != ISLAND_FIELD_OFF);
        h = fnv(h, name, strlen(name));
        uint64_t ih = island_hash(&isl);
        h = fnv(h, &ih, sizeof ih);
        h = field_hash(h, &f);
        baked++;
    }
    print_message("12 far islands (+-2^24, 2^31, 2^40 blocks), at most %u x %u cells: hash %016llx\n", FAR_FIELD_CELLS,
                  FAR_FIELD_CELLS, (unsigned long long)h);
    assert_int_equal(baked, 12);
    if (h != FAR_GOLDEN) fail_msg("far islands hash %016llx, golden %016llx", (unsigned long long)h, FAR_GOLDEN);
}

/* The origin's cell is the home island as the game makes it: the world seed, the "island" scope's
 * diameter, at the origin; the island generated from the site is the one from the seed. */
static void test_home_cell(void **state) {
    (void)state;
    static uint8_t buf[1 << 20];
    static Island a, b;
    int scope = island_codex_find_scope(&g_cx, "island");
    assert_true(scope >= 0);
    const uint64_t seeds[] = {1, 42, HOME_SEED};
    for (size_t k = 0; k < 3; k++) {
        IslandCellSite s;
        island_cell_site(&g_cx, seeds[k], 0, 0, &s);
        assert_true(s.has_island);
        assert_true(s.seed == seeds[k]);
        assert_true(s.centre_x_m == 0 && s.centre_z_m == 0);
        assert_int_equal(s.diameter_m, g_cx.scopes[scope].diameter_m);
        MemArena work;
        SkyError err = {0};
        mem_arena_init_buffer(&work, buf, sizeof buf);
        IslandParams pa = {.seed = s.seed, .scope = (uint32_t)scope}, pb = {.seed = seeds[k], .scope = (uint32_t)scope};
        assert_true(island_generate(&a, &g_cx, &pa, &work, &err));
        assert_true(island_generate(&b, &g_cx, &pb, &work, &err));
        assert_true(island_hash(&a) == island_hash(&b));
    }
}

/* No coast is a circle: on 20 islands baked as the game bakes them, the coast's distance from
 * the centre (walked out along 64 directions in the field until the first cell off the island)
 * varies: its largest is more than 1.15 times its smallest. The ring sites stand on the island,
 * each within 15% of the radius of its coast. */
static void test_coast_not_a_circle(void **state) {
    (void)state;
    static uint8_t buf[8 << 20];
    static Island isl;
    int scope = island_codex_find_scope(&g_cx, "island");
    const uint32_t size = 256;
    double ratios[20], lowest = 1e9;
    /* Under emulation 4 of the 20 (the home island's among them): the same checks. */
    for (uint64_t seed = test_running_emulated() ? 5 : 1; seed <= 20; seed += test_running_emulated() ? 5 : 1) {
        MemArena mem;
        SkyError err = {0};
        mem_arena_init_buffer(&mem, buf, sizeof buf);
        uint64_t sd = seed == 20 ? HOME_SEED : seed;
        IslandParams p = {.seed = sd, .scope = (uint32_t)scope};
        assert_true(island_generate(&isl, &g_cx, &p, &mem, &err));
        IslandField f;
        assert_true(island_bake_field(&f, &isl, &g_cx, size, 0.0f, 0.0f, &mem, &err));
        const double cell = f.cell_meters, radius = f.radius_m;
        double lo = 1e9, hi = 0.0;
        for (int k = 0; k < 64; k++) {
            double ux = cos(k * (2.0 * M_PI / 64.0)), uz = sin(k * (2.0 * M_PI / 64.0)), r = 0.0;
            for (;; r += 0.25 * cell) {
                int i = (int)floor((r * ux + radius) / cell), j = (int)floor((r * uz + radius) / cell);
                if (i < 0 || j < 0 || i >= (int)size || j >= (int)size || f.type[(size_t)j * size + (size_t)i] == ISLAND_FIELD_OFF)
                    break;
            }
            lo = r < lo ? r : lo;
            hi = r > hi ? r : hi;
        }
        ratios[seed - 1] = hi / lo;
        lowest = ratios[seed - 1] < lowest ? ratios[seed - 1] : lowest;
        if (!(hi / lo > 1.15)) fail_msg("seed %llu: coast %.1f..%.1f m from the centre, ratio %.3f", (unsigned long long)sd, lo, hi, hi / lo);
        assert_true(hi <= radius + 2.0 * cell);
        for (uint32_t k = 0; k < isl.n_ring; k++) {
            const IslandSite *st = &isl.sites[k];
            double d = sqrt((double)st->x_m * st->x_m + (double)st->z_m * st->z_m);
            double coast = island_coast_frac(&isl, st->x_m, st->z_m) * radius;
            int i = (int)floor((st->x_m + radius) / cell), j = (int)floor((st->z_m + radius) / cell);
            assert_true(f.type[(size_t)j * size + (size_t)i] != ISLAND_FIELD_OFF);
            assert_true(coast - d >= 0.0 && coast - d <= 0.15 * radius + 1.0);
        }
    }
    if (test_running_emulated()) return;
    double sorted[20];
    memcpy(sorted, ratios, sizeof sorted);
    for (int a = 1; a < 20; a++)
        for (int b = a; b > 0 && sorted[b - 1] > sorted[b]; b--) {
            double t = sorted[b];
            sorted[b] = sorted[b - 1];
            sorted[b - 1] = t;
        }
    print_message("coast radius max/min over 64 directions, 20 islands: least %.3f, median %.3f, most %.3f (home %.3f)\n",
                  lowest, 0.5 * (sorted[9] + sorted[10]), sorted[19], ratios[19]);
}

/* A cell's island is generated at its own diameter (IslandParams.diameter_m) and bakes into the
 * arena island_field_bytes says, whatever its size: the field spans it, its sites inside. */
static void test_cell_islands_at_their_size(void **state) {
    (void)state;
    static uint8_t buf[8 << 20];
    static Island isl;
    int scope = island_codex_find_scope(&g_cx, "island");
    const uint32_t size = 256;
    uint32_t done = 0, dmin = UINT32_MAX, dmax = 0, want = test_running_emulated() ? 2 : 6;
    for (int64_t i = 1; done < want && i < 200; i++) {
        IslandCellSite site;
        island_cell_site(&g_cx, HOME_SEED, i, -i, &site);
        if (!site.has_island) continue;
        MemArena mem;
        SkyError err = {0};
        mem_arena_init_buffer(&mem, buf, island_field_bytes(&g_cx, (uint32_t)scope, size) + island_work_bytes());
        IslandParams p = {.seed = site.seed, .scope = (uint32_t)scope, .diameter_m = site.diameter_m};
        assert_true(island_generate(&isl, &g_cx, &p, &mem, &err));
        assert_int_equal(isl.diameter_m, site.diameter_m);
        IslandField f;
        if (!island_bake_field(&f, &isl, &g_cx, size, (float)site.centre_x_m, (float)site.centre_z_m, &mem, &err))
            fail_msg("cell (%lld, %lld): %s", (long long)i, (long long)-i, err.msg);
        assert_float_equal(f.radius_m, 0.5f * (float)site.diameter_m, 1e-3f);
        for (uint32_t k = 0; k < isl.n_sites; k++)
            assert_true(hypot(isl.sites[k].x_m, isl.sites[k].z_m) < 0.5 * site.diameter_m);
        dmin = site.diameter_m < dmin ? site.diameter_m : dmin;
        dmax = site.diameter_m > dmax ? site.diameter_m : dmax;
        done++;
    }
    assert_int_equal(done, want);
    print_message("%u cells' islands generated and baked at %u..%u m across\n", want, dmin, dmax);
    IslandParams bad = {.seed = 1, .scope = (uint32_t)scope, .diameter_m = 5};
    MemArena mem;
    SkyError err = {0};
    mem_arena_init_buffer(&mem, buf, sizeof buf);
    assert_false(island_generate(&isl, &g_cx, &bad, &mem, &err));
    assert_non_null(strstr(err.msg, "diameter 5 m is outside 10..100000"));
}

/* A codex without the archipelago: packed without the section (version 4) and as version 3 (the
 * format before it), both load with none: the home island is the only island and keeps its name. */
static const char *const NO_ARCH[] = {
    "assets/codex/axes.yaml", "assets/codex/cargo.yaml", "assets/codex/location_types.yaml",
    "assets/codex/locale_en.yaml", "assets/codex/scopes.yaml",
};

static void expect_no_archipelago(const IslandCodex *cx) {
    assert_false(island_codex_has_archipelago(cx));
    assert_int_equal(island_codex_cell_m(cx), ISLAND_DEFAULT_CELL_M);
    IslandCellSite s;
    island_cell_site(cx, HOME_SEED, 0, 0, &s);
    assert_true(s.has_island && s.seed == HOME_SEED && s.diameter_m == 640);
    char name[64];
    island_cell_name(cx, HOME_SEED, 0, 0, "en", name, sizeof name);
    assert_string_equal(name, "Home Island");
    island_cell_name(cx, HOME_SEED, 0, 0, "ja", name, sizeof name);
    assert_string_equal(name, "ふるさとの島");
    for (int64_t i = -3; i <= 3; i++)
        for (int64_t j = 1; j <= 3; j++) {
            island_cell_site(cx, HOME_SEED, i, j, &s);
            assert_false(s.has_island);
            island_cell_name(cx, HOME_SEED, i, j, "en", name, sizeof name);
            assert_string_equal(name, "");
        }
}

static void test_pack_without_archipelago(void **state) {
    (void)state;
    CodexYaml *cy = codex_yaml_new();
    SkyError err = {0};
    assert_true(codex_yaml_load(cy, NO_ARCH, sizeof NO_ARCH / sizeof NO_ARCH[0], &err));
    size_t len = island_pak_write(codex_yaml_codex(cy), NULL, 0, &err);
    uint8_t *v4 = malloc(len);
    assert_int_equal(island_pak_write(codex_yaml_codex(cy), v4, len, &err), len);
    assert_true(island_pak_load(&g_old, v4, len, &err));
    assert_int_equal(g_old.version, 4);
    expect_no_archipelago(&g_old);
    /* Version 3: the same bytes without the three (empty) last section entries. */
    const size_t drop = 3 * 16, table = ISLAND_PAK_HEADER_SIZE + 15 * 16;
    uint8_t *v3 = malloc(len - drop);
    memcpy(v3, v4, ISLAND_PAK_HEADER_SIZE + 12 * 16);
    memcpy(v3 + ISLAND_PAK_HEADER_SIZE + 12 * 16, v4 + table, len - table);
    v3[8] = 3;
    v3[20] = 12;
    uint32_t size = (uint32_t)(len - drop);
    memcpy(v3 + 16, &size, 4);
    for (int s = 0; s < 12; s++) {
        uint8_t *e = v3 + ISLAND_PAK_HEADER_SIZE + 16 * s + 4;
        uint32_t off;
        memcpy(&off, e, 4);
        off -= (uint32_t)drop;
        memcpy(e, &off, 4);
    }
    uint64_t h = island_pak_checksum(v3, len - drop);
    memcpy(v3 + 24, &h, 8);
    assert_true(island_pak_load(&g_old, v3, len - drop, &err));
    assert_int_equal(g_old.version, 3);
    expect_no_archipelago(&g_old);
    free(v3);
    free(v4);
    codex_yaml_free(cy);
}

int main(void) {
    load_default(&g_cx);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_block_golden_and_share),
        cmocka_unit_test(test_far_islands_bake_with_strips),
        cmocka_unit_test(test_names_never_repeat_nearby),
        cmocka_unit_test(test_far_cells),
        cmocka_unit_test(test_home_cell),
        cmocka_unit_test(test_coast_not_a_circle),
        cmocka_unit_test(test_cell_islands_at_their_size),
        cmocka_unit_test(test_pack_without_archipelago),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
