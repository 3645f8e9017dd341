#!/usr/bin/env python3
"""Benchmark of nsmc continue (not a test: nothing is asserted).

    python3 bench/continuation_bench.py [--nsmc PATH] [--points 1000] [--reps 3]

Follows the impacting period-1 branch of the forced impact oscillator with a
clearance (tests/studies/impact_clearance.nsm, exact) from omega = 1.3
downward, through its period doubling and its grazing onto the orbits
without impacts, for --points points (arclength step 0.004 fixed), and prints the median wall and CPU time of --reps runs after a
warm-up run that builds the cached program.  Wall time around the whole
command; CPU time of the children (getrusage).
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def once(nsmc, out, points):
    """One run: (wall seconds, CPU seconds, points written)."""
    cmd = [nsmc, "continue", os.path.join(ROOT, "tests/studies/impact_clearance.nsm"),
           "--param", "omega=1.3:0.3", "--start", "1.9,3", "--ds", "0.004", "--ds-max", "0.004",
           "--max-points", str(points), "--out-dir", out, "--no-plot", "-q"]
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    with open(os.path.join(out, "branch.csv")) as f:
        n = sum(1 for _ in f) - 1
    return wall, cpu, n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nsmc", default=os.path.join(ROOT, "build", "nsmc"))
    ap.add_argument("--points", type=int, default=1000)
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        once(a.nsmc, tmp, a.points)
        runs = [once(a.nsmc, tmp, a.points) for _ in range(a.reps)]
    n = runs[0][2]
    wall = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    print(f"nsmc continue, {n} points: wall {wall:.3f} s, CPU {cpu:.3f} s "
          f"({1e3 * cpu / n:.2f} ms per point); load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
