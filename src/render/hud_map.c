/* skyisles island map on the HUD: the home island's ground baked once into the HUD atlas
 * (colour by location type, shaded by elevation and slope, a dark coast), and per frame the
 * path network, the sites with their names and the aircraft's arrow over it, laid out in the
 * rectangle the game asks for. North (-z) is up, east (+x) right. */
#include <math.h>
#include <string.h>

#include "render_internal.h"

/* Colours on the 15-bit grid (each channel within 1/32 of a 5-bit step), so the dither leaves
 * thin lines and small dots flat instead of speckled. */
#define PATH_RGBA 0x292108ffu       /* spanning paths: dark earth */
#define DETOUR_RGBA 0x8c2121ffu     /* restored detours: dark red */
#define DOT_RIM_RGBA 0x000000ffu
#define DOT_RGBA 0xffffffffu
#define BASE_DOT_RGBA 0xffd629ffu   /* the base: where a day starts and ends */
#define LABEL_RGBA 0xffffffffu
#define ARROW_RGBA 0xff2921ffu
#define ARROW_RIM_RGBA 0x000000ffu
#define STRIP_RIM_RGBA 0x000000ffu
#define STRIP_MAP_RGBA 0xefefe7ffu  /* airstrips: the painted strip's light surface */

/* ---------------------------------------------------------------- the ground, at boot */
static double elevation_m(const IslandField *f, int i, int j) {
    int n = (int)f->size;
    i = i < 0 ? 0 : (i >= n ? n - 1 : i);
    j = j < 0 ? 0 : (j >= n ? n - 1 : j);
    return f->elevation_dm[(size_t)j * f->size + (size_t)i] * 0.1;
}

static bool off_island(const IslandField *f, int i, int j) {
    int n = (int)f->size;
    if (i < 0 || j < 0 || i >= n || j >= n) return true;
    return f->type[(size_t)j * f->size + (size_t)i] == ISLAND_FIELD_OFF;
}

/* One map texel from the field cell under it: the type's ground colour, brighter with height
 * (0.6 at sea level to 1 at the top) and lit from the north-west by the slope, so ridges and
 * valleys read at a glance; cells on the coast dark; water blue; off the island transparent. */
#define MAP_WATER_R 64
#define MAP_WATER_G 112
#define MAP_WATER_B 168
static uint16_t map_texel(const IslandField *f, int i, int j) {
    if (off_island(f, i, j)) return 0;
    if (f->water_dm && f->water_dm[(size_t)j * f->size + (size_t)i]) return hud_texel(MAP_WATER_R, MAP_WATER_G, MAP_WATER_B, true);
    uint8_t t = f->type[(size_t)j * f->size + (size_t)i];
    uint32_t rgb = t < f->n_types ? f->type_rgb[t] : 0x808080u;
    double shade = 0.6;
    if (f->elevation_top_m > 0.0f) shade += 0.4 * elevation_m(f, i, j) / f->elevation_top_m;
    /* Height lost towards the south-east over two diagonal cells: > 0 faces the light. */
    double slope = (elevation_m(f, i - 1, j - 1) - elevation_m(f, i + 1, j + 1)) / (2.0 * f->cell_meters);
    shade += 0.35 * (slope > 1.0 ? 1.0 : (slope < -1.0 ? -1.0 : slope));
    if (off_island(f, i - 1, j) || off_island(f, i + 1, j) || off_island(f, i, j - 1) || off_island(f, i, j + 1))
        shade = 0.35;
    shade = shade < 0.2 ? 0.2 : (shade > 1.15 ? 1.15 : shade);
    int c[3];
    for (int k = 0; k < 3; k++) {
        double v = (double)((rgb >> (16 - 8 * k)) & 0xffu) * shade;
        c[k] = v > 255.0 ? 255 : (int)(v + 0.5);
    }
    return hud_texel(c[0], c[1], c[2], true);
}

bool hud_map_set(HudLayer *h, const IslandField *f, const Island *isl, const IslandCodex *cx, const char *lang,
                 double ox, double oz, MemArena *scratch, SkyError *err) {
    HudMap *m = &h->map;
    if (!f || f->size < 2 || !f->elevation_dm || !f->type || !(f->radius_m > 0.0f) || !isl || !cx ||
        isl->n_sites == 0 || isl->n_sites > ISLAND_MAX_SITES || isl->n_edges > ISLAND_MAX_EDGES) {
        sky_error_set(err, SKY_ERR_INPUT, "render: the island map needs a baked island field and a generated island");
        return false;
    }
    size_t mark = scratch_mark(scratch);
    uint16_t *texels = mem_arena_alloc(scratch, sizeof(uint16_t) * HUD_MAP_TEXELS * HUD_MAP_TEXELS, 16);
    if (!texels) {
        sky_error_set(err, SKY_ERR_START, "render: no scratch memory left for the island map");
        return false;
    }
    m->ready = false;   /* from here the old map is being replaced */
    /* Each texel takes the cell under its centre, whatever the field's size. */
    for (int y = 0; y < HUD_MAP_TEXELS; y++) {
        int j = (int)(((2 * (uint64_t)y + 1) * f->size) / (2 * HUD_MAP_TEXELS));
        for (int x = 0; x < HUD_MAP_TEXELS; x++) {
            int i = (int)(((2 * (uint64_t)x + 1) * f->size) / (2 * HUD_MAP_TEXELS));
            texels[(size_t)y * HUD_MAP_TEXELS + (size_t)x] = map_texel(f, i, j);
        }
    }
    glBindTexture(GL_TEXTURE_2D, h->atlas_tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 2);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, HUD_MAP_ROW, HUD_MAP_TEXELS, HUD_MAP_TEXELS, GL_RGBA,
                    GL_UNSIGNED_SHORT_5_5_5_1, texels);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glBindTexture(GL_TEXTURE_2D, 0);
    scratch_release(scratch, mark);

    /* Site positions are metres from the island's centre, which is the field's centre (the
     * field's cells span centre +- radius_m: island_bake_field); the field's coordinates are
     * metres from (ox, oz) in the world (the origin for the home island, its cell's for others). */
    m->centre_x = ox + f->centre_x;
    m->centre_z = oz + f->centre_z;
    m->radius_m = f->radius_m;
    const double span = 2.0 * m->radius_m;
    m->n_sites = isl->n_sites;
    for (uint32_t s = 0; s < isl->n_sites; s++) {
        HudMapSite *o = &m->sites[s];
        o->u = (float)((isl->sites[s].x_m + m->radius_m) / span);
        o->v = (float)((isl->sites[s].z_m + m->radius_m) / span);
        o->base = s == isl->base;
        island_site_display_name(isl, cx, s, lang ? lang : "en", o->name, sizeof o->name);
        o->name_w = (uint16_t)hud_text_width(o->name, 1, 1.0f);
    }
    m->n_paths = 0;
    for (uint32_t e = 0; e < isl->n_edges; e++) {
        const IslandEdge *ed = &isl->edges[e];
        if (!ed->path || ed->a >= isl->n_sites || ed->b >= isl->n_sites) continue;
        m->paths[m->n_paths++] = (HudMapPath){ed->a, ed->b, ed->path};
    }
    m->n_strips = f->n_strips < ISLAND_FIELD_MAX_STRIPS ? f->n_strips : ISLAND_FIELD_MAX_STRIPS;
    for (uint32_t k = 0; k < m->n_strips; k++) {
        const IslandFieldStrip *s = &f->strips[k];
        m->strips[k] = (HudMapStrip){(float)((s->ax + m->radius_m) / span), (float)((s->az + m->radius_m) / span),
                                     (float)((s->bx + m->radius_m) / span), (float)((s->bz + m->radius_m) / span),
                                     (float)(s->width_m / span)};
    }
    if (gl_errors("island map")) {
        sky_error_set(err, SKY_ERR_START, "render: GL error while uploading the island map");
        return false;
    }
    m->ready = true;
    return true;
}

/* ---------------------------------------------------------------- per frame */
typedef struct MapBox {
    int x, y, w, h;
} MapBox;

static bool boxes_overlap(MapBox a, MapBox b) {
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

static bool box_inside(MapBox a, MapBox r) {
    return a.x >= r.x && a.y >= r.y && a.x + a.w <= r.x + r.w && a.y + a.h <= r.y + r.h;
}

/* A segment as a quad `width` pixels wide. */
static void line_quad(HudLayer *h, float x0, float y0, float x1, float y1, float width, uint32_t rgba) {
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    if (len < 1e-3f) return;
    float nx = -dy / len * width * 0.5f, ny = dx / len * width * 0.5f;
    const float xy[4][2] = {{x0 + nx, y0 + ny}, {x1 + nx, y1 + ny}, {x1 - nx, y1 - ny}, {x0 - nx, y0 - ny}};
    hud_quad(h, xy, rgba);
}

/* The arrow: a notched dart around (cx, cy) pointing along (fx, fy), `len` pixels tip to tail,
 * as one concave quad (tip, right wing, notch, left wing: both triangles share the tip-notch
 * diagonal, which lies inside it). */
static void arrow_corners(float cx, float cy, float fx, float fy, float len, float out[4][2]) {
    float rx = -fy, ry = fx;
    const float along[4] = {0.55f, -0.45f, -0.2f, -0.45f}, across[4] = {0.0f, 0.4f, 0.0f, -0.4f};
    for (int i = 0; i < 4; i++) {
        out[i][0] = cx + (fx * along[i] + rx * across[i]) * len;
        out[i][1] = cy + (fy * along[i] + ry * across[i]) * len;
    }
}

/* The same quad with every edge moved d pixels outwards (each corner along the miter of its two
 * edges): an outline of even width under the arrow, however it turns. */
static void grow_quad(const float in[4][2], float d, float out[4][2]) {
    float area = 0.0f;
    for (int i = 0; i < 4; i++) area += in[i][0] * in[(i + 1) % 4][1] - in[(i + 1) % 4][0] * in[i][1];
    float sign = area > 0.0f ? 1.0f : -1.0f, n[4][2];
    for (int i = 0; i < 4; i++) {   /* outward unit normal of the edge from corner i to i + 1 */
        float ex = in[(i + 1) % 4][0] - in[i][0], ey = in[(i + 1) % 4][1] - in[i][1];
        float l = sqrtf(ex * ex + ey * ey);
        n[i][0] = l > 0.0f ? sign * ey / l : 0.0f;
        n[i][1] = l > 0.0f ? -sign * ex / l : 0.0f;
    }
    for (int i = 0; i < 4; i++) {
        const float *a = n[(i + 3) % 4], *b = n[i];
        float k = 1.0f + a[0] * b[0] + a[1] * b[1];
        k = k > 0.25f ? d / k : 4.0f * d;   /* a hairpin corner would shoot off: cap its miter */
        out[i][0] = in[i][0] + (a[0] + b[0]) * k;
        out[i][1] = in[i][1] + (a[1] + b[1]) * k;
    }
}

/* What a name must keep clear of: the rectangle's edge, every other place's box (a site's dot with
 * three pixels round it, an island's square with its rim), the arrow, the strips (as thick
 * segments) and the names already placed (in h->labels). On the world map a name is also nearer
 * its own island's square than any other, so it reads as that island's. */
typedef struct LabelRoom {
    MapBox rect, arrow;
    const MapBox *keep;   /* per owner */
    uint32_t n_keep;
    const float (*seg)[5];   /* x0, y0, x1, y1, half width */
    uint32_t n_seg;
    bool nearest_own;
} LabelRoom;

/* Whether the thick segment (x0, y0)-(x1, y1), half width hw, crosses box b (clipped against the
 * box grown by hw, Liang-Barsky). */
static bool segment_hits_box(const float s[5], MapBox b) {
    float lo[2] = {(float)b.x - s[4], (float)b.y - s[4]}, hi[2] = {(float)(b.x + b.w) + s[4], (float)(b.y + b.h) + s[4]};
    float p0[2] = {s[0], s[1]}, d[2] = {s[2] - s[0], s[3] - s[1]}, t0 = 0.0f, t1 = 1.0f;
    for (int k = 0; k < 2; k++) {
        if (fabsf(d[k]) < 1e-6f) {
            if (p0[k] < lo[k] || p0[k] > hi[k]) return false;
            continue;
        }
        float ta = (lo[k] - p0[k]) / d[k], tb = (hi[k] - p0[k]) / d[k];
        if (ta > tb) {
            float t = ta;
            ta = tb;
            tb = t;
        }
        t0 = ta > t0 ? ta : t0;
        t1 = tb < t1 ? tb : t1;
        if (t0 > t1) return false;
    }
    return true;
}

/* The squared gap between two boxes (0 when they touch or overlap). */
static long box_gap2(MapBox a, MapBox b) {
    long dx = a.x > b.x + b.w ? a.x - (b.x + b.w) : (b.x > a.x + a.w ? b.x - (a.x + a.w) : 0);
    long dy = a.y > b.y + b.h ? a.y - (b.y + b.h) : (b.y > a.y + a.h ? b.y - (a.y + a.h) : 0);
    return dx * dx + dy * dy;
}

/* How much a name that must show (`always`) may give up, tried in turn: nothing; other places'
 * boxes (it may cover them); and, on a crowded world map, being nearer its own island than any
 * other (it stays beside the aircraft's arrow over its island, in gold). */
enum { FIT_STRICT, FIT_OVER_PLACES, FIT_ANYWHERE };

static bool label_fits(const HudLayer *h, const LabelRoom *room, MapBox b, uint32_t own, int give) {
    if (!box_inside(b, room->rect) || boxes_overlap(b, room->arrow)) return false;
    const bool nearest = room->nearest_own && give < FIT_ANYWHERE;
    long own_gap = nearest ? box_gap2(b, room->keep[own]) : 0;
    for (uint32_t d = 0; d < room->n_keep; d++) {
        if (d == own) continue;
        if (give == FIT_STRICT && boxes_overlap(b, room->keep[d])) return false;
        if (nearest && box_gap2(b, room->keep[d]) <= own_gap) return false;
    }
    for (uint32_t k = 0; k < room->n_seg; k++)
        if (segment_hits_box(room->seg[k], b)) return false;
    const RenderMapLabels *l = &h->labels;
    for (uint32_t p = 0; p < l->n; p++)
        if (boxes_overlap(b, (MapBox){l->box[p].x - 1, l->box[p].y, l->box[p].w + 2, l->box[p].h})) return false;
    return true;
}

/* The place under the aircraft reaches to the arrow when that is over it (within two pixels):
 * its name goes beside both. */
static MapBox with_arrow(MapBox at, MapBox arrow) {
    if (!boxes_overlap((MapBox){at.x - 2, at.y - 2, at.w + 4, at.h + 4}, arrow)) return at;
    int x0 = at.x < arrow.x ? at.x : arrow.x, y0 = at.y < arrow.y ? at.y : arrow.y;
    int x1 = at.x + at.w > arrow.x + arrow.w ? at.x + at.w : arrow.x + arrow.w;
    int y1 = at.y + at.h > arrow.y + arrow.h ? at.y + at.h : arrow.y + arrow.h;
    return (MapBox){x0, y0, x1 - x0, y1 - y0};
}

/* A name w x lh beside its place `at` (the dot, the island's square), two pixels off: on its
 * right, left, above, below (centred, then flush with either side), then the four corners; left
 * out where none fits. A name that must show (`always`) is also tried pushed out twice by half a
 * line (past the arrow over its place), then gives up what it must (label_fits). */
static void place_label(HudLayer *h, const LabelRoom *room, MapBox at, int w, int lh, uint32_t own, uint32_t rgba,
                        const char *name, bool always) {
    if (h->labels.n >= RENDER_WORLD_ISLES) return;
    const int cx = at.x + at.w / 2, cy = at.y + at.h / 2;
    for (int give = FIT_STRICT; give <= (always ? FIT_ANYWHERE : FIT_STRICT); give++)
        for (int ring = 0; ring < (always ? 3 : 1); ring++) {
            const int g = 2 + ring * (lh / 2 + 2);
            const int rx = at.x + at.w + g, lx = at.x - g - w, ay = at.y - g - lh, by = at.y + at.h + g;
            const MapBox sides[12] = {{rx, cy - lh / 2, w, lh}, {lx, cy - lh / 2, w, lh}, {cx - w / 2, ay, w, lh},
                                      {cx - w / 2, by, w, lh},  {at.x, ay, w, lh},        {at.x + at.w - w, ay, w, lh},
                                      {at.x, by, w, lh},        {at.x + at.w - w, by, w, lh},
                                      {rx, ay + g, w, lh},      {lx, ay + g, w, lh},      {rx, by - g, w, lh},
                                      {lx, by - g, w, lh}};
            for (int k = 0; k < 12; k++) {
                if (!label_fits(h, room, sides[k], own, give)) continue;
                RenderMapLabels *l = &h->labels;
                l->box[l->n] = (RenderMapBox){sides[k].x, sides[k].y, sides[k].w, sides[k].h};
                l->owner[l->n++] = own;
                hud_text(h, sides[k].x, sides[k].y, 1, rgba, name);
                return;
            }
        }
}

/* Names: the place under the aircraft's first, then the base's, then the rest, each beside its dot
 * where it fits; a name with no room is left out (a small map shows the names it has room for
 * instead of a heap of overlapping ones). Their boxes are the size the text is drawn at: the
 * player's HUD size scales them (the large one's names ran off a 320-wide canvas's edge). */
static void queue_labels(HudLayer *h, const int (*dot)[2], const LabelRoom *room, int here) {
    const HudMap *m = &h->map;
    const float zoom = hud_zoom(h);
    for (uint32_t pass = 0; pass < 3; pass++)
        for (uint32_t s = 0; s < m->n_sites; s++) {
            const HudMapSite *site = &m->sites[s];
            uint32_t want = (int)s == here ? 0u : (site->base ? 1u : 2u);
            if (want != pass || site->name_w == 0) continue;
            /* name_w is at 1x: the box is scaled to the size the name is drawn at. */
            const int w = (int)ceilf((float)site->name_w * zoom), lh = (int)ceilf(RENDER_HUD_LINE_H * zoom);
            MapBox at = {dot[s][0] - 2, dot[s][1] - 2, 5, 5};
            place_label(h, room, pass == 0 ? with_arrow(at, room->arrow) : at, w, lh, s, LABEL_RGBA, site->name, pass == 0);
        }
}

/* The arrow's corners for the aircraft at (ax, ay), pointing along its yaw; beyond the rectangle
 * it stays on its edge, on the line from the map's centre, so it still points the way back. The
 * box it covers (its rim with a pixel round it) goes to h->labels.arrow. */
static void aircraft_quads(HudLayer *h, int x, int y, int w, int hgt, int side, float ax, float ay, float air_yaw,
                           float arrow[4][2], float rim[4][2]) {
    float len = (float)side / 16.0f;
    len = len < 7.0f ? 7.0f : (len > 20.0f ? 20.0f : len);
    float cx = (float)x + (float)w * 0.5f, cy = (float)y + (float)hgt * 0.5f;
    float margin = len * 0.6f + 1.0f;
    float hx = (float)w * 0.5f - margin, hy = (float)hgt * 0.5f - margin;
    hx = hx > 0.0f ? hx : 0.0f;
    hy = hy > 0.0f ? hy : 0.0f;
    float dx = ax - cx, dy = ay - cy, t = 1.0f;
    if (fabsf(dx) > hx) t = hx / fabsf(dx);
    if (fabsf(dy) * t > hy) t = hy / fabsf(dy);
    ax = cx + dx * t;
    ay = cy + dy * t;
    arrow_corners(ax, ay, sinf(air_yaw), -cosf(air_yaw), len, arrow);   /* yaw 0 flies north: up the map */
    grow_quad(arrow, 1.0f, rim);
    float x0 = rim[0][0], x1 = x0, y0 = rim[0][1], y1 = y0;
    for (int i = 1; i < 4; i++) {
        x0 = fminf(x0, rim[i][0]), x1 = fmaxf(x1, rim[i][0]);
        y0 = fminf(y0, rim[i][1]), y1 = fmaxf(y1, rim[i][1]);
    }
    int bx = (int)floorf(x0) - 1, by = (int)floorf(y0) - 1;
    h->labels.arrow = (RenderMapBox){bx, by, (int)ceilf(x1) + 2 - bx, (int)ceilf(y1) + 2 - by};
}

static void queue_arrow(HudLayer *h, float arrow[4][2], float rim[4][2]) {
    hud_quad(h, rim, ARROW_RIM_RGBA);
    hud_quad(h, arrow, ARROW_RGBA);
}

static MapBox arrow_box(const HudLayer *h) {
    const RenderMapBox *a = &h->labels.arrow;
    return (MapBox){a->x, a->y, a->w, a->h};
}

void hud_map_queue(HudLayer *h, int x, int y, int w, int hgt, double air_x, double air_z, float air_yaw, int here) {
    const HudMap *m = &h->map;
    h->labels.n = 0;
    if (!m->ready || w < 8 || hgt < 8) return;
    /* The island is round: the largest square in the rectangle, centred. */
    int side = w < hgt ? w : hgt;
    int ox = x + (w - side) / 2, oy = y + (hgt - side) / 2;
    hud_atlas_map_quad(h, ox, oy, side);

    int dot[ISLAND_MAX_SITES][2];
    for (uint32_t s = 0; s < m->n_sites; s++) {
        dot[s][0] = ox + (int)floorf(m->sites[s].u * (float)side);
        dot[s][1] = oy + (int)floorf(m->sites[s].v * (float)side);
    }
    float line_w = side >= 360 ? 2.0f : 1.0f;
    for (uint32_t p = 0; p < m->n_paths; p++) {
        const HudMapPath *pa = &m->paths[p];
        line_quad(h, (float)dot[pa->a][0] + 0.5f, (float)dot[pa->a][1] + 0.5f, (float)dot[pa->b][0] + 0.5f,
                  (float)dot[pa->b][1] + 0.5f, line_w, pa->kind == 1 ? PATH_RGBA : DETOUR_RGBA);
    }
    /* Airstrips over the paths: a light bar in a dark rim, at least 2 pixels wide to read. */
    float seg[ISLAND_FIELD_MAX_STRIPS][5];
    for (uint32_t k = 0; k < m->n_strips; k++) {
        const HudMapStrip *st = &m->strips[k];
        float sw = st->width * (float)side;
        sw = sw < 2.0f ? 2.0f : sw;
        float x0 = (float)ox + st->u0 * (float)side, y0 = (float)oy + st->v0 * (float)side;
        float x1 = (float)ox + st->u1 * (float)side, y1 = (float)oy + st->v1 * (float)side;
        line_quad(h, x0, y0, x1, y1, sw + 2.0f, STRIP_RIM_RGBA);
        line_quad(h, x0, y0, x1, y1, sw, STRIP_MAP_RGBA);
        seg[k][0] = x0, seg[k][1] = y0, seg[k][2] = x1, seg[k][3] = y1, seg[k][4] = sw * 0.5f + 2.0f;
    }
    double span = 2.0 * m->radius_m;
    float arrow[4][2], rim[4][2];
    aircraft_quads(h, x, y, w, hgt, side, (float)(ox + (air_x - m->centre_x + m->radius_m) / span * side),
                   (float)(oy + (air_z - m->centre_z + m->radius_m) / span * side), air_yaw, arrow, rim);
    MapBox keep[ISLAND_MAX_SITES];
    for (uint32_t s = 0; s < m->n_sites; s++) keep[s] = (MapBox){dot[s][0] - 5, dot[s][1] - 5, 11, 11};
    const LabelRoom room = {{x, y, w, hgt}, arrow_box(h), keep, m->n_sites, (const float(*)[5])seg, m->n_strips, false};
    queue_labels(h, (const int(*)[2])dot, &room, here);
    /* Dots after the names: a name never hides a place. */
    for (uint32_t s = 0; s < m->n_sites; s++) {
        hud_box(h, (float)(dot[s][0] - 2), (float)(dot[s][1] - 2), 5.0f, 5.0f, DOT_RIM_RGBA);
        hud_box(h, (float)(dot[s][0] - 1), (float)(dot[s][1] - 1), 3.0f, 3.0f,
                m->sites[s].base ? BASE_DOT_RGBA : DOT_RGBA);
    }

    queue_arrow(h, arrow, rim);
}

/* Where world (wx, wz) falls on the map queued into the rectangle: the dots' own formula, so a
 * mark at a site's position covers its dot. False before the map is set. */
bool hud_map_point(const HudLayer *h, int x, int y, int w, int hgt, double wx, double wz, int *px, int *py) {
    const HudMap *m = &h->map;
    if (!m->ready || w < 8 || hgt < 8) return false;
    int side = w < hgt ? w : hgt;
    int ox = x + (w - side) / 2, oy = y + (hgt - side) / 2;
    double span = 2.0 * m->radius_m;
    *px = ox + (int)floorf((float)((wx - m->centre_x + m->radius_m) / span) * (float)side);
    *py = oy + (int)floorf((float)((wz - m->centre_z + m->radius_m) / span) * (float)side);
    return true;
}

/* ---------------------------------------------------------------- the world map */
#define WORLD_SEA_RGBA 0x10294aff   /* the map's square: the deep sky between islands */
#define WORLD_ISLE_RGBA 0x5a9c42ffu
#define WORLD_ISLE_RIM_RGBA 0x000000ffu
#define WORLD_HERE_RGBA 0xffd629ffu   /* the name of the island under the aircraft */

/* The world map's square in the rectangle: the largest one, centred, `span_m` across. */
static int world_square(int x, int y, int w, int hgt, int *ox, int *oy) {
    int side = w < hgt ? w : hgt;
    *ox = x + (w - side) / 2;
    *oy = y + (hgt - side) / 2;
    return side;
}

bool render_hud_world_point(int x, int y, int w, int hgt, double centre_x, double centre_z, double span_m, double wx,
                            double wz, int *px, int *py) {
    if (w < 8 || hgt < 8 || !(span_m > 0.0)) return false;
    int ox, oy, side = world_square(x, y, w, hgt, &ox, &oy);
    double u = (wx - centre_x) / span_m + 0.5, v = (wz - centre_z) / span_m + 0.5;
    if (!(u > -4.0 && u < 5.0 && v > -4.0 && v < 5.0)) return false;   /* far off the square (and NaN) */
    *px = ox + (int)floor(u * side);
    *py = oy + (int)floor(v * side);
    return true;
}

void hud_world_queue(HudLayer *h, int x, int y, int w, int hgt, double centre_x, double centre_z, double span_m,
                     const RenderWorldIsle *isles, uint32_t n, double air_x, double air_z, float air_yaw) {
    h->labels.n = 0;
    if (w < 8 || hgt < 8 || !(span_m > 0.0)) return;
    int ox, oy, side = world_square(x, y, w, hgt, &ox, &oy);
    hud_box(h, (float)ox, (float)oy, (float)side, (float)side, WORLD_SEA_RGBA);
    if (n > RENDER_WORLD_ISLES) n = RENDER_WORLD_ISLES;
    static int dot[RENDER_WORLD_ISLES][2];      /* main thread only: 4 KiB off the stack */
    static MapBox keep[RENDER_WORLD_ISLES];     /* each island's square with its rim */
    static uint32_t shown[RENDER_WORLD_ISLES];
    uint32_t n_shown = 0;
    for (uint32_t i = 0; i < n; i++) {
        int px, py;
        if (!render_hud_world_point(x, y, w, hgt, centre_x, centre_z, span_m, isles[i].x, isles[i].z, &px, &py) ||
            px < ox || py < oy || px >= ox + side || py >= oy + side)
            continue;   /* beyond the square: not drawn */
        dot[n_shown][0] = px;
        dot[n_shown][1] = py;
        shown[n_shown++] = i;
    }
    /* Each island a square its size (at least 5 pixels) in a dark rim; a landed one's gold mark on it. */
    for (uint32_t k = 0; k < n_shown; k++) {
        const RenderWorldIsle *is = &isles[shown[k]];
        float d = (float)(is->diameter_m / span_m * side);
        d = d < 5.0f ? 5.0f : d;
        float x0 = (float)dot[k][0] + 0.5f - d * 0.5f, y0 = (float)dot[k][1] + 0.5f - d * 0.5f;
        hud_box(h, x0 - 1.0f, y0 - 1.0f, d + 2.0f, d + 2.0f, WORLD_ISLE_RIM_RGBA);
        hud_box(h, x0, y0, d, d, WORLD_ISLE_RGBA);
        int kx = (int)floorf(x0 - 1.0f), ky = (int)floorf(y0 - 1.0f);
        keep[k] = (MapBox){kx, ky, (int)ceilf(x0 + d + 1.0f) - kx, (int)ceilf(y0 + d + 1.0f) - ky};
    }
    float arrow[4][2], rim[4][2];
    aircraft_quads(h, x, y, w, hgt, side, (float)(ox + ((air_x - centre_x) / span_m + 0.5) * side),
                   (float)(oy + ((air_z - centre_z) / span_m + 0.5) * side), air_yaw, arrow, rim);
    const MapBox ab = arrow_box(h);
    for (uint32_t k = 0; k < n_shown; k++)
        if (isles[shown[k]].here) keep[k] = with_arrow(keep[k], ab);
    const LabelRoom room = {{x, y, w, hgt}, ab, keep, n_shown, NULL, 0, true};   /* names may reach past the square */
    /* Names: the island under the aircraft's first, then in the table's order, each beside its
     * square where it fits. */
    const float zoom = hud_zoom(h);
    const int lh = (int)ceilf(RENDER_HUD_LINE_H * zoom);
    for (uint32_t pass = 0; pass < 2; pass++)
        for (uint32_t k = 0; k < n_shown; k++) {
            const RenderWorldIsle *is = &isles[shown[k]];
            if (is->here != (pass == 0) || !is->name || !is->name[0]) continue;
            int tw = (int)ceilf((float)hud_text_width(is->name, 1, 1.0f) * zoom);
            place_label(h, &room, keep[k], tw, lh, k, is->here ? WORLD_HERE_RGBA : LABEL_RGBA, is->name, is->here);
        }
    for (uint32_t p = 0; p < h->labels.n; p++) h->labels.owner[p] = shown[h->labels.owner[p]];
    for (uint32_t k = 0; k < n_shown; k++)
        if (isles[shown[k]].landed) {
            hud_box(h, (float)(dot[k][0] - 2), (float)(dot[k][1] - 2), 5.0f, 5.0f, DOT_RIM_RGBA);
            hud_box(h, (float)(dot[k][0] - 1), (float)(dot[k][1] - 1), 3.0f, 3.0f, BASE_DOT_RGBA);
        }
    queue_arrow(h, arrow, rim);
}
