/* skyisles game and replays: the recorder and the ghost carved at boot, --replay FILE (its world
 * set before the world is built, its start state after), every flight kept in replays/ when it
 * ends (quit, a world or flight setting changed, 30 minutes), --record FILE, the unpaced headless
 * playback, and the calls the course mode makes (a new recording at its start, the best run, the
 * ghost). */
#include <stdio.h>
#include <string.h>

#include "game.h"

/* The course pilot flies a course for --autopilot and --record-attract. */
static void course_pilot(void *user, const FlightState *f, FlightInput *out) {
    Game *g = user;
    tour_pilot_input(&g->crs.tour, f, &g->ses.model, g->svc.world, out);
}

/* What play works on: the game's own parts, lent, with the recorder (or the replay played: a
 * --replay file, or the attract mode's, which flies with the model and collision it was
 * recorded with and is not recorded). */
PlayCtx game_play_ctx(Game *g) {
    bool replaying = g->cfg.opt.replay != NULL;
    /* Shots and benches: the autopilot flies their frames, and nothing is recorded (no one flew). */
    bool shot_or_bench = g->cfg.opt.screenshot || g->cfg.opt.bench_frames;
    PlayCtx c = {.world = g->svc.world, .flight = &g->ses.flight, .model = &g->ses.model, .rig = &g->ses.rig,
                 .camera = &g->ses.camera, .spawn = &g->svc.spawn, .in = &g->svc.input.st, .ev = &g->svc.ev,
                 .menu = &g->ses.menu, .set = &g->cfg.set, .autopilot = g->cfg.opt.autopilot || shot_or_bench,
                 .camera_held = g->ses.camera_fixed, .demo_start = g->cfg.opt.demo,
                 .boot_service = g->cfg.opt.boot_service, .can_continue = g->ses.cont.have && !replaying,
                 .rec = replaying || shot_or_bench || !g->crs.rec.runs ? NULL : &g->crs.rec, .meta = &g->crs.meta,
                 .replay = replaying ? &g->crs.playback : NULL};
    bool course = tour_active(&g->crs.tour) && !g->crs.tour.results;
    if ((g->cfg.opt.autopilot || g->cfg.opt.record_attract) && course) {
        c.pilot = course_pilot;
        c.pilot_user = g;
    }
    Attract *a = &g->crs.attract;
    if (a->playing) {
        a->set = g->cfg.set;
        a->set.collision = (a->run.h.flags & REPLAY_F_COLLISION) != 0;
        c.set = &a->set;
        c.model = &a->run.h.model;
        c.replay = &a->run;
        c.rec = NULL;
        c.pilot = NULL;
        c.autopilot = false;
    }
    return c;
}

bool game_replay_boot(Game *g, SkyError *err) {
    if (!replay_init(&g->crs.rec, &g->svc.mem) || !replay_init(&g->crs.ghost_run, &g->svc.mem) ||
        (g->cfg.opt.replay && !replay_init(&g->crs.playback, &g->svc.mem))) {
        sky_error_set(err, SKY_ERR_INPUT, "skyisles: the memory budget of %zu MiB is too small for the replay buffers: "
                      "raise --mem MB or SKYISLES_MEM_MB (default %u)", g->svc.mem.size >> 20, MEM_DEFAULT_BUDGET_MIB);
        return false;
    }
    if (!g->cfg.opt.replay) return true;
    /* The replay's world: its generation parameters over the settings, before anything is built. */
    if (!replay_load(&g->crs.playback, g->cfg.opt.replay, err)) return false;
    return replay_apply_params(&g->crs.playback, &g->cfg.set.world, g->cfg.opt.replay, err);
}

/* What a recording is stamped with: the world and model flown now. */
static void refresh_meta(ReplayMeta *meta, const GameSettings *set, const GameServices *svc, const FlightModel *model) {
    const WorldParams *wp = world_params(svc->world);
    meta->seed = wp->gen.seed;
    meta->pack_checksum = svc->home.codex ? svc->home.codex->checksum : 0;
    meta->model = *model;
    meta->flags = set->collision ? REPLAY_F_COLLISION : 0u;
    meta->gen = &wp->gen;
}

bool game_replay_ready(Game *g, SkyError *err) {
    if (!g->cfg.opt.replay && g->cfg.opt.use_settings) replay_store_open(&g->crs.store, g->cfg.opt.config_dir);
    if (g->cfg.opt.replay) {
        Replay *r = &g->crs.playback;
        if (!replay_check(r, g->svc.home.codex->checksum, NULL, g->cfg.opt.replay, err)) return false;
        g->ses.model = r->h.model;
        g->cfg.set.collision = (r->h.flags & REPLAY_F_COLLISION) != 0;
        play_replay_restore(&g->ses.play, &g->ses.flight, &r->h.start);
        g->ses.rig.settled = false;
        replay_rewind(r);
        log_info("skyisles: replaying %s: %u steps (%.1f s), seed %llu", g->cfg.opt.replay, r->h.steps,
                 (double)r->h.steps / SIM_STEP_HZ, (unsigned long long)r->h.seed);
    }
    refresh_meta(&g->crs.meta, &g->cfg.set, &g->svc, &g->ses.model);
    if (g->cfg.opt.ghost) {
        if (!replay_load(&g->crs.ghost_run, g->cfg.opt.ghost, err) ||
            !replay_check(&g->crs.ghost_run, g->crs.meta.pack_checksum, g->crs.meta.gen, g->cfg.opt.ghost, err))
            return false;
        ghost_start(&g->crs.ghost, &g->crs.ghost_run);
    }
    return true;
}

static uint64_t sim_hash(const GameOptions *o, const GameSession *ses, const Replay *r) {
    bool counting = !o->replay && (r->mode == REPLAY_RECORDING || r->mode == REPLAY_ENDED);
    return play_sim_hash(&ses->play, &ses->flight, counting ? r->crashes0 : 0, counting ? r->respawns0 : 0);
}

uint64_t game_sim_hash(const Game *g) {
    return sim_hash(&g->cfg.opt, &g->ses, &g->crs.rec);
}

/* An ended recording goes to the last flights (when there is a folder), and the recorder frees;
 * keep_first (--record FILE): the first flight stays for the end. */
static void keep_ended(Replay *r, ReplayStore *store, bool keep_first) {
    if (r->mode != REPLAY_ENDED) return;
    char path[700];
    SkyError err = {0};
    if (!keep_first && replay_keep_last(store, r, path, sizeof path, &err))
        log_debug("skyisles: flight of %u steps kept in %s", r->h.steps, path);
    else if (err.msg[0])
        log_warn("%s", err.msg);
    if (!keep_first) r->mode = REPLAY_IDLE;   /* --record keeps the first flight for the end */
}

bool game_replay_restart(Game *g) {
    Replay *r = &g->crs.rec;
    if (r->mode != REPLAY_RECORDING) return false;
    replay_end(r, game_sim_hash(g), g->ses.play.crashes, 0);
    keep_ended(&g->crs.rec, &g->crs.store, g->cfg.opt.record != NULL);
    return true;
}

void game_replay_settings_changing(const GameConfig *cfg, const GameSession *ses, GameCourses *crs, unsigned changes) {
    Replay *r = &crs->rec;
    if (!changes || r->mode != REPLAY_RECORDING) return;
    /* The sim flies with the world's generation values, the flight model and collision: a change
     * of any ends the recording at the last step flown with the old ones. */
    FlightModel m = ses->model;
    m.speed_limit = cfg->set.speed_limit;
    uint32_t flags = cfg->set.collision ? REPLAY_F_COLLISION : 0u;
    char text[REPLAY_PARAMS_MAX];
    uint32_t n = replay_params_text(&cfg->set.world.gen, text, sizeof text);
    bool same = !memcmp(&m, &r->h.model, sizeof m) && (r->h.flags & REPLAY_F_COLLISION) == flags &&
                n == r->h.params_len && !memcmp(text, r->h.params, n);
    if (same) return;
    replay_end(r, sim_hash(&cfg->opt, ses, r), ses->play.crashes, REPLAY_F_PARAMS_CHANGED);
    keep_ended(&crs->rec, &crs->store, cfg->opt.record != NULL);
}

void game_replay_settings_changed(const GameConfig *cfg, const GameServices *svc, GameSession *ses, GameCourses *crs) {
    refresh_meta(&crs->meta, &cfg->set, svc, &ses->model);
    play_cut(&ses->play);   /* the aircraft may have been moved to open air */
}

void game_replay_frame(Game *g, const PlayRequest *rq) {
    if (rq->steps && g->crs.ghost.active) {
        PlayCtx c = game_play_ctx(g);
        ghost_step(&g->crs.ghost, &c, rq->steps);
    }
    keep_ended(&g->crs.rec, &g->crs.store, g->cfg.opt.record != NULL);
}

/* A replay played to its end: the same state as recorded, or one line saying it drifted. */
static int replay_verdict(const Game *g) {
    const Replay *r = &g->crs.playback;
    uint64_t h = game_sim_hash(g);
    bool same = h == r->h.end_hash && g->ses.play.crashes == r->h.crashes;
    printf("replay %s: %u steps (%.1f s), %llu crashes, state hash 0x%016llx: %s\n", g->cfg.opt.replay, r->step,
           (double)r->step / SIM_STEP_HZ, (unsigned long long)g->ses.play.crashes, (unsigned long long)h,
           same ? "the same as recorded" : "DIFFERENT from the recording");
    fflush(stdout);
    if (same) return 0;
    fprintf(stderr, "skyisles: replay %s desynchronised: state hash 0x%016llx and %llu crashes, the recording ended at "
            "0x%016llx and %u: this build flies it differently; record the flight again with it\n", g->cfg.opt.replay,
            (unsigned long long)h, (unsigned long long)g->ses.play.crashes, (unsigned long long)r->h.end_hash, r->h.crashes);
    return GAME_EXIT_START_FAILED;
}

int game_replay_finish(Game *g) {
    if (g->cfg.opt.replay) return g->ses.play.replay_done ? replay_verdict(g) : 0;
    Replay *r = &g->crs.rec;
    if (r->mode == REPLAY_RECORDING) replay_end(r, game_sim_hash(g), g->ses.play.crashes, 0);
    if (g->cfg.opt.record && r->mode == REPLAY_ENDED) {
        SkyError err = {0};
        if (!replay_save(r, g->cfg.opt.record, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return GAME_EXIT_START_FAILED;
        }
        log_info("skyisles: flight of %u steps (%.1f s, %u crashes, state hash 0x%016llx) recorded to %s", r->h.steps,
                 (double)r->h.steps / SIM_STEP_HZ, r->h.crashes, (unsigned long long)r->h.end_hash, g->cfg.opt.record);
        return 0;
    }
    keep_ended(&g->crs.rec, &g->crs.store, g->cfg.opt.record != NULL);
    return 0;
}

int game_replay_headless(Game *g) {
    /* Unpaced: the steps as fast as they run, no streaming (collision reads the density field
     * itself), no sound. */
    PlayCtx c = game_play_ctx(g);
    double t0 = time_now_ms();
    while (!g->ses.play.replay_done && !platform_stop_signal()) play_step(&g->ses.play, &c);
    if (platform_stop_signal()) return 0;
    double ms = time_now_ms() - t0;
    log_info("skyisles: replayed %u steps in %.0f ms (%.0f steps/s)", g->crs.playback.step, ms,
             ms > 0.0 ? g->crs.playback.step * 1000.0 / ms : 0.0);
    return replay_verdict(g);
}

int game_keep_best(Game *g, const char *course_id, double time_s, const float *splits, uint32_t n_splits) {
    if (g->crs.attract.playing || g->cfg.opt.record_attract) return 0;   /* not the player's run */
    ReplayBest b = {.time_s = time_s, .splits = splits, .n_splits = n_splits, .end_hash = game_sim_hash(g),
                    .crashes = g->ses.play.crashes};
    SkyError err = {0};
    int k = replay_keep_best(&g->crs.store, course_id, &g->crs.rec, &b, &err);
    if (k < 0) log_warn("%s", err.msg);
    return k;
}

bool game_ghost_start(Game *g, const char *course_id) {
    SkyError err = {0};
    ghost_stop(&g->crs.ghost);
    if (!replay_load_best(&g->crs.store, course_id, &g->crs.ghost_run, g->crs.meta.pack_checksum, g->crs.meta.gen, &err)) {
        log_info("%s", err.msg);
        return false;
    }
    ghost_start(&g->crs.ghost, &g->crs.ghost_run);
    if (tour_active(&g->crs.tour) && !strcmp(g->crs.tour.course->id, course_id)) ghost_course(&g->crs.ghost, g->crs.tour.course);
    return true;
}
