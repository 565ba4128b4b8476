#!/bin/bash
# Interleaved A/B of `bench chunk`: the baseline and the candidate binaries take turns, round
# after round, on the same chunks, so a shared machine's load hits both alike. Prints, per
# mesh, both medians (the median over rounds of each run's per-chunk median) and the median of
# the paired per-round ratios.
#   tools/bench/ab_chunk.sh BASE_BENCH NEW_BENCH [ROUNDS] [CHUNKS] [RUNNER]
# RUNNER prefixes both commands (e.g. "qemu-aarch64 -L /usr/aarch64-linux-gnu").
set -euo pipefail
base=$1 new=$2 rounds=${3:-9} chunks=${4:-200} runner=${5:-}
field() { sed -n "s/.*\"$2\":{\"median\":\([0-9.]*\).*/\1/p" <<<"$1"; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
for mesh in slab64 full; do
    : >/tmp/ab.$$.b; : >/tmp/ab.$$.n; : >/tmp/ab.$$.r
    for ((i = 0; i < rounds; i++)); do
        b=$($runner "$base" chunk --$mesh --no-lod --chunks "$chunks" | tr -d '\n')
        n=$($runner "$new" chunk --$mesh --no-lod --chunks "$chunks" | tr -d '\n')
        tb=$(field "$b" total_ms) tn=$(field "$n" total_ms)
        echo "$tb" >>/tmp/ab.$$.b; echo "$tn" >>/tmp/ab.$$.n
        awk -v a="$tn" -v b="$tb" 'BEGIN {printf "%.4f\n", a / b}' >>/tmp/ab.$$.r
    done
    mb=$(median </tmp/ab.$$.b) mn=$(median </tmp/ab.$$.n) mr=$(median </tmp/ab.$$.r)
    printf '{"mesh":"%s","rounds":%d,"chunks":%d,"base_total_ms_median":%.4f,"new_total_ms_median":%.4f,"ratio_median":%.3f}\n' \
        "$mesh" "$rounds" "$chunks" "$mb" "$mn" "$mr"
done
rm -f /tmp/ab.$$.*
