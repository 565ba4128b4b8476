#!/usr/bin/env bash
# Installs the skyisles boot-to-sim unit: the system user "skyisles", the unit (tty1 instead of the
# login prompt) with ExecStart pointing at the game, enabled for the next boot, and the polkit
# rule that lets that user power off and reboot from the game's menu.
# usage: install-service.sh [--root DIR] [--no-enable] [BIN]
#        install-service.sh [--root DIR] --uninstall   (the unit and the rule go; the user and
#                     its settings in /var/lib/skyisles stay)
#   BIN          the installed game, an absolute path (default: skyisles beside this script, as
#                laid out by the dist tarball)
#   --root DIR   install into the system image at DIR instead of this system (no running
#                systemd needed: the unit is enabled with systemctl --root)
#   --no-enable  install the user and the unit, do not enable it
set -eu
polkit_rule=/etc/polkit-1/rules.d/50-skyisles.rules

here=$(cd "$(dirname "$0")" && pwd)
root=""
enable=1
uninstall=0
bin=""
while [ $# -gt 0 ]; do
  case "$1" in
    --root) root=${2%/}; shift 2 ;;
    --no-enable) enable=0; shift ;;
    --uninstall) uninstall=1; shift ;;
    -h|--help) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 0 ;;
    -*) echo "install-service.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) bin=$1; shift ;;
  esac
done
if [ -z "$root" ] && [ "$(id -u)" != 0 ]; then
  echo "install-service.sh: run as root (sudo): it changes system units, users and polkit rules" >&2
  exit 1
fi

if [ "$uninstall" = 1 ]; then
  unit="$root/etc/systemd/system/skyisles.service"
  if command -v systemctl >/dev/null 2>&1 && [ -e "$unit" ]; then
    if [ -n "$root" ]; then systemctl --root="$root" disable skyisles.service; else systemctl disable --now skyisles.service; fi
  fi
  rm -f "$unit" "$root$polkit_rule"
  [ -n "$root" ] || ! command -v systemctl >/dev/null 2>&1 || systemctl daemon-reload
  echo "skyisles: removed the unit and $polkit_rule (the user skyisles and /var/lib/skyisles are kept)"
  exit 0
fi

[ -n "$bin" ] || bin="$here/skyisles"
case "$bin" in
  /*) ;;
  *) echo "install-service.sh: give the game as an absolute path (the unit starts it from /): $bin" >&2; exit 2 ;;
esac
if [ ! -x "$root$bin" ]; then
  echo "install-service.sh: no game at $root$bin: install it first (make install) or give its path" >&2
  exit 1
fi
# The user, from the sysusers.d line where systemd has the tool, with useradd otherwise.
mkdir -p "$root/etc/sysusers.d"
install -m 0644 "$here/skyisles.sysusers" "$root/etc/sysusers.d/skyisles.conf"
if command -v systemd-sysusers >/dev/null 2>&1; then
  if [ -n "$root" ]; then
    systemd-sysusers --root="$root" "$root/etc/sysusers.d/skyisles.conf"
  else
    systemd-sysusers /etc/sysusers.d/skyisles.conf
  fi
elif ! grep -q '^skyisles:' "$root/etc/passwd" 2>/dev/null; then
  useradd ${root:+--root "$root"} --system --home-dir /var/lib/skyisles --no-create-home \
    --shell /usr/sbin/nologin --comment "skyisles flight simulator" skyisles
fi

# The unit, with ExecStart at the game (its arguments kept).
unit_dir="$root/etc/systemd/system"
mkdir -p "$unit_dir"
sed "s|^ExecStart=[^ ]*|ExecStart=$bin|" "$here/skyisles.service" > "$unit_dir/skyisles.service.new"
chmod 0644 "$unit_dir/skyisles.service.new"
mv -f "$unit_dir/skyisles.service.new" "$unit_dir/skyisles.service"
echo "skyisles: installed $unit_dir/skyisles.service (ExecStart=$bin, user skyisles)"

# Power off and Reboot in the game's menu go through logind; polkit lets this user alone ask.
mkdir -p "$root$(dirname "$polkit_rule")"
install -m 0644 "$here/skyisles-power.rules" "$root$polkit_rule.new"
mv -f "$root$polkit_rule.new" "$root$polkit_rule"
echo "skyisles: installed $polkit_rule (the skyisles user may power off and reboot)"

[ "$enable" = 1 ] || exit 0
if ! command -v systemctl >/dev/null 2>&1; then
  echo "skyisles: no systemctl here: enable it on the target with 'systemctl enable skyisles.service'" >&2
  exit 1
fi
if [ -n "$root" ]; then
  systemctl --root="$root" enable skyisles.service
else
  systemctl daemon-reload
  systemctl enable skyisles.service
  echo "skyisles: starts on tty1 at the next boot; now: sudo systemctl start skyisles (journalctl -u skyisles for its log)"
fi
