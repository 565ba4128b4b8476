#!/bin/bash
# Remakes the "getting far" screenshots of the README and docs/game.md from a build (make -j2 all
# first): a flight started 10^12 m out beside one started near the origin, the same kind of
# shot (--start, the chase camera, the HUD with Show position on, so each says where it is).
# Real frames of build/skyisles --screenshot; the seed is the game's first one. It needs a world
# that generates 10^12 m out (64-bit chunk coordinates): without them the far shot is empty sky.
#   tools/shots_far.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
build=${1:-build} out=${2:-docs/img}
seed=20261129
shot() { "$build/skyisles" --offscreen --seed "$seed" --size 640x480 --wait 180 --view-radius 10 --show-position "$@"; }
shot --screenshot "$out/far_origin.png" --start "${NEAR_START:-0,120,500}"
shot --screenshot "$out/far_1e12.png" --start "${FAR_START:-1000000000000,110,1000000000000}"
