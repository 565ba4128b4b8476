#version 100
// skyisles terrain and clouds: packed chunk vertices drawn camera-relative, lit by the sky
// (the face's normal from the vertex's normal byte), snapped to the low-res pixel grid and
// fogged per vertex (W8) by the prelude.
attribute vec4 a_pos;     // int16 x, y, z (chunk-local x/z, absolute y), w = normal + 256 * flags
attribute vec4 a_color;   // RGBA8: colour with AO and shade baked; alpha = cloud opacity
uniform mat4 u_viewproj;  // camera at the origin: rotation and projection only
uniform vec3 u_offset;    // chunk origin minus camera position (subtracted in double on the CPU)
uniform vec3 u_face_light[6];   // ambient + key light on a face of each WorldVertex normal
varying vec4 v_color;
varying float v_fog;

void main() {
    vec3 p = a_pos.xyz + u_offset;
    gl_Position = psx_snap(u_viewproj * vec4(p, 1.0));
    v_fog = psx_fog(p);
    // psx_light with the key light and ambient of each of the six normals made once a frame on
    // the CPU: one lookup per vertex instead of a normal and a dot product.
    // The normal byte (0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z) is w's low byte; w is negative when
    // the flags' top bit is set, and floor keeps the low byte right then too (exact in highp).
    float normal = a_pos.w - 256.0 * floor(a_pos.w / 256.0);
    vec3 light = u_face_light[int(normal + 0.5)] * psx_ramp(p) + psx_lamps(p);
    v_color = vec4(a_color.rgb * light, a_color.a);
}
