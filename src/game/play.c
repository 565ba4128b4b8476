/* skyisles play: the start screen, flight (the pilot's input, or the autopilot as one more
 * input source), collision and crashes with restarts near the last safe place, the pause menu
 * and island map, attract mode, and what happens when the controller comes and goes. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "play.h"

#define SAFE_PERIOD 0.5f        /* seconds between checks of the place to restart near */
#define AUTOPILOT_CRUISE 40.0f  /* m/s the autopilot holds */
#define VIEW_CUT_M 100.0        /* metres between two steps that are a jump, not flight (5000 m/s: 88 m) */

void play_message(Play *p, float ttl, const char *fmt, ...) {
    /* The oldest message makes room. */
    int slot = 0;
    for (int i = 0; i < PLAY_MESSAGES; i++) {
        if (p->msg[i].ttl <= 0.0f) {
            slot = i;
            break;
        }
        if (p->msg[i].ttl < p->msg[slot].ttl) slot = i;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->msg[slot].text, sizeof p->msg[slot].text, fmt, ap);
    va_end(ap);
    p->msg[slot].ttl = ttl;
}

static void age_messages(Play *p, float dt) {
    for (int i = 0; i < PLAY_MESSAGES; i++)
        if (p->msg[i].ttl > 0.0f) p->msg[i].ttl -= dt;
}

void play_init(Play *p, const FlightState *flight, bool fly_at_once, bool demo) {
    memset(p, 0, sizeof *p);
    p->fps_t0 = time_now_ms();
    /* --autopilot and --headless fly at once; --demo is the attract mode; a player starts at the
     * title with the autopilot flying behind it. */
    p->state = fly_at_once && !demo ? PLAY_FLY : PLAY_START;
    p->demo = demo;
    p->safe_x = flight->x;
    p->safe_y = flight->y;
    p->safe_z = flight->z;
    p->safe_yaw = flight->yaw;
    p->safe_valid = true;
}

/* Who flies: the autopilot on the title, in attract mode and with --autopilot; else the player. */
static bool autopilot_flies(const Play *p, const PlayCtx *c) {
    return c->autopilot || p->demo || p->state == PLAY_START;
}

static void pilot_input(const InputState *in, FlightInput *fi) {
    memset(fi, 0, sizeof *fi);
    fi->pitch = in->value[GA_PITCH];
    fi->roll = in->value[GA_ROLL];
    fi->yaw = in->value[GA_YAW];
    fi->throttle = in->value[GA_THROTTLE_UP] - in->value[GA_THROTTLE_DOWN];
    fi->boost = in->held[GA_BOOST];
    fi->brake = in->held[GA_BRAKE];
}

/* The aircraft put at f (a restart or a jump): its cruise height there, the last safe place; the
 * world around the new place is missing at once, a jump, not the flight outrunning it; a cut,
 * nothing to draw between. */
static void place(Play *p, const PlayCtx *c, const FlightState *f) {
    *c->flight = *f;
    c->flight->cruise_y = f->y;
    c->flight->probe_timer = 0.0f;
    p->safe_x = f->x;
    p->safe_y = f->y;
    p->safe_z = f->z;
    p->safe_yaw = f->yaw;
    world_note_jump(c->world);
    p->prev = *c->flight;
    c->rig->settled = false;
}

void play_respawn(Play *p, const PlayCtx *c) {
    FlightState f = *c->flight;
    float cruise = flight_cruise_speed(c->model, f.throttle);
    f.speed = cruise;
    f.boost = 0.0f;
    bool near = p->safe_valid && sim_respawn_near(c->world, p->safe_x, p->safe_y, p->safe_z, p->safe_yaw, &f);
    if (!near) {
        /* Nothing clear near the last safe place (the world changed under it): the spawn. */
        f = c->spawn->flight;
        f.throttle = c->flight->throttle;
        f.time_s = c->flight->time_s;
    }
    f.speed = cruise;
    p->respawns++;
    place(p, c, &f);
    p->state = PLAY_FLY;
}

bool play_jump_find(const PlayCtx *c, double x, double y, double z, FlightState *to) {
    FlightState f = *c->flight;
    if (!sim_respawn_near(c->world, x, world_height_clamp(y), z, f.yaw, &f)) return false;
    *to = f;
    return true;
}

bool play_jump(Play *p, const PlayCtx *c, double x, double y, double z) {
    FlightState f;
    if (!play_jump_find(c, x, y, z, &f)) return false;
    play_jump_to(p, c, &f);
    return true;
}

void play_jump_to(Play *p, const PlayCtx *c, const FlightState *to) {
    place(p, c, to);
    p->safe_valid = true;
    if (p->state == PLAY_CRASH) p->state = PLAY_FLY;
    camera_rig_update(c->rig, c->flight, 0.0f, c->camera);
}

/* The aircraft stops where it met the ground or the rock (speed 0) and the crash begins. */
static void crash_at(Play *p, const PlayCtx *c, double x, double y, double z, float speed0, const char *why) {
    FlightState *fl = c->flight;
    fl->x = x;
    fl->y = y;
    fl->z = z;
    fl->speed = 0.0f;
    fl->on_ground = false;
    p->state = PLAY_CRASH;
    p->crash_timer = PLAY_CRASH_SECONDS;
    p->crash_why = why;
    p->crashes++;
    if (!p->quiet)
        log_info("skyisles: crash %llu at %.1f, %.1f, %.1f at %.0f m/s (%s, %s)", (unsigned long long)p->crashes, x, y,
                 z, (double)speed0, autopilot_flies(p, c) ? "autopilot" : "pilot", why);
}

/* The step's meeting with the world (W9): the wheels, then the sweep of the motion against the
 * field; a touchdown rated and kept for the HUD; true on a crash (it began). */
static bool meet_world(Play *p, const PlayCtx *c, const FlightState *before, float dt) {
    FlightState *fl = c->flight;
    uint64_t t0 = time_now_ns();
    SimGroundResult g;
    CollisionResult r;
    bool crashed = sim_meet_world(c->world, before, fl, dt, &g, &r);
    double ms = (double)(time_now_ns() - t0) * 1e-6;
    p->collide_ms_last = ms;
    p->collide_ms_sum += ms;
    if (ms > p->collide_ms_max) p->collide_ms_max = ms;
    if (r.steps > p->collide_steps_max) p->collide_steps_max = r.steps;
    if (r.blocks_tested > p->collide_blocks_max) p->collide_blocks_max = r.blocks_tested;
    if (crashed) {
        crash_at(p, c, fl->x, fl->y, fl->z, before->speed, g.why);
        return true;
    }
    /* Climbing into a bump of the ground just after the wheels left is no landing: not rated. */
    if (g.event == SIM_GROUND_TOUCHDOWN && g.sink > 0.0f) {
        p->touchdowns++;
        p->touch = g;
        p->touch_timer = PLAY_TOUCH_SECONDS;
        if (!p->quiet)
            log_info("skyisles: touchdown %llu, %s at %.1f m/s sink, %.0f m/s", (unsigned long long)p->touchdowns,
                     play_touch_name(g.rating), (double)g.sink, (double)fl->speed);
    }
    return false;
}

/* The air mass carries the aircraft: the weather at its place and step (the setting's kind or
 * the changing model), shaken harder near rock, applied after the flight step so the sweep below
 * covers the drift too. On its wheels the ground holds it (no drift, no shake). */
static void wind_step(const PlayCtx *c, float dt) {
    FlightState *fl = c->flight;
    if (fl->on_ground) return;
    WeatherState w;
    uint64_t step = weather_step_of(fl->time_s);
    weather_eval(world_params(c->world)->gen.seed, c->set->weather - 1, fl->x, fl->z, step, &w);
    sim_wind_near_rock(c->world, fl, step, &w);
    sim_wind_apply(fl, &w, dt);
}

/* One step of the aircraft with the step's input, then the wheels and collision when it is on;
 * every SAFE_PERIOD the place is kept as a restart point if the air around is clear. */
static void fly(Play *p, const PlayCtx *c, const FlightInput *fi, float dt) {
    FlightState *fl = c->flight;
    FlightState before = *fl;
    p->brake = fi->brake;
    if (!c->set->collision) fl->on_ground = false;   /* no ground to roll on: it flies */
    flight_step(fl, fi, c->model, dt);
    wind_step(c, dt);
    p->flight_s += dt;
    if (p->touch_timer > 0.0f) p->touch_timer -= dt;
    if (c->set->collision && meet_world(p, c, &before, dt)) return;
    p->safe_timer -= dt;
    if (p->safe_timer <= 0.0f) {
        p->safe_timer = SAFE_PERIOD;
        if (sim_clear_box(c->world, fl->x, fl->y, fl->z, SIM_RESPAWN_CLEARANCE)) {
            p->safe_x = fl->x;
            p->safe_y = fl->y;
            p->safe_z = fl->z;
            p->safe_yaw = fl->yaw;
            p->safe_valid = true;
        }
    }
}

const char *play_touch_name(SimTouchRating r) {
    static const char *const names[] = {TX(TOUCH_SMOOTH), TX(TOUCH_FIRM), TX(TOUCH_HARD)};
    return (unsigned)r < 3u ? names[r] : "";
}

void play_replay_start(const Play *p, const FlightState *f, ReplayStart *out) {
    memset(out, 0, sizeof *out);
    out->flight = *f;
    out->safe_x = p->safe_x;
    out->safe_y = p->safe_y;
    out->safe_z = p->safe_z;
    out->safe_yaw = p->safe_yaw;
    out->safe_timer = p->safe_timer;
    out->safe_valid = p->safe_valid;
    out->crash_timer = p->crash_timer;
    out->state = (uint8_t)p->state;
}

void play_replay_restore(Play *p, FlightState *f, const ReplayStart *s) {
    *f = s->flight;
    p->safe_x = s->safe_x;
    p->safe_y = s->safe_y;
    p->safe_z = s->safe_z;
    p->safe_yaw = s->safe_yaw;
    p->safe_timer = s->safe_timer;
    p->safe_valid = s->safe_valid;
    p->crash_timer = s->crash_timer;
    p->state = s->state == PLAY_CRASH ? PLAY_CRASH : PLAY_FLY;
    p->prev = *f;
    p->prev_valid = false;
}

uint64_t play_sim_hash(const Play *p, const FlightState *f, uint64_t crashes0, uint64_t respawns0) {
    uint64_t h = flight_state_hash(f, 0);
    const uint64_t counts[2] = {p->crashes - crashes0, p->respawns - respawns0};
    const double safe[3] = {p->safe_x, p->safe_y, p->safe_z};
    const float timers[3] = {p->crash_timer, p->safe_timer, p->safe_yaw};
    const uint32_t st = (uint32_t)p->state;
    h = hash_fnv1a64(counts, sizeof counts, h);
    h = hash_fnv1a64(safe, sizeof safe, h);
    h = hash_fnv1a64(timers, sizeof timers, h);
    return hash_fnv1a64(&st, sizeof st, h);
}

/* The recording of this step: it starts with the flight (the first step off the title), ends
 * when the title comes back or it is full (then the game keeps it and the next one starts). */
static void record_step(Play *p, const PlayCtx *c, const ReplayInput *q) {
    Replay *r = c->rec;
    if (!r || !c->meta) return;
    if (r->mode == REPLAY_IDLE && p->state != PLAY_START) {
        ReplayStart s;
        play_replay_start(p, c->flight, &s);
        replay_begin(r, c->meta, &s, p->crashes, p->respawns);
    }
    if (r->mode != REPLAY_RECORDING) return;
    if (p->state == PLAY_START || r->h.steps >= REPLAY_MAX_STEPS) {
        uint32_t why = p->state == PLAY_START ? 0u : REPLAY_F_TRUNCATED;
        replay_end(r, play_sim_hash(p, c->flight, r->crashes0, r->respawns0), p->crashes, why);
        return;
    }
    replay_record(r, q);
}

void play_step(Play *p, const PlayCtx *c) {
    if (c->camera_held) {   /* a still picture: only the propeller and the sky's clock go on */
        flight_idle(c->flight, SIM_STEP);
        p->steps++;
        return;
    }
    FlightInput fi;
    memset(&fi, 0, sizeof fi);
    bool flying = p->state != PLAY_CRASH;
    if (c->replay) {
        if (!replay_next(c->replay, &fi)) {
            p->replay_done = true;
            return;
        }
    } else if (flying && c->pilot) {
        c->pilot(c->pilot_user, c, &fi);
    } else if (flying && autopilot_flies(p, c)) {
        flight_autopilot_input(c->flight, c->world, AUTOPILOT_CRUISE, p->autopilot_boost, SIM_STEP, &fi);
    } else if (flying) {
        pilot_input(c->in, &fi);
    }
    ReplayInput q;
    replay_quantise(&fi, &q);   /* live and replayed, the sim flies the quantised input */
    record_step(p, c, &q);
    p->prev = *c->flight;
    p->prev_valid = true;
    if (flying) {
        fly(p, c, &fi, SIM_STEP);
    } else {
        p->crash_timer -= SIM_STEP;
        flight_idle(c->flight, SIM_STEP);
        if (p->crash_timer <= 0.0f) play_respawn(p, c);
    }
    p->steps++;
    if (c->on_step) c->on_step(c->step_user, &p->prev, flying);
}

/* The frame's time in fixed steps; the rest waits for the next frame. */
static void run_steps(Play *p, const PlayCtx *c, float dt, PlayRequest *rq) {
    p->step_acc += (double)dt;
    while (p->step_acc >= (double)SIM_STEP && !p->replay_done) {
        play_step(p, c);
        p->step_acc -= (double)SIM_STEP;
        rq->steps++;
    }
    if (p->replay_done) p->step_acc = 0.0;
}

static float lerp_angle(float a, float b, float t) {
    float d = b - a;
    while (d > 3.14159265f) d -= 6.2831853f;
    while (d < -3.14159265f) d += 6.2831853f;
    return a + d * t;
}

void play_view_flight(const Play *p, const FlightState *cur, FlightState *out) {
    play_view_flight_at(p, p->step_acc, cur, out);
}

void play_view_flight_at(const Play *p, double step_acc, const FlightState *cur, FlightState *out) {
    *out = *cur;
    if (!p->prev_valid) return;
    /* Farther apart than a step can fly (the top speed limit, 5000 m/s, is 88 m a step): it was put
     * somewhere (a restart, a new world, a test): a cut, nothing between. */
    double dx = cur->x - p->prev.x, dy = cur->y - p->prev.y, dz = cur->z - p->prev.z;
    if (!(dx * dx + dy * dy + dz * dz < VIEW_CUT_M * VIEW_CUT_M)) return;
    double t = step_acc / (double)SIM_STEP;
    if (!(t >= 0.0)) t = 0.0;
    if (t > 1.0) t = 1.0;
    /* The current state is the newest step's; the drawn one lags it by the unstepped time. */
    double u = 1.0 - t;
    const FlightState *a = &p->prev;
    out->x = cur->x - (cur->x - a->x) * u;
    out->y = cur->y - (cur->y - a->y) * u;
    out->z = cur->z - (cur->z - a->z) * u;
    out->yaw = lerp_angle(a->yaw, cur->yaw, (float)t);
    out->pitch = a->pitch + (cur->pitch - a->pitch) * (float)t;
    out->roll = lerp_angle(a->roll, cur->roll, (float)t);
    out->prop_angle = lerp_angle(a->prop_angle, cur->prop_angle, (float)t);
}

/* The camera follows the aircraft as drawn. */
static void follow(const Play *p, const PlayCtx *c, float dt) {
    if (c->camera_held) return;
    FlightState v;
    play_view_flight(p, c->flight, &v);
    camera_rig_update(c->rig, &v, dt, c->camera);
}

static void open_menu(Play *p, const PlayCtx *c) {
    menu_open(c->menu, c->set, world_params(c->world), MENU_PAGE_PAUSE);
    menu_set_here(c->menu, c->flight->x, c->flight->y, c->flight->z);
    p->overlay = OVERLAY_MENU;
    p->idle_s = 0.0f;
}

static void close_overlay(Play *p, PlayRequest *rq) {
    p->overlay = OVERLAY_NONE;
    p->paused_for_pad = false;
    rq->save = true;   /* settings are kept when the menu closes */
}

void play_world_map(Play *p, bool has) {
    p->world_map = has;
}

static void open_map(Play *p, PlayOverlay from) {
    p->map_return = from;
    p->overlay = OVERLAY_MAP;
    p->map_world = false;
}

/* Controllers: the one that drives went away -> pause and say so; it (or another) came back
 * -> resume what the loss paused. */
static void pad_changes(Play *p, const PlayCtx *c, PlayRequest *rq) {
    const InputState *in = c->in;
    switch (in->pad_change) {
    case INPUT_PAD_FOUND:
        play_message(p, 3.0f, text_get(TEXT_MSG_CONTROLLER), in->pad_name);
        if (p->paused_for_pad) {
            close_overlay(p, rq);
            play_message(p, 2.0f, "%s", text_get(TEXT_MSG_RESUMED));
        }
        break;
    case INPUT_PAD_SWITCHED: play_message(p, 3.0f, text_get(TEXT_MSG_PAD_FLIES), in->pad_name); break;
    case INPUT_PAD_LOST:
        snprintf(p->pad_notice, sizeof p->pad_notice, "%s", text_get(TEXT_PAD_NOTICE));
        if (p->overlay == OVERLAY_NONE && p->state != PLAY_START && !p->demo && !c->autopilot) {
            open_menu(p, c);
            p->paused_for_pad = true;
        } else {
            play_message(p, 4.0f, text_get(TEXT_MSG_PAD_GONE), in->pad_name);
        }
        break;
    case INPUT_PAD_UNMAPPED:
        play_message(p, 6.0f, text_get(TEXT_MSG_PAD_NO_MAPPING), in->pad_name);
        break;
    default: break;
    }
}

static void menu_frame(Play *p, const PlayCtx *c, float dt, PlayRequest *rq) {
    const InputState *in = c->in;
    /* Start closes the pause menu from any page (and ends a capture only through Back). */
    if (in->pressed[GA_PAUSE] && !c->menu->capturing && !(c->ev->key_count && c->ev->keys[0] == PKEY_ESCAPE)) {
        close_overlay(p, rq);
        return;
    }
    MenuCommand cmd = menu_update(c->menu, in, c->ev, dt);
    switch (cmd) {
    case MENU_CMD_RESUME: close_overlay(p, rq); break;
    case MENU_CMD_MAP: open_map(p, OVERLAY_MENU); break;
    case MENU_CMD_QUIT: p->quit = true; break;
    case MENU_CMD_POWEROFF:
    case MENU_CMD_REBOOT:
        p->quit = true;
        p->power = cmd;
        break;
    case MENU_CMD_CHANGED: rq->apply |= c->menu->changed; break;
    case MENU_CMD_FLY_TO:   /* the game moves the aircraft (a recording ends there first) */
        close_overlay(p, rq);
        rq->fly_to = true;
        memcpy(rq->fly_pos, c->menu->fly.pos, sizeof rq->fly_pos);
        break;
    case MENU_CMD_MODE:   /* the game lays the mode's course (the menu closes when it starts) */
        rq->start_mode = true;
        rq->mode = c->menu->arg;
        break;
    default: break;
    }
}

/* Frames per second over about half a second. */
static void count_frame(Play *p, float dt) {
    p->frames++;
    age_messages(p, dt);
    p->fps_frames++;
    double now = time_now_ms();
    if (now - p->fps_t0 >= 500.0) {
        p->fps = (float)(p->fps_frames * 1000.0 / (now - p->fps_t0));
        p->fps_frames = 0;
        p->fps_t0 = now;
    }
}

/* The flying screen's own buttons: pause, map, camera, HUD. False when an overlay opened. */
static bool flight_buttons(Play *p, const PlayCtx *c, PlayRequest *rq) {
    const InputState *in = c->in;
    if (in->pressed[GA_PAUSE]) {
        open_menu(p, c);
        return false;
    }
    if (in->pressed[GA_MAP]) {
        open_map(p, OVERLAY_NONE);
        return false;
    }
    if (in->pressed[GA_CAMERA]) {
        c->set->camera = c->set->camera == GAME_CAMERA_CHASE ? GAME_CAMERA_COCKPIT : GAME_CAMERA_CHASE;
        rq->apply |= MENU_CHANGED_FLIGHT;
    }
    if (in->pressed[GA_SELECT]) {
        c->set->hud = !c->set->hud;
        rq->dirty = true;
    }
    return true;
}

/* The overlays before the flight: true when this frame ends in them (paused, or the map). */
static bool overlay_frame(Play *p, const PlayCtx *c, float dt, PlayRequest *rq) {
    const InputState *in = c->in;
    if (p->overlay == OVERLAY_MENU && !p->demo) {
        menu_frame(p, c, dt, rq);
        if (p->idle_s > PLAY_DEMO_IDLE_SECONDS && p->overlay == OVERLAY_MENU && !p->paused_for_pad) {
            /* The pause menu left alone: the attract loop behind it, from the next frame's steps
             * (the game sets up what it plays before them: the aircraft is not flown meanwhile). */
            p->demo = true;
            follow(p, c, dt);
            return true;
        }
        if (!p->demo) {
            follow(p, c, dt);
            return true;   /* paused */
        }
    }
    if (p->overlay == OVERLAY_MAP) {
        /* The map control steps out once, from the island to the world; again (or back) closes. */
        if (in->pressed[GA_MAP] && p->world_map && !p->map_world) p->map_world = true;
        else if (in->pressed[GA_MAP] || in->pressed[GA_MENU_BACK] || in->pressed[GA_PAUSE]) p->overlay = p->map_return;
        return true;
    }
    return false;
}

void play_stall(Play *p, const PlayCtx *c, double gap_s) {
    p->stalls++;
    bool in_flight = p->state != PLAY_START && !p->demo && p->overlay == OVERLAY_NONE;
    if (!p->quiet)
        log_info("skyisles: a %.1f s gap between frames (suspended, stopped or held in a debugger): %s", gap_s,
                 in_flight ? "paused where it was" : "the time is dropped");
    if (!in_flight) return;
    open_menu(p, c);
    play_message(p, 4.0f, text_get(TEXT_MSG_PAUSED_BREAK), gap_s);
}

PlayRequest play_frame(Play *p, const PlayCtx *c, float dt) {
    PlayRequest rq = {0};
    const InputState *in = c->in;
    count_frame(p, dt);
    if (in->quit_combo) {   /* Back+Start, the handheld way out, from anywhere */
        p->quit = true;
        return rq;
    }
    pad_changes(p, c, &rq);

    /* Attract mode: any input hands back what it interrupted. */
    if (p->demo && in->any_pressed) {
        /* The press that ends the attract loop does nothing else (it should not also start or
         * choose something). --demo started at the title; otherwise the title or the pause
         * menu the loop interrupted comes back as it was. */
        p->demo = false;
        p->idle_s = 0.0f;
        if (c->demo_start) p->state = PLAY_START;
        follow(p, c, dt);
        return rq;
    }
    if (in->any_pressed) p->idle_s = 0.0f;
    else p->idle_s += dt;
    if (overlay_frame(p, c, dt, &rq)) return rq;

    switch (p->state) {
    case PLAY_START:
        if (!p->demo && (in->pressed[GA_PAUSE] || in->pressed[GA_MENU_OK] || (c->can_continue && in->pressed[GA_CAMERA]))) {
            /* With a saved spot Start continues there and Y (C) starts a new flight here. */
            rq.resume_saved = c->can_continue && !in->pressed[GA_CAMERA];
            p->state = PLAY_FLY;
            c->flight->throttle = flight_throttle_for(c->model, c->flight->speed);
            play_message(p, 3.0f, "%s", text_get(TEXT_MSG_FLY));
            break;
        }
        if (!p->demo && c->boot_service && in->pressed[GA_SELECT]) {   /* Power off, Reboot, Quit */
            open_menu(p, c);
            break;
        }
        if (!p->demo && p->idle_s > PLAY_DEMO_IDLE_SECONDS) {
            p->demo = true;   /* the attract loop, from the next frame's steps (as from the pause menu) */
            break;
        }
        run_steps(p, c, dt, &rq);
        break;
    case PLAY_FLY:
        if (!p->demo && !flight_buttons(p, c, &rq)) break;
        run_steps(p, c, dt, &rq);
        break;
    case PLAY_CRASH:
        run_steps(p, c, dt, &rq);
        break;
    }
    follow(p, c, dt);
    return rq;
}

bool play_show(Play *p, Menu *menu, GameSettings *set, const WorldParams *held, const Show *what) {
    p->overlay = OVERLAY_NONE;
    p->state = PLAY_FLY;
    p->fps = 0.0f;   /* the machine's frame rate: a shot shows none, the same picture on every machine */
    switch (what->kind) {
    case SHOW_NONE: set->hud = false; return true;
    case SHOW_TITLE: p->state = PLAY_START; return true;
    case SHOW_MAP:
    case SHOW_WORLD_MAP:
        p->overlay = OVERLAY_MAP;
        p->map_world = what->kind == SHOW_WORLD_MAP;
        return true;
    case SHOW_CRASH:
        p->state = PLAY_CRASH;
        p->crash_timer = PLAY_CRASH_SECONDS;
        return true;
    case SHOW_PAGE: {
        int page = menu_page_find(what->page);
        if (page < 0) return false;
        menu_open(menu, set, held, page);
        p->overlay = OVERLAY_MENU;
        return true;
    }
    default: return true;   /* the HUD */
    }
}

void play_enter_flight(Play *p) {
    p->overlay = OVERLAY_NONE;
    p->state = PLAY_FLY;
    p->demo = false;
}

void play_set_safe(Play *p, const FlightState *f) {
    p->safe_x = f->x;
    p->safe_y = f->y;
    p->safe_z = f->z;
    p->safe_yaw = f->yaw;
    p->safe_valid = true;
}

void play_forget_safe(Play *p) { p->safe_valid = false; }

void play_cut(Play *p) { p->prev_valid = false; }

void play_set_boost(Play *p, bool boost) { p->autopilot_boost = boost; }

void play_set_quiet(Play *p, bool quiet) { p->quiet = quiet; }

void play_count_stall(Play *p) { p->stalls++; }

void play_replay_again(Play *p, FlightState *f, const ReplayStart *s) {
    play_replay_restore(p, f, s);
    p->replay_done = false;
    p->step_acc = 0.0;
}

void play_keep(const Play *p, Play *kept) { *kept = *p; }

void play_put_back(Play *p, const Play *kept, bool to_title) {
    Play now = *p;
    *p = *kept;
    p->quit = now.quit;
    p->power = now.power;
    p->frames = now.frames;
    p->fps = now.fps;
    p->fps_frames = now.fps_frames;
    p->fps_t0 = now.fps_t0;
    p->stalls = now.stalls;
    p->steps = now.steps;
    memcpy(p->msg, now.msg, sizeof now.msg);
    memcpy(p->pad_notice, now.pad_notice, sizeof now.pad_notice);
    p->demo = false;
    p->idle_s = 0.0f;
    if (to_title) p->state = PLAY_START;   /* as play_frame hands back the title */
}
