/* skyisles world: the cave table. One entry per cave kind (mode bit, noise fields, row fill,
 * carve rule, parameter rows); the chunk generator and the point query only walk the table. */
#include "world/world_internal.h"

#include <string.h>

/* Cells whose fields stay this far clear of a carve threshold cannot carve (float slack). */
#define CAVE_BOUND_MARGIN 1e-3f

void cave_row_simplex3(const CaveField *f, NoiseWide x0, NoiseFx dx, NoiseWide y, NoiseWide z, float *out, int n) {
    noise_simplex3_row_w(f->seed, x0, dx, y, z, out, n);
}

void cave_row_fbm3(const CaveField *f, NoiseWide x0, NoiseFx dx, NoiseWide y, NoiseWide z, float *out, int n) {
    noise_fbm3_row_w(f->seed, &f->fbm, x0, dx, y, z, out, n);
}

/* One simplex field at prm[0] (a frequency, 1/blocks) on every axis. */
static void setup_simplex(const double *prm, CaveField *f) {
    f->row = cave_row_simplex3;
    f->fx = f->fy = noise_fx_from_double(prm[0]);
}

/* Air where the field exceeds prm[1]: isolated bubbles. */
static void carve_above(const float *prm, const float *const *f, float *t, int n) {
    for (int i = 0; i < n; i++) t[i] = (prm[1] - f[0][i]) * WG_CAVE_K;
}

static uint32_t above_air4(const float *prm, const f32x4 (*f)[4], int nv) {
    const f32x4 thr = f32x4_set1(prm[1]), k = f32x4_set1(WG_CAVE_K), zero = f32x4_set1(0.0f);
    uint32_t air = 0;
    for (int v = 0; v < nv; v++)
        air |= u32x4_movemask(f32x4_cmpge(zero, f32x4_mul(f32x4_sub(thr, f[0][v]), k))) << (4 * v);
    return air;
}

static bool above_never(const float *prm, const float *lo, const float *hi) {
    (void)lo;
    return hi[0] < prm[1] - CAVE_BOUND_MARGIN;
}

static uint32_t above_never4(const float *prm, const f32x4 *lo, const f32x4 *hi) {
    (void)lo;
    return u32x4_movemask(f32x4_cmpgt(f32x4_set1(prm[1] - CAVE_BOUND_MARGIN), hi[0]));
}

/* Air where 1 - |field| exceeds prm[1]: the neighbourhood of the field's zero surface. */
static void carve_ridge(const float *prm, const float *const *f, float *t, int n) {
    for (int i = 0; i < n; i++) {
        float w = 1.0f - (f[0][i] < 0.0f ? -f[0][i] : f[0][i]);
        t[i] = (prm[1] - w) * WG_CAVE_K;
    }
}

static uint32_t ridge_air4(const float *prm, const f32x4 (*f)[4], int nv) {
    const f32x4 thr = f32x4_set1(prm[1]), k = f32x4_set1(WG_CAVE_K), one = f32x4_set1(1.0f), zero = f32x4_set1(0.0f);
    uint32_t air = 0;
    for (int v = 0; v < nv; v++) {
        /* |x| by clearing the sign bit: x < 0 ? -x : x for every x but -0 (whose |x| is +0, and
         * 1 - (+0) and 1 - (-0) are both 1) and NaN (which stays NaN: t is NaN either way). */
        f32x4 w = f32x4_sub(one, f32x4_abs(f[0][v]));
        air |= u32x4_movemask(f32x4_cmpge(zero, f32x4_mul(f32x4_sub(thr, w), k))) << (4 * v);
    }
    return air;
}

static bool ridge_never(const float *prm, const float *lo, const float *hi) {
    float k = 1.0f - prm[1] + CAVE_BOUND_MARGIN;
    return lo[0] > k || hi[0] < -k;
}

static uint32_t ridge_never4(const float *prm, const f32x4 *lo, const f32x4 *hi) {
    float k = 1.0f - prm[1] + CAVE_BOUND_MARGIN;
    return u32x4_movemask(u32x4_or(f32x4_cmpgt(lo[0], f32x4_set1(k)), f32x4_cmpgt(f32x4_set1(-k), hi[0])));
}

/* Two simplex fields at prm[0], y frequency times prm[2]. The squash is a float setting like
 * the other shape factors: its float value scales the frequency. */
static void setup_tubes(const double *prm, CaveField *f) {
    f[0].row = f[1].row = cave_row_simplex3;
    f[0].fx = f[1].fx = noise_fx_from_double(prm[0]);
    f[0].fy = f[1].fy = noise_fx_from_double(prm[0] * (double)(float)prm[2]);
}

/* Air where both fields are near zero at once, a^2 + b^2 < r^2: two surfaces meet in a curve,
 * so the air is a tube. */
static void carve_tubes(const float *prm, const float *const *f, float *t, int n) {
    float r2 = prm[1] * prm[1];
    for (int i = 0; i < n; i++) t[i] = (f[0][i] * f[0][i] + f[1][i] * f[1][i] - r2) * WG_CAVE_K;
}

static uint32_t tubes_air4(const float *prm, const f32x4 (*f)[4], int nv) {
    const f32x4 r2 = f32x4_set1(prm[1] * prm[1]), k = f32x4_set1(WG_CAVE_K), zero = f32x4_set1(0.0f);
    uint32_t air = 0;
    for (int v = 0; v < nv; v++) {
        f32x4 a = f[0][v], b = f[1][v];
        f32x4 t = f32x4_mul(f32x4_sub(f32x4_add(f32x4_mul(a, a), f32x4_mul(b, b)), r2), k);
        air |= u32x4_movemask(f32x4_cmpge(zero, t)) << (4 * v);
    }
    return air;
}

static bool tubes_never(const float *prm, const float *lo, const float *hi) {
    float r = prm[1] * 1.01f + CAVE_BOUND_MARGIN;
    return lo[0] > r || hi[0] < -r || lo[1] > r || hi[1] < -r;
}

static uint32_t tubes_never4(const float *prm, const f32x4 *lo, const f32x4 *hi) {
    float r = prm[1] * 1.01f + CAVE_BOUND_MARGIN;
    const f32x4 rv = f32x4_set1(r), nr = f32x4_set1(-r);
    u32x4 a = u32x4_or(f32x4_cmpgt(lo[0], rv), f32x4_cmpgt(nr, hi[0]));
    u32x4 b = u32x4_or(f32x4_cmpgt(lo[1], rv), f32x4_cmpgt(nr, hi[1]));
    return u32x4_movemask(u32x4_or(a, b));
}

/* FBM of prm[2] octaves on the worm field's seed: the worms' caverns with rough walls. The sum
 * of octaves is normalised, so it sits nearer zero than one octave: at threshold 0.94 three
 * octaves carve about the air the worms carve at 0.9, with ~25% more wall per air voxel. */
static void setup_rough(const double *prm, CaveField *f) {
    f->row = cave_row_fbm3;
    f->fx = f->fy = noise_fx_from_double(prm[0]);
    f->fbm = noise_fbm_default();
    f->fbm.octaves = (uint32_t)(prm[2] + 0.5);
}

/* The built-in kinds. Seed stages are the world's (gen_init uses 1-4, 9, 10); rough worms take
 * the worm field's stage, so their first octave is the worms' own field. */
static const CaveKind k_cheese = {
    "cheese", WORLD_CAVES_CHEESE, 1, {5}, setup_simplex, carve_above, above_never, 2,
    {CAVE_PARAM_L(0, 0, "cheese_scale", 0.005, 0.2, 0.05, TX(CV_CHEESE_SCALE_HELP), TX(CV_CHEESE_SCALE), TX(UNIT_PER_BLOCK), 0.005),
     CAVE_PARAM_L(0, 1, "cheese_threshold", -0.5, 1, 0.4, TX(CV_CHEESE_THRESH_HELP), TX(CV_CHEESE_THRESH), NULL, 0.01)}};

static const CaveKind k_worms = {
    "worms", WORLD_CAVES_WORMS, 1, {6}, setup_simplex, carve_ridge, ridge_never, 2,
    {CAVE_PARAM_L(1, 0, "worm_scale", 0.005, 0.2, 0.03, TX(CV_WORM_SCALE_HELP), TX(CV_WORM_SCALE), TX(UNIT_PER_BLOCK), 0.005),
     CAVE_PARAM_L(1, 1, "worm_threshold", 0, 1, 0.9, TX(CV_WORM_THRESH_HELP), TX(CV_WORM_THRESH), NULL, 0.01)}};

static const CaveKind k_tubes = {
    "tubes", WORLD_CAVES_TUBES, 2, {7, 8}, setup_tubes, carve_tubes, tubes_never, 3,
    {CAVE_PARAM_L(2, 0, "tube_scale", 0.003, 0.1, 0.018, TX(CV_TUBE_SCALE_HELP), TX(CV_TUBE_SCALE), TX(UNIT_PER_BLOCK), 0.001),
     CAVE_PARAM_L(2, 1, "tube_radius", 0, 0.5, 0.085, TX(CV_TUBE_RADIUS_HELP), TX(CV_TUBE_RADIUS), NULL, 0.005),
     CAVE_PARAM_L(2, 2, "tube_y_squash", 0.25, 4, 1.6, TX(CV_TUBE_SQUASH_HELP), TX(CV_TUBE_SQUASH), TX(UNIT_TIMES), 0.05)}};

static const CaveKind k_rough = {
    "rough", WORLD_CAVES_ROUGH, 1, {6}, setup_rough, carve_ridge, ridge_never, 3,
    {CAVE_PARAM_L(3, 0, "rough_scale", 0.005, 0.2, 0.03, TX(CV_ROUGH_SCALE_HELP), TX(CV_ROUGH_SCALE), TX(UNIT_PER_BLOCK), 0.005),
     CAVE_PARAM_L(3, 1, "rough_threshold", 0, 1, 0.94, TX(CV_ROUGH_THRESH_HELP), TX(CV_ROUGH_THRESH), NULL, 0.01),
     CAVE_PARAM_L(3, 2, "rough_octaves", 1, 5, 3, TX(CV_ROUGH_OCT_HELP), TX(CV_ROUGH_OCT), TX(UNIT_OCTAVES), 1)}};

/* The table, by mode bit index. Registration fills free bits at boot, before any world. */
static const CaveKind *g_kinds[WORLD_CAVE_KINDS_MAX] = {&k_cheese, &k_worms, &k_tubes, &k_rough};
/* The built-in kinds' rules and bounds on vectors (a registered kind has none). */
static const struct { const CaveKind *kind; CaveAir4Fn air4; CaveNever4Fn never4; } k_vec[] = {
    {&k_cheese, above_air4, above_never4}, {&k_worms, ridge_air4, ridge_never4}, {&k_tubes, tubes_air4, tubes_never4},
    {&k_rough, ridge_air4, ridge_never4}};

static uint32_t bit_index(uint32_t mode) {
    uint32_t b = 0;
    while (b < 32 && !((mode >> b) & 1u)) b++;
    return b;
}

bool cave_kind_register(const CaveKind *k) {
    if (!k || !k->setup || !k->carve || k->nfields < 1 || k->nfields > CAVE_KIND_FIELDS ||
        k->nparams > WORLD_CAVE_PARAMS_MAX || k->mode == 0 || (k->mode & (k->mode - 1)))
        return false;
    uint32_t b = bit_index(k->mode);
    if (b >= WORLD_CAVE_KINDS_MAX || g_kinds[b]) return false;
    /* Its rows must name its own parameter slots, or settings would land in another kind's. */
    for (uint32_t i = 0; i < k->nparams; i++) {
        const WorldParamDesc *d = &k->params[i];
        if (!d->name || d->offset != offsetof(WorldParams, gen.cave_params[0][0]) + (b * WORLD_CAVE_PARAMS_MAX + i) * sizeof(double) ||
            d->type != WORLD_PT_F64 || d->cls != WORLD_PARAM_GEN || !(d->min <= d->def && d->def <= d->max))
            return false;
    }
    g_kinds[b] = k;
    return true;
}

const CaveKind *cave_kind_at(uint32_t bit) { return bit < WORLD_CAVE_KINDS_MAX ? g_kinds[bit] : NULL; }

size_t cave_param_count(void) {
    size_t n = 0;
    for (uint32_t b = 0; b < WORLD_CAVE_KINDS_MAX; b++) n += g_kinds[b] ? g_kinds[b]->nparams : 0;
    return n;
}

const WorldParamDesc *cave_param_at(size_t i) {
    for (uint32_t b = 0; b < WORLD_CAVE_KINDS_MAX; b++) {
        if (!g_kinds[b]) continue;
        if (i < g_kinds[b]->nparams) return &g_kinds[b]->params[i];
        i -= g_kinds[b]->nparams;
    }
    return NULL;
}

/* ---------------------------------------------------------------- per epoch */
void gen_caves_init(WorldGen *g) {
    g->ncaves = g->ncave_fields = 0;
    for (uint32_t b = 0; b < WORLD_CAVE_KINDS_MAX; b++) {
        const CaveKind *k = g_kinds[b];
        if (!k || !((g->p.cave_modes >> b) & 1u) || g->ncave_fields + k->nfields > WG_CAVE_FIELDS) continue;
        CaveActive *a = &g->caves[g->ncaves++];
        a->kind = k;
        a->air4 = NULL;
        a->never4 = NULL;
        for (size_t i = 0; i < sizeof k_vec / sizeof k_vec[0]; i++)
            if (k_vec[i].kind == k) a->air4 = k_vec[i].air4, a->never4 = k_vec[i].never4;
        a->field0 = g->ncave_fields;
        const double *prm = g->p.cave_params[b];
        for (uint32_t i = 0; i < WORLD_CAVE_PARAMS_MAX; i++) a->prm[i] = (float)prm[i];
        CaveField *f = &g->cave_fields[a->field0];
        memset(f, 0, sizeof *f * k->nfields);
        k->setup(prm, f);
        g->ncave_fields += k->nfields;
    }
}

void gen_cave_row(const WorldGen *g, uint32_t f, int64_t X0, int32_t Y, int64_t Z, float *out, int n) {
    const CaveField *c = &g->cave_fields[f];
    c->row(c, noise_wide_mul_int(c->fx, X0), noise_fx_mul_int(c->fx, WORLD_CELL_XZ), noise_wide_mul_int(c->fy, Y),
           noise_wide_mul_int(c->fx, Z), out, n);
}

/* Cave field f at the n corners (X[i], Y, Z[i]) of a layer's points, or with d its partner
 * (a simplex field on the same frequencies, as the tubes' two are) in one pair call: the
 * corner values the row calls give (lane i of a row is the field at x0 + i*dx). */
static void layer_points(const CaveField *c, const CaveField *d, const int64_t *X, int32_t Y, const int64_t *Z,
                         float *out, float *out_d, int n) {
    if (n <= 0) return;
    /* Offsets from the first point (a chunk's corners: small), on its wide coordinates. */
    NoiseFx x[WG_NX * WG_NX], z[WG_NX * WG_NX];
    for (int i = 0; i < n; i++) x[i] = noise_fx_mul_int(c->fx, X[i] - X[0]), z[i] = noise_fx_mul_int(c->fx, Z[i] - Z[0]);
    NoiseWide ox = noise_wide_mul_int(c->fx, X[0]), oz = noise_wide_mul_int(c->fx, Z[0]);
    NoiseWide y = noise_wide_mul_int(c->fy, Y);
    if (d) noise_simplex3_points2_w(c->seed, d->seed, ox, y, oz, x, z, out, out_d, n);
    else noise_simplex3_points_w(c->seed, ox, y, oz, x, z, out, n);
}

/* An FBM field (cave_row_fbm3) at the n corners of a layer's points: the row calls' values. */
static void layer_points_fbm(const CaveField *c, const int64_t *X, int32_t Y, const int64_t *Z, float *out, int n) {
    NoiseFx x[WG_NX * WG_NX], z[WG_NX * WG_NX];
    for (int i = 0; i < n; i++) x[i] = noise_fx_mul_int(c->fx, X[i] - X[0]), z[i] = noise_fx_mul_int(c->fx, Z[i] - Z[0]);
    noise_fbm3_points_w(c->seed, &c->fbm, noise_wide_mul_int(c->fx, X[0]), noise_wide_mul_int(c->fy, Y),
                        noise_wide_mul_int(c->fx, Z[0]), x, z, out, n);
}

void gen_cave_layer(const WorldGen *g, ChunkScratch *s, int yi, int64_t X0, int64_t Z0, int nx) {
    int32_t Y = WORLD_Y_MIN + yi * WORLD_CELL_Y;
    int64_t X[WG_NX * WG_NX], Z[WG_NX * WG_NX];
    int run_z[WG_NX], run_x[WG_NX], run_at[WG_NX + 1], runs = 0, n = 0;   /* a run per corner row */
    for (int zi = 0; zi < nx; zi++) {
        uint32_t need = s->row_need[yi][zi];
        if (!need) continue;
        int xlo = __builtin_ctz(need), xhi = 31 - __builtin_clz(need);
        run_z[runs] = zi, run_x[runs] = xlo, run_at[runs++] = n;
        for (int xi = xlo; xi <= xhi; xi++, n++) X[n] = X0 + xi * WORLD_CELL_XZ, Z[n] = Z0 + zi * WORLD_CELL_XZ;
    }
    if (n == 0) return;
    run_at[runs] = n;
    float v[2][WG_NX * WG_NX];
    for (uint32_t f = 0; f < g->ncave_fields;) {
        const CaveField *c = &g->cave_fields[f], *d = f + 1 < g->ncave_fields ? c + 1 : NULL;
        if (c->row == cave_row_fbm3) {   /* FBM fields: one points call over the layer */
            layer_points_fbm(c, X, Y, Z, v[0], n);
            for (int r = 0; r < runs; r++)
                memcpy(&s->corner[WF_CAVE + f][yi][run_z[r]][run_x[r]], &v[0][run_at[r]],
                       (size_t)(run_at[r + 1] - run_at[r]) * sizeof(float));
            f++;
            continue;
        }
        if (c->row != cave_row_simplex3) {   /* other fields (a registered kind's): the row calls, row by row */
            for (int r = 0; r < runs; r++)
                gen_cave_row(g, f, X[run_at[r]], Y, Z[run_at[r]], &s->corner[WF_CAVE + f][yi][run_z[r]][run_x[r]],
                             run_at[r + 1] - run_at[r]);
            f++;
            continue;
        }
        if (d && !(d->row == cave_row_simplex3 && d->fx == c->fx && d->fy == c->fy)) d = NULL;
        layer_points(c, d, X, Y, Z, v[0], v[1], n);
        for (uint32_t k = 0; k < (d ? 2u : 1u); k++)
            for (int r = 0; r < runs; r++)
                memcpy(&s->corner[WF_CAVE + f + k][yi][run_z[r]][run_x[r]], &v[k][run_at[r]],
                       (size_t)(run_at[r + 1] - run_at[r]) * sizeof(float));
        f += d ? 2 : 1;
    }
}

void gen_caves_carve(const WorldGen *g, const float *const *fv, float *v, int n) {
    float t[16];
    for (uint32_t k = 0; k < g->ncaves; k++) {
        const CaveActive *a = &g->caves[k];
        a->kind->carve(a->prm, fv + a->field0, t, n);
        /* min(), written so a NaN from a carve rule carves nothing. */
        for (int i = 0; i < n; i++)
            if (t[i] < v[i]) v[i] = t[i];
    }
}

uint32_t gen_caves_air4(const WorldGen *g, const f32x4 (*fv)[4], int nv) {
    uint32_t air = 0;
    for (uint32_t k = 0; k < g->ncaves; k++) {
        const CaveActive *a = &g->caves[k];
        if (a->air4) {
            air |= a->air4(a->prm, fv + a->field0, nv);
            continue;
        }
        float v[CAVE_KIND_FIELDS][16], t[16];
        const float *fp[CAVE_KIND_FIELDS];
        for (uint32_t f = 0; f < a->kind->nfields; f++) {
            for (int i = 0; i < nv; i++) f32x4_store(&v[f][4 * i], fv[a->field0 + f][i]);
            fp[f] = v[f];
        }
        a->kind->carve(a->prm, fp, t, 4 * nv);
        for (int i = 0; i < 4 * nv; i++) air |= (uint32_t)(t[i] <= 0.0f) << i;
    }
    return air;
}

bool gen_caves_never_carve(const WorldGen *g, const float *lo, const float *hi) {
    for (uint32_t k = 0; k < g->ncaves; k++) {
        const CaveActive *a = &g->caves[k];
        if (!a->kind->never_carves || !a->kind->never_carves(a->prm, lo + a->field0, hi + a->field0)) return false;
    }
    return true;
}

uint32_t gen_caves_never4(const WorldGen *g, const f32x4 *lo, const f32x4 *hi) {
    uint32_t never = 15u;
    for (uint32_t k = 0; k < g->ncaves && never; k++) {
        const CaveActive *a = &g->caves[k];
        if (a->never4) {
            never &= a->never4(a->prm, lo + a->field0, hi + a->field0);
            continue;
        }
        if (!a->kind->never_carves) return 0;
        float l[CAVE_KIND_FIELDS][4], h[CAVE_KIND_FIELDS][4];
        for (uint32_t f = 0; f < a->kind->nfields; f++) f32x4_store(l[f], lo[a->field0 + f]), f32x4_store(h[f], hi[a->field0 + f]);
        for (int i = 0; i < 4; i++) {
            float li[CAVE_KIND_FIELDS], hi_i[CAVE_KIND_FIELDS];
            for (uint32_t f = 0; f < a->kind->nfields; f++) li[f] = l[f][i], hi_i[f] = h[f][i];
            if (!a->kind->never_carves(a->prm, li, hi_i)) never &= ~(1u << i);
        }
    }
    return never;
}
