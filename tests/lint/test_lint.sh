#!/usr/bin/env bash
# The code rules tools/lint checks (no function over 100 lines in src/ and platform/, no call
# circle between the files of a module), on the tree and the native build (LINT_BUILD, default
# build), and on small made-up trees that break each rule, so a lint that cannot fail fails here.
# Prints cmocka-style lines, which tests/run.sh counts.
# The test functions are called by name from the list below:
# shellcheck disable=SC2317
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${LINT_BUILD:-build}
lint="$top/tools/lint/lint.py"
tmp=$(mktemp -d /tmp/skyisles-lint-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}

tests=(tree_functions tree_calls long_function_found call_circle_found downward_calls_pass)
fail() { echo "  $*"; return 1; }

tree_functions() { (cd "$top" && python3 "$lint" functions); }
tree_calls() { (cd "$top" && python3 "$lint" calls "$build"); }

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

. "$top/tests/support/cmocka_lines.sh"
cmocka_run
