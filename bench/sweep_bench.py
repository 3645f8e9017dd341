#!/usr/bin/env python3
"""Benchmark of nsmc sweep (not a test: nothing is asserted).

    python3 bench/sweep_bench.py [--nsmc build/nsmc] [--points 301] [--periods 300]
                                 [--reps 3] [--no-mpi]

The forced impact oscillator's bifurcation diagram (models/
forced_impact_oscillator.nsm): omega from 1.5 to 4.5 over --points
frequencies, the stroboscopic section t = k 2 pi/omega over --periods forcing
periods per point (the first two thirds dropped as transient), method exact.
Timed, wall clock around the whole command, the median of --reps runs after
one warm-up run that builds the cached programs:

  1. nsmc sweep --jobs 1
  2. nsmc sweep --jobs 2
  3. mpirun -np 2 nsmc sweep --jobs 1 (when mpirun is found and not --no-mpi)
  4. a shell-style loop of the cached simulator, one process per frequency,
     each writing its section with --section (what a study took before).

The files of 1, 2 and 3 are compared byte for byte and the result printed.
"""
import argparse
import filecmp
import resource
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MODEL = os.path.join(ROOT, "models", "forced_impact_oscillator.nsm")


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd, env=None):
    """Wall time and CPU time (of all the command's processes) of one run."""
    c0, t0 = cpu(), time.perf_counter()
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0, cpu() - c0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nsmc", default=os.path.join(ROOT, "build", "nsmc"))
    ap.add_argument("--points", type=int, default=301)
    ap.add_argument("--periods", type=int, default=300)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--no-mpi", action="store_true")
    args = ap.parse_args()
    rec = args.periods // 3
    common = ["--param", "omega=1.5:4.5:%d" % args.points, "--section", "period:2*pi/omega",
              "--transient", str(args.periods - rec), "--record", str(rec)]
    mpirun = None if args.no_mpi else shutil.which("mpirun")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    rows = []
    with tempfile.TemporaryDirectory() as d:
        cases = [("nsmc sweep --jobs 1", [], ["--jobs", "1"]),
                 ("nsmc sweep --jobs 2", [], ["--jobs", "2"])]
        if mpirun:
            cases.append(("mpirun -np 2 nsmc sweep --jobs 1",
                          [mpirun, "--oversubscribe", "-np", "2"], ["--jobs", "1"]))
        outs = []
        for label, prefix, extra in cases:
            out = os.path.join(d, "o%d" % len(outs))
            cmd = prefix + [args.nsmc, "sweep", MODEL] + common + extra + ["--out-dir", out]
            timed(cmd, env)                       # warm-up: builds the cached program
            times = [timed(cmd, env) for _ in range(args.reps)]
            rows.append((label, statistics.median(t for t, _ in times),
                         statistics.median(c for _, c in times)))
            outs.append(out)
        same = all(filecmp.cmp(os.path.join(outs[0], f), os.path.join(o, f), shallow=False)
                   for o in outs[1:] for f in ("section.csv", "summary.csv"))
        # the loop of simulator processes: the cached simulator of nsmc run
        sim_c = os.path.join(d, "fio.c")
        sim = os.path.join(d, "fio")
        subprocess.run([args.nsmc, MODEL, "-o", sim_c], check=True)
        build = os.path.dirname(os.path.abspath(args.nsmc))
        # what libnsmcli needs after it, as nsmc run links it (nsm_paths.h)
        extra = []
        for line in open(os.path.join(build, "generated-include", "nsm_paths.h")):
            if line.startswith("#define NSM_CLI_LIBS"):
                extra = line.split('"')[1].split()
        libs = [os.path.join(build, "libnsmcli.a"), os.path.join(build, "libnsmrt.a")] + extra
        subprocess.run(["cc", "-O2", sim_c, "-I", os.path.join(ROOT, "runtime", "include")] + libs
                       + ["-lm", "-o", sim], check=True)

        def loop():
            c0, t0 = cpu(), time.perf_counter()
            for i in range(args.points):
                w = 1.5 + 3.0 * i / (args.points - 1)
                T = 2 * math.pi / w
                subprocess.run([sim, "--set", "omega=%r" % w, "--section", "period:2*pi/omega",
                                "--section-out", os.path.join(d, "loop.csv"), "--t-end",
                                repr((args.periods - 1) * T), "--events", "/dev/null"], check=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
            return time.perf_counter() - t0, cpu() - c0
        loop()
        times = [loop() for _ in range(args.reps)]
        rows.append(("loop of %d simulator processes" % args.points,
                     statistics.median(t for t, _ in times), statistics.median(c for _, c in times)))
    print("| %d frequencies x %d forcing periods, exact | wall time [s] | CPU time [s] |"
          % (args.points, args.periods))
    print("|---|---|---|")
    for label, t, c in rows:
        print("| %s | %.2f | %.2f |" % (label, t, c))
    print("\nload average when done: %.1f on %d cores" % (os.getloadavg()[0], os.cpu_count()))
    print("\nfiles of the sweeps identical: %s" % ("yes" if same else "NO"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
