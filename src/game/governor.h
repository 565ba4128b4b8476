/* skyisles frame-time governor ("Quality: auto"): measures what each frame costs (CPU, the time
 * to the swap, the GPU's time where a timer query gives it) against the frame cap's period, and
 * steps effective values down when frames run late and back up when there is room. Pure logic
 * (no GL, no clock of its own): the game feeds it one measure a frame (govern.c); tests feed it
 * made-up costs. The player's values are never written: the governor keeps a ladder of steps
 * below them and a level on it. */
#ifndef SKYISLES_GAME_GOVERNOR_H
#define SKYISLES_GAME_GOVERNOR_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "world/world.h"

/* What the governor may lower, in the order it lowers them (the cheapest to lose first). */
typedef enum GovKnob { GOV_LINES = 0, GOV_CLOUDS, GOV_LOD, GOV_RADIUS, GOV_KNOB_COUNT } GovKnob;
extern const char *const gov_knob_names[GOV_KNOB_COUNT];   /* "lines", "clouds", "lod", "radius" */

/* The values the governor takes: the player's (the ceiling) or the ones in effect. */
typedef struct GovLook {
    int lines;                  /* PSX target lines, 0 = full resolution */
    bool clouds;                /* blended voxel clouds */
    float lod_dist[WORLD_LOD_MAX];
    int view_radius;            /* chunks */
} GovLook;

/* One step of the ladder: a knob and the value it takes (lines: that many, 0 the render target at
 * full resolution; radius: that value; clouds: off; lod: the bands scaled by value/100). A step of
 * the lines is measured alone on its first way down (`tried`): one that proved to buy nothing on
 * this device (the frame cost no less after it) is set aside: skipped, kept on the ladder so
 * levels stay put. */
typedef struct GovStep {
    GovKnob knob;
    int value;
    bool no_gain;
    bool tried;
} GovStep;

#define GOV_STEPS_MAX 40
#define GOV_WINDOW_S 0.5        /* frames are judged in windows of this long */
#define GOV_HOLD_S 1.0          /* at least this between two changes (the probe: half) */
#define GOV_UP_HOLD_S 3.0       /* room must last this long before a step up; doubled on a bounce */
#define GOV_UP_HOLD_MAX_S 48.0
#define GOV_LATE 1.05           /* a window whose mean cost passes target * this is late (settled:
                                   two such in a row step down) */
#define GOV_FAR_LATE 1.25       /* settled: one window past target * this steps down */
#define GOV_ROOM 0.80           /* room: below target * this (and the step above predicted to fit) */
#define GOV_SETTLED_S 5.0       /* no change for this long: settled */
#define GOV_BUSY_WAIT 8         /* windows a measure of the lines waits for the world to settle */
#define GOV_GAIN 0.99           /* a step of the lines is kept where the frames cost less than this
                                   times the windows before it and after going back */

/* One frame's measure (milliseconds). cost = the most of the CPU's time, the GPU's where a timer
 * query gives it, and the time to the swap's return unless the swap waits for the display while
 * the GPU's time is known (without a timer, a swap that waits is the only measure of the GPU; a
 * swap that does not wait is the frame's wall time, which shows a CPU shared with others). */
typedef struct GovFrame {
    double cpu_ms;              /* the main thread's CPU time for the frame */
    double swap_ms;             /* wall time from the frame's start to the swap's return */
    double gpu_ms;              /* the GPU's time (a timer query read a few frames late); < 0: none */
    bool swap_waits;            /* vsync on a real display: the swap includes a wait for it */
    bool busy;                  /* the world still streaming in (chunks in flight or void ahead): a
                                   window with such frames measures no step of the lines while
                                   GOV_BUSY_WAIT allows */
} GovFrame;
double gov_frame_cost(const GovFrame *f);

typedef struct Governor {
    bool on;
    GovStep steps[GOV_STEPS_MAX];
    int n_steps;
    int level;                  /* steps in force: 0 = the player's values, n_steps = all */
    double target_ms;           /* the frame period aimed at */
    bool probe;                 /* first start: shorter holds, bigger steps while far off */
    double t;                   /* seconds of measured frames */
    /* the window being measured */
    double win_t, win_sum;
    int win_n;
    double last_change_t, last_up_t, room_s, up_hold_s;
    /* cost (ms) at a level when it was left going down, and the first window after arriving at
     * the next one: the step's gain, which a step back up is predicted from */
    double cost_left[GOV_STEPS_MAX + 1], cost_arrived[GOV_STEPS_MAX + 1];
    int pending_arrival;        /* level whose first window after arriving is still to come (-1) */
    int arrive_step;            /* the step taken to it (-1: several at once) */
    double arrive_from;         /* the cost before that step */
    int arrive_from_level;      /* the level it was taken from */
    /* A step of the lines that looked cheaper is measured A/B/A: back at the level before it for a
     * window (confirming), and kept only where it beat both windows, so a trend (the world
     * streaming in, the machine's load) cannot make a costlier step look cheaper. */
    bool confirming;
    int trial_level;            /* the level with the step in force */
    double trial_cost;          /* the window measured there */
    int skip_windows;           /* windows let pass after the lines in effect changed (the switch) */
    int busy_waits;             /* windows a measure has waited for the world to settle */
    int late_windows;           /* late windows in a row since the last change */
    bool win_busy;              /* a frame of the window being measured was busy */
    double last_mean;           /* the last window's mean cost */
    uint32_t changes, ups, downs, bounces, no_gain_marks;
    double settled_t;           /* when the level last changed (settled once GOV_SETTLED_S past) */
} Governor;

/* The ladder below `chosen`: the render target at full resolution (when the chosen lines are not:
 * on a device where the low-res target and its upscale cost more than the pixels they save, as
 * on a software rasteriser, full resolution is the cheaper way; measured, kept only where the
 * frames cost less after it), lines 480, 360, 240 (those under the chosen value), clouds off, the
 * far LOD bands at 75% then 50%, the view radius two chunks at a time down to 6 (or the chosen one
 * when less). `start_level` (clamped) is where it begins: a saved settle point; `probe` for a
 * first start. */
void gov_init(Governor *g, const GovLook *chosen, double target_ms, int start_level, bool probe);
/* A saved settle point's marks: bit i set, step i bought nothing here (gov_skip_mask). The steps
 * of the lines below the level count as measured. */
void gov_restore(Governor *g, uint32_t skip);
uint32_t gov_skip_mask(const Governor *g);
#define GOV_SKIP_BITS 30
/* The ladder again for new chosen values (the player changed them), keeping the level. */
void gov_rebuild(Governor *g, const GovLook *chosen);
/* A new target period (the frame cap changed): the hysteresis starts over. */
void gov_set_target(Governor *g, double target_ms);
/* One frame of dt seconds measured; true when the level (or a step's no-gain mark) changed and
 * the effective values must be applied again. */
bool gov_frame(Governor *g, const GovFrame *f, double dt_s);
/* The values in effect: `chosen` with the steps below the level applied. */
void gov_effective(const Governor *g, const GovLook *chosen, GovLook *out);
/* Settled: no change for GOV_SETTLED_S. */
bool gov_settled(const Governor *g);
/* "lines 240, clouds off, lod 75%" (the steps in force; "lines full" the full-resolution one), or
 * "none". */
int gov_describe(const Governor *g, char *buf, size_t n);

/* The frame's time: the gap since the last frame, capped at 0.1 s (a slow frame drops time, it
 * is not a leap). A stall (suspend, SIGSTOP, a debugger) pauses instead: a gap over stall_s and
 * over four times the recent frames (a machine that takes most of a second a frame, software GL
 * under emulation, is slow, not stalled). A gap the game caused itself is not a stall: the
 * FRAME_OWN_FRAMES frames after frame_clock_own (a step of Quality auto, a change of the PSX
 * lines or of the window: the render target rebuilt, the driver's first frames with it) drop
 * their time but do not pause, up to FRAME_OWN_GAP_MAX_S (the 0.5-0.6 s of a step of the lines):
 * a longer gap is a suspend whatever came before it (a stop of 1.5 s, the test's). */
#define FRAME_OWN_FRAMES 4
#define FRAME_OWN_GAP_MAX_S 1.0
typedef struct FrameClock {
    double typical;             /* the recent frame times (seconds, each counted up to 1 s) */
    uint32_t frame;
    int own_left;               /* frames still after one of the game's own slow changes */
} FrameClock;
void frame_clock_own(FrameClock *c);
float frame_clock_dt(FrameClock *c, double gap_s, double stall_s, bool *stall);

#endif
