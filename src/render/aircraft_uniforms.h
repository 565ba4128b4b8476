/* skyisles renderer: the aircraft's program as the marker layers draw through it (the course's
 * rings, the approach lights): the handles of the uniforms a marker sets, found in one place, and
 * one call that binds the program with a marker's look and matrices (no propeller, no tint).
 * The aircraft owns the program and finds the handles once (aircraft.c); a layer keeps a copy of both. */
#ifndef SKYISLES_RENDER_AIRCRAFT_UNIFORMS_H
#define SKYISLES_RENDER_AIRCRAFT_UNIFORMS_H

#include "render_internal.h"

static inline AircraftUniforms aircraft_uniforms(const GlProgram *p) {
    AircraftUniforms u = {
        .viewproj = gl_uniform(p, "u_viewproj"),
        .model = gl_uniform(p, "u_model"),
        .prop = gl_uniform(p, "u_prop"),
        .prop_centre = gl_uniform(p, "u_prop_centre"),
        .tint = gl_uniform(p, "u_tint"),
    };
    return u;
}

/* glUseProgram, the prelude from look, then viewproj and model; the propeller still and centred
 * at the origin, the tint white. */
static inline void aircraft_marker_use(const GlProgram *p, const AircraftUniforms *u, const PsxParams *look,
                                       const float viewproj[16], const float model[16]) {
    glUseProgram(p->id);
    psx_set_uniforms(p, look);
    glUniformMatrix4fv(u->viewproj, 1, GL_FALSE, viewproj);
    glUniformMatrix4fv(u->model, 1, GL_FALSE, model);
    glUniform2f(u->prop, 1.0f, 0.0f);
    glUniform3f(u->prop_centre, 0.0f, 0.0f, 0.0f);
    glUniform3f(u->tint, 1.0f, 1.0f, 1.0f);
}

#endif
