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

static float display_aspect(const Game *g) {
    if (g->svc.disp_w > 0 && g->svc.disp_h > 0) return (float)g->svc.disp_w / (float)g->svc.disp_h;
    if (g->cfg.opt.width > 0 && g->cfg.opt.height > 0) return (float)g->cfg.opt.width / (float)g->cfg.opt.height;
    return 4.0f / 3.0f;
}

static float fov_y(const Game *g) { return g->cfg.set.render.live.fov_y_deg * SIM_DEG; }

static void place_start(Game *g) {
    const GameOptions *o = &g->cfg.opt;
    /* Chosen (and logged) under a fixed camera too: it is where a restart with no safe place
     * returns (W9). */
    sim_spawn_choose(g->svc.world, CRUISE_SPEED, fov_y(g), display_aspect(g), o->time_s, &g->svc.spawn);
    if (o->camera_set) {
        g->ses.camera_fixed = true;
        g->ses.camera.x = o->cam[0];
        g->ses.camera.y = o->cam[1];
        g->ses.camera.z = o->cam[2];
        g->ses.camera.yaw = (float)o->cam[3] * SIM_DEG;
        g->ses.camera.pitch = (float)o->cam[4] * SIM_DEG;
        g->ses.camera.roll = 0.0f;
        flight_init(&g->ses.flight, 0, 0, 0, 0, CRUISE_SPEED);
        flight_in_front_of(&g->ses.camera, &g->ses.flight);
        g->ses.flight.cruise_y = g->ses.flight.y;
    } else {
        g->ses.flight = g->svc.spawn.flight;
        g->ses.camera = g->svc.spawn.camera;
    }
    g->ses.flight.throttle = flight_throttle_for(&g->ses.model, g->ses.flight.speed);
    g->ses.flight.time_s = o->time_s;
    const SimSpawn *sp = &g->svc.spawn;
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

/* A first start (no settings file yet, no quality or view values on the command line) picks the
 * preset for this GPU and core count and keeps it; the pause menu changes it. A settings file
 * without a quality (written before there was one, or by a headless run) keeps its own values. */
static void first_start_quality(Game *g) {
    if (!g->svc.render || !g->cfg.opt.use_settings || g->cfg.opt.settings_found || g->cfg.set.quality_chosen ||
        g->cfg.opt.quality_by_hand)
        return;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    const char *gpu = render_gpu_name(g->svc.render);
    GameQuality q = game_quality_guess(gpu, (int)cores);
    game_quality_apply(&g->cfg.set, q);
    game_apply_settings(g, MENU_CHANGED_QUALITY);   /* marks the settings to be kept */
    log_info("skyisles: first start: quality %s for %s on %ld cores (the pause menu's Display page changes it)",
             game_quality_name(q), gpu[0] ? gpu : "an unnamed GPU", cores);
}

/* The job system: one worker per online core (none for --print-island). */
static bool boot_jobs(Game *g, SkyError *err) {
    JobsConfig jc;
    memset(&jc, 0, sizeof jc);
    size_t used = g->svc.mem.used;
    g->svc.jobs = jobs_create(&g->svc.mem, &jc, err);
    if (!g->svc.jobs) {
        budget_short(&g->svc.mem, "the job system", err);
        return false;
    }
    g->svc.carved.jobs = g->svc.mem.used - used;
    return true;
}

/* The world as planned (boot_plan.c): the settings' generation and live values, the radius and
 * pool the budget holds. */
static bool boot_world(Game *g, const WorldParams *wp, SkyError *err) {
    size_t used = g->svc.mem.used;
    g->svc.world = world_create(&g->svc.mem, g->svc.jobs, wp, &g->svc.home.field, err);
    if (!g->svc.world) {
        budget_short(&g->svc.mem, "the world", err);
        return false;
    }
    g->svc.carved.world = g->svc.mem.used - used;
    WorldStats ws = world_stats(g->svc.world);
    g->svc.carved.world_mesh_pool = (size_t)ws.slabs_capacity * sizeof(WorldVertex) * WORLD_SLAB_VERTS;
    return true;
}

/* The budget's plan (boot_plan.c), before the world: with a renderer to come, the view radius
 * and the pool are fitted to the budget here, once. An explicit --mesh-pool the budget cannot
 * hold at all is the player's to change. */
static bool boot_plan(Game *g, BootPlan *plan, SkyError *err) {
    const GameOptions *o = &g->cfg.opt;
    boot_plan_ask(&g->cfg.set, o->mesh_pool_mib, plan);
    if (o->mesh_pool_mib > 0 && ((size_t)o->mesh_pool_mib << 20) >= mem_budget_free(&g->svc.mem)) {
        sky_error_set(err, SKY_ERR_INPUT,
                      "skyisles: the memory budget of %zu MiB is too small for --mesh-pool %d: raise --mem MB or "
                      "SKYISLES_MEM_MB (default %u) or lower --mesh-pool",
                      g->svc.mem.size >> 20, o->mesh_pool_mib, MEM_DEFAULT_BUDGET_MIB);
        return false;
    }
    bool renderer = !o->print_island && !o->headless;
    uint32_t workers = g->svc.jobs ? jobs_worker_count(g->svc.jobs) : 0;
    return !renderer || boot_plan_fit(plan, g->svc.mem.size, mem_budget_free(&g->svc.mem), workers, err);
}

/* The window (or SDL without video for --headless) with the controller databases: the bundled
 * one and the player's own beside the settings. */
static bool boot_platform(Game *g, SkyError *err) {
    const GameOptions *o = &g->cfg.opt;
    char pad_db[1024], user_db[600];
    if (!game_data_file("controllers/gamecontrollerdb.txt", pad_db, sizeof pad_db))
        log_warn("skyisles: the controller database (controllers/gamecontrollerdb.txt) was not found beside the "
                 "game or in SKYISLES_DATA_DIR: only controllers SDL knows itself will work");
    user_db[0] = 0;
    if (o->config_dir[0]) snprintf(user_db, sizeof user_db, "%s/%s", o->config_dir, SETTINGS_PAD_FILE);
    PlatformConfig pc = {.title = "skyisles", .width = o->width, .height = o->height, .headless = o->offscreen,
                         .fullscreen = o->fullscreen || g->cfg.set.fullscreen, .vsync = o->vsync && g->cfg.set.vsync, .no_video = o->headless,
                         .pad_db = pad_db[0] ? pad_db : NULL, .pad_user_db = user_db[0] ? user_db : NULL};
    g->svc.platform = platform_create(&pc, err);
    platform_signals_install();   /* again, over anything SDL or a driver it loaded installed */
    return g->svc.platform != NULL;
}

/* The renderer as planned (its chunk slots for every chunk the world can hold) and the island map. */
static bool boot_renderer(Game *g, const RenderSettings *rs, SkyError *err) {
    platform_drawable_size(g->svc.platform, &g->svc.disp_w, &g->svc.disp_h);
    size_t used = g->svc.mem.used;
    g->svc.render = render_create(&g->svc.mem, rs, err);
    if (!g->svc.render) {
        budget_short(&g->svc.mem, "the renderer", err);
        return false;
    }
    if (!render_map_set(g->svc.render, &g->svc.home.field, g->svc.home.island, g->svc.home.codex, GAME_LANG, err)) {
        budget_short(&g->svc.mem, "the island map", err);
        return false;
    }
    g->svc.carved.render = g->svc.mem.used - used;
    return true;
}

/* Sound: the synth always in an interactive run (silent and retrying when no device opens);
 * headless, shot and bench runs open no device unless --audio asks, and make a synth only for
 * --audio-out. */
static bool boot_sound(Game *g, SkyError *err) {
    const GameOptions *o = &g->cfg.opt;
    bool repeatable = o->headless || o->screenshot || o->bench_frames;
    double secs = o->seconds > 0.0 ? o->seconds + 5.0 : SOUND_RECORD_SECONDS_MAX;
    SoundSetup su = {.device = !repeatable || o->audio, .record_path = o->audio_out, .record_seconds = secs,
                     .platform = g->svc.platform};
    size_t used = g->svc.mem.used;
    if (!sound_boot(&g->svc.sound, &g->svc.mem, &su, &g->cfg.set, err)) {
        budget_short(&g->svc.mem, "the sound", err);
        return false;
    }
    g->svc.carved.sound = g->svc.mem.used - used;
    return true;
}

/* Every stage stands: the start place, input, camera and play; the boot's one summary line. */
/* The courses' memory and the best times beside the settings (none kept without a settings file). */
static bool boot_tour(Game *g, SkyError *err) {
    char dir[512];
    bool files = g->cfg.opt.use_settings && settings_dir(g->cfg.opt.config, dir, sizeof dir);
    return tour_boot(&g->crs.tour, &g->svc.mem, files ? dir : NULL, err);
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
}

static void boot_finish(Game *g, const BootPlan *plan) {
    const GameOptions *o = &g->cfg.opt;
    if (o->settings_warning[0]) log_warn("%s", o->settings_warning);
    first_start_quality(g);
    plan_log(plan, g->svc.mem.size, g->svc.world, g->svc.carved.world_mesh_pool);
    /* Logged once every stage stands, so a failed boot prints its one error line only. */
    game_home_log(&g->svc.home);
    place_start(g);
    game_continue_boot(&g->cfg, &g->ses.cont, g->svc.world);
    if (g->svc.render && !o->screenshot && !o->bench_frames) {
        size_t used = g->svc.mem.used;
        shot_boot(&g->ses.shot, &g->svc.mem, o->use_settings ? o->config_dir : "", g->cfg.config_read_only, g->svc.disp_w, g->svc.disp_h);
        g->svc.carved.render += g->svc.mem.used - used;
    }
    input_init(&g->svc.input, &g->cfg.set.input);
    camera_rig_reset(&g->ses.rig, g->cfg.set.camera == GAME_CAMERA_COCKPIT ? CAMERA_COCKPIT : CAMERA_CHASE);
    if (!o->print_island) {
        bool fly_at_once = o->autopilot || o->headless || g->ses.camera_fixed || o->screenshot || o->bench_frames;
        play_init(&g->ses.play, &g->ses.flight, fly_at_once, o->demo);
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
    if (!o->print_island && !boot_jobs(g, err)) return false;
    BootPlan plan;
    if (!boot_plan(g, &plan, err) || !boot_world(g, &plan.world, err)) return false;
    if (!o->print_island &&
        (!boot_tour(g, err) || !attract_boot(&g->crs.attract, &g->cfg.opt, &g->svc.mem, g->svc.world, err)))
        return false;
    if (!o->print_island) {
        if (!boot_platform(g, err)) return false;
        if (!o->headless && !boot_renderer(g, &plan.render, err)) return false;
        if (!boot_sound(g, err)) return false;
    }
    if (o->boot_service && !o->print_island && !power_menu_register())
        log_warn("skyisles: the menu is full: Power off and Reboot are not offered");
    boot_finish(g, &plan);
    return o->print_island || game_replay_ready(&g->crs, &g->ses, &g->cfg, &g->svc, err);
}

void game_shutdown(Game *g) {
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
void game_apply_settings(Game *g, unsigned changes) {
    GameSettings *s = &g->cfg.set;
    game_replay_settings_changing(&g->crs, &g->ses, &g->cfg, changes);
    if (changes & (MENU_CHANGED_WORLD | MENU_CHANGED_QUALITY)) {
        /* world_set_params rebuilds only when a generation value changed (W5); live values apply
         * at once. The home island's field and the creation values stay the world's own. */
        WorldParams wp = *world_params(g->svc.world);
        wp.gen = s->world.gen;
        wp.live = s->world.live;
        uint32_t epoch = world_stats(g->svc.world).epoch;
        /* The world holds what its start-time size allows (world_params shows it); the player's
         * own value stays in s, is saved, and sizes the world at the next start (world_setup). */
        world_set_params(g->svc.world, &wp);
        /* A new world may put rock where the aircraft is: it is moved to open air nearby, not
         * crashed (the player changed the world, not the flight). */
        bool rebuilt = world_stats(g->svc.world).epoch != epoch;
        if (rebuilt) attract_world_changed(&g->crs.attract);   /* a preparation of the attract's replay for the old world is given up */
        if (rebuilt && g->ses.play.state != PLAY_CRASH && !sim_clear_box(g->svc.world, g->ses.flight.x, g->ses.flight.y, g->ses.flight.z, 2.0)) {
            FlightState f = g->ses.flight;
            if (sim_respawn_near(g->svc.world, f.x, f.y, f.z, f.yaw, &f)) {
                f.speed = g->ses.flight.speed;
                g->ses.flight = f;
                g->ses.rig.settled = false;
            }
        }
        if (rebuilt) play_forget_safe(&g->ses.play);
    }
    if (changes & MENU_CHANGED_FLIGHT) {
        g->ses.model.speed_limit = s->speed_limit;
        CameraMode mode = s->camera == GAME_CAMERA_COCKPIT ? CAMERA_COCKPIT : CAMERA_CHASE;
        if (mode != g->ses.rig.mode) camera_rig_reset(&g->ses.rig, mode);
    }
    if ((changes & (MENU_CHANGED_DISPLAY | MENU_CHANGED_QUALITY)) && g->svc.render) render_apply_settings(g->svc.render, &s->render);
    if (changes & MENU_CHANGED_DISPLAY) game_display_apply(g->svc.platform, &g->cfg.opt, s);
    if (changes & MENU_CHANGED_CONTROLS) input_apply_settings(&g->svc.input, &s->input);
    if (changes & MENU_CHANGED_SOUND) sound_apply_settings(&g->svc.sound, s);
    if (changes) g->cfg.settings_dirty = true;
    if (changes) game_replay_settings_changed(&g->crs, &g->ses, &g->svc, &g->cfg.set);
}

void game_save_settings(Game *g) {
    if (!g->cfg.settings_dirty || !g->cfg.opt.use_settings || !g->cfg.opt.config_dir[0] || g->cfg.config_read_only) return;
    SkyError err = {0};
    if (settings_save_keeping(&g->cfg.set, g->cfg.opt.config_dir, &g->cfg.opt.settings_damaged, &err)) {
        log_info("skyisles: settings saved to %s/%s", g->cfg.opt.config_dir, SETTINGS_FILE);
        g->cfg.settings_dirty = false;
    } else {
        log_warn("%s", err.msg);
        g->cfg.settings_dirty = false;   /* one warning per change, not one per frame */
    }
}

/* ---------------------------------------------------------------- frames */
WorldView game_world_view(const Game *g) {
    WorldView v;
    sim_world_view(&g->ses.flight, &g->ses.camera, fov_y(g), display_aspect(g), &v);
    return v;
}

void game_consume_world(World *w) {
    WorldEvent ev[64];
    size_t n;
    while ((n = world_take_events(w, ev, 64)) > 0)
        for (size_t i = 0; i < n; i++)
            if (ev[i].type == WORLD_EV_MESH_READY) world_release_mesh(w, ev[i].cx, ev[i].cz);
}

static void stream(Game *g) {
    WorldView wv = game_world_view(g);
    world_update(g->svc.world, &wv);
    if (g->svc.render) render_sync_world(g->svc.render, g->svc.world);
    else game_consume_world(g->svc.world);
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

static unsigned sound_events(const Game *g, const PlayBefore *b, const PlayRequest *rq, const PlatformEvents *ev) {
    const Play *p = &g->ses.play;
    const InputState *in = &g->svc.input.st;
    unsigned e = 0;
    if (p->crashes > b->crashes) e |= SOUND_EV_CRASH;
    if (p->respawns > b->respawns) e |= SOUND_EV_RESTART;
    if (b->overlay == OVERLAY_NONE && p->overlay == OVERLAY_MENU && !p->demo) e |= SOUND_EV_MENU_CONFIRM;
    if (b->overlay == OVERLAY_MENU && !b->demo) {
        const Menu *m = &g->ses.menu;
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

/* A mode the menu or the title asked for: its course laid and flown from its start, the menu closed. */
static void mode_start(Game *g, const GameMode *m) {
    if (!m) return;
    SkyError err = {0};
    if (!tour_start(&g->crs.tour, m, g->svc.world, g->svc.home.island, g->svc.home.codex, &g->ses.flight, &err)) {
        play_message(&g->ses.play, 6.0f, "%s", err.msg);
        log_warn("%s", err.msg);
    } else {
        play_enter_flight(&g->ses.play);
        g->ses.rig.settled = false;
        if (tour_active(&g->crs.tour)) {
            play_message(&g->ses.play, 4.0f, "%u rings: go!", g->crs.tour.course->n_rings);
            /* The recording starts at the course's start, and the best run so far flies beside. */
            g->crs.course_respawns = g->ses.play.respawns;
            game_replay_restart(&g->crs, &g->ses, &g->cfg.opt);
            game_ghost_start(&g->crs, g->crs.tour.course->id);
        } else {
            ghost_stop(&g->crs.ghost);
        }
    }
    if (g->svc.render) {
        static RenderRing rings[RENDER_RINGS_MAX];
        render_rings_set(g->svc.render, rings, tour_render_rings(&g->crs.tour, rings, RENDER_RINGS_MAX));
    }
}

/* After a frame of play: the results seen (back to free flight), the next ring marked. */
/* press_taken: the press of this frame ended the attract loop and does nothing else (it would
 * otherwise also dismiss the player's results, put back with the player's course). */
static void course_frame(Game *g, bool press_taken) {
    Tour *t = &g->crs.tour;
    if (!tour_active(t)) return;
    if (t->results && !press_taken && g->svc.input.st.pressed[GA_MENU_OK]) {   /* the results seen: back to free flight */
        game_course_end(&g->crs, g->svc.render);
        return;
    }
    if (g->svc.render) render_rings_next(g->svc.render, t->run.next, 0.5f + 0.5f * sinf((float)g->ses.flight.time_s * 6.0f));
}

void game_frame(Game *g, const PlatformEvents *ev, float dt) {
    g->svc.ev = *ev;
    /* first: the Enter of Alt+Enter is not the input's */
    if (game_display_input(&g->cfg, &g->svc.ev, g->svc.platform, &g->ses)) game_save_settings(g);
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
    continue_tick(&g->ses.cont, &g->ses.flight, g->cfg.set.camera,
                  g->ses.play.state == PLAY_FLY && g->ses.play.overlay == OVERLAY_NONE && !g->ses.play.demo && !g->cfg.opt.autopilot, dt);
    if (rq.apply) game_apply_settings(g, rq.apply);
    if (rq.dirty) g->cfg.settings_dirty = true;
    if (rq.save) game_save_settings(g);
    course_frame(g, before.demo && !g->ses.play.demo);
    /* The mode the menu chose, or the title's (play has started the flight): its course laid,
     * flown from the next frame's steps. */
    if (rq.start_mode) mode_start(g, mode_at((size_t)rq.mode));
    if (state0 == PLAY_START && !before.demo && before.overlay == OVERLAY_NONE)
        mode_start(g, tour_title_input(&g->crs.tour, &g->svc.input.st));
    if (g->svc.sound.synth) {
        SoundInput si = {.flight = &g->ses.flight, .world = g->svc.world, .mode = sound_mode(&g->ses.play),
                         .events = sound_events(g, &before, &rq, ev), .device_lost = ev->audio_lost,
                         .device_added = ev->audio_added,
                         .boost_held = g->svc.input.st.held[GA_BOOST] || g->ses.play.autopilot_boost};
        sound_frame(&g->svc.sound, &si, &g->cfg.set, dt);
    }
    stream(g);
}

/* A mode's --show shot: its course laid, the aircraft behind a ring looking through it (results:
 * the course pilot flies it first), the world waited for around it. */
static bool show_course(Game *g, const Show *what) {
    const GameMode *m = what->mode;
    SkyError err = {0};
    if (!tour_start(&g->crs.tour, m, g->svc.world, g->svc.home.island, g->svc.home.codex, &g->ses.flight, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return false;
    }
    const Course *c = g->crs.tour.course;
    uint32_t k = m->show_ring < c->n_rings ? m->show_ring : 0u;
    if (what->results) {
        tour_fly_pilot(&g->crs.tour, &g->ses.flight, &g->ses.model, g->svc.world, 900.0);
    } else {
        const CourseRing *r = &c->rings[k];
        double back = m->show_back;
        flight_init(&g->ses.flight, r->x - r->nx * back, r->y - r->ny * back + m->show_up, r->z - r->nz * back, atan2f(r->nx, -r->nz), 40.0f);
        g->crs.tour.run.next = k;
    }
    camera_chase(&g->ses.flight, &g->ses.camera);
    static RenderRing rings[RENDER_RINGS_MAX];
    render_rings_set(g->svc.render, rings, tour_render_rings(&g->crs.tour, rings, RENDER_RINGS_MAX));
    render_rings_next(g->svc.render, g->crs.tour.run.next, 1.0f);
    game_wait_world(g, 60.0);
    return play_show(&g->ses.play, &g->ses.menu, &g->cfg.set, world_params(g->svc.world), what);
}

bool game_show(Game *g, const char *what) {
    Show s;
    if (!show_find(what, &s)) return false;
    if (s.kind == SHOW_MODE) return show_course(g, &s);
    return play_show(&g->ses.play, &g->ses.menu, &g->cfg.set, world_params(g->svc.world), &s);
}

/* An aircraft instance of the view at a flight's pose (alpha below 1: translucent). */
static void add_aircraft(RenderView *v, const FlightState *f, float prop_angle, float alpha) {
    RenderInstance *in = render_view_add(v, RENDER_MODEL_AIRCRAFT);
    if (!in) return;
    in->x = f->x, in->y = f->y, in->z = f->z;
    in->yaw = f->yaw, in->pitch = f->pitch, in->roll = f->roll;
    in->prop_angle = prop_angle;
    in->tint[3] = alpha;
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
    FlightState air;   /* between the last two sim steps */
    play_view_flight(&g->ses.play, &g->ses.flight, &air);
    if (!g->cfg.opt.no_aircraft && !(g->ses.rig.mode == CAMERA_COCKPIT && !g->ses.camera_fixed))
        add_aircraft(&v, &air, air.prop_angle, 1.0f);
    FlightState gh;   /* a course's best run, when one flies; its propeller turns with the player's */
    if (ghost_view(&g->crs.ghost, g->ses.play.step_acc, &gh)) add_aircraft(&v, &gh, air.prop_angle, RENDER_GHOST_ALPHA);
    render_frame(g->svc.render, &v, g->svc.disp_w, g->svc.disp_h);
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
        stream(g);
        WorldStats ws = world_stats(g->svc.world);
        uint32_t pending = g->svc.render ? render_stats(g->svc.render).pending_uploads : 0;
        /* Done when nothing is generating or waiting for upload, the reach has settled (the
         * mesh pool pulls it in while meshes pile up, then lets it grow back step by step) and
         * the speed governor is back at rest (after a jump it coarsens far LODs and pulls the
         * reach in; each step back requests chunks again). */
        if (ws.in_flight == 0 && pending == 0 && ws.reach == last_reach && ws.gov_level == 0) {
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

/* The frame's time: the gap since the last frame, capped at 0.1 s (a slow frame drops time, it
 * is not a leap). A stall (suspend, SIGSTOP, a debugger) pauses instead: a gap over
 * PLAY_STALL_SECONDS and over four times the recent frames (a machine that takes most of a
 * second a frame, software GL under emulation, is slow, not stalled). `typical` follows the
 * frame times (seconds, each counted up to 1 s). */
static float frame_dt(Game *g, double gap_s, uint32_t frame, double *typical) {
    if (frame == 0) *typical = gap_s < 1.0 ? gap_s : 1.0;
    bool stall = frame >= 3 && gap_s > PLAY_STALL_SECONDS && gap_s > 4.0 * *typical;
    *typical = 0.9 * *typical + 0.1 * (gap_s < 1.0 ? gap_s : 1.0);
    if (stall) {
        PlayCtx c = game_play_ctx(&g->cfg, &g->svc, &g->ses, &g->crs);
        play_stall(&g->ses.play, &c, gap_s);
        return 0.0f;
    }
    return gap_s > 0.1 ? 0.1f : (float)gap_s;
}

int game_run(Game *g) {
    double last = time_now_ms(), last_log = last, run_s = 0.0, typical = 0.0;
    float longest_dt = 0.0f;
    uint32_t frames = 0, frame = 0;
    for (;;) {
        PlatformEvents ev;
        platform_poll(g->svc.platform, &ev);
        if (ev.quit) break;
        if (ev.resized) platform_drawable_size(g->svc.platform, &g->svc.disp_w, &g->svc.disp_h);
        double now = time_now_ms();
        float dt = frame_dt(g, (now - last) / 1000.0, frame++, &typical);
        if (dt > longest_dt) longest_dt = dt;
        last = now;
        game_frame(g, &ev, dt);
        if (g->ses.play.quit || g->ses.play.replay_done) break;
        overlay_draw(&g->cfg, &g->svc, &g->ses, &g->crs);
        game_draw(g);
        game_shot_capture(&g->ses, g->svc.disp_w, g->svc.disp_h);
        platform_swap(g->svc.platform);
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
    game_save_settings(g);
    game_continue_quit(&g->ses, &g->cfg);
    return game_replay_finish(&g->crs, &g->ses, &g->cfg.opt);
}
