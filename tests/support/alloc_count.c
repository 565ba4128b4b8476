/* Test support: heap-call counter behind the linker's --wrap (see alloc_count.h). */
#include "alloc_count.h"

#include <stddef.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t a, size_t b);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);

static int g_on;
static uint64_t g_count;

static void note(void) {
    if (__atomic_load_n(&g_on, __ATOMIC_RELAXED)) __atomic_add_fetch(&g_count, 1, __ATOMIC_RELAXED);
}

void *__wrap_malloc(size_t n) { note(); return __real_malloc(n); }
void *__wrap_calloc(size_t a, size_t b) { note(); return __real_calloc(a, b); }
void *__wrap_realloc(void *p, size_t n) { note(); return __real_realloc(p, n); }
void __wrap_free(void *p) { __real_free(p); }

void alloc_count_start(void) {
    __atomic_store_n(&g_count, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&g_on, 1, __ATOMIC_SEQ_CST);
}

uint64_t alloc_count_stop(void) {
    __atomic_store_n(&g_on, 0, __ATOMIC_SEQ_CST);
    return __atomic_load_n(&g_count, __ATOMIC_RELAXED);
}
