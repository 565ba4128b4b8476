#!/bin/bash
# Checks the call directions between src/world's objects (after make): the parameter table
# (params.o) calls no generator code but the cave kinds' rows, reach.o calls nothing of the
# streamer, and no two files call each other except the one known pair (voxels/props).
#   tools/check_world_calls.sh [OBJ_DIR]   (default build/obj/src/world)
set -euo pipefail
dir=${1:-build/obj/src/world}
declare -A owner
for o in "$dir"/*.o; do
    for s in $(nm -g --defined-only "$o" | awk '{print $3}'); do owner[$s]=$(basename "$o" .o); done
done
calls() {   # the world files object $1 calls, one "file symbol" a line
    for s in $(nm -u "$dir/$1.o" | awk '{print $2}'); do
        o=${owner[$s]:-}
        [ -n "$o" ] && [ "$o" != "$1" ] && echo "$o $s"
    done
    return 0
}
fail=0
bad=$(calls params | grep -v -E '^caves cave_param_(at|count)$' || true)
if [ -n "$bad" ]; then echo "params.o calls into the generator: $bad"; fail=1; fi
bad=$(calls reach | grep -E '^stream' || true)
if [ -n "$bad" ]; then echo "reach.o calls the streamer: $bad"; fail=1; fi
declare -A edge
for o in "$dir"/*.o; do
    b=$(basename "$o" .o)
    for t in $(calls "$b" | awk '{print $1}' | sort -u); do edge[$b:$t]=1; done
done
for e in "${!edge[@]}"; do
    a=${e%%:*} b=${e##*:}
    [[ "$a" < "$b" ]] || continue
    [ -n "${edge[$b:$a]:-}" ] || continue
    [ "$a:$b" = "props:voxels" ] && continue
    echo "$a.o and $b.o call each other"
    fail=1
done
[ $fail = 0 ] && echo "world calls: one way (params a leaf, reach below the streamer)"
exit $fail
