/* Tests for the console features that draw, with the real game booted offscreen at 240x160.
 * Screenshots (src/game/screenshot.c over src/render/capture.c's PNG encoder): the encoder's PNG
 * decodes (zlib, CRCs, several stored blocks) to the very pixels it was given; F12 saves
 * screenshots/skyisles-0001.png at the screen's size with a message (encoded and written on the
 * screenshots' thread, waited for); a second request while that thread saves waits for it; the HUD option leaves the
 * HUD out; a full disk (an injected write failure) leaves no file, no temporary one, and says so.
 * HUD size: at 480x320 and 1280x720 the glyphs of small, normal and large measure 0.75x, 1x and
 * 1.5x of normal's within 15%. The menu opened on the title is drawn there. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <SDL2/SDL.h>

#include "game/boot_plan.h"
#include "game/game.h"
#include "game/savefile.h"
#include "support_gl/game_gl.h"

static Game g_game;
static GameGlRun g_run;

static int setup(void **state) {
    (void)state;
    if (!game_gl_boot(&g_game, &g_run, "console_gl", "240x160", GAME_GL_SMALL_WORLD)) return -1;
    game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, "hud");
    return 0;
}

static int teardown(void **state) {
    (void)state;
    return game_gl_end(&g_game, &g_run);
}

/* One frame as game_run draws it, F12 pressed first when asked. */
static void frame(bool f12) {
    if (f12) {
        SDL_Event e;
        SDL_zero(e);
        e.type = SDL_KEYDOWN;
        e.key.state = SDL_PRESSED;
        e.key.keysym.scancode = SDL_SCANCODE_F12;
        SDL_PushEvent(&e);
        e.type = SDL_KEYUP;
        e.key.state = SDL_RELEASED;
        SDL_PushEvent(&e);
    }
    PlatformEvents ev;
    platform_poll(g_game.svc.platform, &ev);
    game_frame(&g_game, &ev, 1.0f / 60.0f);
    overlay_draw(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs);
    game_draw(&g_game);
    game_shot_capture(&g_game.ses, g_game.svc.disp_w, g_game.svc.disp_h);
    platform_swap(g_game.svc.platform);
    game_shot_wait(&g_game.ses);   /* the saving thread done, its message said */
}

static bool said(const char *what) {
    for (int i = 0; i < PLAY_MESSAGES; i++)
        if (g_game.ses.play.msg[i].ttl > 0.0f && strstr(g_game.ses.play.msg[i].text, what)) return true;
    return false;
}

static int files_in(const char *dir) {
    char cmd[400];
    snprintf(cmd, sizeof cmd, "exit $(ls -A '%s' 2>/dev/null | wc -l)", dir);
    return WEXITSTATUS(system(cmd));
}

/* 300x250 of a known pattern (raw scanlines past 65535 bytes: several stored blocks) decodes to
 * the same pixels with Python's zlib, every chunk's CRC checked. */
static void test_png_encoder_round_trip(void **state) {
    (void)state;
    const int w = 300, h = 250;
    static uint8_t buf[300 * 250 * 4 + 8192];
    assert_true(render_png_buffer_bytes(w, h) <= sizeof buf);
    uint8_t *in = buf + render_png_input_offset(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t *p = in + ((size_t)y * w + x) * 4;
            p[0] = (uint8_t)(x * 7 + y), p[1] = (uint8_t)(y * 3), p[2] = (uint8_t)(x ^ y), p[3] = 255;
        }
    assert_int_equal(render_png_encode(buf, render_png_buffer_bytes(w, h) - 1, w, h), 0);   /* too small */
    size_t len = render_png_encode(buf, sizeof buf, w, h);
    printf("  %dx%d: %zu bytes of PNG\n", w, h, len);
    assert_true(len > (size_t)w * h * 3);
    char path[300], cmd[1200];
    snprintf(path, sizeof path, "%s/pattern.png", g_run.dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, len, f), len);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "python3 -c 'import sys,zlib,struct\n"
             "d=open(sys.argv[1],\"rb\").read(); assert d[:8]==b\"\\x89PNG\\r\\n\\x1a\\n\"; i=8; idat=b\"\"\n"
             "while i<len(d):\n"
             " n,t=struct.unpack(\">I4s\",d[i:i+8]); c=d[i+8:i+8+n]\n"
             " assert struct.unpack(\">I\",d[i+8+n:i+12+n])[0]==zlib.crc32(t+c)\n"
             " if t==b\"IHDR\": w,h=struct.unpack(\">II\",c[:8])\n"
             " if t==b\"IDAT\": idat+=c\n"
             " i+=12+n\n"
             "r=zlib.decompress(idat); s=3*w+1\n"
             "ok=all(r[y*s]==0 and r[y*s+1+3*x:y*s+4+3*x]==bytes([(x*7+y)&255,(y*3)&255,(x^y)&255]) for y in range(h) for x in range(w))\n"
             "sys.exit(0 if ok and (w,h)==(300,250) else 1)' '%s'", path);
    assert_int_equal(system(cmd), 0);
}

static void test_f12_saves_png_of_the_screen(void **state) {
    (void)state;
    char dir[300], path[400], cmd[600];
    snprintf(dir, sizeof dir, "%s/screenshots", g_run.dir);
    frame(true);
    assert_int_equal(g_game.ses.shot.saved, 1);
    snprintf(path, sizeof path, "%s/skyisles-0001.png", dir);
    assert_string_equal(g_game.ses.shot.last, path);
    assert_true(said("Screenshot saved: screenshots/skyisles-0001.png"));
    snprintf(cmd, sizeof cmd, "python3 tools/delivery/image_check.py '%s' --size %dx%d", path, g_game.svc.disp_w,
             g_game.svc.disp_h);
    assert_int_equal(system(cmd), 0);
    /* Off: the HUD is left out of the frame being saved (and back on the next). */
    g_game.cfg.set.shot_hud = false;
    g_game.ses.shot.pending = true;
    assert_true(game_shot_hides_hud(&g_game.ses.shot, &g_game.cfg.set));
    frame(false);
    assert_false(game_shot_hides_hud(&g_game.ses.shot, &g_game.cfg.set));
    assert_int_equal(g_game.ses.shot.saved, 2);
    assert_int_equal(files_in(dir), 2);
    g_game.cfg.set.shot_hud = true;
    /* A request right after another, while its thread may still save it: kept until the thread
     * is free, then saved under the next number; the frame never waits for the encode. */
    g_game.ses.shot.pending = true;
    game_shot_capture(&g_game.ses, g_game.svc.disp_w, g_game.svc.disp_h);
    g_game.ses.shot.pending = true;
    game_shot_capture(&g_game.ses, g_game.svc.disp_w, g_game.svc.disp_h);
    game_shot_wait(&g_game.ses);
    game_shot_capture(&g_game.ses, g_game.svc.disp_w, g_game.svc.disp_h);   /* the held one, if it waited */
    game_shot_wait(&g_game.ses);
    assert_false(g_game.ses.shot.pending);
    assert_int_equal(g_game.ses.shot.saved, 4);
    assert_int_equal(files_in(dir), 4);
    snprintf(path, sizeof path, "%s/skyisles-0004.png", dir);
    assert_string_equal(g_game.ses.shot.last, path);
}

/* The disk fills up mid-write: no new screenshot, no temporary file, a message. */
static void test_full_disk_leaves_none(void **state) {
    (void)state;
    char dir[300];
    snprintf(dir, sizeof dir, "%s/screenshots", g_run.dir);
    int before = files_in(dir);
    uint32_t saved = g_game.ses.shot.saved;
    save_fail_after(1000);
    frame(true);
    save_fail_after(SIZE_MAX);
    assert_int_equal(g_game.ses.shot.saved, saved);
    assert_int_equal(g_game.ses.shot.failed, 1);
    assert_int_equal(files_in(dir), before);
    assert_true(said("Screenshot not saved: the disk is full"));
    frame(true);   /* room again: the next number */
    assert_int_equal(g_game.ses.shot.saved, saved + 1);
}

static void test_hud_sizes_measured(void **state) {
    (void)state;
    static const int sizes[2][2] = {{480, 320}, {1280, 720}};
    static const float factor[3] = {0.75f, 1.0f, 1.5f};
    int keep_w = g_game.svc.disp_w, keep_h = g_game.svc.disp_h, keep_size = g_game.cfg.set.render.live.hud_size;
    for (int k = 0; k < 2; k++) {
        g_game.svc.disp_w = sizes[k][0];
        g_game.svc.disp_h = sizes[k][1];
        int h[3], canvas_h = 0;
        for (int z = 0; z < 3; z++) {
            g_game.cfg.set.render.live.hud_size = z;
            render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
            h[z] = overlay_text_probe(g_game.svc.render, g_game.svc.disp_w, g_game.svc.disp_h, "SPD 120 m/s", &canvas_h);
        }
        printf("  %dx%d (HUD canvas %d lines): glyphs %d / %d / %d px high (%.1f / %.1f / %.1f display px)\n",
               sizes[k][0], sizes[k][1], canvas_h, h[0], h[1], h[2], h[0] * (double)sizes[k][1] / canvas_h,
               h[1] * (double)sizes[k][1] / canvas_h, h[2] * (double)sizes[k][1] / canvas_h);
        assert_true(h[1] > 0);
        for (int z = 0; z < 3; z++) {
            float ratio = (float)h[z] / (float)h[1];
            assert_true(fabsf(ratio - factor[z]) <= 0.15f * factor[z]);
        }
    }
    g_game.svc.disp_w = keep_w;
    g_game.svc.disp_h = keep_h;
    g_game.cfg.set.render.live.hud_size = keep_size;
    render_apply_settings(g_game.svc.render, &g_game.cfg.set.render);
}

/* HUD quads the overlay queues for a screen (queued, counted, cleared: no frame drawn). */
static uint32_t quads_of(const char *show, bool on_title) {
    assert_true(game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, show));
    if (on_title) g_game.ses.play.state = PLAY_START;
    for (int i = 0; i < PLAY_MESSAGES; i++) g_game.ses.play.msg[i].ttl = 0.0f;
    overlay_draw(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs);
    RenderHudBounds b = render_hud_bounds(g_game.svc.render);
    render_hud_clear(g_game.svc.render);
    return b.quads;
}

/* The menu Select / H opens on the title (--boot-service: power off, reboot, console) is drawn
 * there, in place of the title: the same quads as that menu over a flight without the HUD. */
static void test_title_menu_is_drawn(void **state) {
    (void)state;
    g_game.svc.disp_w = 240;
    g_game.svc.disp_h = 160;
    uint32_t title = quads_of("title", false);
    g_game.cfg.set.hud = false;
    uint32_t menu_in_flight = quads_of("menu", false);
    g_game.cfg.set.hud = true;
    uint32_t menu_on_title = quads_of("menu", true);
    printf("  HUD quads: title %u, the menu on the title %u, the menu in flight %u\n", title, menu_on_title,
           menu_in_flight);
    assert_int_equal(menu_on_title, menu_in_flight);
    assert_int_not_equal(menu_on_title, title);
    game_show(&g_game.cfg, &g_game.svc, &g_game.ses, &g_game.crs.tour, "hud");
}

/* The boot stayed inside its plan: the radius it asked fitted, and what booted after the world
 * besides the renderer and its screenshot buffer (courses, attract replay, sound) stayed inside
 * the plan's reserve. The course cache is not in the plan: it is carved only from room the budget
 * has spare past the plan (course_cache.c), so it is counted apart. */
static void test_boot_stays_in_its_plan(void **state) {
    (void)state;
    assert_int_equal(world_params(g_game.svc.world)->create.view_radius_max, GAME_VIEW_RADIUS_MAX);
    const GameMemory *c = &g_game.svc.carved;
    size_t rest = g_game.svc.mem.used - c->home - c->jobs - c->world - c->render - c->course_cache;
    printf("  after the world besides the renderer and the course cache (%.2f MiB): %.2f MiB (reserve %u MiB), sound %.2f of it\n",
           (double)c->course_cache / 1048576.0, (double)rest / 1048576.0, GAME_BOOT_RESERVE_MIB, (double)c->sound / 1048576.0);
    assert_true(rest <= (size_t)GAME_BOOT_RESERVE_MIB << 20);
    assert_true(c->render >= render_create_bytes(&render_settings(g_game.svc.render)->create) - 1024);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boot_stays_in_its_plan),
        cmocka_unit_test(test_png_encoder_round_trip),
        cmocka_unit_test(test_f12_saves_png_of_the_screen),
        cmocka_unit_test(test_full_disk_leaves_none),
        cmocka_unit_test(test_hud_sizes_measured),
        cmocka_unit_test(test_title_menu_is_drawn),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
