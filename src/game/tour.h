/* skyisles tour: the course of the game mode flown (a row of the mode table, mode.h), chosen from
 * the pause menu or the title; the clock, the next ring, restarts at the last ring passed, splits,
 * the results and the best times per seed and course kept beside the settings. The courses
 * themselves are src/course. The ghost hook: TourBest.split is the reference a ghost and the
 * HUD's split compare against. */
#ifndef SKYISLES_GAME_TOUR_H
#define SKYISLES_GAME_TOUR_H

#include <stdbool.h>
#include <stdint.h>

#include "course/course.h"
#include "mode.h"
#include "render/render.h"

#define TOUR_BEST_MAX 48                 /* courses whose best time is kept */
#define TOUR_BEST_FILE "best_times.txt"

/* The best run of one course: its total and the clock at each ring. */
typedef struct TourBest {
    char id[COURSE_ID_MAX];
    uint32_t n;
    double total;
    float split[COURSE_MAX_RINGS];
} TourBest;

typedef struct Tour {
    const GameMode *mode;       /* the mode flown (a row of the mode table; tour_boot: the first) */
    bool hidden;                /* its HUD and rings left out, its run kept (the course bench's other frames) */
    Course *course;             /* carved at boot */
    CourseWork *work;
    MemArena arena;
    CourseRun run;
    TourBest *best;             /* TOUR_BEST_MAX, carved at boot, read from the file */
    uint32_t n_best;
    int best_of_course;         /* index into best of this course's best, -1 none */
    bool results;               /* the results screen shows */
    bool new_best;
    int title_choice;           /* the title's mode (its row), moved with up/down */
    CoursePilot pilot;          /* the course pilot, when it flies the course (tour_pilot_input) */
    bool attract;               /* the attract mode's course: no best kept, no prompts on the results */
    char dir[512];              /* where the best-times file lives ("" none: not kept) */
} Tour;

/* Boot: carves the course and its work memory from mem, reads the best times from dir (NULL: not
 * kept), registers the modes' menu actions once. False with one line when the budget is short. */
bool tour_boot(Tour *t, MemBudget *mem, const char *dir, SkyError *err);
/* The title's choice of mode: up/down move it; Start or OK returns a mode with a course to start
 * (NULL: none; the title then starts free flight as before). `in` is the frame's InputState. */
struct InputState;
const GameMode *tour_title_input(Tour *t, const struct InputState *in);
/* The modes under the title at y, the chosen one marked. */
void tour_title_draw(const Tour *t, Renderer *r, int w, int y, int s);
/* Lays the course of `mode` for the world (the tour: over island `at`, course_island_at) and puts
 * f at its start; a mode
 * without a course ends one. False with one line in err (the course cannot be laid, or mode is
 * NULL: a role no row takes). */
bool tour_start(Tour *t, const GameMode *mode, const World *w, const CourseIsland *at, const IslandCodex *cx, FlightState *f,
                SkyError *err);
/* The same with the mode's course already in t->course (laid ahead, course_cache.c). */
bool tour_start_laid(Tour *t, const GameMode *mode, FlightState *f);
/* A course is flown (or its results show): the mode lays one and it is not hidden. */
bool tour_active(const Tour *t);
/* Back to the first mode (free flight): the course and its results end. */
void tour_end(Tour *t);
/* The course's HUD and rings left out (true) or back (false), its run kept: the course bench. */
void tour_hide(Tour *t, bool hidden);
/* One frame of a course: the motion p0 -> f (after collision; not across a restart) passes rings,
 * the clock runs (through crash pauses too). Returns COURSE_EVENT_* bits. */
uint32_t tour_frame(Tour *t, FlightState *f, double x0, double y0, double z0, bool moved, float dt);
/* A restart (after a crash): the aircraft goes to the last ring passed instead. */
void tour_restart(Tour *t, FlightState *f);
/* The course pilot flies the rest of the course (at most limit_s of sim time, 60 Hz): shots of
 * the results screen, the attract mode's course. True when it finished. */
bool tour_fly_pilot(Tour *t, FlightState *f, const FlightModel *m, const World *w, double limit_s);
/* The course pilot's input for this step of the course (zero when none runs): --autopilot in a
 * course, the attract replay's recording. */
void tour_pilot_input(Tour *t, const FlightState *f, const FlightModel *m, const World *w, FlightInput *out);
/* The attract mode flies its own course (its bundled replay's) in the tour's place: what it
 * replaces is kept in a TourSaved and put back at the end. */
typedef struct TourSaved {
    const GameMode *mode;
    Course *course;
    CourseRun run;
    CoursePilot pilot;
    bool results, new_best;
    int best_of_course;
} TourSaved;
void tour_attract_begin(Tour *t, Course *c, TourSaved *save);
void tour_attract_restart(Tour *t);   /* its course again from the start (the replay loops) */
void tour_attract_end(Tour *t, const TourSaved *save);

/* The HUD's time gained (< 0) or lost (> 0) at the last ring passed against the course's best run
 * (the ghost's ring times): false before the first ring, without a best, and on the results
 * (a faster run is the best by then). */
bool tour_split_delta(const Tour *t, double *delta);
/* The rings for the renderer (n: how many written). */
uint32_t tour_render_rings(const Tour *t, RenderRing *out, uint32_t cap);
/* The HUD's course part (arrow, next ring, distance, clock, split) and the results screen,
 * queued into the HUD layer of a w x h canvas at text scale s. */
void tour_draw(const Tour *t, Renderer *r, int w, int h, int s, const FlightState *f, const CameraState *cam);

#endif
