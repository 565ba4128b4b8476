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

/* The player's look settings, one row each: the value's C type and field in RenderLiveParams,
 * then the rest of its RenderParamDesc (key, group, range, default, flag, menu label, help). The
 * settings file, the flags, the menu and --help show the rows in this order. A new look setting
 * is its row here and its consumer. */
#define RENDER_LOOK_ROWS(X)                                                                                        \
    X(int, lines, .name = "lines", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_INT, .min = 64,                \
      .max = RENDER_LINES_MAX, .def = RENDER_LINES_DEFAULT, .step = 120, .zero_off = true, .flag = "--lines",     \
      .label = "PSX lines", .stops = (const int[]){0, 240, 360, 480}, .n_stops = 4,                                \
      .help = "PSX target lines: 240, 360, 480; 0 = full resolution")                                            \
    X(bool, fixed_4_3, .name = "aspect_4_3", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_BOOL, .max = 1,       \
      .step = 1, .flag = "--4:3", .label = "4:3 picture", .help = "4:3 PSX target, pillarboxed on wide screens")    \
    X(bool, snap, .name = "snap", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_BOOL, .max = 1, .def = 1,         \
      .step = 1, .flag = "--no-snap", .label = "Vertex snap", .help = "vertices snap to the PSX pixel grid (the wobble)") \
    X(bool, color15, .name = "color15", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_BOOL, .max = 1, .def = 1,   \
      .step = 1, .flag = "--no-15bit", .label = "15-bit colour", .help = "colours cut to 5 bits per channel")        \
    X(bool, dither, .name = "dither", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_BOOL, .max = 1, .def = 1,     \
      .step = 1, .flag = "--no-dither", .label = "Dither", .help = "ordered dither over the 15-bit colours")         \
    X(bool, fog, .name = "fog", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_BOOL, .max = 1, .def = 1, .step = 1, \
      .flag = "--no-fog", .label = "Fog", .help = "distance fog toward the sky colour")                             \
    X(bool, sky_clouds, .name = "sky_clouds", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_BOOL, .max = 1,      \
      .def = 1, .step = 1, .flag = "--no-sky-clouds", .label = "Sky clouds",                                       \
      .help = "the cloud layer painted on the sky dome")                                                          \
    X(bool, draw_clouds, .name = "clouds", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_BOOL, .max = 1,         \
      .def = 1, .step = 1, .flag = "--no-clouds", .label = "Voxel clouds",                                         \
      .help = "blended voxel clouds in the world (costly on tile GPUs)")                                          \
    X(float, fov_y_deg, .name = "fov", .group = RENDER_GROUP_PICTURE, .type = RENDER_PT_FLOAT, .min = 40,          \
      .max = 110, .def = RENDER_FOV_DEFAULT, .step = 5, .flag = "--fov", .label = "Field of view", .unit = "deg",  \
      .help = "vertical field of view")                                                                           \
    X(int, hud_size, .name = "hud_size", .group = RENDER_GROUP_HUD, .type = RENDER_PT_ENUM, .max = 2, .def = 1,     \
      .step = 1, .label = "HUD size", .names = (const char *const[]){"small", "normal", "large"}, .n_names = 3,    \
      .help = "text size: small for a 3.5-inch screen, large for a TV across the room")

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

/* W8: abyss atmosphere for a camera height. h = clamp((y - 5) / 25, 0, 1);
 * colour = lerp(sky, 0x050508, 1 - h); fog density = 0.005 + (1 - h) * 0.035. */
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

/* Per-octave split of (camera * 0.002 + time * 0.02) * 2^k into a fraction and a lattice cell
 * mod the period (done in double so the shader only sees small numbers). */
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
} RenderInstance;

#define RENDER_INSTANCES_MAX 16
/* A course's best run flown beside the player: the aircraft at this tint alpha (one draw call). */
#define RENDER_GHOST_ALPHA 0.4f

typedef struct RenderView {
    double cam_x, cam_y, cam_z;
    float yaw, pitch, roll;     /* radians; yaw 0 looks along -z, +yaw turns right, +pitch up */
    double time_s;              /* drives the sky's cloud drift */
    /* what is drawn besides the world, opaque ones in list order, then translucent ones */
    uint32_t instance_count;
    RenderInstance instances[RENDER_INSTANCES_MAX];
    WeatherState weather;       /* the frame's weather at the aircraft (zero: clear, calm, no rain) */
} RenderView;

/* A new instance at the end of the view's list, at the origin, level, untinted (tint 1, 1, 1, 1);
 * NULL when the list is full. */
RenderInstance *render_view_add(RenderView *v, RenderModel model);

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
void render_hud_box(Renderer *r, int x, int y, int w, int h, uint32_t rgba);   /* 0xRRGGBBAA, filled, blended */
/* '\n' starts a new line; a 1-px dark shadow under it for reading over sky; scale 1..4. ASCII
 * font: a UTF-8 sequence draws as one '?'. */
void render_hud_text(Renderer *r, int x, int y, int scale, uint32_t rgba, const char *text);
/* Widest line in pixels, at the renderer's HUD size (live.hud_size). */
int render_hud_text_width(const Renderer *r, const char *text, int scale);
/* The HUD size as a factor of every text scale (0.75 small, 1 normal, 1.5 large). */
float render_hud_zoom(const Renderer *r);
/* The home island's map, built once at boot from the baked field and the island: ground coloured
 * by location type and shaded by elevation (a power-of-two texture from the budget), the path
 * network as lines, each site as a dot with its display name in `lang`. */
bool render_map_set(Renderer *r, const IslandField *f, const Island *isl, const IslandCodex *cx, const char *lang,
                    SkyError *err);
/* Queues the map into the rectangle (letterboxed to keep the island round), with the aircraft's
 * position and heading as an arrow (yaw 0 = -z, +yaw turns right, as RenderView). North (-z) is
 * up. Outside the island the arrow is clamped to the rectangle's edge. Nothing before
 * render_map_set. */
void render_hud_map(Renderer *r, int x, int y, int w, int h, double air_x, double air_z, float air_yaw);
/* Where world (wx, wz) falls on the map in that rectangle (a site's dot is there): marks the game
 * draws over it. False before render_map_set. */
bool render_hud_map_point(const Renderer *r, int x, int y, int w, int h, double wx, double wz, int *px, int *py);

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
