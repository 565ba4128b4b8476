/* skyisles: a start on the ground (flight.start = ground, --start-on ground): where the aircraft
 * parks (a strip of the island of --start's cell, else the home island's base camp) and the
 * boot's refusal of a --start over open sky. */
#include "game.h"

/* Where a start on the ground parks: with --start the landing place nearest it on the island of
 * its cell (baked now when the world has not yet), else the home island's base camp's; into st[0].
 * False when there is none. */
static bool park_place(const GameConfig *cfg, GameServices *svc, GameStrip st[GAME_STRIPS_MAX]) {
    const GameOptions *o = &cfg->opt;
    if (!o->start_set) return game_home_strips(&svc->home, svc->world, st, GAME_STRIPS_MAX) >= 1;
    WorldIsland wi;
    int n = world_island_at(svc->world, o->start[0], o->start[2], &wi) ? game_island_strips(&svc->home, &wi, st, GAME_STRIPS_MAX) : 0;
    for (int i = 1; i < n; i++) {
        double dx = st[i].x - o->start[0], dz = st[i].z - o->start[2], d0x = st[0].x - o->start[0], d0z = st[0].z - o->start[2];
        if (dx * dx + dz * dz < d0x * d0x + d0z * d0z) st[0] = st[i];
    }
    return n >= 1;
}

/* flight.start = ground: the aircraft parked, stopped, throttle closed, at the start of a strip
 * facing along it (park_place's: the base camp's, or the one nearest --start); on an island with
 * no strip, on the flattest open run near its base camp. False when the setting is air or no
 * standing place was found (it stays in the air). */
bool game_park_at_base(const GameConfig *cfg, GameServices *svc, GameSession *ses) {
    GameStrip st[GAME_STRIPS_MAX];
    if (!cfg->set.start_ground || !park_place(cfg, svc, st)) return false;
    FlightState f;
    double t0 = time_now_ms(), run;
    if (st[0].length > 0.0f) {   /* 5 m in from its threshold */
        double back = 0.5 * (double)st[0].length - 5.0;
        flight_init(&f, st[0].x - det_sin((double)st[0].heading) * back, (double)st[0].y + SIM_WHEEL_H,
                    st[0].z + det_cos((double)st[0].heading) * back, st[0].heading, 0.0f);
        f.on_ground = true;
        run = back * 2.0;
    } else {
        run = sim_ground_start(svc->world, st[0].x, st[0].z, 64.0, sim_strip_length_m(), &f);
    }
    if (run < 0.0) {
        log_warn("skyisles: no flat ground near the base camp at %.0f, %.0f: the flight starts in the air", st[0].x, st[0].z);
        return false;
    }
    f.time_s = ses->flight.time_s;
    f.prop_angle = ses->flight.prop_angle;
    ses->flight = f;
    /* The camera behind it at once: the world streams and is waited for around the camera. */
    camera_rig_update(&ses->rig, &ses->flight, 0.0f, &ses->camera);
    log_info("skyisles: parked at %.1f, %.1f, %.1f heading %.0f deg, %.0f m of %s ahead (found in %.0f ms)", f.x, f.y, f.z,
             (double)(f.yaw / SIM_DEG), run, st[0].length > 0.0f ? "strip" : "flat run", time_now_ms() - t0);
    return true;
}

/* A start on the ground at --start parks on the island of that place's cell: a cell without one
 * (open sky) is refused in one line, before any window. */
bool game_start_ground_check(const GameConfig *cfg, World *w, SkyError *err) {
    const GameOptions *o = &cfg->opt;
    WorldIsland wi;
    if (!cfg->set.start_ground || !o->start_set || o->print_island || o->demo || world_island_at(w, o->start[0], o->start[2], &wi))
        return true;
    sky_error_set(err, SKY_ERR_INPUT,
                  "skyisles: --start-on ground: the cell of %.17g, %.17g has no island to park on (open sky): give --start over "
                  "an island (--print-island --start X,Y,Z names the cell's) or --start-on air", o->start[0], o->start[2]);
    return false;
}
