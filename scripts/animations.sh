#!/bin/sh
# animations.sh [BUILD_DIR] - the animated GIFs of docs/img: Newton's cradle
# (models/cradle5.nsm), a spinning disc between two walls
# (models/disc_walls.nsm) and the two masses (models/two_mass.nsm), each
# written by `nsmc run MODEL --animate -- --fps 12` and copied to
# docs/img/NAME.gif.  To look at one frame without a browser:
#     python3 tests/plot/gif.py docs/img/NAME.gif K frame.png
# Run from the repository root after building (BUILD_DIR defaults to build).
set -eu
build=${1:-build}
nsmc=$build/nsmc
work=${TMPDIR:-/tmp}/nsm-animations.$$
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work" docs/img

for model in cradle5 disc_walls two_mass; do
    echo "== nsmc run models/$model.nsm --animate -- --fps 12"
    "$nsmc" run "models/$model.nsm" --out-dir "$work/$model" --no-plot --animate -- --fps 12 \
        > "$work/$model.log" 2>&1 || { cat "$work/$model.log"; exit 1; }
    grep 'animation:' "$work/$model.log"
    cp "$work/$model/animation.gif" "docs/img/$model.gif"
    python3 tests/plot/gif.py "docs/img/$model.gif"
done
