#!/usr/bin/env python3
"""A double pendulum whose lower bob strikes a wall (models/
double_pendulum.nsm, a model written by its energies: M(q) depends on the
angle between the rods) against the independent mpmath reference
tests/reference/double_pendulum.py (its committed data,
tests/reference/data/double_pendulum.*.csv: the hand-written
Euler-Lagrange equations integrated by mp.odefun at 30 digits, impacts
located by bisection, the impact law with W M(q)^-1 W^T by hand).

usage: check_double.py --nsmc NSMC --include DIR --lib A:B:.. [--cc CC]
                       [--cflags="FLAGS"] --method rk4|adaptive|taylor

Checks, with the method's tolerances (TOL): every impact at the
reference's instant, both angular velocities before (the Poincare section
at the impacts, full precision) and after it (the trajectory's row at the
impact, 12 digits), the states at the reference's samples every 0.1 s, and
the energy balance (T = 1/2 v^T M(q) v, V(q)) closing.
"""
import os
import tempfile

import lagcheck as lc
from lagcheck import check

REF = os.path.join(lc.REF_DATA, "double_pendulum")
COLS = ("a.phi", "b.phi", "a.omega", "b.omega")
# method: (simulator options, event s, velocity rel, sample, balance)
TOL = {"adaptive": (["--rtol", "1e-12", "--atol", "1e-14"], 1e-10, 1e-9, 1e-9, 1e-10),
       "rk4": (["--dt", "1e-4"], 1e-9, 1e-7, 1e-8, 1e-8),
       # the taylor targets
       "taylor": ([], 1e-12, 1e-10, 1e-10, 1e-10)}


def main():
    a = lc.arguments(TOL)
    opts, et, vt, st, bt = TOL[a.method]
    ref_ev = lc.read(REF + ".events.csv")
    ref_sa = lc.read(REF + ".samples.csv")
    with tempfile.TemporaryDirectory() as work:
        exe = lc.build(a, work, os.path.join(lc.MODELS, "double_pendulum.nsm"))
        run = ["--method", a.method] + opts
        events, before, traj, bal = lc.simulate(exe, run, work, "0", "wall")
        samples = lc.simulate(exe, run, work, "0.1", "wall")[2]
    imp = [e for e in events if e["kind"] == "impact"]
    check(len(imp) == len(ref_ev) and len(before) == len(ref_ev),
          "%d impacts, %d section records (reference %d)" % (len(imp), len(before), len(ref_ev)))
    rows = lc.floats(traj)
    for k, (e, b, r) in enumerate(zip(imp, before, ref_ev)):
        t, tr = float(e["t"]), float(r["t"])
        check(abs(t - tr) <= et, "impact %d at %.17g s (reference %s, error %.3g s)"
              % (k, t, r["t"], t - tr))
        # the section's record: t, phase, a, b, a', b' before the impact
        for name, got, want in (("a'-", b[4], r["ad-"]), ("b'-", b[5], r["bd-"])):
            check(abs(got - float(want)) <= vt * abs(float(want)),
                  "impact %d: %s %.15g (reference %s)" % (k, name, got, want))
        after = lc.rows_at(rows, t, 1e-10)
        check(bool(after), "impact %d: the trajectory's row after it" % k)
        if after:
            s = after[-1]
            for name, got, want in (("a'+", s["a.omega"], r["ad+"]), ("b'+", s["b.omega"], r["bd+"])):
                check(abs(got - float(want)) <= max(vt, 1e-11) * abs(float(want)),
                      "impact %d: %s %.12g (reference %s)" % (k, name, got, want))
    worst = lc.sample_error(lc.floats(samples), ref_sa, COLS)[0]
    check(worst <= st, "states at the reference's samples within %.3g (worst %.3g)" % (st, worst))
    check(bal <= bt, "energy balance %.3g of the largest energy (at most %.3g)" % (bal, bt))
    lc.finish()


if __name__ == "__main__":
    main()
