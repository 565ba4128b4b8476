/* skyisles island: the default pack linked into the binary by pak_embed.S (mk/island.mk).
 * Weak references: a program linked without the embed object gets NULL and says so. */
#include "island/island.h"

extern const unsigned char skyisles_pak_data[] __attribute__((weak));
extern const unsigned char skyisles_pak_end[] __attribute__((weak));

const void *island_pak_default(size_t *len) {
    if (!skyisles_pak_data || !skyisles_pak_end) {
        if (len) *len = 0;
        return NULL;
    }
    if (len) *len = (size_t)(skyisles_pak_end - skyisles_pak_data);
    return skyisles_pak_data;
}
