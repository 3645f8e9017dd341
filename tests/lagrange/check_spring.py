#!/usr/bin/env python3
"""A mass on a damped spring swinging in polar coordinates (r, th) and
thrown against a wall (tests/lagrange/spring_wall.nsm, a model written by
its energies: M(q) = diag(m, m r^2), a curved gap d - r sin th, a spring,
a damper and a torque on the coordinates) against a reference computed
here, independently of nsmc: the equations written by hand,

  m r''      = m r th'^2 + m g cos th - k (r - L0) - c r',
  m r^2 th'' = -2 m r r' th' - m g r sin th - 0.05 th',

integrated by mp.odefun (Taylor series, 20 digits) from r = 0.6 m,
th = 0.2 rad, th' = 3 rad/s; the impact is the zero of d - r sin th
(mp.findroot), its normal velocity W v with W = (-sin th, -r cos th), and
Newton's law with W M^-1 W^T = 1/m gives the velocity after, -e W v, and
the impulse (1 + e) |W v| m; the velocities after the impact,
v+ = v- + M^-1 W^T P, start a second mp.odefun integration up to
t_end = 0.2 s, whose state is compared with the trajectory's last row.

usage: check_spring.py --nsmc NSMC --include DIR --lib A:B:.. [--cc CC]
                       [--cflags="FLAGS"] --method rk4|adaptive|taylor
"""
import os
import sys
import tempfile

from mpmath import mp, mpf

import lagcheck as lc
from lagcheck import check

M, K, C, L0, G, D, E, TQ = (mpf(v) for v in ("0.8", "40", "0.3", "0.5", "9.81", "0.3", "0.5", "0.05"))
T_END = mpf("0.2")
# method: (simulator options, event s, relative speed, balance, state at t_end)
TOL = {"adaptive": (["--rtol", "1e-12", "--atol", "1e-14"], 1e-10, 1e-9, 1e-10, 1e-9),
       "rk4": (["--dt", "1e-4"], 1e-9, 1e-8, 1e-8, 1e-8),
       # the taylor targets: the event within 1e-12 s, states within
       # 1e-10 relative, the balance within 1e-10 of the largest energy
       "taylor": ([], 1e-12, 1e-10, 1e-10, 1e-10)}


def rhs(t, y):
    r, th, rd, thd = y
    rdd = r * thd ** 2 + G * mp.cos(th) - (K * (r - L0) + C * rd) / M
    thdd = (-2 * M * r * rd * thd - M * G * r * mp.sin(th) - TQ * thd) / (M * r ** 2)
    return [rd, thd, rdd, thdd]


def reference():
    """The impact's time, normal velocity before it, impulse, and the state
    (r, th, r', th') at T_END after it."""
    mp.dps = 20
    sol = mp.odefun(rhs, 0, [mpf("0.6"), mpf("0.2"), mpf(0), mpf(3)])
    ti = mp.findroot(lambda t: D - sol(t)[0] * mp.sin(sol(t)[1]), (mpf("0.10"), mpf("0.12")),
                     solver="anderson")
    r, th, rd, thd = sol(ti)
    u = -mp.sin(th) * rd - r * mp.cos(th) * thd
    P = (1 + E) * abs(u) * M
    # v+ = v- + M^-1 W^T P, M = diag(m, m r^2), W = (-sin th, -r cos th)
    after = [r, th, rd - mp.sin(th) * P / M, thd - r * mp.cos(th) * P / (M * r ** 2)]
    end = mp.odefun(rhs, ti, after)(T_END)
    gap_end = D - end[0] * mp.sin(end[1])
    if not gap_end > 0:
        sys.exit("reference: a second impact before t_end")
    return ti, u, P, end


def main():
    a = lc.arguments(TOL)
    opts, et, vt, bt, yt = TOL[a.method]
    ti, u, P, end = reference()
    with tempfile.TemporaryDirectory() as work:
        exe = lc.build(a, work, os.path.join(lc.HERE, "spring_wall.nsm"))
        ev, out = os.path.join(work, "ev.csv"), os.path.join(work, "out.csv")
        summary = lc.run(exe, ["--method", a.method, "--events", ev, "--out", out] + opts)
        imp = [r for r in lc.read(ev) if r["kind"] == "impact"]
        last = lc.floats(lc.read(out))[-1]
    check(len(imp) == 1, "one impact on the wall (%d)" % len(imp))
    if imp:
        e = imp[0]
        t = float(e["t"])
        check(abs(t - float(ti)) <= et, "impact at %.17g s (reference %s, error %.3g s)"
              % (t, mp.nstr(ti, 17), t - float(ti)))
        for name, got, want in (("normal velocity before", e["vrel_before"], u),
                                ("normal velocity after", e["vrel_after"], -E * u),
                                ("impulse", e["impulse"], P)):
            check(abs(float(got) - float(want)) <= vt * abs(float(want)),
                  "%s %s (reference %s)" % (name, got, mp.nstr(want, 15)))
    check(abs(last["t"] - float(T_END)) < 1e-12, "the trajectory ends at t = %g s" % last["t"])
    worst = max(abs(last[c] - float(w)) / max(1.0, abs(float(w)))
                for c, w in zip(("r.x", "th.phi", "r.v", "th.omega"), end))
    check(worst <= yt, "state at t = %s s within %.3g relative (worst %.3g)"
          % (mp.nstr(T_END, 3), yt, worst))
    bal = lc.balance(summary)
    check(bal <= bt, "energy balance %.3g of the largest energy (at most %.3g)" % (bal, bt))
    lc.finish()


if __name__ == "__main__":
    main()
