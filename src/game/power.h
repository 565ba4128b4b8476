/* skyisles power: Power off and Reboot for the boot-to-sim console (the unit passes
 * --boot-service). The menu entries are registered only there; the game quits the normal way
 * (settings saved, every thread joined) and then asks logind through systemctl, which polkit lets
 * the service's user do (platform/pi/install-service.sh installs the rule). */
#ifndef SKYISLES_GAME_POWER_H
#define SKYISLES_GAME_POWER_H

#include <stdbool.h>

#include "menu.h"

/* Adds Power off and Reboot to the pause menu (before Quit). Once per process; true when they
 * are there. */
bool power_menu_register(void);
/* "poweroff" / "reboot" for MENU_CMD_POWEROFF / MENU_CMD_REBOOT, NULL for anything else. */
const char *power_verb(MenuCommand cmd);
/* Runs `systemctl VERB` (SKYISLES_SYSTEMCTL names another program: tests) and waits for it:
 * 0 when logind took the request, else 1 with one line logged (what failed, what to check). */
int power_act(MenuCommand cmd);

#endif
