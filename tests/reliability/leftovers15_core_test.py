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
  taylorscale  the pendulum of the thirteenth core pass at g = 1e-100 m/s^2
          (omega = 1e-50 1/s) over 1e52 s, 16 periods, under taylor: its
          series' orders (omega^k) underflow to 0 from the seventh, the
          step's radius estimate read them as a polynomial's and the run
          took one step, "off by 1 of the largest energy", exit 3.  Now the
          run ends and phi, sampled every 1e51 s, is within 1e-9 rad of
          the elliptic closed form 2 asin(k sn(K - w t | k^2)) (mpmath).
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


def pend_phi(t, phi0, g, l=1.0):
    """The pendulum released from rest at phi0: sin(phi/2) = k sn(K - w t | k^2),
    k = sin(phi0/2), w = sqrt(g/l), by mpmath at 40 digits."""
    import mpmath
    mpmath.mp.dps = 40
    w = mpmath.sqrt(mpmath.mpf(g) / l)
    k = mpmath.sin(mpmath.mpf(phi0) / 2)
    m = k * k
    return float(2 * mpmath.asin(k * mpmath.ellipfun("sn", mpmath.ellipk(m) - w * mpmath.mpf(t),
                                                    m=m)))


def case_taylorscale(tmp):
    """taylor at g = 1e-100 over 16 periods: steps bounded, the motion right."""
    from thirteenth_pass_core_test import PEND
    p = nsmc_run(tmp, "pend", PEND, ["--method", "taylor", "--set", "g=1e-100", "--set",
                                     "phi0=2", "--t-end", "1e52", "--every", "1e51"])
    rows = rows_of(tmp, "pend", "trajectory")
    worst = max(abs(float(r["P.phi [rad]"]) - pend_phi(float(r["t [s]"]), 2, 1e-100))
                for r in rows)
    print("  g = 1e-100, taylor, 1e52 s: %d samples, phi within %.2g rad of the elliptic closed "
          "form" % (len(rows), worst))
    check(p.returncode == 0 and len(rows) == 11 and worst < 1e-9,
          "g = 1e-100 over 1e52 s under taylor: runs, phi at every 1e51 s within 1e-9 rad of "
          "the closed form (it took one step and failed, 'off by 1 of the largest energy')", p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-left15core-", case_arg=3))
