/* Tests for the game's input layer (src/game/input.c): the binding table read from keys and
 * pads, stick shaping, layout and invert options, the controller that drives and the quit combo.
 * Pure logic on hand-made PlatformEvents (the SDL path is tested in test_game_pad). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "game/input.h"

static Input g_in;
static PlatformEvents g_ev;

static void reset(void) {
    InputSettings s;
    input_settings_default(&s);
    input_init(&g_in, &s);
    memset(&g_ev, 0, sizeof g_ev);
}

static void frame(void) {
    input_update(&g_in, &g_ev);
    g_ev.key_count = 0;
    g_ev.pad_event_count = 0;
    for (int i = 0; i < PLATFORM_MAX_PADS; i++) g_ev.pads[i].pressed = 0;
}

static void press_key(PlatformKey k) {
    g_ev.held[k] = true;
    g_ev.keys[g_ev.key_count++] = k;
}

static void plug(int slot, int32_t id, uint32_t order) {
    PlatformPad *p = &g_ev.pads[slot];
    memset(p, 0, sizeof *p);
    p->connected = true;
    p->id = id;
    p->order = order;
    snprintf(p->name, sizeof p->name, "pad %d", id);
    PlatformPadEvent *e = &g_ev.pad_events[g_ev.pad_event_count++];
    e->type = PPAD_EV_ADDED;
    e->id = id;
    snprintf(e->name, sizeof e->name, "pad %d", id);
}

static void unplug(int slot) {
    PlatformPadEvent *e = &g_ev.pad_events[g_ev.pad_event_count++];
    e->type = PPAD_EV_REMOVED;
    e->id = g_ev.pads[slot].id;
    memcpy(e->name, g_ev.pads[slot].name, sizeof e->name);
    memset(&g_ev.pads[slot], 0, sizeof g_ev.pads[slot]);
}

static void test_keyboard_axes(void **state) {
    (void)state;
    reset();
    press_key(PKEY_S);
    frame();
    assert_true(g_in.st.value[GA_PITCH] == 1.0f);           /* pull back: nose up */
    press_key(PKEY_W);
    frame();
    assert_true(g_in.st.value[GA_PITCH] == 0.0f);           /* both cancel */
    g_ev.held[PKEY_S] = false;
    frame();
    assert_true(g_in.st.value[GA_PITCH] == -1.0f);
    g_ev.held[PKEY_W] = false;
    press_key(PKEY_A);
    frame();
    assert_true(g_in.st.value[GA_ROLL] == -1.0f && g_in.st.value[GA_PITCH] == 0.0f);
}

static void test_stick_shaping_and_invert(void **state) {
    (void)state;
    reset();
    plug(0, 5, 1);
    frame();
    g_ev.pads[0].axis[PPAD_LEFTY] = 0.1f;   /* inside the dead zone */
    frame();
    assert_true(g_in.st.value[GA_PITCH] == 0.0f);
    g_ev.pads[0].axis[PPAD_LEFTY] = 0.8f;
    frame();
    float want = powf((0.8f - 0.15f) / 0.85f, 1.6f);
    assert_float_equal(g_in.st.value[GA_PITCH], want, 1e-5);
    g_ev.pads[0].axis[PPAD_LEFTY] = 1.0f;
    frame();
    assert_float_equal(g_in.st.value[GA_PITCH], 1.0f, 1e-6);
    InputSettings s = g_in.set;
    s.invert_pitch = true;
    input_apply_settings(&g_in, &s);
    frame();
    assert_float_equal(g_in.st.value[GA_PITCH], -1.0f, 1e-6);
    /* Radial: a diagonal keeps its direction. */
    float x = 0.6f, y = -0.6f;
    input_shape_stick(&x, &y, 0.15f, 1.6f);
    assert_float_equal(x, -y, 1e-6);
    assert_true(x > 0.0f && x < 0.6f);
}

static void test_triggers_and_buttons(void **state) {
    (void)state;
    reset();
    plug(0, 3, 1);
    frame();
    g_ev.pads[0].axis[PPAD_TRIGGER_RIGHT] = 1.0f;
    g_ev.pads[0].held = 1u << PPAD_A;
    g_ev.pads[0].pressed = 1u << PPAD_A;
    frame();
    assert_float_equal(g_in.st.value[GA_THROTTLE_UP], 1.0f, 1e-6);
    assert_true(g_in.st.pressed[GA_BOOST] && g_in.st.pressed[GA_MENU_OK]);
    frame();
    assert_true(g_in.st.held[GA_BOOST] && !g_in.st.pressed[GA_BOOST]);
    /* A tap shorter than a frame still presses once. */
    g_ev.pads[0].held = 0;
    g_ev.pads[0].pressed = 1u << PPAD_Y;
    frame();
    assert_true(g_in.st.pressed[GA_CAMERA]);
    frame();
    assert_false(g_in.st.pressed[GA_CAMERA]);
}

static void test_nintendo_layout(void **state) {
    (void)state;
    reset();
    plug(0, 1, 1);
    frame();
    InputSettings s = g_in.set;
    s.nintendo = true;
    input_apply_settings(&g_in, &s);
    g_ev.pads[0].held = g_ev.pads[0].pressed = 1u << PPAD_B;   /* the right face button */
    frame();
    assert_true(g_in.st.pressed[GA_MENU_OK]);
    assert_false(g_in.st.pressed[GA_MENU_BACK]);
    g_ev.pads[0].held = g_ev.pads[0].pressed = 1u << PPAD_A;
    frame();
    assert_true(g_in.st.pressed[GA_MENU_BACK]);
}

static void test_stick_as_dpad(void **state) {
    (void)state;
    reset();
    plug(0, 1, 1);
    frame();
    g_ev.pads[0].axis[PPAD_LEFTY] = -0.95f;
    frame();
    assert_true(g_in.st.pressed[GA_MENU_UP]);
    frame();
    assert_false(g_in.st.pressed[GA_MENU_UP]);
    assert_true(g_in.st.held[GA_MENU_UP]);
    g_ev.pads[0].axis[PPAD_LEFTY] = 0.0f;
    frame();
    g_ev.pads[0].axis[PPAD_LEFTY] = -0.95f;
    frame();
    assert_true(g_in.st.pressed[GA_MENU_UP]);
}

static void test_driving_pad(void **state) {
    (void)state;
    reset();
    frame();
    assert_int_equal(g_in.st.active_pad, -1);
    assert_false(g_in.st.pad_connected);
    plug(0, 5, 1);
    frame();
    assert_int_equal(g_in.st.pad_change, INPUT_PAD_FOUND);
    assert_int_equal(g_in.st.active_pad, 5);
    plug(1, 7, 2);
    frame();
    assert_int_equal(g_in.st.pad_change, INPUT_PAD_NONE);
    assert_int_equal(g_in.st.active_pad, 5);   /* the first one keeps driving */
    g_ev.pads[1].axis[PPAD_LEFTX] = 1.0f;      /* the second pad is not read */
    frame();
    assert_true(g_in.st.value[GA_ROLL] == 0.0f);
    unplug(0);
    frame();
    assert_int_equal(g_in.st.pad_change, INPUT_PAD_SWITCHED);
    assert_int_equal(g_in.st.active_pad, 7);
    assert_true(g_in.st.value[GA_ROLL] > 0.99f);
    unplug(1);
    frame();
    assert_int_equal(g_in.st.pad_change, INPUT_PAD_LOST);
    assert_false(g_in.st.pad_connected);
    assert_string_equal(g_in.st.pad_name, "pad 7");
    plug(2, 9, 3);
    frame();
    assert_int_equal(g_in.st.pad_change, INPUT_PAD_FOUND);
    assert_int_equal(g_in.st.active_pad, 9);
}

static void test_quit_combo(void **state) {
    (void)state;
    reset();
    plug(0, 1, 1);
    frame();
    g_ev.pads[0].held = 1u << PPAD_BACK;
    frame();
    assert_false(g_in.st.quit_combo);
    g_ev.pads[0].held |= 1u << PPAD_START;
    frame();
    assert_true(g_in.st.quit_combo);
    frame();
    assert_false(g_in.st.quit_combo);   /* once per press of the pair */
}

static void test_bind_text_round_trip(void **state) {
    (void)state;
    InputSettings s;
    input_settings_default(&s);
    assert_true(s.bind_count > 40);
    for (uint32_t i = 0; i < s.bind_count; i++) {
        char text[64];
        InputBind back;
        input_bind_text(&s.binds[i], text, sizeof text);
        assert_true(input_bind_parse((GameAction)s.binds[i].action, text, &back));
        assert_int_equal(back.kind, s.binds[i].kind);
        assert_int_equal(back.code, s.binds[i].code);
        if (s.binds[i].kind == BIND_PAD_AXIS || game_action_is_axis((GameAction)s.binds[i].action))
            assert_int_equal(back.sign, s.binds[i].sign);
    }
    InputBind b;
    assert_false(input_bind_parse(GA_BOOST, "key NoSuchKey", &b));
    assert_false(input_bind_parse(GA_BOOST, "pedal x", &b));
    assert_false(input_bind_parse(GA_COUNT, "key W", &b));
    for (int a = 0; a < GA_COUNT; a++) assert_int_equal(game_action_from_name(game_action_name((GameAction)a)), a);
}

static void test_rebind(void **state) {
    (void)state;
    reset();
    InputSettings s = g_in.set;
    input_rebind(&s, GA_BOOST, BIND_KEY, PKEY_B, 1);
    input_apply_settings(&g_in, &s);
    press_key(PKEY_SPACE);
    frame();
    assert_false(g_in.st.held[GA_BOOST]);
    press_key(PKEY_B);
    frame();
    assert_true(g_in.st.held[GA_BOOST]);
    input_reset_action(&s, GA_BOOST);
    input_apply_settings(&g_in, &s);
    g_ev.held[PKEY_B] = false;
    frame();
    assert_true(g_in.st.held[GA_BOOST]);   /* Space again */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keyboard_axes),   cmocka_unit_test(test_stick_shaping_and_invert),
        cmocka_unit_test(test_triggers_and_buttons), cmocka_unit_test(test_nintendo_layout),
        cmocka_unit_test(test_stick_as_dpad),   cmocka_unit_test(test_driving_pad),
        cmocka_unit_test(test_quit_combo),      cmocka_unit_test(test_bind_text_round_trip),
        cmocka_unit_test(test_rebind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
