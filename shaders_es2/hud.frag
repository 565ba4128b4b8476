#version 100
// skyisles HUD layer: the atlas texel (glyph, white block or map) times the vertex colour, on the
// same 15-bit grid and dither as the scene under it.
precision mediump float;
#ifdef GL_FRAGMENT_PRECISION_HIGH
varying highp vec2 v_uv;   // texel centres of a 512-row atlas need more than mediump's 11 bits
#else
varying vec2 v_uv;
#endif
varying vec4 v_color;
uniform sampler2D u_atlas;

void main() {
    vec4 c = texture2D(u_atlas, v_uv) * v_color;
    gl_FragColor = vec4(psx_color(c.rgb), c.a);
}
