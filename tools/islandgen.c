/* skyisles tool: generates islands from the codex pack and shows them: JSON of one island,
 * YAML statistics over many seeds (I14), or a PNG map with paths and names. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "island/island.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO_UNUSED
#include <stb/stb_image_write.h>
#include <stb/stb_easy_font.h>
#pragma GCC diagnostic pop

#define ISLANDGEN_MAX_STATS 1000000u   /* seeds --stats surveys at most (two doubles each) */

static IslandCodex g_cx;
static Island g_isl;
static uint8_t *g_pak_file;

static int usage(void) {
    fprintf(stderr,
            "usage: islandgen [--seed N] [--sites N] [--scope ID] [--lang L] [--pak FILE]\n"
            "                 [--json | --stats COUNT | --map FILE.png]\n"
            "  --json         the island as JSON (sites, Delaunay triangles, paths)\n"
            "  --stats COUNT  YAML statistics over seeds 1..COUNT (I14)\n"
            "  --map FILE     a PNG map: terrain by type, paths, airstrips, sites, names\n"
            "  --pak FILE     use this pack instead of the one built in\n");
    return 2;
}

static bool load_codex(const char *path) {
    SkyError err = {0};
    const void *data;
    size_t len = 0;
    if (path) {
        g_pak_file = file_read_all(path, ISLAND_PAK_MAX_BYTES, &len, &err);
        if (!g_pak_file) {
            fprintf(stderr, "islandgen: %s\n", err.msg);
            return false;
        }
        data = g_pak_file;
    } else {
        data = island_pak_default(&len);
        path = "(built-in pack)";
    }
    if (!island_pak_load(&g_cx, data, len, &err)) {
        fprintf(stderr, "islandgen: %s: %s\n", path, err.msg);
        return false;
    }
    return true;
}

static void json_str(const char *s) {
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20) printf("\\u%04x", *s);
        else putchar(*s);
    }
    putchar('"');
}

/* The island's field (256 cells, as the game bakes it) in a static arena: the strips live in it. */
static bool bake(const Island *isl, IslandField *f) {
    static uint8_t arena_buf[1 << 20];
    MemArena mem;
    mem_arena_init_buffer(&mem, arena_buf, sizeof arena_buf);
    SkyError err = {0};
    if (island_bake_field(f, isl, &g_cx, 256, 0, 0, &mem, &err)) return true;
    fprintf(stderr, "islandgen: %s\n", err.msg);
    return false;
}

/* One line per airstrip: its place, thresholds, heading, size, surface height and relief. */
static void print_strips(const Island *isl, const IslandField *f, const char *lang) {
    char name[128];
    printf("airstrips: %u\n", f->n_strips);
    for (uint32_t k = 0; k < f->n_strips; k++) {
        const IslandFieldStrip *st = &f->strips[k];
        double hd = atan2(st->dir_x, -st->dir_z) * 57.29577951308232;   /* compass: 0 = north (-z), 90 = east */
        island_site_display_name(isl, &g_cx, st->site, lang, name, sizeof name);
        printf("  strip %u%s at %s: %.0f,%.0f -> %.0f,%.0f heading %03.0f, %.0f x %.0f m, %.0f m up, relief %.1f m%s\n", k,
               st->base ? " (base)" : "", name, st->ax, st->az, st->bx, st->bz, hd < 0 ? hd + 360.0 : hd,
               st->length_m, st->width_m, st->elev_m, st->relief_m, st->open ? "" : ", ends NOT open");
    }
}

static void print_json(const Island *isl, const char *lang) {
    char id[128], name[128];
    const IslandScope *s = &g_cx.scopes[isl->scope];
    printf("{\"seed\": %llu, \"scope\": ", (unsigned long long)isl->seed);
    json_str(s->id);
    printf(", \"hash\": \"%016llx\", \"diameter_m\": %u, \"base\": %u, \"farthest\": %u, "
           "\"round_trip_minutes\": %u, \"daily_budget_minutes\": %u, \"cap_overflows\": %u, "
           "\"guarantee_fallbacks\": %u, \"fallbacks\": %u,\n \"sites\": [\n",
           (unsigned long long)island_hash(isl), s->diameter_m, isl->base, isl->farthest, isl->round_trip_minutes,
           isl->daily_budget_minutes, isl->cap_overflows, isl->guarantee_fallbacks, isl->fallbacks);
    for (uint32_t i = 0; i < isl->n_sites; i++) {
        const IslandSite *site = &isl->sites[i];
        island_site_name_id(isl, &g_cx, i, id, sizeof id);
        island_site_display_name(isl, &g_cx, i, lang, name, sizeof name);
        printf("  {\"index\": %u, \"x_m\": %.1f, \"z_m\": %.1f, \"elevation_m\": %.1f, \"ring\": %s, \"axes\": {", i,
               site->x_m, site->z_m, site->elevation_m, site->ring ? "true" : "false");
        for (uint32_t a = 0; a < g_cx.n_axes; a++) {
            printf("%s", a ? ", " : "");
            json_str(g_cx.axes[a].id);
            printf(": %d", site->axis[a]);
        }
        printf("}, \"type\": ");
        json_str(g_cx.types[site->type].id);
        printf(", \"name_id\": ");
        json_str(id);
        printf(", \"name\": ");
        json_str(name);
        printf(", \"guaranteed\": %s, \"guarantee_fallback\": %s, \"cap_overflow\": %s}%s\n",
               site->guaranteed ? "true" : "false", site->guarantee_fallback ? "true" : "false",
               site->cap_overflow ? "true" : "false", i + 1 < isl->n_sites ? "," : "");
    }
    printf(" ],\n \"triangles\": [");
    for (uint32_t t = 0; t < isl->n_tris; t++)
        printf("%s[%u, %u, %u]", t ? ", " : "", isl->tris[t].v[0], isl->tris[t].v[1], isl->tris[t].v[2]);
    printf("],\n \"paths\": [\n");
    uint32_t k = 0;
    for (uint32_t e = 0; e < isl->n_edges; e++) {
        const IslandEdge *ed = &isl->edges[e];
        if (!ed->path) continue;
        printf("  {\"a\": %u, \"b\": %u, \"length_m\": %.1f, \"minutes\": %u, \"kind\": \"%s\"}%s\n", ed->a, ed->b,
               ed->length_m, ed->minutes, ed->path == 1 ? "mst" : "detour", ++k < isl->n_paths ? "," : "");
    }
    printf(" ],\n \"strips\": [\n");
    IslandField f;
    uint32_t ns = bake(isl, &f) ? f.n_strips : 0;
    for (uint32_t k = 0; k < ns; k++) {
        const IslandFieldStrip *st = &f.strips[k];
        printf("  {\"site\": %u, \"base\": %s, \"a\": [%.1f, %.1f], \"b\": [%.1f, %.1f], \"length_m\": %.0f, "
               "\"width_m\": %.0f, \"elevation_m\": %.0f, \"relief_m\": %.1f}%s\n",
               st->site, st->base ? "true" : "false", st->ax, st->az, st->bx, st->bz, st->length_m, st->width_m,
               st->elev_m, st->relief_m, k + 1 < ns ? "," : "");
    }
    printf(" ]\n}\n");
}

/* ---------------------------------------------------------------- stats */
static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double pct(const double *sorted, uint32_t n, double p) {
    uint32_t i = (uint32_t)(p * (double)(n - 1) + 0.5);
    return sorted[i < n ? i : n - 1];
}

static int print_stats(uint32_t count, uint32_t scope, uint32_t sites) {
    static uint8_t arena_buf[1 << 20];
    MemArena work;
    mem_arena_init_buffer(&work, arena_buf, sizeof arena_buf);
    double *ms = calloc(count, sizeof *ms), *trip = calloc(count, sizeof *trip);
    uint64_t type_total[ISLAND_MAX_TYPES] = {0};
    uint32_t type_islands[ISLAND_MAX_TYPES] = {0}, type_max[ISLAND_MAX_TYPES] = {0};
    double el_min[ISLAND_MAX_TYPES], el_max[ISLAND_MAX_TYPES], el_sum[ISLAND_MAX_TYPES] = {0};
    uint32_t cap_islands = 0, cap_sites = 0, cap_excess = 0, gf_islands = 0, gf_total = 0, fb_total = 0;
    uint32_t over_budget = 0, n_min = UINT32_MAX, n_max = 0, paths_total = 0, detour_total = 0;
    uint64_t n_total = 0;
    for (uint32_t t = 0; t < ISLAND_MAX_TYPES; t++) el_min[t] = 1e9, el_max[t] = -1e9;
    if (!ms || !trip) return 1;
    for (uint32_t i = 0; i < count; i++) {
        IslandParams p = {.seed = i + 1, .scope = scope, .site_count = sites};
        SkyError err = {0};
        double t0 = time_now_ms();
        if (!island_generate(&g_isl, &g_cx, &p, &work, &err)) {
            fprintf(stderr, "islandgen: seed %u: %s\n", i + 1, err.msg);
            return 1;
        }
        ms[i] = time_now_ms() - t0;
        const Island *isl = &g_isl;
        trip[i] = isl->round_trip_minutes;
        over_budget += isl->round_trip_minutes > isl->daily_budget_minutes;
        cap_islands += isl->cap_overflows > 0;
        cap_sites += isl->cap_overflows;
        if (isl->cap_excess_max > cap_excess) cap_excess = isl->cap_excess_max;
        gf_islands += isl->guarantee_fallbacks > 0;
        gf_total += isl->guarantee_fallbacks;
        fb_total += isl->fallbacks;
        n_total += isl->n_sites;
        if (isl->n_sites < n_min) n_min = isl->n_sites;
        if (isl->n_sites > n_max) n_max = isl->n_sites;
        paths_total += isl->n_paths;
        for (uint32_t e = 0; e < isl->n_edges; e++) detour_total += isl->edges[e].path == 2;
        for (uint32_t t = 0; t < g_cx.n_types; t++) {
            type_total[t] += isl->type_count[t];
            type_islands[t] += isl->type_count[t] > 0;
            if (isl->type_count[t] > type_max[t]) type_max[t] = isl->type_count[t];
        }
        for (uint32_t s = 0; s < isl->n_sites; s++) {
            uint32_t t = isl->sites[s].type;
            double e = isl->sites[s].elevation_m;
            if (e < el_min[t]) el_min[t] = e;
            if (e > el_max[t]) el_max[t] = e;
            el_sum[t] += e;
        }
    }
    qsort(ms, count, sizeof *ms, cmp_double);
    qsort(trip, count, sizeof *trip, cmp_double);
    const IslandScope *s = &g_cx.scopes[scope];
    printf("# skyisles island statistics (islandgen --stats %u), seeds 1..%u\n", count, count);
    printf("scope: %s\nseeds: %u\npack_checksum: \"%016llx\"\n", s->id, count, (unsigned long long)g_cx.checksum);
    printf("site_count: {min: %u, max: %u, mean: %.2f}\n", n_min, n_max, (double)n_total / count);
    printf("location_type_counts:   # sites over all islands, islands having one, most on one island\n");
    for (uint32_t t = 0; t < g_cx.n_types; t++)
        printf("  %s: {sites: %llu, per_island: %.2f, islands: %u, max_on_island: %u}\n", g_cx.types[t].id,
               (unsigned long long)type_total[t], (double)type_total[t] / count, type_islands[t], type_max[t]);
    printf("site_elevation_by_location:   # metres above sea\n");
    for (uint32_t t = 0; t < g_cx.n_types; t++) {
        if (!type_total[t]) {
            printf("  %s: {sites: 0}\n", g_cx.types[t].id);
            continue;
        }
        printf("  %s: {min: %.1f, mean: %.1f, max: %.1f}\n", g_cx.types[t].id, el_min[t], el_sum[t] / type_total[t],
               el_max[t]);
    }
    printf("base_farthest_round_trip:   # minutes, walking base -> farthest location -> base\n");
    printf("  {min: %.0f, median: %.0f, p95: %.0f, max: %.0f}\n", trip[0], pct(trip, count, 0.5), pct(trip, count, 0.95),
           trip[count - 1]);
    printf("daily_budget: {outdoor_minutes: %u, gathering_minutes: %u, round_trip_minutes: %u, islands_over: %u}\n",
           s->outdoor_minutes, s->gathering_minutes, s->outdoor_minutes - s->gathering_minutes, over_budget);
    printf("paths: {per_island: %.2f, restored_detour_edges_per_island: %.2f}\n", (double)paths_total / count,
           (double)detour_total / count);
    printf("cap_overflows: {max_sites_per_type: %u, islands: %u, rate: %.4f, sites: %u, max_excess: %u}\n",
           s->max_sites_per_type, cap_islands, (double)cap_islands / count, cap_sites, cap_excess);
    printf("guarantee_fallbacks: {islands: %u, slots: %u}\n", gf_islands, gf_total);
    printf("fallback_sites: %u\n", fb_total);
    printf("generation_ms: {median: %.3f, p90: %.3f, p99: %.3f, max: %.3f}\n", pct(ms, count, 0.5),
           pct(ms, count, 0.9), pct(ms, count, 0.99), ms[count - 1]);
    free(ms);
    free(trip);
    return 0;
}

/* ---------------------------------------------------------------- map */
#define MAP 640

static const uint8_t PALETTE[16][3] = {
    {236, 214, 140}, {128, 120, 112}, {170, 110, 80}, {150, 200, 90}, {40, 120, 50}, {20, 150, 90},
    {90, 120, 100}, {170, 160, 110}, {245, 245, 250}, {200, 70, 40}, {190, 170, 90}, {80, 160, 210},
    {200, 120, 200}, {120, 80, 160}, {230, 150, 40}, {100, 100, 220},
};

static void put(uint8_t *img, int x, int y, const uint8_t *c) {
    if (x < 0 || y < 0 || x >= MAP || y >= MAP) return;
    memcpy(img + ((size_t)y * MAP + x) * 3, c, 3);
}

static void line(uint8_t *img, int x0, int y0, int x1, int y1, const uint8_t *c, int thick) {
    int dx = abs(x1 - x0), dy = -abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, e = dx + dy;
    for (;;) {
        for (int a = 0; a < thick; a++)
            for (int b = 0; b < thick; b++) put(img, x0 + a, y0 + b, c);
        if (x0 == x1 && y0 == y1) break;
        int e2 = 2 * e;
        if (e2 >= dy) e += dy, x0 += sx;
        if (e2 <= dx) e += dx, y0 += sy;
    }
}

/* One ASCII character in stb_easy_font's segments; its advance. */
static int ascii_char(uint8_t *img, int x, int y, char ch, const uint8_t *c) {
    static char buf[4096];
    char tmp[2] = {ch, 0};
    int quads = stb_easy_font_print(0, 0, tmp, NULL, buf, sizeof buf);
    for (int q = 0; q < quads; q++) {
        const float *v = (const float *)(buf + q * 64);
        int x0 = (int)v[0], y0 = (int)v[1], x1 = (int)v[8], y1 = (int)v[9];
        for (int yy = y0; yy < y1; yy++)
            for (int xx = x0; xx < x1; xx++) put(img, x + xx, y + yy, c);
    }
    return stb_easy_font_width(tmp);
}

/* Text in UTF-8: ASCII in stb_easy_font, every other character in the game's 8x8 glyphs (core's
 * table: the characters the text tables and the codex names use), '?' where it has none. */
static void text(uint8_t *img, int x, int y, const char *s, const uint8_t *c) {
    for (const char *p = s; *p;) {
        uint32_t cp = text_utf8_next(&p);
        const TextGlyph *g = cp >= 0x80 ? text_glyph_find(cp) : NULL;
        if (!g) {
            x += ascii_char(img, x, y, cp >= 32 && cp < 127 ? (char)cp : '?', c);
            continue;
        }
        for (int yy = 0; yy < 8; yy++)
            for (int xx = 0; xx < 8; xx++)
                if (g->rows[yy] & (0x80u >> xx)) put(img, x + xx, y + yy, c);
        x += 8;
    }
}

static int write_map(const Island *isl, const char *path, const char *lang) {
    static uint8_t img[MAP * MAP * 3];
    static uint8_t arena_buf[1 << 20];
    MemArena mem;
    mem_arena_init_buffer(&mem, arena_buf, sizeof arena_buf);
    IslandField f;
    SkyError err = {0};
    const uint32_t cells = 256;
    if (!island_bake_field(&f, isl, &g_cx, cells, 0, 0, &mem, &err)) {
        fprintf(stderr, "islandgen: %s\n", err.msg);
        return 1;
    }
    const int margin = 40, span = MAP - 2 * margin;
    for (int y = 0; y < MAP; y++)
        for (int x = 0; x < MAP; x++) {
            uint8_t c[3] = {30, 60, 110};
            int cx = (x - margin) * (int)cells / span, cz = (y - margin) * (int)cells / span;
            if (cx >= 0 && cz >= 0 && cx < (int)cells && cz < (int)cells) {
                size_t k = (size_t)cz * cells + (size_t)cx;
                if (f.type[k] != 255) {
                    double shade = 0.55 + 0.45 * f.elevation_dm[k] / (f.elevation_top_m * 10.0);
                    for (int i = 0; i < 3; i++) c[i] = (uint8_t)(PALETTE[f.type[k] % 16][i] * shade);
                }
            }
            put(img, x, y, c);
        }
    const double scale = span / (2.0 * f.radius_m);
#define PX(s) ((int)(margin + (isl->sites[s].x_m + f.radius_m) * scale))
#define PY(s) ((int)(margin + (isl->sites[s].z_m + f.radius_m) * scale))
    const uint8_t mst[3] = {40, 30, 20}, detour[3] = {150, 30, 30}, white[3] = {255, 255, 255}, black[3] = {0, 0, 0};
    for (uint32_t e = 0; e < isl->n_edges; e++) {
        const IslandEdge *ed = &isl->edges[e];
        if (ed->path) line(img, PX(ed->a), PY(ed->a), PX(ed->b), PY(ed->b), ed->path == 1 ? mst : detour, 2);
    }
    const uint8_t strip_rgb[3] = {235, 232, 220};
    for (uint32_t k = 0; k < f.n_strips; k++) {
        const IslandFieldStrip *st = &f.strips[k];
        line(img, (int)(margin + (st->ax + f.radius_m) * scale), (int)(margin + (st->az + f.radius_m) * scale),
             (int)(margin + (st->bx + f.radius_m) * scale), (int)(margin + (st->bz + f.radius_m) * scale), strip_rgb,
             st->base ? 4 : 3);
    }
    char name[128];
    for (uint32_t s = 0; s < isl->n_sites; s++) {
        int x = PX(s), y = PY(s);
        for (int dy = -5; dy <= 5; dy++)
            for (int dx = -5; dx <= 5; dx++)
                if (dx * dx + dy * dy <= 25)
                    put(img, x + dx, y + dy, dx * dx + dy * dy >= 16 ? black : PALETTE[isl->sites[s].type % 16]);
        if (s == isl->base) text(img, x - 3, y - 4, "B", black);
        island_site_display_name(isl, &g_cx, s, lang, name, sizeof name);
        text(img, x + 8, y - 3, name, black);
        text(img, x + 7, y - 4, name, white);
    }
    char title[160];
    snprintf(title, sizeof title, "skyisles island seed %llu: %u sites, round trip %u / %u min (B = base)",
             (unsigned long long)isl->seed, isl->n_sites, isl->round_trip_minutes, isl->daily_budget_minutes);
    text(img, 8, 8, title, white);
    for (uint32_t t = 0; t < g_cx.n_types; t++) {
        int x = 8 + (int)(t % 6) * 105, y = MAP - 30 + (int)(t / 6) * 12;
        for (int yy = 0; yy < 8; yy++)
            for (int xx = 0; xx < 8; xx++) put(img, x + xx, y + yy, PALETTE[t % 16]);
        char key[96];
        snprintf(key, sizeof key, "type.%s", g_cx.types[t].id);
        const char *tn = strcmp(lang, "en") ? island_codex_text(&g_cx, lang, key) : NULL;   /* en: the ids */
        text(img, x + 11, y, tn ? tn : g_cx.types[t].id, white);
    }
    if (!stbi_write_png(path, MAP, MAP, 3, img, MAP * 3)) {
        fprintf(stderr, "islandgen: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

/* Spaces that pad name to `cols` terminal columns (a wide character takes two). */
static int pad_to(const char *name, int cols) {
    int w = 0;
    for (const char *p = name; *p;) w += text_cp_wide(text_utf8_next(&p)) ? 2 : 1;
    return w < cols ? cols - w : 0;
}

/* The languages places are named in, for an error that names them ("en, ja"): the pack's, then
 * those built into the game. */
static void pack_languages(char *buf, size_t n) {
    buf[0] = 0;
    for (uint32_t i = 0; i < g_cx.n_texts; i++)
        if (!strcmp(g_cx.texts[i].key, "serial_pattern"))   /* one per language (the packer's rule) */
            snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "", g_cx.texts[i].lang);
    for (int l = 0; l < LANG_COUNT; l++) {
        const char *code = text_lang_code((Lang)l);
        bool packed = false;
        for (uint32_t i = 0; i < g_cx.n_texts; i++) packed = packed || !strcmp(g_cx.texts[i].lang, code);
        if (!packed && text_codex(code, "serial_pattern"))
            snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "", code);
    }
}

/* A whole number in min..max (decimal, or hexadecimal after 0x), else one line and false. */
static bool whole(const char *flag, const char *v, uint64_t min, uint64_t max, uint64_t *out) {
    char *end = NULL;
    errno = 0;
    unsigned long long n = v[0] >= '0' && v[0] <= '9' ? strtoull(v, &end, 0) : 0;
    if (!end || *end || errno || n < min || n > max) {
        fprintf(stderr, "islandgen: %s '%s' is not a whole number in %llu..%llu: give one in that range\n", flag, v,
                (unsigned long long)min, (unsigned long long)max);
        return false;
    }
    *out = n;
    return true;
}

int main(int argc, char **argv) {
    uint64_t seed = 1, n = 0;
    uint32_t sites = 0, stats = 0;
    const char *pak = NULL, *map = NULL, *scope_id = NULL, *lang = "en";
    bool json = false;
    for (int i = 1; i < argc; i++) {
        bool more = i + 1 < argc;
        if (!strcmp(argv[i], "--seed") && more) {
            if (!whole("--seed", argv[++i], 0, UINT64_MAX, &seed)) return 2;
        } else if (!strcmp(argv[i], "--sites") && more) {
            if (!whole("--sites", argv[++i], 3, ISLAND_MAX_SITES, &n)) return 2;
            sites = (uint32_t)n;
        } else if (!strcmp(argv[i], "--stats") && more) {
            if (!whole("--stats", argv[++i], 1, ISLANDGEN_MAX_STATS, &n)) return 2;
            stats = (uint32_t)n;
        }
        else if (!strcmp(argv[i], "--pak") && more) pak = argv[++i];
        else if (!strcmp(argv[i], "--map") && more) map = argv[++i];
        else if (!strcmp(argv[i], "--scope") && more) scope_id = argv[++i];
        else if (!strcmp(argv[i], "--lang") && more) lang = argv[++i];
        else if (!strcmp(argv[i], "--json")) json = true;
        else return usage();
    }
    if (!load_codex(pak)) return 1;
    if (!island_codex_text(&g_cx, lang, "serial_pattern")) {
        char langs[64];
        pack_languages(langs, sizeof langs);
        fprintf(stderr, "islandgen: --lang '%s': the pack names places in %s\n", lang, langs);
        return 2;
    }
    int scope = scope_id ? island_codex_find_scope(&g_cx, scope_id) : 0;
    if (scope < 0) {
        fprintf(stderr, "islandgen: the pack has no scope '%s'\n", scope_id);
        return 2;
    }
    int rc = 0;
    if (stats) {
        rc = print_stats(stats, (uint32_t)scope, sites);
    } else {
        static uint8_t arena_buf[1 << 20];
        MemArena work;
        mem_arena_init_buffer(&work, arena_buf, sizeof arena_buf);
        IslandParams p = {.seed = seed, .scope = (uint32_t)scope, .site_count = sites};
        SkyError err = {0};
        if (!island_generate(&g_isl, &g_cx, &p, &work, &err)) {
            fprintf(stderr, "islandgen: %s\n", err.msg);
            return 1;
        }
        if (json) print_json(&g_isl, lang);
        if (map) rc = write_map(&g_isl, map, lang);
        if (!json && !map) {
            char name[128];
            printf("seed %llu: %u sites (%u ring), %u triangles, %u paths, round trip %u of %u minutes, hash %016llx\n",
                   (unsigned long long)seed, g_isl.n_sites, g_isl.n_ring, g_isl.n_tris, g_isl.n_paths,
                   g_isl.round_trip_minutes, g_isl.daily_budget_minutes, (unsigned long long)island_hash(&g_isl));
            for (uint32_t i = 0; i < g_isl.n_sites; i++) {
                island_site_display_name(&g_isl, &g_cx, i, lang, name, sizeof name);
                printf("  %2u %-14s %s%*s %6.0f %6.0f %5.1f m%s\n", i, g_cx.types[g_isl.sites[i].type].id, name,
                       pad_to(name, 22), "",
                       g_isl.sites[i].x_m, g_isl.sites[i].z_m, g_isl.sites[i].elevation_m,
                       i == g_isl.base ? "  (base)" : "");
            }
            IslandField f;
            if (!bake(&g_isl, &f)) return 1;
            print_strips(&g_isl, &f, lang);
        }
    }
    free(g_pak_file);
    return rc;
}
