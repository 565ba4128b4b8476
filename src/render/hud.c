/* skyisles HUD layer: the frame's stage for text and menus, drawn over the finished scene in
 * PSX pixels, before the upscale. Nothing is queued yet, so it draws nothing; text goes here. */
#include <string.h>

#include "render_internal.h"

bool hud_init(HudLayer *h, MemArena *scratch, SkyError *err) {
    (void)scratch;
    (void)err;
    memset(h, 0, sizeof *h);
    return true;
}

/* What a HUD draw owes the frame: into the bound target at f->target_w x f->target_h (the
 * low-res pixels, so text is upscaled with the scene), depth test off, blended, through
 * psx_set_uniforms so its colours land on the same 15-bit grid, counted as RENDER_STAGE_HUD.
 * With nothing queued it makes no GL call, so an empty HUD leaves the frame as it was. */
void hud_draw(HudLayer *h, const RenderFrame *f, RenderCounters *rc) {
    (void)f;
    (void)rc;
    if (h->quads == 0) return;
}

void hud_free(HudLayer *h) { memset(h, 0, sizeof *h); }
