/* skyisles game: a course's fixed step (PlayCtx.on_step): the rings, the clock, restarts at the
 * last ring passed and the best run kept, after every step of the sim (a frame of play, the
 * attract mode's replay, --record-attract). Calls only downward (tour, replays, sound). */
#include "game.h"

/* After each fixed step of a course: the step's motion through the rings (a restart goes to the
 * last ring passed instead), the clock (running on through a crash's pause), the chime, a
 * faster finished run kept as the course's best run (the next ghost). Steps do not run while
 * the game is paused, so neither does the clock. */
void game_course_step(void *user, const FlightState *before, bool flew) {
    GameCourseStep *cs = user;
    GameCourses *crs = cs->crs;
    GameSession *ses = cs->ses;
    Tour *t = &crs->tour;
    if (ses->play.touchdowns != crs->delivery.touchdowns_seen) {   /* the logbook keeps the sink the HUD rated */
        crs->delivery.touchdowns_seen = ses->play.touchdowns;
        crs->delivery.sink = ses->play.touch.sink;
    }
    uint32_t jobs = game_delivery_step(&crs->delivery, before, &ses->flight, flew, ses->play.state == PLAY_START || ses->play.demo);
    if (jobs & JOB_EV_DELIVERED) {
        play_message(&ses->play, DELIVERY_NOTICE_S, "%s", crs->delivery.notice);
        if (cs->sound->synth) sound_event(cs->sound, AUDIO_EVENT_RING, 0.75f);   /* a lower chime */
    }
    if (!tour_active(t) || t->results) return;
    if (ses->play.respawns != crs->course_respawns) {
        crs->course_respawns = ses->play.respawns;
        tour_restart(t, &ses->flight);
        ses->rig.settled = false;
        return;
    }
    uint32_t ev = tour_frame(t, &ses->flight, before->x, before->y, before->z, flew, SIM_STEP);
    if ((ev & COURSE_EVENT_FINISH) && t->mode->keep_best) {
        static float splits[COURSE_MAX_RINGS];
        uint32_t n = t->course->n_rings < COURSE_MAX_RINGS ? t->course->n_rings : COURSE_MAX_RINGS;
        for (uint32_t k = 0; k < n; k++) splits[k] = (float)t->run.split_s[k];
        game_keep_best(crs, ses, cs->opt, t->course->id, t->run.clock_s, splits, n);
    }
    if ((ev & COURSE_EVENT_RING) && cs->sound->synth) sound_event(cs->sound, AUDIO_EVENT_RING, 1.0f + 0.04f * (float)t->run.next);
}

/* Back to free flight (the results seen, a Fly to away from the rings). */
void game_course_end(GameCourses *crs, Renderer *render) {
    crs->pending = NULL;   /* a mode still waiting for its course is not begun */
    tour_end(&crs->tour);
    ghost_stop(&crs->ghost);
    if (render) render_rings_set(render, NULL, 0);
}
