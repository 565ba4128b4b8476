/* Tests for whole-file reads: contents, and one clear error line for each bad path. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"

static char g_dir[64];

static int setup(void **state) {
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/skyisles-file-test-XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/data.bin", g_dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/empty.bin", g_dir);
    unlink(path);
    rmdir(g_dir);
    return 0;
}

static void write_file(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

static void test_reads_whole_file(void **state) {
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/data.bin", g_dir);
    uint8_t data[3000];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 7);
    write_file(path, data, sizeof data);
    SkyError err = {0};
    size_t len = 1;
    uint8_t *buf = file_read_all(path, 1u << 20, &len, &err);
    assert_non_null(buf);
    assert_false(sky_error_is_set(&err));
    assert_int_equal(len, sizeof data);
    assert_memory_equal(buf, data, sizeof data);
    free(buf);
}

static void test_empty_file_is_not_an_error(void **state) {
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/empty.bin", g_dir);
    write_file(path, "", 0);
    SkyError err = {0};
    size_t len = 9;
    uint8_t *buf = file_read_all(path, 100, &len, &err);
    assert_non_null(buf);
    assert_int_equal(len, 0);
    free(buf);
}

static void expect_error(const char *path, size_t max, const char *needle) {
    SkyError err = {0};
    size_t len = 9;
    assert_null(file_read_all(path, max, &len, &err));
    assert_int_equal(len, 0);
    assert_true(sky_error_is_set(&err));
    assert_non_null(strstr(err.msg, path));
    assert_non_null(strstr(err.msg, needle));
    assert_null(strchr(err.msg, '\n'));
}

static void test_bad_paths_give_one_line(void **state) {
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/missing.bin", g_dir);
    expect_error(path, 100, "check the path");
    expect_error(g_dir, 100, "not a regular file");
    snprintf(path, sizeof path, "%s/data.bin", g_dir);
    expect_error(path, 100, "more than the 100 allowed");
}

/* Whatever an error quotes (a path, a name from a data file), it stays one printable line. */
static void test_error_quoting_control_characters_stays_one_line(void **state) {
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/two\nlines\r\x1b[2J.bin", g_dir);
    SkyError err = {0};
    size_t len;
    assert_null(file_read_all(path, 100, &len, &err));
    assert_non_null(strstr(err.msg, "/two?lines??[2J.bin: "));
    assert_non_null(strstr(err.msg, "check the path"));
    sky_error_set(&err, SKY_ERR_INPUT, "pack: axis '%s' appears twice", "a\nb\tc\x7f");
    assert_string_equal(err.msg, "pack: axis 'a?b?c?' appears twice");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_whole_file),
        cmocka_unit_test(test_empty_file_is_not_an_error),
        cmocka_unit_test(test_bad_paths_give_one_line),
        cmocka_unit_test(test_error_quoting_control_characters_stays_one_line),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
