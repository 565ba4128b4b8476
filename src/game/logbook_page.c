/* skyisles pause-menu pages of the deliveries: the job board of the place the aircraft stands at
 * (each offer an item: OK takes it) and the logbook (its records as lines). The menu builds a page
 * with the Menu alone, so the pages read the game's deliveries through the pointer bound at boot. */
#include <stdarg.h>
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
    char label[160], place[JOBS_NAME_MAX];
    jobs_offer_label(j, &j->job, label, sizeof label);
    log_info("skyisles: job taken: %s", label);
    jobs_dest_name(j, &j->job, place, sizeof place);
    snprintf(label, sizeof label, text_get(TEXT_JOB_TAKEN), jobs_cargo_name(j, j->job.cargo), place);
    for (int k = 0; g_board && k < g_board->count; k++)   /* the label is cut to the item's */
        if (g_board->items[k].action == &g_offers[i])
            memcpy(g_board->items[k].label, label, sizeof g_board->items[k].label - 1);
    return 0;   /* no setting changes */
}
static unsigned take0(GameSettings *s) { (void)s; return take(0); }
static unsigned take1(GameSettings *s) { (void)s; return take(1); }
static unsigned take2(GameSettings *s) { (void)s; return take(2); }
static unsigned take3(GameSettings *s) { (void)s; return take(3); }

/* One line of text on a page: an item that does nothing when chosen (help: its help line). Lines
 * are kept short (a figure each) so they fit the panel of the smallest screen; what is longer
 * goes in the help line, which the menu fits to the panel. */
static void line(Menu *m, const MenuActionDesc *desc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void line(Menu *m, const MenuActionDesc *desc, const char *fmt, ...) {
    static const MenuActionDesc info = {"logbook", "", NULL, MENU_CMD_NONE, NULL, "", 0};
    char text[48];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    MenuItem *it = menu_add(m, MENU_ACTION, text, 0);
    if (it) it->action = desc ? desc : &info;
}

static void board_rows(Menu *m) {
    static unsigned (*const run[JOBS_BOARD_MAX])(GameSettings *) = {take0, take1, take2, take3};
    static char help[JOBS_BOARD_MAX][128];
    if (!g_d) return;
    g_board = m;
    const Jobs *j = &g_d->jobs;
    char place[JOBS_NAME_MAX], walk[32];
    if (j->carrying) {
        jobs_dest_name(j, &j->job, place, sizeof place);
        line(m, NULL, text_get(TEXT_JOB_CARRYING), jobs_cargo_name(j, j->job.cargo), place);
    }
    if (j->n_board == 0) {
        line(m, NULL, "%s", j->stopped_at >= 0 ? text_get(TEXT_JOB_NOTHING) : text_get(TEXT_JOB_LAND_FIRST));
        return;
    }
    for (uint32_t i = 0; i < j->n_board && i < JOBS_BOARD_MAX; i++) {
        const JobOffer *o = &j->board[i];
        jobs_dest_name(j, o, place, sizeof place);
        jobs_format_walk(o->walk_minutes, walk, sizeof walk);
        if (o->walk_minutes == UINT32_MAX)   /* another island: no walk */
            snprintf(help[i], sizeof help[i], text_get(TEXT_JOB_OFFER_HELP_AWAY), o->distance_m / 1000.0);
        else
            snprintf(help[i], sizeof help[i], text_get(TEXT_JOB_OFFER_HELP), walk, o->distance_m / 1000.0);
        g_offers[i] = (MenuActionDesc){"jobs", "", NULL, MENU_CMD_NONE, run[i], help[i], (int)i};
        line(m, &g_offers[i], text_get(TEXT_JOB_OFFER), jobs_cargo_name(j, o->cargo), place);
    }
}

/* A delivery route: its best time in the line, where from and how often in its help. */
static void route_row(Menu *m, const Logbook *lb, uint32_t i) {
    static MenuActionDesc desc[LOGBOOK_MAX_ROUTES];
    static char help[LOGBOOK_MAX_ROUTES][112];
    const LogRoute *r = &lb->routes[i];
    char from[64], to[64], t[32];
    game_home_site_name(g_d->jobs.home, r->from, from, sizeof from);
    game_home_site_name(g_d->jobs.home, r->to, to, sizeof to);
    jobs_format_time(r->best_ms / 1000.0, t, sizeof t);
    snprintf(help[i], sizeof help[i], text_get(TEXT_LOG_ROUTE_HELP), from, r->count);
    desc[i] = (MenuActionDesc){"logbook", "", NULL, MENU_CMD_NONE, NULL, help[i], 0};
    line(m, &desc[i], text_get(TEXT_LOG_ROUTE), to, t);
}

static void logbook_rows(Menu *m) {
    if (!g_d) return;
    const Logbook *lb = &g_d->log;
    uint32_t places = 0, passed = 0;
    for (uint32_t s = 0; s < lb->n_sites; s++) places += lb->landed[s] != 0, passed += lb->passed[s] != 0;
    if (!lb->active) line(m, NULL, text_get(TEXT_LOG_NOT_KEPT));
    line(m, NULL, text_get(TEXT_LOG_FLIGHTS), lb->flights);
    line(m, NULL, text_get(TEXT_LOG_HOURS), lb->flight_s / 3600.0);
    line(m, NULL, text_get(TEXT_LOG_DISTANCE), lb->distance_m / 1000.0);
    line(m, NULL, text_get(TEXT_LOG_TOP_SPEED), (double)lb->top_speed);
    line(m, NULL, text_get(TEXT_LOG_BOOMS), lb->booms);
    line(m, NULL, text_get(TEXT_LOG_LANDINGS), lb->landings);
    if (lb->best_sink >= 0.0f) line(m, NULL, text_get(TEXT_LOG_BEST_LANDING), (double)lb->best_sink);
    else line(m, NULL, text_get(TEXT_LOG_BEST_NONE));
    line(m, NULL, text_get(TEXT_LOG_PLACES), places, lb->n_sites);
    line(m, NULL, text_get(TEXT_LOG_LANDMARKS), passed);
    line(m, NULL, text_get(TEXT_LOG_ISLANDS), lb->islands_seen, lb->islands_landed);
    line(m, NULL, text_get(TEXT_LOG_DELIVERIES), lb->deliveries);
    for (uint32_t i = 0; i < lb->n_routes && g_d->jobs.home; i++) route_row(m, lb, i);
}

void delivery_pages_register(GameDelivery *d) {
    static bool done;
    g_d = d;
    if (done) return;
    done = true;
    static const MenuPageDesc pages[] = {
        {"jobs", TX(PAGE_JOBS), board_rows},
        {"logbook", TX(PAGE_LOGBOOK), logbook_rows},
    };
    static const MenuActionDesc open[] = {
        {"pause", TX(PAGE_JOBS), "jobs", MENU_CMD_NONE, NULL, TX(PAGE_JOBS_HELP), 0},
        {"pause", TX(PAGE_LOGBOOK), "logbook", MENU_CMD_NONE, NULL, TX(PAGE_LOGBOOK_HELP), 0},
    };
    for (size_t i = 0; i < 2; i++)
        if (menu_page_register(&pages[i]) < 0 || !menu_action_register(&open[i]))
            log_warn("skyisles: the menu is full: '%s' left out", pages[i].title);
}
