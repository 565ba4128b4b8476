/* bench audio: the synth's cost per 10 ms block at 48 kHz stereo (median and p99 over many blocks,
 * this thread only), as a share of one core, for two scenes: every voice busy (full throttle and
 * boost, wind in a cloud by rock, a tunnel's echo, the abyss bed, events and booms along the way)
 * and a typical cruise. Prints one JSON line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audio/audio.h"

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

typedef struct Scene { const char *name; bool loud, storm; } Scene;

/* The inputs of block i: "loud" has every voice busy (the worst case, rain, a waterfall and every event kind
 * with thunder among them), "cruise" is a typical flight (open air, no boost, a menu blip now and
 * then), "storm" the cruise in rain and a gale with thunder rolling every 2 s. */
static AudioParams scene_params(const Scene *sc, uint32_t i) {
    AudioParams p = audio_params_default();
    if (sc->loud) {
        p.throttle = p.boost = 1.0f;
        p.airspeed = (float)(250 + (i % 400) / 2);   /* through Mach 1 every 4 s */
        p.cloud = p.terrain_near = p.depth = 1.0f;
        p.enclosure = 0.9f;
        p.rain = 1.0f;
        p.falls = 1.0f;   /* beside a waterfall */
        p.air_wind = 25.0f;
    } else {
        p.throttle = 0.6f;
        p.airspeed = 150.0f + (float)(i % 200) * 0.1f;
    }
    if (sc->storm) {   /* cruise in a storm: rain, a gale, thunder every 2 s (below) */
        p.rain = 1.0f;
        p.air_wind = 14.0f + (float)(i % 100) * 0.1f;
    }
    return p;
}

typedef struct Cost { double med_us, p99_us; uint32_t booms, events; } Cost;

static bool measure(const Scene *sc, uint32_t rate, uint32_t channels, uint32_t blocks, uint64_t *ns, Cost *out) {
    MemBudget b;
    SkyError err = {0};
    AudioConfig cfg = {.rate = rate, .channels = channels};
    if (!audio_memory_bytes(&cfg) || !mem_budget_init(&b, audio_memory_bytes(&cfg) + 4096, &err)) return false;
    AudioSynth *s = audio_create(&b, &cfg, &err);
    uint32_t frames = rate / 100;
    int16_t *out_pcm = malloc(sizeof *out_pcm * frames * channels);
    if (!s || !out_pcm) {
        free(out_pcm);
        mem_budget_release(&b);
        return false;
    }
    for (uint32_t i = 0; i < blocks; i++) {
        AudioParams p = scene_params(sc, i);
        audio_publish(s, &p);
        uint32_t every = sc->loud ? 25 : 300;
        if (i % every == 0) audio_event(s, sc->loud ? (int)(i / every % AUDIO_EVENT_BUILTIN_COUNT) : AUDIO_EVENT_MENU_MOVE, 0.0f);
        if (sc->storm && i % 200 == 100) audio_event(s, AUDIO_EVENT_THUNDER, 0.6f + (float)(i % 3) * 0.2f);
        uint64_t t0 = time_now_ns();
        audio_mixer_render(s, out_pcm, frames);
        ns[i] = time_now_ns() - t0;
    }
    qsort(ns, blocks, sizeof *ns, cmp_u64);
    AudioStats st = audio_stats(s);
    *out = (Cost){(double)ns[blocks / 2] / 1e3, (double)ns[(size_t)blocks * 99 / 100] / 1e3, st.booms, st.events};
    free(out_pcm);
    mem_budget_release(&b);
    return true;
}

int bench_audio(int argc, char **argv) {
    uint32_t blocks = 6000, rate = 48000, channels = 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--blocks") && i + 1 < argc) blocks = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--rate") && i + 1 < argc) rate = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--mono")) channels = 1;
        else {
            fprintf(stderr, "usage: bench audio [--blocks N] [--rate HZ] [--mono]\n");
            return 2;
        }
    }
    if (blocks < 100) blocks = 100;
    uint64_t *ns = malloc(sizeof *ns * blocks);
    if (!ns) return 1;
    static const Scene scenes[] = {{"loud", true, false}, {"cruise", false, false}, {"storm", false, true}};
    double block_us = 1e6 * (double)(rate / 100) / (double)rate;
    printf("{\"bench\":\"audio\",\"rate\":%u,\"channels\":%u,\"block_frames\":%u,\"blocks\":%u,\"arch\":\"%s\","
           "\"goal_core_percent\":2,\"scenes\":[", rate, channels, rate / 100, blocks, SKYISLES_ARCH);
    for (size_t k = 0; k < sizeof scenes / sizeof scenes[0]; k++) {
        Cost c;
        if (!measure(&scenes[k], rate, channels, blocks, ns, &c)) {
            fprintf(stderr, "bench audio: bad rate or no memory\n");
            free(ns);
            return 1;
        }
        printf("%s{\"scene\":\"%s\",\"block_us\":{\"median\":%.1f,\"p99\":%.1f},"
               "\"core_percent\":{\"median\":%.2f,\"p99\":%.2f},\"booms\":%u,\"events\":%u}",
               k ? "," : "", scenes[k].name, c.med_us, c.p99_us, 100.0 * c.med_us / block_us, 100.0 * c.p99_us / block_us,
               c.booms, c.events);
        fflush(stdout);
    }
    printf("]}\n");
    free(ns);
    return 0;
}
