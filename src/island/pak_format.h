/* skyisles island: on-disk layout of the codex pack shared by the loader and the writer.
 * Every field is a little-endian uint32 unless noted; docs/pack-format.md is the reference. */
#ifndef SKYISLES_ISLAND_PAK_FORMAT_H
#define SKYISLES_ISLAND_PAK_FORMAT_H

#include <stdint.h>
#include <string.h>

/* "SKYPAK" + 0x1a 0x0a: catches text-mode transfers and files that are not packs. */
static const uint8_t PAK_MAGIC[8] = {'S', 'K', 'Y', 'P', 'A', 'K', 0x1a, 0x0a};

enum {
    PAK_OFF_MAGIC = 0, PAK_OFF_VERSION = 8, PAK_OFF_HEADER_SIZE = 12, PAK_OFF_FILE_SIZE = 16,
    PAK_OFF_SECTION_COUNT = 20, PAK_OFF_CHECKSUM = 24, PAK_OFF_FLAGS = 32,
    PAK_SECTION_ENTRY = 16,   /* tag, offset, size, count */
};

/* Sections in the order the writer emits them. Record sizes in bytes. */
typedef enum PakSection {
    PAK_STRS, PAK_AXIS, PAK_TERM, PAK_TYPE, PAK_PREF, PAK_LIMT, PAK_PROP, PAK_VARI, PAK_SCOP, PAK_GUAR, PAK_TEXT,
    PAK_CARG, PAK_ARCH, PAK_ANML, PAK_ANMP, PAK_SECTION_KINDS
} PakSection;
/* Version 3 packs end after CARG: the archipelago's three sections are absent. */
#define PAK_SECTION_KINDS_V3 12u

static const char PAK_TAGS[PAK_SECTION_KINDS][5] = {
    "STRS", "AXIS", "TERM", "TYPE", "PREF", "LIMT", "PROP", "VARI", "SCOP", "GUAR", "TEXT", "CARG", "ARCH", "ANML", "ANMP",
};
static const uint32_t PAK_RECORD_SIZE[PAK_SECTION_KINDS] = {
    1,       /* STRS: bytes; count = size */
    6 * 4,   /* AXIS: id, min, max, stretch, first_term, n_terms */
    6 * 4,   /* TERM: kind, reference, octaves, weight, frequency_milli, seed_offset */
    13 * 4,  /* TYPE: id, move_cost_milli, scope_mask, first_pref, n_prefs, first_limit, n_limits,
                      first_prop, n_props, first_variant, n_variants, landmark, flora */
    4 * 4,   /* PREF: axis, ideal, tolerance, weight */
    3 * 4,   /* LIMT: axis, min, max */
    2 * 4,   /* PROP: key, value */
    3 * 4,   /* VARI: id, first_prop, n_props */
    19 * 4,  /* SCOP: id, diameter_m, elevation_top_m, walk_m_per_hour, site_min, site_max, coast_band,
                      hull_coast, max_sites_per_type, crowding_penalty_milli, detour_factor_milli,
                      outdoor_minutes, gathering_minutes, elevation_axis, coast_axis, base_type,
                      fallback_type, first_guarantee, n_guarantees */
    4 * 4,   /* GUAR: type, axis, pick, count */
    3 * 4,   /* TEXT: lang, key, text */
    3 * 4,   /* CARG: id, from_mask, to_mask (bit t: location type t) */
    7 * 4,   /* ARCH (0 or 1 record): cell_m, share_permille, diameter_min_m, diameter_max_m,
                      coast_amplitude_milli, coast_frequency_milli, coast_octaves */
    7 * 4,   /* ANML: lang, pattern, home (str), first_a, n_a, first_b, n_b (into ANMP) */
    1 * 4,   /* ANMP: word (str) */
};

static inline uint32_t pak_tag_value(const char *t) {
    return (uint32_t)(uint8_t)t[0] | (uint32_t)(uint8_t)t[1] << 8 | (uint32_t)(uint8_t)t[2] << 16 |
           (uint32_t)(uint8_t)t[3] << 24;
}
static inline uint32_t pak_rd32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t pak_rd64(const uint8_t *p) { return (uint64_t)pak_rd32(p) | (uint64_t)pak_rd32(p + 4) << 32; }
static inline void pak_wr32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline void pak_wr64(uint8_t *p, uint64_t v) { pak_wr32(p, (uint32_t)v); pak_wr32(p + 4, (uint32_t)(v >> 32)); }

#endif
