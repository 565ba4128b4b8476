#version 100
// skyisles PSX upscale: a full-viewport triangle pair sampling the low-res target.
attribute vec4 a_pos;     // xy in -1..1
varying vec2 v_uv;

void main() {
    v_uv = a_pos.xy * 0.5 + 0.5;
    gl_Position = vec4(a_pos.xy, 0.0, 1.0);
}
