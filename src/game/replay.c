/* skyisles replays: recording a flight's quantised step inputs run-length coded, playing them
 * back, and the file: a fixed little-endian header, the generation parameters as text, the runs
 * and a checksum (docs/replay.md). Every count and offset of a file is checked before use. */
#include "replay.h"

#include <stdio.h>
#include <string.h>

bool replay_init(Replay *r, MemBudget *mem) {
    memset(r, 0, sizeof *r);
    r->runs = mem_carve(mem, REPLAY_FILE_MAX, 16);
    r->cap = r->runs ? REPLAY_FILE_MAX : 0;
    return r->runs != NULL;
}

static int16_t quant(float v) {
    if (!(v == v)) v = 0.0f;
    v = v < -1.0f ? -1.0f : (v > 1.0f ? 1.0f : v);
    float s = v * 32767.0f;
    return (int16_t)(s >= 0.0f ? (int)(s + 0.5f) : -(int)(-s + 0.5f));
}

void replay_dequantise(const ReplayInput *q, FlightInput *fi) {
    fi->pitch = (float)q->pitch / 32767.0f;
    fi->roll = (float)q->roll / 32767.0f;
    fi->yaw = (float)q->yaw / 32767.0f;
    fi->throttle = (float)q->throttle / 32767.0f;
    fi->boost = (q->boost & REPLAY_BTN_BOOST) != 0;
    fi->brake = (q->boost & REPLAY_BTN_BRAKE) != 0;
}

void replay_quantise(FlightInput *fi, ReplayInput *q) {
    q->pitch = quant(fi->pitch);
    q->roll = quant(fi->roll);
    q->yaw = quant(fi->yaw);
    q->throttle = quant(fi->throttle);
    q->boost = (uint8_t)((fi->boost ? REPLAY_BTN_BOOST : 0) | (fi->brake ? REPLAY_BTN_BRAKE : 0));
    replay_dequantise(q, fi);
}

uint32_t replay_params_text(const WorldGenParams *gen, char *out, size_t n) {
    WorldParams wp;
    memset(&wp, 0, sizeof wp);
    wp.gen = *gen;
    size_t used = 0;
    out[0] = 0;
    for (size_t i = 0; i < world_param_count(); i++) {
        const WorldParamDesc *d = world_param_at(i);
        if (d->cls != WORLD_PARAM_GEN) continue;
        char v[64];
        world_param_format(&wp, d, v, sizeof v);
        int k = snprintf(out + used, n - used, "%s=%s\n", d->name, v);
        if (k < 0 || (size_t)k >= n - used) break;   /* cannot happen with the shipped table */
        used += (size_t)k;
    }
    return (uint32_t)used;
}

void replay_begin(Replay *r, const ReplayMeta *m, const ReplayStart *s, uint64_t crashes, uint64_t respawns) {
    ReplayHeader *h = &r->h;
    memset(h, 0, sizeof *h);
    h->format = REPLAY_FORMAT_VERSION;
    h->sim_version = SIM_VERSION;
    h->seed = m->seed;
    h->pack_checksum = m->pack_checksum;
    h->flags = m->flags;
    h->model = m->model;
    h->start = *s;
    h->params_len = replay_params_text(m->gen, h->params, sizeof h->params);
    h->params_checksum = hash_fnv1a64(h->params, h->params_len, 0);
    r->crashes0 = crashes;
    r->respawns0 = respawns;
    r->mode = REPLAY_RECORDING;
}

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }

static void run_encode(uint8_t *p, uint16_t count, const ReplayInput *q) {
    put16(p, count);
    put16(p + 2, (uint16_t)q->pitch);
    put16(p + 4, (uint16_t)q->roll);
    put16(p + 6, (uint16_t)q->yaw);
    put16(p + 8, (uint16_t)q->throttle);
    p[10] = q->boost;
}

static void run_decode(const uint8_t *p, uint16_t *count, ReplayInput *q) {
    *count = get16(p);
    q->pitch = (int16_t)get16(p + 2);
    q->roll = (int16_t)get16(p + 4);
    q->yaw = (int16_t)get16(p + 6);
    q->throttle = (int16_t)get16(p + 8);
    q->boost = p[10];
}

bool replay_record(Replay *r, const ReplayInput *q) {
    if (r->mode != REPLAY_RECORDING) return false;
    ReplayHeader *h = &r->h;
    if (h->steps >= REPLAY_MAX_STEPS) {
        r->mode = REPLAY_ENDED;
        h->flags |= REPLAY_F_TRUNCATED;
        return false;
    }
    if (h->runs > 0) {
        uint8_t *last = r->runs + (size_t)(h->runs - 1) * REPLAY_RUN_BYTES;
        uint16_t count;
        ReplayInput prev;
        run_decode(last, &count, &prev);
        if (count < 0xffff && prev.pitch == q->pitch && prev.roll == q->roll && prev.yaw == q->yaw &&
            prev.throttle == q->throttle && prev.boost == q->boost) {
            put16(last, (uint16_t)(count + 1));
            h->steps++;
            return true;
        }
    }
    run_encode(r->runs + (size_t)h->runs * REPLAY_RUN_BYTES, 1, q);
    h->runs++;
    h->steps++;
    return true;
}

void replay_end(Replay *r, uint64_t end_hash, uint64_t crashes, uint32_t flags) {
    if (r->mode != REPLAY_RECORDING && r->mode != REPLAY_ENDED) return;
    r->h.end_hash = end_hash;
    r->h.crashes = (uint32_t)(crashes - r->crashes0);
    r->h.flags |= flags;
    r->mode = REPLAY_ENDED;
}

void replay_rewind(Replay *r) {
    r->at_run = 0;
    r->at_in_run = 0;
    r->step = 0;
}

bool replay_next(Replay *r, FlightInput *fi) {
    while (r->at_run < r->h.runs) {
        uint16_t count;
        ReplayInput q;
        run_decode(r->runs + (size_t)r->at_run * REPLAY_RUN_BYTES, &count, &q);
        if (r->at_in_run < count) {
            r->at_in_run++;
            r->step++;
            replay_dequantise(&q, fi);
            return true;
        }
        r->at_run++;
        r->at_in_run = 0;
    }
    memset(fi, 0, sizeof *fi);
    return false;
}
