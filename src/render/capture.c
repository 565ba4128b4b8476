/* skyisles frame capture: reads the framebuffer back (top row first) and writes PNG files
 * for screenshots, tests and reference images. */
#include <string.h>

#include "render_internal.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

bool render_read_pixels(int w, int h, uint8_t *rgba) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    /* GL rows start at the bottom; images start at the top. */
    size_t row = (size_t)w * 4;
    for (int y = 0; y < h / 2; y++) {
        uint8_t *a = rgba + (size_t)y * row, *b = rgba + (size_t)(h - 1 - y) * row;
        for (size_t i = 0; i < row; i++) {
            uint8_t t = a[i];
            a[i] = b[i];
            b[i] = t;
        }
    }
    return gl_errors("read pixels") == 0;
}

bool render_write_png(const char *path, int w, int h, const uint8_t *rgba, SkyError *err) {
    if (!stbi_write_png(path, w, h, 4, rgba, w * 4)) {
        sky_error_set(err, SKY_ERR_START, "render: cannot write %s (check the folder exists and is writable)", path);
        return false;
    }
    return true;
}
