#!/usr/bin/env bash
# Boots the aarch64 dist as a Pi would run it: a small Debian arm64 system (mmdebstrap, cached)
# with the dist in /opt/skyisles and its unit installed by the dist's own install-service.sh,
# under qemu-system-aarch64 -M virt with a virtio-gpu display. Passes when the sim, started by
# the unit on tty1, logs its first KMSDRM frame on the serial console, a QMP screendump shows sky
# and terrain, a power-button shutdown stops it cleanly (SIGTERM, exit 0), Quit in the game's menu
# brings the login prompt back, and Power off in the menu shuts the machine down (logind, allowed
# for the unit's user by the polkit rule install-service.sh installs), the unit ending with exit 0.
# usage: tools/delivery/boot_test.sh DIST_TARBALL WORKDIR
# Environment: BOOT_SUITE (bookworm), BOOT_MIRROR (deb.debian.org), BOOT_TIMEOUT (seconds to the
# first frame, 900), BOOT_SIZE (display WxH, 1024x576), BOOT_SHOT (also copy the PNG here).
set -eu
dist=$(realpath "${1:?usage: boot_test.sh DIST_TARBALL WORKDIR}")
mkdir -p "${2:?usage: boot_test.sh DIST_TARBALL WORKDIR}"
work=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
suite=${BOOT_SUITE:-bookworm}
mirror=${BOOT_MIRROR:-http://deb.debian.org/debian}
first_timeout=${BOOT_TIMEOUT:-900}
size=${BOOT_SIZE:-1024x576}
t0=$(date +%s)
say() { echo "boot-test: $*"; }
die() { echo "boot-test: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (sudo make boot-test): the image keeps root-owned files and arm64 emulation is registered system-wide"
for t in mmdebstrap qemu-system-aarch64 mkfs.ext4 python3; do
  command -v "$t" >/dev/null 2>&1 || die "needs $t (tools/deps.sh boot installs it)"
done

# mmdebstrap runs the arm64 packages' scripts through qemu-user: binfmt_misc must know arm64.
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc \
    || die "cannot mount binfmt_misc: arm64 programs cannot run here"
  [ -r /usr/lib/binfmt.d/qemu-aarch64.conf ] || die "no /usr/lib/binfmt.d/qemu-aarch64.conf: install qemu-user-static"
  grep -v '^#' /usr/lib/binfmt.d/qemu-aarch64.conf > /proc/sys/fs/binfmt_misc/register \
    || die "could not register qemu-aarch64 with binfmt_misc"
  say "registered qemu-aarch64 with binfmt_misc"
fi

# ------------------------------------------------------------------ the base system (cached)
# What the game needs from the system (SDL2 with KMSDRM, Mesa's EGL/GLES and its software KMS
# driver, udev for /dev/dri/by-path and the input devices), a kernel, logind + dbus so the power
# button shuts down cleanly, and polkitd, which lets the unit's user power off from the menu.
packages="systemd-sysv,udev,kmod,dbus,polkitd,linux-image-arm64,libsdl2-2.0-0,libgles2,libegl1,libegl-mesa0,libgl1-mesa-dri,libgbm1"
base="$work/base-$suite-arm64"
# The initramfs holds only what this VM boots from (virtio disk, ext4): with the default
# MODULES=most, mkinitramfs copies about a thousand modules, each through emulated tools, which
# takes the better part of an hour here.
cat > "$work/initramfs-hook" <<'HOOK'
#!/bin/sh
# The virtual machine's disk and file system, loaded early (the initramfs is MODULES=list).
[ "$1" = prereqs ] && exit 0
. /usr/share/initramfs-tools/hook-functions
for m in virtio_pci virtio_blk ext4; do force_load "$m"; done
HOOK
key="$suite $mirror $packages $(cksum < "$work/initramfs-hook")"
if [ -d "$base/boot" ] && [ "$(cat "$base.key" 2>/dev/null)" = "$key" ]; then
  say "base system: $base (cached)"
else
  say "building the base system: Debian $suite arm64 with $packages (several minutes, once)"
  s=$(date +%s)
  rm -rf "$base" "$base.tmp" "$base.key"
  # The hooks run in mmdebstrap's shell with the image root as $1.
  # shellcheck disable=SC2016
  mmdebstrap --quiet --architectures=arm64 --variant=minbase --format=directory --include="$packages" \
    --essential-hook='mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/etc/initramfs-tools/hooks"' \
    --essential-hook='echo MODULES=list > "$1/etc/initramfs-tools/conf.d/skyisles-vm"' \
    --essential-hook="install -m 0755 '$work/initramfs-hook' \"\$1/etc/initramfs-tools/hooks/skyisles-vm\"" \
    --customize-hook='echo skyisles-pi > "$1/etc/hostname"' \
    --customize-hook='echo "/dev/vda / ext4 rw,relatime 0 1" > "$1/etc/fstab"' \
    "$suite" "$base.tmp" "$mirror" || die "mmdebstrap failed (network? mirror $mirror?)"
  mv "$base.tmp" "$base"
  echo "$key" > "$base.key"
  say "base system built in $(( $(date +%s) - s )) s"
fi

# ------------------------------------------------------------------ this run's disk
s=$(date +%s)
root="$work/rootfs"
rm -rf "$root"
mkdir -p "$root"
cp -a "$base/." "$root/"
mkdir -p "$root/opt"
tar -C "$root/opt" -xzf "$dist"
bash "$root/opt/skyisles/install-service.sh" --root "$root" /opt/skyisles/skyisles
kernel=$(find "$root/boot" -name 'vmlinuz-*' | sort | tail -n 1)
initrd=$(find "$root/boot" -name 'initrd.img-*' | sort | tail -n 1)
if [ -z "$kernel" ] || [ -z "$initrd" ]; then die "no kernel or initrd in the image's /boot"; fi
cp "$kernel" "$work/vmlinuz"
cp "$initrd" "$work/initrd.img"
disk="$work/disk.img"
rm -f "$disk"
truncate -s 2G "$disk"
mkfs.ext4 -q -F -L skyisles-root -d "$root" "$disk"
rm -rf "$root"
say "disk with the dist and the unit ready in $(( $(date +%s) - s )) s"

# ------------------------------------------------------------------ boot
qmp="$work/qmp.sock"
rm -f "$work"/serial*.log "$qmp" "$work"/screendump*.png "$work"/console*.png
xres=${size%x*}
yres=${size#*x}
qemu=""
cleanup() { [ -z "$qemu" ] || kill "$qemu" 2>/dev/null || true; }
trap cleanup EXIT

# Powers the VM on with serial log $1 and waits for the sim's first KMSDRM frame; sets $first
# (seconds from power-on). console=ttyAMA0 puts the kernel and the (forwarded) journal on the
# serial port; tty1 is the virtio-gpu display, where the unit runs the sim.
boot() {
  serial=$1
  rm -f "$qmp"
  qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 2 -m 2048 \
    -kernel "$work/vmlinuz" -initrd "$work/initrd.img" \
    -append "root=/dev/vda rw console=ttyAMA0 systemd.journald.forward_to_console=1 loglevel=4" \
    -drive if=none,file="$disk",format=raw,id=root -device virtio-blk-pci,drive=root \
    -device virtio-gpu-pci,xres="$xres",yres="$yres" -device virtio-keyboard-pci \
    -display none -serial file:"$serial" -qmp unix:"$qmp",server=on,wait=off -nic none -no-reboot &
  qemu=$!
  boot_start=$(date +%s)
  say "booting (qemu pid $qemu; serial log $serial)"
  local waited=0
  until grep -q 'first frame presented on KMSDRM' "$serial" 2>/dev/null; do
    kill -0 "$qemu" 2>/dev/null || { tail -n 40 "$serial"; die "qemu ended before the first frame"; }
    if [ "$waited" -ge "$first_timeout" ]; then
      grep -a 'skyisles' "$serial" | tail -n 20
      die "no first frame after $first_timeout s"
    fi
    sleep 5
    waited=$((waited + 5))
  done
  first=$(( $(date +%s) - boot_start ))
}

# The power button, then waits for the VM to power off.
power_off() {
  python3 "$here/qmp.py" "$qmp" powerdown || true
  for _ in $(seq 1 60); do
    kill -0 "$qemu" 2>/dev/null || { qemu=""; return 0; }
    sleep 5
  done
  python3 "$here/qmp.py" "$qmp" quit || true
  die "the system did not power off within 5 minutes of the power button"
}

# One key on the VM's keyboard, then time for the sim (under a frame a second here) to read it.
key() {
  python3 - "$qmp" "$1" <<'EOF' || die "could not send the key $1"
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
f = s.makefile("r")
f.readline()
for msg in ({"execute": "qmp_capabilities"},
            {"execute": "send-key", "arguments": {"keys": [{"type": "qcode", "data": sys.argv[2]}], "hold-time": 300}}):
    s.sendall((json.dumps(msg) + "\n").encode())
    while True:
        r = json.loads(f.readline())
        if "return" in r or "error" in r:
            break
    if "error" in r:
        sys.exit(1)
EOF
  sleep 10
}

unit_stopped_cleanly() {
  ! grep -aqE 'skyisles\.service: (Failed with result|Main process exited, code=(killed|dumped))' "$1" \
    && grep -aq 'skyisles\.service: Deactivated successfully' "$1"
}

# 1. The first frame, a picture of sky and terrain, and SIGTERM from the power button.
boot "$work/serial.log"
serial="$work/serial.log"
first1=$first
say "first frame after $first s from power-on:"
grep -a 'skyisles' "$serial" | grep -a 'DRM card\|KMSDRM\|first frame' | sed 's/^/    /'

# The world streams in behind the first frame: shots until one shows sky and terrain.
shot="$work/screendump.png"
ok=0
for attempt in $(seq 1 20); do
  sleep 15
  python3 "$here/qmp.py" "$qmp" screendump "$work/screendump-raw" || continue
  if python3 "$here/image_check.py" "$work/screendump-raw" --size "$size" --min-sky 0.05 --min-ground 0.05 \
       --png "$shot"; then
    ok=1
    break
  fi
  say "(shot $attempt: not yet sky and terrain)"
done
rm -f "$work/screendump-raw"
[ "$ok" = 1 ] || die "no screendump showed sky and terrain within 5 minutes of the first frame ($shot is the last)"
shown=$(( $(date +%s) - boot_start ))

# systemd stops the unit with SIGTERM; the sim must leave cleanly.
power_off
grep -a 'stopped by SIGTERM' "$serial" | sed 's/^/    /' || true
grep -aq 'stopped by SIGTERM: [1-9][0-9]* workers joined' "$serial" \
  || die "no clean stop of the sim in the serial log (want 'stopped by SIGTERM: N workers joined')"
unit_stopped_cleanly "$serial" || die "the unit did not stop cleanly (see $serial)"
[ -z "${BOOT_SHOT:-}" ] || cp "$shot" "$BOOT_SHOT"
say "power-off: the sim stopped by SIGTERM, cleanly"

# 2. Quit from the game's own menu: the login prompt must come back on tty1. The keys are the
# ones the title and the pause menu read: Enter flies, Esc pauses, up from Resume wraps to Quit
# (the last line, whatever else the menu holds).
boot "$work/serial-quit.log"
serial="$work/serial-quit.log"
sleep 20
for k in ret esc up ret; do key "$k"; done
for _ in $(seq 1 24); do
  grep -aq 'Started getty@tty1.service' "$serial" && break
  sleep 5
done
grep -aq 'Started getty@tty1.service' "$serial" || die "no login prompt on tty1 within 2 minutes of quitting (see $serial)"
unit_stopped_cleanly "$serial" || die "the quit did not end the unit cleanly (see $serial)"
sleep 5
python3 "$here/qmp.py" "$qmp" screendump "$work/console-raw" || die "no screendump of the console"
# The text console: nearly all dark, a handful of colours (the sim's frames have hundreds).
python3 "$here/image_check.py" "$work/console-raw" --png "$work/console.png" --min-colours 2 --max-colours 16 \
  --min-dark 0.9 | sed 's/^/    /'
[ "${PIPESTATUS[0]}" = 0 ] || die "tty1 does not show the text console after the quit ($work/console.png)"
rm -f "$work/console-raw"
power_off
say "quit: the unit ended cleanly and the login prompt is back on tty1 ($work/console.png)"

# 3. Power off from the game's menu (the unit runs it with --boot-service): Esc pauses, up three
# times from Resume is Power off (above Reboot and Quit), Enter. The game quits (settings saved),
# asks logind, and the machine shuts down: the unit ends with exit 0 and QEMU stops.
boot "$work/serial-power.log"
serial="$work/serial-power.log"
sleep 20
for k in ret esc up up up ret; do key "$k"; done
for _ in $(seq 1 36); do
  kill -0 "$qemu" 2>/dev/null || break
  sleep 5
done
if kill -0 "$qemu" 2>/dev/null; then
  grep -a 'skyisles' "$serial" | tail -n 20
  python3 "$here/qmp.py" "$qmp" quit || true
  die "the machine did not power off within 3 minutes of Power off in the menu (see $serial)"
fi
qemu=""
trap - EXIT
grep -a 'power off: settings saved\|skyisles.service: Deactivated\|reboot: Power down' "$serial" | sed 's/^/    /'
grep -aq 'skyisles: power off: settings saved, asking the system' "$serial" || die "the game did not ask to power off (see $serial)"
unit_stopped_cleanly "$serial" || die "the unit did not end cleanly on Power off (see $serial)"
grep -aq 'reboot: Power down' "$serial" || die "no clean power-down in the kernel log (see $serial)"
say "power off from the menu: the unit ended cleanly and the machine powered down"

say "passed: first KMSDRM frame $first1 s after power-on, sky and terrain at $shown s, clean stop on" \
    "power-off, login prompt back after a quit, Power off from the menu; $(( $(date +%s) - t0 )) s in all; screendump $shot"
