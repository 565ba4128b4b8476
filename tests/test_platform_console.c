/* Tests for the console preflight (platform/console.c) against fake /dev and /sys trees: the Pi's
 * two DRM cards in either numbering, chosen by by-path name and connector; no udev; no card at all;
 * SDL_KMSDRM_DEVICE_INDEX; the group named for a permission problem; input devices. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "console.h"

static char g_root[64];
static char g_dev[96], g_sys[96];

static void mk(const char *rel) {
    char p[256], *s;
    snprintf(p, sizeof p, "%s/%s", g_root, rel);
    for (s = p + strlen(g_root) + 1; (s = strchr(s, '/')) != NULL; s++) {
        *s = 0;
        mkdir(p, 0755);
        *s = '/';
    }
}

/* A file (dirs created on the way) with optional contents. */
static void put(const char *rel, const char *text) {
    char p[256];
    mk(rel);
    snprintf(p, sizeof p, "%s/%s", g_root, rel);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    if (text) fputs(text, f);
    fclose(f);
}

static void link_to(const char *rel, const char *target) {
    char p[256];
    mk(rel);
    snprintf(p, sizeof p, "%s/%s", g_root, rel);
    assert_int_equal(symlink(target, p), 0);
}

static int setup(void **state) {
    (void)state;
    snprintf(g_root, sizeof g_root, "/tmp/skyisles-console-XXXXXX");
    if (!mkdtemp(g_root)) return -1;
    snprintf(g_dev, sizeof g_dev, "%s/dev", g_root);
    snprintf(g_sys, sizeof g_sys, "%s/sys", g_root);
    mkdir(g_dev, 0755);
    mkdir(g_sys, 0755);
    unsetenv("SDL_KMSDRM_DEVICE_INDEX");
    return 0;
}

static int teardown(void **state) {
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_root);
    return system(cmd) == 0 ? 0 : -1;
}

/* A Pi 4 with vc4-kms-v3d: v3d (render only) and vc4 (HDMI) as cardA and cardB. */
static void pi_tree(int v3d, int vc4) {
    char rel[128], target[32];
    snprintf(rel, sizeof rel, "dev/dri/card%d", v3d);
    put(rel, NULL);
    snprintf(rel, sizeof rel, "dev/dri/card%d", vc4);
    put(rel, NULL);
    put("dev/dri/renderD128", NULL);
    snprintf(target, sizeof target, "../card%d", v3d);
    link_to("dev/dri/by-path/platform-fec00000.v3d-card", target);
    link_to("dev/dri/by-path/platform-fec00000.v3d-render", "../renderD128");
    snprintf(target, sizeof target, "../card%d", vc4);
    link_to("dev/dri/by-path/platform-gpu-card", target);
    snprintf(rel, sizeof rel, "sys/class/drm/card%d-HDMI-A-1/status", vc4);
    put(rel, "disconnected\n");
    snprintf(rel, sizeof rel, "sys/class/drm/card%d-HDMI-A-2/status", vc4);
    put(rel, "connected\n");
    snprintf(rel, sizeof rel, "sys/class/drm/card%d-Writeback-1/enabled", vc4);
    put(rel, "disabled\n");
    put("dev/input/event0", NULL);
}

static void test_pi_display_card_by_path_either_numbering(void **state) {
    (void)state;
    PlatformConsole c;
    pi_tree(0, 1);
    platform_console_check(&c, g_dev, g_sys);
    assert_string_equal(c.fatal, "");
    assert_string_equal(c.warn, "");
    assert_int_equal(c.card_index, 1);
    assert_non_null(strstr(c.card, "/dev/dri/card1"));
    assert_non_null(strstr(c.how, "by-path platform-gpu-card"));
    assert_non_null(strstr(c.how, "HDMI-A-2 connected"));
    teardown(NULL);
    setup(NULL);
    pi_tree(1, 0);   /* the numbers swap between boots: the by-path name does not */
    platform_console_check(&c, g_dev, g_sys);
    assert_string_equal(c.fatal, "");
    assert_int_equal(c.card_index, 0);
    assert_non_null(strstr(c.how, "platform-gpu-card"));
}

static void test_no_udev_uses_card_names(void **state) {
    (void)state;
    PlatformConsole c;
    put("dev/dri/card0", NULL);   /* render-only GPU first, as on a Pi 4 */
    put("dev/dri/card1", NULL);
    put("sys/class/drm/card1-DSI-1/status", "unknown\n");   /* a panel that reports no status */
    platform_console_check(&c, g_dev, g_sys);
    assert_string_equal(c.fatal, "");
    assert_int_equal(c.card_index, 1);
    assert_null(strstr(c.how, "by-path"));
    assert_non_null(strstr(c.how, "card1"));
}

static void test_single_card_without_sysfs(void **state) {
    (void)state;
    PlatformConsole c;
    put("dev/dri/card0", NULL);
    link_to("dev/dri/by-path/pci-0000:00:02.0-card", "../card0");
    platform_console_check(&c, g_dev, g_sys);
    assert_string_equal(c.fatal, "");
    assert_int_equal(c.card_index, 0);
}

static void test_no_card_names_the_overlay(void **state) {
    (void)state;
    PlatformConsole c;
    platform_console_check(&c, g_dev, g_sys);   /* no dev/dri at all */
    assert_int_equal(c.card_index, -1);
    assert_non_null(strstr(c.fatal, "no DRM device"));
    assert_non_null(strstr(c.fatal, "vc4-kms-v3d"));
    put("dev/dri/renderD128", NULL);   /* a render node alone shows nothing */
    platform_console_check(&c, g_dev, g_sys);
    assert_non_null(strstr(c.fatal, "no DRM device"));
}

static void test_device_index_from_environment(void **state) {
    (void)state;
    PlatformConsole c;
    pi_tree(0, 1);
    setenv("SDL_KMSDRM_DEVICE_INDEX", "0", 1);
    platform_console_check(&c, g_dev, g_sys);
    assert_string_equal(c.fatal, "");
    assert_int_equal(c.card_index, 0);
    assert_non_null(strstr(c.how, "SDL_KMSDRM_DEVICE_INDEX=0"));
    setenv("SDL_KMSDRM_DEVICE_INDEX", "7", 1);
    platform_console_check(&c, g_dev, g_sys);
    assert_non_null(strstr(c.fatal, "SDL_KMSDRM_DEVICE_INDEX=7"));
    assert_non_null(strstr(c.fatal, "card7 does not exist"));
    unsetenv("SDL_KMSDRM_DEVICE_INDEX");
}

static void test_permission_hint_names_the_group(void **state) {
    (void)state;
    char hint[200], path[256];
    put("dev/dri/card0", NULL);
    snprintf(path, sizeof path, "%s/dev/dri/card0", g_root);
    const struct group *video = getgrnam("video");
    if (video && geteuid() == 0) {
        assert_int_equal(chown(path, 0, video->gr_gid), 0);
        platform_console_access_hint(path, EACCES, hint, sizeof hint);
        assert_non_null(strstr(hint, "join the video group"));
        assert_non_null(strstr(hint, "usermod -aG video,render,input"));
    } else {
        printf("note: no video group here (or not root): the group name is not checked\n");
    }
    platform_console_access_hint(path, ENXIO, hint, sizeof hint);
    assert_string_equal(hint, strerror(ENXIO));

    if (geteuid() != 0) {   /* root opens anything: the real denial is only seen as a user */
        PlatformConsole c;
        put("dev/input/event0", NULL);
        chmod(path, 0);
        platform_console_check(&c, g_dev, g_sys);
        assert_non_null(strstr(c.fatal, "cannot open"));
        assert_non_null(strstr(c.fatal, "permission denied"));
        chmod(path, 0644);
        snprintf(path, sizeof path, "%s/dev/input/event0", g_root);
        chmod(path, 0);
        platform_console_check(&c, g_dev, g_sys);
        assert_string_equal(c.fatal, "");
        assert_non_null(strstr(c.warn, "no keys or controllers"));
    } else {
        printf("note: running as root: opening devices cannot be denied, only the hint text is checked\n");
    }
}

/* The battery from a fake /sys/class/power_supply: the mains supply is passed over, the first
 * battery with a capacity is read, its status says whether it is discharging; none is -1. */
static void test_battery_from_sysfs(void **state) {
    (void)state;
    bool dis = true;
    assert_int_equal(platform_battery_read(g_sys, &dis), -1);   /* no power_supply folder */
    assert_false(dis);
    put("sys/class/power_supply/AC/type", "Mains\n");
    put("sys/class/power_supply/AC/online", "1\n");
    assert_int_equal(platform_battery_read(g_sys, &dis), -1);   /* mains only: a desktop */
    put("sys/class/power_supply/BAT0/type", "Battery\n");
    put("sys/class/power_supply/BAT0/status", "Charging\n");
    assert_int_equal(platform_battery_read(g_sys, &dis), -1);   /* a battery with no capacity */
    put("sys/class/power_supply/BAT0/capacity", "42\n");
    assert_int_equal(platform_battery_read(g_sys, &dis), 42);
    assert_false(dis);
    put("sys/class/power_supply/BAT0/status", "Discharging\n");
    assert_int_equal(platform_battery_read(g_sys, &dis), 42);
    assert_true(dis);
    put("sys/class/power_supply/BAT0/capacity", "250\n");   /* nonsense is not a level */
    assert_int_equal(platform_battery_read(g_sys, &dis), -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_pi_display_card_by_path_either_numbering, setup, teardown),
        cmocka_unit_test_setup_teardown(test_battery_from_sysfs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_udev_uses_card_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_single_card_without_sysfs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_card_names_the_overlay, setup, teardown),
        cmocka_unit_test_setup_teardown(test_device_index_from_environment, setup, teardown),
        cmocka_unit_test_setup_teardown(test_permission_hint_names_the_group, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
