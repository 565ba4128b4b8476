/* skyisles course: what the course files share (not part of the public header): the work
 * memory, the air search and the route search. */
#ifndef SKYISLES_COURSE_INT_H
#define SKYISLES_COURSE_INT_H

#include "course/course.h"

/* The air lattice cache: half-lattice points (nodes at even coordinates, the midpoints of their
 * links at odd ones), open addressing. A search that would fill it more than AIR_FILL fails. */
#define AIR_SLOTS (1u << 16)
#define AIR_FILL (AIR_SLOTS / 8u * 7u)
#define AIR_HEAP (1u << 17)
#define AIR_PATH_MAX 2048u

typedef struct AirSlot {
    int64_t key;                /* -1: empty */
    uint32_t g;                 /* cost from the search's start (lattice tenths) */
    int32_t parent;             /* slot of the previous node, -1 at the start */
    uint32_t search;            /* the search that wrote g and parent */
    uint8_t open;               /* 1: the point passed course_point_open */
    uint8_t closed;             /* 1: expanded in search `search` */
} AirSlot;

/* Held-Karp over at most COURSE_EXACT_PLACES places: one cost per (subset, last place). */
#define ROUTE_DP_CELLS ((1u << (COURSE_EXACT_PLACES - 1)) * (COURSE_EXACT_PLACES - 1))

/* A place a sky course's ring may go: open air with room for a ring. */
#define SKY_CAND_MAX 16384u
typedef struct SkyCandidate {
    float x, y, z;
    uint8_t up, down;           /* metres to rock straight up / down (SKY_PROBE_FAR: none near) */
    uint8_t used;
    uint32_t tie;               /* the seed's hash of the spot: ties broken the same everywhere */
} SkyCandidate;

struct CourseWork {
    SkyCandidate *cand;
    uint32_t n_cand;
    const World *world;         /* the world the cache describes */
    int64_t origin[3];          /* half-lattice point the keys count from (a course far out keys
                                   its points near it: 21 bits an axis) */
    bool origin_set;            /* set by the first search after the cache was cleared */
    AirSlot *slots;
    uint32_t used;
    uint32_t search;
    uint64_t *heap_key;         /* (f << 32) | sequence: deterministic ties */
    uint32_t *heap_slot;
    uint32_t heap_n, heap_seq;
    int32_t *path;              /* slots of a found path, goal first */
    uint32_t *dist;             /* route: site-to-site path distances (grid units), then the same in place order */
    uint32_t *dp;               /* route: Held-Karp costs */
    uint32_t evaluated;         /* lattice points tested since the cache was cleared */
    bool (*stop)(void *user);   /* course_work_stop_when (NULL: never) */
    void *stop_user;
};

/* The layout is to be given up (course_work_stop_when). */
static inline bool course_work_stopped(const CourseWork *wk) { return wk->stop && wk->stop(wk->stop_user); }

/* Forgets the cache when w is not the world it describes (or always when force). */
void air_cache_reset(CourseWork *wk, const World *w, bool force);
/* Appends to c->points an air path from a to b (a not included, b included): the straight line
 * when it is open, else a lattice search smoothed by line of sight. False when no air path
 * within the search's reach joins them (c->n_points is then unchanged). */
bool air_path_append(CourseWork *wk, const World *w, Course *c, const CoursePoint *a, const CoursePoint *b);

/* The shortest closed route from place 0 through places 1..n-1 along a graph given as a full
 * distance matrix dist[i * n + j] (decimetres). order receives n places starting with 0. Exact
 * when n <= COURSE_EXACT_PLACES, else nearest neighbour + 2-opt. Returns the route's length. */
uint32_t route_shortest_closed(CourseWork *wk, uint32_t n, const uint32_t *dist, uint16_t *order, bool *exact);

/* Shared by the course files: the ring's leg bookkeeping and the normal from two points. */
void course_ring_normal(CourseRing *r, const CoursePoint *from, const CoursePoint *to);
void course_count_kinds(Course *c);
bool course_append_leg(CourseWork *wk, const World *w, Course *c, uint32_t k);
bool course_leg_flyable(const Course *c, uint32_t k);
/* c->id: "<what>-<seed hex>-<8 hex of the parameters hash mixed with extra>". */
void course_make_id(Course *c, const char *what, uint64_t extra, const WorldParams *p);

#endif
