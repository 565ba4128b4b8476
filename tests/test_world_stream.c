/* Tests for streaming on real worker threads (also under ThreadSanitizer): fill, events, eviction,
 * rebuild epochs, pool exhaustion, release, no heap calls on the frame path, the job stretch of
 * the slow-CPU bench, the speed governor's order, the quality presets. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "support/alloc_count.h"
#include "world/world.h"
#include "support/world_view.h"

#define MAX_LIVE 4096

/* What a renderer would hold: the chunks whose READY it took and whose GONE it did not see. */
typedef struct Consumer {
    int32_t cx[MAX_LIVE], cz[MAX_LIVE];
    const ChunkMesh *mesh[MAX_LIVE];
    uint32_t n;
    uint64_t ready, gone, old_epoch_ready, duplicates, unknown_gone, swaps;
} Consumer;

static int find(const Consumer *c, int32_t cx, int32_t cz) {
    for (uint32_t i = 0; i < c->n; i++)
        if (c->cx[i] == cx && c->cz[i] == cz) return (int)i;
    return -1;
}

static void consume(Consumer *c, World *w, uint32_t epoch) {
    WorldEvent ev[64];
    size_t n;
    while ((n = world_take_events(w, ev, 64)) > 0) {
        for (size_t i = 0; i < n; i++) {
            int at = find(c, ev[i].cx, ev[i].cz);
            if (ev[i].type == WORLD_EV_MESH_READY) {
                c->ready++;
                if (!ev[i].mesh || ev[i].mesh->epoch != epoch || ev[i].mesh->cx != ev[i].cx || ev[i].mesh->cz != ev[i].cz)
                    c->old_epoch_ready++;
                /* A second READY for a chunk held is a LOD swap: the same ChunkMesh, new content. */
                if (at >= 0) {
                    if (c->mesh[at] == ev[i].mesh) c->swaps++;
                    else c->duplicates++;
                    continue;
                }
                if (c->n < MAX_LIVE) {
                    c->cx[c->n] = ev[i].cx;
                    c->cz[c->n] = ev[i].cz;
                    c->mesh[c->n] = ev[i].mesh;
                    c->n++;
                }
            } else {
                c->gone++;
                if (at < 0) { c->unknown_gone++; continue; }
                c->n--;
                c->cx[at] = c->cx[c->n];
                c->cz[at] = c->cz[c->n];
                c->mesh[at] = c->mesh[c->n];
            }
        }
    }
}

typedef struct Rig {
    MemBudget budget;
    JobSystem *jobs;
    World *world;
} Rig;

/* The budget: the mesh pool asked for (or the one the view radius sizes: up to radius 7 it is
 * under 40 MiB) and room for the rest, not more: under ThreadSanitizer every byte of a budget
 * costs its shadow (160 MiB for every rig took a tenth of the program's time there). */
static void rig_up(Rig *r, WorldParams *p, uint32_t workers) {
    SkyError err = {0};
    size_t pool = p->create.mesh_pool_mib ? p->create.mesh_pool_mib : p->live.view_radius <= 7 ? 40u : 120u;
    size_t mib = pool + 40u;
    assert_true(mem_budget_init(&r->budget, mib << 20, &err));
    JobsConfig jc = {workers, 64, 0};
    r->jobs = jobs_create(&r->budget, &jc, &err);
    assert_non_null(r->jobs);
    r->world = world_create(&r->budget, r->jobs, p, NULL, &err);
    if (!r->world) fail_msg("%s", err.msg);
    if (world_stats(r->world).pool_squeezed) fail_msg("the test's budget of %zu MiB squeezed the mesh pool", mib);
}

static void rig_down(Rig *r) {
    world_destroy(r->world);
    jobs_destroy(r->jobs);
    mem_budget_release(&r->budget);
}

static WorldView view_at(double x, double z, double t, float speed) {
    return test_view_east(x, 110.0, z, t, speed);
}

static uint32_t wanted_in_radius(double x, double z, int r) {
    uint32_t n = 0;
    int32_t ccx = (int32_t)floor(x / CHUNK_SIZE), ccz = (int32_t)floor(z / CHUNK_SIZE);
    for (int32_t dz = -r - 1; dz <= r + 1; dz++)
        for (int32_t dx = -r - 1; dx <= r + 1; dx++) {
            double a = ccx + dx + 0.5 - x / CHUNK_SIZE, b = ccz + dz + 0.5 - z / CHUNK_SIZE;
            if (sqrt(a * a + b * b) <= r) n++;
        }
    return n;
}

/* One frame: update, hand the events to the consumer, let the workers finish. */
static void settle_frame(Rig *r, Consumer *c, const WorldView *v) {
    world_update(r->world, v);
    consume(c, r->world, world_stats(r->world).epoch);
    jobs_wait_idle(r->jobs);
}

/* `frames` frames at v with every job done in each, then on while the speed governor steps
 * back (one level per GOV_DOWN_FRAMES calm frames): a flight the jobs fell behind on (a loaded
 * machine, qemu) leaves it coarsened, and the world at rest is the configured world. */
static void settle(Rig *r, Consumer *c, const WorldView *v, int frames) {
    for (int i = 0; i < frames; i++) settle_frame(r, c, v);
    int more = 0;
    while (world_stats(r->world).gov_level > 0 && more < 4000) {
        settle_frame(r, c, v);
        more++;
    }
    if (more > 0) {
        assert_int_equal(world_stats(r->world).gov_level, 0);
        for (int i = 0; i < frames; i++) settle_frame(r, c, v);   /* and what its steps asked for */
    }
}

static void test_fills_view_radius(void **state) {
    (void)state;
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 4;
    Rig r;
    rig_up(&r, &p, 2);
    static Consumer c;
    memset(&c, 0, sizeof c);
    WorldView v = view_at(100.0, -50.0, 0.0, 0.0f);
    settle(&r, &c, &v, 60);
    WorldStats s = world_stats(r.world);
    uint32_t want = wanted_in_radius(v.x, v.z, 4);
    printf("resident %u wanted %u generated %llu events ready %llu\n", s.resident, want,
           (unsigned long long)s.generated, (unsigned long long)c.ready);
    assert_int_equal(s.resident, want);
    assert_int_equal(c.n, want);
    assert_int_equal(s.void_chunks, 0);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.old_epoch_ready, 0);
    assert_int_equal(s.in_flight, 0);
    /* Every chunk within the radius is there, with a mesh. */
    for (uint32_t i = 0; i < c.n; i++) {
        double a = c.cx[i] + 0.5 - v.x / CHUNK_SIZE, b = c.cz[i] + 0.5 - v.z / CHUNK_SIZE;
        assert_true(sqrt(a * a + b * b) <= 4.0);
        assert_true(c.mesh[i]->opaque_parts > 0);
    }
    assert_true(s.records_peak <= s.records_capacity);
    /* A broken view changes nothing. */
    WorldView bad = v;
    bad.x = NAN;
    world_update(r.world, &bad);
    bad.x = 2.0 * WORLD_COORD_LIMIT;   /* past the generated world (1e12 blocks is inside it now) */
    world_update(r.world, &bad);
    bad.x = INFINITY;
    world_update(r.world, &bad);
    assert_int_equal(world_stats(r.world).resident, want);
    rig_down(&r);
}

static void test_flight_evicts_and_pairs_events(void **state) {
    (void)state;
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 5;
    Rig r;
    rig_up(&r, &p, 2);
    static Consumer c;
    memset(&c, 0, sizeof c);
    double x = 0.0;
    /* 100 frames, 25 chunks flown: some 200 evictions and 600 LOD swaps (the checks ask 50 and
     * 20); every frame costs its new chunks, under qemu and ThreadSanitizer most of all. */
    for (int f = 0; f < 100; f++) {
        x += 8.0;   /* 8 blocks per frame */
        WorldView v = view_at(x, 0.0, f / 60.0, 480.0f);
        world_update(r.world, &v);
        consume(&c, r.world, world_stats(r.world).epoch);
        if (f % 3 == 0) jobs_wait_idle(r.jobs);
    }
    WorldView v = view_at(x, 0.0, 4.0, 0.0f);
    settle(&r, &c, &v, 40);
    WorldStats s = world_stats(r.world);
    printf("generated %llu evicted %llu dropped %llu resident %u consumer %u gone %llu lod swaps %llu (seen %llu)\n",
           (unsigned long long)s.generated, (unsigned long long)s.evicted, (unsigned long long)s.dropped, s.resident, c.n,
           (unsigned long long)c.gone, (unsigned long long)s.lod_swaps, (unsigned long long)c.swaps);
    assert_true(s.evicted > 50);
    assert_int_equal(c.unknown_gone, 0);
    assert_int_equal(c.duplicates, 0);
    assert_true(s.lod_swaps > 20 && c.swaps > 20);   /* chunks passed got finer, then coarser */
    assert_int_equal(c.n, s.resident);
    /* Every chunk within the radius is held; nothing beyond the one-chunk hysteresis is. */
    uint32_t inside = 0;
    for (uint32_t i = 0; i < c.n; i++) {
        double a = c.cx[i] + 0.5 - x / CHUNK_SIZE, b = c.cz[i] + 0.5;
        double d = sqrt(a * a + b * b);
        assert_true(d <= 6.0);
        inside += d <= 5.0;
    }
    assert_int_equal(inside, wanted_in_radius(x, 0.0, 5));
    rig_down(&r);
}

static uint64_t mesh_hash(const ChunkMesh *m) {
    uint64_t h = 0;
    for (uint32_t i = 0; i < m->opaque_parts + m->cloud_parts; i++)
        h = hash_fnv1a64(m->parts[i].verts, m->parts[i].vert_count * sizeof(WorldVertex), h);
    return h;
}

/* W5: a terrain change drops the queue and never lets an old-epoch mesh out. */
static void test_rebuild_drops_old_epoch(void **state) {
    (void)state;
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 5;
    Rig r;
    rig_up(&r, &p, 2);
    static Consumer c;
    memset(&c, 0, sizeof c);
    WorldView v = view_at(0.0, 0.0, 0.0, 0.0f);
    /* Part-way: jobs queued and running, READY events waiting in the ring. */
    world_update(r.world, &v);
    world_update(r.world, &v);
    uint32_t e0 = world_stats(r.world).epoch;
    for (int k = 0; k < 5; k++) {
        p.gen.seed += 17;
        p.gen.base_amplitude += 1.0f;
        world_set_params(r.world, &p);
        world_update(r.world, &v);   /* new requests, racing the old jobs */
    }
    uint32_t e1 = world_stats(r.world).epoch;
    assert_true(e1 >= e0 + 5);
    settle(&r, &c, &v, 60);
    WorldStats s = world_stats(r.world);
    printf("epochs %u -> %u, generated %llu dropped %llu ready events %llu old-epoch %llu\n", e0, e1,
           (unsigned long long)s.generated, (unsigned long long)s.dropped, (unsigned long long)c.ready,
           (unsigned long long)c.old_epoch_ready);
    assert_int_equal(c.old_epoch_ready, 0);
    assert_true(s.dropped > 0);
    assert_int_equal(c.n, wanted_in_radius(0.0, 0.0, 5));
    /* The meshes held are the new world's: identical to direct builds with the new parameters
     * at the LOD each was streamed at. */
    for (uint32_t i = 0; i < c.n && i < 6; i++) {
        ChunkMesh m;
        WorldBuildTiming t;
        assert_true(world_build_chunk_lod(r.world, c.cx[i], c.cz[i], (int)c.mesh[i]->lod, 0.0, &m, &t));
        /* Clouds depend on creation time; compare the opaque parts. */
        ChunkMesh a = *c.mesh[i], b = m;
        a.cloud_parts = b.cloud_parts = 0;
        assert_int_equal(mesh_hash(&a), mesh_hash(&b));
        world_free_mesh(r.world, &m);
    }
    rig_down(&r);
}

static double chunk_dist(int32_t cx, int32_t cz, double x, double z) {
    double a = cx + 0.5 - x / CHUNK_SIZE, b = cz + 0.5 - z / CHUNK_SIZE;
    return sqrt(a * a + b * b);
}

/* Live parameters cost nothing: a smaller and a larger view radius and new LOD bands keep every
 * loaded chunk that is still in reach (same mesh, no GONE, no rebuild) and leave the epoch;
 * a generation parameter, through the same world_set_params, is a new world. */
static void test_live_change_keeps_chunks(void **state) {
    (void)state;
    WorldParams p;
    world_params_default(&p);
    /* Radius 5 (81 chunks, each built some seven times here: streamed, swapped, rebuilt, and
     * built again directly to compare) shrunk to 2: the same steps as 6 and 3, a third cheaper. */
    p.live.view_radius = 5;
    p.create.mesh_pool_mib = 64;   /* room for every chunk at LOD 0 when LOD is switched off */
    Rig r;
    rig_up(&r, &p, 2);
    static Consumer c;
    memset(&c, 0, sizeof c);
    WorldView v = view_at(40.0, 24.0, 0.0, 0.0f);
    settle(&r, &c, &v, 60);
    WorldStats s0 = world_stats(r.world);
    uint32_t held0 = c.n;
    assert_int_equal(held0, wanted_in_radius(v.x, v.z, 5));
    static uint64_t hash0[MAX_LIVE];
    for (uint32_t i = 0; i < c.n; i++) hash0[i] = mesh_hash(c.mesh[i]);
    static int32_t cx0[MAX_LIVE], cz0[MAX_LIVE];
    memcpy(cx0, c.cx, sizeof cx0);
    memcpy(cz0, c.cz, sizeof cz0);

    /* Smaller radius: nothing goes at the call, then only chunks out of reach (past the
     * one-chunk hysteresis) go; nothing is generated. */
    WorldLiveParams live = world_params(r.world)->live;
    live.view_radius = 2;
    world_set_live_params(r.world, &live);
    assert_int_equal(world_params(r.world)->live.view_radius, 2);
    assert_int_equal(world_stats(r.world).epoch, s0.epoch);
    for (uint32_t i = 0; i < held0; i++) assert_true(world_chunk_lod(r.world, cx0[i], cz0[i]) >= 0);
    settle(&r, &c, &v, 10);
    WorldStats s1 = world_stats(r.world);
    assert_int_equal(s1.epoch, s0.epoch);
    assert_int_equal(s1.generated, s0.generated);
    assert_int_equal(c.old_epoch_ready, 0);
    for (uint32_t i = 0; i < held0; i++) {
        double d = chunk_dist(cx0[i], cz0[i], v.x, v.z);
        int at = find(&c, cx0[i], cz0[i]);
        if (d <= 3.0) {   /* radius 2 plus the hysteresis: kept, the same mesh */
            assert_true(at >= 0);
            assert_int_equal(mesh_hash(c.mesh[at]), hash0[i]);
        } else if (d > 4.0) {
            assert_true(at < 0);
        }
    }
    uint64_t gone1 = c.gone;
    assert_true(gone1 > 0);

    /* Larger again: the kept chunks stay as they are; only the ring is generated. */
    live.view_radius = 5;
    world_set_params(r.world, &(WorldParams){world_params(r.world)->gen, live, p.create});
    settle(&r, &c, &v, 60);
    WorldStats s2 = world_stats(r.world);
    assert_int_equal(s2.epoch, s0.epoch);
    assert_int_equal(c.n, held0);
    assert_int_equal(c.gone, gone1);
    assert_true(s2.generated > s1.generated && s2.generated - s1.generated < held0);
    for (uint32_t i = 0; i < held0; i++)
        if (chunk_dist(cx0[i], cz0[i], v.x, v.z) <= 3.0) {
            int at = find(&c, cx0[i], cz0[i]);
            assert_true(at >= 0);
            assert_int_equal(mesh_hash(c.mesh[at]), hash0[i]);
        }

    /* New LOD bands: the same chunks, swapped to their new LOD, no GONE, no epoch. */
    live.lod_dist[0] = 1.5f;   /* every band within the radius of 5 */
    live.lod_dist[1] = 3.0f;
    live.lod_dist[2] = 4.5f;
    world_set_live_params(r.world, &live);
    settle(&r, &c, &v, 60);
    WorldStats s3 = world_stats(r.world);
    assert_int_equal(s3.epoch, s0.epoch);
    assert_int_equal(c.n, held0);
    assert_int_equal(c.gone, gone1);
    assert_true(s3.lod_swaps > s2.lod_swaps);
    int64_t ax, az;
    world_lod_anchor(r.world, &ax, &az);
    for (uint32_t i = 0; i < c.n; i++)
        assert_int_equal(world_chunk_lod(r.world, c.cx[i], c.cz[i]), world_lod_for_offset(&live, c.cx[i] - ax, c.cz[i] - az));
    /* LOD off and on again: every chunk becomes the classic LOD-0 mesh, then the streamer's mesh
     * at its LOD (seam faces included), through swaps; clouds kept (all created at time 0). */
    WorldLiveParams off = live;
    memset(off.lod_dist, 0, sizeof off.lod_dist);
    world_set_live_params(r.world, &off);
    settle(&r, &c, &v, 80);
    assert_int_equal(c.n, held0);
    assert_int_equal(c.gone, gone1);
    for (uint32_t i = 0; i < c.n; i++) {
        ChunkMesh m;
        WorldBuildTiming t;
        assert_true(world_build_chunk(r.world, c.cx[i], c.cz[i], 0.0, &m, &t));
        assert_int_equal(mesh_hash(&m), mesh_hash(c.mesh[i]));
        world_free_mesh(r.world, &m);
    }
    world_set_live_params(r.world, &live);
    settle(&r, &c, &v, 80);
    assert_int_equal(c.n, held0);
    for (uint32_t i = 0; i < c.n; i++) {
        ChunkMesh m;
        WorldBuildTiming t;
        assert_true(world_build_chunk_lod(r.world, c.cx[i], c.cz[i], (int)c.mesh[i]->lod, 0.0, &m, &t));
        assert_int_equal(mesh_hash(&m), mesh_hash(c.mesh[i]));
        world_free_mesh(r.world, &m);
    }
    assert_int_equal(world_stats(r.world).epoch, s0.epoch);
    printf("radius 5 -> 2 -> 5: %u chunks, %llu gone, %llu generated after; LOD bands: %llu swaps\n", held0,
           (unsigned long long)gone1, (unsigned long long)(s2.generated - s1.generated),
           (unsigned long long)(s3.lod_swaps - s2.lod_swaps));

    /* A generation parameter through the same call: new epoch, every chunk rebuilt, and the
     * old world stays on screen until its chunks are replaced (W11: no void while rebuilding). */
    WorldStats s3b = world_stats(r.world);
    uint64_t gone3 = c.gone;
    WorldParams q = *world_params(r.world);
    q.gen.seed += 1;
    world_set_params(r.world, &q);
    WorldStats s4 = world_stats(r.world);
    assert_true(s4.epoch > s0.epoch);
    assert_int_equal(s4.resident, s3b.resident);   /* nothing went */
    assert_int_equal(s4.stale, s3b.resident);      /* all of it is the old world now */
    /* Part-way: the first new chunks are in while the rest still shows the old world. */
    bool mixed = false;
    for (int k = 0; k < 200 && !mixed; k++) {
        world_update(r.world, &v);
        consume(&c, r.world, world_stats(r.world).epoch);
        jobs_wait_idle(r.jobs);
        WorldStats sk = world_stats(r.world);
        mixed = sk.stale > 0 && sk.stale_replaced > 0;
        assert_int_equal(sk.void_chunks, 0);
    }
    assert_true(mixed);
    assert_int_equal(c.gone, gone3);               /* the consumer never lost a chunk */
    settle(&r, &c, &v, 60);
    WorldStats s5 = world_stats(r.world);
    assert_int_equal(s5.stale, 0);
    assert_int_equal(c.n, held0);
    assert_int_equal(s5.epoch, s4.epoch);
    assert_true(world_params(r.world)->gen.seed == p.gen.seed + 1);
    /* Every mesh held is the new world's: the epoch and the bytes of a direct build. */
    for (uint32_t i = 0; i < c.n; i++) assert_int_equal(c.mesh[i]->epoch, s4.epoch);
    for (uint32_t i = 0; i < c.n && i < 6; i++) {
        ChunkMesh m;
        WorldBuildTiming t;
        assert_true(world_build_chunk_lod(r.world, c.cx[i], c.cz[i], (int)c.mesh[i]->lod, 0.0, &m, &t));
        ChunkMesh a = *c.mesh[i], b = m;
        a.cloud_parts = b.cloud_parts = 0;
        assert_int_equal(mesh_hash(&a), mesh_hash(&b));
        world_free_mesh(r.world, &m);
    }
    printf("seed change: %u chunks kept on screen, %llu replaced by the new world\n", s4.stale,
           (unsigned long long)s5.stale_replaced);
    rig_down(&r);
}

/* Every live value in range, at both ends, on a world in flight: it keeps streaming (no crash,
 * no new epoch, the view radius held within what the world was sized for). */
static void test_every_live_value_in_range_works(void **state) {
    (void)state;
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 4;
    Rig r;
    rig_up(&r, &p, 2);
    static Consumer c;
    memset(&c, 0, sizeof c);
    uint32_t e0 = world_stats(r.world).epoch;
    double x = 0.0;
    int f = 0;
    for (size_t i = 0; i < world_param_count(); i++) {
        const WorldParamDesc *d = world_param_at(i);
        if (d->cls != WORLD_PARAM_LIVE) continue;
        for (int end = 0; end < 2; end++) {
            WorldParams q = p;
            world_param_set(&q, d, end ? d->max : d->min);
            world_set_live_params(r.world, &q.live);
            for (int k = 0; k < 4; k++, f++) {   /* four frames in flight on each end, two waited */
                x += 9.0;
                WorldView v = view_at(x, 0.0, f / 60.0, 540.0f);
                world_update(r.world, &v);
                consume(&c, r.world, world_stats(r.world).epoch);
                if (k % 2) jobs_wait_idle(r.jobs);
            }
            const WorldLiveParams *held = &world_params(r.world)->live;
            assert_true(held->view_radius >= WORLD_VIEW_RADIUS_MIN && held->view_radius <= 4);
        }
    }
    world_set_live_params(r.world, &p.live);
    WorldView v = view_at(x, 0.0, f / 60.0, 0.0f);
    settle(&r, &c, &v, 60);
    WorldStats s = world_stats(r.world);
    assert_int_equal(s.epoch, e0);
    assert_int_equal(c.unknown_gone, 0);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(s.void_chunks, 0);
    uint32_t inside = 0;
    for (uint32_t i = 0; i < c.n; i++) inside += chunk_dist(c.cx[i], c.cz[i], x, 0.0) <= 4.0;
    assert_int_equal(inside, wanted_in_radius(x, 0.0, 4));
    rig_down(&r);
}

/* M3: a pool far too small for the radius evicts the farthest and keeps the nearest. */
static void test_pool_exhaustion_degrades(void **state) {
    (void)state;
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 6;
    p.create.mesh_pool_mib = 6;   /* 256 slabs: about a dozen chunks of ~110 wanted */
    Rig r;
    rig_up(&r, &p, 2);
    static Consumer c;
    memset(&c, 0, sizeof c);
    double x = 0.0;
    for (int f = 0; f < 150; f++) {
        x += 4.0;
        WorldView v = view_at(x, 16.0, f / 60.0, 240.0f);
        world_update(r.world, &v);
        consume(&c, r.world, world_stats(r.world).epoch);
        jobs_wait_idle(r.jobs);
    }
    WorldStats s = world_stats(r.world);
    printf("slabs %u/%u peak %u, resident %u, pool evictions %llu, pool failures %llu\n", s.slabs_in_use,
           s.slabs_capacity, s.slabs_peak, s.resident, (unsigned long long)s.pool_evictions,
           (unsigned long long)s.mesh_pool_failures);
    assert_true(s.slabs_peak <= s.slabs_capacity);
    assert_true(s.pool_evictions + s.mesh_pool_failures > 0);
    assert_true(s.resident > 4);
    /* The reach came in; the chunk under the aircraft is there and all held chunks are near. */
    int32_t ccx = (int32_t)floor(x / CHUNK_SIZE);
    printf("reach %.2f of %d, aircraft chunk %d, held:", s.reach, p.live.view_radius, ccx);
    for (uint32_t i = 0; i < c.n; i++) printf(" (%d,%d)", c.cx[i], c.cz[i]);
    printf("\n");
    assert_true(s.reach < p.live.view_radius && s.reach_shrinks > 0);
    assert_true(find(&c, ccx, 0) >= 0);
    for (uint32_t i = 0; i < c.n; i++) {
        double a = c.cx[i] + 0.5 - x / CHUNK_SIZE, b = c.cz[i] + 0.5 - 0.5;
        assert_true(sqrt(a * a + b * b) <= s.reach + 1.0 + 3.0);   /* reach + hysteresis + lead */
    }
    assert_int_equal(c.unknown_gone, 0);
    rig_down(&r);
}

/* The renderer's release hands slabs back at once; the chunk stays until its GONE. */
static void test_release_mesh(void **state) {
    (void)state;
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 3;
    Rig r;
    rig_up(&r, &p, 2);
    static Consumer c;
    memset(&c, 0, sizeof c);
    WorldView v = view_at(0.0, 0.0, 0.0, 0.0f);
    settle(&r, &c, &v, 30);
    WorldStats before = world_stats(r.world);
    assert_true(c.n > 10);
    for (uint32_t i = 0; i < c.n; i++) world_release_mesh(r.world, c.cx[i], c.cz[i]);
    WorldStats after = world_stats(r.world);
    printf("slabs in use %u -> %u\n", before.slabs_in_use, after.slabs_in_use);
    assert_int_equal(after.slabs_in_use, 0);
    assert_int_equal(after.resident, before.resident);
    for (uint32_t i = 0; i < c.n; i++) assert_int_equal(c.mesh[i]->opaque_parts + c.mesh[i]->cloud_parts, 0);
    settle(&r, &c, &v, 5);
    assert_int_equal(world_stats(r.world).generated, before.generated);   /* no rebuild of released chunks */
    rig_down(&r);
}

/* LOD: a chunk that changes LOD keeps its old mesh until the new one is in (no frame without a
 * mesh for a chunk the consumer holds), and once the flight stops every chunk is at the LOD
 * its distance from the anchor asks for. */
static void test_lod_swaps_keep_a_mesh(void **state) {
    (void)state;
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 6;
    Rig r;
    rig_up(&r, &p, 2);
    static Consumer c;
    memset(&c, 0, sizeof c);
    double x = 0.0, z = 0.0;
    uint64_t checks = 0;
    for (int f = 0; f < 80; f++) {   /* some 600 swaps (the check asks 50), each frame checked */
        x += 7.0;
        z += (f < 40 ? 3.0 : -3.0);
        WorldView v = view_at(x, z, f / 60.0, 450.0f);
        world_update(r.world, &v);
        consume(&c, r.world, world_stats(r.world).epoch);
        for (uint32_t i = 0; i < c.n; i++) {
            int lod = world_chunk_lod(r.world, c.cx[i], c.cz[i]);
            if (lod < 0) fail_msg("frame %d: chunk (%d,%d) held by the consumer has no mesh in the world", f, c.cx[i], c.cz[i]);
            assert_int_equal((uint32_t)lod, c.mesh[i]->lod);   /* the READY pointer shows the newest mesh */
            checks++;
        }
        if (f % 2 == 0) jobs_wait_idle(r.jobs);
    }
    WorldView v = view_at(x, z, 3.0, 0.0f);
    settle(&r, &c, &v, 60);
    WorldStats s = world_stats(r.world);
    int64_t ax, az;
    world_lod_anchor(r.world, &ax, &az);
    uint32_t by_lod[WORLD_LOD_MAX + 1] = {0};
    for (uint32_t i = 0; i < c.n; i++) {
        int want = world_lod_for_offset(&p.live, c.cx[i] - ax, c.cz[i] - az);
        assert_int_equal(world_chunk_lod(r.world, c.cx[i], c.cz[i]), want);
        assert_int_equal(c.mesh[i]->lod, (uint32_t)want);
        by_lod[want]++;
    }
    printf("held-chunk checks %llu, lod swaps %llu of %llu requests, resident by LOD %u %u %u %u\n",
           (unsigned long long)checks, (unsigned long long)s.lod_swaps, (unsigned long long)s.lod_requests, by_lod[0],
           by_lod[1], by_lod[2], by_lod[3]);
    for (int k = 0; k <= WORLD_LOD_MAX; k++) assert_int_equal(s.resident_lod[k], by_lod[k]);
    assert_true(s.lod_swaps > 50 && c.swaps > 50);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.unknown_gone, 0);
    assert_int_equal(s.void_chunks, 0);
    assert_true(by_lod[0] >= 1 && by_lod[1] > 0 && by_lod[2] > 0 && by_lod[3] > 0);
    rig_down(&r);
}

/* W7 and LOD: a chunk's clouds are blown by the wind up to its first creation. A chunk that
 * changes LOD later keeps them: its new mesh equals a direct build of that LOD at the time the
 * chunk was first created, not at the time of the swap (the clouds would jump 40 blocks per
 * second in between). Chunks first created later get their own time. */
static void test_lod_swap_keeps_clouds(void **state) {
    (void)state;
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 5;
    Rig r;
    rig_up(&r, &p, 2);
    static Consumer c;
    memset(&c, 0, sizeof c);
    const double t_first = 5.0, t_later = 50.0;
    WorldView v = view_at(16.0, 16.0, t_first, 0.0f);
    settle(&r, &c, &v, 60);
    static int32_t cx0[MAX_LIVE], cz0[MAX_LIVE];
    static int lod0[MAX_LIVE];
    uint32_t n0 = c.n;
    for (uint32_t i = 0; i < n0; i++) {
        cx0[i] = c.cx[i];
        cz0[i] = c.cz[i];
        lod0[i] = (int)c.mesh[i]->lod;
    }
    /* Three chunks east, much later: the chunks near the camera change LOD. */
    v = view_at(16.0 + 3 * CHUNK_SIZE, 16.0, t_later, 0.0f);
    settle(&r, &c, &v, 60);
    uint32_t swapped = 0, new_chunks = 0, clouds_moved = 0;
    for (uint32_t i = 0; i < c.n; i++) {
        int at = -1;
        for (uint32_t k = 0; k < n0; k++)
            if (cx0[k] == c.cx[i] && cz0[k] == c.cz[i]) at = (int)k;
        int lod = (int)c.mesh[i]->lod;
        if (at >= 0 && lod == lod0[at]) continue;   /* untouched since the first phase */
        double born = at >= 0 ? t_first : t_later;
        ChunkMesh m;
        WorldBuildTiming t;
        assert_true(world_build_chunk_lod(r.world, c.cx[i], c.cz[i], lod, born, &m, &t));
        if (mesh_hash(&m) != mesh_hash(c.mesh[i]))
            fail_msg("chunk (%d,%d) at LOD %d differs from its build at its first creation (t = %.0f s)", c.cx[i], c.cz[i],
                     lod, born);
        world_free_mesh(r.world, &m);
        if (at >= 0) {
            swapped++;
            /* The swap's own time would have shown other clouds. */
            assert_true(world_build_chunk_lod(r.world, c.cx[i], c.cz[i], lod, t_later, &m, &t));
            clouds_moved += mesh_hash(&m) != mesh_hash(c.mesh[i]);
            world_free_mesh(r.world, &m);
        } else {
            new_chunks++;
        }
    }
    printf("after the move: %u chunks swapped LOD (clouds would have moved in %u), %u new\n", swapped, clouds_moved,
           new_chunks);
    assert_true(swapped >= 8);
    assert_true(clouds_moved >= swapped / 2);
    assert_true(new_chunks > 0);
    rig_down(&r);
}

/* M3: the frame path and the workers make no heap call while flying and rebuilding. */
static void test_stream_no_heap(void **state) {
    (void)state;
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 5;
    Rig r;
    rig_up(&r, &p, 2);
    static Consumer c;
    memset(&c, 0, sizeof c);
    double x = 0.0;
    alloc_count_start();
    for (int f = 0; f < 120; f++) {   /* some 800 chunks (the check asks 100), a rebuild half-way */
        x += 6.0;
        WorldView v = view_at(x, 20.0 * sin(f * 0.05), f / 60.0, 360.0f);
        world_update(r.world, &v);
        consume(&c, r.world, world_stats(r.world).epoch);
        if (f == 60) {
            p.gen.n3_amplitude = 30.0f;
            world_set_params(r.world, &p);
        }
        if (f % 4 == 0) jobs_wait_idle(r.jobs);
    }
    jobs_wait_idle(r.jobs);
    uint64_t allocs = alloc_count_stop();
    WorldStats s = world_stats(r.world);
    printf("generated %llu chunks, %llu heap calls\n", (unsigned long long)s.generated, (unsigned long long)allocs);
    assert_int_equal(allocs, 0);
    assert_true(s.generated > 100);
    rig_down(&r);
}

/* A rig with a fresh consumer, settled at rest at v. */
static void rig_settled(Rig *r, Consumer *c, WorldParams *p, uint32_t workers, WorldView v, int frames) {
    rig_up(r, p, workers);
    memset(c, 0, sizeof *c);
    settle(r, c, &v, frames);
}

/* The bench's slow CPU: with a stretch of 4 every job ends 4 times its CPU time after it started
 * (the worker sleeps the rest), so the jobs' wall time is at least 4 times their CPU time. The
 * sleep takes up the time a loaded machine steals while the job computes, so it is at most
 * 3 times the CPU time, plus the wake-up after it (allowed here up to 4 ms a job). Stretch off,
 * nothing sleeps. (Wall time itself bounds nothing above: under sanitizers on a loaded machine a
 * job's wall time can be many times its CPU time with no stretch at all.) */
static void test_job_stretch(void **state) {
    (void)state;
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 3;
    Rig r;
    static Consumer c;
    WorldView v = view_at(-300.0, 700.0, 0.0, 0.0f);
    rig_settled(&r, &c, &p, 2, v, 0);
    world_set_job_stretch(r.world, 4.0f);
    settle(&r, &c, &v, 20);
    WorldStats s = world_stats(r.world);
    double cpu = (double)s.job_cpu_ns, wall = (double)s.job_wall_ns;
    printf("%llu jobs: CPU %.2f ms, wall %.2f ms a job, wall / CPU %.2f\n", (unsigned long long)s.jobs_timed,
           cpu * 1e-6 / (double)s.jobs_timed, wall * 1e-6 / (double)s.jobs_timed, wall / cpu);
    assert_true(s.jobs_timed >= 20 && cpu > 0.0);
    assert_true(wall >= 3.95 * cpu);
    assert_true(s.job_stretch_ns > 0);
    assert_true((double)s.job_stretch_ns <= 3.0 * cpu + (double)s.jobs_timed * 4e6);
    /* Off again: jobs are only timed. */
    world_set_job_stretch(r.world, 1.0f);
    uint64_t n0 = s.jobs_timed, slept0 = s.job_stretch_ns;
    WorldView far = view_at(5000.0, 700.0, 1.0, 0.0f);
    settle(&r, &c, &far, 20);
    s = world_stats(r.world);
    assert_true(s.jobs_timed > n0);
    assert_int_equal(s.job_stretch_ns, slept0);
    rig_down(&r);
}

/* Generation far behind the flight (a slow CPU and an impossible speed): the governor coarsens
 * the far LOD bands first, and only then pulls the reach in, a chunk at a time down to
 * speed_reach_min; at rest it gives everything back. No heap call on the way. */
static void test_governor_lod_then_reach(void **state) {
    (void)state;
    WorldParams p;
    world_params_default(&p);
    p.live.view_radius = 7;
    p.live.speed_reach_min = 4;
    Rig r;
    static Consumer c;
    rig_settled(&r, &c, &p, 1, view_at(0.0, 0.0, 0.0, 0.0f), 40);
    world_set_job_stretch(r.world, 30.0f);
    WorldView v;
    WorldStats s = world_stats(r.world);
    assert_int_equal(s.gov_level, 0);
    uint32_t lod_steps = s.gov_lod_steps, top = s.gov_level_max;
    assert_int_equal(lod_steps, 3);
    assert_int_equal(top, 3 + (7 - 4));
    float base_far = s.lod_dist_in_force[2];

    alloc_count_start();
    double x = 0.0, t = 0.0;
    uint32_t prev = 0, first_reach_in = 0, frames = 0;
    for (int f = 0; f < 400 && world_stats(r.world).gov_level < top; f++, frames++) {
        x += 50000.0 / 60.0;
        t += 1.0 / 60.0;
        v = view_at(x, 0.0, t, 50000.0f);
        world_update(r.world, &v);
        consume(&c, r.world, world_stats(r.world).epoch);
        s = world_stats(r.world);
        assert_true(s.gov_level >= prev);   /* steady pressure: only up */
        prev = s.gov_level;
        if (s.gov_level <= lod_steps) {
            assert_true(s.reach == (float)p.live.view_radius);   /* LOD first: the reach is whole */
        } else {
            if (!first_reach_in) first_reach_in = (uint32_t)f;
            assert_true(s.lod_dist_in_force[2] < base_far);        /* every LOD step taken */
            assert_true(s.reach == (float)(p.live.view_radius - (int)(s.gov_level - lod_steps)));
        }
        if (s.gov_level >= 1) assert_true(s.lod_dist_in_force[2] < base_far);
    }
    uint64_t allocs = alloc_count_stop();
    s = world_stats(r.world);
    printf("governor: level %u of %u after %u frames (reach in from frame %u), reach %.1f, far LOD from %.2f to %.2f; "
           "%llu heap calls\n", s.gov_level, top, frames, first_reach_in, s.reach, base_far, s.lod_dist_in_force[2],
           (unsigned long long)allocs);
    assert_int_equal(s.gov_level, top);
    assert_true(s.reach == (float)p.live.speed_reach_min);
    assert_true(first_reach_in > 0);
    assert_int_equal(allocs, 0);

    /* At rest generation keeps up: one level back every GOV_DOWN_FRAMES calm frames. */
    world_set_job_stretch(r.world, 1.0f);
    for (int f = 0; f < 120 * (int)top && world_stats(r.world).gov_level > 0; f++) {
        t += 1.0 / 60.0;
        v = view_at(x, 0.0, t, 0.0f);
        world_update(r.world, &v);
        consume(&c, r.world, world_stats(r.world).epoch);
        if (f % 8 == 0) jobs_wait_idle(r.jobs);
    }
    s = world_stats(r.world);
    assert_int_equal(s.gov_level, 0);
    assert_true(s.reach == (float)p.live.view_radius);
    assert_true(s.lod_dist_in_force[2] == base_far);
    rig_down(&r);
}

/* A settled world of view radius 6 at the origin, for the jump tests. */
static void jump_rig(Rig *r, Consumer *c, WorldParams *p) {
    world_params_default(p);
    p->live.view_radius = 6;
    rig_settled(r, c, p, 1, view_at(0.0, 0.0, 0.0, 0.0f), 40);
}

/* One 60 Hz frame of flight along +x at `speed` m/s from (*x, *t). */
static void fly_frame(Rig *r, Consumer *c, double *x, double *t, double speed) {
    *x += speed / 60.0;
    *t += 1.0 / 60.0;
    WorldView v = view_at(*x, 0.0, *t, (float)speed);
    world_update(r->world, &v);
    consume(c, r->world, world_stats(r->world).epoch);
}

/* A respawn: the view jumps 40 km, then flies on at cruise speed (80 m/s, 60 Hz; the jobs run on
 * as they would, a wait every fourth frame) for `after` frames once the jump's hold has ended
 * (at once when the jump is not noted). The governor's highest level in that time; *hold: the
 * frames the hold lasted. With the jump noted the band and reach never change. */
static uint32_t jump_peak(bool note, int after, uint32_t *hold) {
    WorldParams p;
    Rig r;
    static Consumer c;
    jump_rig(&r, &c, &p);
    WorldStats s = world_stats(r.world);
    assert_int_equal(s.gov_level, 0);
    float far = s.lod_dist_in_force[2];
    world_set_job_stretch(r.world, 3.0f);   /* a slower CPU: the backlog takes many frames */
    if (note) world_note_jump(r.world);
    double x = 40000.0, t = 1.0;
    uint32_t peak = 0, held = 0;
    int left = after;
    for (int f = 0; left > 0 && f < (int)WORLD_GOV_JUMP_HOLD_MAX_FRAMES + after; f++) {
        fly_frame(&r, &c, &x, &t, 80.0);
        s = world_stats(r.world);
        if (s.gov_level > peak) peak = s.gov_level;
        if (s.gov_jump_frames) held = s.gov_jump_frames;
        else left--;
        if (note) {   /* no coarser band, no shorter reach than before the jump */
            assert_true(s.lod_dist_in_force[2] == far);
            assert_true(s.reach == (float)p.live.view_radius);
        }
        if (f % 4 == 3) jobs_wait_idle(r.jobs);
    }
    printf("jump %s: governor peak %u, hold %u frames (%llu of %llu jumps ended by the place filling), %u void frames\n",
           note ? "noted" : "not noted", peak, held, (unsigned long long)s.gov_jumps_filled,
           (unsigned long long)s.gov_jumps, (unsigned)s.void_frames);
    if (note) {   /* the hold ended because the place filled, not on the bound */
        assert_int_equal(s.gov_jumps, 1);
        assert_int_equal(s.gov_jumps_filled, 1);
        assert_true(held < WORLD_GOV_JUMP_HOLD_MAX_FRAMES);
    }
    world_set_job_stretch(r.world, 1.0f);
    rig_down(&r);
    *hold = held;
    return peak;
}

/* After a respawn the governor stays at rest, while the place fills and after (the jump's
 * backlog is not pressure), where the same jump unannounced steps it in. */
static void test_governor_jump(void **state) {
    (void)state;
    uint32_t hold;
    assert_true(jump_peak(false, 120, &hold) > 0);   /* the case the call is for */
    assert_int_equal(hold, 0);
    assert_int_equal(jump_peak(true, 120, &hold), 0);
    assert_true(hold > 1);   /* the place took frames to fill: the hold was what kept it at rest */
}

/* A boost past what the jobs keep up with, once the new place has filled after a jump, still
 * steps the governor in (test_governor_lod_then_reach is the boost without a jump). */
static void test_governor_boost_after_jump(void **state) {
    (void)state;
    WorldParams p;
    Rig r;
    static Consumer c;
    jump_rig(&r, &c, &p);
    world_note_jump(r.world);
    double x = 40000.0, t = 1.0;
    int f = 0;
    for (; f < (int)WORLD_GOV_JUMP_HOLD_MAX_FRAMES && world_stats(r.world).gov_jump_frames; f++) {
        fly_frame(&r, &c, &x, &t, 80.0);
        if (f % 4 == 3) jobs_wait_idle(r.jobs);
    }
    WorldStats s = world_stats(r.world);
    assert_int_equal(s.gov_jump_frames, 0);
    assert_int_equal(s.gov_jumps_filled, 1);
    assert_int_equal(s.gov_level, 0);
    world_set_job_stretch(r.world, 30.0f);
    int b = 0;
    for (; b < 400 && world_stats(r.world).gov_level == 0; b++) {
        fly_frame(&r, &c, &x, &t, 50000.0);
    }
    printf("boost after a jump: the place filled in %d frames, the governor in after %d frames of boost\n", f, b);
    assert_true(world_stats(r.world).gov_level > 0);
    world_set_job_stretch(r.world, 1.0f);
    rig_down(&r);
}

/* Presets: MEDIUM is the defaults; LOW streams less, HIGH more; only streaming and creation
 * values change (the same world at every level); every value lies in its table range; a world
 * starts with each of them. */
static void test_presets(void **state) {
    (void)state;
    WorldParams def, q[WORLD_PRESET_COUNT];
    world_params_default(&def);
    for (int k = 0; k < WORLD_PRESET_COUNT; k++) {
        world_params_default(&q[k]);
        q[k].gen.seed = 77;   /* a user's own world stays */
        world_params_preset(&q[k], (WorldPreset)k);
        assert_int_equal(q[k].gen.seed, 77);
        q[k].gen.seed = def.gen.seed;
        assert_memory_equal(&q[k].gen, &def.gen, sizeof def.gen);
        for (size_t i = 0; i < world_param_count(); i++) {
            const WorldParamDesc *d = world_param_at(i);
            double v = world_param_get(&q[k], d);
            assert_true(v >= d->min && v <= d->max);
        }
        printf("%s: view radius %d, LOD bands %.1f %.1f %.1f, reach floor %d, pool %u MiB, workers %u\n",
               world_preset_name((WorldPreset)k), q[k].live.view_radius, (double)q[k].live.lod_dist[0],
               (double)q[k].live.lod_dist[1], (double)q[k].live.lod_dist[2], q[k].live.speed_reach_min,
               q[k].create.mesh_pool_mib, q[k].create.workers);
        Rig r;
        rig_up(&r, &q[k], 1);
        assert_int_equal(world_params(r.world)->live.view_radius, q[k].live.view_radius);
        rig_down(&r);
    }
    assert_memory_equal(&q[WORLD_PRESET_MEDIUM], &def, sizeof def);
    assert_true(q[WORLD_PRESET_LOW].live.view_radius < def.live.view_radius);
    assert_true(q[WORLD_PRESET_HIGH].live.view_radius > def.live.view_radius);
    assert_true(q[WORLD_PRESET_LOW].live.lod_dist[2] < def.live.lod_dist[2]);
    assert_string_equal(world_preset_name(WORLD_PRESET_LOW), "low");
    assert_string_equal(world_preset_name((WorldPreset)9), "unknown");
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);   /* progress stays visible under slow emulation */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fills_view_radius),
        cmocka_unit_test(test_flight_evicts_and_pairs_events),
        cmocka_unit_test(test_rebuild_drops_old_epoch),
        cmocka_unit_test(test_live_change_keeps_chunks),
        cmocka_unit_test(test_every_live_value_in_range_works),
        cmocka_unit_test(test_pool_exhaustion_degrades),
        cmocka_unit_test(test_release_mesh),
        cmocka_unit_test(test_lod_swaps_keep_a_mesh),
        cmocka_unit_test(test_lod_swap_keeps_clouds),
        cmocka_unit_test(test_stream_no_heap),
        cmocka_unit_test(test_job_stretch),
        cmocka_unit_test(test_governor_lod_then_reach),
        cmocka_unit_test(test_governor_jump),
        cmocka_unit_test(test_governor_boost_after_jump),
        cmocka_unit_test(test_presets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
