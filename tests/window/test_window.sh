#!/usr/bin/env bash
# The desktop window, from outside: the real game in a real X server (Xvfb) under a small
# EWMH window manager (evilwm; SDL 2's X11 fullscreen is a _NET_WM_STATE_FULLSCREEN request to
# the window manager, which a desktop always has), driven with xdotool as a player would. F11
# fills the screen and the settings file says fullscreen; Alt+Enter gives the window back at
# its old size and place and the file says so; closing the window ends the game cleanly (exit
# 0, settings saved); the next start opens fullscreen (the setting is kept); with the window
# manager gone the game covers the screen itself and gives the window back; a display that is
# not there is one line. Prints cmocka-style lines, which tests/run.sh counts.
# usage: tests/window/test_window.sh [BUILD_DIR]   (default build; `make window-test` installs
# what it needs: tools/deps.sh window)
# The test functions are called by name from the list below:
# shellcheck disable=SC2317
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-${WINDOW_BUILD:-build}}
case "$build" in /*) ;; *) build="$top/$build" ;; esac
game="$build/skyisles"
for tool in Xvfb evilwm xdotool xwininfo; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "skyisles window test: $tool is not installed: run 'bash tools/deps.sh window' (or make window-test)" >&2
    exit 1
  }
done
[ -x "$game" ] || { echo "skyisles window test: no game at $game: run make first" >&2; exit 1; }

tmp=$(mktemp -d /tmp/skyisles-window-XXXXXX)
xvfb_pid=; wm_pid=; game_pid=
cleanup() {
  for p in $game_pid $wm_pid $xvfb_pid; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

SCREEN_W=1024 SCREEN_H=768 WIN_W=640 WIN_H=400
# Xvfb picks a free display itself and writes its number (-displayfd); only built-in fonts (the
# window manager's "fixed"), no TCP.
exec 3> "$tmp/display"
Xvfb -displayfd 3 -screen 0 "${SCREEN_W}x${SCREEN_H}x24" -nolisten tcp -fp built-ins > "$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
exec 3>&-
for _ in $(seq 100); do [ -s "$tmp/display" ] && break; sleep 0.1; done
[ -s "$tmp/display" ] || { echo "skyisles window test: Xvfb did not start: $(tail -n 1 "$tmp/xvfb.log")" >&2; exit 1; }
export DISPLAY=":$(head -n 1 "$tmp/display")"
unset WAYLAND_DISPLAY
evilwm -fn fixed > "$tmp/wm.log" 2>&1 &
wm_pid=$!
for _ in $(seq 100); do xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id' && break; sleep 0.1; done

fail() { echo "  $*"; return 1; }
# wait_for SECONDS CMD...: true once CMD succeeds, polled every 0.1 s.
wait_for() {
  local n=$(( $1 * 10 )); shift
  for _ in $(seq "$n"); do "$@" && return 0; sleep 0.1; done
  return 1
}
win=
# "X Y W H" of the game's window on the screen.
geometry() {
  xwininfo -id "$win" 2>/dev/null | awk '/Absolute upper-left X/ {x=$4} /Absolute upper-left Y/ {y=$4}
    /^  Width:/ {w=$2} /^  Height:/ {h=$2} END {print x, y, w, h}'
}
is_geometry() { [ "$(geometry)" = "$1" ]; }
is_size() { geometry | awk -v w="$1" -v h="$2" '{exit !($3 == w && $4 == h)}'; }
setting() { sed -n 's/^  fullscreen: *\([a-z]*\).*/\1/p' "$tmp/cfg/settings.yaml" 2>/dev/null; }
is_setting() { [ "$(setting)" = "$1" ]; }
game_running() { kill -0 "$game_pid" 2>/dev/null; }
game_log_has() { grep -q "$1" "$tmp/game.log"; }

# Starts the game on the display and waits for its window and its first frame.
start_game() {
  SDL_VIDEODRIVER=x11 SDL_AUDIODRIVER=dummy "$game" --config "$tmp/cfg" --size "${WIN_W}x${WIN_H}" \
    --view-radius 2 --mem 96 > "$tmp/game.log" 2>&1 &
  game_pid=$!
  wait_for 60 game_log_has 'first frame presented' || fail "no first frame: $(tail -n 3 "$tmp/game.log")" || return 1
  win=$(timeout 10 xdotool search --sync --onlyvisible --pid "$game_pid" 2>/dev/null | head -n 1)
  [ -n "$win" ] || fail "no window of the game's process" || return 1
  xdotool windowactivate --sync "$win" >/dev/null 2>&1
  xdotool mousemove --window "$win" 20 20 >/dev/null 2>&1
  return 0
}
key() { xdotool windowfocus --sync "$win" >/dev/null 2>&1; xdotool key "$1"; }
# Closes the window as a player does (the window manager's close: evilwm's Ctrl+Alt+Esc sends
# WM_DELETE_WINDOW) and waits for the game's exit status.
close_game() {
  key ctrl+alt+Escape
  wait_for 20 bash -c "! kill -0 $game_pid 2>/dev/null" || fail "the game did not end after the window closed" || return 1
  wait "$game_pid"
  local rc=$?
  game_pid=
  [ "$rc" -eq 0 ] || fail "exit $rc after the window closed: $(tail -n 3 "$tmp/game.log")"
}

tests=(starts_in_a_window f11_fills_the_screen alt_enter_gives_the_window_back closing_the_window_quits_cleanly
       next_start_is_fullscreen without_a_window_manager_too no_display_is_one_line)
windowed=
starts_in_a_window() {
  start_game || return 1
  wait_for 10 is_size "$WIN_W" "$WIN_H" || fail "the window is $(geometry), not ${WIN_W}x${WIN_H}" || return 1
  windowed=$(geometry)
  echo "  window at $windowed (x y w h) on a ${SCREEN_W}x${SCREEN_H} screen"
}
f11_fills_the_screen() {
  game_running || fail "the game is not running" || return 1
  key F11
  wait_for 10 is_geometry "0 0 $SCREEN_W $SCREEN_H" || fail "after F11 the window is $(geometry)" || return 1
  wait_for 5 is_setting true || fail "settings.yaml says fullscreen: '$(setting)'"
}
alt_enter_gives_the_window_back() {
  game_running || fail "the game is not running" || return 1
  key alt+Return
  wait_for 10 is_geometry "$windowed" || fail "after Alt+Enter the window is $(geometry), not $windowed" || return 1
  wait_for 5 is_setting false || fail "settings.yaml says fullscreen: '$(setting)'" || return 1
  game_running || fail "the game ended"
}
closing_the_window_quits_cleanly() {
  key F11   # fullscreen again: kept for the next start
  wait_for 10 is_geometry "0 0 $SCREEN_W $SCREEN_H" || fail "after F11 the window is $(geometry)" || return 1
  close_game || return 1
  game_log_has 'settings saved' || fail "no 'settings saved' line" || return 1
  is_setting true || fail "settings.yaml says fullscreen: '$(setting)'"
}
next_start_is_fullscreen() {
  start_game || return 1
  wait_for 10 is_geometry "0 0 $SCREEN_W $SCREEN_H" || fail "started as $(geometry) with fullscreen: true" || return 1
  key alt+Return
  wait_for 10 is_size "$WIN_W" "$WIN_H" || fail "after Alt+Enter the window is $(geometry)" || return 1
  close_game || return 1
  is_setting false || fail "settings.yaml says fullscreen: '$(setting)'"
}
# A bare X server (the window manager stopped): SDL's request reaches no one, the game covers
# the screen itself and gives the window back; a stop signal still ends it cleanly.
without_a_window_manager_too() {
  kill "$wm_pid" 2>/dev/null; wait "$wm_pid" 2>/dev/null; wm_pid=
  wait_for 5 bash -c "! xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id'"
  start_game || return 1
  local before
  before=$(geometry)
  is_size "$WIN_W" "$WIN_H" || fail "the window is $before" || return 1
  key F11
  wait_for 10 is_geometry "0 0 $SCREEN_W $SCREEN_H" || fail "after F11 with no window manager: $(geometry)" || return 1
  game_log_has 'no window manager took the fullscreen request' || fail "no line on the fallback" || return 1
  key alt+Return
  wait_for 10 is_geometry "$before" || fail "after Alt+Enter with no window manager: $(geometry), not $before" || return 1
  kill -TERM "$game_pid"
  wait_for 20 bash -c "! kill -0 $game_pid 2>/dev/null" || fail "SIGTERM did not end the game" || return 1
  wait "$game_pid"
  local rc=$?
  game_pid=
  [ "$rc" -eq 0 ] || fail "exit $rc after SIGTERM" || return 1
  game_log_has 'stopped by SIGTERM' || fail "no clean stop line: $(tail -n 2 "$tmp/game.log")"
}
# No X server at the display named: exit 1 and one line that says which display and what to do.
no_display_is_one_line() {
  local out rc
  DISPLAY=:4999 SDL_VIDEODRIVER=x11 timeout 30 "$game" --config "$tmp/cfg" > /dev/null 2> "$tmp/nodisplay.err"
  rc=$?
  out=$(grep -v ': info: ' "$tmp/nodisplay.err")
  [ "$rc" -eq 1 ] || fail "exit $rc, not 1" || return 1
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "not one line: $out" || return 1
  grep -q 'no display.*:4999' <<<"$out" || fail "the line does not name the display: $out"
}

. "$top/tests/support/cmocka_lines.sh"
cmocka_run "Xvfb ${SCREEN_W}x${SCREEN_H} on $DISPLAY under evilwm, the game from $game"
