/* skyisles game settings table: every game setting described once (file key and section, flag,
 * menu page and label, type, range, step, default, help, what a change costs), read by the
 * defaults, the settings file, the command line, --help and the menu pages. The renderer's
 * player rows come from its own table (render.h) at their place in the display section. */
#ifndef SKYISLES_GAME_SETTINGS_TABLE_H
#define SKYISLES_GAME_SETTINGS_TABLE_H

#include <stdbool.h>
#include <stddef.h>

struct GameSettings;

/* Which settings a change touched (the game applies each kind its own way). */
enum {
    MENU_CHANGED_WORLD = 1,     /* world parameters: gen values rebuild, live ones apply at once */
    MENU_CHANGED_FLIGHT = 2,
    MENU_CHANGED_DISPLAY = 4,
    MENU_CHANGED_CONTROLS = 8,
    MENU_CHANGED_QUALITY = 16,  /* a preset was picked: display and world values follow it */
    MENU_CHANGED_SOUND = 32,    /* volumes (read each frame) and the output device (reopened) */
};

typedef enum SettingType {
    SETTING_BOOL = 0,   /* bool; a flag is a switch: "--no-x" turns it off, any other on */
    SETTING_INT,        /* int */
    SETTING_FLOAT,      /* float, on the decimal grid default + k * step */
    SETTING_ENUM,       /* int index into names (or bool with SETTING_F_BOOL_STORE) */
    SETTING_BINDING,    /* InputSettings: a mapping of action -> list of bindings (one row) */
} SettingType;

enum {
    SETTING_F_RESTART = 1,      /* a change takes effect at the next start */
    SETTING_F_BOOL_STORE = 2,   /* an enum of two names kept in a bool */
    SETTING_F_OFF = 4,          /* `off` is allowed besides min..max ("0 = full resolution") */
    SETTING_F_OPTIONAL = 8,     /* written only once chosen (the bool at chosen_offset) */
    SETTING_F_PRESET = 16,      /* part of the quality preset: a flag for it stops the first-start guess */
};

/* Run-time enum names (audio devices): fills *names, returns their count. */
typedef int (*SettingNamesFn)(const char *const **names);

typedef struct SettingDesc {
    const char *section;        /* "controls", "display", "flight" (the file's sections) */
    const char *key;            /* lower_snake, unique in its section */
    const char *flag;           /* "--speed-limit", or NULL: not on the command line */
    const char *page;           /* menu page name ("display"), or NULL: not in a menu */
    const char *label;          /* in the menu */
    const char *unit;           /* "m/s", "deg" or NULL */
    SettingType type;
    size_t offset;              /* of the value in GameSettings */
    double min, max, step, def; /* enum: def is the index of the default name */
    const char *const *names;   /* enum: the names the file and the flag use */
    const char *const *labels;  /* enum: the menu's words for them (NULL: the names) */
    int n_names;
    SettingNamesFn names_fn;    /* enum: names known at run time (overrides names) */
    const int *stops;           /* int: the values the menu steps through (NULL: the grid) */
    int n_stops;
    double off;                 /* SETTING_F_OFF: the allowed value outside min..max */
    const char *help;           /* one line, for --help and the menu */
    unsigned changes;           /* MENU_CHANGED_* of a change */
    unsigned flags;             /* SETTING_F_* */
    size_t chosen_offset;       /* SETTING_F_OPTIONAL: bool in GameSettings, true once chosen */
    /* What else a value decides when the player sets it (menu, flag; not the file): a preset. */
    void (*on_change)(struct GameSettings *s);
    /* In the built-in list only: the place of the renderer table's player rows of this group
     * (RenderParamGroup); the table shows those rows here, as display rows. */
    int render_group;
} SettingDesc;

#define SETTING_MAX_ROWS 96

size_t setting_count(void);
const SettingDesc *setting_at(size_t i);                               /* NULL past the end */
const SettingDesc *setting_find(const char *section, const char *key); /* NULL when unknown */
const SettingDesc *setting_find_flag(const char *flag);                /* NULL when unknown */
/* Adds a row at run time (before settings are read: boot, or a test). False when the table is
 * full, the row is malformed, or its key or flag is taken. */
bool setting_register(const SettingDesc *d);

/* Enum names of a row (run-time names when the row has a callback). */
int setting_names(const SettingDesc *d, const char *const **names);
/* The value as a double (bool 0/1, enum index); bindings: 0. */
double setting_get(const struct GameSettings *s, const SettingDesc *d);
/* Stores v (clamped to the range; ints rounded; floats on the row's decimal grid). */
void setting_set(struct GameSettings *s, const SettingDesc *d, double v);
/* Parses one value as the file or a flag writes it; false with a one-line reason in why. */
bool setting_parse(struct GameSettings *s, const SettingDesc *d, const char *text, char *why, size_t why_n);
/* The value as the file writes it ("true", "240", "0.15", "cockpit"). */
int setting_format(const struct GameSettings *s, const SettingDesc *d, char *buf, size_t n);
/* The value as the menu shows it, at the step's precision with its unit ("0.16", "70 deg"). */
int setting_show(const struct GameSettings *s, const SettingDesc *d, char *buf, size_t n);
/* Digits after the point a step on the grid (min, max, default, step) needs: 0..6. */
int setting_decimals(double step, double def, double min, double max);
/* 10^k for a whole k, by products (libm's pow would raise the release build's glibc floor to 2.29). */
double setting_pow10(int k);
/* The point of the grid def + k * step nearest v, rounded to `decimals` (a float then holds the
 * number the menu prints). */
double setting_grid(double v, double def, double step, int decimals);
/* One menu step (+1/-1, times `mult`) on the row's grid or stops; true when the value changed. */
bool setting_step(struct GameSettings *s, const SettingDesc *d, int dir, int mult);
/* The range as --help and errors word it ("40..5000", "0 or 64..480", "low, medium, high"). */
int setting_range_text(const SettingDesc *d, char *buf, size_t n);
/* The default as the file writes it. */
int setting_default_text(const SettingDesc *d, char *buf, size_t n);

#endif
