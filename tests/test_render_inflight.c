/* Render tests for the frames a software rasteriser has in flight: where the swap waits for
 * nothing (the fixture's offscreen context, as an offscreen run's), a frame drawn leaves the one
 * before it finished, straight to the display and through the low-res target alike; measured as
 * a timer query around the earlier frame whose result is there without waiting for it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <GLES2/gl2.h>

#include "platform.h"
#include "render/render.h"
#include "support_gl/render_fixture.h"

#define W 640
#define H 480
#define GL_TIME_ELAPSED_EXT 0x88BF
#define GL_QUERY_RESULT_AVAILABLE_EXT 0x8867

typedef void (*GenQueries)(GLsizei n, GLuint *ids);
typedef void (*DeleteQueries)(GLsizei n, const GLuint *ids);
typedef void (*BeginQuery)(GLenum target, GLuint id);
typedef void (*EndQuery)(GLenum target);
typedef void (*GetQueryObjectiv)(GLuint id, GLenum pname, GLint *params);

static RenderFixture g_fx;

static int setup(void **state) {
    RenderSettings s = render_fixture_settings(0, 16);
    return render_fixture_setup(state, &g_fx, "skyisles in-flight test", W, H, 32u << 20, &s);
}

static void set_lines(int lines) {
    RenderSettings s = *render_settings(g_fx.render);
    s.live.lines = lines;
    render_apply_settings(g_fx.render, &s);
}

/* Frames at `lines` (a sky over the whole view, as many as a queue would hold): after each, the
 * query around the frame before it has its result. */
static void frames_leave_the_last_done(int lines) {
    const char *ext = (const char *)glGetString(GL_EXTENSIONS);
    if (!ext || !strstr(ext, "GL_EXT_disjoint_timer_query")) skip();
    GenQueries gen = (GenQueries)platform_gl_proc("glGenQueriesEXT");
    DeleteQueries del = (DeleteQueries)platform_gl_proc("glDeleteQueriesEXT");
    BeginQuery begin = (BeginQuery)platform_gl_proc("glBeginQueryEXT");
    EndQuery end = (EndQuery)platform_gl_proc("glEndQueryEXT");
    GetQueryObjectiv get = (GetQueryObjectiv)platform_gl_proc("glGetQueryObjectivEXT");
    assert_true(gen && del && begin && end && get);
    set_lines(lines);
    RenderView v = render_fixture_view(0.0, 400.0, 0.0, 30.0f, 10.0f, 0.0);
    render_frame(g_fx.render, &v, W, H);
    render_finish(g_fx.render);
    GLuint q[8];
    gen(8, q);
    for (int i = 0; i < 8; i++) {
        begin(GL_TIME_ELAPSED_EXT, q[i]);
        render_frame(g_fx.render, &v, W, H);
        end(GL_TIME_ELAPSED_EXT);
        if (i == 0) continue;
        GLint ready = 0;
        get(q[i - 1], GL_QUERY_RESULT_AVAILABLE_EXT, &ready);
        assert_int_equal(ready, 1);
    }
    render_finish(g_fx.render);
    del(8, q);
    assert_int_equal(render_gl_errors(g_fx.render), 0);
}

static void test_full_resolution(void **state) {
    (void)state;
    frames_leave_the_last_done(0);
}

static void test_low_res_target(void **state) {
    (void)state;
    frames_leave_the_last_done(240);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_resolution),
        cmocka_unit_test(test_low_res_target),
    };
    return cmocka_run_group_tests(tests, setup, render_fixture_teardown);
}
