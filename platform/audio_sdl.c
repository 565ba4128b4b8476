/* skyisles platform audio on SDL2: one output device, int16, the game's callback on SDL's audio
 * thread; the device list for the Sound page. Every failure is one line for the caller to log. */
#include "platform.h"

#include <SDL2/SDL.h>
#include <stdio.h>
#include <string.h>

static SDL_AudioDeviceID g_dev;
static PlatformAudioFn g_fn;
static void *g_user;
static uint32_t g_channels;

static void why_set(char *why, size_t n, const char *fmt, const char *a, const char *b) {
    if (why && n) snprintf(why, n, fmt, a, b);
}

/* SDL's errors can be long or multi-line; the caller's line keeps the first part. */
static const char *sdl_err(void) {
    static char e[120];
    const char *s = SDL_GetError();
    snprintf(e, sizeof e, "%s", s && s[0] ? s : "unknown error");
    for (char *c = e; *c; c++)
        if (*c == '\n') *c = ' ';
    return e;
}

static bool audio_subsystem(char *why, size_t n) {
    if (SDL_WasInit(SDL_INIT_AUDIO)) return true;
    if (SDL_InitSubSystem(SDL_INIT_AUDIO) == 0) return true;
    why_set(why, n, "no audio driver (%s%s)", sdl_err(), "");
    return false;
}

/* ALSA with no sound card prints a dozen lines of its own on stderr when a device is opened; a
 * machine without one (a server, a container, a Pi with audio off) gets our one line instead. */
static bool alsa_has_card(void) {
    FILE *f = fopen("/proc/asound/cards", "r");
    if (!f) return false;
    char line[160];
    bool any = false;
    int index;
    while (!any && fgets(line, sizeof line, f)) any = sscanf(line, " %d [", &index) == 1;   /* " 0 [PCH  ]: ..." */
    fclose(f);
    return any;
}

/* SDL hands bytes; the game's mixer writes interleaved int16 frames. */
static void SDLCALL callback(void *user, Uint8 *stream, int len) {
    (void)user;
    uint32_t frames = (uint32_t)len / (uint32_t)(sizeof(int16_t) * (g_channels ? g_channels : 1));
    if (g_fn) g_fn(g_user, (int16_t *)stream, frames);
    else memset(stream, 0, (size_t)len);
}

bool platform_audio_open(const PlatformAudioSpec *spec, PlatformAudioGot *got, char *why, size_t why_n) {
    memset(got, 0, sizeof *got);
    platform_audio_close();
    if (!audio_subsystem(why, why_n)) return false;
    const char *drv = SDL_GetCurrentAudioDriver();
    snprintf(got->driver, sizeof got->driver, "%s", drv ? drv : "?");
    if (drv && !SDL_strcasecmp(drv, "alsa") && !alsa_has_card()) {
        why_set(why, why_n, "no sound card (ALSA lists none in /proc/asound/cards)%s%s", "", "");
        return false;
    }
    const char *name = spec->device && spec->device[0] && strcmp(spec->device, "default") ? spec->device : NULL;
    SDL_AudioSpec want, have;
    SDL_zero(want);
    want.freq = (int)(spec->rate ? spec->rate : 48000);
    want.format = AUDIO_S16SYS;
    want.channels = (Uint8)(spec->channels == 1 ? 1 : 2);
    want.samples = (Uint16)(spec->frames ? spec->frames : 1024);
    want.callback = callback;
    g_fn = spec->fn;
    g_user = spec->user;
    /* The device's own rate and channel count when it prefers them (no resampling in SDL), as
     * long as the synth can take them; else SDL converts. */
    int allow = SDL_AUDIO_ALLOW_FREQUENCY_CHANGE | SDL_AUDIO_ALLOW_CHANNELS_CHANGE;
    for (int attempt = 0; attempt < 2; attempt++) {
        g_dev = SDL_OpenAudioDevice(name, 0, &want, &have, allow);
        if (!g_dev) break;
        bool fits = have.freq >= 8000 && (uint32_t)have.freq <= (spec->max_rate ? spec->max_rate : 48000) &&
                    (have.channels == 1 || have.channels == 2);
        if (fits) break;
        SDL_CloseAudioDevice(g_dev);
        g_dev = 0;
        allow = 0;
    }
    if (!g_dev) {
        why_set(why, why_n, "audio device %s could not be opened (%s)", name ? name : "default", sdl_err());
        g_fn = NULL;
        return false;
    }
    g_channels = have.channels;
    got->rate = (uint32_t)have.freq;
    got->channels = have.channels;
    got->frames = have.samples;
    snprintf(got->device, sizeof got->device, "%s", name ? name : "default");
    SDL_PauseAudioDevice(g_dev, 0);
    return true;
}

void platform_audio_close(void) {
    if (g_dev) SDL_CloseAudioDevice(g_dev);   /* waits for a running callback to return */
    g_dev = 0;
    g_fn = NULL;
    g_user = NULL;
}

int platform_audio_devices(char (*names)[128], int max) {
    if (!audio_subsystem(NULL, 0)) return 0;
    int n = SDL_GetNumAudioDevices(0), k = 0;
    for (int i = 0; i < n && k < max; i++) {
        const char *s = SDL_GetAudioDeviceName(i, 0);
        if (s && s[0]) snprintf(names[k++], 128, "%s", s);
    }
    return k;
}

bool platform_audio_is_open_id(uint32_t id) { return g_dev != 0 && id == g_dev; }
