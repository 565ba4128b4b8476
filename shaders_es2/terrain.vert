#version 100
// skyisles terrain and clouds: packed chunk vertices drawn camera-relative, with PSX vertex
// snapping to the low-res pixel grid and per-vertex exponential-squared fog (W8).
attribute vec4 a_pos;     // int16 x, y, z (chunk-local x/z, absolute y) + normal | flags << 8
attribute vec4 a_color;   // RGBA8: colour with AO and shade baked; alpha = cloud opacity
uniform mat4 u_viewproj;  // camera at the origin: rotation and projection only
uniform vec3 u_offset;    // chunk origin minus camera position (subtracted in double on the CPU)
uniform vec2 u_snap;      // half the low-res target size in pixels; 0 = no snapping
uniform float u_fog_density;
varying vec4 v_color;
varying float v_fog;

void main() {
    vec3 p = a_pos.xyz + u_offset;
    vec4 clip = u_viewproj * vec4(p, 1.0);
    if (u_snap.x > 0.0 && clip.w > 0.001) {
        vec2 ndc = floor(clip.xy / clip.w * u_snap + 0.5) / u_snap;
        clip.xy = ndc * clip.w;
    }
    gl_Position = clip;
    float fd = u_fog_density * length(p);
    v_fog = 1.0 - exp(-fd * fd);
    v_color = a_color;
}
