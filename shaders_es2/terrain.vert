#version 100
// skyisles terrain and clouds: packed chunk vertices drawn camera-relative, lit by the sky
// (the face's normal from the vertex's normal byte), snapped to the low-res pixel grid and
// fogged per vertex (W8) by the prelude.
attribute vec4 a_pos;     // int16 x, y, z (chunk-local x/z, absolute y), w = normal + 256 * flags
attribute vec4 a_color;   // RGBA8: colour with AO and shade baked; alpha = cloud opacity
uniform mat4 u_viewproj;  // camera at the origin: rotation and projection only
uniform vec3 u_offset;    // chunk origin minus camera position (subtracted in double on the CPU)
uniform vec3 u_face_light[6];   // ambient + key light on a face of each WorldVertex normal
uniform vec4 u_water;     // the sky's colour the water mirrors (rgb), the wobble's phase (w, radians)
varying vec4 v_color;
varying float v_fog;

void main() {
    vec3 p = a_pos.xyz + u_offset;
    // The flags byte is w's high byte (signed: w is negative when its top bit is set) and the
    // normal byte (0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z) its low byte; floor keeps both exact in
    // highp.
    float flags = floor(a_pos.w / 256.0);
    float normal = a_pos.w - 256.0 * flags;
    // Water (material 11 in the flags' bits 2-7, WORLD_MAT_WATER): its surface rises and falls in
    // slow waves along z (the mesher's quads run along x, so rows share their edges and no crack
    // opens), a period of 32 blocks so chunks and far tiles meet; it mirrors the sky.
    float water = step(abs(floor(flags * 0.25 + 0.01) - 11.0), 0.5);
    float wave = sin(u_water.w + a_pos.z * 0.3926991);
    p.y += water * (0.12 * wave - 0.1);
    gl_Position = psx_snap(u_viewproj * vec4(p, 1.0));
    v_fog = psx_fog(p);
    // psx_light with the key light and ambient of each of the six normals made once a frame on
    // the CPU: one lookup per vertex instead of a normal and a dot product.
    vec3 light = u_face_light[int(normal + 0.5)] * psx_ramp(p) + psx_lamps(p);
    vec3 lit = a_color.rgb * light;
    // A lake mirrors the sky, shimmering; a falls' sheet (water on a side face) carries light
    // bands down it, one every few vertex rows (2 s a band).
    float sheet = water * step(0.5, abs(normal - 2.0));
    float shimmer = 0.45 + 0.08 * sin(u_water.w * 0.7 + a_pos.x * 0.5890486 + a_pos.z * 0.1963495);
    lit *= 1.0 + sheet * 0.3 * sin(u_water.w * 4.0 + a_pos.y * 0.35);
    v_color = vec4(mix(lit, mix(lit, u_water.rgb, shimmer * (1.0 - 0.6 * sheet)), water), a_color.a);
}
