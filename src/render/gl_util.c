/* skyisles GL helpers: error draining and shader programs from shaders_es2/ (on disk next to
 * the executable, or the copy embedded at build time), with info logs printed on failure. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render_internal.h"

#define SHADER_MAX_BYTES 16384

int gl_errors(const char *where) {
    int n = 0;
    for (GLenum e; (e = glGetError()) != GL_NO_ERROR && n < 16; n++)
        log_error("render: GL error 0x%04x after %s", (unsigned)e, where);
    return n;
}

static bool is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The shader folder into dir: SKYISLES_SHADER_DIR (strict: a missing file is an error), else
 * shaders_es2/ beside or above the executable, else ./shaders_es2; "" = embedded only. */
static void shader_dir(char *dir, size_t cap, bool *strict) {
    *strict = false;
    const char *env = getenv("SKYISLES_SHADER_DIR");
    if (env && env[0]) {
        snprintf(dir, cap, "%s", env);
        *strict = true;
        return;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) *slash = 0;
        static const char *const rel[] = {"/shaders_es2", "/../shaders_es2", "/../../shaders_es2"};
        for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
            snprintf(dir, cap, "%s%s", exe, rel[i]);
            if (is_dir(dir)) return;
        }
    }
    snprintf(dir, cap, "shaders_es2");
    if (is_dir(dir)) return;
    dir[0] = 0;
}

static const char *embedded(const char *name) {
    for (unsigned i = 0; i < render_embedded_shader_count; i++)
        if (strcmp(render_embedded_shaders[i].name, name) == 0) return render_embedded_shaders[i].text;
    return NULL;
}

/* Reads shaders_es2/name into scratch; falls back to the embedded copy. NULL with err set. */
static const char *shader_source(const char *name, MemArena *scratch, SkyError *err) {
    bool strict;
    char dir[PATH_MAX];
    shader_dir(dir, sizeof dir, &strict);
    if (dir[0]) {
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        FILE *f = fopen(path, "rb");
        if (f) {
            char *buf = mem_arena_alloc(scratch, SHADER_MAX_BYTES, 1);
            if (!buf) {
                fclose(f);
                sky_error_set(err, 1, "render: no scratch memory left to read shader %s", path);
                return NULL;
            }
            size_t got = fread(buf, 1, SHADER_MAX_BYTES - 1, f);
            bool too_big = !feof(f) && fgetc(f) != EOF;
            fclose(f);
            if (too_big) {
                sky_error_set(err, 1, "render: shader %s is larger than %u bytes", path, (unsigned)SHADER_MAX_BYTES);
                return NULL;
            }
            buf[got] = 0;
            return buf;
        }
        if (strict) {
            sky_error_set(err, 1,
                          "render: shader file %s is missing: restore it, or unset "
                          "SKYISLES_SHADER_DIR to use the built-in shaders", path);
            return NULL;
        }
        log_warn("render: %s not found, using the built-in copy", path);
    }
    const char *text = embedded(name);
    if (!text) sky_error_set(err, 1, "render: shader %s is neither in shaders_es2/ nor built in", name);
    return text;
}

static GLuint compile(GLenum type, const char *name, const char *src, const char *defines, SkyError *err) {
    /* Defines go after the #version line, which must stay first. */
    const char *body = src;
    int version_len = 0;
    if (strncmp(src, "#version", 8) == 0) {
        const char *nl = strchr(src, '\n');
        version_len = nl ? (int)(nl - src + 1) : (int)strlen(src);
        body = src + version_len;
    }
    const char *parts[3] = {src, defines ? defines : "", body};
    GLint lens[3] = {version_len, -1, -1};
    GLuint sh = glCreateShader(type);
    glShaderSource(sh, 3, parts, lens);
    glCompileShader(sh);
    GLint ok = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetShaderInfoLog(sh, sizeof log, NULL, log);
        fprintf(stderr, "skyisles: shader %s failed to compile:\n%s\n", name, log);
        sky_error_set(err, 1, "render: shader %s failed to compile (info log above)", name);
        glDeleteShader(sh);
        return 0;
    }
    return sh;
}

GLuint gl_program(const char *vs_name, const char *fs_name, const char *defines, MemArena *scratch, SkyError *err) {
    /* The sources live in scratch until both stages are compiled. */
    size_t mark = scratch_mark(scratch);
    const char *vs_src = shader_source(vs_name, scratch, err);
    const char *fs_src = vs_src ? shader_source(fs_name, scratch, err) : NULL;
    GLuint vs = fs_src ? compile(GL_VERTEX_SHADER, vs_name, vs_src, defines, err) : 0;
    GLuint fs = vs ? compile(GL_FRAGMENT_SHADER, fs_name, fs_src, defines, err) : 0;
    scratch_release(scratch, mark);
    if (!fs) {
        if (vs) glDeleteShader(vs);
        return 0;
    }
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glBindAttribLocation(prog, ATTR_POS, "a_pos");
    glBindAttribLocation(prog, ATTR_COLOR, "a_color");
    glBindAttribLocation(prog, ATTR_NORMAL, "a_normal");
    glLinkProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetProgramInfoLog(prog, sizeof log, NULL, log);
        fprintf(stderr, "skyisles: shaders %s + %s failed to link:\n%s\n", vs_name, fs_name, log);
        sky_error_set(err, 1, "render: shaders %s + %s failed to link (info log above)", vs_name, fs_name);
        glDeleteProgram(prog);
        return 0;
    }
    return prog;
}

GLint gl_uniform(GLuint prog, const char *name) {
    GLint loc = glGetUniformLocation(prog, name);
    if (loc < 0) log_debug("render: uniform %s not active", name);
    return loc;
}
