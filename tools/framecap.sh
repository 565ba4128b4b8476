#!/usr/bin/env bash
# The frame cap over 10 s, in two parts, each at 30 and 60 frames a second:
#  1. the pacer with the game's own frames (sim, world streaming, input; no GL): the frame-cap
#     test of tests/test_game_console.c with its windows made 10 s long (SKYISLES_FRAMECAP_SECONDS),
#     its CPU time per cap (the process's: workers included);
#  2. the real game from outside, through its own loop (game_run: the renderer on SDL's offscreen
#     GL, the pacer after each swap) on its autopilot, the cap and vsync off from a settings file,
#     and uncapped for what this machine can draw. The game logs its frames a second over each
#     10 s; the second window (10-20 s, past the start) is the figure, and the process's CPU time
#     (user + system, every thread: the workers and the GL driver's) is read from /proc at the
#     two log lines that bound it. On software GL (llvmpipe) a loaded machine may not draw 60
#     (or 30): the uncapped line says what it can.
# Prints one line per figure and the CPU ratio of 30 to 60.
# usage: tools/framecap.sh [BUILD_DIR]   (default build; make test keeps the 2 s check)
# Environment: FRAMECAP_SIZE (default 640x480), FRAMECAP_ARGS (more game options).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case "$build" in /*) ;; *) build="$top/$build" ;; esac
game="$build/skyisles"
[ -x "$game" ] || { echo "framecap: no game at $game: run make first" >&2; exit 1; }
size=${FRAMECAP_SIZE:-640x480}
tick=$(getconf CLK_TCK)
tmp=$(mktemp -d /tmp/skyisles-framecap-XXXXXX)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null; }
fps_lines() { grep -c ' fps, ' "$tmp/log" 2>/dev/null || true; }

# measure CAP: prints "fps cpu_seconds window_seconds" for the second 10 s window.
measure() {
  mkdir -p "$tmp/cfg-$1"
  printf 'display:\n  frame_cap: %s\n  vsync: false\n' "$1" > "$tmp/cfg-$1/settings.yaml"
  # shellcheck disable=SC2086
  SDL_AUDIODRIVER=dummy "$game" --offscreen --size "$size" --autopilot --config "$tmp/cfg-$1" \
    ${FRAMECAP_ARGS:-} > "$tmp/log" 2>&1 &
  pid=$!
  local c0= t0= c1= t1= n
  for _ in $(seq 900); do   # up to 45 s
    n=$(fps_lines); n=${n:-0}
    if [ "$n" -ge 1 ] && [ -z "$c0" ]; then c0=$(cpu_ticks "$pid"); t0=$(date +%s.%N); fi
    if [ "$n" -ge 2 ]; then c1=$(cpu_ticks "$pid"); t1=$(date +%s.%N); break; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  kill -TERM "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  pid=
  if [ -z "$c1" ] || [ -z "$c0" ]; then
    echo "framecap: the game at cap $1 logged no second 10 s window: $(tail -n 2 "$tmp/log")" >&2
    return 1
  fi
  local fps
  fps=$(grep ' fps, ' "$tmp/log" | sed -n '2s/.*skyisles: \([0-9.]*\) fps,.*/\1/p')
  awk -v f="$fps" -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" -v k="$tick" \
    'BEGIN {printf "%s %.3f %.2f\n", f, (c1 - c0) / k, t1 - t0}'
}

echo "framecap: 1. the pacer with the game's frames, no GL (tests/test_game_console.c, 10 s windows)"
test_prog="$build/tests/test_game_console"
[ -x "$test_prog" ] || { echo "framecap: no $test_prog: run make first" >&2; exit 1; }
(cd "$top" && SKYISLES_FRAMECAP_SECONDS=10 "$test_prog" 2>/dev/null) | grep -E '^  (cap|figure)' > "$tmp/pacer" || {
  echo "framecap: the frame-cap test failed" >&2; exit 1; }
cat "$tmp/pacer"
awk '/figure: game frames at cap 30/ {for (i = 1; i <= NF; i++) if ($i == "CPU") a = $(i + 1)}
     /figure: game frames at cap 60/ {for (i = 1; i <= NF; i++) if ($i == "CPU") b = $(i + 1)}
     END {if (b > 0) printf "  CPU at 30 vs 60: %.2fx\n", a / b}' "$tmp/pacer"
echo "framecap: 2. $game at $size through game_run, offscreen GL ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
declare -A cpu
for cap in 30 60 uncapped; do
  read -r fps secs window < <(measure "$cap") || exit 1
  cpu[$cap]=$secs
  verdict=
  if [ "$cap" != uncapped ]; then
    verdict=$(awk -v f="$fps" -v c="$cap" 'BEGIN {d = f - c; if (d < 0) d = -d;
      print (d <= 0.1 * c) ? "within 10% of the cap" : "NOT within 10% of the cap"}')
  fi
  awk -v cap="$cap" -v f="$fps" -v s="$secs" -v w="$window" -v v="$verdict" \
    'BEGIN {printf "  cap %-8s %6.1f frames a second over 10 s; CPU %.2f s in %.1f s (%.0f%% of a core) %s\n",
            cap, f, s, w, 100 * s / w, v}'
done
awk -v a="${cpu[30]}" -v b="${cpu[60]}" 'BEGIN {if (b > 0) printf "  CPU at 30 vs 60: %.2fx\n", a / b}'
