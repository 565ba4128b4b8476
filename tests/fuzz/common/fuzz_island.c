/* skyisles fuzzing: shared checks: failure reports, error lines, codex equality and the island
 * pipeline run on an accepted codex the way the game and the tools run it. */
#include "common/fuzz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Noreturn void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "%s:%d: fuzz property broken: %s: ", file, line, cond);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

void fuzz_check_error(const SkyError *err, const char *what) {
    FUZZ_CHECK(err->code != SKY_OK, "%s failed without an error code", what);
    FUZZ_CHECK(err->msg[0] != 0, "%s failed without a message", what);
    FUZZ_CHECK(!strchr(err->msg, '\n'), "%s: the message is not one line: %s", what, err->msg);
}

/* ---------------------------------------------------------------- codex equality */
static void same_str(const char *a, const char *b, const char *what, uint32_t i) {
    FUZZ_CHECK(a && b && !strcmp(a, b), "%s %u: '%s' became '%s'", what, i, a ? a : "(null)", b ? b : "(null)");
}

void fuzz_check_same_codex(const IslandCodex *a, const IslandCodex *b) {
    FUZZ_CHECK(a->n_axes == b->n_axes && a->n_types == b->n_types && a->n_scopes == b->n_scopes &&
                   a->n_variants == b->n_variants && a->n_props == b->n_props && a->n_texts == b->n_texts,
               "table sizes differ after the round trip");
    for (uint32_t i = 0; i < a->n_axes; i++) {
        const IslandAxis *x = &a->axes[i], *y = &b->axes[i];
        same_str(x->id, y->id, "axis", i);
        FUZZ_CHECK(x->min == y->min && x->max == y->max && x->stretch == y->stretch && x->n_terms == y->n_terms,
                   "axis %u differs", i);
        for (uint32_t t = 0; t < x->n_terms; t++) {
            const IslandBlendTerm *p = &x->terms[t], *q = &y->terms[t];
            FUZZ_CHECK(p->kind == q->kind && p->reference == q->reference && p->octaves == q->octaves &&
                           p->weight == q->weight && p->frequency_milli == q->frequency_milli &&
                           p->seed_offset == q->seed_offset,
                       "axis %u term %u differs", i, t);
        }
    }
    for (uint32_t i = 0; i < a->n_types; i++) {
        const IslandType *x = &a->types[i], *y = &b->types[i];
        same_str(x->id, y->id, "type", i);
        FUZZ_CHECK(x->move_cost_milli == y->move_cost_milli && x->scope_mask == y->scope_mask &&
                       x->n_prefs == y->n_prefs && x->n_limits == y->n_limits && x->first_prop == y->first_prop &&
                       x->n_props == y->n_props && x->first_variant == y->first_variant && x->n_variants == y->n_variants,
                   "type %u differs", i);
        for (uint32_t j = 0; j < x->n_prefs; j++)
            FUZZ_CHECK(x->prefs[j].axis == y->prefs[j].axis && x->prefs[j].ideal == y->prefs[j].ideal &&
                           x->prefs[j].tolerance == y->prefs[j].tolerance && x->prefs[j].weight == y->prefs[j].weight,
                       "type %u preference %u differs", i, j);
        for (uint32_t j = 0; j < x->n_limits; j++)
            FUZZ_CHECK(x->limits[j].axis == y->limits[j].axis && x->limits[j].min == y->limits[j].min &&
                           x->limits[j].max == y->limits[j].max,
                       "type %u limit %u differs", i, j);
    }
    FUZZ_CHECK(a->n_cargo == b->n_cargo, "cargo count differs after the round trip");
    for (uint32_t i = 0; i < a->n_cargo; i++) {
        same_str(a->cargo[i].id, b->cargo[i].id, "cargo", i);
        FUZZ_CHECK(a->cargo[i].from_mask == b->cargo[i].from_mask && a->cargo[i].to_mask == b->cargo[i].to_mask,
                   "cargo %u differs", i);
    }
    for (uint32_t i = 0; i < a->n_variants; i++) {
        same_str(a->variants[i].id, b->variants[i].id, "variant", i);
        FUZZ_CHECK(a->variants[i].first_prop == b->variants[i].first_prop && a->variants[i].n_props == b->variants[i].n_props,
                   "variant %u differs", i);
    }
    for (uint32_t i = 0; i < a->n_props; i++) {
        same_str(a->props[i].key, b->props[i].key, "prop", i);
        FUZZ_CHECK(a->props[i].value == b->props[i].value, "prop %u differs", i);
    }
    for (uint32_t i = 0; i < a->n_scopes; i++) {
        const IslandScope *x = &a->scopes[i], *y = &b->scopes[i];
        same_str(x->id, y->id, "scope", i);
        FUZZ_CHECK(x->diameter_m == y->diameter_m && x->elevation_top_m == y->elevation_top_m &&
                       x->walk_m_per_hour == y->walk_m_per_hour && x->site_min == y->site_min &&
                       x->site_max == y->site_max && x->coast_band == y->coast_band && x->hull_coast == y->hull_coast &&
                       x->max_sites_per_type == y->max_sites_per_type &&
                       x->crowding_penalty_milli == y->crowding_penalty_milli &&
                       x->detour_factor_milli == y->detour_factor_milli && x->outdoor_minutes == y->outdoor_minutes &&
                       x->gathering_minutes == y->gathering_minutes && x->elevation_axis == y->elevation_axis &&
                       x->coast_axis == y->coast_axis && x->base_type == y->base_type &&
                       x->fallback_type == y->fallback_type && x->n_guarantees == y->n_guarantees,
                   "scope %u differs", i);
        for (uint32_t j = 0; j < x->n_guarantees; j++)
            FUZZ_CHECK(!memcmp(&x->guarantees[j], &y->guarantees[j], sizeof x->guarantees[j]),
                       "scope %u guarantee %u differs", i, j);
    }
    for (uint32_t i = 0; i < a->n_texts; i++) {
        same_str(a->texts[i].lang, b->texts[i].lang, "text lang", i);
        same_str(a->texts[i].key, b->texts[i].key, "text key", i);
        same_str(a->texts[i].text, b->texts[i].text, "text", i);
    }
}

/* ---------------------------------------------------------------- the island pipeline */
#define FIELD_SIZE 16   /* every code path of the bake, at a cost a fuzzer can pay per input */

static void check_island(const Island *isl, const IslandCodex *cx, const IslandScope *s, uint32_t forced) {
    const uint32_t n = isl->n_sites;
    if (forced) FUZZ_CHECK(n == forced, "%u sites, %u forced", n, forced);
    else FUZZ_CHECK(n >= s->site_min && n <= s->site_max, "%u sites outside %u..%u", n, s->site_min, s->site_max);
    FUZZ_CHECK(isl->n_ring >= 3 && isl->n_ring <= n, "ring of %u sites of %u", isl->n_ring, n);
    for (uint32_t i = 0; i < n; i++) {
        const IslandSite *site = &isl->sites[i];
        FUZZ_CHECK(site->type < cx->n_types, "site %u has type %u of %u", i, site->type, cx->n_types);
        FUZZ_CHECK(site->variant < (int)cx->types[site->type].n_variants, "site %u variant %d", i, site->variant);
    }
    FUZZ_CHECK(isl->n_tris > 0 && isl->n_tris <= ISLAND_MAX_TRIS, "%u triangles", isl->n_tris);
    for (uint32_t t = 0; t < isl->n_tris; t++)
        FUZZ_CHECK(isl->tris[t].v[0] < n && isl->tris[t].v[1] < n && isl->tris[t].v[2] < n, "triangle %u", t);
    FUZZ_CHECK(isl->n_edges <= ISLAND_MAX_EDGES && isl->n_paths + 1 >= n && isl->n_paths <= isl->n_edges,
               "%u edges, %u paths for %u sites", isl->n_edges, isl->n_paths, n);
    for (uint32_t e = 0; e < isl->n_edges; e++)
        FUZZ_CHECK(isl->edges[e].a < isl->edges[e].b && isl->edges[e].b < n, "edge %u", e);
    FUZZ_CHECK(isl->base < n && isl->farthest < n, "base %u, farthest %u of %u", isl->base, isl->farthest, n);
}

static void name_sites(const Island *isl, const IslandCodex *cx) {
    const char *lang = cx->n_texts ? cx->texts[0].lang : "en";
    char buf[64];
    for (uint32_t i = 0; i < isl->n_sites; i++) {
        island_site_name_id(isl, cx, i, buf, sizeof buf);
        FUZZ_CHECK(buf[0] != 0 && strlen(buf) < sizeof buf, "site %u has no name id", i);
        island_site_display_name(isl, cx, i, lang, buf, sizeof buf);
        FUZZ_CHECK(strlen(buf) < sizeof buf, "site %u display name overran", i);
    }
}

static void bake(const Island *isl, const IslandCodex *cx, const IslandScope *s) {
    /* 8 bytes a cell, paths (2048^2 bits at most), and the bake's working set (its borders, the
     * blur's rows: island_field_bytes has them), returned when it ends. */
    static _Alignas(64) uint8_t field_mem[FIELD_SIZE * FIELD_SIZE * 8 + 256 + 2048 * 2048 / 8 + 64 + (64 << 10)];
    MemArena fa;
    mem_arena_init_buffer(&fa, field_mem, sizeof field_mem);
    IslandField f;
    SkyError err = {0};
    FUZZ_CHECK(island_bake_field(&f, isl, cx, FIELD_SIZE, 0.0f, 0.0f, &fa, &err), "bake: %s", err.msg);
    for (uint32_t c = 0; c < FIELD_SIZE * FIELD_SIZE; c++) {
        FUZZ_CHECK(f.type[c] == 255 || f.type[c] < cx->n_types, "field cell %u has type %u", c, f.type[c]);
        FUZZ_CHECK(f.elevation_dm[c] <= s->elevation_top_m * 10u, "field cell %u is %u dm high", c, f.elevation_dm[c]);
    }
}

void fuzz_island_exercise(const IslandCodex *cx) {
    /* One arena of exactly what the generator says it needs, as the game carves it. */
    static uint8_t *work_mem;
    static size_t work_size;
    if (!work_mem) {
        work_size = island_work_bytes();
        work_mem = malloc(work_size);
        FUZZ_CHECK(work_mem != NULL, "no memory for the %zu-byte work arena", work_size);
    }
    static Island isl, again;
    MemArena work;
    mem_arena_init_buffer(&work, work_mem, work_size);
    /* Seeds that differ per pack (from its checksum) as well as a fixed one, and a forced small
     * count (3..10: rings of fewer than 4, fewer sites than guarantees); the largest islands come
     * from the scopes' own site_count, at a cost per input a fuzzer can pay. */
    const uint32_t forced = 3u + (uint32_t)(cx->checksum % 8);
    const IslandParams runs[] = {{1, 0, 0, 0}, {cx->checksum ^ 0x5eedu, 0, 0, 0}, {2, 0, forced, 0}};
    for (uint32_t s = 0; s < cx->n_scopes; s++)
        for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
            IslandParams p = runs[r];
            p.scope = s;
            SkyError err = {0};
            bool ok = island_generate(&isl, cx, &p, &work, &err);
            FUZZ_CHECK(work.used == 0, "the generator kept %zu arena bytes", work.used);
            FUZZ_CHECK(ok, "an accepted codex does not generate (scope %u, seed %llu, sites %u): %s", s,
                       (unsigned long long)p.seed, p.site_count, err.msg);
            check_island(&isl, cx, &cx->scopes[s], p.site_count);
            name_sites(&isl, cx);
            if (r == 0) {
                FUZZ_CHECK(island_generate(&again, cx, &p, &work, &err), "second run failed: %s", err.msg);
                FUZZ_CHECK(island_hash(&again) == island_hash(&isl), "scope %u: same seed, another island", s);
                bake(&isl, cx, &cx->scopes[s]);
            }
        }
}
