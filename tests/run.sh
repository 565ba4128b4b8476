#!/usr/bin/env bash
# Runs cmocka test programs, prints one block per program and appends
# "label program passed failed seconds start end cpu" (start and end in epoch seconds, cpu the
# user + system seconds of the program and everything it started; for the stage times in
# tests/summary.sh) to $SUMMARY. Always exits 0: failures are counted, not fatal.
# usage: tests/run.sh LABEL BUILD_DIR "RUNNER" PROGRAM...
# make test runs one program per call, many calls at once (mk/test.mk): each program's block is
# printed with one write and its record appended with one write, so parallel runs never
# interleave inside a line, a block or a record.
label=$1; builddir=$2; runner=$3; shift 3
summary=${SUMMARY:-build/test-summary.txt}
mkdir -p "$builddir/test-logs" "$(dirname "$summary")"
limit=${SKYISLES_TEST_TIMEOUT:-900}
# The children's line of `times` ("0m1.250s 0m0.040s") as seconds, less `before`.
cpu_awk='NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.1f", u[1] * 60 + u[2] + s[1] * 60 + s[2] - before }'
for prog in "$@"; do
  name=$(basename "$prog")
  log="$builddir/test-logs/$name.log"
  if [ ! -x "$prog" ]; then
    echo "[$label] $name: not built"
    echo "$label $name 0 1" >> "$summary"
    continue
  fi
  start=$(date +%s)
  # CPU from the shell's own account of its waited-for children (times, run here and not in a
  # subshell, which would have its own): after minus before is this program's.
  times > "$log.times"
  cpu0=$(awk "$cpu_awk" "$log.times")
  # shellcheck disable=SC2086
  # stdout and stderr apart: cmocka splits its summary over both, and a shared file
  # would interleave the lines that are counted here.
  timeout "$limit" $runner "$prog" > "$log.out" 2> "$log.err"
  rc=$?
  cat "$log.out" "$log.err" > "$log"
  end=$(date +%s)
  secs=$(( end - start ))
  times > "$log.times"
  cpu=$(awk -v before="$cpu0" "$cpu_awk" "$log.times")
  total=$(sed -n 's/^\[==========\] \([0-9]*\) test(s) run\..*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
  passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s).*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
  failed=$(( total - passed ))
  if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
    failed=1   # crashed, timed out or failed outside a test
  fi
  if [ "$total" -eq 0 ] && [ "$failed" -eq 0 ]; then
    failed=1   # a program that ran no test is a failure
  fi
  # The block is gathered first and printed with one write (see the top).
  block=$(
    echo "[$label] $name: $passed passed, $failed failed (${secs}s, cpu ${cpu}s)"
    # Lines a test prints as "note: ..." (platform, SIMD path, measured rates) are shown.
    grep '^note: ' "$log" | sed "s/^/    /"
    if [ "$failed" -ne 0 ]; then
      [ "$rc" -eq 124 ] && echo "    timed out after ${limit}s (SKYISLES_TEST_TIMEOUT)"
      echo "---- $log (rc=$rc) ----"
      # cmocka's failure lines first: the tail below may be all log lines.
      grep -E '^\[ +(ERROR|FAILED|LINE) +\]' "$log" | head -n 20
      echo "-- last lines:"
      grep -v '^\[       OK \]\|^\[ RUN      \]' "$log" | tail -n 40
      echo "----"
    fi
  )
  printf '%s\n' "$block"
  echo "$label $name $passed $failed $secs $start $end $cpu" >> "$summary"
  rm -f "$log.out" "$log.err" "$log.times"
done
exit 0
