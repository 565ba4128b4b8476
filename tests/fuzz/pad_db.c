/* Fuzz target pad_db: the controller-mapping text the game reads itself (the lines of
 * SDL_GAMECONTROLLERCONFIG, and the database's line for a pad by vendor and product). The input
 * is mapping text; its first four bytes pick the vendor and product looked for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fuzz.h"
#include "pad_db.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 4) return 0;
    uint16_t vendor = (uint16_t)(data[0] | data[1] << 8), product = (uint16_t)(data[2] | data[3] << 8);
    char *text = malloc(size - 4 + 1);
    if (!text) return 0;
    memcpy(text, data + 4, size - 4);
    text[size - 4] = 0;
    char line[PAD_DB_LINE_MAX], best[PAD_DB_LINE_MAX] = "", name[64];
    bool named = false;
    size_t lines = 0;
    for (const char *s = text; *s;) {
        const char *next = pad_db_next_line(s, line, sizeof line);
        FUZZ_CHECK(next > s && next <= text + (size - 4), "no progress");
        FUZZ_CHECK(strlen(line) < sizeof line && !strchr(line, '\n'), "a line with its end");
        pad_db_consider(line, vendor, product, "Fuzz Pad", best, &named);
        s = next;
        lines++;
    }
    if (best[0]) {
        /* What was picked is a Linux mapping for this vendor and product. */
        char v[5];
        snprintf(v, sizeof v, "%02x%02x", vendor & 0xff, vendor >> 8);
        FUZZ_CHECK(!strncmp(best + 8, v, 4) && strstr(best, "platform:Linux"), "picked another pad: %.60s", best);
        char out[PAD_DB_LINE_MAX + 40];
        FUZZ_CHECK(pad_db_remap(best, "0123456789abcdef0123456789abcdef", out, sizeof out), "remap refused");
        FUZZ_CHECK(!strncmp(out, "0123456789abcdef0123456789abcdef,", 33) && !strcmp(out + 32, best + 32), "remap");
        pad_db_line_name(best, name, sizeof name);
        FUZZ_CHECK(strlen(name) < sizeof name, "name");
    }
    (void)lines;
    free(text);
    return 0;
}
