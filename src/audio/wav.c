/* src/audio: 16-bit PCM WAV output of a render, written byte by byte in little-endian order (the
 * same file on any host), and the hash of a render's samples as those bytes. */
#include "audio/audio.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void put_u32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put_u16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }

void audio_wav_header(uint8_t out[AUDIO_WAV_HEADER_BYTES], uint32_t rate, uint32_t channels, size_t frames) {
    uint64_t data = (uint64_t)frames * channels * 2u;
    uint32_t data32 = data > 0xffffffffu - 36u ? 0xffffffffu - 36u : (uint32_t)data;
    memcpy(out, "RIFF", 4);
    put_u32(out + 4, 36u + data32);
    memcpy(out + 8, "WAVEfmt ", 8);
    put_u32(out + 16, 16);                      /* fmt chunk size */
    put_u16(out + 20, 1);                       /* PCM */
    put_u16(out + 22, (uint16_t)channels);
    put_u32(out + 24, rate);
    put_u32(out + 28, rate * channels * 2u);    /* bytes per second */
    put_u16(out + 32, (uint16_t)(channels * 2u));
    put_u16(out + 34, 16);
    memcpy(out + 36, "data", 4);
    put_u32(out + 40, data32);
}

bool audio_wav_write(const char *path, const int16_t *samples, size_t frames, uint32_t channels, uint32_t rate,
                     SkyError *err) {
    FILE *f = fopen(path, "wb");
    if (!f) {
        sky_error_set(err, SKY_ERR_INPUT, "%s: cannot create: %s", path, strerror(errno));
        return false;
    }
    uint8_t buf[4096];
    audio_wav_header(buf, rate, channels, frames);
    bool ok = fwrite(buf, 1, AUDIO_WAV_HEADER_BYTES, f) == AUDIO_WAV_HEADER_BYTES;
    size_t count = frames * channels;
    for (size_t i = 0; ok && i < count;) {
        size_t n = 0;
        for (; n + 2 <= sizeof buf && i < count; i++, n += 2) put_u16(buf + n, (uint16_t)samples[i]);
        ok = fwrite(buf, 1, n, f) == n;
    }
    if (fclose(f) != 0) ok = false;
    if (!ok) sky_error_set(err, SKY_ERR_INPUT, "%s: write failed: %s", path, strerror(errno));
    return ok;
}

uint64_t audio_samples_hash(const int16_t *samples, size_t count) {
    uint64_t h = 0;
    for (size_t i = 0; i < count; i++) {
        uint8_t b[2];
        put_u16(b, (uint16_t)samples[i]);
        h = hash_fnv1a64(b, 2, h);
    }
    return h;
}
