#!/usr/bin/env python3
"""The adaptive method's reuse of a step's last stage (first same as last,
runtime/src/step.c, RtFsal): the derivative at the end of an accepted step
is the next step's first stage only while nothing it reads beside the time,
the state and the mode has changed.  A time switch changes the forces at an
instant the step lands on, the state and the mode unchanged: the stage kept
from before the switch must not be read after it.  References are closed
forms derived here.

    tests/reliability/fsal_test.py NSMC SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  switch  a free mass m = 1 kg at rest pushed by F = 2 N from t = ts (0.5,
          0.3, 1/3, 0.7 s): x = F (t - ts)^2 / (2 m), v = F (t - ts) / m
          after ts, 0 before, at every sample (every 10 ms to 1 s) within
          1e-11 (the CSV's 12 digits) of 1 + |x| and 1 + |v|, by adaptive with its energy balance on and off (--energy-tol
          0: a stale stage would then go unseen but for the motion).
  pulse   the same mass pushed only between a = 0.2 s and b (0.45, 0.6,
          0.7 s): two switches, on and off; after b it coasts at
          v = F (b - a) / m from x = F (b - a)^2 / (2 m).
With the stage read across a switch (the generation not moved by
rt_state_switch_set), the first step after ts runs on the force before it:
the balance stops the run (exit 3), or without it the motion is off.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main, run  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
F, M = 2.0, 1.0

PUSH = '''model push "a free mass pushed from t = ts"
param ts = 0.5 s
param F = 2 N
mass M = 1 kg
force P: on M = if t <= ts then 0 N else F
simulate t_end = 1 s, dt = 0.1 s, method = adaptive
output every 10 ms: M.x, M.v
'''

PULSE = '''model pulse "a free mass pushed between t = a and t = b"
param a = 0.2 s
param b = 0.6 s
param F = 2 N
mass M = 1 kg
force P: on M = if t > a and t <= b then F else 0 N
simulate t_end = 1 s, dt = 0.1 s, method = adaptive
output every 10 ms: M.x, M.v
'''


def trajectory(tmp, name, text, extra):
    """nsmc run of the model text with extra options; (process, rows of its
    trajectory as (t, x, v), [] when it failed)."""
    path = os.path.join(tmp, name + ".nsm")
    with open(path, "w") as f:
        f.write(text)
    out = os.path.join(tmp, "o_" + name)
    p = run(tmp, [NSMC, "run", path, "--no-plot", "-q", "--out-dir", out, "--"] + list(extra))
    if p.returncode != 0:
        return p, []
    with open(os.path.join(out, "trajectory.csv")) as f:
        rows = [(float(r["t [s]"]), float(r["M.x [m]"]), float(r["M.v [m/s]"]))
                for r in csv.DictReader(f)]
    return p, rows


def worst(rows, motion):
    """The largest |x - x(t)| and |v - v(t)| over the rows, motion(t) = (x, v),
    each relative to 1 + its size (the CSV's 12 digits)."""
    ex = max((abs(x - motion(t)[0]) / (1 + abs(x)) for t, x, _ in rows), default=float("inf"))
    ev = max((abs(v - motion(t)[1]) / (1 + abs(v)) for t, _, v in rows), default=float("inf"))
    return ex, ev


def case_switch(tmp):
    for ts in (0.5, 0.3, 1 / 3, 0.7):
        def motion(t):
            d = max(t - ts, 0.0)
            return F * d * d / (2 * M), F * d / M
        for etol in ([], ["--energy-tol", "0"]):
            p, rows = trajectory(tmp, "push", PUSH, ["--set", "ts=%r" % ts] + etol)
            ex, ev = worst(rows, motion)
            print("  push from ts = %r s %s: exit %d, %d samples, |x - F (t - ts)^2/(2 m)| <= %.3g,"
                  " |v - F (t - ts)/m| <= %.3g (of 1 + |x|, 1 + |v|)" % (ts, " ".join(etol), p.returncode, len(rows),
                                                      ex, ev))
            check(p.returncode == 0 and len(rows) == 101 and ex < 1e-11 and ev < 1e-11,
                  "a free mass pushed from ts = %r s %s by adaptive: x and v the closed form's at "
                  "every sample" % (ts, " ".join(etol) or "(balance on)"), p)


def case_pulse(tmp):
    a = 0.2
    for b in (0.45, 0.6, 0.7):
        def motion(t):
            if t <= a:
                return 0.0, 0.0
            d = min(t, b) - a
            x, v = F * d * d / (2 * M), F * d / M
            return x + v * max(t - b, 0.0), v
        for etol in ([], ["--energy-tol", "0"]):
            p, rows = trajectory(tmp, "pulse", PULSE, ["--set", "b=%r" % b] + etol)
            ex, ev = worst(rows, motion)
            print("  pulse %g to %g s %s: exit %d, %d samples, |x - x(t)| <= %.3g, |v - v(t)| <= "
                  "%.3g (of 1 + |x|, 1 + |v|)" % (a, b, " ".join(etol), p.returncode, len(rows), ex, ev))
            check(p.returncode == 0 and len(rows) == 101 and ex < 1e-11 and ev < 1e-11,
                  "a free mass pushed from %g to %g s %s by adaptive: x and v the closed form's at "
                  "every sample" % (a, b, " ".join(etol) or "(balance on)"), p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-fsal-", case_arg=3))
