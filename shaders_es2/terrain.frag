#version 100
// skyisles terrain and clouds: vertex colour, fog, 15-bit colour with 4x4 ordered dither.
precision mediump float;
uniform vec3 u_fog_color;
uniform float u_levels;   // 31: 15-bit colour (5 bits per channel); 0 = full precision
uniform float u_dither;   // 1: 4x4 ordered dither before quantising; 0 = off
uniform vec4 u_tint;      // debug LOD tint: colour, mix amount (0 = none)
varying vec4 v_color;
varying float v_fog;

// 4x4 Bayer index 0..15 at a pixel, from two 2x2 levels (no arrays in GLSL ES 1.00).
float bayer4(vec2 frag) {
    vec2 p = mod(floor(frag), 4.0);
    vec2 lo = mod(p, 2.0);
    vec2 hi = floor(p * 0.5);
    float b_lo = 2.0 * lo.x + 3.0 * lo.y - 4.0 * lo.x * lo.y;
    float b_hi = 2.0 * hi.x + 3.0 * hi.y - 4.0 * hi.x * hi.y;
    return 4.0 * b_lo + b_hi;
}

vec3 psx_color(vec3 c) {
    if (u_levels > 0.0) {
        float d = u_dither * ((bayer4(gl_FragCoord.xy) + 0.5) / 16.0 - 0.5);
        c = floor(clamp(c, 0.0, 1.0) * u_levels + 0.5 + d) / u_levels;
    }
    return c;
}

void main() {
    vec3 c = mix(mix(v_color.rgb, u_tint.rgb, u_tint.a), u_fog_color, v_fog);
    gl_FragColor = vec4(psx_color(c), v_color.a);
}
