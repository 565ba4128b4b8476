/* skyisles game: where data files that are not built in live (the controller database): the
 * folder named by SKYISLES_DATA_DIR, then beside the binary as a dist tarball or a build tree
 * lays them out, then an install's share folder. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game.h"

static bool is_file(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The folder of the running binary (/proc/self/exe), "" when unknown. */
static void exe_dir(char *out, size_t n) {
    char buf[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", buf, sizeof buf - 1);
    out[0] = 0;
    if (len <= 0) return;
    buf[len] = 0;
    char *slash = strrchr(buf, '/');
    if (!slash) return;
    *slash = 0;
    snprintf(out, n, "%s", buf);
}

bool game_data_file(const char *rel, char *out, size_t n) {
    char exe[PATH_MAX];
    exe_dir(exe, sizeof exe);
    const char *env = getenv("SKYISLES_DATA_DIR");
    /* data dir first; beside the binary (dist: skyisles + assets/); a build tree (build/skyisles
     * + assets/ at the top); an install (PREFIX/bin/skyisles + PREFIX/share/skyisles/). */
    const struct { const char *base, *fmt; } tries[] = {
        {env, "%s/%s"},
        {exe, "%s/assets/%s"},
        {exe, "%s/../assets/%s"},
        {exe, "%s/../share/skyisles/%s"},
    };
    for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
        if (!tries[i].base || !tries[i].base[0]) continue;
        if ((size_t)snprintf(out, n, tries[i].fmt, tries[i].base, rel) >= n) continue;
        if (is_file(out)) return true;
    }
    out[0] = 0;
    return false;
}
