/* Fuzz target replay: the replay loader (src/game/replay_file.c) on arbitrary bytes. Whatever it
 * reads, it refuses with one line or accepts a replay whose counts hold (its inputs play to
 * exactly its steps, each input in range), whose world parameters this build either sets or
 * names in one line, and which it writes back to the same bytes. */
#include <string.h>

#include "common/fuzz.h"
#include "game/replay.h"

static uint8_t g_store[REPLAY_FILE_MAX], g_again[REPLAY_FILE_MAX], g_file[REPLAY_FILE_MAX];

static void one(const uint8_t *data, size_t size);

/* Each input twice: as it is (almost every change fails the checksum), and with both checksums
 * made good, so the fuzzer reaches the checks behind them. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static uint8_t fixed[REPLAY_FILE_MAX];
    one(data, size);
    if (size < REPLAY_FIXED_BYTES + 8 || size > sizeof fixed) return 0;
    memcpy(fixed, data, size);
    uint32_t plen = fixed[538] | (uint32_t)fixed[539] << 8 | (uint32_t)fixed[540] << 16 | (uint32_t)fixed[541] << 24;
    if (plen <= size - REPLAY_FIXED_BYTES - 8) {
        uint64_t ph = hash_fnv1a64(fixed + REPLAY_FIXED_BYTES, plen, 0);
        for (int i = 0; i < 8; i++) fixed[32 + i] = (uint8_t)(ph >> (8 * i));
    }
    uint64_t h = hash_fnv1a64(fixed, size - 8, 0);
    for (int i = 0; i < 8; i++) fixed[size - 8 + (size_t)i] = (uint8_t)(h >> (8 * i));
    one(fixed, size);
    return 0;
}

static void one(const uint8_t *data, size_t size) {
    static Replay r, back;
    memset(&r, 0, sizeof r);
    r.runs = g_store;
    r.cap = sizeof g_store;
    SkyError err = {0};
    if (!replay_parse(&r, data, size, &err)) {
        fuzz_check_error(&err, "replay");
        return;
    }
    /* The inputs cover exactly the steps. */
    replay_rewind(&r);
    FlightInput fi;
    uint32_t steps = 0;
    while (replay_next(&r, &fi)) {
        FUZZ_CHECK(fi.pitch >= -1.0f && fi.pitch <= 1.0f && fi.roll >= -1.0f && fi.roll <= 1.0f, "input out of range");
        steps++;
    }
    FUZZ_CHECK(steps == r.h.steps, "%u inputs for %u steps", steps, r.h.steps);
    /* Its world: set, or refused in one line. */
    WorldParams wp;
    world_params_default(&wp);
    SkyError perr = {0};
    if (!replay_apply_params(&r, &wp, "fuzz", &perr)) fuzz_check_error(&perr, "replay parameters");
    SkyError cerr = {0};
    if (!replay_check(&r, 0, &wp.gen, "fuzz", &cerr)) fuzz_check_error(&cerr, "replay check");
    /* Written back, it is the same file. */
    size_t head = replay_header_encode(&r, g_file, sizeof g_file);
    FUZZ_CHECK(head > 0, "header does not encode");
    size_t body = (size_t)r.h.runs * REPLAY_RUN_BYTES;
    memcpy(g_file + head, r.runs, body);
    uint64_t sum = replay_file_checksum(&r, g_file, head);
    for (int i = 0; i < 8; i++) g_file[head + body + (size_t)i] = (uint8_t)(sum >> (8 * i));
    size_t len = head + body + 8;
    FUZZ_CHECK(len == size, "written back %zu bytes, read %zu", len, size);
    memset(&back, 0, sizeof back);
    back.runs = g_again;
    back.cap = sizeof g_again;
    FUZZ_CHECK(replay_parse(&back, g_file, len, &err), "its own file refused: %s", err.msg);
    FUZZ_CHECK(back.h.steps == r.h.steps && back.h.end_hash == r.h.end_hash && back.h.seed == r.h.seed,
               "written back differently");
}
