/* skyisles courses laid ahead (courses.h, CourseCache): a thread with a world of its own lays
 * each mode's course for the game world's generation parameters while the player idles in the
 * pause menu or on the title; starting the mode then copies the laid course (tour_start_laid)
 * instead of laying it in the frame. Everything is carved once, after boot's other stages; a
 * budget too short for it leaves the cache off (courses are laid in the frame, as without it). */
#include <signal.h>
#include <string.h>

#include "game.h"

bool game_thread_start(pthread_t *t, void *(*fn)(void *), void *arg) {
    sigset_t block, old;   /* stop signals go to the main thread (its poll), not to this one */
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    bool ok = pthread_create(t, NULL, fn, arg) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return ok;
}

static bool stopped(void *user) {
    CourseCache *c = user;
    return atomic_load_explicit(&c->stop, memory_order_relaxed);
}

static void *cache_main(void *arg) {
    CourseCache *c = arg;
    pthread_mutex_lock(&c->lock);
    for (;;) {
        while (!c->quit && c->state != 1) pthread_cond_wait(&c->cv, &c->lock);
        if (c->quit) break;
        CourseCacheSlot *s = &c->slot[c->job];
        pthread_mutex_unlock(&c->lock);
        uint64_t t0 = time_now_ns();
        SkyError err = {0};
        CourseIsland at;   /* the island of the aircraft's cell, in the thread's own world */
        course_island_at(c->world, c->island, c->job_x, c->job_z, &at);
        bool ok = s->mode->lay(s->course, c->world, &at, c->codex, c->work, &err);
        pthread_mutex_lock(&c->lock);
        s->ok = ok;
        c->job_ms = (double)(time_now_ns() - t0) * 1e-6;
        c->state = 2;
    }
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

/* The thread's world: a minimal one on the game's home island and its archipelago (only its
 * density is asked: an island is baked on the thread when a layout first reads its cell, into the
 * one slot of point queries; the streamer's slot is never filled). */
static bool carve(CourseCache *c, MemBudget *mem, const World *world, const WorldIslandSource *src) {
    SkyError err = {0};
    if (!(c->world = world_create_density_only(mem, world, &err))) return false;
    if (src && !world_set_islands(c->world, mem, src, 1, &err)) return false;
    if (!mem_arena_init(&c->arena, mem, course_work_bytes() + 256) || !(c->work = course_work_init(&c->arena))) return false;
    for (size_t i = 0, k = 0; mode_at(i) && k < COURSE_CACHE_SLOTS; i++) {
        if (!mode_at(i)->lay) continue;
        c->slot[k].mode = mode_at(i);
        if (!(c->slot[k++].course = mem_carve(mem, sizeof(Course), 16))) return false;
    }
    return true;
}

void course_cache_boot(CourseCache *c, MemBudget *mem, const World *world, const Island *isl, const IslandCodex *cx,
                       const WorldIslandSource *src) {
    memset(c, 0, sizeof *c);
    size_t used = mem->used;
    size_t need = (8u << 20) + (src ? world_islands_bytes(src, 1, 1) : 0);
    if (mem_budget_free(mem) < need || !carve(c, mem, world, src)) {
        log_info("skyisles: courses are laid when started (the budget holds no room to lay them ahead)");
        c->world = NULL;
        return;
    }
    c->island = isl;
    c->codex = cx;
    c->want = -1;
    course_work_stop_when(c->work, stopped, c);
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->cv, NULL);
    c->started = game_thread_start(&c->thread, cache_main, c);
    if (!c->started) {
        pthread_cond_destroy(&c->cv);
        pthread_mutex_destroy(&c->lock);
    }
    log_debug("skyisles: courses laid ahead: %.2f MiB of the budget", (double)(mem->used - used) / 1048576.0);
}

/* The cell slot s is wanted for: the aircraft's for the tour (the island there), (0, 0) else. */
static void want_cell(const CourseCache *c, const CourseCacheSlot *s, const World *world, int64_t *cx, int64_t *cz) {
    bool island = s->mode && s->mode->course == COURSE_TOUR;
    *cx = island ? world_island_cell(world, c->at_x) : 0;
    *cz = island ? world_island_cell(world, c->at_z) : 0;
}

/* Slot s holds a course laid for the world now (its parameters) and the aircraft's cell. */
static bool slot_fits(const CourseCache *c, const CourseCacheSlot *s, const World *world, uint64_t params) {
    int64_t cx, cz;
    want_cell(c, s, world, &cx, &cz);
    return s->params == params && s->cell_x == cx && s->cell_z == cz;
}

/* Main thread, each frame: a finished layout taken; idle (the pause menu, the title), the first
 * slot not laid for the world now and the aircraft's cell is kicked, its world given the game's
 * generation values. */
void course_cache_tick(CourseCache *c, const World *world, double x, double z, bool idle) {
    if (!c->started) return;
    pthread_mutex_lock(&c->lock);
    c->at_x = x;
    c->at_z = z;
    if (c->state == 2) {
        c->laid++;
        log_debug("skyisles: course %s laid ahead in %.1f ms", c->slot[c->job].mode->name, c->job_ms);
        c->state = 0;
    }
    uint64_t params = course_params_hash(world_params(world));
    /* the slot a mode's start waits for first, idle or not; then the rest while idle */
    for (int i = -1; c->state == 0 && i < COURSE_CACHE_SLOTS; i++) {
        int k = i < 0 ? c->want : i;
        if (k < 0 || (i >= 0 && !idle)) continue;
        CourseCacheSlot *s = &c->slot[k];
        if (!s->mode || slot_fits(c, s, world, params)) continue;   /* laid (or tried) for this world and place */
        if (course_params_hash(world_params(c->world)) != params) world_set_gen_params(c->world, &world_params(world)->gen);
        s->params = params;
        want_cell(c, s, world, &s->cell_x, &s->cell_z);
        c->job_x = c->at_x;
        c->job_z = c->at_z;
        s->ok = false;
        c->job = k;
        c->state = 1;
        pthread_cond_broadcast(&c->cv);
    }
    pthread_mutex_unlock(&c->lock);
}

static int slot_of(const CourseCache *c, const GameMode *m) {
    for (int k = 0; m && k < COURSE_CACHE_SLOTS; k++)
        if (c->slot[k].mode == m) return k;
    return -1;
}

bool course_cache_ask(CourseCache *c, const GameMode *m) {
    if (!c->started) return false;
    int k = slot_of(c, m);
    pthread_mutex_lock(&c->lock);
    c->want = k;
    pthread_mutex_unlock(&c->lock);
    return k >= 0;
}

int course_cache_ready(CourseCache *c, const GameMode *m, const World *world) {
    int k = slot_of(c, m);
    if (!c->started || k < 0) return -1;
    uint64_t params = course_params_hash(world_params(world));
    pthread_mutex_lock(&c->lock);
    const CourseCacheSlot *s = &c->slot[k];
    int r = (c->state == 1 && c->job == k) || !slot_fits(c, s, world, params) ? 0 : (s->ok ? 1 : -1);
    if (r != 0 && c->want == k) c->want = -1;
    pthread_mutex_unlock(&c->lock);
    return r;
}

bool course_cache_take(CourseCache *c, const GameMode *m, const World *world, Course *out) {
    if (!c->started || !m) return false;
    uint64_t params = course_params_hash(world_params(world));
    bool hit = false;
    pthread_mutex_lock(&c->lock);
    for (int k = 0; k < COURSE_CACHE_SLOTS; k++) {
        CourseCacheSlot *s = &c->slot[k];
        if (s->mode != m || (c->state == 1 && c->job == k)) continue;
        hit = s->ok && slot_fits(c, s, world, params);
        if (hit) *out = *s->course;
    }
    pthread_mutex_unlock(&c->lock);
    if (hit) c->hits++;
    else c->misses++;
    return hit;
}

void course_cache_shutdown(CourseCache *c) {
    if (!c->started) return;
    atomic_store(&c->stop, true);
    pthread_mutex_lock(&c->lock);
    c->quit = true;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->lock);
    pthread_join(c->thread, NULL);
    pthread_cond_destroy(&c->cv);
    pthread_mutex_destroy(&c->lock);
    c->started = false;
}
