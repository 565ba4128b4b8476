/* skyisles island: the codex pack loader. Every byte it reads is bounds-checked first, every
 * index and value is validated before decoding, and any defect ends in one SkyError line. */
#include "island/island.h"
#include "island/pak_format.h"

#include <stdio.h>

#define FIX " (the pack is damaged or from another build: rebuild it with build/pack)"

typedef struct Sec { uint32_t off, size, count; } Sec;

typedef struct Dec {
    const uint8_t *d;
    size_t len;
    Sec sec[PAK_SECTION_KINDS];   /* sections a version 3 pack lacks stay empty */
    uint32_t version;
    SkyError *err;
} Dec;

uint64_t island_pak_checksum(const void *data, size_t len) {
    static const uint8_t zero[8];
    const uint8_t *d = data;
    if (len < PAK_OFF_CHECKSUM + 8) return hash_fnv1a64(d, len, 0);
    uint64_t h = hash_fnv1a64(d, PAK_OFF_CHECKSUM, 0);
    h = hash_fnv1a64(zero, 8, h);
    return hash_fnv1a64(d + PAK_OFF_CHECKSUM + 8, len - PAK_OFF_CHECKSUM - 8, h);
}

static const uint8_t *rec(const Dec *k, PakSection s, uint32_t i) {
    return k->d + k->sec[s].off + (size_t)i * PAK_RECORD_SIZE[s];
}

/* A string reference: an offset into STRS whose string ends inside the table. */
static bool str_at(Dec *k, uint32_t off, const char *what, uint32_t idx, const char **out) {
    const Sec *s = &k->sec[PAK_STRS];
    if (off >= s->size) {
        sky_error_set(k->err, SKY_ERR_INPUT, "pack: %s %u names string offset %u beyond the %u-byte string table" FIX, what, idx,
                      off, s->size);
        return false;
    }
    const char *p = (const char *)k->d + s->off + off;
    if (!memchr(p, 0, s->size - off)) {
        sky_error_set(k->err, SKY_ERR_INPUT, "pack: %s %u has an unterminated string" FIX, what, idx);
        return false;
    }
    *out = p;
    return true;
}

static bool id_at(Dec *k, uint32_t off, const char *what, uint32_t idx, const char **out) {
    if (!str_at(k, off, what, idx, out)) return false;
    if (!**out) {
        sky_error_set(k->err, SKY_ERR_INPUT, "pack: %s %u has an empty id" FIX, what, idx);
        return false;
    }
    return true;
}

/* first/count must lie inside a section and count within a capacity. */
static bool range_ok(Dec *k, uint32_t first, uint32_t count, PakSection s, uint32_t cap, const char *what,
                     uint32_t idx) {
    if (count > cap || first > k->sec[s].count || count > k->sec[s].count - first) {
        sky_error_set(k->err, SKY_ERR_INPUT, "pack: %s %u refers to %s records %u..+%u, the pack has %u (limit %u)" FIX, what, idx,
                      PAK_TAGS[s], first, count, k->sec[s].count, cap);
        return false;
    }
    return true;
}

static bool bad(Dec *k, const char *what, uint32_t idx, const char *field, long long v) {
    sky_error_set(k->err, SKY_ERR_INPUT, "pack: %s %u has %s = %lld, out of range" FIX, what, idx, field, v);
    return false;
}

static bool read_header(Dec *k) {
    const uint8_t *d = k->d;
    if (k->len < ISLAND_PAK_HEADER_SIZE) {
        sky_error_set(k->err, SKY_ERR_INPUT, "pack: %zu bytes is shorter than the %u-byte header: not a skyisles pack or truncated",
                      k->len, ISLAND_PAK_HEADER_SIZE);
        return false;
    }
    if (memcmp(d, PAK_MAGIC, 8) != 0) {
        sky_error_set(k->err, SKY_ERR_INPUT, "pack: bad magic, not a skyisles pack (make one with build/pack)");
        return false;
    }
    uint32_t version = pak_rd32(d + PAK_OFF_VERSION);
    if (version < ISLAND_PAK_VERSION_OLDEST || version > ISLAND_PAK_VERSION) {
        sky_error_set(k->err, SKY_ERR_INPUT, "pack: format version %u, this build reads versions %u..%u: rebuild the pack with this build's build/pack",
                      version, ISLAND_PAK_VERSION_OLDEST, ISLAND_PAK_VERSION);
        return false;
    }
    k->version = version;
    if (pak_rd32(d + PAK_OFF_HEADER_SIZE) != ISLAND_PAK_HEADER_SIZE) {
        sky_error_set(k->err, SKY_ERR_INPUT, "pack: header size %u, expected %u" FIX, pak_rd32(d + PAK_OFF_HEADER_SIZE),
                      ISLAND_PAK_HEADER_SIZE);
        return false;
    }
    uint32_t file_size = pak_rd32(d + PAK_OFF_FILE_SIZE);
    if (file_size != k->len) {
        sky_error_set(k->err, SKY_ERR_INPUT, "pack: header says %u bytes but %zu were given: the pack is %s" FIX, file_size, k->len,
                      file_size > k->len ? "truncated" : "followed by extra bytes");
        return false;
    }
    uint64_t stored = pak_rd64(d + PAK_OFF_CHECKSUM), computed = island_pak_checksum(d, k->len);
    if (stored != computed) {
        sky_error_set(k->err, SKY_ERR_INPUT, "pack: checksum mismatch (stored %016llx, computed %016llx): the pack is damaged; rebuild it with build/pack",
                      (unsigned long long)stored, (unsigned long long)computed);
        return false;
    }
    if (pak_rd32(d + PAK_OFF_FLAGS) != 0) {
        sky_error_set(k->err, SKY_ERR_INPUT, "pack: unknown flags %08x" FIX, pak_rd32(d + PAK_OFF_FLAGS));
        return false;
    }
    uint32_t n = pak_rd32(d + PAK_OFF_SECTION_COUNT), want = version == 3u ? PAK_SECTION_KINDS_V3 : PAK_SECTION_KINDS;
    if (n != want) {
        sky_error_set(k->err, SKY_ERR_INPUT, "pack: %u sections, version %u has %u" FIX, n, version, want);
        return false;
    }
    size_t table_end = ISLAND_PAK_HEADER_SIZE + (size_t)n * PAK_SECTION_ENTRY;
    if (table_end > k->len) {
        sky_error_set(k->err, SKY_ERR_INPUT, "pack: section table ends at byte %zu, past the end (%zu)" FIX, table_end, k->len);
        return false;
    }
    size_t prev_end = table_end;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *e = d + ISLAND_PAK_HEADER_SIZE + (size_t)i * PAK_SECTION_ENTRY;
        uint32_t tag = pak_rd32(e), off = pak_rd32(e + 4), size = pak_rd32(e + 8), count = pak_rd32(e + 12);
        if (tag != pak_tag_value(PAK_TAGS[i])) {
            sky_error_set(k->err, SKY_ERR_INPUT, "pack: section %u has tag %08x, expected %s" FIX, i, tag, PAK_TAGS[i]);
            return false;
        }
        if (off % 4 != 0 || off < prev_end || off > k->len || size > k->len - off) {
            sky_error_set(k->err, SKY_ERR_INPUT, "pack: section %s at offset %u size %u lies outside bytes %zu..%zu or overlaps" FIX,
                          PAK_TAGS[i], off, size, prev_end, k->len);
            return false;
        }
        if ((uint64_t)count * PAK_RECORD_SIZE[i] != size) {
            sky_error_set(k->err, SKY_ERR_INPUT, "pack: section %s holds %u bytes, not %u records of %u bytes" FIX, PAK_TAGS[i],
                          size, count, PAK_RECORD_SIZE[i]);
            return false;
        }
        k->sec[i] = (Sec){off, size, count};
        prev_end = (size_t)off + size;
    }
    const Sec *s = &k->sec[PAK_STRS];
    if (s->size == 0 || k->d[s->off + s->size - 1] != 0) {
        sky_error_set(k->err, SKY_ERR_INPUT, "pack: the string table does not end with a NUL" FIX);
        return false;
    }
    return true;
}

static bool read_axes(Dec *k, IslandCodex *cx) {
    if (k->sec[PAK_AXIS].count == 0 || k->sec[PAK_AXIS].count > ISLAND_MAX_AXES)
        return bad(k, "axis table", 0, "count", k->sec[PAK_AXIS].count);
    cx->n_axes = k->sec[PAK_AXIS].count;
    for (uint32_t i = 0; i < cx->n_axes; i++) {
        const uint8_t *r = rec(k, PAK_AXIS, i);
        IslandAxis *a = &cx->axes[i];
        if (!id_at(k, pak_rd32(r), "axis", i, &a->id)) return false;
        a->min = (int32_t)pak_rd32(r + 4);
        a->max = (int32_t)pak_rd32(r + 8);
        if (a->min < -10000 || a->max > 10000 || a->min >= a->max) return bad(k, "axis", i, "range min", a->min);
        uint32_t stretch = pak_rd32(r + 12), first = pak_rd32(r + 16), n = pak_rd32(r + 20);
        if (stretch > 1) return bad(k, "axis", i, "stretch", stretch);
        a->stretch = (uint8_t)stretch;
        if (n == 0) return bad(k, "axis", i, "term count", 0);
        if (!range_ok(k, first, n, PAK_TERM, ISLAND_MAX_BLEND, "axis", i)) return false;
        a->n_terms = (uint8_t)n;
        for (uint32_t t = 0; t < n; t++) {
            const uint8_t *q = rec(k, PAK_TERM, first + t);
            IslandBlendTerm *b = &a->terms[t];
            uint32_t kind = pak_rd32(q), ref = pak_rd32(q + 4), oct = pak_rd32(q + 8);
            b->weight = pak_rd32(q + 12);
            b->frequency_milli = pak_rd32(q + 16);
            b->seed_offset = pak_rd32(q + 20);
            if (kind != ISLAND_GEN_DISTANCE_FIELD && kind != ISLAND_GEN_LAYERED_NOISE)
                return bad(k, "generator term", first + t, "kind", kind);
            if (ref > ISLAND_REF_CENTRE) return bad(k, "generator term", first + t, "reference", ref);
            if (kind == ISLAND_GEN_LAYERED_NOISE && (oct < 1 || oct > 8))
                return bad(k, "generator term", first + t, "octaves", oct);
            if (b->weight == 0 || b->weight > 1000000) return bad(k, "generator term", first + t, "weight", b->weight);
            if (kind == ISLAND_GEN_LAYERED_NOISE && (b->frequency_milli == 0 || b->frequency_milli > 1000000))
                return bad(k, "generator term", first + t, "frequency", b->frequency_milli);
            b->kind = (uint8_t)kind;
            b->reference = (uint8_t)ref;
            b->octaves = (uint8_t)oct;
        }
        for (uint32_t j = 0; j < i; j++)
            if (!strcmp(cx->axes[j].id, a->id)) {
                sky_error_set(k->err, SKY_ERR_INPUT, "pack: axis '%s' appears twice" FIX, a->id);
                return false;
            }
    }
    return true;
}

static bool read_props(Dec *k, IslandCodex *cx) {
    if (k->sec[PAK_PROP].count > ISLAND_MAX_PROPS) return bad(k, "prop table", 0, "count", k->sec[PAK_PROP].count);
    cx->n_props = k->sec[PAK_PROP].count;
    for (uint32_t i = 0; i < cx->n_props; i++) {
        const uint8_t *r = rec(k, PAK_PROP, i);
        if (!id_at(k, pak_rd32(r), "prop", i, &cx->props[i].key)) return false;
        cx->props[i].value = (int32_t)pak_rd32(r + 4);
    }
    if (k->sec[PAK_VARI].count > ISLAND_MAX_VARIANTS)
        return bad(k, "variant table", 0, "count", k->sec[PAK_VARI].count);
    cx->n_variants = k->sec[PAK_VARI].count;
    for (uint32_t i = 0; i < cx->n_variants; i++) {
        const uint8_t *r = rec(k, PAK_VARI, i);
        IslandVariant *v = &cx->variants[i];
        if (!id_at(k, pak_rd32(r), "variant", i, &v->id)) return false;
        uint32_t first = pak_rd32(r + 4), n = pak_rd32(r + 8);
        if (!range_ok(k, first, n, PAK_PROP, ISLAND_MAX_PROPS, "variant", i)) return false;
        v->first_prop = (uint16_t)first;
        v->n_props = (uint16_t)n;
    }
    return true;
}

static bool read_types(Dec *k, IslandCodex *cx) {
    if (k->sec[PAK_TYPE].count == 0 || k->sec[PAK_TYPE].count > ISLAND_MAX_TYPES)
        return bad(k, "location type table", 0, "count", k->sec[PAK_TYPE].count);
    cx->n_types = k->sec[PAK_TYPE].count;
    for (uint32_t i = 0; i < cx->n_types; i++) {
        const uint8_t *r = rec(k, PAK_TYPE, i);
        IslandType *t = &cx->types[i];
        if (!id_at(k, pak_rd32(r), "location type", i, &t->id)) return false;
        t->move_cost_milli = pak_rd32(r + 4);
        t->scope_mask = pak_rd32(r + 8);
        if (t->move_cost_milli == 0 || t->move_cost_milli > 100000)
            return bad(k, "location type", i, "move_cost", t->move_cost_milli);
        if (t->scope_mask == 0 || (t->scope_mask >> cx->n_scopes) != 0)
            return bad(k, "location type", i, "scope mask", t->scope_mask);
        uint32_t fp = pak_rd32(r + 12), np = pak_rd32(r + 16), fl = pak_rd32(r + 20), nl = pak_rd32(r + 24);
        uint32_t fr = pak_rd32(r + 28), nr = pak_rd32(r + 32), fv = pak_rd32(r + 36), nv = pak_rd32(r + 40);
        if (!range_ok(k, fp, np, PAK_PREF, ISLAND_MAX_AXES, "location type", i) ||
            !range_ok(k, fl, nl, PAK_LIMT, ISLAND_MAX_AXES, "location type", i) ||
            !range_ok(k, fr, nr, PAK_PROP, ISLAND_MAX_PROPS, "location type", i) ||
            !range_ok(k, fv, nv, PAK_VARI, ISLAND_MAX_VARIANTS, "location type", i))
            return false;
        t->n_prefs = (uint8_t)np;
        t->n_limits = (uint8_t)nl;
        for (uint32_t j = 0; j < np; j++) {
            const uint8_t *q = rec(k, PAK_PREF, fp + j);
            IslandPref *p = &t->prefs[j];
            uint32_t axis = pak_rd32(q);
            if (axis >= cx->n_axes) return bad(k, "axis preference", fp + j, "axis", axis);
            p->axis = (uint8_t)axis;
            p->ideal = (int32_t)pak_rd32(q + 4);
            p->tolerance = pak_rd32(q + 8);
            p->weight = pak_rd32(q + 12);
            if (p->ideal < cx->axes[axis].min || p->ideal > cx->axes[axis].max)
                return bad(k, "axis preference", fp + j, "ideal", p->ideal);
            if (p->tolerance == 0 || p->tolerance > 100000)
                return bad(k, "axis preference", fp + j, "tolerance", p->tolerance);
            if (p->weight == 0 || p->weight > 1000000) return bad(k, "axis preference", fp + j, "weight", p->weight);
        }
        for (uint32_t j = 0; j < nl; j++) {
            const uint8_t *q = rec(k, PAK_LIMT, fl + j);
            IslandLimit *l = &t->limits[j];
            uint32_t axis = pak_rd32(q);
            if (axis >= cx->n_axes) return bad(k, "hard limit", fl + j, "axis", axis);
            l->axis = (uint8_t)axis;
            l->min = (int32_t)pak_rd32(q + 4);
            l->max = (int32_t)pak_rd32(q + 8);
            if (l->min > l->max) return bad(k, "hard limit", fl + j, "min", l->min);
        }
        t->first_prop = (uint16_t)fr;
        t->n_props = (uint16_t)nr;
        t->first_variant = (uint16_t)fv;
        t->n_variants = (uint16_t)nv;
        /* Landmark and flora are names of the world's shape tables: the packer checked them; a
         * name the world does not know is refused at boot (game), never here (no world here). */
        if (!id_at(k, pak_rd32(r + 44), "location type landmark of type", i, &t->landmark) ||
            !str_at(k, pak_rd32(r + 48), "location type flora of type", i, &t->flora))
            return false;
        for (uint32_t j = 0; j < i; j++)
            if (!strcmp(cx->types[j].id, t->id)) {
                sky_error_set(k->err, SKY_ERR_INPUT, "pack: location type '%s' appears twice" FIX, t->id);
                return false;
            }
    }
    return true;
}

static bool read_scopes(Dec *k, IslandCodex *cx) {
    for (uint32_t i = 0; i < cx->n_scopes; i++) {
        const uint8_t *r = rec(k, PAK_SCOP, i);
        IslandScope *s = &cx->scopes[i];
        uint32_t v[19];
        for (int j = 0; j < 19; j++) v[j] = pak_rd32(r + 4 * j);
        if (!id_at(k, v[0], "scope", i, &s->id)) return false;
        s->diameter_m = v[1];
        s->elevation_top_m = v[2];
        s->walk_m_per_hour = v[3];
        s->site_min = v[4];
        s->site_max = v[5];
        s->coast_band = (int32_t)v[6];
        s->max_sites_per_type = v[8];
        s->crowding_penalty_milli = v[9];
        s->detour_factor_milli = v[10];
        s->outdoor_minutes = v[11];
        s->gathering_minutes = v[12];
        if (v[1] < 10 || v[1] > 100000) return bad(k, "scope", i, "diameter_meters", v[1]);
        if (v[2] < 1 || v[2] > 6000) return bad(k, "scope", i, "elevation_top_meters", v[2]);
        if (v[3] < 1 || v[3] > 100000) return bad(k, "scope", i, "walk_meters_per_hour", v[3]);
        if (v[4] < 3 || v[4] > v[5] || v[5] > ISLAND_MAX_SITES) return bad(k, "scope", i, "site count min", v[4]);
        if (v[7] > 1) return bad(k, "scope", i, "hull_coast", v[7]);
        if (v[8] < 1) return bad(k, "scope", i, "max_sites_per_type", v[8]);
        if (v[9] > 100000) return bad(k, "scope", i, "crowding_penalty", v[9]);
        if (v[10] < 1000 || v[10] > 100000) return bad(k, "scope", i, "extra_edge_detour_factor", v[10]);
        if (v[11] > 10000 || v[12] >= v[11]) return bad(k, "scope", i, "gathering_minutes", v[12]);
        if (v[13] >= cx->n_axes) return bad(k, "scope", i, "elevation axis", v[13]);
        if (v[14] >= cx->n_axes) return bad(k, "scope", i, "coast axis", v[14]);
        if (v[15] >= cx->n_types) return bad(k, "scope", i, "base type", v[15]);
        if (v[16] >= cx->n_types) return bad(k, "scope", i, "fallback type", v[16]);
        s->hull_coast = (uint8_t)v[7];
        s->elevation_axis = (uint8_t)v[13];
        s->coast_axis = (uint8_t)v[14];
        s->base_type = (uint8_t)v[15];
        s->fallback_type = (uint8_t)v[16];
        const IslandAxis *ca = &cx->axes[s->coast_axis];
        if (s->coast_band < ca->min || s->coast_band > ca->max) return bad(k, "scope", i, "coast_band", s->coast_band);
        if (!range_ok(k, v[17], v[18], PAK_GUAR, ISLAND_MAX_GUARANTEES, "scope", i)) return false;
        s->n_guarantees = (uint8_t)v[18];
        uint32_t slots = 0;
        for (uint32_t j = 0; j < v[18]; j++) {
            const uint8_t *q = rec(k, PAK_GUAR, v[17] + j);
            uint32_t type = pak_rd32(q), axis = pak_rd32(q + 4), pick = pak_rd32(q + 8), count = pak_rd32(q + 12);
            if (type >= cx->n_types) return bad(k, "guarantee", v[17] + j, "location type", type);
            if (axis >= cx->n_axes) return bad(k, "guarantee", v[17] + j, "axis", axis);
            if (pick > ISLAND_PICK_MIN) return bad(k, "guarantee", v[17] + j, "pick", pick);
            if (count < 1 || count > ISLAND_MAX_GUARANTEE_SLOTS) return bad(k, "guarantee", v[17] + j, "count", count);
            slots += count;
            s->guarantees[j] = (IslandGuarantee){(uint8_t)type, (uint8_t)axis, (uint8_t)pick, (uint8_t)count};
        }
        if (slots > ISLAND_MAX_GUARANTEE_SLOTS || slots > s->site_min)
            return bad(k, "scope", i, "guaranteed site count", slots);
        for (uint32_t j = 0; j < i; j++)
            if (!strcmp(cx->scopes[j].id, s->id)) {
                sky_error_set(k->err, SKY_ERR_INPUT, "pack: scope '%s' appears twice" FIX, s->id);
                return false;
            }
    }
    return true;
}

static bool read_texts(Dec *k, IslandCodex *cx) {
    if (k->sec[PAK_TEXT].count > ISLAND_MAX_TEXTS) return bad(k, "text table", 0, "count", k->sec[PAK_TEXT].count);
    cx->n_texts = k->sec[PAK_TEXT].count;
    for (uint32_t i = 0; i < cx->n_texts; i++) {
        const uint8_t *r = rec(k, PAK_TEXT, i);
        IslandText *t = &cx->texts[i];
        if (!id_at(k, pak_rd32(r), "text", i, &t->lang) || !id_at(k, pak_rd32(r + 4), "text", i, &t->key) ||
            !str_at(k, pak_rd32(r + 8), "text", i, &t->text))
            return false;
        if (i > 0) {
            const IslandText *p = &cx->texts[i - 1];
            int c = strcmp(p->lang, t->lang);
            if (c > 0 || (c == 0 && strcmp(p->key, t->key) >= 0)) {
                sky_error_set(k->err, SKY_ERR_INPUT, "pack: text %u (%s %s) is out of order or repeated" FIX, i, t->lang, t->key);
                return false;
            }
        }
    }
    return true;
}

/* Cargo (CARG): ids unique, each had somewhere and wanted somewhere, by types the pack has. */
static bool read_cargo(Dec *k, IslandCodex *cx) {
    if (k->sec[PAK_CARG].count > ISLAND_MAX_CARGO) return bad(k, "cargo table", 0, "count", k->sec[PAK_CARG].count);
    cx->n_cargo = k->sec[PAK_CARG].count;
    uint32_t all = cx->n_types >= 32 ? UINT32_MAX : (1u << cx->n_types) - 1u;
    for (uint32_t i = 0; i < cx->n_cargo; i++) {
        const uint8_t *r = rec(k, PAK_CARG, i);
        IslandCargo *c = &cx->cargo[i];
        if (!id_at(k, pak_rd32(r), "cargo", i, &c->id)) return false;
        c->from_mask = pak_rd32(r + 4);
        c->to_mask = pak_rd32(r + 8);
        if (c->from_mask == 0 || (c->from_mask & ~all)) return bad(k, "cargo", i, "from mask", c->from_mask);
        if (c->to_mask == 0 || (c->to_mask & ~all)) return bad(k, "cargo", i, "to mask", c->to_mask);
        for (uint32_t j = 0; j < i; j++)
            if (!strcmp(cx->cargo[j].id, c->id)) {
                sky_error_set(k->err, SKY_ERR_INPUT, "pack: cargo '%s' appears twice" FIX, c->id);
                return false;
            }
    }
    return true;
}

/* The archipelago (ARCH, ANML, ANMP): no record, no archipelago; else values in range, every
 * language's lists inside ANMP, the pattern with one {name}. */
static bool read_archipelago(Dec *k, IslandCodex *cx) {
    if (k->sec[PAK_ARCH].count == 0) {
        if (k->sec[PAK_ANML].count || k->sec[PAK_ANMP].count) return bad(k, "archipelago", 0, "name records without it", k->sec[PAK_ANML].count);
        return true;
    }
    if (k->sec[PAK_ARCH].count > 1) return bad(k, "archipelago table", 0, "count", k->sec[PAK_ARCH].count);
    IslandArchipelago *a = &cx->arch;
    const uint8_t *r = rec(k, PAK_ARCH, 0);
    a->cell_m = pak_rd32(r);
    a->share_permille = pak_rd32(r + 4);
    a->diameter_min_m = pak_rd32(r + 8);
    a->diameter_max_m = pak_rd32(r + 12);
    a->coast_amplitude_milli = pak_rd32(r + 16);
    a->coast_frequency_milli = pak_rd32(r + 20);
    a->coast_octaves = pak_rd32(r + 24);
    char why[160];
    const char *field = island_archipelago_check(a, cx, why, sizeof why);
    if (field) {
        sky_error_set(k->err, SKY_ERR_INPUT, "pack: archipelago %s: %s" FIX, field, why);
        return false;
    }
    if (k->sec[PAK_ANML].count == 0 || k->sec[PAK_ANML].count > ISLAND_MAX_NAME_LANGS)
        return bad(k, "archipelago name table", 0, "language count", k->sec[PAK_ANML].count);
    if (k->sec[PAK_ANMP].count > ISLAND_MAX_NAME_PARTS) return bad(k, "archipelago word table", 0, "count", k->sec[PAK_ANMP].count);
    a->n_parts = k->sec[PAK_ANMP].count;
    for (uint32_t i = 0; i < a->n_parts; i++)
        if (!id_at(k, pak_rd32(rec(k, PAK_ANMP, i)), "island-name word", i, &a->parts[i])) return false;
    a->n_langs = k->sec[PAK_ANML].count;
    for (uint32_t i = 0; i < a->n_langs; i++) {
        const uint8_t *q = rec(k, PAK_ANML, i);
        IslandNameLang *l = &a->langs[i];
        uint32_t fa = pak_rd32(q + 12), na = pak_rd32(q + 16), fb = pak_rd32(q + 20), nb = pak_rd32(q + 24);
        if (!id_at(k, pak_rd32(q), "island-name language", i, &l->lang) ||
            !id_at(k, pak_rd32(q + 4), "island-name pattern", i, &l->pattern) ||
            !id_at(k, pak_rd32(q + 8), "home island name", i, &l->home) ||
            !range_ok(k, fa, na, PAK_ANMP, ISLAND_MAX_NAME_LIST, "island-name language", i) ||
            !range_ok(k, fb, nb, PAK_ANMP, ISLAND_MAX_NAME_LIST, "island-name language", i))
            return false;
        if (na * nb < ISLAND_NAME_WINDOW * ISLAND_NAME_WINDOW) return bad(k, "island-name language", i, "names (first x second)", na * nb);
        const char *p = strstr(l->pattern, "{name}");
        if (!p || strstr(p + 1, "{name}")) return bad(k, "island-name language", i, "{name} in its pattern", p ? 2 : 0);
        l->first_a = (uint16_t)fa;
        l->n_a = (uint16_t)na;
        l->first_b = (uint16_t)fb;
        l->n_b = (uint16_t)nb;
        for (uint32_t j = 0; j < i; j++)
            if (!strcmp(a->langs[j].lang, l->lang)) {
                sky_error_set(k->err, SKY_ERR_INPUT, "pack: island names in '%s' appear twice" FIX, l->lang);
                return false;
            }
    }
    cx->has_archipelago = true;
    return true;
}

bool island_pak_load(IslandCodex *cx, const void *data, size_t len, SkyError *err) {
    Dec k = {.d = data, .len = len, .err = err};
    memset(cx, 0, sizeof *cx);
    if (!data) {
        sky_error_set(err, SKY_ERR_INPUT, "pack: no data (this binary embeds no default pack: pass --pak FILE)");
        return false;
    }
    if (!read_header(&k)) return false;
    cx->version = k.version;
    cx->checksum = pak_rd64(k.d + PAK_OFF_CHECKSUM);
    if (k.sec[PAK_SCOP].count == 0 || k.sec[PAK_SCOP].count > ISLAND_MAX_SCOPES)
        return bad(&k, "scope table", 0, "count", k.sec[PAK_SCOP].count);
    cx->n_scopes = k.sec[PAK_SCOP].count;
    if (!read_axes(&k, cx) || !read_props(&k, cx) || !read_types(&k, cx) || !read_scopes(&k, cx) ||
        !read_texts(&k, cx) || !read_cargo(&k, cx) || !read_archipelago(&k, cx)) {
        memset(cx, 0, sizeof *cx);
        return false;
    }
    return true;
}

int island_codex_find_axis(const IslandCodex *cx, const char *id) {
    for (uint32_t i = 0; i < cx->n_axes; i++)
        if (!strcmp(cx->axes[i].id, id)) return (int)i;
    return -1;
}

int island_codex_find_type(const IslandCodex *cx, const char *id) {
    for (uint32_t i = 0; i < cx->n_types; i++)
        if (!strcmp(cx->types[i].id, id)) return (int)i;
    return -1;
}

int island_codex_find_scope(const IslandCodex *cx, const char *id) {
    for (uint32_t i = 0; i < cx->n_scopes; i++)
        if (!strcmp(cx->scopes[i].id, id)) return (int)i;
    return -1;
}

int island_codex_find_cargo(const IslandCodex *cx, const char *id) {
    for (uint32_t i = 0; i < cx->n_cargo; i++)
        if (!strcmp(cx->cargo[i].id, id)) return (int)i;
    return -1;
}

const char *island_codex_text(const IslandCodex *cx, const char *lang, const char *key) {
    uint32_t lo = 0, hi = cx->n_texts;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const IslandText *t = &cx->texts[mid];
        int c = strcmp(t->lang, lang);
        if (c == 0) c = strcmp(t->key, key);
        if (c == 0) return t->text;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return text_codex(lang, key);   /* a language built into the game rather than packed */
}

bool island_codex_prop(const IslandCodex *cx, uint32_t type, int variant, const char *key, int32_t *value) {
    if (type >= cx->n_types) return false;
    const IslandType *t = &cx->types[type];
    bool found = false;
    for (uint32_t i = 0; i < t->n_props; i++)
        if (!strcmp(cx->props[t->first_prop + i].key, key)) {
            *value = cx->props[t->first_prop + i].value;
            found = true;
        }
    if (!found || variant < 0 || (uint32_t)variant >= t->n_variants) return found;
    const IslandVariant *v = &cx->variants[t->first_variant + (uint32_t)variant];
    for (uint32_t i = 0; i < v->n_props; i++)
        if (!strcmp(cx->props[v->first_prop + i].key, key)) *value = cx->props[v->first_prop + i].value;
    return true;
}
