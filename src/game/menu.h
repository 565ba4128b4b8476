/* skyisles game menus: the pause menu and its pages, built from the settings table (each row
 * names its page), the world's parameter table (the panel) and a table of pages and actions that
 * later modules add to (menu_page_register, menu_action_register). Every page works with the pad
 * alone: up/down move, left/right change, OK opens or toggles, back returns. */
#ifndef SKYISLES_GAME_MENU_H
#define SKYISLES_GAME_MENU_H

#include <stdbool.h>
#include <stdint.h>

#include "flyto.h"
#include "input.h"
#include "settings.h"

/* The built-in pages; registered pages take the ids after them. */
typedef enum MenuPage {
    MENU_PAGE_PAUSE = 0,    /* "pause" */
    MENU_PAGE_PANEL,        /* "panel": world parameters (W11) and the flight values */
    MENU_PAGE_CONTROLS,     /* "controls" */
    MENU_PAGE_BINDINGS,     /* "bindings" */
    MENU_PAGE_DISPLAY,      /* "display" */
    MENU_PAGE_SOUND,        /* "sound": volumes, output device, rumble (sound.c) */
    MENU_PAGE_FLYTO,        /* "flyto": coordinates to fly to (flyto.c) */
    MENU_PAGE_COUNT
} MenuPage;
#define MENU_MAX_PAGES 16
#define MENU_MAX_ACTIONS 48

typedef enum MenuKind {
    MENU_ACTION,    /* OK does something (resume, map, quit, reset) or opens a page */
    MENU_SETTING,   /* a row of the game's settings table */
    MENU_WORLD,     /* a row of the world's parameter table */
    MENU_BIND,      /* an action's bindings: OK waits for a key or button */
    MENU_COORD,     /* a row of the Fly to page (id: FlyToRow) */
} MenuKind;

/* What a menu step asks of the game. */
typedef enum MenuCommand {
    MENU_CMD_NONE = 0,
    MENU_CMD_RESUME,
    MENU_CMD_MAP,
    MENU_CMD_QUIT,
    MENU_CMD_CHANGED,       /* a setting changed: apply `changed` */
    MENU_CMD_POWEROFF,      /* quit, then power the machine off (boot service only: power.c) */
    MENU_CMD_REBOOT,        /* quit, then restart the machine */
    MENU_CMD_FLY_TO,        /* move the aircraft to the Fly to page's target (Menu.fly.pos) */
    MENU_CMD_MODE,          /* start a game mode: its row in the mode table is Menu.arg */
} MenuCommand;

typedef struct Menu Menu;

typedef struct MenuPageDesc {
    const char *name;           /* what settings rows and actions name it by, and --show NAME */
    const char *title;
    void (*extra)(Menu *m);     /* items beyond the table's rows (the panel: the world's table) */
} MenuPageDesc;

typedef struct MenuActionDesc {
    const char *page;           /* the page it is on */
    const char *label;
    const char *open;           /* opens this page, or */
    MenuCommand cmd;            /* is handed to the game (resume, map, quit, a mode) with arg, or */
    unsigned (*run)(GameSettings *s);   /* changes settings itself: returns MENU_CHANGED_* */
    const char *help;
    int arg;                    /* the command's value (MENU_CMD_MODE: the mode's row) */
} MenuActionDesc;

typedef struct MenuItem {
    MenuKind kind;
    char label[48];
    int id;                     /* MENU_BIND: GameAction; MENU_COORD: FlyToRow */
    unsigned changes;           /* MENU_CHANGED_* it causes */
    const SettingDesc *row;     /* MENU_SETTING */
    const WorldParamDesc *param;   /* MENU_WORLD */
    const MenuActionDesc *action;  /* MENU_ACTION */
} MenuItem;

#define MENU_MAX_ITEMS 96

struct Menu {
    int page;                   /* MenuPage or a registered page's id */
    int stack[4];               /* pages to go back to */
    int depth;
    MenuItem items[MENU_MAX_ITEMS];
    int count, sel, scroll;
    GameSettings *set;          /* what the items change: the player's values */
    const WorldParams *held;    /* what the running world holds (NULL: none running) */
    float reach;                /* how far it streams now (WorldStats.reach; 0: not known) */
    const RenderLiveParams *look;   /* the renderer's values in effect (Quality auto may hold some
                                       below the chosen ones; NULL: not known) */
    bool capturing;             /* a MENU_BIND item waits for an input */
    float repeat_timer;         /* held left/right repeats, faster the longer it is held */
    float held_s;
    unsigned changed;           /* MENU_CHANGED_* of the last MENU_CMD_CHANGED */
    int arg;                    /* the value of the last command an action handed over */
    FlyTo fly;                  /* the Fly to page's target (menu_set_here when the menu opens) */
};

/* Adds a page (at boot, before a menu opens): its id, or -1 when the table is full or the name
 * is taken. Its rows are the settings rows naming it; an action on another page opens it. */
int menu_page_register(const MenuPageDesc *p);
/* Adds an action to the end of its page (Quit stays last on the pause page). */
bool menu_action_register(const MenuActionDesc *a);
int menu_page_find(const char *name);       /* -1 when unknown */
int menu_page_count(void);
const MenuPageDesc *menu_page_at(int page); /* NULL past the end */
/* For a page's `extra` builder: a new item at the end (NULL when the page is full). */
MenuItem *menu_add(Menu *m, MenuKind kind, const char *label, unsigned changes);

void menu_open(Menu *m, GameSettings *set, const WorldParams *held, int page);
/* Where the aircraft is: the Fly to page starts from there (call after menu_open). */
void menu_set_here(Menu *m, double x, double y, double z);
/* One frame of menu input. While capturing a binding, `ev` gives the raw key/pad press. */
MenuCommand menu_update(Menu *m, const InputState *in, const PlatformEvents *ev, float dt);
const char *menu_title(const Menu *m);
/* An item's value as text ("on", "240", "0.15", "20 (16 now)", "key W-, axis lefty-" ...). */
void menu_item_value(const Menu *m, const MenuItem *it, char *buf, size_t n);
/* The selected item's help line (what it does, and when a change takes effect). */
void menu_item_help(const Menu *m, const MenuItem *it, char *buf, size_t n);
/* One step of an item's value (+1/-1; big: ten steps); true when it changed. Tests drive it. */
bool menu_step(Menu *m, MenuItem *it, int dir, bool big);
/* A world row's menu step and decimals (its own step, or one from its range). */
double menu_world_step(const WorldParamDesc *d);
int menu_world_decimals(const WorldParamDesc *d);

#endif
