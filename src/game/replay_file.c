/* skyisles replay files: the fixed little-endian header (docs/replay.md), written field by field
 * and read back with every count, size and value checked before use; the checksum; whether a
 * replay fits this world and build. A defect is one line naming it and what to do. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "continue.h"   /* GAME_POS_MAX */
#include "replay.h"

static const uint8_t k_magic[8] = {'S', 'K', 'Y', 'R', 'P', 'L', 'Y', 0x1a};

/* A cursor over the fixed header: the same field order for writing and reading. */
typedef struct Cur {
    uint8_t *p;
    const uint8_t *q;
    size_t at;
} Cur;

static void w_bytes(Cur *c, const void *v, size_t n) {
    memcpy(c->p + c->at, v, n);
    c->at += n;
}
static void w_u64(Cur *c, uint64_t v) {
    for (int i = 0; i < 8; i++) c->p[c->at++] = (uint8_t)(v >> (8 * i));
}
static void w_u32(Cur *c, uint32_t v) {
    for (int i = 0; i < 4; i++) c->p[c->at++] = (uint8_t)(v >> (8 * i));
}
static void w_f32(Cur *c, float f) {
    uint32_t v;
    memcpy(&v, &f, 4);
    w_u32(c, v);
}
static void w_f64(Cur *c, double d) {
    uint64_t v;
    memcpy(&v, &d, 8);
    w_u64(c, v);
}
static uint64_t r_u64(Cur *c) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)c->q[c->at++] << (8 * i);
    return v;
}
static uint32_t r_u32(Cur *c) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)c->q[c->at++] << (8 * i);
    return v;
}
static float r_f32(Cur *c) {
    uint32_t v = r_u32(c);
    float f;
    memcpy(&f, &v, 4);
    return f;
}
static double r_f64(Cur *c) {
    uint64_t v = r_u64(c);
    double d;
    memcpy(&d, &v, 8);
    return d;
}

/* The flight model and the start state, in one order for both directions. */
#define MODEL_FLOATS(X, m) X(m.speed_min) X(m.speed_max) X(m.speed_limit) X(m.pitch_rate) X(m.roll_rate) \
    X(m.yaw_rate) X(m.bank_turn) X(m.level_rate) X(m.throttle_rate)
#define START_DOUBLES(X, s) X(s.flight.x) X(s.flight.y) X(s.flight.z) X(s.flight.time_s) X(s.flight.cruise_y) \
    X(s.flight.avoid_y) X(s.safe_x) X(s.safe_y) X(s.safe_z)
#define START_FLOATS(X, s) X(s.flight.yaw) X(s.flight.pitch) X(s.flight.roll) X(s.flight.speed) \
    X(s.flight.throttle) X(s.flight.boost) X(s.flight.prop_angle) X(s.flight.yaw0) X(s.flight.probe_timer) \
    X(s.safe_yaw) X(s.safe_timer) X(s.crash_timer)

static void header_write(Cur *c, const ReplayHeader *h) {
    w_bytes(c, k_magic, 8);
    w_u32(c, h->format);
    w_u32(c, h->sim_version);
    w_u64(c, h->seed);
    w_u64(c, h->pack_checksum);
    w_u64(c, h->params_checksum);
    w_u32(c, h->steps);
    w_u32(c, h->runs);
    w_u32(c, h->flags);
    w_u32(c, h->crashes);
    w_u64(c, h->end_hash);
#define WF(v) w_f32(c, h->v);
#define WD(v) w_f64(c, h->v);
    MODEL_FLOATS(WF, model)
    START_DOUBLES(WD, start)
    START_FLOATS(WF, start)
    c->p[c->at++] = h->start.state;
    c->p[c->at++] = (uint8_t)((h->start.safe_valid ? 1 : 0) | (h->start.flight.on_ground ? 2 : 0));
    c->at = REPLAY_OFF_COURSE_TIME;   /* (where it already is: replay_store reads it from there) */
    w_f64(c, h->course_time_s);
    w_u32(c, h->n_splits);
    for (uint32_t i = 0; i < REPLAY_SPLITS_MAX; i++) w_f32(c, h->splits[i]);
    w_bytes(c, h->course, REPLAY_ID_MAX);
    w_u32(c, h->params_len);
}

static void header_read(Cur *c, ReplayHeader *h) {
    c->at = 8;
    h->format = r_u32(c);
    h->sim_version = r_u32(c);
    h->seed = r_u64(c);
    h->pack_checksum = r_u64(c);
    h->params_checksum = r_u64(c);
    h->steps = r_u32(c);
    h->runs = r_u32(c);
    h->flags = r_u32(c);
    h->crashes = r_u32(c);
    h->end_hash = r_u64(c);
#define RF(v) h->v = r_f32(c);
#define RD(v) h->v = r_f64(c);
    MODEL_FLOATS(RF, model)
    START_DOUBLES(RD, start)
    START_FLOATS(RF, start)
    h->start.state = c->q[c->at++];
    h->start.safe_valid = (c->q[c->at] & 1) != 0;
    h->start.flight.on_ground = (c->q[c->at++] & 2) != 0;
    h->course_time_s = r_f64(c);
    h->n_splits = r_u32(c);
    for (uint32_t i = 0; i < REPLAY_SPLITS_MAX; i++) h->splits[i] = r_f32(c);
    memcpy(h->course, c->q + c->at, REPLAY_ID_MAX);
    c->at += REPLAY_ID_MAX;
    h->params_len = r_u32(c);
}

size_t replay_header_encode(const Replay *r, uint8_t *out, size_t n) {
    if (n < REPLAY_FIXED_BYTES + r->h.params_len) return 0;
    memset(out, 0, REPLAY_FIXED_BYTES);
    Cur c = {.p = out};
    header_write(&c, &r->h);
    memcpy(out + REPLAY_FIXED_BYTES, r->h.params, r->h.params_len);
    return REPLAY_FIXED_BYTES + r->h.params_len;
}

uint64_t replay_file_checksum(const Replay *r, const uint8_t *head, size_t head_len) {
    uint64_t h = hash_fnv1a64(head, head_len, 0);
    return hash_fnv1a64(r->runs, (size_t)r->h.runs * REPLAY_RUN_BYTES, h);
}

static bool bad(SkyError *err, const char *what) {
    sky_error_set(err, SKY_ERR_INPUT, "replay: the file is damaged (%s): record the flight again", what);
    return false;
}

static bool finite_in(double v, double lim) { return v == v && v >= -lim && v <= lim; }

/* Values a damaged or crafted file could hold that the sim must never fly with. */
static bool values_sane(const ReplayHeader *h) {
    const FlightModel *m = &h->model;
    bool ok = m->speed_min > 0.0f && m->speed_min <= m->speed_max && m->speed_max <= m->speed_limit &&
              m->speed_limit <= 20000.0f;
#define RATE_OK(v) ok = ok && finite_in((double)h->v, 100.0) && h->v >= 0.0f;
    RATE_OK(model.pitch_rate) RATE_OK(model.roll_rate) RATE_OK(model.yaw_rate) RATE_OK(model.bank_turn)
    RATE_OK(model.level_rate) RATE_OK(model.throttle_rate)
    /* Positions as far as the game goes (--start, Fly to); the clock as before. */
#define POS_OK(v) ok = ok && finite_in(h->v, GAME_POS_MAX);
    START_DOUBLES(POS_OK, start)
    ok = ok && finite_in(h->start.flight.time_s, 1e7);
#define ANG_OK(v) ok = ok && finite_in((double)h->v, 1e5);
    START_FLOATS(ANG_OK, start)
    ok = ok && h->start.state <= 2 && finite_in(h->course_time_s, 1e7) && h->n_splits <= REPLAY_SPLITS_MAX;
    for (uint32_t i = 0; ok && i < h->n_splits; i++) ok = finite_in((double)h->splits[i], 1e7);
    return ok;
}

/* The runs cover exactly the steps, each run at least one step long, every input in range. */
static bool runs_sane(const Replay *r) {
    uint64_t sum = 0;
    for (uint32_t i = 0; i < r->h.runs; i++) {
        const uint8_t *p = r->runs + (size_t)i * REPLAY_RUN_BYTES;
        uint16_t count = (uint16_t)(p[0] | (p[1] << 8));
        if (count == 0 || p[10] > (REPLAY_BTN_BOOST | REPLAY_BTN_BRAKE)) return false;
        for (int a = 2; a < 10; a += 2)   /* -32768 is no quantised input: -1 is -32767 */
            if (p[a] == 0x00 && p[a + 1] == 0x80) return false;
        sum += count;
    }
    return sum == r->h.steps;
}

static bool parse_header(Replay *r, size_t len, SkyError *err) {
    const uint8_t *d = r->runs;
    if (len < 8 || memcmp(d, k_magic, 8)) {
        sky_error_set(err, SKY_ERR_INPUT, "replay: this is not a skyisles replay (%s): give a .skyr file the game wrote",
                      len < 8 ? "too short" : "no replay signature");
        return false;
    }
    if (len < REPLAY_FIXED_BYTES + 8) return bad(err, "cut short: its header is not whole");
    Cur c = {.q = d};
    ReplayHeader *h = &r->h;
    header_read(&c, h);
    if (h->format != REPLAY_FORMAT_VERSION) {
        sky_error_set(err, SKY_ERR_INPUT, "replay: format version %u, this build reads version %u: replay it with the "
                      "build that recorded it", h->format, REPLAY_FORMAT_VERSION);
        return false;
    }
    if (h->params_len >= REPLAY_PARAMS_MAX || h->steps > REPLAY_MAX_STEPS || h->runs > h->steps) return bad(err, "counts");
    if ((uint64_t)REPLAY_FIXED_BYTES + h->params_len + (uint64_t)h->runs * REPLAY_RUN_BYTES + 8u != len)
        return bad(err, "its size does not match its counts");
    if (memchr(h->course, 0, REPLAY_ID_MAX) == NULL) return bad(err, "course id");
    memcpy(h->params, d + REPLAY_FIXED_BYTES, h->params_len);
    h->params[h->params_len] = 0;
    if (strlen(h->params) != h->params_len) return bad(err, "parameter text");
    return true;
}

bool replay_parse_in_place(Replay *r, size_t len, SkyError *err) {
    r->mode = REPLAY_IDLE;
    if (!r->runs || len > r->cap) {
        sky_error_set(err, SKY_ERR_INPUT, "replay: the file is larger than any replay (%zu bytes, at most %u): give a "
                      ".skyr file the game wrote", len, (unsigned)REPLAY_FILE_MAX);
        return false;
    }
    if (!parse_header(r, len, err)) return false;
    size_t head = REPLAY_FIXED_BYTES + r->h.params_len, body = (size_t)r->h.runs * REPLAY_RUN_BYTES;
    const uint8_t *t = r->runs + head + body;
    uint64_t stored = 0;
    for (int i = 0; i < 8; i++) stored |= (uint64_t)t[i] << (8 * i);
    uint64_t sum = hash_fnv1a64(r->runs, head + body, 0);
    if (stored != sum) return bad(err, "checksum mismatch");
    if (hash_fnv1a64(r->h.params, r->h.params_len, 0) != r->h.params_checksum) return bad(err, "parameter checksum");
    memmove(r->runs, r->runs + head, body);
    if (!runs_sane(r)) return bad(err, "input runs");
    if (!values_sane(&r->h)) return bad(err, "start state or flight model out of range");
    r->mode = REPLAY_LOADED;
    replay_rewind(r);
    return true;
}

bool replay_parse(Replay *r, const uint8_t *data, size_t len, SkyError *err) {
    if (!r->runs || len > r->cap) return replay_parse_in_place(r, len, err);
    memcpy(r->runs, data, len);
    return replay_parse_in_place(r, len, err);
}

bool replay_check(const Replay *r, uint64_t pack_checksum, const WorldGenParams *gen, const char *what, SkyError *err) {
    const ReplayHeader *h = &r->h;
    if (h->sim_version != SIM_VERSION) {
        sky_error_set(err, SKY_ERR_INPUT, "replay %s: recorded by simulation version %u, this build flies version %u: "
                      "replay it with a build of version %u", what, h->sim_version, SIM_VERSION, h->sim_version);
        return false;
    }
    if (h->pack_checksum != pack_checksum) {
        sky_error_set(err, SKY_ERR_INPUT, "replay %s: recorded with another pack (checksum %016llx, this one %016llx): "
                      "replay it with --pak FILE of that pack", what, (unsigned long long)h->pack_checksum,
                      (unsigned long long)pack_checksum);
        return false;
    }
    if (gen) {
        char text[REPLAY_PARAMS_MAX];
        uint32_t n = replay_params_text(gen, text, sizeof text);
        if (n != h->params_len || memcmp(text, h->params, n)) {
            sky_error_set(err, SKY_ERR_INPUT, "replay %s: recorded with other world parameters: fly it again in this "
                          "world, or replay it with --replay (which sets its parameters)", what);
            return false;
        }
    }
    return true;
}

bool replay_apply_params(const Replay *r, WorldParams *wp, const char *what, SkyError *err) {
    char line[160];
    const char *p = r->h.params;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (n >= sizeof line) return bad(err, "a parameter line is too long");
        memcpy(line, p, n);
        line[n] = 0;
        SkyError perr = {0};
        if (!world_param_parse(wp, line, &perr)) {
            sky_error_set(err, SKY_ERR_INPUT, "replay %s: its world parameter '%s' is not one this build knows (%s): "
                          "replay it with the build that recorded it", what, line, perr.msg);
            return false;
        }
        p += n + (nl ? 1 : 0);
    }
    return true;
}
