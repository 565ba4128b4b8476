/* skyisles course: the one public header of src/course (pure C, no SDL/GL).
 * Courses of rings (the island tour over the named places of any island, sky courses through
 * the floating islands), laid and checked against THE density field; ring crossing by the
 * aircraft's swept motion; a course run (clock, next ring, splits, restarts); the course pilot.
 * Fixed memory: a CourseWork is carved once (course_work_init); laying a course never allocates. */
#ifndef SKYISLES_COURSE_H
#define SKYISLES_COURSE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/core.h"
#include "island/island.h"
#include "sim/sim.h"
#include "world/world.h"

#define COURSE_MAX_RINGS 128          /* every site of the largest island a pack may make */
#define COURSE_MAX_POINTS 6144        /* air-path points of all legs together */
#define COURSE_NAME_MAX 40
#define COURSE_ID_MAX 48

/* The search lattice that proves a leg is connected through air: nodes every COURSE_GRID
 * metres, a node open when THE density is air at it and COURSE_NODE_CLEAR metres along each
 * axis either side; two neighbours joined when the midpoint passes the same test. */
#define COURSE_GRID 6
#define COURSE_NODE_CLEAR 3.0
#define COURSE_APPROACH 30.0          /* metres of straight air before and after every ring */
#define COURSE_RING_CLEAR 3.0         /* air beyond a ring's rim, all round and along its axis */
#define COURSE_MAX_SLOPE 0.6          /* a leg's straight pieces climb or dive at most this (rise/run) */

typedef enum CourseKind { COURSE_TOUR = 0, COURSE_SKY = 1 } CourseKind;

/* What a ring flies through. Bits of Course.kinds by (1 << kind). */
typedef enum RingKind {
    RING_PLACE = 0,     /* the tour: over a named place's landmark */
    RING_OPEN,          /* sky course: open air between islands */
    RING_OVERHANG,      /* rock overhead, open air below */
    RING_GAP,           /* rock either side: between two islands or an island's walls */
    RING_CLOUD,         /* beside or in a cloud bank */
    RING_TUNNEL,        /* rock overhead, below and either side: inside a tunnel */
    RING_KIND_COUNT
} RingKind;
const char *course_ring_kind_name(RingKind k);   /* "place", "open", "overhang", ... */

typedef struct CourseRing {
    double x, y, z;             /* centre, world metres */
    float nx, ny, nz;           /* unit normal: the way the course flies through */
    float radius;               /* metres to the inner rim */
    uint8_t kind;               /* RingKind */
    int16_t site;               /* the tour: the island site, -1 otherwise */
    uint32_t first_point, n_points;   /* the leg into this ring: its air path, ending at the centre */
    char name[COURSE_NAME_MAX];
} CourseRing;

typedef struct CoursePoint { double x, y, z; } CoursePoint;

typedef struct Course {
    uint8_t kind;               /* CourseKind */
    uint64_t seed;
    char id[COURSE_ID_MAX];     /* "tour-<seed>-<params hash>": the key of best times and best runs */
    double start_x, start_y, start_z;
    float start_yaw;            /* the start's heading (sim convention: 0 flies toward -z) */
    uint32_t n_rings, n_points;
    uint32_t kinds;             /* bit per RingKind present */
    uint32_t kind_count[RING_KIND_COUNT];
    uint32_t route_metres;      /* tour: the closed route along the island's paths (metres) */
    uint8_t route_exact;        /* tour: 1 when the route is the exact optimum (Held-Karp) */
    CourseRing rings[COURSE_MAX_RINGS];
    CoursePoint points[COURSE_MAX_POINTS];
} Course;

/* Work memory of the layout (the air search and the route search), carved once. */
typedef struct CourseWork CourseWork;
size_t course_work_bytes(void);
CourseWork *course_work_init(MemArena *a);     /* NULL when the arena is short */
/* A layout laid with wk asks stop(user) now and then (in the candidates' sweep, between rings
 * and legs, every 256 nodes of an air search): true gives it up, false with "stopped" in err.
 * For a layout on a thread of its own that may have to end early (the attract mode's
 * preparation: a world change or the game's shutdown). NULL: never stopped (the default). */
void course_work_stop_when(CourseWork *wk, bool (*stop)(void *user), void *user);

/* ---------------------------------------------------------------- laying courses */
/* An island of the world a course (or a delivery) is laid on: the home island or one of the
 * archipelago's, as the world holds it. */
typedef struct CourseIsland {
    const Island *isl;          /* the generator's record: sites, names, paths */
    const IslandField *field;   /* its baked field, its metres counted from (ox, oz) */
    int64_t ox, oz;             /* world blocks (0, 0 for the home island) */
    int64_t cell_x, cell_z;     /* its archipelago cell ((0, 0): the home island's) */
} CourseIsland;
/* The island of the cell holding (x, z) in w (baked now on the calling thread when the world
 * holds it not yet: w is that thread's), home the home island's record. False when that cell has
 * none: *out is then the home island (false too without a home island: out->isl NULL). */
bool course_island_at(World *w, const Island *home, double x, double z, CourseIsland *out);
/* The home island of w as a CourseIsland (out->isl NULL without one). */
void course_island_home(const World *w, const Island *home, CourseIsland *out);
/* World position (metres) of site s of the island. */
void course_island_site(const CourseIsland *at, uint32_t s, double *x, double *z);

/* The island tour: a ring over every named place of the island `at` (the home island or one of
 * the archipelago's), ordered by the shortest closed route from the base along the path network
 * (exact for at most COURSE_EXACT_PLACES places, else nearest neighbour + 2-opt), the base's ring
 * last; each leg searched through air. False with one line in err when it cannot be laid. */
#define COURSE_EXACT_PLACES 13
bool course_lay_tour(Course *c, const World *w, const CourseIsland *at, const IslandCodex *cx, const char *lang,
                     CourseWork *wk, SkyError *err);

/* A sky course for the world's seed: up to `rings` rings (4..COURSE_SKY_MAX) through the air
 * around the home island (the origin without one), preferring kinds not yet on the course.
 * False with one line in err when fewer than COURSE_SKY_MIN rings can be laid. */
#define COURSE_SKY_MIN 4
#define COURSE_SKY_MAX 24
#define COURSE_SKY_DEFAULT 12
bool course_lay_sky(Course *c, const World *w, uint32_t rings, CourseWork *wk, SkyError *err);

/* FNV-1a 64 over every decision of a course (rings, normals, kinds, names, air paths): the same
 * on every platform for the same world, island and parameters. */
uint64_t course_hash(const Course *c);
/* A hash of the world's generation parameters (each gen row of the table, by value). */
uint64_t course_params_hash(const WorldParams *p);

/* ---------------------------------------------------------------- checks */
/* Every sample within the ring's rim + COURSE_RING_CLEAR, and along its axis COURSE_APPROACH
 * either side, is air. */
bool course_ring_clear(const World *w, const CourseRing *r);
/* The lattice test of one point (air at it and COURSE_NODE_CLEAR along each axis). */
bool course_point_open(const World *w, double x, double y, double z);
/* A straight segment sampled every 2 m with course_point_open (legs are laid from pieces that
 * are also no steeper than COURSE_MAX_SLOPE). */
bool course_segment_open(const World *w, const CoursePoint *a, const CoursePoint *b);

/* The whole course checked again: every ring clear, every piece of every leg open, each leg
 * ending at its ring, the reported kinds those of its rings. False with one line in err. */
bool course_verify(const Course *c, const World *w, SkyError *err);
/* "gap 3, overhang 2, cloud 4, open 3; no tunnel": which kinds a course has (and, for a sky
 * course, which it could not place). snprintf's rules; returns the length written. */
int course_kinds_text(const Course *c, char *buf, size_t n);

/* ---------------------------------------------------------------- ring crossing */
/* True when the aircraft's box, moving in a straight line from p0 to p1 (the motion one step
 * swept by sim_collide: to its last clear position when it hit), passes through the ring's
 * disc: the centre crosses the ring's plane (either way) inside radius - SIM_HIT_RADIUS, so the
 * whole box is inside the rim. Exact for any step length (a 1000 m/s pass counts). */
bool course_ring_crossed(const CourseRing *r, double x0, double y0, double z0, double x1, double y1, double z1);

/* ---------------------------------------------------------------- a run of a course */
#define COURSE_EVENT_RING 1u        /* the next ring was passed */
#define COURSE_EVENT_FINISH 2u      /* ... and it was the last */
#define COURSE_EVENT_RESTART 4u     /* a crash: the aircraft restarts at the last ring passed */

typedef struct CourseRun {
    const Course *course;
    uint32_t next;              /* the ring to pass next (n_rings when finished) */
    double clock_s;             /* runs from the start to the finish, through restarts */
    double split_s[COURSE_MAX_RINGS];   /* clock when each ring was passed */
    uint32_t crashes;
    bool finished;
} CourseRun;

void course_run_start(CourseRun *r, const Course *c, FlightState *f, float speed);
/* One simulation step of dt seconds whose motion went from p0 to p1 (after collision), hit set
 * when it crashed. Returns COURSE_EVENT_* bits; on a crash f is put back at the last ring passed
 * (the start before the first) heading through it, and the clock runs on. */
uint32_t course_run_step(CourseRun *r, FlightState *f, double x0, double y0, double z0, bool hit, float dt);
/* Where a restart puts the aircraft: the last ring passed (the start before the first). */
void course_run_restart(const CourseRun *r, FlightState *f);

/* ---------------------------------------------------------------- the course pilot */
/* Flies from ring to ring along the legs' air paths, producing the FlightInput a pad would
 * (for flight_step), with a look ahead for rock that pulls up. Used by the tests and the attract
 * mode. A missed ring: it turns back and tries again. */
#define COURSE_PILOT_SPEED 30.0f
typedef struct CoursePilot {
    uint32_t ring;              /* the ring whose leg it follows */
    uint32_t point;             /* index into Course.points of the point it flies toward */
    CoursePoint from;           /* where the segment it tracks begins */
    int8_t loop;                /* 0: on the leg; +-1: missed, coming round from that side of the ring */
    bool looped_out;            /* out at the loop's turning point: tracking back through the ring */
    float loop_out;             /* metres from the ring to the loop's turning point (open air) */
    uint32_t probe_tick;
    bool pull_up;               /* rock ahead: steering out of it ... */
    float evade_pitch, evade_yaw;   /* ... by these offsets from the nose */
} CoursePilot;

void course_pilot_reset(CoursePilot *p, const CourseRun *r);
void course_pilot_input(CoursePilot *p, const CourseRun *r, const FlightState *f, const FlightModel *m, const World *w,
                        FlightInput *out);

/* One whole step of a course flown by the pilot, as the tests and the bench fly it: pilot
 * input, flight_step, sim_collide, course_run_step. Returns course_run_step's events. */
uint32_t course_pilot_fly_step(CoursePilot *p, CourseRun *r, FlightState *f, const FlightModel *m, const World *w,
                               float dt);

/* A whole course flown by the pilot from its start at 60 Hz with model m, for at most limit_s
 * of sim time (tests, the bench). True when it finished; *run holds the clock and splits. */
bool course_pilot_fly(const Course *c, const World *w, const FlightModel *m, double limit_s, CourseRun *run);

/* ---------------------------------------------------------------- a home for tests and tools */
/* The built-in pack's home island for a seed, baked as the game bakes it, in a world without
 * workers (chunks are never built: courses read only the field), plus the layout's work memory.
 * All memory is carved in course_home_open; course_home_seed moves it to another seed. */
typedef struct CourseHome {
    IslandCodex codex;
    Island island;
    IslandField field;
    MemBudget mem;
    MemArena island_arena, work_arena;
    World *world;
    WorldParams params;
    CourseWork *work;
    int scope;
    CourseIsland at;            /* the home island as course_lay_tour takes it */
} CourseHome;
bool course_home_open(CourseHome *h, uint64_t seed, SkyError *err);
bool course_home_seed(CourseHome *h, uint64_t seed, SkyError *err);
void course_home_close(CourseHome *h);

#endif
