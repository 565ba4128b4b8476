/* Tests for the synthesiser (src/audio) on offline renders: what each voice does with its
 * parameters, booms, echo, transients, headroom, mute, the trace golden (the same constant on x86
 * and under qemu-aarch64), no heap on the render path, underruns, the trace and WAV formats. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audio/audio.h"
#include "support/alloc_count.h"

/* The render of tests/data/audio/flight.trace at 48 kHz stereo, all voices. */
#define FLIGHT_GOLDEN 0x74468e50bd9b4f38ull

#define RATE 48000u
#define MAX_SECONDS 12u
static int16_t g_pcm[RATE * MAX_SECONDS * 2];
static MemBudget g_budget;
static AudioTraceKey g_keys[256];
static AudioTraceEvent g_events[256];
static AudioTraceVolume g_vols[16];

static int setup(void **state) {
    (void)state;
    SkyError err = {0};
    return mem_budget_init(&g_budget, 24u << 20, &err) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    mem_budget_release(&g_budget);
    return 0;
}

static AudioSynth *synth_new(uint32_t channels, uint32_t mask) {
    SkyError err = {0};
    AudioSynth *s = audio_create(&g_budget, &(AudioConfig){.rate = RATE, .channels = channels, .voice_mask = mask}, &err);
    assert_non_null(s);
    return s;
}

static AudioTrace trace_new(void) {
    AudioTrace t;
    audio_trace_init(&t, g_keys, 256, g_events, 256, g_vols, 16);
    return t;
}

/* A trace holding p from 0 to secs. */
static AudioTrace trace_const(const AudioParams *p, double secs) {
    AudioTrace t = trace_new();
    assert_true(audio_trace_add_key(&t, 0.0, p));
    assert_true(audio_trace_add_key(&t, secs, p));
    return t;
}

static size_t render(AudioSynth *s, const AudioTrace *t) {
    size_t frames = audio_trace_frames(t, RATE, audio_block_frames(s));
    assert_true(frames * audio_channels(s) <= sizeof g_pcm / sizeof g_pcm[0]);
    return audio_render_trace(s, t, g_pcm, frames);
}

static AudioParams flight(float throttle, float airspeed) {
    AudioParams p = audio_params_default();
    p.throttle = throttle;
    p.airspeed = airspeed;
    return p;
}

static double rms(const int16_t *x, size_t n) {
    double e = 0.0;
    for (size_t i = 0; i < n; i++) e += (double)x[i] * x[i];
    return sqrt(e / (double)n);
}

static int peak(const int16_t *x, size_t n) {
    int m = 0;
    for (size_t i = 0; i < n; i++) m = abs(x[i]) > m ? abs(x[i]) : m;
    return m;
}

/* Goertzel power of one frequency over a mono block. */
static double goertzel(const int16_t *x, size_t n, double hz) {
    double c = 2.0 * cos(2.0 * M_PI * hz / RATE), s1 = 0.0, s2 = 0.0;
    for (size_t i = 0; i < n; i++) {
        double s0 = x[i] + c * s1 - s2;
        s2 = s1;
        s1 = s0;
    }
    return s1 * s1 + s2 * s2 - c * s1 * s2;
}

/* The strongest frequency from 25 to 400 Hz: a 2 Hz scan, then 0.25 Hz steps around its best. */
static double spectral_peak(const int16_t *x, size_t n) {
    double best = 0.0, best_hz = 0.0;
    for (double hz = 25.0; hz <= 400.0; hz += 2.0) {
        double p = goertzel(x, n, hz);
        if (p > best) best = p, best_hz = hz;
    }
    double lo = best_hz - 2.0;
    for (double hz = lo; hz <= lo + 4.0; hz += 0.25) {
        double p = goertzel(x, n, hz);
        if (p > best) best = p, best_hz = hz;
    }
    return best_hz;
}

static void test_engine_fundamental_rises_with_throttle(void **state) {
    (void)state;
    double hz[5];
    for (int k = 0; k < 5; k++) {
        AudioSynth *s = synth_new(1, AUDIO_VOICE_ENGINE);
        AudioParams p = flight(0.25f * (float)k, 100.0f);
        AudioTrace t = trace_const(&p, 1.0);
        size_t n = render(s, &t);
        hz[k] = spectral_peak(g_pcm + n / 2, n / 2);   /* the settled half */
        if (k) assert_true(hz[k] > hz[k - 1]);
    }
    print_message("note: engine fundamental %.1f %.1f %.1f %.1f %.1f Hz (throttle 0..1)\n", hz[0], hz[1], hz[2], hz[3], hz[4]);
    assert_true(hz[4] >= 1.5 * hz[0]);
}

static double wind_rms(float airspeed, float cloud) {
    AudioSynth *s = synth_new(1, AUDIO_VOICE_WIND);
    AudioParams p = flight(0.5f, airspeed);
    p.cloud = cloud;
    AudioTrace t = trace_const(&p, 2.0);
    size_t n = render(s, &t);
    return rms(g_pcm + n / 4, n - n / 4);
}

/* RMS of the first difference against the RMS: a measure of how bright a sound is. */
static double brightness(const int16_t *x, size_t n) {
    double d = 0.0, e = 0.0;
    for (size_t i = 1; i < n; i++) {
        double v = (double)x[i] - x[i - 1];
        d += v * v;
        e += (double)x[i] * x[i];
    }
    return sqrt(d / (e + 1.0));
}

static void engine_at(float airspeed, float boost, double *level, double *bright) {
    AudioSynth *s = synth_new(1, AUDIO_VOICE_ENGINE);
    AudioParams p = flight(1.0f, airspeed);
    p.boost = boost;
    AudioTrace t = trace_const(&p, 1.0);
    size_t n = render(s, &t);
    *level = rms(g_pcm + n / 2, n / 2);
    *bright = brightness(g_pcm + n / 2, n / 2);
}

static void test_engine_roars_with_boost_and_is_muffled_above_mach_1(void **state) {
    (void)state;
    double plain, boosted, sub, super, b0, b1, b2, b3;
    engine_at(300.0f, 0.0f, &plain, &b0);
    engine_at(300.0f, 1.0f, &boosted, &b1);
    engine_at(320.0f, 1.0f, &sub, &b2);
    engine_at(380.0f, 1.0f, &super, &b3);
    print_message("note: engine rms %.0f, with boost %.0f; brightness at 320 m/s %.3f, at 380 m/s %.3f\n", plain, boosted,
                  b2, b3);
    assert_true(boosted > 1.2 * plain);
    assert_true(b3 < 0.5 * b2);     /* the highs are gone above Mach 1 */
    assert_true(super < sub);
}

static double mix_rms(AudioMode mode, uint32_t mask) {
    AudioSynth *s = synth_new(1, mask);
    AudioParams p = flight(0.6f, 150.0f);
    p.mode = mode;
    AudioTrace t = trace_const(&p, 1.5);
    size_t n = render(s, &t);
    return rms(g_pcm + n / 2, n / 2);
}

static void test_modes_set_the_levels(void **state) {
    (void)state;
    double fl = mix_rms(AUDIO_MODE_FLIGHT, AUDIO_VOICE_ALL), at = mix_rms(AUDIO_MODE_ATTRACT, AUDIO_VOICE_ALL);
    double pa = mix_rms(AUDIO_MODE_PAUSED, AUDIO_VOICE_ALL), ti = mix_rms(AUDIO_MODE_TITLE, AUDIO_VOICE_ALL);
    double ti_engine = mix_rms(AUDIO_MODE_TITLE, AUDIO_VOICE_ENGINE), fl_amb = mix_rms(AUDIO_MODE_FLIGHT, AUDIO_VOICE_AMBIENCE);
    print_message("note: mix rms flight %.0f, attract %.0f, paused %.0f, title %.0f\n", fl, at, pa, ti);
    assert_true(fl > at && at > pa && pa > 0.0);
    assert_true(ti > 0.0);
    assert_true(ti_engine == 0.0);   /* no flight on the title */
    assert_true(fl_amb == 0.0);      /* no title ambience (and no abyss at depth 0) in flight */
}

static void test_abyss_bed_follows_depth(void **state) {
    (void)state;
    double level[3];
    for (int k = 0; k < 3; k++) {
        AudioSynth *s = synth_new(1, AUDIO_VOICE_AMBIENCE);
        AudioParams p = flight(0.5f, 100.0f);
        p.depth = 0.5f * (float)k;
        AudioTrace t = trace_const(&p, 2.0);
        size_t n = render(s, &t);
        level[k] = rms(g_pcm + n / 2, n / 2);
        if (k == 2) assert_true(brightness(g_pcm + n / 2, n / 2) < 0.05);   /* low and muffled */
    }
    print_message("note: abyss bed rms at depth 0, 0.5, 1: %.0f %.0f %.0f\n", level[0], level[1], level[2]);
    assert_true(level[0] == 0.0 && level[1] > 0.0 && level[2] > level[1]);
}

static void test_wind_rises_with_airspeed_and_in_cloud(void **state) {
    (void)state;
    double slow = wind_rms(30.0f, 0.0f), fast = wind_rms(300.0f, 0.0f);
    double beside = wind_rms(150.0f, 0.0f), inside = wind_rms(150.0f, 1.0f);
    print_message("note: wind rms 30 m/s %.0f, 300 m/s %.0f; 150 m/s beside a cloud %.0f, inside %.0f\n", slow, fast,
                  beside, inside);
    assert_true(fast >= 2.0 * slow);
    assert_true(inside > beside);
}

/* Transients: 10 ms windows whose peak is over a third of the loudest and over three times the
 * loudest of the 50 ms before (an onset, not a loud stretch). */
static int count_transients(const int16_t *x, size_t n, size_t stride) {
    enum { WIN = RATE / 100, BACK = 5 };
    size_t nw = n / stride / WIN;
    int top = 0, count = 0, hist[BACK] = {0};
    for (size_t i = 0; i < n; i += stride) top = abs(x[i]) > top ? abs(x[i]) : top;
    if (top == 0) return 0;
    for (size_t w = 0; w < nw; w++) {
        int m = 0, before = 0;
        for (size_t i = w * WIN; i < (w + 1) * WIN; i++) m = abs(x[i * stride]) > m ? abs(x[i * stride]) : m;
        for (int k = 0; k < BACK; k++) before = hist[k] > before ? hist[k] : before;
        if (m * 3 > top && m > 3 * before) count++;
        hist[w % BACK] = m;
    }
    return count;
}

static void test_three_upward_crossings_make_three_booms(void **state) {
    (void)state;
    AudioSynth *s = synth_new(2, AUDIO_VOICE_BOOM);
    AudioTrace t = trace_new();
    /* Up through 343 three times; between them one dip to 320 (re-arms) per boom, and wobbles
     * around 343 that stay above the re-arm speed (must not boom again). */
    static const float speed[][2] = {{0, 250}, {1.5, 350}, {2.0, 338}, {2.5, 352}, {3.0, 340}, {3.5, 320},
                                     {4.5, 360}, {5.5, 300}, {6.5, 370}, {7.5, 370}};
    for (size_t i = 0; i < sizeof speed / sizeof speed[0]; i++) {
        AudioParams p = flight(1.0f, speed[i][1]);
        assert_true(audio_trace_add_key(&t, speed[i][0], &p));
    }
    size_t n = render(s, &t);
    int booms = count_transients(g_pcm, n * 2, 2);
    print_message("note: %d booms heard, %u counted by the synth\n", booms, audio_stats(s).booms);
    assert_int_equal(booms, 3);
    assert_int_equal(audio_stats(s).booms, 3);
}

/* Energy of the echo alone from 50 to 300 ms after an impulse, the flight voices silent. */
static double echo_tail(float enclosure) {
    AudioSynth *s = synth_new(1, AUDIO_VOICE_ECHO);
    AudioParams p = flight(0.0f, 0.0f);
    p.mode = AUDIO_MODE_TITLE;
    p.enclosure = enclosure;
    AudioTrace t = trace_const(&p, 1.0);
    assert_true(audio_trace_add_event(&t, 0.5, AUDIO_EVENT_IMPULSE, 0.0f));
    render(s, &t);
    size_t at = RATE / 2;
    for (size_t i = 0; i < at; i++) assert_int_equal(g_pcm[i], 0);   /* nothing before it */
    double e = 0.0;
    for (size_t i = at + RATE / 20; i < at + RATE * 3 / 10; i++) e += (double)g_pcm[i] * g_pcm[i];
    return e;
}

static void test_echo_tail_rises_with_enclosure(void **state) {
    (void)state;
    double open = echo_tail(0.0f), overhang = echo_tail(0.4f), tunnel = echo_tail(0.9f);
    print_message("note: echo tail energy open %.3g, overhang %.3g, tunnel %.3g\n", open, overhang, tunnel);
    assert_true(overhang > open);
    assert_true(tunnel > overhang);
}

static void test_crash_makes_a_transient(void **state) {
    (void)state;
    AudioSynth *s = synth_new(2, AUDIO_VOICE_ALL);
    AudioParams p = flight(0.6f, 150.0f);
    AudioTrace t = trace_const(&p, 2.0);
    assert_true(audio_trace_add_event(&t, 1.0, AUDIO_EVENT_CRASH, 0.0f));
    render(s, &t);
    int before = peak(g_pcm + RATE, RATE), after = peak(g_pcm + 2 * RATE, RATE / 10);   /* stereo: 0.5 s, 50 ms */
    print_message("note: peak before the crash %d, in its first 50 ms %d\n", before, after);
    assert_true(after >= 2 * before);
}

/* Every voice loud at once, volumes at full: throttle, boost, booms, cloud, rock, tunnel, abyss,
 * and a crash, a boom and menu blips every few tenths of a second. */
static AudioTrace trace_loud(double secs) {
    AudioTrace t = trace_new();
    for (int i = 0; i <= (int)secs; i++) {
        AudioParams p = flight(1.0f, i % 2 ? 420.0f : 300.0f);
        p.boost = p.cloud = p.terrain_near = p.enclosure = p.depth = 1.0f;
        assert_true(audio_trace_add_key(&t, (double)i, &p));
    }
    for (double e = 0.2; e < secs; e += 0.3) {
        assert_true(audio_trace_add_event(&t, e, AUDIO_EVENT_CRASH, 0.0f));
        assert_true(audio_trace_add_event(&t, e + 0.05, AUDIO_EVENT_BOOM, 0.0f));
        assert_true(audio_trace_add_event(&t, e + 0.1, AUDIO_EVENT_MENU_CONFIRM, 0.0f));
    }
    return t;
}

static void test_full_volume_never_reaches_full_scale(void **state) {
    (void)state;
    for (uint32_t ch = 1; ch <= 2; ch++) {
        AudioSynth *s = synth_new(ch, AUDIO_VOICE_ALL);
        AudioTrace t = trace_loud(6.0);
        size_t n = render(s, &t);
        int m = peak(g_pcm, n * ch);
        print_message("note: loudest sample %d of 32767 (%u channel%s)\n", m, ch, ch > 1 ? "s" : "");
        assert_true(m < 32767);
        assert_true(m > 16000);   /* loud, so the limit was tested */
    }
}

static void test_mute_is_digital_silence(void **state) {
    (void)state;
    AudioSynth *s = synth_new(2, AUDIO_VOICE_ALL);
    AudioTrace t = trace_loud(4.0);
    assert_true(audio_trace_add_volume(&t, &(AudioTraceVolume){0.0, 1, 1, 1, 1, true}));
    size_t n = render(s, &t);
    for (size_t i = 0; i < n * 2; i++) assert_int_equal(g_pcm[i], 0);
    /* Muted mid-flight: silent from 10 ms (the fade) after the block it comes in. */
    s = synth_new(2, AUDIO_VOICE_ALL);
    t = trace_loud(4.0);
    assert_true(audio_trace_add_volume(&t, &(AudioTraceVolume){0.0, 1, 1, 1, 1, false}));
    assert_true(audio_trace_add_volume(&t, &(AudioTraceVolume){2.0, 1, 1, 1, 1, true}));
    n = render(s, &t);
    assert_true(peak(g_pcm, 2 * RATE * 2) > 0);
    for (size_t i = (2 * RATE + RATE / 50) * 2; i < n * 2; i++) assert_int_equal(g_pcm[i], 0);
}

static char *read_text(const char *path, size_t *len) {
    SkyError err = {0};
    char *text = (char *)file_read_all(path, 1u << 20, len, &err);
    if (!text) fail_msg("%s", err.msg);
    return text;
}

static AudioTrace flight_trace(void) {
    size_t len = 0;
    char *text = read_text("tests/data/audio/flight.trace", &len);
    AudioTrace t = trace_new();
    SkyError err = {0};
    bool ok = audio_trace_parse(&t, text, len, "tests/data/audio/flight.trace", &err);
    free(text);
    if (!ok) fail_msg("%s", err.msg);
    return t;
}

static void test_flight_trace_renders_to_the_golden_hash(void **state) {
    (void)state;
    AudioTrace t = flight_trace();
    AudioSynth *s = synth_new(2, AUDIO_VOICE_ALL);
    size_t n = render(s, &t);
    uint64_t h = audio_samples_hash(g_pcm, n * 2);
    print_message("note: flight.trace %zu frames, fnv1a64 %016llx (%s)\n", n, (unsigned long long)h, SKYISLES_ARCH);
    assert_int_equal(n, 10u * RATE);
    /* The same synth state from scratch gives the same bytes. */
    AudioSynth *again = synth_new(2, AUDIO_VOICE_ALL);
    assert_int_equal(audio_samples_hash(g_pcm, audio_render_trace(again, &t, g_pcm, n) * 2), h);
    assert_int_equal(h, FLIGHT_GOLDEN);
}

static void test_render_path_makes_no_heap_call(void **state) {
    (void)state;
    AudioTrace t = flight_trace();
    alloc_count_start();
    SkyError err = {0};
    AudioSynth *s = audio_create(&g_budget, &(AudioConfig){0}, &err);
    size_t n = s ? render(s, &t) : 0;
    audio_event(s, AUDIO_EVENT_CRASH, 0.0f);
    audio_publish(s, &(AudioParams){.airspeed = 100.0f});
    audio_mixer_render(s, g_pcm, 1024);
    (void)audio_stats(s);
    assert_int_equal(alloc_count_stop(), 0);
    assert_non_null(s);
    assert_true(n > 0);
}

static int max_step(const int16_t *x, size_t n) {
    int m = 0;
    for (size_t i = 1; i < n; i++) m = abs(x[i] - x[i - 1]) > m ? abs(x[i] - x[i - 1]) : m;
    return m;
}

static void test_44100_renders_the_same_flight(void **state) {
    (void)state;
    AudioTrace t = flight_trace();
    SkyError err = {0};
    AudioSynth *s = audio_create(&g_budget, &(AudioConfig){.rate = 44100, .channels = 2}, &err);
    assert_non_null(s);
    assert_int_equal(audio_block_frames(s), 441);
    size_t n = audio_render_trace(s, &t, g_pcm, audio_trace_frames(&t, 44100, 441));
    assert_int_equal(n, 441000);
    AudioStats st = audio_stats(s);
    assert_int_equal(st.booms, 1);
    assert_int_equal(st.events, 6);
    assert_int_equal(st.underruns, 0);
    int m = peak(g_pcm, n * 2);
    assert_true(m > 10000 && m < 32767);
}

static void test_reconfigure_starts_afresh_at_the_new_format(void **state) {
    (void)state;
    AudioTrace t = flight_trace();
    SkyError err = {0};
    AudioSynth *fresh = audio_create(&g_budget, &(AudioConfig){.rate = 44100, .channels = 1}, &err);
    assert_non_null(fresh);
    uint64_t want = audio_samples_hash(g_pcm, render(fresh, &t));
    AudioSynth *s = synth_new(2, AUDIO_VOICE_ALL);   /* 48 kHz stereo, then the device comes back as 44.1 mono */
    render(s, &t);
    assert_true(audio_reconfigure(s, 44100, 1, &err));
    assert_int_equal(audio_rate(s), 44100);
    assert_int_equal(audio_channels(s), 1);
    assert_int_equal(audio_block_frames(s), 441);
    assert_int_equal(audio_samples_hash(g_pcm, render(s, &t)), want);
    assert_false(audio_reconfigure(s, 96000, 2, &err));   /* past max_rate (48000 by default) */
    assert_non_null(strstr(err.msg, "48000 Hz"));
    assert_false(audio_reconfigure(s, 48000, 3, &err));
    assert_int_equal(audio_rate(s), 44100);
}

static void test_underrun_is_counted_and_does_not_click(void **state) {
    (void)state;
    AudioSynth *s = synth_new(1, AUDIO_VOICE_ENGINE);
    uint32_t block = audio_block_frames(s);   /* 10 ms; underrun after 50 ms without a snapshot */
    AudioParams p = flight(0.0f, 100.0f);
    p.engine = 0.2f;
    audio_publish(s, &p);
    for (int b = 0; b < 20; b++) audio_mixer_render(s, g_pcm + (size_t)b * block, block);
    AudioStats st = audio_stats(s);
    assert_int_equal(st.blocks, 20);
    assert_int_equal(st.snapshots, 1);
    assert_int_equal(st.underruns, 15);
    /* The late snapshot jumps throttle and volume: the ramps carry it without a click. */
    p = flight(1.0f, 100.0f);
    audio_publish(s, &p);
    for (int b = 20; b < 100; b++) audio_mixer_render(s, g_pcm + (size_t)b * block, block);
    assert_int_equal(audio_stats(s).underruns, 15 + 75);
    int jump = max_step(g_pcm + 19 * block, 10 * block), steady = max_step(g_pcm + 60 * block, 40 * block);
    print_message("note: largest sample step across the late jump %d, steady at the new setting %d\n", jump, steady);
    assert_true(steady > 0);
    assert_true(jump <= steady + steady / 4);
}

static void expect_parse_error(const char *text, const char *msg) {
    AudioTrace t = trace_new();
    SkyError err = {0};
    assert_false(audio_trace_parse(&t, text, strlen(text), "t.trace", &err));
    if (strcmp(err.msg, msg) != 0) fail_msg("got '%s', want '%s'", err.msg, msg);
}

static void test_trace_defects_are_one_line_each(void **state) {
    (void)state;
    const char *ok = "0 0.5 100 0 0 0 0 0 flight\n";
    expect_parse_error("0 0.5 100 0 0 0 0 0 flight\n1 0.5 fast 0 0 0 0 0 flight\n", "t.trace:2: airspeed: 'fast' is not a number");
    expect_parse_error("0 1.5 100 0 0 0 0 0 flight\n", "t.trace:1: throttle = 1.5 is out of range 0..1");
    expect_parse_error("0 0.5 100 0 0 0 0 0 jet\n", "t.trace:1: unknown mode 'jet' (flight, paused, attract, title)");
    expect_parse_error("# a comment\n0 0.5 100\n",
                       "t.trace:2: a key line has 9 fields (time throttle airspeed boost cloud terrain_near enclosure depth mode), this one 3");
    expect_parse_error("2 0.5 100 0 0 0 0 0 flight\n1 0.5 100 0 0 0 0 0 flight\n", "t.trace:2: time 1 is before the previous key");
    expect_parse_error("0 0.5 100 0 0 0 0 0 flight\nevent 1 bang\n", "t.trace:2: unknown event 'bang'");
    expect_parse_error("0 0.5 100 0 0 0 0 0 flight\nvolume 1 1 1 1\n",
                       "t.trace:2: a volume line is 'volume TIME MASTER ENGINE WIND EFFECTS MUTE', this one has 5 fields");
    expect_parse_error("-1 0.5 100 0 0 0 0 0 flight\n", "t.trace:1: time = -1 is out of range 0..86400");
    expect_parse_error("0 0.5 100 0 0 0 0 0 flight\nevent 1 ring 2 3\n",
                       "t.trace:2: an event line is 'event TIME NAME [ARG]', this one has 5 fields");
    expect_parse_error("tempo 3\n", "t.trace:1: unknown line 'tempo' (a key starts with its time; or event, volume, rate, block, end)");
    expect_parse_error("# nothing\n", "t.trace: no key line (time throttle airspeed boost cloud terrain_near enclosure depth mode)");
    AudioTrace t = trace_new();
    SkyError err = {0};
    assert_true(audio_trace_parse(&t, ok, strlen(ok), "t.trace", &err));
    assert_int_equal(t.n_keys, 1);
}

static void test_trace_keys_interpolate_and_volumes_step(void **state) {
    (void)state;
    const char *text = "0 0 100 0 0 0 0 0 flight\n2 1 300 1 0 0 0 0 paused\nvolume 1 0.5 1 1 1 0\nend 3\n";
    AudioTrace t = trace_new();
    SkyError err = {0};
    assert_true(audio_trace_parse(&t, text, strlen(text), "t.trace", &err));
    AudioParams p;
    audio_trace_params_at(&t, 0.5, &p);
    assert_float_equal(p.throttle, 0.25f, 1e-6);
    assert_float_equal(p.airspeed, 150.0f, 1e-4);
    assert_int_equal(p.mode, AUDIO_MODE_FLIGHT);
    assert_float_equal(p.master, 1.0f, 0.0);
    audio_trace_params_at(&t, 1.5, &p);
    assert_float_equal(p.master, 0.5f, 0.0);
    audio_trace_params_at(&t, 2.5, &p);
    assert_int_equal(p.mode, AUDIO_MODE_PAUSED);
    assert_float_equal(p.boost, 1.0f, 0.0);
    assert_int_equal(audio_trace_frames(&t, RATE, 480), 3 * RATE);
}

static void test_trace_text_round_trips(void **state) {
    (void)state;
    AudioTrace t = flight_trace();
    t.block_frames = 480;
    assert_true(audio_trace_add_volume(&t, &(AudioTraceVolume){3.25, 0.7f, 0.123456789f, 1.0f / 3.0f, 0.5f, false}));
    assert_true(audio_trace_add_volume(&t, &(AudioTraceVolume){9.5, 1, 1, 1, 1, true}));
    static char text[64 << 10];
    size_t len = audio_trace_format(&t, text, sizeof text);
    assert_true(len > 0 && len < sizeof text);
    assert_int_equal(strlen(text), len);
    static AudioTraceKey keys[256];
    static AudioTraceEvent events[256];
    static AudioTraceVolume vols[16];
    AudioTrace back;
    audio_trace_init(&back, keys, 256, events, 256, vols, 16);
    SkyError err = {0};
    if (!audio_trace_parse(&back, text, len, "formatted", &err)) fail_msg("%s", err.msg);
    assert_int_equal(back.n_keys, t.n_keys);
    assert_int_equal(back.n_events, t.n_events);
    assert_int_equal(back.n_volumes, 2);
    assert_int_equal(back.rate, 48000);
    assert_int_equal(back.block_frames, 480);
    assert_true(back.volumes[0].engine == 0.123456789f && back.volumes[0].wind == 1.0f / 3.0f);
    /* The same inputs render the same bytes. */
    AudioSynth *a = synth_new(2, AUDIO_VOICE_ALL), *b = synth_new(2, AUDIO_VOICE_ALL);
    uint64_t ha = audio_samples_hash(g_pcm, render(a, &t) * 2), hb = audio_samples_hash(g_pcm, render(b, &back) * 2);
    assert_int_equal(ha, hb);
    assert_int_equal(audio_trace_format(&t, NULL, 0), len);
}

static void test_each_voice_renders_alone(void **state) {
    (void)state;
    AudioTrace t = flight_trace();
    static const char *names[] = {"engine", "wind", "boom", "echo", "ambience", "events"};
    uint64_t hashes[6];
    for (int v = 0; v < 6; v++) {
        AudioSynth *s = synth_new(2, audio_voice_from_name(names[v]));
        size_t n = render(s, &t);
        assert_true(peak(g_pcm, n * 2) > 0);
        hashes[v] = audio_samples_hash(g_pcm, n * 2);
        for (int u = 0; u < v; u++) assert_true(hashes[u] != hashes[v]);
    }
    /* Subsonic with no events: the boom voice alone is silence. */
    AudioSynth *s = synth_new(2, AUDIO_VOICE_BOOM);
    AudioParams p = flight(1.0f, 300.0f);
    AudioTrace calm = trace_const(&p, 1.0);
    size_t n = render(s, &calm);
    assert_int_equal(peak(g_pcm, n * 2), 0);
    assert_int_equal(audio_voice_from_name("tuba"), 0);
}

static void test_wav_header_is_little_endian_pcm16(void **state) {
    (void)state;
    uint8_t h[AUDIO_WAV_HEADER_BYTES];
    audio_wav_header(h, 48000, 2, 10);
    static const uint8_t want[AUDIO_WAV_HEADER_BYTES] = {
        'R', 'I', 'F', 'F', 76, 0, 0, 0, 'W', 'A', 'V', 'E', 'f', 'm', 't', ' ', 16, 0, 0, 0, 1, 0, 2, 0,
        0x80, 0xbb, 0, 0, 0x00, 0xee, 0x02, 0x00, 4, 0, 16, 0, 'd', 'a', 't', 'a', 40, 0, 0, 0,
    };
    assert_memory_equal(h, want, sizeof want);
}

static void test_bad_config_and_unknown_events_are_refused(void **state) {
    (void)state;
    SkyError err = {0};
    assert_null(audio_create(&g_budget, &(AudioConfig){.rate = 1000}, &err));
    assert_non_null(strstr(err.msg, "audio: unsupported output"));
    assert_null(audio_create(&g_budget, &(AudioConfig){.channels = 6}, &err));
    assert_int_equal(audio_memory_bytes(&(AudioConfig){.rate = 200000}), 0);
    AudioSynth *s = synth_new(2, 0);
    assert_false(audio_event(s, 999, 0.0f));
    assert_false(audio_event(s, -1, 0.0f));
    assert_int_equal(audio_stats(s).events_dropped, 2);
    AudioEventKind chirp = {.name = "chirp", .level = 0.3f, .notes = {{2000.0f, 0.0f, 0.05f}}};
    int id = audio_event_kind_add(s, &chirp);
    assert_int_equal(id, AUDIO_EVENT_BUILTIN_COUNT);
    audio_publish(s, &(AudioParams){.effects = 1.0f, .master = 1.0f, .mode = AUDIO_MODE_TITLE});
    assert_true(audio_event(s, id, 0.0f));
    audio_mixer_render(s, g_pcm, 2400);
    assert_int_equal(audio_stats(s).events, 1);
    assert_true(peak(g_pcm, 4800) > 1000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_fundamental_rises_with_throttle),
        cmocka_unit_test(test_engine_roars_with_boost_and_is_muffled_above_mach_1),
        cmocka_unit_test(test_wind_rises_with_airspeed_and_in_cloud),
        cmocka_unit_test(test_three_upward_crossings_make_three_booms),
        cmocka_unit_test(test_echo_tail_rises_with_enclosure),
        cmocka_unit_test(test_crash_makes_a_transient),
        cmocka_unit_test(test_full_volume_never_reaches_full_scale),
        cmocka_unit_test(test_mute_is_digital_silence),
        cmocka_unit_test(test_flight_trace_renders_to_the_golden_hash),
        cmocka_unit_test(test_render_path_makes_no_heap_call),
        cmocka_unit_test(test_modes_set_the_levels),
        cmocka_unit_test(test_abyss_bed_follows_depth),
        cmocka_unit_test(test_44100_renders_the_same_flight),
        cmocka_unit_test(test_reconfigure_starts_afresh_at_the_new_format),
        cmocka_unit_test(test_underrun_is_counted_and_does_not_click),
        cmocka_unit_test(test_trace_defects_are_one_line_each),
        cmocka_unit_test(test_trace_keys_interpolate_and_volumes_step),
        cmocka_unit_test(test_trace_text_round_trips),
        cmocka_unit_test(test_each_voice_renders_alone),
        cmocka_unit_test(test_wav_header_is_little_endian_pcm16),
        cmocka_unit_test(test_bad_config_and_unknown_events_are_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
