/* Shader checks: every file of shaders_es2/ validates with glslangValidator as ESSL 1.00,
 * fragment shaders default to mediump (highp only behind GL_FRAGMENT_PRECISION_HIGH), and the
 * copies embedded at build time match the files. */
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
        if (len > 5 && (!strcmp(e->d_name + len - 5, ".vert") || !strcmp(e->d_name + len - 5, ".frag")))
            snprintf(g_names[g_count++], sizeof g_names[0], "%s", e->d_name);
    }
    closedir(d);
    return 0;
}

static bool is_frag(const char *name) { return strstr(name, ".frag") != NULL; }

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
                                           "aircraft.vert", "aircraft.frag", "blit.vert", "blit.frag"};
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        bool found = false;
        for (int k = 0; k < g_count; k++) found |= strcmp(g_names[k], expected[i]) == 0;
        if (!found) fail_msg("%s/%s is missing", g_dir, expected[i]);
    }
}

static void test_shaders_validate_as_essl100(void **state) {
    (void)state;
    assert_true(g_count >= 8);
    for (int i = 0; i < g_count; i++) {
        const char *text = read_text(g_names[i]);
        if (strncmp(text, "#version 100\n", 13) != 0) fail_msg("%s does not start with #version 100", g_names[i]);
        char path[2 * PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", g_dir, g_names[i]);
        if (validate(path) != 0) fail_msg("%s fails glslangValidator as ESSL 1.00", g_names[i]);
        printf("%s: valid ESSL 1.00\n", g_names[i]);
    }
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

static void test_fragment_shaders_default_to_mediump(void **state) {
    (void)state;
    int frags = 0;
    for (int i = 0; i < g_count; i++) {
        if (!is_frag(g_names[i])) continue;
        frags++;
        const char *text = read_text(g_names[i]);
        const char *decl = strstr(text, "\nprecision mediump float;\n");
        if (!decl) fail_msg("%s does not declare 'precision mediump float;'", g_names[i]);
        /* declared before any function or uniform */
        const char *first_use = strstr(text, "uniform");
        const char *main_fn = strstr(text, "void main");
        assert_true(main_fn && decl < main_fn);
        if (first_use) assert_true(decl < first_use);
        const char *bad = highp_outside_guard(text);
        if (bad) fail_msg("%s: highp outside a GL_FRAGMENT_PRECISION_HIGH guard: %s", g_names[i], bad);
    }
    assert_true(frags >= 4);
    /* the guard scan itself catches an unguarded highp */
    assert_non_null(highp_outside_guard("#version 100\nprecision highp float;\n"));
    assert_non_null(highp_outside_guard("#ifdef GL_FRAGMENT_PRECISION_HIGH\n#else\nhighp float x;\n#endif\n"));
    assert_null(highp_outside_guard("#ifdef GL_FRAGMENT_PRECISION_HIGH\nvarying highp vec2 v;\n#endif\n"));
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
        cmocka_unit_test(test_validator_rejects_non_essl100),
        cmocka_unit_test(test_fragment_shaders_default_to_mediump),
        cmocka_unit_test(test_embedded_copies_match_files),
        cmocka_unit_test(test_aircraft_is_packed),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
