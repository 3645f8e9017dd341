#!/usr/bin/env python3
"""A twenty-second hostile pass on the smooth and nonlinear dynamics:
Hertz contacts, pendulums, the rocking block and bodies in space under
taylor, rk4 and adaptive, every answer against a closed form or an exact
invariant derived here.

    tests/reliability/twentysecond_pass_dyn_test.py SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  hertzpair  two masses (0.1 and 0.1 kg, 1 and 1e-3 kg) meeting at 1 m/s
             through a penalty law k p^a (a = 1, 1.25, 1.5, 2, 2.5, 3; k =
             1e3, 1e9, 1e12 in SI), undamped, by taylor (exact for a = 1),
             rk4 and adaptive: the contact lasts
             t_c = 2 (p_m / v) sqrt(pi) G(1 + 1/(a+1)) / G(1/2 + 1/(a+1)),
             p_m = ((a+1) mu v^2 / (2 k))^(1/(a+1)) (energy; G the gamma
             function), and the masses part with the elastic velocities.
             Passed (kept).
  pendulum   a pendulum (g/l = 9.81 s^-2) released from rest at 0.1 to
             pi - 1e-3 rad, and turning over from the bottom at 1.001 to
             1000 times the separatrix's speed 2 sqrt(g/l): after two
             periods 4 K(sin(phi0/2)) / sqrt(g/l) it is back at phi0 at
             rest, after half a period at -phi0; after three turns
             (4 / w0) K(2 sqrt(g/l) / w0) each it is at 6 pi with w0
             (K by the arithmetic-geometric mean).  Passed (kept).
  rocking    Housner's block (b/h = 0.4, 0.1, 1, 0.75, 0.01) released at
             0.1, 0.5 and 0.9 of its critical angle atan(b/h): the first
             landing corner strikes at 2 b w, w from the energy fallen
             (I_O = 4/3 m (b^2 + h^2)), and each landing's speed is the
             last one's times 1 - 3/2 sin^2(alpha) (flight conserves
             energy, each impact keeps that ratio of w); the Zeno tail
             ends at rest.  Passed (kept).
  rigid      free bodies in space (inertias (0.1, 0.2, 0.3) spun about
             each axis and the intermediate one, 1e-6 kg m^2, a near disc,
             a sphere, a near rod, 1000 rad/s): the kinetic energy and the
             angular momentum in the world frame, R(p) I w, stay those of
             the start.  Passed (kept).
  section    a pendulum released at 0.3, 1 and 2.5 rad bouncing elastically
             on a wall at 0.999, 0.5 and 0.001 of that angle on the other
             side, its section impact:wall by taylor, rk4 and adaptive: the
             records at t1 + i P, t1 = K(k)/w + F(asin(sin(|phi_w|/2)/k), k)/w
             (k = sin(phi0/2), F by Simpson's rule), P = 2 t1, all at the
             speed sqrt(2 g/l (cos phi_w - cos phi0)).  Passed (kept).
  jellett    the tippe top (models/tippe_top.nsm) with no drilling friction,
             spun at 100 to 300 rad/s, mu = 0.05 to 1, sliding on its ball
             for 1.3 s (its stem clear), by taylor, adaptive and rk4:
             Jellett's integral L . (r1 e_z - a1 e_3), the world frame's
             angular momentum against the contact point's offset, constant.
             Passed (kept).
  pull       (silent) a penalty contact's force column read at every step:
             the pair above at a = 1 (exact) and 1.25 (taylor), adaptive, k
             = 1e9 to 1e15, and a 0.1 kg ball dropped 5 cm onto a floor k
             p^a (a = 1.0001, 1.01, 1.5; k = 1e5 to 1e11) by taylor and
             adaptive: the force is never below 0.  It read k p^a of
             the law continued below p = 0 at the engagement (the gap open
             by 1e-20 m: -4.7e-5 N at k = 1e15, exact) and at a release
             (taylor's step ending 3e-15 m past it: -2.4e-4 N at a = 1.01,
             k = 1e11).  Failed before the fix.
  highexp    (loud) two 0.1 kg masses meeting at 1 m/s through k p^a, the
             exponent a parameter, k = 1e3 and 1e9 in SI, by taylor: for
             a = 2 to 8 the contact time of the closed form above within
             1e-9 (12 and 16 within 1e-6: the force is within its rounding
             over the last 1e-9 to 1e-7 of t_c), the velocities exchanged; a = 16.000001, 17, 50, 300 and 1e300
             given as parameters refused as invalid before the run, by
             taylor and adaptive, as nsmc refuses a written exponent
             outside [1, 16].  Before, they ran: at 200 to 300 taylor
             took the law as at p = 0 near the deepest penetration
             (zero_step's r^(1-a) overflowed), left it out for a 2 s step
             and stopped, "the energy balance is off by 0.497", exit 3.
             Failed before the fix.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main, compiled, refusal  # noqa: E402

METHODS = ("taylor", "rk4", "adaptive")


def agm(a, b):
    """The arithmetic-geometric mean of a and b (40 rounds: converged)."""
    for _ in range(40):
        a, b = (a + b) / 2, math.sqrt(a * b)
    return a


def ellk(kp):
    """The complete elliptic integral K of the complementary modulus kp."""
    return math.pi / (2 * agm(1.0, kp))


def hertz_text(a):
    """Two masses meeting through the penalty law k p^a, undamped."""
    unit = "" if a != int(a) else (" N/m" if a == 1 else " N/m^%d" % a)
    return '''model hz "a Hertz pair"
param kh = 1e9%s
param m1 = 0.1 kg
param m2 = 0.1 kg
param v = 1 m/s
param x0 = 1 mm
mass A = m1
mass B = m2
gap C: B.x - A.x >= 0 m, penalty(k = kh, c = 0 N*s/m, exponent = %r)
init A.x = -x0, A.v = v
simulate t_end = 1 s
output every 1 ms: A.v, B.v, C.force
''' % (unit, a)


def hertz_contact(a, mu, k, v):
    """The contact time of the law k p^a at reduced mass mu and closing
    speed v, and the deepest penetration p_m (energy)."""
    pm = ((a + 1) * mu * v * v / (2 * k)) ** (1 / (a + 1))
    e = 1 / (a + 1)
    return 2 * pm / v * math.sqrt(math.pi) * math.gamma(1 + e) / math.gamma(0.5 + e), pm


def case_hertzpair(tmp):
    """Hertz pairs: contact time by the closed form, elastic velocities."""
    for a in (1, 1.25, 1.5, 2, 2.5, 3):
        m = compiled(tmp, "hz%d" % int(a * 100), hertz_text(a))
        for k in (1e3, 1e9, 1e12):
            for m1, m2 in ((0.1, 0.1), (1.0, 1e-3)):
                mu = m1 * m2 / (m1 + m2)
                tc, _ = hertz_contact(a, mu, k, 1.0)
                va, vb = (m1 - m2) / (m1 + m2), 2 * m1 / (m1 + m2)
                for meth in (("exact",) if a == 1 else ()) + METHODS[a == 1:]:
                    kw = dict(method=meth, t_end=3.1 * tc, every=0,
                              params={"kh": k, "m1": m1, "m2": m2, "x0": 0.1 * tc})
                    if meth == "rk4":
                        kw["dt"] = tc / 2000
                    r = m.run(**kw)
                    ent = [e["t"] for e in r.events if e["kind"] == "contact_enter"]
                    ext = [e["t"] for e in r.events if e["kind"] == "contact_exit"]
                    check(len(ent) == 1 and len(ext) == 1, "a = %g, k = %g, %g/%g kg (%s): one contact"
                          % (a, k, m1, m2, meth))
                    dt = abs(ext[0] - ent[0] - tc) / tc
                    dv = abs(r["A.v"][-1] - va) + abs(r["B.v"][-1] - vb)
                    print("  a = %g, k = %g, %g and %g kg, %s -> contact %.12g s (closed form %.12g, "
                          "rel %.2g), velocities within %.2g" % (a, k, m1, m2, meth, ext[0] - ent[0],
                                                                 tc, dt, dv))
                    check(dt <= 1e-9 and dv <= 1e-8,
                          "Hertz pair a = %g, k = %g (%s): contact time and velocities" % (a, k, meth))


PEND = '''model pend "a pendulum"
param m = 1 kg
param l = 1 m
param g = 9.81 m/s^2
param phi0 = 1
param w0 = 0 rad/s
body P: mass = m, inertia = m*l^2
force grav: on P.phi = -m*g*l*sin(P.phi)
init P.phi = phi0, P.omega = w0
simulate t_end = 10 s
output every 10 ms: P.phi, P.omega
'''


def pend_kw(meth, t_end, every, T, params):
    """A pendulum run's keywords: rk4 at T/20000, adaptive at rtol 1e-11."""
    kw = dict(method=meth, t_end=t_end, every=every, params=params)
    if meth == "rk4":
        kw["dt"] = T / 20000
    if meth == "adaptive":
        kw.update(rtol=1e-11, atol=1e-13)
    return kw


def case_pendulum(tmp):
    """Large swings and full turns against their elliptic periods."""
    m = compiled(tmp, "pend", PEND)
    w = math.sqrt(9.81)
    for phi0 in (0.1, 1.0, 2.0, 3.0, 3.1, math.pi - 1e-3):
        T = 4 * ellk(math.cos(phi0 / 2)) / w
        for meth in METHODS:
            r = m.run(**pend_kw(meth, 2 * T, T / 2, T, {"phi0": phi0}))
            err = max(abs(r["P.phi"][-1] - phi0), abs(r["P.phi"][1] + phi0),
                      abs(r["P.omega"][-1]) / w)
            print("  released at %.17g rad, %s -> period %.12g s: off by %.2g" % (phi0, meth, T, err))
            check(err <= 2e-6, "pendulum from %.6g rad (%s): back after 4 K / w" % (phi0, meth))
    for f in (1.001, 1.1, 2.0, 10.0, 1000.0):
        w0 = 2 * w * f
        T = 4 / w0 * ellk(math.sqrt(1 - 1 / (f * f)))
        for meth in METHODS:
            r = m.run(**pend_kw(meth, 3 * T, T, T, {"phi0": 0.0, "w0": w0}))
            err = abs(r["P.phi"][-1] - 6 * math.pi) + abs(r["P.omega"][-1] - w0) / w0
            print("  turning at %g of the separatrix's speed, %s -> turn %.12g s: off by %.2g"
                  % (f, meth, T, err))
            check(err <= 1e-6, "pendulum turning at %g (%s): 6 pi after three turns" % (f, meth))


def case_rocking(tmp):
    """Housner's block: landing speeds in the ratio 1 - 3/2 sin^2 alpha."""
    m = compiled(tmp, "rock", path=os.path.join(sys.argv[1], "models", "rocking_block.nsm"))
    for b, h in ((0.2, 0.5), (0.1, 1.0), (0.5, 0.5), (0.3, 0.4), (0.01, 1.0)):
        al, R = math.atan(b / h), math.hypot(b, h)
        ratio = 1 - 1.5 * math.sin(al) ** 2
        for th0 in (0.1 * al, 0.5 * al, 0.9 * al):
            om = math.sqrt(2 * 9.81 * (R * math.cos(al - th0) - h) / (4.0 / 3 * R * R))
            for meth in METHODS:
                kw = dict(method=meth, t_end=1.5, params={"b": b, "h": h, "theta0": th0})
                if meth == "rk4":
                    kw["dt"] = 1e-4
                r = m.run(**kw)
                vr = [-e["vrel_before"] for e in r.events
                      if e["kind"] == "impact" and e["vrel_before"] < 0]
                dev = max([abs(vr[i + 1] / vr[i] - ratio) for i in range(min(8, len(vr) - 1))] or [0])
                first = abs(vr[0] - 2 * b * om) / (2 * b * om)
                zeno = any(e["kind"] == "zeno" for e in r.events)
                rest = abs(r["B.phi"][-1]) + abs(r["B.omega"][-1])
                print("  b = %g, h = %g, %.2g of the critical angle, %s -> first landing off by %.2g, "
                      "%d landings, ratio off by %.2g (%.9g)%s" % (b, h, th0 / al, meth, first, len(vr),
                                                                  dev, ratio, ", at rest" if zeno else ""))
                check(first <= 1e-9 and dev <= 1e-5 and (not zeno or rest <= 1e-12),
                      "rocking block b = %g, h = %g, %.2g (%s): Housner's ratio" % (b, h, th0 / al, meth))


FREE = '''model fr "a free body"
param I1 = 0.1 kg*m^2
param I2 = 0.2 kg*m^2
param I3 = 0.3 kg*m^2
param w1 = 0.01 rad/s
param w2 = 5 rad/s
param w3 = 0.01 rad/s
rigid B: mass = 1 kg, inertia = (I1, I2, I3)
init B.tilt = (1, 2, 3) * 0.7 rad, B.omega = (w1, w2, w3)
simulate t_end = 10 s
output every 10 ms: B.w1, B.w2, B.w3, B.p0, B.p1, B.p2, B.p3, energy.kinetic
'''


def world_momentum(I, w, p):
    """R(p) I w: the angular momentum in the world frame (R homogeneous)."""
    p0, p1, p2, p3 = p
    n = p0 * p0 + p1 * p1 + p2 * p2 + p3 * p3
    Rm = ((p0 * p0 + p1 * p1 - p2 * p2 - p3 * p3, 2 * (p1 * p2 - p0 * p3), 2 * (p1 * p3 + p0 * p2)),
          (2 * (p1 * p2 + p0 * p3), p0 * p0 - p1 * p1 + p2 * p2 - p3 * p3, 2 * (p2 * p3 - p0 * p1)),
          (2 * (p1 * p3 - p0 * p2), 2 * (p2 * p3 + p0 * p1), p0 * p0 - p1 * p1 - p2 * p2 + p3 * p3))
    Iw = [I[i] * w[i] for i in range(3)]
    return [sum(Rm[r][c] * Iw[c] for c in range(3)) / n for r in range(3)]


def case_rigid(tmp):
    """Free flight: kinetic energy and world angular momentum constant."""
    m = compiled(tmp, "fr", FREE)
    cases = (((0.1, 0.2, 0.3), (0.01, 5, 0.01)), ((0.1, 0.2, 0.3), (5, 0.01, 0.01)),
             ((0.1, 0.2, 0.3), (1, 2, 3)), ((1e-6, 2e-6, 2.5e-6), (100, -50, 30)),
             ((1.0, 1.0, 1.99), (0.3, 0.1, 20)), ((1.0, 1.0, 1.0), (1, 2, 3)),
             ((0.01, 1.0, 1.005), (0.5, 3, 0.2)), ((0.1, 0.2, 0.3), (1e3, 1e-3, 2)))
    for I, w in cases:
        E0 = 0.5 * sum(I[i] * w[i] ** 2 for i in range(3))
        for meth in METHODS:
            kw = dict(method=meth, t_end=10, every=0.05, params={"I1": I[0], "I2": I[1], "I3": I[2],
                                                                 "w1": w[0], "w2": w[1], "w3": w[2]})
            if meth == "rk4":
                kw["dt"] = 1e-4
            r = m.run(**kw)
            n = len(r.t)
            W = [(r["B.w1"][i], r["B.w2"][i], r["B.w3"][i]) for i in range(n)]
            L = [world_momentum(I, W[i], (r["B.p0"][i], r["B.p1"][i], r["B.p2"][i], r["B.p3"][i]))
                 for i in range(n)]
            L0 = math.sqrt(sum(c * c for c in L[0]))
            dE = max(abs(0.5 * sum(I[c] * W[i][c] ** 2 for c in range(3)) - E0) for i in range(n)) / E0
            dK = max(abs(x - E0) for x in r["energy.kinetic"]) / E0
            dL = max(math.sqrt(sum((L[i][c] - L[0][c]) ** 2 for c in range(3))) for i in range(n)) / L0
            print("  inertias %s, w %s, %s -> energy off by %.2g (column %.2g), momentum by %.2g"
                  % (I, w, meth, dE, dK, dL))
            check(max(dE, dK, dL) <= 1e-7, "free body %s, %s (%s): energy and momentum" % (I, w, meth))


BALL = '''model hb "a ball on a Hertz floor"
param kh = 1e11
param g = 9.81 m/s^2
mass B = 0.1 kg
gravity g
gap F: B.x >= 0 m, penalty(k = kh, c = 0 N*s/m, exponent = %r)
init B.x = 0.05 m
simulate t_end = 0.6 s
output every 1 ms: B.x, B.v, F.gap, F.force
'''


def case_pull(tmp):
    """A penalty contact's force column, read at every step, never pulls."""
    for a in (1, 1.25):
        m = compiled(tmp, "pair%d" % int(a * 100), hertz_text(a))
        for k in (1e9, 1e12, 1e15):
            for m1, m2 in ((0.1, 0.1), (1.0, 1e-3)):
                tc, _ = hertz_contact(a, m1 * m2 / (m1 + m2), k, 1.0)
                for meth in ("exact" if a == 1 else "taylor", "adaptive"):
                    r = m.run(method=meth, t_end=1e-3 + 3 * tc, every=0,
                              params={"kh": k, "m1": m1, "m2": m2, "x0": 1e-3})
                    f = min(r["C.force"])
                    print("  pair a = %g, k = %g, %g and %g kg, %s -> least force %r N (peak %.6g N)"
                          % (a, k, m1, m2, meth, f, max(r["C.force"])))
                    check(f >= 0, "pair a = %g, k = %g, %g/%g kg (%s): the force never pulls"
                          % (a, k, m1, m2, meth))
    for a in (1.0001, 1.01, 1.5):
        m = compiled(tmp, "ball%d" % int(a * 10000), BALL % a)
        for k in (1e5, 1e8, 1e11):
            for meth in ("taylor", "adaptive"):
                r = m.run(method=meth, t_end=0.6, every=0, params={"kh": k})
                f = min(r["F.force"])
                print("  ball a = %g, k = %g, %s -> least force %r N (peak %.6g N), %d releases"
                      % (a, k, meth, f, max(r["F.force"]),
                         sum(e["kind"] == "contact_exit" for e in r.events)))
                check(f >= 0, "ball on a floor a = %g, k = %g (%s): the force never pulls" % (a, k, meth))


WALL = '''model pw "a pendulum between impacts on a wall"
param m = 1 kg
param l = 1 m
param g = 9.81 m/s^2
param phi0 = 1
param phw = -0.5
body P: mass = m, inertia = m*l^2
force grav: on P.phi = -m*g*l*sin(P.phi)
gap wall: l*(P.phi - phw) >= 0 m, impact(e = 1)
init P.phi = phi0
simulate t_end = 20 s
output every 10 ms: P.phi, P.omega
'''


def ellf(psi, k, n=4000):
    """The incomplete elliptic integral F(psi, k) by Simpson's rule (its
    integrand smooth for k < 1)."""
    h, s = psi / n, 0.0
    for i in range(n + 1):
        f = 1 / math.sqrt(1 - (k * math.sin(i * h)) ** 2)
        s += f * (1 if i in (0, n) else (4 if i % 2 else 2))
    return s * h / 3


def case_section(tmp):
    """A pendulum bouncing elastically on a wall: the impact section's
    records at t1 + i P, all at the speed from energy."""
    m = compiled(tmp, "pw", WALL)
    w = math.sqrt(9.81)
    for phi0 in (0.3, 1.0, 2.5):
        for frac in (0.999, 0.5, 1e-3):
            phw, k = -phi0 * frac, math.sin(phi0 / 2)
            quarter = ellk(math.cos(phi0 / 2)) / w
            tw = ellf(math.asin(math.sin(-phw / 2) / k), k) / w
            t1, per = quarter + tw, 2 * (quarter + tw)
            om = math.sqrt(2 * 9.81 * (math.cos(phw) - math.cos(phi0)))
            for meth in METHODS:
                rec = m.section("impact:wall", t_end=10 * per + 0.1 * quarter,
                                params={"phi0": phi0, "phw": phw}, method=meth)
                et = max(abs(rec[i][0] - (t1 + i * per)) for i in range(len(rec)))
                eo = max(abs(abs(rec[i][7]) - om) for i in range(len(rec)))
                print("  released at %g rad, wall at %.4g rad, %s -> %d records, times off by %.2g s, "
                      "speeds by %.2g rad/s (%.9g)" % (phi0, phw, meth, len(rec), et, eo, om))
                check(len(rec) == 10 and et <= 1e-6 and eo <= 1e-6 * max(1, om),
                      "pendulum on a wall %g, %.4g (%s): the section's records" % (phi0, phw, meth))


HIGH = '''model hx "a pair through a law of a high exponent"
param kh = 1e9
param ex = 3
param x0 = 1 mm
mass A = 0.1 kg
mass B = 0.1 kg
gap C: B.x - A.x >= 0 m, penalty(k = kh, c = 0 N*s/m, exponent = ex)
init A.x = -x0, A.v = 1 m/s
simulate t_end = 3 s
output every 10 ms: A.v, B.v
'''


def case_highexp(tmp):
    """Penalty exponents 2 to 16 by taylor: the contact time of the closed
    form, the velocities exchanged; above 16, refused as the compiler
    refuses a written one."""
    m = compiled(tmp, "hx", HIGH)
    for a in (2, 4.5, 8, 12, 16):
        for k in (1e3, 1e9):
            tc, pm = hertz_contact(a, 0.05, k, 1.0)
            r = m.run(method="taylor", t_end=3.1 * tc, every=0, params={"ex": a, "kh": k, "x0": 0.1 * tc})
            ent = [e["t"] for e in r.events if e["kind"] == "contact_enter"]
            ext = [e["t"] for e in r.events if e["kind"] == "contact_exit"]
            dv = abs(r["A.v"][-1]) + abs(r["B.v"][-1] - 1)
            got = ext[0] - ent[0] if len(ent) == 1 and len(ext) == 1 else float("nan")
            print("  exponent %g, k = %g, taylor -> contact %.12g s (closed form %.12g, deepest %.6g m), "
                  "velocities within %.2g" % (a, k, got, tc, pm, dv))
            # from a = 12 the force k p^a is within its rounding over a band
            # of p whose crossing takes 1e-9 to 1e-7 of t_c: the release's
            # time is that band's, the exchange exact
            check((a > 8 or abs(got - tc) <= 1e-9 * tc) and abs(got - tc) <= 1e-6 * tc and dv <= 1e-9,
                  "exponent %g, k = %g (taylor): contact time and exchange" % (a, k))
    for a in (16.000001, 17, 50, 300, 1e300):
        for meth in ("taylor", "adaptive"):
            msg = refusal(lambda: m.run(method=meth, params={"ex": a}))
            print("  exponent %g by params, %s -> %s" % (a, meth, msg))
            check(msg is not None and "'ex'" in msg and "invalid value" in msg and "[1, 16]" in msg,
                  "exponent %g (%s): refused as the compiler refuses it" % (a, meth))


def case_jellett(tmp):
    """The tippe top without drilling friction, sliding on its ball:
    Jellett's integral L . (r1 e_z - a1 e_3) stays that of the start."""
    src = open(os.path.join(sys.argv[1], "models", "tippe_top.nsm")).read()
    src = src.replace("drill = 3 * pi * R / 16", "drill = 0 m").split("output every")[0]
    src += "output every 1 ms: T.w1, T.w2, T.w3, T.p0, T.p1, T.p2, T.p3, stem.gap\n"
    m = compiled(tmp, "tt", src)
    I, a1, r1 = (8e-7, 8e-7, 7e-7), 3e-3, 15e-3
    for spin, mu, meth in ((180.0, 0.3, "taylor"), (100.0, 0.05, "taylor"), (300.0, 1.0, "taylor"),
                           (180.0, 0.3, "adaptive"), (180.0, 1.0, "rk4")):
        kw = dict(method=meth, t_end=1.3, params={"spin": spin, "mu": mu})
        if meth == "rk4":
            kw["dt"] = 1e-5
        r = m.run(**kw)
        J = []
        for i in range(len(r.t)):
            p = (r["T.p0"][i], r["T.p1"][i], r["T.p2"][i], r["T.p3"][i])
            L = world_momentum(I, (r["T.w1"][i], r["T.w2"][i], r["T.w3"][i]), p)
            n = sum(c * c for c in p)
            e3 = (2 * (p[1] * p[3] + p[0] * p[2]) / n, 2 * (p[2] * p[3] - p[0] * p[1]) / n,
                  (p[0] ** 2 - p[1] ** 2 - p[2] ** 2 + p[3] ** 2) / n)
            J.append(L[2] * r1 - a1 * sum(L[c] * e3[c] for c in range(3)))
        clear = min(r["stem.gap"]) > 0
        dev = max(abs(j - J[0]) for j in J) / abs(J[0])
        print("  spin %g rad/s, mu = %g, %s -> Jellett's integral %.9g, off by %.2g, stem clear %s"
              % (spin, mu, meth, J[0], dev, clear))
        check(clear and dev <= 1e-10, "tippe top spin %g, mu = %g (%s): Jellett's integral" % (spin, mu, meth))


if __name__ == "__main__":
    sys.exit(main({"hertzpair": case_hertzpair, "pendulum": case_pendulum,
                   "rocking": case_rocking, "rigid": case_rigid,
                   "section": case_section, "pull": case_pull, "highexp": case_highexp,
                   "jellett": case_jellett}, "nsm-twentysecond-dyn-", case_arg=2))
