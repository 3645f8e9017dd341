#!/usr/bin/env python3
"""nsmc's CPU time against the number of state-dependent statements.

    python3 bench/nl_chain_bench.py [--nsmc build/nsmc] [--sizes 100,1000,3000,10000]
                                    [--reps 3] [--work DIR]

Two chains written once with a `for` loop (tests/loops/check_loops.py's
models): N - 1 cubic springs as `force` statements that depend on the state,
and models/hertz_chain.nsm's N - 1 Hertz contacts.  For each N: nsmc's CPU
time (user + system of the child, best of --reps), the generated C's bytes,
and the exponent of a least-squares fit of log time against log N over the
sizes from 1000 up (smaller ones are start-up).  Prints a Markdown table
(docs/performance.md, "Nonlinear chains").  Timing only: no assertion.
"""
import argparse
import math
import os
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "loops"))
import check_loops  # noqa: E402  (the chains' model texts)


def cpu_of(cmd):
    """CPU seconds (user + system) of one run of cmd, a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def fit_exponent(ns, ts):
    """Slope of log t against log n by least squares (None below two points)."""
    pts = [(math.log(n), math.log(t)) for n, t in zip(ns, ts) if n >= 1000 and t > 0]
    if len(pts) < 2:
        return None
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nsmc", default=os.path.join(ROOT, "build", "nsmc"))
    ap.add_argument("--sizes", default="100,1000,3000,10000")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--work", default=None)
    a = ap.parse_args()
    work = a.work or tempfile.mkdtemp(prefix="nl_chain_bench.")
    os.makedirs(work, exist_ok=True)
    sizes = [int(x) for x in a.sizes.split(",")]
    print("| chain | N | statements | nsmc CPU [s] | C bytes |")
    print("|---|---|---|---|---|")
    fits = {}
    for chain, model in (("cubic", check_loops.cubic_model), ("Hertz", check_loops.hertz_model)):
        ts = []
        for n in sizes:
            src, c = os.path.join(work, "%s%d.nsm" % (chain, n)), os.path.join(work, "%s%d.c" % (chain, n))
            with open(src, "w") as f:
                f.write(model(n))
            t = min(cpu_of([a.nsmc, src, "-o", c]) for _ in range(a.reps))
            ts.append(t)
            print("| %s | %d | %d | %.3g | %d |" % (chain, n, n - 1, t, os.path.getsize(c)))
        fits[chain] = fit_exponent(sizes, ts)
    for chain, k in fits.items():
        print("- %s chain: nsmc time ~ N^%s (least squares, N >= 1000)"
              % (chain, "%.2f" % k if k is not None else "?"))


if __name__ == "__main__":
    main()
