/* skyisles bench `strips`: the home island's airstrips for seeds 1..N (default 100): the
 * island's generation and field bake times (the bake lays the strips), and for every strip read
 * back from the world its length, its flatness (the highest and lowest ground block over it),
 * the objects on it and the clearance of a 3-degree glide path over the ground past each end.
 * `bench strips [--seeds N]`: one JSON line per strip, one per seed, then the totals. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course/course.h"

#define GLIDE_TAN 0.0524078   /* tan(3 degrees) */
#define CLEAR_OUT_M 600.0     /* glide-path clearance measured this far past each end */
#define CLEAR_SCAN_M 40       /* metres under the path scanned for ground */

static CourseHome g_home;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Top of the ground (the first air block's y) in column (x, z) between lo and hi, lo - 1 when none. */
static int ground_top(const World *w, double x, double z, int lo, int hi) {
    for (int y = hi; y >= lo; y--)
        if (world_solid_at(w, x, y + 0.5, z)) return y + 1;
    return lo - 1;
}

typedef struct StripFig { int lo, hi; uint32_t objects; double clearance; } StripFig;

/* Every 2 m along three lanes: the ground's range; the solid objects meeting the strip. */
static void strip_surface(const World *w, const WorldStrip *s, StripFig *fig) {
    int y = (int)s->y;
    fig->lo = 1 << 30, fig->hi = -(1 << 30);
    for (double u = 0.5; u < s->length_m; u += 2.0)
        for (int lane = -1; lane <= 1; lane++) {
            double v = lane * (0.5 * s->width_m - 0.5);
            int t = ground_top(w, s->ax + s->dir_x * u - s->dir_z * v, s->az + s->dir_z * u + s->dir_x * v, y - 12, y + 12);
            fig->lo = t < fig->lo ? t : fig->lo;
            fig->hi = t > fig->hi ? t : fig->hi;
        }
    double x0 = fmin(s->ax, s->bx) - s->width_m, x1 = fmax(s->ax, s->bx) + s->width_m;
    double z0 = fmin(s->az, s->bz) - s->width_m, z1 = fmax(s->az, s->bz) + s->width_m;
    static WorldBox box[4096];
    uint32_t n = world_solid_objects(w, (int64_t)x0, y - 2, (int64_t)z0, (int64_t)x1, y + 40, (int64_t)z1, box, 4096);
    fig->objects = 0;
    for (uint32_t i = 0; i < n && i < 4096; i++) {
        double px = 0.5 * (box[i].x0 + box[i].x1) - s->ax, pz = 0.5 * (box[i].z0 + box[i].z1) - s->az;
        double u = px * s->dir_x + pz * s->dir_z, v = pz * s->dir_x - px * s->dir_z;
        fig->objects += u >= 0.0 && u <= s->length_m && fabs(v) <= 0.5 * s->width_m + 1.0;
    }
}

/* The least height of a 3-degree path from a metre over each threshold (the wheels) over the
 * ground under it (CLEAR_SCAN_M when none within), out to CLEAR_OUT_M past both ends. */
static double strip_clearance(const World *w, const WorldStrip *s) {
    double least = CLEAR_SCAN_M;
    for (int end = 0; end < 2; end++) {
        double tx = end ? s->bx : s->ax, tz = end ? s->bz : s->az, out = end ? 1.0 : -1.0;
        for (double d = 10.0; d <= CLEAR_OUT_M; d += 10.0) {
            double x = tx + out * s->dir_x * d, z = tz + out * s->dir_z * d, gy = s->y + 1.0 + d * GLIDE_TAN;
            int top = ground_top(w, x, z, (int)floor(gy) - CLEAR_SCAN_M, (int)floor(gy));
            double c = gy - (double)top;
            if (top >= (int)floor(gy) - CLEAR_SCAN_M && c < least) least = c;
        }
    }
    return least;
}

static bool time_island(uint64_t seed, double *gen_ms, double *bake_ms) {
    static Island isl;
    static IslandField f;
    SkyError err = {0};
    mem_arena_reset(&g_home.island_arena);
    IslandParams ip = {.seed = seed, .scope = (uint32_t)g_home.scope, .site_count = 0};
    double t0 = time_now_ms();
    bool ok = island_generate(&isl, &g_home.codex, &ip, &g_home.island_arena, &err);
    double t1 = time_now_ms();
    ok = ok && island_bake_field(&f, &isl, &g_home.codex, 256, 0.0f, 0.0f, &g_home.island_arena, &err);
    *gen_ms = t1 - t0;
    *bake_ms = time_now_ms() - t1;
    mem_arena_reset(&g_home.island_arena);
    if (!ok) fprintf(stderr, "bench strips: seed %llu: %s\n", (unsigned long long)seed, err.msg);
    return ok;
}

typedef struct Totals { uint32_t seeds, base, base_open, strips, objects, uneven; double least_clear; } Totals;

static bool one_seed(uint64_t seed, Totals *t, double *gen_ms, double *bake_ms) {
    SkyError err = {0};
    if (!time_island(seed, gen_ms, bake_ms) || !course_home_seed(&g_home, seed, &err)) return false;
    uint32_t n = world_strip_count(g_home.world);
    bool base = false, base_open = false;
    for (uint32_t k = 0; k < n; k++) {
        WorldStrip s;
        world_strip(g_home.world, k, &s);
        StripFig fig;
        strip_surface(g_home.world, &s, &fig);
        fig.clearance = strip_clearance(g_home.world, &s);
        bool open = g_home.field.strips[k].open != 0;
        base |= s.base;
        base_open |= s.base && open;
        printf("{\"bench\":\"strips\",\"seed\":%llu,\"strip\":%u,\"base\":%s,\"site\":%u,\"length_m\":%.0f,\"width_m\":%.0f,"
               "\"y\":%.0f,\"relief_levelled_m\":%.1f,\"flatness_m\":%d,\"objects_on\":%u,\"glide_clearance_m\":%.1f,"
               "\"open_ends\":%s}\n",
               (unsigned long long)seed, k, s.base ? "true" : "false", s.site, s.length_m, s.width_m, s.y, s.relief_m,
               fig.hi - fig.lo, fig.objects, fig.clearance, open ? "true" : "false");
        t->strips++;
        t->objects += fig.objects;
        t->uneven += fig.hi != fig.lo;
        if (fig.clearance < t->least_clear) t->least_clear = fig.clearance;
    }
    t->seeds++;
    t->base += base;
    t->base_open += base_open;
    return true;
}

int bench_strips(int argc, char **argv) {
    uint32_t seeds = 100;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seeds") && i + 1 < argc) seeds = (uint32_t)strtoul(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: bench strips [--seeds N]\n");
            return 2;
        }
    }
    if (seeds < 1) seeds = 1;
    SkyError err = {0};
    if (!course_home_open(&g_home, 1, &err)) {
        fprintf(stderr, "bench strips: %s\n", err.msg);
        return 1;
    }
    double *gen = malloc(sizeof *gen * seeds), *bake = malloc(sizeof *bake * seeds);
    Totals t = {.least_clear = CLEAR_SCAN_M};
    bool ok = gen && bake;
    for (uint32_t i = 0; ok && i < seeds; i++) ok = one_seed(i + 1, &t, &gen[i], &bake[i]);
    if (ok) {
        qsort(gen, seeds, sizeof *gen, cmp_double);
        qsort(bake, seeds, sizeof *bake, cmp_double);
        printf("{\"bench\":\"strips\",\"total\":true,\"seeds\":%u,\"base_strips\":%u,\"base_open_ends\":%u,\"strips\":%u,"
               "\"strips_per_island\":%.2f,\"uneven_strips\":%u,\"objects_on_strips\":%u,\"least_glide_clearance_m\":%.1f,"
               "\"generate_median_ms\":%.3f,\"bake_with_strips_median_ms\":%.3f,\"bake_max_ms\":%.3f}\n",
               t.seeds, t.base, t.base_open, t.strips, (double)t.strips / t.seeds, t.uneven, t.objects, t.least_clear,
               gen[seeds / 2], bake[seeds / 2], bake[seeds - 1]);
    }
    free(gen);
    free(bake);
    course_home_close(&g_home);
    return ok ? 0 : 1;
}
