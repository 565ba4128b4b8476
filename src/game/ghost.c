/* skyisles ghost: the best run replayed in lockstep with the player's steps (see ghost.h). */
#include <string.h>

#include "ghost.h"

void ghost_start(Ghost *g, Replay *r) {
    memset(g, 0, sizeof *g);
    g->replay = r;
    g->play.quiet = true;
    replay_rewind(r);
    play_replay_restore(&g->play, &g->flight, &r->h.start);
    camera_rig_reset(&g->rig, CAMERA_CHASE);
    g->active = r->h.steps > 0;
}

void ghost_stop(Ghost *g) {
    g->active = false;
    g->replay = NULL;
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
    /* The best run flies with the model and collision it was recorded with. */
    c.model = &g->replay->h.model;
    GameSettings set = *like->set;
    set.collision = (g->replay->h.flags & REPLAY_F_COLLISION) != 0;
    c.set = &set;
    for (uint32_t i = 0; i < n && !g->play.replay_done; i++) play_step(&g->play, &c);
    if (g->play.replay_done) g->active = false;
}

bool ghost_view(const Ghost *g, double step_acc, FlightState *out) {
    if (!g->replay || g->replay->h.steps == 0) return false;
    Play p = g->play;
    p.step_acc = g->active ? step_acc : 0.0;
    play_view_flight(&p, &g->flight, out);
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
