#!/usr/bin/env python3
"""Silent or slow outcomes the fourteenth hostile pass on the core left as
found, each case failing before its fix.

    tests/reliability/leftovers15_core_test.py NSMC SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  belt    the mass at rest on a belt moving at 4e-13 m/s (models/
          belt_friction.nsm, N = 1e-11 N) logged `stick` at t = 0 and stayed
          at x = 0 while the belt carried it, exit 0; at 4e-12 m/s under rk4
          it stuck at pi/2 to a belt it never reached.  Now each run stops at
          its start, exit 3, naming the velocity floor of 1e-12 m/s and the
          model's speed, and asking to scale the units; at 4e-8 m/s, with
          the model's speeds 4e4 floors above it, the run ends and the
          mass follows the belt.
  wall    a mass drifting onto a wall (e = 1) at 1e-12 m/s from 1e-12 m
          stopped at the wall, and at 1e-15 m/s from 1e-15 m passed through
          it, both exit 0.  Now both stop at their start, exit 3, naming the
          floor; at 1e-6 m/s from 1e-6 m it comes back: x(2 s) = 1e-6 m,
          v = -1e-6 m/s (the closed form of a perfectly elastic bounce at
          t = 1 s) within 1e-15 (relative) under exact.
  cap     exact on a free mass without a dt steps 2 s at a time (2/nu,
          nu = 1 1/s, its x' = v row): over 1e4 s with --max-steps 1000 it
          ran the whole cap and failed, as over 2e9 s it ran for minutes
          towards the default cap.  Now it is refused up front, exit 1, as
          rk4 is ("at least 5e+03 steps ... more than the step cap"); with a
          cap that reaches, x(1e4) = x0 + v0 t to the last digits.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main  # noqa: E402
# causes_test's nsmc_run reads the same NSMC (argv[1]) as this runner
from causes_test import nsmc_run  # noqa: E402
from leftovers13_core_test import rows_of  # noqa: E402

METHODS = ("rk4", "adaptive", "exact")


def floor_named(p):
    """The run stopped at t = 0 naming the floor and asking to scale."""
    return (p.returncode == 3 and "velocity floor of 1e-12 m/s" in p.stderr and
            "scale the units" in p.stderr and "t = 0 s" in p.stderr)


# the mass slipping all along under mu_k N = 3e-12 N (its speed, at most
# 3e-12 m/s, never reaches the belt's): x = (mu_k N/k)(1 - cos t) at t = 1 s
XSLIP = 3e-12 * (1 - math.cos(1.0))


def case_belt(tmp):
    """A belt slower than the velocity floor's reach: refused, not stuck."""
    with open(os.path.join(os.path.abspath(sys.argv[2]), "models", "belt_friction.nsm")) as f:
        belt = f.read()
    for vb, meths in (("4e-13", METHODS), ("4e-12", ("rk4", "adaptive"))):
        for meth in meths:
            p = nsmc_run(tmp, "belt", belt, ["--set", "v_b=" + vb, "--set", "N=1e-11",
                                             "--method", meth])
            check(floor_named(p) and "at most %s m/s" % vb in p.stderr,
                  "belt at %s m/s, %s: stops at t = 0 naming the floor and the speed %s m/s (it "
                  "stuck and exited 0)" % (vb, meth, vb), p)
    for meth in METHODS:
        p = nsmc_run(tmp, "belt", belt, ["--set", "v_b=4e-8", "--set", "N=1e-11", "--method",
                                         meth, "--t-end", "1"])
        x = float(rows_of(tmp, "belt", "trajectory")[-1]["M.x [m]"])
        ex = abs(x - XSLIP) / XSLIP
        print("  belt at 4e-8 m/s, %s: x(1) = %.6g m, off by %.2g (relative)" % (meth, x, ex))
        check(p.returncode == 0 and ex < 1e-9, "belt at 4e-8 m/s, %s: runs, the mass slipping "
              "under mu_k N: x(1) = (mu_k N/k)(1 - cos 1) within 1e-9" % meth, p)


WALL = '''model drift "a mass drifting onto an elastic wall"
param v0 = 1e-12 m/s
param x0 = 1e-12 m
mass B = 1 kg
gap wall: B.x >= 0, impact(e = 1)
init B.x = x0, B.v = -v0
simulate t_end = 2 s, method = exact
output every 0.25 s: B.x, B.v
'''


def case_wall(tmp):
    """A drift slower than the floor's reach: refused; a slow one bounces."""
    for v in ("1e-12", "1e-15"):
        for meth in METHODS:
            p = nsmc_run(tmp, "drift", WALL, ["--set", "v0=" + v, "--set", "x0=" + v,
                                              "--method", meth])
            check(floor_named(p), "drift at %s m/s, %s: stops at t = 0 naming the floor (it "
                  "stopped at the wall or passed through it, exit 0)" % (v, meth), p)
    p = nsmc_run(tmp, "drift", WALL, ["--set", "v0=1e-6", "--set", "x0=1e-6"])
    last = rows_of(tmp, "drift", "trajectory")[-1]
    x, v = float(last["B.x [m]"]), float(last["B.v [m/s]"])
    ex, ev = abs(x - 1e-6) / 1e-6, abs(v - 1e-6) / 1e-6
    print("  drift at 1e-6 m/s: x(2) off by %.2g, v(2) by %.2g (relative)" % (ex, ev))
    check(p.returncode == 0 and ex < 1e-15 and ev < 1e-15,
          "drift at 1e-6 m/s from 1e-6 m: back at x0 with +v0 at 2 s within 1e-15", p)


FREE = '''model free "a free mass"
mass B = 1 kg
init B.x = 0.5 m, B.v = 0.25 m/s
simulate t_end = 1 s, method = exact
output every 1 s: B.x, B.v
'''


def case_cap(tmp):
    """exact's step cap that cannot reach t_end: refused up front."""
    p = nsmc_run(tmp, "free", FREE, ["--t-end", "1e4", "--every", "1e3", "--max-steps", "1000"])
    check(p.returncode == 1 and "exact takes steps of at most 2 s" in p.stderr and
          "at least 5e+03 steps" in p.stderr and "step cap of 1000" in p.stderr,
          "free mass, exact, 1e4 s under a cap of 1000 steps: refused up front naming the step "
          "(it ran the whole cap and failed)", p)
    p = nsmc_run(tmp, "free", FREE, ["--t-end", "1e4", "--every", "1e3", "--max-steps", "6000"])
    last = rows_of(tmp, "free", "trajectory")[-1]
    x = float(last["B.x [m]"])
    print("  free mass, exact, 1e4 s: x = %.17g m (0.5 + 0.25 t = 2500.5)" % x)
    check(p.returncode == 0 and abs(x - 2500.5) < 1e-9, "free mass over 1e4 s under a cap that "
          "reaches: x = 2500.5 m within 1e-9 m", p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-left15core-", case_arg=3))
