/* skyisles course: legs through air. A leg is the straight line when THE density says it is
 * open, else a search over a lattice of density samples (A* with integer costs, so the path is
 * the same on every platform), smoothed by line of sight. The lattice is cached per world. */
#include <math.h>
#include <string.h>

#include "course/course_int.h"

#define KEY_BIAS (1ll << 20)
#define SEARCH_MARGIN 90.0          /* metres around a leg's box the search may use */
#define SEARCH_Y_LO ((double)WORLD_Y_MIN + 6.0)
#define SEARCH_Y_HI ((double)WORLD_Y_MAX + 24.0)
#define HALF_GRID (0.5 * COURSE_GRID)
#define AIR_RESEARCH_MAX 8          /* searches of one leg, each after closing a step the sampled line refused */

size_t course_work_bytes(void) {
    return sizeof(CourseWork) + 64 + (size_t)AIR_SLOTS * sizeof(AirSlot) + 64 +
           (size_t)AIR_HEAP * (sizeof(uint64_t) + sizeof(uint32_t)) + 128 + AIR_PATH_MAX * sizeof(int32_t) + 64 +
           2u * (size_t)COURSE_MAX_RINGS * COURSE_MAX_RINGS * sizeof(uint32_t) + 64 + ROUTE_DP_CELLS * sizeof(uint32_t) + 64 +
           (size_t)SKY_CAND_MAX * sizeof(SkyCandidate) + 64;
}

CourseWork *course_work_init(MemArena *a) {
    CourseWork *wk = mem_arena_alloc(a, sizeof *wk, 64);
    if (!wk) return NULL;
    memset(wk, 0, sizeof *wk);
    wk->slots = mem_arena_alloc(a, (size_t)AIR_SLOTS * sizeof(AirSlot), 64);
    wk->heap_key = mem_arena_alloc(a, (size_t)AIR_HEAP * sizeof(uint64_t), 64);
    wk->heap_slot = mem_arena_alloc(a, (size_t)AIR_HEAP * sizeof(uint32_t), 64);
    wk->path = mem_arena_alloc(a, AIR_PATH_MAX * sizeof(int32_t), 64);
    wk->dist = mem_arena_alloc(a, 2u * (size_t)COURSE_MAX_RINGS * COURSE_MAX_RINGS * sizeof(uint32_t), 64);
    wk->dp = mem_arena_alloc(a, ROUTE_DP_CELLS * sizeof(uint32_t), 64);
    wk->cand = mem_arena_alloc(a, (size_t)SKY_CAND_MAX * sizeof(SkyCandidate), 64);
    if (!wk->cand || !wk->slots || !wk->heap_key || !wk->heap_slot || !wk->path || !wk->dist || !wk->dp) return NULL;
    air_cache_reset(wk, NULL, true);
    return wk;
}

void course_work_stop_when(CourseWork *wk, bool (*stop)(void *user), void *user) {
    wk->stop = stop;
    wk->stop_user = user;
}

void air_cache_reset(CourseWork *wk, const World *w, bool force) {
    if (!force && wk->world == w) return;
    for (uint32_t i = 0; i < AIR_SLOTS; i++) wk->slots[i].key = -1;
    wk->used = 0;
    wk->search = 0;
    wk->evaluated = 0;
    wk->world = w;
    wk->origin_set = false;
}

bool course_point_open(const World *w, double x, double y, double z) {
    const double c = COURSE_NODE_CLEAR;
    if (y < (double)WORLD_Y_MIN + c) return false;
    return !world_solid_at(w, x, y, z) && !world_solid_at(w, x + c, y, z) && !world_solid_at(w, x - c, y, z) &&
           !world_solid_at(w, x, y + c, z) && !world_solid_at(w, x, y - c, z) && !world_solid_at(w, x, y, z + c) &&
           !world_solid_at(w, x, y, z - c) && sim_clear_of_objects(w, x, y, z, c);
}

/* A straight piece a leg may be laid along: open air, no steeper than COURSE_MAX_SLOPE. */
static bool segment_flyable(const World *w, const CoursePoint *a, const CoursePoint *b) {
    double dx = b->x - a->x, dy = b->y - a->y, dz = b->z - a->z;
    if (dy * dy > COURSE_MAX_SLOPE * COURSE_MAX_SLOPE * (dx * dx + dz * dz) + 1.0) return false;
    return course_segment_open(w, a, b);
}

bool course_segment_open(const World *w, const CoursePoint *a, const CoursePoint *b) {
    double dx = b->x - a->x, dy = b->y - a->y, dz = b->z - a->z;
    double len = sqrt(dx * dx + dy * dy + dz * dz);
    uint32_t n = (uint32_t)(len / 2.0) + 1u;
    for (uint32_t i = 0; i <= n; i++) {
        double t = (double)i / (double)n;
        if (!course_point_open(w, a->x + dx * t, a->y + dy * t, a->z + dz * t)) return false;
    }
    return true;
}

/* A half-lattice point's key: 21 bits an axis counted from the cache's origin (air_path_append
 * keeps every search within reach of it). */
static int64_t half_key(const CourseWork *wk, int64_t i, int64_t j, int64_t k) {
    i -= wk->origin[0], j -= wk->origin[1], k -= wk->origin[2];
    return ((i + KEY_BIAS) << 42) | ((j + KEY_BIAS) << 21) | (k + KEY_BIAS);
}

static void half_coords(const CourseWork *wk, int64_t key, int64_t *i, int64_t *j, int64_t *k) {
    *i = ((key >> 42) & 0x1fffff) - KEY_BIAS + wk->origin[0];
    *j = ((key >> 21) & 0x1fffff) - KEY_BIAS + wk->origin[1];
    *k = (key & 0x1fffff) - KEY_BIAS + wk->origin[2];
}

/* The slot of a half-lattice point, tested on first sight; -1 when the cache is full. */
static int32_t slot_of(CourseWork *wk, const World *w, int64_t i, int64_t j, int64_t k) {
    int64_t key = half_key(wk, i, j, k);
    uint32_t h = (uint32_t)(((uint64_t)key * 0x9e3779b97f4a7c15ull) >> 48);
    for (;;) {
        AirSlot *s = &wk->slots[h];
        if (s->key == key) return (int32_t)h;
        if (s->key < 0) break;
        h = (h + 1u) & (AIR_SLOTS - 1u);
    }
    if (wk->used >= AIR_FILL) return -1;
    AirSlot *s = &wk->slots[h];
    s->key = key;
    s->search = 0;
    s->closed = 0;
    s->open = course_point_open(w, (double)i * HALF_GRID, (double)j * HALF_GRID, (double)k * HALF_GRID) ? 1 : 0;
    wk->used++;
    wk->evaluated++;
    return (int32_t)h;
}

static void heap_push(CourseWork *wk, uint32_t f, uint32_t slot) {
    uint64_t key = ((uint64_t)f << 32) | wk->heap_seq++;
    uint32_t i = wk->heap_n++;
    while (i > 0) {
        uint32_t p = (i - 1u) / 2u;
        if (wk->heap_key[p] <= key) break;
        wk->heap_key[i] = wk->heap_key[p];
        wk->heap_slot[i] = wk->heap_slot[p];
        i = p;
    }
    wk->heap_key[i] = key;
    wk->heap_slot[i] = slot;
}

static uint32_t heap_pop(CourseWork *wk) {
    uint32_t top = wk->heap_slot[0];
    uint64_t key = wk->heap_key[--wk->heap_n];
    uint32_t slot = wk->heap_slot[wk->heap_n], i = 0;
    for (;;) {
        uint32_t l = 2u * i + 1u, r = l + 1u, m = l;
        if (l >= wk->heap_n) break;
        if (r < wk->heap_n && wk->heap_key[r] < wk->heap_key[l]) m = r;
        if (wk->heap_key[m] >= key) break;
        wk->heap_key[i] = wk->heap_key[m];
        wk->heap_slot[i] = wk->heap_slot[m];
        i = m;
    }
    wk->heap_key[i] = key;
    wk->heap_slot[i] = slot;
    return top;
}

/* Lattice distance in tenths: 10 per axis step, 14 per face diagonal, 17 per space diagonal. */
static uint32_t lattice_cost(int64_t a, int64_t b, int64_t c) {
    uint32_t x = (uint32_t)(a < 0 ? -a : a), y = (uint32_t)(b < 0 ? -b : b), z = (uint32_t)(c < 0 ? -c : c);
    uint32_t hi = x > y ? x : y, lo = x > y ? y : x;
    if (z > hi) { uint32_t t = hi; hi = z; z = t; }
    if (z > lo) { uint32_t t = lo; lo = z; z = t; }
    return 17u * z + 14u * (lo - z) + 10u * (hi - lo);
}

typedef struct SearchBox { int64_t lo[3], hi[3]; } SearchBox;

static int64_t node_index(double v) { return (int64_t)floor(v / COURSE_GRID + 0.5); }

static void search_box(const CoursePoint *a, const CoursePoint *b, SearchBox *box) {
    double lo[3] = {a->x < b->x ? a->x : b->x, a->y < b->y ? a->y : b->y, a->z < b->z ? a->z : b->z};
    double hi[3] = {a->x > b->x ? a->x : b->x, a->y > b->y ? a->y : b->y, a->z > b->z ? a->z : b->z};
    for (int d = 0; d < 3; d++) {
        box->lo[d] = node_index(lo[d] - SEARCH_MARGIN);
        box->hi[d] = node_index(hi[d] + SEARCH_MARGIN);
    }
    if (box->lo[1] < node_index(SEARCH_Y_LO)) box->lo[1] = node_index(SEARCH_Y_LO);
    if (box->hi[1] > node_index(SEARCH_Y_HI)) box->hi[1] = node_index(SEARCH_Y_HI);
}

/* Relaxes the 26 neighbours of node slot s. False when the cache or the heap ran out. */
static bool expand(CourseWork *wk, const World *w, int32_t s, const SearchBox *box, const int64_t goal[3]) {
    int64_t i, j, k;
    half_coords(wk, wk->slots[s].key, &i, &j, &k);
    i /= 2, j /= 2, k /= 2;
    for (int dj = -1; dj <= 1; dj++)
        for (int dk = -1; dk <= 1; dk++)
            for (int di = -1; di <= 1; di++) {
                int64_t n[3] = {i + di, j + dj, k + dk};
                if (!(di | dk)) continue;   /* no straight up or down: the aircraft climbs along its way */
                bool inside = true;
                for (int d = 0; d < 3; d++) inside = inside && n[d] >= box->lo[d] && n[d] <= box->hi[d];
                if (!inside) continue;
                int32_t t = slot_of(wk, w, 2 * n[0], 2 * n[1], 2 * n[2]);
                if (t < 0) return false;
                AirSlot *ns = &wk->slots[t];
                if (!ns->open || (ns->search == wk->search && ns->closed)) continue;
                uint32_t g = wk->slots[s].g + lattice_cost(di, dj, dk) + (dj ? 6u : 0u);   /* climbs cost more */
                if (ns->search == wk->search && ns->g <= g) continue;
                int32_t mid = slot_of(wk, w, 2 * i + di, 2 * j + dj, 2 * k + dk);
                if (mid < 0) return false;
                if (!wk->slots[mid].open) continue;
                ns = &wk->slots[t];
                ns->search = wk->search;
                ns->closed = 0;
                ns->g = g;
                ns->parent = s;
                if (wk->heap_n >= AIR_HEAP) return false;
                heap_push(wk, g + lattice_cost(goal[0] - n[0], goal[1] - n[1], goal[2] - n[2]), (uint32_t)t);
            }
    return true;
}

/* The open node of the lattice cell around p nearest to it that a straight open segment joins
 * to p (corners in a fixed order, the first nearest wins); -1 when none. */
static int32_t near_open_node(CourseWork *wk, const World *w, const CoursePoint *p, int64_t out[3]) {
    int64_t base[3] = {(int64_t)floor(p->x / COURSE_GRID), (int64_t)floor(p->y / COURSE_GRID), (int64_t)floor(p->z / COURSE_GRID)};
    int32_t best = -1;
    double best_d = 1e30;
    for (int c = 0; c < 8; c++) {
        int64_t n[3] = {base[0] + (c & 1), base[1] + (c >> 1 & 1), base[2] + (c >> 2 & 1)};
        int32_t s = slot_of(wk, w, 2 * n[0], 2 * n[1], 2 * n[2]);
        if (s < 0 || !wk->slots[s].open) continue;
        CoursePoint q = {(double)n[0] * COURSE_GRID, (double)n[1] * COURSE_GRID, (double)n[2] * COURSE_GRID};
        double d = (q.x - p->x) * (q.x - p->x) + (q.y - p->y) * (q.y - p->y) + (q.z - p->z) * (q.z - p->z);
        if (d >= best_d || !course_segment_open(w, p, &q)) continue;
        best_d = d;
        best = s;
        for (int k = 0; k < 3; k++) out[k] = n[k];
    }
    return best;
}

/* A* from the open node nearest a to the one nearest b. Returns the path length in nodes
 * written to wk->path (goal first), 0 when none was found. */
static uint32_t lattice_search(CourseWork *wk, const World *w, const CoursePoint *a, const CoursePoint *b) {
    SearchBox box;
    search_box(a, b, &box);
    int64_t start[3], goal[3];
    int32_t s = near_open_node(wk, w, a, start);
    int32_t gs = near_open_node(wk, w, b, goal);
    if (s < 0 || gs < 0) return 0;
    wk->search++;
    wk->heap_n = 0;
    wk->heap_seq = 0;
    wk->slots[s].search = wk->search;
    wk->slots[s].g = 0;
    wk->slots[s].parent = -1;
    wk->slots[s].closed = 0;
    heap_push(wk, 0, (uint32_t)s);
    for (uint32_t pops = 0; wk->heap_n > 0; pops++) {
        if ((pops & 255u) == 0 && course_work_stopped(wk)) return 0;
        int32_t cur = (int32_t)heap_pop(wk);
        AirSlot *cs = &wk->slots[cur];
        if (cs->closed) continue;
        cs->closed = 1;
        if (cur == gs) {
            uint32_t n = 0;
            for (int32_t p = cur; p >= 0 && n < AIR_PATH_MAX; p = wk->slots[p].parent) wk->path[n++] = p;
            return n < AIR_PATH_MAX ? n : 0;
        }
        if (!expand(wk, w, cur, &box, goal)) return 0;
    }
    return 0;
}

static CoursePoint slot_point(const CourseWork *wk, int32_t s) {
    int64_t i, j, k;
    half_coords(wk, wk->slots[s].key, &i, &j, &k);
    CoursePoint p = {(double)i * HALF_GRID, (double)j * HALF_GRID, (double)k * HALF_GRID};
    return p;
}

static bool push_point(Course *c, const CoursePoint *p) {
    if (c->n_points >= COURSE_MAX_POINTS) return false;
    c->points[c->n_points++] = *p;
    return true;
}

/* Closes the half-lattice point between path nodes p and q: the straight line between them is
 * not open although both ends and that midpoint are (the search joins neighbours through their
 * midpoint only), so no later search takes that step (nor the crossing diagonal's, which shares
 * the point: a step lost, never a wrong one). */
static void close_step(CourseWork *wk, int32_t p, int32_t q) {
    int64_t a[3], b[3];
    half_coords(wk, wk->slots[p].key, &a[0], &a[1], &a[2]);
    half_coords(wk, wk->slots[q].key, &b[0], &b[1], &b[2]);
    int32_t mid = slot_of(wk, wk->world, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2);
    if (mid >= 0) wk->slots[mid].open = 0;
}

/* The lattice path from a to b pulled straight where the air allows: from each kept point, the
 * farthest later point (up to 16 on) that a straight open segment reaches, else the next node
 * (through the current node when the kept point is a itself). 1: appended; 0: no way; -1: a
 * lattice step whose sampled line is not open was closed (search again). */
static int append_smoothed(CourseWork *wk, const World *w, Course *c, const CoursePoint *a, const CoursePoint *b,
                           uint32_t n) {
    uint32_t keep = c->n_points;
    CoursePoint from = *a;
    int32_t i = (int32_t)n - 1;   /* wk->path runs goal first: index n-1 is the start node */
    bool at_node = false;         /* from is path[i] itself (not a) */
    while (i > 0) {
        int32_t best = i - 1;
        for (int32_t j = i - 16 < 0 ? 0 : i - 16; j < i - 1; j++) {
            CoursePoint q = slot_point(wk, wk->path[j]);
            if (segment_flyable(w, &from, &q)) { best = j; break; }
        }
        CoursePoint next = slot_point(wk, wk->path[best]);
        if (best == i - 1 && !course_segment_open(w, &from, &next)) {
            if (at_node) {   /* lattice neighbours are joined through their midpoint; the sampled line disagrees */
                close_step(wk, wk->path[i], wk->path[i - 1]);
                c->n_points = keep;
                return -1;
            }
            next = slot_point(wk, wk->path[i]);   /* from a to its start node (open: near_open_node) first */
            best = i;
        }
        from = next;
        if (!push_point(c, &from)) { c->n_points = keep; return 0; }
        at_node = true;
        i = best;
    }
    if (!course_segment_open(w, &from, b) || !push_point(c, b)) { c->n_points = keep; return 0; }
    return 1;
}

bool air_path_append(CourseWork *wk, const World *w, Course *c, const CoursePoint *a, const CoursePoint *b) {
    air_cache_reset(wk, w, false);
    if (segment_flyable(w, a, b)) return push_point(c, b);
    if (wk->used > AIR_FILL / 2u) air_cache_reset(wk, w, true);   /* room for a whole search */
    SearchBox box;
    search_box(a, b, &box);
    bool fits = wk->origin_set;   /* the box's half-lattice points (and a step round it) keyed from the origin */
    for (int d = 0; d < 3 && fits; d++)
        fits = 2 * box.lo[d] - 2 - wk->origin[d] > -KEY_BIAS && 2 * box.hi[d] + 2 - wk->origin[d] < KEY_BIAS;
    if (!fits) {   /* a search far from the cached points (another island): the cache anew, keyed from here */
        air_cache_reset(wk, w, true);
        for (int d = 0; d < 3; d++) wk->origin[d] = box.lo[d] + box.hi[d];
        wk->origin_set = true;
    }
    for (int tries = 0; tries < AIR_RESEARCH_MAX; tries++) {   /* each retry closes one step more */
        uint32_t n = lattice_search(wk, w, a, b);
        if (n == 0) return false;
        int r = append_smoothed(wk, w, c, a, b, n);
        if (r >= 0) return r == 1;
    }
    return false;
}
