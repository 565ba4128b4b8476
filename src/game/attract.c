/* skyisles attract mode (see attract.h): the bundled replay of a sky course played in the
 * game's own place (its flight, its course, its HUD), the player's state kept aside and put
 * back; the recording of that replay (--record-attract). Everything is carved at boot. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "game.h"

/* The file's bytes and its course, from the budget (once). */
static bool carve(Attract *a, MemBudget *mem, size_t bytes) {
    if (a->course) return true;   /* both carved (a first call that got the bytes only carves again) */
    a->run.runs = mem_carve(mem, bytes, 16);
    a->run.cap = a->run.runs ? bytes : 0;
    a->course = a->run.runs ? mem_carve(mem, sizeof *a->course, 64) : NULL;
    return a->course != NULL;
}

bool attract_boot(Attract *a, const GameOptions *o, MemBudget *mem, const World *world, SkyError *err) {
    memset(a, 0, sizeof *a);
    if (o->headless || o->screenshot || o->bench_frames) return true;   /* no attract loop there */
    if (!game_data_file(ATTRACT_REPLAY_FILE, a->path, sizeof a->path)) return true;   /* said at the first attract */
    /* Only what the file needs (some 40 KiB) and its course (230 KiB); a file larger than any
     * replay is refused by the loader. */
    struct stat st;
    size_t bytes = stat(a->path, &st) == 0 && st.st_size > 0 && (uint64_t)st.st_size < REPLAY_FILE_MAX
                       ? (size_t)st.st_size : REPLAY_FILE_MAX;
    if (!carve(a, mem, bytes) || !attract_prep_start(a, mem, world)) {
        sky_error_set(err, SKY_ERR_INPUT, "skyisles: the memory budget of %zu MiB is too small for the attract mode's "
                      "replay: raise --mem MB or SKYISLES_MEM_MB (default %u)", mem->size >> 20, MEM_DEFAULT_BUDGET_MIB);
        return false;
    }
    attract_load(a, mem, world, a->path, NULL);   /* a damaged file: said at the first attract */
    return true;
}

bool attract_load(Attract *a, MemBudget *mem, const World *world, const char *path, SkyError *err) {
    /* A run without an attract loop (tests): its storage and thread now. */
    if (!carve(a, mem, REPLAY_FILE_MAX) || !attract_prep_start(a, mem, world)) {
        sky_error_set(err, SKY_ERR_INPUT, "skyisles: the memory budget is too small for the attract mode's replay");
        return false;
    }
    attract_prep_wait(a);   /* the file and its course are the thread's while it runs */
    attract_prep_take(a);
    a->loaded = a->verified = a->prepared = false;   /* a course laid stays (its id and world are checked) */
    a->why[0] = 0;
    if (path != a->path) snprintf(a->path, sizeof a->path, "%s", path);
    memset(&a->load_err, 0, sizeof a->load_err);
    a->loaded = replay_load(&a->run, a->path, &a->load_err);
    if (!a->loaded && err) *err = a->load_err;
    return a->loaded;
}

bool attract_playing(const Attract *a) { return a->playing; }

bool attract_holds_player(const Attract *a) { return a->kept && !a->playing; }

/* What can be told at once (the main thread, the header only): the file found, read and fitting
 * this build and world, a course's run. */
static bool fits(const Attract *a, const GameServices *svc, SkyError *err) {
    if (!a->path[0]) {
        sky_error_set(err, SKY_ERR_INPUT, "%s was not found beside the game, in its share folder or in SKYISLES_DATA_DIR",
                      ATTRACT_REPLAY_FILE);
        return false;
    }
    if (!a->loaded) {
        *err = a->load_err;
        return false;
    }
    const Replay *r = &a->run;
    if (!replay_check(r, svc->home.codex->checksum, &world_params(svc->world)->gen, a->path, err)) return false;
    if (!r->h.course[0] || r->h.steps == 0) {
        sky_error_set(err, SKY_ERR_INPUT, "%s is not a course's run", a->path);
        return false;
    }
    return true;
}

/* True when a preparation finished for this file in this world (its verdict in a->verified);
 * else one is kicked when none runs (the frame noted). */
static bool prepared_or_kick(Attract *a, const GameServices *svc, const GameSettings *set, uint64_t frame) {
    uint64_t params = course_params_hash(world_params(svc->world));
    if (a->prepared && a->prepared_params == params) return true;
    if (attract_prep_kick(a, svc, set, params)) a->kick_frame = frame;
    return false;
}

/* 1: the replay plays; 0: it does not (why in err); -1: being prepared (kicked when none runs). */
static int ready(Attract *a, const GameServices *svc, const GameSettings *set, uint64_t frame, SkyError *err) {
    if (!fits(a, svc, err)) return 0;
    if (prepared_or_kick(a, svc, set, frame)) {
        if (a->verified) return 1;
        *err = a->prep_why;
        return 0;
    }
    if (!a->prep.started) {
        sky_error_set(err, SKY_ERR_INPUT, "%s: its preparation's thread is not running", a->path);
        return 0;
    }
    return -1;
}

bool attract_check(Attract *a, const GameServices *svc, const GameSettings *set, uint64_t frame, SkyError *err) {
    int r = ready(a, svc, set, frame, err);
    while (r < 0) {
        attract_prep_wait(a);
        attract_prep_take(a);
        r = ready(a, svc, set, frame, err);
    }
    return r == 1;
}

void attract_world_changed(Attract *a) {
    if (attract_prep_running(a)) atomic_store(&a->prep.stop, true);   /* its result is of the old world */
}

void attract_shutdown(Attract *a) { attract_prep_stop(a); }

/* The course's rings to the renderer, the next one marked. */
static void show_rings(Renderer *r, const Tour *t) {
    if (!r) return;
    static RenderRing rings[RENDER_RINGS_MAX];
    render_rings_set(r, rings, tour_render_rings(t, rings, RENDER_RINGS_MAX));
    render_rings_next(r, t->run.next, 1.0f);
}

/* The replay from its first step: the recorded start state, the course from its start. */
static void restart(GameCourses *crs, GameSession *ses) {
    Attract *a = &crs->attract;
    replay_rewind(&a->run);
    play_replay_again(&ses->play, &ses->flight, &a->run.h.start);
    crs->course_respawns = ses->play.respawns;
    tour_attract_restart(&crs->tour);
    ses->rig.settled = false;
}

/* The loop has begun (play set demo): the player's state aside, put back at its end whatever
 * flew meanwhile (the replay, or the autopilot while it is prepared or where it does not fit). */
static void keep_player(GameCourses *crs, const GameSession *ses) {
    Attract *a = &crs->attract;
    a->flight = ses->flight;
    play_keep(&ses->play, &a->play);
    a->ghost = crs->ghost;
    a->course_respawns = crs->course_respawns;
    a->kept = true;
}

/* The replay prepared: its state in the player's place (kept at the loop's start). */
static void begin(GameCourses *crs, GameSession *ses, Renderer *render) {
    Attract *a = &crs->attract;
    ghost_stop(&crs->ghost);   /* the attract flies without a ghost */
    tour_attract_begin(&crs->tour, a->course, &a->tour);
    a->playing = true;
    restart(crs, ses);
    show_rings(render, &crs->tour);
    log_info("skyisles: attract mode: %s (course %s, %.1f s)", a->path, a->run.h.course,
             (double)a->run.h.steps / SIM_STEP_HZ);
}

/* The player's state kept at the loop's start, back (what went on meanwhile stays). */
static void put_back_player(GameCourses *crs, GameSession *ses, bool demo) {
    Attract *a = &crs->attract;
    play_put_back(&ses->play, &a->play, demo);   /* --demo hands back the title */
    ses->flight = a->flight;
    crs->ghost = a->ghost;
    crs->course_respawns = a->course_respawns;
    a->kept = false;
    ses->rig.settled = false;
}

/* Any input ended the loop: the player's flight, play, course and ghost as they were. */
static void end(GameCourses *crs, GameSession *ses, Renderer *render, bool demo) {
    put_back_player(crs, ses, demo);
    Attract *a = &crs->attract;
    if (a->playing) tour_attract_end(&crs->tour, &a->tour);
    a->playing = false;
    show_rings(render, &crs->tour);
}

/* The longest frame of the loop's first ATTRACT_WATCH_FRAMES (the gap between two calls of
 * attract_before_frame: the frame that begins the loop counts), said once at debug level. */
static void watch_frames(Attract *a, bool begins) {
    double now = time_now_ms();
    if (begins) {
        a->watch_frames = 1;
        a->watch_max_ms = a->watch_own_ms = 0.0;
    } else if (a->watch_frames && a->watch_frames <= ATTRACT_WATCH_FRAMES) {
        double gap = now - a->watch_last_ms;
        if (gap > a->watch_max_ms) a->watch_max_ms = gap;
        if (++a->watch_frames > ATTRACT_WATCH_FRAMES)
            log_debug("skyisles: attract mode: the longest of its first %u frames took %.1f ms (%.2f ms of it the "
                      "attract's own at most)", ATTRACT_WATCH_FRAMES, a->watch_max_ms, a->watch_own_ms);
    }
    a->watch_last_ms = now;
}

/* Idle on the title or in the pause menu long enough that the loop may come: prepare now. */
static bool idle_soon(const Play *p) {
    return p->idle_s > ATTRACT_PREP_IDLE_SECONDS && (p->state == PLAY_START || p->overlay == OVERLAY_MENU);
}

/* Once per reason: a player who keeps leaving the game idle is not told every 30 s. */
static void say_why(Attract *a, const char *why) {
    if (!strcmp(a->why, why)) return;
    snprintf(a->why, sizeof a->why, "%s", why);
    log_warn("skyisles: the attract mode's replay does not play (%s): the autopilot flies instead; it plays in "
             "the world it was recorded in (the default seed and world values: `--seed %u`; a build whose "
             "world changed records it again with `make attract-replay`)", why, GAME_DEFAULT_SEED);
}

static void before_frame(GameCourses *crs, GameSession *ses, const GameServices *svc, const GameSettings *set) {
    Attract *a = &crs->attract;
    bool begins = ses->play.demo && !a->session;
    if (attract_prep_take(a)) {
        a->ready_frame = ses->play.frames;
        log_debug("skyisles: attract mode: its replay's preparation took %.1f ms on its own thread (%s)", a->prep.ms,
                  a->prep.given_up ? "given up" : a->verified ? "it plays" : a->prep_why.msg);
    }
    if (begins) {
        a->session = true;
        a->waiting = a->decided = false;
        keep_player(crs, ses);
    }
    if (a->playing || (ses->play.demo && a->decided)) return;
    SkyError err = {0};
    if (!ses->play.demo) {
        if (idle_soon(&ses->play) && fits(a, svc, &err)) prepared_or_kick(a, svc, set, ses->play.frames);
        return;
    }
    int r = ready(a, svc, set, ses->play.frames, &err);
    if (r < 0) {   /* the autopilot flies meanwhile, as when the file does not fit */
        a->waiting = true;
        return;
    }
    a->waiting = false;
    if (r > 0) {
        a->begin_frame = ses->play.frames;
        begin(crs, ses, svc->render);
        return;
    }
    a->decided = true;
    say_why(a, err.msg);
}

void attract_before_frame(GameCourses *crs, GameSession *ses, const GameServices *svc, const GameSettings *set) {
    Attract *a = &crs->attract;
    bool begins = ses->play.demo && !a->session;
    if (!begins && !(a->watch_frames && a->watch_frames <= ATTRACT_WATCH_FRAMES)) {   /* not watching: no clock */
        before_frame(crs, ses, svc, set);
        return;
    }
    watch_frames(a, begins);
    double t0 = time_now_ms();
    before_frame(crs, ses, svc, set);
    double own = time_now_ms() - t0;
    if (a->watch_frames && a->watch_frames <= ATTRACT_WATCH_FRAMES && own > a->watch_own_ms) a->watch_own_ms = own;
}

void attract_after_frame(GameCourses *crs, GameSession *ses, Renderer *render, bool demo) {
    Attract *a = &crs->attract;
    if (!ses->play.demo) {
        if (a->kept) end(crs, ses, render, demo);
        a->session = false;
        return;
    }
    if (a->playing && ses->play.replay_done) {
        a->loops++;
        restart(crs, ses);
        show_rings(render, &crs->tour);
    }
}

/* --record-attract: the course laid in this world and flown from its first step, as a course
 * starts in the game. */
static bool record_start(Tour *t, const GameServices *svc, GameSession *ses, uint64_t *course_respawns) {
    SkyError err = {0};
    CourseIsland home;
    course_island_home(svc->world, svc->home.island, &home);
    if (!tour_start(t, mode_attract(), svc->world, &home, svc->home.codex, &ses->flight, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return false;
    }
    play_enter_flight(&ses->play);
    *course_respawns = ses->play.respawns;
    return true;
}

/* --record-attract: the finished course's recording, stamped with its id and ring times, to path.
 * The exit status. */
static int record_save(const char *path, const Tour *t, Replay *r, uint64_t end_hash, uint64_t crashes, uint32_t limit) {
    if (!t->results) {
        fprintf(stderr, "skyisles: --record-attract: the course pilot did not finish %s in %u s: nothing written\n",
                t->course->id, limit / SIM_STEP_HZ);
        return GAME_EXIT_START_FAILED;
    }
    static float splits[COURSE_MAX_RINGS];
    for (uint32_t k = 0; k < t->course->n_rings; k++) splits[k] = (float)t->run.split_s[k];
    ReplayBest b = {.time_s = t->run.clock_s, .splits = splits, .n_splits = t->course->n_rings,
                    .end_hash = end_hash, .crashes = crashes};
    replay_end(r, b.end_hash, crashes, 0);
    replay_stamp_course(r, t->course->id, &b);
    SkyError err = {0};
    if (!replay_save(r, path, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return GAME_EXIT_START_FAILED;
    }
    printf("recorded %s: course %s, %u rings in %.2f s, %u crashes, %u steps, state hash 0x%016llx\n", path,
           t->course->id, t->course->n_rings, t->run.clock_s, r->h.crashes, r->h.steps,
           (unsigned long long)r->h.end_hash);
    return 0;
}

/* The game's own play context, course step and recorder fly and record it, as a frame of play does. */
int game_attract_record(GameConfig *cfg, GameServices *svc, GameSession *ses, GameCourses *crs) {
    const Tour *t = &crs->tour;
    if (!record_start(&crs->tour, svc, ses, &crs->course_respawns)) return GAME_EXIT_BAD_INPUT;
    game_replay_restart(crs, ses, &cfg->opt);
    PlayCtx c = game_play_ctx(cfg, svc, ses, crs);
    GameCourseStep step = {crs, ses, &svc->sound, &cfg->opt};
    c.on_step = game_course_step;
    c.step_user = &step;
    const uint32_t limit = 900u * SIM_STEP_HZ;
    for (uint32_t i = 0; i < limit && !t->results && !platform_stop_signal(); i++) play_step(&ses->play, &c);
    if (platform_stop_signal()) return 0;
    return record_save(cfg->opt.record_attract, t, &crs->rec, game_sim_hash(ses, &crs->rec, cfg->opt.replay != NULL),
                       ses->play.crashes, limit);
}
