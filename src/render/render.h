/* skyisles renderer: the one public header of src/render (OpenGL ES 2.0, main thread only).
 * PSX pipeline (low-res target, vertex snap, 15-bit dither, fog), sky dome, terrain, aircraft,
 * the HUD layer (text, boxes, the island map). */
#ifndef SKYISLES_RENDER_H
#define SKYISLES_RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/core.h"
#include "island/island.h"
#include "sim/sim.h"
#include "world/world.h"

/* Low-res presets: lines of the PSX target (its width follows the display's aspect). */
#define RENDER_LINES_DEFAULT 240
#define RENDER_LINES_MAX 480

/* The vertical field of view a renderer starts with (degrees); the game's setting defaults to it. */
#define RENDER_FOV_DEFAULT 70.0f

/* The time of day a flight starts at, and a day's length in minutes of sim time (render_sky). */
#define RENDER_HOUR_DEFAULT 10.0f
#define RENDER_DAY_MINUTES_DEFAULT 24.0f

/* The player's look settings, one row each: the value's C type and field in RenderLiveParams,
 * then the rest of its RenderParamDesc (key, group, range, default, flag, menu label, help). The
 * settings file, the flags, the menu and --help show the rows in this order. A new look setting
 * is its row here and its consumer. */
#define RENDER_LOOK_ROWS(X)                                                                                        \
    X(int, lines, .name = "lines", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_INT, .min = 64,                \
      .max = RENDER_LINES_MAX, .def = RENDER_LINES_DEFAULT, .step = 120, .zero_off = true, .flag = "--lines",     \
      .label = TX(SET_LINES), .stops = (const int[]){0, 240, 360, 480}, .n_stops = 4,                                \
      .help = TX(SET_LINES_HELP))                                            \
    X(bool, fixed_4_3, .name = "aspect_4_3", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_BOOL, .max = 1,       \
      .step = 1, .flag = "--4:3", .label = TX(SET_4_3), .help = TX(SET_4_3_HELP))    \
    X(bool, snap, .name = "snap", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_BOOL, .max = 1, .def = 1,         \
      .step = 1, .flag = "--no-snap", .label = TX(SET_SNAP), .help = TX(SET_SNAP_HELP)) \
    X(bool, color15, .name = "color15", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_BOOL, .max = 1, .def = 1,   \
      .step = 1, .flag = "--no-15bit", .label = TX(SET_COLOR15), .help = TX(SET_COLOR15_HELP))        \
    X(bool, dither, .name = "dither", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_BOOL, .max = 1, .def = 1,     \
      .step = 1, .flag = "--no-dither", .label = TX(SET_DITHER), .help = TX(SET_DITHER_HELP))         \
    X(bool, fog, .name = "fog", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_BOOL, .max = 1, .def = 1, .step = 1, \
      .flag = "--no-fog", .label = TX(SET_FOG), .help = TX(SET_FOG_HELP))                             \
    X(bool, sky_clouds, .name = "sky_clouds", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_BOOL, .max = 1,      \
      .def = 1, .step = 1, .flag = "--no-sky-clouds", .label = TX(SET_SKY_CLOUDS),                                       \
      .help = TX(SET_SKY_CLOUDS_HELP))                                                          \
    X(bool, draw_clouds, .name = "clouds", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_BOOL, .max = 1,         \
      .def = 1, .step = 1, .flag = "--no-clouds", .label = TX(SET_VOXEL_CLOUDS),                                         \
      .help = TX(SET_VOXEL_CLOUDS_HELP))                                          \
    X(float, fov_y_deg, .name = "fov", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_FLOAT, .min = 40,          \
      .max = 110, .def = RENDER_FOV_DEFAULT, .step = 5, .flag = "--fov", .label = TX(SET_FOV), .unit = TX(UNIT_DEG),  \
      .help = TX(SET_FOV_HELP))                                                                           \
    X(int, time_mode, .name = "time", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_ENUM, .max = 1, .def = 0,     \
      .step = 1, .flag = "--time-mode", .label = TX(SET_TIME), .names = (const char *const[]){"running", "fixed"},    \
      .labels = (const char *const[]){TX(SET_TIME_RUNNING), TX(SET_TIME_FIXED)}, .n_names = 2,                     \
      .help = TX(SET_TIME_HELP))                                                                                   \
    X(float, hour, .name = "hour", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_FLOAT, .min = 0, .max = 23.75,   \
      .def = RENDER_HOUR_DEFAULT, .step = 0.25, .flag = "--hour", .label = TX(SET_HOUR), .unit = TX(UNIT_H),        \
      .help = TX(SET_HOUR_HELP))                                                                                   \
    X(float, day_minutes, .name = "day_length", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_FLOAT, .min = 2,    \
      .max = 240, .def = RENDER_DAY_MINUTES_DEFAULT, .step = 2, .flag = "--day-length", .label = TX(SET_DAY_LENGTH), \
      .unit = TX(UNIT_MIN), .help = TX(SET_DAY_LENGTH_HELP))                                                       \
    X(int, hud_size, .name = "hud_size", .group = RENDER_GROUP_HUD, .type = RENDER_PT_ENUM, .max = 2, .def = 1,     \
      .step = 1, .label = TX(SET_HUD_SIZE), .names = (const char *const[]){"small", "normal", "large"}, .n_names = 3, \
      .labels = (const char *const[]){TX(SET_SIZE_SMALL), TX(SET_SIZE_NORMAL), TX(SET_SIZE_LARGE)},    \
      .help = TX(SET_HUD_SIZE_HELP))

/* What a change applies at once (render_apply_settings takes these, nothing else). */
typedef struct RenderLiveParams {
#define RENDER_LOOK_FIELD(ctype, field, ...) ctype field;
    RENDER_LOOK_ROWS(RENDER_LOOK_FIELD)   /* lines, fixed_4_3 ... fov_y_deg, hud_size (0.75x, 1x, 1.5x text) */
#undef RENDER_LOOK_FIELD
    bool sky_force_mediump; /* run the dome's mediump path even where highp exists */
    uint32_t upload_meshes_per_frame;   /* chunk meshes uploaded per frame at most */
    uint32_t upload_bytes_per_frame;    /* and vertex bytes per frame (one mesh always goes) */
    uint32_t merge_gap_quads;           /* a chunk's visible face runs closer than this are drawn
                                           with one call (the gap is culled by the GPU) */
    float sky_rgb[3];       /* horizon colour of a clear sky (W8's skyColour) */
    float zenith_rgb[3];
    float cloud_rgb[3];
} RenderLiveParams;

/* What render_create carves and keeps (a change needs a new renderer). */
typedef struct RenderCreateParams {
    uint32_t max_chunks;                /* GPU chunk slots */
    int far_group_lod;                  /* chunks at this LOD or coarser share one vertex buffer and
                                           one draw per 2x2 tile; > WORLD_LOD_MAX: never */
    uint32_t far_group_kib;             /* CPU copies the tiles are rebuilt from (0: by max_chunks) */
    bool lod_tint;                      /* debug: terrain tinted by LOD, no tiles (SKYISLES_LOD_TINT=1) */
    uint32_t hud_max_quads;             /* HUD queue (a glyph is 2 quads with its shadow):
                                           0 = RENDER_HUD_QUADS_DEFAULT, at most 16383 */
} RenderCreateParams;

typedef struct RenderSettings {
    RenderLiveParams live;
    RenderCreateParams create;
} RenderSettings;

/* Every row of the table at its default, the sky's colours, lod_tint from SKYISLES_LOD_TINT. */
void render_settings_default(RenderSettings *s);
#define RENDER_HUD_QUADS_DEFAULT 4096u
/* At most the bytes render_create carves from its budget for these sizes (render_map_set takes
 * none): a boot plans the renderer's share before anything is created. */
size_t render_create_bytes(const RenderCreateParams *c);
/* Chunk slots for a view radius: every chunk the world can hold around the camera. */
uint32_t render_chunks_for_radius(int view_radius);

/* ---------------------------------------------------------------- the settings table
 * Every renderer setting described once (render_params.c): whether a change applies at once or
 * needs a new renderer, its range and default, and for a player's setting its key, flag, menu
 * label and help. The game's settings (file, flags, menu, --help) read the player's rows. */
typedef enum RenderParamClass { RENDER_PARAM_LIVE = 0, RENDER_PARAM_CREATE } RenderParamClass;
typedef enum RenderParamType { RENDER_PT_BOOL = 0, RENDER_PT_INT, RENDER_PT_U32, RENDER_PT_FLOAT, RENDER_PT_ENUM } RenderParamType;
/* Where a player's row shows among the game's display settings; NONE: the renderer's own. */
typedef enum RenderParamGroup { RENDER_GROUP_NONE = 0, RENDER_GROUP_PICTURE, RENDER_GROUP_HUD } RenderParamGroup;

typedef struct RenderParamDesc {
    const char *name;           /* lower_snake, unique: the settings file's key */
    RenderParamClass cls;
    RenderParamGroup group;
    RenderParamType type;
    size_t offset;              /* of the value in RenderSettings */
    double min, max, def, step;
    bool zero_off;              /* 0 is allowed besides min..max (lines: full resolution) */
    const char *flag;           /* "--fov" (a bool: "--no-x" turns it off), or NULL */
    const char *label;          /* the menu's words */
    const char *unit;           /* "deg" or NULL */
    const char *help;           /* one line */
    const char *const *names;   /* enum: the names the file and the flag use */
    const char *const *labels;  /* enum: the menu's words for them (NULL: the names) */
    int n_names;
    const int *stops;           /* int: the values a menu steps through (NULL: the grid) */
    int n_stops;
} RenderParamDesc;

size_t render_param_count(void);
const RenderParamDesc *render_param_at(size_t i);           /* NULL past the end */
const RenderParamDesc *render_param_find(const char *name); /* NULL when unknown */
double render_param_get(const RenderSettings *s, const RenderParamDesc *d);   /* bool 0/1 */
/* Stores v clamped to the row's range (0 kept where zero_off); whole types rounded. */
void render_param_set(RenderSettings *s, const RenderParamDesc *d, double v);

/* W8: abyss atmosphere for a camera height, its ramp scaled to this world (SPEC W8): from the
 * bedrock (y 5) up to where the islands' undersides begin (y 60). h = clamp((y - 5) / 55, 0, 1);
 * colour = lerp(sky, 0x050508, 1 - h); fog density = 0.005 + (1 - h) * 0.035. */
#define RENDER_ABYSS_Y0 5.0
#define RENDER_ABYSS_Y1 60.0
typedef struct RenderAtmosphere {
    float h;
    float abyss_mix;        /* 1 - h */
    float color[3];         /* background and fog colour */
    float fog_density;
} RenderAtmosphere;

void render_atmosphere(double camera_y, const float sky_rgb[3], RenderAtmosphere *out);
#define RENDER_ABYSS_R (5.0f / 255.0f)
#define RENDER_ABYSS_G (5.0f / 255.0f)
#define RENDER_ABYSS_B (8.0f / 255.0f)

/* The sky of one moment (sky_state.c), made once a frame from the sim's time and the time
 * settings, read by every pass: where the sun and the moon are, the dome's colours, the fog's,
 * the light on faces. The sun rises in the east (+x), crosses the south (+z) at noon, sets in
 * the west; the moon stands opposite. Colours follow the sun's height: night, dawn and dusk
 * twilight, sunrise and sunset, golden hour, day (the settings' sky colours). */
typedef struct RenderSky {
    float hour;                 /* 0 <= hour < 24 */
    float sun_dir[3], moon_dir[3];   /* unit vectors toward them, y up */
    float zenith[3], horizon[3];     /* the dome's gradient; the horizon is the fog's colour (before W8) */
    float glow[3];              /* warm light around the sun, strongest toward the horizon */
    float cloud[3];             /* the dome's clouds and the voxel clouds */
    float light_dir[3];         /* the key light: the sun, or the moon while the sun is down */
    float light_rgb[3];         /* its colour on a face turned to it */
    float ambient_rgb[3];       /* the sky's light on every face */
    float anti[3];              /* light on the horizon opposite the sun (dawn's pink band) */
    float night;                /* 0 by day .. 1 at night: stars, the moon, lamps */
    float cover;                /* 0..1: the weather's cloud on the dome (0: the FBM's own) */
} RenderSky;
/* The hour at sim time time_s: the setting's hour, advanced by a day per day_minutes while the
 * time runs. */
double render_sky_hour(const RenderLiveParams *l, double time_s);
void render_sky_at(const RenderLiveParams *l, double hour, RenderSky *out);
/* The weather's share of the sky, applied once a frame after render_sky_at: overcast, rain and
 * storm grey the dome and darken it (more clouds, a lower, darker sky, less and more diffuse
 * light), a fog bank turns the dome and the fog one pale grey. A zero WeatherState (or clear
 * and cloudy weather) leaves the sky as it was, apart from `cover`. */
void render_sky_weather(RenderSky *sky, const WeatherState *w);

/* Sky dome (S1-S2): n = fbm(worldPos * 0.002 + time * 0.02) on a radius-500 dome; the lattice
 * is the CPU reference noise_sky_value3_periodic with this period, baked into an 8x4 atlas. */
#define RENDER_SKY_RADIUS 500.0f
#define RENDER_SKY_SCALE 0.002
#define RENDER_SKY_DRIFT 0.02
#define RENDER_SKY_OCTAVES 5
#define RENDER_SKY_PERIOD 32
#define RENDER_SKY_ATLAS_COLS 8
#define RENDER_SKY_ATLAS_W 256
#define RENDER_SKY_ATLAS_H 128

/* The dome's clouds never repeat: the lattice wraps every 32 units (16 km of flight, 1600 s of
 * drift), so the offset's y (the axis the dome barely spans) also moves with horizontal flight
 * and drifts faster: the clouds change shape as they pass instead of tiling. The seed's offset
 * is (camera * 0.002 + time * 0.02) on every axis; ours adds (x * MORPH_X + z * MORPH_Z) * 0.002
 * to y and drifts y DRIFT_Y times as fast. MORPH_X and MORPH_Z are chosen so that no flight of
 * up to 6 lattice periods (96 km) on each axis brings y within 0.02 of a period (0.65 of a cell
 * at octave 0, whole cells above); the golden ratio keeps whole periods of drift apart. */
#define RENDER_SKY_MORPH_X 0.204123
#define RENDER_SKY_MORPH_Z 0.428457
#define RENDER_SKY_DRIFT_Y 1.618033988749895    /* the golden ratio */
/* The dome's noise offset at octave 0 for a camera and a time (double). */
void render_sky_base(double cam_x, double cam_y, double cam_z, double time_s, double out[3]);
/* Per-octave split of that offset times 2^k into a fraction and a lattice cell mod the period
 * (done in double so the shader only sees small numbers). */
void render_sky_offsets(double cam_x, double cam_y, double cam_z, double time_s, float frac[RENDER_SKY_OCTAVES * 3],
                        float cell[RENDER_SKY_OCTAVES * 3]);

/* What a thing in the scene is drawn as. A new kind (another model, a light) is a value here and
 * its draw in src/render. */
typedef enum RenderModel {
    RENDER_MODEL_AIRCRAFT,      /* the low-poly aircraft, its propeller at prop_angle */
    RENDER_MODEL_COUNT
} RenderModel;

/* One thing drawn in the scene besides the world: a model placed at x, y, z (world metres) with
 * the camera's yaw/pitch/roll convention, its colours times tint's rgb. A tint alpha below 1
 * draws it translucent (that much of it over what is behind it; depth-tested, not written),
 * after every opaque instance; alpha 0 draws nothing. */
typedef struct RenderInstance {
    RenderModel model;
    double x, y, z;
    float yaw, pitch, roll;
    float tint[4];
    float prop_angle;           /* the aircraft's propeller, radians */
    bool nav_lights;            /* red and green wingtip lights and a white strobe */
} RenderInstance;

/* A light the night shows: a glowing quad facing the camera (or a beam turning about it) in one
 * batch with the others, and its colour on faces within `reach` metres. */
typedef enum RenderLightKind { RENDER_LIGHT_GLOW = 0, RENDER_LIGHT_BEAM } RenderLightKind;
typedef struct RenderLight {
    double x, y, z;             /* world metres */
    float rgb[3];
    float size;                 /* glow: radius, beam: length (metres) */
    float yaw;                  /* beam: its direction (radians, as RenderView's yaw) */
    float reach;                /* metres its colour reaches onto faces (0: none) */
    float day;                  /* its strength by day (0..1; 1 at night) */
    RenderLightKind kind;
} RenderLight;
#define RENDER_LIGHTS_MAX 24

#define RENDER_INSTANCES_MAX 16
/* A course's best run flown beside the player: the aircraft at this tint alpha (one draw call). */
#define RENDER_GHOST_ALPHA 0.4f

typedef struct RenderView {
    double cam_x, cam_y, cam_z;
    float yaw, pitch, roll;     /* radians; yaw 0 looks along -z, +yaw turns right, +pitch up */
    double time_s;              /* the sim's time: the sky's cloud drift and the time of day */
    uint32_t light_count;       /* the lights of landmarks near the view (the aircraft's are the instance's) */
    RenderLight lights[RENDER_LIGHTS_MAX];
    /* what is drawn besides the world, opaque ones in list order, then translucent ones */
    uint32_t instance_count;
    RenderInstance instances[RENDER_INSTANCES_MAX];
    WeatherState weather;       /* the frame's weather at the aircraft (zero: clear, calm, no rain) */
} RenderView;

/* A new instance at the end of the view's list, at the origin, level, untinted (tint 1, 1, 1, 1);
 * NULL when the list is full. */
RenderInstance *render_view_add(RenderView *v, RenderModel model);
/* A new light at the end of the view's list (zeroed, a glow); NULL when the list is full. */
RenderLight *render_view_light(RenderView *v);

/* The stages of a frame, in the order they draw: the dome first, opaque terrain, the view's
 * instances (the aircraft stage: the aircraft, the ghost, a course's rings), translucent clouds
 * back to front, the HUD/menu layer (text at the PSX resolution), then the
 * nearest upscale of the low-res target to the display. */
typedef enum RenderStage {
    RENDER_STAGE_SKY,
    RENDER_STAGE_TERRAIN,
    RENDER_STAGE_AIRCRAFT,
    RENDER_STAGE_CLOUDS,
    RENDER_STAGE_HUD,
    RENDER_STAGE_PSX_BLIT,
    RENDER_STAGE_COUNT
} RenderStage;
const char *render_stage_name(RenderStage s);

typedef struct RenderStats {
    uint32_t draw_calls, triangles;      /* last frame */
    uint32_t stage_draw_calls[RENDER_STAGE_COUNT], stage_triangles[RENDER_STAGE_COUNT];   /* last frame */
    uint32_t uploads, upload_bytes;      /* chunk meshes uploaded by the last sync */
    uint32_t chunks_resident, chunks_visible, chunks_culled, pending_uploads;
    uint64_t gpu_bytes;                  /* all buffers and textures the renderer holds */
    uint64_t uploads_total;
    uint64_t dropped_no_slot;            /* meshes that found no free GPU slot */
    int low_w, low_h;
    bool sky_highp;
    double driver_ms;                    /* last frame + sync: main-thread CPU inside GL draw/upload
                                            calls (0 unless render_set_driver_timing(true)) */
    uint32_t gpu_buffers;                /* live terrain vertex buffers */
    uint64_t mesh_swaps;                 /* uploads that replaced a resident chunk's mesh */
    uint32_t chunks_resident_lod[WORLD_LOD_MAX + 1];
    uint32_t chunks_visible_lod[WORLD_LOD_MAX + 1];   /* last frame */
    uint32_t triangles_lod[WORLD_LOD_MAX + 1];        /* last frame, terrain and clouds */
    uint32_t hud_quads;                  /* last frame: HUD quads drawn (text glyphs and their shadows,
                                            boxes, map pieces) */
    uint32_t hud_dropped;                /* last frame: HUD quads that did not fit the queue */
} RenderStats;

typedef struct Renderer Renderer;

/* Needs a current OpenGL ES 2.0 context. Slots and queues are carved from `mem`. */
Renderer *render_create(MemBudget *mem, const RenderSettings *s, SkyError *err);
void render_destroy(Renderer *r);
/* The GPU as its driver names it (GL_RENDERER), "" when it says nothing. */
const char *render_gpu_name(const Renderer *r);
void render_apply_settings(Renderer *r, const RenderSettings *s);
const RenderSettings *render_settings(const Renderer *r);
/* The GPU's time of each frame where the driver has GL_EXT_disjoint_timer_query (get_proc: the
 * platform's GL loader); false, and no timing, where it has none. */
bool render_gpu_timer_enable(Renderer *r, void *(*get_proc)(const char *name));
/* The GPU's milliseconds of a recent frame (read a few frames late, never waited for); -1 while
 * none is known. */
double render_gpu_ms(const Renderer *r);

/* Terrain: drains the world's events, uploads up to the per-frame budget, releases the
 * uploaded CPU meshes back to the world. */
void render_sync_world(Renderer *r, World *w);
/* The same path without a World (tests, tools): queue a mesh / drop a chunk. A queued mesh
 * must stay valid until it is uploaded by render_upload_pending(). */
bool render_queue_mesh(Renderer *r, const ChunkMesh *m);
void render_drop_chunk(Renderer *r, int64_t cx, int64_t cz);
uint32_t render_upload_pending(Renderer *r, World *release_to);   /* returns meshes uploaded */
void render_clear_terrain(Renderer *r);

/* ---------------------------------------------------------------- HUD layer
 * Text, boxes and the island map the game queues each frame, drawn at RENDER_STAGE_HUD into the
 * low-res target in queue order (origin top left, low-res pixels). Queues are fixed (carved at
 * render_create); what does not fit is dropped and counted (RenderStats.hud_dropped). render_frame
 * draws the queue and empties it; render_hud_clear empties it without drawing. */
#define RENDER_HUD_LINE_H 10                 /* pixels from one text line to the next at scale 1 */
/* The HUD's pixel size for a display size: the low-res target the next frame will use (display
 * size when the PSX target is off). */
void render_hud_canvas(const Renderer *r, int disp_w, int disp_h, int *w, int *h);
void render_hud_clear(Renderer *r);
/* What is queued now spans this rectangle of the canvas (pixels, x1/y1 exclusive; all 0 when
 * nothing is queued): a layout can be checked to stay inside render_hud_canvas. */
typedef struct RenderHudBounds {
    int x0, y0, x1, y1;
    uint32_t quads, dropped;    /* queued so far, and those that did not fit */
} RenderHudBounds;
RenderHudBounds render_hud_bounds(const Renderer *r);
/* The texts queued so far (render_hud_text calls, up to 512 a frame), and the canvas pixels text
 * i draws (its glyphs and their shadows, sampled as the GPU samples the atlas), each to put; the
 * count. A layout can be checked for lines that share a pixel. */
uint32_t render_hud_text_count(const Renderer *r);
uint32_t render_hud_text_pixels(const Renderer *r, uint32_t text, void (*put)(int x, int y, void *ctx), void *ctx);
void render_hud_box(Renderer *r, int x, int y, int w, int h, uint32_t rgba);   /* 0xRRGGBBAA, filled, blended */
/* UTF-8; '\n' starts a new line; a 1-px dark shadow under it for reading over sky; scale 1..4.
 * ASCII in the HUD's own font, other characters in the 8x8 font the text tables need; one the
 * font lacks draws as '?' (render_hud_text_missing finds it). */
void render_hud_text(Renderer *r, int x, int y, int scale, uint32_t rgba, const char *text);
/* Widest line in pixels, at the renderer's HUD size (live.hud_size). */
int render_hud_text_width(const Renderer *r, const char *text, int scale);
/* The first character of text that would draw as '?' (no glyph), or 0 when every one has one. */
uint32_t render_hud_text_missing(const char *text);
/* The bytes of text's first line that fit room pixels at scale: broken at a space, or between
 * two Japanese characters (never before 、。） nor after （「), a word wider than room at a
 * character (core's text_break, measured as drawn). The rest starts after it (skip its spaces). */
size_t render_hud_text_break(const Renderer *r, const char *text, int scale, int room);
/* The HUD size as a factor of every text scale (0.75 small, 1 normal, 1.5 large). */
float render_hud_zoom(const Renderer *r);
/* The home island's map, built once at boot from the baked field and the island: ground coloured
 * by location type and shaded by elevation (a power-of-two texture from the budget), the path
 * network as lines, each site as a dot with its display name in `lang`. */
bool render_map_set(Renderer *r, const IslandField *f, const Island *isl, const IslandCodex *cx, const char *lang,
                    SkyError *err);
/* The same for an island whose field's coordinates are metres from world (ox, oz) (a
 * WorldIsland's field): the map of the island under the aircraft, set again when it changes. */
bool render_map_set_at(Renderer *r, const IslandField *f, const Island *isl, const IslandCodex *cx, const char *lang,
                       double ox, double oz, SkyError *err);
/* Queues the map into the rectangle (letterboxed to keep the island round), with the aircraft's
 * position and heading as an arrow (yaw 0 = -z, +yaw turns right, as RenderView). North (-z) is
 * up. Outside the island the arrow is clamped to the rectangle's edge. Nothing before
 * render_map_set. */
/* Names beside their dots, none over another, the arrow or a strip: the site `here` (under the
 * aircraft; -1 none) first, then the base, then the rest where they fit. */
void render_hud_map(Renderer *r, int x, int y, int w, int h, double air_x, double air_z, float air_yaw, int here);
/* Where world (wx, wz) falls on the map in that rectangle (a site's dot is there): marks the game
 * draws over it. False before render_map_set. */
bool render_hud_map_point(const Renderer *r, int x, int y, int w, int h, double wx, double wz, int *px, int *py);
/* The world map: the islands the game gives (seen so far), each a square its size (at least 5
 * pixels) with its name beside it where it fits, nearer it than any other square (the one under
 * the aircraft's first and always, in gold), a gold mark
 * on those landed on, and the aircraft's arrow, in the largest square of the rectangle, span_m
 * across, centred on (centre_x, centre_z), north up. At most RENDER_WORLD_ISLES are drawn. Part of
 * the HUD's one draw call. */
#define RENDER_WORLD_ISLES 512
typedef struct RenderWorldIsle {
    double x, z;                /* its centre, world metres */
    double diameter_m;
    bool landed, here;          /* landed on; under the aircraft */
    const char *name;
} RenderWorldIsle;
void render_hud_world(Renderer *r, int x, int y, int w, int h, double centre_x, double centre_z, double span_m,
                      const RenderWorldIsle *isles, uint32_t n, double air_x, double air_z, float air_yaw);
/* The names the last island or world map laid out, in the order queued (its texts' order): each
 * one's box and its site (island map) or isle index (world map), and the arrow's box. */
typedef struct RenderMapBox {
    int x, y, w, h;
} RenderMapBox;
typedef struct RenderMapLabels {
    uint32_t n;
    RenderMapBox box[RENDER_WORLD_ISLES];
    uint32_t owner[RENDER_WORLD_ISLES];
    RenderMapBox arrow;
} RenderMapLabels;
const RenderMapLabels *render_hud_map_labels(const Renderer *r);
/* Where world (wx, wz) falls on that map (an island's square is centred there); false when far off. */
bool render_hud_world_point(int x, int y, int w, int h, double centre_x, double centre_z, double span_m, double wx,
                            double wz, int *px, int *py);

/* ---------------------------------------------------------------- approach lights (lights.c)
 * A PAPI at each end of every airstrip: four lights in a row left of the landing direction,
 * RENDER_PAPI_LIGHTS from the strip out, each white when the eye is above its transition angle
 * (3.5, 3.17, 2.83, 2.5 degrees) and red below, so a 3-degree path shows two of each; drawn as
 * quads that keep a few pixels across at any range, seen only from the approach side. */
#define RENDER_PAPI_LIGHTS 4
#define RENDER_STRIPS_MAX ISLAND_FIELD_MAX_STRIPS
/* Replaces the strips whose lights are drawn (n = 0: none); all within 2 km of the first. */
void render_strips_set(Renderer *r, const WorldStrip *strips, uint32_t n);
/* Where light `light` of the PAPI at end `end` (0: threshold a, landing toward b; 1: b) stands. */
void render_papi_light(const WorldStrip *s, int end, int light, double out[3]);
/* What that light shows an eye at (ex, ey, ez): 1 white, 0 red, -1 nothing (behind it). */
int render_papi_white(const WorldStrip *s, int end, int light, double ex, double ey, double ez);

/* ---------------------------------------------------------------- course rings (rings.c)
 * A course's rings, drawn after the aircraft as low-poly hoops in one call; rings before the
 * next are not drawn, the next is marked (its own colour, brightened by pulse 0..1). */
#define RENDER_RINGS_MAX 128
typedef struct RenderRing {
    double x, y, z;             /* centre, world metres */
    float nx, ny, nz;           /* unit normal */
    float radius;               /* inner rim, metres */
} RenderRing;
/* Replaces the course's rings (n = 0: none); all of them within 2 km of the first. */
void render_rings_set(Renderer *r, const RenderRing *rings, uint32_t n);
void render_rings_next(Renderer *r, uint32_t next, float pulse);
/* A HUD arrow centred at (x, y), `size` pixels from centre to tip, pointing at `angle` radians
 * (0 up the screen, + clockwise). */
void render_hud_arrow(Renderer *r, int x, int y, int size, float angle, uint32_t rgba);

/* Draws one frame into the current framebuffer of size disp_w x disp_h. */
void render_frame(Renderer *r, const RenderView *v, int disp_w, int disp_h);
/* Same, but the dome shows its raw FBM value as grey and nothing else is drawn (tests; the HUD
 * queue is emptied, not drawn). */
void render_frame_sky_debug(Renderer *r, const RenderView *v, int disp_w, int disp_h);
/* Waits until the GPU has finished every frame submitted (screenshots read back after it; the
 * bench keeps the GPU's time out of the CPU figures with it). */
void render_finish(Renderer *r);

RenderStats render_stats(const Renderer *r);

/* A chunk resident on the GPU: the LOD of the mesh drawn, whether it is drawn from a far tile
 * (one buffer for 2x2 far chunks), and its vertices. False when the chunk is not resident. */
typedef struct RenderChunkInfo {
    int lod;
    bool in_tile;
    uint32_t vertices;
} RenderChunkInfo;
bool render_chunk_info(const Renderer *r, int64_t cx, int64_t cz, RenderChunkInfo *out);
/* Benchmarks: measure the main thread's CPU time inside GL calls (two clock reads per call). */
void render_set_driver_timing(bool on);
/* Camera matrices of the last frame (column-major, camera-relative view-projection). */
void render_last_viewproj(const Renderer *r, float out[16]);
/* Number of GL errors seen since create (each is logged). */
uint32_t render_gl_errors(Renderer *r);

/* Reads the current framebuffer (top row first, RGBA8) into rgba (w * h * 4 bytes). */
bool render_read_pixels(int w, int h, uint8_t *rgba);
/* The game's screenshots without the heap: a buffer of render_png_buffer_bytes(w, h) holds the
 * frame's RGBA pixels (top row first) at render_png_input_offset(w, h); render_png_encode writes
 * an RGB PNG (stored deflate blocks) from the buffer's start over them and returns its length
 * (0 when the buffer is too small). */
size_t render_png_input_offset(int w, int h);
size_t render_png_buffer_bytes(int w, int h);
size_t render_png_encode(uint8_t *buf, size_t cap, int w, int h);
bool render_write_png(const char *path, int w, int h, const uint8_t *rgba, SkyError *err);

#endif
