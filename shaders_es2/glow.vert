#version 100
// skyisles night lights: glowing quads (lamps, fires, windows, the aircraft's navigation lights)
// and the lighthouse's beam, built camera-relative on the CPU each frame, snapped to the
// low-res grid like everything in the scene. No fog: a light at night shows through it.
attribute vec4 a_pos;     // camera-relative metres
attribute vec4 a_uv;      // -1..1 across the glow (the beam: across, and 0..1 along it)
attribute vec4 a_color;   // RGBA8: the light's colour, alpha its strength
uniform mat4 u_viewproj;  // camera at the origin: rotation and projection only
varying vec2 v_uv;
varying vec4 v_color;

void main() {
    gl_Position = psx_snap(u_viewproj * vec4(a_pos.xyz, 1.0));
    v_uv = a_uv.xy;
    v_color = a_color;
}
