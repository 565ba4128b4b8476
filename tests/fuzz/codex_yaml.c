/* Fuzz target codex_yaml: the packer's YAML front end on arbitrary text. The input is one or
 * more files, separated by lines "#file" (a YAML comment, so each part stays a valid file);
 * a codex it accepts is packed and loaded back, which must give the same codex and the same
 * bytes again, and must generate. A refusal must be one "name:line:column: message" line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codex/codex_yaml.h"
#include "common/fuzz.h"

#define MAX_PARTS 8
static const char SEPARATOR[] = "\n#file\n";

static void check_refusal(const SkyError *err, const CodexSource *src, size_t n) {
    fuzz_check_error(err, "codex_yaml_load");
    if (err->code != SKY_ERR_SOURCE) return;
    /* A source defect names the file and a position in it. */
    for (size_t i = 0; i < n; i++) {
        size_t k = strlen(src[i].name);
        unsigned line, col;
        char colon;
        if (!strncmp(err->msg, src[i].name, k) && sscanf(err->msg + k, ":%u:%u%c", &line, &col, &colon) == 3 &&
            colon == ':' && line >= 1 && col >= 1)
            return;
    }
    FUZZ_CHECK(0, "the message does not start with file:line:column: %s", err->msg);
}

static void pack_round_trip(const IslandCodex *cx) {
    static IslandCodex back;
    SkyError err = {0};
    size_t len = island_pak_write(cx, NULL, 0, &err);
    FUZZ_CHECK(len > 0, "the writer refuses an accepted codex: %s", err.msg);
    uint8_t *a = malloc(len), *b = malloc(len);
    FUZZ_CHECK(a && b, "no memory for %zu bytes", len);
    FUZZ_CHECK(island_pak_write(cx, a, len, &err) == len, "the writer changed its size: %s", err.msg);
    /* tools/pack writes only what the loader accepts: a codex the front end accepts must be one. */
    FUZZ_CHECK(island_pak_load(&back, a, len, &err), "the front end accepted a codex whose pack does not load: %s",
               err.msg);
    fuzz_check_same_codex(cx, &back);
    FUZZ_CHECK(island_pak_write(&back, b, len, &err) == len && !memcmp(a, b, len), "packing the loaded codex gives other bytes");
    fuzz_island_exercise(&back);
    free(a);
    free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char names[MAX_PARTS][16];
    CodexSource src[MAX_PARTS];
    size_t n = 0;
    const char *text = (const char *)data, *end = text + size;
    while (n < MAX_PARTS) {
        const char *cut = NULL;
        if (n + 1 < MAX_PARTS)
            for (const char *p = text; p + sizeof SEPARATOR - 1 <= end && !cut; p++)
                if (!memcmp(p, SEPARATOR, sizeof SEPARATOR - 1)) cut = p;
        snprintf(names[n], sizeof names[n], "fuzz%zu.yaml", n);
        src[n] = (CodexSource){names[n], text, (size_t)((cut ? cut : end) - text)};
        n++;
        if (!cut) break;
        text = cut + sizeof SEPARATOR - 1;
    }
    CodexYaml *cy = codex_yaml_new();
    if (!cy) return 0;
    SkyError err = {0};
    if (codex_yaml_load_sources(cy, src, n, &err)) pack_round_trip(codex_yaml_codex(cy));
    else check_refusal(&err, src, n);
    codex_yaml_free(cy);
    return 0;
}
