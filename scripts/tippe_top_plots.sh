#!/bin/sh
# tippe_top_plots.sh [BUILD_DIR] - docs/img/tippe_top.png: the tippe top
# (models/tippe_top.nsm) run by `nsmc run` with the columns of the figure,
# then plotted by scripts/tippe_top.gp: theta(t), the two gaps, the ball's
# slip and the contact points' paths on the floor.
# Run from the repository root after building (BUILD_DIR defaults to build).
set -eu
build=${1:-build}
nsmc=$build/nsmc
work=${TMPDIR:-/tmp}/nsm-tippe-top.$$
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work" docs/img
model=models/tippe_top.nsm
sed 's/^output .*/output every 1 ms: T.theta, ball.gap, stem.gap, ball.x, ball.y, stem.x, stem.y, ball_friction.slip/' \
    "$model" > "$work/tippe_top.nsm"
rc=0
"$nsmc" run "$work/tippe_top.nsm" --out-dir "$work/out" --no-plot > "$work/log" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
    cat "$work/log"
    exit 1
fi
grep -E 'events:|samples:|failed' "$work/log" || true
gnuplot -e "data='$work/out/trajectory.csv'; out='docs/img/tippe_top.png'" scripts/tippe_top.gp
echo "docs/img/tippe_top.png"
