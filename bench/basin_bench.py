#!/usr/bin/env python3
"""Times nsmc sweep --basin: the forced impact oscillator's basins at
omega = 0.7 (two period-1 orbits) on an N x N grid of initial states.

    python3 bench/basin_bench.py [--nsmc build/nsmc] [--n 500] [--jobs 2] [--mpirun mpirun]
                                 [--compare-full]

Wall time around the whole command and CPU time of its processes
(getrusage of the children), after a warm-up run on a small grid that
builds the cached sweep program; prints the attractors' shares
(docs/performance.md, "Basins of attraction").  With --mpirun the same
grid again under `mpirun -np 2` (one thread per rank), its wall time, and
whether basins.csv, attractors.csv and summary.csv are byte for byte those
of the threaded run.  With --compare-full the same grid again with
--basin-pilot 0 (every run until its own records repeat, no reference
orbits), its times, and whether basins.csv and attractors.csv are byte for
byte the same.
"""
import argparse
import csv
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "models", "forced_impact_oscillator.nsm")


def cpu():
    """CPU time of the finished children so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def basin(nsmc, out, n, jobs, prefix=(), env=None, extra=()):
    """One basin study (under prefix, e.g. mpirun); its wall and CPU time."""
    cmd = list(prefix) + [nsmc, "sweep", MODEL, "--set", "omega=0.7", "--basin", "M.x=-3:-0.01:%d" % n,
           "--basin", "M.v=-3:3:%d" % n, "--section", "impact:stop",
           "--section-period", "2*pi/omega", "--transient", "300", "--record", "12",
           "--jobs", str(jobs), "--out-dir", out] + list(extra)
    c0, t0 = cpu(), time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    return time.perf_counter() - t0, cpu() - c0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nsmc", default=os.path.join(ROOT, "build", "nsmc"))
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--mpirun", default="", help="also run under MPIRUN -np 2 and compare")
    ap.add_argument("--compare-full", action="store_true",
                    help="also run with --basin-pilot 0 (no reference orbits) and compare")
    args = ap.parse_args()
    same = full_same = None
    with tempfile.TemporaryDirectory() as d:
        basin(args.nsmc, os.path.join(d, "warm"), 8, args.jobs)
        wall, cpu_s = basin(args.nsmc, os.path.join(d, "b"), args.n, args.jobs)
        with open(os.path.join(d, "b", "attractors.csv")) as f:
            shares = [(r["attractor"], r["period"], r["records"], "%.4g" % float(r["fraction"]))
                      for r in csv.DictReader(f)]
        if args.mpirun:
            env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                       OMPI_MCA_rmaps_base_oversubscribe="1")
            mwall, mcpu = basin(args.nsmc, os.path.join(d, "m"), args.n, 1,
                                [args.mpirun, "--oversubscribe", "-np", "2"], env)
            same = all(open(os.path.join(d, "b", f), "rb").read() ==
                       open(os.path.join(d, "m", f), "rb").read()
                       for f in ("basins.csv", "attractors.csv", "summary.csv"))
        if args.compare_full:
            fwall, fcpu = basin(args.nsmc, os.path.join(d, "f"), args.n, args.jobs,
                                extra=["--basin-pilot", "0"])
            full_same = all(open(os.path.join(d, "b", f), "rb").read() ==
                            open(os.path.join(d, "f", f), "rb").read()
                            for f in ("basins.csv", "attractors.csv"))
    print("%d x %d initial states, --jobs %d: %.1f s wall, %.1f s CPU (%.0f us CPU per state)"
          % (args.n, args.n, args.jobs, wall, cpu_s, 1e6 * cpu_s / args.n ** 2))
    print("attractors (id, period, records, share):", shares)
    if same is not None:
        print("mpirun -np 2 (--jobs 1 per rank): %.1f s wall; files byte-identical: %s"
              % (mwall, "yes" if same else "NO"))
    if full_same is not None:
        print("--basin-pilot 0 (every run to its own repeat): %.1f s wall, %.1f s CPU; "
              "basins.csv and attractors.csv byte-identical: %s"
              % (fwall, fcpu, "yes" if full_same else "NO"))
    print("load average at the end: %.2f" % os.getloadavg()[0])
    return 0 if same is not False and full_same is not False else 1


if __name__ == "__main__":
    sys.exit(main())
