/* skyisles sim: collision (W9) and safe restarts. The aircraft's box is swept along its motion
 * in half-block steps and tested against blocks as they are drawn: a block is solid exactly when
 * THE density at its centre is > 0 (world_solid_at), or when a solid object's box the mesher
 * draws holds it (world_solid_objects), so a hit is never a surprise on screen. */
#include <math.h>
#include <string.h>

#include "sim/sim.h"
#include "sim/simmath.h"

/* Blocks met along one sweep: consecutive steps overlap most of the same blocks. */
typedef struct BlockCache {
    int64_t key[64];
    uint8_t solid[64];
    uint32_t tested;
    WorldProbe probe;   /* the field's cell bounds: open air without point queries */
} BlockCache;

static void cache_init(BlockCache *c, const World *w) {
    memset(c->key, 0xff, sizeof c->key);   /* no block packs to all ones */
    c->tested = 0;
    world_probe_init(&c->probe, w);
}

static int64_t block_key(int64_t bx, int64_t by, int64_t bz) {
    return ((bx & 0x1fffff) << 42) | ((by & 0x1fffff) << 21) | (bz & 0x1fffff);
}

static bool block_solid(BlockCache *c, int64_t bx, int64_t by, int64_t bz) {
    int64_t k = block_key(bx, by, bz);
    uint32_t h = (uint32_t)(((uint64_t)k * 0x9e3779b97f4a7c15ull) >> 58);
    if (c->key[h] == k) return c->solid[h];
    bool s = world_probe_solid(&c->probe, bx, by, bz);
    c->key[h] = k;
    c->solid[h] = s;
    c->tested++;
    return s;
}

static bool box_hits(BlockCache *c, double x, double y, double z, double r) {
    int64_t x0 = (int64_t)floor(x - r), x1 = (int64_t)floor(x + r);
    int64_t y0 = (int64_t)floor(y - r), y1 = (int64_t)floor(y + r);
    int64_t z0 = (int64_t)floor(z - r), z1 = (int64_t)floor(z + r);
    for (int64_t by = y0; by <= y1; by++)
        for (int64_t bz = z0; bz <= z1; bz++)
            for (int64_t bx = x0; bx <= x1; bx++)
                if (block_solid(c, bx, by, bz)) return true;
    return false;
}

/* Solid object boxes near a stretch of the sweep, asked once per stretch of OBJ_SPAN steps. */
#define OBJ_SPAN 32u
#define OBJ_MAX 256u
typedef struct ObjCache {
    WorldBox box[OBJ_MAX];
    uint32_t n;
    uint32_t upto;   /* the boxes hold for steps up to this one */
} ObjCache;

/* The block of a coordinate. A NaN or one beyond any block (the cast would be undefined: x86 gives
 * INT64_MIN, aarch64 0) is a block below the object lattice on every platform. */
static int64_t blk(double v) { return v > -4e18 && v < 4e18 ? (int64_t)floor(v) : INT64_MIN / 4; }

/* The boxes meeting the blocks an aircraft box of half-size r overlaps anywhere in [a, b]. */
static uint32_t objects_near(WorldProbe *p, const double a[3], const double b[3], double r, WorldBox *out,
                             uint32_t max) {
    int64_t lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        lo[k] = blk((a[k] < b[k] ? a[k] : b[k]) - r);
        hi[k] = blk((a[k] > b[k] ? a[k] : b[k]) + r);
        if (k != 1 && (lo[k] <= -(int64_t)WORLD_COORD_LIMIT || hi[k] >= (int64_t)WORLD_COORD_LIMIT)) return 0;   /* beyond the world */
    }
    return world_probe_objects(p, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], out, max);
}

static bool box_meets_objects(const WorldBox *box, uint32_t n, double x, double y, double z, double r) {
    int64_t x0 = blk(x - r), x1 = blk(x + r), y0 = blk(y - r), y1 = blk(y + r), z0 = blk(z - r), z1 = blk(z + r);
    for (uint32_t i = 0; i < n; i++) {
        const WorldBox *o = &box[i];
        if (x0 < o->x1 && x1 >= o->x0 && y0 < o->y1 && y1 >= o->y0 && z0 < o->z1 && z1 >= o->z0) return true;
    }
    return false;
}

/* Fills c for steps i..: the longest stretch (OBJ_SPAN steps, halved while too many boxes) whose
 * boxes all fit. */
static void objects_for(WorldProbe *w, ObjCache *c, uint32_t i, uint32_t n, const double p0[3], const double d[3],
                        double r) {
    for (uint32_t span = OBJ_SPAN;; span /= 2) {
        uint32_t j = i + span < n ? i + span : n;
        double ti = n ? (double)i / (double)n : 1.0, tj = n ? (double)j / (double)n : 1.0;
        double a[3], b[3];
        for (int k = 0; k < 3; k++) {
            a[k] = p0[k] + d[k] * ti;
            b[k] = p0[k] + d[k] * tj;
        }
        uint32_t m = objects_near(w, a, b, r, c->box, OBJ_MAX);
        if (m <= OBJ_MAX || span <= 1) {
            c->n = m < OBJ_MAX ? m : OBJ_MAX;
            c->upto = j;
            return;
        }
    }
}

void sim_collide(const World *w, double x0, double y0, double z0, double x1, double y1, double z1,
                 CollisionResult *out) {
    BlockCache cache;
    cache_init(&cache, w);
    memset(out, 0, sizeof *out);
    out->x = x0;
    out->y = y0;
    out->z = z0;
    out->t = 1.0;
    double dx = x1 - x0, dy = y1 - y0, dz = z1 - z0;
    double len = sqrt(dx * dx + dy * dy + dz * dz);
    if (!(len == len)) return;   /* a NaN motion: nothing to sweep */
    /* Steps of at most half a block: a wall one block thick holds at least one sample. */
    uint32_t n = len > 0.0 ? (uint32_t)ceil(len / SIM_SWEEP_STEP) : 0;
    if (n > 1u << 20) n = 1u << 20;
    ObjCache objs;
    objs.n = 0;
    objs.upto = 0;
    const double p0[3] = {x0, y0, z0}, d[3] = {dx, dy, dz};
    for (uint32_t i = 0; i <= n; i++) {
        double t = n ? (double)i / (double)n : 1.0;
        double x = x0 + dx * t, y = y0 + dy * t, z = z0 + dz * t;
        out->steps++;
        if (i == 0 || i > objs.upto) objects_for(&cache.probe, &objs, i, n, p0, d, SIM_HIT_RADIUS);
        if (box_hits(&cache, x, y, z, SIM_HIT_RADIUS) || box_meets_objects(objs.box, objs.n, x, y, z, SIM_HIT_RADIUS)) {
            out->hit = true;
            out->t = n ? (double)(i > 0 ? i - 1 : 0) / (double)n : 0.0;
            break;
        }
        out->x = x;
        out->y = y;
        out->z = z;
    }
    out->blocks_tested = cache.tested;
}

/* A place blocks can be counted at: not NaN, and inside +-4e18 (the block casts are defined). */
static bool finite3(double x, double y, double z) { return fabs(x) < 4e18 && fabs(y) < 4e18 && fabs(z) < 4e18; }

bool sim_clear_of_objects(const World *w, double x, double y, double z, double radius) {
    if (!finite3(x, y, z)) return false;   /* no place: never called clear */
    WorldProbe probe;
    world_probe_init(&probe, w);
    WorldBox box[1];
    const double p[3] = {x, y, z};
    return objects_near(&probe, p, p, radius, box, 1) == 0;
}

bool sim_clear_box(const World *w, double x, double y, double z, double radius) {
    if (!finite3(x, y, z)) return false;
    BlockCache cache;
    cache_init(&cache, w);
    const double p[3] = {x, y, z};
    WorldBox box[1];
    return !box_hits(&cache, x, y, z, radius) && objects_near(&cache.probe, p, p, radius, box, 1) == 0;
}

/* Room to fly out: a corridor of clear blocks ahead along the heading. */
static bool room_ahead(const World *w, double x, double y, double z, float yaw) {
    double sx = det_sin((double)yaw), cz = -det_cos((double)yaw);
    for (int k = 1; k <= 12; k++) {
        double d = 4.0 * k;
        if (!sim_clear_box(w, x + sx * d, y, z + cz * d, 2.0)) return false;
    }
    return true;
}

bool sim_respawn_near(const World *w, double x, double y, double z, float yaw, FlightState *out) {
    static const float turns[4] = {0.0f, 1.5707963f, -1.5707963f, 3.1415927f};
    static const double ring[9][2] = {{0, 0}, {24, 0}, {-24, 0}, {0, 24}, {0, -24}, {48, 48}, {-48, 48}, {48, -48}, {-48, -48}};
    if (!(x == x && y == y && z == z)) return false;
    for (size_t r = 0; r < sizeof ring / sizeof ring[0]; r++) {
        double cx = x + ring[r][0], cz = z + ring[r][1];
        /* Upward first: over the obstacle is where open air usually is. */
        for (double cy = y < WORLD_Y_MIN + 8.0 ? WORLD_Y_MIN + 8.0 : y; cy <= WORLD_Y_MAX + 24.0; cy += 4.0) {
            if (!sim_clear_box(w, cx, cy, cz, SIM_RESPAWN_CLEARANCE)) continue;
            for (int k = 0; k < 4; k++) {
                float h = yaw + turns[k];
                if (!room_ahead(w, cx, cy, cz, h)) continue;
                FlightState keep = *out;
                flight_init(out, cx, cy, cz, h, keep.speed);
                out->throttle = keep.throttle;
                out->time_s = keep.time_s;
                out->prop_angle = keep.prop_angle;
                return true;
            }
        }
    }
    return false;
}
