/* skyisles sim: the float forms of core's deterministic maths (no libm transcendental on the
 * flight, collision or spawn path: the same bits on x86 and aarch64, so replays hold). */
#ifndef SKYISLES_SIM_SIMMATH_H
#define SKYISLES_SIM_SIMMATH_H

#include "core/core.h"

static inline float sm_sin(float a) { return (float)det_sin((double)a); }
static inline float sm_cos(float a) { return (float)det_cos((double)a); }
static inline float sm_atan(float x) { return (float)det_atan((double)x); }
static inline float sm_asin(float x) { return (float)det_asin((double)x); }
static inline float sm_atan2(float y, float x) { return (float)det_atan2((double)y, (double)x); }
static inline float sm_exp(float x) { return (float)det_exp((double)x); }

#endif
