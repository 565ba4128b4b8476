/* skyisles play: the start screen, flight (the pilot's input, or the autopilot as one more
 * input source), collision and crashes with restarts near the last safe place, the pause menu
 * and island map, attract mode, and what happens when the controller comes and goes. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "game.h"

#define SAFE_PERIOD 0.5f        /* seconds between checks of the place to restart near */
#define AUTOPILOT_CRUISE 40.0f  /* m/s the autopilot holds */

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

void play_init(Game *g) {
    Play *p = &g->play;
    memset(p, 0, sizeof *p);
    p->fps_t0 = time_now_ms();
    /* --autopilot and --headless fly at once; --demo is the attract mode; a player starts at the
     * title with the autopilot flying behind it. */
    if (g->opt.demo) {
        p->state = PLAY_START;
        p->demo = true;
    } else if (g->opt.autopilot || g->opt.headless || g->camera_fixed || g->opt.screenshot || g->opt.bench_frames) {
        p->state = PLAY_FLY;
    } else {
        p->state = PLAY_START;
    }
    p->safe_x = g->flight.x;
    p->safe_y = g->flight.y;
    p->safe_z = g->flight.z;
    p->safe_yaw = g->flight.yaw;
    p->safe_valid = true;
    g->flight.cruise_y = g->flight.y;
}

/* Who flies: the autopilot on the title, in attract mode and with --autopilot; else the player. */
static bool autopilot_flies(const Game *g) {
    return g->opt.autopilot || g->play.demo || g->play.state == PLAY_START;
}

static void pilot_input(const Game *g, FlightInput *fi) {
    const InputState *in = &g->input.st;
    memset(fi, 0, sizeof *fi);
    fi->pitch = in->value[GA_PITCH];
    fi->roll = in->value[GA_ROLL];
    fi->yaw = in->value[GA_YAW];
    fi->throttle = in->value[GA_THROTTLE_UP] - in->value[GA_THROTTLE_DOWN];
    fi->boost = in->held[GA_BOOST];
}

void play_respawn(Game *g) {
    Play *p = &g->play;
    FlightState f = g->flight;
    float cruise = flight_cruise_speed(&g->model, f.throttle);
    f.speed = cruise;
    f.boost = 0.0f;
    bool near = p->safe_valid && sim_respawn_near(g->world, p->safe_x, p->safe_y, p->safe_z, p->safe_yaw, &f);
    if (!near) {
        /* Nothing clear near the last safe place (the world changed under it): the spawn. */
        f = g->spawn.flight;
        f.throttle = g->flight.throttle;
        f.time_s = g->flight.time_s;
    }
    f.speed = cruise;
    f.cruise_y = f.y;
    f.probe_timer = 0.0f;
    g->flight = f;
    p->safe_x = f.x;
    p->safe_y = f.y;
    p->safe_z = f.z;
    p->safe_yaw = f.yaw;
    p->respawns++;
    p->state = PLAY_FLY;
    g->rig.settled = false;
}

/* One step of the aircraft: the input of whoever flies, the flight model, then the sweep of the
 * motion against the field (W9) when collision is on. */
static void fly(Game *g, float dt) {
    Play *p = &g->play;
    FlightInput fi;
    if (autopilot_flies(g)) flight_autopilot_input(&g->flight, g->world, AUTOPILOT_CRUISE, p->autopilot_boost, dt, &fi);
    else pilot_input(g, &fi);
    double x0 = g->flight.x, y0 = g->flight.y, z0 = g->flight.z;
    float speed0 = g->flight.speed;
    flight_step(&g->flight, &fi, &g->model, dt);
    p->flight_s += dt;
    if (g->set.collision) {
        uint64_t t0 = time_now_ns();
        CollisionResult r;
        sim_collide(g->world, x0, y0, z0, g->flight.x, g->flight.y, g->flight.z, &r);
        double ms = (double)(time_now_ns() - t0) * 1e-6;
        p->collide_ms_last = ms;
        p->collide_ms_sum += ms;
        if (ms > p->collide_ms_max) p->collide_ms_max = ms;
        if (r.steps > p->collide_steps_max) p->collide_steps_max = r.steps;
        if (r.blocks_tested > p->collide_blocks_max) p->collide_blocks_max = r.blocks_tested;
        if (r.hit) {
            /* The crash is visible: the aircraft stops where it met the rock (speed 0, W9). */
            g->flight.x = r.x;
            g->flight.y = r.y;
            g->flight.z = r.z;
            g->flight.speed = 0.0f;
            p->state = PLAY_CRASH;
            p->crash_timer = PLAY_CRASH_SECONDS;
            p->crashes++;
            log_info("skyisles: crash %llu at %.1f, %.1f, %.1f at %.0f m/s (%s)", (unsigned long long)p->crashes, r.x,
                     r.y, r.z, (double)speed0, autopilot_flies(g) ? "autopilot" : "pilot");
            return;
        }
    }
    p->safe_timer -= dt;
    if (p->safe_timer <= 0.0f) {
        p->safe_timer = SAFE_PERIOD;
        if (sim_clear_box(g->world, g->flight.x, g->flight.y, g->flight.z, SIM_RESPAWN_CLEARANCE)) {
            p->safe_x = g->flight.x;
            p->safe_y = g->flight.y;
            p->safe_z = g->flight.z;
            p->safe_yaw = g->flight.yaw;
            p->safe_valid = true;
        }
    }
}

static void open_menu(Game *g) {
    menu_open(&g->menu, &g->set, world_params(g->world), MENU_PAGE_PAUSE);
    g->play.overlay = OVERLAY_MENU;
    g->play.idle_s = 0.0f;
}

static void close_overlay(Game *g) {
    g->play.overlay = OVERLAY_NONE;
    g->play.paused_for_pad = false;
    game_save_settings(g);   /* settings are kept when the menu closes */
}

static void open_map(Game *g, PlayOverlay from) {
    g->play.map_return = from;
    g->play.overlay = OVERLAY_MAP;
}

/* Controllers: the one that drives went away -> pause and say so; it (or another) came back
 * -> resume what the loss paused. */
static void pad_changes(Game *g) {
    Play *p = &g->play;
    const InputState *in = &g->input.st;
    switch (in->pad_change) {
    case INPUT_PAD_FOUND:
        play_message(p, 3.0f, "Controller: %s", in->pad_name);
        if (p->paused_for_pad) {
            close_overlay(g);
            play_message(p, 2.0f, "Resumed");
        }
        break;
    case INPUT_PAD_SWITCHED: play_message(p, 3.0f, "%s flies now", in->pad_name); break;
    case INPUT_PAD_LOST:
        snprintf(p->pad_notice, sizeof p->pad_notice, "Controller disconnected: plug it back in");
        if (p->overlay == OVERLAY_NONE && p->state != PLAY_START && !p->demo && !g->opt.autopilot) {
            open_menu(g);
            p->paused_for_pad = true;
        } else {
            play_message(p, 4.0f, "%s disconnected", in->pad_name);
        }
        break;
    case INPUT_PAD_UNMAPPED:
        play_message(p, 6.0f, "%s has no mapping: see the README", in->pad_name);
        break;
    default: break;
    }
}

static void menu_frame(Game *g, float dt) {
    Play *p = &g->play;
    const InputState *in = &g->input.st;
    /* Start closes the pause menu from any page (and ends a capture only through Back). */
    if (in->pressed[GA_PAUSE] && !g->menu.capturing && !(g->ev.key_count && g->ev.keys[0] == PKEY_ESCAPE)) {
        close_overlay(g);
        return;
    }
    MenuCommand c = menu_update(&g->menu, in, &g->ev, dt);
    switch (c) {
    case MENU_CMD_RESUME: close_overlay(g); break;
    case MENU_CMD_MAP: open_map(g, OVERLAY_MENU); break;
    case MENU_CMD_QUIT: p->quit = true; break;
    case MENU_CMD_CHANGED: game_apply_settings(g, g->menu.changed); break;
    default: break;
    }
}

void play_frame(Game *g, float dt) {
    Play *p = &g->play;
    const InputState *in = &g->input.st;
    p->frames++;
    age_messages(p, dt);
    /* Frames per second over about half a second. */
    p->fps_frames++;
    double now = time_now_ms();
    if (now - p->fps_t0 >= 500.0) {
        p->fps = (float)(p->fps_frames * 1000.0 / (now - p->fps_t0));
        p->fps_frames = 0;
        p->fps_t0 = now;
    }
    if (in->quit_combo) {   /* Back+Start, the handheld way out, from anywhere */
        p->quit = true;
        return;
    }
    pad_changes(g);

    /* Attract mode: any input hands back what it interrupted. */
    if (p->demo && in->any_pressed) {
        /* The press that ends the attract loop does nothing else (it should not also start or
         * choose something). --demo started at the title; otherwise the title or the pause
         * menu the loop interrupted comes back as it was. */
        p->demo = false;
        p->idle_s = 0.0f;
        if (g->opt.demo) p->state = PLAY_START;
        camera_rig_update(&g->rig, &g->flight, dt, &g->camera);
        return;
    }
    if (in->any_pressed) p->idle_s = 0.0f;
    else p->idle_s += dt;

    if (p->overlay == OVERLAY_MENU && !p->demo) {
        menu_frame(g, dt);
        if (p->idle_s > PLAY_DEMO_IDLE_SECONDS && p->overlay == OVERLAY_MENU && !p->paused_for_pad) {
            p->demo = true;   /* the pause menu left alone: fly the attract loop behind it */
        }
        if (!p->demo) {
            camera_rig_update(&g->rig, &g->flight, dt, &g->camera);
            return;   /* paused */
        }
    }
    if (p->overlay == OVERLAY_MAP) {
        if (in->pressed[GA_MAP] || in->pressed[GA_MENU_BACK] || in->pressed[GA_PAUSE]) {
            p->overlay = p->map_return;
        }
        return;
    }

    switch (p->state) {
    case PLAY_START:
        if (!p->demo && (in->pressed[GA_PAUSE] || in->pressed[GA_MENU_OK])) {
            p->state = PLAY_FLY;
            g->flight.throttle = flight_throttle_for(&g->model, g->flight.speed);
            play_message(p, 3.0f, "Fly! Start or Esc pauses");
            break;
        }
        if (!p->demo && p->idle_s > PLAY_DEMO_IDLE_SECONDS) p->demo = true;
        fly(g, dt);
        break;
    case PLAY_FLY:
        if (!p->demo) {
            if (in->pressed[GA_PAUSE]) {
                open_menu(g);
                break;
            }
            if (in->pressed[GA_MAP]) {
                open_map(g, OVERLAY_NONE);
                break;
            }
            if (in->pressed[GA_CAMERA]) {
                g->set.camera = g->set.camera == GAME_CAMERA_CHASE ? GAME_CAMERA_COCKPIT : GAME_CAMERA_CHASE;
                game_apply_settings(g, MENU_CHANGED_FLIGHT);
            }
            if (in->pressed[GA_SELECT]) {
                g->set.hud = !g->set.hud;
                g->settings_dirty = true;
            }
        }
        fly(g, dt);
        break;
    case PLAY_CRASH:
        p->crash_timer -= dt;
        flight_idle(&g->flight, dt);
        if (p->crash_timer <= 0.0f) play_respawn(g);
        break;
    }
    camera_rig_update(&g->rig, &g->flight, dt, &g->camera);
}

bool game_show(Game *g, const char *what) {
    Play *p = &g->play;
    static const struct { const char *name; MenuPage page; } pages[] = {
        {"menu", MENU_PAGE_PAUSE}, {"panel", MENU_PAGE_PANEL}, {"controls", MENU_PAGE_CONTROLS},
        {"display", MENU_PAGE_DISPLAY}};
    p->overlay = OVERLAY_NONE;
    p->state = PLAY_FLY;
    if (!what || !strcmp(what, "hud")) return true;
    if (!strcmp(what, "none")) {
        g->set.hud = false;
        return true;
    }
    if (!strcmp(what, "title")) {
        p->state = PLAY_START;
        return true;
    }
    if (!strcmp(what, "map")) {
        p->overlay = OVERLAY_MAP;
        return true;
    }
    if (!strcmp(what, "crash")) {
        p->state = PLAY_CRASH;
        p->crash_timer = PLAY_CRASH_SECONDS;
        return true;
    }
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++)
        if (!strcmp(what, pages[i].name)) {
            menu_open(&g->menu, &g->set, world_params(g->world), pages[i].page);
            p->overlay = OVERLAY_MENU;
            return true;
        }
    return false;
}
