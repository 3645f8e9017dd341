#!/usr/bin/env python3
"""A twenty-fourth hostile pass on the core: the simultaneous law's energy
check, exact's contacts found below their band, time switches and penalty
forces, every answer against a closed form or an exact invariant derived
here.

    tests/reliability/twentyfourth_pass_core_test.py SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  findings_gainzero  two touching beads of 1 and 1, 1 and 3, 3 and 1, 0.7
                and 0.3 kg falling together from rest at x = 0 (so the
                mechanical energy, kinetic plus m g x, is 0) onto a floor
                at -1 m, every contact elastic, impact_law = simultaneous,
                by exact, rk4 and adaptive: by hand both leave the floor
                together at w = sqrt(2 g) (the floor's impulse 2 (m1 + m2)
                w, the pair's 2 m2 w), so the kinetic energy is kept and
                the pair rises back to x = 0; the run reaches its end on
                that bounce.  Failed before: the law's energy check judged
                a gain of rounding (-7.1e-15 J to 4.3e-14 J) against 1e-8
                of the energy, 0 here, and stopped the run on "the
                simultaneous impact law adds energy" (loud, wrong).
  findings_valuetext  a Hertz pair whose exponent is a*b by parameters:
                a*b = 16 (4 x 4, 1 x 16, -4 x -4, 2 x 8) and 1 (0.5 x 2,
                1e-300 x 1e300) run by taylor, rk4 and adaptive, and
                16.000000000000004, 16.0000004 and 0.9975 are refused, the
                message giving a value outside [1, 16] that reads back as
                the value refused; a restitution of 1 + 2^-52 set on a
                ball likewise.  Failed before: 16.000000000000004 was
                refused as "invalid value 16 of the penalty exponent", a
                value the range allows (loud, its cause misnamed).
  findings_gainedge  three touching elastic beads of mA, 1.26 and 2 kg,
                the middle one moving into the last at 1.872 m/s, under the
                simultaneous law by exact, rk4 and adaptive, mA chosen by
                hand so that the law's answer (A and B together at w = (mB
                - mC) u / (mA + mB + mC), C at w + u) gains 1e-3, 1e-6,
                3e-8 and 1.5e-8 of the kinetic energy (refused, the message
                naming that gain) or 5e-9 and 1e-9 (run, the velocities by
                hand).  Failed before: the refusal said only "2.20776 J to
                2.20776 J" for a gain of 1.5e-8 (loud, the gain unreadable).
  findings_quintic  a free mass pushed by 1 N while (t - T)^5 >= 0 (that
                is, from T), T = 0.5 s, by exact, rk4 and adaptive:
                answered with the push from T (v = t - T by hand) or
                refused naming a crossing flatter than a cubic; (t - T)^3
                >= 0 and t^3 >= T^3 run with the push from T; (t - T)^7
                >= 0 and (t - T)^4 > 0 (the push throughout) are run or
                refused so.  Failed before: refused as "its values are
                rounding, and so is its sign" (loud, its cause misnamed:
                the steps, which no cubic follows across a zero of order 5,
                approached T geometrically down to the halving's floor).
                Left: these flat zeros are refused, not run.
  kept_kelvin   a 1 kg (and 1 g) mass thrown at 1 m/s at a linear
                spring-dashpot wall (k = 1e4 to 1e8 N/m, c = 0.001 to 1e3
                N s/m, released by force), by exact, rk4 (dt 1e-5 s) and
                adaptive: the release at the time and speed of the damped
                oscillator by hand, the reported force never below 0.
                Passed (kept).
  kept_sine     a free mass pushed while sin(w t) > a, w = 100 to 2.7e4
                rad/s, a = 0.5, 0, -0.9, 0.99, 0.999999, by exact, rk4 and
                adaptive: its speed the measure of the pushes by hand.
                Passed (kept).
  kept_pairs    two beads (1 and 3 kg) apart by 0 to 1e-6 m near x = 0,
                1e-3, -1e-3, 1 and 100 m, closing at 1 m/s, 1e-6 m/s or
                parting, e = 0, 0.5, 1, by exact, rk4 and adaptive: the
                velocities after the impact by hand, no gap below its
                band.  Passed (kept).
  kept_cradles, kept_cradles2  two strikers at +-1 m/s onto a row of
                1, 2 or 5 touching equal beads (or all apart by 1 cm), e =
                1, 0.5, 0, under the simultaneous (kept_cradles) and
                energetic laws, by exact, rk4 and adaptive: mirror-
                antisymmetric velocities, momentum 0, no energy gained, the
                elastic simultaneous ones keeping it.
                Passed (kept).
  findings_gainmoving  the three beads of findings_simulgain (twenty-
                second pass: 1, 1.26, 2 kg touching, e = 1, the middle at
                1.872 m/s) beside a ball Q on a floor at c t + 10 m (c =
                0.5 and 0 m/s), impact_law = simultaneous, by exact, rk4
                and adaptive: refused, naming the gain of 0.112 (Q's 0.5 J
                counted); the beads
                apart instead, Q thrown at -1 m/s onto the floor, runs, Q
                leaving at 1 + 2 c by hand.  Failed before: any moving gap
                exempted every impact from the check, and the beads gained
                13.8 % silently (exit 0).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main, compiled, refusal  # noqa: E402

G = 9.81
METHODS = ("exact", "rk4", "adaptive")


def ran(m, label, **kw):
    """m.run(**kw); a refusal fails the case, naming label and the message."""
    import nsm
    try:
        return m.run(**kw)
    except nsm.Error as ex:
        print("  %s -> refused: %s" % (label, str(ex)[:300]))
        check(False, "%s: the run refused (%s)" % (label, str(ex)[:300]))


STACK = '''model stack "two beads falling together onto a floor, their energy 0"
param m1 = 1 kg
param m2 = 1 kg
mass A = m1
mass B = m2
gravity 9.81 m/s^2
gap f: A.x >= -1 m, impact(e = 1)
gap ab: B.x - A.x >= 0 m, impact(e = 1)
init A.x = 0 m, B.x = 0 m
simulate t_end = 2 s, dt = 1 ms, impact_law = simultaneous
output every 1 ms: A.x, A.v, B.x, B.v
'''


def bounce_at(t, h=1.0):
    """(x, v) at t of a point dropped from rest at 0 onto a floor at -h,
    e = 1: a parabola of period 2 sqrt(2 h / g) about the floor's instant."""
    t1 = math.sqrt(2 * h / G)
    w = math.sqrt(2 * G * h)
    tau = t % (2 * t1) - t1                 # time from the nearest impact
    return -h + w * abs(tau) - G * tau * tau / 2, (-w if tau < 0 else w) - G * tau


def case_findings_gainzero(tmp):
    """Elastic impacts of a stack whose energy is 0: never refused."""
    m = compiled(tmp, "stack", STACK)
    for meth in METHODS:
        for m1, m2 in ((1.0, 1.0), (1.0, 3.0), (3.0, 1.0), (0.7, 0.3)):
            label = "beads of %g and %g kg falling together onto a floor, e = 1, simultaneous, " \
                    "%s" % (m1, m2, meth)
            r = ran(m, label, method=meth, params={"m1": m1, "m2": m2})
            err = 0.0
            for k, t in enumerate(r.t):
                x, v = bounce_at(t)
                if abs(t % (2 * math.sqrt(2 / G)) - math.sqrt(2 / G)) < 2e-3:
                    continue                # the samples beside an impact
                err = max(err, abs(r["A.x"][k] - x), abs(r["B.x"][k] - x),
                          abs(r["A.v"][k] - v), abs(r["B.v"][k] - v))
            print("  %s -> to t = %g s, (x, v) of both within %.3g of the bounce by hand"
                  % (label, r.t_reached, err))
            check(r.t_reached == 2 and err < 1e-6,
                  label + ": the end reached, both beads on the elastic bounce by hand")


HX = '''model hx "a Hertz pair whose exponent is a*b"
param a = 4
param b = 4
param kh = 1e9
mass A = 0.1 kg
mass B = 0.1 kg
gap C: B.x - A.x >= 0 m, penalty(k = kh, c = 0 N*s/m, exponent = a*b)
init A.x = -0.5 mm, B.x = 0.5 mm, A.v = 0.5 m/s, B.v = -0.5 m/s
simulate t_end = 3 s
output every 1 ms: A.x, B.x, A.v, B.v, C.gap, C.force
'''

BALL = '''model ball "a ball dropped onto a floor"
param e = 0.5
mass B = 1 kg
gravity 9.81 m/s^2
gap floor: B.x >= 0 m, impact(e = e)
init B.x = 1 m
simulate t_end = 0.5 s, dt = 1 ms
output every 1 ms: B.x, B.v
'''


def refused_value(msg):
    """The number after 'invalid value ' in a refusal, as a float."""
    word = msg.split("invalid value ", 1)[1].split()[0]
    return float(word)


def case_findings_valuetext(tmp):
    """A refused value is named by digits that read back as itself."""
    import nsm
    m = compiled(tmp, "hx", HX)
    for meth in ("taylor", "rk4", "adaptive"):
        for a, b in ((4, 4), (1, 16), (-4, -4), (2, 8), (0.5, 2), (1e-300, 1e300)):
            label = "Hertz exponent a*b = %r x %r = %r, %s" % (a, b, a * b, meth)
            r = ran(m, label, method=meth, params={"a": a, "b": b})
            # both leave at the closing speed (no damping), the force never a pull
            vrel = r["B.v"][-1] - r["A.v"][-1]
            print("  %s -> ran, parting at %.15g m/s, least force %g N"
                  % (label, vrel, min(r["C.force"])))
            check(abs(vrel - 1.0) < 1e-6 and min(r["C.force"]) >= 0,
                  label + ": the pair parts at its closing speed")
        for a, b in ((1, 16.000000000000004), (4, 4.0000001), (0.25, 3.99)):
            label = "Hertz exponent a*b = %r x %r = %r, %s" % (a, b, a * b, meth)
            msg = refusal(lambda: m.run(method=meth, params={"a": a, "b": b}))
            print("  %s -> %s" % (label, "refused: " + msg[:160] if msg else "ran"))
            check(msg is not None and "penalty exponent" in msg and "[1, 16]" in msg and
                  refused_value(msg) == a * b and not 1 <= refused_value(msg) <= 16,
                  label + ": refused, naming the value refused and the range")
    m = compiled(tmp, "ball", BALL)
    for e in (1.0000000000000002, 1.0000001, -5e-324):
        label = "restitution %r" % e
        msg = refusal(lambda: m.run(method="exact", params={"e": e}))
        print("  %s -> %s" % (label, "refused: " + msg[:160] if msg else "ran"))
        check(msg is not None and refused_value(msg) == e and not 0 <= refused_value(msg) <= 1,
              label + ": refused, naming the value refused")


def train_text(name, masses, es, x0, v0, law, t_end="0.1 s"):
    """A free train of beads: gap i between beads i and i + 1, restitution
    es[i], under the impact law."""
    n = len(masses)
    lines = ['model %s "a train of beads"' % name]
    lines += ["mass P%d = %r kg" % (i + 1, m) for i, m in enumerate(masses)]
    lines += ["gap G%d: P%d.x - P%d.x >= 0 m, impact(e = %r)" % (i + 1, i + 2, i + 1, es[i])
              for i in range(n - 1)]
    lines += ["init " + ", ".join("P%d.x = %r m, P%d.v = %r m/s" % (i + 1, x0[i], i + 1, v0[i])
                                  for i in range(n))]
    lines += ["simulate t_end = %s, dt = 1 ms, impact_law = %s" % (t_end, law),
              "output every 1 ms: " + ", ".join("P%d.x, P%d.v" % (i + 1, i + 1)
                                                 for i in range(n))]
    return "\n".join(lines) + "\n"


def case_findings_gainedge(tmp):
    """The simultaneous law's gain about its threshold, by hand."""
    mB, mC, u = 1.26, 2.0, 1.872

    def law(mA):
        # Moreau's law: B's contact with C restitutes (e = 1), A and B
        # leave together (the separating contact taken at e = 0)
        w = (mB - mC) * u / (mA + mB + mC)
        K1 = (mA + mB) * w * w / 2 + mC * (w + u) ** 2 / 2
        return w, (K1 - mB * u * u / 2) / (mB * u * u / 2)

    for g in (1e-3, 1e-6, 3e-8, 1.5e-8, 5e-9, 1e-9):
        lo, hi = 0.0, 1.0                   # the gain grows with mA from 0
        for _ in range(200):
            lo, hi = ((lo + hi) / 2, hi) if law((lo + hi) / 2)[1] < g else (lo, (lo + hi) / 2)
        mA = lo
        w = law(mA)[0]
        name = "edge%d" % round(-10 * math.log10(g))
        m = compiled(tmp, name, train_text(name, [mA, mB, mC], [1.0, 1.0], [0.0, 0.0, 0.0],
                                           [0.0, u, 0.0], "simultaneous"))
        for meth in METHODS:
            label = "beads of %.6g, 1.26, 2 kg, the law's gain %g, %s" % (mA, g, meth)
            msg = refusal(lambda: m.run(method=meth))
            if g > 1e-8:
                said = None
                if msg and "a gain of " in msg:
                    said = float(msg.split("a gain of ", 1)[1].split()[0])
                print("  %s -> %s" % (label, "refused: " + msg[:200] if msg else "ran"))
                check(said is not None and abs(said - g) < 0.01 * g,
                      label + ": refused, naming the gain")
                continue
            r = ran(m, label, method=meth)
            err = max(abs(r["P1.v"][-1] - w), abs(r["P2.v"][-1] - w),
                      abs(r["P3.v"][-1] - w - u))
            print("  %s -> ran, velocities within %.3g of the law's by hand" % (label, err))
            check(err < 1e-12, label + ": run, the velocities by hand")


PUSH = '''model push "a free mass pushed from T"
param T = 0.5 s
mass B = 1 kg
force on B = if COND then 1 N else 0 N
simulate t_end = 1 s, dt = 1 ms
output every 10 ms: B.x, B.v
'''


def case_findings_quintic(tmp):
    """A crossing flatter than a cubic: run, or refused naming it."""
    forms = (("(t - T)*(t - T)*(t - T)*(t - T)*(t - T) >= 0 s*s*s*s*s", True),
             ("(t - T)*(t - T)*(t - T)*(t - T)*(t - T)*(t - T)*(t - T) >= 0 s*s*s*s*s*s*s", True),
             ("(t - T)*(t - T)*(t - T)*(t - T) > 0 s*s*s*s", True),
             ("(t - T)*(t - T)*(t - T) >= 0 s*s*s", False), ("t*t*t >= T*T*T", False))
    for k, (form, flat) in enumerate(forms):
        m = compiled(tmp, "push%d" % k, PUSH.replace("COND", form))
        for meth in METHODS:
            label = "push while %s, %s" % (form, meth)
            msg = refusal(lambda: m.run(method=meth))
            if msg is not None:
                print("  %s -> refused: %s" % (label, msg[:400]))
                check(flat and "time switch sw0" in msg and "flatter than a cubic" in msg,
                      label + ": refused only for the flat crossing, naming it")
                continue
            r = m.run(method=meth)
            # (t - T)^4 > 0 holds but at T: the push throughout
            start = 0.0 if "> 0" in form else 0.5
            err = max(abs(v - max(0.0, t - start)) for t, v in zip(r.t, r["B.v"]))
            print("  %s -> ran, v within %.3g of the push from T" % (label, err))
            check(r.t_reached == 1 and err < 1e-9, label + ": the push from T")


KV = '''model kv "a mass thrown at a damped penalty wall"
param k = 1e4 N/m
param c = 20 N*s/m
param m = 1 kg
mass B = m
gap W: B.x >= 0 m, penalty(k = k, c = c)
init B.x = 1 mm, B.v = -1 m/s
simulate t_end = 0.2 s, dt = 1e-5 s
output every 1 ms: B.x, B.v, W.force
'''


def case_kept_kelvin(tmp):
    """A spring-dashpot wall released by force, against the oscillator."""
    m = compiled(tmp, "kv", KV)
    for meth in METHODS:
        for k, c, mm in ((1e4, 20, 1), (1e4, 150, 1), (1e6, 1, 1e-3), (1e4, 0.001, 1),
                         (1e8, 1e3, 1), (1e4, 199, 1)):
            # p = 1/wd e^(-a s) sin(wd s) from contact (s = 0 at 1 ms); the
            # force k p + c p' is 0 where tan(wd s) = -c wd / (k - c a)
            a = c / (2 * mm)
            wd = math.sqrt(k / mm - a * a)
            s = (math.pi - math.atan2(c * wd, k - c * a)) / wd
            p = math.exp(-a * s) * math.sin(wd * s) / wd
            pd = math.exp(-a * s) * (math.cos(wd * s) - a / wd * math.sin(wd * s))
            tr = 1e-3 + s
            label = "k = %g, c = %g, m = %g, %s" % (k, c, mm, meth)
            r = ran(m, label, method=meth, params={"k": k, "c": c, "m": mm})
            ex = [float(e["t"]) for e in r.events if e["kind"] == "contact_exit"]
            err = max(abs(x - (-p - pd * (t - tr))) + abs(v + pd)
                      for t, x, v in zip(r.t, r["B.x"], r["B.v"]) if t > tr + 1e-4)
            tol = 1e-4 if meth == "rk4" else 1e-8      # rk4's fixed step of 1e-5 s
            print("  %s -> released at %r s (by hand %.15g), after it within %.3g, least force "
                  "%g N" % (label, ex[:1], tr, err, min(r["W.force"])))
            check(len(ex) == 1 and abs(ex[0] - tr) < tol * 1e-2 and err < tol and
                  min(r["W.force"]) >= 0, label + ": the release and the exit speed by hand")


SINE = '''model sine "a free mass pushed while sin(w t) > a"
param w = 100 rad/s
param a = 0.5
mass B = 1 kg
force on B = if sin(w*t) > a then 1 N else 0 N
simulate t_end = 0.5 s, dt = 1 ms
output every 1 ms: B.x, B.v
'''


def pushed_for(t, w, a):
    """The time within [0, t] where sin(w s) > a."""
    P = 2 * math.pi / w
    lo, hi = math.asin(a) / w, (math.pi - math.asin(a)) / w      # on in (lo, hi) mod P
    n, r = math.floor(t / P), t - math.floor(t / P) * P
    part = max(0.0, min(r, hi) - max(lo, 0.0)) + max(0.0, min(r, hi + P) - max(lo + P, 0.0))
    return n * (hi - lo) + part


def case_kept_sine(tmp):
    """Fast switches: the push's measure by hand."""
    m = compiled(tmp, "sine", SINE)
    for meth in METHODS:
        for w in (100.0, 3e3, 2.7e4):
            for a in (0.5, 0.0, -0.9, 0.99, 0.999999):
                label = "push while sin(%g t) > %g, %s" % (w, a, meth)
                r = ran(m, label, method=meth, params={"w": w, "a": a}, max_steps=2000000)
                err = max(abs(v - pushed_for(t, w, a)) for t, v in zip(r.t, r["B.v"]))
                print("  %s -> v within %.3g of the pushes' measure" % (label, err))
                check(err < 1e-12, label + ": the speed by hand")


FAR = '''model far "two beads meeting"
param X = 0 m
param d = 1 mm
param u = 1 m/s
param e = 0.5
mass A = 1 kg
mass B = 3 kg
gap G: B.x - A.x >= 0 m, impact(e = e)
init A.x = X, B.x = X + d, A.v = u, B.v = 0 m/s
simulate t_end = 0.01 s, dt = 1e-4 s
output every 1e-4 s: A.x, A.v, B.x, B.v
'''


def case_kept_pairs(tmp):
    """Pairs apart by nothing to a micrometre: the impact by hand."""
    m = compiled(tmp, "far", FAR)
    n = 0
    for meth in METHODS:
        for X in (0.0, 1e-3, -1e-3, 1.0, 1e2):
            for d in (0.0, 1e-16, 1e-14, 2e-14, 1e-12, 1e-6):
                for u in (1.0, 1e-6, -1e-6):
                    for e in (0.5, 1.0, 0.0):
                        r = ran(m, "X %g d %g u %g e %g %s" % (X, d, u, e, meth), method=meth,
                                params={"X": X, "d": d, "u": u, "e": e})
                        hits = u > 0 and d / u < 0.01
                        vA, vB = ((1 - 3 * e) / 4 * u, (1 + e) / 4 * u) if hits else (u, 0.0)
                        gmin = min(b - a for a, b in zip(r["A.x"], r["B.x"]))
                        band = 2e-10 * abs(X) + 1e-14
                        good = (abs(r["A.v"][-1] - vA) <= 1e-9 * abs(u) and
                                abs(r["B.v"][-1] - vB) <= 1e-9 * abs(u) and gmin >= -band)
                        n += 1
                        if not good:
                            print("  beads at %g m apart by %g m closing at %g m/s, e = %g, %s -> "
                                  "velocities %r, %r (by hand %r, %r), least gap %g m"
                                  % (X, d, u, e, meth, r["A.v"][-1], r["B.v"][-1], vA, vB, gmin))
                        check(good, "beads at %g m apart by %g m closing at %g m/s, e = %g (%s): "
                              "the impact by hand" % (X, d, u, e, meth))
    print("  %d pairs at x = 0 to 100 m, apart by 0 to 1e-6 m -> every impact by hand" % n)


def cradles(tmp, law):
    """Symmetric cradles under law: antisymmetric answers, no energy gained."""
    for n in (3, 4, 7):
        for law in (law,):
            for e in (1.0, 0.5, 0.0):
                for apart in (True, False):
                    x0 = ([0.0] + [0.01] * (n - 2) + [0.02] if apart
                          else [-0.01] + [0.0] * (n - 2) + [0.01])
                    v0 = [1.0] + [0.0] * (n - 2) + [-1.0]
                    name = "cr%d%s%d%d" % (n, law[:3], int(e * 10), apart)
                    text = train_text(name, [1.0] * n, [e] * (n - 1), x0, v0, law)
                    if law == "energetic":
                        text = text.replace("impact(e = ", "impact(stiffness = 1e6, exponent = 1.5, e = ")
                    m = compiled(tmp, name, text)
                    for meth in METHODS:
                        label = "%d beads, strikers at +-1 m/s, e = %g, %s, %s, %s" % (
                            n, e, "apart" if apart else "touching", law, meth)
                        r = ran(m, label, method=meth)
                        vs = [r["P%d.v" % (i + 1)][-1] for i in range(n)]
                        asym = max(abs(vs[i] + vs[n - 1 - i]) for i in range(n))
                        E = sum(v * v / 2 for v in vs)
                        print("  %s -> asymmetry %.3g, momentum %.3g, energy %.15g of 1 J"
                              % (label, asym, abs(sum(vs)), E))
                        kept = e < 1 or abs(E - 1) < (1e-6 if law == "energetic" else 1e-12)
                        check(asym < 1e-9 and abs(sum(vs)) < 1e-12 and E < 1 + 1e-9 and kept,
                              label + ": antisymmetric, momentum 0, no energy gained")


GAINMV = '''model gainmv "three beads beside a ball on a moving floor"
param c = 0.5 m/s
param d = 0 m
mass P1 = 1 kg
mass P2 = 1.26 kg
mass P3 = 2 kg
mass Q = 1 kg
gap G1: P2.x - P1.x >= 0 m, impact(e = 1)
gap G2: P3.x - P2.x >= 0 m, impact(e = 1)
gap F: Q.x >= c*t + 10 m, impact(e = 1)
init P1.x = 0 m, P2.x = d, P3.x = 2*d, P2.v = 1.872 m/s, Q.x = 11 m, Q.v = -1 m/s
simulate t_end = 1 s, dt = 1 ms, impact_law = simultaneous
output every 1 ms: P1.v, P2.v, P3.v, Q.v
'''


def case_findings_gainmoving(tmp):
    """A moving surface elsewhere exempts no impact from the energy check."""
    m = compiled(tmp, "gainmv", GAINMV)
    for meth in METHODS:
        for c in (0.5, 0.0):
            label = "three touching beads beside a floor at %g t + 10 m, %s" % (c, meth)
            msg = refusal(lambda: m.run(method=meth, params={"c": c}))
            print("  %s -> %s" % (label, "refused: " + msg[:220] if msg else "ran"))
            check(msg is not None and "adds energy" in msg and "a gain of 0.112" in msg,
                  label + ": refused, naming the gain")
            # beads 0.1 m apart: the middle one strikes the last alone (no
            # gain); Q meets the floor at 1/(1 + c) s at 1 + c relative
            label = "the beads apart, Q onto the floor at %g t + 10 m, %s" % (c, meth)
            r = ran(m, label, method=meth, params={"c": c, "d": 0.1})
            K = sum(mm * r["P%d.v" % (i + 1)][-1] ** 2 / 2 for i, mm in enumerate((1, 1.26, 2)))
            print("  %s -> Q leaves at %.15g m/s (by hand %g), the beads' energy %.15g J (at "
                  "the start %.15g J)" % (label, r["Q.v"][-1], 1 + 2 * c, K, 1.26 * 1.872 ** 2 / 2))
            check(abs(r["Q.v"][-1] - (1 + 2 * c)) < 1e-12 and
                  abs(K - 1.26 * 1.872 ** 2 / 2) < 1e-12,
                  label + ": Q's rebound by hand, the beads' energy kept")


if __name__ == "__main__":
    sys.exit(main({"findings_gainzero": case_findings_gainzero,
                   "findings_valuetext": case_findings_valuetext,
                   "findings_gainedge": case_findings_gainedge,
                   "findings_quintic": case_findings_quintic,
                   "findings_gainmoving": case_findings_gainmoving,
                   "kept_kelvin": case_kept_kelvin,
                   "kept_sine": case_kept_sine,
                   "kept_pairs": case_kept_pairs,
                   "kept_cradles": lambda tmp: cradles(tmp, "simultaneous"),
                   "kept_cradles2": lambda tmp: cradles(tmp, "energetic")},
                  "nsm-twentyfourth-core-", case_arg=2))
