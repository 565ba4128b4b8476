/* skyisles world: streaming, chunk table, events (stub until the generator lands). */
#include "world/world.h"

#include <string.h>

void world_params_default(WorldParams *p) { memset(p, 0, sizeof *p); p->view_radius = 10; }
World *world_create(MemBudget *b, JobSystem *jobs, const WorldParams *p, SkyError *err) {
    (void)b; (void)jobs; (void)p;
    sky_error_set(err, 1, "world: not implemented yet");
    return NULL;
}
void world_destroy(World *w) { (void)w; }
void world_set_params(World *w, const WorldParams *p) { (void)w; (void)p; }
const WorldParams *world_params(const World *w) { (void)w; return NULL; }
void world_update(World *w, const WorldView *v) { (void)w; (void)v; }
float world_density_at_params(const WorldParams *p, double x, double y, double z) { (void)p; (void)x; (void)z; return (float)-y; }
bool world_solid_at_params(const WorldParams *p, double x, double y, double z) { return world_density_at_params(p, x, y, z) > 0; }
bool world_cloud_at_params(const WorldParams *p, double t, double x, double y, double z) { (void)p; (void)t; (void)x; (void)y; (void)z; return false; }
float world_density_at(const World *w, double x, double y, double z) { (void)w; return world_density_at_params(NULL, x, y, z); }
bool world_solid_at(const World *w, double x, double y, double z) { return world_density_at(w, x, y, z) > 0; }
size_t world_take_events(World *w, WorldEvent *out, size_t max) { (void)w; (void)out; (void)max; return 0; }
void world_release_mesh(World *w, int32_t cx, int32_t cz) { (void)w; (void)cx; (void)cz; }
WorldStats world_stats(const World *w) { (void)w; WorldStats s; memset(&s, 0, sizeof s); return s; }
double world_latency_ms(const World *w, double q) { (void)w; (void)q; return 0; }
bool world_build_chunk(World *w, int32_t cx, int32_t cz, double t, ChunkMesh *out, WorldBuildTiming *tm) {
    (void)w; (void)cx; (void)cz; (void)t; (void)out; (void)tm; return false;
}
void world_free_mesh(World *w, ChunkMesh *m) { (void)w; (void)m; }
const uint8_t *world_debug_voxels(const World *w, int32_t *h) { (void)w; if (h) *h = 0; return NULL; }
