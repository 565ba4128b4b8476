/* skyisles sim: the one public header of src/sim (pure C, no SDL/GL).
 * Flight state, the autopilot's fixed flight path, the chase camera, and where a flight starts
 * (the spawn over the home island). Flight controls (a later step) drive the same FlightState
 * through flight_step(). */
#ifndef SKYISLES_SIM_H
#define SKYISLES_SIM_H

#include <stdbool.h>

#include "world/world.h"

/* The seed's spawn point (W9 respawns there), in the seed's units: 150 m from the origin,
 * where the home island sits, at height 40 of its 0..64 terrain. sim_spawn_choose() maps it
 * onto this world's taller range. */
#define SIM_SPAWN_X 0.0
#define SIM_SPAWN_Y 40.0
#define SIM_SPAWN_Z 150.0

/* Radians per degree, for options and logs given in degrees. */
#define SIM_DEG (3.14159265358979f / 180.0f)

typedef struct FlightState {
    double x, y, z;             /* aircraft position, metres (one block = one metre) */
    float yaw, pitch, roll;     /* radians; yaw 0 flies towards -z, +yaw turns right, +roll banks right */
    float speed;                /* m/s along the nose */
    float prop_angle;           /* propeller, radians */
    double time_s;              /* sim time */
    /* autopilot path parameters */
    double cruise_y;            /* mean altitude */
    float yaw0;
    double avoid_y;             /* lowest clear altitude found ahead by the terrain probes */
    float probe_timer;
} FlightState;

typedef struct CameraState {
    double x, y, z;
    float yaw, pitch, roll;
} CameraState;

/* Pilot input for flight_step: the controls issue fills this. */
typedef struct FlightInput {
    float pitch, roll, yaw;     /* -1..1 */
    float throttle;             /* 0..1 */
} FlightInput;

void flight_init(FlightState *f, double x, double y, double z, float yaw, float speed);
/* Advances along the autopilot's deterministic path (gentle S-turns with banking and a slow
 * climb/descent around cruise_y), climbing over terrain it finds ahead by density probes when
 * a world is given (NULL: no avoidance). Same dt sequence -> same poses on every machine. */
void flight_autopilot_step(FlightState *f, float dt, const World *w);
/* Moves a fresh autopilot start (and its cruise altitude) up into open air. */
void flight_autopilot_start(FlightState *f, const World *w);
/* Direct control: pitch/roll/yaw rates from input, speed from throttle. */
void flight_step(FlightState *f, const FlightInput *in, float dt);
/* Time passes and the propeller turns, the aircraft stays put (a fixed camera's shot). */
void flight_idle(FlightState *f, float dt);
/* Unit nose direction. */
void flight_forward(const FlightState *f, float out[3]);

/* Chase camera behind and above the aircraft. */
void camera_chase(const FlightState *f, CameraState *out);
/* The aircraft where the chase camera would put it for a given camera (fixed-camera shots). */
void flight_in_front_of(const CameraState *c, FlightState *f);

/* What the world needs to stream around the aircraft. */
void sim_world_view(const FlightState *f, const CameraState *c, float fov_y_rad, float aspect, WorldView *out);

/* ---------------------------------------------------------------- spawn (spawn.c) */
/* What a camera sees: rays over its view, each classified by the first thing it meets within
 * `reach` metres (march step SIM_SURVEY_STEP). */
#define SIM_SURVEY_COLS 12
#define SIM_SURVEY_ROWS 9
#define SIM_SURVEY_STEP 2.0

typedef struct SimViewSurvey {
    uint32_t rays;        /* SIM_SURVEY_COLS * SIM_SURVEY_ROWS */
    uint32_t home;        /* the home island's surface: inside its field, seen from above or the side */
    uint32_t terrain;     /* any other rock seen from above or the side */
    uint32_t underside;   /* rock met going upwards with air below it: an island's underside */
    uint32_t cloud;       /* a cloud before any rock */
    uint32_t sky;         /* nothing within reach */
    bool centre_home;     /* the ray through the screen centre meets the home island */
    double centre_hit[3]; /* where the centre ray stopped (its reach when it met nothing) */
    double nearest_cloud; /* metres to the nearest cloud met by any ray (reach when none) */
} SimViewSurvey;

/* Casts the survey rays from camera c (vertical field of view fov_y_rad, aspect w/h; roll is
 * ignored) into w's field as it stands, clouds as chunks created at time_s carry them. */
void sim_view_survey(const World *w, const CameraState *c, float fov_y_rad, float aspect, double reach, double time_s,
                     SimViewSurvey *out);

/* True when column (x, z) lies on the home island (a cell of w's IslandField with a location type). */
bool sim_on_home(const World *w, double x, double z);

typedef struct SimSpawn {
    FlightState flight;   /* ready for flight_autopilot_step (or flight_step) */
    CameraState camera;   /* the chase camera of that flight */
    SimViewSurvey view;   /* what that camera sees */
    double home_x, home_z;/* the home island's centre: the field's centre, the origin without one */
    double clearance;     /* metres of air from the aircraft down to the rock below it */
    uint32_t tries;       /* altitudes surveyed */
    bool home_in_view;    /* the view met the acceptance rule below */
} SimSpawn;

/* Where a flight starts and restarts (W9): SIM_SPAWN_X/Z from the home island's centre,
 * heading for it, at the lowest altitude (from the seed's SIM_SPAWN_Y up) where the aircraft
 * and its chase camera are in open air (SIM_SPAWN_CLEARANCE metres around them, open sky
 * above), the autopilot sees nothing to climb over ahead, and the view shows the home island:
 * the centre ray meets it, it fills at least SIM_SPAWN_HOME_SHARE of the rays, at most
 * SIM_SPAWN_UNDERSIDE_SHARE meet an underside and no cloud lies within SIM_SPAWN_CLOUD_NEAR.
 * When no altitude up to WORLD_Y_MAX + 40 meets the rule, the one that came closest (most
 * home rays among those in open air) is taken and home_in_view is false.
 * Deterministic; allocation-free; reads w only through world_density_at/world_params. */
#define SIM_SPAWN_CLEARANCE 8.0
#define SIM_SPAWN_HOME_SHARE 0.25f
#define SIM_SPAWN_UNDERSIDE_SHARE 0.02f
#define SIM_SPAWN_CLOUD_NEAR 60.0
void sim_spawn_choose(const World *w, float speed, float fov_y_rad, float aspect, double time_s, SimSpawn *out);

#endif
