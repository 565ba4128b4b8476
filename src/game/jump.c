/* skyisles jumps: --start and the pause menu's Fly to put the aircraft anywhere (10^12 m out
 * as well as beside the home island), in open air found near the place as a restart finds it. */
#include <stdio.h>

#include "game.h"

/* Where a jump landed, for the message and the log. */
static void where_text(const FlightState *f, char *buf, size_t n) {
    char x[48], z[48];
    flyto_metres_text(f->x, x, sizeof x);
    flyto_metres_text(f->z, z, sizeof z);
    snprintf(buf, n, text_get(TEXT_MSG_WHERE), x, z, f->y - (double)WORLD_Y_MIN);
}

bool game_fly_to(GameConfig *cfg, GameServices *svc, GameSession *ses, GameCourses *crs, double x, double y, double z) {
    if (cfg->opt.replay) {   /* the replay's inputs fly from where it was recorded, not from a jump */
        play_message(&ses->play, 4.0f, "%s", text_get(TEXT_MSG_REPLAY_NO_FLYTO));
        return false;
    }
    PlayCtx c = game_play_ctx(cfg, svc, ses, crs);
    FlightState to;
    if (!play_jump_find(&c, x, y, z, &to)) {   /* nothing ends: the flight, its recording and course go on */
        play_message(&ses->play, 5.0f, "%s", text_get(TEXT_MSG_NO_AIR));
        log_info("skyisles: fly to %.17g, %.17g, %.17g: no open air near it", x, y, z);
        return false;
    }
    /* The recording so far is kept as it was flown: a jump is no input a replay could repeat,
     * so the next step starts a new one at the new place. */
    game_replay_restart(crs, ses, &cfg->opt);
    if (tour_active(&crs->tour) || crs->pending) game_course_end(crs, svc->render);   /* a course's rings are back there: it ends */
    play_jump_to(&ses->play, &c, &to);
    char where[160];
    where_text(&ses->flight, where, sizeof where);
    play_message(&ses->play, 4.0f, "%s", where);
    log_info("skyisles: flew to %.17g, %.17g, %.17g (asked %.17g, %.17g, %.17g)", ses->flight.x, ses->flight.y,
             ses->flight.z, x, y, z);
    return true;
}

void game_start_at(GameConfig *cfg, GameServices *svc, GameSession *ses, GameCourses *crs) {
    const GameOptions *o = &cfg->opt;
    if (!o->start_set) return;
    if (cfg->set.start_ground && ses->flight.on_ground) {   /* parked at the strip nearest it (game.c): stays */
        log_info("skyisles: --start: parked on the island of %.17g, %.17g", o->start[0], o->start[2]);
        return;
    }
    PlayCtx c = game_play_ctx(cfg, svc, ses, crs);
    if (!play_jump(&ses->play, &c, o->start[0], o->start[1], o->start[2])) {
        log_warn("skyisles: --start %.17g,%.17g,%.17g: no open air near it: starting at the home island's spawn",
                 o->start[0], o->start[1], o->start[2]);
        return;
    }
    ses->flight.throttle = flight_throttle_for(&ses->model, ses->flight.speed);
    log_info("skyisles: --start: the flight starts at %.17g, %.17g, %.17g", ses->flight.x, ses->flight.y, ses->flight.z);
}
