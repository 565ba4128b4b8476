/* bench audio: the synth's cost per 10 ms block at 48 kHz stereo (median and p99 over many blocks,
 * this thread only), as a share of one core. Every voice busy: full throttle and boost, wind in a
 * cloud by rock, a tunnel's echo, the abyss bed, events and booms along the way. Prints one JSON line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audio/audio.h"

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
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
    MemBudget b;
    SkyError err = {0};
    AudioConfig cfg = {.rate = rate, .channels = channels};
    if (!audio_memory_bytes(&cfg) || !mem_budget_init(&b, audio_memory_bytes(&cfg) + 4096, &err)) {
        fprintf(stderr, "bench audio: bad rate or no memory\n");
        return 1;
    }
    AudioSynth *s = audio_create(&b, &cfg, &err);
    uint64_t *ns = malloc(sizeof *ns * blocks);
    uint32_t frames = rate / 100;
    int16_t *out = malloc(sizeof *out * frames * channels);
    if (!s || !ns || !out) {
        fprintf(stderr, "bench audio: %s\n", s ? "out of memory" : err.msg);
        return 1;
    }
    for (uint32_t i = 0; i < blocks; i++) {
        AudioParams p = audio_params_default();
        p.throttle = 1.0f;
        p.boost = 1.0f;
        p.airspeed = (float)(250 + (i % 400) / 2);   /* through Mach 1 every 4 s */
        p.cloud = p.terrain_near = p.depth = 1.0f;
        p.enclosure = 0.9f;
        audio_publish(s, &p);
        if (i % 25 == 0) audio_event(s, (int)(i / 25 % AUDIO_EVENT_BUILTIN_COUNT), 0.0f);
        uint64_t t0 = time_now_ns();
        audio_mixer_render(s, out, frames);
        ns[i] = time_now_ns() - t0;
    }
    qsort(ns, blocks, sizeof *ns, cmp_u64);
    double med = (double)ns[blocks / 2] / 1e3, p99 = (double)ns[(size_t)blocks * 99 / 100] / 1e3;
    double block_us = 1e6 * (double)frames / (double)rate;
    AudioStats st = audio_stats(s);
    printf("{\"bench\":\"audio\",\"rate\":%u,\"channels\":%u,\"block_frames\":%u,\"blocks\":%u,"
           "\"block_us\":{\"median\":%.1f,\"p99\":%.1f},\"core_percent\":{\"median\":%.2f,\"p99\":%.2f},"
           "\"goal_percent\":2,\"booms\":%u,\"events\":%u,\"arch\":\"%s\"}\n",
           rate, channels, frames, blocks, med, p99, 100.0 * med / block_us, 100.0 * p99 / block_us, st.booms,
           st.events, SKYISLES_ARCH);
    free(ns);
    free(out);
    mem_budget_release(&b);
    return 0;
}
