/* skyisles attract mode (see attract.h): the bundled replay of a sky course played in the
 * game's own place (its flight, its course, its HUD), the player's state kept aside and put
 * back; the recording of that replay (--record-attract). Everything is carved at boot. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "game.h"

/* The file's bytes and its course, from the budget (once). */
static bool carve(Game *g, size_t bytes) {
    Attract *a = &g->attract;
    if (a->course) return true;   /* both carved (a first call that got the bytes only carves again) */
    a->run.runs = mem_carve(&g->mem, bytes, 16);
    a->run.cap = a->run.runs ? bytes : 0;
    a->course = a->run.runs ? mem_carve(&g->mem, sizeof *a->course, 64) : NULL;
    return a->course != NULL;
}

bool attract_boot(Game *g, SkyError *err) {
    Attract *a = &g->attract;
    memset(a, 0, sizeof *a);
    if (g->opt.headless || g->opt.screenshot || g->opt.bench_frames) return true;   /* no attract loop there */
    if (!game_data_file(ATTRACT_REPLAY_FILE, a->path, sizeof a->path)) return true;   /* said at the first attract */
    /* Only what the file needs (some 40 KiB) and its course (230 KiB); a file larger than any
     * replay is refused by the loader. */
    struct stat st;
    size_t bytes = stat(a->path, &st) == 0 && st.st_size > 0 && (uint64_t)st.st_size < REPLAY_FILE_MAX
                       ? (size_t)st.st_size : REPLAY_FILE_MAX;
    if (!carve(g, bytes)) {
        sky_error_set(err, SKY_ERR_INPUT, "skyisles: the memory budget of %zu MiB is too small for the attract mode's "
                      "replay: raise --mem MB or SKYISLES_MEM_MB (default %u)", g->mem.size >> 20, MEM_DEFAULT_BUDGET_MIB);
        return false;
    }
    attract_load(g, a->path, NULL);   /* a damaged file: said at the first attract */
    return true;
}

bool attract_load(Game *g, const char *path, SkyError *err) {
    Attract *a = &g->attract;
    if (!carve(g, REPLAY_FILE_MAX)) {   /* a run without an attract loop (tests): its storage now */
        sky_error_set(err, SKY_ERR_INPUT, "skyisles: the memory budget is too small for the attract mode's replay");
        return false;
    }
    a->loaded = a->verified = false;
    a->why[0] = 0;
    if (path != a->path) snprintf(a->path, sizeof a->path, "%s", path);
    memset(&a->load_err, 0, sizeof a->load_err);
    a->loaded = replay_load(&a->run, a->path, &a->load_err);
    if (!a->loaded && err) *err = a->load_err;
    return a->loaded;
}

bool attract_playing(const Game *g) { return g->attract.playing; }

/* The replay's course laid in this world: the same id as recorded (seed, parameters, island).
 * Laid again only when the world's generation parameters changed or another course is asked. */
static bool lay_course(Game *g, SkyError *err) {
    Attract *a = &g->attract;
    const char *id = a->run.h.course;
    uint64_t params = course_params_hash(world_params(g->world));
    if (a->laid && a->laid_params == params && !strcmp(a->course->id, id)) return true;
    a->laid = false;
    bool sky = !strncmp(id, "sky-", 4);
    bool ok = sky ? course_lay_sky(a->course, g->world, COURSE_SKY_DEFAULT, g->tour.work, err)
                  : course_lay_tour(a->course, g->world, g->home.island, g->home.codex, GAME_LANG, g->tour.work, err);
    if (!ok) return false;
    if (strcmp(a->course->id, id)) {
        sky_error_set(err, SKY_ERR_INPUT, "%s flies course %s, this world lays %s", a->path, id, a->course->id);
        return false;
    }
    a->laid = true;
    a->laid_params = params;
    return true;
}

/* The replay flown once unseen, as a ghost flies it (the same steps and course restarts as the
 * game's): it must pass every ring and end at its recorded state, or it is not shown at all (a
 * build whose sim flies it differently without a new simulation version). Once per world. */
static bool fly_unseen(Game *g, SkyError *err) {
    Attract *a = &g->attract;
    static Ghost probe;
    ghost_start(&probe, &a->run);
    ghost_course(&probe, a->course);
    PlayCtx like = game_play_ctx(g);
    ghost_step(&probe, &like, a->run.h.steps + 1u);
    uint64_t h = play_sim_hash(&probe.play, &probe.flight, 0, 0);
    if (h != a->run.h.end_hash || !probe.run.finished) {
        sky_error_set(err, SKY_ERR_INPUT, "%s flies differently on this build: %u of %u rings, state hash 0x%016llx, "
                      "recorded 0x%016llx", a->path, probe.run.next, a->course->n_rings, (unsigned long long)h,
                      (unsigned long long)a->run.h.end_hash);
        return false;
    }
    return true;
}

bool attract_check(Game *g, SkyError *err) {
    Attract *a = &g->attract;
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
    if (!replay_check(r, g->home.codex->checksum, &world_params(g->world)->gen, a->path, err)) return false;
    if (!r->h.course[0] || r->h.steps == 0) {
        sky_error_set(err, SKY_ERR_INPUT, "%s is not a course's run", a->path);
        return false;
    }
    if (a->verified && a->laid && a->laid_params == course_params_hash(world_params(g->world))) return true;
    a->verified = lay_course(g, err) && fly_unseen(g, err);
    return a->verified;
}

/* The course's rings to the renderer, the next one marked. */
static void show_rings(Game *g) {
    if (!g->render) return;
    static RenderRing rings[RENDER_RINGS_MAX];
    render_rings_set(g->render, rings, tour_render_rings(&g->tour, rings, RENDER_RINGS_MAX));
    render_rings_next(g->render, g->tour.run.next, 1.0f);
}

/* The replay from its first step: the recorded start state, the course from its start. */
static void restart(Game *g) {
    Attract *a = &g->attract;
    replay_rewind(&a->run);
    play_replay_restore(&g->play, &g->flight, &a->run.h.start);
    g->play.replay_done = false;
    g->play.step_acc = 0.0;
    g->course_respawns = g->play.respawns;
    tour_attract_restart(&g->tour);
    g->rig.settled = false;
}

/* The loop has begun (play set demo): the player's state aside, the replay's in its place. */
static void begin(Game *g) {
    Attract *a = &g->attract;
    a->flight = g->flight;
    a->play = g->play;
    a->ghost = g->ghost;
    a->course_respawns = g->course_respawns;
    ghost_stop(&g->ghost);   /* the attract flies without a ghost */
    tour_attract_begin(&g->tour, a->course, &a->tour);
    a->playing = true;
    restart(g);
    show_rings(g);
    log_info("skyisles: attract mode: %s (course %s, %.1f s)", a->path, a->run.h.course,
             (double)a->run.h.steps / SIM_STEP_HZ);
}

/* Any input ended the loop: the player's flight, play, course and ghost as they were. */
static void end(Game *g) {
    Attract *a = &g->attract;
    Play now = g->play;
    g->play = a->play;
    /* What went on meanwhile stays: the quit asked for, the frame counts, messages, stalls. */
    g->play.quit = now.quit;
    g->play.power = now.power;
    g->play.frames = now.frames;
    g->play.fps = now.fps;
    g->play.fps_frames = now.fps_frames;
    g->play.fps_t0 = now.fps_t0;
    g->play.stalls = now.stalls;
    g->play.steps = now.steps;
    memcpy(g->play.msg, now.msg, sizeof now.msg);
    memcpy(g->play.pad_notice, now.pad_notice, sizeof now.pad_notice);
    g->play.demo = false;
    g->play.idle_s = 0.0f;
    if (g->opt.demo) g->play.state = PLAY_START;   /* --demo hands back the title (as play does) */
    g->flight = a->flight;
    g->ghost = a->ghost;
    g->course_respawns = a->course_respawns;
    tour_attract_end(&g->tour, &a->tour);
    a->playing = false;
    show_rings(g);
    g->rig.settled = false;
}

/* The longest frame of the loop's first ATTRACT_WATCH_FRAMES (the gap between two calls of
 * attract_before_frame: the frame that begins the loop counts), said once at debug level. */
static void watch_frames(Attract *a, bool begins) {
    double now = time_now_ms();
    if (begins) {
        a->watch_frames = 1;
        a->watch_max_ms = 0.0;
    } else if (a->watch_frames && a->watch_frames <= ATTRACT_WATCH_FRAMES) {
        double gap = now - a->watch_last_ms;
        if (gap > a->watch_max_ms) a->watch_max_ms = gap;
        if (++a->watch_frames > ATTRACT_WATCH_FRAMES)
            log_debug("skyisles: attract mode: the longest of its first %u frames took %.1f ms", ATTRACT_WATCH_FRAMES,
                      a->watch_max_ms);
    }
    a->watch_last_ms = now;
}

void attract_before_frame(Game *g) {
    Attract *a = &g->attract;
    watch_frames(a, g->play.demo && !a->session);
    if (!g->play.demo || a->session) return;
    a->session = true;
    SkyError err = {0};
    if (attract_check(g, &err)) {
        begin(g);
        return;
    }
    /* Once per reason: a player who keeps leaving the game idle is not told every 30 s. */
    if (strcmp(a->why, err.msg)) {
        snprintf(a->why, sizeof a->why, "%s", err.msg);
        log_warn("skyisles: the attract mode's replay does not play (%s): the autopilot flies instead; `make "
                 "attract-replay` records it again", err.msg);
    }
}

void attract_after_frame(Game *g) {
    Attract *a = &g->attract;
    if (!g->play.demo) {
        if (a->playing) end(g);
        a->session = false;
        return;
    }
    if (a->playing && g->play.replay_done) {
        a->loops++;
        restart(g);
        show_rings(g);
    }
}

int game_attract_record(Game *g) {
    const char *path = g->opt.record_attract;
    Tour *t = &g->tour;
    SkyError err = {0};
    if (!tour_start(t, TOUR_SKY, g->world, g->home.island, g->home.codex, &g->flight, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return GAME_EXIT_BAD_INPUT;
    }
    /* As a course starts in the game: flying, the recording from the course's first step. */
    g->play.state = PLAY_FLY;
    g->course_respawns = g->play.respawns;
    game_replay_restart(g);
    PlayCtx c = game_play_ctx(g);
    c.on_step = game_course_step;
    c.step_user = g;
    const uint32_t limit = 900u * SIM_STEP_HZ;
    for (uint32_t i = 0; i < limit && !t->results && !platform_stop_signal(); i++) play_step(&g->play, &c);
    if (platform_stop_signal()) return 0;
    if (!t->results) {
        fprintf(stderr, "skyisles: --record-attract: the course pilot did not finish %s in %u s: nothing written\n",
                t->course->id, limit / SIM_STEP_HZ);
        return GAME_EXIT_START_FAILED;
    }
    Replay *r = &g->rec;
    static float splits[COURSE_MAX_RINGS];
    for (uint32_t k = 0; k < t->course->n_rings; k++) splits[k] = (float)t->run.split_s[k];
    ReplayBest b = {.time_s = t->run.clock_s, .splits = splits, .n_splits = t->course->n_rings,
                    .end_hash = game_sim_hash(g), .crashes = g->play.crashes};
    replay_end(r, b.end_hash, g->play.crashes, 0);
    replay_stamp_course(r, t->course->id, &b);
    if (!replay_save(r, path, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return GAME_EXIT_START_FAILED;
    }
    printf("recorded %s: course %s, %u rings in %.2f s, %u crashes, %u steps, state hash 0x%016llx\n", path,
           t->course->id, t->course->n_rings, t->run.clock_s, r->h.crashes, r->h.steps,
           (unsigned long long)r->h.end_hash);
    return 0;
}
