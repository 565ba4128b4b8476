#!/usr/bin/env bash
# Prints the oldest glibc an ELF binary runs on: the highest GLIBC_x.y version it needs, from its
# version-needs section (what the dynamic loader checks at start). readelf reads any ELF
# machine, so an aarch64 binary is read on an x86_64 host as well.
# usage: tools/delivery/glibc_floor.sh BINARY [--all]   (--all: every GLIBC_ version it needs)
set -eu
bin=${1:?usage: glibc_floor.sh BINARY [--all]}
versions=$(LC_ALL=C readelf --version-info --wide "$bin" |
  sed -n 's/.*Name: GLIBC_\([0-9][0-9.]*\).*/\1/p' | sort -u -V)
if [ -z "$versions" ]; then
  echo "glibc_floor.sh: $bin needs no GLIBC_ symbol versions (not a dynamic glibc binary?)" >&2
  exit 1
fi
if [ "${2:-}" = "--all" ]; then echo "$versions"; else echo "$versions" | tail -n 1; fi
