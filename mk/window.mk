# skyisles desktop window check (included by the Makefile): the real game in a real X server.
#
#   make window-test    installs what it needs (tools/deps.sh window: Xvfb, xdotool, xwininfo,
#                       evilwm), builds the game and runs tests/window/test_window.sh: F11 and
#                       Alt+Enter toggle fullscreen from outside, kept in the settings, with and
#                       without a window manager (docs/game.md, the window)
#
# It is also a stage of make test (a few seconds: three starts of the game at 640x400 under
# Xvfb), after the native build, whose game it drives.

TEST_STAGE_NAMES += window
STAGE_LABEL_window := window
STAGE_DIR_window := build
STAGE_AFTER_window := native
STAGE_MAKE_window :=
STAGE_PROGS_window := tests/window/test_window.sh
STAGE_ENV_window := WINDOW_BUILD=build
TEST_BUDGET_window ?= 20

.PHONY: window-test
window-test:
	@bash tools/deps.sh native window
	@$(MAKE) --no-print-directory $(BUILD)/skyisles
	@bash tests/window/test_window.sh $(BUILD)
