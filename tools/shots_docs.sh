#!/bin/bash
# Remakes the game and renderer screenshots of the README, docs/render.md, docs/game.md,
# docs/flying.md, docs/course.md and docs/replay.md from a build (make -j2 all first). Real frames of
# build/skyisles --screenshot on SDL's offscreen GL; the seed is the game's first one. The home
# island and biome shots are tools/shots_home.sh's, the far ones tools/shots_far.sh's.
#   tools/shots_docs.sh [BUILD_DIR] [OUT_DIR]
# SHOTS=name,name... remakes only those (names as in docs/img without .png).
set -euo pipefail
build=${1:-build} out=${2:-docs/img}
seed=20261129
tmp=$(mktemp -d /tmp/skyisles-shots-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
want() { [ -z "${SHOTS:-}" ] || [[ ",$SHOTS," == *",$1,"* ]]; }
# Shots read no settings file (without --config), so the player's settings never reach them.
shot() {
    local name=$1; shift
    want "$name" || return 0
    echo "shots: $name"
    "$build/skyisles" --offscreen --seed "$seed" --size 640x480 --wait 180 \
        --screenshot "$out/$name.png" "$@" >/dev/null 2>"$tmp/$name.log" ||
        { cat "$tmp/$name.log" >&2; return 1; }
}
# The flight's first frame and the game's screens over it (the spawn by the home island).
shot start
shot hud --show hud
shot menu_panel --show panel
shot island_map --show map
shot world_map --show worldmap
# Over a far island (cell 1, 0 of the first seed: --print-island --start 7910,0,-2250 lists its
# places): the HUD's place line names the place and the island.
shot far_island_hud --weather clear --start 8067,170,-1900
shot game_sound_page --show sound --view-radius 3
# Flying (docs/flying.md): parked on the base camp's strip, and the autopilot's takeoff roll along it.
shot flying_parked --start-on ground
shot flying_takeoff --start-on ground --autopilot --frames 330
# Deliveries: the job board as if stopped at the base, the logbook page (a new one: shots read no config).
shot job_board --show jobs
shot job_hud --show job
shot logbook --show logbook
# The same screens in Japanese (docs/text.md).
shot ja_title --show title --lang ja
shot ja_menu --show menu --lang ja
shot ja_island_map --show map --lang ja
# Terrain from fixed cameras (x, y, z, yaw, pitch in degrees; yaw 0 looks along -z).
shot flight --camera 3000,170,3000,30,-25
shot islands --camera 4000,105,4000,45,-4
shot abyss_descent --camera 5200,70,-800,120,-35
shot abyss --camera -2000,22,2500,200,-5
shot psx_off --camera 3000,170,3000,30,-25 --lines 0 --no-snap --no-15bit --no-dither
# The LOD bands seen from 640 m up, each chunk tinted by its LOD (0 none, 1 yellow, 2 cyan, 3 magenta).
SKYISLES_LOD_TINT=1 shot lod_bands --no-fog --no-aircraft --no-clouds --camera 4000,640,4000,0,-89.9
# The time of day (--time-of-day holds the hour; sunrise and golden hour in clear weather): sunrise in the east, golden hour in the west,
# night by the home island's lighthouse with the aircraft's lights (strobe on at 0.55 s), and the
# dive under an island into the abyss (W8: the sky closes over).
shot dawn --weather clear --time-of-day 06:30 --camera 3000,170,3000,80,-8
shot golden_hour --weather clear --time-of-day 17:00 --camera 4000,105,4000,-70,-4
shot night_lights --time-of-day 22:00 --time 0.55 --camera 215,110,140,28,-6
shot abyss_dive --camera 5185,48,-790,120,-22
# A pool in a cave (docs/world.md, pools in caves): a tube's dip inside a floating island, three blocks deep.
shot water_cave --no-aircraft --camera 3409.5,95.2,3385.5,297,-25
# A storm over the spawn: the dome's low slate cloud, rain and a lightning flash fading (27.85 s).
shot storm --weather storm --time 27.85
# The sky dome alone: looking straight up from above the islands.
shot sky_dome --camera 0,150,0,0,89.9 --no-aircraft --show none --no-clouds
# Courses: a ring of the island tour, a sky course, the tour's results flown by the course pilot.
shot course_tour --show tour
shot course_sky --show sky
shot course_results --show results
# The handheld layouts (docs/handheld.md): the HUD and the pause menu on a 480x320 and a square
# 720x720 screen, and the island tour's results on the 480x320 one.
shot hud_480x320 --show hud --size 480x320
shot hud_720x720 --show hud --size 720x720
shot menu_480x320 --show menu --size 480x320
shot menu_720x720 --show menu --size 720x720
shot course_results_480x320 --show results --size 480x320
# The ghost: an 8 s autopilot flight recorded headless, flown beside the shot's scripted path.
if want ghost; then
    "$build/skyisles" --headless --seed "$seed" --autopilot --seconds 8 \
        --record "$tmp/flight.skyr" >/dev/null 2>&1
    shot ghost --frames 75 --ghost "$tmp/flight.skyr"
fi
