#!/usr/bin/env python3
"""A twenty-sixth hostile pass on contacts, events and time switches, every
answer against a closed form or an exact invariant derived here.

    tests/reliability/twentysixth_pass_core_test.py SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  findings_fastfloor  floor | A (2 kg) | B (1.26 kg) | C (1 kg), all
                touching, every contact elastic, the floor at c t, A and C
                at c, B at c - 1.872 s m/s: the problem refused at c = 0
                (the simultaneous law leaves B and C both leaving at 1.872 s
                m/s, 1.794 times the relative kinetic energy, by hand), at
                c = 1e4 and -1e4 m/s with s = 1e-4, c = 1e6 m/s with s =
                1e-2, c = 100 m/s with s = 1e-6 (relative speeds 1e6 to 1e8
                times the velocities' rounding), by exact, rk4 and adaptive:
                refused, naming the energy the law adds.  A ball thrown at
                1e-4 m/s onto a floor at c = +-1e4 m/s (e = 1, 0.5) still
                leaves at c + e 1e-4 m/s by hand.  Failed before: the
                check's rounding allowance, a few ulps of the whole kinetic
                energy (2e8 J at c = 1e4 m/s), hid the gain of 1.7e-8 J:
                exit 0, B and C leaving at 1.872e-4 m/s.
  kept_wedge    a disc (1 mg to 1 t) at the corner of two walls, D.y >=
                c1 t and nx D.x + ny D.y >= c2 t, both touching, struck into
                the corner, impact_law = simultaneous, by exact, rk4 and
                adaptive, the walls still or moving at different speeds
                (c1, c2 up to 1e5 m/s).  Relative to the velocity V with
                n . V = c for both walls nothing moves, so by hand: square
                walls give v+ - V = -e (v- - V) along each normal; an
                oblique corner (e = 1, the disc along its bisector) returns
                v+ - V = -(v- - V).  The moving walls' work must not be
                taken for a gain (nothing refused).
  kept_sinfloor six touching beads (masses over 0 to 10 decades,
                restitutions 0 to 1, one or two struck) on a floor at
                (c / w) sin(w t), whose speed at the impact is c, under the
                simultaneous law, c = 0, 1e4, -1e6 m/s, by exact, rk4 and
                adaptive: the velocities relative to the floor the same at
                every c (or refused at every c), their kinetic energy not
                gained.
  kept_beltnear models/belt_friction.nsm from rest with v_b = 3 (1 + r)
                m/s, r = 1e-4, 1e-6: the mass's speed 3 sin t never reaches
                the belt's (by hand), so it slips throughout: no event, the
                largest speed 3 m/s; rk4 and adaptive with steps of pi/1000
                s (one ending at the peak pi/2), and exact.
  kept_zenorise a ball dropped from h (1 m; 1 mm) onto a floor at c t (c = 0,
                3, -0.5; 50 m/s from 1 m), e = 0.5, 0.9, 0.99: by hand it lands at
                t1 = 2 h / (c + sqrt(c^2 + 2 g h)) at u = sqrt(c^2 + 2 g h)
                relative, and the floor being inertial, flies 2 e^k u / g
                relative to it before its k+1-th impact; the first six
                impacts at those instants to 1e-10 of the sixth's, by exact,
                rk4 (steps of t1/8, one ending on each early impact) and
                adaptive.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main, compiled  # noqa: E402

METHODS = ("exact", "rk4", "adaptive")
SOURCE = sys.argv[1]


def ran(m, label, **kw):
    """m.run(**kw); a refusal fails the case, naming label and the message."""
    import nsm
    try:
        return m.run(**kw)
    except nsm.Error as ex:
        print("  %s -> refused: %s" % (label, str(ex)[:300]))
        check(False, "%s: the run refused (%s)" % (label, str(ex)[:300]))


WEDGE = '''model wedge "a disc struck into a corner of two moving walls"
param c1 = 0 m/s
param c2 = 0 m/s
param vx = 0 m/s
param vy = 0 m/s
param e = 1
param M = 1 kg
param nx = 1
param ny = 0
disc D: mass = M, radius = 0.1 m, inertia = 0.004 kg*m^2
gap F1: D.y >= c1*t, impact(e = e)
gap F2: nx*D.x + ny*D.y >= c2*t, impact(e = e)
init D.x = 0 m, D.y = 0 m, D.vx = vx, D.vy = vy
simulate t_end = 1e-3 s, dt = 1e-4 s, impact_law = simultaneous
output every 1e-4 s: D.vx, D.vy
'''


def case_kept_wedge(tmp):
    """A corner of two walls moving at different speeds: the answer in the
    frame where both are still, by hand."""
    m = compiled(tmp, "wedge", WEDGE)
    for a in (math.pi / 2, 1.0, 2.4):
        nx, ny = math.sin(a), -math.cos(a)
        b = (nx, 1 + ny)                      # the bisector of the normals
        nb = math.hypot(*b)
        for M in (1e-6, 1.0, 1e3):
            for e in ((1.0, 0.5, 0.0) if a == math.pi / 2 else (1.0,)):
                d = (-2 * b[0] / nb, -2 * b[1] / nb) if a != math.pi / 2 else (-1.5, -0.7)
                if a == math.pi / 2:
                    want = (-e * d[0], -e * d[1])
                else:
                    want = (-d[0], -d[1])
                for c1, c2 in ((0.0, 0.0), (1.0, -2.0), (-1e5, 3.0)):
                    Vy = c1
                    Vx = (c2 - ny * Vy) / nx
                    for meth in METHODS:
                        label = ("disc of %g kg at a corner of normals (0, 1) and (%.6g, %.6g), "
                                 "walls at %g t and %g t, e = %g, struck at %r m/s relative, %s"
                                 % (M, nx, ny, c1, c2, e, d, meth))
                        r = ran(m, label, method=meth, params={
                            "c1": c1, "c2": c2, "vx": Vx + d[0], "vy": Vy + d[1], "e": e, "M": M,
                            "nx": nx, "ny": ny})
                        got = (r["D.vx"][-1] - Vx, r["D.vy"][-1] - Vy)
                        print("  %s -> leaves at %r relative (by hand %r)" % (label, got, want))
                        check(max(abs(g - w) for g, w in zip(got, want)) <=
                              1e-9 * (2 + abs(Vx) + abs(Vy)), label + ": the velocities by hand")


N = 6


def chain_model():
    """Six touching beads on a floor at (c / w) sin(w t), the simultaneous law."""
    lines = ['model sinfloor "a touching chain on a vibrating floor"', "param c = 0 m/s",
             "param w = 1 rad/s"]
    lines += ["param m%d = 1 kg\nparam e%d = 1\nparam d%d = 0 m/s" % (i, i, i) for i in range(N)]
    lines += ["mass P%d = m%d" % (i, i) for i in range(N)]
    lines += ["gap F: P0.x >= c/w*sin(w*t), impact(e = e0)"]
    lines += ["gap G%d: P%d.x - P%d.x >= 0 m, impact(e = e%d)" % (i, i, i - 1, i)
              for i in range(1, N)]
    lines += ["init " + ", ".join("P%d.x = 0 m, P%d.v = c + d%d" % (i, i, i) for i in range(N))]
    lines += ["simulate t_end = 1e-3 s, dt = 1e-4 s, impact_law = simultaneous",
              "output every 1e-4 s: " + ", ".join("P%d.v" % i for i in range(N))]
    return "\n".join(lines) + "\n"


def case_kept_sinfloor(tmp):
    """A chain's answer relative to its vibrating floor does not depend on
    the floor's speed."""
    import nsm
    m = compiled(tmp, "sinfloor", chain_model())
    rnd = random.Random(26)
    for trial in range(4):
        dec = (0, 2, 6, 10)[trial]
        masses = [10 ** rnd.uniform(-dec / 2, dec / 2) for _ in range(N)]
        es = [rnd.choice((0.0, 1.0, 0.5, rnd.random())) for _ in range(N)]
        dv = [0.0] * N
        dv[rnd.randrange(N)] = rnd.uniform(-3, 3)
        dv[rnd.randrange(N)] = rnd.uniform(-3, 3)
        K0 = sum(mm * d * d / 2 for mm, d in zip(masses, dv))
        for meth in METHODS:
            ref = None
            for c, w in ((0.0, 1.0), (1e4, 1e3), (-1e6, 1e-3)):
                p = {"c": c, "w": w}
                for i in range(N):
                    p.update({"m%d" % i: masses[i], "e%d" % i: es[i], "d%d" % i: dv[i]})
                label = ("six beads %s kg, e %s, struck at %s m/s relative, floor at (%g/%g) "
                         "sin(%g t), %s" % (["%.3g" % x for x in masses], ["%.3g" % x for x in es],
                                            ["%.3g" % x for x in dv], c, w, w, meth))
                try:
                    r = m.run(method=meth, params=p)
                except nsm.Error as ex:
                    print("  %s -> refused: %s" % (label, str(ex)[:200]))
                    check(ref in (None, "refused"), label + ": refused as at c = 0")
                    ref = "refused"
                    continue
                v = [r["P%d.v" % i][-1] - c for i in range(N)]
                K1 = sum(mm * d * d / 2 for mm, d in zip(masses, v))
                print("  %s -> relative velocities %s, energy %.15g J of %.15g J" % (
                    label, ["%.12g" % x for x in v], K1, K0))
                check(ref != "refused", label + ": runs only where c = 0 runs")
                check(K1 <= K0 * (1 + 1e-9) + 1e-12, label + ": no energy gained")
                if ref is None:
                    ref = v
                check(max(abs(a - b) for a, b in zip(v, ref)) <= 1e-7 * (1 + abs(c)) * 4,
                      label + ": the same relative velocities as at c = 0")


def case_kept_beltnear(tmp):
    """A belt just faster than the mass can reach: it never sticks."""
    m = compiled(tmp, "belt", path=os.path.join(SOURCE, "models", "belt_friction.nsm"))
    for rel in (1e-4, 1e-6):
        vb = 3 * (1 + rel)
        for meth in METHODS:
            for every in (math.pi / 50, 0.0):
                label = ("belt_friction.nsm, v_b = 3 (1 + %g) m/s, %s, dt = pi/1000 s, every %.6g s"
                         % (rel, meth, every))
                r = ran(m, label, method=meth, params={"v_b": vb}, t_end=6.0,
                        dt=math.pi / 1000, every=every)
                ev = [(float(e["t"]), e["kind"]) for e in r.events]
                vmax = max(r["M.v"])
                print("  %s -> events %r, largest speed %.15g m/s (by hand none, 3)" % (
                    label, ev[:4], vmax))
                check(not ev and abs(vmax - 3) <= 1e-6, label + ": slipping throughout, by hand")


ZENO = '''model zrise "a ball bouncing on a floor moving at c"
param h = 1 m
param e = 0.5
param c = 0 m/s
mass B = 1 kg
gravity 9.81 m/s^2
gap floor: B.x >= c*t, impact(e = e)
init B.x = h, B.v = 0 m/s
simulate t_end = 3 s, dt = 1 ms
output every 1 ms: B.x
'''


def case_kept_zenorise(tmp):
    """The impacts of a ball on a floor moving at c, at their instants by hand."""
    g = 9.81
    m = compiled(tmp, "zrise", ZENO)
    for h, cs in ((1.0, (0.0, 3.0, -0.5, 50.0)), (1e-3, (0.0, 3.0, -0.5))):
        for e in (0.9, 0.5, 0.99):
            for c in cs:
                u = math.sqrt(c * c + 2 * g * h)
                ts = [2 * h / (c + u)]
                for k in range(5):
                    ts.append(ts[-1] + 2 * e ** (k + 1) * u / g)
                for meth in METHODS:
                    kw = dict(method=meth, params={"h": h, "e": e, "c": c},
                              t_end=ts[5] * (1 + 1e-7), every=ts[5] / 50)
                    if meth != "exact":
                        kw["dt"] = ts[0] / 8
                    label = "drop from %g m onto a floor at %g t, e = %g, %s" % (h, c, e, meth)
                    r = ran(m, label, **kw)
                    imp = [float(x["t"]) for x in r.events if x["kind"] == "impact"]
                    print("  %s -> impacts %s (by hand %s)" % (
                        label, ["%.12g" % x for x in imp[:6]], ["%.12g" % x for x in ts]))
                    check(len(imp) >= 6 and max(abs(a - b) for a, b in zip(imp, ts)) <=
                          1e-10 * ts[5], label + ": the first six impacts at the instants by hand")


FAST = '''model fast "a touching chain on a fast floor, the same problem relative to it"
param c = 0 m/s
param s = 1
mass A = 2 kg
mass B = 1.26 kg
mass C = 1 kg
gap floor: A.x >= c*t, impact(e = 1)
gap G1: B.x - A.x >= 0 m, impact(e = 1)
gap G2: C.x - B.x >= 0 m, impact(e = 1)
init A.x = 0 m, B.x = 0 m, C.x = 0 m, A.v = c, B.v = c - s*1.872 m/s, C.v = c
simulate t_end = 0.01 s, dt = 1 ms, impact_law = simultaneous
output every 1 ms: A.v, B.v, C.v
'''

SLOW = '''model slowball "a ball thrown slowly onto a fast floor"
param c = 0 m/s
param e = 1
mass Q = 1 kg
gap floor: Q.x >= c*t, impact(e = e)
init Q.x = 1e-5 m, Q.v = c - 1e-4 m/s
simulate t_end = 1 s, dt = 1 ms, impact_law = simultaneous
output every 1 ms: Q.v
'''


def case_findings_fastfloor(tmp):
    """A fast floor's rounding hides no gain of the simultaneous law."""
    from passlib import refusal
    m = compiled(tmp, "fast", FAST)
    for meth in METHODS:
        for c, sc in ((0.0, 1e-4), (1e4, 1e-4), (-1e4, 1e-4), (1e6, 1e-2), (100.0, 1e-6)):
            label = ("floor at %g t | 2 kg | 1.26 kg | 1 kg touching, e = 1, B at %g - %g m/s, "
                     "the others at %g, simultaneous, %s" % (c, c, 1.872 * sc, c, meth))
            msg = refusal(lambda: m.run(method=meth, params={"c": c, "s": sc}))
            print("  %s -> %s" % (label, "refused: " + msg[:240] if msg else "ran"))
            check(msg is not None and "adds energy" in msg and "simultaneous" in msg,
                  label + ": refused, naming the energy the law adds")
    b = compiled(tmp, "slowball", SLOW)
    for meth in METHODS:
        for c in (1e4, -1e4):
            for e in (1.0, 0.5):
                label = "a ball at 1e-4 m/s onto a floor at %g t, e = %g, %s" % (c, e, meth)
                r = ran(b, label, method=meth, params={"c": c, "e": e})
                got = r["Q.v"][-1] - c
                print("  %s -> leaves at c + %.12g m/s (by hand c + %.12g)" % (label, got, e * 1e-4))
                check(abs(got - e * 1e-4) <= 1e-8, label + ": the rebound by hand")


if __name__ == "__main__":
    sys.exit(main({"findings_fastfloor": case_findings_fastfloor,
                   "kept_wedge": case_kept_wedge,
                   "kept_sinfloor": case_kept_sinfloor,
                   "kept_beltnear": case_kept_beltnear,
                   "kept_zenorise": case_kept_zenorise},
                  "nsm-twentysixth-core-", case_arg=2))
