/* skyisles island: the archipelago. The world is cut into square cells; each cell's island (or
 * none), its seed, centre, size and name follow from the world seed and the cell alone, by
 * integer hashing: the same on every machine and at any distance from the origin. */
#include "island/island.h"

#include <stdio.h>
#include <string.h>

#define EDGE_CLEAR_M 256    /* the least water (air) between a coast and its cell's edge */
#define HOME_SCOPE "island" /* the home island's generation scope (the game's GAME_HOME_SCOPE) */

enum { SALT_SITE = 1, SALT_SEED, SALT_DIAM, SALT_X, SALT_Z, SALT_NAME, SALT_PERM };

static uint64_t mix64(uint64_t z) {   /* splitmix64's finaliser */
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t cell_hash(uint64_t seed, int64_t x, int64_t z, uint64_t salt) {
    uint64_t h = mix64(seed ^ mix64(salt));
    h = mix64(h ^ (uint64_t)x);
    return mix64(h ^ ((uint64_t)z * 0xd6e8feb86659fd93ull));
}

/* Floor division and its non-negative remainder, for any sign. */
static int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
static int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

/* The home island's scope's diameter (the first scope's when none is called HOME_SCOPE). The
 * loader calls into this file, so it looks the scope up itself. */
static uint32_t home_diameter(const IslandCodex *cx) {
    uint32_t s = 0;
    for (uint32_t i = 0; i < cx->n_scopes; i++)
        if (cx->scopes[i].id && !strcmp(cx->scopes[i].id, HOME_SCOPE)) s = i;
    return cx->n_scopes ? cx->scopes[s].diameter_m : 0;
}

/* The farthest the coast of an island of diameter d reaches from its centre (noise included). */
static uint64_t reach_m(const IslandArchipelago *a, uint32_t d) {
    return ((uint64_t)d * (1000u + a->coast_amplitude_milli) + 1999u) / 2000u;
}

const char *island_archipelago_check(const IslandArchipelago *a, const IslandCodex *cx, char *why, size_t n) {
    const char *field = NULL;
    if (a->cell_m < 2048 || a->cell_m > 65536) {
        field = "cell_meters";
        snprintf(why, n, "%u is outside 2048..65536", a->cell_m);
    } else if (a->share_permille > 1000) {
        field = "island_share_permille";
        snprintf(why, n, "%u is outside 0..1000", a->share_permille);
    } else if (a->diameter_min_m < 100 || a->diameter_min_m > a->diameter_max_m || a->diameter_max_m > 16000) {
        field = "diameter_meters";
        snprintf(why, n, "min %u, max %u: need 100 <= min <= max <= 16000", a->diameter_min_m, a->diameter_max_m);
    } else if (a->coast_amplitude_milli > 400) {
        field = "coast_noise amplitude";
        snprintf(why, n, "%u/1000 of the radius is outside 0..0.4", a->coast_amplitude_milli);
    } else if (a->coast_frequency_milli < 1000 || a->coast_frequency_milli > 16000) {
        field = "coast_noise frequency";
        snprintf(why, n, "%u/1000 cycles per turn is outside 1..16", a->coast_frequency_milli);
    } else if (a->coast_octaves < 1 || a->coast_octaves > 4) {
        field = "coast_noise octaves";
        snprintf(why, n, "%u is outside 1..4", a->coast_octaves);
    } else {
        uint32_t d = a->diameter_max_m > home_diameter(cx) ? a->diameter_max_m : home_diameter(cx);
        uint64_t need = 2 * (reach_m(a, d) + EDGE_CLEAR_M);
        if (need > a->cell_m) {
            field = "cell_meters";
            snprintf(why, n, "%u m holds no island of %u m with its coast noise and %d m to each edge: make it %llu or more",
                     a->cell_m, d, EDGE_CLEAR_M, (unsigned long long)need);
        }
    }
    return field;
}

bool island_codex_has_archipelago(const IslandCodex *cx) { return cx->has_archipelago; }

uint32_t island_codex_cell_m(const IslandCodex *cx) { return cx->has_archipelago ? cx->arch.cell_m : ISLAND_DEFAULT_CELL_M; }

int64_t island_cell_of(const IslandCodex *cx, int64_t x_m) {
    int64_t c = island_codex_cell_m(cx);
    return floor_div(x_m + c / 2, c);
}

void island_cell_site(const IslandCodex *cx, uint64_t world_seed, int64_t cell_x, int64_t cell_z, IslandCellSite *out) {
    *out = (IslandCellSite){0};
    if (cell_x == 0 && cell_z == 0) {
        *out = (IslandCellSite){.has_island = true, .seed = world_seed, .diameter_m = home_diameter(cx)};
        return;
    }
    if (!cx->has_archipelago) return;
    const IslandArchipelago *a = &cx->arch;
    if (cell_hash(world_seed, cell_x, cell_z, SALT_SITE) % 1000u >= a->share_permille) return;
    out->has_island = true;
    out->seed = cell_hash(world_seed, cell_x, cell_z, SALT_SEED);
    out->diameter_m = a->diameter_min_m +
                      (uint32_t)(cell_hash(world_seed, cell_x, cell_z, SALT_DIAM) % (a->diameter_max_m - a->diameter_min_m + 1u));
    /* The centre moves up to `room` either way: the coast keeps EDGE_CLEAR_M to the edges. */
    int64_t room = (int64_t)(a->cell_m / 2u) - (int64_t)reach_m(a, out->diameter_m) - EDGE_CLEAR_M;
    if (room < 0) room = 0;   /* a checked codex never has it; a hand-made one gets centred islands */
    uint64_t span = (uint64_t)(2 * room + 1);
    out->centre_x_m = cell_x * (int64_t)a->cell_m + (int64_t)(cell_hash(world_seed, cell_x, cell_z, SALT_X) % span) - room;
    out->centre_z_m = cell_z * (int64_t)a->cell_m + (int64_t)(cell_hash(world_seed, cell_x, cell_z, SALT_Z) % span) - room;
}

static uint64_t gcd64(uint64_t a, uint64_t b) {
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The cell's name index in [0, n). Cells of one W x W window have distinct classes (their
 * coordinates mod W), a class owns the indices congruent to it mod W^2, and a world-seeded
 * affine bijection shuffles the indices: so no two cells of any window share one. */
static uint32_t name_index(uint64_t seed, int64_t cell_x, int64_t cell_z, uint32_t n) {
    const int64_t w = ISLAND_NAME_WINDOW;
    const uint32_t classes = ISLAND_NAME_WINDOW * ISLAND_NAME_WINDOW;
    uint32_t cls = (uint32_t)(floor_mod(cell_x, w) + w * floor_mod(cell_z, w));
    uint32_t in_class = (n - cls + classes - 1u) / classes;   /* n >= classes: at least 1 */
    uint64_t k = cell_hash(seed, floor_div(cell_x, w), floor_div(cell_z, w), SALT_NAME + (uint64_t)cls * 16u) % in_class;
    uint64_t i = cls + classes * k;
    uint64_t m = n > 1 ? 1u + cell_hash(seed, 0, 0, SALT_PERM) % (n - 1u) : 1u;
    while (gcd64(m, n) != 1) m = m % (n - 1u) + 1u;
    uint64_t c = mix64(seed ^ SALT_PERM) % n;
    return (uint32_t)((m * i + c) % n);
}

static void put(char *buf, size_t n, size_t *o, const char *s) {
    while (*s && *o + 1 < n) buf[(*o)++] = *s++;
}

void island_cell_name(const IslandCodex *cx, uint64_t world_seed, int64_t cell_x, int64_t cell_z, const char *lang,
                      char *buf, size_t n) {
    if (!n) return;
    buf[0] = 0;
    IslandCellSite site;
    island_cell_site(cx, world_seed, cell_x, cell_z, &site);
    if (!site.has_island) return;
    if (!cx->has_archipelago) {   /* only the home island, named by the game's text */
        Lang l;
        snprintf(buf, n, "%s", text_get_lang(TEXT_ISLAND_HOME_NAME, text_lang_parse(lang, &l) ? l : LANG_EN));
        return;
    }
    const IslandArchipelago *a = &cx->arch;
    const IslandNameLang *nl = &a->langs[0];
    for (uint32_t i = 0; i < a->n_langs; i++)
        if (!strcmp(a->langs[i].lang, lang)) nl = &a->langs[i];
    if (cell_x == 0 && cell_z == 0) {
        snprintf(buf, n, "%s", nl->home);
        return;
    }
    uint32_t idx = name_index(world_seed, cell_x, cell_z, (uint32_t)nl->n_a * nl->n_b);
    size_t o = 0;
    for (const char *p = nl->pattern; *p;) {
        if (!strncmp(p, "{name}", 6)) {
            put(buf, n, &o, a->parts[nl->first_a + idx % nl->n_a]);
            put(buf, n, &o, a->parts[nl->first_b + idx / nl->n_a]);
            p += 6;
        } else {
            if (o + 1 < n) buf[o++] = *p;
            p++;
        }
    }
    buf[o] = 0;
}
