#!/usr/bin/env python3
"""A cart on a rough floor carrying a pendulum (models/cart_friction.nsm: a
model written by its energies, M(q) depends on the angle, the friction's
normal force is the held floor's contact force) against the independent
mpmath reference tests/reference/cart_friction.py (its committed data,
tests/reference/data/cart_friction.*.csv: the hand-written equations of
the stuck and slipping phases integrated separately by mp.odefun at 30
digits, stick and slip instants by root-finding).

usage: check_friction.py --nsmc NSMC --include DIR --lib A:B:.. [--cc CC]
                         [--cflags="FLAGS"] --method rk4|adaptive

Checks, with the method's tolerances (TOL):
- the friction element's stick and slip records, in the reference's order,
  each at the reference's instant;
- the states every 0.1 s (the cart's height held at 0);
- the energy dissipated by friction at t_end (the audit's integrated
  dissipation, the output column energy.dissipated) against the reference's quadrature of mu N |x'|;
- the energy balance (T = 1/2 v^T M(q) v, V(q), the friction work) closing.
"""
import os
import tempfile

import lagcheck as lc
from lagcheck import check

REF = os.path.join(lc.REF_DATA, "cart_friction")
# method: (simulator options, event s, sample abs, work rel, balance)
TOL = {"adaptive": (["--rtol", "1e-12", "--atol", "1e-14"], 1e-10, 1e-9, 1e-9, 1e-10),
       "rk4": (["--dt", "1e-4"], 1e-9, 1e-8, 1e-7, 1e-8)}


def simulate(exe, opts, work):
    """Events, the trajectory every 0.1 s, the dissipated energy and the
    balance's error relative to the largest energy."""
    ev, out = os.path.join(work, "ev.csv"), os.path.join(work, "out.csv")
    summary = lc.run(exe, ["--events", ev, "--out", out, "--every", "0.1"] + opts)
    rows = lc.read(out)
    return lc.read(ev), rows, float(rows[-1]["energy.dissipated"]), lc.balance(summary)


def main():
    a = lc.arguments(TOL)
    opts, et, st, wt, bt = TOL[a.method]
    ref_ev = lc.read(REF + ".events.csv")
    ref_sa = lc.read(REF + ".samples.csv")
    with tempfile.TemporaryDirectory() as work:
        exe = lc.build(a, work, os.path.join(lc.MODELS, "cart_friction.nsm"))
        events, traj, dissipated, bal = simulate(exe, ["--method", a.method] + opts, work)
    fric = [e for e in events if e["contact"] == "F" and float(e["t"]) > 0]
    check([e["kind"] for e in fric] == [r["kind"] for r in ref_ev],
          "stick and slip sequence %s (reference %s)"
          % (" ".join(e["kind"] for e in fric), " ".join(r["kind"] for r in ref_ev)))
    for k, (e, r) in enumerate(zip(fric, ref_ev)):
        t, tr = float(e["t"]), float(r["t"])
        check(abs(t - tr) <= et, "%s %d at %.17g s (reference %s, error %.3g s)"
              % (e["kind"], k, t, r["t"], t - tr))
    worst, at = lc.sample_error(lc.floats(traj), ref_sa, ("C.x", "th.phi", "C.v", "th.omega"))
    height = max([max(abs(s["Y.x"]), abs(s["Y.v"])) for s in at] + [0.0])
    check(worst <= st, "states at the reference's samples within %.3g (worst %.3g)" % (st, worst))
    check(height <= st, "the cart held on the floor (largest |Y|, |Y'| %.3g)" % height)
    wref = float(ref_sa[-1]["work"])
    check(abs(dissipated - wref) <= wt * wref, "friction work %.15g J (reference %.15g J, "
          "relative error %.3g)" % (dissipated, wref, (dissipated - wref) / wref))
    check(bal <= bt, "energy balance %.3g of the largest energy (at most %.3g)" % (bal, bt))
    lc.finish()


if __name__ == "__main__":
    main()
