/* skyisles logbook: recording, the text file and its checks (logbook.h). The file ends with an
 * FNV-1a 64 of everything before its last line, so a cut or an edited byte is found; any line
 * that does not parse makes the file damaged, and a damaged file is set aside, never lost. */
#include "logbook.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "savefile.h"

#define MAGIC "skyisles-logbook"

void logbook_reset(Logbook *lb, uint64_t seed, uint32_t n_sites) {
    memset(lb, 0, sizeof *lb);
    lb->seed = seed;
    lb->n_sites = n_sites < ISLAND_MAX_SITES ? n_sites : ISLAND_MAX_SITES;
    lb->best_sink = -1.0f;
    lb->boom_armed = true;
    lb->near_site = -1;
}

void logbook_file_name(uint64_t seed, char *buf, size_t n) { snprintf(buf, n, "logbook-%" PRIu64 ".txt", seed); }

/* ---------------------------------------------------------------- recording */
void logbook_flight_start(Logbook *lb) {
    if (!lb->active) return;
    lb->flights++;
    lb->boom_armed = true;
    lb->near_site = -1;
    lb->dirty = true;
}

void logbook_step(Logbook *lb, float dt, double moved_m, float speed) {
    if (!lb->active) return;
    lb->flight_s += dt;
    if (moved_m > 0.0 && moved_m < 1000.0) lb->distance_m += moved_m;   /* a jump or a restart is not flown */
    if (speed > lb->top_speed) lb->top_speed = speed;
    if (lb->boom_armed && speed >= LOGBOOK_BOOM_SPEED) {
        lb->booms++;
        lb->boom_armed = false;
    } else if (speed < LOGBOOK_BOOM_REARM) {
        lb->boom_armed = true;
    }
    lb->dirty = true;
}

void logbook_touchdown(Logbook *lb, int site, float sink) {
    if (!lb->active) return;
    lb->landings++;
    if (site >= 0 && (uint32_t)site < lb->n_sites) lb->landed[site]++;
    if (sink >= 0.0f && (lb->best_sink < 0.0f || sink < lb->best_sink)) lb->best_sink = sink;
    lb->dirty = true;
}

void logbook_near(Logbook *lb, int site) {
    if (!lb->active || site == lb->near_site) return;
    lb->near_site = site;
    if (site >= 0 && (uint32_t)site < lb->n_sites) {
        lb->passed[site]++;
        lb->dirty = true;
    }
}

bool logbook_island(Logbook *lb, int64_t cell_x, int64_t cell_z, bool landed) {
    if (!lb->active) return false;
    LogIsle *e = NULL;
    for (uint32_t i = 0; i < lb->n_isles && !e; i++)
        if (lb->isles[i].cell_x == cell_x && lb->isles[i].cell_z == cell_z) e = &lb->isles[i];
    bool grew = false;
    if (!e) {
        if (lb->n_isles == LOGBOOK_MAX_ISLES) {   /* full: the oldest gives way */
            memmove(lb->isles, lb->isles + 1, sizeof lb->isles[0] * (LOGBOOK_MAX_ISLES - 1));
            lb->n_isles--;
        }
        e = &lb->isles[lb->n_isles++];
        *e = (LogIsle){cell_x, cell_z, false};
        if (lb->islands_seen < UINT32_MAX) lb->islands_seen++;
        grew = true;
    }
    if (landed && !e->landed) {
        e->landed = true;
        if (lb->islands_landed < UINT32_MAX) lb->islands_landed++;
        grew = true;
    }
    lb->dirty |= grew;
    return grew;
}

const LogRoute *logbook_route(const Logbook *lb, uint32_t from, uint32_t to) {
    for (uint32_t i = 0; i < lb->n_routes; i++)
        if (lb->routes[i].from == from && lb->routes[i].to == to) return &lb->routes[i];
    return NULL;
}

bool logbook_delivered(Logbook *lb, uint32_t from, uint32_t to, double time_s) {
    if (!lb->active) return false;
    uint32_t ms = time_s <= 0.0 ? 0u : time_s >= 4.0e6 ? 4000000000u : (uint32_t)(time_s * 1000.0 + 0.5);
    lb->deliveries++;
    lb->dirty = true;
    if (from >= lb->n_sites || to >= lb->n_sites) return false;   /* not a route of the home island: counted alone */
    LogRoute *r = (LogRoute *)logbook_route(lb, from, to);
    if (!r) {
        if (lb->n_routes >= LOGBOOK_MAX_ROUTES) return false;   /* full: counted, no best kept */
        r = &lb->routes[lb->n_routes++];
        *r = (LogRoute){(uint16_t)from, (uint16_t)to, 0, ms};
        r->count = 1;
        return true;
    }
    r->count++;
    if (ms >= r->best_ms) return false;
    r->best_ms = ms;
    return true;
}

/* ---------------------------------------------------------------- the file */
typedef struct Out { char *buf; size_t n, len; } Out;

static void put(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Out *o, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(o->len < o->n ? o->buf + o->len : NULL, o->len < o->n ? o->n - o->len : 0, fmt, ap);
    va_end(ap);
    if (k > 0) o->len += (size_t)k;
}

size_t logbook_format(const Logbook *lb, char *buf, size_t n) {
    Out o = {buf, n, 0};
    put(&o, "# skyisles logbook of one seed's island, written by the game at the moments it saves its settings.\n"
            "# The last line checks the rest: an edited file is set aside as damaged.\n");
    put(&o, MAGIC " %d\nseed %" PRIu64 "\nsites %u\nflights %u\nlandings %u\ndeliveries %u\nbooms %u\n", LOGBOOK_VERSION,
        lb->seed, lb->n_sites, lb->flights, lb->landings, lb->deliveries, lb->booms);
    put(&o, "islands_seen %u\nislands_landed %u\n", lb->islands_seen, lb->islands_landed);
    put(&o, "flight_s %.3f\ndistance_m %.1f\ntop_speed %.2f\nbest_sink %.3f\n", lb->flight_s, lb->distance_m,
        (double)lb->top_speed, (double)lb->best_sink);
    for (uint32_t i = 0; i < lb->n_sites; i++)
        if (lb->landed[i]) put(&o, "landed %u %u\n", i, lb->landed[i]);
    for (uint32_t i = 0; i < lb->n_sites; i++)
        if (lb->passed[i]) put(&o, "passed %u %u\n", i, lb->passed[i]);
    for (uint32_t i = 0; i < lb->n_routes; i++)
        put(&o, "route %u %u %u %u\n", lb->routes[i].from, lb->routes[i].to, lb->routes[i].count, lb->routes[i].best_ms);
    for (uint32_t i = 0; i < lb->n_isles; i++)
        put(&o, "island %" PRId64 " %" PRId64 " %d\n", lb->isles[i].cell_x, lb->isles[i].cell_z, lb->isles[i].landed ? 1 : 0);
    uint64_t h = hash_fnv1a64(buf, o.len < n ? o.len : 0, 0);
    put(&o, "end %016" PRIx64 "\n", h);
    return o.len;
}

/* ---------------------------------------------------------------- reading */
typedef struct In { const char *p, *end; uint32_t line; char *why; size_t why_n; } In;

static bool fail(In *in, const char *what) {
    snprintf(in->why, in->why_n, "line %u: %s", in->line, what);
    return false;
}

/* Unsigned integer token up to max, then a space or the end of the line. */
static bool num(const char **s, uint64_t max, uint64_t *out) {
    const char *p = *s;
    uint64_t v = 0;
    if (*p < '0' || *p > '9') return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (max - (uint64_t)(*p - '0')) / 10) return false;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (*p == ' ') p++;
    else if (*p) return false;
    *s = p;
    *out = v;
    return true;
}

/* Signed integer token (int64), then a space or the end of the line. */
static bool snum(const char **s, int64_t *out) {
    bool neg = **s == '-';
    const char *p = *s + (neg ? 1 : 0);
    uint64_t v;
    if (!num(&p, (uint64_t)INT64_MAX, &v)) return false;
    *out = neg ? -(int64_t)v : (int64_t)v;
    *s = p;
    return true;
}

static bool real(const char *s, double lo, double hi, double *out) {
    char *e;
    errno = 0;
    double v = strtod(s, &e);
    if (e == s || *e || errno || !isfinite(v) || v < lo || v > hi) return false;
    *out = v;
    return true;
}

/* One "key values" line (NUL-terminated, no newline). */
static bool parse_line(Logbook *lb, In *in, const char *key, const char *v, bool same_island) {
    static const struct { const char *key; size_t off; } counts[] = {
        {"flights", offsetof(Logbook, flights)}, {"landings", offsetof(Logbook, landings)},
        {"deliveries", offsetof(Logbook, deliveries)}, {"booms", offsetof(Logbook, booms)},
        {"islands_seen", offsetof(Logbook, islands_seen)}, {"islands_landed", offsetof(Logbook, islands_landed)},
    };
    uint64_t a, b, c, d;
    double x;
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (!strcmp(key, counts[i].key)) {
            if (!num(&v, UINT32_MAX, &a) || *v) return fail(in, "a count out of range");
            *(uint32_t *)((char *)lb + counts[i].off) = (uint32_t)a;
            return true;
        }
    if (!strcmp(key, "flight_s") || !strcmp(key, "distance_m")) {
        if (!real(v, 0.0, 1e15, &x)) return fail(in, "a total out of range");
        *(key[0] == 'f' ? &lb->flight_s : &lb->distance_m) = x;
        return true;
    }
    if (!strcmp(key, "top_speed") || !strcmp(key, "best_sink")) {
        if (!real(v, key[0] == 't' ? 0.0 : -1.0, 1e6, &x)) return fail(in, "a speed out of range");
        *(key[0] == 't' ? &lb->top_speed : &lb->best_sink) = (float)x;
        return true;
    }
    if (!strcmp(key, "landed") || !strcmp(key, "passed")) {
        if (!num(&v, ISLAND_MAX_SITES - 1, &a) || !num(&v, UINT32_MAX, &b) || *v) return fail(in, "a place out of range");
        if (same_island && a < lb->n_sites) (key[0] == 'l' ? lb->landed : lb->passed)[a] = (uint32_t)b;
        return true;
    }
    if (!strcmp(key, "route")) {
        if (!num(&v, ISLAND_MAX_SITES - 1, &a) || !num(&v, ISLAND_MAX_SITES - 1, &b) || !num(&v, UINT32_MAX, &c) ||
            !num(&v, UINT32_MAX, &d) || *v || c == 0)
            return fail(in, "a route out of range");
        if (lb->n_routes >= LOGBOOK_MAX_ROUTES) return fail(in, "too many routes");
        if (same_island && a < lb->n_sites && b < lb->n_sites)
            lb->routes[lb->n_routes++] = (LogRoute){(uint16_t)a, (uint16_t)b, (uint32_t)c, (uint32_t)d};
        return true;
    }
    if (!strcmp(key, "island")) {   /* the islands are the world's: kept whatever the home island's places */
        int64_t cx, cz;
        if (!snum(&v, &cx) || !snum(&v, &cz) || !num(&v, 1, &a) || *v) return fail(in, "an island out of range");
        if (lb->n_isles >= LOGBOOK_MAX_ISLES) return fail(in, "too many islands");
        lb->isles[lb->n_isles++] = (LogIsle){cx, cz, a == 1};
        return true;
    }
    return fail(in, "an unknown line");
}

/* The next line into buf (NUL-terminated): 1, 0 at the end of the text, -1 on a line too long. */
static int next_line(In *in, char *buf, size_t n, const char **start) {
    if (in->p >= in->end) return 0;
    const char *nl = memchr(in->p, '\n', (size_t)(in->end - in->p));
    size_t len = (size_t)((nl ? nl : in->end) - in->p);
    *start = in->p;
    in->line++;
    if (len >= n || memchr(in->p, 0, len)) return fail(in, "a line too long or holding a NUL") ? 1 : -1;
    memcpy(buf, in->p, len);
    buf[len] = 0;
    in->p = nl ? nl + 1 : in->end;
    return 1;
}

/* The header, seed, sites and end lines; the rest goes to parse_line. 1 read, 0 damaged, -1 newer. */
static int parse_all(Logbook *lb, In *in, uint64_t seed, uint32_t n_sites) {
    char line[160];
    const char *start = in->p, *text = in->p;
    bool header = false, have_seed = false, same = false, ended = false;
    int k;
    uint64_t v;
    while ((k = next_line(in, line, sizeof line, &start)) > 0) {
        if (line[0] == '#' || !line[0]) continue;
        if (ended) return fail(in, "text after the end line");
        char *val = strchr(line, ' ');
        if (!val) return fail(in, "a line without a value");
        *val++ = 0;
        const char *vp = val;
        if (!header) {
            if (strcmp(line, MAGIC) || !num(&vp, UINT32_MAX, &v) || *vp) return fail(in, "not a skyisles logbook");
            if (v > LOGBOOK_VERSION) return -1;
            /* Version 1 (before the archipelago's counts) reads as is: its islands count from 0. */
            if (v < 1) return fail(in, "a version this build does not read");
            header = true;
        } else if (!strcmp(line, "end")) {
            char want[17];
            snprintf(want, sizeof want, "%016" PRIx64, hash_fnv1a64(text, (size_t)(start - text), 0));
            if (strcmp(val, want)) return fail(in, "the check does not match: the file was cut or edited");
            ended = true;
        } else if (!strcmp(line, "seed")) {
            if (!num(&vp, UINT64_MAX, &v) || *vp || v != seed) return fail(in, "another seed's logbook");
            have_seed = true;
        } else if (!strcmp(line, "sites")) {
            if (!num(&vp, ISLAND_MAX_SITES, &v) || *vp) return fail(in, "a place count out of range");
            same = v == n_sites;   /* another island (the codex changed): its places are not these */
        } else if (!have_seed || !parse_line(lb, in, line, val, same)) {
            return have_seed ? 0 : fail(in, "no seed line before the records");
        }
    }
    if (k < 0) return 0;
    if (!header) return fail(in, "not a skyisles logbook");
    if (!ended) return fail(in, "no end line: the file is cut short");
    return 1;
}

int logbook_parse(Logbook *lb, const char *text, size_t len, uint64_t seed, uint32_t n_sites, char *why, size_t why_n) {
    In in = {text, text + len, 0, why, why_n};
    if (why_n) why[0] = 0;
    logbook_reset(lb, seed, n_sites);
    int r = parse_all(lb, &in, seed, n_sites);
    if (r != 1) logbook_reset(lb, seed, n_sites);
    return r;
}

/* ---------------------------------------------------------------- load and save */
/* The whole file into buf: its length, -1 (errno) when it cannot be read, -2 when too large. */
static long read_file(const char *path, char *buf, size_t cap) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t n = 0;
    for (;;) {
        ssize_t k = read(fd, buf + n, cap - n);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            int e = errno;
            close(fd);
            errno = e;
            return -1;
        }
        if (k == 0) break;
        n += (size_t)k;
        if (n == cap) {
            close(fd);
            return -2;
        }
    }
    close(fd);
    return (long)n;
}

/* Renames the damaged file beside: the first of NAME.damaged, NAME.damaged-2 ... -9 not taken. */
static bool set_aside(const char *path, char *kept, size_t kept_n) {
    for (int i = 1; i <= 9; i++) {
        if (i == 1) snprintf(kept, kept_n, "%s.damaged", path);
        else snprintf(kept, kept_n, "%s.damaged-%d", path, i);
        if (access(kept, F_OK) == 0) continue;
        return rename(path, kept) == 0;
    }
    return false;
}

static void load(Logbook *lb, const char *dir, uint64_t seed, uint32_t n_sites, bool may_set_aside);

void logbook_load(Logbook *lb, const char *dir, uint64_t seed, uint32_t n_sites) { load(lb, dir, seed, n_sites, true); }

void logbook_read(Logbook *lb, const char *dir, uint64_t seed, uint32_t n_sites) {
    load(lb, dir, seed, n_sites, false);
    lb->keep_file = true;
}

static void load(Logbook *lb, const char *dir, uint64_t seed, uint32_t n_sites, bool may_set_aside) {
    static char text[LOGBOOK_MAX_BYTES + 1];
    char name[64], path[1024], why[160] = "", kept[1100];
    logbook_reset(lb, seed, n_sites);
    lb->active = true;
    logbook_file_name(seed, name, sizeof name);
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) {
        log_warn("skyisles: the config folder path is too long for the logbook: it is not kept this run");
        lb->keep_file = true;
        return;
    }
    long n = read_file(path, text, sizeof text);
    if (n == -1 && errno == ENOENT) return;   /* a first flight on this seed */
    int r = n == -2 ? 0 : n < 0 ? -2 : logbook_parse(lb, text, (size_t)n, seed, n_sites, why, sizeof why);
    lb->active = true;
    if (r == 1) return;
    if (r == -1 || r == -2) {
        log_warn("skyisles: the logbook %s is %s: it is left as it is and this run's flights are not kept in it", path,
                 r == -1 ? "from a newer skyisles" : "unreadable");
        lb->keep_file = true;
        return;
    }
    if (!why[0]) snprintf(why, sizeof why, "larger than %u bytes", LOGBOOK_MAX_BYTES);
    if (!may_set_aside) {
        log_warn("skyisles: the logbook %s is damaged (%s): shown empty and left as it is (this run writes nothing)",
                 path, why);
        logbook_reset(lb, seed, n_sites);
        lb->active = true;
    } else if (set_aside(path, kept, sizeof kept)) {
        log_warn("skyisles: the logbook %s is damaged (%s): kept as %s, a new logbook begins", path, why, kept);
    } else {
        log_warn("skyisles: the logbook %s is damaged (%s) and cannot be set aside: it is left as it is and not "
                 "written this run", path, why);
        lb->keep_file = true;
    }
}

bool logbook_save(Logbook *lb, const char *dir, SkyError *err) {
    static char text[LOGBOOK_MAX_BYTES];   /* saves happen on the main thread only */
    if (!lb->active || lb->keep_file || !lb->dirty) return true;
    size_t len = logbook_format(lb, text, sizeof text);
    if (len >= sizeof text) {
        sky_error_set(err, SKY_ERR_START, "skyisles: the logbook is too long to save (%zu bytes)", len);
        return false;
    }
    char name[64];
    logbook_file_name(lb->seed, name, sizeof name);
    if (!save_file_atomic(dir, name, text, len, "the logbook", err)) return false;
    lb->dirty = false;
    return true;
}
