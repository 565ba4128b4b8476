/* skyisles --show: what a screenshot shows over the scene, one table read by the option parser,
 * --help and the shot's set-up: play's screens, the menu's pages and each game mode's shots. */
#ifndef SKYISLES_GAME_SHOW_H
#define SKYISLES_GAME_SHOW_H

#include <stdbool.h>
#include <stddef.h>

#include "mode.h"

typedef enum ShowKind {
    SHOW_HUD = 0,   /* flying, the HUD on */
    SHOW_NONE,      /* flying, the HUD off */
    SHOW_TITLE,
    SHOW_MAP,
    SHOW_WORLD_MAP, /* the world map after a flight east (show.c's help says how far) */
    SHOW_CRASH,
    SHOW_PAGE,      /* a page of the pause menu */
    SHOW_MODE,      /* a game mode's shot: its course at a ring, or its results */
} ShowKind;

typedef struct Show {
    const char *name, *help;
    ShowKind kind;
    const char *page;           /* SHOW_PAGE: the menu page's name */
    const GameMode *mode;       /* SHOW_MODE */
    bool results;               /* SHOW_MODE: the course flown by the course pilot to its results */
} Show;

/* The shot named `name` (NULL: the HUD) into *out; false for an unknown name. */
bool show_find(const char *name, Show *out);
/* "hud (flying, the default), none (...), ...": every name with its help, for --help. */
void show_help_text(char *buf, size_t n);

#endif
