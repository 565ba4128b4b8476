/* skyisles core: error lines, leveled logging to stderr, monotonic time. */
#include "core/core.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void sky_error_set(SkyError *err, SkyErrorCode code, const char *fmt, ...) {
    if (!err) return;
    err->code = code != SKY_OK ? code : SKY_ERR_START;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    /* One line whatever it quotes: names from a pack, YAML or a path may hold newlines or
     * terminal escapes, and a log reader or a launcher shows only the first line. */
    for (char *c = err->msg; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
}

static int g_level = -1;
static pthread_mutex_t g_log_lock = PTHREAD_MUTEX_INITIALIZER;

static LogLevel level_from_env(void) {
    const char *e = getenv("SKYISLES_LOG");
    if (!e) return LOG_INFO;
    if (!strcmp(e, "debug")) return LOG_DEBUG;
    if (!strcmp(e, "warn")) return LOG_WARN;
    if (!strcmp(e, "error")) return LOG_ERROR;
    if (!strcmp(e, "quiet")) return LOG_QUIET;
    return LOG_INFO;
}

void log_set_level(LogLevel level) { __atomic_store_n(&g_level, (int)level, __ATOMIC_RELAXED); }

LogLevel log_get_level(void) {
    int l = __atomic_load_n(&g_level, __ATOMIC_RELAXED);
    if (l < 0) {
        l = (int)level_from_env();
        __atomic_store_n(&g_level, l, __ATOMIC_RELAXED);
    }
    return (LogLevel)l;
}

void log_msg(LogLevel level, const char *fmt, ...) {
    if (level < log_get_level()) return;
    static const char *const tag[] = {"debug", "info", "warn", "error", ""};
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&g_log_lock);
    fprintf(stderr, "skyisles: %s: %s\n", tag[level], line);
    pthread_mutex_unlock(&g_log_lock);
}

uint64_t time_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

double time_now_ms(void) { return (double)time_now_ns() / 1e6; }

uint64_t time_thread_cpu_ns(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
