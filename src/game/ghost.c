/* skyisles ghost: the best run replayed in lockstep with the player's steps (see ghost.h). */
#include <string.h>

#include "ghost.h"

void ghost_start(Ghost *g, Replay *r) {
    memset(g, 0, sizeof *g);
    g->replay = r;
    play_set_quiet(&g->play, true);
    replay_rewind(r);
    play_replay_restore(&g->play, &g->flight, &r->h.start);
    camera_rig_reset(&g->rig, CAMERA_CHASE);
    g->active = r->h.steps > 0;
}

void ghost_stop(Ghost *g) {
    g->active = false;
    g->replay = NULL;
    g->on_course = false;
}

void ghost_course(Ghost *g, const Course *c) {
    FlightState scratch;
    course_run_start(&g->run, c, &scratch, COURSE_PILOT_SPEED);
    g->on_course = true;
    g->respawns = g->play.respawns;
}

uint32_t ghost_next_ring(const Ghost *g) { return g->on_course ? g->run.next : 0; }

/* After each of the ghost's steps, what the game's course step did for the player: a restart
 * goes to the last ring passed; otherwise the step's motion passes rings. */
static void course_step(void *user, const FlightState *before, bool flew) {
    Ghost *g = user;
    if (!g->on_course || g->run.finished) return;
    if (g->play.respawns != g->respawns) {
        g->respawns = g->play.respawns;
        g->run.crashes++;
        course_run_restart(&g->run, &g->flight);
        return;
    }
    course_run_step(&g->run, &g->flight, before->x, before->y, before->z, false, flew ? SIM_STEP : 0.0f);
}

void ghost_step(Ghost *g, const PlayCtx *like, uint32_t n) {
    if (!g->active || !g->replay) return;
    PlayCtx c = *like;
    c.flight = &g->flight;
    c.rig = &g->rig;
    c.camera = &g->camera;
    c.rec = NULL;
    c.meta = NULL;
    c.replay = g->replay;
    c.autopilot = false;
    c.pilot = NULL;
    c.on_step = course_step;
    c.step_user = g;
    /* The best run flies with the model, collision and weather it was recorded with. */
    c.model = &g->replay->h.model;
    GameSettings set = *like->set;
    set.collision = (g->replay->h.flags & REPLAY_F_COLLISION) != 0;
    set.weather = replay_flags_weather(g->replay->h.flags);
    c.set = &set;
    for (uint32_t i = 0; i < n && !g->play.replay_done; i++) play_step(&g->play, &c);
    if (g->play.replay_done) g->active = false;
}

bool ghost_view(const Ghost *g, double step_acc, FlightState *out) {
    if (!g->replay || g->replay->h.steps == 0) return false;
    play_view_flight_at(&g->play, g->active ? step_acc : 0.0, &g->flight, out);
    return true;
}

uint32_t ghost_steps(const Ghost *g) { return g->replay ? g->replay->step : 0; }

double ghost_time(const Ghost *g) { return (double)ghost_steps(g) / (double)SIM_STEP_HZ; }

bool ghost_ring_time(const Ghost *g, uint32_t ring, float *seconds) {
    if (!g->replay || ring >= g->replay->h.n_splits) return false;
    *seconds = g->replay->h.splits[ring];
    return true;
}

double ghost_course_time(const Ghost *g) { return g->replay ? g->replay->h.course_time_s : 0.0; }
