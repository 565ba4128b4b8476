/* skyisles sim: the one public header of src/sim (pure C, no SDL/GL).
 * Flight (the pilot's arcade model and the autopilot's fixed path), cameras (smoothed chase and
 * cockpit), collision against THE density field, and where a flight starts and restarts. */
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

/* The simulation's version: bumped whenever a change to the flight model, collision, restarts
 * or the fixed step (src/sim, src/game/play.c's step) would fly a recorded input differently, so a
 * new build keeps the best runs of an old one as long as the flight is the same. */
#define SIM_VERSION 4u   /* 2: trees, boulders, cacti and landmarks are solid; 3: wheels, touchdowns and the stall; 4: fair weather about the spawn at first, natural coasts, water and the archipelago */
#define SIM_STEP_HZ 60
#define SIM_STEP (1.0f / 60.0f)   /* seconds per fixed sim step */

/* Radians per degree, for options and logs given in degrees. */
#define SIM_DEG (3.14159265358979f / 180.0f)

typedef struct FlightState {
    double x, y, z;             /* aircraft position, metres (one block = one metre) */
    float yaw, pitch, roll;     /* radians; yaw 0 flies towards -z, +yaw turns right, +roll banks right */
    float speed;                /* m/s along the nose */
    float throttle;             /* 0..1: cruise speed between FlightModel.speed_min and speed_max */
    float boost;                /* 0..1: how far the boost has pushed toward the speed limit */
    float prop_angle;           /* propeller, radians */
    double time_s;              /* sim time */
    /* autopilot path parameters */
    double cruise_y;            /* mean altitude */
    float yaw0;
    double avoid_y;             /* lowest clear altitude found ahead by the terrain probes */
    float probe_timer;
    bool on_ground;             /* rolling on its wheels (flight_step rolls, sim_ground_contact keeps it on the ground) */
} FlightState;

typedef struct CameraState {
    double x, y, z;
    float yaw, pitch, roll;
} CameraState;

/* Pilot input for flight_step. */
typedef struct FlightInput {
    float pitch, roll, yaw;     /* -1..1: + nose up, + bank right, + rudder right */
    float throttle;             /* -1..1: throttle moves down / up while held */
    bool boost;                 /* held: push toward the speed limit */
    bool brake;                 /* held: the wheel brakes (on the ground) */
} FlightInput;

/* The pilot's aircraft: arcade but believable. Pitch and roll turn the aircraft about its own
 * axes (pull back in a bank and it turns), a bank turns it (bank-to-turn), the bank levels out
 * when the stick is let go, diving gains a little speed and climbing loses some. Below speed_min
 * (a steep climb with the throttle closed) the engine pulls back only gently, and below
 * SIM_STALL_SPEED it stalls: the lift fades (the aircraft sinks) and the nose drops until the
 * dive has the speed back. On its wheels it rolls (ground.c's numbers). Speeds in m/s. */
/* The boost's top speed a model starts with (m/s); the game's speed-limit setting defaults to it. */
#define SIM_SPEED_LIMIT_DEFAULT 1000.0f

typedef struct FlightModel {
    float speed_min;            /* throttle 0: slow cruise */
    float speed_max;            /* throttle 1 */
    float speed_limit;          /* the boost's top speed (the seed's "absurd" speed) */
    float pitch_rate, roll_rate, yaw_rate;   /* rad/s at full deflection */
    float bank_turn;            /* rad/s of turn at a 90-degree bank (scaled down at speed) */
    float level_rate;           /* 1/s: how fast a released bank levels out */
    float throttle_rate;        /* throttle per second while held */
} FlightModel;

void flight_model_default(FlightModel *m);

void flight_init(FlightState *f, double x, double y, double z, float yaw, float speed);
/* Advances along the autopilot's deterministic path (gentle S-turns with banking and a slow
 * climb/descent around cruise_y), climbing over terrain it finds ahead by density probes when
 * a world is given (NULL: no avoidance). Same dt sequence -> same poses on every machine. */
void flight_autopilot_step(FlightState *f, float dt, const World *w);
/* The autopilot as a pilot: stick and throttle that fly the same S-turns and altitude swell
 * (climbing over what the probes find ahead) through flight_step, so it obeys the flight model
 * and collision like a player. cruise_speed is the speed it holds. Asked to boost, it first
 * climbs above the world's top (nothing can be avoided at hundreds of metres a second) and
 * boosts only up there; it stays up until it has slowed down again. On the wheels it takes off:
 * full throttle straight ahead, pulling up (flight_step lifts off at the takeoff speed). */
void flight_autopilot_input(FlightState *f, const World *w, float cruise_speed, bool boost, float dt, FlightInput *out);
/* Moves a fresh autopilot start (and its cruise altitude) up into open air. */
void flight_autopilot_start(FlightState *f, const World *w);
/* The pilot flies: one step of the arcade model; on the ground (f->on_ground) the roll: the
 * throttle's push, the wheels' drag, the brakes, rudder (and stick) steering, no pitch or bank;
 * pulling up at SIM_TAKEOFF_SPEED or faster lifts off. The ground's height is
 * sim_ground_contact's business: flight_step keeps the height while rolling. */
void flight_step(FlightState *f, const FlightInput *in, const FlightModel *m, float dt);
/* Throttle that gives a speed (clamped to the model's cruise range). */
float flight_throttle_for(const FlightModel *m, float speed);
/* The cruise speed a throttle setting (0..1) picks: flight_throttle_for's inverse. */
float flight_cruise_speed(const FlightModel *m, float throttle);
/* Time passes and the propeller turns, the aircraft stays put (a fixed camera's shot). */
void flight_idle(FlightState *f, float dt);
/* Unit nose direction. */
void flight_forward(const FlightState *f, float out[3]);

/* The stall's share at a speed: 0 at SIM_STALL_SPEED and above, 1 at SIM_STALL_SPAN below it. */
float flight_stall_share(float speed);
/* The stall warning: in the air below SIM_STALL_WARN_SPEED. */
bool flight_stall_warning(const FlightState *f);

/* FNV-1a 64 of the flight's physical state (position, attitude, speeds, throttle, boost, time, on the ground;
 * not the autopilot's planning fields): equal hashes, the same flight to the bit. */
uint64_t flight_state_hash(const FlightState *f, uint64_t h);

/* Chase camera behind and above the aircraft (no smoothing: the pose it settles to). */
void camera_chase(const FlightState *f, CameraState *out);

/* The player's camera: a chase view that follows the aircraft's turns with a lag (smoothed in
 * the aircraft's frame, so it keeps up at any speed), or the cockpit view at the nose. */
typedef enum CameraMode { CAMERA_CHASE = 0, CAMERA_COCKPIT } CameraMode;
typedef struct CameraRig {
    CameraMode mode;
    float yaw, pitch, roll;     /* smoothed chase orientation */
    bool settled;               /* false: the next update jumps to the target (a respawn, a cut) */
} CameraRig;
void camera_rig_reset(CameraRig *r, CameraMode mode);
void camera_rig_update(CameraRig *r, const FlightState *f, float dt, CameraState *out);
/* The aircraft where the chase camera would put it for a given camera (fixed-camera shots). */
void flight_in_front_of(const CameraState *c, FlightState *f);

/* What the world needs to stream around the aircraft. */
void sim_world_view(const FlightState *f, const CameraState *c, float fov_y_rad, float aspect, WorldView *out);

/* ---------------------------------------------------------------- ground (runs.c, ground.c) */
/* The aircraft's wheels, the stall and the ground roll: every number of the model in one place.
 * Speeds in m/s, accelerations in m/s^2, angles in radians, lengths in metres (one block = 1 m). */
#define SIM_STALL_SPEED 15.0f           /* below it lift fades and the nose drops */
#define SIM_STALL_SPAN 4.0f             /* the stall is full this far below SIM_STALL_SPEED */
#define SIM_STALL_WARN_SPEED 18.0f      /* the stall warning (HUD, horn) below it in the air */
#define SIM_STALL_SINK 7.0f             /* m/s of sink a full stall adds (the lift that is gone) */
#define SIM_STALL_NOSE_RATE 1.1f        /* rad/s the nose drops at in a full stall */
#define SIM_TAKEOFF_SPEED 19.0f         /* pulling up on the ground lifts off from this speed */
#define SIM_ROTATE_PITCH (6.0f * SIM_DEG) /* the nose comes up this far as the wheels leave */
#define SIM_APPROACH_SPEED 22.0f        /* the touchdown speed the strips are sized for */
#define SIM_TOUCHDOWN_SPEED_MAX 35.0f   /* faster at the touch: a crash */
#define SIM_SINK_SMOOTH 1.0f            /* sink rates at the touch: below it smooth, */
#define SIM_SINK_FIRM 2.5f              /* below it firm, */
#define SIM_SINK_MAX 4.0f               /* below it hard, above it a crash */
#define SIM_BANK_MAX (10.0f * SIM_DEG)  /* more bank at the touch: a wing first */
#define SIM_PITCH_MIN (-10.0f * SIM_DEG)/* nose lower at the touch: the nose first */
#define SIM_PITCH_MAX (20.0f * SIM_DEG) /* nose higher at the touch: the tail first */
#define SIM_WHEEL_H 0.6                 /* the aircraft's centre above the ground it rolls on */
#define SIM_WHEEL_BASE 2.5              /* the nose wheel ahead of the centre, the mains 1.5 m behind */
#define SIM_WHEEL_TRACK 2.0             /* the main wheels either side of the centre */
#define SIM_GROUND_THRUST 6.0f          /* the engine's push on the ground at full throttle */
#define SIM_ROLL_DRAG 0.3f              /* the wheels' rolling resistance, */
#define SIM_ROLL_DRAG_K 0.15f           /* and per m/s of speed (1/s): a little throttle taxis at walking speed */
#define SIM_BRAKE_DECEL 3.5f            /* the brakes, held */
#define SIM_STEER_RATE 0.8f             /* rad/s of turn at full rudder while rolling slowly */
#define SIM_TAXI_THROTTLE 0.1f          /* this throttle rolls at 2 m/s: walking speed */
#define SIM_STRIP_MARGIN 1.5f           /* a strip is this many times the longer run */

/* The speed change per second while rolling: the throttle's push less the wheels' drag and the
 * brakes (brake 0..1); never pushes a stopped aircraft backwards. */
float sim_ground_accel(float speed, float throttle, float brake);
/* Metres from a standstill at full throttle to SIM_TAKEOFF_SPEED, flown step by step as
 * flight_step rolls (the same arithmetic: exact, the same on every machine). */
double sim_takeoff_run_m(void);
/* Metres to a stop from touchdown_speed with the throttle closed and the brakes held. */
double sim_landing_run_m(float touchdown_speed);
/* The strip length the model needs: SIM_STRIP_MARGIN times the longer of the takeoff run and
 * the landing run from SIM_APPROACH_SPEED. */
double sim_strip_length_m(void);

/* A touch of the wheels, rated by its sink rate. */
typedef enum SimTouchRating { SIM_TOUCH_SMOOTH = 0, SIM_TOUCH_FIRM, SIM_TOUCH_HARD } SimTouchRating;
typedef enum SimGroundEvent { SIM_GROUND_NONE = 0, SIM_GROUND_TOUCHDOWN, SIM_GROUND_CRASH } SimGroundEvent;
typedef struct CollisionResult CollisionResult;
typedef struct SimGroundResult {
    SimGroundEvent event;
    SimTouchRating rating;      /* a touchdown's */
    float sink;                 /* m/s downward at the touch */
    const char *why;            /* a crash's cause in a few words ("" otherwise) */
} SimGroundResult;

/* The wheels and the ground, after flight_step moved the aircraft from `before` to *f (dt
 * seconds), from THE solid test (world_solid_at's blocks, world_solid_objects' boxes). Rolling,
 * the aircraft follows the ground (a step of one block up or down; a bigger drop and it flies
 * off the edge, a bigger rise is a wall the sweep meets). In the air, when the wheels reach the
 * ground (a rise of more than a block up to the aircraft's box is a wall: the sweep's) it is a touchdown, the aircraft rolls on, when every rule holds: the ground under the
 * three wheels (the nose wheel SIM_WHEEL_BASE ahead, the mains 1.5 m behind and SIM_WHEEL_TRACK
 * either side) within one block of each other and clear of objects, the sink under
 * SIM_SINK_MAX, the bank within SIM_BANK_MAX, the pitch within SIM_PITCH_MIN..SIM_PITCH_MAX and
 * the speed at most SIM_TOUCHDOWN_SPEED_MAX; otherwise a crash, the aircraft put at the touch.
 * The caller sweeps the motion against the world afterwards (sim_collide) as in flight. */
void sim_ground_contact(const World *w, const FlightState *before, FlightState *f, float dt, SimGroundResult *out);
/* One step's meeting with the world after flight_step moved the aircraft from `before` to *f:
 * the wheels (sim_ground_contact), then the sweep of the motion (sim_collide; rolling, along the
 * ground at the higher of the two heights, a step of one block being the ground model's). True
 * on a crash (g->event SIM_GROUND_CRASH, g->why says what): *f is put where it happened. */
bool sim_meet_world(const World *w, const FlightState *before, FlightState *f, float dt, SimGroundResult *g,
                    CollisionResult *hit);
/* Metres from the wheels down to the ground (the first solid block) under the aircraft, or
 * `reach` when there is none that close. The wheels' queries (this, sim_ground_contact,
 * sim_ground_start) work wherever the world is generated (world_coord_usable): block indices are
 * int64, positions doubles exact to 2^-10 m there; past it there is no ground. */
double sim_height_above_ground(const World *w, const FlightState *f, double reach);
/* Parks *out on its wheels, stopped, throttle closed, on the flattest open ground within
 * `radius` metres of (x, z): of spots every 6 m, the one on the island of its cell (the home
 * island or another the world holds: world_island_held) with the longest run
 * of flat ground (every 2 m within one block of the spot's, clear of objects, air above) along
 * one of 8 headings, up to `run` metres (the nearest of equal runs); it faces along that run. Returns
 * the run's metres, or -1 when no spot has even a standing place (then *out is untouched).
 * Deterministic; for a start on the ground. */
double sim_ground_start(const World *w, double x, double z, double radius, double run, FlightState *out);

/* A landing strip for the autoland: the touchdown point (x, z) and its ground's top y, the
 * heading of the run (the sim's yaw) and how many metres of it lie ahead of the point. */
typedef struct SimStrip {
    double x, y, z;
    float heading;
    double length;
} SimStrip;
#define SIM_GLIDE_SLOPE 0.0524f   /* tan(3 degrees): the approach's glide path */
#define SIM_FLARE_H 1.0f          /* metres above the ground where the flare begins */
/* The autoland (autoland.c): stick, throttle and brakes that fly a straight-in approach: onto
 * the strip's extended centreline and heading, down the glide path to the touchdown point at
 * SIM_APPROACH_SPEED, a flare from SIM_FLARE_H that eases the sink toward 0.4 m/s at the ground,
 * then on the wheels the throttle closed, the brakes held and the nose wheel on the
 * centreline until it stops. Pure: the state and the strip in, the input out. */
void sim_autoland_input(const SimStrip *s, const FlightState *f, const FlightModel *m, FlightInput *out);

/* ---------------------------------------------------------------- collision (collision.c) */
/* W9 on the main thread, every frame, from THE density field (world_density_at) and the solid
 * objects' placement (world_solid_objects), so it works where no chunk has been meshed. The
 * aircraft is a box of half-size SIM_HIT_RADIUS; it hits when the box touches a solid block, a
 * block being solid exactly when it is drawn (the density at its centre > 0, or a tree's,
 * boulder's, cactus' or landmark's box holds it). The motion since the last frame is swept in steps of at most
 * SIM_SWEEP_STEP metres, so no speed passes through a one-block wall. */
#define SIM_HIT_RADIUS 0.35
#define SIM_SWEEP_STEP 0.5
#define SIM_RESPAWN_CLEARANCE 4.0

struct CollisionResult {
    bool hit;
    double x, y, z;             /* the last swept position clear of rock (the hit's approach) */
    double t;                   /* fraction of the motion done before the hit (1 when none) */
    uint32_t steps, blocks_tested;   /* sweep steps and blocks whose density was evaluated */
};

/* Sweeps the box from (x0,y0,z0) to (x1,y1,z1) against w's field. Allocation-free. */
void sim_collide(const World *w, double x0, double y0, double z0, double x1, double y1, double z1,
                 CollisionResult *out);
/* True when every block within `radius` metres (a cube) of the point is air and no solid object
 * (world_solid_objects) holds one of them. */
bool sim_clear_box(const World *w, double x, double y, double z, double radius);
/* The objects alone: no solid object's box meets the blocks of that cube. */
bool sim_clear_of_objects(const World *w, double x, double y, double z, double radius);
/* A safe place to restart near (x, y, z): the nearest open-air spot (SIM_RESPAWN_CLEARANCE of air
 * in a box around it, and room ahead along `yaw`) searched upward first, then around; the
 * aircraft restarts there level at `yaw`. False when nothing was found within reach (then the
 * caller falls back to the spawn). */
bool sim_respawn_near(const World *w, double x, double y, double z, float yaw, FlightState *out);

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

/* Where a flight starts and restarts (W9): with a home island SIM_SPAWN_COAST metres off its
 * coast (centre + (SIM_SPAWN_X, radius + SIM_SPAWN_COAST)) from its sea level up, otherwise the
 * seed's (SIM_SPAWN_X, SIM_SPAWN_Y, SIM_SPAWN_Z); heading for the island's centre (-z without
 * one), at the lowest altitude where the aircraft
 * and its chase camera are in open air (SIM_SPAWN_CLEARANCE metres around them, open sky
 * above), the autopilot sees nothing to climb over ahead, and the view shows the home island:
 * the centre ray meets it, it fills at least SIM_SPAWN_HOME_SHARE of the rays, at most
 * SIM_SPAWN_UNDERSIDE_SHARE meet an underside and no cloud lies within SIM_SPAWN_CLOUD_NEAR.
 * When no altitude up to WORLD_Y_MAX + 40 meets the rule, the one that came closest (most
 * home rays among those in open air) is taken and home_in_view is false.
 * Deterministic; allocation-free; reads w only through world_density_at/world_params. */
#define SIM_SPAWN_CLEARANCE 8.0
#define SIM_SPAWN_COAST 40.0
#define SIM_SPAWN_HOME_SHARE 0.25f
#define SIM_SPAWN_UNDERSIDE_SHARE 0.02f
#define SIM_SPAWN_CLOUD_NEAR 60.0
void sim_spawn_choose(const World *w, float speed, float fov_y_rad, float aspect, double time_s, SimSpawn *out);

/* ---------------------------------------------------------------- weather (weather.c, wind.c) */
/* Weather that changes over time and place: each WEATHER_CELL-metre cell of the ground plane
 * draws a kind per WEATHER_PERIOD_STEPS of sim time from the world seed; the state at a place
 * and step blends the four nearest cells (bilinear) and the two nearest periods (smoothstep),
 * so fronts drift in and out. Integer hashing, IEEE basic operations and detmath only: every
 * machine and every replay sees the same weather at the same step. */
typedef enum WeatherKind {
    WEATHER_CLEAR = 0, WEATHER_CLOUDY, WEATHER_OVERCAST, WEATHER_RAIN, WEATHER_STORM, WEATHER_FOG,
    WEATHER_KINDS
} WeatherKind;
#define WEATHER_CHANGING (-1)               /* the setting's "changing": the model picks the kind */
#define WEATHER_CELL 4096.0                 /* metres */
#define WEATHER_PERIOD_STEPS (60u * 60u * 4u)   /* a kind holds about four minutes */
/* A fresh world's first periods are fair (clear or cloudy) in the cells within this many of the
 * origin on each side, where the home island and the spawn are (16 km across): dry for the first
 * four minutes, the weather drawn after them blending in over the next four. */
#define WEATHER_FAIR_PERIODS 2u
#define WEATHER_FAIR_CELLS 2
#define WEATHER_FLASH_STEPS 8u              /* a lightning flash lights this many steps */
#define WEATHER_SOUND_SPEED 343.0f          /* m/s: thunder follows the flash by distance / this */

typedef struct WeatherState {
    float weight[WEATHER_KINDS];   /* the kinds' shares here and now (sum 1) */
    WeatherKind kind;              /* the heaviest share */
    float cover;                   /* cloud cover 0..1 */
    float rain;                    /* rain 0..1 */
    float fog;                     /* fog bank 0..1: 1 closes the view to about 60 m */
    float wind[2];                 /* m/s along x and z: the air mass with its gust */
    float wind_speed;              /* m/s: the mean wind's strength (no gust) */
    float gust;                    /* m/s: the gust's share of |wind| now */
    float turbulence;              /* 0..1: how hard the air shakes (storms) */
    float turb[3];                 /* m/s: this step's shake (x, y, z) */
    float shake[3];                /* -1..1: the shake's noise before scaling (cliffs scale it again) */
    float flash;                   /* 0..1: the lightning's light this step */
    uint32_t flash_id;             /* which flash (0: none yet); a new id is a new strike */
    uint32_t flash_age;            /* steps since that flash began */
    double flash_x, flash_z;       /* where it struck */
    float flash_dist;              /* metres from the place asked */
} WeatherState;

/* The weather at (x, z) and sim step `step` of the world with `seed`; fixed_kind a WeatherKind
 * holds that kind everywhere (wind directions still vary by cell), WEATHER_CHANGING lets it change. */
void weather_eval(uint64_t seed, int fixed_kind, double x, double z, uint64_t step, WeatherState *out);
/* The sim step of a flight's clock (its time_s counted in SIM_STEP). */
uint64_t weather_step_of(double time_s);
/* The kind's name ("clear", ...), NULL past the end; weather_kind_parse: -1 for "changing",
 * the kind, or -2 when the name is none of them. */
const char *weather_kind_name(int kind);
int weather_kind_parse(const char *name);
/* FNV-1a 64 of a state's fields: equal hashes, the same weather to the bit. */
uint64_t weather_state_hash(const WeatherState *w, uint64_t h);

/* The air mass carries the aircraft: after flight_step, its position moves by (wind + shake) * dt
 * and the shake rolls it a little. The caller sweeps collision over the whole step's motion. */
void sim_wind_apply(FlightState *f, const WeatherState *w, float dt);
/* Rock around a place: the share (0..1) of SIM_CLIFF_PROBES blocks SIM_CLIFF_REACH metres out
 * (four around, one below) that are solid (world_solid_at at the block's centre). */
#define SIM_CLIFF_PROBES 5
#define SIM_CLIFF_REACH 14.0
float sim_wind_cliff(const World *w, double x, double y, double z);
/* The wind tumbling over rock: adds to w's shake in proportion to the cliff share and the wind's
 * speed (a 10 m/s wind beside a wall shakes about as hard as a storm's air). */
void sim_wind_cliff_shake(WeatherState *w, float cliff);
/* Every SIM_CLIFF_EVERY steps (the field's point queries cost ~15 us each), the rock around the
 * aircraft jolts the air of that step by the shake those steps would have had; other steps are
 * left as they are. Stateless: a replay started at any step flies the same. */
#define SIM_CLIFF_EVERY 6u
void sim_wind_near_rock(const World *w, const FlightState *f, uint64_t step, WeatherState *ws);

#endif
