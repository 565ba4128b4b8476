/* Tests for stalls and ends (src/game/game.c's frame time, headless.c): the game binary stopped
 * with SIGSTOP for seconds (more than the half second that counts as a stall) and continued
 * does not crash, uses no frame time over the 0.1 s cap, is paused where it was, and still ends
 * cleanly on SIGTERM; a headless soak with and without the autopilot ends at --seconds with its
 * report (without the autopilot it crashes and is paused when the soak unplugs its pad); a few
 * SIGTERMs at random moments beside a CPU hog (or make test's other programs) all end cleanly.
 * The soaks fly in real time (13 s), so where the game runs natively (its frames take little CPU)
 * they are started first and the other tests run beside them; under emulation every game is
 * CPU-bound, and they fly alone. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <libgen.h>
#include <signal.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char g_bin[1024], g_runner[64], g_dir[256];
static bool g_emulated;   /* the game is not of the host's machine (qemu-user, by hand or binfmt) */
static pid_t g_soak[2] = {-1, -1};   /* the soaks, without and with the autopilot */

static pid_t soak_start(bool autopilot);

static bool exists(const char *p) {
    struct stat st;
    return stat(p, &st) == 0;
}

/* The ELF machine of a file (0 when it is not one). */
static unsigned elf_machine(const char *path) {
    unsigned char h[20] = {0};
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(h, 1, sizeof h, f);
    fclose(f);
    return n == sizeof h && !memcmp(h, "\177ELF", 4) ? (unsigned)(h[18] | h[19] << 8) : 0;
}

/* The game starts with `runner` in front of it (its --help exits 0). */
static bool starts_with(const char *runner) {
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "%s '%s' --help >/dev/null 2>&1 </dev/null", runner, g_bin);
    int st = system(cmd);
    return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* The game beside this test's build folder (build-asan has none: build/skyisles), started
 * directly where it can be, else under qemu-aarch64 when it was built for aarch64 on another
 * host. Tried, not guessed from uname: under qemu-user this test itself is emulated and uname
 * answers aarch64, while the shell that starts the game runs on the host (and a host without a
 * binfmt entry for aarch64 cannot start the game directly). */
static int setup(void **state) {
    (void)state;
    char *argv0 = getenv("SKYISLES_STALL_ARGV0");
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", argv0 ? argv0 : "build/tests/x");
    snprintf(g_bin, sizeof g_bin, "%s/../skyisles", dirname(tmp));
    if (!exists(g_bin)) snprintf(g_bin, sizeof g_bin, "build/skyisles");
    snprintf(g_dir, sizeof g_dir, "/tmp/skyisles_stall_XXXXXX");
    if (!mkdtemp(g_dir) || !exists(g_bin)) {
        fprintf(stderr, "test_game_stall: no game binary at %s: build it first (make build/skyisles)\n", g_bin);
        return -1;
    }
    g_runner[0] = 0;
    if (!starts_with("")) {
        if (strcmp(SKYISLES_ARCH, "aarch64") != 0 || !starts_with("qemu-aarch64")) {
            fprintf(stderr, "test_game_stall: %s does not start here (install qemu-user for an aarch64 build)\n", g_bin);
            return -1;
        }
        snprintf(g_runner, sizeof g_runner, "qemu-aarch64");
    }
    /* Emulated: the game's machine is not the one of the shell that starts it (a host program,
     * also when this test itself runs under qemu-user, where uname answers aarch64). */
    unsigned host = elf_machine("/bin/sh"), game = elf_machine(g_bin);
    g_emulated = g_runner[0] || (host && game && host != game);
    printf("note: testing %s%s%s%s\n", g_runner, g_runner[0] ? " " : "", g_bin, g_emulated && !g_runner[0] ? " (emulated)" : "");
    if (!g_emulated) {
        g_soak[0] = soak_start(false);
        g_soak[1] = soak_start(true);
    }
    return 0;
}

static int teardown(void **state) {
    (void)state;
    for (int i = 0; i < 2; i++)   /* a soak its test did not wait for (a filtered run) */
        if (g_soak[i] > 0) {
            kill(g_soak[i], SIGKILL);
            waitpid(g_soak[i], NULL, 0);
        }
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static pid_t start(const char *env, const char *args, const char *out, const char *err) {
    pid_t pid = fork();
    if (pid != 0) return pid;
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "exec env %s %s '%s' %s >'%s' 2>'%s' </dev/null", env, g_runner, g_bin, args, out, err);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
}

/* The file's text from `needle` on (NULL when the file or the needle is missing). */
static const char *find_in(const char *path, const char *needle) {
    static char buf[1 << 16];
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strstr(buf, needle);
}

static bool has(const char *path, const char *needle) { return find_in(path, needle) != NULL; }

/* The number logged right after `needle` in the file (NAN when the line is missing). */
static double number_after(const char *path, const char *needle) {
    const char *p = find_in(path, needle);
    return p ? strtod(p + strlen(needle), NULL) : NAN;
}

/* The exit status, or -1 after `seconds` (then it is killed). */
static int wait_exit(pid_t pid, int seconds) {
    for (int i = 0; i < seconds * 20; i++) {
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid) return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        usleep(50000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return -1;
}

static bool wait_for(const char *path, const char *needle, int seconds) {
    for (int i = 0; i < seconds * 20; i++) {
        if (has(path, needle)) return true;
        usleep(50000);
    }
    return false;
}

/* Milliseconds flown before the stop, stopped, and flown after it: a stall is a gap over half a
 * second and over four recent frames (each counted up to a second), after the third frame.
 * Natively a frame here takes milliseconds: a second flown is many frames, and 1.5 s stopped is
 * three times the half second. Software GL under emulation (aarch64 here is qemu-user) takes
 * most of a second a frame, so there the stop is over four seconds and the flight before it
 * longer. */
#if defined(__aarch64__)
#define FLY_FIRST_MS 5000
#define STOPPED_MS 5000
#define FLY_AFTER_MS 1000
#else
#define FLY_FIRST_MS 1000
#define STOPPED_MS 1500
#define FLY_AFTER_MS 500
#endif

static void test_sigstop_pauses(void **state) {
    (void)state;
    char out[400], err[400];
    snprintf(out, sizeof out, "%s/stop.out", g_dir);
    snprintf(err, sizeof err, "%s/stop.err", g_dir);
    pid_t pid = start("SDL_VIDEODRIVER=offscreen GALLIUM_DRIVER=softpipe SKYISLES_LOG=info",
                      "--offscreen --size 64x48 --autopilot --view-radius 2 --seconds 600", out, err);
    assert_true(wait_for(err, "workers; budget", 180));
    usleep(FLY_FIRST_MS * 1000);   /* flying, a few frames in */
    assert_int_equal(kill(pid, SIGSTOP), 0);
    usleep(STOPPED_MS * 1000);     /* a stall */
    assert_int_equal(kill(pid, SIGCONT), 0);
    assert_true(wait_for(err, "gap between frames", 60));
    usleep(FLY_AFTER_MS * 1000);
    kill(pid, SIGTERM);
    int rc = wait_exit(pid, 120);
    printf("  after SIGSTOP, %.1f s, SIGCONT, SIGTERM: exit %d\n", STOPPED_MS / 1000.0, rc);
    assert_int_equal(rc, 0);
    assert_true(has(err, "paused where it was"));
    assert_true(has(err, "stopped by SIGTERM"));
    /* Every frame's time was at most the cap: the stall became a pause, not a leap. */
    double longest = number_after(err, "longest frame time used ");
    printf("  longest frame time the sim used: %.1f ms\n", longest);
    assert_true(longest > 0.0 && longest <= 100.0);
}

/* A headless soak runs in real time: the two (without and with the autopilot) fly side by
 * side, each to its own files, from the group's setup on (beside the other tests) where the game
 * runs natively, else from their own test on. */
static pid_t soak_start(bool autopilot) {
    char out[400], err[400];
    snprintf(out, sizeof out, "%s/soak%d.out", g_dir, autopilot);
    snprintf(err, sizeof err, "%s/soak%d.err", g_dir, autopilot);
    char args[200];
    /* Past 12 s of flight: the soak unplugs its pad; without the autopilot that pauses. */
    snprintf(args, sizeof args, "--headless --soak --seconds 13 --view-radius 2%s", autopilot ? " --autopilot" : "");
    return start("SDL_VIDEODRIVER=none-such SKYISLES_LOG=info", args, out, err);
}

static void soak_check(pid_t pid, bool autopilot) {
    char out[400];
    snprintf(out, sizeof out, "%s/soak%d.out", g_dir, autopilot);
    int rc = wait_exit(pid, 300);
    printf("  --headless --soak --seconds 13%s: exit %d\n", autopilot ? " --autopilot" : "", rc);
    assert_int_equal(rc, 0);
    assert_true(has(out, "frames): "));   /* the report line */
}

/* Natively both soaks; under emulation, where each is 13 s of a core, the one without the
 * autopilot (it also crashes and pauses on the way to its end). */
static void test_soaks_end_with_and_without_autopilot(void **state) {
    (void)state;
    if (g_soak[0] < 0) g_soak[0] = soak_start(false);
    if (g_soak[1] < 0 && !g_emulated) g_soak[1] = soak_start(true);
    pid_t alone = g_soak[0], piloted = g_soak[1];
    g_soak[0] = g_soak[1] = -1;
    assert_true(alone > 0 && (g_emulated || piloted > 0));
    soak_check(alone, false);
    if (!g_emulated) soak_check(piloted, true);
}

/* A few runs of the storm (tools/signals/sigterm_storm.sh; 50 and 500 runs are in
 * docs/reliability.md): SIGTERM at a random moment in the first 6 s, every run exits 0 with the
 * clean line. Beside one CPU hog, not one per core (the soaks fly beside it too), or as many as
 * $SKYISLES_STORM_HOGS says: make test sets 0, as its other programs keep every core busy there
 * and a hog would only take their time. */
static void test_sigterm_storm(void **state) {
    (void)state;
    const char *hogs = getenv("SKYISLES_STORM_HOGS");
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "SKYISLES_RUNNER='%s' SKYISLES_STORM_HOGS=%d bash tools/signals/sigterm_storm.sh 4 '%s'",
             g_runner, hogs && *hogs ? atoi(hogs) : 1, g_bin);
    int rc = system(cmd);
    assert_int_equal(rc, 0);
}

int main(int argc, char **argv) {
    (void)argc;
    setenv("SKYISLES_STALL_ARGV0", argv[0], 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sigstop_pauses),
        cmocka_unit_test(test_sigterm_storm),
        cmocka_unit_test(test_soaks_end_with_and_without_autopilot),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
