/* skyisles session: the player's flight as it goes on: the screens (Play), the menu, the
 * aircraft, the camera, the saved spot and the screenshots. */
#ifndef SKYISLES_GAME_SESSION_H
#define SKYISLES_GAME_SESSION_H

#include <stdbool.h>

#include "continue.h"
#include "menu.h"
#include "play.h"
#include "screenshot.h"
#include "sim/sim.h"

typedef struct GameMapShown {
    bool set;
    int64_t cell_x, cell_z;
    int lang;
} GameMapShown;

/* The HUD's place line as last made: made again only when the island, the place on it, the
 * language or the room for it changes (its names take codex and archipelago lookups). */
typedef struct GamePlaceShown {
    bool valid, ok;
    const void *field;          /* the island's field (a slot's is reused for another island) */
    int64_t cell_x, cell_z;
    int site, lang, room;
    char line[160];             /* fitted to `room` PSX pixels */
} GamePlaceShown;

typedef struct GameSession {
    Play play;                  /* written by play.c alone */
    Menu menu;
    FlightModel model;
    CameraRig rig;
    FlightState flight;
    CameraState camera;
    bool camera_fixed;          /* --camera: the camera held where it was put */
    GameContinue cont;          /* the saved spot of this seed (continue.c) */
    GameShot shot;              /* F12 / L1+R1 screenshots (screenshot.c) */
    GameMapShown map_shown;     /* the island the island map holds (overlay.c sets it again when it changes) */
    GamePlaceShown place_shown; /* the HUD's place line (overlay.c) */
    WeatherState weather;       /* the frame's weather at the aircraft (game.c): sky, rain, sound, HUD */
} GameSession;

#endif
