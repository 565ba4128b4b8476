/* skyisles sim: the one public header of src/sim (pure C, no SDL/GL).
 * Flight state, the autopilot's fixed flight path and the chase camera. Flight controls
 * (a later step) drive the same FlightState through flight_step(). */
#ifndef SKYISLES_SIM_H
#define SKYISLES_SIM_H

#include <stdbool.h>

#include "world/world.h"

/* The seed's spawn point (W9 respawns there). */
#define SIM_SPAWN_X 0.0
#define SIM_SPAWN_Y 40.0
#define SIM_SPAWN_Z 150.0

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
/* Unit nose direction. */
void flight_forward(const FlightState *f, float out[3]);

/* Chase camera behind and above the aircraft. */
void camera_chase(const FlightState *f, CameraState *out);
/* The aircraft where the chase camera would put it for a given camera (fixed-camera shots). */
void flight_in_front_of(const CameraState *c, FlightState *f);

/* What the world needs to stream around the aircraft. */
void sim_world_view(const FlightState *f, const CameraState *c, float fov_y_rad, float aspect, WorldView *out);

#endif
