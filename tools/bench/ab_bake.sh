#!/bin/bash
# Interleaved A/B of the home island's field bake (`bench island`'s home_bake line): the baseline
# and the candidate binaries take turns, round after round, so a shared machine's load hits both
# alike. Each run's figures are its medians over BAKES bakes (the wall time and the baking thread's
# CPU time); prints the median over rounds of each and the median of the paired per-round ratios
# (new / base) of both.
#   tools/bench/ab_bake.sh BASE_BENCH NEW_BENCH [ROUNDS] [BAKES] [RUNNER]
# RUNNER prefixes both commands (e.g. "qemu-aarch64 -L /usr/aarch64-linux-gnu").
set -euo pipefail
base=$1 new=$2 rounds=${3:-9} bakes=${4:-9} runner=${5:-}
# "wall cpu" of one run.
bake() { $runner "$1" island --seeds 1 --bakes "$bakes" | sed -n 's/.*"home_bake".*"median_ms":\([0-9.]*\).*"cpu_median_ms":\([0-9.]*\).*/\1 \2/p'; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
t=/tmp/ab_bake.$$
: >$t.b; : >$t.n; : >$t.r; : >$t.bc; : >$t.nc; : >$t.rc
for ((i = 0; i < rounds; i++)); do
    read -r b bc <<<"$(bake "$base")"
    read -r n nc <<<"$(bake "$new")"
    echo "$b" >>$t.b; echo "$n" >>$t.n; echo "$bc" >>$t.bc; echo "$nc" >>$t.nc
    awk -v a="$n" -v b="$b" 'BEGIN {printf "%.4f\n", a / b}' >>$t.r
    awk -v a="$nc" -v b="$bc" 'BEGIN {printf "%.4f\n", a / b}' >>$t.rc
done
printf '{"what":"home_bake","rounds":%d,"bakes":%d,"base_median_ms":%.3f,"new_median_ms":%.3f,"ratio_median":%.3f,"base_cpu_median_ms":%.3f,"new_cpu_median_ms":%.3f,"cpu_ratio_median":%.3f,"base_runs":"%s","new_runs":"%s"}\n' \
    "$rounds" "$bakes" "$(median <$t.b)" "$(median <$t.n)" "$(median <$t.r)" "$(median <$t.bc)" "$(median <$t.nc)" "$(median <$t.rc)" \
    "$(tr '\n' ' ' <$t.b | sed 's/ $//')" "$(tr '\n' ' ' <$t.n | sed 's/ $//')"
rm -f $t.*
