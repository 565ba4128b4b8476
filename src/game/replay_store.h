/* skyisles replay files on disk: save and load (atomic, no heap), the last flights in
 * replays/ beside the settings (a ring of REPLAY_KEEP_LAST files, so the folder stays under
 * REPLAY_KEEP_LAST * REPLAY_FILE_MAX bytes), and the best run of each course by its id. */
#ifndef SKYISLES_GAME_REPLAY_STORE_H
#define SKYISLES_GAME_REPLAY_STORE_H

#include "replay.h"

#define REPLAY_DIR "replays"
#define REPLAY_KEEP_LAST 8

typedef struct ReplayStore {
    char config[512];   /* the config folder */
    char dir[600];      /* CONFIG/replays */
    bool ok;            /* there is a config folder to keep them in */
} ReplayStore;

/* A finished course run to keep as the best. */
typedef struct ReplayBest {
    double time_s;              /* the course's time */
    const float *splits;        /* seconds at each ring passed */
    uint32_t n_splits;
    uint64_t end_hash;          /* play_sim_hash now (the run ends here) */
    uint64_t crashes;           /* Play.crashes now */
} ReplayBest;

/* Writes r to path atomically; false with one line in err. */
bool replay_save(const Replay *r, const char *path, SkyError *err);
/* Reads path into r's carved storage and parses it; false with one line in err (the file named). */
bool replay_load(Replay *r, const char *path, SkyError *err);
/* CONFIG/replays (made on the first write); false (flights not kept) without a config folder. */
bool replay_store_open(ReplayStore *s, const char *config_dir);
/* Keeps a finished flight as one of the last REPLAY_KEEP_LAST (the oldest file is replaced);
 * path gets the file written. False when nothing was written (err set on a write failure). */
bool replay_keep_last(ReplayStore *s, const Replay *r, char *path, size_t n, SkyError *err);
/* Keeps the recording so far as course id's best run when it is faster than the one kept (or
 * none is): 1 kept, 0 not faster, -1 failed (err). The recording goes on unchanged. */
int replay_keep_best(ReplayStore *s, const char *id, Replay *rec, const ReplayBest *b, SkyError *err);
/* Stamps the recording so far as a finished run of course id (its time, ring times, end hash and
 * crashes), as a best run is kept. */
void replay_stamp_course(Replay *rec, const char *id, const ReplayBest *b);
/* Loads course id's best run and checks it fits this pack and world (replay_check). */
bool replay_load_best(ReplayStore *s, const char *id, Replay *out, uint64_t pack_checksum, const WorldGenParams *gen,
                      SkyError *err);

#endif
