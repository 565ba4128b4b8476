// skyisles PSX look, written once for every program: gl_program inserts this file after
// #version, with STAGE_VERTEX or STAGE_FRAGMENT defined, so a shader calls these functions
// instead of carrying its own copy. The uniforms are set from one PsxParams by
// psx_set_uniforms (src/render/psx.c); a program that never calls a function leaves its
// uniforms inactive, and the C side skips them.

#ifdef STAGE_FRAGMENT
// Fragment shaders default to mediump (highp is optional on GLES2 GPUs), before anything else.
precision mediump float;
#endif

#ifdef STAGE_VERTEX
uniform vec2 u_snap;          // half the low-res target size in pixels; 0 = no snapping
uniform float u_fog_density;  // W8 exponential-squared fog density; 0 = no fog

// Vertex snapping: clip-space xy onto the low-res pixel grid, as the PSX's integer vertices.
vec4 psx_snap(vec4 clip) {
    if (u_snap.x > 0.0 && clip.w > 0.001) {
        vec2 ndc = floor(clip.xy / clip.w * u_snap + 0.5) / u_snap;
        clip.xy = ndc * clip.w;
    }
    return clip;
}

// The sky's light (RenderSky via PsxParams): the key light (the sun, the moon at night), the
// ambient sky light, the abyss ramp, and the PSX_LAMPS lamps nearest the camera (C: PSX_LAMPS).
#define PSX_LAMPS 4
// u_light: [0] the unit vector toward the key light, W8's ramp slope; [1] its colour, the ramp's
// offset (ramp = rel.y * [0].w + [1].w); [2] the ambient. u_lamps: per lamp its camera-relative
// position and reach in metres (> 0), then its colour (black: no lamp).
uniform vec4 u_light[3];
uniform vec4 u_lamps[2 * PSX_LAMPS];

// W8's ramp at a camera-relative position: the sky's light falls to 0.3 toward the abyss floor.
float psx_ramp(vec3 rel) {
    return 0.3 + 0.7 * clamp(rel.y * u_light[0].w + u_light[1].w, 0.0, 1.0);
}

// The lamps' colour at a camera-relative position, each within its reach.
vec3 psx_lamps(vec3 rel) {
    vec3 c = vec3(0.0);
    for (int i = 0; i < PSX_LAMPS; i++) {
        // Lamps come nearest first and the unused ones are black: by day the loop ends at once.
        vec4 at = u_lamps[2 * i];
        vec3 rgb = u_lamps[2 * i + 1].rgb;
        if (rgb.r + rgb.g + rgb.b <= 0.0) break;
        float k = max(1.0 - length(at.xyz - rel) / at.w, 0.0);
        c += rgb * (k * k);
    }
    return c;
}

// The light on a face of normal n at camera-relative position rel, per vertex: the ambient plus
// the key light on faces turned to it, along W8's ramp, plus the lamps. Colours are multiplied
// by it (their baked AO and shade stay).
vec3 psx_light(vec3 n, vec3 rel) {
    return (u_light[2].rgb + u_light[1].rgb * max(dot(n, u_light[0].xyz), 0.0)) * psx_ramp(rel) + psx_lamps(rel);
}

// Per-vertex fog amount at a camera-relative position (three.js FogExp2, radial distance).
float psx_fog(vec3 rel) {
    float fd = u_fog_density * length(rel);
    return 1.0 - exp(-fd * fd);
}
#endif

#ifdef STAGE_FRAGMENT
uniform vec3 u_fog_color;
uniform float u_levels;   // 31: 15-bit colour (5 bits per channel); 0 = full precision
uniform float u_dither;   // 1: 4x4 ordered dither before quantising; 0 = off

// 4x4 Bayer index 0..15 at a pixel, from two 2x2 levels (no arrays in GLSL ES 1.00).
float bayer4(vec2 frag) {
    vec2 p = mod(floor(frag), 4.0);
    vec2 lo = mod(p, 2.0);
    vec2 hi = floor(p * 0.5);
    float b_lo = 2.0 * lo.x + 3.0 * lo.y - 4.0 * lo.x * lo.y;
    float b_hi = 2.0 * hi.x + 3.0 * hi.y - 4.0 * hi.x * hi.y;
    return 4.0 * b_lo + b_hi;
}

// The fog colour blended in by the per-vertex amount from psx_fog.
vec3 psx_fog_mix(vec3 c, float fog) {
    return mix(c, u_fog_color, fog);
}

// 15-bit colour: quantised to u_levels steps, dithered in low-res pixels.
vec3 psx_color(vec3 c) {
    if (u_levels > 0.0) {
        float d = u_dither * ((bayer4(gl_FragCoord.xy) + 0.5) / 16.0 - 0.5);
        c = floor(clamp(c, 0.0, 1.0) * u_levels + 0.5 + d) / u_levels;
    }
    return c;
}
#endif
