/* skyisles game: the home island at boot: the codex pack (built in, or --pak FILE), the island
 * for the seed with work memory carved from the budget, and the IslandField the world reads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

/* One line for a pack that cannot be used: which file, what is wrong (the loader's words), what
 * to do. */
static void pack_error(SkyError *err, const char *path, const char *why) {
    if (!strncmp(why, "pack: ", 6)) why += 6;   /* the loader's prefix: the line names the file instead */
    if (path)
        sky_error_set(err, SKY_ERR_INPUT, "skyisles: cannot use pack %s: %s; or leave out --pak to fly with the built-in pack",
                      path, why);
    else
        sky_error_set(err, SKY_ERR_INPUT, "skyisles: the built-in pack is damaged: %s", why);
}

/* The pack bytes in the budget: the built-in pack as it is, a --pak file copied in once. */
static const uint8_t *pack_bytes(MemBudget *mem, const char *path, size_t *len, SkyError *err) {
    if (!path) {
        const uint8_t *d = island_pak_default(len);
        if (!d || *len == 0)
            sky_error_set(err, SKY_ERR_INPUT,
                          "skyisles: this build has no built-in pack: give one with --pak FILE (build/pack writes it)");
        return d;
    }
    SkyError ferr = {0};
    uint8_t *file = file_read_all(path, ISLAND_PAK_MAX_BYTES, len, &ferr);
    if (!file) {
        sky_error_set(err, SKY_ERR_INPUT, "skyisles: --pak: %s; or leave out --pak to fly with the built-in pack",
                      ferr.msg);
        return NULL;
    }
    uint8_t *copy = mem_carve(mem, *len ? *len : 1, 16);
    if (copy) memcpy(copy, file, *len);
    free(file);   /* boot only: the pack lives in the budget from here on */
    if (!copy) {
        sky_error_set(err, SKY_ERR_INPUT, "skyisles: the %zu-byte pack %s does not fit the memory budget: raise --mem MB",
                      *len, path);
        return NULL;
    }
    return copy;
}

bool game_home_boot(GameHome *h, MemBudget *mem, const char *pak_path, uint64_t seed, SkyError *err) {
    memset(h, 0, sizeof *h);
    size_t used0 = mem->used;
    h->pak_name = pak_path ? pak_path : "built-in";
    double t0 = time_now_ms();
    const uint8_t *pak = pack_bytes(mem, pak_path, &h->pak_bytes, err);
    if (!pak) return false;
    h->codex = mem_carve(mem, sizeof *h->codex, 64);
    h->island = mem_carve(mem, sizeof *h->island, 64);
    if (!h->codex || !h->island) goto short_budget;
    SkyError perr = {0};
    if (!island_pak_load(h->codex, pak, h->pak_bytes, &perr)) {
        pack_error(err, pak_path, perr.msg);
        return false;
    }
    /* Landmarks and flora are names of the world's tables: a pack from another build may name
     * one this build does not have. */
    for (uint32_t t = 0; t < h->codex->n_types; t++) {
        const IslandType *ty = &h->codex->types[t];
        bool lm = world_landmark_find(ty->landmark) >= 0, fl = !ty->flora[0] || world_flora_find(ty->flora) >= 0;
        if (!lm || !fl) {
            sky_error_set(err, SKY_ERR_INPUT,
                          "skyisles: cannot use pack %s: location type '%s' names %s '%s', which this build does not have: "
                          "rebuild it from assets/codex with build/pack, or leave out --pak to fly with the built-in pack",
                          h->pak_name, ty->id, lm ? "flora" : "landmark", lm ? ty->flora : ty->landmark);
            return false;
        }
    }
    if (!island_codex_has_archipelago(h->codex))
        log_info("skyisles: pack %s (version %u) has no archipelago: the home island is the world's only named island; "
                 "rebuild the pack from assets/codex with build/pack for the others", h->pak_name, h->codex->version);
    int scope = island_codex_find_scope(h->codex, GAME_HOME_SCOPE);
    if (scope < 0) {
        sky_error_set(err, SKY_ERR_INPUT,
                      "skyisles: cannot use pack %s: it has no '%s' generation scope (rebuild it from assets/codex with build/pack)",
                      h->pak_name, GAME_HOME_SCOPE);
        return false;
    }
    double t1 = time_now_ms();
    h->load_ms = t1 - t0;

    /* One arena serves the generator's work buffers (all returned when it ends) and then holds
     * the baked field for the rest of the run. */
    size_t field_bytes = island_field_bytes(h->codex, (uint32_t)scope, GAME_HOME_FIELD);
    size_t work = island_work_bytes();
    if (!mem_arena_init(&h->arena, mem, work > field_bytes ? work : field_bytes)) goto short_budget;
    IslandParams ip = {.seed = seed, .scope = (uint32_t)scope, .site_count = 0};
    SkyError gerr = {0};
    if (!island_generate(h->island, h->codex, &ip, &h->arena, &gerr)) {
        pack_error(err, pak_path, gerr.msg);
        return false;
    }
    double t2 = time_now_ms();
    h->gen_ms = t2 - t1;
    h->work_peak = h->arena.peak;
    if (!island_bake_field(&h->field, h->island, h->codex, GAME_HOME_FIELD, 0.0f, 0.0f, &h->arena, &gerr)) {
        pack_error(err, pak_path, gerr.msg);
        return false;
    }
    h->bake_ms = time_now_ms() - t2;
    h->carved = mem->used - used0;
    /* The other islands: the world bakes them as it streams (world_set_islands). */
    h->archipelago = archipelago_source(&h->arch, h->codex, (uint32_t)scope, seed, GAME_HOME_FIELD, &h->isrc);
    if (!h->archipelago && island_codex_has_archipelago(h->codex))   /* a pack without one: said above */
        log_info("skyisles: pack %s: its archipelago cannot be used here: the home island is the only named island "
                 "(rebuild the pack from assets/codex with build/pack for the others)", h->pak_name);
    return true;

short_budget:
    sky_error_set(err, SKY_ERR_INPUT,
                  "skyisles: the memory budget (%zu MiB) is too small for the home island: raise --mem MB or SKYISLES_MEM_MB",
                  mem->size >> 20);
    return false;
}

void game_home_site_name(const GameHome *h, uint32_t site, char *buf, size_t n) {
    island_site_display_name(h->island, h->codex, site, GAME_LANG, buf, n);
}

void game_home_log(const GameHome *h) {
    char base[96];
    island_site_display_name(h->island, h->codex, h->island->base, "en", base, sizeof base);   /* the log is English */
    log_info("skyisles: home island: seed %llu, %u sites, base %s, generated in %.2f ms (pack %s, %zu bytes, "
             "loaded in %.2f ms; field %ux%u baked in %.2f ms)",
             (unsigned long long)h->island->seed, h->island->n_sites, base, h->gen_ms, h->pak_name, h->pak_bytes,
             h->load_ms, h->field.size, h->field.size, h->bake_ms);
}

/* An island's sites, paths and strips: the home island's, or another cell's (isl, its field f
 * with metres from (ox, oz)); positions in world metres. */
static void print_island_body(const GameHome *h, const Island *isl, const IslandField *f, int64_t ox, int64_t oz, FILE *out) {
    const IslandCodex *cx = h->codex;
    char name[96], id[96];
    island_site_display_name(isl, cx, isl->base, GAME_LANG, name, sizeof name);
    fprintf(out, "sites: %u (%u on the outer ring), paths: %u, base: %s (site %u)\n", isl->n_sites, isl->n_ring,
            isl->n_paths, name, isl->base);
    island_site_display_name(isl, cx, isl->farthest, GAME_LANG, name, sizeof name);
    fprintf(out, "farthest from the base: %s (site %u), round trip %u of %u minutes\n", name, isl->farthest,
            isl->round_trip_minutes, isl->daily_budget_minutes);
    fprintf(out, "  site  x_m      z_m      elev_m  type             name\n");
    double bx = (double)ox + (double)f->centre_x, bz = (double)oz + (double)f->centre_z;
    for (uint32_t i = 0; i < isl->n_sites; i++) {
        const IslandSite *site = &isl->sites[i];
        island_site_display_name(isl, cx, i, GAME_LANG, name, sizeof name);
        island_site_name_id(isl, cx, i, id, sizeof id);
        fprintf(out, "  %4u  %7.1f  %7.1f  %6.1f  %-16s %s%s\n", i, bx + site->x_m, bz + site->z_m, site->elevation_m,
                cx->types[site->type].id, name, i == isl->base ? "  (base)" : "");
    }
    fprintf(out, "airstrips: %u\n", f->n_strips);
    for (uint32_t k = 0; k < f->n_strips; k++) {
        const IslandFieldStrip *st = &f->strips[k];
        island_site_display_name(isl, cx, st->site, GAME_LANG, name, sizeof name);
        fprintf(out, "  strip %u at %s%s: %.1f, %.1f -> %.1f, %.1f, %.0f x %.0f m, %.0f m above sea level (levelled from %.1f m of relief)\n",
                k, name, st->base ? " (base)" : "", bx + st->ax, bz + st->az, bx + st->bx, bz + st->bz, st->length_m, st->width_m, st->elev_m, st->relief_m);
    }
}

bool game_island_print(const GameHome *h, World *w, double x, double z, FILE *out) {
    WorldIsland wi;
    if (!w || !world_island_at(w, x, z, &wi)) {
        fprintf(stderr, "skyisles: --start %.1f, %.1f: no island in that cell (open sky): give a point over an "
                "island, or leave out --start for the home island\n", x, z);
        return false;
    }
    const Island *isl = wi.home ? h->island : wi.island;
    if (!isl) return false;
    char name[96];
    name[0] = 0;
    if (h->archipelago) archipelago_island_name(&h->arch, wi.cell_x, wi.cell_z, GAME_LANG, name, sizeof name);
    const IslandScope *s = &h->codex->scopes[isl->scope];
    fprintf(out, "island %s: cell %lld, %lld, seed %llu, pack %s, scope %s, %u m across, top %u m, sea level %.0f m\n",
            name[0] ? name : "(unnamed)", (long long)wi.cell_x, (long long)wi.cell_z, (unsigned long long)isl->seed,
            h->pak_name, s->id, isl->diameter_m, s->elevation_top_m, (double)wi.sea);
    print_island_body(h, isl, wi.field, wi.ox, wi.oz, out);
    return true;
}

void game_home_print(const GameHome *h, const SimSpawn *spawn, FILE *out) {
    const Island *isl = h->island;
    const IslandScope *s = &h->codex->scopes[isl->scope];
    fprintf(out, "home island: seed %llu, pack %s, %zu bytes, scope %s, %u m across, top %u m\n",
            (unsigned long long)isl->seed, h->pak_name, h->pak_bytes, s->id, isl->diameter_m, s->elevation_top_m);
    print_island_body(h, isl, &h->field, 0, 0, out);
    if (spawn) {
        const SimViewSurvey *v = &spawn->view;
        fprintf(out,
                "spawn: %.1f, %.1f, %.1f heading %.0f deg, %.0f m of air below; view: home %u, other rock %u, "
                "underside %u, cloud %u, sky %u of %u rays; %s\n",
                spawn->flight.x, spawn->flight.y, spawn->flight.z, spawn->flight.yaw * 57.2957795, spawn->clearance,
                v->home, v->terrain, v->underside, v->cloud, v->sky, v->rays,
                spawn->home_in_view ? "home island in view" : "home island NOT in view");
    }
}

int game_home_site_at(const GameHome *h, double x, double z) {
    const IslandField *f = &h->field;
    /* The place is the field's type under (x, z) (the map's, the ground's): its nearest site of
     * that type names it (a border between two places is wavy, so the nearest site of all may
     * be across it). */
    uint8_t type = island_field_type_at(f, x, z);
    if (!h->island || h->island->n_sites == 0 || type == ISLAND_FIELD_OFF) return -1;
    double lx = x - f->centre_x, lz = z - f->centre_z, best = 0.0;
    int nearest = -1;
    for (uint32_t k = 0; k < h->island->n_sites; k++) {
        if (h->island->sites[k].type != type) continue;
        double dx = lx - h->island->sites[k].x_m, dz = lz - h->island->sites[k].z_m, d = dx * dx + dz * dz;
        if (nearest < 0 || d < best) {
            best = d;
            nearest = (int)k;
        }
    }
    return nearest;
}

bool game_place_line(const GameHome *h, const World *w, double x, double z, char *buf, size_t n) {
    WorldIsland wi;
    if (!w || !world_island_held(w, x, z, &wi)) return false;
    const Island *isl = wi.home ? h->island : wi.island;
    int site = archipelago_site_at(isl, wi.field, wi.ox, wi.oz, x, z);
    if (site < 0) return false;
    char place[64];
    island_site_display_name(isl, h->codex, (uint32_t)site, GAME_LANG, place, sizeof place);
    if (!h->archipelago) {
        snprintf(buf, n, "%s", place);
        return true;
    }
    char name[64];
    archipelago_island_name(&h->arch, wi.cell_x, wi.cell_z, GAME_LANG, name, sizeof name);
    snprintf(buf, n, text_get(TEXT_HUD_PLACE_ISLAND), place, name);
    return true;
}

/* An island with no strip lands at its base camp (isl's, on field f whose metres count from (ox, oz)). */
static GameStrip base_place(const Island *isl, const IslandField *f, int64_t ox, int64_t oz) {
    const IslandSite *base = &isl->sites[isl->base];
    return (GameStrip){.x = (double)ox + ((double)f->centre_x + (double)base->x_m),
                       .z = (double)oz + ((double)f->centre_z + (double)base->z_m)};
}

/* Strip s as a landing place: the middle of its run. */
static GameStrip strip_place(const WorldStrip *s) {
    return (GameStrip){.x = 0.5 * (s->ax + s->bx), .z = 0.5 * (s->az + s->bz), .heading = s->yaw, .length = s->length_m, .y = s->y};
}

int game_island_strips(const GameHome *h, const WorldIsland *wi, GameStrip *out, int max) {
    int n = 0;
    WorldStrip s;
    for (uint32_t i = 0; wi->field && i < wi->field->n_strips && n < max; i++)
        if (world_island_strip(wi, i, &s)) out[n++] = strip_place(&s);
    const Island *isl = wi->home ? h->island : wi->island;
    if (n > 0 || !isl || isl->n_sites == 0 || !wi->field || max < 1) return n;
    out[0] = base_place(isl, wi->field, wi->ox, wi->oz);
    return 1;
}

bool game_near_update(GameHome *h, const World *w, double x, double z) {
    GameNear *nr = &h->near;
    WorldIsland isl[WORLD_NEAR_ISLANDS] = {{0}};
    if (!w) return false;
    uint32_t n = world_islands_near(w, x, z, isl, WORLD_NEAR_ISLANDS);
    const WorldGenParams *gen = &world_params(w)->gen;
    if (nr->ready && world_islands_same(nr->island, nr->n_islands, isl, n) && !memcmp(&nr->gen, gen, sizeof nr->gen))
        return false;
    nr->ready = true;
    memcpy(&nr->gen, gen, sizeof nr->gen);
    nr->n_islands = n;
    nr->n_strips = 0;
    for (uint32_t i = 0; i < n; i++) {
        nr->island[i] = isl[i];
        nr->n_strips += (uint32_t)game_island_strips(h, &isl[i], &nr->strip[nr->n_strips], (int)(GAME_NEAR_STRIPS - nr->n_strips));
    }
    nr->changes++;
    return true;
}

bool game_near_strip(const GameHome *h, double x, double z, GameStrip *out) {
    const GameNear *nr = &h->near;
    int best = -1;
    double best_d2 = 0.0;
    for (uint32_t i = 0; i < nr->n_strips; i++) {
        double dx = nr->strip[i].x - x, dz = nr->strip[i].z - z, d2 = dx * dx + dz * dz;
        if (best < 0 || d2 < best_d2) best = (int)i, best_d2 = d2;
    }
    if (best < 0) return false;
    *out = nr->strip[best];
    return true;
}

/* Every approach light of a strip within this of the first strip's threshold on each axis: the
 * renderer's reach (render_strips_set: 2 km) with the lights' few metres beside the ends to spare. */
#define LIT_SPAN_M 1900.0

static bool within_span(const WorldStrip *s, double ox, double oz) {
    return fabs(s->ax - ox) < LIT_SPAN_M && fabs(s->az - oz) < LIT_SPAN_M && fabs(s->bx - ox) < LIT_SPAN_M &&
           fabs(s->bz - oz) < LIT_SPAN_M;
}

uint32_t game_near_lit_strips(const GameHome *h, WorldStrip *out, uint32_t max) {
    const GameNear *nr = &h->near;
    uint32_t n = 0;
    for (uint32_t i = 0; i < nr->n_islands && n < max; i++)
        for (uint32_t k = 0; k < nr->island[i].field->n_strips && n < max; k++)
            if (world_island_strip(&nr->island[i], k, &out[n]) && within_span(&out[n], out[0].ax, out[0].az)) n++;
    return n;
}

int game_home_strips(const GameHome *h, const World *w, GameStrip *out, int max) {
    int n = 0;
    WorldStrip s;
    for (uint32_t i = 0; w && i < world_strip_count(w) && n < max; i++)
        if (world_strip(w, i, &s)) out[n++] = strip_place(&s);
    if (n > 0 || !h->island || h->island->n_sites == 0 || max < 1) return n;
    out[0] = base_place(h->island, &h->field, 0, 0);
    return 1;
}
