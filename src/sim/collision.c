/* skyisles sim: collision (W9) and safe restarts. The aircraft's box is swept along its motion
 * in half-block steps and tested against blocks as they are drawn: a block is solid exactly when
 * THE density at its centre is > 0 (world_solid_at), so a hit is never a surprise on screen. */
#include <math.h>
#include <string.h>

#include "sim/sim.h"
#include "sim/simmath.h"

/* Blocks met along one sweep: consecutive steps overlap most of the same blocks. */
typedef struct BlockCache {
    int64_t key[64];
    uint8_t solid[64];
    uint32_t tested;
} BlockCache;

static int64_t block_key(int64_t bx, int64_t by, int64_t bz) {
    return ((bx & 0x1fffff) << 42) | ((by & 0x1fffff) << 21) | (bz & 0x1fffff);
}

static bool block_solid(const World *w, BlockCache *c, int64_t bx, int64_t by, int64_t bz) {
    int64_t k = block_key(bx, by, bz);
    uint32_t h = (uint32_t)(((uint64_t)k * 0x9e3779b97f4a7c15ull) >> 58);
    if (c->key[h] == k) return c->solid[h];
    bool s = world_solid_at(w, (double)bx + 0.5, (double)by + 0.5, (double)bz + 0.5);
    c->key[h] = k;
    c->solid[h] = s;
    c->tested++;
    return s;
}

static bool box_hits(const World *w, BlockCache *c, double x, double y, double z, double r) {
    int64_t x0 = (int64_t)floor(x - r), x1 = (int64_t)floor(x + r);
    int64_t y0 = (int64_t)floor(y - r), y1 = (int64_t)floor(y + r);
    int64_t z0 = (int64_t)floor(z - r), z1 = (int64_t)floor(z + r);
    for (int64_t by = y0; by <= y1; by++)
        for (int64_t bz = z0; bz <= z1; bz++)
            for (int64_t bx = x0; bx <= x1; bx++)
                if (block_solid(w, c, bx, by, bz)) return true;
    return false;
}

void sim_collide(const World *w, double x0, double y0, double z0, double x1, double y1, double z1,
                 CollisionResult *out) {
    BlockCache cache;
    memset(cache.key, 0xff, sizeof cache.key);   /* no block packs to all ones */
    cache.tested = 0;
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
    for (uint32_t i = 0; i <= n; i++) {
        double t = n ? (double)i / (double)n : 1.0;
        double x = x0 + dx * t, y = y0 + dy * t, z = z0 + dz * t;
        out->steps++;
        if (box_hits(w, &cache, x, y, z, SIM_HIT_RADIUS)) {
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

bool sim_clear_box(const World *w, double x, double y, double z, double radius) {
    BlockCache cache;
    memset(cache.key, 0xff, sizeof cache.key);
    cache.tested = 0;
    return !box_hits(w, &cache, x, y, z, radius);
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
