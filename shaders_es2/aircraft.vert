#version 100
// skyisles aircraft: flat-shaded low-poly model, the propeller spun about the nose axis,
// snapped to the low-res grid and fogged by the prelude like the terrain.
attribute vec4 a_pos;     // int16 model position in 1/256 m; w = part (0 body, 1 propeller)
attribute vec3 a_normal;  // int8 normalised face normal
attribute vec4 a_color;   // RGBA8
uniform mat4 u_viewproj;
uniform mat4 u_model;     // aircraft to camera-relative world
uniform vec2 u_prop;      // cos, sin of the propeller angle
uniform vec3 u_prop_centre;
uniform vec3 u_tint;      // the instance's colour times
varying vec4 v_color;
varying float v_fog;

void main() {
    vec3 p = a_pos.xyz * (1.0 / 256.0);
    vec3 n = a_normal;
    if (a_pos.w > 0.5) {
        vec3 q = p - u_prop_centre;
        p = u_prop_centre + vec3(q.x * u_prop.x - q.y * u_prop.y, q.x * u_prop.y + q.y * u_prop.x, q.z);
        n = vec3(n.x * u_prop.x - n.y * u_prop.y, n.x * u_prop.y + n.y * u_prop.x, n.z);
    }
    vec4 w = u_model * vec4(p, 1.0);
    vec3 wn = normalize(mat3(u_model) * n);
    gl_Position = psx_snap(u_viewproj * w);
    v_fog = psx_fog(w.xyz);
    v_color = vec4(a_color.rgb * psx_light(wn, w.xyz) * u_tint, 1.0);
}
