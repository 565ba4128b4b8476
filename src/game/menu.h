/* skyisles game menus: the pause menu and its pages (the world parameter panel read from the
 * world's table, controls and bindings, display), as data the overlay draws and input moves
 * through. Every page works with the pad alone: up/down move, left/right change, OK opens or
 * toggles, back returns. */
#ifndef SKYISLES_GAME_MENU_H
#define SKYISLES_GAME_MENU_H

#include <stdbool.h>
#include <stdint.h>

#include "input.h"
#include "settings.h"

typedef enum MenuPage {
    MENU_PAGE_PAUSE = 0,
    MENU_PAGE_PANEL,        /* world parameters (W11) and the flight values */
    MENU_PAGE_CONTROLS,
    MENU_PAGE_BINDINGS,
    MENU_PAGE_DISPLAY,
    MENU_PAGE_COUNT
} MenuPage;

typedef enum MenuKind {
    MENU_ACTION,    /* OK does something (resume, map, quit, reset) */
    MENU_OPEN,      /* OK opens another page */
    MENU_TOGGLE,    /* a bool */
    MENU_CHOICE,    /* one of a few named values */
    MENU_NUMBER,    /* a float in a range, by steps */
    MENU_WORLD,     /* a row of the world's parameter table */
    MENU_BIND,      /* an action's bindings: OK waits for a key or button */
} MenuKind;

/* What a menu step asks of the game. */
typedef enum MenuCommand {
    MENU_CMD_NONE = 0,
    MENU_CMD_RESUME,
    MENU_CMD_MAP,
    MENU_CMD_QUIT,
    MENU_CMD_CHANGED,       /* a setting changed: apply `changed` */
} MenuCommand;

/* Which settings a change touched (the game applies each kind its own way). */
enum {
    MENU_CHANGED_WORLD = 1,     /* world parameters: gen values rebuild, live ones apply at once */
    MENU_CHANGED_FLIGHT = 2,
    MENU_CHANGED_DISPLAY = 4,
    MENU_CHANGED_CONTROLS = 8,
    MENU_CHANGED_QUALITY = 16,  /* a preset was picked: display and world values follow it */
};

typedef struct MenuItem {
    MenuKind kind;
    char label[40];
    int id;                     /* MENU_ACTION: MenuCommand or a reset; MENU_OPEN: MenuPage; MENU_BIND: GameAction */
    unsigned changes;           /* MENU_CHANGED_* it causes */
    bool *flag;                 /* MENU_TOGGLE */
    int *choice;                /* MENU_CHOICE: index into choices */
    const char *const *choices;
    int n_choices;
    float *number;              /* MENU_NUMBER */
    float lo, hi, step;
    const char *unit;
    const WorldParamDesc *param;   /* MENU_WORLD */
} MenuItem;

#define MENU_MAX_ITEMS 96

typedef struct Menu {
    MenuPage page;
    MenuPage stack[4];          /* pages to go back to */
    int depth;
    MenuItem items[MENU_MAX_ITEMS];
    int count, sel, scroll;
    GameSettings *set;          /* what the items change */
    int quality, camera, lines_choice, layout;   /* choice mirrors of non-int settings */
    bool capturing;             /* a MENU_BIND item waits for an input */
    float repeat_timer;         /* held left/right repeats, faster the longer it is held */
    float held_s;
    unsigned changed;           /* MENU_CHANGED_* of the last MENU_CMD_CHANGED */
} Menu;

void menu_open(Menu *m, GameSettings *set, MenuPage page);
/* One frame of menu input. While capturing a binding, `ev` gives the raw key/pad press. */
MenuCommand menu_update(Menu *m, const InputState *in, const PlatformEvents *ev, float dt);
const char *menu_title(const Menu *m);
/* An item's value as text ("on", "240", "0.15", "key W-, axis lefty-" ...). */
void menu_item_value(const Menu *m, const MenuItem *it, char *buf, size_t n);
/* Re-reads the choice mirrors after the settings changed under the menu (a preset). */
void menu_sync(Menu *m);

/* Quality presets: display and world values for a class of hardware (low: VideoCore IV,
 * Mali-400, Pi Zero 2; medium: Pi 4, Mali-G31/G52; high: Pi 5, desktops). Marks the quality chosen. */
void game_quality_apply(GameSettings *s, GameQuality q);

#endif
