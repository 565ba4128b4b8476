/* TEMPORARY: the archipelago API of src/island as agreed (issue 38), until its commit lands;
 * removed at that merge. Cells of 4096 m, seven in eight with an island near the centre. */
#ifndef SKYISLES_COURSE_ISLE_STUB_H
#define SKYISLES_COURSE_ISLE_STUB_H

#include <stdio.h>

typedef struct IslandCellSite { bool has_island; uint64_t seed; int64_t centre_x_m, centre_z_m; uint32_t diameter_m; } IslandCellSite;

static inline bool island_codex_has_archipelago(const IslandCodex *cx) { return cx != NULL; }
static inline uint32_t island_codex_cell_m(const IslandCodex *cx) { (void)cx; return 4096; }
static inline uint64_t isle_stub_seed(uint64_t seed, int64_t x, int64_t z) {
    uint64_t s = seed ^ (uint64_t)x * 0x9e3779b97f4a7c15ull ^ (uint64_t)z * 0xc2b2ae3d27d4eb4full;
    return splitmix64_next(&s);
}
static inline void island_cell_site(const IslandCodex *cx, uint64_t seed, int64_t x, int64_t z, IslandCellSite *out) {
    (void)cx;
    uint64_t s = isle_stub_seed(seed, x, z);
    out->has_island = (x == 0 && z == 0) || (s & 7u) != 0;
    out->seed = x == 0 && z == 0 ? seed : s;
    out->centre_x_m = x * 4096 + (x || z ? (int64_t)((s >> 8) % 401) - 200 : 0);
    out->centre_z_m = z * 4096 + (x || z ? (int64_t)((s >> 20) % 401) - 200 : 0);
    out->diameter_m = 640;
}
static inline void island_cell_name(const IslandCodex *cx, uint64_t seed, int64_t x, int64_t z, const char *lang, char *buf,
                                    size_t n) {
    (void)cx;
    (void)lang;
    snprintf(buf, n, "Isle %llx", (unsigned long long)(isle_stub_seed(seed, x, z) & 0xfff));
}

#endif
