/* skyisles GPU timer: GL_EXT_disjoint_timer_query around each frame's draws, read a few frames
 * late (a query whose result is not there yet is left for a later frame, never waited on). The
 * entry points come from the platform's loader: the renderer never links EGL or sees SDL. */
#include <string.h>

#include "render_internal.h"

#ifndef GL_TIME_ELAPSED_EXT
#define GL_TIME_ELAPSED_EXT 0x88BF
#endif
#ifndef GL_QUERY_RESULT_EXT
#define GL_QUERY_RESULT_EXT 0x8866
#endif
#ifndef GL_QUERY_RESULT_AVAILABLE_EXT
#define GL_QUERY_RESULT_AVAILABLE_EXT 0x8867
#endif
#ifndef GL_GPU_DISJOINT_EXT
#define GL_GPU_DISJOINT_EXT 0x8FBB
#endif

/* The entry points, typed here (older gl2ext.h headers lack the 64-bit types). */
typedef void (*GenQueries)(GLsizei n, GLuint *ids);
typedef void (*DeleteQueries)(GLsizei n, const GLuint *ids);
typedef void (*BeginQuery)(GLenum target, GLuint id);
typedef void (*EndQuery)(GLenum target);
typedef void (*GetQueryObjectiv)(GLuint id, GLenum pname, GLint *params);
typedef void (*GetQueryObjectui64v)(GLuint id, GLenum pname, uint64_t *params);
static const char *const k_names[6] = {"glGenQueriesEXT", "glDeleteQueriesEXT", "glBeginQueryEXT", "glEndQueryEXT",
                                       "glGetQueryObjectivEXT", "glGetQueryObjectui64vEXT"};
enum { F_GEN, F_DELETE, F_BEGIN, F_END, F_GETIV, F_GETUI64 };

bool gpu_timer_enable(GpuTimer *t, void *(*get_proc)(const char *name)) {
    memset(t, 0, sizeof *t);
    t->ms = -1.0;
    const char *ext = (const char *)glGetString(GL_EXTENSIONS);
    if (!get_proc || !ext || !strstr(ext, "GL_EXT_disjoint_timer_query")) return false;
    for (int i = 0; i < 6; i++)
        if (!(t->fn[i] = get_proc(k_names[i]))) return false;
    ((GenQueries)t->fn[F_GEN])(GPU_TIMER_RING, t->queries);
    glGetError();   /* a disjoint flag or error left from before is not ours */
    t->on = true;
    return true;
}

/* Results that are there, oldest first; a disjoint event (the GPU's clock changed) voids them. */
static void collect(GpuTimer *t) {
    GLint disjoint = 0;
    glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint);
    for (int k = 1; k <= GPU_TIMER_RING; k++) {
        int i = (t->next + k) % GPU_TIMER_RING;
        if (!t->pending[i]) continue;
        GLint ready = 0;
        ((GetQueryObjectiv)t->fn[F_GETIV])(t->queries[i], GL_QUERY_RESULT_AVAILABLE_EXT, &ready);
        if (!ready) break;   /* later ones finish later */
        uint64_t ns = 0;
        ((GetQueryObjectui64v)t->fn[F_GETUI64])(t->queries[i], GL_QUERY_RESULT_EXT, &ns);
        t->pending[i] = false;
        if (disjoint) {
            t->disjoint++;
            continue;
        }
        t->ms = (double)ns / 1e6;
        t->results++;
    }
}

void gpu_timer_begin(GpuTimer *t) {
    if (!t->on) return;
    collect(t);
    t->active = false;
    if (t->pending[t->next]) return;   /* the ring is full of unread frames: this one goes unmeasured */
    t->active = true;
    ((BeginQuery)t->fn[F_BEGIN])(GL_TIME_ELAPSED_EXT, t->queries[t->next]);
    t->pending[t->next] = true;
    t->next = (t->next + 1) % GPU_TIMER_RING;
}

void gpu_timer_end(GpuTimer *t) {
    if (!t->on || !t->active) return;
    ((EndQuery)t->fn[F_END])(GL_TIME_ELAPSED_EXT);
    t->active = false;
}

void gpu_timer_destroy(GpuTimer *t) {
    if (t->on) ((DeleteQueries)t->fn[F_DELETE])(GPU_TIMER_RING, t->queries);
    t->on = false;
}
