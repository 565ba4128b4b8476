#!/usr/bin/env bash
# The rules tools/lint checks (no function over 100 lines in src/ and platform/, no call circle
# between the files of a module, no Play field written outside src/game/play.c, no broken link
# or anchor in README.md and docs/), on the tree and the native build (LINT_BUILD, default
# build), and on small made-up trees that break each rule, so a lint that cannot fail fails here.
# Prints cmocka-style lines, which tests/run.sh counts.
# The test functions are called by name from the list below:
# shellcheck disable=SC2317
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${LINT_BUILD:-build}
lint="$top/tools/lint/lint.py"
links="$top/tools/lint/links.py"
tmp=$(mktemp -d /tmp/skyisles-lint-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}

tests=(tree_functions tree_calls tree_play long_function_found call_circle_found downward_calls_pass
       play_writes_found play_reads_pass tree_links broken_links_found good_links_pass)
fail() { echo "  $*"; return 1; }
# has_all OUT LINE...: each LINE (as written, not a pattern) is somewhere in OUT.
has_all() {
  local out=$1 want
  shift
  for want in "$@"; do
    grep -qF "$want" <<<"$out" || fail "not found: '$want' in: $out" || return 1
  done
}

tree_functions() { (cd "$top" && python3 "$lint" functions); }
tree_calls() { (cd "$top" && python3 "$lint" calls "$build"); }
tree_play() { (cd "$top" && python3 "$lint" play); }
tree_links() { python3 "$links" "$top"; }

# A tree with one function of 101 lines (and one of 100, which is allowed).
long_function_found() {
  local d="$tmp/long"
  mkdir -p "$d/src/m" "$d/platform"
  { echo 'int ok(int x) {'; for _ in $(seq 97); do echo '    x++; /* { */'; done; echo '    return x;'; echo '}'
    echo 'static int too_long(int x) {'; for _ in $(seq 98); do echo '    x += "}"[0];'; done; echo '    return x;'; echo '}'
  } > "$d/src/m/a.c"
  local out
  out=$(cd "$d" && python3 "$lint" functions)
  [ $? -ne 0 ] || fail "a 101-line function passed" || return 1
  grep -q 'too_long is 101 lines' <<<"$out" || fail "the long function was not named: $out" || return 1
  grep -q ' ok is' <<<"$out" && { fail "the 100-line function was reported: $out"; return 1; }
  return 0
}

# Two files of one module that call each other.
make_module() { # make_module DIR A_BODY B_BODY
  mkdir -p "$1/src/m" "$1/platform" "$1/build/obj/src/m"
  printf '%s\n' "$2" > "$1/src/m/a.c"
  printf '%s\n' "$3" > "$1/src/m/b.c"
  "$cc" -c "$1/src/m/a.c" -o "$1/build/obj/src/m/a.o" && "$cc" -c "$1/src/m/b.c" -o "$1/build/obj/src/m/b.o"
}
call_circle_found() {
  local d="$tmp/circle" out
  make_module "$d" 'int b(int); int a(int x) { return x ? b(x - 1) : 0; }' \
                   'int a(int); int b(int x) { return x ? a(x - 1) : 1; }' || fail "cc failed" || return 1
  out=$(cd "$d" && python3 "$lint" calls build)
  [ $? -ne 0 ] || fail "a call circle passed: $out" || return 1
  grep -q 'call circle between a.c, b.c' <<<"$out" || fail "the circle was not named: $out"
}
downward_calls_pass() {
  local d="$tmp/down"
  make_module "$d" 'int b(int); int a(int x) { return b(x) + 1; }' 'int b(int x) { return x * 2; }' \
    || fail "cc failed" || return 1
  (cd "$d" && python3 "$lint" calls build) || fail "calls that run one way were reported"
}

# A made-up src/game: play.h's Play, play.c (its writer, which may write anything) and other
# files that write or only read it.
make_play_tree() { # make_play_tree DIR OTHER_C
  mkdir -p "$1/src/game"
  printf '%s\n' 'typedef struct Play { int state; float idle_s; char msg[8]; } Play;' \
    'typedef struct Game { Play play; } Game;' 'void play_cut(Play *p);' 'void look(const Play *p);' \
    'void poke(Play *p);' > "$1/src/game/play.h"
  printf '%s\n' '#include "play.h"' 'void play_cut(Play *p) { p->state = 0; p->idle_s += 1.0f; }' > "$1/src/game/play.c"
  printf '%s\n' "$2" > "$1/src/game/other.c"
}
play_writes_found() {
  local d="$tmp/play_bad" out
  make_play_tree "$d" '#include <string.h>
#include "play.h"
void a(Game *g) { g->play.state = 1; }
void b(Game *g) { g->play.idle_s -= 0.5f; }
void c(Game *g) { Play *p = &g->play; p->state++; }
void d(Game *g) { memcpy(g->play.msg, "x", 2); }
void e(Game *g) { poke(&g->play); }
void f(Game *g, const Play *kept) { g->play = *kept; }'
  out=$(cd "$d" && python3 "$lint" play)
  [ $? -ne 0 ] || fail "writes of Play outside play.c passed: $out" || return 1
  has_all "$out" 'other.c:3: a Play field assigned' 'other.c:4: a Play field assigned' 'other.c:5: a Play field stepped' \
    'other.c:6: a Play field written by memcpy' 'other.c:7: a Play field its address passed to poke' \
    'other.c:8: a Play field assigned' '6 writes of Play' || return 1
  grep -q '^src/game/play.c:' <<<"$out" && { fail "the writer itself was reported: $out"; return 1; }
  return 0
}
play_reads_pass() {
  local d="$tmp/play_ok" out
  make_play_tree "$d" '#include "play.h"
int a(const Game *g) { return g->play.state == 1 && g->play.idle_s > 0.0f; }
void b(Game *g) { look(&g->play); play_cut(&g->play); }
int c(Game *g) { const Play *p = &g->play; const char *m = &g->play.msg[0]; return p->state + m[0]; }
int d(Game *g) { int state = 2; state += g->play.state; return state; }'
  out=$(cd "$d" && python3 "$lint" play) || fail "reads and play_* calls were reported: $out"
}

# Made-up docs: a README and two pages that link to each other's files and headings.
make_docs() { # make_docs DIR EXTRA_LINE
  mkdir -p "$1/docs"
  printf '%s\n' '# Top' '[a](docs/a.md) [b heading](docs/b.md#the-b-page-b_x) [img](docs/a.md)' > "$1/README.md"
  printf '%s\n' '# A page' '## Part' '## Part' '[back](../README.md#top) [second](#part-1) [web](https://x.invalid/y)' \
    '```' '[in a fence](nowhere.md)' '```' 'an example: `[text](nowhere.md)`' "$2" > "$1/docs/a.md"
  printf '%s\n' '# The B page (`b_x`)' > "$1/docs/b.md"
}
broken_links_found() {
  local d="$tmp/links_bad" out
  make_docs "$d" '[gone](c.md) [no such part](b.md#part) [third](#part-2)'
  out=$(python3 "$links" "$d")
  [ $? -ne 0 ] || fail "broken links passed: $out" || return 1
  has_all "$out" 'docs/a.md:9: link (c.md): no such file' 'docs/a.md:9: link (b.md#part): no heading #part in b.md' \
    'docs/a.md:9: link (#part-2): no heading #part-2 in a.md' '3 broken' || return 1
  grep -q 'nowhere' <<<"$out" && { fail "a link in code was checked: $out"; return 1; }
  return 0
}
good_links_pass() {
  local d="$tmp/links_ok" out
  make_docs "$d" ''
  out=$(python3 "$links" "$d") || fail "good links were reported: $out"
}

. "$top/tests/support/cmocka_lines.sh"
cmocka_run
