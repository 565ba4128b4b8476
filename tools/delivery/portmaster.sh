#!/usr/bin/env bash
# Writes the PortMaster zip, laid out as it unpacks into a device's ports folder:
#   SkyIsles.sh                 the launcher
#   skyisles/skyisles.aarch64   the game; assets/ beside it (the controller database)
#   skyisles/port.json          arch aarch64, min_glibc computed from the binary
#   skyisles/gameinfo.xml, README.md, screenshot.png (a real frame at 640x480), licenses/
# usage: tools/delivery/portmaster.sh AARCH64_BINARY SHOT_BINARY SHOT_RUNNER VERSION OUTDIR
#   SHOT_BINARY renders the screenshot (the native build is quickest; the aarch64 one under
#   SHOT_RUNNER, e.g. qemu-aarch64, works too); prints the zip's path
set -eu
bin=${1:?usage: portmaster.sh AARCH64_BINARY SHOT_BINARY SHOT_RUNNER VERSION OUTDIR}
shot_bin=${2:?}
shot_runner=${3:-}
version=${4:?}
out=$(mkdir -p "${5:?}" && cd "$5" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/tools/delivery"
src="$top/platform/portmaster"

machine=$(LC_ALL=C readelf -h "$bin" | sed -n 's/^ *Machine: *//p')
[ "$machine" = AArch64 ] || { echo "portmaster: $bin is not an aarch64 binary ($machine)" >&2; exit 1; }
stage="$out/stage"
rm -rf "$stage"
mkdir -p "$stage/skyisles/assets/controllers" "$stage/skyisles/licenses" "$stage/skyisles/conf"

install -m 0755 "$src/SkyIsles.sh" "$stage/SkyIsles.sh"
bash "$here/strip.sh" "$bin" "$stage/skyisles/skyisles.aarch64"
cp "$top"/assets/controllers/gamecontrollerdb.txt "$top"/assets/controllers/LICENSE.gamecontrollerdb \
   "$top"/assets/controllers/SOURCE "$stage/skyisles/assets/controllers/"
cp "$top/LICENSE" "$stage/skyisles/licenses/LICENSE.skyisles"
cp "$top"/platform/licenses/* "$top/assets/controllers/LICENSE.gamecontrollerdb" "$stage/skyisles/licenses/"
cp "$src/gameinfo.xml" "$src/README.md" "$stage/skyisles/"

# The screenshot is the game's own first frame at the smallest common handheld size.
# shellcheck disable=SC2086  # the runner is a command word or nothing
env -u SDL_VIDEODRIVER GALLIUM_DRIVER="${GALLIUM_DRIVER:-softpipe}" SKYISLES_LOG=warn \
  $shot_runner "$shot_bin" --screenshot "$stage/skyisles/screenshot.png" --size 640x480 \
  || { echo "portmaster: the screenshot could not be rendered with $shot_runner $shot_bin" >&2; exit 1; }

glibc=$(bash "$here/glibc_floor.sh" "$stage/skyisles/skyisles.aarch64")
python3 - "$stage/skyisles/port.json" "$glibc" "$version" <<'EOF'
import json, sys
path, glibc, version = sys.argv[1:4]
info = {
    "version": 2,
    "name": "skyisles.zip",
    "items": ["SkyIsles.sh", "skyisles/"],
    "items_opt": None,
    "attr": {
        "title": "SkyIsles",
        "porter": ["skyisles"],
        "desc": "An infinite floating-islands flight simulator: fly over floating continents, "
                "overhangs, caves and wind-blown voxel clouds above a dark abyss, with a lo-fi PSX look.",
        "inst": "Ready to run.",
        "genres": ["simulation"],
        "image": {},
        "rtr": True,
        "exp": False,
        "runtime": None,
        # PortMaster device capabilities: an analog stick to fly with (pitch and roll are on the
        # left stick) and 1 GB of memory (a 192 MiB budget plus the GPU driver's own).
        "reqs": ["analog_1", "1gb"],
        "arch": ["aarch64"],
        "min_glibc": glibc,
        "version": version,
    },
}
with open(path, "w") as f:
    json.dump(info, f, indent=4)
    f.write("\n")
EOF

zip="$out/skyisles.zip"
rm -f "$zip.tmp"
# -X: no extra file attributes beyond the Unix mode, so the launcher stays executable.
(cd "$stage" && zip -q -r -X "$zip.tmp" SkyIsles.sh skyisles)
mv -f "$zip.tmp" "$zip"
echo "$zip"
