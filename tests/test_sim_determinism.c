/* Tests for the sim's deterministic maths (src/core/detmath.c through src/sim/simmath.h): the
 * functions agree with libm to about 1e-15 where libm is exact enough to compare, and a long
 * flight driven by a fixed input sequence ends in a state hash recorded on x86_64, so the same
 * program under qemu-aarch64 proves the flight model gives the same bits there. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>

#include "core/core.h"
#include "sim/sim.h"

/* Recorded on x86_64 (gcc, glibc); the aarch64 run must give the same. */
#define FLIGHT_HASH_X86 0xcba2ba6e0d5f14d6ull
#define FLIGHT_STEPS 36000   /* ten minutes at 60 Hz */

static void test_functions_match_libm(void **state) {
    (void)state;
    double worst_sin = 0.0, worst_atan2 = 0.0, worst_asin = 0.0, worst_exp = 0.0;
    for (int i = -20000; i <= 20000; i++) {
        double a = (double)i * 0.0031;
        double s, c;
        det_sincos(a, &s, &c);
        worst_sin = fmax(worst_sin, fmax(fabs(s - sin(a)), fabs(c - cos(a))));
        double y = sin(a * 1.7) * (1.0 + (double)(i & 7)), x = cos(a * 0.9) * (double)((i % 5) - 2);
        worst_atan2 = fmax(worst_atan2, fabs(det_atan2(y, x) - atan2(y, x)));
        double u = (double)i / 20000.0;
        worst_asin = fmax(worst_asin, fabs(det_asin(u) - asin(u)));
        double e = (double)i * 0.002;
        worst_exp = fmax(worst_exp, fabs(det_exp(e) - exp(e)) / exp(e));
    }
    printf("  worst error: sin/cos %.2g, atan2 %.2g, asin %.2g, exp (relative) %.2g\n", worst_sin, worst_atan2,
           worst_asin, worst_exp);
    assert_true(worst_sin < 1e-14);
    assert_true(worst_atan2 < 1e-14);
    assert_true(worst_asin < 1e-14);
    assert_true(worst_exp < 1e-14);
    /* The edges a flight can meet. */
    assert_true(det_atan2(0.0, -1.0) > 3.14159 && det_atan2(-0.0, -1.0) < -3.14159);
    assert_true(det_atan2(0.0, 0.0) == 0.0);
    assert_true(fabs(det_atan2(1.0, 0.0) - 1.5707963267948966) < 1e-15);
    assert_true(isnan(det_asin(1.5)) && isnan(det_sin(NAN)) && isnan(det_atan2(NAN, 1.0)));
    assert_true(det_exp(-800.0) == 0.0 && isinf(det_exp(800.0)));
}

/* Ten minutes of stick, rudder, throttle and boost from a seeded stream, changed every half second. */
static uint64_t fly_recorded_inputs(void) {
    FlightModel m;
    flight_model_default(&m);
    FlightState f;
    flight_init(&f, 12.5, 140.0, -30.25, 0.3f, 40.0f);
    f.throttle = flight_throttle_for(&m, 40.0f);
    Rng r;
    rng_seed(&r, 19, 1);
    FlightInput in = {0};
    for (int i = 0; i < FLIGHT_STEPS; i++) {
        if (i % 30 == 0) {
            in.pitch = rng_float01(&r) * 2.0f - 1.0f;
            in.roll = rng_float01(&r) * 2.0f - 1.0f;
            in.yaw = rng_float01(&r) * 2.0f - 1.0f;
            in.throttle = (float)rng_range(&r, -1, 1);
            in.boost = rng_below(&r, 8) == 0;
        }
        flight_step(&f, &in, &m, 1.0f / 60.0f);
    }
    printf("  after %d steps: %.3f %.3f %.3f, %.1f m/s; state hash 0x%016llx\n", FLIGHT_STEPS, f.x, f.y, f.z,
           (double)f.speed, (unsigned long long)flight_state_hash(&f, 0));
    return flight_state_hash(&f, 0);
}

static void test_recorded_flight_same_bits(void **state) {
    (void)state;
    uint64_t h = fly_recorded_inputs();
    assert_true(h == fly_recorded_inputs());   /* and again in the same process */
    printf("  architecture %s\n", SKYISLES_ARCH);
    assert_true(h == FLIGHT_HASH_X86);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_functions_match_libm),
        cmocka_unit_test(test_recorded_flight_same_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
