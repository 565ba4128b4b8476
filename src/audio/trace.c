/* src/audio: parameter traces, the synth's recorded inputs: building one, its text form (parsed
 * with a "name:line: what" message per defect) and the inputs at any time (keys interpolated). */
#include "audio/audio_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRACE_LINE_MAX 512
#define TRACE_TOKENS 12

void audio_trace_init(AudioTrace *t, AudioTraceKey *keys, uint32_t cap_keys, AudioTraceEvent *events,
                      uint32_t cap_events, AudioTraceVolume *volumes, uint32_t cap_volumes) {
    *t = (AudioTrace){.keys = keys, .events = events, .volumes = volumes,
                      .cap_keys = keys ? cap_keys : 0, .cap_events = events ? cap_events : 0,
                      .cap_volumes = volumes ? cap_volumes : 0};
}

bool audio_trace_add_key(AudioTrace *t, double time, const AudioParams *p) {
    if (t->n_keys >= t->cap_keys || !(time >= 0.0) || (t->n_keys && time < t->keys[t->n_keys - 1].t)) return false;
    t->keys[t->n_keys++] = (AudioTraceKey){time, *p};
    return true;
}

bool audio_trace_add_event(AudioTrace *t, double time, int id, float arg) {
    if (t->n_events >= t->cap_events || !(time >= 0.0) || id < 0 || id > 0xffff ||
        (t->n_events && time < t->events[t->n_events - 1].t))
        return false;
    t->events[t->n_events++] = (AudioTraceEvent){time, (uint16_t)id, arg};
    return true;
}

bool audio_trace_add_volume(AudioTrace *t, const AudioTraceVolume *v) {
    if (t->n_volumes >= t->cap_volumes || !(v->t >= 0.0) || (t->n_volumes && v->t < t->volumes[t->n_volumes - 1].t))
        return false;
    t->volumes[t->n_volumes++] = *v;
    return true;
}

/* ---------------------------------------------------------------- text form */
typedef struct LineCtx { const char *name; int line; SkyError *err; } LineCtx;

static bool fail(const LineCtx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(const LineCtx *c, const char *fmt, ...) {
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    sky_error_set(c->err, SKY_ERR_INPUT, "%s:%d: %s", c->name, c->line, what);
    return false;
}

static bool num(const LineCtx *c, const char *tok, const char *what, double lo, double hi, double *out) {
    char *end;
    double v = strtod(tok, &end);
    if (end == tok || *end || v != v) return fail(c, "%s: '%s' is not a number", what, tok);
    if (v < lo || v > hi) return fail(c, "%s = %g is out of range %g..%g", what, v, lo, hi);
    *out = v;
    return true;
}

static const char *MODE_NAMES[AUDIO_MODE_COUNT] = {"flight", "paused", "attract", "title"};

static int mode_from_word(const char *w) {
    for (int i = 0; i < AUDIO_MODE_COUNT; i++)
        if (!strcmp(w, MODE_NAMES[i])) return i;
    return -1;
}

#define TIME_MAX 86400.0

static bool parse_key(AudioTrace *t, const LineCtx *c, char **tok, int n) {
    static const char *field[] = {"time", "throttle", "airspeed", "boost", "cloud", "terrain_near", "enclosure", "depth"};
    if (n != 9) return fail(c, "a key line has 9 fields (time throttle airspeed boost cloud terrain_near enclosure depth mode), this one %d", n);
    double v[8];
    for (int i = 0; i < 8; i++) {
        double hi = i == 0 ? TIME_MAX : (i == 2 ? 2000.0 : 1.0);
        if (!num(c, tok[i], field[i], 0.0, hi, &v[i])) return false;
    }
    int mode = mode_from_word(tok[8]);
    if (mode < 0) return fail(c, "unknown mode '%s' (flight, paused, attract, title)", tok[8]);
    AudioParams p = audio_params_default();
    p.throttle = (float)v[1], p.airspeed = (float)v[2], p.boost = (float)v[3], p.cloud = (float)v[4];
    p.terrain_near = (float)v[5], p.enclosure = (float)v[6], p.depth = (float)v[7], p.mode = (AudioMode)mode;
    if (t->n_keys >= t->cap_keys) return fail(c, "more than %u keys", t->cap_keys);
    if (t->n_keys && v[0] < t->keys[t->n_keys - 1].t) return fail(c, "time %g is before the previous key", v[0]);
    return audio_trace_add_key(t, v[0], &p);
}

static bool parse_event(AudioTrace *t, const LineCtx *c, char **tok, int n) {
    if (n < 3 || n > 4) return fail(c, "an event line is 'event TIME NAME [ARG]', this one has %d fields", n);
    double time, arg = 0.0;
    if (!num(c, tok[1], "event time", 0.0, TIME_MAX, &time)) return false;
    int id = audio_event_builtin_find(tok[2]);
    if (id < 0) return fail(c, "unknown event '%s'", tok[2]);
    if (n == 4 && !num(c, tok[3], "event argument", -1e6, 1e6, &arg)) return false;
    if (t->n_events >= t->cap_events) return fail(c, "more than %u events", t->cap_events);
    if (t->n_events && time < t->events[t->n_events - 1].t) return fail(c, "time %g is before the previous event", time);
    return audio_trace_add_event(t, time, id, (float)arg);
}

static bool parse_volume(AudioTrace *t, const LineCtx *c, char **tok, int n) {
    static const char *field[] = {"volume time", "master", "engine", "wind", "effects", "mute"};
    if (n != 7) return fail(c, "a volume line is 'volume TIME MASTER ENGINE WIND EFFECTS MUTE', this one has %d fields", n);
    double v[6];
    for (int i = 0; i < 6; i++)
        if (!num(c, tok[i + 1], field[i], 0.0, i == 0 ? TIME_MAX : 1.0, &v[i])) return false;
    AudioTraceVolume vol = {v[0], (float)v[1], (float)v[2], (float)v[3], (float)v[4], v[5] >= 0.5};
    if (t->n_volumes >= t->cap_volumes) return fail(c, "more than %u volume lines", t->cap_volumes);
    if (t->n_volumes && v[0] < t->volumes[t->n_volumes - 1].t) return fail(c, "time %g is before the previous volume line", v[0]);
    return audio_trace_add_volume(t, &vol);
}

static bool parse_header(AudioTrace *t, const LineCtx *c, char **tok, int n) {
    double v;
    if (n != 2) return fail(c, "%s takes one value", tok[0]);
    if (!strcmp(tok[0], "rate")) {
        if (!num(c, tok[1], "rate", AUDIO_RATE_MIN, AUDIO_RATE_MAX, &v)) return false;
        t->rate = (uint32_t)v;
    } else if (!strcmp(tok[0], "block")) {
        if (!num(c, tok[1], "block", 16, 16384, &v)) return false;
        t->block_frames = (uint32_t)v;
    } else {
        if (!num(c, tok[1], "end", 0.0, TIME_MAX, &v)) return false;
        t->end_t = v;
    }
    return true;
}

static bool parse_line(AudioTrace *t, const LineCtx *c, char *line) {
    char *tok[TRACE_TOKENS + 1];
    int n = 0;
    char *save = NULL;
    for (char *p = strtok_r(line, " \t\r", &save); p; p = strtok_r(NULL, " \t\r", &save)) {
        if (p[0] == '#') break;
        if (n == TRACE_TOKENS) return fail(c, "too many fields");
        tok[n++] = p;
    }
    if (n == 0) return true;
    if (!strcmp(tok[0], "event")) return parse_event(t, c, tok, n);
    if (!strcmp(tok[0], "volume")) return parse_volume(t, c, tok, n);
    if (!strcmp(tok[0], "rate") || !strcmp(tok[0], "block") || !strcmp(tok[0], "end")) return parse_header(t, c, tok, n);
    if ((tok[0][0] >= '0' && tok[0][0] <= '9') || strchr(".-+", tok[0][0])) return parse_key(t, c, tok, n);
    return fail(c, "unknown line '%s' (a key starts with its time; or event, volume, rate, block, end)", tok[0]);
}

bool audio_trace_parse(AudioTrace *t, const char *text, size_t len, const char *name, SkyError *err) {
    LineCtx c = {name ? name : "trace", 0, err};
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && text[j] != '\n') j++;
        c.line++;
        char line[TRACE_LINE_MAX];
        if (j - i >= sizeof line) return fail(&c, "line longer than %zu characters", sizeof line - 1);
        memcpy(line, text + i, j - i);
        line[j - i] = 0;
        if (memchr(line, 0, j - i)) return fail(&c, "a NUL byte (not a text trace?)");
        if (!parse_line(t, &c, line)) return false;
        i = j + 1;
    }
    if (t->n_keys == 0) {
        c.line = 0;
        sky_error_set(err, SKY_ERR_INPUT, "%s: no key line (time throttle airspeed boost cloud terrain_near enclosure depth mode)",
                      c.name);
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- writing */
/* The next line of the merged text form into buf (snprintf's return); volume lines and events
 * at a key's time come before it, as the renderer applies them to that block. */
typedef struct WriteCursor { uint32_t key, event, volume; int header; } WriteCursor;

static int format_next(const AudioTrace *t, WriteCursor *w, char *buf, size_t cap) {
    if (w->header == 0) {
        w->header = 1;
        return snprintf(buf, cap, "# skyisles audio trace\n# time throttle airspeed boost cloud terrain_near enclosure depth mode\n");
    }
    if (w->header == 1) {
        w->header = 2;
        char rate[32] = "", block[32] = "", end[40] = "";
        if (t->rate) snprintf(rate, sizeof rate, "rate %u\n", t->rate);
        if (t->block_frames) snprintf(block, sizeof block, "block %u\n", t->block_frames);
        if (t->end_t > 0.0) snprintf(end, sizeof end, "end %.17g\n", t->end_t);
        return snprintf(buf, cap, "%s%s%s", rate, block, end);
    }
    double tk = w->key < t->n_keys ? t->keys[w->key].t : 1e300;
    double te = w->event < t->n_events ? t->events[w->event].t : 1e300;
    double tv = w->volume < t->n_volumes ? t->volumes[w->volume].t : 1e300;
    if (w->volume < t->n_volumes && tv <= te && tv <= tk) {
        const AudioTraceVolume *v = &t->volumes[w->volume++];
        return snprintf(buf, cap, "volume %.17g %.9g %.9g %.9g %.9g %d\n", v->t, v->master, v->engine, v->wind,
                        v->effects, v->mute ? 1 : 0);
    }
    if (w->event < t->n_events && te <= tk) {
        const AudioTraceEvent *e = &t->events[w->event++];
        const AudioEventKind *k = audio_event_builtin(e->id);
        if (!k) return snprintf(buf, cap, "# event %.17g: kind %u is not built in\n", e->t, e->id);
        return snprintf(buf, cap, "event %.17g %s %.9g\n", e->t, k->name, e->arg);
    }
    if (w->key < t->n_keys) {
        const AudioTraceKey *k = &t->keys[w->key++];
        const AudioParams *p = &k->p;
        unsigned mode = (unsigned)p->mode < AUDIO_MODE_COUNT ? (unsigned)p->mode : 0u;
        return snprintf(buf, cap, "%.17g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %s\n", k->t, p->throttle, p->airspeed,
                        p->boost, p->cloud, p->terrain_near, p->enclosure, p->depth, MODE_NAMES[mode]);
    }
    return -1;
}

size_t audio_trace_format(const AudioTrace *t, char *buf, size_t cap) {
    WriteCursor w = {0};
    size_t len = 0;
    char line[TRACE_LINE_MAX];
    int n;
    while ((n = format_next(t, &w, line, sizeof line)) >= 0) {
        if (buf && len + (size_t)n < cap) memcpy(buf + len, line, (size_t)n);
        len += (size_t)n;
    }
    if (buf && cap) buf[len < cap ? len : cap - 1] = 0;
    return len;
}

bool audio_trace_save(const AudioTrace *t, const char *path, SkyError *err) {
    FILE *f = fopen(path, "w");
    if (!f) {
        sky_error_set(err, SKY_ERR_INPUT, "%s: cannot create: %s", path, strerror(errno));
        return false;
    }
    WriteCursor w = {0};
    char line[TRACE_LINE_MAX];
    bool ok = true;
    while (ok && format_next(t, &w, line, sizeof line) >= 0) ok = fputs(line, f) >= 0;
    if (fclose(f) != 0) ok = false;
    if (!ok) sky_error_set(err, SKY_ERR_INPUT, "%s: write failed: %s", path, strerror(errno));
    return ok;
}

/* ---------------------------------------------------------------- reading */
static float lerp(float a, float b, float f) { return a + (b - a) * f; }

void audio_trace_params_at(const AudioTrace *t, double time, AudioParams *out) {
    *out = audio_params_default();
    if (t->n_keys) {
        uint32_t lo = 0, hi = t->n_keys;   /* first key after time, by bisection */
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (t->keys[mid].t <= time) lo = mid + 1;
            else hi = mid;
        }
        if (lo == 0) *out = t->keys[0].p;
        else if (lo == t->n_keys) *out = t->keys[lo - 1].p;
        else {
            const AudioParams *a = &t->keys[lo - 1].p, *b = &t->keys[lo].p;
            double span = t->keys[lo].t - t->keys[lo - 1].t;
            float f = span > 0.0 ? (float)((time - t->keys[lo - 1].t) / span) : 1.0f;
            *out = *a;
            out->throttle = lerp(a->throttle, b->throttle, f);
            out->airspeed = lerp(a->airspeed, b->airspeed, f);
            out->boost = lerp(a->boost, b->boost, f);
            out->cloud = lerp(a->cloud, b->cloud, f);
            out->terrain_near = lerp(a->terrain_near, b->terrain_near, f);
            out->enclosure = lerp(a->enclosure, b->enclosure, f);
            out->depth = lerp(a->depth, b->depth, f);
        }
    }
    out->master = out->engine = out->wind = out->effects = 1.0f;
    out->mute = false;
    for (uint32_t i = 0; i < t->n_volumes && t->volumes[i].t <= time; i++) {
        const AudioTraceVolume *v = &t->volumes[i];
        out->master = v->master, out->engine = v->engine, out->wind = v->wind, out->effects = v->effects;
        out->mute = v->mute;
    }
}

double audio_trace_end(const AudioTrace *t) {
    if (t->end_t > 0.0) return t->end_t;
    double end = t->n_keys ? t->keys[t->n_keys - 1].t : 0.0;
    if (t->n_events && t->events[t->n_events - 1].t > end) end = t->events[t->n_events - 1].t;
    return end;
}

size_t audio_trace_frames(const AudioTrace *t, uint32_t rate, uint32_t block_frames) {
    if (!block_frames) return 0;
    double frames = audio_trace_end(t) * (double)rate;
    size_t whole = (size_t)frames, blocks = whole / block_frames;
    if ((double)(blocks * block_frames) < frames) blocks++;
    return blocks * block_frames;
}
