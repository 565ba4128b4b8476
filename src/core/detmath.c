/* skyisles core: deterministic maths. sin, cos, atan2, asin, exp from IEEE +, -, *, / and sqrt
 * alone (correctly rounded everywhere, and the build has -ffp-contract=off), so island layout and
 * the flight model give the same bits on x86 and aarch64 whatever the C library's libm does. */
#include "core/core.h"

#include <math.h>

#define DET_PI 3.14159265358979323846
#define DET_HALF_PI 1.57079632679489661923
#define DET_LN2 0.69314718055994530942

static int64_t det_floor(double x) {
    int64_t i = (int64_t)x;
    return (double)i > x ? i - 1 : i;
}

/* Taylor series on [-pi/4, pi/4]: the truncation error is below 1e-17 there. */
static double sin_poly(double y) {
    double y2 = y * y, t = y, s = y;
    for (int k = 1; k <= 8; k++) {
        t = -t * y2 / (double)((2 * k) * (2 * k + 1));
        s = s + t;
    }
    return s;
}
static double cos_poly(double y) {
    double y2 = y * y, t = 1.0, s = 1.0;
    for (int k = 1; k <= 8; k++) {
        t = -t * y2 / (double)((2 * k - 1) * (2 * k));
        s = s + t;
    }
    return s;
}

void det_sincos(double a, double *s, double *c) {
    if (!(a > -1e15 && a < 1e15)) {   /* NaN, infinite, or beyond any angle the game turns through */
        *s = *c = NAN;
        return;
    }
    int64_t q = det_floor(a / DET_HALF_PI + 0.5);
    double y = a - (double)q * DET_HALF_PI;
    double sy = sin_poly(y), cy = cos_poly(y);
    switch ((int)(q & 3)) {
    case 0: *s = sy; *c = cy; break;
    case 1: *s = cy; *c = -sy; break;
    case 2: *s = -sy; *c = -cy; break;
    default: *s = -cy; *c = sy; break;
    }
}

/* det_sincos's sine, with only the series it takes. */
double det_sin(double a) {
    if (!(a > -1e15 && a < 1e15)) return NAN;
    int64_t q = det_floor(a / DET_HALF_PI + 0.5);
    double y = a - (double)q * DET_HALF_PI;
    switch ((int)(q & 3)) {
    case 0: return sin_poly(y);
    case 1: return cos_poly(y);
    case 2: return -sin_poly(y);
    default: return -cos_poly(y);
    }
}

double det_cos(double a) {
    double s, c;
    det_sincos(a, &s, &c);
    return c;
}

/* atan on [0, 1]: two half-angle steps (atan t = 2 atan(t / (1 + sqrt(1 + t^2)))) bring t under
 * 0.2, where 14 terms of the series leave an error below 1e-19. */
static double atan_unit(double t) {
    for (int k = 0; k < 2; k++) t = t / (1.0 + sqrt(1.0 + t * t));
    double t2 = t * t, p = t, s = t;
    for (int k = 1; k <= 14; k++) {
        p = -p * t2;
        s = s + p / (double)(2 * k + 1);
    }
    return 4.0 * s;
}

double det_atan2(double y, double x) {
    if (y != y || x != x) return NAN;
    double ax = fabs(x), ay = fabs(y);
    if (ax == 0.0 && ay == 0.0) return x < 0.0 || signbit(x) ? (signbit(y) ? -DET_PI : DET_PI) : y;
    double a;
    if (isinf(ax) && isinf(ay)) a = DET_PI / 4.0;
    else if (ay <= ax) a = atan_unit(ay / ax);
    else a = DET_HALF_PI - atan_unit(ax / ay);
    if (signbit(x)) a = DET_PI - a;
    return signbit(y) ? -a : a;
}

double det_atan(double x) { return det_atan2(x, 1.0); }

double det_asin(double x) {
    if (!(x >= -1.0 && x <= 1.0)) return NAN;
    return det_atan2(x, sqrt((1.0 - x) * (1.0 + x)));
}

double det_exp(double x) {
    if (x != x) return x;
    if (x > 709.0) return INFINITY;
    if (x < -745.0) return 0.0;
    int64_t k = det_floor(x / DET_LN2 + 0.5);
    double r = x - (double)k * DET_LN2, t = 1.0, s = 1.0;   /* |r| <= ln2 / 2 */
    for (int n = 1; n <= 18; n++) {
        t = t * r / (double)n;
        s = s + t;
    }
    return ldexp(s, (int)k);   /* exact: a power of two */
}
