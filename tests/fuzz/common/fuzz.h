/* skyisles fuzzing: what every fuzz target shares. A target is tests/fuzz/NAME.c defining
 * LLVMFuzzerTestOneInput; it is built with clang + libFuzzer by `make fuzz` and with gcc + the
 * replay main (replay.c) for `make test`, so it uses nothing but C11, libc and the project. */
#ifndef SKYISLES_FUZZ_H
#define SKYISLES_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "island/island.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A property the input broke: say which and abort, so libFuzzer keeps the input as a crash and
 * the replay counts the file as failed. */
#define FUZZ_CHECK(cond, ...)                                          \
    do {                                                               \
        if (!(cond)) fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); \
    } while (0)
_Noreturn void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A refusal must be what the product promises: an error code and one non-empty line. */
void fuzz_check_error(const SkyError *err, const char *what);

/* Two codices that mean the same (strings compared by content): the writer and loader agree. */
void fuzz_check_same_codex(const IslandCodex *a, const IslandCodex *b);

/* What the game and the tools do with a codex they accept: every scope generated with a few
 * seeds and site counts inside one fixed arena of island_work_bytes(), every site named, the
 * field baked; each result checked for the invariants the game relies on. Aborts on a breach. */
void fuzz_island_exercise(const IslandCodex *cx);

#endif
