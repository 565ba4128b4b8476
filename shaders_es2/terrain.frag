#version 100
// skyisles terrain and clouds: vertex colour, then the prelude's fog and 15-bit colour.
precision mediump float;
uniform vec4 u_tint;      // debug LOD tint: colour, mix amount (0 = none)
varying vec4 v_color;
varying float v_fog;

void main() {
    vec3 c = psx_fog_mix(mix(v_color.rgb, u_tint.rgb, u_tint.a), v_fog);
    gl_FragColor = vec4(psx_color(c), v_color.a);
}
