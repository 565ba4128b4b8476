/* skyisles bench `collision`: what W9's per-frame sweep costs on the main thread, at cruise and
 * at the boost's top speed: one 60 Hz frame of motion swept against the field in half-block
 * steps, along level and climbing paths over varied terrain, hits included. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "sim/sim.h"
#include "world/world.h"

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int bench_collision(int argc, char **argv) {
    int frames = 2000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench collision [--frames N]\n");
            return 2;
        }
    }
    if (frames < 10) frames = 10;
    MemBudget b;
    SkyError err = {0};
    if (!mem_budget_init(&b, (size_t)48 << 20, &err)) {
        fprintf(stderr, "bench collision: %s\n", err.msg);
        return 1;
    }
    World *w = world_create(&b, NULL, NULL, NULL, &err);
    if (!w) {
        fprintf(stderr, "bench collision: %s\n", err.msg);
        return 1;
    }
    double *ms = calloc((size_t)frames, sizeof *ms);
    if (!ms) return 1;
    static const double speeds[] = {40.0, 140.0, 1000.0};
    for (size_t s = 0; s < sizeof speeds / sizeof speeds[0]; s++) {
        double step = speeds[s] / 60.0;
        uint64_t hits = 0, steps = 0, blocks = 0;
        uint32_t blocks_max = 0;
        for (int f = 0; f < frames; f++) {
            /* Paths through the band where rock is: heights 20..150, headings spread round. */
            double a = f * 2.399963, y = 20.0 + fmod(f * 7.3, 130.0), x = 300.0 * sin(f * 0.37), z = 300.0 * cos(f * 0.53);
            double dx = cos(a) * step, dz = sin(a) * step, dy = (f % 3 - 1) * 0.2 * step;
            CollisionResult r;
            uint64_t t0 = time_now_ns();
            sim_collide(w, x, y, z, x + dx, y + dy, z + dz, &r);
            ms[f] = (double)(time_now_ns() - t0) * 1e-6;
            hits += r.hit;
            steps += r.steps;
            blocks += r.blocks_tested;
            if (r.blocks_tested > blocks_max) blocks_max = r.blocks_tested;
        }
        qsort(ms, (size_t)frames, sizeof *ms, cmp_double);
        double sum = 0.0;
        for (int f = 0; f < frames; f++) sum += ms[f];
        printf("{\"bench\": \"collision\", \"speed_mps\": %.0f, \"frames\": %d, \"metres_per_frame\": %.2f, "
               "\"ms\": {\"p50\": %.4f, \"p99\": %.4f, \"max\": %.4f, \"mean\": %.4f}, \"steps_mean\": %.1f, "
               "\"blocks_tested_mean\": %.1f, \"blocks_tested_max\": %u, \"hit_frames\": %llu}\n",
               speeds[s], frames, step, ms[frames / 2], ms[(int)(frames * 0.99)], ms[frames - 1], sum / frames,
               (double)steps / frames, (double)blocks / frames, blocks_max, (unsigned long long)hits);
    }
    free(ms);
    world_destroy(w);
    mem_budget_release(&b);
    return 0;
}
