#version 100
// skyisles rain: the streak's colour fading toward its tail and into the fog; the flash is the
// colour alone, added over the frame.
precision mediump float;
uniform vec4 u_color;
varying float v_fog;
varying float v_alpha;

void main() {
    vec3 c = psx_fog_mix(u_color.rgb, v_fog);
    gl_FragColor = vec4(psx_color(c), u_color.a * v_alpha);
}
