#!/bin/bash
# Interleaved A/B of the frame bench (`skyisles --bench-frames N --json --quality Q`, SDL's
# offscreen GL): the baseline and the candidate games take turns, round after round and preset
# after preset, so a shared machine's load hits both alike. Prints, per preset, both medians over
# rounds of the main thread's CPU ms per frame outside the GL driver (p50 and p99 of each run),
# the medians of the paired per-round ratios (candidate / baseline), and the mean draw calls and
# triangles per frame of each.
#   tools/bench/ab_frame.sh BASE_GAME NEW_GAME [ROUNDS] [FRAMES] [PRESETS]
# ROUNDS 9, FRAMES 300, PRESETS "low medium high" unless given. A bench reads no settings file.
set -euo pipefail
base=$1 new=$2 rounds=${3:-9} frames=${4:-300} presets=${5:-low medium high}
for g in "$base" "$new"; do
    [ -x "$g" ] || { echo "ab_frame: no game at $g: build it first" >&2; exit 1; }
done
t=$(mktemp -d /tmp/ab-frame-XXXXXX)
trap 'rm -rf "$t"' EXIT
num() { { tr -d "\n" <"$1"; echo; } | sed -n "s/.*\"$2\": {[^}]*\"$3\": \([0-9.]*\).*/\1/p"; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
run() {   # game preset out
    SDL_VIDEODRIVER=offscreen "$1" --bench-frames "$frames" --json --quality "$2" \
        </dev/null >"$3" 2>"$t/err" || { echo "ab_frame: $1 --quality $2 failed:" >&2; tail -3 "$t/err" >&2; exit 1; }
}
for ((i = 0; i < rounds; i++)); do
    for q in $presets; do
        # Alternate which game goes first so a drift in load within a round favours neither.
        if ((i % 2)); then run "$new" "$q" "$t/n"; run "$base" "$q" "$t/b"; else run "$base" "$q" "$t/b"; run "$new" "$q" "$t/n"; fi
        for s in b n; do
            num "$t/$s" cpu_ms_excl_gl_driver p50 >>"$t/$q.$s.p50"
            num "$t/$s" cpu_ms_excl_gl_driver p99 >>"$t/$q.$s.p99"
            num "$t/$s" draw_calls mean >>"$t/$q.$s.dc"
            num "$t/$s" triangles mean >>"$t/$q.$s.tri"
        done
        for p in p50 p99; do
            awk -v a="$(tail -1 "$t/$q.n.$p")" -v b="$(tail -1 "$t/$q.b.$p")" 'BEGIN {printf "%.4f\n", a / b}' >>"$t/$q.r.$p"
        done
    done
done
printf '%-7s %-22s %-7s %-22s %-7s %-15s %s\n' preset "p50 ms base -> new" ratio "p99 ms base -> new" ratio \
    "draw calls" triangles
for q in $presets; do
    printf '%-7s %-22s %-7.3f %-22s %-7.3f %-15s %s\n' "$q" \
        "$(median <"$t/$q.b.p50") -> $(median <"$t/$q.n.p50")" "$(median <"$t/$q.r.p50")" \
        "$(median <"$t/$q.b.p99") -> $(median <"$t/$q.n.p99")" "$(median <"$t/$q.r.p99")" \
        "$(median <"$t/$q.b.dc") -> $(median <"$t/$q.n.dc")" "$(median <"$t/$q.b.tri") -> $(median <"$t/$q.n.tri")"
done
echo "($rounds rounds of $frames frames, interleaved; CPU ms per frame outside the GL driver; ratio: median of the paired per-round ratios)"
