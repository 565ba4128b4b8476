/* skyisles display: the frame cap (30, 60 or uncapped), vsync, fullscreen or a window on a
 * desktop (F11, Alt+Enter), applied from the settings rows; the pacing after each swap. */
#include "display.h"

#include <stdlib.h>
#include <time.h>

#include "game.h"

int game_frame_cap_fps(const GameSettings *s) {
    static const SettingDesc *row;
    if (!row) row = setting_find("display", "frame_cap");
    const char *const *names;
    int n = setting_names(row, &names);
    /* The row's names are its rates; a name that is no number ("uncapped") is none. */
    return s->frame_cap >= 0 && s->frame_cap < n ? atoi(names[s->frame_cap]) : 0;
}

uint64_t pacer_wait_ns(FramePacer *p, int fps, uint64_t now_ns) {
    if (fps <= 0) {
        p->next_ns = 0;
        return 0;
    }
    uint64_t period = 1000000000ull / (uint64_t)fps;
    /* A frame later than a whole period (a stall, a slow frame) starts the schedule again
     * instead of racing to catch up. */
    if (p->next_ns == 0 || now_ns > p->next_ns + period) p->next_ns = now_ns;
    p->next_ns += period;
    return p->next_ns > now_ns ? p->next_ns - now_ns : 0;
}

void game_pace_frame(FramePacer *p, const GameSettings *s) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    uint64_t wait = pacer_wait_ns(p, game_frame_cap_fps(s), now);
    if (wait == 0) return;
    struct timespec until = {(time_t)(p->next_ns / 1000000000ull), (long)(p->next_ns % 1000000000ull)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) != 0) {
        if (platform_stop_signal()) return;
    }
}

void game_display_apply(Platform *pf, const GameOptions *o, const GameSettings *s) {
    if (!pf || platform_is_headless(pf)) return;
    platform_set_vsync(pf, o->vsync && s->vsync);
    if (!platform_is_console(pf)) platform_set_fullscreen(pf, o->fullscreen || s->fullscreen);
}

/* F11 or Alt+Enter: the other of fullscreen and a window; true when it changed (the caller saves
 * it at once: a rare change, so no wear). Runs before the input reads the frame's keys: the Enter
 * of Alt+Enter is taken out, so it does not also start a flight or choose a menu item. */
bool game_display_input(GameConfig *cfg, PlatformEvents *ev, Platform *pf, GameSession *ses) {
    if (!pf || platform_is_console(pf)) return false;
    bool alt = ev->held[PKEY_LALT] || ev->held[PKEY_RALT], toggle = false;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < ev->key_count; i++) {
        bool alt_enter = ev->keys[i] == PKEY_ENTER && (alt || ((ev->key_alt >> i) & 1u));
        toggle |= ev->keys[i] == PKEY_F11 || alt_enter;
        if (!alt_enter) ev->keys[kept++] = ev->keys[i];
    }
    ev->key_count = kept;
    if (!toggle) return false;
    ev->held[PKEY_ENTER] = false;
    cfg->set.fullscreen = !(cfg->opt.fullscreen || cfg->set.fullscreen);
    cfg->opt.fullscreen = false;   /* the player's choice from now on */
    cfg->settings_dirty = true;
    game_display_apply(pf, &cfg->opt, &cfg->set);
    play_message(&ses->play, 2.0f, "%s", text_get(cfg->set.fullscreen ? TEXT_MSG_FULLSCREEN : TEXT_MSG_WINDOW));
    return true;
}
