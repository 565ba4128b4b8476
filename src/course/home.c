/* skyisles course: the home island and world that tests and tools lay courses in, made as the
 * game makes them (the built-in pack, its "island" scope, a 256-cell field at the origin). */
#include <string.h>

#include "course/course.h"

#define HOME_FIELD 256u
#define HOME_SCOPE "island"

bool course_home_seed(CourseHome *h, uint64_t seed, SkyError *err) {
    mem_arena_reset(&h->island_arena);
    IslandParams ip = {.seed = seed, .scope = (uint32_t)h->scope, .site_count = 0};
    if (!island_generate(&h->island, &h->codex, &ip, &h->island_arena, err)) return false;
    if (!island_bake_field(&h->field, &h->island, &h->codex, HOME_FIELD, 0.0f, 0.0f, &h->island_arena, err))
        return false;
    h->params.gen.seed = seed;
    world_set_params(h->world, &h->params);
    world_set_home(h->world, &h->field);
    course_island_home(h->world, &h->island, &h->at);
    return true;
}

bool course_home_open(CourseHome *h, uint64_t seed, SkyError *err) {
    memset(h, 0, sizeof *h);
    size_t len = 0;
    const void *pak = island_pak_default(&len);
    if (!pak || !island_pak_load(&h->codex, pak, len, err)) {
        if (!sky_error_is_set(err)) sky_error_set(err, SKY_ERR_INPUT, "course: this build has no built-in pack");
        return false;
    }
    h->scope = island_codex_find_scope(&h->codex, HOME_SCOPE);
    if (h->scope < 0) {
        sky_error_set(err, SKY_ERR_INPUT, "course: the built-in pack has no '%s' scope", HOME_SCOPE);
        return false;
    }
    size_t work = island_work_bytes(), field = island_field_bytes(&h->codex, (uint32_t)h->scope, HOME_FIELD);
    size_t island_bytes = work > field ? work : field;
    size_t course_bytes = course_work_bytes();
    if (!mem_budget_init(&h->mem, island_bytes + course_bytes + ((size_t)48 << 20), err)) return false;
    if (!mem_arena_init(&h->island_arena, &h->mem, island_bytes) || !mem_arena_init(&h->work_arena, &h->mem, course_bytes) ||
        !(h->work = course_work_init(&h->work_arena))) {
        sky_error_set(err, SKY_ERR_INPUT, "course: the home's memory budget is short");
        return false;
    }
    world_params_default(&h->params);
    h->params.gen.seed = seed;
    h->params.live.view_radius = 4;
    h->params.create.mesh_pool_mib = 4;
    h->params.create.workers = 1;
    IslandParams ip = {.seed = seed, .scope = (uint32_t)h->scope, .site_count = 0};
    if (!island_generate(&h->island, &h->codex, &ip, &h->island_arena, err)) return false;
    if (!island_bake_field(&h->field, &h->island, &h->codex, HOME_FIELD, 0.0f, 0.0f, &h->island_arena, err)) return false;
    h->world = world_create(&h->mem, NULL, &h->params, &h->field, err);
    if (h->world) course_island_home(h->world, &h->island, &h->at);
    return h->world != NULL;
}

void course_home_close(CourseHome *h) {
    if (h->world) world_destroy(h->world);
    h->world = NULL;
    mem_budget_release(&h->mem);
}
