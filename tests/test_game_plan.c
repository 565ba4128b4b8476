/* Tests for the boot plan (src/game/boot_plan.c): the view radius and the renderer's slots decided
 * from the budget before anything is created, from bounds (world_create_bytes) that hold what
 * world_create really carves. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "game/boot_plan.h"
#include "game/game.h"

#define MIB ((size_t)1 << 20)

static void ask(BootPlan *p, int view_radius) {
    static GameSettings s;
    settings_default(&s);
    s.world.live.view_radius = view_radius;
    boot_plan_ask(&s, 0, p);
}

static void test_ask_sizes_tables_for_the_panel(void **state) {
    (void)state;
    BootPlan p;
    ask(&p, 8);
    assert_int_equal(p.asked_radius, GAME_VIEW_RADIUS_MAX);
    assert_int_equal(p.world.create.view_radius_max, GAME_VIEW_RADIUS_MAX);
    assert_int_equal(p.world.create.mesh_pool_mib, GAME_MESH_POOL_MIB);
    uint32_t side = 2 * GAME_VIEW_RADIUS_MAX + 3;
    assert_int_equal(p.render.create.max_chunks, side * side);
    ask(&p, 40);
    assert_int_equal(p.asked_radius, 40);
    assert_int_equal(p.render.create.max_chunks, 83u * 83u);
}

/* The world as planned, in a budget of `mib` MiB: what it leaves must hold the renderer planned
 * and the reserve. */
static void world_leaves_room(const BootPlan *p, size_t mib) {
    MemBudget mem;
    SkyError err = {0};
    assert_true(mem_budget_init(&mem, mib * MIB, &err));
    World *w = world_create(&mem, NULL, &p->world, NULL, &err);
    assert_non_null(w);
    assert_int_equal(world_params(w)->create.view_radius_max, p->world.create.view_radius_max);
    assert_true(mem_budget_free(&mem) >= render_create_bytes(&p->render.create) + (size_t)GAME_BOOT_RESERVE_MIB * MIB);
    world_destroy(w);
    mem_budget_release(&mem);
}

/* A budget that holds everything changes nothing; a smaller one lowers the radius (never the
 * other way) to the largest that fits: the world made as planned leaves the renderer its room,
 * and one chunk more would not have fitted. */
static void test_fit_lowers_the_radius_with_the_budget(void **state) {
    (void)state;
    BootPlan p;
    SkyError err = {0};
    ask(&p, 40);
    assert_true(boot_plan_fit(&p, 1024 * MIB, 1000 * MIB, 0, &err));
    assert_int_equal(p.world.create.view_radius_max, 40);
    int32_t last = 40;
    int held = 0;
    for (size_t mib = 160; mib >= 16; mib -= 8) {
        ask(&p, 40);
        memset(&err, 0, sizeof err);
        if (!boot_plan_fit(&p, mib * MIB, mib * MIB, 0, &err)) {
            assert_non_null(strstr(err.msg, "the renderer did not fit"));
            assert_non_null(strstr(err.msg, "--mem MB"));
            printf("  %zu MiB: not even the smallest view\n", mib);
            break;
        }
        int32_t r = p.world.create.view_radius_max;
        printf("  %zu MiB: view radius %d\n", mib, r);
        assert_true(r <= last && r >= WORLD_VIEW_RADIUS_MIN);
        assert_int_equal(p.render.create.max_chunks, render_chunks_for_radius(r));
        world_leaves_room(&p, mib);
        if (r < 40) {
            held++;
            BootPlan more;
            ask(&more, r + 1);
            more.asked_radius = r + 1;   /* below the panel's floor too */
            more.world.create.view_radius_max = r + 1;
            assert_true(boot_plan_fit(&more, mib * MIB, mib * MIB, 0, &err));
            assert_int_equal(more.world.create.view_radius_max, r);
        }
        last = r;
    }
    assert_true(held > 0);
    assert_true(last < 40);
}

/* world_create_bytes bounds what world_create carves (so a plan that fits, fits), closely. */
static void test_world_bytes_bound_the_world(void **state) {
    (void)state;
    static const int radii[] = {2, 10, 16, 40};
    for (size_t i = 0; i < sizeof radii / sizeof radii[0]; i++) {
        WorldParams wp;
        world_params_default(&wp);
        wp.create.view_radius_max = radii[i];
        wp.create.mesh_pool_mib = 4;
        MemBudget mem;
        SkyError err = {0};
        assert_true(mem_budget_init(&mem, 256 * MIB, &err));
        World *w = world_create(&mem, NULL, &wp, NULL, &err);
        assert_non_null(w);
        WorldStats st = world_stats(w);
        size_t bound = world_create_bytes(&wp, 0, st.slabs_capacity);
        printf("  radius %d: world carved %zu bytes, bound %zu\n", radii[i], st.bytes_carved, bound);
        assert_true(st.bytes_carved <= bound);
        assert_true(bound - st.bytes_carved < 4096);
        world_destroy(w);
        mem_budget_release(&mem);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ask_sizes_tables_for_the_panel),
        cmocka_unit_test(test_fit_lowers_the_radius_with_the_budget),
        cmocka_unit_test(test_world_bytes_bound_the_world),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
