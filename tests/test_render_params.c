/* Tests for the renderer's settings table (src/render/render_params.c, render.h's look rows):
 * each row's class, range and default; the defaults come from it; each row's value lives in its
 * own bytes of RenderSettings; a player's row says what the settings need to show it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "render/render.h"

static void test_rows_are_well_formed(void **state) {
    (void)state;
    size_t n = render_param_count(), players = 0;
    assert_true(n > 0);
    assert_null(render_param_at(n));
    for (size_t i = 0; i < n; i++) {
        const RenderParamDesc *d = render_param_at(i);
        assert_non_null(d->name);
        assert_ptr_equal(render_param_find(d->name), d);
        assert_non_null(d->help);
        size_t live = offsetof(RenderSettings, live), create = offsetof(RenderSettings, create);
        if (d->cls == RENDER_PARAM_LIVE) assert_true(d->offset >= live && d->offset < live + sizeof(RenderLiveParams));
        else assert_true(d->offset >= create && d->offset < create + sizeof(RenderCreateParams));
        assert_true(d->min <= d->def && d->def <= d->max);
        assert_true(d->step > 0.0);
        if (d->type == RENDER_PT_ENUM) assert_int_equal(d->n_names, (int)d->max + 1);
        if (d->group == RENDER_GROUP_NONE) {
            assert_null(d->flag);   /* the renderer's own: not a player's setting */
            assert_null(d->label);
            continue;
        }
        players++;
        assert_int_equal(d->cls, RENDER_PARAM_LIVE);   /* a player's change shows at once */
        assert_non_null(d->label);
        assert_true(d->type != RENDER_PT_U32);
    }
    assert_true(players >= 10);
    assert_null(render_param_find("no_such_row"));
}

static void test_defaults_come_from_the_table(void **state) {
    (void)state;
    RenderSettings s;
    render_settings_default(&s);
    for (size_t i = 0; i < render_param_count(); i++) {
        const RenderParamDesc *d = render_param_at(i);
        assert_float_equal(render_param_get(&s, d), d->def, 1e-6 * (1.0 + fabs(d->def)));
    }
    assert_int_equal(s.live.lines, RENDER_LINES_DEFAULT);
    assert_true(s.live.fov_y_deg == RENDER_FOV_DEFAULT);
    assert_int_equal(s.live.hud_size, 1);
    assert_int_equal(s.create.hud_max_quads, RENDER_HUD_QUADS_DEFAULT);
}

/* A value set through a row lands in that row's field only (its type says its size). */
static void test_each_row_owns_its_bytes(void **state) {
    (void)state;
    for (size_t i = 0; i < render_param_count(); i++) {
        const RenderParamDesc *d = render_param_at(i);
        RenderSettings a, b;
        render_settings_default(&a);
        b = a;
        render_param_set(&b, d, d->max);
        for (size_t j = 0; j < render_param_count(); j++)
            if (j != i) assert_true(render_param_get(&a, render_param_at(j)) == render_param_get(&b, render_param_at(j)));
        assert_float_equal(render_param_get(&b, d), d->max, 1e-6 * (1.0 + fabs(d->max)));
        render_param_set(&b, d, d->min - 1.0);   /* clamped */
        assert_float_equal(render_param_get(&b, d), d->min, 1e-6 * (1.0 + fabs(d->min)));
    }
    RenderSettings s;
    render_settings_default(&s);
    render_param_set(&s, render_param_find("lines"), 0.0);   /* 0 is full resolution, not below 64 */
    assert_int_equal(s.live.lines, 0);
    render_param_set(&s, render_param_find("lines"), 10.0);
    assert_int_equal(s.live.lines, 64);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_are_well_formed),
        cmocka_unit_test(test_defaults_come_from_the_table),
        cmocka_unit_test(test_each_row_owns_its_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
