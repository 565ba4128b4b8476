#!/usr/bin/env bash
# Installs the build dependencies that are missing, and only those, with apt-get.
# usage: tools/deps.sh [native] [cross] [fuzz] [delivery] [sysroot] [boot] [window]
#   fuzz: what `make fuzz` needs (clang with libFuzzer, libyaml); make test never asks for it.
#   delivery: what dist, portmaster and make test's delivery stage use; sysroot: make sysroot and
#   the release build against it (mmdebstrap and arch-test, the cross compiler); boot: make
#   boot-test (a Debian arm64 image made by mmdebstrap with arm64 emulation, booted under
#   qemu-system-aarch64, its unit installed with systemctl --root); window: make window-test and
#   make test's window stage (an X server without a screen, a small window manager, xdotool)
set -u
want_native=0; want_cross=0; want_fuzz=0; want_delivery=0; want_sysroot=0; want_boot=0; want_window=0
for a in "$@"; do
  case "$a" in
    native) want_native=1 ;; cross) want_cross=1 ;; fuzz) want_fuzz=1 ;; delivery) want_delivery=1 ;;
    sysroot) want_sysroot=1 ;; boot) want_boot=1 ;; window) want_window=1 ;;
  esac
done
[ "$(uname -m)" = "x86_64" ] || want_cross=0   # the aarch64 cross stage is for x86_64 desktops

missing=()
need() { # need KIND ARG PACKAGE
  case "$1" in
    pc)   env -u PKG_CONFIG_LIBDIR pkg-config --exists "$2" 2>/dev/null || missing+=("$3") ;;
    cmd)  command -v "$2" >/dev/null 2>&1 || missing+=("$3") ;;
    file) compgen -G "$2" >/dev/null || missing+=("$3") ;;
  esac
}
need_arm() { # need_arm PCNAME PACKAGE
  PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig pkg-config --exists "$1" 2>/dev/null \
    || missing+=("$2")
}

if [ "$want_native" = 1 ]; then
  need cmd gcc gcc
  need cmd make make
  need cmd pkg-config pkg-config
  need pc sdl2 libsdl2-dev
  need pc glesv2 libgles-dev
  need pc egl libegl-dev
  need pc cglm libcglm-dev
  need pc yaml-0.1 libyaml-dev
  need pc cmocka libcmocka-dev
  need file '/usr/include/stb/stb_image_write.h' libstb-dev
  need file '/usr/lib/*/dri/swrast_dri.so' libgl1-mesa-dri
  need file '/usr/lib/*/libEGL_mesa.so.0' libegl-mesa0
  need cmd glslangValidator glslang-tools
  need file '/usr/share/fonts/truetype/misaki/misaki_gothic.ttf' fonts-misaki   # the Japanese glyphs (mk/text.mk)
  need cmd python3 python3     # tools/lint: function lengths, call circles
  need cmd nm binutils
fi
if [ "$want_cross" = 1 ]; then
  need cmd aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
  need cmd qemu-aarch64 qemu-user
  need_arm sdl2 libsdl2-dev:arm64
  need_arm glesv2 libgles-dev:arm64
  need_arm egl libegl-dev:arm64
  need_arm cglm libcglm-dev:arm64
  need_arm yaml-0.1 libyaml-dev:arm64
  need_arm cmocka libcmocka-dev:arm64
  need file '/usr/lib/aarch64-linux-gnu/dri/swrast_dri.so' libgl1-mesa-dri:arm64
  need file '/usr/lib/aarch64-linux-gnu/libEGL_mesa.so.0' libegl-mesa0:arm64
fi

if [ "$want_fuzz" = 1 ]; then
  need cmd pkg-config pkg-config
  need cmd clang clang
  # libFuzzer's runtime; Debian's clang only recommends it.
  need file '/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a' libclang-rt-dev
  need pc yaml-0.1 libyaml-dev
fi
if [ "$want_delivery" = 1 ]; then
  need cmd zip zip
  need cmd unzip unzip
  need cmd python3 python3
  need cmd readelf binutils
  need cmd systemd-analyze systemd
fi
if [ "$want_sysroot" = 1 ] || [ "$want_boot" = 1 ]; then
  need cmd mmdebstrap mmdebstrap
  # mmdebstrap asks arch-test whether this machine can run arm64 programs ("E: install arch-test
  # for foreign architecture support" otherwise), also for the extract variant's checks.
  need cmd arch-test arch-test
  [ "$(uname -m)" = aarch64 ] || need cmd aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
fi
if [ "$want_boot" = 1 ]; then
  need cmd qemu-system-aarch64 qemu-system-arm
  need file '/usr/lib/binfmt.d/qemu-aarch64.conf' qemu-user-static
  need cmd mkfs.ext4 e2fsprogs
  need cmd python3 python3
  # install-service.sh enables the unit in the image (systemctl --root) and adds its user.
  need cmd systemctl systemd
  need cmd systemd-sysusers systemd
  need cmd zip zip
  need cmd unzip unzip
  need cmd readelf binutils
fi
if [ "$want_window" = 1 ]; then
  need cmd Xvfb xvfb
  need cmd xdotool xdotool
  need cmd xwininfo x11-utils    # xwininfo, xprop
  # SDL 2's X11 fullscreen is a request to the window manager: evilwm answers it (EWMH).
  need cmd evilwm evilwm
fi

[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "skyisles: missing build dependencies (${missing[*]}) and no apt-get here: install them with your package manager, then run make again" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "skyisles: missing packages (${missing[*]}): run 'make deps' as root or install sudo" >&2
    exit 1
  fi
fi
echo "skyisles: installing missing packages: ${missing[*]}"
if [ "$want_cross" = 1 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  $SUDO dpkg --add-architecture arm64 || exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || { echo "skyisles: apt-get update failed: check the network or your apt sources" >&2; exit 1; }
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
  || { echo "skyisles: apt-get install ${missing[*]} failed: see the messages above" >&2; exit 1; }
echo "skyisles: dependencies installed"
