/* skyisles tests: a WorldView looking east from (x, y, z) at time t and the given speed, with the
 * game's field of view on a 16:9 screen, for tests that drive the streamer by hand. */
#ifndef SKYISLES_TEST_WORLD_VIEW_H
#define SKYISLES_TEST_WORLD_VIEW_H

#include <string.h>

#include "world/world.h"

static inline WorldView test_view_east(double x, double y, double z, double t, float speed) {
    WorldView v;
    memset(&v, 0, sizeof v);
    v.x = x;
    v.y = y;
    v.z = z;
    v.dir_x = 1.0f;
    v.speed = speed;
    v.fov_y_rad = 1.1f;
    v.aspect = 16.0f / 9.0f;
    v.time_s = t;
    return v;
}

#endif
