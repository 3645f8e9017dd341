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


if __name__ == "__main__":
    sys.exit(main({"findings_gainzero": case_findings_gainzero,
                   "findings_valuetext": case_findings_valuetext,
                   "findings_gainedge": case_findings_gainedge},
                  "nsm-twentyfourth-core-", case_arg=2))
