#!/usr/bin/env python3
"""The cart carrying a pendulum (models/cart_pendulum.nsm, a model written
by its energies: M(q) depends on the angle) against the independent mpmath
reference tests/reference/cart_pendulum.py (its committed data,
tests/reference/data/cart_pendulum.*.csv: the hand-written Euler-Lagrange
equations integrated by mp.odefun at 30 digits, impacts located by
bisection, the impact law W M(q)^-1 W^T by hand).

usage: check_cart.py --nsmc NSMC --include DIR --lib A:B:.. [--cc CC]
                     [--cflags="FLAGS"] --method rk4|adaptive|taylor

Checks, with the method's tolerances (TOL):
- every impact at the reference's instant, the cart's and the pendulum's
  velocities before (Poincare section at the impacts, full precision) and
  after it (the trajectory's row at the impact);
- the states at the reference's samples every 0.1 s;
- the horizontal momentum (M + m) x' + m l cos(th) th' constant between
  impacts (the trajectory at every step), and its jump at an impact equal
  to the impulse the event log reports;
- the energy balance (T = 1/2 v^T M(q) v, V(q)) closing.
"""
import math
import os
import tempfile

import lagcheck as lc
from lagcheck import check

REF = os.path.join(lc.REF_DATA, "cart_pendulum")
MC, MB, L = 2.0, 0.5, 0.4
# method: (simulator options, event s, velocity rel, sample abs, momentum rel, balance)
TOL = {"adaptive": (["--rtol", "1e-12", "--atol", "1e-14"], 1e-10, 1e-9, 1e-9, 1e-9, 1e-10),
       "rk4": (["--dt", "1e-4"], 1e-9, 1e-7, 1e-8, 1e-8, 1e-8),
       # the taylor targets: events within 1e-12 s, states within
       # 1e-10 relative, the balance within 1e-10 of the largest energy
       "taylor": ([], 1e-12, 1e-10, 1e-10, 1e-10, 1e-10)}


def momentum(xd, th, thd):
    return (MC + MB) * xd + MB * L * math.cos(th) * thd


def main():
    a = lc.arguments(TOL)
    opts, et, vt, st, pt, bt = TOL[a.method]
    ref_ev = lc.read(REF + ".events.csv")
    ref_sa = lc.read(REF + ".samples.csv")
    with tempfile.TemporaryDirectory() as work:
        exe = lc.build(a, work, os.path.join(lc.MODELS, "cart_pendulum.nsm"))
        events, before, traj, bal = lc.simulate(exe, ["--method", a.method] + opts, work, "0",
                                                "stop")
        samples = lc.simulate(exe, ["--method", a.method] + opts, work, "0.1", "stop")[2]
    imp = [e for e in events if e["kind"] == "impact"]
    check(len(imp) == len(ref_ev) and len(before) == len(ref_ev),
          "%d impacts, %d section records (reference %d)" % (len(imp), len(before), len(ref_ev)))
    rows = lc.floats(traj)
    # the row after impact k: the last at its instant (rows print 12 digits)
    starts = [max([i for i, q in enumerate(rows) if abs(q["t"] - float(e["t"])) <= 1e-10] or [-1])
              for e in imp]
    for k, (e, b, r) in enumerate(zip(imp, before, ref_ev)):
        t, tr = float(e["t"]), float(r["t"])
        check(abs(t - tr) <= et, "impact %d at %.17g s (reference %s, error %.3g s)"
              % (k, t, r["t"], t - tr))
        # the section's record: t, phase, C.x, th, C.v, th.omega before the impact
        for name, got, want in (("x'-", b[4], r["xd-"]), ("th'-", b[5], r["thd-"])):
            check(abs(got - float(want)) <= vt * abs(float(want)),
                  "impact %d: %s %.15g (reference %s)" % (k, name, got, want))
        check(starts[k] >= 0, "impact %d: the trajectory's row after it" % k)
        if starts[k] >= 0:
            s = rows[starts[k]]
            for name, got, want in (("x'+", s["C.v"], r["xd+"]), ("th'+", s["th.omega"], r["thd+"])):
                check(abs(got - float(want)) <= max(vt, 1e-11) * abs(float(want)),
                      "impact %d: %s %.12g (reference %s)" % (k, name, got, want))
            # the stop takes P from the momentum: p- - p+ = P
            jump = momentum(b[4], b[3], b[5]) - momentum(s["C.v"], s["th.phi"], s["th.omega"])
            check(abs(jump - float(e["impulse"])) <= 1e-9 * abs(jump),
                  "impact %d: momentum taken %.12g = the impulse %s" % (k, jump, e["impulse"]))
    worst = lc.sample_error(lc.floats(samples), ref_sa, ("C.x", "th.phi", "C.v", "th.omega"))[0]
    check(worst <= st, "states at the reference's samples within %.3g (worst %.3g)" % (st, worst))
    # momentum between impacts: each flight's rows against its first
    cuts = [0] + [i for i in starts if i >= 0] + [len(rows)]
    drift = 0.0
    for i0, i1 in zip(cuts, cuts[1:]):
        fl = rows[i0:i1]
        if not fl:
            continue
        p0 = momentum(fl[0]["C.v"], fl[0]["th.phi"], fl[0]["th.omega"])
        for q in fl:
            drift = max(drift, abs(momentum(q["C.v"], q["th.phi"], q["th.omega"]) - p0) / abs(p0))
    check(drift <= pt, "momentum between impacts constant within %.3g (worst %.3g)" % (pt, drift))
    check(bal <= bt, "energy balance %.3g of the largest energy (at most %.3g)" % (bal, bt))
    lc.finish()


if __name__ == "__main__":
    main()
