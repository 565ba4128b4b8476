/* skyisles world: the streamer's chunk table. Slots and their states, the renderer's event ring
 * (READY withdrawn when its chunk goes first, GONE after a taken READY), eviction out of reach
 * and under pool pressure, the keep distance pulled in when the pool runs short. */
#include "world/stream_internal.h"

/* ---------------------------------------------------------------- events */
void stream_event_push(World *w, WorldEventType type, int64_t cx, int64_t cz, const ChunkMesh *mesh, uint32_t slot) {
    if (w->ev_count == w->ev_cap) {
        EventEntry *old = &w->events[w->ev_head];
        if (!old->withdrawn && old->ev.type == WORLD_EV_MESH_READY) {
            ChunkSlot *s = &w->slots[old->slot];
            s->ready_pending = 0;
            s->ready_taken = 1;   /* lost, but a GONE will still close it */
        }
        w->ev_head = (w->ev_head + 1) % w->ev_cap;
        w->ev_count--;
        w->st.events_lost++;
    }
    EventEntry *e = &w->events[(w->ev_head + w->ev_count) % w->ev_cap];
    e->ev.type = type;
    e->ev.cx = cx;
    e->ev.cz = cz;
    e->ev.mesh = mesh;
    e->slot = slot;
    e->withdrawn = false;
    w->ev_count++;
}

void stream_event_withdraw(World *w, uint32_t slot) {
    for (uint32_t i = 0; i < w->ev_count; i++) {
        EventEntry *e = &w->events[(w->ev_head + i) % w->ev_cap];
        if (e->slot == slot && !e->withdrawn && e->ev.type == WORLD_EV_MESH_READY) e->withdrawn = true;
    }
}

size_t world_take_events(World *w, WorldEvent *out, size_t max) {
    size_t n = 0;
    while (n < max && w->ev_count > 0) {
        EventEntry *e = &w->events[w->ev_head];
        w->ev_head = (w->ev_head + 1) % w->ev_cap;
        w->ev_count--;
        if (e->withdrawn) continue;
        if (e->ev.type == WORLD_EV_MESH_READY) {
            ChunkSlot *s = &w->slots[e->slot];
            s->ready_pending = 0;
            s->ready_taken = 1;
        }
        out[n++] = e->ev;
    }
    return n;
}

/* ---------------------------------------------------------------- slots */
void stream_slot_clear(World *w, uint32_t idx, bool count_evicted) {
    ChunkSlot *s = &w->slots[idx];
    if (s->state == SLOT_READY) {
        if (s->ready_pending) stream_event_withdraw(w, idx);
        if (s->ready_taken) stream_event_push(w, WORLD_EV_CHUNK_GONE, s->cx, s->cz, NULL, idx);
        mesh_free(&w->slabs, &s->mesh);
        if (count_evicted) w->st.evicted++;
        if (w->st.resident) w->st.resident--;
        if (w->st.resident_lod[s->lod]) w->st.resident_lod[s->lod]--;
    }
    if (s->stale && w->st.stale) w->st.stale--;
    s->stale = 0;
    s->state = SLOT_EMPTY;
    s->ready_pending = s->ready_taken = 0;
    s->busy = 0;
    s->slabs = 0;
}

void world_release_mesh(World *w, int64_t cx, int64_t cz) {
    uint32_t idx = stream_slot_index(w, cx, cz);
    ChunkSlot *s = &w->slots[idx];
    if (s->state != SLOT_READY || s->cx != cx || s->cz != cz) return;
    /* The consumer uploaded what the mesh holds now. A READY for this content still in the
     * ring (a LOD swap after the consumer queued the chunk) would hand it an emptied mesh. */
    if (s->ready_pending) {
        stream_event_withdraw(w, idx);
        s->ready_pending = 0;
        s->ready_taken = 1;
    }
    mesh_free(&w->slabs, &s->mesh);
    s->slabs = 0;
}

/* ---------------------------------------------------------------- eviction */
/* Evicts the resident chunk farthest from the camera if it is farther than `than`. */
bool stream_evict_farthest(World *w, const ViewGeom *g, double than) {
    uint32_t nslots = w->table_w * w->table_w, best = UINT32_MAX;
    double bd = than;
    for (uint32_t i = 0; i < nslots; i++) {
        ChunkSlot *s = &w->slots[i];
        if (s->state != SLOT_READY || s->slabs == 0) continue;
        double d = stream_dist_to(g->ccx, g->ccz, s->cx, s->cz);
        if (d > bd) { bd = d; best = i; }
    }
    if (best == UINT32_MAX) return false;
    stream_slot_clear(w, best, true);
    w->st.pool_evictions++;
    return true;
}

/* The pool cannot hold chunks this far: pull the reach in below them (M3: lower the view
 * distance rather than fail). It grows back while the pool has room. */
void stream_shrink_reach(World *w, double d) {
    double r = d - 0.25;
    if (r < 1.5) r = 1.5;
    if (r < w->radius_eff) {
        w->radius_eff = r;
        w->st.reach_shrinks++;
    }
}

/* Evicts (or forgets requests for) chunks out of reach, with one chunk of hysteresis. */
void stream_evict_out_of_keep(World *w, const ViewGeom *g) {
    uint32_t nslots = w->table_w * w->table_w;
    for (uint32_t i = 0; i < nslots; i++) {
        ChunkSlot *s = &w->slots[i];
        if (s->state == SLOT_EMPTY || stream_in_keep(g, s->cx, s->cz, 1.0)) continue;
        stream_slot_clear(w, i, s->state == SLOT_READY);
    }
}

int world_chunk_lod(const World *w, int64_t cx, int64_t cz) {
    const ChunkSlot *s = &w->slots[stream_slot_index(w, cx, cz)];
    if (s->state != SLOT_READY || s->cx != cx || s->cz != cz) return -1;
    return s->lod;
}
