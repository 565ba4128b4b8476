/* skyisles game menus: pages built from the settings table, the world's parameter table and the
 * page/action table; moved through by GameActions, values stepped on each row's decimal grid
 * with an accelerating repeat, bindings captured from the next key, button or stick. */
#include "menu.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- the page and action table */
static void panel_world_rows(Menu *m);
static void flyto_rows(Menu *m);

static unsigned reset_world(GameSettings *s) {
    uint64_t seed = s->world.gen.seed;
    WorldCreateParams keep = s->world.create;
    world_params_default(&s->world);
    s->world.gen.seed = seed;   /* the same world, its look reset */
    s->world.create = keep;
    return MENU_CHANGED_WORLD;
}

static unsigned reset_bindings(GameSettings *s) {
    InputSettings def;
    input_settings_default(&def);
    s->input.bind_count = def.bind_count;
    memcpy(s->input.binds, def.binds, sizeof def.binds);
    return MENU_CHANGED_CONTROLS;
}

static unsigned reset_controls(GameSettings *s) {
    GameSettings def;
    settings_default(&def);
    s->input = def.input;   /* the rows' defaults (dead zone, curve) and the default bindings */
    return MENU_CHANGED_CONTROLS;
}

static MenuPageDesc g_pages[MENU_MAX_PAGES] = {
    [MENU_PAGE_PAUSE] = {"pause", TX(PAGE_PAUSE), NULL},
    [MENU_PAGE_PANEL] = {"panel", TX(PAGE_PANEL), panel_world_rows},
    [MENU_PAGE_CONTROLS] = {"controls", TX(PAGE_CONTROLS), NULL},
    [MENU_PAGE_BINDINGS] = {"bindings", TX(PAGE_BINDINGS), NULL},
    [MENU_PAGE_DISPLAY] = {"display", TX(PAGE_DISPLAY), NULL},
    [MENU_PAGE_SOUND] = {"sound", TX(PAGE_SOUND), NULL},
    [MENU_PAGE_FLYTO] = {"flyto", TX(PAGE_FLYTO), flyto_rows},
};
static int g_page_count = MENU_PAGE_COUNT;

static MenuActionDesc g_actions[MENU_MAX_ACTIONS] = {
    {"pause", TX(ACT_RESUME), NULL, MENU_CMD_RESUME, NULL, TX(ACT_RESUME_HELP), 0},
    {"pause", TX(PAGE_PANEL), "panel", 0, NULL, TX(ACT_PANEL_HELP), 0},
    {"pause", TX(ACT_MAP), NULL, MENU_CMD_MAP, NULL, TX(ACT_MAP_HELP), 0},
    {"pause", TX(PAGE_FLYTO), "flyto", 0, NULL, TX(ACT_FLYTO_HELP), 0},
    {"pause", TX(PAGE_CONTROLS), "controls", 0, NULL, TX(ACT_CONTROLS_HELP), 0},
    {"pause", TX(PAGE_DISPLAY), "display", 0, NULL, TX(ACT_DISPLAY_HELP), 0},
    {"pause", TX(PAGE_SOUND), "sound", 0, NULL, TX(ACT_SOUND_HELP), 0},
    {"pause", TX(ACT_QUIT), NULL, MENU_CMD_QUIT, NULL, TX(ACT_QUIT_HELP), 0},
    {"panel", TX(ACT_RESET_WORLD), NULL, 0, reset_world, TX(ACT_RESET_WORLD_HELP), 0},
    {"controls", TX(PAGE_BINDINGS), "bindings", 0, NULL, TX(ACT_BINDINGS_HELP), 0},
    {"controls", TX(ACT_RESET_CONTROLS), NULL, 0, reset_controls, TX(ACT_RESET_CONTROLS_HELP), 0},
    {"bindings", TX(ACT_RESET_BINDINGS), NULL, 0, reset_bindings, TX(ACT_RESET_BINDINGS_HELP), 0},
    {"flyto", TX(ACT_FLY_THERE), NULL, MENU_CMD_FLY_TO, NULL, TX(ACT_FLY_THERE_HELP), 0},
};
static int g_action_count = 13;

int menu_page_find(const char *name) {
    for (int i = 0; name && i < g_page_count; i++)
        if (!strcmp(g_pages[i].name, name)) return i;
    return -1;
}

int menu_page_count(void) { return g_page_count; }
const MenuPageDesc *menu_page_at(int page) { return page >= 0 && page < g_page_count ? &g_pages[page] : NULL; }

int menu_page_register(const MenuPageDesc *p) {
    if (!p || !p->name || !p->title || g_page_count >= MENU_MAX_PAGES || menu_page_find(p->name) >= 0) return -1;
    g_pages[g_page_count] = *p;
    return g_page_count++;
}

bool menu_action_register(const MenuActionDesc *a) {
    if (!a || !a->page || !a->label || g_action_count >= MENU_MAX_ACTIONS) return false;
    g_actions[g_action_count++] = *a;
    return true;
}

/* ---------------------------------------------------------------- building a page */
MenuItem *menu_add(Menu *m, MenuKind kind, const char *label, unsigned changes) {
    if (m->count >= MENU_MAX_ITEMS) return NULL;
    MenuItem *it = &m->items[m->count++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    snprintf(it->label, sizeof it->label, "%s", text_tr(label));   /* a table's row: this language's words */
    it->changes = changes;
    return it;
}

/* "n3_amplitude" -> "N3 amplitude", for rows without a label of their own. */
static void label_from_name(const char *name, char *buf, size_t n) {
    snprintf(buf, n, "%s", name);
    for (char *c = buf; *c; c++)
        if (*c == '_') *c = ' ';
    if (buf[0] >= 'a' && buf[0] <= 'z') buf[0] = (char)(buf[0] - 'a' + 'A');
}

static void panel_world_rows(Menu *m) {
    for (size_t i = 0; i < world_param_count(); i++) {
        const WorldParamDesc *d = world_param_at(i);
        if (d->cls == WORLD_PARAM_CREATE) continue;
        char label[48];
        if (d->label) snprintf(label, sizeof label, "%s", text_tr(d->label));
        else label_from_name(d->name, label, sizeof label);
        MenuItem *it = menu_add(m, MENU_WORLD, label, MENU_CHANGED_WORLD);
        if (it) it->param = d;
    }
}

/* The Fly to page: the target's three coordinates and the step the D-pad takes. */
static void flyto_rows(Menu *m) {
    static const char *const labels[] = {TX(FLYTO_X), TX(FLYTO_HEIGHT), TX(FLYTO_Z), TX(FLYTO_STEP)};
    static const FlyToRow order[] = {FLYTO_X, FLYTO_Z, FLYTO_Y, FLYTO_STEP};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        MenuItem *it = menu_add(m, MENU_COORD, labels[order[i]], 0);
        if (it) it->id = (int)order[i];
    }
}

static void add_rows(Menu *m, const char *page) {
    for (size_t i = 0; i < setting_count(); i++) {
        const SettingDesc *d = setting_at(i);
        if (!d->page || strcmp(d->page, page)) continue;
        if (d->type == SETTING_BINDING) {   /* one item per action */
            for (int a = 0; a < GA_COUNT; a++) {
                MenuItem *it = menu_add(m, MENU_BIND, game_action_label((GameAction)a), d->changes);
                if (!it) return;
                it->id = a;
                it->row = d;
            }
            continue;
        }
        MenuItem *it = menu_add(m, MENU_SETTING, d->label ? d->label : d->key, d->changes);
        if (it) it->row = d;
    }
}

static void build(Menu *m) {
    m->count = 0;
    m->lang = (int)text_language();
    const MenuPageDesc *p = menu_page_at(m->page);
    if (!p) return;
    add_rows(m, p->name);
    if (p->extra) p->extra(m);
    const MenuActionDesc *quit = NULL;
    for (int i = 0; i < g_action_count; i++) {
        const MenuActionDesc *a = &g_actions[i];
        if (strcmp(a->page, p->name)) continue;
        if (a->cmd == MENU_CMD_QUIT && !a->open && !a->run) { quit = a; continue; }   /* last, whatever came later */
        MenuItem *it = menu_add(m, MENU_ACTION, a->label, 0);
        if (it) it->action = a;
    }
    MenuItem *it = quit ? menu_add(m, MENU_ACTION, quit->label, 0) : NULL;
    if (it) it->action = quit;
    if (m->sel >= m->count) m->sel = m->count ? m->count - 1 : 0;
}

void menu_open(Menu *m, GameSettings *set, const WorldParams *held, int page) {
    memset(m, 0, sizeof *m);
    m->set = set;
    m->held = held;
    m->page = page;
    /* Until menu_set_here: over the origin half way up, typing nothing. */
    flyto_here(&m->fly, 0.0, 0.5 * ((double)WORLD_Y_MIN + (double)WORLD_Y_MAX), 0.0);
    build(m);
}

void menu_set_here(Menu *m, double x, double y, double z) { flyto_here(&m->fly, x, y, z); }

static void go_page(Menu *m, int page) {
    if (page < 0) return;
    if (m->depth < (int)(sizeof m->stack / sizeof m->stack[0])) m->stack[m->depth++] = m->page;
    m->page = page;
    m->sel = 0;
    m->scroll = 0;
    build(m);
}

const char *menu_title(const Menu *m) {
    const MenuPageDesc *p = menu_page_at(m->page);
    return p ? text_tr(p->title) : "";
}

/* ---------------------------------------------------------------- values */
double menu_world_step(const WorldParamDesc *d) {
    if (d->step > 0.0) return d->step;
    if (d->type != WORLD_PT_F32 && d->type != WORLD_PT_F64) return 1.0;
    /* About a hundredth of the range, on a 1-2-5 decimal grid. */
    double raw = (d->max - d->min) / 100.0, p = setting_pow10((int)floor(log10(raw)));
    return raw >= 5.0 * p ? 5.0 * p : raw >= 2.0 * p ? 2.0 * p : p;
}

int menu_world_decimals(const WorldParamDesc *d) {
    if (d->type != WORLD_PT_F32 && d->type != WORLD_PT_F64) return 0;
    return setting_decimals(menu_world_step(d), d->def, d->min, d->max);
}

/* The view radius in effect for the player's value: its size at start bounds it, and the mesh
 * pool or the speed governor may pull the reach in below that for now. */
static bool world_holds_less(const Menu *m, const WorldParamDesc *d, int *held) {
    if (!m->held || strcmp(d->name, "view_radius")) return false;
    *held = m->held->live.view_radius;
    if (m->reach > 0.0f && m->reach < (float)*held) *held = (int)m->reach;
    return *held != m->set->world.live.view_radius;
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
    if (!buf[0]) snprintf(buf, n, "%s", text_get(TEXT_VALUE_NONE));
}

/* A renderer row Quality auto holds below the chosen value now: its value in effect in `now`. */
static bool look_holds_less(const Menu *m, const SettingDesc *d, char *now, size_t n) {
    if (!m->look || !d->key) return false;
    if (!strcmp(d->key, "lines") && m->look->lines != m->set->render.live.lines) {
        if (m->look->lines) snprintf(now, n, "%d", m->look->lines);
        else snprintf(now, n, "%s", text_get(TEXT_VALUE_FULL));
        return true;
    }
    if (!strcmp(d->key, "clouds") && m->look->draw_clouds != m->set->render.live.draw_clouds) {
        snprintf(now, n, "%s", text_get(m->look->draw_clouds ? TEXT_VALUE_ON : TEXT_VALUE_OFF));
        return true;
    }
    return false;
}

static void setting_value(const Menu *m, const SettingDesc *d, char *buf, size_t n) {
    char now[32];
    int len = setting_show(m->set, d, buf, n);
    if (len >= 0 && (size_t)len < n && look_holds_less(m, d, now, sizeof now))
        snprintf(buf + len, n - (size_t)len, text_get(TEXT_VALUE_HELD_NOW), now);
}

static void world_value(const Menu *m, const WorldParamDesc *d, char *buf, size_t n) {
    double v = world_param_get(&m->set->world, d);
    const char *u = d->unit ? text_tr(d->unit) : "", *sp = d->unit ? " " : "";
    int held;
    if (d->type == WORLD_PT_BOOL) snprintf(buf, n, "%s", text_get(v != 0.0 ? TEXT_VALUE_ON : TEXT_VALUE_OFF));
    else if (d->type == WORLD_PT_U64) world_param_format(&m->set->world, d, buf, n);
    else if (world_holds_less(m, d, &held)) snprintf(buf, n, text_get(TEXT_VALUE_NOW), v, sp, u, held);
    else snprintf(buf, n, "%.*f%s%s", menu_world_decimals(d), v, sp, u);
}

void menu_item_value(const Menu *m, const MenuItem *it, char *buf, size_t n) {
    buf[0] = 0;
    switch (it->kind) {
    case MENU_SETTING: setting_value(m, it->row, buf, n); break;
    case MENU_WORLD: world_value(m, it->param, buf, n); break;
    case MENU_BIND:
        if (m->capturing && &m->items[m->sel] == it)
            snprintf(buf, n, "%s", text_get(game_action_is_axis((GameAction)it->id) ? TEXT_BIND_AXIS : TEXT_BIND_BUTTON));
        else
            bindings_text(&m->set->input, (GameAction)it->id, buf, n);
        break;
    case MENU_ACTION:
        if (it->action && it->action->open) snprintf(buf, n, ">");
        break;
    case MENU_COORD: flyto_value(&m->fly, (FlyToRow)it->id, buf, n); break;
    default: break;
    }
}

void menu_item_help(const Menu *m, const MenuItem *it, char *buf, size_t n) {
    buf[0] = 0;
    int held;
    switch (it->kind) {
    case MENU_SETTING: {
        char now[32];
        if (look_holds_less(m, it->row, now, sizeof now))
            snprintf(buf, n, text_get(TEXT_HELP_AUTO_HOLDS), now);
        else
            snprintf(buf, n, "%s%s", it->row->help ? text_tr(it->row->help) : "",
                     (it->row->flags & SETTING_F_RESTART) ? text_get(TEXT_HELP_RESTART) : "");
        break;
    }
    case MENU_WORLD:
        if (world_holds_less(m, it->param, &held) && m->set->world.live.view_radius > m->held->live.view_radius)
            snprintf(buf, n, text_get(TEXT_HELP_SIZED), m->set->world.live.view_radius,
                     m->held->live.view_radius);
        else if (world_holds_less(m, it->param, &held))
            snprintf(buf, n, text_get(TEXT_HELP_HELD), held);
        else
            snprintf(buf, n, "%s%s", text_tr(it->param->help), it->param->cls == WORLD_PARAM_GEN ? text_get(TEXT_HELP_REBUILDS) : "");
        break;
    case MENU_BIND: snprintf(buf, n, text_get(TEXT_BIND_HELP), it->label); break;
    case MENU_ACTION: snprintf(buf, n, "%s", it->action && it->action->help ? text_tr(it->action->help) : ""); break;
    case MENU_COORD:
        /* (Short: a help line wider than the panel is cut.) */
        snprintf(buf, n, "%s", text_get(it->id == FLYTO_STEP ? TEXT_FLYTO_STEP_HELP : TEXT_FLYTO_COORD_HELP));
        break;
    default: break;
    }
}

static bool step_world(Menu *m, const WorldParamDesc *d, int dir, bool big) {
    double v = world_param_get(&m->set->world, d), next;
    if (d->type == WORLD_PT_BOOL) {
        next = v != 0.0 ? 0.0 : 1.0;
    } else {
        double step = menu_world_step(d);
        int dec = menu_world_decimals(d);
        next = setting_grid(setting_grid(v, d->def, step, dec) + dir * step * (big ? 10.0 : 1.0), d->def, step, dec);
        if (next < d->min) next = d->min;
        if (next > d->max) next = d->max;
    }
    WorldParams before = m->set->world;
    world_param_set(&m->set->world, d, next);
    return !world_param_equal(&before, &m->set->world, d);
}

bool menu_step(Menu *m, MenuItem *it, int dir, bool big) {
    if (it->kind == MENU_WORLD) return step_world(m, it->param, dir, big);
    if (it->kind == MENU_COORD) return flyto_step(&m->fly, (FlyToRow)it->id, dir, big);
    if (it->kind != MENU_SETTING || !setting_step(m->set, it->row, dir, big ? 10 : 1)) return false;
    if (it->row->on_change) it->row->on_change(m->set);   /* a preset sets the values it decides */
    return true;
}

/* ---------------------------------------------------------------- input */
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

static MenuCommand changed(Menu *m, unsigned what) {
    m->changed = what;
    return MENU_CMD_CHANGED;
}

/* OK on an item: run an action, open a page, start a capture, flip a switch or cycle a choice. */
static MenuCommand press_ok(Menu *m, MenuItem *it) {
    switch (it->kind) {
    case MENU_ACTION: {
        const MenuActionDesc *a = it->action;
        if (a->open) {
            go_page(m, menu_page_find(a->open));
            return MENU_CMD_NONE;
        }
        if (a->run) return changed(m, a->run(m->set));
        m->arg = a->arg;
        return a->cmd;
    }
    case MENU_BIND: m->capturing = true; return MENU_CMD_NONE;
    case MENU_SETTING:
        if (it->row->type == SETTING_ENUM) {   /* OK cycles through the choices */
            const char *const *names;
            int n = setting_names(it->row, &names), c = (int)setting_get(m->set, it->row);
            setting_set(m->set, it->row, (c + 1) % (n > 0 ? n : 1));
            if (it->row->on_change) it->row->on_change(m->set);
            return changed(m, it->changes);
        }
        if (it->row->type != SETTING_BOOL) return MENU_CMD_NONE;   /* numbers change with left/right only */
        return menu_step(m, it, 1, false) ? changed(m, it->changes) : MENU_CMD_NONE;
    case MENU_WORLD:
        if (it->param->type != WORLD_PT_BOOL) return MENU_CMD_NONE;
        return menu_step(m, it, 1, false) ? changed(m, it->changes) : MENU_CMD_NONE;
    case MENU_COORD: flyto_zero(&m->fly, (FlyToRow)it->id); return MENU_CMD_NONE;
    default: return MENU_CMD_NONE;
    }
}

/* Keys typed on a Fly to coordinate: true when one was taken (a Backspace then deletes a digit
 * instead of going back). */
static bool typed(Menu *m, const MenuItem *it, const PlatformEvents *ev) {
    bool took = false;
    for (int i = 0; it->kind == MENU_COORD && i < (int)ev->key_count; i++)
        took = flyto_key(&m->fly, (FlyToRow)it->id, ev->keys[i]) || took;
    return took;
}

MenuCommand menu_update(Menu *m, const InputState *in, const PlatformEvents *ev, float dt) {
    if (m->lang != (int)text_language()) build(m);   /* the language row changed: the page in its words */
    if (m->count == 0) return MENU_CMD_NONE;
    MenuItem *it = &m->items[m->sel];
    if (m->capturing) {
        if (in->pressed[GA_MENU_BACK] && ev->key_count && (ev->keys[0] == PKEY_ESCAPE || ev->keys[0] == PKEY_BACKSPACE)) {
            m->capturing = false;   /* Esc and Backspace cancel; they cannot be bound here */
            return MENU_CMD_NONE;
        }
        if (capture(m, (GameAction)it->id, ev, in)) {
            m->capturing = false;
            return changed(m, it->changes);
        }
        return MENU_CMD_NONE;
    }
    if (typed(m, it, ev)) return MENU_CMD_NONE;
    int sel0 = m->sel;
    if (in->pressed[GA_MENU_UP] && m->sel > 0) m->sel--;
    else if (in->pressed[GA_MENU_UP]) m->sel = m->count - 1;
    if (in->pressed[GA_MENU_DOWN]) m->sel = m->sel + 1 < m->count ? m->sel + 1 : 0;
    if (m->sel != sel0) m->fly.typing = -1;   /* the next digit starts a new number */
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
    if (fire && dir != 0 && menu_step(m, it, dir, m->held_s > 1.5f)) return changed(m, it->changes);
    if (in->pressed[GA_MENU_OK]) return press_ok(m, it);
    return MENU_CMD_NONE;
}
