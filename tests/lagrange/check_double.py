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
import argparse
import os
import tempfile

import check_cart as cc

REF = os.path.join(cc.ROOT, "tests", "reference", "data", "double_pendulum")
COLS = ("a.phi", "b.phi", "a.omega", "b.omega")
# method: (simulator options, event s, velocity rel, sample, balance)
TOL = {"adaptive": (["--rtol", "1e-12", "--atol", "1e-14"], 1e-10, 1e-9, 1e-9, 1e-10),
       "rk4": (["--dt", "1e-4"], 1e-9, 1e-7, 1e-8, 1e-8),
       # the taylor targets
       "taylor": ([], 1e-12, 1e-10, 1e-10, 1e-10)}
check = cc.check


def main():
    ap = argparse.ArgumentParser()
    for k in ("--nsmc", "--include", "--lib"):
        ap.add_argument(k, required=True)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cflags", default="-O2")
    ap.add_argument("--method", required=True, choices=sorted(TOL))
    a = ap.parse_args()
    opts, et, vt, st, bt = TOL[a.method]
    ref_ev = cc.read(REF + ".events.csv")
    ref_sa = cc.read(REF + ".samples.csv")
    with tempfile.TemporaryDirectory() as work:
        exe = cc.build(a, work, "double_pendulum")
        run = ["--method", a.method] + opts
        events, before, traj, bal = cc.simulate(exe, run, work, "0", "wall")
        samples = cc.simulate(exe, run, work, "0.1", "wall")[2]
    imp = [e for e in events if e["kind"] == "impact"]
    check(len(imp) == len(ref_ev) and len(before) == len(ref_ev),
          "%d impacts, %d section records (reference %d)" % (len(imp), len(before), len(ref_ev)))
    rows = [{k: float(v) for k, v in r.items()} for r in traj]
    for k, (e, b, r) in enumerate(zip(imp, before, ref_ev)):
        t, tr = float(e["t"]), float(r["t"])
        check(abs(t - tr) <= et, "impact %d at %.17g s (reference %s, error %.3g s)"
              % (k, t, r["t"], t - tr))
        # the section's record: t, phase, a, b, a', b' before the impact
        for name, got, want in (("a'-", b[4], r["ad-"]), ("b'-", b[5], r["bd-"])):
            check(abs(got - float(want)) <= vt * abs(float(want)),
                  "impact %d: %s %.15g (reference %s)" % (k, name, got, want))
        after = [q for q in rows if abs(q["t"] - t) <= 1e-10]
        check(bool(after), "impact %d: the trajectory's row after it" % k)
        if after:
            s = after[-1]
            for name, got, want in (("a'+", s["a.omega"], r["ad+"]), ("b'+", s["b.omega"], r["bd+"])):
                check(abs(got - float(want)) <= max(vt, 1e-11) * abs(float(want)),
                      "impact %d: %s %.12g (reference %s)" % (k, name, got, want))
    worst = 0.0
    srows = [{k: float(v) for k, v in r.items()} for r in samples]
    for r in ref_sa:
        t = float(r["t"])
        s = [q for q in srows if abs(q["t"] - t) < 1e-12]
        if not s:
            check(False, "a trajectory row at t = %g" % t)
            continue
        for col in COLS:
            worst = max(worst, abs(s[-1][col] - float(r[col])) / max(1.0, abs(float(r[col]))))
    check(worst <= st, "states at the reference's samples within %.3g (worst %.3g)" % (st, worst))
    check(bal <= bt, "energy balance %.3g of the largest energy (at most %.3g)" % (bal, bt))
    if cc.FAILS:
        raise SystemExit("%d check(s) failed" % len(cc.FAILS))


if __name__ == "__main__":
    main()
