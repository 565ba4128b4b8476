/* skyisles core: PCG32 streams seeded through splitmix64, FNV-1a for golden hashes.
 * Integer-only so every platform draws the same numbers. */
#include "core/core.h"

uint64_t splitmix64_next(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void rng_seed_pcg(Rng *r, uint64_t init_state, uint64_t init_seq) {
    r->state = 0;
    r->inc = (init_seq << 1u) | 1u;
    (void)rng_u32(r);
    r->state += init_state;
    (void)rng_u32(r);
}

void rng_seed(Rng *r, uint64_t seed, uint64_t stream) {
    /* splitmix64 decorrelates nearby seeds; the stream id picks an independent PCG sequence. */
    uint64_t sm = seed ^ (stream * 0xd1342543de82ef95ull);
    uint64_t init_state = splitmix64_next(&sm);
    uint64_t init_seq = splitmix64_next(&sm) ^ stream;
    rng_seed_pcg(r, init_state, init_seq);
}

uint32_t rng_u32(Rng *r) {
    uint64_t old = r->state;
    r->state = old * 6364136223846793005ull + r->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

uint32_t rng_below(Rng *r, uint32_t bound) {
    if (bound == 0) return 0;
    uint32_t threshold = (uint32_t)(-bound) % bound;
    for (;;) {
        uint32_t v = rng_u32(r);
        if (v >= threshold) return v % bound;
    }
}

int32_t rng_range(Rng *r, int32_t lo, int32_t hi) {
    if (hi <= lo) return lo;
    uint32_t span = (uint32_t)((int64_t)hi - (int64_t)lo + 1);
    if (span == 0) return (int32_t)rng_u32(r);   /* full 32-bit range */
    return (int32_t)((int64_t)lo + rng_below(r, span));
}

float rng_float01(Rng *r) { return (float)(rng_u32(r) >> 8) * (1.0f / 16777216.0f); }

double rng_double01(Rng *r) {
    uint64_t hi = rng_u32(r) >> 5, lo = rng_u32(r) >> 6;
    return (double)((hi << 26) | lo) * (1.0 / 9007199254740992.0);
}

uint64_t hash_fnv1a64(const void *data, size_t n, uint64_t h) {
    const uint8_t *p = data;
    if (h == 0) h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}
