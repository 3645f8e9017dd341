#!/usr/bin/env python3
"""A Zeno cascade with a dense mass matrix: tests/lagrange/skew_zeno.nsm, a
body written by its energies, T = 1/2 a X'^2 + b X' Y' + 1/2 c Y'^2 and
V = w Y, dropped from h on the floor Y >= 0 with e = 0.5, against closed
forms computed here (mpmath, 30 digits).

With M = [[a, b], [b, c]], Lagrange's equations give Y'' = -w (M^-1)_YY =
-g_eff, g_eff = w a / (a c - b^2), and no force on X: the momentum
p_X = a X' + b Y' is constant in flight, and every impulse of the floor
(row (0, 1)) leaves it alone.  The first impact comes at t1 =
sqrt(2 h / g_eff), each flight after is e times the one before, so the
bounces accumulate at t* = t1 (1 + e) / (1 - e) (the cascade is jumped
there: one zeno record).  At rest on the floor X' = p_X / a, and
X(t) = X0 + (p_X t - b (Y(t) - Y0)) / a.  The impulses go through the
mass operator M^-1 (massmat.c): with the diagonal of the table instead,
X' would not move at the impacts and p_X would not be kept.

usage: check_zeno.py --nsmc NSMC --include DIR --lib A:B:.. [--cc CC]
                     [--cflags="FLAGS"] --method rk4|adaptive|taylor
"""
import os
import tempfile

import lagcheck as lc
from lagcheck import check
from mpmath import mp, mpf, sqrt

mp.dps = 30
A, B, C, W, H, E, XV0, T_END = (mpf(2), mpf("0.6"), mpf(1), mpf("9.81"), mpf("0.5"), mpf("0.5"),
                                mpf("0.3"), mpf(2))


def main():
    a = lc.arguments(["rk4", "adaptive", "taylor"])
    with tempfile.TemporaryDirectory() as work:
        exe = lc.build(a, work, os.path.join(lc.HERE, "skew_zeno.nsm"))
        ev, out = os.path.join(work, "ev.csv"), os.path.join(work, "out.csv")
        summary = lc.run(exe, ["--method", a.method, "--events", ev, "--out", out, "--every", "0"])
        events, rows = lc.read(ev), lc.read(out)
    g_eff = W * A / (A * C - B * B)
    t1 = sqrt(2 * H / g_eff)
    t_star = t1 * (1 + E) / (1 - E)
    p_x = A * XV0
    imp = [e for e in events if e["kind"] == "impact"]
    zeno = [e for e in events if e["kind"] == "zeno"]
    check(bool(imp) and abs(float(imp[0]["t"]) - t1) <= 1e-10,
          "first impact at t1 = %s (%s)" % (mp.nstr(t1, 15), imp[0]["t"] if imp else "none"))
    if imp:   # X' after the first impact: p_X kept, Y' = e g_eff t1
        first = [q for q in rows if abs(float(q["t"]) - float(imp[0]["t"])) <= 1e-12]
        want = (p_x - B * E * g_eff * t1) / A
        check(bool(first) and abs(float(first[-1]["X.v"]) - want) <= 1e-10,
              "X' after the first impact %s (closed form %s)"
              % (first[-1]["X.v"] if first else "?", mp.nstr(want, 15)))
    check(len(zeno) == 1, "one zeno record (%d)" % len(zeno))
    if zeno:
        check(abs(float(zeno[0]["t"]) - t_star) <= 1e-9,
              "accumulation point %s (closed form t1 (1 + e) / (1 - e) = %s)"
              % (zeno[0]["t"], mp.nstr(t_star, 15)))
    end = rows[-1]
    want = {"X.x": (p_x * T_END + B * H) / A, "X.v": p_x / A, "Y.x": 0, "Y.v": 0}
    for name, v in want.items():
        got = float(end[name])
        check(abs(got - v) <= 1e-9, "%s at t_end %.12g (closed form %s)" % (name, got, mp.nstr(v, 15)))
    bal = lc.balance(summary)
    check(bal <= 1e-10, "energy balance %.3g of the largest energy" % bal)
    lc.finish()


if __name__ == "__main__":
    main()
