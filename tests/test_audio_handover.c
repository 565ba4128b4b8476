/* Tests for the synth's lock-free handover between the main thread and the audio side, with a
 * real producer thread (run under ThreadSanitizer too): whole, newest snapshots from the triple
 * buffer; every event in order through the SPSC ring; the synth rendering while the main thread
 * publishes and sends events. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>

#include "audio/audio.h"

enum { SNAPSHOTS = 200000, MESSAGES = 200000 };

static AudioHandover g_ho;
static AudioEventRing g_ring;

/* Every float of snapshot i holds i: a torn read would mix two values. */
static AudioParams numbered(uint32_t i) {
    float f = (float)i;
    return (AudioParams){f, f, f, f, f, f, f, (AudioMode)(i % AUDIO_MODE_COUNT), f, f, f, f, (i & 1) != 0, f, f, f};
}

static void *publish_snapshots(void *arg) {
    (void)arg;
    for (uint32_t i = 1; i <= SNAPSHOTS; i++) {
        AudioParams p = numbered(i);
        audio_handover_publish(&g_ho, &p);
        if (i % 16 == 0) sched_yield();   /* let the consumer in now and then */
    }
    return NULL;
}

static void test_snapshots_arrive_whole_and_in_order(void **state) {
    (void)state;
    AudioParams first = numbered(0), p;
    audio_handover_init(&g_ho, &first);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, publish_snapshots, NULL), 0);
    uint32_t last = 0, taken = 0;
    while (last < SNAPSHOTS) {
        if (!audio_handover_consume(&g_ho, &p)) {
            sched_yield();
            continue;
        }
        uint32_t i = (uint32_t)p.airspeed;
        assert_true(i > last);   /* newer each time: never an old slot again */
        const float *f = &p.throttle;
        for (int k = 0; k < 7; k++) assert_true(f[k] == (float)i);
        assert_true(p.master == (float)i && p.effects == (float)i && p.mute == ((i & 1) != 0));
        assert_int_equal(p.mode, i % AUDIO_MODE_COUNT);
        last = i;
        taken++;
    }
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_false(audio_handover_consume(&g_ho, &p));   /* nothing newer than the last */
    print_message("note: %u of %u snapshots taken, the newest every time\n", taken, SNAPSHOTS);
}

static void *push_messages(void *arg) {
    (void)arg;
    for (uint32_t i = 0; i < MESSAGES;) {
        if (audio_ring_push(&g_ring, (AudioEventMsg){(uint16_t)(i & 0xffffu), (float)i})) i++;
        else sched_yield();
    }
    return NULL;
}

static void test_event_ring_delivers_every_message_in_order(void **state) {
    (void)state;
    audio_ring_init(&g_ring);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, push_messages, NULL), 0);
    AudioEventMsg m;
    for (uint32_t i = 0; i < MESSAGES;) {
        if (!audio_ring_pop(&g_ring, &m)) {
            sched_yield();
            continue;
        }
        assert_int_equal(m.id, i & 0xffffu);
        assert_true(m.arg == (float)i);
        i++;
    }
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_false(audio_ring_pop(&g_ring, &m));
    print_message("note: %u messages in order, %u pushes found the ring full\n", MESSAGES,
                  atomic_load(&g_ring.dropped));
}

typedef struct MainSide { AudioSynth *s; atomic_int stop; atomic_uint published; uint32_t sent; } MainSide;

/* The game's main thread in miniature: a snapshot per "frame", an event now and then. */
static void *main_thread(void *arg) {
    MainSide *m = arg;
    for (uint32_t f = 0; !atomic_load(&m->stop); f++) {
        AudioParams p = audio_params_default();
        p.throttle = (float)(f % 100) / 100.0f;
        p.airspeed = (float)(f % 500);
        p.enclosure = (float)(f % 10) / 10.0f;
        audio_publish(m->s, &p);
        atomic_fetch_add(&m->published, 1u);
        if (f % 7 == 0) {
            audio_event(m->s, (int)(f / 7 % AUDIO_EVENT_BUILTIN_COUNT), 0.0f);
            m->sent++;
        }
        sched_yield();
    }
    return NULL;
}

static void test_synth_renders_while_the_main_thread_publishes(void **state) {
    (void)state;
    MemBudget b;
    SkyError err = {0};
    assert_true(mem_budget_init(&b, 1u << 20, &err));
    static MainSide m;
    m.s = audio_create(&b, &(AudioConfig){.rate = 48000, .channels = 2}, &err);
    assert_non_null(m.s);
    atomic_init(&m.stop, 0);
    atomic_init(&m.published, 0u);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, main_thread, &m), 0);
    static int16_t block[512 * 2];
    /* 400 blocks at least, and on until the producer has published some frames (under a
     * sanitizer on a loaded machine the new thread may first run after the 400th block);
     * bounded so a producer that never runs fails the test instead of hanging it. */
    double end = time_now_ms() + 20000.0;
    for (int i = 0; i < 400 || (atomic_load(&m.published) < 50u && time_now_ms() < end); i++) {
        audio_mixer_render(m.s, block, 512);
        sched_yield();
    }
    atomic_store(&m.stop, 1);
    assert_int_equal(pthread_join(th, NULL), 0);
    audio_mixer_render(m.s, block, 512);   /* takes what was still queued */
    AudioStats st = audio_stats(m.s);
    print_message("note: %u blocks, %u of %u snapshots taken, %u events played, %u dropped, %u booms\n", st.blocks,
                  st.snapshots, atomic_load(&m.published), st.events, st.events_dropped, st.booms);
    assert_true(st.blocks >= 400);
    assert_true(atomic_load(&m.published) >= 50u);
    assert_true(st.snapshots >= 1 && st.snapshots <= atomic_load(&m.published));
    assert_int_equal(st.events + st.events_dropped, m.sent);
    mem_budget_release(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_snapshots_arrive_whole_and_in_order),
        cmocka_unit_test(test_event_ring_delivers_every_message_in_order),
        cmocka_unit_test(test_synth_renders_while_the_main_thread_publishes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
