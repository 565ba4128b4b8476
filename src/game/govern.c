/* skyisles Quality auto: the frame-time governor (governor.c) wired to the game: its ceiling
 * the player's values, its target the frame cap, its changes applied to the renderer's and the
 * world's live values (never to the settings), its settle point kept for the next start. */
#include <stdio.h>

#include "game.h"

static GovLook chosen_look(const GameSettings *s) {
    GovLook c;
    c.lines = s->render.live.lines;
    c.clouds = s->render.live.draw_clouds;
    for (int i = 0; i < WORLD_LOD_MAX; i++) c.lod_dist[i] = s->world.live.lod_dist[i];
    c.view_radius = s->world.live.view_radius;
    return c;
}

static GovLook effective(const GameServices *svc, const GameSettings *s) {
    GovLook c = chosen_look(s), e;
    gov_effective(&svc->gov, &c, &e);
    return e;
}

void game_gov_render_live(const GameServices *svc, const GameSettings *s, RenderLiveParams *out) {
    GovLook e = effective(svc, s);
    *out = s->render.live;
    out->lines = e.lines;
    out->draw_clouds = e.clouds;
}

void game_gov_world_live(const GameServices *svc, const GameSettings *s, WorldLiveParams *out) {
    GovLook e = effective(svc, s);
    *out = s->world.live;
    out->view_radius = e.view_radius;
    for (int i = 0; i < WORLD_LOD_MAX; i++) out->lod_dist[i] = e.lod_dist[i];
}

/* The frame cap's period; uncapped: the display's refresh (60 Hz when it does not say). */
static double target_ms(const GameConfig *cfg, const GameServices *svc) {
    int fps = game_frame_cap_fps(&cfg->set);
    if (fps <= 0) fps = svc->platform ? platform_refresh_hz(svc->platform) : 0;
    return 1000.0 / (fps > 0 ? fps : 60);
}

static void apply(const GameConfig *cfg, GameServices *svc) {
    if (svc->render) {
        RenderSettings rs = *render_settings(svc->render);
        game_gov_render_live(svc, &cfg->set, &rs.live);
        render_apply_settings(svc->render, &rs);
    }
    if (svc->world) {
        WorldLiveParams live;
        game_gov_world_live(svc, &cfg->set, &live);
        world_set_live_params(svc->world, &live);
    }
}

void game_gov_start(GameConfig *cfg, GameServices *svc) {
    if (!svc->render || cfg->set.quality != GAME_QUALITY_AUTO) return;
    GovLook c = chosen_look(&cfg->set);
    bool probe = cfg->set.auto_level < 0;
    gov_init(&svc->gov, &c, target_ms(cfg, svc), probe ? 0 : cfg->set.auto_level, probe);
    if (!probe) gov_restore(&svc->gov, (uint32_t)cfg->set.auto_skip);
    if (render_gpu_timer_enable(svc->render, platform_gl_proc))
        log_info("skyisles: quality auto: the GPU's frame time from GL_EXT_disjoint_timer_query");
    char what[160];
    gov_describe(&svc->gov, what, sizeof what);
    log_info("skyisles: quality auto: %d steps below the chosen values, target %.1f ms, %s level %d (%s)",
             svc->gov.n_steps, svc->gov.target_ms, probe ? "no settle point yet: probing from" : "starting at the last settle point,", svc->gov.level,
             what);
    apply(cfg, svc);
}

void game_gov_settings_changed(const GameConfig *cfg, GameServices *svc) {
    Governor *g = &svc->gov;
    bool want = cfg->set.quality == GAME_QUALITY_AUTO;
    if (!svc->render || (!want && !g->on)) return;
    GovLook c = chosen_look(&cfg->set);
    if (want && !g->on) gov_init(g, &c, target_ms(cfg, svc), 0, false);
    else if (!want) g->on = false;
    else gov_rebuild(g, &c);
    if (g->on) gov_set_target(g, target_ms(cfg, svc));
}

void game_gov_frame(GameConfig *cfg, GameServices *svc, const GovFrame *f, double dt_s) {
    Governor *g = &svc->gov;
    if (!g->on) return;
    if (gov_frame(g, f, dt_s)) {
        apply(cfg, svc);
        char what[160];
        gov_describe(g, what, sizeof what);
        log_info("skyisles: quality auto: level %d of %d (%s): frames cost %.1f ms against %.1f%s", g->level, g->n_steps,
                 what, g->last_mean, g->target_ms, g->confirming ? " (back without the step of the lines to measure it again)" : "");
    }
    if (gov_settled(g) && (cfg->set.auto_level != g->level || (uint32_t)cfg->set.auto_skip != gov_skip_mask(g))) {
        cfg->set.auto_level = g->level;   /* the next start begins here, with what it found */
        cfg->set.auto_skip = (int)gov_skip_mask(g);
        cfg->settings_dirty = true;
        g->probe = false;
        log_info("skyisles: quality auto: settled at level %d", g->level);
    }
}
