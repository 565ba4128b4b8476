/* skyisles build-time packer (host program): embeds shaders_es2/ sources as C strings and packs
 * the aircraft model text (assets/models/) into flat-shaded triangles, validating both.
 * usage: render_pack OUT.c MODEL.txt SHADER...   (exit 1 with FILE:LINE: message on bad input) */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLOURS 32
#define MAX_GROUP_VERTS 64
#define MAX_GROUP_FACES 64
#define MAX_OUT_VERTS 6000

typedef struct Colour { char name[32]; float rgb[3]; } Colour;
typedef struct Face { int colour; int n; int idx[4]; int line; } Face;
typedef struct OutVert { double p[3]; double n[3]; int part; int colour; } OutVert;

static const char *g_file;
static Colour g_colours[MAX_COLOURS];
static int g_colour_count;
static OutVert g_out[MAX_OUT_VERTS];
static int g_out_count;
static double g_pivot[3];
static int g_has_pivot;

static void fail(int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s:%d: ", g_file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void sub(const double *a, const double *b, double *o) { for (int i = 0; i < 3; i++) o[i] = a[i] - b[i]; }
static void cross(const double *a, const double *b, double *o) {
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}
static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void emit_tri(const double *a, const double *b, const double *c, int part, int colour, int line) {
    double e1[3], e2[3], n[3];
    sub(b, a, e1);
    sub(c, a, e2);
    cross(e1, e2, n);
    double len = sqrt(dot(n, n));
    if (len < 1e-9) fail(line, "degenerate triangle");
    for (int i = 0; i < 3; i++) n[i] /= len;
    if (g_out_count + 3 > MAX_OUT_VERTS) fail(line, "more than %d vertices", MAX_OUT_VERTS);
    const double *p[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        OutVert *v = &g_out[g_out_count++];
        memcpy(v->p, p[k], sizeof v->p);
        memcpy(v->n, n, sizeof v->n);
        v->part = part;
        v->colour = colour;
    }
}

/* Emits a group's faces: turned outwards from the group centre unless double-sided. */
static void emit_group(double (*v)[3], int nv, Face *f, int nf, int part, int twosided, int mirror) {
    for (int m = 0; m <= mirror; m++) {
        double pv[MAX_GROUP_VERTS][3], centre[3] = {0, 0, 0};
        for (int i = 0; i < nv; i++) {
            pv[i][0] = m ? -v[i][0] : v[i][0];
            pv[i][1] = v[i][1];
            pv[i][2] = v[i][2];
            for (int a = 0; a < 3; a++) centre[a] += pv[i][a] / nv;
        }
        for (int i = 0; i < nf; i++) {
            const double *q[4];
            double fc[3] = {0, 0, 0};
            for (int k = 0; k < f[i].n; k++) {
                q[k] = pv[f[i].idx[k]];
                for (int a = 0; a < 3; a++) fc[a] += q[k][a] / f[i].n;
            }
            double e1[3], e2[3], n[3], out[3];
            sub(q[1], q[0], e1);
            sub(q[2], q[0], e2);
            cross(e1, e2, n);
            sub(fc, centre, out);
            int flip = !twosided && dot(n, out) < 0;
            for (int side = 0; side <= twosided; side++) {
                int rev = flip ^ side;
                for (int t = 0; t + 2 < f[i].n; t++) {
                    const double *a = q[0], *b = q[t + 1], *c = q[t + 2];
                    if (rev) emit_tri(a, c, b, part, f[i].colour, f[i].line);
                    else emit_tri(a, b, c, part, f[i].colour, f[i].line);
                }
            }
        }
    }
}

static int find_colour(const char *name) {
    for (int i = 0; i < g_colour_count; i++)
        if (strcmp(g_colours[i].name, name) == 0) return i;
    return -1;
}

static void parse_model(const char *path) {
    g_file = path;
    FILE *in = fopen(path, "r");
    if (!in) { fprintf(stderr, "render_pack: cannot open model %s\n", path); exit(1); }
    char line[256];
    int lineno = 0, in_group = 0, part = 0, twosided = 0, mirror = 0, nv = 0, nf = 0, groups = 0;
    int has_model = 0;
    double verts[MAX_GROUP_VERTS][3];
    Face faces[MAX_GROUP_FACES];
    while (fgets(line, sizeof line, in)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char *tok[8];
        int nt = 0;
        for (char *s = strtok(line, " \t\r\n"); s && nt < 8; s = strtok(NULL, " \t\r\n")) tok[nt++] = s;
        if (nt == 0) continue;
        if (strcmp(tok[0], "model") == 0 && nt == 2) {
            has_model = 1;
        } else if (strcmp(tok[0], "colour") == 0 && nt == 5) {
            if (g_colour_count == MAX_COLOURS) fail(lineno, "too many colours");
            if (find_colour(tok[1]) >= 0) fail(lineno, "colour %s defined twice", tok[1]);
            Colour *c = &g_colours[g_colour_count++];
            snprintf(c->name, sizeof c->name, "%s", tok[1]);
            for (int i = 0; i < 3; i++) {
                char *end;
                c->rgb[i] = strtof(tok[2 + i], &end);
                if (*end || c->rgb[i] < 0 || c->rgb[i] > 1) fail(lineno, "colour components are numbers in 0..1");
            }
        } else if (strcmp(tok[0], "pivot") == 0 && nt == 4) {
            for (int i = 0; i < 3; i++) g_pivot[i] = atof(tok[1 + i]);
            g_has_pivot = 1;
        } else if (strcmp(tok[0], "group") == 0 && nt >= 2) {
            if (in_group) fail(lineno, "group inside a group (missing 'end')");
            in_group = 1;
            nv = nf = part = twosided = mirror = 0;
            for (int i = 2; i < nt; i++) {
                if (strcmp(tok[i], "prop") == 0) part = 1;
                else if (strcmp(tok[i], "double") == 0) twosided = 1;
                else if (strcmp(tok[i], "mirror") == 0) mirror = 1;
                else fail(lineno, "unknown group option '%s' (prop, double, mirror)", tok[i]);
            }
        } else if (strcmp(tok[0], "v") == 0 && nt == 4) {
            if (!in_group) fail(lineno, "vertex outside a group");
            if (nv == MAX_GROUP_VERTS) fail(lineno, "more than %d vertices in a group", MAX_GROUP_VERTS);
            for (int i = 0; i < 3; i++) {
                char *end;
                verts[nv][i] = strtod(tok[1 + i], &end);
                if (*end || fabs(verts[nv][i]) > 60.0) fail(lineno, "coordinates are numbers within +-60 m");
            }
            nv++;
        } else if (strcmp(tok[0], "f") == 0 && (nt == 5 || nt == 6)) {
            if (!in_group) fail(lineno, "face outside a group");
            if (nf == MAX_GROUP_FACES) fail(lineno, "more than %d faces in a group", MAX_GROUP_FACES);
            Face *f = &faces[nf++];
            f->colour = find_colour(tok[1]);
            if (f->colour < 0) fail(lineno, "unknown colour '%s'", tok[1]);
            f->n = nt - 2;
            f->line = lineno;
            for (int k = 0; k < f->n; k++) {
                int i = atoi(tok[2 + k]);
                if (i < 1 || i > nv) fail(lineno, "vertex index %s out of 1..%d", tok[2 + k], nv);
                for (int j = 0; j < k; j++)
                    if (f->idx[j] == i - 1) fail(lineno, "vertex %d repeated in a face", i);
                f->idx[k] = i - 1;
            }
        } else if (strcmp(tok[0], "end") == 0 && nt == 1) {
            if (!in_group) fail(lineno, "'end' without a group");
            if (nf == 0) fail(lineno, "group without faces");
            emit_group(verts, nv, faces, nf, part, twosided, mirror);
            in_group = 0;
            groups++;
        } else {
            fail(lineno, "cannot read '%s' (expected model, colour, pivot, group, v, f or end)", tok[0]);
        }
    }
    fclose(in);
    if (in_group) fail(lineno, "last group has no 'end'");
    if (!has_model) fail(1, "missing 'model NAME'");
    if (!g_has_pivot) fail(1, "missing 'pivot X Y Z'");
    if (groups == 0) fail(lineno, "no groups");
}

static void emit_string(FILE *out, const char *path) {
    FILE *in = fopen(path, "rb");
    if (!in) { fprintf(stderr, "render_pack: cannot open shader %s\n", path); exit(1); }
    fputs("    \"", out);
    int c;
    while ((c = fgetc(in)) != EOF) {
        if (c == '\n') {
            fputs("\\n\"\n    \"", out);
            continue;
        }
        if (c == '\\' || c == '"') fputc('\\', out);
        if (c == '\t' || c == '\r' || (!isprint(c) && c < 128)) { fprintf(out, "\\%03o", c); continue; }
        fputc(c, out);
    }
    fputs("\"", out);
    fclose(in);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: render_pack OUT.c MODEL.txt SHADER...\n");
        return 2;
    }
    parse_model(argv[2]);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]);
    FILE *out = fopen(tmp, "w");
    if (!out) { fprintf(stderr, "render_pack: cannot write %s\n", tmp); return 1; }
    fprintf(out, "/* skyisles render data generated by render_pack from %s and shaders_es2/: do not edit. */\n", argv[2]);
    fprintf(out, "#include \"render/render_internal.h\"\n\n");
    fprintf(out, "const RenderEmbeddedFile render_embedded_shaders[] = {\n");
    for (int i = 3; i < argc; i++) {
        const char *base = strrchr(argv[i], '/');
        fprintf(out, "  {\"%s\",\n", base ? base + 1 : argv[i]);
        emit_string(out, argv[i]);
        fprintf(out, "},\n");
    }
    if (argc == 3) fprintf(out, "  {\"\", \"\"},\n");
    fprintf(out, "};\nconst unsigned render_embedded_shader_count = %d;\n\n", argc - 3);
    fprintf(out, "const float render_aircraft_prop_centre[3] = {%.4ff, %.4ff, %.4ff};\n", g_pivot[0], g_pivot[1], g_pivot[2]);
    fprintf(out, "const unsigned render_aircraft_vert_count = %d;\n", g_out_count);
    fprintf(out, "const ModelVertex render_aircraft_verts[] = {\n");
    for (int i = 0; i < g_out_count; i++) {
        const OutVert *v = &g_out[i];
        const float *rgb = g_colours[v->colour].rgb;
        fprintf(out, "  {%ld, %ld, %ld, %d, %ld, %ld, %ld, 0, %ld, %ld, %ld, 255},\n",
                lrint(v->p[0] * 256.0), lrint(v->p[1] * 256.0), lrint(v->p[2] * 256.0), v->part,
                lrint(v->n[0] * 127.0), lrint(v->n[1] * 127.0), lrint(v->n[2] * 127.0),
                lrint(rgb[0] * 255.0), lrint(rgb[1] * 255.0), lrint(rgb[2] * 255.0));
    }
    fprintf(out, "};\n");
    if (fclose(out) != 0 || rename(tmp, argv[1]) != 0) {
        fprintf(stderr, "render_pack: cannot write %s\n", argv[1]);
        return 1;
    }
    fprintf(stderr, "render_pack: %s: %d triangles, %d shaders\n", argv[1], g_out_count / 3, argc - 3);
    return 0;
}
