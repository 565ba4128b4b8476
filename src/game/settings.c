/* skyisles game settings: defaults, reader and writer of the YAML file, all from the settings
 * table (libyaml first, a line reader when the YAML is damaged), and the atomic save (temporary
 * file, fsync, rename, fsync of the folder) that first keeps a damaged file beside. */
#include "settings.h"
#include "savefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

#define SETTINGS_VERSION 1

void settings_default(GameSettings *s) {
    memset(s, 0, sizeof *s);
    input_settings_default(&s->input);
    world_params_default(&s->world);
    render_settings_default(&s->render);
    for (size_t i = 0; i < setting_count(); i++) setting_set(s, setting_at(i), setting_at(i)->def);
    /* A default is not a choice: an optional row (quality) is written once the player chose it. */
    for (size_t i = 0; i < setting_count(); i++)
        if (setting_at(i)->flags & SETTING_F_OPTIONAL) *(bool *)((char *)s + setting_at(i)->chosen_offset) = false;
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

/* Both readers (libyaml's tree, the line by line fallback) hand values over as text here, so a
 * value means the same whichever read it. */
typedef struct Reader {
    GameSettings *s;
    const char *name;
    char *warning;
    size_t warning_n;
    bool warned;
    uint32_t more;   /* defects after the one reported */
} Reader;

static void warn_at(Reader *r, size_t line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void warn_at(Reader *r, size_t line, const char *fmt, ...) {
    if (r->warned) r->more++;   /* the first defect is the one reported; the rest are counted */
    if (r->warned || !r->warning || r->warning_n == 0) return;
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(r->warning, r->warning_n, "skyisles: settings %s:%zu: %s: using the default for it", r->name, line, what);
    one_line(r->warning);
    r->warned = true;
}

/* The one line also says how many more defects the file has (each at its default or kept). */
static void tell_more(const Reader *r) {
    size_t n = strlen(r->warning);
    if (r->more && n < r->warning_n)
        snprintf(r->warning + n, r->warning_n - n, " (and %u more value%s not right in the file)", r->more,
                 r->more == 1 ? "" : "s");
}

static void read_world(Reader *r, size_t line, const char *key, const char *val) {
    const WorldParamDesc *d = world_param_find(key);
    if (!d || d->cls == WORLD_PARAM_CREATE) {
        warn_at(r, line, "'world.%s' is not a world parameter (skyisles --help lists them)", key);
        return;
    }
    char assign[160];
    SkyError err = {0};
    if (!val || (size_t)snprintf(assign, sizeof assign, "%s=%s", key, val) >= sizeof assign ||
        !world_param_parse(&r->s->world, assign, &err))
        warn_at(r, line, "'world.%s' must be a number in %g..%g", key, d->min, d->max);
}

static void read_value(Reader *r, size_t line, const char *section, const char *key, const char *val) {
    if (!strcmp(section, "world")) {
        read_world(r, line, key, val);
        return;
    }
    const SettingDesc *d = setting_find(section, key);
    if (!d) {
        warn_at(r, line, "'%s.%s' is not a setting", section, key);
        return;
    }
    char why[200];
    if (!setting_parse(r->s, d, val, why, sizeof why)) warn_at(r, line, "%s", why);
}

/* The listed bindings replace the action's (an empty list unbinds it). */
static void read_binding(Reader *r, size_t line, const char *action, const char *const *items, int n) {
    GameAction a = game_action_from_name(action);
    if (a == GA_COUNT) {
        warn_at(r, line, "'controls.bindings.%s' is not an action", action);
        return;
    }
    if (n < 0) {
        warn_at(r, line, "'controls.bindings.%s' must be a list such as [\"key W-\", \"axis lefty-\"]", action);
        return;
    }
    InputBind got[16];
    for (int i = 0; i < n; i++)
        if (i >= 16 || !input_bind_parse(a, items[i], &got[i])) {
            warn_at(r, line, "'controls.bindings.%s' has '%s', not a binding (key NAME, pad BUTTON, axis AXIS+/-)",
                    action, items[i] ? items[i] : "?");
            return;
        }
    InputSettings *in = &r->s->input;
    uint32_t keep = 0;
    for (uint32_t i = 0; i < in->bind_count; i++)
        if (in->binds[i].action != a) in->binds[keep++] = in->binds[i];
    in->bind_count = keep;
    for (int i = 0; i < n && in->bind_count < INPUT_MAX_BINDS; i++) in->binds[in->bind_count++] = got[i];
}

static bool is_section(const char *name) {
    if (!strcmp(name, "world")) return true;
    for (size_t i = 0; i < setting_count(); i++)
        if (!strcmp(setting_at(i)->section, name)) return true;
    return false;
}

static void read_version(Reader *r, size_t line, const char *val) {
    char *end = NULL;
    long ver = val ? strtol(val, &end, 10) : 0;
    if (!val || !*val || *end || ver < 1) warn_at(r, line, "'version' must be a whole number from 1");
    else if (ver > SETTINGS_VERSION)
        warn_at(r, line, "version %ld is newer than this skyisles knows (%d)", ver, SETTINGS_VERSION);
}

/* ---- libyaml's tree */
typedef struct Tree {
    Reader *r;
    yaml_document_t doc;
} Tree;

static const char *scalar(const yaml_node_t *n) {
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static size_t line_of(const yaml_node_t *n) { return n ? n->start_mark.line + 1 : 1; }

static void tree_bindings(Tree *t, yaml_node_t *map) {
    if (!map || map->type != YAML_MAPPING_NODE) {
        warn_at(t->r, line_of(map), "'controls.bindings' must be a mapping of actions to lists");
        return;
    }
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(&t->doc, p->key), *v = yaml_document_get_node(&t->doc, p->value);
        const char *items[17];
        int n = -1;
        if (v && v->type == YAML_SEQUENCE_NODE) {
            n = 0;
            for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top && n < 17; it++)
                items[n++] = scalar(yaml_document_get_node(&t->doc, *it));
        }
        if (scalar(k)) read_binding(t->r, line_of(v), scalar(k), items, n);
        else warn_at(t->r, line_of(k), "a key in 'controls.bindings' is not a word");
    }
}

static void tree_section(Tree *t, const char *section, yaml_node_t *map) {
    if (!map || map->type != YAML_MAPPING_NODE) {
        warn_at(t->r, line_of(map), "'%s' must be a mapping", section);
        return;
    }
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(&t->doc, p->key), *v = yaml_document_get_node(&t->doc, p->value);
        const char *key = scalar(k);
        const SettingDesc *d = key ? setting_find(section, key) : NULL;
        if (!key) warn_at(t->r, line_of(k), "a key in '%s' is not a word", section);
        else if (d && d->type == SETTING_BINDING) tree_bindings(t, v);
        else read_value(t->r, line_of(v), section, key, scalar(v));
    }
}

static void tree_read(Tree *t, yaml_node_t *root) {
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(&t->doc, p->key), *v = yaml_document_get_node(&t->doc, p->value);
        const char *key = scalar(k);
        if (key && !strcmp(key, "version")) read_version(t->r, line_of(v), scalar(v));
        else if (key && is_section(key)) tree_section(t, key, v);
        else warn_at(t->r, line_of(k), "'%s' is not a section (controls, display, flight, world)", key ? key : "?");
    }
}

/* ---- line by line: the fallback for a file libyaml gives up on. The game writes one
 * `key: value` per line (two spaces in a section, four in the bindings), so a line reads alone;
 * a damaged line is skipped and the next one reads again. */
static char *trim(char *a, char *b) {
    while (a < b && (*a == ' ' || *a == '\r')) a++;
    while (b > a && (b[-1] == ' ' || b[-1] == '\r')) b--;
    *b = 0;
    return a;
}

/* Drops a comment (a # outside quotes, after a space or at the start). */
static void cut_comment(char *s) {
    bool quoted = false;
    for (char *c = s; *c; c++) {
        if (*c == '"') quoted = !quoted;
        else if (*c == '#' && !quoted && (c == s || c[-1] == ' ')) { *c = 0; return; }
    }
}

/* A quoted scalar loses its quotes; false when a quote does not close. */
static bool unquote(char **v) {
    size_t n = strlen(*v);
    if (n == 0 || (**v != '"' && **v != '\'')) return true;
    if (n < 2 || (*v)[n - 1] != **v) return false;
    (*v)[n - 1] = 0;
    (*v)++;
    return true;
}

/* ["a", "b"] into items; -1 when it is not a closed flow list of scalars. */
static int flow_list(char *v, char **items, int cap) {
    size_t n = strlen(v);
    if (n < 2 || v[0] != '[' || v[n - 1] != ']') return -1;
    v[n - 1] = 0;
    int k = 0;
    for (char *p = v + 1; *p;) {
        char *comma = strchr(p, ',');
        char *end = comma ? comma : p + strlen(p);
        char *item = trim(p, end);
        if (!*item && !comma && k == 0) break;   /* [] */
        if (!*item || k >= cap || !unquote(&item) || strchr(item, '"')) return -1;
        items[k++] = item;
        if (!comma) break;
        p = comma + 1;
    }
    return k;
}

static void lines_read(Reader *r, char *text, size_t len) {
    char section[32] = "", sub[32] = "";
    int sub_indent = -1;
    size_t line = 0;
    for (char *p = text; p < text + len;) {
        char *eol = memchr(p, '\n', (size_t)(text + len - p));
        char *end = eol ? eol : text + len;
        line++;
        char *next = eol ? eol + 1 : text + len;
        *end = 0;
        if (memchr(p, 0, (size_t)(end - p)) || memchr(p, '\t', (size_t)(end - p))) {
            warn_at(r, line, "the line is damaged (a tab or a NUL byte): skipped");
            p = next;
            continue;
        }
        cut_comment(p);
        int indent = 0;
        while (p[indent] == ' ') indent++;
        char *colon = strstr(p, ": ");
        if (!colon && end > p && end[-1] == ':') colon = end - 1;
        char *val = colon ? trim(colon + 1, colon + strlen(colon)) : NULL;   /* before the key's trim cuts at the colon */
        char *key = colon ? trim(p, colon) : NULL;
        if (!colon) {
            if (*trim(p, p + strlen(p))) warn_at(r, line, "the line is damaged (not key: value): skipped");
        } else if (indent == 0) {
            snprintf(section, sizeof section, "%s", *val ? "" : key);
            sub[0] = 0;
            if (!strcmp(key, "version")) read_version(r, line, val);
            else if (!is_section(key)) warn_at(r, line, "'%s' is not a section (controls, display, flight, world)", key);
        } else if (!section[0]) {
            warn_at(r, line, "'%s' is outside any section: skipped", key);
        } else if (sub[0] && indent > sub_indent) {
            char *items[17];
            read_binding(r, line, key, (const char *const *)items, flow_list(val, items, 17));
        } else if (!*val) {
            const SettingDesc *d = setting_find(section, key);
            sub_indent = indent;
            snprintf(sub, sizeof sub, "%s", d && d->type == SETTING_BINDING ? key : "");
            if (!sub[0]) warn_at(r, line, "'%s.%s' has no value", section, key);
        } else {
            sub[0] = 0;
            if (unquote(&val)) read_value(r, line, section, key, val);
            else warn_at(r, line, "'%s.%s': a quote does not close", section, key);
        }
        p = next;
    }
}

/* libyaml's loader is quadratic in the nesting (each token checks every open flow level): a
 * line of 100k brackets stalls it for a minute. Its event stream, which stops at the first excess,
 * is checked first; a settings file nests 3 levels (section, bindings, a binding's list). Gives the
 * events read, *line and *col the place the limit was passed (0 when the file is within it). */
#define SETTINGS_MAX_DEPTH 32
size_t settings_depth_check(const char *text, size_t len, size_t *line, size_t *col) {
    *line = *col = 0;
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) return 0;
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    size_t events = 0;
    uint32_t depth = 0;
    for (bool done = false; !done;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) break;   /* a syntax error: the load reports it */
        events++;
        if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) depth++;
        if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT) depth--;
        if (depth > SETTINGS_MAX_DEPTH) *line = ev.start_mark.line + 1, *col = ev.start_mark.column + 1;
        done = *line || ev.type == YAML_DOCUMENT_END_EVENT || ev.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    return events;
}

/* Parses `text` into s; true when it read cleanly (no warning). */
static bool parse_text(GameSettings *s, const char *text, size_t len, const char *name, char *warning, size_t warning_n) {
    char own[8];
    if (!warning || !warning_n) warning = own, warning_n = sizeof own;   /* cleanliness is still told */
    warning[0] = 0;
    GameSettings tmp = *s;
    Reader r = {.s = &tmp, .name = name ? name : SETTINGS_FILE, .warning = warning, .warning_n = warning_n};
    Tree t = {.r = &r};
    size_t deep_line, deep_col;
    settings_depth_check(text, len, &deep_line, &deep_col);
    if (deep_line) {   /* not a settings file: the line reader would stall on the same line */
        snprintf(warning, warning_n, "skyisles: settings %s:%zu:%zu is damaged (nested more than %d levels deep): "
                 "using defaults", r.name, deep_line, deep_col, SETTINGS_MAX_DEPTH);
        one_line(warning);
        return false;
    }
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        snprintf(warning, warning_n, "skyisles: settings %s: out of memory reading it: using defaults", r.name);
        return false;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, &t.doc)) {
        /* Damaged YAML: every line that still reads is kept (the copy is the reader's to cut up). */
        snprintf(warning, warning_n, "skyisles: settings %s:%zu:%zu is damaged (%s): kept what the other lines say, "
                 "defaults for the rest", r.name, parser.problem_mark.line + 1, parser.problem_mark.column + 1,
                 parser.problem ? parser.problem : "unreadable");
        one_line(warning);
        r.warned = true;
        yaml_parser_delete(&parser);
        char *copy = malloc(len + 1);   /* boot only: the file is read once */
        if (copy) {
            memcpy(copy, text, len);
            copy[len] = 0;
            lines_read(&r, copy, len);
            free(copy);
        }
        *s = tmp;
        return false;
    }
    yaml_parser_delete(&parser);
    yaml_node_t *root = yaml_document_get_root_node(&t.doc);
    if (!root) snprintf(warning, warning_n, "skyisles: settings %s is empty: using defaults", r.name);
    else if (root->type != YAML_MAPPING_NODE)
        snprintf(warning, warning_n, "skyisles: settings %s is not a settings file (no sections): using defaults", r.name);
    else tree_read(&t, root);
    yaml_document_delete(&t.doc);
    *s = tmp;
    tell_more(&r);
    one_line(warning);
    return warning[0] == 0;
}

void settings_parse(GameSettings *s, const char *text, size_t len, const char *name, char *warning, size_t warning_n) {
    parse_text(s, text, len, name, warning, warning_n);
}

void settings_load_file(GameSettings *s, const char *dir, bool *found, bool *damaged, char *warning, size_t warning_n) {
    char path[1024], own[320];
    if (!warning || !warning_n) warning = own, warning_n = sizeof own;
    warning[0] = 0;
    *found = false;
    if (damaged) *damaged = false;
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, SETTINGS_FILE) >= sizeof path) {
        snprintf(warning, warning_n, "skyisles: the config folder path is too long: using default settings");
        return;
    }
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (!exists && errno == ENOENT) return;   /* first start */
    *found = true;
    SkyError err = {0};
    size_t len = 0;
    uint8_t *text = file_read_all(path, SETTINGS_MAX_BYTES, &len, &err);
    if (!text) {
        snprintf(warning, warning_n, "skyisles: settings: %s: using defaults", err.msg);
        one_line(warning);
        if (damaged) *damaged = exists;   /* there, but unreadable: not to be written over blind */
        return;
    }
    bool clean = parse_text(s, (const char *)text, len, path, warning, warning_n);
    if (damaged) *damaged = !clean;
    free(text);   /* boot only */
}

void settings_load(GameSettings *s, const char *dir, bool *found, char *warning, size_t warning_n) {
    settings_load_file(s, dir, found, NULL, warning, warning_n);
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

static void put_bindings(Out *o, const InputSettings *in, const SettingDesc *d) {
    put(o, "  %s:            # %s\n", d->key, d->help);
    for (int a = 0; a < GA_COUNT; a++) {
        put(o, "    %s: [", game_action_name((GameAction)a));
        bool first = true;
        for (uint32_t i = 0; i < in->bind_count; i++) {
            if (in->binds[i].action != a) continue;
            char t[48];
            input_bind_text(&in->binds[i], t, sizeof t);
            put(o, "%s\"%s\"", first ? "" : ", ", t);
            first = false;
        }
        put(o, "]\n");
    }
}

/* One section: its rows in table order, each with its help as a comment. */
static void put_section(Out *o, const GameSettings *s, const char *section) {
    put(o, "\n%s:\n", section);
    for (size_t i = 0; i < setting_count(); i++) {
        const SettingDesc *d = setting_at(i);
        if (strcmp(d->section, section)) continue;
        if ((d->flags & SETTING_F_OPTIONAL) && !*(const bool *)((const char *)s + d->chosen_offset)) continue;
        if (d->type == SETTING_BINDING) {
            put_bindings(o, &s->input, d);
            continue;
        }
        char v[64];
        setting_format(s, d, v, sizeof v);
        int pad = 18 - (int)(strlen(d->key) + strlen(v));
        put(o, "  %s: %s%*s# %s\n", d->key, v, pad < 1 ? 1 : pad, "", d->help);
    }
}

size_t settings_format(const GameSettings *s, char *buf, size_t n) {
    Out o = {buf, n, 0};
    if (n) buf[0] = 0;
    put(&o, "# skyisles settings, written by the game when a setting changes (in the pause menu).\n"
            "# Edit it while skyisles is not running; a damaged line gives a warning and its default.\n"
            "version: %d\n", SETTINGS_VERSION);
    /* Sections in the order the table first names them (rows registered later may add one). */
    for (size_t i = 0; i < setting_count(); i++) {
        const char *sec = setting_at(i)->section;
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++) seen = !strcmp(setting_at(j)->section, sec);
        if (!seen) put_section(&o, s, sec);
    }
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

bool settings_save(const GameSettings *s, const char *dir, SkyError *err) {
    static char text[64 << 10];   /* the file as written; saves happen on the main thread only */
    size_t len = settings_format(s, text, sizeof text);
    if (len >= sizeof text) {
        sky_error_set(err, SKY_ERR_START, "skyisles: settings too long to save (%zu bytes)", len);
        return false;
    }
    return save_file_atomic(dir, SETTINGS_FILE, text, len, "settings", err);
}

bool settings_save_keeping(const GameSettings *s, const char *dir, bool *damaged, SkyError *err) {
    if (damaged && *damaged) {
        /* The damaged file is the player's to mend: it goes beside before anything replaces it.
         * Read whole into a buffer of the save's size (a settings file is capped at that). */
        static char old[SETTINGS_MAX_BYTES];
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, SETTINGS_FILE);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        ssize_t n = fd >= 0 ? 0 : -1;
        while (fd >= 0 && (size_t)n < sizeof old) {
            ssize_t k = read(fd, old + n, sizeof old - (size_t)n);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) {
                if (k < 0) n = -1;
                break;
            }
            n += k;
        }
        int saved = errno;
        if (fd >= 0) close(fd);
        errno = saved;
        if (n < 0 && errno != ENOENT) {
            sky_error_set(err, SKY_ERR_START, "skyisles: cannot read the damaged %s to keep it (%s): settings not saved, "
                          "the file is left as it is", path, strerror(errno));
            return false;
        }
        if (n >= 0) {
            if (!save_file_atomic(dir, SETTINGS_DAMAGED_FILE, old, (size_t)n, "the damaged settings", err)) {
                sky_error_set(err, SKY_ERR_START, "skyisles: cannot keep the damaged %s beside as %s: settings not "
                              "saved, the file is left as it is", path, SETTINGS_DAMAGED_FILE);
                return false;
            }
            log_warn("skyisles: the damaged settings file is kept as %s/%s (mend it or delete it)", dir,
                     SETTINGS_DAMAGED_FILE);
        }
        *damaged = false;
    }
    return settings_save(s, dir, err);
}
