/* skyisles island: naming (I12). A type seen once is named by its id; several get its variants
 * in a shuffled order, then serial numbers. Names are ids; text comes from the localisation. */
#include "island/island_int.h"

#include <stdio.h>

void isl_name_sites(Island *isl, const IslandCodex *cx) {
    Rng r;
    rng_seed(&r, isl->seed, ISL_STREAM_NAMES);
    uint16_t perm[ISLAND_MAX_VARIANTS];
    for (uint32_t t = 0; t < cx->n_types; t++) {
        if (isl->type_count[t] < 2) continue;
        const uint32_t nv = cx->types[t].n_variants;
        for (uint32_t i = 0; i < nv; i++) perm[i] = (uint16_t)i;
        for (uint32_t i = nv; i > 1; i--) {   /* Fisher-Yates */
            uint32_t j = rng_below(&r, i);
            uint16_t x = perm[i - 1];
            perm[i - 1] = perm[j];
            perm[j] = x;
        }
        uint32_t k = 0;
        for (uint32_t i = 0; i < isl->n_sites; i++) {
            if (isl->sites[i].type != t) continue;
            if (k < nv) isl->sites[i].variant = (int16_t)perm[k];
            else isl->sites[i].serial = (uint16_t)(k + 1);
            k++;
        }
    }
}

void island_site_name_id(const Island *isl, const IslandCodex *cx, uint32_t site, char *buf, size_t n) {
    if (!n) return;
    if (site >= isl->n_sites) {
        buf[0] = 0;
        return;
    }
    const IslandSite *s = &isl->sites[site];
    const IslandType *t = &cx->types[s->type];
    if (s->variant >= 0) snprintf(buf, n, "%s.%s", t->id, cx->variants[t->first_variant + (uint32_t)s->variant].id);
    else if (s->serial) snprintf(buf, n, "%s#%u", t->id, s->serial);
    else snprintf(buf, n, "%s", t->id);
}

void island_site_display_name(const Island *isl, const IslandCodex *cx, uint32_t site, const char *lang,
                              char *buf, size_t n) {
    if (!n) return;
    buf[0] = 0;
    if (site >= isl->n_sites) return;
    const IslandSite *s = &isl->sites[site];
    const IslandType *t = &cx->types[s->type];
    char key[128];
    if (s->variant >= 0) {
        const char *vid = cx->variants[t->first_variant + (uint32_t)s->variant].id;
        snprintf(key, sizeof key, "variant.%s.%s", t->id, vid);
        const char *txt = island_codex_text(cx, lang, key);
        snprintf(buf, n, "%s", txt ? txt : key + 8);
        return;
    }
    snprintf(key, sizeof key, "type.%s", t->id);
    const char *type_txt = island_codex_text(cx, lang, key);
    if (!type_txt) type_txt = t->id;
    if (!s->serial) {
        snprintf(buf, n, "%s", type_txt);
        return;
    }
    char ord[32];
    snprintf(key, sizeof key, "ordinal.%u", s->serial);
    const char *ord_txt = island_codex_text(cx, lang, key);
    if (!ord_txt) {
        snprintf(ord, sizeof ord, "%u", s->serial);
        ord_txt = ord;
    }
    const char *pat = island_codex_text(cx, lang, "serial_pattern");
    if (!pat) pat = "{type} ({ordinal})";
    size_t o = 0;
    for (const char *p = pat; *p && o + 1 < n;) {
        const char *ins = NULL;
        if (!strncmp(p, "{type}", 6)) ins = type_txt, p += 6;
        else if (!strncmp(p, "{ordinal}", 9)) ins = ord_txt, p += 9;
        if (ins) {
            while (*ins && o + 1 < n) buf[o++] = *ins++;
        } else {
            buf[o++] = *p++;
        }
    }
    buf[o] = 0;
}
