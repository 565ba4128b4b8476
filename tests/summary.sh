#!/usr/bin/env bash
# Sums tests/run.sh records into the closing "N passed, N failed" line; exits 1 on any failure.
# Records are "label program passed failed [seconds start end [cpu]]"; "label (build) 0 F s start
# end cpu" is a stage's build (F=1: it failed), "label SKIP reason..." a stage that does not apply
# here. With times in the records, each stage's line also shows its cost: the CPU seconds (user +
# system) of its build and its programs, which do not depend on what else the machine runs, beside
# its budget from $TEST_BUDGETS ("label=seconds ... total=seconds"); the seconds they ran (wall,
# summed: in make test the stages share the cores, so first start to last end says little), and
# the minute of the run it ended in; then the programs that took the most CPU, and with
# $TEST_START (epoch seconds) the run's total. A stage over its budget is a warning that names it,
# not a failure (mk/test.mk says why).
# usage: tests/summary.sh SUMMARY_FILE
set -u
summary=$1
if [ ! -s "$summary" ]; then
  echo "no test results in $summary"
  echo "0 passed, 1 failed"
  exit 1
fi
budgets=${TEST_BUDGETS:-}
now=$(date +%s)
total_secs=""
[ -n "${TEST_START:-}" ] && total_secs=$(( now - TEST_START ))

echo
echo "== test summary per stage =="
# One awk pass: the per-stage lines (sorted by label), then "OVER ..." lines for the warnings.
report=$(awk -v budgets="$budgets" -v total="$total_secs" '
  function mmss(s) { return sprintf("%dm%02ds", int(s / 60), s % 60) }
  BEGIN { n = split(budgets, b, " "); for (i = 1; i <= n; i++) { split(b[i], kv, "="); bud[kv[1]] = kv[2] } }
  $2 == "SKIP" { k = $1; $1 = ""; $2 = ""; sub(/^  */, ""); skip[k] = $0; next }
  {
    seen[$1] = 1; p[$1] += $3; f[$1] += $4
    if (NF >= 7) {
      busy[$1] += $5
      cost = NF >= 8 ? $8 : $5
      cpu[$1] += cost
      if (!(first) || $6 < first) first = $6
      if (!($1 in t1) || $7 > t1[$1]) t1[$1] = $7
      if ($2 != "(build)") print "P " cost " " $1 " " $2
    }
  }
  END {
    for (k in seen) {
      line = sprintf("  %-14s %d passed, %d failed", k, p[k], f[k])
      if (k in t1) {
        w = int(cpu[k] + 0.5)
        line = line sprintf("  (cpu %s", mmss(w))
        if (k in bud && bud[k] != "") line = line sprintf(" of %s budget", mmss(bud[k]))
        line = line sprintf(", ran %s, done at %s)", mmss(busy[k]), mmss(t1[k] - first))
        if (k in bud && bud[k] != "" && w > bud[k] + 0) {
          line = line "  OVER BUDGET"
          over[k] = sprintf("stage %s took %s of CPU, over its budget of %s", k, mmss(w), mmss(bud[k]))
        }
      }
      print "S " line
    }
    for (k in skip) printf "S   %-14s skipped: %s\n", k, skip[k]
    if (total != "") {
      line = sprintf("  make test took %s", mmss(total))
      if ("total" in bud && bud["total"] != "") {
        line = line sprintf(" (budget %s)", mmss(bud["total"]))
        if (total + 0 > bud["total"] + 0) { line = line "  OVER BUDGET"; over["~total"] = sprintf("make test took %s, over its budget of %s", mmss(total), mmss(bud["total"])) }
      }
      print "T " line
    }
    for (k in over) print "W " k " " over[k]
  }' "$summary")
grep '^S ' <<< "$report" | cut -c3- | sort
grep '^P ' <<< "$report" | sort -k2,2gr | head -n 5 |
  awk '{ s = s sep $3 " " $4 " (cpu " int($2 + 0.5) "s)"; sep = ", " } END { if (NR) print "  the most CPU: " s }'
grep '^T ' <<< "$report" | cut -c3-
# Loud, and just above the closing line, where a CI log is read first.
grep '^W ' <<< "$report" | sort | while read -r _ _ text; do
  echo "WARNING: $text (budgets: mk/test.mk TEST_BUDGET_*; a slow or loaded machine, or a test that grew)"
done
read -r passed failed < <(awk '$2 != "SKIP" {p+=$3; f+=$4} END {print p+0, f+0}' "$summary")
skipped=$(awk '$2 == "SKIP" {k=$1; $1=""; $2=""; sub(/^  */, ""); printf "%s%s (%s)", sep, k, $0; sep="; "}' "$summary")
echo "$passed passed, $failed failed${skipped:+; skipped: $skipped}"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
