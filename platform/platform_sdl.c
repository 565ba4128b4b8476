/* skyisles platform backend on SDL2: tries the video drivers in order (KMSDRM on a console,
 * Wayland/X11 on a desktop, offscreen when headless) and opens an OpenGL ES 2.0 context. */
#include "platform.h"

#include <SDL2/SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Platform {
    SDL_Window *window;
    SDL_GLContext gl;
    char driver[32];
    bool headless;
    bool held[PKEY_COUNT];
};

static Platform g_platform;   /* one window per process */
static bool g_platform_used;

/* Error text from SDL trimmed to something that fits a one-line report. */
static const char *short_sdl_error(void) {
    static char e[96];
    const char *s = SDL_GetError();
    snprintf(e, sizeof e, "%s", (s && s[0]) ? s : "unknown error");
    for (char *c = e; *c; c++) if (*c == '\n') *c = ' ';
    return e;
}

static void set_gl_attributes(int depth_bits, bool headless) {
    SDL_GL_ResetAttributes();
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 2);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, depth_bits);
    SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 0);
    /* Displays take what EGL offers (565 is enough for 15-bit colour); screenshots and
     * tests read back 8 bits per channel. */
    int bits = headless ? 8 : 5;
    SDL_GL_SetAttribute(SDL_GL_RED_SIZE, bits);
    SDL_GL_SetAttribute(SDL_GL_GREEN_SIZE, headless ? 8 : 6);
    SDL_GL_SetAttribute(SDL_GL_BLUE_SIZE, bits);
}

/* Window + context on the driver that is already initialised; false with SDL's error set. */
static bool open_window(Platform *p, const PlatformConfig *cfg, bool console) {
    int w = cfg->width, h = cfg->height;
    Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_SHOWN;
    if (console) {
        /* KMSDRM: the display's native mode, always fullscreen. */
        SDL_DisplayMode mode;
        if (SDL_GetDesktopDisplayMode(0, &mode) == 0) { w = mode.w; h = mode.h; }
        flags |= SDL_WINDOW_FULLSCREEN;
    } else if (!p->headless) {
        if (w <= 0 || h <= 0) { w = 1280; h = 720; }
        flags |= SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
        if (cfg->fullscreen) flags |= SDL_WINDOW_FULLSCREEN_DESKTOP;
    } else if (w <= 0 || h <= 0) {
        w = 640; h = 480;
    }
    static const int depths[] = {24, 16};
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
        set_gl_attributes(depths[i], p->headless);
        p->window = SDL_CreateWindow(cfg->title ? cfg->title : "skyisles", SDL_WINDOWPOS_CENTERED,
                                     SDL_WINDOWPOS_CENTERED, w, h, flags);
        if (!p->window) continue;
        p->gl = SDL_GL_CreateContext(p->window);
        if (p->gl) break;
        SDL_DestroyWindow(p->window);
        p->window = NULL;
    }
    if (!p->gl) return false;
    if (SDL_GL_MakeCurrent(p->window, p->gl) != 0) {
        SDL_GL_DeleteContext(p->gl);
        SDL_DestroyWindow(p->window);
        p->gl = NULL;
        p->window = NULL;
        return false;
    }
    /* The swap interval belongs to the current context, so it is set only now. */
    if (SDL_GL_SetSwapInterval(cfg->vsync ? 1 : 0) != 0 && cfg->vsync)
        log_debug("platform: vsync not available on %s (%s)", p->driver, short_sdl_error());
    if (console) SDL_ShowCursor(SDL_DISABLE);
    return true;
}

static bool try_driver(Platform *p, const PlatformConfig *cfg, const char *name) {
    SDL_SetHint(SDL_HINT_VIDEODRIVER, name);
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) return false;
    snprintf(p->driver, sizeof p->driver, "%s", SDL_GetCurrentVideoDriver());
    bool console = SDL_strcasecmp(p->driver, "KMSDRM") == 0;
    if (open_window(p, cfg, console)) return true;
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    return false;
}

Platform *platform_create(const PlatformConfig *cfg, SkyError *err) {
    if (g_platform_used) {
        sky_error_set(err, SKY_ERR_START, "platform: only one window per process");
        return NULL;
    }
    Platform *p = &g_platform;
    memset(p, 0, sizeof *p);
    p->headless = cfg->headless;

    /* GLES through EGL on X11 as well, so every desktop gets the same ES 2.0 path. */
    SDL_SetHint(SDL_HINT_OPENGL_ES_DRIVER, "1");
    SDL_SetHint(SDL_HINT_VIDEO_X11_FORCE_EGL, "1");
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "0");
    if (SDL_Init(SDL_INIT_EVENTS) != 0) {
        sky_error_set(err, SKY_ERR_START, "skyisles: SDL could not start (%s)", short_sdl_error());
        return NULL;
    }

    const char *names[4];
    size_t count = 0;
    char tried[200] = "";
    const char *forced = getenv("SDL_VIDEODRIVER");
    if (forced && forced[0]) names[count++] = forced;
    else if (cfg->headless) names[count++] = "offscreen";
    else {
        /* Only drivers that can work here: probing Wayland or X11 without their socket just
         * prints the client library's own complaints. */
        const char *wl = getenv("WAYLAND_DISPLAY"), *x11 = getenv("DISPLAY");
        if (wl && wl[0]) names[count++] = "wayland";
        else snprintf(tried, sizeof tried, "wayland: no WAYLAND_DISPLAY");
        if (x11 && x11[0]) names[count++] = "x11";
        else snprintf(tried + strlen(tried), sizeof tried - strlen(tried), "%sx11: no DISPLAY", tried[0] ? "; " : "");
        names[count++] = "KMSDRM";
    }

    for (size_t i = 0; i < count; i++) {
        if (try_driver(p, cfg, names[i])) {
            g_platform_used = true;
            int w, h;
            SDL_GL_GetDrawableSize(p->window, &w, &h);
            log_info("platform: %s, %dx%d, OpenGL ES 2.0 context", p->driver, w, h);
            return p;
        }
        size_t n = strlen(tried);
        if (n + 1 < sizeof tried)
            snprintf(tried + n, sizeof tried - n, "%s%s: %.40s", n ? "; " : "", names[i], short_sdl_error());
    }
    SDL_Quit();
    if (cfg->headless)
        sky_error_set(err, SKY_ERR_START, "skyisles: no offscreen GLES2 context (%s); install Mesa (libgl1-mesa-dri, libegl-mesa0)", tried);
    else
        sky_error_set(err, SKY_ERR_START, "skyisles: no display (%s). Use a Pi console as a user in video,render,input; set DISPLAY; or --screenshot/--bench-frames", tried);
    return NULL;
}

void platform_destroy(Platform *p) {
    if (!p) return;
    if (p->gl) SDL_GL_DeleteContext(p->gl);
    if (p->window) SDL_DestroyWindow(p->window);
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    SDL_Quit();
    memset(p, 0, sizeof *p);
    g_platform_used = false;
}

static PlatformKey map_key(SDL_Keycode k) {
    switch (k) {
    case SDLK_ESCAPE: return PKEY_ESCAPE;
    case SDLK_SPACE: return PKEY_SPACE;
    case SDLK_RETURN: return PKEY_ENTER;
    case SDLK_TAB: return PKEY_TAB;
    case SDLK_UP: return PKEY_UP;
    case SDLK_DOWN: return PKEY_DOWN;
    case SDLK_LEFT: return PKEY_LEFT;
    case SDLK_RIGHT: return PKEY_RIGHT;
    case SDLK_F1: return PKEY_F1;
    case SDLK_F2: return PKEY_F2;
    case SDLK_F3: return PKEY_F3;
    case SDLK_F12: return PKEY_F12;
    default: break;
    }
    if (k >= SDLK_1 && k <= SDLK_9) return (PlatformKey)(PKEY_1 + (k - SDLK_1));
    return PKEY_NONE;
}

void platform_poll(Platform *p, PlatformEvents *ev) {
    memset(ev, 0, sizeof *ev);
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
        switch (e.type) {
        case SDL_QUIT: ev->quit = true; break;
        case SDL_WINDOWEVENT:
            if (e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) ev->resized = true;
            break;
        case SDL_KEYDOWN:
        case SDL_KEYUP: {
            PlatformKey k = map_key(e.key.keysym.sym);
            if (k == PKEY_NONE) break;
            p->held[k] = e.type == SDL_KEYDOWN;
            if (e.type == SDL_KEYDOWN && !e.key.repeat && ev->key_count < PLATFORM_MAX_KEY_EVENTS)
                ev->keys[ev->key_count++] = k;
            break;
        }
        default: break;
        }
    }
    memcpy(ev->held, p->held, sizeof ev->held);
}

void platform_drawable_size(const Platform *p, int *w, int *h) {
    SDL_GL_GetDrawableSize(p->window, w, h);
}

void platform_swap(Platform *p) { SDL_GL_SwapWindow(p->window); }

const char *platform_driver_name(const Platform *p) { return p->driver; }

bool platform_is_headless(const Platform *p) { return p->headless; }
