/* skyisles logbook: the pilot's record of one seed's island: places landed at, landmarks passed
 * close, deliveries (each route's count and best time), flights, hours, distance, top speed,
 * sonic booms and the best landing. Kept in the config folder as logbook-SEED.txt, saved
 * atomically at the moments the settings are (never per frame). A damaged file is renamed beside
 * (logbook-SEED.txt.damaged, -2 ... -9) with one log line and a new logbook begins; a file of a
 * newer version is kept and never written over. Fixed memory: the struct is all there is. */
#ifndef SKYISLES_GAME_LOGBOOK_H
#define SKYISLES_GAME_LOGBOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "island/island.h"

#define LOGBOOK_VERSION 2              /* 2: the archipelago's islands seen and landed on */
#define LOGBOOK_MAX_BYTES (64u << 10)   /* a file larger than this is damaged */
#define LOGBOOK_MAX_ROUTES 128
#define LOGBOOK_BOOM_SPEED 343.0f       /* m/s: crossing it upward is a sonic boom (as the audio's) */
#define LOGBOOK_BOOM_REARM 330.0f       /* below this the next crossing counts again */
#define LOGBOOK_NEAR_M 40.0f            /* a landmark within this (horizontally) is passed close */
#define LOGBOOK_NEAR_UP_M 60.0f         /* ... and at most this high above its site */

typedef struct LogRoute {
    uint16_t from, to;                  /* sites of the seed's home island */
    uint32_t count;                     /* deliveries along it */
    uint32_t best_ms;                   /* the fastest */
} LogRoute;

#define LOGBOOK_MAX_ISLES 512          /* the islands discovered kept by cell (the oldest give way) */
typedef struct LogIsle {
    int64_t cell_x, cell_z;
    bool landed;
} LogIsle;

typedef struct Logbook {
    uint64_t seed;
    uint32_t n_sites;                   /* of the island it was kept for: site numbers are below it */
    uint32_t flights, booms, deliveries, landings;
    uint32_t islands_seen, islands_landed;   /* the archipelago's: discovered, landed on */
    double flight_s, distance_m;
    float top_speed;                    /* m/s */
    float best_sink;                    /* m/s of the softest touchdown; < 0: none yet */
    uint32_t landed[ISLAND_MAX_SITES];  /* touchdowns per place */
    uint32_t passed[ISLAND_MAX_SITES];  /* passes close to each place's landmark */
    uint32_t n_routes;
    LogRoute routes[LOGBOOK_MAX_ROUTES];
    uint32_t n_isles;
    LogIsle isles[LOGBOOK_MAX_ISLES];   /* the islands discovered, oldest first: each counts once */
    /* not saved */
    bool active;                        /* loaded for an interactive run: records and saves */
    bool keep_file;                     /* the file is from a newer version (or could not be set
                                           aside): never written over */
    bool dirty;                         /* changed since the last save */
    bool boom_armed;
    int near_site;                      /* the landmark being passed (-1: none) */
} Logbook;

/* An empty logbook for a seed's island of n_sites places (not active). */
void logbook_reset(Logbook *lb, uint64_t seed, uint32_t n_sites);
/* "logbook-SEED.txt" */
void logbook_file_name(uint64_t seed, char *buf, size_t n);
/* Reads DIR's logbook of the seed into lb and makes it active. A missing file: a new logbook.
 * A damaged one: set aside by rename (one log line), a new logbook. A newer version's: kept,
 * a new logbook in memory that is never saved (one log line). Boot only (reads the file). */
void logbook_load(Logbook *lb, const char *dir, uint64_t seed, uint32_t n_sites);
/* logbook_load for a run that writes nothing (a shot): a damaged file is left where it is. */
void logbook_read(Logbook *lb, const char *dir, uint64_t seed, uint32_t n_sites);
/* Writes it when active, dirty and not keep_file (atomic: save_file_atomic). False with err. */
bool logbook_save(Logbook *lb, const char *dir, SkyError *err);

/* The text form, and back. logbook_parse: 1 read, 0 damaged (why says where), -1 newer version. */
size_t logbook_format(const Logbook *lb, char *buf, size_t n);
int logbook_parse(Logbook *lb, const char *text, size_t len, uint64_t seed, uint32_t n_sites, char *why, size_t why_n);

/* Recording (active logbooks only; each marks it dirty). */
void logbook_flight_start(Logbook *lb);
/* One fixed step of flight: its time, the distance flown, the speed (top speed, booms). */
void logbook_step(Logbook *lb, float dt, double moved_m, float speed);
void logbook_touchdown(Logbook *lb, int site, float sink);
/* The aircraft's nearest landmark site within reach (-1: none): counts each pass once. */
void logbook_near(Logbook *lb, int site);
/* A delivery along from -> to in time_s: true when it is the route's best (or its first). A
 * delivery that is not a route of the home island (from or to not one of its sites: UINT32_MAX
 * for another island's) is counted with no route. */
bool logbook_delivered(Logbook *lb, uint32_t from, uint32_t to, double time_s);
/* The island of cell (cell_x, cell_z) seen (landed: landed on): counted as discovered the first
 * time, as landed on the first landing. True when either count grew. */
bool logbook_island(Logbook *lb, int64_t cell_x, int64_t cell_z, bool landed);
const LogRoute *logbook_route(const Logbook *lb, uint32_t from, uint32_t to);   /* NULL: none yet */

#endif
