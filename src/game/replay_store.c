/* skyisles replay files on disk: one replay written atomically (a temporary file beside it,
 * synced, renamed over), read back into memory carved at boot (no heap), the last flights in a
 * bounded ring of files in replays/ beside the settings, and the best run of each course. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay_store.h"
#include "savefile.h"

/* Header (with its parameter text), runs, checksum: the file of docs/replay.md. */
static bool write_parts(int fd, const Replay *r) {
    static uint8_t head[REPLAY_FIXED_BYTES + REPLAY_PARAMS_MAX];   /* main thread only */
    size_t n = replay_header_encode(r, head, sizeof head);
    if (n == 0) return false;
    uint64_t sum = replay_file_checksum(r, head, n);
    uint8_t tail[8];
    for (int i = 0; i < 8; i++) tail[i] = (uint8_t)(sum >> (8 * i));
    return file_write_all(fd, head, n) && file_write_all(fd, r->runs, (size_t)r->h.runs * REPLAY_RUN_BYTES) &&
           file_write_all(fd, tail, sizeof tail);
}

bool replay_save(const Replay *r, const char *path, SkyError *err) {
    char tmp[1100];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp) {
        sky_error_set(err, SKY_ERR_INPUT, "replay: the path %s is too long: give a shorter one", path);
        return false;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        sky_error_set(err, SKY_ERR_START, "replay: cannot write %s (%s): the flight is not kept; check the folder is "
                      "writable", tmp, strerror(errno));
        return false;
    }
    errno = 0;
    int saved = file_commit(fd, write_parts(fd, r), tmp, path);
    if (saved)
        sky_error_set(err, SKY_ERR_START, "replay: saving %s failed (%s): the previous file is kept; free some space",
                      path, strerror(saved));
    return saved == 0;
}

bool replay_load(Replay *r, const char *path, SkyError *err) {
    r->mode = REPLAY_IDLE;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        sky_error_set(err, SKY_ERR_INPUT, "replay: cannot open %s (%s): give the path of a .skyr file", path,
                      strerror(errno));
        return false;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
        close(fd);
        sky_error_set(err, SKY_ERR_INPUT, "replay: %s is not a file (a folder?): give the path of a .skyr file", path);
        return false;
    }
    size_t len = 0;
    bool over = false;
    for (;;) {
        if (len == r->cap) {   /* one byte more than any replay: too large */
            uint8_t extra;
            over = read(fd, &extra, 1) > 0;
            break;
        }
        ssize_t k = read(fd, r->runs + len, r->cap - len);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        len += (size_t)k;
    }
    close(fd);
    if (over) {
        sky_error_set(err, SKY_ERR_INPUT, "replay: %s is larger than any replay (over %u bytes): give a .skyr file the "
                      "game wrote", path, (unsigned)REPLAY_FILE_MAX);
        return false;
    }
    SkyError perr = {0};
    if (!replay_parse_in_place(r, len, &perr)) {
        sky_error_set(err, SKY_ERR_INPUT, "%s (%s)", perr.msg, path);
        return false;
    }
    return true;
}

bool replay_store_open(ReplayStore *s, const char *config_dir) {
    memset(s, 0, sizeof *s);
    if (!config_dir || !config_dir[0]) return false;
    if ((size_t)snprintf(s->config, sizeof s->config, "%s", config_dir) >= sizeof s->config ||
        (size_t)snprintf(s->dir, sizeof s->dir, "%s/%s", config_dir, REPLAY_DIR) >= sizeof s->dir)
        return false;
    s->ok = true;
    return true;
}

/* The folder, made on the first write (a first start has no config folder yet). False, with a
 * debug line, when it cannot be: the settings already said the config folder is unusable. */
static bool store_ready(const ReplayStore *s) {
    if (!s->ok) return false;
    if (!save_make_dirs(s->dir)) {   /* the config folder and replays/ in it */
        log_debug("replay: cannot create %s (%s): flights are not kept", s->dir, strerror(errno));
        return false;
    }
    return true;
}

/* The slot to write next: a missing one, else the oldest (by modification time). */
static int oldest_slot(const ReplayStore *s) {
    int best = 0;
    struct timespec best_t = {0, 0};
    for (int i = 0; i < REPLAY_KEEP_LAST; i++) {
        char path[700];
        snprintf(path, sizeof path, "%s/last-%d.skyr", s->dir, i);
        struct stat st;
        if (stat(path, &st) != 0) return i;
        struct timespec t = st.st_mtim;
        if (i == 0 || t.tv_sec < best_t.tv_sec || (t.tv_sec == best_t.tv_sec && t.tv_nsec < best_t.tv_nsec)) {
            best = i;
            best_t = t;
        }
    }
    return best;
}

bool replay_keep_last(ReplayStore *s, const Replay *r, char *path, size_t n, SkyError *err) {
    if (!store_ready(s)) return false;
    if (r->h.steps == 0) return false;   /* nothing flown */
    snprintf(path, n, "%s/last-%d.skyr", s->dir, oldest_slot(s));
    return replay_save(r, path, err);
}

/* replays/best-ID.skyr, the id kept to letters, digits, '-' and '_'. */
static bool best_path(const ReplayStore *s, const char *id, char *out, size_t n) {
    size_t len = strlen(id);
    if (len == 0 || len >= REPLAY_ID_MAX) return false;
    for (size_t i = 0; i < len; i++) {
        char ch = id[i];
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_';
        if (!ok) return false;
    }
    return (size_t)snprintf(out, n, "%s/best-%s.skyr", s->dir, id) < n;
}

/* The course time of a stored best run, from its header alone (-1 when none or unreadable). */
static double stored_time(const char *path) {
    uint8_t head[REPLAY_FIXED_BYTES];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1.0;
    ssize_t k = read(fd, head, sizeof head);
    close(fd);
    if (k != (ssize_t)sizeof head || memcmp(head, "SKYRPLY", 7)) return -1.0;
    double t;
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)head[REPLAY_OFF_COURSE_TIME + i] << (8 * i);
    memcpy(&t, &v, sizeof t);
    return t == t && t > 0.0 ? t : -1.0;
}

void replay_stamp_course(Replay *rec, const char *id, const ReplayBest *b) {
    ReplayHeader *h = &rec->h;
    snprintf(h->course, sizeof h->course, "%s", id);
    h->course_time_s = b->time_s;
    h->n_splits = b->n_splits < REPLAY_SPLITS_MAX ? b->n_splits : REPLAY_SPLITS_MAX;
    for (uint32_t i = 0; i < h->n_splits; i++) h->splits[i] = b->splits[i];
    h->end_hash = b->end_hash;
    h->crashes = (uint32_t)(b->crashes - rec->crashes0);
}

int replay_keep_best(ReplayStore *s, const char *id, Replay *rec, const ReplayBest *b, SkyError *err) {
    char path[700];
    if (!store_ready(s)) {
        sky_error_set(err, SKY_ERR_START, "replay: no replays folder to keep the best run of %s in (no usable config "
                      "folder): give --config DIR", id);
        return -1;
    }
    if (!best_path(s, id, path, sizeof path)) {
        sky_error_set(err, SKY_ERR_INPUT, "replay: course id '%s' cannot name a file (letters, digits, - and _, at most "
                      "%u): give the course a plain id", id, REPLAY_ID_MAX - 1);
        return -1;
    }
    if (rec->mode != REPLAY_RECORDING && rec->mode != REPLAY_ENDED) return 0;
    double old = stored_time(path);
    if (old > 0.0 && old <= b->time_s) return 0;
    ReplayHeader keep = rec->h;
    replay_stamp_course(rec, id, b);
    bool ok = replay_save(rec, path, err);
    rec->h = keep;   /* the recording itself goes on as it was */
    return ok ? 1 : -1;
}

bool replay_load_best(ReplayStore *s, const char *id, Replay *out, uint64_t pack_checksum, const WorldGenParams *gen,
                      SkyError *err) {
    char path[700];
    if (!s->ok || !best_path(s, id, path, sizeof path)) {
        sky_error_set(err, SKY_ERR_INPUT, "replay: no best run can be kept for course id '%s': give the course a plain id",
                      id);
        return false;
    }
    struct stat st;
    if (stat(path, &st) != 0) {
        sky_error_set(err, SKY_ERR_INPUT, "replay: no best run of course %s yet: fly it to set one", id);
        return false;
    }
    return replay_load(out, path, err) && replay_check(out, pack_checksum, gen, path, err);
}
