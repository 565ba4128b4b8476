#!/usr/bin/env bash
# Copies an ELF binary without its debug sections, with the strip that knows its machine
# (aarch64-linux-gnu-strip for an aarch64 binary on an x86_64 host); an unstripped copy when no
# such tool is installed (bigger, works the same).
# usage: tools/delivery/strip.sh IN OUT
set -eu
in=${1:?usage: strip.sh IN OUT}
out=${2:?usage: strip.sh IN OUT}
machine=$(LC_ALL=C readelf -h "$in" | sed -n 's/^ *Machine: *//p')
case "$machine" in
  AArch64) tools="aarch64-linux-gnu-strip strip" ;;
  *X86-64*) tools="x86_64-linux-gnu-strip strip" ;;
  *) tools="strip" ;;
esac
for t in $tools; do
  if command -v "$t" >/dev/null 2>&1 && "$t" --strip-debug -o "$out" "$in" 2>/dev/null; then
    chmod 0755 "$out"
    exit 0
  fi
done
echo "strip.sh: no strip for $machine here: copying $in with its debug info" >&2
install -m 0755 "$in" "$out"
