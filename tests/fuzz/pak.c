/* Fuzz target pak: the codex pack loader on arbitrary bytes, and for every pack it accepts the
 * whole boot-time pipeline (every scope, several seeds, names, the baked field) in a fixed arena.
 * A pack the loader accepts must generate safely; one it refuses must get one clear line. */
#include <stdlib.h>
#include <string.h>

#include "common/fuzz.h"
#include "island/pak_format.h"

static void load_and_generate(const uint8_t *data, size_t size) {
    static IslandCodex cx, back;
    static const IslandCodex zero;
    SkyError err = {0};
    if (!island_pak_load(&cx, data, size, &err)) {
        fuzz_check_error(&err, "island_pak_load");
        FUZZ_CHECK(!memcmp(&cx, &zero, sizeof cx), "a refused pack left a half-decoded codex (%s)", err.msg);
        return;
    }
    /* The writer must reproduce what the loader accepted, so a pack can always be rebuilt. */
    size_t len = island_pak_write(&cx, NULL, 0, &err);
    FUZZ_CHECK(len > 0, "the writer refuses an accepted codex: %s", err.msg);
    uint8_t *out = malloc(len);
    FUZZ_CHECK(out && island_pak_write(&cx, out, len, &err) == len, "the writer failed: %s", err.msg);
    FUZZ_CHECK(island_pak_load(&back, out, len, &err), "the rewritten pack does not load: %s", err.msg);
    fuzz_check_same_codex(&cx, &back);
    free(out);
    fuzz_island_exercise(&cx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    load_and_generate(data, size);
    /* Mutations rarely keep the size field and the 64-bit checksum right, and those checks come
     * first: the same bytes resealed (size and checksum made to match) reach the decoder. */
    if (size < ISLAND_PAK_HEADER_SIZE || size > ISLAND_PAK_MAX_BYTES) return 0;
    uint8_t *copy = malloc(size);
    if (!copy) return 0;
    memcpy(copy, data, size);
    pak_wr32(copy + PAK_OFF_FILE_SIZE, (uint32_t)size);
    pak_wr64(copy + PAK_OFF_CHECKSUM, island_pak_checksum(copy, size));
    load_and_generate(copy, size);
    free(copy);
    return 0;
}
