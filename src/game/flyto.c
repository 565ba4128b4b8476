/* skyisles Fly to: the target's editing (steps of a power of ten, typed digits) and the text of
 * a position in metres. */
#include "flyto.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "continue.h"   /* GAME_POS_MAX */
#include "platform.h"   /* PlatformKey */
#include "world/world.h"

static double row_min(FlyToRow row) { return row == FLYTO_Y ? (double)WORLD_Y_MIN : -GAME_POS_MAX; }
static double row_max(FlyToRow row) { return row == FLYTO_Y ? (double)WORLD_Y_MAX : GAME_POS_MAX; }

static double clamp_row(FlyToRow row, double v) {
    if (!(v >= row_min(row))) return row_min(row);   /* NaN too */
    return v > row_max(row) ? row_max(row) : v;
}

static double pow10i(int k) {
    double p = 1.0;
    for (int i = 0; i < k; i++) p *= 10.0;
    return p;
}

void flyto_here(FlyTo *t, double x, double y, double z) {
    memset(t, 0, sizeof *t);
    t->pos[FLYTO_X] = clamp_row(FLYTO_X, round(x));
    t->pos[FLYTO_Y] = clamp_row(FLYTO_Y, round(y));
    t->pos[FLYTO_Z] = clamp_row(FLYTO_Z, round(z));
    t->exp = FLYTO_EXP_DEFAULT;
    t->typing = -1;
}

bool flyto_step(FlyTo *t, FlyToRow row, int dir, bool big) {
    t->typing = -1;
    int k = dir * (big ? 10 : 1);
    if (row == FLYTO_STEP) {
        int e = t->exp + k;
        if (e < 0) e = 0;
        if (e > FLYTO_EXP_MAX) e = FLYTO_EXP_MAX;
        bool moved = e != t->exp;
        t->exp = e;
        return moved;
    }
    if (row > FLYTO_Z) return false;
    /* Whole metres below 2^53: every sum here is exact. */
    double v = clamp_row(row, t->pos[row] + (double)k * pow10i(t->exp));
    bool moved = v != t->pos[row];
    t->pos[row] = v;
    return moved;
}

bool flyto_zero(FlyTo *t, FlyToRow row) {
    if (row > FLYTO_Z) return false;
    t->typing = -1;
    double v = row == FLYTO_Y ? round(((double)WORLD_Y_MIN + (double)WORLD_Y_MAX) * 0.5) : 0.0;
    bool moved = v != t->pos[row];
    t->pos[row] = v;
    return moved;
}

/* The typed digits and sign as the row's value; false (nothing kept) past the row's range. */
static bool take_typed(FlyTo *t, FlyToRow row, const char *digits, bool negative) {
    double v = digits[0] ? strtod(digits, NULL) : 0.0;
    if (negative) v = -v;
    if (v < row_min(row) || v > row_max(row)) return false;
    snprintf(t->typed, sizeof t->typed, "%s", digits);
    t->negative = negative;
    t->pos[row] = v;
    return true;
}

bool flyto_key(FlyTo *t, FlyToRow row, int key) {
    if (row > FLYTO_Z) return false;
    bool fresh = t->typing != (int)row;
    char digits[FLYTO_DIGITS + 1];
    snprintf(digits, sizeof digits, "%s", fresh ? "" : t->typed);
    bool negative = fresh ? false : t->negative;
    size_t len = strlen(digits);
    if (key >= PKEY_0 && key <= PKEY_9) {
        if (len >= FLYTO_DIGITS) return true;   /* taken, and refused */
        if (len == 1 && digits[0] == '0') len = 0;   /* no leading zero */
        digits[len] = (char)('0' + (key - PKEY_0));
        digits[len + 1] = 0;
    } else if (key == PKEY_MINUS) {
        if (fresh) {   /* the value shown, its sign turned */
            snprintf(digits, sizeof digits, "%.0f", fabs(t->pos[row]));
            negative = t->pos[row] < 0.0;
        }
        negative = !negative;
    } else if (key == PKEY_BACKSPACE) {
        if (fresh) return false;   /* not typing: Backspace goes back a page */
        if (len > 0) digits[len - 1] = 0;
    } else {
        return false;
    }
    t->typing = (int)row;
    take_typed(t, row, digits, negative);
    return true;
}

/* The whole part of |v| (below 1e16) with its thousands grouped by spaces: "1 000 000". */
static void grouped(double whole, char *buf, size_t n) {
    char d[32];
    snprintf(d, sizeof d, "%.0f", whole);
    size_t len = strlen(d), k = 0;
    for (size_t i = 0; i < len && k + 2 < n; i++) {
        if (i > 0 && (len - i) % 3 == 0) buf[k++] = ' ';
        buf[k++] = d[i];
    }
    buf[k < n ? k : n - 1] = 0;
}

size_t flyto_metres_text(double v, char *buf, size_t n) {
    if (!(v == v)) return (size_t)snprintf(buf, n, "?");
    double a = fabs(v);
    const char *sign = v < 0.0 ? "-" : "";
    if (a < 1e4) {
        if (a < 0.05) sign = "";   /* no "-0.0" */
        return (size_t)snprintf(buf, n, "%s%.1f m", sign, a);
    }
    /* Kilometres to the metre: the thousandths, rounded, then split off. */
    double m = round(a), km = floor(m / 1000.0);
    char whole[40];
    grouped(km, whole, sizeof whole);
    return (size_t)snprintf(buf, n, "%s%s.%03.0f km", sign, whole, m - km * 1000.0);
}

void flyto_value(const FlyTo *t, FlyToRow row, char *buf, size_t n) {
    if (row == FLYTO_STEP) {
        if (t->exp <= 3) snprintf(buf, n, "%.0f m", pow10i(t->exp));
        else snprintf(buf, n, "1e%d m", t->exp);
        return;
    }
    if (row > FLYTO_Z) {
        buf[0] = 0;
        return;
    }
    char whole[40];
    grouped(fabs(t->pos[row]), whole, sizeof whole);
    snprintf(buf, n, "%s%s m%s", t->pos[row] < 0.0 ? "-" : "", whole, t->typing == (int)row ? "_" : "");
}
