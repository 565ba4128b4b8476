/* Tests for the home island's borders between places: the built-in pack's
 * island baked as the game bakes it (seed 20261129) and meshed by the world. Borders are wavy
 * (no straight run along any 32-block stretch), the ground colour changes across a border over
 * a band at least 4 blocks wide with no neighbour step larger than a biome border's largest,
 * and the map (the field's type grid) and the ground (the meshed top faces' colour) agree; the
 * bake is the same bits on every platform. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "island/island.h"
#include "support/home_world.h"
#include "world/world.h"

#define FIELD HOME_FIELD_CELLS
#define HALF 320                   /* the island's 640 m, blocks either side of the centre */
#define SPAN (2 * HALF)
#define MESH_HALF 160              /* the ground read back from meshes: the island's middle 320 x 320 */
#define MESH_SPAN (2 * MESH_HALF)
/* The baked places and ground colours (type and ground_rgb grids), recorded on x86_64: the bake
 * uses + - * / and sqrt on doubles and the island's own sine, so every platform bakes these bits. */
#define FIELD_HASH 0x96c8076c83853831ull

typedef struct Home {
    HomeIsland home;
    uint8_t type[SPAN][SPAN];      /* the map: field type per block column (x, z = index - HALF) */
    int16_t rgb[MESH_SPAN][MESH_SPAN][4];   /* the ground: its top face's colour without AO, -1 none; [3]: its y */
} Home;

static Home g_home;

static uint8_t type_at(const IslandField *f, int x, int z) {
    float u = ((float)x + 0.5f - f->centre_x) / f->cell_meters + 0.5f * (float)f->size;
    float v = ((float)z + 0.5f - f->centre_z) / f->cell_meters + 0.5f * (float)f->size;
    if (!(u >= 0.0f && v >= 0.0f && u < (float)f->size && v < (float)f->size)) return ISLAND_FIELD_OFF;
    return f->type[(uint32_t)v * f->size + (uint32_t)u];
}

static int setup(void **state) {
    (void)state;
    Home *h = &g_home;
    SkyError err = {0};
    if (!home_island_make(&h->home, 20261129, &err)) {
        fprintf(stderr, "home island: %s\n", err.msg);
        return -1;
    }
    for (int z = 0; z < SPAN; z++)
        for (int x = 0; x < SPAN; x++) h->type[z][x] = type_at(&h->home.field, x - HALF, z - HALF);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    home_island_release(&g_home.home);
    return 0;
}

/* A place of the map at block (x, z): its type, or ISLAND_FIELD_OFF off the island or beyond. */
static uint8_t map_at(int x, int z) {
    if (x < -HALF || z < -HALF || x >= HALF || z >= HALF) return ISLAND_FIELD_OFF;
    return g_home.type[z + HALF][x + HALF];
}

/* ---------------------------------------------------------------- wavy borders */
#define MAX_EDGE_PTS 40000
typedef struct EdgePt { float x, z; uint16_t pair; } EdgePt;
static EdgePt g_pts[MAX_EDGE_PTS];

/* Along any 32-block stretch of a border between two places, the border departs from the
 * straight line between the stretch's ends by at least 3 blocks. A border is the block edges
 * between columns of two types; a stretch is that border's edges within 16 blocks of one of them
 * (its ends the two farthest apart, at least 28 blocks: the border crosses the disk). */
static void test_borders_are_wavy(void **state) {
    (void)state;
    uint32_t n = 0;
    for (int z = -HALF; z < HALF - 1; z++)
        for (int x = -HALF; x < HALF - 1; x++) {
            uint8_t a = map_at(x, z);
            if (a == ISLAND_FIELD_OFF) continue;
            for (int d = 0; d < 2; d++) {
                uint8_t b = d ? map_at(x, z + 1) : map_at(x + 1, z);
                if (b == ISLAND_FIELD_OFF || b == a || n >= MAX_EDGE_PTS) continue;
                uint8_t lo = a < b ? a : b, hi = a < b ? b : a;
                g_pts[n].x = d ? (float)x + 0.5f : (float)x + 1.0f;
                g_pts[n].z = d ? (float)z + 1.0f : (float)z + 0.5f;
                g_pts[n].pair = (uint16_t)(lo << 8 | hi);
                n++;
            }
        }
    assert_true(n < MAX_EDGE_PTS);
    static uint32_t near[MAX_EDGE_PTS];
    uint32_t stretches = 0, straight = 0, hist[8] = {0};
    double least = 1e9;
    const uint32_t stride = 2u;
    for (uint32_t i = 0; i < n; i += stride) {
        uint32_t m = 0;
        for (uint32_t j = 0; j < n; j++) {
            if (g_pts[j].pair != g_pts[i].pair) continue;
            float dx = g_pts[j].x - g_pts[i].x, dz = g_pts[j].z - g_pts[i].z;
            if (dx * dx + dz * dz <= 16.0f * 16.0f) near[m++] = j;
        }
        uint32_t ea = 0, eb = 0;
        float far2 = -1.0f;
        for (uint32_t p = 0; p < m; p++)
            for (uint32_t q = p + 1; q < m; q++) {
                float dx = g_pts[near[q]].x - g_pts[near[p]].x, dz = g_pts[near[q]].z - g_pts[near[p]].z;
                if (dx * dx + dz * dz > far2) far2 = dx * dx + dz * dz, ea = near[p], eb = near[q];
            }
        if (far2 < 28.0f * 28.0f) continue;
        double lx = g_pts[eb].x - g_pts[ea].x, lz = g_pts[eb].z - g_pts[ea].z, len = sqrt(lx * lx + lz * lz), dev = 0.0;
        for (uint32_t p = 0; p < m; p++) {
            double d = fabs((g_pts[near[p]].x - g_pts[ea].x) * lz - (g_pts[near[p]].z - g_pts[ea].z) * lx) / len;
            if (d > dev) dev = d;
        }
        stretches++;
        straight += dev < 3.0;
        hist[dev < 7.0 ? (int)dev : 7]++;
        if (dev < least) least = dev;
    }
    printf("borders: %u edge points, %u stretches of 28-32 blocks; least departure %.2f blocks; by whole blocks "
           "0-6, 7+: %u %u %u %u %u %u %u %u\n", n, stretches, least, hist[0], hist[1], hist[2], hist[3], hist[4],
           hist[5], hist[6], hist[7]);
    assert_true(stretches >= 200);
    assert_int_equal(straight, 0);
}

/* ---------------------------------------------------------------- the ground's colour */
/* A world with the island and no colour jitter (the blend is what is measured; the jitter adds
 * the same speckle on every ground), or with biomes and no island (home NULL). */
typedef TestWorld Rig;

static void rig_open(Rig *r, const IslandField *home) {
    SkyError err = {0};
    WorldParams *p = &r->params;
    world_params_default(p);
    p->gen.seed = 20261129;
    p->gen.jitter_amount = 0.0f;
    p->gen.snow_level = 200.0f;
    p->gen.clouds = false;
    p->gen.cave_modes = 0;
    if (!home) p->gen.island_threshold = -0.5f;   /* continuous island tops: the biomes' ground */
    p->live.view_radius = 1;
    p->create.mesh_pool_mib = 8;
    p->create.workers = 1;
    if (!test_world_open(r, 64, NULL, home, &err)) fail_msg("world: %s", err.msg);
}

static void rig_close(Rig *r) { test_world_close(r); }

/* The colour of each column's highest top face of material mat in chunk (cx, cz), from a vertex
 * with no AO (the face's colour x the light at its height), into col[z][x] with the face's y in
 * [3] (r = -1: none). */
static void top_colours(Rig *r, int32_t cx, int32_t cz, int mat, int16_t col[CHUNK_SIZE][CHUNK_SIZE][4]) {
    int ymax[CHUNK_SIZE][CHUNK_SIZE];
    for (int z = 0; z < CHUNK_SIZE; z++)
        for (int x = 0; x < CHUNK_SIZE; x++) col[z][x][0] = -1, ymax[z][x] = -1000;
    ChunkMesh m;
    WorldBuildTiming t;
    assert_true(world_build_chunk_lod(r->world, cx, cz, 0, 0.0, &m, &t));
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < m.opaque_parts; i++)
            for (uint32_t q = 0; q < m.parts[i].vert_count; q += 4) {
                const WorldVertex *v = &m.parts[i].verts[q];
                if (v->normal != WORLD_NORMAL_PY) continue;
                int x0 = v[0].x, z0 = v[0].z;
                for (int k = 1; k < 4; k++) {
                    if (v[k].x < x0) x0 = v[k].x;
                    if (v[k].z < z0) z0 = v[k].z;
                }
                if (x0 < 0 || z0 < 0 || x0 >= CHUNK_SIZE || z0 >= CHUNK_SIZE) continue;
                if (pass == 0) {
                    if (v->y > ymax[z0][x0]) ymax[z0][x0] = v->y;
                    continue;
                }
                if (v->y != ymax[z0][x0] || (int)(v->flags >> 2) != mat) continue;
                for (int k = 0; k < 4; k++)
                    if ((v[k].flags & 3u) == 3u) {
                        col[z0][x0][0] = v[k].r, col[z0][x0][1] = v[k].g, col[z0][x0][2] = v[k].b;
                        col[z0][x0][3] = (int16_t)v->y;
                        break;
                    }
            }
    world_free_mesh(r->world, &m);
}

static int step_of(const int16_t *a, const int16_t *b) {
    int s = 0;
    for (int k = 0; k < 3; k++)
        if (abs(a[k] - b[k]) > s) s = abs(a[k] - b[k]);
    return s;
}

/* The largest neighbour step of the grass across the archipelago's biome borders: rows of
 * columns z = 16 + 1024 k, x 0..2047 (the first holds the temperate / snowy border that
 * test_world_biome finds at x 800..1312); away from a border the grass does not change. Pairs
 * at one height only: the light falls with altitude, which is no border. */
static int biome_largest_step(void) {
    Rig r;
    rig_open(&r, NULL);
    static int16_t col[CHUNK_SIZE][CHUNK_SIZE][4];
    int worst = 0, changing = 0;
    const int rows = 3;
    for (int k = 0; k < rows; k++) {
        int16_t prev[4] = {-1, -1, -1, -1};
        int32_t lastx = 0;
        for (int32_t cx = 0; cx < 64; cx++) {
            top_colours(&r, cx, k * 32, WORLD_MAT_GRASS, col);
            for (int x = 0; x < CHUNK_SIZE; x++) {
                const int16_t *c = col[16][x];
                int gx = cx * CHUNK_SIZE + x;
                if (c[0] < 0) continue;
                if (prev[0] >= 0 && gx == lastx + 1 && prev[3] == c[3]) {
                    int s = step_of(c, prev);
                    if (s > worst) worst = s;
                    changing += s > 0;
                }
                memcpy(prev, c, sizeof prev);
                lastx = gx;
            }
        }
    }
    printf("biome borders: %d rows, %d changing neighbour pairs, largest step %d\n", rows, changing, worst);
    assert_true(changing >= 100);
    rig_close(&r);
    return worst;
}

static void scan_home(Rig *r) {
    static int16_t col[CHUNK_SIZE][CHUNK_SIZE][4];
    for (int32_t cz = -MESH_HALF / CHUNK_SIZE; cz < MESH_HALF / CHUNK_SIZE; cz++)
        for (int32_t cx = -MESH_HALF / CHUNK_SIZE; cx < MESH_HALF / CHUNK_SIZE; cx++) {
            top_colours(r, cx, cz, WORLD_MAT_HOME, col);
            for (int z = 0; z < CHUNK_SIZE; z++)
                for (int x = 0; x < CHUNK_SIZE; x++) {
                    int gx = cx * CHUNK_SIZE + x + MESH_HALF, gz = cz * CHUNK_SIZE + z + MESH_HALF;
                    memcpy(g_home.rgb[gz][gx], col[z][x], sizeof col[z][x]);
                }
        }
}

/* A ground column of the meshed middle at block (x, z): lit, on a place, not on a path. */
static const int16_t *ground_at(int x, int z) {
    if (x < -MESH_HALF || z < -MESH_HALF || x >= MESH_HALF || z >= MESH_HALF) return NULL;
    const int16_t *c = g_home.rgb[z + MESH_HALF][x + MESH_HALF];
    if (c[0] < 0 || map_at(x, z) >= ISLAND_FIELD_MAX_TYPES) return NULL;
    if (island_field_path_at(&g_home.home.field, (float)x + 0.5f, (float)z + 0.5f)) return NULL;
    return c;
}

/* The light at each height y (WORLD_Y_MIN-based index): the median ratio of the ground there to
 * its map type's colour (most columns lie inside a place). 0: no ground at that height. */
static double g_light[WORLD_Y_MAX - WORLD_Y_MIN + 1];

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define LIGHT_LEVELS (WORLD_Y_MAX - WORLD_Y_MIN + 1)

/* One pass over the columns, their ratios gathered by height, then each height's median. */
static void measure_light(void) {
    static double ratio[MESH_SPAN * MESH_SPAN], by_height[MESH_SPAN * MESH_SPAN];
    static int16_t level[MESH_SPAN * MESH_SPAN];
    uint32_t count[LIGHT_LEVELS] = {0}, start[LIGHT_LEVELS], n = 0;
    const IslandField *f = &g_home.home.field;
    for (int z = -MESH_HALF; z < MESH_HALF; z++)
        for (int x = -MESH_HALF; x < MESH_HALF; x++) {
            const int16_t *c = ground_at(x, z);
            if (!c || c[3] < WORLD_Y_MIN || c[3] > WORLD_Y_MAX) continue;
            uint32_t rgb = f->type_rgb[map_at(x, z)];
            double s = (double)((rgb >> 16) & 0xffu) + (double)((rgb >> 8) & 0xffu) + (double)(rgb & 0xffu);
            ratio[n] = (double)(c[0] + c[1] + c[2]) / s;
            level[n] = (int16_t)(c[3] - WORLD_Y_MIN);
            count[level[n]]++;
            n++;
        }
    for (uint32_t y = 0, at = 0; y < LIGHT_LEVELS; at += count[y], y++) start[y] = at;
    for (uint32_t i = 0; i < n; i++) by_height[start[level[i]]++] = ratio[i];
    for (uint32_t y = 0; y < LIGHT_LEVELS; y++) {
        double *r = by_height + start[y] - count[y];
        g_light[y] = 0.0;
        if (count[y] < 5) continue;
        qsort(r, count[y], sizeof r[0], cmp_double);
        g_light[y] = r[count[y] / 2];
    }
}

/* The ground at (x, z) with the light of its height taken out (the colour the mesher mixed,
 * within rounding), or false. */
static bool base_at(int x, int z, double out[3]) {
    const int16_t *c = ground_at(x, z);
    if (!c) return false;
    double l = g_light[c[3] - WORLD_Y_MIN];
    if (!(l > 0.0)) return false;
    for (int k = 0; k < 3; k++) out[k] = c[k] / l;
    return true;
}

/* The place the ground at (x, z) looks like: of the types the map has within 12 blocks, the one
 * whose colour is nearest to the base colour c (types far away may share a colour). */
static uint8_t owner_of(int x, int z, const double *c) {
    const IslandField *f = &g_home.home.field;
    bool near[ISLAND_FIELD_MAX_TYPES] = {false};
    for (int j = -12; j <= 12; j += 2)
        for (int i = -12; i <= 12; i += 2) {
            uint8_t t = map_at(x + i, z + j);
            if (t < ISLAND_FIELD_MAX_TYPES) near[t] = true;
        }
    uint8_t best = 0;
    double bd = 1e30;
    for (uint32_t t = 0; t < f->n_types; t++) {
        if (!near[t]) continue;
        double d = 0.0;
        for (int k = 0; k < 3; k++) {
            double e = c[k] - (double)((f->type_rgb[t] >> (16 - 8 * k)) & 0xffu);
            d += e * e;
        }
        if (d < bd) bd = d, best = (uint8_t)t;
    }
    return best;
}

/* The blend band of a crossing along +x between (x, z) of type a and (x + 1, z) of type b whose
 * colours differ by 24 or more (per channel): with 12 columns of a then 12 of b on the ground, the
 * columns whose base colour lies between the two, 10-90% of the way from a's to b's. -1: none. */
static int crossing_band(int x, int z) {
    const IslandField *f = &g_home.home.field;
    uint8_t a = map_at(x, z), b = map_at(x + 1, z);
    if (a == b || a >= f->n_types || b >= f->n_types) return -1;
    double c[24][3], ca[3], cb[3], dd = 0.0, d = 0.0;
    for (int k = -11; k <= 12; k++)
        if (!base_at(x + k, z, c[k + 11]) || map_at(x + k, z) != (k <= 0 ? a : b)) return -1;
    for (int k = 0; k < 3; k++) {
        ca[k] = (double)((f->type_rgb[a] >> (16 - 8 * k)) & 0xffu);
        cb[k] = (double)((f->type_rgb[b] >> (16 - 8 * k)) & 0xffu);
        dd += (cb[k] - ca[k]) * (cb[k] - ca[k]);
        if (fabs(cb[k] - ca[k]) > d) d = fabs(cb[k] - ca[k]);
    }
    if (d < 24.0) return -1;
    int band = 0;
    for (int i = 0; i < 24; i++) {
        double t = 0.0;
        for (int k = 0; k < 3; k++) t += (c[i][k] - ca[k]) * (cb[k] - ca[k]);
        t /= dd;
        band += t > 0.1 && t < 0.9;
    }
    return band;
}

/* The field cell of block column (x, z) (the map's resolution), as an index, or -1 off the field. */
static int cell_of(int x, int z) {
    const IslandField *f = &g_home.home.field;
    float u = ((float)x + 0.5f - f->centre_x) / f->cell_meters + 0.5f * (float)f->size;
    float v = ((float)z + 0.5f - f->centre_z) / f->cell_meters + 0.5f * (float)f->size;
    if (!(u >= 0.0f && v >= 0.0f && u < (float)f->size && v < (float)f->size)) return -1;
    return (int)((uint32_t)v * f->size + (uint32_t)u);
}

/* Within BORDER_NEAR blocks (along x or z) of another place: the border's band and beyond. */
#define BORDER_NEAR 12
static bool near_border(int x, int z) {
    uint8_t t = map_at(x, z);
    for (int d = 1; d <= BORDER_NEAR; d++)
        if (map_at(x + d, z) != t || map_at(x - d, z) != t || map_at(x, z + d) != t || map_at(x, z - d) != t) return true;
    return false;
}

/* Across a border the ground colour changes over at least 4 blocks (rows through each crossing
 * of two places whose colours differ by 24 or more), no neighbour step on the island's ground (at
 * one height) within BORDER_NEAR blocks of a border is larger than the largest across a biome
 * border by more than 1 (inside a place its own look may change faster: the summit's snow thins
 * out), and on at least 94% of the map's
 * cells the map's type is the ground's: the type most of the cell's columns look like (the type
 * of those within 12 blocks whose colour the column's is nearest). */
static void test_ground_blends(void **state) {
    (void)state;
    const int biome_worst = biome_largest_step();
    Rig r;
    rig_open(&r, &g_home.home.field);
    scan_home(&r);
    rig_close(&r);
    measure_light();
    static uint16_t votes[FIELD * FIELD][ISLAND_FIELD_MAX_TYPES];
    memset(votes, 0, sizeof votes);
    uint32_t cols = 0, agree = 0, pairs = 0, crossings = 0, narrow = 0, band_min = 99, hist[6] = {0};
    int worst = 0, worst_inside = 0;
    for (int z = -MESH_HALF; z < MESH_HALF; z++)
        for (int x = -MESH_HALF; x < MESH_HALF; x++) {
            double b[3];
            if (!base_at(x, z, b)) continue;
            cols++;
            uint8_t own = owner_of(x, z, b);
            agree += own == map_at(x, z);
            int cell = cell_of(x, z);
            if (cell >= 0) votes[cell][own]++;
            const int16_t *c = ground_at(x, z);
            const int16_t *nb[2] = {ground_at(x + 1, z), ground_at(x, z + 1)};
            const bool border = near_border(x, z);
            for (int k = 0; k < 2; k++) {
                if (!nb[k] || nb[k][3] != c[3]) continue;
                int st = step_of(c, nb[k]);
                if (!border) {   /* inside a place: its own look (the summit's snow fading out) */
                    if (st > worst_inside) worst_inside = st;
                    continue;
                }
                pairs++;
                hist[st < 5 ? st : 5]++;
                if (st > worst) worst = st;
            }
            int band = crossing_band(x, z);
            if (band < 0) continue;
            crossings++;
            narrow += band < 4;
            if ((uint32_t)band < band_min) band_min = (uint32_t)band;
        }
    uint32_t cells = 0, cells_agree = 0;
    for (uint32_t c = 0; c < FIELD * FIELD; c++) {
        uint32_t best = 0, n = 0;
        for (uint32_t t = 0; t < ISLAND_FIELD_MAX_TYPES; t++) {
            n += votes[c][t];
            if (votes[c][t] > votes[c][best]) best = t;
        }
        if (!n) continue;
        cells++;
        cells_agree += best == g_home.home.field.type[c];
    }
    printf("ground: %u columns (%u look like their map type, %.1f%%), %u map cells: map = ground on %u (%.1f%%); "
           "%u neighbour pairs at one height within %d blocks of a border, largest step %d (biome borders %d; steps "
           "0-4, 5+: %u %u %u %u %u %u; inside places %d); %u crossings, narrowest band %u blocks, %u under 4\n", cols,
           agree, 100.0 * agree / (cols ? cols : 1), cells, cells_agree, 100.0 * cells_agree / (cells ? cells : 1), pairs,
           BORDER_NEAR, worst, biome_worst, hist[0], hist[1], hist[2], hist[3], hist[4], hist[5], worst_inside, crossings,
           band_min, narrow);
    assert_true(cells > 2000);
    assert_true(cells_agree * 100 >= cells * 94);
    assert_true(crossings >= 20);
    assert_int_equal(narrow, 0);
    assert_true(worst <= biome_worst + 1);
}

/* The bake is the same bits everywhere: the place and colour grids hash to the x86 value. */
static void test_bake_is_deterministic(void **state) {
    (void)state;
    const IslandField *f = &g_home.home.field;
    uint64_t h = hash_fnv1a64(f->type, (size_t)f->size * f->size, 0);
    h = hash_fnv1a64(f->ground_rgb, (size_t)f->size * f->size * 3, h);
    printf("field: places and ground colours hash %016llx\n", (unsigned long long)h);
    assert_int_equal(h, FIELD_HASH);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bake_is_deterministic),
        cmocka_unit_test(test_borders_are_wavy),
        cmocka_unit_test(test_ground_blends),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
