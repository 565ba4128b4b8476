/* skyisles power: the pause menu's Power off and Reboot on the boot-to-sim console, and the
 * request to logind once the game has shut down. */
#include "power.h"

#include <errno.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <stdio.h>

#include "core/core.h"
#include "platform.h"

extern char **environ;

bool power_menu_register(void) {
    static bool done;
    if (done) return true;
    static const MenuActionDesc k_power[] = {
        {"pause", TX(ACT_POWER_OFF), NULL, MENU_CMD_POWEROFF, NULL, TX(ACT_POWER_OFF_HELP), 0},
        {"pause", TX(ACT_REBOOT), NULL, MENU_CMD_REBOOT, NULL, TX(ACT_REBOOT_HELP), 0},
    };
    for (size_t i = 0; i < sizeof k_power / sizeof k_power[0]; i++)
        if (!menu_action_register(&k_power[i])) return false;
    done = true;
    return true;
}

const char *power_verb(MenuCommand cmd) {
    if (cmd == MENU_CMD_POWEROFF) return "poweroff";
    if (cmd == MENU_CMD_REBOOT) return "reboot";
    return NULL;
}

int power_act(MenuCommand cmd) {
    const char *verb = power_verb(cmd);
    if (!verb) return 0;
    const char *prog = getenv("SKYISLES_SYSTEMCTL");
    if (!prog || !prog[0]) prog = "systemctl";
    char *argv[] = {(char *)prog, (char *)verb, NULL};
    log_info("skyisles: %s: settings saved, asking the system (%s %s)", cmd == MENU_CMD_POWEROFF ? "power off" : "reboot",
             prog, verb);
    pid_t pid;
    int rc = posix_spawnp(&pid, prog, NULL, NULL, argv, environ);
    if (rc != 0) {
        log_error("skyisles: cannot run %s %s (%s): power it off by hand", prog, verb, strerror(rc));
        return 1;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return 1;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    log_error("skyisles: %s %s failed (status %d): is the polkit rule /etc/polkit-1/rules.d/50-skyisles.rules "
              "installed (platform/pi/install-service.sh) and polkitd running?", prog, verb,
              WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 1;
}

/* ---------------------------------------------------------------- the battery line */
static struct {
    PowerBatteryQuery query;   /* NULL: platform_battery */
    double next_ms;            /* when to read again (0: at once) */
    int pct;
    bool discharging;
} g_battery = {NULL, 0.0, -1, false};

void power_set_battery_query(PowerBatteryQuery q) {
    g_battery.query = q;
    g_battery.next_ms = 0.0;
    g_battery.pct = -1;
}

bool power_battery_line(double now_ms, bool brief, char *line, size_t cap, bool *low) {
    if (g_battery.next_ms == 0.0 || now_ms >= g_battery.next_ms) {
        g_battery.pct = (g_battery.query ? g_battery.query : platform_battery)(&g_battery.discharging);
        g_battery.next_ms = now_ms + POWER_BATTERY_EVERY_MS;
    }
    *low = false;
    if (g_battery.pct < 0 || !g_battery.discharging) return false;
    int pct = g_battery.pct > 100 ? 100 : g_battery.pct;
    *low = pct <= POWER_BATTERY_LOW;
    snprintf(line, cap, text_get(*low ? (brief ? TEXT_BAT_LOW_BRIEF : TEXT_BAT_LOW) : TEXT_BAT), pct);
    return true;
}
