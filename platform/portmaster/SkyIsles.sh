#!/bin/bash
# skyisles on a PortMaster handheld: finds PortMaster's control folder, takes the device's
# controller mapping, keeps settings in the port's conf/ folder and the log in log.txt, and runs
# gptokeyb as the kill switch (the device's hotkey combination ends the game).

XDG_DATA_HOME=${XDG_DATA_HOME:-$HOME/.local/share}

if [ -d "/opt/system/Tools/PortMaster/" ]; then
  controlfolder="/opt/system/Tools/PortMaster"
elif [ -d "/opt/tools/PortMaster/" ]; then
  controlfolder="/opt/tools/PortMaster"
elif [ -d "$XDG_DATA_HOME/PortMaster/" ]; then
  controlfolder="$XDG_DATA_HOME/PortMaster"
else
  controlfolder="/roms/ports/PortMaster"
fi

# control.txt sets $directory, $ESUDO, $GPTOKEYB, $CFW_NAME and get_controls, which sets
# $sdl_controllerconfig and $DEVICE_ARCH for this device.
# shellcheck source=/dev/null
source "$controlfolder/control.txt"
# shellcheck source=/dev/null
[ -f "${controlfolder}/mod_${CFW_NAME}.txt" ] && source "${controlfolder}/mod_${CFW_NAME}.txt"
get_controls

# shellcheck disable=SC2154  # $directory comes from control.txt
GAMEDIR="/$directory/ports/skyisles"
CONFDIR="$GAMEDIR/conf"
mkdir -p "$CONFDIR"
cd "$GAMEDIR" || exit 1

# Everything the game and this script print, fresh for each start.
: > "$GAMEDIR/log.txt" && exec > >(tee "$GAMEDIR/log.txt") 2>&1

# The device's mapping for its built-in controls is applied last, over the bundled database.
# shellcheck disable=SC2154  # $sdl_controllerconfig comes from get_controls
export SDL_GAMECONTROLLERCONFIG="$sdl_controllerconfig"

# gptokeyb without a mapping file is only the kill switch: the game reads the controls itself.
# shellcheck disable=SC2154  # $GPTOKEYB comes from control.txt
$GPTOKEYB "skyisles.aarch64" &
pm_platform_helper "$GAMEDIR/skyisles.aarch64"

# Settings, the player's own gamecontrollerdb.txt and screenshots live in the port's conf/ folder.
./skyisles.aarch64 --config "$CONFDIR"
echo "skyisles: exit status $?"

# PortMaster's own clean-up: stops gptokeyb, gives the console and the display back.
pm_finish
