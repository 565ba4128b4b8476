/* Fuzz target settings: the game's settings file reader on arbitrary text. Whatever it reads,
 * the game must get settings in range, at most one warning line, and a file it writes back must
 * read again to the same settings (no value that cannot be saved). */
#include <string.h>

#include "common/fuzz.h"
#include "game/settings.h"

static void check_ranges(const GameSettings *s) {
    FUZZ_CHECK(s->render.live.lines == 0 || (s->render.live.lines >= 64 && s->render.live.lines <= 480), "lines %d", s->render.live.lines);
    FUZZ_CHECK(s->render.live.fov_y_deg >= 40.0f && s->render.live.fov_y_deg <= 110.0f, "fov %g", (double)s->render.live.fov_y_deg);
    FUZZ_CHECK(s->speed_limit >= 40.0f && s->speed_limit <= 5000.0f, "speed limit %g", (double)s->speed_limit);
    FUZZ_CHECK(s->input.dead_zone >= 0.0f && s->input.dead_zone <= 0.5f, "dead zone %g", (double)s->input.dead_zone);
    FUZZ_CHECK(s->input.curve >= 1.0f && s->input.curve <= 3.0f, "curve %g", (double)s->input.curve);
    FUZZ_CHECK(s->input.bind_count <= INPUT_MAX_BINDS, "%u bindings", s->input.bind_count);
    for (uint32_t i = 0; i < s->input.bind_count; i++) {
        const InputBind *b = &s->input.binds[i];
        FUZZ_CHECK(b->action < GA_COUNT && b->kind >= BIND_KEY && b->kind <= BIND_PAD_AXIS, "binding %u", i);
    }
    FUZZ_CHECK(s->quality < GAME_QUALITY_COUNT && (s->camera == GAME_CAMERA_CHASE || s->camera == GAME_CAMERA_COCKPIT),
               "quality %d camera %d", s->quality, s->camera);
    for (size_t i = 0; i < world_param_count(); i++) {
        const WorldParamDesc *d = world_param_at(i);
        if (d->type == WORLD_PT_U64) continue;
        double v = world_param_get(&s->world, d);
        FUZZ_CHECK(v >= d->min && v <= d->max, "world %s = %g outside %g..%g", d->name, v, d->min, d->max);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static GameSettings s, again;
    static char text[64 << 10], text2[64 << 10];
    char warning[320];
    settings_default(&s);
    settings_parse(&s, (const char *)data, size, "settings.yaml", warning, sizeof warning);
    FUZZ_CHECK(!strchr(warning, '\n'), "a warning of more than one line: %s", warning);
    FUZZ_CHECK(!warning[0] || !strncmp(warning, "skyisles: settings", 18), "warning: %s", warning);
    check_ranges(&s);
    /* What it writes reads back to itself, without a warning. */
    size_t len = settings_format(&s, text, sizeof text);
    FUZZ_CHECK(len < sizeof text, "%zu bytes of settings", len);
    settings_default(&again);
    settings_parse(&again, text, len, "settings.yaml", warning, sizeof warning);
    FUZZ_CHECK(!warning[0], "the written settings do not read back: %s", warning);
    size_t len2 = settings_format(&again, text2, sizeof text2);
    FUZZ_CHECK(len2 == len && !memcmp(text, text2, len), "the settings changed on the way back");
    return 0;
}
