/* skyisles controller mappings as text: splitting SDL_GAMECONTROLLERCONFIG into lines and
 * choosing the database's line for a controller by vendor and product. Pure string work on
 * fixed buffers, fuzzed (tests/fuzz/pad_db.c). */
#include "pad_db.h"

#include <stdio.h>
#include <string.h>

const char *pad_db_next_line(const char *s, char *line, size_t cap) {
    size_t n = strcspn(s, "\n");
    const char *next = s[n] ? s + n + 1 : s + n;
    size_t len = n;
    if (len > 0 && s[len - 1] == '\r') len--;
    if (cap == 0) return next;
    if (len == 0 || len >= cap) {
        line[0] = 0;
        return next;
    }
    memcpy(line, s, len);
    line[len] = 0;
    return next;
}

static bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

/* A mapping line starts with 32 hex digits and a comma. */
static bool mapping_line(const char *line) {
    for (int i = 0; i < 32; i++)
        if (!is_hex(line[i])) return false;
    return line[32] == ',';
}

void pad_db_consider(const char *line, uint16_t vendor, uint16_t product, const char *name, char *best,
                     bool *best_named) {
    /* The line as kept: up to its end ('\r' or '\n'); the platform must be inside that. */
    size_t len = strcspn(line, "\r\n");
    const char *linux_tag = strstr(line, "platform:Linux");
    if (!mapping_line(line) || !linux_tag || linux_tag + 14 > line + len) return;
    char want_v[5], want_p[5];
    snprintf(want_v, sizeof want_v, "%02x%02x", vendor & 0xff, vendor >> 8);
    snprintf(want_p, sizeof want_p, "%02x%02x", product & 0xff, product >> 8);
    /* The GUID's bytes 4-5 hold the vendor and 8-9 the product, little-endian. */
    if (strncmp(line + 8, want_v, 4) != 0 || strncmp(line + 16, want_p, 4) != 0) return;
    size_t nl = strcspn(line + 33, ",");
    bool same_name = name && strlen(name) == nl && !strncmp(line + 33, name, nl);
    if (best[0] && (*best_named || !same_name)) return;
    if (len >= PAD_DB_LINE_MAX) return;
    memcpy(best, line, len);
    best[len] = 0;
    *best_named = same_name;
}

bool pad_db_remap(const char *line, const char *guid, char *out, size_t n) {
    if (!mapping_line(line) || strlen(guid) != 32) return false;
    int k = snprintf(out, n, "%s%s", guid, line + 32);
    return k > 0 && (size_t)k < n;
}

void pad_db_line_name(const char *line, char *out, size_t n) {
    if (n == 0) return;
    out[0] = 0;
    if (!mapping_line(line)) return;
    size_t nl = strcspn(line + 33, ",");
    snprintf(out, n, "%.*s", (int)(nl < 255 ? nl : 255), line + 33);
}
