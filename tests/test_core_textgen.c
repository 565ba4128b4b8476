/* Tests for the build-time text generator (tools/text/textgen.c, built into BUILD/host/textgen
 * beside this test's folder): the shipped Japanese table builds; a table that misses a row, names
 * an unknown one, changes a row's printf conversions, or uses a character the font lacks fails
 * with one line naming the file, the line and the row (or the character). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"

#define FONT "/usr/share/fonts/truetype/misaki/misaki_gothic.ttf"

static char g_tool[1024], g_tmp[64], g_err[8192];

static int setup(void **state) {
    (void)state;
    struct stat st;
    if (stat(g_tool, &st) != 0) {
        fprintf(stderr, "test_core_textgen: no %s: build it first (make)\n", g_tool);
        return -1;
    }
    snprintf(g_tmp, sizeof g_tmp, "/tmp/skyisles_textgen_XXXXXX");
    return mkdtemp(g_tmp) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmp);
    return system(cmd) == 0 ? 0 : -1;
}

/* The shipped table with sed's edit applied, through the tool: its exit status, stderr in g_err. */
static int run_edited(const char *sed_expr, const char *append) {
    char cmd[2048], yaml[128], err[128], out[128];
    snprintf(yaml, sizeof yaml, "%s/ja.yaml", g_tmp);
    snprintf(err, sizeof err, "%s/err", g_tmp);
    snprintf(out, sizeof out, "%s/out.c", g_tmp);
    snprintf(cmd, sizeof cmd, "sed -e '%s' assets/text/ja.yaml > '%s' && printf '%%s' '%s' >> '%s'", sed_expr, yaml,
             append, yaml);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' '%s' assets/codex/locale_ja.yaml 2>'%s'", g_tool, out, FONT, yaml, err);
    int st = system(cmd);
    FILE *f = fopen(err, "r");
    assert_non_null(f);
    g_err[fread(g_err, 1, sizeof g_err - 1, f)] = 0;
    fclose(f);
    printf("  -> %s", g_err[0] ? g_err : "(ok)\n");
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_shipped_table_builds(void **state) {
    (void)state;
    assert_int_equal(run_edited("", ""), 0);
    assert_string_equal(g_err, "");
}

static void test_missing_unknown_and_changed_rows_fail(void **state) {
    (void)state;
    assert_int_not_equal(run_edited("/^HUD_BOOST:/d", ""), 0);
    assert_non_null(strstr(g_err, "ja.yaml:"));
    assert_non_null(strstr(g_err, "HUD_BOOST: missing"));
    assert_int_not_equal(run_edited("", "NO_SUCH_ROW: \"x\"\n"), 0);
    assert_non_null(strstr(g_err, "NO_SUCH_ROW: not a row of src/core/text_rows.h"));
    assert_int_not_equal(run_edited("s/^HUD_SPEED: .*/HUD_SPEED: \"速度 %d\"/", ""), 0);
    assert_non_null(strstr(g_err, "HUD_SPEED: printf conversions \"d\" where the English has \"f\""));
    char line[32];   /* the line the changed row is on, as the error gives it */
    FILE *f = popen("grep -n '^HUD_SPEED:' assets/text/ja.yaml | cut -d: -f1", "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    pclose(f);
    line[strcspn(line, "\n")] = 0;
    char where[64];
    snprintf(where, sizeof where, "ja.yaml:%s: HUD_SPEED", line);
    assert_non_null(strstr(g_err, where));
}

static void test_character_outside_the_font_fails(void **state) {
    (void)state;
    assert_int_not_equal(run_edited("s/^HUD_BOOST: .*/HUD_BOOST: \"加速\xf0\x9f\x98\x80\"/", ""), 0);
    assert_non_null(strstr(g_err, "HUD_BOOST: character U+1F600 is not in the font"));
}

int main(int argc, char **argv) {
    (void)argc;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", argv[0]);
    snprintf(g_tool, sizeof g_tool, "%s/../host/textgen", dirname(dir));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_table_builds),
        cmocka_unit_test(test_missing_unknown_and_changed_rows_fail),
        cmocka_unit_test(test_character_outside_the_font_fails),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
