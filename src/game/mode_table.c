/* skyisles game modes: the table. One row per mode (name, help, course layout, --show shots, HUD
 * and results); the game, the title, the menu, the options and the shots only walk it. */
#include <string.h>

#include "menu.h"
#include "mode.h"

static bool lay_tour(Course *c, const World *w, const CourseIsland *at, const IslandCodex *cx, CourseWork *work,
                     SkyError *err) {
    return course_lay_tour(c, w, at, cx, text_lang_code(text_language()), work, err);
}

static bool lay_sky(Course *c, const World *w, const CourseIsland *at, const IslandCodex *cx, CourseWork *work,
                    SkyError *err) {
    (void)at;
    (void)cx;
    return course_lay_sky(c, w, COURSE_SKY_DEFAULT, work, err);
}

/* The built-in modes. Row 0 lays nothing: the game starts in it and falls back to it. */
static GameMode g_modes[MODE_MAX] = {
    {.name = TX(MODE_FREE), .help = TX(MODE_FREE_HELP)},
    {.name = TX(MODE_TOUR), .help = TX(MODE_TOUR_HELP),
     .lay = lay_tour, .course = COURSE_TOUR,
     .show = "tour", .show_help = "a ring of the island tour", .show_ring = 3, .show_back = 60.0, .show_up = 10.0,
     .show_results = "results", .show_results_help = "the tour flown by the course pilot",
     .hud = course_hud_draw, .results = course_results_draw, .keep_best = true, .bench = true},
    {.name = TX(MODE_SKY), .help = TX(MODE_SKY_HELP),
     .lay = lay_sky, .course = COURSE_SKY,
     .show = "sky", .show_help = "a sky course", .show_ring = 1, .show_back = 40.0, .show_up = 3.0,
     .hud = course_hud_draw, .results = course_results_draw, .keep_best = true, .attract = true},
};
static size_t g_count = 3;

size_t mode_count(void) { return g_count; }
const GameMode *mode_at(size_t i) { return i < g_count ? &g_modes[i] : NULL; }
const GameMode *mode_free(void) { return &g_modes[0]; }

int mode_index(const GameMode *m) {
    for (size_t i = 0; i < g_count; i++)
        if (m == &g_modes[i]) return (int)i;
    return -1;
}

const GameMode *mode_for_course(CourseKind k) {
    for (size_t i = 0; i < g_count; i++)
        if (g_modes[i].lay && g_modes[i].course == k) return &g_modes[i];
    return NULL;
}

const GameMode *mode_attract(void) {
    for (size_t i = 0; i < g_count; i++)
        if (g_modes[i].attract) return &g_modes[i];
    return NULL;
}

const GameMode *mode_bench(void) {
    for (size_t i = 0; i < g_count; i++)
        if (g_modes[i].bench) return &g_modes[i];
    return NULL;
}

bool mode_register(const GameMode *m) {
    if (!m || !m->name || !m->help || g_count >= MODE_MAX || (m->lay && (!m->hud || !m->results))) return false;
    for (size_t i = 0; i < g_count; i++)
        if (!strcmp(g_modes[i].name, m->name)) return false;
    g_modes[g_count++] = *m;
    return true;
}

void mode_menu_register(void) {
    static bool done;
    if (done) return;
    done = true;
    for (size_t i = 0; i < g_count; i++) {
        MenuActionDesc a = {"pause", g_modes[i].name, NULL, MENU_CMD_MODE, NULL, g_modes[i].help, (int)i};
        if (!menu_action_register(&a)) log_warn("skyisles: the menu is full: '%s' left out", a.label);
    }
}
