#version 100
// skyisles sky dome (S2-S3): the seed's 5-octave value-noise FBM, n = fbm(worldPos * 0.002 +
// time * 0.02), cloud = smoothstep(0.3, 0.8, n), over a sky gradient, then the abyss blend (W8).
// The lattice comes from a texture baked at boot by the CPU reference (period SKY_PERIOD), so
// no sin() hash runs here: a mediump GPU draws the same clouds as a highp one. The camera and
// time offset is split per octave on the CPU into a lattice cell (u_cell) and a fraction
// (u_frac), which keeps every coordinate in this shader small.
precision mediump float;
#if defined(GL_FRAGMENT_PRECISION_HIGH) && !defined(SKY_FORCE_MEDIUMP)
#define SKYP highp
#else
#define SKYP mediump
#endif
// SKY_PERIOD, SKY_ATLAS_COLS and SKY_OCTAVES come from the C side (render.h) as defines.

uniform sampler2D u_lattice;    // RGBA: corners (x,y) (x+1,y) (x,y+1) (x+1,y+1) of slice z
uniform vec2 u_lattice_inv;     // 1 / atlas size in texels
uniform SKYP vec3 u_frac[SKY_OCTAVES];  // per-octave fraction of the camera + time offset
uniform vec3 u_cell[SKY_OCTAVES];       // per-octave lattice cell of that offset, 0..SKY_PERIOD-1
uniform vec3 u_zenith;
uniform vec3 u_horizon;
uniform vec3 u_below;           // lower half: the fog colour the terrain fades into
uniform vec3 u_cloud_color;
uniform float u_cloud_amount;   // 0: no clouds
uniform vec3 u_sun;             // unit vector toward the sun (RenderSky)
uniform vec3 u_moon;
uniform vec3 u_glow;            // warm light around the sun, strongest toward the horizon
uniform float u_night;          // 0 day .. 1 night: stars and the moon
uniform vec3 u_anti;            // light on the horizon opposite the sun (dawn)
uniform float u_cover;          // 0..1: the weather's cloud (0: the FBM's own clouds)
uniform vec3 u_abyss;           // 0x050508
uniform float u_abyss_mix;      // 1 - h (W8)
uniform float u_debug_fbm;      // 1: output the raw fbm value (tests compare it with the CPU)
varying SKYP vec3 v_rel;

// The 4 lattice corners of cell (x, y) in slice z; texel centres only, so nearest filtering
// and mediump texture coordinates address them exactly.
vec4 lattice(float z, vec2 xy) {
    float row = floor(z / SKY_ATLAS_COLS);
    float col = z - row * SKY_ATLAS_COLS;
    return texture2D(u_lattice, (vec2(col, row) * SKY_PERIOD + xy + 0.5) * u_lattice_inv);
}

float value_noise(vec3 cell, SKYP vec3 f) {
    vec3 u = f * f * (3.0 - 2.0 * f);
    vec4 a = lattice(cell.z, cell.xy);
    vec4 b = lattice(mod(cell.z + 1.0, SKY_PERIOD), cell.xy);
    vec2 ax = mix(a.xz, a.yw, u.x);
    vec2 bx = mix(b.xz, b.yw, u.x);
    return mix(mix(ax.x, ax.y, u.y), mix(bx.x, bx.y, u.y), u.z);
}

float fbm(SKYP vec3 r) {
    float v = 0.0;
    float amp = 0.5;
    SKYP float freq = 1.0;
    for (int i = 0; i < SKY_OCTAVES; i++) {
        SKYP vec3 p = r * freq + u_frac[i];
        SKYP vec3 fl = floor(p);
        vec3 cell = mod(fl + u_cell[i], SKY_PERIOD);
        v += amp * value_noise(cell, p - fl);
        freq *= 2.0;
        amp *= 0.5;
    }
    return v;
}

// Stars in the PSX look: single low-res points where the lattice, read on a grid of directions
// STAR_GRID cells across, passes a threshold (about one cell in 30 holds a star).
#define STAR_GRID 40.0
float stars(SKYP vec3 dir) {
    SKYP vec3 g = dir * STAR_GRID;
    SKYP vec3 c = floor(g + 0.5);
    float v = lattice(mod(c.z, SKY_PERIOD), mod(c.xy, SKY_PERIOD)).x;
    SKYP vec3 off = g - normalize(c) * STAR_GRID;
    float point = 1.0 - smoothstep(0.05, 0.16, length(off));
    return point * smoothstep(0.90, 0.97, v);
}

void main() {
    float n = fbm(v_rel);
    if (u_debug_fbm > 0.5) {
        gl_FragColor = vec4(n, n, n, 1.0);
        return;
    }
    SKYP vec3 dir = normalize(v_rel);
    vec3 sky = dir.y >= 0.0 ? mix(u_horizon, u_zenith, sqrt(dir.y))
                            : mix(u_horizon, u_below, min(-dir.y * 6.0, 1.0));
    float toward = max(dot(dir, u_sun), 0.0);
    // The discs by chord length, which mediump resolves where a cosine near 1 would not.
    float low = 1.0 - min(abs(dir.y) * 2.5, 1.0);
    sky += u_glow * (toward * toward * toward * (0.35 + 0.65 * low) + pow(toward, 24.0) * 0.6);
    float away = max(-dot(dir, u_sun), 0.0);
    sky += u_anti * (away * away * low);
    float sun_disc = (1.0 - smoothstep(0.040, 0.048, length(dir - u_sun))) * step(-0.02, u_sun.y);
    float moon_disc = (1.0 - smoothstep(0.028, 0.034, length(dir - u_moon))) * u_night;
    float up = smoothstep(-0.02, 0.06, dir.y);
    sky += u_night * up * vec3(stars(dir) * 0.9);
    sky = mix(sky, vec3(1.0, 0.97, 0.85), sun_disc * up);
    sky = mix(sky, vec3(0.86, 0.88, 0.95), moon_disc * up);
    // Cover lowers the FBM's thresholds: at full cover (overcast, storm) the dome is all cloud.
    float cloud = smoothstep(0.3 - 0.3 * u_cover, 0.8 - 0.38 * u_cover, n) * u_cloud_amount *
                  smoothstep(-0.08, 0.12, dir.y);
    vec3 cloud_c = u_cloud_color + u_glow * (toward * toward * 0.8);
    vec3 c = mix(sky, cloud_c, cloud);
    c = mix(c, u_abyss, u_abyss_mix);
    gl_FragColor = vec4(psx_color(c), 1.0);
}
