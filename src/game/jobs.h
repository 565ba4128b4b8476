/* skyisles jobs: deliveries between the places of the home island. Landed and stopped at a
 * place, a job board offers cargo the place has (the codex's `cargo`, drawn from a seeded stream:
 * the world seed and the count of boards drawn this flight, so a replay draws the same jobs);
 * taking one sets a destination; landing and stopping there delivers it, timed against the walk
 * along the island's paths. Pure game logic: no I/O, no heap; it lives in the GameCourses. */
#ifndef SKYISLES_GAME_JOBS_H
#define SKYISLES_GAME_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "services.h"

#define JOBS_BOARD_MAX 3          /* offers on one board */
#define JOBS_STOP_SPEED 0.5f      /* m/s: on the ground and slower than this is standing */
#define JOBS_STOP_HOLD_S 1.0f     /* standing this long is "stopped" (a roll through does not count) */

typedef struct JobOffer {
    uint8_t cargo;                /* index into the codex's cargo */
    uint16_t from, to;            /* home island sites */
    uint32_t walk_minutes;        /* on foot along the paths (the codex's walking times) */
    float distance_m;             /* straight line, from to to */
} JobOffer;

/* What a step saw (bits). */
enum {
    JOB_EV_TOUCHDOWN = 1u,        /* the wheels met the ground at a place (Jobs.event_site) */
    JOB_EV_STOPPED = 2u,          /* stopped at a place (Jobs.event_site): its board is up */
    JOB_EV_DELIVERED = 4u,        /* the job is delivered (Jobs.done, Jobs.done_s) */
};

typedef struct Jobs {
    const GameHome *home;
    uint64_t seed;
    uint32_t drawn;               /* boards drawn this flight: the stream's position */
    bool was_on_ground;
    float still_s;                /* how long it has stood still on the ground */
    int stopped_at;               /* the site it is stopped at, -1 when not stopped at a place */
    int event_site;               /* the site of this step's touchdown or stop */
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

/* Minutes on foot from site a to site b along the island's paths (Dijkstra over the paths'
 * walking times); UINT32_MAX when no path joins them. */
uint32_t jobs_walk_minutes(const Island *isl, uint32_t a, uint32_t b);
/* "2:41" (minutes:seconds; "1:02:41" past an hour) and "3 h 10 min" / "45 min". */
void jobs_format_time(double s, char *buf, size_t n);
void jobs_format_walk(uint32_t minutes, char *buf, size_t n);
/* The cargo's display name ("Fish"; its id when the codex has no text). */
const char *jobs_cargo_name(const Jobs *j, uint32_t cargo);
/* "Fish to Meadow (Second): on foot 42 min" into buf. */
void jobs_offer_label(const Jobs *j, const JobOffer *o, char *buf, size_t n);
/* "delivered in 2:41; on foot 3 h 10 min" for the last delivery. */
void jobs_delivered_line(const Jobs *j, char *buf, size_t n);

#endif
