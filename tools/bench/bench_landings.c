/* skyisles bench `landings`: for each of N seeds (default 100) the base camp's airstrip (or, on an
 * island without one, the flat run a start on the ground finds near the camp), an autoland onto it
 * (sim_autoland_input from 400 m out on the glide path: the touchdown's sink and rating, where it
 * stopped) and a takeoff from its start (where the wheels left); one JSON line per seed and the
 * totals. Flown as the game flies: flight_step, then sim_meet_world. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course/course.h"

/* The approach begins this far out along the centreline: the first of these whose glide path is
 * open air (raw terrain near a camp: a hill may stand in the way of the longer ones). */
static const double k_approach_m[] = {400.0, 250.0, 150.0, 80.0};

static CourseHome g_home;

typedef struct Landing {
    bool touched, stopped, crashed;
    const char *why;
    float sink;
    SimTouchRating rating;
    double stop_m;   /* past the touchdown point */
} Landing;

/* The glide path from `from` metres out to the touchdown point is open air (2 m around it). */
static bool path_open(const SimStrip *s, double from) {
    double fx = sin((double)s->heading), fz = -cos((double)s->heading);
    for (double d = from; d > 10.0; d -= 4.0)
        if (!sim_clear_box(g_home.world, s->x - fx * d, s->y + SIM_WHEEL_H + d * SIM_GLIDE_SLOPE + 1.0, s->z - fz * d, 2.0))
            return false;
    return true;
}

/* The longest open approach, 0 when none is. */
static double approach_from(const SimStrip *s) {
    for (size_t i = 0; i < sizeof k_approach_m / sizeof k_approach_m[0]; i++)
        if (path_open(s, k_approach_m[i])) return k_approach_m[i];
    return 0.0;
}

static Landing autoland(const SimStrip *s, const FlightModel *m, double from) {
    Landing l = {.why = ""};
    FlightState f;
    double fx = sin((double)s->heading), fz = -cos((double)s->heading);
    flight_init(&f, s->x - fx * from, s->y + SIM_WHEEL_H + from * SIM_GLIDE_SLOPE, s->z - fz * from, s->heading,
                SIM_APPROACH_SPEED);
    f.throttle = flight_throttle_for(m, SIM_APPROACH_SPEED);
    for (int i = 0; i < 90 * SIM_STEP_HZ; i++) {
        FlightInput in;
        sim_autoland_input(s, &f, m, &in);
        FlightState before = f;
        flight_step(&f, &in, m, SIM_STEP);
        SimGroundResult g;
        CollisionResult hit;
        if (sim_meet_world(g_home.world, &before, &f, SIM_STEP, &g, &hit)) {
            l.crashed = true;
            l.why = g.why;
            break;
        }
        if (g.event == SIM_GROUND_TOUCHDOWN && !l.touched) {
            l.touched = true;
            l.sink = g.sink;
            l.rating = g.rating;
        }
        if (f.on_ground && f.speed == 0.0f) {
            l.stopped = true;
            break;
        }
    }
    l.stop_m = (f.x - s->x) * fx + (f.z - s->z) * fz;
    return l;
}

/* From the run's start at full throttle, pulling up: metres rolled when the wheels left at the
 * takeoff speed, flying on for 3 s without a crash (-1: a crash, rolling off an edge too slow to
 * fly, or no liftoff within 60 s). */
static double takeoff(const FlightState *park, const FlightModel *m) {
    FlightState f = *park;
    FlightInput in = {.throttle = 1.0f, .pitch = 0.6f};
    double lift = -1.0;
    for (int i = 0; i < 60 * SIM_STEP_HZ && (lift < 0.0 || i < 3 * SIM_STEP_HZ); i++) {
        FlightState before = f;
        flight_step(&f, &in, m, SIM_STEP);
        SimGroundResult g;
        CollisionResult hit;
        if (sim_meet_world(g_home.world, &before, &f, SIM_STEP, &g, &hit)) return -1.0;
        if (lift < 0.0 && !f.on_ground) {
            if (before.speed < SIM_TAKEOFF_SPEED) return -1.0;   /* off an edge, not flying */
            lift = sqrt((f.x - park->x) * (f.x - park->x) + (f.z - park->z) * (f.z - park->z));
            i = 0;
        }
    }
    return lift;
}

typedef struct Tally {
    uint32_t runs, strips, long_enough, approachable, landed, stopped_on_run, took_off, ratings[3];
    double sink_sum, sink_max, run_sum, run_min;
} Tally;

/* The base camp's strip of this seed (the world's strip 0, threshold a to b), or without one the
 * flat run a start on the ground finds near the camp: *park at its start, facing along it; the
 * run's metres (-1: none). */
static double base_run(const FlightModel *m, FlightState *park, bool *strip) {
    (void)m;
    WorldStrip ws;
    *strip = world_strip_count(g_home.world) > 0 && world_strip(g_home.world, 0, &ws);
    if (*strip) {
        flight_init(park, ws.ax + (double)ws.dir_x * 5.0, (double)ws.y + SIM_WHEEL_H, ws.az + (double)ws.dir_z * 5.0, ws.yaw,
                    0.0f);
        park->on_ground = true;
        return (double)ws.length_m - 5.0;
    }
    const IslandSite *b = &g_home.island.sites[g_home.island.base];
    double bx = (double)g_home.field.centre_x + (double)b->x_m, bz = (double)g_home.field.centre_z + (double)b->z_m;
    return sim_ground_start(g_home.world, bx, bz, 64.0, 2.0 * sim_strip_length_m(), park);
}

static void one(Tally *t, uint64_t seed, const FlightModel *m) {
    FlightState park;
    bool strip;
    double need = sim_strip_length_m(), run = base_run(m, &park, &strip);
    if (run < 0.0) {
        printf("{\"bench\": \"landings\", \"seed\": %llu, \"error\": \"no standing place near the base camp\"}\n",
               (unsigned long long)seed);
        return;
    }
    t->strips += strip;
    /* The touchdown point a tenth of the way along the run, the rest ahead for the roll-out;
     * landed the other way (from the run's far end) when only that side is open. */
    double fx = sin((double)park.yaw), fz = -cos((double)park.yaw), aim = 0.1 * run;
    SimStrip s = {park.x + fx * aim, park.y - SIM_WHEEL_H, park.z + fz * aim, park.yaw, run - aim};
    double from = approach_from(&s);
    if (from == 0.0) {
        s = (SimStrip){park.x + fx * (run - aim), park.y - SIM_WHEEL_H, park.z + fz * (run - aim),
                       park.yaw > 0.0f ? park.yaw - 3.1415927f : park.yaw + 3.1415927f, run - aim};
        from = approach_from(&s);
    }
    Landing l = {.why = "no open approach"};
    if (from > 0.0) l = autoland(&s, m, from);
    t->approachable += from > 0.0;
    double lift = takeoff(&park, m);
    bool on_run = l.stopped && l.stop_m <= s.length;
    printf("{\"bench\": \"landings\", \"seed\": %llu, \"run_m\": %.0f, \"touched\": %s, \"sink\": %.2f, \"rating\": \"%s\", "
           "\"approach_m\": %.0f, \"crash\": \"%s\", \"stopped_m\": %.1f, \"stopped_on_run\": %s, \"takeoff_m\": %.1f}\n",
           (unsigned long long)seed, run, l.touched ? "true" : "false", (double)l.sink,
           l.touched ? (l.rating == SIM_TOUCH_SMOOTH ? "smooth" : (l.rating == SIM_TOUCH_FIRM ? "firm" : "hard")) : "",
           from, l.why, l.stop_m, on_run ? "true" : "false", lift);
    t->runs++;
    t->long_enough += run >= need;
    t->run_sum += run;
    if (t->runs == 1 || run < t->run_min) t->run_min = run;
    if (l.touched && !l.crashed) {
        t->landed++;
        t->ratings[l.rating]++;
        t->sink_sum += (double)l.sink;
        if ((double)l.sink > t->sink_max) t->sink_max = (double)l.sink;
    }
    t->stopped_on_run += on_run;
    t->took_off += lift >= 0.0 && lift <= run;
}

int bench_landings(int argc, char **argv) {
    uint32_t seeds = 100;
    uint64_t first = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seeds") && i + 1 < argc) seeds = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--first") && i + 1 < argc) first = strtoull(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "bench landings: unknown option '%s' (options: --seeds N, --first SEED)\n", argv[i]);
            return 2;
        }
    }
    SkyError err = {0};
    if (!course_home_open(&g_home, first, &err)) {
        fprintf(stderr, "bench landings: %s\n", err.msg);
        return 1;
    }
    FlightModel m;
    flight_model_default(&m);
    Tally t = {0};
    for (uint32_t k = 0; k < seeds; k++) {
        uint64_t seed = first + k;
        if (!course_home_seed(&g_home, seed, &err)) {
            fprintf(stderr, "bench landings: seed %llu: %s\n", (unsigned long long)seed, err.msg);
            continue;
        }
        one(&t, seed, &m);
        fflush(stdout);
    }
    printf("{\"bench\": \"landings\", \"total\": true, \"seeds\": %u, \"strip_m\": %.1f, \"runs_found\": %u, "
           "\"base_strips\": %u, \"runs_long_enough\": %u, \"approachable\": %u, \"run_m_mean\": %.0f, \"run_m_min\": %.0f, \"landed\": %u, \"smooth\": %u, \"firm\": %u, "
           "\"hard\": %u, \"sink_mean\": %.2f, \"sink_max\": %.2f, \"stopped_on_run\": %u, \"took_off\": %u}\n",
           seeds, sim_strip_length_m(), t.runs, t.strips, t.long_enough, t.approachable, t.runs ? t.run_sum / t.runs : 0.0, t.run_min, t.landed,
           t.ratings[0], t.ratings[1], t.ratings[2], t.landed ? t.sink_sum / t.landed : 0.0, t.sink_max, t.stopped_on_run,
           t.took_off);
    course_home_close(&g_home);
    return 0;
}
