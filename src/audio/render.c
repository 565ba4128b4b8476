/* src/audio: offline rendering of a trace, block by block exactly as the audio side would see it
 * (publish, events, render), so the same trace gives the same samples everywhere. */
#include "audio/audio_internal.h"

size_t audio_render_trace(AudioSynth *s, const AudioTrace *t, int16_t *out, size_t max_frames) {
    size_t total = audio_trace_frames(t, s->rate, s->block_frames), done = 0;
    uint32_t ev = 0;
    if (total > max_frames) total = max_frames;
    while (done < total) {
        uint32_t n = total - done < s->block_frames ? (uint32_t)(total - done) : s->block_frames;
        double t0 = (double)done / (double)s->rate, t1 = (double)(done + n) / (double)s->rate;
        AudioParams p;
        audio_trace_params_at(t, t0, &p);
        audio_publish(s, &p);
        /* Events sound from the start of the block they fall in (10 ms granularity by default). */
        for (; ev < t->n_events && t->events[ev].t < t1; ev++) audio_event(s, t->events[ev].id, t->events[ev].arg);
        audio_mixer_render(s, out + done * s->channels, n);
        done += n;
    }
    return done;
}
