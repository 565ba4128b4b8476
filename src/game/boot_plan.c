/* skyisles boot plan: the budget shared between the world and the renderer before either exists
 * (world_create_bytes, render_create_bytes), so neither is made twice nor held down after. */
#include "boot_plan.h"

#include "game.h"   /* GAME_VIEW_RADIUS_MAX, GAME_MESH_POOL_MIB */

void boot_plan_ask(const GameSettings *s, int mesh_pool_mib, BootPlan *out) {
    out->world = s->world;
    out->render = s->render;
    out->islands_bytes = 0;
    out->island_slots = 0;
    int32_t r = s->world.live.view_radius;
    out->asked_radius = world_clamp_view_radius(r > GAME_VIEW_RADIUS_MAX ? r : GAME_VIEW_RADIUS_MAX);
    out->world.create.view_radius_max = out->asked_radius;
    out->world.create.mesh_pool_mib = mesh_pool_mib > 0 ? (uint32_t)mesh_pool_mib : GAME_MESH_POOL_MIB;
    out->render.create.max_chunks = render_chunks_for_radius(out->asked_radius);
}

/* The world, the renderer and the reserve at radius r. The world's mesh pool is what it will
 * carve: the pool asked, squeezed as world_create squeezes it (world_pool_fit) beside its tables,
 * at least 64 slabs. */
static size_t need_at(BootPlan *p, int32_t r, size_t free_bytes, uint32_t workers) {
    const size_t slab = sizeof(WorldVertex) * WORLD_SLAB_VERTS;
    p->world.create.view_radius_max = r;
    p->render.create.max_chunks = render_chunks_for_radius(r);
    size_t tables = world_create_bytes(&p->world, workers, 64) - 64 * slab;
    uint64_t asked = ((uint64_t)p->world.create.mesh_pool_mib << 20) / slab;
    uint32_t slabs = (uint32_t)world_pool_fit(asked, free_bytes > tables ? free_bytes - tables : 0);
    return world_create_bytes(&p->world, workers, slabs) + p->islands_bytes + render_create_bytes(&p->render.create) +
           ((size_t)GAME_BOOT_RESERVE_MIB << 20);
}

bool boot_plan_fit(BootPlan *p, size_t budget_bytes, size_t free_bytes, uint32_t workers, SkyError *err) {
    int32_t r = p->asked_radius;
    while (need_at(p, r, free_bytes, workers) > free_bytes) {
        if (r <= WORLD_VIEW_RADIUS_MIN) {
            sky_error_set(err, SKY_ERR_INPUT,
                          "skyisles: the memory budget of %zu MiB is too small (the renderer did not fit): raise --mem MB "
                          "or SKYISLES_MEM_MB (default %u) or lower --view-radius",
                          budget_bytes >> 20, MEM_DEFAULT_BUDGET_MIB);
            return false;
        }
        r--;
    }
    return true;
}
