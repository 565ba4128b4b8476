/* skyisles world: the density field at a point (collision, tests): scalar noise at the same
 * corners, interpolated in the same order as the chunk generator, so both see the same float. */
#include "world/world_internal.h"

#include <math.h>

/* Island coverage gain: fbm2 peaks near 0.4, so coverage reaches ~1 at island centres. */
#define ISLAND_GAIN 3.0f
/* Blocks past the home island's rim over which the archipelago's islands come back. */
#define HOME_CLEAR 96.0f
/* An airstrip's level ground reaches this far past its marked edges in the world: a corner cell
 * beyond them (4 blocks) and a block (the field is level 6 m past them). */
#define STRIP_FLAT_REACH 5.0f
#define STRIP_SMOOTH_ALONG 50.0f   /* and along its line past its ends (island/strips.c counts on it) */

static float home_cell(const IslandField *h, float fx, float fz, uint32_t *iu, uint32_t *iv) {
    float half = 0.5f * (float)h->size;
    float u = (fx - h->centre_x) / h->cell_meters + half;
    float v = (fz - h->centre_z) / h->cell_meters + half;
    if (!(u >= 0.0f && v >= 0.0f && u < (float)h->size && v < (float)h->size)) return -1.0f;
    *iu = (uint32_t)u;
    *iv = (uint32_t)v;
    return 1.0f;
}

uint8_t gen_home_type(const WorldGen *g, int64_t bx, int64_t bz) {
    const IslandField *h = g->isl.f;
    if (!g->isl.on || !gen_island_owns(&g->isl, bx, bz)) return ISLAND_FIELD_OFF;
    uint32_t iu, iv;
    float fx = (float)(bx - g->isl.ox) + 0.5f, fz = (float)(bz - g->isl.oz) + 0.5f;
    if (home_cell(h, fx, fz, &iu, &iv) < 0.0f) return ISLAND_FIELD_OFF;
    uint8_t t = h->type[(size_t)iv * h->size + iu];
    if (t != ISLAND_FIELD_OFF && h->n_strips && island_field_strip_at(h, fx, fz, 0.0f, 0.0f) >= 0) return WORLD_HOME_STRIP;
    if (t != ISLAND_FIELD_OFF && island_field_path_at(h, fx, fz)) return WORLD_HOME_PATH;
    return t;
}

int32_t gen_home_water_y(const WorldGen *g, int64_t bx, int64_t bz) {
    const IslandField *h = g->isl.f;
    if (!g->isl.on || !h->water_dm || !gen_island_owns(&g->isl, bx, bz)) return 0;
    uint32_t iu, iv;
    if (home_cell(h, (float)(bx - g->isl.ox) + 0.5f, (float)(bz - g->isl.oz) + 0.5f, &iu, &iv) < 0.0f) return 0;
    uint16_t dm = h->water_dm[(size_t)iv * h->size + iu];
    return dm ? (int32_t)floorf(g->isl.sea + (float)dm * 0.1f + 0.5f) : 0;
}

bool gen_strip_shield(const WorldGen *g, int64_t X0, int32_t Y0, int64_t Z0) {
    if (!g->isl.on || !g->isl.f->n_strips || !gen_island_owns(&g->isl, X0, Z0)) return false;
    const IslandField *h = g->isl.f;
    for (uint32_t k = 0; k < h->n_strips; k++) {
        float top = g->isl.sea + h->strips[k].elev_m;
        if (!((float)Y0 < top && (float)(Y0 + WORLD_CELL_Y) > top - (float)STRIP_SHIELD)) continue;
        bool all = true;
        for (int c = 0; c < 4 && all; c++)
            all = island_field_strip_near(h, k, (float)(X0 - g->isl.ox + (c & 1) * WORLD_CELL_XZ),
                                          (float)(Z0 - g->isl.oz + (c >> 1) * WORLD_CELL_XZ),
                                          STRIP_FLAT_REACH, STRIP_FLAT_REACH);
        if (all) return true;
    }
    return false;
}

bool gen_home_near_strip(const WorldGen *g, int64_t bx, int64_t bz, float along, float side) {
    if (!g->isl.on || !g->isl.f->n_strips || !gen_island_owns(&g->isl, bx, bz)) return false;
    return island_field_strip_at(g->isl.f, (float)(bx - g->isl.ox) + 0.5f, (float)(bz - g->isl.oz) + 0.5f, along, side) >= 0;
}

/* Airstrip marking, PSX-plain: a gravel surface, white centre dashes (1.5 m wide), white threshold bars. */
#define STRIP_RGB 0x9E9C94u   /* packed grey gravel: apart from sand, grass and rock alike */
#define STRIP_PAINT_RGB 0xECECE4u
#define STRIP_DASH_M 12.0f       /* a dash and its gap */
#define STRIP_BARS_M 12.0f       /* threshold bars from 2 m inside each end to this */

uint32_t gen_home_strip_rgb(const WorldGen *g, int64_t bx, int64_t bz) {
    const IslandField *h = g->isl.f;
    float fx = (float)(bx - g->isl.ox) + 0.5f, fz = (float)(bz - g->isl.oz) + 0.5f;
    int k = island_field_strip_at(h, fx, fz, 0.0f, 0.0f);
    if (k < 0) return STRIP_RGB;
    const IslandFieldStrip *s = &h->strips[k];
    float px = fx - h->centre_x - s->ax, pz = fz - h->centre_z - s->az;
    float along = px * s->dir_x + pz * s->dir_z, side = pz * s->dir_x - px * s->dir_z;
    float from_end = along < 0.5f * s->length_m ? along : s->length_m - along;
    float aside = side < 0.0f ? -side : side;
    if (from_end >= 2.0f && from_end < STRIP_BARS_M) {   /* bars 1.5 m wide, 1.5 m apart, none on the centre line */
        float q = aside - 1.5f;
        return q >= 0.0f && q < 0.5f * s->width_m - 2.0f && q - 3.0f * floorf(q / 3.0f) < 1.5f ? STRIP_PAINT_RGB : STRIP_RGB;
    }
    if (aside < 0.75f && from_end >= STRIP_BARS_M + 4.0f && along - STRIP_DASH_M * floorf(along / STRIP_DASH_M) < 0.5f * STRIP_DASH_M)
        return STRIP_PAINT_RGB;
    return STRIP_RGB;
}

/* Cell (i, j)'s ground colour channel k, clamped to the field; `own` off the island. */
static float cell_rgb(const IslandField *h, int32_t i, int32_t j, int k, float own) {
    int32_t n = (int32_t)h->size - 1;
    i = i < 0 ? 0 : i > n ? n : i;
    j = j < 0 ? 0 : j > n ? n : j;
    size_t c = (size_t)j * h->size + (size_t)i;
    return h->type[c] == ISLAND_FIELD_OFF ? own : (float)h->ground_rgb[c * 3 + (size_t)k];
}

uint32_t gen_home_rgb(const WorldGen *g, int64_t bx, int64_t bz, uint8_t t) {
    const IslandField *h = g->isl.f;
    uint32_t own = t < h->n_types ? h->type_rgb[t] : 0x808080u;
    if (!h->ground_rgb) return own;
    uint32_t iu, iv;
    float fx = (float)(bx - g->isl.ox) + 0.5f, fz = (float)(bz - g->isl.oz) + 0.5f;
    if (home_cell(h, fx, fz, &iu, &iv) < 0.0f) return own;
    const uint8_t *oc = &h->ground_rgb[((size_t)iv * h->size + iu) * 3];
    /* Bilinear between the four cell centres around the block's centre, per channel. */
    float half = 0.5f * (float)h->size;
    float u = (fx - h->centre_x) / h->cell_meters + half - 0.5f;
    float v = (fz - h->centre_z) / h->cell_meters + half - 0.5f;
    float u0 = floorf(u), v0 = floorf(v), du = u - u0, dv = v - v0;
    int32_t i = (int32_t)u0, j = (int32_t)v0;
    uint32_t rgb = 0;
    for (int k = 0; k < 3; k++) {
        float o = (float)oc[k];
        float w00 = cell_rgb(h, i, j, k, o), w10 = cell_rgb(h, i + 1, j, k, o);
        float w01 = cell_rgb(h, i, j + 1, k, o), w11 = cell_rgb(h, i + 1, j + 1, k, o);
        float top = w00 + (w10 - w00) * du, bottom = w01 + (w11 - w01) * du;
        float c = top + (bottom - top) * dv;
        uint32_t q = c <= 0.0f ? 0u : c >= 255.0f ? 255u : (uint32_t)(c + 0.5f);
        rgb = rgb << 8 | q;
    }
    return rgb;
}

/* The approach corridors of the home island's airstrips: beyond each end, along its line, no
 * floating island of the archipelago for STRIP_CORRIDOR_M, in a lane that widens with distance
 * (a 3-degree glide path is 79 m up at its far end, above every lens). */
#define STRIP_CORRIDOR_M 1500.0f
#define STRIP_CORRIDOR_W0 60.0f
#define STRIP_CORRIDOR_SPREAD 0.1f

/* The island coverage the corridors leave at column (dx, dz) (blocks from the field's centre). */
static float strip_corridors(const IslandField *h, float dx, float dz, float isl_s) {
    for (uint32_t k = 0; k < h->n_strips; k++) {
        const IslandFieldStrip *s = &h->strips[k];
        float px = dx - 0.5f * (s->ax + s->bx), pz = dz - 0.5f * (s->az + s->bz);
        float along = px * s->dir_x + pz * s->dir_z, side = pz * s->dir_x - px * s->dir_z;
        float past = (along < 0.0f ? -along : along) - 0.5f * s->length_m;
        if (!(past > 0.0f && past < STRIP_CORRIDOR_M)) continue;
        float out = (side < 0.0f ? -side : side) - (STRIP_CORRIDOR_W0 + STRIP_CORRIDOR_SPREAD * past);
        float clear = out * (1.0f / HOME_CLEAR) - 0.5f;
        if (clear < isl_s) isl_s = clear;
    }
    return isl_s;
}

void gen_column_finish(const WorldGen *g, int64_t X, int64_t Z, float n_base, float n_isl, float n_islh,
                       GenColumn *c) {
    c->base = g->p.base_offset + n_base * g->p.base_amplitude;
    c->isl_s = (n_isl - g->p.island_threshold) * ISLAND_GAIN;
    c->isl_c = g->p.island_height + n_islh * g->p.island_height_var;
    c->home_on = 0;
    c->home_top = 0.0f;
    c->home_bottom = 0.0f;
    c->home_rough = 1.0f;
    const IslandField *h = g->isl.f;
    if (!g->isl.on || !gen_island_owns(&g->isl, X, Z)) return;
    float lx = (float)(X - g->isl.ox), lz = (float)(Z - g->isl.oz);   /* metres of the field */
    float dx = lx - h->centre_x, dz = lz - h->centre_z;
    float reach = h->radius_m + STRIP_CORRIDOR_M + HOME_CLEAR;
    if (h->n_strips && dx > -reach && dx < reach && dz > -reach && dz < reach)
        c->isl_s = strip_corridors(h, dx, dz, c->isl_s);
    float lim = h->radius_m + HOME_CLEAR;
    if (!(dx > -lim && dx < lim && dz > -lim && dz < lim)) return;
    float d = sqrtf(dx * dx + dz * dz);
    /* No floating island of the archipelago over the home island: coverage below -0.5 leaves no
     * lens (docs/world.md), rising to 0 at HOME_CLEAR blocks past its rim. */
    float clear = (d - lim) * (1.0f / HOME_CLEAR);
    if (clear < c->isl_s) c->isl_s = clear;
    uint32_t iu, iv;
    if (home_cell(h, lx, lz, &iu, &iv) < 0.0f) return;
    size_t k = (size_t)iv * h->size + iu;
    if (h->type[k] == ISLAND_FIELD_OFF) return;
    /* Real units: one metre of the field is one block over the island's sea level. */
    float under;
    if (h->under_dm) {
        under = (float)h->under_dm[k] * 0.1f;
    } else {
        float r = d / (h->radius_m > 1.0f ? h->radius_m : 1.0f);
        if (r > 1.0f) r = 1.0f;
        under = g->p.island_bottom * (0.3f + 0.7f * (1.0f - r));
    }
    c->home_on = 1;
    c->home_top = g->isl.sea + (float)h->elevation_dm[k] * 0.1f;
    c->home_bottom = g->isl.sea - under;
    /* An airstrip's corners, and the next ones out, carry no roughness: its blocks lie level; nor
     * does the ground of its approach lanes just past its ends, which stays under the glide path. */
    if (h->n_strips && island_field_strip_at(h, lx, lz, STRIP_SMOOTH_ALONG, STRIP_FLAT_REACH) >= 0)
        c->home_rough = 0.0f;
}

void gen_column_point(const WorldGen *g, int64_t X, int64_t Z, GenColumn *out) {
    float nb = noise_fbm2_w(g->s_base, &g->fb_base, noise_wide_mul_int(g->f_base, X), noise_wide_mul_int(g->f_base, Z));
    float ni = noise_fbm2_w(g->s_isl, &g->fb_isl, noise_wide_mul_int(g->f_isl, X), noise_wide_mul_int(g->f_isl, Z));
    float nh = noise_simplex2_w(g->s_islh, noise_wide_mul_int(g->f_islh, X), noise_wide_mul_int(g->f_islh, Z));
    gen_column_finish(g, X, Z, nb, ni, nh, out);
}

double world_prevailing_wind(uint64_t seed) {
    return (double)(hash_u32(world_seed32(seed) ^ WORLD_WIND_SALT_DIR) & 0xffffu) / 65536.0 * 6.283185307179586;
}

/* The drift's knot k: a hashed offset in a disc of radius amp about the straight drift (none at
 * k = 0, so a fresh world's clouds start where the field puts them). */
static void drift_knot(uint32_t s, int64_t k, double amp, double out[2]) {
    out[0] = out[1] = 0.0;
    if (k == 0) return;
    uint32_t h = hash3_u32(s ^ WIND_SALT_DRIFT, (int32_t)(uint32_t)(uint64_t)k, (int32_t)(uint32_t)((uint64_t)k >> 32), 0);
    double sn, cs, r = amp * (double)(h >> 16) / 65536.0;
    det_sincos((double)(h & 0xffffu) / 65536.0 * 6.283185307179586, &sn, &cs);
    out[0] = r * cs;
    out[1] = r * sn;
}

void world_cloud_drift(const WorldGenParams *p, double time_s, double out[2]) {
    out[0] = out[1] = 0.0;
    if (!(time_s == time_s)) return;
    double v = (double)p->wind_speed, t = time_s / WORLD_WIND_KNOT_S;
    if (t > 1e12) t = 1e12;   /* far past any flight; keeps k and the drift in range */
    if (t < -1e12) t = -1e12;
    double kf = floor(t), f = t - kf, ps, pc, a[2], b[2];
    uint32_t s = world_seed32(p->seed);
    det_sincos(world_prevailing_wind(p->seed), &ps, &pc);
    drift_knot(s, (int64_t)kf, 0.5 * v * WORLD_WIND_KNOT_S, a);
    drift_knot(s, (int64_t)kf + 1, 0.5 * v * WORLD_WIND_KNOT_S, b);
    double run = v * t * WORLD_WIND_KNOT_S;
    out[0] = run * pc + a[0] + (b[0] - a[0]) * f;
    out[1] = run * ps + a[1] + (b[1] - a[1]) * f;
}

/* Whole cells of blocks: the corners' lattice moves by whole cells, so a chunk created later holds
 * the same clouds as one created earlier, moved, not resampled between the corners. */
static int64_t whole_cells(double d) {
    double s = floor(d / WORLD_CELL_XZ) * WORLD_CELL_XZ;
    if (s != s) return 0;   /* a non-finite wind speed from raw parameters: no drift, not a NaN cast */
    if (s > 1e15) s = 1e15;
    if (s < -1e15) s = -1e15;
    return (int64_t)s;
}

void world_cloud_shift(const WorldGenParams *p, double time_s, int64_t out[2]) {
    double d[2];
    world_cloud_drift(p, time_s, d);
    /* The field is read at (x, z) + shift: the clouds stand where the air carried them from. */
    out[0] = whole_cells(-d[0]);
    out[1] = whole_cells(-d[1]);
}

/* The wind shift is at most 1e15 blocks (whole_cells), so X + shift does not overflow:
 * freq * (X + shift) exactly, the row path's x0 + i*dx. */
float gen_cloud_corner(const WorldGen *g, const int64_t shift[2], int64_t X, int32_t Y, int64_t Z) {
    return noise_fbm3_w(g->s_cloud, &g->fb_cloud, noise_wide_mul_int(g->f_cloud, X + shift[0]),
                        noise_wide_mul_int(g->f_cloud, Y), noise_wide_mul_int(g->f_cloud, Z + shift[1]));
}

void gen_corner_point(const WorldGen *g, const GenColumn *c, int64_t X, int32_t Y, int64_t Z, float *d_out, float *i_out) {
    float n3 = noise_fbm3_w(g->s_n3, &g->fb_n3, noise_wide_mul_int(g->f_n3, X), noise_wide_mul_int(g->f_n3y, Y),
                            noise_wide_mul_int(g->f_n3, Z));
    gen_corner_dense(g, c, (float)Y, n3, d_out, i_out);
}

typedef struct PointCell {
    int64_t X0, Z0;
    int32_t Y0;
    float tx, ty, tz;
} PointCell;

static void point_cell(double x, double y, double z, PointCell *c) {
    double fx = floor(x / WORLD_CELL_XZ), fy = floor((y - WORLD_Y_MIN) / WORLD_CELL_Y), fz = floor(z / WORLD_CELL_XZ);
    c->X0 = (int64_t)fx * WORLD_CELL_XZ;
    c->Y0 = WORLD_Y_MIN + (int32_t)fy * WORLD_CELL_Y;
    c->Z0 = (int64_t)fz * WORLD_CELL_XZ;
    /* X0 <= x < X0 + 4 and X0 an integer a double holds: x - X0 is exact (Sterbenz), so the
     * in-cell offset keeps its precision at any distance */
    c->tx = (float)((x - (double)c->X0) * (1.0 / WORLD_CELL_XZ));
    c->ty = (float)((y - c->Y0) * (1.0 / WORLD_CELL_Y));
    c->tz = (float)((z - (double)c->Z0) * (1.0 / WORLD_CELL_XZ));
}

/* Inside the generated world (WORLD_COORD_LIMIT, world.h) and not NaN or infinite; y within a
 * range whose cell index fits int32 (the field is plain air or rock far above and below). */
static bool point_in_range(double x, double y, double z) {
    return world_coord_usable(x, z) && y > -16777216.0 && y < 16777216.0;
}

static float cell_eval(const WorldGen *g, const float cd[2][2][2], const float ci[2][2][2], const GenCaveCorners *cc,
                       const PointCell *p, double y, float *terrain_out);

/* The field at a point; *terrain_out (optional) gets the value before caves carve it. */
static float point_eval(const WorldGen *g, double x, double y, double z, float *terrain_out) {
    if (!point_in_range(x, y, z)) {
        float v = y < WORLD_Y_MIN ? 1.0f : -1.0f;
        if (terrain_out) *terrain_out = v;
        return v;
    }
    PointCell pc;
    point_cell(x, y, z, &pc);
    GenColumn col[2][2];
    for (int zi = 0; zi < 2; zi++)
        for (int xi = 0; xi < 2; xi++)
            gen_column_point(g, pc.X0 + xi * WORLD_CELL_XZ, pc.Z0 + zi * WORLD_CELL_XZ, &col[zi][xi]);
    float cd[2][2][2], ci[2][2][2];
    for (int yi = 0; yi < 2; yi++) {
        int32_t Y = pc.Y0 + yi * WORLD_CELL_Y;
        for (int zi = 0; zi < 2; zi++)
            for (int xi = 0; xi < 2; xi++) {
                gen_corner_point(g, &col[zi][xi], pc.X0 + xi * WORLD_CELL_XZ, Y, pc.Z0 + zi * WORLD_CELL_XZ,
                                 &cd[yi][zi][xi], &ci[yi][zi][xi]);
            }
    }
    return cell_eval(g, cd, ci, NULL, &pc, y, terrain_out);
}

/* The field at a point of cell pc from the cell's D and I corners: the trilinear terrain, then
 * the caves, which carve it, from their fields' corners (the caller's cc, or the row calls'). */
static float cell_eval(const WorldGen *g, const float cd[2][2][2], const float ci[2][2][2], const GenCaveCorners *cc,
                       const PointCell *p, double y, float *terrain_out) {
    const PointCell pc = *p;
    float yc = (float)y;
    float v = gen_terrain(g, wtrilerp(cd, pc.tx, pc.ty, pc.tz), wtrilerp(ci, pc.tx, pc.ty, pc.tz), yc);
    if (terrain_out) *terrain_out = v;
    if (!gen_caves_apply(g, v, yc) || gen_strip_shield(g, pc.X0, pc.Y0, pc.Z0)) return v;
    float c[WG_CAVE_FIELDS][2][2][2], fv[WG_CAVE_FIELDS];
    const float *fp[WG_CAVE_FIELDS];
    if (cc) cc->fill(cc->ctx, c);
    else
        for (uint32_t f = 0; f < g->ncave_fields; f++)
            for (int yi = 0; yi < 2; yi++)
                for (int zi = 0; zi < 2; zi++)
                    for (int xi = 0; xi < 2; xi++)
                        gen_cave_row(g, f, pc.X0 + xi * WORLD_CELL_XZ, pc.Y0 + yi * WORLD_CELL_Y, pc.Z0 + zi * WORLD_CELL_XZ,
                                     &c[f][yi][zi][xi], 1);
    for (uint32_t f = 0; f < g->ncave_fields; f++) {
        fv[f] = wtrilerp(c[f], pc.tx, pc.ty, pc.tz);
        fp[f] = &fv[f];
    }
    gen_caves_carve(g, fp, &v, 1);
    return v;
}

float gen_density_point(const WorldGen *g, double x, double y, double z) { return point_eval(g, x, y, z, NULL); }

float gen_density_in_cell(const WorldGen *g, const float cd[2][2][2], const float ci[2][2][2], const GenCaveCorners *cc,
                          double x, double y, double z) {
    if (!point_in_range(x, y, z)) return point_eval(g, x, y, z, NULL);
    PointCell pc;
    point_cell(x, y, z, &pc);
    return cell_eval(g, cd, ci, cc, &pc, y, NULL);
}

bool gen_cloud_point(const WorldGen *g, double time_s, double x, double y, double z) {
    if (!g->clouds || !point_in_range(x, y, z)) return false;
    float yc = (float)y;
    float w = gen_cloud_weight(g, yc);
    if (!(w > 0.0f)) return false;
    float terrain;
    point_eval(g, x, y, z, &terrain);
    if (terrain > 0.0f) return false;   /* never inside rock, nor in the caves carved from it */
    PointCell pc;
    point_cell(x, y, z, &pc);
    int64_t shift[2];
    world_cloud_shift(&g->p, time_s, shift);
    float ck[2][2][2];
    for (int yi = 0; yi < 2; yi++)
        for (int zi = 0; zi < 2; zi++)
            for (int xi = 0; xi < 2; xi++)
                ck[yi][zi][xi] = gen_cloud_corner(g, shift, pc.X0 + xi * WORLD_CELL_XZ, pc.Y0 + yi * WORLD_CELL_Y,
                                                  pc.Z0 + zi * WORLD_CELL_XZ);
    return wtrilerp(ck, pc.tx, pc.ty, pc.tz) * w > g->p.cloud_threshold;
}
