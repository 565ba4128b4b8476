#!/bin/bash
# Interleaved A/B of `bench chunk`: the baseline and the candidate binaries take turns, round
# after round, on the same chunks, so a shared machine's load hits both alike. Prints, per
# mesh, both medians (the median over rounds of each run's per-chunk median) and the median of
# the paired per-round ratios, for the total and for the mesh time per visible face (the run's
# mesh median over its faces per chunk, so a baseline without that field compares too).
#   tools/bench/ab_chunk.sh BASE_BENCH NEW_BENCH [ROUNDS] [CHUNKS] [RUNNER]
# RUNNER prefixes both commands (e.g. "qemu-aarch64 -L /usr/aarch64-linux-gnu").
set -euo pipefail
base=$1 new=$2 rounds=${3:-9} chunks=${4:-200} runner=${5:-}
field() { sed -n "s/.*\"$2\":{\"median\":\([0-9.]*\).*/\1/p" <<<"$1"; }
count() { sed -n "s/.*\"$2\":\([0-9.]*\).*/\1/p" <<<"$1"; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
t=/tmp/ab.$$
for mesh in slab64 full; do
    for f in b n r fb fn fr; do : >$t.$f; done
    for ((i = 0; i < rounds; i++)); do
        b=$($runner "$base" chunk --$mesh --no-lod --chunks "$chunks" | tr -d '\n')
        n=$($runner "$new" chunk --$mesh --no-lod --chunks "$chunks" | tr -d '\n')
        tb=$(field "$b" total_ms) tn=$(field "$n" total_ms)
        fb=$(awk -v m="$(field "$b" mesh_ms)" -v f="$(count "$b" faces_per_chunk)" 'BEGIN {printf "%.3f", m * 1e6 / f}')
        fn=$(awk -v m="$(field "$n" mesh_ms)" -v f="$(count "$n" faces_per_chunk)" 'BEGIN {printf "%.3f", m * 1e6 / f}')
        echo "$tb" >>$t.b; echo "$tn" >>$t.n; echo "$fb" >>$t.fb; echo "$fn" >>$t.fn
        awk -v a="$tn" -v b="$tb" 'BEGIN {printf "%.4f\n", a / b}' >>$t.r
        awk -v a="$fn" -v b="$fb" 'BEGIN {printf "%.4f\n", a / b}' >>$t.fr
    done
    printf '{"mesh":"%s","rounds":%d,"chunks":%d,"base_total_ms_median":%.4f,"new_total_ms_median":%.4f,"ratio_median":%.3f,' \
        "$mesh" "$rounds" "$chunks" "$(median <$t.b)" "$(median <$t.n)" "$(median <$t.r)"
    printf '"base_mesh_ns_per_face":%.2f,"new_mesh_ns_per_face":%.2f,"face_ratio_median":%.3f}\n' \
        "$(median <$t.fb)" "$(median <$t.fn)" "$(median <$t.fr)"
done
rm -f $t.*
