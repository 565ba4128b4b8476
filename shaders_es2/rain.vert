#version 100
// skyisles rain: streaks in a box around the camera that wraps as the camera moves and the rain
// falls and drifts with the wind, each a line from its head back along the drop's motion; with
// u_flash the lightning's full-screen quad (a_pos.xy in clip space).
attribute vec4 a_pos;     // xyz: place in the unit box; w: 0 head, 1 tail
uniform mat4 u_viewproj;
uniform vec3 u_offset;    // the box's wrap, fract((drift * time - camera) / box), made on the CPU in double
uniform vec3 u_streak;    // metres from a head to its tail
uniform float u_box;      // metres across the box
uniform float u_flash;    // 1: the flash quad
varying float v_fog;
varying float v_alpha;

void main() {
    if (u_flash > 0.5) {
        gl_Position = vec4(a_pos.xy, 0.0, 1.0);
        v_fog = 0.0;
        v_alpha = 1.0;
        return;
    }
    vec3 p = (fract(a_pos.xyz + u_offset) - 0.5) * u_box + u_streak * a_pos.w;
    gl_Position = psx_snap(u_viewproj * vec4(p, 1.0));
    v_fog = psx_fog(p);
    v_alpha = 1.0 - 0.6 * a_pos.w;
}
