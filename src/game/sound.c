/* skyisles game sound: the synth fed from the flight, the field and the game's state once a frame;
 * the output device (open, lost, retried every couple of seconds), rumble, the Sound page's device
 * list, and the --audio-out recording (a trace in fixed memory, rendered offline at the end). */
#include "sound.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render/render.h"
#include "settings.h"

/* ---------------------------------------------------------------- the device list */
void sound_devices_refresh(const SoundBackend *be, GameSettings *set) {
    const char *const *names;
    char keep[128];
    int n = game_audio_device_names(&names), cur = set ? set->sound.device : 0;
    snprintf(keep, sizeof keep, "%s", cur > 0 && cur < n ? names[cur] : "default");
    static char found[GAME_AUDIO_DEVICES_MAX][128];   /* main thread, boot and hot-plug only */
    int k = be && be->devices ? be->devices(be->ctx, found, GAME_AUDIO_DEVICES_MAX - 2) : 0;
    /* The chosen device by name: still there (perhaps at another index), or kept listed while it
     * is away, so neither the menu nor the file loses the player's choice. */
    bool present = !strcmp(keep, "default");
    for (int i = 0; i < k && !present; i++) present = !strcmp(found[i], keep);
    if (!present) snprintf(found[k++], sizeof found[0], "%s", keep);
    game_audio_devices_set(found, k);
    if (!set) return;
    n = game_audio_device_names(&names);
    set->sound.device = 0;
    for (int i = 1; i < n; i++)
        if (!strcmp(names[i], keep)) set->sound.device = i;
}

/* The device a settings file names (its `sound:` section's `device:` line; the game writes one
 * `key: value  # help` per line), listed before the file is read: the saved choice then reads
 * back whether or not that device is plugged in now, and sound_boot adds SDL's list. */
void sound_devices_prepare(const char *config_dir) {
    char path[600], line[400], name[128] = "";
    if (!config_dir || !config_dir[0]) return;
    snprintf(path, sizeof path, "%s/%s", config_dir, SETTINGS_FILE);
    FILE *f = fopen(path, "r");
    if (!f) return;
    bool in_sound = false;
    while (fgets(line, sizeof line, f)) {
        if (line[0] != ' ' && line[0] != '#' && line[0] != '\n') in_sound = !strncmp(line, "sound:", 6);
        const char *v = strstr(line, "device:");
        if (!in_sound || !v || line[0] != ' ') continue;
        v += 7;
        while (*v == ' ' || *v == '"' || *v == '\'') v++;
        snprintf(name, sizeof name, "%s", v);
        char *end = strstr(name, " #");
        if (end) *end = 0;
        size_t n = strlen(name);
        while (n && (name[n - 1] == '\n' || name[n - 1] == ' ' || name[n - 1] == '"' || name[n - 1] == '\'')) name[--n] = 0;
    }
    fclose(f);
    if (name[0] && strcmp(name, "default")) game_audio_devices_set((const char(*)[128])name, 1);
}

/* ---------------------------------------------------------------- the platform backend */
static bool plat_open(void *ctx, const PlatformAudioSpec *spec, PlatformAudioGot *got, char *why, size_t n) {
    (void)ctx;
    return platform_audio_open(spec, got, why, n);
}
static void plat_close(void *ctx) { (void)ctx; platform_audio_close(); }
static int plat_devices(void *ctx, char (*names)[128], int max) { (void)ctx; return platform_audio_devices(names, max); }
static void plat_rumble(void *ctx, float lo, float hi, uint32_t ms) {
    if (ctx) platform_rumble((Platform *)ctx, lo, hi, ms);
}

SoundBackend sound_backend_platform(Platform *p) {
    return (SoundBackend){.open = plat_open, .close = plat_close, .devices = plat_devices, .rumble = plat_rumble, .ctx = p};
}

/* ---------------------------------------------------------------- the device */
/* SDL's audio thread: the synth renders straight into SDL's buffer (no heap, no lock). */
static void mix(void *user, int16_t *out, uint32_t frames) { audio_mixer_render((AudioSynth *)user, out, frames); }

static void want_from_settings(Sound *s, const GameSettings *set) {
    const char *const *names;
    int n = game_audio_device_names(&names), i = set->sound.device;
    snprintf(s->want_name, sizeof s->want_name, "%s", i >= 0 && i < n ? names[i] : "default");
}

static void close_device(Sound *s) {
    if (s->open && s->be.close) s->be.close(s->be.ctx);
    s->open = false;
}

/* One attempt; a failure logs one line per outage (not one per retry). */
static bool open_device(Sound *s, bool quiet) {
    close_device(s);
    char why[200] = "";
    PlatformAudioSpec spec = {.device = s->want_name, .rate = SOUND_RATE, .channels = 2, .frames = SOUND_BUFFER_FRAMES,
                              .max_rate = SOUND_RATE, .fn = mix, .user = s->synth};
    PlatformAudioGot got;
    bool named = strcmp(s->want_name, "default") != 0;
    bool ok = s->be.open && s->be.open(s->be.ctx, &spec, &got, why, sizeof why);
    if (!ok && named) {
        /* The saved device is not here: the default one, said once (the choice is kept). */
        char why_named[200];
        snprintf(why_named, sizeof why_named, "%s", why);
        spec.device = "default";
        ok = s->be.open(s->be.ctx, &spec, &got, why, sizeof why);
        if (ok && !s->warned)
            log_warn("skyisles: sound: the output device '%s' is not here (%s): using the default", s->want_name, why_named);
        else if (!ok && !s->warned && !quiet)
            log_warn("skyisles: sound: neither '%s' (%s) nor the default device opens (%s): playing silent (tried again "
                     "every %.0f s)", s->want_name, why_named, why, (double)SOUND_RETRY_SECONDS);
        if (!ok) s->warned = true;
    }
    if (!ok) {
        if (!s->warned && !quiet)
            log_warn("skyisles: sound: %s: playing silent (tried again every %.0f s)", why, (double)SOUND_RETRY_SECONDS);
        s->warned = true;
        s->retry_s = SOUND_RETRY_SECONDS;
        return false;
    }
    if (got.rate != audio_rate(s->synth) || got.channels != audio_channels(s->synth)) {
        /* Another format than the synth was made for: re-set it while nothing renders. */
        s->be.close(s->be.ctx);
        SkyError err = {0};
        if (!audio_reconfigure(s->synth, got.rate, got.channels, &err)) {
            log_warn("skyisles: sound: %s", err.msg);
            s->warned = true;
            s->retry_s = SOUND_RETRY_SECONDS;
            return false;
        }
        if (!s->be.open(s->be.ctx, &spec, &got, why, sizeof why)) {
            s->retry_s = SOUND_RETRY_SECONDS;
            return false;
        }
    }
    s->got = got;
    s->open = true;
    s->warned = false;
    s->reopens++;
    log_info("skyisles: sound: %s on %s, %u Hz, %u channel%s, %u-frame buffer (%.0f ms)", got.device, got.driver,
             got.rate, got.channels, got.channels == 1 ? "" : "s", got.frames,
             got.rate ? got.frames * 1000.0 / got.rate : 0.0);
    return true;
}

/* ---------------------------------------------------------------- boot */
bool sound_boot(Sound *s, MemBudget *mem, const SoundSetup *setup, GameSettings *set, SkyError *err) {
    memset(s, 0, sizeof *s);
    bool record = setup->record_path && setup->record_path[0];
    if (!setup->device && !record) return true;
    s->be = setup->backend ? *setup->backend : sound_backend_platform(setup->platform);
    /* A recording renders one block per 60 Hz frame (the game's fixed step), as it was fed. */
    AudioConfig cfg = {.rate = SOUND_RATE, .channels = 2, .max_rate = SOUND_RATE, .block_frames = record ? SOUND_RATE / 60u : 0};
    s->synth = audio_create(mem, &cfg, err);
    if (!s->synth) return false;
    if (record) {
        double secs = setup->record_seconds > 0.0 ? setup->record_seconds : 60.0;
        if (secs > SOUND_RECORD_SECONDS_MAX) secs = SOUND_RECORD_SECONDS_MAX;
        uint32_t keys = (uint32_t)(secs * 60.0) + 64, events = 1024, volumes = 256;
        AudioTraceKey *k = mem_carve(mem, keys * sizeof *k, 16);
        AudioTraceEvent *e = mem_carve(mem, events * sizeof *e, 16);
        AudioTraceVolume *v = mem_carve(mem, volumes * sizeof *v, 16);
        if (!k || !e || !v) {
            sky_error_set(err, SKY_ERR_INPUT, "skyisles: the memory budget cannot hold a %.0f s --audio-out recording: "
                                              "raise --mem MB or shorten --seconds", secs);
            return false;
        }
        audio_trace_init(&s->trace, k, keys, e, events, v, volumes);
        s->trace.rate = SOUND_RATE;
        s->trace.block_frames = SOUND_RATE / 60u;
        snprintf(s->record_path, sizeof s->record_path, "%s", setup->record_path);
        s->recording = true;
    }
    s->want_device = setup->device;
    if (s->want_device) {
        sound_devices_refresh(&s->be, set);
        want_from_settings(s, set);
        open_device(s, false);
    }
    return true;
}

void sound_shutdown(Sound *s) {
    if (s->frames > 0)   /* the cost cap of the field probes (0.05 ms a frame), measured in every run */
        log_info("skyisles: sound: field probes %.4f ms of CPU a frame on average, %.4f ms at most (%llu frames); "
                 "%u device opens, %u losses, %u rumbles",
                 s->probe_ms_sum / (double)s->frames, s->probe_ms_max, (unsigned long long)s->frames, s->reopens,
                 s->losses, s->rumbles);
    close_device(s);
    memset(s, 0, sizeof *s);
}

void sound_apply_settings(Sound *s, const GameSettings *set) {
    if (!s->synth || !s->want_device) return;
    char before[128];
    snprintf(before, sizeof before, "%s", s->want_name);
    want_from_settings(s, set);
    if (strcmp(before, s->want_name)) {
        s->warned = false;
        open_device(s, false);
    }
}

/* ---------------------------------------------------------------- probes */
float sound_depth_at(double y) {
    static const float sky[3] = {0.0f, 0.0f, 0.0f};   /* only the mix factor is used */
    RenderAtmosphere a;
    render_atmosphere(y, sky, &a);
    return a.abyss_mix;
}

/* The ring of rays: the six axes and the eight diagonals (unit length). */
#define D 0.57735027f
static const float k_rays[SOUND_ENCLOSURE_RAYS][3] = {
    {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1},
    {D, D, D}, {D, D, -D}, {D, -D, D}, {D, -D, -D}, {-D, D, D}, {-D, D, -D}, {-D, -D, D}, {-D, -D, -D},
};
#undef D
static const float k_steps[] = {2.5f, 7.0f, 16.0f};   /* metres along a ray: three samples keep the cost cap */
#define REACH 20.0f                                          /* rock farther than this is no rock */

void sound_probe(SoundProbe *pr, const World *w, const FlightState *f) {
    for (int r = 0; r < SOUND_RAYS_PER_FRAME; r++) {
        uint32_t i = pr->next_ray;
        pr->next_ray = (pr->next_ray + 1) % SOUND_ENCLOSURE_RAYS;
        float hit = 0.0f;
        for (size_t k = 0; k < sizeof k_steps / sizeof k_steps[0] && hit == 0.0f; k++) {
            float d = k_steps[k];
            if (world_solid_at(w, f->x + k_rays[i][0] * d, f->y + k_rays[i][1] * d, f->z + k_rays[i][2] * d)) hit = d;
        }
        pr->ray_hit[i] = hit;
    }
    /* Enclosure: the share of rays that meet rock, nearer rock counting more; terrain_near: the
     * nearest rock on any ray. A tunnel closes all but the two ways along it (~0.85). */
    float closed = 0.0f, nearest = REACH;
    for (int i = 0; i < SOUND_ENCLOSURE_RAYS; i++) {
        float d = pr->ray_hit[i];
        if (d <= 0.0f) continue;
        closed += d <= 8.0f ? 1.0f : 0.6f;
        if (d < nearest) nearest = d;
    }
    pr->enclosure = closed / (float)SOUND_ENCLOSURE_RAYS;
    pr->terrain_near = 1.0f - nearest / REACH;
    /* The cloud at the aircraft and 6 m above and below it: a soft edge rather than a switch. */
    const WorldGenParams *gp = &world_params(w)->gen;
    uint32_t c = pr->next_cloud;
    pr->next_cloud = (c + 1) % 3;
    pr->cloud_in[c] = world_cloud_at_params(gp, f->time_s, f->x, f->y + 6.0 * ((double)c - 1.0), f->z);
    pr->cloud = (float)(pr->cloud_in[0] + pr->cloud_in[1] + pr->cloud_in[2]) / 3.0f;
    pr->depth = sound_depth_at(f->y);
}

/* ---------------------------------------------------------------- frames */
static double thread_ms(void) { return (double)time_thread_cpu_ns() / 1e6; }

static void record_event(Sound *s, int id, float arg) {
    if (s->recording && !audio_trace_add_event(&s->trace, s->t, id, arg)) s->record_full = true;
}

void sound_event(Sound *s, int id, float arg) {
    if (!s->synth) return;
    if (s->open) audio_event(s->synth, id, arg);
    record_event(s, id, arg);
}

static void rumble(Sound *s, const GameSettings *set, float lo, float hi, uint32_t ms) {
    if (!set->sound.rumble || !s->be.rumble) return;
    float k = set->sound.rumble_strength;
    s->be.rumble(s->be.ctx, lo * k, hi * k, ms);
    s->rumbles++;
}

static void device_health(Sound *s, const SoundInput *in, GameSettings *set, float dt) {
    if (!s->want_device) return;
    /* A new output (a USB DAC, an HDMI TV switched on) joins the Sound page's list; the choice
     * stays the same device by name. */
    if (in->device_added) sound_devices_refresh(&s->be, set);
    if (in->device_lost && s->open) {
        /* The game runs on silent; the retry timer brings the sound back. */
        close_device(s);
        s->losses++;
        s->retry_s = SOUND_RETRY_SECONDS;
        log_warn("skyisles: sound: the output device '%s' went away: playing silent, trying again every %.0f s",
                 s->got.device, (double)SOUND_RETRY_SECONDS);
        s->warned = true;
    }
    if (s->open) return;
    if (in->device_added) s->retry_s = 0.0f;   /* a device appeared: try now */
    s->retry_s -= dt;
    if (s->retry_s <= 0.0f) open_device(s, true);
}

/* How near the nearest waterfall of the island under the aircraft is (one the world holds baked;
 * islands are far apart, so no other island's falls is within hearing), 0..1:
 * (1 - d / SOUND_FALLS_HEAR_M)^2 of the distance d from the aircraft to its sheet (as wide as its
 * lip, from its top down to where the mesher lets it fade). */
#define SOUND_FALLS_HEAR_M 220.0
#define SOUND_FALLS_DROP_M 160.0
float sound_falls_near(const World *w, double x, double y, double z) {
    WorldIsland wi;
    if (!w || !world_island_held(w, x, z, &wi)) return 0.0f;
    const IslandField *h = wi.field;
    if (!h || !h->water_dm || !h->n_falls) return 0.0f;
    double sea = wi.sea, best = 0.0;
    x -= (double)wi.ox;
    z -= (double)wi.oz;
    for (uint32_t k = 0; k < h->n_falls; k++) {
        const IslandFieldFalls *fl = &h->falls[k];
        double dx = x - (h->centre_x + fl->x_m), dz = z - (h->centre_z + fl->z_m), top = sea + fl->top_m;
        double dh = sqrt(dx * dx + dz * dz) - 0.5 * fl->width_m, dy = y > top ? y - top : 0.0;
        if (y < top - SOUND_FALLS_DROP_M) dy = top - SOUND_FALLS_DROP_M - y;
        if (dh < 0.0) dh = 0.0;
        double near = 1.0 - sqrt(dh * dh + dy * dy) / SOUND_FALLS_HEAR_M;
        if (near > best) best = near;
    }
    return (float)(best * best);
}

static void feed_params(Sound *s, const SoundInput *in, const GameSettings *set) {
    const FlightState *f = in->flight;
    AudioParams p = audio_params_default();
    p.throttle = f->throttle;
    p.airspeed = f->speed;
    p.boost = f->boost;
    p.cloud = s->probe.cloud;
    p.terrain_near = s->probe.terrain_near;
    p.enclosure = s->probe.enclosure;
    p.depth = s->probe.depth;
    p.mode = in->mode;
    p.master = set->sound.master;
    p.engine = set->sound.engine;
    p.wind = set->sound.wind;
    p.effects = set->sound.effects;
    p.mute = set->sound.mute;
    p.falls = sound_falls_near(in->world, f->x, f->y, f->z);
    if (in->weather) {
        p.rain = in->weather->rain;
        p.air_wind = in->weather->wind_speed + in->weather->gust;
    }
    s->params = p;
    if (s->open) audio_publish(s->synth, &p);
    if (!s->recording || s->record_full) return;
    AudioTraceVolume v = {s->t, p.master, p.engine, p.wind, p.effects, p.mute};
    bool changed = !s->vol_any || v.master != s->vol_last.master || v.engine != s->vol_last.engine ||
                   v.wind != s->vol_last.wind || v.effects != s->vol_last.effects || v.mute != s->vol_last.mute;
    if (changed && audio_trace_add_volume(&s->trace, &v)) {
        s->vol_last = v;
        s->vol_any = true;
    }
    if (!audio_trace_add_key(&s->trace, s->t, &p)) {
        s->record_full = true;
        log_warn("skyisles: sound: the --audio-out recording is full at %.1f s: the WAV ends there", s->t);
    }
}

static void frame_events(Sound *s, unsigned ev) {
    static const struct { unsigned bit; int id; } k_map[] = {
        {SOUND_EV_CRASH, AUDIO_EVENT_CRASH}, {SOUND_EV_RESTART, AUDIO_EVENT_RESTART},
        {SOUND_EV_MENU_MOVE, AUDIO_EVENT_MENU_MOVE}, {SOUND_EV_MENU_CONFIRM, AUDIO_EVENT_MENU_CONFIRM},
        {SOUND_EV_MENU_BACK, AUDIO_EVENT_MENU_BACK}, {SOUND_EV_PAD_PLUGGED, AUDIO_EVENT_PAD_PLUGGED},
        {SOUND_EV_PAD_UNPLUGGED, AUDIO_EVENT_PAD_UNPLUGGED},
    };
    for (size_t i = 0; i < sizeof k_map / sizeof k_map[0]; i++)
        if (ev & k_map[i].bit) sound_event(s, k_map[i].id, 0.0f);
}

/* Crash (strong, short), the boost's start, each sonic boom, heavy buffeting near rock. */
static void frame_rumble(Sound *s, const SoundInput *in, const GameSettings *set, float dt) {
    if (in->events & SOUND_EV_CRASH) rumble(s, set, 1.0f, 1.0f, 250);
    float b = in->flight->boost;
    if (in->boost_held && b > 0.02f && s->boost_prev <= 0.02f) rumble(s, set, 0.25f, 0.6f, 160);
    s->boost_prev = b;
    uint32_t booms = audio_stats(s->synth).booms;
    if (booms > s->booms_seen) rumble(s, set, 0.9f, 0.5f, 320);
    s->booms_seen = booms;
    s->buffet_timer -= dt;
    if (s->params.terrain_near > 0.7f && in->mode == AUDIO_MODE_FLIGHT && s->buffet_timer <= 0.0f) {
        float k = (s->params.terrain_near - 0.7f) / 0.3f;
        rumble(s, set, 0.2f + 0.4f * k, 0.1f, 140);
        s->buffet_timer = 0.1f;
    }
}

/* A sound repeated while `on` every `period` seconds (its first at once); false otherwise. */
static bool tick(float *timer, bool on, float period, float dt) {
    if (!on) {
        *timer = 0.0f;
        return false;
    }
    *timer -= dt;
    if (*timer > 0.0f) return false;
    *timer = period;
    return true;
}

/* The wheels and the stall: the touchdown's thump by its sink (and a rumble), the tyres ticking
 * faster the faster they roll, the brakes' hiss, the stall horn. */
static void frame_ground(Sound *s, const SoundInput *in, const GameSettings *set, float dt) {
    const FlightState *f = in->flight;
    if (in->touchdowns > s->touchdowns_seen) {
        bool hard = in->touch_rating == SIM_TOUCH_HARD;
        sound_event(s, hard ? AUDIO_EVENT_TOUCHDOWN_HARD : AUDIO_EVENT_TOUCHDOWN, in->touch_rating == SIM_TOUCH_SMOOTH ? 1.25f : 1.0f);
        float k = in->touch_sink / SIM_SINK_MAX;
        k = k < 0.15f ? 0.15f : (k > 1.0f ? 1.0f : k);
        rumble(s, set, 0.1f + 0.7f * k, 0.3f * k, (uint32_t)(100.0f + 200.0f * k));
    }
    s->touchdowns_seen = in->touchdowns;
    bool rolling = f->on_ground && f->speed > 0.5f && in->mode == AUDIO_MODE_FLIGHT;
    float seam = rolling ? 1.5f / f->speed : 1.0f;   /* a tick every 1.5 m of ground */
    if (tick(&s->tyre_timer, rolling, seam < 0.06f ? 0.06f : (seam > 0.5f ? 0.5f : seam), dt))
        sound_event(s, AUDIO_EVENT_TYRE, 0.8f + f->speed / 40.0f);
    if (tick(&s->brake_timer, rolling && in->brake, 0.12f, dt)) sound_event(s, AUDIO_EVENT_BRAKE, 1.0f);
    if (tick(&s->horn_timer, in->stall && in->mode == AUDIO_MODE_FLIGHT, 0.45f, dt)) sound_event(s, AUDIO_EVENT_STALL_HORN, 1.0f);
}

/* A new strike's thunder set on its way (a far one deeper); those due are sent. */
static void frame_thunder(Sound *s, const WeatherState *w, float dt) {
    if (w && w->flash_id && w->flash_id != s->thunder_seen) {
        s->thunder_seen = w->flash_id;
        int k = 0;
        for (int i = 1; i < SOUND_THUNDER_MAX; i++)
            if (s->thunder_in[i] < s->thunder_in[k]) k = i;   /* a free slot (0), else the soonest */
        if (s->thunder_in[k] > 0.0f) sound_event(s, AUDIO_EVENT_THUNDER, s->thunder_pitch[k]);
        float d = w->flash_dist / 3000.0f;
        s->thunder_in[k] = w->flash_dist / WEATHER_SOUND_SPEED + 0.001f;
        s->thunder_pitch[k] = 1.0f - 0.4f * (d > 1.0f ? 1.0f : d);
    }
    for (int i = 0; i < SOUND_THUNDER_MAX; i++) {
        if (s->thunder_in[i] <= 0.0f) continue;
        s->thunder_in[i] -= dt;
        if (s->thunder_in[i] <= 0.0f) {
            s->thunder_in[i] = 0.0f;
            sound_event(s, AUDIO_EVENT_THUNDER, s->thunder_pitch[i]);
        }
    }
}

void sound_frame(Sound *s, const SoundInput *in, GameSettings *set, float dt) {
    if (!s->synth) return;
    device_health(s, in, set, dt);
    /* This thread's CPU time: what the probes cost, without the time a loaded machine gave
     * another process in between (that is the frame's wall time, not the probes'). */
    double c0 = thread_ms();
    sound_probe(&s->probe, in->world, in->flight);
    double ms = thread_ms() - c0;
    s->probe_ms_last = ms;
    s->probe_ms_sum += ms;
    if (ms > s->probe_ms_max && s->frames > 30) s->probe_ms_max = ms;
    s->frames++;
    feed_params(s, in, set);
    frame_events(s, in->events);
    frame_thunder(s, in->weather, dt);
    frame_rumble(s, in, set, dt);
    frame_ground(s, in, set, dt);
    s->t += dt;
}

/* ---------------------------------------------------------------- --audio-out */
bool sound_finish(Sound *s, SkyError *err) {
    if (!s->synth || !s->recording) return true;
    s->recording = false;
    close_device(s);   /* the synth renders the recording now, on this thread alone */
    s->trace.end_t = s->t;
    /* Fresh voices: the same recording renders the same bytes whatever the device played. */
    if (!audio_reconfigure(s->synth, SOUND_RATE, 2, err)) return false;
    size_t frames = audio_trace_frames(&s->trace, SOUND_RATE, audio_block_frames(s->synth));
    int16_t *pcm = malloc(frames * 2 * sizeof *pcm + 1);   /* once, after the run: not the frame path */
    if (!pcm) {
        sky_error_set(err, SKY_ERR_START, "skyisles: out of memory for the %.0f s --audio-out render", s->t);
        return false;
    }
    uint32_t booms0 = audio_stats(s->synth).booms;
    size_t n = audio_render_trace(s->synth, &s->trace, pcm, frames);
    bool ok = audio_wav_write(s->record_path, pcm, n, 2, SOUND_RATE, err);
    if (ok)
        log_info("skyisles: sound: wrote %s (%.2f s, %u keys, %u events, %u booms, hash %016llx)", s->record_path,
                 (double)n / SOUND_RATE, s->trace.n_keys, s->trace.n_events, audio_stats(s->synth).booms - booms0,
                 (unsigned long long)audio_samples_hash(pcm, n * 2));
    free(pcm);
    /* The recording's inputs beside it: build/audiorender re-renders them, a voice alone
     * (--voice engine) or as a spectrogram (docs/audio.md). */
    char tpath[sizeof s->record_path + 8];
    snprintf(tpath, sizeof tpath, "%s.trace", s->record_path);
    if (ok && !audio_trace_save(&s->trace, tpath, err)) ok = false;
    return ok;
}
