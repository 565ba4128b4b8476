/* skyisles entry point: command line, boot, and the chosen mode (play, headless, screenshot,
 * benchmark, the home island's summary). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "power.h"

/* Heap calls by skyisles's own code (the binary links with --wrap=malloc,calloc,realloc): the
 * headless report shows how many happen after boot (the design says none on the frame path). */
void *__real_malloc(size_t n);
void *__real_calloc(size_t a, size_t b);
void *__real_realloc(void *p, size_t n);
static uint64_t g_heap_calls;
void *__wrap_malloc(size_t n) { __atomic_add_fetch(&g_heap_calls, 1, __ATOMIC_RELAXED); return __real_malloc(n); }
void *__wrap_calloc(size_t a, size_t b) { __atomic_add_fetch(&g_heap_calls, 1, __ATOMIC_RELAXED); return __real_calloc(a, b); }
void *__wrap_realloc(void *p, size_t n) { __atomic_add_fetch(&g_heap_calls, 1, __ATOMIC_RELAXED); return __real_realloc(p, n); }
static uint64_t heap_calls(void) { return __atomic_load_n(&g_heap_calls, __ATOMIC_RELAXED); }

int main(int argc, char **argv) {
    double start_ms = time_now_ms();   /* the boot's timeline starts here (bench boot reads it) */
    platform_signals_install();   /* before anything starts: a stop always ends in game_shutdown */
    static GameOptions opt;
    bool exit_now;
    if (!game_parse_args(argc, argv, &opt, &exit_now)) return GAME_EXIT_BAD_INPUT;
    if (exit_now) return 0;
    static Game game;
    SkyError err = {0};
    if (!game_boot(&game, &opt, &err)) {
        /* every error line names the program, whichever part said it ("replay: ...", "render: ...") */
        fprintf(stderr, "%s%s\n", strncmp(err.msg, "skyisles: ", 10) ? "skyisles: " : "",
                err.msg[0] ? err.msg : "start-up failed");
        game_shutdown(&game);
        return err.code == SKY_ERR_INPUT ? GAME_EXIT_BAD_INPUT : GAME_EXIT_START_FAILED;
    }
    game.svc.boot.start_ms = start_ms;
    game.svc.boot.ready_ms = time_now_ms() - start_ms;
    int rc;
    if (opt.print_island && opt.start_set &&
        (world_island_cell(game.svc.world, opt.start[0]) || world_island_cell(game.svc.world, opt.start[2]))) {
        rc = game_island_print(&game.svc.home, game.svc.world, opt.start[0], opt.start[2], stdout) ? 0 : GAME_EXIT_BAD_INPUT;
    } else if (opt.print_island) {
        game_home_print(&game.svc.home, &game.svc.spawn, stdout);
        rc = 0;
    } else if (opt.screenshot) {
        rc = game_screenshot(&game);
    } else if (opt.bench_frames) {
        rc = game_bench(&game);
    } else if (opt.headless) {
        rc = game_headless(&game, heap_calls);
    } else {
        rc = game_run(&game);
    }
    if (opt.audio_out && !sound_finish(&game.svc.sound, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        rc = GAME_EXIT_START_FAILED;
    }
    uint32_t workers = game.svc.jobs ? jobs_worker_count(game.svc.jobs) : 0;
    int power = game.ses.play.power;
    game_shutdown(&game);
    /* Power off or Reboot from the menu: the game has ended cleanly (settings saved, threads
     * joined); now the system. */
    if (power && !platform_stop_signal()) rc = power_act((MenuCommand)power);
    int sig = platform_stop_signal();
    if (sig) {
        /* A stop asked for (systemd, a launcher, Ctrl-C) is a clean end, whatever the mode. */
        log_info("skyisles: stopped by %s: %u workers joined, shut down cleanly", platform_signal_name(sig), workers);
        rc = 0;
    }
    return rc;
}
