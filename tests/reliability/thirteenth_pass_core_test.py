#!/usr/bin/env python3
"""A thirteenth hostile pass on the core (issue #29): nonlinear models (a
pendulum written by its torque, a rocking block, discs in the plane, trains
of beads under each impact law) through the Python package, every answer
checked against a closed form or a reference written here, independently of
the runtime.

    tests/reliability/thirteenth_pass_core_test.py SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  findings   what the pass found, each failing before its fix: adaptive with
             tolerances below a double's rounding (rtol = 1e-300 and atol =
             0 or 1e-300, rtol = 5e-324) on pendulum_wall stopped at t = 0
             blaming "the stiffnesses and masses (a value off by orders of
             magnitude?)": it now names the tolerances (and rtol = 1e-20,
             which passes its test, still runs); a pendulum of l = 1e-100 m
             (period 2e-50 s) read "adaptive's error control needs steps of
             2.09e-50 s, below the resolution 6.08e-64 s", a step far above
             that resolution: adaptive's own floor of 1e-15 (1 + |t|) s
             stopped it, and the message now says so (rk4 with a --dt runs
             it, its first crossing of 0 at T/4 = sqrt(l/g) K).
  pendulum   a pendulum released at rest from phi0 = 0.1 to 3.1 rad: the
             downward crossings of phi = 0 at (k + 1/4) T, T = 4 sqrt(l/g)
             K(sin^2(phi0/2)) (mpmath's ellipk, 30 digits), by taylor, rk4
             and adaptive; pendulum_wall's impact times against the elliptic
             integrals of each flight (F(asin(sin(|phi_w|/2)/k), k^2)), for
             walls at -0.3, -0.499 and 0 rad, e = 0.8, 1, 0.5.
  bodies     Housner's rocking block: the first landing at t1 (the quadrature
             of the fall about a corner, mpmath), the rocking angle after it
             (the angular velocity times 1 - 3/2 sin^2 alpha) through the
             second landing's time; two discs colliding obliquely: the
             impact's time and the velocities after it by hand (equal and
             unequal masses, e = 0, 0.5, 1, head-on, 1e-6 against 1e6 kg);
  contacts   cart_pendulum's impacts on its stop: the impulse (1 + e) |u-| (M
             + m sin^2 th) through M(q), the loss and the rebound -e u-; a
             ball thrown to an apex 1e-15 and 1e-12 m from a ceiling:
             no penetration beyond the band, the ceiling's impact at 1 -
             sqrt(d) s, and the floor's landing by the closed form.
  laws       beads of 1, 2 and 3 kg struck at 1 m/s, under the sequential law
             (pair collisions in exact rationals, the fastest closing
             first) and the simultaneous law ((1 - 5e)/6, (1 + e)/6, (1 +
             e)/6 by hand), e = 1, 0.5, 0.25, 0, every method; under the
             energetic law, against the frozen-configuration law integrated
             here in time (compressions without gap memory, expansion at
             -vn/e^2), for unequal masses, stiffness ratios and exponents.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, compiled, main, thin  # noqa: E402

SRC = os.path.abspath(sys.argv[1])

# a pendulum written by its torque (no wall): phi'' = -(g/l) sin(phi)
PEND = '''model pend "a pendulum at large amplitude"
param m = 1 kg
param l = 1 m
param g = 9.81 m/s^2
param phi0 = 1
body P: mass = m, inertia = m*l^2
force gt: on P.phi = -m*g*l*sin(P.phi)
init P.phi = phi0, P.omega = 0 rad/s
simulate t_end = 10 s
output every 10 ms: P.phi, P.omega
'''

# a ball thrown up at 2 m/s under 2 m/s^2: its apex is at 1 m at t = 1 s
GRAZE = '''model graze "a ball whose apex touches a ceiling"
param g = 2 m/s^2
param H = 1 m
param e = 0.5
mass B = 1 kg
gravity g
gap ceiling: H - B.x >= 0, impact(e = e)
gap floor: B.x >= 0, impact(e = e)
init B.x = 0 m, B.v = 2 m/s
simulate t_end = 2.5 s
output every 0.25 s: B.x, B.v, ceiling.gap
'''

# beads of 1, 2, 3 kg, the first struck into the touching others
TRAIN = '''model train "three beads of 1, 2 and 3 kg"
param e = 1
mass P1 = 1 kg
mass P2 = 2 kg
mass P3 = 3 kg
gap G1: P2.x - P1.x >= 0, impact(e = e)
gap G2: P3.x - P2.x >= 0, impact(e = e)
init P1.x = -0.1 m, P1.v = 1 m/s
simulate t_end = 0.5 s, impact_law = LAW
output every 10 ms: P1.v, P2.v, P3.v
'''

# three beads under the energetic law, masses, stiffnesses, exponent and
# restitutions as parameters
CHAIN = '''model chain "three beads, the energetic law"
param m1 = 1 kg
param m2 = 1 kg
param m3 = 1 kg
param k1 = 1
param k2 = 1
param eta = 1
param e1 = 1
param e2 = 1
mass P1 = m1
mass P2 = m2
mass P3 = m3
gap G1: P2.x - P1.x >= 0, impact(e = e1, stiffness = k1, exponent = eta)
gap G2: P3.x - P2.x >= 0, impact(e = e2, stiffness = k2, exponent = eta)
init P1.x = -0.1 m, P1.v = 1 m/s
simulate t_end = 0.5 s, impact_law = energetic
output every 10 ms: P1.v, P2.v, P3.v
'''


def mp30():
    """mpmath at 30 digits."""
    import mpmath
    mpmath.mp.dps = 30
    return mpmath


def pendulum_period(phi0, l=1.0, g=9.81):
    """The period 4 sqrt(l/g) K(m), m = sin^2(phi0/2), of a pendulum from rest
    at phi0."""
    mp = mp30()
    return float(4 * mp.sqrt(mp.mpf(l) / g) * mp.ellipk(mp.sin(mp.mpf(phi0) / 2) ** 2))


def wall_times(phi0, phiw, e, n, l=1.0, g=9.81):
    """The first n impact times of a pendulum from rest at phi0 on a wall at
    phiw < 0: the fall to the wall sqrt(l/g) (K(k) + F(psi_w, k^2)), sin(phi/2)
    = k sin(psi); after each impact the energy above the wall's level falls
    by e^2, and each flight out and back takes 2 sqrt(l/g) (K + F) of its own
    modulus."""
    mp = mp30()
    s, phi0, pw, e = mp.sqrt(mp.mpf(l) / g), mp.mpf(phi0), mp.mpf(phiw), mp.mpf(e)
    k = mp.sin(phi0 / 2)
    t = s * (mp.ellipk(k ** 2) + mp.ellipf(mp.asin(mp.sin(abs(pw) / 2) / k), k ** 2))
    out, lift = [t], mp.cos(pw) - mp.cos(phi0)
    for i in range(1, n):
        kn = mp.sqrt((1 - (mp.cos(pw) - e ** (2 * i) * lift)) / 2)
        t += 2 * s * (mp.ellipk(kn ** 2) + mp.ellipf(mp.asin(mp.sin(abs(pw) / 2) / kn), kn ** 2))
        out.append(t)
    return [float(x) for x in out]


def case_findings(tmp):
    import nsm
    wall = compiled(tmp, "pendulum_wall", path=os.path.join(SRC, "models", "pendulum_wall.nsm"))
    for rtol, atol in ((1e-300, 0.0), (1e-300, 1e-300), (5e-324, 0.0)):
        try:
            wall.run(method="adaptive", rtol=rtol, atol=atol)
            check(False, "adaptive, rtol = %g, atol = %g: refused" % (rtol, atol))
        except nsm.SimulationError as e:
            print("  pendulum_wall adaptive rtol = %g atol = %g -> %s" % (rtol, atol, e))
            check("tolerances" in str(e) and "--rtol" in str(e) and
                  "stiffnesses and masses" not in str(e),
                  "adaptive, rtol = %g, atol = %g: the tolerances named, not the stiffnesses"
                  % (rtol, atol))
    ref = wall_times(1, -0.3, 0.8, 4)
    for rtol, atol in ((1e-20, 0.0), (1e-300, None)):
        r = wall.run(method="adaptive", rtol=rtol, atol=atol, t_end=ref[-1] + 0.01)
        ev = [float(x["t"]) for x in r.events if x["kind"] == "impact"]
        err = max(abs(a - b) for a, b in zip(ev, ref))
        print("  pendulum_wall adaptive rtol = %g atol = %s -> impacts within %.1e s"
              % (rtol, atol, err))
        check(len(ev) == 4 and err < 1e-11, "adaptive, rtol = %g, atol = %s: runs, its four "
              "impacts within 1e-11 s of the elliptic integrals" % (rtol, atol))
    pend = compiled(tmp, "pend", PEND)
    T = pendulum_period(2.0, l=1e-100)
    try:
        pend.run(method="adaptive", params={"l": 1e-100, "phi0": 2.0}, t_end=2.5 * T,
                 every=T / 10)
        check(False, "adaptive on a pendulum of 1e-100 m: refused")
    except nsm.SimulationError as e:
        print("  pendulum l = 1e-100 m, adaptive -> %s" % e)
        check("floor" in str(e) and "below the resolution" not in str(e),
              "adaptive, l = 1e-100 m: its own floor named, not the time axis's resolution")
    r = pend.run(method="rk4", dt=T / 5000, params={"l": 1e-100, "phi0": 2.0}, t_end=1.5 * T,
                 every=T / 100)
    phi = list(r["P.phi"])
    down = [k for k in range(1, len(phi)) if phi[k - 1] > 0 >= phi[k]]
    # the crossing by linear interpolation between samples T/100 apart
    cross = [r.t[k - 1] + (r.t[k] - r.t[k - 1]) * phi[k - 1] / (phi[k - 1] - phi[k]) for k in down]
    print("  pendulum l = 1e-100 m, rk4 dt = T/5000 -> first crossing at %.6e s (T/4 = %.6e)"
          % (cross[0], T / 4))
    check(abs(cross[0] - T / 4) < 1e-3 * T, "rk4 with a dt follows the pendulum of 1e-100 m: "
          "its first crossing at T/4 within the samples' interpolation")


def case_pendulum(tmp):
    import nsm
    pend = compiled(tmp, "pend", PEND)
    tol = {"taylor": 1e-12, "rk4": 1e-10, "adaptive": 1e-7}
    for phi0 in thin((0.1, 1.0, 2.0, 3.0, 3.1)):
        T = pendulum_period(phi0)
        for meth in ("taylor", "rk4", "adaptive"):
            recs = pend.section("plane:P.phi.x:down", t_end=2.1 * T, params={"phi0": phi0},
                                method=meth)
            err = max(abs(rec[0] - (k + 0.25) * T) for k, rec in enumerate(recs))
            print("  pendulum phi0 = %g, %s -> %d crossings within %.1e s of (k + 1/4) T, T = %.12g"
                  % (phi0, meth, len(recs), err, T))
            check(len(recs) == 2 and err < tol[meth], "pendulum phi0 = %g, %s: crossings at "
                  "(k + 1/4) T within %g s" % (phi0, meth, tol[meth]))
    wall = compiled(tmp, "pendulum_wall", path=os.path.join(SRC, "models", "pendulum_wall.nsm"))
    tol = {"taylor": 1e-13, "rk4": 1e-11, "adaptive": 1e-8}
    for phi0, phiw, e in thin(((1, -0.3, 0.8), (3.0, -0.3, 0.8), (0.5, -0.499, 1.0),
                               (2.5, 0.0, 0.5))):
        ref = wall_times(phi0, phiw, e, 4)
        for meth in ("taylor", "rk4", "adaptive"):
            r = wall.run(method=meth, params={"phi0": phi0, "phi_w": phiw, "e": e},
                         t_end=ref[-1] + 0.01)
            ev = [float(x["t"]) for x in r.events if x["kind"] == "impact"]
            err = max(abs(a - b) for a, b in zip(ev, ref))
            print("  pendulum_wall phi0 = %g, wall %g, e = %g, %s -> %d impacts within %.1e s, "
                  "gap >= %.2e m" % (phi0, phiw, e, meth, len(ev), err, min(r["wall.gap"])))
            check(len(ev) == 4 and err < tol[meth] and min(r["wall.gap"]) >= -1e-12,
                  "pendulum_wall phi0 = %g, wall %g, e = %g, %s: impacts at the elliptic "
                  "integrals' times within %g s, no penetration" % (phi0, phiw, e, meth, tol[meth]))
    try:
        pend.run(method="exact")
        check(False, "exact on the pendulum: refused")
    except nsm.SettingError as e:
        check("nonlinear" in str(e), "exact on a nonlinear model: refused, naming why")


def housner(b, h, th0, g=9.81):
    """(t1, t2): the first landing of a block released from rest tilted by
    th0 on a corner (I0 th'' = -m g R sin(alpha - th), I0 = 4/3 m R^2), and the
    second, after the landing has multiplied its angular velocity by 1 - 3/2
    sin^2 alpha and it has risen on the other corner to th1 and fallen back."""
    mp = mp30()
    R, al = mp.sqrt(b * b + h * h), mp.atan(mp.mpf(b) / h)
    p2 = 3 * mp.mpf(g) / (4 * R)

    def fall(a):
        """the time from rest at a to 0: th = a (1 - u^2), the root removed"""
        return mp.quad(lambda u: 2 * a / mp.sqrt(2 * p2 * a * mp.sin(al - a + a * u * u / 2) *
                                                 mp.sinc(a * u * u / 2)), [0, 1])
    w1 = mp.sqrt(2 * p2 * (mp.cos(al - th0) - mp.cos(al)))
    w1p = w1 * (1 - mp.mpf(3) / 2 * mp.sin(al) ** 2)
    th1 = al - mp.acos(mp.cos(al) + w1p ** 2 / (2 * p2))
    t1 = fall(mp.mpf(th0))
    return float(t1), float(t1 + 2 * fall(th1))


def oblique(mA, mB, b, u, e, rA=0.1, rB=0.1):
    """(t, vA, vB) of disc B (from x = -1 m, offset b, at u) striking disc A
    at rest: the contact where the centres are rA + rB apart, the normal
    impulse (1 + e) mA mB/(mA + mB) u cos(theta) along the centres' line."""
    D = rA + rB
    xc = -math.sqrt(D * D - b * b)
    n = (-xc / D, -b / D)
    P = (1 + e) * mA * mB / (mA + mB) * u * n[0]
    return (xc + 1) / u, (P / mA * n[0], P / mA * n[1]), (u - P / mB * n[0], -P / mB * n[1])


def case_bodies(tmp):
    block = compiled(tmp, "rocking_block", path=os.path.join(SRC, "models", "rocking_block.nsm"))
    tol = {"taylor": 1e-12, "rk4": 1e-10, "adaptive": 1e-10}
    for b, h, th0 in thin(((0.2, 0.5, 0.1), (0.2, 0.5, 0.35), (0.05, 1.0, 0.04),
                           (0.2, 0.5, 1e-6))):
        t1, t2 = housner(b, h, th0)
        for meth in ("taylor", "rk4", "adaptive"):
            r = block.run(method=meth, params={"b": b, "h": h, "theta0": th0}, t_end=t2 * 1.02)
            imp = [(float(x["t"]), x["contact"]) for x in r.events if x["kind"] == "impact"]
            err = max(abs(imp[0][0] - t1), abs(imp[1][0] - t2)) if len(imp) >= 2 else 1
            print("  rocking block b = %g, h = %g, theta0 = %g, %s -> landings %s within %.1e s"
                  % (b, h, th0, meth, [c for _, c in imp], err))
            check(len(imp) == 2 and [c for _, c in imp] == ["R", "L"] and err < tol[meth],
                  "rocking block b = %g, h = %g, theta0 = %g, %s: Housner's landings within %g s"
                  % (b, h, th0, meth, tol[meth]))
    discs = compiled(tmp, "discs2", open(os.path.join(SRC, "models", "discs_oblique.nsm")).read()
                     .replace("disc B: mass = m,", "disc B: mass = mB,")
                     .replace("param m = 1 kg", "param m = 1 kg\nparam mB = 1 kg"))
    for mA, mB, b, u, e in thin(((1, 1, 0.1, 1, 1), (1, 1, 0.1, 1, 0), (1, 3, 0.05, 2, 0.5),
                                 (1e-6, 1e6, 0.1, 1, 1), (1, 1, 0.0, 1, 1),
                                 (1, 1, 0.1999999, 1, 1), (1, 1, 0.1, 1e8, 1))):
        tr, vA, vB = oblique(mA, mB, b, u, e)
        for meth in ("taylor", "rk4", "adaptive"):
            r = discs.run(method=meth, t_end=2.0 / u, every=0.01 / u,
                          params={"m": mA, "mB": mB, "b": b, "u": u, "e": e})
            ev = [float(x["t"]) for x in r.events if x["kind"] == "impact"]
            got = (r["A.vx"][-1], r["A.vy"][-1], r["B.vx"][-1], r["B.vy"][-1])
            err = max(abs(g - w) for g, w in zip(got, vA + vB)) / u
            terr = abs(ev[0] - tr) / tr if len(ev) == 1 else 1
            print("  discs mA = %g, mB = %g, b = %g, u = %g, e = %g, %s -> impact time within "
                  "%.1e, velocities within %.1e of u" % (mA, mB, b, u, e, meth, terr, err))
            check(len(ev) == 1 and terr < 1e-13 and err < 1e-12 and min(r["touch.gap"]) > -1e-12,
                  "discs mA = %g, mB = %g, b = %g, e = %g, %s: the impact's time and the "
                  "velocities after it as by hand" % (mA, mB, b, e, meth))


def case_contacts(tmp):
    # the cart against its stop: W = (-1, 0), W M(q)^-1 W^T = 1/(M + m sin^2 th),
    # so the impulse is (1 + e) |u-| (M + m sin^2 th) and the loss half (1 - e^2)
    # u-^2 (M + m sin^2 th), th from the impact section's state
    cart = compiled(tmp, "cart_pendulum", path=os.path.join(SRC, "models", "cart_pendulum.nsm"))
    for e in (0.8, 0.0, 1.0):
        for meth in thin(("taylor", "rk4", "adaptive")):
            r = cart.run(method=meth, t_end=3, params={"e": e})
            sec = cart.section("impact:stop", t_end=3, method=meth, params={"e": e})
            imp = [x for x in r.events if x["kind"] == "impact"]
            worst = 0
            for ev, rec in zip(imp, sec):
                eff = 2.0 + 0.5 * math.sin(rec[3]) ** 2
                u = float(ev["vrel_before"])
                worst = max(worst, abs(ev["impulse"] / ((1 + e) * abs(u) * eff) - 1),
                            abs(ev["energy_lost"] - 0.5 * (1 - e * e) * u * u * eff) / abs(u * u),
                            abs(ev["vrel_after"] + e * u) / abs(u), abs(rec[0] - ev["t"]))
            print("  cart_pendulum e = %g, %s -> %d impacts, impulse, loss and rebound within %.1e"
                  % (e, meth, len(imp), worst))
            check(len(imp) == 2 == len(sec) and worst < 1e-13, "cart_pendulum e = %g, %s: the "
                  "impulse through M(q) by hand" % (e, meth))
    ball = compiled(tmp, "graze", GRAZE)
    for d in (1e-15, -1e-15, 1e-12, -1e-12):
        H = 1 - d
        # below the apex (d > 0) the ceiling is struck at 1 - sqrt(d) s at
        # 2 sqrt(d) m/s, the ball sent down at e times that; then the floor
        if d > 0:
            tc, vc = 1 - math.sqrt(d), 2 * math.sqrt(d)
            tau = (-0.5 * vc + math.sqrt(0.25 * vc * vc + 4 * H)) / 2
            land = tc + tau
        else:
            land = 2.0
        for meth in ("exact", "rk4", "adaptive"):
            r = ball.run(method=meth, params={"H": H}, every=0.01)
            ev = [(float(x["t"]), x["contact"]) for x in r.events if x["kind"] == "impact"]
            fl = [t for t, c in ev if c == "floor"]
            pen = -min(r["ceiling.gap"])
            print("  graze ceiling at 1 - (%g) m, %s -> %s, ceiling penetrated by %.1e m"
                  % (d, meth, ev, pen))
            check(pen <= 2e-15 and len(fl) == 1 and abs(fl[0] - land) < 1e-7,
                  "graze at 1 - (%g) m, %s: no penetration beyond 2e-15 m, the floor at %.9g s"
                  % (d, meth, land))
            if d == 1e-12:
                ce = [t for t, c in ev if c == "ceiling"]
                check(len(ce) == 1 and abs(ce[0] - tc) < 1e-9,
                      "graze at 1 - 1e-12 m, %s: the ceiling struck at 1 - 1e-6 s" % meth)


def sequential(e):
    """The sequential law on beads of 1, 2, 3 kg, the first at 1 m/s, in exact
    rationals: the fastest closing pair collides (Newton's law), until none
    closes."""
    m, v = [Fraction(1), Fraction(2), Fraction(3)], [Fraction(1), Fraction(0), Fraction(0)]
    for _ in range(200):
        closing = [(v[j] - v[j + 1], j) for j in (0, 1) if v[j] > v[j + 1]]
        if not closing:
            return v
        _, j = max(closing)
        vc = (m[j] * v[j] + m[j + 1] * v[j + 1]) / (m[j] + m[j + 1])
        v[j], v[j + 1] = vc - e * (v[j] - vc), vc - e * (v[j + 1] - vc)
    return v


def frozen_law(m, k, eta, e, h=1e-4):
    """Liu, Zhao and Brogliato's law on three beads (the first at 1 m/s), in
    the time of compliant contacts: forces k q^eta of compressions q that
    grow at -vn while the contact closes, shrink at -vn/e^2 while it opens,
    and stay 0 once separated (no gap is kept: an approaching contact
    compresses at once); classical RK4 until both are separated and
    receding."""
    q, v = [0.0, 0.0], [1.0, 0.0, 0.0]

    def rates(q, v):
        f = [k[j] * max(0.0, q[j]) ** eta for j in (0, 1)]
        vn = [v[1] - v[0], v[2] - v[1]]
        dq = [-vn[j] if vn[j] < 0 else (-vn[j] / e[j] ** 2 if q[j] > 0 else 0.0) for j in (0, 1)]
        return dq, [-f[0] / m[0], (f[0] - f[1]) / m[1], f[1] / m[2]]

    def ahead(c, d, a):
        """the rates at the stage q + c d, v + c a"""
        return rates([x + c * y for x, y in zip(q, d)], [x + c * y for x, y in zip(v, a)])

    for it in range(1000000):
        d1, a1 = rates(q, v)
        d2, a2 = ahead(h / 2, d1, a1)
        d3, a3 = ahead(h / 2, d2, a2)
        d4, a4 = ahead(h, d3, a3)
        q = [max(0.0, q[j] + h / 6 * (d1[j] + 2 * d2[j] + 2 * d3[j] + d4[j])) for j in (0, 1)]
        v = [v[i] + h / 6 * (a1[i] + 2 * a2[i] + 2 * a3[i] + a4[i]) for i in range(3)]
        if it > 10 and q == [0.0, 0.0] and v[0] <= v[1] <= v[2]:
            return v
    raise AssertionError("the reference's impact did not end")


def case_laws(tmp):
    for law in ("sequential", "simultaneous"):
        md = compiled(tmp, "train_" + law, TRAIN.replace("LAW", law))
        for e in (1, 0.5, 0.25, 0):
            ref = (sequential(Fraction(e)) if law == "sequential"
                   else [(1 - 5 * Fraction(e)) / 6, (1 + Fraction(e)) / 6, (1 + Fraction(e)) / 6])
            for meth in thin(("exact", "rk4", "adaptive")):
                r = md.run(method=meth, params={"e": e})
                got = [float(r[c][-1]) for c in ("P1.v", "P2.v", "P3.v")]
                err = max(abs(a - float(b)) for a, b in zip(got, ref))
                print("  train 1, 2, 3 kg, %s, e = %g, %s -> %s, within %.1e m/s of %s"
                      % (law, e, meth, ["%.12g" % g for g in got], err,
                         [str(x) if x.denominator < 10 ** 6 else "%.17g" % x for x in ref]))
                check(err < 1e-14, "train, %s, e = %g, %s: the velocities by hand" % (law, e, meth))
    md = compiled(tmp, "chain", CHAIN)
    for m, k, eta, e in thin((((3, 1, 1), (2, 1), 1.0, (1, 1)),
                              ((1, 1, 2), (1, 1), 1.0, (1, 1)),
                              ((1, 2, 1), (1, 1), 1.5, (1, 1)),
                              ((1, 1, 1), (1, 1), 1.5, (0.5, 0.5)),
                              ((3, 1, 1), (2, 1), 1.0, (0.8, 0.3)))):
        ref = frozen_law(m, k, eta, e)
        for meth in ("exact", "rk4"):
            r = md.run(method=meth, params={"m1": m[0], "m2": m[1], "m3": m[2], "k1": k[0],
                                            "k2": k[1], "eta": eta, "e1": e[0], "e2": e[1]})
            got = [float(r[c][-1]) for c in ("P1.v", "P2.v", "P3.v")]
            err = max(abs(a - b) for a, b in zip(got, ref))
            mom = sum(a * b for a, b in zip(m, got)) - m[0]
            print("  energetic m = %s, k = %s, eta = %g, e = %s, %s -> %s, within %.1e of the "
                  "frozen law, momentum %.1e" % (m, k, eta, e, meth, ["%.9f" % g for g in got],
                                                 err, mom))
            check(err < 1e-8 and abs(mom) < 1e-13, "energetic m = %s, k = %s, eta = %g, e = %s, "
                  "%s: the frozen law's velocities, momentum kept" % (m, k, eta, e, meth))


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-thirteenth-core-", case_arg=2))
