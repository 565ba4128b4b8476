/* skyisles Fly to: the pause menu's coordinates page. The target X, Y, Z in whole metres, edited
 * with a pad alone (left/right add or take one step, the step a power of ten chosen on its own
 * row, OK sets a coordinate to 0) or typed on keys (digits, '-' for the sign, Backspace); the
 * menu hands the target to the game (MENU_CMD_FLY_TO), which moves the aircraft there. Also
 * the HUD's and the menu's way of writing a position. A leaf: it calls no other game file. */
#ifndef SKYISLES_GAME_FLYTO_H
#define SKYISLES_GAME_FLYTO_H

#include <stdbool.h>
#include <stddef.h>

#define FLYTO_EXP_MAX 12        /* the largest step, 10^12 m (GAME_POS_MAX is 4e12) */
#define FLYTO_EXP_DEFAULT 3     /* the step a page opens with: 1 km */
#define FLYTO_DIGITS 13         /* typed digits at most (4e12 has 13) */

/* The page's rows (MenuItem.id of its MENU_COORD items). */
typedef enum FlyToRow { FLYTO_X = 0, FLYTO_Y, FLYTO_Z, FLYTO_STEP } FlyToRow;

typedef struct FlyTo {
    double pos[3];              /* the target: X, Y, Z metres (Y the height) */
    int exp;                    /* the D-pad's step is 10^exp metres */
    int typing;                 /* the row digits go into (-1: none; the next digit starts anew) */
    bool negative;              /* the typed number's sign */
    char typed[FLYTO_DIGITS + 1];
} FlyTo;

/* The target set to a position, rounded to whole metres (Y kept in the world's height range). */
void flyto_here(FlyTo *t, double x, double y, double z);
/* One step of a row (+1/-1; big: ten): a coordinate by 10^exp metres, the step's exponent by
 * one. True when the value changed. Ends typing. */
bool flyto_step(FlyTo *t, FlyToRow row, int dir, bool big);
/* OK on a coordinate: 0 (X, Z) or the middle of the height range (Y). */
bool flyto_zero(FlyTo *t, FlyToRow row);
/* A key pressed on a row (PlatformKey): digits, minus and Backspace type into a coordinate;
 * true when the key was taken (Backspace then does not go back a page). */
bool flyto_key(FlyTo *t, FlyToRow row, int key);
/* The row's value as the menu shows it ("1 000 000 000 000 m", "step 1e12 m"). */
void flyto_value(const FlyTo *t, FlyToRow row, char *buf, size_t n);
/* Metres as a player reads them: "-12.3 m" below 10 km, else kilometres with thousands
 * grouped and metre precision ("1 000 000 000.000 km" for 1e12 m). */
size_t flyto_metres_text(double v, char *buf, size_t n);

#endif
