/* Shader checks: the text each program's stages hand to the GPU (file + stage define + defines
 * + the shared prelude, assembled by the renderer's own function) validates with
 * glslangValidator as ESSL 1.00; fragment shaders default to mediump (highp only behind
 * GL_FRAGMENT_PRECISION_HIGH); the PSX look lives in the prelude only; and the copies embedded
 * at build time match the files. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/render_internal.h"

#define MAX_SHADERS 32

static char g_dir[PATH_MAX + 32];
static char g_names[MAX_SHADERS][64];
static int g_count;

static bool is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int setup(void **state) {
    (void)state;
    snprintf(g_dir, sizeof g_dir, "shaders_es2");
    if (!is_dir(g_dir)) {
        char exe[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0) return -1;
        exe[n] = 0;
        *strrchr(exe, '/') = 0;
        snprintf(g_dir, sizeof g_dir, "%s/../../shaders_es2", exe);
    }
    DIR *d = opendir(g_dir);
    if (!d) return -1;
    for (struct dirent *e; (e = readdir(d)) && g_count < MAX_SHADERS;) {
        size_t len = strlen(e->d_name);
        if (len > 5 && (!strcmp(e->d_name + len - 5, ".vert") || !strcmp(e->d_name + len - 5, ".frag") ||
                        !strcmp(e->d_name + len - 5, ".glsl")))
            snprintf(g_names[g_count++], sizeof g_names[0], "%s", e->d_name);
    }
    closedir(d);
    return 0;
}

static bool is_frag(const char *name) { return strstr(name, ".frag") != NULL; }
static bool is_stage_file(const char *name) { return strstr(name, ".frag") || strstr(name, ".vert"); }

/* Scratch for the assembled shader text, as the renderer's arena would hold it. */
static uint8_t g_scratch_mem[256 << 10];

/* The exact text of one stage of a program, as gl_program hands it to the GPU. */
static const char *program_text(int prog, bool fragment, MemArena *scratch) {
    SkyError err = {0};
    const char *text = gl_shader_text((RenderProgramId)prog, fragment, scratch, &err);
    if (!text) fail_msg("%s: %s", render_programs[prog].name, err.msg);
    return text;
}

/* Writes text to a temporary file with the stage's extension (glslang picks the stage by it). */
static void temp_shader(const char *text, bool fragment, char *path, size_t cap) {
    snprintf(path, cap, "/tmp/skyisles-shader-XXXXXX%s", fragment ? ".frag" : ".vert");
    int fd = mkstemps(path, 5);
    assert_true(fd >= 0);
    assert_true(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
}

static char g_validator_out[4096];

/* Runs glslangValidator on text; returns its exit status and keeps its output. */
static int validate_text(const char *text, bool fragment) {
    char path[64];
    temp_shader(text, fragment, path, sizeof path);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "glslangValidator '%s' 2>&1", path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(g_validator_out, 1, sizeof g_validator_out - 1, p);
    g_validator_out[n] = 0;
    int rc = pclose(p);
    unlink(path);
    return rc;
}

static char *read_text(const char *name) {
    char path[2 * PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

static int validate(const char *path) {
    char cmd[2 * PATH_MAX + 256];
    snprintf(cmd, sizeof cmd, "glslangValidator '%s' > /dev/null 2>&1", path);
    int rc = system(cmd);
    return rc;
}

static void test_validator_present(void **state) {
    (void)state;
    int rc = system("glslangValidator --version > /dev/null 2>&1");
    if (rc != 0) fail_msg("glslangValidator not found: install glslang-tools (make deps)");
}

static void test_all_shaders_found(void **state) {
    (void)state;
    static const char *const expected[] = {"sky.vert", "sky.frag", "terrain.vert", "terrain.frag",
                                           "aircraft.vert", "aircraft.frag", "blit.vert", "blit.frag",
                                           "hud.vert", "hud.frag", RENDER_PRELUDE_FILE};
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        bool found = false;
        for (int k = 0; k < g_count; k++) found |= strcmp(g_names[k], expected[i]) == 0;
        if (!found) fail_msg("%s/%s is missing", g_dir, expected[i]);
    }
}

static void test_shaders_validate_as_essl100(void **state) {
    (void)state;
    /* Every stage file is used by a program (so none escapes the check below). */
    assert_true(g_count >= 11);
    for (int i = 0; i < g_count; i++) {
        if (!is_stage_file(g_names[i])) continue;
        const char *text = read_text(g_names[i]);
        if (strncmp(text, "#version 100\n", 13) != 0) fail_msg("%s does not start with #version 100", g_names[i]);
        bool used = false;
        for (int k = 0; k < PROG_COUNT; k++)
            used |= !strcmp(render_programs[k].vs, g_names[i]) || !strcmp(render_programs[k].fs, g_names[i]);
        if (!used) fail_msg("%s is not part of any program in render_programs", g_names[i]);
    }
    /* What the GPU receives, per program and stage. */
    MemArena scratch;
    mem_arena_init_buffer(&scratch, g_scratch_mem, sizeof g_scratch_mem);
    for (int k = 0; k < PROG_COUNT; k++)
        for (int fragment = 0; fragment < 2; fragment++) {
            mem_arena_reset(&scratch);
            const char *text = program_text(k, fragment, &scratch);
            if (validate_text(text, fragment) != 0)
                fail_msg("program %s, %s: the assembled text fails glslangValidator as ESSL 1.00:\n%s",
                         render_programs[k].name, fragment ? render_programs[k].fs : render_programs[k].vs,
                         g_validator_out);
            printf("%s (%s + %s): valid ESSL 1.00\n", render_programs[k].name,
                   fragment ? render_programs[k].fs : render_programs[k].vs, RENDER_PRELUDE_FILE);
        }
}

static void test_assembly_keeps_file_line_numbers(void **state) {
    (void)state;
    /* The prelude goes in after #version and the file keeps its own line numbers, so a compiler
     * message names the right line: here line 3 of the file, not 3 + the prelude's length. */
    const char *src = "#version 100\nattribute vec4 a_pos;\nvoid main() { gl_Position = a_pos * undefined_thing; }\n";
    const char *prelude = "// a prelude\nfloat twice(float x) {\n    return 2.0 * x;\n}\n";
    static char out[1024];
    size_t n = gl_shader_assemble(false, src, "#define ANSWER 42\n", prelude, out, sizeof out);
    assert_true(n > 0 && n == strlen(out));
    assert_int_equal(strncmp(out, "#version 100\n#define STAGE_VERTEX 1\n#define ANSWER 42\n", 51), 0);
    assert_non_null(strstr(out, prelude));
    assert_int_not_equal(validate_text(out, false), 0);
    printf("%s", g_validator_out);
    assert_non_null(strstr(g_validator_out, "0:3: 'undefined_thing'"));
    /* A fragment stage gets STAGE_FRAGMENT; text that does not fit is refused, not cut. */
    n = gl_shader_assemble(true, src, "", prelude, out, sizeof out);
    assert_non_null(strstr(out, "#define STAGE_FRAGMENT 1\n"));
    assert_int_equal(gl_shader_assemble(true, src, "", prelude, out, 40), 0);
}

static void test_validator_rejects_non_essl100(void **state) {
    (void)state;
    /* The check above can fail: ESSL 1.00 has no bit shifts, and glslang says so. */
    char path[] = "/tmp/skyisles-bad-XXXXXX.frag";
    int fd = mkstemps(path, 5);
    assert_true(fd >= 0);
    const char *bad = "#version 100\nprecision mediump float;\nvoid main() { int x = 1 << 2; gl_FragColor = vec4(float(x)); }\n";
    assert_true(write(fd, bad, strlen(bad)) == (ssize_t)strlen(bad));
    close(fd);
    assert_int_not_equal(validate(path), 0);
    unlink(path);
}

/* highp may appear only inside a conditional on GL_FRAGMENT_PRECISION_HIGH (and not in its #else). */
static const char *highp_outside_guard(const char *text) {
    int depth = 0, guard_depth = -1;
    bool guard_on = false;
    static char line[512];
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1), p);
        p += len + (nl ? 1 : 0);
        const char *s = line + strspn(line, " \t");
        if (!strncmp(s, "//", 2)) continue;
        if (!strncmp(s, "#if", 3)) {
            depth++;
            if (strstr(s, "GL_FRAGMENT_PRECISION_HIGH") && !strstr(s, "!defined(GL_FRAGMENT_PRECISION_HIGH)")) {
                guard_depth = depth;
                guard_on = true;
            }
        } else if (!strncmp(s, "#else", 5) || !strncmp(s, "#elif", 5)) {
            if (depth == guard_depth) guard_on = false;
        } else if (!strncmp(s, "#endif", 6)) {
            if (depth == guard_depth) { guard_depth = -1; guard_on = false; }
            depth--;
        } else if (strstr(s, "highp") && !guard_on) {
            return line;
        }
    }
    return NULL;
}

/* precision mediump float comes before the first uniform and function; highp is guarded. */
static void check_fragment_precision(const char *what, const char *text) {
    const char *decl = strstr(text, "\nprecision mediump float;\n");
    if (!decl) fail_msg("%s does not declare 'precision mediump float;'", what);
    const char *first_use = strstr(text, "\nuniform ");
    const char *main_fn = strstr(text, "void main");
    if (main_fn) assert_true(decl < main_fn);
    if (first_use) assert_true(decl < first_use);
    const char *bad = highp_outside_guard(text);
    if (bad) fail_msg("%s: highp outside a GL_FRAGMENT_PRECISION_HIGH guard: %s", what, bad);
}

static void test_fragment_shaders_default_to_mediump(void **state) {
    (void)state;
    int frags = 0;
    for (int i = 0; i < g_count; i++) {
        if (!is_frag(g_names[i])) continue;
        frags++;
        check_fragment_precision(g_names[i], read_text(g_names[i]));
    }
    assert_true(frags >= 4);
    /* The text the GPU compiles: the prelude comes first, so it must set the precision itself. */
    MemArena scratch;
    mem_arena_init_buffer(&scratch, g_scratch_mem, sizeof g_scratch_mem);
    for (int k = 0; k < PROG_COUNT; k++) {
        mem_arena_reset(&scratch);
        check_fragment_precision(render_programs[k].name, program_text(k, true, &scratch));
        mem_arena_reset(&scratch);
        const char *bad = highp_outside_guard(program_text(k, false, &scratch));
        if (bad)
            fail_msg("%s vertex stage: highp outside a GL_FRAGMENT_PRECISION_HIGH guard: %s", render_programs[k].name,
                     bad);
    }
    /* the guard scan itself catches an unguarded highp */
    assert_non_null(highp_outside_guard("#version 100\nprecision highp float;\n"));
    assert_non_null(highp_outside_guard("#ifdef GL_FRAGMENT_PRECISION_HIGH\n#else\nhighp float x;\n#endif\n"));
    assert_null(highp_outside_guard("#ifdef GL_FRAGMENT_PRECISION_HIGH\nvarying highp vec2 v;\n#endif\n"));
}

static void test_psx_look_lives_in_the_prelude(void **state) {
    (void)state;
    /* The PSX functions and their uniforms are written once, in the prelude: a shader file that
     * declares or defines one again has copied it. */
    static const char *const once[] = {"float bayer4(", "vec3 psx_color(", "vec4 psx_snap(", "float psx_fog(",
                                       "vec3 psx_fog_mix(", "u_snap;", "u_fog_density;", "u_fog_color;",
                                       "u_levels;", "u_dither;", "clip.w > 0.001"};
    for (size_t k = 0; k < sizeof once / sizeof once[0]; k++) {
        int found = 0;
        for (int i = 0; i < g_count; i++) {
            bool here = strstr(read_text(g_names[i]), once[k]) != NULL;
            if (here && strcmp(g_names[i], RENDER_PRELUDE_FILE) != 0)
                fail_msg("%s repeats '%s' from %s", g_names[i], once[k], RENDER_PRELUDE_FILE);
            found += here;
        }
        if (found != 1) fail_msg("'%s' is missing from %s", once[k], RENDER_PRELUDE_FILE);
    }
}

static void test_embedded_copies_match_files(void **state) {
    (void)state;
    assert_int_equal((int)render_embedded_shader_count, g_count);
    for (unsigned i = 0; i < render_embedded_shader_count; i++) {
        const char *text = read_text(render_embedded_shaders[i].name);
        if (strcmp(text, render_embedded_shaders[i].text) != 0)
            fail_msg("embedded %s differs from the file: rebuild (make)", render_embedded_shaders[i].name);
    }
}

static void test_aircraft_is_packed(void **state) {
    (void)state;
    /* A low-poly model: closed pieces, unit normals, a spinning part. */
    assert_true(render_aircraft_vert_count >= 3 * 60 && render_aircraft_vert_count <= 3 * 600);
    assert_int_equal(render_aircraft_vert_count % 3, 0);
    unsigned prop = 0;
    for (unsigned i = 0; i < render_aircraft_vert_count; i++) {
        const ModelVertex *v = &render_aircraft_verts[i];
        int n2 = v->nx * v->nx + v->ny * v->ny + v->nz * v->nz;
        assert_in_range(n2, 120 * 120, 128 * 128);
        prop += v->part == 1;
    }
    assert_true(prop > 0 && prop < render_aircraft_vert_count);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validator_present),
        cmocka_unit_test(test_all_shaders_found),
        cmocka_unit_test(test_shaders_validate_as_essl100),
        cmocka_unit_test(test_assembly_keeps_file_line_numbers),
        cmocka_unit_test(test_validator_rejects_non_essl100),
        cmocka_unit_test(test_fragment_shaders_default_to_mediump),
        cmocka_unit_test(test_psx_look_lives_in_the_prelude),
        cmocka_unit_test(test_embedded_copies_match_files),
        cmocka_unit_test(test_aircraft_is_packed),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
