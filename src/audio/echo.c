/* src/audio: the echo of caves and tunnels, a four-line feedback delay network (Jot/Stautner):
 * delays of 36-70 ms mixed by a Hadamard matrix (lossless), a one-pole damping per line, feedback
 * and wet level set by the enclosure. Fixed buffers carved at boot. */
#include "audio/audio_internal.h"

#include <string.h>

/* Mutually prime lengths at 48 kHz, so the echoes do not pile up on one period. */
static const uint32_t LINE_48K[AUDIO_FDN_LINES] = {1733, 2203, 2719, 3347};

static uint32_t line_len(uint32_t j, uint32_t rate) {
    uint64_t len = (uint64_t)LINE_48K[j] * rate / 48000u;
    return len < 16 ? 16u : (uint32_t)len;
}

size_t audio_echo_floats(uint32_t rate) {
    size_t n = 0;
    for (uint32_t j = 0; j < AUDIO_FDN_LINES; j++) n += line_len(j, rate);
    return n;
}

void audio_echo_init(EchoState *e, float *buf, uint32_t rate) {
    memset(e, 0, sizeof *e);
    for (uint32_t j = 0; j < AUDIO_FDN_LINES; j++) {
        e->line[j] = buf;
        e->len[j] = line_len(j, rate);
        memset(buf, 0, e->len[j] * sizeof *buf);
        buf += e->len[j];
    }
    /* Rock absorbs the highs: each pass through a line loses some top end. */
    e->damp_a = dsp_onepole_coef(3500.0f, (float)rate);
}

void audio_echo_render(EchoState *e, const float *in, float *l, float *r, uint32_t n, float fb, float wet0,
                       float wet1) {
    if (wet0 == 0.0f && wet1 == 0.0f) {
        if (!e->idle) {
            for (uint32_t j = 0; j < AUDIO_FDN_LINES; j++) {
                memset(e->line[j], 0, e->len[j] * sizeof(float));
                e->damp[j] = 0.0f;
            }
            e->idle = true;
        }
        return;
    }
    e->idle = false;
    float wet = wet0, dw = (wet1 - wet0) / (float)n;
    for (uint32_t i = 0; i < n; i++) {
        float o[AUDIO_FDN_LINES];
        for (uint32_t j = 0; j < AUDIO_FDN_LINES; j++)
            o[j] = dsp_onepole(&e->damp[j], e->damp_a, e->line[j][e->pos[j]]);
        /* Hadamard 4x4 scaled by 1/2: orthogonal, so fb < 1 alone sets the decay. */
        float h[AUDIO_FDN_LINES] = {
            0.5f * (o[0] + o[1] + o[2] + o[3]), 0.5f * (o[0] - o[1] + o[2] - o[3]),
            0.5f * (o[0] + o[1] - o[2] - o[3]), 0.5f * (o[0] - o[1] - o[2] + o[3]),
        };
        for (uint32_t j = 0; j < AUDIO_FDN_LINES; j++) {
            /* The tiny constant keeps a silent network off denormals (slow on x86) without a
             * branch a sample; it is 1e-18 of full scale, far below the last int16 step. */
            e->line[j][e->pos[j]] = 0.5f * in[i] + fb * h[j] + 1e-18f;
            if (++e->pos[j] == e->len[j]) e->pos[j] = 0;
        }
        l[i] += (o[0] + 0.6f * o[1] - 0.3f * o[3]) * wet;
        r[i] += (o[2] + 0.6f * o[3] - 0.3f * o[1]) * wet;
        wet += dw;
    }
    for (uint32_t j = 0; j < AUDIO_FDN_LINES; j++) e->damp[j] = dsp_flush(e->damp[j]);
}
