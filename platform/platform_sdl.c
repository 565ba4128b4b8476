/* skyisles platform backend on SDL2: tries the video drivers in order (KMSDRM on a console,
 * Wayland/X11 on a desktop, offscreen when headless) and opens an OpenGL ES 2.0 context. */
#include "platform.h"
#include "pad_db.h"
#include "console.h"

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
    SDL_GameController *pad_gc[PLATFORM_MAX_PADS];
    PlatformPad pads[PLATFORM_MAX_PADS];
    uint32_t pad_order;
    char pad_db[512];           /* the bundled database, for the vendor/product fallback */
    bool presented;             /* the first frame was swapped (logged once on a display) */
    bool plain_full;            /* X11 with no window manager: a borderless window over the screen */
    SDL_Rect windowed;          /* where that window was before */
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
        /* On X11 the window opens as a window and is then made fullscreen (platform_set_fullscreen):
         * only a mapped window shows whether a window manager took the request. */
        if (cfg->fullscreen && SDL_strcasecmp(p->driver, "x11") != 0) flags |= SDL_WINDOW_FULLSCREEN_DESKTOP;
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
    if (cfg->fullscreen && !console && !p->headless && !(SDL_GetWindowFlags(p->window) & SDL_WINDOW_FULLSCREEN))
        platform_set_fullscreen(p, true);
    return true;
}

/* ---------------------------------------------------------------- game controllers */
static void add_mappings_file(const char *path, const char *what) {
    if (!path || !path[0]) return;
    int n = SDL_GameControllerAddMappingsFromFile(path);
    if (n < 0) log_info("platform: no %s at %s (%s)", what, path, short_sdl_error());
    else log_info("platform: %d controller mappings from %s", n, path);
}

/* Bundled database first, then the user's file, then the environment's, so the user's own
 * mappings win over the database for the same controller. */
static void load_pad_mappings(Platform *p, const PlatformConfig *cfg) {
    if (cfg->pad_db) snprintf(p->pad_db, sizeof p->pad_db, "%s", cfg->pad_db);
    add_mappings_file(cfg->pad_db, "controller database");
    add_mappings_file(cfg->pad_user_db, "user controller mappings");
    add_mappings_file(getenv("SDL_GAMECONTROLLERCONFIG_FILE"), "SDL_GAMECONTROLLERCONFIG_FILE");
    const char *env = getenv("SDL_GAMECONTROLLERCONFIG");
    /* One mapping per line, as SDL reads it. */
    char line[PAD_DB_LINE_MAX];
    for (const char *s = env; s && *s;) {
        s = pad_db_next_line(s, line, sizeof line);
        if (line[0] && SDL_GameControllerAddMapping(line) < 0)
            log_warn("platform: SDL_GAMECONTROLLERCONFIG mapping not understood (%s)", short_sdl_error());
    }
}

/* A joystick without a mapping for its exact GUID: the database often has the same controller
 * (vendor and product) on another bus (USB vs Bluetooth) or driver; take that mapping for this
 * GUID. Rare (hot-plug of an unknown pad), so the file is scanned then, with a fixed buffer. */
static bool map_by_vendor_product(Platform *p, int index) {
    if (!p->pad_db[0]) return false;
    Uint16 vendor = SDL_JoystickGetDeviceVendor(index), product = SDL_JoystickGetDeviceProduct(index);
    if (!vendor || !product) return false;
    FILE *f = fopen(p->pad_db, "r");
    if (!f) return false;
    /* The first Linux line for this vendor and product, or better one that also has its name. */
    const char *name = SDL_JoystickNameForIndex(index);
    char line[PAD_DB_LINE_MAX], best[PAD_DB_LINE_MAX] = "";
    bool best_named = false;
    while (!best_named && fgets(line, sizeof line, f)) pad_db_consider(line, vendor, product, name, best, &best_named);
    fclose(f);
    if (!best[0]) return false;
    char guid[33], mapping[PAD_DB_LINE_MAX + 40];
    SDL_JoystickGetGUIDString(SDL_JoystickGetDeviceGUID(index), guid, sizeof guid);
    if (!pad_db_remap(best, guid, mapping, sizeof mapping) || SDL_GameControllerAddMapping(mapping) < 0) return false;
    char db_name[64];
    pad_db_line_name(best, db_name, sizeof db_name);
    log_info("platform: controller '%s' (%s) has no mapping of its own: using the database's for '%s'",
             name ? name : "?", guid, db_name);
    return SDL_IsGameController(index);
}

static void pad_event(PlatformEvents *ev, PlatformPadEventType type, int32_t id, const char *name, const char *guid) {
    if (ev->pad_event_count >= PLATFORM_MAX_PAD_EVENTS) return;
    PlatformPadEvent *e = &ev->pad_events[ev->pad_event_count++];
    e->type = type;
    e->id = id;
    snprintf(e->name, sizeof e->name, "%s", name ? name : "controller");
    snprintf(e->guid, sizeof e->guid, "%s", guid ? guid : "");
}

static int pad_slot(const Platform *p, int32_t id) {
    for (int i = 0; i < PLATFORM_MAX_PADS; i++)
        if (p->pad_gc[i] && p->pads[i].id == id) return i;
    return -1;
}

static void pad_added(Platform *p, int index, PlatformEvents *ev) {
    SDL_JoystickID id = SDL_JoystickGetDeviceInstanceID(index);
    if (id < 0 || pad_slot(p, id) >= 0) return;
    char guid[33];
    SDL_JoystickGetGUIDString(SDL_JoystickGetDeviceGUID(index), guid, sizeof guid);
    const char *name = SDL_JoystickNameForIndex(index);
    if (!SDL_IsGameController(index) && !map_by_vendor_product(p, index)) {
        log_warn("platform: controller '%s' (%s) has no mapping: add a line for it to gamecontrollerdb.txt in the "
                 "config folder or set SDL_GAMECONTROLLERCONFIG",
                 name ? name : "?", guid);
        pad_event(ev, PPAD_EV_UNMAPPED, id, name, guid);
        return;
    }
    int slot = -1;
    for (int i = 0; i < PLATFORM_MAX_PADS && slot < 0; i++)
        if (!p->pad_gc[i]) slot = i;
    if (slot < 0) {
        log_info("platform: controller '%s' ignored: %d are open already", name ? name : "?", PLATFORM_MAX_PADS);
        return;
    }
    SDL_GameController *gc = SDL_GameControllerOpen(index);
    if (!gc) {
        log_warn("platform: controller '%s' could not be opened (%s)", name ? name : "?", short_sdl_error());
        return;
    }
    p->pad_gc[slot] = gc;
    PlatformPad *pad = &p->pads[slot];
    memset(pad, 0, sizeof *pad);
    pad->connected = true;
    pad->id = id;
    pad->order = ++p->pad_order;
    snprintf(pad->name, sizeof pad->name, "%s", SDL_GameControllerName(gc) ? SDL_GameControllerName(gc) : "controller");
    log_info("platform: controller '%s' connected (%s)", pad->name, guid);
    pad_event(ev, PPAD_EV_ADDED, id, pad->name, guid);
}

static void pad_removed(Platform *p, int32_t id, PlatformEvents *ev) {
    int slot = pad_slot(p, id);
    if (slot < 0) return;
    log_info("platform: controller '%s' disconnected", p->pads[slot].name);
    pad_event(ev, PPAD_EV_REMOVED, id, p->pads[slot].name, NULL);
    SDL_GameControllerClose(p->pad_gc[slot]);
    p->pad_gc[slot] = NULL;
    memset(&p->pads[slot], 0, sizeof p->pads[slot]);
}

static void pads_close(Platform *p) {
    for (int i = 0; i < PLATFORM_MAX_PADS; i++)
        if (p->pad_gc[i]) {
            SDL_GameControllerClose(p->pad_gc[i]);
            p->pad_gc[i] = NULL;
        }
}

static float axis_value(Sint16 v, bool trigger) {
    float f = v < 0 ? (float)v / 32768.0f : (float)v / 32767.0f;
    return trigger ? (f < 0.0f ? 0.0f : f) : f;
}

static void pads_sample(Platform *p, PlatformEvents *ev) {
    for (int i = 0; i < PLATFORM_MAX_PADS; i++) {
        PlatformPad *pad = &p->pads[i];
        if (!p->pad_gc[i]) continue;
        pad->held = 0;
        for (int b = 0; b < PPAD_BUTTON_COUNT; b++)
            if (SDL_GameControllerGetButton(p->pad_gc[i], (SDL_GameControllerButton)b)) pad->held |= 1u << b;
        for (int a = 0; a < PPAD_AXIS_COUNT; a++)
            pad->axis[a] = axis_value(SDL_GameControllerGetAxis(p->pad_gc[i], (SDL_GameControllerAxis)a),
                                      a >= PPAD_TRIGGER_LEFT);
        ev->pads[i] = *pad;
        pad->pressed = 0;
    }
}

int platform_virtual_pad(Platform *p, int handle) {
    (void)p;
    if (handle >= 0) {
        SDL_JoystickDetachVirtual(handle);
        return -1;
    }
    /* The release build for handhelds compiles against SDL 2.0.14 (docs/building.md), which has
     * virtual joysticks but not the described (Ex) form of 2.24. */
#if SDL_VERSION_ATLEAST(2, 24, 0)
    SDL_VirtualJoystickDesc d;
    SDL_zero(d);
    d.version = SDL_VIRTUAL_JOYSTICK_DESC_VERSION;
    d.type = SDL_JOYSTICK_TYPE_GAMECONTROLLER;   /* SDL maps it as a standard pad */
    d.naxes = SDL_CONTROLLER_AXIS_MAX;
    d.nbuttons = SDL_CONTROLLER_BUTTON_MAX;
    d.name = "skyisles virtual pad";
    int index = SDL_JoystickAttachVirtualEx(&d);
#else
    int index = SDL_JoystickAttachVirtual(SDL_JOYSTICK_TYPE_GAMECONTROLLER, SDL_CONTROLLER_AXIS_MAX,
                                          SDL_CONTROLLER_BUTTON_MAX, 0);
#endif
    if (index < 0) log_warn("platform: no virtual controller (%s)", short_sdl_error());
    return index;
}

/* ---------------------------------------------------------------- video */
static bool try_driver(Platform *p, const PlatformConfig *cfg, const char *name) {
    /* The hint exists from SDL 2.0.22; older SDL (handheld firmwares, Debian 11) reads only the
     * environment variable, so both are set: the attempt gets the driver it names either way. */
    SDL_SetHint("SDL_VIDEODRIVER", name);
    setenv("SDL_VIDEODRIVER", name, 1);
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
    /* Controllers are optional (the keyboard always works): a failure is logged, not fatal.
     * Mappings are loaded now, before the first poll opens any controller. */
    if (SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0)
        log_warn("platform: no game controller support here (%s): keyboard only", short_sdl_error());
    else
        load_pad_mappings(p, cfg);
    if (cfg->no_video) {
        g_platform_used = true;
        snprintf(p->driver, sizeof p->driver, "none");
        return p;
    }

    const char *names[4];
    size_t count = 0;
    char tried[480] = "";
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

    char console_fatal[sizeof ((PlatformConsole *)0)->fatal] = "";
    for (size_t i = 0; i < count; i++) {
        PlatformConsole con = {.card_index = -1};
        if (SDL_strcasecmp(names[i], "KMSDRM") == 0) {
            /* Only here, where the console is about to be used: desktops never see this. A card
             * that cannot be opened is not handed to SDL (libdrm and Mesa would add lines of
             * their own); the reason becomes the error line. */
            platform_console_check(&con, "/dev", "/sys");
            if (con.fatal[0]) {
                snprintf(console_fatal, sizeof console_fatal, "%s", con.fatal);
                size_t n = strlen(tried);
                if (n + 1 < sizeof tried)
                    snprintf(tried + n, sizeof tried - n, "%sKMSDRM: %s", n ? "; " : "", con.fatal);
                continue;
            }
            if (con.card_index >= 0) {
                char idx[16];
                snprintf(idx, sizeof idx, "%d", con.card_index);
                setenv("SDL_KMSDRM_DEVICE_INDEX", idx, 1);   /* honoured by SDL 2.24 and later */
                log_info("platform: DRM card %s (%s)", con.card, con.how);
            }
        }
        if (try_driver(p, cfg, names[i])) {
            g_platform_used = true;
            int w, h;
            SDL_GL_GetDrawableSize(p->window, &w, &h);
            log_info("platform: %s, %dx%d, OpenGL ES 2.0 context", p->driver, w, h);
            if (con.warn[0]) log_warn("platform: %s", con.warn);
            return p;
        }
        size_t n = strlen(tried);
        const char *x11 = getenv("DISPLAY");
        if (n + 1 < sizeof tried && SDL_strcasecmp(names[i], "x11") == 0 && x11 && x11[0] &&
            strstr(short_sdl_error(), "not available"))
            /* SDL only says "x11 not available": the display it could not open is the clue. */
            snprintf(tried + n, sizeof tried - n, "%sx11: cannot open DISPLAY=%.40s (is that X server running?)",
                     n ? "; " : "", x11);
        else if (n + 1 < sizeof tried)
            snprintf(tried + n, sizeof tried - n, "%s%s: %.40s", n ? "; " : "", names[i], short_sdl_error());
    }
    SDL_Quit();
    if (cfg->headless)
        sky_error_set(err, SKY_ERR_START, "skyisles: no offscreen GLES2 context (%s); install Mesa (libgl1-mesa-dri, libegl-mesa0)", tried);
    else if (console_fatal[0] && count == 1)
        /* Only the console was possible (no desktop display set): its reason is the line. */
        sky_error_set(err, SKY_ERR_START, "skyisles: no display: %s; on a desktop set DISPLAY or WAYLAND_DISPLAY", console_fatal);
    else
        sky_error_set(err, SKY_ERR_START, "skyisles: no display (%s). Use a Pi console as a user in video,render,input; set DISPLAY; or --screenshot/--bench-frames", tried);
    return NULL;
}

void platform_destroy(Platform *p) {
    if (!p) return;
    platform_audio_close();   /* before SDL_Quit: the callback stops first */
    pads_close(p);
    if (p->gl) SDL_GL_DeleteContext(p->gl);
    if (p->window) SDL_DestroyWindow(p->window);
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    SDL_Quit();
    memset(p, 0, sizeof *p);
    g_platform_used = false;
}

/* ---------------------------------------------------------------- keys and events */
/* Keys by position (scancode), so W/A/S/D sit under the same fingers on any layout. */
static const struct { SDL_Scancode sc; PlatformKey key; } k_keys[] = {
    {SDL_SCANCODE_ESCAPE, PKEY_ESCAPE}, {SDL_SCANCODE_SPACE, PKEY_SPACE},
    {SDL_SCANCODE_RETURN, PKEY_ENTER}, {SDL_SCANCODE_KP_ENTER, PKEY_ENTER},
    {SDL_SCANCODE_TAB, PKEY_TAB}, {SDL_SCANCODE_BACKSPACE, PKEY_BACKSPACE},
    {SDL_SCANCODE_UP, PKEY_UP}, {SDL_SCANCODE_DOWN, PKEY_DOWN},
    {SDL_SCANCODE_LEFT, PKEY_LEFT}, {SDL_SCANCODE_RIGHT, PKEY_RIGHT},
    {SDL_SCANCODE_LSHIFT, PKEY_LSHIFT}, {SDL_SCANCODE_RSHIFT, PKEY_RSHIFT},
    {SDL_SCANCODE_LCTRL, PKEY_LCTRL}, {SDL_SCANCODE_RCTRL, PKEY_RCTRL},
    {SDL_SCANCODE_PAGEUP, PKEY_PAGEUP}, {SDL_SCANCODE_PAGEDOWN, PKEY_PAGEDOWN},
    {SDL_SCANCODE_MINUS, PKEY_MINUS}, {SDL_SCANCODE_EQUALS, PKEY_EQUALS},
    {SDL_SCANCODE_COMMA, PKEY_COMMA}, {SDL_SCANCODE_PERIOD, PKEY_PERIOD},
    {SDL_SCANCODE_LALT, PKEY_LALT}, {SDL_SCANCODE_RALT, PKEY_RALT},
    {SDL_SCANCODE_F1, PKEY_F1}, {SDL_SCANCODE_F2, PKEY_F2}, {SDL_SCANCODE_F3, PKEY_F3},
    {SDL_SCANCODE_F4, PKEY_F4}, {SDL_SCANCODE_F5, PKEY_F5}, {SDL_SCANCODE_F6, PKEY_F6},
    {SDL_SCANCODE_F7, PKEY_F7}, {SDL_SCANCODE_F8, PKEY_F8}, {SDL_SCANCODE_F9, PKEY_F9},
    {SDL_SCANCODE_F10, PKEY_F10}, {SDL_SCANCODE_F11, PKEY_F11}, {SDL_SCANCODE_F12, PKEY_F12},
};

static PlatformKey map_key(SDL_Scancode sc) {
    if (sc >= SDL_SCANCODE_A && sc <= SDL_SCANCODE_Z) return (PlatformKey)(PKEY_A + (sc - SDL_SCANCODE_A));
    if (sc >= SDL_SCANCODE_1 && sc <= SDL_SCANCODE_9) return (PlatformKey)(PKEY_1 + (sc - SDL_SCANCODE_1));
    if (sc == SDL_SCANCODE_0) return PKEY_0;
    for (size_t i = 0; i < sizeof k_keys / sizeof k_keys[0]; i++)
        if (k_keys[i].sc == sc) return k_keys[i].key;
    return PKEY_NONE;
}

void platform_poll(Platform *p, PlatformEvents *ev) {
    memset(ev, 0, sizeof *ev);
    if (platform_stop_signal()) ev->quit = true;
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
        switch (e.type) {
        case SDL_QUIT: ev->quit = true; break;
        case SDL_WINDOWEVENT:
            if (e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) ev->resized = true;
            break;
        case SDL_KEYDOWN:
        case SDL_KEYUP: {
            PlatformKey k = map_key(e.key.keysym.scancode);
            if (k == PKEY_NONE) break;
            p->held[k] = e.type == SDL_KEYDOWN;
            if (e.type == SDL_KEYDOWN && !e.key.repeat && ev->key_count < PLATFORM_MAX_KEY_EVENTS) {
                if ((e.key.keysym.mod & KMOD_ALT) || p->held[PKEY_LALT] || p->held[PKEY_RALT])
                    ev->key_alt |= 1u << ev->key_count;
                ev->keys[ev->key_count++] = k;
            }
            break;
        }
        /* Controllers open on the joystick event, so a joystick SDL cannot map yet can get
         * the database's mapping for its vendor and product first. */
        case SDL_JOYDEVICEADDED: pad_added(p, e.jdevice.which, ev); break;
        case SDL_CONTROLLERDEVICEREMOVED: pad_removed(p, e.cdevice.which, ev); break;
        /* Audio outputs only (iscapture 0); a removal matters only for the device in use. */
        case SDL_AUDIODEVICEREMOVED:
            if (!e.adevice.iscapture && platform_audio_is_open_id(e.adevice.which)) ev->audio_lost = true;
            break;
        case SDL_AUDIODEVICEADDED:
            if (!e.adevice.iscapture) ev->audio_added = true;
            break;
        case SDL_CONTROLLERBUTTONDOWN: {
            int slot = pad_slot(p, e.cbutton.which);
            if (slot >= 0 && e.cbutton.button < PPAD_BUTTON_COUNT) p->pads[slot].pressed |= 1u << e.cbutton.button;
            break;
        }
        default: break;
        }
    }
    memcpy(ev->held, p->held, sizeof ev->held);
    pads_sample(p, ev);
}

void platform_drawable_size(const Platform *p, int *w, int *h) {
    SDL_GL_GetDrawableSize(p->window, w, h);
}

void platform_swap(Platform *p) {
    SDL_GL_SwapWindow(p->window);
    if (!p->presented && !p->headless) {
        /* The line a boot check (or a person at a Pi's serial console) waits for. */
        int w, h;
        SDL_GL_GetDrawableSize(p->window, &w, &h);
        log_info("platform: first frame presented on %s (%dx%d)", p->driver, w, h);
    }
    p->presented = true;
}

void platform_rumble(Platform *p, float low, float high, uint32_t ms) {
    Uint16 lo = (Uint16)((low < 0.0f ? 0.0f : (low > 1.0f ? 1.0f : low)) * 65535.0f);
    Uint16 hi = (Uint16)((high < 0.0f ? 0.0f : (high > 1.0f ? 1.0f : high)) * 65535.0f);
    /* SDL returns -1 for a pad without rumble: that is a normal pad, not an error to report. */
    for (int i = 0; i < PLATFORM_MAX_PADS; i++)
        if (p->pad_gc[i]) (void)SDL_GameControllerRumble(p->pad_gc[i], lo, hi, ms);
}

const char *platform_driver_name(const Platform *p) { return p->driver; }

bool platform_is_headless(const Platform *p) { return p->headless; }

int platform_refresh_hz(const Platform *p) {
    SDL_DisplayMode m;
    if (!p->window || p->headless) return 0;
    int d = SDL_GetWindowDisplayIndex(p->window);
    if (d < 0 || SDL_GetCurrentDisplayMode(d, &m) != 0) return 0;
    return m.refresh_rate > 0 ? m.refresh_rate : 0;
}

void *platform_gl_proc(const char *name) { return SDL_GL_GetProcAddress(name); }

bool platform_set_vsync(Platform *p, bool on) {
    if (!p->gl) return false;
    return SDL_GL_SetSwapInterval(on ? 1 : 0) == 0;
}

bool platform_is_console(const Platform *p) { return SDL_strcasecmp(p->driver, "KMSDRM") == 0; }

/* SDL 2's X11 fullscreen asks the window manager (_NET_WM_STATE_FULLSCREEN) and waits briefly
 * for the window to move; with none running (a bare X server: a kiosk, `startx skyisles`)
 * nothing moves, yet SDL takes the window as screen-sized and reports it at the screen's origin.
 * What tells is the move SDL posts when the window really went there (it posts none for a window
 * that stayed put). Then the game does it itself, as X lets a client without a window manager:
 * no border, the screen's rect. */
static bool x11_fullscreen_took(Platform *p, const SDL_Rect *before) {
    SDL_Rect b;
    int d = SDL_GetWindowDisplayIndex(p->window);
    if (d < 0 || SDL_GetDisplayBounds(d, &b) != 0) return true;
    if (before->x == b.x && before->y == b.y) return true;   /* already there: nothing to tell by */
    SDL_Event ev[64];
    int n = SDL_PeepEvents(ev, 64, SDL_PEEKEVENT, SDL_WINDOWEVENT, SDL_WINDOWEVENT);
    Uint32 id = SDL_GetWindowID(p->window);
    for (int i = 0; i < n; i++)
        if (ev[i].window.windowID == id && ev[i].window.event == SDL_WINDOWEVENT_MOVED && ev[i].window.data1 == b.x &&
            ev[i].window.data2 == b.y)
            return true;
    return false;
}

static void x11_plain_fullscreen(Platform *p, bool on) {
    if (on) {
        SDL_Rect b;
        if (SDL_GetDisplayBounds(SDL_GetWindowDisplayIndex(p->window), &b) != 0) return;
        SDL_SetWindowFullscreen(p->window, 0);
        SDL_SetWindowBordered(p->window, SDL_FALSE);
        SDL_SetWindowPosition(p->window, b.x, b.y);
        SDL_SetWindowSize(p->window, b.w, b.h);
        SDL_RaiseWindow(p->window);
        log_info("platform: no window manager took the fullscreen request: the window covers the screen itself (%dx%d)",
                 b.w, b.h);
    } else {
        SDL_SetWindowBordered(p->window, SDL_TRUE);
        SDL_SetWindowSize(p->window, p->windowed.w, p->windowed.h);
        SDL_SetWindowPosition(p->window, p->windowed.x, p->windowed.y);
    }
    p->plain_full = on;
}

bool platform_set_fullscreen(Platform *p, bool on) {
    if (!p->window || p->headless || platform_is_console(p) || SDL_strcasecmp(p->driver, "offscreen") == 0) return false;
    bool x11 = SDL_strcasecmp(p->driver, "x11") == 0;
    if (p->plain_full) {
        if (!on) x11_plain_fullscreen(p, false);
        return true;
    }
    bool was_full = (SDL_GetWindowFlags(p->window) & SDL_WINDOW_FULLSCREEN) != 0;
    SDL_Rect before = {0, 0, 0, 0};
    SDL_GetWindowPosition(p->window, &before.x, &before.y);
    SDL_GetWindowSize(p->window, &before.w, &before.h);
    if (SDL_SetWindowFullscreen(p->window, on ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0) != 0) {
        log_warn("platform: cannot switch to %s on %s (%s)", on ? "fullscreen" : "a window", p->driver, short_sdl_error());
        return false;
    }
    if (x11 && on && !was_full && !x11_fullscreen_took(p, &before)) {
        p->windowed = before;
        x11_plain_fullscreen(p, true);
    }
    return true;
}

/* Read from sysfs with no heap call and no D-Bus round trip (SDL_GetPowerInfo asks UPower first
 * and lists the folder with opendir: allocations in flight, and a frame held by a slow upowerd). */
int platform_battery(bool *discharging) {
    return platform_battery_read("/sys", discharging);
}
