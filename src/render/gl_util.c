/* skyisles GL helpers: error draining and the shader programs: their table, their text from
 * shaders_es2/ (on disk next to the executable, or the copy embedded at build time) with the
 * shared prelude inserted, and linking with info logs printed on failure. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render_internal.h"

#define SHADER_MAX_BYTES 16384

#define STR_(x) #x
#define STR(x) STR_(x)
/* The dome's lattice layout and octave count come from render.h, so C and GLSL agree. */
#define SKY_DEFINES                                                                               \
    "#define SKY_PERIOD " STR(RENDER_SKY_PERIOD) ".0\n#define SKY_ATLAS_COLS " STR(RENDER_SKY_ATLAS_COLS) \
    ".0\n#define SKY_OCTAVES " STR(RENDER_SKY_OCTAVES) "\n"

const RenderProgramDesc render_programs[PROG_COUNT] = {
    [PROG_BLIT] = {"blit", "blit.vert", "blit.frag", ""},
    [PROG_SKY] = {"sky", "sky.vert", "sky.frag", SKY_DEFINES},
    [PROG_SKY_MEDIUMP] = {"sky-mediump", "sky.vert", "sky.frag", SKY_DEFINES "#define SKY_FORCE_MEDIUMP 1\n"},
    [PROG_TERRAIN] = {"terrain", "terrain.vert", "terrain.frag", ""},
    [PROG_AIRCRAFT] = {"aircraft", "aircraft.vert", "aircraft.frag", ""},
    [PROG_HUD] = {"hud", "hud.vert", "hud.frag", ""},
    [PROG_GLOW] = {"glow", "glow.vert", "glow.frag", ""},
    [PROG_RAIN] = {"rain", "rain.vert", "rain.frag", ""},
};

/* Attribute names of the fixed locations. */
static const struct {
    GLuint loc;
    const char *name;
} ATTRIBS[] = {{ATTR_POS, "a_pos"}, {ATTR_COLOR, "a_color"}, {ATTR_NORMAL, "a_normal"}, {ATTR_UV, "a_uv"}};

int gl_errors(const char *where) {
    int n = 0;
    for (GLenum e; (e = glGetError()) != GL_NO_ERROR && n < 16; n++)
        log_error("render: GL error 0x%04x after %s", (unsigned)e, where);
    return n;
}

GLuint gl_texture_nearest(void) {
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return tex;
}

GLuint gl_quad_indices(MemArena *scratch, uint32_t *bytes, SkyError *err) {
    size_t mark = scratch_mark(scratch);
    size_t idx_bytes = sizeof(uint16_t) * RENDER_QUAD_INDEX_QUADS * 6;
    uint16_t *idx = mem_arena_alloc(scratch, idx_bytes, 16);
    if (!idx) {
        sky_error_set(err, SKY_ERR_START, "render: no scratch memory left for the quad index buffer");
        return 0;
    }
    for (uint32_t q = 0; q < RENDER_QUAD_INDEX_QUADS; q++) {
        uint16_t b = (uint16_t)(q * 4);
        uint16_t *o = &idx[q * 6];
        o[0] = b; o[1] = (uint16_t)(b + 1); o[2] = (uint16_t)(b + 2);
        o[3] = b; o[4] = (uint16_t)(b + 2); o[5] = (uint16_t)(b + 3);
    }
    GLuint ibo;
    glGenBuffers(1, &ibo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)idx_bytes, idx, GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    scratch_release(scratch, mark);
    *bytes = (uint32_t)idx_bytes;
    return ibo;
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
                sky_error_set(err, SKY_ERR_START, "render: no scratch memory left to read shader %s", path);
                return NULL;
            }
            size_t got = fread(buf, 1, SHADER_MAX_BYTES - 1, f);
            bool too_big = !feof(f) && fgetc(f) != EOF;
            fclose(f);
            if (too_big) {
                sky_error_set(err, SKY_ERR_START, "render: shader %s is larger than %u bytes", path, (unsigned)SHADER_MAX_BYTES);
                return NULL;
            }
            buf[got] = 0;
            return buf;
        }
        if (strict) {
            sky_error_set(err, SKY_ERR_START,
                          "render: shader file %s is missing: restore it, or unset "
                          "SKYISLES_SHADER_DIR to use the built-in shaders", path);
            return NULL;
        }
        log_warn("render: %s not found, using the built-in copy", path);
    }
    const char *text = embedded(name);
    if (!text) sky_error_set(err, SKY_ERR_START, "render: shader %s is neither in shaders_es2/ nor built in", name);
    return text;
}

size_t gl_shader_assemble(bool fragment, const char *src, const char *defines, const char *prelude, char *out,
                          size_t cap) {
    /* #version must stay the first line; everything else goes after it. */
    size_t version_len = 0;
    if (strncmp(src, "#version", 8) == 0) {
        const char *nl = strchr(src, '\n');
        version_len = nl ? (size_t)(nl - src + 1) : strlen(src);
    }
    size_t prelude_len = strlen(prelude);
    bool version_nl = version_len == 0 || src[version_len - 1] == '\n';
    bool prelude_nl = prelude_len == 0 || prelude[prelude_len - 1] == '\n';
    /* The prelude is source string 1 and the file string 0, each with its own line numbers,
     * so a compiler message points at the right line of the right file. */
    int n = snprintf(out, cap, "%.*s%s#define %s 1\n%s#line 1 1\n%s%s#line %d 0\n%s", (int)version_len, src,
                     version_nl ? "" : "\n", fragment ? "STAGE_FRAGMENT" : "STAGE_VERTEX", defines ? defines : "",
                     prelude, prelude_nl ? "" : "\n", version_len ? 2 : 1, src + version_len);
    if (n < 0 || (size_t)n >= cap) return 0;
    return (size_t)n;
}

const char *gl_shader_text(RenderProgramId id, bool fragment, MemArena *scratch, SkyError *err) {
    const RenderProgramDesc *d = &render_programs[id];
    const char *name = fragment ? d->fs : d->vs;
    const char *src = shader_source(name, scratch, err);
    if (!src) return NULL;
    const char *prelude = shader_source(RENDER_PRELUDE_FILE, scratch, err);
    if (!prelude) return NULL;
    size_t cap = strlen(src) + strlen(d->defines) + strlen(prelude) + 128;
    char *out = mem_arena_alloc(scratch, cap, 1);
    if (!out || !gl_shader_assemble(fragment, src, d->defines, prelude, out, cap)) {
        sky_error_set(err, SKY_ERR_START, "render: no scratch memory left to assemble shader %s", name);
        return NULL;
    }
    return out;
}

/* Prints the GL info log that explains a failed compile or link: "skyisles: <subject>
 * <failure>:" and the log. */
static void print_info_log(GLuint obj, bool program, const char *subject, const char *failure) {
    char log[1024] = "";
    if (program) glGetProgramInfoLog(obj, sizeof log, NULL, log);
    else glGetShaderInfoLog(obj, sizeof log, NULL, log);
    fprintf(stderr, "skyisles: %s %s:\n%s\n", subject, failure, log);
}

static GLuint compile(RenderProgramId id, bool fragment, MemArena *scratch, SkyError *err) {
    const char *name = fragment ? render_programs[id].fs : render_programs[id].vs;
    size_t mark = scratch_mark(scratch);
    const char *text = gl_shader_text(id, fragment, scratch, err);
    if (!text) {
        scratch_release(scratch, mark);
        return 0;
    }
    GLuint sh = glCreateShader(fragment ? GL_FRAGMENT_SHADER : GL_VERTEX_SHADER);
    glShaderSource(sh, 1, &text, NULL);
    glCompileShader(sh);
    scratch_release(scratch, mark);
    GLint ok = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char subject[96];
        snprintf(subject, sizeof subject, "shader %s", name);
        print_info_log(sh, false, subject, "failed to compile");
        sky_error_set(err, SKY_ERR_START, "render: shader %s failed to compile (info log above)", name);
        glDeleteShader(sh);
        return 0;
    }
    return sh;
}

bool gl_program(GlProgram *p, RenderProgramId id, MemArena *scratch, SkyError *err) {
    const RenderProgramDesc *d = &render_programs[id];
    memset(p, 0, sizeof *p);
    GLuint vs = compile(id, false, scratch, err);
    if (!vs) return false;
    GLuint fs = compile(id, true, scratch, err);
    if (!fs) {
        glDeleteShader(vs);
        return false;
    }
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    for (size_t i = 0; i < sizeof ATTRIBS / sizeof ATTRIBS[0]; i++)
        glBindAttribLocation(prog, ATTRIBS[i].loc, ATTRIBS[i].name);
    glLinkProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char subject[160];
        snprintf(subject, sizeof subject, "shaders %s + %s", d->vs, d->fs);
        print_info_log(prog, true, subject, "failed to link");
        sky_error_set(err, SKY_ERR_START, "render: shaders %s + %s failed to link (info log above)", d->vs, d->fs);
        glDeleteProgram(prog);
        return false;
    }
    p->id = prog;
    psx_find_uniforms(prog, p->psx);
    return true;
}

void gl_program_free(GlProgram *p) {
    if (p->id) glDeleteProgram(p->id);
    memset(p, 0, sizeof *p);
}

GLint gl_uniform(const GlProgram *p, const char *name) {
    GLint loc = glGetUniformLocation(p->id, name);
    if (loc < 0) log_debug("render: uniform %s not active", name);
    return loc;
}
