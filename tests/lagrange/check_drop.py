#!/usr/bin/env python3
"""A frictional impact with M(q): the cart carrying a pendulum dropped on
the rough floor (tests/lagrange/cart_drop.nsm: e = 0.5, mu = 0.3, the cart
moving along the floor and the pendulum swinging as it lands), against the
closed form of the impulse problem at each impact's configuration.

At an impact the configuration q = (x, 0, th) and the velocities v- =
(x', y', th') before it are the simulator's (its Poincare section, full
precision); with M(q) = [[M+m, 0, m l cos th], [0, M+m, m l sin th],
[m l cos th, m l sin th, m l^2]] written by hand, the rows w_n = (0, 1, 0)
(the floor) and w_t = (1, 0, 0) (the slip x'), G = [w_n; w_t] M^-1
[w_n; w_t]^T, Newton's law w_n v+ = -e w_n v- and Coulomb's law on the
tangential impulse (Glocker and Pfeiffer; theory.md section 11): the
sticking impulse P_T* = -(u_t + G_nt c0) / (G_tt - G_nt^2 / G_nn) with
c0 = -(1 + e) u_n / G_nn, else sliding P_T = -s mu P_N with
P_N (G_nn - s mu G_nt) = -(1 + e) u_n.  Computed in mpmath (30 digits).

usage: check_drop.py --nsmc NSMC --include DIR --lib A:B:.. [--cc CC]
                     [--cflags="FLAGS"] --method rk4|adaptive|taylor

Checks at both impacts: the normal impulse of the event log and the
element's tangential impulse, the velocities after the impact (the
trajectory's row there, 12 printed digits), sliding as the closed form
says, and the energy balance.
"""
import os
import tempfile

from mpmath import mp, mpf

import lagcheck as lc
from lagcheck import check

mp.dps = 30
MC, MB, L, E, MU = mpf(2), mpf("0.5"), mpf("0.4"), mpf("0.5"), mpf("0.3")


def impulse(th, v):
    """(P_N, P_T, stuck, v+) of the frictional impact at angle th."""
    c, s = mp.cos(th), mp.sin(th)
    Mq = mp.matrix([[MC + MB, 0, MB * L * c], [0, MC + MB, MB * L * s],
                    [MB * L * c, MB * L * s, MB * L ** 2]])
    wn, wt = mp.matrix([0, 1, 0]), mp.matrix([1, 0, 0])
    zn, zt = mp.lu_solve(Mq, wn), mp.lu_solve(Mq, wt)
    Gnn, Gnt, Gtt = zn[1], zn[0], zt[0]
    un, ut = v[1], v[0]
    c0 = -(1 + E) * un / Gnn
    r = Gnt / Gnn
    pt = -(ut + Gnt * c0) / (Gtt - Gnt * r)
    stuck = abs(pt) <= MU * (c0 - r * pt)
    if not stuck:
        sg = 1 if ut + Gnt * c0 + (Gtt - Gnt * r) * 0 > 0 else -1
        pn = -(1 + E) * un / (Gnn - sg * MU * Gnt)
        pt = -sg * MU * pn
    else:
        pn = c0 - r * pt
    vp = [v[i] + zn[i] * pn + zt[i] * pt for i in range(3)]
    return pn, pt, stuck, vp


def main():
    a = lc.arguments(["rk4", "adaptive", "taylor"])
    with tempfile.TemporaryDirectory() as work:
        exe = lc.build(a, work, os.path.join(lc.HERE, "cart_drop.nsm"))
        ev, out, sec = (os.path.join(work, f) for f in ("ev.csv", "out.csv", "sec.csv"))
        summary = lc.run(exe, ["--method", a.method, "--events", ev, "--out", out, "--every",
                               "0", "--section", "impact:floor", "--section-out", sec])
        events, rows = lc.read(ev), lc.read(out)
        before = lc.section(sec, mpf)
    bal = lc.balance(summary)
    imp = [e for e in events if e["contact"] == "floor" and e["kind"] == "impact"]
    fr = [e for e in events if e["contact"] == "F" and float(e["t"]) > 0]
    check(len(imp) == 2 and len(before) == 2 and len(fr) == 2,
          "two impacts with their friction records (%d, %d, %d)" % (len(imp), len(before), len(fr)))
    for k, (e, f, b) in enumerate(zip(imp, fr, before)):
        t, th, v = float(e["t"]), b[4], [b[5], b[6], b[7]]
        pn, pt, stuck, vp = impulse(th, v)
        check(not stuck and f["kind"] == "slip", "impact %d slides (closed form %s, log %s)"
              % (k, "stick" if stuck else "slide", f["kind"]))
        check(abs(float(e["impulse"]) - pn) <= 1e-10 * abs(pn),
              "impact %d: P_N %s (closed form %s)" % (k, e["impulse"], mp.nstr(pn, 15)))
        check(abs(float(f["impulse"]) - pt) <= 1e-10 * abs(pt),
              "impact %d: P_T %s (closed form %s)" % (k, f["impulse"], mp.nstr(pt, 15)))
        after = lc.rows_at(rows, t, 1e-10)
        check(bool(after), "impact %d: the trajectory's row after it" % k)
        if after:
            q = after[-1]
            for name, want in zip(("C.v", "Y.v", "th.omega"), vp):
                got = float(q[name])
                check(abs(got - want) <= 1e-10 * max(1, abs(want)),
                      "impact %d: %s+ %.12g (closed form %s)" % (k, name, got, mp.nstr(want, 15)))
    check(bal <= 1e-10, "energy balance %.3g of the largest energy" % bal)
    lc.finish()


if __name__ == "__main__":
    main()
