"""Checks of the shared machinery in piecewise.py on problems with known answers.

- a closed-form mode against the textbook damped oscillator with sinusoidal forcing;
- a minimum that dips below zero between two grid points (grazing) is found;
- a zero at the start of a mode (after an event) is divided out, whatever its order;
- the physics audit flags a body going through the floor;
- the comparison used by --check flags a change of 1e-19 and accepts 1e-22.
"""
import os
import tempfile

from mpmath import mp, mpf

import piecewise as pw

mp.dps = 50


def oscillator():
    # x'' + 2 z w x' + w^2 x = F sin(W t), x(0) = 1, x'(0) = 0
    w, z, F, W = mpf(3), mpf("0.1"), mpf(2), mpf(5)
    mode = pw.Mode([[0, 1], [-w * w, -2 * z * w]], bs=[0, F], w=W)
    tr = mode.start(0, [1, 0])
    # particular solution X sin(W t - phi)
    X = F / mp.sqrt((w * w - W * W) ** 2 + (2 * z * w * W) ** 2)
    phi = mp.atan2(2 * z * w * W, w * w - W * W)
    wd = w * mp.sqrt(1 - z * z)
    xp = lambda t: X * mp.sin(W * t - phi)
    vp = lambda t: X * W * mp.cos(W * t - phi)
    a = 1 - xp(0)
    b = (-vp(0) + z * w * a) / wd
    x = lambda t: mp.exp(-z * w * t) * (a * mp.cos(wd * t) + b * mp.sin(wd * t)) + xp(t)
    for t in (mpf("0.3"), mpf("1.7"), mpf(4)):
        pw.expect(abs(tr.y(t)[0] - x(t)) < mpf("1e-45"), "damped forced oscillator")
        pw.expect(abs(tr.d(t, 1)[0] - tr.y(t)[1]) < mpf("1e-45"), "derivative consistency")


def grazing():
    # parabola s(t) = (t - 0.5)^2 - 1e-20: two roots 1e-10 apart, between grid points
    # (root conditioning: 1e-50 / |s'| = 5e-41)
    mode = pw.NilpotentMode([[0, 1], [0, 0]], [0, 2])
    tr = mode.start(0, [mpf("0.25") - mpf("1e-20"), -1])
    for h in (mpf("0.125"), mpf("0.15"), mpf("0.3")):
        t, i = pw.first_zero(tr, [pw.LinearFn([1, 0])], 0, 1, h)
        pw.expect(t is not None and abs(t - (mpf("0.5") - mpf("1e-10"))) < mpf("1e-39"), "grazing root found")
    tr = mode.start(0, [mpf("0.25") + mpf("1e-20"), -1])
    t, i = pw.first_zero(tr, [pw.LinearFn([1, 0])], 0, 1, mpf("0.15"))
    pw.expect(t is None, "near miss is not an event")


def deflation():
    # s(t) = t^3 (1 - t) starts with a triple zero; next zero at t = 1
    mode = pw.NilpotentMode([[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [0, 0, 0, 0]], [0, 0, 0, -24])
    tr = mode.start(0, [0, 0, 0, 6])
    t, i = pw.first_zero(tr, [pw.LinearFn([1, 0, 0, 0])], 0, 2, mpf("0.1"))
    pw.expect(t is not None and abs(t - 1) < mpf("1e-45"), "zero at the start divided out")


def audit():
    # a flight that goes through the floor must fail the audit
    rec = pw.Record(["B"])
    mode = pw.NilpotentMode([[0, 1], [0, 0]], [0, -10])
    rec.segment(0, mode.start(0, [1, 0]).y, "flight")
    rec.audit(mpf("0.4"), {"flight": lambda t, s: s[0]})
    try:
        rec.audit(1, {"flight": lambda t, s: s[0]})
    except AssertionError:
        return
    pw.expect(False, "audit flags a body below the floor")


def compare():
    d = tempfile.mkdtemp()
    p = os.path.join(d, "x.csv")
    with open(p, "w") as f:
        f.write("t,kind,contact\n1.000000000000000000000000,impact,C\n")
    pw.expect(not pw.compare(p, "t,kind,contact\n1.0,impact,C\n"), "equal values accepted")
    pw.expect(pw.compare(p, "t,kind,contact\n1.0000000000000000001,impact,C\n"), "1e-19 change flagged")
    pw.expect(not pw.compare(p, "t,kind,contact\n1.0000000000000000000001,impact,C\n"), "1e-22 accepted")
    pw.expect(pw.compare(p, "t,kind,contact\n1.0,stick,C\n"), "kind flagged")
    pw.expect(pw.compare(p, "t,kind,contact\n"), "missing row flagged")
    os.remove(p)
    os.rmdir(d)


if __name__ == "__main__":
    oscillator()
    grazing()
    deflation()
    audit()
    compare()
    print("selftest: ok")
