#!/usr/bin/env bash
# A long soak of the real game in a window (SDL's offscreen GL, a small size so the GPU is not the
# limit): the autopilot flies while --soak runs its 90 s cycle (a course started and left, a
# settings save, a controller plugged in and out, an audio device appearing, a screenshot, a world
# rebuild, the map, the pause menu left idle into the attract loop and out),
# Quality auto as a player has it. At the end the game logs its frame times: p50, p99, the longest
# frame and the longest of its own work (the main thread's CPU time in a frame: what the machine's
# other load or the GPU adds is not in it), each with the phase it was in; this prints those, the
# events done, the longest work of each phase and the frames whose work passed two frame periods.
# usage: tools/soak.sh [BUILD_DIR]   (default build)
# Environment: SOAK_SECONDS (default 600), SOAK_SIZE (default 320x240), SOAK_ARGS (more options).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case "$build" in /*) ;; *) build="$top/$build" ;; esac
game="$build/skyisles"
[ -x "$game" ] || { echo "soak: no game at $game: run make first" >&2; exit 1; }
secs=${SOAK_SECONDS:-600}
size=${SOAK_SIZE:-320x240}
tmp=$(mktemp -d /tmp/skyisles-soak-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
printf 'display:\n  vsync: false\n' > "$tmp/settings.yaml"
start=$(date +%s)
# shellcheck disable=SC2086
SDL_VIDEODRIVER=offscreen SKYISLES_LOG=info "$game" --config "$tmp" --offscreen --size "$size" --autopilot --soak \
  --seconds "$secs" ${SOAK_ARGS:-} </dev/null >/dev/null 2>"$tmp/log"
rc=$?
echo "soak: $secs s of run time at $size in $(( $(date +%s) - start )) s of wall time, exit $rc"
grep -o 'soak: [0-9]* cycles.*' "$tmp/log"
grep -o 'soak: course .*CPU)' "$tmp/log" | sort | uniq -c | sort -rn | head -4
grep -o '[0-9]* frames: p50.*' "$tmp/log" || { tail -5 "$tmp/log"; exit 1; }
grep -o 'longest work by phase.*' "$tmp/log"
# Each frame whose own work passed two frame periods (the game logs them as they happen): how many,
# and the longest ten with their phases and times.
echo "frames of work over two periods: $(grep -c 'long frame:' "$tmp/log")"
grep -o 'long frame: .*' "$tmp/log" | sort -k3 -rn | head -10
grep -c 'quality auto: level' "$tmp/log" | sed 's/^/quality auto changes: /'
[ $rc -eq 0 ]
