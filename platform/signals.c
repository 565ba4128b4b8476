/* skyisles stop signals: SIGTERM (systemd stopping the unit, a handheld launcher's kill switch),
 * SIGINT (Ctrl-C) and SIGHUP (the console hung up) ask the game to stop. Every mode checks between
 * frames and leaves through the normal shutdown: workers joined, the GL context and the DRM
 * master released, the console keyboard mode restored by SDL_Quit, exit status 0. */
#include <signal.h>
#include <string.h>

#include "platform.h"

static volatile sig_atomic_t g_stop_signal;

static void on_stop(int sig) {
    if (!g_stop_signal) g_stop_signal = sig;
}

void platform_signals_install(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    /* No SA_RESTART, so a sleep or wait returns at once and the loop sees the request.
     * SA_RESETHAND: a second signal has the default effect, so a stuck shutdown can still be
     * interrupted. SDL installs its own handlers only where it finds the default, so it leaves
     * these alone; on a crash (SIGSEGV, SIGABRT, ...) SDL's handlers still restore the console
     * keyboard first. */
    sa.sa_flags = SA_RESETHAND;
    static const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
    log_debug("stop signals handled (SIGTERM, SIGINT, SIGHUP)");
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
