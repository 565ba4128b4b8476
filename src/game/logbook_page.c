/* skyisles pause-menu pages of the deliveries: the job board of the place the aircraft stands at
 * (each offer an item: OK takes it) and the logbook (its records as lines). The menu builds a page
 * with the Menu alone, so the pages read the game's deliveries through the pointer bound at boot. */
#include <stdio.h>
#include <string.h>

#include "delivery.h"
#include "menu.h"

static GameDelivery *g_d;   /* the game's, bound once at boot */
static Menu *g_board;       /* the menu the board was last built in: its item says "Taken" */
static MenuActionDesc g_offers[JOBS_BOARD_MAX];

static unsigned take(int i) {
    if (!g_d || !jobs_take(&g_d->jobs, (uint32_t)i)) return 0;
    const Jobs *j = &g_d->jobs;
    char label[128], place[64];
    jobs_offer_label(j, &j->job, label, sizeof label);
    log_info("skyisles: job taken: %s", label);
    game_home_site_name(j->home, j->job.to, place, sizeof place);
    snprintf(label, sizeof label, "Taken: %s to %s", jobs_cargo_name(j, j->job.cargo), place);
    for (int k = 0; g_board && k < g_board->count; k++)   /* the label is cut to the item's */
        if (g_board->items[k].action == &g_offers[i])
            memcpy(g_board->items[k].label, label, sizeof g_board->items[k].label - 1);
    return 0;   /* no setting changes */
}
static unsigned take0(GameSettings *s) { (void)s; return take(0); }
static unsigned take1(GameSettings *s) { (void)s; return take(1); }
static unsigned take2(GameSettings *s) { (void)s; return take(2); }

/* One line of text on a page: an item that does nothing when chosen. */
static void line(Menu *m, const char *text) {
    static const MenuActionDesc info = {"logbook", "", NULL, MENU_CMD_NONE, NULL, "", 0};
    MenuItem *it = menu_add(m, MENU_ACTION, text, 0);
    if (it) it->action = &info;
}

static void board_rows(Menu *m) {
    static unsigned (*const run[JOBS_BOARD_MAX])(GameSettings *) = {take0, take1, take2};
    if (!g_d) return;
    g_board = m;
    const Jobs *j = &g_d->jobs;
    char text[128], place[64];
    if (j->carrying) {
        game_home_site_name(j->home, j->job.to, place, sizeof place);
        snprintf(text, sizeof text, "Carrying %s to %s", jobs_cargo_name(j, j->job.cargo), place);
        line(m, text);
    }
    if (j->n_board == 0) {
        line(m, j->stopped_at >= 0 ? "Nothing to carry from here" : "Land and stop at a place for its jobs");
        return;
    }
    for (uint32_t i = 0; i < j->n_board && i < JOBS_BOARD_MAX; i++) {
        jobs_offer_label(j, &j->board[i], text, sizeof text);
        g_offers[i] = (MenuActionDesc){"jobs", "", NULL, MENU_CMD_NONE, run[i],
                                     "take this job: its place shows on the HUD and the map", (int)i};
        MenuItem *it = menu_add(m, MENU_ACTION, text, 0);
        if (it) it->action = &g_offers[i];
    }
}

static void logbook_rows(Menu *m) {
    if (!g_d) return;
    const Logbook *lb = &g_d->log;
    char text[200], t[32];
    uint32_t places = 0, passed = 0;
    for (uint32_t s = 0; s < lb->n_sites; s++) places += lb->landed[s] != 0, passed += lb->passed[s] != 0;
    if (!lb->active) line(m, "Not kept in this run");
    snprintf(text, sizeof text, "Flights %u   hours %.1f", lb->flights, lb->flight_s / 3600.0);
    line(m, text);
    snprintf(text, sizeof text, "Distance %.1f km   top speed %.0f m/s", lb->distance_m / 1000.0, (double)lb->top_speed);
    line(m, text);
    snprintf(text, sizeof text, "Sonic booms %u   landings %u", lb->booms, lb->landings);
    line(m, text);
    if (lb->best_sink >= 0.0f) snprintf(text, sizeof text, "Best landing: sink %.2f m/s", (double)lb->best_sink);
    else snprintf(text, sizeof text, "Best landing: none yet");
    line(m, text);
    snprintf(text, sizeof text, "Places landed at %u of %u   landmarks passed %u", places, lb->n_sites, passed);
    line(m, text);
    snprintf(text, sizeof text, "Deliveries %u", lb->deliveries);
    line(m, text);
    for (uint32_t i = 0; i < lb->n_routes && g_d->jobs.home; i++) {
        char from[64], to[64];
        game_home_site_name(g_d->jobs.home, lb->routes[i].from, from, sizeof from);
        game_home_site_name(g_d->jobs.home, lb->routes[i].to, to, sizeof to);
        jobs_format_time(lb->routes[i].best_ms / 1000.0, t, sizeof t);
        snprintf(text, sizeof text, "%s to %s: best %s (%ux)", from, to, t, lb->routes[i].count);
        line(m, text);
    }
}

void delivery_pages_register(GameDelivery *d) {
    static bool done;
    g_d = d;
    if (done) return;
    done = true;
    static const MenuPageDesc pages[] = {
        {"jobs", "Job board", board_rows},
        {"logbook", "Logbook", logbook_rows},
    };
    static const MenuActionDesc open[] = {
        {"pause", "Job board", "jobs", MENU_CMD_NONE, NULL, "the jobs of the place you stand at: cargo to carry", 0},
        {"pause", "Logbook", "logbook", MENU_CMD_NONE, NULL, "your flights, landings and deliveries on this island", 0},
    };
    for (size_t i = 0; i < 2; i++)
        if (menu_page_register(&pages[i]) < 0 || !menu_action_register(&open[i]))
            log_warn("skyisles: the menu is full: '%s' left out", pages[i].title);
}
