/* skyisles tests: the home island and world fixture (home_world.h). Linked from an archive, so
 * only the tests that call it pull in the island and world libraries it needs. */
#include "support/home_world.h"

#include <string.h>

bool home_island_make(HomeIsland *h, uint64_t seed, SkyError *err) {
    memset(h, 0, sizeof *h);
    size_t len = 0;
    const void *pak = island_pak_default(&len);
    if (!pak) {
        sky_error_set(err, SKY_ERR_INPUT, "no built-in pack");
        return false;
    }
    if (!island_pak_load(&h->cx, pak, len, err)) return false;
    int scope = island_codex_find_scope(&h->cx, "island");
    if (scope < 0) {
        sky_error_set(err, SKY_ERR_INPUT, "the pack has no \"island\" scope");
        return false;
    }
    size_t work = island_work_bytes(), field = island_field_bytes(&h->cx, (uint32_t)scope, HOME_FIELD_CELLS);
    /* The generator hands its work back before the bake takes the field from the same arena. */
    if (!mem_budget_init(&h->mem, work + field + (1u << 16), err)) return false;
    MemArena arena;
    if (!mem_arena_init(&arena, &h->mem, work > field ? work : field)) {
        sky_error_set(err, SKY_ERR_START, "island arena of %zu bytes", work > field ? work : field);
        return false;
    }
    IslandParams ip = {.seed = seed, .scope = (uint32_t)scope, .site_count = 0};
    return island_generate(&h->isl, &h->cx, &ip, &arena, err) &&
           island_bake_field(&h->field, &h->isl, &h->cx, HOME_FIELD_CELLS, 0.0f, 0.0f, &arena, err);
}

void home_island_release(HomeIsland *h) { mem_budget_release(&h->mem); }

bool test_world_open(TestWorld *w, size_t budget_mib, JobSystem *jobs, const IslandField *home, SkyError *err) {
    w->world = NULL;
    if (!mem_budget_init(&w->mem, budget_mib << 20, err)) return false;
    w->world = world_create(&w->mem, jobs, &w->params, home, err);
    if (w->world) return true;
    mem_budget_release(&w->mem);
    return false;
}

void test_world_close(TestWorld *w) {
    if (w->world) world_destroy(w->world);
    w->world = NULL;
    mem_budget_release(&w->mem);
}
