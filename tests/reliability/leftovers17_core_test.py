#!/usr/bin/env python3
"""What the sixteenth hostile pass on the core and the round after it left
as found, each case failing before its fix.

    tests/reliability/leftovers17_core_test.py SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  stop    rk4 without a dt on a nonlinear model (its penalty exponent a
          parameter, at 1) with a stiff linear stop (k2 = 1e6 N/m, d = 0.9
          m, an oscillator of 1 rad/s from -1 m) stepped 1 ms through its 3
          ms contacts: 4.2 % of the energy lost over 40 s, the period off by
          0.046 s, exit 0.  rk4's own step on a nonlinear model is bounded
          by every engaged compliant contact's stiffness at its deepest
          reachable penetration (run.c's engaged_rate, written for the
          Hertz contact, takes the linear law as the exponent 1; this
          case keeps it so: without the bound the turning points drift
          0.018 m and the period 1.4 %), linear ones included: the period 2
          acos(-d/A) + 2 theta/W (W^2 = 1 + k2) by hand within 1e-9
          relative and the turning points at -1 m within 1e-8.
  tie     a strobe time on a landing under rk4 and adaptive: a ball (e =
          0.5) dropped from h under g lands at T = sqrt(2 h/g); both methods
          land it up to 4.4e-14 of T late, and period:T recorded the state
          before the impact, -sqrt(2 g h), at 15 of the 25 (g, h) below.
          Now e sqrt(2 g h), the state after the impact, as exact records it,
          within 1e-12 at every (g, h) of the grid.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# STOP: the sixteenth pass's linear oscillator against a compliant stop
from passlib import STOP, ball_drop, check, compiled, main, thin  # noqa: E402

SRC = os.path.abspath(sys.argv[1])

# a ball dropped onto a floor, as the fifteenth pass's leftovers wrote it
BALL = ball_drop("exact")


def stop_period(k2, d, A=1.0):
    """The period of x'' = -x (x < d), x'' = -x - k2 (x - d) (x > d) from -A
    at rest: 2 acos(-d/A) in free flight, then the arc against the stop,
    x = c + (d - c) cos(W s) + v1/W sin(W s) about its centre c = k2 d/W^2
    (W^2 = 1 + k2), v1 = sqrt(A^2 - d^2) the entry speed, back at d after
    2 theta/W, theta = atan2(v1/W, d - c)."""
    W = math.sqrt(1 + k2)
    v1 = math.sqrt(A * A - d * d)
    theta = math.atan2(v1 / W, d - k2 * d / W ** 2)
    return 2 * math.acos(-d / A) + 2 * theta / W


def case_stop(tmp):
    """rk4 without a dt through a stiff linear stop of a nonlinear model:
    the period by hand and the amplitude kept."""
    stop = compiled(tmp, "stop", STOP)
    for k2, d in ((1e6, 0.9), (1e6, 0.5), (1e4, 0.9)):
        T = stop_period(k2, d)
        s = stop.section("plane:M.v:up", t_end=7 * T + 0.1, params={"k2": k2, "d": d},
                         method="rk4")
        ts = [row[0] for row in s]
        err = max(abs(ts[i + 1] - ts[i] - T) for i in range(len(ts) - 1)) / T
        # the records are the turning points on the free side: x = -1 m
        # while the energy is kept
        low = max(abs(row[2] + 1) for row in s)
        print("  stop k2 %g, d %g, rk4 without a dt -> %d periods within %.3g (relative) of "
              "%.15g s; turning points within %.3g m of -1 m" % (k2, d, len(ts) - 1, err, T, low))
        check(len(ts) == 7 and err < 1e-9 and low < 1e-8,
              "a stiff linear stop of a nonlinear model under rk4 without a dt (k2 %g, d %g): "
              "its period by hand, its amplitude kept (the step unbounded, "
              "the turning points 0.018 m off)" % (k2, d))


def case_tie(tmp):
    """A strobe time on the landing: the state after the impact under rk4
    and adaptive, whichever side of T their own landing falls."""
    b = compiled(tmp, "ball", BALL)
    grid = [(g, h) for g in (0.5, 1.0, 2.0, 9.81, 7.0) for h in (0.7, 1.0, 2.0, 3.3, 4.0)]
    for meth in thin(("rk4", "adaptive")):
        worst, bad = 0.0, []
        for g, h in grid:
            T = math.sqrt(2 * h / g)
            rec = b.section("period:%r" % T, t_end=1.5 * T, method=meth, params={"g": g, "h": h})
            at = [r for r in rec if abs(r[0] - T) <= 1e-12 * T]
            want = 0.5 * math.sqrt(2 * g * h)
            err = abs(at[0][3] - want) / want if len(at) == 1 else math.inf
            worst = max(worst, err)
            if not err < 1e-12:
                bad.append((g, h))
        print("  ball dropped, period:sqrt(2 h/g) under %s at %d (g, h): v at T within %.3g of "
              "e sqrt(2 g h); not at %s" % (meth, len(grid), worst, bad))
        check(not bad, "a strobe time on the landing under %s: the state after the impact at "
              "every (g, h) (the state before at 15 of 25 before)" % meth)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-left17core-", case_arg=2))
