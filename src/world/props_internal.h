/* skyisles world: the tables of objects and landmarks (prop_shapes.c), shared by the placement
 * and meshing in props.c and the name lookups the codex tools use. The tables reference nothing
 * else, so a tool that only looks names up links them alone, not the generator. */
#ifndef SKYISLES_WORLD_PROPS_INTERNAL_H
#define SKYISLES_WORLD_PROPS_INTERNAL_H

#include <stdint.h>

#include "world/world_internal.h"

#define PROP_OBJECT_SHAPES 14   /* entries of prop_objects */
#define PROP_PALETTE_SIZE 24    /* entries of prop_palette */

/* A box [x0, x1) x [y0, y1) x [z0, z1) in blocks from the base (the first air block above the
 * ground at the object's column), with a palette colour. */
typedef struct ShapeBox { int8_t x0, y0, z0, x1, y1, z1; uint8_t col; } ShapeBox;
#define SHAPE_MAX_BOXES 12
typedef struct PropShape {
    const char *name;
    uint8_t r;          /* footprint: |x|, |z| <= r around the base column (objects: <= PROP_R_MAX) */
    uint8_t far;        /* boxes kept at LOD 1 and 2 (the first `far`; 0: dropped there) */
    uint8_t nbox;
    ShapeBox box[SHAPE_MAX_BOXES];
} PropShape;

/* density: candidates accepted per 65536 where both maps are 1 (one candidate per 4 x 4 cell). */
typedef struct FloraSet {
    const char *name;
    uint32_t density;
    uint8_t n;
    struct { uint8_t shape, weight; } sp[6];
} FloraSet;

/* Objects (box order matters: the first `far` boxes are the far shape), landmarks, flora
 * sets (the first entries none, temperate, snowy, desert, jungle), the palette the boxes name, and
 * each biome's flora away from the home island (WorldBiome order). */
extern const PropShape prop_objects[PROP_OBJECT_SHAPES];
extern const PropShape prop_landmarks[];
extern const int prop_landmark_count;
extern const FloraSet prop_flora[];
extern const int prop_flora_count;
extern const uint8_t prop_palette[PROP_PALETTE_SIZE][3];
extern const uint8_t prop_biome_flora[BIOME_COUNT];

/* The hard core among candidates (props.c): a beats b for a footprint both want. */
static inline bool gen_prop_beats(const PropCand *a, const PropCand *b) {
    if (a->key != b->key) return a->key > b->key;
    if (a->bz != b->bz) return a->bz > b->bz;
    return a->bx > b->bx;
}
/* Does alive candidate o take c's place: their footprints (half sizes r) meet and o beats c? */
static inline bool gen_prop_takes(const PropCand *o, const PropCand *c) {
    int64_t d = (int64_t)c->r + o->r, ax = c->bx - o->bx, az = c->bz - o->bz;
    return ax <= d && -ax <= d && az <= d && -az <= d && gen_prop_beats(o, c);
}
/* Is the footprint [x - r, x + r] x [z - r, z + r] within a block of the footprint of one of the
 * landmarks g->isl.marks[near[0..nnear-1]] (props.c)? Such a candidate takes no part. */
bool gen_prop_near_landmark(const WorldGen *g, const int32_t *near, int nnear, int64_t x, int64_t z, int r);
/* world_solid_objects for a generation snapshot (props_solid.c). */
uint32_t gen_solid_objects(const WorldGen *g, int64_t x0, int64_t y0, int64_t z0, int64_t x1, int64_t y1, int64_t z1,
                           WorldBox *out, uint32_t max);

/* An object's terrain rule, the one definition the meshes (props.c, over a chunk's voxels) and the
 * collision (props_solid.c, over the density field) share: ground under every box that starts at
 * the ground, air in every block of every box, all of it under top. solid(ctx, x, y, z) answers a
 * block; inline, so each caller's test is called directly. */
static inline bool gen_prop_fits(const PropShape *sh, int nbox, int64_t bx, int32_t by, int64_t bz, int32_t top,
                                 bool (*solid)(void *ctx, int64_t x, int32_t y, int64_t z), void *ctx) {
    for (int b = 0; b < nbox; b++) {
        const ShapeBox *bb = &sh->box[b];
        if (by + bb->y1 > top) return false;
        for (int64_t z = bz + bb->z0; z < bz + bb->z1; z++)
            for (int64_t x = bx + bb->x0; x < bx + bb->x1; x++) {
                if (bb->y0 == 0 && !solid(ctx, x, by - 1, z)) return false;
                for (int32_t y = by + bb->y0; y < by + bb->y1; y++)
                    if (solid(ctx, x, y, z)) return false;
            }
    }
    return true;
}

#endif
