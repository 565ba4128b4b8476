/* skyisles tests: a booted game's frames and its scripted input (a key pressed and released as
 * SDL events, a virtual standard pad plugged in), as the game tests drive it (header only, like
 * game_fixture.h; include cmocka's headers first). */
#ifndef SKYISLES_TESTS_GAME_INPUT_H
#define SKYISLES_TESTS_GAME_INPUT_H

#include <SDL2/SDL.h>

#include "game/game.h"

/* n frames of dt seconds: the platform polled, the game stepped. */
static inline void fixture_frames(Game *g, int n, float dt) {
    for (int i = 0; i < n; i++) {
        PlatformEvents ev;
        platform_poll(g->svc.platform, &ev);
        game_frame(g, &ev, dt);
    }
}

/* A press and release of sc, queued for the next poll. */
static inline void fixture_key(SDL_Scancode sc) {
    SDL_Event e;
    SDL_zero(e);
    e.type = SDL_KEYDOWN;
    e.key.state = SDL_PRESSED;
    e.key.keysym.scancode = sc;
    SDL_PushEvent(&e);
    e.type = SDL_KEYUP;
    e.key.state = SDL_RELEASED;
    SDL_PushEvent(&e);
}

typedef struct FixturePad {
    int index;
    SDL_Joystick *js;
} FixturePad;

/* A standard pad SDL maps itself: a virtual joystick of the game controller type, "test pad". */
static inline FixturePad fixture_pad_plug(void) {
    SDL_VirtualJoystickDesc d;
    SDL_zero(d);
    d.version = SDL_VIRTUAL_JOYSTICK_DESC_VERSION;
    d.type = SDL_JOYSTICK_TYPE_GAMECONTROLLER;
    d.naxes = SDL_CONTROLLER_AXIS_MAX;
    d.nbuttons = SDL_CONTROLLER_BUTTON_MAX;
    d.name = "test pad";
    FixturePad p;
    p.index = SDL_JoystickAttachVirtualEx(&d);
    assert_true(p.index >= 0);
    p.js = SDL_JoystickOpen(p.index);
    assert_non_null(p.js);
    return p;
}

static inline void fixture_pad_unplug(FixturePad *p) {
    SDL_JoystickClose(p->js);
    assert_int_equal(SDL_JoystickDetachVirtual(p->index), 0);
    p->js = NULL;
}

#endif
