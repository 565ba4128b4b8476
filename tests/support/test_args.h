/* skyisles tests: a game command line built from its words and counted, so a case never counts
 * argv by hand (header only, like emulated.h).
 *   TestArgs a = test_args("--headless", "--mem", "96");   then game_parse_args(a.argc, a.argv, ...)
 * argv[0] is "skyisles". The words end at the first NULL, so a case's optional last words are
 * written as `extra` or `cond ? "--flag" : NULL`. */
#ifndef SKYISLES_TESTS_SUPPORT_TEST_ARGS_H
#define SKYISLES_TESTS_SUPPORT_TEST_ARGS_H

#include <stdio.h>
#include <stdlib.h>

#define TEST_ARGS_MAX 31

typedef struct TestArgs {
    int argc;
    char *argv[TEST_ARGS_MAX + 1];   /* argv[argc] is NULL, as main's */
} TestArgs;

/* Appends one word; a command line longer than TEST_ARGS_MAX is the test's own bug. */
static inline void test_args_add(TestArgs *a, const char *word) {
    if (a->argc >= TEST_ARGS_MAX) {
        fprintf(stderr, "test_args: more than %d words\n", TEST_ARGS_MAX);
        abort();
    }
    a->argv[a->argc++] = (char *)word;
    a->argv[a->argc] = NULL;
}

/* "skyisles" and the n words (n < 0: up to the first NULL). */
static inline TestArgs test_args_n(const char *const *words, int n) {
    TestArgs a = {0};
    test_args_add(&a, "skyisles");
    for (int i = 0; n < 0 ? words[i] != NULL : i < n; i++) test_args_add(&a, words[i]);
    return a;
}

#define test_args(...) test_args_n((const char *const[]){__VA_ARGS__, NULL}, -1)

#endif
