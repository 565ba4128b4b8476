#version 100
// skyisles night lights: a round falloff from a white-hot core to the light's colour, added to
// what is behind it, on the 15-bit grid.
precision mediump float;
varying vec2 v_uv;
varying vec4 v_color;

void main() {
    float f = max(1.0 - dot(v_uv, v_uv), 0.0);
    vec3 c = v_color.rgb * (f * v_color.a * 1.6) + vec3(max(f - 0.7, 0.0) * 2.0 * v_color.a);
    gl_FragColor = vec4(psx_color(c), 1.0);
}
