#!/usr/bin/env python3
"""SciPy's peer of bench/nl_bench.py: the impact pendulum and the Duffing
oscillator against a stop (bench/models_nl/) integrated by
scipy.integrate.solve_ivp(method="DOP853") with a terminal event on the gap
(direction -1); at each event the program applies Newton's law (v -> -e v,
the position put exactly on the wall) and calls solve_ivp again from there.

    python3 bench/scipy_nl_peer.py [--reps N] [--events DIR] [--rtol R] [--atol A]
                                   [--case pendulum|duffing|rocking|all]

The equations are those of bench/cvode_nl_peer.c.  Timing: each case is run
--reps times; a run's wall time (time.perf_counter) covers every call of
solve_ivp and the impacts; the median is printed with the fastest run and
the median CPU time (time.process_time).  Output (stdout): a line
`# SciPy <version>`, then one tab-separated line per case:
    case  tool  method  median_s  min_s  cpu_median_s  reps  events  steps
(steps: the right-hand side's evaluations / 12, DOP853's stages per step)
and with --events DIR the events of the last run in
DIR/<case>.scipy.events.csv (t,kind,contact).  Needs Debian's python3-scipy.
"""
import argparse
import math
import os
import statistics
import sys
import time

import scipy
from scipy.integrate import solve_ivp


def pend_rhs(t, y):
    return [y[1], -9.81 * math.sin(y[0])]


def pend_gap(t, y):
    return y[0] + 0.3


def duff_rhs(t, y):
    x = y[0]
    return [y[1], 1.2 * math.cos(1.3 * t) - 0.1 * y[1] - x - 0.5 * x * x * x]


def duff_gap(t, y):
    return 0.9 - y[0]


# Housner's rocking block on its pivot corner (bench/cvode_nl_peer.c's
# rock_rhs): a wall at theta = 0 with e = 1 - 3/2 sin^2 alpha = 23/29.
ROCK_W2, ROCK_ALPHA = 3 * 9.81 / (4 * math.sqrt(0.29)), math.atan(0.4)


def rock_rhs(t, y):
    return [y[1], -ROCK_W2 * math.sin(ROCK_ALPHA - y[0])]


def rock_gap(t, y):
    return y[0]


for g in (pend_gap, duff_gap, rock_gap):
    g.terminal = True
    g.direction = -1

# name: (contact, rhs, gap, wall, e, y0, t_end)
CASES = {
    "pendulum": ("W", pend_rhs, pend_gap, -0.3, 0.8, (1.0, 0.0), 10.0),
    "duffing": ("stop", duff_rhs, duff_gap, 0.9, 0.8, (0.0, 0.0), 20.0),
    "rocking": ("corner", rock_rhs, rock_gap, 0.0, 23.0 / 29.0, (0.1, 0.0), 1.5),
}


def run_case(name, rtol, atol):
    """Event times and right-hand side evaluations of one run."""
    contact, rhs, gap, wall, e, y0, t_end = CASES[name]
    t, y, events, nfev = 0.0, list(y0), [], 0
    while t < t_end:
        sol = solve_ivp(rhs, (t, t_end), y, method="DOP853", rtol=rtol, atol=atol, events=gap)
        nfev += sol.nfev
        if sol.status == -1:
            raise RuntimeError("%s: solve_ivp failed at t = %r: %s" % (name, sol.t[-1], sol.message))
        if sol.status != 1:
            break
        t = float(sol.t_events[0][0])
        ye = sol.y_events[0][0]
        events.append(t)
        y = [wall, -e * float(ye[1])]
    return events, nfev


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--events")
    ap.add_argument("--rtol", type=float, default=1e-10)
    ap.add_argument("--atol", type=float, default=1e-10)
    ap.add_argument("--case", default="all", choices=["all"] + list(CASES))
    a = ap.parse_args()
    print("# SciPy %s" % scipy.__version__)
    for name in CASES:
        if a.case not in ("all", name):
            continue
        wall, cpu = [], []
        for _ in range(a.reps):
            t0, c0 = time.perf_counter(), time.process_time()
            events, nfev = run_case(name, a.rtol, a.atol)
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - t0)
        if a.events:
            with open(os.path.join(a.events, "%s.scipy.events.csv" % name), "w") as f:
                f.write("t,kind,contact\n")
                for t in events:
                    f.write("%.17g,impact,%s\n" % (t, CASES[name][0]))
        print("%s\tscipy\tDOP853 rtol=%g atol=%g\t%.9g\t%.9g\t%.9g\t%d\t%d\t%d" % (
            name, a.rtol, a.atol, statistics.median(wall), min(wall), statistics.median(cpu),
            a.reps, len(events), nfev // 12))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
