#!/bin/sh
# main-job.sh BUILD_DIR - the main job of `make`: check models/two_mass.nsm,
# generate its simulator, build and run it, print its events and energy
# summary, and draw the plots.  Run from the repository root after building.
set -eu
build=${1:?usage: scripts/main-job.sh BUILD_DIR}
nsmc=$build/nsmc
model=models/two_mass.nsm
out=out/two_mass

echo "== nsmc --check $model"
"$nsmc" --check "$model"
echo "ok"

echo "== nsmc $model -o $build/two_mass.c"
"$nsmc" "$model" -o "$build/two_mass.c"
echo "wrote $build/two_mass.c ($(wc -l < "$build/two_mass.c") lines; generated/two_mass.c is the committed copy)"

echo "== nsmc run $model --out-dir $out"
"$nsmc" run "$model" --out-dir "$out"
