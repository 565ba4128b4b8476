/* skyisles --show: the table of shots (play's screens and the menu's pages), then the shots the
 * game modes' rows name. */
#include <stdio.h>
#include <string.h>

#include "show.h"

static const Show k_shows[] = {
    {"hud", "flying, the default", SHOW_HUD, NULL, NULL, false},
    {"none", "flying, no HUD", SHOW_NONE, NULL, NULL, false},
    {"title", "the start screen", SHOW_TITLE, NULL, NULL, false},
    {"menu", "the pause menu", SHOW_PAGE, "pause", NULL, false},
    {"panel", "the world parameters", SHOW_PAGE, "panel", NULL, false},
    {"controls", "the controls page", SHOW_PAGE, "controls", NULL, false},
    {"display", "the display page", SHOW_PAGE, "display", NULL, false},
    {"sound", "the sound page", SHOW_PAGE, "sound", NULL, false},
    {"map", "the island map", SHOW_MAP, NULL, NULL, false},
    {"worldmap", "the world map after a survey flight from the spawn (40 km east, back west a cell south, east a cell north)", SHOW_WORLD_MAP,
     NULL, NULL, false},
    {"crash", "the crash screen", SHOW_CRASH, NULL, NULL, false},
    {"flyto", "the pause menu's Fly to page", SHOW_PAGE, "flyto", NULL, false},
    {"jobs", "the job board, as if stopped at the home island's base", SHOW_PAGE, "jobs", NULL, false},
    {"job", "flying with the base's first job: its arrow, place and distance on the HUD", SHOW_HUD, NULL, NULL, false},
    {"logbook", "the logbook page: the config folder's, read only, with the shot's flight", SHOW_PAGE, "logbook", NULL,
     false},
};
#define NSHOWS (sizeof k_shows / sizeof k_shows[0])

/* The i-th shot: the table's, then each mode's course shot and results shot. False past the end. */
static bool show_at(size_t i, Show *out) {
    if (i < NSHOWS) {
        *out = k_shows[i];
        return true;
    }
    i -= NSHOWS;
    for (size_t k = 0; k < mode_count(); k++) {
        const GameMode *m = mode_at(k);
        for (int results = 0; results < 2; results++) {
            const char *name = results ? m->show_results : m->show;
            if (!name || !m->lay) continue;
            if (i-- == 0) {
                *out = (Show){name, results ? m->show_results_help : m->show_help, SHOW_MODE, NULL, m, results != 0};
                return true;
            }
        }
    }
    return false;
}

bool show_find(const char *name, Show *out) {
    if (!name) name = "hud";
    for (size_t i = 0; show_at(i, out); i++)
        if (!strcmp(out->name, name)) return true;
    return false;
}

void show_help_text(char *buf, size_t n) {
    size_t len = 0;
    buf[0] = '\0';
    Show s;
    for (size_t i = 0; show_at(i, &s) && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s (%s)", i ? ", " : "", s.name, s.help ? s.help : "");
}
