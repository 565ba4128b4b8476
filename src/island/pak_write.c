/* skyisles island: serialises a codex into the pack format (used by build/pack and tests).
 * Same codex, same bytes: strings are interned in a fixed traversal order, padding is zero. */
#include "island/island.h"
#include "island/pak_format.h"

#include <stdlib.h>

typedef struct Strs {
    char *buf;
    uint32_t used, cap;
} Strs;

/* Offset of s in the table, appending it on first use (linear search: packs are small). */
static uint32_t intern(Strs *t, const char *s) {
    size_t n = strlen(s) + 1;
    for (uint32_t off = 0; off < t->used;) {
        size_t m = strlen(t->buf + off) + 1;
        if (m == n && !memcmp(t->buf + off, s, n)) return off;
        off += (uint32_t)m;
    }
    if (t->used + n > t->cap) {
        uint32_t cap = t->cap ? t->cap : 4096;
        while (t->used + n > cap) cap *= 2;
        char *nb = realloc(t->buf, cap);
        if (!nb) return UINT32_MAX;
        t->buf = nb;
        t->cap = cap;
    }
    memcpy(t->buf + t->used, s, n);
    uint32_t off = t->used;
    t->used += (uint32_t)n;
    return off;
}

typedef struct W {
    uint8_t *out;
    size_t cap, pos;
    Strs strs;
    bool oom;
} W;

static uint32_t S(W *w, const char *s) {
    uint32_t off = intern(&w->strs, s ? s : "");
    if (off == UINT32_MAX) w->oom = true;
    return off;
}

static void put32(W *w, uint32_t v) {
    if (w->pos + 4 <= w->cap) pak_wr32(w->out + w->pos, v);
    w->pos += 4;
}

/* Interns every string in emission order so offsets do not depend on anything else. */
static void intern_all(W *w, const IslandCodex *cx) {
    S(w, "");
    for (uint32_t i = 0; i < cx->n_axes; i++) S(w, cx->axes[i].id);
    for (uint32_t i = 0; i < cx->n_types; i++) S(w, cx->types[i].id);
    for (uint32_t i = 0; i < cx->n_types; i++) {
        S(w, cx->types[i].landmark);
        S(w, cx->types[i].flora);
    }
    for (uint32_t i = 0; i < cx->n_props; i++) S(w, cx->props[i].key);
    for (uint32_t i = 0; i < cx->n_variants; i++) S(w, cx->variants[i].id);
    for (uint32_t i = 0; i < cx->n_scopes; i++) S(w, cx->scopes[i].id);
    for (uint32_t i = 0; i < cx->n_texts; i++) {
        S(w, cx->texts[i].lang);
        S(w, cx->texts[i].key);
        S(w, cx->texts[i].text);
    }
    for (uint32_t i = 0; i < cx->n_cargo; i++) S(w, cx->cargo[i].id);   /* after the older strings: they keep their offsets */
    if (!cx->has_archipelago) return;
    for (uint32_t i = 0; i < cx->arch.n_langs; i++) {
        S(w, cx->arch.langs[i].lang);
        S(w, cx->arch.langs[i].pattern);
        S(w, cx->arch.langs[i].home);
    }
    for (uint32_t i = 0; i < cx->arch.n_parts; i++) S(w, cx->arch.parts[i]);
}

/* ARCH, ANML, ANMP: nothing when the codex has no archipelago. */
static void emit_archipelago(W *w, const IslandCodex *cx, PakSection s) {
    if (!cx->has_archipelago) return;
    const IslandArchipelago *a = &cx->arch;
    if (s == PAK_ARCH) {
        put32(w, a->cell_m); put32(w, a->share_permille); put32(w, a->diameter_min_m); put32(w, a->diameter_max_m);
        put32(w, a->coast_amplitude_milli); put32(w, a->coast_frequency_milli); put32(w, a->coast_octaves);
    }
    for (uint32_t i = 0; s == PAK_ANML && i < a->n_langs; i++) {
        const IslandNameLang *l = &a->langs[i];
        put32(w, S(w, l->lang)); put32(w, S(w, l->pattern)); put32(w, S(w, l->home));
        put32(w, l->first_a); put32(w, l->n_a); put32(w, l->first_b); put32(w, l->n_b);
    }
    for (uint32_t i = 0; s == PAK_ANMP && i < a->n_parts; i++) put32(w, S(w, a->parts[i]));
}

static void emit_section(W *w, const IslandCodex *cx, PakSection s) {
    switch (s) {
    case PAK_STRS:
        if (w->pos + w->strs.used <= w->cap) memcpy(w->out + w->pos, w->strs.buf, w->strs.used);
        w->pos += w->strs.used;
        break;
    case PAK_AXIS: {
        uint32_t term = 0;
        for (uint32_t i = 0; i < cx->n_axes; i++) {
            const IslandAxis *a = &cx->axes[i];
            put32(w, S(w, a->id)); put32(w, (uint32_t)a->min); put32(w, (uint32_t)a->max);
            put32(w, a->stretch); put32(w, term); put32(w, a->n_terms);
            term += a->n_terms;
        }
        break;
    }
    case PAK_TERM:
        for (uint32_t i = 0; i < cx->n_axes; i++)
            for (uint32_t t = 0; t < cx->axes[i].n_terms; t++) {
                const IslandBlendTerm *b = &cx->axes[i].terms[t];
                put32(w, b->kind); put32(w, b->reference); put32(w, b->octaves);
                put32(w, b->weight); put32(w, b->frequency_milli); put32(w, b->seed_offset);
            }
        break;
    case PAK_TYPE: {
        uint32_t pref = 0, lim = 0;
        for (uint32_t i = 0; i < cx->n_types; i++) {
            const IslandType *t = &cx->types[i];
            put32(w, S(w, t->id)); put32(w, t->move_cost_milli); put32(w, t->scope_mask);
            put32(w, pref); put32(w, t->n_prefs); put32(w, lim); put32(w, t->n_limits);
            put32(w, t->first_prop); put32(w, t->n_props); put32(w, t->first_variant); put32(w, t->n_variants);
            put32(w, S(w, t->landmark)); put32(w, S(w, t->flora));
            pref += t->n_prefs;
            lim += t->n_limits;
        }
        break;
    }
    case PAK_PREF:
        for (uint32_t i = 0; i < cx->n_types; i++)
            for (uint32_t j = 0; j < cx->types[i].n_prefs; j++) {
                const IslandPref *p = &cx->types[i].prefs[j];
                put32(w, p->axis); put32(w, (uint32_t)p->ideal); put32(w, p->tolerance); put32(w, p->weight);
            }
        break;
    case PAK_LIMT:
        for (uint32_t i = 0; i < cx->n_types; i++)
            for (uint32_t j = 0; j < cx->types[i].n_limits; j++) {
                const IslandLimit *l = &cx->types[i].limits[j];
                put32(w, l->axis); put32(w, (uint32_t)l->min); put32(w, (uint32_t)l->max);
            }
        break;
    case PAK_PROP:
        for (uint32_t i = 0; i < cx->n_props; i++) {
            put32(w, S(w, cx->props[i].key));
            put32(w, (uint32_t)cx->props[i].value);
        }
        break;
    case PAK_VARI:
        for (uint32_t i = 0; i < cx->n_variants; i++) {
            put32(w, S(w, cx->variants[i].id));
            put32(w, cx->variants[i].first_prop);
            put32(w, cx->variants[i].n_props);
        }
        break;
    case PAK_SCOP: {
        uint32_t g = 0;
        for (uint32_t i = 0; i < cx->n_scopes; i++) {
            const IslandScope *s = &cx->scopes[i];
            put32(w, S(w, s->id)); put32(w, s->diameter_m); put32(w, s->elevation_top_m);
            put32(w, s->walk_m_per_hour); put32(w, s->site_min); put32(w, s->site_max);
            put32(w, (uint32_t)s->coast_band); put32(w, s->hull_coast); put32(w, s->max_sites_per_type);
            put32(w, s->crowding_penalty_milli); put32(w, s->detour_factor_milli);
            put32(w, s->outdoor_minutes); put32(w, s->gathering_minutes);
            put32(w, s->elevation_axis); put32(w, s->coast_axis); put32(w, s->base_type);
            put32(w, s->fallback_type); put32(w, g); put32(w, s->n_guarantees);
            g += s->n_guarantees;
        }
        break;
    }
    case PAK_GUAR:
        for (uint32_t i = 0; i < cx->n_scopes; i++)
            for (uint32_t j = 0; j < cx->scopes[i].n_guarantees; j++) {
                const IslandGuarantee *q = &cx->scopes[i].guarantees[j];
                put32(w, q->type); put32(w, q->axis); put32(w, q->pick); put32(w, q->count);
            }
        break;
    case PAK_TEXT:
        for (uint32_t i = 0; i < cx->n_texts; i++) {
            put32(w, S(w, cx->texts[i].lang)); put32(w, S(w, cx->texts[i].key)); put32(w, S(w, cx->texts[i].text));
        }
        break;
    case PAK_CARG:
        for (uint32_t i = 0; i < cx->n_cargo; i++) {
            put32(w, S(w, cx->cargo[i].id)); put32(w, cx->cargo[i].from_mask); put32(w, cx->cargo[i].to_mask);
        }
        break;
    default:
        break;
    }
}

static uint32_t section_count(const IslandCodex *cx, PakSection s, uint32_t strs_bytes) {
    uint32_t n = 0;
    switch (s) {
    case PAK_STRS: return strs_bytes;
    case PAK_AXIS: return cx->n_axes;
    case PAK_TERM: for (uint32_t i = 0; i < cx->n_axes; i++) n += cx->axes[i].n_terms; return n;
    case PAK_TYPE: return cx->n_types;
    case PAK_PREF: for (uint32_t i = 0; i < cx->n_types; i++) n += cx->types[i].n_prefs; return n;
    case PAK_LIMT: for (uint32_t i = 0; i < cx->n_types; i++) n += cx->types[i].n_limits; return n;
    case PAK_PROP: return cx->n_props;
    case PAK_VARI: return cx->n_variants;
    case PAK_SCOP: return cx->n_scopes;
    case PAK_GUAR: for (uint32_t i = 0; i < cx->n_scopes; i++) n += cx->scopes[i].n_guarantees; return n;
    case PAK_TEXT: return cx->n_texts;
    case PAK_CARG: return cx->n_cargo;
    case PAK_ARCH: return cx->has_archipelago ? 1u : 0u;
    case PAK_ANML: return cx->has_archipelago ? cx->arch.n_langs : 0u;
    case PAK_ANMP: return cx->has_archipelago ? cx->arch.n_parts : 0u;
    default: return 0;
    }
}

size_t island_pak_write(const IslandCodex *cx, uint8_t *out, size_t cap, SkyError *err) {
    W w = {.out = out, .cap = out ? cap : 0};
    intern_all(&w, cx);
    if (w.oom) {
        free(w.strs.buf);
        sky_error_set(err, SKY_ERR_NO_MEMORY, "pack: out of memory while building the string table");
        return 0;
    }
    uint32_t strs_bytes = (w.strs.used + 3u) & ~3u;   /* zero padded to keep records aligned */
    uint32_t offs[PAK_SECTION_KINDS], counts[PAK_SECTION_KINDS];
    size_t pos = ISLAND_PAK_HEADER_SIZE + PAK_SECTION_KINDS * PAK_SECTION_ENTRY;
    for (int s = 0; s < PAK_SECTION_KINDS; s++) {
        counts[s] = section_count(cx, (PakSection)s, strs_bytes);
        offs[s] = (uint32_t)pos;
        pos += (size_t)counts[s] * PAK_RECORD_SIZE[s];
    }
    size_t total = pos;
    if (total > UINT32_MAX) {
        free(w.strs.buf);
        sky_error_set(err, SKY_ERR_INPUT, "pack: %zu bytes exceeds the 4 GiB format limit", total);
        return 0;
    }
    if (total <= w.cap) {
        memset(out, 0, total);
        memcpy(out, PAK_MAGIC, 8);
        pak_wr32(out + PAK_OFF_VERSION, ISLAND_PAK_VERSION);
        pak_wr32(out + PAK_OFF_HEADER_SIZE, ISLAND_PAK_HEADER_SIZE);
        pak_wr32(out + PAK_OFF_FILE_SIZE, (uint32_t)total);
        pak_wr32(out + PAK_OFF_SECTION_COUNT, PAK_SECTION_KINDS);
        for (int s = 0; s < PAK_SECTION_KINDS; s++) {
            uint8_t *e = out + ISLAND_PAK_HEADER_SIZE + (size_t)s * PAK_SECTION_ENTRY;
            pak_wr32(e, pak_tag_value(PAK_TAGS[s]));
            pak_wr32(e + 4, offs[s]);
            pak_wr32(e + 8, counts[s] * PAK_RECORD_SIZE[s]);
            pak_wr32(e + 12, counts[s]);
        }
        for (int s = 0; s < PAK_SECTION_KINDS; s++) {
            w.pos = offs[s];
            if (s >= PAK_ARCH) emit_archipelago(&w, cx, (PakSection)s);
            else emit_section(&w, cx, (PakSection)s);
        }
        pak_wr64(out + PAK_OFF_CHECKSUM, island_pak_checksum(out, total));
    }
    free(w.strs.buf);
    return total;
}
