/* skyisles island: passes over a baked field's grids: the [1 2 1] / 4 smoothing of the ground
 * colours and the distance from a cell to another place. Integer and layout-grade maths only
 * (sqrt on doubles), so every platform bakes the same bits. */
#include "island/island_int.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* out = [1 2 1] / 4 of l, v, r, rounded: (l + 2 v + r + 2) >> 2, which is the rounded-up
 * average of v and the rounded-down average of l and r (the same for every l, v, r), so eight
 * bytes at a time with the usual in-word averages (no carry crosses a byte). */
static void blur_run(uint8_t *out, const uint8_t *l, const uint8_t *v, const uint8_t *r, uint32_t bytes) {
    const uint64_t lo7 = 0x7f7f7f7f7f7f7f7full;
    uint32_t x = 0;
    for (; x + 8 <= bytes; x += 8) {
        uint64_t a, b, c;
        memcpy(&a, l + x, 8);
        memcpy(&b, v + x, 8);
        memcpy(&c, r + x, 8);
        uint64_t m = (a & c) + (((a ^ c) >> 1) & lo7);   /* floor((l + r) / 2) */
        uint64_t o = (m | b) - (((m ^ b) >> 1) & lo7);   /* ceil((m + v) / 2) */
        memcpy(out + x, &o, 8);
    }
    for (; x < bytes; x++) out[x] = (uint8_t)((l[x] + 2u * v[x] + r[x] + 2u) >> 2);
}

/* One [1 2 1] / 4 pass over the ground colours along rows (dir 0) or columns (dir 1), in place,
 * both row by row: `buf` (2 n x 3 bytes) keeps the row's values before the pass and the row
 * above's. A cell off the island counts as its neighbour's value; stretches of cells whose both
 * neighbours are on the island go in one run. Smooths the blend where three places meet (their
 * weights switch there). */
void isl_field_blur_pass(uint8_t *rgb, const uint8_t *type, uint32_t n, int dir, uint8_t *buf) {
    uint8_t *above = buf, *cur = buf + (size_t)n * 3;
    for (uint32_t j = 0; j < n; j++) {
        uint8_t *row = rgb + (size_t)j * n * 3;
        const uint8_t *ty = type + (size_t)j * n, *tu = j > 0 ? ty - n : NULL, *td = j + 1 < n ? ty + n : NULL;
        memcpy(cur, row, (size_t)n * 3);
        for (uint32_t i = 0; i < n;) {
            if (ty[i] == ISLAND_FIELD_OFF) {
                i++;
                continue;
            }
            bool lon = dir ? tu && tu[i] != ISLAND_FIELD_OFF : i > 0 && ty[i - 1] != ISLAND_FIELD_OFF;
            bool ron = dir ? td && td[i] != ISLAND_FIELD_OFF : i + 1 < n && ty[i + 1] != ISLAND_FIELD_OFF;
            const uint8_t *l = dir ? &above[i * 3] : &cur[i * 3 - (lon ? 3 : 0)];
            const uint8_t *r = dir ? &row[(size_t)(i + n) * 3] : &cur[i * 3 + (ron ? 3 : 0)];
            uint32_t i2 = i + 1;
            if (lon && ron)
                while (i2 < n && ty[i2] != ISLAND_FIELD_OFF &&
                       (dir ? tu[i2] != ISLAND_FIELD_OFF && td[i2] != ISLAND_FIELD_OFF
                            : i2 + 1 < n && ty[i2 + 1] != ISLAND_FIELD_OFF))
                    i2++;
            else {
                l = lon ? l : &cur[i * 3];
                r = ron ? r : &cur[i * 3];
            }
            blur_run(&row[i * 3], l, &cur[i * 3], r, (i2 - i) * 3);
            i = i2;
        }
        if (dir) {
            uint8_t *t = above;
            above = cur;
            cur = t;
        }
    }
}

/* Metres from cell (i, j) to the nearest cell of another place (or off the island), up to
 * `reach` (farther: that). */
double isl_field_border_distance(const uint8_t *type, uint32_t n, uint32_t i, uint32_t j, double cell, double reach) {
    const int r = (int)(reach / cell) + 1;
    const uint8_t t = type[(size_t)j * n + i];
    int best2 = INT32_MAX;   /* squared cells to the nearest other */
    /* Rows outward from the cell's own: none at dj^2 >= best2 can come nearer. */
    const int64_t ii = i, jj = j, nn = n;
    const bool inside = ii >= r && jj >= r && ii + r < nn && jj + r < nn;
    for (int d = 0; d <= r && d * d < best2; d++)
        for (int side = d ? -1 : 1; side <= 1; side += 2) {
            const int dj = side * d;
            if (inside) {   /* the box within the grid: no bounds to test */
                const uint8_t *row = type + ((size_t)j + (size_t)(int64_t)dj) * n + i;
                for (int di = -r; di <= r; di++)
                    if (row[di] != t && di * di + dj * dj < best2) best2 = di * di + dj * dj;
                continue;
            }
            for (int di = -r; di <= r; di++) {
                int64_t u = (int64_t)i + di, v = (int64_t)j + dj;
                bool other = u < 0 || v < 0 || u >= (int64_t)n || v >= (int64_t)n || type[(size_t)v * n + (size_t)u] != t;
                if (other && di * di + dj * dj < best2) best2 = di * di + dj * dj;
            }
        }
    double d = best2 == INT32_MAX ? reach : sqrt((double)best2) * cell;
    return d < reach ? d : reach;
}
