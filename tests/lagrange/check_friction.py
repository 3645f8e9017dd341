#!/usr/bin/env python3
"""Friction in models written by their energies against independent mpmath
references (their committed data, tests/reference/data/CASE.*.csv: the
hand-written equations of the stuck and slipping phases integrated
separately by mp.odefun at 30 digits, stick and slip instants by
root-finding).  Two cases (--case):
- cart_friction: a cart on a rough floor carrying a pendulum
  (models/cart_friction.nsm: M(q) depends on the angle, the friction's
  normal force is the held floor's contact force; reference
  tests/reference/cart_friction.py);
- brush_pendulum: a pendulum on a sprung cart whose bob brushes a rough
  plate (tests/lagrange/brush_pendulum.nsm: the slip velocity
  C' + l cos(th) th' has a coefficient of the angle, the normal force is
  constant, and there is no gap; reference tests/reference/brush_pendulum.py).

usage: check_friction.py --nsmc NSMC --include DIR --lib A:B:.. [--cc CC]
                         [--cflags="FLAGS"] [--case CASE] --method rk4|adaptive|taylor

Checks, with the method's tolerances (TOL):
- the friction element's stick, slip and reversal records, in the
  reference's order, each at the reference's instant;
- the states every 0.1 s (cart_friction: the cart's height held at 0);
- the energy dissipated by friction at t_end against the reference's
  quadrature of mu N |u|: the audit's integrated dissipation (the output
  column energy.dissipated) and the summary's line for the element;
- the energy balance (T = 1/2 v^T M(q) v, V(q), the friction work) closing.
"""
import argparse
import math
import os
import re
import tempfile

import lagcheck as lc
from lagcheck import check

# case: (model, whether the model has the floor's height Y to check, the
# kinetic energy's coefficients (A, B, D) written by hand:
# T = 1/2 A C'^2 + B cos(th) C' th' + 1/2 D th'^2 with the cart on the floor)
CASES = {"cart_friction": (os.path.join(lc.MODELS, "cart_friction.nsm"), True,
                           (2.5, 0.5 * 0.4, 0.5 * 0.4 ** 2)),
         "brush_pendulum": (os.path.join(lc.HERE, "brush_pendulum.nsm"), False,
                            (1.5, 0.5 * 0.5, 0.5 * 0.5 ** 2))}
# method: (simulator options, event s, sample abs, work rel, balance)
TOL = {"adaptive": (["--rtol", "1e-12", "--atol", "1e-14"], 1e-10, 1e-9, 1e-9, 1e-10),
       "rk4": (["--dt", "1e-4"], 1e-9, 1e-8, 1e-7, 1e-8),
       "taylor": ([], 1e-12, 1e-10, 1e-10, 1e-10)}


def simulate(exe, opts, work):
    """Events, the trajectory every 0.1 s, the dissipated energy (the
    integrated one, and the summary's line of element F) and the balance's
    error relative to the largest energy."""
    ev, out = os.path.join(work, "ev.csv"), os.path.join(work, "out.csv")
    summary = lc.run(exe, ["--events", ev, "--out", out, "--every", "0.1"] + opts)
    f = re.search(r"\n\s+friction F\s+(\S+) J", summary)
    k = re.search(r"\n\s+kinetic\s+(\S+) J", summary)
    rows = lc.read(out)
    return (lc.read(ev), rows, float(rows[-1]["energy.dissipated"]),
            float(f.group(1)) if f else float("nan"), lc.balance(summary),
            float(k.group(1)) if k else float("nan"))


def arguments():
    """lagcheck's command line and --case, one of CASES."""
    ap = argparse.ArgumentParser()
    for k in ("--nsmc", "--include", "--lib"):
        ap.add_argument(k, required=True)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cflags", default="-O2")
    ap.add_argument("--method", required=True, choices=sorted(TOL))
    ap.add_argument("--case", default="cart_friction", choices=sorted(CASES))
    return ap.parse_args()


def main():
    a = arguments()
    opts, et, st, wt, bt = TOL[a.method]
    ref_ev = lc.read(os.path.join(lc.REF_DATA, a.case + ".events.csv"))
    ref_sa = lc.read(os.path.join(lc.REF_DATA, a.case + ".samples.csv"))
    with tempfile.TemporaryDirectory() as work:
        exe = lc.build(a, work, CASES[a.case][0])
        events, traj, dissipated, line, bal, kin = simulate(exe, ["--method", a.method] + opts,
                                                            work)
    at0 = float(ref_ev[0]["t"]) == 0    # the reference records a slip at t = 0 (brush_pendulum)
    fric = [e for e in events if e["contact"] == "F" and (float(e["t"]) > 0 or at0)]
    check([e["kind"] for e in fric] == [r["kind"] for r in ref_ev],
          "stick and slip sequence %s (reference %s)"
          % (" ".join(e["kind"] for e in fric), " ".join(r["kind"] for r in ref_ev)))
    for k, (e, r) in enumerate(zip(fric, ref_ev)):
        t, tr = float(e["t"]), float(r["t"])
        check(abs(t - tr) <= et, "%s %d at %.17g s (reference %s, error %.3g s)"
              % (e["kind"], k, t, r["t"], t - tr))
    worst, at = lc.sample_error(lc.floats(traj), ref_sa, ("C.x", "th.phi", "C.v", "th.omega"))
    height = 0.0
    if CASES[a.case][1]:
        height = max([max(abs(s["Y.x"]), abs(s["Y.v"])) for s in at] + [0.0])
    check(worst <= st, "states at the reference's samples within %.3g (worst %.3g)" % (st, worst))
    if CASES[a.case][1]:
        check(height <= st, "the cart held on the floor (largest |Y|, |Y'| %.3g)" % height)
    wref = float(ref_sa[-1]["work"])
    check(abs(dissipated - wref) <= wt * wref, "friction work %.15g J (reference %.15g J, "
          "relative error %.3g)" % (dissipated, wref, (dissipated - wref) / wref))
    lt = max(wt, 1e-8)      # the summary prints 9 digits
    check(abs(line - wref) <= lt * wref, "the summary's friction F line %.9g J (reference "
          "%.15g J, relative error %.3g)" % (line, wref, (line - wref) / wref))
    # the summary's kinetic energy at t_end: 1/2 v^T M(q) v, not the unit
    # masses of the diagonal table, against T written by hand at the
    # reference's last sample
    A, B, D = CASES[a.case][2]
    r = {k: float(v) for k, v in ref_sa[-1].items()}
    tref = (A * r["C.v"] ** 2 / 2 + B * math.cos(r["th.phi"]) * r["C.v"] * r["th.omega"] +
            D * r["th.omega"] ** 2 / 2)
    check(abs(kin - tref) <= max(st, 1e-8) * tref, "the summary's kinetic energy %.9g J at t = %s s "
          "(1/2 v^T M(q) v by hand %.15g J)" % (kin, ref_sa[-1]["t"], tref))
    check(bal <= bt, "energy balance %.3g of the largest energy (at most %.3g)" % (bal, bt))
    lc.finish()


if __name__ == "__main__":
    main()
