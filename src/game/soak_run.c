/* skyisles --soak in a window: a fixed 90 s cycle of what a session meets (soak_run: a course
 * started and left, a settings save, a controller plugged in and out, an audio device appearing,
 * a screenshot, a world rebuild, the map opened, stepped out and closed, the pause menu
 * left idle until the attract loop takes over, then a key and the menu closed), so a long run
 * (tools/soak.sh) finds the long frames of each and names them (frames.c). */
#include <string.h>

#include "game.h"

#define SOAK_CYCLE_S 90.0

/* One key pressed this frame, as the platform reports a press. */
static void press(PlatformEvents *ev, PlatformKey k) {
    if (ev->key_count < PLATFORM_MAX_KEY_EVENTS) ev->keys[ev->key_count++] = k;
    ev->held[k] = true;
}

/* The modes of the table that lay a course, one a cycle in turn (the tour, the sky course ...). */
static const GameMode *soak_mode(const GameSoak *s) {
    size_t n = 0;
    for (size_t i = 0; mode_at(i); i++) n += mode_at(i)->lay != NULL;
    for (size_t i = 0, k = 0; n && mode_at(i); i++)
        if (mode_at(i)->lay && k++ == s->cycle % n) return mode_at(i);
    return NULL;
}

/* A new world: the seed moved on (the settings the soak's own folder keeps). */
static unsigned soak_rebuild(Game *g, GameSoak *s) {
    g->cfg.set.world.gen.seed += 1;
    s->rebuilds++;
    log_info("skyisles: soak: rebuild for seed %llu", (unsigned long long)g->cfg.set.world.gen.seed);
    return MENU_CHANGED_WORLD;
}

/* The cycle's events at their times (seconds into the cycle), each once. */
GameSoakAsk game_soak_frame(Game *g, GameSoak *s, PlatformEvents *ev, double run_s) {
    GameSoakAsk ask = {0};
    static const double at[] = {2.0, 10.0, 12.0, 14.0, 16.0, 20.0, 24.0, 30.0, 36.0, 38.0, 40.0, 40.2, 82.0, 84.0, 86.0};
    uint32_t cycle = (uint32_t)(run_s / SOAK_CYCLE_S);
    double t = run_s - cycle * SOAK_CYCLE_S;
    if (cycle != s->cycle) s->cycle = cycle, s->done = 0;
    /* A frame long enough to count as a stall opens the pause menu (play_stall), as a suspend
     * would: outside the cycle's own menu part, the soak closes it again. */
    if (g->ses.play.overlay == OVERLAY_MENU && (t < 40.0 || t > 87.0) && run_s - s->last_close > 1.0) {
        press(ev, PKEY_ESCAPE);
        s->last_close = run_s;
        s->stray_menus++;
        return ask;
    }
    if (s->done >= (int)(sizeof at / sizeof at[0]) || t < at[s->done]) return ask;
    switch (s->done++) {
    case 0: ask.mode = soak_mode(s); break;
    case 1: g->cfg.settings_dirty = true, ask.event = "settings save", s->saves++; break;   /* as a menu closed */
    case 2: /* a controller plugged in (SDL's virtual one: the platform opens it as a real one) */
    case 3: s->pad = platform_virtual_pad(g->svc.platform, s->pad), ask.event = s->pad >= 0 ? "pad plugged" : "pad unplugged";
            s->pads += s->pad >= 0;
            break;
    case 4: ev->audio_added = true, ask.event = "audio device", s->audio++; break;   /* the list again, a retry now */
    case 5: game_course_end(&g->crs, g->svc.render); break;
    case 6: press(ev, PKEY_F12), s->shots++; break;
    case 7: ask.apply = soak_rebuild(g, s); break;
    case 8: press(ev, PKEY_M), s->maps++; break;   /* the map opens */
    case 9: press(ev, PKEY_M); break;              /* steps out to the world map (the island map without one) */
    case 10: if (g->ses.play.overlay == OVERLAY_MAP) press(ev, PKEY_M); break;   /* and closes */
    case 11: press(ev, PKEY_ESCAPE); break;        /* the pause menu, left idle: the attract loop after 30 s */
    case 12: s->attracts += g->ses.play.demo; log_info("skyisles: soak: attract loop %s", g->ses.play.demo ? "flying" : "not begun"); break;
    case 13: press(ev, PKEY_SPACE); break;         /* any key ends it */
    case 14: if (g->ses.play.overlay == OVERLAY_MENU) press(ev, PKEY_ESCAPE); break;
    default: break;
    }
    return ask;
}

void game_soak_log(const GameSoak *s) {
    log_info("skyisles: soak: %u cycles: %u courses, %u screenshots, %u rebuilds, %u maps, %u attract loops, %u settings "
             "saves, %u pads plugged, %u audio device changes; %u pause menus a stall or an unplugged pad opened, closed",
             s->cycle + 1, s->courses, s->shots, s->rebuilds, s->maps, s->attracts, s->saves, s->pads, s->audio,
             s->stray_menus);
}
