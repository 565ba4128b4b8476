/* Render tests for the time of day, measured in pixels: the sky at noon (blue, bright), at sunset
 * (warm toward the sun at the horizon, not away from it), at midnight (dark, stars present, none
 * by day); a face turned to the sun brighter than one turned away, whichever side the sun is on;
 * the hour following the sim's time while the time runs. The scenes are the dome alone and two
 * hand-made walls, so the world generator never moves them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/render.h"
#include "support_gl/render_fixture.h"

#define W 160
#define H 120

static RenderFixture g_fx;
static uint8_t g_px[W * H * 4];

static int setup(void **state) {
    RenderSettings s = render_fixture_settings(120, 16);
    s.live.time_mode = 1;   /* fixed: each test sets its hour */
    return render_fixture_setup(state, &g_fx, "skyisles daylight test", W, H, 24u << 20, &s);
}

/* One frame at an hour (sky clouds on or off) in a weather (NULL: none), read back. */
static void frame_in(float hour, bool sky_clouds, const WeatherState *w, double x, double y, double z, float yaw,
                     float pitch) {
    RenderSettings s = *render_settings(g_fx.render);
    s.live.hour = hour;
    s.live.sky_clouds = sky_clouds;
    render_apply_settings(g_fx.render, &s);
    RenderView v = render_fixture_view(x, y, z, yaw, pitch, 0.0);
    if (w) v.weather = *w;
    render_fixture_frame(&g_fx, &v, W, H, g_px);
}

static void frame_at(float hour, bool sky_clouds, double x, double y, double z, float yaw, float pitch) {
    frame_in(hour, sky_clouds, NULL, x, y, z, yaw, pitch);
}

/* Mean R, G, B over rows [y0, y1) and columns [x0, x1). */
static void mean_rgb(int x0, int y0, int x1, int y1, double out[3]) {
    out[0] = out[1] = out[2] = 0.0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            for (int c = 0; c < 3; c++) out[c] += g_px[(y * W + x) * 4 + c];
    for (int c = 0; c < 3; c++) out[c] /= (double)(x1 - x0) * (y1 - y0);
}

static int luma_at(int x, int y) {
    const uint8_t *p = &g_px[(y * W + x) * 4];
    return (p[0] * 299 + p[1] * 587 + p[2] * 114) / 1000;
}

/* Stars: pixels brighter than the mean of their 8 neighbours by more than 40. */
static int star_pixels(void) {
    int n = 0;
    for (int y = 1; y < H - 1; y++)
        for (int x = 1; x < W - 1; x++) {
            int around = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    if (dx || dy) around += luma_at(x + dx, y + dy);
            n += luma_at(x, y) * 8 > around + 40 * 8;
        }
    return n;
}

static void test_noon_sky_is_blue_and_bright(void **state) {
    (void)state;
    render_clear_terrain(g_fx.render);
    frame_at(12.0f, true, 0.0, 150.0, 0.0, 180.0f, 25.0f);   /* south, toward the sun's side */
    double m[3];
    mean_rgb(0, 0, W, H / 2, m);
    printf("noon, upper half: %.0f %.0f %.0f\n", m[0], m[1], m[2]);
    assert_true(m[2] > m[0] + 40.0);
    assert_true((m[0] + m[1] + m[2]) / 3.0 > 120.0);
}

/* At 18:00 the sun sets due west. A band just over the horizon is warm (red over blue) toward
 * it, and far warmer than the same band looking east. */
static void test_sunset_is_warm_toward_the_sun(void **state) {
    (void)state;
    render_clear_terrain(g_fx.render);
    double west[3], east[3];
    frame_at(18.0f, false, 0.0, 150.0, 0.0, -90.0f, 0.0f);
    mean_rgb(W / 2 - 20, H / 2 - 16, W / 2 + 20, H / 2 - 2, west);
    frame_at(18.0f, false, 0.0, 150.0, 0.0, 90.0f, 0.0f);
    mean_rgb(W / 2 - 20, H / 2 - 16, W / 2 + 20, H / 2 - 2, east);
    printf("sunset, over the horizon: west %.0f %.0f %.0f, east %.0f %.0f %.0f\n", west[0], west[1], west[2], east[0],
           east[1], east[2]);
    assert_true(west[0] > west[2] + 60.0);
    assert_true(west[0] - west[2] > east[0] - east[2] + 60.0);
}

/* Dawn and dusk have palettes of their own: at 06:15 the sky just over the sun is cool (pink and
 * violet: blue as strong as it is at dusk or more, red over blue far less), at 17:45 it is warm
 * orange; at dawn the horizon opposite the sun is lighter than at dusk. */
static void test_dawn_is_cool_and_dusk_warm(void **state) {
    (void)state;
    render_clear_terrain(g_fx.render);
    double dawn[3], dusk[3], dawn_away[3], dusk_away[3];
    frame_at(6.25f, false, 0.0, 150.0, 0.0, 90.0f, 0.0f);   /* east, toward the rising sun */
    mean_rgb(W / 2 - 20, H / 2 - 16, W / 2 + 20, H / 2 - 2, dawn);
    frame_at(6.25f, false, 0.0, 150.0, 0.0, -90.0f, 0.0f);
    mean_rgb(W / 2 - 20, H / 2 - 16, W / 2 + 20, H / 2 - 2, dawn_away);
    frame_at(17.75f, false, 0.0, 150.0, 0.0, -90.0f, 0.0f);   /* west, toward the setting sun */
    mean_rgb(W / 2 - 20, H / 2 - 16, W / 2 + 20, H / 2 - 2, dusk);
    frame_at(17.75f, false, 0.0, 150.0, 0.0, 90.0f, 0.0f);
    mean_rgb(W / 2 - 20, H / 2 - 16, W / 2 + 20, H / 2 - 2, dusk_away);
    printf("toward the sun: dawn %.0f %.0f %.0f, dusk %.0f %.0f %.0f; away: dawn %.0f %.0f %.0f, dusk %.0f %.0f %.0f\n",
           dawn[0], dawn[1], dawn[2], dusk[0], dusk[1], dusk[2], dawn_away[0], dawn_away[1], dawn_away[2],
           dusk_away[0], dusk_away[1], dusk_away[2]);
    assert_true(dusk[0] - dusk[2] > dawn[0] - dawn[2] + 40.0);   /* dusk the more orange */
    assert_true(dawn[2] > dusk[2] + 20.0);                        /* dawn the more violet */
    assert_true(dusk[1] - dusk[2] > dawn[1] - dawn[2] + 20.0);   /* orange: green over blue */
    double la = (dawn_away[0] + dawn_away[1] + dawn_away[2]) / 3.0;
    double lu = (dusk_away[0] + dusk_away[1] + dusk_away[2]) / 3.0;
    assert_true(la > lu + 10.0);
}

/* The weather's cloud on the dome: at noon, looking south and up, the sky in a storm is far
 * darker than in clear weather, overcast between the two; a fog bank makes it one grey. */
static double sky_luma_in(int kind) {
    WeatherState w;
    weather_eval(7u, kind, 0.0, 0.0, 5u, &w);
    w.flash = 0.0f;   /* the dome, not the lightning */
    w.rain = 0.0f;    /* no streaks over it either (the storm's gloom keeps its weight) */
    frame_in(12.0f, true, &w, 0.0, 150.0, 0.0, 180.0f, 25.0f);
    double m[3];
    mean_rgb(0, 0, W, H / 2, m);
    printf("noon sky in %s: %.0f %.0f %.0f\n", weather_kind_name(kind), m[0], m[1], m[2]);
    return (m[0] + m[1] + m[2]) / 3.0;
}

static void test_storm_darkens_the_sky(void **state) {
    (void)state;
    render_clear_terrain(g_fx.render);
    double clear = sky_luma_in(WEATHER_CLEAR), overcast = sky_luma_in(WEATHER_OVERCAST);
    double storm = sky_luma_in(WEATHER_STORM);
    assert_true(storm < clear * 0.6);
    assert_true(overcast < clear - 10.0 && overcast > storm + 10.0);
    double fog = sky_luma_in(WEATHER_FOG);
    int lo = 255, hi = 0;
    for (int y = 0; y < H / 2; y++)
        for (int x = 0; x < W; x++) {
            int l = luma_at(x, y);
            lo = l < lo ? l : lo;
            hi = l > hi ? l : hi;
        }
    printf("fog: luma %d..%d\n", lo, hi);
    assert_true(fog > storm && hi - lo < 24);   /* pale and even: no blue zenith, no clouds */
}

static void test_midnight_is_dark_with_stars(void **state) {
    (void)state;
    render_clear_terrain(g_fx.render);
    frame_at(0.0f, false, 0.0, 150.0, 0.0, 0.0f, 60.0f);
    double m[3];
    mean_rgb(0, 0, W, H, m);
    int stars = star_pixels();
    printf("midnight, looking up: mean %.0f %.0f %.0f, %d star pixels\n", m[0], m[1], m[2], stars);
    assert_true((m[0] + m[1] + m[2]) / 3.0 < 30.0);
    assert_true(m[2] > m[0]);   /* night blue, not grey */
    assert_true(stars >= 5);
    frame_at(12.0f, false, 0.0, 150.0, 0.0, 0.0f, 60.0f);
    printf("noon, looking up: %d star pixels\n", star_pixels());
    assert_int_equal(star_pixels(), 0);
}

/* Two walls of the same colour in chunk (0, 0): one facing +x at x = 10, one facing -x at
 * x = 22, 20..30 blocks along z, 55..65 high; the camera between them looks along -z. */
static WorldVertex g_walls[8];
static ChunkMesh g_mesh;

static void wall_vertex(WorldVertex *v, int x, int y, int z, uint8_t normal) {
    memset(v, 0, sizeof *v);
    v->x = (int16_t)x, v->y = (int16_t)y, v->z = (int16_t)z;
    v->normal = normal;
    v->flags = 3 | WORLD_MAT_STONE << 2;   /* AO open */
    v->r = v->g = v->b = 180;
    v->a = 255;
}

static void load_walls(void) {
    /* Counter-clockwise seen from the side each faces. */
    wall_vertex(&g_walls[0], 10, 55, 30, WORLD_NORMAL_PX);
    wall_vertex(&g_walls[1], 10, 55, 20, WORLD_NORMAL_PX);
    wall_vertex(&g_walls[2], 10, 65, 20, WORLD_NORMAL_PX);
    wall_vertex(&g_walls[3], 10, 65, 30, WORLD_NORMAL_PX);
    wall_vertex(&g_walls[4], 22, 55, 20, WORLD_NORMAL_NX);
    wall_vertex(&g_walls[5], 22, 55, 30, WORLD_NORMAL_NX);
    wall_vertex(&g_walls[6], 22, 65, 30, WORLD_NORMAL_NX);
    wall_vertex(&g_walls[7], 22, 65, 20, WORLD_NORMAL_NX);
    memset(&g_mesh, 0, sizeof g_mesh);
    g_mesh.opaque_parts = 1;
    g_mesh.parts[0].verts = g_walls;
    g_mesh.parts[0].vert_count = 8;
    render_clear_terrain(g_fx.render);
    assert_true(render_queue_mesh(g_fx.render, &g_mesh));
    while (render_upload_pending(g_fx.render, NULL) > 0) {}
}

/* The walls' pixels: grey in a daylight frame where the sky is blue (the camera stays put). */
static bool g_wall[W * H];

static void mark_walls(void) {
    for (int i = 0; i < W * H; i++) g_wall[i] = g_px[i * 4 + 2] <= g_px[i * 4] + 20;
}

/* Mean luminance of the walls' pixels in a column range. */
static double wall_luma(int x0, int x1) {
    double sum = 0.0;
    int n = 0;
    for (int y = 0; y < H; y++)
        for (int x = x0; x < x1; x++) {
            if (!g_wall[y * W + x]) continue;
            sum += luma_at(x, y);
            n++;
        }
    assert_true(n > 30);
    return sum / n;
}

static void test_face_toward_the_sun_is_brighter(void **state) {
    (void)state;
    load_walls();
    /* 08:00: the sun in the east (+x) lights the wall facing +x (left of the view). */
    frame_at(8.0f, false, 16.0, 60.0, 40.0, 0.0f, 0.0f);
    mark_walls();
    double left_am = wall_luma(0, W / 2), right_am = wall_luma(W / 2, W);
    /* 16:00: in the west, the other wall. */
    frame_at(16.0f, false, 16.0, 60.0, 40.0, 0.0f, 0.0f);
    double left_pm = wall_luma(0, W / 2), right_pm = wall_luma(W / 2, W);
    printf("walls: 08:00 +x %.0f -x %.0f; 16:00 +x %.0f -x %.0f\n", left_am, right_am, left_pm, right_pm);
    assert_true(left_am > right_am + 25.0);
    assert_true(right_pm > left_pm + 25.0);
    /* At midnight both are dark but readable, bluish. */
    frame_at(0.0f, false, 16.0, 60.0, 40.0, 0.0f, 0.0f);
    double night = wall_luma(0, W);
    printf("walls at midnight: %.0f\n", night);
    assert_true(night > 20.0 && night < left_am * 0.5);
    render_clear_terrain(g_fx.render);
}

/* The hour runs with the sim's time: a day per day_length minutes from the setting's hour. */
static void test_hour_follows_sim_time(void **state) {
    (void)state;
    RenderLiveParams l = render_settings(g_fx.render)->live;
    l.time_mode = 0;
    l.hour = 10.0f;
    l.day_minutes = 24.0f;
    assert_float_equal(render_sky_hour(&l, 0.0), 10.0, 1e-9);
    assert_float_equal(render_sky_hour(&l, 60.0), 11.0, 1e-9);        /* a minute is an hour */
    assert_float_equal(render_sky_hour(&l, 14.0 * 60.0), 0.0, 1e-9);  /* midnight comes round */
    l.time_mode = 1;
    assert_float_equal(render_sky_hour(&l, 777.0), 10.0, 1e-9);
    RenderSky noon, night;
    render_sky_at(&l, 12.0, &noon);
    render_sky_at(&l, 0.0, &night);
    assert_true(noon.sun_dir[1] > 0.8f && night.sun_dir[1] < -0.8f);
    assert_true(noon.night == 0.0f && night.night == 1.0f);
    assert_true(night.moon_dir[1] > 0.8f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_noon_sky_is_blue_and_bright),
        cmocka_unit_test(test_sunset_is_warm_toward_the_sun),
        cmocka_unit_test(test_dawn_is_cool_and_dusk_warm),
        cmocka_unit_test(test_storm_darkens_the_sky),
        cmocka_unit_test(test_midnight_is_dark_with_stars),
        cmocka_unit_test(test_face_toward_the_sun_is_brighter),
        cmocka_unit_test(test_hour_follows_sim_time),
    };
    return cmocka_run_group_tests(tests, setup, render_fixture_teardown);
}
