#!/usr/bin/env python3
"""A twenty-fourth hostile pass on the core: the simultaneous law's energy
check, exact's contacts found below their band, time switches and penalty
forces, every answer against a closed form or an exact invariant derived
here.

    tests/reliability/twentyfourth_pass_core_test.py SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  findings_gainzero  two touching beads of 1 and 1, 1 and 3, 3 and 1, 0.7
                and 0.3 kg falling together from rest at x = 0 (so the
                mechanical energy, kinetic plus m g x, is 0) onto a floor
                at -1 m, every contact elastic, impact_law = simultaneous,
                by exact, rk4 and adaptive: by hand both leave the floor
                together at w = sqrt(2 g) (the floor's impulse 2 (m1 + m2)
                w, the pair's 2 m2 w), so the kinetic energy is kept and
                the pair rises back to x = 0; the run reaches its end on
                that bounce.  Failed before: the law's energy check judged
                a gain of rounding (-7.1e-15 J to 4.3e-14 J) against 1e-8
                of the energy, 0 here, and stopped the run on "the
                simultaneous impact law adds energy" (loud, wrong).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main, compiled, refusal  # noqa: E402

G = 9.81
METHODS = ("exact", "rk4", "adaptive")


def ran(m, label, **kw):
    """m.run(**kw); a refusal fails the case, naming label and the message."""
    import nsm
    try:
        return m.run(**kw)
    except nsm.Error as ex:
        print("  %s -> refused: %s" % (label, str(ex)[:300]))
        check(False, "%s: the run refused (%s)" % (label, str(ex)[:300]))


STACK = '''model stack "two beads falling together onto a floor, their energy 0"
param m1 = 1 kg
param m2 = 1 kg
mass A = m1
mass B = m2
gravity 9.81 m/s^2
gap f: A.x >= -1 m, impact(e = 1)
gap ab: B.x - A.x >= 0 m, impact(e = 1)
init A.x = 0 m, B.x = 0 m
simulate t_end = 2 s, dt = 1 ms, impact_law = simultaneous
output every 1 ms: A.x, A.v, B.x, B.v
'''


def bounce_at(t, h=1.0):
    """(x, v) at t of a point dropped from rest at 0 onto a floor at -h,
    e = 1: a parabola of period 2 sqrt(2 h / g) about the floor's instant."""
    t1 = math.sqrt(2 * h / G)
    w = math.sqrt(2 * G * h)
    tau = t % (2 * t1) - t1                 # time from the nearest impact
    return -h + w * abs(tau) - G * tau * tau / 2, (-w if tau < 0 else w) - G * tau


def case_findings_gainzero(tmp):
    """Elastic impacts of a stack whose energy is 0: never refused."""
    m = compiled(tmp, "stack", STACK)
    for meth in METHODS:
        for m1, m2 in ((1.0, 1.0), (1.0, 3.0), (3.0, 1.0), (0.7, 0.3)):
            label = "beads of %g and %g kg falling together onto a floor, e = 1, simultaneous, " \
                    "%s" % (m1, m2, meth)
            r = ran(m, label, method=meth, params={"m1": m1, "m2": m2})
            err = 0.0
            for k, t in enumerate(r.t):
                x, v = bounce_at(t)
                if abs(t % (2 * math.sqrt(2 / G)) - math.sqrt(2 / G)) < 2e-3:
                    continue                # the samples beside an impact
                err = max(err, abs(r["A.x"][k] - x), abs(r["B.x"][k] - x),
                          abs(r["A.v"][k] - v), abs(r["B.v"][k] - v))
            print("  %s -> to t = %g s, (x, v) of both within %.3g of the bounce by hand"
                  % (label, r.t_reached, err))
            check(r.t_reached == 2 and err < 1e-6,
                  label + ": the end reached, both beads on the elastic bounce by hand")


if __name__ == "__main__":
    sys.exit(main({"findings_gainzero": case_findings_gainzero},
                  "nsm-twentyfourth-core-", case_arg=2))
