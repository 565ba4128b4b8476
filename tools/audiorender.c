/* skyisles tool: renders a synth parameter trace (docs/audio.md) to a 16-bit PCM WAV, the whole
 * mix or one voice alone; prints the render's hash (the same on x86 and aarch64). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audio/audio.h"

#define TRACE_MAX_BYTES (64u << 20)

static int usage(void) {
    fprintf(stderr,
            "usage: audiorender TRACE OUT.wav [--voice engine|wind|boom|echo|ambience|events|all]...\n"
            "                   [--rate HZ] [--mono]\n"
            "  --voice V   render only these voices (repeatable; default all)\n"
            "  --rate HZ   output rate (default: the trace's 'rate' line, else 48000)\n"
            "  --mono      one channel instead of interleaved stereo\n");
    return 2;
}

/* Upper bounds for the trace's storage: every line could be a key, an event or a volume line. */
static uint32_t count_lines(const uint8_t *text, size_t len) {
    uint32_t n = 1;
    for (size_t i = 0; i < len; i++) n += text[i] == '\n';
    return n;
}

int main(int argc, char **argv) {
    const char *in = NULL, *out = NULL;
    uint32_t mask = 0, rate = 0, channels = 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--voice") && i + 1 < argc) {
            uint32_t bit = audio_voice_from_name(argv[++i]);
            if (!bit) {
                fprintf(stderr, "audiorender: unknown voice '%s'\n", argv[i]);
                return usage();
            }
            mask |= bit;
        } else if (!strcmp(argv[i], "--rate") && i + 1 < argc) {
            rate = (uint32_t)strtoul(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--mono")) {
            channels = 1;
        } else if (argv[i][0] == '-') {
            return usage();
        } else if (!in) {
            in = argv[i];
        } else if (!out) {
            out = argv[i];
        } else {
            return usage();
        }
    }
    if (!in || !out) return usage();
    SkyError err = {0};
    size_t len = 0;
    uint8_t *text = file_read_all(in, TRACE_MAX_BYTES, &len, &err);
    if (!text) {
        fprintf(stderr, "audiorender: %s\n", err.msg);
        return 2;
    }
    uint32_t cap = count_lines(text, len);
    AudioTraceKey *keys = malloc(sizeof *keys * cap);
    AudioTraceEvent *events = malloc(sizeof *events * cap);
    AudioTraceVolume *vols = malloc(sizeof *vols * cap);
    if (!keys || !events || !vols) {
        fprintf(stderr, "audiorender: out of memory for %u trace lines\n", cap);
        return 1;
    }
    AudioTrace tr;
    audio_trace_init(&tr, keys, cap, events, cap, vols, cap);
    if (!audio_trace_parse(&tr, (const char *)text, len, in, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    AudioConfig cfg = {.rate = rate ? rate : tr.rate, .channels = channels, .voice_mask = mask,
                       .block_frames = tr.block_frames};
    MemBudget budget;
    size_t need = audio_memory_bytes(&cfg);
    if (!need) {
        fprintf(stderr, "audiorender: unsupported rate %u Hz (use %u..%u)\n", cfg.rate, AUDIO_RATE_MIN, AUDIO_RATE_MAX);
        return 2;
    }
    if (!mem_budget_init(&budget, need + 4096, &err)) {
        fprintf(stderr, "audiorender: %s\n", err.msg);
        return 1;
    }
    AudioSynth *s = audio_create(&budget, &cfg, &err);
    if (!s) {
        fprintf(stderr, "audiorender: %s\n", err.msg);
        return 1;
    }
    size_t frames = audio_trace_frames(&tr, audio_rate(s), audio_block_frames(s));
    int16_t *pcm = malloc(sizeof *pcm * (frames ? frames : 1) * channels);
    if (!pcm) {
        fprintf(stderr, "audiorender: out of memory for %zu frames\n", frames);
        return 1;
    }
    frames = audio_render_trace(s, &tr, pcm, frames);
    if (!audio_wav_write(out, pcm, frames, channels, audio_rate(s), &err)) {
        fprintf(stderr, "audiorender: %s\n", err.msg);
        return 1;
    }
    AudioStats st = audio_stats(s);
    printf("audiorender: %s: %zu frames, %u Hz, %u ch, %u booms, %u events, fnv1a64 %016llx\n", out, frames,
           audio_rate(s), channels, st.booms, st.events,
           (unsigned long long)audio_samples_hash(pcm, frames * channels));
    free(pcm);
    free(keys);
    free(events);
    free(vols);
    free(text);
    mem_budget_release(&budget);
    return 0;
}
