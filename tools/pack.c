/* skyisles tool: packs the codex YAML (assets/codex, one file or many) into the binary pack the game embeds,
 * or checks an existing pack. Errors are one "file:line:column: message" line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codex/codex_yaml.h"

static int usage(void) {
    fprintf(stderr,
            "usage: pack -o OUT.pak FILE.yaml...   validate the codex YAML and write a pack\n"
            "       pack --check FILE.pak          validate a pack (or --check default: the embedded one)\n");
    return 2;
}

static int check(const char *path) {
    static IslandCodex cx;
    SkyError err = {0};
    uint8_t *buf = NULL;
    size_t len = 0;
    const void *data;
    if (!strcmp(path, "default")) {
        data = island_pak_default(&len);
    } else {
        buf = file_read_all(path, ISLAND_PAK_MAX_BYTES, &len, &err);
        if (!buf) {
            fprintf(stderr, "pack: %s\n", err.msg);
            return 1;
        }
        data = buf;
    }
    bool ok = island_pak_load(&cx, data, len, &err);
    if (ok)
        printf("%s: pack version %u, %zu bytes, checksum %016llx: %u axes, %u location types, %u variants, "
               "%u scopes, %u texts, %u cargo\n",
               path, cx.version, len, (unsigned long long)cx.checksum, cx.n_axes, cx.n_types, cx.n_variants,
               cx.n_scopes, cx.n_texts, cx.n_cargo);
    else
        fprintf(stderr, "%s: %s\n", path, err.msg);
    free(buf);
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    const char *out = NULL;
    const char *files[64];
    size_t n = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--check") && i + 1 < argc) return check(argv[i + 1]);
        else if (argv[i][0] == '-') return usage();
        else if (n < 64) files[n++] = argv[i];
        else {
            fprintf(stderr, "pack: more than 64 input files\n");
            return 2;
        }
    }
    if (!out || n == 0) return usage();

    SkyError err = {0};
    CodexYaml *cy = codex_yaml_new();
    if (!cy) {
        fprintf(stderr, "pack: out of memory\n");
        return 1;
    }
    if (!codex_yaml_load(cy, files, n, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        codex_yaml_free(cy);
        return 1;
    }
    const IslandCodex *cx = codex_yaml_codex(cy);
    size_t len = island_pak_write(cx, NULL, 0, &err);
    uint8_t *buf = len ? malloc(len) : NULL;
    if (!buf || island_pak_write(cx, buf, len, &err) != len) {
        fprintf(stderr, "pack: %s\n", err.code ? err.msg : "out of memory");
        free(buf);
        codex_yaml_free(cy);
        return 1;
    }
    /* The loader is the judge: a pack it would refuse is never written. */
    static IslandCodex back;
    if (!island_pak_load(&back, buf, len, &err)) {
        fprintf(stderr, "pack: the written pack does not load back: %s\n", err.msg);
        free(buf);
        codex_yaml_free(cy);
        return 1;
    }
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(buf, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = false;
    if (ok && rename(tmp, out) != 0) ok = false;
    if (!ok) {
        fprintf(stderr, "pack: cannot write %s: %s\n", out, strerror(errno));
        remove(tmp);
    }
    free(buf);
    codex_yaml_free(cy);
    return ok ? 0 : 1;
}
