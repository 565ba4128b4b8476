#!/usr/bin/env bash
# Builds an arm64 sysroot for cross builds (make cross SYSROOT=DIR): the Debian packages the game,
# the tools and the tests build against, unpacked with mmdebstrap (no emulation needed), with the
# absolute library symlinks made relative so the linker never escapes into the build machine's
# own /lib. Debian 11 (bullseye: glibc 2.31, SDL 2.0.14) is what release builds use, for the
# oldest glibc a handheld firmware may have; Debian 12 (bookworm) matches a current Pi OS.
# usage: tools/delivery/sysroot.sh SUITE DIR [MIRROR]
set -eu
suite=${1:?usage: sysroot.sh SUITE DIR [MIRROR]}
dir=${2:?usage: sysroot.sh SUITE DIR [MIRROR]}
mirror=${3:-http://deb.debian.org/debian}
packages=libc6-dev,linux-libc-dev,libsdl2-dev,libgles-dev,libegl-dev,libcglm-dev,libyaml-dev,libcmocka-dev,libstb-dev

if [ -e "$dir/.complete" ]; then
  echo "sysroot: $dir is there already (remove it to build it again)"
  exit 0
fi
command -v mmdebstrap >/dev/null 2>&1 || { echo "sysroot: needs mmdebstrap (apt-get install mmdebstrap)" >&2; exit 1; }
rm -rf "$dir.tmp"
mkdir -p "$(dirname "$dir")"
start=$(date +%s)
echo "sysroot: unpacking Debian $suite arm64 ($packages) into $dir"
# The extract variant unpacks the packages and their dependencies without running anything from
# them, so no arm64 emulation is needed; as a user, mmdebstrap runs in a user namespace.
if ! mmdebstrap --quiet --variant=extract --architectures=arm64 --include="$packages" \
       "$suite" "$dir.tmp" "$mirror"; then
  echo "sysroot: mmdebstrap failed (network, mirror $mirror, or suite $suite?)" >&2
  rm -rf "$dir.tmp"
  exit 1
fi
# /usr/lib/aarch64-linux-gnu/libm.so -> /lib/aarch64-linux-gnu/libm.so.6 and the like: inside the
# sysroot an absolute link would point at the build machine's files.
find "$dir.tmp" -type l -lname '/*' | while read -r link; do
  target=$(readlink "$link")
  case "$target" in /proc/*|/dev/*) continue ;; esac
  rel=$(realpath -m --relative-to="$(dirname "$link")" "$dir.tmp$target")
  ln -sfn "$rel" "$link"
done
rm -rf "$dir"
mv "$dir.tmp" "$dir"
# The C library's release, as it prints it ("... release version 2.31.").
glibc=$(grep -a -o -m1 'release version [0-9][0-9.]*[0-9]' "$(realpath "$dir/lib/aarch64-linux-gnu/libc.so.6")" | sed 's/.* //' || true)
echo "$suite arm64 ${glibc:+glibc $glibc}" > "$dir/.complete"
echo "sysroot: $dir ready in $(( $(date +%s) - start )) s (${glibc:+glibc $glibc, }SDL $(sed -n 's/^Version: //p' "$dir/usr/lib/aarch64-linux-gnu/pkgconfig/sdl2.pc"))"
