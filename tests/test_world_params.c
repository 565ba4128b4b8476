/* Tests for the world parameter table: one row per setting with a sane range and default, the
 * defaults built from it, text round trips, and a world that works at both ends of every range. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "world/world.h"

static size_t type_size(WorldParamType t) {
    switch (t) {
    case WORLD_PT_BOOL: return sizeof(bool);
    case WORLD_PT_U8: return 1;
    case WORLD_PT_I32: case WORLD_PT_U32: case WORLD_PT_F32: return 4;
    case WORLD_PT_U64: case WORLD_PT_F64: return 8;
    }
    return 0;
}

/* Every row: a unique lower_snake name, a help line, a range holding its default, a place
 * inside its class's struct; and world_params_default gives exactly the table's defaults. */
static void test_table_rows(void **state) {
    (void)state;
    size_t n = world_param_count();
    assert_true(n >= 50);
    assert_null(world_param_at(n));
    WorldParams def;
    world_params_default(&def);
    uint32_t by_class[3] = {0};
    for (size_t i = 0; i < n; i++) {
        const WorldParamDesc *d = world_param_at(i);
        assert_non_null(d->name);
        assert_true(strlen(d->name) > 1 && strlen(d->name) < 32);
        for (const char *c = d->name; *c; c++) assert_true(islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '_');
        assert_ptr_equal(world_param_find(d->name), d);
        for (size_t j = 0; j < i; j++) assert_string_not_equal(world_param_at(j)->name, d->name);
        assert_non_null(d->help);
        assert_true(strlen(d->help) > 8 && !strchr(d->help, '\n'));
        if (!(d->min <= d->def && d->def <= d->max)) fail_msg("%s: default %g outside %g..%g", d->name, d->def, d->min, d->max);
        size_t lo, hi;
        switch (d->cls) {
        case WORLD_PARAM_GEN: lo = offsetof(WorldParams, gen); hi = lo + sizeof(WorldGenParams); break;
        case WORLD_PARAM_LIVE: lo = offsetof(WorldParams, live); hi = lo + sizeof(WorldLiveParams); break;
        default: lo = offsetof(WorldParams, create); hi = lo + sizeof(WorldCreateParams); break;
        }
        assert_true(d->offset >= lo && d->offset + type_size(d->type) <= hi);
        by_class[d->cls]++;
        double v = world_param_get(&def, d);
        if (d->type == WORLD_PT_F32) assert_true(v == (double)(float)d->def);
        else assert_true(v == d->def);
    }
    assert_true(by_class[WORLD_PARAM_GEN] > 20 && by_class[WORLD_PARAM_LIVE] >= 8 && by_class[WORLD_PARAM_CREATE] >= 3);
    assert_null(world_param_find("no_such_thing"));
    /* The classes hold what the streamer reads live and what sizes memory. */
    assert_int_equal(world_param_find("view_radius")->cls, WORLD_PARAM_LIVE);
    assert_int_equal(world_param_find("lod_dist_1")->cls, WORLD_PARAM_LIVE);
    assert_int_equal(world_param_find("max_results_per_frame")->cls, WORLD_PARAM_LIVE);
    assert_int_equal(world_param_find("mesh_pool_mib")->cls, WORLD_PARAM_CREATE);
    assert_int_equal(world_param_find("seed")->cls, WORLD_PARAM_GEN);
    assert_int_equal(world_param_find("view_radius")->min, WORLD_VIEW_RADIUS_MIN);
    assert_int_equal(world_param_find("view_radius")->max, WORLD_VIEW_RADIUS_MAX);
}

/* Text in, text out: every default formats and parses back to the same bits; out of range,
 * fractions for integers, junk and unknown names are refused with the name and range. */
static void test_text_round_trip(void **state) {
    (void)state;
    WorldParams def, p;
    world_params_default(&def);
    world_params_default(&p);
    for (size_t i = 0; i < world_param_count(); i++) {
        const WorldParamDesc *d = world_param_at(i);
        char v[48], line[96];
        world_param_format(&def, d, v, sizeof v);
        snprintf(line, sizeof line, "%s=%s", d->name, v);
        SkyError err = {0};
        if (!world_param_parse(&p, line, &err)) fail_msg("%s: %s", line, err.msg);
        assert_true(world_param_equal(&p, &def, d));
        /* Both ends parse too. */
        if (d->type != WORLD_PT_U64) {
            snprintf(line, sizeof line, "%s=%.17g", d->name, d->max);
            assert_true(world_param_parse(&p, line, &err));
            assert_true(world_param_get(&p, d) == (d->type == WORLD_PT_F32 ? (double)(float)d->max : d->max));
        }
    }
    const char *bad[] = {"view_radius=65", "view_radius=0", "view_radius=2.5", "base_scale=abc", "base_scale=",
                         "nonsense=3", "=3", "seed=-1", "seed", "cloud_alpha=256"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        SkyError err = {0};
        assert_false(world_param_parse(&p, bad[i], &err));
        assert_true(err.code != 0 && strlen(err.msg) > 10);
    }
    SkyError err = {0};
    assert_false(world_param_parse(&p, "view_radius=99", &err));
    assert_non_null(strstr(err.msg, "view_radius"));
    assert_non_null(strstr(err.msg, "1..64"));
    /* Booleans also read as YAML writes them. */
    assert_true(world_param_parse(&p, "clouds=false", &err));
    assert_false(p.gen.clouds);
    assert_true(world_param_parse(&p, "clouds=true", &err));
    assert_true(p.gen.clouds);
    assert_false(world_param_parse(&p, "clouds=maybe", &err));
    /* Seeds are exact to the last bit. */
    assert_true(world_param_parse(&p, "seed=18446744073709551615", &err));
    assert_true(p.gen.seed == UINT64_MAX);
    assert_true(world_param_parse(&p, "seed=0x123456789abcdef1", &err));
    assert_true(p.gen.seed == 0x123456789abcdef1ull);
    /* world_param_set clamps and rounds. */
    world_param_set(&p, world_param_find("view_radius"), 1000.0);
    assert_int_equal(p.live.view_radius, WORLD_VIEW_RADIUS_MAX);
    world_param_set(&p, world_param_find("base_octaves"), 2.6);
    assert_int_equal(p.gen.base_octaves, 3);
    world_param_set(&p, world_param_find("base_amplitude"), 3.0);
    world_param_set(&p, world_param_find("base_amplitude"), NAN);
    assert_true(p.gen.base_amplitude == 3.0f);
}

static uint64_t mesh_hash(const ChunkMesh *m) {
    uint64_t h = 0;
    for (uint32_t i = 0; i < m->opaque_parts + m->cloud_parts; i++)
        h = hash_fnv1a64(m->parts[i].verts, m->parts[i].vert_count * sizeof(WorldVertex), h);
    return h;
}

/* Builds chunks at LOD 0 and 3 and queries the field with p: no crash, finite density,
 * every vertex inside the chunk and the vertical range. Returns the hash of the meshes. */
static uint64_t exercise(const WorldParams *p, const char *what) {
    MemBudget b;
    SkyError err = {0};
    assert_true(mem_budget_init(&b, (size_t)64 << 20, &err));
    World *w = world_create(&b, NULL, p, NULL, &err);
    if (!w) fail_msg("%s: %s", what, err.msg);
    uint64_t h = 0;
    const int32_t at[][2] = {{0, 0}, {-7, 12}};
    for (int c = 0; c < 2; c++)
        for (int lod = 0; lod <= WORLD_LOD_MAX; lod += WORLD_LOD_MAX) {
            ChunkMesh m;
            WorldBuildTiming t;
            bool ok = world_build_chunk_lod(w, at[c][0], at[c][1], lod, 30.0, &m, &t);
            if (!ok) fail_msg("%s: chunk (%d,%d) lod %d ran out of slabs", what, at[c][0], at[c][1], lod);
            for (uint32_t i = 0; i < m.opaque_parts + m.cloud_parts; i++)
                for (uint32_t k = 0; k < m.parts[i].vert_count; k++) {
                    const WorldVertex *v = &m.parts[i].verts[k];
                    if (v->x < 0 || v->x > CHUNK_SIZE || v->z < 0 || v->z > CHUNK_SIZE || v->y < WORLD_Y_MIN ||
                        v->y > WORLD_Y_MAX || v->normal > 5)
                        fail_msg("%s: vertex out of the chunk (%d,%d,%d)", what, v->x, v->y, v->z);
                }
            h = hash_fnv1a64(&h, sizeof h, mesh_hash(&m));
            world_free_mesh(w, &m);
        }
    for (int i = 0; i < 40; i++) {
        double x = i * 37.25 - 700.0, y = (i * 13) % 170 - 4.5, z = i * -21.5 + 40.0;
        float d = world_density_at(w, x, y, z);
        if (!isfinite(d)) fail_msg("%s: density %f at (%g,%g,%g)", what, d, x, y, z);
        (void)world_cloud_at_params(&world_params(w)->gen, 12.0, x, y, z);
    }
    world_destroy(w);
    mem_budget_release(&b);
    return h;
}

/* Any value a panel can set gives a world that works: every generation parameter at both ends
 * of its range (one at a time, the others at their defaults), and the ends change the world. */
static void test_every_gen_value_in_range_works(void **state) {
    (void)state;
    WorldParams base;
    world_params_default(&base);
    base.live.view_radius = 2;
    base.create.mesh_pool_mib = 8;
    /* Every cave kind on, so each kind's parameters act at their ends. */
    base.gen.cave_modes = WORLD_CAVES_CHEESE | WORLD_CAVES_WORMS | WORLD_CAVES_TUBES | WORLD_CAVES_ROUGH;
    uint64_t h0 = exercise(&base, "defaults");
    uint32_t rows = 0, changed = 0;
    for (size_t i = 0; i < world_param_count(); i++) {
        const WorldParamDesc *d = world_param_at(i);
        if (d->cls != WORLD_PARAM_GEN) continue;
        for (int end = 0; end < 2; end++) {
            WorldParams p = base;
            world_param_set(&p, d, end ? d->max : d->min);
            char what[96];
            snprintf(what, sizeof what, "%s=%g", d->name, end ? d->max : d->min);
            uint64_t h = exercise(&p, what);
            changed += h != h0;
        }
        rows++;
    }
    printf("%u generation parameters at both ends: %u of %u worlds differ from the defaults\n", rows, changed, 2 * rows);
    assert_true(rows > 20);
    assert_true(changed > rows);   /* the ranges reach: most ends change what is built */
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_rows),
        cmocka_unit_test(test_text_round_trip),
        cmocka_unit_test(test_every_gen_value_in_range_works),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
