#!/usr/bin/env bash
# skyisles stop-signal storm: N headless autopilot flights, each sent one SIGTERM at a random
# moment 0-6 s after it was started (exec'd), beside a CPU hog on every core; each must exit 0
# with the "stopped by SIGTERM" line. A SIGTERM that lands before the game's handler stands (while
# the binary is still being loaded: no program can catch a signal then) ends it the default way,
# exit 143; such a run is counted apart ("early"), not as a failure, and any other end of an early
# run is one. Prints one line per failure and per early run, and a summary:
#   sigterm_storm: N runs, N clean, N early, N failed, delays 0.00-6.00 s
# Usage: tools/signals/sigterm_storm.sh N [BINARY]   (default build/skyisles; SKYISLES_RUNNER=qemu-aarch64 to emulate;
#        SKYISLES_STORM_HOGS=K for K CPU hogs instead of one per core)
# Exit status 0 when every run ended cleanly.
set -u
n=${1:-50}
bin=${2:-build/skyisles}
runner=${SKYISLES_RUNNER:-}
[ -x "$bin" ] || { echo "sigterm_storm: no game binary at $bin: build it with make -j2 $bin" >&2; exit 2; }
tmp=$(mktemp -d /tmp/skyisles_storm.XXXXXX)
hogs=()
cleanup() {
  for h in "${hogs[@]}"; do kill "$h" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
nhogs=${SKYISLES_STORM_HOGS:-$(nproc)}
for _ in $(seq 1 "$nhogs"); do
  ( while :; do :; done ) &
  hogs+=($!)
done

# True once the process catches SIGTERM (its SigCgt mask in /proc): the handler stands. Under a
# runner (qemu-user catches every signal itself, so its mask says nothing of the game's) the game's
# first log line is the sign instead: main installs the handler before anything logs.
catches() {
  if [ -n "$runner" ]; then
    [ -s "$2" ]
    return
  fi
  local mask
  mask=$(awk '/^SigCgt:/ {print $2}' "/proc/$1/status" 2>/dev/null) || return 1
  [ -n "$mask" ] && (( (16#$mask >> 14) & 1 ))
}

clean=0 failed=0 early=0 dmin=99 dmax=0
for i in $(seq 1 "$n"); do
  err="$tmp/run$i.err"
  # shellcheck disable=SC2086
  SDL_VIDEODRIVER=none-such SKYISLES_LOG=info $runner "$bin" --headless --autopilot --seconds 120 --view-radius 3 \
    >/dev/null 2>"$err" </dev/null &
  pid=$!
  delay=$(awk -v s="$RANDOM$i" 'BEGIN { srand(s); printf "%.3f", rand() * 6.0 }')
  sleep "$delay"
  if catches "$pid" "$err"; then stood=1; else stood=0; fi
  kill -TERM "$pid" 2>/dev/null
  wait "$pid"
  rc=$?
  dmin=$(awk -v a="$dmin" -v b="$delay" 'BEGIN { print (b < a) ? b : a }')
  dmax=$(awk -v a="$dmax" -v b="$delay" 'BEGIN { print (b > a) ? b : a }')
  if [ "$rc" = 0 ] && grep -q 'stopped by SIGTERM: .* shut down cleanly' "$err"; then
    clean=$((clean + 1))
  elif [ "$stood" = 0 ] && [ "$rc" = 143 ]; then
    early=$((early + 1))
    echo "sigterm_storm: run $i: SIGTERM at ${delay} s, before the handler stood: exit 143 (the default end)"
  else
    failed=$((failed + 1))
    echo "sigterm_storm: run $i: SIGTERM at ${delay} s (handler standing: $stood): exit $rc; last lines:"
    tail -n 3 "$err" | sed 's/^/    /'
  fi
done
echo "sigterm_storm: $n runs, $clean clean, $early early, $failed failed, delays $dmin-$dmax s, $nhogs CPU hogs"
[ "$failed" = 0 ] && [ "$clean" -gt 0 ]
