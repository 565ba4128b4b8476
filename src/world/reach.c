/* skyisles world: what the streamer asks for each frame. The view's geometry (camera, lead
 * point, heading, reach), priorities by time to reach, the bounded pick heap, LOD by distance from
 * the anchor, and the speed governor that coarsens far LOD bands, then pulls the reach in, when
 * generation falls behind. It writes only its own state (StreamGovernor) and its callers' outputs:
 * the streamer owns the World and hands in what each call reads (reach.h). */
#include "world/reach.h"

#include <math.h>

void stream_view_geom(const WorldLiveParams *p, double keep, double reach, const WorldView *v, ViewGeom *g) {
    g->radius = p->view_radius;
    g->keep = keep;
    g->reach = reach;
    g->need = g->reach - 1.0;
    g->ccx = v->x / CHUNK_SIZE;
    g->ccz = v->z / CHUNK_SIZE;
    double len = sqrt((double)v->dir_x * v->dir_x + (double)v->dir_z * v->dir_z);
    g->dx = len > 1e-3 ? v->dir_x / len : 0.0;
    g->dz = len > 1e-3 ? v->dir_z / len : 0.0;
    g->speed = len > 1e-3 && v->speed > 0.0f ? (double)v->speed * len / CHUNK_SIZE : 0.0;
    double lead = (double)v->speed * p->lookahead_s / CHUNK_SIZE;
    if (!(lead > 0.0)) lead = 0.0;
    if (lead > LOOKAHEAD_MAX) lead = LOOKAHEAD_MAX;
    g->lx = g->ccx + g->dx * lead;
    g->lz = g->ccz + g->dz * lead;
    double t = tan((double)(v->fov_y_rad > 0.05f ? v->fov_y_rad : 1.2f) * 0.5) * (v->aspect > 0.1f ? v->aspect : 1.0f);
    g->cos_half_fov = 1.0 / sqrt(1.0 + t * t);
}

double stream_dist_to(double px, double pz, int64_t cx, int64_t cz) {
    double a = (double)cx + 0.5 - px, b = (double)cz + 0.5 - pz;
    return sqrt(a * a + b * b);
}

/* Within r (+ extra) of the camera or the lead point. */
static bool within(const ViewGeom *g, double r, int64_t cx, int64_t cz, double extra) {
    r += extra;
    return stream_dist_to(g->ccx, g->ccz, cx, cz) <= r || stream_dist_to(g->lx, g->lz, cx, cz) <= r;
}
bool stream_in_range(const ViewGeom *g, int64_t cx, int64_t cz, double extra) { return within(g, g->reach, cx, cz, extra); }
bool stream_in_keep(const ViewGeom *g, int64_t cx, int64_t cz, double extra) { return within(g, g->keep, cx, cz, extra); }

/* Chunks of travel on the current heading before chunk (cx, cz) comes within g->need of the
 * camera: 0 when it is within already, INFINITY when the heading passes it by (or leaves it). */
double stream_travel_to_need(const ViewGeom *g, int64_t cx, int64_t cz) {
    double a = (double)cx + 0.5 - g->ccx, b = (double)cz + 0.5 - g->ccz, d2 = a * a + b * b, r2 = g->need * g->need;
    if (d2 <= r2) return 0.0;
    if (g->dx == 0.0 && g->dz == 0.0) return INFINITY;
    double along = a * g->dx + b * g->dz, perp2 = d2 - along * along;
    if (perp2 >= r2) return INFINITY;
    double t = along - sqrt(r2 - perp2);
    return t >= 0.0 ? t : INFINITY;
}

/* Lower is sooner. In flight: by time to reach, as chunks of travel before the chunk is needed
 * (within the reach less one), nearest first among those needed now; chunks needed now behind
 * the aircraft, and chunks the heading passes by, after every chunk on the way. At rest (or
 * slow): distance, minus a bonus straight ahead. Both plus a penalty outside the view cone. */
double stream_priority(const WorldLiveParams *p, const ViewGeom *g, int64_t cx, int64_t cz, double travel) {
    double a = (double)cx + 0.5 - g->ccx, b = (double)cz + 0.5 - g->ccz;
    double d = sqrt(a * a + b * b);
    if (d < 1e-6 || (g->dx == 0.0 && g->dz == 0.0)) return d;
    double c = (a * g->dx + b * g->dz) / d;
    double score;
    if (g->speed < PRIORITY_MIN_SPEED) {
        score = d - p->ahead_bias * (c > 0.0 ? c : 0.0);
    } else {
        double t = travel;
        if (t == 0.0 && c < 0.0 && d > 1.5) t = INFINITY;   /* needed now, but left behind */
        score = isinf(t) ? g->reach + 1.0 + d : t + 0.1 * d;
    }
    /* The view cone, widened by the chunk's own angular size. */
    double widen = 0.75 / (d > 0.75 ? d : 0.75);
    if (d > 1.5 && c + widen < g->cos_half_fov) score += p->frustum_penalty;
    return score;
}

/* The picks are a max-heap on score while chunks are scanned (the worst at the top, replaced by
 * anything better), then sorted best first. Ties keep no particular order. */
static void picks_sift_down(Pick *h, uint32_t n, uint32_t i) {
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && h[l].score > h[m].score) m = l;
        if (r < n && h[r].score > h[m].score) m = r;
        if (m == i) return;
        Pick t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

void stream_picks_push(Pick *h, uint32_t *n, Pick p) {
    uint32_t i = (*n)++;
    h[i] = p;
    while (i > 0 && h[(i - 1) / 2].score < h[i].score) {
        Pick t = h[i];
        h[i] = h[(i - 1) / 2];
        h[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

void stream_picks_replace_top(Pick *h, uint32_t n, Pick p) {
    h[0] = p;
    picks_sift_down(h, n, 0);
}

void stream_picks_sort(Pick *h, uint32_t n) {
    for (uint32_t end = n; end > 1; end--) {
        Pick t = h[0];
        h[0] = h[end - 1];
        h[end - 1] = t;
        picks_sift_down(h, end - 1, 0);
    }
}

/* ---------------------------------------------------------------- speed governor */
int stream_gov_lod_steps(const StreamGovernor *gv) { return gv->lod_levels > 0 ? GOV_LOD_STEPS : 0; }

int stream_gov_lod_at(const StreamGovernor *gv, int32_t dx, int32_t dz) {
    double d2 = (double)dx * dx + (double)dz * dz;
    int lod = 0;
    while (lod < gv->lod_levels && d2 >= (double)gv->lod_d2[lod]) lod++;
    return lod;
}

/* Far LOD bands at governor level l (1..GOV_LOD_STEPS): the farthest band first, then the next;
 * the band around the aircraft keeps its detail. */
static const float k_gov_lod_scale[GOV_LOD_STEPS + 1][WORLD_LOD_MAX] = {
    {1.0f, 1.0f, 1.0f}, {1.0f, 1.0f, 0.67f}, {1.0f, 0.67f, 0.5f}, {1.0f, 0.5f, 0.34f}};

/* The LOD thresholds and the reach of the governor's level. */
static void gov_apply(StreamGovernor *gv) {
    int lod_steps = stream_gov_lod_steps(gv);
    int l = gv->level < lod_steps ? gv->level : lod_steps;
    float prev = 0.0f;
    for (int i = 0; i < gv->lod_levels; i++) {
        float d = gv->lod_base[i] * k_gov_lod_scale[l][i];
        if (i > 0 && d < prev + 1.01f) d = prev + 1.01f;   /* face neighbours stay one LOD apart */
        if (d > gv->lod_base[i]) d = gv->lod_base[i];
        gv->lod_d2[i] = d * d;
        prev = d;
    }
    int shrink = gv->level > lod_steps ? gv->level - lod_steps : 0;
    gv->reach = (double)gv->radius - shrink;
    if (gv->reach < gv->reach_min) gv->reach = gv->reach_min;
    if (gv->reach > gv->radius_max) gv->reach = gv->radius_max;
}

void stream_gov_configure(StreamGovernor *gv, const WorldLiveParams *l, int32_t radius_max) {
    gv->radius = l->view_radius;
    gv->reach_min = l->speed_reach_min;
    gv->radius_max = radius_max;
    gv->lod_levels = gen_lod_thresholds(l, gv->lod_base);
    /* The governor's range: the LOD steps (when LOD is on), then a chunk of reach per step. */
    int reach_steps = l->view_radius > l->speed_reach_min ? l->view_radius - l->speed_reach_min : 0;
    gv->max = stream_gov_lod_steps(gv) + reach_steps;
    if (gv->level > gv->max) gv->level = gv->max;
    gov_apply(gv);
}

void stream_gov_note_jump(StreamGovernor *gv) {
    gv->jump_frames = 1;
    gv->pressure_frames = 0;
    gv->calm_frames = 0;
    gv->jumps++;
}

/* One frame of the governor. `margin`: the smallest margin, in seconds, by which a missing chunk
 * of the request range (no mesh yet) arrives before it is needed on the current heading, where
 * a chunk arrives a new chunk's usual latency (the running average of request-to-collect time,
 * with half again as slack) after its request (now, for one not requested yet); negative: it
 * will be late; INFINITY at rest or when nothing is missing. Pressure: a chunk is void ahead, or
 * some missing chunk will arrive after it is needed (the slack in the latency is the warning).
 * Under pressure it steps up (every GOV_UP_FRAMES frames, every other frame while void); after
 * GOV_DOWN_FRAMES calm frames (every missing chunk arrives `lead_s`, that latency and a frame,
 * ahead of need) it steps back down by one. */
void stream_gov_update(StreamGovernor *gv, const ViewGeom *g, uint32_t voids, double margin, double lead_s,
                       bool filled) {
    bool pressure = g->speed >= PRIORITY_MIN_SPEED && (voids > 0 || margin < 0.0);
    bool calm = !pressure && margin > lead_s;
    int before = gv->level;
    if (gv->jump_frames) {
        /* After a jump everything near is missing at once: that is the jump's backlog, not
         * generation falling behind, until the new place has filled. The bound in frames is
         * only for a world that never fills (a flight the jobs never catch up with). */
        if (filled) gv->jumps_filled++;
        if (filled || gv->jump_frames >= GOV_JUMP_HOLD_MAX) {
            gv->jump_frames = 0;
        } else {
            gv->jump_frames++;
            if (pressure) pressure = calm = false;
        }
    }
    if (pressure) {
        gv->calm_frames = 0;
        gv->pressure_frames++;
        uint32_t every = voids > 0 ? 2u : GOV_UP_FRAMES;
        if (gv->level < gv->max && gv->pressure_frames >= every) {
            gv->level++;
            gv->pressure_frames = 0;
            gv->steps_up++;
        }
    } else {
        gv->pressure_frames = 0;
        gv->calm_frames = calm ? gv->calm_frames + 1 : 0;
        if (gv->level > 0 && gv->calm_frames >= GOV_DOWN_FRAMES) {
            gv->level--;
            gv->calm_frames = 0;
            gv->steps_down++;
        }
    }
    if (gv->level != before) gov_apply(gv);
    if ((uint32_t)gv->level > gv->level_peak) gv->level_peak = (uint32_t)gv->level;
}
