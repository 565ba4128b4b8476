/* src/audio: tables the inline DSP reads, built at boot from the polynomial in dsp.h (not libm's
 * sin, whose last bit may differ between C libraries). */
#include "audio/audio_internal.h"

void audio_dsp_sine_fill(float *table) {
    /* One period over DSP_SINE_SIZE steps plus a guard entry, so interpolation never wraps. */
    for (uint32_t i = 0; i <= DSP_SINE_SIZE; i++) {
        uint32_t j = i % DSP_SINE_SIZE;
        double x = 2.0 * DSP_PI * (double)j / (double)DSP_SINE_SIZE;
        if (x > DSP_PI) x -= 2.0 * DSP_PI;
        table[i] = (float)dsp_sin(x);
    }
}
