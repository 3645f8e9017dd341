#!/usr/bin/env python3
"""What the eighteenth hostile pass on the core left as found, each case
failing before its fix.

    tests/reliability/leftovers19_core_test.py SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  rock     Housner's rocking block (b = 0.2 m, h = 0.5 m, released at 0.1
           rad) comes to rest on both corners at t*, which the nonlinear
           tests' refs.rocking_accumulation derives by quadratures of the
           energy flight by flight; beside it a block on a rough floor (mu =
           0.2) slides to rest at t* - d, d = 1e-9 ... 1e-2 s, -1e-6 and
           -1e-3 s.  The rocking's own jump stopped the block where it was
           at the last impact, 4.3 ms before t* (1.8e-5 m of its slide
           lost, exit 0).  Now it stops at v0/(mu g), x = v0^2/(2 mu g), and
           stays, by taylor, rk4 and adaptive; a stop inside the summed
           tail (d = 1e-9 to 1e-3 s) is refused naming the rocking cascade
           and the block's friction.
  sliprow  a friction whose slip is M.v*M.x/1 m (mu = 0.1, normal 1 N, m =
           1 kg), its row vanishing where the slip crosses 0: from x = 1 m
           at -1 m/s taylor refused it as "a model whose speeds are at most
           1.05e-16 m/s" (exit 3) where rk4 and adaptive stop at -3 m.  The
           force -mu N |x| sign(v) gives x'' = c x (x > 0), -c x (x < 0), c
           = mu N/(m 1 m): through 0 at atanh(w/|v0|)/w (w = sqrt(c)),
           at rest at x = -sqrt(v0^2/c - x0^2) a quarter period later, by
           all three methods, from -1 and -2 m/s.
  limit    a block (m = 1 and 3 kg) on a rough floor (mu_s, mu_k = 0.3
           mu_s, normal N: a constant, or its floor's contact under gravity)
           pushed at mu_s N (1 - 1e-15), mu_s N and mu_s N (1 + 1e-12), at
           t = 0 and from t = 0.5 s on (a time switch), mu_s N computed in
           doubles from (mu_s, N) = (0.5, 9.81), (0.3, 3.3), (0.7, 12.3),
           (0.45, 8): Coulomb's stick holds while |F| <= mu_s N, so the
           first two stay at rest (x within 1e-12 m) under exact, rk4 and
           adaptive; the last slides at a = (F - mu_k N)/m.  Pushes up to
           (1 + 1e-10) mu_s N stuck (the cone's tolerance was 1e-10 of the
           forces' scale, and a switched push's excess within the cone's
           event tolerance was never seen), exit 0.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, compiled, main  # noqa: E402

SRC = os.path.abspath(sys.argv[1])
G = 9.81

# Housner's block (models/rocking_block.nsm) beside a planar block K on a
# rough floor of its own, sliding at v0
ROCK = '''model rock "a rocking block beside a block sliding to rest"
param b = 0.2 m
param h = 0.5 m
param theta0 = 0.1 rad
param v0 = 0 m/s
body B: mass = 1 kg, inertia = 1 kg*(b^2 + h^2)/3
body K: mass = 1 kg, inertia = 1 kg*m^2
gravity 9.81 m/s^2
gap L: B.y - b*sin(B.phi) - h*cos(B.phi) >= 0, impact(e = 0)
gap R: B.y + b*sin(B.phi) - h*cos(B.phi) >= 0, impact(e = 0)
friction FL: slip = B.vx + (b*sin(B.phi) + h*cos(B.phi))*B.omega, mu = 2, normal = gap L
friction FR: slip = B.vx + (h*cos(B.phi) - b*sin(B.phi))*B.omega, mu = 2, normal = gap R
gap KF: K.y >= 0 m, impact(e = 0)
friction fk: slip = K.vx, mu = 0.2, normal = gap KF
init K.vx = v0, B.x = b*cos(theta0) - h*sin(theta0), B.y = b*sin(theta0) + h*cos(theta0), B.phi = theta0
simulate t_end = 2 s, dt = 1 ms
output every 10 ms: B.phi, B.omega, K.x, K.vx
'''

# a friction whose slip's row (M.x / 1 m) vanishes where the slip crosses 0
SLIPROW = '''model sliprow "a friction whose slip row vanishes at x = 0"
param v0 = -1 m/s
mass M = 1 kg
friction f: slip = M.v*M.x/1 m, mu = 0.1, normal = 1 N
init M.x = 1 m, M.v = v0
simulate t_end = 20 s, dt = 1 ms
output every 10 ms: M.x, M.v
'''

# a block on a rough floor pushed by p from ts on: its normal a constant
# (LINE) or its floor's contact under gravity (FLOOR)
LINE = '''model line "a block pushed at its static limit"
param p = 1 N
param ms = 0.5
param mk = 0.15
param nf = 9.81 N
param m = 1 kg
param ts = 0 s
mass M = m
friction f: M -- ground, mu_s = ms, mu_k = mk, normal = nf
force F: on M = if t >= ts then p else 0 N
simulate t_end = 1 s, dt = 1 ms
output every 10 ms: M.x, M.v
'''
FLOOR = '''model floor "a block on a floor pushed at its static limit"
param p = 1 N
param ms = 0.5
param mk = 0.15
param nf = 9.81 m/s^2
param m = 1 kg
param ts = 0 s
body M: mass = m, inertia = 1 kg*m^2
gravity nf
gap fl: M.y >= 0 m, impact(e = 0)
friction f: slip = M.vx, mu_s = ms, mu_k = mk, normal = gap fl
force F: on M.x = if t >= ts then p else 0 N
simulate t_end = 1 s, dt = 1 ms
output every 10 ms: M.x, M.vx
'''


def refusal(call):
    """The message of call's SimulationError ('' when it runs)."""
    try:
        call()
    except Exception as e:  # noqa: BLE001 (nsm.SimulationError and its kin)
        return str(e)
    return ""

# the same through sin(M.x/1 m) (mu = 1): -mu N |sin x| sign(v)
SLIPSIN = SLIPROW.replace("sliprow", "slipsin").replace("M.v*M.x/1 m", "M.v*sin(M.x/1 m)"
                                                         ).replace("mu = 0.1", "mu = 1")


def rocking_tstar():
    """t* of the rocking block above, by the nonlinear tests' quadratures."""
    sys.path.insert(0, os.path.join(SRC, "tests", "nonlinear"))
    import refs
    from mpmath import mpf
    return float(refs.rocking_accumulation(mpf("0.2"), mpf("0.5"), mpf("9.81"), mpf("0.1"))[0])


def case_rock(tmp):
    """A block sliding to rest inside the rocking block's summed tail."""
    tstar = rocking_tstar()
    print("  rocking block at rest on both corners at t* = %.15g s (quadratures)" % tstar)
    m = compiled(tmp, "rock", ROCK)
    for d in (1e-9, 1e-6, 1e-4, 1e-3, 1e-2, -1e-6, -1e-3):
        ts = tstar - d
        v0 = 0.2 * G * ts
        for meth in ("taylor", "rk4", "adaptive"):
            got = []
            msg = refusal(lambda: got.append(m.run(method=meth, params={"v0": v0})))
            if not got:
                print("  block sliding to rest at t* - %g s beside the rocking block, %s -> "
                      "refused: %s" % (d, meth, msg[:400]))
                check("rocking cascade between gaps 'R' and 'L'" in msg.replace("'L' and 'R'",
                      "'R' and 'L'") and "friction element 'fk' changes state inside its tail"
                      in msg, "a block sliding to rest at t* - %g s beside a rocking block (%s): "
                      "refused naming the rocking cascade and the block's friction" % (d, meth))
                continue
            r = got[0]
            err = max(abs(x - (v0 * t - 0.1 * G * t * t if t < ts else v0 * ts / 2))
                      for t, x in zip(r.t, r["K.x"]))
            back = [float(e["t"]) for e in r.events if e["kind"] == "reversal"]
            zeno = [float(e["t"]) for e in r.events if e["kind"] == "zeno"]
            rest = max(abs(p) + abs(w) for t, p, w in zip(r.t, r["B.phi"], r["B.omega"])
                       if t > tstar + 1e-3)
            print("  block sliding to rest at t* - %g s beside the rocking block, %s -> x within "
                  "%.3g m, reversals at %s, zeno at %s, rocking block within %.3g of rest after "
                  "t*" % (d, meth, err, back, zeno, rest))
            check(err < 1e-9 and not back and rest < 1e-9,
                  "a block sliding to rest at t* - %g s beside a rocking block (%s): stops at "
                  "v0/(mu g), x = v0^2/(2 mu g), no reversal; the rocking block at rest after t*"
                  % (d, meth))


def sliprow_x(v0, t, x0=1.0, c=0.1):
    """x(t) of x'' = c x (x > 0), -c x (x < 0) from x0 > 0 at v0 < 0 (the
    friction -mu N |x| sign(v), c = mu N / m per metre), until it rests."""
    w = math.sqrt(c)
    # x > 0: x = x0 cosh(w t) + v0/w sinh(w t), through 0 at tanh(w t0) = -x0 w / v0
    t0 = math.atanh(-x0 * w / v0) / w
    if t <= t0:
        return x0 * math.cosh(w * t) + v0 / w * math.sinh(w * t)
    v1 = -math.sqrt(v0 * v0 - c * x0 * x0)      # the speed at 0 (energy)
    s = min(t - t0, math.pi / (2 * w))
    return v1 / w * math.sin(w * s)


def case_sliprow(tmp):
    """A slip whose row vanishes where it crosses 0, by every method."""
    m = compiled(tmp, "sliprow", SLIPROW)
    for v0 in (-1.0, -2.0):
        xend = -math.sqrt(v0 * v0 / 0.1 - 1)
        for meth in ("taylor", "rk4", "adaptive"):
            try:
                r = m.run(method=meth, params={"v0": v0})
            except Exception as e:  # noqa: BLE001 (the refusal is the finding)
                print("  slip M.v*M.x/1 m from 1 m at %g m/s, %s -> refused: %s"
                      % (v0, meth, str(e)[:300]))
                check(False, "slip M.v*M.x/1 m from 1 m at %g m/s (%s): runs to its rest" % (v0, meth))
                continue
            err = max(abs(x - sliprow_x(v0, t)) for t, x in zip(r.t, r["M.x"]))
            print("  slip M.v*M.x/1 m from 1 m at %g m/s, %s -> x(20 s) = %.15g m (closed form "
                  "%.15g), x within %.3g m of it throughout" % (v0, meth, r["M.x"][-1], xend, err))
            check(err < 1e-7 and abs(r["M.x"][-1] - xend) < 1e-9,
                  "slip M.v*M.x/1 m from 1 m at %g m/s (%s): at rest at x = -sqrt(v0^2/c - x0^2)"
                  % (v0, meth))
    # slip M.v*sin(M.x/1 m): v^2/2 falls by mu N (1 - cos x)/m from 0 either
    # side, so from 1 m at -1 m/s it rests at cos x = 1 - (1/2 - (1 - cos 1))
    m = compiled(tmp, "slipsin", SLIPSIN)
    xend = -math.acos(1 - (0.5 - (1 - math.cos(1))))
    for meth in ("taylor", "rk4", "adaptive"):
        got = []
        msg = refusal(lambda: got.append(m.run(method=meth, params={"v0": -1.0})))
        x = got[0]["M.x"][-1] if got else None
        print("  slip M.v*sin(M.x/1 m) from 1 m at -1 m/s, %s -> %s (closed form %.15g)"
              % (meth, "x(20 s) = %.15g m" % x if got else "refused: " + msg[:300], xend))
        check(got and abs(x - xend) < 1e-9, "slip M.v*sin(M.x/1 m) from 1 m at -1 m/s (%s): at "
              "rest at cos x = 1/2 + cos 1" % meth)



def case_limit(tmp):
    """A block pushed at mu_s N, just below and just above it."""
    for name, text in (("line", LINE), ("floor", FLOOR)):
        mod = compiled(tmp, name, text)
        for ms, g in ((0.5, 9.81), (0.3, 3.3), (0.7, 12.3), (0.45, 8.0)):
            for m in (1.0, 3.0):
                # the normal force: nf itself (line), or m g of the floor's contact
                n = g if name == "line" else m * g
                for fac in (1 - 1e-15, 1.0, 1 + 1e-12):
                    p = ms * n * fac
                    for ts in (0.0, 0.5):
                        a = (p - 0.3 * ms * n) / m if fac > 1 else 0.0
                        for meth in ("exact", "rk4", "adaptive"):
                            r = mod.run(method=meth, params={"p": p, "ms": ms, "mk": 0.3 * ms,
                                                             "nf": g, "m": m, "ts": ts})
                            err = max(abs(x - (a * (t - ts) ** 2 / 2 if t > ts else 0))
                                      for t, x in zip(r.t, r["M.x"]))
                            print("  %s block, m = %g kg, mu_s = %g, N = %g N, pushed at %.17g N "
                                  "= mu_s N (%.15g) from %g s, %s -> x within %.3g m of %s"
                                  % (name, m, ms, n, p, fac, ts, meth, err,
                                     "rest" if fac <= 1 else "a = (F - mu_k N)/m"))
                            check(err < 1e-12 if fac <= 1 else err < 1e-9 * a,
                                  "%s block pushed at mu_s N (%.15g) from %g s (%s): %s"
                                  % (name, fac, ts, meth, "stuck" if fac <= 1 else "sliding"))


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-left19core-", case_arg=2))
