/* Tests for the weather's sound (src/audio/weather.c, the thunder kind in events.c, the wind
 * voice in synth.c): the rain voice is silent when dry and louder with more rain; the wind voice
 * grows with the weather's wind at the same airspeed; thunder is a long dark roll (seconds of
 * sound, low in pitch); the rain voice is heard under its own name. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "audio/audio.h"
#include "core/core.h"

#define RATE 48000u
#define BLOCK 480u

static MemBudget g_budget;
static int16_t g_pcm[RATE * 3 * 2];

static int setup(void **state) {
    (void)state;
    SkyError err = {0};
    return mem_budget_init(&g_budget, (size_t)8 << 20, &err) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    mem_budget_release(&g_budget);
    return 0;
}

/* `secs` of stereo audio of the voices in mask with p held; an event first when event >= 0. */
static size_t run(uint32_t mask, const AudioParams *p, int event, double secs) {
    SkyError err = {0};
    mem_budget_release(&g_budget);
    assert_true(mem_budget_init(&g_budget, (size_t)8 << 20, &err));
    AudioSynth *s = audio_create(&g_budget, &(AudioConfig){.rate = RATE, .channels = 2, .voice_mask = mask}, &err);
    assert_non_null(s);
    size_t frames = (size_t)(secs * RATE) / BLOCK * BLOCK;
    for (size_t off = 0; off < frames; off += BLOCK) {
        audio_publish(s, p);
        if (off == 0 && event >= 0) assert_true(audio_event(s, event, 0.0f));
        audio_mixer_render(s, g_pcm + off * 2, BLOCK);
    }
    return frames;
}

static double rms(size_t from, size_t to) {
    double e = 0.0;
    for (size_t i = from * 2; i < to * 2; i++) e += (double)g_pcm[i] * g_pcm[i];
    return sqrt(e / (double)((to - from) * 2));
}

static void test_rain_voice(void **state) {
    (void)state;
    AudioParams p = audio_params_default();
    double level[3];
    const float rain[3] = {0.0f, 0.4f, 1.0f};
    for (int i = 0; i < 3; i++) {
        p.rain = rain[i];
        size_t n = run(AUDIO_VOICE_RAIN, &p, -1, 1.5);
        level[i] = rms(RATE / 2, n);   /* after the smoothing has settled */
        printf("  rain %.1f: rms %.1f\n", (double)rain[i], level[i]);
    }
    assert_true(level[0] == 0.0);
    assert_true(level[1] > 30.0);
    assert_true(level[2] > 1.8 * level[1]);
    assert_int_equal(audio_voice_from_name("rain"), AUDIO_VOICE_RAIN);
}

/* Falling water: silent with no waterfall near, louder as one nears, heard under its own name. */
static void test_falls_voice(void **state) {
    (void)state;
    AudioParams p = audio_params_default();
    double level[3];
    const float near[3] = {0.0f, 0.3f, 1.0f};
    for (int i = 0; i < 3; i++) {
        p.falls = near[i];
        size_t n = run(AUDIO_VOICE_FALLS, &p, -1, 1.5);
        level[i] = rms(RATE / 2, n);
        printf("  falls %.1f: rms %.1f\n", (double)near[i], level[i]);
    }
    assert_true(level[0] == 0.0);
    assert_true(level[1] > 30.0);
    assert_true(level[2] > 2.0 * level[1]);
    assert_int_equal(audio_voice_from_name("falls"), AUDIO_VOICE_FALLS);
}

static void test_wind_voice_follows_the_weather(void **state) {
    (void)state;
    AudioParams p = audio_params_default();
    p.airspeed = 30.0f;
    size_t n = run(AUDIO_VOICE_WIND, &p, -1, 1.5);
    double calm = rms(RATE / 2, n);
    p.air_wind = 20.0f;
    n = run(AUDIO_VOICE_WIND, &p, -1, 1.5);
    double gale = rms(RATE / 2, n);
    printf("  wind voice at 30 m/s: calm rms %.1f, in a 20 m/s wind %.1f\n", calm, gale);
    assert_true(gale > 3.0 * calm);
}

/* Zero crossings of the left channel over the first `frames`, a rough measure of pitch. */
static uint32_t crossings(size_t frames) {
    uint32_t c = 0;
    for (size_t i = 2; i < frames * 2; i += 2) c += (g_pcm[i] < 0) != (g_pcm[i - 2] < 0);
    return c;
}

static void test_thunder_is_a_long_dark_roll(void **state) {
    (void)state;
    AudioParams p = audio_params_default();
    run(AUDIO_VOICE_EVENTS, &p, AUDIO_EVENT_CRASH, 0.5);
    uint32_t crash = crossings(RATE / 4);
    size_t n = run(AUDIO_VOICE_EVENTS, &p, AUDIO_EVENT_THUNDER, 3.0);
    double first = rms(0, RATE / 2), later = rms(RATE, 2 * RATE);
    uint32_t thunder = crossings(RATE / 4);
    printf("  thunder: rms %.1f in its first half second, %.1f a second later; %u zero crossings in its first "
           "quarter second (the crash: %u)\n", first, later, thunder, crash);
    assert_true(first > 300.0);
    assert_true(later > 0.05 * first);   /* a roll of seconds, not a click */
    assert_true(thunder * 3 < crash);    /* darker than the crash's noise burst */
    assert_true(rms(n - RATE / 10, n) < first);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rain_voice),
        cmocka_unit_test(test_falls_voice),
        cmocka_unit_test(test_wind_voice_follows_the_weather),
        cmocka_unit_test(test_thunder_is_a_long_dark_roll),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
