/* skyisles game modes: a table of kinds. A row is a mode (Free flight, the Island tour, a Sky
 * course...): its name and help, how its course is laid, its --show shots and how its HUD and
 * results are drawn. The menu, the title, the options, the shots and the courses walk the table;
 * a new mode is one row (mode_table.c, or mode_register at boot) plus its own code. */
#ifndef SKYISLES_GAME_MODE_H
#define SKYISLES_GAME_MODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "course/course.h"
#include "render/render.h"

#define MODE_MAX 8   /* built-in rows and registered ones */

struct Tour;

/* What a mode's HUD and results screen are drawn with: the HUD layer of a w x h canvas at text
 * scale s, the aircraft and camera, and the split against the course's best run (tour_split_delta). */
typedef struct ModeDraw {
    Renderer *r;
    int w, h, s;
    const FlightState *f;
    const CameraState *cam;
    bool has_delta;
    double delta;
} ModeDraw;

typedef struct GameMode {
    const char *name;           /* the menu's and the title's label; "NAME complete" heads its results */
    const char *help;           /* the menu's help line */
    /* Lays its course into c (NULL: free flight, nothing laid), a tour over island `at` (the one
     * under the aircraft: course_island_at). False with one line in err. */
    bool (*lay)(Course *c, const World *w, const CourseIsland *at, const IslandCodex *cx, CourseWork *work, SkyError *err);
    CourseKind course;          /* the kind it lays: a recorded course (the attract replay's) finds its mode by it */
    /* --show NAME: the aircraft show_back metres before ring show_ring (the first when the course is
     * shorter), show_up above its line, looking through it (NULL: no such shot). */
    const char *show, *show_help;
    uint32_t show_ring;
    double show_back, show_up;
    /* --show NAME: its course flown by the course pilot to the results screen (NULL: none). */
    const char *show_results, *show_results_help;
    /* The HUD while the course is flown, and the results screen at its end. */
    void (*hud)(const struct Tour *t, const ModeDraw *d);
    void (*results)(const struct Tour *t, const ModeDraw *d);
    bool keep_best;             /* its best runs are kept (best times, the ghost) */
    bool attract;               /* the attract loop's mode (--record-attract flies it) */
    bool bench;                 /* --bench-course draws its course */
} GameMode;

size_t mode_count(void);
const GameMode *mode_at(size_t i);          /* NULL past the end */
int mode_index(const GameMode *m);          /* -1 when not a row */
/* The first row: the mode the game starts in and falls back to (no course). */
const GameMode *mode_free(void);
/* The row whose course is of kind k (NULL: none), the attract loop's, the bench's (NULL: none). */
const GameMode *mode_for_course(CourseKind k);
const GameMode *mode_attract(void);
const GameMode *mode_bench(void);
/* Adds a row at boot, before the menu is built (tour_boot): false when the table is full, the
 * name is taken or the row is malformed (a course without its HUD or results). */
bool mode_register(const GameMode *m);
/* The pause menu's actions, one a row (MENU_CMD_MODE, the row's index), registered once. */
void mode_menu_register(void);

/* The ring courses' HUD (the arrow to the next ring, its name and distance, the clock, the split)
 * and results screen (each ring's split beside the best run's, the total, the best): course_hud.c. */
void course_hud_draw(const struct Tour *t, const ModeDraw *d);
void course_results_draw(const struct Tour *t, const ModeDraw *d);

#endif
