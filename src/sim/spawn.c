/* skyisles sim: where a flight starts (W9's spawn mapped onto the home island) and a ray survey
 * of what a camera sees there. Pure: reads the world only through its density, parameters and home island. */
#include <math.h>
#include <string.h>

#include "sim/sim.h"
#include "sim/simmath.h"

bool sim_on_home(const World *w, double x, double z) {
    const IslandField *h = world_home(w);
    return h && island_field_on(h, x, z);
}

typedef enum RayHit { HIT_SKY, HIT_HOME, HIT_TERRAIN, HIT_UNDERSIDE, HIT_CLOUD } RayHit;

/* Marches one ray; *stop gets where it ended, *cloud_at the distance of its first cloud. */
static RayHit march(const World *w, const double o[3], const double d[3], double reach, double time_s, double stop[3],
                    double *cloud_at) {
    const WorldGenParams *p = &world_params(w)->gen;
    double band_lo = (double)(p->cloud_centre - p->cloud_range), band_hi = (double)(p->cloud_centre + p->cloud_range);
    *cloud_at = -1.0;
    for (double t = SIM_SURVEY_STEP; t <= reach; t += SIM_SURVEY_STEP) {
        double x = o[0] + d[0] * t, y = o[1] + d[1] * t, z = o[2] + d[2] * t;
        stop[0] = x, stop[1] = y, stop[2] = z;
        if (y > WORLD_Y_MAX && d[1] >= 0.0) return HIT_SKY;   /* above everything, not coming down */
        if (world_solid_at(w, x, y, z)) {
            /* Going up into rock with air below it: the underside of an island. */
            if (d[1] > 0.0 && !world_solid_at(w, x, y - 2.0, z)) return HIT_UNDERSIDE;
            bool home = sim_on_home(w, x, z) && y >= (double)(world_home_sea(p, world_home(w)) - WORLD_HOME_FLOOR);
            return home ? HIT_HOME : HIT_TERRAIN;
        }
        if (p->clouds && y > band_lo && y < band_hi && world_cloud_at_params(p, time_s, x, y, z)) {
            *cloud_at = t;
            return HIT_CLOUD;
        }
    }
    return HIT_SKY;
}

static void camera_basis(const CameraState *c, double f[3], double r[3], double u[3]) {
    double cy = det_cos((double)c->yaw), sy = det_sin((double)c->yaw), cp = det_cos((double)c->pitch), sp = det_sin((double)c->pitch);
    /* yaw 0 looks along -z; +yaw turns right; +pitch looks up (flight_forward's convention). */
    f[0] = sy * cp, f[1] = sp, f[2] = -cy * cp;
    r[0] = cy, r[1] = 0.0, r[2] = sy;
    u[0] = r[1] * f[2] - r[2] * f[1];
    u[1] = r[2] * f[0] - r[0] * f[2];
    u[2] = r[0] * f[1] - r[1] * f[0];
}

static RayHit survey_ray(const World *w, const CameraState *c, double sx, double sy, double tx, double ty,
                         double reach, double time_s, double stop[3], double *cloud_at) {
    double f[3], r[3], u[3], d[3];
    camera_basis(c, f, r, u);
    double n = 0.0;
    for (int k = 0; k < 3; k++) {
        d[k] = f[k] + r[k] * sx * tx + u[k] * sy * ty;
        n += d[k] * d[k];
    }
    n = sqrt(n);
    for (int k = 0; k < 3; k++) d[k] /= n;
    double o[3] = {c->x, c->y, c->z};
    return march(w, o, d, reach, time_s, stop, cloud_at);
}

void sim_view_survey(const World *w, const CameraState *c, float fov_y_rad, float aspect, double reach, double time_s,
                     SimViewSurvey *out) {
    memset(out, 0, sizeof *out);
    double hs, hc;
    det_sincos(0.5 * (double)fov_y_rad, &hs, &hc);
    double ty = hs / hc, tx = ty * (double)aspect;
    double stop[3], cloud_at;
    out->nearest_cloud = reach;
    for (int j = 0; j < SIM_SURVEY_ROWS; j++)
        for (int i = 0; i < SIM_SURVEY_COLS; i++) {
            /* Ray through the centre of screen cell (i, j); sx right, sy up, both in [-1, 1]. */
            double sx = ((double)i + 0.5) / SIM_SURVEY_COLS * 2.0 - 1.0;
            double sy = 1.0 - ((double)j + 0.5) / SIM_SURVEY_ROWS * 2.0;
            RayHit h = survey_ray(w, c, sx, sy, tx, ty, reach, time_s, stop, &cloud_at);
            out->rays++;
            switch (h) {
            case HIT_HOME: out->home++; break;
            case HIT_TERRAIN: out->terrain++; break;
            case HIT_UNDERSIDE: out->underside++; break;
            case HIT_CLOUD: out->cloud++; break;
            case HIT_SKY: out->sky++; break;
            }
            if (h == HIT_CLOUD && cloud_at < out->nearest_cloud) out->nearest_cloud = cloud_at;
        }
    RayHit h = survey_ray(w, c, 0.0, 0.0, tx, ty, reach, time_s, out->centre_hit, &cloud_at);
    out->centre_home = h == HIT_HOME;
}

/* Open air for the aircraft at (x, y, z) heading `yaw` and for its chase camera: a box of
 * SIM_SPAWN_CLEARANCE metres around both, and open sky above both up to the top of the world. */
static bool open_air(const World *w, const FlightState *f, const CameraState *c) {
    static const double around[][3] = {{0, 0, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    const double k = SIM_SPAWN_CLEARANCE;
    for (size_t i = 0; i < sizeof around / sizeof around[0]; i++) {
        if (world_solid_at(w, f->x + around[i][0] * k, f->y + around[i][1] * k, f->z + around[i][2] * k)) return false;
        if (world_solid_at(w, c->x + around[i][0] * k, c->y + around[i][1] * k, c->z + around[i][2] * k)) return false;
    }
    for (double y = c->y; y < WORLD_Y_MAX + 4.0; y += 4.0)
        if (world_solid_at(w, c->x, y, c->z) || world_solid_at(w, f->x, y, f->z)) return false;
    /* Trees and landmarks stand on the ground under open sky: none may reach either box. */
    return sim_clear_of_objects(w, f->x, f->y, f->z, k) && sim_clear_of_objects(w, c->x, c->y, c->z, k);
}

static double clearance_below(const World *w, double x, double y, double z) {
    double d = 0.0;
    while (d < y - WORLD_Y_MIN && !world_solid_at(w, x, y - d, z)) d += 1.0;
    return d;
}

static bool view_ok(const SimViewSurvey *v) {
    return v->centre_home && (float)v->home >= SIM_SPAWN_HOME_SHARE * (float)v->rays &&
           (float)v->underside <= SIM_SPAWN_UNDERSIDE_SHARE * (float)v->rays && v->nearest_cloud >= SIM_SPAWN_CLOUD_NEAR;
}

void sim_spawn_choose(const World *w, float speed, float fov_y_rad, float aspect, double time_s, SimSpawn *out) {
    const WorldParams *p = world_params(w);
    memset(out, 0, sizeof *out);
    double x = SIM_SPAWN_X, z = SIM_SPAWN_Z, y0 = SIM_SPAWN_Y;
    const IslandField *home = world_home(w);
    if (home && home->size > 0) {
        /* Off the island's coast, looking inland at its slopes and peak, from its sea level up
         * (one block per metre: the island stands 60 m tall, W9's 150 m would be over it). */
        out->home_x = (double)home->centre_x;
        out->home_z = (double)home->centre_z;
        x = out->home_x + SIM_SPAWN_X;
        z = out->home_z + (double)home->radius_m + SIM_SPAWN_COAST;
        double sea = (double)world_home_sea(&p->gen, home);
        if (sea > y0) y0 = sea;
    }
    /* Heading for the island's centre (yaw 0 flies towards -z). */
    double dx = out->home_x - x, dz = out->home_z - z;
    float yaw = (dx == 0.0 && dz == 0.0) ? 0.0f : (float)det_atan2(dx, -dz);
    double reach = (double)p->live.view_radius * CHUNK_SIZE;
    bool have_best = false;
    uint32_t best_home = 0;
    double last_y = -1.0;
    for (double y = y0; y <= WORLD_Y_MAX + 40.0; y += 4.0) {
        FlightState f;
        CameraState c;
        flight_init(&f, x, y, z, yaw, speed);
        f.time_s = time_s;
        camera_chase(&f, &c);
        if (!open_air(w, &f, &c)) continue;
        /* The autopilot lifts a start over terrain ahead; survey where it will really fly. */
        flight_autopilot_start(&f, w);
        if (f.y == last_y) continue;   /* lifted to a start already surveyed */
        last_y = f.y;
        camera_chase(&f, &c);
        if (!open_air(w, &f, &c)) continue;
        SimViewSurvey v;
        sim_view_survey(w, &c, fov_y_rad, aspect, reach, time_s, &v);
        out->tries++;
        bool ok = view_ok(&v);
        if (ok || !have_best || v.home > best_home) {
            out->flight = f;
            out->camera = c;
            out->view = v;
            out->home_in_view = ok;
            best_home = v.home;
            have_best = true;
        }
        if (ok) break;
    }
    if (!have_best) {
        /* Nothing below the top of the world is open (cannot happen with the shipped field):
         * start above everything. */
        flight_init(&out->flight, x, WORLD_Y_MAX + 40.0, z, yaw, speed);
        out->flight.time_s = time_s;
        camera_chase(&out->flight, &out->camera);
        sim_view_survey(w, &out->camera, fov_y_rad, aspect, reach, time_s, &out->view);
    }
    out->clearance = clearance_below(w, out->flight.x, out->flight.y, out->flight.z);
}
