/* skyisles course: a run of a course. The clock runs from the start to the last ring, through
 * crashes; a ring counts only as the next one (a missed ring stays next); a crash puts the
 * aircraft back at the last ring passed, heading through it. */
#include <math.h>
#include <string.h>

#include "course/course.h"
#include "sim/simmath.h"

static void pose_at(FlightState *f, double x, double y, double z, float nx, float ny, float nz, float speed) {
    FlightState keep = *f;
    float yaw = (nx == 0.0f && nz == 0.0f) ? keep.yaw : sm_atan2(nx, -nz);
    flight_init(f, x, y, z, yaw, speed);
    f->pitch = sm_asin(ny < -1.0f ? -1.0f : (ny > 1.0f ? 1.0f : ny));
    f->throttle = keep.throttle;
    f->time_s = keep.time_s;
    f->prop_angle = keep.prop_angle;
}

void course_run_start(CourseRun *r, const Course *c, FlightState *f, float speed) {
    memset(r, 0, sizeof *r);
    r->course = c;
    memset(f, 0, sizeof *f);
    float nx = sm_sin(c->start_yaw), nz = -sm_cos(c->start_yaw);
    pose_at(f, c->start_x, c->start_y, c->start_z, nx, 0.0f, nz, speed);
}

void course_run_restart(const CourseRun *r, FlightState *f) {
    const Course *c = r->course;
    float speed = f->speed > 20.0f ? f->speed : 20.0f;
    if (r->next == 0 || r->next > c->n_rings) {
        pose_at(f, c->start_x, c->start_y, c->start_z, sm_sin(c->start_yaw), 0.0f, -sm_cos(c->start_yaw), speed);
        return;
    }
    const CourseRing *g = &c->rings[r->next - 1u];
    pose_at(f, g->x, g->y, g->z, g->nx, g->ny, g->nz, speed);
}

uint32_t course_run_step(CourseRun *r, FlightState *f, double x0, double y0, double z0, bool hit, float dt) {
    if (r->finished) return 0;
    uint32_t ev = 0;
    r->clock_s += (double)dt;
    const Course *c = r->course;
    if (r->next < c->n_rings && course_ring_crossed(&c->rings[r->next], x0, y0, z0, f->x, f->y, f->z)) {
        r->split_s[r->next++] = r->clock_s;
        ev |= COURSE_EVENT_RING;
        if (r->next == c->n_rings) {
            r->finished = true;
            return ev | COURSE_EVENT_FINISH;
        }
    }
    if (hit) {
        r->crashes++;
        course_run_restart(r, f);
        ev |= COURSE_EVENT_RESTART;
    }
    return ev;
}
