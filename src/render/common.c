/* skyisles renderer: what every stage shares and calls downward into: the count of CPU time spent
 * inside GL calls (RENDER_GL, for the frame bench) and the attitude basis of the camera and the
 * aircraft. A leaf: it calls nothing else of the renderer. */
#include <math.h>
#include <time.h>

#include "render_internal.h"

uint64_t render_driver_ns;
bool render_driver_timing;

void render_set_driver_timing(bool on) { render_driver_timing = on; }

void render_basis(float yaw, float pitch, float roll, float right[3], float up[3], float fwd[3]) {
    float cy = cosf(yaw), sy = sinf(yaw), cp = cosf(pitch), sp = sinf(pitch);
    float cr = cosf(roll), sr = sinf(roll);
    const float right0[3] = {cy, 0.0f, sy};                 /* level right vector */
    const float up0[3] = {-sy * sp, cp, cy * sp};           /* up of the pitched, unrolled attitude */
    fwd[0] = sy * cp;
    fwd[1] = sp;
    fwd[2] = -cy * cp;
    for (int i = 0; i < 3; i++) {                           /* roll about the forward axis */
        right[i] = right0[i] * cr - up0[i] * sr;
        up[i] = up0[i] * cr + right0[i] * sr;
    }
}
