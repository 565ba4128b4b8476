#!/bin/bash
# Interleaved A/B of `bench noise`: the baseline and the candidate binaries take turns, round after
# round (which one goes first alternates), so a shared machine's load hits both alike. Prints, per
# function and path (stb's reference lines are a control: their ratio stays near 1), the median
# over rounds of each run's ns/sample and the median of the paired per-round ratios (new / base).
#   tools/bench/ab_noise.sh BASE_BENCH NEW_BENCH [ROUNDS] [RUNS] [RUNNER]
# RUNS is `bench noise --runs` (short runs per figure inside one run). RUNNER prefixes both
# commands (e.g. "qemu-aarch64 -L /usr/aarch64-linux-gnu").
# Without a baseline binary at hand: build the commit to compare against in a scratch folder,
#   git archive COMMIT | tar -x -C /tmp/base && make -C /tmp/base -j2 build/bench
set -euo pipefail
base=$1 new=$2 rounds=${3:-11} runs=${4:-9} runner=${5:-}
t=/tmp/ab_noise.$$
pick() { sed -n 's/.*"fn":"\([a-z0-9_]*\)","path":"\([a-z0-9]*\)".*"ns_per_sample":\([0-9.]*\).*/\1 \2 \3/p'; }
run() { $runner "$2" noise --runs "$runs" | pick | sed "s/^/$1 $3 /"; }
: >$t
for ((i = 0; i < rounds; i++)); do
    if ((i % 2)); then run "$i" "$new" new >>$t; run "$i" "$base" base >>$t
    else run "$i" "$base" base >>$t; run "$i" "$new" new >>$t; fi
done
awk -v rounds="$rounds" -v runs="$runs" '
function median(a, n,    i, j, v) {
    for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ key = $3 " " $4; v[$1, $2, key] = $5; if (!(key in seen)) { seen[key] = 1; order[++nk] = key } }
END {
    for (k = 1; k <= nk; k++) {
        key = order[k]; nb = nn = nr = 0
        for (i = 0; i < rounds; i++) {
            b = v[i, "base", key]; n = v[i, "new", key]
            if (b != "") B[++nb] = b
            if (n != "") N[++nn] = n
            if (b > 0 && n != "") R[++nr] = n / b
        }
        if (nr == 0) continue
        split(key, f, " ")
        printf "{\"fn\":\"%s\",\"path\":\"%s\",\"rounds\":%d,\"runs\":%d,\"base_ns\":%.3f,\"new_ns\":%.3f,\"ratio_median\":%.3f}\n",
            f[1], f[2], nr, runs, median(B, nb), median(N, nn), median(R, nr)
    }
}' $t
rm -f $t
