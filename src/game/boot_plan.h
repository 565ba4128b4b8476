/* skyisles boot plan: the view radius, the world's mesh pool and the renderer's sizes decided
 * once from the memory budget, before the world and the renderer are created. */
#ifndef SKYISLES_GAME_BOOT_PLAN_H
#define SKYISLES_GAME_BOOT_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "render/render.h"
#include "settings.h"
#include "world/world.h"

/* MiB the plan leaves for what boots after the world besides the renderer (the courses, the
 * attract loop's replay, the sound; the screenshot buffer takes what is left, or screenshots are
 * off): test_render_console checks a boot stays inside it. */
#define GAME_BOOT_RESERVE_MIB 8u

typedef struct BootPlan {
    WorldParams world;          /* the settings' values; create: the radius planned, the pool asked */
    RenderSettings render;      /* the settings' values; create: the chunk slots planned */
    int32_t asked_radius;       /* the radius the settings ask the tables for */
    size_t islands_bytes;       /* the archipelago's island slots (world_islands_bytes), 0: none */
    uint32_t island_slots;      /* how many (game.c: WORLD_ISLAND_SLOTS, fewer on a small budget) */
} BootPlan;

/* What a boot asks before the budget has a say: the world's tables sized for the view radius or
 * GAME_VIEW_RADIUS_MAX, whichever is larger (so the panel can widen the view in flight), the
 * mesh pool `mesh_pool_mib` (0: GAME_MESH_POOL_MIB), the renderer's slots for that radius. */
void boot_plan_ask(const GameSettings *s, int mesh_pool_mib, BootPlan *out);
/* Fits the plan to `free_bytes` of budget beside a job system of `workers` workers: the largest
 * view radius whose world (its pool as world_create will squeeze it) and renderer fit beside
 * GAME_BOOT_RESERVE_MIB. False when not even the smallest view fits (err: one line naming the
 * budget and the flag). */
bool boot_plan_fit(BootPlan *p, size_t budget_bytes, size_t free_bytes, uint32_t workers, SkyError *err);

#endif
