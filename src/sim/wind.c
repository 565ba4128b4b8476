/* skyisles wind on the aircraft: the air mass carries it (ground speed = air speed + wind) and
 * the storms' shake jolts it. Kept apart from the flight model: flight_step flies through the
 * air, this moves the air; the caller sweeps collision over both, so no gust pushes through rock. */
#include "sim/sim.h"

#define SHAKE_ROLL 0.04f   /* rad/s of roll per m/s of sideways shake */

void sim_wind_apply(FlightState *f, const WeatherState *w, float dt) {
    f->x += (double)((w->wind[0] + w->turb[0]) * dt);
    f->y += (double)(w->turb[1] * dt);
    f->z += (double)((w->wind[1] + w->turb[2]) * dt);
    f->roll += w->turb[0] * SHAKE_ROLL * dt;
}
