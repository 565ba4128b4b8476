/* skyisles fuzzing: replays a fuzz target's corpus as a cmocka program, without clang or libFuzzer:
 * build/tests/fuzz_NAME runs tests/fuzz/NAME.c's LLVMFuzzerTestOneInput on every file of
 * tests/fuzz/NAME/ (or on the files and folders given as arguments), one test per file. The
 * files run in a child process, so a crash, a sanitizer report, a leak or a hang fails that file
 * alone, under its own name, and the other files still run. Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/fuzz.h"

#define REPLAY_SECONDS 10   /* the -timeout make fuzz gives libFuzzer: slower is a hang */
#define MAX_FILES 4096
#define LEAK_EXIT 23        /* LeakSanitizer's exit status */

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
size_t __sanitizer_get_current_allocated_bytes(void);   /* in every sanitizer runtime; gcc ships no header */
/* Leaks are pinned on the input that made them, as libFuzzer does: when the heap grew across an
 * input, a leak check (not a per-input cost: most inputs give back what they take). */
static size_t heap_bytes(void) { return __sanitizer_get_current_allocated_bytes(); }
static bool leaked_since(size_t before) { return heap_bytes() > before && __lsan_do_recoverable_leak_check() != 0; }
#else
static size_t heap_bytes(void) { return 0; }
static bool leaked_since(size_t before) { (void)before; return false; }
#endif

/* Optional in a target, as in libFuzzer. */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

typedef struct Replay { char *path; char verdict[160]; } Replay;   /* verdict "" = passed */
static Replay g_files[MAX_FILES];
static size_t g_n_files;

/* Runs files [first, last) in one child process, which records in shared memory the file it is
 * on; returns the child's wait status. One process for the whole corpus keeps the replay fast
 * (a fork of a sanitizer process costs more than most inputs); a child that dies names its file.
 * Children run before cmocka installs its signal handlers, which would catch a child's crash and
 * carry on with the next test inside the child. */
static int run_children(size_t first, size_t last, volatile size_t *current) {
    fflush(NULL);   /* the child must not write buffered output a second time */
    *current = first;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        for (size_t i = first; i < last; i++) {
            *current = i;
            size_t heap = heap_bytes();
            SkyError err = {0};
            size_t len;
            uint8_t *data = file_read_all(g_files[i].path, ISLAND_PAK_MAX_BYTES, &len, &err);
            if (!data) {
                fprintf(stderr, "replay: %s\n", err.msg);
                _exit(3);
            }
            alarm(REPLAY_SECONDS);
            LLVMFuzzerTestOneInput(data, len);
            free(data);
            if (leaked_since(heap)) _exit(LEAK_EXIT);
        }
        *current = last;
        exit(0);   /* not _exit: LeakSanitizer checks at exit */
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {}
    return status;
}

static void set_verdict(Replay *r, int status) {
    if (status == -1)
        snprintf(r->verdict, sizeof r->verdict, "cannot fork");
    else if (WIFSIGNALED(status))
        snprintf(r->verdict, sizeof r->verdict, "%s (signal %d)", WTERMSIG(status) == SIGALRM ? "timed out" : "crashed",
                 WTERMSIG(status));
    else if (WEXITSTATUS(status) == LEAK_EXIT)
        snprintf(r->verdict, sizeof r->verdict, "leaked memory (the report is above)");
    else if (WEXITSTATUS(status) != 0)
        snprintf(r->verdict, sizeof r->verdict, "exit status %d (the report is above)", WEXITSTATUS(status));
    if (r->verdict[0]) fprintf(stderr, "replay: %s: %s\n", r->path, r->verdict);
}

static void replay_all(void) {
    volatile size_t *current = mmap(NULL, sizeof *current, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (current == MAP_FAILED) {
        for (size_t i = 0; i < g_n_files; i++) set_verdict(&g_files[i], -1);
        return;
    }
    for (size_t next = 0; next < g_n_files;) {
        int status = run_children(next, g_n_files, current);
        if (status == 0) break;
        size_t at = *current;
        if (status != -1 && at < g_n_files) {   /* died on file `at`; the ones before it passed */
            set_verdict(&g_files[at], status);
            next = at + 1;
            continue;
        }
        /* Every file ran, yet the exit failed: a leak found at exit. One child per file says whose. */
        for (size_t i = next; i < g_n_files; i++) set_verdict(&g_files[i], run_children(i, i + 1, current));
        break;
    }
    munmap((void *)current, sizeof *current);
}

static void report(void **state) {
    const Replay *r = *state;
    if (r->verdict[0]) fail_msg("%s: %s", r->path, r->verdict);
}

static int cmp_path(const void *a, const void *b) { return strcmp(((const Replay *)a)->path, ((const Replay *)b)->path); }

static void add_file(const char *path) {
    if (g_n_files >= MAX_FILES) {
        fprintf(stderr, "replay: more than %d files, the rest are not replayed\n", MAX_FILES);
        return;
    }
    g_files[g_n_files++].path = strdup(path);
}

/* Every regular file of a folder except notes (README.md) and hidden files, in name order. */
static void add_path(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        add_file(path);   /* a missing file fails as its own test */
        return;
    }
    DIR *d = opendir(path);
    if (!d) return;
    size_t first = g_n_files;
    for (struct dirent *e; (e = readdir(d));) {
        size_t k = strlen(e->d_name);
        if (e->d_name[0] == '.' || (k > 3 && !strcmp(e->d_name + k - 3, ".md"))) continue;
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", path, e->d_name);
        if (stat(full, &st) == 0 && S_ISREG(st.st_mode)) add_file(full);
    }
    closedir(d);
    qsort(g_files + first, g_n_files - first, sizeof g_files[0], cmp_path);
}

int main(int argc, char **argv) {
    /* The target's name is the program's: build/tests/fuzz_NAME replays tests/fuzz/NAME/. */
    const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    const char *name = strncmp(prog, "fuzz_", 5) ? prog : prog + 5;
    char corpus[512];
    snprintf(corpus, sizeof corpus, "tests/fuzz/%s", name);
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    if (argc > 1)
        for (int i = 1; i < argc; i++) add_path(argv[i]);
    else
        add_path(corpus);
    struct CMUnitTest *tests = calloc(g_n_files ? g_n_files : 1, sizeof *tests);
    if (!tests) return 1;
    for (size_t i = 0; i < g_n_files; i++) {
        if (!g_files[i].path) return 1;
        tests[i] = (struct CMUnitTest){.name = g_files[i].path, .test_func = report, .initial_state = &g_files[i]};
    }
    replay_all();
    char group[600];
    snprintf(group, sizeof group, "fuzz replay %s", name);
    int failed = _cmocka_run_group_tests(group, tests, g_n_files, NULL, NULL);
    free(tests);
    for (size_t i = 0; i < g_n_files; i++) free(g_files[i].path);
    return failed;
}
