#!/usr/bin/env bash
# Quality auto against the fixed presets, from outside: the real game (game_run, the renderer on
# SDL's offscreen GL, the pacer after each swap) on its autopilot for GOVERN_SECONDS (60) at each
# size, frame cap 30 and vsync off from a fresh settings folder, once per quality: auto (a first
# start: the governor probes from the high preset's values), low, medium, high. The game logs its
# frames a second over each 10 s window and, with auto, each level the governor takes; this prints
# a table: size, quality, fps per 10 s window, the last window's fps, and the values in effect at
# the end (auto: the level it settled at, of its ladder's steps).
# usage: tools/govern.sh [BUILD_DIR]   (default build)
# Environment: GOVERN_SIZES (default "1280x720 640x480"), GOVERN_SECONDS (60), GOVERN_QUALITIES
# (default "auto low medium high"), GOVERN_LOGS (a folder: each run's log is copied there).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case "$build" in /*) ;; *) build="$top/$build" ;; esac
game="$build/skyisles"
[ -x "$game" ] || { echo "govern: no game at $game: run make first" >&2; exit 1; }
sizes=${GOVERN_SIZES:-1280x720 640x480}
secs=${GOVERN_SECONDS:-60}
qualities=${GOVERN_QUALITIES:-auto low medium high}
tmp=$(mktemp -d /tmp/skyisles-govern-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# The fixed presets' values as game_quality_apply sets them (src/game/setting_table.c and the
# world's presets in src/world/params.c).
preset_values() {
  case "$1" in
    low) echo "lines 240, clouds off, lod 100%, radius 8" ;;
    medium) echo "lines 240, clouds on, lod 100%, radius 12" ;;
    high) echo "lines 360, clouds on, lod 100%, radius 14" ;;
  esac
}

printf '%-9s %-7s %-36s %-6s %s\n' size quality "fps per 10 s window" last "values in effect at the end"
for size in $sizes; do
  for q in $qualities; do
    cfg="$tmp/$size-$q"
    mkdir -p "$cfg"
    printf 'display:\n  frame_cap: 30\n  vsync: false\n' > "$cfg/settings.yaml"
    # A wall-time bound: on a loaded machine 60 s of run time can take several minutes, and a
    # driver's teardown has been seen to hang after the figures were logged.
    SDL_VIDEODRIVER=offscreen SKYISLES_LOG=info timeout -s KILL $((secs * 20 + 300)) "$game" --config "$cfg" --offscreen \
      --size "$size" --autopilot --seconds "$secs" --quality "$q" </dev/null >/dev/null 2>"$cfg/log"
    rc=$?
    if [ $rc -ne 0 ]; then
      echo "govern: $size $q: the game ended with $rc:" >&2
      tail -3 "$cfg/log" >&2
      grep -q 'frames: p50' "$cfg/log" || continue   # its figures were logged before: still shown
    fi
    [ -n "${GOVERN_LOGS:-}" ] && mkdir -p "$GOVERN_LOGS" && cp "$cfg/log" "$GOVERN_LOGS/$size-$q.log"
    fps=$(grep -o '[0-9.]* fps,' "$cfg/log" | awk '{printf "%s%s", sep, $1; sep=" "}')
    last=$(grep -o '[0-9.]* fps,' "$cfg/log" | tail -1 | awk '{print $1}')
    if [ "$q" = auto ]; then
      vals=$(grep 'quality auto: level' "$cfg/log" | tail -1 | sed 's/.*quality auto: \(level [0-9]* of [0-9]*\) (\(.*\)): .*/\1: \2/')
      [ -n "$vals" ] || vals="level 0: the chosen values (high)"
      n=$(grep -c 'quality auto: level' "$cfg/log")
      vals="$vals; $n changes"
    else
      vals=$(preset_values "$q")
    fi
    printf '%-9s %-7s %-36s %-6s %s\n' "$size" "$q" "$fps" "${last:--}" "$vals"
  done
done
