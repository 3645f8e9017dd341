#!/usr/bin/env python3
"""What the sixteenth passes left as found in the velocity floors, each case
failing before its fix.

    tests/reliability/leftovers17_floor_test.py NSMC SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  nonlinear  a mass on a cubic spring at rest on a belt at 4e-13 m/s (a
          nonlinear model) stuck at t = 0 and never moved, exit 0, under
          rk4, adaptive and taylor: nonlinear models were not judged against
          the velocity floor.  Now it stops at its start naming the floor
          and "scale the units"; so does a cart carrying a pendulum (a
          configuration-dependent mass M(q)) on the same belt.  At 1e-6
          m/s (N = 1 N) the mass slips under mu_k N until it rides the belt,
          then stays stuck (k x + alpha x^3 far below mu_s N):
          x(3) = 3 v_b - v_b^2 / (2 mu_k N / m), within 1e-9 (relative);
          the cart runs.
  midslip  a mass at rest pushed by F = 1e-13 N from t = 1 s to 2 s against
          a friction of mu_s N = 5e-14 N, mu_k N = 3e-14 N: the slip
          started at t = 1 s was not judged (only the run's start was),
          and after the push the slip, below the floor, never stuck: the
          mass slid backwards (v(6) = -5e-14 m/s), exit 0.  Now the run
          stops where the slip turns against its direction (the stick at
          2 + 7/3 s, within a step of 1 ms) naming the element, the floor
          and "scale the units".  At F = N = 1e-7 N it stops at 2 + 7/3 s at x =
          0.35e-7 + (0.7e-7)^2 / 0.6e-7 = 7e-8/6 m, within 1e-9 (relative).
  offset  a body resting on a floor at H under gravity, pushed by 2e-13 N
          onto an elastic wall 1e-13 m away, meets it at 2e-13 m/s: it stuck
          there, exit 0, under exact, rk4 and adaptive.  At H = 0 the flight
          the rest suppressed was judged against gravity's acceleration,
          across the wall (now: the forces along the wall's own row); at
          H = 1 m the run-time judgement also compared the run's energies,
          m g H = 9.81 J of potential among them, with those of speeds of
          1e-9 m/s (now: its kinetic energies).  Both now stop at the wall
          (t = 1 s) naming the contact and the floor; at 2e-6 N from 1e-6 m
          the body is back at x0 at rest at t = 2 s within 1e-14 m.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main  # noqa: E402
# causes_test's nsmc_run reads the same NSMC (argv[1]) as this runner
from causes_test import nsmc_run  # noqa: E402
from leftovers13_core_test import rows_of  # noqa: E402

CUBIC = '''model cub "a mass on a cubic spring at rest on a belt"
param k = 1 N/m
param alpha = 1 N/m^3
param N = 1e-11 N
param v_b = 4e-13 m/s
mass M = 1 kg
spring S: ground -- M, k = k
force cubic: on M = -alpha*M.x^3
friction F: M -- belt(v = v_b), mu_s = 0.5, mu_k = 0.3, normal = N
init M.x = 0 m, M.v = 0 m/s
simulate t_end = 3 s
output every 0.5 s: M.x, M.v
'''

CART = '''model cart "a cart carrying a pendulum at rest on a belt"
param M = 2 kg
param m = 0.5 kg
param l = 0.4 m
param g = 9.81 m/s^2
param N = 1e-11 N
param v_b = 4e-13 m/s
coordinate C: length
coordinate th: angle
kinetic T = 1/2*(M + m)*C.v^2 + m*l*cos(th.phi)*C.v*th.omega + 1/2*m*l^2*th.omega^2
potential V = -m*g*l*cos(th.phi)
spring S: ground -- C, k = 1 N/m
friction F: C -- belt(v = v_b), mu_s = 0.5, mu_k = 0.3, normal = N
init C.x = 0 m, th.phi = 0 rad
simulate t_end = 3 s
output every 0.5 s: C.x, C.v
'''

FLOOR_MSG = "velocity floor of 1e-12 m/s"


def refused_at_start(p):
    """Whether the run stopped at its start naming the floor."""
    return (p.returncode == 3 and FLOOR_MSG in p.stderr and "scale the units" in p.stderr and
            "t = 0 s" in p.stderr)


def case_nonlinear(tmp):
    """Nonlinear models and M(q) face the velocity floor at their start."""
    for meth in ("rk4", "adaptive", "taylor"):
        p = nsmc_run(tmp, "cub", CUBIC, ["--method", meth])
        check(refused_at_start(p), "a mass on a cubic spring at rest on a belt at 4e-13 m/s, "
              "%s: stops at its start naming the floor (it stuck at t = 0 and never moved, "
              "exit 0)" % meth, p)
    for meth in ("rk4", "adaptive"):
        p = nsmc_run(tmp, "cart", CART, ["--method", meth])
        check(refused_at_start(p), "a cart carrying a pendulum (M(q)) at rest on a belt at "
              "4e-13 m/s, %s: stops at its start naming the floor (it stuck, exit 0)" % meth, p)
    # above the floor: slips under mu_k N = 0.3 N until it rides the belt at
    # t = v_b / 0.3 (3.3e-6 s), having lagged v_b^2 / 0.6; then stuck while
    # k x + alpha x^3 < mu_s N = 0.5 N (x stays below 3.1e-6 m)
    vb = 1e-6
    want = 3 * vb - vb * vb / 0.6
    for meth in ("rk4", "adaptive", "taylor"):
        p = nsmc_run(tmp, "cub", CUBIC, ["--method", meth, "--set", "v_b=%r" % vb,
                                         "--set", "N=1"])
        x = float(rows_of(tmp, "cub", "trajectory")[-1]["M.x [m]"]) if p.returncode == 0 \
            else math.nan
        print("  cubic spring on a belt at 1e-6 m/s, %s: x(3) = %.12g m (%.12g)" % (meth, x, want))
        check(abs(x - want) < 1e-9 * want, "a mass on a cubic spring on a belt at 1e-6 m/s, %s: "
              "x(3) = 3 v_b - v_b^2/(2 mu_k g) within 1e-9" % meth, p)
    p = nsmc_run(tmp, "cart", CART, ["--set", "v_b=1e-6", "--set", "N=1"])
    check(p.returncode == 0, "the cart on a belt at 1e-6 m/s runs", p)


SWITCHED = '''model sw "a mass at rest pushed from t = 1 s to 2 s against friction"
param F = 1e-13 N
param N = 1e-13 N
mass M = 1 kg
force push: on M = if t <= 1 s or t > 2 s then 0 N else F
friction Fr: M -- ground, mu_s = 0.5, mu_k = 0.3, normal = N
init M.x = 0 m, M.v = 0 m/s
simulate t_end = 6 s, method = exact
output every 0.5 s: M.x, M.v
'''


def case_midslip(tmp):
    """A slip started during the run by a tiny force is judged where it
    starts."""
    for meth in ("exact", "rk4", "adaptive"):
        p = nsmc_run(tmp, "sw", SWITCHED, ["--method", meth, "--dt", "1e-3"])
        m = re.search(r"t = ([0-9.e+-]+) s: friction element 'Fr' slips against its direction",
                      p.stderr)
        # the stick it had to make at 2 + 7/3 s, found within a step (1 ms)
        check(p.returncode == 3 and FLOOR_MSG in p.stderr and "scale the units" in p.stderr and
              m is not None and 2 + 7 / 3 <= float(m.group(1)) <= 2 + 7 / 3 + 2e-3,
              "a mass pushed by 1e-13 N from t = 1 s to 2 s against friction, %s: stops where "
              "it had to stick (2 + 7/3 s) naming the element and the floor (it slid backwards, "
              "exit 0)" % meth, p)
    # F = N = 1e-7: a = 0.7e-7 from 1 s to 2 s, then -0.3e-7 until it stops
    want = 0.35e-7 + 0.7e-7 ** 2 / 0.6e-7
    for meth in ("exact", "rk4", "adaptive"):
        p = nsmc_run(tmp, "sw", SWITCHED, ["--method", meth, "--dt", "1e-3", "--set", "F=1e-7",
                                           "--set", "N=1e-7"])
        ev = rows_of(tmp, "sw", "events") if p.returncode == 0 else []
        st = [float(e["t"]) for e in ev if e["kind"] == "stick" and float(e["t"]) > 0]
        last = rows_of(tmp, "sw", "trajectory")[-1] if ev else {}
        x = float(last.get("M.x [m]", "nan"))
        print("  pushed by 1e-7 N, %s: sticks at %s s (%.17g), x(6) = %.12g m (%.12g)"
              % (meth, st, 2 + 7 / 3, x, want))
        check(len(st) == 1 and abs(st[0] - (2 + 7 / 3)) < 1e-9 and abs(x - want) < 1e-9 * want,
              "a mass pushed by 1e-7 N from 1 s to 2 s, %s: sticks at 2 + 7/3 s at "
              "7e-8/6 m" % meth, p)


WALL = '''model wall "a body resting on a floor at H pushed slowly onto an elastic wall"
param H = 1 m
param F = 2e-13 N
param x0 = 1e-13 m
body B: mass = 1 kg, inertia = 1 kg*m^2
gravity 9.81 m/s^2 along -y
gap floor: B.y - H >= 0 m, impact(e = 0)
gap wall: B.x >= 0 m, impact(e = 1)
force on B.x = -F
init B.x = x0, B.y = H
simulate t_end = 2 s, method = exact
output every 0.5 s: B.x, B.vx, B.y
'''


def case_offset(tmp):
    """A slow landing is judged on kinetic energies and the contact's own
    forces, whatever the potential's offset and the forces across it."""
    for meth in ("exact", "rk4", "adaptive"):
        for H in (0, 1):
            p = nsmc_run(tmp, "wall", WALL, ["--method", meth, "--dt", "1e-3", "--set",
                                             "H=%g" % H])
            m = re.search(r"t = ([0-9.e+-]+) s: contact 'wall' closes at ([0-9.e+-]+) m/s",
                          p.stderr)
            check(p.returncode == 3 and FLOOR_MSG in p.stderr and m is not None and
                  1 <= float(m.group(1)) <= 1.05,
                  "a body resting on a floor at H = %g m pushed by 2e-13 N onto an elastic "
                  "wall, %s: stops at the wall naming the floor (it stuck there, exit 0)"
                  % (H, meth), p)
    for meth in ("exact", "rk4", "adaptive"):
        p = nsmc_run(tmp, "wall", WALL, ["--method", meth, "--dt", "1e-3", "--set", "F=2e-6",
                                         "--set", "x0=1e-6"])
        last = rows_of(tmp, "wall", "trajectory")[-1] if p.returncode == 0 else {}
        x, v = float(last.get("B.x [m]", "nan")), float(last.get("B.vx [m/s]", "nan"))
        print("  pushed at 2e-6 N on a floor at 1 m, %s: x(2) = %.12g m, v(2) = %.3g m/s"
              % (meth, x, v))
        check(abs(x - 1e-6) < 1e-14 and abs(v) < 1e-14, "a body pushed onto an elastic wall at "
              "2e-6 m/s, %s: back at x0 at rest at t = 2 s" % meth, p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-left17floor-", case_arg=3))
