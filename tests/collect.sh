#!/usr/bin/env bash
# Prints the records of a make test pool (mk/test.mk): the build and program records of the
# given stages (default: every stage folder under RUNS_DIR), and for each expected program
# without one (its make target failed, or the run was cut short) a failed record, so a program
# can never drop out of the count unseen.
# usage: tests/collect.sh RUNS_DIR [STAGE...] > summary
set -u
runs=$1; shift
if [ $# -eq 0 ]; then
  cat "$runs"/*/*.rec 2>/dev/null
else
  for stage in "$@"; do cat "$runs/$stage"/*.rec 2>/dev/null; done
fi
[ -f "$runs/expected" ] || exit 0
while read -r label name rec; do
  [ -n "$label" ] || continue
  if [ ! -s "$rec" ]; then
    echo "[$label] $name: no result (its test target did not finish)" >&2
    echo "$label $name 0 1"
  fi
done < "$runs/expected"
exit 0
