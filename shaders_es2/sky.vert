#version 100
// skyisles sky dome (S1): a camera-centred sphere of radius 500 seen from inside, drawn first.
attribute vec4 a_pos;      // unit sphere
uniform mat4 u_viewproj;   // camera at the origin: rotation and projection only
uniform float u_radius;    // 500
uniform float u_scale;     // the seed's worldPos * 0.002
varying vec3 v_rel;        // dome point minus camera, in noise units (|v_rel| = 1 at the seed's scale)

void main() {
    vec3 p = a_pos.xyz * u_radius;
    v_rel = p * u_scale;
    vec4 clip = u_viewproj * vec4(p, 1.0);
    clip.z = clip.w * 0.99999;   // at the far plane whatever the terrain's far distance
    gl_Position = clip;
}
