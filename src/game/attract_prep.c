/* skyisles attract mode: the replay's preparation on a thread of its own (see attract.h). Its
 * course is laid in a world of the thread's own and the replay flown once unseen there, so the
 * frame that begins the attract loop only takes the result. Everything is carved at boot (or at
 * the first attract_load of a run without an attract loop, the tests'). */
#include <signal.h>
#include <string.h>

#include "game.h"

/* The laying and the unseen flight ask this now and then: a world change or the game's shutdown
 * (a stop signal ends the main loop, whose shutdown sets it: the flag the signal handler writes
 * is the main thread's). */
static bool stopped(void *user) {
    AttractPrep *p = user;
    return atomic_load_explicit(&p->stop, memory_order_relaxed);
}

static void count_work(AttractPrep *p, uint32_t *what) {
    (*what)++;
    if (pthread_equal(pthread_self(), p->main_thread)) p->on_main++;
}

/* The replay's course laid in the thread's world: the same id as recorded (seed, parameters,
 * island). Laid again only when the world's generation parameters changed or another course is
 * asked (a->laid, a->laid_params and the course belong to the thread while it runs). */
static bool lay_course(Attract *a, SkyError *err) {
    AttractPrep *p = &a->prep;
    const char *id = a->run.h.course;
    if (a->laid && a->laid_params == p->params && !strcmp(a->course->id, id)) return true;
    a->laid = false;
    count_work(p, &p->lays);
    bool sky = !strncmp(id, "sky-", 4);
    CourseIsland home;   /* a recorded tour is the home island's */
    course_island_home(p->world, p->island, &home);
    bool ok = sky ? course_lay_sky(a->course, p->world, COURSE_SKY_DEFAULT, p->work, err)
                  : course_lay_tour(a->course, p->world, &home, p->codex, GAME_LANG, p->work, err);
    if (!ok) return false;
    if (strcmp(a->course->id, id)) {
        sky_error_set(err, SKY_ERR_INPUT, "%s flies course %s, this world lays %s", a->path, id, a->course->id);
        return false;
    }
    a->laid = true;
    a->laid_params = p->params;
    return true;
}

/* The replay flown once unseen, as a ghost flies it (the same steps and course restarts as the
 * game's): it must pass every ring and end at its recorded state, or it is not shown at all (a
 * build whose sim flies it differently without a new simulation version). In slices of 256
 * steps, each after a look at the stop. */
static bool fly_unseen(Attract *a, SkyError *err) {
    AttractPrep *p = &a->prep;
    Ghost *probe = &p->probe;
    count_work(p, &p->flights);
    ghost_start(probe, &a->run);
    ghost_course(probe, a->course);
    for (uint32_t left = a->run.h.steps + 1u; left > 0 && probe->active;) {
        if (stopped(p)) {
            sky_error_set(err, SKY_ERR_INPUT, "%s: its unseen flight was stopped", a->path);
            return false;
        }
        uint32_t n = left < 256u ? left : 256u;
        ghost_step(probe, &p->ctx, n);
        left -= n;
    }
    uint64_t h = play_sim_hash(&probe->play, &probe->flight, 0, 0);
    if (h != a->run.h.end_hash || !probe->run.finished) {
        sky_error_set(err, SKY_ERR_INPUT, "%s flies differently on this build: %u of %u rings, state hash 0x%016llx, "
                      "recorded 0x%016llx", a->path, probe->run.next, a->course->n_rings, (unsigned long long)h,
                      (unsigned long long)a->run.h.end_hash);
        return false;
    }
    return true;
}

static void *prep_main(void *arg) {
    Attract *a = arg;
    AttractPrep *p = &a->prep;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && (p->state != ATTRACT_PREP_RUNNING || p->hold)) pthread_cond_wait(&p->cv, &p->lock);
        if (p->quit) break;
        p->busy = true;
        pthread_mutex_unlock(&p->lock);
        uint64_t t0 = time_now_ns();
        SkyError err = {0};
        bool ok = lay_course(a, &err) && fly_unseen(a, &err);
        double ms = (double)(time_now_ns() - t0) * 1e-6;
        pthread_mutex_lock(&p->lock);
        p->ok = ok;
        p->given_up = !ok && stopped(p);
        p->err = err;
        p->ms = ms;
        p->runs++;
        p->state = ATTRACT_PREP_DONE;
        p->busy = false;
        pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* The thread's world: a minimal one on the game's home island (it is only asked for its density).
 * It holds no archipelago: the replay's course is the home island's (a sky course within 700 m of
 * it, or its tour), inside the origin's cell, where no other island's density reaches (an island
 * acts only within its own cell's core), so two island slots (5 MiB) would change no bit of it. */
static bool carve_world(AttractPrep *p, MemBudget *mem, const World *world) {
    SkyError err = {0};
    p->world = world_create_density_only(mem, world, &err);
    return p->world != NULL;
}

bool attract_prep_start(Attract *a, MemBudget *mem, const World *world) {
    AttractPrep *p = &a->prep;
    if (p->started) return true;
    size_t used = mem->used;
    if (!p->world && !carve_world(p, mem, world)) return false;
    if (!p->work && (!mem_arena_init(&p->arena, mem, course_work_bytes() + 256) ||
                     !(p->work = course_work_init(&p->arena))))
        return false;
    if (mem->used > used)
        log_debug("skyisles: attract mode: its preparation's world and work memory: %.2f MiB of the budget",
                  (double)(mem->used - used) / 1048576.0);
    course_work_stop_when(p->work, stopped, p);
    atomic_store(&p->stop, false);
    p->state = ATTRACT_PREP_IDLE;
    p->quit = p->hold = false;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->cv, NULL);
    /* Stop signals go to the main thread (its poll), not to this one. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    p->main_thread = pthread_self();
    p->started = pthread_create(&p->thread, NULL, prep_main, a) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!p->started) {   /* the loop then flies the autopilot, its line says why */
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->lock);
    }
    return true;
}

/* The job for the game's world now (main thread, the thread idle): its generation parameters
 * into the thread's world, copies of what the unseen flight reads. */
static void set_job(Attract *a, const GameServices *svc, const GameSettings *set, uint64_t params) {
    AttractPrep *p = &a->prep;
    const WorldParams *now = world_params(svc->world);
    if (course_params_hash(world_params(p->world)) != params) world_set_gen_params(p->world, &now->gen);
    p->params = params;
    p->set = *set;
    p->spawn = svc->spawn;
    memset(&p->in, 0, sizeof p->in);
    p->island = svc->home.island;
    p->codex = svc->home.codex;
    PlayCtx c = {.world = p->world, .model = &a->run.h.model, .spawn = &p->spawn, .in = &p->in, .set = &p->set};
    p->ctx = c;   /* the ghost puts in its own flight, rig, camera and replay */
    atomic_store(&p->stop, false);
}

bool attract_prep_kick(Attract *a, const GameServices *svc, const GameSettings *set, uint64_t params) {
    AttractPrep *p = &a->prep;
    if (!p->started) return false;
    pthread_mutex_lock(&p->lock);
    bool idle = p->state == ATTRACT_PREP_IDLE;
    if (idle) {
        a->prepared = false;   /* the course and verdict are the thread's until it is done */
        set_job(a, svc, set, params);
        p->state = ATTRACT_PREP_RUNNING;
        pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->lock);
    return idle;
}

bool attract_prep_take(Attract *a) {
    AttractPrep *p = &a->prep;
    if (!p->started) return false;
    pthread_mutex_lock(&p->lock);
    bool done = p->state == ATTRACT_PREP_DONE;
    if (done && !p->given_up) {   /* given up: no verdict (the next kick prepares again) */
        a->prepared = true;
        a->prepared_params = p->params;
        a->verified = p->ok;
        a->prep_why = p->err;
    }
    if (done) p->state = ATTRACT_PREP_IDLE;
    pthread_mutex_unlock(&p->lock);
    return done;
}

void attract_prep_wait(Attract *a) {
    AttractPrep *p = &a->prep;
    if (!p->started) return;
    pthread_mutex_lock(&p->lock);
    while (p->state == ATTRACT_PREP_RUNNING) pthread_cond_wait(&p->cv, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

void attract_prep_hold(Attract *a, bool hold) {
    AttractPrep *p = &a->prep;
    if (!p->started) return;
    pthread_mutex_lock(&p->lock);
    p->hold = hold;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->lock);
}

bool attract_prep_running(Attract *a) {
    AttractPrep *p = &a->prep;
    if (!p->started) return false;
    pthread_mutex_lock(&p->lock);
    bool running = p->state == ATTRACT_PREP_RUNNING;
    pthread_mutex_unlock(&p->lock);
    return running;
}

void attract_prep_stop(Attract *a) {
    AttractPrep *p = &a->prep;
    if (!p->started) return;
    atomic_store(&p->stop, true);
    pthread_mutex_lock(&p->lock);
    bool running = p->state == ATTRACT_PREP_RUNNING;
    p->quit = true;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->lock);
    uint64_t t0 = time_now_ns();
    pthread_join(p->thread, NULL);
    if (running)
        log_debug("skyisles: attract mode: its running preparation given up and its thread joined in %.1f ms",
                  (double)(time_now_ns() - t0) * 1e-6);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->lock);
    p->started = false;
}
