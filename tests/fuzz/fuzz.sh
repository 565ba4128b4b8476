#!/usr/bin/env bash
# Runs the libFuzzer targets that `make fuzz` built, one at a time (one job, one worker), or folds
# their finds into the committed corpora. Run from the repository root.
#   tests/fuzz/fuzz.sh run SECONDS BUILD_DIR TARGET...    fuzz each target for SECONDS
#   tests/fuzz/fuzz.sh merge 0 BUILD_DIR TARGET...        minimise finds into tests/fuzz/TARGET/
# run: new inputs go to BUILD_DIR/corpus/TARGET (scratch, not the repository), crashes, leaks,
# timeouts and out-of-memory inputs to BUILD_DIR/artifacts/TARGET/; one line per target with
# executions, coverage (cov = edges, ft = features) and the verdict, also appended to
# BUILD_DIR/fuzz-history.txt. Exits 1 when any target found something.
set -u
mode=$1; secs=$2; build=$3; shift 3
status=0
for t in "$@"; do
  bin=$build/fuzz_$t
  seeds=tests/fuzz/$t
  scratch=$build/corpus/$t
  art=$build/artifacts/$t
  log=$build/logs/$t.log
  mkdir -p "$scratch" "$art" "$build/logs"
  # -timeout: an input slower than 10 s is a hang. -max_len: inputs the size of the seeds; without
  # it libFuzzer takes the largest corpus file, and a big regression case would slow every run.
  args=(-timeout=10 -max_len="${FUZZ_MAX_LEN:-16384}" -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$art/")
  [ -f "tests/fuzz/$t.dict" ] && args+=(-dict="tests/fuzz/$t.dict")
  if [ ! -x "$bin" ]; then echo "fuzz $t: $bin is not built"; status=1; continue; fi

  if [ "$mode" = merge ]; then
    tmp=$build/merge/$t
    rm -rf "$tmp" && mkdir -p "$tmp"
    # Named inputs (seeds, regression cases) always stay; the merge adds what covers more.
    find "$seeds" -maxdepth 1 -type f \( -name 'seed-*' -o -name 'regress-*' \) -exec cp {} "$tmp/" \;
    # Edges only (-use_counters=0): hit-count variants of the same edges would keep hundreds more
    # files for little; the smallest input per edge is kept.
    if ! "$bin" "${args[@]}" -use_counters=0 -merge=1 "$tmp" "$seeds" "$scratch" > "$log.merge" 2>&1; then
      echo "fuzz $t: merge failed, see $log.merge"; status=1; continue
    fi
    find "$seeds" -maxdepth 1 -type f ! -name 'seed-*' ! -name 'regress-*' ! -name '*.md' -delete
    find "$tmp" -maxdepth 1 -type f ! -name 'seed-*' ! -name 'regress-*' -exec cp {} "$seeds/" \;
    echo "fuzz $t: corpus $(find "$seeds" -type f | wc -l) files, $(du -sk "$seeds" | cut -f1) KiB ($(grep -o 'cov: [0-9]* ft: [0-9]*' "$log.merge" | tail -1))"
    continue
  fi

  before=$(ls "$art" | wc -l)
  start=$(date +%s)
  "$bin" "${args[@]}" -max_total_time="$secs" "$scratch" "$seeds" > "$log" 2>&1
  rc=$?
  took=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<< "$last")
  verdict=ok
  if [ "$rc" -ne 0 ]; then
    status=1
    found=$(ls -t "$art" | head -1)
    case "$found" in
      crash-*) verdict="CRASH" ;; leak-*) verdict="LEAK" ;; timeout-*) verdict="TIMEOUT" ;;
      oom-*) verdict="OUT OF MEMORY" ;; *) verdict="FAILED (exit $rc)" ;;
    esac
    [ "$(ls "$art" | wc -l)" -gt "$before" ] && verdict="$verdict: $art/$found"
  fi
  echo "fuzz $t: ${took}s, ${execs:-0} executions, cov ${cov:-?} ft ${ft:-?}, corpus ${corp:-?}: $verdict"
  echo "$(date -u +%FT%TZ) $t seconds=$took execs=${execs:-0} cov=${cov:-?} ft=${ft:-?} corpus=${corp:-?} result=${verdict%%:*}" \
    >> "$build/fuzz-history.txt"
  if [ "$rc" -ne 0 ]; then
    grep -E 'ERROR: |SUMMARY: |fuzz property broken|runtime error' "$log" | head -5 | sed 's/^/    /'
    echo "    full log: $log; replay: $bin $art/$found (or build-asan/tests/fuzz_$t FILE)"
  fi
done
exit $status
