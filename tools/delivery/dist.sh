#!/usr/bin/env bash
# Writes the dist tarball: one folder "skyisles/" that runs where it is unpacked (the game finds
# assets/ beside itself) and installs as the boot-to-sim unit from /opt/skyisles.
# usage: tools/delivery/dist.sh BINARY ARCH VERSION OUTDIR   (prints the tarball's path)
set -eu
bin=${1:?usage: dist.sh BINARY ARCH VERSION OUTDIR}
arch=${2:?usage: dist.sh BINARY ARCH VERSION OUTDIR}
version=${3:?usage: dist.sh BINARY ARCH VERSION OUTDIR}
out=$(mkdir -p "${4:?usage: dist.sh BINARY ARCH VERSION OUTDIR}" && cd "$4" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/tools/delivery"

[ -x "$bin" ] || { echo "dist: no binary at $bin" >&2; exit 1; }
stage="$out/stage-$arch/skyisles"
rm -rf "$out/stage-$arch"
mkdir -p "$stage/assets/controllers" "$stage/assets/replays" "$stage/licenses"

# Debug info stays in the build folder; the dist gets the lean binary.
bash "$here/strip.sh" "$bin" "$stage/skyisles"
cp "$top"/assets/controllers/gamecontrollerdb.txt "$top"/assets/controllers/LICENSE.gamecontrollerdb \
   "$top"/assets/controllers/SOURCE "$stage/assets/controllers/"
cp "$top"/assets/replays/attract-sky.skyr "$stage/assets/replays/"
cp "$top/LICENSE" "$stage/LICENSE"
cp "$top"/platform/licenses/* "$stage/licenses/"
cp "$top/assets/controllers/LICENSE.gamecontrollerdb" "$stage/licenses/"
cp "$top/platform/dist/README.md" "$stage/README.md"
# The unit as the tarball lays it out (/opt/skyisles), the user and the installer.
sed "s|^ExecStart=[^ ]*|ExecStart=/opt/skyisles/skyisles|" "$top/platform/pi/skyisles.service" > "$stage/skyisles.service"
cp "$top/platform/pi/skyisles.sysusers" "$stage/skyisles.sysusers"
cp "$top/platform/pi/skyisles-power.rules" "$stage/skyisles-power.rules"
install -m 0755 "$top/platform/pi/install-service.sh" "$stage/install-service.sh"
bash "$here/glibc_floor.sh" "$stage/skyisles" > "$stage/GLIBC_FLOOR"
chmod -R u+rwX,go+rX,go-w "$stage"

tarball="$out/skyisles-$version-$arch.tar.gz"
# Same inputs, same bytes: fixed owner, order and time (the last commit's).
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$top" log -1 --format=%ct 2>/dev/null || echo 0)}
tar -C "$out/stage-$arch" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" \
    -cf - skyisles | gzip -n -9 > "$tarball.new"
mv -f "$tarball.new" "$tarball"
echo "$tarball"
