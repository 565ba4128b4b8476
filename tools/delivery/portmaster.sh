#!/usr/bin/env bash
# Writes the PortMaster zip, laid out as it unpacks into a device's ports folder:
#   SkyIsles.sh                 the launcher
#   skyisles/skyisles.aarch64   the game; assets/ beside it (the controller database)
#   skyisles/gameinfo.xml, README.md, screenshot.png and cover.png (real frames at 640x480), licenses/
#   skyisles/port.json          PortMaster's version 4 (tools/delivery/port_json.py writes and checks it)
# The source is linked, not shipped: the README names where it is and the commit (MIT needs the
# licence text with the game, which licenses/ holds, not the source beside it; a source tarball
# would make the zip several times larger).
# usage: tools/delivery/portmaster.sh AARCH64_BINARY SHOT_BINARY SHOT_RUNNER VERSION OUTDIR [SOURCE_URL]
#   SHOT_BINARY renders the screenshot (the native build is quickest; the aarch64 one under
#   SHOT_RUNNER, e.g. qemu-aarch64, works too); SOURCE_URL is the public repository the port's
#   README links to (without one the README names the version and commit only, and a warning
#   says so); prints the zip's path
set -eu
bin=${1:?usage: portmaster.sh AARCH64_BINARY SHOT_BINARY SHOT_RUNNER VERSION OUTDIR [SOURCE_URL]}
shot_bin=${2:?}
shot_runner=${3:-}
version=${4:?}
out=$(mkdir -p "${5:?}" && cd "$5" && pwd)
source_url=${6:-}
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/tools/delivery"
src="$top/platform/portmaster"

machine=$(LC_ALL=C readelf -h "$bin" | sed -n 's/^ *Machine: *//p')
[ "$machine" = AArch64 ] || { echo "portmaster: $bin is not an aarch64 binary ($machine)" >&2; exit 1; }
stage="$out/stage"
rm -rf "$stage"
mkdir -p "$stage/skyisles/assets/controllers" "$stage/skyisles/assets/replays" "$stage/skyisles/licenses" "$stage/skyisles/conf"

install -m 0755 "$src/SkyIsles.sh" "$stage/SkyIsles.sh"
bash "$here/strip.sh" "$bin" "$stage/skyisles/skyisles.aarch64"
cp "$top"/assets/controllers/gamecontrollerdb.txt "$top"/assets/controllers/LICENSE.gamecontrollerdb \
   "$top"/assets/controllers/SOURCE "$stage/skyisles/assets/controllers/"
cp "$top"/assets/replays/attract-sky.skyr "$stage/skyisles/assets/replays/"
cp "$top/LICENSE" "$stage/skyisles/licenses/LICENSE.skyisles"
cp "$top"/platform/licenses/* "$top/assets/controllers/LICENSE.gamecontrollerdb" "$stage/skyisles/licenses/"
cp "$src/gameinfo.xml" "$stage/skyisles/"

# The screenshot is the game's own first frame at the smallest size PortMaster takes; the cover
# (what EmulationStation shows in the ports list) the aircraft among the floating islands, no HUD;
# both in clear weather (the changing weather may rain at the first frame).
shot() {
  local file=$1; shift
  # shellcheck disable=SC2086  # the runner is a command word or nothing
  env -u SDL_VIDEODRIVER GALLIUM_DRIVER="${GALLIUM_DRIVER:-softpipe}" SKYISLES_LOG=warn \
    $shot_runner "$shot_bin" --screenshot "$stage/skyisles/$file" --size 640x480 "$@" \
    || { echo "portmaster: $file could not be rendered with $shot_runner $shot_bin" >&2; exit 1; }
}
shot screenshot.png --weather clear
shot cover.png --camera 4000,105,4000,45,-4 --show none --weather clear

glibc=$(bash "$here/glibc_floor.sh" "$stage/skyisles/skyisles.aarch64")
python3 "$here/port_json.py" write "$stage/skyisles/port.json" --glibc "$glibc" || exit 1
commit=$(git -C "$top" rev-parse --short=12 HEAD 2>/dev/null || true)
where="skyisles $version${commit:+ at commit $commit}"
if [ -n "$source_url" ]; then
  where="<$source_url>, $where"
else
  echo "portmaster: no SOURCE_URL: the README names the source as \"$where\" without an address (make portmaster SOURCE_URL=https://...)" >&2
fi
sed "s|@SOURCE@|$where|g; s|@VERSION@|$version|g" "$src/README.md" > "$stage/skyisles/README.md"

zip="$out/skyisles.zip"
rm -f "$zip.tmp"
# -X: no extra file attributes beyond the Unix mode, so the launcher stays executable.
(cd "$stage" && zip -q -r -X "$zip.tmp" SkyIsles.sh skyisles)
mv -f "$zip.tmp" "$zip"
echo "$zip"
