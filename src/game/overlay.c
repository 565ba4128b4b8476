/* skyisles overlay: the HUD, the title, the menus and the map, queued into the renderer's HUD
 * layer at the PSX resolution each frame. Layouts follow the canvas (240x160 .. 480x320 PSX
 * pixels), so the same screens fit a 480x320 handheld, a square 720x720 one and a TV. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "power.h"

#define COL_TEXT 0xffffffffu
#define COL_DIM 0xb8c8e0ffu
#define COL_HI 0xffd060ffu
#define COL_WARN 0xff7060ffu
#define COL_PANEL 0x0c1422c8u
#define COL_MENU 0x0c1422ffu   /* the menu's backdrop is opaque: the HUD under it never shows through */
#define COL_SEL 0x3a5a8ad0u

typedef struct Canvas {
    Renderer *r;
    int w, h, s;      /* size in PSX pixels, text scale */
    int lh;           /* line height at that scale */
} Canvas;

static void text(const Canvas *c, int x, int y, uint32_t col, const char *t) { render_hud_text(c->r, x, y, c->s, col, t); }
static int width(const Canvas *c, const char *t) { return render_hud_text_width(c->r, t, c->s); }
static void text_centre(const Canvas *c, int y, uint32_t col, const char *t) { text(c, (c->w - width(c, t)) / 2, y, col, t); }

static const char *cardinal(float deg) {
    static const TextId names[8] = {TEXT_HUD_N, TEXT_HUD_NE, TEXT_HUD_E, TEXT_HUD_SE,
                                    TEXT_HUD_S, TEXT_HUD_SW, TEXT_HUD_W, TEXT_HUD_NW};
    int i = (int)floorf((deg + 22.5f) / 45.0f) & 7;
    return text_get(names[i]);
}

/* The battery where SDL reports one and the device runs on it, top right under the frame rate
 * and right of the flight data's line (which ends at left_end): its level, and a warning when it
 * runs low, the short one where the long one would reach that line (power.c reads the supply
 * every 10 s). */
static void battery(const Platform *platform, const Canvas *c, int y, int left_end) {
    char line[32];
    bool low;
    if (!platform || !power_battery_line(time_now_ms(), false, line, sizeof line, &low)) return;
    int right = c->w - 4 * c->s, gap = 6 * c->s;
    if (low && right - width(c, line) < left_end + gap) power_battery_line(time_now_ms(), true, line, sizeof line, &low);
    text(c, right - width(c, line), y, low ? COL_WARN : COL_DIM, line);
}

/* The position (Display -> Show position), bottom left: X, Y, Z a line each, the last one a
 * line above the place name's, so neither meets the other whatever their widths. */
static void position(const FlightState *f, const Canvas *c) {
    const double v[3] = {f->x, f->y, f->z};
    static const char *const axis[3] = {"X", "Y", "Z"};
    int x = 4 * c->s, y = c->h - 4 * c->s - 4 * c->lh;
    for (int i = 0; i < 3; i++) {
        char m[48], line[64];
        flyto_metres_text(v[i], m, sizeof m);
        snprintf(line, sizeof line, "%s %s", axis[i], m);
        text(c, x, y + i * c->lh, COL_TEXT, line);
    }
}

#define AIDS_BELOW_M 60.0   /* the approach aids show below this height above the ground, */
#define AIDS_SLOWER 30.0f   /* and slower than this (m/s): an approach, not a cruise */

/* The nearest landing place: an arrow pointing to it relative to the nose, and its distance. */
static void strip_arrow(const FlightState *f, const GameHome *home, const World *world, const Canvas *c, int x, int y) {
    GameStrip st;   /* of the islands around the aircraft (game_near_update's, found as they change) */
    (void)world;
    if (!game_near_strip(home, f->x, f->z, &st)) return;
    double dx = st.x - f->x, dz = st.z - f->z;
    float bearing = atan2f((float)dx, (float)-dz);
    int size = c->lh / 3;
    render_hud_arrow(c->r, x + size, y + c->lh / 2 - size / 2, size, bearing - f->yaw, COL_HI);
    char line[48];
    snprintf(line, sizeof line, text_get(TEXT_HUD_STRIP), sqrt(dx * dx + dz * dz));
    text(c, x + 3 * size, y, COL_TEXT, line);
}

/* The approach aids, low and slow or on the wheels: height above the ground and vertical speed,
 * the gear and the brakes, the way to the nearest strip; the stall warning and the last
 * touchdown's rating in the middle. */
static void approach_aids(const FlightState *f, const Play *p, const World *world, const GameHome *home,
                          const Canvas *c, int y) {
    int x = 4 * c->s;
    char line[64];
    if (flight_stall_warning(f) && p->state == PLAY_FLY && ((int)(f->time_s * 4.0) & 1) == 0)
        text_centre(c, c->h / 5, COL_WARN, text_get(TEXT_HUD_STALL));
    if (p->touch_timer > 0.0f) {
        snprintf(line, sizeof line, text_get(TEXT_HUD_TOUCHDOWN), text_tr(play_touch_name(p->touch.rating)), (double)p->touch.sink);
        text_centre(c, c->h / 5 + c->lh, p->touch.rating == SIM_TOUCH_HARD ? COL_WARN : COL_HI, line);
    }
    if (p->state == PLAY_CRASH) return;   /* the crash screen's reason stands there instead */
    /* Faster than the aids' speed in the air they stay hidden whatever the height: the column
     * scan under the aircraft (up to 60 point queries) only when it may show them. */
    if (!f->on_ground && f->speed > AIDS_SLOWER) return;
    double agl = world ? sim_height_above_ground(world, f, AIDS_BELOW_M) : AIDS_BELOW_M;
    if (!f->on_ground && agl >= AIDS_BELOW_M) return;
    float vs = p->prev_valid ? (float)((f->y - p->prev.y) / (double)SIM_STEP) : 0.0f;
    if (f->on_ground) snprintf(line, sizeof line, text_get(TEXT_HUD_GEAR), text_get(p->brake ? TEXT_HUD_BRAKES : (f->speed < 0.1f ? TEXT_HUD_PARKED : TEXT_HUD_ROLLING)));
    else snprintf(line, sizeof line, text_get(TEXT_HUD_AGL_VS), agl, (double)vs);
    text(c, x, y, f->on_ground && p->brake ? COL_HI : COL_TEXT, line);
    strip_arrow(f, home, world, c, x, y + c->lh);
}

/* The wind, right of the heading, when it matters: low and slow (an approach, a landing strip),
 * where a crosswind moves the aircraft by its own length in a second. "WIND 270 W 12 m/s": where it
 * blows from, as the heading counts (0 north, -z; 90 east, +x), and its speed with the gust
 * ("WIND 270 12" where the long form would pass the canvas's edge). */
#define HUD_WIND_BELOW_SPEED 80.0f
#define HUD_WIND_BELOW_ALT 150.0
#define HUD_WIND_MIN 2.0f
static void wind(const FlightState *f, const WeatherState *w, const Canvas *c, int x, int y) {
    float ms = sqrtf(w->wind[0] * w->wind[0] + w->wind[1] * w->wind[1]);
    if (f->speed >= HUD_WIND_BELOW_SPEED || f->y - (double)WORLD_Y_MIN >= HUD_WIND_BELOW_ALT || ms < HUD_WIND_MIN) return;
    float from = atan2f(-w->wind[0], w->wind[1]) / SIM_DEG;
    if (from < 0.0f) from += 360.0f;
    char line[48];
    snprintf(line, sizeof line, text_get(TEXT_HUD_WIND), (double)from, cardinal(from), (double)ms);
    if (x + width(c, line) > c->w - 4 * c->s)   /* a small screen at a large HUD: the short form */
        snprintf(line, sizeof line, text_get(TEXT_HUD_WIND_SHORT), (double)from, (double)ms);
    text(c, x, y, COL_TEXT, line);
}

/* Flight data, top left; frame rate, top right; the place below, bottom centre. */
static void fit(const Canvas *c, char *t, int room);

/* The place line at (x, z) into *ps, made again only when the island, its place under (x, z), the
 * language or the room changed; false when (x, z) names no place. */
static bool place_line(GamePlaceShown *ps, const GameHome *home, const World *world, double x, double z, const Canvas *c) {
    WorldIsland wi;
    if (!world || !world_island_held(world, x, z, &wi)) return false;
    int site = archipelago_site_at(wi.home ? home->island : wi.island, wi.field, wi.ox, wi.oz, x, z);
    int lang = (int)text_language(), room = c->w - 8 * c->s;
    if (ps->valid && ps->field == (const void *)wi.field && ps->cell_x == wi.cell_x && ps->cell_z == wi.cell_z &&
        ps->site == site && ps->lang == lang && ps->room == room)
        return ps->ok;
    *ps = (GamePlaceShown){.valid = true, .field = wi.field, .cell_x = wi.cell_x, .cell_z = wi.cell_z, .site = site,
                           .lang = lang, .room = room};
    ps->ok = site >= 0 && game_place_line(home, world, x, z, ps->line, sizeof ps->line);
    if (ps->ok) fit(c, ps->line, room);
    return ps->ok;
}

static void hud(GameSession *ses, const GameSettings *set, const Platform *platform, const GameHome *home,
                const World *world, const Canvas *c) {
    const FlightState *f = &ses->flight;
    const Play *p = &ses->play;
    const WeatherState *wx = &ses->weather;
    char line[96];
    int x = 4 * c->s, y = 4 * c->s;
    float deg = fmodf(f->yaw / SIM_DEG, 360.0f);
    if (deg < 0.0f) deg += 360.0f;
    snprintf(line, sizeof line, text_get(TEXT_HUD_SPEED), (double)f->speed);
    text(c, x, y, COL_TEXT, line);
    snprintf(line, sizeof line, text_get(TEXT_HUD_ALTITUDE), f->y - (double)WORLD_Y_MIN);
    text(c, x, y + c->lh, COL_TEXT, line);
    int alt_end = x + width(c, line);
    snprintf(line, sizeof line, text_get(TEXT_HUD_HEADING), (double)deg, cardinal(deg));
    text(c, x, y + 2 * c->lh, COL_TEXT, line);
    wind(f, wx, c, x + width(c, line) + 6 * c->s, y + 2 * c->lh);
    snprintf(line, sizeof line, text_get(TEXT_HUD_THROTTLE), (double)(f->throttle * 100.0f));
    text(c, x, y + 3 * c->lh, COL_TEXT, line);
    if (f->boost > 0.05f) text(c, x + width(c, line) + 6 * c->s, y + 3 * c->lh, COL_HI, text_get(TEXT_HUD_BOOST));
    if (!set->collision) text(c, x, y + 4 * c->lh, COL_WARN, text_get(TEXT_HUD_COLLISION_OFF));
    else approach_aids(f, p, world, home, c, y + 4 * c->lh);
    if (p->fps > 0.0f) {   /* not in a single-frame shot */
        snprintf(line, sizeof line, text_get(TEXT_HUD_FPS), (double)p->fps);
        text(c, c->w - width(c, line) - 4 * c->s, y, COL_DIM, line);
    }
    battery(platform, c, y + c->lh, alt_end);
    if (set->show_position && !p->demo) position(f, c);   /* the demo's line is down there */
    if (place_line(&ses->place_shown, home, world, f->x, f->z, c))
        text_centre(c, c->h - c->lh - 4 * c->s, COL_TEXT, ses->place_shown.line);
}

/* Where the flight data's rows end (the HUD's left column: four lines, five with collision off). */
static int hud_rows_end(const GameSettings *set, const Canvas *c) { return 4 * c->s + (set->collision ? 4 : 5) * c->lh; }

/* Cuts t (in place, at a character, never inside a UTF-8 sequence) and ends it with "..." until
 * it fits `room` pixels. */
static void fit(const Canvas *c, char *t, int room) {
    size_t len = strlen(t), keep = len;
    if (width(c, t) <= room) return;
    while (keep > 0) {
        do keep--;
        while (keep > 0 && ((unsigned char)t[keep] & 0xc0) == 0x80);
        if (keep + 3 > len) continue;
        memcpy(t + keep, "...", 4);
        if (width(c, t) <= room) return;
    }
}

/* The messages, from y down (the flight's: three tenths down the screen, under the flight data),
 * each broken into lines that fit the screen (at spaces, or between Japanese characters); lines
 * that would pass `bottom` (the place name's line, the title's modes) are left out (four long
 * messages on a 480x320 screen with the large HUD). */
static void messages(const Play *p, const Canvas *c, int y, int bottom) {
    for (int i = 0; i < PLAY_MESSAGES; i++) {
        const PlayMessage *m = &p->msg[i];
        if (m->ttl <= 0.0f) continue;
        for (const char *t = m->text; *t;) {
            char line[sizeof m->text];
            size_t len = render_hud_text_break(c->r, t, c->s, c->w - 8 * c->s);
            snprintf(line, sizeof line, "%.*s", (int)len, t);
            if (y + c->lh <= bottom) text_centre(c, y, COL_HI, line);
            y += c->lh;
            t += len;
            while (*t == ' ') t++;
        }
    }
}

static int title_scale(const Canvas *c) { return c->s * 3 > 4 ? 4 : c->s * 3; }

/* The language choice, top right of the title: the key, then each language in its own words, the
 * one in use lit (the key cycles them: game.c). */
static void language_choice(const Canvas *c, bool pad) {
    const char *key = text_get(pad ? TEXT_TITLE_LANG_PAD : TEXT_TITLE_LANG_KEY);
    int gap = 6 * c->s, x = c->w - 4 * c->s;
    for (int l = LANG_COUNT - 1; l >= 0; l--) {
        const char *name = text_get_lang(l == LANG_JA ? TEXT_LANG_JA_NAME : TEXT_LANG_EN_NAME, (Lang)l);
        x -= width(c, name);
        text(c, x, 4 * c->s, l == (int)text_language() ? COL_HI : COL_DIM, name);
        x -= gap;
    }
    text(c, x - width(c, key), 4 * c->s, COL_DIM, key);
}

/* The title: the name, the prompts (pad: a controller's; can_continue: a saved spot; boot_service:
 * the power menu) and the modes. Returns the modes' line's y (the messages stay above it). */
static int title(const Tour *tour, bool pad, bool can_continue, bool boot_service, const Canvas *c) {
    Canvas big = *c;
    big.s = title_scale(c);
    const char *t = text_get(TEXT_TITLE_NAME);
    text(&big, (c->w - width(&big, t)) / 2, c->h / 4, COL_TEXT, t);
    text_centre(c, c->h / 4 + RENDER_HUD_LINE_H * big.s + c->lh, COL_DIM, text_get(TEXT_TITLE_TAGLINE));
    /* The prompts sit at the foot of the screen, under the aircraft (the chase view puts it
     * just below the middle), whatever the screen's size; the mode choices just above them. */
    const char *lines[3];
    int n = 0;
    if (can_continue) lines[n++] = text_get(pad ? TEXT_TITLE_CONTINUE_PAD : TEXT_TITLE_CONTINUE_KEY);
    else lines[n++] = text_get(pad ? TEXT_TITLE_FLY_PAD : TEXT_TITLE_FLY_KEY);
    lines[n++] = text_get(pad ? TEXT_TITLE_QUIT_PAD : TEXT_TITLE_QUIT_KEY);
    if (boot_service) lines[n++] = text_get(pad ? TEXT_TITLE_POWER_PAD : TEXT_TITLE_POWER_KEY);
    int y = c->h - (n + 1) * c->lh;
    for (int i = 0; i < n; i++) text_centre(c, y + i * c->lh, i == 0 ? COL_HI : COL_DIM, lines[i]);
    tour_title_draw(tour, c->r, c->w, y - c->lh - c->lh / 2, c->s);
    language_choice(c, pad);
    return y - c->lh - c->lh / 2;
}

static void crash(const Play *p, const Canvas *c) {
    Canvas big = *c;
    big.s = c->s * 2;
    const char *t = text_get(TEXT_HUD_CRASHED);
    text(&big, (c->w - width(&big, t)) / 2, c->h * 2 / 5, COL_WARN, t);
    char line[64];
    snprintf(line, sizeof line, text_get(TEXT_HUD_RESTARTING), ceil((double)p->crash_timer));
    int big_lh = (int)lroundf((float)(RENDER_HUD_LINE_H * big.s) * render_hud_zoom(c->r));   /* at the HUD size */
    text_centre(c, c->h * 2 / 5 + big_lh + 2, COL_TEXT, line);
    if (p->crash_why && p->crash_why[0]) text_centre(c, c->h * 2 / 5 + big_lh + 2 + c->lh, COL_DIM, text_tr(p->crash_why));
}

/* A list longer than its window says so at the window's edge: "more" and an arrow at the right of
 * the line at y (the title's line above the rows, the blank line under them), where no row's
 * value reaches. */
static void more_mark(const Canvas *c, int right, int y, bool up) {
    int size = c->lh / 3;
    int ax = right - size, ay = y + (c->lh - 2 * c->s) / 2;
    render_hud_arrow(c->r, ax, ay, size, up ? 0.0f : 3.14159265f, COL_HI);
    const char *t = text_get(TEXT_MENU_MORE);
    text(c, ax - size - 4 * c->s - width(c, t), y, COL_DIM, t);
}

/* A menu page: a panel with the title, a window of items around the selection (marked where rows
 * are hidden above or below it), the selected item's help line, a hint. */
static void menu(Menu *m, const World *world, const Play *p, const Canvas *c) {
    if (world) {   /* the values in effect, beside the player's */
        m->held = world_params(world);
        m->reach = world_stats(world).reach;
    }
    m->look = &render_settings(c->r)->live;
    int pad = 4 * c->s;
    int pw = c->w - 2 * pad;
    int max_w = 300 * c->s;
    if (pw > max_w) pw = max_w;
    /* The selected item's help: a second line where one cannot hold it (broken at a space, or
     * between Japanese characters), the rest cut to the panel. */
    char help[2][200] = {"", ""};
    int help_lines = 1;
    if (m->count > 0) {
        char all[200];
        menu_item_help(m, &m->items[m->sel], all, sizeof all);
        size_t first = render_hud_text_break(c->r, all, c->s, pw - 2 * pad);
        snprintf(help[0], sizeof help[0], "%.*s", (int)first, all);
        const char *rest = all + first;
        while (*rest == ' ') rest++;
        snprintf(help[1], sizeof help[1], "%s", rest);
        if (help[1][0]) help_lines = 2;
        fit(c, help[1], pw - 2 * pad);
    }
    int rows = (c->h - 2 * pad) / c->lh - 4 - help_lines;
    if (rows < 3) rows = 3;
    int shown = m->count < rows ? m->count : rows;
    int ph = (shown + 4 + help_lines) * c->lh;
    int px = (c->w - pw) / 2, py = (c->h - ph) / 2;
    render_hud_box(c->r, px, py, pw, ph, COL_MENU);
    text(c, px + pad, py + c->lh / 2, COL_HI, menu_title(m));
    if (p->paused_for_pad) text(c, px + pad + width(c, menu_title(m)) + 8 * c->s, py + c->lh / 2, COL_WARN,
                                p->pad_notice);
    int first = m->sel - shown / 2;
    if (first > m->count - shown) first = m->count - shown;
    if (first < 0) first = 0;
    for (int i = 0; i < shown; i++) {
        int k = first + i;
        const MenuItem *it = &m->items[k];
        int y = py + (i + 2) * c->lh;
        if (k == m->sel) render_hud_box(c->r, px + 2 * c->s, y - c->s, pw - 4 * c->s, c->lh, COL_SEL);
        char label[sizeof it->label], v[128];
        memcpy(label, it->label, sizeof label);
        menu_item_value(m, it, v, sizeof v);
        /* A label wider than the panel (a job's place, a long name) is cut first, room kept for a
         * short value; long values (bindings) keep their start, the end cut to what is left. */
        fit(c, label, pw - 2 * pad - (v[0] ? width(c, ">") + 8 * c->s : 0));
        text(c, px + pad, y, k == m->sel ? COL_TEXT : COL_DIM, label);
        fit(c, v, pw - 2 * pad - width(c, label) - 8 * c->s);
        text(c, px + pw - pad - width(c, v), y, k == m->sel ? COL_HI : COL_DIM, v);
    }
    if (first > 0) more_mark(c, px + pw - pad, py + c->lh / 2, true);
    if (first + shown < m->count) more_mark(c, px + pw - pad, py + (shown + 2) * c->lh, false);
    for (int i = 0; i < help_lines && m->count > 0; i++)
        text(c, px + pad, py + ph - (1 + help_lines - i) * c->lh - c->s, COL_TEXT, help[i]);
    const char *hint = text_get(m->capturing ? TEXT_MENU_HINT_CAPTURE : TEXT_MENU_HINT);
    if (width(c, hint) > pw - 2 * pad) hint = text_get(m->capturing ? TEXT_MENU_HINT_CAPTURE : TEXT_MENU_HINT_SHORT);
    text(c, px + pad, py + ph - c->lh - c->s, COL_DIM, hint);
}

/* The island map holds the island under the aircraft: set again (its field into the HUD atlas)
 * when the aircraft is over another island's cell than the one shown, or the language changed;
 * over a cell whose island is not baked yet, the last one stays. Gives the site under the
 * aircraft (-1 none). */
static int map_follow(const GameServices *svc, GameMapShown *shown, double x, double z) {
    WorldIsland wi;
    if (!svc->world || !world_island_held(svc->world, x, z, &wi)) return -1;
    int lang = (int)text_language();
    const Island *isl = wi.home ? svc->home.island : wi.island;
    int here = archipelago_site_at(isl, wi.field, wi.ox, wi.oz, x, z);   /* the place line's */
    if (shown->set && shown->cell_x == wi.cell_x && shown->cell_z == wi.cell_z && shown->lang == lang &&
        svc->map_lang == lang)
        return here;
    SkyError err = {0};
    if (!render_map_set_at(svc->render, wi.field, isl, svc->home.codex, GAME_LANG, (double)wi.ox, (double)wi.oz, &err))
        log_warn("%s", err.msg);
    *shown = (GameMapShown){true, wi.cell_x, wi.cell_z, lang};
    return here;
}

static void island_map(const FlightState *f, const GameServices *svc, GameMapShown *shown, const GameDelivery *d,
                       const Canvas *c) {
    const GameHome *home = &svc->home;
    int here = map_follow(svc, shown, f->x, f->z);   /* the place under the aircraft: its name first */
    int pad = 4 * c->s;
    int top = pad + c->lh, bottom = c->lh + pad;
    render_hud_box(c->r, 0, 0, c->w, c->h, COL_PANEL);
    char title[96], name[96];
    snprintf(title, sizeof title, "%s", text_get(TEXT_MAP_TITLE));
    if (home->archipelago && shown->set) {
        archipelago_island_name(&home->arch, shown->cell_x, shown->cell_z, GAME_LANG, name, sizeof name);
        snprintf(title, sizeof title, text_get(TEXT_MAP_ISLAND_TITLE), name);
    }
    const char *hint = text_get(home->archipelago ? TEXT_MAP_NEXT : TEXT_MAP_CLOSE);
    fit(c, title, c->w - 3 * pad - width(c, hint));
    text(c, pad, pad, COL_HI, title);
    text(c, c->w - width(c, hint) - pad, pad, COL_DIM, hint);
    render_hud_map(c->r, pad, top, c->w - 2 * pad, c->h - top - bottom, f->x, f->z, f->yaw, here);
    delivery_map_draw(d, c->r, pad, top, c->w - 2 * pad, c->h - top - bottom, shown->set ? shown->cell_x : 0,
                      shown->set ? shown->cell_z : 0);
    if (!game_place_line(home, svc->world, f->x, f->z, name, sizeof name))
        snprintf(name, sizeof name, "%s", text_get(TEXT_MAP_OPEN_SKY));
    text_centre(c, c->h - c->lh - c->s, COL_TEXT, name);
}

/* The world map: the islands seen this run and the aircraft, the square wide enough to hold them
 * all (at least three cells across; islands more than 16 cells away are left out). Their names are kept per table entry and language, so a
 * frame names only islands new to it. */
static void world_map(const FlightState *f, const GameServices *svc, const GameDelivery *d, const Canvas *c) {
    static RenderWorldIsle isles[SEEN_MAX];
    static char names[SEEN_MAX][48];
    static uint32_t named_order[SEEN_MAX];
    static int named_lang[SEEN_MAX];
    const GameHome *home = &svc->home;
    const SeenTable *t = &d->seen;
    const double cell = (double)island_codex_cell_m(home->codex);
    int lang = (int)text_language();
    int64_t here_x = island_cell_of(home->codex, (int64_t)floor(f->x)), here_z = island_cell_of(home->codex, (int64_t)floor(f->z));
    /* The square around the aircraft and the islands seen (at least three cells, at most 32 across). */
    double x0 = f->x - 1.5 * cell, x1 = f->x + 1.5 * cell, z0 = f->z - 1.5 * cell, z1 = f->z + 1.5 * cell;
    for (uint32_t i = 0; i < t->n; i++) {
        const SeenIsland *s = &t->isles[i];
        if (named_order[i] != s->order || named_lang[i] != lang) {
            archipelago_island_name(&home->arch, s->cell_x, s->cell_z, GAME_LANG, names[i], sizeof names[i]);
            named_order[i] = s->order;
            named_lang[i] = lang;
        }
        isles[i] = (RenderWorldIsle){(double)s->centre_x_m, (double)s->centre_z_m, (double)s->diameter_m, s->landed,
                                     s->cell_x == here_x && s->cell_z == here_z, names[i]};
        if (fabs(isles[i].x - f->x) > 16.0 * cell || fabs(isles[i].z - f->z) > 16.0 * cell) continue;
        double r = 0.5 * s->diameter_m;
        x0 = fmin(x0, isles[i].x - r), x1 = fmax(x1, isles[i].x + r);
        z0 = fmin(z0, isles[i].z - r), z1 = fmax(z1, isles[i].z + r);
    }
    double span = fmax(x1 - x0, z1 - z0) * 1.1;
    int pad = 4 * c->s;
    int top = pad + c->lh, bottom = c->lh + pad;
    render_hud_box(c->r, 0, 0, c->w, c->h, COL_PANEL);
    char title[96];
    snprintf(title, sizeof title, text_get(TEXT_MAP_WORLD_TITLE), t->next_order);
    const char *hint = text_get(TEXT_MAP_CLOSE);
    fit(c, title, c->w - 3 * pad - width(c, hint));
    text(c, pad, pad, COL_HI, title);
    text(c, c->w - width(c, hint) - pad, pad, COL_DIM, hint);
    render_hud_world(c->r, pad, top, c->w - 2 * pad, c->h - top - bottom, 0.5 * (x0 + x1), 0.5 * (z0 + z1), span, isles,
                     t->n, f->x, f->z, f->yaw);
    char name[96];
    if (!game_place_line(home, svc->world, f->x, f->z, name, sizeof name))
        snprintf(name, sizeof name, "%s", text_get(TEXT_MAP_OPEN_SKY));
    text_centre(c, c->h - c->lh - c->s, COL_TEXT, name);
}

/* The canvas the overlay draws on: the HUD layer's size for a disp_w x disp_h display, the text
 * scale for it and the player's HUD size (the renderer's). */
static void canvas_for(Renderer *r, int disp_w, int disp_h, Canvas *out) {
    Canvas c;
    c.r = r;
    render_hud_canvas(r, disp_w, disp_h, &c.w, &c.h);
    /* Glyphs about 14-21 display pixels tall everywhere: a 240-line canvas is upscaled at least
     * twice, a 320-line one (a 480x320 handheld, drawn 1:1) needs the double size itself. */
    c.s = c.h / 160;
    if (c.s < 1) c.s = 1;
    if (c.s > 4) c.s = 4;
    /* The player's HUD size (the renderer's): 0.75x for a 3.5-inch screen, 1.5x for a TV. */
    c.lh = (int)lroundf((float)(RENDER_HUD_LINE_H * c.s) * render_hud_zoom(r));
    *out = c;
}

int overlay_text_probe(Renderer *r, int disp_w, int disp_h, const char *t, int *canvas_h) {
    if (!r) return 0;
    Canvas c;
    canvas_for(r, disp_w, disp_h, &c);
    *canvas_h = c.h;
    render_hud_clear(r);
    text(&c, 0, 0, COL_TEXT, t);
    RenderHudBounds b = render_hud_bounds(r);
    render_hud_clear(r);
    return b.y1 - b.y0 - 1;   /* the glyphs without their one-pixel shadow */
}

void overlay_draw(const GameConfig *cfg, const GameServices *svc, GameSession *ses, const GameCourses *crs) {
    if (!svc->render || game_shot_hides_hud(&ses->shot, &cfg->set)) return;
    Canvas c;
    canvas_for(svc->render, svc->disp_w, svc->disp_h, &c);
    const Play *p = &ses->play;
    if (p->overlay == OVERLAY_MAP) {
        if (p->map_world && svc->home.archipelago) world_map(&ses->flight, svc, &crs->delivery, &c);
        else island_map(&ses->flight, svc, &ses->map_shown, &crs->delivery, &c);
        return;
    }
    if (p->demo) {
        if (cfg->set.hud && !crs->tour.results) hud(ses, &cfg->set, svc->platform, &svc->home, svc->world, &c);
        if (attract_playing(&crs->attract)) tour_draw(&crs->tour, svc->render, c.w, c.h, c.s, &ses->flight, &ses->camera);
        text_centre(&c, c.h - 3 * c.lh, COL_HI, text_get(TEXT_TITLE_DEMO));
        return;
    }
    if (p->state == PLAY_START) {
        /* The title's menu (Select / H with --boot-service: power off, reboot, console) covers the
         * title; the title's messages go under its name and tagline, not across them. */
        if (p->overlay == OVERLAY_MENU) {
            menu(&ses->menu, svc->world, p, &c);
            return;
        }
        int modes_y = title(&crs->tour, svc->input.st.pad_connected, ses->cont.have, cfg->opt.boot_service, &c);
        messages(p, &c, c.h / 4 + RENDER_HUD_LINE_H * title_scale(&c) + 2 * c.lh + c.lh / 2, modes_y);
        return;
    }
    /* The pause menu and the results' opaque panel cover the flight data: none of it is queued. */
    if (cfg->set.hud && p->overlay != OVERLAY_MENU && !(crs->tour.results && p->overlay == OVERLAY_NONE)) hud(ses, &cfg->set, svc->platform, &svc->home, svc->world, &c);
    if (p->overlay == OVERLAY_NONE) tour_draw(&crs->tour, svc->render, c.w, c.h, c.s, &ses->flight, &ses->camera);
    if (p->overlay == OVERLAY_NONE && cfg->set.hud)
        delivery_hud_draw(&crs->delivery, svc->render, c.w, c.h, c.s, c.lh, &ses->flight, &ses->camera);
    if (p->state == PLAY_CRASH) crash(p, &c);
    int msg_y = c.h * 3 / 10;
    if (cfg->set.hud && hud_rows_end(&cfg->set, &c) + c.lh / 2 > msg_y) msg_y = hud_rows_end(&cfg->set, &c) + c.lh / 2;
    messages(p, &c, msg_y, c.h - c.lh - 4 * c.s);
    if (p->overlay == OVERLAY_MENU) menu(&ses->menu, svc->world, p, &c);
}
