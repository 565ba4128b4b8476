#!/bin/bash
# Remakes the home island, biome and water screenshots of docs/world-objects.md, docs/world-meshes.md, docs/island.md and the README from a build
# (make -j2 all first): the island from its spawn, from above, its islandgen map, and a biome
# border. Real frames of build/skyisles --screenshot; the seed is the game's first one.
#   tools/shots_home.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
build=${1:-build} out=${2:-docs/img}
seed=20261129
shot() { "$build/skyisles" --offscreen --seed "$seed" --size 640x480 --wait 180 "$@"; }
# The first frame of a flight: the spawn off the coast, heading for the peak (clear weather: the
# boot's own may hide the island in rain).
shot --screenshot "$out/home_island.png" --weather clear
# From above the south coast, no fog, aircraft, HUD or clouds: the whole island, its peak and crater.
shot --screenshot "$out/home_above.png" --camera 0,400,470,0,-45 --view-radius 24 \
    --no-fog --no-aircraft --show none --no-clouds --weather clear
# The summit close up: the peak's snow thinning out to bare rock, the cairn on top.
shot --screenshot "$out/home_peak.png" --camera 0,190,110,0,-50 --view-radius 12 --no-aircraft --show none --no-clouds
# The same island as the generator sees it: sites, types, paths.
"$build/islandgen" --seed "$seed" --map "$out/home_map.png" >/dev/null
# A desert / temperate border of the archipelago (the one tests/test_render_biome.c finds at
# x -18272, z 16): sand and banded red strata on the right, the blend into grass on the left.
shot --screenshot "$out/biomes.png" --camera -18230,165,90,10,-22 --view-radius 16 --no-aircraft --show none
# On short final to the base camp's airstrip (60 m before threshold a of strip 0, on its axis,
# over the headland north of it): the strip's threshold bars and dashes, its PAPI beside it.
shot --screenshot "$out/approach_strip.png" --camera -254.9,103,-86.6,168.8,-7 --fov 45 --no-aircraft --show none \
    --weather clear
# Water: seed 14's lakeshore, its jetty at the lake's shore; the game seed's first waterfall pouring
# off Cavern Cliff's pool over the edge, level with its lip.
"$build/skyisles" --offscreen --seed 14 --size 640x480 --wait 180 --screenshot "$out/water_lake_jetty.png" \
    --camera -212,138,100,0,-32 --view-radius 8 --no-aircraft --show none --weather clear
shot --screenshot "$out/water_falls.png" --camera 240,95,310,-17,-12 --view-radius 8 --no-aircraft --show none --weather clear
