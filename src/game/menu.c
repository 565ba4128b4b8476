/* skyisles game menus: pages built from the settings they change (the panel from the world's
 * parameter table), moved through by GameActions, values stepped with an accelerating repeat,
 * bindings captured from the next key, button or stick. */
#include "menu.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { RESET_WORLD = 100, RESET_BINDINGS, RESET_CONTROLS };

static const char *const k_onoff[] = {"off", "on"};
static const char *const k_layouts[] = {"Xbox (A confirms)", "Nintendo (right confirms)"};
static const char *const k_cameras[] = {"chase", "cockpit"};
static const char *const k_lines[] = {"full", "240", "360", "480"};
static const int k_lines_value[] = {0, 240, 360, 480};

static MenuItem *add(Menu *m, MenuKind kind, const char *label, unsigned changes) {
    if (m->count >= MENU_MAX_ITEMS) return NULL;
    MenuItem *it = &m->items[m->count++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    snprintf(it->label, sizeof it->label, "%s", label);
    it->changes = changes;
    return it;
}

static void add_action(Menu *m, const char *label, int id) {
    MenuItem *it = add(m, MENU_ACTION, label, 0);
    if (it) it->id = id;
}

static void add_open(Menu *m, const char *label, MenuPage page) {
    MenuItem *it = add(m, MENU_OPEN, label, 0);
    if (it) it->id = page;
}

static void add_toggle(Menu *m, const char *label, bool *flag, unsigned changes) {
    MenuItem *it = add(m, MENU_TOGGLE, label, changes);
    if (it) it->flag = flag;
}

static void add_choice(Menu *m, const char *label, int *choice, const char *const *names, int n, unsigned changes) {
    MenuItem *it = add(m, MENU_CHOICE, label, changes);
    if (!it) return;
    it->choice = choice;
    it->choices = names;
    it->n_choices = n;
}

static void add_number(Menu *m, const char *label, float *v, float lo, float hi, float step, const char *unit,
                       unsigned changes) {
    MenuItem *it = add(m, MENU_NUMBER, label, changes);
    if (!it) return;
    it->number = v;
    it->lo = lo;
    it->hi = hi;
    it->step = step;
    it->unit = unit;
}

void menu_sync(Menu *m) {
    GameSettings *s = m->set;
    m->quality = (int)s->quality;
    m->camera = (int)s->camera;
    m->layout = s->input.nintendo ? 1 : 0;
    m->lines_choice = 1;
    for (int i = 0; i < 4; i++)
        if (k_lines_value[i] == s->lines) m->lines_choice = i;
}

static void build(Menu *m) {
    GameSettings *s = m->set;
    m->count = 0;
    menu_sync(m);
    switch (m->page) {
    case MENU_PAGE_PAUSE:
        add_action(m, "Resume", MENU_CMD_RESUME);
        add_open(m, "World parameters", MENU_PAGE_PANEL);
        add_action(m, "Island map", MENU_CMD_MAP);
        add_open(m, "Controls", MENU_PAGE_CONTROLS);
        add_open(m, "Display", MENU_PAGE_DISPLAY);
        add_action(m, "Quit", MENU_CMD_QUIT);
        break;
    case MENU_PAGE_PANEL:
        add_number(m, "speed limit", &s->speed_limit, 40.0f, 5000.0f, 20.0f, "m/s", MENU_CHANGED_FLIGHT);
        add_toggle(m, "collision", &s->collision, MENU_CHANGED_FLIGHT);
        for (size_t i = 0; i < world_param_count(); i++) {
            const WorldParamDesc *d = world_param_at(i);
            if (d->cls == WORLD_PARAM_CREATE) continue;
            MenuItem *it = add(m, MENU_WORLD, d->name, MENU_CHANGED_WORLD);
            if (it) it->param = d;
        }
        add_action(m, "Reset the world to defaults", RESET_WORLD);
        break;
    case MENU_PAGE_CONTROLS:
        add_toggle(m, "Invert pitch", &s->input.invert_pitch, MENU_CHANGED_CONTROLS);
        add_choice(m, "Button layout", &m->layout, k_layouts, 2, MENU_CHANGED_CONTROLS);
        add_number(m, "Stick dead zone", &s->input.dead_zone, 0.0f, 0.5f, 0.01f, NULL, MENU_CHANGED_CONTROLS);
        add_number(m, "Stick response curve", &s->input.curve, 1.0f, 3.0f, 0.1f, NULL, MENU_CHANGED_CONTROLS);
        add_open(m, "Bindings", MENU_PAGE_BINDINGS);
        add_action(m, "Reset controls to defaults", RESET_CONTROLS);
        break;
    case MENU_PAGE_BINDINGS:
        for (int a = 0; a < GA_COUNT; a++) {
            MenuItem *it = add(m, MENU_BIND, game_action_label((GameAction)a), MENU_CHANGED_CONTROLS);
            if (it) it->id = a;
        }
        add_action(m, "Reset all bindings", RESET_BINDINGS);
        break;
    case MENU_PAGE_DISPLAY:
        add_choice(m, "Quality preset", &m->quality, game_quality_names, GAME_QUALITY_COUNT, MENU_CHANGED_QUALITY);
        add_choice(m, "PSX lines", &m->lines_choice, k_lines, 4, MENU_CHANGED_DISPLAY);
        add_toggle(m, "4:3 picture", &s->fixed_4_3, MENU_CHANGED_DISPLAY);
        add_toggle(m, "Vertex snap", &s->snap, MENU_CHANGED_DISPLAY);
        add_toggle(m, "15-bit colour", &s->color15, MENU_CHANGED_DISPLAY);
        add_toggle(m, "Dither", &s->dither, MENU_CHANGED_DISPLAY);
        add_toggle(m, "Fog", &s->fog, MENU_CHANGED_DISPLAY);
        add_toggle(m, "Sky clouds", &s->sky_clouds, MENU_CHANGED_DISPLAY);
        add_toggle(m, "Voxel clouds", &s->clouds, MENU_CHANGED_DISPLAY);
        add_number(m, "Field of view", &s->fov_deg, 40.0f, 110.0f, 5.0f, "deg", MENU_CHANGED_DISPLAY);
        add_toggle(m, "HUD", &s->hud, MENU_CHANGED_FLIGHT);
        add_choice(m, "Camera", &m->camera, k_cameras, 2, MENU_CHANGED_FLIGHT);
        break;
    default: break;
    }
    if (m->sel >= m->count) m->sel = m->count ? m->count - 1 : 0;
}

void menu_open(Menu *m, GameSettings *set, MenuPage page) {
    memset(m, 0, sizeof *m);
    m->set = set;
    m->page = page;
    build(m);
}

static void go_page(Menu *m, MenuPage page) {
    if (m->depth < (int)(sizeof m->stack / sizeof m->stack[0])) m->stack[m->depth++] = m->page;
    m->page = page;
    m->sel = 0;
    m->scroll = 0;
    build(m);
}

const char *menu_title(const Menu *m) {
    static const char *const titles[MENU_PAGE_COUNT] = {"Paused", "World parameters", "Controls", "Bindings",
                                                        "Display"};
    return m->page < MENU_PAGE_COUNT ? titles[m->page] : "";
}

static void bindings_text(const InputSettings *in, GameAction a, char *buf, size_t n) {
    size_t len = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < in->bind_count && len + 2 < n; i++) {
        if (in->binds[i].action != a) continue;
        char t[40];
        input_bind_text(&in->binds[i], t, sizeof t);
        int k = snprintf(buf + len, n - len, "%s%s", len ? ", " : "", t);
        if (k < 0) break;
        len += (size_t)k;
    }
    if (!buf[0]) snprintf(buf, n, "(none)");
}

void menu_item_value(const Menu *m, const MenuItem *it, char *buf, size_t n) {
    buf[0] = 0;
    switch (it->kind) {
    case MENU_TOGGLE: snprintf(buf, n, "%s", k_onoff[*it->flag ? 1 : 0]); break;
    case MENU_CHOICE: snprintf(buf, n, "%s", it->choices[*it->choice]); break;
    case MENU_NUMBER:
        if (it->step >= 1.0f) snprintf(buf, n, "%.0f%s%s", (double)*it->number, it->unit ? " " : "", it->unit ? it->unit : "");
        else snprintf(buf, n, "%.2f%s%s", (double)*it->number, it->unit ? " " : "", it->unit ? it->unit : "");
        break;
    case MENU_WORLD:
        if (it->param->type == WORLD_PT_BOOL)
            snprintf(buf, n, "%s", k_onoff[world_param_get(&m->set->world, it->param) != 0.0 ? 1 : 0]);
        else
            world_param_format(&m->set->world, it->param, buf, n);
        break;
    case MENU_BIND:
        if (m->capturing && &m->items[m->sel] == it)
            snprintf(buf, n, game_action_is_axis((GameAction)it->id) ? "move a stick, or press a key for +" : "press a key or button");
        else
            bindings_text(&m->set->input, (GameAction)it->id, buf, n);
        break;
    case MENU_OPEN: snprintf(buf, n, ">"); break;
    default: break;
    }
}

/* One step of a value: +1 or -1, `big` after a long hold. Returns true when it changed. */
static bool step_item(Menu *m, MenuItem *it, int dir, bool big) {
    switch (it->kind) {
    case MENU_TOGGLE:
        *it->flag = !*it->flag;
        return true;
    case MENU_CHOICE: {
        int c = *it->choice + dir;
        if (c < 0 || c >= it->n_choices) return false;
        *it->choice = c;
        return true;
    }
    case MENU_NUMBER: {
        float v = *it->number + (float)dir * it->step * (big ? 10.0f : 1.0f);
        v = roundf(v / it->step) * it->step;
        if (v < it->lo) v = it->lo;
        if (v > it->hi) v = it->hi;
        if (v == *it->number) return false;
        *it->number = v;
        return true;
    }
    case MENU_WORLD: {
        const WorldParamDesc *d = it->param;
        double v = world_param_get(&m->set->world, d);
        double step;
        if (d->type == WORLD_PT_BOOL) step = 1.0;
        else if (d->type == WORLD_PT_F32 || d->type == WORLD_PT_F64) step = (d->max - d->min) / 200.0;
        else step = 1.0;
        double next = v + dir * step * (big ? 10.0 : 1.0);
        if (d->type == WORLD_PT_BOOL) next = v != 0.0 ? 0.0 : 1.0;
        if (next < d->min) next = d->min;
        if (next > d->max) next = d->max;
        WorldParams before = m->set->world;
        world_param_set(&m->set->world, d, next);
        return !world_param_equal(&before, &m->set->world, d);
    }
    default: return false;
    }
}

/* Writes the choice mirrors back into the settings they stand for. */
static void store_choices(Menu *m) {
    GameSettings *s = m->set;
    s->input.nintendo = m->layout == 1;
    s->camera = (GameCamera)m->camera;
    s->lines = k_lines_value[m->lines_choice];
    if (m->quality != (int)s->quality) {
        game_quality_apply(s, (GameQuality)m->quality);
    }
}

/* A binding from the raw input of this frame: a key, a pad button, or a stick/trigger pushed
 * past half way. False while nothing was pressed. */
static bool capture(Menu *m, GameAction a, const PlatformEvents *ev, const InputState *in) {
    InputSettings *is = &m->set->input;
    if (ev->key_count > 0) {
        input_rebind(is, a, BIND_KEY, (uint8_t)ev->keys[0], 1);
        return true;
    }
    for (int p = 0; p < PLATFORM_MAX_PADS; p++) {
        const PlatformPad *pad = &ev->pads[p];
        if (!pad->connected || pad->id != in->active_pad) continue;
        if (pad->pressed) {
            int b = __builtin_ctz(pad->pressed);
            input_rebind(is, a, BIND_PAD_BUTTON, (uint8_t)b, 1);
            return true;
        }
        for (int x = 0; x < PPAD_AXIS_COUNT; x++) {
            float v = pad->axis[x];
            if (fabsf(v) < 0.6f) continue;
            if (game_action_is_axis(a)) {
                /* Both halves of the axis, the pushed one as +. */
                int8_t half = v > 0.0f ? 1 : -1;
                input_rebind(is, a, BIND_PAD_AXIS, (uint8_t)x, half);
                if (is->bind_count < INPUT_MAX_BINDS)
                    is->binds[is->bind_count++] = (InputBind){(uint8_t)a, BIND_PAD_AXIS, (uint8_t)x, (int8_t)-half};
            } else {
                input_rebind(is, a, BIND_PAD_AXIS, (uint8_t)x, v > 0.0f ? 1 : -1);
            }
            return true;
        }
    }
    return false;
}

MenuCommand menu_update(Menu *m, const InputState *in, const PlatformEvents *ev, float dt) {
    if (m->count == 0) return MENU_CMD_NONE;
    MenuItem *it = &m->items[m->sel];
    if (m->capturing) {
        if (in->pressed[GA_MENU_BACK] && ev->key_count && (ev->keys[0] == PKEY_ESCAPE || ev->keys[0] == PKEY_BACKSPACE)) {
            m->capturing = false;   /* Esc and Backspace cancel; they cannot be bound here */
            return MENU_CMD_NONE;
        }
        if (capture(m, (GameAction)it->id, ev, in)) {
            m->capturing = false;
            m->changed = it->changes;
            return MENU_CMD_CHANGED;
        }
        return MENU_CMD_NONE;
    }
    if (in->pressed[GA_MENU_UP] && m->sel > 0) m->sel--;
    else if (in->pressed[GA_MENU_UP]) m->sel = m->count - 1;
    if (in->pressed[GA_MENU_DOWN]) m->sel = m->sel + 1 < m->count ? m->sel + 1 : 0;
    it = &m->items[m->sel];
    if (in->pressed[GA_MENU_BACK]) {
        if (m->depth == 0) return MENU_CMD_RESUME;
        m->page = m->stack[--m->depth];
        m->sel = 0;
        m->scroll = 0;
        build(m);
        return MENU_CMD_NONE;
    }
    /* Left/right: once on the press, then repeating while held, ten steps at a time after 1.5 s. */
    int dir = in->held[GA_MENU_RIGHT] ? 1 : (in->held[GA_MENU_LEFT] ? -1 : 0);
    bool fire = in->pressed[GA_MENU_RIGHT] || in->pressed[GA_MENU_LEFT];
    if (dir == 0) {
        m->held_s = 0.0f;
        m->repeat_timer = 0.0f;
    } else if (!fire) {
        m->held_s += dt;
        m->repeat_timer -= dt;
        if (m->held_s > 0.35f && m->repeat_timer <= 0.0f) {
            fire = true;
            m->repeat_timer = 0.08f;
        }
    }
    if (fire && dir != 0 && step_item(m, it, dir, m->held_s > 1.5f)) {
        store_choices(m);
        m->changed = it->changes;
        return MENU_CMD_CHANGED;
    }
    if (in->pressed[GA_MENU_OK]) {
        switch (it->kind) {
        case MENU_ACTION:
            if (it->id == RESET_WORLD) {
                uint64_t seed = m->set->world.gen.seed;
                WorldCreateParams keep = m->set->world.create;
                world_params_default(&m->set->world);
                m->set->world.gen.seed = seed;   /* the same world, its look reset */
                m->set->world.create = keep;
                m->changed = MENU_CHANGED_WORLD;
                return MENU_CMD_CHANGED;
            }
            if (it->id == RESET_BINDINGS || it->id == RESET_CONTROLS) {
                InputSettings def;
                input_settings_default(&def);
                if (it->id == RESET_BINDINGS) {
                    m->set->input.bind_count = def.bind_count;
                    memcpy(m->set->input.binds, def.binds, sizeof def.binds);
                } else {
                    m->set->input = def;
                }
                menu_sync(m);
                m->changed = MENU_CHANGED_CONTROLS;
                return MENU_CMD_CHANGED;
            }
            return (MenuCommand)it->id;
        case MENU_OPEN: go_page(m, (MenuPage)it->id); return MENU_CMD_NONE;
        case MENU_BIND: m->capturing = true; return MENU_CMD_NONE;
        case MENU_CHOICE:   /* OK cycles through the choices */
            *it->choice = (*it->choice + 1) % it->n_choices;
            store_choices(m);
            m->changed = it->changes;
            return MENU_CMD_CHANGED;
        case MENU_TOGGLE:
        case MENU_WORLD:    /* OK flips a switch; numbers change with left/right only */
            if (it->kind == MENU_WORLD && it->param->type != WORLD_PT_BOOL) return MENU_CMD_NONE;
            if (!step_item(m, it, 1, false)) return MENU_CMD_NONE;
            store_choices(m);
            m->changed = it->changes;
            return MENU_CMD_CHANGED;
        default: return MENU_CMD_NONE;
        }
    }
    return MENU_CMD_NONE;
}

void game_quality_apply(GameSettings *s, GameQuality q) {
    /* The world's part (view radius, LOD bands, the governor's reach floor) is the world's own
     * preset of the same name, chosen with build/bench stream --device (docs/world.md). */
    _Static_assert((int)GAME_QUALITY_LOW == (int)WORLD_PRESET_LOW && (int)GAME_QUALITY_HIGH == (int)WORLD_PRESET_HIGH,
                   "game and world presets line up");
    if ((unsigned)q >= GAME_QUALITY_COUNT) q = GAME_QUALITY_MEDIUM;
    s->quality = q;
    s->quality_chosen = true;
    WorldCreateParams create = s->world.create;
    world_params_preset(&s->world, (WorldPreset)q);
    s->world.create = create;   /* creation values stay the game's (world_setup) */
    /* Low: VideoCore IV / Mali-400 class: no cloud blending (the cost on tile GPUs is overdraw).
     * High: more lines on a GPU that has the fill rate. */
    s->lines = q == GAME_QUALITY_HIGH ? 360 : 240;
    s->clouds = q != GAME_QUALITY_LOW;
    s->sky_clouds = true;
}
