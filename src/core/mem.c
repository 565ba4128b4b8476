/* skyisles core: the boot-time memory budget, bump arenas and fixed-size block pools.
 * The budget is the only large allocation; after boot nothing here calls malloc. */
#include "core/core.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

size_t mem_budget_mib_from_env(size_t explicit_mib) {
    if (explicit_mib > 0) return explicit_mib;
    const char *e = getenv("SKYISLES_MEM_MB");
    if (e && *e) {
        char *end = NULL;
        unsigned long v = strtoul(e, &end, 10);
        if (end && *end == 0 && v >= 16 && v <= 65536) return (size_t)v;
        log_warn("SKYISLES_MEM_MB='%s' is not a size in MiB between 16 and 65536; using %u",
                 e, MEM_DEFAULT_BUDGET_MIB);
    }
    return MEM_DEFAULT_BUDGET_MIB;
}

bool mem_budget_init(MemBudget *b, size_t bytes, SkyError *err) {
    memset(b, 0, sizeof *b);
    /* calloc of a large block maps zero pages lazily: only what is carved becomes resident. */
    b->base = calloc(1, bytes);
    if (!b->base) {
        sky_error_set(err, SKY_ERR_START, "cannot reserve the memory budget of %zu MiB: lower it with --mem MB or SKYISLES_MEM_MB",
                      bytes >> 20);
        return false;
    }
    b->size = bytes;
    return true;
}

void mem_budget_release(MemBudget *b) {
    free(b->base);
    memset(b, 0, sizeof *b);
}

static size_t align_up(size_t v, size_t a) { return (v + (a - 1)) & ~(a - 1); }

void mem_budget_rewind(MemBudget *b, size_t used) {
    if (used < b->used) b->used = used;
}

void *mem_carve(MemBudget *b, size_t bytes, size_t align) {
    if (align < 16) align = 16;
    uintptr_t base = (uintptr_t)b->base;
    size_t start = align_up(base + b->used, align) - base;
    if (!b->base || start > b->size || bytes > b->size - start) {
        b->carve_failures++;
        return NULL;
    }
    b->used = start + bytes;
    /* Touch every page of what was carved: the memory the game uses is resident from boot, so a
     * system short of it fails at boot rather than an hour later (Linux hands out calloc's pages
     * lazily), and resident memory stays flat after boot whatever the flight touches first. */
    volatile uint8_t *p = (volatile uint8_t *)b->base + start;
    for (size_t off = 0; off < bytes; off += 4096) p[off] = 0;
    if (bytes) p[bytes - 1] = 0;
    return b->base + start;
}

bool mem_arena_init(MemArena *a, MemBudget *b, size_t bytes) {
    void *p = mem_carve(b, bytes, 64);
    memset(a, 0, sizeof *a);
    if (!p) return false;
    a->base = p;
    a->size = bytes;
    return true;
}

void mem_arena_init_buffer(MemArena *a, void *buf, size_t bytes) {
    memset(a, 0, sizeof *a);
    a->base = buf;
    a->size = bytes;
}

void *mem_arena_alloc(MemArena *a, size_t bytes, size_t align) {
    if (align < 8) align = 8;
    uintptr_t base = (uintptr_t)a->base;
    size_t start = align_up(base + a->used, align) - base;
    if (start > a->size || bytes > a->size - start) {
        a->failures++;
        return NULL;
    }
    a->used = start + bytes;
    if (a->used > a->peak) a->peak = a->used;
    return a->base + start;
}

static void pool_lock(MemPool *p) {
    unsigned spins = 0;
    while (__atomic_exchange_n(&p->lock, 1, __ATOMIC_ACQUIRE)) {
        if (++spins > 64) { sched_yield(); spins = 0; }
    }
}
static void pool_unlock(MemPool *p) { __atomic_store_n(&p->lock, 0, __ATOMIC_RELEASE); }

bool mem_pool_init(MemPool *p, MemBudget *b, const char *name, size_t block_size, uint32_t count) {
    memset(p, 0, sizeof *p);
    p->name = name;
    p->block_size = align_up(block_size ? block_size : 1, 16);
    if (count == 0 || p->block_size > (SIZE_MAX / 2) / count) return false;
    p->blocks = mem_carve(b, p->block_size * count, 64);
    p->free_stack = mem_carve(b, sizeof(uint32_t) * count, 16);
    p->live = mem_carve(b, count, 16);
    if (!p->blocks || !p->free_stack || !p->live) {
        log_error("memory budget too small for pool '%s' (%u x %zu bytes): raise --mem / SKYISLES_MEM_MB",
                  name, count, p->block_size);
        return false;
    }
    p->capacity = count;
    /* Lowest index handed out first: keeps touched memory compact. */
    for (uint32_t i = 0; i < count; i++) p->free_stack[i] = count - 1 - i;
    p->free_top = count;
    p->stats.capacity = count;
    return true;
}

void *mem_pool_alloc(MemPool *p) {
    pool_lock(p);
    if (p->free_top == 0) {
        p->stats.failures++;
        pool_unlock(p);
        return NULL;
    }
    uint32_t idx = p->free_stack[--p->free_top];
    p->live[idx] = 1;
    p->stats.allocs++;
    p->stats.in_use++;
    if (p->stats.in_use > p->stats.peak) p->stats.peak = p->stats.in_use;
    pool_unlock(p);
    return p->blocks + (size_t)idx * p->block_size;
}

bool mem_pool_owns(const MemPool *p, const void *block) {
    uintptr_t b = (uintptr_t)block, s = (uintptr_t)p->blocks;
    if (!p->blocks || b < s || b >= s + (size_t)p->capacity * p->block_size) return false;
    return (b - s) % p->block_size == 0;
}

uint32_t mem_pool_index(const MemPool *p, const void *block) {
    return (uint32_t)(((const uint8_t *)block - p->blocks) / p->block_size);
}

void *mem_pool_block(const MemPool *p, uint32_t index) {
    return index < p->capacity ? p->blocks + (size_t)index * p->block_size : NULL;
}

void mem_pool_free(MemPool *p, void *block) {
    if (!block) return;
    if (!mem_pool_owns(p, block)) {
        log_error("pool '%s': free of a block it does not own (ignored)", p->name);
        return;
    }
    uint32_t idx = mem_pool_index(p, block);
    pool_lock(p);
    if (!p->live[idx]) {
        pool_unlock(p);
        log_error("pool '%s': double free of block %u (ignored)", p->name, idx);
        return;
    }
    p->live[idx] = 0;
    p->free_stack[p->free_top++] = idx;
    p->stats.frees++;
    p->stats.in_use--;
    pool_unlock(p);
}

MemPoolStats mem_pool_stats(MemPool *p) {
    pool_lock(p);
    MemPoolStats s = p->stats;
    pool_unlock(p);
    return s;
}
