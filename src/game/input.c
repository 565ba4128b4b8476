/* skyisles game input: the binding table (keys, pad buttons, pad axes -> actions), stick
 * shaping, the controller that drives (the first to appear; a re-plug takes over again). */
#include "input.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct { const char *name, *label; } k_actions[GA_COUNT] = {
    [GA_PITCH] = {"pitch", TX(ACTION_PITCH)},
    [GA_ROLL] = {"roll", TX(ACTION_ROLL)},
    [GA_YAW] = {"yaw", TX(ACTION_YAW)},
    [GA_THROTTLE_UP] = {"throttle_up", TX(ACTION_THROTTLE_UP)},
    [GA_THROTTLE_DOWN] = {"throttle_down", TX(ACTION_THROTTLE_DOWN)},
    [GA_BOOST] = {"boost", TX(ACTION_BOOST)},
    [GA_BRAKE] = {"brake", TX(ACTION_BRAKE)},
    [GA_CAMERA] = {"camera", TX(ACTION_CAMERA)},
    [GA_MAP] = {"map", TX(ACTION_MAP)},
    [GA_PAUSE] = {"pause", TX(ACTION_PAUSE)},
    [GA_SELECT] = {"select", TX(ACTION_SELECT)},
    [GA_SCREENSHOT] = {"screenshot", TX(ACTION_SCREENSHOT)},
    [GA_MENU_UP] = {"menu_up", TX(ACTION_MENU_UP)},
    [GA_MENU_DOWN] = {"menu_down", TX(ACTION_MENU_DOWN)},
    [GA_MENU_LEFT] = {"menu_left", TX(ACTION_MENU_LEFT)},
    [GA_MENU_RIGHT] = {"menu_right", TX(ACTION_MENU_RIGHT)},
    [GA_MENU_OK] = {"menu_ok", TX(ACTION_MENU_OK)},
    [GA_MENU_BACK] = {"menu_back", TX(ACTION_MENU_BACK)},
};

const char *game_action_name(GameAction a) { return a < GA_COUNT ? k_actions[a].name : ""; }
const char *game_action_label(GameAction a) { return a < GA_COUNT ? k_actions[a].label : ""; }

GameAction game_action_from_name(const char *name) {
    for (int a = 0; a < GA_COUNT; a++)
        if (name && !strcmp(k_actions[a].name, name)) return (GameAction)a;
    return GA_COUNT;
}

#define K(a, key, s) {(uint8_t)(a), BIND_KEY, (uint8_t)(key), (int8_t)(s)}
#define B(a, btn, s) {(uint8_t)(a), BIND_PAD_BUTTON, (uint8_t)(btn), (int8_t)(s)}
#define X(a, axis, s) {(uint8_t)(a), BIND_PAD_AXIS, (uint8_t)(axis), (int8_t)(s)}

/* Flight-stick convention: pull back (stick down, S, Down) to climb. Triggers throttle, the
 * shoulders are the rudder, A boosts, B brakes, Y changes the camera, X opens the map. The d-pad flies too
 * (down climbs, right banks right; ramped, for handhelds without a stick). The menus answer to
 * the d-pad, the left stick, A/B, the arrows, Enter and Esc/Backspace. */
static const InputBind k_default_binds[] = {
    K(GA_PITCH, PKEY_S, +1), K(GA_PITCH, PKEY_DOWN, +1), K(GA_PITCH, PKEY_W, -1), K(GA_PITCH, PKEY_UP, -1),
    X(GA_PITCH, PPAD_LEFTY, +1), X(GA_PITCH, PPAD_LEFTY, -1),
    B(GA_PITCH, PPAD_DPAD_DOWN, +1), B(GA_PITCH, PPAD_DPAD_UP, -1),
    K(GA_ROLL, PKEY_D, +1), K(GA_ROLL, PKEY_RIGHT, +1), K(GA_ROLL, PKEY_A, -1), K(GA_ROLL, PKEY_LEFT, -1),
    X(GA_ROLL, PPAD_LEFTX, +1), X(GA_ROLL, PPAD_LEFTX, -1),
    B(GA_ROLL, PPAD_DPAD_RIGHT, +1), B(GA_ROLL, PPAD_DPAD_LEFT, -1),
    K(GA_YAW, PKEY_E, +1), K(GA_YAW, PKEY_Q, -1), B(GA_YAW, PPAD_RSHOULDER, +1), B(GA_YAW, PPAD_LSHOULDER, -1),
    X(GA_YAW, PPAD_RIGHTX, +1), X(GA_YAW, PPAD_RIGHTX, -1),
    K(GA_THROTTLE_UP, PKEY_LSHIFT, 1), K(GA_THROTTLE_UP, PKEY_R, 1), X(GA_THROTTLE_UP, PPAD_TRIGGER_RIGHT, 1),
    K(GA_THROTTLE_DOWN, PKEY_LCTRL, 1), K(GA_THROTTLE_DOWN, PKEY_F, 1), X(GA_THROTTLE_DOWN, PPAD_TRIGGER_LEFT, 1),
    K(GA_BOOST, PKEY_SPACE, 1), B(GA_BOOST, PPAD_A, 1),
    K(GA_BRAKE, PKEY_B, 1), B(GA_BRAKE, PPAD_B, 1),
    K(GA_CAMERA, PKEY_C, 1), B(GA_CAMERA, PPAD_Y, 1),
    K(GA_MAP, PKEY_M, 1), K(GA_MAP, PKEY_TAB, 1), B(GA_MAP, PPAD_X, 1),
    K(GA_PAUSE, PKEY_ESCAPE, 1), K(GA_PAUSE, PKEY_P, 1), B(GA_PAUSE, PPAD_START, 1),
    K(GA_SELECT, PKEY_H, 1), B(GA_SELECT, PPAD_BACK, 1),
    K(GA_SCREENSHOT, PKEY_F12, 1),
    K(GA_MENU_UP, PKEY_UP, 1), K(GA_MENU_UP, PKEY_W, 1), B(GA_MENU_UP, PPAD_DPAD_UP, 1), X(GA_MENU_UP, PPAD_LEFTY, -1),
    K(GA_MENU_DOWN, PKEY_DOWN, 1), K(GA_MENU_DOWN, PKEY_S, 1), B(GA_MENU_DOWN, PPAD_DPAD_DOWN, 1),
    X(GA_MENU_DOWN, PPAD_LEFTY, +1),
    K(GA_MENU_LEFT, PKEY_LEFT, 1), K(GA_MENU_LEFT, PKEY_A, 1), B(GA_MENU_LEFT, PPAD_DPAD_LEFT, 1),
    X(GA_MENU_LEFT, PPAD_LEFTX, -1),
    K(GA_MENU_RIGHT, PKEY_RIGHT, 1), K(GA_MENU_RIGHT, PKEY_D, 1), B(GA_MENU_RIGHT, PPAD_DPAD_RIGHT, 1),
    X(GA_MENU_RIGHT, PPAD_LEFTX, +1),
    K(GA_MENU_OK, PKEY_ENTER, 1), K(GA_MENU_OK, PKEY_SPACE, 1), B(GA_MENU_OK, PPAD_A, 1),
    K(GA_MENU_BACK, PKEY_ESCAPE, 1), K(GA_MENU_BACK, PKEY_BACKSPACE, 1), B(GA_MENU_BACK, PPAD_B, 1),
};
#undef K
#undef B
#undef X

void input_settings_default(InputSettings *s) {
    memset(s, 0, sizeof *s);
    s->dead_zone = INPUT_DEAD_ZONE_DEFAULT;
    s->curve = INPUT_CURVE_DEFAULT;
    s->button_ramp = INPUT_BUTTON_RAMP_DEFAULT;
    s->invert_pitch = false;
    s->nintendo = false;
    s->bind_count = sizeof k_default_binds / sizeof k_default_binds[0];
    memcpy(s->binds, k_default_binds, sizeof k_default_binds);
}

static void remove_binds(InputSettings *s, GameAction a, BindKind kind) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->bind_count; i++) {
        const InputBind *b = &s->binds[i];
        if (b->action == a && (kind == BIND_NONE || b->kind == kind)) continue;
        s->binds[n++] = *b;
    }
    s->bind_count = n;
}

void input_reset_action(InputSettings *s, GameAction a) {
    remove_binds(s, a, BIND_NONE);
    for (size_t i = 0; i < sizeof k_default_binds / sizeof k_default_binds[0]; i++)
        if (k_default_binds[i].action == a && s->bind_count < INPUT_MAX_BINDS) s->binds[s->bind_count++] = k_default_binds[i];
}

void input_rebind(InputSettings *s, GameAction a, BindKind kind, uint8_t code, int8_t sign) {
    remove_binds(s, a, kind);
    if (s->bind_count < INPUT_MAX_BINDS) s->binds[s->bind_count++] = (InputBind){(uint8_t)a, (uint8_t)kind, code, sign};
}

void input_bind_text(const InputBind *b, char *buf, size_t n) {
    const char *dir = game_action_is_axis((GameAction)b->action) || b->kind == BIND_PAD_AXIS ? (b->sign < 0 ? "-" : "+") : "";
    switch (b->kind) {
    case BIND_KEY: snprintf(buf, n, "key %s%s", platform_key_name((PlatformKey)b->code), dir); break;
    case BIND_PAD_BUTTON: snprintf(buf, n, "pad %s%s", platform_pad_button_name((PlatformPadButton)b->code), dir); break;
    case BIND_PAD_AXIS: snprintf(buf, n, "axis %s%s", platform_pad_axis_name((PlatformPadAxis)b->code), dir); break;
    default: snprintf(buf, n, "none"); break;
    }
}

bool input_bind_parse(GameAction a, const char *text, InputBind *out) {
    char kind[8], name[32];
    if (a >= GA_COUNT || !text || sscanf(text, "%7s %31s", kind, name) != 2) return false;
    size_t len = strlen(name);
    int8_t sign = 1;
    if (len > 1 && (name[len - 1] == '+' || name[len - 1] == '-')) {
        sign = name[len - 1] == '-' ? -1 : 1;
        name[len - 1] = 0;
    }
    out->action = (uint8_t)a;
    out->sign = sign;
    if (!strcasecmp(kind, "key")) {
        PlatformKey k = platform_key_from_name(name);
        if (k == PKEY_NONE) return false;
        out->kind = BIND_KEY;
        out->code = (uint8_t)k;
    } else if (!strcasecmp(kind, "pad")) {
        PlatformPadButton b = platform_pad_button_from_name(name);
        if (b == PPAD_BUTTON_COUNT) return false;
        out->kind = BIND_PAD_BUTTON;
        out->code = (uint8_t)b;
    } else if (!strcasecmp(kind, "axis")) {
        PlatformPadAxis x = platform_pad_axis_from_name(name);
        if (x == PPAD_AXIS_COUNT) return false;
        out->kind = BIND_PAD_AXIS;
        out->code = (uint8_t)x;
    } else {
        return false;
    }
    return true;
}

void input_init(Input *in, const InputSettings *s) {
    memset(in, 0, sizeof *in);
    in->active_id = -1;
    in->st.active_pad = -1;
    input_apply_settings(in, s);
}

void input_apply_settings(Input *in, const InputSettings *s) {
    in->set = *s;
    if (!(in->set.dead_zone >= 0.0f)) in->set.dead_zone = 0.0f;
    if (in->set.dead_zone > INPUT_DEAD_ZONE_MAX) in->set.dead_zone = INPUT_DEAD_ZONE_MAX;
    if (!(in->set.curve >= INPUT_CURVE_MIN)) in->set.curve = INPUT_CURVE_MIN;
    if (in->set.curve > INPUT_CURVE_MAX) in->set.curve = INPUT_CURVE_MAX;
    if (!(in->set.button_ramp >= 0.0f)) in->set.button_ramp = 0.0f;
    if (in->set.button_ramp > INPUT_BUTTON_RAMP_MAX) in->set.button_ramp = INPUT_BUTTON_RAMP_MAX;
    if (in->set.bind_count > INPUT_MAX_BINDS) in->set.bind_count = INPUT_MAX_BINDS;
}

void input_shape_stick(float *x, float *y, float dead_zone, float curve) {
    float r = sqrtf(*x * *x + *y * *y);
    if (!(r > dead_zone) || r <= 0.0f) {
        *x = *y = 0.0f;
        return;
    }
    float t = (r - dead_zone) / (1.0f - dead_zone);
    if (t > 1.0f) t = 1.0f;
    float k = powf(t, curve) / r;
    *x *= k;
    *y *= k;
}

static const PlatformPad *find_pad(const PlatformEvents *ev, int32_t id) {
    for (int i = 0; i < PLATFORM_MAX_PADS; i++)
        if (ev->pads[i].connected && ev->pads[i].id == id) return &ev->pads[i];
    return NULL;
}

/* The controller that drives: the first to appear keeps it while plugged in; when it goes the
 * next oldest takes over, and with none left the first to appear next. */
static void track_pads(Input *in, const PlatformEvents *ev) {
    InputState *st = &in->st;
    st->pad_change = INPUT_PAD_NONE;
    st->pad_name[0] = 0;
    for (uint32_t i = 0; i < ev->pad_event_count; i++) {
        const PlatformPadEvent *e = &ev->pad_events[i];
        if (e->type == PPAD_EV_ADDED && in->active_id < 0) {
            in->active_id = e->id;
            st->pad_change = INPUT_PAD_FOUND;
            snprintf(st->pad_name, sizeof st->pad_name, "%s", e->name);
        } else if (e->type == PPAD_EV_REMOVED && e->id == in->active_id) {
            in->active_id = -1;
            const PlatformPad *next = NULL;
            for (int k = 0; k < PLATFORM_MAX_PADS; k++)
                if (ev->pads[k].connected && (!next || ev->pads[k].order < next->order)) next = &ev->pads[k];
            if (next) {
                in->active_id = next->id;
                st->pad_change = INPUT_PAD_SWITCHED;
                snprintf(st->pad_name, sizeof st->pad_name, "%s", next->name);
            } else {
                st->pad_change = INPUT_PAD_LOST;
                snprintf(st->pad_name, sizeof st->pad_name, "%s", e->name);
            }
        } else if (e->type == PPAD_EV_UNMAPPED && st->pad_change == INPUT_PAD_NONE) {
            st->pad_change = INPUT_PAD_UNMAPPED;
            snprintf(st->pad_name, sizeof st->pad_name, "%s", e->name);
        }
    }
    st->active_pad = in->active_id;
    st->pad_connected = in->active_id >= 0 && find_pad(ev, in->active_id) != NULL;
}

/* In the Nintendo layout the button labelled A sits where SDL's B is (and X where Y is). */
static uint8_t layout_button(const InputSettings *s, uint8_t b) {
    if (!s->nintendo) return b;
    switch (b) {
    case PPAD_A: return PPAD_B;
    case PPAD_B: return PPAD_A;
    case PPAD_X: return PPAD_Y;
    case PPAD_Y: return PPAD_X;
    default: return b;
    }
}

static bool key_pressed(const PlatformEvents *ev, uint8_t key) {
    for (uint32_t i = 0; i < ev->key_count; i++)
        if (ev->keys[i] == key) return true;
    return false;
}

/* A flight axis' pad buttons (sum -1..1 this frame): the deflection grows toward it over
 * button_ramp seconds, and goes to the centre at once when they are let go or reversed, so a
 * tap nudges and a hold pulls hard. */
static float ramp_buttons(Input *in, int a, float target, float dt) {
    float r = in->ramp[a];
    if (target == 0.0f || r * target < 0.0f) r = 0.0f;
    float rate = in->set.button_ramp > 0.0f ? dt / in->set.button_ramp : 1.0f;
    if (rate > 1.0f || !(rate >= 0.0f)) rate = 1.0f;
    if (r < target) r = r + rate > target ? target : r + rate;
    else if (r > target) r = r - rate < target ? target : r - rate;
    in->ramp[a] = r;
    return r;
}

void input_update(Input *in, const PlatformEvents *ev) { input_update_dt(in, ev, 1.0f / 60.0f); }

void input_update_dt(Input *in, const PlatformEvents *ev, float dt) {
    InputState *st = &in->st;
    const InputSettings *s = &in->set;
    track_pads(in, ev);
    const PlatformPad *pad = st->pad_connected ? find_pad(ev, in->active_id) : NULL;
    float axis[PPAD_AXIS_COUNT] = {0};
    if (pad) {
        memcpy(axis, pad->axis, sizeof axis);
        input_shape_stick(&axis[PPAD_LEFTX], &axis[PPAD_LEFTY], s->dead_zone, s->curve);
        input_shape_stick(&axis[PPAD_RIGHTX], &axis[PPAD_RIGHTY], s->dead_zone, s->curve);
        for (int t = PPAD_TRIGGER_LEFT; t <= PPAD_TRIGGER_RIGHT; t++)
            axis[t] = axis[t] > 0.05f ? (axis[t] - 0.05f) / 0.95f : 0.0f;
    }
    bool edge[GA_COUNT] = {false};
    float value[GA_COUNT] = {0.0f};
    float buttons[GA_YAW + 1] = {0.0f};   /* the flight axes' pad buttons, ramped below */
    for (uint32_t i = 0; i < s->bind_count; i++) {
        const InputBind *b = &s->binds[i];
        if (b->action >= GA_COUNT) continue;
        float c = 0.0f;
        bool press = false;
        switch (b->kind) {
        case BIND_KEY:
            if (b->code < PKEY_COUNT && ev->held[b->code]) c = 1.0f;
            press = key_pressed(ev, b->code);
            break;
        case BIND_PAD_BUTTON:
            if (pad && b->code < PPAD_BUTTON_COUNT) {
                uint32_t bit = 1u << layout_button(s, b->code);
                if (pad->held & bit) c = 1.0f;
                press = (pad->pressed & bit) != 0;
            }
            break;
        case BIND_PAD_AXIS:
            if (b->code < PPAD_AXIS_COUNT) {
                float v = axis[b->code] * (b->sign < 0 ? -1.0f : 1.0f);
                c = v > 0.0f ? v : 0.0f;
            }
            break;
        default: break;
        }
        if (press) {
            edge[b->action] = true;
            if (c < 1.0f) c = 1.0f;   /* a tap that ended before this poll still counts once */
        }
        if (!game_action_is_axis((GameAction)b->action)) {
            if (c > value[b->action]) value[b->action] = c;
        } else if (b->kind == BIND_PAD_BUTTON) {
            buttons[b->action] += c * (b->sign < 0 ? -1.0f : 1.0f);
        } else {
            value[b->action] += c * (b->sign < 0 ? -1.0f : 1.0f);
        }
    }
    for (int a = 0; a <= GA_YAW; a++) {
        float t = buttons[a] > 1.0f ? 1.0f : buttons[a] < -1.0f ? -1.0f : buttons[a];
        value[a] += ramp_buttons(in, a, t, dt);
    }
    st->any_pressed = ev->key_count > 0 || (pad && pad->pressed != 0);
    for (int a = 0; a < GA_COUNT; a++) {
        float v = value[a];
        if (v > 1.0f) v = 1.0f;
        if (v < -1.0f) v = -1.0f;
        if (a == GA_PITCH && s->invert_pitch) v = -v;
        st->value[a] = v;
        bool held = (v >= 0.5f || v <= -0.5f);
        /* Axis-driven buttons (a stick used as a d-pad) press when they cross half way. */
        st->pressed[a] = edge[a] || (held && !in->prev_held[a]);
        st->held[a] = held;
        in->prev_held[a] = held || edge[a];
    }
    uint32_t both = (1u << PPAD_BACK) | (1u << PPAD_START);
    st->quit_combo = pad && (pad->held & both) == both && (in->prev_pad_held & both) != both;
    uint32_t shoulders = (1u << PPAD_LSHOULDER) | (1u << PPAD_RSHOULDER);
    st->shot_combo = pad && (pad->held & shoulders) == shoulders && (in->prev_pad_held & shoulders) != shoulders;
    in->prev_pad_held = pad ? pad->held : 0;
}
