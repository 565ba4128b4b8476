/* skyisles Continue: the saved spot of a seed's last flight, its file and its restore. */
#include "continue.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "game.h"
#include "savefile.h"

#define RAD_TO_DEG 57.29577951308232

static void file_name(uint64_t seed, char *buf, size_t n) { snprintf(buf, n, "continue-%" PRIu64 ".txt", seed); }

size_t continue_format(const ContinueSpot *s, char *buf, size_t n) {
    int k = snprintf(buf, n,
                     "# skyisles: where the last flight of this seed left off (written at quit and every %.0f s)\n"
                     "seed: %" PRIu64 "\nposition: %.17g, %.17g, %.17g\nheading_deg: %.4f\npitch_deg: %.4f\n"
                     "roll_deg: %.4f\nspeed: %.3f\nthrottle: %.4f\ncamera: %s\nmode: %s\n",
                     (double)CONTINUE_SAVE_SECONDS, s->seed, s->x, s->y, s->z, s->yaw * RAD_TO_DEG,
                     s->pitch * RAD_TO_DEG, s->roll * RAD_TO_DEG, (double)s->speed, (double)s->throttle,
                     s->camera == 1 ? "cockpit" : "chase", s->mode[0] ? s->mode : "free");
    return k < 0 ? 0 : (size_t)k;
}

/* Nothing but blanks from end on (a number followed by junk is no value). */
static bool rest_blank(const char *end) {
    while (*end == ' ' || *end == '\t' || *end == '\r') end++;
    return *end == 0;
}

/* One "key: value" line; every key must come once for the spot to count. */
static unsigned parse_line(const char *line, ContinueSpot *s, double deg[3]) {
    double a, b, c;
    char word[16];
    int n = -1;
    if (sscanf(line, "seed: %" SCNu64 "%n", &s->seed, &n) == 1 && rest_blank(line + n)) return 1u << 0;
    if (sscanf(line, "position: %lf, %lf, %lf%n", &a, &b, &c, &n) == 3 && rest_blank(line + n)) {
        s->x = a, s->y = b, s->z = c;
        return 1u << 1;
    }
    static const char *const angles[3] = {"heading_deg: %lf%n", "pitch_deg: %lf%n", "roll_deg: %lf%n"};
    float *const angle_of[3] = {&s->yaw, &s->pitch, &s->roll};
    for (int i = 0; i < 3; i++)
        if (sscanf(line, angles[i], &a, &n) == 1 && rest_blank(line + n)) {
            deg[i] = a;
            *angle_of[i] = (float)(a / RAD_TO_DEG);
            return 1u << (2 + i);
        }
    if (sscanf(line, "speed: %lf%n", &a, &n) == 1 && rest_blank(line + n)) { s->speed = (float)a; return 1u << 5; }
    if (sscanf(line, "throttle: %lf%n", &a, &n) == 1 && rest_blank(line + n)) { s->throttle = (float)a; return 1u << 6; }
    if (sscanf(line, "camera: %15s", word) == 1) { s->camera = !strcmp(word, "cockpit"); return 1u << 7; }
    if (sscanf(line, "mode: %15s", word) == 1) {
        snprintf(s->mode, sizeof s->mode, "%s", word);
        return 1u << 8;
    }
    return 0;
}

/* Every value a flight can have: finite, the place within the game's reach (GAME_POS_MAX), the
 * angles within +-1e5 degrees, the speed 0..CONTINUE_SPEED_MAX, the throttle 0..1 (NaN fails
 * every comparison). */
static bool spot_sane(const ContinueSpot *s, const double deg[3]) {
    bool ok = s->x >= -GAME_POS_MAX && s->x <= GAME_POS_MAX && s->y >= -GAME_POS_MAX && s->y <= GAME_POS_MAX &&
              s->z >= -GAME_POS_MAX && s->z <= GAME_POS_MAX;
    for (int i = 0; i < 3; i++) ok = ok && deg[i] >= -1e5 && deg[i] <= 1e5;
    return ok && s->speed >= 0.0f && s->speed <= CONTINUE_SPEED_MAX && s->throttle >= 0.0f && s->throttle <= 1.0f;
}

bool continue_parse(const char *text, ContinueSpot *out) {
    ContinueSpot s;
    memset(&s, 0, sizeof s);
    double deg[3] = {0.0, 0.0, 0.0};   /* heading, pitch, roll as written */
    unsigned seen = 0;
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        char line[160];
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len >= sizeof line) len = sizeof line - 1;
        memcpy(line, p, len);
        line[len] = 0;
        if (line[0] != '#') seen |= parse_line(line, &s, deg);
        p = nl ? nl + 1 : NULL;
    }
    if (seen != 0x1ffu || !spot_sane(&s, deg)) return false;
    *out = s;
    return true;
}

void continue_init(GameContinue *c, const char *dir, uint64_t seed, bool enabled) {
    memset(c, 0, sizeof *c);
    c->seed = seed;
    c->enabled = enabled && dir && dir[0];
    if (!c->enabled) return;
    snprintf(c->dir, sizeof c->dir, "%s", dir);
    char name[64], path[640];
    file_name(seed, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char text[1024];
    FILE *f = fopen(path, "r");
    if (!f) return;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    if (continue_parse(text, &c->spot) && c->spot.seed == seed) c->have = true;
    else log_warn("skyisles: %s is not a saved flight: the title starts a new one (delete the file to be rid of it)", path);
}

bool continue_save(GameContinue *c, const FlightState *f, int camera, const char *mode) {
    if (!c->enabled) return false;
    ContinueSpot s = {.seed = c->seed, .x = f->x, .y = f->y, .z = f->z, .yaw = f->yaw, .pitch = f->pitch,
                      .roll = f->roll, .speed = f->speed, .throttle = f->throttle, .camera = camera};
    snprintf(s.mode, sizeof s.mode, "%s", mode && mode[0] ? mode : "free");
    char text[1024], name[64];
    size_t len = continue_format(&s, text, sizeof text);
    file_name(c->seed, name, sizeof name);
    SkyError err = {0};
    c->since_save = 0.0f;
    if (!save_file_atomic(c->dir, name, text, len, "the flight to continue", &err)) {
        log_warn("%s", err.msg);
        return false;
    }
    c->spot = s;
    c->have = true;
    c->writes++;
    return true;
}

void continue_tick(GameContinue *c, const FlightState *f, int camera, bool flying, float dt) {
    if (!c->enabled || !flying) return;
    c->since_save += dt;
    if (c->since_save >= CONTINUE_SAVE_SECONDS) continue_save(c, f, camera, "free");
}

bool continue_restore(const GameContinue *c, const World *w, const FlightState *fallback, FlightState *f, int *camera,
                      bool *moved) {
    *moved = false;
    if (!c->have) return false;
    const ContinueSpot *s = &c->spot;
    double t = f->time_s;
    FlightState n = *f;
    /* A height outside the world's layer (a hand-edited file) is the nearest height in it, as a
     * Fly to's is. */
    double y = world_height_clamp(s->y);
    flight_init(&n, s->x, y, s->z, s->yaw, s->speed);
    n.throttle = s->throttle;
    n.time_s = t;
    if (sim_clear_box(w, s->x, y, s->z, SIM_RESPAWN_CLEARANCE)) {
        n.pitch = s->pitch;
        n.roll = s->roll;
    } else {
        *moved = true;
        if (!sim_respawn_near(w, s->x, y, s->z, s->yaw, &n)) {
            n = *fallback;
            n.time_s = t;
        }
    }
    n.cruise_y = n.y;
    *f = n;
    *camera = s->camera;
    return true;
}

/* ---------------------------------------------------------------- the game's side */

void game_continue_boot(GameConfig *cfg, GameContinue *cont, const World *w) {
    const GameOptions *o = &cfg->opt;
    bool keep = o->use_settings && o->config_dir[0];
    char why[640];
    if (keep && !save_dir_writable(o->config_dir, why, sizeof why)) {
        cfg->config_read_only = true;
        log_warn("skyisles: cannot save settings, Continue or screenshots: %s (the settings there are used; "
                 "docs/pi.md: a read-only root)", why);
    }
    bool interactive = !o->screenshot && !o->bench_frames && !o->print_island;
    continue_init(cont, o->config_dir, world_params(w)->gen.seed, keep && interactive && !cfg->config_read_only);
    if (o->start_set) cont->have = false;   /* --start is a new flight there: no Continue offered (quit saves it) */
}

bool game_continue_flight(GameSession *ses, GameSettings *set, const World *w, const SimSpawn *spawn) {
    bool moved;
    int camera = set->camera;
    if (!continue_restore(&ses->cont, w, &spawn->flight, &ses->flight, &camera, &moved)) return false;
    bool camera_changed = camera != (int)set->camera;
    set->camera = camera ? GAME_CAMERA_COCKPIT : GAME_CAMERA_CHASE;
    Play *p = &ses->play;
    play_set_safe(p, &ses->flight);
    ses->rig.settled = false;
    camera_rig_update(&ses->rig, &ses->flight, 0.0f, &ses->camera);
    if (moved) {
        play_message(p, 5.0f, "%s", text_get(TEXT_MSG_SPOT_ROCK));
        log_info("skyisles: the saved spot %.0f, %.0f, %.0f is rock now: continuing at %.0f, %.0f, %.0f", ses->cont.spot.x,
                 ses->cont.spot.y, ses->cont.spot.z, ses->flight.x, ses->flight.y, ses->flight.z);
    } else {
        play_message(p, 3.0f, "%s", text_get(TEXT_MSG_CONTINUING));
    }
    return camera_changed;
}

void game_continue_quit(GameSession *ses, const GameConfig *cfg) {
    /* Only a flight the player flew (not the title's, an attract loop's or --autopilot's). */
    if (ses->play.flight_s > 0.0 && !cfg->opt.autopilot && ses->play.state != PLAY_START)
        continue_save(&ses->cont, &ses->flight, cfg->set.camera, "free");
}
