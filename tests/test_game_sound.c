/* Tests for the game's sound layer (src/game/sound.c): the game booted headless with no audio
 * driver and with SDL's dummy one keeps running (and the mixer callback makes no heap call); a
 * device removed and brought back through the backend seam (SDL's dummy driver cannot remove one)
 * keeps the game running and the sound resumes, in another format too; events and rumble; the
 * field probes in open air and in rock and their cost; the Sound page; --audio-out's WAV. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <SDL2/SDL.h>

#include "game/game.h"
#include "support/alloc_count.h"
#include "support/game_input.h"
#include "support/test_args.h"

static Game g_game;
static const float DT = 1.0f / 60.0f;

static void frames(int n) { fixture_frames(&g_game, n, DT); }

static bool boot(bool audio) {
    static GameOptions opt;
    bool exit_now;
    TestArgs a = test_args("--headless", "--autopilot", "--view-radius", "3", "--mem", "96", audio ? "--audio" : NULL);
    if (!game_parse_args(a.argc, a.argv, &opt, &exit_now)) return false;
    SkyError err = {0};
    if (!game_boot(&g_game, &opt, &err)) {
        fprintf(stderr, "boot: %s\n", err.msg);
        return false;
    }
    return true;
}

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ---------------------------------------------------------------- real SDL drivers */
static void test_no_driver_keeps_the_game_running(void **state) {
    (void)state;
    setenv("SDL_AUDIODRIVER", "no-such-driver", 1);
    assert_true(boot(true));
    assert_non_null(g_game.svc.sound.synth);   /* silent, but ready for a device that comes */
    assert_false(g_game.svc.sound.open);
    uint64_t before = g_game.ses.play.frames;
    frames(200);   /* 3.3 s: retried at least once, quietly */
    assert_int_equal(g_game.ses.play.frames - before, 200);
    assert_false(g_game.svc.sound.open);
    game_shutdown(&g_game);
    unsetenv("SDL_AUDIODRIVER");
}

static void test_dummy_driver_plays_without_heap(void **state) {
    (void)state;
    setenv("SDL_AUDIODRIVER", "dummy", 1);
    assert_true(boot(true));
    assert_true(g_game.svc.sound.open);
    printf("  dummy: %u Hz, %u channels, %u-frame buffer on %s\n", g_game.svc.sound.got.rate, g_game.svc.sound.got.channels,
           g_game.svc.sound.got.frames, g_game.svc.sound.got.driver);
    frames(30);
    uint32_t blocks0 = audio_stats(g_game.svc.sound.synth).blocks;
    /* The game's frames and SDL's audio thread together, counted on every thread. */
    alloc_count_start();
    for (int i = 0; i < 30; i++) {
        frames(1);
        sleep_ms(8);
    }
    uint64_t heap = alloc_count_stop();
    AudioStats st = audio_stats(g_game.svc.sound.synth);
    printf("  %u callback blocks in 30 frames, %llu heap calls\n", st.blocks - blocks0, (unsigned long long)heap);
    assert_true(st.blocks > blocks0);
    assert_true(st.snapshots > 0);
    assert_int_equal(heap, 0);
    game_shutdown(&g_game);
    unsetenv("SDL_AUDIODRIVER");
}

/* ---------------------------------------------------------------- the seam */
typedef struct Fake {
    bool present;
    bool only_default;   /* the named outputs are unplugged */
    uint32_t rate, channels;
    PlatformAudioFn fn;
    void *user;
    int opens, closes, rumbles;
    float last_low;
} Fake;

static bool fake_open(void *ctx, const PlatformAudioSpec *spec, PlatformAudioGot *got, char *why, size_t n) {
    Fake *f = ctx;
    bool named = spec->device && strcmp(spec->device, "default");
    if (!f->present || (named && f->only_default)) {
        snprintf(why, n, "fake: no device");
        return false;
    }
    memset(got, 0, sizeof *got);
    got->rate = f->rate;
    got->channels = f->channels;
    got->frames = 1024;
    snprintf(got->device, sizeof got->device, "%s", spec->device ? spec->device : "default");
    snprintf(got->driver, sizeof got->driver, "fake");
    f->fn = spec->fn;
    f->user = spec->user;
    f->opens++;
    return true;
}
static void fake_close(void *ctx) {
    Fake *f = ctx;
    f->fn = NULL;
    f->closes++;
}
static int fake_devices(void *ctx, char (*names)[128], int max) {
    (void)ctx;
    int n = max < 2 ? max : 2;
    if (n > 0) snprintf(names[0], 128, "vc4-hdmi");
    if (n > 1) snprintf(names[1], 128, "bcm2835 Headphones");
    return n;
}
static void fake_rumble(void *ctx, float lo, float hi, uint32_t ms) {
    (void)hi;
    (void)ms;
    Fake *f = ctx;
    f->rumbles++;
    f->last_low = lo;
}

/* What SDL's thread would do: one callback's worth, and its peak. */
static int pull(Fake *f, uint32_t frames) {
    static int16_t buf[4096 * 2];
    if (!f->fn) return -1;
    f->fn(f->user, buf, frames);
    int peak = 0;
    for (uint32_t i = 0; i < frames * f->channels; i++) peak = abs(buf[i]) > peak ? abs(buf[i]) : peak;
    return peak;
}

typedef struct Rig {
    MemBudget mem;
    Fake fake;
    Sound s;
    GameSettings set;
    FlightState fl;
} Rig;

static Rig g_rig;

static void feed(Rig *r, unsigned events, bool lost, bool added, int n) {
    for (int i = 0; i < n; i++) {
        SoundInput in = {.flight = &r->fl, .world = g_game.svc.world, .mode = AUDIO_MODE_FLIGHT, .events = i ? 0 : events,
                         .device_lost = lost && i == 0, .device_added = added && i == 0};
        sound_frame(&r->s, &in, &r->set, DT);
    }
}

static void rig_boot(Rig *r) {
    memset(r, 0, sizeof *r);
    SkyError err = {0};
    assert_true(mem_budget_init(&r->mem, 8u << 20, &err));
    r->fake = (Fake){.present = true, .rate = 48000, .channels = 2};
    SoundBackend be = {fake_open, fake_close, fake_devices, fake_rumble, &r->fake};
    settings_default(&r->set);
    r->fl = g_game.svc.spawn.flight;
    r->fl.throttle = 0.7f;
    r->fl.speed = 90.0f;
    SoundSetup su = {.device = true, .backend = &be};
    assert_true(sound_boot(&r->s, &r->mem, &su, &r->set, &err));
    assert_true(r->s.open);
}

static void rig_free(Rig *r) {
    sound_shutdown(&r->s);
    mem_budget_release(&r->mem);
}

static void test_device_removed_and_back(void **state) {
    (void)state;
    Rig *r = &g_rig;
    rig_boot(r);
    feed(r, 0, false, false, 10);
    assert_true(pull(&r->fake, 1024) > 0);   /* the engine sounds */
    /* Removed mid-flight: silent, the frames go on, retries fail while it is away. */
    r->fake.present = false;
    feed(r, 0, true, false, 1);
    assert_false(r->s.open);
    assert_int_equal(pull(&r->fake, 1024), -1);
    feed(r, 0, false, false, 60 * 5);
    assert_false(r->s.open);
    assert_int_equal(r->s.losses, 1);
    /* Back, at 44.1 kHz mono: opened within a retry period, the synth re-set for it. */
    r->fake.present = true;
    r->fake.rate = 44100;
    r->fake.channels = 1;
    feed(r, 0, false, false, (int)(SOUND_RETRY_SECONDS * 60.0f) + 2);
    assert_true(r->s.open);
    assert_int_equal(audio_rate(r->s.synth), 44100);
    assert_int_equal(audio_channels(r->s.synth), 1);
    int peak = 0;
    for (int i = 0; i < 20; i++) {
        feed(r, 0, false, false, 1);
        int p = pull(&r->fake, 735);
        peak = p > peak ? p : peak;
    }
    printf("  removed, back after %d opens at 44.1 kHz mono: peak %d\n", r->fake.opens, peak);
    assert_true(peak > 0);
    /* A device appearing is tried at once, not after the retry period. */
    r->fake.present = false;
    feed(r, 0, true, false, 1);
    r->fake.present = true;
    game_audio_devices_set(NULL, 0);   /* as if the list were stale: the event refreshes it */
    feed(r, 0, false, true, 1);
    assert_true(r->s.open);
    const char *const *names;
    assert_int_equal(game_audio_device_names(&names), 3);
    rig_free(r);
}

static void test_events_and_rumble(void **state) {
    (void)state;
    Rig *r = &g_rig;
    rig_boot(r);
    feed(r, 0, false, false, 2);
    pull(&r->fake, 1024);
    uint32_t ev0 = audio_stats(r->s.synth).events;
    feed(r, SOUND_EV_CRASH | SOUND_EV_MENU_MOVE, false, false, 1);
    pull(&r->fake, 1024);
    assert_int_equal(audio_stats(r->s.synth).events - ev0, 2);
    assert_int_equal(r->fake.rumbles, 1);   /* the crash */
    assert_true(fabsf(r->fake.last_low - r->set.sound.rumble_strength) < 1e-6f);
    /* Rumble off: nothing reaches the pad. */
    r->set.sound.rumble = false;
    feed(r, SOUND_EV_CRASH, false, false, 1);
    assert_int_equal(r->fake.rumbles, 1);
    /* A sonic boom shakes the pad once. */
    r->set.sound.rumble = true;
    sound_event(&r->s, AUDIO_EVENT_BOOM, 0.0f);
    pull(&r->fake, 1024);
    feed(r, 0, false, false, 1);
    assert_int_equal(r->fake.rumbles, 2);
    /* The output device row: "default" and the backend's two, and choosing one reopens. */
    const char *const *names;
    assert_int_equal(game_audio_device_names(&names), 3);
    assert_string_equal(names[2], "bcm2835 Headphones");
    int opens = r->fake.opens;
    r->set.sound.device = 2;
    sound_apply_settings(&r->s, &r->set);
    assert_int_equal(r->fake.opens, opens + 1);
    assert_string_equal(r->s.got.device, "bcm2835 Headphones");
    /* The chosen output unplugged: the default plays, the choice stays. */
    r->fake.only_default = true;
    r->set.sound.device = 1;
    sound_apply_settings(&r->s, &r->set);
    assert_true(r->s.open);
    assert_string_equal(r->s.got.device, "default");
    assert_int_equal(r->set.sound.device, 1);
    rig_free(r);
}

/* Frames of the wheels' sounds: the events the synth took over n frames of SoundInput `in`. */
static uint32_t ground_events(Rig *r, SoundInput in, int n) {
    uint32_t ev0 = audio_stats(r->s.synth).events;
    for (int i = 0; i < n; i++) {
        sound_frame(&r->s, &in, &r->set, DT);
        pull(&r->fake, 800);
    }
    return audio_stats(r->s.synth).events - ev0;
}

/* A touchdown thumps once and shakes the pad harder the harder it was; rolling ticks the tyres
 * faster the faster it rolls, the brakes hiss besides, stopped is silent; the stall horn beeps
 * while the warning lasts. */
static void test_wheels_and_stall_sounds(void **state) {
    (void)state;
    Rig *r = &g_rig;
    rig_boot(r);
    r->fl.on_ground = false;
    SoundInput in = {.flight = &r->fl, .world = g_game.svc.world, .mode = AUDIO_MODE_FLIGHT};
    assert_int_equal(ground_events(r, in, 30), 0);
    in.touchdowns = 1, in.touch_rating = SIM_TOUCH_SMOOTH, in.touch_sink = 0.5f;
    int rumbles = r->fake.rumbles;
    assert_int_equal(ground_events(r, in, 30), 1);   /* once, not every frame */
    assert_int_equal(r->fake.rumbles, rumbles + 1);
    float soft = r->fake.last_low;
    in.touchdowns = 2, in.touch_rating = SIM_TOUCH_HARD, in.touch_sink = 3.5f;
    assert_int_equal(ground_events(r, in, 1), 1);
    assert_true(r->fake.last_low > soft);
    r->fl.on_ground = true;
    r->fl.speed = 5.0f;
    uint32_t slow = ground_events(r, in, 120);
    r->fl.speed = 20.0f;
    uint32_t fast = ground_events(r, in, 120);
    in.brake = true;
    uint32_t braking = ground_events(r, in, 120);
    r->fl.speed = 0.0f;
    uint32_t stopped = ground_events(r, in, 120);
    printf("  tyre ticks in 2 s: %u at 5 m/s, %u at 20 m/s, %u braking, %u stopped\n", slow, fast, braking, stopped);
    assert_true(slow >= 5 && fast > slow && braking > fast && stopped == 0);
    r->fl.on_ground = false;
    r->fl.speed = 14.0f;
    in.brake = false;
    in.stall = true;
    uint32_t horn = ground_events(r, in, 120);
    in.stall = false;
    assert_true(horn >= 4 && horn <= 5);
    assert_int_equal(ground_events(r, in, 120), 0);
    rig_free(r);
}

/* The recorder in the game's own frames: a flight that goes through Mach 1 and crashes renders
 * (offline, from the trace) exactly one boom and a crash, and the same recording twice gives
 * the same bytes. */
static uint64_t record_flight(const char *wav, uint32_t *booms, uint32_t *events) {
    MemBudget mem;
    SkyError err = {0};
    assert_true(mem_budget_init(&mem, 16u << 20, &err));
    GameSettings set;
    settings_default(&set);
    Sound s;
    SoundSetup su = {.record_path = wav, .record_seconds = 4.0};
    assert_true(sound_boot(&s, &mem, &su, &set, &err));
    assert_false(s.open);   /* a recording alone opens no device */
    FlightState fl = g_game.svc.spawn.flight;
    fl.throttle = 1.0f;
    for (int i = 0; i < 180; i++) {   /* 3 s: 250 -> 430 m/s with the boost, then a crash */
        fl.speed = 250.0f + (float)i;
        fl.boost = i > 30 ? 1.0f : 0.0f;
        SoundInput in = {.flight = &fl, .world = g_game.svc.world, .mode = AUDIO_MODE_FLIGHT,
                         .events = i == 150 ? SOUND_EV_CRASH : 0};
        sound_frame(&s, &in, &set, DT);
    }
    assert_true(sound_finish(&s, &err));
    AudioStats st = audio_stats(s.synth);
    *booms = st.booms;
    *events = st.events;
    sound_shutdown(&s);
    mem_budget_release(&mem);
    FILE *f = fopen(wav, "rb");
    assert_non_null(f);
    static uint8_t data[1 << 20];
    size_t n = fread(data, 1, sizeof data, f);
    fclose(f);
    unlink(wav);
    /* 180 frames of 1/60 s (as a float: a hair over 3 s, so the last block may be one more). */
    assert_in_range(n, AUDIO_WAV_HEADER_BYTES + 180u * 800u * 4u, AUDIO_WAV_HEADER_BYTES + 181u * 800u * 4u);
    return audio_samples_hash((const int16_t *)(data + AUDIO_WAV_HEADER_BYTES), (n - AUDIO_WAV_HEADER_BYTES) / 2);
}

static void test_recording_boom_and_crash(void **state) {
    (void)state;
    uint32_t booms, events, booms2, events2;
    uint64_t h1 = record_flight("/tmp/skyisles_rec_a.wav", &booms, &events);
    uint64_t h2 = record_flight("/tmp/skyisles_rec_b.wav", &booms2, &events2);
    printf("  recorded flight through Mach 1: %u boom, %u event, hash %016llx twice\n", booms, events,
           (unsigned long long)h1);
    assert_int_equal(booms, 1);
    assert_int_equal(events, 1);
    assert_true(h1 == h2);
}

/* ---------------------------------------------------------------- probes */
static void test_probes_open_air_and_rock(void **state) {
    (void)state;
    SoundProbe pr;
    memset(&pr, 0, sizeof pr);
    FlightState f = g_game.svc.spawn.flight;   /* the spawn: open air (100 m below it) */
    /* Wall time and this thread's CPU time (the machine may be shared: CPU time leaves out the
     * time other processes took the core). A figure to read, not a timed assertion. */
    struct timespec c0, c1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
    uint64_t t0 = time_now_ns();
    int n = 600;
    for (int i = 0; i < n; i++) sound_probe(&pr, g_game.svc.world, &f);
    double ms = (double)(time_now_ns() - t0) * 1e-6 / n;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
    double cpu = ((double)(c1.tv_sec - c0.tv_sec) * 1e3 + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-6) / n;
    printf("  probes: %.4f ms a frame wall, %.4f ms CPU (mean of %d frames; the cap is 0.05 ms)\n", ms, cpu, n);
    printf("  open air at y %.0f: enclosure %.2f, terrain_near %.2f, depth %.2f, cloud %.2f\n", f.y, (double)pr.enclosure,
           (double)pr.terrain_near, (double)pr.depth, (double)pr.cloud);
    assert_true(pr.enclosure < 0.2f);
    assert_true(pr.terrain_near < 0.5f);
    assert_true(pr.depth < 0.01f);
    /* Deep in rock (below the abyss floor every point is solid): closed in, rock at hand. */
    f.y = WORLD_Y_MIN - 40.0;
    for (int i = 0; i < SOUND_ENCLOSURE_RAYS; i++) sound_probe(&pr, g_game.svc.world, &f);
    printf("  in rock: enclosure %.2f, terrain_near %.2f, depth %.2f\n", (double)pr.enclosure, (double)pr.terrain_near,
           (double)pr.depth);
    assert_true(pr.enclosure > 0.9f);
    assert_true(pr.terrain_near > 0.85f);
    assert_true(pr.depth > 0.99f);
    /* W8's factor: 1 at the abyss floor, 0 from the islands' undersides (60 m) up. */
    assert_true(sound_depth_at(0.0) == 1.0f);
    assert_true(sound_depth_at(60.0) == 0.0f);
    assert_true(sound_depth_at(32.5) > 0.49f && sound_depth_at(32.5) < 0.51f);
}

static void test_sound_page(void **state) {
    (void)state;
    static const char *const keys[] = {"master", "engine", "wind", "effects", "mute", "device", "rumble", "rumble_strength"};
    GameSettings s;
    settings_default(&s);
    Menu m;
    int page = menu_page_find("sound");
    assert_true(page >= 0);
    menu_open(&m, &s, NULL, page);
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        bool on = false;
        for (int i = 0; i < m.count; i++) on |= m.items[i].row && !strcmp(m.items[i].row->key, keys[k]);
        if (!on) fail_msg("sound.%s is not on the Sound page", keys[k]);
    }
    /* Master steps by a tenth and stays in 0..1. */
    MenuItem *master = &m.items[0];
    assert_string_equal(master->row->key, "master");
    float v0 = s.sound.master;
    assert_true(menu_step(&m, master, -1, false));
    assert_true(fabsf(s.sound.master - (v0 - 0.1f)) < 1e-6f);
    for (int i = 0; i < 20; i++) menu_step(&m, master, 1, false);
    assert_true(s.sound.master == 1.0f);
    /* The pause page opens it. */
    menu_open(&m, &s, NULL, MENU_PAGE_PAUSE);
    bool opener = false;
    for (int i = 0; i < m.count; i++) opener |= m.items[i].action && m.items[i].action->open && !strcmp(m.items[i].action->open, "sound");
    assert_true(opener);
}

/* ---------------------------------------------------------------- --audio-out */
static long rms_of(const int16_t *x, size_t n) {
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) sum += (double)x[i] * x[i];
    return n ? (long)sqrt(sum / (double)n) : 0;
}

/* The game binary to run: $SKYISLES_GAME_BIN, else skyisles beside this test's build (run by
 * $SKYISLES_TEST_RUNNER, e.g. qemu-aarch64 for a cross build), else the native build/skyisles
 * (sanitizer builds leave out the GL side); the first that starts. */
static char g_argv0[512];

static bool starts(const char *runner, const char *bin) {
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "%s '%s' --help >/dev/null 2>&1", runner, bin);
    return system(cmd) == 0;
}

static bool game_binary(char *bin, size_t n, const char **runner) {
    const char *env = getenv("SKYISLES_GAME_BIN"), *r = getenv("SKYISLES_TEST_RUNNER");
    *runner = r ? r : "";
    if (env && *env) {
        snprintf(bin, n, "%s", env);
        return starts(*runner, bin);
    }
    char dir[512];
    snprintf(dir, sizeof dir, "%s", g_argv0);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = 0;
        snprintf(bin, n, "%s/../skyisles", dir);
        if (starts(*runner, bin)) return true;
    }
    snprintf(bin, n, "build/skyisles");
    *runner = "";
    return starts(*runner, bin);
}

static void test_audio_out_wav(void **state) {
    (void)state;
    char bin[600];
    const char *runner;
    if (!game_binary(bin, sizeof bin, &runner)) {
        printf("  note: no game binary starts here (build build/skyisles): skipped\n");
        skip();
    }
    char cmd[1024], wav[64] = "/tmp/skyisles_sound_XXXXXX";
    int fd = mkstemp(wav);
    assert_true(fd >= 0);
    close(fd);
    snprintf(cmd, sizeof cmd, "SKYISLES_LOG=warn %s '%s' --headless --autopilot --seconds 4 --view-radius 3 --audio-out '%s' >/dev/null",
             runner, bin, wav);
    assert_int_equal(system(cmd), 0);
    FILE *f = fopen(wav, "rb");
    assert_non_null(f);
    static uint8_t data[1 << 20];
    size_t n = fread(data, 1, sizeof data, f);
    fclose(f);
    unlink(wav);
    char trace[96];
    snprintf(trace, sizeof trace, "%s.trace", wav);
    struct stat ts;
    assert_int_equal(stat(trace, &ts), 0);   /* the inputs, beside the WAV */
    assert_true(ts.st_size > 1000);
    unlink(trace);
    assert_true(n > AUDIO_WAV_HEADER_BYTES);
    assert_memory_equal(data, "RIFF", 4);
    uint32_t rate = data[24] | data[25] << 8 | (uint32_t)data[26] << 16 | (uint32_t)data[27] << 24;
    assert_int_equal(rate, 48000);
    size_t samples = (n - AUDIO_WAV_HEADER_BYTES) / 2;
    const int16_t *pcm = (const int16_t *)(data + AUDIO_WAV_HEADER_BYTES);
    long first = rms_of(pcm, samples / 4), last = rms_of(pcm + samples / 2, samples / 2);
    printf("  --audio-out: %.2f s, RMS %ld (first second) %ld (last two)\n", (double)samples / 2 / 48000.0, first, last);
    assert_true(samples / 2 >= 4 * 48000 - 800);
    assert_true(last > 100);   /* the engine and wind of a flight, never silence */
}

static void tap(SDL_Scancode sc) {
    fixture_key(sc);
    frames(1);
}

/* The game's own frames make the events: the pause menu opened, moved in and closed, a crash
 * into rock and the restart after it; the recording holds them in order. */
static void test_game_events_recorded(void **state) {
    (void)state;
    static GameOptions opt;
    bool exit_now;
    TestArgs a = test_args("--headless", "--view-radius", "3", "--mem", "96", "--seconds", "30", "--audio-out",
                           "/tmp/skyisles_events.wav");
    assert_true(game_parse_args(a.argc, a.argv, &opt, &exit_now));
    SkyError err = {0};
    assert_true(game_boot(&g_game, &opt, &err));
    Sound *s = &g_game.svc.sound;
    assert_non_null(s->synth);
    assert_false(s->open);
    frames(5);
    tap(SDL_SCANCODE_ESCAPE);   /* pause: confirm */
    assert_int_equal(g_game.ses.play.overlay, OVERLAY_MENU);
    tap(SDL_SCANCODE_DOWN);     /* move */
    tap(SDL_SCANCODE_ESCAPE);   /* back: the menu closes */
    assert_int_equal(g_game.ses.play.overlay, OVERLAY_NONE);
    /* Into rock: the crash, then the restart after PLAY_CRASH_SECONDS. */
    g_game.ses.flight.y = WORLD_Y_MIN - 40.0;
    frames(2);
    assert_int_equal(g_game.ses.play.state, PLAY_CRASH);
    frames((int)(PLAY_CRASH_SECONDS * 60.0f) + 5);
    assert_int_equal(g_game.ses.play.state, PLAY_FLY);
    static const int want[] = {AUDIO_EVENT_MENU_CONFIRM, AUDIO_EVENT_MENU_MOVE, AUDIO_EVENT_MENU_BACK, AUDIO_EVENT_CRASH,
                               AUDIO_EVENT_RESTART};
    printf("  recorded events:");
    for (uint32_t i = 0; i < s->trace.n_events; i++) printf(" %s", audio_event_builtin(s->trace.events[i].id)->name);
    printf("\n");
    assert_int_equal(s->trace.n_events, 5);
    for (int i = 0; i < 5; i++) assert_int_equal(s->trace.events[i].id, want[i]);
    /* The paused frames were recorded in the paused mode. */
    bool paused = false;
    for (uint32_t i = 0; i < s->trace.n_keys; i++) paused |= s->trace.keys[i].p.mode == AUDIO_MODE_PAUSED;
    assert_true(paused);
    assert_true(sound_finish(s, &err));
    unlink("/tmp/skyisles_events.wav");
    unlink("/tmp/skyisles_events.wav.trace");
    game_shutdown(&g_game);
}

/* A saved output device that is not plugged in reads back (no settings warning) and is kept. */
static void test_saved_device_absent_is_kept(void **state) {
    (void)state;
    char dir[64] = "/tmp/skyisles_sdev_XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/settings.yaml", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "sound:\n  master: 0.5  # everything\n  device: vc4-hdmi-0, MAI PCM i2s-hifi-0  # default, or ...\n");
    fclose(f);
    static GameOptions opt;
    bool exit_now;
    TestArgs a = test_args("--headless", "--config", dir, "--view-radius", "3", "--mem", "96");
    assert_true(game_parse_args(a.argc, a.argv, &opt, &exit_now));
    SkyError err = {0};
    assert_true(game_boot(&g_game, &opt, &err));
    printf("  warning: '%s'\n", g_game.cfg.opt.settings_warning);
    assert_string_equal(g_game.cfg.opt.settings_warning, "");
    const char *const *names;
    int n = game_audio_device_names(&names);
    assert_true(g_game.cfg.set.sound.device > 0 && g_game.cfg.set.sound.device < n);
    assert_string_equal(names[g_game.cfg.set.sound.device], "vc4-hdmi-0, MAI PCM i2s-hifi-0");
    assert_true(g_game.cfg.set.sound.master == 0.5f);
    static char text[64 << 10];
    settings_format(&g_game.cfg.set, text, sizeof text);
    assert_non_null(strstr(text, "device: vc4-hdmi-0, MAI PCM i2s-hifi-0"));
    game_shutdown(&g_game);
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    assert_int_equal(system(path), 0);
}

/* The falls voice's level grows as the aircraft flies toward a waterfall of the home island: 0 far
 * away, rising at every step in, near 1 at its lip. */
static void test_falls_grow_near(void **state) {
    (void)state;
    const World *w = g_game.svc.world;
    const IslandField *h = world_home(w);
    assert_non_null(h);
    assert_true(h->n_falls > 0);
    const IslandFieldFalls *fl = &h->falls[0];
    double top = world_home_sea(&world_params(w)->gen, h) + fl->top_m, last = -1.0;
    for (double d = 400.0; d >= 0.0; d -= 50.0) {
        double x = h->centre_x + fl->x_m + fl->dir_x * d, z = h->centre_z + fl->z_m + fl->dir_z * d;
        float v = sound_falls_near(w, x, top - 20.0, z);
        printf("  %3.0f m out from falls 0: %.3f\n", d, (double)v);
        if (d >= 250.0) assert_true(v == 0.0f);
        else assert_true(v > last);
        last = v;
    }
    assert_true(last > 0.9);
}

static int group_setup(void **state) {
    (void)state;
    return boot(false) ? 0 : -1;   /* the world the seam and probe tests fly in */
}

static int group_teardown(void **state) {
    (void)state;
    game_shutdown(&g_game);
    return 0;
}

int main(int argc, char **argv) {
    (void)argc;
    snprintf(g_argv0, sizeof g_argv0, "%s", argv[0]);
    const struct CMUnitTest world_tests[] = {
        cmocka_unit_test(test_device_removed_and_back),
        cmocka_unit_test(test_events_and_rumble),
        cmocka_unit_test(test_wheels_and_stall_sounds),
        cmocka_unit_test(test_recording_boom_and_crash),
        cmocka_unit_test(test_probes_open_air_and_rock),
        cmocka_unit_test(test_falls_grow_near),
        cmocka_unit_test(test_sound_page),
    };
    const struct CMUnitTest runs[] = {
        cmocka_unit_test(test_no_driver_keeps_the_game_running),
        cmocka_unit_test(test_dummy_driver_plays_without_heap),
        cmocka_unit_test(test_audio_out_wav),
        cmocka_unit_test(test_saved_device_absent_is_kept),
        cmocka_unit_test(test_game_events_recorded),
    };
    int failed = cmocka_run_group_tests_name("sound with a world", world_tests, group_setup, group_teardown);
    failed += cmocka_run_group_tests_name("sound runs", runs, NULL, NULL);
    return failed;
}
