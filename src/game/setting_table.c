/* skyisles game settings table: the rows (each setting's key, flag, page, range, step, default,
 * help and cost, once), rows registered at run time, and the typed access every reader uses. */
#include "settings.h"
#include "governor.h"        /* GOV_STEPS_MAX */
#include "sim/sim.h"         /* SIM_SPEED_LIMIT_DEFAULT */

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AT(f) offsetof(GameSettings, f)

static const char *const k_layouts[] = {"xbox", "nintendo"};
static const char *const k_layout_labels[] = {TX(SET_LAYOUT_XBOX), TX(SET_LAYOUT_NINTENDO)};
static const char *const k_cameras[] = {"chase", "cockpit"};
static const char *const k_camera_labels[] = {TX(SET_CAM_CHASE), TX(SET_CAM_COCKPIT)};
static const char *const k_quality_labels[] = {TX(SET_Q_LOW), TX(SET_Q_MEDIUM), TX(SET_Q_HIGH), TX(SET_Q_AUTO)};
static const char *const k_starts[] = {"air", "ground"};
static const char *const k_start_labels[] = {TX(SET_START_AIR), TX(SET_START_GROUND)};
/* The frame cap's names are its rates (game_frame_cap_fps reads them; "uncapped": none). */
static const char *const k_frame_caps[] = {"30", "60", "uncapped"};
static const char *const k_frame_cap_labels[] = {TX(SET_FPS_30), TX(SET_FPS_60), TX(SET_UNCAPPED)};
/* The weather row: "changing", then the kinds in WeatherKind's order (value - 1 is the kind). */
static const char *const k_weathers[] = {"changing", "clear", "cloudy", "overcast", "rain", "storm", "fog"};
static const char *const k_weather_labels[] = {TX(SET_WX_CHANGING), TX(SET_WX_CLEAR), TX(SET_WX_CLOUDY), TX(SET_WX_OVERCAST),
                                               TX(SET_WX_RAIN), TX(SET_WX_STORM), TX(SET_WX_FOG)};

static void quality_changed(GameSettings *s) { game_quality_apply(s, s->quality); }

/* The language's names are core's codes; each language is offered in its own words. */
static const char *const k_languages[] = {"en", "ja"};
static const char *const k_language_labels[] = {TX(LANG_EN_NAME), TX(LANG_JA_NAME)};
_Static_assert(sizeof k_languages / sizeof k_languages[0] == LANG_COUNT, "a name per language");
static void language_changed(GameSettings *s) { text_set_language((Lang)s->language); }

/* The output devices, known at run time (sound.c fills them from SDL): "default" first. They live
 * with the table so every reader of it (the fuzzers too) has them without the sound module. */
static char g_dev_buf[GAME_AUDIO_DEVICES_MAX][128] = {"default"};
static const char *g_dev_names[GAME_AUDIO_DEVICES_MAX] = {g_dev_buf[0]};
static int g_dev_count = 1;

int game_audio_device_names(const char *const **names) {
    *names = g_dev_names;
    return g_dev_count;
}

void game_audio_devices_set(const char (*names)[128], int n) {
    g_dev_count = 1;
    for (int i = 0; i < n && g_dev_count < GAME_AUDIO_DEVICES_MAX; i++) {
        if (!names[i][0] || !strcmp(names[i], "default")) continue;
        snprintf(g_dev_buf[g_dev_count], sizeof g_dev_buf[0], "%s", names[i]);
        g_dev_names[g_dev_count] = g_dev_buf[g_dev_count];
        g_dev_count++;
    }
}

/* THE table. Order is the file's and each page's order. */
static const SettingDesc k_rows[] = {
    /* controls */
    {.section = "controls", .key = "invert_pitch", .page = "controls", .label = TX(SET_INVERT_PITCH), .type = SETTING_BOOL,
     .offset = AT(input.invert_pitch), .max = 1, .step = 1, .def = 0,
     .help = TX(SET_INVERT_PITCH_HELP), .changes = MENU_CHANGED_CONTROLS},
    {.section = "controls", .key = "layout", .page = "controls", .label = TX(SET_LAYOUT), .type = SETTING_ENUM,
     .offset = AT(input.nintendo), .max = 1, .step = 1, .def = 0, .names = k_layouts, .labels = k_layout_labels,
     .n_names = 2, .flags = SETTING_F_BOOL_STORE, .changes = MENU_CHANGED_CONTROLS,
     .help = TX(SET_LAYOUT_HELP)},
    {.section = "controls", .key = "dead_zone", .page = "controls", .label = TX(SET_DEAD_ZONE), .type = SETTING_FLOAT,
     .offset = AT(input.dead_zone), .min = 0, .max = INPUT_DEAD_ZONE_MAX, .step = 0.01, .def = INPUT_DEAD_ZONE_DEFAULT,
     .help = TX(SET_DEAD_ZONE_HELP), .changes = MENU_CHANGED_CONTROLS},
    {.section = "controls", .key = "curve", .page = "controls", .label = TX(SET_CURVE), .type = SETTING_FLOAT,
     .offset = AT(input.curve), .min = INPUT_CURVE_MIN, .max = INPUT_CURVE_MAX, .step = 0.1, .def = INPUT_CURVE_DEFAULT,
     .help = TX(SET_CURVE_HELP), .changes = MENU_CHANGED_CONTROLS},
    {.section = "controls", .key = "button_ramp", .page = "controls", .label = TX(SET_RAMP), .unit = "s",
     .type = SETTING_FLOAT, .offset = AT(input.button_ramp), .min = 0, .max = INPUT_BUTTON_RAMP_MAX, .step = 0.05,
     .def = INPUT_BUTTON_RAMP_DEFAULT, .changes = MENU_CHANGED_CONTROLS,
     .help = TX(SET_RAMP_HELP)},
    {.section = "controls", .key = "bindings", .page = "bindings", .label = "Bindings", .type = SETTING_BINDING,
     .offset = AT(input), .help = TX(SET_BINDINGS_HELP),
     .changes = MENU_CHANGED_CONTROLS},
    /* display */
    {.section = "display", .key = "language", .flag = "--lang", .page = "display", .label = TX(SET_LANGUAGE),
     .type = SETTING_ENUM, .offset = AT(language), .max = LANG_COUNT - 1, .step = 1, .def = LANG_EN,
     .names = k_languages, .labels = k_language_labels, .n_names = LANG_COUNT, .flags = SETTING_F_OPTIONAL,
     .chosen_offset = AT(language_chosen), .on_change = language_changed, .changes = MENU_CHANGED_DISPLAY,
     .help = TX(SET_LANGUAGE_HELP)},
    {.section = "display", .key = "quality", .flag = "--quality", .page = "display", .label = TX(SET_QUALITY),
     .type = SETTING_ENUM, .offset = AT(quality), .max = GAME_QUALITY_COUNT - 1, .step = 1, .def = GAME_QUALITY_AUTO,
     .names = game_quality_names, .labels = k_quality_labels, .n_names = GAME_QUALITY_COUNT, .flags = SETTING_F_OPTIONAL,
     .chosen_offset = AT(quality_chosen), .on_change = quality_changed, .changes = MENU_CHANGED_QUALITY,
     .help = TX(SET_QUALITY_HELP)},
    /* the renderer's picture rows (lines, 4:3, snap, 15-bit, dither, fog, clouds, fov) */
    {.section = "display", .render_group = RENDER_GROUP_PICTURE},
    {.section = "flight", .key = "hud", .flag = "--no-hud", .page = "display", .label = TX(SET_HUD), .type = SETTING_BOOL,
     .offset = AT(hud), .max = 1, .step = 1, .def = 1, .help = TX(SET_HUD_HELP),
     .changes = MENU_CHANGED_FLIGHT},
    {.section = "flight", .key = "camera", .page = "display", .label = TX(SET_CAMERA), .type = SETTING_ENUM,
     .offset = AT(camera), .max = 1, .step = 1, .def = GAME_CAMERA_CHASE, .names = k_cameras, .labels = k_camera_labels, .n_names = 2,
     .help = TX(SET_CAMERA_HELP), .changes = MENU_CHANGED_FLIGHT},
    {.section = "display", .key = "frame_cap", .page = "display", .label = TX(SET_FRAME_CAP), .type = SETTING_ENUM,
     .offset = AT(frame_cap), .max = 2, .step = 1, .def = 2, .names = k_frame_caps, .labels = k_frame_cap_labels,
     .n_names = 3, .changes = MENU_CHANGED_DISPLAY, .help = TX(SET_FRAME_CAP_HELP)},
    {.section = "display", .key = "vsync", .page = "display", .label = TX(SET_VSYNC), .type = SETTING_BOOL,
     .offset = AT(vsync), .max = 1, .step = 1, .def = 1, .changes = MENU_CHANGED_DISPLAY,
     .help = TX(SET_VSYNC_HELP)},
    {.section = "display", .key = "fullscreen", .page = "display", .label = TX(SET_FULLSCREEN), .type = SETTING_BOOL,
     .offset = AT(fullscreen), .max = 1, .step = 1, .def = 0, .changes = MENU_CHANGED_DISPLAY,
     .help = TX(SET_FULLSCREEN_HELP)},
    {.section = "display", .render_group = RENDER_GROUP_HUD},   /* the HUD size */
    {.section = "display", .key = "show_position", .flag = "--show-position", .page = "display", .label = TX(SET_SHOW_POSITION),
     .type = SETTING_BOOL, .offset = AT(show_position), .max = 1, .step = 1, .def = 0, .changes = MENU_CHANGED_FLIGHT,
     .help = TX(SET_SHOW_POSITION_HELP)},
    {.section = "display", .key = "screenshot_hud", .page = "display", .label = TX(SET_SHOT_HUD),
     .type = SETTING_BOOL, .offset = AT(shot_hud), .max = 1, .step = 1, .def = 1,
     .help = TX(SET_SHOT_HUD_HELP), .changes = MENU_CHANGED_DISPLAY},
    {.section = "display", .key = "auto_level", .type = SETTING_INT, .offset = AT(auto_level), .min = -1,
     .max = GOV_STEPS_MAX, .step = 1, .def = -1,
     .help = "where Quality auto settled last: the next start begins there (-1: the first start measures)"},
    {.section = "display", .key = "auto_skip", .type = SETTING_INT, .offset = AT(auto_skip), .min = 0,
     .max = (1 << GOV_SKIP_BITS) - 1, .step = 1, .def = 0,
     .help = "the steps of Quality auto's ladder that bought nothing on this device (bit i: step i), kept with auto_level"},
    /* flight */
    {.section = "flight", .key = "speed_limit", .flag = "--speed-limit", .page = "panel", .label = TX(SET_SPEED_LIMIT),
     .unit = "m/s", .type = SETTING_FLOAT, .offset = AT(speed_limit), .min = 40, .max = 5000, .step = 20, .def = SIM_SPEED_LIMIT_DEFAULT,
     .help = TX(SET_SPEED_LIMIT_HELP), .changes = MENU_CHANGED_FLIGHT},
    {.section = "flight", .key = "collision", .flag = "--no-collision", .page = "panel", .label = TX(SET_COLLISION),
     .type = SETTING_BOOL, .offset = AT(collision), .max = 1, .step = 1, .def = 1,
     .help = TX(SET_COLLISION_HELP), .changes = MENU_CHANGED_FLIGHT},
    {.section = "flight", .key = "start", .flag = "--start-on", .page = "panel", .label = TX(SET_START),
     .type = SETTING_ENUM, .offset = AT(start_ground), .max = 1, .step = 1, .def = 0, .names = k_starts,
     .labels = k_start_labels, .n_names = 2, .flags = SETTING_F_BOOL_STORE, .changes = MENU_CHANGED_FLIGHT,
     .help = TX(SET_START_HELP)},
    {.section = "flight", .key = "weather", .flag = "--weather", .page = "display", .label = TX(SET_WEATHER),
     .type = SETTING_ENUM, .offset = AT(weather), .max = WEATHER_KINDS, .step = 1, .def = 0, .names = k_weathers,
     .labels = k_weather_labels, .n_names = WEATHER_KINDS + 1, .changes = MENU_CHANGED_FLIGHT,
     .help = TX(SET_WEATHER_HELP)},
    /* sound: every change heard at once */
    {.section = "sound", .key = "master", .flag = "--volume", .page = "sound", .label = TX(SET_MASTER), .type = SETTING_FLOAT,
     .offset = AT(sound.master), .min = 0, .max = 1, .step = 0.1, .def = 0.8,
     .help = TX(SET_MASTER_HELP), .changes = MENU_CHANGED_SOUND},
    {.section = "sound", .key = "engine", .page = "sound", .label = TX(SET_ENGINE), .type = SETTING_FLOAT,
     .offset = AT(sound.engine), .min = 0, .max = 1, .step = 0.1, .def = 1,
     .help = TX(SET_ENGINE_HELP), .changes = MENU_CHANGED_SOUND},
    {.section = "sound", .key = "wind", .page = "sound", .label = TX(SET_WIND), .type = SETTING_FLOAT,
     .offset = AT(sound.wind), .min = 0, .max = 1, .step = 0.1, .def = 1,
     .help = TX(SET_WIND_HELP), .changes = MENU_CHANGED_SOUND},
    {.section = "sound", .key = "effects", .page = "sound", .label = TX(SET_EFFECTS), .type = SETTING_FLOAT,
     .offset = AT(sound.effects), .min = 0, .max = 1, .step = 0.1, .def = 1,
     .help = TX(SET_EFFECTS_HELP), .changes = MENU_CHANGED_SOUND},
    {.section = "sound", .key = "mute", .flag = "--mute", .page = "sound", .label = TX(SET_MUTE), .type = SETTING_BOOL,
     .offset = AT(sound.mute), .max = 1, .step = 1, .def = 0, .help = TX(SET_MUTE_HELP),
     .changes = MENU_CHANGED_SOUND},
    {.section = "sound", .key = "device", .page = "sound", .label = TX(SET_DEVICE), .type = SETTING_ENUM,
     .offset = AT(sound.device), .max = GAME_AUDIO_DEVICES_MAX - 1, .step = 1, .def = 0, .names_fn = game_audio_device_names,
     .help = TX(SET_DEVICE_HELP), .changes = MENU_CHANGED_SOUND},
    {.section = "sound", .key = "rumble", .flag = "--no-rumble", .page = "sound", .label = TX(SET_RUMBLE), .type = SETTING_BOOL,
     .offset = AT(sound.rumble), .max = 1, .step = 1, .def = 1,
     .help = TX(SET_RUMBLE_HELP), .changes = MENU_CHANGED_SOUND},
    {.section = "sound", .key = "rumble_strength", .page = "sound", .label = TX(SET_RUMBLE_STRENGTH), .type = SETTING_FLOAT,
     .offset = AT(sound.rumble_strength), .min = 0, .max = 1, .step = 0.1, .def = 0.7,
     .help = TX(SET_RUMBLE_STRENGTH_HELP), .changes = MENU_CHANGED_SOUND},
};
#define NROWS (sizeof k_rows / sizeof k_rows[0])

/* The renderer's rows that a quality preset sets (game_quality_apply): a flag for one of them
 * stops the first-start guess. */
static const char *const k_preset_look[] = {"lines", "sky_clouds", "clouds"};

static const SettingType k_render_types[] = {
    [RENDER_PT_BOOL] = SETTING_BOOL, [RENDER_PT_INT] = SETTING_INT, [RENDER_PT_FLOAT] = SETTING_FLOAT,
    [RENDER_PT_ENUM] = SETTING_ENUM, [RENDER_PT_U32] = SETTING_INT,
};

/* A renderer row as a display row of the game's settings (its value in GameSettings.render). */
static SettingDesc render_row(const RenderParamDesc *p) {
    SettingDesc d = {.section = "display", .key = p->name, .flag = p->flag, .page = "display", .label = p->label,
                     .unit = p->unit, .type = k_render_types[p->type], .offset = AT(render) + p->offset,
                     .min = p->min, .max = p->max, .step = p->step, .def = p->def, .names = p->names,
                     .labels = p->labels, .n_names = p->n_names, .stops = p->stops, .n_stops = p->n_stops,
                     .help = p->help, .changes = MENU_CHANGED_DISPLAY, .flags = p->zero_off ? SETTING_F_OFF : 0u};
    for (size_t k = 0; k < sizeof k_preset_look / sizeof k_preset_look[0]; k++)
        if (!strcmp(p->name, k_preset_look[k])) d.flags |= SETTING_F_PRESET;
    return d;
}

/* The built-in rows with the renderer's player rows in their places: made once, then read only. */
static SettingDesc g_rows[NROWS + 32];
static size_t g_rows_n;
static pthread_once_t g_rows_once = PTHREAD_ONCE_INIT;

static void rows_build(void) {
    for (size_t i = 0; i < NROWS; i++) {
        if (!k_rows[i].render_group) {
            g_rows[g_rows_n++] = k_rows[i];
            continue;
        }
        for (size_t j = 0; j < render_param_count(); j++) {
            const RenderParamDesc *p = render_param_at(j);
            if ((int)p->group != k_rows[i].render_group) continue;
            if (g_rows_n >= sizeof g_rows / sizeof g_rows[0]) abort();   /* a build defect: g_rows too short */
            g_rows[g_rows_n++] = render_row(p);
        }
    }
}

static size_t built_count(void) {
    pthread_once(&g_rows_once, rows_build);
    return g_rows_n;
}

/* Rows added at run time (tests, later modules), after the built-in ones. */
static SettingDesc g_extra[SETTING_MAX_ROWS];
static size_t g_extra_n;

size_t setting_count(void) { return built_count() + g_extra_n; }

const SettingDesc *setting_at(size_t i) {
    size_t n = built_count();
    if (i < n) return &g_rows[i];
    i -= n;
    return i < g_extra_n ? &g_extra[i] : NULL;
}

const SettingDesc *setting_find(const char *section, const char *key) {
    for (size_t i = 0; section && key && i < setting_count(); i++) {
        const SettingDesc *d = setting_at(i);
        if (!strcmp(d->section, section) && !strcmp(d->key, key)) return d;
    }
    return NULL;
}

const SettingDesc *setting_find_flag(const char *flag) {
    for (size_t i = 0; flag && i < setting_count(); i++)
        if (setting_at(i)->flag && !strcmp(setting_at(i)->flag, flag)) return setting_at(i);
    return NULL;
}

static size_t store_size(const SettingDesc *d) {
    if (d->type == SETTING_BOOL || (d->type == SETTING_ENUM && (d->flags & SETTING_F_BOOL_STORE))) return sizeof(bool);
    if (d->type == SETTING_FLOAT) return sizeof(float);
    if (d->type == SETTING_BINDING) return sizeof(InputSettings);
    return sizeof(int);
}

bool setting_register(const SettingDesc *d) {
    if (!d || !d->section || !d->key || g_extra_n >= SETTING_MAX_ROWS || d->offset + store_size(d) > sizeof(GameSettings))
        return false;
    if (setting_find(d->section, d->key) || (d->flag && setting_find_flag(d->flag))) return false;
    if (d->type != SETTING_BINDING && d->type != SETTING_BOOL && !(d->min <= d->def && d->def <= d->max)) return false;
    if (d->type == SETTING_FLOAT && !(d->step > 0.0)) return false;
    if (d->type == SETTING_ENUM && !d->names_fn && (!d->names || d->n_names < 1)) return false;
    g_extra[g_extra_n++] = *d;
    return true;
}

int setting_names(const SettingDesc *d, const char *const **names) {
    if (d->names_fn) return d->names_fn(names);
    *names = d->names;
    return d->n_names;
}

double setting_get(const GameSettings *s, const SettingDesc *d) {
    const char *at = (const char *)s + d->offset;
    switch (store_size(d) == sizeof(bool) ? SETTING_BOOL : d->type) {
    case SETTING_BOOL: return *(const bool *)at ? 1.0 : 0.0;
    case SETTING_FLOAT: return *(const float *)at;
    case SETTING_INT:
    case SETTING_ENUM: return *(const int *)at;
    default: return 0.0;
    }
}

int setting_decimals(double step, double def, double min, double max) {
    const double v[4] = {step, def, min, max};
    int most = 0;
    for (int i = 0; i < 4; i++) {
        int d = 0;
        double scale = 1.0;
        while (d < 6 && fabs(v[i] * scale - round(v[i] * scale)) > 1e-6 * scale * (fabs(v[i]) > 1 ? fabs(v[i]) : 1))
            d++, scale *= 10.0;
        if (d > most) most = d;
    }
    return most;
}

/* The nearest point of the row's grid (default + k * step), rounded to its decimals so a float
 * holds the same number the menu prints. */
double setting_pow10(int k) {
    double p = 1.0;
    for (int i = 0; i < k; i++) p *= 10.0;
    for (int i = 0; i > k; i--) p /= 10.0;
    return p;
}

double setting_grid(double v, double def, double step, int decimals) {
    if (!(step > 0.0)) return v;
    double g = def + round((v - def) / step) * step;
    double scale = setting_pow10(decimals);
    return round(g * scale) / scale;
}

static double on_grid(const SettingDesc *d, double v) {
    return setting_grid(v, d->def, d->step, setting_decimals(d->step, d->def, d->min, d->max));
}

void setting_set(GameSettings *s, const SettingDesc *d, double v) {
    if (v != v || d->type == SETTING_BINDING) return;
    bool off = (d->flags & SETTING_F_OFF) && v == d->off;
    if (!off) {
        if (v < d->min) v = d->min;
        if (v > d->max) v = d->max;
    }
    if (d->type == SETTING_ENUM) {   /* a run-time list may be shorter than the row's range */
        const char *const *names;
        int n = setting_names(d, &names);
        if (v > n - 1) v = n > 0 ? n - 1 : 0;
    }
    char *at = (char *)s + d->offset;
    if (store_size(d) == sizeof(bool)) *(bool *)at = v != 0.0;
    else if (d->type == SETTING_FLOAT) *(float *)at = (float)v;
    else *(int *)at = (int)floor(v + 0.5);
    if ((d->flags & SETTING_F_OPTIONAL)) *(bool *)((char *)s + d->chosen_offset) = true;
}

int setting_range_text(const SettingDesc *d, char *buf, size_t n) {
    const char *const *names;
    switch (d->type) {
    case SETTING_BOOL: return snprintf(buf, n, "true or false");
    case SETTING_BINDING: return snprintf(buf, n, "action: [list]");
    case SETTING_ENUM: {
        int k = setting_names(d, &names), len = 0;
        buf[0] = 0;
        for (int i = 0; i < k && (size_t)len < n; i++)
            len += snprintf(buf + len, n - (size_t)len, "%s%s", i ? (i + 1 == k ? " or " : ", ") : "", names[i]);
        return len;
    }
    default:
        if (d->flags & SETTING_F_OFF) return snprintf(buf, n, "%g or %g..%g", d->off, d->min, d->max);
        return snprintf(buf, n, "%g..%g", d->min, d->max);
    }
}

bool setting_parse(GameSettings *s, const SettingDesc *d, const char *text, char *why, size_t why_n) {
    char range[160];
    setting_range_text(d, range, sizeof range);
    if (d->type == SETTING_BOOL) {
        static const char *const yes[] = {"true", "yes", "on"}, *const no[] = {"false", "no", "off"};
        for (int i = 0; text && i < 3; i++) {
            if (!strcmp(text, yes[i])) { setting_set(s, d, 1.0); return true; }
            if (!strcmp(text, no[i])) { setting_set(s, d, 0.0); return true; }
        }
        snprintf(why, why_n, "'%s.%s' must be true or false", d->section, d->key);
        return false;
    }
    if (d->type == SETTING_ENUM) {
        const char *const *names;
        int k = setting_names(d, &names);
        for (int i = 0; text && i < k; i++)
            if (!strcmp(text, names[i])) { setting_set(s, d, i); return true; }
        snprintf(why, why_n, "'%s.%s' must be %s", d->section, d->key, range);
        return false;
    }
    if (d->type == SETTING_BINDING) {
        snprintf(why, why_n, "'%s.%s' must be a mapping of actions to lists", d->section, d->key);
        return false;
    }
    char *end = NULL;
    errno = 0;
    double v = text ? strtod(text, &end) : 0.0;
    bool whole = d->type != SETTING_INT || v == floor(v);
    bool in = (v >= d->min && v <= d->max) || ((d->flags & SETTING_F_OFF) && v == d->off);
    if (!text || !*text || *end || errno || !in || !whole) {
        const char *what = d->type == SETTING_INT ? "a whole number" : "a number";
        if (d->flags & SETTING_F_OFF)
            snprintf(why, why_n, "'%s.%s' must be %g or %s in %g..%g", d->section, d->key, d->off, what, d->min, d->max);
        else
            snprintf(why, why_n, "'%s.%s' must be %s in %s", d->section, d->key, what, range);
        return false;
    }
    setting_set(s, d, v);
    return true;
}

/* The shortest text that reads back as the same float (0.15, not 0.150000006). */
static int shortest(float v, char *buf, size_t n) {
    char t[32];
    for (int digits = 6; digits <= 9; digits++) {
        snprintf(t, sizeof t, "%.*g", digits, (double)v);
        if (strtof(t, NULL) == v) break;
    }
    return snprintf(buf, n, "%s", t);
}

int setting_format(const GameSettings *s, const SettingDesc *d, char *buf, size_t n) {
    double v = setting_get(s, d);
    if (d->type == SETTING_BOOL) return snprintf(buf, n, "%s", v != 0.0 ? "true" : "false");
    if (d->type == SETTING_ENUM) {
        const char *const *names;
        int k = setting_names(d, &names), i = (int)v;
        return snprintf(buf, n, "%s", i >= 0 && i < k ? names[i] : "?");
    }
    if (d->type == SETTING_FLOAT) return shortest((float)v, buf, n);
    return snprintf(buf, n, "%d", (int)v);
}

int setting_default_text(const SettingDesc *d, char *buf, size_t n) {
    static GameSettings tmp;   /* a scratch value of the row's own type; boot and --help only */
    if (d->type == SETTING_BINDING) return snprintf(buf, n, "built in");
    setting_set(&tmp, d, d->def);
    return setting_format(&tmp, d, buf, n);
}

int setting_show(const GameSettings *s, const SettingDesc *d, char *buf, size_t n) {
    double v = setting_get(s, d);
    const char *u = d->unit ? text_tr(d->unit) : "";
    const char *sp = d->unit ? " " : "";
    if (d->type == SETTING_BOOL) return snprintf(buf, n, "%s", text_get(v != 0.0 ? TEXT_VALUE_ON : TEXT_VALUE_OFF));
    if (d->type == SETTING_ENUM) {
        const char *const *names;
        int k = setting_names(d, &names), i = (int)v;
        const char *const *words = d->labels && !d->names_fn ? d->labels : names;
        return snprintf(buf, n, "%s", i >= 0 && i < k ? text_tr(words[i]) : "?");
    }
    if ((d->flags & SETTING_F_OFF) && v == d->off) return snprintf(buf, n, "%s", text_get(TEXT_VALUE_FULL));
    if (d->type == SETTING_FLOAT)
        return snprintf(buf, n, "%.*f%s%s", setting_decimals(d->step, d->def, d->min, d->max), v, sp, u);
    return snprintf(buf, n, "%d%s%s", (int)v, sp, u);
}

bool setting_step(GameSettings *s, const SettingDesc *d, int dir, int mult) {
    double v = setting_get(s, d), next;
    if (d->type == SETTING_BINDING) return false;
    if (d->type == SETTING_BOOL) {
        next = v != 0.0 ? 0.0 : 1.0;
    } else if (d->type == SETTING_ENUM) {
        const char *const *names;
        next = v + dir;
        if (next < 0 || next >= setting_names(d, &names)) return false;
    } else if (d->stops) {
        int i = 0;   /* the stop at or below the value, then the next one over */
        while (i + 1 < d->n_stops && d->stops[i + 1] <= v) i++;
        int j = (d->stops[i] < v && dir < 0) ? i : i + dir;
        if (j < 0 || j >= d->n_stops) return false;
        next = d->stops[j];
    } else {
        double step = d->step > 0.0 ? d->step : 1.0;
        next = on_grid(d, on_grid(d, v) + (double)dir * mult * step);
        if (next < d->min) next = d->min;
        if (next > d->max) next = d->max;
    }
    if (next == v) return false;
    setting_set(s, d, next);
    return setting_get(s, d) != v;
}

/* The presets' names, for the quality row, the flag and the file. */
const char *const game_quality_names[GAME_QUALITY_COUNT] = {"low", "medium", "high", "auto"};
const char *game_quality_name(GameQuality q) { return q < GAME_QUALITY_COUNT ? game_quality_names[q] : "auto"; }

bool game_quality_parse(const char *s, GameQuality *out) {
    for (int q = 0; q < GAME_QUALITY_COUNT; q++)
        if (s && !strcmp(s, game_quality_names[q])) {
            *out = (GameQuality)q;
            return true;
        }
    return false;
}

/* ---------------------------------------------------------------- presets */
void game_quality_apply(GameSettings *s, GameQuality q) {
    /* The world's part (view radius, LOD bands, the governor's reach floor) is the world's own
     * preset of the same name, chosen with build/bench stream --device (docs/world-streaming.md). */
    _Static_assert((int)GAME_QUALITY_LOW == (int)WORLD_PRESET_LOW && (int)GAME_QUALITY_HIGH == (int)WORLD_PRESET_HIGH,
                   "game and world presets line up");
    if ((unsigned)q >= GAME_QUALITY_COUNT) q = GAME_QUALITY_AUTO;
    s->quality = q;
    s->quality_chosen = true;
    GameQuality values = q == GAME_QUALITY_AUTO ? GAME_QUALITY_HIGH : q;   /* auto: the ceiling */
    WorldCreateParams create = s->world.create;
    world_params_preset(&s->world, (WorldPreset)values);
    s->world.create = create;   /* creation values stay the game's (boot_plan) */
    /* Low: VideoCore IV / Mali-400 class: no cloud blending (the cost on tile GPUs is overdraw).
     * High: more lines on a GPU that has the fill rate. */
    s->render.live.lines = values == GAME_QUALITY_HIGH ? 360 : 240;
    s->render.live.draw_clouds = values != GAME_QUALITY_LOW;
    s->render.live.sky_clouds = true;
}
