#version 100
// skyisles terrain and clouds: packed chunk vertices drawn camera-relative, snapped to the
// low-res pixel grid and fogged per vertex (W8) by the prelude.
attribute vec4 a_pos;     // int16 x, y, z (chunk-local x/z, absolute y)
attribute vec4 a_color;   // RGBA8: colour with AO and shade baked; alpha = cloud opacity
uniform mat4 u_viewproj;  // camera at the origin: rotation and projection only
uniform vec3 u_offset;    // chunk origin minus camera position (subtracted in double on the CPU)
varying vec4 v_color;
varying float v_fog;

void main() {
    vec3 p = a_pos.xyz + u_offset;
    gl_Position = psx_snap(u_viewproj * vec4(p, 1.0));
    v_fog = psx_fog(p);
    v_color = a_color;
}
