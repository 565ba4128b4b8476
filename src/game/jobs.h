/* skyisles jobs: deliveries between the places of an island, or to a nearby island. Landed and
 * stopped at a place of any island (the home island or the archipelago's), a job board offers
 * cargo the place has (the codex's `cargo`, drawn from a seeded stream: the world seed, the
 * island's cell and the count of boards drawn this flight, so a replay draws the same jobs) to
 * places of that island and one to a strip of a neighbouring cell's island; taking one sets a
 * destination (a place with an airstrip, when its island has strips); landing and stopping there
 * (on its strip or anywhere in the place) delivers it, timed against the walk along the island's
 * paths (none between islands). Pure game logic: no I/O, no heap; it lives in the GameCourses. */
#ifndef SKYISLES_GAME_JOBS_H
#define SKYISLES_GAME_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "course/course.h"
#include "services.h"

#define JOBS_BOARD_LOCAL 3        /* offers on one board to places of its own island ... */
#define JOBS_BOARD_MAX 4          /* ... and one to a neighbouring island */
#define JOBS_NAME_MAX 80
#define JOBS_STOP_SPEED 0.5f      /* m/s: on the ground and slower than this is standing */
#define JOBS_STOP_HOLD_S 1.0f     /* standing this long is "stopped" (a roll through does not count) */

typedef struct JobOffer {
    uint8_t cargo;                /* index into the codex's cargo */
    uint16_t from, to;            /* sites of their islands */
    int64_t from_cx, from_cz;     /* the archipelago cells of those islands ((0, 0): the home island) */
    int64_t to_cx, to_cz;
    uint32_t walk_minutes;        /* on foot along the paths (the codex's walking times); UINT32_MAX
                                     between islands */
    float distance_m;             /* straight line, from to to */
    double to_x, to_z;            /* world metres of the destination: its strip's middle, or the place */
    double site_x, site_z;        /* ... and of its place (its dot on the island map) */
    char to_name[JOBS_NAME_MAX];  /* the destination's name when not the home island's ("Harbour
                                     Strip, Isle of Ashgrove" on another island), in the language
                                     of the draw; "" for the home island's (named as shown) */
} JobOffer;

/* What a step saw (bits). */
enum {
    JOB_EV_TOUCHDOWN = 1u,        /* the wheels met the ground at a place (Jobs.event_site) */
    JOB_EV_STOPPED = 2u,          /* stopped at a place (Jobs.event_site): its board is up */
    JOB_EV_DELIVERED = 4u,        /* the job is delivered (Jobs.done, Jobs.done_s) */
};

typedef struct Jobs {
    const GameHome *home;
    World *world;                 /* the islands of the archipelago (NULL: the home island alone) */
    uint64_t seed;
    uint32_t drawn;               /* boards drawn this flight: the stream's position */
    bool was_on_ground;
    float still_s;                /* how long it has stood still on the ground */
    int stopped_at;               /* the site it is stopped at, -1 when not stopped at a place */
    int event_site;               /* the site of this step's touchdown or stop ... */
    bool event_home;              /* ... on the home island (else another island's) */
    uint32_t n_board;             /* the board at stopped_at (0: none up) */
    JobOffer board[JOBS_BOARD_MAX];
    bool carrying;
    JobOffer job;                 /* the job taken (carrying) */
    double job_s;                 /* flight time since it was taken */
    JobOffer done;                /* the last delivery and its time */
    double done_s;
    uint32_t delivered;           /* deliveries this flight */
} Jobs;

/* Binds the jobs to the home island and the world seed; a new flight (jobs_reset). */
void jobs_init(Jobs *j, const GameHome *home, uint64_t seed);
/* The world whose archipelago the jobs run on too (the islands under the aircraft, baked now when
 * the world holds them not yet: the main thread's world); NULL: the home island alone. */
void jobs_set_world(Jobs *j, World *w);
/* A new flight: no job, no board, the stream from its start. */
void jobs_reset(Jobs *j);
/* One fixed sim step: where the aircraft is (world metres), its speed (m/s) and whether its wheels
 * are on the ground (the flight model's). JOB_EV_* bits. */
uint32_t jobs_step(Jobs *j, double x, double z, float speed, bool on_ground, float dt);
/* Takes offer i of the board up (false: no such offer); a job carried before is dropped. */
bool jobs_take(Jobs *j, uint32_t i);
void jobs_drop(Jobs *j);
/* World position (metres) of a site of the home island. */
void jobs_site_pos(const Jobs *j, uint32_t site, double *x, double *z);
/* The airstrip serving a site (an index of the field's strips), -1 when it has none. */
int jobs_strip_of(const Jobs *j, uint32_t site);
/* Where a job to `site` goes: its strip's middle, or the site when it has no strip. */
void jobs_dest_pos(const Jobs *j, uint32_t site, double *x, double *z);
/* The place the aircraft stands at: the site a strip under it serves (a strip may reach across a
 * border), else the place under it, of the island of its cell (*at, may be NULL); -1 off any
 * island. */
int jobs_place_at(const Jobs *j, double x, double z, CourseIsland *at);
/* The destination's name as the board and the HUD show it: "Meadow (Second)", or "Harbour
 * Strip, Isle of Ashgrove" on another island. */
void jobs_dest_name(const Jobs *j, const JobOffer *o, char *buf, size_t n);

/* Minutes on foot from site a to site b along the island's paths (Dijkstra over the paths'
 * walking times); UINT32_MAX when no path joins them. */
uint32_t jobs_walk_minutes(const Island *isl, uint32_t a, uint32_t b);
/* "2:41" (minutes:seconds; "1:02:41" past an hour) and "3 h 10 min" / "45 min". */
void jobs_format_time(double s, char *buf, size_t n);
void jobs_format_walk(uint32_t minutes, char *buf, size_t n);
/* The cargo's display name ("Fish"; its id when the codex has no text). */
const char *jobs_cargo_name(const Jobs *j, uint32_t cargo);
/* "Fish to Meadow (Second): on foot 42 min" into buf ("Post to Basalt Shore, Isle of Elderstead"
 * to another island). */
void jobs_offer_label(const Jobs *j, const JobOffer *o, char *buf, size_t n);
/* "delivered in 2:41; on foot 3 h 10 min" for the last delivery ("delivered in 2:41" from
 * another island). */
void jobs_delivered_line(const Jobs *j, char *buf, size_t n);

#endif
