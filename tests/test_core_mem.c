/* Tests for the memory budget, arenas and fixed-size pools: no overlap, clean exhaustion
 * and recovery, thread-safe alloc/free, counters, budget limits. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "support/alloc_count.h"

static MemBudget g_budget;

static int setup(void **state) {
    (void)state;
    SkyError err = {0};
    return mem_budget_init(&g_budget, 16u << 20, &err) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    mem_budget_release(&g_budget);
    return 0;
}

static int cmp_ptr(const void *a, const void *b) {
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return x < y ? -1 : x > y;
}

static void test_pool_blocks_never_overlap(void **state) {
    (void)state;
    enum { N = 500 };
    MemPool p;
    assert_true(mem_pool_init(&p, &g_budget, "overlap", 100, N));
    assert_int_equal(p.block_size % 16, 0);
    uintptr_t ptrs[N];
    for (int i = 0; i < N; i++) {
        void *b = mem_pool_alloc(&p);
        assert_non_null(b);
        assert_int_equal((uintptr_t)b % 16, 0);
        memset(b, i & 0xff, 100);
        ptrs[i] = (uintptr_t)b;
    }
    qsort(ptrs, N, sizeof ptrs[0], cmp_ptr);
    for (int i = 1; i < N; i++) assert_true(ptrs[i] - ptrs[i - 1] >= 100);
    /* Every block still holds what was written into it: nothing was handed out twice. */
    for (int i = 0; i < N; i++) {
        uint8_t *b = mem_pool_block(&p, (uint32_t)i);
        uint8_t want = b[0];
        for (int k = 1; k < 100; k++) assert_int_equal(b[k], want);
    }
}

static void test_pool_exhaustion_fails_and_recovers(void **state) {
    (void)state;
    MemPool p;
    assert_true(mem_pool_init(&p, &g_budget, "exhaust", 64, 8));
    void *blocks[8];
    for (int i = 0; i < 8; i++) assert_non_null(blocks[i] = mem_pool_alloc(&p));
    assert_null(mem_pool_alloc(&p));
    assert_null(mem_pool_alloc(&p));
    MemPoolStats s = mem_pool_stats(&p);
    assert_int_equal(s.failures, 2);
    assert_int_equal(s.in_use, 8);
    assert_int_equal(s.peak, 8);
    mem_pool_free(&p, blocks[3]);
    mem_pool_free(&p, blocks[5]);
    void *a = mem_pool_alloc(&p), *b = mem_pool_alloc(&p);
    assert_true((a == blocks[3] && b == blocks[5]) || (a == blocks[5] && b == blocks[3]));
    assert_null(mem_pool_alloc(&p));
    for (int i = 0; i < 8; i++) mem_pool_free(&p, blocks[i]);
    s = mem_pool_stats(&p);
    assert_int_equal(s.in_use, 0);
    assert_int_equal(s.peak, 8);
    assert_int_equal(s.failures, 3);
}

static void test_pool_rejects_foreign_and_double_free(void **state) {
    (void)state;
    MemPool p;
    assert_true(mem_pool_init(&p, &g_budget, "guard", 32, 4));
    log_set_level(LOG_QUIET);
    void *b = mem_pool_alloc(&p);
    mem_pool_free(&p, b);
    mem_pool_free(&p, b);                      /* double free: ignored */
    int local;
    mem_pool_free(&p, &local);                 /* not from this pool: ignored */
    mem_pool_free(&p, (uint8_t *)b + 1);       /* inside a block, not its start: ignored */
    log_set_level(LOG_INFO);
    MemPoolStats s = mem_pool_stats(&p);
    assert_int_equal(s.in_use, 0);
    assert_int_equal(s.frees, 1);
    /* The pool still hands out exactly its capacity. */
    for (int i = 0; i < 4; i++) assert_non_null(mem_pool_alloc(&p));
    assert_null(mem_pool_alloc(&p));
}

typedef struct PoolHammer { MemPool *pool; uint32_t id; int rounds; int corrupt; } PoolHammer;

static void *hammer(void *arg) {
    PoolHammer *h = arg;
    void *held[16];
    for (int r = 0; r < h->rounds; r++) {
        int n = 0;
        for (; n < 16; n++) {
            uint32_t *b = mem_pool_alloc(h->pool);
            if (!b) break;
            for (int k = 0; k < 8; k++) b[k] = h->id;
            held[n] = b;
        }
        for (int i = 0; i < n; i++) {
            uint32_t *b = held[i];
            for (int k = 0; k < 8; k++) h->corrupt += b[k] != h->id;
            mem_pool_free(h->pool, b);
        }
    }
    return NULL;
}

static void test_pool_thread_safe(void **state) {
    (void)state;
    enum { T = 4 };
    MemPool p;
    assert_true(mem_pool_init(&p, &g_budget, "threads", 32, 40));   /* fewer than 4 x 16: contention */
    pthread_t th[T];
    PoolHammer h[T];
    for (int i = 0; i < T; i++) {
        h[i] = (PoolHammer){&p, 0x1000u + (uint32_t)i, 2000, 0};
        assert_int_equal(pthread_create(&th[i], NULL, hammer, &h[i]), 0);
    }
    for (int i = 0; i < T; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < T; i++) assert_int_equal(h[i].corrupt, 0);
    MemPoolStats s = mem_pool_stats(&p);
    assert_int_equal(s.in_use, 0);
    assert_int_equal(s.allocs, s.frees);
    assert_true(s.peak <= 40);
}

static void test_arena_alignment_and_limits(void **state) {
    (void)state;
    MemArena a;
    assert_true(mem_arena_init(&a, &g_budget, 1024));
    void *x = mem_arena_alloc(&a, 3, 8);
    void *y = mem_arena_alloc(&a, 100, 64);
    assert_non_null(x);
    assert_non_null(y);
    assert_int_equal((uintptr_t)y % 64, 0);
    assert_true((uint8_t *)y >= (uint8_t *)x + 3);
    assert_null(mem_arena_alloc(&a, 2000, 8));
    assert_int_equal(a.failures, 1);
    size_t peak = a.peak;
    mem_arena_reset(&a);
    assert_int_equal(a.used, 0);
    assert_int_equal(a.peak, peak);
    assert_ptr_equal(mem_arena_alloc(&a, 3, 8), x);
}

static void test_budget_is_a_hard_limit(void **state) {
    (void)state;
    MemBudget b;
    SkyError err = {0};
    assert_true(mem_budget_init(&b, 1u << 20, &err));
    assert_non_null(mem_carve(&b, 512u << 10, 64));
    assert_null(mem_carve(&b, 600u << 10, 64));
    assert_int_equal(b.carve_failures, 1);
    MemPool p;
    log_set_level(LOG_QUIET);
    assert_false(mem_pool_init(&p, &b, "too-big", 4096, 1000));
    log_set_level(LOG_INFO);
    assert_non_null(mem_carve(&b, 256u << 10, 64));
    assert_true(b.used <= b.size);
    mem_budget_release(&b);
}

static void test_budget_size_from_env(void **state) {
    (void)state;
    unsetenv("SKYISLES_MEM_MB");
    assert_int_equal(mem_budget_mib_from_env(0), MEM_DEFAULT_BUDGET_MIB);
    assert_int_equal(mem_budget_mib_from_env(64), 64);
    setenv("SKYISLES_MEM_MB", "300", 1);
    assert_int_equal(mem_budget_mib_from_env(0), 300);
    log_set_level(LOG_QUIET);
    setenv("SKYISLES_MEM_MB", "lots", 1);
    assert_int_equal(mem_budget_mib_from_env(0), MEM_DEFAULT_BUDGET_MIB);
    setenv("SKYISLES_MEM_MB", "1", 1);
    assert_int_equal(mem_budget_mib_from_env(0), MEM_DEFAULT_BUDGET_MIB);
    log_set_level(LOG_INFO);
    unsetenv("SKYISLES_MEM_MB");
}

static void test_pool_and_arena_paths_do_not_touch_the_heap(void **state) {
    (void)state;
    MemPool p;
    MemArena a;
    assert_true(mem_pool_init(&p, &g_budget, "noheap", 256, 64));
    assert_true(mem_arena_init(&a, &g_budget, 64u << 10));
    alloc_count_start();
    for (int r = 0; r < 1000; r++) {
        void *b[64];
        for (int i = 0; i < 64; i++) b[i] = mem_pool_alloc(&p);
        for (int i = 0; i < 64; i++) mem_pool_free(&p, b[i]);
        for (int i = 0; i < 100; i++) (void)mem_arena_alloc(&a, 100, 16);
        mem_arena_reset(&a);
    }
    assert_int_equal(alloc_count_stop(), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pool_blocks_never_overlap),
        cmocka_unit_test(test_pool_exhaustion_fails_and_recovers),
        cmocka_unit_test(test_pool_rejects_foreign_and_double_free),
        cmocka_unit_test(test_pool_thread_safe),
        cmocka_unit_test(test_arena_alignment_and_limits),
        cmocka_unit_test(test_budget_is_a_hard_limit),
        cmocka_unit_test(test_budget_size_from_env),
        cmocka_unit_test(test_pool_and_arena_paths_do_not_touch_the_heap),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
