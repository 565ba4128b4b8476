/* Tests for island guarantees (I7): the assignment against brute force on small cases, the
 * declaration-order priority, and the seed's peak/crater case. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "island/island.h"

#define BIG 1000

typedef struct Case {
    uint32_t slots, sites;
    uint8_t adm[4 * 7];
    uint16_t order[4 * 7];
} Case;

static uint32_t rank_of(const Case *c, uint32_t slot, uint32_t site) {
    for (uint32_t k = 0; k < c->sites; k++)
        if (c->order[slot * c->sites + k] == site) return k;
    return BIG;
}

/* Key of an assignment: admissible count first (more is better), then per slot in declaration
 * order the rank of its site when admissible (lower is better), BIG when not. */
typedef struct Best { uint32_t count; uint32_t key[4]; bool set; } Best;

static void brute(const Case *c, uint32_t slot, uint16_t *pick, uint8_t *used, Best *best) {
    if (slot == c->slots) {
        uint32_t count = 0, key[4];
        for (uint32_t s = 0; s < c->slots; s++) {
            bool a = c->adm[s * c->sites + pick[s]];
            count += a;
            key[s] = a ? rank_of(c, s, pick[s]) : BIG;
        }
        bool better = !best->set || count > best->count;
        if (!better && count == best->count)
            for (uint32_t s = 0; s < c->slots; s++)
                if (key[s] != best->key[s]) {
                    better = key[s] < best->key[s];
                    break;
                }
        if (better) {
            best->set = true;
            best->count = count;
            memcpy(best->key, key, sizeof key);
        }
        return;
    }
    for (uint32_t site = 0; site < c->sites; site++) {
        if (used[site]) continue;
        used[site] = 1;
        pick[slot] = (uint16_t)site;
        brute(c, slot + 1, pick, used, best);
        used[site] = 0;
    }
}

static void test_guarantees_match_brute_force(void **state) {
    (void)state;
    Rng r;
    rng_seed(&r, 77, 3);
    uint32_t cases_with_fallback = 0;
    for (int it = 0; it < 20000; it++) {
        Case c = {.slots = 1 + rng_below(&r, 4)};
        c.sites = c.slots + rng_below(&r, 8 - c.slots);
        uint32_t density = 10 + rng_below(&r, 60);   /* percent admissible */
        for (uint32_t s = 0; s < c.slots; s++) {
            for (uint32_t i = 0; i < c.sites; i++) {
                c.adm[s * c.sites + i] = rng_below(&r, 100) < density;
                c.order[s * c.sites + i] = (uint16_t)i;
            }
            for (uint32_t i = c.sites; i > 1; i--) {
                uint32_t j = rng_below(&r, i);
                uint16_t x = c.order[s * c.sites + i - 1];
                c.order[s * c.sites + i - 1] = c.order[s * c.sites + j];
                c.order[s * c.sites + j] = x;
            }
        }
        uint16_t site_of[4], pick[4];
        uint8_t fell[4], used[8] = {0};
        assert_true(island_assign_guarantees(c.slots, c.sites, c.adm, c.order, site_of, fell));
        Best best = {0};
        brute(&c, 0, pick, used, &best);
        uint32_t count = 0;
        for (uint32_t s = 0; s < c.slots; s++) {
            assert_true(site_of[s] < c.sites);
            for (uint32_t t = 0; t < s; t++) assert_int_not_equal(site_of[s], site_of[t]);   /* distinct */
            assert_int_equal(fell[s], !c.adm[s * c.sites + site_of[s]]);
            count += !fell[s];
            /* Priority: exactly the brute-force best key, slot by slot. */
            assert_int_equal(fell[s] ? BIG : rank_of(&c, s, site_of[s]), best.key[s]);
        }
        assert_int_equal(count, best.count);   /* admissible whenever any assignment allows it */
        cases_with_fallback += count < c.slots;
    }
    print_message("20000 random cases agree with brute force (%u needed an inadmissible site)\n", cases_with_fallback);
    assert_true(cases_with_fallback > 0);
}

/* Seed 003's case: the peak (declared first) may stand on either high site, the crater only on
 * the highest. Taking the highest for the peak would push the crater down the slope. */
static void test_peak_does_not_strand_crater(void **state) {
    (void)state;
    const uint32_t n = 3;
    const uint8_t adm[] = {1, 1, 0, /* peak: elevation >= 85 */ 1, 0, 0 /* crater: only the top */};
    const uint16_t order[] = {0, 1, 2, 0, 1, 2};   /* both pick: max elevation */
    uint16_t site_of[2];
    uint8_t fell[2];
    assert_true(island_assign_guarantees(2, n, adm, order, site_of, fell));
    assert_int_equal(site_of[0], 1);
    assert_int_equal(site_of[1], 0);
    assert_int_equal(fell[0] + fell[1], 0);
    /* When both could stand anywhere, the earlier declaration takes the pick side. */
    const uint8_t both[] = {1, 1, 1, 1, 1, 1};
    assert_true(island_assign_guarantees(2, n, both, order, site_of, fell));
    assert_int_equal(site_of[0], 0);
    assert_int_equal(site_of[1], 1);
    /* No admissible site left: only that guarantee falls back, to its best free site. */
    const uint8_t none[] = {1, 0, 0, 1, 0, 0};
    assert_true(island_assign_guarantees(2, n, none, order, site_of, fell));
    assert_int_equal(site_of[0], 0);
    assert_int_equal(fell[0], 0);
    assert_int_equal(site_of[1], 1);
    assert_int_equal(fell[1], 1);
    /* Impossible shapes are refused, not guessed. */
    assert_false(island_assign_guarantees(4, n, both, order, site_of, fell));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guarantees_match_brute_force),
        cmocka_unit_test(test_peak_does_not_strand_crater),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
