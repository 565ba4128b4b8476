/* skyisles sim: the wheels and the ground: the touchdown rules, the roll following the ground,
 * a step's meeting with the world (the wheels, then the sweep), and a start on the ground; all
 * from THE solid test (world_solid_at's blocks, the solid objects' boxes). */
#include <math.h>
#include <string.h>

#include "sim/sim.h"
#include "sim/simmath.h"

/* ---------------------------------------------------------------- the wheels and the ground */

static bool solid_block(const World *w, int64_t bx, int64_t by, int64_t bz) {
    return world_solid_at(w, (double)bx + 0.5, (double)by + 0.5, (double)bz + 0.5);
}

static int64_t blk(double v) { return (int64_t)floor(v); }

/* Where the wheels can meet ground: anywhere the world is generated (world_coord_usable: out to
 * 2^42 blocks, where a double still resolves 2^-10 m, so a block's centre bx + 0.5 and the
 * wheels' offsets are exact to the millimetre and every block index fits an int64), at a finite
 * height. Past the limit, or at a NaN, there is no ground (and no block index to cast). */
static bool ground_place(double x, double y, double z) {
    return world_coord_usable(x, z) && y > -1e9 && y < 1e9;
}

/* Above WORLD_Y_MAX everything is air: a column is walked down from no higher than this. */
static int64_t column_from(double y) { return y > (double)WORLD_Y_MAX + 1.0 ? (int64_t)WORLD_Y_MAX + 1 : blk(y); }

/* The top of the ground in column (x, z) met going down from block `from` to block `to`: the
 * first solid block's top. When `from` is itself solid the column is followed up (at most four
 * blocks) to the top of that rock. False when every block between is air. */
static bool column_top(const World *w, double x, double z, int64_t from, int64_t to, int64_t *top) {
    int64_t bx = blk(x), bz = blk(z);
    if (solid_block(w, bx, from, bz)) {
        int64_t by = from;
        while (by < from + 4 && solid_block(w, bx, by + 1, bz)) by++;
        *top = by + 1;
        return true;
    }
    for (int64_t by = from - 1; by >= to; by--)
        if (solid_block(w, bx, by, bz)) {
            *top = by + 1;
            return true;
        }
    return false;
}

/* The highest top under the aircraft's box (the columns its SIM_HIT_RADIUS footprint meets). */
static bool box_top(const World *w, double x, double z, int64_t from, int64_t to, int64_t *top) {
    const double r = SIM_HIT_RADIUS;
    const double cx[2] = {x - r, x + r}, cz[2] = {z - r, z + r};
    bool any = false;
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 2; k++) {
            if ((i && blk(cx[1]) == blk(cx[0])) || (k && blk(cz[1]) == blk(cz[0]))) continue;
            int64_t t;
            if (column_top(w, cx[i], cz[k], from, to, &t) && (!any || t > *top)) {
                *top = t;
                any = true;
            }
        }
    return any;
}

/* The three wheels' places on the ground plane: the nose wheel, the left and right mains. */
static void wheel_points(const FlightState *f, double px[3], double pz[3]) {
    double fx = det_sin((double)f->yaw), fz = -det_cos((double)f->yaw), rx = -fz, rz = fx;
    px[0] = f->x + fx * SIM_WHEEL_BASE;
    pz[0] = f->z + fz * SIM_WHEEL_BASE;
    for (int s = 0; s < 2; s++) {
        double side = s ? SIM_WHEEL_TRACK : -SIM_WHEEL_TRACK;
        px[1 + s] = f->x - fx * 1.5 + rx * side;
        pz[1 + s] = f->z - fz * 1.5 + rz * side;
    }
}

/* Ground fit for wheels at level `top`: under each wheel the ground within one block of the
 * others and clear of objects. NULL when it is, else what is wrong. */
static const char *wheels_fit(const World *w, const FlightState *f, int64_t top) {
    double px[3], pz[3];
    wheel_points(f, px, pz);
    int64_t lo = top, hi = top;
    for (int i = 0; i < 3; i++) {
        int64_t t;
        if (!column_top(w, px[i], pz[i], top + 2, top - 3, &t)) return TX(TOUCH_WHY_DROP);
        if (t < lo) lo = t;
        if (t > hi) hi = t;
        if (!sim_clear_of_objects(w, px[i], (double)t + 0.5, pz[i], 0.3)) return TX(TOUCH_WHY_OBJECT);
    }
    return hi - lo > 1 ? TX(TOUCH_WHY_STEEP) : NULL;
}

/* The touchdown rules at the touch; NULL when they all hold, else the first broken. */
static const char *touch_rules(const World *w, const FlightState *f, float sink, int64_t top) {
    if (f->speed > SIM_TOUCHDOWN_SPEED_MAX) return TX(TOUCH_WHY_FAST);
    if (sink > SIM_SINK_MAX) return TX(TOUCH_WHY_HARD);
    if (fabsf(f->roll) > SIM_BANK_MAX) return TX(TOUCH_WHY_WING);
    if (f->pitch < SIM_PITCH_MIN) return TX(TOUCH_WHY_NOSE);
    if (f->pitch > SIM_PITCH_MAX) return TX(TOUCH_WHY_TAIL);
    return wheels_fit(w, f, top);
}

/* Rolling: the ground a block up or down is followed; none there and the aircraft flies off. */
static void keep_rolling(const World *w, FlightState *f) {
    int64_t g = blk(f->y - SIM_WHEEL_H + 0.5), top;
    if (box_top(w, f->x, f->z, g, g - 2, &top)) f->y = (double)top + SIM_WHEEL_H;
    else f->on_ground = false;
}

void sim_ground_contact(const World *w, const FlightState *before, FlightState *f, float dt, SimGroundResult *out) {
    memset(out, 0, sizeof *out);
    out->why = "";
    if (!ground_place(f->x, f->y, f->z) || !ground_place(f->x, before->y, f->z) || !(dt > 0.0f)) return;
    if (f->on_ground) {
        keep_rolling(w, f);
        return;
    }
    double wb = before->y - SIM_WHEEL_H, wa = f->y - SIM_WHEEL_H;
    if (wa > (double)WORLD_Y_MAX + 2.0) return;   /* over the top of every island */
    int64_t top;
    if (!box_top(w, f->x, f->z, column_from(wb > wa ? wb : wa), blk(wa), &top) || (double)top < wa) return;
    /* Ground more than a block over where the wheels were and up to the aircraft's box is a
     * wall or a cliff met, not ground under the wheels: the sweep's (it stops the aircraft before
     * it). A block's rise is a bump the wheels take. */
    if ((double)top > f->y - SIM_HIT_RADIUS && (double)top > wb + 1.0) return;
    out->sink = (float)((before->y - f->y) / (double)dt);
    const char *why = touch_rules(w, f, out->sink, top);
    f->y = (double)top + SIM_WHEEL_H;
    if (why) {
        out->event = SIM_GROUND_CRASH;
        out->why = why;
        return;
    }
    out->event = SIM_GROUND_TOUCHDOWN;
    out->rating = out->sink < SIM_SINK_SMOOTH ? SIM_TOUCH_SMOOTH : (out->sink < SIM_SINK_FIRM ? SIM_TOUCH_FIRM : SIM_TOUCH_HARD);
    f->speed *= sm_cos(f->pitch);   /* the speed along the ground */
    f->pitch = 0.0f;
    f->roll = 0.0f;
    f->on_ground = true;
}

/* Water is not ground: the wheels in it (a lake's, a pool's, a cave's) end the flight, a splash-down when
 * slow enough to land, a crash into the water faster. The aircraft is put on its surface. */
static bool water_contact(const World *w, FlightState *f, SimGroundResult *g) {
    int32_t top = world_water_top(w, f->x, f->y - SIM_WHEEL_H, f->z);
    if (!top) return false;
    memset(g, 0, sizeof *g);
    g->event = SIM_GROUND_CRASH;
    g->why = f->speed > SIM_TOUCHDOWN_SPEED_MAX ? TX(TOUCH_WHY_WATER_FAST) : TX(TOUCH_WHY_SPLASH);
    f->y = (double)top + SIM_WHEEL_H;
    return true;
}

bool sim_meet_world(const World *w, const FlightState *before, FlightState *f, float dt, SimGroundResult *g,
                    CollisionResult *hit) {
    memset(hit, 0, sizeof *hit);
    sim_ground_contact(w, before, f, dt, g);
    if (water_contact(w, f, g)) return true;
    if (g->event == SIM_GROUND_CRASH) return true;
    double y0 = before->y, y1 = f->y, ys = y0, ye = y1;
    if (f->on_ground) ys = ye = y0 > y1 ? y0 : y1;
    sim_collide(w, before->x, ys, before->z, f->x, ye, f->z, hit);
    if (!hit->hit) return false;
    g->event = SIM_GROUND_CRASH;
    g->why = f->on_ground ? TX(TOUCH_WHY_ROLLED) : TX(TOUCH_WHY_FLEW);
    f->x = hit->x;
    f->y = hit->y;
    f->z = hit->z;
    return true;
}

double sim_height_above_ground(const World *w, const FlightState *f, double reach) {
    double wy = f->y - SIM_WHEEL_H;
    if (!ground_place(f->x, wy, f->z) || !(reach > 0.0 && reach < 1e6)) return reach;
    int64_t top;
    if (wy - reach > (double)WORLD_Y_MAX + 1.0 || !column_top(w, f->x, f->z, column_from(wy), blk(wy - reach), &top)) return reach;
    double h = wy - (double)top;
    return h < 0.0 ? 0.0 : (h > reach ? reach : h);
}

/* ---------------------------------------------------------------- a start on the ground */

/* The ground's top in column (x, z) from the top of the world down (false: none): four blocks at
 * a time, then back up to the top of the rock met (a start needs a standing place, which the
 * caller checks block by block). */
static bool ground_at(const World *w, double x, double z, int64_t *top) {
    int64_t bx = blk(x), bz = blk(z);
    for (int64_t by = WORLD_Y_MAX; by >= WORLD_Y_MIN; by -= 4)
        if (solid_block(w, bx, by, bz)) return column_top(w, x, z, by, by, top);
    return false;
}

/* Is column (x, z) on the island of its cell (the home island or another the world holds)? Its
 * field's metres count from (ox, oz): exact differences at any distance. */
static bool on_island(const World *w, double x, double z) {
    WorldIsland wi;
    return world_island_held(w, x, z, &wi) && island_field_on(wi.field, x - (double)wi.ox, z - (double)wi.oz);
}

/* Metres of flat ground from (x, z) along heading yaw, up to `run`: every 2 m the top within one
 * block of `top` on the island. */
static double flat_run(const World *w, double x, double z, int64_t top, float yaw, double run) {
    double fx = det_sin((double)yaw), fz = -det_cos((double)yaw);
    double d = 0.0;
    for (double s = 2.0; s <= run; s += 2.0) {
        double px = x + fx * s, pz = z + fz * s;
        int64_t t;
        if (!on_island(w, px, pz) || !column_top(w, px, pz, top + 2, top - 2, &t) || t > top + 1 || t < top - 1) break;
        d = s;
    }
    return d;
}

/* The part of a flat run clear of objects for the aircraft (its wings, SIM_WHEEL_TRACK and more). */
static double open_run(const World *w, double x, double z, int64_t top, float yaw, double len) {
    double fx = det_sin((double)yaw), fz = -det_cos((double)yaw);
    for (double s = 0.0; s <= len; s += 2.0)
        if (!sim_clear_of_objects(w, x + fx * s, (double)top + 1.5, z + fz * s, 2.5)) return s - 2.0;
    return len;
}

typedef struct Park {
    double run, d2, x, z;
    int64_t top;
    float yaw;
} Park;

/* The spot (x, z) at distance^2 d2 from the centre: its longest open run kept in *best when it
 * beats it (longer, or as long and nearer). */
static void try_spot(const World *w, double x, double z, double d2, double run, Park *best) {
    int64_t top;
    if (!on_island(w, x, z) || !ground_at(w, x, z, &top)) return;
    FlightState f;
    flight_init(&f, x, (double)top + SIM_WHEEL_H, z, 0.0f, 0.0f);
    if (!sim_clear_box(w, x, f.y + 0.5, z, 1.0)) return;
    for (int k = 0; k < 8; k++) {
        f.yaw = (float)k * (6.2831853f / 8.0f) - 3.1415927f;
        double len = flat_run(w, x, z, top, f.yaw, run);
        if (len < best->run || (len == best->run && d2 >= best->d2)) continue;   /* cannot beat it */
        if (wheels_fit(w, &f, top)) continue;
        len = open_run(w, x, z, top, f.yaw, len);
        if (len > best->run || (len == best->run && d2 < best->d2))
            *best = (Park){.run = len, .d2 = d2, .x = x, .z = z, .top = top, .yaw = f.yaw};
    }
}

double sim_ground_start(const World *w, double x, double z, double radius, double run, FlightState *out) {
    Park best = {.run = -1.0};
    for (double dz = -radius; dz <= radius; dz += 6.0)
        for (double dx = -radius; dx <= radius; dx += 6.0) {
            double d2 = dx * dx + dz * dz;
            if (d2 <= radius * radius) try_spot(w, x + dx, z + dz, d2, run, &best);
        }
    if (best.run < 0.0) return -1.0;
    flight_init(out, best.x, (double)best.top + SIM_WHEEL_H, best.z, best.yaw, 0.0f);
    out->on_ground = true;
    return best.run;
}
