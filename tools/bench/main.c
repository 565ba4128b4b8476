/* skyisles benchmarks: `bench SUBJECT [options]`, each subject prints JSON lines.
 * Subjects live in tools/bench/bench_SUBJECT.c; one that is not linked in says so. */
#include <stdio.h>
#include <string.h>

typedef int (*BenchFn)(int argc, char **argv);

int bench_jobs(int argc, char **argv) __attribute__((weak));
int bench_noise(int argc, char **argv) __attribute__((weak));
int bench_chunk(int argc, char **argv) __attribute__((weak));
int bench_stream(int argc, char **argv) __attribute__((weak));
int bench_island(int argc, char **argv) __attribute__((weak));
int bench_collision(int argc, char **argv) __attribute__((weak));
int bench_pools(int argc, char **argv) __attribute__((weak));
int bench_audio(int argc, char **argv) __attribute__((weak));
int bench_courses(int argc, char **argv) __attribute__((weak));
int bench_landings(int argc, char **argv) __attribute__((weak));
int bench_boot(int argc, char **argv) __attribute__((weak));
int bench_strips(int argc, char **argv) __attribute__((weak));

static const struct { const char *name; BenchFn fn; const char *what; } subjects[] = {
    {"jobs", bench_jobs, "worker pool throughput and submit-to-complete latency"},
    {"noise", bench_noise, "ns/sample of every noise function, scalar and SIMD, vs stb_perlin"},
    {"chunk", bench_chunk, "ms per chunk: density, caves, clouds, meshing"},
    {"stream", bench_stream, "headless autopilot flight: void frames, chunk latency, pools"},
    {"island", bench_island, "island generation time per seed, pack load"},
    {"collision", bench_collision, "ms per frame of the collision sweep at cruise and at the top speed"},
    {"pools", bench_pools, "us per point query of the water (world_water_top): open sky, cave air, a pool's water"},
    {"courses", bench_courses, "island tours and sky courses of N seeds: laid, verified, flown by the course pilot"},
    {"landings", bench_landings, "a start on the ground, an autoland and a takeoff at the base camp of N seeds"},
    {"boot", bench_boot, "the game's boot: first flight step and first frame (runs build/skyisles), the home bake"},
    {"strips", bench_strips, "home-island airstrips of N seeds: found, length, flatness, objects, glide clearance; bake time"},
    {"audio", bench_audio, "synth cost per 10 ms block at 48 kHz stereo (median, p99, % of a core)"},
};

int main(int argc, char **argv) {
    size_t n = sizeof subjects / sizeof subjects[0];
    if (argc >= 2) {
        for (size_t i = 0; i < n; i++) {
            if (strcmp(argv[1], subjects[i].name) != 0) continue;
            if (!subjects[i].fn) {
                fprintf(stderr, "bench: '%s' is not built into this binary\n", argv[1]);
                return 2;
            }
            return subjects[i].fn(argc - 1, argv + 1);
        }
        fprintf(stderr, "bench: unknown subject '%s'\n", argv[1]);
    }
    fprintf(stderr, "usage: bench SUBJECT [options]\nsubjects:\n");
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "  %-7s %s%s\n", subjects[i].name, subjects[i].what, subjects[i].fn ? "" : " (not built)");
    return 2;
}
