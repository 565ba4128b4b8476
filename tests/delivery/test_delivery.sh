#!/usr/bin/env bash
# Checks what people get: the aarch64 dist tarball, the PortMaster zip, `make install` and the
# boot-to-sim unit, and the aarch64 game started as a user would (under qemu-user on an x86_64
# host, directly on an aarch64 one): no display -> one line and exit 1; SIGTERM -> exit 0 with
# every worker joined. Prints cmocka-style lines, which tests/run.sh counts.
# Environment (set by make check-delivery): DELIVERY_DIST (tarball), DELIVERY_ZIP (zip),
# DELIVERY_RUNNER (qemu-aarch64 or empty), DELIVERY_RELEASE (1: the release build's packages,
# 0: the multiarch cross build's, linked the same way). `make install` is run from the top of the tree.
# The test functions are called by name from the list below:
# shellcheck disable=SC2317
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
dist=${DELIVERY_DIST:?set DELIVERY_DIST}
zip=${DELIVERY_ZIP:?set DELIVERY_ZIP}
runner=${DELIVERY_RUNNER:-}
tmp=$(mktemp -d /tmp/skyisles-delivery-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

tests=(dist_contents dist_libraries dist_game_finds_controller_db dist_unit_verifies install_prefix install_service_root
       zip_layout zip_files_and_sizes zip_libraries launcher_script port_json_v4 gameinfo_xml port_readme readme_controls
       portmaster_pr_layout screenshot cover licences
       aarch64_no_display aarch64_sigterm_clean_exit)
fail() { echo "  $*"; return 1; }
note() { echo "note: $*"; }

# ------------------------------------------------------------------ the dist tarball
dist_dir="$tmp/dist"
mkdir -p "$dist_dir"
tar -C "$dist_dir" -xzf "$dist" 2>/dev/null
D="$dist_dir/skyisles"

dist_contents() {
  local f
  for f in skyisles assets/controllers/gamecontrollerdb.txt assets/controllers/LICENSE.gamecontrollerdb \
           assets/controllers/SOURCE assets/replays/attract-sky.skyr LICENSE README.md skyisles.service skyisles.sysusers skyisles-power.rules install-service.sh \
           GLIBC_FLOOR licenses/THIRD-PARTY.md; do
    [ -s "$D/$f" ] || fail "$f missing from $(basename "$dist")" || return 1
  done
  [ -x "$D/skyisles" ] && [ -x "$D/install-service.sh" ] || fail "skyisles or install-service.sh not executable" || return 1
  LC_ALL=C readelf -h "$D/skyisles" | grep -q 'Machine: *AArch64' || fail "the dist's skyisles is not aarch64" || return 1
  [ "$(cat "$D/GLIBC_FLOOR")" = "$(bash "$top/tools/delivery/glibc_floor.sh" "$D/skyisles")" ] \
    || fail "GLIBC_FLOOR does not match the binary" || return 1
  bash -n "$D/install-service.sh" || fail "install-service.sh does not parse"
}

# What a game binary asks of the target system ($1; $2: the folder shipped with it, or empty):
# the C library (libm, pthread and the loader with it), SDL2 and GLES2/EGL, or a library in that
# folder. libyaml is linked into the game (firmwares and minimal Pi images often lack it).
check_libraries() {
  local needed lib
  needed=$(LC_ALL=C readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  note "$(basename "$1") needs: $needed"
  for lib in $needed; do
    case "$lib" in
      libc.so.6|libm.so.6|libpthread.so.0|ld-linux-aarch64.so.1|libSDL2-2.0.so.0|libGLESv2.so.2|libEGL.so.1) ;;
      *) if [ -z "$2" ] || [ -z "$(find "$2" -name "$lib" -print -quit)" ]; then
           fail "$(basename "$1") needs $lib, which a target may not have and the package does not ship" || return 1
         fi ;;
    esac
  done
}

dist_libraries() {
  [ "${DELIVERY_RELEASE:-0}" = 1 ] || note "not the release build: packages of the multiarch cross build (make sysroot for the release's)"
  check_libraries "$D/skyisles" ""
}

# The game unpacked anywhere finds assets/ beside itself (a video driver that does not exist
# stops it right after the controller database is loaded).
dist_game_finds_controller_db() {
  local err="$tmp/db.err" rc
  # shellcheck disable=SC2086
  env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=none-such SKYISLES_LOG=info \
    $runner "$D/skyisles" >/dev/null 2>"$err"
  rc=$?
  [ "$rc" = 1 ] || fail "exit $rc, want 1 (no video driver)" || return 1
  grep -q "controller mappings from $D/assets/controllers/gamecontrollerdb.txt" "$err" \
    || { cat "$err"; fail "the controller database beside the binary was not loaded"; }
}

# The unit as shipped, pointed at a binary that exists here.
dist_unit_verifies() {
  local unit="$tmp/unit/skyisles.service" key out
  # shellcheck disable=SC2016  # the unit's own text, $ and all
  for key in 'Conflicts=getty@tty1.service' 'TTYPath=/dev/tty1' 'TTYReset=yes' 'TTYVHangup=yes' \
             'SupplementaryGroups=video render input audio' 'Restart=on-failure' 'StartLimitBurst=' \
             'User=skyisles' 'ExecStart=/opt/skyisles/skyisles .* --boot-service' 'OnFailure=getty@tty1.service' \
             'ExecStopPost=+/bin/sh -c .if \[ "\$\$SERVICE_RESULT" = success \]; then systemctl --no-block start getty@tty1'; do
    grep -q "^$key" "$D/skyisles.service" || fail "skyisles.service has no $key" || return 1
  done
  if ! command -v systemd-analyze >/dev/null 2>&1; then
    note "systemd-analyze is not installed: the unit's keys are checked, not verified by systemd"
    return 0
  fi
  mkdir -p "$tmp/unit"
  sed "s|^ExecStart=[^ ]*|ExecStart=$D/skyisles|" "$D/skyisles.service" > "$unit"
  # Messages about the build machine's own units (and a user that exists only on the target)
  # are not the unit's: only lines naming skyisles.service count.
  out=$(SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --man=no "$unit" 2>&1 | grep 'skyisles\.service' \
        | grep -v "User.*skyisles.*not exist\|Failed to resolve user\|skyisles.*Unit .* not found" || true)
  [ -z "$out" ] || { echo "$out"; fail "systemd-analyze verify found problems"; }
}

# ------------------------------------------------------------------ make install
install_prefix() {
  local prefix="$tmp/prefix" err="$tmp/install.err" rc
  make -C "$top" --no-print-directory -s install PREFIX="$prefix" >/dev/null 2>"$err" \
    || { cat "$err"; fail "make install PREFIX=$prefix failed"; } || return 1
  for f in bin/skyisles share/skyisles/controllers/gamecontrollerdb.txt share/skyisles/controllers/LICENSE.gamecontrollerdb \
           share/skyisles/replays/attract-sky.skyr \
           share/doc/skyisles/LICENSE share/doc/skyisles/licenses/THIRD-PARTY.md; do
    [ -s "$prefix/$f" ] || fail "$f not installed" || return 1
  done
  env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=none-such SKYISLES_LOG=info "$prefix/bin/skyisles" >/dev/null 2>"$err"
  rc=$?
  [ "$rc" = 1 ] || fail "installed game: exit $rc, want 1" || return 1
  grep -q "controller mappings from $prefix/bin/../share/skyisles/controllers/gamecontrollerdb.txt" "$err" \
    || { cat "$err"; fail "the installed game did not load PREFIX/share/skyisles/controllers"; }
}

# install-service.sh into an image root, as make install-service does with DESTDIR.
install_service_root() {
  local root="$tmp/root" out
  mkdir -p "$root/opt/skyisles"
  cp "$D/skyisles" "$root/opt/skyisles/skyisles"
  if ! out=$(bash "$D/install-service.sh" --root "$root" /opt/skyisles/skyisles 2>&1); then
    echo "$out"
    if ! command -v systemctl >/dev/null 2>&1; then
      note "no systemctl here: enabling the unit is not checked"
      return 0
    fi
    fail "install-service.sh --root failed"
    return 1
  fi
  grep -q '^ExecStart=/opt/skyisles/skyisles --config ' "$root/etc/systemd/system/skyisles.service" \
    || fail "the installed unit does not start /opt/skyisles/skyisles" || return 1
  [ -L "$root/etc/systemd/system/multi-user.target.wants/skyisles.service" ] \
    || fail "the unit is not enabled (no multi-user.target.wants link)" || return 1
  grep -q '^skyisles:' "$root/etc/passwd" || fail "no skyisles user in the image's /etc/passwd" || return 1
  # Power off and Reboot from the menu: polkit lets the unit's user alone ask logind.
  local rule="$root/etc/polkit-1/rules.d/50-skyisles.rules"
  grep -q 'subject.user == "skyisles"' "$rule" 2>/dev/null && grep -q 'org.freedesktop.login1.power-off"' "$rule" \
    && grep -q 'org.freedesktop.login1.reboot"' "$rule" || fail "no polkit rule for the skyisles user's power off and reboot" || return 1
  bash "$D/install-service.sh" --root "$root" --uninstall >/dev/null 2>&1 || fail "install-service.sh --uninstall failed" || return 1
  [ ! -e "$rule" ] && [ ! -e "$root/etc/systemd/system/skyisles.service" ] \
    && [ ! -L "$root/etc/systemd/system/multi-user.target.wants/skyisles.service" ] \
    || fail "--uninstall left the unit, its link or the polkit rule behind"
}

# ------------------------------------------------------------------ the PortMaster zip
zip_dir="$tmp/zip"
mkdir -p "$zip_dir"
unzip -q -o "$zip" -d "$zip_dir" 2>/dev/null
Z="$zip_dir/skyisles"

zip_layout() {
  local f
  for f in SkyIsles.sh skyisles/skyisles.aarch64 skyisles/port.json skyisles/gameinfo.xml skyisles/README.md \
           skyisles/screenshot.png skyisles/cover.png skyisles/assets/controllers/gamecontrollerdb.txt skyisles/assets/replays/attract-sky.skyr; do
    [ -s "$zip_dir/$f" ] || fail "$f missing from the zip" || return 1
  done
  LC_ALL=C readelf -h "$Z/skyisles.aarch64" | grep -q 'Machine: *AArch64' || fail "skyisles.aarch64 is not aarch64" || return 1
  grep -q '<path>./SkyIsles.sh</path>' "$Z/gameinfo.xml" || fail "gameinfo.xml does not name ./SkyIsles.sh"
}

zip_libraries() { check_libraries "$Z/skyisles.aarch64" "$Z"; }

# PortMaster's launcher conventions: control.txt and get_controls, the device's mapping, the log,
# gptokeyb as the kill switch, pm_platform_helper before and pm_finish after the game.
launcher_script() {
  local s="$zip_dir/SkyIsles.sh" key
  # The mode stored in the zip, as the device will unpack it.
  unzip -Z "$zip" SkyIsles.sh | grep -q '^-rwx' || fail "SkyIsles.sh is not executable in the zip" || return 1
  [ -x "$s" ] || fail "SkyIsles.sh is not executable once unpacked" || return 1
  bash -n "$s" || fail "SkyIsles.sh does not parse (bash -n)" || return 1
  # shellcheck disable=SC2016  # the launcher's own text, $ and all
  for key in 'source "$controlfolder/control.txt"' 'get_controls' '$GPTOKEYB "skyisles.aarch64" &' 'log.txt' \
             'SDL_GAMECONTROLLERCONFIG="$sdl_controllerconfig"' 'pm_platform_helper "$GAMEDIR/skyisles.aarch64"' \
             './skyisles.aarch64 --config "$CONFDIR"'; do
    grep -qF "$key" "$s" || fail "SkyIsles.sh does not use $key" || return 1
  done
  [ "$(grep -v '^ *#' "$s" | grep -v '^ *$' | tail -n 1)" = pm_finish ] || fail "SkyIsles.sh does not end with pm_finish" || return 1
  # PortMaster has had both for years: a launcher that tests for them carries dead code.
  ! grep -q 'type pm_\|command -v pm_\|kill -9\|oga_events' "$s" || fail "SkyIsles.sh keeps a fallback for a PortMaster without pm_finish" || return 1
  if command -v shellcheck >/dev/null 2>&1; then
    shellcheck "$s" || fail "shellcheck finds problems in SkyIsles.sh"
  else
    note "shellcheck is not installed: SkyIsles.sh is checked with bash -n only"
  fi
}

# port.json loads as PortMaster's version 4, with no key outside it, and names the binary's real
# glibc floor; the port asks for no analog stick (the d-pad flies).
port_json_v4() {
  local j="$Z/port.json" floor
  floor=$(bash "$top/tools/delivery/glibc_floor.sh" "$Z/skyisles.aarch64") || return 1
  python3 "$top/tools/delivery/port_json.py" check "$j" --glibc "$floor" || fail "port.json is not PortMaster's version 4" || return 1
  python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["attr"]; sys.exit("analog_1" in a["reqs"] or a["availability"] != "full")' "$j" \
    || fail "port.json asks for an analog stick or is not a full game" || return 1
  note "the aarch64 game needs glibc $floor (highest GLIBC_ symbol version it uses)"
}

# Every file of the zip is one the port means to ship, each under its ceiling, and the zip under
# its own: a file nobody listed (a source tarball, a build's leftovers) or one that grew past its
# size fails here. The figures are about twice today's (the game 0.8 MB, the zip 0.6 MB).
zip_files_and_sizes() {
  unzip -Z -l "$zip" | awk '$1 ~ /^-/ {print $4, $NF}' > "$tmp/zip.list" || fail "unzip cannot list $zip" || return 1
  python3 - "$(stat -c %s "$zip")" "$tmp/zip.list" <<'PY' || fail "the zip's files or sizes are not the port's"
import re, sys
KIB = 1024
ceilings = {   # path in the zip -> bytes
    "SkyIsles.sh": 8 * KIB,
    "skyisles/skyisles.aarch64": 2048 * KIB,
    "skyisles/port.json": 4 * KIB,
    "skyisles/gameinfo.xml": 4 * KIB,
    "skyisles/README.md": 8 * KIB,
    "skyisles/screenshot.png": 400 * KIB,
    "skyisles/cover.png": 400 * KIB,
    "skyisles/assets/controllers/gamecontrollerdb.txt": 1536 * KIB,
    "skyisles/assets/controllers/LICENSE.gamecontrollerdb": 4 * KIB,
    "skyisles/assets/controllers/SOURCE": 4 * KIB,
    "skyisles/assets/replays/attract-sky.skyr": 128 * KIB,
}
licence = re.compile(r"^skyisles/licenses/(LICENSE\.[A-Za-z0-9_.-]+|THIRD-PARTY\.md)$")
zip_bytes, bad, seen = int(sys.argv[1]), [], set()
for line in open(sys.argv[2]).read().splitlines():
    size, path = line.split(None, 1)
    seen.add(path)
    cap = ceilings.get(path, 8 * KIB if licence.match(path) else None)
    if cap is None:
        bad.append(f"{path} ({size} bytes) is not a file the port ships")
    elif int(size) > cap:
        bad.append(f"{path} is {size} bytes, over its ceiling of {cap}")
bad += [f"{p} is missing" for p in ceilings if p not in seen]
if zip_bytes > 2 * 1024 * KIB:
    bad.append(f"the zip is {zip_bytes} bytes, over its ceiling of 2 MiB")
print(f"note: the zip is {zip_bytes} bytes, {len(seen)} files")
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
}

# gameinfo.xml as PortMaster's tools read it (EmulationStation's metadata): well-formed, a gameList
# of one game, only the tags they take, path, name, image and desc filled, path the launcher and
# image a file of the zip.
gameinfo_xml() {
  python3 - "$Z/gameinfo.xml" "$zip_dir" <<'PY' || fail "gameinfo.xml is not PortMaster's"
import os, sys
import xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except ET.ParseError as e:
    sys.exit(f"  gameinfo.xml is not well-formed: {e}")
bad = []
games = list(root)
if root.tag != "gameList" or len(games) != 1 or games[0].tag != "game":
    sys.exit(f"  want <gameList> holding one <game>, got <{root.tag}> holding {[g.tag for g in games]}")
allowed = ("path", "name", "image", "desc", "releasedate", "developer", "publisher", "genre", "players")
tags = {e.tag: (e.text or "").strip() for e in games[0]}
bad += [f"tag <{t}> is not one PortMaster takes" for t in tags if t not in allowed]
bad += [f"<{t}> is missing or empty" for t in ("path", "name", "image", "desc") if not tags.get(t)]
for t in ("path", "image"):
    v = tags.get(t, "")
    if not v.startswith("./") or not os.path.isfile(os.path.join(sys.argv[2], v[2:])):
        bad.append(f"<{t}> {v!r} is not ./ and a file of the zip")
if tags.get("path") != "./SkyIsles.sh":
    bad.append(f"<path> is {tags.get('path')!r}, want ./SkyIsles.sh")
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
}

# The thanks, and where the source is: the commit it was built from, and the address when the
# build had one (the source itself is not in the zip).
port_readme() {
  grep -q '^Thanks to ' "$Z/README.md" || fail "the port's README has no thanks" || return 1
  grep -q '^Source: .*skyisles [^ ]* at commit [0-9a-f]\{7,\}' "$Z/README.md" \
    || fail "the port's README does not name the source's version and commit" || return 1
  ! grep -q '@[A-Z_]*@' "$Z/README.md" || fail "the port's README keeps a placeholder"
}

# The README's controls table (PortMaster's wiki shows it): a Button | Action table under
# "## Controls" naming the buttons a handheld has.
readme_controls() {
  local table b
  table=$(sed -n '/^## Controls/,/^## /p' "$Z/README.md" | grep '^|')
  echo "$table" | head -n 1 | grep -q '^| *Button *| *Action *|' || fail "no | Button | Action | table under ## Controls" || return 1
  [ "$(echo "$table" | tail -n +3 | grep -c '^| *[^ |][^|]*| *[^ |]')" -ge 8 ] \
    || fail "the controls table has fewer than 8 filled rows" || return 1
  for b in 'd-pad' 'L1' 'R2' 'A' 'Start' 'Select'; do
    echo "$table" | grep -q "$b" || fail "the controls table does not name $b" || return 1
  done
}

# make portmaster-pr's layout: ports/skyisles/ with what PortMaster lists beside the launcher and
# the game's folder.
portmaster_pr_layout() {
  local out="$tmp/pr" p f
  p=$(bash "$top/tools/delivery/portmaster_pr.sh" "$zip" "$out") || fail "portmaster_pr.sh failed" || return 1
  [ "$p" = "$out/ports/skyisles" ] || fail "the port's folder is $p, want ports/skyisles" || return 1
  for f in port.json README.md screenshot.png cover.png gameinfo.xml SkyIsles.sh skyisles/skyisles.aarch64 skyisles/licenses/LICENSE.skyisles; do
    [ -s "$p/$f" ] || fail "ports/skyisles/$f missing" || return 1
  done
  [ ! -e "$p/skyisles/port.json" ] || fail "port.json is in the game's folder too" || return 1
  [ -x "$p/SkyIsles.sh" ] || fail "ports/skyisles/SkyIsles.sh is not executable" || return 1
  python3 - "$p/port.json" "$p" <<'PY' || fail "port.json's items are not the folder's contents"
import json, os, sys
info = json.load(open(sys.argv[1]))
sys.exit(sorted(i.rstrip("/") for i in info["items"]) != sorted(e for e in os.listdir(sys.argv[2])
         if e not in ("port.json", "README.md", "screenshot.png", "gameinfo.xml", "cover.png")))
PY
}

screenshot() {
  python3 "$top/tools/delivery/image_check.py" "$Z/screenshot.png" --size 640x480 --min-sky 0.05 --min-ground 0.05 \
    || fail "screenshot.png is not a 640x480 frame of sky and terrain"
}

# The cover (EmulationStation's picture of the port) is a rendered frame too: the aircraft among
# grey floating islands and clouds (which the check counts as sky, so it asks for a picture of
# many colours rather than for ground), not a blank or half-drawn screen.
cover() {
  python3 "$top/tools/delivery/image_check.py" "$Z/cover.png" --size 640x480 --min-sky 0.05 --min-colours 200 \
    || fail "cover.png is not a 640x480 rendered frame"
}

licences() {
  local f
  for f in LICENSE.skyisles LICENSE.SDL2 LICENSE.cglm LICENSE.stb LICENSE.gamecontrollerdb THIRD-PARTY.md; do
    [ -s "$Z/licenses/$f" ] || fail "zip: licenses/$f missing" || return 1
  done
  for f in LICENSE.SDL2 LICENSE.cglm LICENSE.stb LICENSE.gamecontrollerdb THIRD-PARTY.md; do
    [ -s "$D/licenses/$f" ] || fail "dist: licenses/$f missing" || return 1
  done
  grep -q '^MIT License' "$D/LICENSE" || fail "dist: LICENSE is not skyisles' MIT licence"
}

# ------------------------------------------------------------------ the aarch64 game as started
# No desktop display and no DRM device (as on this build machine, or a Pi without the KMS
# overlay): one line that says what is missing, exit 1, no crash.
aarch64_no_display() {
  local err="$tmp/nodisp.err" rc extra=""
  if compgen -G '/dev/dri/card*' >/dev/null; then
    extra="SDL_KMSDRM_DEVICE_INDEX=99"   # this machine has a card: name one that does not exist
    note "this machine has a DRM card: testing with SDL_KMSDRM_DEVICE_INDEX=99 (no such card)"
  fi
  # shellcheck disable=SC2086
  env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER SKYISLES_LOG=warn $extra $runner "$Z/skyisles.aarch64" \
    >/dev/null 2>"$err" </dev/null
  rc=$?
  cat "$err"
  [ "$rc" = 1 ] || fail "exit $rc, want 1" || return 1
  [ "$(wc -l < "$err")" = 1 ] || fail "want exactly one line on stderr" || return 1
  grep -q '^skyisles: no display: .*/dev/dri' "$err" || fail "the line does not say what is missing"
}

# A long headless run, stopped with SIGTERM once booted: the normal shutdown, exit 0.
aarch64_sigterm_clean_exit() {
  local err="$tmp/term.err" pid rc
  # shellcheck disable=SC2086
  env -u SDL_VIDEODRIVER GALLIUM_DRIVER=softpipe SKYISLES_LOG=info $runner "$Z/skyisles.aarch64" \
    --bench-frames 1000000 --size 160x120 --view-radius 2 >/dev/null 2>"$err" </dev/null &
  pid=$!
  for _ in $(seq 1 240); do
    grep -q 'workers; budget' "$err" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  grep -q 'workers; budget' "$err" || { cat "$err"; kill -KILL "$pid" 2>/dev/null; fail "did not boot within 120 s"; return 1; }
  sleep 1
  kill -TERM "$pid"
  for _ in $(seq 1 120); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"
    wait "$pid"
    fail "still running 60 s after SIGTERM"
    return 1
  fi
  wait "$pid"
  rc=$?
  grep 'stopped by' "$err"
  [ "$rc" = 0 ] || { cat "$err"; fail "exit $rc after SIGTERM, want 0"; } || return 1
  grep -q 'stopped by SIGTERM: [1-9][0-9]* workers joined' "$err" || fail "no clean-shutdown line naming the joined workers"
}

. "$top/tests/support/cmocka_lines.sh"
cmocka_run "aarch64 runner: ${runner:-none (this host runs aarch64)}; dist $(basename "$dist"); zip $zip"
