#!/usr/bin/env bash
# Lays the PortMaster zip out as a port in PortMaster-New (its ports/ folder, one folder a port):
#   ports/skyisles/port.json README.md screenshot.png cover.png gameinfo.xml   what PortMaster lists
#   ports/skyisles/SkyIsles.sh                                       the launcher
#   ports/skyisles/skyisles/                                         the game's folder (licenses/ in it)
# PortMaster's own release tools put port.json, README.md, the screenshot and the cover back into the game's
# folder when they build the zip. Copy ports/skyisles into a clone of PortMaster-New for the pull
# request.
# usage: tools/delivery/portmaster_pr.sh ZIP OUTDIR   (prints the port's folder)
set -eu
zip=$(realpath "${1:?usage: portmaster_pr.sh ZIP OUTDIR}")
out=${2:?usage: portmaster_pr.sh ZIP OUTDIR}
[ -s "$zip" ] || { echo "portmaster-pr: no zip at $zip: run make portmaster first" >&2; exit 1; }
port="$out/ports/skyisles"
rm -rf "$port" "$port.tmp"
mkdir -p "$port.tmp"
unzip -q "$zip" -d "$port.tmp"
for f in port.json README.md screenshot.png cover.png gameinfo.xml; do
  [ -s "$port.tmp/skyisles/$f" ] || { echo "portmaster-pr: $zip has no skyisles/$f" >&2; rm -rf "$port.tmp"; exit 1; }
  mv "$port.tmp/skyisles/$f" "$port.tmp/$f"
done
# conf/ is the player's (settings, screenshots): made by the launcher, not kept in the repository.
rmdir "$port.tmp/skyisles/conf" 2>/dev/null || true
mv "$port.tmp" "$port"
echo "$port"
