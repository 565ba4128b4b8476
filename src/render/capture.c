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

/* ---------------------------------------------------------------- PNG in place, no heap */
/* The game's own screenshots: an RGB PNG whose zlib stream holds stored (uncompressed) deflate
 * blocks, written over the RGBA pixels it encodes in the same buffer (the output stays behind
 * the input: 3 bytes a pixel against 4). CRC-32 and Adler-32 as PNG and zlib define them. */
static uint32_t g_crc_table[256];

static void crc_table_init(void) {
    if (g_crc_table[1]) return;
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = c & 1u ? 0xedb88320u ^ (c >> 1) : c >> 1;
        g_crc_table[n] = c;
    }
}

typedef struct PngOut {
    uint8_t *p;
    size_t n;
    uint32_t crc;       /* running, over the chunk's type and data */
    uint32_t a1, a2;    /* Adler-32 of the raw scanlines */
    size_t block_left;  /* bytes left in the current stored block */
    size_t raw_left;
} PngOut;

static void put_byte(PngOut *o, uint8_t b) {
    o->p[o->n++] = b;
    o->crc = g_crc_table[(o->crc ^ b) & 0xffu] ^ (o->crc >> 8);
}

static void put_be32(PngOut *o, uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) put_byte(o, (uint8_t)(v >> s));
}

static void begin_chunk(PngOut *o, const char *type, uint32_t len) {
    for (int s = 24; s >= 0; s -= 8) o->p[o->n++] = (uint8_t)(len >> s);   /* the length is outside the CRC */
    o->crc = 0xffffffffu;
    for (int i = 0; i < 4; i++) put_byte(o, (uint8_t)type[i]);
}

static void end_chunk(PngOut *o) { put_be32(o, o->crc ^ 0xffffffffu); }

/* One byte of the raw scanlines: a stored block's header first when one begins. */
static void put_raw(PngOut *o, uint8_t b) {
    if (o->block_left == 0) {
        size_t len = o->raw_left < 65535 ? o->raw_left : 65535;
        put_byte(o, len == o->raw_left ? 1 : 0);   /* BFINAL on the last block, BTYPE 00: stored */
        put_byte(o, (uint8_t)len);
        put_byte(o, (uint8_t)(len >> 8));
        put_byte(o, (uint8_t)~len);
        put_byte(o, (uint8_t)(~len >> 8));
        o->block_left = len;
    }
    put_byte(o, b);
    o->block_left--;
    o->raw_left--;
    o->a1 = (o->a1 + b) % 65521u;
    o->a2 = (o->a2 + o->a1) % 65521u;
}

size_t render_png_input_offset(int w, int h) {
    size_t raw = (size_t)h * ((size_t)w * 3 + 1);
    size_t off = 64 + 5 * (raw / 65535 + 2);
    return (off + 4095) & ~(size_t)4095;
}

size_t render_png_buffer_bytes(int w, int h) { return render_png_input_offset(w, h) + (size_t)w * (size_t)h * 4; }

size_t render_png_encode(uint8_t *buf, size_t cap, int w, int h) {
    if (w <= 0 || h <= 0 || cap < render_png_buffer_bytes(w, h)) return 0;
    crc_table_init();
    const uint8_t *in = buf + render_png_input_offset(w, h);
    size_t raw = (size_t)h * ((size_t)w * 3 + 1);
    size_t blocks = raw / 65535 + (raw % 65535 ? 1 : 0);
    size_t zlen = 2 + raw + 5 * blocks + 4;
    if (zlen > 0x7fffffffu) return 0;
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    PngOut o = {.p = buf, .a1 = 1, .raw_left = raw};
    memcpy(o.p, sig, 8);
    o.n = 8;
    begin_chunk(&o, "IHDR", 13);
    put_be32(&o, (uint32_t)w);
    put_be32(&o, (uint32_t)h);
    static const uint8_t ihdr_tail[5] = {8, 2, 0, 0, 0};   /* 8 bits, RGB, deflate, no filter, no interlace */
    for (int i = 0; i < 5; i++) put_byte(&o, ihdr_tail[i]);
    end_chunk(&o);
    begin_chunk(&o, "IDAT", (uint32_t)zlen);
    put_byte(&o, 0x78);
    put_byte(&o, 0x01);
    for (int y = 0; y < h; y++) {
        put_raw(&o, 0);   /* filter: none */
        const uint8_t *row = in + (size_t)y * (size_t)w * 4;
        for (int x = 0; x < w; x++) {
            uint8_t r = row[4 * x], g = row[4 * x + 1], b = row[4 * x + 2];   /* read before the output reaches it */
            put_raw(&o, r);
            put_raw(&o, g);
            put_raw(&o, b);
        }
    }
    put_be32(&o, (o.a2 << 16) | o.a1);
    end_chunk(&o);
    begin_chunk(&o, "IEND", 0);
    end_chunk(&o);
    return o.n;
}
