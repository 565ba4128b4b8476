/* skyisles game loop: boot in order (memory budget -> pack + home island -> jobs -> the budget's
 * plan -> world -> platform -> renderer -> spawn), per frame input -> play -> world streaming ->
 * uploads -> draw, settings applied where each belongs, the interactive run. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "boot_plan.h"
#include "game.h"
#include "power.h"

#define CRUISE_SPEED 28.0f

static float display_aspect(const GameServices *svc, const GameOptions *o) {
    if (svc->disp_w > 0 && svc->disp_h > 0) return (float)svc->disp_w / (float)svc->disp_h;
    if (o->width > 0 && o->height > 0) return (float)o->width / (float)o->height;
    return 4.0f / 3.0f;
}

static float fov_y(const GameSettings *s) { return s->render.live.fov_y_deg * SIM_DEG; }

static void place_start(const GameConfig *cfg, GameServices *svc, GameSession *ses) {
    const GameOptions *o = &cfg->opt;
    /* Chosen (and logged) under a fixed camera too: it is where a restart with no safe place
     * returns (W9). */
    sim_spawn_choose(svc->world, CRUISE_SPEED, fov_y(&cfg->set), display_aspect(svc, o), o->time_s, &svc->spawn);
    if (o->camera_set) {
        ses->camera_fixed = true;
        ses->camera.x = o->cam[0];
        ses->camera.y = o->cam[1];
        ses->camera.z = o->cam[2];
        ses->camera.yaw = (float)o->cam[3] * SIM_DEG;
        ses->camera.pitch = (float)o->cam[4] * SIM_DEG;
        ses->camera.roll = 0.0f;
        flight_init(&ses->flight, 0, 0, 0, 0, CRUISE_SPEED);
        flight_in_front_of(&ses->camera, &ses->flight);
        ses->flight.cruise_y = ses->flight.y;
    } else {
        ses->flight = svc->spawn.flight;
        ses->camera = svc->spawn.camera;
    }
    ses->flight.throttle = flight_throttle_for(&ses->model, ses->flight.speed);
    ses->flight.time_s = o->time_s;
    const SimSpawn *sp = &svc->spawn;
    log_msg(sp->home_in_view ? LOG_INFO : LOG_WARN,
        "skyisles: spawn %.1f, %.1f, %.1f heading %.0f deg, %.0f m of air below; home island on %u of %u view rays%s",
        sp->flight.x, sp->flight.y, sp->flight.z, sp->flight.yaw / SIM_DEG, sp->clearance, sp->view.home, sp->view.rays,
        sp->home_in_view ? "" : " (not in view: the nearest altitude that came closest)");
}

/* A stage failed: when the budget ran out, the line says so and names the flag. */
static void budget_short(const MemBudget *mem, const char *stage, SkyError *err) {
    if (mem->carve_failures == 0) return;
    sky_error_set(err, SKY_ERR_INPUT,
                  "skyisles: the memory budget of %zu MiB is too small (%s did not fit): raise --mem MB or SKYISLES_MEM_MB "
                  "(default %u) or lower --view-radius",
                  mem->size >> 20, stage, MEM_DEFAULT_BUDGET_MIB);
}

/* A first start (no settings file yet, no quality or view values on the command line) takes
 * Quality auto and keeps it: the governor measures this device during the title's flyby and
 * the next start begins where it settled. A settings file without a quality (written before
 * there was one, or by a headless run) keeps its own values. */
static void first_start_quality(GameConfig *cfg, GameServices *svc, GameSession *ses, GameCourses *crs) {
    if (!svc->render || !cfg->opt.use_settings || cfg->opt.settings_found || cfg->set.quality_chosen ||
        cfg->opt.quality_by_hand || cfg->opt.writes_nothing)
        return;
    game_quality_apply(&cfg->set, GAME_QUALITY_AUTO);
    cfg->set.auto_level = -1;
    cfg->set.auto_skip = 0;
    game_apply_settings(cfg, svc, ses, crs, MENU_CHANGED_QUALITY);   /* marks the settings to be kept */
    log_info("skyisles: first start: quality auto on %s (the title's flyby measures the frames; the pause menu's "
             "Display page changes it)", render_gpu_name(svc->render)[0] ? render_gpu_name(svc->render) : "an unnamed GPU");
}

/* The job system: one worker per online core (none for --print-island). */
static bool boot_jobs(GameServices *svc, SkyError *err) {
    JobsConfig jc;
    memset(&jc, 0, sizeof jc);
    size_t used = svc->mem.used;
    svc->jobs = jobs_create(&svc->mem, &jc, err);
    if (!svc->jobs) {
        budget_short(&svc->mem, "the job system", err);
        return false;
    }
    svc->carved.jobs = svc->mem.used - used;
    return true;
}

/* The world as planned (boot_plan.c): the settings' generation and live values, the radius and
 * pool the budget holds. */
static bool boot_world(GameServices *svc, const BootPlan *plan, SkyError *err) {
    size_t used = svc->mem.used;
    svc->world = world_create(&svc->mem, svc->jobs, &plan->world, &svc->home.field, err);
    if (!svc->world) {
        budget_short(&svc->mem, "the world", err);
        return false;
    }
    if (svc->home.archipelago && !world_set_islands(svc->world, &svc->mem, &svc->home.isrc, plan->island_slots, err))
        return false;
    svc->carved.world = svc->mem.used - used;
    WorldStats ws = world_stats(svc->world);
    svc->carved.world_mesh_pool = (size_t)ws.slabs_capacity * sizeof(WorldVertex) * WORLD_SLAB_VERTS;
    return true;
}

/* The budget's plan (boot_plan.c), before the world: with a renderer to come, the view radius
 * and the pool are fitted to the budget here, once. An explicit --mesh-pool the budget cannot
 * hold at all is the player's to change. */
static bool boot_plan(const GameConfig *cfg, const GameServices *svc, BootPlan *plan, SkyError *err) {
    const GameOptions *o = &cfg->opt;
    boot_plan_ask(&cfg->set, o->mesh_pool_mib, plan);
    if (o->mesh_pool_mib > 0 && ((size_t)o->mesh_pool_mib << 20) >= mem_budget_free(&svc->mem)) {
        sky_error_set(err, SKY_ERR_INPUT,
                      "skyisles: the memory budget of %zu MiB is too small for --mesh-pool %d: raise --mem MB or "
                      "SKYISLES_MEM_MB (default %u) or lower --mesh-pool",
                      svc->mem.size >> 20, o->mesh_pool_mib, MEM_DEFAULT_BUDGET_MIB);
        return false;
    }
    bool renderer = !o->print_island && !o->headless;
    uint32_t workers = svc->jobs ? jobs_worker_count(svc->jobs) : 0;
    /* The island slots hold the largest island's field each (0.9 MiB): on a small budget fewer
     * of them (at least GAME_ISLAND_SLOTS_MIN), so they take no more than a sixth of it. */
    plan->island_slots = WORLD_ISLAND_SLOTS;
    while (svc->home.archipelago && plan->island_slots > GAME_ISLAND_SLOTS_MIN &&
           world_islands_bytes(&svc->home.isrc, plan->island_slots, workers) > svc->mem.size / 6)
        plan->island_slots--;
    plan->islands_bytes = svc->home.archipelago ? world_islands_bytes(&svc->home.isrc, plan->island_slots, workers) : 0;
    return !renderer || boot_plan_fit(plan, svc->mem.size, mem_budget_free(&svc->mem), workers, err);
}

/* The window (or SDL without video for --headless) with the controller databases: the bundled
 * one and the player's own beside the settings. */
static bool boot_platform(GameServices *svc, const GameConfig *cfg, SkyError *err) {
    const GameOptions *o = &cfg->opt;
    char pad_db[1024], user_db[600];
    if (!game_data_file("controllers/gamecontrollerdb.txt", pad_db, sizeof pad_db))
        log_warn("skyisles: the controller database (controllers/gamecontrollerdb.txt) was not found beside the "
                 "game or in SKYISLES_DATA_DIR: only controllers SDL knows itself will work");
    user_db[0] = 0;
    if (o->config_dir[0]) snprintf(user_db, sizeof user_db, "%s/%s", o->config_dir, SETTINGS_PAD_FILE);
    PlatformConfig pc = {.title = "skyisles", .width = o->width, .height = o->height, .headless = o->offscreen,
                         .fullscreen = o->fullscreen || cfg->set.fullscreen, .vsync = o->vsync && cfg->set.vsync, .no_video = o->headless,
                         .pad_db = pad_db[0] ? pad_db : NULL, .pad_user_db = user_db[0] ? user_db : NULL};
    svc->platform = platform_create(&pc, err);
    platform_signals_install();   /* again, over anything SDL or a driver it loaded installed */
    return svc->platform != NULL;
}

/* The islands around (x, z) found again when the world holds others there (or a generation
 * value moved their sea level), and then the approach lights follow their strips. */
static void strips_to_render(GameServices *svc, double x, double z) {
    if (!svc->world || !game_near_update(&svc->home, svc->world, x, z) || !svc->render) return;
    WorldStrip s[RENDER_STRIPS_MAX];
    render_strips_set(svc->render, s, game_near_lit_strips(&svc->home, s, RENDER_STRIPS_MAX));
}

/* The renderer as planned (its chunk slots for every chunk the world can hold) and the island map. */
static bool boot_renderer(GameServices *svc, const RenderSettings *rs, SkyError *err) {
    platform_drawable_size(svc->platform, &svc->disp_w, &svc->disp_h);
    size_t used = svc->mem.used;
    svc->render = render_create(&svc->mem, rs, err);
    if (!svc->render) {
        budget_short(&svc->mem, "the renderer", err);
        return false;
    }
    svc->map_lang = (int)text_language();
    if (!render_map_set(svc->render, &svc->home.field, svc->home.island, svc->home.codex, GAME_LANG, err)) {
        budget_short(&svc->mem, "the island map", err);
        return false;
    }
    svc->carved.render = svc->mem.used - used;
    return true;
}

/* Sound: the synth always in an interactive run (silent and retrying when no device opens);
 * headless, shot and bench runs open no device unless --audio asks, and make a synth only for
 * --audio-out. */
static bool boot_sound(GameServices *svc, GameConfig *cfg, SkyError *err) {
    const GameOptions *o = &cfg->opt;
    bool repeatable = o->headless || o->screenshot || o->bench_frames;
    double secs = o->seconds > 0.0 ? o->seconds + 5.0 : SOUND_RECORD_SECONDS_MAX;
    SoundSetup su = {.device = !repeatable || o->audio, .record_path = o->audio_out, .record_seconds = secs,
                     .platform = svc->platform};
    size_t used = svc->mem.used;
    if (!sound_boot(&svc->sound, &svc->mem, &su, &cfg->set, err)) {
        budget_short(&svc->mem, "the sound", err);
        return false;
    }
    svc->carved.sound = svc->mem.used - used;
    return true;
}

/* The courses' memory and the best times beside the settings (none kept without a settings file). */
static bool boot_tour(Tour *t, MemBudget *mem, const GameOptions *o, SkyError *err) {
    char dir[512];
    bool files = o->use_settings && settings_dir(o->config, dir, sizeof dir);
    return tour_boot(t, mem, files ? dir : NULL, err);
}

/* What the plan held back, said once the boot stands (a failed boot prints its one error line). */
static void plan_log(const BootPlan *plan, size_t budget_bytes, const World *w, size_t pool_bytes) {
    int32_t r = plan->world.create.view_radius_max;
    if (r < plan->asked_radius)
        log_warn("skyisles: the memory budget of %zu MiB holds a view radius of %d chunk%s, not %d: the view is held "
                 "there (raise --mem MB or SKYISLES_MEM_MB for more)", budget_bytes >> 20, r, r == 1 ? "" : "s",
                 plan->asked_radius);
    if (world_stats(w).pool_squeezed)
        log_warn("skyisles: the %zu MiB budget squeezed the chunk-mesh pool to %.1f MiB: the view may reach less far "
                 "(raise --mem MB or SKYISLES_MEM_MB)", budget_bytes >> 20, (double)pool_bytes / 1048576.0);
    if (plan->islands_bytes && plan->island_slots < WORLD_ISLAND_SLOTS)
        log_warn("skyisles: the %zu MiB budget holds %u island slots, not %u: islands left behind bake again when "
                 "met again (raise --mem MB or SKYISLES_MEM_MB)", budget_bytes >> 20, plan->island_slots, WORLD_ISLAND_SLOTS);
}

/* Every stage stands: the start place, input, camera and play; the boot's one summary line. */
static void boot_finish(Game *g, const BootPlan *plan) {
    const GameOptions *o = &g->cfg.opt;
    if (o->settings_warning[0]) log_warn("%s", o->settings_warning);
    first_start_quality(&g->cfg, &g->svc, &g->ses, &g->crs);
    plan_log(plan, g->svc.mem.size, g->svc.world, g->svc.carved.world_mesh_pool);
    /* Logged once every stage stands, so a failed boot prints its one error line only. */
    game_home_log(&g->svc.home);
    place_start(&g->cfg, &g->svc, &g->ses);
    game_continue_boot(&g->cfg, &g->ses.cont, g->svc.world);
    const WorldGenParams *gen = &world_params(g->svc.world)->gen;
    game_delivery_boot(&g->crs.delivery, &g->cfg, &g->svc.home, g->svc.world, gen->seed, gen->home_sea_level);
    if (g->svc.render && !o->screenshot && !o->bench_frames) {
        size_t used = g->svc.mem.used;
        shot_boot(&g->ses.shot, &g->svc.mem, o->use_settings ? o->config_dir : "", g->cfg.config_read_only, g->svc.disp_w, g->svc.disp_h);
        g->svc.carved.render += g->svc.mem.used - used;
        used = g->svc.mem.used;
        course_cache_boot(&g->crs.cache, &g->svc.mem, g->svc.world, g->svc.home.island, g->svc.home.codex,
                          g->svc.home.archipelago ? &g->svc.home.isrc : NULL);
        g->svc.carved.course_cache = g->svc.mem.used - used;
    }
    input_init(&g->svc.input, &g->cfg.set.input);
    camera_rig_reset(&g->ses.rig, g->cfg.set.camera == GAME_CAMERA_COCKPIT ? CAMERA_COCKPIT : CAMERA_CHASE);
    if (!o->print_island) {
        bool fly_at_once = o->autopilot || o->headless || g->ses.camera_fixed || o->screenshot || o->bench_frames;
        if (fly_at_once && !g->ses.camera_fixed && !o->demo) game_park_at_base(&g->cfg, &g->svc, &g->ses);
        play_init(&g->ses.play, &g->ses.flight, fly_at_once, o->demo);
        play_world_map(&g->ses.play, g->svc.home.archipelago);
        g->ses.flight.cruise_y = g->ses.flight.y;
        game_start_at(&g->cfg, &g->svc, &g->ses, &g->crs);   /* --start X,Y,Z */
    }
    /* The seed flown becomes the last one (kept in the settings file). */
    if (o->use_settings && (o->seed_given || !o->settings_found)) g->cfg.settings_dirty = true;
    const double M = 1.0 / 1048576.0;
    int r = world_params(g->svc.world)->live.view_radius;   /* after a first start's preset */
    log_info("skyisles: seed %llu, view radius %d chunks, %u workers; budget %.1f MiB: home island %.2f, jobs %.2f, "
             "world %.1f (mesh pool %.1f), renderer %.2f, free %.1f",
             (unsigned long long)world_params(g->svc.world)->gen.seed, r, g->svc.jobs ? jobs_worker_count(g->svc.jobs) : 0,
             (double)g->svc.mem.size * M, (double)g->svc.carved.home * M, (double)g->svc.carved.jobs * M,
             (double)g->svc.carved.world * M, (double)g->svc.carved.world_mesh_pool * M, (double)g->svc.carved.render * M,
             (double)mem_budget_free(&g->svc.mem) * M);
}

/* Ends boot stage `stage` (-1: starts the first): its wall and main-thread CPU time since the last
 * call. */
static void boot_stage(GameBootClock *c, int stage) {
    double wall = time_now_ms(), cpu = (double)time_thread_cpu_ns() / 1e6;
    if (stage >= 0) {
        c->stage_ms[stage] = wall - c->stage_wall0;
        c->stage_cpu_ms[stage] = cpu - c->stage_cpu0;
    }
    c->stage_wall0 = wall;
    c->stage_cpu0 = cpu;
}

bool game_boot(Game *g, const GameOptions *o, SkyError *err) {
    memset(g, 0, sizeof *g);
    g->cfg.opt = *o;
    if (o->use_settings) {
        char dir[512];
        if (settings_dir(o->config, dir, sizeof dir)) sound_devices_prepare(dir);
    }
    game_settings_boot(&g->cfg.opt, &g->cfg.set);
    flight_model_default(&g->ses.model);
    g->ses.model.speed_limit = g->cfg.set.speed_limit;
    size_t mib = mem_budget_mib_from_env((size_t)o->mem_mib);
    if (!mem_budget_init(&g->svc.mem, mib << 20, err)) return false;
    if (!o->print_island && !game_replay_boot(&g->crs, &g->svc.mem, g->cfg.opt.replay, &g->cfg.set.world, err)) return false;

    /* Everything that can reject the input (pack, island, memory budget) comes before any
     * window: it fails fast and the same way with or without a display. */
    size_t used = g->svc.mem.used;
    if (!game_home_boot(&g->svc.home, &g->svc.mem, o->pak, g->cfg.set.world.gen.seed, err)) return false;
    g->svc.carved.home = g->svc.mem.used - used;
    GameBootClock *clk = &g->svc.boot;
    boot_stage(clk, -1);
    if (!o->print_island && !boot_jobs(&g->svc, err)) return false;
    BootPlan plan;
    if (!boot_plan(&g->cfg, &g->svc, &plan, err) || !boot_world(&g->svc, &plan, err) || !game_start_ground_check(&g->cfg, g->svc.world, err))
        return false;
    if (!o->print_island &&
        (!boot_tour(&g->crs.tour, &g->svc.mem, o, err) || !attract_boot(&g->crs.attract, o, &g->svc.mem, g->svc.world, err)))
        return false;
    boot_stage(clk, GAME_BOOT_WORLD);
    if (!o->print_island) {
        if (!boot_platform(&g->svc, &g->cfg, err)) return false;
        boot_stage(clk, GAME_BOOT_WINDOW);
        if (!o->headless && !boot_renderer(&g->svc, &plan.render, err)) return false;
        boot_stage(clk, GAME_BOOT_RENDER);
    }
    if (!o->print_island && !boot_sound(&g->svc, &g->cfg, err)) return false;
    if (o->boot_service && !o->print_island && !power_menu_register())
        log_warn("skyisles: the menu is full: Power off and Reboot are not offered");
    boot_finish(g, &plan);
    boot_stage(clk, GAME_BOOT_REST);
    return o->print_island || game_replay_ready(&g->crs, &g->ses, &g->cfg, &g->svc, err);
}

void game_shutdown(Game *g) {
    shot_shutdown(&g->ses.shot);   /* after the screenshot it saves */
    course_cache_shutdown(&g->crs.cache);   /* its layout given up, its thread joined */
        attract_shutdown(&g->crs.attract);   /* its preparation's thread ends (given up when it runs) and is joined */
    sound_shutdown(&g->svc.sound);   /* the callback stops before anything it reads goes */
    if (g->svc.render) render_destroy(g->svc.render);
    if (g->svc.world) world_destroy(g->svc.world);
    if (g->svc.jobs) jobs_destroy(g->svc.jobs);
    if (g->svc.platform) platform_destroy(g->svc.platform);
    mem_budget_release(&g->svc.mem);
    memset(g, 0, sizeof *g);
}

/* ---------------------------------------------------------------- settings */
/* world_set_params rebuilds only when a generation value changed (W5); live values apply at
 * once. The home island's field and the creation values stay the world's own. */
static void apply_world(GameServices *svc, GameSession *ses, Attract *attract, const GameSettings *s) {
    WorldParams wp = *world_params(svc->world);
    wp.gen = s->world.gen;
    game_gov_world_live(svc, s, &wp.live);   /* Quality auto may hold some lower */
    uint32_t epoch = world_stats(svc->world).epoch;
    /* The world holds what its start-time size allows (world_params shows it); the player's
     * own value stays in s, is saved, and sizes the world at the next start (boot_plan). */
    world_set_params(svc->world, &wp);
    /* A new world may put rock where the aircraft is: it is moved to open air nearby, not
     * crashed (the player changed the world, not the flight). */
    bool rebuilt = world_stats(svc->world).epoch != epoch;
    if (rebuilt) attract_world_changed(attract);   /* a preparation of the attract's replay for the old world is given up */
    if (rebuilt) strips_to_render(svc, ses->flight.x, ses->flight.z);
    if (rebuilt && ses->play.state != PLAY_CRASH && !sim_clear_box(svc->world, ses->flight.x, ses->flight.y, ses->flight.z, 2.0)) {
        FlightState f = ses->flight;
        if (sim_respawn_near(svc->world, f.x, f.y, f.z, f.yaw, &f)) {
            f.speed = ses->flight.speed;
            ses->flight = f;
            ses->rig.settled = false;
        }
    }
    if (rebuilt) play_forget_safe(&ses->play);
}

void game_apply_settings(GameConfig *cfg, GameServices *svc, GameSession *ses, GameCourses *crs, unsigned changes) {
    GameSettings *s = &cfg->set;
    game_replay_settings_changing(crs, ses, cfg, changes);
    if (changes & (MENU_CHANGED_WORLD | MENU_CHANGED_QUALITY | MENU_CHANGED_DISPLAY)) game_gov_settings_changed(cfg, svc);
    if (changes & (MENU_CHANGED_WORLD | MENU_CHANGED_QUALITY)) apply_world(svc, ses, &crs->attract, s);
    if (changes & MENU_CHANGED_FLIGHT) {
        ses->model.speed_limit = s->speed_limit;
        CameraMode mode = s->camera == GAME_CAMERA_COCKPIT ? CAMERA_COCKPIT : CAMERA_CHASE;
        if (mode != ses->rig.mode) camera_rig_reset(&ses->rig, mode);
    }
    if ((changes & (MENU_CHANGED_DISPLAY | MENU_CHANGED_QUALITY)) && svc->render) {
        RenderSettings rs = s->render;
        game_gov_render_live(svc, s, &rs.live);
        render_apply_settings(svc->render, &rs);
    }
    if (changes & MENU_CHANGED_DISPLAY) game_display_apply(svc->platform, &cfg->opt, s);
    if ((changes & MENU_CHANGED_DISPLAY) && svc->render && svc->map_lang != (int)text_language()) {
        SkyError err = {0};   /* the map's names in the new language (the map takes no budget) */
        svc->map_lang = (int)text_language();
        if (!render_map_set(svc->render, &svc->home.field, svc->home.island, svc->home.codex, GAME_LANG, &err))
            log_warn("%s", err.msg);
    }
    if (changes & MENU_CHANGED_CONTROLS) input_apply_settings(&svc->input, &s->input);
    if (changes & MENU_CHANGED_SOUND) sound_apply_settings(&svc->sound, s);
    if (changes) cfg->settings_dirty = true;
    if (changes) game_replay_settings_changed(crs, ses, svc, &cfg->set);
}

void game_save_settings(GameConfig *cfg) {
    if (!cfg->settings_dirty || !cfg->opt.use_settings || !cfg->opt.config_dir[0] || cfg->config_read_only ||
        cfg->opt.writes_nothing)
        return;
    SkyError err = {0};
    static GameSettings keep;   /* the main thread's: what the file keeps (not this run's --time-of-day) */
    keep = cfg->set;
    game_settings_to_keep(&cfg->opt, &keep);
    if (settings_save_keeping(&keep, cfg->opt.config_dir, &cfg->opt.settings_damaged, &err)) {
        log_info("skyisles: settings saved to %s/%s", cfg->opt.config_dir, SETTINGS_FILE);
        cfg->settings_dirty = false;
    } else {
        log_warn("%s", err.msg);
        cfg->settings_dirty = false;   /* one warning per change, not one per frame */
    }
}

/* ---------------------------------------------------------------- frames */
WorldView game_world_view(const GameConfig *cfg, const GameServices *svc, const GameSession *ses) {
    WorldView v;
    sim_world_view(&ses->flight, &ses->camera, fov_y(&cfg->set), display_aspect(svc, &cfg->opt), &v);
    return v;
}

void game_consume_world(World *w) {
    WorldEvent ev[64];
    size_t n;
    while ((n = world_take_events(w, ev, 64)) > 0)
        for (size_t i = 0; i < n; i++)
            if (ev[i].type == WORLD_EV_MESH_READY) world_release_mesh(w, ev[i].cx, ev[i].cz);
}

static void stream(const GameConfig *cfg, GameServices *svc, const GameSession *ses) {
    WorldView wv = game_world_view(cfg, svc, ses);
    world_update(svc->world, &wv);
    strips_to_render(svc, ses->flight.x, ses->flight.z);   /* the islands the world holds now */
    if (svc->render) render_sync_world(svc->render, svc->world);
    else game_consume_world(svc->world);
}

/* What the player is doing, for the synth's levels. */
static AudioMode sound_mode(const Play *p) {
    if (p->demo) return AUDIO_MODE_ATTRACT;
    if (p->state == PLAY_START) return AUDIO_MODE_TITLE;
    if (p->overlay != OVERLAY_NONE) return AUDIO_MODE_PAUSED;
    return AUDIO_MODE_FLIGHT;
}

/* The frame's sound events, from what play did (play itself knows nothing of sound). */
typedef struct PlayBefore {
    PlayOverlay overlay;
    uint64_t crashes, respawns;
    int page, depth, sel;
    bool demo;
} PlayBefore;

static unsigned sound_events(const GameSession *ses, const InputState *in, const PlayBefore *b, const PlayRequest *rq,
                             const PlatformEvents *ev) {
    const Play *p = &ses->play;
    unsigned e = 0;
    if (p->crashes > b->crashes) e |= SOUND_EV_CRASH;
    if (p->respawns > b->respawns) e |= SOUND_EV_RESTART;
    if (b->overlay == OVERLAY_NONE && p->overlay == OVERLAY_MENU && !p->demo) e |= SOUND_EV_MENU_CONFIRM;
    if (b->overlay == OVERLAY_MENU && !b->demo) {
        const Menu *m = &ses->menu;
        if (p->overlay != OVERLAY_MENU || m->depth < b->depth) e |= SOUND_EV_MENU_BACK;
        else if (m->depth > b->depth || (rq->apply && in->pressed[GA_MENU_OK])) e |= SOUND_EV_MENU_CONFIRM;
        else if (m->sel != b->sel || rq->apply) e |= SOUND_EV_MENU_MOVE;
    }
    for (uint32_t i = 0; i < ev->pad_event_count; i++) {
        if (ev->pad_events[i].type == PPAD_EV_ADDED) e |= SOUND_EV_PAD_PLUGGED;
        if (ev->pad_events[i].type == PPAD_EV_REMOVED) e |= SOUND_EV_PAD_UNPLUGGED;
    }
    return e;
}

/* A mode the menu or the title asked for: its course laid, the menu closed. True when a course
 * begins (the caller starts its recording and its ghost). */
static bool mode_lay(GameServices *svc, GameSession *ses, GameCourses *crs, const GameMode *m, bool laid) {
    SkyError err = {0};
    bool course = false;
    CourseIsland at;   /* the tour's island: the one of the aircraft's cell */
    if (!laid) course_island_at(svc->world, svc->home.island, ses->flight.x, ses->flight.z, &at);
    if (laid ? !tour_start_laid(&crs->tour, m, &ses->flight)
             : !tour_start(&crs->tour, m, svc->world, &at, svc->home.codex, &ses->flight, &err)) {
        play_message(&ses->play, 6.0f, "%s", err.msg);
        log_warn("%s", err.msg);
    } else {
        play_enter_flight(&ses->play);
        ses->rig.settled = false;
        course = tour_active(&crs->tour);
        if (course) {
            play_message(&ses->play, 4.0f, text_get(TEXT_COURSE_GO), crs->tour.course->n_rings);
            crs->course_respawns = ses->play.respawns;
        } else {
            ghost_stop(&crs->ghost);
        }
    }
    if (svc->render) {
        static RenderRing rings[RENDER_RINGS_MAX];
        render_rings_set(svc->render, rings, tour_render_rings(&crs->tour, rings, RENDER_RINGS_MAX));
    }
    return course;
}

/* A mode flown from its start: the recording starts at the course's start, and the best run so
 * far flies beside. */
static void mode_begin(Game *g, const GameMode *m, bool laid) {
    if (!mode_lay(&g->svc, &g->ses, &g->crs, m, laid)) return;
    game_replay_restart(&g->crs, &g->ses, &g->cfg.opt);
    game_ghost_start(&g->crs, g->crs.tour.course->id);
}

void game_start_mode(Game *g, const GameMode *m) {
    if (!m) return;
    GameCourses *crs = &g->crs;
    crs->pending = NULL;
    bool laid = m->lay && course_cache_take(&crs->cache, m, g->svc.world, crs->tour.course);   /* laid ahead */
    if (m->lay && !laid && course_cache_ask(&crs->cache, m)) {   /* laid on the cache's thread: begun when there */
        crs->pending = m;
        play_enter_flight(&g->ses.play);
        play_message(&g->ses.play, 2.0f, "%s", text_get(TEXT_COURSE_LAYING));
        log_info("skyisles: course %s: laid on the courses' thread, begun when laid", m->name);
        return;
    }
    mode_begin(g, m, laid);
}

/* A mode waiting for its course: begun on the first frame of free flight after the cache's
 * thread laid it (a failed layout: laid in the frame, which says why). */
static void pending_mode(Game *g) {
    GameCourses *crs = &g->crs;
    const GameMode *m = crs->pending;
    if (!m || g->ses.play.demo || g->ses.play.overlay != OVERLAY_NONE || g->ses.play.state != PLAY_FLY) return;
    course_cache_ask(&crs->cache, m);   /* again: the world may have been rebuilt since */
    int r = course_cache_ready(&crs->cache, m, g->svc.world);
    if (r == 0) return;
    crs->pending = NULL;
    mode_begin(g, m, r > 0 && course_cache_take(&crs->cache, m, g->svc.world, crs->tour.course));
}

/* After a frame of play: the next ring marked; true when the results were seen (the caller goes
 * back to free flight). press_taken: the press of this frame ended the attract loop and does
 * nothing else (it would otherwise also dismiss the player's results, put back with the
 * player's course). */
static bool course_frame(const Tour *t, Renderer *r, const InputState *in, double time_s, bool press_taken) {
    if (!tour_active(t)) return false;
    if (t->results && !press_taken && in->pressed[GA_MENU_OK]) return true;
    if (r) render_rings_next(r, t->run.next, 0.5f + 0.5f * sinf((float)time_s * 6.0f));
    return false;
}

/* The title's language key: the next language, chosen as on the Display page (kept, applied). */
static void title_language(Game *g) {
    const SettingDesc *d = setting_find("display", "language");
    if (!d) return;
    setting_set(&g->cfg.set, d, (double)((g->cfg.set.language + 1) % LANG_COUNT));
    d->on_change(&g->cfg.set);
    game_apply_settings(&g->cfg, &g->svc, &g->ses, &g->crs, d->changes);
}

/* The frame's weather, once, at the aircraft and the sim's step: the sky, the rain, the sound and
 * the HUD read this one state (the sim evaluates its own at each step for the wind). */
static void game_weather_frame(Game *g) {
    const FlightState *f = &g->ses.flight;
    const Attract *a = &g->crs.attract;
    int setting = a->playing ? a->set.weather : g->cfg.set.weather;   /* the attract replay flies its own */
    weather_eval(world_params(g->svc.world)->gen.seed, setting - 1, f->x, f->z, weather_step_of(f->time_s), &g->ses.weather);
}

void game_frame(Game *g, const PlatformEvents *ev, float dt) {
    g->svc.ev = *ev;
    /* first: the Enter of Alt+Enter is not the input's */
    if (game_display_input(&g->cfg, &g->svc.ev, g->svc.platform, &g->ses)) game_save_settings(&g->cfg);
    input_update_dt(&g->svc.input, &g->svc.ev, dt);
    game_shot_input(&g->ses, &g->svc.input.st, g->svc.render);
    PlayState state0 = g->ses.play.state;
    attract_before_frame(&g->crs, &g->ses, &g->svc, &g->cfg.set);   /* the attract loop begun: its replay takes over the flight */
    PlayCtx c = game_play_ctx(&g->cfg, &g->svc, &g->ses, &g->crs);
    GameCourseStep step = {&g->crs, &g->ses, &g->svc.sound, &g->cfg.opt};
    c.on_step = game_course_step;
    c.step_user = &step;
    if (attract_holds_player(&g->crs.attract)) {   /* the autopilot's loop: not the player's flight or course */
        c.on_step = NULL;
        c.rec = NULL;
    }
    PlayBefore before = {g->ses.play.overlay, g->ses.play.crashes, g->ses.play.respawns, g->ses.menu.page, g->ses.menu.depth, g->ses.menu.sel,
                         g->ses.play.demo};
    PlayRequest rq = play_frame(&g->ses.play, &c, dt);
    attract_after_frame(&g->crs, &g->ses, g->svc.render, g->cfg.opt.demo);   /* ended: the player's flight back; at its end: again */
    game_replay_frame(&g->cfg, &g->svc, &g->ses, &g->crs, &rq);
    if (rq.fly_to) game_fly_to(&g->cfg, &g->svc, &g->ses, &g->crs, rq.fly_pos[0], rq.fly_pos[1], rq.fly_pos[2]);
    if (rq.resume_saved && game_continue_flight(&g->ses, &g->cfg.set, g->svc.world, &g->svc.spawn)) rq.apply |= MENU_CHANGED_FLIGHT;
    else if (state0 == PLAY_START && g->ses.play.state == PLAY_FLY && game_park_at_base(&g->cfg, &g->svc, &g->ses)) {
        play_set_safe(&g->ses.play, &g->ses.flight);   /* a new flight from the title: parked at the base */
        play_cut(&g->ses.play);
        g->ses.rig.settled = false;
        world_note_jump(g->svc.world);
    }
    continue_tick(&g->ses.cont, &g->ses.flight, g->cfg.set.camera,
                  g->ses.play.state == PLAY_FLY && g->ses.play.overlay == OVERLAY_NONE && !g->ses.play.demo && !g->cfg.opt.autopilot, dt);
    if (rq.apply) game_apply_settings(&g->cfg, &g->svc, &g->ses, &g->crs, rq.apply);
    if (rq.dirty) g->cfg.settings_dirty = true;
    if (rq.save) game_save_settings(&g->cfg);
    if (rq.save) game_delivery_save(&g->crs.delivery, &g->cfg);
    if (course_frame(&g->crs.tour, g->svc.render, &g->svc.input.st, g->ses.flight.time_s, before.demo && !g->ses.play.demo))
        game_course_end(&g->crs, g->svc.render);   /* the results seen: back to free flight */
    /* The mode the menu chose, or the title's (play has started the flight): its course laid,
     * flown from the next frame's steps. */
    course_cache_tick(&g->crs.cache, g->svc.world, g->ses.flight.x, g->ses.flight.z,
                      !g->ses.play.demo && (g->ses.play.overlay == OVERLAY_MENU || g->ses.play.state == PLAY_START));
    if (rq.start_mode) game_start_mode(g, mode_at((size_t)rq.mode));
    pending_mode(g);
    if (state0 == PLAY_START && !before.demo && before.overlay == OVERLAY_NONE) {
        game_start_mode(g, tour_title_input(&g->crs.tour, &g->svc.input.st));
        if (g->svc.input.st.pressed[GA_MAP]) title_language(g);
    }
    game_weather_frame(g);
    if (g->svc.sound.synth) {
        SoundInput si = {.flight = &g->ses.flight, .world = g->svc.world, .mode = sound_mode(&g->ses.play),
                         .events = sound_events(&g->ses, &g->svc.input.st, &before, &rq, ev), .device_lost = ev->audio_lost,
                         .device_added = ev->audio_added,
                         .boost_held = g->svc.input.st.held[GA_BOOST] || g->ses.play.autopilot_boost,
                         .touchdowns = g->ses.play.touchdowns, .touch_rating = (int)g->ses.play.touch.rating,
                         .touch_sink = g->ses.play.touch.sink, .brake = g->ses.play.brake,
                         .stall = g->ses.play.state == PLAY_FLY && g->ses.play.overlay == OVERLAY_NONE &&
                                  flight_stall_warning(&g->ses.flight),
                         .weather = &g->ses.weather};
        sound_frame(&g->svc.sound, &si, &g->cfg.set, dt);
    }
    stream(&g->cfg, &g->svc, &g->ses);
}

static void sleep_ms(int ms) {
    struct timespec ts = {0, (long)ms * 1000000L};
    nanosleep(&ts, NULL);
}

static bool wait_world(const GameConfig *cfg, GameServices *svc, const GameSession *ses, double timeout_s) {
    double end = time_now_ms() + timeout_s * 1000.0;
    int quiet = 0;
    float last_reach = -1.0f;
    while (time_now_ms() < end) {
        if (platform_stop_signal()) return false;
        stream(cfg, svc, ses);
        WorldStats ws = world_stats(svc->world);
        uint32_t pending = svc->render ? render_stats(svc->render).pending_uploads : 0;
        /* Done when nothing is generating or waiting for upload (no chunk, no island: the
         * chunks of an island wait for its bake unsent), the reach has settled (the
         * mesh pool pulls it in while meshes pile up, then lets it grow back step by step) and
         * the speed governor is back at rest (after a jump it coarsens far LODs and pulls the
         * reach in; each step back requests chunks again), and no chunk the view needs is
         * without a mesh (the scan of the camera the first frame draws from). */
        if (ws.in_flight == 0 && ws.islands_baking == 0 && pending == 0 && ws.reach == last_reach && ws.gov_level == 0 &&
            ws.void_chunks == 0) {
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

bool game_wait_world(Game *g, double timeout_s) {
    return wait_world(&g->cfg, &g->svc, &g->ses, timeout_s);
}

/* A mode's --show shot: its course laid, the aircraft behind a ring looking through it (results:
 * the course pilot flies it first), the world waited for around it. */
static bool show_course(GameConfig *cfg, GameServices *svc, GameSession *ses, Tour *t, const Show *what) {
    const GameMode *m = what->mode;
    SkyError err = {0};
    CourseIsland at;   /* the tour's island: the one of the start's cell */
    course_island_at(svc->world, svc->home.island, ses->flight.x, ses->flight.z, &at);
    if (!tour_start(t, m, svc->world, &at, svc->home.codex, &ses->flight, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return false;
    }
    const Course *c = t->course;
    uint32_t k = m->show_ring < c->n_rings ? m->show_ring : 0u;
    if (what->results) {
        tour_fly_pilot(t, &ses->flight, &ses->model, svc->world, 900.0);
    } else {
        const CourseRing *r = &c->rings[k];
        double back = m->show_back;
        flight_init(&ses->flight, r->x - r->nx * back, r->y - r->ny * back + m->show_up, r->z - r->nz * back, atan2f(r->nx, -r->nz), 40.0f);
        t->run.next = k;
    }
    camera_chase(&ses->flight, &ses->camera);
    static RenderRing rings[RENDER_RINGS_MAX];
    render_rings_set(svc->render, rings, tour_render_rings(t, rings, RENDER_RINGS_MAX));
    render_rings_next(svc->render, t->run.next, 1.0f);
    wait_world(cfg, svc, ses, 60.0);
    return play_show(&ses->play, &ses->menu, &cfg->set, world_params(svc->world), what);
}

bool game_show(GameConfig *cfg, GameServices *svc, GameSession *ses, Tour *t, const char *what) {
    Show s;
    if (!show_find(what, &s)) return false;
    if (s.kind == SHOW_MODE) return show_course(cfg, svc, ses, t, &s);
    return play_show(&ses->play, &ses->menu, &cfg->set, world_params(svc->world), &s);
}

/* An aircraft instance of the view at a flight's pose (alpha below 1: translucent). */
static RenderInstance *add_aircraft(RenderView *v, const FlightState *f, float prop_angle, float alpha) {
    RenderInstance *in = render_view_add(v, RENDER_MODEL_AIRCRAFT);
    if (!in) return NULL;
    in->x = f->x, in->y = f->y, in->z = f->z;
    in->yaw = f->yaw, in->pitch = f->pitch, in->roll = f->roll;
    in->prop_angle = prop_angle;
    in->tint[3] = alpha;
    return in;
}

void game_draw(Game *g) {
    RenderView v;
    memset(&v, 0, sizeof v);
    v.cam_x = g->ses.camera.x;
    v.cam_y = g->ses.camera.y;
    v.cam_z = g->ses.camera.z;
    v.yaw = g->ses.camera.yaw;
    v.pitch = g->ses.camera.pitch;
    v.roll = g->ses.camera.roll;
    v.time_s = g->ses.flight.time_s;
    v.weather = g->ses.weather;
    FlightState air;   /* between the last two sim steps */
    play_view_flight(&g->ses.play, &g->ses.flight, &air);
    if (!g->cfg.opt.no_aircraft && !(g->ses.rig.mode == CAMERA_COCKPIT && !g->ses.camera_fixed)) {
        RenderInstance *me = add_aircraft(&v, &air, air.prop_angle, 1.0f);
        if (me) me->nav_lights = true;   /* the ghost flies without them */
    }
    game_lamps_update(&g->svc.lamps, g->svc.world, g->svc.home.near.island, g->svc.home.near.n_islands);
    game_lamps_view(&g->svc.lamps, &v, v.time_s);
    FlightState gh;   /* a course's best run, when one flies; its propeller turns with the player's */
    if (ghost_view(&g->crs.ghost, g->ses.play.step_acc, &gh)) add_aircraft(&v, &gh, air.prop_angle, RENDER_GHOST_ALPHA);
    render_frame(g->svc.render, &v, g->svc.disp_w, g->svc.disp_h);
}

void game_boot_clock_frame(GameServices *svc, const Play *p, bool frame_shown) {
    GameBootClock *c = &svc->boot;
    if (c->start_ms == 0.0 || (c->first_step_ms > 0.0 && (c->first_frame_ms > 0.0 || !svc->render))) return;
    double now = time_now_ms() - c->start_ms;
    if (c->first_step_ms == 0.0 && p->steps > 0) c->first_step_ms = now;
    if (frame_shown && c->first_frame_ms == 0.0) c->first_frame_ms = now;
    if (c->first_step_ms == 0.0 || (svc->render && c->first_frame_ms == 0.0)) return;
    c->cpu_ms = (double)time_thread_cpu_ns() / 1e6;
    const GameHome *h = &svc->home;
    const double *w = c->stage_ms, *u = c->stage_cpu_ms;
    log_info("skyisles: stages of the boot (ms, wall/main-thread CPU): pack %.2f, generate %.2f, bake %.2f, world %.1f/%.1f, "
             "window %.1f/%.1f, renderer %.1f/%.1f, start place %.1f/%.1f", h->load_ms, h->gen_ms, h->bake_ms,
             w[GAME_BOOT_WORLD], u[GAME_BOOT_WORLD], w[GAME_BOOT_WINDOW], u[GAME_BOOT_WINDOW], w[GAME_BOOT_RENDER],
             u[GAME_BOOT_RENDER], w[GAME_BOOT_REST], u[GAME_BOOT_REST]);
    if (svc->render)
        log_info("skyisles: boot %.1f ms, first flight step %.1f ms, first frame %.1f ms after start (the terrain "
                 "streams in after); main thread CPU %.1f ms", c->ready_ms, c->first_step_ms, c->first_frame_ms, c->cpu_ms);
    else
        log_info("skyisles: boot %.1f ms, first flight step %.1f ms after start (%.1f ms of it waiting for the view "
                 "to fill); main thread CPU %.1f ms", c->ready_ms, c->first_step_ms, c->wait_ms, c->cpu_ms);
}

/* A frame of an interactive run measured: its CPU and its time to the swap (and the GPU's, where
 * a timer gives it) to the governor; its length and the work in it to the run's frame times. */
typedef struct RunClock {
    double c0, w0;              /* thread CPU and wall ms at the frame's start */
    double work_ms;             /* the last frame's main-thread CPU time */
    double gap_s;               /* the gap before this frame: the governor's clock */
    const char *phase;          /* the last frame's phase */
    double period_ms;           /* the frame cap's period (uncapped: 60 Hz's): two of it is a hitch */
    uint32_t epoch;             /* the world's epoch before the frame */
} RunClock;

static void run_frame_measured(Game *g, RunClock *k, bool shot, const char *event) {
    double c1 = (double)time_thread_cpu_ns() / 1e6, w1 = time_now_ms();
    /* SDL's offscreen driver swaps to a pbuffer that waits for no display: its swap is work. */
    bool display = !platform_is_headless(g->svc.platform) && strcmp(platform_driver_name(g->svc.platform), "offscreen") != 0;
    GovFrame f = {.cpu_ms = c1 - k->c0, .swap_ms = w1 - k->w0, .gpu_ms = render_gpu_ms(g->svc.render),
                  .swap_waits = g->cfg.opt.vsync && g->cfg.set.vsync && display};
    WorldStats ws = world_stats(g->svc.world);
    uint32_t epoch = ws.epoch;
    /* The world still streaming in (void ahead, or more than an eighth of the chunks in range
     * without a mesh): its frames measure no step of the lines. */
    f.busy = ws.void_chunks > 0 || ws.wanted > ws.resident + ws.wanted / 8;
    k->work_ms = f.cpu_ms;   /* the game's own work: what a loaded machine or the GPU adds is not in it */
    k->phase = event ? event : game_frame_phase(&g->ses, &g->crs, epoch != k->epoch, shot);
    k->epoch = epoch;
    int fps = game_frame_cap_fps(&g->cfg.set);
    k->period_ms = 1000.0 / (fps > 0 ? fps : 60);
    if (k->gap_s < PLAY_STALL_SECONDS) game_gov_frame(&g->cfg, &g->svc, &f, k->gap_s);
}

/* --soak: this frame's events, and what it asks of the game (a course's start is timed: the
 * layout runs on this thread). */
static const char *run_soak(Game *g, GameSoak *soak, PlatformEvents *ev, double run_s) {
    GameSoakAsk a = game_soak_frame(g, soak, ev, run_s);
    if (a.mode) {
        double c0 = (double)time_thread_cpu_ns() / 1e6;
        game_start_mode(g, a.mode);
        bool asked = g->crs.pending == a.mode;
        soak->courses += tour_active(&g->crs.tour) || asked;
        log_info("skyisles: soak: course %s %s (%.1f ms of CPU)", a.mode->name,
                 asked ? "asked of the courses' thread" : tour_active(&g->crs.tour) ? "started" : "did not start",
                 (double)time_thread_cpu_ns() / 1e6 - c0);
    }
    if (a.apply) game_apply_settings(&g->cfg, &g->svc, &g->ses, &g->crs, a.apply);
    if (g->cfg.settings_dirty && a.event) game_save_settings(&g->cfg);   /* as the menu's close saves */
    return a.event;
}

int game_run(Game *g) {
    double last = time_now_ms(), last_log = last, run_s = 0.0;
    FrameClock fc = {0};   /* the frame's time, a suspend told from the game's own slow frames */
    uint32_t gov_changes = g->svc.gov.changes;
    int lines = g->svc.render ? render_settings(g->svc.render)->live.lines : 0;
    float longest_dt = 0.0f;
    uint32_t frames = 0;
    static FrameStats stats;   /* the run's frame times (fixed, not on the stack: 8 KiB) */
    static GameSoak soak = {.pad = -1};
    RunClock k = {.phase = NULL, .epoch = world_stats(g->svc.world).epoch};
    game_gov_start(&g->cfg, &g->svc);
    for (;;) {
        PlatformEvents ev;
        platform_poll(g->svc.platform, &ev);
        if (ev.quit) break;
        if (ev.resized) platform_drawable_size(g->svc.platform, &g->svc.disp_w, &g->svc.disp_h);
        double now = time_now_ms();
        bool stall;
        float dt = frame_clock_dt(&fc, (now - last) / 1000.0, PLAY_STALL_SECONDS, &stall);
        if (stall) {
            PlayCtx c = game_play_ctx(&g->cfg, &g->svc, &g->ses, &g->crs);
            play_stall(&g->ses.play, &c, (now - last) / 1000.0);
        }
        /* A stall counts too: a long frame of the game's own work (a course laid) shows in its
         * work; a suspend shows as a long frame with little work. */
        if (k.phase) frame_stats_add(&stats, &(FrameSample){now - last, k.work_ms, run_s, k.phase});
        if (k.phase && k.work_ms > 2.0 * k.period_ms)   /* a hitch of the game's own: said with its phase */
            log_info("skyisles: long frame: %.1f ms of work (%s) at %.1f s, %.1f ms in all", k.work_ms, k.phase, run_s,
                     now - last);
        if (dt > longest_dt) longest_dt = dt;
        k.c0 = (double)time_thread_cpu_ns() / 1e6, k.w0 = now, k.gap_s = stall ? 1.0 : (now - last) / 1000.0;
        last = now;
        const char *event = g->cfg.opt.soak ? run_soak(g, &soak, &ev, run_s) : NULL;   /* in the frame, as the player's choices are */
        game_frame(g, &ev, dt);
        if (g->ses.play.quit || g->ses.play.replay_done) break;
        overlay_draw(&g->cfg, &g->svc, &g->ses, &g->crs);
        game_draw(g);
        bool shot = g->ses.shot.pending;
        game_shot_capture(&g->ses, g->svc.disp_w, g->svc.disp_h);
        platform_swap(g->svc.platform);
        /* Offscreen the swap shows nothing and waits for nothing: a software rasteriser (llvmpipe)
         * defers the frame's pixels past it. Finished here, as a display's swap must finish it, so
         * the frame's measure (Quality auto's, the fps) is what a display would see. */
        if (g->cfg.opt.offscreen) render_finish(g->svc.render);
        game_boot_clock_frame(&g->svc, &g->ses.play, true);
        run_frame_measured(g, &k, shot, event);
        int now_lines = g->svc.render ? render_settings(g->svc.render)->live.lines : 0;
        if (g->svc.gov.changes != gov_changes || now_lines != lines || ev.resized) frame_clock_own(&fc);
        gov_changes = g->svc.gov.changes, lines = now_lines;
        game_pace_frame(&g->svc.pacer, &g->cfg.set);
        frames++;
        /* --seconds counts the run's time, which passes on every screen (paused or not). */
        run_s += dt;
        if (g->cfg.opt.seconds > 0.0 && run_s >= g->cfg.opt.seconds) break;
        if (now - last_log > 10000.0) {
            RenderStats rs = render_stats(g->svc.render);
            log_info("skyisles: %.1f fps, %u draw calls, %u triangles, %u chunks resident, %.1f MiB GPU",
                     frames * 1000.0 / (now - last_log), rs.draw_calls, rs.triangles, rs.chunks_resident,
                     (double)rs.gpu_bytes / 1048576.0);
            frames = 0;
            last_log = now;
        }
    }
    log_info("skyisles: %llu sim steps of %.1f ms, longest frame time used %.1f ms or less (cap 100), %u stalls "
             "paused or dropped", (unsigned long long)g->ses.play.steps, 1000.0 / SIM_STEP_HZ,
             (double)longest_dt * 1000.0, g->ses.play.stalls);
    frame_stats_log(&stats);
    game_shot_wait(&g->ses);   /* a screenshot taken at the end: saved and said */
    if (g->cfg.opt.soak) game_soak_log(&soak);
    if (soak.pad >= 0) platform_virtual_pad(g->svc.platform, soak.pad);
    game_save_settings(&g->cfg);
    game_delivery_save(&g->crs.delivery, &g->cfg);
    game_continue_quit(&g->ses, &g->cfg);
    return game_replay_finish(&g->crs, &g->ses, &g->cfg.opt);
}
