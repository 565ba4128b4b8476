#version 100
// skyisles PSX upscale: nearest-neighbour copy of the low-res target (the viewport letterboxes).
precision mediump float;
#ifdef GL_FRAGMENT_PRECISION_HIGH
varying highp vec2 v_uv;   // a 640-texel target needs more than mediump's 11 bits
#else
varying vec2 v_uv;
#endif
uniform sampler2D u_tex;

void main() {
    gl_FragColor = vec4(texture2D(u_tex, v_uv).rgb, 1.0);
}
