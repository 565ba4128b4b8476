/* skyisles core: whole-file reads for boot-time data (packs, assets) with one-line errors, and
 * whole writes to a descriptor (a short write or EINTR is carried on, not taken as done). */
#include "core/core.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint8_t *file_read_all(const char *path, size_t max_bytes, size_t *len, SkyError *err) {
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        sky_error_set(err, SKY_ERR_INPUT, "cannot open %s: %s: check the path", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        sky_error_set(err, SKY_ERR_INPUT, "cannot read %s: not a regular file", path);
        fclose(f);
        return NULL;
    }
    long n = (long)st.st_size;
    if ((unsigned long)n > max_bytes) {
        sky_error_set(err, SKY_ERR_INPUT, "%s is %ld bytes, more than the %zu allowed: is it the right file?", path, n, max_bytes);
        fclose(f);
        return NULL;
    }
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    size_t got = buf && n > 0 ? fread(buf, 1, (size_t)n, f) : 0;
    int read_failed = ferror(f);
    fclose(f);
    if (!buf || got != (size_t)n || read_failed) {
        sky_error_set(err, SKY_ERR_INPUT, "cannot read %s: %s", path, buf ? "short read" : "out of memory");
        free(buf);
        return NULL;
    }
    *len = got;
    return buf;
}

bool file_write_all(int fd, const void *data, size_t n) {
    const uint8_t *p = data;
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

int file_commit(int fd, bool written, const char *tmp, const char *path) {
    int saved = written ? 0 : (errno ? errno : EIO);
    if (!saved && fsync(fd) != 0) saved = errno;
    if (close(fd) != 0 && !saved) saved = errno;
    if (!saved && rename(tmp, path) != 0) saved = errno;
    if (saved) unlink(tmp);
    return saved;
}
