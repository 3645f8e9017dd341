#!/usr/bin/env python3
"""A twelfth hostile pass on the core (issue #29): the simulators' numerics
under hostile models and settings through the Python package, every answer
checked against a closed form derived by hand.

    tests/reliability/twelfth_pass_core_test.py SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  findings   what the pass found, each failing before its fix: the Floquet
             study of an undamped oscillator (m = 1 kg, k = 4 N/m) forced at
             its own frequency, which has no periodic orbit (its velocity
             gains pi F/(m w) each period), returned one at x = -1.7e15 m with
             the multipliers 1, 1, no error (Phi - I singular but for
             rounding: Newton's residual of pi/2 m/s is within 1e-14 of that
             state): refused now, "a multiplier is 1 within rounding"; a
             stroboscopic section whose instant is an impact's (a ball
             dropped from 1 m under 2 m/s^2 lands at t = 1 s exactly)
             recorded the state before the impact under exact (v = -2 m/s)
             and after it under rk4 and adaptive (v = +1 m/s, as the
             trajectory's sample at t = 1 s): the record is now the state
             after the transition for every method, at t_end too; exact
             recorded no crossing of a plane that fell on a step's end (the
             ball's apexes at 1.5 and 2.25 s, v = 0 there, on steps of 1 ms)
             where rk4 and adaptive record both.
  linear     a damped forced oscillator against its closed form (the
             particular and homogeneous solutions, distinct roots) for
             damping 0 to 100 N s/m and forcing 1 to 1000 rad/s; beats at
             2 - 1e-9 and 2 - 2^-40 rad/s and resonance at 2 rad/s (x = F t
             sin(2 t)/(4 m)); critical damping x = A (1 + w t) e^(-w t) at
             A = 1 and 1e-200 m, and 1e200 m refused for its energies.
  studies    Floquet multipliers exp(lambda T) of the forced damped
             oscillator and its orbit X = F/(k - m W^2 + i c W); Lyapunov
             exponents of the free damped oscillator: their sum -c/m to
             rounding, each -c/2m (or the two real roots) within the
             finite-time bound log(2)/duration; Poincare planes of x = cos 2t
             at t = 3 pi/4 + k pi, pi/4 + k pi/2, and x = 0.5; impact
             sections of the ball at t = 1, 2, 2.5 s.
  laws       Newton's cradle of 3 beads under the sequential and the
             simultaneous impact laws at e = 0, 0.5, 1 (velocities by hand,
             every linear method); the belt's stick at pi/2 s and slip at
             pi/2 + 2/3 s and its trajectory, mu_s = mu_k; a torque-free
             symmetric top's body rates (w1 + i w2) e^(i (I3 - I1)/I1 w3 t) at
             I3/I1 = 5/3, 1, 2, 1e-12/0.3, and inertias of 1e-200 and 1e200,
             I3 > 2 I1 refused.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import cmath
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# compiled stays importable from here for the passes that take it from this one
from passlib import ball_drop, check, compiled, main, rk, thin  # noqa: E402

SRC = os.path.abspath(sys.argv[1])

# m x'' + c x' + k x = F cos(om t), x(0) = A, v(0) = 0
FORCED = '''model forced "a damped forced linear oscillator"
param m = 1 kg
param k = 4 N/m
param c = 0 N*s/m
param F = 1 N
param om = 1 rad/s
param A = 0 m
mass M = m
spring S: ground -- M, k = k, c = c
force P: on M = F * cos(om*t)
init M.x = A, M.v = 0 m/s
simulate t_end = 20 s, method = exact
output every 0.5 s: M.x, M.v
'''

# a ball dropped from h under g: it lands at t = sqrt(2 h/g) = 1 s exactly
BALL = ball_drop("rk4")

METHODS = ("exact", "rk4", "adaptive")


def forced_closed(k, c, F, om, A, t, m=1.0):
    """x(t) of m x'' + c x' + k x = F cos(om t), x(0) = A, v(0) = 0, for
    c^2 != 4 k m: X = F/(k - m om^2 + i c om), x = Re(X e^(i om t)) + a e^(l1 t)
    + b e^(l2 t), l the roots of m l^2 + c l + k."""
    X = F / (k - m * om * om + 1j * c * om)
    xp0, vp0 = X.real, (1j * om * X).real
    d = cmath.sqrt(c * c - 4 * m * k)
    l1, l2 = (-c + d) / (2 * m), (-c - d) / (2 * m)
    a = (-vp0 - l2 * (A - xp0)) / (l1 - l2)
    b = (A - xp0) - a
    return [(X * cmath.exp(1j * om * s)).real + (a * cmath.exp(l1 * s) + b * cmath.exp(l2 * s)).real
            for s in t]


def rel_err(got, ref):
    """max |got - ref| / max |ref|."""
    scale = max(abs(r) for r in ref)
    return max(abs(g - r) for g, r in zip(got, ref)) / scale


# ---- findings ---------------------------------------------------------------

def case_findings(tmp):
    import nsm
    m = compiled(tmp, "forced", FORCED)
    # undamped, forced at w = 2 rad/s: v gains pi F/(m w) = pi/2 m/s a period
    # (x_p = F t sin(w t)/(2 m w)): no periodic orbit; at om = 1 every orbit
    # repeats (w T = 4 pi): none is isolated
    for om in (2.0, 1.0):
        for meth in ("exact", "rk4"):
            try:
                y, mu = m.floquet("2*pi/om", params={"c": 0, "om": om}, method=meth)
                print("  floquet at om = %g, %s -> an orbit at %s, multipliers %s"
                      % (om, meth, y, mu))
                check(False, "the undamped oscillator forced at om = %g (w = 2): refused, a "
                      "multiplier is 1 (it gave an orbit at x = -1.7e15 m, no error)" % om)
            except nsm.SimulationError as e:
                print("  floquet at om = %g, %s -> %s" % (om, meth, e))
                check("a multiplier is 1 within rounding" in str(e) and "not isolated" in str(e),
                      "the undamped oscillator forced at om = %g under %s: refused, a multiplier "
                      "is 1 within rounding (it gave an orbit at x = -1.7e15 m)" % (om, meth))
    # near resonance the orbit is isolated and found: X = F/(k - m om^2)
    om = 2 * (1 - 1e-9)
    y, mu = m.floquet("2*pi/om", params={"c": 0, "om": om}, method="exact")
    X = 1 / ((2 - om) * (2 + om))
    print("  floquet at om = 2(1 - 1e-9), exact -> x0 %.12g (X %.12g)" % (y[0], X))
    check(abs(y[0] - X) < 1e-6 * X and abs(abs(mu[0]) - 1) < 1e-12,
          "at om = 2(1 - 1e-9) the orbit X = F/(k - m om^2) = 1.25e8 m within 1e-6 X, "
          "multipliers on the unit circle")
    # a stroboscopic time on an impact's instant: the state after it
    b = compiled(tmp, "ball", BALL)
    for meth in METHODS:
        r = b.run(method=meth, every=0.25, t_end=2.5)
        i = list(r.t).index(1.0)
        rec = b.section("period:0.5", t_end=2.5, method=meth)
        at = {round(row[0], 12): row for row in rec}
        print("  period:0.5, %s -> t = 1: v %r (sample %r), t = 2.5: v %r"
              % (meth, at[1.0][3], r["B.v"][i], at[2.5][3]))
        check(abs(at[1.0][3] - 1) < 1e-12 and abs(at[1.0][3] - r["B.v"][i]) < 1e-12,
              "%s: the record at t = 1 s, the landing's instant, is the state after the impact "
              "(v = e sqrt(2 g h) = 1 m/s), as the trajectory's sample (exact gave -2)" % meth)
        check(abs(at[2.5][3] - 0.25) < 1e-12 and len(rec) == 6,
              "%s: the record at t_end = 2.5 s, the third landing, after it (0.25 m/s), six "
              "records" % meth)
        # the apexes at 1.5 and 2.25 s (v = 0 there, on a step's end: dt 1 ms)
        rec = b.section("plane:B.v:down", t_end=2.5, method=meth)
        t = [row[0] for row in rec]
        print("  plane:B.v:down, %s -> %s" % (meth, t))
        check(len(t) == 2 and abs(t[0] - 1.5) < 1e-12 and abs(t[1] - 2.25) < 1e-12,
              "%s: the apexes at 1.5 and 2.25 s, each on a step's end (exact recorded none)"
              % meth)


# ---- linear -----------------------------------------------------------------

def case_linear(tmp):
    m = compiled(tmp, "forced", FORCED)
    tol = {"exact": 1e-12, "rk4": 1e-8, "adaptive": 1e-7}
    for c in thin((0.0, 0.1, 3.9, 4.1, 100.0)):
        for om in (1.999, 1e3) if c else (1.0, 3.0, 1e3):
            for meth in METHODS:
                r = m.run(method=meth, params={"c": c, "om": om}, every=0.5, **rk(meth))
                err = rel_err(r["M.x"], forced_closed(4, c, 1, om, 0, r.t))
                print("  c = %g, om = %g, %s -> %.1e of the amplitude" % (c, om, meth, err))
                check(err < tol[meth], "c = %g, om = %g, %s: the closed form within %g"
                      % (c, om, meth, tol[meth]))
    # beats and resonance: x = 2F/(m (w^2 - om^2)) sin((w - om) t/2) sin((w + om) t/2)
    for om in (2 * (1 - 1e-9), 2 - 2 ** -40, 2.0):
        for meth in METHODS:
            r = m.run(method=meth, params={"om": om}, every=0.5, **rk(meth))
            if om == 2.0:
                ref = [s * math.sin(2 * s) / 4 for s in r.t]
            else:
                d = 2 - om              # exact (Sterbenz)
                ref = [2 / (d * (2 + om)) * math.sin(d * s / 2) * math.sin((2 + om) * s / 2)
                       for s in r.t]
            err = rel_err(r["M.x"], ref)
            print("  om = %.17g, %s -> %.1e" % (om, meth, err))
            check(err < tol[meth], "beats/resonance at om = %.17g, %s within %g"
                  % (om, meth, tol[meth]))
    # critical damping: c = 2 sqrt(k m) = 4, x = A (1 + 2 t) e^(-2 t)
    import nsm
    for A in (1.0, 1e-200):
        for meth in METHODS:
            r = m.run(method=meth, params={"c": 4, "F": 0, "A": A}, every=0.5, **rk(meth))
            err = max(abs(x - A * (1 + 2 * s) * math.exp(-2 * s)) for s, x in zip(r.t, r["M.x"])) / A
            print("  critical, A = %g, %s -> %.1e A" % (A, meth, err))
            check(err < tol[meth], "critical damping at A = %g, %s within %g A" % (A, meth,
                                                                                 tol[meth]))
    try:
        m.run(method="exact", params={"c": 4, "F": 0, "A": 1e200})
        check(False, "an amplitude of 1e200 m (energy 2e400 J) refused")
    except nsm.SimulationError as e:
        check("beyond the range of double" in str(e),
              "an amplitude of 1e200 m: refused, its energies beyond a double's range")


# ---- studies ----------------------------------------------------------------

def case_studies(tmp):
    m = compiled(tmp, "forced", FORCED)
    for c in (0.1, 1.0, 5.0):
        for om in (1.0, 3.0):
            for meth in ("exact", "rk4"):
                y, mu = m.floquet("2*pi/om", params={"c": c, "om": om}, method=meth)
                T, d = 2 * math.pi / om, cmath.sqrt(c * c - 16)
                ref = [cmath.exp((-c + d) / 2 * T), cmath.exp((-c - d) / 2 * T)]
                err = min(max(abs(mu[0] - ref[0]), abs(mu[1] - ref[1])),
                          max(abs(mu[0] - ref[1]), abs(mu[1] - ref[0])))
                X = 1 / (4 - om * om + 1j * c * om)
                ey = max(abs(y[0] - X.real), abs(y[1] - (1j * om * X).real))
                print("  floquet c = %g, om = %g, %s -> multipliers within %.1e, orbit %.1e"
                      % (c, om, meth, err, ey))
                check(err < 1e-12 and ey < 1e-10,
                      "floquet c = %g, om = %g, %s: exp(lambda T) within 1e-12, the orbit X "
                      "within 1e-10" % (c, om, meth))
    for c in (0.0, 1.0, 4.0, 10.0):
        du = 200.0
        L = m.lyapunov(duration=du, interval=1, params={"c": c, "A": 1, "F": 0}, method="exact")
        d = cmath.sqrt(c * c - 16)
        ref = sorted([((-c + d) / 2).real, ((-c - d) / 2).real], reverse=True)
        err = max(abs(L[0] - ref[0]), abs(L[1] - ref[1]))
        print("  lyapunov c = %g -> %s (%s), sum %.17g" % (c, L, ref, L[0] + L[1]))
        # a finite time's growth: the orbit's ellipse (axes 1 and 2) bounds it
        # by log(4)/du; at critical damping the Jordan block's (1 + 2 t) too
        bound = math.log(4 * (1 + 2 * du if c == 4.0 else 1)) / du
        check(abs(L[0] + L[1] + c) < 1e-12 * max(1, c) and err < bound,
              "lyapunov of the damped oscillator c = %g: sum -c/m to 1e-12, each within "
              "%.3g of the roots' real parts (%.2g)" % (c, bound, err))
    for meth in METHODS:
        for spec, t0, step in (("plane:M.x:up", 3 * math.pi / 4, math.pi),
                               ("plane:M.x:both", math.pi / 4, math.pi / 2),
                               ("plane:M.x - 0.5", math.pi - math.acos(0.5) / 2, math.pi)):
            R = m.section(spec, t_end=20, params={"F": 0, "A": 1}, method=meth)
            n = int((20 - t0) // step) + 1
            err = max(abs(row[0] - (t0 + i * step)) for i, row in enumerate(R))
            print("  %s, %s -> %d records, times within %.1e" % (spec, meth, len(R), err))
            check(len(R) == n and err < 1e-8, "%s of x = cos 2t, %s: %d crossings within 1e-8 s"
                  % (spec, meth, n))
    b = compiled(tmp, "ball", BALL)
    for meth in METHODS:
        R = b.section("impact:floor", t_end=2.5, method=meth)
        t = [row[0] for row in R]
        print("  impact:floor, %s -> %s" % (meth, t))
        check(len(t) == 3 and max(abs(a - r) for a, r in zip(t, (1, 2, 2.5))) < 1e-12,
              "impact:floor, %s: the landings at 1, 2, 2.5 s (t1 (1 + 2e + 2e^2...))" % meth)


# ---- laws -------------------------------------------------------------------

def case_laws(tmp):
    text = open(os.path.join(SRC, "models", "cradle3.nsm")).read()
    expect = {("sequential", 0.0): (1 / 3, 1 / 3, 1 / 3),
              ("sequential", 0.5): (0.203125, 0.234375, 0.5625),
              ("sequential", 1.0): (0, 0, 1),
              ("simultaneous", 0.0): (1 / 3, 1 / 3, 1 / 3),
              ("simultaneous", 0.5): (0, 0.5, 0.5),
              ("simultaneous", 1.0): (-1 / 3, 2 / 3, 2 / 3)}
    for law in ("sequential", "simultaneous"):
        m = compiled(tmp, "c3" + law,
                     text.replace("simulate t_end", "simulate impact_law = %s, t_end" % law))
        for e in (0.0, 0.5, 1.0):
            for meth in thin(METHODS):
                r = m.run(method=meth, params={"e": e})
                v = [r["P[%d].v" % i][-1] for i in (1, 2, 3)]
                err = max(abs(a - b) for a, b in zip(v, expect[law, e]))
                print("  cradle3 %s e = %g, %s -> %s" % (law, e, meth, v))
                check(err < 1e-12, "cradle3 %s e = %g, %s: %s within 1e-12"
                      % (law, e, meth, expect[law, e]))
    b = compiled(tmp, "belt", path=os.path.join(SRC, "models", "belt_friction.nsm"))
    ts, tb = math.pi / 2, math.pi / 2 + 2 / 3

    def belt(t):
        """x(t): slipping under mu_k N = 3 N, stuck on the belt at 3 m/s
        until k x = mu_s N = 5 N, slipping again."""
        if t <= ts:
            return 3 * (1 - math.cos(t))
        if t <= tb:
            return 3 + 3 * (t - ts)
        return 3 + 2 * math.cos(t - tb) + 3 * math.sin(t - tb)
    for meth in METHODS:
        r = b.run(method=meth, every=0.01, t_end=4)
        ev = [(float(x["t"]), x["kind"]) for x in r.events][:2]
        err = max(abs(x - belt(s)) for s, x in zip(r.t, r["M.x"]) if s < tb + 1.5)
        print("  belt, %s -> %s, x within %.1e" % (meth, ev, err))
        check(ev[0][1] == "stick" and ev[1][1] == "slip" and abs(ev[0][0] - ts) < 1e-12 and
              abs(ev[1][0] - tb) < 1e-12 and err < 1e-11,
              "belt, %s: stick at pi/2, slip at pi/2 + 2/3 within 1e-12 s, x within 1e-11 m" % meth)
        r = b.run(method=meth, every=0.01, t_end=4, params={"mu_s": 0.3})
        ev = [(float(x["t"]), x["kind"]) for x in r.events][:2]
        check([k for _, k in ev] == ["stick", "slip"] and abs(ev[1][0] - ts) < 1e-12,
              "belt, %s, mu_s = mu_k: the spring's 3 N is at the threshold, slip at once" % meth)
    import nsm
    top = compiled(tmp, "top", path=os.path.join(SRC, "models", "free_top.nsm"))
    for I1, I3 in ((0.3, 0.5), (0.3, 0.3), (0.3, 0.6), (0.3, 1e-12), (1e-200, 2e-200),
                   (1e200, 1e200)):
        for meth in thin(("taylor", "rk4", "adaptive")):
            r = top.run(method=meth, params={"I1": I1, "I3": I3}, t_end=3, every=0.5)
            om = (I3 - I1) / I1 * 3
            z = [complex(a, b) for a, b in zip(r["B.w1"], r["B.w2"])]
            err = min(max(abs(g - complex(0.4, -0.25) * cmath.exp(1j * sg * om * s))
                          for g, s in zip(z, r.t)) for sg in (1, -1))
            print("  free top I1 = %g, I3 = %g, %s -> w1 + i w2 within %.1e" % (I1, I3, meth, err))
            check(err < 1e-12 and max(abs(w - 3) for w in r["B.w3"]) < 1e-12,
                  "free top I1 = %g, I3 = %g, %s: w3 kept, w1 + i w2 turning at (I3 - I1)/I1 "
                  "w3 within 1e-12" % (I1, I3, meth))
    try:
        top.run(method="taylor", params={"I3": 1.0})
        check(False, "I3 = 1 > 2 I1 refused")
    except nsm.ParameterError as e:
        check("exceeds the sum of the other two" in str(e), "I3 = 1 > I1 + I2 = 0.6: no body")


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-twelfth-core-", case_arg=2))
