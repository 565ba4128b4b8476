#!/bin/bash
# Remakes the two spectrograms of docs/audio.md and docs/game.md from a build (make -j2 all first):
#  - audio_spectrogram.png: the hand-written trace tests/data/audio/flight.trace (every voice);
#  - game_flight_spectrogram.png: a 45 s headless soak flight recorded with --audio-out, its
#    trace cut to 19-33 s (the boost, Mach 1, the top speed, a pad unplugged) and shifted to 0.
# The soak takes 45 s of wall time (headless runs are paced like real frames).
#   tools/shots_audio.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
build=${1:-build} out=${2:-docs/img}
tmp=$(mktemp -d /tmp/skyisles-audio-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$build/audiorender" tests/data/audio/flight.trace "$tmp/flight.wav" \
    --spectrogram "$out/audio_spectrogram.png" >/dev/null
"$build/skyisles" --headless --soak --autopilot --seconds 45 --view-radius 4 \
    --audio-out "$tmp/soak.wav" >/dev/null 2>"$tmp/soak.log"
# Keep the settings lines, the keys and events from 19 s to 33 s, each time less 19 s.
awk -v t0=19 -v t1=33 '
    /^#/ || NF == 0 { next }
    $1 == "rate" || $1 == "block" { print; next }
    $1 == "end" { next }
    $1 == "event" || $1 == "volume" { if ($2 >= t0 && $2 <= t1) { $2 = sprintf("%.4f", $2 - t0); print } next }
    { if ($1 >= t0 && $1 <= t1) { $1 = sprintf("%.4f", $1 - t0); print } }
' "$tmp/soak.wav.trace" > "$tmp/cut.trace"
"$build/audiorender" "$tmp/cut.trace" "$tmp/cut.wav" --spectrogram "$out/game_flight_spectrogram.png" >/dev/null
