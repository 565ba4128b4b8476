/* skyisles game loop: boot in order (memory budget -> platform -> jobs -> world -> renderer),
 * per frame sim -> world streaming -> mesh uploads -> draw, and the interactive run. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "game.h"

#define CRUISE_SPEED 28.0f
#define DEG (3.14159265358979f / 180.0f)

static void place_start(Game *g) {
    const GameOptions *o = &g->opt;
    if (o->camera_set) {
        g->camera_fixed = true;
        g->camera.x = o->cam[0];
        g->camera.y = o->cam[1];
        g->camera.z = o->cam[2];
        g->camera.yaw = (float)o->cam[3] * DEG;
        g->camera.pitch = (float)o->cam[4] * DEG;
        g->camera.roll = 0.0f;
        flight_init(&g->flight, 0, 0, 0, 0, CRUISE_SPEED);
        flight_in_front_of(&g->camera, &g->flight);
        g->flight.cruise_y = g->flight.y;
    } else {
        /* The seed's spawn, flying towards the origin on the autopilot. */
        flight_init(&g->flight, SIM_SPAWN_X, SIM_SPAWN_Y + 55.0, SIM_SPAWN_Z, 0.0f, CRUISE_SPEED);
        flight_autopilot_start(&g->flight, g->world);
        camera_chase(&g->flight, &g->camera);
    }
    g->flight.time_s = o->time_s;
}

bool game_boot(Game *g, const GameOptions *o, SkyError *err) {
    memset(g, 0, sizeof *g);
    g->opt = *o;
    if (!mem_budget_init(&g->mem, mem_budget_mib_from_env(0) << 20, err)) return false;

    PlatformConfig pc = {"skyisles", o->width, o->height, o->headless, o->fullscreen, o->vsync};
    g->platform = platform_create(&pc, err);
    if (!g->platform) return false;
    platform_drawable_size(g->platform, &g->disp_w, &g->disp_h);

    JobsConfig jc;
    memset(&jc, 0, sizeof jc);
    g->jobs = jobs_create(&g->mem, &jc, err);
    if (!g->jobs) return false;

    WorldParams wp;
    world_params_default(&wp);
    if (o->seed_set) wp.seed = o->seed;
    if (o->view_radius > 0) wp.view_radius = o->view_radius;
    g->world = world_create(&g->mem, g->jobs, &wp, err);
    if (!g->world) return false;

    RenderSettings rs = o->render;
    int r = world_params(g->world)->view_radius;
    rs.max_chunks = (uint32_t)((2 * r + 3) * (2 * r + 3));
    g->render = render_create(&g->mem, &rs, err);
    if (!g->render) return false;

    place_start(g);
    log_info("skyisles: seed %llu, view radius %d chunks, %u workers, %.1f of %.1f MiB budget carved",
             (unsigned long long)world_params(g->world)->seed, r, jobs_worker_count(g->jobs),
             (double)g->mem.used / 1048576.0, (double)g->mem.size / 1048576.0);
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
    const RenderSettings *rs = render_settings(g->render);
    WorldView v;
    sim_world_view(&g->flight, &g->camera, rs->fov_y_deg * DEG,
                   g->disp_h > 0 ? (float)g->disp_w / (float)g->disp_h : 1.333f, &v);
    return v;
}

void game_update(Game *g, float dt) {
    if (g->camera_fixed) {
        g->flight.time_s += dt;
        g->flight.prop_angle = fmodf(g->flight.prop_angle + 40.0f * dt, 6.2831853f);
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
    while (time_now_ms() < end) {
        WorldView wv = world_view(g);
        world_update(g->world, &wv);
        render_sync_world(g->render, g->world);
        WorldStats ws = world_stats(g->world);
        RenderStats rs = render_stats(g->render);
        if (ws.in_flight == 0 && rs.pending_uploads == 0) {
            if (++quiet >= 3) return true;
        } else {
            quiet = 0;
        }
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
