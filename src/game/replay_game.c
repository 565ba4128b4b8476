/* skyisles game and replays: the recorder and the ghost carved at boot, --replay FILE (its world
 * set before the world is built, its start state after), every flight kept in replays/ when it
 * ends (quit, a world or flight setting changed, 30 minutes), --record FILE, the unpaced headless
 * playback, and the calls the course mode makes (a new recording at its start, the best run, the
 * ghost). */
#include <stdio.h>
#include <string.h>

#include "game.h"

/* The course pilot flies a course for --autopilot and --record-attract. */
static void course_pilot(void *user, const PlayCtx *c, FlightInput *out) {
    tour_pilot_input(user, c->flight, c->model, c->world, out);
}

/* What play works on: the game's own parts, lent, with the recorder (or the replay played: a
 * --replay file, or the attract mode's, which flies with the model and collision it was
 * recorded with and is not recorded). */
PlayCtx game_play_ctx(GameConfig *cfg, GameServices *svc, GameSession *ses, GameCourses *crs) {
    bool replaying = cfg->opt.replay != NULL;
    /* Shots and benches: the autopilot flies their frames, and nothing is recorded (no one flew). */
    bool shot_or_bench = cfg->opt.screenshot || cfg->opt.bench_frames;
    PlayCtx c = {.world = svc->world, .flight = &ses->flight, .model = &ses->model, .rig = &ses->rig,
                 .camera = &ses->camera, .spawn = &svc->spawn, .in = &svc->input.st, .ev = &svc->ev,
                 .menu = &ses->menu, .set = &cfg->set, .autopilot = cfg->opt.autopilot || shot_or_bench,
                 .camera_held = ses->camera_fixed, .demo_start = cfg->opt.demo,
                 .boot_service = cfg->opt.boot_service, .can_continue = ses->cont.have && !replaying,
                 .rec = replaying || shot_or_bench || !crs->rec.runs ? NULL : &crs->rec, .meta = &crs->meta,
                 .replay = replaying ? &crs->playback : NULL};
    bool course = tour_active(&crs->tour) && !crs->tour.results;
    if ((cfg->opt.autopilot || cfg->opt.record_attract) && course) {
        c.pilot = course_pilot;
        c.pilot_user = &crs->tour;
    }
    Attract *a = &crs->attract;
    if (a->playing) {
        a->set = cfg->set;
        a->set.collision = (a->run.h.flags & REPLAY_F_COLLISION) != 0;
        a->set.weather = replay_flags_weather(a->run.h.flags);
        c.set = &a->set;
        c.model = &a->run.h.model;
        c.replay = &a->run;
        c.rec = NULL;
        c.pilot = NULL;
        c.autopilot = false;
    }
    return c;
}

bool game_replay_boot(GameCourses *crs, MemBudget *mem, const char *replay, WorldParams *world, SkyError *err) {
    if (!replay_init(&crs->rec, mem) || !replay_init(&crs->ghost_run, mem) ||
        (replay && !replay_init(&crs->playback, mem))) {
        sky_error_set(err, SKY_ERR_INPUT, "skyisles: the memory budget of %zu MiB is too small for the replay buffers: "
                      "raise --mem MB or SKYISLES_MEM_MB (default %u)", mem->size >> 20, MEM_DEFAULT_BUDGET_MIB);
        return false;
    }
    if (!replay) return true;
    /* The replay's world: its generation parameters over the settings, before anything is built. */
    if (!replay_load(&crs->playback, replay, err)) return false;
    return replay_apply_params(&crs->playback, world, replay, err);
}

/* What a recording is stamped with: the world and model flown now. */
static void refresh_meta(ReplayMeta *meta, const GameServices *svc, const FlightModel *model, bool collision,
                         int weather) {
    const WorldParams *wp = world_params(svc->world);
    meta->seed = wp->gen.seed;
    meta->pack_checksum = svc->home.codex ? svc->home.codex->checksum : 0;
    meta->model = *model;
    meta->flags = (collision ? REPLAY_F_COLLISION : 0u) | replay_weather_flags(weather);
    meta->gen = &wp->gen;
}

bool game_replay_ready(GameCourses *crs, GameSession *ses, GameConfig *cfg, const GameServices *svc, SkyError *err) {
    if (!cfg->opt.replay && cfg->opt.use_settings) replay_store_open(&crs->store, cfg->opt.config_dir);
    if (cfg->opt.replay) {
        Replay *r = &crs->playback;
        if (!replay_check(r, svc->home.codex->checksum, NULL, cfg->opt.replay, err)) return false;
        ses->model = r->h.model;
        cfg->set.collision = (r->h.flags & REPLAY_F_COLLISION) != 0;
        cfg->set.weather = replay_flags_weather(r->h.flags);
        play_replay_restore(&ses->play, &ses->flight, &r->h.start);
        ses->rig.settled = false;
        replay_rewind(r);
        log_info("skyisles: replaying %s: %u steps (%.1f s), seed %llu", cfg->opt.replay, r->h.steps,
                 (double)r->h.steps / SIM_STEP_HZ, (unsigned long long)r->h.seed);
    }
    refresh_meta(&crs->meta, svc, &ses->model, cfg->set.collision, cfg->set.weather);
    if (cfg->opt.ghost) {
        if (!replay_load(&crs->ghost_run, cfg->opt.ghost, err) ||
            !replay_check(&crs->ghost_run, crs->meta.pack_checksum, crs->meta.gen, cfg->opt.ghost, err))
            return false;
        ghost_start(&crs->ghost, &crs->ghost_run);
    }
    return true;
}

uint64_t game_sim_hash(const GameSession *ses, const Replay *r, bool replaying) {
    bool counting = !replaying && (r->mode == REPLAY_RECORDING || r->mode == REPLAY_ENDED);
    return play_sim_hash(&ses->play, &ses->flight, counting ? r->crashes0 : 0, counting ? r->respawns0 : 0);
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

bool game_replay_restart(GameCourses *crs, const GameSession *ses, const GameOptions *o) {
    Replay *r = &crs->rec;
    if (r->mode != REPLAY_RECORDING) return false;
    replay_end(r, game_sim_hash(ses, r, o->replay != NULL), ses->play.crashes, 0);
    keep_ended(&crs->rec, &crs->store, o->record != NULL);
    return true;
}

void game_replay_settings_changing(GameCourses *crs, const GameSession *ses, const GameConfig *cfg, unsigned changes) {
    Replay *r = &crs->rec;
    if (!changes || r->mode != REPLAY_RECORDING) return;
    /* The sim flies with the world's generation values, the flight model, collision and the
     * weather setting: a change of any ends the recording at the last step flown with the old ones. */
    FlightModel m = ses->model;
    m.speed_limit = cfg->set.speed_limit;
    uint32_t flags = (cfg->set.collision ? REPLAY_F_COLLISION : 0u) | replay_weather_flags(cfg->set.weather);
    const uint32_t sim_bits = REPLAY_F_COLLISION | REPLAY_F_WEATHER_MASK;
    char text[REPLAY_PARAMS_MAX];
    uint32_t n = replay_params_text(&cfg->set.world.gen, text, sizeof text);
    bool same = !memcmp(&m, &r->h.model, sizeof m) && (r->h.flags & sim_bits) == flags &&
                n == r->h.params_len && !memcmp(text, r->h.params, n);
    if (same) return;
    replay_end(r, game_sim_hash(ses, r, cfg->opt.replay != NULL), ses->play.crashes, REPLAY_F_PARAMS_CHANGED);
    keep_ended(&crs->rec, &crs->store, cfg->opt.record != NULL);
}

void game_replay_settings_changed(GameCourses *crs, GameSession *ses, const GameServices *svc, const GameSettings *set) {
    refresh_meta(&crs->meta, svc, &ses->model, set->collision, set->weather);
    play_cut(&ses->play);   /* the aircraft may have been moved to open air */
}

void game_replay_frame(GameConfig *cfg, GameServices *svc, GameSession *ses, GameCourses *crs, const PlayRequest *rq) {
    if (rq->steps && crs->ghost.active) {
        PlayCtx c = game_play_ctx(cfg, svc, ses, crs);
        ghost_step(&crs->ghost, &c, rq->steps);
    }
    keep_ended(&crs->rec, &crs->store, cfg->opt.record != NULL);
}

/* A replay played to its end: the same state as recorded, or one line saying it drifted. */
static int replay_verdict(const GameCourses *crs, const GameSession *ses, const char *path) {
    const Replay *r = &crs->playback;
    uint64_t h = game_sim_hash(ses, &crs->rec, true);
    bool same = h == r->h.end_hash && ses->play.crashes == r->h.crashes;
    printf("replay %s: %u steps (%.1f s), %llu crashes, state hash 0x%016llx: %s\n", path, r->step,
           (double)r->step / SIM_STEP_HZ, (unsigned long long)ses->play.crashes, (unsigned long long)h,
           same ? "the same as recorded" : "DIFFERENT from the recording");
    fflush(stdout);
    if (same) return 0;
    fprintf(stderr, "skyisles: replay %s desynchronised: state hash 0x%016llx and %llu crashes, the recording ended at "
            "0x%016llx and %u: this build flies it differently; record the flight again with it\n", path,
            (unsigned long long)h, (unsigned long long)ses->play.crashes, (unsigned long long)r->h.end_hash, r->h.crashes);
    return GAME_EXIT_START_FAILED;
}

int game_replay_finish(GameCourses *crs, const GameSession *ses, const GameOptions *o) {
    if (o->replay) return ses->play.replay_done ? replay_verdict(crs, ses, o->replay) : 0;
    Replay *r = &crs->rec;
    if (r->mode == REPLAY_RECORDING) replay_end(r, game_sim_hash(ses, r, false), ses->play.crashes, 0);
    if (o->record && r->mode == REPLAY_ENDED) {
        SkyError err = {0};
        if (!replay_save(r, o->record, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return GAME_EXIT_START_FAILED;
        }
        log_info("skyisles: flight of %u steps (%.1f s, %u crashes, state hash 0x%016llx) recorded to %s", r->h.steps,
                 (double)r->h.steps / SIM_STEP_HZ, r->h.crashes, (unsigned long long)r->h.end_hash, o->record);
        return 0;
    }
    keep_ended(&crs->rec, &crs->store, o->record != NULL);
    return 0;
}

int game_replay_headless(GameConfig *cfg, GameServices *svc, GameSession *ses, GameCourses *crs) {
    /* Unpaced: the steps as fast as they run, no streaming (collision reads the density field
     * itself), no sound. */
    PlayCtx c = game_play_ctx(cfg, svc, ses, crs);
    double t0 = time_now_ms();
    while (!ses->play.replay_done && !platform_stop_signal()) play_step(&ses->play, &c);
    if (platform_stop_signal()) return 0;
    double ms = time_now_ms() - t0;
    log_info("skyisles: replayed %u steps in %.0f ms (%.0f steps/s)", crs->playback.step, ms,
             ms > 0.0 ? crs->playback.step * 1000.0 / ms : 0.0);
    return replay_verdict(crs, ses, cfg->opt.replay);
}

int game_keep_best(GameCourses *crs, const GameSession *ses, const GameOptions *o, const char *course_id, double time_s,
                   const float *splits, uint32_t n_splits) {
    if (crs->attract.playing || o->record_attract) return 0;   /* not the player's run */
    ReplayBest b = {.time_s = time_s, .splits = splits, .n_splits = n_splits,
                    .end_hash = game_sim_hash(ses, &crs->rec, o->replay != NULL),
                    .crashes = ses->play.crashes};
    SkyError err = {0};
    int k = replay_keep_best(&crs->store, course_id, &crs->rec, &b, &err);
    if (k < 0) log_warn("%s", err.msg);
    return k;
}

bool game_ghost_start(GameCourses *crs, const char *course_id) {
    SkyError err = {0};
    ghost_stop(&crs->ghost);
    if (!replay_load_best(&crs->store, course_id, &crs->ghost_run, crs->meta.pack_checksum, crs->meta.gen, &err)) {
        log_info("%s", err.msg);
        return false;
    }
    ghost_start(&crs->ghost, &crs->ghost_run);
    if (tour_active(&crs->tour) && !strcmp(crs->tour.course->id, course_id)) ghost_course(&crs->ghost, crs->tour.course);
    return true;
}
