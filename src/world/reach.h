/* skyisles world internals of reach.c: what the streamer asks for each frame (the view's
 * geometry, priorities, the pick heap) and the speed governor's state, which reach.c alone
 * writes. It knows no World: the streamer (stream*.c) hands in what each call reads. */
#ifndef SKYISLES_REACH_H
#define SKYISLES_REACH_H

#include "world/world_internal.h"

#define LOOKAHEAD_MAX 3         /* chunks of prefetch ahead of the aircraft, at most */
/* Speed governor: steps that coarsen the far LOD bands before the reach shrinks, frames of
 * pressure between two steps up, calm frames before a step down. */
#define GOV_LOD_STEPS 3
#define GOV_UP_FRAMES 6
#define GOV_DOWN_FRAMES 90

typedef struct ViewGeom {
    double ccx, ccz;          /* camera in chunk units */
    double lx, lz;            /* lead point in chunk units */
    double dx, dz;            /* unit horizontal direction (0,0 when none) */
    double speed;             /* chunks per second along (dx, dz) */
    double cos_half_fov;
    int32_t radius;           /* configured */
    double keep;              /* chunks kept: min(radius, what the pool holds) */
    double reach;             /* chunks requested: keep, or less while the governor pulls it in */
    double need;              /* a chunk this near the camera is needed now (reach - 1): void if missing ahead */
} ViewGeom;

/* Below this speed (chunks per second) requests go by distance and heading only. */
#define PRIORITY_MIN_SPEED 1.0

/* A chunk worth a job this frame: where, at which LOD, how soon (lower first). */
#define PICK_MAX 96
typedef struct Pick {
    int64_t cx, cz;
    int8_t lod;
    double score;
} Pick;

/* The geometry of view v under live values p, kept to `keep` chunks and requested to `reach`. */
void stream_view_geom(const WorldLiveParams *p, double keep, double reach, const WorldView *v, ViewGeom *g);
/* Distance in chunks from (px, pz) to the centre of chunk (cx, cz). */
double stream_dist_to(double px, double pz, int64_t cx, int64_t cz);
/* Within the reach (requested) / the keep distance (kept), plus extra, of the camera or the lead point. */
bool stream_in_range(const ViewGeom *g, int64_t cx, int64_t cz, double extra);
bool stream_in_keep(const ViewGeom *g, int64_t cx, int64_t cz, double extra);
double stream_travel_to_need(const ViewGeom *g, int64_t cx, int64_t cz);
double stream_priority(const WorldLiveParams *p, const ViewGeom *g, int64_t cx, int64_t cz, double travel);
void stream_picks_push(Pick *h, uint32_t *n, Pick p);
void stream_picks_replace_top(Pick *h, uint32_t n, Pick p);
void stream_picks_sort(Pick *h, uint32_t n);

/* ---------------------------------------------------------------- speed governor */
/* Level 0 is the configured world; levels 1..lod_steps coarsen the far LOD bands; each level
 * past them pulls the reach in by a chunk, down to the live speed_reach_min. The LOD thresholds
 * in force are the governor's too, as they are what it moves. Zeroed, then configured. */
typedef struct StreamGovernor {
    int lod_levels;                 /* lod_dist entries in use (0: LOD off, every chunk classic LOD 0) */
    float lod_base[WORLD_LOD_MAX];  /* the thresholds of the live parameters */
    float lod_d2[WORLD_LOD_MAX];    /* squared thresholds in force */
    int32_t radius, reach_min, radius_max;   /* view radius, its floor, what the world holds */
    int level, max;
    uint32_t pressure_frames, calm_frames;
    uint32_t jump_frames;           /* frames held since a jump, 0: no hold (stream_gov_note_jump) */
    double reach;                   /* the governor's reach (chunks) */
    uint32_t level_peak;
    uint64_t steps_up, steps_down, jumps, jumps_filled;
} StreamGovernor;

/* A generous bound on the hold after a jump, only against a world that never fills (world.h). */
#define GOV_JUMP_HOLD_MAX WORLD_GOV_JUMP_HOLD_MAX_FRAMES

/* New live values (already held by the world: radius <= radius_max): the thresholds, the range
 * of levels (the level kept within it) and what the level gives. */
void stream_gov_configure(StreamGovernor *gv, const WorldLiveParams *l, int32_t radius_max);
/* The governor's LOD steps: GOV_LOD_STEPS when LOD is on, else none. */
int stream_gov_lod_steps(const StreamGovernor *gv);
/* The LOD of a chunk (dx, dz) chunks from the anchor chunk under the thresholds in force. */
int stream_gov_lod_at(const StreamGovernor *gv, int32_t dx, int32_t dz);
/* One frame: `voids` chunks void ahead, `margin` (s) the least time by which a missing chunk
 * arrives before it is needed, `lead_s` the arrival time that counts as calm, `filled`: no chunk
 * is void ahead and none of the request range will arrive late (a jump's hold ends). */
void stream_gov_update(StreamGovernor *gv, const ViewGeom *g, uint32_t voids, double margin, double lead_s,
                       bool filled);
/* The view jumped: what is missing is the jump's backlog, not pressure, until the new place has
 * filled (or GOV_JUMP_HOLD_MAX frames, for a world that never does); the level stays. */
void stream_gov_note_jump(StreamGovernor *gv);

#endif
