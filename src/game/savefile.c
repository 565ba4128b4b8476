/* skyisles save files: the atomic writer every file in the config folder goes through, and the
 * check that the folder can be written at all (a read-only root). */
#include "savefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static size_t g_fail_after = SIZE_MAX;

void save_fail_after(size_t bytes) { g_fail_after = bytes; }

static bool write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        size_t chunk = n;
        if (g_fail_after != SIZE_MAX) {
            if (g_fail_after == 0) {
                errno = ENOSPC;
                return false;
            }
            if (chunk > g_fail_after) chunk = g_fail_after;
        }
        ssize_t k = write(fd, p, chunk);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        if (g_fail_after != SIZE_MAX) g_fail_after -= (size_t)k;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

bool save_make_dirs(const char *dir) {
    char p[1024];
    if ((size_t)snprintf(p, sizeof p, "%s", dir) >= sizeof p) return false;
    for (char *c = p + 1; *c; c++) {
        if (*c != '/') continue;
        *c = 0;
        if (mkdir(p, 0755) != 0 && errno != EEXIST) return false;
        *c = '/';
    }
    return mkdir(p, 0755) == 0 || errno == EEXIST;
}

bool save_file_atomic(const char *dir, const char *name, const void *data, size_t len, const char *what,
                      SkyError *err) {
    char path[1024], tmp[1100];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) {
        sky_error_set(err, SKY_ERR_INPUT, "skyisles: the config folder path is too long to save %s", what);
        return false;
    }
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (!save_make_dirs(dir)) {
        sky_error_set(err, SKY_ERR_START, "skyisles: cannot create the folder %s (%s): %s not saved", dir,
                      strerror(errno), what);
        return false;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        sky_error_set(err, SKY_ERR_START, "skyisles: cannot write %s in %s (%s): %s not saved; check the folder is "
                      "writable", what, dir, strerror(errno), what);
        return false;
    }
    bool had = access(path, F_OK) == 0;   /* a first save (a new screenshot) has no previous file */
    int saved = file_commit(fd, write_all(fd, data, len), tmp, path);   /* synced, renamed; tmp gone on failure */
    if (saved) {
        sky_error_set(err, SKY_ERR_START, "skyisles: saving %s to %s failed (%s): %s", what, path, strerror(saved),
                      had ? "the previous file is kept" : "nothing was written");
        return false;
    }
    /* The rename is durable once the folder is synced. */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return true;
}

bool save_dir_writable(const char *dir, char *why, size_t why_n) {
    char p[1024];
    if ((size_t)snprintf(p, sizeof p, "%s", dir) >= sizeof p) {
        snprintf(why, why_n, "the path is too long");
        return false;
    }
    /* The folder, or the nearest one above it that is there (a first start makes the rest). */
    struct stat st;
    while (stat(p, &st) != 0) {
        char *slash = strrchr(p, '/');
        if (!slash || slash == p) {
            snprintf(p, sizeof p, "%s", slash == p ? "/" : ".");
            break;
        }
        *slash = 0;
    }
    if (access(p, W_OK) == 0) return true;
    snprintf(why, why_n, "%s is %s", p, errno == EROFS ? "on a read-only file system" : strerror(errno));
    return false;
}
