/* skyisles render tests: where one HUD line is in a frame, found as the pixels where a frame
 * with the line differs from the same frame without it, and how many pixels of other lines lie
 * inside that box (header only; RGBA frames as render_read_pixels reads them, rows top first). */
#ifndef SKYISLES_TESTS_HUD_BOX_H
#define SKYISLES_TESTS_HUD_BOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Two pixels differ: some channel by more than 24 (dither and filtering stay under it). */
static inline bool hud_pixel_differs(const uint8_t *a, const uint8_t *b) {
    return abs(a[0] - b[0]) > 24 || abs(a[1] - b[1]) > 24 || abs(a[2] - b[2]) > 24;
}

typedef struct HudBox {
    int x0, y0, x1, y1;   /* x1/y1 past the end; x1 == 0: empty */
    int pixels, reddish;  /* pixels that differ; of them, red over blue by 40 or more */
} HudBox;

/* Where `with` differs from `without`: the line's pixels and their box. */
static inline HudBox hud_line_box(int w, int h, const uint8_t *with, const uint8_t *without) {
    HudBox b = {w, h, 0, 0, 0, 0};
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t i = ((size_t)y * (size_t)w + (size_t)x) * 4;
            if (!hud_pixel_differs(&with[i], &without[i])) continue;
            b.pixels++;
            if (with[i] >= with[i + 2] + 40) b.reddish++;
            if (x < b.x0) b.x0 = x;
            if (y < b.y0) b.y0 = y;
            if (x + 1 > b.x1) b.x1 = x + 1;
            if (y + 1 > b.y1) b.y1 = y + 1;
        }
    return b;
}

/* Pixels inside box b where frame a differs from frame c (a HUD without the line against the
 * bare scene: other lines there). */
static inline int hud_differing_in(int w, const HudBox *b, const uint8_t *a, const uint8_t *c) {
    int n = 0;
    for (int y = b->y0; y < b->y1; y++)
        for (int x = b->x0; x < b->x1; x++) {
            size_t i = ((size_t)y * (size_t)w + (size_t)x) * 4;
            if (hud_pixel_differs(&a[i], &c[i])) n++;
        }
    return n;
}

#endif
