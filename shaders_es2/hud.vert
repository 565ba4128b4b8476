#version 100
// skyisles HUD layer: text, boxes and the island map as textured quads in canvas pixels (the
// low-res target, origin top left), already on the pixel grid, so no snapping and no fog.
attribute vec4 a_pos;     // int16 x, y in quarter pixels (thin map lines fall between pixels)
attribute vec4 a_color;   // RGBA8, multiplies the atlas
attribute vec4 a_uv;      // uint16 atlas texel
uniform vec2 u_to_ndc;    // 2 / (canvas size in quarter pixels), y negated: y runs down
uniform vec2 u_atlas_inv; // 1 / atlas size in texels
varying vec4 v_color;
varying vec2 v_uv;

void main() {
    gl_Position = vec4(a_pos.xy * u_to_ndc + vec2(-1.0, 1.0), 0.0, 1.0);
    v_uv = a_uv.xy * u_atlas_inv;
    v_color = a_color;
}
