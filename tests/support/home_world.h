/* skyisles tests: a home island and a world around it, made as the game makes them (the built-in
 * pack, its "island" scope generated from a seed, baked into a field, a world on that field). */
#ifndef SKYISLES_TESTS_SUPPORT_HOME_WORLD_H
#define SKYISLES_TESTS_SUPPORT_HOME_WORLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "island/island.h"
#include "world/world.h"

/* The game's bake: a field of this many cells a side, centred on the origin. */
#define HOME_FIELD_CELLS 256u

typedef struct HomeIsland {
    IslandCodex cx;
    Island isl;
    IslandField field;     /* its grids live in mem */
    MemBudget mem;         /* the generator's work, then the field */
} HomeIsland;

/* The built-in pack's home island for seed, baked into h->field. False with err set when the pack,
 * the scope, the budget or a step fails. */
bool home_island_make(HomeIsland *h, uint64_t seed, SkyError *err);
void home_island_release(HomeIsland *h);

/* A world in a budget of its own. The caller fills params (world_params_default, then what its
 * case needs) before test_world_open. */
typedef struct TestWorld {
    MemBudget mem;
    WorldParams params;
    World *world;
} TestWorld;

/* world_create on w->params in a budget of budget_mib MiB, around home (NULL: no home island),
 * building with jobs (NULL: on the caller's thread). False with err set when either fails. */
bool test_world_open(TestWorld *w, size_t budget_mib, JobSystem *jobs, const IslandField *home, SkyError *err);
void test_world_close(TestWorld *w);

#endif
