#version 100
// skyisles aircraft: lit vertex colour, then the prelude's fog and 15-bit colour.
precision mediump float;
varying vec4 v_color;
varying float v_fog;

void main() {
    vec3 c = psx_fog_mix(v_color.rgb, v_fog);
    gl_FragColor = vec4(psx_color(c), v_color.a);
}
