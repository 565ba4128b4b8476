/* skyisles stop signals: SIGTERM (systemd stopping the unit, a handheld launcher's kill switch),
 * SIGINT (Ctrl-C) and SIGHUP (the console hung up) ask the game to stop. Every mode checks between
 * frames and leaves through the normal shutdown: workers joined, the GL context and the DRM
 * master released, the console keyboard mode restored by SDL_Quit, exit status 0. */
#include <signal.h>
#include <string.h>
#include <time.h>

#include "platform.h"

static volatile sig_atomic_t g_stop_signal;
static struct timespec g_first;   /* when the first stop signal came */
static volatile sig_atomic_t g_installed;

/* A shutdown that has not ended this long after the first stop signal is stuck: the next stop
 * signal ends the process the default way. Sooner, a repeated signal (systemd's SIGTERM and a
 * launcher's, a second Ctrl-C) only repeats the request: it never cuts the clean shutdown short. */
#define STUCK_SECONDS 3

static void on_stop(int sig) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);   /* async-signal-safe */
    if (!g_stop_signal) {
        g_first = now;
        g_stop_signal = sig;
        return;
    }
    if (now.tv_sec - g_first.tv_sec > STUCK_SECONDS) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = SIG_DFL;
        sigaction(sig, &sa, NULL);
        raise(sig);
    }
}

void platform_signals_install(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    /* No SA_RESETHAND (a second signal in the shutdown would end it the default way, exit 143)
     * and no SA_RESTART, so a sleep or wait returns at once and the loop sees the request. SDL
     * installs its own handlers only where it finds the default, so it leaves these alone; the
     * game installs them again once SDL is up, in case a library did not. On a crash (SIGSEGV,
     * SIGABRT, ...) SDL's handlers still restore the console keyboard first. */
    sa.sa_flags = 0;
    static const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
    if (!g_installed) log_debug("stop signals handled (SIGTERM, SIGINT, SIGHUP)");
    g_installed = 1;
}

int platform_stop_signal(void) { return (int)g_stop_signal; }

const char *platform_signal_name(int sig) {
    switch (sig) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGHUP: return "SIGHUP";
    default: return "a signal";
    }
}
