/* skyisles tool: renders a synth parameter trace (docs/audio.md) to a 16-bit PCM WAV, the whole
 * mix or one voice alone, and optionally a spectrogram PNG; prints the render's hash (the same on
 * x86 and aarch64). The spectrogram is analysis, so it may use libm (the render does not). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audio/audio.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO_UNUSED
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

#define TRACE_MAX_BYTES (64u << 20)

static int usage(void) {
    fprintf(stderr,
            "usage: audiorender TRACE OUT.wav [--voice engine|wind|boom|echo|ambience|events|all]...\n"
            "                   [--rate HZ] [--mono] [--spectrogram FILE.png]\n"
            "  --voice V   render only these voices (repeatable; default all)\n"
            "  --rate HZ   output rate (default: the trace's 'rate' line, else 48000)\n"
            "  --mono      one channel instead of interleaved stereo\n"
            "  --spectrogram FILE.png  the render's spectrogram: 10 ms columns, 20 Hz-20 kHz on a log\n"
            "              axis (grid at 100 Hz, 1 kHz, 10 kHz and each second), -90..0 dBFS\n");
    return 2;
}

#define FFT_N 4096
#define SPEC_H 320
#define SPEC_DB_FLOOR (-90.0)

/* In-place iterative radix-2 FFT of re/im (n a power of two). */
static void fft(double *re, double *im, int n) {
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) {
            double t = re[i]; re[i] = re[j]; re[j] = t;
            t = im[i]; im[i] = im[j]; im[j] = t;
        }
    }
    for (int len = 2; len <= n; len <<= 1) {
        double a = -2.0 * M_PI / len, wr = cos(a), wi = sin(a);
        for (int i = 0; i < n; i += len) {
            double cr = 1.0, ci = 0.0;
            for (int k = 0; k < len / 2; k++) {
                double *ur = &re[i + k], *ui = &im[i + k], *vr = &re[i + k + len / 2], *vi = &im[i + k + len / 2];
                double xr = *vr * cr - *vi * ci, xi = *vr * ci + *vi * cr;
                *vr = *ur - xr, *vi = *ui - xi;
                *ur += xr, *ui += xi;
                double nr = cr * wr - ci * wi;
                ci = cr * wi + ci * wr;
                cr = nr;
            }
        }
    }
}

/* A dark-to-bright ramp (black, purple, red, orange, pale yellow) for 0..1. */
static void heat(double v, uint8_t *rgb) {
    static const double stops[5][3] = {{0, 0, 4}, {87, 16, 110}, {188, 55, 84}, {249, 142, 9}, {252, 255, 164}};
    v = v < 0 ? 0 : (v > 1 ? 1 : v);
    double x = v * 4.0;
    int i = x >= 4.0 ? 3 : (int)x;
    double f = x - i;
    for (int c = 0; c < 3; c++) rgb[c] = (uint8_t)(stops[i][c] + (stops[i + 1][c] - stops[i][c]) * f + 0.5);
}

static bool spectrogram(const char *path, const int16_t *pcm, size_t frames, uint32_t channels, uint32_t rate) {
    size_t hop = rate / 100, cols = frames / hop;
    if (cols == 0) return false;
    uint8_t *img = calloc(cols * SPEC_H * 3, 1);
    double *re = malloc(sizeof *re * FFT_N), *im = malloc(sizeof *im * FFT_N);
    if (!img || !re || !im) return false;
    double lo = log(20.0), hi = log(rate / 2.0 < 20000.0 ? rate / 2.0 : 20000.0);
    for (size_t c = 0; c < cols; c++) {
        for (int i = 0; i < FFT_N; i++) {
            long at = (long)(c * hop) + i - FFT_N / 2;
            double x = 0.0;
            if (at >= 0 && (size_t)at < frames) {
                for (uint32_t ch = 0; ch < channels; ch++) x += pcm[(size_t)at * channels + ch];
                x /= 32768.0 * channels;
            }
            re[i] = x * (0.5 - 0.5 * cos(2.0 * M_PI * i / (FFT_N - 1)));   /* Hann */
            im[i] = 0.0;
        }
        fft(re, im, FFT_N);
        for (int y = 0; y < SPEC_H; y++) {
            /* Row y covers a log-frequency band; take the strongest bin in it. */
            double f0 = exp(lo + (hi - lo) * (SPEC_H - 1 - y) / SPEC_H), f1 = exp(lo + (hi - lo) * (SPEC_H - y) / SPEC_H);
            int b0 = (int)(f0 * FFT_N / rate), b1 = (int)(f1 * FFT_N / rate);
            double m = 0.0;
            for (int b = b0; b <= b1 && b < FFT_N / 2; b++) {
                double p = re[b] * re[b] + im[b] * im[b];
                m = p > m ? p : m;
            }
            double db = 10.0 * log10(m / ((FFT_N / 4.0) * (FFT_N / 4.0)) + 1e-20);
            heat((db - SPEC_DB_FLOOR) / -SPEC_DB_FLOOR, img + (y * cols + c) * 3);
        }
    }
    /* Grid: 100 Hz, 1 kHz, 10 kHz; one tick column a second. */
    for (double f = 100.0; f < 20000.0; f *= 10.0) {
        int y = SPEC_H - 1 - (int)((log(f) - lo) / (hi - lo) * SPEC_H);
        for (size_t c = 0; c < cols && y >= 0 && y < SPEC_H; c += 3) memset(img + (y * cols + c) * 3, 200, 3);
    }
    for (size_t c = 0; c < cols; c += 100)
        for (int y = 0; y < SPEC_H; y += 3) memset(img + (y * cols + c) * 3, 200, 3);
    bool ok = stbi_write_png(path, (int)cols, SPEC_H, 3, img, (int)cols * 3) != 0;
    free(img);
    free(re);
    free(im);
    return ok;
}

/* Upper bounds for the trace's storage: every line could be a key, an event or a volume line. */
static uint32_t count_lines(const uint8_t *text, size_t len) {
    uint32_t n = 1;
    for (size_t i = 0; i < len; i++) n += text[i] == '\n';
    return n;
}

int main(int argc, char **argv) {
    const char *in = NULL, *out = NULL, *spec = NULL;
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
        } else if (!strcmp(argv[i], "--spectrogram") && i + 1 < argc) {
            spec = argv[++i];
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
    if (spec && !spectrogram(spec, pcm, frames, channels, audio_rate(s))) {
        fprintf(stderr, "audiorender: %s: cannot write the spectrogram\n", spec);
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
