/* skyisles noise: seed 001's sky value noise (sin hash, smooth fade, 8-corner blend, FBM)
 * as a float CPU reference and bake source; sinf-based, so not on any determinism path. */
#include <math.h>

#include "noise/noise.h"

static float fractf(float v) { return v - floorf(v); }

/* hash(p) = fract(sin(dot(p, vec3(12.9898, 78.233, 128.852))) * 43758.5453) */
static float sky_hash(float x, float y, float z) {
    float d = x * 12.9898f + y * 78.233f + z * 128.852f;
    return fractf(sinf(d) * 43758.5453f);
}

/* GLSL mix(a, b, t) = a * (1 - t) + b * t */
static float mixf(float a, float b, float t) { return a * (1.0f - t) + b * t; }

static int wrap_cell(float c, int period) {
    /* c is an integer-valued float; keep the int conversion in range. */
    if (c > 2147483520.0f) c = 2147483520.0f;
    if (c < -2147483520.0f) c = -2147483520.0f;
    int i = (int)c;
    int r = i % period;
    return r < 0 ? r + period : r;
}

static float sky_value(float x, float y, float z, int period) {
    float ix = floorf(x), iy = floorf(y), iz = floorf(z);
    float fx = x - ix, fy = y - iy, fz = z - iz;
    fx = fx * fx * (3.0f - 2.0f * fx);
    fy = fy * fy * (3.0f - 2.0f * fy);
    fz = fz * fz * (3.0f - 2.0f * fz);

    float cx[2], cy[2], cz[2];
    for (int c = 0; c < 2; c++) {
        if (period > 0) {
            cx[c] = (float)wrap_cell(ix + (float)c, period);
            cy[c] = (float)wrap_cell(iy + (float)c, period);
            cz[c] = (float)wrap_cell(iz + (float)c, period);
        } else {
            cx[c] = ix + (float)c;
            cy[c] = iy + (float)c;
            cz[c] = iz + (float)c;
        }
    }
    float a = mixf(mixf(sky_hash(cx[0], cy[0], cz[0]), sky_hash(cx[1], cy[0], cz[0]), fx),
                   mixf(sky_hash(cx[0], cy[1], cz[0]), sky_hash(cx[1], cy[1], cz[0]), fx), fy);
    float b = mixf(mixf(sky_hash(cx[0], cy[0], cz[1]), sky_hash(cx[1], cy[0], cz[1]), fx),
                   mixf(sky_hash(cx[0], cy[1], cz[1]), sky_hash(cx[1], cy[1], cz[1]), fx), fy);
    float v = mixf(a, b, fz);
    /* fract() is in [0,1); the blend of such values can only round up to 1 at most. */
    return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
}

float noise_sky_value3(float x, float y, float z) { return sky_value(x, y, z, 0); }

float noise_sky_value3_periodic(float x, float y, float z, int period) {
    return sky_value(x, y, z, period > 0 ? period : 0);
}

static float sky_fbm(float x, float y, float z, int period) {
    float v = 0.0f, a = 0.5f;
    for (int i = 0; i < 5; i++) {
        v += a * sky_value(x, y, z, period);
        x *= 2.0f; y *= 2.0f; z *= 2.0f;
        a *= 0.5f;
        if (period > 0) period = period <= (1 << 29) ? period * 2 : period;
    }
    return v;
}

float noise_sky_fbm(float x, float y, float z) { return sky_fbm(x, y, z, 0); }

float noise_sky_fbm_periodic(float x, float y, float z, int period) {
    return sky_fbm(x, y, z, period > 0 ? period : 0);
}
