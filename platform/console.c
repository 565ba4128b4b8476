/* skyisles console preflight: which DRM card SDL's KMSDRM driver should use and whether this
 * user may open it and the input devices. On a Pi the display (vc4) and the GPU (v3d) are two
 * cards whose numbers swap between boots, so the card is chosen by its by-path name and by having
 * a connected connector; a permission problem becomes one line naming the group to join. */
#include "console.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/core.h"

#define MAX_ENTRIES 32

typedef struct Candidate {
    int index;            /* N of cardN */
    int score;            /* 2 connected connector, 1 connectors, 0 none (render-only GPU) */
    char name[80];        /* the by-path name or cardN */
    char connector[48];   /* the connected connector, "" when none */
} Candidate;

/* a/b into out; false when it does not fit (such a path is skipped, never cut short). */
static bool join(char *out, size_t n, const char *a, const char *b) {
    int len = snprintf(out, n, "%s/%s", a, b);
    return len > 0 && (size_t)len < n;
}

/* A message into a fixed field; a path too long for it is cut, the message stays one line. */
__attribute__((format(printf, 3, 4))) static void msg(char *out, size_t n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, n, fmt, ap);
    va_end(ap);
}

static void cat(char *dst, size_t n, const char *fmt, const char *a) {
    size_t used = strlen(dst);
    if (used + 1 < n) snprintf(dst + used, n - used, fmt, a);
}

/* N of "cardN", -1 for anything else (renderD128, controlD64, by-path names). */
static int card_number(const char *name) {
    if (strncmp(name, "card", 4) != 0 || name[4] < '0' || name[4] > '9') return -1;
    char *end;
    long v = strtol(name + 4, &end, 10);
    return (*end || v > 255) ? -1 : (int)v;
}

static int cmp_names(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

/* The names in dir that start with prefix (and end with suffix), sorted: readdir's order is
 * the file system's, and the choice must not depend on it. */
static int list_dir(const char *dir, const char *prefix, const char *suffix, char names[][80]) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    size_t pl = strlen(prefix), sl = suffix ? strlen(suffix) : 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && n < MAX_ENTRIES;) {
        size_t len = strlen(e->d_name);
        if (len >= 80 || strncmp(e->d_name, prefix, pl) != 0) continue;
        if (sl && (len < sl || strcmp(e->d_name + len - sl, suffix) != 0)) continue;
        memcpy(names[n++], e->d_name, len + 1);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_names);
    return n;
}

/* DIR/NAME/LEAF's first line into out (trailing newline cut; "" for an empty file); false when
 * it cannot be read. open and read, no stdio: the battery reads it in flight, with no heap call. */
static bool read_leaf(const char *dir, const char *name, const char *leaf, char *out, size_t n) {
    char p[PATH_MAX];
    if ((size_t)snprintf(p, sizeof p, "%s/%s/%s", dir, name, leaf) >= sizeof p) return false;
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    ssize_t got = read(fd, out, n - 1);
    close(fd);
    if (got < 0) return false;
    out[got] = 0;
    out[strcspn(out, "\n")] = 0;
    return true;
}

/* How card N can show a picture, from SYS/class/drm/cardN-<connector>/status. */
static int card_score(const char *sys, int index, char *connector, size_t cn) {
    char dir[PATH_MAX], prefix[24], names[MAX_ENTRIES][80];
    if (!join(dir, sizeof dir, sys, "class/drm")) return 0;
    snprintf(prefix, sizeof prefix, "card%d-", index);
    int n = list_dir(dir, prefix, NULL, names), score = 0;
    connector[0] = 0;
    for (int i = 0; i < n; i++) {
        char status[32];
        if (!read_leaf(dir, names[i], "status", status, sizeof status)) continue;   /* not a connector */
        if (score < 1) score = 1;
        if (strncmp(status, "connected", 9) == 0) {
            snprintf(connector, cn, "%s", names[i] + strlen(prefix));
            return 2;
        }
    }
    return score;
}

/* The best candidate: highest score, the first in name order on a tie. */
static int pick(const Candidate *c, int n) {
    int best = -1;
    for (int i = 0; i < n; i++)
        if (best < 0 || c[i].score > c[best].score) best = i;
    return best;
}

static void describe(PlatformConsole *pc, const Candidate *c, bool by_path) {
    msg(pc->how, sizeof pc->how, "%s%s%s%s", by_path ? "by-path " : "", c->name,
             c->connector[0] ? ", " : (c->score ? ", no display connected" : ", no connectors"),
             c->connector[0] ? c->connector : "");
    if (c->connector[0]) cat(pc->how, sizeof pc->how, "%s", " connected");
}

void platform_console_access_hint(const char *path, int err, char *out, size_t n) {
    if (err != EACCES && err != EPERM) {
        msg(out, n, "%s", strerror(err));
        return;
    }
    struct stat st;
    const struct group *g = stat(path, &st) == 0 ? getgrgid(st.st_gid) : NULL;
    const struct passwd *pw = getpwuid(geteuid());
    const char *group = g && g->gr_name && strcmp(g->gr_name, "root") != 0 ? g->gr_name : NULL;
    const char *user = pw && pw->pw_name ? pw->pw_name : "$USER";
    if (group)
        msg(out, n, "permission denied: join the %s group (sudo usermod -aG video,render,input %s; log in again)",
                 group, user);
    else
        msg(out, n, "permission denied: run as a user in the video, render and input groups");
}

/* Opens the first of DEV/sub/prefix* that opens with flags; false with the first failure's
 * path and errno when none does. *count is how many exist. */
static bool open_any(const char *dev, const char *sub, const char *prefix, int flags, int *count, char *failed,
                     size_t fn, int *err) {
    char dir[PATH_MAX], names[MAX_ENTRIES][80];
    *count = join(dir, sizeof dir, dev, sub) ? list_dir(dir, prefix, NULL, names) : 0;
    for (int i = 0; i < *count; i++) {
        char path[PATH_MAX];
        if (!join(path, sizeof path, dir, names[i])) continue;
        int fd = open(path, flags | O_CLOEXEC | O_NONBLOCK);
        if (fd >= 0) {
            close(fd);
            return true;
        }
        if (i == 0) {
            snprintf(failed, fn, "%s", path);
            *err = errno;
        }
    }
    return false;
}

/* The card from SDL_KMSDRM_DEVICE_INDEX, by-path names or cardN names; -1 with pc->fatal set
 * when there is none. */
static int choose_card(PlatformConsole *pc, const char *dev, const char *sys) {
    char dri[PATH_MAX];
    if (!join(dri, sizeof dri, dev, "dri")) dri[0] = 0;
    const char *env = getenv("SDL_KMSDRM_DEVICE_INDEX");
    if (env && env[0]) {
        char name[32];
        int idx = -1;
        snprintf(name, sizeof name, "card%s", env);
        idx = card_number(name);
        if (idx >= 0) {
            if (!join(pc->card, sizeof pc->card, dri, name)) pc->card[0] = 0;
            msg(pc->how, sizeof pc->how, "SDL_KMSDRM_DEVICE_INDEX=%d", idx);
            if (access(pc->card, F_OK) != 0)
                msg(pc->fatal, sizeof pc->fatal, "SDL_KMSDRM_DEVICE_INDEX=%d but %s does not exist: unset it or name an existing card",
                         idx, pc->card);
            return idx;
        }
        log_warn("platform: SDL_KMSDRM_DEVICE_INDEX='%s' is not a card number: choosing the card here", env);
    }

    Candidate cand[MAX_ENTRIES];
    int n = 0;
    char names[MAX_ENTRIES][80], bypath[PATH_MAX];
    int nb = join(bypath, sizeof bypath, dri, "by-path") ? list_dir(bypath, "", "-card", names) : 0;
    for (int i = 0; i < nb; i++) {
        char link[PATH_MAX], target[PATH_MAX];
        if (!join(link, sizeof link, bypath, names[i])) continue;
        ssize_t len = readlink(link, target, sizeof target - 1);
        if (len <= 0) continue;
        target[len] = 0;
        const char *base = strrchr(target, '/');
        int idx = card_number(base ? base + 1 : target);
        if (idx < 0) continue;
        Candidate *c = &cand[n++];
        c->index = idx;
        memcpy(c->name, names[i], sizeof c->name);   /* both 80 bytes, NUL-terminated */
        c->score = card_score(sys, idx, c->connector, sizeof c->connector);
    }
    bool by_path = n > 0;
    if (!by_path) {   /* no udev (many handheld firmwares): the card names themselves */
        int nc = list_dir(dri, "card", NULL, names);
        for (int i = 0; i < nc; i++) {
            int idx = card_number(names[i]);
            if (idx < 0) continue;
            Candidate *c = &cand[n++];
            c->index = idx;
            memcpy(c->name, names[i], sizeof c->name);   /* both 80 bytes, NUL-terminated */
            c->score = card_score(sys, idx, c->connector, sizeof c->connector);
        }
    }
    int best = pick(cand, n);
    if (best < 0) {
        msg(pc->fatal, sizeof pc->fatal,
                 "no DRM device in %s (no KMS driver: on a Pi add dtoverlay=vc4-kms-v3d to config.txt)", dri);
        return -1;
    }
    char card[16];
    snprintf(card, sizeof card, "card%d", cand[best].index);
    if (!join(pc->card, sizeof pc->card, dri, card)) pc->card[0] = 0;
    describe(pc, &cand[best], by_path);
    return cand[best].index;
}

void platform_console_check(PlatformConsole *pc, const char *dev, const char *sys) {
    memset(pc, 0, sizeof *pc);
    pc->card_index = choose_card(pc, dev, sys);
    if (pc->fatal[0]) return;

    /* The card as SDL opens it (read-write, to set the mode). */
    int fd = open(pc->card, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        int err = errno;
        char hint[200];
        platform_console_access_hint(pc->card, err, hint, sizeof hint);
        msg(pc->fatal, sizeof pc->fatal, "cannot open %s: %s", pc->card, hint);
        return;
    }
    close(fd);

    /* The GPU's render node: without it Mesa draws in software (slow, but it runs). */
    char failed[PATH_MAX] = "", hint[200];
    int count = 0, err = 0;
    if (!open_any(dev, "dri", "renderD", O_RDWR, &count, failed, sizeof failed, &err) && count > 0) {
        platform_console_access_hint(failed, err, hint, sizeof hint);
        msg(pc->warn, sizeof pc->warn, "cannot open %s (GPU drawing falls back to software): %s", failed, hint);
    }
    /* Keys and controllers: SDL reads the event devices itself on a console. */
    if (!open_any(dev, "input", "event", O_RDONLY, &count, failed, sizeof failed, &err) && count > 0) {
        platform_console_access_hint(failed, err, hint, sizeof hint);
        char line[320];
        msg(line, sizeof line, "cannot read %s (no keys or controllers on the console): %s", failed, hint);
        if (pc->warn[0]) cat(pc->warn, sizeof pc->warn, "%s", "; ");
        cat(pc->warn, sizeof pc->warn, "%s", line);
    }
}

/* ---------------------------------------------------------------- the battery */

/* One power_supply entry: its charge when it is a battery that reports one, else -1. */
static int battery_entry(const char *dir, const char *name, bool *discharging) {
    char type[32], cap[16], status[32];
    if (name[0] == '.' || !read_leaf(dir, name, "type", type, sizeof type) || strcmp(type, "Battery") != 0) return -1;
    if (!read_leaf(dir, name, "capacity", cap, sizeof cap)) return -1;
    char *end = NULL;
    long pct = strtol(cap, &end, 10);
    if (end == cap || pct < 0 || pct > 100) return -1;
    *discharging = read_leaf(dir, name, "status", status, sizeof status) && strcmp(status, "Discharging") == 0;
    return (int)pct;
}

int platform_battery_read(const char *sys, bool *discharging) {
    char dir[256];
    *discharging = false;
    if ((size_t)snprintf(dir, sizeof dir, "%s/class/power_supply", sys) >= sizeof dir) return -1;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -1;
    /* struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name. */
    _Alignas(8) char buf[4096];
    int pct = -1;
    long got;
    while (pct < 0 && (got = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
        for (long off = 0; off < got && pct < 0;) {
            unsigned short reclen;
            memcpy(&reclen, buf + off + 16, sizeof reclen);
            if (reclen == 0) break;
            pct = battery_entry(dir, buf + off + 19, discharging);
            off += reclen;
        }
    }
    close(fd);
    return pct;
}
