/* skyisles bench `courses`: the island tour and a sky course for each of N seeds (default 100):
 * laid, verified (every ring clear, every leg open air), flown by the course pilot; prints one
 * JSON line per seed and the totals: rings of each kind, courses the pilot completed, times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course/course.h"

static CourseHome g_home;
static Course g_course;

typedef struct Tally { uint32_t laid, verified, completed, crashes, rings; uint32_t kinds[RING_KIND_COUNT]; double lay_ms, fly_s; } Tally;

static void one(Tally *t, uint64_t seed, bool tour) {
    SkyError err = {0};
    double t0 = time_now_ms();
    bool laid = tour ? course_lay_tour(&g_course, g_home.world, &g_home.at, &g_home.codex, "en", g_home.work, &err)
                     : course_lay_sky(&g_course, g_home.world, COURSE_SKY_DEFAULT, g_home.work, &err);
    double ms = time_now_ms() - t0;
    if (!laid) {
        printf("{\"bench\": \"courses\", \"seed\": %llu, \"course\": \"%s\", \"error\": \"%s\"}\n", (unsigned long long)seed,
               tour ? "tour" : "sky", err.msg);
        return;
    }
    bool ok = course_verify(&g_course, g_home.world, &err);
    if (!ok) fprintf(stderr, "bench courses: seed %llu: %s\n", (unsigned long long)seed, err.msg);
    CourseRun run;
    FlightModel m;
    flight_model_default(&m);
    bool done = course_pilot_fly(&g_course, g_home.world, &m, 900.0, &run);
    char kinds[160];
    course_kinds_text(&g_course, kinds, sizeof kinds);
    printf("{\"bench\": \"courses\", \"seed\": %llu, \"course\": \"%s\", \"id\": \"%s\", \"rings\": %u, \"kinds\": \"%s\", "
           "\"lay_ms\": %.1f, \"verified\": %s, \"completed\": %s, \"time_s\": %.1f, \"crashes\": %u}\n",
           (unsigned long long)seed, tour ? "tour" : "sky", g_course.id, g_course.n_rings, kinds, ms, ok ? "true" : "false",
           done ? "true" : "false", run.clock_s, run.crashes);
    t->laid++;
    t->verified += ok;
    t->completed += done;
    t->crashes += run.crashes;
    t->rings += g_course.n_rings;
    for (int k = 0; k < RING_KIND_COUNT; k++) t->kinds[k] += g_course.kind_count[k];
    t->lay_ms += ms;
    t->fly_s += done ? run.clock_s : 0.0;
}

static void total(const char *what, const Tally *t, uint32_t seeds) {
    printf("{\"bench\": \"courses\", \"total\": \"%s\", \"seeds\": %u, \"laid\": %u, \"verified\": %u, \"completed\": %u, "
           "\"rings\": %u, \"open\": %u, \"overhang\": %u, \"gap\": %u, \"cloud\": %u, \"tunnel\": %u, \"crashes\": %u, "
           "\"lay_ms_mean\": %.1f, \"time_s_mean\": %.1f}\n",
           what, seeds, t->laid, t->verified, t->completed, t->rings, t->kinds[RING_OPEN], t->kinds[RING_OVERHANG],
           t->kinds[RING_GAP], t->kinds[RING_CLOUD], t->kinds[RING_TUNNEL], t->crashes, t->laid ? t->lay_ms / t->laid : 0.0,
           t->completed ? t->fly_s / t->completed : 0.0);
}

int bench_courses(int argc, char **argv) {
    uint32_t seeds = 100;
    uint64_t first = 1;
    bool tours = true;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seeds") && i + 1 < argc) seeds = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--first") && i + 1 < argc) first = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--sky-only")) tours = false;
        else {
            fprintf(stderr, "bench courses: unknown option '%s' (options: --seeds N, --first SEED, --sky-only)\n",
                    argv[i]);
            return 2;
        }
    }
    SkyError err = {0};
    if (!course_home_open(&g_home, first, &err)) {
        fprintf(stderr, "bench courses: %s\n", err.msg);
        return 1;
    }
    Tally tour = {0}, sky = {0};
    for (uint32_t s = 0; s < seeds; s++) {
        uint64_t seed = first + s;
        if (!course_home_seed(&g_home, seed, &err)) {
            fprintf(stderr, "bench courses: seed %llu: %s\n", (unsigned long long)seed, err.msg);
            continue;
        }
        if (tours) one(&tour, seed, true);
        one(&sky, seed, false);
        fflush(stdout);
    }
    if (tours) total("tour", &tour, seeds);
    total("sky", &sky, seeds);
    course_home_close(&g_home);
    return 0;
}
