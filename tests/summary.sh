#!/usr/bin/env bash
# Sums tests/run.sh records into the closing "N passed, N failed" line; exits 1 on any failure.
summary=$1
if [ ! -s "$summary" ]; then
  echo "no test results in $summary"
  echo "0 passed, 1 failed"
  exit 1
fi
echo
echo "== test summary per stage =="
# "STAGE SKIP reason..." records a stage that does not apply on this host (it counts nothing).
{
  awk '$2 != "SKIP" {p[$1]+=$3; f[$1]+=$4} END {for (k in p) printf "  %-14s %d passed, %d failed\n", k, p[k], f[k]}' "$summary"
  awk '$2 == "SKIP" {k=$1; $1=""; $2=""; sub(/^  */, ""); printf "  %-14s skipped: %s\n", k, $0}' "$summary"
} | sort
read -r passed failed < <(awk '$2 != "SKIP" {p+=$3; f+=$4} END {print p+0, f+0}' "$summary")
skipped=$(awk '$2 == "SKIP" {k=$1; $1=""; $2=""; sub(/^  */, ""); printf "%s%s (%s)", sep, k, $0; sep="; "}' "$summary")
echo "$passed passed, $failed failed${skipped:+; skipped: $skipped}"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
