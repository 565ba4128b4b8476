/* skyisles power: Power off and Reboot for the boot-to-sim console (the unit passes
 * --boot-service). The menu entries are registered only there; the game quits the normal way
 * (settings saved, every thread joined) and then asks logind through systemctl, which polkit lets
 * the service's user do (platform/pi/install-service.sh installs the rule). */
#ifndef SKYISLES_GAME_POWER_H
#define SKYISLES_GAME_POWER_H

#include <stdbool.h>
#include <stddef.h>

#include "menu.h"

/* Adds Power off and Reboot to the pause menu (before Quit). Once per process; true when they
 * are there. */
bool power_menu_register(void);
/* "poweroff" / "reboot" for MENU_CMD_POWEROFF / MENU_CMD_REBOOT, NULL for anything else. */
const char *power_verb(MenuCommand cmd);
/* Runs `systemctl VERB` (SKYISLES_SYSTEMCTL names another program: tests) and waits for it:
 * 0 when logind took the request, else 1 with one line logged (what failed, what to check). */
int power_act(MenuCommand cmd);

/* The battery line of the HUD (top right, under the frame rate). The reading comes from a query
 * (platform_battery: SDL's power info), taken at most every POWER_BATTERY_EVERY_MS: it reads the
 * system's power supply. */
#define POWER_BATTERY_LOW 15              /* percent: the line turns into a warning at or under it */
#define POWER_BATTERY_EVERY_MS 10000.0
/* A battery query: the charge in percent (-1: none or not known), *discharging: running on it. */
typedef int (*PowerBatteryQuery)(bool *discharging);
/* Puts another query behind the line (tests: a made-up battery); NULL puts the platform's back.
 * The next line reads it at once. */
void power_set_battery_query(PowerBatteryQuery q);
/* The line at now_ms into line (cap bytes): "BAT 80%", or "BATTERY LOW 12%" with *low set ("LOW
 * 12%" when brief: a narrow screen's). False (no line) unless the device runs on a battery whose
 * level is known: on mains, with no battery or an unknown one the HUD shows nothing. */
bool power_battery_line(double now_ms, bool brief, char *line, size_t cap, bool *low);

#endif
