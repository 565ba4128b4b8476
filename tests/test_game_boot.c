/* Tests for the game binary's boot path, run as a user would: build/skyisles with a damaged or
 * missing --pak, a budget too small, bad options (exit 2, one stderr line naming the fix), no
 * display at all (exit 1, one line naming what was tried and what to do), --print-island (the home island and its spawn, headless, for several seeds), and a shot's frames flown by play (the frame of a game). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/emulated.h"

/* The binary under test and how to start it (a runner such as qemu-aarch64 for a cross build). */
static char g_bin[1024];
static char g_runner[256];
static char g_tmp[256];

typedef struct Run {
    int status;          /* exit status, or -1 when it did not exit normally */
    char out[32768];     /* stdout (--help is over 16 KiB) */
    char err[8192];      /* stderr */
    int err_lines;
} Run;

static void slurp(const char *path, char *buf, size_t cap) {
    buf[0] = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return;
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = 0;
    fclose(f);
}

static int count_lines(const char *s) {
    int n = 0;
    for (; *s; s++)
        if (*s == '\n') n++;
    return n;
}

/* Runs `[env] [runner] binary args` with stdout and stderr captured. */
static void run(Run *r, const char *env, const char *args) {
    char cmd[4096], out[512], err[512];
    snprintf(out, sizeof out, "%s/out", g_tmp);
    snprintf(err, sizeof err, "%s/err", g_tmp);
    snprintf(cmd, sizeof cmd, "%s %s '%s' %s >'%s' 2>'%s' </dev/null", env ? env : "", g_runner, g_bin, args, out, err);
    int st = system(cmd);
    r->status = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    slurp(out, r->out, sizeof r->out);
    slurp(err, r->err, sizeof r->err);
    r->err_lines = count_lines(r->err);
}

static bool file_exists(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* A desktop tool beside the game (pack, islandgen) as a command: in a cross build's folder, which
 * holds the game only, the desktop build's own (build/, run without the emulator), as the README
 * runs it. */
static void host_tool(const char *name, char *cmd, size_t n) {
    char dir[1024], path[1100];
    memcpy(dir, g_bin, sizeof dir);
    dir[sizeof dir - 1] = 0;
    dirname(dir);
    snprintf(path, sizeof path, "%.1000s/%.60s", dir, name);
    if (file_exists(path)) snprintf(cmd, n, "%.255s '%.1099s'", g_runner, path);
    else snprintf(cmd, n, "'build/%s'", name);
}

/* The ELF machine of a file: the qemu-user runner that would start it when the host cannot. */
static const char *qemu_for(const char *path) {
    unsigned char h[20] = {0};
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t n = fread(h, 1, sizeof h, f);
    fclose(f);
    if (n < sizeof h || memcmp(h, "\177ELF", 4) != 0) return NULL;
    unsigned machine = h[18] | (unsigned)h[19] << 8;   /* little-endian e_machine */
    switch (machine) {
    case 183: return "qemu-aarch64";
    case 62: return "qemu-x86_64";
    case 40: return "qemu-arm";
    default: return NULL;
    }
}

/* The game binary: $SKYISLES_GAME_BIN, else skyisles in this test's build directory (the
 * parent of build.../tests), else build/skyisles (sanitizer builds leave out the GL side). The
 * runner: $SKYISLES_TEST_RUNNER, else none, else qemu for the binary's machine when the host
 * cannot start it directly (a cross build's tests run under qemu-user). */
static bool locate(const char *argv0) {
    const char *bin = getenv("SKYISLES_GAME_BIN");
    if (bin && *bin) {
        snprintf(g_bin, sizeof g_bin, "%s", bin);
    } else {
        char tmp[1024];
        snprintf(tmp, sizeof tmp, "%s", argv0);
        snprintf(g_bin, sizeof g_bin, "%s/../skyisles", dirname(tmp));
        if (!file_exists(g_bin)) {
            printf("note: %s is not built (sanitizer builds leave out the GL side): testing build/skyisles\n", g_bin);
            snprintf(g_bin, sizeof g_bin, "build/skyisles");
        }
    }
    if (!file_exists(g_bin)) {
        fprintf(stderr, "test_game_boot: no game binary at %s: build it first (make build/skyisles)\n", g_bin);
        return false;
    }
    snprintf(g_tmp, sizeof g_tmp, "/tmp/skyisles_game_boot_XXXXXX");
    if (!mkdtemp(g_tmp)) return false;
    const char *runner = getenv("SKYISLES_TEST_RUNNER");
    const char *candidates[2] = {runner && *runner ? runner : "", runner && *runner ? NULL : qemu_for(g_bin)};
    for (int i = 0; i < 2 && candidates[i]; i++) {
        snprintf(g_runner, sizeof g_runner, "%s", candidates[i]);
        Run *r = calloc(1, sizeof *r);
        if (!r) return false;
        run(r, NULL, "--help");
        int st = r->status;
        free(r);
        if (st == 0) {
            printf("note: testing %s%s%s\n", g_runner, *g_runner ? " " : "", g_bin);
            return true;
        }
    }
    fprintf(stderr, "test_game_boot: %s does not start here (set SKYISLES_TEST_RUNNER, e.g. qemu-aarch64)\n", g_bin);
    return false;
}

static int teardown(void **state) {
    (void)state;
    char p[512];
    snprintf(p, sizeof p, "%s/out", g_tmp);
    unlink(p);
    snprintf(p, sizeof p, "%s/err", g_tmp);
    unlink(p);
    rmdir(g_tmp);
    return 0;
}

static Run g_run;

/* The default start's --print-island, with no display to be had (it needs none): one run, read by
 * every case that checks the default island (the pack file's twin, the island and its spawn, the
 * default budget), since under emulation each start generates the island again. */
#define NO_DISPLAY_ENV "SDL_VIDEODRIVER=none-such DISPLAY= WAYLAND_DISPLAY="
static const Run *default_island(void) {
    static Run r;
    static bool done;
    if (!done) run(&r, NO_DISPLAY_ENV, "--print-island");
    done = true;
    return &r;
}

/* A failed start: status 2, nothing on stdout, exactly one stderr line holding every needle. */
static void expect_one_line(const Run *r, int status, const char *const *needles) {
    printf("  exit %d: %s", r->status, r->err);
    assert_int_equal(r->status, status);
    assert_int_equal(r->err_lines, 1);
    assert_string_equal(r->out, "");
    assert_true(!strncmp(r->err, "skyisles: ", 10));
    for (; *needles; needles++)
        if (!strstr(r->err, *needles)) fail_msg("'%s' is not in: %s", *needles, r->err);
}

/* ---------------------------------------------------------------- packs */
static void test_bad_packs(void **state) {
    (void)state;
    static const struct {
        const char *file, *why;
    } cases[] = {
        {"tests/data/game/truncated.pak", "truncated"},
        {"tests/data/game/bad_checksum.pak", "checksum mismatch"},
        {"tests/data/game/future_version.pak", "format version 99"},
        {"tests/data/game/not_a_pack.pak", "not a skyisles pack"},
        {"tests/data/game/empty.pak", "shorter than the 48-byte header"},
        {"tests/data/game/unknown_landmark.pak", "location type 'rocky_shore' names landmark 'lightmouse'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[512];
        assert_true(file_exists(cases[i].file));
        /* With and without a window wanted: the pack fails before any display is opened. */
        for (int mode = 0; mode < 2; mode++) {
            snprintf(args, sizeof args, "--pak %s %s", cases[i].file, mode ? "--screenshot /tmp/skyisles-never.png" : "--print-island");
            run(&g_run, "SDL_VIDEODRIVER=none-such", args);
            const char *needles[] = {cases[i].file, cases[i].why, "leave out --pak", NULL};
            expect_one_line(&g_run, 2, needles);
        }
    }
}

static void test_missing_pack(void **state) {
    (void)state;
    run(&g_run, NULL, "--pak tests/data/game/no_such.pak --print-island");
    const char *missing[] = {"--pak", "tests/data/game/no_such.pak", "check the path", "built-in pack", NULL};
    expect_one_line(&g_run, 2, missing);
    run(&g_run, NULL, "--pak tests/data/game --print-island");
    const char *dir[] = {"tests/data/game", "not a regular file", NULL};
    expect_one_line(&g_run, 2, dir);
}

/* The pack file the build writes holds the same codex as the built-in one: same island. */
static void test_pack_file_equals_builtin(void **state) {
    (void)state;
    char dir[1024], pak[1200], args[1400];
    snprintf(dir, sizeof dir, "%s", g_bin);
    snprintf(pak, sizeof pak, "%s/skyisles.pak", dirname(dir));
    if (!file_exists(pak)) fail_msg("%s is missing: the build writes it next to the game", pak);
    const Run *builtin = default_island();
    assert_int_equal(builtin->status, 0);
    snprintf(args, sizeof args, "--pak '%s' --print-island", pak);
    run(&g_run, NULL, args);
    assert_int_equal(g_run.status, 0);
    /* Everything after the first line (which names the pack) is the same. */
    const char *a = strchr(builtin->out, '\n'), *b = strchr(g_run.out, '\n');
    assert_non_null(a);
    assert_non_null(b);
    assert_string_equal(a, b);
    assert_non_null(strstr(g_run.out, pak));
}

/* The documented pack command (README's tools table, docs/pack-format.md), run as written with
 * this build's packer, writes the built-in pack byte for byte. */
static void doc_command(const char *doc, const char *start, char *cmd, size_t n) {
    static char text[1 << 16];
    slurp(doc, text, sizeof text);
    const char *p = strstr(text, start), *end = p ? strchr(p, '`') : NULL;
    if (!end) fail_msg("%s has no `%s...`", doc, start);
    size_t k = 0;
    for (; p < end && k + 1 < n; p++)
        if (!(p[0] == '\\' && p[1] == '|')) cmd[k++] = *p;   /* a table cell's escaped pipe */
    cmd[k] = 0;
}

static void test_pack_command_gives_builtin(void **state) {
    (void)state;
    char readme[512], doc[512], dir[1024], cmd[2400], out[400];
    doc_command("README.md", "build/pack -o out.pak", readme, sizeof readme);
    doc_command("docs/pack-format.md", "build/pack -o out.pak", doc, sizeof doc);
    printf("  %s\n", readme);
    assert_string_equal(readme, doc);
    char tool[1400];
    host_tool("pack", tool, sizeof tool);
    snprintf(dir, sizeof dir, "%s", g_bin);
    dirname(dir);
    snprintf(out, sizeof out, "%s/out.pak", g_tmp);
    snprintf(cmd, sizeof cmd, "%s -o '%s' %s", tool, out, strstr(readme, "out.pak") + 8);
    assert_int_equal(system(cmd), 0);
    static char built[1 << 16], made[1 << 16];
    char pak[1100];
    snprintf(pak, sizeof pak, "%s/skyisles.pak", dir);   /* the bytes the game embeds */
    FILE *a = fopen(pak, "rb"), *b = fopen(out, "rb");
    assert_non_null(a);
    assert_non_null(b);
    size_t na = fread(built, 1, sizeof built, a), nb = fread(made, 1, sizeof made, b);
    fclose(a);
    fclose(b);
    unlink(out);
    printf("  built-in %zu bytes, the command's %zu\n", na, nb);
    assert_int_equal(na, nb);
    assert_memory_equal(built, made, na);
}

/* A pack without the archipelago: one line says so (not two near-identical ones). */
static void test_pack_without_archipelago_said_once(void **state) {
    (void)state;
    char tool[1400], cmd[2400], args[600];
    host_tool("pack", tool, sizeof tool);
    snprintf(cmd, sizeof cmd, "%s -o '%s/na.pak' $(ls assets/codex/*.yaml | grep -v 'locale_ja\\|archipelago')", tool,
             g_tmp);
    assert_int_equal(system(cmd), 0);
    snprintf(args, sizeof args, "--pak '%s/na.pak' --print-island", g_tmp);
    run(&g_run, NULL, args);
    assert_int_equal(g_run.status, 0);
    int lines = 0;
    for (const char *p = strstr(g_run.err, "archipelago"); p; p = strstr(p + strcspn(p, "\n"), "archipelago")) lines++;
    printf("  %d line(s) name the archipelago\n", lines);
    assert_int_equal(lines, 1);
    snprintf(cmd, sizeof cmd, "%s/na.pak", g_tmp);
    unlink(cmd);
}

/* ---------------------------------------------------------------- the home island */
static int count_site_lines(const char *out) {
    int n = 0;
    const char *p = strstr(out, "  site  x_m");
    if (!p) return -1;
    for (p = strchr(p, '\n'); p && p[1] == ' '; p = strchr(p + 1, '\n')) n++;
    return n;
}

/* Six seeds natively; under emulation (each start generates an island and surveys its spawn, some
 * seconds there) the default seed and the hexadecimal one, through the same checks. */
static void test_print_island(void **state) {
    (void)state;
    static const char *const seeds[] = {"", "--seed 0x5eed", "--seed 1", "--seed 2", "--seed 3", "--seed 77"};
    size_t n = test_running_emulated() ? 2 : sizeof seeds / sizeof seeds[0];
    for (size_t i = 0; i < n; i++) {
        char args[128];
        snprintf(args, sizeof args, "--print-island %s", seeds[i]);
        /* No display is needed: a video driver that cannot exist changes nothing. */
        const Run *r = &g_run;
        if (i == 0) r = default_island();
        else run(&g_run, NO_DISPLAY_ENV, args);
        const char *spawn = strstr(r->out, "\nspawn: ");
        printf("  %s: exit %d, %s", *seeds[i] ? seeds[i] : "default seed", r->status, spawn ? spawn + 1 : "(no spawn)\n");
        assert_int_equal(r->status, 0);
        unsigned long long seed;
        unsigned sites, ring;
        assert_int_equal(sscanf(r->out, "home island: seed %llu", &seed), 1);
        assert_true(seed == (i == 0 ? 20261129ull : strtoull(seeds[i] + 7, NULL, 0)));
        const char *s = strstr(r->out, "\nsites: ");
        assert_non_null(s);
        assert_int_equal(sscanf(s, "\nsites: %u (%u on the outer ring)", &sites, &ring), 2);
        assert_true(sites >= 20 && sites <= 28);   /* the shipped scope's site_count */
        assert_int_equal(count_site_lines(r->out), (int)sites);
        assert_non_null(strstr(r->out, "(base)"));
        /* The spawn: 40 m off the island's coast (SIM_SPAWN_COAST) on +z, heading for its
         * centre, with the home island in view. */
        assert_non_null(spawn);
        const char *across = strstr(r->out, " m across");
        assert_non_null(across);
        while (across > r->out && across[-1] >= '0' && across[-1] <= '9') across--;
        double diameter = strtod(across, NULL);
        double x, y, z, head, air;
        assert_int_equal(sscanf(spawn, "\nspawn: %lf, %lf, %lf heading %lf deg, %lf m of air below", &x, &y, &z, &head, &air), 5);
        assert_true(x == 0.0 && z == diameter / 2.0 + 40.0 && head == 0.0);
        assert_true(y > 100.0 && y < 200.0 && air >= 8.0);
        assert_non_null(strstr(spawn, "; home island in view\n"));
        /* The boot log's one line on the island: seed, sites, base, generation time. */
        char want[160];
        snprintf(want, sizeof want, "home island: seed %llu, %u sites, base ", seed, sites);
        if (!strstr(r->err, want)) fail_msg("no '%s' in the log:\n%s", want, r->err);
        assert_non_null(strstr(r->err, " ms"));
        assert_null(strstr(r->err, "warn"));
    }
}

/* ---------------------------------------------------------------- memory budget and options */
static void test_budget_too_small(void **state) {
    (void)state;
    run(&g_run, NULL, "--mem 8 --print-island");
    const char *range[] = {"--mem", "16..65536", NULL};
    expect_one_line(&g_run, 2, range);
    /* The world cannot fit: found before any window. */
    const char *world[] = {"memory budget of 16 MiB is too small for --mesh-pool 64", "--mem MB", "SKYISLES_MEM_MB", NULL};
    run(&g_run, "SDL_VIDEODRIVER=none-such", "--mem 16 --mesh-pool 64 --screenshot /tmp/skyisles-never.png");
    expect_one_line(&g_run, 2, world);
    run(&g_run, "SKYISLES_MEM_MB=16", "--mesh-pool 64 --print-island");
    expect_one_line(&g_run, 2, world);
    /* The budget cannot hold the world and the renderer at the view radius asked (their chunk
     * tables grow with it): the boot's plan lowers the view to the largest radius that fits before
     * either is made, and says so in one line, instead of refusing to start (a view radius saved
     * on a bigger machine, or by a player who raised it in the panel).
     * Mesa's driver leaks at exit under LeakSanitizer (why sanitizer runs skip the GL side):
     * an AddressSanitizer game binary is told not to count leaks for this one. */
    char shot[400], args[600];
    snprintf(shot, sizeof shot, "%s/held.png", g_tmp);
    unlink(shot);
    snprintf(args, sizeof args, "--mem 40 --view-radius 40 --screenshot '%s' --size 64x48", shot);
    run(&g_run, "SKYISLES_LOG=warn ASAN_OPTIONS=detect_leaks=0 SDL_VIDEODRIVER=offscreen", args);
    printf("  --mem 40 --view-radius 40: exit %d\n%s", g_run.status, g_run.err);
    assert_int_equal(g_run.status, 0);
    const char *held = strstr(g_run.err, "the memory budget of 40 MiB holds a view radius of ");
    assert_non_null(held);
    assert_non_null(strstr(held, "not 40: the view is held there"));
    assert_null(strstr(held + 1, "the memory budget of 40 MiB holds"));   /* said once */
    assert_true(file_exists(shot));
    unlink(shot);
    /* Where not even the smallest view fits beside the rest, still one error line. */
    run(&g_run, "SKYISLES_LOG=warn ASAN_OPTIONS=detect_leaks=0",
        "--mem 16 --view-radius 40 --screenshot /tmp/skyisles-never.png --size 64x48");
    const char *render[] = {"memory budget of 16 MiB is too small", "the renderer did not fit", "--mem MB", NULL};
    expect_one_line(&g_run, 2, render);
    /* The smallest budget the flag takes still boots, saying the view may reach less far. */
    run(&g_run, NULL, "--mem 16 --print-island");
    printf("  --mem 16: exit %d\n%s", g_run.status, g_run.err);
    assert_int_equal(g_run.status, 0);
    assert_non_null(strstr(g_run.err, "squeezed the chunk-mesh pool"));
    assert_non_null(strstr(g_run.err, "budget 16.0 MiB"));
    /* The default budget is not squeezed. */
    assert_int_equal(default_island()->status, 0);
    assert_null(strstr(default_island()->err, "squeezed"));
}

static void test_bad_options(void **state) {
    (void)state;
    static const struct {
        const char *args, *needle;
    } cases[] = {
        {"--seed banana", "--seed"}, {"--seed -3", "--seed"},     {"--size 10x10", "--size"},
        {"--frames 0", "--frames"},  {"--pak", "--pak needs a value"}, {"--time soon", "--time"},
        {"--wait -1", "--wait"},     {"--mesh-pool 1", "--mesh-pool"}, {"--fly-me-to-the-moon", "unknown option"},
        {"--world view_radius=99", "view_radius: '99' is not a whole number in 1..64"},
        {"--world no_such_knob=1", "'no_such_knob' is unknown"}, {"--world seed", "name=value"},
        {"--seed banana", "0..18446744073709551615"}, {"--time-of-day '12: 5'", "HH:MM"},
        {"--time-of-day 12:+5", "HH:MM"}, {"--time-of-day 7:5", "HH:MM"},
        {"--headless --screenshot /tmp/skyisles-never.png", "--headless draws no frames"},
        {"--headless --bench-frames 10", "--headless draws no frames"},
        {"--record-attract /tmp/skyisles-never.skyr --bench-frames 3", "--record-attract (headless) draws no frames"},
        {"--screenshot /nonexistent/dir/x.png", "the folder /nonexistent/dir does not exist"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run(&g_run, NULL, cases[i].args);
        const char *needles[] = {cases[i].needle, NULL};
        expect_one_line(&g_run, 2, needles);
    }
    /* Bad input found after the boot: the one line still on stderr, nothing on stdout. */
    const char *data[] = {"SKYISLES_DATA_DIR '/nonexistent' is not a folder", NULL};
    run(&g_run, "SKYISLES_DATA_DIR=/nonexistent", "--print-island");
    expect_one_line(&g_run, 2, data);
    const char *sky[] = {"--start", "no island in that cell", "leave out --start", NULL};
    run(&g_run, "SKYISLES_LOG=warn", "--print-island --start 1e12,110,1e12");
    expect_one_line(&g_run, 2, sky);
    const char *folder[] = {"replay: tests is not a file", NULL};
    run(&g_run, "SKYISLES_LOG=warn", "--replay tests --headless");
    expect_one_line(&g_run, 2, folder);
    char cut[600];   /* a replay cut inside its header: damaged, not "no replay signature" */
    snprintf(cut, sizeof cut, "head -c 200 tests/data/replay/x86-two-minutes.skyr > '%s/cut.skyr'", g_tmp);
    assert_int_equal(system(cut), 0);
    snprintf(cut, sizeof cut, "--replay '%s/cut.skyr' --headless", g_tmp);
    const char *damaged[] = {"the file is damaged (cut short", "cut.skyr", NULL};
    run(&g_run, "SKYISLES_LOG=warn", cut);
    expect_one_line(&g_run, 2, damaged);
    snprintf(cut, sizeof cut, "%s/cut.skyr", g_tmp);
    unlink(cut);
}

/* islandgen (beside the game) takes whole numbers only: one line, exit 2. */
static void test_islandgen_numbers(void **state) {
    (void)state;
    static const char *const bad[] = {"--seed banana", "--seed -5", "--stats banana", "--stats 4000000000", "--sites 2"};
    char tool[1400], cmd[2048], err[300];
    host_tool("islandgen", tool, sizeof tool);
    snprintf(err, sizeof err, "%s/err", g_tmp);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "%s %s >/dev/null 2>'%s'", tool, bad[i], err);
        int st = system(cmd);
        slurp(err, g_run.err, sizeof g_run.err);
        printf("  %s: exit %d, %s", bad[i], WIFEXITED(st) ? WEXITSTATUS(st) : -1, g_run.err);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
        assert_int_equal(count_lines(g_run.err), 1);
        assert_non_null(strstr(g_run.err, "is not a whole number in"));
    }
}

/* No display and no console to draw on: exit 1 (a start-up failure, not bad input), one line. */
static void test_no_display(void **state) {
    (void)state;
    char env[512];
    snprintf(env, sizeof env, "SDL_VIDEODRIVER=none-such DISPLAY= WAYLAND_DISPLAY= SKYISLES_LOG=warn XDG_CONFIG_HOME=%s", g_tmp);
    run(&g_run, env, "");
    const char *forced[] = {"no display", "none-such", "set DISPLAY", NULL};
    expect_one_line(&g_run, 1, forced);
}

/* ---------------------------------------------------------------- faults */
/* A GL context that cannot be made (the EGL library missing): one line, exit 1. */
static void test_no_gl_context(void **state) {
    (void)state;
    run(&g_run, "SDL_VIDEODRIVER=offscreen SDL_VIDEO_EGL_DRIVER=/nonexistent/libEGL.so SKYISLES_LOG=warn",
        "--screenshot /tmp/skyisles-never.png");
    const char *needles[] = {"no offscreen GLES2 context", "EGL", "install Mesa", NULL};
    expect_one_line(&g_run, 1, needles);
}

/* A pack path that cannot be read (its folder is a file): one line naming it, exit 2. */
static void test_unreadable_pack(void **state) {
    (void)state;
    run(&g_run, NULL, "--pak tests/data/game/README.md/x.pak --print-island");
    const char *needles[] = {"tests/data/game/README.md/x.pak", "Not a directory", NULL};
    expect_one_line(&g_run, 2, needles);
}

/* A config folder that cannot be one (a file stands there): the run goes on with defaults, with
 * one warning when reading and one when saving; nothing is written there. */
static void test_unusable_config_folder(void **state) {
    (void)state;
    char env[512], args[512];
    snprintf(env, sizeof env, "SDL_VIDEODRIVER=offscreen SKYISLES_LOG=warn");
    /* --seed makes the run's seed the one to keep: there is something to save. */
    snprintf(args, sizeof args, "--config tests/data/game/README.md --offscreen --size 64x48 --autopilot --seconds 0.2 --seed 5");
    run(&g_run, env, args);
    printf("  exit %d:\n%s", g_run.status, g_run.err);
    assert_int_equal(g_run.status, 0);
    assert_non_null(strstr(g_run.err, "settings"));
    assert_non_null(strstr(g_run.err, "tests/data/game/README.md"));
    assert_non_null(strstr(g_run.err, "settings not saved"));
    assert_true(g_run.err_lines <= 3);
}

/* Starts the game in the background with stderr to a file; its pid. */
static pid_t start_bg(const char *env_kv, const char *args, const char *err_path) {
    pid_t pid = fork();
    if (pid != 0) return pid;
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "exec env %s %s '%s' %s >/dev/null 2>'%s' </dev/null", env_kv, g_runner, g_bin, args,
             err_path);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
}

/* The process has installed a handler for sig (its SigCgt mask in /proc). */
static bool catches(pid_t pid, int sig) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    bool yes = false;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "SigCgt:", 7)) yes = (strtoull(line + 7, NULL, 16) >> (sig - 1)) & 1u;
    fclose(f);
    return yes;
}

static bool file_has(const char *path, const char *needle) {
    static char buf[65536];
    slurp(path, buf, sizeof buf);
    return strstr(buf, needle) != NULL;
}

static int wait_exit(pid_t pid, int seconds) {
    for (int i = 0; i < seconds * 20; i++) {
        int st;
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid) return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
        usleep(50000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return -1;
}

/* SIGTERM, SIGINT and SIGHUP, while booting and while flying: exit 0 through the normal shutdown
 * (every worker joined, said in the log), whatever the moment. Natively each signal at both
 * moments; under emulation (a flight starts only after seconds of chunks there) each signal once,
 * SIGTERM while flying and the others while booting, so both moments are still stopped. */
static void test_stop_signals(void **state) {
    (void)state;
    static const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
    static const char *const names[] = {"SIGTERM", "SIGINT", "SIGHUP"};
    const bool emulated = test_running_emulated();
    char err[512];
    snprintf(err, sizeof err, "%s/bg.err", g_tmp);
    for (int k = 0; k < 3; k++)
        for (int flying = 0; flying < 2; flying++) {
            if (emulated && flying != (k == 0)) continue;
            unlink(err);   /* no marker of the run before */
            /* View radius 2: the flight starts once the view has filled (13 chunks, not the 29 of
             * radius 3: under qemu each takes a good part of a second). */
            pid_t pid = start_bg("SDL_VIDEODRIVER=none-such SKYISLES_LOG=debug", "--headless --autopilot --seconds 120 --view-radius 2", err);
            assert_true(pid > 0);
            /* Booting: as soon as the handlers stand (before that a stop signal would be the
             * default one, by design of exec, not of the game): the process catches it (its
             * SigCgt mask) and the game said so in its debug log (under qemu-user the mask is the
             * emulator's own from the start). Flying: after the line that says the flight started. */
            const char *marker = "headless flight started";
            for (int i = 0; i < 2400; i++) {
                bool ready = catches(pid, sigs[k]) && file_has(err, "stop signals handled");
                if (ready && (!flying || file_has(err, marker))) break;
                usleep(25000);
            }
            bool started = file_has(err, marker);
            if (flying) assert_true(started);
            kill(pid, sigs[k]);
            int rc = wait_exit(pid, 120);
            char want[96];
            snprintf(want, sizeof want, "stopped by %s: ", names[k]);
            printf("  %s while %s: exit %d%s\n", names[k], flying ? "flying" : (started ? "booting (late)" : "booting"), rc,
                   file_has(err, "workers joined") ? ", workers joined" : "");
            assert_int_equal(rc, 0);
            assert_true(file_has(err, want));
            assert_true(file_has(err, "workers joined, shut down cleanly"));
        }
}

/* Stopped in the middle of play, the settings file is whole: either the old one or a complete
 * new one, never half-written. Three stops at different moments natively, the first and the last
 * under emulation (each start takes seconds there). */
static void test_stop_keeps_settings_whole(void **state) {
    (void)state;
    char dir[300], path[400], err[400], env[700];
    snprintf(dir, sizeof dir, "%s/cfg", g_tmp);
    snprintf(path, sizeof path, "%s/settings.yaml", dir);
    snprintf(err, sizeof err, "%s/bg2.err", g_tmp);
    for (int round = 0; round < 3; round += test_running_emulated() ? 2 : 1) {
        snprintf(env, sizeof env, "SDL_VIDEODRIVER=offscreen");
        char args[600];
        snprintf(args, sizeof args, "--config '%s' --offscreen --size 64x48 --autopilot --view-radius 2 --seed %d", dir,
                 100 + round);
        unlink(err);
        pid_t pid = start_bg(env, args, err);
        assert_true(pid > 0);
        for (int i = 0; i < 1200 && !(catches(pid, SIGTERM) && file_has(err, "workers; budget")); i++) usleep(25000);
        usleep(100000 * (useconds_t)round);
        kill(pid, SIGTERM);
        assert_int_equal(wait_exit(pid, 120), 0);
        static char text[65536];
        slurp(path, text, sizeof text);
        assert_true(text[0] != 0);
        assert_non_null(strstr(text, "version: 1"));
        assert_non_null(strstr(text, "world:"));
        char seed[64];
        snprintf(seed, sizeof seed, "  seed: %d\n", 100 + round);
        assert_non_null(strstr(text, seed));   /* the run's seed, kept whole at the stop */
    }
}

/* A shot run writes nothing in its config folder (a damaged logbook it shows stays as it is, no
 * first-start settings); --time-of-day and --weather on an interactive run are that run's only. */
static void test_shot_writes_nothing(void **state) {
    (void)state;
    char dir[300], path[400], args[900];
    static char text[65536];
    snprintf(dir, sizeof dir, "%s/cfgshot", g_tmp);
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/logbook-20261129.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("not a logbook\n", f);
    fclose(f);
    snprintf(args, sizeof args, "--config '%s' --screenshot '%s/shot.png' --size 64x48 --show logbook", dir, g_tmp);
    run(&g_run, "SDL_VIDEODRIVER=offscreen SKYISLES_LOG=info", args);
    printf("  exit %d\n", g_run.status);
    assert_int_equal(g_run.status, 0);
    slurp(path, text, sizeof text);
    assert_string_equal(text, "not a logbook\n");
    char other[500];
    snprintf(other, sizeof other, "%s.damaged", path);
    assert_false(file_exists(other));
    snprintf(other, sizeof other, "%s/settings.yaml", dir);
    assert_false(file_exists(other));
    assert_null(strstr(g_run.err, "first start"));
    unlink(path);
    snprintf(other, sizeof other, "%s/shot.png", g_tmp);
    unlink(other);
    /* interactive: the first start's settings are written, without this run's time of day and weather */
    snprintf(args, sizeof args, "--config '%s' --offscreen --size 64x48 --autopilot --seconds 0.2 --time-of-day 18:30 "
             "--weather storm", dir);
    run(&g_run, "SDL_VIDEODRIVER=offscreen", args);
    assert_int_equal(g_run.status, 0);
    snprintf(path, sizeof path, "%s/settings.yaml", dir);
    slurp(path, text, sizeof text);
    assert_non_null(strstr(text, "quality: auto"));
    assert_null(strstr(text, "time: fixed"));
    assert_null(strstr(text, "18.5"));
    assert_null(strstr(text, "weather: storm"));
}

/* A first start takes Quality auto (the governor measures the frames), says so in one line naming
 * the GPU and keeps it in the settings file with the high preset's values as the ceiling; the
 * next start reads it, says nothing, and begins at the settle point the file keeps; --quality
 * wins; a settings file without a quality keeps its own values. */
static void test_first_start_quality(void **state) {
    (void)state;
    char dir[300], path[400], args[600];
    static char text[65536];
    snprintf(dir, sizeof dir, "%s/cfgq", g_tmp);
    snprintf(path, sizeof path, "%s/settings.yaml", dir);
    unlink(path);
    snprintf(args, sizeof args, "--config '%s' --offscreen --size 64x48 --autopilot --seconds 0.2", dir);
    run(&g_run, "SDL_VIDEODRIVER=offscreen", args);
    printf("  first start: %s", strstr(g_run.err, "first start") ? strstr(g_run.err, "first start") : "(no line)\n");
    assert_int_equal(g_run.status, 0);
    const char *line = strstr(g_run.err, "first start: quality ");
    assert_non_null(line);
    assert_non_null(strstr(line, "pipe"));    /* llvmpipe or softpipe, named */
    assert_non_null(strstr(line, "quality auto"));
    slurp(path, text, sizeof text);
    assert_non_null(strstr(text, "quality: auto"));
    assert_non_null(strstr(text, "view_radius: 14"));   /* the ceiling: the high preset's reach */
    assert_non_null(strstr(text, "auto_level: "));
    /* The second start keeps it and says nothing of a first start; with a settle point kept (as a
     * run that settled writes it), the governor begins there. */
    char *lvl = strstr(text, "auto_level: ");
    char *lvl_end = lvl ? strchr(lvl, '\n') : NULL;
    assert_non_null(lvl_end);
    memmove(lvl + 13, lvl_end, strlen(lvl_end) + 1);
    lvl[12] = '5';
    FILE *w = fopen(path, "w");
    assert_non_null(w);
    fputs(text, w);
    fclose(w);
    run(&g_run, "SDL_VIDEODRIVER=offscreen", args);
    assert_int_equal(g_run.status, 0);
    assert_null(strstr(g_run.err, "first start"));
    assert_non_null(strstr(g_run.err, "starting at the last settle point, level 5"));
    /* --quality on a first start: no guess, the player's preset kept. */
    unlink(path);
    snprintf(args, sizeof args, "--config '%s' --offscreen --size 64x48 --autopilot --seconds 0.2 --quality high", dir);
    run(&g_run, "SDL_VIDEODRIVER=offscreen", args);
    assert_int_equal(g_run.status, 0);
    assert_null(strstr(g_run.err, "first start"));
    slurp(path, text, sizeof text);
    assert_non_null(strstr(text, "quality: high"));
    assert_non_null(strstr(text, "view_radius: 14"));
    /* A settings file without a quality (written before there was one): its values stay, no guess. */
    char *q = strstr(text, "  quality: high");
    assert_non_null(q);
    char *eol = strchr(q, '\n');
    assert_non_null(eol);
    memmove(q, eol + 1, strlen(eol + 1) + 1);
    char *vr = strstr(text, "view_radius: 14");
    memcpy(vr, "view_radius: 9 ", 15);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    snprintf(args, sizeof args, "--config '%s' --offscreen --size 64x48 --autopilot --seconds 0.2", dir);
    run(&g_run, "SDL_VIDEODRIVER=offscreen", args);
    assert_int_equal(g_run.status, 0);
    assert_null(strstr(g_run.err, "first start"));
    assert_non_null(strstr(g_run.err, "view radius 9 chunks"));
    slurp(path, text, sizeof text);
    assert_null(strstr(text, "quality:"));
    unlink(path);
    rmdir(dir);
}

/* --help names every option the parser knows (read from its tables' sources: the run options in
 * src/game/options.c, the settings flags in src/game/setting_table.c). */
static void test_help_lists_every_option(void **state) {
    (void)state;
    run(&g_run, NULL, "--help");
    assert_int_equal(g_run.status, 0);
    static char src[2][65536];
    slurp("src/game/options.c", src[0], sizeof src[0]);
    slurp("src/game/setting_table.c", src[1], sizeof src[1]);
    if (!src[0][0] || !src[1][0]) fail_msg("src/game/options.c not found: run the tests from the repository root");
    int options = 0;
    static const char *const marks[2] = {"{\"--", ".flag = \"--"};
    for (int f = 0; f < 2; f++)
        for (const char *p = src[f]; (p = strstr(p, marks[f])) != NULL;) {
            p += strlen(marks[f]) - 2;
            const char *q = strchr(p, '"');
            assert_non_null(q);
            char opt[64];
            snprintf(opt, sizeof opt, "%.*s", (int)(q - p), p);
            options++;
            if (!strstr(g_run.out, opt)) fail_msg("--help does not mention %s", opt);
        }
    printf("  --help names all %d options the parser accepts\n", options);
    assert_true(options >= 28);
    assert_non_null(strstr(g_run.out, "exit status"));
    /* And the world's parameter table: generation, cave kind, live and creation rows. */
    const char *rows[] = {"world parameters", "base_scale", "tube_radius", "rough_octaves", "view_radius", "lod_dist_1",
                          "mesh_pool_mib"};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (!strstr(g_run.out, rows[i])) fail_msg("--help does not list the world parameter %s", rows[i]);
}

/* A shot's frames are the game's frames: play steps the sim at its fixed step (--frames 31: the
 * first frame has no time, then 30 steps of 1/60 s), the autopilot flying; with --camera the
 * camera stays where it was put while the steps run. */
static void test_shot_frames_are_play_frames(void **state) {
    (void)state;
    static Run r;
    char shot[400], args[800];
    snprintf(shot, sizeof shot, "%s/steps.png", g_tmp);
    const char *views[] = {"", "--camera 0,190,110,0,-50"};
    for (int k = 0; k < 2; k++) {
        unlink(shot);
        snprintf(args, sizeof args, "--screenshot '%s' --frames 31 --size 64x48 --view-radius 2 --wait 30 %s", shot,
                 views[k]);
        run(&r, "SKYISLES_LOG=info ASAN_OPTIONS=detect_leaks=0 SDL_VIDEODRIVER=offscreen", args);
        const char *line = strstr(r.err, "skyisles: wrote ");
        printf("  %s: exit %d, %.*s\n", views[k][0] ? views[k] : "the autopilot", r.status,
               line ? (int)strcspn(line, "\n") : 4, line ? line : "none");
        assert_int_equal(r.status, 0);
        assert_true(file_exists(shot));
        assert_non_null(line);
        assert_non_null(strstr(line, " after 30 sim steps ("));
        if (k == 1) assert_non_null(strstr(line, "camera 0.0,190.0,110.0 yaw 0.0 pitch -50.0"));
    }
    unlink(shot);
}

int main(int argc, char **argv) {
    (void)argc;
    if (!locate(argv[0])) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_packs),        cmocka_unit_test(test_missing_pack),
        cmocka_unit_test(test_pack_file_equals_builtin), cmocka_unit_test(test_pack_command_gives_builtin),
        cmocka_unit_test(test_pack_without_archipelago_said_once), cmocka_unit_test(test_print_island),
        cmocka_unit_test(test_budget_too_small), cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_islandgen_numbers),
        cmocka_unit_test(test_no_display),       cmocka_unit_test(test_first_start_quality),
        cmocka_unit_test(test_shot_writes_nothing),
        cmocka_unit_test(test_help_lists_every_option),
        cmocka_unit_test(test_no_gl_context),    cmocka_unit_test(test_unreadable_pack),
        cmocka_unit_test(test_unusable_config_folder), cmocka_unit_test(test_stop_signals),
        cmocka_unit_test(test_stop_keeps_settings_whole), cmocka_unit_test(test_shot_frames_are_play_frames),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
