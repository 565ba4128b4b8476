/* Fuzz target logbook: the pilot's logbook reader on arbitrary text, each input twice: as it is,
 * and with its end line's check made good (the FNV-1a of everything before it), so the line
 * checks behind the check are reached. Whatever it reads, the logbook's records are in range, a
 * refusal says where in one line, and a logbook it accepts writes out and reads back the same. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fuzz.h"
#include "game/logbook.h"

#define SEED 20261129ull
#define SITES 22u

static void check(const char *text, size_t len) {
    static Logbook lb, again;
    static char out[LOGBOOK_MAX_BYTES], out2[LOGBOOK_MAX_BYTES];
    char why[160];
    int r = logbook_parse(&lb, text, len, SEED, SITES, why, sizeof why);
    FUZZ_CHECK(r >= -1 && r <= 1, "result %d", r);
    FUZZ_CHECK(!strchr(why, '\n'), "a reason of more than one line: %s", why);
    FUZZ_CHECK(r != 0 || why[0], "a refusal without a reason");
    FUZZ_CHECK(lb.n_routes <= LOGBOOK_MAX_ROUTES && lb.n_sites == SITES && lb.seed == SEED, "%u routes", lb.n_routes);
    for (uint32_t i = 0; i < lb.n_routes; i++)
        FUZZ_CHECK(lb.routes[i].from < SITES && lb.routes[i].to < SITES && lb.routes[i].count > 0, "route %u", i);
    if (r != 1) {
        FUZZ_CHECK(lb.flights == 0 && lb.n_routes == 0 && lb.distance_m == 0.0, "a refused logbook kept records");
        return;
    }
    size_t n = logbook_format(&lb, out, sizeof out);
    FUZZ_CHECK(n < sizeof out, "%zu bytes", n);
    FUZZ_CHECK(logbook_parse(&again, out, n, SEED, SITES, why, sizeof why) == 1, "what it writes does not read: %s", why);
    size_t n2 = logbook_format(&again, out2, sizeof out2);
    FUZZ_CHECK(n2 == n && !memcmp(out, out2, n), "the logbook changed on the way back");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > LOGBOOK_MAX_BYTES) return 0;   /* the game refuses a larger file before reading it */
    check((const char *)data, size);
    /* Resealed: the last "end " line's check made good for the text before it. */
    const char *t = (const char *)data, *end = NULL;
    for (size_t i = 0; i + 4 <= size; i++)
        if ((i == 0 || t[i - 1] == '\n') && !memcmp(t + i, "end ", 4)) end = t + i;
    if (!end) return 0;
    size_t head = (size_t)(end - t);
    char *copy = malloc(head + 32);
    if (!copy) return 0;
    memcpy(copy, t, head);
    int k = snprintf(copy + head, 32, "end %016" PRIx64 "\n", hash_fnv1a64(t, head, 0));
    check(copy, head + (size_t)k);
    free(copy);
    return 0;
}
