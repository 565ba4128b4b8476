/* src/audio: the lock-free handover from the main thread to the audio side: a triple buffer of
 * parameter snapshots and an SPSC ring of event messages (C11 atomics, no lock, no wait). */
#include "audio/audio.h"

#include <string.h>

#define AUDIO_HANDOVER_FRESH 4u

void audio_handover_init(AudioHandover *h, const AudioParams *first) {
    for (int i = 0; i < 3; i++) h->slot[i] = *first;
    h->back = 0;
    h->front = 1;
    atomic_init(&h->middle, 2u);
}

void audio_handover_publish(AudioHandover *h, const AudioParams *p) {
    h->slot[h->back] = *p;
    /* acq_rel: the release publishes the slot's contents, the acquire makes the slot handed back
     * (which the consumer may just have read) safe to overwrite next time. */
    unsigned old = atomic_exchange_explicit(&h->middle, h->back | AUDIO_HANDOVER_FRESH, memory_order_acq_rel);
    h->back = old & 3u;
}

bool audio_handover_consume(AudioHandover *h, AudioParams *out) {
    if (!(atomic_load_explicit(&h->middle, memory_order_relaxed) & AUDIO_HANDOVER_FRESH)) return false;
    unsigned old = atomic_exchange_explicit(&h->middle, h->front, memory_order_acq_rel);
    h->front = old & 3u;
    *out = h->slot[h->front];
    return true;
}

void audio_ring_init(AudioEventRing *r) {
    memset(r->msg, 0, sizeof r->msg);
    atomic_init(&r->head, 0u);
    atomic_init(&r->tail, 0u);
    atomic_init(&r->dropped, 0u);
}

bool audio_ring_push(AudioEventRing *r, AudioEventMsg m) {
    unsigned h = atomic_load_explicit(&r->head, memory_order_relaxed);
    unsigned t = atomic_load_explicit(&r->tail, memory_order_acquire);
    if (h - t >= AUDIO_EVENT_RING_SIZE) {
        atomic_fetch_add_explicit(&r->dropped, 1u, memory_order_relaxed);
        return false;
    }
    r->msg[h & (AUDIO_EVENT_RING_SIZE - 1u)] = m;
    atomic_store_explicit(&r->head, h + 1u, memory_order_release);
    return true;
}

bool audio_ring_pop(AudioEventRing *r, AudioEventMsg *m) {
    unsigned t = atomic_load_explicit(&r->tail, memory_order_relaxed);
    unsigned h = atomic_load_explicit(&r->head, memory_order_acquire);
    if (t == h) return false;
    *m = r->msg[t & (AUDIO_EVENT_RING_SIZE - 1u)];
    atomic_store_explicit(&r->tail, t + 1u, memory_order_release);
    return true;
}
