/* skyisles wind on the aircraft: the air mass carries it (ground speed = air speed + wind) and
 * the storms' shake jolts it, harder where the wind tumbles over rock. Kept apart from the flight model: flight_step flies through the
 * air, this moves the air; the caller sweeps collision over both, so no gust pushes through rock. */
#include <math.h>

#include "sim/sim.h"

#define SHAKE_ROLL 0.04f   /* rad/s of roll per m/s of sideways shake */
#define CLIFF_SHAKE 0.5f   /* m/s of shake per m/s of wind, all probes in rock (a third as much up and down) */

void sim_wind_apply(FlightState *f, const WeatherState *w, float dt) {
    f->x += (double)((w->wind[0] + w->turb[0]) * dt);
    f->y += (double)(w->turb[1] * dt);
    f->z += (double)((w->wind[1] + w->turb[2]) * dt);
    f->roll += w->turb[0] * SHAKE_ROLL * dt;
}

float sim_wind_cliff(const World *w, double x, double y, double z) {
    static const double dir[SIM_CLIFF_PROBES][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}, {0, -1, 0}};
    /* The collision's probe: its per-cell bound answers open air without the field's point query
     * (most of the sky), the same answer as world_solid_at at the block's centre. */
    WorldProbe probe;
    world_probe_init(&probe, w);
    int solid = 0;
    for (int i = 0; i < SIM_CLIFF_PROBES; i++)
        solid += world_probe_solid(&probe, (int64_t)floor(x + dir[i][0] * SIM_CLIFF_REACH),
                                   (int64_t)floor(y + dir[i][1] * SIM_CLIFF_REACH),
                                   (int64_t)floor(z + dir[i][2] * SIM_CLIFF_REACH));
    return (float)solid / (float)SIM_CLIFF_PROBES;
}

void sim_wind_cliff_shake(WeatherState *w, float cliff) {
    static const float AXIS[3] = {1.0f, 0.35f, 1.0f};
    float k = cliff * CLIFF_SHAKE * w->wind_speed;
    for (int a = 0; a < 3; a++) w->turb[a] += w->shake[a] * k * AXIS[a];
}

void sim_wind_near_rock(const World *w, const FlightState *f, uint64_t step, WeatherState *ws) {
    if (step % SIM_CLIFF_EVERY != 0) return;
    /* A jolt as large as the shake of the steps between would add up to: the same push. */
    sim_wind_cliff_shake(ws, sim_wind_cliff(w, f->x, f->y, f->z) * (float)SIM_CLIFF_EVERY);
}
