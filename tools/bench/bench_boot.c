/* skyisles bench: the boot, timed by the game itself. Runs build/skyisles (beside this binary,
 * or --game PATH) N times each way and reads the timeline line it logs (ms since main began):
 *   headless: `--headless --seconds 0.05`: boot, the first flight step (after the wait for the view
 *             to fill, as a headless run flies), the home island's bake from the boot's log line;
 *   window:   `--offscreen --autopilot --seconds 0.2` (SDL's offscreen GL): boot, the first frame
 *             shown and the first flight step; the terrain streams in after (no wait).
 * Medians of the runs against the targets (the first flight step 200 ms, headless, the wait for
 * the view excluded; the first frame 500 ms), with the main thread's CPU time to that point (from
 * the process's start: what a shared machine's load moves least) and the process's CPU time
 * (every thread, the whole run) and wall time.
 * Each kind's stages follow (`*_stages`: the medians of the game's "stages of the boot" line). --base
 * PATH runs another build of the game in turn with this one (an interleaved A/B; its lines say
 * "base_headless", "base_window").
 * `bench boot [--runs N] [--game PATH] [--base PATH]`, JSON lines. */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <spawn.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"

extern char **environ;

#define MAX_RUNS 99
#define OUT_MAX 65536

/* The stages the game's "stages of the boot" line names, in its order: the pack, the generation and the
 * bake (wall ms), then the world, the window, the renderer and the start place (wall / CPU ms). */
#define STAGES 7
#define STAGE_FIRST_CPU 3   /* the first stage logged with its CPU time ("world") */
static const char *const stage_name[STAGES] = {"pack", "generate", "bake", "world", "window", "renderer", "start place"};

typedef struct Run {
    double boot, step, frame, wait, bake, main_cpu, cpu, wall;
    double stage[STAGES], stage_cpu[STAGES];   /* -1: not logged (a game from before the stages line) */
} Run;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of field `off` (a double inside Run) over n runs. */
static double median_of(const Run *r, int n, size_t off) {
    double v[MAX_RUNS];
    for (int i = 0; i < n; i++) memcpy(&v[i], (const char *)&r[i] + off, sizeof(double));
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The number after `key` in text, or -1. */
static double after(const char *text, const char *key) {
    const char *p = strstr(text, key);
    return p ? atof(p + strlen(key)) : -1.0;
}

/* The stages line's figures: "name W" or "name W/C" for each stage, after "stages of the boot". */
static void read_stages(const char *out, Run *r) {
    /* The line alone, so a stage it lacks is not read from a later line of the log. */
    const char *at = strstr(out, "stages of the boot"), *line = NULL;
    char buf[512];
    if (at) {
        size_t len = strcspn(at, "\n");
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), at);
        line = buf;
    }
    for (int k = 0; k < STAGES; k++) {
        r->stage[k] = r->stage_cpu[k] = -1.0;
        char key[32];
        snprintf(key, sizeof key, " %s ", stage_name[k]);
        const char *p = line ? strstr(line, key) : NULL;
        if (!p) continue;
        char *end;
        r->stage[k] = strtod(p + strlen(key), &end);
        if (*end == '/') r->stage_cpu[k] = strtod(end + 1, NULL);
    }
}

/* Runs argv with stdout and stderr into out; the child's CPU time (user + system) and wall time. */
static bool run_game(char *const argv[], char *out, size_t cap, double *cpu_ms, double *wall_ms) {
    int fd[2];
    if (pipe(fd) != 0) return false;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    pid_t pid;
    double t0 = time_now_ms();
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    if (rc != 0) {
        close(fd[0]);
        fprintf(stderr, "bench boot: cannot run %s: %s (build it with make, or give --game PATH)\n", argv[0], strerror(rc));
        return false;
    }
    size_t len = 0;
    ssize_t got;
    while ((got = read(fd[0], out + len, cap - 1 - len)) > 0) len += (size_t)got;
    out[len] = 0;
    close(fd[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid) return false;
    *wall_ms = time_now_ms() - t0;
    *cpu_ms = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-3;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench boot: %s ended with status %d:\n%s", argv[0], WIFEXITED(status) ? WEXITSTATUS(status) : -1, out);
        return false;
    }
    return true;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* A fresh settings folder for the window runs (the player's own is neither read nor written). */
static char config_dir[] = "/tmp/skyisles-bench-boot.XXXXXX";

static bool one_run(const char *game, bool window, Run *r) {
    static char out[OUT_MAX];
    char *hl[] = {(char *)game, "--headless", "--seconds", "0.05", NULL};
    char *wn[] = {(char *)game, "--offscreen", "--autopilot", "--seconds", "0.2", "--quality", "medium", "--config",
                  config_dir, NULL};
    if (!run_game(window ? wn : hl, out, sizeof out, &r->cpu, &r->wall)) return false;
    r->boot = after(out, "skyisles: boot ");
    r->step = after(out, " ms, first flight step ");
    r->frame = after(out, " ms, first frame ");
    r->wait = after(out, " ms after start (");
    r->bake = after(out, " baked in ");
    r->main_cpu = after(out, "; main thread CPU ");
    read_stages(out, r);
    if (r->boot < 0.0 || r->step < 0.0 || r->main_cpu < 0.0 || (window && r->frame < 0.0)) {
        fprintf(stderr, "bench boot: %s logged no boot timeline line:\n%s", game, out);
        return false;
    }
    return true;
}

/* This binary's folder + "/skyisles". */
static bool game_beside(char *buf, size_t n) {
    ssize_t len = readlink("/proc/self/exe", buf, n - 16);
    if (len <= 0) return false;
    buf[len] = 0;
    char *slash = strrchr(buf, '/');
    if (!slash) return false;
    strcpy(slash + 1, "skyisles");
    return true;
}

static void report(const char *what, const Run *r, int n, bool window) {
    double step = median_of(r, n, offsetof(Run, step)), wait = median_of(r, n, offsetof(Run, wait));
    printf("{\"bench\":\"boot\",\"what\":\"%s\",\"runs\":%d,\"boot_ms\":%.1f,\"first_step_ms\":%.1f,", what, n,
           median_of(r, n, offsetof(Run, boot)), step);
    if (window) {
        double frame = median_of(r, n, offsetof(Run, frame));
        printf("\"first_frame_ms\":%.1f,\"target_ms\":500,\"ok\":%s,", frame, frame <= 500.0 ? "true" : "false");
    } else {
        double ex = step - wait;
        printf("\"wait_view_ms\":%.1f,\"first_step_without_wait_ms\":%.1f,\"home_bake_ms\":%.2f,\"target_ms\":200,"
               "\"ok\":%s,", wait, ex, median_of(r, n, offsetof(Run, bake)), ex <= 200.0 ? "true" : "false");
    }
    printf("\"main_thread_cpu_ms\":%.1f,\"process_cpu_ms\":%.1f,\"process_wall_ms\":%.1f}\n",
           median_of(r, n, offsetof(Run, main_cpu)), median_of(r, n, offsetof(Run, cpu)), median_of(r, n, offsetof(Run, wall)));
    /* The boot's stages, medians of each (a stage not logged: -1). */
    printf("{\"bench\":\"boot\",\"what\":\"%s_stages\",\"runs\":%d", what, n);
    for (int k = 0; k < STAGES; k++) {
        char key[32];
        snprintf(key, sizeof key, "%s", stage_name[k]);
        for (char *c = key; *c; c++)
            if (*c == ' ') *c = '_';
        printf(",\"%s_ms\":%.2f", key, median_of(r, n, offsetof(Run, stage) + sizeof(double) * (size_t)k));
        if (k >= STAGE_FIRST_CPU) printf(",\"%s_cpu_ms\":%.2f", key, median_of(r, n, offsetof(Run, stage_cpu) + sizeof(double) * (size_t)k));
    }
    printf("}\n");
}

int bench_boot(int argc, char **argv) {
    int runs = 9;
    char game[4096] = {0}, base[4096] = {0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--game") && i + 1 < argc) snprintf(game, sizeof game, "%s", argv[++i]);
        else if (!strcmp(argv[i], "--base") && i + 1 < argc) snprintf(base, sizeof base, "%s", argv[++i]);
        else {
            fprintf(stderr, "usage: bench boot [--runs N] [--game PATH] [--base PATH]\n");
            return 2;
        }
    }
    if (runs < 1 || runs > MAX_RUNS) {
        fprintf(stderr, "bench boot: --runs takes 1..%d\n", MAX_RUNS);
        return 2;
    }
    if (!game[0] && !game_beside(game, sizeof game)) {
        fprintf(stderr, "bench boot: cannot find the game beside this binary: give --game PATH\n");
        return 2;
    }
    if (!getenv("SDL_VIDEODRIVER")) setenv("SDL_VIDEODRIVER", "offscreen", 1);
    if (!mkdtemp(config_dir)) {
        fprintf(stderr, "bench boot: cannot make a settings folder in /tmp: %s\n", strerror(errno));
        return 1;
    }
    static Run hl[MAX_RUNS], wn[MAX_RUNS], bhl[MAX_RUNS], bwn[MAX_RUNS];
    bool ok = true;
    for (int i = 0; ok && i < runs; i++) {   /* the kinds (and builds) take turns, so the machine's load hits all alike */
        ok = one_run(game, false, &hl[i]) && one_run(game, true, &wn[i]);
        if (ok && base[0]) ok = one_run(base, false, &bhl[i]) && one_run(base, true, &bwn[i]);
    }
    nftw(config_dir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
    if (!ok) return 1;
    report("headless", hl, runs, false);
    report("window", wn, runs, true);
    if (base[0]) {
        report("base_headless", bhl, runs, false);
        report("base_window", bwn, runs, true);
    }
    return 0;
}
