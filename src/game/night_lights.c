/* skyisles night lights of the landmarks of the islands around the aircraft: where each lit
 * landmark's lamp, fire or window is (found as those islands change, from their sites and the
 * ground under them), and each
 * frame the ones nearest the camera handed to the view as render lights, the lighthouse's beam
 * turning with the sim's time, fires flickering with it. */
#include <math.h>
#include <string.h>

#include "night_lights.h"

/* What a landmark shape lights (its boxes are world/prop_shapes.c's): the light's place from
 * the site's block and the ground (x, z from the block's corner, y from the block above the
 * ground), its colour, its glow's radius, how far its colour reaches onto faces, and whether it
 * carries the turning beam or flickers as a fire. */
typedef struct LampLook {
    const char *landmark;
    float at[3];
    float rgb[3];
    float size, reach;
    bool beam, fire;
} LampLook;

static const LampLook k_looks[] = {
    {"lighthouse", {0.5f, 13.0f, 0.5f}, {1.0f, 0.88f, 0.55f}, 1.8f, 16.0f, true, false},
    {"beacon", {0.5f, 9.2f, 0.5f}, {1.0f, 0.52f, 0.16f}, 2.0f, 14.0f, false, true},
    {"temple", {0.5f, 9.6f, 0.5f}, {1.0f, 0.50f, 0.14f}, 1.4f, 10.0f, false, true},
    {"hut", {0.5f, 1.0f, 4.15f}, {1.0f, 0.74f, 0.36f}, 0.9f, 6.0f, false, false},
    {"stilt_hut", {0.5f, 5.0f, 2.15f}, {1.0f, 0.74f, 0.36f}, 0.9f, 6.0f, false, false},
    {"jetty", {1.5f, 9.5f, 4.5f}, {1.0f, 0.86f, 0.52f}, 1.0f, 8.0f, false, false},
};
#define NLOOKS (sizeof k_looks / sizeof k_looks[0])

#define BEAM_LENGTH 46.0f
#define BEAM_TURN 0.9   /* radians per second of sim time */

static int look_find(const char *landmark) {
    for (size_t i = 0; landmark && i < NLOOKS; i++)
        if (!strcmp(k_looks[i].landmark, landmark)) return (int)i;
    return -1;
}

/* The top solid block of column (bx, bz) near island wi's ground there, or -1: its field says
 * about where (its sea level plus the cell's elevation; the field's metres count from the
 * island's origin), the world says exactly. */
static int ground_block(const World *w, const WorldIsland *wi, int64_t bx, int64_t bz) {
    const IslandField *f = wi->field;
    float sea = wi->sea;
    double half = 0.5 * (double)f->size;
    double u = ((double)(bx - wi->ox) + 0.5 - f->centre_x) / f->cell_meters + half;
    double v = ((double)(bz - wi->oz) + 0.5 - f->centre_z) / f->cell_meters + half;
    if (!(u >= 0.0 && v >= 0.0 && u < (double)f->size && v < (double)f->size) || !f->elevation_dm) return -1;
    int guess = (int)floor(sea + f->elevation_dm[(size_t)v * f->size + (size_t)u] * 0.1);
    for (int y = guess + 8; y >= guess - 8 && y >= WORLD_Y_MIN; y--)
        if (world_solid_at(w, (double)bx + 0.5, (double)y + 0.5, (double)bz + 0.5)) return y;
    return -1;
}

/* Adds island wi's lit landmarks to l (as many as there is room for). */
static void lamps_find(GameLamps *l, const World *w, const WorldIsland *wi) {
    const IslandField *f = wi->field;
    if (!f || !f->size || !(f->cell_meters > 0.0f)) return;
    for (uint32_t i = 0; i < f->n_sites && i < ISLAND_FIELD_MAX_SITES && l->count < GAME_LAMPS_MAX; i++) {
        const IslandFieldSite *st = &f->sites[i];
        if (st->type >= f->n_types || look_find(f->type_landmark[st->type]) < 0) continue;
        /* The landmark's block, as the world places it (world/props.c). */
        int64_t bx = wi->ox + (int64_t)floorf(f->centre_x + st->x_m), bz = wi->oz + (int64_t)floorf(f->centre_z + st->z_m);
        int gy = ground_block(w, wi, bx, bz);
        if (gy < 0) continue;
        if (game_lamp_at(f->type_landmark[st->type], bx, gy + 1, bz, &l->lamp[l->count])) l->count++;
    }
}

bool game_lamp_at(const char *landmark, int64_t bx, int base_y, int64_t bz, GameLamp *out) {
    int look = look_find(landmark);
    if (look < 0) return false;
    const LampLook *lk = &k_looks[look];
    out->x = (double)bx + lk->at[0];
    out->y = (double)base_y + lk->at[1];
    out->z = (double)bz + lk->at[2];
    out->look = (uint8_t)look;
    return true;
}

void game_lamps_update(GameLamps *l, const World *w, const WorldIsland *isl, uint32_t n) {
    const WorldGenParams *gen = &world_params(w)->gen;
    if (n > WORLD_NEAR_ISLANDS) n = WORLD_NEAR_ISLANDS;
    if (l->ready && world_islands_same(l->island, l->n_islands, isl, n) && !memcmp(&l->gen, gen, sizeof l->gen)) return;
    memcpy(l->island, isl, n * sizeof *isl);
    l->n_islands = n;
    memcpy(&l->gen, gen, sizeof l->gen);
    l->ready = true;
    l->count = 0;
    for (uint32_t i = 0; i < n; i++) lamps_find(l, w, &isl[i]);   /* the nearest islands' first */
}

void game_lamp_lights(const GameLamp *m, RenderView *v, double time_s) {
    const LampLook *lk = &k_looks[m->look];
    RenderLight *g = render_view_light(v);
    if (!g) return;
    g->x = m->x, g->y = m->y, g->z = m->z;
    memcpy(g->rgb, lk->rgb, sizeof g->rgb);
    g->size = lk->size;
    g->reach = lk->reach;
    if (lk->fire) g->size *= 0.85f + 0.15f * (float)sin(time_s * 11.0 + m->x);
    if (!lk->beam) return;
    RenderLight *b = render_view_light(v);
    if (!b) return;
    *b = *g;
    b->kind = RENDER_LIGHT_BEAM;
    b->size = BEAM_LENGTH;
    b->reach = 0.0f;
    b->yaw = (float)fmod(time_s * BEAM_TURN, 2.0 * M_PI);
    for (int c = 0; c < 3; c++) b->rgb[c] *= 0.7f;
}

void game_lamps_view(const GameLamps *l, RenderView *v, double time_s) {
    /* The nearest first, as many as the view holds (a lighthouse takes two). */
    bool used[GAME_LAMPS_MAX] = {false};
    for (uint32_t n = 0; n < l->count && v->light_count + 2 <= RENDER_LIGHTS_MAX; n++) {
        int best = -1;
        double bd = 0.0;
        for (uint32_t i = 0; i < l->count; i++) {
            if (used[i]) continue;
            double dx = l->lamp[i].x - v->cam_x, dy = l->lamp[i].y - v->cam_y, dz = l->lamp[i].z - v->cam_z;
            double d = dx * dx + dy * dy + dz * dz;
            if (best < 0 || d < bd) best = (int)i, bd = d;
        }
        used[best] = true;
        game_lamp_lights(&l->lamp[best], v, time_s);
    }
}

const char *game_lamp_landmark(const GameLamps *l, uint32_t i) {
    return i < l->count ? k_looks[l->lamp[i].look].landmark : NULL;
}
