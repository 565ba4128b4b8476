/* skyisles game loop: boot in order (memory budget -> pack + home island -> jobs -> world ->
 * platform -> renderer -> spawn), per frame sim -> world streaming -> uploads -> draw, the run. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "game.h"

#define CRUISE_SPEED 28.0f

static float display_aspect(const Game *g) {
    if (g->disp_w > 0 && g->disp_h > 0) return (float)g->disp_w / (float)g->disp_h;
    if (g->opt.width > 0 && g->opt.height > 0) return (float)g->opt.width / (float)g->opt.height;
    return 4.0f / 3.0f;
}

static float fov_y(const Game *g) {
    if (g->render) return render_settings(g->render)->fov_y_deg * SIM_DEG;
    return g->opt.render.fov_y_deg * SIM_DEG;
}

static void place_start(Game *g) {
    const GameOptions *o = &g->opt;
    /* Chosen (and logged) under a fixed camera too: it is where W9's respawn will return. */
    sim_spawn_choose(g->world, CRUISE_SPEED, fov_y(g), display_aspect(g), o->time_s, &g->spawn);
    if (o->camera_set) {
        g->camera_fixed = true;
        g->camera.x = o->cam[0];
        g->camera.y = o->cam[1];
        g->camera.z = o->cam[2];
        g->camera.yaw = (float)o->cam[3] * SIM_DEG;
        g->camera.pitch = (float)o->cam[4] * SIM_DEG;
        g->camera.roll = 0.0f;
        flight_init(&g->flight, 0, 0, 0, 0, CRUISE_SPEED);
        flight_in_front_of(&g->camera, &g->flight);
        g->flight.cruise_y = g->flight.y;
    } else {
        g->flight = g->spawn.flight;
        g->camera = g->spawn.camera;
    }
    g->flight.time_s = o->time_s;
    const SimSpawn *sp = &g->spawn;
    log_msg(sp->home_in_view ? LOG_INFO : LOG_WARN,
        "skyisles: spawn %.1f, %.1f, %.1f heading %.0f deg, %.0f m of air below; home island on %u of %u view rays%s",
        sp->flight.x, sp->flight.y, sp->flight.z, sp->flight.yaw / SIM_DEG, sp->clearance, sp->view.home, sp->view.rays,
        sp->home_in_view ? "" : " (not in view: the nearest altitude that came closest)");
}

/* A stage failed: when the budget ran out, the line says so and names the flag. */
static void budget_short(const Game *g, const char *stage, SkyError *err) {
    if (g->mem.carve_failures == 0) return;
    sky_error_set(err, SKY_ERR_INPUT,
                  "skyisles: the memory budget of %zu MiB is too small (%s did not fit): raise --mem MB or SKYISLES_MEM_MB "
                  "(default %u) or lower --view-radius",
                  g->mem.size >> 20, stage, MEM_DEFAULT_BUDGET_MIB);
}

/* The world's parameters for the game. The mesh pool is GAME_MESH_POOL_MIB unless --mesh-pool
 * says otherwise; the world's own sizing keeps every wanted chunk's CPU mesh (headless users),
 * more than a renderer that releases each mesh after upload needs. */
static void world_setup(const GameOptions *o, const IslandField *home, WorldParams *wp) {
    world_params_default(wp);
    wp->seed = o->seed;
    wp->home = home;
    if (o->view_radius > 0) wp->view_radius = o->view_radius;
    wp->mesh_pool_mib = o->mesh_pool_mib > 0 ? (uint32_t)o->mesh_pool_mib : GAME_MESH_POOL_MIB;
}

bool game_boot(Game *g, const GameOptions *o, SkyError *err) {
    memset(g, 0, sizeof *g);
    g->opt = *o;
    size_t mib = mem_budget_mib_from_env((size_t)o->mem_mib);
    if (!mem_budget_init(&g->mem, mib << 20, err)) return false;

    /* Everything that can reject the input (pack, island, memory budget) comes before any
     * window: it fails fast and the same way with or without a display. */
    size_t used = g->mem.used;
    if (!game_home_boot(&g->home, &g->mem, o->pak, o->seed, err)) return false;
    g->carved.home = g->mem.used - used;

    if (!o->print_island) {
        JobsConfig jc;
        memset(&jc, 0, sizeof jc);
        used = g->mem.used;
        g->jobs = jobs_create(&g->mem, &jc, err);
        if (!g->jobs) {
            budget_short(g, "the job system", err);
            return false;
        }
        g->carved.jobs = g->mem.used - used;
    }

    WorldParams wp;
    world_setup(o, &g->home.field, &wp);
    /* A budget too small for the game's pool (and no --mesh-pool): the world sizes a squeezed
     * pool itself and says so below. */
    if (o->mesh_pool_mib == 0 &&
        ((size_t)(wp.mesh_pool_mib + GAME_WORLD_KEEP_MIB) << 20) > mem_budget_free(&g->mem))
        wp.mesh_pool_mib = 0;
    if (((size_t)wp.mesh_pool_mib << 20) >= mem_budget_free(&g->mem)) {
        sky_error_set(err, SKY_ERR_INPUT,
                      "skyisles: the memory budget of %zu MiB is too small for --mesh-pool %u: raise --mem MB or "
                      "SKYISLES_MEM_MB (default %u) or lower --mesh-pool",
                      g->mem.size >> 20, wp.mesh_pool_mib, MEM_DEFAULT_BUDGET_MIB);
        return false;
    }
    used = g->mem.used;
    g->world = world_create(&g->mem, g->jobs, &wp, err);
    if (!g->world) {
        budget_short(g, "the world", err);
        return false;
    }
    g->carved.world = g->mem.used - used;
    WorldStats ws = world_stats(g->world);
    g->carved.world_mesh_pool = (size_t)ws.slabs_capacity * sizeof(WorldVertex) * WORLD_SLAB_VERTS;
    int r = world_params(g->world)->view_radius;
    /* The world caps its own pool so that GAME_WORLD_KEEP_MIB stay free (docs/world.md): a
     * capped pool leaves less than one slab above that, a pool at its floor of 64 slabs less
     * than that; an uncapped one leaves what the budget has beyond its need. */
    bool squeezed = wp.mesh_pool_mib == 0 && mem_budget_free(&g->mem) < ((size_t)GAME_WORLD_KEEP_MIB << 20) + (256u << 10);

    if (!o->print_island) {
        char pad_db[1024];
        if (!game_data_file("controllers/gamecontrollerdb.txt", pad_db, sizeof pad_db))
            log_warn("skyisles: the controller database (controllers/gamecontrollerdb.txt) was not found beside the "
                     "game or in SKYISLES_DATA_DIR: only controllers SDL knows itself will work");
        PlatformConfig pc = {.title = "skyisles", .width = o->width, .height = o->height, .headless = o->headless,
                             .fullscreen = o->fullscreen, .vsync = o->vsync, .pad_db = pad_db[0] ? pad_db : NULL};
        g->platform = platform_create(&pc, err);
        if (!g->platform) return false;
        platform_drawable_size(g->platform, &g->disp_w, &g->disp_h);

        RenderSettings rs = o->render;
        rs.max_chunks = (uint32_t)((2 * r + 3) * (2 * r + 3));
        used = g->mem.used;
        g->render = render_create(&g->mem, &rs, err);
        if (!g->render) {
            budget_short(g, "the renderer", err);
            return false;
        }
        g->carved.render = g->mem.used - used;
    }

    if (squeezed)
        log_warn("skyisles: the %zu MiB budget squeezed the chunk-mesh pool to %.1f MiB: the view may reach less far "
                 "(raise --mem MB or SKYISLES_MEM_MB)",
                 g->mem.size >> 20, (double)g->carved.world_mesh_pool / 1048576.0);
    /* Logged once every stage stands, so a failed boot prints its one error line only. */
    game_home_log(&g->home);
    place_start(g);
    const double M = 1.0 / 1048576.0;
    log_info("skyisles: seed %llu, view radius %d chunks, %u workers; budget %.1f MiB: home island %.2f, jobs %.2f, "
             "world %.1f (mesh pool %.1f), renderer %.2f, free %.1f",
             (unsigned long long)world_params(g->world)->seed, r, g->jobs ? jobs_worker_count(g->jobs) : 0,
             (double)g->mem.size * M, (double)g->carved.home * M, (double)g->carved.jobs * M,
             (double)g->carved.world * M, (double)g->carved.world_mesh_pool * M, (double)g->carved.render * M,
             (double)mem_budget_free(&g->mem) * M);
    return true;
}

void game_shutdown(Game *g) {
    if (g->render) render_destroy(g->render);
    if (g->world) world_destroy(g->world);
    if (g->jobs) jobs_destroy(g->jobs);
    if (g->platform) platform_destroy(g->platform);
    mem_budget_release(&g->mem);
    memset(g, 0, sizeof *g);
}

static WorldView world_view(const Game *g) {
    WorldView v;
    sim_world_view(&g->flight, &g->camera, fov_y(g), display_aspect(g), &v);
    return v;
}

void game_update(Game *g, float dt) {
    if (g->camera_fixed) {
        flight_idle(&g->flight, dt);
    } else {
        flight_autopilot_step(&g->flight, dt, g->world);
        camera_chase(&g->flight, &g->camera);
    }
    WorldView wv = world_view(g);
    world_update(g->world, &wv);
    render_sync_world(g->render, g->world);
}

void game_draw(Game *g) {
    RenderView v;
    memset(&v, 0, sizeof v);
    v.cam_x = g->camera.x;
    v.cam_y = g->camera.y;
    v.cam_z = g->camera.z;
    v.yaw = g->camera.yaw;
    v.pitch = g->camera.pitch;
    v.roll = g->camera.roll;
    v.time_s = g->flight.time_s;
    v.aircraft_visible = !g->opt.no_aircraft;
    v.air_x = g->flight.x;
    v.air_y = g->flight.y;
    v.air_z = g->flight.z;
    v.air_yaw = g->flight.yaw;
    v.air_pitch = g->flight.pitch;
    v.air_roll = g->flight.roll;
    v.prop_angle = g->flight.prop_angle;
    render_frame(g->render, &v, g->disp_w, g->disp_h);
}

static void sleep_ms(int ms) {
    struct timespec ts = {0, (long)ms * 1000000L};
    nanosleep(&ts, NULL);
}

bool game_wait_world(Game *g, double timeout_s) {
    double end = time_now_ms() + timeout_s * 1000.0;
    int quiet = 0;
    float last_reach = -1.0f;
    while (time_now_ms() < end) {
        if (platform_stop_signal()) return false;
        WorldView wv = world_view(g);
        world_update(g->world, &wv);
        render_sync_world(g->render, g->world);
        WorldStats ws = world_stats(g->world);
        RenderStats rs = render_stats(g->render);
        /* Done when nothing is generating or waiting for upload and the reach has settled: the
         * mesh pool pulls it in while meshes pile up, then lets it grow back step by step. */
        if (ws.in_flight == 0 && rs.pending_uploads == 0 && ws.reach == last_reach) {
            if (++quiet >= 3) return true;
        } else {
            quiet = 0;
        }
        last_reach = ws.reach;
        sleep_ms(2);
    }
    log_warn("skyisles: the world was still generating after %.0f s; capturing anyway", timeout_s);
    return false;
}

/* Keys 1-7 switch the PSX effects; Esc quits. The controls issue adds flying here. */
static bool handle_keys(Game *g, const PlatformEvents *ev) {
    RenderSettings s = *render_settings(g->render);
    bool changed = false;
    for (uint32_t i = 0; i < ev->key_count; i++) {
        switch (ev->keys[i]) {
        case PKEY_ESCAPE: return false;
        case PKEY_1: s.lines = s.lines == 0 ? RENDER_LINES_DEFAULT : (s.lines >= RENDER_LINES_MAX ? 0 : s.lines * 2); changed = true; break;
        case PKEY_2: s.snap = !s.snap; changed = true; break;
        case PKEY_3: s.color15 = !s.color15; changed = true; break;
        case PKEY_4: s.dither = !s.dither; changed = true; break;
        case PKEY_5: s.fog = !s.fog; changed = true; break;
        case PKEY_6: s.sky_clouds = !s.sky_clouds; changed = true; break;
        case PKEY_7: s.draw_clouds = !s.draw_clouds; changed = true; break;
        default: break;
        }
    }
    if (changed) {
        render_apply_settings(g->render, &s);
        log_info("render: lines %d, snap %d, 15-bit %d, dither %d, fog %d, sky clouds %d, clouds %d", s.lines,
                 s.snap, s.color15, s.dither, s.fog, s.sky_clouds, s.draw_clouds);
    }
    return true;
}

int game_run(Game *g) {
    double last = time_now_ms(), last_log = last;
    uint32_t frames = 0;
    for (;;) {
        PlatformEvents ev;
        platform_poll(g->platform, &ev);
        if (ev.quit || !handle_keys(g, &ev)) break;
        if (ev.resized) platform_drawable_size(g->platform, &g->disp_w, &g->disp_h);
        double now = time_now_ms();
        float dt = (float)((now - last) / 1000.0);
        if (dt > 0.1f) dt = 0.1f;
        last = now;
        game_update(g, dt);
        game_draw(g);
        platform_swap(g->platform);
        frames++;
        if (now - last_log > 5000.0) {
            RenderStats rs = render_stats(g->render);
            log_info("skyisles: %.1f fps, %u draw calls, %u triangles, %u chunks resident, %.1f MiB GPU",
                     frames * 1000.0 / (now - last_log), rs.draw_calls, rs.triangles, rs.chunks_resident,
                     (double)rs.gpu_bytes / 1048576.0);
            frames = 0;
            last_log = now;
        }
    }
    return 0;
}
