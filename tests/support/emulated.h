/* Whether this test program runs under CPU emulation (qemu-user, as make test's aarch64 stage
 * runs the cross build), so a test can walk fewer random cases there while checking the same
 * property; natively it is always false and every case runs. Header only, no build rule.
 * Signs: qemu-user started by name leaves its own name in /proc/self/comm; started through
 * binfmt_misc, qemu passes the host's /proc/cpuinfo through, which on an x86 host names a
 * vendor_id that no ARM kernel prints. */
#ifndef SKYISLES_TESTS_SUPPORT_EMULATED_H
#define SKYISLES_TESTS_SUPPORT_EMULATED_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static inline bool test_running_emulated(void) {
    static int cached = -1;
    if (cached >= 0) return cached != 0;
    bool emulated = false;
    char line[256];
    FILE *f = fopen("/proc/self/comm", "r");
    if (f) {
        if (fgets(line, sizeof line, f) && strncmp(line, "qemu-", 5) == 0) emulated = true;
        fclose(f);
    }
#if !defined(__x86_64__) && !defined(__i386__)
    f = emulated ? NULL : fopen("/proc/cpuinfo", "r");
    if (f) {
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "vendor_id", 9) == 0) emulated = true;
        fclose(f);
    }
#endif
    cached = emulated;
    return emulated;
}

#endif
