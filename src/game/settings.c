/* skyisles game settings: defaults, the YAML file (libyaml) read key by key with one warning for
 * the first defect, and the atomic save (temporary file, fsync, rename, fsync of the folder). */
#include "settings.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

#define SETTINGS_VERSION 1

const char *const game_quality_names[GAME_QUALITY_COUNT] = {"low", "medium", "high"};
const char *game_quality_name(GameQuality q) { return q < GAME_QUALITY_COUNT ? game_quality_names[q] : "medium"; }

bool game_quality_parse(const char *s, GameQuality *out) {
    for (int q = 0; q < GAME_QUALITY_COUNT; q++)
        if (s && !strcmp(s, game_quality_names[q])) {
            *out = (GameQuality)q;
            return true;
        }
    return false;
}

/* Case-insensitive substring. */
static bool has(const char *hay, const char *needle) {
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (!strncasecmp(hay, needle, n)) return true;
    return false;
}

GameQuality game_quality_guess(const char *gpu, int cores) {
    /* Lower-case needles, matched anywhere in the renderer string (Mesa and vendor drivers word
     * it differently: "VC4 V3D 2.1", "V3D 4.2", "V3D 7.1", "Mali-G31 (Panfrost)", "Mali400",
     * "Mali-T720", "PowerVR SGX 544MP", "llvmpipe (LLVM 15.0.6, 256 bits)", "softpipe"). */
    static const char *const low[] = {"vc4", "videocore", "mali400", "mali-400", "mali450", "mali-450", "mali-t",
                                      "lima", "sgx", "adreno (tm) 3", "adreno 3", "llvmpipe", "softpipe",
                                      "swrast", "software"};
    static const char *const medium[] = {"v3d 4", "v3d 5", "v3d 6", "mali-g31", "mali-g51", "mali-g52", "mali-g57",
                                         "panfrost", "adreno (tm) 5", "adreno 5", "powervr"};
    static const char *const high[] = {"v3d 7", "v3d 8", "radeon", "amd", "nvidia", "geforce", "intel", "iris",
                                       "mali-g7", "mali-g6", "adreno (tm) 6", "adreno 6", "adreno (tm) 7",
                                       "adreno 7", "apple", "virgl"};
    const char *s = gpu ? gpu : "";
    GameQuality q;
    for (size_t i = 0; i < sizeof low / sizeof low[0]; i++)
        if (has(s, low[i])) { q = GAME_QUALITY_LOW; goto found; }
    for (size_t i = 0; i < sizeof high / sizeof high[0]; i++)
        if (has(s, high[i])) { q = GAME_QUALITY_HIGH; goto found; }
    for (size_t i = 0; i < sizeof medium / sizeof medium[0]; i++)
        if (has(s, medium[i])) { q = GAME_QUALITY_MEDIUM; goto found; }
    q = cores >= 8 ? GAME_QUALITY_HIGH : cores >= 4 ? GAME_QUALITY_MEDIUM : GAME_QUALITY_LOW;
found:
    if (cores < 4 && q > GAME_QUALITY_MEDIUM) q = GAME_QUALITY_MEDIUM;
    if (cores < 2) q = GAME_QUALITY_LOW;
    return q;
}

void settings_default(GameSettings *s) {
    memset(s, 0, sizeof *s);
    input_settings_default(&s->input);
    s->lines = 240;
    s->fixed_4_3 = false;
    s->snap = s->color15 = s->dither = s->fog = s->sky_clouds = s->clouds = true;
    s->fov_deg = 70.0f;
    s->quality = GAME_QUALITY_MEDIUM;
    s->quality_chosen = false;
    s->speed_limit = 1000.0f;
    s->collision = true;
    s->hud = true;
    s->camera = GAME_CAMERA_CHASE;
    world_params_default(&s->world);
}

bool settings_dir(const char *dir, char *out, size_t n) {
    if (dir && dir[0]) return (size_t)snprintf(out, n, "%s", dir) < n;
    const char *xdg = getenv("XDG_CONFIG_HOME");
    if (xdg && xdg[0] == '/') return (size_t)snprintf(out, n, "%s/skyisles", xdg) < n;
    const char *home = getenv("HOME");
    if (home && home[0]) return (size_t)snprintf(out, n, "%s/.config/skyisles", home) < n;
    return false;
}

/* ---------------------------------------------------------------- reading */
/* A warning is one line: what it quotes from the file (a scalar may span lines) cannot break it. */
static void one_line(char *s) {
    for (; s && *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f) *s = '?';
}

typedef struct Reader {
    yaml_document_t doc;
    const char *name;
    char *warning;
    size_t warning_n;
    bool warned;
} Reader;

static void warn_at(Reader *r, const yaml_node_t *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void warn_at(Reader *r, const yaml_node_t *n, const char *fmt, ...) {
    if (r->warned || !r->warning || r->warning_n == 0) return;   /* the first defect is the one reported */
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(r->warning, r->warning_n, "skyisles: settings %s:%zu: %s: using the default for it", r->name,
             n ? n->start_mark.line + 1 : 1, what);
    one_line(r->warning);
    r->warned = true;
}

static const char *scalar(const yaml_node_t *n) {
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static bool read_bool(Reader *r, const yaml_node_t *n, const char *key, bool *out) {
    const char *v = scalar(n);
    if (v && (!strcmp(v, "true") || !strcmp(v, "yes") || !strcmp(v, "on"))) { *out = true; return true; }
    if (v && (!strcmp(v, "false") || !strcmp(v, "no") || !strcmp(v, "off"))) { *out = false; return true; }
    warn_at(r, n, "'%s' must be true or false", key);
    return false;
}

static bool read_num(Reader *r, const yaml_node_t *n, const char *key, double lo, double hi, bool whole, double *out) {
    const char *v = scalar(n);
    char *end = NULL;
    errno = 0;
    double d = v ? strtod(v, &end) : 0.0;
    if (!v || !*v || *end || errno || !(d >= lo && d <= hi) || (whole && d != (double)(long long)d)) {
        warn_at(r, n, "'%s' must be %s in %g..%g", key, whole ? "a whole number" : "a number", lo, hi);
        return false;
    }
    *out = d;
    return true;
}

static void read_float(Reader *r, const yaml_node_t *n, const char *key, double lo, double hi, float *out) {
    double d;
    if (read_num(r, n, key, lo, hi, false, &d)) *out = (float)d;
}

static void read_int(Reader *r, const yaml_node_t *n, const char *key, double lo, double hi, int *out) {
    double d;
    if (read_num(r, n, key, lo, hi, true, &d)) *out = (int)d;
}

typedef void (*SectionFn)(Reader *r, GameSettings *s, const char *key, yaml_node_t *value);

static void each_pair(Reader *r, yaml_node_t *map, const char *section, GameSettings *s, SectionFn fn) {
    if (!map || map->type != YAML_MAPPING_NODE) {
        warn_at(r, map, "'%s' must be a mapping", section);
        return;
    }
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(&r->doc, p->key), *v = yaml_document_get_node(&r->doc, p->value);
        const char *key = scalar(k);
        if (!key) {
            warn_at(r, k, "a key in '%s' is not a word", section);
            continue;
        }
        fn(r, s, key, v);
    }
}

static void read_bindings(Reader *r, GameSettings *s, const char *key, yaml_node_t *v) {
    GameAction a = game_action_from_name(key);
    if (a == GA_COUNT) {
        warn_at(r, v, "'controls.bindings.%s' is not an action", key);
        return;
    }
    if (!v || v->type != YAML_SEQUENCE_NODE) {
        warn_at(r, v, "'controls.bindings.%s' must be a list such as [\"key W-\", \"axis lefty-\"]", key);
        return;
    }
    InputBind got[16];
    uint32_t n = 0;
    for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
        yaml_node_t *e = yaml_document_get_node(&r->doc, *it);
        if (n >= 16 || !input_bind_parse(a, scalar(e), &got[n])) {
            warn_at(r, e, "'controls.bindings.%s' has '%s', not a binding (key NAME, pad BUTTON, axis AXIS+/-)", key,
                    scalar(e) ? scalar(e) : "?");
            return;
        }
        n++;
    }
    /* The listed bindings replace the action's (an empty list unbinds it). */
    InputSettings *in = &s->input;
    uint32_t keep = 0;
    for (uint32_t i = 0; i < in->bind_count; i++)
        if (in->binds[i].action != a) in->binds[keep++] = in->binds[i];
    in->bind_count = keep;
    for (uint32_t i = 0; i < n && in->bind_count < INPUT_MAX_BINDS; i++) in->binds[in->bind_count++] = got[i];
}

static void read_controls(Reader *r, GameSettings *s, const char *key, yaml_node_t *v) {
    InputSettings *in = &s->input;
    if (!strcmp(key, "invert_pitch")) read_bool(r, v, "controls.invert_pitch", &in->invert_pitch);
    else if (!strcmp(key, "dead_zone")) read_float(r, v, "controls.dead_zone", 0.0, 0.5, &in->dead_zone);
    else if (!strcmp(key, "curve")) read_float(r, v, "controls.curve", 1.0, 3.0, &in->curve);
    else if (!strcmp(key, "layout")) {
        const char *l = scalar(v);
        if (l && !strcmp(l, "xbox")) in->nintendo = false;
        else if (l && !strcmp(l, "nintendo")) in->nintendo = true;
        else warn_at(r, v, "'controls.layout' must be xbox or nintendo");
    } else if (!strcmp(key, "bindings")) each_pair(r, v, "controls.bindings", s, read_bindings);
    else warn_at(r, v, "'controls.%s' is not a setting", key);
}

static void read_display(Reader *r, GameSettings *s, const char *key, yaml_node_t *v) {
    static const struct { const char *key; size_t off; } flags[] = {
        {"aspect_4_3", offsetof(GameSettings, fixed_4_3)}, {"snap", offsetof(GameSettings, snap)},
        {"color15", offsetof(GameSettings, color15)},      {"dither", offsetof(GameSettings, dither)},
        {"fog", offsetof(GameSettings, fog)},              {"sky_clouds", offsetof(GameSettings, sky_clouds)},
        {"clouds", offsetof(GameSettings, clouds)},
    };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (!strcmp(key, flags[i].key)) {
            read_bool(r, v, key, (bool *)((char *)s + flags[i].off));
            return;
        }
    if (!strcmp(key, "lines")) {
        int lines = s->lines;
        read_int(r, v, "display.lines", 0, 480, &lines);
        if (lines != 0 && lines < 64) warn_at(r, v, "'display.lines' must be 0 or 64..480");
        else s->lines = lines;
    } else if (!strcmp(key, "fov")) {
        read_float(r, v, "display.fov", 40.0, 110.0, &s->fov_deg);
    } else if (!strcmp(key, "quality")) {
        GameQuality q;
        if (game_quality_parse(scalar(v), &q)) {
            s->quality = q;
            s->quality_chosen = true;
            return;
        }
        warn_at(r, v, "'display.quality' must be low, medium or high");
    } else {
        warn_at(r, v, "'display.%s' is not a setting", key);
    }
}

static void read_flight(Reader *r, GameSettings *s, const char *key, yaml_node_t *v) {
    if (!strcmp(key, "speed_limit")) read_float(r, v, "flight.speed_limit", 40.0, 5000.0, &s->speed_limit);
    else if (!strcmp(key, "collision")) read_bool(r, v, "flight.collision", &s->collision);
    else if (!strcmp(key, "hud")) read_bool(r, v, "flight.hud", &s->hud);
    else if (!strcmp(key, "camera")) {
        const char *c = scalar(v);
        if (c && !strcmp(c, "chase")) s->camera = GAME_CAMERA_CHASE;
        else if (c && !strcmp(c, "cockpit")) s->camera = GAME_CAMERA_COCKPIT;
        else warn_at(r, v, "'flight.camera' must be chase or cockpit");
    } else {
        warn_at(r, v, "'flight.%s' is not a setting", key);
    }
}

static void read_world(Reader *r, GameSettings *s, const char *key, yaml_node_t *v) {
    const WorldParamDesc *d = world_param_find(key);
    if (!d || d->cls == WORLD_PARAM_CREATE) {
        warn_at(r, v, "'world.%s' is not a world parameter (skyisles --help lists them)", key);
        return;
    }
    char assign[160];
    SkyError err = {0};
    const char *val = scalar(v);
    if (!val || (size_t)snprintf(assign, sizeof assign, "%s=%s", key, val) >= sizeof assign ||
        !world_param_parse(&s->world, assign, &err))
        warn_at(r, v, "'world.%s' must be a number in %g..%g", key, d->min, d->max);
}

static void read_top(Reader *r, GameSettings *s, const char *key, yaml_node_t *v) {
    if (!strcmp(key, "version")) {
        int ver = SETTINGS_VERSION;
        read_int(r, v, "version", 1, 1000000, &ver);
        if (ver > SETTINGS_VERSION) warn_at(r, v, "version %d is newer than this skyisles knows (%d)", ver, SETTINGS_VERSION);
    } else if (!strcmp(key, "controls")) each_pair(r, v, "controls", s, read_controls);
    else if (!strcmp(key, "display")) each_pair(r, v, "display", s, read_display);
    else if (!strcmp(key, "flight")) each_pair(r, v, "flight", s, read_flight);
    else if (!strcmp(key, "world")) each_pair(r, v, "world", s, read_world);
    else warn_at(r, v, "'%s' is not a section (controls, display, flight, world)", key);
}

void settings_parse(GameSettings *s, const char *text, size_t len, const char *name, char *warning, size_t warning_n) {
    if (warning && warning_n) warning[0] = 0;
    Reader r = {.name = name ? name : SETTINGS_FILE, .warning = warning, .warning_n = warning_n};
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        snprintf(warning, warning_n, "skyisles: settings %s: out of memory reading it: using defaults", r.name);
        return;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, &r.doc)) {
        if (warning && warning_n)
            snprintf(warning, warning_n, "skyisles: settings %s:%zu:%zu is damaged (%s): using defaults", r.name,
                     parser.problem_mark.line + 1, parser.problem_mark.column + 1,
                     parser.problem ? parser.problem : "unreadable");
        one_line(warning);
        yaml_parser_delete(&parser);
        return;
    }
    yaml_parser_delete(&parser);
    yaml_node_t *root = yaml_document_get_root_node(&r.doc);
    if (!root) {
        if (warning && warning_n) snprintf(warning, warning_n, "skyisles: settings %s is empty: using defaults", r.name);
    } else if (root->type != YAML_MAPPING_NODE) {
        if (warning && warning_n)
            snprintf(warning, warning_n, "skyisles: settings %s is not a settings file (no sections): using defaults", r.name);
    } else {
        /* Read into a copy: only a file that parses leaves its values. */
        GameSettings tmp = *s;
        each_pair(&r, root, "the file", &tmp, read_top);
        *s = tmp;
    }
    yaml_document_delete(&r.doc);
    if (warning && warning_n) one_line(warning);
}

void settings_load(GameSettings *s, const char *dir, bool *found, char *warning, size_t warning_n) {
    char path[1024];
    if (warning && warning_n) warning[0] = 0;
    *found = false;
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, SETTINGS_FILE) >= sizeof path) {
        snprintf(warning, warning_n, "skyisles: the config folder path is too long: using default settings");
        return;
    }
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT) return;   /* first start */
    *found = true;
    SkyError err = {0};
    size_t len = 0;
    uint8_t *text = file_read_all(path, SETTINGS_MAX_BYTES, &len, &err);
    if (!text) {
        snprintf(warning, warning_n, "skyisles: settings: %s: using defaults", err.msg);
        one_line(warning);
        return;
    }
    settings_parse(s, (const char *)text, len, path, warning, warning_n);
    free(text);   /* boot only */
}

/* ---------------------------------------------------------------- writing */
typedef struct Out {
    char *buf;
    size_t n, len;
} Out;

static void put(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Out *o, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(o->len < o->n ? o->buf + o->len : NULL, o->len < o->n ? o->n - o->len : 0, fmt, ap);
    va_end(ap);
    if (k > 0) o->len += (size_t)k;
}

static const char *yes(bool b) { return b ? "true" : "false"; }

/* The shortest text that reads back as the same float (0.15, not 0.150000006). */
static const char *num(float v, char buf[32]) {
    for (int digits = 6; digits <= 9; digits++) {
        snprintf(buf, 32, "%.*g", digits, (double)v);
        if (strtof(buf, NULL) == v) break;
    }
    return buf;
}

size_t settings_format(const GameSettings *s, char *buf, size_t n) {
    Out o = {buf, n, 0};
    if (n) buf[0] = 0;
    put(&o, "# skyisles settings, written by the game when a setting changes (in the pause menu).\n"
            "# Edit it while skyisles is not running; a damaged file gives a warning and defaults.\n"
            "version: %d\n\ncontrols:\n", SETTINGS_VERSION);
    const InputSettings *in = &s->input;
    put(&o, "  invert_pitch: %s\n  layout: %s          # xbox: confirm with the bottom button; nintendo: the right one\n",
        yes(in->invert_pitch), in->nintendo ? "nintendo" : "xbox");
    char n1[32], n2[32];
    put(&o, "  dead_zone: %s\n  curve: %s\n  bindings:            # key NAME, pad BUTTON, axis AXIS; +/- the direction\n",
        num(in->dead_zone, n1), num(in->curve, n2));
    for (int a = 0; a < GA_COUNT; a++) {
        put(&o, "    %s: [", game_action_name((GameAction)a));
        bool first = true;
        for (uint32_t i = 0; i < in->bind_count; i++) {
            if (in->binds[i].action != a) continue;
            char t[48];
            input_bind_text(&in->binds[i], t, sizeof t);
            put(&o, "%s\"%s\"", first ? "" : ", ", t);
            first = false;
        }
        put(&o, "]\n");
    }
    put(&o, "\ndisplay:\n  lines: %d            # PSX target lines: 240, 360, 480; 0 = full resolution\n", s->lines);
    put(&o, "  aspect_4_3: %s\n  snap: %s\n  color15: %s\n  dither: %s\n  fog: %s\n  sky_clouds: %s\n  clouds: %s\n",
        yes(s->fixed_4_3), yes(s->snap), yes(s->color15), yes(s->dither), yes(s->fog), yes(s->sky_clouds),
        yes(s->clouds));
    put(&o, "  fov: %s\n", num(s->fov_deg, n1));
    if (s->quality_chosen) put(&o, "  quality: %s         # low, medium, high\n", game_quality_name(s->quality));
    put(&o, "\nflight:\n  speed_limit: %s     # m/s, the boost's top speed\n  collision: %s\n  hud: %s\n  camera: %s\n",
        num(s->speed_limit, n1), yes(s->collision), yes(s->hud), s->camera == GAME_CAMERA_COCKPIT ? "cockpit" : "chase");
    put(&o, "\nworld:                 # the parameter panel's values (skyisles --help lists them)\n");
    for (size_t i = 0; i < world_param_count(); i++) {
        const WorldParamDesc *d = world_param_at(i);
        if (d->cls == WORLD_PARAM_CREATE) continue;
        char v[64];
        world_param_format(&s->world, d, v, sizeof v);
        put(&o, "  %s: %s\n", d->name, v);
    }
    return o.len;
}

static bool write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

static bool make_dirs(const char *dir) {
    char p[1024];
    if ((size_t)snprintf(p, sizeof p, "%s", dir) >= sizeof p) return false;
    for (char *c = p + 1; *c; c++) {
        if (*c != '/') continue;
        *c = 0;
        if (mkdir(p, 0755) != 0 && errno != EEXIST) return false;
        *c = '/';
    }
    return mkdir(p, 0755) == 0 || errno == EEXIST;
}

bool settings_save(const GameSettings *s, const char *dir, SkyError *err) {
    static char text[64 << 10];   /* the file as written; saves happen on the main thread only */
    size_t len = settings_format(s, text, sizeof text);
    if (len >= sizeof text) {
        sky_error_set(err, SKY_ERR_START, "skyisles: settings too long to save (%zu bytes)", len);
        return false;
    }
    char path[1024], tmp[1100];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, SETTINGS_FILE) >= sizeof path) {
        sky_error_set(err, SKY_ERR_INPUT, "skyisles: the config folder path is too long to save settings");
        return false;
    }
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (!make_dirs(dir)) {
        sky_error_set(err, SKY_ERR_START, "skyisles: cannot create the config folder %s (%s): settings not saved", dir,
                      strerror(errno));
        return false;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        sky_error_set(err, SKY_ERR_START, "skyisles: cannot write settings in %s (%s): settings not saved; check the "
                      "folder is writable", dir, strerror(errno));
        return false;
    }
    bool ok = write_all(fd, text, len);
    int saved = errno;
    if (ok && fsync(fd) != 0) { ok = false; saved = errno; }
    if (close(fd) != 0 && ok) { ok = false; saved = errno; }
    if (ok && rename(tmp, path) != 0) { ok = false; saved = errno; }
    if (!ok) {
        unlink(tmp);
        sky_error_set(err, SKY_ERR_START, "skyisles: saving settings to %s failed (%s): the previous file is kept", path,
                      strerror(saved));
        return false;
    }
    /* The rename is durable once the folder is synced. */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return true;
}
