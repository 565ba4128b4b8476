#!/bin/bash
# Interleaved A/B of the home island's field bake (`bench island`'s home_bake line): the baseline
# and the candidate binaries take turns, round after round, so a shared machine's load hits both
# alike. Each run's figure is its median over BAKES bakes; prints the median over rounds of each
# and the median of the paired per-round ratios (new / base).
#   tools/bench/ab_bake.sh BASE_BENCH NEW_BENCH [ROUNDS] [BAKES] [RUNNER]
# RUNNER prefixes both commands (e.g. "qemu-aarch64 -L /usr/aarch64-linux-gnu").
set -euo pipefail
base=$1 new=$2 rounds=${3:-9} bakes=${4:-9} runner=${5:-}
bake() { $runner "$1" island --seeds 1 --bakes "$bakes" | sed -n 's/.*"home_bake".*"median_ms":\([0-9.]*\).*/\1/p'; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
t=/tmp/ab_bake.$$
: >$t.b; : >$t.n; : >$t.r
for ((i = 0; i < rounds; i++)); do
    b=$(bake "$base") n=$(bake "$new")
    echo "$b" >>$t.b; echo "$n" >>$t.n
    awk -v a="$n" -v b="$b" 'BEGIN {printf "%.4f\n", a / b}' >>$t.r
done
printf '{"what":"home_bake","rounds":%d,"bakes":%d,"base_median_ms":%.3f,"new_median_ms":%.3f,"ratio_median":%.3f,"base_runs":"%s","new_runs":"%s"}\n' \
    "$rounds" "$bakes" "$(median <$t.b)" "$(median <$t.n)" "$(median <$t.r)" "$(tr '\n' ' ' <$t.b | sed 's/ $//')" "$(tr '\n' ' ' <$t.n | sed 's/ $//')"
rm -f $t.*
