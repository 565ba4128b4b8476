/* Tests for core RNG and hashing: golden values identical on every platform. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <sys/utsname.h>

#include "core/core.h"

static void test_pcg32_golden(void **state) {
    (void)state;
    Rng r;
    rng_seed(&r, 42, 54);
    uint64_t h = 0;
    for (int i = 0; i < 1000; i++) {
        uint32_t v = rng_u32(&r);
        h = hash_fnv1a64(&v, sizeof v, h);
    }
    struct utsname u;
    uname(&u);
    printf("rng golden on %s (uname -m as seen by this binary): %016llx\n", u.machine, (unsigned long long)h);
    assert_int_equal(h, 0ull);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pcg32_golden),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
